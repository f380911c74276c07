#!/usr/bin/python3
# A GTK 3 program for the accessibility tests: a dialog with a list (like zenity --list) and a second
# window whose status label is set from stdin ("status TEXT" sets it and prints "status TEXT"). The
# status window gives a test a point at which every event the program sent before has been received,
# without touching the dialog's tree. Prints "ready" once both windows are shown.
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

dialog = Gtk.Dialog(title="Fruit")
dialog.add_button("Cancel", Gtk.ResponseType.CANCEL)
dialog.add_button("OK", Gtk.ResponseType.OK)
store = Gtk.ListStore(str)
for fruit in ("Apple", "Banana", "Cherry"):
    store.append([fruit])
view = Gtk.TreeView(model=store)
view.append_column(Gtk.TreeViewColumn("Fruit", Gtk.CellRendererText(), text=0))
content = dialog.get_content_area()
content.pack_start(Gtk.Label(label="Pick a fruit."), False, False, 4)
content.pack_start(view, True, True, 4)
dialog.set_default_size(300, 220)
dialog.move(100, 100)

status_window = Gtk.Window(title="Status")
status = Gtk.Label(label="idle")
status_window.add(status)
status_window.set_default_size(200, 60)
status_window.move(700, 100)


def on_command(source, condition):
    line = sys.stdin.readline()
    if not line:
        Gtk.main_quit()
        return False
    words = line.strip().split(" ", 1)
    if words[0] == "status" and len(words) == 2:
        status.set_text(words[1])
        print("status " + words[1], flush=True)
    return True


GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_command)
dialog.connect("destroy", Gtk.main_quit)
dialog.show_all()
status_window.show_all()
print("ready", flush=True)
Gtk.main()
