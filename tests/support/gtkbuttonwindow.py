#!/usr/bin/python3
# A GTK 3 window for the verified-outcomes tests: a button whose click changes nothing on the screen (it
# only prints "clicked" on stdout, so a test knows the click landed) beside a text field, so that clicking
# the button moves the keyboard focus and its focus ring: the only change a screen can show. Prints
# "ready" once shown; on "state" from stdin prints the field's text as "field TEXT".
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

window = Gtk.Window(title=sys.argv[1] if len(sys.argv) > 1 else "Tools")
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
box.set_border_width(12)
field = Gtk.Entry()
field.set_text("draft")
button = Gtk.Button(label="Refresh")
button.connect("clicked", lambda _b: print("clicked", flush=True))
box.pack_start(field, False, False, 0)
box.pack_start(button, False, False, 0)
window.add(box)
window.set_default_size(320, 120)
window.move(120, 120)


def on_command(source, condition):
    line = sys.stdin.readline()
    if not line:
        Gtk.main_quit()
        return False
    if line.strip() == "state":
        print("field " + field.get_text(), flush=True)
    return True


GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_command)
window.connect("destroy", Gtk.main_quit)
window.show_all()
field.grab_focus()
print("ready", flush=True)
Gtk.main()
