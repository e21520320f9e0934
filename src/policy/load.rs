//! Loading an Astrixfile.ax: the entry [`load()`], the guards that run before parsing, and
//! the two phases in order.
//!
//! Every step reports into one list of diagnostics, so that one run shows every problem
//! (STYLE §4.5); nothing fails fast:
//!
//! 1. **guards** (here): a file larger than [`MAX_POLICY_BYTES`] is refused, and a pre-scan
//!    refuses nesting deeper than [`MAX_NESTING`] levels, before anything is parsed.
//! 2. **read** (`read.rs`): the structure. toml's recoverable parser builds a spanned tree,
//!    whose errors become `toml-syntax` diagnostics; known keys, value types and required
//!    keys are checked while the tree is read into `Raw…` records (`raw.rs`) that keep every
//!    span (the `read_…` functions).
//! 3. **validate** (`validate/`): the meaning. Rule ids, duplicates, decisions, globs,
//!    numeric policies and `[[test]]` intents are checked while the records become a
//!    [`Policy`] (the `validate_…` functions).
//!
//! After a syntax error, what may stem from the parser's recovery is dropped; the rest is
//! sorted into file order. The phases share one `Loader`, which each extends in its own
//! module.
//!
//! To add a key: list it in `keys.rs`, give its table's `Raw…` record a field for it, read it
//! in the `read_…` function of its table, check it in the matching `validate_…` function,
//! and describe it in `schema.rs` (a test keeps the schema and `keys` in sync). A new table
//! is a new `keys` list, a `Raw…` record, a `read_…` function built from the same `Loader`
//! helpers, and a `validate_…` pass.

use std::collections::HashSet;

use super::Policy;
use super::text::suggest;
use crate::diagnostic::{Code, Diagnostic, Diagnostics, LineIndex};

pub use super::validate::{DEFAULT_APPROVAL_TTL, DEFAULT_GLOBAL_PATTERNS, DEFAULT_TEST_PATTERNS};

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

/// One file being loaded: its source, every diagnostic found so far and the budget of
/// suggestions. Reading (`read.rs`) and validation (`validate/`) add their methods to it in
/// their own modules; both report through the helpers here.
pub(super) struct Loader<'s> {
    pub(super) source: &'s str,
    index: LineIndex,
    diagnostics: Vec<Diagnostic>,
    /// "Did you mean" hints still allowed: each costs edit distances, and a hostile file
    /// with a million misspellings must stay fast. Real files need a handful.
    suggestions_left: usize,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Verdict;
    use crate::policy::testing::{V, diagnoses, diagnostics};

    diagnoses! {
        toml_syntax_too_deep:
            &format!("version = 1\nx = {}{}\n", "[".repeat(100_000), "]".repeat(100_000))
            => "toml-syntax", "arrays and inline tables nest deeper than 64 levels", "[",
            Some("astrix reads at most 64 levels of nesting; flatten the value");
    }

    /// NEEDS THE NUMERIC PARSER: the built-in policy loads cleanly, with what it says.
    #[test]
    fn the_default_policy_loads_without_problems() {
        let source = crate::policy::DEFAULT_POLICY;
        let (policy, warnings) = load("Astrixfile.ax", source).unwrap();
        assert!(warnings.items.is_empty(), "{warnings:#?}");
        assert_eq!(policy.rules.len(), source.matches("\n[[rule]]\n").count());
        assert_eq!(policy.cases.len(), source.matches("\n[[test]]\n").count());
        assert_eq!(policy.rules.len(), 16);
        assert_eq!(policy.cases.len(), 24);
        assert_eq!(policy.environments.len(), 2);
        assert_eq!(policy.test_patterns, DEFAULT_TEST_PATTERNS);
    }

    /// What judges without the cases, the text before them, is the same policy: the same
    /// rules, in the same order, on the same lines, with the same warnings (none); and what
    /// follows it is cases alone.
    #[test]
    fn the_default_policy_without_cases_judges_alike() {
        let source = crate::policy::DEFAULT_POLICY;
        let rules = crate::policy::DEFAULT_POLICY_RULES;
        assert!(source.starts_with(rules) && rules.len() < source.len());
        let (full, _) = load("Astrixfile.ax", source).unwrap();
        let (judging, warnings) = load("Astrixfile.ax", rules).unwrap();
        assert!(warnings.items.is_empty(), "{warnings:#?}");
        assert!(judging.cases.is_empty());
        let without_cases = |policy: &Policy| {
            format!("{policy:?}").replace(&format!("cases: {:?}", policy.cases), "")
        };
        assert_eq!(without_cases(&judging), without_cases(&full));
        let rest: toml::Table = toml::from_str(&source[rules.len()..]).unwrap();
        assert_eq!(rest.keys().collect::<Vec<_>>(), ["test"]);
        assert_eq!(
            rest["test"].as_array().map(Vec::len),
            Some(full.cases.len())
        );
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

    /// Every TOML example of docs/ci.md is a complete policy that loads without problems:
    /// a reader can save it as `Astrixfile.ax` as it is. Covers issue 22.
    #[test]
    fn the_policy_examples_of_the_ci_page_are_complete_and_load() {
        let markdown = include_str!("../../docs/ci.md");
        let blocks = toml_blocks(markdown);
        assert!(!blocks.is_empty(), "docs/ci.md shows no policy");
        for (line, _, text) in blocks {
            assert!(
                text.starts_with("version = 1\n"),
                "docs/ci.md:{line}: not a complete policy:\n{text}"
            );
            let found = diagnostics(&text);
            assert!(found.is_empty(), "docs/ci.md:{line}:\n{text}\n{found:#?}");
        }
    }

    /// The policy examples of docs/test-tampering.md load without problems: they name the
    /// tampering arguments as the policy language knows them.
    #[test]
    fn the_policy_examples_of_the_test_tampering_page_load() {
        let markdown = include_str!("../../docs/test-tampering.md");
        let blocks = toml_blocks(markdown);
        assert!(!blocks.is_empty(), "docs/test-tampering.md shows no policy");
        for (line, _, text) in blocks {
            let found = diagnostics(&text);
            assert!(
                found.is_empty(),
                "docs/test-tampering.md:{line}:\n{text}\n{found:#?}"
            );
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
