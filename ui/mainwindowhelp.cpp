// The main window's help and questions to the user: the Help menu's pages, the first-run hint, the API key's
// status in the settings dialog and the choice offered when the keychain cannot store a key (apart from the
// window's wiring in mainwindow.cpp and its menus in mainwindowactions.cpp).

#include "ui/helpdialog.h"
#include "ui/mainwindow.h"
#include "ui/settingsdialog.h"
#include "ui/taskconsole.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>

namespace ciu::ui {

void MainWindow::showFirstRunHint()
{
    const auto settings = openSettings();
    if (settings->value(QStringLiteral("help/firstRunHintClosed"), false).toBool())
        return;
    m_console->showHint(
        tr("<b>New here?</b> Type a command such as <i>click OK</i> and press Run: a new task "
           "is a dry run that only shows what the agent would do. Help ▸ Getting started "
           "explains more."));
}

HelpDialog* MainWindow::showHelp(HelpDialog::Page p)
{
    QString html;
    switch (p) {
    case HelpDialog::Page::GettingStarted:
        html = HelpDialog::gettingStartedHtml(m_settings.stopHotkey);
        break;
    case HelpDialog::Page::CommandLanguage:
        html = HelpDialog::commandLanguageHtml();
        break;
    case HelpDialog::Page::Shortcuts: {
        QList<QAction*> actions;
        for (QAction* menu : menuBar()->actions()) {
            if (menu->menu())
                actions += menu->menu()->actions();
        }
        html = HelpDialog::shortcutsHtml(actions, m_settings.stopHotkey);
        break;
    }
    }
    auto* dialog = new HelpDialog(p, html, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void MainWindow::setApiKeyStatus(const QString& provider, const QString& status, bool hasKey)
{
    if (m_settingsDialog)
        m_settingsDialog->setKeyStatus(provider, status, hasKey);
}

void MainWindow::offerSessionKey(const QString& provider, const QString& key, const QString& failure)
{
    auto* box = new QMessageBox(QMessageBox::Warning, tr("API key"),
                                tr("The key cannot be stored: %1").arg(failure), QMessageBox::NoButton, this);
    box->setInformativeText(
        tr("Use it for this session only? It stays in memory until the app quits and is never written "
           "anywhere. Or keep it in a file in your configuration folder that only you can read (mode 0600): "
           "anyone who can act as your user can read it there."));
    QPushButton* keep = box->addButton(tr("&Use for this session"), QMessageBox::AcceptRole);
    QPushButton* file = box->addButton(tr("&Keep in a private file"), QMessageBox::AcceptRole);
    box->addButton(tr("&Discard the key"), QMessageBox::RejectRole);
    box->setDefaultButton(keep);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this,
            [this, keep, file, provider, key](QAbstractButton* button) {
                if (button == keep) {
                    emit sessionKeyChosen(provider, key);
                    setStatusMessage(tr("The API key is kept for this session only."));
                } else if (button == file) {
                    emit keyFileChosen(provider, key); // the receiver reports where it went, or why not
                } else {
                    setStatusMessage(tr("The API key was discarded."));
                }
            });
    box->open();
}

} // namespace ciu::ui
