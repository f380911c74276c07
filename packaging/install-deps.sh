#!/usr/bin/env bash
# Installs every Debian 12 package CIU Agent needs to build, run, test and benchmark.
# Run as root (or with sudo). Safe to run repeatedly.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config clang-format git file dpkg-dev
  # fuzzing (tests/fuzz/run.sh): clang with libFuzzer and the ASan/UBSan runtimes (only recommended by clang-14,
  # so named here: this script installs without recommends)
  clang-14 libclang-rt-14-dev
  # Qt 6.4
  qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools
  qt6-l10n-tools qt6-translations-l10n libqt6svg6 qt6-qpa-plugins libgl-dev libxkbcommon-dev
  qtkeychain-qt6-dev
  # vision and OCR
  libopencv-dev libtesseract-dev libleptonica-dev tesseract-ocr tesseract-ocr-eng
  # icon themes: icon-only buttons are named by matching them against these (core/canvas/iconnamer.h)
  adwaita-icon-theme hicolor-icon-theme
  # X11 / xcb
  libxcb1-dev libxcb-shm0-dev libxcb-xtest0-dev libxcb-xfixes0-dev libxcb-damage0-dev
  libxcb-randr0-dev libxcb-keysyms1-dev libxcb-xkb-dev libx11-dev libx11-xcb-dev
  # accessibility: libatspi (the AT-SPI tree), the AT-SPI bus, a session bus for tests (dbus-run-session),
  # a GTK program and pyatspi for the tests and the a11y benchmark (its 240-widget window: python3-gi + GTK)
  libatspi2.0-dev at-spi2-core dbus dbus-daemon dbus-bin gtk-3-examples python3-pyatspi python3-gi
  gir1.2-gtk-3.0
  # programs of other toolkits the verified-outcomes test drives (tests/e2e/tst_outcomes_e2e): GTK 3 dialogs
  # (zenity) and Tk (wish); xterm (Xt) is below
  zenity tk
  # a Qt 6 program of the vision corpus's held-out set, for the held-out guard (bench/corpus/heldout-guard.sh)
  linguist-qt6
  # video
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev ffmpeg
  # running and testing under a virtual X server
  xvfb xauth openbox x11-apps x11-utils x11-xserver-utils xdotool xterm imagemagick xclip
  fonts-dejavu-core
)
# The MCP server's end-to-end test drives it with the official MCP TypeScript SDK client (tests/mcp-client):
# Node and npm. A machine that already has a Node with its own npm (NodeSource's package bundles it, and then
# Debian's npm cannot be installed beside it) keeps that one.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
