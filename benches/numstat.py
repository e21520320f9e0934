#!/usr/bin/env python3
"""Differential test of astrix's size facts against git's, on the history of a real repository.

For each sampled commit (non-merge, with a parent) the commit is staged as a change on top of
its parent without any work tree: a throwaway repository shares the source's objects through
`objects/info/alternates`, its HEAD is detached at the parent, and a temporary
`GIT_INDEX_FILE` holds `git read-tree <commit>`. In that state `astrix intent` and the
reference

    git -c core.attributesFile=/dev/null -c diff.algorithm=myers -c diff.renames=true
        -c diff.renameLimit=1000 -c core.bigFileThreshold=512m -c diff.context=3
        --attr-source=<empty tree> diff --cached --numstat -z
        --no-ext-diff --no-textconv --ignore-submodules=none

run, and their facts are compared: the set of modified paths (both sides of a rename), total
`lines_added`, `lines_deleted`, `binary_files` (numstat's `-\t-` entries), `bytes_added`
and the number of paths. Every setting is git's default, pinned so that no configuration
moves the reference: `diff.context` too, because git trims the common tail of a pair (in
1 KiB blocks, `trim_common_tail` in `xdi_diff`) only when the context is 0, and for some
pairs that changes xdiff's result; `--ignore-submodules=none` because a committed
`.gitmodules` with `ignore = all` (read from the index) would hide a gitlink change.

`bytes_added` is computed from git independently of its numstat, with the same settings:

  - the `+` lines inside the hunks of
    `git <same -c options> --attr-source=<empty tree> diff --cached --inter-hunk-context=0
    --no-color --submodule=short --diff-filter=t --no-ext-diff --no-textconv
    --ignore-submodules=none` (the numstat's own diff: same context, so no `-U0`), each
    counted with its newline unless `\ No newline at end of file` follows it; hunks are read
    by their header's line counts, so no content line is taken for a header;
  - type changes (`T`, left out above because a patch splits them into a deletion and a
    creation while numstat diffs their contents) diffed blob to blob with the same options
    (`git diff <old blob> <new blob>`; a gitlink side as its `Subproject commit <id>` text);
  - for each binary numstat entry (`-\t-`) whose content is added or changed (new blob
    present and different from the old one, from `git diff --cached --raw -z --no-abbrev`
    with the same options), the size of the new blob (`git cat-file --batch-check`). A
    deleted binary file, a pure rename and a mode-only change add nothing, as the same
    changes of a text file add nothing.

The throwaway repository has no `.gitattributes` (its work tree is empty, its
`info/attributes` absent) and the environment is `benchenv.git_env` (no system or global
configuration, no `GIT_*` or agent variables), so astrix sees only the commits' own trees.

A mismatching commit is narrowed down to the files that differ: the change is cut into units
(one numstat entry each, so a rename's two sides stay together), halves of the units are
staged on the parent, and both programs are compared again on each half, down to single
units (or to the smallest group whose mismatch needs all its members, e.g. a rename paired
differently). Each such unit is recorded with git's and astrix's counts, blob facts (size,
lines, NUL in the first 8000 bytes, CR not before LF, last line without newline) and git's
counts under `minimal`, `patience` and `histogram`; the whole commit is also compared with
git reading attributes from the parent (`--attr-source=<parent>`), without renames and with
`diff.context=0` (git then trims the common tail), to hint at the cause.

Sampling: the commits of `--rev` (default HEAD) with exactly one parent, in `git rev-list`
order, are cut into N equal strata and one commit is drawn from each with `--seed`; the K
largest commits by numstat total (added + deleted, from one `git log --numstat` over the
whole history) are compared as a separate group. Commits git itself cannot diff (a partial
clone's missing blobs) are left out of the draw when that log fails; a drawn commit that
cannot be diffed is reported as skipped.

Timing: the wall time of each command (astrix first on even-numbered commits, git first on
odd ones), summarised per group as medians and as the ratio astrix/git, both the median of
the per-commit ratios and the ratio of the totals. Only the numstat command is timed for git
(not the commands `bytes_added` is computed from); the narrowing-down is not timed.

Usage: python3 benches/numstat.py --astrix PATH --repo GITDIR_OR_CLONE --commits N
       [--seed S] [--largest K] [--jobs J] [--out results.json] [--commit SHA ...]
Exits 0 when every compared commit agrees, 1 when some do not (or astrix fails where git
does not), 2 on a setup error or when no commit could be compared.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from benchenv import git_env

GIT = "/usr/local/bin/git"
ZERO = {"sha1": "0" * 40, "sha256": "0" * 64}
# Budget of the narrowing-down of one mismatching commit.
DIAG_MAX_RUNS = 200
DIAG_MAX_SECONDS = 180
DIAG_MAX_UNITS = 40


def fail(message):
    print(f"numstat.py: {message}", file=sys.stderr)
    sys.exit(2)


def run(args, cwd, env, stdin=None, check=True):
    result = subprocess.run(args, cwd=cwd, env=env, input=stdin, capture_output=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({result.returncode}): "
                           f"{result.stderr.decode(errors='replace').strip()}")
    return result


def text(path):
    """A path as astrix prints it (non-UTF-8 bytes become U+FFFD)."""
    return path.decode("utf-8", errors="replace")


def reference_settings(empty_tree, algorithm="myers", attr_source=None, renames=True,
                       context=3):
    """The reference's global options: git's defaults, fixed so no configuration moves them.
    `diff.context` matters to numstat too: git trims the common tail of a pair (in 1 KiB
    blocks) only when the context is 0, which changes xdiff's result for some pairs."""
    return ["-c", "core.attributesFile=/dev/null", "-c", f"diff.algorithm={algorithm}",
            "-c", f"diff.renames={'true' if renames else 'false'}",
            "-c", "diff.renameLimit=1000", "-c", "core.bigFileThreshold=512m",
            "-c", f"diff.context={context}",
            f"--attr-source={attr_source or empty_tree}"]


# `--ignore-submodules=none`: a committed `.gitmodules` (read from the index when there is no
# work tree) with `submodule.<name>.ignore = all` would hide a gitlink change from git.
DIFF_OPTIONS = ["--no-ext-diff", "--no-textconv", "--ignore-submodules=none"]
# The patch the bytes are read from: the numstat's own diff (same settings, so the same
# `diff.context=3`: `-U0` would trim the common tail and give other lines for some pairs),
# hunks not merged across unchanged lines, no colour, submodules as `Subproject commit`
# lines; type changes are left out (a patch splits them into a deletion and a creation,
# numstat diffs their contents) and diffed blob to blob instead.
PATCH_OPTIONS = ["--inter-hunk-context=0", "--no-color", "--submodule=short"]


def reference_args(empty_tree, **settings):
    return [GIT] + reference_settings(empty_tree, **settings) + [
        "diff", "--cached", "--numstat", "-z"] + DIFF_OPTIONS


def raw_args(empty_tree, **settings):
    return [GIT] + reference_settings(empty_tree, **settings) + [
        "diff", "--cached", "--raw", "-z", "--no-abbrev"] + DIFF_OPTIONS


def patch_args(empty_tree, **settings):
    return [GIT] + reference_settings(empty_tree, **settings) + [
        "diff", "--cached"] + PATCH_OPTIONS + ["--diff-filter=t"] + DIFF_OPTIONS


def blob_patch_args(empty_tree, old, new, **settings):
    return [GIT] + reference_settings(empty_tree, **settings) + [
        "diff"] + PATCH_OPTIONS + DIFF_OPTIONS + [old, new]


HUNK = re.compile(rb"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def patch_bytes(out):
    """The bytes of the `+` lines of a patch, each with its newline unless the
    `\\ No newline at end of file` marker follows it. Only lines inside hunks count, and a
    hunk is read by its header's line counts, so no content line is taken for a header."""
    lines = out.split(b"\n")
    total = 0
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        i += 1
        if not line.startswith(b"@@ "):
            continue
        match = HUNK.match(line)
        if not match:
            raise RuntimeError(f"unexpected hunk header {line[:100]!r}")
        old = int(match.group(1)) if match.group(1) is not None else 1
        new = int(match.group(2)) if match.group(2) is not None else 1
        last = None
        while old > 0 or new > 0 or (i < n and lines[i].startswith(b"\\")):
            if i >= n:
                raise RuntimeError("truncated hunk")
            body = lines[i]
            i += 1
            kind = body[:1]
            if kind == b"\\":
                if last == b"+":
                    total -= 1
                continue
            if kind == b"+":
                total += len(body)  # the `+` stands for the newline
                new -= 1
            elif kind == b"-":
                old -= 1
            elif kind == b" ":
                old -= 1
                new -= 1
            else:
                raise RuntimeError(f"unexpected line in hunk {body[:100]!r}")
            last = kind
    return total


def parse_raw(out):
    """`--raw -z` output as {new path: (old mode, new mode, old id, new id, status)}."""
    parts = out.split(b"\0")
    changes = {}
    i = 0
    while i < len(parts):
        meta = parts[i]
        if not meta:
            i += 1
            continue
        old_mode, new_mode, old_id, new_id, status = meta.lstrip(b":").split(b" ")
        status = status.decode()
        if status[0] in "RC":
            path = parts[i + 2]
            i += 3
        else:
            path = parts[i + 1]
            i += 2
        changes[path] = (old_mode, new_mode, old_id, new_id, status[0])
    return changes


def parse_numstat(out):
    """`--numstat -z` output as [(paths, added, deleted)]; added/deleted None for binary."""
    entries = []
    parts = out.split(b"\0")
    i = 0
    while i < len(parts):
        record = parts[i]
        if not record:
            i += 1
            continue
        added, deleted, path = record.split(b"\t", 2)
        if path:
            paths = (path,)
            i += 1
        else:  # a rename: the two paths follow as their own fields
            paths = (parts[i + 1], parts[i + 2])
            i += 3
        if added == b"-":
            entries.append((paths, None, None))
        else:
            entries.append((paths, int(added), int(deleted)))
    return entries


def git_facts(entries, bytes_added):
    paths = sorted({text(p) for e in entries for p in e[0]})
    return {
        "lines_added": sum(e[1] for e in entries if e[1] is not None),
        "lines_deleted": sum(e[2] for e in entries if e[2] is not None),
        "binary_files": sum(1 for e in entries if e[1] is None),
        "bytes_added": bytes_added,
        "files": len(paths),
        "paths": paths,
    }


def astrix_facts(out):
    intent = json.loads(out)
    diff = intent.get("diff", {})
    paths = sorted(set(intent.get("modified_files", [])))
    return {
        "lines_added": diff.get("lines_added"),
        "lines_deleted": diff.get("lines_deleted"),
        "binary_files": diff.get("binary_files"),
        "bytes_added": diff.get("bytes_added"),
        "files": len(paths),
        "paths": paths,
    }


FIELDS = ("lines_added", "lines_deleted", "binary_files", "bytes_added", "files")


def differences(git, astrix):
    """The fields and paths in which the two sets of facts differ (empty when equal)."""
    diff = {f: {"git": git[f], "astrix": astrix[f]} for f in FIELDS if git[f] != astrix[f]}
    only_git = sorted(set(git["paths"]) - set(astrix["paths"]))
    only_astrix = sorted(set(astrix["paths"]) - set(git["paths"]))
    if only_git:
        diff["only_git"] = only_git
    if only_astrix:
        diff["only_astrix"] = only_astrix
    return diff


def totals(facts):
    return {f: facts[f] for f in FIELDS}


def magnitude(facts_git, facts_astrix):
    def delta(f):
        a, g = facts_astrix[f], facts_git[f]
        return abs(a - g) if isinstance(a, int) and isinstance(g, int) else 0
    return delta("lines_added") + delta("lines_deleted") + delta("bytes_added")


class Workspace:
    """A throwaway repository sharing the source's objects, with its own HEAD and index."""

    def __init__(self, root, name, objects_dirs, object_format, env):
        self.dir = os.path.join(root, name)
        self.env = env
        run([GIT, "init", "-q", "--template=", f"--object-format={object_format}", self.dir],
            root, env)
        info = os.path.join(self.dir, ".git", "objects", "info")
        os.makedirs(info, exist_ok=True)
        with open(os.path.join(info, "alternates"), "w") as f:
            f.write("".join(d + "\n" for d in objects_dirs))
        self.head = os.path.join(self.dir, ".git", "HEAD")
        self.index = os.path.join(root, name + ".index")
        self.index_env = dict(env, GIT_INDEX_FILE=self.index)

    def git(self, args, stdin=None, index=False, check=True):
        return run([GIT] + args, self.dir, self.index_env if index else self.env, stdin, check)

    def detach(self, commit):
        with open(self.head, "w") as f:
            f.write(commit + "\n")

    def stage(self, tree_ish):
        if os.path.exists(self.index):
            os.remove(self.index)
        self.git(["read-tree", tree_ish], index=True)

    def update(self, records):
        """`git update-index --index-info` with (mode, id, path) records."""
        stdin = b"".join(b"%s %s\t%s\0" % (m, i, p) for m, i, p in records)
        self.git(["update-index", "-z", "--index-info"], stdin=stdin, index=True)


class Runner:
    def __init__(self, args, root, objects_dirs, object_format, empty_tree):
        self.astrix = args.astrix
        self.check = args.check
        self.root = root
        self.objects_dirs = objects_dirs
        self.object_format = object_format
        self.empty_tree = empty_tree
        self.zero = ZERO[object_format].encode()
        self.diagnose = not args.no_diagnose
        home = os.path.join(root, "home")
        os.makedirs(home, exist_ok=True)
        self.env = git_env(home)
        self.local = threading.local()
        self.lock = threading.Lock()
        self.count = 0
        self.workspaces = []

    def workspace(self):
        ws = getattr(self.local, "ws", None)
        if ws is None:
            with self.lock:
                name = f"w{self.count}"
                self.count += 1
            ws = Workspace(self.root, name, self.objects_dirs, self.object_format, self.env)
            self.local.ws = ws
        return ws

    # One comparison in the workspace's current state.
    def run_astrix(self, ws):
        start = time.perf_counter()
        result = subprocess.run([self.astrix, "intent"], cwd=ws.dir, env=ws.index_env,
                                capture_output=True)
        return result, time.perf_counter() - start

    def run_check(self, ws):
        start = time.perf_counter()
        result = subprocess.run([self.astrix, "check"], cwd=ws.dir, env=ws.index_env,
                                capture_output=True)
        return result, time.perf_counter() - start

    def run_git(self, ws, **kwargs):
        start = time.perf_counter()
        result = subprocess.run(reference_args(self.empty_tree, **kwargs), cwd=ws.dir,
                                env=ws.index_env, capture_output=True)
        return result, time.perf_counter() - start

    def reference_bytes(self, ws, entries, **kwargs):
        """`bytes_added` from git: the `+` lines of the patch, type changes diffed blob
        to blob, plus the new blob's size for each binary numstat entry whose content is
        added or changed (not a pure rename or mode change, not a deletion)."""
        total = patch_bytes(ws.git(patch_args(self.empty_tree, **kwargs)[1:], index=True).stdout)
        raw = parse_raw(ws.git(raw_args(self.empty_tree, **kwargs)[1:], index=True).stdout)
        binary = {e[0][-1] for e in entries if e[1] is None}
        sized = []
        for path, (old_mode, new_mode, old_id, new_id, status) in raw.items():
            if path in binary:
                if new_id != self.zero and (old_id == self.zero or old_id != new_id):
                    sized.append(new_id)
            elif status == "T":
                total += patch_bytes(ws.git(blob_patch_args(
                    self.empty_tree, self.blob_of(ws, old_mode, old_id),
                    self.blob_of(ws, new_mode, new_id), **kwargs)[1:]).stdout)
        if sized:
            out = ws.git(["cat-file", "--batch-check=%(objectsize)"],
                         stdin=b"".join(i + b"\n" for i in sized)).stdout
            total += sum(int(x) for x in out.split())
        return total

    def blob_of(self, ws, mode, oid):
        """A blob with the content git diffs for this side of a type change."""
        if mode == b"160000":
            return ws.git(["hash-object", "-w", "--stdin"],
                          stdin=b"Subproject commit %s\n" % oid).stdout.decode().strip()
        return oid.decode()

    def reference(self, ws, **kwargs):
        """(numstat entries, facts) of the reference with these settings, or None."""
        g, _ = self.run_git(ws, **kwargs)
        if g.returncode != 0:
            return None
        entries = parse_numstat(g.stdout)
        return entries, git_facts(entries, self.reference_bytes(ws, entries, **kwargs))

    def compare_state(self, ws, astrix_first=True):
        """(git entries, git facts, astrix facts or None, astrix error, git s, astrix s)."""
        c_time = None
        if astrix_first:
            if self.check:
                _, c_time = self.run_check(ws)
            a, a_time = self.run_astrix(ws)
            g, g_time = self.run_git(ws)
        else:
            g, g_time = self.run_git(ws)
            a, a_time = self.run_astrix(ws)
            if self.check:
                _, c_time = self.run_check(ws)
        self.local.check_seconds = c_time
        if g.returncode != 0:
            raise RuntimeError("reference git failed: " + g.stderr.decode(errors="replace").strip())
        entries = parse_numstat(g.stdout)
        gf = git_facts(entries, self.reference_bytes(ws, entries))
        if a.returncode != 0:
            return entries, gf, None, {
                "exit": a.returncode, "stderr": a.stderr.decode(errors="replace").strip()[-2000:]
            }, g_time, a_time
        return entries, gf, astrix_facts(a.stdout), None, g_time, a_time

    def compare_commit(self, job):
        index, commit, parent, group = job
        ws = self.workspace()
        record = {"commit": commit, "parent": parent, "group": group}
        try:
            ws.detach(parent)
            ws.stage(commit)
            entries, gf, af, a_err, g_time, a_time = self.compare_state(ws, index % 2 == 0)
        except RuntimeError as error:
            record["skipped"] = str(error)
            return record
        record.update(git=totals(gf), git_seconds=g_time, astrix_seconds=a_time)
        if self.local.check_seconds is not None:
            record["check_seconds"] = self.local.check_seconds
        if a_err is not None:
            record["astrix_error"] = a_err
            record["mismatch"] = True
            return record
        record["astrix"] = totals(af)
        diff = differences(gf, af)
        record["mismatch"] = bool(diff)
        if diff:
            record["differences"] = diff
            record["magnitude"] = magnitude(gf, af)
            if self.diagnose:
                try:
                    record["diagnosis"] = self.diagnose_commit(ws, commit, parent, entries, af)
                except RuntimeError as error:
                    record["diagnosis"] = {"error": str(error)}
        return record

    # Narrowing a mismatch down.
    def raw_changes(self, ws, parent, commit):
        """{path: (old mode, old id, new mode, new id, status)} of the tree diff, no renames."""
        out = ws.git(["diff-tree", "-r", "-z", "--no-renames", "--raw", parent, commit]).stdout
        parts = out.split(b"\0")
        changes = {}
        for i in range(0, len(parts) - 1, 2):
            if not parts[i]:
                break
            meta = parts[i].lstrip(b":").split(b" ")
            changes[parts[i + 1]] = (meta[0], meta[2], meta[1], meta[3], meta[4].decode())
        return changes

    def blob_facts(self, ws, mode, oid):
        if oid == self.zero or mode == b"160000":
            return None
        data = ws.git(["cat-file", "blob", oid.decode()]).stdout
        head = data[:8000]
        return {
            "mode": mode.decode(),
            "bytes": len(data),
            "lines": data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0),
            "nul_in_first_8000": b"\0" in head,
            "cr_not_before_lf": data.replace(b"\r\n", b"").count(b"\r"),
            "crlf": data.count(b"\r\n"),
            "no_newline_at_end": bool(data) and not data.endswith(b"\n"),
        }

    def diagnose_commit(self, ws, commit, parent, entries, af):
        diagnosis = {}
        # Whole-commit variants of the reference: does one of them give astrix's totals?
        variants = {
            "attr_source_parent": {"attr_source": parent},
            "minimal": {"algorithm": "minimal"},
            "patience": {"algorithm": "patience"},
            "histogram": {"algorithm": "histogram"},
            "no_renames": {"renames": False},
            "context_0": {"context": 0},
        }
        ws.stage(commit)
        matches = []
        for name, kwargs in variants.items():
            variant = self.reference(ws, **kwargs)
            if variant is not None and not differences(variant[1], af):
                matches.append(name)
        diagnosis["astrix_equals_git_with"] = matches

        changes = self.raw_changes(ws, parent, commit)
        units, covered = [], set()
        for paths, _, _ in entries:
            unit = [p for p in paths if p in changes and p not in covered]
            if unit:
                units.append(unit)
                covered.update(unit)
        units += [[p] for p in sorted(changes) if p not in covered]

        budget = {"runs": 0, "deadline": time.monotonic() + DIAG_MAX_SECONDS}
        found = []
        incomplete = []

        def state(subset):
            ws.stage(parent)
            records = []
            for unit in subset:
                for path in unit:
                    old_mode, old_id, new_mode, new_id, status = changes[path]
                    if status == "D":
                        records.append((b"0", self.zero, path))
                    else:
                        records.append((new_mode, new_id, path))
            ws.update(records)
            budget["runs"] += 1
            g_entries, g, a, a_err, _, _ = self.compare_state(ws)
            if a_err is not None:
                return g, None, a_err
            return g, a, None

        def exhausted():
            return (budget["runs"] >= DIAG_MAX_RUNS or time.monotonic() > budget["deadline"]
                    or len(found) >= DIAG_MAX_UNITS)

        def describe(subset, g, a, a_err, kind):
            item = {"kind": kind, "paths": [text(p) for u in subset for p in u],
                    "git": totals(g)}
            if a_err is not None:
                item["astrix_error"] = a_err
            else:
                item["astrix"] = totals(a)
                item["delta_added"] = a["lines_added"] - g["lines_added"] \
                    if isinstance(a["lines_added"], int) else None
                item["delta_deleted"] = a["lines_deleted"] - g["lines_deleted"] \
                    if isinstance(a["lines_deleted"], int) else None
                item["delta_bytes_added"] = a["bytes_added"] - g["bytes_added"] \
                    if isinstance(a["bytes_added"], int) else None
                d = differences(g, a)
                for key in ("only_git", "only_astrix"):
                    if key in d:
                        item[key] = d[key]
            if len(subset) == 1:
                item["blobs"] = {}
                for path in subset[0]:
                    old_mode, old_id, new_mode, new_id, status = changes[path]
                    item["blobs"][text(path)] = {
                        "status": status,
                        "old": self.blob_facts(ws, old_mode, old_id),
                        "new": self.blob_facts(ws, new_mode, new_id),
                        "old_id": old_id.decode(), "new_id": new_id.decode()}
                other = {}
                for algorithm in ("minimal", "patience", "histogram"):
                    variant = self.reference(ws, algorithm=algorithm)
                    if variant is not None:
                        other[algorithm] = totals(variant[1])
                item["git_other_algorithms"] = other
            return item

        def narrow(subset, g, a, a_err):
            """`subset` is known to mismatch with these facts."""
            if len(subset) == 1:
                found.append(describe(subset, g, a, a_err, "unit"))
                return
            half = len(subset) // 2
            any_half = unknown = False
            for part in (subset[:half], subset[half:]):
                if exhausted():
                    incomplete.append([text(p) for u in part for p in u][:20])
                    unknown = True
                    continue
                pg, pa, perr = state(part)
                if perr is not None or differences(pg, pa):
                    any_half = True
                    narrow(part, pg, pa, perr)
            if not any_half and not unknown:
                # Only the members together mismatch (e.g. renames paired differently).
                found.append(describe(subset, g, a, a_err, "group"))

        g, a, a_err = state(units)
        if a_err is None and not differences(g, a):
            diagnosis["note"] = "the change rebuilt from its units does not mismatch"
        else:
            narrow(units, g, a, a_err)
        diagnosis["files"] = found
        diagnosis["runs"] = budget["runs"]
        if incomplete:
            diagnosis["not_narrowed"] = incomplete
        return diagnosis


def sample_commits(ws, rev, count, seed, largest, explicit, empty_tree):
    """[(commit, parent, group)] to compare, and the number of eligible commits."""
    out = ws.git(["rev-list", "--no-merges", "--parents", rev]).stdout.decode()
    eligible = []
    parent_of = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 2:
            eligible.append(fields[0])
            parent_of[fields[0]] = fields[1]
    if explicit:
        jobs = []
        for name in explicit:
            commit = ws.git(["rev-parse", "--verify", name + "^{commit}"]).stdout.decode().strip()
            parents = ws.git(["rev-parse", commit + "^@"]).stdout.decode().split()
            if len(parents) != 1:
                fail(f"{name} does not have exactly one parent")
            jobs.append((commit, parents[0], "explicit"))
        return jobs, len(eligible), []
    top = []
    unreadable = []
    if largest > 0:
        size = {}
        log = ws.git(reference_args_log(empty_tree) + [rev], check=False)
        if log.returncode == 0:
            current = None
            for line in log.stdout.decode(errors="replace").splitlines():
                if line.startswith("\x01"):
                    current = line[1:].strip()
                    size[current] = 0
                elif current and "\t" in line:
                    added, deleted, _ = line.split("\t", 2)
                    if added != "-":
                        size[current] += int(added) + int(deleted)
        else:
            # Some blob cannot be read (a partial clone's missing objects): one commit at a
            # time, leaving out the commits that cannot be diffed.
            print("git log --numstat failed (" + log.stderr.decode(errors="replace").strip()
                  + "); sizing commits one by one", file=sys.stderr)
            for commit in eligible:
                one = ws.git(reference_settings(empty_tree)
                             + ["diff", "--numstat"] + DIFF_OPTIONS
                             + [parent_of[commit], commit], check=False)
                if one.returncode != 0:
                    unreadable.append(commit)
                    continue
                size[commit] = 0
                for line in one.stdout.decode(errors="replace").splitlines():
                    added, deleted, _ = line.split("\t", 2)
                    if added != "-":
                        size[commit] += int(added) + int(deleted)
            print(f"{len(unreadable)} commits cannot be diffed: "
                  + " ".join(c[:12] for c in unreadable), file=sys.stderr)
        ranked = sorted((c for c in size if c in parent_of), key=lambda c: (-size[c], c))
        top = ranked[:largest]
    # Commits git itself cannot diff (missing blobs) are not drawn.
    excluded = set(top) | set(unreadable)
    rest = [c for c in eligible if c not in excluded]
    rng = random.Random(seed)
    if count >= len(rest):
        chosen = rest
    else:
        chosen = []
        for k in range(count):
            lo, hi = k * len(rest) // count, (k + 1) * len(rest) // count
            chosen.append(rest[rng.randrange(lo, hi)])
    jobs = [(c, parent_of[c], "ordinary") for c in chosen]
    jobs += [(c, parent_of[c], "largest") for c in top]
    return jobs, len(eligible), unreadable


def reference_args_log(empty_tree):
    return reference_settings(empty_tree) + [
        "log", "--no-merges", "--format=%x01%H", "--numstat"] + DIFF_OPTIONS


def timing(records):
    done = [r for r in records if "git_seconds" in r]
    if not done:
        return None
    a_total = sum(r["astrix_seconds"] for r in done)
    g_total = sum(r["git_seconds"] for r in done)
    return {
        "commits": len(done),
        "astrix_total_s": round(a_total, 3),
        "git_total_s": round(g_total, 3),
        "astrix_median_ms": round(statistics.median(r["astrix_seconds"] for r in done) * 1e3, 2),
        "git_median_ms": round(statistics.median(r["git_seconds"] for r in done) * 1e3, 2),
        "ratio_median": round(statistics.median(r["astrix_seconds"] / r["git_seconds"]
                                                for r in done), 3),
        "ratio_total": round(a_total / g_total, 3),
        **check_timing(done, g_total),
    }


def check_timing(done, g_total):
    """`astrix check`'s figures beside `intent`'s, when `--check` timed it."""
    timed = [r for r in done if "check_seconds" in r]
    if not timed:
        return {}
    c_total = sum(r["check_seconds"] for r in timed)
    return {
        "check_median_ms": round(statistics.median(r["check_seconds"] for r in timed) * 1e3, 2),
        "check_ratio_median": round(statistics.median(r["check_seconds"] / r["git_seconds"]
                                                      for r in timed), 3),
        "check_ratio_total": round(c_total / g_total, 3),
    }


def classify(mismatches):
    """Counts of what the narrowing-down found, over all mismatching commits."""
    tally = {"commits where astrix failed": 0, "units": 0, "astrix fewer lines": 0,
             "astrix more lines": 0, "added-deleted asymmetric": 0, "binary differs": 0,
             "bytes_added differs": 0, "paths differ": 0, "groups (only together)": 0,
             "not narrowed": 0}
    for r in mismatches:
        if "astrix_error" in r:
            tally["commits where astrix failed"] += 1
            continue
        diag = r.get("diagnosis", {})
        if "not_narrowed" in diag or "error" in diag or "note" in diag:
            tally["not narrowed"] += 1
        for item in diag.get("files", []):
            if item["kind"] == "group":
                tally["groups (only together)"] += 1
                continue
            tally["units"] += 1
            g, a = item["git"], item.get("astrix")
            if a is None:
                continue
            if a["binary_files"] != g["binary_files"]:
                tally["binary differs"] += 1
            if a["bytes_added"] != g["bytes_added"]:
                tally["bytes_added differs"] += 1
            if "only_git" in item or "only_astrix" in item:
                tally["paths differ"] += 1
            da, dd = item.get("delta_added"), item.get("delta_deleted")
            if isinstance(da, int) and isinstance(dd, int):
                if da != dd:
                    tally["added-deleted asymmetric"] += 1
                if da + dd < 0:
                    tally["astrix fewer lines"] += 1
                elif da + dd > 0:
                    tally["astrix more lines"] += 1
    return {k: v for k, v in tally.items() if v}


def fmt(t):
    if t is None:
        return "?"
    return (f"+{t['lines_added']} -{t['lines_deleted']} bin {t['binary_files']} "
            f"bytes {t['bytes_added']} files {t['files']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--astrix", required=True, help="the astrix binary to test")
    parser.add_argument("--repo", required=True, help="a git directory or a clone")
    parser.add_argument("--commits", type=int, default=300, help="commits to sample")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--largest", type=int, default=10,
                        help="also compare the K largest commits by numstat total (0: none)")
    parser.add_argument("--rev", default="HEAD", help="the history to sample (default HEAD)")
    parser.add_argument("--commit", action="append", default=[],
                        help="compare this commit instead of sampling (repeatable)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--check", action="store_true",
                        help="also time `astrix check` on each staged commit, against the same "
                             "git command")
    parser.add_argument("--out", help="write every result to this JSON file")
    parser.add_argument("--no-diagnose", action="store_true",
                        help="do not narrow mismatches down to files")
    parser.add_argument("--keep", help="work in this directory and keep it")
    args = parser.parse_args()

    args.astrix = os.path.abspath(args.astrix)
    if not os.access(args.astrix, os.X_OK):
        fail(f"{args.astrix} is not executable")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        root = os.path.abspath(args.keep)
    else:
        root = tempfile.mkdtemp(prefix="astrix-numstat-")
    try:
        try:
            status = compare(args, root)
        except RuntimeError as error:
            fail(str(error))
        sys.exit(status)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


def compare(args, root):
    home = os.path.join(root, "home")
    os.makedirs(home, exist_ok=True)
    env = git_env(home)
    repo = os.path.abspath(args.repo)
    try:
        common = run([GIT, "-C", repo, "rev-parse", "--path-format=absolute",
                      "--git-common-dir"], root, env).stdout.decode().strip()
        object_format = run([GIT, "--git-dir", common, "rev-parse", "--show-object-format"],
                            root, env).stdout.decode().strip()
        rev = run([GIT, "--git-dir", common, "rev-parse", "--verify", args.rev + "^{commit}"],
                  root, env).stdout.decode().strip()
    except RuntimeError as error:
        fail(str(error))
    objects = os.path.join(common, "objects")
    objects_dirs = [objects]
    alternates = os.path.join(objects, "info", "alternates")
    if os.path.exists(alternates):
        with open(alternates) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    objects_dirs.append(os.path.normpath(os.path.join(objects, line)))
    empty_tree = run([GIT, "hash-object", "-t", "tree", f"--object-format={object_format}",
                      "--stdin"], root, env, stdin=b"").stdout.decode().strip() \
        if object_format != "sha1" else "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

    runner = Runner(args, root, objects_dirs, object_format, empty_tree)
    ws = runner.workspace()
    version = run([args.astrix, "--version"], root, env, check=False).stdout.decode().strip()
    with open(args.astrix, "rb") as f:
        astrix_sha256 = hashlib.sha256(f.read()).hexdigest()
    git_version = run([GIT, "--version"], root, env).stdout.decode().strip()
    print(f"repository {repo} at {rev} ({object_format})", file=sys.stderr)
    start = time.monotonic()
    jobs, eligible, unreadable = sample_commits(ws, rev, args.commits, args.seed, args.largest, args.commit,
                                     empty_tree)
    print(f"{eligible} eligible commits; comparing {len(jobs)} "
          f"(sampling took {time.monotonic() - start:.1f}s)", file=sys.stderr)

    records = [None] * len(jobs)
    start = time.monotonic()
    numbered = [(i,) + job for i, job in enumerate(jobs)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(runner.compare_commit, job): job[0] for job in numbered}
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            record = future.result()
            records[futures[future]] = record
            if record.get("mismatch"):
                print(f"  MISMATCH {record['commit'][:12]} ({record['group']}): git "
                      f"{fmt(record.get('git'))} astrix {fmt(record.get('astrix'))}",
                      file=sys.stderr)
            if n % 25 == 0 or n == len(jobs):
                print(f"  {n}/{len(jobs)} commits, {time.monotonic() - start:.0f}s",
                      file=sys.stderr)
    elapsed = time.monotonic() - start

    compared = [r for r in records if "skipped" not in r]
    skipped = [r for r in records if "skipped" in r]
    mismatches = [r for r in compared if r.get("mismatch")]
    summary = {
        "repository": repo, "rev": rev, "object_format": object_format,
        "astrix": args.astrix, "astrix_version": version, "astrix_sha256": astrix_sha256,
        "git": git_version,
        "reference": " ".join(reference_args(empty_tree)),
        "reference_bytes": [" ".join(patch_args(empty_tree)), " ".join(raw_args(empty_tree)),
                            "git cat-file --batch-check=%(objectsize)"],
        "seed": args.seed, "sampled": args.commits, "largest": args.largest,
        "eligible_commits": eligible, "unreadable_commits": unreadable, "compared": len(compared), "skipped": len(skipped),
        "mismatching": len(mismatches),
        "mismatching_percent": round(100 * len(mismatches) / len(compared), 2) if compared else None,
        "by_group": {}, "elapsed_s": round(elapsed, 1),
    }
    for group in ("ordinary", "largest", "explicit"):
        members = [r for r in compared if r["group"] == group]
        if members:
            summary["by_group"][group] = {
                "compared": len(members),
                "mismatching": sum(1 for r in members if r.get("mismatch")),
                "timing": timing(members),
            }

    tally = classify(mismatches)
    summary["tally"] = tally
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"summary": summary, "commits": records}, f, indent=1)

    print(f"\nrepository: {repo} at {rev}")
    print(f"astrix: {args.astrix} ({version}); {git_version}")
    print(f"commits compared: {len(compared)} of {len(jobs)} "
          f"({eligible} eligible, seed {args.seed}); skipped: {len(skipped)}")
    if unreadable:
        print(f"not drawn, git cannot diff them (missing objects): "
              f"{' '.join(c[:12] for c in unreadable)}")
    for r in skipped[:10]:
        print(f"  skipped {r['commit'][:12]}: {r['skipped'][:200]}")
    pct = summary["mismatching_percent"]
    print(f"mismatching commits: {len(mismatches)} ({pct}%)")
    for group, g in summary["by_group"].items():
        print(f"  {group}: {g['mismatching']} of {g['compared']}")
    if mismatches:
        print("narrowed down: " + ", ".join(f"{k} {v}" for k, v in tally.items()))
        print("largest differences:")
        ranked = sorted(mismatches, key=lambda r: -r.get("magnitude", 10 ** 9))
        for r in ranked[:15]:
            if "astrix_error" in r:
                print(f"  {r['commit'][:12]} astrix failed ({r['astrix_error']['exit']}): "
                      f"{r['astrix_error']['stderr'][:200]}")
                continue
            d = r["differences"]
            extra = ""
            for key in ("only_git", "only_astrix"):
                if key in d:
                    extra += f" {key}={d[key][:5]}"
            print(f"  {r['commit'][:12]} ({r['group']}) git {fmt(r['git'])} | "
                  f"astrix {fmt(r['astrix'])}{extra}")
            diag = r.get("diagnosis", {})
            if diag.get("astrix_equals_git_with"):
                print(f"      astrix equals git with: {', '.join(diag['astrix_equals_git_with'])}")
            for item in diag.get("files", [])[:5]:
                if "astrix" in item:
                    print(f"      {item['kind']} {', '.join(item['paths'])[:100]}: git "
                          f"+{item['git']['lines_added']} -{item['git']['lines_deleted']}"
                          f" bin {item['git']['binary_files']} bytes {item['git']['bytes_added']},"
                          f" astrix +{item['astrix']['lines_added']}"
                          f" -{item['astrix']['lines_deleted']} bin"
                          f" {item['astrix']['binary_files']} bytes"
                          f" {item['astrix']['bytes_added']}")
                else:
                    print(f"      {item['kind']} {', '.join(item['paths'])[:100]}: astrix failed")
    print("timing (wall seconds of each command, astrix/git):")
    for group, g in summary["by_group"].items():
        t = g["timing"]
        if t:
            print(f"  {group}: {t['commits']} commits; astrix median {t['astrix_median_ms']} ms, "
                  f"git median {t['git_median_ms']} ms; ratio median {t['ratio_median']}, "
                  f"over the total {t['ratio_total']} "
                  f"({t['astrix_total_s']} s / {t['git_total_s']} s)")
            if "check_median_ms" in t:
                print(f"    check: median {t['check_median_ms']} ms; ratio median "
                      f"{t['check_ratio_median']}, over the total {t['check_ratio_total']}")
    print(f"elapsed: {elapsed:.0f}s ({elapsed / max(1, len(jobs)):.2f}s per commit)")

    if not compared:
        return 2
    return 1 if mismatches else 0


if __name__ == "__main__":
    main()
