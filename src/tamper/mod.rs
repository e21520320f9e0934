//! Test tampering (SPEC §6.1): tests removed, skip markers added and assertions removed by a
//! change, found in the line diff of each changed file.
//!
//! Pure functions over the old and new bytes of a file: no IO, no git. [`analyze_file`]
//! looks at one file, [`combine`] nets the files of a change into the three counts that
//! policies read (`tests_removed`, `test_skips_added`, `assertions_removed`).
//!
//! # How a file is analysed
//!
//! 1. The language comes from the file extension ([`language_of`]); other files are not
//!    analysed at all. Each language has one table of patterns (`rust.rs`, `python.rs`,
//!    `javascript.rs`, `go.rs`, `jvm.rs`); docs/test-tampering.md lists them.
//! 2. Both sides are split into lines and diffed with git's Myers (`gix-imara-diff`, the diff
//!    behind the line counts; when the counts ran first, their diff of the same blobs is
//!    reused, see [`analyze_file_with`]).
//! 3. A per-line lexer (`lex.rs`) follows the diff and steps the state each line starts in
//!    on both sides: code, inside a block comment, inside a string that spans lines. An
//!    unchanged line that starts in the same state on both sides is stepped over once.
//! 4. Each removed and added line is stripped of comments and string contents and split
//!    into tokens; the table's patterns are counted on the tokens (`pattern.rs`). A line that
//!    the diff calls unchanged is looked at too when it starts in a different lexer state on
//!    the two sides: that is how a test that was commented out by a `/*` opened above it, or
//!    swallowed by a docstring, is found.
//!
//! Counts are nets: what removed lines hold minus what added lines hold (for skips, the
//! other way round). Because unchanged lines contribute equally to both sides, each net
//! equals "matches in the old file minus matches in the new file", so it does not depend on
//! how the diff aligns lines; the diff only decides which lines the findings point at.
//!
//! # What is heuristic
//!
//! This is token matching over lexed lines, not parsing:
//! - comments and strings are recognised per line with a small state machine; JavaScript
//!   regular expressions are told from divisions by the token before the `/`; template
//!   literals and Kotlin string templates are strings as a whole, `${…}` included (a
//!   template nested in another's `${…}` ends the outer one early);
//! - a pattern matches one line: a construct split over lines (`#[\ntest]`, a node:test
//!   `{ skip: true }` option on its own line) is not seen;
//! - tests that macros or loops generate count where they are written (one `#[test]` in a
//!   `macro_rules!` body counts once, however many tests it expands to; table rows of a
//!   parametrised test are not cases);
//! - name rules and library code are told apart by the file and, in Rust, by its test
//!   items (`place.rs`), not by what calls what: a helper that asserts, outside test code,
//!   counts nothing;
//! - an assertion weakened into another assertion (`assert_eq!(x, 3)` into
//!   `assert!(true)`, or into `assert!(x.is_some())`) is not a removal; it counts in
//!   `assertions_weakened`;
//! - doctests (code in Rust doc comments) count no tests or assertions; a changed line of
//!   one is a test change (`blocks.rs`).

mod alias;
mod blocks;
mod branches;
mod config;
mod context;
mod go;
mod javascript;
mod jvm;
mod lex;
mod neuter;
mod pattern;
mod place;
pub mod plugins;
mod python;
mod rust;

use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::linediff::LineDiff;

use self::context::Context;
use self::lex::{State, Syntax};
use self::neuter::Trigger;
use self::pattern::{Pattern, Token};

/// Sides larger than this (in bytes) are not analysed; the result says so. A file whose old
/// side is larger counts nothing; a new side that is larger counts as empty (see
/// [`analyze_file`]).
///
/// Checked before anything is read into lines, so that a generated multi-megabyte fixture
/// cannot make the hook slow. Real test files are far smaller.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// Git calls content binary when one of its first this many bytes is NUL.
const BINARY_SNIFF_BYTES: usize = 8000;

/// A finding's line text is cut to this many characters.
const MAX_TEXT_CHARS: usize = 120;

/// A language the analysis knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Rust: `.rs`.
    Rust,
    /// Python (pytest, unittest): `.py`.
    Python,
    /// JavaScript and TypeScript (Jest, Vitest, Mocha, node:test, Playwright): `.js`,
    /// `.jsx`, `.mjs`, `.cjs`, `.ts`, `.tsx`, `.mts`, `.cts`.
    JavaScript,
    /// Go: `.go`.
    Go,
    /// Java (`JUnit` 4 and 5, `TestNG`): `.java`.
    Java,
    /// Kotlin (`JUnit`, `kotlin.test`): `.kt`, `.kts`.
    Kotlin,
    /// A file that configures what a test runner selects or runs (`pytest.ini`,
    /// `Cargo.toml`, `package.json`, a `Makefile`): only its test settings are compared.
    #[serde(rename = "runner_config")]
    RunnerConfig,
}

/// The patterns of one language: what a test, a skip marker and an assertion look like.
///
/// Adding a language is adding one `Table` in its own file and listing it in [`TABLES`].
#[derive(Debug)]
pub(crate) struct Table {
    /// The language.
    pub language: Language,
    /// File extensions, lowercase, without the dot.
    pub extensions: &'static [&'static str],
    /// How the language writes comments and literals.
    pub syntax: Syntax,
    /// Each match is one test function or case.
    pub tests: &'static [Pattern],
    /// Each match is one skip, ignore, xfail, todo or focus (`.only`) marker.
    pub skips: &'static [Pattern],
    /// Each match is one assertion.
    pub assertions: &'static [Pattern],
    /// Each match stops one test from running while its code stays (`#[should_panic]`
    /// added): it counts as a test removed.
    pub disables: &'static [Pattern],
    /// Each match makes assertions check nothing without removing them (an assertion macro
    /// redefined).
    pub weakeners: &'static [Pattern],
    /// Each match in test code lets a failing check pass without it failing the test (`except
    /// AssertionError`, `catch_unwind`): it weakens the assertions it wraps. Library code's
    /// do not count.
    pub swallowers: &'static [Pattern],
    /// Code that changes what the runner selects (`collect_ignore` in a `conftest.py`), by
    /// the name the report gives it.
    pub selectors: &'static [(&'static str, Pattern)],
}

/// Every language table, looked up by extension.
const TABLES: &[&Table] = &[
    &rust::TABLE,
    &python::TABLE,
    &javascript::TABLE,
    &go::TABLE,
    &jvm::JAVA,
    &jvm::KOTLIN,
];

/// A changed line that makes a change that counts nothing a test change (in Rust).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TestLine {
    /// The side its number counts on.
    pub side: Side,
    /// Its 1-based number.
    pub line: usize,
    /// What it is in.
    pub what: TestLineKind,
    /// The line, as a finding shows it.
    pub text: String,
}

/// What a [`TestLine`] is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TestLineKind {
    /// Test code: a test module or function, a test macro's invocation.
    TestCode,
    /// A doc comment's code example, or a fence or setting of one.
    Doctest,
    /// An out-of-line module declaration (`mod parse;`) removed or gated.
    ModuleDeclaration,
    /// A pytest hook's definition (`def pytest_collection_modifyitems`) in a Python module
    /// outside the test paths: a plugin module, which pytest runs with the tests wherever it
    /// is registered, in whatever way.
    PytestHook,
}

/// Which side of the diff a finding's line number refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The file before the change: removed lines.
    Old,
    /// The file after the change: added lines.
    New,
}

/// What a finding's line did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// A removed line held a test (old side).
    TestRemoved,
    /// An added line holds a test (new side); it offsets a removal.
    TestAdded,
    /// An added line holds a skip marker (new side).
    SkipAdded,
    /// A removed line held a skip marker (old side); it offsets an addition.
    SkipRemoved,
    /// A removed line held an assertion (old side).
    AssertionRemoved,
    /// An added line holds an assertion (new side); it offsets a removal.
    AssertionAdded,
    /// An added line stops a test from running while its code stays (`#[should_panic]`,
    /// `del test_x`, `test_x = None`): it counts as a test removed (new side).
    TestDisabled,
    /// A removed line had stopped a test from running (old side); it offsets a disabling.
    TestEnabled,
    /// An added line makes the code below it dead (`#[cfg(not(test))]`, `if False:`, a
    /// `return` at the top of a test body, `__test__ = False`): the tests and assertions
    /// there count as removed, and are listed as unchanged lines (new side).
    DeadCodeAdded,
    /// A removed line had made the code below it dead (old side).
    DeadCodeRemoved,
    /// An added line holds an assertion that checks nothing (`assert True`, `assert_eq!(x,
    /// x)`, `expect(true).toBe(true)`), or redefines an assertion (new side).
    AssertionWeakened,
    /// A removed line held an assertion that checked nothing (old side); it offsets one.
    WeakAssertionRemoved,
    /// A changed line changes what the test runner selects or runs; `text` names the
    /// setting or target (`[tool.pytest.ini_options] addopts`, `scripts.test`).
    TestConfigChanged,
}

/// The things counted; each finding kind belongs to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Measure {
    Tests,
    Skips,
    Assertions,
    Weakened,
    /// Dead-code lines: kept when the file's tests or assertions explain a count.
    Dead,
    Config,
}

impl FindingKind {
    /// Whether the kind counts its measure up (a test removed, a skip added) or down (a
    /// test added offsets a removal); `None` for dead-code and runner-setting lines.
    fn counts_up(self) -> Option<bool> {
        match self {
            Self::TestRemoved
            | Self::TestDisabled
            | Self::SkipAdded
            | Self::AssertionRemoved
            | Self::AssertionWeakened => Some(true),
            Self::TestAdded
            | Self::TestEnabled
            | Self::SkipRemoved
            | Self::AssertionAdded
            | Self::WeakAssertionRemoved => Some(false),
            Self::DeadCodeAdded | Self::DeadCodeRemoved | Self::TestConfigChanged => None,
        }
    }

    fn measure(self) -> Measure {
        match self {
            Self::TestRemoved | Self::TestAdded | Self::TestDisabled | Self::TestEnabled => {
                Measure::Tests
            }
            Self::SkipAdded | Self::SkipRemoved => Measure::Skips,
            Self::AssertionRemoved | Self::AssertionAdded => Measure::Assertions,
            Self::AssertionWeakened | Self::WeakAssertionRemoved => Measure::Weakened,
            Self::DeadCodeAdded | Self::DeadCodeRemoved => Measure::Dead,
            Self::TestConfigChanged => Measure::Config,
        }
    }
}

/// One line of a changed file that holds tests, skip markers or assertions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The repository-relative path of the file (its new path for a rename).
    pub path: String,
    /// The 1-based line number, in the old file for [`Side::Old`] and in the new file for
    /// [`Side::New`].
    pub line: usize,
    /// Which file `line` is in: old for removals, new for additions.
    pub side: Side,
    /// What the line did.
    pub kind: FindingKind,
    /// How many of `kind` the line holds (`assert!(a); assert!(b);` holds two).
    pub count: u32,
    /// The line itself is the same on both sides; an edit elsewhere changed what it is (a
    /// `/*` opened above it comments it out, or a docstring now swallows it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unchanged: bool,
    /// The line, trimmed and cut to 120 characters (invalid UTF-8 replaced).
    pub text: String,
}

/// Why a file's content was not analysed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum Skipped {
    /// A side is larger than [`MAX_FILE_BYTES`]: the old side (nothing was counted), or
    /// only the new side (it counted as empty, so a test file that outgrew the budget lost
    /// all its tests).
    TooLarge {
        /// The size of the larger side, in bytes.
        bytes: usize,
    },
    /// A side is binary (a NUL in its first 8000 bytes); that side counted as empty, so a
    /// test file turned binary lost all its tests.
    Binary,
}

/// The test tampering in one changed file.
///
/// The counts are signed nets for this file: a negative `tests_removed` means more tests
/// were added than removed. Only [`combine`] floors them, after netting across files, so
/// that a test moved from one file to another cancels out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileTamper {
    /// The repository-relative path of the file (its new path for a rename).
    pub path: String,
    /// The language its extension names.
    pub language: Language,
    /// Tests on removed lines minus tests on added lines.
    pub tests_removed: i64,
    /// Skip markers on added lines minus skip markers on removed lines.
    pub test_skips_added: i64,
    /// Assertions on removed lines minus assertions on added lines.
    pub assertions_removed: i64,
    /// Assertions that check nothing (or redefinitions of one) on added lines minus those on
    /// removed lines.
    #[serde(skip_serializing_if = "is_zero")]
    pub assertions_weakened: i64,
    /// The test-runner settings or targets this change touches in this file, each named
    /// once (`[tool.pytest.ini_options] addopts`, `scripts.test`, `collect_ignore`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub test_config_changed: Vec<String>,
    /// A removed line held a test or an added line holds a skip marker, whatever the nets:
    /// the change touches this file's tests, so the intent modifies tests (SPEC §6.1) even
    /// when the path is not a test path. A renamed test sets it too, and so do a disabled
    /// test, a weakened assertion and a changed runner setting.
    pub removes_or_skips_tests: bool,
    /// The first changed line (1-based, on its side) inside a Rust test item of a file
    /// outside test paths (`#[cfg(test)] mod tests { … }` in `src/`): what makes a change
    /// that counts nothing a test change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_item_line: Option<TestLine>,
    /// Rust modules whose out-of-line declaration (`mod parse;`) this change removes, each
    /// with its line: a test change unless the change also moves or deletes the module's
    /// file ([`combine`] decides, knowing every file of the change).
    #[serde(skip)]
    pub dropped_modules: Vec<(String, TestLine)>,
    /// The path the file had before a rename.
    #[serde(skip)]
    pub old_path: Option<String>,
    /// Set when the content was not (fully) analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<Skipped>,
    /// The old side was over [`MAX_FILE_BYTES`], so nothing of this file was counted: the
    /// change's counts are unknown, not zero.
    #[serde(skip)]
    pub uncounted: bool,
    /// Every matched line in diff order, both directions (a `TestAdded` next to a
    /// `TestRemoved` shows a rename). [`combine`] keeps only those that explain a count.
    pub findings: Vec<Finding>,
    /// Rust macros that this file's change defines or removes whose body holds a test
    /// attribute: their invocations anywhere in the change count as tests ([`combine`]).
    #[serde(skip)]
    pub test_macros: Vec<String>,
    /// Item-level Rust macro invocations on changed lines (`rgtest!(name, …)`), for
    /// [`combine`] to count those of test macros.
    #[serde(skip)]
    pub macro_calls: Vec<MacroCall>,
    /// Skip markers bound to a name that only this file's new tests use, taken off its
    /// count: counted again ([`Self::named_skip_used_elsewhere`]) when another file of the
    /// change mentions the name (it may import it onto tests that ran).
    #[serde(skip)]
    pub named_skips: Vec<NamedSkip>,
    /// Changed lines of a hook at the top level of a Python module that is not a
    /// `conftest.py` (`def pytest_collection_modifyitems` and its body in `tools/sel.py`):
    /// a plugin module's hooks change the run only where a conftest or the runner's
    /// configuration registers the module, which this file cannot tell. Counted as the
    /// setting `a collection hook` when the change's repository does
    /// ([`Self::plugin_registered`]); pytest's own source defines the same hooks as its code.
    #[serde(skip)]
    pub plugin_hooks: Vec<Finding>,
    /// What the repository may load this file as with the tests, which it alone can tell
    /// ([`Self::plugin_registered`]).
    #[serde(skip)]
    pub harness: Option<Harness>,
    /// The file that loads this file with the tests (`conftest.py`, `.mocharc.json`), when
    /// one does: its change is a test change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loaded_by: Option<LoadedBy>,
}

/// The file that loads a file with the tests ([`FileTamper::loaded_by`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoadedBy {
    /// Its repository-relative path.
    pub path: String,
    /// Whether pytest registers the module's hooks (a plugin), not only runs its code (a
    /// module a conftest imports, a setup file).
    pub hooks: bool,
}

/// What a file outside the test paths may be to the test run, which only the repository
/// around it can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Harness {
    /// A Python module that names pytest: a plugin when the repository registers it.
    PytestPlugin,
    /// A JavaScript file: a setup file (an environment, the script `npm test` runs) when a
    /// test runner's configuration names it.
    SetupFile,
}

impl Harness {
    /// What the file at `path` with `sides` may be: a Python module that names pytest (or
    /// one too large to read, `unread`), any JavaScript file; nothing in the test paths,
    /// which are test code already.
    fn of(language: Language, path: &str, sides: [&[u8]; 2], unread: bool) -> Option<Self> {
        match language {
            Language::Python
                if !context::python_test_location(path)
                    && (unread
                        || sides
                            .iter()
                            .any(|side| memchr::memmem::find(side, b"pytest").is_some())) =>
            {
                Some(Self::PytestPlugin)
            }
            Language::JavaScript if !context::js_test_path(path) => Some(Self::SetupFile),
            _ => None,
        }
    }
}

/// A skip marker bound to a name, forgiven because only new tests of its file use it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedSkip {
    /// The name (`need_dotenv`).
    pub name: String,
    /// The marker's line, as it was counted.
    pub finding: Finding,
}

/// An item-level macro invocation on a changed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroCall {
    /// The macro's name.
    pub name: String,
    /// Removed (old) or added (new).
    pub side: Side,
    /// The 1-based line number on its side.
    pub line: usize,
    /// The line, as a finding shows it.
    pub text: String,
}

impl FileTamper {
    /// For a merge, this file's analysis against the parent it is closest to (`c`), made the
    /// merge's own: what a clean merge would have kept and the result has not. `brought` is
    /// the analysis of the merge base against the other parent (`B → o`, what that side
    /// brought), `other` the analysis of the other parent against the merge (`o → M`).
    ///
    /// Lines are matched by their text, per measure, as multisets. Of this file's lines
    /// that count up (a test removed, a skip added), those the other side made the same way
    /// are not the merge's (a test it removed: judged where it was removed); a line the
    /// other side added that the merge took out again is (a test the resolution dropped,
    /// whichever parent the file is closest to); the latter for tests and skips only. The
    /// same for the lines that count down. Text matching, not counts: both sides often make
    /// the same change (a cherry-pick, a test added to both branches), and a clean merge
    /// keeps it once.
    pub fn own_in_merge(&mut self, brought: &FileTamper, other: &FileTamper) {
        use std::collections::{BTreeSet, HashMap};
        type Lines<'a> = HashMap<(Measure, &'a str), i64>;
        // Every key of either.
        fn keys<'a>(mine: &Lines<'a>, theirs: &Lines<'a>) -> BTreeSet<(Measure, &'a str)> {
            mine.keys().chain(theirs.keys()).copied().collect()
        }
        // The lines of `file` that count up (`plus`) or down, by measure and text.
        fn lines(file: &FileTamper, plus: bool) -> Lines<'_> {
            let mut lines = Lines::new();
            for finding in &file.findings {
                if let Some(up) = finding.kind.counts_up()
                    && up == plus
                {
                    *lines
                        .entry((finding.kind.measure(), finding.text.as_str()))
                        .or_default() += i64::from(finding.count);
                }
            }
            lines
        }
        // Per text, what a side did net: a line moved (removed and added again, re-indented)
        // did nothing, and must not pay for a line the merge removes for real.
        fn net(file: &FileTamper) -> (Lines<'_>, Lines<'_>) {
            let (mut up, mut down) = (lines(file, true), lines(file, false));
            for (key, count) in &mut up {
                if let Some(against) = down.get_mut(key) {
                    let both = (*count).min(*against);
                    *count -= both;
                    *against -= both;
                }
            }
            up.retain(|_, count| *count > 0);
            down.retain(|_, count| *count > 0);
            (up, down)
        }
        let at = |lines: &Lines<'_>, key: &(Measure, &str)| lines.get(key).copied().unwrap_or(0);
        let (up, down) = net(self);
        let (brought_up, brought_down) = net(brought);
        let (other_up, other_down) = net(other);
        let mut change: HashMap<Measure, i64> = HashMap::new();
        // What the merge undid of the other side is read for tests and skips only: their
        // lines name them, where assertion lines repeat (`.expect(200, done)`), and a test
        // one side deleted and the other edited (a conflict settled by deleting it) would
        // read as assertions the merge removed.
        let undone =
            |key: &(Measure, &str), undid: &Lines<'_>, did: &Lines<'_>, own: &Lines<'_>| {
                if matches!(key.0, Measure::Tests | Measure::Skips) {
                    (at(undid, key).min(at(did, key)) - at(own, key)).max(0)
                } else {
                    0
                }
            };
        // Up: less what the other side did the same way; plus what it did the other way
        // that the merge undid (and this side's own lines do not already count).
        for key in keys(&up, &other_up) {
            let delta = -at(&up, &key).min(at(&brought_up, &key))
                + undone(&key, &other_up, &brought_down, &up);
            *change.entry(key.0).or_default() += delta;
        }
        for key in keys(&down, &other_down) {
            let delta = at(&down, &key).min(at(&brought_down, &key))
                - undone(&key, &other_down, &brought_up, &down);
            *change.entry(key.0).or_default() += delta;
        }
        for (measure, delta) in change {
            match measure {
                Measure::Tests => self.tests_removed += delta,
                Measure::Skips => self.test_skips_added += delta,
                Measure::Assertions => self.assertions_removed += delta,
                Measure::Weakened => self.assertions_weakened += delta,
                Measure::Dead | Measure::Config => {}
            }
        }
        // A test setting the merge takes as the other side set it (that side changed it,
        // and the merge leaves its value: `o → M` does not change it) is that side's
        // change, judged where it was made (pytest's d01f08e96faf, a clean merge of two
        // `envlist` edits). One the resolution sets otherwise is the merge's.
        let theirs: Vec<String> = self
            .test_config_changed
            .iter()
            .filter(|key| {
                brought.test_config_changed.contains(key)
                    && !other.test_config_changed.contains(key)
            })
            .cloned()
            .collect();
        // A plugin module's hook lines the other side changed the same way are its own.
        self.plugin_hooks.retain(|finding| {
            !brought
                .plugin_hooks
                .iter()
                .any(|made| made.text == finding.text)
                || other
                    .plugin_hooks
                    .iter()
                    .any(|undone| undone.text == finding.text)
        });
        if !theirs.is_empty() {
            self.test_config_changed.retain(|key| !theirs.contains(key));
            self.findings.retain(|finding| {
                finding.kind != FindingKind::TestConfigChanged || !theirs.contains(&finding.text)
            });
        }
    }

    /// Counts again the skip markers bound to `name` that this file forgave: another file
    /// of the change uses the name.
    pub fn named_skip_used_elsewhere(&mut self, name: &str) {
        let (used, kept): (Vec<NamedSkip>, Vec<NamedSkip>) = std::mem::take(&mut self.named_skips)
            .into_iter()
            .partition(|named| named.name == name);
        self.named_skips = kept;
        for named in used {
            self.test_skips_added += i64::from(named.finding.count);
            self.removes_or_skips_tests = true;
            self.findings.push(named.finding);
        }
    }

    /// Adds the test setting `key` this file changes, with a finding that names it.
    pub fn add_setting(&mut self, key: &str) {
        add_settings(self, vec![key.to_owned()]);
    }

    /// A file of no known language whose change is the test setting `key`.
    pub fn with_setting(path: &str, key: &str) -> Self {
        let mut file = Self::new(path, Language::RunnerConfig);
        file.add_setting(key);
        file
    }

    /// Makes this file's change a test change: the repository (`by`, the file that does)
    /// loads it with the tests, as a pytest plugin or a setup file. When pytest registers
    /// its `hooks`, their changed lines count as the runner setting
    /// [`python::COLLECTION_HOOK`].
    pub fn plugin_registered(&mut self, by: &str, hooks: bool) {
        self.removes_or_skips_tests = true;
        self.loaded_by = Some(LoadedBy {
            path: by.to_owned(),
            hooks,
        });
        if !hooks || self.plugin_hooks.is_empty() {
            return;
        }
        let key = python::COLLECTION_HOOK;
        if !self.test_config_changed.iter().any(|known| known == key) {
            self.test_config_changed.push(key.to_owned());
        }
        self.findings.append(&mut self.plugin_hooks);
    }

    fn new(path: &str, language: Language) -> Self {
        Self {
            path: path.to_owned(),
            language,
            tests_removed: 0,
            test_skips_added: 0,
            assertions_removed: 0,
            assertions_weakened: 0,
            test_config_changed: Vec::new(),
            removes_or_skips_tests: false,
            test_item_line: None,
            dropped_modules: Vec::new(),
            old_path: None,
            skipped: None,
            uncounted: false,
            findings: Vec::new(),
            test_macros: Vec::new(),
            macro_calls: Vec::new(),
            named_skips: Vec::new(),
            plugin_hooks: Vec::new(),
            harness: None,
            loaded_by: None,
        }
    }

    fn net(&self, measure: Measure) -> i64 {
        match measure {
            Measure::Tests => self.tests_removed,
            Measure::Skips => self.test_skips_added,
            Measure::Assertions => self.assertions_removed,
            Measure::Weakened => self.assertions_weakened,
            Measure::Dead => i64::from(self.tests_removed != 0 || self.assertions_removed != 0),
            Measure::Config => i64::try_from(self.test_config_changed.len()).unwrap_or(i64::MAX),
        }
    }
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(value: &i64) -> bool {
    *value == 0
}

/// The test tampering of a whole change: the policy arguments of SPEC §4.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TamperReport {
    /// Tests removed, net of tests added anywhere in the change, at least 0.
    pub tests_removed: u64,
    /// Skip markers added, net of markers removed anywhere in the change, at least 0.
    pub test_skips_added: u64,
    /// Assertions removed, net of assertions added anywhere in the change, at least 0.
    pub assertions_removed: u64,
    /// Assertions that check nothing added (or assertions redefined), net of those removed
    /// anywhere in the change, at least 0.
    pub assertions_weakened: u64,
    /// Test-runner settings and targets changed: one per setting or target per file.
    pub test_config_changed: u64,
    /// Some file was not counted at all (its old side was over [`MAX_FILE_BYTES`]): the
    /// counts above are a lower bound, so the intent carries none and policies on them fail.
    #[serde(skip)]
    pub uncounted: bool,
    /// The files with a nonzero net, a finding, a skipped analysis or
    /// [`FileTamper::removes_or_skips_tests`], in the order given to [`combine`]. Their
    /// findings are only those that explain a count above zero (see [`combine`]).
    pub files: Vec<FileTamper>,
    /// Tests a `[tests] collect` command listed on the merge base and no longer lists on the
    /// head (`astrix ci`); `tests_removed` is at least their number.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uncollected: Vec<Uncollected>,
}

/// The tests one `[tests] collect` command no longer lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Uncollected {
    /// The command, as the policy writes it.
    pub command: String,
    /// The lines it printed on the merge base and not on the head, sorted.
    pub tests: Vec<String>,
}

impl TamperReport {
    /// Some file removes a test or adds a skip marker, or the runner no longer collects a
    /// test: the intent modifies tests.
    pub fn modifies_tests(&self) -> bool {
        self.files.iter().any(|file| file.removes_or_skips_tests) || !self.uncollected.is_empty()
    }

    /// Adds what the runner no longer collects: `tests_removed` becomes at least the number
    /// of tests gone, whatever the syntax said.
    pub fn add_uncollected(&mut self, uncollected: Vec<Uncollected>) {
        let gone: usize = uncollected.iter().map(|run| run.tests.len()).sum();
        self.tests_removed = self
            .tests_removed
            .max(u64::try_from(gone).unwrap_or(u64::MAX));
        self.uncollected.extend(uncollected);
    }

    /// The files whose changed content makes the change a test change: a test removed or
    /// skipped, an assertion weakened, a runner setting, a line in a Rust test item.
    pub fn test_changes(&self) -> impl Iterator<Item = &FileTamper> {
        self.files.iter().filter(|file| file.removes_or_skips_tests)
    }

    /// Every finding that explains a count, file by file.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.files.iter().flat_map(|file| &file.findings)
    }
}

/// The language of `path` by its extension (ASCII case-insensitive), or `None` when the
/// analysis does not know it.
pub fn language_of(path: &str) -> Option<Language> {
    table_for(path).map(|table| table.language)
}

/// Whether the analysis looks at a file at `path` at all: a language it knows, or a file that
/// configures a test runner (`pytest.ini`, `Cargo.toml`, `package.json`, a `Makefile`).
pub fn is_analysed(path: &str) -> bool {
    table_for(path).is_some() || config::is_config(path)
}

fn table_for(path: &str) -> Option<&'static Table> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (stem, extension) = name.rsplit_once('.')?;
    if stem.is_empty() {
        return None;
    }
    TABLES.iter().copied().find(|table| {
        table
            .extensions
            .iter()
            .any(|known| known.eq_ignore_ascii_case(extension))
    })
}

/// Whether `path` holds what a test feeds the runner, never run as the suite's own: Go's
/// `testdata/`, Mocha's `fixtures/…/*.fixture.js`.
fn is_test_input(language: Language, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match language {
        Language::Go => path.split('/').rev().skip(1).any(|part| part == "testdata"),
        // Mocha's suites under a `fixtures/` directory that its tests run (not one a runner
        // collects by its name or place: `*.test.*`, `*.spec.*`, `__tests__/`, or right
        // under `test/`, Mocha's default).
        Language::JavaScript => {
            let parent = path.rsplit('/').nth(1);
            name.contains(".fixture.")
                && ![".test.", ".spec."]
                    .iter()
                    .any(|marker| name.contains(marker))
                && path.split('/').any(|part| part == "fixtures")
                && !path.split('/').any(|part| part == "__tests__")
                && !matches!(parent, Some("test" | "tests" | "spec"))
        }
        _ => false,
    }
}

/// Whether a file of `language` at `path` holds tests that the language's common runners
/// collect by their default naming: Go's `_test.go` (not starting with `_` or `.`, not under
/// `testdata/`); pytest's `test_*.py` and `*_test.py`
/// and unittest's `test*.py`; Jest's `__tests__/`, Vitest's and Jest's `.test.`/`.spec.`,
/// and `node --test`'s and Mocha's `test/` and `test-`/`-test`/`_test` names, Jasmine's
/// `spec/`. Languages
/// whose runners find tests wherever they are written (Rust, the JVM's build tools) collect
/// every path.
fn runner_collects(language: Language, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let in_directory =
        |directory: &str| path.split('/').rev().skip(1).any(|part| part == directory);
    match language {
        // The go tool ignores files whose names start with `_` or `.`, and `testdata/`.
        Language::Go => {
            stem.ends_with("_test") && !name.starts_with(['_', '.']) && !in_directory("testdata")
        }
        Language::Python => stem.starts_with("test") || stem.ends_with("_test"),
        // Mocha's `fixtures/…/*.fixture.js`: a suite that a test runs to check the runner.
        Language::JavaScript if is_test_input(language, path) => false,
        Language::JavaScript => {
            in_directory("__tests__")
                || in_directory("test")
                || in_directory("tests")
                || in_directory("spec")
                || stem == "test"
                || stem.starts_with("test-")
                || stem.ends_with("-test")
                || stem.ends_with("_test")
                || [".test", ".spec"]
                    .iter()
                    .any(|marker| stem.ends_with(marker) || stem.contains(&format!("{marker}.")))
        }
        Language::Rust | Language::Java | Language::Kotlin | Language::RunnerConfig => true,
    }
}

/// The decorator that starts on line `start` of `lines` (its lines joined, trimmed) and the
/// name of the function it sits over, when a `def` comes within eight lines and no `class`
/// before it (over a class, a decorator applies to all of the class's tests).
fn decorated_def(lines: &[&[u8]], start: usize) -> (Vec<u8>, Option<Vec<u8>>) {
    let mut decorator = Vec::new();
    for line in lines.iter().skip(start).take(8) {
        let trimmed = line.trim_ascii();
        if trimmed.starts_with(b"class ") {
            break;
        }
        if let Some(rest) = trimmed
            .strip_prefix(b"def ")
            .or_else(|| trimmed.strip_prefix(b"async def "))
        {
            let name = rest
                .iter()
                .copied()
                .take_while(|&b| lex::is_ident_byte(b))
                .collect();
            return (decorator, Some(name));
        }
        decorator.extend_from_slice(trimmed);
    }
    (decorator, None)
}

/// The name a test declared on line `index` of `lines` goes by, for telling a new test from
/// one the change rewrote: below an attribute or decorator line (`#[test]`, `@Test`,
/// `@pytest.mark.skipif(…)`, over lines), the item it sits on; then the identifier before
/// the line's first `(` (`def test_x(`, `func TestX(`, `fn adds(`, `void parses(`), or, where
/// that is a runner's call (`it(`, `test.each(…)(`, `t.Run(`), its title, the first string
/// on the line. `None` when neither is there (a title built at run time).
fn test_name(lines: &[&[u8]], index: usize) -> Option<Vec<u8>> {
    test_name_at(lines, index).map(|(name, _)| name)
}

/// [`test_name`], and the index of the line it was read on.
fn test_name_at(lines: &[&[u8]], index: usize) -> Option<(Vec<u8>, usize)> {
    const CALLS: &[&[u8]] = &[
        b"it",
        b"test",
        b"specify",
        b"xit",
        b"xtest",
        b"fit",
        b"each",
        b"only",
        b"skip",
        b"todo",
        b"concurrent",
        b"sequential",
        b"skipIf",
        b"runIf",
        b"fixme",
        b"fails",
        b"failing",
        b"Run",
    ];
    let mut depth = 0i64;
    let found = lines
        .iter()
        .enumerate()
        .skip(index)
        .take(16)
        .find_map(|(at, line)| {
            let trimmed = line.trim_ascii();
            let inside = depth > 0;
            depth += pattern::open_brackets(trimmed);
            let attribute = trimmed.starts_with(b"@") || trimmed.starts_with(b"#[");
            // Not a comment between the attributes and the item (`// see issue(412)`).
            let comment = trimmed.starts_with(b"//")
                || trimmed.starts_with(b"/*")
                || trimmed.starts_with(b"*")
                || (trimmed.starts_with(b"#") && !attribute);
            (!inside && !attribute && !comment && !trimmed.is_empty()).then_some((at, trimmed))
        });
    let (at, line) = found.or_else(|| lines.get(index).map(|line| (index, line.trim_ascii())))?;
    let mut code = line;
    // `func (s *Suite) TestX(`: the receiver first.
    if let Some(rest) = code.strip_prefix(b"func (") {
        code = &rest[rest.iter().position(|&b| b == b')')? + 1..];
    }
    let open = code.iter().position(|&b| b == b'(')?;
    let quote = code.iter().position(|b| matches!(b, b'"' | b'\'' | b'`'));
    let before = code[..open].trim_ascii_end();
    let ident_start = before
        .iter()
        .rposition(|&b| !lex::is_ident_byte(b))
        .map_or(0, |at| at + 1);
    let ident = &before[ident_start..];
    let a_call = ident.is_empty() || CALLS.contains(&ident);
    if !a_call && quote.is_none_or(|quote| quote > open) {
        return Some((ident.to_vec(), at));
    }
    let quote = quote?;
    let mark = code[quote];
    let title = &code[quote + 1..];
    let end = title.iter().position(|&b| b == mark)?;
    Some((title[..end].to_vec(), at))
}

/// Whether `side` writes a test's `name` ([`test_name`]): as a whole identifier, or a title
/// as a quoted string.
fn writes_name(side: &[u8], name: &[u8]) -> bool {
    !name_offsets(side, name).is_empty()
}

/// Where `side` writes a test's `name`: each whole identifier, or each quoted title.
fn name_offsets(side: &[u8], name: &[u8]) -> Vec<usize> {
    if name.iter().all(|&b| lex::is_ident_byte(b)) {
        return std::str::from_utf8(name)
            .map(|name| whole_words(side, name).collect())
            .unwrap_or_default();
    }
    let mut offsets = Vec::new();
    for quote in [b'"', b'\'', b'`'] {
        let mut quoted = Vec::with_capacity(name.len() + 2);
        quoted.push(quote);
        quoted.extend_from_slice(name);
        quoted.push(quote);
        offsets.extend(memchr::memmem::find_iter(side, &quoted));
    }
    offsets
}

/// Whether a trimmed line declares a suite and opens its block: `describe('x', () => {`,
/// `(skip ? describe.skip : describe)('x', function () {`.
fn opens_a_suite(trimmed: &[u8]) -> bool {
    ["describe", "context", "suite"]
        .iter()
        .any(|name| mentions(trimmed, name))
        && trimmed.ends_with(b"{")
}

/// Where a token stands in the test declared on a line (see [`own_marks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// The words before the declaration's first bracket, its attributes included:
    /// `it.skip`, `xit`, `@Disabled @Test void x`, `def test_x`, `(ok ? it : it.skip)`.
    Head,
    /// Inside the declaration's brackets, outside its body: parameters and their default
    /// values, a call's other arguments (`it('x', fn, before(…))`).
    Signature,
    /// An object literal passed to the test's own call (`test('x', { skip: true }, …)`).
    Options,
    /// Between the signature and the body (`throws E`, `-> None`).
    Between,
    /// The test's body: its block in braces, or what follows Python's `:` (on the same
    /// line, then the lines indented deeper).
    Body,
    /// After the test: the rest of its line, or the lines after its block.
    After,
}

/// Whether the matches of `patterns` on line `mark` of `lines` are all the test's own, for
/// the test declared on line `test` (or on the item below it, for an attribute line):
/// on the line `mark` holds no match outside the test's head (`it.skip(`, `xit(`), an
/// options object of its own call, or its body, and some of it is in one of those. A
/// marker in a parameter's default value (`def test_x(_=pytest.skip(…, allow_module_level
/// =True))`, evaluated at import), in another argument of the test's call (`it('x', fn,
/// before(…))`, a hook of the suite around it) or after the test on its line (`it('x', fn);
/// before(…)`) is not the test's own: it can skip tests that ran. `lines` are read as code
/// from line `test` on.
fn own_marks(
    table: &Table,
    context: &Context<'_>,
    lines: &[&[u8]],
    (test, mark): (usize, usize),
    patterns: &'static [Pattern],
    declares_test: bool,
) -> bool {
    let item = test_name_at(lines, test).map_or(test, |(_, at)| at);
    // An attribute line above the item (`@Test @Disabled`, `#[ignore]`): the item's own.
    if item > mark {
        return test == mark;
    }
    let Some(&declaration) = lines.get(item) else {
        return false;
    };
    let own_indent = indentation(declaration);
    let mut walk = Declaration::new(table.language);
    let mut state = State::Code;
    let mut code = Vec::new();
    for (at, line) in lines.iter().enumerate().take(mark + 1).skip(item) {
        code.clear();
        let starts = state;
        state = lex::strip_line(&table.syntax, state, line, &mut code);
        let mut tokens = Vec::new();
        pattern::tokenize(&code, &mut tokens);
        rename_aliases(context, &mut tokens);
        // Python's body ends at a line indented no deeper than the `def`.
        if at > item && starts == State::Code && !tokens.is_empty() {
            walk.line_indented(indentation(line) > own_indent);
        }
        let parts: Vec<Part> = tokens.iter().map(|&token| walk.step(token)).collect();
        if at == mark {
            let own = |part: &Part| matches!(part, Part::Head | Part::Options | Part::Body);
            let mut foreign = false;
            pattern::for_each_match(patterns, &tokens, declares_test, |start, _| {
                foreign |= !parts.get(start).is_some_and(own);
            });
            return !foreign && parts.iter().any(own);
        }
    }
    false
}

/// A walk over the tokens of a test's declaration, from its first: which [`Part`] each is
/// in.
struct Declaration {
    /// Its language: Python's blocks are read by indentation and `:`.
    language: Language,
    part: Part,
    /// Bracket depth from the declaration's start.
    depth: i64,
    /// The depth inside the body's block, and whether the block is inside the call's
    /// brackets (`it('x', () => {…})`).
    body_depth: i64,
    in_call: bool,
    /// Brackets read as part of the head (an attribute's, `@Disabled("x")`, `#[ignore]`,
    /// or the callee's, `(ok ? it : it.skip)`): the depth they opened at, while open.
    head_brackets: Option<i64>,
    /// The words read are an attribute's (after `@` or `#`).
    attribute: bool,
    /// The head has a word of its own yet (a bracket before any is the callee's).
    named: bool,
    /// The token before, across lines: its byte if punctuation, else 0.
    before: u8,
}

impl Declaration {
    fn new(language: Language) -> Self {
        Declaration {
            language,
            part: Part::Head,
            depth: 0,
            body_depth: 0,
            in_call: false,
            head_brackets: None,
            attribute: false,
            named: false,
            before: 0,
        }
    }

    fn python(&self) -> bool {
        self.language == Language::Python
    }

    /// A line of code after the declaration's first starts, indented deeper than it or
    /// not: a Python body ends at one that is not, outside brackets.
    fn line_indented(&mut self, deeper: bool) {
        if self.python() && self.part == Part::Body && self.depth <= self.body_depth && !deeper {
            self.part = Part::After;
        }
    }

    /// Reads `token`: the part it is in.
    fn step(&mut self, token: Token<'_>) -> Part {
        let opens = matches!(token, Token::Punct(b'(' | b'[' | b'{'));
        let closes = matches!(token, Token::Punct(b')' | b']' | b'}'));
        let at_zero = self.depth == 0;
        let mut part = self.part;
        match self.part {
            Part::Head => part = self.head(token, opens, closes),
            Part::Signature | Part::Options => {
                if opens {
                    self.depth += 1;
                    // A block directly inside the call's brackets: after `)`, `=>` or a
                    // closure's `|…|`, the test's body; after `,` or `(`, its options.
                    if self.depth == 2
                        && self.part == Part::Signature
                        && token == Token::Punct(b'{')
                    {
                        if matches!(self.before, b')' | b'>' | b'|') {
                            (self.part, self.body_depth, self.in_call) = (Part::Body, 2, true);
                        } else if matches!(self.before, b',' | b'(') {
                            self.part = Part::Options;
                        }
                        part = self.part;
                    }
                } else if closes {
                    self.depth -= 1;
                    if self.part == Part::Options && self.depth < 2 {
                        self.part = Part::Signature;
                    } else if self.depth <= 0 {
                        // A call's brackets closed around a body: the test ends there.
                        self.part = if self.in_call {
                            Part::After
                        } else {
                            Part::Between
                        };
                    }
                }
            }
            Part::Between => {
                if token == Token::Punct(b'{') && at_zero && !self.python() {
                    (self.part, self.body_depth, self.in_call) = (Part::Body, 1, false);
                    part = self.part;
                } else if token == Token::Punct(b'(') && at_zero {
                    // A call after the first (`test.skipIf(c)('x', …)`, a Go method's
                    // name after its receiver).
                    self.part = Part::Signature;
                } else if self.python() && token == Token::Punct(b':') && at_zero {
                    (self.part, self.body_depth) = (Part::Body, 0);
                } else if token == Token::Punct(b';') {
                    self.part = Part::After;
                }
                self.depth += i64::from(opens) - i64::from(closes);
            }
            Part::Body => {
                self.depth += i64::from(opens) - i64::from(closes);
                if closes && !self.python() && self.depth < self.body_depth {
                    self.part = if self.in_call {
                        Part::Signature
                    } else {
                        Part::After
                    };
                }
            }
            Part::After => {}
        }
        // In an options object only its own keys and plain values are the test's: a call
        // or a function in it runs as the suite is declared (`{ setup: before(…) }`).
        if part == Part::Options && (self.depth > 2 || closes && self.depth >= 2) {
            part = Part::Signature;
        }
        self.before = match token {
            Token::Punct(byte) => byte,
            _ => 0,
        };
        part
    }

    /// [`Self::step`] in the head.
    fn head(&mut self, token: Token<'_>, opens: bool, closes: bool) -> Part {
        if let Some(open) = self.head_brackets {
            self.depth += i64::from(opens) - i64::from(closes);
            if closes && self.depth <= open {
                self.head_brackets = None;
            }
            return Part::Head;
        }
        let attribute_word = self.attribute
            && match token {
                Token::Ident(_) => matches!(self.before, b'@' | b'.'),
                Token::Punct(b'.') => self.before == 0,
                _ => opens && token != Token::Punct(b'{'),
            };
        if attribute_word || (token == Token::Punct(b'(') && !self.named) {
            if opens {
                self.head_brackets = Some(self.depth);
                self.depth += 1;
            }
            return Part::Head;
        }
        self.attribute = matches!(token, Token::Punct(b'@' | b'#'));
        self.named |= matches!(token, Token::Ident(_));
        if token == Token::Punct(b'(') {
            self.part = Part::Signature;
            self.depth += 1;
        } else if token == Token::Punct(b'{') && !self.python() {
            (self.part, self.body_depth, self.in_call) = (Part::Body, self.depth + 1, false);
            self.depth += 1;
            return Part::Body;
        } else if self.python() && token == Token::Punct(b':') && self.depth == 0 {
            (self.part, self.body_depth) = (Part::Body, 0);
        }
        Part::Head
    }
}

/// From line `from` of `lines` (read as code from its start) on, the depth of brackets and
/// of braces alone at the start of each line, strings and comments left out: index 0 is
/// line `from` (0, 0), index k line `from + k`. Stops after the line that closes all it
/// opened, or at the end.
fn bracket_depths(syntax: &Syntax, lines: &[&[u8]], from: usize) -> Vec<(i64, i64)> {
    let mut depths = vec![(0i64, 0i64)];
    let (mut all, mut braces) = (0i64, 0i64);
    let mut state = State::Code;
    let mut code = Vec::new();
    for line in lines.iter().skip(from) {
        code.clear();
        state = lex::strip_line(syntax, state, line, &mut code);
        all += pattern::open_brackets(&code);
        braces += code
            .iter()
            .map(|b| match b {
                b'{' => 1,
                b'}' => -1,
                _ => 0,
            })
            .sum::<i64>();
        depths.push((all, braces));
        if all <= 0 {
            break;
        }
    }
    depths
}

/// Whether the braces the suite's line `suite` opens (its callback's body) close first on
/// its last line `end`: a body closed earlier and followed by more code (`}.call(this) ||
/// function () {`, attack-47 BM1) is a function called on the spot, whose hooks are the
/// file's root hooks.
fn body_closes_last(syntax: &Syntax, lines: &[&[u8]], suite: usize, end: usize) -> bool {
    let mut state = State::Code;
    let mut code = Vec::new();
    let mut braces = 0i64;
    for (index, line) in lines.iter().enumerate().take(end + 1).skip(suite) {
        code.clear();
        state = lex::strip_line(syntax, state, line, &mut code);
        for &byte in &code {
            match byte {
                b'{' => braces += 1,
                b'}' => {
                    braces -= 1;
                    if braces <= 0 {
                        return index == end;
                    }
                }
                _ => {}
            }
        }
    }
    false
}

/// Whether the file defines a function or binds a name that a suite is declared with
/// (`function suite(t, body) { body.call(this); }`, `const describe = …`): such a "suite"
/// may run its callback at once, making its hooks root hooks (attack-47 BM2).
fn defines_suite_functions(lines: &[&[u8]]) -> bool {
    lines.iter().any(|line| {
        let mut tokens = Vec::new();
        pattern::tokenize(line, &mut tokens);
        tokens.windows(2).enumerate().any(|(i, pair)| {
            let suite_name = |token: &Token<'_>| {
                matches!(token, Token::Ident(b"describe" | b"context" | b"suite"))
            };
            match pair {
                [Token::Ident(b"function"), name] => suite_name(name),
                [name, Token::Punct(b'=')] => {
                    suite_name(name)
                        && tokens.get(i + 2) != Some(&Token::Punct(b'='))
                        && !matches!(
                            i.checked_sub(1).map(|at| tokens[at]),
                            Some(Token::Punct(b'.'))
                        )
                }
                _ => false,
            }
        })
    })
}

/// How many spaces and tabs a line starts with.
pub(crate) fn indentation(line: &[u8]) -> usize {
    line.iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count()
}

/// Whether a trimmed line focuses tests (`it.only(`, `describe.only(`, `fit(`,
/// `fdescribe(`, node:test's `only: true`): every test not focused is skipped.
fn focuses(trimmed: &[u8]) -> bool {
    mentions_as_attribute(trimmed, "only")
        || mentions(trimmed, "fit")
        || mentions(trimmed, "fdescribe")
        || memchr::memmem::find(trimmed, b"only:").is_some()
}

/// Whether a trimmed line only binds a class's markers: `pytestmark = …` as its one
/// statement, reaching nothing beyond the class (no `;`, `:=`, `globals()`, `setattr`,
/// `sys.modules`).
fn class_marker(trimmed: &[u8]) -> bool {
    let rest = trimmed.strip_prefix(b"pytestmark").unwrap_or_default();
    rest.trim_ascii_start().starts_with(b"=")
        && !rest.trim_ascii_start().starts_with(b"==")
        && ![
            &b";"[..],
            b":=",
            b"globals",
            b"setattr",
            b"modules",
            b"exec",
            b"vars(",
        ]
        .iter()
        .any(|bad| memchr::memmem::find(rest, bad).is_some())
}

/// The tests of the Python class whose body holds line `line` (a class-level `pytestmark =
/// …`), when the class is declared on an added line of `hunk` and its body ends in it: the
/// added lines of its body that declare tests. None for a line at the module's level, in a
/// class that ran, or in one the hunk does not add whole.
fn class_tests(
    added: &[Added],
    line: usize,
    hunk: &Range<usize>,
    lines: &[&[u8]],
) -> Option<Vec<usize>> {
    let own = indentation(lines.get(line)?);
    let filled = |at: &usize| lines.get(*at).is_some_and(|l| !l.trim_ascii().is_empty());
    let class = (hunk.start..line)
        .rev()
        .filter(filled)
        .find(|&at| indentation(lines[at]) < own)?;
    let depth = indentation(lines[class]);
    if !lines[class].trim_ascii_start().starts_with(b"class ") {
        return None;
    }
    let end = (class + 1..lines.len())
        .filter(filled)
        .find(|&at| indentation(lines[at]) <= depth)
        .unwrap_or(lines.len());
    if end > hunk.end && end != lines.len() {
        return None;
    }
    let tests: Vec<usize> = added
        .iter()
        .filter(|added| added.tests > 0 && added.line > class && added.line < end)
        .map(|added| added.line)
        .collect();
    (!tests.is_empty()).then_some(tests)
}

/// Whether a trimmed line inside a decorator's brackets only names markers
/// (`marks=pytest.mark.skipif(…)`), and calls nothing that skips when the decorator runs.
fn marks_only(trimmed: &[u8]) -> bool {
    !calls_a_skip(trimmed) && memchr::memmem::find(trimmed, b"mark.").is_some()
}

/// Whether a trimmed line calls a function that skips when it runs (`pytest.skip(`,
/// `py.test.skip(`, `importorskip(`, `xfail(`, `exit(`; not a marker, `mark.skip(`): in a
/// decorator it runs at import, and skips the module.
fn calls_a_skip(trimmed: &[u8]) -> bool {
    const CALLS: &[&[u8]] = &[b"skip(", b"importorskip(", b"xfail(", b"exit("];
    CALLS.iter().any(|call| {
        memchr::memmem::find_iter(trimmed, call).any(|at| !trimmed[..at].ends_with(b"mark."))
    })
}

/// The name a line `test_x = None` or `del test_x` (line `index` of the old side, `line`)
/// switches off and the condition of the `if` it is under, right above it or above other
/// names switched off the same way; when a `def` of that name comes before it (a guard
/// above the `def` did nothing: the `def` binds the name again).
fn guard(old_lines: &[&[u8]], index: usize, line: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let trimmed = line.trim_ascii();
    let name: Vec<u8> = trimmed
        .strip_prefix(b"del ")
        .unwrap_or(trimmed)
        .iter()
        .copied()
        .take_while(|&b| lex::is_ident_byte(b))
        .collect();
    let own = indentation(line);
    let disables = |line: &[u8]| {
        let trimmed = line.trim_ascii();
        trimmed.starts_with(b"del ") || trimmed.ends_with(b"= None")
    };
    let mut above = index.checked_sub(1);
    while let Some(at) = above
        && let Some(line) = old_lines.get(at)
        && indentation(line) == own
        && disables(line)
    {
        above = at.checked_sub(1);
    }
    let condition = above
        .and_then(|above| old_lines.get(above))
        .filter(|above| indentation(above) < own)
        .map(|above| above.trim_ascii())
        .and_then(|above| above.strip_prefix(b"if "))
        .and_then(|above| above.strip_suffix(b":"))?;
    let defined_above = old_lines[..index.min(old_lines.len())].iter().any(|line| {
        let trimmed = line.trim_ascii_start();
        let rest = trimmed
            .strip_prefix(b"def ")
            .or_else(|| trimmed.strip_prefix(b"async def "));
        rest.is_some_and(|rest| {
            rest.strip_prefix(name.as_slice())
                .is_some_and(|after| after.trim_ascii_start().starts_with(b"("))
        })
    });
    defined_above.then(|| (name, squeezed(condition)))
}

/// `text` without its whitespace, for comparing conditions written with other spacing.
fn squeezed(text: &[u8]) -> Vec<u8> {
    text.iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect()
}

/// Whether the trimmed line declares a class (`class TestX:`, `public final class XTest {`,
/// `internal class X {`): the word `class` after modifiers only.
fn declares_a_class(trimmed: &[u8]) -> bool {
    const MODIFIERS: &[&[u8]] = &[
        b"public",
        b"private",
        b"protected",
        b"internal",
        b"final",
        b"abstract",
        b"static",
        b"open",
        b"sealed",
        b"data",
        b"inner",
    ];
    let mut words = trimmed
        .split(u8::is_ascii_whitespace)
        .filter(|word| !word.is_empty());
    words
        .find(|word| !MODIFIERS.contains(word))
        .is_some_and(|word| word == b"class")
}

/// Whether the rest of a `skipif(` call after its condition (spaces squeezed out) is its
/// end, or a `reason=` string and its end: no second condition (`skipif(c, True)`, whose
/// any true condition skips) and no `condition=`.
fn only_a_reason(rest: &[u8]) -> bool {
    let end = |rest: &[u8]| matches!(rest, b")" | b",)");
    if end(rest) {
        return true;
    }
    let Some(reason) = rest.strip_prefix(b",reason=") else {
        return false;
    };
    let Some((&quote, text)) = reason.split_first() else {
        return false;
    };
    if !matches!(quote, b'"' | b'\'') || text.contains(&b'\\') {
        return false;
    }
    text.iter()
        .position(|&b| b == quote)
        .is_some_and(|close| end(&text[close + 1..]))
}

/// Whether `text` holds `name` as a whole identifier (not `x_name` or `names`).
pub fn mentions(text: &[u8], name: &str) -> bool {
    whole_words(text, name).next().is_some()
}

/// Whether `text` holds `name` as a whole identifier read from something else: `module.name`.
pub fn mentions_as_attribute(text: &[u8], name: &str) -> bool {
    whole_words(text, name).any(|at| at > 0 && text.get(at - 1) == Some(&b'.'))
}

/// Where `name` stands in `text` as a whole identifier.
fn whole_words<'a>(text: &'a [u8], name: &'a str) -> impl Iterator<Item = usize> + 'a {
    let name = name.as_bytes();
    memchr::memmem::find_iter(text, name).filter(move |&at| {
        let before = at.checked_sub(1).and_then(|i| text.get(i));
        let after = text.get(at + name.len());
        before.is_none_or(|&b| !lex::is_ident_byte(b))
            && after.is_none_or(|&b| !lex::is_ident_byte(b))
    })
}

/// Analyses one changed file: `old` and `new` are its content before and after (`None` for
/// an added or deleted file), `path` its repository-relative path (the new one for a
/// rename). Returns `None` for a language the analysis does not know, without looking at
/// the content.
///
/// Cost: one pass of the lexer over each side, one Myers line diff, and token matching on
/// the changed lines only. Sides over [`MAX_FILE_BYTES`] are not read: when the old side is
/// over it, nothing is counted; when only the new side is, it counts as empty, like a binary
/// side, so that a file whose tests were deleted cannot hide them by growing one huge line.
pub fn analyze_file(path: &str, old: Option<&[u8]>, new: Option<&[u8]>) -> Option<FileTamper> {
    analyze_file_with(path, old, new, None)
}

/// [`analyze_file`] with the line diff of `old` and `new` already computed (the line
/// counts' own diff of the same two buffers), so that a pair is split and diffed once for
/// both.
pub fn analyze_file_with(
    path: &str,
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    diff: Option<&LineDiff<'_>>,
) -> Option<FileTamper> {
    analyze_file_in(path, old, new, diff, false)
}

/// [`analyze_file_with`], in a repository whose own package is a test framework
/// (`own_framework`: pytest's, mocha's): its source outside the test paths names the
/// framework as the framework's own code, which is no test code, no plugin and no setup
/// file ([`context::of_in`]).
fn analyze_file_in(
    path: &str,
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    diff: Option<&LineDiff<'_>>,
    own_framework: bool,
) -> Option<FileTamper> {
    let table = table_for(path);
    let config = config::is_config(path);
    if table.is_none() && !config {
        return None;
    }
    let language = table.map_or(Language::RunnerConfig, |table| table.language);
    let mut file = FileTamper::new(path, language);
    // Counted where no setting of the file is (a new file that sets nothing, or only keys
    // that select nothing).
    let presence = config::presence_changed(path, old, new);
    let (mut old, mut new) = (old.unwrap_or_default(), new.unwrap_or_default());
    let largest = old.len().max(new.len());
    if old.len() > MAX_FILE_BYTES {
        file.skipped = Some(Skipped::TooLarge { bytes: largest });
        file.uncounted = true;
        return Some(file);
    }
    if new.len() > MAX_FILE_BYTES {
        file.skipped = Some(Skipped::TooLarge { bytes: largest });
        new = &[];
    }
    for side in [&mut old, &mut new] {
        if is_binary(side) {
            *side = &[];
            file.skipped.get_or_insert(Skipped::Binary);
        }
    }
    if old == new {
        add_settings(&mut file, presence.into_iter().collect());
        return Some(file);
    }
    file.harness =
        Harness::of(language, path, [old, new], file.skipped.is_some()).filter(|_| !own_framework);
    // A side emptied above is not the content the given diff was computed on.
    let diff = diff.filter(|_| file.skipped.is_none());
    let mut settings = if config {
        config::changed(path, old, new, diff)
    } else {
        Vec::new()
    };
    if settings.is_empty() {
        settings.extend(presence);
    }
    let Some(table) = table else {
        add_settings(&mut file, settings);
        return Some(file);
    };
    let mut analysis = Analysis {
        table,
        context: context::of_in(table.language, path, old, new, own_framework),
        sides: [old, new],
        file,
        code: Vec::new(),
        touches_tests: false,
        triggers: Vec::new(),
        trigger_lines: std::collections::HashSet::new(),
        dead: None,
        places: [Vec::new(), Vec::new()],
        added: Vec::new(),
        rust_items: false,
        rust_tests: [None, None],
        rust_prefix: None,
        common: 0,
        limits: [usize::MAX, usize::MAX],
        hunk_ends: [Vec::new(), Vec::new()],
        new_hunks: Vec::new(),
        old_hunks: Vec::new(),
        named_skips: Vec::new(),
        existence_added: 0,
        exact_removed: 0,
        checks: [Vec::new(), Vec::new()],
        assertion_lines: [Vec::new(), Vec::new()],
        defines_hooks: [old, new].map(|side| {
            table.language == Language::Python && memchr::memmem::find(side, b"pytest_").is_some()
        }),
        hooks: HookFile::of(path),
        statements: [None, None],
    };
    analysis.run(old, new, diff);
    let mut file = analysis.finish();
    add_settings(&mut file, settings);
    Some(file)
}

/// Adds the runner settings that a configuration file changed, each with a finding that
/// names it (line 0: a setting is named, not located).
fn add_settings(file: &mut FileTamper, settings: Vec<String>) {
    for key in settings {
        if file.test_config_changed.contains(&key) {
            continue;
        }
        file.findings.push(Finding {
            path: file.path.clone(),
            line: 0,
            side: Side::New,
            kind: FindingKind::TestConfigChanged,
            count: 1,
            unchanged: false,
            text: key.clone(),
        });
        file.test_config_changed.push(key);
        file.removes_or_skips_tests = true;
    }
}

/// Analyses a file of a change as the change's analysis does: under its `path` when that is
/// of a known language and (for a rename) of its old path's language, else (a rename to a
/// path of no known language, `test_a.py` to `test_a.py.disabled`, or of another one,
/// `parser.rs` to `parser.py`) as the deletion of its `old_path`. `None` when neither path is of a
/// known language. `old` and `new` are the sides' content when they are regular files
/// (`None` for an absent side, a link or a submodule); `diff`, when given, is the line diff
/// of exactly those two buffers (see [`analyze_file_with`]).
pub fn analyze_changed_file(
    path: &str,
    old_path: &str,
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    diff: Option<&LineDiff<'_>>,
) -> Option<FileTamper> {
    let new_table = table_for(path);
    let same_language = match (new_table, table_for(old_path)) {
        (Some(new), Some(old)) => new.language == old.language,
        (new, _) => new.is_some() || config::is_config(path),
    };
    let leaves_the_runner = new_table.is_some_and(|table| {
        runner_collects(table.language, old_path) && !runner_collects(table.language, path)
    });
    // A test's input on both sides (Go's `testdata/`, a `*.fixture.js` suite that a test
    // runs): its tests and skips are what a test checks the runner against, not the
    // suite's own.
    if same_language
        && new_table.is_some_and(|table| {
            is_test_input(table.language, path) && is_test_input(table.language, old_path)
        })
    {
        let language = new_table.map_or(Language::RunnerConfig, |table| table.language);
        let mut file = FileTamper::new(path, language);
        if old_path != path {
            file.old_path = Some(old_path.to_owned());
        }
        return Some(file);
    }
    let mut file = if same_language && !leaves_the_runner {
        analyze_file_with(path, old, new, diff)
    } else {
        // Out of every language, into another one (`parser.rs` to `parser.py`), or to a
        // name no runner of the language collects by default (`calc_test.go` to
        // `calc.go`): the old content's tests no longer run, so they are removed.
        analyze_file(old_path, old, None)
    };
    if old_path != path
        && let Some(file) = file.as_mut()
    {
        file.old_path = Some(old_path.to_owned());
    }
    // A runner's configuration file moved away from where the runner reads it (`pytest.ini`
    // to `ci/pytest.ini`, `.mocharc.json` to `.mocharc.json5`): its settings stop applying
    // whatever its content (helper-68's attack-59 R1-R5).
    if old_path != path
        && let Some(removed) = config::presence_changed(old_path, old, None)
        && (parent_dir(old_path) != parent_dir(path)
            || config::presence_changed(path, None, new).is_none())
    {
        let file = file.get_or_insert_with(|| FileTamper::new(path, Language::RunnerConfig));
        add_settings(file, vec![format!("{removed}: moved from {old_path}")]);
    }
    // A Rust crate's root moved where Cargo does not look for one (`src/lib.rs` to
    // `src/core.rs`): the crate's tests and doctests no longer build, whatever the content.
    if old_path != path && is_crate_root(old_path) && !is_crate_root(path) {
        let file = file.get_or_insert_with(|| FileTamper::new(path, Language::Rust));
        add_settings(file, vec![format!("crate root moved from {old_path}")]);
    }
    file
}

/// The directory of a repository path (`""` at the root).
fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Whether a file at `path` (and `old_path`) is source of a test framework's own
/// repository as [`analyze_framework_source`] reads it: a Python or JavaScript file outside
/// the test paths, on both sides.
pub fn is_framework_source(path: &str, old_path: &str) -> bool {
    let outside =
        |path: &str| table_for(path).is_some_and(|table| outside_test_paths(table.language, path));
    outside(path)
        && outside(old_path)
        && table_for(path).map(|table| table.language)
            == table_for(old_path).map(|table| table.language)
}

/// Whether a Python or JavaScript file at `path` is outside the paths its runners collect
/// tests from by default (`false` for another language).
fn outside_test_paths(language: Language, path: &str) -> bool {
    match language {
        Language::Python => !context::python_test_location(path),
        Language::JavaScript => !context::js_test_path(path),
        _ => false,
    }
}

/// [`analyze_changed_file`] of a file [`is_framework_source`] in a repository whose own
/// package is a test framework (pytest's, mocha's): the framework naming itself there
/// makes no test code, no plugin and no setup file.
pub fn analyze_framework_source(
    path: &str,
    old_path: &str,
    old: Option<&[u8]>,
    new: Option<&[u8]>,
) -> Option<FileTamper> {
    let mut file = analyze_file_in(path, old, new, None, true)?;
    if old_path != path {
        file.old_path = Some(old_path.to_owned());
    }
    Some(file)
}

/// The lines of a side, split as the line diff splits them (each keeps its `\n`): for
/// reading the side other than the one a changed line is on.
fn split_lines(side: &[u8]) -> Vec<&[u8]> {
    crate::linediff::split_lines(side)
}

/// Whether `side` holds text written like an out-of-line module declaration, `mod name;`
/// (in code or not: a cheap test before a walk of the whole side).
fn declares_modules(side: &[u8]) -> bool {
    memchr::memmem::find_iter(side, b"mod").any(|at| {
        let before = at.checked_sub(1).and_then(|i| side.get(i));
        if before.is_some_and(|&b| lex::is_ident_byte(b)) {
            return false;
        }
        let rest = &side[at + 3..];
        let name = rest.trim_ascii_start();
        if name.len() == rest.len() {
            return false;
        }
        let name = name.strip_prefix(b"r#").unwrap_or(name);
        let end = name
            .iter()
            .position(|&b| !lex::is_ident_byte(b))
            .unwrap_or(name.len());
        end > 0 && name[end..].trim_ascii_start().starts_with(b";")
    })
}

/// Whether `path` is a file Cargo builds a crate from by default: `src/lib.rs`,
/// `src/main.rs` (of any package), a binary under `src/bin/` (`src/bin/tool.rs`,
/// `src/bin/tool/main.rs`) or a package's `build.rs`.
fn is_crate_root(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("lib.rs" | "main.rs"), Some("src"), _) | (Some("build.rs"), _, _) => true,
        (Some(name), Some("bin"), Some("src")) => std::path::Path::new(name)
            .extension()
            .is_some_and(|extension| extension == "rs"),
        (Some("main.rs"), Some(_), Some("bin")) => parts.next() == Some("src"),
        _ => false,
    }
}

/// A Rust module declaration removed (`mod parse;` gone) drops the module's tests from the
/// build, unless the change also moves or deletes its file (`parse.rs`, `parse/mod.rs`, a
/// file under `parse/`): those tests are then counted where the file goes. A module whose
/// file the change leaves in place, unbuilt, is a test change.
fn resolve_dropped_modules(files: &mut [FileTamper]) {
    if files.iter().all(|file| file.dropped_modules.is_empty()) {
        return;
    }
    let touched: Vec<String> = files
        .iter()
        .flat_map(|file| std::iter::once(&file.path).chain(&file.old_path))
        .cloned()
        .collect();
    let moved = |name: &str| {
        touched.iter().any(|path| {
            let mut parts = path.rsplit('/');
            let file_name = parts.next().unwrap_or_default();
            file_name.strip_suffix(".rs") == Some(name) || parts.any(|dir| dir == name)
        })
    };
    for file in files.iter_mut() {
        let dropped = std::mem::take(&mut file.dropped_modules);
        if let Some((_, line)) = dropped.into_iter().find(|(name, _)| !moved(name)) {
            file.removes_or_skips_tests = true;
            if file.test_item_line.is_none() {
                file.test_item_line = Some(line);
            }
        }
    }
}

/// Nets per-file results into the counts of the whole change, each floored at 0 only here.
///
/// A test removed from one file and added to another cancels out. A file keeps its
/// findings of a measure only when the change's total for it is above zero and the file's
/// own net for it is not zero: a renamed or moved test leaves none, and a file that removed
/// two tests and added one back shows all three lines. Files survive when they have
/// something to say (see [`TamperReport::files`]).
pub fn combine(mut files: Vec<FileTamper>) -> TamperReport {
    count_macro_tests(&mut files);
    resolve_dropped_modules(&mut files);
    let uncounted = files.iter().any(|file| file.uncounted);
    let total = |measure: Measure| -> u64 {
        files
            .iter()
            .map(|file| file.net(measure))
            .sum::<i64>()
            .max(0)
            .unsigned_abs()
    };
    let (tests_removed, test_skips_added, assertions_removed, assertions_weakened) = (
        total(Measure::Tests),
        total(Measure::Skips),
        total(Measure::Assertions),
        total(Measure::Weakened),
    );
    let test_config_changed = total(Measure::Config);
    let counts = |measure: Measure| match measure {
        Measure::Tests => tests_removed > 0,
        Measure::Skips => test_skips_added > 0,
        Measure::Assertions => assertions_removed > 0,
        Measure::Weakened => assertions_weakened > 0,
        Measure::Dead => tests_removed > 0 || assertions_removed > 0,
        Measure::Config => test_config_changed > 0,
    };
    let files = files
        .into_iter()
        .filter_map(|mut file| {
            let explains = |measure: Measure| counts(measure) && file.net(measure) != 0;
            let explained = [
                Measure::Tests,
                Measure::Skips,
                Measure::Assertions,
                Measure::Weakened,
                Measure::Dead,
                Measure::Config,
            ]
            .map(|measure| (measure, explains(measure)));
            file.findings.retain(|finding| {
                let measure = finding.kind.measure();
                explained
                    .iter()
                    .any(|&(known, explains)| known == measure && explains)
            });
            let speaks = file.tests_removed != 0
                || file.test_skips_added != 0
                || file.assertions_removed != 0
                || file.assertions_weakened != 0
                || !file.test_config_changed.is_empty()
                || file.removes_or_skips_tests
                || file.skipped.is_some()
                || !file.findings.is_empty();
            speaks.then_some(file)
        })
        .collect();
    TamperReport {
        tests_removed,
        test_skips_added,
        assertions_removed,
        assertions_weakened,
        test_config_changed,
        uncounted,
        files,
        uncollected: Vec::new(),
    }
}

/// Counts the invocations of the change's test-defining macros as tests: a test macro's
/// body was left out of the counts (its `#[test]` is a template), and each invocation on a
/// removed line is a test removed, each on an added line a test added.
fn count_macro_tests(files: &mut [FileTamper]) {
    let macros: Vec<String> = files
        .iter()
        .flat_map(|file| file.test_macros.iter().cloned())
        .collect();
    if macros.is_empty() {
        return;
    }
    for file in files {
        let calls = std::mem::take(&mut file.macro_calls);
        for call in calls {
            if !macros.contains(&call.name) {
                continue;
            }
            let (sign, kind) = match call.side {
                Side::Old => (1, FindingKind::TestRemoved),
                Side::New => (-1, FindingKind::TestAdded),
            };
            file.tests_removed += sign;
            if call.side == Side::Old {
                file.removes_or_skips_tests = true;
            }
            file.findings.push(Finding {
                path: file.path.clone(),
                line: call.line,
                side: call.side,
                kind,
                count: 1,
                unchanged: false,
                text: call.text,
            });
        }
    }
}

/// Git's binary test: a NUL in the first 8000 bytes.
fn is_binary(data: &[u8]) -> bool {
    data[..data.len().min(BINARY_SNIFF_BYTES)].contains(&0)
}

/// What one line holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    tests: u32,
    skips: u32,
    assertions: u32,
    /// Tests that stop running while their code stays (`#[should_panic]`, `del test_x`).
    disables: u32,
    /// Assertions that check nothing, and redefinitions of assertions.
    weakened: u32,
    /// Of the assertions, those that only check that a value exists
    /// ([`neuter::is_existence`]).
    existence: u32,
    /// Of those, the ones that compare a value with `True` ([`neuter::is_boolean_check`]):
    /// exact checks where the change adds them.
    booleans: u32,
}

impl Counts {
    fn is_empty(self) -> bool {
        self == Self::default()
    }

    /// The counts of an added line: a comparison with `True` by equality the change adds
    /// is an exact check, not an existence check ([`neuter::is_boolean_check`]).
    fn as_added(self) -> Self {
        Self {
            existence: self.existence.saturating_sub(self.booleans),
            booleans: 0,
            ..self
        }
    }

    /// What `self` holds beyond `other`, per measure.
    fn beyond(self, other: Self) -> Self {
        Self {
            tests: self.tests.saturating_sub(other.tests),
            skips: self.skips.saturating_sub(other.skips),
            assertions: self.assertions.saturating_sub(other.assertions),
            disables: self.disables.saturating_sub(other.disables),
            weakened: self.weakened.saturating_sub(other.weakened),
            existence: self.existence.saturating_sub(other.existence),
            booleans: self.booleans.saturating_sub(other.booleans),
        }
    }
}

/// What one line is, as [`classify`] found it.
struct Line {
    counts: Counts,
    /// The state the next line starts in.
    next: State,
    /// What the line makes dead by itself (`#[cfg(not(test))]`, `if False:`).
    trigger: Option<Trigger>,
    /// The line is an exit (`return`): it makes the rest of a test body dead when it is the
    /// body's first line.
    exit: bool,
    /// Bit `i` set: the table's selector `i` matches; [`GO_BUILD`] for a Go build constraint.
    selectors: u32,
    /// The name of the macro an item-level Rust macro invocation calls (`rgtest!(…)` at the
    /// start of a line).
    call: Option<String>,
    /// Swallowers (`except AssertionError:`, `catch_unwind(`) on the line: they weaken only
    /// when what they wrap asserts ([`swallows_a_check`]).
    swallows: u32,
}

/// What a line is to the second walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Live,
    /// The runner never runs it: it holds nothing.
    Dead,
    /// In the body of a macro that defines tests: its test attributes are templates.
    Template,
}

/// A line's place bit: its assertions are library code's, not a test's ([`place`]).
const LIBRARY: u8 = 1;

/// A line's place bit: it defines a function no runner collects as a test, whatever its
/// name ([`place::python_places`]).
const NESTED: u8 = place::NOT_A_TEST;

/// A line's place bit: it never runs, a test replaced by a later one of the same name
/// ([`place::python_places`]).
const SHADOWED: u8 = place::SHADOWED;

/// A line's place bit: it is in a Python function's body ([`place::python_places`]).
const IN_FUNCTION: u8 = place::IN_FUNCTION;

/// The selector bit of a Go build constraint (`//go:build …`) in a `_test.go` file.
const GO_BUILD: u32 = 1 << 31;

/// The name the report gives a Go build constraint.
const GO_BUILD_KEY: &str = "//go:build";

/// Whether `text` defines a Python function `name` (`def name(`).
fn defines(text: &[u8], name: &[u8]) -> bool {
    let mut needle = b"def ".to_vec();
    needle.extend_from_slice(name);
    needle.push(b'(');
    memchr::memmem::find(text, &needle).is_some()
}

/// Whether `token` names a test the Python side `text` defines: a `def test…` function or
/// method, or a class whose name holds `Test`.
fn names_a_test(token: &Token<'_>, text: &[u8]) -> bool {
    matches!(token, Token::Ident(name) if (name.starts_with(b"test") && defines(text, name))
        || (memchr::memmem::find(name, b"Test").is_some() && defines_class(text, name)))
}

/// Python statements that unbind a test the file defines: `del test_x`, `test_x = None`,
/// `test_x.__test__ = False` (the last two outside a function's body, where a name is the
/// function's own: `test_1="..."` there is a local or a call's keyword argument),
/// `del AddTest` (a test class: each counts one test at least), and a module global removed
/// by name (`globals().pop("test_x")`, `del globals()[…]`: the lexer keeps no string
/// contents, so one test).
fn python_disables(tokens: &[Token<'_>], text: &[u8], in_function: bool) -> u32 {
    let is_test = |token: &Token<'_>| names_a_test(token, text);
    let globals = |tokens: &[Token<'_>]| {
        matches!(
            tokens,
            [
                Token::Ident(b"globals" | b"vars" | b"locals"),
                Token::Punct(b'('),
                Token::Punct(b')'),
                ..
            ]
        )
    };

    match tokens {
        [Token::Ident(b"del"), rest @ ..] if globals(rest) => 1,
        [Token::Ident(b"del"), rest @ ..] => {
            let names = rest.iter().filter(|token| is_test(token)).count();
            u32::try_from(names).unwrap_or(u32::MAX)
        }
        [
            _,
            _,
            _,
            Token::Punct(b'.'),
            Token::Ident(b"pop" | b"__delitem__" | b"update" | b"__setitem__"),
            ..,
        ] if globals(tokens) => 1,
        // `globals()["test_x"] = None` (`globals().update(test_x=None)` is above): a module
        // global rebound by name.
        [_, _, _, Token::Punct(b'['), ..] if globals(tokens) => {
            u32::from(tokens.contains(&Token::Punct(b'=')))
        }
        // `setattr(sys.modules[__name__], "test_x", None)`, `setattr(test_x, "__test__",
        // False)`.
        [
            Token::Ident(b"setattr"),
            Token::Punct(b'('),
            first,
            rest @ ..,
        ] => {
            let module = *first == Token::Ident(b"sys")
                && rest.starts_with(&[Token::Punct(b'.'), Token::Ident(b"modules")]);
            let on_a_test =
                !in_function && is_test(first) && rest.first() == Some(&Token::Punct(b','));
            u32::from(module || on_a_test)
        }
        // `class test_x:` replaces the function `test_x`.
        [Token::Ident(b"class"), Token::Ident(name), ..] => {
            u32::from(name.starts_with(b"test") && defines(text, name))
        }
        _ if python_bound_names(tokens).into_iter().any(|name| {
            is_test(&Token::Ident(name))
                && (!in_function || declared_global(text, name))
                && !marks_itself(tokens, name)
        }) =>
        {
            1
        }
        // `test_x.__test__ = False`: pytest no longer collects that function or class.
        [
            name,
            Token::Punct(b'.'),
            Token::Ident(b"__test__"),
            Token::Punct(b'='),
            value @ ..,
        ] if !in_function && is_test(name) && neuter::falsy(value) => 1,
        _ => disables_by_attribute(tokens, text, in_function),
    }
}

/// The rest of [`python_disables`]: a test unbound through an attribute or the module's
/// globals.
fn disables_by_attribute(tokens: &[Token<'_>], text: &[u8], in_function: bool) -> u32 {
    let is_test = |token: &Token<'_>| names_a_test(token, text);
    // An assignment (`=`, not `==`) right after token `i`.
    let assigned_after = |i: usize| {
        tokens.get(i + 1) == Some(&Token::Punct(b'='))
            && tokens.get(i + 2) != Some(&Token::Punct(b'='))
    };
    // `globals().pop("test_x")` anywhere in the line (inside a decorator's arguments too).
    let edits_globals = tokens.windows(5).any(|window| {
        matches!(
            window,
            [
                Token::Ident(b"globals" | b"vars" | b"locals"),
                Token::Punct(b'('),
                Token::Punct(b')'),
                Token::Punct(b'.'),
                Token::Ident(b"pop" | b"__delitem__" | b"update" | b"__setitem__"),
            ]
        )
    });
    match tokens {
        // `test_x.__code__ = other.__code__`: the function now runs another body.
        [name, Token::Punct(b'.'), Token::Ident(b"__code__"), ..]
            if !in_function && is_test(name) && assigned_after(2) =>
        {
            1
        }
        // `TestCalc.test_x = …`: a test class's method rebound from outside it.
        [class, Token::Punct(b'.'), Token::Ident(name), ..]
            if !in_function
                && is_test(class)
                && is_test(&Token::Ident(name))
                && assigned_after(2) =>
        {
            1
        }
        // `sys.modules[__name__].test_x = …`: the module's global rebound by attribute.
        [
            Token::Ident(b"sys"),
            Token::Punct(b'.'),
            Token::Ident(b"modules"),
            Token::Punct(b'['),
            ..,
        ] => u32::from((4..tokens.len()).any(|i| {
            tokens[i - 1] == Token::Punct(b'.')
                && tokens[i - 2] == Token::Punct(b']')
                && is_test(&tokens[i])
                && assigned_after(i)
        })),
        // `delattr(TestCalc, "test_x")`, `delattr(sys.modules[__name__], "test_x")`.
        [
            Token::Ident(b"delattr"),
            Token::Punct(b'('),
            first,
            rest @ ..,
        ] => u32::from(
            is_test(first)
                || (*first == Token::Ident(b"sys")
                    && rest.starts_with(&[Token::Punct(b'.'), Token::Ident(b"modules")])),
        ),
        _ => u32::from(edits_globals),
    }
}

/// Whether a binding of `name` applies a pytest marker to the function of that name
/// (`test_x = pytest.mark.slow(test_x)`): the test still runs (a skip marker so applied
/// counts as a skip).
fn marks_itself(tokens: &[Token<'_>], name: &[u8]) -> bool {
    let marker = tokens
        .windows(2)
        .any(|pair| pair == [Token::Ident(b"mark"), Token::Punct(b'.')]);
    marker
        && tokens
            .iter()
            .filter(|token| **token == Token::Ident(name))
            .count()
            > 1
}

/// The names a Python statement binds (other than by `def`, `class` and `del`): the
/// targets of an assignment, chained or augmented (`test_x = None`, `x = test_x = None`,
/// `test_x, y = …`, `[test_x] = …`, `test_x: object = None`), of `:=`, of a `for` loop, of
/// `import` (`from os import sep as test_x`) and of any `as` (`with … as test_x`). A name
/// followed by `.`, `[` or `(` is an attribute, an item or a call, not a binding.
fn python_bound_names<'a>(tokens: &[Token<'a>]) -> Vec<&'a [u8]> {
    let mut names = Vec::new();
    let plain = |i: usize| {
        let before = i.checked_sub(1).and_then(|j| tokens.get(j));
        !matches!(before, Some(Token::Punct(b'.')))
            && !matches!(tokens.get(i + 1), Some(Token::Punct(b'.' | b'[' | b'(')))
    };
    let name_at = |i: usize, names: &mut Vec<&'a [u8]>| {
        if let Some(Token::Ident(name)) = tokens.get(i)
            && plain(i)
        {
            names.push(*name);
        }
    };
    match tokens.first() {
        Some(Token::Ident(b"for")) => {
            let end = tokens
                .iter()
                .position(|token| *token == Token::Ident(b"in"))
                .unwrap_or(tokens.len());
            (1..end).for_each(|i| name_at(i, &mut names));
        }
        Some(Token::Ident(b"import")) => (1..tokens.len()).for_each(|i| {
            if matches!(
                tokens.get(i - 1),
                Some(Token::Ident(b"import") | Token::Punct(b','))
            ) {
                name_at(i, &mut names);
            }
        }),
        _ => {}
    }
    if let Some(at) = tokens
        .iter()
        .position(|token| *token == Token::Ident(b"import"))
        && tokens.first() == Some(&Token::Ident(b"from"))
    {
        for i in at + 1..tokens.len() {
            if matches!(
                tokens.get(i - 1),
                Some(Token::Ident(b"import") | Token::Punct(b',' | b'('))
            ) && tokens.get(i + 1) != Some(&Token::Ident(b"as"))
            {
                name_at(i, &mut names);
            }
        }
    }
    let mut depth = 0usize;
    let mut target_start = 0;
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Ident(b"as") => name_at(i + 1, &mut names),
            // `name := value`, anywhere.
            Token::Punct(b':') if tokens.get(i + 1) == Some(&Token::Punct(b'=')) => {
                if let Some(name) = i.checked_sub(1) {
                    name_at(name, &mut names);
                }
            }
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth = depth.saturating_sub(1),
            // A function's defaults are no targets.
            Token::Ident(b"lambda") if depth == 0 => break,
            Token::Punct(b'=') if depth == 0 => {
                let before = i.checked_sub(1).and_then(|j| tokens.get(j));
                let comparison = tokens.get(i + 1) == Some(&Token::Punct(b'='))
                    || matches!(before, Some(Token::Punct(b'=' | b'!' | b'<' | b'>' | b':')));
                if !comparison {
                    // An annotation (`item: UnitTestCase = …`) is no target.
                    let end = (target_start..i)
                        .find(|&j| tokens[j] == Token::Punct(b':'))
                        .unwrap_or(i);
                    (target_start..end).for_each(|j| name_at(j, &mut names));
                    target_start = i + 1;
                }
            }
            _ => {}
        }
    }
    names
}

/// Whether a line of `text` declares `name` global (`global test_x`): a function that then
/// binds it rebinds the module's.
fn declared_global(text: &[u8], name: &[u8]) -> bool {
    text.split(|&b| b == b'\n').any(|line| {
        line.trim_ascii_start()
            .strip_prefix(b"global")
            .is_some_and(|names| {
                names
                    .split(|&b| b == b',' || b.is_ascii_whitespace())
                    .any(|word| word == name)
            })
    })
}

/// Whether `text` defines a Python class `name` (`class name(` or `class name:`).
fn defines_class(text: &[u8], name: &[u8]) -> bool {
    let mut needle = b"class ".to_vec();
    needle.extend_from_slice(name);
    memchr::memmem::find_iter(text, &needle)
        .any(|at| matches!(text.get(at + needle.len()), Some(b'(' | b':')))
}

/// A Go build constraint line, `//go:build …` or `// +build …`, and whether it names the
/// `ignore` tag (which no build sets).
fn go_build(line: &[u8]) -> Option<bool> {
    let trimmed = line.trim_ascii_start();
    let rest = trimmed
        .strip_prefix(b"//go:build")
        .or_else(|| trimmed.strip_prefix(b"// +build"))?;
    let ignore = rest
        .split(|&b| !lex::is_ident_byte(b))
        .any(|word| word == b"ignore");
    Some(ignore)
}

/// The runner settings a line's `tokens` write, as bits of the table's selectors.
fn selectors(table: &Table, context: &Context<'_>, tokens: &[Token<'_>], line: &[u8]) -> u32 {
    if !context.settings {
        return 0;
    }
    let indented = line.first().is_some_and(u8::is_ascii_whitespace);
    let mut bits = 0;
    for (i, (name, selector)) in table.selectors.iter().enumerate() {
        // In a test module, `collect_ignore` is never read, and a hook defined in a class
        // or a function (a plugin a test hands to `pytester`) is that run's; a hook at
        // module level counts, since `pytest_plugins` elsewhere can register the module
        // (attack-49 P12).
        if context.hooks_ignored
            && (*name == "collect_ignore" || (*name == python::COLLECTION_HOOK && indented))
        {
            continue;
        }
        if pattern::count(std::slice::from_ref(selector), tokens, false) > 0 {
            bits |= 1 << i;
        }
    }
    bits
}

/// Classifies `line`, which starts in `state`, of a side whose whole text is `text`; `dead`
/// lines hold nothing. `code` is a scratch buffer.
fn classify(
    table: &Table,
    context: &Context<'_>,
    text: &[u8],
    state: State,
    line: &[u8],
    code: &mut Vec<u8>,
    (mark, place): (Mark, u8),
) -> Line {
    code.clear();
    let next = lex::strip_line(&table.syntax, state, line, code);
    let mut found = Line {
        counts: Counts::default(),
        next,
        trigger: None,
        exit: false,
        selectors: 0,
        call: None,
        swallows: 0,
    };
    if table.language == Language::Go
        && state == State::Code
        && context.tests
        && let Some(ignore) = go_build(line)
    {
        found.selectors |= GO_BUILD;
        if ignore {
            found.trigger = Some(Trigger::Whole);
        }
    }
    let mut tokens: Vec<Token<'_>> = Vec::new();
    pattern::tokenize(code, &mut tokens);
    if tokens.is_empty() {
        return found;
    }
    rename_aliases(context, &mut tokens);
    found.selectors |= selectors(table, context, &tokens, line);
    found.trigger = found
        .trigger
        .or_else(|| neuter::trigger(table.language, &tokens));
    found.exit = neuter::is_exit(&tokens);
    if table.language == Language::Rust
        && !line.first().is_some_and(u8::is_ascii_whitespace)
        && let [
            Token::Ident(name),
            Token::Punct(b'!'),
            Token::Punct(b'(' | b'{' | b'['),
            ..,
        ] = tokens.as_slice()
        && *name != b"macro_rules"
    {
        found.call = Some(String::from_utf8_lossy(name).into_owned());
    }
    if mark == Mark::Dead || place & SHADOWED != 0 {
        return found;
    }
    let tests = if context.tests && mark == Mark::Live && place & NESTED == 0 {
        pattern::count(table.tests, &tokens, false)
            + u32::from(context.junit3.is_some() && jvm::junit3_test(&tokens).is_some())
    } else {
        0
    };
    let declares_test = tests > 0;
    // An assertion that checks nothing is still an assertion (deleting it removes one), and
    // it weakens the test it stands in: like a check that a value exists, it counts as
    // weakening as far as the file also removes exact checks (`exact_checks_weakened`); put
    // beside the checks a test keeps, it weakens nothing.
    // Library code's assertions check the program, not a test: they count for nothing.
    let (mut assertions, mut existence, mut booleans) = (0, 0, 0);
    if place & LIBRARY == 0 {
        let mut matches = Vec::new();
        pattern::for_each_match(table.assertions, &tokens, declares_test, |start, end| {
            matches.push((start, end));
        });
        // An assertion whose brackets close on a later line (black's `assert (`, a call's
        // arguments one per line) is classified on the whole statement; it is counted
        // once, on its first line. Only a line with an assertion reads on.
        let mut whole = Vec::new();
        let mut joined = Vec::new();
        let statement = if !matches.is_empty()
            && let Some(whole) = continued(table, text, line, next, code, &mut whole)
        {
            pattern::tokenize(whole, &mut joined);
            rename_aliases(context, &mut joined);
            &joined
        } else {
            &tokens
        };
        assertions = u32::try_from(matches.len()).unwrap_or(u32::MAX);
        (existence, booleans) = weak_checks(
            table.language,
            statement,
            &matches,
            !matches!(next, State::Str(_)),
        );
        found.swallows = pattern::count(table.swallowers, &tokens, declares_test);
    }
    let exits = exits(table, context, place, &tokens, text);
    let skips = if context.framework_source && place & LIBRARY != 0 {
        0
    } else {
        pattern::count(table.skips, &tokens, declares_test)
    };
    let mut counts = Counts {
        tests,
        skips,
        assertions,
        disables: pattern::count(table.disables, &tokens, declares_test) + exits,
        weakened: pattern::count(table.weakeners, &tokens, declares_test),
        existence,
        booleans,
    };
    language_counts(table.language, context, &tokens, text, place, &mut counts);
    found.counts = counts;
    found
}

/// Of the assertions matched at `matches` in `statement`, how many only check that a value
/// exists or check nothing ([`neuter::is_existence`], [`neuter::is_trivial`]), and how
/// many of those compare a value with `True` ([`neuter::is_boolean_check`]). A line that
/// ends inside a string (`assert """` and the text below) does not hold its `whole`
/// condition: it is read as an exact check (pytest's 8ab4468b5c6a).
fn weak_checks(
    language: Language,
    statement: &[Token<'_>],
    matches: &[(usize, usize)],
    whole: bool,
) -> (u32, u32) {
    if !whole {
        return (0, 0);
    }
    let existing: Vec<&(usize, usize)> = matches
        .iter()
        .filter(|&&(start, end)| {
            neuter::is_trivial(language, statement, start, end)
                || neuter::is_existence(language, statement, start, end)
        })
        .collect();
    let booleans = existing
        .iter()
        .filter(|&&&(start, end)| neuter::is_boolean_check(language, statement, start, end))
        .count();
    (
        u32::try_from(existing.len()).unwrap_or(u32::MAX),
        u32::try_from(booleans).unwrap_or(u32::MAX),
    )
}

/// A process ended with success in test code stops every test after it: 1 for such a line.
/// In a Go file with a `TestMain`, whether it runs the tests (`m.Run()`) is what counts.
fn exits(
    table: &Table,
    context: &Context<'_>,
    place: u8,
    tokens: &[Token<'_>],
    text: &[u8],
) -> u32 {
    u32::from(
        context.test_file
            && place & LIBRARY == 0
            && neuter::exits_with_success(table.language, tokens)
            && !(table.language == Language::Go
                && memchr::memmem::find(text, b"func TestMain(").is_some()),
    )
}

/// A check without its negations (`not`, `!`, a matcher's `.not`) and, for Python's
/// `assert` statement, without its message (`assert x is not None, "m"`).
fn unnegated<'a>(tokens: &[Token<'a>]) -> Vec<Token<'a>> {
    let mut kept: Vec<Token<'a>> = Vec::with_capacity(tokens.len());
    let mut depth = 0i32;
    // Python's message is after a comma outside brackets; a call's arguments are inside.
    let statement = tokens.first() == Some(&Token::Ident(b"assert"));
    for (i, token) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1);
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth -= 1,
            Token::Punct(b',') if statement && depth == 0 => break,
            // `!=` is `==` turned, `!==` is `===`.
            Token::Punct(b'!') if next == Some(&Token::Punct(b'=')) => {
                kept.push(Token::Punct(b'='));
                continue;
            }
            Token::Ident(b"not") | Token::Punct(b'!') => {
                if kept.last() == Some(&Token::Punct(b'.')) {
                    kept.pop();
                }
                continue;
            }
            // A matcher named for the other sense (`assertIsNotNone`, `toBeUndefined`).
            Token::Ident(name) => {
                kept.push(Token::Ident(unturned_name(name)));
                continue;
            }
            _ => {}
        }
        kept.push(*token);
    }
    kept
}

/// Where each of `lines` (a side's assertion lines, in order) is among those of its hunk:
/// (the hunk, how many are before it there, how many after it).
fn places_in_hunks(
    lines: &[usize],
    hunks: &[Range<usize>],
) -> HashMap<usize, (usize, usize, usize)> {
    let mut in_hunks: Vec<(usize, usize)> = lines
        .iter()
        .filter_map(|&line| Some((hunk_of(hunks, line)?, line)))
        .collect();
    in_hunks.sort_unstable();
    in_hunks.dedup();
    let mut places = HashMap::with_capacity(in_hunks.len());
    for group in in_hunks.chunk_by(|a, b| a.0 == b.0) {
        for (i, &(hunk, line)) in group.iter().enumerate() {
            places.insert(line, (hunk, i, group.len() - 1 - i));
        }
    }
    places
}

/// The hunk of `hunks` (in order) that holds `line`, if one does.
/// The name a statement (its code without blanks) binds and the value it binds it to:
/// `r=f(x)`, `constr=f(x)`, `letr=f(x)` (the keyword glued to the name), Go's `r:=f(x)`.
/// Not a comparison, an augmented assignment, or an attribute or item set.
fn binding(code: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = memchr::memchr(b'=', code)?;
    let value = &code[at + 1..];
    if matches!(value.first(), Some(b'=' | b'>')) {
        return None;
    }
    let mut name = &code[..at];
    if let Some(short) = name.strip_suffix(b":") {
        name = short;
    }
    for keyword in [&b"letmut"[..], b"const", b"let", b"var"] {
        if let Some(rest) = name.strip_prefix(keyword)
            && !rest.is_empty()
        {
            name = rest;
            break;
        }
    }
    (!name.is_empty() && name.iter().all(|&b| lex::is_ident_byte(b))).then_some((name, value))
}

fn hunk_of(hunks: &[Range<usize>], line: usize) -> Option<usize> {
    let at = hunks.partition_point(|hunk| hunk.end <= line);
    hunks
        .get(at)
        .is_some_and(|hunk| hunk.contains(&line))
        .then_some(at)
}

/// A matcher's name with its sense turned to the positive one, for [`unnegated`]:
/// `assertIsNotNone` is `assertIsNone` turned, `assertNotNull` `assertNull`, Jest's
/// `toBeDefined` `toBeUndefined`.
fn unturned_name(name: &[u8]) -> &[u8] {
    match name {
        b"assertIsNotNone" => b"assertIsNone",
        b"assertIsNot" => b"assertIs",
        b"assertNotNull" => b"assertNull",
        b"isNotNull" => b"isNull",
        b"toBeDefined" => b"toBeUndefined",
        b"NotNil" => b"Nil",
        b"assertNotIn" => b"assertIn",
        _ => name,
    }
}

/// The most lines a statement's brackets are followed over to close.
const STATEMENT_LINES: usize = 40;

/// The code of the whole statement that `line` of `text` starts (this line's code is
/// `code`, lexed up to `next`), written into `whole`, when it goes on below: its brackets
/// close on a later line, Python's `\` ends it, or a method chain goes on (`expect(x)` above
/// `  .toBe(3)`, Go's `Expect(x).` above `To(Equal(3))`).
fn continued<'w>(
    table: &Table,
    text: &[u8],
    line: &[u8],
    next: State,
    code: &[u8],
    whole: &'w mut Vec<u8>,
) -> Option<&'w [u8]> {
    let range = text.as_ptr_range();
    if !range.contains(&line.as_ptr()) {
        return None;
    }
    let start = line.as_ptr() as usize - range.start as usize;
    let mut rest = text.get(start + line.len()..)?;
    // Python's `\` at the end of a line goes on below too.
    let continues =
        |code: &[u8]| table.language == Language::Python && code.trim_ascii_end().ends_with(b"\\");
    let mut backslash = continues(code);
    let mut depth = pattern::open_brackets(code);
    let mut dot = ends_a_chain(table, code);
    let mut state = next;
    let mut counted = 0;
    let mut scratch = Vec::new();
    for _ in 0..STATEMENT_LINES {
        if rest.is_empty() {
            break;
        }
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |at| at + 1);
        let (below, after) = rest.split_at(end);
        if depth <= 0
            && !backslash
            && !dot
            && !chain_ahead(table, rest.split_inclusive(|&b| b == b'\n'))
        {
            break;
        }
        if counted == 0 {
            whole.extend_from_slice(without_backslash(code, backslash));
        }
        rest = after;
        scratch.clear();
        state = lex::strip_line(&table.syntax, state, below, &mut scratch);
        depth += pattern::open_brackets(&scratch);
        backslash = continues(&scratch);
        // A blank or comment line inside a chain keeps it going.
        if !scratch.trim_ascii().is_empty() {
            dot = ends_a_chain(table, &scratch);
        }
        whole.push(b' ');
        whole.extend_from_slice(without_backslash(&scratch, backslash));
        counted += 1;
    }
    (counted > 0).then_some(whole.as_slice())
}

/// Whether `line` goes on with a method chain from the line above (`  .toBe(3)`,
/// `.isEqualTo(4)`, `?.to.exist`): not in Python, where a line starts a statement of its own unless a
/// bracket is open or `\` ends the line above.
fn chains(table: &Table, line: &[u8]) -> bool {
    let line = line.trim_ascii_start();
    // Optional chaining, `?.to.exist`.
    let line = line.strip_prefix(b"?").unwrap_or(line);
    table.language != Language::Python
        && line.first() == Some(&b'.')
        && line
            .get(1)
            .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_' || b == b'$')
}

/// Whether the first of `lines` that is neither blank nor a `//` comment, among the next
/// few, goes on with a method chain ([`chains`]): a comment or a blank line inside a chain
/// does not end it.
fn chain_ahead<'l>(table: &Table, lines: impl IntoIterator<Item = &'l [u8]>) -> bool {
    lines
        .into_iter()
        .take(CHAIN_GAP + 1)
        .find(|line| {
            let line = line.trim_ascii();
            !line.is_empty() && !line.starts_with(b"//")
        })
        .is_some_and(|line| chains(table, line))
}

/// How many blank or comment lines [`chain_ahead`] looks past.
const CHAIN_GAP: usize = 4;

/// Whether the code of a line ends in a method chain's `.` that goes on below (Go's
/// `Expect(x).`).
fn ends_a_chain(table: &Table, code: &[u8]) -> bool {
    let code = code.trim_ascii_end();
    table.language != Language::Python && code.ends_with(b".") && !code.ends_with(b"..")
}

/// `code` without the `\\` it ends in, when `backslash`.
fn without_backslash(code: &[u8], backslash: bool) -> &[u8] {
    if backslash {
        let code = code.trim_ascii_end();
        &code[..code.len() - 1]
    } else {
        code
    }
}

/// `tokens` with the names the file binds to a runner's (`from pytest import mark as m`)
/// read as those names.
fn rename_aliases(context: &Context<'_>, tokens: &mut [Token<'_>]) {
    if context.aliases.is_empty() {
        return;
    }
    for token in tokens {
        if let Token::Ident(name) = *token
            && let Some(to) = context.aliases.get(name)
        {
            *token = Token::Ident(to);
        }
    }
}

/// What a line holds that a language's own rules find, beyond its table's patterns.
fn language_counts(
    language: Language,
    context: &Context<'_>,
    tokens: &[Token<'_>],
    text: &[u8],
    place: u8,
    counts: &mut Counts,
) {
    match language {
        Language::Rust => {
            // `use std::assert_ne as assert_eq;`: an assertion imported under another's name.
            if matches!(tokens.first(), Some(Token::Ident(b"use" | b"pub"))) {
                let renamed = tokens.windows(2).filter(|pair| {
                    matches!(pair, [Token::Ident(b"as"), Token::Ident(name)] if name.starts_with(b"assert"))
                });
                counts.weakened += u32::try_from(renamed.count()).unwrap_or(u32::MAX);
            }
            for attribute in neuter::cfg_attr_applies(tokens) {
                match attribute.first() {
                    Some(Token::Ident(b"ignore")) => counts.skips += 1,
                    Some(Token::Ident(b"should_panic")) => counts.disables += 1,
                    _ => {}
                }
            }
        }
        Language::Python => {
            if context.tests {
                counts.disables += python_disables(tokens, text, place & IN_FUNCTION != 0);
            }
            counts.skips = counts.skips.saturating_sub(skip_exception_caught(tokens));
        }
        _ => {}
    }
}

/// How many times a line names pytest's skip exception (`skip.Exception`) to catch it or
/// check for it rather than raise it: `except pytest.skip.Exception:`,
/// `pytest.raises(pytest.skip.Exception)`, `isinstance(e, skip.Exception)`, an `assert`.
/// Such a line skips nothing; `raise pytest.skip.Exception(…)` and a binding do.
fn skip_exception_caught(tokens: &[Token<'_>]) -> u32 {
    let names = tokens
        .windows(3)
        .filter(|window| {
            matches!(
                window,
                [
                    Token::Ident(b"skip"),
                    Token::Punct(b'.'),
                    Token::Ident(b"Exception")
                ]
            )
        })
        .count();
    if names == 0 || tokens.contains(&Token::Ident(b"raise")) {
        return 0;
    }
    let checks = matches!(tokens.first(), Some(Token::Ident(b"except" | b"assert")))
        || tokens.windows(2).any(|pair| {
            matches!(
                pair,
                [
                    Token::Ident(
                        b"raises"
                            | b"assertRaises"
                            | b"isinstance"
                            | b"errisinstance"
                            | b"issubclass"
                    ),
                    Token::Punct(b'(')
                ]
            )
        });
    if checks {
        u32::try_from(names).unwrap_or(u32::MAX)
    } else {
        0
    }
}

/// The hunks of `diff` as index ranges, when they fit sides of `old_len` and `new_len`
/// lines: in order, within bounds, with as many unchanged lines before each hunk on both
/// sides. `None` for a diff of other content.
fn checked_hunks(
    diff: &LineDiff<'_>,
    old_len: usize,
    new_len: usize,
) -> Option<Vec<(Range<usize>, Range<usize>)>> {
    let (mut o, mut n) = (0, 0);
    let mut hunks = Vec::new();
    for (before, after) in diff.hunks() {
        let ordered = o <= before.start && before.start <= before.end && n <= after.start;
        if !ordered || after.start > after.end || before.start - o != after.start - n {
            return None;
        }
        (o, n) = (before.end, after.end);
        hunks.push((before, after));
    }
    (o <= old_len && n <= new_len && old_len - o == new_len - n).then_some(hunks)
}

/// A line that makes code dead, where it is.
#[derive(Debug, Clone, Copy)]
struct Found {
    side: Side,
    line: usize,
    state: State,
    trigger: Trigger,
}

/// The analysis of one file in progress.
struct Analysis<'a> {
    table: &'static Table,
    context: Context<'a>,
    /// The old and new text.
    sides: [&'a [u8]; 2],
    file: FileTamper,
    /// Scratch buffer for the stripped code of a line.
    code: Vec<u8>,
    /// A removed line held a test, or an added line holds a skip marker, disables a test or
    /// weakens an assertion.
    touches_tests: bool,
    /// The lines that make code dead, found on changed lines by the first walk.
    triggers: Vec<Found>,
    /// The (side, line) of each trigger other than a macro template, for the second walk's
    /// lookups (a file may hold thousands).
    trigger_lines: std::collections::HashSet<(usize, usize)>,
    /// Per side, which lines are dead or macro templates, once the triggers are known
    /// (second walk).
    dead: Option<[Vec<Mark>; 2]>,
    /// Per side, each line's place bits ([`LIBRARY`], [`NESTED`], [`SHADOWED`]); empty when
    /// all are 0.
    places: [Vec<u8>; 2],
    /// The added lines that hold a test, a skip marker or a weak assertion, or are an
    /// attribute or decorator line, in order: what [`Analysis::forgive_new`] reads.
    added: Vec<Added>,
    /// The file is Rust outside test paths: its changed lines are looked up in the walk of
    /// its blocks ([`blocks::SideWalk`]).
    rust_items: bool,
    /// Per side, which lines are Rust test code ([`blocks::SideWalk`]), walked the
    /// first time a line of the side is looked up: the walk, which may read on, and what it
    /// found.
    rust_tests: [Option<(blocks::SideWalk, blocks::RustLines)>; 2],
    /// The walk of the lines both sides start with (up to the first hunk), taken by the
    /// first side walked for the second to go on from.
    rust_prefix: Option<blocks::SideWalk>,
    /// How many lines both sides start with.
    common: usize,
    /// Per side, the last line a Rust walk must read: the end of the last hunk looked up in
    /// (the walk reads on until nothing waits for a later line).
    limits: [usize; 2],
    /// Per side, the end of each hunk, in order.
    hunk_ends: [Vec<usize>; 2],
    /// The new side's line range of each hunk, in order.
    new_hunks: Vec<Range<usize>>,
    /// The old side's line range of each hunk, in order.
    old_hunks: Vec<Range<usize>>,
    /// Whether each side of a Python file may define a pytest hook (it names one, `def
    /// pytest_…` however spaced), whose body is then looked for above each changed line
    /// ([`in_a_hook`]).
    defines_hooks: [bool; 2],
    /// Per side of a file that defines a hook, how its lines make statements
    /// ([`python_statements`]), read when a changed line is first looked up.
    statements: [Option<Statements>; 2],
    /// Whose hooks this Python file's are, for [`Self::hook_line`].
    hooks: HookFile,
    /// Skip markers added in the binding of a name that only tests added with them use
    /// (`need_dotenv = pytest.mark.skipif(…)`), as (line, count): forgiven with the skips
    /// added beside their new tests ([`Analysis::forgive_new`]).
    named_skips: Vec<NamedSkip>,
    /// Existence checks added minus removed ([`neuter::is_existence`]).
    existence_added: i64,
    /// Other assertions removed minus added.
    exact_removed: i64,
    /// The checks each side's changed lines hold (old, new), in order.
    checks: [Vec<Check>; 2],
    /// The lines of each side (old, new) that the walk found assertions on, in order.
    assertion_lines: [Vec<usize>; 2],
}

/// The tests the old side of a file declares, to tell by name a test that ran before the
/// change from one it adds.
struct OldTests<'a> {
    table: &'static Table,
    text: &'a [u8],
    lines: Vec<&'a [u8]>,
    /// Where each line starts, for the line of a byte.
    starts: Vec<usize>,
    /// The state each line starts in: a test written in a string (the file pytester
    /// writes) or in a block comment is none.
    states: Vec<State>,
}

impl<'a> OldTests<'a> {
    fn new(table: &'static Table, text: &'a [u8]) -> Self {
        let lines = split_lines(text);
        let starts = lines
            .iter()
            .scan(0usize, |at, line| {
                let start = *at;
                *at += line.len();
                Some(start)
            })
            .collect();
        let states = lines
            .iter()
            .scan(State::Code, |state, line| {
                let starts = *state;
                *state = lex::advance(&table.syntax, starts, line);
                Some(starts)
            })
            .collect();
        OldTests {
            table,
            text,
            lines,
            starts,
            states,
        }
    }

    /// Whether line `line` declares a test, on it or in the run of attributes right above
    /// it.
    fn declared_there(&self, line: usize) -> bool {
        let tests = |at: usize| {
            let (Some(&text), Some(&state)) = (self.lines.get(at), self.states.get(at)) else {
                return false;
            };
            let mut code = Vec::new();
            let mut tokens = Vec::new();
            lex::strip_line(&self.table.syntax, state, text, &mut code);
            pattern::tokenize(&code, &mut tokens);
            state == State::Code && pattern::count(self.table.tests, &tokens, false) > 0
        };
        tests(line)
            || (line.saturating_sub(16)..line)
                .rev()
                .take_while(|&above| {
                    let trimmed = self.lines[above].trim_ascii();
                    trimmed.is_empty() || trimmed.starts_with(b"@") || trimmed.starts_with(b"#[")
                })
                .any(tests)
    }

    /// Whether a test is declared under `name` ([`test_name`]), in any block, on a line
    /// not commented out (`// it('x', …)`: a test brought back is new), as the name that
    /// line declares (`def test_add():  # test_sub covers …` declares no `test_sub`).
    fn declared(&self, name: &[u8]) -> bool {
        name_offsets(self.text, name).into_iter().any(|byte| {
            let line = self
                .starts
                .partition_point(|&start| start <= byte)
                .saturating_sub(1);
            let trimmed = self
                .lines
                .get(line)
                .map_or(&b""[..], |line| line.trim_ascii_start());
            let commented = trimmed.starts_with(b"//")
                || (trimmed.starts_with(b"#") && !trimmed.starts_with(b"#["));
            // The name the line declares, not one in a comment beside it.
            !commented
                && self.declared_there(line)
                && test_name(&self.lines, line).as_deref() == Some(name)
        })
    }
}

/// The checks a changed line holds, for weighing exact checks against existence checks.
#[derive(Debug, Clone, Copy)]
struct Check {
    /// Its index in its side.
    line: usize,
    /// Exact checks (`assert x == 3`).
    exact: u32,
    /// Existence checks ([`neuter::is_existence`]: `assert x`, `assert x is not None`).
    existence: u32,
}

/// A check on a changed line in a hunk, read as its whole statement
/// ([`Analysis::changed_checks`]).
struct ChangedCheck {
    hunk: usize,
    check: Check,
    /// Its code, for its names.
    code: Vec<u8>,
}

/// Indices of a side's [`ChangedCheck`]s, by hunk, in order.
type ByHunk = std::collections::BTreeMap<usize, Vec<usize>>;

impl ChangedCheck {
    /// The checks, by hunk.
    fn by_hunk(reads: &[Self]) -> ByHunk {
        let mut by_hunk = ByHunk::new();
        for (i, read) in reads.iter().enumerate() {
            by_hunk.entry(read.hunk).or_default().push(i);
        }
        by_hunk
    }

    /// Those of `hunk` that hold exact checks, or existence checks.
    fn in_hunk<'r>(reads: &'r [Self], by_hunk: &ByHunk, hunk: usize, exact: bool) -> Vec<&'r Self> {
        by_hunk
            .get(&hunk)
            .into_iter()
            .flatten()
            .filter_map(|&i| reads.get(i))
            .filter(|read| {
                if exact {
                    read.check.exact > 0
                } else {
                    read.check.existence > 0
                }
            })
            .collect()
    }
}

/// Lines and how many of something each holds.
type LineCounts = Vec<(usize, u32)>;

/// What a check names ([`Analysis::check_names`]).
struct CheckNames {
    /// What it checks ([`neuter::subject_words`]).
    subject: Vec<Vec<u8>>,
    /// What it reads of the value ([`neuter::value_words`]).
    value: Vec<Vec<u8>>,
    /// Every name on it.
    idents: Vec<Vec<u8>>,
    /// Its tokens with the names of its value blanked, to tell a check rewritten for a
    /// renamed value (`tb[-1]` now `traceback[-1]`).
    shape: Vec<u8>,
    /// It checks nothing ([`neuter::is_trivial`]).
    trivial: bool,
    /// It asks only a value's kind or a key's presence ([`neuter::asks_kind_or_key`]).
    kind_or_key: bool,
    /// It names `object` or a negation: as a kind check, one that every value, or almost
    /// every value, passes (`isinstance(x, object)`, `.not.be.a("symbol")`).
    vague: bool,
}

/// An added line, for telling which test a skip marker added with it applies to.
#[derive(Debug, Clone, Copy)]
struct Added {
    /// Its index in the new side.
    line: usize,
    /// The hunk it was added in (its index in the walk).
    hunk: usize,
    tests: u32,
    skips: u32,
    weakened: u32,
    existence: u32,
    /// Exact checks ([`Check::exact`]).
    exact: u32,
    /// It starts with `@` or `#[`: a decorator or attribute of the item below.
    attribute: bool,
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Old => 0,
        Side::New => 1,
    }
}

impl Analysis<'_> {
    /// Walks the line diff of `old` and `new`, counting what the changed lines hold. When a
    /// changed line makes code dead, walks it again with the dead lines known, so that what
    /// they hold counts as gone.
    fn run(&mut self, old: &[u8], new: &[u8], diff: Option<&LineDiff<'_>>) {
        let own;
        let diff = if let Some(diff) = diff {
            diff
        } else {
            own = LineDiff::new(old, new);
            &own
        };
        let (old_lines, new_lines) = (diff.old_lines(), diff.new_lines());
        let hunks = checked_hunks(diff, old_lines.len(), new_lines.len())
            // Cannot happen (the diff's own hunks); one hunk of everything still nets right.
            .unwrap_or_else(|| vec![(0..old_lines.len(), 0..new_lines.len())]);
        let whole = place::file_is_tests(
            self.table.language,
            &self.file.path,
            self.context.test_code,
            self.sides,
        );
        let hunks = if whole == Some(false) {
            hunks
        } else {
            self.whole_statements(&old_lines, &new_lines, hunks)
        };
        self.places(&old_lines, &new_lines, &hunks, whole);
        self.walk(&old_lines, &new_lines, &hunks);
        if !self.triggers.is_empty() {
            self.walk_dead(&old_lines, &new_lines, &hunks);
        }
        self.named_skips = self.skips_named_for_new_tests(&new_lines, &hunks);
    }

    /// `hunks` widened so that each holds the first line of every assertion whose lines it
    /// changes: an assertion is counted on its first line, read as its whole statement
    /// ([`continued`]: black's `assert (`, a call's arguments one per line, Python's `\`, a
    /// method chain going on below), so a change to a line below (`== 4` dropped, an
    /// expected `3` made `1 + 1`, `.to.equal(3)` made `.to.exist`) changes the assertion.
    /// The first line is unchanged, so it is the same line on both sides; lines above a hunk
    /// are looked at up to [`STATEMENT_LINES`] back, not past the hunk before (which is then
    /// joined), and read in the lexer state they start in.
    fn whole_statements(
        &self,
        lines: &[&[u8]],
        new_lines: &[&[u8]],
        hunks: Vec<(Range<usize>, Range<usize>)>,
    ) -> Vec<(Range<usize>, Range<usize>)> {
        let syntax = &self.table.syntax;
        let python = self.table.language == Language::Python;
        let mut widened: Vec<(Range<usize>, Range<usize>)> = Vec::with_capacity(hunks.len());
        let mut code = Vec::new();
        // Each line above the hunk: how many brackets it leaves open, whether it goes on
        // below whatever they are (Python's `\`, Go's chain `Expect(x).`), and the state it
        // starts in.
        let mut opens: Vec<(i64, bool, State)> = Vec::new();
        // The state the side's line `cursor.0` starts in, read from the top of the side:
        // only when a window is not plain code from its first line (it may start inside a
        // string or comment, a long docstring above the hunk), and then once for the side.
        let mut cursor = (0, State::Code);
        let mut window = |from: usize, to: usize, state: State, opens: &mut Vec<_>| {
            opens.clear();
            let mut state = state;
            let mut plain = true;
            for line in &lines[from..to] {
                code.clear();
                let at = state;
                plain &= at == State::Code;
                state = lex::strip_line(syntax, state, line, &mut code);
                // A blank or comment line goes on as the line above it did.
                let goes_on = if code.trim_ascii().is_empty() {
                    opens.last().is_some_and(|&(_, goes_on, _)| goes_on)
                } else {
                    (python && code.trim_ascii_end().ends_with(b"\\"))
                        || ends_a_chain(self.table, &code)
                };
                opens.push((pattern::open_brackets(&code), goes_on, at));
            }
            plain
        };
        for (before, after) in hunks {
            let floor = widened.last().map_or(0, |(last, _)| last.end);
            let from = before.start.saturating_sub(STATEMENT_LINES).max(floor);
            if !window(from, before.start, State::Code, &mut opens) {
                let (mut at, mut state) = cursor;
                if at > from {
                    (at, state) = (0, State::Code);
                }
                for line in &lines[at..from] {
                    state = lex::advance(syntax, state, line);
                }
                cursor = (from, state);
                window(from, before.start, state, &mut opens);
            }
            // Whether the line below each line of the window goes on with a method chain
            // (`  .toBe(3)`); below the last, the hunk's first line on either side.
            let chained = |k: usize| {
                let below = from + k + 1;
                let ahead = |side: &[&[u8]], from: usize| {
                    chain_ahead(
                        self.table,
                        side.get(from..).unwrap_or_default().iter().copied(),
                    )
                };
                if below < before.start {
                    ahead(lines, below)
                } else {
                    ahead(lines, before.start) || ahead(new_lines, after.start)
                }
            };
            // The statements that start above the hunk and still go on at its start,
            // nearest first: the first that is an assertion is the hunk's.
            let mut start = None;
            for (k, &(open, goes_on, at)) in opens.iter().enumerate().rev() {
                if open <= 0 && !goes_on && !chained(k) {
                    continue;
                }
                let mut depth = 0;
                let reaches = opens[k..]
                    .iter()
                    .enumerate()
                    .all(|(m, &(open, goes_on, _))| {
                        depth += open;
                        depth > 0 || goes_on || chained(k + m)
                    });
                if !reaches {
                    continue;
                }
                let (mut first, mut tokens) = (Vec::new(), Vec::new());
                lex::strip_line(syntax, at, lines[from + k], &mut first);
                pattern::tokenize(&first, &mut tokens);
                rename_aliases(&self.context, &mut tokens);
                if pattern::count(self.table.assertions, &tokens, false) > 0 {
                    start = Some(from + k);
                    break;
                }
            }
            let back = start.map_or(0, |start| before.start - start);
            let (before, after) = (
                before.start - back..before.end,
                after.start - back..after.end,
            );
            match widened.last_mut() {
                Some((last_before, last_after)) if last_before.end == before.start => {
                    (last_before.end, last_after.end) = (before.end, after.end);
                }
                _ => widened.push((before, after)),
            }
        }
        widened
    }

    /// Marks the lines that the triggers found by the first walk make dead (or macro
    /// templates), and walks the diff again with them known.
    fn walk_dead(
        &mut self,
        old_lines: &[&[u8]],
        new_lines: &[&[u8]],
        hunks: &[(Range<usize>, Range<usize>)],
    ) {
        let mut dead = [
            vec![Mark::Live; old_lines.len()],
            vec![Mark::Live; new_lines.len()],
        ];
        let python = self.table.language == Language::Python;
        let mut marked = false;
        for found in self.triggers.clone() {
            let lines: &[&[u8]] = match found.side {
                Side::Old => old_lines,
                Side::New => new_lines,
            };
            let side = neuter::Side {
                lines,
                syntax: &self.table.syntax,
            };
            let region = side.region(found.trigger, found.line, found.state, python);
            let (name, tests) = self.scan(found.side, lines, region.clone(), found.state);
            let mark = match found.trigger {
                Trigger::Template => match name.filter(|_| tests > 0) {
                    Some(name) => {
                        if !self.file.test_macros.contains(&name) {
                            self.file.test_macros.push(name);
                        }
                        Mark::Template
                    }
                    None => continue,
                },
                // An item, file or class that holds no test is library code: its
                // assertions are not the tests' (`#[cfg(not(test))]` on a function,
                // `__test__ = False` on a helper class).
                Trigger::Item | Trigger::Whole | Trigger::Class if tests == 0 => continue,
                _ => Mark::Dead,
            };
            marked = true;
            let side_marks = &mut dead[side_index(found.side)];
            for i in region {
                if let Some(line) = side_marks.get_mut(i)
                    && *line == Mark::Live
                {
                    *line = mark;
                }
            }
        }
        if !marked {
            return;
        }
        self.dead = Some(dead);
        self.trigger_lines = self
            .triggers
            .iter()
            .filter(|found| found.trigger != Trigger::Template)
            .map(|found| (side_index(found.side), found.line))
            .collect();
        self.file.macro_calls.clear();
        let file = &mut self.file;
        file.tests_removed = 0;
        file.test_skips_added = 0;
        file.assertions_removed = 0;
        file.assertions_weakened = 0;
        self.existence_added = 0;
        self.exact_removed = 0;
        self.checks = [Vec::new(), Vec::new()];
        self.assertion_lines = [Vec::new(), Vec::new()];
        file.findings.clear();
        self.touches_tests = false;
        self.walk(old_lines, new_lines, hunks);
    }

    /// The added skip markers that bind a name used only on tests added with them
    /// ([`alias::only_on_new_tests`]), with their counts, when the file adds tests and none
    /// of those the name applies to was moved there (its line removed elsewhere in the
    /// file).
    fn skips_named_for_new_tests(
        &self,
        new_lines: &[&[u8]],
        hunks: &[(Range<usize>, Range<usize>)],
    ) -> Vec<NamedSkip> {
        let marks = || {
            self.added
                .iter()
                .filter(|added| added.skips > 0 && added.tests == 0 && !added.attribute)
        };
        if self.file.tests_removed >= 0 || marks().next().is_none() {
            return Vec::new();
        }
        let code = alias::code_lines(&self.table.syntax, new_lines);
        let added: Vec<Range<usize>> = hunks.iter().map(|(_, after)| after.clone()).collect();
        let tests: Vec<usize> = self
            .added
            .iter()
            .filter(|added| added.tests > 0)
            .map(|added| added.line)
            .collect();
        let uses = alias::name_lines(&code);
        let side = alias::NewSide {
            code: &code,
            added: &added,
            tests: &tests,
            keyword_arguments: self.table.language == Language::Python,
            uses: &uses,
        };
        // A test moved under the name (its line removed elsewhere in the file) ran before.
        let removed: std::collections::HashSet<&str> = self
            .file
            .findings
            .iter()
            .filter(|finding| finding.kind == FindingKind::TestRemoved)
            .map(|finding| finding.text.as_str())
            .collect();
        let moved = |test: usize| {
            removed.contains(line_text(new_lines.get(test).copied().unwrap_or_default()).as_str())
        };
        let mut forgiven = Vec::new();
        for mark in marks() {
            if let Some((name, tests)) = alias::only_on_new_tests(&side, mark.line)
                && !tests.iter().any(|&test| moved(test))
            {
                forgiven.push(NamedSkip {
                    name: String::from_utf8_lossy(&name).into_owned(),
                    finding: Finding {
                        path: self.file.path.clone(),
                        line: mark.line + 1,
                        side: Side::New,
                        kind: FindingKind::SkipAdded,
                        count: mark.skips,
                        unchanged: false,
                        text: line_text(new_lines.get(mark.line).copied().unwrap_or_default()),
                    },
                });
            }
        }
        forgiven
    }

    /// Works out the place bits of each side's lines, when some line can have them: a
    /// Python test module's functions nested in functions; the assertions of library code
    /// (a whole file, or in Rust, the lines outside test items, walked only when a changed
    /// line mentions an assertion).
    fn places(
        &mut self,
        old_lines: &[&[u8]],
        new_lines: &[&[u8]],
        hunks: &[(Range<usize>, Range<usize>)],
        whole: Option<bool>,
    ) {
        let language = self.table.language;
        // A Rust walk reads each side up to the end of the hunk of the line looked up (and
        // on while an item there waits for a later line): once a changed line is found in
        // a test, the later ones are not looked up.
        if !hunks.is_empty() {
            self.limits = [0, 0];
        }
        self.hunk_ends = [
            hunks.iter().map(|(before, _)| before.end).collect(),
            hunks.iter().map(|(_, after)| after.end).collect(),
        ];
        self.new_hunks = hunks.iter().map(|(_, after)| after.clone()).collect();
        self.old_hunks = hunks.iter().map(|(before, _)| before.clone()).collect();
        self.common = hunks
            .first()
            .map_or(old_lines.len().min(new_lines.len()), |(before, _)| {
                before.start
            });
        // Rust outside test paths: its test items, walked only when a changed line on
        // either side mentions an assertion (and then on both sides alike).
        // The searchers are built once per file: building one costs more than a line's
        // search.
        let (assert, catch) = (
            memchr::memmem::Finder::new(b"assert"),
            memchr::memmem::Finder::new(b"catch_unwind"),
        );
        let mentions_assertion =
            |line: &[u8]| assert.find(line).is_some() || catch.find(line).is_some();
        let rust_items = whole.is_none()
            && hunks.iter().any(|(before, after)| {
                let mentions = |lines: &[&[u8]], range: &Range<usize>| {
                    range
                        .clone()
                        .any(|i| lines.get(i).is_some_and(|line| mentions_assertion(line)))
                };
                mentions(old_lines, before) || mentions(new_lines, after)
            });
        self.rust_items = language == Language::Rust && whole.is_none();
        for (side, lines) in [old_lines, new_lines].into_iter().enumerate() {
            let mut places = Vec::new();
            if whole == Some(false) {
                places = vec![LIBRARY; lines.len()];
            } else if rust_items {
                // Only the changed lines that mention an assertion: unchanged lines keep
                // the same place on both sides.
                places = vec![0; lines.len()];
                for range in hunks
                    .iter()
                    .map(|(before, after)| if side == 0 { before } else { after })
                {
                    for i in range.clone() {
                        let mentions = lines.get(i).is_some_and(|line| mentions_assertion(line));
                        if mentions
                            && !self.rust_test_line(
                                if side == 0 { Side::Old } else { Side::New },
                                lines,
                                i,
                            )
                        {
                            places[i] = LIBRARY;
                        }
                    }
                }
            }
            if language == Language::Python && self.context.tests {
                let python = place::python_places(lines);
                if python.iter().any(|bits| *bits != 0) {
                    places.resize(lines.len(), 0);
                    for (place, bits) in places.iter_mut().zip(python) {
                        *place |= bits;
                    }
                }
            }
            self.places[side] = places;
        }
    }

    fn place(&self, side: Side, line: usize) -> u8 {
        self.places[side_index(side)]
            .get(line)
            .copied()
            .unwrap_or(0)
    }

    fn mark(&self, side: Side, line: usize) -> Mark {
        self.dead.as_ref().map_or(Mark::Live, |dead| {
            dead[side_index(side)]
                .get(line)
                .copied()
                .unwrap_or(Mark::Live)
        })
    }

    /// The tests that `region` of `lines` (starting in `state`) holds, and the name of the
    /// macro that a `macro_rules!` on its first line defines.
    fn scan(
        &mut self,
        side: Side,
        lines: &[&[u8]],
        region: Range<usize>,
        state: State,
    ) -> (Option<String>, u32) {
        let mut state = state;
        let mut name = None;
        let mut tests = 0;
        for i in region {
            let Some(line) = lines.get(i) else { break };
            let place = self.place(side, i);
            let found = classify(
                self.table,
                &self.context,
                self.sides[side_index(side)],
                state,
                line,
                &mut self.code,
                (Mark::Live, place),
            );
            if name.is_none() {
                let mut tokens = Vec::new();
                pattern::tokenize(&self.code, &mut tokens);
                if let [
                    Token::Ident(b"macro_rules"),
                    Token::Punct(b'!'),
                    Token::Ident(id),
                    ..,
                ] = tokens.as_slice()
                {
                    name = Some(String::from_utf8_lossy(id).into_owned());
                }
            }
            tests += found.counts.tests;
            state = found.next;
        }
        (name, tests)
    }

    /// One walk over the diff, stepping each side's lexer state along it: an unchanged line
    /// that starts in the same state on both sides (and is dead on both or neither) is lexed
    /// once for both (and skipped outright when it holds no opener), a removed or added line
    /// once for its side, and any other unchanged line once per side.
    fn walk(
        &mut self,
        old_lines: &[&[u8]],
        new_lines: &[&[u8]],
        hunks: &[(Range<usize>, Range<usize>)],
    ) {
        let syntax = &self.table.syntax;
        let (mut old_state, mut new_state) = (State::Code, State::Code);
        let (mut o, mut n) = (0, 0);
        let end = (
            old_lines.len()..old_lines.len(),
            new_lines.len()..new_lines.len(),
        );
        self.added.clear();
        for (hunk, (before, after)) in hunks
            .iter()
            .cloned()
            .chain(std::iter::once(end))
            .enumerate()
        {
            // After the last hunk, the unchanged lines lex alike on both sides once their
            // states meet: from there, only a line marked or placed differently on each
            // side can still count.
            let settled = if hunk < hunks.len() {
                before.start
            } else if self.dead.is_none() && self.places.iter().all(Vec::is_empty) {
                o
            } else {
                (o..before.start)
                    .zip(n..after.start)
                    .rev()
                    .find(|&(i, j)| {
                        self.mark(Side::Old, i) != self.mark(Side::New, j)
                            || self.place(Side::Old, i) != self.place(Side::New, j)
                    })
                    .map_or(o, |(i, _)| i + 1)
            };
            // The unchanged lines up to the hunk.
            for (i, j) in (o..before.start).zip(n..after.start) {
                if i >= settled && old_state == new_state {
                    break;
                }
                let line = old_lines[i];
                if old_state == new_state
                    && self.mark(Side::Old, i) == self.mark(Side::New, j)
                    && self.place(Side::Old, i) == self.place(Side::New, j)
                {
                    old_state = lex::advance(syntax, old_state, line);
                    new_state = old_state;
                } else {
                    (old_state, new_state) = self.reclassified(i, line, old_state, j, new_state);
                }
            }
            for i in before.clone() {
                old_state = self.changed(Side::Old, i, old_lines, old_state);
            }
            for j in after.clone() {
                new_state = self.changed(Side::New, j, new_lines, new_state);
                if let Some(last) = self.added.last_mut()
                    && last.line == j
                {
                    last.hunk = hunk;
                }
            }
            (o, n) = (before.end, after.end);
        }
    }

    /// A test added already skipped skips nothing that ran (a test for a platform it cannot
    /// run on yet, a commented-out test brought back skipped), and an assertion that checks
    /// nothing in a new test (`assert(true)` in a callback that only has to be reached)
    /// weakens no test that ran: the skip markers and weak assertions added with the test
    /// they apply to are taken off the file's counts. A line applies to the test declared on
    /// it; an attribute or decorator line (or a line inside one's brackets), to a test
    /// declared in its run of attribute lines above it or the item right below it
    /// (`#[test]` / `#[ignore]`, `@pytest.mark.skipif(` … `def test_x`, a class's
    /// `@Ignore`); a Mocha hook's line (`before(function () { this.skip(); })`), to every
    /// test declared below it in its hunk; any other line (a `t.Skip()`, `pytest.skip()` in
    /// a body), to the nearest test declared above it. In each case the test's line must be
    /// added in the same hunk, and under a name that no test removed by the change had: a
    /// skip put on a test that ran stays counted, even next to a new one, and so does one
    /// on a test renamed as it is skipped.
    ///
    /// A skipped new test runs no more than a removed one: where the file, its skipped new
    /// tests left out (and as many removed tests as it removes skip markers), removes more
    /// tests than it adds, that is its count (a test renamed
    /// and skipped, or split in two skipped ones, counts as removed). Where it does not,
    /// its new tests still make up for tests that other files of the change remove (tests
    /// moved between files keep their skips). Weak assertions are taken off for as many
    /// tests as the file adds.
    fn forgive_new(&mut self) {
        let added_tests = (-self.file.tests_removed).max(0);
        let weakened = self.file.assertions_weakened > 0 && added_tests > 0;
        if self.file.test_skips_added <= 0 && !weakened {
            return;
        }
        let new_lines = split_lines(self.sides[1]);
        let new_tests = self.new_tests(&new_lines);
        let is_new = |test: usize| new_tests.binary_search(&test).is_ok();
        if self.file.test_skips_added > 0 {
            let mut skips = Vec::new();
            let mut skipped: Vec<usize> = Vec::new();
            let skips_of = (|added: &Added| added.skips, self.table.skips);
            for (line, count, tests) in self.attached(skips_of, &new_lines) {
                if tests.iter().all(|&test| is_new(test)) {
                    skips.push((line, count));
                    skipped.extend(tests);
                }
            }
            if added_tests > 0 {
                skips.extend(
                    self.named_skips
                        .iter()
                        .map(|named| (named.finding.line - 1, named.finding.count)),
                );
                self.file.named_skips = std::mem::take(&mut self.named_skips);
            }
            skips.sort_unstable();
            skips.dedup();
            let left = self.file.test_skips_added;
            let taken = self.take_findings(FindingKind::SkipAdded, &skips, left);
            self.file.test_skips_added -= taken;
            if taken > 0 {
                skipped.sort_unstable();
                skipped.dedup();
                let tests: u32 = skipped
                    .iter()
                    .filter_map(|&test| self.added.iter().find(|added| added.line == test))
                    .map(|added| added.tests)
                    .sum();
                // Tests removed that were skipped ran no more than the new ones.
                let skipped_removed = self.skipped_removed_tests();
                let without = self.file.tests_removed + i64::from(tests) - skipped_removed;
                if without > 0 {
                    self.file.tests_removed = without;
                }
            }
        }
        if weakened {
            let weak = self.in_new_tests(
                (|added: &Added| added.weakened, self.table.weakeners),
                added_tests,
            );
            let left = self.file.assertions_weakened;
            self.file.assertions_weakened -=
                self.take_findings(FindingKind::AssertionWeakened, &weak, left);
        }
    }

    /// A test that ran before and that an added line disables (`test_add = test_sub`,
    /// `del test_add`, `#[should_panic]` above it) stopped running whatever the change adds:
    /// a test added beside it makes up for none. The file removes at least as many tests
    /// as it disables of those the old side declares (by a name on the line, or of the
    /// item below it), less the disablings it removes, plus what it removes on balance.
    fn old_tests_disabled(&mut self) {
        let disabling: Vec<(usize, u32)> = self
            .file
            .findings
            .iter()
            .filter(|finding| finding.kind == FindingKind::TestDisabled && !finding.unchanged)
            .map(|finding| (finding.line - 1, finding.count))
            .collect();
        if disabling.is_empty() || self.sides[0].is_empty() {
            return;
        }
        let old_tests = OldTests::new(self.table, self.sides[0]);
        let new_lines = split_lines(self.sides[1]);
        let mut disabled = 0i64;
        for (index, count) in disabling {
            let Some(&line) = new_lines.get(index) else {
                continue;
            };
            // The line as written, strings read as words: a name given as a string
            // (`globals()["test_add"] = …`, `setattr(module, "test_add", …)`) too.
            let mut tokens = Vec::new();
            pattern::tokenize(line, &mut tokens);
            let mut names: Vec<&[u8]> = tokens
                .iter()
                .filter_map(|token| match token {
                    Token::Ident(name) => Some(*name),
                    _ => None,
                })
                .collect();
            let below = test_name_at(&new_lines, index).map(|(name, _)| name);
            names.extend(below.as_deref());
            names.sort_unstable();
            names.dedup();
            let old = names.iter().filter(|name| old_tests.declared(name)).count();
            disabled += i64::from(count.min(u32::try_from(old).unwrap_or(u32::MAX)));
        }
        let enabled: i64 = self
            .file
            .findings
            .iter()
            .filter(|finding| finding.kind == FindingKind::TestEnabled && !finding.unchanged)
            .map(|finding| i64::from(finding.count))
            .sum();
        let removed: i64 = self
            .file
            .findings
            .iter()
            .filter(|finding| !finding.unchanged)
            .map(|finding| match finding.kind {
                FindingKind::TestRemoved => i64::from(finding.count),
                FindingKind::TestAdded => -i64::from(finding.count),
                _ => 0,
            })
            .sum();
        let floor = disabled - enabled + removed.max(0);
        if disabled > enabled && floor > self.file.tests_removed {
            self.file.tests_removed = floor;
        }
    }

    /// How many of the tests the change removes, under a name the new side no longer
    /// writes, carried a skip marker removed with them: on the test's own line, or in the
    /// run of decorator and attribute lines (brackets and all) right above it.
    fn skipped_removed_tests(&self) -> i64 {
        let old_lines = split_lines(self.sides[0]);
        let skips: std::collections::HashSet<usize> = self
            .file
            .findings
            .iter()
            .filter(|finding| finding.kind == FindingKind::SkipRemoved && !finding.unchanged)
            .map(|finding| finding.line)
            .collect();
        if skips.is_empty() {
            return 0;
        }
        let mut count = 0i64;
        for finding in &self.file.findings {
            if finding.kind != FindingKind::TestRemoved || finding.unchanged {
                continue;
            }
            let Some(index) = finding.line.checked_sub(1) else {
                continue;
            };
            // Up from the test's line over decorators, attributes and their brackets.
            let mut first = index;
            let mut depth = 0i64;
            while let Some(above) = first.checked_sub(1)
                && let Some(line) = old_lines.get(above)
            {
                let trimmed = line.trim_ascii();
                let opens = pattern::open_brackets(trimmed);
                let attribute = trimmed.starts_with(b"@") || trimmed.starts_with(b"#[");
                // A line inside brackets that close below, one that closes some, or an
                // attribute (which opens what the lines below it closed).
                if !(depth < 0 || opens < 0 || attribute) {
                    break;
                }
                depth += opens;
                first = above;
                if attribute {
                    depth = depth.min(0);
                }
            }
            // Gone, not declared again (still skipped, or not).
            let gone =
                test_name(&old_lines, index).is_some_and(|name| !writes_name(self.sides[1], &name));
            if gone && (first..=index).any(|line| skips.contains(&(line + 1))) {
                count += i64::from(finding.count);
            }
        }
        count
    }

    /// The lines of the new side that declare a test the change adds. Its name
    /// ([`test_name`]) read on an added line: no test of the old side declared under that
    /// name (in another block too: a test moved out of its class, or declared again beside
    /// a namesake that the diff pairs with the old line, is the test that ran), out of
    /// comments (a test commented out and brought back is new). Read on a line the change
    /// keeps (below an added `#[test]` or `@Test`): no test declared there on the old side
    /// (a `JUnit` 3 method that was none; not the `fn` of a test whose `#[test]` the diff
    /// lined up with another). None is new where a test the change removes has no name to
    /// read (`it(TITLE, …)`): it may be any of them.
    fn new_tests(&self, new_lines: &[&[u8]]) -> Vec<usize> {
        let old_tests = OldTests::new(self.table, self.sides[0]);
        let unnamed = self.file.findings.iter().any(|finding| {
            finding.kind == FindingKind::TestRemoved
                && !finding.unchanged
                && finding
                    .line
                    .checked_sub(1)
                    .is_none_or(|index| test_name(&old_tests.lines, index).is_none())
        });
        if unnamed {
            return Vec::new();
        }
        // The old line an unchanged new line was, by the hunks before it.
        let old_of = |line: usize| -> Option<usize> {
            if self.new_hunks.iter().any(|hunk| hunk.contains(&line)) {
                return None;
            }
            let before = self.new_hunks.partition_point(|hunk| hunk.end <= line);
            Some(match before.checked_sub(1) {
                Some(last) => line - self.new_hunks[last].end + self.old_hunks[last].end,
                None => line,
            })
        };
        let mut new = Vec::new();
        for added in self.added.iter().filter(|added| added.tests > 0) {
            let Some((name, at)) = test_name_at(new_lines, added.line) else {
                continue;
            };
            // Read on a line the change keeps (below an added `#[test]` or `@Test`): new
            // only if it declared no test there (a JUnit 3 method that was not one).
            let fresh = match old_of(at) {
                Some(was) => !old_tests.declared_there(was),
                None => !old_tests.declared(&name),
            };
            if fresh {
                new.push(added.line);
            }
        }
        new.sort_unstable();
        new.dedup();
        new
    }

    /// The added lines that hold `count` of something in tests the change adds under new
    /// names ([`Self::attached`]), for the first `tests` such tests: (line, count).
    fn in_new_tests(
        &self,
        count: (impl Fn(&Added) -> u32, &'static [Pattern]),
        tests: i64,
    ) -> Vec<(usize, u32)> {
        let new_lines = split_lines(self.sides[1]);
        let new_tests = self.new_tests(&new_lines);
        let marks = self.attached(count, &new_lines);
        let mut first: Vec<usize> = marks
            .iter()
            .flat_map(|(_, _, tests)| tests.iter().copied())
            .filter(|test| new_tests.binary_search(test).is_ok())
            .collect();
        first.sort_unstable();
        first.dedup();
        first.truncate(usize::try_from(tests).unwrap_or(usize::MAX));
        marks
            .into_iter()
            .filter(|(_, _, tests)| tests.iter().all(|test| first.contains(test)))
            .map(|(line, count, _)| (line, count))
            .collect()
    }

    /// pytester's line matchers fail the test themselves (`result.stdout.fnmatch_lines([…])`
    /// calls `pytest.fail`): an `assert` taken off such a call that stays, the same text
    /// on an added line, removes no check (pytest's d93016d85fd2, "remove the unused
    /// return value of `fnmatch_lines`").
    fn asserts_dropped_from_line_matchers(&mut self) {
        const MATCHERS: &[&str] = &[
            "fnmatch_lines",
            "re_match_lines",
            "no_fnmatch_line",
            "no_re_match_line",
        ];
        let [old_lines, new_lines] = self.sides.map(split_lines);
        // (the finding, its old line, the new line the call stays on)
        let mut kept_calls: Vec<(usize, usize, usize)> = Vec::new();
        for (at, finding) in self.file.findings.iter().enumerate() {
            if finding.kind != FindingKind::AssertionRemoved
                || finding.unchanged
                || finding.count != 1
            {
                continue;
            }
            let Some(index) = finding.line.checked_sub(1) else {
                continue;
            };
            let Some(&old_line) = old_lines.get(index) else {
                continue;
            };
            let Some(call) = old_line
                .trim_ascii()
                .strip_prefix(b"assert ")
                .map(<[u8]>::trim_ascii_start)
            else {
                continue;
            };
            // The call is the whole statement: `name.matcher(`, nothing before it.
            let Some(open) = call.iter().position(|&b| b == b'(') else {
                continue;
            };
            let callee = &call[..open];
            let plain = callee.iter().all(|&b| lex::is_ident_byte(b) || b == b'.')
                && MATCHERS.iter().any(|name| {
                    callee.ends_with(name.as_bytes()) && mentions_as_attribute(callee, name)
                });
            // The call stays where the `assert` was: in a hunk of as many lines on each
            // side, on the line in the same place, at the same indentation.
            let Some(hunk) = self.old_hunks.iter().position(|hunk| hunk.contains(&index)) else {
                continue;
            };
            let (before, after) = (&self.old_hunks[hunk], &self.new_hunks[hunk]);
            let kept = after.start + (index - before.start);
            let stays = before.len() == after.len()
                && new_lines.get(kept).is_some_and(|line| {
                    line.trim_ascii() == call && indentation(line) == indentation(old_line)
                });
            if plain && stays {
                kept_calls.push((at, index, kept));
            }
        }
        // A matcher the file defines itself may only return what the `assert` checked.
        if kept_calls.is_empty()
            || MATCHERS.iter().any(|name| {
                memchr::memmem::find(self.sides[1], format!("def {name}").as_bytes()).is_some()
            })
        {
            return;
        }
        // Both lines in code, not inside a string: each side lexed once, up to the last
        // line looked up.
        let syntax = &self.table.syntax;
        let states = |lines: &[&[u8]], upto: usize| lex::start_states(syntax, lines, upto + 1);
        let last = |pick: fn(&(usize, usize, usize)) -> usize| {
            kept_calls.iter().map(pick).max().unwrap_or(0)
        };
        let old_states = states(&old_lines, last(|&(_, index, _)| index));
        let new_states = states(&new_lines, last(|&(_, _, kept)| kept));
        let in_code = |states: &[State], line: usize| states.get(line) == Some(&State::Code);
        let mut dropped = 0;
        for (at, index, kept) in kept_calls {
            if in_code(&old_states, index) && in_code(&new_states, kept) {
                self.file.findings[at].count = 0;
                dropped += 1;
            }
        }
        self.file.findings.retain(|finding| finding.count > 0);
        self.file.assertions_removed -= dropped;
    }

    /// A test that was switched off under a condition (`if not has_encoding("euc-kr"):` /
    /// `test_x = None`) and is now skipped under the same condition
    /// (`@pytest.mark.skipif(not has_encoding("euc-kr"), …)` over `def test_x`) runs where
    /// it ran: the skip added and the disabling removed cancel out (flask's b46f5942a528).
    /// The condition must be the same text (spaces aside), and the decorator must sit over
    /// the test of that name.
    fn guards_made_skipif(&mut self) {
        if self.file.test_skips_added <= 0 {
            return;
        }
        let (old_lines, new_lines) = (split_lines(self.sides[0]), split_lines(self.sides[1]));
        // (the finding's index, the test's name, its guard's condition)
        let mut guards: Vec<(usize, Vec<u8>, Vec<u8>)> = Vec::new();
        for (index, finding) in self.file.findings.iter().enumerate() {
            if finding.kind != FindingKind::TestEnabled || finding.unchanged {
                continue;
            }
            let Some(line) = old_lines.get(finding.line - 1) else {
                continue;
            };
            let Some((name, condition)) = guard(&old_lines, finding.line - 1, line) else {
                continue;
            };
            guards.push((index, name, condition));
        }
        if guards.is_empty() {
            return;
        }
        let mut paired: Vec<(usize, usize)> = Vec::new();
        for (index, finding) in self.file.findings.iter().enumerate() {
            if finding.kind != FindingKind::SkipAdded || finding.unchanged {
                continue;
            }
            let (decorator, decorated) = decorated_def(&new_lines, finding.line - 1);
            let (Some(test), Some(condition)) = (
                decorated,
                decorator
                    .strip_prefix(b"@pytest.mark.skipif(")
                    .or_else(|| decorator.strip_prefix(b"@mark.skipif("))
                    .map(squeezed),
            ) else {
                continue;
            };
            if let Some((enabled, _, _)) = guards.iter().find(|(enabled, name, guard)| {
                *name == test
                    && condition
                        .strip_prefix(guard.as_slice())
                        .is_some_and(only_a_reason)
                    && !paired.iter().any(|(_, other)| other == enabled)
            }) {
                paired.push((index, *enabled));
            }
        }
        for &(skip, enabled) in &paired {
            let count = i64::from(self.file.findings[skip].count);
            self.file.test_skips_added -= count;
            self.file.tests_removed += i64::from(self.file.findings[enabled].count);
            self.file.findings[skip].count = 0;
            self.file.findings[enabled].count = 0;
        }
        self.file.findings.retain(|finding| {
            finding.count > 0
                || !matches!(
                    finding.kind,
                    FindingKind::SkipAdded | FindingKind::TestEnabled
                )
        });
    }

    /// Exact checks replaced by existence checks (`expect(x).toBe(3)` by
    /// `expect(x).toBeDefined()`, `assertEqual` by `assertIsNotNone`), leaving out the
    /// existence checks of the tests the change adds, and Python's guards that narrow a
    /// value before exact checks of what it holds (`assert entry is not None` above `assert
    /// entry.lineno == 3`). Weighed two ways, and the larger counts:
    /// - across the file: as many stand in as the file both adds existence checks and
    ///   removes other assertions (net); those that check a value a removed exact check
    ///   checked weaken it, the others leave it removed;
    /// - hunk by hunk: a hunk that trades exact checks for existence checks of the same
    ///   value weakens them, whatever the rest of the file adds (an exact check written
    ///   elsewhere does not make up for it; one moved there, the same statement, does).
    fn exact_checks_weakened(&mut self) {
        let added_tests = (-self.file.tests_removed).max(0);
        // Across the file, exact checks are lost net of those added, less (below) those
        // added in new tests or asking only a kind or a key.
        let across = self.existence_added > 0 && self.checks[0].iter().any(|check| check.exact > 0);
        if !across && !self.trades_in_a_hunk() {
            return;
        }
        let [old, new] = self.sides.map(split_lines);
        let new_tests: Vec<(usize, u32)> = if added_tests > 0 {
            self.in_new_tests(
                (|added: &Added| added.existence, self.table.assertions),
                added_tests,
            )
        } else {
            Vec::new()
        };
        let in_new_tests: i64 = new_tests.iter().map(|(_, count)| i64::from(*count)).sum();
        // Nor does an exact check of a test the change adds make up for one removed from a
        // test that ran: the failing check made an existence check, a new test holding any
        // exact check beside it, weakens the test.
        let exact_in_new_tests: i64 = if added_tests > 0 {
            self.in_new_tests(
                (|added: &Added| added.exact, self.table.assertions),
                added_tests,
            )
            .iter()
            .map(|(_, count)| i64::from(*count))
            .sum()
        } else {
            0
        };
        // Guards are looked for only where a weakening would otherwise count: most files
        // add no existence check.
        let guards: Vec<(usize, u32)> = if self.table.language == Language::Python {
            let mut kept = std::collections::HashMap::new();
            self.added
                .iter()
                .filter(|added| {
                    added.existence > 0
                        && place::narrows_before_checks(&old, &new, added.line, &mut kept)
                })
                .map(|added| (added.line, added.existence))
                .collect()
        } else {
            Vec::new()
        };
        let left_out: HashSet<usize> = guards
            .iter()
            .chain(&new_tests)
            .map(|&(line, _)| line)
            .collect();
        let guarded: i64 = guards.iter().map(|(_, count)| i64::from(*count)).sum();
        // Only a check of the value an exact check removed checked stands in for it (a
        // weakening); one of another value leaves that exact check removed.
        let (lines, turned) = self.in_place_of_exact_checks(&old, &new);
        let lines: Vec<(usize, u32)> = lines
            .into_iter()
            .filter(|(line, _)| !left_out.contains(line))
            .collect();
        let sum = |lines: &[(usize, u32)]| -> i64 {
            lines.iter().map(|(_, count)| i64::from(*count)).sum()
        };
        // Across the file.
        // Nor does a check of a value's kind or a key's presence added outside them.
        let kinds_or_keys = self.kinds_or_keys_added(&new_tests, [&old, &new]);
        let stand_ins = ((self.existence_added - in_new_tests - guarded)
            .min(self.exact_removed + exact_in_new_tests + kinds_or_keys)
            - sum(&turned))
        .max(0);
        let weakened = stand_ins.min(sum(&lines));
        let in_hunks = self.weakened_in_hunks(&left_out, &turned);
        let (weakened, lines) = if sum(&in_hunks) > weakened {
            (sum(&in_hunks), in_hunks)
        } else {
            (weakened, lines)
        };
        if stand_ins > weakened {
            self.file.assertions_removed += stand_ins - weakened;
            self.touches_tests = true;
        }
        if weakened == 0 {
            return;
        }
        self.file.assertions_weakened += weakened;
        self.touches_tests = true;
        let mut left = weakened;
        for (line, count) in lines {
            if left == 0 {
                break;
            }
            let count = i64::from(count).min(left);
            left -= count;
            let text = self.sides[1]
                .split(|&b| b == b'\n')
                .nth(line)
                .unwrap_or_default();
            self.push(
                Side::New,
                line,
                text,
                FindingKind::AssertionWeakened,
                u32::try_from(count).unwrap_or(u32::MAX),
                false,
            );
        }
    }

    /// The checks of a value's kind or a key's presence ([`neuter::asks_kind_or_key`]) the
    /// change adds outside the lines `new_tests`, net of those it removes (one rewritten is
    /// no gain).
    fn kinds_or_keys_added(&self, new_tests: &[(usize, u32)], lines: [&[&[u8]]; 2]) -> i64 {
        let in_new: HashSet<usize> = new_tests.iter().map(|&(line, _)| line).collect();
        let count = |side: usize| -> i64 {
            self.checks[side]
                .iter()
                .filter(|check| check.exact > 0 && (side == 0 || !in_new.contains(&check.line)))
                .filter(|check| {
                    lines[side].get(check.line).is_some_and(|line| {
                        self.check_names(&self.statement(side, line)).kind_or_key
                    })
                })
                .map(|check| i64::from(check.exact))
                .sum()
        };
        (count(1) - count(0)).max(0)
    }

    /// Whether a hunk both removes an exact check and adds an existence check.
    fn trades_in_a_hunk(&self) -> bool {
        let hunks_with = |side: usize, holds: fn(&Check) -> bool| {
            let hunks = [&self.old_hunks, &self.new_hunks][side];
            let mut found: Vec<usize> = self.checks[side]
                .iter()
                .filter(|check| holds(check))
                .filter_map(|check| hunk_of(hunks, check.line))
                .collect();
            found.sort_unstable();
            found.dedup();
            found
        };
        let removed = hunks_with(0, |check| check.exact > 0);
        !removed.is_empty()
            && hunks_with(1, |check| check.existence > 0)
                .iter()
                .any(|hunk| removed.binary_search(hunk).is_ok())
    }

    /// Hunk by hunk, the added existence checks that stand in for an exact check removed
    /// there, as (line, count): the exact checks a hunk removes, less those moved (the same
    /// statement added in another hunk) and those rewritten there (an exact check of the
    /// same names, or the same shape, added in the hunk: a changed expectation), are each
    /// weakened by an existence check the hunk adds of a value they checked (or of nothing)
    /// — one that is not moved, `left_out` (a guard, in a new test), `turned` (a flip), or
    /// still checked (what it reads, an exact check added there reads too). Whatever the rest
    /// of the file adds: a passing `assert not len(c)` rewritten as `assert len(c) == 0` in
    /// another hunk does not make up for a failing `assert len(c) == 2` made `assert
    /// len(c)`.
    fn weakened_in_hunks(
        &self,
        left_out: &HashSet<usize>,
        turned: &[(usize, u32)],
    ) -> Vec<(usize, u32)> {
        let [removed, added] = self.changed_checks();
        let turned: HashSet<usize> = turned.iter().map(|&(line, _)| line).collect();
        let (removed_in, added_in) = (
            ChangedCheck::by_hunk(&removed),
            ChangedCheck::by_hunk(&added),
        );
        let mut found = Vec::new();
        for &hunk in removed_in.keys() {
            let stand_ins: Vec<&ChangedCheck> =
                ChangedCheck::in_hunk(&added, &added_in, hunk, false)
                    .into_iter()
                    .filter(|read| {
                        !left_out.contains(&read.check.line) && !turned.contains(&read.check.line)
                    })
                    .collect();
            if stand_ins.is_empty() {
                continue;
            }
            // A check of a value's kind or a key's presence checks no value: it rewrites only
            // another such check, and keeps no value checked.
            let exact: Vec<CheckNames> = ChangedCheck::in_hunk(&added, &added_in, hunk, true)
                .iter()
                .map(|read| self.check_names(&read.code))
                .collect();
            let mut rewritten: Vec<bool> = vec![false; exact.len()];
            let mut lost: Vec<(CheckNames, u32)> = Vec::new();
            for read in ChangedCheck::in_hunk(&removed, &removed_in, hunk, true) {
                let old = self.check_names(&read.code);
                let twin = exact.iter().enumerate().position(|(i, new)| {
                    // A kind check rewritten as another of the same value
                    // (`type(x) == list` made `isinstance(x, list)`).
                    // Not one that (almost) any value passes (attack-43 B20, B21).
                    let same_kind = old.kind_or_key
                        && new.kind_or_key
                        && old.value.iter().any(|word| new.value.contains(word));
                    !rewritten[i]
                        && (!new.kind_or_key || (old.kind_or_key && !new.vague))
                        && (same_kind
                            || new.shape == old.shape
                            || (!old.subject.is_empty()
                                && old.subject.iter().all(|word| new.subject.contains(word))))
                });
                match twin {
                    Some(at) => rewritten[at] = true,
                    None => lost.push((old, read.check.exact)),
                }
            }
            let mut left: u32 = lost.iter().map(|(_, count)| count).sum();
            for read in stand_ins {
                if left == 0 {
                    break;
                }
                let new = self.check_names(&read.code);
                let in_place = new.trivial
                    || new.subject.is_empty()
                    || lost
                        .iter()
                        .any(|(old, _)| new.subject.iter().all(|word| old.idents.contains(word)));
                let still_checked = !new.trivial
                    && !new.value.is_empty()
                    && exact.iter().any(|other| {
                        !other.kind_or_key
                            && new.value.iter().all(|word| other.idents.contains(word))
                    });
                if in_place && !still_checked {
                    let count = read.check.existence.min(left);
                    left -= count;
                    found.push((read.check.line, count));
                }
            }
        }
        found
    }

    /// The checks of each side's changed lines that are in a hunk, read as whole statements,
    /// with the moves marked: a removed check and an added one of another hunk, the same
    /// statement (its code without blanks), one for one.
    fn changed_checks(&self) -> [Vec<ChangedCheck>; 2] {
        let lines = self.sides.map(split_lines);
        let mut reads: [Vec<ChangedCheck>; 2] = [Vec::new(), Vec::new()];
        for (side, reads) in reads.iter_mut().enumerate() {
            let hunks = [&self.old_hunks, &self.new_hunks][side];
            for check in &self.checks[side] {
                let (Some(hunk), Some(line)) =
                    (hunk_of(hunks, check.line), lines[side].get(check.line))
                else {
                    continue;
                };
                reads.push(ChangedCheck {
                    hunk,
                    check: *check,
                    code: self.statement(side, line),
                });
            }
        }
        reads
    }

    /// The assertions matched in `tokens` (their token ranges), and whether one checks
    /// nothing ([`neuter::is_trivial`]).
    fn assertion_calls(&self, tokens: &[Token<'_>]) -> (Vec<Range<usize>>, bool) {
        let mut trivial = false;
        let mut calls = Vec::new();
        pattern::for_each_match(self.table.assertions, tokens, false, |start, end| {
            trivial |= neuter::is_trivial(self.table.language, tokens, start, end);
            calls.push(start..end);
        });
        (calls, trivial)
    }

    /// The names of a check's code, for [`Self::weakened_in_hunks`].
    fn check_names(&self, code: &[u8]) -> CheckNames {
        let mut tokens = Vec::new();
        pattern::tokenize(code, &mut tokens);
        rename_aliases(&self.context, &mut tokens);
        let (calls, trivial) = self.assertion_calls(&tokens);
        let owned = |words: Vec<&[u8]>| words.into_iter().map(<[u8]>::to_vec).collect();
        let value: Vec<&[u8]> = neuter::value_words(&tokens, &calls);
        let mut shape = Vec::new();
        for token in &tokens {
            match token {
                Token::Ident(word) if value.contains(word) => shape.push(1),
                Token::Ident(word) => {
                    shape.extend_from_slice(word);
                    shape.push(0);
                }
                Token::Punct(byte) => shape.push(*byte),
                Token::Str => shape.push(2),
            }
        }
        CheckNames {
            subject: owned(neuter::subject_words(&tokens, &calls)),
            value: owned(value),
            idents: tokens
                .iter()
                .filter_map(|token| match token {
                    Token::Ident(word) => Some(word.to_vec()),
                    _ => None,
                })
                .collect(),
            shape,
            trivial,
            kind_or_key: neuter::asks_kind_or_key(&tokens),
            vague: tokens.iter().enumerate().any(|(i, token)| match token {
                Token::Ident(word) => {
                    matches!(*word, b"object" | b"Object" | b"not")
                        || memchr::memmem::find(word, b"Not").is_some()
                }
                Token::Punct(b'!') => tokens.get(i + 1) != Some(&Token::Punct(b'=')),
                _ => false,
            }),
        }
    }

    /// The code of the whole statement that `line` of side `side` (0 old, 1 new) starts
    /// ([`continued`]; black's `assert (` goes on below), or the line's own code.
    fn statement(&self, side: usize, line: &[u8]) -> Vec<u8> {
        let mut code = Vec::new();
        let next = lex::strip_line(&self.table.syntax, State::Code, line, &mut code);
        let mut whole = Vec::new();
        match continued(self.table, self.sides[side], line, next, &code, &mut whole) {
            Some(statement) => statement.to_vec(),
            None => code,
        }
    }

    /// The added lines holding an existence check (or a check of nothing) that may stand in
    /// for an exact check the change removes, as (line, count), and the added lines (with
    /// their counts) that hold a removed check with its sense turned (`x is None` now `x is
    /// not None`, `assert not f.check()` now `assert f.check()`: the expectation changed,
    /// nothing weakened or removed) — the removed check in its place (in the same hunk, as
    /// many assertions before it there, or as many after it), each turning one, every check
    /// read as its whole statement. A
    /// stand-in is a check of nothing
    /// (`assert x == x`, `expect(1 + 1).to.equal(2)`) wherever it is; a presence check only
    /// of a value that a removed exact check of the file checked, every name it reads on
    /// one removed line (`assert rv.data` for `assert rv.data == b"Test"`, `hasattr(entry,
    /// "author")` for `assert entry.author == "jum"`). One of another value
    /// (`assert py.builtin._istext(e.out)` beside a removed `assert py.process.cmdexec ==
    /// …`) checks something new.
    fn in_place_of_exact_checks(
        &self,
        old_lines: &[&[u8]],
        new_lines: &[&[u8]],
    ) -> (LineCounts, LineCounts) {
        fn tokens_of(code: &[u8]) -> Vec<Token<'_>> {
            let mut tokens = Vec::new();
            pattern::tokenize(code, &mut tokens);
            tokens
        }
        let kept = || {
            self.checks[0]
                .iter()
                .filter(|check| check.exact > 0)
                .filter_map(|check| Some((check.line, *old_lines.get(check.line)?)))
        };
        let removed: Vec<Vec<u8>> = kept().map(|(_, line)| self.statement(0, line)).collect();
        let removed_tokens: Vec<Vec<Token<'_>>> =
            removed.iter().map(|code| tokens_of(code)).collect();
        // A removed check turned is the one in the added check's place among the hunk's
        // assertions, counted from the hunk's start or from its end (a line added or removed
        // around a flip moves it one way only), and it turns one.
        let old_places = places_in_hunks(&self.assertion_lines[0], &self.old_hunks);
        let new_places = places_in_hunks(&self.assertion_lines[1], &self.new_hunks);
        let (mut from_start, mut from_end) = (HashMap::new(), HashMap::new());
        for (i, (index, _)) in kept().enumerate() {
            if let Some(&(hunk, start, end)) = old_places.get(&index) {
                from_start.insert((hunk, start), i);
                from_end.insert((hunk, end), i);
            }
        }
        let senses: Vec<Vec<Token<'_>>> = removed_tokens.iter().map(|t| unnegated(t)).collect();
        let mut taken = vec![false; removed_tokens.len()];
        // Whether a subject's words are all on one removed exact check, once per subject.
        let mut on_a_removed_check: HashMap<Vec<Vec<u8>>, bool> = HashMap::new();
        let removed_code = std::cell::OnceCell::new();
        let (mut found, mut turned) = (Vec::new(), Vec::new());
        for added in self.added.iter().filter(|added| added.existence > 0) {
            let Some(line) = new_lines.get(added.line) else {
                continue;
            };
            let code = self.statement(1, line);
            let mut tokens = tokens_of(&code);
            rename_aliases(&self.context, &mut tokens);
            let (calls, trivial) = self.assertion_calls(&tokens);
            let subject = neuter::subject_words(&tokens, &calls);
            if let Some(&(hunk, start, end)) = new_places.get(&added.line) {
                let sense = unnegated(&tokens);
                let flip = [from_start.get(&(hunk, start)), from_end.get(&(hunk, end))]
                    .into_iter()
                    .flatten()
                    .copied()
                    .find(|&i| !taken[i] && senses[i] == sense);
                if let Some(i) = flip {
                    taken[i] = true;
                    turned.push((added.line, added.existence));
                    continue;
                }
            }
            let in_place = trivial
                || subject.is_empty()
                || (!self.rebound_anew(
                    [old_lines, new_lines],
                    &removed_code,
                    added.line,
                    &subject,
                ) && *on_a_removed_check
                    .entry(subject.iter().map(|word| word.to_vec()).collect())
                    .or_insert_with(|| {
                        removed_tokens.iter().any(|removed| {
                            subject
                                .iter()
                                .all(|word| removed.contains(&Token::Ident(word)))
                        })
                    }));
            if in_place {
                found.push((added.line, added.existence));
            }
        }
        (found, turned)
    }

    /// Across the file: whether the hunk of added line `line` binds a name of `subject` anew
    /// above it, to a
    /// value computed from a name that no removed line has (`result = run(p)` where `result
    /// = run("-h")` was removed with its exact check, pytest 2d8bcbdf5573): the check added
    /// below reads a new value and stands in for no removed check, which stays removed. A
    /// value of the removed lines' names (`r = add(1, 2)` for `assert add(1, 2) == 3`) may
    /// be the same. Hunk by hunk, a trade still weakens: `r = int(add(1, 2))` with `assert r
    /// is not None` in place of `assert r == 4` (attack-50 B3), whatever the file adds
    /// elsewhere.
    /// `removed` holds the removed lines' code without blanks once it is first needed, for
    /// every added check of the file.
    fn rebound_anew(
        &self,
        [old, new]: [&[&[u8]]; 2],
        removed: &std::cell::OnceCell<Vec<u8>>,
        line: usize,
        subject: &[&[u8]],
    ) -> bool {
        let Some(hunk) = hunk_of(&self.new_hunks, line).and_then(|at| self.new_hunks.get(at))
        else {
            return false;
        };
        let squeeze = |code: &[u8]| -> Vec<u8> {
            code.iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect()
        };
        for index in hunk.start..line {
            let Some(text) = new.get(index) else {
                break;
            };
            let code = squeeze(&self.statement(1, text));
            let Some((name, mut value)) = binding(&code) else {
                continue;
            };
            // `r = alias = f()` binds both to `f()`.
            while let Some((_, rest)) = binding(value) {
                value = rest;
            }
            if value.is_empty() || !subject.contains(&name) {
                continue;
            }
            let removed = removed.get_or_init(|| {
                let mut all = Vec::new();
                for range in &self.old_hunks {
                    for text in old.get(range.clone()).unwrap_or_default() {
                        all.extend(squeeze(&self.statement(0, text)));
                        all.push(b'\n');
                    }
                }
                all
            });
            // A name of the value that no removed line has: the value is another.
            let mut tokens = Vec::new();
            pattern::tokenize(value, &mut tokens);
            let anew = tokens.iter().any(|token| {
                matches!(token, Token::Ident(word)
                    if !word.first().is_some_and(u8::is_ascii_digit)
                        && !reads_word(removed, word, false))
            });
            if anew {
                return true;
            }
        }
        false
    }

    /// A Go `TestMain` that no longer calls `m.Run()` runs none of the package's tests: one
    /// test removed at least (the package's other files are not read here); one that calls
    /// it again gives it back.
    fn go_test_main(&mut self) {
        let [old, new] = self.sides.map(go_test_main);
        let stops = |side: Option<(usize, bool)>| side.is_some_and(|(_, runs)| !runs);
        let (side, line, kind, sign) = match (stops(old), stops(new), old, new) {
            (false, true, _, Some((line, _))) => (Side::New, line, FindingKind::TestDisabled, 1),
            (true, false, Some((line, _)), _) => (Side::Old, line, FindingKind::TestEnabled, -1),
            _ => return,
        };
        self.file.tests_removed += sign;
        self.touches_tests |= sign > 0;
        let text = self.sides[side_index(side)]
            .split(|&b| b == b'\n')
            .nth(line - 1)
            .unwrap_or_default();
        self.push(side, line - 1, text, kind, 1, false);
    }

    /// The added lines that hold `count` of something and the tests they apply to (see
    /// [`Self::forgive_new`]): (line, count, the lines of the tests, never none).
    fn attached(
        &self,
        (count, patterns): (impl Fn(&Added) -> u32, &'static [Pattern]),
        new_lines: &[&[u8]],
    ) -> Vec<(usize, u32, Vec<usize>)> {
        let added = &self.added;
        let at = |line: usize| {
            added
                .binary_search_by_key(&line, |added| added.line)
                .ok()
                .map(|i| added[i])
        };
        let trimmed_at = |line: usize| {
            new_lines
                .get(line)
                .map_or(&b""[..], |line| line.trim_ascii())
        };
        let mut found = Vec::new();
        for (i, mark) in added.iter().enumerate() {
            // A focus marker (`it.only`, `fit(`, `describe.only`) skips every other test:
            // it is never a new test's own.
            // Nor is a line that binds the module's markers (`pytestmark = …`, a walrus
            // `@(pytestmark := pytest.mark.skip)`): they apply to every test of the file.
            let binds = |line: usize| {
                let trimmed = trimmed_at(line);
                mentions(trimmed, "pytestmark") || memchr::memmem::find(trimmed, b":=").is_some()
            };
            let hunk = self
                .new_hunks
                .get(mark.hunk)
                .cloned()
                .unwrap_or(mark.line..mark.line + 1);
            // A class's own markers, `pytestmark = …` in a class the hunk adds: its tests.
            if count(mark) > 0
                && let Some(tests) = self.class_marked(mark, &hunk, new_lines)
            {
                found.push((mark.line, count(mark), tests));
                continue;
            }
            if count(mark) == 0 || focuses(trimmed_at(mark.line)) || binds(mark.line) {
                continue;
            }
            let same_hunk = |other: &Added| other.hunk == mark.hunk;
            // The attribute or decorator the line is (or is inside the brackets of, in its
            // hunk): where its run of attribute lines starts.
            let attribute = if mark.attribute {
                // Not a decorator that calls a skip as it runs, at import: in its arguments,
                // or as itself when it is pytest's function (`@pytest.skip(…)`; `@xfail(…)`
                // after `xfail = pytest.mark.xfail` is a marker).
                let line = trimmed_at(mark.line);
                let open = line.iter().position(|&b| b == b'(').unwrap_or(line.len());
                let (head, arguments) = line.split_at(open);
                let pytests = memchr::memmem::find(head, b"pytest.").is_some()
                    || memchr::memmem::find(head, b"py.test.").is_some();
                let calls = calls_a_skip(arguments.get(1..).unwrap_or_default())
                    || (pytests && calls_a_skip(line));
                (!calls).then_some(mark.line)
            } else {
                let mut depth = 0i64;
                let mut opened = None;
                for line in hunk.start..mark.line {
                    let trimmed = trimmed_at(line);
                    if depth <= 0 {
                        opened = (trimmed.starts_with(b"@") || trimmed.starts_with(b"#["))
                            .then_some(line);
                        depth = 0;
                    }
                    depth += pattern::open_brackets(trimmed);
                }
                // A marker object (`marks=pytest.mark.skip`), not a call that skips when
                // the decorator runs, at import: `pytest.skip(…, allow_module_level=True)`,
                // `pytest.importorskip(…)` skip the whole module.
                opened.filter(|&opened| {
                    depth > 0 && marks_only(trimmed_at(mark.line)) && !binds(opened)
                })
            };
            let own = |test: usize| {
                own_marks(
                    self.table,
                    &self.context,
                    new_lines,
                    (test, mark.line),
                    patterns,
                    mark.tests > 0,
                )
            };
            let tests: Vec<usize> = if mark.tests > 0 {
                own(mark.line).then_some(mark.line).into_iter().collect()
            } else if let Some(start) = attribute {
                let mut above = start;
                while let Some(line) = above.checked_sub(1).and_then(at)
                    && line.attribute
                    && same_hunk(&line)
                    && line.tests == 0
                {
                    above = line.line;
                }
                let test_above = above
                    .checked_sub(1)
                    .and_then(at)
                    .filter(|line| line.attribute && same_hunk(line) && line.tests > 0);
                // The item right below: only attributes, their bracketed arguments,
                // comments and blank lines up to the next test declared in the hunk; or a
                // class declared right below, and then every test below in the hunk.
                let mut class = false;
                let test_below = added[i + 1..]
                    .iter()
                    .take_while(|line| same_hunk(line))
                    .find(|line| line.tests > 0)
                    .filter(|test| {
                        let mut depth = 0i64;
                        (start..test.line).all(|line| {
                            let trimmed = trimmed_at(line);
                            let fits = line == start
                                || depth > 0
                                || trimmed.is_empty()
                                || trimmed.starts_with(b"@")
                                || trimmed.starts_with(b"#")
                                || trimmed.starts_with(b"//")
                                || trimmed.starts_with(b"/*")
                                || trimmed.starts_with(b"*");
                            let declares_class = !fits && !class && declares_a_class(trimmed);
                            class |= declares_class;
                            depth = (depth + pattern::open_brackets(trimmed)).max(0);
                            fits || declares_class
                        })
                    });
                match (test_above, test_below) {
                    (Some(test), _) => vec![test.line],
                    (None, Some(_)) if class => added[i + 1..]
                        .iter()
                        .take_while(|line| same_hunk(line))
                        .filter(|line| line.tests > 0)
                        .map(|line| line.line)
                        .collect(),
                    (None, Some(test)) => vec![test.line],
                    (None, None) => Vec::new(),
                }
            } else if let Some(test) = added[..i]
                .iter()
                .rev()
                .take_while(|line| same_hunk(line))
                .find(|line| line.tests > 0)
                // Inside the test's body only: not a `pytestmark = …` or a module-level
                // `pytest.skip(…)` below it, which skip every test of the file, nor in its
                // parameters or another argument of its call.
                .filter(|test| own(test.line))
            {
                vec![test.line]
            } else if self.table.language == Language::JavaScript {
                let syntax = &self.table.syntax;
                let suite = opens_a_suite(trimmed_at(mark.line)).then_some(mark.line);
                match suite {
                    // A suite skipped as it is declared (`(cond ? describe.skip :
                    // describe)('x', …)`): its tests.
                    Some(suite) => Self::suite_tests(syntax, added, i, suite, &hunk, new_lines),
                    None => Self::suite_hook_tests(syntax, added, i, &hunk, new_lines),
                }
            } else {
                Vec::new()
            };
            if !tests.is_empty() {
                found.push((mark.line, count(mark), tests));
            }
        }
        found
    }

    /// The tests of a Python class whose body holds the added line `mark`, when it binds the
    /// class's markers ([`class_marker`]) and the class is one `hunk` adds ([`class_tests`]).
    fn class_marked(
        &self,
        mark: &Added,
        hunk: &Range<usize>,
        new_lines: &[&[u8]],
    ) -> Option<Vec<usize>> {
        let line = new_lines.get(mark.line)?.trim_ascii();
        (self.table.language == Language::Python && class_marker(line))
            .then(|| class_tests(&self.added, mark.line, hunk, new_lines))
            .flatten()
    }

    /// The tests that the Mocha hook holding the added line `added[i]` applies to, when the
    /// hook (`before(function () { if (!esm) this.skip(); })`) is directly inside a suite
    /// that its hunk adds (`describe('esm', …)` added above it): the suite's tests, every
    /// one declared in the hunk. Else none: a hook put in a suite that ran, or at the top
    /// level (a root hook, for every file of the run), skips tests that ran.
    fn suite_hook_tests(
        syntax: &Syntax,
        added: &[Added],
        i: usize,
        hunk: &Range<usize>,
        new_lines: &[&[u8]],
    ) -> Vec<usize> {
        let mark = added[i];
        let line_at = |line: usize| new_lines.get(line).copied().unwrap_or_default();
        // The nearest line above at a lower indentation: the block the line is in.
        let opener = |line: usize| {
            let own = indentation(line_at(line));
            (hunk.start..line).rev().find(|&above| {
                let text = line_at(above);
                !text.trim_ascii().is_empty() && indentation(text) < own
            })
        };
        let starts = |line: usize, names: &[&[u8]]| {
            let trimmed = line_at(line).trim_ascii();
            names.iter().any(|name| trimmed.starts_with(name))
        };
        // Up through the conditions the line is under (`if (v6) { this.skip(); }`, mocha's
        // c91b3254dc08) to the hook.
        let mut hook = opener(mark.line);
        while let Some(block) = hook
            && starts(block, &[b"if (", b"if(", b"} else", b"else"])
        {
            hook = opener(block);
        }
        let Some(hook) =
            hook.filter(|&hook| starts(hook, &[b"before(", b"beforeEach(", b"beforeAll("]))
        else {
            return Vec::new();
        };
        let Some(suite) =
            opener(hook).filter(|&suite| starts(suite, &[b"describe(", b"context(", b"suite("]))
        else {
            return Vec::new();
        };
        // The hook is in the body of the suite's callback, and the line in the hook's: not
        // an argument of `describe(…)` that runs before the suite exists (a root hook).
        let in_braces = |from: usize, to: usize| {
            bracket_depths(syntax, new_lines, from)
                .get(to - from)
                .is_some_and(|&(_, braces)| braces >= 1)
        };
        if !in_braces(suite, hook) || !in_braces(hook, mark.line) {
            return Vec::new();
        }
        Self::suite_tests(syntax, added, i, suite, hunk, new_lines)
    }

    /// The tests of the suite declared on line `suite`, added in the hunk `hunk` with the
    /// added line `added[i]` (on or in it): every test declared in it, when the hunk adds it
    /// whole. Else none: it may hold tests that ran.
    fn suite_tests(
        syntax: &Syntax,
        added: &[Added],
        i: usize,
        suite: usize,
        hunk: &Range<usize>,
        new_lines: &[&[u8]],
    ) -> Vec<usize> {
        let mark = added[i];
        let line_at = |line: usize| new_lines.get(line).copied().unwrap_or_default();
        if !hunk.contains(&suite) {
            return Vec::new();
        }
        // The suite's lines: up to the one that closes the brackets its line opens, read
        // as code (brackets in strings and comments do not count).
        let depths = bracket_depths(syntax, new_lines, suite);
        let Some(end) = depths
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, (all, _))| *all <= 0)
            .map(|(offset, _)| suite + offset - 1)
            .filter(|&end| end > suite)
        else {
            return Vec::new();
        };
        // The line that closes it holds nothing else, and what of the suite the hunk does
        // not add only closes brackets (the diff may pair its last `});` with an older
        // one): else it may hold tests that ran.
        let only_closing = |line: usize| {
            line_at(line)
                .trim_ascii()
                .iter()
                .all(|b| matches!(b, b'}' | b')' | b']' | b';' | b','))
        };
        if !only_closing(end)
            || (hunk.end..=end).any(|line| !only_closing(line))
            || !body_closes_last(syntax, new_lines, suite, end)
            || defines_suite_functions(new_lines)
        {
            return Vec::new();
        }
        added[i + 1..]
            .iter()
            .take_while(|line| line.hunk == mark.hunk && line.line < end)
            .filter(|line| line.tests > 0)
            .map(|line| line.line)
            .collect()
    }

    /// The checks of an `if` / `elif` / `else` chain a side's changed lines take away (or
    /// bring) whole count as its largest branch's, not their sum: a run makes one branch's
    /// checks ([`branches`]). `if verbose: assert A` / `else: assert B` made `assert B`
    /// removes no check (pytest's 37fa0fb4d34e and ef732fc51d9d, ripgrep's 3d6a39be06aa,
    /// judged so); the same chain added counts one check added.
    fn alternatives_collapsed(&mut self) {
        if self.checks.iter().all(|checks| checks.len() < 2) {
            return;
        }
        let python = self.table.language == Language::Python;
        if self.table.language == Language::RunnerConfig {
            return;
        }
        for side in [Side::Old, Side::New] {
            let at = side_index(side);
            if self.checks[at].len() < 2 {
                continue;
            }
            let lines = split_lines(self.sides[at]);
            let hunks = [&self.old_hunks, &self.new_hunks][at];
            let chains = branches::changed_chains(
                &self.table.syntax,
                &lines,
                |line| hunk_of(hunks, line).is_some(),
                python,
            );
            let mut surplus: Vec<(usize, u32)> = Vec::new();
            let mut total = 0_i64;
            for chain in chains {
                // A check in a condition runs whichever branch is taken (attack-57 N1); one
                // after the header's `:` is the branch's body.
                if chain.iter().any(|branch| {
                    self.checks[at].iter().any(|check| {
                        check.line == branch.start && !branches::body_on_header(lines[branch.start])
                    })
                }) {
                    continue;
                }
                let in_branch = |branch: &Range<usize>| -> Vec<(usize, u32)> {
                    self.checks[at]
                        .iter()
                        .filter(|check| branch.contains(&check.line))
                        .map(|check| (check.line, check.exact + check.existence))
                        .collect()
                };
                let counts: Vec<Vec<(usize, u32)>> = chain.iter().map(in_branch).collect();
                let sums: Vec<u32> = counts
                    .iter()
                    .map(|lines| lines.iter().map(|(_, count)| count).sum())
                    .collect();
                if sums.iter().filter(|&&sum| sum > 0).count() < 2 {
                    continue;
                }
                let largest = (0..sums.len()).max_by_key(|&i| sums[i]).unwrap_or(0);
                for (i, lines) in counts.into_iter().enumerate() {
                    if i != largest {
                        total += i64::from(sums[i]);
                        surplus.extend(lines);
                    }
                }
            }
            if total == 0 {
                continue;
            }
            let kind = match side {
                Side::Old => FindingKind::AssertionRemoved,
                Side::New => FindingKind::AssertionAdded,
            };
            let taken = self.take_findings(kind, &surplus, total);
            self.file.assertions_removed += match side {
                Side::Old => -taken,
                Side::New => taken,
            };
        }
    }

    /// The first definition of a pytest hook (`def pytest_…`, at any indentation: a
    /// plugin class's method is a hook too; or a top-level binding of one; a name of
    /// pytest's hooks, [`python::is_hook_name`]) in the new side, else the old one, of a Python
    /// module outside the test paths. Such a module is a pytest plugin: its change is a test
    /// change whether or not the gate finds what registers it (a registration can be
    /// written in more ways than any reader follows: strings joined, `exec`, escapes).
    fn hook_definition(&self) -> Option<TestLine> {
        for side in [Side::New, Side::Old] {
            let text = self.sides[side_index(side)];
            if !self.defines_hooks[side_index(side)] {
                continue;
            }
            let mut state = State::Code;
            for (index, line) in split_lines(text).into_iter().enumerate() {
                let starts_in_code = state == State::Code;
                state = lex::advance(&self.table.syntax, state, line);
                // A definition, or a top-level binding (`pytest_runtest_call = _call`,
                // `pytest_plugins = […]`).
                let bound = line
                    .iter()
                    .position(|&b| !lex::is_ident_byte(b))
                    .map_or(line, |end| &line[..end]);
                if starts_in_code
                    && (python::is_hook_name(bound)
                        || defined_name(line.trim_ascii_start()).is_some_and(python::is_hook_name))
                {
                    return Some(TestLine {
                        side,
                        line: index + 1,
                        what: TestLineKind::PytestHook,
                        text: line_text(line),
                    });
                }
            }
        }
        None
    }

    /// A Python test removed whose body starts by skipping it (`pytest.skip("WIP")`,
    /// `self.skipTest(…)`, `raise unittest.SkipTest(…)` as its first statement, under no
    /// condition) never ran: removing it removes no test that ran, nor the checks below
    /// the skip (pytest's f098c2d353b5, judged so). The old side is read, so a skip the
    /// change itself puts there counts as a skip added.
    fn removed_tests_that_never_ran(&mut self) {
        const SKIPS: &[&[u8]] = &[
            b"pytest.skip(",
            b"py.test.skip(",
            b"self.skipTest(",
            b"raise unittest.SkipTest",
            b"raise SkipTest",
            b"raise pytest.skip.Exception",
        ];
        let old_lines = split_lines(self.sides[0]);
        let removed: Vec<(usize, u32)> = self
            .file
            .findings
            .iter()
            .filter(|finding| {
                finding.kind == FindingKind::TestRemoved
                    && finding.side == Side::Old
                    && !finding.unchanged
            })
            .filter_map(|finding| finding.line.checked_sub(1).map(|at| (at, finding.count)))
            .collect();
        let mut tests = Vec::new();
        let mut checks = Vec::new();
        for (index, count) in removed {
            let Some(&header) = old_lines.get(index) else {
                continue;
            };
            if defined_name(header.trim_ascii_start()).is_none() {
                continue;
            }
            let own = indentation(header);
            // The body: the lines below indented deeper, all of them removed.
            let mut body: Vec<usize> = (index + 1..old_lines.len())
                .take_while(|&at| {
                    old_lines[at].trim_ascii().is_empty() || indentation(old_lines[at]) > own
                })
                .collect();
            while body
                .last()
                .is_some_and(|&at| old_lines[at].trim_ascii().is_empty())
            {
                body.pop();
            }
            if body
                .iter()
                .any(|&at| hunk_of(&self.old_hunks, at).is_none())
            {
                continue;
            }
            // Its first statement, a docstring aside.
            let mut statements = body
                .iter()
                .map(|&at| old_lines[at].trim_ascii())
                .filter(|code| !code.is_empty() && !code.starts_with(b"#"));
            let mut first = statements.next();
            if let Some(doc) =
                first.filter(|code| code.starts_with(b"\"\"\"") || code.starts_with(b"'''"))
            {
                let quote = &doc[..3];
                if memchr::memmem::find(&doc[3..], quote).is_none() {
                    let _ = statements
                        .by_ref()
                        .find(|code| memchr::memmem::find(code, quote).is_some());
                }
                first = statements.next();
            }
            if !first.is_some_and(|code| SKIPS.iter().any(|skip| code.starts_with(skip))) {
                continue;
            }
            tests.push((index, count));
            checks.extend(body.iter().filter_map(|&at| {
                self.checks[0]
                    .iter()
                    .find(|check| check.line == at)
                    .map(|check| (at, check.exact + check.existence))
            }));
        }
        if tests.is_empty() {
            return;
        }
        let left = self.file.tests_removed;
        self.file.tests_removed -= self.take_findings(FindingKind::TestRemoved, &tests, left);
        let left = self.file.assertions_removed.max(0);
        self.file.assertions_removed -=
            self.take_findings(FindingKind::AssertionRemoved, &checks, left);
    }

    /// The first changed line of a Python or JavaScript test module outside the paths its
    /// runners collect by default (`checks/calc_checks.py` that a `python_files` setting
    /// collects, `checks/calc.checks.js` that a `.mocharc` `spec` names): the file declares
    /// tests, so any change to it is a change to tests, as one under `tests/` is, whether or
    /// not it counts anything (helper-67's attack-58 N1-N6, U1-U3, J1-J4: a check wrapped in
    /// `try`/`except`, a `failureException` swapped, counted nothing there and was allowed).
    fn test_module_elsewhere(&self) -> Option<TestLine> {
        if !outside_test_paths(self.table.language, &self.file.path) || !self.context.tests {
            return None;
        }
        let (side, line) = match (
            self.new_hunks.iter().find(|hunk| !hunk.is_empty()),
            self.old_hunks.iter().find(|hunk| !hunk.is_empty()),
        ) {
            (Some(hunk), _) => (Side::New, hunk.start),
            (None, Some(hunk)) => (Side::Old, hunk.start),
            (None, None) => return None,
        };
        let text = split_lines(self.sides[side_index(side)])
            .get(line)
            .map_or_else(String::new, |line| line_text(line));
        Some(TestLine {
            side,
            line: line + 1,
            what: TestLineKind::TestCode,
            text,
        })
    }

    /// Takes up to `left` of the counts of `lines` off the findings of `kind` on them;
    /// returns how many the findings gave up.
    fn take_findings(&mut self, kind: FindingKind, lines: &[(usize, u32)], left: i64) -> i64 {
        let total: i64 = lines.iter().map(|(_, count)| i64::from(*count)).sum();
        let asked = total.min(left);
        let mut left = asked;
        for (line, _) in lines {
            for finding in &mut self.file.findings {
                if left > 0
                    && finding.kind == kind
                    && !finding.unchanged
                    && finding.line == line + 1
                {
                    let take = i64::from(finding.count).min(left);
                    left -= take;
                    finding.count -= u32::try_from(take).unwrap_or(finding.count);
                }
            }
        }
        self.file
            .findings
            .retain(|finding| finding.kind != kind || finding.count > 0);
        // What the findings held, not what was asked for (a line may hold less).
        asked - left
    }

    fn classify(&mut self, side: Side, index: usize, line: &[u8], state: State) -> Line {
        let mark = self.mark(side, index);
        let place = self.place(side, index);
        classify(
            self.table,
            &self.context,
            self.sides[side_index(side)],
            state,
            line,
            &mut self.code,
            (mark, place),
        )
    }

    /// A changed line of a side that defines a pytest hook, when it is part of a hook: the
    /// hook's definition (its header, over as many lines as its brackets take) or a
    /// statement of its body, read by statements, not lines (a line at column 0 inside
    /// brackets, a string or after `\` belongs to the statement above it: attack-51 H1,
    /// H12, H14, H16). Not a blank or comment line, nor one of a docstring. In a conftest the
    /// line is the setting [`python::COLLECTION_HOOK`]; elsewhere it waits for the repository
    /// to say whether the module is a registered plugin ([`FileTamper::plugin_hooks`]).
    fn hook_line(
        &mut self,
        side: Side,
        index: usize,
        lines: &[&[u8]],
        state: State,
        found: &mut Line,
    ) {
        let at = side_index(side);
        let own = lines[index].trim_ascii();
        if own.is_empty() || (state == State::Code && own.starts_with(b"#")) {
            return;
        }
        let statements =
            self.statements[at].get_or_insert_with(|| python_statements(&self.table.syntax, lines));
        let Some(&start) = statements.starts.get(index) else {
            return;
        };
        // A statement of the module's top level that names a hook binds it however it is
        // written (a tuple, brackets, an annotation, `:=`, a `for` target, `import … as`,
        // `globals()["…"]`: attack-51 H2-H9). Not a call of the hook (`config.hook.…(`),
        // nor a method or a string in a function (pytester's plugin classes).
        let line = lines[index];
        let names_a_hook = state == State::Code
            && indentation(lines[start]) == 0
            && python::HOOKS
                .iter()
                .any(|hook| whole_words(line, hook).any(|at| at == 0 || line[at - 1] != b'.'));
        let hooked = if self.hooks == HookFile::Conftest {
            self.context.settings
                && (in_a_hook(lines, &statements.starts, index, self.context.hooks_ignored)
                    || (names_a_hook && !self.context.hooks_ignored))
        } else {
            statements.top_hook[index] || names_a_hook
        };
        if !hooked
            || self
                .statement(at, lines[start])
                .iter()
                .all(|&b| b.is_ascii_whitespace() || b == b'"')
        {
            return;
        }
        if self.hooks == HookFile::Conftest {
            if let Some(bit) = self
                .table
                .selectors
                .iter()
                .position(|(name, _)| *name == python::COLLECTION_HOOK)
            {
                found.selectors |= 1 << bit;
            }
        } else {
            self.file.plugin_hooks.push(Finding {
                path: self.file.path.clone(),
                line: index + 1,
                side,
                kind: FindingKind::TestConfigChanged,
                count: 1,
                unchanged: false,
                text: line_text(lines[index]),
            });
        }
    }

    /// What a changed line of a Python file holds beyond its own tokens, read from the lines
    /// around it: a changed line of a conftest hook's body (or a plugin module's, kept for
    /// the repository to judge), a skip that a `raises` block expects, an assertion method
    /// overridden by one that still checks.
    fn python_line(
        &mut self,
        side: Side,
        index: usize,
        lines: &[&[u8]],
        state: State,
        found: &mut Line,
    ) {
        if self.defines_hooks[side_index(side)]
            && found.selectors == 0
            && self.hooks != HookFile::TestModule
        {
            self.hook_line(side, index, lines, state, found);
        }
        if found.counts.skips > 0 && expects_a_skip(lines, index) {
            found.counts.skips = 0;
        }
        if found.counts.weakened > 0
            && lines[index].trim_ascii_start().starts_with(b"def ")
            && body_checks(lines, index)
        {
            // `def assertIn(self, x, y):` that still checks (a backport on an old Python):
            // no stand-in.
            found.counts.weakened -= 1;
        }
    }

    /// Records the removed (`Side::Old`) or added (`Side::New`) line `index` of `lines` that
    /// starts in `state`; returns the state the next line of its side starts in.
    fn changed(&mut self, side: Side, index: usize, lines: &[&[u8]], state: State) -> State {
        let line = lines[index];
        let mut found = self.classify(side, index, line, state);
        // A changed line in a Rust test item (`#[cfg(test)] mod tests { … }` of a `src/`
        // file) is a test change; the report names an added one rather than a removed one.
        let named = self
            .file
            .test_item_line
            .as_ref()
            .is_some_and(|at| at.side == Side::New || side == Side::Old);
        if self.rust_items
            && !named
            && !line.trim_ascii().is_empty()
            && let Some(what) = self.changes_rust_tests(side, lines, index)
        {
            self.file.test_item_line = Some(TestLine {
                side,
                line: index + 1,
                what,
                text: line_text(line),
            });
        }
        if found.swallows > 0 && swallows_a_check(lines, index) {
            found.counts.weakened += found.swallows;
        }
        if self.table.language == Language::Python {
            self.python_line(side, index, lines, state, &mut found);
        }
        if self.dead.is_none() {
            let trigger = found.trigger.or_else(|| {
                let exit = if found.exit {
                    Some(Trigger::Rest)
                } else {
                    neuter::opens_an_exit(line, lines.get(index + 1).copied())
                        .then_some(Trigger::RestAfterBlock)
                };
                exit.filter(|_| self.at_top_of_test(side, lines, index))
            });
            if let Some(trigger) = trigger {
                self.triggers.push(Found {
                    side,
                    line: index,
                    state,
                    trigger,
                });
            }
        } else if self.trigger_lines.contains(&(side_index(side), index)) {
            let kind = match side {
                Side::Old => FindingKind::DeadCodeRemoved,
                Side::New => FindingKind::DeadCodeAdded,
            };
            self.push(side, index, line, kind, 1, false);
        }
        if side == Side::New {
            let trimmed = line.trim_ascii_start();
            let attribute = trimmed.starts_with(b"@") || trimmed.starts_with(b"#[");
            let counts = found.counts.as_added();
            let existence = counts.existence;
            let exact = counts
                .assertions
                .saturating_sub(counts.weakened + existence);
            if attribute
                || counts.tests > 0
                || counts.skips > 0
                || counts.weakened > 0
                || existence > 0
                || exact > 0
            {
                self.added.push(Added {
                    line: index,
                    hunk: 0,
                    tests: counts.tests,
                    skips: counts.skips,
                    weakened: counts.weakened,
                    existence,
                    exact,
                    attribute,
                });
            }
        }
        self.record(side, index, line, found.counts, false);
        self.record_selectors(side, index, line, found.selectors);
        if let Some(name) = found.call {
            self.file.macro_calls.push(MacroCall {
                name,
                side,
                line: index + 1,
                text: line_text(line),
            });
        }
        found.next
    }

    /// Whether line `index` of the Rust side `side` (its `lines`) is test code.
    fn rust_test_line(&mut self, side: Side, lines: &[&[u8]], index: usize) -> bool {
        self.rust_test_bits(side, lines, index) & (blocks::TEST_CODE | blocks::DOCTEST) != 0
    }

    /// Whether the changed line `index` of the Rust side `side` changes a test, and what in:
    /// a doctest's line, a line of test code that is not only a comment, a module
    /// declaration removed or gated.
    fn changes_rust_tests(
        &mut self,
        side: Side,
        lines: &[&[u8]],
        index: usize,
    ) -> Option<TestLineKind> {
        let bits = self.rust_test_bits(side, lines, index);
        if bits & blocks::DOCTEST != 0 {
            return Some(TestLineKind::Doctest);
        }
        if bits & blocks::TEST_CODE != 0 && bits & blocks::CODE_LINE != 0 {
            return Some(TestLineKind::TestCode);
        }
        if bits & blocks::CODE_LINE == 0 || bits & (blocks::MODULE | blocks::MODULE_ATTRIBUTE) == 0
        {
            return None;
        }
        if side == Side::New {
            // An attribute put on (or changed on) a module the old side declares: its
            // tests may no longer build. A new module's attributes are not.
            if bits & blocks::MODULE_ATTRIBUTE == 0 {
                return None;
            }
            let (name, range) = self
                .rust_lines(side, lines)
                .modules
                .iter()
                .find(|(_, range)| range.contains(&index))
                .cloned()?;
            let text = |lines: &[&[u8]], range: Range<usize>| -> Vec<Vec<u8>> {
                lines
                    .get(range)
                    .unwrap_or_default()
                    .iter()
                    .map(|line| line.trim_ascii().to_vec())
                    .collect()
            };
            let new_text = text(lines, range);
            let old_lines = split_lines(self.sides[0]);
            let old_ranges: Vec<Range<usize>> = self
                .rust_lines_whole(Side::Old, &old_lines)
                .modules
                .iter()
                .filter(|(declared, _)| *declared == name)
                .map(|(_, range)| range.clone())
                .collect();
            // A declaration moved as it was is no change.
            let changed = !old_ranges.is_empty()
                && old_ranges
                    .into_iter()
                    .all(|range| text(&old_lines, range) != new_text);
            return changed.then_some(TestLineKind::ModuleDeclaration);
        }
        // On the old side, a module no longer declared is found by comparing the sides'
        // declarations ([`Analysis::dropped_modules`]): a declaration can go without its
        // line changing (wrapped in a string, a comment, a dead block).
        None
    }

    /// The [`blocks::RustLines`] bits of line `index` of the Rust side `side`.
    fn rust_test_bits(&mut self, side: Side, lines: &[&[u8]], index: usize) -> u8 {
        let slot = side_index(side);
        let ends = &self.hunk_ends[slot];
        let end = ends
            .get(ends.partition_point(|&end| end <= index))
            .map_or(index, |&end| end.max(index));
        self.limits[slot] = self.limits[slot].max(end);
        self.rust_lines(side, lines)
            .bits
            .get(index)
            .copied()
            .unwrap_or(0)
    }

    /// What [`blocks::SideWalk`] finds in the Rust side `side` (its `lines`). The
    /// side walked second goes on from the first one's walk of the lines both start with.
    fn rust_lines(&mut self, side: Side, lines: &[&[u8]]) -> &blocks::RustLines {
        let slot = side_index(side);
        let limit = self.limits[slot];
        let syntax = &self.table.syntax;
        let (mut walk, found) = if let Some(walked) = self.rust_tests[slot].take() {
            walked
        } else {
            let mut walk = blocks::SideWalk::new(self.table.tests, self.sides[slot]);
            // The walk of the common lines is this side's when it reads them all.
            let common = self.common;
            if walk.reads() && common <= lines.len() && common <= limit.saturating_add(1) {
                if let Some(prefix) = &self.rust_prefix {
                    walk = prefix.clone();
                } else {
                    walk.read_to(syntax, lines, common);
                    self.rust_prefix = Some(walk.clone());
                }
            }
            walk.read(syntax, lines, limit);
            let found = walk.found(lines.len());
            (walk, found)
        };
        // A walk that stopped before a limit raised since reads on.
        let found = if !found.complete && walk.lines_read() <= limit {
            walk.read(syntax, lines, limit);
            walk.found(lines.len())
        } else {
            found
        };
        &self.rust_tests[slot].insert((walk, found)).1
    }

    /// [`Analysis::rust_lines`] of the whole side (the module declarations of the other
    /// side are compared with all of this one's): a walk that stopped reads on.
    fn rust_lines_whole(&mut self, side: Side, lines: &[&[u8]]) -> &blocks::RustLines {
        self.limits[side_index(side)] = usize::MAX;
        self.rust_lines(side, lines)
    }

    /// [`Analysis::rust_lines`] read on until the side declares every module of `names` out
    /// of line, or to its end: a module no longer declared is one of `names` the side does
    /// not declare.
    fn rust_lines_declaring(
        &mut self,
        side: Side,
        lines: &[&[u8]],
        names: &[&[u8]],
    ) -> &blocks::RustLines {
        self.rust_lines(side, lines);
        let slot = side_index(side);
        let Some((mut walk, found)) = self.rust_tests[slot].take() else {
            // Cannot happen (walked above): the whole side is walked.
            return self.rust_lines_whole(side, lines);
        };
        let found = if found.complete {
            found
        } else {
            walk.read_until_declared(&self.table.syntax, lines, names);
            walk.found(lines.len())
        };
        &self.rust_tests[slot].insert((walk, found)).1
    }

    /// Whether line `index` of `lines` is the first of a test body: the line above opens a
    /// block (ends in `{` or `:`) and it or one of the two code lines above it declares a
    /// test.
    fn at_top_of_test(&mut self, side: Side, lines: &[&[u8]], index: usize) -> bool {
        let mut seen = 0;
        for i in (0..index).rev() {
            let line = lines[i];
            if line.trim_ascii().is_empty() {
                continue;
            }
            let place = self.place(side, i);
            let found = classify(
                self.table,
                &self.context,
                self.sides[side_index(side)],
                State::Code,
                line,
                &mut self.code,
                (Mark::Live, place),
            );
            // A comment or a docstring between the test's head and the line hides nothing
            // (attack-43 B22).
            if self
                .code
                .iter()
                .all(|&b| b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b';'))
            {
                continue;
            }
            if seen == 0 && !matches!(self.code.trim_ascii_end().last(), Some(b'{' | b':')) {
                return false;
            }
            if found.counts.tests > 0 {
                return true;
            }
            seen += 1;
            if seen == 3 {
                return false;
            }
        }
        false
    }

    /// Records an unchanged line that starts in a different lexer state on each side, or is
    /// dead on one side only: what it held before and no longer holds counts as removed, and
    /// the reverse as added. Returns the states the next line starts in on each side.
    fn reclassified(
        &mut self,
        old: usize,
        line: &[u8],
        old_state: State,
        new: usize,
        new_state: State,
    ) -> (State, State) {
        let before = self.classify(Side::Old, old, line, old_state);
        let after = self.classify(Side::New, new, line, new_state);
        self.record(
            Side::Old,
            old,
            line,
            before.counts.beyond(after.counts),
            true,
        );
        self.record(
            Side::New,
            new,
            line,
            after.counts.beyond(before.counts),
            true,
        );
        (before.next, after.next)
    }

    fn push(
        &mut self,
        side: Side,
        index: usize,
        line: &[u8],
        kind: FindingKind,
        count: u32,
        unchanged: bool,
    ) {
        self.file.findings.push(Finding {
            path: self.file.path.clone(),
            line: index + 1,
            side,
            kind,
            count,
            unchanged,
            text: line_text(line),
        });
    }

    fn record(&mut self, side: Side, index: usize, line: &[u8], counts: Counts, unchanged: bool) {
        if counts.is_empty() {
            return;
        }
        // A comparison with `True` by equality the change adds is an exact check (it stands
        // in for no exact check); one it removes, a check of truthiness (flake8's E712 makes
        // it a bare `assert x`): [`neuter::is_boolean_check`]. By identity (`is True`) it is
        // exact on both sides ([`neuter::is_existence`] does not take it).
        let counts = match side {
            Side::New => counts.as_added(),
            Side::Old => counts,
        };
        let kinds = match side {
            Side::Old => [
                FindingKind::TestRemoved,
                FindingKind::SkipRemoved,
                FindingKind::AssertionRemoved,
                FindingKind::TestEnabled,
                FindingKind::WeakAssertionRemoved,
            ],
            Side::New => [
                FindingKind::TestAdded,
                FindingKind::SkipAdded,
                FindingKind::AssertionAdded,
                FindingKind::TestDisabled,
                FindingKind::AssertionWeakened,
            ],
        };
        // Removals count up for tests and assertions; additions count up for skips,
        // disabled tests and weakened assertions.
        let sign: i64 = match side {
            Side::Old => 1,
            Side::New => -1,
        };
        let file = &mut self.file;
        file.tests_removed += sign * (i64::from(counts.tests) - i64::from(counts.disables));
        file.assertions_removed += sign * i64::from(counts.assertions);
        file.test_skips_added -= sign * i64::from(counts.skips);
        file.assertions_weakened -= sign * i64::from(counts.weakened);
        self.existence_added -= sign * i64::from(counts.existence);
        let exact = counts
            .assertions
            .saturating_sub(counts.weakened + counts.existence);
        if exact > 0 || counts.existence > 0 {
            self.checks[side_index(side)].push(Check {
                line: index,
                exact,
                existence: counts.existence,
            });
        }
        if counts.assertions > 0 {
            self.assertion_lines[side_index(side)].push(index);
        }
        self.exact_removed +=
            sign * (i64::from(counts.assertions) - i64::from(counts.weakened + counts.existence));
        self.touches_tests |= match side {
            Side::Old => counts.tests > 0,
            Side::New => counts.skips > 0 || counts.disables > 0 || counts.weakened > 0,
        };
        for (kind, count) in kinds.into_iter().zip([
            counts.tests,
            counts.skips,
            counts.assertions,
            counts.disables,
            counts.weakened,
        ]) {
            if count > 0 {
                self.push(side, index, line, kind, count, unchanged);
            }
        }
    }

    /// Records the runner settings a changed line touches.
    fn record_selectors(&mut self, side: Side, index: usize, line: &[u8], selectors: u32) {
        if selectors == 0 {
            return;
        }
        let names = self
            .table
            .selectors
            .iter()
            .enumerate()
            .filter(|&(i, _)| selectors & (1 << i) != 0)
            .map(|(_, (name, _))| *name)
            .chain((selectors & GO_BUILD != 0).then_some(GO_BUILD_KEY));
        let mut touched = false;
        for name in names {
            touched = true;
            if !self
                .file
                .test_config_changed
                .iter()
                .any(|known| known == name)
            {
                self.file.test_config_changed.push(name.to_owned());
            }
        }
        if touched {
            self.push(side, index, line, FindingKind::TestConfigChanged, 1, false);
        }
    }

    /// The modules the old side declares (in code some build compiles) and the new side
    /// does not, whatever lines changed: [`combine`] decides whether their files went too.
    /// Only an old side with something written like `mod name;` is walked whole for it.
    fn dropped_modules(&mut self) {
        if !declares_modules(self.sides[0]) {
            return;
        }
        let old_lines = split_lines(self.sides[0]);
        let new_lines = split_lines(self.sides[1]);
        let old = self.rust_lines_whole(Side::Old, &old_lines).modules.clone();
        if old.is_empty() {
            return;
        }
        let names: Vec<&[u8]> = old.iter().map(|(name, _)| name.as_slice()).collect();
        let new = &self
            .rust_lines_declaring(Side::New, &new_lines, &names)
            .modules;
        let dropped: Vec<(Vec<u8>, usize)> = old
            .into_iter()
            .filter(|(name, _)| !new.iter().any(|(declared, _)| declared == name))
            .map(|(name, lines)| (name, lines.start))
            .collect();
        for (name, line) in dropped {
            let name = String::from_utf8_lossy(&name).into_owned();
            if self
                .file
                .dropped_modules
                .iter()
                .any(|(known, _)| *known == name)
            {
                continue;
            }
            let text = line_text(old_lines.get(line).copied().unwrap_or_default());
            self.file.dropped_modules.push((
                name,
                TestLine {
                    side: Side::Old,
                    line: line + 1,
                    what: TestLineKind::ModuleDeclaration,
                    text,
                },
            ));
        }
    }

    /// The `JUnit` 3 tests of the old side (`public void testXxx()` in a class that
    /// extends a `TestCase`) that the new side keeps, read whole rather than line by line:
    /// one whose class no longer extends a `TestCase` stops running while its lines stay
    /// (a test disabled), unless a `@Test` annotation now stands above it; and a `@Test`
    /// added above one of them is no test added (`JUnit` 3 ran it already).
    fn junit3_tests_kept(&mut self, sides: &jvm::Junit3Sides) {
        let junit3_name = |code: &[u8]| -> Option<Vec<u8>> {
            let mut tokens = Vec::new();
            pattern::tokenize(code, &mut tokens);
            jvm::junit3_test(&tokens).map(<[u8]>::to_vec)
        };
        // Whether the run of annotation lines right above line `index` holds the test
        // runner's own `@Test`: JUnit's or TestNG's, imported or written out (a file's
        // own `@interface Test` runs nothing, attack-47 BJ3).
        let imports_a_runner = |side: &[u8]| {
            let runners = [
                &b"import org.junit"[..],
                b"import static org.junit",
                b"import org.testng",
            ];
            runners
                .iter()
                .any(|runner| memchr::memmem::find(side, runner).is_some())
                && memchr::memmem::find(side, b"@interface Test").is_none()
        };
        let imported = [
            imports_a_runner(self.sides[0]),
            imports_a_runner(self.sides[1]),
        ];
        let annotated = |side: usize, code: &[Vec<u8>], index: usize, real: bool| {
            let imported = imported[side];
            code[..index]
                .iter()
                .rev()
                .map(|code| code.trim_ascii())
                .take_while(|code| code.is_empty() || code.starts_with(b"@"))
                .any(|code| {
                    let mut tokens = Vec::new();
                    pattern::tokenize(code, &mut tokens);
                    let qualified = memchr::memmem::find(code, b"org.junit").is_some()
                        || memchr::memmem::find(code, b"org.testng").is_some();
                    pattern::count(self.table.tests, &tokens, false) > 0
                        && (!real || imported || qualified)
                })
        };
        let ([old_code, new_code], [old_classes, new_classes]) = (&sides.code, &sides.classes);
        let old: HashMap<Vec<u8>, bool> = old_code
            .iter()
            .enumerate()
            .filter(|(index, _)| old_classes.get(*index) == Some(&true))
            .filter_map(|(index, code)| {
                Some((junit3_name(code)?, annotated(0, old_code, index, false)))
            })
            .collect();
        if old.is_empty() {
            return;
        }
        let new_lines = split_lines(self.sides[1]);
        let (mut disabled, mut kept) = (0i64, 0i64);
        for (index, code) in new_code.iter().enumerate() {
            let Some(name) = junit3_name(code) else {
                continue;
            };
            let Some(&was_annotated) = old.get(&name) else {
                continue;
            };
            // A `@Test` written above it, whatever it is, was counted as a test added.
            let marked = annotated(1, new_code, index, false);
            let runs = new_classes.get(index) == Some(&true) || annotated(1, new_code, index, true);
            if marked && !was_annotated {
                kept += 1;
            }
            if !runs {
                disabled += 1;
                let line = new_lines.get(index).copied().unwrap_or_default();
                self.push(Side::New, index, line, FindingKind::TestDisabled, 1, true);
            }
        }
        if disabled + kept > 0 {
            self.file.tests_removed += disabled + kept;
            self.touches_tests = true;
        }
    }

    fn finish(mut self) -> FileTamper {
        if self.table.language == Language::Go && self.context.tests {
            self.go_test_main();
        }
        if self.table.language == Language::Python && self.file.assertions_removed > 0 {
            self.asserts_dropped_from_line_matchers();
        }
        self.alternatives_collapsed();
        self.exact_checks_weakened();
        // The disablings a skip replaced are paired first: a test switched on counts as
        // one added until then, which must not make up for a test renamed and skipped.
        if self.table.language == Language::Python {
            self.guards_made_skipif();
        }
        self.forgive_new();
        self.old_tests_disabled();
        if self.table.language == Language::Python && self.file.tests_removed > 0 {
            self.removed_tests_that_never_ran();
        }
        if self.rust_items {
            self.dropped_modules();
        }
        if let Some(sides) = self.context.junit3.take() {
            self.junit3_tests_kept(&sides);
        }
        if self.file.harness == Some(Harness::PytestPlugin) && self.file.test_item_line.is_none() {
            self.file.test_item_line = self.hook_definition();
        }
        if self.file.test_item_line.is_none() {
            self.file.test_item_line = self.test_module_elsewhere();
        }
        self.file.removes_or_skips_tests = self.touches_tests
            || self.file.test_item_line.is_some()
            || !self.file.test_config_changed.is_empty();
        self.file
    }
}

/// Whether the swallower on line `index` of `lines` catches a failing check: the code it
/// wraps (the rest of its line after the failure's name, and the lines below indented
/// deeper; for Python's `except AssertionError:`, the `try:` block above) asserts, and (for
/// `except`) its handler does not check again, raise or fail. `pytest.raises(AssertionError)`
/// around a library call that asserts, gson's `assertThrows(AssertionError.class, () ->
/// gson.toJson(x))`, and flask's `try: … except AssertionError: self.assert_equal(…)` (one
/// check or the other) swallow nothing.
fn swallows_a_check(lines: &[&[u8]], index: usize) -> bool {
    let asserts = |line: &[u8]| memchr::memmem::find(line, b"assert").is_some();
    let Some(&line) = lines.get(index) else {
        return false;
    };
    let own = indentation(line);
    let block = || {
        lines
            .iter()
            .skip(index + 1)
            .take(40)
            .take_while(|line| line.trim_ascii().is_empty() || indentation(line) > own)
    };
    if line.trim_ascii_start().starts_with(b"except") {
        let checks_again = block().any(|line| {
            asserts(line)
                || memchr::memmem::find(line, b"raise").is_some()
                || memchr::memmem::find(line, b"fail").is_some()
        });
        if checks_again {
            return false;
        }
        // `try: assert False` / `except AssertionError:` asks whether assertions run
        // (`python -O`), not whether the code is right (pytest's a98e3cefc5b5).
        let probes = |line: &[u8]| {
            let code = line.trim_ascii();
            let condition = code.strip_prefix(b"assert").map(<[u8]>::trim_ascii);
            condition.is_some_and(|condition| {
                let condition = condition.split(|&b| b == b',').next().unwrap_or(condition);
                matches!(condition.trim_ascii(), b"False" | b"0")
            })
        };
        return lines[..index]
            .iter()
            .rev()
            .take(40)
            .take_while(|line| {
                let trimmed = line.trim_ascii_start();
                !(indentation(line) == own && trimmed.starts_with(b"try"))
            })
            .any(|line| asserts(line) && !probes(line));
    }
    let rest = [
        "AssertionError",
        "AssertionFailedError",
        "ComparisonFailure",
        "Throwable",
        "catch_unwind",
    ]
    .iter()
    .find_map(|name| {
        memchr::memmem::rfind(line, name.as_bytes()).map(|at| &line[at + name.len()..])
    })
    .unwrap_or_default();
    asserts(rest) || block().any(|line| asserts(line))
}

/// Whether `code` reads `name` as a whole word (with `attribute`, only as `name.…`).
fn reads_word(code: &[u8], name: &[u8], attribute: bool) -> bool {
    memchr::memmem::find_iter(code, name).any(|at| {
        let before = at.checked_sub(1).and_then(|i| code.get(i));
        let after = code.get(at + name.len());
        !before.is_some_and(|&b| lex::is_ident_byte(b) || b == b'.')
            && if attribute {
                after == Some(&b'.')
            } else {
                !after.is_some_and(|&b| lex::is_ident_byte(b))
            }
    })
}

/// The name a Python `def` (or `async def`) on `code`, a line trimmed at its start,
/// defines, whatever blanks separate the words (`def\tpytest_collection_modifyitems(`).
fn defined_name(code: &[u8]) -> Option<&[u8]> {
    let word = |text: &[u8], keyword: &[u8]| -> Option<usize> {
        let rest = text.strip_prefix(keyword)?;
        let blanks = rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        (blanks > 0).then_some(keyword.len() + blanks)
    };
    let code = word(code, b"async").map_or(code, |at| &code[at..]);
    let rest = &code[word(code, b"def")?..];
    Some(
        rest.split(|&b| b == b'(')
            .next()
            .unwrap_or(rest)
            .trim_ascii(),
    )
}

/// What the pytest hooks a Python file defines are to the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HookFile {
    /// A `conftest.py`: pytest registers every hook it defines.
    Conftest,
    /// A module not named for tests (`tools/sel.py`, `tests/plugin.py`): its module-level
    /// hooks are the run's where the repository registers it as a plugin
    /// ([`FileTamper::plugin_hooks`]).
    Plugin,
    /// A test module (`test_*.py`): the hooks it defines at its top level count by their
    /// `def` line, those of its classes not at all ([`selectors`]).
    TestModule,
}

impl HookFile {
    fn of(path: &str) -> Self {
        if path.rsplit('/').next() == Some("conftest.py") {
            Self::Conftest
        } else if context::python_test_path(path) {
            Self::TestModule
        } else {
            Self::Plugin
        }
    }
}

/// How a Python side's lines make statements ([`python_statements`]).
#[derive(Debug)]
struct Statements {
    /// For each line, the line its statement starts on.
    starts: Vec<usize>,
    /// For each line, whether it is part of a hook of [`python::HOOKS`] defined at the
    /// module's top level: its header or its body, nested blocks and functions included.
    top_hook: Vec<bool>,
}

/// How a Python side's `lines` make statements: a line inside brackets or a string opened
/// above, or after a line ending in `\`, belongs to the statement above. A `def`, `class`
/// or decorator at column 0 starts one whatever came before (Python allows none inside
/// brackets), so that a bracket the lexer misreads cannot join a hook to the statement
/// above it. One pass of the lexer over the side.
fn python_statements(syntax: &Syntax, lines: &[&[u8]]) -> Statements {
    let mut starts: Vec<usize> = Vec::with_capacity(lines.len());
    let mut top_hook = Vec::with_capacity(lines.len());
    let (mut state, mut depth, mut backslash) = (State::Code, 0_i64, false);
    let mut in_hook = false;
    let mut code = Vec::new();
    for (i, &line) in lines.iter().enumerate() {
        let name = defined_name(line);
        if name.is_some() || line.starts_with(b"class ") || line.starts_with(b"@") {
            (state, depth, backslash) = (State::Code, 0, false);
        }
        let continues = state != State::Code || depth > 0 || backslash;
        starts.push(match starts.last() {
            Some(&above) if continues => above,
            _ => i,
        });
        code.clear();
        state = lex::strip_line(syntax, state, line, &mut code);
        if !continues && indentation(line) == 0 && !code.trim_ascii().is_empty() {
            in_hook =
                name.is_some_and(|name| python::HOOKS.iter().any(|hook| hook.as_bytes() == name));
        }
        top_hook.push(in_hook);
        depth = (depth + pattern::open_brackets(&code)).max(0);
        backslash = code.trim_ascii_end().ends_with(b"\\");
    }
    Statements { starts, top_hook }
}

/// Whether line `index` of `lines` is part of one of pytest's hooks that decide what runs
/// ([`python::HOOKS`]): a statement of its body (`items[:] = []` or `del items[:]` in
/// `pytest_collection_modifyitems` deselects every test as `items.clear()` does) or its
/// header. Statements, not lines, are read ([`python_statements`] gives each line's
/// `starts`): the enclosing definitions are found by the indentation of the statements
/// above (a nested function or block of the hook is its body too). With
/// `methods_ignored` (a test module), a hook defined indented, a plugin's method handed to
/// `pytester`, configures no run.
fn in_a_hook(lines: &[&[u8]], starts: &[usize], index: usize, methods_ignored: bool) -> bool {
    let Some(&start) = starts.get(index) else {
        return false;
    };
    let Some(&first) = lines.get(start) else {
        return false;
    };
    let hook = |code: &[u8]| {
        defined_name(code)
            .is_some_and(|name| python::HOOKS.iter().any(|hook| hook.as_bytes() == name))
    };
    let code = first.trim_ascii();
    if code.is_empty() || code.starts_with(b"#") {
        return false;
    }
    let mut own = indentation(first);
    if start < index && hook(code) {
        // A line of the hook's header below its `def` (a default argument).
        return !(methods_ignored && own > 0);
    }
    for above in (0..start).rev().take(400) {
        if starts.get(above) != Some(&above) {
            continue;
        }
        let line = lines[above];
        let code = line.trim_ascii();
        if own == 0 {
            return false;
        }
        if code.is_empty() || code.starts_with(b"#") || indentation(line) >= own {
            continue;
        }
        own = indentation(line);
        if hook(code) {
            return !(methods_ignored && own > 0);
        }
    }
    false
}

/// Whether line `index` of `lines` is in the block of a `with` that expects a skip
/// (`with pytest.raises(pytest.skip.Exception):`, `with self.assertRaises(SkipTest):`):
/// the skip is the subject of the test, which fails if it does not skip (pytest
/// 1bba0a971465). The skip is the block's only statement. Not `importorskip`, which skips
/// only where a module is missing: it is counted on both sides, so that the same call moved
/// from `raises(pytest.skip.Exception)` to `raises(ImportError)` (pytest's 10929dcd8ac8)
/// nets out.
fn expects_a_skip(lines: &[&[u8]], index: usize) -> bool {
    let Some(&line) = lines.get(index) else {
        return false;
    };
    if memchr::memmem::find(line, b"importorskip").is_some() {
        return false;
    }
    let own = indentation(line);
    let Some(&opener) = lines[..index]
        .iter()
        .rev()
        .take(3)
        .find(|line| !line.trim_ascii().is_empty())
    else {
        return false;
    };
    let code = opener.trim_ascii();
    let last_of_block = lines
        .iter()
        .skip(index + 1)
        .find(|line| !line.trim_ascii().is_empty())
        .is_none_or(|next| indentation(next) < own);
    indentation(opener) < own && last_of_block && expects_skip_exception(code, line.trim_ascii())
}

/// Whether `code` is `with pytest.raises(pytest.skip.Exception)[ as e]:` and `skip` is
/// `pytest.skip(…)`, or `code` is `with self.assertRaises(unittest.SkipTest)[ as e]:` and
/// `skip` is `self.skipTest(…)`: the exception caught is the one that call raises, written
/// out in full. Any other exception, however named (`raises(unittest.SkipTest)` around
/// `pytest.skip`, an alias `Skipped`, `fake.skip.Exception`: attack-51 S1-S6), another
/// argument (`match=`), context manager or conditional (attack-50 B4a-c) lets the skip
/// through.
fn expects_skip_exception(code: &[u8], skip: &[u8]) -> bool {
    let pairs: [(&[u8], &[u8]); 2] = [
        (
            b"with pytest.raises(pytest.skip.Exception)",
            b"pytest.skip(",
        ),
        (
            b"with self.assertRaises(unittest.SkipTest)",
            b"self.skipTest(",
        ),
    ];
    pairs.iter().any(|(opener, call)| {
        skip.starts_with(call)
            && code.strip_prefix(*opener).is_some_and(|rest| {
                let rest = rest.trim_ascii();
                rest == b":"
                    || rest
                        .strip_prefix(b"as ")
                        .and_then(|name| name.strip_suffix(b":"))
                        .map(<[u8]>::trim_ascii)
                        .is_some_and(|name| {
                            !name.is_empty() && name.iter().all(|&b| lex::is_ident_byte(b))
                        })
            })
    })
}

/// A Go `func TestMain(m *testing.M)` in `text`: its 1-based line, and whether its body
/// calls `m.Run()` (without it, `go test` runs none of the package's tests and passes).
fn go_test_main(text: &[u8]) -> Option<(usize, bool)> {
    let at = memchr::memmem::find(text, b"func TestMain(")?;
    let line = 1 + memchr::memchr_iter(b'\n', &text[..at]).count();
    let body = &text[at..];
    // gofmt closes a top-level function with `}` alone at the start of a line.
    let end = memchr::memmem::find(body, b"\n}").map_or(body.len(), |end| end + 2);
    let runs = memchr::memmem::find(&body[..end], b".Run()").is_some();
    Some((line, runs))
}

/// Whether the body of the Python `def` on line `index` of `lines` (the lines below it
/// indented deeper, up to 40) still checks something: it asserts, raises or fails, or calls
/// the method it overrides (`super(`).
fn body_checks(lines: &[&[u8]], index: usize) -> bool {
    let Some(own) = lines.get(index).map(|line| indentation(line)) else {
        return false;
    };
    lines
        .iter()
        .skip(index + 1)
        .take(40)
        .take_while(|line| line.trim_ascii().is_empty() || indentation(line) > own)
        .any(|line| {
            [&b"assert"[..], b"raise", b"fail", b"super("]
                .iter()
                .any(|word| memchr::memmem::find(line, word).is_some())
        })
}

/// A line for a finding: trimmed, cut to [`MAX_TEXT_CHARS`] characters.
fn line_text(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// Declares one test per case: `name: path, old => new, [tests_removed, test_skips_added,
/// assertions_removed];` analyses the change and checks the three per-file nets.
#[cfg(test)]
macro_rules! tamper_cases {
    ($($name:ident: $path:expr, $old:expr => $new:expr, [$tests:expr, $skips:expr, $asserts:expr];)*) => {
        $(
            #[test]
            fn $name() {
                let file = crate::tamper::analyze_file(
                    $path,
                    Some($old.as_bytes()),
                    Some($new.as_bytes()),
                )
                .expect("a known language");
                assert_eq!(
                    (file.tests_removed, file.test_skips_added, file.assertions_removed),
                    ($tests, $skips, $asserts),
                    "{file:#?}"
                );
            }
        )*
    };
}
#[cfg(test)]
use tamper_cases;

#[cfg(test)]
mod tests {
    #[test]
    fn text_that_declares_modules() {
        for side in [
            "mod parse;\n",
            "pub(crate) mod r#type ;",
            "#[cfg(x)] mod a;",
        ] {
            assert!(declares_modules(side.as_bytes()), "{side}");
        }
        for side in ["mod tests {\n}\n", "fn model();", "let mode = 1;", "mod;"] {
            assert!(!declares_modules(side.as_bytes()), "{side}");
        }
    }

    #[test]
    fn crate_roots() {
        for path in [
            "src/lib.rs",
            "crates/x/src/main.rs",
            "build.rs",
            "src/bin/tool.rs",
            "src/bin/tool/main.rs",
        ] {
            assert!(is_crate_root(path), "{path}");
        }
        for path in [
            "src/core.rs",
            "examples/tool.rs",
            "src/bin/tool/cli.rs",
            "tools/main.rs",
        ] {
            assert!(!is_crate_root(path), "{path}");
        }
    }

    use super::*;

    /// The first-token filter of pattern lists finds exactly what trying every pattern at
    /// every token finds, for every list of every language, on lines of every language.
    #[test]
    fn pattern_lists_match_as_the_plain_scan_does() {
        fn plain(
            patterns: &[pattern::Pattern],
            tokens: &[Token<'_>],
            declares_test: bool,
        ) -> Vec<(usize, usize)> {
            let mut found = Vec::new();
            let mut i = 0;
            'tokens: while i < tokens.len() {
                for pattern in patterns {
                    if (pattern.with_test && !declares_test) || (pattern.at_start && i > 0) {
                        continue;
                    }
                    if let Some(end) = pattern.seq_match(tokens, i) {
                        found.push((i, end));
                        i = end.max(i + 1);
                        continue 'tokens;
                    }
                }
                i += 1;
            }
            found
        }
        let lines = [
            "#[test] fn it_works() { assert_eq!(add(1, 2), 3); }",
            "#[cfg_attr(all(), ignore)] #[should_panic] macro_rules! assert_eq { () => {} }",
            "    debug_assert!(x == x); assert!(true); use std::assert_ne as assert_eq;",
            "@pytest.mark.skip(reason=\"x\") def test_x(self): self.assertTrue(True)",
            "from pytest import mark as m; @m.skipif(True); pytest.skip(); assert (x == 1, 'm')",
            "describe.skip('a', () => { it.only('b', () => expect(true).toBe(true)); });",
            "test('x', { skip: true }, () => {}); xit('y'); const d = describe['sk' + 'ip'];",
            "func TestParse(t *testing.T) { t.Skip(\"later\"); if false { t.Errorf(\"x\") } }",
            "@Test @Disabled void parses() { assertEquals(1, 1); assertTrue(true); }",
            "@org.junit.Ignore @Test(expected = AssertionError.class) public void x() {}",
            "}",
            "",
            "let x = \"assert!(false)\"; // test",
            "a.b.c::d(e)[f] = g;",
        ];
        for table in TABLES {
            let mut lists: Vec<&'static [pattern::Pattern]> = vec![
                table.tests,
                table.skips,
                table.assertions,
                table.disables,
                table.weakeners,
                table.swallowers,
            ];
            lists.extend(
                table
                    .selectors
                    .iter()
                    .map(|(_, selector)| std::slice::from_ref(selector)),
            );
            for line in lines {
                let mut code = Vec::new();
                lex::strip_line(&table.syntax, State::Code, line.as_bytes(), &mut code);
                let mut tokens = Vec::new();
                pattern::tokenize(&code, &mut tokens);
                for list in &lists {
                    for declares_test in [false, true] {
                        let mut found = Vec::new();
                        pattern::for_each_match(list, &tokens, declares_test, |start, end| {
                            found.push((start, end));
                        });
                        assert_eq!(found, plain(list, &tokens, declares_test), "{line}");
                    }
                }
            }
        }
    }

    /// The totals of a change made of `(path, old, new)` files.
    pub(crate) fn totals(changes: &[(&str, &str, &str)]) -> (u64, u64, u64) {
        let report = report(changes);
        (
            report.tests_removed,
            report.test_skips_added,
            report.assertions_removed,
        )
    }

    /// Checks each change of one file, (path, old, new, (weakened, removed)), for the
    /// assertions it counts as weakened and as removed.
    fn weakened_and_removed(cases: &[(&str, &str, &str, (u64, u64))]) {
        for &(path, old, new, (weakened, removed)) in cases {
            let report = report(&[(path, old, new)]);
            assert_eq!(
                (report.assertions_weakened, report.assertions_removed),
                (weakened, removed),
                "{path}: {new}\n{report:?}"
            );
        }
    }

    pub(crate) fn report(changes: &[(&str, &str, &str)]) -> TamperReport {
        combine(
            changes
                .iter()
                .filter_map(|(path, old, new)| {
                    analyze_file(path, Some(old.as_bytes()), Some(new.as_bytes()))
                })
                .collect(),
        )
    }

    /// False findings on real history (ripgrep, express, gson, flask), kept at 0: a new Rust
    /// macro whose name starts with `assert`, supertest's `.expect(200)`, two distinct
    /// objects compared with `assertEquals`, `assert(true)` in a new test, and an
    /// assertion method overridden by one that still checks.
    #[test]
    fn real_checks_are_not_weakened() {
        for (path, old, new) in [
            (
                "tests/macros.rs",
                "#[test]\nfn t() { assert_eq!(f(), 1); }\n",
                "macro_rules! assert_eq_printed {\n    ($a:expr) => { assert_eq!($a, 1) };\n}\n\n#[test]\nfn t() { assert_eq!(f(), 1); }\n",
            ),
            (
                "test/app.js",
                "it('works', () => {\n  request(app).get('/').expect(404);\n});\n",
                "it('works', () => {\n  request(app).get('/').expect(200).expect('hello');\n});\n",
            ),
            (
                "src/test/java/PointTest.java",
                "class PointTest {\n  @Test\n  void eq() {\n    assertTrue(p.equals(q));\n  }\n}\n",
                "class PointTest {\n  @Test\n  void eq() {\n    assertEquals(new Point(1, 2), new Point(1, 2));\n  }\n}\n",
            ),
            // express: a new test whose callback only has to be reached.
            (
                "test/Route.js",
                "describe('Route', () => {\n});\n",
                "describe('Route', () => {\n  it('dispatches post', (done) => {\n    route.post(() => {\n      assert(true);\n      done();\n    });\n  });\n});\n",
            ),
            // flask: one check or the other; a library call that asserts.
            (
                "tests/test_helpers.py",
                "def test_sort():\n    lines = run()\n",
                "def test_sort():\n    lines = run()\n    try:\n        assert lines == by_int\n    except AssertionError:\n        assert lines == by_str\n",
            ),
            (
                "tests/test_basic.py",
                "def test_route(app):\n    app.run()\n",
                "def test_route(app):\n    with pytest.raises(AssertionError):\n        app.add_url_rule(\"/\", endpoint=\"x\")\n",
            ),
            // gson: the library throws the AssertionError under test.
            (
                "src/test/java/DiagnosticsTest.java",
                "class DiagnosticsTest {\n  @Test\n  void t() {\n  }\n}\n",
                "class DiagnosticsTest {\n  @Test\n  void t() {\n    AssertionError e = assertThrows(AssertionError.class, () -> gson.toJson(new T()));\n  }\n}\n",
            ),
            // flask: a comparison to True written as a bare assertion (flake8 E712).
            (
                "tests/test_templating.py",
                "def test_reload(app):\n    assert app.templates_auto_reload == True\n",
                "def test_reload(app):\n    assert app.templates_auto_reload\n",
            ),
            // flask: `is True` written `== True` (4d2a3ab2e07e).
            (
                "tests/test_templating.py",
                "def test_reload(app):\n    assert app.jinja_env.auto_reload is True\n",
                "def test_reload(app):\n    assert app.jinja_env.auto_reload == True\n",
            ),
            // flask: a value expected made `True`, one value still (53b8f0821879).
            (
                "tests/test_testing.py",
                "def test_session(client):\n    assert flask.session.get(\"data\") == \"foo\"\n",
                "def test_session(client):\n    assert flask.session[\"redirect\"] is True\n",
            ),
            (
                "tests/test_testing.py",
                "class T(unittest.TestCase):\n    def test_s(self):\n        self.assertEqual(s.get(\"data\"), \"foo\")\n",
                "class T(unittest.TestCase):\n    def test_s(self):\n        self.assertIs(s.get(\"data\"), True)\n",
            ),
            // gson: a reflexivity check added beside the checks a test keeps (feb9617bf087).
            (
                "src/test/java/JsonArrayTest.java",
                "class JsonArrayTest {\n  @Test\n  void eq() {\n    assertFalse(a.equals(b));\n  }\n}\n",
                "class JsonArrayTest {\n  @Test\n  void eq() {\n    assertEquals(a, a);\n    assertFalse(a.equals(b));\n  }\n}\n",
            ),
            // gson: one presence check for another (6a80791f13e5).
            (
                "src/test/java/MapTest.java",
                "class MapTest {\n  @Test\n  void t() {\n    assertTrue(map.hasAnyHandlerFor(type));\n  }\n}\n",
                "class MapTest {\n  @Test\n  void t() {\n    assertNotNull(map.getHandlerFor(type));\n  }\n}\n",
            ),
            // gson: assertTrue(found) replaced by assertNotNull(value).
            (
                "src/test/java/MapTest.java",
                "class MapTest {\n  @Test\n  void t() {\n    assertTrue(found);\n  }\n}\n",
                "class MapTest {\n  @Test\n  void t() {\n    assertNotNull(value);\n  }\n}\n",
            ),
            // gson: assertEquals replaced by a check of what the JSON contains.
            (
                "src/test/java/JsonTest.java",
                "class JsonTest {\n  @Test\n  void t() {\n    assertEquals(\"{}\", json);\n  }\n}\n",
                "class JsonTest {\n  @Test\n  void t() {\n    assertTrue(json.contains(\"{\"));\n  }\n}\n",
            ),
            // flask: assertIn backported on Python 2.6, still checking.
            (
                "tests/__init__.py",
                "import unittest\n\nclass FlaskTestCase(unittest.TestCase):\n    pass\n",
                "import unittest\n\nclass FlaskTestCase(unittest.TestCase):\n    def assertIn(self, x, y):\n        self.assertTrue(x in y, '%r not in %r' % (x, y))\n",
            ),
        ] {
            let report = report(&[(path, old, new)]);
            assert_eq!(report.assertions_weakened, 0, "{path}: {report:?}");
        }
    }

    /// An option written anywhere among the tests is a runner setting, in a test too: the
    /// configuration it writes to may be the run's own (`config = request.config`).
    #[test]
    fn options_set_inside_a_test() {
        let settings = |path: &str, new: &str| {
            analyze_file(path, Some(b"import pytest\n"), Some(new.as_bytes()))
                .expect("a known language")
                .test_config_changed
        };
        let own = "import pytest\n\n\ndef test_verbose(pytester):\n    config = pytester.parseconfig()\n    config.option.verbose = 2\n";
        let run = "import pytest\n\n\ndef test_add(request):\n    config = request.config\n    config.option.maxfail = 0\n";
        for (path, new) in [
            ("tests/test_report.py", own),
            ("tests/test_add.py", run),
            // In a conftest, whatever the names around it.
            ("conftest.py", own),
            (
                "conftest.py",
                "import pytest\n\ncollect_ignore = []\n\n\nclass TestSettings:\n    collect_ignore.append(\"tests/test_add.py\")\n",
            ),
            // The run's own configuration, from a test class's fixture.
            (
                "tests/test_report.py",
                "import pytest\n\n\nclass TestReport:\n    @pytest.fixture(autouse=True)\n    def lax(self, request):\n        request.config.option.maxfail = 0\n",
            ),
        ] {
            assert!(!settings(path, new).is_empty(), "{path}: {new}");
        }
    }

    /// A suite that a test runs to check the runner (Mocha's `*.fixture.js`, Go's
    /// `testdata/`) is the test's input: its skips and tests are none of the suite's own;
    /// a test moved into one no longer runs.
    #[test]
    fn test_inputs() {
        let suite = "describe('suite', function () {\n  it('runs', function () {});\n});\n";
        let skipped = suite.replace("describe(", "describe.skip(");
        for (path, old, new) in [
            (
                "test/integration/fixtures/skip.fixture.js",
                suite,
                skipped.as_str(),
            ),
            (
                "pkg/testdata/skip_test.go",
                "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
                "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tt.Skip(\"x\")\n}\n",
            ),
        ] {
            let file =
                analyze_changed_file(path, path, Some(old.as_bytes()), Some(new.as_bytes()), None)
                    .expect("a known language");
            assert_eq!(
                (
                    file.tests_removed,
                    file.test_skips_added,
                    file.assertions_removed
                ),
                (0, 0, 0),
                "{path}"
            );
        }
        // A suite a runner collects by its place is no input, whatever its name.
        let collected = analyze_changed_file(
            "test/add.fixture.js",
            "test/add.fixture.js",
            Some(suite.as_bytes()),
            Some(skipped.as_bytes()),
            None,
        )
        .expect("a known language");
        assert_eq!(collected.test_skips_added, 1);
        let moved = analyze_changed_file(
            "test/integration/fixtures/a.fixture.js",
            "test/unit/a.spec.js",
            Some(suite.as_bytes()),
            Some(suite.as_bytes()),
            None,
        )
        .expect("a known language");
        assert_eq!(moved.tests_removed, 1);
    }

    /// Exact checks replaced by checks that a value exists weaken the test; existence
    /// checks in a new test, or added next to the exact ones, do not.
    #[test]
    fn exact_checks_replaced_by_existence_checks() {
        for (path, old, new, weakened) in [
            (
                "test/sum.test.js",
                "it('adds', () => {\n  expect(sum(1, 2)).toBe(3);\n});\n",
                "it('adds', () => {\n  expect(sum(1, 2)).toBeDefined();\n});\n",
                1,
            ),
            (
                "tests/test_calc.py",
                "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(add(1, 2), 3)\n",
                "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertIsNotNone(add(1, 2))\n",
                1,
            ),
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_a():\n    assert add(1, 2) is not None\n",
                1,
            ),
            (
                "src/test/java/CalcTest.java",
                "class CalcTest {\n  @Test\n  void adds() {\n    assertEquals(3, add(1, 2));\n  }\n}\n",
                "class CalcTest {\n  @Test\n  void adds() {\n    assertNotNull(add(1, 2));\n  }\n}\n",
                1,
            ),
            (
                "tests/calc.rs",
                "#[test]\nfn adds() {\n    assert_eq!(add(1, 2), Some(3));\n}\n",
                "#[test]\nfn adds() {\n    assert!(add(1, 2).is_some());\n}\n",
                1,
            ),
            // A guard that narrows a value before exact checks of what it holds.
            (
                "tests/test_tb.py",
                "def test_a():\n    entry = crash()\n    assert entry.lineno == 3\n\n\ndef test_b():\n    entry = crash()\n    assert entry.lineno == 4\n    assert entry.name == \"g\"\n",
                "def test_a():\n    entry = crash()\n    assert entry is not None\n    assert entry.lineno == 3\n\n\ndef test_b():\n    entry = crash()\n    assert entry is None\n",
                0,
            ),
            // Not a guard: it stands in for a check of the same test.
            (
                "tests/test_tb.py",
                "def test_a():\n    entry = crash()\n    assert entry.name == \"x\"\n    assert entry.lineno == 3\n",
                "def test_a():\n    entry = crash()\n    assert entry is not None\n    assert entry.lineno == 3\n",
                1,
            ),
            // Not a guard: found in a helper of the test, or in a test whose name another
            // class's test has too.
            (
                "tests/test_tb.py",
                "def test_a():\n    x = make()\n    assert x == EXPECTED\n\n    def check():\n        assert x.y == 1\n",
                "def test_a():\n    x = make()\n\n    def check():\n        assert x is not None\n        assert x.y == 1\n",
                1,
            ),
            (
                "tests/test_tb.py",
                "class TestA:\n    def test_make(self):\n        x = make()\n        assert x.y == 1\n\n\nclass TestB:\n    def test_make(self):\n        x = make()\n        assert x == EXPECTED\n        assert x.y == 1\n",
                "class TestA:\n    def test_make(self):\n        x = make()\n        assert x.y == 1\n\n\nclass TestB:\n    def test_make(self):\n        x = make()\n        assert x is not None\n        assert x.y == 1\n",
                1,
            ),
            // Not a guard: nothing below reads what it holds.
            (
                "tests/test_tb.py",
                "def test_a():\n    entry = crash()\n    assert entry.lineno == 3\n    assert size == 2\n",
                "def test_a():\n    entry = crash()\n    assert entry is not None\n    assert size == 2\n",
                1,
            ),
            // Added beside the exact check: nothing replaced.
            (
                "test/sum.test.js",
                "it('adds', () => {\n  expect(sum(1, 2)).toBe(3);\n});\n",
                "it('adds', () => {\n  expect(sum(1, 2)).toBeDefined();\n  expect(sum(1, 2)).toBe(3);\n});\n",
                0,
            ),
            // In a new test, next to an exact check removed elsewhere: nothing replaced.
            (
                "test/sum.test.js",
                "it('adds', () => {\n  expect(sum(1, 2)).toBe(3);\n  expect(sum(2, 2)).toBe(4);\n});\n",
                "it('adds', () => {\n  expect(sum(1, 2)).toBe(3);\n});\n\nit('returns', () => {\n  expect(sum(1, 2)).toBeTruthy();\n});\n",
                0,
            ),
        ] {
            let report = report(&[(path, old, new)]);
            assert_eq!(
                report.assertions_weakened, weakened,
                "{path}: {new}\n{report:?}"
            );
        }
    }

    /// Assertions that check nothing, and checks split over lines, weaken a test as far as
    /// they stand in for exact checks.
    #[test]
    fn stand_ins_over_lines_and_beside_checks() {
        for (path, old, new, weakened) in [
            // A check that checks nothing in place of an exact one, also in a test renamed.
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_a():\n    assert True\n",
                1,
            ),
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_b():\n    assert add(1, 2) == add(1, 2)\n",
                1,
            ),
            // The same value checked through the same call.
            (
                "src/test/java/MapTest.java",
                "class MapTest {\n  @Test\n  void t() {\n    assertEquals(3, map.get(\"a\"));\n  }\n}\n",
                "class MapTest {\n  @Test\n  void t() {\n    assertNotNull(map.get(\"a\"));\n  }\n}\n",
                1,
            ),
            // Beside the checks a test keeps, it weakens nothing.
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_a():\n    assert True\n    assert add(1, 2) == 3\n",
                0,
            ),
            // A check split over lines (black's style) is read as one statement.
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_a():\n    assert (\n        add(1, 2)\n    )\n",
                1,
            ),
            (
                "tests/test_calc.py",
                "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(\n            add(1, 2),\n            3,\n        )\n",
                "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertTrue(\n            add(1, 2)  # (\n        )\n",
                1,
            ),
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_a():\n    assert not (\n        add(1, 2) is None\n    )\n",
                1,
            ),
            (
                "test/sum.test.js",
                "it('adds', () => {\n  expect(sum(1, 2)).toBe(3);\n});\n",
                "it('adds', () => {\n  expect(\n    sum(1, 2),\n  ).toBeDefined();\n});\n",
                1,
            ),
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_a():\n    assert add(1, 2) is \\\n        not None\n",
                1,
            ),
            // Still exact, however it is split.
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_a():\n    assert (\n        add(1, 2)\n        == 3\n    )\n",
                0,
            ),
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_a():\n    assert add(\n        1, 2\n    ) == 3\n",
                0,
            ),
            (
                "tests/test_calc.py",
                "def test_a():\n    assert add(1, 2) == 3\n",
                "def test_a():\n    assert add(1, 2) \\\n        == 3\n",
                0,
            ),
        ] {
            let report = report(&[(path, old, new)]);
            assert_eq!(
                report.assertions_weakened, weakened,
                "{path}: {new}\n{report:?}"
            );
        }
    }

    /// A presence check of another value than the exact check it replaces (another name, or
    /// another call on it) stands in for nothing: that exact check is removed. One that
    /// turns a removed check's sense (`is None` now `is not None`) changed the expectation:
    /// nothing is removed or weakened.
    #[test]
    fn checks_of_another_value_and_turned_checks() {
        weakened_and_removed(&[
            (
                "tests/test_tb.py",
                "def test_a():\n    size = 2\n    entry = crash()\n    assert size == 2\n    assert entry.lineno == 3\n",
                "def test_a():\n    size = 2\n    entry = crash()\n    assert entry\n    assert entry.lineno == 3\n",
                (0, 1),
            ),
            (
                "src/test/java/MapTest.java",
                "class MapTest {\n  @Test\n  void t() {\n    assertEquals(3, map.get(\"a\"));\n  }\n}\n",
                "class MapTest {\n  @Test\n  void t() {\n    assertTrue(map.containsKey(\"a\"));\n  }\n}\n",
                (0, 1),
            ),
            (
                "tests/test_cmd.py",
                "def test_a():\n    assert py.process.cmdexec == cmdexec.posix_exec_cmd\n",
                "def test_a():\n    assert py.builtin._istext(e.out)\n",
                (0, 1),
            ),
            // A check of a value computed anew, where the exact check went with the value it
            // read (pytest 2d8bcbdf5573): the exact check is removed, not weakened.
            (
                "tests/test_gen.py",
                "def test_gen():\n    result = run(\"-h\")\n    assert result.ret == 0\n    result = run(\"--version\")\n    assert result.ret == 0\n",
                "def test_gen():\n    result = run(\"--version\")\n    assert result.ret == 0\n    p = make(\"def test_f(): assert 0\")\n    result = run(p)\n    assert result.ret != 0\n",
                (0, 1),
            ),
            (
                "tests/test_calc.py",
                "def test_add():\n    assert add(1, 2) == 3\n",
                "def test_add():\n    let = add(1, 2) + 1\n    assert let is not None\n",
                (0, 1),
            ),
            // A value bound anew in the trade's own hunk still weakens there, whatever exact
            // check the file adds elsewhere (attack-50 B3).
            (
                "tests/test_calc.py",
                "def test_add():\n    r = add(1, 2)\n    assert r == 4\n\n\ndef test_one():\n    assert one()\n",
                "def test_add():\n    r = int(add(1, 2))\n    assert r is not None\n\n\ndef test_one():\n    assert one()\n    assert add(0, 1) == 1\n",
                (1, 0),
            ),
            // The name bound again to the value the removed check read: a weakening.
            (
                "tests/test_gen.py",
                "def test_gen():\n    result = run(\"-h\")\n    assert result.ret == 0\n",
                "def test_gen():\n    result = run(\"-h\")\n    assert result.ret\n",
                (1, 0),
            ),
            (
                "tests/test_gen.py",
                "def test_gen():\n    result = run(\"-h\")\n    assert result.ret == 0\n",
                "def test_gen():\n    result = run( \"-h\" )\n    assert result.ret is not None\n",
                (1, 0),
            ),
            (
                "tests/gen.test.js",
                "it('gens', () => {\n  let result = run('-h');\n  expect(result.ret).toBe(0);\n});\n",
                "it('gens', () => {\n  const result = run('-h');\n  expect(result.ret).toBeDefined();\n});\n",
                (1, 0),
            ),
            // The same value: a weakening.
            (
                "tests/test_app.py",
                "def test_a():\n    assert rv.data == b\"Test\"\n",
                "def test_a():\n    assert rv.data\n",
                (1, 0),
            ),
            // Its sense turned.
            (
                "tests/test_plugin.py",
                "def test_a():\n    plugin = get()\n    assert plugin is None\n",
                "def test_a():\n    plugin = get()\n    assert plugin is not None\n",
                (0, 0),
            ),
            (
                "tests/test_rsync.py",
                "def test_a():\n    assert not dest.join('f').check()\n",
                "def test_a():\n    assert dest.join('f').check()\n",
                (0, 0),
            ),
            // A turned check is the removed check in its place, one for one: another test's
            // `assert not result`, re-added with a message, turns nothing here.
            (
                "tests/test_calc.py",
                "def test_empty():\n    result = add(0, 0)\n    assert not result\n\n\ndef test_add():\n    result = add(1, 2)\n    assert result == 4\n",
                "def test_empty():\n    result = add(0, 0)\n    assert not result, \"zero\"\n\n\ndef test_add():\n    result = add(1, 2)\n    assert result\n",
                (1, 0),
            ),
            // A check is read whole: black's `assert (` alike on both sides, its `== 4`
            // dropped below.
            (
                "tests/test_calc.py",
                "def test_add():\n    assert (  # sum\n        add(1, 2) == 4\n    )\n",
                "def test_add():\n    assert (  # the sum\n        add(1, 2)\n    )\n",
                (1, 0),
            ),
            (
                "tests/test_calc.py",
                "def test_add():\n    assert (  # sum\n        add(1, 2) is None\n    )\n",
                "def test_add():\n    assert (  # the sum\n        add(1, 2) is not None\n    )\n",
                (0, 0),
            ),
        ]);
    }

    /// A turned check is the removed check in its place among its hunk's assertions, from
    /// the hunk's start or its end, whatever the flip is written with.
    #[test]
    fn turned_checks_in_their_place() {
        weakened_and_removed(&[
            // A setup line added above the flip; a message; a matcher's `.not`.
            (
                "tests/test_cache.py",
                "def test_lookup():\n    cache = {}\n    assert cache.get(\"k\") is None\n",
                "def test_lookup():\n    cache = {}\n    cache[\"k\"] = 1\n    assert cache.get(\"k\") is not None\n",
                (0, 0),
            ),
            (
                "tests/test_cache.py",
                "def test_lookup():\n    cache = {}\n    assert cache.get(\"k\") is None\n",
                "def test_lookup():\n    cache = {}\n    assert cache.get(\"k\") is not None, \"set\"\n",
                (0, 0),
            ),
            (
                "test/cache.spec.js",
                "it(\"holds k\", function () {\n  expect(cache.get(\"k\")).toBeNull();\n});\n",
                "it(\"holds k\", function () {\n  expect(cache.get(\"k\")).not.toBeNull();\n});\n",
                (0, 0),
            ),
            // Not in its place among the hunk's assertions: a passing `assert not len(c)`
            // rewritten, the failing `len(c) == 2` made `len(c)` below it.
            (
                "tests/test_cache.py",
                "def test_a():\n    assert not len(c)\n    assert len(c) == 2\n",
                "def test_a():\n    assert c.setdefault(\"k\", 1) == 1\n    assert len(c)\n",
                (1, 0),
            ),
            // In its place counted from the hunk's end: a check added above the flip.
            (
                "tests/test_cache.py",
                "def test_a():\n    assert c.get(\"k\") is None\n",
                "def test_a():\n    assert tmp.exists()\n    assert c.get(\"k\") is not None\n",
                (0, 0),
            ),
            // `== None` turned is `!= None`; unittest's and JUnit's names for the two senses.
            (
                "tests/test_cache.py",
                "def test_a():\n    assert c.get(\"k\") == None\n",
                "def test_a():\n    assert c.get(\"k\") != None\n",
                (0, 0),
            ),
            (
                "tests/test_cache.py",
                "class T(unittest.TestCase):\n    def test_a(self):\n        self.assertIsNone(c.get(\"k\"))\n",
                "class T(unittest.TestCase):\n    def test_a(self):\n        self.assertIsNotNone(c.get(\"k\"))\n",
                (0, 0),
            ),
        ]);
    }

    /// A hunk that trades an exact check for an existence check of the same value weakens
    /// it, whatever another hunk adds: a passing `assert not len(c)` rewritten as `len(c) ==
    /// 0` below does not make up for the failing `len(c) == 2` made `len(c)`. One moved to
    /// another hunk, the same statement, is still there.
    #[test]
    fn weakened_hunk_by_hunk() {
        weakened_and_removed(&[
            (
                "tests/test_calc.py",
                "def test_count():\n    c = items()\n    assert len(c) == 2\n    c.clear()\n    assert not len(c)\n",
                "def test_count():\n    c = items()\n    assert isinstance(c, list)\n    assert len(c)\n    c.clear()\n    assert len(c) == 0\n",
                (1, 0),
            ),
            (
                "test/count.spec.js",
                "it(\"counts\", function () {\n  const c = items();\n  expect(c.first).toBe(2);\n  c.clear();\n  expect(c.first).toBeUndefined();\n});\n",
                "it(\"counts\", function () {\n  const c = items();\n  expect(c.first).toBeDefined();\n  c.clear();\n  expect(c.first).toBe(undefined);\n});\n",
                (1, 0),
            ),
            // pytest's 3392be37e196, 54ad048be718: a check rewritten for a renamed value
            // (`tb` now `traceback`), an existence check of a value an exact check added
            // there still reads (`excinfo`, `expl`).
            (
                "testing/test_runner.py",
                "def test_a():\n    excinfo = pytest.raises(pytest.skip.Exception, f)\n    path = local(excinfo.getrepr().path)\n",
                "def test_a():\n    excinfo = pytest.raises(Skipped, f)\n    assert excinfo is not None\n    path = local(excinfo.getrepr().path)\n",
                (0, 0),
            ),
            (
                "testing/test_code.py",
                "def test_a():\n    tb = sys.exc_info()\n    tb = Traceback(tb)\n    assert isinstance(tb[-1].path, str)\n    assert not filter_traceback(tb[-1])\n",
                "def test_a():\n    tb = sys.exc_info()\n    assert tb is not None\n    traceback = Traceback(tb)\n    assert isinstance(traceback[-1].path, str)\n    assert not filter_traceback(traceback[-1])\n",
                (0, 0),
            ),
            // pytest's 6dac77433eb1: a number compared with zero is its truthiness; one
            // compared with its value is weakened by it.
            (
                "testing/test_usage.py",
                "def test_a():\n    result = run()\n    assert result.ret != 0\n",
                "def test_a():\n    result = run()\n    assert result.ret\n",
                (0, 0),
            ),
            (
                "testing/test_usage.py",
                "def test_a():\n    result = run()\n    assert result.ret == 4\n",
                "def test_a():\n    result = run()\n    assert result.ret != 0\n",
                (1, 0),
            ),
            // Zero however written (attack-41 B33, B34), on either side.
            (
                "testing/test_usage.py",
                "def test_a():\n    result = run()\n    assert result.ret == 4\n",
                "def test_a():\n    result = run()\n    assert result.ret != 0.0\n",
                (1, 0),
            ),
            (
                "testing/test_usage.py",
                "def test_a():\n    result = run()\n    assert result.ret == 4\n",
                "def test_a():\n    result = run()\n    assert -0 != result.ret\n",
                (1, 0),
            ),
            // pytest's 52db918a27b2: a helper of the file named `assert_…` called with a
            // literal is passed a parameter, not asked to check it.
            (
                "testing/test_terminalwriter.py",
                "def assert_color_set():\n    assert tw.hasmarkup\n\n\ndef test_a():\n    assert_color_set()\n",
                "def assert_color(expected):\n    assert tw.hasmarkup is expected\n\n\ndef test_a():\n    assert_color(True)\n",
                (0, 0),
            ),
            // pytest's 6f93561002c4: a check made a tautology in its place, while the file
            // adds exact checks elsewhere.
            (
                "testing/test_gwmanage.py",
                "def test_a():\n    res = gw.receive()\n    assert sys.executable == res\n    gw.exit()\n\n\ndef test_b():\n    pass\n",
                "def test_a():\n    res = gw.receive()\n    assert sys.executable == sys.executable\n    gw.exit()\n\n\ndef test_b():\n    assert spec.python == \"python3\"\n",
                (1, 0),
            ),
            // attack-41 B17: the existence check below a kept check, a new test's exact
            // check to balance the file.
            (
                "tests/test_calc.py",
                "def items():\n    return [\"a\"]\n\n\ndef test_count():\n    c = items()\n    assert len(c) == 2\n    assert c[0] == \"a\"\n",
                "def items():\n    return [\"a\"]\n\n\ndef test_count():\n    c = items()\n    assert c[0] == \"a\"\n    assert c\n\n\ndef test_first():\n    assert items()[0] == \"a\"\n",
                (1, 0),
            ),
            // attack-41 B18: split by a statement, the file netted by a type check.
            (
                "tests/test_calc.py",
                "def test_count():\n    c = items()\n    assert len(c) == 2\n    c.sort()\n    assert c[0] == \"a\"\n",
                "def test_count():\n    c = items()\n    assert isinstance(c, list)\n    c.sort()\n    assert len(c)\n    assert c[0] == \"a\"\n",
                (1, 0),
            ),
            // attack-42: `type(x)` asks a kind (B1); a dict's `keys()` is no chai matcher (F7).
            (
                "tests/test_calc.py",
                "def test_add():\n    assert add(1, 2) == 4\n",
                "def test_add():\n    assert add(1, 2) is not None\n    assert type(add(1, 2)) is int\n",
                (1, 0),
            ),
            (
                "tests/test_cfg.py",
                "def test_a():\n    assert sorted(cfg) == [\"a\"]\n",
                "def test_a():\n    assert cfg\n    assert sorted(cfg.keys()) == [\"a\"]\n",
                (0, 0),
            ),
            // attack-42 F6: a kind check rewritten as another, a guard added.
            (
                "tests/test_r.py",
                "def test_a():\n    r = load()\n    assert type(r.items) == list\n",
                "def test_a():\n    r = load()\n    assert r.items\n    assert isinstance(r.items, list)\n",
                (0, 0),
            ),
        ]);
    }

    /// An exact check traded for an existence check in its hunk is weakened, whatever the
    /// change adds elsewhere: a copy of it further down, in the same test and style or not,
    /// makes up for nothing. The copy's value may have been changed in between in more ways
    /// than a reading of the lines can tell (attack-42 to attack-48: aliases, deletions,
    /// code in strings, continued lines, other spellings of a name, tests of the same name);
    /// on the corpus no commit did this honestly.
    #[test]
    fn a_copy_elsewhere_makes_up_for_no_weakening() {
        let python = |check: &str, between: &str, copy: &str| {
            format!("def test_a():\n    r = run()\n    assert {check}\n    step()\n{between}{copy}")
        };
        let old = python("r == 4", "", "");
        let mut cases: Vec<(String, String, (u64, u64))> = Vec::new();
        for (between, copy) in [
            ("", "    assert r == 4\n"),
            ("    more()\n", "    assert (\n        r == 4\n    )\n"),
            ("    alias = r\n    alias += 1\n", "    assert r == 4\n"),
            ("    exec(\"r = 4\")\n", "    assert r == 4\n"),
        ] {
            cases.push((old.clone(), python("r is not None", between, copy), (1, 0)));
        }
        let js = |check: &str, copy: &str| {
            format!(
                "it(\"a\", function () {{\n  const r = run();\n  {check};\n  step();\n{copy}}});\n"
            )
        };
        let old_js = js("assert.strictEqual(r, 4)", "");
        for copy in [
            "  assert.strictEqual(r, 4);\n",
            "  delete r.debug;\n  assert.strictEqual(r, 4);\n",
        ] {
            cases.push((old_js.clone(), js("expect(r).to.exist", copy), (1, 0)));
        }
        // Moved below with nothing in its place: nothing weakened, nothing removed.
        cases.push((
            old.clone(),
            python("r == 4", "", "").replace(
                "    assert r == 4\n    step()\n",
                "    step()\n    assert r == 4\n",
            ),
            (0, 0),
        ));
        let cases: Vec<(&str, &str, &str, (u64, u64))> = cases
            .iter()
            .map(|(old, new, expected)| {
                let path = if old.starts_with("def") {
                    "tests/test_calc.py"
                } else {
                    "test/calc.spec.js"
                };
                (path, old.as_str(), new.as_str(), *expected)
            })
            .collect();
        weakened_and_removed(&cases);
    }

    /// pytest registers no hook from a test module: a plugin class a test hands to
    /// `pytester` defines hooks of its own run (pytest's 93b74d28d2ac), and a module-level
    /// `collect_ignore` there is ignored; in `conftest.py` or a plugin module, they count.
    #[test]
    fn hooks_in_test_modules_configure_nothing() {
        let hook = "import pytest\n\n\ndef test_a(pytester):\n    class Plugin:\n        def pytest_pyfunc_call(self, pyfuncitem):\n            return True\n    pytester.runpytest(plugins=[Plugin()])\n";
        for (path, counted) in [
            ("testing/python/test_collect.py", false),
            ("testing/python/collect_test.py", false),
            ("testing/conftest.py", true),
            ("testing/plugin.py", true),
        ] {
            let file = analyze_file(path, Some(b""), Some(hook.as_bytes())).expect("python");
            assert_eq!(
                !file.test_config_changed.is_empty(),
                counted,
                "{path}: {file:?}"
            );
        }
        // A hook at a test module's top level counts: `pytest_plugins` elsewhere can
        // register the module (attack-49 P12).
        let module_hook = "def pytest_collection_modifyitems(items):\n    items[:] = []\n";
        let file = analyze_file(
            "tests/test_order.py",
            Some(b""),
            Some(module_hook.as_bytes()),
        )
        .expect("python");
        assert!(!file.test_config_changed.is_empty());
        // What acts as the run goes counts in a test module too.
        let exit = "import pytest\n\npytest.exit(\"done\", returncode=0)\n";
        let file =
            analyze_file("tests/test_a.py", Some(b""), Some(exit.as_bytes())).expect("python");
        assert!(!file.test_config_changed.is_empty());
    }

    /// A plugin module's changed hook lines wait for the repository
    /// ([`FileTamper::plugin_registered`]).
    #[test]
    fn plugin_modules_and_their_registration() {
        let old = "def pytest_collection_modifyitems(items):\n    items.sort()\n";
        let new = "def pytest_collection_modifyitems(items):\n    items[:] = []\n";
        let mut file =
            analyze_file("tools/sel.py", Some(old.as_bytes()), Some(new.as_bytes())).expect("py");
        assert!(file.test_config_changed.is_empty());
        assert_eq!(file.plugin_hooks.len(), 2, "{file:?}");
        file.plugin_registered("conftest.py", true);
        assert_eq!(file.test_config_changed, [python::COLLECTION_HOOK]);
        // Only module-level hooks: a method's changes are a plugin object's, registered
        // (or not) by code.
        let method = |body: &str| {
            format!("class P:\n    def pytest_runtest_call(self, item):\n        {body}\n")
        };
        let file = analyze_file(
            "tools/sel.py",
            Some(method("item.runtest()").as_bytes()),
            Some(method("return True").as_bytes()),
        )
        .expect("py");
        assert!(file.plugin_hooks.is_empty(), "{file:?}");
        // However the `def` is spaced (helper-59's B1f).
        let tabbed = "def\tpytest_collection_modifyitems(items):\n    items.sort()\n";
        let file = analyze_file(
            "tools/sel.py",
            Some(tabbed.as_bytes()),
            Some(tabbed.replace("items.sort()", "items[:] = []").as_bytes()),
        )
        .expect("py");
        assert_eq!(file.plugin_hooks.len(), 2, "{file:?}");
        // A module that names pytest waits for the repository; one that does not, or a
        // test module, does not.
        for (path, text, waits) in [
            ("tools/sel.py", "import pytest\nX = 1\n", true),
            ("tools/sel.py", "X = 1\n", false),
            ("tests/helpers.py", "import pytest\nX = 1\n", false),
        ] {
            let file = analyze_file(path, Some(b"X = 0\n"), Some(text.as_bytes())).expect("py");
            assert_eq!(
                file.harness == Some(Harness::PytestPlugin),
                waits,
                "{path}: {text:?}"
            );
        }
    }

    /// A JavaScript check that a value is not `null` or `undefined` is an existence check
    /// (attack-46 B6); one against another value is exact.
    #[test]
    fn javascript_not_nullish_is_existence() {
        let test = |check: &str| {
            format!("it(\"a\", function () {{\n  const r = run();\n  {check};\n}});\n")
        };
        let old = test("assert.deepStrictEqual(r, { total: 4 })");
        let cases: Vec<(String, (u64, u64))> = [
            ("assert.ok(r != null)", (1, 0)),
            ("assert(r !== undefined)", (1, 0)),
            ("assert.ok(null !== r, \"present\")", (1, 0)),
            ("assert.ok(r != 5)", (0, 0)),
            ("assert.ok(r.total !== null && r.total === 4)", (0, 0)),
        ]
        .into_iter()
        .map(|(check, expected)| (test(check), expected))
        .collect();
        let cases: Vec<(&str, &str, &str, (u64, u64))> = cases
            .iter()
            .map(|(new, expected)| ("test/calc.spec.js", old.as_str(), new.as_str(), *expected))
            .collect();
        weakened_and_removed(&cases);
    }

    /// From the 2026-12-07 judged sample: an `assert """` whose string goes on below checks
    /// what the string holds (pytest's 8ab4468b5c6a); `try: assert False` / `except
    /// AssertionError:` probes `python -O` (a98e3cefc5b5). Neither weakens anything.
    #[test]
    fn judged_false_weakenings_of_2026_12_07() {
        weakened_and_removed(&[
            (
                "testing/test_html.py",
                "def test_a():\n    html = render()\n    assert html == EXPECTED\n",
                "def test_a():\n    html = render()\n    assert \"\"\"<td>\n    ok\n</td>\"\"\" in html\n",
                (0, 0),
            ),
            (
                "testing/test_config.py",
                "def test_a():\n    run()\n",
                "def test_a():\n    try:\n        assert False\n    except AssertionError:\n        optimized = False\n    run()\n",
                (0, 0),
            ),
        ]);
    }

    /// A skip in a helper module outside the test locations skips the tests that call or
    /// apply it, however it is written (attack-46 B9-B11, B13): it counts wherever it is,
    /// pytest's and mocha's own source included.
    #[test]
    fn skips_count_in_helper_modules() {
        let old = "import pytest\n\n\ndef gate():\n    return 1\n";
        for new in [
            "import pytest\n\n\ndef gate():\n    raise pytest.skip.Exception(\"later\")\n",
            "import pytest\nimport unittest\n\n\ndef gate():\n    raise unittest.SkipTest(\"later\")\n",
            "import pytest\n\nlater = pytest.mark.skipif(True, reason=\"flaky\")\n\n\ndef gate():\n    return 1\n",
            "import pytest\n\n\ndef gate():\n    getattr(pytest, \"sk\" + \"ip\")(\"later\")\n",
        ] {
            assert_eq!(
                report(&[("helpers.py", old, new)]).test_skips_added,
                1,
                "{new}"
            );
        }
    }

    /// A kind check rewritten as one that every value (almost) passes is lost (attack-43
    /// B20, B21).
    #[test]
    fn a_kind_check_made_vague_is_lost() {
        weakened_and_removed(&[
            (
                "tests/test_r.py",
                "def test_a():\n    r = load()\n    assert type(r.items) == list\n",
                "def test_a():\n    r = load()\n    assert r.items\n    assert isinstance(r.items, object)\n",
                (1, 0),
            ),
            (
                "test/r.spec.js",
                "it(\"a\", function () {\n  const r = load();\n  expect(r).to.be.a(\"number\");\n});\n",
                "it(\"a\", function () {\n  const r = load();\n  expect(r).to.not.be.a(\"symbol\");\n  expect(r).to.exist;\n});\n",
                (1, 0),
            ),
        ]);
    }

    /// An assertion over lines is one: a change to a line below its first changes it, and
    /// each line is read where it is (not where an equal line is).
    #[test]
    fn a_change_below_an_assertion_changes_it() {
        weakened_and_removed(&[
            (
                "tests/test_calc.py",
                "def test_add():\n    assert (\n        add(1, 2) == 4\n    )\n",
                "def test_add():\n    assert (\n        add(1, 2)\n    )\n",
                (1, 0),
            ),
            (
                "tests/test_calc.py",
                "class T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(\n            result,\n            4,\n        )\n",
                "class T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(\n            result,\n            result,\n        )\n",
                (1, 0),
            ),
            (
                "test/math.spec.js",
                "it(\"adds\", function () {\n  assert.strictEqual(\n    1 + 1,\n    3\n  );\n});\n",
                "it(\"adds\", function () {\n  assert.strictEqual(\n    1 + 1,\n    1 + 1\n  );\n});\n",
                (1, 0),
            ),
            // Another expected value: a changed expectation, nothing weakened.
            (
                "tests/test_calc.py",
                "def test_add():\n    assert (\n        add(1, 2) == 4\n    )\n",
                "def test_add():\n    assert (\n        add(1, 2) == 3\n    )\n",
                (0, 0),
            ),
            // Not an assertion's line: a call's argument.
            (
                "tests/test_calc.py",
                "def test_add():\n    result = add(\n        1, 2\n    )\n    assert result == 3\n",
                "def test_add():\n    result = add(\n        1, 3\n    )\n    assert result == 3\n",
                (0, 0),
            ),
            // The lines above the change are read in the state they start in: here inside
            // a long docstring, whose closing quotes open nothing.
            (
                "tests/test_calc.py",
                "def test_add():\n    \"\"\"Adds.\n    line 0\n    line 1\n    line 2\n    line 3\n    line 4\n    line 5\n    line 6\n    line 7\n    line 8\n    line 9\n    line 10\n    line 11\n    line 12\n    line 13\n    line 14\n    line 15\n    line 16\n    line 17\n    line 18\n    line 19\n    line 20\n    line 21\n    line 22\n    line 23\n    line 24\n    line 25\n    line 26\n    line 27\n    line 28\n    line 29\n    line 30\n    line 31\n    line 32\n    line 33\n    line 34\n    line 35\n    line 36\n    line 37\n    line 38\n    line 39\n    line 40\n    line 41\n    line 42\n    line 43\n    line 44\n    \"\"\"\n    assert (\n        add(1, 2) == 4\n    )\n",
                "def test_add():\n    \"\"\"Adds.\n    line 0\n    line 1\n    line 2\n    line 3\n    line 4\n    line 5\n    line 6\n    line 7\n    line 8\n    line 9\n    line 10\n    line 11\n    line 12\n    line 13\n    line 14\n    line 15\n    line 16\n    line 17\n    line 18\n    line 19\n    line 20\n    line 21\n    line 22\n    line 23\n    line 24\n    line 25\n    line 26\n    line 27\n    line 28\n    line 29\n    line 30\n    line 31\n    line 32\n    line 33\n    line 34\n    line 35\n    line 36\n    line 37\n    line 38\n    line 39\n    line 40\n    line 41\n    line 42\n    line 43\n    line 44\n    \"\"\"\n    assert (\n        add(1, 2)\n    )\n",
                (1, 0),
            ),
            // A method chain that goes on below: its matcher's line changes the assertion.
            (
                "test/calc.spec.js",
                "it(\"adds\", function () {\n  expect(add(1, 1))\n    .to.equal(3);\n});\n",
                "it(\"adds\", function () {\n  expect(add(1, 1))\n    .to.exist;\n});\n",
                (1, 0),
            ),
            (
                "test/calc.test.js",
                "test(\"adds\", () => {\n  expect(add(1, 1))\n    .toBe(3);\n});\n",
                "test(\"adds\", () => {\n  expect(add(1, 1))\n    .toBeDefined();\n});\n",
                (1, 0),
            ),
            (
                "test/calc.test.js",
                "test(\"adds\", () => {\n  expect(add(1, 1))\n    .toBe(3);\n});\n",
                "test(\"adds\", () => {\n  expect(add(1, 1))\n    .toBe(2);\n});\n",
                (0, 0),
            ),
            (
                "calc_test.go",
                "func TestAdd(t *testing.T) {\n\tExpect(Add(1, 1)).\n\t\tTo(Equal(3))\n}\n",
                "func TestAdd(t *testing.T) {\n\tExpect(Add(1, 1)).\n\t\tNotTo(BeNil())\n}\n",
                (1, 0),
            ),
            (
                "test/calc.spec.js",
                "it(\"adds\", function () {\n  expect(add(1, 1))\n    .to.equal(3);\n});\n",
                "it(\"adds\", function () {\n  expect(add(1, 1))\n    ?.to.exist;\n});\n",
                (1, 0),
            ),
            // A comment or a blank line inside a chain does not end it.
            (
                "test/calc.spec.js",
                "it(\"adds\", function () {\n  expect(add(1, 1))\n    // the sum\n    .to.equal(3);\n});\n",
                "it(\"adds\", function () {\n  expect(add(1, 1))\n    // the sum\n    .to.exist;\n});\n",
                (1, 0),
            ),
            (
                "calc_test.go",
                "func TestAdd(t *testing.T) {\n\tExpect(Add(1, 1)).\n\n\t\tTo(Equal(3))\n}\n",
                "func TestAdd(t *testing.T) {\n\tExpect(Add(1, 1)).\n\n\t\tNotTo(BeNil())\n}\n",
                (1, 0),
            ),
            // The new `assert (` is equal to test_a's: its own lines below are read.
            (
                "tests/test_calc.py",
                "def test_a():\n    assert (\n        a == 1\n    )\n\n\ndef test_b():\n    assert (  # b\n        b == 2\n    )\n",
                "def test_a():\n    assert (\n        a == 1\n    )\n\n\ndef test_b():\n    assert (\n        b\n    )\n",
                (1, 0),
            ),
        ]);
    }

    /// A class's markers bind nothing beyond it: one statement, no module's globals.
    #[test]
    fn class_markers() {
        assert!(class_marker(
            b"pytestmark = pytest.mark.skip(reason=\"later\")"
        ));
        assert!(class_marker(
            b"pytestmark = [pytest.mark.skipif(WIN, reason=\"posix\")]"
        ));
        assert!(!class_marker(
            b"pytestmark = pytest.mark.skip; globals()[\"pytestmark\"] = 1"
        ));
        assert!(!class_marker(b"pytestmark == 1"));
        assert!(!class_marker(
            b"setattr(sys.modules[__name__], \"pytestmark\", m)"
        ));
    }

    /// A marker is a test's own in its head or its body, in each language's shape of a
    /// declaration; not in its parameters, another argument of its call, or after it.
    #[test]
    fn marks_own_to_a_test() {
        let own = |table: &'static Table, path: &str, text: &str, test: usize, mark: usize| {
            let lines = split_lines(text.as_bytes());
            let context = context::of(table.language, path, b"", text.as_bytes());
            let declares = {
                let mut code = Vec::new();
                let mut tokens = Vec::new();
                lex::strip_line(&table.syntax, State::Code, lines[mark], &mut code);
                pattern::tokenize(&code, &mut tokens);
                pattern::count(table.tests, &tokens, false) > 0
            };
            own_marks(table, &context, &lines, (test, mark), table.skips, declares)
        };
        let (js, py, go, java) = (&javascript::TABLE, &python::TABLE, &go::TABLE, &jvm::JAVA);
        let spec = "test/a.spec.js";
        // Heads: a modifier, a callee picked in brackets.
        assert!(own(js, spec, "it.skip('x', () => {});\n", 0, 0));
        assert!(own(js, spec, "(ok ? it : it.skip)('x', () => {});\n", 0, 0));
        assert!(own(js, spec, "xit('x', function () {\n});\n", 0, 0));
        // Bodies, over lines, with a title holding brackets and an options object first.
        let options = "it('x (1)', { timeout: 5 }, function () {\n  this.skip();\n});\n";
        assert!(own(js, spec, options, 0, 1));
        let nested = "it('x', async ({ page }) => {\n  if (a) {\n    this.skip();\n  }\n});\n";
        assert!(own(js, spec, nested, 0, 2));
        // Not the test's: after it on its line, another argument of its call, below it.
        let after = "it('x', function () {}); before(function () { this.skip(); });\n";
        assert!(!own(js, spec, after, 0, 0));
        let argument = "it('x', function () {\n}, before(function () {\n  this.skip();\n}));\n";
        assert!(!own(js, spec, argument, 0, 2));
        let first = "it('x', before(function () { this.skip(); }), function () {});\n";
        assert!(!own(js, spec, first, 0, 0));
        let below = "it('x', function () {\n});\nbefore(function () {\n  this.skip();\n});\n";
        assert!(!own(js, spec, below, 0, 3));
        let tests = "tests/test_a.py";
        assert!(own(py, tests, "def test_x(): pytest.skip('later')\n", 0, 0));
        let signature = "def test_x(\n    a=1,\n) -> None:\n    pytest.skip('later')\n";
        assert!(own(py, tests, signature, 0, 3));
        let string = "def test_x(f=lambda: 1):\n    x = '''\nnot code\n'''\n    pytest.skip('x')\n";
        assert!(own(py, tests, string, 0, 4));
        let module = "pytest.skip('x', allow_module_level=True)";
        assert!(!own(
            py,
            tests,
            &format!("def test_x(_={module}): pass\n"),
            0,
            0
        ));
        let over_lines = format!("def test_x(\n    _={module},\n):\n    pass\n");
        assert!(!own(py, tests, &over_lines, 0, 1));
        let after = format!("def test_x():\n    pass\n{module}\n");
        assert!(!own(py, tests, &after, 0, 2));
        // Go: a method after its receiver; Java: annotations on the method's line.
        let method = "func (s *Suite) TestX(t *testing.T) {\n\tt.Skip(\"later\")\n}\n";
        assert!(own(go, "a_test.go", method, 0, 1));
        let annotated = "@Disabled(\"x\") @Test void x() {\n}\n";
        assert!(own(java, "src/test/java/ATest.java", annotated, 0, 0));
    }

    #[test]
    fn runners_collect_by_their_default_naming() {
        use Language::{Go, JavaScript, Python, Rust};
        for (language, path, collected) in [
            (Go, "pkg/calc_test.go", true),
            (Go, "pkg/calc.go", false),
            (Go, "pkg/_calc_test.go", false),
            (Go, "pkg/testdata/calc_test.go", false),
            (Python, "tests/test_calc.py", true),
            (Python, "app/tests.py", true),
            (Python, "calc_test.py", true),
            (Python, "tests/calc.py", false),
            (JavaScript, "web/sum.test.js", true),
            (JavaScript, "web/sum.spec.tsx", true),
            (JavaScript, "web/__tests__/sum.js", true),
            (JavaScript, "test/sum.js", true),
            (JavaScript, "spec/spec.mocks.js", true),
            (JavaScript, "web/sum.js", false),
            (JavaScript, "web/testing.js", false),
            (Rust, "src/calc.rs", true),
        ] {
            assert_eq!(runner_collects(language, path), collected, "{path}");
        }
    }

    #[test]
    fn languages_by_extension() {
        assert_eq!(language_of("src/lib.rs"), Some(Language::Rust));
        assert_eq!(language_of("a/test_x.py"), Some(Language::Python));
        assert_eq!(language_of("web/App.test.TSX"), Some(Language::JavaScript));
        assert_eq!(language_of("x.mts"), Some(Language::JavaScript));
        assert_eq!(language_of("pkg/a_test.go"), Some(Language::Go));
        assert_eq!(language_of("A.java"), Some(Language::Java));
        assert_eq!(language_of("build.gradle.kts"), Some(Language::Kotlin));
        assert_eq!(language_of("README.md"), None);
        assert_eq!(language_of("Makefile"), None);
        assert_eq!(language_of("dir.rs/file"), None);
        assert_eq!(language_of(".rs"), None);
    }

    #[test]
    fn unknown_language_is_not_analysed() {
        assert_eq!(analyze_file("notes.txt", None, Some(b"#[test]\n")), None);
    }

    #[test]
    fn added_and_deleted_files() {
        let test = b"#[test]\nfn a() { assert!(ok()); }\n";
        let added = analyze_file("tests/a.rs", None, Some(test)).unwrap();
        assert_eq!((added.tests_removed, added.assertions_removed), (-1, -1));
        assert!(!added.removes_or_skips_tests);
        let deleted = analyze_file("tests/a.rs", Some(test), None).unwrap();
        assert_eq!((deleted.tests_removed, deleted.assertions_removed), (1, 1));
        assert!(deleted.removes_or_skips_tests);
    }

    #[test]
    fn binary_side_counts_as_empty() {
        let test = b"#[test]\nfn a() {}\n";
        let mut binary = vec![0u8; 16];
        binary.extend_from_slice(test);
        let file = analyze_file("a.rs", Some(test), Some(&binary)).unwrap();
        assert_eq!(file.skipped, Some(Skipped::Binary));
        assert_eq!(file.tests_removed, 1);
        let both = analyze_file("a.rs", Some(&binary), Some(&binary[1..])).unwrap();
        assert_eq!(both.tests_removed, 0);
    }

    #[test]
    fn too_large_is_skipped_with_a_note() {
        let big = vec![b'\n'; MAX_FILE_BYTES + 1];
        let file = analyze_file("a.rs", None, Some(&big)).unwrap();
        assert_eq!(
            file.skipped,
            Some(Skipped::TooLarge {
                bytes: MAX_FILE_BYTES + 1
            })
        );
        assert!(file.findings.is_empty());
        // Over the budget before the change: nothing is counted.
        let test = b"#[test]\nfn a() { assert!(x); }\n";
        let file = analyze_file("a.rs", Some(&big), Some(test)).unwrap();
        assert_eq!((file.tests_removed, file.assertions_removed), (0, 0));
        // ... so the change's counts are unknown, not zero.
        assert!(file.uncounted);
        assert!(combine(vec![file]).uncounted);
        let counted = analyze_file("a.rs", None, Some(&big)).unwrap();
        assert!(!counted.uncounted && !combine(vec![counted]).uncounted);
    }

    #[test]
    fn a_new_side_over_the_budget_counts_as_empty() {
        // A test deleted, and one comment line that takes the file over the budget.
        let old = "#[test]\nfn a() { assert!(x); }\n#[test]\nfn b() { assert!(y); }\n";
        let new = format!(
            "#[test]\nfn a() {{ assert!(x); }}\n// {}\n",
            "x".repeat(MAX_FILE_BYTES)
        );
        let file = analyze_file("src/lib.rs", Some(old.as_bytes()), Some(new.as_bytes())).unwrap();
        assert_eq!(file.skipped, Some(Skipped::TooLarge { bytes: new.len() }));
        assert_eq!((file.tests_removed, file.assertions_removed), (2, 2));
        assert!(file.removes_or_skips_tests);
    }

    #[test]
    fn findings_point_at_old_and_new_lines() {
        let old = "fn f() {}\n#[test]\nfn a() {\n    assert_eq!(f(), 1);\n}\n";
        let new = "fn f() {}\n#[ignore]\n#[test]\nfn a() {\n}\n";
        let file = analyze_file("src/lib.rs", Some(old.as_bytes()), Some(new.as_bytes())).unwrap();
        let seen: Vec<_> = file
            .findings
            .iter()
            .map(|f| (f.kind, f.side, f.line, f.text.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                (FindingKind::SkipAdded, Side::New, 2, "#[ignore]"),
                (
                    FindingKind::AssertionRemoved,
                    Side::Old,
                    4,
                    "assert_eq!(f(), 1);"
                ),
            ]
        );
    }

    #[test]
    fn commenting_out_a_test_with_a_block_comment_removes_it() {
        let old = "#[test]\nfn a() {\n    assert!(x);\n}\n";
        let new = "/*\n#[test]\nfn a() {\n    assert!(x);\n}\n*/\n";
        let file = analyze_file("a.rs", Some(old.as_bytes()), Some(new.as_bytes())).unwrap();
        assert_eq!((file.tests_removed, file.assertions_removed), (1, 1));
        let first = &file.findings[0];
        assert_eq!(
            (first.kind, first.side, first.line, first.unchanged),
            (FindingKind::TestRemoved, Side::Old, 1, true)
        );
    }

    /// Counts of a whole file, as if it were deleted.
    fn whole(path: &str, text: &str) -> (i64, i64, i64) {
        let file = analyze_file(path, Some(text.as_bytes()), None).unwrap();
        (
            file.tests_removed,
            -file.test_skips_added,
            file.assertions_removed,
        )
    }

    /// A merge's own counts: what a clean merge of the two sides would keep and the result
    /// does not, with lines matched by text.
    #[test]
    fn a_merge_counts_its_own_resolution() {
        let test = |n: u32| format!("\n\ndef test_{n}():\n    assert {n}\n");
        let file = |tests: &[u32]| {
            tests
                .iter()
                .fold("import pytest\n".to_owned(), |text, &n| text + &test(n))
        };
        let own = |base: &[u32], closest: &[u32], other: &[u32], merged: &[u32]| {
            let path = "tests/test_a.py";
            let (base, closest, other, merged) =
                (file(base), file(closest), file(other), file(merged));
            let analyze = |old: &str, new: &str| {
                analyze_file(path, Some(old.as_bytes()), Some(new.as_bytes())).unwrap()
            };
            let mut analysis = analyze(&closest, &merged);
            analysis.own_in_merge(&analyze(&base, &other), &analyze(&other, &merged));
            analysis.tests_removed
        };
        // Both sides added test_2; the merge keeps it once, and test_3 from one side.
        assert_eq!(own(&[1], &[1, 2, 3], &[1, 2], &[1, 2, 3]), 0);
        assert_eq!(own(&[1], &[1, 2], &[1, 2, 3], &[1, 2, 3]), 0);
        // The other side removed test_2; the merge follows it.
        assert_eq!(own(&[1, 2], &[1, 2, 3], &[1], &[1, 3]), 0);
        // The other side added test_3; the resolution drops it.
        assert_eq!(own(&[1], &[1, 2], &[1, 3], &[1, 2]), 1);
        // The resolution drops test_1, which both sides kept.
        assert_eq!(own(&[1], &[1, 2], &[1, 3], &[2, 3]), 1);
        // The other side removed test_2 and the resolution drops test_1 as well.
        assert_eq!(own(&[1, 2], &[1, 2, 3], &[1], &[3]), 1);
        // The other side moved test_1 (removed and added again); the resolution drops it.
        assert_eq!(own(&[1, 2], &[1, 2, 3], &[2, 1], &[2, 3]), 1);
    }

    /// A merge's test settings: one the other side changed and the merge keeps as that
    /// side left it is not the merge's own; one the resolution sets otherwise is.
    #[test]
    fn a_merge_owns_only_the_settings_it_resolves() {
        let ini = |envs: &str, addopts: &str| {
            format!("[tox]\nenvlist = {envs}\n\n[pytest]\naddopts = {addopts}\n")
        };
        let own = |base: &str, closest: &str, other: &str, merged: &str| {
            let analyze = |old: &str, new: &str| {
                analyze_file("tox.ini", Some(old.as_bytes()), Some(new.as_bytes())).unwrap()
            };
            let mut analysis = analyze(closest, merged);
            analysis.own_in_merge(&analyze(base, other), &analyze(other, merged));
            analysis.test_config_changed
        };
        let base = ini("py38", "-ra");
        // The other side changed the envlist; the merge takes it: none of the merge's own.
        assert!(
            own(
                &base,
                &ini("py38", "-ra -q"),
                &ini("py38,py39", "-ra"),
                &ini("py38,py39", "-ra -q")
            )
            .is_empty()
        );
        // The resolution sets the envlist to neither side's value: the merge's own.
        assert_eq!(
            own(
                &base,
                &ini("py38", "-ra -q"),
                &ini("py38,py39", "-ra"),
                &ini("py39", "-ra -q")
            ),
            ["[tox] envlist"]
        );
        // A setting no side changed, changed by the resolution: the merge's own.
        assert_eq!(
            own(
                &base,
                &ini("py38", "-ra -q"),
                &ini("py38,py39", "-ra"),
                &ini("py38,py39", "-ra -q -k fast")
            ),
            ["[pytest] addopts"]
        );
    }

    #[test]
    fn nets_are_whole_file_differences() {
        let cases = [
            (
                "a.rs",
                "#[test]\nfn a() { assert!(x); }\n#[test]\nfn b() {}\n",
                "/*\n#[test]\nfn a() { assert!(x); }\n*/\n#[test]\n#[ignore]\nfn b() {}\n",
            ),
            (
                "test_a.py",
                "def test_a():\n    assert x\n\ndef test_b():\n    pass\n",
                "\"\"\"\ndef test_a():\n    assert x\n\"\"\"\n@pytest.mark.skip\ndef test_b():\n    pass\n",
            ),
            (
                "a.test.js",
                "it('a', () => {\n  expect(1).toBe(1);\n});\n",
                "const s = `\nit('a', () => {\n  expect(1).toBe(1);\n`;\ndescribe.only('b', () => {});\n",
            ),
        ];
        for (path, old, new) in cases {
            let file = analyze_file(path, Some(old.as_bytes()), Some(new.as_bytes())).unwrap();
            let (old_tests, old_skips, old_asserts) = whole(path, old);
            let (new_tests, new_skips, new_asserts) = whole(path, new);
            assert_eq!(
                (
                    file.tests_removed,
                    file.test_skips_added,
                    file.assertions_removed
                ),
                (
                    old_tests - new_tests,
                    new_skips - old_skips,
                    old_asserts - new_asserts
                ),
                "{path}"
            );
            assert!(
                file.tests_removed > 0 && file.removes_or_skips_tests,
                "{path}"
            );
        }
    }

    #[test]
    fn long_lines_are_cut() {
        let text = line_text(format!("  assert!({});\n", "x".repeat(200)).as_bytes());
        assert_eq!(text.chars().count(), MAX_TEXT_CHARS + 1);
        assert!(text.ends_with('…'));
        assert_eq!(line_text("  é \r\n".as_bytes()), "é");
    }

    #[test]
    fn combine_nets_across_files_and_floors_at_the_end() {
        let removed = ("a.rs", "#[test]\nfn a() {}\n", "");
        let added_two = ("b.rs", "", "#[test]\nfn b() {}\n#[test]\nfn c() {}\n");
        let report = report(&[removed, added_two]);
        assert_eq!(report.tests_removed, 0);
        assert_eq!(report.findings().count(), 0);
        // The per-file values stay signed.
        assert_eq!(report.files[0].tests_removed, 1);
        assert_eq!(report.files[1].tests_removed, -2);
        assert!(report.modifies_tests());
    }

    #[test]
    fn combine_keeps_findings_of_counts_above_zero() {
        let report = report(&[
            (
                "a.rs",
                "#[test] fn a() {}\n#[test] fn b() {}\n",
                "#[test] fn c() {}\n",
            ),
            ("b.rs", "fn x() {}\n", "fn y() {}\n"),
        ]);
        assert_eq!(report.tests_removed, 1);
        assert_eq!(report.files.len(), 1);
        let kinds: Vec<_> = report.findings().map(|f| (f.kind, f.line)).collect();
        assert_eq!(
            kinds,
            [
                (FindingKind::TestRemoved, 1),
                (FindingKind::TestRemoved, 2),
                (FindingKind::TestAdded, 1),
            ]
        );
    }

    #[test]
    fn empty_change_is_empty() {
        assert_eq!(combine(Vec::new()), TamperReport::default());
        let same = analyze_file("a.rs", Some(b"#[test]\n"), Some(b"#[test]\n")).unwrap();
        assert_eq!(same.findings, []);
    }

    /// A Rust test module of about `lines` lines; `changed` edits the assertion of 250
    /// tests spread over the module (500 changed lines).
    fn large_module(lines: usize, changed: bool) -> String {
        let mut text = String::from("#[cfg(test)]\nmod tests {\n");
        let tests = lines / 7;
        for i in 0..tests {
            let expected = if changed && (i * 250) % tests < 250 {
                format!("{i} + 2 - 1")
            } else {
                format!("{i} + 1")
            };
            text.push_str(&format!(
                "    #[test]\n    fn case_{i}() {{\n        // case {i}: \"quoted\" /* x */\n        let s = \"assert!(x)\";\n        assert_eq!(add({i}, 1), {expected});\n    }}\n\n"
            ));
        }
        text.push_str("}\n");
        text
    }

    #[test]
    #[ignore = "timing; run with `cargo test --release --lib tamper::tests::timing -- --ignored --nocapture`"]
    fn timing_of_a_large_diff() {
        let (old, new) = (large_module(10_000, false), large_module(10_000, true));
        let mut best = std::time::Duration::MAX;
        for _ in 0..20 {
            let start = std::time::Instant::now();
            let file = analyze_file("src/lib.rs", Some(old.as_bytes()), Some(new.as_bytes()));
            best = best.min(start.elapsed());
            assert_eq!(file.unwrap().findings.len(), 500);
        }
        println!(
            "{} lines, {} bytes, 500 changed lines: best of 20 {best:?}",
            old.lines().count(),
            old.len()
        );
    }

    #[test]
    fn multi_language_report_snapshot() {
        let report = report(&[
            (
                "src/parse.rs",
                "pub fn parse() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn parses() {\n        assert_eq!(super::parse(), ());\n    }\n\n    #[test]\n    fn flaky() {\n        assert!(true);\n    }\n}\n",
                "pub fn parse() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    #[ignore = \"flaky\"]\n    fn flaky() {\n        assert!(true);\n    }\n}\n",
            ),
            (
                "tests/test_api.py",
                "import pytest\n\n\ndef test_get(client):\n    assert client.get('/').status == 200\n    assert client.get('/x').status == 404\n",
                "import pytest\n\n\n@pytest.mark.skip(reason=\"later\")\ndef test_get(client):\n    assert client.get('/').status == 200\n",
            ),
            (
                "web/app.test.ts",
                "describe('app', () => {\n  it('renders', () => {\n    expect(render()).toBeTruthy();\n  });\n});\n",
                "describe('app', () => {\n  it.only('renders', () => {\n    expect(render()).toBeTruthy();\n  });\n});\n",
            ),
            (
                "pkg/server_test.go",
                "package pkg\n\nfunc TestServe(t *testing.T) {\n\tif err := serve(); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n",
                "package pkg\n\nfunc TestServe(t *testing.T) {\n\tt.Skip(\"broken on CI\")\n\tif err := serve(); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n",
            ),
            (
                "app/src/test/java/AppTest.java",
                "class AppTest {\n    @Test\n    void starts() {\n        assertTrue(App.start());\n    }\n}\n",
                "class AppTest {\n    @Disabled(\"hangs\")\n    @Test\n    void starts() {\n    }\n}\n",
            ),
            ("README.md", "# x\n", "# y\n"),
        ]);
        insta::with_settings!({snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots")}, {
            insta::assert_json_snapshot!(report);
        });
    }
}
