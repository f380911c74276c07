#!/usr/bin/env bash
# Generates the vision corpus: for each program of programs.json, each screen size and each look of its
# toolkit, a screenshot per state (main window, a menu open, a dialog open, a tab switched) and its ground
# truth from the accessibility tree. Each sample runs in a private session bus (dbus-run-session) with its
# own AT-SPI bus, Xvfb and openbox (a program killed with a dialog open left Qt programs started after it
# on the same bus unregistered). The images are not committed.
#
#   bench/corpus/generate.sh OUTDIR [--programs a,b] [--looks l1,l2] [--screens 1280x800,2560x1440]
#                                   [--states main,menu,dialog,tab]
# Looks: GTK adwaita, adwaita-dark, highcontrast, gdk-scale2; Qt fusion, qt-default, qt-windows,
# qt-scale1.5 (a program gets the looks of its toolkit). Default: every look, 1280x800 and 2560x1440.
# Packages: bench/corpus/install-corpus-deps.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ $# -ge 1 && $1 != -* ]] || usage
out="$1"; shift
programs="" looks="" screens="1280x800,2560x1440" states="main,menu,dialog,tab"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --programs) programs="${2:?}"; shift 2 ;;
    --looks) looks="${2:?}"; shift 2 ;;
    --screens) screens="${2:?}"; shift 2 ;;
    --states) states="${2:?}"; shift 2 ;;
    *) echo "unknown option $1" >&2; usage ;;
  esac
done
python=/usr/bin/python3 # Debian's, which has python3-gi and the Atspi typelib
manifest="$here/programs.json"
if [[ -z $programs ]]; then
  programs="$("$python" -c 'import json,sys; print(",".join(p["name"] for p in json.load(open(sys.argv[1]))["programs"]))' "$manifest")"
fi
mkdir -p "$out"
cp "$manifest" "$out/programs.json"
start=$(date +%s)
IFS=, read -ra program_list <<<"$programs"
IFS=, read -ra screen_list <<<"$screens"
IFS=, read -ra state_list <<<"$states"
for screen in "${screen_list[@]}"; do
  for program in "${program_list[@]}"; do
    program_looks="$("$python" "$here/capture.py" --manifest "$manifest" --out "$out" --program "$program" \
      --looks "$looks" --list-looks)"
    for look in $program_looks; do
      for state in "${state_list[@]}"; do
        dbus-run-session -- "$python" "$here/capture.py" --manifest "$manifest" --out "$out" \
          --program "$program" --looks "$look" --screen "$screen" --states "$state" 2>&1 |
          grep --line-buffered -v '^dbus-daemon\|SpiRegistry\|DeprecationWarning\|_iface()$\|samples$' >&2 ||
          true
      done
    done
  done
done
echo "$(find "$out" -name '*.json' ! -name programs.json | wc -l) samples in $out, $(( $(date +%s) - start )) s" >&2
