#!/bin/sh
# Runs `ciu-agent bench zonememory` on a private 1280x800 Xvfb desktop with openbox and the fixture app.
# usage: bench/bench_zonememory.sh BUILD_DIR [extra bench arguments]
set -eu
BUILD=${1:?usage: bench_zonememory.sh BUILD_DIR}
shift
AGENT="$BUILD/app/ciu-agent"
FIXTURE="$BUILD/tests/fixture-app/ciu-fixture-app"
N=$(( (($$ % 400)) + 500 ))
Xvfb ":$N" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
trap 'kill $PIDS $XVFB 2>/dev/null || true' EXIT INT TERM
PIDS=""
sleep 1
DISPLAY=":$N" openbox >/dev/null 2>&1 & PIDS="$PIDS $!"
sleep 1
DISPLAY=":$N" QT_QPA_PLATFORM=xcb "$FIXTURE" --geometry 60,60,900,640 </dev/null >/dev/null 2>&1 & PIDS="$PIDS $!"
sleep 4
OMP_THREAD_LIMIT=1 QT_QPA_PLATFORM=offscreen CIU_ACCESSIBILITY=none "$AGENT" bench zonememory --display ":$N" "$@"
