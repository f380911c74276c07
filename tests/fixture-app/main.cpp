// ciu-fixture-app: known widgets for end-to-end tests.
//
// stdout: one JSON object per line. {"event":"ready", "window":{x,y,w,h}, "widgets":[{name,type,label,
// rect:{x,y,w,h}}]} once the window is shown (root coordinates), then one line per state change
// (clicked, text_changed, toggled, combo_changed, slider_changed, tab_changed, menu_opened,
// menu_closed, menu_triggered, context_menu, list_selected, list_scrolled, dialog_opened, dialog_closed, ...)
// and per raw input event (key_press, key_release, mouse_press, mouse_release, mouse_double_click, wheel).
// stdin: commands, one a line: dump | move NAME X Y | open-dialog | open-window | close-window |
// set-clipboard TEXT | set-clipboard-image W H RRGGBB | get-clipboard | focus NAME | sync |
// max-length NAME N | add-drifting DX DY | settle-drifting | quit
// (sync answers "synced" once every pending event is handled and every repaint has reached the X server)
// The ready and widgets lines also carry the app's "pid".
//
// Options: --geometry X,Y,W,H places the window; --toolbar adds a tool bar of icon-only buttons (tool_new,
// tool_open, tool_save, tool_find, tool_undo, tool_redo; icons from the Adwaita theme unless the platform
// names one), then own_pin and own_kite, with icons of their own (no theme has them; only their tool tips
// name them).

#include "fixturewindow.h"

#include <QApplication>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ciu-fixture-app"));
    QApplication::setStyle(QStringLiteral("Fusion"));
    const QStringList args = QApplication::arguments();
    FixtureWindow window(args.contains(QStringLiteral("--toolbar")));
    const qsizetype g = args.indexOf(QStringLiteral("--geometry"));
    if (g >= 0 && g + 1 < args.size()) {
        const QStringList v = args.at(g + 1).split(QLatin1Char(','));
        if (v.size() == 4)
            window.setGeometry(v[0].toInt(), v[1].toInt(), v[2].toInt(), v[3].toInt());
    }
    window.show();
    return QApplication::exec();
}
