#!/usr/bin/env python3
"""`astrix mcp` against an independent client: the official MCP Python SDK.

The Rust tests drive the server with rmcp, the SDK it is built on; this script confirms the
wire format with a client written by others. It starts `astrix mcp` over stdio in a
temporary git repository with a committed policy, lists the tools, checks the published
schema of astrix_evaluate_policy (and validates the intents it sends against it with
jsonschema), checks that every published schema is portable (a strict checker: no type
arrays, no anyOf of types, no keyword outside the subset function-calling clients read) and
that each description is short and names its required fields, then calls it for an allow, a
deny, a hold, an invalid input, counts that are not counts and a float too large to trust,
and calls the blast-radius and impacted-tests tools (bounded and paged output, a dry run, a
run with progress, a client timeout that must leave no test process behind, the server's
time limit). An unknown tool must be a -32602 error naming the tools, and a raw session
checks the JSON-RPC error answers below the SDK. The SDK itself validates every structured
result against its tool's output schema.

Usage: .ci/mcp_conformance.py [path/to/astrix]   (default: target/debug/astrix)
Needs: `pip install 'mcp>=2,<3'` (see .ci/run). Ends with "N passed, N failed".
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.shared.exceptions import MCPError
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

# Not a simple command: `sh` forks, and the inner shell writes its process id and becomes
# `sleep 30`, which killing `sh` alone would leave running.
[[component]]
name = "slow"
paths = ["slow/**"]
test = "sh -c 'echo $$ > pid; exec sleep 30'; echo never"
"""

# The JSON Schema keywords that OpenAPI-style function declarations (Gemini) and strict
# validators (MCP Inspector --strict) accept.
PORTABLE_KEYWORDS = {"type", "description", "properties", "required", "items", "enum", "additionalProperties", "default"}
PRIMITIVE_TYPES = {"string", "number", "integer", "boolean", "null"}


def portability_problems(schema, pointer: str = "") -> list:
    """Where `schema` is not portable: type arrays, anyOf/oneOf/allOf (of primitive types or
    not), null types, references, bare boolean schemas, arrays without items, schemas
    without a type, and keywords outside PORTABLE_KEYWORDS."""
    if not isinstance(schema, dict):
        return [f"{pointer}: a bare {json.dumps(schema)} schema"]
    problems = []
    kind = schema.get("type")
    if isinstance(kind, list):
        problems.append(f"{pointer}: a type array {kind}")
    elif kind is None:
        problems.append(f"{pointer}: no type")
    elif kind == "null":
        problems.append(f"{pointer}: type null")
    elif kind == "array" and "items" not in schema:
        problems.append(f"{pointer}: an array without items")
    for key, value in schema.items():
        here = f"{pointer}/{key}"
        if key in ("anyOf", "oneOf", "allOf"):
            branches = value if isinstance(value, list) else []
            primitive = all(isinstance(b, dict) and set(b) <= {"type", "description"} and b.get("type") in PRIMITIVE_TYPES for b in branches)
            problems.append(f"{here}: {'an ' + key + ' of primitive types' if primitive else key}")
        elif key == "properties":
            for name, prop in value.items():
                problems += portability_problems(prop, f"{here}/{name}")
        elif key == "items":
            problems += portability_problems(value, here)
        elif key == "additionalProperties" and value is not False:
            problems.append(f"{here}: {json.dumps(value)}")
        elif key not in PORTABLE_KEYWORDS:
            problems.append(f"{here}: not portable")
    return problems


def required_fields(schema: dict, prefix: str = "") -> list:
    """The dotted paths of the required leaf fields of an object schema."""
    fields = []
    for name in schema.get("required", []):
        path = f"{prefix}.{name}" if prefix else name
        prop = schema.get("properties", {}).get(name, {})
        fields += required_fields(prop, path) if "required" in prop else [path]
    return fields


def process_runs(pid: str) -> bool:
    """Whether process `pid` runs (a zombie nobody reaped yet does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return not stat.rsplit(")", 1)[-1].strip().startswith("Z")

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
    for component in ("core", "app", "slow"):
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
                problems = []
                for tool in tools.values():
                    problems += portability_problems(tool.input_schema, f"{tool.name}/inputSchema")
                    problems += portability_problems(tool.output_schema, f"{tool.name}/outputSchema")
                checks.check("strict: every schema is portable", not problems, problems)
                for tool in tools.values():
                    description = tool.description or ""
                    missing = [f for f in required_fields(tool.input_schema) if f not in description]
                    siblings = [name for name in tools if name != tool.name and name not in description]
                    checks.check(
                        f"{tool.name}: description of at most 600 characters naming its required fields and siblings",
                        len(description) <= 600 and not missing and not siblings
                        and (required_fields(tool.input_schema) or "No required fields" in description),
                        (len(description), missing, siblings),
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

                for name, diff, expected in [
                    ("a negative count", {"lines_added": 500, "lines_deleted": -500}, "a negative count"),
                    ("a fractional count", {"lines_added": 1.5, "lines_deleted": 0}, "not a whole number"),
                ]:
                    result = await session.call_tool(
                        "astrix_evaluate_policy", {"intent": intent("autonomous_llm", "staging", **diff)}
                    )
                    decision = result.structured_content or {}
                    checks.check(
                        f"{name} is held, with the reason",
                        not result.is_error
                        and decision.get("requires_approval") is True
                        and decision.get("allowed") is False
                        and expected in decision.get("reason", ""),
                        result,
                    )
                result = await session.call_tool(
                    "astrix_evaluate_policy",
                    {"intent": intent("autonomous_llm", "staging", lines_added="9007199254740993", lines_deleted=0)},
                )
                checks.check(
                    "a count of 2^53 or more as a decimal string is exact",
                    "lines_changed is 9007199254740993" in (result.structured_content or {}).get("reason", ""),
                    result,
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

                # Bounded output: a page of components, the first 50 files, counts of all.
                files = [f"core/f{n}.txt" for n in range(300)] + [f"docs/d{n}.md" for n in range(100)]
                result = await session.call_tool("astrix_get_blast_radius", {"modified_files": files, "limit": 2})
                radius = result.structured_content or {}
                checks.check(
                    "blast radius is bounded, counted and paged",
                    not result.is_error
                    and len(radius.get("changed_files", [])) == 50
                    and radius.get("changed_files_count") == 400
                    and len(radius.get("components", [])) == 2
                    and radius.get("affected_count") == 3
                    and radius.get("next_offset") == 2
                    and radius.get("truncated") is True
                    and "offset: 2" in radius.get("summary", "")
                    and len(result.content[0].text) < 20000,
                    {key: radius.get(key) for key in ("summary", "changed_files_count", "affected_count", "next_offset")},
                )
                result = await session.call_tool("astrix_get_blast_radius", {"modified_files": files, "offset": 2})
                checks.check(
                    "blast radius, next page",
                    [c["name"] for c in (result.structured_content or {}).get("components", [])] == ["slow"],
                    result,
                )

                # Protocol errors the SDK surfaces: an unknown tool names the real ones.
                try:
                    result = await session.call_tool("astrix_evaluate", {})
                    checks.check("an unknown tool is a -32602 error naming the tools", False, result)
                except MCPError as error:
                    checks.check(
                        "an unknown tool is a -32602 error naming the tools",
                        error.error.code == -32602
                        and "did you mean `astrix_evaluate_policy`?" in error.error.message
                        and all(name in error.error.message for name in tools),
                        error.error,
                    )

                # A client timeout: the SDK cancels the request, and the test's whole process
                # group ends, grandchild included.
                pid_file = repo / "pid"
                pid_file.unlink(missing_ok=True)
                started = time.monotonic()
                try:
                    await session.call_tool(
                        "astrix_run_impacted_tests", {"modified_files": ["slow/file.txt"]}, read_timeout_seconds=3
                    )
                    checks.check("a client timeout cancels the run", False, "the call returned")
                except (MCPError, TimeoutError) as error:
                    checks.check("a client timeout cancels the run", time.monotonic() - started < 10, error)
                pid = pid_file.read_text().strip() if pid_file.exists() else ""
                deadline = time.monotonic() + 6
                while pid and process_runs(pid) and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                checks.check(
                    "no test process outlives the cancelled run",
                    pid != "" and not process_runs(pid),
                    f"pid {pid!r}, {time.monotonic() - started:.1f} s after the call",
                )

                # The server's own time limit: a result that says timed_out, not an error.
                result = await session.call_tool(
                    "astrix_run_impacted_tests", {"modified_files": ["slow/file.txt"], "timeout_seconds": 1}
                )
                ran = result.structured_content or {}
                pid = pid_file.read_text().strip() if pid_file.exists() else ""
                checks.check(
                    "the time limit stops the run and says so",
                    not result.is_error
                    and ran.get("timed_out") is True
                    and ran.get("passed") is False
                    and ran.get("results", [{}])[0].get("timed_out") is True
                    and not process_runs(pid),
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


def raw_checks(astrix: str, repo: Path, checks: Checks) -> None:
    """The wire below any SDK: lines that are not JSON-RPC get JSON-RPC's error answers."""
    server = subprocess.Popen(
        [astrix, "mcp"], cwd=repo, env=GIT_ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )

    def exchange(line: bytes) -> dict:
        server.stdin.write(line + b"\n")
        server.stdin.flush()
        return json.loads(server.stdout.readline())

    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
    exchange(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}).encode())
    server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    for name, line, code, id_ in [
        ("not JSON", b"{oops", -32700, None),
        ("not UTF-8", b"\xff\xfe", -32700, None),
        ("a batch", b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', -32600, None),
        ("tools/call without params", b'{"jsonrpc":"2.0","id":2,"method":"tools/call"}', -32602, 2),
        ("tools/call with a numeric name", b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":1}}', -32602, 3),
        # Valid JSON (RFC 8259 sets no limit on numbers), but beyond a 64-bit float: not a
        # parse error. An id that cannot be read is answered with a null id.
        ("a huge id", b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}', -32600, None),
        ("a count out of range", b'{"jsonrpc":"2.0","id":"n","method":"tools/call","params":{"name":"astrix_evaluate_policy",'
         b'"arguments":{"intent":{"actor":{"type":"human"},"target":{"env":"dev"},"modified_files":[],'
         b'"diff":{"modifies_tests":"false","lines_added":1e400}}}}}', -32602, "n"),
        # A request, since it has an id: answered, though it has no usable method.
        ("a numeric method", b'{"jsonrpc":"2.0","id":5,"method":5}', -32600, 5),
        ("an id and nothing else", b'{"jsonrpc":"2.0","id":6}', -32600, 6),
        ("resources/list", b'{"jsonrpc":"2.0","id":7,"method":"resources/list"}', -32601, 7),
    ]:
        try:
            answer = exchange(line)
        except (ValueError, OSError) as error:
            answer = {"unreadable": str(error)}
        message = answer.get("error", {}).get("message", "")
        checks.check(
            f"raw: {name} gets {code}",
            answer.get("id", "absent") == id_ and answer.get("error", {}).get("code") == code,
            answer,
        )
        if b"1e400" in line:
            checks.check(f"raw: {name} says the number is out of range", "`1e400` is out of range" in message, message)
    answer = exchange(b'{"jsonrpc":"2.0","id":4,"method":"ping"}')
    checks.check("raw: the session goes on", answer == {"jsonrpc": "2.0", "id": 4, "result": {}}, answer)
    # The last request, without its newline, is still answered at the end of the input.
    server.stdin.write(b'{"jsonrpc":"2.0","id":8,"method":"ping"}')
    server.stdin.close()
    answer = json.loads(server.stdout.readline() or "null")
    checks.check("raw: a last request without its newline is answered", answer == {"jsonrpc": "2.0", "id": 8, "result": {}}, answer)
    checks.check("raw: exits with 0 at the end of its input", server.wait(timeout=20) == 0)


def main() -> int:
    astrix = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug/astrix")
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="astrix-mcp-") as root:
        repo = make_repository(Path(root))
        try:
            asyncio.run(asyncio.wait_for(session_checks(astrix, repo, checks), timeout=90))
        except Exception:  # noqa: BLE001 - any failure of the session is a failed check
            checks.check("session", False, traceback.format_exc())
        try:
            raw_checks(astrix, repo, checks)
        except Exception:  # noqa: BLE001 - any failure of the session is a failed check
            checks.check("raw session", False, traceback.format_exc())
    print(f"mcp conformance: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
