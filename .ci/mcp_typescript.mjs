// `astrix mcp` against the official MCP TypeScript SDK, the client of the MCP Inspector and of
// many agents. It checks what the TypeScript SDK does differently from the Python one: its
// request timeout (60 s by default) cancels the request with `notifications/cancelled`, which
// must end the running test's whole process group (a grandchild of `sh` included), and its
// errors for an unknown tool.
//
// Usage (see .ci/run): copy this file next to a node_modules/ that holds
// @modelcontextprotocol/sdk, then `node that/copy.mjs path/to/astrix`.
// Ends with "N passed, N failed".

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const POLICY = `version = 1

[[rule]]
id = "agent-diff-size"
actor = ["autonomous_llm"]
policy = "lines_changed <= 400"
reason = "large agent diffs need review"

[impact]
discover = false

[[component]]
name = "slow"
paths = ["slow/**"]
test = "sh -c 'echo $$ > pid; exec sleep 30'; echo never"
`;

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Ada Author",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada Author",
  GIT_COMMITTER_EMAIL: "ada@example.com",
};

let passed = 0;
let failed = 0;
function check(name, condition, detail = "") {
  if (condition) {
    passed += 1;
    console.log(`ok      ${name}`);
  } else {
    failed += 1;
    console.log(`FAILED  ${name}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
  }
}

/** Whether process `pid` runs (a zombie that nobody reaped yet does not). */
function runs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 1).trim().startsWith("Z");
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function main() {
  const astrix = resolve(process.argv[2] ?? "target/debug/astrix");
  const root = mkdtempSync(join(tmpdir(), "astrix-mcp-ts-"));
  const repo = join(root, "repo");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, ...GIT_ENV };
  const git = (...args) => execFileSync("git", args, { cwd: repo, env, stdio: "pipe" });
  mkdirSync(join(repo, "slow"), { recursive: true });
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "Astrixfile.ax"), POLICY);
  writeFileSync(join(repo, "slow", "a.txt"), "a\n");
  git("add", "-A");
  git("commit", "-q", "-m", "init");

  const transport = new StdioClientTransport({ command: astrix, args: ["mcp"], cwd: repo, env, stderr: "ignore" });
  const client = new Client({ name: "astrix-conformance", version: "0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    check(
      "three tools",
      JSON.stringify(names) ===
        JSON.stringify(["astrix_evaluate_policy", "astrix_get_blast_radius", "astrix_run_impacted_tests"]),
      names,
    );
    check(
      "descriptions of at most 600 characters",
      tools.every((tool) => (tool.description ?? "").length <= 600),
      tools.map((tool) => (tool.description ?? "").length),
    );

    const held = await client.callTool({
      name: "astrix_evaluate_policy",
      arguments: {
        intent: {
          actor: { type: "autonomous_llm" },
          target: { env: "staging" },
          modified_files: ["slow/a.txt"],
          diff: { modifies_tests: "false", lines_added: 500, lines_deleted: -500 },
        },
      },
    });
    const decision = held.structuredContent ?? {};
    check(
      "a negative count is held",
      decision.requires_approval === true && (decision.reason ?? "").includes("a negative count"),
      decision,
    );

    try {
      await client.callTool({ name: "astrix_evaluate", arguments: {} });
      check("an unknown tool is a -32602 error naming the tools", false, "the call succeeded");
    } catch (error) {
      check(
        "an unknown tool is a -32602 error naming the tools",
        error.code === -32602 && String(error.message).includes("astrix_evaluate_policy`, `astrix_get_blast_radius"),
        String(error.message),
      );
    }

    // The SDK's request timeout cancels the request: no test process may outlive it.
    const pidFile = join(repo, "pid");
    const started = Date.now();
    try {
      await client.callTool(
        { name: "astrix_run_impacted_tests", arguments: { modified_files: ["slow/a.txt"] } },
        undefined,
        { timeout: 3000 },
      );
      check("the SDK's timeout cancels the run", false, "the call returned");
    } catch (error) {
      check("the SDK's timeout cancels the run", Date.now() - started < 10000, String(error.message));
    }
    const pid = existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim() : "";
    const deadline = Date.now() + 6000;
    while (pid && runs(pid) && Date.now() < deadline) {
      await sleep(50);
    }
    check("no test process outlives the timed-out request", pid !== "" && !runs(pid), `pid ${JSON.stringify(pid)}`);

    // The server keeps serving.
    const listed = await client.callTool({
      name: "astrix_run_impacted_tests",
      arguments: { modified_files: ["slow/a.txt"], dry_run: true },
    });
    check("the server keeps serving", (listed.structuredContent?.tests ?? []).length === 1, listed);
  } catch (error) {
    check("session", false, String(error?.stack ?? error));
  } finally {
    await client.close().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  }
  console.log(`mcp typescript sdk: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

await main();
