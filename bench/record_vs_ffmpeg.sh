#!/bin/bash
# CPU and disk of recording a 1920x1080 Xvfb display at 30 fps: `ciu-agent bench record` (the real pipeline:
# CaptureEngine -> SessionWriter, damage-driven grabs + H.264 + JSONL) vs
# `ffmpeg -f x11grab -c:v libx264 -preset ultrafast` on the same display, same duration, same activity
# (xclock ticking, xeyes following a pointer moved by xdotool, an xterm printing). Target: ≤ 1.2× ffmpeg.
#
# Usage: bench/record_vs_ffmpeg.sh [PATH_TO_CIU_AGENT] [SECONDS] [KEY=VALUE...]
#   defaults: build/release/app/ciu-agent, 10; KEY=VALUE go to `bench record` (keyint=MS crf=N preset=P tune=T)
set -euo pipefail

BIN=${1:-build/release/app/ciu-agent}
DURATION=${2:-10}
shift $(( $# > 2 ? 2 : $# ))
EXTRA=("$@")
[ -x "$BIN" ] || { echo "ciu-agent not found at $BIN" >&2; exit 2; }
for tool in Xvfb ffmpeg xdotool xdpyinfo /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 2; }
done

DISP=""
for n in $(seq 91 140); do
    if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then DISP=":$n"; break; fi
done
[ -n "$DISP" ] || { echo "no free display number" >&2; exit 2; }
WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

Xvfb "$DISP" -screen 0 1920x1080x24 -nolisten tcp -noreset >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do DISPLAY=$DISP xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
export DISPLAY=$DISP

# A typical desktop: small, frequent changes.
command -v xclock >/dev/null && { xclock -update 1 -geometry 300x300+100+100 & PIDS+=($!); }
command -v xeyes >/dev/null && { xeyes -geometry 300x200+500+100 & PIDS+=($!); }
command -v xterm >/dev/null && { xterm -geometry 100x30+900+300 -e sh -c 'while true; do date; ls -l /usr/bin | head -20; sleep 0.5; done' & PIDS+=($!); }
( i=0; while true; do xdotool mousemove $((100 + (i * 37) % 1700)) $((100 + (i * 23) % 900)); i=$((i + 1)); sleep 0.05; done ) &
PIDS+=($!)
sleep 1

cpu() { awk '{ printf "%.2f", $1 + $2 }' "$1"; }

echo "== ciu-agent bench record ($DURATION s on $DISP)" >&2
/usr/bin/time -f "%U %S %e" -o "$WORK/ciu.time" "$BIN" bench record "$DURATION" "${EXTRA[@]}" --display "$DISP" | tee "$WORK/ciu.json"
echo "== ffmpeg x11grab ($DURATION s on $DISP)" >&2
/usr/bin/time -f "%U %S %e" -o "$WORK/ffmpeg.time" \
    ffmpeg -nostdin -y -loglevel error -f x11grab -framerate 30 -video_size 1920x1080 -i "$DISP" -t "$DURATION" \
    -c:v libx264 -preset ultrafast "$WORK/out.mp4"

CIU_CPU=$(cpu "$WORK/ciu.time")
FF_CPU=$(cpu "$WORK/ffmpeg.time")
metric() { grep "\"metric\":\"$1\"" "$WORK/ciu.json" | sed 's/.*"value":\([0-9.e+-]*\).*/\1/'; }
CIU_LOOP=$(metric cpu_seconds)
CIU_MB=$(awk -v v="$(metric disk_per_minute)" 'BEGIN { printf "%.1f", v }')
FF_MB=$(awk -v b="$(stat -c %s "$WORK/out.mp4")" -v d="$DURATION" 'BEGIN { printf "%.1f", b / 1048576 * 60 / d }')
RATIO=$(awk -v a="$CIU_CPU" -v b="$FF_CPU" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
RATIO_LOOP=$(awk -v a="$CIU_LOOP" -v b="$FF_CPU" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
printf '{"bench":"record_vs_ffmpeg","seconds":%s,"args":"%s","ciu_cpu_s":%s,"ciu_recording_loop_cpu_s":%s,"ffmpeg_cpu_s":%s,"ratio":%s,"ratio_loop":%s,"ciu_mib_per_min":%s,"ffmpeg_mib_per_min":%s,"target_ratio":1.2}\n' \
    "$DURATION" "${EXTRA[*]}" "$CIU_CPU" "$CIU_LOOP" "$FF_CPU" "$RATIO" "$RATIO_LOOP" "$CIU_MB" "$FF_MB"
