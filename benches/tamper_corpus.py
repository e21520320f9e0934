#!/usr/bin/env python3
"""The test-tampering analysis over the whole history of real repositories (issue 19).

For each repository given (a git directory, bare or not), runs `astrix ci` once over every
commit from its first root to HEAD, as a human, under the built-in default policy (no
Astrixfile.ax is committed in these projects), and reads each commit's counts from the
JSON: `tests_removed`, `test_skips_added`, `assertions_removed`, `assertions_weakened`,
`test_config_changed`. Prints, per repository and per kind, how many commits fire (count
above 0), and the totals.

With --sample N (default 30), a seeded sampler then picks N firing commits per kind out of
all repositories together (all of them when fewer fire) and writes them to --out
(default: tamper-sample.md) as a table for someone other than the author of the analysis to
judge by hand: one row per commit and kind, with the count, the summary, an empty verdict
column, and the command that shows the findings. The same seed picks the same commits.

Usage:
  python3 benches/tamper_corpus.py [--astrix PATH] [--seed S] [--sample N] [--out FILE]
                                   [--json FILE] REPO...
(default astrix: target/release/astrix; build it with `cargo build --release` first).

The repositories are read, never written: astrix runs with a scratch HOME and no global git
configuration, and `astrix ci` records nothing.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from benchenv import git_env

KINDS = [
    "tests_removed",
    "test_skips_added",
    "assertions_removed",
    "assertions_weakened",
    "test_config_changed",
]


def repo_name(repo, taken):
    """A name for `repo` that no other repository of the run has: its directory's name, or,
    for a git directory called `repo` or `.git` (a mirror, a checkout's `.git`), its parent's;
    a number is added when two still clash."""
    path = os.path.normpath(os.path.abspath(repo))
    name = os.path.basename(path).removesuffix(".git")
    if name in ("", "repo"):
        name = os.path.basename(os.path.dirname(path)).removesuffix(".git")
    unique, n = name, 2
    while unique in taken:
        unique, n = f"{name}-{n}", n + 1
    return unique


def git(repo, *args, env):
    result = subprocess.run(["git", "-C", repo, *args], env=env, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"git {' '.join(args)} in {repo} failed: {result.stderr.decode(errors='replace')}")
    return result.stdout.decode().strip()


def ci(astrix, repo, base, head, branch, env):
    """`astrix ci` over `base..head`: the JSON report, or None when it fails."""
    args = [
        astrix, "ci", "--base", base, "--head", head,
        "--target-branch", branch, "--head-branch", "history", "--format", "json",
    ]
    result = subprocess.run(args, cwd=repo, env=env, capture_output=True)
    if result.returncode not in (0, 1, 3):
        return None, result.stderr.decode(errors="replace")
    return json.loads(result.stdout), ""


def entry(commit):
    diff = (commit.get("intent") or {}).get("diff") or {}
    return {
        "commit": commit["commit"],
        "summary": commit.get("summary", ""),
        "merge": len(commit.get("parents", [])) > 1,
        "counts": {kind: diff.get(kind) for kind in KINDS},
        "modifies_tests": diff.get("modifies_tests") == "true",
    }


def history(astrix, repo, env):
    """The commits of `repo` from its first root to HEAD, with their counts, and how many
    could not be judged. One `astrix ci` over the whole history; when that fails (a blob
    missing from a partial mirror, say), one per commit, so that one bad commit costs only
    itself."""
    roots = git(repo, "rev-list", "--max-parents=0", "HEAD", env=env).split()
    root = roots[-1]
    branch = git(repo, "symbolic-ref", "--short", "HEAD", env=env) or "main"
    start = time.perf_counter()
    report, error = ci(astrix, repo, root, "HEAD", branch, env)
    if report is not None:
        return [entry(c) for c in report["commits"]], 0, time.perf_counter() - start
    print(f"  {repo}: the whole history failed ({error.strip()[:200]}); one commit at a time",
          file=sys.stderr)
    commits, failed = [], 0
    listed = git(repo, "rev-list", "--reverse", "--parents", f"{root}..HEAD", env=env)
    for line in listed.splitlines():
        commit, *parents = line.split()
        report, _ = ci(astrix, repo, parents[0], commit, branch, env) if parents else (None, "")
        found = [c for c in (report or {}).get("commits", []) if c["commit"] == commit]
        if found:
            commits.append(entry(found[0]))
        else:
            failed += 1
    return commits, failed, time.perf_counter() - start


def findings(astrix, scratch, commit, env, limit=8):
    """The findings of `commit`, read by `astrix check --explain` in `scratch` (a clone
    without a work tree) with the parent at HEAD and the commit's tree in the index."""
    git(scratch, "update-ref", "refs/heads/judge", f"{commit}^", env=env)
    git(scratch, "read-tree", commit, env=env)
    result = subprocess.run([astrix, "check", "--format", "json", "--explain"], cwd=scratch,
                            env=env, capture_output=True)
    try:
        report = json.loads(result.stdout).get("test_tampering") or {}
    except json.JSONDecodeError:
        return ["(astrix check failed: " + result.stderr.decode(errors="replace")[:200] + ")"]
    lines = []
    for file in report.get("files", []):
        for finding in file.get("findings", []):
            where = f"{finding['path']}:{finding['line']}" if finding["line"] else finding["path"]
            side = " (old)" if finding["side"] == "old" else ""
            lines.append(f"{where}{side} {finding['kind']}: {finding['text']}")
    more = len(lines) - limit
    return lines[:limit] + ([f"and {more} more"] if more > 0 else [])


def fires(value):
    return isinstance(value, int) and value > 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--astrix", default="target/release/astrix")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--out", default="tamper-sample.md")
    parser.add_argument("--json", help="also write every commit's counts to this file")
    parser.add_argument("repos", nargs="+")
    args = parser.parse_args()
    astrix = os.path.abspath(args.astrix)
    home = tempfile.mkdtemp(prefix="astrix-corpus-")
    env = git_env(home)

    everything = {}
    header = f"{'repository':28} {'commits':>7} {'seconds':>7}  " + "  ".join(
        f"{kind:>19}" for kind in KINDS)
    print(header)
    totals = {kind: 0 for kind in KINDS}
    total_commits = 0
    for repo in args.repos:
        name = repo_name(repo, everything)
        commits, failed, seconds = history(astrix, repo, env)
        everything[name] = {"path": os.path.abspath(repo), "commits": commits}
        firing = {kind: sum(fires(c["counts"][kind]) for c in commits) for kind in KINDS}
        unknown = failed + sum(any(c["counts"][kind] is None for kind in KINDS) for c in commits)
        for kind in KINDS:
            totals[kind] += firing[kind]
        total_commits += len(commits)
        print(f"{name:28} {len(commits):7} {seconds:7.1f}  " + "  ".join(
            f"{firing[kind]:19}" for kind in KINDS)
            + (f"   ({unknown} commits not counted)" if unknown else ""))
    print(f"{'all':28} {total_commits:7} {'':7}  " + "  ".join(
        f"{totals[kind]:19}" for kind in KINDS))

    if args.json:
        with open(args.json, "w") as out:
            json.dump(everything, out, indent=1)

    rng = random.Random(args.seed)
    rows = []
    for kind in KINDS:
        pool = [(name, c) for name, data in sorted(everything.items())
                for c in data["commits"] if fires(c["counts"][kind])]
        picked = pool if len(pool) <= args.sample else rng.sample(pool, args.sample)
        picked.sort(key=lambda item: (item[0], item[1]["commit"]))
        for name, c in picked:
            rows.append((kind, name, c))
    scratches = {}
    details = []
    for kind, name, c in rows:
        if name not in scratches:
            scratch = os.path.join(home, f"scratch-{name}")
            subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout",
                            everything[name]["path"], scratch], env=env, check=True)
            git(scratch, "symbolic-ref", "HEAD", "refs/heads/judge", env=env)
            scratches[name] = scratch
        if c["merge"]:
            details.append((kind, name, c, ["(a merge: judged against every parent by astrix ci)"]))
            continue
        details.append((kind, name, c, findings(astrix, scratches[name], c["commit"], env)))
    with open(args.out, "w") as out:
        out.write(f"# Test-tampering sample (seed {args.seed}, up to {args.sample} commits per kind)\n\n")
        out.write("Judge each row: does the commit do what the count says (a test removed or no longer "
                  "run, a skip added, an assertion removed or made to check nothing, a test-runner "
                  "setting changed)? Write `yes` or `no` and a word on why.\n\n")
        out.write("The findings of each commit are listed below the table (`git show C` for "
                  "the change).\n\n")
        out.write("| kind | repository | commit | count | summary | verdict |\n|---|---|---|---|---|---|\n")
        for kind, name, c in rows:
            summary = c["summary"].replace("|", "\\|")[:80]
            merge = " (merge)" if c["merge"] else ""
            out.write(f"| {kind} | {name} | {c['commit'][:12]}{merge} | {c['counts'][kind]} | {summary} | |\n")
        out.write("\n## Findings\n")
        for kind, name, c, lines in details:
            out.write(f"\n### {kind} · {name} · {c['commit'][:12]}\n\n")
            for line in lines:
                out.write(f"    {line}\n")
    print(f"\nsample: {len(rows)} rows written to {args.out}")


if __name__ == "__main__":
    main()
