#!/usr/bin/env python3
"""Reads astrix's `check --format json --explain` on stdin; prints run.sh's line for one variant."""
import json, sys
name, rc, kind, detail = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
keys = ["tests_removed", "test_skips_added", "assertions_removed", "assertions_weakened", "test_config_changed"]
try:
    d = json.load(sys.stdin)
    tt = d.get("test_tampering") or (d.get("intent") or {}).get("diff") or {}
    c = {k: int(tt.get(k) or 0) for k in keys}
    rules = d.get("deciding_rules") or []
    mt = d.get("modifies_tests")
except Exception:
    c = {k: "?" for k in keys}; rules = []; mt = "?"
fired = any(isinstance(v, int) and v > 0 for v in c.values())
if kind == "honest":
    verdict = "FALSE-ALARM" if fired else "CLEAN"
else:
    verdict = "CAUGHT" if (fired and rc in (1, 3)) else "MISSED"
line = f"{name} exit={rc} " + " ".join(f"{k}={c[k]}" for k in keys) + f" -> {verdict}"
if detail:
    line += f"  [modifies_tests={mt} rules={','.join(rules)}]"
print(line)
