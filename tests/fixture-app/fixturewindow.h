#pragma once

#include <QJsonObject>
#include <QMainWindow>
#include <QPointer>

class QDialog;
class QSocketNotifier;

// A window of known widgets for end-to-end tests. Prints one JSON object per line on stdout for every
// state change and input event; reads plain-text commands on stdin (see main.cpp).
class FixtureWindow final : public QMainWindow
{
    Q_OBJECT
public:
    // `toolBar`: a tool bar of icon-only buttons (freedesktop theme icons) above the tabs.
    explicit FixtureWindow(bool toolBar = false);

    void emitEvent(const QString& event, QJsonObject data = {});
    void dumpWidgets(const QString& event = QStringLiteral("widgets"));
    void runCommand(const QString& line);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildMenus();
    void buildToolBar();
    QWidget* buildMainPage();
    QWidget* buildSecondPage();
    void openDialog();
    void openSecondWindow();

    QPointer<QDialog> m_dialog;
    QPointer<QWidget> m_secondWindow;
    QSocketNotifier* m_stdin = nullptr;
    bool m_readySent = false;
};
