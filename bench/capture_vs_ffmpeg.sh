#!/usr/bin/env bash
# Our capture + Tier 0 (ciu-agent bench capture mode=run) against `ffmpeg -f x11grab -f null -` on the same
# private Xvfb, same length, same rate; then the peak RSS of a long run with the 5 s frame ring.
#
#   bench/capture_vs_ffmpeg.sh [--agent PATH] [--seconds 20] [--rss-seconds 60] [--fps 30] [--4k]
#
# Scenarios: a static screen, a 400x300 animation (ffplay test pattern window) and, for memory, a
# full-screen animation. CPU is user+system time of the measured process from /usr/bin/time (start-up
# included for both), as % of one core over the run; the X server's CPU during the run is shown beside it
# (with MIT-SHM the server copies the pixels). Needs Xvfb, ffmpeg, ffplay and /usr/bin/time.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
agent=""
seconds=20
rss_seconds=60
fps=30
sizes=("1920x1080")
while [ $# -gt 0 ]; do
    case "$1" in
    --agent) agent=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --rss-seconds) rss_seconds=$2; shift 2 ;;
    --fps) fps=$2; shift 2 ;;
    --4k) sizes+=("3840x2160"); shift ;;
    -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
if [ -z "$agent" ]; then
    for candidate in "$here"/../build/*/app/ciu-agent "$here"/../build/app/ciu-agent; do
        [ -x "$candidate" ] && agent=$candidate && break
    done
fi
[ -x "$agent" ] || { echo "ciu-agent not found; pass --agent PATH" >&2; exit 2; }
for tool in Xvfb ffmpeg ffplay /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 2; }
done

work=$(mktemp -d)
xvfb_pid=""
anim_pid=""
cleanup() {
    [ -n "$anim_pid" ] && kill "$anim_pid" 2>/dev/null && wait "$anim_pid" 2>/dev/null || true
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

start_xvfb() {  # $1 = WxH
    local n
    for n in $(seq 140 199); do
        [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
        Xvfb ":$n" -screen 0 "${1}x24" -nolisten tcp -noreset >"$work/xvfb.log" 2>&1 &
        xvfb_pid=$!
        for _ in $(seq 50); do
            [ -e "/tmp/.X11-unix/X$n" ] && { display=":$n"; sleep 0.3; return 0; }
            sleep 0.1
        done
        kill "$xvfb_pid" 2>/dev/null || true
    done
    echo "cannot start Xvfb" >&2
    exit 1
}

stop_xvfb() {
    kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null || true
    xvfb_pid=""
}

start_animation() {  # $1 = window | fullscreen, $2 = WxH
    local args
    if [ "$1" = window ]; then
        args=(-i "testsrc2=size=400x300:rate=30" -left 100 -top 100)
    else
        args=(-i "testsrc2=size=480x270:rate=30" -left 0 -top 0 -x "${2%x*}" -y "${2#*x}")
    fi
    DISPLAY=$display SDL_AUDIODRIVER=dummy ffplay -loglevel error -an -noborder -f lavfi "${args[@]}" \
        </dev/null >/dev/null 2>"$work/ffplay.log" &
    anim_pid=$!
    sleep 2
}

stop_animation() {
    [ -n "$anim_pid" ] && kill "$anim_pid" 2>/dev/null && wait "$anim_pid" 2>/dev/null || true
    anim_pid=""
}

# CPU seconds (user + system) the X server has used so far: with MIT-SHM the server does the copying.
server_cpu() {
    awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f", ($14 + $15) / hz }' "/proc/$xvfb_pid/stat"
}

# measure LABEL SECONDS COMMAND...: prints "LABEL  cpu_s  cpu_%  peak_rss_MiB  server_cpu_%"
measure() {
    local label=$1 secs=$2
    shift 2
    local server_before
    server_before=$(server_cpu)
    /usr/bin/time -f "%U %S %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" || {
        echo "$label: failed (see below)" >&2
        tail -5 "$work/err" >&2
        return 0
    }
    read -r user sys rss_kb <"$work/time"
    awk -v l="$label" -v u="$user" -v s="$sys" -v r="$rss_kb" -v t="$secs" -v x0="$server_before" -v x1="$(server_cpu)" \
        'BEGIN { printf "%-44s cpu %7.2f s  %6.2f %% of a core  peak RSS %7.1f MiB  (X server: %5.2f %%)\n", l, u + s, (u + s) / t * 100, r / 1024, (x1 - x0) / t * 100 }'
}

# Command lines (not shell functions: /usr/bin/time runs programs).
ours() {  # $1 = seconds, $2 = adaptive|fixed
    ours_cmd=(env QT_QPA_PLATFORM=offscreen "$agent" bench capture --display "$display" mode=run "fps=$fps"
        "seconds=$1" "idle=$2")
}
ffmpeg_grab() {  # $1 = seconds, $2 = WxH
    ffmpeg_cmd=(ffmpeg -nostdin -loglevel error -f x11grab -framerate "$fps" -video_size "$2" -i "$display"
        -t "$1" -f null -)
}

for size in "${sizes[@]}"; do
    start_xvfb "$size"
    echo "== $size on $display, $fps fps, ${seconds} s per run (agent: $agent)"
    echo "-- static screen"
    ours "$seconds" adaptive
    measure "ours (capture+Tier 0, adaptive idle rate)" "$seconds" "${ours_cmd[@]}"
    ours "$seconds" fixed
    measure "ours (capture+Tier 0, fixed ${fps} fps)" "$seconds" "${ours_cmd[@]}"
    ffmpeg_grab "$seconds" "$size"
    measure "ffmpeg x11grab (capture only)" "$seconds" "${ffmpeg_cmd[@]}"
    echo "-- 400x300 animation (ffplay window)"
    start_animation window "$size"
    ours "$seconds" adaptive
    measure "ours (capture+Tier 0, adaptive idle rate)" "$seconds" "${ours_cmd[@]}"
    ffmpeg_grab "$seconds" "$size"
    measure "ffmpeg x11grab (capture only)" "$seconds" "${ffmpeg_cmd[@]}"
    stop_animation
    echo "-- memory: ${rss_seconds} s at ${fps} fps with the 5 s ring"
    ours "$rss_seconds" adaptive
    measure "ours, static screen" "$rss_seconds" "${ours_cmd[@]}"
    grep -h '"metric":"ring_peak"' "$work/out" | sed 's/^/   /' || true
    start_animation fullscreen "$size"
    ours "$rss_seconds" adaptive
    measure "ours, full-screen animation" "$rss_seconds" "${ours_cmd[@]}"
    grep -h '"metric":"ring_peak"\|"metric":"frames"\|"metric":"late_frames"' "$work/out" | sed 's/^/   /' || true
    stop_animation
    stop_xvfb
done
