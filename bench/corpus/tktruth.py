# Ground truth for Tk programs, which have no accessibility tree: the program runs with tkprobe.tcl in its
# interpreter (tkrun.tcl or tkrun.py), and this side asks it for its widget tree through files. The widgets
# are given the AT-SPI role a toolkit with accessibility gives the same control, so `ciu-agent bench vision`
# maps them with the agent's own role mapping, as it does for GTK and Qt.
import os
import subprocess
import time

from boxes import clip, covered_share

HERE = os.path.dirname(os.path.abspath(__file__))
ELLIPSES = ("\u2026", "...")

# Tk widget class -> the role of the same control in AT-SPI. A class not here (a frame, a canvas, a
# program's own megawidget class) is a container: its children are the controls.
ROLES = {
    "Button": "push button", "TButton": "push button",
    "Checkbutton": "check box", "TCheckbutton": "check box",
    "Radiobutton": "radio button", "TRadiobutton": "radio button",
    "Entry": "text", "TEntry": "text", "Text": "text",
    "Spinbox": "spin button", "TSpinbox": "spin button",
    "TCombobox": "combo box", "TMenubutton": "combo box",
    "Listbox": "list", "Treeview": "tree",
    "Scale": "slider", "TScale": "slider",
    "Scrollbar": "scroll bar", "TScrollbar": "scroll bar",
    "Label": "label", "TLabel": "label", "Message": "label",
    "TProgressbar": "progress bar", "TNotebook": "page tab list",
}
MENU_ENTRY_ROLES = {"command": "menu item", "checkbutton": "check menu item",
                    "radiobutton": "radio menu item", "cascade": "menu"}
EDITABLE_CLASSES = {"Entry", "TEntry", "Text", "Spinbox", "TSpinbox", "TCombobox"}


def command(program):
    """The program's command line with the probe: a Tcl script through wish and tkrun.tcl (argv: the script
    and its arguments), a Python tkinter program through tkrun.py (argv: python3 and its arguments)."""
    argv = list(program["argv"])
    if program.get("probe") == "tkinter":
        return ["/usr/bin/python3", os.path.join(HERE, "tkrun.py")] + argv[1:]
    return ["wish", os.path.join(HERE, "tkrun.tcl")] + argv


def environment(probe_dir):
    return {"CIU_TK_PROBE_DIR": probe_dir}


class Probe:
    """The running program's probe: each read() asks for the whole tree and parses the reply."""

    def __init__(self, folder):
        self.folder = folder

    def read(self, limit_s=10.0):
        reply = os.path.join(self.folder, "reply")
        if os.path.exists(reply):
            os.remove(reply)
        with open(os.path.join(self.folder, "request"), "w") as f:
            f.write("tree\n")
        deadline = time.time() + limit_s
        while not os.path.exists(reply):
            if time.time() > deadline:
                return None
            time.sleep(0.05)
        with open(reply, encoding="utf-8", errors="replace") as f:
            return Tree(f.read())


class Tree:
    """One reply of the probe (the line format is documented in tkprobe.tcl)."""

    def __init__(self, text):
        self.widgets, self.entries, self.tabs, self.items, self.headings = {}, [], [], [], []
        self.frames, self.titles, self.stack = {}, {}, []
        for line in text.splitlines():
            f = line.split("\t")
            kind = f[0]
            if kind == "W" and len(f) >= 11:
                self.widgets[f[1]] = {"path": f[1], "class": f[2], "box": [int(v) for v in f[3:7]],
                                      "viewable": f[7] == "1", "toplevel": f[8],
                                      "state": f[9].split(","), "text": f[10]}
            elif kind == "E" and len(f) >= 10:
                self.entries.append({"menu": f[1], "index": int(f[2]), "type": f[3],
                                     "box": [int(v) for v in f[4:8]], "state": f[8], "label": f[9]})
            elif kind == "T" and len(f) >= 9:
                self.tabs.append({"widget": f[1], "index": int(f[2]), "box": [int(v) for v in f[3:7]],
                                  "selected": f[7] == "1", "text": f[8]})
            elif kind == "I" and len(f) >= 8:
                self.items.append({"widget": f[1], "box": [int(v) for v in f[2:6]], "selected": f[6] == "1",
                                   "text": f[7]})
            elif kind == "H" and len(f) >= 7:
                self.headings.append({"widget": f[1], "box": [int(v) for v in f[2:6]], "text": f[6]})
            elif kind == "X" and len(f) >= 4:
                self.frames[f[1]] = int(f[2], 16)
                self.titles[f[1]] = f[3]
            elif kind == "S":
                self.stack = [p for p in f[1:] if p]

    def is_menubar(self, menu):
        w = self.widgets.get(menu)
        return w is not None and w["toplevel"] != menu

    def popups(self):
        """The posted menus: their own toplevels, above every window."""
        return [p for p, w in self.widgets.items() if w["class"] == "Menu" and w["toplevel"] == p]

    def menu_titles(self):
        """What opens a menu: a menu bar's entries, then the classic menu buttons (a row of them is how
        older Tk programs draw a menu bar)."""
        titles = [e for e in self.entries if self.is_menubar(e["menu"]) and e["type"] == "cascade"
                  and e["state"] != "disabled"]
        titles += [w for w in self.widgets.values() if w["class"] in ("Menubutton", "TMenubutton")
                   and w["viewable"] and "disabled" not in w["state"]]
        return titles

    def dialog_openers(self):
        """Entries of posted menus and buttons whose label ends in an ellipsis: they open a dialog."""
        return [e for e in self.entries if not self.is_menubar(e["menu"]) and e["type"] == "command"
                and e["label"].strip().endswith(ELLIPSES) and e["state"] != "disabled"]

    def buttons_opening_dialogs(self):
        return [w for w in self.widgets.values() if w["class"] in ("Button", "TButton") and w["viewable"]
                and w["text"].strip().endswith(ELLIPSES) and "disabled" not in w["state"]]


def click_box(display, box):
    env = dict(os.environ, DISPLAY=display)
    x, y = box[0] + box[2] // 2, box[1] + box[3] // 2
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=20)


def label_of(thing):
    return (thing.get("label") or thing.get("text") or "").strip()


def enter_state(display, probe, state):
    """Like capture.enter_state, through the probe's tree: a description, or None when the program has
    no such state."""
    tree = probe.read()
    if tree is None:
        return None
    if state == "menu":
        for t in tree.menu_titles():
            click_box(display, t["box"])
            return "menu " + label_of(t)
        return None
    if state == "dialog":
        for b in tree.buttons_opening_dialogs():
            click_box(display, b["box"])
            return "clicked " + label_of(b)
        for t in tree.menu_titles():
            click_box(display, t["box"])
            for _ in range(3):  # the menu posts after the click
                time.sleep(0.3)
                posted = probe.read()
                openers = posted.dialog_openers() if posted else []
                if openers:
                    click_box(display, openers[0]["box"])
                    return f"{label_of(t)} > {label_of(openers[0])}"
            subprocess.run(["xdotool", "key", "Escape"], env=dict(os.environ, DISPLAY=display),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)
            time.sleep(0.3)
        return None
    if state == "tab":
        for t in tree.tabs:
            if not t["selected"]:
                click_box(display, t["box"])
                return "tab " + t["text"]
        return None
    return "main window"


def wait_for_window(probe, limit_s=30.0):
    deadline = time.time() + limit_s
    while time.time() < deadline:
        tree = probe.read(limit_s=2.0)
        if tree is not None and any(w in tree.widgets and tree.widgets[w]["box"][2] > 1
                                    for w in tree.frames):
            return tree
        time.sleep(0.2)
    return None


def nodes(tree):
    """The tree's controls as corpus nodes (before clipping), each with the widget it is (or is part of) and
    its toplevel."""
    out = []

    def add(path, toplevel, role, name, states, box):
        out.append(({"depth": path.count(".") + (path != "."), "role": role, "name": name, "states": states,
                     "bounds": list(box)}, path, toplevel))

    for path, w in tree.widgets.items():
        if not w["viewable"]:
            continue
        role = ROLES.get(w["class"])
        if w["class"] == "Menubutton":
            role = "combo box" if "indicator" in w["state"] else "menu"
        if role is None or role == "text" and any(p.startswith(path + ".") for p in tree.widgets):
            continue  # a container; an entry holding widgets is a frame drawn like a field (Tk's icon list)
        states = ["showing", "visible"]
        if "disabled" not in w["state"]:
            states.append("enabled")
        # Editable unless disabled or read-only (a ttk entry may leave its -state option empty).
        if w["class"] in EDITABLE_CLASSES and not {"disabled", "readonly"} & set(w["state"]):
            states.append("editable")
        if "checked" in w["state"]:
            states.append("checked")
        name = w["text"] if role not in ("text", "spin button", "combo box") else ""
        add(path, w["toplevel"], role, name, sorted(set(states)), w["box"])
    for e in tree.entries:
        role = MENU_ENTRY_ROLES.get(e["type"])
        if role is None:
            continue  # a tear-off line or a separator
        states = ["showing", "visible"] + ([] if e["state"] == "disabled" else ["enabled"])
        top = tree.widgets[e["menu"]]["toplevel"] if e["menu"] in tree.widgets else e["menu"]
        add(e["menu"], top, role, e["label"], sorted(states), e["box"])
    for t in tree.tabs:
        top = tree.widgets[t["widget"]]["toplevel"] if t["widget"] in tree.widgets else "."
        states = ["enabled", "showing", "visible"] + (["selected"] if t["selected"] else [])
        add(t["widget"], top, "page tab", t["text"], sorted(states), t["box"])
    item_roles = {"Listbox": "list item", "Treeview": "tree item"}
    for i in tree.items:
        w = tree.widgets.get(i["widget"])
        if w is None or not w["viewable"]:
            continue
        states = ["enabled", "showing", "visible"] + (["selected"] if i["selected"] else [])
        add(i["widget"], w["toplevel"], item_roles.get(w["class"], "list item"), i["text"],
            sorted(states), i["box"])
    for h in tree.headings:
        w = tree.widgets.get(h["widget"])
        if w is not None and w["viewable"]:
            add(h["widget"], w["toplevel"], "column header", h["text"],
                ["enabled", "showing", "visible"], h["box"])
    return out


def clip_to_ancestors(tree, path, box):
    """A widget is seen only where each of its ancestors (up to its toplevel) is: a scrolled frame's
    children outside it are hidden. A part (a menu's entry, a list's row) is clipped by its widget too.
    The toplevel is not one of them: its menu bar lies above its client area, in its X window."""
    p = path
    while True:
        w = tree.widgets.get(p)
        if w is None or w["toplevel"] == p:
            return box
        box = clip(box, w["box"])
        if "." not in p[1:]:
            return box
        p = p[:p.rindex(".")] or "."


def ground_truth(tree, screen, window_boxes):
    """The showing controls, clipped as capture.ground_truth clips the accessibility tree's: to their
    window (`window_boxes`: each mapped toplevel's X window, its menu bar included) and the screen, and
    dropped when more than half covered by a window above (a posted menu lies above them all)."""
    popups = tree.popups()
    order = [t for t in tree.stack if t in window_boxes]
    order += [t for t in window_boxes if t not in order]
    boxes = dict(window_boxes)
    for p in popups:
        boxes[p] = tree.widgets[p]["box"]
    order += popups
    rank = {t: r for r, t in enumerate(order)}
    windows = [{"role": "menu" if t in popups else "frame" if t == "." else "dialog",
                "name": tree.titles.get(t, ""), "bounds": boxes[t], "rank": rank[t]} for t in order]
    kept, dropped = [], 0
    for node, path, top in nodes(tree):
        if top not in rank:
            dropped += 1
            continue
        box = clip(clip(clip_to_ancestors(tree, path, node["bounds"]), boxes[top]), [0, 0, screen[0], screen[1]])
        above = [boxes[t] for t in order if rank[t] > rank[top]]
        if box[2] <= 0 or box[3] <= 0 or covered_share(box, above) > 0.5:
            dropped += 1
            continue
        node["bounds"] = box
        node["window"] = rank[top]
        kept.append(node)
    return kept, windows, dropped
