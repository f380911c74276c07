#!/usr/bin/python3
"""Runs a Python tkinter program with the vision corpus's probe (tkprobe.tcl) in each Tk interpreter it
creates (the probe of one the program destroys stops answering):
    python3 tkrun.py -m MODULE [ARG...]
    python3 tkrun.py SCRIPT [ARG...]"""
import os
import runpy
import sys
import tkinter

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tkprobe.tcl")
_init = tkinter.Tk.__init__


def _probed_init(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    if self.tk.call("info", "commands", "winfo"):  # not a Tcl() interpreter without Tk
        self.tk.call("source", PROBE)


tkinter.Tk.__init__ = _probed_init

if len(sys.argv) >= 3 and sys.argv[1] == "-m":
    sys.argv = [sys.argv[2]] + sys.argv[3:]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
elif len(sys.argv) >= 2:
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
else:
    sys.exit(__doc__)
