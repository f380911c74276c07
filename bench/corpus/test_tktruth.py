#!/usr/bin/python3
"""The Tk ground truth of the vision corpus (tkprobe.tcl, tkrun.tcl, tktruth.py) on a real Tk program under
a real X server: a window of known widgets, placed at known offsets, read through the probe. The boxes are
checked against the X server's own position of the window (xwininfo), not the probe's; states are entered
by real clicks (xdotool) and checked by what the program then shows. Exit 77 (ctest: skipped) without
wish, Xvfb, xdotool or xwininfo."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tktruth  # noqa: E402

PROGRAM = r"""
wm geometry . 400x300+50+60
wm title . Fixture
menu .mb -tearoff 0
. configure -menu .mb
.mb add cascade -label File -menu [menu .mb.file -tearoff 0]
.mb.file add command -label "Open..." -command {
    toplevel .dlg
    wm title .dlg Open
    wm geometry .dlg 200x100+500+400
    place [button .dlg.cancel -text Cancel] -x 10 -y 10 -width 90 -height 30
}
.mb.file add checkbutton -label Wrap
.mb.file add separator
.mb.file add command -label Quit -state disabled
.mb add cascade -label Help -menu [menu .mb.help -tearoff 0]
.mb.help add command -label About
place [button .ok -text OK] -x 10 -y 10 -width 80 -height 30
set wrap 1
place [checkbutton .wrap -text Wrap -variable wrap] -x 100 -y 10 -width 90 -height 30
place [entry .name] -x 10 -y 50 -width 180 -height 24
place [entry .shown -state readonly] -x 10 -y 250 -width 180 -height 24
place [frame .clip -width 100 -height 40] -x 200 -y 50
place [button .clip.half -text Half] -x 50 -y 0 -width 100 -height 40
place [button .off -text Off -state disabled] -x 300 -y 10 -width 80 -height 30
place [listbox .lb] -x 10 -y 90 -width 180 -height 100
.lb insert end Apple Banana Cherry
.lb selection set 1
ttk::notebook .nb
.nb add [frame .nb.a] -text Alpha
.nb add [frame .nb.b] -text Beta
place .nb -x 200 -y 100 -width 190 -height 150
"""


def tool_missing():
    for tool in ("wish", "Xvfb", "xdotool", "xwininfo"):
        if shutil.which(tool) is None:
            return tool
    return None


class TkTruthTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ciu-tktruth-")
        rd, wr = os.pipe()
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wr), "-screen", "0", "1024x768x24", "-nolisten",
                                      "tcp"], pass_fds=(wr,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(wr)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(rd, 16)
            self.assertTrue(chunk, "Xvfb did not start")
            number += chunk
        os.close(rd)
        self.display = ":" + number.decode().strip()
        script = os.path.join(self.tmp, "fixture.tcl")
        with open(script, "w") as f:
            f.write(PROGRAM)
        self.probe = tktruth.Probe(os.path.join(self.tmp, "probe"))
        os.makedirs(self.probe.folder)
        env = dict(os.environ, DISPLAY=self.display, **tktruth.environment(self.probe.folder))
        self.program = subprocess.Popen(tktruth.command({"argv": [script]}), env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        self.tree = tktruth.wait_for_window(self.probe, limit_s=20)
        self.assertIsNotNone(self.tree, "the probe did not answer")

    def tearDown(self):
        for p in (self.program, self.xvfb):
            p.terminate()
            p.wait(10)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def read_until(self, ready, limit_s=5.0):
        """The tree, read again until `ready(tree)` holds: the program answers a click in its own time."""
        deadline = time.time() + limit_s
        tree = self.probe.read()
        while (tree is None or not ready(tree)) and time.time() < deadline:
            tree = self.probe.read()
        return tree

    def x_origin(self, window_id):
        """The window's position as the X server has it."""
        out = subprocess.run(["xwininfo", "-id", str(window_id)], env=dict(os.environ, DISPLAY=self.display),
                             stdout=subprocess.PIPE, check=True).stdout.decode()
        values = dict(line.strip().split(":", 1) for line in out.splitlines() if ":" in line)
        return int(values["Absolute upper-left X"]), int(values["Absolute upper-left Y"]), \
            int(values["Width"]), int(values["Height"])

    def truth(self, tree):
        # Without a window manager each toplevel's X window is where Tk put it; the menu bar lies above
        # the client area, so the window's box is taken from the X server and grown by the menu bar.
        boxes = {}
        for top, wid in tree.frames.items():
            x, y, w, h = self.x_origin(wid)
            bar = [m for m, v in tree.widgets.items() if v["class"] == "Menu" and v["toplevel"] == top and m != top]
            if bar:
                mb = tree.widgets[bar[0]]["box"]
                h += y - mb[1]
                y = mb[1]
            boxes[top] = [x, y, w, h]
        kept, windows, _dropped = tktruth.ground_truth(tree, (1024, 768), boxes)
        self.kept = kept
        return {(z["role"], z["name"]): z for z in kept}, windows

    def test_widgets_get_the_roles_names_states_and_boxes_placed(self):
        ox, oy, _, _ = self.x_origin(self.tree.frames["."])
        zones, windows = self.truth(self.tree)
        self.assertEqual(zones[("push button", "OK")]["bounds"], [ox + 10, oy + 10, 80, 30])
        self.assertIn("enabled", zones[("push button", "OK")]["states"])
        self.assertNotIn("enabled", zones[("push button", "Off")]["states"])
        self.assertIn("checked", zones[("check box", "Wrap")]["states"])
        self.assertEqual(zones[("check box", "Wrap")]["bounds"], [ox + 100, oy + 10, 90, 30])
        fields = sorted((z["bounds"], "editable" in z["states"]) for z in self.kept if z["role"] == "text")
        self.assertEqual(fields, [([ox + 10, oy + 50, 180, 24], True), ([ox + 10, oy + 250, 180, 24], False)],
                         "an entry is a field, a read-only one is not editable")
        # Half lies half outside its frame: only the part inside it is seen.
        self.assertEqual(zones[("push button", "Half")]["bounds"], [ox + 250, oy + 50, 50, 40])
        rows = [zones[("list item", n)] for n in ("Apple", "Banana", "Cherry")]
        self.assertEqual([r["bounds"][0] for r in rows], [ox + 10 + 2] * 3, "rows start inside the border")
        self.assertEqual(rows[1]["bounds"][1] - rows[0]["bounds"][1], rows[2]["bounds"][1] - rows[1]["bounds"][1])
        self.assertIn("selected", rows[1]["states"])
        self.assertNotIn("selected", rows[0]["states"])
        alpha, beta = zones[("page tab", "Alpha")], zones[("page tab", "Beta")]
        self.assertIn("selected", alpha["states"])
        self.assertLessEqual(alpha["bounds"][0] + alpha["bounds"][2], beta["bounds"][0])
        for tab in (alpha, beta):
            self.assertGreaterEqual(tab["bounds"][0], ox + 200)
            self.assertGreaterEqual(tab["bounds"][1], oy + 100)
            self.assertLess(tab["bounds"][1] + tab["bounds"][3], oy + 100 + 40)
        menus = sorted((z["bounds"][0], name) for (role, name), z in zones.items() if role == "menu")
        self.assertEqual([n for _, n in menus], ["File", "Help"])
        self.assertTrue(all(zones[("menu", n)]["bounds"][1] < oy for n in ("File", "Help")),
                        "the menu bar lies above the client area")
        self.assertEqual([w["name"] for w in windows], ["Fixture"])

    def test_a_click_on_a_tab_selects_it(self):
        self.assertEqual(tktruth.enter_state(self.display, self.probe, "tab"), "tab Beta")
        tree = self.read_until(lambda t: any(tab["selected"] and tab["text"] == "Beta" for tab in t.tabs))
        zones, _ = self.truth(tree)
        self.assertIn("selected", zones[("page tab", "Beta")]["states"])
        self.assertNotIn("selected", zones[("page tab", "Alpha")]["states"])

    def test_an_open_menu_covers_what_is_under_it(self):
        self.assertEqual(tktruth.enter_state(self.display, self.probe, "menu"), "menu File")
        tree = self.read_until(lambda t: t.popups())
        self.assertEqual(len(tree.popups()), 1)
        zones, windows = self.truth(tree)
        self.assertEqual(zones[("menu item", "Open...")]["states"], ["enabled", "showing", "visible"])
        self.assertIn(("check menu item", "Wrap"), zones)
        self.assertNotIn("enabled", zones[("menu item", "Quit")]["states"])
        self.assertNotIn(("push button", "OK"), zones, "the open menu covers it")
        self.assertIn(("push button", "Off"), zones)
        self.assertEqual(windows[-1]["role"], "menu")
        items = [zones[("menu item", "Open...")], zones[("check menu item", "Wrap")]]
        self.assertEqual(items[0]["bounds"][1] + items[0]["bounds"][3], items[1]["bounds"][1])

    def test_a_menu_item_with_an_ellipsis_opens_the_dialog(self):
        self.assertEqual(tktruth.enter_state(self.display, self.probe, "dialog"), "File > Open...")
        tree = self.read_until(lambda t: ".dlg" in t.frames)
        zones, windows = self.truth(tree)
        self.assertEqual([w["name"] for w in windows], ["Fixture", "Open"])
        dx, dy, _, _ = self.x_origin(tree.frames[".dlg"])
        self.assertEqual(zones[("push button", "Cancel")]["bounds"], [dx + 10, dy + 10, 90, 30])


if __name__ == "__main__":
    missing = tool_missing()
    if missing:
        print(f"test_tktruth: skipped: {missing} is not installed", file=sys.stderr)
        sys.exit(77)
    unittest.main()
