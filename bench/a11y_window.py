#!/usr/bin/python3
# A GTK 3 window of 240 widgets for `ciu-agent bench a11y program="/usr/bin/python3 bench/a11y_window.py"`: 60 rows
# of a label, an entry, a check box and a button, all showing at once (a big form or settings page), so the
# full map, the event latency and pyatspi's re-walk are measured on a window of 200+ widgets.
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 60

window = Gtk.Window(title="a11y bench: %d widgets" % (4 * ROWS))
window.connect("destroy", Gtk.main_quit)
grid = Gtk.Grid(column_spacing=6, row_spacing=1)
for row in range(ROWS):
    column, line = divmod(row, 30)
    grid.attach(Gtk.Label(label="Field %d" % (row + 1)), column * 4, line, 1, 1)
    entry = Gtk.Entry()
    entry.set_text("value %d" % (row + 1))
    entry.set_width_chars(10)
    grid.attach(entry, column * 4 + 1, line, 1, 1)
    grid.attach(Gtk.CheckButton(label="Option %d" % (row + 1)), column * 4 + 2, line, 1, 1)
    grid.attach(Gtk.Button(label="Apply %d" % (row + 1)), column * 4 + 3, line, 1, 1)
window.add(grid)
window.show_all()
Gtk.main()
