#!/usr/bin/env python3
"""`astrix mcp` against an independent client: the official MCP Python SDK.

The Rust tests drive the server with rmcp, the SDK it is built on; this script confirms the
wire format with a client written by others. It starts `astrix mcp` over stdio in a
temporary git repository with a committed policy, lists the tools, checks the published
schema of astrix_evaluate_policy (and validates the intents it sends against it with
jsonschema), then calls it for an allow, a deny, a hold, an invalid input and a float too
large to trust, and calls the blast-radius and impacted-tests tools (a dry run and a run
with progress). The SDK itself validates every structured result against its tool's output
schema.

Usage: .ci/mcp_conformance.py [path/to/astrix]   (default: target/debug/astrix)
Needs: `pip install 'mcp>=2,<3'` (see .ci/run). Ends with "N passed, N failed".
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

POLICY = """version = 1

[[rule]]
id = "agents-off-production"
actor = ["autonomous_llm"]
env = ["production"]
decision = "deny"
reason = "autonomous agents do not commit to production"

[[rule]]
id = "agent-diff-size"
actor = ["autonomous_llm"]
policy = "lines_changed <= 400"
reason = "large agent diffs need review"

[impact]
discover = false

[[component]]
name = "core"
paths = ["core/**"]
test = "echo core tests ok"

[[component]]
name = "app"
paths = ["app/**"]
depends_on = ["core"]
test = "echo app tests ok"
"""

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_AUTHOR_NAME": "Ada Author",
    "GIT_AUTHOR_EMAIL": "ada@example.com",
    "GIT_COMMITTER_NAME": "Ada Author",
    "GIT_COMMITTER_EMAIL": "ada@example.com",
}


def git(repo: Path, *args: str) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(repo), **GIT_ENV}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def make_repository(root: Path) -> Path:
    repo = root / "repo"
    (repo / "src").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "Astrixfile.ax").write_text(POLICY)
    (repo / "src" / "lib.rs").write_text("pub fn f() {}\n")
    for component in ("core", "app"):
        (repo / component).mkdir()
        (repo / component / "file.txt").write_text(component + "\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "init")
    return repo


def intent(actor: str, env: str, **diff) -> dict:
    return {
        "actor": {"type": actor, "id": "conformance"},
        "target": {"env": env},
        "modified_files": ["src/lib.rs"],
        "diff": {"modifies_tests": "false", **diff},
    }


def walk(value):
    """Every dict and list inside `value`, `value` included."""
    yield value
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    for child in children:
        yield from walk(child)


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, name: str, condition: bool, detail: object = "") -> None:
        if condition:
            self.passed += 1
            print(f"ok      {name}")
        else:
            self.failed += 1
            print(f"FAILED  {name}: {detail}")


async def session_checks(astrix: str, repo: Path, checks: Checks) -> None:
    params = StdioServerParameters(command=astrix, args=["mcp"], cwd=str(repo), env=GIT_ENV)
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                checks.check("server name", init.server_info.name == "astrix", init.server_info)

                tools = {tool.name: tool for tool in (await session.list_tools()).tools}
                checks.check(
                    "three tools",
                    set(tools) == {"astrix_evaluate_policy", "astrix_get_blast_radius", "astrix_run_impacted_tests"},
                    sorted(tools),
                )
                evaluate = tools["astrix_evaluate_policy"]
                schemas = [tool.input_schema for tool in tools.values()]
                schemas += [tool.output_schema for tool in tools.values() if tool.output_schema]
                checks.check(
                    "schemas are inlined",
                    not any("$ref" in node or "$defs" in node for s in schemas for node in walk(s) if isinstance(node, dict)),
                )
                schema = evaluate.input_schema
                objects = [node for node in walk(schema) if isinstance(node, dict) and node.get("type") == "object"]
                checks.check(
                    "additionalProperties false on every object",
                    len(objects) == 5 and all(node.get("additionalProperties") is False for node in objects),
                    len(objects),
                )
                intent_schema = schema["properties"]["intent"]
                checks.check(
                    "modifies_tests is a string enum",
                    intent_schema["properties"]["diff"]["properties"]["modifies_tests"]["enum"] == ["true", "false"],
                )
                checks.check(
                    "output schema",
                    evaluate.output_schema["required"] == ["allowed", "denied", "requires_approval"]
                    and evaluate.output_schema["additionalProperties"] is False
                    and evaluate.output_schema["properties"]["reason"]["type"] == "string",
                    evaluate.output_schema,
                )
                annotations = evaluate.annotations
                checks.check(
                    "annotations",
                    annotations.read_only_hint is True
                    and annotations.idempotent_hint is True
                    and annotations.destructive_hint is False
                    and annotations.open_world_hint is False,
                    annotations,
                )

                validator = jsonschema.Draft202012Validator(schema)

                async def decide(name: str, arguments: dict, expected: dict) -> None:
                    errors = [error.message for error in validator.iter_errors(arguments)]
                    checks.check(f"{name}: arguments match the input schema", not errors, errors)
                    result = await session.call_tool("astrix_evaluate_policy", arguments)
                    structured = result.structured_content or {}
                    text = result.content[0].text if result.content else ""
                    got = {key: structured.get(key) for key in expected}
                    checks.check(
                        f"{name}: decision",
                        not result.is_error and got == expected and json.loads(text) == structured,
                        result,
                    )

                await decide(
                    "allow",
                    {"intent": intent("human", "production")},
                    {"allowed": True, "denied": False, "requires_approval": False},
                )
                await decide(
                    "deny",
                    {"intent": intent("autonomous_llm", "production")},
                    {
                        "allowed": False,
                        "denied": True,
                        "requires_approval": False,
                        "reason": "[agents-off-production] autonomous agents do not commit to production",
                    },
                )
                await decide(
                    "hold",
                    {"intent": intent("autonomous_llm", "staging", lines_added=500, lines_deleted=0)},
                    {"allowed": False, "denied": False, "requires_approval": True},
                )
                await decide(
                    "hold, approved",
                    {"intent": {**intent("autonomous_llm", "staging", lines_added=500, lines_deleted=0), "approved": True}},
                    {"allowed": True, "denied": False, "requires_approval": True},
                )
                await decide(
                    "a float of 2^53 or more is held",
                    {"intent": intent("autonomous_llm", "staging", lines_added=9007199254740993.0, lines_deleted=0)},
                    {"allowed": False, "denied": False, "requires_approval": True},
                )

                bad = {"intent": intent("human", "development")}
                bad["intent"]["diff"]["modifies_tests"] = True
                checks.check("the input schema rejects a boolean modifies_tests", not validator.is_valid(bad))
                result = await session.call_tool("astrix_evaluate_policy", bad)
                text = result.content[0].text if result.content else ""
                checks.check(
                    "invalid input is an in-band error naming the field and the fix",
                    result.is_error and "`intent.diff.modifies_tests`" in text and '"modifies_tests": "true"' in text,
                    result,
                )
                await decide(
                    "the server keeps serving",
                    {"intent": intent("human", "development")},
                    {"allowed": True, "denied": False, "requires_approval": False},
                )

                # The other two tools (the SDK validates their results against their output
                # schemas too).
                result = await session.call_tool("astrix_get_blast_radius", {"modified_files": ["core/file.txt"]})
                names = [c["name"] for c in (result.structured_content or {}).get("components", [])]
                checks.check("blast radius", not result.is_error and names == ["core", "app"], result)

                result = await session.call_tool(
                    "astrix_run_impacted_tests", {"modified_files": ["core/file.txt"], "dry_run": True}
                )
                listed = result.structured_content or {}
                checks.check(
                    "impacted tests, dry run",
                    not result.is_error and len(listed.get("tests", [])) == 2 and "results" not in listed,
                    result,
                )

                steps = []

                async def on_progress(progress, total, message):
                    steps.append((progress, total, message))

                result = await session.call_tool(
                    "astrix_run_impacted_tests", {"modified_files": ["app/file.txt"]}, progress_callback=on_progress
                )
                ran = result.structured_content or {}
                checks.check(
                    "impacted tests, run",
                    not result.is_error
                    and ran.get("passed") is True
                    and [r["output_tail"] for r in ran.get("results", [])] == ["app tests ok"],
                    result,
                )
                checks.check(
                    "progress notifications",
                    [(p, t) for p, t, _ in steps] == [(0.5, 1.0), (1.0, 1.0)],
                    steps,
                )


def main() -> int:
    astrix = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug/astrix")
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="astrix-mcp-") as root:
        repo = make_repository(Path(root))
        try:
            asyncio.run(asyncio.wait_for(session_checks(astrix, repo, checks), timeout=60))
        except Exception:  # noqa: BLE001 - any failure of the session is a failed check
            checks.check("session", False, traceback.format_exc())
    print(f"mcp conformance: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
