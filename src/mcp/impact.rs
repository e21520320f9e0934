//! The arguments of `astrix_get_blast_radius` and `astrix_run_impacted_tests`: which change
//! to analyse (the staged one, named files, or the commits since a base revision), and
//! whether to run the tests.
//!
//! The analysis and the runner are those of `astrix blast-radius` and `astrix
//! impacted-tests` ([`analyze_selection`], [`run_tests`]); this module only adapts them: the
//! change named by the arguments, JSON results, output tails, progress steps, cancellation.
//!
//! Both tools read the arguments strictly, as `astrix_evaluate_policy` reads its intent:
//! unknown fields are rejected, paths are normalised repository-relative paths, and every
//! problem is an in-band tool error that names the field and the fix.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rmcp::model::{JsonObject, ProgressNotificationParam, ProgressToken};
use schemars::JsonSchema;
use serde::Deserialize;

use super::tool_schema;
use crate::cli::ChangeSelection;
use crate::commands::blast_radius::{Analysis, analyze_selection};
use crate::commands::schema::inlined;
use crate::context::Context;
use crate::env::EnvSnapshot;
use crate::gate::source::InvalidPolicyError;
use crate::git::Repository;
use crate::impact::run::{Progress, RunOptions, TestResult, run_tests};
use crate::impact::{SCHEMA_VERSION, TestCommand};
use crate::intent::RepoPath;
use crate::report::style::Style;

/// Which change a tool analyses.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeArguments {
    /// Repository-relative paths (with `/` separators) of the files to analyse, such as the
    /// files you plan to change, instead of the staged change. Give this or `base`, not both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<RepoPath>")]
    pub modified_files: Option<Vec<RepoPath>>,
    /// A git revision (branch, tag or commit id): analyse the commits of HEAD since its merge
    /// base with this revision, instead of the staged change. Give this or `modified_files`,
    /// not both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub base: Option<String>,
}

/// The arguments of `astrix_run_impacted_tests`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunTestsArguments {
    /// Repository-relative paths (with `/` separators) of the files to analyse, such as the
    /// files you changed, instead of the staged change. Give this or `base`, not both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<RepoPath>")]
    pub modified_files: Option<Vec<RepoPath>>,
    /// A git revision (branch, tag or commit id): analyse the commits of HEAD since its merge
    /// base with this revision, instead of the staged change. Give this or `modified_files`,
    /// not both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub base: Option<String>,
    /// When true, only list the test commands that would run, and run nothing.
    #[serde(default)]
    pub dry_run: bool,
    /// The time limit of the whole run, in seconds (1 to 3600; 600 when absent). At the limit
    /// the running command is stopped, no other starts, and the result says `timed_out`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "timeout_schema")]
    pub timeout_seconds: Option<u64>,
}

/// The time limit of a run when the call does not set one.
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 600;
/// The longest time limit a call may set.
pub const MAX_TIMEOUT_SECONDS: u64 = 3600;

/// `timeout_seconds`: one `integer` type, without the `format` and `minimum` that schemars
/// gives a `u64` (not every client reads them; the server checks the range itself).
fn timeout_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "integer",
        "description": "The time limit of the whole run, in seconds (1 to 3600; 600 when absent). At the limit the running command is stopped, no other starts, and the result says `timed_out`."
    })
}

impl RunTestsArguments {
    /// Checks the change and the time limit.
    pub fn check(&self, tool: &str) -> Result<(), String> {
        self.change().check(tool)?;
        match self.timeout_seconds {
            Some(seconds) if !(1..=MAX_TIMEOUT_SECONDS).contains(&seconds) => Err(format!(
                "invalid input at `timeout_seconds`: {seconds} is outside 1 to {MAX_TIMEOUT_SECONDS}\nhelp: give a whole number of seconds from 1 to {MAX_TIMEOUT_SECONDS}, or leave it out for {DEFAULT_TIMEOUT_SECONDS}\nnothing was done; fix the arguments and call {tool} again"
            )),
            _ => Ok(()),
        }
    }

    /// The time limit of the run.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_seconds.unwrap_or(DEFAULT_TIMEOUT_SECONDS))
    }

    /// The change part of the arguments.
    pub fn change(&self) -> ChangeArguments {
        ChangeArguments {
            modified_files: self.modified_files.clone(),
            base: self.base.clone(),
        }
    }
}

/// The input schema of `astrix_get_blast_radius`.
pub fn blast_radius_input_schema() -> Arc<JsonObject> {
    tool_schema(inlined::<ChangeArguments>())
}

/// The input schema of `astrix_run_impacted_tests`.
pub fn run_tests_input_schema() -> Arc<JsonObject> {
    tool_schema(inlined::<RunTestsArguments>())
}

/// Reads a tool's arguments strictly; the error is the text of an in-band tool error.
pub fn read_arguments<T: for<'de> Deserialize<'de>>(
    tool: &str,
    arguments: &JsonObject,
) -> Result<T, String> {
    let again = format!("nothing was done; fix the arguments and call {tool} again");
    let value = serde_json::Value::Object(arguments.clone());
    serde_path_to_error::deserialize(&value).map_err(|error| {
        let path = error.path().to_string();
        let message = error.inner().to_string();
        let field = if path.is_empty() || path == "." {
            "arguments".to_owned()
        } else {
            format!("`{path}`")
        };
        let help = if message.starts_with("unknown field") {
            format!(
                "\nhelp: remove {field}; the tool accepts only the fields its input schema lists"
            )
        } else if message.starts_with("invalid type") {
            format!("\nhelp: give {field} the type that the tool's input schema lists for it")
        } else {
            String::new()
        };
        format!("invalid input at {field}: {message}{help}\n{again}")
    })
}

impl ChangeArguments {
    /// Checks that at most one way of naming the change is used.
    pub fn check(&self, tool: &str) -> Result<(), String> {
        if self.modified_files.is_some() && self.base.is_some() {
            return Err(format!(
                "invalid input: `modified_files` and `base` both name the change\nhelp: give `modified_files` (files you plan to change or changed) or `base` (the commits since a revision), or neither (the staged change)\nnothing was done; fix the arguments and call {tool} again"
            ));
        }
        if self
            .base
            .as_deref()
            .is_some_and(|base| base.trim().is_empty())
        {
            return Err(format!(
                "invalid input at `base`: the revision is empty\nhelp: name a branch, tag or commit id, or leave `base` out for the staged change\nnothing was done; fix the arguments and call {tool} again"
            ));
        }
        Ok(())
    }
}

/// How much of a test's output a result keeps: its last lines, at most this many bytes.
const OUTPUT_TAIL_BYTES: usize = 4000;
/// How many lines of a test's output a result keeps at most.
const OUTPUT_TAIL_LINES: usize = 40;

/// A step of a test run, for a progress notification.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Commands finished so far.
    pub done: u32,
    /// Whether the next command is running (progress is then half a command further, so
    /// that it increases with every notification, as MCP requires).
    pub running: bool,
    /// Commands in all.
    pub total: u32,
    /// What is happening, for people.
    pub message: String,
}

impl Step {
    /// The notification of this step for the request's progress token.
    pub fn notification(self, token: ProgressToken) -> ProgressNotificationParam {
        let progress = f64::from(self.done) + if self.running { 0.5 } else { 0.0 };
        ProgressNotificationParam::new(token, progress)
            .with_total(f64::from(self.total))
            .with_message(self.message)
    }
}

/// What a blocking test run hears from, and tells, the tool call: progress goes out through
/// a channel, cancellation comes in through a flag.
#[derive(Debug, Clone)]
pub struct RunControl {
    steps: tokio::sync::mpsc::UnboundedSender<Step>,
    cancelled: Arc<AtomicBool>,
}

impl RunControl {
    /// A control and the receiving end of its progress steps.
    pub fn new() -> (Self, tokio::sync::mpsc::UnboundedReceiver<Step>) {
        let (steps, receiver) = tokio::sync::mpsc::unbounded_channel();
        (
            Self {
                steps,
                cancelled: Arc::new(AtomicBool::new(false)),
            },
            receiver,
        )
    }

    /// Reports a step (dropped when nobody listens any more).
    pub fn step(&self, step: Step) {
        let _ = self.steps.send(step);
    }

    /// Asks the run to stop.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    /// Whether the client cancelled the call.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// Cancels a run when the tool call that started it goes away (the session ended, or the
/// server is shutting down), so that no test outlives the server.
#[derive(Debug)]
pub struct CancelOnDrop(pub RunControl);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The runner's progress, as MCP progress steps.
impl Progress for &RunControl {
    fn started(&mut self, position: usize, total: usize, test: &TestCommand) {
        self.step(Step {
            done: count(position),
            running: true,
            total: count(total),
            message: format!("running `{}` ({})", test.command, test.component),
        });
    }

    fn waiting(&mut self, _elapsed: Duration) {}

    fn finished(&mut self, position: usize, total: usize, result: &TestResult) {
        let outcome = if result.passed {
            "passed".to_owned()
        } else {
            match result.exit_code {
                Some(code) => format!("failed with exit code {code}"),
                None => "was ended by a signal".to_owned(),
            }
        };
        self.step(Step {
            done: count(position + 1),
            running: false,
            total: count(total),
            message: format!(
                "`{}` ({}) {outcome} in {}",
                result.command,
                result.component,
                crate::report::impact::duration(result.duration_ms)
            ),
        });
    }

    fn cancelled(&mut self) -> bool {
        self.is_cancelled()
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The change, its component graph and blast radius, as `astrix blast-radius` finds them.
fn analyze(
    dir: &Path,
    env: &EnvSnapshot,
    change: &ChangeArguments,
    log: &mut dyn Write,
) -> Result<Analysis, String> {
    // Named files are repository-relative here; `analyze_selection` reads them relative to the
    // context's directory, so the context is the root of the work tree.
    let root = match Repository::open(dir, env) {
        Ok(repo) => repo
            .work_dir()
            .map_or_else(|| dir.to_path_buf(), Path::to_path_buf),
        Err(error) => {
            return Err(format!(
                "astrix could not read the repository: {error}\nthe blast radius is unknown: treat every component as affected"
            ));
        }
    };
    let selection = ChangeSelection {
        base: change.base.clone(),
        paths: change
            .modified_files
            .iter()
            .flatten()
            .map(|path| PathBuf::from(path.as_str()))
            .collect(),
    };
    let mut sink = std::io::sink();
    let mut sink_err = std::io::sink();
    let ctx = Context {
        stdout: &mut sink,
        stderr: &mut sink_err,
        env: env.clone(),
        cwd: root,
        stdout_style: Style::new(false),
        stderr_style: Style::new(false),
        stdin_is_terminal: false,
        stderr_is_terminal: false,
    };
    analyze_selection(&selection, &ctx).map_err(|error| {
        if let Some(InvalidPolicyError(diagnostics)) = error.downcast_ref::<InvalidPolicyError>() {
            let _ = diagnostics.render(log, false);
        }
        let mut message = format!("astrix could not compute the blast radius: {error}");
        for cause in error.chain().skip(1) {
            message.push_str(&format!(": {cause}"));
        }
        message.push_str("\nthe blast radius is unknown: treat every component as affected");
        message
    })
}

/// The blast radius of `change` in the repository at `dir`, as `astrix blast-radius
/// --format json` prints it.
pub fn blast_radius(
    dir: &Path,
    env: &EnvSnapshot,
    change: &ChangeArguments,
    log: &mut dyn Write,
) -> Result<serde_json::Value, String> {
    let analysis = analyze(dir, env, change, log)?;
    let mut radius = serde_json::to_value(&analysis.radius)
        .map_err(|error| format!("astrix could not write the blast radius: {error}"))?;
    // A declared component without a directory has no `root` (rather than `null`): the
    // published schema has one type per field.
    if let Some(components) = radius
        .get_mut("components")
        .and_then(serde_json::Value::as_array_mut)
    {
        for component in components
            .iter_mut()
            .filter_map(serde_json::Value::as_object_mut)
        {
            if component
                .get("root")
                .is_some_and(serde_json::Value::is_null)
            {
                component.remove("root");
            }
        }
    }
    Ok(radius)
}

/// The impacted tests of `arguments`' change in the repository at `dir`, and unless
/// `dry_run` their results.
pub fn impacted_tests(
    dir: &Path,
    env: &EnvSnapshot,
    arguments: &RunTestsArguments,
    control: &RunControl,
    log: &mut dyn Write,
) -> Result<serde_json::Value, String> {
    let deadline = Instant::now() + arguments.timeout();
    let analysis = analyze(dir, env, &arguments.change(), log)?;
    let tests = crate::impact::impacted_tests(&analysis.graph, &analysis.radius);
    let mut output = serde_json::json!({
        "schema_version": SCHEMA_VERSION,
        "dry_run": arguments.dry_run,
        "tests": tests.tests,
        "untested": tests.untested,
    });
    if arguments.dry_run {
        return Ok(output);
    }
    let work_dir = analysis
        .repo
        .work_dir()
        .ok_or_else(|| "the repository has no work tree to run tests in".to_owned())?;
    let options = RunOptions {
        own_process_group: true,
        deadline: Some(deadline),
    };
    let results = run_tests(&tests.tests, work_dir, options, &mut &*control).map_err(|error| {
        if error.source.kind() == std::io::ErrorKind::Interrupted {
            format!("the run was cancelled while `{}` ran; nothing was proven", error.command)
        } else {
            format!(
                "astrix could not run the impacted tests: {error}: {}\nnothing was proven: do not treat the change as tested",
                error.source
            )
        }
    })?;
    let passed = results.iter().all(|result| result.passed);
    output["results"] = results
        .iter()
        .map(|result| {
            let mut value = serde_json::json!({
                "component": result.component,
                "command": result.command,
                "duration_ms": result.duration_ms,
                "passed": result.passed,
                "output_tail": output_tail(&result.output),
            });
            // Left out rather than `null` when a signal ended it: the published schema
            // has one type per field.
            if let Some(code) = result.exit_code {
                value["exit_code"] = code.into();
            }
            if result.timed_out {
                value["timed_out"] = true.into();
            }
            value
        })
        .collect();
    // At the time limit the running command was stopped and the rest did not start.
    let timed_out =
        results.len() < tests.tests.len() || results.iter().any(|result| result.timed_out);
    output["passed"] = (passed && !timed_out).into();
    if timed_out {
        output["timed_out"] = true.into();
    }
    Ok(output)
}

/// The last lines of a test's output: at most [`OUTPUT_TAIL_LINES`] lines and about
/// [`OUTPUT_TAIL_BYTES`] bytes, cut at a line (or character) boundary.
fn output_tail(output: &[u8]) -> String {
    let text = String::from_utf8_lossy(output);
    let text = text.trim_end_matches('\n');
    let mut start = text.len().saturating_sub(OUTPUT_TAIL_BYTES);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let mut tail = &text[start..];
    if start > 0
        && let Some(newline) = tail.find('\n')
    {
        tail = &tail[newline + 1..];
    }
    let lines: Vec<&str> = tail.lines().collect();
    let keep = lines.len().saturating_sub(OUTPUT_TAIL_LINES);
    lines[keep..].join("\n")
}

/// The output schema of `astrix_get_blast_radius`: `astrix blast-radius --format json`.
pub fn blast_radius_output_schema() -> Arc<JsonObject> {
    let reason = serde_json::json!({
        "type": "object",
        "description": "Why: `file` (a changed file the component owns), `workspace_manifest`, `dependency` (`path` from this component to a directly affected one), `global` (a global file), `unowned` (a file no component owns), `problem` (the graph could not be read completely).",
        "properties": {
            "kind": {"type": "string", "enum": ["file", "workspace_manifest", "dependency", "global", "unowned", "problem"]},
            "file": {"type": "string"},
            "path": {"type": "array", "items": {"type": "string"}},
            "message": {"type": "string"}
        },
        "required": ["kind"]
    });
    let files = |description: &str| serde_json::json!({"type": "array", "items": {"type": "string"}, "description": description});
    object_schema(serde_json::json!({
        "type": "object",
        "properties": {
            "schema_version": {"type": "integer", "description": "The version of this shape."},
            "changed_files": files("The changed files, sorted."),
            "total_components": {"type": "integer", "description": "How many components the repository has."},
            "components": {
                "type": "array",
                "description": "The affected components: directly affected ones first, then by distance.",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "root": {"type": "string", "description": "Its directory (`.` for the root); absent for a declared component without one."},
                        "ecosystem": {"type": "string", "description": "declared, cargo, npm, yarn, pnpm or uv."},
                        "direct": {"type": "boolean", "description": "Whether a changed file affects it directly."},
                        "distance": {"type": "integer", "description": "Dependency steps to the nearest directly affected component."},
                        "reasons": {"type": "array", "items": reason.clone()}
                    },
                    "required": ["name", "ecosystem", "direct", "distance", "reasons"]
                }
            },
            "unowned_files": files("Changed files that no component owns; each makes every component affected."),
            "ignored_files": files("Changed files that `[impact] ignore` matches; they affect nothing."),
            "all_affected": {"type": "boolean", "description": "Whether every component is affected."},
            "all_reasons": {"type": "array", "items": reason, "description": "Why every component is affected."}
        },
        "required": ["schema_version", "changed_files", "total_components", "components", "unowned_files", "ignored_files", "all_affected", "all_reasons"]
    }))
}

/// The output schema of `astrix_run_impacted_tests`.
pub fn run_tests_output_schema() -> Arc<JsonObject> {
    object_schema(serde_json::json!({
        "type": "object",
        "properties": {
            "schema_version": {"type": "integer", "description": "The version of this shape."},
            "dry_run": {"type": "boolean", "description": "True when the commands were only listed."},
            "tests": {
                "type": "array",
                "description": "The test commands of the affected components, each once, nearest components first.",
                "items": {
                    "type": "object",
                    "properties": {
                        "component": {"type": "string"},
                        "command": {"type": "string", "description": "Run with `sh -c` at the repository root."},
                        "also_for": {"type": "array", "items": {"type": "string"}, "description": "Other affected components with the same command."}
                    },
                    "required": ["component", "command"]
                }
            },
            "untested": {"type": "array", "items": {"type": "string"}, "description": "Affected components without a test command: nothing proves them."},
            "results": {
                "type": "array",
                "description": "Each command's result, in order (absent on a dry run).",
                "items": {
                    "type": "object",
                    "properties": {
                        "component": {"type": "string"},
                        "command": {"type": "string"},
                        "exit_code": {"type": "integer", "description": "Absent when a signal ended it."},
                        "duration_ms": {"type": "integer"},
                        "passed": {"type": "boolean", "description": "Whether it exited with 0."},
                        "output_tail": {"type": "string", "description": "The last lines of its output, stdout and stderr interleaved."},
                        "timed_out": {"type": "boolean", "description": "Present (true) when the time limit stopped it."}
                    },
                    "required": ["component", "command", "duration_ms", "passed", "output_tail"]
                }
            },
            "passed": {"type": "boolean", "description": "True when every command exited with 0 (absent on a dry run; true when there was nothing to run, see `untested`)."},
            "timed_out": {"type": "boolean", "description": "Present (true) when the time limit ended the run: the last result was stopped, and the commands after it did not run."}
        },
        "required": ["schema_version", "dry_run", "tests", "untested"]
    }))
}

fn object_schema(value: serde_json::Value) -> Arc<JsonObject> {
    match value {
        serde_json::Value::Object(object) => Arc::new(object),
        _ => Arc::new(JsonObject::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(arguments: serde_json::Value) -> Result<RunTestsArguments, String> {
        let serde_json::Value::Object(arguments) = arguments else {
            panic!("arguments are an object");
        };
        let read: RunTestsArguments = read_arguments("astrix_run_impacted_tests", &arguments)?;
        read.check("astrix_run_impacted_tests")?;
        Ok(read)
    }

    #[test]
    fn reads_the_staged_change_by_default() {
        assert_eq!(
            read(serde_json::json!({})),
            Ok(RunTestsArguments::default())
        );
    }

    #[test]
    fn reads_files_and_dry_run() {
        let read =
            read(serde_json::json!({"modified_files": ["a/b.rs"], "dry_run": true})).unwrap();
        assert_eq!(read.modified_files.unwrap()[0].as_str(), "a/b.rs");
        assert!(read.dry_run);
    }

    macro_rules! rejects {
        ($name:ident, $arguments:tt, $needles:expr) => {
            #[test]
            fn $name() {
                let message = read(serde_json::json!($arguments)).unwrap_err();
                for needle in $needles {
                    assert!(message.contains(needle), "{needle:?} not in {message}");
                }
                assert!(
                    message.ends_with("call astrix_run_impacted_tests again"),
                    "{message}"
                );
            }
        };
    }

    rejects!(
        unknown_field,
        {"files": ["a"]},
        ["invalid input at `files`: unknown field `files`", "expected one of `modified_files`, `base`, `dry_run`, `timeout_seconds`", "remove `files`"]
    );
    rejects!(
        absolute_path,
        {"modified_files": ["/etc/passwd"]},
        ["at `modified_files[0]`", "without the leading `/`"]
    );
    rejects!(
        string_dry_run,
        {"dry_run": "yes"},
        ["at `dry_run`: invalid type: string \"yes\", expected a boolean", "give `dry_run` the type"]
    );
    rejects!(
        both,
        {"modified_files": ["a"], "base": "main"},
        ["`modified_files` and `base` both name the change"]
    );
    #[test]
    fn output_tails_keep_the_last_lines() {
        let many = (1..=100)
            .map(|n| format!("line {n}"))
            .collect::<Vec<_>>()
            .join("\n");
        let tail = output_tail(many.as_bytes());
        assert!(tail.starts_with("line 61\n"), "{tail}");
        assert!(tail.ends_with("line 100"), "{tail}");
        let long = format!("{}\nlast", "é".repeat(5000));
        assert_eq!(output_tail(long.as_bytes()), "last");
        assert_eq!(output_tail(b"ok\n"), "ok");
    }

    rejects!(
        zero_timeout,
        {"timeout_seconds": 0},
        ["invalid input at `timeout_seconds`: 0 is outside 1 to 3600"]
    );
    rejects!(
        negative_timeout,
        {"timeout_seconds": -1},
        ["invalid input at `timeout_seconds`: invalid value: integer `-1`"]
    );
    rejects!(
        empty_base,
        {"base": " "},
        ["at `base`: the revision is empty"]
    );
}
