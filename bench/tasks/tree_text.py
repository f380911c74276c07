#!/usr/bin/python3
"""Prints, one per line, the names, texts and values the accessibility tree holds for the program of process
PID: the task suite's evidence for programs whose result is shown, not printed (a calculator's display).
Debian's python3 with python3-gi and the Atspi typelib.

    tree_text.py PID
"""
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402


def walk(node, out, depth=0):
    if node is None or depth > 40:
        return
    try:
        name = node.get_name()
        if name:
            out.append(name)
        text = node.get_text_iface()
        if text is not None:
            count = Atspi.Text.get_character_count(text)
            if 0 < count < 10000:
                out.append(Atspi.Text.get_text(text, 0, count))
        value = node.get_value_iface()
        if value is not None:
            out.append(repr(Atspi.Value.get_current_value(value)))
        for i in range(min(node.get_child_count(), 2000)):
            walk(node.get_child_at_index(i), out, depth + 1)
    except gi.repository.GLib.Error:
        return


def main():
    pid = int(sys.argv[1])
    desktop = Atspi.get_desktop(0)
    out = []
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app is not None and app.get_process_id() == pid:
                walk(app, out)
        except gi.repository.GLib.Error:
            continue
    for line in out:
        print(line.replace("\n", " "))


if __name__ == "__main__":
    main()
