#!/usr/bin/env bash
# The unit tests (ctest label "unit", not e2e) built with AddressSanitizer and UndefinedBehaviorSanitizer
# (preset asan: gcc, CIU_SANITIZE=ON, build/asan). Any error report fails the test that made it.
#   bash packaging/sanitize-tests.sh [ctest -R regex]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
start=$(date +%s)
cmake --preset asan "${launcher[@]}" >/dev/null
cmake --build --preset asan
echo "sanitize-tests: unit tests built in $(( $(date +%s) - start )) s"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export OMP_THREAD_LIMIT=1
filter=()
if [ -n "${1:-}" ]; then filter=(-R "$1"); fi
ctest --preset asan -j2 "${filter[@]}"
echo "sanitize-tests: done in $(( $(date +%s) - start )) s"
