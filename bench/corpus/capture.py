#!/usr/bin/python3
# One program of the vision corpus on one screen size, in several looks and states: starts a private Xvfb and
# openbox, runs the program with the look's environment, drives it into each state through AT-SPI actions,
# and saves per sample a PNG of the root window and a JSON file with the accessibility tree's showing nodes
# (box in screen pixels, role, name, states) as ground truth. Run by generate.sh inside dbus-run-session, so
# the AT-SPI bus is private. The role -> zone type mapping is NOT done here: `ciu-agent bench vision` maps
# the recorded roles with the agent's own mapping (core/canvas/accessibilityzones.cpp).
import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import gi

import tktruth
from boxes import clip, covered_share, inside

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

FORMAT = "ciu-vision-corpus/1"
MAX_NODES = 6000  # per sample: a table of 10,000 rows is read up to here and marked truncated
MAX_CHILDREN = 400  # per node, likewise
ELLIPSES = ("\u2026", "...")

# Looks by toolkit family: environment for the program. GTK4 apps built on libadwaita read ADW_DEBUG_*.
LOOKS = {
    "gtk": {
        "adwaita": {"GTK_THEME": "Adwaita"},
        "adwaita-dark": {"GTK_THEME": "Adwaita:dark", "ADW_DEBUG_COLOR_SCHEME": "prefer-dark"},
        "highcontrast": {"GTK_THEME": "HighContrast", "ADW_DEBUG_HIGH_CONTRAST": "1"},
        "gdk-scale2": {"GTK_THEME": "Adwaita", "GDK_SCALE": "2"},
    },
    "qt": {
        "fusion": {"QT_STYLE_OVERRIDE": "Fusion"},
        "qt-default": {},
        "qt-windows": {"QT_STYLE_OVERRIDE": "Windows"},
        "qt-scale1.5": {"QT_SCALE_FACTOR": "1.5"},
    },
    # Tk has no theme setting of its own in the environment: the probe (tkprobe.tcl) applies the look,
    # a ttk theme and, for the dark look, a palette for the classic widgets (tk_setPalette).
    "tk": {
        "tk-default": {"CIU_TK_LOOK": "tk-default"},
        "tk-clam": {"CIU_TK_LOOK": "tk-clam"},
        "tk-dark": {"CIU_TK_LOOK": "tk-dark"},
    },
}
STATES = ["main", "menu", "dialog", "tab"]


def family(toolkit):
    if toolkit == "tk":
        return "tk"
    return "gtk" if toolkit.startswith("gtk") else "qt"


def log(text):
    print(text, file=sys.stderr, flush=True)


def run_quiet(argv, env, timeout=20):
    try:
        return subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        log(f"{argv[0]} did not finish within {timeout} s")
        return subprocess.CompletedProcess(argv, -1, b"", b"")


class Display:
    """A private Xvfb (its number chosen by the server: -displayfd) with openbox."""

    def __init__(self, width, height):
        rd, wr = os.pipe()
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(wr), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
            pass_fds=(wr,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(wr)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(rd, 16)
            if not chunk:
                raise RuntimeError("Xvfb did not start")
            number += chunk
        os.close(rd)
        self.name = ":" + number.decode().strip()
        env = dict(os.environ, DISPLAY=self.name)
        self.wm = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while time.time() < deadline:  # openbox owns the WM selection once it manages the screen
            out = run_quiet(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env).stdout
            if b"window id" in out:
                break
            time.sleep(0.1)

    def close(self):
        for p in (self.wm, self.xvfb):
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()


def grab(display, path):
    subprocess.run(["import", "-display", display, "-window", "root", path], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


def grab_stable(display, path, settle_s=0.4, limit_s=6.0):
    """Grabs until two grabs settle_s apart are the same picture (a blinking caret may never settle:
    then the last grab after limit_s). Returns True when it settled."""
    deadline = time.time() + limit_s
    last = grab(display, path)
    while time.time() < deadline:
        time.sleep(settle_s)
        now = grab(display, path)
        if now == last:
            return True
        last = now
    return False


def state_names(acc):
    try:
        return sorted(Atspi.StateType(s).value_nick for s in acc.get_state_set().get_states())
    except Exception:  # noqa: BLE001  (a node that went away)
        return []


# A scaled look's toolkit reports its accessible boxes in logical pixels (device pixels / scale): GTK with
# GDK_SCALE, Qt with QT_SCALE_FACTOR. The screenshot, the ground truth and the clicks are in device pixels.
coord_scale = 1.0


def scale_of(look_env):
    for key in ("GDK_SCALE", "QT_SCALE_FACTOR"):
        if key in look_env:
            return float(look_env[key])
    return 1.0


def extents(acc):
    try:
        r = acc.get_extents(Atspi.CoordType.SCREEN)
        s = coord_scale
        x, y = round(r.x * s), round(r.y * s)
        return [x, y, round((r.x + r.width) * s) - x, round((r.y + r.height) * s) - y]
    except Exception:  # noqa: BLE001
        return None


def text_of(acc):
    try:
        t = acc.get_text_iface()
        if t is None:
            return ""
        return t.get_text(0, min(t.get_character_count(), 400)) or ""
    except Exception:  # noqa: BLE001
        return ""


def labelled_by(acc):
    try:
        for rel in acc.get_relation_set() or []:
            if rel.get_relation_type() == Atspi.RelationType.LABELLED_BY and rel.get_n_targets() > 0:
                return rel.get_target(0).get_name() or ""
    except Exception:  # noqa: BLE001
        pass
    return ""


def find_app(pid, name_hint):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None:
            continue
        try:
            if app.get_process_id() == pid:
                return app
        except Exception:  # noqa: BLE001
            continue
    return None


def showing_windows(app):
    result = []
    for i in range(app.get_child_count()):
        w = app.get_child_at_index(i)
        if w is None:
            continue
        states = state_names(w)
        box = extents(w)
        if "showing" in states and box and box[2] > 0 and box[3] > 0:
            result.append(w)
    return result


def walk(acc, window_index, depth, nodes, counter):
    """Pre-order: every showing node under `acc` (itself excluded), each with its depth below the window."""
    try:
        n = acc.get_child_count()
    except Exception:  # noqa: BLE001  (a node that went away)
        return
    if n > MAX_CHILDREN:
        counter["truncated"] = True
    for i in range(min(n, MAX_CHILDREN)):
        if counter["nodes"] >= MAX_NODES:
            counter["truncated"] = True
            return
        c = acc.get_child_at_index(i)
        if c is None:
            continue
        states = state_names(c)
        if "showing" not in states:
            continue
        counter["nodes"] += 1
        role = c.get_role_name() or ""
        node = {"window": window_index, "depth": depth + 1, "role": role, "name": (c.get_name() or ""),
                "states": states, "bounds": extents(c)}
        desc = c.get_description() or ""
        if desc:
            node["description"] = desc
        lb = labelled_by(c)
        if lb:
            node["labelled_by"] = lb
        if role in ("label", "static", "heading", "caption", "paragraph", "status bar") and not node["name"]:
            node["text"] = text_of(c)
        nodes.append((node, c))
        walk(c, window_index, depth + 1, nodes, counter)


def window_rank(window):
    role = window.get_role_name() or ""
    states = state_names(window)
    if role in ("window", "menu", "popup menu", "tool tip"):
        return 3  # unmanaged popups lie above every managed window
    if role in ("dialog", "alert", "file chooser"):
        return 2
    return 1 if "active" in states else 0


def x_windows(display, pid, ids=None):
    """Managed windows of `pid` (client area, class, title), for the analyzer's hints: found by the pid they
    carry (_NET_WM_PID), or the given X window ids (Tk sets no pid on its windows)."""
    env = dict(os.environ, DISPLAY=display)
    if ids is None:
        ids = run_quiet(["xdotool", "search", "--onlyvisible", "--pid", str(pid)], env).stdout.decode().split()
    result = []
    for wid in (str(i) for i in ids):
        info = run_quiet(["xwininfo", "-id", wid], env).stdout.decode()
        values = dict(line.strip().split(":", 1) for line in info.splitlines() if ":" in line)
        try:  # xwininfo's absolute position is the client's (xdotool's adds the frame twice)
            rect = [int(values[k]) for k in ("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height")]
        except (KeyError, ValueError):
            continue
        if rect[2] <= 1 or rect[3] <= 1:
            continue
        cls = run_quiet(["xprop", "-id", wid, "WM_CLASS"], env).stdout.decode()
        parts = [p.strip().strip('"') for p in cls.split("=", 1)[-1].split(",")] if "=" in cls else []
        title = run_quiet(["xdotool", "getwindowname", wid], env).stdout.decode().strip()
        result.append({"id": int(wid), "title": title, "instance": parts[0] if parts else "",
                       "class": parts[1] if len(parts) > 1 else "", "pid": pid, "geometry": rect})
    return result


def ground_truth(app, screen):
    windows = showing_windows(app)
    ranked = sorted(range(len(windows)), key=lambda i: window_rank(windows[i]))
    rank_of = {idx: r for r, idx in enumerate(ranked)}
    wboxes = [extents(w) for w in windows]
    nodes, counter = [], {"nodes": 0, "truncated": False}
    for i, w in enumerate(windows):
        walk(w, i, 0, nodes, counter)
    # A menu's open popup is no window of its own in some toolkits (GTK3): the box of its showing items,
    # where they lie outside the menu's title, covers what is under it.
    popups = []  # (box, ids of the menu's descendants): those are not covered by it
    for k, (node, _acc) in enumerate(nodes):
        if node["role"] != "menu" or not node["bounds"]:
            continue
        end = k + 1
        while end < len(nodes) and nodes[end][0]["depth"] > node["depth"]:
            end += 1
        title = node["bounds"]
        items = [n for n, _ in nodes[k + 1:end] if n["depth"] == node["depth"] + 1 and n["bounds"]
                 and n["bounds"][2] > 0 and not inside(n["bounds"], title)]
        if items:
            x1 = min(n["bounds"][0] for n in items)
            y1 = min(n["bounds"][1] for n in items)
            x2 = max(n["bounds"][0] + n["bounds"][2] for n in items)
            y2 = max(n["bounds"][1] + n["bounds"][3] for n in items)
            popups.append(([x1, y1, x2 - x1, y2 - y1], set(id(n) for n, _ in nodes[k:end])))
    kept, dropped = [], 0
    for node, _acc in nodes:
        box = node["bounds"]
        if not box or box[2] <= 0 or box[3] <= 0:
            dropped += 1
            continue
        box = clip(clip(box, wboxes[node["window"]]), [0, 0, screen[0], screen[1]])
        if box[2] <= 0 or box[3] <= 0:
            dropped += 1
            continue
        above = [wboxes[j] for j in range(len(windows)) if rank_of[j] > rank_of[node["window"]]]
        above += [box_ for box_, members in popups if id(node) not in members]
        if covered_share(box, above) > 0.5:
            dropped += 1
            continue
        node["bounds"] = box
        kept.append(node)
    info = [{"role": w.get_role_name() or "", "name": w.get_name() or "", "bounds": wboxes[i],
             "rank": rank_of[i]} for i, w in enumerate(windows)]
    return kept, info, dropped, counter["truncated"]


def all_nodes(app):
    """Every node of the program (showing or not), in tree order, for finding what to act on."""
    out = []
    stack = [app]
    while stack and len(out) < MAX_NODES:
        acc = stack.pop()
        try:
            n = min(acc.get_child_count(), MAX_CHILDREN)
        except Exception:  # noqa: BLE001
            continue
        kids = [acc.get_child_at_index(i) for i in range(n)]
        kids = [k for k in kids if k is not None]
        out.extend(kids)
        stack.extend(reversed(kids))
    return out


def do_action(acc):
    """Runs the node's first action. A program that opens a modal dialog from the action's handler answers
    only when the dialog closes: the call gives up after 2 s and the dialog is there all the same."""
    try:
        if acc.get_n_actions() <= 0:
            return False
    except Exception:  # noqa: BLE001
        return False
    Atspi.set_timeout(2000, -1)
    try:
        return bool(acc.do_action(0))
    except Exception:  # noqa: BLE001  (the time-out of a handler that runs a dialog)
        return True
    finally:
        Atspi.set_timeout(25000, -1)


def click(display, acc):
    """A real click at the centre of a showing node (xdotool), as a person would."""
    box = extents(acc)
    if not box or box[2] <= 0 or box[3] <= 0 or "showing" not in state_names(acc):
        return False
    env = dict(os.environ, DISPLAY=display)
    x, y = box[0] + box[2] // 2, box[1] + box[3] // 2
    # No --sync: it waits for a motion event, and there is none when the pointer is already there.
    run_quiet(["xdotool", "mousemove", str(x), str(y), "click", "1"], env)
    return True


def wait_showing(acc, limit_s=3.0):
    deadline = time.time() + limit_s
    while time.time() < deadline:
        if "showing" in state_names(acc):
            return True
        time.sleep(0.1)
    return False


def enter_state(display, app, state):
    """Drives the program into `state` by clicking what a person would click (found through the tree).
    Returns a short description, or None when the program has no such state (no menu bar or popup
    button, no '...' item, no second tab)."""
    nodes = all_nodes(app)
    roles = [(n, n.get_role_name() or "") for n in nodes]
    menus = [n for n, role in roles if role in ("menu", "menu item") and n.get_parent() is not None
             and (n.get_parent().get_role_name() or "") == "menu bar" and "showing" in state_names(n)]
    popup_buttons = [n for n, role in roles if role in ("toggle button", "push button")
                     and "has-popup" in state_names(n) and "showing" in state_names(n)]
    if state == "menu":
        for n in menus + popup_buttons:
            if click(display, n):
                return "menu " + (n.get_name() or "")
        return None
    if state == "dialog":
        # A button or a menu item whose name ends in an ellipsis opens a dialog.
        for n, role in roles:
            name = (n.get_name() or "").strip()
            if role == "push button" and name.endswith(ELLIPSES) and "enabled" in state_names(n) and \
                    click(display, n):
                return "clicked " + name
        env = dict(os.environ, DISPLAY=display)
        for menu in menus + popup_buttons:
            if not click(display, menu):
                continue
            for _ in range(2):  # the popup's items show after the click
                items = [n for n in all_nodes(menu) if (n.get_role_name() or "") == "menu item"]
                for n in items:
                    name = (n.get_name() or "").strip()
                    if name.endswith(ELLIPSES) and "enabled" in state_names(n) and wait_showing(n, 1.0) and \
                            click(display, n):
                        return f"{menu.get_name() or 'menu'} > {name}"
                time.sleep(0.3)
            run_quiet(["xdotool", "key", "Escape"], env)
            time.sleep(0.3)
        return None
    if state == "tab":
        for n, role in roles:
            if role == "page tab" and "showing" in state_names(n) and "selected" not in state_names(n) and \
                    click(display, n):
                return "tab " + (n.get_name() or "")
        return None
    return "main window"


def wait_for_window(pid, limit_s=30):
    deadline = time.time() + limit_s
    while time.time() < deadline:
        app = find_app(pid, None)
        if app is not None and showing_windows(app):
            return app
        time.sleep(0.2)
    return None


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class AtspiSource:
    """Ground truth from the program's accessibility tree (GTK, Qt)."""
    what = "accessible"

    def __init__(self):
        self.app = None

    def command(self, program):
        return program["argv"]

    def wait(self, pid):
        self.app = wait_for_window(pid)
        return self.app is not None

    def enter_state(self, display, state):
        return enter_state(display, self.app, state)

    def ground_truth(self, display, screen, pid):
        zones, windows, dropped, truncated = ground_truth(self.app, screen)
        return zones, windows, dropped, truncated, x_windows(display, pid)


class TkSource:
    """Ground truth from a Tk program's own widget tree, read by the probe in its interpreter (tktruth)."""
    what = "Tk"

    def __init__(self, home):
        self.probe = tktruth.Probe(os.path.join(home, "tkprobe"))
        os.makedirs(self.probe.folder)

    def command(self, program):
        return tktruth.command(program)

    def wait(self, pid):
        return tktruth.wait_for_window(self.probe) is not None

    def enter_state(self, display, state):
        return tktruth.enter_state(display, self.probe, state)

    def ground_truth(self, display, screen, pid):
        tree = self.probe.read()
        if tree is None:
            raise RuntimeError("the Tk probe did not answer")
        # A toplevel's X window lies in Tk's wrapper (which holds its menu bar), the window the manager
        # manages and names.
        wrappers = {top: parent_window(display, i) for top, i in tree.frames.items()}
        xwins = x_windows(display, pid, ids=[w for w in wrappers.values() if w is not None])
        by_id = {w["id"]: w["geometry"] for w in xwins}
        boxes = {top: by_id[w] for top, w in wrappers.items() if w in by_id}
        zones, windows, dropped = tktruth.ground_truth(tree, screen, boxes)
        return zones, windows, dropped, False, xwins


def parent_window(display, wid):
    out = run_quiet(["xwininfo", "-children", "-id", str(wid)], dict(os.environ, DISPLAY=display)).stdout.decode()
    for line in out.splitlines():
        if "Parent window id:" in line:
            return int(line.split(":", 1)[1].split()[0], 16)
    return None


def make_workdir(kind, home):
    """The folder the program starts in: its home, or for a program that shows a version-control
    repository ("git-repository") a small one made there, with a few commits and a change not committed."""
    if kind != "git-repository":
        return home
    repo = os.path.join(home, "project")
    os.makedirs(repo)
    env = dict(os.environ, HOME=home, GIT_AUTHOR_NAME="Ada Lovelace", GIT_AUTHOR_EMAIL="ada@example.org",
               GIT_COMMITTER_NAME="Ada Lovelace", GIT_COMMITTER_EMAIL="ada@example.org",
               GIT_AUTHOR_DATE="2026-11-20T10:00:00", GIT_COMMITTER_DATE="2026-11-20T10:00:00")

    def git(*args):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    git("init", "-q", "-b", "main")
    for name, text, message in [("README", "A small project.\n", "Add a read-me"),
                                ("notes.txt", "First note.\n", "Start the notes"),
                                ("notes.txt", "First note.\nSecond note.\n", "Add a second note")]:
        with open(os.path.join(repo, name), "w") as f:
            f.write(text)
        git("add", name)
        git("commit", "-q", "-m", message)
    with open(os.path.join(repo, "README"), "a") as f:
        f.write("Not committed yet.\n")
    return repo


def capture_program(program, looks, screen, outdir, states):
    global coord_scale
    disp = Display(*screen)
    written = 0
    try:
        for look in looks:
            for state in states:
                home = tempfile.mkdtemp(prefix="ciu-corpus-home-")
                env = dict(os.environ, DISPLAY=disp.name, HOME=home, XDG_CONFIG_HOME=home + "/.config",
                           XDG_DATA_HOME=home + "/.local/share", XDG_CACHE_HOME=home + "/.cache",
                           QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1", GTK_A11Y="atspi",
                           LANG="C.UTF-8", LC_ALL="C.UTF-8")
                env.pop("NO_AT_BRIDGE", None)  # the tests' environment turns the bridge off
                for key in ("GTK_THEME", "GDK_SCALE", "QT_STYLE_OVERRIDE", "QT_SCALE_FACTOR", "QT_QPA_PLATFORM"):
                    env.pop(key, None)
                env.update(LOOKS[family(program["toolkit"])][look])
                coord_scale = scale_of(LOOKS[family(program["toolkit"])][look])
                os.makedirs(home + "/.config/gtk-3.0", exist_ok=True)
                with open(home + "/.config/gtk-3.0/settings.ini", "w") as f:
                    f.write("[Settings]\ngtk-cursor-blink=false\n")
                if family(program["toolkit"]) == "tk":
                    source = TkSource(home)
                    env.update(tktruth.environment(source.probe.folder))
                else:
                    source = AtspiSource()
                argv = source.command(program)
                cwd = make_workdir(program.get("workdir"), home)
                proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
                try:
                    if not source.wait(proc.pid):
                        log(f"{program['name']} {look}: no {source.what} window within 30 s, skipped")
                        break
                    grab_stable(disp.name, os.path.join(home, "probe.png"))  # drawn before acting
                    how = source.enter_state(disp.name, state)
                    if how is None:
                        log(f"{program['name']} {look}: no '{state}' state")
                        continue
                    base = f"{program['name']}_{look}_{screen[0]}x{screen[1]}_{state}"
                    png = os.path.join(outdir, base + ".png")
                    settled = grab_stable(disp.name, png)
                    zones, windows, dropped, truncated, xwins = source.ground_truth(disp.name, screen, proc.pid)
                    sample = {
                        "format": FORMAT, "image": base + ".png", "program": program["name"],
                        "toolkit": program["toolkit"], "set": program["set"], "look": look,
                        "screen": {"width": screen[0], "height": screen[1]}, "state": state, "action": how,
                        "settled": settled, "truncated": truncated, "dropped": dropped,
                        "accessible_windows": windows, "windows": xwins, "zones": zones,
                    }
                    with open(os.path.join(outdir, base + ".json"), "w") as f:
                        json.dump(sample, f, indent=1, ensure_ascii=False)
                    written += 1
                    log(f"{base}: {len(zones)} zones ({how})")
                except Exception as e:  # noqa: BLE001  (one state lost, not the whole program)
                    log(f"{program['name']} {look} {state}: failed: {e!r}")
                finally:
                    os.killpg(proc.pid, signal.SIGTERM) if proc.poll() is None else None
                    stop(proc)
                    shutil.rmtree(home, ignore_errors=True)
    finally:
        disp.close()
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--looks", default="")
    parser.add_argument("--screen", default="1280x800")
    parser.add_argument("--states", default=",".join(STATES))
    parser.add_argument("--list-looks", action="store_true", help="print the program's looks and exit")
    args = parser.parse_args()
    with open(args.manifest) as f:
        programs = {p["name"]: p for p in json.load(f)["programs"]}
    if args.program not in programs:
        sys.exit(f"unknown program {args.program}; known: {', '.join(sorted(programs))}")
    program = programs[args.program]
    fam = family(program["toolkit"])
    looks = [lk for lk in args.looks.split(",") if lk] or list(LOOKS[fam])
    looks = [lk for lk in looks if lk in LOOKS[fam]]
    if args.list_looks:
        print(" ".join(looks))
        return
    try:
        w, h = (int(v) for v in args.screen.lower().split("x"))
    except ValueError:
        sys.exit(f"--screen must be WIDTHxHEIGHT, got {args.screen}")
    states = [s for s in args.states.split(",") if s in STATES]
    os.makedirs(args.out, exist_ok=True)
    n = capture_program(program, looks, (w, h), args.out, states)
    log(f"{program['name']} at {w}x{h}: {n} samples")


if __name__ == "__main__":
    main()
