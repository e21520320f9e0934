//! The ways a failing suite is made to pass without the code being right (issue 19), end to
//! end: each is a staged change in a real repository on branch `feature`, judged by the
//! built binary. `astrix intent` must carry the counts, and `astrix check` as an agent
//! (`CLAUDECODE=1`) must hold the change under the built-in default policy, naming the rule
//! that the tampering trips. Then the honest changes that must count nothing: a dependency
//! bump, assertion styles switched, helpers whose names look like tests or assertions.
//!
//! Grouped by class: tests disabled instead of skipped (a test that no longer runs is a
//! removed test), skips through aliases, assertions neutered without being removed, the
//! runner told to look away, and the test paths the defaults know.

use serde_json::Value;

use crate::common::Sandbox;

/// What `astrix intent` says about test tampering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Counts {
    tests_removed: u64,
    test_skips_added: u64,
    assertions_removed: u64,
    assertions_weakened: u64,
    test_config_changed: u64,
    modifies_tests: bool,
}

/// A repository on branch `feature` whose first commit holds `files`.
fn repo(files: &[(&str, &str)]) -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.git(&["init", "-q", "-b", "feature"]);
    for (path, text) in files {
        sandbox.write(path, text);
    }
    sandbox.git(&["add", "-A"]);
    sandbox.git(&["commit", "-q", "-m", "base"]);
    sandbox
}

/// Stages `changes` (path, new content or `None` to delete) and returns the counts.
fn stage(sandbox: &Sandbox, changes: &[(&str, Option<&str>)]) -> Counts {
    for (path, text) in changes {
        match text {
            Some(text) => {
                sandbox.write(path, text);
            }
            None => std::fs::remove_file(sandbox.path().join(path)).unwrap(),
        }
    }
    sandbox.git(&["add", "-A"]);
    let output = sandbox.astrix().arg("intent").output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let intent: Value = serde_json::from_slice(&output.stdout).unwrap();
    let diff = &intent["diff"];
    let count = |name: &str| {
        diff[name]
            .as_u64()
            .unwrap_or_else(|| panic!("`{name}` is a count in {diff}"))
    };
    Counts {
        tests_removed: count("tests_removed"),
        test_skips_added: count("test_skips_added"),
        assertions_removed: count("assertions_removed"),
        assertions_weakened: count("assertions_weakened"),
        test_config_changed: count("test_config_changed"),
        modifies_tests: diff["modifies_tests"] == "true",
    }
}

/// `astrix check` as an agent: its exit code and stdout.
fn check_as_agent(sandbox: &Sandbox) -> (Option<i32>, String) {
    let output = sandbox
        .astrix()
        .arg("check")
        .env("CLAUDECODE", "1")
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// `text` with the one occurrence of `from` replaced by `to`.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "one {from:?} in {text}");
    text.replacen(from, to, 1)
}

/// Commits `base`, stages `changes`, and checks the counts, then that an agent's change is
/// held by `rule` of the built-in policy and the report shows `shown`.
fn held(
    base: &[(&str, &str)],
    changes: &[(&str, Option<&str>)],
    expected: Counts,
    rule: &str,
    shown: &str,
) {
    let sandbox = repo(base);
    assert_eq!(stage(&sandbox, changes), expected);
    let (code, report) = check_as_agent(&sandbox);
    assert_eq!(code, Some(3), "{report}");
    assert!(report.contains(&format!("[{rule}]")), "{rule} in {report}");
    assert!(report.contains(shown), "{shown:?} in {report}");
}

/// Commits `base`, stages `changes`, and checks that nothing is counted; `modifies_tests`
/// is what the paths alone say.
fn counts_nothing(base: &[(&str, &str)], changes: &[(&str, Option<&str>)], in_tests: bool) {
    let sandbox = repo(base);
    assert_eq!(
        stage(&sandbox, changes),
        Counts {
            modifies_tests: in_tests,
            ..Counts::default()
        }
    );
    let (_, report) = check_as_agent(&sandbox);
    assert!(!report.contains("test tampering"), "{report}");
}

const TESTS_REMOVED: &str = "agents-removing-tests";
const SKIPPED: &str = "agents-skipping-tests";
const ASSERTIONS_REMOVED: &str = "agents-removing-assertions";
const WEAKENED: &str = "agents-weakening-assertions";
const CONFIG: &str = "agents-test-config";
const TOUCHING: &str = "agents-touching-tests";

fn removed(tests: u64, assertions: u64) -> Counts {
    Counts {
        tests_removed: tests,
        assertions_removed: assertions,
        modifies_tests: true,
        ..Counts::default()
    }
}

fn skipped(skips: u64) -> Counts {
    Counts {
        test_skips_added: skips,
        modifies_tests: true,
        ..Counts::default()
    }
}

fn weakened(count: u64) -> Counts {
    Counts {
        assertions_weakened: count,
        modifies_tests: true,
        ..Counts::default()
    }
}

/// Nothing counted, in a change to tests (`modifies_tests`).
fn touching() -> Counts {
    Counts {
        modifies_tests: true,
        ..Counts::default()
    }
}

fn config(count: u64) -> Counts {
    Counts {
        test_config_changed: count,
        modifies_tests: true,
        ..Counts::default()
    }
}

// ---------------------------------------------------------------------------------------
// Fixtures

/// A library with a `#[cfg(test)]` module in `src/` (no test path): two tests, two
/// assertions.
const RUST_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 3), 5);
    }

    #[test]
    fn adds_negatives() {
        assert_eq!(add(-1, -2), -3);
    }
}
";

const PYTEST: &str = "from calc import add


def test_add():
    assert add(1, 2) == 3


def test_add_negative():
    assert add(-1, -2) == -3
";

const UNITTEST: &str = "import unittest

from calc import add


class AddTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 3)

    def test_zero(self):
        self.assertEqual(add(0, 0), 0)
";

const GO_TEST: &str = "package calc

import \"testing\"

func TestAdd(t *testing.T) {
\tif Add(1, 2) != 3 {
\t\tt.Fatal(\"1 + 2\")
\t}
}

func TestZero(t *testing.T) {
\tif Add(0, 0) != 0 {
\t\tt.Fatal(\"0 + 0\")
\t}
}
";

const JEST: &str = "const { sum } = require('../src/sum');

describe('sum', () => {
  it('adds', () => {
    expect(sum(1, 2)).toBe(3);
  });

  it('adds zero', () => {
    expect(sum(0, 0)).toBe(0);
  });
});
";

const JUNIT: &str = "package calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        assertEquals(3, Calc.add(1, 2));
    }
}
";

// ---------------------------------------------------------------------------------------
// Disabling instead of skipping: a test that no longer runs is a removed test

mod disabling {
    use super::*;

    /// pytest no longer collects a function whose `__test__` is false, and skips a test
    /// whose parameter set is empty; `s = self.skipTest` is a skip under another name.
    #[test]
    fn python_tests_switched_off_by_attribute_parameters_or_a_local_name() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&format!("{PYTEST}\ntest_add.__test__ = False\n")),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "test_add.__test__ = False",
        );
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    PYTEST,
                    "def test_add():",
                    "@pytest.mark.parametrize(\"x\", [])\ndef test_add(x):",
                )),
            )],
            skipped(1),
            SKIPPED,
            "@pytest.mark.parametrize(\"x\", [])",
        );
        held(
            &[("tests/test_calc.py", UNITTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    UNITTEST,
                    "        self.assertEqual(add(1, 2), 3)\n",
                    "        s = self.skipTest\n        s(\"later\")\n        self.assertEqual(add(1, 2), 3)\n",
                )),
            )],
            skipped(1),
            SKIPPED,
            "s(\"later\")",
        );
    }

    #[test]
    fn rust_cfg_not_test_on_the_test_module() {
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(RUST_LIB, "#[cfg(test)]", "#[cfg(not(test))]")),
            )],
            removed(2, 2),
            TESTS_REMOVED,
            "src/lib.rs:5  code below no longer runs: #[cfg(not(test))]",
        );
    }

    #[test]
    fn rust_cfg_that_is_never_true_on_the_test_module() {
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(RUST_LIB, "#[cfg(test)]", "#[cfg(all(test, any()))]")),
            )],
            removed(2, 2),
            TESTS_REMOVED,
            "test removed: #[test]",
        );
    }

    /// A change inside a `#[cfg(test)]` module of a `src/` file is a test change: an
    /// expected value edited there counts nothing, and an agent's change is held for review.
    #[test]
    fn rust_inline_test_module_changed() {
        let sandbox = repo(&[("src/lib.rs", RUST_LIB)]);
        let counts = stage(
            &sandbox,
            &[(
                "src/lib.rs",
                Some(&edit(
                    RUST_LIB,
                    "assert_eq!(add(2, 3), 5);",
                    "assert_eq!(add(2, 3), 6);",
                )),
            )],
        );
        assert_eq!(counts, touching());
        let (code, report) = check_as_agent(&sandbox);
        assert_eq!(code, Some(3), "{report}");
        assert!(report.contains(&format!("[{TOUCHING}]")), "{report}");
        // The library part of the same file is no test change.
        let sandbox = repo(&[("src/lib.rs", RUST_LIB)]);
        let counts = stage(
            &sandbox,
            &[(
                "src/lib.rs",
                Some(&edit(RUST_LIB, "    a + b\n", "    b + a\n")),
            )],
        );
        assert!(!counts.modifies_tests, "{counts:?}");
    }

    /// The test module is found by its blocks, not by rustfmt's layout: an expected value
    /// edited in a test item written any other way is a test change too (indented, on one
    /// line with its attribute, its `{` on a line of its own, a comment or a raw string
    /// whose lines start at column 0 in between). Each layout once let an agent's edit
    /// through.
    #[test]
    fn rust_inline_test_module_in_any_layout() {
        let library = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n";
        for (name, tests) in [
            (
                "indented",
                "    #[cfg(test)]\n    mod tests {\n        use super::*;\n        #[test]\n        fn adds() {\n            assert_eq!(add(2, 3), 5);\n        }\n    }\n",
            ),
            (
                "one line",
                "#[cfg(test)] mod tests {\n    use super::*;\n    #[test] fn adds() {\n        assert_eq!(add(2, 3), 5);\n    }\n}\n",
            ),
            (
                "brace below",
                "#[cfg(test)]\nmod tests\n{\n    use super::*;\n    #[test]\n    fn adds()\n    {\n        assert_eq!(add(2, 3), 5);\n    }\n}\n",
            ),
            (
                "comment between",
                "#[cfg(test)]\n/* the tests\n*/\nmod tests {\n    use super::*;\n    #[test]\n    fn adds() {\n        assert_eq!(add(2, 3), 5);\n    }\n}\n",
            ),
            (
                "raw string",
                "#[cfg(test)]\nmod tests {\n    use super::*;\n    const INPUT: &str = r#\"\n}\nfn main() {\n\"#;\n    #[test]\n    fn adds() {\n        assert_eq!(add(2, 3), 5);\n    }\n}\n",
            ),
        ] {
            let text = format!("{library}{tests}");
            let sandbox = repo(&[("src/lib.rs", &text)]);
            let counts = stage(
                &sandbox,
                &[(
                    "src/lib.rs",
                    Some(&edit(&text, "add(2, 3), 5)", "add(2, 3), 6)")),
                )],
            );
            assert!(counts.modifies_tests, "{name}: {counts:?}");
            let (code, report) = check_as_agent(&sandbox);
            assert_eq!(code, Some(3), "{name}: {report}");
            assert!(
                report.contains(&format!("[{TOUCHING}]")),
                "{name}: {report}"
            );
            // The library function above it is no test change.
            let sandbox = repo(&[("src/lib.rs", &text)]);
            let counts = stage(
                &sandbox,
                &[(
                    "src/lib.rs",
                    Some(&edit(&text, "    a + b\n", "    b + a\n")),
                )],
            );
            assert!(!counts.modifies_tests, "{name}: {counts:?}");
        }
    }

    /// The cases of [`rust_test_code_however_written`]: name, base and the agent's edit.
    #[expect(
        clippy::too_many_lines,
        reason = "a table of cases, one per way of writing"
    )]
    fn rust_test_code_cases() -> Vec<(&'static str, String, String)> {
        let library = "pub fn render(n: i32) -> String {\n    format!(\"sum={}\", n)\n}\n\n";
        let module = |attribute: &str, body: &str| {
            format!(
                "{library}{attribute}\nmod tests {{\n    use super::*;\n    #[test]\n    fn renders() {{\n{body}    }}\n}}\n"
            )
        };
        let check = "        assert_eq!(render(3), \"sum=3\");\n";
        let multi_line = "        let want = \"\nsum=3\";\n        assert_eq!(format!(\"\\n{}\", render(3)), want);\n";
        vec![
            (
                "an expected value in a multi-line string",
                module("#[cfg(test)]", multi_line),
                module("#[cfg(test)]", &multi_line.replace("sum=3", "sum=4")),
            ),
            (
                "statements commented out",
                module("#[cfg(test)]", check),
                module("#[cfg(test)]", &format!("        /*\n{check}        */\n")),
            ),
            (
                "code after a comment's end",
                module("#[cfg(test)]", &format!("        let n = 3;\n{check}")),
                module(
                    "#[cfg(test)]",
                    &format!("        /*\n        */ let n = 4;\n{check}"),
                ),
            ),
            (
                "an attribute added above the module",
                module("#[cfg(test)]", check),
                module("#[cfg(miri)]\n#[cfg(test)]", check),
            ),
            (
                "a cfg with a not",
                module("#[cfg(all(test, not(miri)))]", check),
                module("#[cfg(all(test, not(miri)))]", &check.replace("3)", "4)")),
            ),
            (
                "a cfg_attr",
                module("#[cfg_attr(not(test), cfg(any()))]", check),
                module(
                    "#[cfg_attr(not(test), cfg(any()))]",
                    &check.replace("3)", "4)"),
                ),
            ),
            (
                "# and [cfg(test)] on two lines, with a vertical tab",
                module("#\n\u{b}[cfg(test)]", check),
                module("#\n\u{b}[cfg(test)]", &check.replace("3)", "4)")),
            ),
            (
                "a test attribute from the root, raw, or renamed",
                format!(
                    "{library}use core::prelude::v1::test as check;\n#[::core::prelude::v1::test]\nfn a() {{\n    assert_eq!(render(1), \"sum=1\");\n}}\n#[r#test]\nfn b() {{\n    assert_eq!(render(2), \"sum=2\");\n}}\n#[check]\nfn c() {{\n    assert_eq!(render(3), \"sum=3\");\n}}\n"
                ),
                format!(
                    "{library}use core::prelude::v1::test as check;\n#[::core::prelude::v1::test]\nfn a() {{\n    assert_eq!(render(1), \"sum=1\");\n}}\n#[r#test]\nfn b() {{\n    assert_eq!(render(2), \"sum=2\");\n}}\n#[check]\nfn c() {{\n    assert_eq!(render(4), \"sum=4\");\n}}\n"
                ),
            ),
            (
                "a block in a test's signature",
                format!(
                    "{library}#[test]\nfn a() -> Result<(), [u8; {{ 1 }}]> {{\n    assert_eq!(render(1), \"sum=1\");\n    Ok(())\n}}\n"
                ),
                format!(
                    "{library}#[test]\nfn a() -> Result<(), [u8; {{ 1 }}]> {{\n    assert_eq!(render(2), \"sum=2\");\n    Ok(())\n}}\n"
                ),
            ),
            (
                "a test macro's invocation",
                format!(
                    "{library}macro_rules! case {{\n    ($name:ident, $n:expr, $want:expr) => {{\n        #[test]\n        fn $name() {{\n            assert_eq!(render($n), $want);\n        }}\n    }};\n}}\ncase!(three, 3, \"sum=3\");\n"
                ),
                format!(
                    "{library}macro_rules! case {{\n    ($name:ident, $n:expr, $want:expr) => {{\n        #[test]\n        fn $name() {{\n            assert_eq!(render($n), $want);\n        }}\n    }};\n}}\ncase!(three, 3, \"sum=4\");\n"
                ),
            ),
            (
                "a doctest",
                format!("/// ```\n/// assert_eq!(x::render(3), \"sum=3\");\n/// ```\n{library}"),
                format!("/// ```\n/// assert_eq!(x::render(3), \"sum=4\");\n/// ```\n{library}"),
            ),
            (
                "a doctest in a ~~~ fence of a block doc comment",
                format!(
                    "/**\n * ~~~\n * assert_eq!(x::render(3), \"sum=3\");\n * ~~~\n */\n{library}"
                ),
                format!(
                    "/**\n * ~~~\n * assert_eq!(x::render(3), \"sum=4\");\n * ~~~\n */\n{library}"
                ),
            ),
            (
                "an indented doctest",
                format!(
                    "/// Renders:\n///\n///     assert_eq!(x::render(3), \"sum=3\");\n{library}"
                ),
                format!(
                    "/// Renders:\n///\n///     assert_eq!(x::render(3), \"sum=4\");\n{library}"
                ),
            ),
            (
                "a doctest turned into prose by a text fence above it",
                format!("/// ```\n/// assert_eq!(x::render(3), \"sum=4\");\n/// ```\n{library}"),
                format!(
                    "/// ```text\n/// ```\n/// assert_eq!(x::render(3), \"sum=4\");\n/// ```\n{library}"
                ),
            ),
        ]
    }

    /// What a reviewer found once the test module was found by its blocks, each with its
    /// base and the agent's edit: lines that start inside a string or a comment (an
    /// expected value in a multi-line string, statements commented out, code after a
    /// comment's end), attributes written as Rust allows but rustfmt never does (`#` and
    /// `[test]` on two lines, a vertical tab, a path from the root, an alias, `cfg_attr`),
    /// a `cfg` with a `not` in it, an attribute added above the test module, a `{` in a
    /// test's signature, a test macro's invocation, and a doctest. Each is a test change:
    /// held, and the report names the file.
    #[test]
    fn rust_test_code_however_written() {
        for (name, base, new) in &rust_test_code_cases() {
            let sandbox = repo(&[("src/lib.rs", base)]);
            let counts = stage(&sandbox, &[("src/lib.rs", Some(new))]);
            assert!(counts.modifies_tests, "{name}: {counts:?}");
            let (code, report) = check_as_agent(&sandbox);
            assert_eq!(code, Some(3), "{name}: {report}");
            assert!(
                report.contains(&format!("[{TOUCHING}]")) && report.contains("files: src/lib.rs"),
                "{name}: {report}"
            );
        }
    }

    /// A comment edited inside a test module, and a multi-line attribute of library code
    /// in a file with tests (clap's `#[arg(…)]`), or an inner attribute above the test
    /// module, are no test change; neither is code under `cfg(any(test, feature = "std"))`,
    /// which non-test builds compile too.
    #[test]
    fn rust_comments_and_library_attributes_beside_tests() {
        let base = "#![allow(unused)]\n#[derive(\n    Debug,\n    Clone,\n)]\npub struct Args {\n    #[arg(\n        long = \"and\",\n        help = \"Both\",\n    )]\n    pub and: bool,\n}\n#[cfg(any(test, feature = \"std\"))]\nconst WIDTH: usize = 8;\n\n#[cfg(test)]\nmod tests {\n    // Checks the width.\n    #[test]\n    fn width() {\n        assert_eq!(super::WIDTH, 8);\n    }\n}\n";
        for (from, to) in [
            (
                "    // Checks the width.\n",
                "    // Checks the width of a word.\n",
            ),
            (
                "        help = \"Both\",\n",
                "        help = \"Both patterns\",\n",
            ),
            ("    Clone,\n", "    Clone,\n    PartialEq,\n"),
            ("#![allow(unused)]\n", "#![allow(unused, dead_code)]\n"),
            ("const WIDTH: usize = 8;", "const WIDTH: usize = 16;"),
        ] {
            let sandbox = repo(&[("src/lib.rs", base)]);
            let counts = stage(&sandbox, &[("src/lib.rs", Some(&edit(base, from, to)))]);
            assert!(!counts.modifies_tests, "{from}: {counts:?}");
        }
    }

    /// Library code beside test code, with attributes that only look like a test item's:
    /// a `#[cfg(test)]` variant, field, match arm or parameter before a `{`, a macro that
    /// reads `cfg!(test)`, a public `mod test` of helpers shipped to users.
    #[test]
    fn rust_library_code_beside_test_attributes() {
        let base = "pub enum E {\n    #[cfg(test)]\n    Probe,\n    Real { x: u8 },\n}\npub fn arms(n: i32) -> i32 {\n    match n {\n        #[cfg(test)]\n        -1 => 0,\n        n => {\n            n + 1\n        }\n    }\n}\npub fn param(#[cfg(test)] _probe: u8, a: i32) -> i32 {\n    a + 1\n}\nmacro_rules! twice {\n    ($e:expr) => { if cfg!(test) { $e * 2 } else { $e + 1 } };\n}\npub mod test {\n    pub fn helper() -> i32 {\n        1\n    }\n}\n";
        for (from, to) in [
            ("Real { x: u8 }", "Real { x: u16 }"),
            ("            n + 1\n", "            n + 2\n"),
            ("    a + 1\n", "    a + 2\n"),
            ("$e * 2 }", "$e * 3 }"),
            ("        1\n    }\n}\n", "        2\n    }\n}\n"),
        ] {
            let sandbox = repo(&[("src/lib.rs", base)]);
            let counts = stage(&sandbox, &[("src/lib.rs", Some(&edit(base, from, to)))]);
            assert!(!counts.modifies_tests, "{from}: {counts:?}");
        }
    }

    /// A `cfg` name that nothing sets under `cargo test` (a typo'd `tests`, a made-up
    /// `never`) compiles the module out as surely as `any()`.
    #[test]
    fn rust_cfg_names_nothing_sets_on_the_test_module() {
        for cfg in ["#[cfg(tests)]", "#[cfg(all(test, never))]"] {
            held(
                &[("src/lib.rs", RUST_LIB)],
                &[("src/lib.rs", Some(&edit(RUST_LIB, "#[cfg(test)]", cfg)))],
                removed(2, 2),
                TESTS_REMOVED,
                "test removed: #[test]",
            );
        }
    }

    #[test]
    fn rust_cfg_on_one_test() {
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(
                    RUST_LIB,
                    "    #[test]\n    fn adds_negatives",
                    "    #[cfg(any())]\n    #[test]\n    fn adds_negatives",
                )),
            )],
            removed(1, 1),
            TESTS_REMOVED,
            "#[cfg(any())]",
        );
    }

    #[test]
    fn rust_cfg_attr_ignore() {
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(
                    RUST_LIB,
                    "    #[test]\n    fn adds_negatives",
                    "    #[test]\n    #[cfg_attr(all(), ignore)]\n    fn adds_negatives",
                )),
            )],
            skipped(1),
            SKIPPED,
            "skip added: #[cfg_attr(all(), ignore)]",
        );
    }

    #[test]
    fn rust_should_panic_added_to_a_failing_test() {
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(
                    RUST_LIB,
                    "    #[test]\n    fn adds_negatives",
                    "    #[test]\n    #[should_panic]\n    fn adds_negatives",
                )),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "test disabled: #[should_panic]",
        );
    }

    #[test]
    fn python_module_dunder_test_false() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    PYTEST,
                    "from calc import add\n",
                    "from calc import add\n\n__test__ = False\n",
                )),
            )],
            removed(2, 2),
            TESTS_REMOVED,
            "__test__ = False",
        );
    }

    #[test]
    fn python_class_dunder_test_false() {
        held(
            &[("tests/test_calc.py", UNITTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    UNITTEST,
                    "class AddTest(unittest.TestCase):\n",
                    "class AddTest(unittest.TestCase):\n    __test__ = False\n\n",
                )),
            )],
            removed(2, 2),
            TESTS_REMOVED,
            "__test__ = False",
        );
    }

    /// pytest collects no fixture, whatever its name, and no `Test…` class of its own that
    /// has an `__init__`: a decorator or a constructor takes the tests away.
    #[test]
    fn python_test_made_a_fixture_or_its_class_given_init() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    &format!("import pytest\n{PYTEST}"),
                    "def test_add_negative",
                    "@pytest.fixture\ndef test_add_negative",
                )),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "def test_add_negative",
        );
        let class = "from calc import add\n\n\nclass TestAdd:\n    def test_small(self):\n        assert add(1, 2) == 3\n\n    def test_negative(self):\n        assert add(-1, -2) == -3\n";
        held(
            &[("tests/test_calc.py", class)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    class,
                    "class TestAdd:\n",
                    "class TestAdd:\n    def __init__(self):\n        self.cache = {}\n\n",
                )),
            )],
            removed(2, 2),
            TESTS_REMOVED,
            "def test_small",
        );
        // A new fixture named like a test (pytest's own `testdir`) adds no test either.
        counts_nothing(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/conftest.py",
                Some(
                    "import pytest\n\n\n@pytest.fixture\ndef testdir(tmp_path):\n    return tmp_path\n",
                ),
            )],
            true,
        );
    }

    /// Every way a module rebinds a test's name takes the test away (a fresh attacker's
    /// list): annotated, unpacked, by `:=`, `for`, `import … as`, a class, `globals()`,
    /// `setattr`, `global` in a function called at import.
    #[test]
    fn python_test_rebound_however_written() {
        for rebinding in [
            "test_add_negative: object = None\n",
            "test_add_negative, _unused = None, 1\n",
            "(test_add_negative := None)\n",
            "for test_add_negative in [None]:\n    pass\n",
            "from os import sep as test_add_negative\n",
            "class test_add_negative:\n    pass\n",
            "globals()[\"test_add_negative\"] = None\n",
            "import sys\nsetattr(sys.modules[__name__], \"test_add_negative\", None)\n",
            "def _off():\n    global test_add_negative\n    test_add_negative = None\n\n\n_off()\n",
        ] {
            let sandbox = repo(&[("tests/test_calc.py", PYTEST)]);
            let counts = stage(
                &sandbox,
                &[(
                    "tests/test_calc.py",
                    Some(&format!("{PYTEST}\n{rebinding}")),
                )],
            );
            assert_eq!(counts.tests_removed, 1, "{rebinding}");
        }
    }

    #[test]
    fn python_test_rebound_to_none() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&format!("{PYTEST}\n\ntest_add_negative = None\n")),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "test disabled: test_add_negative = None",
        );
    }

    /// A Go `TestMain` that does not call `m.Run()` runs none of the package's tests.
    #[test]
    fn go_test_main_without_run() {
        let main = "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tos.Exit(m.Run())\n}\n";
        held(
            &[("calc_test.go", GO_TEST), ("main_test.go", main)],
            &[(
                "main_test.go",
                Some(&edit(main, "\tos.Exit(m.Run())\n", "\tos.Exit(0)\n")),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "func TestMain(m *testing.M) {",
        );
        counts_nothing(
            &[("calc_test.go", GO_TEST)],
            &[("main_test.go", Some(main))],
            true,
        );
        // The same `TestMain` in a file of its own, new in the change (on one line or
        // several): it is no test added, so the test it stops is not offset.
        for added in [
            "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n".to_owned(),
            edit(main, "\tos.Exit(m.Run())\n", "\tos.Exit(0)\n"),
        ] {
            held(
                &[("calc_test.go", GO_TEST)],
                &[("main_test.go", Some(&added))],
                removed(1, 0),
                TESTS_REMOVED,
                "func TestMain(m *testing.M)",
            );
        }
    }

    /// A second `def` of the same name replaces the first: the failing test's assertions no
    /// longer run.
    #[test]
    fn python_test_redefined() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&format!(
                    "{PYTEST}

def test_add_negative():
    pass
"
                )),
            )],
            removed(0, 1),
            ASSERTIONS_REMOVED,
            "assertion removed: assert add(-1, -2) == -3",
        );
    }

    /// A unittest class whose `TestCase` base is replaced by `object` is collected by no
    /// runner: its tests are removed.
    #[test]
    fn python_test_case_base_replaced_by_object() {
        held(
            &[("tests/test_calc.py", UNITTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    UNITTEST,
                    "class AddTest(unittest.TestCase):",
                    "class AddTest(object):",
                )),
            )],
            removed(2, 2),
            TESTS_REMOVED,
            "test removed: def test_add(self):",
        );
    }

    #[test]
    fn python_test_deleted_by_name() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&format!("{PYTEST}\n\ndel test_add_negative\n")),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "test disabled: del test_add_negative",
        );
    }

    #[test]
    fn python_test_renamed_out_of_the_runners_pattern() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    PYTEST,
                    "def test_add_negative()",
                    "def check_add_negative()",
                )),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "test removed: def test_add_negative():",
        );
    }

    #[test]
    fn go_test_renamed_out_of_the_runners_pattern() {
        held(
            &[("calc/calc_test.go", GO_TEST)],
            &[(
                "calc/calc_test.go",
                Some(&edit(GO_TEST, "func TestZero(", "func TTestZero(")),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "test removed: func TestZero(t *testing.T) {",
        );
    }

    #[test]
    fn go_build_ignore_on_a_test_file() {
        held(
            &[("calc/calc_test.go", GO_TEST)],
            &[(
                "calc/calc_test.go",
                Some(&format!("//go:build ignore\n\n{GO_TEST}")),
            )],
            Counts {
                tests_removed: 2,
                assertions_removed: 2,
                test_config_changed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            TESTS_REMOVED,
            "test setting changed: //go:build ignore",
        );
    }
}

// ---------------------------------------------------------------------------------------
// Skips through aliases

mod aliases {
    use super::*;

    fn skip_in_pytest(header: &str, decorator: &str) {
        let new = edit(
            PYTEST,
            "from calc import add\n",
            &format!("{header}\nfrom calc import add\n"),
        );
        let new = edit(
            &new,
            "def test_add_negative",
            &format!("{decorator}\ndef test_add_negative"),
        );
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[("tests/test_calc.py", Some(&new))],
            skipped(1),
            SKIPPED,
            &format!("skip added: {decorator}"),
        );
    }

    #[test]
    fn pytest_mark_imported_under_another_name() {
        skip_in_pytest("from pytest import mark as m", "@m.skip");
    }

    #[test]
    fn pytest_imported_under_another_name() {
        skip_in_pytest("import pytest as pt", "@pt.mark.skipif(True, reason=\"x\")");
    }

    #[test]
    fn unittest_imported_under_another_name() {
        skip_in_pytest("import unittest as ut", "@ut.skip(\"later\")");
    }

    #[test]
    fn pytest_mark_bound_to_a_name() {
        // The binding is a marker too (`pytest.mark.skip`), and so is each use of it.
        let new = edit(
            PYTEST,
            "from calc import add\n",
            "import pytest\nlater = pytest.mark.skip\nfrom calc import add\n",
        );
        let new = edit(
            &new,
            "def test_add_negative",
            "@later\ndef test_add_negative",
        );
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[("tests/test_calc.py", Some(&new))],
            skipped(2),
            SKIPPED,
            "skip added: @later",
        );
    }

    /// pytest's skipping functions under a name of their own: imported by name (with or
    /// without `as`) or bound to one, then called in a test or at module level.
    #[test]
    fn pytest_skip_functions_imported_or_bound_by_name() {
        let in_body = |header: &str, call: &str| {
            let new = edit(
                PYTEST,
                "def test_add_negative():\n",
                &format!("def test_add_negative():\n    {call}\n"),
            );
            held(
                &[("tests/test_calc.py", PYTEST)],
                &[("tests/test_calc.py", Some(&format!("{header}\n{new}")))],
                skipped(1),
                SKIPPED,
                &format!("skip added: {call}"),
            );
        };
        in_body("from pytest import skip", "skip(\"later\")");
        in_body("from pytest import xfail as known", "known(\"flaky\")");
        in_body(
            "import pytest\nneed = pytest.importorskip",
            "need(\"numpy\")",
        );
        let module_level = "from pytest import importorskip as need\nneed(\"not_installed\")";
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&format!("{module_level}\n{PYTEST}")),
            )],
            skipped(1),
            SKIPPED,
            "skip added: need(\"not_installed\")",
        );
    }

    #[test]
    fn skip_looked_up_with_getattr() {
        let new = edit(
            PYTEST,
            "def test_add_negative():\n",
            "def test_add_negative():\n    getattr(pytest, \"skip\")(\"later\")\n",
        );
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[("tests/test_calc.py", Some(&format!("import pytest\n{new}")))],
            skipped(1),
            SKIPPED,
            "skip added: getattr(pytest, \"skip\")(\"later\")",
        );
    }

    #[test]
    fn skip_exception_raised() {
        let new = edit(
            PYTEST,
            "def test_add_negative():\n",
            "def test_add_negative():\n    raise pytest.skip.Exception(\"later\")\n",
        );
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[("tests/test_calc.py", Some(&format!("import pytest\n{new}")))],
            skipped(1),
            SKIPPED,
            "skip added: raise pytest.skip.Exception(\"later\")",
        );
    }

    #[test]
    fn describe_skip_as_a_computed_member() {
        let new = edit(
            JEST,
            "describe('sum', () => {",
            "const d = describe[\"sk\" + \"ip\"];\n\nd('sum', () => {",
        );
        held(
            &[("test/sum.test.js", JEST)],
            &[("test/sum.test.js", Some(&new))],
            skipped(1),
            SKIPPED,
            "skip added: const d = describe[\"sk\" + \"ip\"];",
        );
    }

    #[test]
    fn describe_bound_to_another_name() {
        let new = edit(
            JEST,
            "describe('sum', () => {",
            "const d = describe;\n\nd.skip('sum', () => {",
        );
        held(
            &[("test/sum.test.js", JEST)],
            &[("test/sum.test.js", Some(&new))],
            skipped(1),
            SKIPPED,
            "skip added: d.skip('sum', () => {",
        );
    }
}

// ---------------------------------------------------------------------------------------
// Assertions neutered without being removed

mod neutered {
    use super::*;

    fn weakened_in(path: &str, base: &str, from: &str, to: &str) {
        held(
            &[(path, base)],
            &[(path, Some(&edit(base, from, to)))],
            weakened(1),
            WEAKENED,
            &format!("assertion weakened: {}", to.trim()),
        );
    }

    #[test]
    fn python_assert_true() {
        weakened_in(
            "tests/test_calc.py",
            PYTEST,
            "assert add(1, 2) == 3",
            "assert True",
        );
    }

    #[test]
    fn python_tuple_assert() {
        weakened_in(
            "tests/test_calc.py",
            PYTEST,
            "assert add(1, 2) == 3",
            "assert (add(1, 2) == 4, \"sum\")",
        );
    }

    #[test]
    fn python_tautology() {
        weakened_in(
            "tests/test_calc.py",
            PYTEST,
            "assert add(1, 2) == 3",
            "assert add(1, 2) == add(1, 2)",
        );
    }

    #[test]
    fn unittest_assert_true_true() {
        weakened_in(
            "tests/test_calc.py",
            UNITTEST,
            "self.assertEqual(add(1, 2), 3)",
            "self.assertTrue(True)",
        );
    }

    #[test]
    fn rust_assert_true() {
        weakened_in(
            "src/lib.rs",
            RUST_LIB,
            "assert_eq!(add(2, 3), 5);",
            "assert!(true);",
        );
    }

    #[test]
    fn rust_assert_eq_of_a_value_with_itself() {
        weakened_in(
            "src/lib.rs",
            RUST_LIB,
            "assert_eq!(add(2, 3), 5);",
            "assert_eq!(add(2, 3), add(2, 3));",
        );
    }

    #[test]
    fn java_assert_true_true() {
        weakened_in(
            "src/test/java/calc/CalcTest.java",
            JUNIT,
            "assertEquals(3, Calc.add(1, 2));",
            "assertTrue(true);",
        );
    }

    /// A failing exact check made an existence check in its place, while another hunk
    /// rewrites a passing existence check as an exact one: the file's totals do not move,
    /// the hunk's trade is a weakening.
    #[test]
    fn python_weakened_while_another_check_is_made_exact() {
        let base = "from calc import items\n\n\ndef test_count():\n    c = items()\n    assert len(c) == 2\n    c.clear()\n    assert not len(c)\n";
        let new = "from calc import items\n\n\ndef test_count():\n    c = items()\n    assert isinstance(c, list)\n    assert len(c)\n    c.clear()\n    assert len(c) == 0\n";
        held(
            &[("tests/test_calc.py", base)],
            &[("tests/test_calc.py", Some(new))],
            weakened(1),
            WEAKENED,
            "assertion weakened: assert len(c)",
        );
    }

    #[test]
    fn jest_expect_true_to_be_true() {
        weakened_in(
            "test/sum.test.js",
            JEST,
            "expect(sum(1, 2)).toBe(3);",
            "expect(true).toBe(true);",
        );
    }

    /// A literal against another it never equals, where its failure is expected or it never
    /// runs, passes: it checks nothing (helper-72's attack on a rule, withdrawn, that read it
    /// as a check because it cannot pass where it runs).
    #[test]
    fn never_holding_checks_where_they_cannot_fail() {
        for (path, base, from, to) in [
            (
                "test/sum.test.js",
                JEST,
                "expect(sum(1, 2)).toBe(3);",
                "expect(() => expect(0).toBe(1)).toThrow();",
            ),
            (
                "test/sum.test.js",
                JEST,
                "expect(sum(1, 2)).toBe(3);",
                "const never = () => expect(0).toBe(1);",
            ),
            (
                "tests/test_calc.py",
                PYTEST,
                "assert add(1, 2) == 3",
                "assert 10000000000000001 > 10000000000000000",
            ),
        ] {
            weakened_in(path, base, from, to);
        }
    }

    #[test]
    fn rust_assertion_macro_redefined() {
        let new = edit(
            RUST_LIB,
            "    use super::*;\n",
            "    use super::*;\n\n    macro_rules! assert_eq {\n        ($($t:tt)*) => {};\n    }\n",
        );
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[("src/lib.rs", Some(&new))],
            weakened(1),
            WEAKENED,
            "assertion weakened: macro_rules! assert_eq {",
        );
    }

    #[test]
    fn rust_assertion_macro_imported_under_its_name() {
        let new = edit(
            RUST_LIB,
            "    use super::*;\n",
            "    use super::*;\n    use std::assert_ne as assert_eq;\n",
        );
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[("src/lib.rs", Some(&new))],
            weakened(1),
            WEAKENED,
            "assertion weakened: use std::assert_ne as assert_eq;",
        );
    }

    #[test]
    fn rust_debug_assert_replacing_assert() {
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(
                    RUST_LIB,
                    "assert_eq!(add(2, 3), 5);",
                    "debug_assert_eq!(add(2, 3), 5);",
                )),
            )],
            Counts {
                assertions_removed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            ASSERTIONS_REMOVED,
            "assertion removed: assert_eq!(add(2, 3), 5);",
        );
    }

    #[test]
    fn python_early_return_at_the_top_of_a_test() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    PYTEST,
                    "def test_add():\n",
                    "def test_add():\n    return\n",
                )),
            )],
            Counts {
                assertions_removed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            ASSERTIONS_REMOVED,
            "code below no longer runs: return",
        );
    }

    /// A comment or a docstring between the test's head and the `return` hides nothing
    /// (attack-43 B22).
    #[test]
    fn python_early_return_below_a_comment_or_docstring() {
        for head in [
            "def test_add():\n    # fast path\n    return\n",
            "def test_add():\n    \"\"\"Adds.\"\"\"\n\n    # fast path\n    return\n",
        ] {
            held(
                &[("tests/test_calc.py", PYTEST)],
                &[(
                    "tests/test_calc.py",
                    Some(&edit(PYTEST, "def test_add():\n", head)),
                )],
                Counts {
                    assertions_removed: 1,
                    modifies_tests: true,
                    ..Counts::default()
                },
                ASSERTIONS_REMOVED,
                "code below no longer runs: return",
            );
        }
    }

    #[test]
    fn python_if_false_around_a_test_body() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    PYTEST,
                    "def test_add():\n    assert add(1, 2) == 3\n",
                    "def test_add():\n    if False:\n        assert add(1, 2) == 3\n",
                )),
            )],
            Counts {
                assertions_removed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            ASSERTIONS_REMOVED,
            "code below no longer runs: if False:",
        );
    }

    #[test]
    fn jest_if_true_return_at_the_top_of_a_test() {
        held(
            &[("test/sum.test.js", JEST)],
            &[(
                "test/sum.test.js",
                Some(&edit(
                    JEST,
                    "  it('adds', () => {\n",
                    "  it('adds', () => {\n    if (true) return;\n",
                )),
            )],
            Counts {
                assertions_removed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            ASSERTIONS_REMOVED,
            "code below no longer runs: if (true) return;",
        );
    }

    /// JavaScript ends a `//` comment at U+2028 (and U+2029): the `return` after it runs
    /// (attack-43 B23).
    #[test]
    fn jest_return_after_a_line_separator_in_a_comment() {
        held(
            &[("test/sum.test.js", JEST)],
            &[(
                "test/sum.test.js",
                Some(&edit(
                    JEST,
                    "  it('adds', () => {\n",
                    "  it('adds', () => {\n    // fast path\u{2028}return;\n",
                )),
            )],
            Counts {
                assertions_removed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            ASSERTIONS_REMOVED,
            "code below no longer runs",
        );
    }

    #[test]
    fn java_return_at_the_top_of_a_test() {
        held(
            &[("src/test/java/calc/CalcTest.java", JUNIT)],
            &[(
                "src/test/java/calc/CalcTest.java",
                Some(&edit(
                    JUNIT,
                    "    void adds() {\n",
                    "    void adds() {\n        if (true) return;\n",
                )),
            )],
            Counts {
                assertions_removed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            ASSERTIONS_REMOVED,
            "code below no longer runs: if (true) return;",
        );
    }

    #[test]
    fn go_return_at_the_top_of_a_test() {
        held(
            &[("calc/calc_test.go", GO_TEST)],
            &[(
                "calc/calc_test.go",
                Some(&edit(
                    GO_TEST,
                    "func TestZero(t *testing.T) {\n",
                    "func TestZero(t *testing.T) {\n\treturn\n",
                )),
            )],
            Counts {
                assertions_removed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            ASSERTIONS_REMOVED,
            "code below no longer runs: return",
        );
    }
}

// ---------------------------------------------------------------------------------------
// The runner told to look away: a change to what selects or runs tests is a test change

mod runner {
    use super::*;

    /// A failing test.
    const CALC_TEST: (&str, &str) = (
        "tests/test_calc.py",
        "def test_add():\n    assert 1 + 1 == 3\n",
    );

    /// A pytest plugin module that drops the tests its `DROP` names: none yet.
    const SEL_PLUGIN: &str = "import pytest\n\nDROP = ()\n\n\ndef pytest_collection_modifyitems(items):\n    items[:] = [i for i in items if i.name not in DROP]\n";

    /// [`SEL_PLUGIN`] made to drop the failing test of [`CALC_TEST`].
    fn sel_dropping_the_test() -> String {
        SEL_PLUGIN.replace("DROP = ()", "DROP = (\"test_add\",)")
    }

    const CONFTEST: &str =
        "import pytest\n\n\n@pytest.fixture\ndef client():\n    return object()\n";

    fn config_changed(base: &[(&str, &str)], path: &str, new: &str, shown: &str) {
        held(
            base,
            &[(path, Some(new))],
            config(1),
            CONFIG,
            &format!("test setting changed: {shown}"),
        );
    }

    /// A stand-in of an assertion library where the tests' `require` finds it first: under a
    /// `node_modules/` nearer the tests, or the package named after the library and loading
    /// itself through `exports` (attack-35 R4a, R4b). A dependency's version or another key
    /// of a package without `exports` is no test setting.
    #[test]
    fn an_assertion_library_shadowed_by_name() {
        let spec = "const expect = require(\"expect.js\");\n\ndescribe(\"math\", () => {\n  it(\"adds\", () => {\n    expect(add(1, 1)).to.be(2);\n  });\n});\n";
        let package = "{\n  \"name\": \"calc\",\n  \"version\": \"1.0.0\"\n}\n";
        let stub = "module.exports = () => ({ to: { be() {} } });\n";
        let base = [("test/math.spec.js", spec), ("package.json", package)];
        config_changed(
            &base,
            "test/node_modules/expect.js/index.js",
            stub,
            "node_modules",
        );
        held(
            &base,
            &[
                (
                    "package.json",
                    Some(
                        "{\n  \"name\": \"expect.js\",\n  \"version\": \"1.0.0\",\n  \"exports\": \"./test/expect.js\"\n}\n",
                    ),
                ),
                ("test/expect.js", Some(stub)),
            ],
            // Named as an assertion library's own package, too.
            config(2),
            CONFIG,
            "test setting changed: package name",
        );
        counts_nothing(
            &base,
            &[(
                "package.json",
                Some(&edit(package, "\"calc\"", "\"calculator\"")),
            )],
            false,
        );
        // `exports` added under the same name (mocha's 3031567913b5).
        counts_nothing(
            &base,
            &[(
                "package.json",
                Some(&edit(
                    package,
                    "\"1.0.0\"",
                    "\"1.0.0\",\n  \"exports\": \"./index.js\"",
                )),
            )],
            false,
        );
    }

    /// A CI test step told to skip the tests changes a test setting; a build step that never
    /// ran tests (a compatibility check, `-DskipTests`) added beside them changes none
    /// (a false finding judged on gson's history: c2d0cede654d, ddc55e44e754).
    #[test]
    fn ci_build_steps_that_run_no_tests() {
        let workflow = "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: mvn -B verify\n";
        config_changed(
            &[(".github/workflows/ci.yml", workflow)],
            ".github/workflows/ci.yml",
            &edit(workflow, "mvn -B verify", "mvn -B verify -DskipTests"),
            "CI test command",
        );
        let sandbox = repo(&[(".github/workflows/ci.yml", workflow)]);
        let build = "on: push\njobs:\n  api:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: mvn -B package -DskipTests\n      - run: mvn -B japicmp:cmp\n      - run: ./gradlew assemble -x test\n";
        let counts = stage(&sandbox, &[(".github/workflows/api.yml", Some(build))]);
        assert_eq!(counts.test_config_changed, 0);
    }

    /// The versions and environments the tests run on: a build matrix of a workflow that runs
    /// the tests left with fewer entries, or a module left out of one of its builds, is a
    /// test change (flask's dropped Python 3.6, gson's `--projects '!proto'`); a version
    /// bumped in place or added is not (express's many `build: Node.js@X.Y`), and neither is
    /// the matrix of a workflow that runs no tests. `[tox] envlist` selects the
    /// environments `tox` runs.
    #[test]
    fn ci_matrix_and_tox_environments() {
        let workflow = "on: push\njobs:\n  tests:\n    strategy:\n      matrix:\n        include:\n          - {name: Linux, python: '3.12', tox: py312}\n          - {name: '3.6', python: '3.6', tox: py36}\n        node: [16, 18]\n    steps:\n      - run: tox -e ${{ matrix.tox }}\n";
        let path = ".github/workflows/tests.yaml";
        for new in [
            edit(
                workflow,
                "          - {name: '3.6', python: '3.6', tox: py36}\n",
                "",
            ),
            edit(workflow, "node: [16, 18]", "node: [18]"),
            edit(
                workflow,
                "tox: py312}",
                "tox: py312, extra: --projects '!proto'}",
            ),
        ] {
            config_changed(&[(path, workflow)], path, &new, "CI test matrix");
        }
        for new in [
            edit(
                workflow,
                "python: '3.12', tox: py312",
                "python: '3.13', tox: py313",
            ),
            edit(workflow, "node: [16, 18]", "node: [16, 18, 20]"),
        ] {
            let sandbox = repo(&[(path, workflow)]);
            let counts = stage(&sandbox, &[(path, Some(&new))]);
            assert_eq!(counts.test_config_changed, 0, "{new}");
        }
        let release = workflow.replace("tox -e ${{ matrix.tox }}", "python -m build");
        let sandbox = repo(&[(path, &release)]);
        let new = edit(&release, "node: [16, 18]", "node: [18]");
        let counts = stage(&sandbox, &[(path, Some(&new))]);
        assert_eq!(counts.test_config_changed, 0, "{new}");

        let tox =
            "[tox]\nenvlist =\n    py3{12,11,10}\n    lowest\n\n[testenv]\ncommands = pytest\n";
        config_changed(
            &[("tox.ini", tox)],
            "tox.ini",
            &edit(tox, "    lowest\n", ""),
            "[tox] envlist",
        );
    }

    #[test]
    fn conftest_collect_ignore_glob() {
        config_changed(
            &[("conftest.py", CONFTEST)],
            "conftest.py",
            &format!("{CONFTEST}\ncollect_ignore_glob = [\"tests/test_calc*.py\"]\n"),
            "collect_ignore_glob = [\"tests/test_calc*.py\"]",
        );
    }

    #[test]
    fn conftest_items_cleared() {
        held(
            &[("conftest.py", CONFTEST)],
            &[(
                "conftest.py",
                Some(&format!(
                    "{CONFTEST}\n\ndef pytest_collection_modifyitems(config, items):\n    items.clear()\n"
                )),
            )],
            config(2),
            CONFIG,
            "test setting changed: items.clear()",
        );
    }

    /// The body of a collection hook the conftest already had, changed to deselect every
    /// test however it is written: the hook's name is the setting.
    #[test]
    fn conftest_hook_body_changed() {
        let hooked = format!(
            "{CONFTEST}\n\ndef pytest_collection_modifyitems(config, items):\n    \"\"\"Slow tests last.\"\"\"\n    items.sort(key=slow)\n"
        );
        for (body, shown) in [
            ("    items[:] = []\n", "items[:] = []"),
            ("    del items[:]\n", "del items[:]"),
            (
                "    if True:\n        items[:] = items[:0]\n",
                "items[:] = items[:0]",
            ),
        ] {
            config_changed(
                &[("conftest.py", &hooked)],
                "conftest.py",
                &hooked.replace("    items.sort(key=slow)\n", body),
                shown,
            );
        }
        // Its docstring, or a plugin class's hook in a test module that a test hands to
        // pytester, configure no run.
        counts_nothing(
            &[("conftest.py", &hooked)],
            &[(
                "conftest.py",
                Some(&hooked.replace("Slow tests last.", "Run slow tests last.")),
            )],
            true,
        );
        // A sample's conftest counts: its hook is global once pytest collects the
        // directory (attack-50 B8a).
        config_changed(
            &[("examples/conftest.py", &hooked)],
            "examples/conftest.py",
            &hooked.replace("    items.sort(key=slow)\n", "    items[:] = []\n"),
            "items[:] = []",
        );
        let plugin = "import pytest\n\n\ndef test_hook(pytester):\n    class Plugin:\n        def pytest_collection_modifyitems(self, items):\n            items.sort()\n\n    pytester.runpytest(plugins=[Plugin()])\n";
        counts_nothing(
            &[("tests/test_hooks.py", plugin)],
            &[(
                "tests/test_hooks.py",
                Some(&plugin.replace("items.sort()", "items[:] = []")),
            )],
            true,
        );
    }

    /// Any change to a registered plugin module is a test change, held for an agent with
    /// the file that registers it named, however the module is registered: a computed
    /// `pytest_plugins`, a conftest that binds or registers the module, a package that
    /// takes the hooks in from a submodule, `-p` in a CI workflow (helper-59's attack-52).
    #[test]
    fn registered_plugin_module_is_test_code() {
        let test = CALC_TEST;
        let (plugin, dropped) = (SEL_PLUGIN, sel_dropping_the_test());
        for (registry, module, by) in [
            (
                ("conftest.py", "pytest_plugins = [\"plugins\" + \".sel\"]\n"),
                "plugins/sel.py",
                "conftest.py",
            ),
            (
                (
                    "conftest.py",
                    "import plugins.sel as _sel\n\npytest_collection_modifyitems = _sel.pytest_collection_modifyitems\n",
                ),
                "plugins/sel.py",
                "conftest.py",
            ),
            (
                (
                    ".github/workflows/ci.yml",
                    "jobs:\n  test:\n    env:\n      PYTEST_ADDOPTS: -p plugins.sel\n",
                ),
                "plugins/sel.py",
                ".github/workflows/ci.yml",
            ),
            (
                ("plugins/conftest.py", "from .sel import *  # noqa: F403\n"),
                "plugins/sel.py",
                "plugins/conftest.py",
            ),
        ] {
            let base = [
                test,
                registry,
                ("plugins/__init__.py", ""),
                (module, plugin),
            ];
            held(
                &base,
                &[(module, Some(&dropped))],
                touching(),
                TOUCHING,
                &format!("{module}  a pytest plugin ({by} registers it)"),
            );
        }
        // The package pytest_plugins names takes its hooks in from the submodule.
        let base = [
            test,
            ("conftest.py", "pytest_plugins = [\"plugins\"]\n"),
            ("plugins/__init__.py", "from .sel import *  # noqa: F403\n"),
            ("plugins/sel.py", plugin),
        ];
        held(
            &base,
            &[("plugins/sel.py", Some(&dropped))],
            touching(),
            TOUCHING,
            "plugins/sel.py  a pytest plugin (plugins/__init__.py registers it)",
        );
        // The application a conftest imports, which names no pytest, is the code under
        // test.
        let app = "def create_app():\n    return 1\n";
        counts_nothing(
            &[
                test,
                ("conftest.py", "from myapp import create_app\n"),
                ("myapp/__init__.py", app),
            ],
            &[(
                "myapp/__init__.py",
                Some(&app.replace("return 1", "return 2")),
            )],
            false,
        );
    }

    /// More ways a module is loaded with the tests (helper-60's attack-53): a test
    /// module's `pytest_plugins`, a fixture module a conftest imports, a test package's
    /// import, `-p` in a shell script CI runs. `-p` of another command, or a computed
    /// plugin list built from other names, loads nothing.
    #[test]
    fn registered_plugin_module_more_ways() {
        let test = CALC_TEST;
        let (plugin, dropped) = (SEL_PLUGIN, sel_dropping_the_test());
        for (registry, what) in [
            (
                (
                    "tests/test_calc.py",
                    "pytest_plugins = [\"plugins.sel\"]\n\n\ndef test_add():\n    assert 1 + 1 == 3\n",
                ),
                "a pytest plugin (tests/test_calc.py registers it)",
            ),
            (
                (
                    "conftest.py",
                    "from plugins.sel import DROP  # noqa: F401\n",
                ),
                "test support code (conftest.py imports it)",
            ),
            (
                ("tests/__init__.py", "import plugins.sel  # noqa: F401\n"),
                "test support code (tests/__init__.py imports it)",
            ),
            (
                (
                    "scripts/test.sh",
                    "#!/bin/sh\nexec pytest -p plugins.sel tests\n",
                ),
                "a pytest plugin (scripts/test.sh registers it)",
            ),
        ] {
            let base = [
                test,
                registry,
                ("plugins/__init__.py", ""),
                ("plugins/sel.py", plugin),
            ];
            held(
                &base,
                &[("plugins/sel.py", Some(&dropped))],
                touching(),
                TOUCHING,
                &format!("plugins/sel.py  {what}"),
            );
        }
        // `-p` of another command, a computed plugin list that names other modules: nothing
        // found registers it, and its hook still makes it a plugin module, a test change
        // (helper-64's attack-56: registrations are written in more ways than any reader
        // follows).
        for registry in [
            ("Makefile", "build:\n\tmkdir -p plugins\n"),
            (
                "conftest.py",
                "import glob\n\npytest_plugins = [p[:-3].replace(\"/\", \".\") for p in glob.glob(\"fixtures/*.py\")]\n",
            ),
        ] {
            let base = [
                test,
                registry,
                ("plugins/__init__.py", ""),
                ("plugins/sel.py", plugin),
            ];
            counts_nothing(&base, &[("plugins/sel.py", Some(&dropped))], true);
        }
    }

    /// helper-64's attack-56: a module that defines a pytest hook is a plugin wherever it
    /// lives, registered in a way the gate reads or not (strings Python joins, `exec` of
    /// an import, a TOML escape, a registered module's own `pytest_plugins`); what a
    /// registered module imports, the package above it and a module a test imports run
    /// with the tests too.
    #[test]
    fn plugin_modules_however_registered() {
        let test = CALC_TEST;
        let (plugin, dropped) = (SEL_PLUGIN, sel_dropping_the_test());
        for (registry, shown) in [
            (
                ("conftest.py", "pytest_plugins = [\"tools.s\" \"el\"]\n"),
                "tools/sel.py  a pytest plugin (conftest.py registers it)",
            ),
            (
                ("conftest.py", "exec(\"from tools.sel import *\")\n"),
                "tools/sel.py  a pytest plugin (conftest.py registers it)",
            ),
            (
                (
                    "pyproject.toml",
                    "[tool.pytest.ini_options]\naddopts = \"-p tools\\u002esel\"\n",
                ),
                "tools/sel.py  a pytest plugin (pyproject.toml registers it)",
            ),
            // Registered by nothing the gate reads: its hook makes it a plugin.
            (
                (
                    "conftest.py",
                    "import importlib\n\nimportlib.import_module(NAME)\n",
                ),
                "tools/sel.py:6  a pytest hook: the module is a pytest plugin, run with the tests",
            ),
        ] {
            held(
                &[
                    test,
                    registry,
                    ("tools/__init__.py", ""),
                    ("tools/sel.py", plugin),
                ],
                &[("tools/sel.py", Some(&dropped))],
                touching(),
                TOUCHING,
                shown,
            );
        }
        // What a registered module imports (P6), and a module a test imports (P8), when
        // they name pytest.
        let cfg = "# values the pytest plugin reads\nDROP = ()\n";
        let reads = "import pytest\n\nfrom tools.cfg import DROP\n\n\ndef pytest_collection_modifyitems(items):\n    items[:] = [i for i in items if i.name not in DROP]\n";
        held(
            &[
                test,
                ("conftest.py", "pytest_plugins = [\"tools.sel\"]\n"),
                ("tools/__init__.py", ""),
                ("tools/sel.py", reads),
                ("tools/cfg.py", cfg),
            ],
            &[("tools/cfg.py", Some(&cfg.replace("()", "(\"test_add\",)")))],
            touching(),
            TOUCHING,
            "tools/cfg.py  test support code (tools/sel.py imports it)",
        );
        let check = "import pytest\n\n\ndef check_eq(a, b):\n    assert a == b\n";
        held(
            &[
                (
                    "tests/test_calc.py",
                    "from tools.check import check_eq\n\n\ndef test_add():\n    check_eq(1 + 1, 3)\n",
                ),
                ("tools/__init__.py", ""),
                ("tools/check.py", check),
            ],
            &[(
                "tools/check.py",
                Some(&check.replace("    assert a == b\n", "    a == b\n")),
            )],
            Counts {
                assertions_removed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            ASSERTIONS_REMOVED,
            "tools/check.py:5 (old)  assertion removed",
        );
    }

    /// helper-67's attack-58: a runner configuration file added that sets nothing still
    /// shadows the committed one (pytest and Mocha read the first they find); a test module
    /// outside the default test paths is test code whatever its change counts; pytest's
    /// default doctest files are tests.
    #[test]
    fn configuration_files_and_test_modules_elsewhere() {
        let test = (
            "tests/test_calc.py",
            "import warnings\n\n\ndef test_add():\n    warnings.warn(\"old\", DeprecationWarning)\n    assert 1 + 1 == 2\n",
        );
        let setting = config(1);
        for (added, text) in [
            ("pytest.ini", ""),
            (".pytest.ini", "[pytest]\n"),
            ("pytest.ini", "[pytest]\nmarkers =\n    slow\n"),
        ] {
            held(
                &[
                    test,
                    (
                        "pyproject.toml",
                        "[tool.pytest.ini_options]\nfilterwarnings = [\"error\"]\n",
                    ),
                ],
                &[(added, Some(text))],
                setting,
                CONFIG,
                &format!("{added}  test setting changed: configuration file added"),
            );
        }
        held(
            &[
                ("test/calc.spec.js", "it(\"adds\", () => {});\n"),
                (".mocharc.json", "{\"timeout\": 100}\n"),
            ],
            &[(".mocharc.cjs", Some(""))],
            setting,
            CONFIG,
            ".mocharc.cjs  test setting changed: configuration file added",
        );
        // A test module a `python_files` setting collects, its check swallowed.
        let checks = "def test_add():\n    assert 1 + 1 == 3\n";
        held(
            &[
                ("pytest.ini", "[pytest]\npython_files = *_checks.py\n"),
                ("checks/calc_checks.py", checks),
            ],
            &[(
                "checks/calc_checks.py",
                Some(
                    "def test_add():\n    try:\n        assert 1 + 1 == 3\n    except Exception:\n        pass\n",
                ),
            )],
            touching(),
            TOUCHING,
            "checks/calc_checks.py:2  changed in test code",
        );
        // pytest's default doctest files (`--doctest-glob` is `test*.txt`).
        held(
            &[("docs/test_calc.txt", ">>> 1 + 1\n3\n")],
            &[("docs/test_calc.txt", None)],
            touching(),
            TOUCHING,
            "docs/test_calc.txt",
        );
    }

    /// helper-68's attack-59: a runner's configuration moved where the runner does not read
    /// it, a directory marked as a virtual environment (pytest collects nothing there), a
    /// module named like the runner, what `$npm_package_config_*` reads, and a test library
    /// installed from the repository itself.
    #[test]
    fn configuration_moved_or_made_irrelevant() {
        let test = CALC_TEST;
        let setting = config(1);
        let ini = "[pytest]\nfilterwarnings = error\n";
        let sandbox = repo(&[test, ("pytest.ini", ini)]);
        assert_eq!(
            stage(
                &sandbox,
                &[("pytest.ini", None), ("ci/pytest.ini", Some(ini))]
            ),
            setting
        );
        let (code, report) = check_as_agent(&sandbox);
        assert_eq!(code, Some(3), "{report}");
        assert!(
            report.contains("configuration file removed: moved from pytest.ini"),
            "{report}"
        );
        for (path, text, shown) in [
            (
                "pkg/pyvenv.cfg",
                "home = /usr/bin\n",
                "a directory marked as a virtual environment pytest skips",
            ),
            (
                "pytest.py",
                "import sys\n",
                "a module named like the runner added",
            ),
        ] {
            held(&[test], &[(path, Some(text))], setting, CONFIG, shown);
        }
        let package = "{\"scripts\": {\"test\": \"mocha $npm_package_config_spec\"}, \"config\": {\"spec\": \"test/*.js\"}, \"devDependencies\": {\"chai\": \"^4.5.0\"}}\n";
        for (edited, shown) in [
            (
                package.replace("test/*.js", "test/ok.js"),
                "test setting changed: config",
            ),
            (
                package.replace("^4.5.0", "file:vendor/chai"),
                "test setting changed: dependency chai",
            ),
        ] {
            held(
                &[
                    ("package.json", package),
                    ("test/a.spec.js", "it(\"a\", () => {});\n"),
                ],
                &[("package.json", Some(&edited))],
                setting,
                CONFIG,
                shown,
            );
        }
    }

    /// In a test framework's own repository (its package named `pytest`), the framework's
    /// source names the framework as its own code: a skip written there, a hook it defines,
    /// a check it makes are the product, not tests' (pytest's `_pytest/`). The same file in
    /// another project is test code.
    #[test]
    fn a_frameworks_own_source_is_not_its_tests() {
        let source = "import pytest\n\n\ndef pytest_runtest_setup(item):\n    if item.get_closest_marker(\"x\"):\n        pass\n";
        let skipping = source.replace("        pass\n", "        pytest.skip(\"x\")\n");
        for (name, expected) in [
            ("pytest", Counts::default()),
            (
                "calc",
                Counts {
                    test_skips_added: 1,
                    modifies_tests: true,
                    ..Counts::default()
                },
            ),
        ] {
            let project = format!("[project]\nname = \"{name}\"\n");
            let sandbox = repo(&[
                ("pyproject.toml", &project),
                ("src/_pytest/skipping.py", source),
                (
                    "testing/test_skipping.py",
                    "def test_a():\n    assert True\n",
                ),
            ]);
            assert_eq!(
                stage(&sandbox, &[("src/_pytest/skipping.py", Some(&skipping))]),
                expected,
                "{name}"
            );
        }
        // A plugin's name, or a JavaScript framework's name on a Python project's source, is
        // no framework of that source (helper-65's attack-57 F1-F9).
        for (root, text) in [
            ("pyproject.toml", "[project]\nname = \"pytest-myplugin\"\n"),
            ("package.json", "{\"name\": \"jest\"}\n"),
        ] {
            let sandbox = repo(&[
                (root, text),
                ("src/_pytest/skipping.py", source),
                (
                    "testing/test_skipping.py",
                    "def test_a():\n    assert True\n",
                ),
            ]);
            assert_eq!(
                stage(&sandbox, &[("src/_pytest/skipping.py", Some(&skipping))]).test_skips_added,
                1,
                "{root}"
            );
        }
        // Naming the package as a framework is a test setting of its own (F4, F5).
        held(
            &[
                ("pyproject.toml", "[project]\nname = \"calc\"\n"),
                (
                    "testing/test_skipping.py",
                    "def test_a():\n    assert True\n",
                ),
            ],
            &[("pyproject.toml", Some("[project]\nname = \"pytest\"\n"))],
            config(1),
            CONFIG,
            "package named as a test framework",
        );
    }

    /// A JavaScript file outside the test paths that a runner's configuration names (a
    /// `.mocharc` `require`, a `--require` in the test script, Jest's
    /// `setupFilesAfterEnv`) is test code: a change to it is held for an agent, with the
    /// configuration named (helper-60's J1b-J4b). A file the package only names otherwise
    /// (`main`, a build script) is not.
    #[test]
    fn runner_setup_files_are_test_code() {
        let spec = (
            "test/m.spec.js",
            "const assert = require(\"assert\");\n\ndescribe(\"m\", () => {\n  it(\"adds\", () => {\n    assert.strictEqual(1 + 1, 3);\n  });\n});\n",
        );
        let setup = "exports.mochaHooks = { beforeAll() {} };\n";
        let patched = "exports.mochaHooks = { beforeAll() { require(\"assert\").strictEqual = () => {}; } };\n";
        for (config, file) in [
            (
                (".mocharc.json", "{\"require\": [\"./tools/setup.js\"]}\n"),
                "tools/setup.js",
            ),
            (
                (
                    "package.json",
                    "{\"scripts\": {\"test\": \"mocha --require ./tools/hooks.js\"}}\n",
                ),
                "tools/hooks.js",
            ),
            (
                (
                    "jest.config.js",
                    "module.exports = {\n  setupFilesAfterEnv: [\"<rootDir>/tools/env.js\"],\n};\n",
                ),
                "tools/env.js",
            ),
            (
                ("web/.mocharc.yml", "require:\n  - ../support/setup.js\n"),
                "support/setup.js",
            ),
        ] {
            held(
                &[spec, config, (file, setup)],
                &[(file, Some(patched))],
                touching(),
                TOUCHING,
                &format!("{file}  a test setup file ({} names it)", config.0),
            );
        }
        let package = "{\"main\": \"lib/index.js\", \"scripts\": {\"build\": \"node scripts/build.js\", \"test\": \"mocha\"}}\n";
        for file in ["lib/index.js", "scripts/build.js"] {
            counts_nothing(
                &[
                    spec,
                    ("package.json", package),
                    (file, "module.exports = 1;\n"),
                ],
                &[(file, Some("module.exports = 2;\n"))],
                false,
            );
        }
    }

    /// A changed line at column 0 that continues a statement of a conftest hook: inside
    /// brackets, after `\`, inside a string, in the hook's own header (attack-51 H1, H14,
    /// H12, H16). The hook is read by statements, not by lines.
    #[test]
    fn conftest_hook_lines_at_column_zero() {
        let hook = "def pytest_collection_modifyitems(items):\n";
        for (body, changed, shown) in [
            (
                "    items[:] = [\ni for i in items\n]\n",
                "i for i in items if 0\n",
                "i for i in items if 0",
            ),
            ("    items[:] = \\\nitems\n", "[]\n", "[]"),
            (
                "    k = \"\"\"\n\"\"\"\n    items[:] = [i for i in items if k not in i.name]\n",
                "\"\"\"[:0]\n",
                "\"\"\"[:0]",
            ),
        ] {
            // The body's one line at column 0 (the second of the statement) changed.
            let lines: Vec<&str> = body.split_inclusive('\n').collect();
            let edited: String = lines
                .iter()
                .enumerate()
                .map(|(i, line)| if i == 1 { changed } else { line })
                .collect();
            config_changed(
                &[("conftest.py", &format!("{hook}{body}"))],
                "conftest.py",
                &format!("{hook}{edited}"),
                shown,
            );
        }
        let header = "def pytest_collection_modifyitems(items, keep=(\n1)):\n    items[:] = items[:len(items) * keep]\n";
        config_changed(
            &[("conftest.py", header)],
            "conftest.py",
            &header.replace("\n1)):", "\n0)):"),
            "0)):",
        );
    }

    /// A conftest statement that binds a hook, however it is written (attack-51 H2-H9). A
    /// call of a hook (`config.hook.pytest_runtest_call(…)`) binds nothing.
    #[test]
    fn conftest_hook_bound_any_way() {
        let helper = "def _f(items):\n    items[:] = []\n";
        for binding in [
            "pytest_collection_modifyitems, _x = _f, 1",
            "(pytest_collection_modifyitems) = _f",
            "pytest_collection_modifyitems: object = _f",
            "(pytest_collection_modifyitems := _f)",
            "for pytest_collection_modifyitems in [_f]: pass",
            "from conftest import _f as pytest_collection_modifyitems",
        ] {
            config_changed(
                &[("conftest.py", helper)],
                "conftest.py",
                &format!("{helper}\n\n{binding}\n"),
                binding,
            );
        }
        let fixture = "import pytest\n\n\n@pytest.fixture\ndef run(config):\n    return config.hook.pytest_runtest_call\n";
        counts_nothing(
            &[("conftest.py", fixture)],
            &[(
                "conftest.py",
                Some(&fixture.replace("pytest_runtest_call", "pytest_runtest_setup")),
            )],
            true,
        );
    }

    /// A plugin module outside the test paths that the repository registers (a conftest's
    /// `pytest_plugins`, `-p` in the runner's options, a conftest importing its hooks): its
    /// hooks are the run's, defined or changed (attack-50 B7f-h). The same module that
    /// nothing registers counts no setting, but defines a hook: a plugin, a test change.
    #[test]
    fn registered_plugin_module_hooks() {
        let plugin = "def pytest_collection_modifyitems(config, items):\n    items.sort(key=lambda item: item.name)\n";
        let emptied = plugin.replace("items.sort(key=lambda item: item.name)", "items[:] = []");
        let test = CALC_TEST;
        for registry in [
            ("conftest.py", "pytest_plugins = [\n    \"tools.sel\",\n]\n"),
            ("pytest.ini", "[pytest]\naddopts = -p tools.sel -q\n"),
            (
                "pyproject.toml",
                "[tool.pytest.ini_options]\naddopts = [\"-p\", \"tools.sel\"]\n",
            ),
            (
                "tests/conftest.py",
                "from tools.sel import *  # noqa: F403\n",
            ),
        ] {
            let base = [
                test,
                registry,
                ("tools/__init__.py", ""),
                ("tools/sel.py", plugin),
            ];
            config_changed(&base, "tools/sel.py", &emptied, "items[:] = []");
            // A hook the registered module did not have yet (attack-50 B7g).
            let fixtures = [
                test,
                registry,
                ("tools/__init__.py", ""),
                ("tools/sel.py", "X = 1\n"),
            ];
            config_changed(
                &fixtures,
                "tools/sel.py",
                &format!("X = 1\n\n\n{emptied}"),
                "def pytest_collection_modifyitems(config, items):",
            );
        }
        // Nothing found registers it: its hook counts no setting, and makes the module a
        // plugin, a test change.
        for registry in [
            ("conftest.py", "pytest_plugins = [\"tools.other\"]\n"),
            ("tox.ini", "[testenv]\nbasepython = sel\n"),
        ] {
            let base = [
                test,
                registry,
                ("tools/__init__.py", ""),
                ("tools/sel.py", plugin),
            ];
            counts_nothing(&base, &[("tools/sel.py", Some(&emptied))], true);
        }
    }

    /// Hooks that run a test's body, the session or the command line, and the command line's
    /// options rewritten: each makes a failing test pass without a line of it changed.
    #[test]
    fn conftest_run_hooks_and_options() {
        for (hook, shown) in [
            (
                "def pytest_pyfunc_call(pyfuncitem):\n    return True\n",
                "def pytest_pyfunc_call(pyfuncitem):",
            ),
            (
                "def pytest_cmdline_main(config):\n    return 0\n",
                "def pytest_cmdline_main(config):",
            ),
            (
                "def pytest_collection_finish(session):\n    session.items[:] = []\n",
                "def pytest_collection_finish(session):",
            ),
            (
                "def pytest_runtest_protocol(item, nextitem):\n    return True\n",
                "def pytest_runtest_protocol(item, nextitem):",
            ),
            // A hook bound by assignment (attack-50 B7e).
            (
                "def _drop(items):\n    items[:] = []\n\n\npytest_collection_modifyitems = _drop\n",
                "pytest_collection_modifyitems = _drop",
            ),
            // The item's run replaced as it is collected (attack-50 B7b, B7c).
            (
                "def pytest_itemcollected(item):\n    item.runtest = lambda: None\n",
                "def pytest_itemcollected(item):",
            ),
        ] {
            config_changed(
                &[("conftest.py", CONFTEST)],
                "conftest.py",
                &format!("{CONFTEST}\n\n{hook}"),
                shown,
            );
        }
        let configure = format!(
            "{CONFTEST}\n\ndef pytest_configure(config):\n    config.addinivalue_line(\"markers\", \"slow\")\n"
        );
        config_changed(
            &[("conftest.py", &configure)],
            "conftest.py",
            &format!("{configure}    config.option.keyword = \"not test_div\"\n"),
            "config.option.keyword = \"not test_div\"",
        );
        // Registering a marker in a new `pytest_configure` changes no test setting.
        let sandbox = repo(&[("conftest.py", CONFTEST)]);
        let counts = stage(&sandbox, &[("conftest.py", Some(&configure))]);
        assert_eq!(counts.test_config_changed, 0);
        // A plugin module among the tests is the tests' setting; a plugin's own source (or
        // pytest's) defines the same hooks as its code.
        let hook = "import pytest\n\n\ndef pytest_pyfunc_call(pyfuncitem):\n    return True\n";
        config_changed(
            &[("tests/plugin.py", "import pytest\n")],
            "tests/plugin.py",
            hook,
            "def pytest_pyfunc_call(pyfuncitem):",
        );
        let sandbox = repo(&[("src/myplugin/hooks.py", "import pytest\n")]);
        let counts = stage(&sandbox, &[("src/myplugin/hooks.py", Some(hook))]);
        assert_eq!(counts.test_config_changed, 0);
        // In a test too: the configuration it writes to may be the run's own.
        let test = "def test_verbose(pytester):\n    config = pytester.parseconfig()\n    assert config.option.verbose == 0\n";
        let sandbox = repo(&[("tests/test_report.py", test)]);
        let counts = stage(
            &sandbox,
            &[(
                "tests/test_report.py",
                Some(&test.replace("    assert", "    config.option.verbose = 2\n    assert")),
            )],
        );
        assert_eq!(counts.test_config_changed, 1);
    }

    #[test]
    fn conftest_exit_with_success() {
        config_changed(
            &[("conftest.py", CONFTEST)],
            "conftest.py",
            &format!("{CONFTEST}\npytest.exit(\"skip everything\", returncode=0)\n"),
            "pytest.exit(\"skip everything\", returncode=0)",
        );
    }

    #[test]
    fn pytest_ini_addopts_deselect() {
        let ini = "[pytest]\naddopts = -q\n";
        config_changed(
            &[("pytest.ini", ini)],
            "pytest.ini",
            "[pytest]\naddopts = -q --deselect tests/test_calc.py::test_add\n",
            "[pytest] addopts",
        );
    }

    #[test]
    fn pyproject_testpaths_and_not_a_dependency_bump() {
        let pyproject = "[project]\nname = \"calc\"\ndependencies = [\"attrs==23.1\"]\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n";
        config_changed(
            &[("pyproject.toml", pyproject)],
            "pyproject.toml",
            &edit(
                pyproject,
                "testpaths = [\"tests\"]",
                "testpaths = [\"tests/unit\"]",
            ),
            "[tool.pytest.ini_options] testpaths",
        );
        let sandbox = repo(&[("pyproject.toml", pyproject)]);
        let bump = edit(pyproject, "attrs==23.1", "attrs==23.2");
        assert_eq!(
            stage(&sandbox, &[("pyproject.toml", Some(&bump))]),
            Counts::default()
        );
        let (code, report) = check_as_agent(&sandbox);
        assert_eq!(code, Some(0), "{report}");
    }

    #[test]
    fn setup_cfg_and_tox_ini() {
        config_changed(
            &[(
                "setup.cfg",
                "[metadata]\nname = calc\n\n[tool:pytest]\naddopts = -q\n",
            )],
            "setup.cfg",
            "[metadata]\nname = calc\n\n[tool:pytest]\naddopts = -q --ignore=tests/test_calc.py\n",
            "[tool:pytest] addopts",
        );
        config_changed(
            &[("tox.ini", "[testenv]\ndeps = pytest\ncommands = pytest\n")],
            "tox.ini",
            "[testenv]\ndeps = pytest\ncommands = pytest -k \"not add\"\n",
            "[testenv] commands",
        );
    }

    #[test]
    fn jest_config_test_path_ignore_patterns() {
        let jest = "module.exports = {\n  testEnvironment: 'node',\n};\n";
        config_changed(
            &[("jest.config.js", jest)],
            "jest.config.js",
            "module.exports = {\n  testEnvironment: 'node',\n  testPathIgnorePatterns: ['/test/sum'],\n};\n",
            "testPathIgnorePatterns",
        );
    }

    #[test]
    fn package_json_test_script_and_not_a_dependency_bump() {
        let package = "{\n  \"name\": \"calc\",\n  \"scripts\": {\n    \"test\": \"jest\"\n  },\n  \"dependencies\": {\n    \"left-pad\": \"1.0.0\"\n  }\n}\n";
        config_changed(
            &[("package.json", package)],
            "package.json",
            &edit(
                package,
                "\"test\": \"jest\"",
                "\"test\": \"jest --passWithNoTests || true\"",
            ),
            "scripts.test",
        );
        let sandbox = repo(&[("package.json", package)]);
        let bump = edit(package, "1.0.0", "1.3.0");
        assert_eq!(
            stage(&sandbox, &[("package.json", Some(&bump))]),
            Counts::default()
        );
        let (code, report) = check_as_agent(&sandbox);
        assert_eq!(code, Some(0), "{report}");
    }

    #[test]
    fn cargo_toml_test_switches_and_targets() {
        let cargo = "[package]\nname = \"calc\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n\n[[test]]\nname = \"it\"\npath = \"tests/it.rs\"\n";
        config_changed(
            &[("Cargo.toml", cargo)],
            "Cargo.toml",
            &format!("{cargo}\n[lib]\ntest = false\n"),
            "[lib] test",
        );
        config_changed(
            &[("Cargo.toml", cargo)],
            "Cargo.toml",
            &edit(
                cargo,
                "version = \"0.1.0\"\n",
                "version = \"0.1.0\"\nautotests = false\n",
            ),
            "[package] autotests",
        );
        config_changed(
            &[("Cargo.toml", cargo)],
            "Cargo.toml",
            &edit(
                cargo,
                "\n[[test]]\nname = \"it\"\npath = \"tests/it.rs\"\n",
                "",
            ),
            "[[test]] it",
        );
    }

    /// What builds the crate and how its tests build and run: the library's path and
    /// crate type, default features, the test profile, a `.cargo/config.toml` runner or
    /// flags, a build script that sets a `cfg`, and the crate root moved away.
    #[test]
    fn cargo_build_configuration() {
        let cargo = "[package]\nname = \"calc\"\nversion = \"0.1.0\"\n\n[features]\ndefault = [\"std\"]\nstd = []\n";
        let lib = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
        for (file, new, shown) in [
            (
                "Cargo.toml",
                format!("{cargo}\n[lib]\npath = \"src/core.rs\"\n"),
                "[lib] path",
            ),
            (
                "Cargo.toml",
                format!("{cargo}\n[lib]\ncrate-type = [\"cdylib\"]\n"),
                "[lib] crate-type",
            ),
            (
                "Cargo.toml",
                edit(cargo, "default = [\"std\"]", "default = []"),
                "[features] default",
            ),
            (
                "Cargo.toml",
                format!("{cargo}\n[profile.test]\ndebug-assertions = false\n"),
                "[profile.test] debug-assertions",
            ),
            (
                ".cargo/config.toml",
                "[target.'cfg(all())']\nrunner = \"true\"\n".to_owned(),
                "[target.cfg(all())] runner",
            ),
            (
                ".cargo/config.toml",
                "[build]\nrustflags = [\"--cfg\", \"miri\"]\n".to_owned(),
                "[build] rustflags",
            ),
            (
                "build.rs",
                "fn main() {\n    println!(\"cargo::rustc-cfg=miri\");\n}\n".to_owned(),
                "cargo:rustc-cfg",
            ),
        ] {
            config_changed(
                &[("Cargo.toml", cargo), ("src/lib.rs", lib)],
                file,
                &new,
                shown,
            );
        }
        held(
            &[("Cargo.toml", cargo), ("src/lib.rs", lib)],
            &[("src/lib.rs", None), ("src/core.rs", Some(lib))],
            config(1),
            CONFIG,
            "crate root moved from src/lib.rs",
        );
    }

    /// A module declaration removed, gated behind a feature, pointed at another file, or
    /// left in place but no longer compiled: its file's tests no longer build. Renaming a module with its file, declaring a new one
    /// (gated or not) or making one public is no test change.
    #[test]
    fn rust_module_declarations() {
        let lib =
            "pub mod parse;\nmod util;\n\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
        let parse = "pub fn parse(s: &str) -> i32 {\n    s.len() as i32\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn parses() {\n        assert_eq!(super::parse(\"ab\"), 2);\n    }\n}\n";
        let base = [
            ("src/lib.rs", lib),
            ("src/parse.rs", parse),
            ("src/util.rs", ""),
        ];
        for new in [
            edit(lib, "pub mod parse;\n", ""),
            edit(
                lib,
                "pub mod parse;\n",
                "#[cfg(feature = \"parse\")]\npub mod parse;\n",
            ),
            edit(
                lib,
                "pub mod parse;\n",
                "#[path = \"parse_impl.rs\"] pub mod parse;\n",
            ),
            // The declaration's own line unchanged: wrapped in a string, moved into a block
            // no build compiles, or into a macro nobody invokes.
            edit(
                lib,
                "pub mod parse;\n",
                "const _DECL: &str = \"\npub mod parse;\n\";\n",
            ),
            edit(
                lib,
                "pub mod parse;\n",
                "#[cfg(any())]\nmod off {\n    pub mod parse;\n}\n",
            ),
            edit(
                lib,
                "pub mod parse;\n",
                "macro_rules! unused {\n    () => {\n        pub mod parse;\n    };\n}\n",
            ),
        ] {
            let sandbox = repo(&base);
            let counts = stage(&sandbox, &[("src/lib.rs", Some(&new))]);
            assert!(counts.modifies_tests, "{new}: {counts:?}");
            let (code, report) = check_as_agent(&sandbox);
            assert_eq!(code, Some(3), "{report}");
            assert!(report.contains("files: src/lib.rs"), "{report}");
        }
        // A declaration with its attribute moved within the file, as fd once did
        // (`#[macro_use] mod internal;`), changes no module.
        let attributed = "#[macro_use]\nmod parse;\nmod util;\n";
        let sandbox = repo(&[
            ("src/lib.rs", attributed),
            ("src/parse.rs", parse),
            ("src/util.rs", ""),
        ]);
        let counts = stage(
            &sandbox,
            &[("src/lib.rs", Some("mod util;\n#[macro_use]\nmod parse;\n"))],
        );
        assert!(!counts.modifies_tests, "{counts:?}");
        // A module renamed with its file: its tests go with it.
        let sandbox = repo(&base);
        let counts = stage(
            &sandbox,
            &[
                (
                    "src/lib.rs",
                    Some(&edit(lib, "pub mod parse;", "pub mod parser;")),
                ),
                ("src/parse.rs", None),
                ("src/parser.rs", Some(parse)),
            ],
        );
        assert!(!counts.modifies_tests, "{counts:?}");
        {
            let new = edit(
                lib,
                "mod util;\n",
                "pub mod util;\nmod extra;\n#[cfg(feature = \"fast\")]\nmod fast;\n",
            );
            let sandbox = repo(&base);
            let counts = stage(
                &sandbox,
                &[
                    ("src/lib.rs", Some(&new)),
                    ("src/extra.rs", Some("")),
                    ("src/fast.rs", Some("")),
                ],
            );
            assert!(!counts.modifies_tests, "{new}: {counts:?}");
        }
    }

    #[test]
    fn makefile_test_target_and_not_another_target() {
        let makefile = "build:\n\tcargo build\n\ntest: build\n\tcargo test\n";
        config_changed(
            &[("Makefile", makefile)],
            "Makefile",
            &edit(makefile, "\tcargo test\n", "\tcargo test || true\n"),
            "target test",
        );
        let sandbox = repo(&[("Makefile", makefile)]);
        let other = edit(makefile, "\tcargo build\n", "\tcargo build --release\n");
        assert_eq!(
            stage(&sandbox, &[("Makefile", Some(&other))]),
            Counts::default()
        );
        // A variable the test target uses is part of it.
        let flags = "TEST_FLAGS = --all\n\ntest:\n\tcargo test $(TEST_FLAGS)\n";
        config_changed(
            &[("Makefile", flags)],
            "Makefile",
            &edit(flags, "--all", "--all -- --skip add"),
            "variable TEST_FLAGS",
        );
    }

    /// Build files, CI, nox, just and Vite: the settings that skip the tests or let their
    /// failures pass, and the commands that run them; other lines of the same files are
    /// no test setting.
    #[test]
    fn build_ci_nox_just_and_vite_settings() {
        let pom = "<project>\n  <properties>\n    <java.version>11</java.version>\n  </properties>\n</project>\n";
        config_changed(
            &[("pom.xml", pom)],
            "pom.xml",
            &edit(
                pom,
                "</properties>",
                "  <maven.test.skip>true</maven.test.skip>\n  </properties>",
            ),
            "maven.test.skip",
        );
        let gradle = "test {\n    useJUnitPlatform()\n}\n";
        config_changed(
            &[("build.gradle", gradle)],
            "build.gradle",
            &edit(
                gradle,
                "useJUnitPlatform()\n",
                "useJUnitPlatform()\n    ignoreFailures = true\n",
            ),
            "ignoreFailures",
        );
        let workflow = "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: cargo test --all\n";
        config_changed(
            &[(".github/workflows/ci.yml", workflow)],
            ".github/workflows/ci.yml",
            &edit(workflow, "cargo test --all", "cargo test --all || true"),
            "CI test command",
        );
        let nox =
            "import nox\n\n\n@nox.session\ndef tests(session):\n    session.run(\"pytest\")\n";
        config_changed(
            &[("noxfile.py", nox)],
            "noxfile.py",
            &edit(
                nox,
                "\"pytest\"",
                "\"pytest\", \"--deselect\", \"tests/test_calc.py::test_add\"",
            ),
            "pytest",
        );
        let just = "build:\n    cargo build\n\ntest:\n    cargo test\n";
        config_changed(
            &[("justfile", just)],
            "justfile",
            &edit(just, "    cargo test\n", "    cargo test || true\n"),
            "target test",
        );
        let vite = "export default defineConfig({\n  plugins: [react()],\n  test: {\n    environment: 'jsdom',\n  },\n});\n";
        config_changed(
            &[("vite.config.ts", vite)],
            "vite.config.ts",
            &edit(vite, "'jsdom',\n", "'jsdom',\n    exclude: ['src/**'],\n"),
            "test",
        );
        // A version bump, a build step, a plugin: no test setting.
        for (path, old, new) in [
            ("pom.xml", pom, pom.replace("11", "17")),
            (
                ".github/workflows/ci.yml",
                workflow,
                workflow.replace("checkout@v4", "checkout@v5"),
            ),
            (
                "vite.config.ts",
                vite,
                vite.replace("react()", "react(), svgr()"),
            ),
        ] {
            let sandbox = repo(&[(path, old)]);
            assert_eq!(
                stage(&sandbox, &[(path, Some(&new))]).test_config_changed,
                0,
                "{path}"
            );
        }
    }

    #[test]
    fn golden_files_are_test_files() {
        for path in [
            "pkg/render/testdata/page.golden",
            "web/__snapshots__/app.test.js.snap",
            "out/expected.golden",
        ] {
            let sandbox = repo(&[(path, "<p>1</p>\n")]);
            assert_eq!(
                stage(&sandbox, &[(path, Some("<p>2</p>\n"))]),
                touching(),
                "{path}"
            );
            let (code, report) = check_as_agent(&sandbox);
            assert_eq!(code, Some(3), "{report}");
            assert!(report.contains(&format!("[{TOUCHING}]")), "{report}");
        }
    }
    /// The runner's settings reached through another file or name: pytest's own TOML file, a
    /// tox environment variable, a Hatch script, a script the test script runs, a Makefile
    /// target the test target leads to, a Jest configuration another one loads, Surefire's
    /// and Gradle's test task, a CI script, a nested Go module. Each was allowed outright
    /// (exit 0) for an agent before.
    #[test]
    fn settings_reached_through_another_file_or_name() {
        let tox = "[testenv]\ndeps = pytest\ncommands = pytest\n";
        let hatch = "[project]\nname = \"calc\"\nversion = \"0.1\"\n\n[tool.hatch.envs.default.scripts]\ntest = \"pytest {args}\"\n";
        let package = "{\n  \"name\": \"calc\",\n  \"private\": true,\n  \"scripts\": {\n    \"test\": \"npm run unit\",\n    \"unit\": \"jest\"\n  }\n}\n";
        let makefile = "test: run-suite\n\nrun-suite:\n\tpython -m pytest -q\n";
        let jest_base = "module.exports = {\n  rootDir: '..',\n  testEnvironment: 'node',\n};\n";
        let pom = "<project>\n  <build>\n    <plugins>\n      <plugin>\n        <groupId>org.apache.maven.plugins</groupId>\n        <artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n";
        let gradle = "plugins {\n    id 'java'\n}\n\ntest {\n    useJUnitPlatform()\n}\n";
        let script = "#!/bin/sh\nset -e\npython -m pytest -q\n";
        let cases: Vec<(&str, &str, String, &str)> = vec![
            (
                "pytest.toml",
                "",
                "[pytest]\naddopts = [\"--deselect\", \"tests/test_calc.py::test_add\"]\n"
                    .to_owned(),
                "[pytest] addopts",
            ),
            (
                "tox.ini",
                tox,
                edit(
                    tox,
                    "commands",
                    "setenv =\n    PYTEST_ADDOPTS = -k \"not negative\"\ncommands",
                ),
                "[testenv] setenv PYTEST_ADDOPTS",
            ),
            (
                "pyproject.toml",
                hatch,
                edit(hatch, "pytest {args}", "pytest -k 'not negative' {args}"),
                "[tool.hatch.envs.default.scripts] test",
            ),
            (
                "package.json",
                package,
                edit(package, "\"jest\"", "\"jest -t adds$\""),
                "scripts.unit",
            ),
            (
                "Makefile",
                makefile,
                edit(makefile, "-q", "-q -k 'not negative'"),
                "target run-suite",
            ),
            (
                "config/jest.base.js",
                jest_base,
                edit(
                    jest_base,
                    "  testEnvironment",
                    "  testPathIgnorePatterns: ['sum'],\n  testEnvironment",
                ),
                "testPathIgnorePatterns",
            ),
            (
                "pom.xml",
                pom,
                edit(
                    pom,
                    "</version>\n",
                    "</version>\n        <configuration>\n          <skip>true</skip>\n        </configuration>\n",
                ),
                "maven-surefire-plugin",
            ),
            (
                "build.gradle",
                gradle,
                edit(
                    gradle,
                    "useJUnitPlatform()\n",
                    "useJUnitPlatform()\n    exclude '**/CalcTest*'\n",
                ),
                "test task",
            ),
            (
                "scripts/test.sh",
                script,
                edit(script, "-q", "-q || true"),
                "CI test command",
            ),
            (
                "calc/go.mod",
                "",
                "module example.com/calc/calc\n\ngo 1.21\n".to_owned(),
                "module boundary",
            ),
        ];
        for (path, old, new, shown) in cases {
            let mut base = vec![("README.md", "calc\n")];
            if !old.is_empty() {
                base.push((path, old));
            }
            config_changed(&base, path, &new, shown);
        }
    }

    /// The same files changed where no test setting is: a tox variable the runner does not
    /// read, a lint script, a build target, another Maven plugin, the Surefire version, a
    /// Gradle dependency, a release script, a nested module's Go version.
    #[test]
    fn the_same_files_where_no_test_setting_changes() {
        let tox = "[testenv]\ndeps = pytest\ncommands = pytest\n";
        let package = "{\n  \"scripts\": {\n    \"test\": \"npm run unit\",\n    \"unit\": \"jest\",\n    \"lint\": \"eslint .\"\n  }\n}\n";
        let makefile = "test: run-suite\n\nrun-suite: build\n\tpython -m pytest -q\n\nbuild:\n\tpython -m build\n";
        let pom = "<project>\n  <build>\n    <plugins>\n      <plugin>\n        <artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>\n      </plugin>\n      <plugin>\n        <artifactId>maven-jar-plugin</artifactId>\n        <configuration>\n          <excludes><exclude>**/a.txt</exclude></excludes>\n        </configuration>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n";
        let gradle = "dependencies {\n    testImplementation 'junit:junit:4.13'\n}\n\ntest {\n    useJUnitPlatform()\n}\n";
        let cases: Vec<(&str, &str, String)> = vec![
            (
                "tox.ini",
                tox,
                edit(
                    tox,
                    "commands",
                    "setenv =\n    PYTHONWARNINGS = error\ncommands",
                ),
            ),
            (
                "package.json",
                package,
                edit(package, "eslint .", "eslint src"),
            ),
            (
                "Makefile",
                makefile,
                edit(makefile, "python -m build", "python -m build --wheel"),
            ),
            ("pom.xml", pom, edit(pom, "a.txt", "b.txt")),
            ("pom.xml", pom, edit(pom, "3.2.5", "3.3.0")),
            ("build.gradle", gradle, edit(gradle, "4.13", "4.13.2")),
            (
                "scripts/release.sh",
                "#!/bin/sh\ntwine upload dist/*\n",
                "#!/bin/sh\ntwine upload -r pypi dist/*\n".to_owned(),
            ),
            (
                "calc/go.mod",
                "module a\n\ngo 1.21\n",
                "module a\n\ngo 1.22\n".to_owned(),
            ),
        ];
        for (path, old, new) in cases {
            let sandbox = repo(&[(path, old)]);
            let counts = stage(&sandbox, &[(path, Some(&new))]);
            assert_eq!(counts.test_config_changed, 0, "{path}: {new}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Test paths the defaults know

#[test]
fn default_test_paths_cover_common_layouts() {
    for path in [
        "polls/tests.py",
        "polls/tests/test_views.py",
        "conftest.py",
        "app/src/androidTest/java/AppTest.kt",
        "cypress/e2e/login.cy.js",
        "e2e/login.ts",
        "spec/models/user_spec.rb",
        "lib/user_spec.rb",
        "src/main/java/calc/CalcTest.java",
        "Calc.Tests/CalcTests.cs",
        "fixtures/users.json",
        "pkg/testdata/golden.txt",
    ] {
        let sandbox = repo(&[(path, "x = 1\n")]);
        let counts = stage(&sandbox, &[(path, Some("x = 2\n"))]);
        assert!(counts.modifies_tests, "{path}: {counts:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Honest changes that count nothing

mod honest {
    use super::*;

    #[test]
    fn switching_from_assert_to_should() {
        let old = "const assert = require('assert');\n\nit('adds', () => {\n  assert.equal(sum(1, 2), 3);\n});\n";
        let new = "require('should');\n\nit('adds', () => {\n  sum(1, 2).should.equal(3);\n});\n";
        counts_nothing(&[("test/sum.js", old)], &[("test/sum.js", Some(new))], true);
    }

    #[test]
    fn switching_from_assert_to_chai_expect() {
        let old = "const assert = require('assert');\n\nit('adds', () => {\n  assert.strictEqual(sum(1, 2), 3);\n});\n";
        let new = "const { expect } = require('chai');\n\nit('adds', () => {\n  expect(sum(1, 2)).to.equal(3);\n});\n";
        counts_nothing(&[("test/sum.js", old)], &[("test/sum.js", Some(new))], true);
    }

    #[test]
    fn a_class_named_like_an_assertion() {
        let old = "class assert_no_leak(object):\n    def __enter__(self):\n        return self\n";
        counts_nothing(
            &[("tests/helpers.py", old)],
            &[("tests/helpers.py", None)],
            true,
        );
    }

    #[test]
    fn an_application_method_named_test_client() {
        let old = "class App:\n    def test_client(self, use_cookies=True):\n        return Client(self, use_cookies)\n\n    def test_cli_runner(self):\n        return Runner(self)\n";
        let new = "class App:\n    def test_client(self, use_cookies=True):\n        return Client(self, use_cookies)\n";
        counts_nothing(
            &[("src/app/app.py", old)],
            &[("src/app/app.py", Some(new))],
            false,
        );
    }

    #[test]
    fn a_test_helper_outside_test_files() {
        let old = "function test(re, s) { return re.test(s); }\nexport const slug = (s) => test(/^[a-z]+$/, s);\n";
        let new = "export const slug = (s) => /^[a-z]+$/.test(s);\n";
        counts_nothing(
            &[("src/slug.js", old)],
            &[("src/slug.js", Some(new))],
            false,
        );
    }

    /// ripgrep's rewrite of its integration tests from `sherlock!` to `rgtest!`: tests
    /// defined by macros count by the macros' invocations, so moving them from one macro
    /// to another removes none.
    #[test]
    fn tests_rewritten_from_one_test_macro_to_another() {
        let old = "macro_rules! sherlock {\n    ($name:ident, $fun:expr) => {\n        #[test]\n        fn $name() {\n            $fun(setup());\n        }\n    };\n}\n\nsherlock!(single_file, |wd| {\n    wd.assert_out(\"x\");\n});\n\nsherlock!(dir, |wd| {\n    wd.assert_out(\"y\");\n});\n\n#[test]\nfn plain() {\n    run();\n}\n";
        let macros = "#[macro_export]\nmacro_rules! rgtest {\n    ($name:ident, $fun:expr) => {\n        #[test]\n        fn $name() {\n            $fun(setup());\n        }\n    };\n}\n";
        let feature = "rgtest!(single_file, |dir| {\n    dir.assert_out(\"x\");\n});\n\nrgtest!(dir, |dir| {\n    dir.assert_out(\"y\");\n});\n\nrgtest!(plain, |dir| {\n    run();\n});\n";
        counts_nothing(
            &[("tests/tests.rs", old)],
            &[
                ("tests/tests.rs", None),
                ("tests/macros.rs", Some(macros)),
                ("tests/feature.rs", Some(feature)),
            ],
            true,
        );
    }

    /// A release job that runs a tox tool environment, and a coverage report that lists
    /// missing lines, run the same tests as before.
    #[test]
    fn a_release_job_and_a_coverage_report() {
        let workflow = "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: tox -e py312\n";
        let deploy = format!(
            "{workflow}  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - run: tox -e publish-gh-release-notes\n"
        );
        let tox = "[testenv]\ncommands =\n    coverage run -m pytest\n    coverage report\n";
        counts_nothing(
            &[(".github/workflows/main.yml", workflow), ("tox.ini", tox)],
            &[
                (".github/workflows/main.yml", Some(&deploy)),
                ("tox.ini", Some(&tox.replace("report\n", "report -m\n"))),
            ],
            false,
        );
    }

    /// chai's `expect` with the expected value first still checks the value.
    #[test]
    fn chai_expected_value_written_first() {
        let old = "const { expect } = require('chai');\n\nit('hides', function () {\n  expect(this.hidden).to.not.equal('shown');\n});\n";
        let new = "const { expect } = require('chai');\n\nit('hides', function () {\n  expect('shown').to.not.equal(this.hidden);\n});\n";
        counts_nothing(
            &[("test/context.spec.js", old)],
            &[("test/context.spec.js", Some(new))],
            true,
        );
    }

    #[test]
    fn an_early_return_in_a_helper_is_not_dead_test_code() {
        let old = "def helper(x):\n    assert x\n\n\ndef test_a():\n    helper(1)\n";
        let new = "def helper(x):\n    if x is None:\n        return\n    assert x\n\n\ndef test_a():\n    helper(1)\n";
        counts_nothing(
            &[("tests/test_a.py", old)],
            &[("tests/test_a.py", Some(new))],
            true,
        );
    }
}

// ---------------------------------------------------------------------------------------
// Variants a reviewer wrote after the analysis was done, that its first tests did not name

mod reviewed {
    use super::*;

    fn dead_in(path: &str, base: &str, from: &str, to: &str, shown: &str) {
        held(
            &[(path, base)],
            &[(path, Some(&edit(base, from, to)))],
            removed(0, 1),
            ASSERTIONS_REMOVED,
            &format!("code below no longer runs: {shown}"),
        );
    }

    /// `|| true` and `or True` make any condition hold: in `src/lib.rs` the built-in policy
    /// let this through before, since no test path changed.
    #[test]
    fn rust_assertion_or_true() {
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(
                    RUST_LIB,
                    "assert_eq!(add(2, 3), 5);",
                    "assert!(add(2, 3) == 5 || true);",
                )),
            )],
            weakened(1),
            WEAKENED,
            "assertion weakened: assert!(add(2, 3) == 5 || true);",
        );
    }

    #[test]
    fn python_assertion_or_true() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    PYTEST,
                    "assert add(1, 2) == 3",
                    "assert add(1, 2) == 3 or True",
                )),
            )],
            weakened(1),
            WEAKENED,
            "assertion weakened: assert add(1, 2) == 3 or True",
        );
    }

    /// `cfg!(test)` is true under `cargo test`: the block returns before the assertion.
    #[test]
    fn rust_return_inside_a_block_that_always_runs() {
        dead_in(
            "src/lib.rs",
            RUST_LIB,
            "    fn adds() {\n",
            "    fn adds() {\n        if cfg!(test) {\n            return;\n        }\n",
            "if cfg!(test) {",
        );
    }

    #[test]
    fn python_return_inside_a_block_that_always_runs() {
        dead_in(
            "tests/test_calc.py",
            PYTEST,
            "def test_add():\n",
            "def test_add():\n    if True:\n        return\n",
            "if True:",
        );
    }

    #[test]
    fn python_loops_that_never_run() {
        for opener in ["while False:", "for _ in []:"] {
            dead_in(
                "tests/test_calc.py",
                PYTEST,
                "def test_add():\n    assert add(1, 2) == 3\n",
                &format!("def test_add():\n    {opener}\n        assert add(1, 2) == 3\n"),
                opener,
            );
        }
    }

    /// The check of a Go test is its `if`: `false && …` never fails it.
    #[test]
    fn go_check_that_can_never_fail() {
        dead_in(
            "calc/calc_test.go",
            GO_TEST,
            "\tif Add(1, 2) != 3 {",
            "\tif false && Add(1, 2) != 3 {",
            "if false && Add(1, 2) != 3 {",
        );
    }

    /// `expect` replaced by a stand-in that checks nothing, in the test file or globally.
    #[test]
    fn jest_expect_redefined() {
        for stand_in in [
            "const expect = () => ({ toBe() {} });",
            "const expect: any = () => ({ toBe() {} });",
            "global.expect = () => ({ toBe() {} });",
            "function expect() { return { toBe() {} }; }",
            "globalThis.expect = function () { return { toBe() {} }; };",
            "window.expect = async () => ({ toBe() {} });",
            // A module beside the tests, a bare parameter, a function named elsewhere
            // (attack-50 B5a-c).
            "global.expect = require(\"./support/expect\");",
            "global.expect = _ => ({ toBe() {} });",
            "const expect = _ => ({ toBe() {} });",
            "global.expect = lenient;",
        ] {
            held(
                &[("test/sum.test.js", JEST)],
                &[("test/sum.test.js", Some(&format!("{stand_in}\n{JEST}")))],
                weakened(1),
                WEAKENED,
                &format!("assertion weakened: {stand_in}"),
            );
        }
    }

    /// A test class deleted by name, and a test removed from the module's globals.
    #[test]
    fn python_tests_unbound_another_way() {
        held(
            &[("tests/test_calc.py", UNITTEST)],
            &[(
                "tests/test_calc.py",
                Some(&format!("{UNITTEST}\n\ndel AddTest\n")),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "del AddTest",
        );
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&format!(
                    "{PYTEST}\n\nglobals().pop(\"test_add_negative\")\n"
                )),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "globals().pop(",
        );
    }

    /// Binding the real `expect` from chai is no redefinition.
    #[test]
    fn chai_expect_bound_counts_nothing() {
        for binding in [
            "const { expect } = require('chai');",
            "const expect = chai.expect;",
            "const expect = require('chai').expect;",
        ] {
            counts_nothing(
                &[("test/sum.test.js", JEST)],
                &[("test/sum.test.js", Some(&format!("{binding}\n{JEST}")))],
                true,
            );
        }
    }

    /// Honest code that looks alike counts nothing: a condition that can fail, a method
    /// named `or`, a block that returns only sometimes.
    #[test]
    fn conditions_that_can_fail_count_nothing() {
        counts_nothing(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(
                    RUST_LIB,
                    "        assert_eq!(add(2, 3), 5);\n",
                    "        if add(2, 3) > 100 {\n            return;\n        }\n        assert!(add(2, 3) == 5 || add(3, 2) == 5);\n        assert!(Some(add(2, 3)).or(None).is_some());\n",
                )),
            )],
            // A change inside the `#[cfg(test)]` module modifies tests.
            true,
        );
    }
}

// ---------------------------------------------------------------------------------------
// Failures swallowed: the assertion stays and runs, and its failure is caught

mod swallowed {
    use super::*;

    #[test]
    fn python_assertion_error_caught() {
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    PYTEST,
                    "    assert add(-1, -2) == -3\n",
                    "    try:\n        assert add(-1, -2) == -3\n    except AssertionError:\n        pass\n",
                )),
            )],
            weakened(1),
            WEAKENED,
            "except AssertionError:",
        );
        held(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    PYTEST,
                    "    assert add(-1, -2) == -3\n",
                    "    with pytest.raises(AssertionError):\n        assert add(-1, -2) == -3\n",
                )),
            )],
            Counts {
                assertions_weakened: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            WEAKENED,
            "pytest.raises(AssertionError)",
        );
        // Whatever it then checks of what was caught: the test now passes only where the
        // check fails (attack-50 B1a-c).
        for after in [
            "    assert e\n",
            "    assert e.value\n",
            "    assert \"== -3\" in str(e.value)\n",
            "    msg = str(e.value)\n    assert msg == msg\n",
        ] {
            held(
                &[("tests/test_calc.py", PYTEST)],
                &[(
                    "tests/test_calc.py",
                    Some(&edit(
                        PYTEST,
                        "    assert add(-1, -2) == -3\n",
                        &format!(
                            "    with pytest.raises(AssertionError) as e:\n        assert add(-1, -2) == -3\n{after}"
                        ),
                    )),
                )],
                Counts {
                    assertions_weakened: 1,
                    modifies_tests: true,
                    ..Counts::default()
                },
                WEAKENED,
                "pytest.raises(AssertionError) as e",
            );
        }
    }

    #[test]
    fn rust_panic_caught() {
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(
                    RUST_LIB,
                    "        assert_eq!(add(-1, -2), -3);\n",
                    "        let _ = std::panic::catch_unwind(|| {\n            assert_eq!(add(-1, -2), -3);\n        });\n",
                )),
            )],
            weakened(1),
            WEAKENED,
            "catch_unwind",
        );
    }

    #[test]
    fn junit4_test_expecting_its_own_failure() {
        let junit4 = "package calc;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic class CalcTest {\n    @Test\n    public void adds() {\n        assertEquals(3, Calc.add(1, 2));\n    }\n}\n";
        held(
            &[("src/test/java/calc/CalcTest.java", junit4)],
            &[(
                "src/test/java/calc/CalcTest.java",
                Some(&edit(
                    junit4,
                    "    @Test\n",
                    "    @Test(expected = AssertionError.class)\n",
                )),
            )],
            removed(1, 0),
            TESTS_REMOVED,
            "expected = AssertionError.class",
        );
    }
}

// ---------------------------------------------------------------------------------------
// Exact checks replaced by checks that a value exists

mod loosened {
    use super::*;

    #[test]
    fn jest_to_be_replaced_by_to_be_defined() {
        held(
            &[("test/sum.test.js", JEST)],
            &[(
                "test/sum.test.js",
                Some(&edit(
                    JEST,
                    "expect(sum(1, 2)).toBe(3);",
                    "expect(sum(1, 2)).toBeDefined();",
                )),
            )],
            weakened(1),
            WEAKENED,
            "expect(sum(1, 2)).toBeDefined();",
        );
    }

    #[test]
    fn unittest_assert_equal_replaced_by_assert_is_not_none() {
        held(
            &[("tests/test_calc.py", UNITTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    UNITTEST,
                    "self.assertEqual(add(1, 2), 3)",
                    "self.assertIsNotNone(add(1, 2))",
                )),
            )],
            weakened(1),
            WEAKENED,
            "self.assertIsNotNone(add(1, 2))",
        );
    }

    /// The same check however the condition is written: `!= None`, the constant first,
    /// negations, `assertFalse`, brackets, a message that is an f-string, and black's
    /// assertion split over lines.
    #[test]
    fn existence_checks_in_any_spelling() {
        for (exact, weaker) in [
            (
                "self.assertEqual(add(1, 2), 3)",
                "self.assertFalse(add(1, 2) is None)",
            ),
            (
                "self.assertEqual(add(1, 2), 3)",
                "self.assertTrue(add(1, 2) != None)",
            ),
            (
                "self.assertEqual(add(1, 2), 3)",
                "self.assertNotEqual(add(1, 2), False)",
            ),
            (
                "self.assertEqual(add(1, 2), 3)",
                "self.assertTrue(add(1, 2), f\"{add}\")",
            ),
            (
                "self.assertEqual(add(1, 2), 3)",
                "assert not (add(1, 2) is None)",
            ),
            (
                "self.assertEqual(add(1, 2), 3)",
                "assert None is not add(1, 2)",
            ),
            (
                "self.assertEqual(add(1, 2), 3)",
                "assert (add(1, 2) is None) is False",
            ),
            (
                "self.assertEqual(add(1, 2), 3)",
                "self.assertTrue(\n            add(1, 2),\n        )",
            ),
            (
                "self.assertEqual(add(1, 2), 3)",
                "assert add(1, 2) is \\\n            not None",
            ),
            ("self.assertEqual(add(1, 2), 3)", "assert True"),
        ] {
            held(
                &[("tests/test_calc.py", UNITTEST)],
                &[("tests/test_calc.py", Some(&edit(UNITTEST, exact, weaker)))],
                weakened(1),
                WEAKENED,
                weaker.lines().next().unwrap_or(weaker),
            );
        }
    }

    /// A check that checks nothing, put beside the checks a test keeps, weakens nothing; a
    /// type check is a check of its own.
    #[test]
    fn stand_ins_only_count_in_place_of_a_check() {
        counts_nothing(
            &[("tests/test_calc.py", UNITTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    UNITTEST,
                    "        self.assertEqual(add(1, 2), 3)\n",
                    "        self.assertEqual(add(1, 2), add(1, 2))\n        self.assertEqual(add(1, 2), 3)\n",
                )),
            )],
            true,
        );
        counts_nothing(
            &[("tests/test_calc.py", PYTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    PYTEST,
                    "assert add(1, 2) == 3",
                    "assert isinstance(add(1, 2), int)\n    assert add(1, 2) == 3",
                )),
            )],
            true,
        );
    }
}

// ---------------------------------------------------------------------------------------
// False findings from real history (the corpus's hand-judged sample): honest changes that
// must count nothing, and the tampering next to them that still counts

mod real_history {
    use super::*;

    /// A function defined inside a test is a helper of that test, whatever its name: removing
    /// it removes no test (flask's tests define views named `test_…` inside tests).
    #[test]
    fn a_function_named_like_a_test_inside_a_test() {
        let old = "def test_url_for(app):\n    def test_view():\n        return \"x\"\n\n    app.add_url_rule(\"/\", view_func=test_view)\n    assert url_for(test_view) == \"/\"\n\n\ndef test_other():\n    assert True is not False\n";
        let new = "def test_url_for(app):\n    def view():\n        return \"x\"\n\n    app.add_url_rule(\"/\", view_func=view)\n    assert url_for(view) == \"/\"\n\n\ndef test_other():\n    assert True is not False\n";
        counts_nothing(
            &[("tests/test_app.py", old)],
            &[("tests/test_app.py", Some(new))],
            true,
        );
    }

    /// A module of a fixture app under `tests/` is not collected: its `def test_function()`
    /// is no test (flask's `tests/test_apps/`).
    #[test]
    fn a_fixture_module_under_tests() {
        counts_nothing(
            &[(
                "tests/test_apps/ext_package/submodule.py",
                "def test_function():\n    return 42\n",
            )],
            &[("tests/test_apps/ext_package/submodule.py", None)],
            true,
        );
    }

    /// An assertion method overridden by one that checks nothing weakens every assertion
    /// that calls it; one that still checks (flask's `assertIn` backport) does not.
    #[test]
    fn an_assertion_method_overridden() {
        held(
            &[("tests/test_calc.py", UNITTEST)],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    UNITTEST,
                    "class AddTest(unittest.TestCase):\n",
                    "class AddTest(unittest.TestCase):\n    def assertEqual(self, *args):\n        pass\n\n",
                )),
            )],
            weakened(1),
            WEAKENED,
            "def assertEqual(self, *args):",
        );
        let sandbox = repo(&[("tests/test_calc.py", UNITTEST)]);
        let counts = stage(
            &sandbox,
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    UNITTEST,
                    "class AddTest(unittest.TestCase):\n",
                    "class AddTest(unittest.TestCase):\n    def assertIn(self, x, y):\n        self.assertTrue(x in y, \"%r not in %r\" % (x, y))\n\n",
                )),
            )],
        );
        assert_eq!(counts.assertions_weakened, 0, "{counts:?}");
    }

    /// `assertEqual(x, True)` is `assert x == True` written as a call: rewriting one as the
    /// other (flask's 5da2c00419d0) weakens nothing, nor does an exact value replaced by
    /// `True`, which one value passes: the value expected changed, as a new literal would
    /// (flask's 53b8f0821879, judged so).
    #[test]
    fn a_comparison_with_true_written_as_a_call() {
        let with = |old: &str, new: &str| edit(UNITTEST, old, new);
        let old = with(
            "self.assertEqual(add(1, 2), 3)",
            "self.assertEqual(add(1, 2), True)",
        );
        let sandbox = repo(&[("tests/test_calc.py", &old)]);
        let counts = stage(
            &sandbox,
            &[(
                "tests/test_calc.py",
                Some(&with(
                    "self.assertEqual(add(1, 2), 3)",
                    "assert add(1, 2) == True",
                )),
            )],
        );
        assert_eq!(counts.assertions_weakened, 0, "{counts:?}");
        let sandbox = repo(&[("tests/test_calc.py", UNITTEST)]);
        let counts = stage(
            &sandbox,
            &[(
                "tests/test_calc.py",
                Some(&with(
                    "self.assertEqual(add(1, 2), 3)",
                    "self.assertEqual(add(1, 2), True)",
                )),
            )],
        );
        assert_eq!(counts.assertions_weakened, 0, "{counts:?}");
        // `is True` passes one value: made a bare check, it is weakened (attack-57 T1).
        held(
            &[(
                "tests/test_calc.py",
                "def test_add():\n    assert add(2, 3) is True\n",
            )],
            &[(
                "tests/test_calc.py",
                Some("def test_add():\n    assert add(2, 3)\n"),
            )],
            weakened(1),
            WEAKENED,
            "assert add(2, 3)",
        );
        // A bare check of its truthiness in place of the exact one still weakens it.
        held(
            &[("tests/test_calc.py", UNITTEST)],
            &[(
                "tests/test_calc.py",
                Some(&with(
                    "self.assertEqual(add(1, 2), 3)",
                    "self.assertTrue(add(1, 2))",
                )),
            )],
            weakened(1),
            WEAKENED,
            "self.assertTrue(add(1, 2))",
        );
    }

    /// A variable named `context` indexed and assigned is no computed skip marker.
    #[test]
    fn a_context_object_assigned_by_key() {
        let old = "describe('render', () => {\n  it('merges locals', () => {\n    const context = {};\n    expect(render(context)).toBe('');\n  });\n});\n";
        let new = "describe('render', () => {\n  it('merges locals', () => {\n    const context = {};\n    for (const key of Object.keys(locals)) {\n      context[key] = locals[key];\n    }\n    expect(render(context)).toBe('');\n  });\n});\n";
        counts_nothing(
            &[("test/render.js", old)],
            &[("test/render.js", Some(new))],
            true,
        );
    }

    /// A test added already skipped (a platform it cannot run on yet) skips nothing that ran,
    /// in each language's style: a marker above it, on its line, or first in its body.
    #[test]
    fn tests_added_already_skipped() {
        let cases: &[(&str, &str, &str, &str)] = &[
            (
                "tests/test_calc.py",
                PYTEST,
                "\n\n@pytest.mark.skipif(sys.platform == \"win32\", reason=\"posix\")\ndef test_add_posix():\n    assert add(1, 2) == 3\n",
                "",
            ),
            (
                "tests/test_calc.py",
                PYTEST,
                "\n\ndef test_add_later():\n    pytest.skip(\"not yet\")\n    assert add(1, 2) == 3\n",
                "",
            ),
            (
                "src/lib.rs",
                RUST_LIB,
                "",
                "\n    #[test]\n    #[ignore = \"slow\"]\n    fn adds_many() {\n        assert_eq!(add(1, 1), 2);\n    }\n",
            ),
            (
                "test/sum.test.js",
                JEST,
                "\ntest.skip('adds later', () => {\n  expect(sum(1, 1)).toBe(2);\n});\n",
                "",
            ),
            (
                "calc_test.go",
                GO_TEST,
                "\nfunc TestAddLater(t *testing.T) {\n\tt.Skip(\"later\")\n\tif Add(1, 1) != 2 {\n\t\tt.Fatal(\"1 + 1\")\n\t}\n}\n",
                "",
            ),
            // Skipped in its body on its own line, or below a signature over lines.
            (
                "tests/test_calc.py",
                PYTEST,
                "\n\ndef test_add_later(): pytest.skip(\"later\")\n",
                "",
            ),
            (
                "tests/test_calc.py",
                PYTEST,
                "\n\ndef test_add_later(\n    x=1,\n) -> None:\n    pytest.skip(\"later\")\n    assert add(x, 1) == 2\n",
                "",
            ),
            // A new class's own markers.
            (
                "tests/test_calc.py",
                PYTEST,
                "\n\nclass TestSub:\n    pytestmark = pytest.mark.skip(reason=\"later\")\n\n    def test_sub(self):\n        assert 2 - 1 == 1\n",
                "",
            ),
            // The callee picked in brackets, or the skip an option of the test's own call.
            (
                "test/sum.test.js",
                JEST,
                "\n(linux ? test : test.skip)('adds on linux', () => {\n  expect(sum(1, 1)).toBe(2);\n});\n",
                "",
            ),
            (
                "test/sum.test.js",
                JEST,
                "\nit('adds later', function () {\n  this.skip();\n});\n",
                "",
            ),
        ];
        for (path, base, appended, in_module) in cases {
            let new = if in_module.is_empty() {
                format!("{base}{appended}")
            } else {
                edit(
                    base,
                    "        assert_eq!(add(-1, -2), -3);\n    }\n",
                    &format!("        assert_eq!(add(-1, -2), -3);\n    }}\n{in_module}"),
                )
            };
            let sandbox = repo(&[(path, base)]);
            let counts = stage(&sandbox, &[(path, Some(&new))]);
            assert_eq!(counts.test_skips_added, 0, "{path}: {counts:?}\n{new}");
            assert_eq!(
                (counts.tests_removed, counts.assertions_removed),
                (0, 0),
                "{path}: {counts:?}"
            );
        }
    }

    /// A skipped test moved to another file with its skip skips nothing more; renamed and
    /// skipped in its own file, it is a test removed.
    #[test]
    fn a_skipped_test_moved_to_another_file() {
        let old = "import pytest\n\n\n@pytest.mark.skipif(\"sys.platform == 'win32'\")\ndef test_x():\n    assert add(1, 2) == 3\n\n\ndef test_y():\n    assert add(2, 2) == 4\n";
        let kept = "import pytest\n\n\ndef test_y():\n    assert add(2, 2) == 4\n";
        let moved = "import pytest\n\n\n@pytest.mark.skipif(\"sys.platform == 'win32'\")\ndef test_x():\n    assert add(1, 2) == 3\n";
        counts_nothing(
            &[("tests/test_a.py", old)],
            &[
                ("tests/test_a.py", Some(kept)),
                ("tests/test_b.py", Some(moved)),
            ],
            true,
        );
        let renamed = old.replace("def test_y():", "@pytest.mark.skip\ndef test_y_renamed():");
        let sandbox = repo(&[("tests/test_a.py", old)]);
        let counts = stage(&sandbox, &[("tests/test_a.py", Some(&renamed))]);
        assert_eq!(
            (counts.tests_removed, counts.test_skips_added),
            (1, 0),
            "{counts:?}"
        );
    }

    /// A marker written over several lines above a new test, and a new test class ignored
    /// as a whole (gson's records test).
    #[test]
    fn new_tests_skipped_by_a_long_marker_or_their_class() {
        let appended = "\n\n@pytest.mark.skipif(\n    not callable(getattr(Range, \"to_header\", None)),\n    reason=\"old werkzeug\",\n)\ndef test_range():\n    assert add(1, 2) == 3\n";
        let sandbox = repo(&[("tests/test_calc.py", PYTEST)]);
        let counts = stage(
            &sandbox,
            &[("tests/test_calc.py", Some(&format!("{PYTEST}{appended}")))],
        );
        assert_eq!(counts.test_skips_added, 0, "{counts:?}");
        let class = "package calc;\n\nimport org.junit.Ignore;\nimport org.junit.Test;\n\n@Ignore\npublic final class RecordTest {\n    @Test\n    public void reads() {\n        assertEquals(1, Calc.read());\n    }\n}\n";
        let sandbox = repo(&[("src/test/java/calc/CalcTest.java", JUNIT)]);
        let counts = stage(
            &sandbox,
            &[("src/test/java/calc/RecordTest.java", Some(class))],
        );
        assert_eq!(counts.test_skips_added, 0, "{counts:?}");
    }

    /// A Jasmine-style spec file renamed inside `spec/` still runs.
    #[test]
    fn a_spec_file_renamed_inside_spec() {
        let spec = "describe('mocks', function () {\n  it('builds a request', function () {\n    mockRequest().method.should.eql('GET');\n  });\n});\n";
        let sandbox = repo(&[("spec/spec.helpers.js", spec)]);
        sandbox.git(&["mv", "spec/spec.helpers.js", "spec/spec.mocks.js"]);
        assert_eq!(stage(&sandbox, &[]), touching());
    }

    /// A test that was commented out comes back skipped: nothing that ran is skipped now.
    #[test]
    fn a_commented_out_test_brought_back_skipped() {
        let old = "describe('sum', () => {\n  it('adds', () => {\n    expect(sum(1, 2)).toBe(3);\n  });\n\n  // it('adds big numbers', () => {\n  //   expect(sum(2 ** 53, 1)).toBe(2 ** 53 + 1);\n  // });\n});\n";
        let new = "describe('sum', () => {\n  it('adds', () => {\n    expect(sum(1, 2)).toBe(3);\n  });\n\n  it.skip('adds big numbers', () => {\n    expect(sum(2 ** 53, 1)).toBe(2 ** 53 + 1);\n  });\n});\n";
        counts_nothing(
            &[("test/sum.test.js", old)],
            &[("test/sum.test.js", Some(new))],
            true,
        );
    }

    /// A skip added to a test that ran stays counted even when a new test comes with it.
    #[test]
    fn a_skip_on_an_old_test_next_to_a_new_one_counts() {
        held(
            &[("tests/test_calc.py", &format!("import pytest\n{PYTEST}"))],
            &[(
                "tests/test_calc.py",
                Some(&edit(
                    &format!("import pytest\n{PYTEST}"),
                    "def test_add_negative():\n",
                    "def test_add_zero():\n    assert add(0, 0) == 0\n\n\n@pytest.mark.skip\ndef test_add_negative():\n",
                )),
            )],
            Counts {
                test_skips_added: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            SKIPPED,
            "@pytest.mark.skip",
        );
    }

    /// A skip is a new test's own only in its head (`it.skip(`) or its body. In a default
    /// value of its parameters, its return annotation or a decorator's call it runs at
    /// import (a module-level skip: every test of the file); as another argument of its
    /// call (an options object's hook too), or after the call on its line, it is a hook of
    /// the suite around it. Each skips the test that ran.
    #[test]
    fn a_skip_beside_a_new_test_but_not_in_it_counts() {
        let module_skip = "pytest.skip(\"later\", allow_module_level=True)";
        let py = format!("import pytest\n{PYTEST}");
        let mocha = "const assert = require('assert');\n\ndescribe('math', function () {\n  it('adds', function () {\n    assert.strictEqual(1 + 1, 2);\n  });\n});\n";
        let cases: Vec<(&str, &str, String)> = vec![
            (
                "tests/test_calc.py",
                &py,
                format!("{py}\n\ndef test_sub(_={module_skip}): assert 2 - 1 == 1\n"),
            ),
            (
                "tests/test_calc.py",
                &py,
                format!("{py}\n\ndef test_sub(\n    _={module_skip},\n):\n    assert 2 - 1 == 1\n"),
            ),
            (
                "tests/test_calc.py",
                &py,
                format!(
                    "{py}\n\ndef test_sub(_=globals().update(test_add=pytest.mark.skip(test_add))):\n    assert 2 - 1 == 1\n"
                ),
            ),
            (
                "test/math.spec.js",
                mocha,
                format!(
                    "{mocha}\nit('subtracts', function () {{}}); before(function () {{ this.skip(); }});\n"
                ),
            ),
            (
                "test/math.spec.js",
                mocha,
                edit(
                    mocha,
                    "  it('adds'",
                    "  it('subtracts', function () {\n    assert.strictEqual(2 - 1, 1);\n  }, before(function () {\n    this.skip();\n  }));\n\n  it('adds'",
                ),
            ),
            // A decorator that calls the skip as it runs, at import; a return annotation.
            (
                "tests/test_calc.py",
                &py,
                format!(
                    "{py}\n\n@pytest.mark.skipif({module_skip}, reason=\"later\")\ndef test_sub():\n    assert 2 - 1 == 1\n"
                ),
            ),
            (
                "tests/test_calc.py",
                &py,
                format!("{py}\n\ndef test_sub() -> {{{module_skip}}}:\n    assert 2 - 1 == 1\n"),
            ),
            // A hook in an options object: it runs as the suite is declared.
            (
                "test/math.spec.js",
                mocha,
                edit(
                    mocha,
                    "  it('adds'",
                    "  it('subtracts', function () {\n    assert.strictEqual(2 - 1, 1);\n  }, { setup: before(function () { this.skip(); }) });\n\n  it('adds'",
                ),
            ),
        ];
        for (path, base, new) in &cases {
            let sandbox = repo(&[(path, base)]);
            let counts = stage(&sandbox, &[(path, Some(new))]);
            // The decorator's line holds two: the marker and the call.
            let skips = if new.contains("@pytest.mark.skipif(pytest.skip") {
                2
            } else {
                1
            };
            assert_eq!(counts.test_skips_added, skips, "{counts:?}\n{new}");
            let (code, report) = check_as_agent(&sandbox);
            assert_eq!(code, Some(3), "{report}");
            assert!(report.contains(&format!("[{SKIPPED}]")), "{report}");
        }
    }

    /// A test that ran, its name rebound to a new test (`test_add = test_sub`: pytest
    /// collects the name, now the new function), no longer runs: a test removed, whatever
    /// the change adds. Marking a helper it adds as no test (`__test__ = False`) removes
    /// nothing.
    #[test]
    fn an_old_test_rebound_to_a_new_one_counts() {
        let py = format!("import pytest\n{PYTEST}");
        held(
            &[("tests/test_calc.py", &py)],
            &[(
                "tests/test_calc.py",
                Some(&format!(
                    "{py}\n\ndef test_sub():\n    assert 2 - 1 == 1\n\n\ntest_add = test_sub\n"
                )),
            )],
            Counts {
                tests_removed: 1,
                modifies_tests: true,
                ..Counts::default()
            },
            TESTS_REMOVED,
            "test_add = test_sub",
        );
        // The name given as a string.
        let sandbox = repo(&[("tests/test_calc.py", &py)]);
        let rebound = format!(
            "{py}\n\ndef test_sub():\n    assert 2 - 1 == 1\n\n\nglobals()[\"test_add\"] = test_sub\n"
        );
        let counts = stage(&sandbox, &[("tests/test_calc.py", Some(&rebound))]);
        assert_eq!(counts.tests_removed, 1, "{counts:?}");
        // A marker applied by assignment: the test still runs.
        counts_nothing(
            &[("tests/test_calc.py", &py)],
            &[(
                "tests/test_calc.py",
                Some(&format!("{py}\n\ntest_add = pytest.mark.slow(test_add)\n")),
            )],
            true,
        );
        // A new test skipped, its name in a comment beside an old one: still new.
        let old = "import pytest\n\n\ndef test_add():  # test_sub covers subtraction\n    assert 1 + 2 == 3\n";
        counts_nothing(
            &[("tests/test_calc.py", old)],
            &[(
                "tests/test_calc.py",
                Some(&format!(
                    "{old}\n\n@pytest.mark.skip(reason=\"later\")\ndef test_sub():\n    assert 2 - 1 == 1\n"
                )),
            )],
            true,
        );
        counts_nothing(
            &[("tests/test_calc.py", &py)],
            &[(
                "tests/test_calc.py",
                Some(&format!(
                    "{py}\n\ndef test_data():\n    return [1, 2]\n\n\ntest_data.__test__ = False\n"
                )),
            )],
            true,
        );
    }

    /// A test switched off under a condition (`test_x = None` under `if not has_x:`) and
    /// now skipped under the same condition runs where it ran (flask's b46f5942a528); under
    /// another condition it is a skip added.
    #[test]
    fn a_guard_rewritten_as_skipif() {
        let old = "import pytest\n\n\nclass TestUrls:\n    def test_url_encoding(self):\n        assert decode(b\"x\") == \"x\"\n\n    if not has_encoding(\"euc-kr\"):\n        test_url_encoding = None\n";
        let skipif = |condition: &str| {
            format!(
                "import pytest\n\n\nclass TestUrls:\n    @pytest.mark.skipif(\n        {condition}, reason=\"euc-kr is required\"\n    )\n    def test_url_encoding(self):\n        assert decode(b\"x\") == \"x\"\n"
            )
        };
        counts_nothing(
            &[("tests/test_urls.py", old)],
            &[(
                "tests/test_urls.py",
                Some(&skipif("not has_encoding(\"euc-kr\")")),
            )],
            true,
        );
        // Another condition, the same one with a second (any true one skips), or over a
        // class whose first method has the test's name.
        for new in [
            skipif("True"),
            skipif("not has_encoding(\"euc-kr\"), True"),
            skipif("not has_encoding(\"euc-kr\"), condition=True"),
        ] {
            let sandbox = repo(&[("tests/test_urls.py", old)]);
            let counts = stage(&sandbox, &[("tests/test_urls.py", Some(&new))]);
            assert_eq!(counts.test_skips_added, 1, "{counts:?}\n{new}");
        }
        // Over a class that ran, whose first method has the guarded test's name.
        let module = "import pytest\n\n\ndef test_x():\n    assert 1\n\n\nif not has_x():\n    test_x = None\n\n\nclass TestMore:\n    def test_x(self):\n        assert 2\n\n    def test_y(self):\n        assert 3\n";
        let new = module
            .replace("\n\nif not has_x():\n    test_x = None\n", "")
            .replace(
                "class TestMore:",
                "@pytest.mark.skipif(not has_x(), reason=\"x\")\nclass TestMore:",
            );
        let sandbox = repo(&[("tests/test_x.py", module)]);
        let counts = stage(&sandbox, &[("tests/test_x.py", Some(&new))]);
        assert_eq!(counts.test_skips_added, 1, "{counts:?}\n{new}");
        // Two tests switched off under one guard (flask's af41dbe0c479), each now skipped
        // under its condition; a third name under it stays off.
        let old = "import pytest\n\n\nclass TestCopy:\n    def test_copying(self):\n        assert copy() == 42\n\n    def test_copying_api(self):\n        assert copy_api() == 42\n\n    if greenlet is None:\n        test_copying = None\n        test_copying_api = None\n";
        let new = "import pytest\n\n\n@pytest.mark.skipif(greenlet is None, reason=\"greenlet not installed\")\ndef test_copying():\n    assert copy() == 42\n\n\n@pytest.mark.skipif(greenlet is None, reason=\"greenlet not installed\")\ndef test_copying_api():\n    assert copy_api() == 42\n";
        counts_nothing(
            &[("tests/test_copy.py", old)],
            &[("tests/test_copy.py", Some(new))],
            true,
        );
        // A guard above the defs switched nothing off (each `def` binds its name again).
        let before = "import pytest\n\nif greenlet is None:\n    test_copying = None\n\n\ndef test_copying():\n    assert copy() == 42\n";
        let skipped = "import pytest\n\n\n@pytest.mark.skipif(greenlet is None, reason=\"greenlet not installed\")\ndef test_copying():\n    assert copy() == 42\n";
        let sandbox = repo(&[("tests/test_copy.py", before)]);
        let counts = stage(&sandbox, &[("tests/test_copy.py", Some(skipped))]);
        assert_eq!(counts.test_skips_added, 1, "{counts:?}");
        let unguarded = new.replace("greenlet is None, reason", "True, reason");
        let sandbox = repo(&[("tests/test_copy.py", old)]);
        let counts = stage(&sandbox, &[("tests/test_copy.py", Some(&unguarded))]);
        assert_eq!(counts.test_skips_added, 2, "{counts:?}\n{unguarded}");
    }

    /// black splits a long assertion over lines, `assert (` first: the same comparison,
    /// not a bare truthiness check (flask's 025589ee7662, fbb6f0bc4c60).
    #[test]
    fn an_assertion_split_over_lines_by_black() {
        let old = "def test_url():\n    assert flask.url_for(\"static\", filename=\"index.html\") == \"/static/index.html\"\n";
        let new = "def test_url():\n    assert (\n        flask.url_for(\"static\", filename=\"index.html\") == \"/static/index.html\"\n    )\n";
        counts_nothing(
            &[("tests/test_basic.py", old)],
            &[("tests/test_basic.py", Some(new))],
            true,
        );
    }

    /// Mocha's pending test, a title without a body (express's `it('should respect the
    /// mount-point')`), never ran: removing it removes no test. A test with a body does.
    #[test]
    fn a_pending_mocha_test_removed() {
        let old = "describe('app', function () {\n  it('should respect the mount-point')\n\n  it('mounts', function () {\n    assert.equal(mount(), 1)\n  })\n})\n";
        counts_nothing(
            &[("test/app.js", old)],
            &[(
                "test/app.js",
                Some(&edit(old, "  it('should respect the mount-point')\n\n", "")),
            )],
            true,
        );
        let sandbox = repo(&[("test/app.js", old)]);
        let counts = stage(
            &sandbox,
            &[(
                "test/app.js",
                Some(&edit(
                    old,
                    "\n  it('mounts', function () {\n    assert.equal(mount(), 1)\n  })\n",
                    "",
                )),
            )],
        );
        assert_eq!(counts.tests_removed, 1, "{counts:?}");
    }

    /// A skip named once and put on the new tests that need it (flask's `need_dotenv`,
    /// express's `describeAsyncHooks`) skips nothing that ran, also where the diff aligns the
    /// new block's closing lines with older ones of the same text.
    #[test]
    fn new_tests_under_a_named_skip() {
        let pytest = format!("import pytest\n{PYTEST}");
        let named = "need_dotenv = pytest.mark.skipif(\n    dotenv is None, reason=\"dotenv is not installed\"\n)\n\n\n";
        let new = edit(
            &pytest,
            "def test_add():\n",
            &format!(
                "{named}@need_dotenv\ndef test_load_dotenv():\n    assert add(1, 1) == 2\n\n\ndef test_add():\n"
            ),
        );
        counts_nothing(
            &[("tests/test_calc.py", &pytest)],
            &[("tests/test_calc.py", Some(&new))],
            true,
        );
        let named = "var describeHooks = typeof hooks.AsyncLocalStorage === 'function'\n  ? describe\n  : describe.skip\n\n";
        let block = "\n  describeHooks('async local storage', () => {\n    it('keeps the store', () => {\n      expect(sum(1, 1)).toBe(2);\n    });\n  });\n";
        let new = edit(
            &edit(
                JEST,
                "describe('sum', () => {\n",
                &format!("{named}describe('sum', () => {{\n"),
            ),
            "    expect(sum(0, 0)).toBe(0);\n  });\n",
            &format!("    expect(sum(0, 0)).toBe(0);\n  }});\n{block}"),
        );
        counts_nothing(
            &[("test/sum.test.js", JEST)],
            &[("test/sum.test.js", Some(&new))],
            true,
        );
        // Each test file that needs it names its own (express's `describePromises`).
        counts_nothing(
            &[("test/sum.test.js", JEST), ("test/sub.test.js", JEST)],
            &[
                ("test/sum.test.js", Some(&new)),
                ("test/sub.test.js", Some(&new)),
            ],
            true,
        );
    }

    /// A named skip stays counted when it reaches a test that ran: put on it as a decorator,
    /// wrapped around it by renaming its suite, moved under it, or applied to a module.
    #[test]
    fn a_named_skip_on_tests_that_ran_counts() {
        let pytest = format!("import pytest\n{PYTEST}");
        let named = "skip_slow = pytest.mark.skip(reason=\"slow\")\n\n\n";
        let new_test = "@skip_slow\ndef test_add_big():\n    assert add(2, 2) == 4\n\n\n";
        let cases = [
            // On the new test and on one that ran.
            edit(
                &pytest,
                "def test_add():\n",
                &format!("{named}{new_test}@skip_slow\ndef test_add():\n"),
            ),
            // A test that ran moved under it.
            edit(
                &edit(
                    &pytest,
                    "def test_add_negative():\n    assert add(-1, -2) == -3\n",
                    "",
                ),
                "def test_add():\n",
                &format!(
                    "{named}{new_test}@skip_slow\ndef test_add_negative():\n    assert add(-1, -2) == -3\n\n\ndef test_add():\n"
                ),
            ),
            // The whole module.
            edit(
                &pytest,
                "def test_add():\n",
                &format!("{named}pytestmark = skip_slow\n\n\n{new_test}def test_add():\n"),
            ),
        ];
        for new in &cases {
            let sandbox = repo(&[("tests/test_calc.py", &pytest)]);
            let counts = stage(&sandbox, &[("tests/test_calc.py", Some(new))]);
            assert_eq!(counts.test_skips_added, 1, "{counts:?}\n{new}");
        }
        // Named in a new file for its own new test, imported onto a test that ran.
        let sandbox = repo(&[("tests/test_calc.py", &pytest)]);
        let zero = "import pytest\n\nskip_slow = pytest.mark.skip(reason=\"slow\")\n\n\n@skip_slow\ndef test_zero():\n    assert add(0, 0) == 0\n";
        let importing = edit(
            &pytest,
            "def test_add():\n",
            "from tests.test_zero import skip_slow\n\n\n@skip_slow\ndef test_add():\n",
        );
        let counts = stage(
            &sandbox,
            &[
                ("tests/test_zero.py", Some(zero)),
                ("tests/test_calc.py", Some(&importing)),
            ],
        );
        assert_eq!(counts.test_skips_added, 1, "{counts:?}");
        // The importing file names its own skip the same way, and reaches the other's as
        // an attribute.
        let sandbox = repo(&[("tests/test_calc.py", &pytest)]);
        let own = "import pytest\nimport tests.test_zero as test_zero\n\nskip_slow = pytest.mark.skip(reason=\"slow\")\n\n\n@skip_slow\ndef test_one():\n    assert add(0, 1) == 1\n\n\n@test_zero.skip_slow\n";
        let attribute = edit(
            &pytest,
            "def test_add():\n",
            &format!("{own}def test_add():\n"),
        );
        let counts = stage(
            &sandbox,
            &[
                ("tests/test_zero.py", Some(zero)),
                ("tests/test_calc.py", Some(&attribute)),
            ],
        );
        assert!(counts.test_skips_added >= 1, "{counts:?}");
        // A suite that ran renamed to the skipping name, a new test beside it.
        let named = "const maybe = process.env.CI ? describe.skip : describe;\n\n";
        let new = edit(
            &edit(
                JEST,
                "describe('sum', () => {\n",
                &format!("{named}maybe('sum', () => {{\n"),
            ),
            "    expect(sum(0, 0)).toBe(0);\n  });\n",
            "    expect(sum(0, 0)).toBe(0);\n  });\n\n  it('adds one', () => {\n    expect(sum(0, 1)).toBe(1);\n  });\n",
        );
        let sandbox = repo(&[("test/sum.test.js", JEST)]);
        let counts = stage(&sandbox, &[("test/sum.test.js", Some(&new))]);
        assert_eq!(counts.test_skips_added, 1, "{counts:?}\n{new}");
    }

    /// `pytest.raises(…, match=…)` and `self.fail(…)` check what the lines they replace
    /// checked.
    #[test]
    fn checks_rewritten_as_raises_match_and_fail() {
        let old = "import pytest\n\n\ndef test_parse():\n    with pytest.raises(ValueError) as info:\n        parse(\"x\")\n    assert \"bad\" in str(info.value)\n";
        let new = "import pytest\n\n\ndef test_parse():\n    with pytest.raises(ValueError, match=\"bad\"):\n        parse(\"x\")\n";
        counts_nothing(
            &[("tests/test_parse.py", old)],
            &[("tests/test_parse.py", Some(new))],
            true,
        );
        let old = "import unittest\n\n\nclass ParseTest(unittest.TestCase):\n    def test_parse(self):\n        if parse(\"x\") is None:\n            assert False, \"no value\"\n";
        let new = "import unittest\n\n\nclass ParseTest(unittest.TestCase):\n    def test_parse(self):\n        if parse(\"x\") is None:\n            self.fail(\"no value\")\n";
        counts_nothing(
            &[("tests/test_parse.py", old)],
            &[("tests/test_parse.py", Some(new))],
            true,
        );
    }

    /// Assertions of library code check the program, not a test: removing them removes
    /// no test assertion.
    #[test]
    fn assertions_in_library_code() {
        let old = "def route(rule, **options):\n    assert rule.startswith(\"/\"), \"urls must start with a slash\"\n    return Rule(rule, **options)\n";
        let new = "def route(rule, **options):\n    return Rule(rule, **options)\n";
        counts_nothing(
            &[("src/flask/app.py", old)],
            &[("src/flask/app.py", Some(new))],
            false,
        );
        let old =
            "pub fn add(a: i32, b: i32) -> i32 {\n    assert!(a >= 0, \"a\");\n    a + b\n}\n";
        counts_nothing(
            &[("src/add.rs", old)],
            &[(
                "src/add.rs",
                Some("pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"),
            )],
            false,
        );
        // The library part of a file with a test module.
        let with_library_assert = edit(
            RUST_LIB,
            "    a + b\n}\n",
            "    assert!(a > i32::MIN, \"overflow\");\n    a + b\n}\n",
        );
        counts_nothing(
            &[("src/lib.rs", &with_library_assert)],
            &[("src/lib.rs", Some(RUST_LIB))],
            false,
        );
        let old = "package calc;\n\npublic final class Calc {\n    public static int add(int a, int b) {\n        assert a >= 0;\n        return a + b;\n    }\n}\n";
        let new = "package calc;\n\npublic final class Calc {\n    public static int add(int a, int b) {\n        return a + b;\n    }\n}\n";
        counts_nothing(
            &[("src/main/java/calc/Calc.java", old)],
            &[("src/main/java/calc/Calc.java", Some(new))],
            false,
        );
    }

    /// The assertions of a test module still count: those of `RUST_LIB`'s tests.
    #[test]
    fn assertions_in_a_test_module_of_a_library_file_count() {
        held(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(RUST_LIB, "        assert_eq!(add(2, 3), 5);\n", "")),
            )],
            removed(0, 1),
            ASSERTIONS_REMOVED,
            "assert_eq!(add(2, 3), 5);",
        );
    }

    /// tox environments that build the docs or lint run no tests.
    #[test]
    fn tox_environments_that_run_no_tests() {
        let tox = "[testenv]\ncommands = pytest\n\n[testenv:docs]\ncommands = sphinx-build -W docs docs/_build\n\n[testenv:style]\ncommands = pre-commit run --all-files\n\n[testenv:coverage-report]\ncommands = coverage combine\n";
        let new = "[testenv]\ncommands = pytest\n\n[testenv:docs]\ncommands = sphinx-build -W -b dirhtml docs docs/_build\n\n[testenv:style]\ncommands = pre-commit run --all-files --show-diff-on-failure\n\n[testenv:coverage-report]\ncommands =\n    coverage combine\n    coverage html\n";
        counts_nothing(&[("tox.ini", tox)], &[("tox.ini", Some(new))], false);
    }

    /// A `package.json` that does not parse is read line by line: a dependency changed
    /// next to a trailing comma is no test setting, and its test script still is.
    #[test]
    fn package_json_that_does_not_parse() {
        let old = "{\n  \"name\": \"calc\",\n  \"scripts\": {\n    \"test\": \"mocha\",\n  },\n  \"dependencies\": {\n    \"left-pad\": \"1.0.0\"\n  }\n}\n";
        counts_nothing(
            &[("package.json", old)],
            &[("package.json", Some(&edit(old, "1.0.0", "1.3.0")))],
            false,
        );
        held(
            &[("package.json", old)],
            &[(
                "package.json",
                Some(&edit(old, "\"mocha\"", "\"mocha || true\"")),
            )],
            config(1),
            CONFIG,
            "scripts.test",
        );
    }
}

// ---------------------------------------------------------------------------------------
// Tests edited inside a source file: no count moves, but the change is a test change

mod inline_tests {
    use super::*;

    const TOUCHED: Counts = Counts {
        tests_removed: 0,
        test_skips_added: 0,
        assertions_removed: 0,
        assertions_weakened: 0,
        test_config_changed: 0,
        modifies_tests: true,
    };

    /// Variants a reviewer found allowed outright: an expected value edited to match the
    /// code, a tolerance widened, the test process ended early, all inside `src/lib.rs`'s
    /// `#[cfg(test)]` module. An agent's change is held as a test change.
    #[test]
    fn an_edit_inside_a_test_module_of_a_source_file_is_held() {
        for (from, to) in [
            ("assert_eq!(add(2, 3), 5);", "assert_eq!(add(2, 3), 6);"),
            (
                "assert_eq!(add(-1, -2), -3);",
                "assert!((add(-1, -2) - -3).abs() <= 1);",
            ),
            (
                "    use super::*;\n",
                "    use super::*;\n    const _: () = ();\n",
            ),
        ] {
            held(
                &[("src/lib.rs", RUST_LIB)],
                &[("src/lib.rs", Some(&edit(RUST_LIB, from, to)))],
                TOUCHED,
                "agents-touching-tests",
                "a human signs off on test changes made by an agent",
            );
        }
    }

    /// `mod tests;` taken out of a crate root: the test module no longer builds.
    #[test]
    fn a_test_module_declaration_removed_is_held() {
        let root = "pub mod calc;\n\n#[cfg(test)]\nmod tests;\n";
        held(
            &[("src/lib.rs", root), ("src/tests.rs", RUST_LIB)],
            &[("src/lib.rs", Some("pub mod calc;\n"))],
            TOUCHED,
            "agents-touching-tests",
            "a human signs off on test changes made by an agent",
        );
    }

    /// An edit to the library code of the same file changes no test.
    #[test]
    fn an_edit_to_the_library_part_is_no_test_change() {
        counts_nothing(
            &[("src/lib.rs", RUST_LIB)],
            &[(
                "src/lib.rs",
                Some(&edit(RUST_LIB, "    a + b\n", "    b + a\n")),
            )],
            false,
        );
    }
}
