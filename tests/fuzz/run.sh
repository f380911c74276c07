#!/usr/bin/env bash
# Builds the libFuzzer targets (preset fuzz: clang, ASan + UBSan; see tests/fuzz/CMakeLists.txt) and runs each
# on its seed corpus (tests/fuzz/corpus/<target>/) for a fixed time. Exits non-zero on any finding: a crash,
# a leak, undefined behaviour, an input that runs longer than the per-input timeout, or one that takes more
# memory than the limit. The reproducer of a finding is kept and its path printed. The seed corpora are not
# changed (new inputs go to a scratch folder).
#
#   bash tests/fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]      (default: 20 s, every target)
#   FUZZ_KEEP=DIR bash tests/fuzz/run.sh 300                     keep what the fuzzers found in DIR/<target>
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

seconds="${1:-20}"
shift || true
all=(fuzz_session fuzz_sse fuzz_anthropic fuzz_openai fuzz_inventory fuzz_commandscript fuzz_keys fuzz_mcp
     fuzz_mcp_http)
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then targets=("${all[@]}"); fi

launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
start=$(date +%s)
cmake --preset fuzz "${launcher[@]}" >/dev/null
cmake --build --preset fuzz
echo "fuzz: targets built in $(( $(date +%s) - start )) s"

work="${FUZZ_KEEP:-$(mktemp -d)}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export QT_QPA_PLATFORM=offscreen
failed=()
for t in "${targets[@]}"; do
  bin="build/fuzz/tests/fuzz/$t"
  seeds="tests/fuzz/corpus/$t"
  mkdir -p "$work/$t/corpus" "$work/$t/findings"
  dict=()
  if [ -f "tests/fuzz/dict/$t.dict" ]; then dict=(-dict="tests/fuzz/dict/$t.dict"); fi
  log="$work/$t/log.txt"
  set +e
  # A fixed seed: the same inputs in the same order on every machine, so a run that passed here is a prefix
  # of what CI tries (FUZZ_SEED=0 picks a random one for longer exploratory runs).
  "$bin" -seed="${FUZZ_SEED:-1}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$work/$t/findings/" "${dict[@]}" "$work/$t/corpus" "$seeds" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  final=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  ran=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
  echo "fuzz: $t: ${ran:-stopped early, under $seconds} s, ${execs:-?} executions, ${speed:-?}/s, ${final:-no coverage line}, exit $rc"
  if [ "$rc" -ne 0 ]; then
    failed+=("$t")
    grep -E 'ERROR|SUMMARY|runtime error|==[0-9]+==|#[0-9]+ 0x' "$log" | head -40 || true
    ls "$work/$t/findings"/* 2>/dev/null | sed 's/^/fuzz:   reproducer: /' || true
  fi
done
echo "fuzz: ${#targets[@]} targets in $(( $(date +%s) - start )) s, logs in $work"
echo "fuzz: $(( ${#targets[@]} - ${#failed[@]} )) passed, ${#failed[@]} failed"
if [ "${#failed[@]}" -ne 0 ]; then
  echo "fuzz: FINDINGS in ${failed[*]}" >&2
  exit 1
fi
