#!/usr/bin/env bash
# One-step set-up on a fresh Debian 12 machine (as root, or with sudo available):
#   bash packaging/setup.sh run    install what is needed, build, start the desktop app
#                                  (no display: run the offline demo on a private Xvfb instead)
#   bash packaging/setup.sh test   install what is needed, build, run the whole test suite
set -euo pipefail

mode="${1:-}"
case "$mode" in
  run|test) ;;
  *) echo "usage: bash packaging/setup.sh run|test" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

bash packaging/install-deps.sh

# CIU_WARNINGS_AS_ERRORS=ON (CI sets it) turns a compiler warning in project code into an error.
cmake --preset release -DCIU_WARNINGS_AS_ERRORS="${CIU_WARNINGS_AS_ERRORS:-OFF}" >/dev/null
cmake --build --preset release

bin="$here/build/release/app/ciu-agent"
if [ "$mode" = "test" ]; then
  # The MCP end-to-end test's client: the official MCP TypeScript SDK, pinned by tests/mcp-client's lockfile.
  (cd tests/mcp-client && npm ci --no-audit --no-fund --loglevel=error)
  # Unit tests run two at a time; end-to-end tests take the X server lock and run one at a time.
  export OMP_THREAD_LIMIT=1
  exec ctest --preset release -j2
fi

if [ -n "${DISPLAY:-}" ] && xdpyinfo >/dev/null 2>&1; then
  exec "$bin"
fi
echo "No X display is reachable; running the offline demo on a private Xvfb." >&2
exec "$bin" demo
