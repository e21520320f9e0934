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
//! sorted into file order. The phases share one [`Loader`], which each extends in its own
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

/// Reads one file; collects every diagnostic.
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
    use crate::intent::Action;
    use crate::policy::{Discover, TrailerMode, Verdict};

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
