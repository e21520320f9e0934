//! The MCP server (SPEC §9): astrix's tools for agents that ask before they act.
//!
//! This module owns the tools' names, descriptions, schemas and annotations, and turns each
//! call into the same library calls the command line makes: `astrix_evaluate_policy`
//! evaluates an intent against the policy the commit gate uses (HEAD's Astrixfile.ax),
//! re-read on every call so that a commit made meanwhile counts. It is the only module that
//! uses `rmcp`; [`crate::commands::mcp`] calls [`session::serve_stdio`].
//!
//! Every failure a caller can act on is an in-band tool error (`isError: true`) that names
//! the field and the fix; the server keeps serving. Protocol errors are JSON-RPC error
//! answers: [`wire`] gives those that rmcp leaves out or gets wrong, rmcp the rest.
//! [`session`] runs a session over stdio, and ends it.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;

use crate::commands::evaluate::{committed_policy_invalid_hold, repository_policy};
use crate::commands::schema::inlined;
use crate::env::EnvSnapshot;
use crate::eval::evaluate_with;
use crate::intent::{ActionIntent, IntentError};
use crate::report::DecisionOutput;

mod descriptions;
pub mod impact;
pub mod session;
pub mod wire;

pub use descriptions::{BLAST_RADIUS, EVALUATE_POLICY, INSTRUCTIONS, RUN_IMPACTED_TESTS};
use impact::{
    BlastRadiusArguments, RunControl, RunTestsArguments, blast_radius_input_schema,
    blast_radius_output_schema, read_arguments, run_tests_input_schema, run_tests_output_schema,
};
use session::Session;

/// The name of the policy tool: a published interface.
pub const EVALUATE_POLICY_TOOL: &str = "astrix_evaluate_policy";
/// The name of the blast-radius tool.
pub const BLAST_RADIUS_TOOL: &str = "astrix_get_blast_radius";
/// The name of the impacted-tests tool.
pub const RUN_IMPACTED_TESTS_TOOL: &str = "astrix_run_impacted_tests";
/// Every tool's name, in the order `tools/list` returns them.
pub const TOOLS: [&str; 3] = [
    EVALUATE_POLICY_TOOL,
    BLAST_RADIUS_TOOL,
    RUN_IMPACTED_TESTS_TOOL,
];

/// Where the server's log lines go: standard error, since standard output is the transport.
pub type Log = Arc<Mutex<Box<dyn Write + Send>>>;

/// The MCP server for the repository it was started in.
#[derive(Clone)]
pub struct Server {
    context: Arc<ServerContext>,
    tool_router: ToolRouter<Self>,
}

/// What every tool call needs.
struct ServerContext {
    /// The directory the server was started in; the repository is found from it.
    cwd: PathBuf,
    /// The environment, read once at start.
    env: EnvSnapshot,
    /// The session: log lines (standard error), why it ends, the test runs going.
    session: Arc<Session>,
}

impl Server {
    /// A server for the repository at (or above) `cwd`.
    pub fn new(cwd: PathBuf, env: EnvSnapshot, log: Log) -> Self {
        Self {
            context: Arc::new(ServerContext {
                cwd,
                env,
                session: Arc::new(Session::new(log)),
            }),
            tool_router: Self::tool_router(),
        }
    }

    /// The tools this server lists, in the order `tools/list` returns them.
    pub fn tools(&self) -> Vec<rmcp::model::Tool> {
        self.tool_router.list_all()
    }

    /// The session this server serves, shared with its transport.
    pub fn session(&self) -> Arc<Session> {
        Arc::clone(&self.context.session)
    }

    fn log(&self, line: &str) {
        // A closed stderr cannot be reported anywhere; the tool result still is.
        self.context.session.log(line);
    }
}

/// Writes to the server's log.
struct LogWriter<'a>(&'a Log);

impl Write for LogWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut log) => log.write(buf),
            Err(_) => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.0.lock() {
            Ok(mut log) => log.flush(),
            Err(_) => Ok(()),
        }
    }
}

/// The arguments of `astrix_evaluate_policy` (its input schema).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "only the schema is used; the arguments are read strictly by hand"
)]
struct EvaluatePolicyArguments {
    /// The proposed action to evaluate: who acts, where it lands, which files it would
    /// modify, and whether it changes tests.
    intent: ActionIntent,
}

/// The input schema of `astrix_evaluate_policy`: `{"intent": ActionIntent}`, inlined.
pub fn evaluate_policy_input_schema() -> Arc<JsonObject> {
    tool_schema(inlined::<EvaluatePolicyArguments>())
}

/// The output schema of `astrix_evaluate_policy`: the four fields of SPEC §5.
pub fn evaluate_policy_output_schema() -> Arc<JsonObject> {
    tool_schema(inlined::<DecisionOutput>())
}

/// A schema as a tool lists it: an object without the generator's `$schema` (draft 2020-12
/// is MCP's default), nor the Rust type's title and description.
pub(crate) fn tool_schema(value: serde_json::Value) -> Arc<JsonObject> {
    let mut object = match value {
        serde_json::Value::Object(object) => object,
        _ => JsonObject::new(),
    };
    for key in ["$schema", "title", "description"] {
        object.remove(key);
    }
    Arc::new(object)
}

#[tool_router]
impl Server {
    #[tool(
        name = "astrix_evaluate_policy",
        description = EVALUATE_POLICY,
        input_schema = evaluate_policy_input_schema(),
        output_schema = evaluate_policy_output_schema(),
        annotations(
            title = "Evaluate an action against the repository's astrix policy",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn evaluate_policy(&self, arguments: JsonObject) -> CallToolResult {
        match self.evaluate(&arguments) {
            Ok(decision) => CallToolResult::structured(decision),
            Err(message) => tool_error(message),
        }
    }

    #[tool(
        name = "astrix_get_blast_radius",
        description = BLAST_RADIUS,
        input_schema = blast_radius_input_schema(),
        output_schema = blast_radius_output_schema(),
        annotations(
            title = "Show which components a change affects, and why",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn get_blast_radius(&self, arguments: JsonObject) -> CallToolResult {
        let change = match read_arguments::<BlastRadiusArguments>(BLAST_RADIUS_TOOL, &arguments)
            .and_then(|change| change.check(BLAST_RADIUS_TOOL).map(|()| change))
        {
            Ok(change) => change,
            Err(message) => return tool_error(message),
        };
        let context = Arc::clone(&self.context);
        let job = tokio::task::spawn_blocking(move || {
            let mut log = LogWriter(context.session.log_handle());
            impact::blast_radius(&context.cwd, &context.env, &change, &mut log)
        });
        self.finish(job.await)
    }

    #[tool(
        name = "astrix_run_impacted_tests",
        description = RUN_IMPACTED_TESTS,
        input_schema = run_tests_input_schema(),
        output_schema = run_tests_output_schema(),
        annotations(
            title = "Run the tests of the components a change affects",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn run_impacted_tests(
        &self,
        arguments: JsonObject,
        request: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let parsed = match read_arguments::<RunTestsArguments>(RUN_IMPACTED_TESTS_TOOL, &arguments)
            .and_then(|parsed| parsed.check(RUN_IMPACTED_TESTS_TOOL).map(|()| parsed))
        {
            Ok(parsed) => parsed,
            Err(message) => return tool_error(message),
        };
        let (control, mut steps) = RunControl::new();
        let _cancel_on_drop = impact::CancelOnDrop(control.clone());
        let context = Arc::clone(&self.context);
        let job_control = control.clone();
        // Counted until the runner returns, which is after it has ended its test's process
        // group: the end of the session waits for that.
        let run = self.context.session.run_started();
        let mut job = tokio::task::spawn_blocking(move || {
            let _run = run;
            let mut log = LogWriter(context.session.log_handle());
            impact::impacted_tests(&context.cwd, &context.env, &parsed, &job_control, &mut log)
        });
        let progress_token = request.meta.get_progress_token();
        let notify = |step: impact::Step| {
            let peer = request.peer.clone();
            let token = progress_token.clone();
            async move {
                if let Some(token) = token {
                    // A client that stopped listening does not stop the run.
                    let _ = peer.notify_progress(step.notification(token)).await;
                }
            }
        };
        let outcome = loop {
            tokio::select! {
                biased;
                Some(step) = steps.recv() => notify(step).await,
                () = request.ct.cancelled(), if !control.is_cancelled() => {
                    // The end of the session cancels every call too, and says so itself.
                    if self.context.session.ending().is_none() {
                        self.log("the client cancelled astrix_run_impacted_tests; stopping the running test");
                    }
                    control.cancel();
                }
                outcome = &mut job => break outcome,
            }
        };
        // The steps sent before the run ended, in order, before its result.
        while let Ok(step) = steps.try_recv() {
            notify(step).await;
        }
        self.finish(outcome)
    }
}

impl Server {
    /// The result of a blocking job: its JSON as structured content, or its error.
    fn finish(
        &self,
        outcome: Result<Result<serde_json::Value, String>, tokio::task::JoinError>,
    ) -> CallToolResult {
        match outcome {
            Ok(Ok(value)) => CallToolResult::structured(value),
            Ok(Err(message)) => tool_error(message),
            Err(error) => {
                let message = format!(
                    "astrix failed while working on the call ({error}); nothing was decided"
                );
                self.log(&message);
                tool_error(message)
            }
        }
    }

    /// Evaluates the `intent` argument; the error is the text of an in-band tool error.
    fn evaluate(&self, arguments: &JsonObject) -> Result<serde_json::Value, String> {
        let intent = read_intent_argument(arguments)?;
        let (loaded, committed_invalid) = repository_policy(&self.context.cwd, &self.context.env)
            .map_err(|error| {
            let mut message = format!("astrix could not evaluate the intent: {error}");
            for cause in error.chain().skip(1) {
                message.push_str(&format!(": {cause}"));
            }
            message.push_str(
                "\nthe action is blocked: the commit hook fails closed on the same error, \
                     so do not carry it out until the problem is fixed",
            );
            self.log(&message);
            message
        })?;
        let mut extra = Vec::new();
        if let Some(diagnostics) = &committed_invalid {
            let mut rendered = Vec::new();
            if diagnostics.render(&mut rendered, false).is_ok() {
                self.log(&String::from_utf8_lossy(&rendered));
            }
            extra.push(committed_policy_invalid_hold());
        }
        let decision = evaluate_with(&loaded.policy, &intent, extra);
        serde_json::to_value(DecisionOutput::from_decision(&decision))
            .map_err(|error| format!("astrix could not write the decision: {error}"))
    }
}

/// Reads `{"intent": …}` as strictly as `astrix evaluate` reads an intent.
fn read_intent_argument(arguments: &JsonObject) -> Result<ActionIntent, String> {
    const AGAIN: &str =
        "nothing was evaluated; fix the arguments and call astrix_evaluate_policy again";
    if let Some(unknown) = arguments.keys().find(|key| key.as_str() != "intent") {
        let help = if arguments.contains_key("intent") {
            format!("remove `{unknown}`; the only argument is `intent`")
        } else {
            "the intent goes inside the one argument `intent`: {\"intent\": {\"actor\": …, \"target\": …, \"modified_files\": […], \"diff\": …}}"
                .to_owned()
        };
        return Err(format!(
            "invalid arguments: unknown field `{unknown}`\nhelp: {help}\n{AGAIN}"
        ));
    }
    let Some(intent) = arguments.get("intent") else {
        return Err(format!(
            "invalid arguments: missing field `intent`\nhelp: pass the proposed action as {{\"intent\": {{\"actor\": …, \"target\": …, \"modified_files\": […], \"diff\": …}}}}\n{AGAIN}"
        ));
    };
    ActionIntent::from_decoded(intent).map_err(|error| {
        let (field, help) = describe_intent_error(&error);
        let mut message = format!("invalid input at `{field}`: {}", error.message);
        if let Some(help) = help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        message.push('\n');
        message.push_str(AGAIN);
        message
    })
}

/// The argument path of an intent error (`intent.diff.modifies_tests`) and, where the
/// message does not already say how to fix it, a help line.
fn describe_intent_error(error: &IntentError) -> (String, Option<String>) {
    let field = match error.path.as_str() {
        "" | "." => "intent".to_owned(),
        path => format!("intent.{path}"),
    };
    let message = &error.message;
    let help = if let Some(name) = backticked_after(message, "missing field ") {
        Some(format!(
            "add `{field}.{name}`; the tool's input schema describes it"
        ))
    } else if message.starts_with("unknown field") {
        Some(format!(
            "remove `{field}`; the intent accepts only the fields its input schema lists"
        ))
    } else if message.starts_with("invalid type") || message.starts_with("expected a JSON object") {
        Some(format!(
            "give `{field}` the type that the tool's input schema lists for it"
        ))
    } else {
        None
    };
    (field, help)
}

/// `x` in a message that contains `prefix` followed by `` `x` ``.
fn backticked_after<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = message.strip_prefix(prefix)?.strip_prefix('`')?;
    rest.split('`').next()
}

fn tool_error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions(INSTRUCTIONS);
        config.server_info = rmcp::model::Implementation::new("astrix", env!("CARGO_PKG_VERSION"));
        config
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::ToolAnnotations;

    use super::*;

    /// The annotations of a read-only tool of this server.
    fn read_only() -> ToolAnnotations {
        ToolAnnotations::new()
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false)
    }

    fn server() -> Server {
        Server::new(
            PathBuf::from("/nonexistent"),
            EnvSnapshot::default(),
            Arc::new(Mutex::new(Box::new(std::io::sink()))),
        )
    }

    fn contains_key(value: &serde_json::Value, key: &str) -> bool {
        match value {
            serde_json::Value::Object(map) => map
                .iter()
                .any(|(name, item)| name == key || contains_key(item, key)),
            serde_json::Value::Array(items) => items.iter().any(|item| contains_key(item, key)),
            _ => false,
        }
    }

    #[test]
    fn schemas_are_inlined() {
        let tools = server().tools();
        assert_eq!(tools.len(), 3);
        let schemas = tools.iter().flat_map(|tool| {
            [Some(tool.input_schema.clone()), tool.output_schema.clone()]
                .into_iter()
                .flatten()
        });
        for schema in schemas {
            let value = serde_json::Value::Object((*schema).clone());
            assert!(!contains_key(&value, "$ref"), "{value:#}");
            assert!(!contains_key(&value, "$defs"), "{value:#}");
            assert!(!contains_key(&value, "definitions"), "{value:#}");
        }
    }

    #[test]
    fn evaluate_policy_is_annotated_read_only() {
        let tools = server().tools();
        let tool = tools
            .iter()
            .find(|tool| tool.name == EVALUATE_POLICY_TOOL)
            .unwrap();
        let mut expected = read_only();
        expected.title =
            Some("Evaluate an action against the repository's astrix policy".to_owned());
        assert_eq!(tool.annotations.as_ref(), Some(&expected));
    }

    macro_rules! invalid_arguments {
        ($name:ident, $arguments:tt, $needles:expr) => {
            #[test]
            fn $name() {
                let serde_json::Value::Object(arguments) = serde_json::json!($arguments) else {
                    panic!("arguments are an object");
                };
                let message = read_intent_argument(&arguments).unwrap_err();
                for needle in $needles {
                    assert!(message.contains(needle), "{needle:?} not in {message}");
                }
            }
        };
    }

    invalid_arguments!(
        missing_intent,
        {},
        ["missing field `intent`", "{\"intent\": {"]
    );
    invalid_arguments!(
        flat_intent,
        {"actor": {"type": "human"}},
        ["unknown field `actor`", "inside the one argument `intent`"]
    );
    invalid_arguments!(
        extra_argument,
        {"intent": {}, "dry_run": true},
        ["unknown field `dry_run`", "remove `dry_run`"]
    );
    invalid_arguments!(
        missing_actor_type,
        {"intent": {"actor": {}, "target": {"env": "d"}, "modified_files": [], "diff": {"modifies_tests": "false"}}},
        ["at `intent.actor`: missing field `type`", "add `intent.actor.type`"]
    );
    invalid_arguments!(
        boolean_modifies_tests,
        {"intent": {"actor": {"type": "h"}, "target": {"env": "d"}, "modified_files": [], "diff": {"modifies_tests": true}}},
        ["at `intent.diff.modifies_tests`", "write \"modifies_tests\": \"true\""]
    );
    invalid_arguments!(
        unknown_nested_field,
        {"intent": {"actor": {"type": "h", "name": "x"}, "target": {"env": "d"}, "modified_files": [], "diff": {"modifies_tests": "false"}}},
        ["at `intent.actor.name`: unknown field `name`", "remove `intent.actor.name`"]
    );
    invalid_arguments!(
        wrong_type,
        {"intent": {"actor": {"type": "h"}, "target": {"env": "d"}, "modified_files": [], "diff": {"modifies_tests": "false"}, "approved": "yes"}},
        ["at `intent.approved`: invalid type", "give `intent.approved` the type"]
    );
    invalid_arguments!(
        absolute_path,
        {"intent": {"actor": {"type": "h"}, "target": {"env": "d"}, "modified_files": ["/etc/passwd"], "diff": {"modifies_tests": "false"}}},
        ["at `intent.modified_files[0]`", "without the leading `/`"]
    );
    invalid_arguments!(
        intent_not_an_object,
        {"intent": "src/lib.rs"},
        ["at `intent`", "call astrix_evaluate_policy again"]
    );
}
