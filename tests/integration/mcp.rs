//! `astrix mcp` end to end: an rmcp client drives the built binary over stdio in a temporary
//! repository, as an agent's MCP client would.

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::Stdio;
use std::time::{Duration, Instant};

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, ProgressNotificationParam, Request,
    ServerResult, Tool,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::{ConfigureCommandExt as _, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt as _};
use serde_json::{Value, json};

use crate::common::{ASTRIX, settings};
use crate::repo::TestRepo;

/// A small committed policy: agents are denied on production, and held above 400 lines.
const POLICY: &str = r#"version = 1

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
"#;

/// A repository with [`POLICY`] committed at HEAD.
fn repository() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("Astrixfile.ax", POLICY);
    repo.write("src/lib.rs", "pub fn f() {}\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "init"]);
    repo
}

/// A client that keeps the progress notifications it receives.
#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }
}

type Client = RunningService<RoleClient, Recorder>;

/// Starts `astrix mcp` in `repo` and connects an rmcp client to it.
async fn connect(repo: &TestRepo) -> Client {
    let command = tokio::process::Command::new(ASTRIX).configure(|command| {
        command
            .arg("mcp")
            .env_clear()
            .envs(repo.env_vars())
            .current_dir(repo.path());
    });
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("start astrix mcp");
    Recorder::default()
        .serve(transport)
        .await
        .expect("initialise the session")
}

fn object(value: Value) -> serde_json::Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

async fn call(client: &Client, tool: &'static str, arguments: Value) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(object(arguments)))
        .await
        .expect("a tool result, not a protocol error")
}

/// The text of a result's single text block.
fn text(result: &CallToolResult) -> String {
    assert_eq!(result.content.len(), 1, "{result:?}");
    result.content[0]
        .as_text()
        .expect("a text block")
        .text
        .clone()
}

/// Evaluates `intent` and returns the structured decision, after checking that the text
/// block carries the same JSON and that it is not an error.
async fn decide(client: &Client, intent: Value) -> Value {
    let result = call(
        client,
        "astrix_evaluate_policy",
        json!({ "intent": intent }),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let structured = result
        .structured_content
        .clone()
        .expect("structured content");
    let from_text: Value = serde_json::from_str(&text(&result)).expect("JSON text");
    assert_eq!(structured, from_text);
    structured
}

fn intent(actor: &str, env: &str, diff: Value) -> Value {
    let mut intent = json!({
        "actor": {"type": actor, "id": "test-agent"},
        "target": {"env": env},
        "modified_files": ["src/lib.rs"],
    });
    intent["diff"] = diff;
    intent
}

fn contains_key(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(map) => map
            .iter()
            .any(|(name, item)| name == key || contains_key(item, key)),
        Value::Array(items) => items.iter().any(|item| contains_key(item, key)),
        _ => false,
    }
}

fn tool<'a>(tools: &'a [Tool], name: &str) -> &'a Tool {
    tools
        .iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"))
}

#[tokio::test]
async fn lists_the_tools_with_inlined_schemas_and_annotations() {
    let repo = repository();
    let client = connect(&repo).await;
    let tools = client.list_all_tools().await.unwrap();
    let listed = serde_json::to_value(&tools).unwrap();
    assert!(!contains_key(&listed, "$ref"), "{listed:#}");
    assert!(!contains_key(&listed, "$defs"), "{listed:#}");

    assert_eq!(
        tools
            .iter()
            .map(|tool| tool.name.as_ref())
            .collect::<Vec<_>>(),
        [
            "astrix_evaluate_policy",
            "astrix_get_blast_radius",
            "astrix_run_impacted_tests"
        ]
    );
    let evaluate = tool(&tools, "astrix_evaluate_policy");
    let input = Value::Object((*evaluate.input_schema).clone());
    assert_eq!(input["additionalProperties"], false);
    assert_eq!(input["required"], json!(["intent"]));
    let intent = &input["properties"]["intent"];
    for (pointer, required) in [
        ("", json!(["actor", "target", "modified_files", "diff"])),
        ("/properties/actor", json!(["type"])),
        ("/properties/target", json!(["env"])),
        ("/properties/diff", json!(["modifies_tests"])),
    ] {
        let object = intent.pointer(pointer).unwrap();
        assert_eq!(object["additionalProperties"], false, "{pointer}");
        assert_eq!(object["required"], required, "{pointer}");
    }
    assert_eq!(
        intent["properties"]["diff"]["properties"]["modifies_tests"]["enum"],
        json!(["true", "false"])
    );
    assert_eq!(intent["properties"]["approved"]["type"], "boolean");
    let output = Value::Object((*evaluate.output_schema.clone().unwrap()).clone());
    assert_eq!(
        output,
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "allowed": {"type": "boolean", "description": output["properties"]["allowed"]["description"]},
                "denied": {"type": "boolean", "description": output["properties"]["denied"]["description"]},
                "requires_approval": {"type": "boolean", "description": output["properties"]["requires_approval"]["description"]},
                "reason": {"type": "string", "description": output["properties"]["reason"]["description"]},
            },
            "required": ["allowed", "denied", "requires_approval"],
        })
    );
    let annotations = evaluate.annotations.as_ref().unwrap();
    assert_eq!(annotations.read_only_hint, Some(true));
    assert_eq!(annotations.idempotent_hint, Some(true));
    assert_eq!(annotations.destructive_hint, Some(false));
    assert_eq!(annotations.open_world_hint, Some(false));

    let blast = tool(&tools, "astrix_get_blast_radius");
    let annotations = blast.annotations.as_ref().unwrap();
    assert_eq!(annotations.read_only_hint, Some(true));
    assert_eq!(annotations.idempotent_hint, Some(true));
    let run = tool(&tools, "astrix_run_impacted_tests");
    let annotations = run.annotations.as_ref().unwrap();
    assert_eq!(annotations.read_only_hint, Some(false));
    assert_eq!(annotations.destructive_hint, Some(false));
    for (tool, properties) in [
        (blast, json!(["modified_files", "base", "limit", "offset"])),
        (
            run,
            json!(["modified_files", "base", "dry_run", "timeout_seconds"]),
        ),
    ] {
        let input = Value::Object((*tool.input_schema).clone());
        assert_eq!(input["additionalProperties"], false);
        assert_eq!(input.get("required"), None);
        let names: Vec<&String> = input["properties"].as_object().unwrap().keys().collect();
        assert_eq!(json!(names), properties);
        assert!(tool.output_schema.is_some());
    }

    settings(repo.path()).bind(|| insta::assert_json_snapshot!("mcp_tools", listed));
    client.cancel().await.unwrap();
}

/// Where a schema is not portable: the JSON pointers of type arrays, `anyOf`/`oneOf`/`allOf`
/// (of primitive types or not), `null` types, references, bare boolean schemas, arrays
/// without `items`, objects without a `type`, and keywords outside the subset that
/// OpenAPI-style function declarations and strict validators accept.
fn portability_problems(schema: &Value, pointer: &str, problems: &mut Vec<String>) {
    const PORTABLE: &[&str] = &[
        "type",
        "description",
        "properties",
        "required",
        "items",
        "enum",
        "additionalProperties",
        "default",
    ];
    let Value::Object(map) = schema else {
        problems.push(format!("{pointer}: a bare `{schema}` schema"));
        return;
    };
    match map.get("type") {
        Some(Value::String(kind)) if kind == "null" => {
            problems.push(format!("{pointer}: type `null`"));
        }
        Some(Value::String(kind)) if kind == "array" && !map.contains_key("items") => {
            problems.push(format!("{pointer}: an array without `items`"));
        }
        Some(Value::String(_)) => {}
        Some(other) => problems.push(format!("{pointer}: type `{other}`")),
        None => problems.push(format!("{pointer}: no `type`")),
    }
    for (key, value) in map {
        let here = format!("{pointer}/{key}");
        match key.as_str() {
            "properties" => {
                for (name, property) in value.as_object().into_iter().flatten() {
                    portability_problems(property, &format!("{here}/{name}"), problems);
                }
            }
            "items" => portability_problems(value, &here, problems),
            "additionalProperties" if value != &Value::Bool(false) => {
                problems.push(format!("{here}: `{value}`"));
            }
            key if !PORTABLE.contains(&key) => problems.push(format!("{here}: not portable")),
            _ => {}
        }
    }
}

/// Covers issue #20: every published schema is portable (no type arrays, no `anyOf` of
/// types, no `minLength` narrowing the paths), while the server reads more than it
/// publishes: a count as a decimal string, exactly.
#[tokio::test]
async fn published_schemas_are_portable() {
    let repo = repository();
    let client = connect(&repo).await;
    let tools = client.list_all_tools().await.unwrap();
    let mut problems = Vec::new();
    for tool in &tools {
        let input = Value::Object((*tool.input_schema).clone());
        portability_problems(&input, &format!("{}/inputSchema", tool.name), &mut problems);
        let output = Value::Object((*tool.output_schema.clone().unwrap()).clone());
        portability_problems(
            &output,
            &format!("{}/outputSchema", tool.name),
            &mut problems,
        );
    }
    assert_eq!(problems, Vec::<String>::new());
    let evaluate = Value::Object((*tool(&tools, "astrix_evaluate_policy").input_schema).clone());
    let diff = &evaluate["properties"]["intent"]["properties"]["diff"]["properties"];
    for count in [
        "lines_added",
        "lines_deleted",
        "binary_files",
        "bytes_added",
        "tests_removed",
        "test_skips_added",
        "assertions_removed",
        "impacted_components",
    ] {
        assert_eq!(diff[count]["type"], "integer", "{count}");
    }
    let described = evaluate["properties"]["intent"]["properties"]["diff"]["description"]
        .as_str()
        .unwrap();
    assert!(described.contains("as a decimal string"), "{described}");
    // The server still rejects an empty path, which the schema no longer narrows.
    let result = call(
        &client,
        "astrix_evaluate_policy",
        json!({"intent": {"actor": {"type": "human"}, "target": {"env": "d"}, "modified_files": [""], "diff": {"modifies_tests": "false"}}}),
    )
    .await;
    assert_eq!(result.is_error, Some(true), "{result:?}");
    assert!(
        text(&result).starts_with("invalid input at `intent.modified_files[0]`: an empty path"),
        "{}",
        text(&result)
    );
    client.cancel().await.unwrap();
}

/// Covers issue #20: over MCP too, a negative or fractional count fails the policy that
/// reads it: `lines_deleted: -500` does not make a 500-line agent change allowed.
#[tokio::test]
async fn counts_that_are_not_counts_are_held() {
    let repo = repository();
    let client = connect(&repo).await;
    for (diff, expected) in [
        (
            json!({"modifies_tests": "false", "lines_added": 500, "lines_deleted": -500}),
            "`diff.lines_deleted` is `-500`, a negative count",
        ),
        (
            json!({"modifies_tests": "false", "lines_added": -5, "lines_deleted": 0}),
            "`diff.lines_added` is `-5`, a negative count",
        ),
        (
            json!({"modifies_tests": "false", "lines_added": 1.5, "lines_deleted": 0}),
            "`diff.lines_added` is `1.5`, not a whole number",
        ),
        (
            json!({"modifies_tests": "false", "lines_added": "-1", "lines_deleted": 0}),
            "`diff.lines_added` is `\"-1\"`, a negative count",
        ),
    ] {
        let decision = decide(&client, intent("autonomous_llm", "staging", diff)).await;
        assert_eq!(decision["allowed"], false, "{decision}");
        assert_eq!(decision["requires_approval"], true, "{decision}");
        let reason = decision["reason"].as_str().unwrap();
        assert!(reason.starts_with("[agent-diff-size]"), "{reason}");
        assert!(reason.contains(expected), "{reason}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn evaluate_policy_allows_denies_and_holds() {
    let repo = repository();
    let client = connect(&repo).await;

    let allowed = decide(
        &client,
        intent("human", "production", json!({"modifies_tests": "false"})),
    )
    .await;
    assert_eq!(
        allowed,
        json!({"allowed": true, "denied": false, "requires_approval": false,
               "reason": "no rule matched; the policy's default is `allow`"})
    );

    let denied = decide(
        &client,
        intent(
            "autonomous_llm",
            "production",
            json!({"modifies_tests": "false"}),
        ),
    )
    .await;
    assert_eq!(
        denied,
        json!({"allowed": false, "denied": true, "requires_approval": false,
               "reason": "[agents-off-production] autonomous agents do not commit to production"})
    );

    let big = json!({"modifies_tests": "false", "lines_added": 500, "lines_deleted": 0});
    let held = decide(&client, intent("autonomous_llm", "staging", big.clone())).await;
    assert_eq!(held["allowed"], false);
    assert_eq!(held["denied"], false);
    assert_eq!(held["requires_approval"], true);
    assert!(
        held["reason"]
            .as_str()
            .unwrap()
            .starts_with("[agent-diff-size] large agent diffs need review"),
        "{held}"
    );

    // An approval already recorded: still held, and allowed.
    let mut approved = intent("autonomous_llm", "staging", big);
    approved["approved"] = json!(true);
    let approved = decide(&client, approved).await;
    assert_eq!(approved["allowed"], true);
    assert_eq!(approved["requires_approval"], true);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_float_of_2_pow_53_or_more_fails_the_policy() {
    let repo = repository();
    let client = connect(&repo).await;
    // 2^53 + 1 as a float arrives as 2^53: it cannot be trusted, whatever the comparison.
    let float = decide(
        &client,
        intent(
            "autonomous_llm",
            "staging",
            json!({"modifies_tests": "false", "lines_added": 9_007_199_254_740_993.0_f64, "lines_deleted": 0}),
        ),
    )
    .await;
    assert_eq!(float["requires_approval"], true, "{float}");
    assert!(
        float["reason"]
            .as_str()
            .unwrap()
            .contains("`diff.lines_added` is the float `9007199254740992.0`, too large to be exact; send it as a string"),
        "{float}"
    );
    // The same number as a string is exact, and compared.
    let string = decide(
        &client,
        intent(
            "autonomous_llm",
            "staging",
            json!({"modifies_tests": "false", "lines_added": "9007199254740993", "lines_deleted": 0}),
        ),
    )
    .await;
    assert!(
        string["reason"]
            .as_str()
            .unwrap()
            .contains("lines_changed is 9007199254740993"),
        "{string}"
    );
    // Small floats and integers are exact.
    let small = decide(
        &client,
        intent(
            "autonomous_llm",
            "staging",
            json!({"modifies_tests": "false", "lines_added": 399.0, "lines_deleted": 1}),
        ),
    )
    .await;
    assert_eq!(small["allowed"], true, "{small}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn invalid_input_is_an_in_band_error_and_the_server_keeps_serving() {
    let repo = repository();
    let client = connect(&repo).await;
    let cases = [
        (
            json!({"intent": intent("human", "development", json!({"modifies_tests": true}))}),
            "invalid input at `intent.diff.modifies_tests`: `modifies_tests` is the string \"true\" or \"false\", not a JSON boolean: write \"modifies_tests\": \"true\"",
        ),
        (
            json!({"intent": {"actor": {"type": "human"}, "target": {}, "modified_files": [], "diff": {"modifies_tests": "false"}}}),
            "invalid input at `intent.target`: missing field `env`\nhelp: add `intent.target.env`",
        ),
        (
            json!({"intent": {"actor": {"type": "human"}, "target": {"env": "d"}, "modified_files": ["../x"], "diff": {"modifies_tests": "false"}}}),
            "invalid input at `intent.modified_files[0]`: `../x` has an empty, `.` or `..` segment",
        ),
        (
            json!({"actor": {"type": "human"}}),
            "invalid arguments: unknown field `actor`\nhelp: the intent goes inside the one argument `intent`",
        ),
    ];
    for (arguments, expected) in cases {
        let result = call(&client, "astrix_evaluate_policy", arguments).await;
        assert_eq!(result.is_error, Some(true), "{result:?}");
        assert!(result.structured_content.is_none(), "{result:?}");
        let message = text(&result);
        assert!(message.starts_with(expected), "{message}");
        assert!(
            message.ends_with("call astrix_evaluate_policy again"),
            "{message}"
        );
    }
    let after = decide(
        &client,
        intent("human", "development", json!({"modifies_tests": "false"})),
    )
    .await;
    assert_eq!(after["allowed"], true);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_policy_is_read_from_head_at_every_call() {
    let repo = repository();
    let client = connect(&repo).await;
    let agent = intent(
        "autonomous_llm",
        "production",
        json!({"modifies_tests": "false"}),
    );
    assert_eq!(decide(&client, agent.clone()).await["denied"], true);

    // The working tree's policy does not count ...
    repo.write("Astrixfile.ax", "version = 1\n");
    assert_eq!(decide(&client, agent.clone()).await["denied"], true);
    // ... the committed one does, from the next call on.
    repo.git(&["commit", "-q", "-am", "loosen"]);
    assert_eq!(decide(&client, agent.clone()).await["allowed"], true);

    // A committed policy that does not validate: the built-in default judges, and holds.
    repo.write("Astrixfile.ax", "version = 2\n");
    repo.git(&["commit", "-q", "-am", "break"]);
    let human = intent("human", "development", json!({"modifies_tests": "false"}));
    let held = decide(&client, human).await;
    assert_eq!(held["requires_approval"], true, "{held}");
    assert!(
        held["reason"]
            .as_str()
            .unwrap()
            .contains("[committed-policy-invalid]"),
        "{held}"
    );
    client.cancel().await.unwrap();
}

/// The raw wire: stdout carries only JSON-RPC messages, and the server exits with 0 as soon
/// as the client closes its standard input. `-C` serves a repository other than the current
/// directory's.
#[test]
fn exits_cleanly_when_stdin_closes() {
    let repo = repository();
    let mut child = repo
        .command(ASTRIX)
        .current_dir(repo.path().parent().unwrap())
        .args(["mcp", "-C"])
        .arg(repo.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "astrix_evaluate_policy",
            "arguments": {"intent": intent("autonomous_llm", "production", json!({"modifies_tests": "false"}))}}}),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    drop(stdin);

    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "astrix mcp did not exit after stdin closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let messages: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).expect("a JSON-RPC message"))
        .collect();
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert_eq!(messages[0]["result"]["serverInfo"]["name"], "astrix");
    assert_eq!(
        messages[1]["result"]["structuredContent"]["reason"],
        "[agents-off-production] autonomous agents do not commit to production",
        "{messages:#?}"
    );
}

/// A repository with two declared components: `app` depends on `core`, and each has a test
/// command (`app`'s fails).
fn components() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        "Astrixfile.ax",
        r#"version = 1

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
test = "echo app tests; echo app broke >&2; exit 3"
"#,
    );
    repo.write("core/lib.txt", "core\n");
    repo.write("app/main.txt", "app\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "init"]);
    repo
}

/// The names of the affected components of a blast radius.
fn affected(radius: &Value) -> Vec<&str> {
    radius["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|component| component["name"].as_str().unwrap())
        .collect()
}

async fn structured(client: &Client, tool: &'static str, arguments: Value) -> Value {
    let result = call(client, tool, arguments).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let structured = result
        .structured_content
        .clone()
        .expect("structured content");
    let from_text: Value = serde_json::from_str(&text(&result)).expect("JSON text");
    assert_eq!(structured, from_text);
    structured
}

#[tokio::test]
async fn blast_radius_of_named_staged_and_committed_changes() {
    let repo = components();
    let client = connect(&repo).await;

    let named = structured(
        &client,
        "astrix_get_blast_radius",
        json!({"modified_files": ["core/lib.txt"]}),
    )
    .await;
    assert_eq!(affected(&named), ["core", "app"]);
    assert_eq!(named["changed_files"], json!(["core/lib.txt"]));
    assert_eq!(named["components"][1]["distance"], 1);
    assert_eq!(
        named["components"][1]["reasons"],
        json!([{"kind": "dependency", "path": ["app", "core"]}])
    );

    // The staged change, by default.
    repo.write("app/main.txt", "app 2\n");
    repo.git(&["add", "app/main.txt"]);
    let staged = structured(&client, "astrix_get_blast_radius", json!({})).await;
    assert_eq!(affected(&staged), ["app"]);

    // The commits since a base revision.
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.git(&["commit", "-q", "-m", "app"]);
    repo.write("core/lib.txt", "core 2\n");
    repo.git(&["commit", "-q", "-am", "core"]);
    let range = structured(&client, "astrix_get_blast_radius", json!({"base": "main"})).await;
    assert_eq!(
        range["changed_files"],
        json!(["app/main.txt", "core/lib.txt"])
    );
    assert_eq!(affected(&range), ["app", "core"]);

    // A file no component owns makes everything affected.
    let unowned = structured(
        &client,
        "astrix_get_blast_radius",
        json!({"modified_files": ["README.md"]}),
    )
    .await;
    assert_eq!(unowned["all_affected"], true);
    assert_eq!(unowned["unowned_files"], json!(["README.md"]));
    client.cancel().await.unwrap();
}

/// Covers issue #20: what a tool returns is bounded. A page of the affected components
/// (`limit`, `offset`), the first 50 entries of each file list and 10 reasons of each
/// component, the counts of everything, and a summary that says how to ask for more.
#[tokio::test]
async fn blast_radius_is_bounded_and_pages() {
    let repo = components();
    let client = connect(&repo).await;
    let mut files: Vec<String> = (0..300).map(|n| format!("core/f{n:03}.txt")).collect();
    files.extend((0..120).map(|n| format!("docs/d{n:03}.md")));
    let first = structured(
        &client,
        "astrix_get_blast_radius",
        json!({"modified_files": files, "limit": 1}),
    )
    .await;
    assert_eq!(first["changed_files"].as_array().unwrap().len(), 50);
    assert_eq!(first["changed_files"][0], "core/f000.txt");
    assert_eq!(first["changed_files_count"], 420);
    assert_eq!(first["unowned_files"].as_array().unwrap().len(), 50);
    assert_eq!(first["unowned_files_count"], 120);
    assert_eq!(first["all_reasons"].as_array().unwrap().len(), 10);
    assert_eq!(first["all_reasons_count"], 120);
    // Everything is affected (unowned files), in name order.
    assert_eq!(affected(&first), ["app"]);
    assert_eq!(
        first["components"][0]["reasons"].as_array().unwrap().len(),
        10
    );
    assert!(
        first["components"][0]["reasons_count"].as_u64().unwrap() >= 120,
        "{first}"
    );
    assert_eq!(first["affected_count"], 2);
    assert_eq!(first["next_offset"], 1);
    assert_eq!(first["truncated"], true);
    let summary = first["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("2 of 2 components affected by 420 changed files (every component); components 1 to 1 shown; call again with `offset: 1`"),
        "{summary}"
    );
    let size = serde_json::to_string(&first).unwrap().len();
    assert!(size < 20_000, "{size} bytes");

    let second = structured(
        &client,
        "astrix_get_blast_radius",
        json!({"modified_files": files, "limit": 1, "offset": 1}),
    )
    .await;
    assert_eq!(affected(&second), ["core"]);
    assert_eq!(second.get("next_offset"), None);
    let past = structured(
        &client,
        "astrix_get_blast_radius",
        json!({"modified_files": files, "offset": 5}),
    )
    .await;
    assert_eq!(affected(&past), Vec::<&str>::new());
    assert!(
        past["summary"]
            .as_str()
            .unwrap()
            .contains("none shown from `offset: 5`"),
        "{past}"
    );

    // A small change is whole, and says so.
    let whole = structured(
        &client,
        "astrix_get_blast_radius",
        json!({"modified_files": ["core/lib.txt"]}),
    )
    .await;
    assert_eq!(whole["truncated"], false);
    assert_eq!(
        whole["summary"],
        "2 of 2 components affected by 1 changed files"
    );

    let result = call(&client, "astrix_get_blast_radius", json!({"limit": 0})).await;
    assert_eq!(result.is_error, Some(true), "{result:?}");
    assert!(
        text(&result).starts_with("invalid input at `limit`: 0 is outside 1 to 500"),
        "{}",
        text(&result)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn blast_radius_errors_are_in_band() {
    let repo = components();
    let client = connect(&repo).await;
    for (arguments, expected) in [
        (
            json!({"modified_files": ["core/lib.txt"], "base": "main"}),
            "invalid input: `modified_files` and `base` both name the change",
        ),
        (
            json!({"files": ["core/lib.txt"]}),
            "invalid input at `files`: unknown field `files`",
        ),
        (
            json!({"base": "no-such-branch"}),
            "astrix could not compute the blast radius: ",
        ),
    ] {
        let result = call(&client, "astrix_get_blast_radius", arguments).await;
        assert_eq!(result.is_error, Some(true), "{result:?}");
        let message = text(&result);
        assert!(message.starts_with(expected), "{message}");
        if message.starts_with("astrix could not") {
            assert!(
                message.contains("`no-such-branch` is not a commit of this repository"),
                "{message}"
            );
            assert!(
                message.ends_with("the blast radius is unknown: treat every component as affected"),
                "{message}"
            );
        }
    }
    let after = structured(
        &client,
        "astrix_get_blast_radius",
        json!({"modified_files": ["app/main.txt"]}),
    )
    .await;
    assert_eq!(affected(&after), ["app"]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn impacted_tests_dry_run_lists_and_runs_nothing() {
    let repo = components();
    let client = connect(&repo).await;
    let listed = structured(
        &client,
        "astrix_run_impacted_tests",
        json!({"modified_files": ["core/lib.txt"], "dry_run": true}),
    )
    .await;
    assert_eq!(
        listed,
        json!({
            "summary": "dry run: 2 test commands would run",
            "schema_version": 1,
            "dry_run": true,
            "tests": [
                {"component": "core", "command": "echo core tests ok"},
                {"component": "app", "command": "echo app tests; echo app broke >&2; exit 3"},
            ],
            "tests_count": 2,
            "untested": [],
            "untested_count": 0,
        })
    );
    client.cancel().await.unwrap();
}

/// Calls `astrix_run_impacted_tests` with a progress token and returns the result.
async fn run_with_progress(client: &Client, arguments: Value) -> CallToolResult {
    let params =
        CallToolRequestParams::new("astrix_run_impacted_tests").with_arguments(object(arguments));
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    match handle.await_response().await.unwrap() {
        ServerResult::CallToolResult(result) => result,
        other => panic!("not a tool result: {other:?}"),
    }
}

#[tokio::test]
async fn impacted_tests_run_with_progress_and_results() {
    let repo = components();
    let client = connect(&repo).await;
    let result = run_with_progress(&client, json!({"modified_files": ["core/lib.txt"]})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let ran = result.structured_content.unwrap();
    assert_eq!(ran["dry_run"], false);
    assert_eq!(ran["passed"], false);
    let results = ran["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["component"], "core");
    assert_eq!(results[0]["exit_code"], 0);
    assert_eq!(results[0]["passed"], true);
    assert_eq!(results[0]["output_tail"], "core tests ok");
    assert_eq!(results[1]["exit_code"], 3);
    assert_eq!(results[1]["passed"], false);
    assert_eq!(results[1]["output_tail"], "app tests\napp broke");
    assert!(results[1]["duration_ms"].is_u64());
    let progress = client.service().progress.lock().unwrap().clone();

    // A change to `app` alone runs only its test (here without a progress token, so
    // without progress notifications).
    let app_only = structured(
        &client,
        "astrix_run_impacted_tests",
        json!({"modified_files": ["app/main.txt"]}),
    )
    .await;
    assert_eq!(app_only["results"].as_array().unwrap().len(), 1);
    assert_eq!(app_only["passed"], false);

    let steps: Vec<(f64, Option<f64>, String)> = progress
        .iter()
        .map(|step| {
            (
                step.progress,
                step.total,
                step.message.clone().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        steps
            .iter()
            .map(|(done, total, _)| (*done, *total))
            .collect::<Vec<_>>(),
        [
            (0.5, Some(2.0)),
            (1.0, Some(2.0)),
            (1.5, Some(2.0)),
            (2.0, Some(2.0))
        ],
        "{steps:#?}"
    );
    assert_eq!(steps[0].2, "running `echo core tests ok` (core)");
    assert!(steps[3].2.contains("failed with exit code 3"), "{steps:#?}");
    client.cancel().await.unwrap();
}

/// A repository whose one component's test writes its process id to `pid` and sleeps.
fn slow_component() -> TestRepo {
    component_testing_with("echo $$ > pid; exec sleep 60")
}

/// A repository of one component, `slow` (`slow/a.txt`), whose test is `command`.
fn component_testing_with(command: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        "Astrixfile.ax",
        format!(
            r#"version = 1

[impact]
discover = false

[[component]]
name = "slow"
paths = ["slow/**"]
test = "{command}"
"#
        ),
    );
    repo.write("slow/a.txt", "a\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "init"]);
    repo
}

/// The process id the slow test wrote in `root`, once it runs.
fn wait_for_pid(root: &std::path::Path) -> String {
    let pid_file = root.join("pid");
    let started = Instant::now();
    loop {
        if let Ok(pid) = std::fs::read_to_string(&pid_file)
            && !pid.trim().is_empty()
        {
            return pid.trim().to_owned();
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the test never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether process `pid` runs (a zombie that nobody has reaped yet does not).
fn runs(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

/// Waits until process `pid` is gone.
fn wait_until_gone(pid: &str, what: &str) {
    let since = Instant::now();
    while runs(pid) {
        assert!(
            since.elapsed() < Duration::from_secs(10),
            "the test process {pid} still runs after {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test]
async fn cancelling_a_run_stops_the_running_test() {
    let repo = slow_component();
    let client = connect(&repo).await;

    let params = CallToolRequestParams::new("astrix_run_impacted_tests")
        .with_arguments(object(json!({"modified_files": ["slow/a.txt"]})));
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    // The waits block, so they run beside the client's runtime, which sends the request.
    let root = repo.path().to_path_buf();
    let pid = tokio::task::spawn_blocking(move || wait_for_pid(&root))
        .await
        .unwrap();
    handle.cancel(Some("test".to_owned())).await.unwrap();
    tokio::task::spawn_blocking(move || wait_until_gone(&pid, "the cancellation"))
        .await
        .unwrap();
    // The server keeps serving.
    let listed = structured(
        &client,
        "astrix_run_impacted_tests",
        json!({"modified_files": ["slow/a.txt"], "dry_run": true}),
    )
    .await;
    assert_eq!(listed["tests"][0]["component"], "slow");
    client.cancel().await.unwrap();
}

/// A session that ends while a test runs kills the test: nothing outlives the server.
#[test]
fn a_session_that_ends_during_a_run_kills_the_test() {
    end_the_session_during_a_run(&slow_component());
}

/// Starts `astrix mcp` in `repo` (its output unread), initialises it and calls
/// `astrix_run_impacted_tests` for `slow/a.txt`; returns the server, its stdin, the process
/// id the test wrote, and the server's log.
fn start_a_run(
    repo: &TestRepo,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    String,
    ServerLog,
) {
    let mut child = repo
        .command(ASTRIX)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log = ServerLog::of(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "astrix_run_impacted_tests",
            "arguments": {"modified_files": ["slow/a.txt"]}}}),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    let pid = wait_for_pid(repo.path());
    (child, stdin, pid, log)
}

/// Starts a run of the `slow` component's test in a raw session, closes stdin once the test
/// has written its process id, and checks that the server exits, says why the run stopped,
/// and the test is gone.
fn end_the_session_during_a_run(repo: &TestRepo) {
    let (mut child, stdin, pid, log) = start_a_run(repo);
    drop(stdin);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "astrix mcp did not exit after stdin closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    wait_until_gone(&pid, "the session ended");
    let log = log.wait_for("stopping the test run still going");
    assert!(
        log.contains("the client closed the connection (standard input ended); the call still running gets up to 5 seconds to finish, then it is stopped"),
        "{log}"
    );
    assert!(
        log.contains("stopping the test run still going (the client closed the connection)"),
        "{log}"
    );
    assert!(!log.contains("the client cancelled"), "{log}");
}

/// A repository whose one component's test is not a simple command: `sh` forks for it, and
/// the inner shell writes its process id to `pid` and becomes `sleep 30`, a grandchild of
/// the server that killing `sh` alone would leave running.
fn forking_component() -> TestRepo {
    component_testing_with("echo starting; sh -c 'echo $$ > pid; exec sleep 30'; echo never")
}

/// Covers issue #20: cancelling a run ends the test's whole process group, so no test keeps
/// running with PPID 1.
#[tokio::test]
async fn cancelling_a_run_leaves_no_orphaned_test() {
    let repo = forking_component();
    let client = connect(&repo).await;
    let params = CallToolRequestParams::new("astrix_run_impacted_tests")
        .with_arguments(object(json!({"modified_files": ["slow/a.txt"]})));
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let root = repo.path().to_path_buf();
    let pid = tokio::task::spawn_blocking(move || wait_for_pid(&root))
        .await
        .unwrap();
    assert!(runs(&pid));
    handle.cancel(Some("test".to_owned())).await.unwrap();
    tokio::task::spawn_blocking(move || wait_until_gone(&pid, "the cancellation"))
        .await
        .unwrap();
    client.cancel().await.unwrap();
}

/// Covers issue #20: a session that ends (stdin closes) during a run ends the test's whole
/// process group before the server exits.
#[test]
fn a_session_that_ends_during_a_run_leaves_no_orphaned_test() {
    end_the_session_during_a_run(&forking_component());
}

/// Covers issue #20: the run's time limit stops the running test (its whole process group)
/// and says so; it is a result, not a tool error.
#[tokio::test]
async fn a_run_past_its_time_limit_stops_and_says_so() {
    let repo = forking_component();
    let client = connect(&repo).await;
    let started = Instant::now();
    let ran = structured(
        &client,
        "astrix_run_impacted_tests",
        json!({"modified_files": ["slow/a.txt"], "timeout_seconds": 1}),
    )
    .await;
    assert!(started.elapsed() < Duration::from_secs(15), "{ran}");
    assert_eq!(ran["timed_out"], true, "{ran}");
    assert_eq!(ran["passed"], false, "{ran}");
    let result = &ran["results"][0];
    assert_eq!(result["timed_out"], true, "{ran}");
    assert_eq!(result.get("exit_code"), None, "{ran}");
    assert_eq!(result["output_tail"], "starting", "{ran}");
    let pid = std::fs::read_to_string(repo.path().join("pid")).unwrap();
    wait_until_gone(pid.trim(), "the time limit");

    let result = call(
        &client,
        "astrix_run_impacted_tests",
        json!({"modified_files": ["slow/a.txt"], "timeout_seconds": 0}),
    )
    .await;
    assert_eq!(result.is_error, Some(true), "{result:?}");
    assert!(
        text(&result).starts_with("invalid input at `timeout_seconds`: 0 is outside 1 to 3600"),
        "{}",
        text(&result)
    );
    client.cancel().await.unwrap();
}

/// `astrix mcp` driven over the raw wire: lines in, JSON-RPC messages out, and its log.
struct RawSession {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    log: ServerLog,
}

/// What a server writes to stderr, as it comes.
#[derive(Clone, Default)]
struct ServerLog(Arc<Mutex<String>>);

impl ServerLog {
    /// Collects `child`'s stderr, which must be piped.
    fn of(child: &mut std::process::Child) -> Self {
        let log = Self::default();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let sink = log.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while stderr.read_line(&mut line).is_ok_and(|read| read > 0) {
                sink.0.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        log
    }

    /// Everything written so far.
    fn text(&self) -> String {
        self.0.lock().unwrap().clone()
    }

    /// Waits until the log has a line containing `needle`, and returns the log.
    fn wait_for(&self, needle: &str) -> String {
        let started = Instant::now();
        loop {
            let text = self.text();
            if text.contains(needle) {
                return text;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{needle:?} never logged:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl RawSession {
    /// Starts the server in `repo` and completes the initialisation.
    fn start(repo: &TestRepo) -> Self {
        let mut session = Self::spawn(repo);
        session.initialize();
        session
    }

    /// Starts the server in `repo`, without initialising it.
    fn spawn(repo: &TestRepo) -> Self {
        let mut child = repo
            .command(ASTRIX)
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let log = ServerLog::of(&mut child);
        Self {
            stdin: child.stdin.take(),
            child,
            lines,
            log,
        }
    }

    /// Sends `initialize` (id 0), reads its answer, and sends `notifications/initialized`.
    fn initialize(&mut self) {
        let session = self;
        session.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}})
            .to_string()
            .as_bytes(),
        );
        assert_eq!(session.next()["id"], 0);
        session.send(br#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#);
    }

    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next message, within 20 seconds.
    fn next(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(20))
            .expect("an answer within 20 s");
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line}"))
    }

    /// Whether a message arrives within `wait`.
    fn quiet_for(&mut self, wait: Duration) -> bool {
        self.lines.recv_timeout(wait).is_err()
    }

    /// Closes stdin: the end of the input.
    fn close_input(&mut self) {
        drop(self.stdin.take());
    }

    /// Closes stdin and returns the exit status, within 20 seconds.
    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "astrix mcp did not exit"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Covers issue #20: every malformed message that has an answer gets it (JSON-RPC's code, an
/// `id` as JSON-RPC says, and what to fix); notifications get none; the session goes on.
#[test]
fn protocol_errors_are_answered_and_the_session_goes_on() {
    let repo = repository();
    let mut session = RawSession::start(&repo);
    let tools =
        "`astrix_evaluate_policy`, `astrix_get_blast_radius` and `astrix_run_impacted_tests`";
    let cases: [(&[u8], Value, i64, &str); 14] = [
        (b"not json", Value::Null, -32700, "parse error: the line is not JSON"),
        (b"{}", Value::Null, -32600, "a JSON-RPC message has a `method`"),
        (b"\xff\xfe{\"id\": 1}", Value::Null, -32700, "not UTF-8"),
        (br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, Value::Null, -32600, "batches"),
        (br#"{"jsonrpc":"2.0","id":12345678901234567890123,"method":"ping"}"#, json!(1.234_567_890_123_456_8e22), -32600, "integer id from -2^63 to 2^63 - 1"),
        (br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, Value::Null, -32600, "`id` is `{\"a\":1}`"),
        (br#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#, json!(2), -32602, "`tools/call` needs `params`"),
        (br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[]}"#, json!(3), -32602, "`tools/call` needs `params`"),
        (br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":true}}"#, json!(4), -32602, "`params.name` is `true`"),
        (br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"astrix_evaluate_policy","arguments":"x"}}"#, json!(5), -32602, "`params.arguments` is `\"x\"`"),
        (br#"{"jsonrpc":"2.0","id":"six","method":"tools/call","params":{"name":"evaluate_policy","arguments":{}}}"#, json!("six"), -32602, "unknown tool `evaluate_policy`; did you mean `astrix_evaluate_policy`? the tools are"),
        (br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"rm_rf","arguments":{}}}"#, json!(7), -32602, tools),
        (br#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":7}"#, json!(8), -32602, "the params of `tools/list`"),
        (br#"{"jsonrpc":"2.0","id":9,"method":"tasks/run"}"#, json!(9), -32601, "method not found: `tasks/run`"),
    ];
    for (line, id, code, needle) in cases {
        session.send(line);
        let answer = session.next();
        let shown = String::from_utf8_lossy(line);
        assert_eq!(answer["jsonrpc"], "2.0", "{shown}: {answer}");
        assert_eq!(answer["id"], id, "{shown}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{shown}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{shown}: {message}");
    }
    // Notifications are never answered: a malformed one, and the cancellation of a request
    // that does not exist.
    session.send(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}"#,
    );
    session.send(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}"#);
    session.send(br#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#);
    assert!(session.quiet_for(Duration::from_millis(500)));
    // The session goes on.
    session.send(
        json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {
            "name": "astrix_evaluate_policy",
            "arguments": {"intent": intent("autonomous_llm", "production", json!({"modifies_tests": "false"}))}}})
        .to_string()
        .as_bytes(),
    );
    let answer = session.next();
    assert_eq!(answer["id"], 10);
    assert_eq!(
        answer["result"]["structuredContent"]["denied"], true,
        "{answer}"
    );
    // Half a line, then the end of the input: the last line is read as it is (not JSON),
    // and the server exits.
    session
        .stdin
        .as_mut()
        .unwrap()
        .write_all(br#"{"jsonrpc":"2.0","id":11,"#)
        .unwrap();
    session.close_input();
    let answer = session.next();
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    assert!(session.finish().success());
}

/// Covers the unanswered requests: a message with an `id` is a request and gets an answer,
/// whatever its `method` is or whether it has one; an invalid response is logged, not
/// answered; the last request is answered though its newline is missing.
#[test]
fn every_message_with_an_id_and_no_result_is_answered() {
    let repo = repository();
    let mut session = RawSession::start(&repo);
    let cases: [(&[u8], Value, &str); 6] = [
        (
            br#"{"jsonrpc":"2.0","id":1,"method":5}"#,
            json!(1),
            "`method` is `5`; a request's method is a string",
        ),
        (
            br#"{"jsonrpc":"2.0","id":2,"method":null}"#,
            json!(2),
            "`method` is `null`",
        ),
        (
            br#"{"jsonrpc":"2.0","id":4,"method":["ping"]}"#,
            json!(4),
            "`method` is `[\"ping\"]`",
        ),
        (
            br#"{"jsonrpc":"2.0","id":3}"#,
            json!(3),
            "the message has an `id` but no `method`, `result` or `error`",
        ),
        (
            br#"{"id":4}"#,
            json!(4),
            "the message has an `id` but no `method`",
        ),
        (
            br#"{"jsonrpc":"2.0","id":"s","method":{}}"#,
            json!("s"),
            "`method` is `{}`",
        ),
    ];
    for (line, id, needle) in cases {
        session.send(line);
        let answer = session.next();
        let shown = String::from_utf8_lossy(line);
        assert_eq!(answer["id"], id, "{shown}: {answer}");
        assert_eq!(answer["error"]["code"], -32600, "{shown}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{shown}: {message}");
    }
    // A response with both `result` and `error` is invalid; responses get no answer, so it
    // is logged.
    session.send(br#"{"jsonrpc":"2.0","id":9,"result":{},"error":{"code":-1,"message":"x"}}"#);
    assert!(session.quiet_for(Duration::from_millis(300)));
    let log = session.log.wait_for("invalid response");
    assert!(
        log.contains("ignored an invalid response (id 9): it has both `result` and `error`"),
        "{log}"
    );
    // The last request, without its newline: answered at the end of the input.
    session.send(br#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#);
    assert_eq!(
        session.next(),
        json!({"jsonrpc": "2.0", "id": 5, "result": {}})
    );
    session
        .stdin
        .as_mut()
        .unwrap()
        .write_all(br#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#)
        .unwrap();
    session.close_input();
    assert_eq!(
        session.next(),
        json!({"jsonrpc": "2.0", "id": 6, "result": {}})
    );
    assert!(session.finish().success());
}

/// Covers the unclear errors: methods this server does not serve, a request before
/// `initialize`, and a number JSON allows but a 64-bit float cannot hold each get an
/// answer that says what is wrong and what to do; a notification before `initialize` does
/// not end the session.
#[test]
fn unserved_methods_early_requests_and_huge_numbers_say_what_to_do() {
    let repo = repository();
    let mut session = RawSession::spawn(&repo);
    session.send(br#"{"jsonrpc":"2.0","id":"early","method":"tools/list"}"#);
    let answer = session.next();
    assert_eq!(answer["id"], "early", "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "invalid request: the session is not initialised; send `initialize` first (then the `notifications/initialized` notification), and this request again",
        "{answer}"
    );
    session.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    session.initialize();
    let tools_only = "this server offers tools only (no resources, prompts, completions or logging): list them with `tools/list` and call one with `tools/call`";
    for method in [
        "resources/list",
        "prompts/list",
        "logging/setLevel",
        "completion/complete",
    ] {
        session.send(
            json!({"jsonrpc": "2.0", "id": method, "method": method})
                .to_string()
                .as_bytes(),
        );
        let answer = session.next();
        assert_eq!(answer["id"], method, "{answer}");
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
        assert_eq!(
            answer["error"]["message"],
            format!("method not found: `{method}`; {tools_only}"),
            "{answer}"
        );
    }
    session.send(br#"{"jsonrpc":"2.0","id":"n","method":"notifications/initialized"}"#);
    let answer = session.next();
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    assert!(
        answer["error"]["message"].as_str().unwrap().contains(
            "`notifications/initialized` is a notification, not a request: send it without an `id`"
        ),
        "{answer}"
    );
    // 1e400 is valid JSON (RFC 8259 sets no range); the answer has the request's id.
    session.send(
        json!({"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {
            "name": "astrix_evaluate_policy",
            "arguments": {"intent": intent("autonomous_llm", "production", json!({"modifies_tests": "false", "lines_added": 1}))}}})
        .to_string()
        .replace("\"lines_added\":1", "\"lines_added\":1e400")
        .as_bytes(),
    );
    let answer = session.next();
    assert_eq!(answer["id"], 20, "{answer}");
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "invalid params: the number `1e400` is out of range: the message is valid JSON"
        ),
        "{message}"
    );
    assert!(!message.contains("not JSON"), "{message}");
    // The server's stderr is read by a thread of the test: wait for the line.
    session
        .log
        .wait_for("ignored the notification `notifications/initialized` sent before `initialize`");
    assert!(session.finish().success());
}

/// A request that reuses the id of one still running is refused (JSON-RPC ids identify the
/// answers); once the first is cancelled, its id is free again.
#[test]
fn a_request_reusing_the_id_of_a_running_one_is_refused() {
    let repo = slow_component();
    let mut session = RawSession::start(&repo);
    session.send(
        br#"{"jsonrpc":"2.0","id":"dup","method":"tools/call","params":{"name":"astrix_run_impacted_tests","arguments":{"modified_files":["slow/a.txt"]}}}"#,
    );
    let pid = wait_for_pid(repo.path());
    session.send(br#"{"jsonrpc":"2.0","id":"dup","method":"ping"}"#);
    let answer = session.next();
    assert_eq!(answer["id"], "dup", "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("a request with this `id` is not answered yet"),
        "{answer}"
    );
    session.send(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"dup"}}"#,
    );
    wait_until_gone(&pid, "the cancellation");
    session.send(br#"{"jsonrpc":"2.0","id":"dup","method":"ping"}"#);
    assert!(session.next()["result"].is_object());
    drop(session.stdin.take());
    assert!(session.finish().success());
}

/// Covers the reused id of a cancelled request: a request that reuses it while the
/// cancelled one is still winding down gets its own answer, the only one under that id,
/// and runs to the end; the cancelled request gets none.
#[test]
fn a_cancelled_request_s_id_can_be_reused_and_gets_its_own_answer() {
    let repo = TestRepo::new();
    // `second` runs until the cancelled `first` has been stopped, and a little longer: it
    // is still running when the cancelled call winds down.
    repo.write(
        "Astrixfile.ax",
        r#"version = 1

[impact]
discover = false

[[component]]
name = "first"
paths = ["first/**"]
test = "echo $$ > pid; exec sleep 60"

[[component]]
name = "second"
paths = ["second/**"]
test = "while kill -0 $(cat pid) 2>/dev/null; do sleep 0.05; done; sleep 0.5; echo second ran"
"#,
    );
    repo.write("first/a.txt", "a\n");
    repo.write("second/a.txt", "b\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "init"]);
    let run = |file: &str| {
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
            "name": "astrix_run_impacted_tests", "arguments": {"modified_files": [file]}}})
        .to_string()
    };
    let mut session = RawSession::start(&repo);
    session.send(run("first/a.txt").as_bytes());
    let pid = wait_for_pid(repo.path());
    session
        .send(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#);
    session.send(run("second/a.txt").as_bytes());
    let answer = session.next();
    assert_eq!(answer["id"], 7, "{answer}");
    let result = &answer["result"]["structuredContent"];
    assert_eq!(result["tests"][0]["component"], "second", "{answer}");
    assert_eq!(result["passed"], true, "{answer}");
    assert_eq!(
        result["results"][0]["output_tail"], "second ran",
        "{answer}"
    );
    wait_until_gone(&pid, "the cancellation");
    // No second answer under the id, and the session goes on.
    session.send(br#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#);
    assert_eq!(
        session.next(),
        json!({"jsonrpc": "2.0", "id": 8, "result": {}})
    );
    assert!(session.finish().success());
}

/// SIGTERM stops a call that runs tests at once (the session does not wait for it to
/// finish, as it does for a closed stdin): the call is answered as cancelled, the log says
/// why, and the server exits with 0.
#[test]
fn sigterm_stops_a_running_call_at_once_and_answers_it() {
    let repo = slow_component();
    let mut session = RawSession::start(&repo);
    session.send(
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"astrix_run_impacted_tests","arguments":{"modified_files":["slow/a.txt"]}}}"#,
    );
    let pid = wait_for_pid(repo.path());
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &session.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let answer = session.next();
    assert_eq!(answer["id"], 2, "{answer}");
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "the run was cancelled while `echo $$ > pid; exec sleep 60` ran; nothing was proven",
        "{answer}"
    );
    wait_until_gone(&pid, "SIGTERM");
    let log = session.log.clone();
    assert!(session.finish().success());
    let log = log.wait_for("stopping on SIGTERM; stopping the test run still going");
    assert!(!log.contains("the client cancelled"), "{log}");
}

/// The dotted paths of the required fields of an object schema (`intent.actor.type`).
fn required_fields(schema: &Value, prefix: &str, fields: &mut Vec<String>) {
    for name in schema["required"].as_array().into_iter().flatten() {
        let name = name.as_str().unwrap();
        let path = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        };
        let property = &schema["properties"][name];
        if property["required"].is_array() {
            required_fields(property, &path, fields);
        } else {
            fields.push(path);
        }
    }
}

/// Covers issue #20: each description is at most 600 characters, names its siblings and its
/// required fields (or says it has none), and says how errors read.
#[tokio::test]
async fn descriptions_are_short_and_name_the_required_fields_and_siblings() {
    let repo = repository();
    let client = connect(&repo).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<String> = tools.iter().map(|tool| tool.name.to_string()).collect();
    for tool in &tools {
        let description = tool.description.as_deref().unwrap();
        assert!(
            description.chars().count() <= 600,
            "{}: {} characters",
            tool.name,
            description.chars().count()
        );
        let mut fields = Vec::new();
        required_fields(
            &Value::Object((*tool.input_schema).clone()),
            "",
            &mut fields,
        );
        if fields.is_empty() {
            assert!(description.contains("No required fields"), "{}", tool.name);
        }
        for field in fields {
            assert!(
                description.contains(&field),
                "{}: `{field}` not named",
                tool.name
            );
        }
        for sibling in names.iter().filter(|name| **name != tool.name) {
            assert!(
                description.contains(sibling.as_str()),
                "{} does not name {sibling}",
                tool.name
            );
        }
        assert!(description.contains("error"), "{}", tool.name);
    }
    let find = |name: &str| {
        tool(&tools, name)
            .description
            .as_deref()
            .unwrap()
            .to_owned()
    };
    assert!(find("astrix_get_blast_radius").contains("With nothing staged"));
    let run = find("astrix_run_impacted_tests");
    assert!(
        run.contains("After timeout_seconds (600 by default)") && run.contains("timed_out"),
        "{run}"
    );
    client.cancel().await.unwrap();
}

/// A client that stops the server with SIGTERM during a run: the server ends the test's
/// whole process group (which no longer shares the server's) before it exits.
#[test]
fn a_server_stopped_by_sigterm_during_a_run_leaves_no_orphaned_test() {
    let repo = forking_component();
    let (mut child, stdin, pid, log) = start_a_run(&repo);
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "astrix mcp did not exit on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    wait_until_gone(&pid, "SIGTERM stopped the server");
    let log = log.wait_for("SIGTERM");
    assert!(
        log.contains("astrix mcp: stopping on SIGTERM; stopping the test run still going"),
        "{log}"
    );
    assert!(!log.contains("the client cancelled"), "{log}");
    drop(stdin);
}
