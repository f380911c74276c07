#!/usr/bin/env bash
# The soak: one ciu-agent MCP server doing a task loop on the fixture app for MINUTES (default 60), on a screen
# that never rests: a terminal printing several lines a second, a clock ticking every second, a message window
# opening and closing every 20 s, under a window manager. Prints the server's memory and CPU, the recordings'
# size and frame counters every minute, then a summary with the memory trend (tests/mcp-client/soak.mjs).
#
#   bash bench/soak.sh [MINUTES] [BUILD_DIR]          e.g. bash bench/soak.sh 60 build/release
# Needs: Xvfb, openbox, xterm, x11-apps (xclock), x11-utils (xmessage), node with tests/mcp-client installed
# (packaging/setup.sh test does npm ci there).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
minutes="${1:-60}"
build="${2:-build/release}"
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
agent="$build/app/ciu-agent"
fixture="$build/tests/fixture-app/ciu-fixture-app"
for f in "$agent" "$fixture"; do
  if [ ! -x "$f" ]; then echo "soak: $f is not built (cmake --build --preset release)" >&2; exit 1; fi
done
for tool in Xvfb openbox xterm xclock xmessage node; do
  command -v "$tool" >/dev/null || { echo "soak: $tool is not installed" >&2; exit 1; }
done

work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# A free display: the first without a lock file.
n=90
while [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
display=":$n"
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.05; done
export DISPLAY="$display"
openbox >"$work/openbox.log" 2>&1 &
pids+=($!)

"$fixture" >"$work/fixture.jsonl" 2>"$work/fixture.err" </dev/null &
pids+=($!)
xterm -geometry 100x20+0+560 -e sh -c 'i=0; while :; do i=$((i+1)); echo "line $i $(date +%T.%N)"; sleep 0.2; done' &
pids+=($!)
xclock -update 1 -geometry 160x160+1110+0 &
pids+=($!)
(i=0; while :; do i=$((i + 1)); xmessage -timeout 5 -geometry +1000+600 "soak message $i" >/dev/null 2>&1 || true; sleep 15; done) &
pids+=($!)

echo "soak: $minutes min on $display, agent $agent" >&2
node tests/mcp-client/soak.mjs "$agent" "$display" "$minutes" "$work/data"
