//! The arguments of `astrix_get_blast_radius` and `astrix_run_impacted_tests`: which change
//! to analyse (the staged one, named files, or the commits since a base revision), and
//! whether to run the tests.
//!
//! The analysis and the runner are those of `astrix blast-radius` and `astrix
//! impacted-tests` ([`analyze_selection`], [`run_tests`]); this module only adapts them: the
//! change named by the arguments, JSON results bounded in size (a page of components, the
//! first entries of each list, the counts of all, a summary), output tails, progress steps,
//! cancellation and the time limit (each command in a process group of its own, ended
//! whole).
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

/// The arguments of `astrix_get_blast_radius`: the change, and which page of the affected
/// components to return.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlastRadiusArguments {
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
    /// How many affected components to return (1 to 500; 50 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "limit_schema")]
    pub limit: Option<u64>,
    /// How many affected components to skip first (0 when absent): the `next_offset` of the
    /// previous page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "offset_schema")]
    pub offset: Option<u64>,
}

/// Affected components per page when the call does not say.
pub const DEFAULT_LIMIT: u64 = 50;
/// The most affected components a page may hold.
pub const MAX_LIMIT: u64 = 500;
/// How many entries of each file list, and reasons of each component, a result keeps.
const LIST_CAP: usize = 50;
/// How many reasons each component keeps.
const REASONS_CAP: usize = 10;
/// How many test commands, untested components and results a test run's result keeps.
const RUN_CAP: usize = 100;

fn limit_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "integer",
        "description": "How many affected components to return (1 to 500; 50 when absent)."
    })
}

fn offset_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "integer",
        "description": "How many affected components to skip first (0 when absent): the `next_offset` of the previous page."
    })
}

/// Refuses a `field` given outside 1 to `max`; `help` says what to give instead.
fn check_within(
    tool: &str,
    field: &str,
    value: Option<u64>,
    max: u64,
    help: &str,
) -> Result<(), String> {
    match value {
        Some(value) if !(1..=max).contains(&value) => Err(format!(
            "invalid input at `{field}`: {value} is outside 1 to {max}\nhelp: give {help}\nnothing was done; fix the arguments and call {tool} again"
        )),
        _ => Ok(()),
    }
}

impl BlastRadiusArguments {
    /// Checks the change and the page.
    pub fn check(&self, tool: &str) -> Result<(), String> {
        self.change().check(tool)?;
        check_within(
            tool,
            "limit",
            self.limit,
            MAX_LIMIT,
            &format!(
                "a number of components from 1 to {MAX_LIMIT}, or leave it out for {DEFAULT_LIMIT}"
            ),
        )
    }

    /// The change part of the arguments.
    pub fn change(&self) -> ChangeArguments {
        ChangeArguments {
            modified_files: self.modified_files.clone(),
            base: self.base.clone(),
        }
    }

    /// The page: components to skip, and to keep.
    fn page(&self) -> (usize, usize) {
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        (
            size(self.offset.unwrap_or(0)),
            size(self.limit.unwrap_or(DEFAULT_LIMIT)),
        )
    }
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
        check_within(
            tool,
            "timeout_seconds",
            self.timeout_seconds,
            MAX_TIMEOUT_SECONDS,
            &format!(
                "a whole number of seconds from 1 to {MAX_TIMEOUT_SECONDS}, or leave it out for {DEFAULT_TIMEOUT_SECONDS}"
            ),
        )
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
    tool_schema(inlined::<BlastRadiusArguments>())
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
        // serde names the Rust type of a number; the caller knows JSON's.
        let message = error
            .inner()
            .to_string()
            .replace("expected u64", "expected a whole number of 0 or more");
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

    /// Whether the call was cancelled: by the client, or by the end of the session.
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

/// The blast radius of `arguments`' change in the repository at `dir`, as `astrix
/// blast-radius --format json` prints it, bounded: one page of the affected components (with
/// at most [`REASONS_CAP`] reasons each), at most [`LIST_CAP`] entries of each file list,
/// the counts of everything, a `summary`, and how to ask for more.
pub fn blast_radius(
    dir: &Path,
    env: &EnvSnapshot,
    arguments: &BlastRadiusArguments,
    log: &mut dyn Write,
) -> Result<serde_json::Value, String> {
    let analysis = analyze(dir, env, &arguments.change(), log)?;
    let radius = serde_json::to_value(&analysis.radius)
        .map_err(|error| format!("astrix could not write the blast radius: {error}"))?;
    let (offset, limit) = arguments.page();
    let mut bounded = bounded_radius(radius, offset, limit);
    if analysis.radius.changed_files.is_empty() {
        add_to_summary(&mut bounded, &nothing_changed(&arguments.change()));
    }
    Ok(bounded)
}

/// Why a change has no files, and what to do: for the staged change, that nothing is staged.
fn nothing_changed(change: &ChangeArguments) -> String {
    if change.modified_files.is_none() && change.base.is_none() {
        "; nothing is staged: pass `modified_files` (the files you plan to change) or `base` to analyse another change".to_owned()
    } else {
        String::new()
    }
}

fn add_to_summary(value: &mut serde_json::Value, text: &str) {
    if let Some(serde_json::Value::String(summary)) = value.get_mut("summary") {
        summary.push_str(text);
    }
}

/// `radius` (the JSON of `astrix blast-radius`) cut to one page of `limit` components from
/// `offset`, with the counts of what was cut.
fn bounded_radius(radius: serde_json::Value, offset: usize, limit: usize) -> serde_json::Value {
    let serde_json::Value::Object(mut radius) = radius else {
        return radius;
    };
    let mut truncated = false;
    let mut cap = |object: &mut JsonObject, key: &str, keep_from: usize, keep: usize| -> usize {
        let Some(serde_json::Value::Array(items)) = object.get_mut(key) else {
            return 0;
        };
        let total = items.len();
        let start = keep_from.min(total);
        let end = start.saturating_add(keep).min(total);
        if start > 0 || end < total {
            truncated = true;
            *items = items.drain(start..end).collect();
        }
        total
    };
    let changed = cap(&mut radius, "changed_files", 0, LIST_CAP);
    let unowned = cap(&mut radius, "unowned_files", 0, LIST_CAP);
    let ignored = cap(&mut radius, "ignored_files", 0, LIST_CAP);
    let all_reasons = cap(&mut radius, "all_reasons", 0, REASONS_CAP);
    let affected = cap(&mut radius, "components", offset, limit);
    let mut shown = 0;
    if let Some(serde_json::Value::Array(components)) = radius.get_mut("components") {
        shown = components.len();
        for component in components
            .iter_mut()
            .filter_map(serde_json::Value::as_object_mut)
        {
            // A declared component without a directory has no `root` (rather than `null`):
            // the published schema has one type per field.
            if component
                .get("root")
                .is_some_and(serde_json::Value::is_null)
            {
                component.remove("root");
            }
            let reasons = cap(component, "reasons", 0, REASONS_CAP);
            component.insert("reasons_count".to_owned(), reasons.into());
        }
    }
    let next = offset.saturating_add(shown);
    let mut summary = format!(
        "{affected} of {} components affected by {changed} changed files",
        radius
            .get("total_components")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0)
    );
    if radius.get("all_affected") == Some(&serde_json::Value::Bool(true)) {
        summary.push_str(" (every component)");
    }
    if shown == 0 && affected > 0 {
        summary.push_str(&format!("; none shown from `offset: {offset}`"));
    } else if shown < affected {
        summary.push_str(&format!(
            "; components {} to {next} shown",
            offset.saturating_add(1)
        ));
    }
    for (key, count) in [
        ("changed_files_count", changed),
        ("unowned_files_count", unowned),
        ("ignored_files_count", ignored),
        ("affected_count", affected),
        ("all_reasons_count", all_reasons),
    ] {
        radius.insert(key.to_owned(), count.into());
    }
    radius.insert("truncated".to_owned(), truncated.into());
    if next < affected {
        radius.insert("next_offset".to_owned(), next.into());
        summary.push_str(&format!(
            "; call again with `offset: {next}` for the next components"
        ));
    }
    if truncated {
        summary.push_str(&format!(
            "; lists keep their first {LIST_CAP} files and {REASONS_CAP} reasons (the `_count` fields say how many there are; `astrix blast-radius --format json` prints everything)"
        ));
    }
    // The summary first, for a reader of the text.
    let mut bounded = JsonObject::new();
    bounded.insert("summary".to_owned(), summary.into());
    bounded.extend(radius);
    serde_json::Value::Object(bounded)
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
    let listed = |items: &[TestCommand]| items.iter().take(RUN_CAP).cloned().collect::<Vec<_>>();
    let mut output = serde_json::json!({
        "summary": "",
        "schema_version": SCHEMA_VERSION,
        "dry_run": arguments.dry_run,
        "tests": listed(&tests.tests),
        "tests_count": tests.tests.len(),
        "untested": tests.untested.iter().take(RUN_CAP).collect::<Vec<_>>(),
        "untested_count": tests.untested.len(),
    });
    let untested = match tests.untested.len() {
        0 => String::new(),
        1 => "; 1 affected component has no test command (see `untested`)".to_owned(),
        n => format!("; {n} affected components have no test command (see `untested`)"),
    };
    let untested = format!(
        "{untested}{}",
        if analysis.radius.changed_files.is_empty() {
            nothing_changed(&arguments.change())
        } else {
            String::new()
        }
    );
    let cut = if tests.tests.len() > RUN_CAP || tests.untested.len() > RUN_CAP {
        format!("; lists keep their first {RUN_CAP} entries (see the `_count` fields)")
    } else {
        String::new()
    };
    if arguments.dry_run {
        output["summary"] = format!(
            "dry run: {} test commands would run{untested}{cut}",
            tests.tests.len()
        )
        .into();
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
    let failed = results.iter().filter(|result| !result.passed).count();
    output["results"] = kept_results(&results)
        .into_iter()
        .map(result_json)
        .collect();
    // At the time limit the running command was stopped and the rest did not start.
    let timed_out =
        results.len() < tests.tests.len() || results.iter().any(|result| result.timed_out);
    output["results_count"] = results.len().into();
    output["passed"] = (passed && !timed_out).into();
    let mut summary = format!(
        "{} of {} test commands ran: {} passed, {failed} failed",
        results.len(),
        tests.tests.len(),
        results.len() - failed
    );
    if timed_out {
        output["timed_out"] = true.into();
        summary.push_str(&format!(
            "; the time limit ({} s) stopped the run, so nothing after it was proven",
            arguments.timeout().as_secs()
        ));
    }
    if results.len() > RUN_CAP {
        summary.push_str(&format!(
            "; `results` keeps {RUN_CAP} of them, failed ones first"
        ));
    }
    output["summary"] = format!("{summary}{untested}{cut}").into();
    Ok(output)
}

/// One result as the tool returns it.
fn result_json(result: &TestResult) -> serde_json::Value {
    let mut value = serde_json::json!({
        "component": result.component,
        "command": result.command,
        "duration_ms": result.duration_ms,
        "passed": result.passed,
        "output_tail": output_tail(&result.output),
    });
    // Left out rather than `null` when a signal ended it: the published schema has one
    // type per field.
    if let Some(code) = result.exit_code {
        value["exit_code"] = code.into();
    }
    if result.timed_out {
        value["timed_out"] = true.into();
    }
    value
}

/// The results a call returns: all of them up to [`RUN_CAP`], else the failed ones first
/// (up to the cap) and passed ones after them, in the order they ran.
fn kept_results(results: &[TestResult]) -> Vec<&TestResult> {
    if results.len() <= RUN_CAP {
        return results.iter().collect();
    }
    let failed = results
        .iter()
        .filter(|result| !result.passed)
        .count()
        .min(RUN_CAP);
    let mut passed_room = RUN_CAP - failed;
    let mut failed_room = failed;
    results
        .iter()
        .filter(|result| {
            let room = if result.passed {
                &mut passed_room
            } else {
                &mut failed_room
            };
            let keep = *room > 0;
            *room = room.saturating_sub(1);
            keep
        })
        .collect()
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
    let count =
        |description: &str| serde_json::json!({"type": "integer", "description": description});
    object_schema(serde_json::json!({
        "type": "object",
        "properties": {
            "summary": {"type": "string", "description": "What was found and what was left out, in a sentence or two."},
            "schema_version": {"type": "integer", "description": "The version of this shape."},
            "changed_files": files("The changed files, sorted (at most 50; see `changed_files_count`)."),
            "changed_files_count": count("How many files changed."),
            "total_components": {"type": "integer", "description": "How many components the repository has."},
            "components": {
                "type": "array",
                "description": "One page of the affected components (`limit` from `offset`): directly affected ones first, then by distance.",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "root": {"type": "string", "description": "Its directory (`.` for the root); absent for a declared component without one."},
                        "ecosystem": {"type": "string", "description": "declared, cargo, npm, yarn, pnpm or uv."},
                        "direct": {"type": "boolean", "description": "Whether a changed file affects it directly."},
                        "distance": {"type": "integer", "description": "Dependency steps to the nearest directly affected component."},
                        "reasons": {"type": "array", "items": reason.clone(), "description": "Why, at most 10 (see `reasons_count`)."},
                        "reasons_count": {"type": "integer", "description": "How many reasons it has."}
                    },
                    "required": ["name", "ecosystem", "direct", "distance", "reasons", "reasons_count"]
                }
            },
            "affected_count": count("How many components are affected."),
            "next_offset": count("Present when more affected components follow: the `offset` of the next page."),
            "unowned_files": files("Changed files that no component owns; each makes every component affected (at most 50)."),
            "unowned_files_count": count("How many changed files no component owns."),
            "ignored_files": files("Changed files that `[impact] ignore` matches; they affect nothing (at most 50)."),
            "ignored_files_count": count("How many changed files are ignored."),
            "all_affected": {"type": "boolean", "description": "Whether every component is affected."},
            "all_reasons": {"type": "array", "items": reason, "description": "Why every component is affected (at most 10)."},
            "all_reasons_count": count("How many reasons make every component affected."),
            "truncated": {"type": "boolean", "description": "Whether any list was cut to its first entries or to one page."}
        },
        "required": ["summary", "schema_version", "changed_files", "changed_files_count", "total_components", "components", "affected_count", "unowned_files", "unowned_files_count", "ignored_files", "ignored_files_count", "all_affected", "all_reasons", "all_reasons_count", "truncated"]
    }))
}

/// The output schema of `astrix_run_impacted_tests`.
pub fn run_tests_output_schema() -> Arc<JsonObject> {
    let count =
        |description: &str| serde_json::json!({"type": "integer", "description": description});
    object_schema(serde_json::json!({
        "type": "object",
        "properties": {
            "summary": {"type": "string", "description": "What ran and how it went, in a sentence or two."},
            "schema_version": {"type": "integer", "description": "The version of this shape."},
            "dry_run": {"type": "boolean", "description": "True when the commands were only listed."},
            "tests_count": count("How many test commands the change has."),
            "untested_count": count("How many affected components have no test command."),
            "results_count": count("How many commands ran (absent on a dry run)."),
            "tests": {
                "type": "array",
                "description": "The test commands of the affected components, each once, nearest components first (at most 100).",
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
            "untested": {"type": "array", "items": {"type": "string"}, "description": "Affected components without a test command: nothing proves them (at most 100)."},
            "results": {
                "type": "array",
                "description": "Each command's result, in order (absent on a dry run; at most 100, failed ones first).",
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
        "required": ["summary", "schema_version", "dry_run", "tests", "tests_count", "untested", "untested_count"]
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

    #[test]
    fn kept_results_prefer_failed_ones_in_run_order() {
        let result = |n: usize, passed: bool| TestResult {
            component: format!("c{n}"),
            command: String::new(),
            exit_code: Some(i32::from(!passed)),
            duration_ms: 0,
            passed,
            timed_out: false,
            output: Vec::new(),
        };
        let few: Vec<TestResult> = (0..3).map(|n| result(n, n != 1)).collect();
        assert_eq!(kept_results(&few).len(), 3);
        // 150 results, every tenth failed: the 15 failed ones and the first 85 passed ones.
        let many: Vec<TestResult> = (0..150).map(|n| result(n, n % 10 != 9)).collect();
        let kept = kept_results(&many);
        assert_eq!(kept.len(), RUN_CAP);
        assert_eq!(kept.iter().filter(|result| !result.passed).count(), 15);
        assert_eq!(
            kept.last().map(|result| result.component.as_str()),
            Some("c149")
        );
        let names: Vec<&str> = kept
            .iter()
            .map(|result| result.component.as_str())
            .collect();
        let mut sorted = names.clone();
        sorted.sort_by_key(|name| name[1..].parse::<usize>().unwrap());
        assert_eq!(names, sorted);
    }

    #[test]
    fn bounded_radius_pages_and_counts() {
        let radius = serde_json::json!({
            "changed_files": (0..60).map(|n| format!("f{n}")).collect::<Vec<_>>(),
            "total_components": 3,
            "components": (0..3).map(|n| serde_json::json!({"name": format!("c{n}"), "root": null, "reasons": [{"kind": "file", "file": "f0"}]})).collect::<Vec<_>>(),
            "unowned_files": [],
            "ignored_files": [],
            "all_affected": false,
            "all_reasons": [],
        });
        let page = bounded_radius(radius, 1, 1);
        assert_eq!(page["components"][0]["name"], "c1");
        assert_eq!(page["components"][0].get("root"), None);
        assert_eq!(page["components"][0]["reasons_count"], 1);
        assert_eq!(page["changed_files"].as_array().unwrap().len(), LIST_CAP);
        assert_eq!(page["changed_files_count"], 60);
        assert_eq!(page["next_offset"], 2);
        assert_eq!(page["truncated"], true);
        assert!(
            page["summary"]
                .as_str()
                .unwrap()
                .starts_with("3 of 3 components affected by 60 changed files; components 2 to 2 shown; call again with `offset: 2`"),
            "{page}"
        );
    }

    rejects!(
        zero_timeout,
        {"timeout_seconds": 0},
        ["invalid input at `timeout_seconds`: 0 is outside 1 to 3600"]
    );
    rejects!(
        negative_timeout,
        {"timeout_seconds": -1},
        ["invalid input at `timeout_seconds`: invalid value: integer `-1`, expected a whole number of 0 or more"]
    );
    rejects!(
        empty_base,
        {"base": " "},
        ["at `base`: the revision is empty"]
    );
}
