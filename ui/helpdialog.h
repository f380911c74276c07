// The help inside the app (Help menu): the local planner's command language, the keyboard shortcuts (read
// from the window's own actions, so the list never goes stale, plus the global emergency-stop hotkey) and a
// short guide for a first run. Each page is a small non-modal dialog with a text browser.
#pragma once

#include <QDialog>
#include <QList>

class QAction;
class QTextBrowser;

namespace ciu::ui {

class HelpDialog final : public QDialog
{
    Q_OBJECT
public:
    enum class Page : quint8
    {
        GettingStarted = 1,
        CommandLanguage,
        Shortcuts
    };

    HelpDialog(Page page, const QString& html, QWidget* parent = nullptr);
    Page page() const { return m_page; }
    QString html() const;

    // The pages' contents (pure).
    static QString gettingStartedHtml(const QString& stopHotkey);
    static QString commandLanguageHtml();
    // One row per action with a shortcut, and the global hotkey first.
    static QString shortcutsHtml(const QList<QAction*>& actions, const QString& stopHotkey);

private:
    Page m_page;
    QTextBrowser* m_browser;
};

} // namespace ciu::ui
