#!/usr/bin/env python3
"""The task suite of the verified-outcomes issue: simple tasks on real programs from Debian (GTK 3, Qt 5,
Tk, Athena/Xt), run headless with the offline planner, each checked by the program's own output or a file
on disk, never by the agent's report.

For every task: a private Xvfb with a window manager and an AT-SPI bus, the program started with
accessibility on, `ciu-agent run --execute --json`, then the evidence. It prints one JSON line per task
and a summary: tasks completed and verified, false completions (the agent said "completed" and the
evidence says otherwise: the worst bug), median time per task and the time spent verifying.

    python3 bench/tasks/run_tasks.py build/release/app/ciu-agent [--only NAME[,NAME]] [--keep DIR]

Programs it needs (not in install-deps.sh: a benchmark, not the test suite): zenity mousepad featherpad
xterm xedit (x11-apps) tk (wish) yad gxmessage kdialog galculator, openbox, xdotool, at-spi2-core, and for
the tree evidence (tree_text.py) python3-gi gir1.2-atspi-2.0.
"""

import argparse
import json
import os
import pty
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

TK_SAVE = r"""
wm withdraw .
set f [tk_getSaveFile -initialdir $env(TASK_DIR) -initialfile Untitled.txt -title "Save note"]
puts $f
exit
"""
TK_FORM = r"""
wm title . Signup
label .nl -text Name:
entry .e -width 24
checkbutton .c -text Subscribe -variable sub
radiobutton .r1 -text Basic -variable plan -value basic
radiobutton .r2 -text Pro -variable plan -value pro
button .ok -text OK -command {puts "[.e get]|$sub|$plan"; exit}
set sub 0
set plan basic
grid .nl .e -padx 6 -pady 6
grid .c -columnspan 2 -sticky w -padx 6
grid .r1 -columnspan 2 -sticky w -padx 6
grid .r2 -columnspan 2 -sticky w -padx 6
grid .ok -columnspan 2 -pady 8
"""
TK_ASK = r"""
wm withdraw .
puts [tk_messageBox -type yesno -title "Draft" -message "Keep the draft?"]
exit
"""


def task_list():
    """Each task: the program, the task for the local planner, and how to read the outcome."""
    forms = ["zenity", "--forms", "--title=Person", "--add-entry=First name", "--add-entry=Last name"]
    return [
        dict(name="zenity-form", program=forms,
             task='type "Ada" into "First name"; type "Lovelace" into "Last name"; click OK',
             expect=dict(stdout="Ada|Lovelace")),
        dict(name="zenity-form-combo",
             program=forms + ["--add-combo=Country", "--combo-values=France|Japan|Peru"],
             task='type "Ada" into "First name"; type "Lovelace" into "Last name"; '
                  'select Japan in Country; click OK',
             expect=dict(stdout="Ada|Lovelace|Japan")),
        # Typing into a password field is a high-risk action: the agent asks on its terminal (answered yes
        # here, the question counted), and the PIN must be in no file the run leaves.
        dict(name="zenity-form-password",
             program=["zenity", "--forms", "--title=Login", "--add-entry=User", "--add-password=PIN"],
             task='type "ada" into User; type "qz2468x" into PIN; click OK',
             expect=dict(stdout="ada|qz2468x"), confirm=True, secret="qz2468x"),
        dict(name="zenity-entry-prefilled",
             program=["zenity", "--entry", "--title=Save", "--text=File name:", "--entry-text=Untitled"],
             task='type "qt.txt" into "File name"; click OK',
             expect=dict(stdout="qt.txt")),
        dict(name="zenity-question-no",
             program=["zenity", "--question", "--title=Draft", "--text=Keep the draft?"],
             task="click No", expect=dict(exit=1)),
        dict(name="zenity-question-yes",
             program=["zenity", "--question", "--title=Draft", "--text=Keep the draft?"],
             task="click Yes", expect=dict(exit=0)),
        dict(name="zenity-list",
             program=["zenity", "--list", "--title=Fruit", "--column=Fruit", "Apple", "Banana", "Cherry"],
             task="click Cherry; click OK", expect=dict(stdout="Cherry")),
        dict(name="zenity-checklist",
             program=["zenity", "--list", "--checklist", "--title=Fruit", "--column=Pick", "--column=Fruit",
                      "FALSE", "Apple", "FALSE", "Banana", "FALSE", "Cherry"],
             task="check Banana; click OK", expect=dict(stdout="Banana")),
        dict(name="mousepad-save",
             program=["mousepad"],
             task='type "hello"; press ctrl+s; type "note.txt" into Name; click Save',
             expect=dict(file="{dir}/note.txt", content="hello")),  # GTK 3 saves into the working folder
        dict(name="featherpad-save",
             program=["featherpad"],
             task='type "hello qt"; press ctrl+s; type "qt.txt" into "File name"; click Save',
             expect=dict(file="{home}/qt.txt", content="hello qt")),
        dict(name="xterm-echo",
             program=["xterm", "-geometry", "100x30+40+40"],
             task='type "echo hello-ciu > out.txt"; press Return',
             expect=dict(file="{dir}/out.txt", content="hello-ciu")),
        dict(name="xterm-arithmetic",
             program=["xterm", "-geometry", "100x30+40+40"],
             task='type "echo $((6*7)) > calc.txt"; press Return',
             expect=dict(file="{dir}/calc.txt", content="42")),
        dict(name="xterm-named",  # the window named: activated over the others, the text read back there
             program=["xterm", "-geometry", "100x30+40+40"],
             task='type "echo named-ciu > named.txt\\n" into xterm',
             expect=dict(file="{dir}/named.txt", content="named-ciu")),
        dict(name="xedit-save",
             program=["xedit", "{dir}/xedit.txt"],
             task='type "hello xedit"; click Save',
             expect=dict(file="{dir}/xedit.txt", content="hello xedit")),
        dict(name="tk-save-dialog",
             program=["wish"], stdin=TK_SAVE,
             task='type "tk.txt" into "File name"; click Save',
             expect=dict(stdout="{dir}/tk.txt")),
        dict(name="tk-messagebox",
             program=["wish"], stdin=TK_ASK,
             task="click No", expect=dict(stdout="no")),
        # Held out: programs nobody looked at while the agent was tuned (added after its last change to
        # verification; run, never tuned on). yad (GTK 3), gxmessage (GTK 3), xmessage (Athena), kdialog (Qt 5,
        # KDE Frameworks) and a Tk form with a check button and radio buttons.
        dict(name="yad-form", set="heldout",
             program=["yad", "--form", "--title=Signup", "--field=Name", "--field=Subscribe:CHK",
                      "--field=Plan:CB", "", "FALSE", "Basic!Pro!Team"],
             task='type "Ada" into Name; check Subscribe; select Pro in Plan; click OK',
             expect=dict(stdout="Ada|TRUE|Pro|")),
        dict(name="gxmessage-button", set="heldout",
             program=["gxmessage", "-buttons", "Keep:3,Discard:4", "Keep the draft?"],
             task="click Discard", expect=dict(exit=4), confirm=True),  # "Discard" is asked about
        dict(name="xmessage-button", set="heldout",
             program=["xmessage", "-buttons", "Keep:3,Discard:4", "Keep the draft?"],
             task="click Discard", expect=dict(exit=4), confirm=True),
        dict(name="kdialog-input", set="heldout",
             program=["kdialog", "--title", "Name", "--inputbox", "Your name:", "Untitled"],
             task='type "Ada" into "Your name"; click OK', expect=dict(stdout="Ada")),
        dict(name="kdialog-yesno", set="heldout",
             program=["kdialog", "--title", "Draft", "--yesno", "Keep the draft?"],
             task="click No", expect=dict(exit=1)),
        dict(name="kdialog-combo", set="heldout",
             program=["kdialog", "--title", "Colour", "--combobox", "Pick a colour:", "Red", "Green", "Blue"],
             task='select Blue in "Pick a colour"; click OK', expect=dict(stdout="Blue")),
        dict(name="galculator-multiply", set="heldout2",
             program=["galculator"],
             task='click 7; click "*"; click 6; click "="', expect=dict(tree="42")),
        dict(name="yad-calendar", set="heldout2",
             program=["yad", "--calendar", "--title=Date", "--day=1", "--month=1", "--year=2027",
                      "--date-format=%Y-%m-%d"],
             task="click 15; click OK", expect=dict(stdout="2027-01-15")),
        dict(name="kdialog-checklist", set="heldout2",
             program=["kdialog", "--title", "Fruit", "--checklist", "Pick fruit:", "a", "Apple", "off", "b",
                      "Banana", "off", "c", "Cherry", "off"],
             task="check Banana; click OK", expect=dict(stdout='"b"')),
        dict(name="kdialog-save", set="heldout2",
             program=["kdialog", "--title", "Save", "--getsavefilename", "{dir}/Untitled.txt"],
             task='type "k.txt" into "File name"; click Save', expect=dict(stdout="{dir}/k.txt")),
        dict(name="tk-form", set="heldout",
             program=["wish"], stdin=TK_FORM,
             task='type "Ada" into Name; check Subscribe; click Pro; click OK', expect=dict(stdout="Ada|1|pro")),
    ]


def wait_for(predicate, timeout, step=0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


class Desktop:
    """A private Xvfb with openbox and an AT-SPI bus inside this process' D-Bus session."""

    def __init__(self, display):
        self.display = display
        self.procs = []

    def start(self):
        # Xvfb picks a free display itself and writes its number: never someone else's display.
        read, write = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                                 "-nolisten", "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        os.close(write)
        self.procs.append(xvfb)
        with os.fdopen(read) as f:
            number = f.readline().strip()
        if not number or xvfb.poll() is not None:
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + number
        env = dict(os.environ, DISPLAY=self.display)
        if not wait_for(lambda: subprocess.run(["xdpyinfo"], env=env, stdout=subprocess.DEVNULL,
                                               stderr=subprocess.DEVNULL).returncode == 0, 20):
            raise RuntimeError("Xvfb %s did not start" % self.display)
        self.procs.append(subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL))
        launcher = "/usr/libexec/at-spi-bus-launcher"
        if os.path.exists(launcher):
            self.procs.append(subprocess.Popen([launcher, "--launch-immediately"], env=env,
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(1)  # openbox takes the screen; nothing to wait on that it reports

    def stop(self):
        for p in reversed(self.procs):
            p.terminate()
        for p in reversed(self.procs):
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()


def window_count(env, pid):
    r = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid), "--name", ""], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return len(r.stdout.split())


def any_window(env):
    r = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "."], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return len(r.stdout.split()) > 0


def session_records(session, name):
    """The records of the session's JSONL file `name` (None when the session or the file is missing); lines
    that are no JSON are skipped."""
    path = os.path.join(session or "", name)
    if not session or not os.path.exists(path):
        return None
    records = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                records.append(json.loads(line))
            except ValueError:
                continue
    return records


def verification_ms(session):
    """Time spent verifying, from the session's director.jsonl: from the end of each action (its result's
    start plus duration) to its verification record."""
    records = session_records(session, "director.jsonl")
    if records is None:
        return None
    total = 0.0
    verified_at = None
    for d in records:
        if d.get("type") == "verification":
            verified_at = d.get("t_ns")
        elif d.get("type") == "action_outcome" and verified_at is not None:
            r = d.get("result") or {}
            if "start_ns" in r and "duration_ms" in r:
                total += max(0.0, verified_at - r["start_ns"] - r["duration_ms"] * 1e6)
            verified_at = None
    return total / 1e6


def stop_program(prog):
    """Ends a program started in a session of its own (start_new_session): TERM, then KILL after 5 s."""
    if prog.poll() is None:
        os.killpg(prog.pid, signal.SIGTERM)
        try:
            prog.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(prog.pid, signal.SIGKILL)


def last_json(stdout):
    """The agent's --json summary: the last line of its output that is JSON ({} when none is)."""
    for line in reversed(stdout.splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return {}


class AgentRun:
    def __init__(self, returncode, stdout, stderr, questions):
        self.returncode, self.stdout, self.stderr, self.questions = returncode, stdout, stderr, questions


def allow_core_dump():
    """A crash leaves its core in the agent's working folder (the task's, kept with --keep) where the
    system's core_pattern is a plain file name."""
    resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def run_agent(argv, env, confirm, cwd=None):
    """Runs the agent. With `confirm`, its stdin is a terminal (a pty) and every "[y/N]" question it asks on
    stderr is answered "y"; the questions are returned. Without, stdin is /dev/null: no one to ask."""
    if not confirm:
        r = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=300, stdin=subprocess.DEVNULL, cwd=cwd, preexec_fn=allow_core_dump)
        return AgentRun(r.returncode, r.stdout, r.stderr, [])
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, env=env, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=cwd, preexec_fn=allow_core_dump)
    os.close(slave)
    out, err, questions = [], [], []

    def read_stdout():
        out.append(proc.stdout.read())

    def read_stderr():
        pending = b""
        while True:
            chunk = proc.stderr.read1(4096)
            if not chunk:
                break
            err.append(chunk)
            pending += chunk
            while b"[y/N]" in pending:
                question, _, pending = pending.partition(b"[y/N]")
                lines = question.decode(errors="replace").strip().splitlines()
                questions.append(lines[-1] if lines else "")
                os.write(master, b"y\n")

    threads = [threading.Thread(target=read_stdout), threading.Thread(target=read_stderr)]
    for t in threads:
        t.start()
    try:
        proc.wait(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise
    finally:
        for t in threads:
            t.join()
        os.close(master)
    return AgentRun(proc.returncode, b"".join(out).decode(errors="replace"),
                    b"".join(err).decode(errors="replace"), questions)


def files_holding(root, secret, skip):
    """The files under `root` (not under `skip`: the program's own home) whose bytes hold `secret`."""
    found = []
    needle = secret.encode()
    for folder, _, names in os.walk(root):
        if folder == skip or folder.startswith(skip + os.sep):
            continue
        for name in names:
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as f:
                    if needle in f.read():
                        found.append(os.path.relpath(path, root))
            except OSError:
                continue
    return found


def run_task(agent, task, display, workdir, keep):
    tdir = tempfile.mkdtemp(prefix="task-", dir=workdir)
    home = os.path.join(tdir, "home")
    os.makedirs(os.path.join(home, ".config"))
    fmt = dict(dir=tdir, home=home)
    env = dict(os.environ, DISPLAY=display, HOME=home, TASK_DIR=tdir, GNOME_ACCESSIBILITY="1",
               QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1", NO_AT_BRIDGE="0",
               XDG_CONFIG_HOME=os.path.join(home, ".config"), XDG_DATA_HOME=os.path.join(home, ".local"))
    program = [a.format(**fmt) for a in task["program"]]
    record = dict(name=task["name"], task=task["task"], set=task.get("set", "tuning"),
                  program=os.path.basename(task["program"][0]))
    if shutil.which(program[0]) is None:
        # A program this machine lacks is a task not run, said so, not the end of the suite.
        record.update(outcome="setup_failed", correct=False, detail=f"{program[0]} is not installed")
        return record
    prog = subprocess.Popen(program, cwd=tdir, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    if task.get("stdin"):
        prog.stdin.write(task["stdin"])
        prog.stdin.flush()
    if not wait_for(lambda: any_window(env), 20):
        record.update(outcome="setup_failed", correct=False, detail="no window appeared")
        os.killpg(prog.pid, signal.SIGKILL)
        return record
    time.sleep(1.0)  # the program's first paint and its accessibility registration
    sessions = os.path.join(tdir, "sessions")
    start = time.monotonic()
    # The agent's own folders are fresh too: no stored sequence of an earlier run is replayed.
    agent_env = dict(env, XDG_DATA_HOME=os.path.join(tdir, "agent-data"),
                     XDG_CONFIG_HOME=os.path.join(tdir, "agent-config"))
    try:
        r = run_agent([agent, "run", "--display", display, "--execute", "--provider", "local", "--json",
                       "--session-dir", sessions, task["task"]], agent_env, bool(task.get("confirm")),
                      cwd=tdir)
        seconds = time.monotonic() - start
        if task.get("confirm"):
            record["confirmations"] = r.questions
        with open(os.path.join(tdir, "agent.log"), "w") as log:  # kept with --keep
            log.write(r.stderr)
        summary = last_json(r.stdout)
        outcome = summary.get("outcome") or summary.get("result") or "exit %d" % r.returncode
        if isinstance(outcome, dict):
            outcome = outcome.get("result", "?")
        record.update(outcome=outcome, exit=r.returncode, seconds=round(seconds, 2),
                      message=(summary.get("message") or r.stderr.strip().splitlines()[-1:] or [""])
                      if isinstance(summary.get("message"), str) else str(summary.get("message", ""))[:300])
        session = summary.get("session") or summary.get("session_dir")
        record["verify_ms"] = verification_ms(session)
    except subprocess.TimeoutExpired:
        record.update(outcome="timeout", exit=None, seconds=300.0)
    # The evidence: the program's own output, exit status, file or accessibility tree.
    expect = task["expect"]
    out = ""
    code = None
    if "tree" not in expect and "file" not in expect:
        try:
            out, _ = prog.communicate(timeout=10)
            code = prog.returncode
        except subprocess.TimeoutExpired:
            os.killpg(prog.pid, signal.SIGKILL)
            out, _ = prog.communicate()
            code = None
    if "tree" in expect:
        # What the running program shows, read from its accessibility tree (a calculator's display): a line
        # that is exactly the expected text.
        r = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "tree_text.py"), str(prog.pid)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=60)
        lines = [line.strip() for line in r.stdout.splitlines()]
        shown = expect["tree"] in lines
        record.update(correct=shown, evidence="tree shows %r" % expect["tree"] if shown
                      else "tree lacks %r (%d texts)" % (expect["tree"], len(lines)))
    elif "stdout" in expect:
        want = expect["stdout"].format(**fmt)
        got = (out or "").strip()
        record.update(correct=got == want, evidence="stdout %r" % got)
    elif "exit" in expect:
        record.update(correct=code == expect["exit"], evidence="exit %s" % code)
    else:
        path = expect["file"].format(**fmt)
        got = open(path, encoding="utf-8", errors="replace").read().strip() if os.path.exists(path) else None
        record.update(correct=got == expect["content"],
                      evidence="%s: %r" % (os.path.basename(path), got) if got is not None
                      else "%s missing" % os.path.basename(path))
    stop_program(prog)
    record["false_completion"] = record.get("outcome") == "completed" and not record["correct"]
    if task.get("secret"):
        record["secret_leaked_in"] = files_holding(tdir, task["secret"], skip=home)
    if not keep:
        shutil.rmtree(tdir, ignore_errors=True)
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent")
    parser.add_argument("--only", default="")
    parser.add_argument("--keep", default="")
    args = parser.parse_args()
    if "DBUS_SESSION_BUS_ADDRESS" not in os.environ:
        os.execvp("dbus-run-session", ["dbus-run-session", "--", sys.executable] + sys.argv)
    agent = os.path.abspath(args.agent)
    only = set(filter(None, args.only.split(",")))
    tasks = [t for t in task_list() if not only or t["name"] in only]
    workdir = args.keep or tempfile.mkdtemp(prefix="ciu-tasks-")
    os.makedirs(workdir, exist_ok=True)
    desktop = Desktop(None)
    desktop.start()
    records = []
    try:
        for t in tasks:
            rec = run_task(agent, t, desktop.display, workdir, bool(args.keep))
            records.append(rec)
            print(json.dumps(rec), flush=True)
    finally:
        desktop.stop()
    def summarize(records):
        done = [r for r in records if r.get("outcome") == "completed" and r.get("correct")]
        false = [r for r in records if r.get("false_completion")]
        honest = [r for r in records if r.get("outcome") != "completed" and not r.get("correct")]
        secs = [r["seconds"] for r in records if r.get("seconds") is not None]
        verify = [r["verify_ms"] for r in records if r.get("verify_ms") is not None]
        return dict(tasks=len(records), programs=len({r["program"] for r in records}),
                    completed_and_verified=len(done), false_completions=len(false),
                    honest_failures=len(honest),
                    correct_but_not_completed=len([r for r in records if r.get("correct")
                                                   and r.get("outcome") != "completed"]),
                    median_seconds=round(statistics.median(secs), 2) if secs else None,
                    median_verify_ms=round(statistics.median(verify), 1) if verify else None,
                    total_verify_s=round(sum(verify) / 1000, 2) if verify else None,
                    secret_leaks=len([r for r in records if r.get("secret_leaked_in")]))
    summary = summarize(records)
    # Held out: programs added after the agent's last tuning, run and never tuned on.
    for name in sorted({r["set"] for r in records}):
        summary[name] = summarize([r for r in records if r["set"] == name])
    print(json.dumps(dict(summary=summary)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
