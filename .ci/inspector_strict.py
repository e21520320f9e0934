#!/usr/bin/env python3
"""Reads `mcp-inspector --cli --method tools/list --strict --format json` on stdin and fails
when the Inspector's schema portability linter found anything in a tool, of any severity.

Ends with "N passed, N failed" (one check per tool).
"""

import json
import sys


def main() -> int:
    envelope = json.load(sys.stdin)
    tools = [tool["name"] for tool in envelope["result"]["tools"]]
    findings = {entry["toolName"]: entry["findings"] for entry in envelope.get("schemaFindings", []) if entry["findings"]}
    for tool in tools:
        if tool in findings:
            print(f"FAILED  {tool}: {json.dumps(findings[tool], indent=2)}")
        else:
            print(f"ok      {tool}: no portability finding")
    failed = len(findings)
    print(f"mcp inspector --strict: {len(tools) - failed} passed, {failed} failed")
    return 1 if failed or not tools else 0


if __name__ == "__main__":
    sys.exit(main())
