#!/usr/bin/env python3
"""Icon buttons named by their tooltips, on real programs: for each program, the buttons its accessibility
tree names that vision alone leaves unnamed (an icon no theme has), and for each of them (up to --per
program) `ciu-agent run "click NAME" --execute` on vision alone (CIU_ACCESSIBILITY=none: the tree is the
truth here, not a source), the program started afresh. The agent must hover the unnamed icons, read the
tooltips and click the right one. Evidence: the point the agent clicked, against the button's bounds in the
tree (read before the run), never the agent's report.

    python3 bench/tooltips/run_tooltips.py build/release/app/ciu-agent [--programs designer,linguist] [--per 4]

It prints one JSON line per task and a summary: clicked right, false completions (completed, clicked
elsewhere), honest failures, and the seconds per task. Needs what bench/tasks/run_tasks.py needs.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tasks"))
from run_tasks import (Desktop, any_window, last_json, run_agent, session_records, stop_program,  # noqa: E402
                       wait_for)

PROGRAMS = {
    # name: (argv, set) -- the sets of bench/corpus/programs.json
    "assistant": (["/usr/lib/qt6/bin/assistant"], "tuning"),
    "designer": (["/usr/lib/qt6/bin/designer"], "tuning"),
    "featherpad": (["featherpad"], "tuning"),
    "gucharmap": (["gucharmap"], "tuning"),
    "linguist": (["/usr/lib/qt6/bin/linguist"], "heldout"),
    "mousepad": (["mousepad", "--disable-server"], "tuning"),
}
MAX_SIDE = 96  # an icon button's largest side (as the local planner's)


def iou(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    w = min(ax + aw, bx + bw) - max(ax, bx)
    h = min(ay + ah, by + bh) - max(ay, by)
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / float(aw * ah + bw * bh - inter)


def bounds(z):
    b = z["bounds"]
    return (b["x"], b["y"], b["width"], b["height"]) if isinstance(b, dict) else tuple(b)


def start(program, tdir, display):
    home = os.path.join(tdir, "home")
    os.makedirs(os.path.join(home, ".config"), exist_ok=True)
    env = dict(os.environ, DISPLAY=display, HOME=home, GNOME_ACCESSIBILITY="1",
               QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1", NO_AT_BRIDGE="0",
               XDG_CONFIG_HOME=os.path.join(home, ".config"), XDG_DATA_HOME=os.path.join(home, ".local"))
    prog = subprocess.Popen(program, cwd=tdir, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    if not wait_for(lambda: any_window(env), 20):
        stop_program(prog)
        return None, env
    time.sleep(2.0)  # the first paint and the accessibility registration
    return prog, env


def analyze(agent, display, env, source):
    r = subprocess.run([agent, "analyze", "--display", display, "--source", source, "--json"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=300)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return []


def candidates(agent, display, env):
    """The tree's named, enabled, icon-sized buttons that vision finds unnamed (and whose name only one
    button has, and vision reads nowhere else)."""
    ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "."], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout.split()
    titles = [subprocess.run(["xdotool", "getwindowname", i], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout.strip().lower() for i in ids]
    tree = analyze(agent, display, env, "atspi")
    vision = analyze(agent, display, env, "vision")
    names = {}
    for z in tree:
        if z.get("type") == "button" and z.get("label"):
            names[z["label"].strip().lower()] = names.get(z["label"].strip().lower(), 0) + 1
    found = []
    for z in tree:
        b = bounds(z)
        label = (z.get("label") or "").strip()
        if z.get("type") != "button" or not label or max(b[2], b[3]) > MAX_SIDE or b[2] < 8 or b[3] < 8:
            continue
        if "disabled" in (z.get("state") or []) or names[label.lower()] > 1:
            continue
        seen = [v for v in vision if iou(bounds(v), b) >= 0.3 or
                (b[0] <= bounds(v)[0] + bounds(v)[2] / 2 <= b[0] + b[2] and
                 b[1] <= bounds(v)[1] + bounds(v)[3] / 2 <= b[1] + b[3])]
        # A name vision reads elsewhere (a dialog's "Open..." button) or a window's title holds ("New Form")
        # is found there: no tooltip is needed to resolve it, and clicking it is no mistake.
        words = label.lower().split()
        shown = [(v.get("label") or "").lower() for v in vision] + titles  # `click X` may mean a window too
        elsewhere = any(words and all(w in text for w in words) for text in shown)
        if seen and not elsewhere and all(not (v.get("label") or "").strip() for v in seen):
            found.append(dict(label=label, bounds=b))
    return found


def clicked_point(session):
    """Where the session's last left click went (None: no click)."""
    point = None
    for a in session_records(session, "actions.jsonl") or []:
        if "left_click" in a.get("description", ""):
            point = (a.get("result") or {}).get("point")
    return point


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent")
    parser.add_argument("--programs", default="designer,linguist")
    parser.add_argument("--per", type=int, default=4)
    parser.add_argument("--keep", default="")
    parser.add_argument("--only", default="", help="only these names (comma-separated)")
    parser.add_argument("--verbose", action="store_true", help="the agent's debug log in each agent.log")
    args = parser.parse_args()
    if "DBUS_SESSION_BUS_ADDRESS" not in os.environ:
        os.execvp("dbus-run-session", ["dbus-run-session", "--", sys.executable] + sys.argv)
    agent = os.path.abspath(args.agent)
    workdir = args.keep or tempfile.mkdtemp(prefix="ciu-tooltips-")
    os.makedirs(workdir, exist_ok=True)
    desktop = Desktop(None)
    desktop.start()
    records = []
    try:
        for name in filter(None, args.programs.split(",")):
            argv, which = PROGRAMS[name]
            if shutil.which(argv[0]) is None:
                print(json.dumps(dict(program=name, outcome="setup_failed", detail="not installed")))
                continue
            tdir = tempfile.mkdtemp(prefix=name + "-", dir=workdir)
            prog, env = start(argv, tdir, desktop.display)
            if not prog:
                print(json.dumps(dict(program=name, outcome="setup_failed", detail="no window")))
                continue
            found = candidates(agent, desktop.display, env)
            stop_program(prog)
            print(json.dumps(dict(program=name, unnamed_icon_buttons=len(found),
                                  names=[f["label"] for f in found])), flush=True)
            only = set(filter(None, args.only.split(",")))
            for f in [f for f in found if not only or f["label"] in only][:args.per]:
                rdir = tempfile.mkdtemp(prefix="run-", dir=tdir)
                prog, env = start(argv, rdir, desktop.display)
                if not prog:
                    continue
                agent_env = dict(env, CIU_ACCESSIBILITY="none", XDG_DATA_HOME=os.path.join(rdir, "agent-data"),
                                 XDG_CONFIG_HOME=os.path.join(rdir, "agent-config"))
                begin = time.monotonic()
                r = run_agent([agent, "run", "--display", desktop.display, "--execute", "--provider", "local",
                               "--json", "--session-dir", os.path.join(rdir, "sessions"),
                               "click " + json.dumps(f["label"])] + (["--verbose"] if args.verbose else []),
                              agent_env, False)
                seconds = time.monotonic() - begin
                stop_program(prog)
                with open(os.path.join(rdir, "agent.log"), "w") as log:
                    log.write(r.stderr)
                summary = last_json(r.stdout)
                point = clicked_point(summary.get("session"))
                x, y, w, h = f["bounds"]
                inside = bool(point) and x <= point[0] < x + w and y <= point[1] < y + h
                rec = dict(program=name, set=which, name=f["label"], outcome=summary.get("outcome"),
                           clicked=point, truth=f["bounds"], correct=inside, seconds=round(seconds, 1),
                           hovers=r.stderr.count("action: mouse_move"))
                rec["false_completion"] = rec["outcome"] == "completed" and not inside
                records.append(rec)
                print(json.dumps(rec), flush=True)
    finally:
        desktop.stop()
    secs = [r["seconds"] for r in records]
    print(json.dumps(dict(summary=dict(
        tasks=len(records),
        clicked_right=len([r for r in records if r["correct"] and r["outcome"] == "completed"]),
        false_completions=len([r for r in records if r["false_completion"]]),
        honest_failures=len([r for r in records if r["outcome"] != "completed" and not r["correct"]]),
        median_seconds=round(statistics.median(secs), 1) if secs else None))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
