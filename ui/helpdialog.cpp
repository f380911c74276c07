#include "ui/helpdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ciu::ui {

HelpDialog::HelpDialog(Page page, const QString& html, QWidget* parent)
    : QDialog(parent)
    , m_page(page)
    , m_browser(new QTextBrowser(this))
{
    switch (page) {
    case Page::GettingStarted:
        setWindowTitle(tr("Getting started"));
        break;
    case Page::CommandLanguage:
        setWindowTitle(tr("Command language"));
        break;
    case Page::Shortcuts:
        setWindowTitle(tr("Keyboard shortcuts"));
        break;
    }
    m_browser->setOpenExternalLinks(true);
    m_browser->setHtml(html);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(640, 520);
}

QString HelpDialog::html() const
{
    return m_browser->toPlainText();
}

QString HelpDialog::gettingStartedHtml(const QString& stopHotkey)
{
    return tr("<h3>Getting started</h3>"
              "<ol>"
              "<li>The live view shows the target display and the zones the agent found on it (buttons, "
              "fields, menus). Click a zone to inspect or correct it in the Zones panel.</li>"
              "<li>Type a task in the Task panel, for example <code>click OK</code> or "
              "<code>type \"hello\" into Name then press Return</code>, and press <b>Run</b>.</li>"
              "<li>A new task is a <b>dry run</b>: the plan shows what the agent <i>would</i> do and nothing "
              "is clicked. Untick <i>Dry run</i> to let it act.</li>"
              "<li>The offline planner reads commands (Help ▸ Command language). For tasks in your own "
              "words, choose Anthropic or an OpenAI-compatible model in File ▸ Settings.</li>"
              "<li>Stop the agent at any time: the Stop button, Shift+Esc, or <b>%1</b> anywhere, also on "
              "the target display. Moving the mouse during a run pauses the agent.</li>"
              "<li>Every run is recorded: File ▸ Open last recording replays it.</li>"
              "</ol>")
        .arg(stopHotkey.toHtmlEscaped());
}

QString HelpDialog::commandLanguageHtml()
{
    return tr("<h3>The offline planner's commands</h3>"
              "<table cellpadding=\"3\">"
              "<tr><td><code>click OK</code></td><td>also double-click, right-click, middle-click, "
              "triple-click</td></tr>"
              "<tr><td><code>hover Submit</code></td><td>also: move to Submit</td></tr>"
              "<tr><td><code>type \"hello\" into Search</code></td><td>replaces the field's text; or "
              "<code>type \"hello\"</code> into the focused field</td></tr>"
              "<tr><td><code>append \".txt\" to Name</code></td><td>types at the end of the field's "
              "text</td></tr>"
              "<tr><td><code>press ctrl+s</code></td><td>also: key ctrl+s; xdotool key names (alt+Tab, "
              "KP_Enter, Super_L)</td></tr>"
              "<tr><td><code>scroll down 3 in Results</code></td><td>or scroll up</td></tr>"
              "<tr><td><code>drag \"Item 1\" to Trash</code></td><td></td></tr>"
              "<tr><td><code>wait for \"Saved\"</code></td><td>or wait 2s, wait 500ms</td></tr>"
              "<tr><td><code>launch xterm -e top</code></td><td>starts a program</td></tr>"
              "<tr><td><code>check Subscribe</code></td><td>or uncheck \"Remember me\"</td></tr>"
              "<tr><td><code>select Blue in Color</code></td><td>also: choose</td></tr>"
              "</table>"
              "<p>Join commands with new lines, <code>;</code> or <code>then</code>. Names are matched "
              "against the labels of the zones on screen (case-insensitive, fuzzy); an ambiguous or missing "
              "name is an error that lists the candidates. <code>#z12</code> names a zone by its id.</p>");
}

QString HelpDialog::shortcutsHtml(const QList<QAction*>& actions, const QString& stopHotkey)
{
    QString rows = tr("<tr><td><b>%1</b></td><td>Emergency stop, global: works whichever window has the "
                      "focus, on this display and on the target display</td></tr>")
                       .arg(stopHotkey.toHtmlEscaped());
    for (const QAction* action : actions) {
        if (action->shortcuts().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        QString text = action->text();
        text.remove(QLatin1Char('&'));
        text.remove(QStringLiteral("…"));
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(keys.join(QStringLiteral(", ")).toHtmlEscaped(), text.toHtmlEscaped());
    }
    return tr("<h3>Keyboard shortcuts</h3><table cellpadding=\"3\">%1</table>"
              "<p>In takeover mode your keys go to the target display; Ctrl+wheel still zooms.</p>")
        .arg(rows);
}

} // namespace ciu::ui
