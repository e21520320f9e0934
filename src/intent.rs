//! The ActionIntent: what an actor is about to do, as JSON (SPEC §2).
//!
//! The model is strict: unknown fields are rejected at every level, `modifies_tests` is the
//! string `"true"` or `"false"`, and `modified_files` holds normalised repository-relative
//! paths. The optional `diff` counts keep their JSON text ([`RawCount`]) so that a number is
//! converted exactly, and only when a policy reads it (SPEC §4).

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::policy::numeric::{self, ConversionFailure};

/// The actor type of autonomous agents (`actor.type`).
pub const AUTONOMOUS_LLM: &str = "autonomous_llm";
/// The actor type when nothing says otherwise.
pub const HUMAN: &str = "human";

/// Who is acting, and how that was found (an environment variable, a commit's author or
/// trailers), for reports.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ResolvedActor {
    /// `actor.type`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `actor.id`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// How the actor was found, for the report: the variable that decided, or the default.
    pub decided_by: String,
}

/// A proposed action, evaluated against the policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionIntent {
    /// Who is acting.
    pub actor: Actor,
    /// Where the action lands.
    pub target: Target,
    /// Repository-relative paths (with `/` separators) of the files the action modifies or would modify; for a rename, both the old and the new path.
    pub modified_files: Vec<RepoPath>,
    /// What the change does to tests, and how large it is. The counts are optional whole
    /// numbers of 0 or more; send a count of 2^53 or more as a decimal string
    /// (`"12345678901234567"`), since a float that large is not trusted to be exact.
    pub diff: Diff,
    /// True only when the human approval that the policy requires is already recorded
    /// (`astrix approve`). It is taken as given here; the commit gate verifies recorded
    /// approvals itself, so claiming one does not let a commit through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "bool")]
    pub approved: Option<bool>,
    /// What is done: a `commit` (when absent) or a `merge` into the target (`astrix ci` judges
    /// a pull request's range as one). Left out of the published MCP schema, which is
    /// unchanged; `astrix schema intent` adds it ([`add_action_to_schema`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub action: Option<Action>,
}

/// What an intent does: `commit` (the default) or `merge`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A commit made on the target's branch (what the commit gate judges).
    Commit,
    /// Commits made elsewhere, merged into the target as a whole (a pull request).
    Merge,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 2] = [Action::Commit, Action::Merge];

    /// The name used in Astrixfile.ax and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Action::Commit => "commit",
            Action::Merge => "merge",
        }
    }

    /// The action with this name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|action| action.name() == name)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl ActionIntent {
    /// The intent's action: `commit` when it names none.
    pub fn action(&self) -> Action {
        self.action.unwrap_or(Action::Commit)
    }
}

/// Adds the optional `action` property to a generated ActionIntent schema: the field is
/// skipped by the generator so that the MCP tool schema stays as published.
pub fn add_action_to_schema(schema: &mut serde_json::Value) {
    if let Some(properties) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        properties.insert(
            "action".to_owned(),
            serde_json::json!({
                "description": "What is done: `commit` (when absent) or `merge`, a pull request's commits merged into the target as a whole (`astrix ci`).",
                "type": "string",
                "enum": ["commit", "merge"],
            }),
        );
    }
}

/// The acting party.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Actor {
    /// The actor category the policy evaluates, for example `autonomous_llm` or `human`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Optional name of the actor, for example `claude-code`; informational only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub id: Option<String>,
}

/// The environment the action targets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// The target environment, for example `development`, `staging` or `production`.
    pub env: String,
}

/// What the change does.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Diff {
    /// Whether the change modifies tests: the string `"true"` or `"false"`, not a JSON boolean.
    pub modifies_tests: ModifiesTests,
    /// Text lines added.
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub lines_added: Option<RawCount>,
    /// Text lines deleted.
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub lines_deleted: Option<RawCount>,
    /// Modified files that are not text.
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub binary_files: Option<RawCount>,
    /// Bytes of added text lines plus the size of added or changed binary files.
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub bytes_added: Option<RawCount>,
    /// Test functions or cases removed (net of those added back).
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub tests_removed: Option<RawCount>,
    /// Skip, ignore, xfail, only or disabled markers added.
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub test_skips_added: Option<RawCount>,
    /// Assertion calls removed (net).
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub assertions_removed: Option<RawCount>,
    /// Assertions that check nothing added (`assert True`, `assert_eq!(x, x)`), or an
    /// assertion redefined (net).
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub assertions_weakened: Option<RawCount>,
    /// Test-runner settings and targets changed (`addopts`, `scripts.test`, a Makefile's
    /// `test` target).
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub test_config_changed: Option<RawCount>,
    /// Components in the blast radius of the change.
    #[serde(
        default,
        deserialize_with = "raw_count",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "RawCount")]
    pub impacted_components: Option<RawCount>,
}

impl Diff {
    /// The optional count with this JSON name, if the name is one of them.
    pub fn count(&self, name: &str) -> Option<&RawCount> {
        match name {
            "lines_added" => self.lines_added.as_ref(),
            "lines_deleted" => self.lines_deleted.as_ref(),
            "binary_files" => self.binary_files.as_ref(),
            "bytes_added" => self.bytes_added.as_ref(),
            "tests_removed" => self.tests_removed.as_ref(),
            "test_skips_added" => self.test_skips_added.as_ref(),
            "assertions_removed" => self.assertions_removed.as_ref(),
            "assertions_weakened" => self.assertions_weakened.as_ref(),
            "test_config_changed" => self.test_config_changed.as_ref(),
            "impacted_components" => self.impacted_components.as_ref(),
            _ => None,
        }
    }

    /// Every optional count, by its JSON name.
    fn counts_mut(&mut self) -> [(&'static str, &mut Option<RawCount>); 10] {
        [
            ("lines_added", &mut self.lines_added),
            ("lines_deleted", &mut self.lines_deleted),
            ("binary_files", &mut self.binary_files),
            ("bytes_added", &mut self.bytes_added),
            ("tests_removed", &mut self.tests_removed),
            ("test_skips_added", &mut self.test_skips_added),
            ("assertions_removed", &mut self.assertions_removed),
            ("assertions_weakened", &mut self.assertions_weakened),
            ("test_config_changed", &mut self.test_config_changed),
            ("impacted_components", &mut self.impacted_components),
        ]
    }
}

fn raw_count<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<RawCount>, D::Error> {
    // `null` is kept as a value (it fails a policy that reads it, SPEC §4) rather than being
    // folded into "absent" by `Option`'s own deserializer.
    RawCount::deserialize(deserializer).map(Some)
}

/// A `diff` count exactly as it was written: its JSON text.
///
/// Any JSON value is accepted; [`RawCount::to_decimal`] turns it into an exact decimal when a
/// policy reads it, and reports why when it cannot.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RawCount {
    json: Box<RawValue>,
    /// The bits of the `f64` that a transport had already decoded the number into (MCP), in
    /// which case the JSON text is that float's text and not what the client sent.
    #[serde(skip)]
    decoded_float: Option<u64>,
}

impl RawCount {
    /// The JSON text of the value.
    pub fn json(&self) -> &str {
        self.json.get()
    }

    /// The value as an exact decimal (SPEC §4): JSON text is read from its own digits with
    /// [`convert`](crate::policy::numeric::convert); a float that a transport had decoded is
    /// read with [`convert_float`](crate::policy::numeric::convert_float), which distrusts
    /// magnitudes of 2^53 or more.
    pub fn to_decimal(&self) -> Result<rust_decimal::Decimal, ConversionFailure> {
        match self.decoded_float {
            Some(bits) => numeric::convert_float(f64::from_bits(bits)),
            None => numeric::convert(self.json()),
        }
    }

    /// The value as a count (SPEC §4): [`RawCount::to_decimal`], which must be a whole number
    /// of zero or more ([`check_count`](crate::policy::numeric::check_count)).
    pub fn to_count(&self) -> Result<rust_decimal::Decimal, ConversionFailure> {
        numeric::check_count(self.to_decimal()?, self.json())
    }

    /// A count from a non-negative integer (used when astrix computes it from git).
    pub fn from_u64(value: u64) -> Self {
        Self::from_json_text(value.to_string()).unwrap_or_else(Self::null)
    }

    /// A count from JSON text; `None` when the text is not one JSON value.
    pub fn from_json_text(text: String) -> Option<Self> {
        RawValue::from_string(text).ok().map(|json| Self {
            json,
            decoded_float: None,
        })
    }

    /// A count that a transport had already decoded into a float (SPEC §4).
    pub fn from_decoded_float(value: f64) -> Self {
        let text = serde_json::Number::from_f64(value)
            .map_or_else(|| "null".to_owned(), |number| number.to_string());
        let json = RawValue::from_string(text).unwrap_or_else(|_| Self::null().json);
        Self {
            json,
            decoded_float: Some(value.to_bits()),
        }
    }

    fn null() -> Self {
        Self {
            json: RawValue::from_string("null".to_owned())
                .unwrap_or_else(|_| unreachable!("`null` is valid JSON")),
            decoded_float: None,
        }
    }
}

impl PartialEq for RawCount {
    fn eq(&self, other: &Self) -> bool {
        self.json() == other.json() && self.decoded_float == other.decoded_float
    }
}

impl Eq for RawCount {}

impl JsonSchema for RawCount {
    fn schema_name() -> Cow<'static, str> {
        "Count".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        // One type, so that clients with a subset of JSON Schema (OpenAPI-style function
        // declarations, strict validators) accept it. The server reads more than it
        // publishes: a decimal string (a count of 2^53 or more, exactly), and `null` or any
        // other value, which fails the policy that reads it rather than the call.
        json_schema!({
            "description": "A count: a whole number, 0 or more. A count of 2^53 or more may be sent as a decimal string (\"12345678901234567\") to stay exact",
            "type": "integer"
        })
    }
}

/// `diff.modifies_tests`: the strings `"true"` and `"false"` of the published interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ModifiesTests(pub bool);

impl Serialize for ModifiesTests {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(if self.0 { "true" } else { "false" })
    }
}

impl<'de> Deserialize<'de> for ModifiesTests {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ModifiesTestsVisitor;

        impl Visitor<'_> for ModifiesTestsVisitor {
            type Value = ModifiesTests;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("the string \"true\" or \"false\"")
            }

            fn visit_bool<E: de::Error>(self, value: bool) -> Result<ModifiesTests, E> {
                Err(E::custom(format_args!(
                    "`modifies_tests` is the string \"true\" or \"false\", not a JSON boolean: \
                     write \"modifies_tests\": \"{value}\""
                )))
            }

            fn visit_str<E: de::Error>(self, value: &str) -> Result<ModifiesTests, E> {
                match value {
                    "true" => Ok(ModifiesTests(true)),
                    "false" => Ok(ModifiesTests(false)),
                    other => Err(E::custom(format_args!(
                        "`modifies_tests` is \"{other}\", but it must be the string \"true\" or \"false\""
                    ))),
                }
            }
        }

        deserializer.deserialize_any(ModifiesTestsVisitor)
    }
}

impl JsonSchema for ModifiesTests {
    fn schema_name() -> Cow<'static, str> {
        "ModifiesTests".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Whether the change modifies tests: the string \"true\" or \"false\" (not a JSON boolean)",
            "type": "string",
            "enum": ["true", "false"]
        })
    }
}

/// A normalised repository-relative path: `/` separators, no leading `/`, no empty, `.` or
/// `..` segment, no backslash.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct RepoPath(String);

impl RepoPath {
    /// Checks `path` and wraps it.
    pub fn new(path: impl Into<String>) -> Result<Self, RepoPathError> {
        let path = path.into();
        if path.is_empty() {
            return Err(RepoPathError::Empty);
        }
        if path.contains('\\') {
            return Err(RepoPathError::Backslash(path));
        }
        if path.starts_with('/') {
            return Err(RepoPathError::Absolute(path));
        }
        if path.contains('\0') {
            return Err(RepoPathError::Nul(path));
        }
        if path
            .split('/')
            .any(|segment| segment.is_empty() || segment == "." || segment == "..")
        {
            return Err(RepoPathError::Segment(path));
        }
        Ok(Self(path))
    }

    /// The path as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for RepoPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for RepoPath {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::new(text).map_err(de::Error::custom)
    }
}

impl JsonSchema for RepoPath {
    fn schema_name() -> Cow<'static, str> {
        "RepoPath".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        // No `minLength`: the published interface stays as wide as portable clients read it;
        // the server still rejects an empty path, with a message saying so.
        json_schema!({
            "description": "A repository-relative path with `/` separators (no leading `/`, no `.` or `..` segments, no backslashes)",
            "type": "string"
        })
    }
}

/// Why a modified file is not a normalised repository-relative path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RepoPathError {
    #[error("an empty path is not a file; remove the empty entry")]
    Empty,
    #[error("`{0}` contains a backslash; write repository paths with `/` separators")]
    Backslash(String),
    #[error("`{0}` is absolute; write it relative to the repository root, without the leading `/`")]
    Absolute(String),
    #[error("`{0}` contains a NUL byte")]
    Nul(String),
    #[error(
        "`{0}` has an empty, `.` or `..` segment; write the normalised path from the repository root"
    )]
    Segment(String),
}

/// An intent that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct IntentError {
    /// Dotted path of the offending field (`diff.modifies_tests`), empty at the top level.
    pub path: String,
    /// What is wrong, from the JSON reader.
    pub message: String,
    /// 1-based line of the problem in the JSON text (0 when unknown).
    pub line: usize,
    /// 1-based column of the problem in the JSON text (0 when unknown).
    pub column: usize,
}

impl IntentError {
    fn render(&self) -> String {
        let mut out = String::from("invalid intent");
        if !self.path.is_empty() && self.path != "." {
            out.push_str(&format!(" at `{}`", self.path));
        }
        if self.line > 0 {
            out.push_str(&format!(" (line {}, column {})", self.line, self.column));
        }
        out.push_str(": ");
        out.push_str(&self.message);
        out
    }
}

impl ActionIntent {
    /// Reads an intent from JSON text, strictly.
    pub fn from_json(text: &str) -> Result<Self, IntentError> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        // Deep nesting is refused by serde_json's own recursion limit (128), so hostile input
        // ends in an error, not a stack overflow.
        if text.trim().is_empty() {
            return Err(IntentError {
                path: String::new(),
                message: "the input is empty; expected an intent, one JSON object".to_owned(),
                line: 0,
                column: 0,
            });
        }
        let intent: Self = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
            // `?` is the reader's placeholder for a place it could not name (broken JSON).
            let path = Some(err.path().to_string())
                .filter(|path| path != "?")
                .unwrap_or_default();
            let inner = err.into_inner();
            let (line, column) = (inner.line(), inner.column());
            IntentError {
                path,
                message: plain_message(&inner),
                line,
                column,
            }
        })?;
        deserializer.end().map_err(|err| IntentError {
            path: String::new(),
            message: plain_message(&err),
            line: err.line(),
            column: err.column(),
        })?;
        check_objects(text)?;
        Ok(intent)
    }

    /// Reads an intent that a transport has already decoded into a JSON value (MCP).
    ///
    /// The value is read as [`ActionIntent::from_json`] reads text, with the same errors. The
    /// decoder kept every integer that fits 64 bits exactly and turned every other number
    /// into an `f64`: such a float in a `diff` count keeps that origin, so that a policy
    /// reading it distrusts a magnitude of 2^53 or more (SPEC §4).
    pub fn from_decoded(value: &serde_json::Value) -> Result<Self, IntentError> {
        let mut intent = Self::from_json(&value.to_string())?;
        let sent = value.get("diff").and_then(serde_json::Value::as_object);
        for (name, count) in intent.diff.counts_mut() {
            if let Some(serde_json::Value::Number(number)) = sent.and_then(|diff| diff.get(name))
                && let (true, Some(float)) = (number.is_f64(), number.as_f64())
            {
                *count = Some(RawCount::from_decoded_float(float));
            }
        }
        Ok(intent)
    }

    /// The intent as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|err| format!("{{\"error\": \"{err}\"}}"))
    }

    /// The intent as indented JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|err| format!("{{\"error\": \"{err}\"}}"))
    }
}

/// serde's derived structs also accept a JSON array (fields by position); an intent and its
/// nested records must be objects, so that every field is named.
fn check_objects(text: &str) -> Result<(), IntentError> {
    #[derive(Deserialize)]
    struct Shape<'a> {
        #[serde(borrow)]
        actor: &'a RawValue,
        #[serde(borrow)]
        target: &'a RawValue,
        #[serde(borrow)]
        diff: &'a RawValue,
    }
    let not_object = |path: &str| IntentError {
        path: path.to_owned(),
        message: "expected a JSON object with named fields".to_owned(),
        line: 0,
        column: 0,
    };
    if !text.trim_start().starts_with('{') {
        return Err(not_object(""));
    }
    let shape: Shape<'_> = serde_json::from_str(text).map_err(|_| not_object(""))?;
    for (path, raw) in [
        ("actor", shape.actor),
        ("target", shape.target),
        ("diff", shape.diff),
    ] {
        if !raw.get().trim_start().starts_with('{') {
            return Err(not_object(path));
        }
    }
    Ok(())
}

/// What the JSON reader said, in the terms of the intent rather than of its Rust types or
/// of the parser: the position is reported separately, and the message keeps the reader's
/// first words (`invalid type`, `unknown field`, `missing field`), which callers match on.
fn plain_message(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let message = strip_position(&error.to_string());
    match error.classify() {
        Category::Eof => {
            "the JSON text ends before the intent does: an object, list or string is not closed"
                .to_owned()
        }
        Category::Syntax => {
            let what = match message.as_str() {
                "expected ident" => {
                    "a bare word where a value belongs: strings go in double quotes, and the only bare words are `true`, `false` and `null`"
                }
                "key must be a string" => "a key that is not a string: keys go in double quotes",
                "trailing characters" => "more text after the intent's closing `}`",
                "trailing comma" => "a comma after the last entry of an object or list",
                _ => message.as_str(),
            };
            format!("not valid JSON: {what}")
        }
        Category::Data | Category::Io => {
            if message.starts_with("invalid length") && message.contains("expected struct") {
                return "expected a JSON object with named fields, not a list".to_owned();
            }
            let mut message = message;
            for (rust, intent) in [
                (
                    "expected struct ActionIntent",
                    "expected an intent: a JSON object with `actor`, `target`, `modified_files` and `diff`",
                ),
                (
                    "expected struct Actor",
                    "expected an object with `type` and an optional `id`",
                ),
                ("expected struct Target", "expected an object with `env`"),
                (
                    "expected struct Diff",
                    "expected an object with `modifies_tests` and optional counts",
                ),
                ("expected a sequence", "expected a list of paths"),
            ] {
                message = message.replace(rust, intent);
            }
            message
        }
    }
}

/// `serde_json` appends " at line L column C"; the position is reported separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_owned(),
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"{"actor":{"type":"human"},"target":{"env":"development"},"modified_files":["src/lib.rs"],"diff":{"modifies_tests":"false"}}"#;

    #[test]
    fn reads_a_minimal_intent() {
        let intent = ActionIntent::from_json(MINIMAL).unwrap();
        assert_eq!(intent.actor.kind, "human");
        assert_eq!(intent.target.env, "development");
        assert_eq!(intent.modified_files[0].as_str(), "src/lib.rs");
        assert!(!intent.diff.modifies_tests.0);
        assert_eq!(intent.approved, None);
    }

    #[test]
    fn round_trips() {
        let text = r#"{"actor":{"type":"autonomous_llm","id":"claude-code"},"target":{"env":"production"},"modified_files":["a","b/c"],"diff":{"modifies_tests":"true","lines_added":123456789012345678901234567,"lines_deleted":"8","binary_files":null},"approved":true}"#;
        let intent = ActionIntent::from_json(text).unwrap();
        assert_eq!(intent.to_json(), text);
        assert_eq!(
            intent.diff.lines_added.as_ref().unwrap().json(),
            "123456789012345678901234567"
        );
        assert_eq!(intent.diff.binary_files.as_ref().unwrap().json(), "null");
    }

    macro_rules! rejects {
        ($name:ident, $json:expr, $path:expr, $needle:expr) => {
            #[test]
            fn $name() {
                let err = ActionIntent::from_json($json).unwrap_err();
                assert_eq!(err.path, $path, "{err}");
                assert!(err.message.contains($needle), "{err}");
            }
        };
    }

    rejects!(
        boolean_modifies_tests,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":true}}"#,
        "diff.modifies_tests",
        "write \"modifies_tests\": \"true\""
    );
    rejects!(
        other_string_modifies_tests,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"yes"}}"#,
        "diff.modifies_tests",
        "\"yes\""
    );
    rejects!(
        unknown_top_field,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false"},"extra":1}"#,
        "extra",
        "unknown field `extra`"
    );
    rejects!(
        unknown_nested_field,
        r#"{"actor":{"type":"human","name":"x"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false"}}"#,
        "actor.name",
        "unknown field `name`"
    );
    rejects!(
        unknown_diff_field,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false","lines_changed":3}}"#,
        "diff.lines_changed",
        "unknown field `lines_changed`"
    );
    rejects!(
        missing_actor_type,
        r#"{"actor":{},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false"}}"#,
        "actor",
        "missing field `type`"
    );
    rejects!(
        missing_modifies_tests,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{}}"#,
        "diff",
        "missing field `modifies_tests`"
    );
    rejects!(
        missing_modified_files,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"diff":{"modifies_tests":"false"}}"#,
        ".",
        "missing field `modified_files`"
    );
    rejects!(
        absolute_path,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":["/etc/passwd"],"diff":{"modifies_tests":"false"}}"#,
        "modified_files[0]",
        "is absolute"
    );
    rejects!(
        dotdot_path,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":["a/../b"],"diff":{"modifies_tests":"false"}}"#,
        "modified_files[0]",
        "`..`"
    );
    rejects!(
        dot_path,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":["ok","./b"],"diff":{"modifies_tests":"false"}}"#,
        "modified_files[1]",
        "`.`"
    );
    rejects!(
        backslash_path,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":["a\\b"],"diff":{"modifies_tests":"false"}}"#,
        "modified_files[0]",
        "backslash"
    );
    rejects!(
        empty_path,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[""],"diff":{"modifies_tests":"false"}}"#,
        "modified_files[0]",
        "empty"
    );
    rejects!(
        trailing_garbage,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false"}} x"#,
        "",
        "not valid JSON: more text after the intent's closing `}`"
    );

    rejects!(
        a_bare_word_says_how_values_are_written,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false"},"approved":tru}"#,
        "approved",
        "not valid JSON: a bare word where a value belongs: strings go in double quotes"
    );

    rejects!(
        an_actor_that_is_a_string_is_described_as_the_intent_has_it,
        r#"{"actor":"claude","target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false"}}"#,
        "actor",
        "invalid type: string \"claude\", expected an object with `type` and an optional `id`"
    );

    rejects!(
        a_truncated_intent_says_what_is_not_closed,
        r#"{"actor":{"type":"human"}"#,
        "",
        "the JSON text ends before the intent does: an object, list or string is not closed"
    );

    rejects!(
        an_empty_input_is_named,
        " \n",
        "",
        "the input is empty; expected an intent, one JSON object"
    );

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        // Inside a count it is kept as text (and fails any policy that reads it) ...
        let text = format!(
            r#"{{"actor":{{"type":"h"}},"target":{{"env":"d"}},"modified_files":[],"diff":{{"modifies_tests":"false","lines_added":{deep}}}}}"#
        );
        assert!(ActionIntent::from_json(&text).is_ok());
        // ... and anywhere else it is an error.
        let text = format!(r#"{{"actor":{deep}}}"#);
        assert!(ActionIntent::from_json(&text).is_err());
        assert!(ActionIntent::from_json(&deep).is_err());
    }

    rejects!(
        array_instead_of_object,
        r#"[{"type":"human"},{"env":"d"},[],{"modifies_tests":"false"}]"#,
        "",
        "JSON object"
    );
    rejects!(
        array_actor,
        r#"{"actor":["human"],"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false"}}"#,
        "actor",
        "JSON object"
    );

    /// The decoder astrix is built with keeps integers that fit 64 bits exactly and turns
    /// every other number into an `f64`. `from_decoded` relies on that: `serde_json`'s
    /// `arbitrary_precision` feature, if a dependency ever enabled it, would change it.
    #[test]
    fn decoded_numbers_are_exact_integers_or_floats() {
        let value: serde_json::Value = serde_json::from_str(
            "[9007199254740993, -9007199254740993, 18446744073709551616, 9007199254740993.0, 1e3]",
        )
        .unwrap();
        let numbers: Vec<_> = value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_number().unwrap().clone())
            .collect();
        assert_eq!(numbers[0].as_u64(), Some(9_007_199_254_740_993));
        assert_eq!(numbers[1].as_i64(), Some(-9_007_199_254_740_993));
        assert!(numbers[2].is_f64());
        assert!(numbers[3].is_f64());
        assert!(numbers[4].is_f64());
    }

    fn decoded_count(count: &str) -> Result<rust_decimal::Decimal, ConversionFailure> {
        let text = format!(
            r#"{{"actor":{{"type":"h"}},"target":{{"env":"d"}},"modified_files":[],"diff":{{"modifies_tests":"false","lines_added":{count}}}}}"#
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let intent = ActionIntent::from_decoded(&value).unwrap();
        intent.diff.lines_added.unwrap().to_decimal()
    }

    #[test]
    fn decoded_integers_are_exact() {
        let exact = |text: &str| Ok(rust_decimal::Decimal::from_str_exact(text).unwrap());
        assert_eq!(decoded_count("9007199254740993"), exact("9007199254740993"));
        assert_eq!(
            decoded_count("18446744073709551615"),
            exact("18446744073709551615")
        );
        assert_eq!(
            decoded_count("\"123456789012345678901234567\""),
            exact("123456789012345678901234567")
        );
        assert_eq!(decoded_count("120.0"), exact("120"));
        assert_eq!(decoded_count("0.1"), exact("0.1"));
    }

    #[test]
    fn decoded_floats_of_2_pow_53_or_more_are_untrusted() {
        for count in [
            "9007199254740992.0",
            "9007199254740993.5",
            "1e300",
            "-1e16",
            "18446744073709551616",
            "123456789012345678901234567",
        ] {
            assert!(
                matches!(
                    decoded_count(count),
                    Err(ConversionFailure::UntrustedFloat(_))
                ),
                "{count}"
            );
        }
        // The same text read by `from_json` is exact: only a decoded float is distrusted.
        let text = r#"{"actor":{"type":"h"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false","lines_added":123456789012345678901234567}}"#;
        let intent = ActionIntent::from_json(text).unwrap();
        assert!(intent.diff.lines_added.unwrap().to_decimal().is_ok());
    }

    #[test]
    fn decoded_intents_fail_like_text() {
        let value = serde_json::json!({"actor":{"type":"h"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":true}});
        let err = ActionIntent::from_decoded(&value).unwrap_err();
        assert_eq!(err.path, "diff.modifies_tests");
        assert!(
            err.message.contains("write \"modifies_tests\": \"true\""),
            "{err}"
        );
    }

    #[test]
    fn error_reports_line_and_column() {
        let err = ActionIntent::from_json("{\n  \"actor\": 3\n}").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(
            err.to_string()
                .starts_with("invalid intent at `actor` (line 2")
        );
    }
}
