#!/usr/bin/env python3
"""Speed of a tool-call decision (`astrix hook claude-code`, issue 21).

In a checkout of a real repository (on a feature branch, with the built-in policy), runs
the hook N times for each of three Claude Code PreToolUse inputs and prints the median wall
time and CPU time (user + system) of each, beside the median of starting `true` the same way (the floor of the
measurement):

- an `Edit` of a source file (allowed: no decision);
- an `Edit` that removes a test function (held: "ask");
- a `Bash` command (`cargo test`: no decision).

Usage: python3 benches/agent_hook.py --repo DIR --edit PATH --test-edit PATH:OLD
       [--astrix PATH] [--runs N]
(default astrix: target/release/astrix; DIR is a work tree, PATH relative to it; OLD is
text of PATH that the test edit removes.)
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import time


def call(tool, tool_input, cwd):
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": cwd,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": "toolu_bench",
        }
    ).encode()


def median_ms(args, stdin, cwd, env, runs):
    """Median wall time and median CPU time (user + system) of the child, in ms."""
    times = []
    cpu = []
    output = b""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        result = subprocess.run(args, input=stdin, cwd=cwd, env=env, capture_output=True)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if result.returncode != 0:
            raise SystemExit(f"{args} failed: {result.stderr.decode(errors='replace')}")
        output = result.stdout
    return statistics.median(times) * 1000, statistics.median(cpu) * 1000, output


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    parser.add_argument("--edit", required=True)
    parser.add_argument("--test-edit", required=True)
    parser.add_argument("--astrix", default="target/release/astrix")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    astrix = os.path.abspath(args.astrix)
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": "/dev/null"}
    edit_path = os.path.join(repo, args.edit)
    with open(edit_path, encoding="utf-8") as handle:
        first_line = handle.readline()
    test_path, old = args.test_edit.split(":", 1)
    inputs = {
        "Edit (allowed)": call(
            "Edit",
            {"file_path": edit_path, "old_string": first_line,
             "new_string": first_line.rstrip("\n") + " // edited\n"},
            repo,
        ),
        "Edit removing a test (ask)": call(
            "Edit",
            {"file_path": os.path.join(repo, test_path), "old_string": old, "new_string": ""},
            repo,
        ),
        "Bash cargo test (no decision)": call("Bash", {"command": "cargo test"}, repo),
    }
    floor, floor_cpu, _ = median_ms(["true"], b"", repo, env, args.runs)
    print(f"runs: {args.runs}; starting `true`: {floor:.2f} ms wall, {floor_cpu:.2f} ms CPU")
    for name, stdin in inputs.items():
        ms, cpu, output = median_ms([astrix, "hook", "claude-code"], stdin, repo, env, args.runs)
        decision = json.loads(output)["hookSpecificOutput"]["permissionDecision"] if output else "none"
        print(f"{name}: median {ms:.2f} ms wall, {cpu:.2f} ms CPU (decision: {decision})")


if __name__ == "__main__":
    main()
