//! The validated policy: what an Astrixfile.ax means once every problem has been ruled out.
//!
//! [`load()`] turns source text into a [`Policy`] or a list of diagnostics; nothing in the
//! evaluator ever sees raw TOML or uncompiled patterns.

pub mod glob;
mod keys;
pub mod load;
pub mod numeric;
mod raw;
mod read;
pub mod schema;
#[cfg(test)]
mod testing;
mod text;
mod validate;
pub mod wildcard;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::intent::ActionIntent;
use glob::{ListId, Matcher};
use numeric::NumericPolicy;
use wildcard::Wildcard;

pub use load::{MAX_POLICY_BYTES, load};

/// The file name astrix reads at the repository root.
pub const FILE_NAME: &str = "Astrixfile.ax";

/// The text of the policy file `file`, or a diagnostic at its first byte that is not UTF-8:
/// an Astrixfile is TOML, which is UTF-8 text, and a binary file in its place (or a text in
/// another encoding) is refused, never read lossily. Every reader of a policy file (a path,
/// HEAD, the index) decodes it here.
pub fn decode(file: &str, bytes: Vec<u8>) -> Result<String, crate::diagnostic::Diagnostics> {
    use crate::diagnostic::{Code, Diagnostic, Diagnostics};

    let error = match String::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(error) => error,
    };
    let at = error.utf8_error().valid_up_to();
    let bytes = error.as_bytes();
    let byte = bytes.get(at).copied().unwrap_or_default();
    // The valid prefix is kept byte for byte, so the span starts at the same offset; the bad
    // sequence becomes U+FFFD. Control characters are made visible, so that a binary file
    // cannot drive the terminal through the excerpt.
    let shown: String = String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                char::REPLACEMENT_CHARACTER
            } else {
                c
            }
        })
        .collect();
    let start = String::from_utf8_lossy(&bytes[..at])
        .chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                char::REPLACEMENT_CHARACTER.len_utf8()
            } else {
                c.len_utf8()
            }
        })
        .sum::<usize>();
    let mut diagnostics = Diagnostics::new(file, &shown);
    diagnostics.items.push(
        Diagnostic::new(
            Code::TomlSyntax,
            start..start + char::REPLACEMENT_CHARACTER.len_utf8(),
            format!("`{file}` is not UTF-8 text: byte `0x{byte:02x}` is not part of a UTF-8 character"),
        )
        .with_label("not UTF-8")
        .with_help(
            "an Astrixfile is a TOML file, which is UTF-8 text; was a binary file put in its place, or was it saved in another encoding?",
        ),
    );
    Err(diagnostics)
}

/// The built-in default policy, used when a repository has none and written by `astrix init`.
pub const DEFAULT_POLICY: &str = include_str!("default.ax");

/// `sha256:<hex>` of [`DEFAULT_POLICY`], computed when astrix is built.
pub const DEFAULT_POLICY_DIGEST: &str = env!("ASTRIX_DEFAULT_POLICY_DIGEST");

/// [`DEFAULT_POLICY`] without its `[[test]]` cases, which come last in the file: what judges
/// when the cases are not run. Reading it costs half of reading the whole file (the cases
/// are inline tables), and it is read on every commit of a repository without a policy.
pub const DEFAULT_POLICY_RULES: &str = DEFAULT_POLICY.split_at(first_case(DEFAULT_POLICY)).0;

/// The offset of the line `[[test]]` that starts the first case of `text` (its length when
/// there is none).
const fn first_case(text: &str) -> usize {
    const HEADER: &[u8] = b"\n[[test]]\n";
    let bytes = text.as_bytes();
    let mut at = 0;
    while at + HEADER.len() <= bytes.len() {
        let mut same = 0;
        while same < HEADER.len() && bytes[at + same] == HEADER[same] {
            same += 1;
        }
        if same == HEADER.len() {
            return at + 1;
        }
        at += 1;
    }
    bytes.len()
}

/// What a rule (or the policy's default) decides.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Let the action through.
    Allow,
    /// Hold the action until a human approves it.
    RequireApproval,
    /// Block the action; approval cannot lift it.
    Deny,
}

impl Verdict {
    /// Every verdict, in the order of strength.
    pub const ALL: [Verdict; 3] = [Verdict::Allow, Verdict::RequireApproval, Verdict::Deny];

    /// The name used in Astrixfile.ax and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::RequireApproval => "require_approval",
            Verdict::Deny => "deny",
        }
    }

    /// The verdict with this name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|verdict| verdict.name() == name)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A validated Astrixfile.
#[derive(Debug, Clone)]
pub struct Policy {
    /// `version`; always 1 for now.
    pub version: u32,
    /// `default`: the decision when no rule contributes.
    pub default: Verdict,
    /// `[tests].paths`, as the original patterns.
    pub test_patterns: Vec<String>,
    /// The list of `[tests].paths` inside [`Policy::matcher`].
    pub tests_list: ListId,
    /// `[tests].collect`: shell commands that print the tests a runner collects, one per
    /// line, which `astrix ci` runs on the merge base and on the head.
    pub test_collect: Vec<String>,
    /// `[[environment]]` in file order.
    pub environments: Vec<Environment>,
    /// `[actors]`.
    pub actors: Actors,
    /// `[approval] ttl`: how long a recorded approval stays valid.
    pub approval_ttl: std::time::Duration,
    /// `[commit]`.
    pub commit: CommitSettings,
    /// `[ci]`.
    pub ci: CiSettings,
    /// `[backstop]`.
    pub backstop: BackstopSettings,
    /// `[[rule]]` in file order.
    pub rules: Vec<Rule>,
    /// `[[test]]` cases in file order.
    pub cases: Vec<TestCase>,
    /// `[[component]]` in file order (SPEC §8).
    pub components: Vec<ComponentDecl>,
    /// `[impact]`: how the blast radius treats files and finds workspaces.
    pub impact: Impact,
    /// `[facts] exclude`: files left out of the size counts (`lines_*`, `binary_files`,
    /// `bytes_added`); they are still modified files.
    pub facts_exclude: PatternList,
    /// Every path pattern list of the policy, compiled together.
    pub matcher: Matcher,
}

impl Policy {
    /// Whether the size counts leave out `path` (`[facts] exclude`).
    pub fn excludes_from_counts(&self, path: &str) -> bool {
        if self.facts_exclude.patterns.is_empty() {
            return false;
        }
        let mut hits = vec![false; self.matcher.list_count()];
        self.matcher
            .matching_lists(path, &mut hits, &mut Vec::new());
        hits[self.facts_exclude.list.0 as usize]
    }
}

/// `[[environment]]`: branches that target an environment.
#[derive(Debug, Clone)]
pub struct Environment {
    /// `name`: the `target.env` these branches target.
    pub name: String,
    /// `branches` as written.
    pub branch_patterns: Vec<String>,
    /// `branches`, compiled.
    pub branches: Vec<glob::BranchGlob>,
}

impl Environment {
    /// The first pattern that matches `branch`, if any.
    pub fn matching_pattern(&self, branch: &str) -> Option<&str> {
        self.branches
            .iter()
            .zip(&self.branch_patterns)
            .find(|(matcher, _)| matcher.is_match(branch))
            .map(|(_, pattern)| pattern.as_str())
    }
}

impl Policy {
    /// The environment of the first `[[environment]]` entry that matches `branch`, with the
    /// pattern that matched.
    pub fn environment_for_branch(&self, branch: &str) -> Option<(&Environment, &str)> {
        self.environments.iter().find_map(|environment| {
            environment
                .matching_pattern(branch)
                .map(|pattern| (environment, pattern))
        })
    }
}

/// `[actors]`.
#[derive(Debug, Clone, Default)]
pub struct Actors {
    /// `agent_env`: extra environment variables whose presence marks an autonomous agent.
    pub agent_env: Vec<String>,
    /// `agent_authors`: `Name <email>` patterns of authors, committers and co-authors whose
    /// commits are an autonomous agent's (`astrix ci`).
    pub agent_authors: Vec<Wildcard>,
    /// `agent_trailers`: `Key: value` patterns of commit-message trailers that mark a commit
    /// as an autonomous agent's (`astrix ci`).
    pub agent_trailers: Vec<Wildcard>,
}

/// `[commit]`: what the hooks add to the commits they let through.
#[derive(Debug, Clone, Default)]
pub struct CommitSettings {
    /// `trailers`: which commits the hooks give `Astrix-Actor:` and `Astrix-Decision:`
    /// trailers, so that `astrix ci` knows who made commits that look like anyone's.
    pub trailers: TrailerMode,
}

/// Which commits get the hooks' trailers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TrailerMode {
    /// `trailers` absent: agents' commits (every commit with `[ci] require_provenance`).
    #[default]
    Agents,
    /// `trailers = true`: every commit, a human's too.
    All,
    /// `trailers = false`: none.
    Off,
}

/// `[backstop]`: what the reference-transaction hook takes as vouching for commits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BackstopSettings {
    /// `trusted_remotes`: the remotes whose remote-tracking branches vouch for commits as
    /// local branches do (empty unless set: the hook cannot tell a fetched remote-tracking
    /// branch from one set by hand).
    pub trusted_remotes: Vec<String>,
}

/// `[ci]`: how `astrix ci` judges.
#[derive(Debug, Clone, Default)]
pub struct CiSettings {
    /// `require_provenance`: a commit without an `Astrix-Actor:` trailer is held, since its
    /// maker's hooks were off (or it was made where none run).
    pub require_provenance: bool,
}

/// A `[[rule]]`.
#[derive(Debug, Clone)]
pub struct Rule {
    /// `id`: unique, kebab-case.
    pub id: String,
    /// 1-based line of the `id` key in the source, for reports.
    pub line: usize,
    /// `actor`: matches when `actor.type` is one of these.
    pub actor: Option<Vec<String>>,
    /// `env`: matches when `target.env` is one of these.
    pub env: Option<Vec<String>>,
    /// `paths`: matches when any modified file matches one of the patterns.
    pub paths: Option<PatternList>,
    /// `only_paths`: matches when every modified file matches (never on an empty list).
    pub only_paths: Option<PatternList>,
    /// `modifies_tests`: matches when the intent's (escalated) flag equals this.
    pub modifies_tests: Option<bool>,
    /// `action`: matches when the intent's action (`commit` when absent) is one of these.
    pub action: Option<Vec<crate::intent::Action>>,
    /// `ignore_case`: `paths` and `only_paths` match regardless of case.
    pub ignore_case: bool,
    /// `policy`: a numeric comparison evaluated when the conditions match.
    pub policy: Option<NumericPolicy>,
    /// `decision`: what the rule contributes when it matches (or when its policy fails).
    /// Validation guarantees it is present on a rule without a policy; on a rule with a
    /// policy it defaults to `require_approval`.
    pub decision: Verdict,
    /// `reason`: why, for the person or agent who reads the report.
    pub reason: Option<String>,
}

/// Patterns of one rule condition, as written and as registered with the policy's matcher.
#[derive(Debug, Clone)]
pub struct PatternList {
    /// The patterns as written.
    pub patterns: Vec<String>,
    /// Where they live in [`Policy::matcher`].
    pub list: ListId,
}

/// A `[[component]]`: a part of the repository for the blast radius (SPEC §8). A
/// declared component with the name of a discovered workspace package refines it: its
/// `paths`, `depends_on` and `test` are added to (`test`: replace) what discovery found.
#[derive(Debug, Clone)]
pub struct ComponentDecl {
    /// `name`: unique among declared components.
    pub name: String,
    /// 1-based line of the `[[component]]` entry's `name`, for reports.
    pub line: usize,
    /// `paths`: the files the component owns.
    pub paths: Option<PatternList>,
    /// `depends_on`: names of declared or discovered components this one depends on.
    pub depends_on: Vec<String>,
    /// `test`: the shell command that tests the component.
    pub test: Option<String>,
}

/// `[impact]`.
#[derive(Debug, Clone)]
pub struct Impact {
    /// `ignore`: files that affect no component (documentation, say).
    pub ignore: PatternList,
    /// `global`: files that affect every component (root manifests, lockfiles, toolchains).
    pub global: PatternList,
    /// `discover`: where workspaces are discovered.
    pub discover: Discover,
}

/// `[impact] discover`: `true` (the repository root), `false`, or the directories whose
/// workspaces are discovered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Discover {
    /// `discover = false`: only `[[component]]` entries.
    Off,
    /// Workspace roots, repository-relative without a trailing `/` (`""` is the root).
    Roots(Vec<String>),
}

/// A `[[test]]` case.
#[derive(Debug, Clone)]
pub struct TestCase {
    /// `name`.
    pub name: String,
    /// 1-based line of the `[[test]]` header, for reports.
    pub line: usize,
    /// `intent`.
    pub intent: ActionIntent,
    /// `expect`.
    pub expect: Verdict,
}
