#!/usr/bin/env bash
# The unit tests (ctest label "unit", not e2e) built with clang, AddressSanitizer and UndefinedBehaviorSanitizer
# in the fuzz build (preset fuzz, build/fuzz: the project libraries the fuzz targets link, so CI compiles them
# once for both). Any memory error, leak in project code or undefined behaviour fails the test that met it.
# CI runs this after the fuzz targets (.ci/run).
#   bash packaging/sanitize-tests.sh [ctest -R regex]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
start=$(date +%s)
cmake --preset fuzz "${launcher[@]}" >/dev/null
cmake --build --preset fuzz-unit
echo "sanitize-tests: unit tests built in $(( $(date +%s) - start )) s"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Leaks inside the libraries we link (Tesseract's own) are listed there, each with why; never project code.
export LSAN_OPTIONS="suppressions=$PWD/packaging/lsan.supp"
export OMP_THREAD_LIMIT=1
filter=()
if [ -n "${1:-}" ]; then filter=(-R "$1"); fi
ctest --preset fuzz-unit -j2 "${filter[@]}"
echo "sanitize-tests: done in $(( $(date +%s) - start )) s"
