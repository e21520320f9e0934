#!/usr/bin/env python3
"""What astrix's hooks cost git's everyday branch work, against the same hooks reduced to
`exit 0`.

git starts the `reference-transaction` hook for every ref transaction (a 200-commit
rebase: about 1,400 times), and the shim starts astrix only for the `prepared` state of a
transaction that updates a local branch. This script measures, in a clone of a large
repository (give one of 100,000 commits or more), each scenario with astrix's hooks (A)
and with the same four hooks made `exit 0` (B), run in turn A B A B ... with the state
reset between runs (the reset is not timed), and prints the medians and the median of the
pairwise ratios A/B, of wall time and of CPU time (user and system of git and of every
process it starts, which hardly depends on what else the machine is running):

- `rebase`: a branch of 200 commits rebased onto another base (the commits only move);
- `cherry-pick`: the same 200 commits cherry-picked onto another base (200 commits made,
  each a branch update);
- `fetch`: 2,000 branches fetched from another repository into remote-tracking refs;
- `branch`: one branch created at an existing commit (`git branch`), a single-branch
  transaction;
- `commit`: one commit of one changed file (`pre-commit` judges it, then the backstop).

Each scenario runs as a person and, where it applies, as an agent (`CLAUDECODE=1`).

With --midx the clone gets a multi-pack-index first (`git multi-pack-index write`, which
`git maintenance start` and Scalar keep up to date): gix then opens that instead of the pack
index, whose every offset it checks on opening (a million objects: 6.8M instructions, half of
what a branch update costs astrix).

Usage: benches/backstop.py --astrix target/release/astrix --repo /path/to/big/repo [--midx]
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchenv import git_env  # noqa: E402

HOOKS = ["pre-commit", "prepare-commit-msg", "commit-msg", "reference-transaction"]


def git(args, cwd, env, check=True, stdin=None):
    result = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
    )
    if check and result.returncode != 0:
        sys.exit(f"git {' '.join(args)} failed in {cwd}:\n{result.stdout}{result.stderr}")
    return result


def timed(args, cwd, env):
    """The wall time and the CPU time (user and system, git's and every hook's it started)
    of one git command. The CPU time hardly depends on what else the machine runs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"timed git {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def make_hooks(work, astrix, root, env):
    """`astrix install`'s hooks, and the same names as `exit 0`, each in a directory."""
    git(["config", "core.hooksPath", os.path.join(root, "hooks-astrix")], work, env)
    os.makedirs(os.path.join(root, "hooks-astrix"))
    subprocess.run([astrix, "install"], cwd=work, env=env, check=True, capture_output=True)
    git(["config", "--unset", "core.hooksPath"], work, env)
    noop = os.path.join(root, "hooks-noop")
    os.makedirs(noop)
    for hook in HOOKS:
        path = os.path.join(noop, hook)
        with open(path, "w") as file:
            file.write("#!/bin/sh\nexit 0\n")
        os.chmod(path, 0o755)
    return os.path.join(root, "hooks-astrix"), noop


ONLY = None


def scenario(name, runs, hooks, env_a, setup, command, cwd):
    """Runs `command` with astrix's hooks and with the no-op ones, in turn, after `setup`."""
    if ONLY and not any(name.startswith(prefix) for prefix in ONLY):
        return
    astrix_hooks, noop_hooks = hooks
    wall, cpu = ([], [], []), ([], [], [])
    for index in range(runs + 1):
        pair = []
        for hooks_dir in (astrix_hooks, noop_hooks):
            setup()
            pair.append(timed(["-c", f"core.hooksPath={hooks_dir}", *command], cwd, env_a))
        if index == 0:
            continue  # warm-up
        for kind, (a, b, ratios) in enumerate((wall, cpu)):
            a.append(pair[0][kind])
            b.append(pair[1][kind])
            ratios.append(pair[0][kind] / pair[1][kind])
    for label, (a, b, ratios) in (("wall", wall), ("cpu ", cpu)):
        med_a, med_b = statistics.median(a), statistics.median(b)
        print(
            f"{name:<28} {label} astrix {med_a * 1000:9.1f} ms   exit-0 hooks {med_b * 1000:9.1f} ms"
            f"   ratio {statistics.median(ratios):5.3f}   (+{(med_a - med_b) * 1000:.1f} ms,"
            f" ratios {min(ratios):.3f}–{max(ratios):.3f}, {runs} pairs)",
            flush=True,
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--astrix", required=True)
    parser.add_argument("--repo", required=True, help="a large repository to clone")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory")
    parser.add_argument("--only", action="append", metavar="SCENARIO",
                        help="run only the scenarios whose name starts with this (repeatable: "
                             "rebase, cherry-pick, fetch, branch, commit)")
    parser.add_argument("--midx", action="store_true",
                        help="write a multi-pack-index in the clone first, as `git maintenance "
                             "start` (incremental-repack) and Scalar do")
    args = parser.parse_args()
    global ONLY
    ONLY = args.only
    astrix = os.path.abspath(args.astrix)

    root = tempfile.mkdtemp(prefix="astrix-backstop-bench-")
    home = os.path.join(root, "home")
    os.makedirs(home)
    env = git_env(home)
    agent = {**env, "CLAUDECODE": "1"}
    try:
        work = os.path.join(root, "work")
        git(["clone", "-q", "--single-branch", "--no-tags", args.repo, work], root, env)
        default = git(["symbolic-ref", "--short", "HEAD"], work, env).stdout.strip()
        if default != "main":
            git(["branch", "-m", default, "main"], work, env)
        commits = git(["rev-list", "--count", "HEAD"], work, env).stdout.strip()
        # Every commit made from here on is dated a day after main's tip, as commits made
        # today are: dated before their parents (the fixed date of the environment), they
        # would read as a clock skew of months, which the history walks must then read
        # through (docs/security.md says what skew costs).
        tip = int(git(["log", "-1", "--format=%ct", "main"], work, env).stdout.strip())
        for dated in (env, agent):
            dated["GIT_AUTHOR_DATE"] = dated["GIT_COMMITTER_DATE"] = f"@{tip + 86400} +0000"
        if args.midx:
            git(["multi-pack-index", "write"], work, env)
        print(f"git {git(['version'], work, env).stdout.split()[-1]}; {args.repo}: "
              f"{commits} commits on main"
              f"{', with a multi-pack-index' if args.midx else ''}", flush=True)
        hooks = make_hooks(work, astrix, root, env)
        noop = hooks[1]
        quiet = ["-c", f"core.hooksPath={noop}"]

        # 200 commits on `topic`, each adding a file, on top of main.
        git([*quiet, "switch", "-q", "-c", "topic"], work, env)
        os.makedirs(os.path.join(work, "bench"), exist_ok=True)
        for n in range(200):
            with open(os.path.join(work, "bench", f"f{n:03}.txt"), "w") as file:
                file.write(f"line {n}\n" * 5)
            git(["add", f"bench/f{n:03}.txt"], work, env)
            git([*quiet, "commit", "-q", "-m", f"bench {n}"], work, env)
        git([*quiet, "switch", "-q", "main"], work, env)

        # A repository with 2,000 branches to fetch from.
        remote = os.path.join(root, "remote")
        git(["clone", "-q", "--bare", "--single-branch", "--no-tags", work, remote], root, env)
        tips = git(["rev-list", "--max-count=2000", "main"], work, env).stdout.split()
        stdin = "".join(f"create refs/heads/b{n:04} {tip}\n" for n, tip in enumerate(tips))
        git(["update-ref", "--stdin"], remote, env, stdin=stdin)

        def reset(branch, at):
            def run():
                for abort in (["rebase", "--abort"], ["cherry-pick", "--abort"]):
                    git([*quiet, *abort], work, env, check=False)
                git([*quiet, "checkout", "-q", "-f", "-B", branch, at], work, env)
            return run

        def drop_fetched():
            refs = git(["for-each-ref", "--format=delete %(refname)", "refs/remotes/r/"],
                       work, env).stdout
            if refs:
                git([*quiet, "update-ref", "--stdin"], work, env, stdin=refs)

        def drop_branch():
            git([*quiet, "branch", "-q", "-D", "bench-x"], work, env, check=False)

        def stage_one():
            # Always the same commit on a feature branch at the same base.
            git([*quiet, "checkout", "-q", "-f", "-B", "bench-c", "main"], work, env)
            with open(os.path.join(work, "bench-commit.txt"), "w") as file:
                file.write("one more line\n")
            git(["add", "bench-commit.txt"], work, env)

        for actor, actor_env in (("person", env), ("agent", agent)):
            scenario(f"rebase 200 ({actor})", args.runs, hooks, actor_env,
                     reset("run", "topic"), ["rebase", "-q", "--onto", "main~1", "main", "run"],
                     work)
            scenario(f"cherry-pick 200 ({actor})", args.runs, hooks, actor_env,
                     reset("pick", "main~1"), ["cherry-pick", "main..topic"], work)
        scenario("fetch 2000 branches (person)", args.runs, hooks, env, drop_fetched,
                 ["fetch", "-q", remote, "+refs/heads/*:refs/remotes/r/*"], work)
        for actor, actor_env in (("person", env), ("agent", agent)):
            git([*quiet, "checkout", "-q", "-f", "-B", "feature", "main"], work, env)
            scenario(f"branch create ({actor})", max(args.runs, 20), hooks, actor_env,
                     drop_branch, ["branch", "bench-x", "main~3"], work)
        for actor, actor_env in (("person", env), ("agent", agent)):
            scenario(f"commit 1 file ({actor})", max(args.runs, 10), hooks, actor_env,
                     stage_one, ["commit", "-q", "-m", "bench"], work)
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
