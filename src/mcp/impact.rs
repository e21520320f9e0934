//! The arguments of `astrix_get_blast_radius` and `astrix_run_impacted_tests`: which change
//! to analyse (the staged one, named files, or the commits since a base revision), and
//! whether to run the tests.
//!
//! Both tools read the arguments strictly, as `astrix_evaluate_policy` reads its intent:
//! unknown fields are rejected, paths are normalised repository-relative paths, and every
//! problem is an in-band tool error that names the field and the fix.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::Deserialize;

use super::tool_schema;
use crate::commands::schema::inlined;
use crate::intent::RepoPath;

/// Which change a tool analyses.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeArguments {
    /// Repository-relative paths (with `/` separators) of the files to analyse, such as the
    /// files you plan to change, instead of the staged change. Give this or `base`, not both.
    #[serde(default)]
    #[schemars(with = "Vec<RepoPath>")]
    pub modified_files: Option<Vec<RepoPath>>,
    /// A git revision (branch, tag or commit id): analyse the commits of HEAD since its merge
    /// base with this revision, instead of the staged change. Give this or `modified_files`,
    /// not both.
    #[serde(default)]
    #[schemars(with = "String")]
    pub base: Option<String>,
}

/// The arguments of `astrix_run_impacted_tests`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunTestsArguments {
    /// Repository-relative paths (with `/` separators) of the files to analyse, such as the
    /// files you changed, instead of the staged change. Give this or `base`, not both.
    #[serde(default)]
    #[schemars(with = "Vec<RepoPath>")]
    pub modified_files: Option<Vec<RepoPath>>,
    /// A git revision (branch, tag or commit id): analyse the commits of HEAD since its merge
    /// base with this revision, instead of the staged change. Give this or `modified_files`,
    /// not both.
    #[serde(default)]
    #[schemars(with = "String")]
    pub base: Option<String>,
    /// When true, only list the test commands that would run, and run nothing.
    #[serde(default)]
    pub dry_run: bool,
}

impl RunTestsArguments {
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

/// The text of the tool error while blast radius is not part of this build.
pub const UNAVAILABLE: &str = "blast radius is not available in this build\nhelp: astrix_evaluate_policy works; run the tests you know of yourself";

/// A step of a test run, for a progress notification.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Commands finished so far.
    pub done: u32,
    /// Commands in all.
    pub total: u32,
    /// What is happening, for people.
    pub message: String,
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

/// The blast radius of `change` in the repository at `dir`, as JSON.
pub fn blast_radius(
    _dir: &std::path::Path,
    _env: &crate::env::EnvSnapshot,
    _change: &ChangeArguments,
) -> Result<serde_json::Value, String> {
    Err(UNAVAILABLE.to_owned())
}

/// The impacted tests of `arguments`' change in the repository at `dir`, run unless
/// `dry_run`, as JSON.
pub fn impacted_tests(
    _dir: &std::path::Path,
    _env: &crate::env::EnvSnapshot,
    _arguments: &RunTestsArguments,
    _control: &RunControl,
) -> Result<serde_json::Value, String> {
    Err(UNAVAILABLE.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(arguments: serde_json::Value) -> Result<RunTestsArguments, String> {
        let serde_json::Value::Object(arguments) = arguments else {
            panic!("arguments are an object");
        };
        let read: RunTestsArguments = read_arguments("astrix_run_impacted_tests", &arguments)?;
        read.change().check("astrix_run_impacted_tests")?;
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
        ["invalid input at `files`: unknown field `files`", "expected one of `modified_files`, `base`, `dry_run`", "remove `files`"]
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
    rejects!(
        empty_base,
        {"base": " "},
        ["at `base`: the revision is empty"]
    );
}
