//! The raw records: the structure of an Astrixfile as phase 1 (`read.rs`) found it, with
//! the span of every value, before any meaning is checked. Phase 2 (`validate/`) sees the
//! file only through these.

use std::ops::Range;

use toml::Spanned;
use toml::de::DeValue;

/// A value with the byte range it was written at.
#[derive(Debug, Clone)]
pub(super) struct At<T> {
    pub(super) value: T,
    pub(super) span: Range<usize>,
}

/// A list of strings, each with its span.
pub(super) type StringList = At<Vec<At<String>>>;

/// The whole file: its top-level keys and every table.
#[derive(Debug, Default)]
pub(super) struct RawPolicy<'d, 'i> {
    pub(super) version: Option<At<RawInteger>>,
    pub(super) default: Option<At<String>>,
    pub(super) test_paths: Option<StringList>,
    pub(super) test_collect: Option<StringList>,
    pub(super) environments: Vec<RawEnvironment>,
    pub(super) agent_env: Option<StringList>,
    pub(super) agent_authors: Option<StringList>,
    pub(super) agent_trailers: Option<StringList>,
    pub(super) approval_ttl: Option<At<String>>,
    pub(super) commit_trailers: Option<At<bool>>,
    pub(super) ci_require_provenance: Option<At<bool>>,
    pub(super) rules: Vec<RawRule>,
    pub(super) cases: Vec<RawCase<'d, 'i>>,
    pub(super) components: Vec<RawComponent>,
    pub(super) impact: RawImpact,
    pub(super) facts_exclude: Option<StringList>,
    pub(super) trusted_remotes: Option<StringList>,
}

/// An integer as written: its value when it fits, and its text for messages.
#[derive(Debug)]
pub(super) struct RawInteger {
    pub(super) value: Option<i128>,
    pub(super) text: String,
}

/// A `[[component]]`.
#[derive(Debug)]
pub(super) struct RawComponent {
    pub(super) name: Option<At<String>>,
    pub(super) paths: Option<StringList>,
    pub(super) depends_on: Option<StringList>,
    pub(super) test: Option<At<String>>,
}

/// `[impact]`.
#[derive(Debug, Default)]
pub(super) struct RawImpact {
    pub(super) ignore: Option<StringList>,
    pub(super) global: Option<StringList>,
    pub(super) discover: Option<RawDiscover>,
}

/// `[impact] discover`: a boolean, or the directories whose workspaces are discovered.
#[derive(Debug)]
pub(super) enum RawDiscover {
    Flag(bool),
    Dirs(StringList),
}

/// An `[[environment]]`.
#[derive(Debug)]
pub(super) struct RawEnvironment {
    pub(super) name: Option<At<String>>,
    pub(super) branches: Option<StringList>,
}

/// A `[[rule]]`; `header` is where a missing key is reported.
#[derive(Debug)]
pub(super) struct RawRule {
    pub(super) header: Range<usize>,
    pub(super) id: Option<At<String>>,
    pub(super) actor: Option<StringList>,
    pub(super) env: Option<StringList>,
    pub(super) paths: Option<StringList>,
    pub(super) only_paths: Option<StringList>,
    pub(super) modifies_tests: Option<At<bool>>,
    pub(super) action: Option<StringList>,
    pub(super) ignore_case: Option<At<bool>>,
    pub(super) decision: Option<At<String>>,
    /// `decision` is present, even with the wrong type.
    pub(super) has_decision: bool,
    pub(super) reason: Option<At<String>>,
    pub(super) policy: Option<At<String>>,
    /// `policy` is present, even with the wrong type.
    pub(super) has_policy: bool,
}

/// A `[[test]]`; `header` is where a missing key is reported.
#[derive(Debug)]
pub(super) struct RawCase<'d, 'i> {
    pub(super) header: Range<usize>,
    pub(super) name: Option<At<String>>,
    /// The inline table as written: validation converts it to JSON, and finds the place of
    /// an error in it.
    pub(super) intent: Option<&'d Spanned<DeValue<'i>>>,
    pub(super) expect: Option<At<String>>,
}
