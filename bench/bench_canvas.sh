#!/bin/sh
# Runs `ciu-agent bench canvas` on a private 1920x1080 Xvfb desktop with the fixture app and an xterm open.
# usage: bench/bench_canvas.sh BUILD_DIR [extra bench arguments]
set -eu
BUILD=${1:?usage: bench_canvas.sh BUILD_DIR}
shift
AGENT="$BUILD/app/ciu-agent"
FIXTURE="$BUILD/tests/fixture-app/ciu-fixture-app"
N=$(( (($$ % 400)) + 500 ))
Xvfb ":$N" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
trap 'kill $PIDS $XVFB 2>/dev/null || true' EXIT INT TERM
PIDS=""
sleep 1
DISPLAY=":$N" openbox >/dev/null 2>&1 & PIDS="$PIDS $!"
sleep 1
DISPLAY=":$N" QT_QPA_PLATFORM=xcb "$FIXTURE" --geometry 60,60,900,640 </dev/null >/dev/null 2>&1 & PIDS="$PIDS $!"
DISPLAY=":$N" xterm -geometry 100x40+1000+80 -e sh -c 'ls -la /usr/bin | head -60; sleep 3600' >/dev/null 2>&1 & PIDS="$PIDS $!"
sleep 4
OMP_THREAD_LIMIT=1 QT_QPA_PLATFORM=offscreen taskset -c 0 "$AGENT" bench canvas --display ":$N" "$@"
