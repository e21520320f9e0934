//! Phase 2, validation: the raw records (`raw.rs`) become a [`Policy`], or diagnostics.
//!
//! Validation checks what the values mean: ids and names (their form, duplicates, typos of
//! known ones), decisions, globs, numeric policies and `[[test]]` intents. Every pass reports
//! every problem it finds and goes on (STYLE §4.5), and patterns are compiled here, so that
//! the evaluator never sees raw strings. Validation never reads TOML: only the raw records,
//! the intent of a `[[test]]` among them as the value it was written as.
//!
//! This module holds the policy pass (`validate_policy`, which runs the others) and the
//! checks the passes share: decisions, empty values and path patterns. The passes of the
//! tables are beside it:
//!
//! - `settings`: `[[environment]]`, `[actors]`, `[approval]`, `[commit]` and `[ci]`;
//! - `rules`: `[[rule]]`;
//! - `components`: `[impact]` and `[[component]]`;
//! - `cases`: `[[test]]`.

mod cases;
mod components;
mod rules;
mod settings;

use std::collections::{HashMap, HashSet};

use super::glob::{self, GlobError, Matcher, MatcherBuilder};
use super::load::{Loader, SUPPORTED_VERSION};
use super::raw::{At, RawInteger, RawPolicy, StringList};
use super::text::quote;
use super::{
    BackstopSettings, CiSettings, CommitSettings, Environment, PatternList, Policy, Verdict,
};
use crate::diagnostic::{Code, Diagnostic};
use crate::intent::{AUTONOMOUS_LLM, HUMAN};
pub use components::DEFAULT_GLOBAL_PATTERNS;
pub use settings::DEFAULT_APPROVAL_TTL;
use settings::trailer_mode;

/// `[tests].paths` when the file does not set it (SPEC §3).
pub const DEFAULT_TEST_PATTERNS: &[&str] = &[
    "**/tests/**",
    "**/test/**",
    "**/__tests__/**",
    "*_test.*",
    "test_*.py",
    "*.test.*",
    "*.spec.*",
    "**/snapshots/**",
    "tests.py",
    "conftest.py",
    "*_spec.rb",
    "*Test.java",
    "*Tests.java",
    "*Test.kt",
    "*Tests.cs",
    "**/spec/**",
    "**/e2e/**",
    "**/cypress/**",
    "**/androidTest/**",
    "**/testdata/**",
    "**/fixtures/**",
    "**/__snapshots__/**",
    "*.golden",
    "*.snap",
    // pytest collects these as doctests without being told (`--doctest-glob`'s default).
    "test*.txt",
];

/// The environment a change targets when no `[[environment]]` matches and nothing else
/// says otherwise (SPEC §6); rules may name it without defining it.
const FALLBACK_ENV: &str = "development";

/// The names a value may take, for membership tests and "did you mean" hints.
struct Names<'a> {
    set: HashSet<&'a str>,
    /// In file order, so that hints are deterministic.
    ordered: Vec<&'a str>,
}

impl<'a> Names<'a> {
    fn new(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut set = HashSet::new();
        let ordered = names.into_iter().filter(|name| set.insert(*name)).collect();
        Self { set, ordered }
    }
}

/// A value that was checked and found invalid (the diagnostic is already reported).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Invalid;

impl Loader<'_> {
    /// Phase 2: the raw records into a [`Policy`]; `None` when it cannot be built (every
    /// problem is reported).
    pub(super) fn validate_policy(&mut self, raw: RawPolicy<'_, '_>) -> Option<Policy> {
        if let Some(version) = &raw.version {
            self.validate_version(version);
        }
        let default = match &raw.default {
            Some(default) => self.decision(default, "default"),
            None => Some(Verdict::Allow),
        };
        let mut builder = MatcherBuilder::default();
        let test_patterns: Vec<At<String>> = match raw.test_paths {
            Some(list) => list.value,
            None => DEFAULT_TEST_PATTERNS
                .iter()
                .map(|pattern| At {
                    value: (*pattern).to_owned(),
                    span: 0..0,
                })
                .collect(),
        };
        let tests_list = self.validate_patterns(&test_patterns, "paths", &mut builder);
        let test_collect = self.validate_commands(raw.test_collect);
        let environments: Vec<Environment> = raw
            .environments
            .iter()
            .filter_map(|environment| self.validate_environment(environment))
            .collect();
        let actors = self.validate_actors(raw.agent_env, raw.agent_authors, raw.agent_trailers);
        let approval_ttl = self.validate_ttl(raw.approval_ttl.as_ref());
        let require_provenance = raw.ci_require_provenance.is_some_and(|flag| flag.value);
        // Every name written, even in an entry with other problems, so that a rule that
        // names it is not also reported as naming an unknown environment.
        let env_names = Names::new(
            raw.environments
                .iter()
                .filter_map(|environment| environment.name.as_ref())
                .map(|name| name.value.as_str())
                .chain([FALLBACK_ENV]),
        );
        let actor_types = Names::new([AUTONOMOUS_LLM, HUMAN]);
        let mut ids = HashMap::new();
        let mut rules = Vec::with_capacity(raw.rules.len());
        for rule in raw.rules {
            if let Some(rule) =
                self.validate_rule(rule, &mut ids, &mut builder, &actor_types, &env_names)
            {
                rules.push(rule);
            }
        }
        let facts_exclude = self.validate_patterns(
            raw.facts_exclude
                .as_ref()
                .map_or(&[][..], |list| &list.value),
            "exclude",
            &mut builder,
        );
        let backstop = BackstopSettings {
            trusted_remotes: raw
                .trusted_remotes
                .map(|list| self.validate_remotes(list))
                .unwrap_or_default(),
        };
        let impact = self.validate_impact(&raw.impact, &mut builder);
        let components = self.validate_components(
            &raw.components,
            &mut builder,
            impact.as_ref().map(|impact| &impact.discover),
        );
        let mut names = HashMap::new();
        let mut cases = Vec::with_capacity(raw.cases.len());
        for case in &raw.cases {
            if let Some(case) = self.validate_case(case, &mut names) {
                cases.push(case);
            }
        }
        let matcher = self.build_matcher(builder)?;
        Some(Policy {
            version: SUPPORTED_VERSION,
            default: default?,
            test_patterns: test_patterns.into_iter().map(|at| at.value).collect(),
            tests_list: tests_list?.list,
            test_collect,
            environments,
            actors,
            approval_ttl,
            commit: CommitSettings {
                trailers: trailer_mode(
                    raw.commit_trailers.map(|flag| flag.value),
                    require_provenance,
                ),
            },
            ci: CiSettings { require_provenance },
            backstop,
            rules,
            cases,
            components: components?,
            impact: impact?,
            facts_exclude: facts_exclude?,
            matcher,
        })
    }

    /// Compiles every pattern list of the policy together.
    fn build_matcher(&mut self, builder: MatcherBuilder) -> Option<Matcher> {
        match builder.build() {
            Ok(matcher) => Some(matcher),
            Err(err) => {
                self.report(
                    Diagnostic::new(
                        Code::InvalidGlob,
                        0..0,
                        "the path patterns of this file do not compile together",
                    )
                    .with_label("in this file")
                    .with_help(err.to_string()),
                );
                None
            }
        }
    }

    /// Checks a `version` that is not newer than this astrix (see `newer_version`).
    fn validate_version(&mut self, version: &At<RawInteger>) -> bool {
        if version.value.value == Some(i128::from(SUPPORTED_VERSION)) {
            return true;
        }
        self.report(
            Diagnostic::new(
                Code::UnsupportedVersion,
                version.span.clone(),
                format!("unsupported version {}", quote(&version.value.text)),
            )
            .with_label("not a version")
            .with_help(format!("write `version = {SUPPORTED_VERSION}`")),
        );
        false
    }

    /// A decision name; `key` says where it was written (`decision`, `expect`, `default`).
    fn decision(&mut self, value: &At<String>, key: &str) -> Option<Verdict> {
        if let Some(verdict) = Verdict::from_name(&value.value) {
            return Some(verdict);
        }
        let names = Verdict::ALL.map(Verdict::name);
        let guess = self
            .suggest(&value.value, names)
            .or_else(|| synonym(&value.value));
        let help = match guess {
            Some(name) => format!("did you mean `{name}`?"),
            None => format!("`{key}` is `allow`, `require_approval` or `deny`"),
        };
        self.report(
            Diagnostic::new(
                Code::UnknownDecision,
                value.span.clone(),
                format!("unknown decision {}", quote(&value.value)),
            )
            .with_label("not a decision")
            .with_help(help),
        );
        None
    }

    /// `[tests] collect`: every command that is not empty.
    fn validate_commands(&mut self, commands: Option<StringList>) -> Vec<String> {
        commands
            .map(|list| list.value)
            .unwrap_or_default()
            .into_iter()
            .filter(|command| {
                self.non_empty(
                    command,
                    "command in `collect`",
                    "write the command that lists the tests, or remove the entry",
                )
            })
            .map(|command| command.value)
            .collect()
    }

    /// Reports an empty string; `true` when the value is not empty.
    fn non_empty(&mut self, value: &At<String>, what: &str, help: &str) -> bool {
        if !value.value.is_empty() {
            return true;
        }
        self.report(
            Diagnostic::new(
                Code::EmptyValue,
                value.span.clone(),
                format!("empty {what}"),
            )
            .with_label("empty")
            .with_help(help),
        );
        false
    }

    /// Compiles a list of path patterns and registers it with the policy's matcher.
    fn validate_patterns(
        &mut self,
        patterns: &[At<String>],
        key: &str,
        builder: &mut MatcherBuilder,
    ) -> Option<PatternList> {
        self.validate_patterns_folded(patterns, key, false, builder)
    }

    /// [`Self::validate_patterns`]; with `fold`, the patterns match regardless of case.
    fn validate_patterns_folded(
        &mut self,
        patterns: &[At<String>],
        key: &str,
        fold: bool,
        builder: &mut MatcherBuilder,
    ) -> Option<PatternList> {
        let mut globs = Vec::new();
        let mut ok = true;
        for pattern in patterns {
            let compiled = if fold {
                glob::compile_pattern_ignoring_case(&pattern.value)
            } else {
                glob::compile_pattern(&pattern.value)
            };
            match compiled {
                Ok(compiled) => globs.extend(compiled),
                Err(err) => {
                    ok = false;
                    self.report_glob_error(pattern, key, &err, "pattern");
                }
            }
        }
        let list = builder.add_list(globs);
        ok.then(|| PatternList {
            patterns: patterns.iter().map(|at| at.value.clone()).collect(),
            list,
        })
    }

    fn report_glob_error(&mut self, pattern: &At<String>, key: &str, err: &GlobError, what: &str) {
        let diagnostic = match err {
            GlobError::Empty => Diagnostic::new(
                Code::EmptyValue,
                pattern.span.clone(),
                format!("empty {what} in `{key}`"),
            )
            .with_label("matches nothing")
            .with_help("remove the empty entry"),
            GlobError::Syntax(reason) => Diagnostic::new(
                Code::InvalidGlob,
                pattern.span.clone(),
                format!("invalid {what} {} in `{key}`", quote(&pattern.value)),
            )
            .with_label("does not compile")
            .with_help(reason.clone()),
        };
        self.report(diagnostic);
    }
}

/// Decisions under other names people use for them.
fn synonym(word: &str) -> Option<&'static str> {
    match word.to_lowercase().as_str() {
        "block" | "reject" | "forbid" | "refuse" | "denied" | "fail" => Some("deny"),
        "approve" | "approval" | "hold" | "ask" | "review" | "require" | "confirm" => {
            Some("require_approval")
        }
        "permit" | "accept" | "pass" | "ok" | "allowed" | "yes" => Some("allow"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::DEFAULT_TEST_PATTERNS;
    use crate::policy::testing::{V, diagnoses};
    use crate::policy::{Verdict, load};

    diagnoses! {
        unsupported_version_zero:
            "version = 0\n"
            => "unsupported-version", "unsupported version `0`", "0", Some("write `version = 1`");
        unknown_decision_with_suggestion:
            &format!("{V}[[rule]]\nid = \"a\"\ndecision = \"require-approval\"\n")
            => "unknown-decision", "unknown decision `require-approval`", "\"require-approval\"",
            Some("did you mean `require_approval`?");
        unknown_decision_synonym:
            &format!("{V}[[rule]]\nid = \"a\"\ndecision = \"block\"\n")
            => "unknown-decision", "unknown decision `block`", "\"block\"", Some("did you mean `deny`?");
        unknown_decision_default:
            "version = 1\ndefault = \"maybe\"\n"
            => "unknown-decision", "unknown decision `maybe`", "\"maybe\"",
            Some("`default` is `allow`, `require_approval` or `deny`");
        invalid_test_glob:
            &format!("{V}[tests]\npaths = [\"{{a\"]\n")
            => "invalid-glob", "invalid pattern `{a` in `paths`", "\"{a\"",
            Some("unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)");
    }

    #[test]
    fn a_minimal_file_loads_with_defaults() {
        let (policy, warnings) = load("Astrixfile.ax", "version = 1\n").unwrap();
        assert!(warnings.items.is_empty());
        assert_eq!(policy.version, 1);
        assert_eq!(policy.default, Verdict::Allow);
        assert_eq!(policy.test_patterns, DEFAULT_TEST_PATTERNS);
        assert!(policy.rules.is_empty() && policy.cases.is_empty());
        assert!(policy.environments.is_empty());
        assert!(policy.actors.agent_env.is_empty());
    }
}
