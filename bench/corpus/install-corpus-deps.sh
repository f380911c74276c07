#!/usr/bin/env bash
# Debian packages the vision corpus needs (bench/corpus/generate.sh): the programs of programs.json, the
# X server, window manager and tools that drive them, and Python's AT-SPI bindings. Not in the CI install
# script: CI does not generate the corpus.
set -euo pipefail
sudo=""
[[ $(id -u) -eq 0 ]] || sudo=sudo
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends \
  xvfb openbox xdotool x11-utils imagemagick dbus at-spi2-core libatk-adaptor python3-gi gir1.2-atspi-2.0 \
  gtk-3-examples mousepad galculator gucharmap zenity \
  featherpad speedcrunch \
  designer-qt6 linguist-qt6 assistant-qt6 qt6-tools-dev-tools \
  tk git-gui gitk idle3 tk8.6-doc
