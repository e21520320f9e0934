#!/usr/bin/env bash
# Run git's own test scripts with astrix's hooks in every repository they create.
#
# git's test suite creates every repository from the template directory of the build tree
# (test-lib.sh sets GIT_TEMPLATE_DIR=$GIT_BUILD_DIR/templates/blt). This script runs
# `astrix install` in a scratch repository, copies the hooks it wrote (unchanged) into
# templates/blt/hooks/, runs the chosen test scripts as a human (every agent marker and
# every ASTRIX_* variable removed from the environment), and prints what passed and failed.
# The template directory is cleaned before the run and again when the script ends, so that
# runs are repeatable and the build tree is left as git's `make` wrote it.
#
# It does not build git: give it a git source tree in which git's own `make` has run.
#
# Usage: benches/git-suite.sh [options] [test-script ...]
# See `benches/git-suite.sh --help`.

set -u

default_scripts="t1400-update-ref t3200-branch t2400-worktree-add t3400-rebase t7600-merge
t7102-reset t3501-revert-cherry-pick t5601-clone"

usage() {
    cat <<EOF
usage: $0 [options] [test-script ...]

Runs git's own test scripts with the hooks that \`astrix install\` writes in every
repository they create (or, with --no-hooks, without them, for comparison).

  -g, --git DIR        git source tree, built with git's own \`make\`   (env GIT_BUILD_DIR)
  -a, --astrix PATH    astrix binary whose hooks are installed        (env ASTRIX)
  -o, --out DIR        results directory; each mode gets a subdirectory
                       (env RESULTS_DIR; default: <repo>/target/git-suite)
  -n, --no-hooks       run without astrix's hooks (the template dir as git built it)
      --reftable       set GIT_TEST_DEFAULT_REF_FORMAT=reftable
      --sha256         set GIT_TEST_DEFAULT_HASH=sha256
  -x, --trace          run the scripts with -x (under bash), for the failure logs
  -j, --jobs N         run N scripts at once (default 1)       (env GIT_SUITE_JOBS)
      --keep-hooks     leave the hooks in the template dir at the end (for manual runs)
      --label NAME     name of the results subdirectory (default: hooks|nohooks[-reftable][-sha256])
  -h, --help           this message

test-script: names such as t1400 or t1400-update-ref (env GIT_SUITE_TESTS, space
separated). Default:
$(printf '%s\n' $default_scripts | sed 's/^/  /')

Results (per mode, under the results directory):
  summary.txt                 the table printed at the end
  <script>.tap                the TAP output
  test-results/<script>.out   the full verbose log (--verbose-log)
  failures/<script>.<n>.txt   the verbose output of each failed test
  trash directory.<script>/   left behind by scripts with failures
Exit status: 0 when every script passed, 1 when some test failed, 2 on a usage error.
EOF
}

die() {
    printf 'git-suite: %s\n' "$*" >&2
    exit 2
}

git_dir=${GIT_BUILD_DIR-}
astrix=${ASTRIX-}
out_root=${RESULTS_DIR-}
hooks=1
reftable=
sha256=
trace=
jobs=${GIT_SUITE_JOBS:-1}
keep_hooks=
label=
scripts=()

while [ $# -gt 0 ]; do
    case $1 in
    -g | --git) [ $# -ge 2 ] || die "$1 needs a directory"; git_dir=$2; shift ;;
    --git=*) git_dir=${1#*=} ;;
    -a | --astrix) [ $# -ge 2 ] || die "$1 needs a path"; astrix=$2; shift ;;
    --astrix=*) astrix=${1#*=} ;;
    -o | --out) [ $# -ge 2 ] || die "$1 needs a directory"; out_root=$2; shift ;;
    --out=*) out_root=${1#*=} ;;
    -n | --no-hooks) hooks= ;;
    --reftable) reftable=1 ;;
    --sha256) sha256=1 ;;
    -x | --trace) trace=1 ;;
    -j | --jobs) [ $# -ge 2 ] || die "$1 needs a number"; jobs=$2; shift ;;
    --jobs=*) jobs=${1#*=} ;;
    --keep-hooks) keep_hooks=1 ;;
    --label) [ $# -ge 2 ] || die "$1 needs a name"; label=$2; shift ;;
    --label=*) label=${1#*=} ;;
    -h | --help) usage; exit 0 ;;
    --) shift; scripts+=("$@"); break ;;
    -*) usage >&2; die "unknown option: $1" ;;
    *) scripts+=("$1") ;;
    esac
    shift
done

if [ ${#scripts[@]} -eq 0 ]; then
    # shellcheck disable=SC2206 # word splitting of the list is wanted
    scripts=(${GIT_SUITE_TESTS:-$default_scripts})
fi

[ -n "$git_dir" ] || { usage >&2; die "no git build tree (-g DIR or GIT_BUILD_DIR)"; }
case $jobs in '' | *[!0-9]* | 0) die "--jobs needs a positive number, not '$jobs'" ;; esac
git_dir=$(cd "$git_dir" 2>/dev/null && pwd -P) || die "no such directory: ${GIT_BUILD_DIR:-$git_dir}"
[ -f "$git_dir/t/test-lib.sh" ] || die "$git_dir is not a git source tree (no t/test-lib.sh)"
[ -x "$git_dir/git" ] && [ -d "$git_dir/templates/blt/hooks" ] ||
    die "$git_dir is not built (no ./git or templates/blt/hooks); run git's own make there first"
built_git=$git_dir/git

if [ -n "$hooks" ]; then
    [ -n "$astrix" ] || { usage >&2; die "no astrix binary (-a PATH or ASTRIX), or use --no-hooks"; }
    case $astrix in
    */*) ;;
    *) astrix=$(command -v "$astrix") || die "astrix binary not found on PATH" ;;
    esac
    astrix=$(cd "$(dirname "$astrix")" && pwd -P)/$(basename "$astrix")
    [ -f "$astrix" ] && [ -x "$astrix" ] || die "not an executable file: $astrix"
fi

# Resolve the script names: t1400 -> t1400-update-ref.sh.
resolved=()
for s in "${scripts[@]}"; do
    s=${s##*/}
    s=${s%.sh}
    matches=("$git_dir"/t/"$s".sh)
    [ -f "${matches[0]}" ] || matches=("$git_dir"/t/"$s"-*.sh)
    [ -f "${matches[0]}" ] || die "no test script $s in $git_dir/t"
    [ ${#matches[@]} -eq 1 ] || die "$s matches ${#matches[@]} scripts in $git_dir/t"
    resolved+=("$(basename "${matches[0]}" .sh)")
done
scripts=("${resolved[@]}")

# Run as a human: no agent marker, no astrix variable.
for v in CLAUDECODE CLAUDE_CODE_ENTRYPOINT CODEX_SANDBOX CODEX_THREAD_ID CODEX_CI GEMINI_CLI \
    COPILOT_CLI CURSOR_AGENT CLINE_ACTIVE AUGMENT_AGENT OPENCODE AI_AGENT AGENT; do
    unset "$v"
done
while IFS= read -r v; do
    unset "$v"
done < <(compgen -e | grep -E '^ASTRIX_')

if [ -n "$reftable" ]; then
    export GIT_TEST_DEFAULT_REF_FORMAT=reftable
fi
if [ -n "$sha256" ]; then
    export GIT_TEST_DEFAULT_HASH=sha256
fi

if [ -z "$label" ]; then
    if [ -n "$hooks" ]; then label=hooks; else label=nohooks; fi
    [ -z "${GIT_TEST_DEFAULT_REF_FORMAT-}" ] || label=$label-${GIT_TEST_DEFAULT_REF_FORMAT}
    [ -z "${GIT_TEST_DEFAULT_HASH-}" ] || label=$label-${GIT_TEST_DEFAULT_HASH}
fi
case $label in '' | */* | .*) die "bad label: $label" ;; esac
blt_hooks=$git_dir/templates/blt/hooks

# The template dir as git's make writes it: hooks/ holds only *.sample files. Remove
# anything else (the hooks of an earlier run, or of an interrupted one).
clean_templates() {
    local f
    for f in "$blt_hooks"/* "$blt_hooks"/.[!.]*; do
        [ -e "$f" ] || [ -L "$f" ] || continue
        case ${f##*/} in
        *.sample) ;;
        *) rm -rf "$f" ;;
        esac
    done
}
# One run at a time per build tree: the template dir is shared by every run.
lock=$git_dir/templates/.git-suite.lock
mkdir "$lock" 2>/dev/null ||
    die "another git-suite run uses $git_dir (remove $lock if none is running)"
on_exit() {
    [ -n "$keep_hooks" ] || clean_templates
    rmdir "$lock" 2>/dev/null
}
trap on_exit EXIT
trap 'exit 130' INT TERM
clean_templates

if [ -z "$out_root" ]; then
    here=$(cd "$(dirname "$0")" && pwd -P)
    out_root=$here/../target/git-suite
fi
mkdir -p "$out_root" || die "cannot create $out_root"
out_root=$(cd "$out_root" && pwd -P)
out=$out_root/$label
if [ -e "$out" ]; then
    [ -f "$out/.git-suite" ] || die "$out exists and is not a results directory of this script"
    rm -rf "$out" || die "cannot remove the old results in $out"
fi
mkdir -p "$out/failures" || die "cannot create $out"
: >"$out/.git-suite"


{
    printf 'date: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    printf 'git build: %s (%s, %s)\n' "$git_dir" "$("$built_git" --version)" \
        "$(git -C "$git_dir" describe --tags --always --dirty 2>/dev/null || echo unknown)"
    printf 'mode: %s\n' "$label"
    printf 'GIT_TEST_DEFAULT_REF_FORMAT=%s GIT_TEST_DEFAULT_HASH=%s\n' \
        "${GIT_TEST_DEFAULT_REF_FORMAT-}" "${GIT_TEST_DEFAULT_HASH-}"
} >"$out/run-info.txt"

if [ -n "$hooks" ]; then
    # Let `astrix install` write the hooks, in a scratch repository made from the same
    # (clean) template dir, and copy every file it added to the hooks directory.
    scratch=$out/scratch-install
    rm -rf "$scratch"
    GIT_TEMPLATE_DIR=$git_dir/templates/blt GIT_CONFIG_NOSYSTEM=1 HOME=$out \
        "$built_git" init -q "$scratch" || die "git init of the scratch repository failed"
    before=$(cd "$scratch/.git/hooks" && ls -A)
    (cd "$scratch" && GIT_CONFIG_NOSYSTEM=1 HOME=$out PATH=$git_dir/bin-wrappers:$PATH \
        "$astrix" install) >"$out/astrix-install.txt" 2>&1 ||
        { cat "$out/astrix-install.txt" >&2; die "astrix install failed in $scratch"; }
    after=$(cd "$scratch/.git/hooks" && ls -A)
    added=$(comm -13 <(printf '%s\n' "$before" | sort) <(printf '%s\n' "$after" | sort))
    [ -n "$added" ] || die "astrix install wrote no hook in $scratch/.git/hooks"
    mkdir -p "$out/hooks"
    for h in $added; do
        cp -p "$scratch/.git/hooks/$h" "$blt_hooks/$h" || die "cannot copy $h into $blt_hooks"
        cp -p "$scratch/.git/hooks/$h" "$out/hooks/$h"
        chmod a+rx "$blt_hooks/$h"
    done
    {
        printf 'astrix: %s (%s)\n' "$astrix" "$("$astrix" --version 2>&1)"
        printf 'astrix sha256: %s\n' "$(sha256sum <"$astrix" | cut -d' ' -f1)"
        printf 'hooks installed into %s:\n' "$blt_hooks"
        (cd "$out/hooks" && sha256sum -- $added | sed 's/^/  /')
    } >>"$out/run-info.txt"
    rm -rf "$scratch"
    # A repository made from the template dir now has exactly these hooks.
    check=$out/scratch-check
    GIT_TEMPLATE_DIR=$git_dir/templates/blt GIT_CONFIG_NOSYSTEM=1 HOME=$out \
        "$built_git" init -q "$check" || die "git init of the check repository failed"
    for h in $added; do
        cmp -s "$out/hooks/$h" "$check/.git/hooks/$h" && [ -x "$check/.git/hooks/$h" ] ||
            die "a repository made from $git_dir/templates/blt does not get the hook $h"
    done
    rm -rf "$check"
else
    printf 'astrix: none (--no-hooks)\n' >>"$out/run-info.txt"
fi

shell=${TEST_SHELL_PATH:-/bin/sh}
test_opts=(--verbose-log)
if [ -n "$trace" ]; then
    shell=${TEST_SHELL_PATH:-bash}
    test_opts+=(-x)
fi

# Run one script; writes <script>.tap, <script>.rc and <script>.time.
run_one() {
    local s=$1 start end rc
    start=$(date +%s)
    (
        cd "$git_dir/t" &&
            TEST_OUTPUT_DIRECTORY=$out TEST_SHELL_PATH=$shell \
                "$shell" "./$s.sh" "${test_opts[@]}" </dev/null
    ) >"$out/$s.tap" 2>"$out/$s.stderr"
    rc=$?
    end=$(date +%s)
    echo "$rc" >"$out/$s.rc"
    echo $((end - start)) >"$out/$s.time"
}

printf 'git-suite: %s: %d script(s), results in %s\n' "$label" "${#scripts[@]}" "$out" >&2
running=0
for s in "${scripts[@]}"; do
    if [ "$jobs" -le 1 ]; then
        printf '  %s ...\n' "$s" >&2
        run_one "$s"
    else
        run_one "$s" &
        running=$((running + 1))
        if [ "$running" -ge "$jobs" ]; then
            wait -n
            running=$((running - 1))
        fi
    fi
done
wait

# Cut the verbose output of one failed test out of the log: from its "expecting success
# of NNNN.N" line to its "not ok N -" line or the next test's header. (The TAP lines and
# the verbose output reach the log through different pipes, so they can come out of order;
# the TAP line from <script>.tap ends the excerpt.)
extract_failure() {
    local log=$1 n=$2 tap_line=$3
    awk -v n="$n" '
        /^expecting success of [0-9]+\.[0-9]+ / || /^checking known breakage of [0-9]+\.[0-9]+ / {
            split($4, a, ".")
            if (on && a[2] != n) exit
            if (a[2] == n) on = 1
        }
        on && $0 ~ ("^not ok " n " - ") { exit }
        # The TAP lines of other tests, and the test bodies ("#\t...") that follow them.
        /^(not )?ok [0-9]+ - / { tap = 1; next }
        tap && /^#/ { next }
        { tap = 0 }
        on { print }
    ' "$log"
    printf '%s\n' "$tap_line"
}

status=0
summary=$out/summary.txt
{
    printf '%s (%s)\n' "$label" "$(sed -n 's/^git build: .*(\(git version [^,]*\),.*/\1/p' "$out/run-info.txt")"
    printf '%-28s %5s %5s %5s %5s %5s %6s  %s\n' script run pass fail todo skip secs failed-tests
    tot_run=0 tot_pass=0 tot_fail=0 tot_todo=0 tot_skip=0 tot_secs=0
    for s in "${scripts[@]}"; do
        counts=$out/test-results/$s.counts
        rc=$(cat "$out/$s.rc")
        secs=$(cat "$out/$s.time")
        if [ -f "$counts" ]; then
            total=$(awk '$1 == "total" { print $2 }' "$counts")
            success=$(awk '$1 == "success" { print $2 }' "$counts")
            fixed=$(awk '$1 == "fixed" { print $2 }' "$counts")
            broken=$(awk '$1 == "broken" { print $2 }' "$counts")
            failed=$(awk '$1 == "failed" { print $2 }' "$counts")
            skip=$((total - success - fixed - broken - failed))
            run=$((total - skip))
            pass=$((success + fixed))
            # "not ok N - title # TODO known breakage" are expected failures, not failures.
            failed_nums=$(grep -E '^not ok [0-9]+ - ' "$out/$s.tap" | grep -v '# TODO known breakage$' |
                sed 's/^not ok \([0-9]*\) - .*/\1/' | tr '\n' ' ')
            [ "$rc" = 0 ] || [ "$failed" -gt 0 ] || failed_nums="(exit $rc) $failed_nums"
        else
            total=0 run=0 pass=0 failed=0 broken=0 skip=0
            failed_nums="ERROR: exit $rc, no counts (see $s.tap, $s.stderr)"
        fi
        printf '%-28s %5s %5s %5s %5s %5s %6s  %s\n' "$s" "$run" "$pass" "$failed" "$broken" \
            "$skip" "$secs" "$failed_nums"
        tot_run=$((tot_run + run)) tot_pass=$((tot_pass + pass)) tot_fail=$((tot_fail + failed))
        tot_todo=$((tot_todo + broken)) tot_skip=$((tot_skip + skip)) tot_secs=$((tot_secs + secs))
        if [ "$rc" != 0 ] || [ "$failed" -gt 0 ]; then
            status=1
        fi
    done
    printf '%-28s %5s %5s %5s %5s %5s %6s\n' TOTAL "$tot_run" "$tot_pass" "$tot_fail" \
        "$tot_todo" "$tot_skip" "$tot_secs"
    printf '(run = total - skipped; todo = test_expect_failure, known breakage; secs = wall time)\n'
} >"$summary"

# The failed tests, with titles, and their verbose output.
{
    for s in "${scripts[@]}"; do
        grep -E '^not ok [0-9]+ - ' "$out/$s.tap" 2>/dev/null | grep -v '# TODO known breakage$' |
            while IFS= read -r line; do
                n=$(printf '%s\n' "$line" | sed 's/^not ok \([0-9]*\) - .*/\1/')
                printf '%s %s\n' "$s" "${line#not ok }"
                if [ -f "$out/test-results/$s.out" ]; then
                    extract_failure "$out/test-results/$s.out" "$n" "$line" >"$out/failures/$s.$n.txt"
                fi
            done
    done
} >"$out/failed-tests.txt"

cat "$summary"
if [ -s "$out/failed-tests.txt" ]; then
    printf '\nfailed tests (verbose output in %s/failures/):\n' "$out"
    sed 's/^/  /' "$out/failed-tests.txt"
fi
exit "$status"
