#!/usr/bin/env python3
"""Top-1 accuracy of past-task retrieval on paraphrases.json, through `ciu-agent tasks --similar --json`.

Each task is written as a remembered task into a fresh folder (CIU_TASKS_DIR); each paraphrase is looked up,
and a hit is a first similar task that is its own; once with the floor a run uses (0.4: a lookup that finds
nothing above it is a miss) and once with none (the ranking alone).

    measure.py [--agent build/release/app/ciu-agent] [-- EXTRA ARGS FOR tasks --similar]

BM25 alone: no extra arguments. With a real embedding model (an OpenAI-compatible server):
    OPENAI_BASE_URL=http://localhost:8080 measure.py -- --provider openai --embedding-model NAME
The fake test server's vectors are derived from words, not meaning: measuring with them says nothing.
"""
import argparse
import datetime
import json
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def remembered(index, entry):
    task_id = "t%012x" % (index + 1)
    recorded = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(minutes=index)
    line = 'left_click button "OK"'
    return task_id, {
        "format": 1, "id": task_id, "task": entry["task"], "application": "bench", "planner": "local",
        "recorded_at": recorded.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "step_lines": [line], "steps": [{"action": {"type": "left_click"}}],
        "narrative": 'To "%s", one step worked: 1. %s. The result was verified.' % (entry["task"], line),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", default=str(HERE.parent.parent / "build/release/app/ciu-agent"))
    parser.add_argument("--verbose", action="store_true", help="one line a lookup")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    entries = json.loads((HERE / "paraphrases.json").read_text())["tasks"]
    with tempfile.TemporaryDirectory() as folder:
        ids = {}
        for i, entry in enumerate(entries):
            task_id, obj = remembered(i, entry)
            ids[entry["key"]] = task_id
            (pathlib.Path(folder) / (task_id + ".json")).write_text(json.dumps(obj))
        env = dict(os.environ, CIU_TASKS_DIR=folder)
        for floor in ("0.4", "0"):
            hits = {True: 0, False: 0}
            counts = {True: 0, False: 0}
            for entry in entries:
                out = subprocess.run([args.agent, "tasks", "--similar", entry["query"], "--json",
                                      "--min-relevance", floor] + args.extra,
                                     env=env, capture_output=True, text=True, check=True).stdout
                found = json.loads(out.strip().splitlines()[-1])
                first = found["similar"][0]["id"] if found["similar"] else None
                hit = first == ids[entry["key"]]
                counts[entry["shares_words"]] += 1
                hits[entry["shares_words"]] += hit
                if args.verbose:
                    print("%-4s %-13s %s -> %s" % ("hit" if hit else "miss", entry["key"], found["method"], first))
            print("%s, relevance >= %s: top-1 %d/%d (sharing words %d/%d, sharing none %d/%d)" %
                  (found["method"], floor, sum(hits.values()), len(entries), hits[True], counts[True],
                   hits[False], counts[False]))


if __name__ == "__main__":
    sys.exit(main())
