//! Reading an Astrixfile.ax: TOML with spans, then validation into a [`Policy`].
//!
//! Every step reports into one list of diagnostics, so that one run shows every problem
//! (STYLE §4.5); nothing fails fast:
//!
//! 1. **parse**: a file larger than [`MAX_POLICY_BYTES`] is refused, a pre-scan refuses
//!    nesting deeper than [`MAX_NESTING`] levels, then toml's recoverable parser builds a
//!    spanned tree; its errors become `toml-syntax` diagnostics.
//! 2. **raw**: the structure. Known keys, value types and required keys are checked while
//!    the tree is read into `Raw…` records that keep every span (the `read_…` functions).
//! 3. **validate**: the meaning. Rule ids, duplicates, decisions, globs, numeric policies and
//!    `[[test]]` intents are checked while the records become a [`Policy`] (the
//!    `validate_…` functions).
//!
//! To add a key: list it in `keys`, read it in the `read_…` function of its table, check
//! it in the matching `validate_…` function, and describe it in `schema.rs` (a test keeps
//! the schema and `keys` in sync). A new table is a new `keys` list, a `Raw…` record and
//! a `read_…` function built from the same `Loader` helpers.

use std::collections::HashMap;
use std::collections::HashSet;
use std::ops::Range;

use toml::Spanned;
use toml::de::DeValue;

use super::glob::{self, GlobError, Matcher, MatcherBuilder};
use super::numeric::{Argument, NumericPolicy, PolicySyntaxError};
use super::raw::{
    At, RawCase, RawComponent, RawDiscover, RawEnvironment, RawImpact, RawInteger, RawPolicy,
    RawRule, StringList,
};
use super::read::integer_value;
use super::text::{inner_span, quote, suggest};
use super::wildcard::Wildcard;
use super::{
    Actors, CiSettings, CommitSettings, ComponentDecl, Discover, Environment, Impact, PatternList,
    Policy, Rule, TestCase, TrailerMode, Verdict,
};
use crate::diagnostic::{Code, Diagnostic, Diagnostics, LineIndex};
use crate::intent::{AUTONOMOUS_LLM, HUMAN};
use crate::intent::{Action, ActionIntent};

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
];

/// `[impact] global` when the file does not set it: files that affect every component
/// (root manifests, lockfiles, toolchain and package-manager settings).
pub const DEFAULT_GLOBAL_PATTERNS: &[&str] = &[
    "/Cargo.toml",
    "/package.json",
    "/pnpm-workspace.yaml",
    "/pyproject.toml",
    "Cargo.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lock",
    "bun.lockb",
    "uv.lock",
    "rust-toolchain",
    "rust-toolchain.toml",
    "/.cargo/config",
    "/.cargo/config.toml",
    "/.npmrc",
    "/.yarnrc.yml",
    ".nvmrc",
    ".node-version",
    ".python-version",
    ".tool-versions",
];

/// The `version` this astrix reads.
pub const SUPPORTED_VERSION: u32 = 1;

/// How deeply arrays and inline tables may nest. The loader walks values recursively, so
/// a hostile file must not be able to nest without bound; real policies need three levels.
pub const MAX_NESTING: usize = 64;

/// The largest policy file astrix reads, in bytes (10 MiB). Larger files are refused with a
/// `file-too-large` error before they are parsed: a policy is written and reviewed by people,
/// and 10 MiB holds some 100,000 rules, while loading costs time and memory in proportion
/// to the file (a 50 MB file of rules took 12 s and 1.7 GB) on every commit. GitHub stops
/// reading a CODEOWNERS file, the nearest kind of file, at 3 MB.
pub const MAX_POLICY_BYTES: usize = 10 * 1024 * 1024;

/// The environment a change targets when no `[[environment]]` matches and nothing else
/// says otherwise (SPEC §6); rules may name it without defining it.
const FALLBACK_ENV: &str = "development";

/// `[commit] trailers`: `true` every commit, `false` none, absent agents' commits only —
/// or every commit when `[ci] require_provenance` asks each to carry its actor.
fn trailer_mode(trailers: Option<bool>, require_provenance: bool) -> TrailerMode {
    match trailers {
        Some(true) => TrailerMode::All,
        Some(false) => TrailerMode::Off,
        None if require_provenance => TrailerMode::All,
        None => TrailerMode::Agents,
    }
}

/// How long an approval stays valid when `[approval] ttl` is not set.
pub const DEFAULT_APPROVAL_TTL: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// Reads and validates a policy. `file` is the name shown in diagnostics. On success the
/// warnings (if any) are returned beside the policy; on failure every problem found.
pub fn load(file: &str, source: &str) -> Result<(Policy, Diagnostics), Diagnostics> {
    if source.len() > MAX_POLICY_BYTES {
        return Err(too_large(file, source));
    }
    let mut loader = Loader::new(source);
    let policy = loader.run();
    let diagnostics = Diagnostics {
        file: file.to_owned(),
        source: source.to_owned(),
        items: loader.diagnostics,
    };
    match policy {
        Some(policy) if !diagnostics.has_errors() => Ok((policy, diagnostics)),
        _ => Err(diagnostics),
    }
}

/// The one diagnostic of a file larger than [`MAX_POLICY_BYTES`].
fn too_large(file: &str, source: &str) -> Diagnostics {
    // Only the first line is kept: the renderer shows nothing else, and the file is large.
    let first_line = source.get(..source.find('\n').unwrap_or(source.len()).min(4096));
    let diagnostic = Diagnostic::new(
        Code::FileTooLarge,
        0..0,
        format!(
            "the file is {} bytes, more than the {} MiB astrix reads",
            source.len(),
            MAX_POLICY_BYTES / (1024 * 1024)
        ),
    )
    .with_label("file too large")
    .with_help(
        "a policy is read on every commit and reviewed by people: keep generated lists out \
         of it (match a directory with `dir/**` rather than listing its files)",
    );
    Diagnostics {
        file: file.to_owned(),
        source: first_line.unwrap_or_default().to_owned(),
        items: vec![diagnostic],
    }
}

/// Reads one file; collects every diagnostic.
pub(super) struct Loader<'s> {
    pub(super) source: &'s str,
    index: LineIndex,
    diagnostics: Vec<Diagnostic>,
    /// "Did you mean" hints still allowed: each costs edit distances, and a hostile file
    /// with a million misspellings must stay fast. Real files need a handful.
    suggestions_left: usize,
}

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

impl<'s> Loader<'s> {
    fn new(source: &'s str) -> Self {
        Self {
            source,
            index: LineIndex::new(source),
            diagnostics: Vec::new(),
            suggestions_left: 1_000,
        }
    }

    /// [`suggest`], within the budget.
    pub(super) fn suggest<'a>(
        &mut self,
        word: &str,
        candidates: impl IntoIterator<Item = &'a str>,
    ) -> Option<&'a str> {
        if self.suggestions_left == 0 {
            return None;
        }
        self.suggestions_left -= 1;
        suggest(word, candidates)
    }

    pub(super) fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    pub(super) fn line(&self, offset: usize) -> usize {
        self.index.line(offset)
    }

    /// Every step of loading; `None` when no policy could be built.
    fn run(&mut self) -> Option<Policy> {
        if let Some(offset) = too_deep(self.source) {
            self.report(
                Diagnostic::new(
                    Code::TomlSyntax,
                    offset..offset + 1,
                    format!("arrays and inline tables nest deeper than {MAX_NESTING} levels"),
                )
                .with_label("too deep")
                .with_help(format!(
                    "astrix reads at most {MAX_NESTING} levels of nesting; flatten the value"
                )),
            );
            return None;
        }
        let root = self.parse();
        let syntax_errors = self.diagnostics.len();
        let raw = self.read(root.get_ref())?;
        let policy = self.validate_policy(raw);
        if syntax_errors > 0 {
            self.drop_cascades(syntax_errors);
        }
        // File order reads best; problems at one place keep the order they were found in.
        self.diagnostics
            .sort_by_key(|diagnostic| diagnostic.span.start);
        policy
    }

    /// After a syntax error the parser recovers with guesses (a value it could not read is
    /// absent or a placeholder at the start of the file); problems that may stem from those
    /// guesses are not reported, so that every reported problem is real.
    fn drop_cascades(&mut self, syntax_errors: usize) {
        let lines: HashSet<usize> = self.diagnostics[..syntax_errors]
            .iter()
            .map(|diagnostic| self.index.line(diagnostic.span.start))
            .collect();
        let mut position = 0;
        let index = &self.index;
        self.diagnostics.retain(|diagnostic| {
            position += 1;
            if position <= syntax_errors {
                return true;
            }
            let guessed = diagnostic.code == Code::MissingKey.as_str()
                || diagnostic.code == Code::MissingDecision.as_str()
                || diagnostic.span == (0..0)
                || lines.contains(&index.line(diagnostic.span.start));
            !guessed
        });
    }

    // ---------------------------------------------------------------------------------
    // Phase 2: validate.

    fn validate_policy(&mut self, raw: RawPolicy<'_, '_>) -> Option<Policy> {
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

    /// `[approval] ttl`, [`DEFAULT_APPROVAL_TTL`] when absent (or invalid, reported).
    fn validate_ttl(&mut self, ttl: Option<&At<String>>) -> std::time::Duration {
        let Some(ttl) = ttl else {
            return DEFAULT_APPROVAL_TTL;
        };
        match crate::time::parse_duration(&ttl.value) {
            Some(duration) if !duration.is_zero() => duration,
            _ => {
                self.report(
                    Diagnostic::new(
                        Code::InvalidDuration,
                        ttl.span.clone(),
                        format!("invalid duration `{}` for `ttl`", ttl.value),
                    )
                    .with_label("not a duration")
                    .with_help(
                        "write a positive whole number with a unit: `24h`, `90m`, `7d`, or seconds such as `3600`",
                    ),
                );
                DEFAULT_APPROVAL_TTL
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

    fn validate_environment(&mut self, raw: &RawEnvironment) -> Option<Environment> {
        let name = raw.name.as_ref().filter(|name| {
            self.non_empty(
                name,
                "environment name",
                "name the `target.env` these branches target, such as `production`",
            )
        });
        let mut branches = Vec::new();
        let mut ok = true;
        if let Some(list) = &raw.branches {
            for pattern in &list.value {
                match glob::compile_branch(&pattern.value) {
                    Ok(matcher) => branches.push(matcher),
                    Err(err) => {
                        ok = false;
                        self.report_glob_error(pattern, "branches", &err, "branch pattern");
                    }
                }
            }
            if list.value.is_empty() {
                let who = name.map_or_else(
                    || "this environment".to_owned(),
                    |name| format!("environment {}", quote(&name.value)),
                );
                self.report(
                    Diagnostic::new(
                        Code::EmptyCondition,
                        list.span.clone(),
                        format!("{who} never matches a branch: `branches` is empty"),
                    )
                    .with_label("an empty list matches nothing")
                    .with_help("list at least one branch pattern, or remove the entry"),
                );
            }
        }
        let patterns = raw.branches.as_ref()?;
        if !ok {
            return None;
        }
        Some(Environment {
            name: name?.value.clone(),
            branch_patterns: patterns.value.iter().map(|at| at.value.clone()).collect(),
            branches,
        })
    }

    /// `[actors]`.
    fn validate_actors(
        &mut self,
        agent_env: Option<StringList>,
        agent_authors: Option<StringList>,
        agent_trailers: Option<StringList>,
    ) -> Actors {
        Actors {
            agent_env: agent_env
                .map(|list| self.validate_agent_env(list))
                .unwrap_or_default(),
            agent_authors: agent_authors
                .map(|list| self.validate_wildcards(list, "agent_authors"))
                .unwrap_or_default(),
            agent_trailers: agent_trailers
                .map(|list| self.validate_wildcards(list, "agent_trailers"))
                .unwrap_or_default(),
        }
    }

    /// `[actors]` patterns: `*` matches anything, the rest is literal; only an empty pattern
    /// is wrong.
    fn validate_wildcards(&mut self, list: StringList, key: &str) -> Vec<Wildcard> {
        list.value
            .into_iter()
            .filter(|pattern| {
                self.non_empty(
                    pattern,
                    &format!("pattern in `{key}`"),
                    "remove the empty entry; `*` matches anything",
                )
            })
            .map(|pattern| Wildcard::new(&pattern.value))
            .collect()
    }

    fn validate_agent_env(&mut self, list: StringList) -> Vec<String> {
        let mut names = Vec::with_capacity(list.value.len());
        for name in list.value {
            if !self.non_empty(
                &name,
                "variable name in `agent_env`",
                "remove the empty entry",
            ) {
                continue;
            }
            if is_env_var_name(&name.value) {
                names.push(name.value);
            } else {
                self.report(
                    Diagnostic::new(
                        Code::InvalidEnvVar,
                        name.span.clone(),
                        format!("invalid environment variable name {}", quote(&name.value)),
                    )
                    .with_label("not a variable name")
                    .with_help(
                        "a name is ASCII letters, digits and `_`, and does not start with a digit",
                    ),
                );
            }
        }
        names
    }

    fn validate_rule(
        &mut self,
        raw: RawRule,
        ids: &mut HashMap<String, usize>,
        builder: &mut MatcherBuilder,
        actor_types: &Names<'_>,
        env_names: &Names<'_>,
    ) -> Option<Rule> {
        let id = raw
            .id
            .as_ref()
            .and_then(|id| self.validate_rule_id(id, ids));
        let who = raw.id.as_ref().map_or_else(
            || "this rule".to_owned(),
            |id| format!("rule {}", quote(&id.value)),
        );
        let actor = raw
            .actor
            .as_ref()
            .map(|list| self.validate_names(list, "actor", &who, actor_types, "actor type"));
        let env = raw
            .env
            .as_ref()
            .map(|list| self.validate_names(list, "env", &who, env_names, "environment"));
        let action = raw
            .action
            .as_ref()
            .map(|list| self.validate_actions(list, &who));
        let fold = raw.ignore_case.as_ref().is_some_and(|flag| flag.value);
        let paths = raw
            .paths
            .as_ref()
            .map(|list| self.validate_condition_patterns(list, "paths", &who, fold, builder));
        let only_paths = raw
            .only_paths
            .as_ref()
            .map(|list| self.validate_condition_patterns(list, "only_paths", &who, fold, builder));
        if let Some(reason) = &raw.reason {
            self.non_empty(
                reason,
                "`reason`",
                "say why the rule exists, or remove `reason`",
            );
        }
        let policy = raw
            .policy
            .as_ref()
            .and_then(|policy| self.validate_numeric(policy));
        let decision = self.validate_rule_decision(&raw, &who);
        let line = self.line(raw.id.as_ref().map_or(raw.header.start, |id| id.span.start));
        Some(Rule {
            id: id?,
            line,
            actor: actor.transpose().ok()?,
            env: env.transpose().ok()?,
            paths: paths.transpose().ok()?,
            only_paths: only_paths.transpose().ok()?,
            modifies_tests: raw.modifies_tests.map(|flag| flag.value),
            action: action.transpose().ok()?,
            ignore_case: fold,
            policy: if raw.has_policy { Some(policy?) } else { None },
            decision: decision?,
            reason: raw.reason.map(|reason| reason.value),
        })
    }

    /// Checks the id's form and uniqueness; `ids` maps each id seen to its line.
    fn validate_rule_id(
        &mut self,
        id: &At<String>,
        ids: &mut HashMap<String, usize>,
    ) -> Option<String> {
        if !self.non_empty(
            id,
            "rule id",
            "give the rule a kebab-case id, such as `ci-config`",
        ) {
            return None;
        }
        let mut ok = true;
        if !is_rule_id(&id.value) {
            ok = false;
            let fixed = kebab_case(&id.value);
            let help = if fixed.is_empty() {
                "an id is lowercase letters and digits in words joined by single hyphens, \
                 such as `ci-config`"
                    .to_owned()
            } else {
                format!(
                    "an id is lowercase letters and digits in words joined by single hyphens: \
                     did you mean {}?",
                    quote(&fixed)
                )
            };
            self.report(
                Diagnostic::new(
                    Code::InvalidRuleId,
                    id.span.clone(),
                    format!("invalid rule id {}", quote(&id.value)),
                )
                .with_label("not lowercase kebab-case")
                .with_help(help),
            );
        }
        let line = self.line(id.span.start);
        if let Some(&first) = ids.get(&id.value) {
            ok = false;
            self.report(
                Diagnostic::new(
                    Code::DuplicateRuleId,
                    id.span.clone(),
                    format!("duplicate rule id {}", quote(&id.value)),
                )
                .with_label(format!("already used on line {first}"))
                .with_help(format!(
                    "the first rule with this id is on line {first}; give each rule its own id"
                )),
            );
        } else {
            ids.insert(id.value.clone(), line);
        }
        ok.then(|| id.value.clone())
    }

    /// `actor` or `env`: no empty entries; an empty list never matches; a name close to a
    /// known one is probably a typo.
    fn validate_names(
        &mut self,
        list: &StringList,
        key: &str,
        who: &str,
        known: &Names<'_>,
        kind: &str,
    ) -> Result<Vec<String>, Invalid> {
        let mut ok = true;
        for name in &list.value {
            if !self.non_empty(
                name,
                &format!("{kind} in `{key}`"),
                "remove the empty entry",
            ) {
                ok = false;
                continue;
            }
            if known.set.contains(name.value.as_str()) {
                continue;
            }
            if let Some(guess) = self.suggest(&name.value, known.ordered.iter().copied()) {
                let (code, message, label) = if key == "actor" {
                    (
                        Code::UnknownActor,
                        format!("unknown actor type {}", quote(&name.value)),
                        "no actor has this type",
                    )
                } else {
                    (
                        Code::UnknownEnv,
                        format!("unknown environment {}", quote(&name.value)),
                        "no `[[environment]]` has this name",
                    )
                };
                self.report(
                    Diagnostic::new(code, name.span.clone(), message)
                        .with_label(label)
                        .with_help(format!("did you mean `{guess}`?")),
                );
            }
        }
        if list.value.is_empty() {
            self.report_empty_condition(
                list,
                key,
                who,
                &format!("remove `{key}` to match any {kind}"),
            );
        }
        if ok {
            Ok(list.value.iter().map(|at| at.value.clone()).collect())
        } else {
            Err(Invalid)
        }
    }

    /// `action`: each entry is `commit` or `merge`.
    fn validate_actions(&mut self, list: &StringList, who: &str) -> Result<Vec<Action>, Invalid> {
        let mut actions = Vec::with_capacity(list.value.len());
        let mut ok = true;
        for name in &list.value {
            if let Some(action) = Action::from_name(&name.value) {
                actions.push(action);
                continue;
            }
            ok = false;
            let names = Action::ALL.map(Action::name);
            let help = match suggest(&name.value, names) {
                Some(guess) => format!("did you mean `{guess}`?"),
                None => "an action is `commit` (a commit on the target's branch) or `merge` (a pull request merged into it)".to_owned(),
            };
            self.report(
                Diagnostic::new(
                    Code::UnknownAction,
                    name.span.clone(),
                    format!("unknown action {}", quote(&name.value)),
                )
                .with_label("not `commit` or `merge`")
                .with_help(help),
            );
        }
        if list.value.is_empty() {
            self.report_empty_condition(
                list,
                "action",
                who,
                "list `commit`, `merge` or both, or remove `action` to match any action",
            );
        }
        if ok { Ok(actions) } else { Err(Invalid) }
    }

    fn validate_condition_patterns(
        &mut self,
        list: &StringList,
        key: &str,
        who: &str,
        fold: bool,
        builder: &mut MatcherBuilder,
    ) -> Result<PatternList, Invalid> {
        if list.value.is_empty() {
            self.report_empty_condition(
                list,
                key,
                who,
                &format!("list at least one pattern, or remove `{key}`"),
            );
        }
        self.validate_patterns_folded(&list.value, key, fold, builder)
            .ok_or(Invalid)
    }

    fn report_empty_condition(&mut self, list: &StringList, key: &str, who: &str, help: &str) {
        self.report(
            Diagnostic::new(
                Code::EmptyCondition,
                list.span.clone(),
                format!("{who} never matches: `{key}` is empty"),
            )
            .with_label("an empty list matches nothing")
            .with_help(help),
        );
    }

    /// Parses a numeric policy; its errors are underlined inside the TOML string.
    fn validate_numeric(&mut self, policy: &At<String>) -> Option<NumericPolicy> {
        if !self.non_empty(
            policy,
            "`policy`",
            "write one comparison such as `lines_changed <= 400`, or remove `policy`",
        ) {
            return None;
        }
        match NumericPolicy::parse(&policy.value) {
            Ok(parsed) => Some(parsed),
            Err(err) => {
                self.report_policy_error(policy, err);
                None
            }
        }
    }

    fn report_policy_error(&mut self, policy: &At<String>, err: PolicySyntaxError) {
        let span = inner_span(self.source, &policy.span, &policy.value, &err.span);
        let diagnostic = if err.unknown_argument {
            let text = policy
                .value
                .get(err.span.clone())
                .unwrap_or_default()
                .trim();
            let help = err.help.or_else(|| {
                self.suggest(text, Argument::ALL.map(Argument::name))
                    .map(|name| format!("did you mean `{name}`?"))
            });
            Diagnostic::new(Code::UnknownArgument, span, err.message)
                .with_label("not a policy argument")
                .with_optional_help(help)
        } else {
            Diagnostic::new(
                Code::InvalidPolicy,
                span,
                format!("invalid policy {}", quote(&policy.value)),
            )
            .with_label(err.message)
            .with_optional_help(err.help)
        };
        self.report(diagnostic);
    }

    /// The rule's decision: required without a policy; with one, `require_approval` by
    /// default and never `allow`.
    fn validate_rule_decision(&mut self, raw: &RawRule, who: &str) -> Option<Verdict> {
        let Some(written) = &raw.decision else {
            if raw.has_decision {
                return None; // wrong type, already reported
            }
            if raw.has_policy {
                return Some(Verdict::RequireApproval);
            }
            self.report(
                Diagnostic::new(
                    Code::MissingDecision,
                    raw.header.clone(),
                    format!("{who} has no `decision`"),
                )
                .with_label("no `decision` in this rule")
                .with_help(
                    "add `decision = \"deny\"`, `\"require_approval\"` or `\"allow\"`; \
                     only a rule with a `policy` may leave it out",
                ),
            );
            return None;
        };
        let verdict = self.decision(written, "decision")?;
        if raw.has_policy && verdict == Verdict::Allow {
            self.report(
                Diagnostic::new(
                    Code::InvalidDecision,
                    written.span.clone(),
                    "a rule with a `policy` cannot decide `allow`",
                )
                .with_label("not allowed with a policy")
                .with_help(
                    "a passing policy already allows; the decision applies when the policy \
                     fails: `require_approval` (the default) or `deny`",
                ),
            );
            return None;
        }
        Some(verdict)
    }

    /// `[impact]`: `ignore` (default none), `global` (default [`DEFAULT_GLOBAL_PATTERNS`])
    /// and `discover` (default the repository root).
    fn validate_impact(&mut self, raw: &RawImpact, builder: &mut MatcherBuilder) -> Option<Impact> {
        let defaults: Vec<At<String>> = DEFAULT_GLOBAL_PATTERNS
            .iter()
            .map(|pattern| At {
                value: (*pattern).to_owned(),
                span: 0..0,
            })
            .collect();
        let ignore = self.validate_patterns(
            raw.ignore.as_ref().map_or(&[][..], |list| &list.value),
            "ignore",
            builder,
        );
        let global = self.validate_patterns(
            raw.global
                .as_ref()
                .map_or(&defaults[..], |list| &list.value),
            "global",
            builder,
        );
        let discover = match &raw.discover {
            None | Some(RawDiscover::Flag(true)) => Some(Discover::Roots(vec![String::new()])),
            Some(RawDiscover::Flag(false)) => Some(Discover::Off),
            Some(RawDiscover::Dirs(list)) => {
                let mut roots = Vec::with_capacity(list.value.len());
                let mut ok = true;
                for dir in &list.value {
                    match normal_directory(&dir.value) {
                        Some(root) if !roots.contains(&root) => roots.push(root),
                        Some(_) => {}
                        None => {
                            ok = false;
                            self.report(
                                Diagnostic::new(
                                    Code::InvalidDirectory,
                                    dir.span.clone(),
                                    format!(
                                        "invalid directory {} in `discover`",
                                        quote(&dir.value)
                                    ),
                                )
                                .with_label("not a directory of the repository")
                                .with_help(
                                    "write a directory relative to the repository root with `/` \
                                     separators, such as `\".\"` or `\"web\"`; `..` and absolute \
                                     paths are not allowed",
                                ),
                            );
                        }
                    }
                }
                ok.then_some(Discover::Roots(roots))
            }
        };
        Some(Impact {
            ignore: ignore?,
            global: global?,
            discover: discover?,
        })
    }

    /// `[[component]]`: names unique; `depends_on` names a declared component (or, with
    /// discovery on, possibly a discovered one: that is checked when the graph is built);
    /// cycles are allowed (a change to one member affects them all) but warned about.
    fn validate_components(
        &mut self,
        raw: &[RawComponent],
        builder: &mut MatcherBuilder,
        discover: Option<&Discover>,
    ) -> Option<Vec<ComponentDecl>> {
        let mut ok = true;
        let mut lines: HashMap<&str, usize> = HashMap::new();
        let mut components = Vec::with_capacity(raw.len());
        for component in raw {
            let Some(name) = &component.name else {
                ok = false;
                continue;
            };
            if !self.non_empty(name, "component name", "name the component, such as `web`") {
                ok = false;
                continue;
            }
            let line = self.line(name.span.start);
            if let Some(&first) = lines.get(name.value.as_str()) {
                ok = false;
                self.report(
                    Diagnostic::new(
                        Code::DuplicateComponent,
                        name.span.clone(),
                        format!("duplicate component {}", quote(&name.value)),
                    )
                    .with_label(format!("already used on line {first}"))
                    .with_help(format!(
                        "the first component with this name is on line {first}; give each \
                         component its own name, or merge the two entries"
                    )),
                );
                continue;
            }
            lines.insert(&name.value, line);
            let paths = component
                .paths
                .as_ref()
                .map(|list| self.validate_patterns(&list.value, "paths", builder));
            let paths = match paths {
                Some(Some(list)) => Some(list),
                Some(None) => {
                    ok = false;
                    None
                }
                None => None,
            };
            let mut depends_on = Vec::new();
            for dependency in component.depends_on.iter().flat_map(|list| &list.value) {
                if self.non_empty(
                    dependency,
                    "component name in `depends_on`",
                    "remove the empty entry",
                ) {
                    depends_on.push(dependency.value.clone());
                } else {
                    ok = false;
                }
            }
            let test = component.test.as_ref().filter(|test| {
                self.non_empty(
                    test,
                    "`test`",
                    "write the shell command that tests the component, or remove `test`",
                )
            });
            if component.test.is_some() && test.is_none() {
                ok = false;
            }
            components.push(ComponentDecl {
                name: name.value.clone(),
                line,
                paths,
                depends_on,
                test: test.map(|test| test.value.clone()),
            });
        }
        // Names are checked once every entry is known, so that order does not matter.
        let declared = Names::new(components.iter().map(|component| component.name.as_str()));
        if matches!(discover, Some(Discover::Off)) {
            ok &= self.report_unknown_components(raw, &declared);
        }
        self.report_component_cycles(raw, &declared);
        ok.then_some(components)
    }

    /// With discovery off, every `depends_on` name is a declared component; `false` when one
    /// is not (reported).
    fn report_unknown_components(&mut self, raw: &[RawComponent], declared: &Names<'_>) -> bool {
        let mut ok = true;
        for dependency in raw
            .iter()
            .flat_map(|component| component.depends_on.iter().flat_map(|list| &list.value))
        {
            if dependency.value.is_empty() || declared.set.contains(dependency.value.as_str()) {
                continue;
            }
            ok = false;
            let help = match self.suggest(&dependency.value, declared.ordered.iter().copied()) {
                Some(name) => format!("did you mean `{name}`?"),
                None => "name a `[[component]]` of this file; with `discover = false` no \
                         workspace package is a component"
                    .to_owned(),
            };
            self.report(
                Diagnostic::new(
                    Code::UnknownComponent,
                    dependency.span.clone(),
                    format!("unknown component {}", quote(&dependency.value)),
                )
                .with_label("no `[[component]]` has this name")
                .with_help(help),
            );
        }
        ok
    }

    /// Warns once per cycle among declared components, at the `depends_on` entry that
    /// closes it (a depth-first search in file order; iterative, so a long chain cannot
    /// overflow the stack).
    fn report_component_cycles(&mut self, raw: &[RawComponent], declared: &Names<'_>) {
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum State {
            New,
            Open,
            Done,
        }
        let index: HashMap<&str, usize> = declared
            .ordered
            .iter()
            .enumerate()
            .map(|(position, name)| (*name, position))
            .collect();
        // The first entry of each name (duplicates were reported already).
        let mut edges: Vec<Vec<(usize, &At<String>)>> = vec![Vec::new(); index.len()];
        let mut seen = HashSet::new();
        for component in raw {
            let Some(name) = &component.name else {
                continue;
            };
            let Some(&from) = index.get(name.value.as_str()) else {
                continue;
            };
            if !seen.insert(from) {
                continue;
            }
            for dependency in component.depends_on.iter().flat_map(|list| &list.value) {
                if let Some(&to) = index.get(dependency.value.as_str()) {
                    edges[from].push((to, dependency));
                }
            }
        }
        let mut state = vec![State::New; edges.len()];
        let mut cycles = Vec::new();
        for start in 0..edges.len() {
            if state[start] != State::New {
                continue;
            }
            // (node, next edge to follow)
            let mut stack = vec![(start, 0usize)];
            state[start] = State::Open;
            while let Some(top) = stack.last_mut() {
                let node = top.0;
                let Some(&(to, at)) = edges[node].get(top.1) else {
                    state[node] = State::Done;
                    stack.pop();
                    continue;
                };
                top.1 += 1;
                match state[to] {
                    State::New => {
                        state[to] = State::Open;
                        stack.push((to, 0));
                    }
                    State::Open => {
                        let from = stack
                            .iter()
                            .position(|(open, _)| *open == to)
                            .unwrap_or_default();
                        let mut path: Vec<&str> = stack[from..]
                            .iter()
                            .map(|(open, _)| declared.ordered[*open])
                            .collect();
                        path.push(declared.ordered[to]);
                        cycles.push((at.span.clone(), cycle_text(&path)));
                    }
                    State::Done => {}
                }
            }
        }
        for (span, path) in cycles {
            self.report(
                Diagnostic::new(
                    Code::ComponentCycle,
                    span,
                    format!("components depend on each other in a cycle: {path}"),
                )
                .with_label("closes the cycle")
                .with_help(
                    "a change to any component of a cycle affects all of them; remove this \
                     dependency if that is not meant",
                ),
            );
        }
    }

    fn validate_case(
        &mut self,
        raw: &RawCase<'_, '_>,
        names: &mut HashMap<String, usize>,
    ) -> Option<TestCase> {
        let name = raw.name.as_ref().and_then(|name| {
            if !self.non_empty(name, "test name", "say what the case checks") {
                return None;
            }
            if let Some(&first) = names.get(&name.value) {
                self.report(
                    Diagnostic::new(
                        Code::DuplicateTestName,
                        name.span.clone(),
                        format!("duplicate test name {}", quote(&name.value)),
                    )
                    .with_label(format!("already used on line {first}"))
                    .with_help(format!(
                        "the first test with this name is on line {first}; give each test its \
                         own name"
                    )),
                );
                return None;
            }
            names.insert(name.value.clone(), self.line(name.span.start));
            Some(name.value.clone())
        });
        let intent = raw.intent.and_then(|intent| self.validate_intent(intent));
        let expect = raw
            .expect
            .as_ref()
            .and_then(|expect| self.decision(expect, "expect"));
        Some(TestCase {
            name: name?,
            line: self.line(raw.header.start),
            intent: intent?,
            expect: expect?,
        })
    }

    /// Converts the inline table to JSON and reads it as an `ActionIntent`, so that a test
    /// intent means exactly what the same JSON means to `astrix evaluate`.
    fn validate_intent(&mut self, intent: &Spanned<DeValue<'_>>) -> Option<ActionIntent> {
        let mut json = String::new();
        write_json(intent.get_ref(), &mut json);
        let err = match ActionIntent::from_json(&json) {
            Ok(parsed) => return Some(parsed),
            Err(err) => err,
        };
        let unknown_field = err.message.starts_with("unknown field");
        let (span, value) = locate(intent, &err.path, unknown_field);
        let path = err.path.trim_matches('.');
        let message = if path.is_empty() {
            "invalid intent".to_owned()
        } else {
            format!("invalid intent at `{path}`")
        };
        let mut label = err
            .message
            .replace("a JSON object with named fields", "an inline table");
        let mut help = None;
        if path.ends_with("modifies_tests") && matches!(value, Some(DeValue::Boolean(_))) {
            "a boolean, not the string \"true\" or \"false\"".clone_into(&mut label);
            help = Some(
                "`modifies_tests` is a string in intents (SPEC §2): write \
                 `modifies_tests = \"true\"` or `\"false\"`"
                    .to_owned(),
            );
        } else if err.message.starts_with("missing field") {
            help = Some(
                "an intent has `actor = { type = … }`, `target = { env = … }`, \
                 `modified_files = […]` and `diff = { modifies_tests = \"true\" or \"false\" }`"
                    .to_owned(),
            );
        }
        self.report(
            Diagnostic::new(Code::InvalidIntent, span, message)
                .with_label(label)
                .with_optional_help(help),
        );
        None
    }
}

// ---------------------------------------------------------------------------------------
// Small pure helpers.

/// A value that was checked and found invalid (the diagnostic is already reported).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Invalid;

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

/// `^[a-z0-9]+(-[a-z0-9]+)*$`.
fn is_rule_id(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|word| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// A kebab-case id close to `text`, for a suggestion (`Agents_CI` → `agents-ci`).
fn kebab_case(text: &str) -> String {
    let mut out = String::new();
    for ch in text.chars().take(64) {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// A cycle of components for a message, `a → b → a`; a long one is shortened.
fn cycle_text(path: &[&str]) -> String {
    const SHOWN: usize = 8;
    if path.len() <= SHOWN {
        return path.join(" → ");
    }
    format!(
        "{} → … → {} ({} components)",
        path[..SHOWN / 2].join(" → "),
        path[path.len() - 2..].join(" → "),
        path.len() - 1
    )
}

/// A directory of `[impact] discover` as a repository-relative path without `./` or a
/// trailing `/` (`""` for the root); `None` when it is absolute, leaves the repository or
/// uses `\\`.
fn normal_directory(dir: &str) -> Option<String> {
    if dir.is_empty() || dir.starts_with('/') || dir.contains('\\') {
        return None;
    }
    let mut parts = Vec::new();
    for part in dir.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// `^[A-Za-z_][A-Za-z0-9_]*$`.
fn is_env_var_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The first offset at which brackets and braces outside strings and comments nest deeper
/// than [`MAX_NESTING`]. Table headers count too, which costs them at most two levels.
fn too_deep(source: &str) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum State {
        Code,
        Comment,
        Basic,
        Literal,
        MultiBasic,
        MultiLiteral,
    }
    let bytes = source.as_bytes();
    let mut state = State::Code;
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        let rest = &bytes[i..];
        match state {
            State::Code => match byte {
                b'#' => state = State::Comment,
                b'"' if rest.starts_with(b"\"\"\"") => {
                    state = State::MultiBasic;
                    i += 2;
                }
                b'"' => state = State::Basic,
                b'\'' if rest.starts_with(b"'''") => {
                    state = State::MultiLiteral;
                    i += 2;
                }
                b'\'' => state = State::Literal,
                b'[' | b'{' => {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Some(i);
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            },
            State::Comment => {
                if byte == b'\n' {
                    state = State::Code;
                }
            }
            State::Basic => match byte {
                b'\\' => i += 1,
                b'"' | b'\n' => state = State::Code,
                _ => {}
            },
            State::Literal => {
                if byte == b'\'' || byte == b'\n' {
                    state = State::Code;
                }
            }
            State::MultiBasic => {
                if byte == b'\\' {
                    i += 1;
                } else if rest.starts_with(b"\"\"\"") {
                    state = State::Code;
                    i += 2;
                    // Up to two more quotes belong to the string's content.
                    while i + 1 < bytes.len() && bytes[i + 1] == b'"' {
                        i += 1;
                    }
                }
            }
            State::MultiLiteral => {
                if rest.starts_with(b"'''") {
                    state = State::Code;
                    i += 2;
                    while i + 1 < bytes.len() && bytes[i + 1] == b'\'' {
                        i += 1;
                    }
                }
            }
        }
        i += 1;
    }
    None
}

/// Writes a TOML value as JSON text. Numbers keep their own digits (no float on the way),
/// so that a test intent means what the same JSON means on the command line; `nan` and
/// `inf`, which JSON cannot write, become strings (and fail any policy that reads them).
fn write_json(value: &DeValue<'_>, out: &mut String) {
    match value {
        DeValue::String(text) => out.push_str(&json_string(text)),
        DeValue::Integer(integer) => {
            if integer.radix() == 10 {
                out.push_str(integer.as_str().trim_start_matches('+'));
            } else {
                match integer_value(integer) {
                    Some(number) => out.push_str(&number.to_string()),
                    None => out.push_str(&json_string(&integer.to_string())),
                }
            }
        }
        DeValue::Float(float) => {
            let text = float.as_str();
            if text.contains("inf") || text.contains("nan") {
                out.push_str(&json_string(text));
            } else {
                out.push_str(text.trim_start_matches('+'));
            }
        }
        DeValue::Boolean(flag) => out.push_str(if *flag { "true" } else { "false" }),
        DeValue::Datetime(datetime) => out.push_str(&json_string(&datetime.to_string())),
        DeValue::Array(array) => {
            out.push('[');
            for (position, element) in array.iter().enumerate() {
                if position > 0 {
                    out.push(',');
                }
                write_json(element.get_ref(), out);
            }
            out.push(']');
        }
        DeValue::Table(table) => {
            out.push('{');
            for (position, (key, element)) in table.iter().enumerate() {
                if position > 0 {
                    out.push(',');
                }
                out.push_str(&json_string(key.get_ref()));
                out.push(':');
                write_json(element.get_ref(), out);
            }
            out.push('}');
        }
    }
}

fn json_string(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// The span of the value at `path` (`diff.modifies_tests`, `modified_files[0]`) inside a
/// test intent, or of the deepest part of it that exists; with `key`, the last key itself.
fn locate<'d, 'i>(
    root: &'d Spanned<DeValue<'i>>,
    path: &str,
    key: bool,
) -> (Range<usize>, Option<&'d DeValue<'i>>) {
    let segments = path_segments(path);
    let mut current = root;
    let mut span = root.span();
    let mut found = true;
    for (position, segment) in segments.iter().enumerate() {
        let last = position + 1 == segments.len();
        let next = match (segment, current.get_ref()) {
            (Segment::Field(name), DeValue::Table(table)) => {
                table.get_key_value(*name).map(|(found_key, value)| {
                    if key && last {
                        span = found_key.span();
                    } else {
                        span = value.span();
                    }
                    value
                })
            }
            (Segment::Index(index), DeValue::Array(array)) => array.get(*index).inspect(|value| {
                span = value.span();
            }),
            _ => None,
        };
        let Some(value) = next else {
            found = false;
            break;
        };
        current = value;
    }
    (span, found.then(|| current.get_ref()))
}

#[derive(Debug, PartialEq, Eq)]
enum Segment<'p> {
    Field(&'p str),
    Index(usize),
}

/// `a.b[0].c` → `a`, `b`, `0`, `c`.
fn path_segments(path: &str) -> Vec<Segment<'_>> {
    let mut segments = Vec::new();
    for part in path.split('.').filter(|part| !part.is_empty()) {
        let (name, mut indices) = part
            .find('[')
            .map_or((part, ""), |bracket| part.split_at(bracket));
        if !name.is_empty() {
            segments.push(Segment::Field(name));
        }
        while let Some(rest) = indices.strip_prefix('[') {
            let Some((number, tail)) = rest.split_once(']') else {
                break;
            };
            match number.parse() {
                Ok(index) => segments.push(Segment::Index(index)),
                Err(_) => break,
            }
            indices = tail;
        }
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Loads `source` and returns every diagnostic, whether it loaded or not.
    fn diagnostics(source: &str) -> Vec<Diagnostic> {
        match load("Astrixfile.ax", source) {
            Ok((_, diagnostics)) | Err(diagnostics) => diagnostics.items,
        }
    }

    /// The expected single diagnostic of a minimal file: its code, message, underlined
    /// text and help, checked as text rather than byte offsets.
    struct Expected<'a> {
        code: &'a str,
        message: &'a str,
        underlined: &'a str,
        help: Option<&'a str>,
    }

    fn check(source: &str, expected: &Expected<'_>) {
        let found = diagnostics(source);
        assert_eq!(
            found.len(),
            1,
            "expected one diagnostic, found {found:#?}\nin:\n{source}"
        );
        let diagnostic = &found[0];
        assert_eq!(diagnostic.code, expected.code, "{diagnostic:#?}");
        assert_eq!(diagnostic.message, expected.message, "{diagnostic:#?}");
        assert_eq!(
            &source[diagnostic.span.clone()],
            expected.underlined,
            "{diagnostic:#?}"
        );
        assert_eq!(diagnostic.help.as_deref(), expected.help, "{diagnostic:#?}");
        assert!(!diagnostic.label.is_empty(), "{diagnostic:#?}");
        assert_eq!(
            Some(diagnostic.severity),
            Code::from_name(diagnostic.code).map(Code::severity)
        );
    }

    /// `name: source => code, message, underlined text, help;`: one test each.
    macro_rules! diagnoses {
        ($($name:ident: $source:expr => $code:expr, $message:expr, $underlined:expr, $help:expr;)*) => {
            $(
                #[test]
                fn $name() {
                    let help: Option<&str> = $help;
                    check(
                        $source,
                        &Expected { code: $code, message: $message, underlined: $underlined, help },
                    );
                }
            )*
        };
    }

    const V: &str = "version = 1\n";

    const INTENT: &str = "{ actor = { type = \"human\" }, target = { env = \"d\" }, modified_files = [], diff = { modifies_tests = \"false\" } }";

    diagnoses! {
        toml_syntax_unquoted_string:
            "version = 1\ndefault = allow\n"
            => "toml-syntax", "string values must be quoted, expected literal string", "allow",
            Some("put the value in double quotes");
        toml_syntax_duplicate_key:
            "version = 1\n[[rule]]\nid = \"a\"\nid = \"b\"\ndecision = \"deny\"\n"
            => "toml-syntax", "duplicate key `id`", "id",
            Some("a key appears once per table; write `[[rule]]` (or `[[test]]`, `[[environment]]`) before each new entry");
        toml_syntax_too_deep:
            &format!("version = 1\nx = {}{}\n", "[".repeat(100_000), "]".repeat(100_000))
            => "toml-syntax", "arrays and inline tables nest deeper than 64 levels", "[",
            Some("astrix reads at most 64 levels of nesting; flatten the value");
        unknown_key_in_rule:
            &format!("{V}[[rule]]\nid = \"a\"\ndecison = \"deny\"\ndecision = \"deny\"\n")
            => "unknown-key", "unknown key `decison` in `[[rule]]`", "decison",
            Some("did you mean `decision`?");
        unknown_key_without_suggestion:
            &format!("{V}[actors]\nfoo = 1\n")
            => "unknown-key", "unknown key `foo` in `[actors]`", "foo",
            Some("`[actors]` accepts `agent_env`, `agent_authors`, `agent_trailers`");
        unknown_top_level_key:
            "version = 1\ndefalt = \"deny\"\n"
            => "unknown-key", "unknown key `defalt`", "defalt", Some("did you mean `default`?");
        unknown_array_of_tables:
            &format!("{V}[[rules]]\nid = \"a\"\n")
            => "unknown-key", "unknown table `[[rules]]`", "[[rules]]", Some("did you mean `[[rule]]`?");
        unknown_table_suggests_its_form:
            &format!("{V}[actor]\nagent_env = []\n")
            => "unknown-key", "unknown table `[actor]`", "[actor]", Some("did you mean `[actors]`?");
        wrong_type_single_table_for_many:
            &format!("{V}[test]\nname = \"a\"\n")
            => "wrong-type", "wrong type for `test`: expected an array of tables, found a table", "[test]",
            Some("write `[[test]]` with two brackets: the file may hold many of them");
        wrong_type_boolean:
            &format!("{V}[[rule]]\nid = \"a\"\nmodifies_tests = \"true\"\ndecision = \"deny\"\n")
            => "wrong-type", "wrong type for `modifies_tests`: expected a boolean, found a string", "\"true\"",
            Some("write `modifies_tests = true`, without quotes");
        wrong_type_single_pattern:
            &format!("{V}[[rule]]\nid = \"a\"\npaths = \"docs/**\"\ndecision = \"deny\"\n")
            => "wrong-type", "wrong type for `paths`: expected an array of strings, found a string", "\"docs/**\"",
            Some("write a list, even of one: `paths = [\"docs/**\"]`");
        wrong_type_in_array:
            &format!("{V}[[rule]]\nid = \"a\"\nactor = [\"human\", 3]\ndecision = \"deny\"\n")
            => "wrong-type", "wrong type in `actor`: expected a string, found an integer", "3", None;
        wrong_type_version_string:
            "version = \"1\"\n"
            => "wrong-type", "wrong type for `version`: expected an integer, found a string", "\"1\"",
            Some("write `version = 1`, without quotes");
        wrong_type_version_float:
            "version = 1.0\n"
            => "wrong-type", "wrong type for `version`: expected an integer, found a float", "1.0",
            Some("write a whole number such as `version = 1`");
        wrong_type_intent:
            &format!("{V}[[test]]\nname = \"a\"\nintent = \"{{}}\"\nexpect = \"allow\"\n")
            => "wrong-type", "wrong type for `intent`: expected a table, found a string", "\"{}\"", None;
        missing_rule_id:
            &format!("{V}[[rule]]\ndecision = \"deny\"\n")
            => "missing-key", "missing key `id` in `[[rule]]`", "[[rule]]",
            Some("give the rule a unique kebab-case id, such as `id = \"ci-config\"`");
        missing_version:
            "default = \"allow\"\n"
            => "missing-key", "missing key `version`", "", Some("add `version = 1` at the top of the file");
        missing_environment_branches:
            &format!("{V}[[environment]]\nname = \"production\"\n")
            => "missing-key", "missing key `branches` in `[[environment]]`", "[[environment]]",
            Some("add the branch patterns, such as `branches = [\"main\", \"release/*\"]`");
        missing_test_expect:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {INTENT}\n")
            => "missing-key", "missing key `expect` in `[[test]]`", "[[test]]",
            Some("add the decision the case expects: `expect = \"allow\"`, `\"require_approval\"` or `\"deny\"`");
        unsupported_version_newer:
            "version = 2\n[future]\nkey = 1\n"
            => "unsupported-version", "version `2` needs a newer astrix", "2",
            Some("this astrix reads version 1; install a newer astrix");
        unsupported_version_huge:
            "version = 99999999999999999999999999999999999999999\n"
            => "unsupported-version", "version `99999999999999999999999999999999999999999` needs a newer astrix",
            "99999999999999999999999999999999999999999",
            Some("this astrix reads version 1; install a newer astrix");
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
        unknown_decision_expect:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {INTENT}\nexpect = \"allowed\"\n")
            => "unknown-decision", "unknown decision `allowed`", "\"allowed\"", Some("did you mean `allow`?");
        missing_decision:
            &format!("{V}[[rule]]\nid = \"a\"\nactor = [\"human\"]\n")
            => "missing-decision", "rule `a` has no `decision`", "[[rule]]",
            Some("add `decision = \"deny\"`, `\"require_approval\"` or `\"allow\"`; only a rule with a `policy` may leave it out");
        duplicate_rule_id:
            &format!("{V}[[rule]]\nid = \"a\"\ndecision = \"deny\"\n\n[[rule]]\nid = \"a\"\ndecision = \"allow\"\n")
            => "duplicate-rule-id", "duplicate rule id `a`", "\"a\"",
            Some("the first rule with this id is on line 3; give each rule its own id");
        invalid_rule_id:
            &format!("{V}[[rule]]\nid = \"Agents_CI\"\ndecision = \"deny\"\n")
            => "invalid-rule-id", "invalid rule id `Agents_CI`", "\"Agents_CI\"",
            Some("an id is lowercase letters and digits in words joined by single hyphens: did you mean `agents-ci`?");
        invalid_rule_id_double_hyphen:
            &format!("{V}[[rule]]\nid = \"a--b\"\ndecision = \"deny\"\n")
            => "invalid-rule-id", "invalid rule id `a--b`", "\"a--b\"",
            Some("an id is lowercase letters and digits in words joined by single hyphens: did you mean `a-b`?");
        invalid_glob:
            &format!("{V}[[rule]]\nid = \"a\"\npaths = [\"docs/**\", \"a[b\"]\ndecision = \"deny\"\n")
            => "invalid-glob", "invalid pattern `a[b` in `paths`", "\"a[b\"",
            Some("unclosed character class; missing ']'");
        invalid_test_glob:
            &format!("{V}[tests]\npaths = [\"{{a\"]\n")
            => "invalid-glob", "invalid pattern `{a` in `paths`", "\"{a\"",
            Some("unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)");
        empty_agent_author_pattern:
            &format!("{V}[actors]\nagent_authors = [\"*[bot] <*>\", \"\"]\n")
            => "empty-value", "empty pattern in `agent_authors`", "\"\"",
            Some("remove the empty entry; `*` matches anything");
        unknown_action:
            &format!("{V}[[rule]]\nid = \"x\"\naction = [\"merg\"]\ndecision = \"deny\"\n")
            => "unknown-action", "unknown action `merg`", "\"merg\"",
            Some("did you mean `merge`?");
        commit_trailers_is_a_boolean:
            &format!("{V}[commit]\ntrailers = \"yes\"\n")
            => "wrong-type", "wrong type for `trailers`: expected a boolean, found a string", "\"yes\"", None;
        invalid_branch_glob:
            &format!("{V}[[environment]]\nname = \"production\"\nbranches = [\"release/[x\"]\n")
            => "invalid-glob", "invalid branch pattern `release/[x` in `branches`", "\"release/[x\"",
            Some("unclosed character class; missing ']'");
        invalid_intent_boolean_modifies_tests:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {}\nexpect = \"allow\"\n", INTENT.replace("\"false\"", "true"))
            => "invalid-intent", "invalid intent at `diff.modifies_tests`", "true",
            Some("`modifies_tests` is a string in intents (SPEC §2): write `modifies_tests = \"true\"` or `\"false\"`");
        invalid_intent_unknown_field:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {}\nexpect = \"allow\"\n", INTENT.replace("\"human\"", "\"human\", kind = \"x\""))
            => "invalid-intent", "invalid intent at `actor.kind`", "kind", None;
        invalid_intent_bad_path:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {}\nexpect = \"allow\"\n", INTENT.replace("[]", "[\"ok\", \"/etc/passwd\"]"))
            => "invalid-intent", "invalid intent at `modified_files[1]`", "\"/etc/passwd\"", None;
        invalid_intent_missing_field:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {}\nexpect = \"allow\"\n", INTENT.replace("target = { env = \"d\" }, ", ""))
            => "invalid-intent", "invalid intent",
            "{ actor = { type = \"human\" }, modified_files = [], diff = { modifies_tests = \"false\" } }",
            Some("an intent has `actor = { type = … }`, `target = { env = … }`, `modified_files = […]` and `diff = { modifies_tests = \"true\" or \"false\" }`");
        duplicate_test_name:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {INTENT}\nexpect = \"allow\"\n[[test]]\nname = \"a\"\nintent = {INTENT}\nexpect = \"allow\"\n")
            => "duplicate-test-name", "duplicate test name `a`", "\"a\"",
            Some("the first test with this name is on line 3; give each test its own name");
        invalid_env_var:
            &format!("{V}[actors]\nagent_env = [\"MY_AGENT\", \"MY-AGENT\"]\n")
            => "invalid-env-var", "invalid environment variable name `MY-AGENT`", "\"MY-AGENT\"",
            Some("a name is ASCII letters, digits and `_`, and does not start with a digit");
        invalid_env_var_leading_digit:
            &format!("{V}[actors]\nagent_env = [\"1AGENT\"]\n")
            => "invalid-env-var", "invalid environment variable name `1AGENT`", "\"1AGENT\"",
            Some("a name is ASCII letters, digits and `_`, and does not start with a digit");
        empty_rule_id:
            &format!("{V}[[rule]]\nid = \"\"\ndecision = \"deny\"\n")
            => "empty-value", "empty rule id", "\"\"",
            Some("give the rule a kebab-case id, such as `ci-config`");
        empty_actor:
            &format!("{V}[[rule]]\nid = \"a\"\nactor = [\"\"]\ndecision = \"deny\"\n")
            => "empty-value", "empty actor type in `actor`", "\"\"", Some("remove the empty entry");
        empty_pattern:
            &format!("{V}[[rule]]\nid = \"a\"\nonly_paths = [\"\"]\ndecision = \"deny\"\n")
            => "empty-value", "empty pattern in `only_paths`", "\"\"", Some("remove the empty entry");
        empty_reason:
            &format!("{V}[[rule]]\nid = \"a\"\ndecision = \"deny\"\nreason = \"\"\n")
            => "empty-value", "empty `reason`", "\"\"", Some("say why the rule exists, or remove `reason`");
        empty_policy:
            &format!("{V}[[rule]]\nid = \"a\"\npolicy = ''\n")
            => "empty-value", "empty `policy`", "''",
            Some("write one comparison such as `lines_changed <= 400`, or remove `policy`");
        empty_condition_paths:
            &format!("{V}[[rule]]\nid = \"a\"\npaths = []\ndecision = \"deny\"\n")
            => "empty-condition", "rule `a` never matches: `paths` is empty", "[]",
            Some("list at least one pattern, or remove `paths`");
        empty_condition_actor:
            &format!("{V}[[rule]]\nid = \"a\"\nactor = []\ndecision = \"deny\"\n")
            => "empty-condition", "rule `a` never matches: `actor` is empty", "[]",
            Some("remove `actor` to match any actor type");
        empty_condition_branches:
            &format!("{V}[[environment]]\nname = \"staging\"\nbranches = []\n")
            => "empty-condition", "environment `staging` never matches a branch: `branches` is empty", "[]",
            Some("list at least one branch pattern, or remove the entry");
        unknown_actor:
            &format!("{V}[[rule]]\nid = \"a\"\nactor = [\"autonomous-llm\"]\ndecision = \"deny\"\n")
            => "unknown-actor", "unknown actor type `autonomous-llm`", "\"autonomous-llm\"",
            Some("did you mean `autonomous_llm`?");
        unknown_env:
            &format!("{V}[[environment]]\nname = \"production\"\nbranches = [\"main\"]\n[[rule]]\nid = \"a\"\nenv = [\"prodution\"]\ndecision = \"deny\"\n")
            => "unknown-env", "unknown environment `prodution`", "\"prodution\"",
            Some("did you mean `production`?");
        duplicate_component:
            &format!("{V}[[component]]\nname = \"web\"\n[[component]]\nname = \"web\"\n")
            => "duplicate-component", "duplicate component `web`", "\"web\"",
            Some("the first component with this name is on line 3; give each component its own name, or merge the two entries");
        unknown_component_without_discovery:
            &format!("{V}[impact]\ndiscover = false\n[[component]]\nname = \"web\"\n[[component]]\nname = \"e2e\"\ndepends_on = [\"wbe\"]\n")
            => "unknown-component", "unknown component `wbe`", "\"wbe\"",
            Some("did you mean `web`?");
        component_cycle:
            &format!("{V}[[component]]\nname = \"a\"\ndepends_on = [\"b\"]\n[[component]]\nname = \"b\"\ndepends_on = [\"c\"]\n[[component]]\nname = \"c\"\ndepends_on = [\"a\"]\n")
            => "component-cycle", "components depend on each other in a cycle: a → b → c → a", "\"a\"",
            Some("a change to any component of a cycle affects all of them; remove this dependency if that is not meant");
        component_depends_on_itself:
            &format!("{V}[[component]]\nname = \"a\"\ndepends_on = [\"a\"]\n")
            => "component-cycle", "components depend on each other in a cycle: a → a", "\"a\"",
            Some("a change to any component of a cycle affects all of them; remove this dependency if that is not meant");
        component_without_name:
            &format!("{V}[[component]]\npaths = [\"web/**\"]\n")
            => "missing-key", "missing key `name` in `[[component]]`", "[[component]]",
            Some("name the component, such as `name = \"web\"`");
        empty_component_test:
            &format!("{V}[[component]]\nname = \"web\"\ntest = \"\"\n")
            => "empty-value", "empty `test`", "\"\"",
            Some("write the shell command that tests the component, or remove `test`");
        discover_of_the_wrong_type:
            &format!("{V}[impact]\ndiscover = \"yes\"\n")
            => "wrong-type", "wrong type for `discover`: expected a boolean or an array of strings, found a string", "\"yes\"",
            None;
        discover_outside_the_repository:
            &format!("{V}[impact]\ndiscover = [\"web\", \"../x\"]\n")
            => "invalid-directory", "invalid directory `../x` in `discover`", "\"../x\"",
            Some("write a directory relative to the repository root with `/` separators, such as `\".\"` or `\"web\"`; `..` and absolute paths are not allowed");
        invalid_ignore_glob:
            &format!("{V}[impact]\nignore = [\"docs/[a\"]\n")
            => "invalid-glob", "invalid pattern `docs/[a` in `ignore`", "\"docs/[a\"",
            Some("unclosed character class; missing ']'");
    }

    #[test]
    fn components_and_impact_load_into_the_policy() {
        let source = r#"version = 1
[impact]
ignore = ["*.md"]
discover = [".", "./web/", "web"]

[[component]]
name = "web"
paths = ["web/**"]
depends_on = ["core"]
test = "npm test"

[[component]]
name = "e2e"
depends_on = ["web"]
"#;
        let (policy, warnings) = load("Astrixfile.ax", source).unwrap();
        assert!(warnings.items.is_empty(), "{warnings:#?}");
        assert_eq!(
            policy.impact.discover,
            Discover::Roots(vec![String::new(), "web".to_owned()])
        );
        assert_eq!(policy.impact.ignore.patterns, ["*.md"]);
        assert_eq!(
            policy.impact.global.patterns.len(),
            DEFAULT_GLOBAL_PATTERNS.len()
        );
        let names: Vec<&str> = policy.components.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["web", "e2e"]);
        let web = &policy.components[0];
        assert_eq!((web.line, web.test.as_deref()), (7, Some("npm test")));
        assert_eq!(web.depends_on, ["core"]);
        assert!(policy.components[1].paths.is_none());
        let mut hits = vec![false; policy.matcher.list_count()];
        policy
            .matcher
            .matching_lists("web/src/app.ts", &mut hits, &mut Vec::new());
        assert!(hits[web.paths.as_ref().unwrap().list.0 as usize]);
        policy
            .matcher
            .matching_lists("Cargo.lock", &mut hits, &mut Vec::new());
        assert!(hits[policy.impact.global.list.0 as usize]);
    }

    #[test]
    fn discovery_defaults_to_the_root_and_can_be_turned_off() {
        let (policy, _) = load("Astrixfile.ax", V).unwrap();
        assert_eq!(policy.impact.discover, Discover::Roots(vec![String::new()]));
        let off = format!("{V}[impact]\ndiscover = false\n");
        let (policy, _) = load("Astrixfile.ax", &off).unwrap();
        assert_eq!(policy.impact.discover, Discover::Off);
    }

    #[test]
    fn a_long_chain_of_components_is_checked_without_recursion() {
        let mut source = V.to_owned();
        for index in 0..10_000 {
            source.push_str(&format!(
                "[[component]]\nname = \"c{index}\"\ndepends_on = [\"c{}\"]\n",
                index + 1
            ));
        }
        source.push_str("[[component]]\nname = \"c10000\"\ndepends_on = [\"c0\"]\n");
        let found = diagnostics(&source);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].code, "component-cycle");
    }

    // NEEDS THE NUMERIC PARSER: these rely on `NumericPolicy::parse` (src/policy/numeric.rs)
    // accepting valid policies and flagging unknown arguments; they fail against its stub.
    diagnoses! {
        invalid_decision_allow_with_policy:
            &format!("{V}[[rule]]\nid = \"a\"\npolicy = \"lines_changed <= 400\"\ndecision = \"allow\"\n")
            => "invalid-decision", "a rule with a `policy` cannot decide `allow`", "\"allow\"",
            Some("a passing policy already allows; the decision applies when the policy fails: `require_approval` (the default) or `deny`");
    }

    /// NEEDS THE NUMERIC PARSER: an unknown argument is underlined inside the string, with a
    /// suggestion (the numeric parser's help, or one computed here).
    #[test]
    fn unknown_argument_is_underlined_inside_the_policy() {
        let source = format!("{V}[[rule]]\nid = \"a\"\npolicy = \"lines_chnged <= 400\"\n");
        let found = diagnostics(&source);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].code, "unknown-argument");
        assert_eq!(&source[found[0].span.clone()], "lines_chnged");
        assert!(found[0].message.contains("lines_chnged"), "{found:#?}");
        assert!(
            found[0]
                .help
                .as_deref()
                .is_some_and(|help| help.contains("lines_changed")),
            "{found:#?}"
        );
    }

    /// NEEDS THE NUMERIC PARSER: a syntax error is reported as `invalid-policy` inside the
    /// string, with the numeric parser's explanation as the label.
    #[test]
    fn invalid_policy_is_underlined_inside_the_policy() {
        let source =
            format!("{V}[[rule]]\nid = \"a\"\npolicy = 'lines_changed between 0 and 200'\n");
        let found = diagnostics(&source);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].code, "invalid-policy");
        assert_eq!(
            found[0].message,
            "invalid policy `lines_changed between 0 and 200`"
        );
        let underlined = &source[found[0].span.clone()];
        assert!(
            !underlined.is_empty() && "lines_changed between 0 and 200".contains(underlined),
            "{underlined:?}"
        );
    }

    /// NEEDS THE NUMERIC PARSER: a policy rule needs no decision, and defaults to a hold.
    #[test]
    fn a_policy_rule_defaults_to_require_approval() {
        let source = format!(
            "{V}[[rule]]\nid = \"a\"\npolicy = \"lines_changed <= 400\"\n\n[[rule]]\nid = \"b\"\npolicy = \"files_changed < 3\"\ndecision = \"deny\"\n"
        );
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        assert_eq!(policy.rules[0].decision, Verdict::RequireApproval);
        assert_eq!(policy.rules[1].decision, Verdict::Deny);
        assert!(policy.rules.iter().all(|rule| rule.policy.is_some()));
    }

    /// NEEDS THE NUMERIC PARSER: the built-in policy loads cleanly, with what it says.
    #[test]
    fn the_default_policy_loads_without_problems() {
        let source = crate::policy::DEFAULT_POLICY;
        let (policy, warnings) = load("Astrixfile.ax", source).unwrap();
        assert!(warnings.items.is_empty(), "{warnings:#?}");
        assert_eq!(policy.rules.len(), source.matches("\n[[rule]]\n").count());
        assert_eq!(policy.cases.len(), source.matches("\n[[test]]\n").count());
        assert_eq!(policy.rules.len(), 14);
        assert_eq!(policy.cases.len(), 19);
        assert_eq!(policy.environments.len(), 2);
        assert_eq!(policy.test_patterns, DEFAULT_TEST_PATTERNS);
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

    #[test]
    fn actor_patterns_and_commit_trailers() {
        let source = format!(
            "{V}[actors]\nagent_authors = [\"*[bot] <*>\"]\nagent_trailers = [\"X-Agent: *\"]\n[commit]\ntrailers = true\n"
        );
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        assert!(policy.actors.agent_authors[0].is_match("Robo[bot] <r@example.com>"));
        assert!(policy.actors.agent_trailers[0].is_match("x-agent: nightly"));
        assert_eq!(policy.commit.trailers, TrailerMode::All);
        let (policy, _) = load("Astrixfile.ax", "version = 1\n").unwrap();
        // Absent: agents' commits get the trailers.
        assert_eq!(policy.commit.trailers, TrailerMode::Agents);
        assert!(!policy.ci.require_provenance);
        assert!(policy.actors.agent_authors.is_empty() && policy.actors.agent_trailers.is_empty());
        let source = format!("{V}[commit]\ntrailers = false\n[ci]\nrequire_provenance = true\n");
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        assert_eq!(policy.commit.trailers, TrailerMode::Off);
        assert!(policy.ci.require_provenance);
        // Provenance required: every commit carries its actor unless the file says otherwise.
        let source = format!("{V}[ci]\nrequire_provenance = true\n");
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        assert_eq!(policy.commit.trailers, TrailerMode::All);
    }

    #[test]
    fn rule_actions_and_ignore_case_load() {
        let source = format!(
            "{V}[[rule]]\nid = \"merges\"\naction = [\"merge\"]\npaths = [\".env\"]\nignore_case = true\ndecision = \"deny\"\n"
        );
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        assert_eq!(policy.rules[0].action, Some(vec![Action::Merge]));
        assert!(policy.rules[0].ignore_case);
    }

    #[test]
    fn warnings_do_not_stop_loading() {
        let source = format!("{V}[[rule]]\nid = \"a\"\npaths = []\ndecision = \"deny\"\n");
        let (policy, warnings) = load("Astrixfile.ax", &source).unwrap();
        assert_eq!(policy.rules.len(), 1);
        assert_eq!(warnings.warning_count(), 1);
        assert!(!warnings.has_errors());
    }

    const FULL: &str = r#"version = 1
default = "require_approval"

[tests]
paths = ["spec/**"]

[[environment]]
name = "production"
branches = ["main", "release/*"]

[actors]
agent_env = ["MY_RUNNER"]

[[rule]]
id = "docs-only"
only_paths = ["docs/**", "*.md"]
decision = "allow"
reason = "documentation"

[[rule]]
id = "ci"
actor = ["autonomous_llm"]
env = ["production", "staging"]
paths = [".github/**"]
modifies_tests = false
decision = "deny"
"#;

    #[test]
    fn a_full_file_loads_into_the_policy() {
        let (policy, warnings) = load("Astrixfile.ax", FULL).unwrap();
        assert!(warnings.items.is_empty(), "{warnings:#?}");
        assert_eq!(policy.default, Verdict::RequireApproval);
        assert_eq!(policy.test_patterns, ["spec/**"]);
        assert_eq!(policy.environments.len(), 1);
        assert_eq!(
            policy
                .environment_for_branch("release/2.0")
                .map(|(env, pattern)| (env.name.as_str(), pattern)),
            Some(("production", "release/*"))
        );
        assert_eq!(policy.actors.agent_env, ["MY_RUNNER"]);
        assert_eq!(policy.rules.len(), 2);
        let docs = &policy.rules[0];
        assert_eq!((docs.id.as_str(), docs.line), ("docs-only", 15));
        assert_eq!(docs.decision, Verdict::Allow);
        assert_eq!(docs.reason.as_deref(), Some("documentation"));
        assert!(docs.paths.is_none() && docs.actor.is_none() && docs.policy.is_none());
        let ci = &policy.rules[1];
        assert_eq!((ci.id.as_str(), ci.line), ("ci", 21));
        assert_eq!(
            ci.actor.as_deref(),
            Some(&["autonomous_llm".to_owned()][..])
        );
        assert_eq!(ci.env.as_ref().map(Vec::len), Some(2));
        assert_eq!(ci.modifies_tests, Some(false));
        assert_eq!(ci.decision, Verdict::Deny);

        // Every list is compiled into the one matcher.
        let lists = [
            policy.tests_list,
            docs.only_paths.as_ref().unwrap().list,
            ci.paths.as_ref().unwrap().list,
        ];
        let mut hits = vec![false; policy.matcher.list_count()];
        let mut scratch = Vec::new();
        for (path, expected) in [
            ("spec/a.rs", [true, false, false]),
            ("docs/x/y.txt", [false, true, false]),
            ("README.md", [false, true, false]),
            (".github/workflows/ci.yml", [false, false, true]),
        ] {
            hits.fill(false);
            policy.matcher.matching_lists(path, &mut hits, &mut scratch);
            let got = lists.map(|list| hits[list.0 as usize]);
            assert_eq!(got, expected, "{path}");
        }
    }

    #[test]
    fn a_key_after_a_rule_belongs_to_the_rule() {
        let found = diagnostics(&format!("{FULL}rule = 3\n"));
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].message, "unknown key `rule` in `[[rule]]`");
    }

    #[test]
    fn rules_may_be_written_as_an_array_of_inline_tables() {
        let source = "version = 1\nrule = [\n  { id = \"a\", decision = \"deny\" },\n  { id = \"b\", decision = \"allow\" },\n]\n";
        let (policy, _) = load("Astrixfile.ax", source).unwrap();
        let lines: Vec<usize> = policy.rules.iter().map(|rule| rule.line).collect();
        assert_eq!(lines, [3, 4]);
        let source = "version = 1\nrule = [{ decision = \"deny\" }]\n";
        let found = diagnostics(source);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "missing-key");
        assert_eq!(&source[found[0].span.clone()], "{ decision = \"deny\" }");
    }

    #[test]
    fn test_cases_keep_their_intent_and_line() {
        let source = format!(
            "{V}\n[[test]]\nname = \"numbers keep their digits\"\nintent = {{ actor = {{ type = \"autonomous_llm\", id = \"x\" }}, target = {{ env = \"production\" }}, modified_files = [\"src/a.rs\"], diff = {{ modifies_tests = \"false\", lines_added = 123456789012345678901234567, lines_deleted = +1_000, binary_files = 1e3, tests_removed = nan, test_skips_added = \"7\", assertions_removed = 0x10 }}, approved = true }}\nexpect = \"require_approval\"\n"
        );
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        let case = &policy.cases[0];
        assert_eq!(case.name, "numbers keep their digits");
        assert_eq!(case.line, 3);
        assert_eq!(case.expect, Verdict::RequireApproval);
        let diff = &case.intent.diff;
        let json = |count: Option<&crate::intent::RawCount>| count.map(|c| c.json().to_owned());
        assert_eq!(
            json(diff.lines_added.as_ref()).as_deref(),
            Some("123456789012345678901234567")
        );
        assert_eq!(json(diff.lines_deleted.as_ref()).as_deref(), Some("1000"));
        assert_eq!(json(diff.binary_files.as_ref()).as_deref(), Some("1e3"));
        assert_eq!(
            json(diff.tests_removed.as_ref()).as_deref(),
            Some("\"nan\"")
        );
        assert_eq!(
            json(diff.test_skips_added.as_ref()).as_deref(),
            Some("\"7\"")
        );
        assert_eq!(
            json(diff.assertions_removed.as_ref()).as_deref(),
            Some("16")
        );
        assert_eq!(case.intent.approved, Some(true));
        assert_eq!(case.intent.actor.id.as_deref(), Some("x"));
    }

    #[test]
    fn every_problem_is_reported_in_one_run() {
        let source = format!(
            "{V}default = \"alow\"\n[[rule]]\nid = \"A\"\ndecison = \"deny\"\n[[rule]]\nid = \"b\"\npaths = [\"a[\"]\ndecision = \"deny\"\n[[rule]]\nid = \"b\"\ndecision = \"deny\"\n"
        );
        let codes: Vec<&str> = diagnostics(&source).iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                "unknown-decision",
                "missing-decision",
                "invalid-rule-id",
                "unknown-key",
                "invalid-glob",
                "duplicate-rule-id"
            ]
        );
    }

    #[test]
    fn a_newer_version_reports_nothing_else() {
        let found = diagnostics("version = 3\ndefault = \"sometimes\"\n[[rule]]\nnew_key = 1\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "unsupported-version");
    }

    #[test]
    fn syntax_errors_do_not_cascade() {
        // The unreadable `decision` must not also be reported as missing.
        let source = format!("{V}[[rule]]\nid = \"a\"\ndecision = deny\n");
        let codes: Vec<&str> = diagnostics(&source).iter().map(|d| d.code).collect();
        assert_eq!(codes, ["toml-syntax"]);
        // A problem elsewhere is still reported beside the syntax error.
        let source = format!(
            "{V}[[rule]]\nid = \"a\"\ndecision = deny\n[[rule]]\nid = \"B\"\ndecision = \"deny\"\n"
        );
        let codes: Vec<&str> = diagnostics(&source).iter().map(|d| d.code).collect();
        assert_eq!(codes, ["toml-syntax", "invalid-rule-id"]);
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        // A small stack shows that nothing recurses as deep as the input nests.
        let handle = std::thread::Builder::new()
            .stack_size(1024 * 1024)
            .spawn(|| {
                for (open, close) in [("[", "]"), ("{a=", "}")] {
                    for depth in [65, 100_000] {
                        let source = format!(
                            "version = 1\nx = {}{}\n",
                            open.repeat(depth),
                            close.repeat(depth)
                        );
                        let found = diagnostics(&source);
                        assert_eq!(found.len(), 1);
                        assert_eq!(found[0].code, "toml-syntax");
                    }
                }
                // Inside strings and comments brackets do not count.
                let quoted = format!(
                    "version = 1\n# {}\nx = \"{}\"\ny = '''{}'''\n",
                    "[".repeat(100),
                    "[".repeat(100),
                    "{".repeat(100)
                );
                let codes: Vec<&str> = diagnostics(&quoted).iter().map(|d| d.code).collect();
                assert_eq!(codes, ["unknown-key", "unknown-key"]);
                // 64 levels are fine as far as nesting goes.
                let deep = format!("version = 1\nx = {}{}\n", "[".repeat(64), "]".repeat(64));
                let codes: Vec<&str> = diagnostics(&deep).iter().map(|d| d.code).collect();
                assert_eq!(codes, ["unknown-key"]);
                // Dotted keys nest tables without brackets: toml stops them at 80 parts, and
                // the error points at the key's line and says what to do.
                for parts in [81, 100_000] {
                    let key = vec!["a"; parts].join(".");
                    for source in [
                        format!("version = 1\n{key} = 1\n"),
                        format!("version = 1\n[{key}]\n"),
                        format!("version = 1\n[[test]]\nintent = {{ {key} = 1 }}\n"),
                    ] {
                        let found = diagnostics(&source);
                        assert_eq!(found.len(), 1, "{found:?}");
                        assert_eq!(found[0].code, "toml-syntax");
                        assert_eq!(found[0].message, "a dotted key has too many parts");
                        assert!(source[found[0].span.clone()].contains("a.a.a"));
                        assert!(found[0].help.as_deref().unwrap().contains("fewer dots"));
                    }
                }
                let key = vec!["a"; 80].join(".");
                let codes: Vec<&str> = diagnostics(&format!("version = 1\n{key} = 1\n"))
                    .iter()
                    .map(|d| d.code)
                    .collect();
                assert_eq!(codes, ["unknown-key"]);
            })
            .unwrap();
        handle.join().unwrap();
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_before_parsing() {
        // Valid TOML, so only the size can be what is refused.
        let mut source = format!("{V}# ");
        source.push_str(&"x".repeat(MAX_POLICY_BYTES - source.len()));
        assert_eq!(source.len(), MAX_POLICY_BYTES);
        assert!(diagnostics(&source).is_empty());
        source.push('\n');
        let found = diagnostics(&source);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "file-too-large");
        assert_eq!(
            found[0].message,
            format!(
                "the file is {} bytes, more than the 10 MiB astrix reads",
                MAX_POLICY_BYTES + 1
            )
        );
        assert!(found[0].help.as_deref().unwrap().contains("`dir/**`"));
    }

    #[test]
    fn hostile_input_never_panics() {
        let base = crate::policy::DEFAULT_POLICY;
        let cuts: Vec<usize> = (0..base.len())
            .filter(|&i| base.is_char_boundary(i))
            .step_by(37)
            .collect();
        for cut in cuts {
            let _ = diagnostics(&base[..cut]);
            let mut spliced = base[..cut].to_owned();
            spliced.push_str("\"'[{\u{1b}\\");
            spliced.push_str(&base[cut..]);
            let _ = diagnostics(&spliced);
        }
        for source in [
            "",
            "\u{feff}",
            "\0",
            "[[",
            "version = 1\n[[rule]]\n[[rule]]\n",
            "= 1",
            "'''",
            "\"\"\"",
            "version = 1\n[[test]]\nintent = { diff = { modifies_tests = 1979-05-27 } }\n",
        ] {
            let _ = diagnostics(source);
        }
    }

    #[test]
    fn many_problems_stay_fast() {
        let entries = "\"\", ".repeat(20_000);
        let source = format!("{V}[[rule]]\nid = \"a\"\nactor = [{entries}]\ndecision = \"deny\"\n");
        let start = std::time::Instant::now();
        let found = load("Astrixfile.ax", &source).unwrap_err();
        assert_eq!(found.items.len(), 20_000);
        let mut out = Vec::new();
        found.render(&mut out, false).unwrap();
        let _ = found.to_json();
        assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
    }

    #[test]
    fn path_segments_split_fields_and_indices() {
        assert_eq!(
            path_segments("a.b[0][12].c"),
            [
                Segment::Field("a"),
                Segment::Field("b"),
                Segment::Index(0),
                Segment::Index(12),
                Segment::Field("c")
            ]
        );
        assert!(path_segments(".").is_empty());
    }

    /// The TOML code blocks of a Markdown text, with their line and the code of an
    /// `<!-- invalid: CODE -->` line right before them.
    fn toml_blocks(markdown: &str) -> Vec<(usize, Option<&str>, String)> {
        let mut blocks = Vec::new();
        let mut previous = "";
        let mut current: Option<(usize, Option<&str>, String)> = None;
        for (number, line) in markdown.lines().enumerate() {
            match &mut current {
                Some(_) if line.trim_end() == "```" => blocks.extend(current.take()),
                Some((_, _, text)) => {
                    text.push_str(line);
                    text.push('\n');
                }
                None if line.trim_end() == "```toml" => {
                    let code = previous
                        .trim()
                        .strip_prefix("<!-- invalid:")
                        .and_then(|rest| rest.strip_suffix("-->"))
                        .map(str::trim);
                    current = Some((number + 1, code, String::new()));
                }
                None => {}
            }
            previous = line;
        }
        blocks
    }

    /// NEEDS THE NUMERIC PARSER for the examples that use `policy`.
    #[test]
    fn the_examples_in_the_documentation_load_as_documented() {
        let markdown = include_str!("../../docs/astrixfile.md");
        let blocks = toml_blocks(markdown);
        assert!(blocks.len() >= 20, "found only {} blocks", blocks.len());
        let mut failures = Vec::new();
        for (line, code, text) in &blocks {
            let found = diagnostics(text);
            let codes: Vec<&str> = found.iter().map(|diagnostic| diagnostic.code).collect();
            match code {
                Some(code) => {
                    assert!(
                        Code::from_name(code).is_some(),
                        "line {line}: no code {code}"
                    );
                    if !codes.contains(code) || load("Astrixfile.ax", text).is_ok() {
                        failures.push(format!("line {line}: expected `{code}`, found {codes:?}"));
                    }
                }
                None if !found.is_empty() => {
                    failures.push(format!(
                        "line {line}: expected no problem, found {found:#?}"
                    ));
                }
                None => {}
            }
        }
        assert!(
            failures.is_empty(),
            "docs/astrixfile.md:\n{}",
            failures.join("\n")
        );
    }

    /// The complete policies among the examples of docs/blast-radius.md load without
    /// problems too.
    #[test]
    fn the_policy_examples_of_the_blast_radius_page_load() {
        let markdown = include_str!("../../docs/blast-radius.md");
        let blocks: Vec<String> = toml_blocks(markdown)
            .into_iter()
            .map(|(_, _, text)| text)
            .filter(|text| text.starts_with("version = 1"))
            .collect();
        assert!(blocks.len() >= 3, "found only {} policies", blocks.len());
        for text in blocks {
            let found = diagnostics(&text);
            assert!(found.is_empty(), "{text}\n{found:#?}");
        }
    }

    #[test]
    fn every_code_is_documented() {
        let markdown = include_str!("../../docs/astrixfile.md");
        for code in Code::ALL {
            let row = format!("| `{}` | {} |", code.as_str(), code.severity().name());
            assert!(
                markdown.contains(&row),
                "docs/astrixfile.md lacks the row {row}"
            );
        }
    }

    /// One file with many kinds of mistakes, all reported in one run. The two policy
    /// diagnostics come from the numeric parser: re-review this snapshot when it changes.
    const MANY_MISTAKES: &str = r#"version = 1
default = "allow"

[[environment]]
name = "production"
branches = ["main", "release/*"]

[[rule]]
id = "agents-off-production"
actor = ["autonomous_llm"]
env = ["production"]
decison = "deny"

[[rule]]
id = "ci-config"
paths = ".github/**"
decision = "require_approval"

[[rule]]
id = "ci-config"
paths = [".gitlab-ci.yml"]
decision = "block"

[[rule]]
id = "vendored"
paths = ["vendor/[a-z"]
decision = "deny"

[[rule]]
id = "agent-diff-size"
policy = "lines_changed between 0 and 200"

[[rule]]
id = "agent-file-count"
policy = "files_chaged < 30"

[[test]]
name = "an agent on main is denied"
intent = { actor = { type = "autonomous_llm" }, target = { env = "production" }, modified_files = ["src/lib.rs"], diff = { modifies_tests = false } }
expect = "deny"
"#;

    #[test]
    fn snapshot_of_a_file_with_many_mistakes() {
        let diagnostics = load("Astrixfile.ax", MANY_MISTAKES).unwrap_err();
        let mut text = Vec::new();
        diagnostics.render(&mut text, false).unwrap();
        let text = String::from_utf8(text).unwrap();
        insta::with_settings!({
            snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"),
            prepend_module_to_snapshot => false,
        }, {
            insta::assert_snapshot!("astrixfile_many_mistakes_text", text);
            insta::assert_json_snapshot!("astrixfile_many_mistakes_json", diagnostics.to_json());
        });
    }
}
