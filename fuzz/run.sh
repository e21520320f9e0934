#!/usr/bin/env bash
# Builds one fuzz target with cargo-fuzz on the stable toolchain and fuzzes it.
#
#   fuzz/run.sh <target> <seconds> [extra libFuzzer flags...]
#   targets: astrixfile policy_grammar intent evaluate
#
# Needs: cargo-fuzz (`cargo install --locked cargo-fuzz`, once) and a C++ compiler (g++),
# which libfuzzer-sys uses to build libFuzzer. RUSTC_BOOTSTRAP=1 lets the stable rustc take
# the -Z flags cargo-fuzz passes (-Zsanitizer=address); the coverage instrumentation itself
# (-Cpasses=sancov-module, -Cllvm-args=-sanitizer-coverage-*) is stable.
#
# The committed seeds in fuzz/corpus/<target>/ are only read; what the fuzzer finds goes
# to fuzz/target/corpus/<target>/ and crashes to fuzz/target/artifacts/<target>/ (both
# ignored by git). Environment: JOBS=<n> runs n fuzzing processes (default: one, in the foreground;
# with JOBS, libFuzzer writes each one's log to fuzz/fuzz-<i>.log, ignored by git);
# SANITIZER=none|address (default address).
set -euo pipefail
cd "$(dirname "$0")"

target=${1:?usage: fuzz/run.sh <target> <seconds> [libFuzzer flags...]}
seconds=${2:?usage: fuzz/run.sh <target> <seconds> [libFuzzer flags...]}
shift 2

if ! command -v cargo-fuzz >/dev/null; then
    echo "cargo-fuzz is not installed: cargo install --locked cargo-fuzz" >&2
    exit 2
fi

export RUSTC_BOOTSTRAP=1
sanitizer=${SANITIZER:-address}
work=target/corpus/$target
artifacts=target/artifacts/$target
mkdir -p "$work" "$artifacts"

cargo fuzz build --release --debug-assertions --sanitizer "$sanitizer" "$target"
cargo fuzz run --release --debug-assertions --sanitizer "$sanitizer" "$target" \
    "$work" "corpus/$target" -- \
    -max_total_time="$seconds" \
    -artifact_prefix="$artifacts/" \
    -print_final_stats=1 \
    -timeout=10 \
    ${JOBS:+-jobs="$JOBS" -workers="$JOBS"} \
    "$@"
