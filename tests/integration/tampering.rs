//! Test tampering (SPEC §6.1) end to end: real staged changes in temporary repositories,
//! judged by the built binary.
//!
//! Per language and framework, a realistic file is committed and a change is staged that
//! deletes a test, adds a skip marker, removes an assertion, renames a test, moves a test to
//! another file, adds tests, or only touches comments and strings that look like tests.
//! `astrix intent` must report the three counts and `modifies_tests`; `astrix check` lists
//! the findings with `file:line` (snapshotted once per language). Then whole files
//! (deleted, renamed, copied, grown over the analysis budget); an agent's commits through
//! the installed hooks (a skipped test, a test dropped while concluding a merge); and that
//! the analysis reads nothing when no rule needs it.
//!
//! What is heuristic, and counted on purpose, is documented in docs/test-tampering.md
//! ("What is heuristic"); the tests that pin such behaviour say so.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::cmd_snapshot;
use crate::common::{Sandbox, isolated};

// ---------------------------------------------------------------------------------------
// Fixture

/// A repository on branch `feature` (so that the built-in policy's target is
/// `development`, and agents are held rather than denied), with one commit.
struct Repo {
    sandbox: Sandbox,
}

impl Repo {
    /// A repository whose first commit holds `files` (path, content).
    fn new(files: &[(&str, &str)]) -> Self {
        let repo = Self {
            sandbox: Sandbox::new(),
        };
        repo.git(&["init", "-q", "-b", "feature"]);
        for (path, text) in files {
            repo.write(path, text);
        }
        repo.git(&["add", "-A"]);
        repo.git(&["commit", "-q", "-m", "base"]);
        repo
    }

    fn path(&self) -> &Path {
        self.sandbox.path()
    }

    fn git(&self, args: &[&str]) -> String {
        self.sandbox.git(args)
    }

    fn write(&self, path: &str, text: &str) {
        self.sandbox.write(path, text);
    }

    fn remove(&self, path: &str) {
        std::fs::remove_file(self.path().join(path)).unwrap();
    }

    /// `astrix …` in the repository, in the isolated environment (no agent marker).
    fn astrix(&self) -> Command {
        self.sandbox.astrix()
    }

    /// Stages the work tree and returns what `astrix intent` says about test tampering.
    fn tampering(&self) -> Tampering {
        self.git(&["add", "-A"]);
        let output = self.astrix().arg("intent").output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let intent: Value = serde_json::from_slice(&output.stdout).unwrap();
        let diff = &intent["diff"];
        let count = |name: &str| {
            diff[name]
                .as_u64()
                .unwrap_or_else(|| panic!("`{name}` is a count in {diff}"))
        };
        let modifies_tests = match diff["modifies_tests"].as_str() {
            Some("true") => true,
            Some("false") => false,
            other => panic!("modifies_tests is {other:?}"),
        };
        Tampering {
            tests_removed: count("tests_removed"),
            test_skips_added: count("test_skips_added"),
            assertions_removed: count("assertions_removed"),
            modifies_tests,
        }
    }

    /// `astrix check` as an agent (`CLAUDECODE=1`): its text report of the staged change.
    fn check_as_agent(&self) -> Command {
        self.git(&["add", "-A"]);
        let mut command = self.astrix();
        command.arg("check").env("CLAUDECODE", "1");
        command
    }

    /// The stdout of [`Self::check_as_agent`].
    fn report(&self) -> String {
        let output = self.check_as_agent().output().unwrap();
        assert!(
            matches!(output.status.code(), Some(0 | 3)),
            "{}",
            stderr(&output)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// Asserts that the report of the staged change has no test-tampering section.
    fn assert_no_findings(&self) {
        let report = self.report();
        assert!(!report.contains("test tampering"), "{report}");
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The test-tampering part of an intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tampering {
    tests_removed: u64,
    test_skips_added: u64,
    assertions_removed: u64,
    modifies_tests: bool,
}

/// Nothing counted, and the intent does not modify tests.
const NONE: Tampering = Tampering {
    tests_removed: 0,
    test_skips_added: 0,
    assertions_removed: 0,
    modifies_tests: false,
};

/// Nothing counted, in a change that touches a test path (`[tests].paths` escalates
/// `modifies_tests`).
const NONE_IN_TESTS: Tampering = Tampering {
    modifies_tests: true,
    ..NONE
};

/// `text` with the one occurrence of `from` replaced by `to`.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert_eq!(
        text.matches(from).count(),
        1,
        "exactly one {from:?} in {text}"
    );
    text.replacen(from, to, 1)
}

/// Snapshots the agent's `astrix check` report of the staged change.
fn snapshot_report(repo: &Repo, name: &str) {
    cmd_snapshot!(repo.path(), name, repo.check_as_agent());
}

// ---------------------------------------------------------------------------------------
// Rust

mod rust {
    use super::*;

    /// A library with a `#[cfg(test)]` module: `src/` is not a test path.
    pub(super) const LIB: &str = r##"//! Arithmetic for the calculator.

/// Adds two numbers.
///
/// ```
/// assert_eq!(arith::add(2, 2), 4);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// Divides, or `None` when `b` is zero.
pub fn checked_div(a: i32, b: i32) -> Option<i32> {
    if b == 0 { None } else { Some(a / b) }
}

/// The attribute that marks a test, as the docs spell it.
pub const TEST_ATTRIBUTE: &str = "#[test]";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_small_numbers() {
        assert_eq!(add(2, 3), 5);
    }

    #[test]
    fn division_by_zero_is_none() {
        assert_eq!(checked_div(1, 0), None);
        assert!(checked_div(4, 2).is_some());
    }
}
"##;

    const DIVISION_TEST: &str = r"
    #[test]
    fn division_by_zero_is_none() {
        assert_eq!(checked_div(1, 0), None);
        assert!(checked_div(4, 2).is_some());
    }
";

    const API: &str = r"use arith::{add, checked_div};

#[test]
fn add_is_commutative() {
    assert_eq!(add(1, 2), add(2, 1));
}
";

    fn repo() -> Repo {
        Repo::new(&[
            (
                "Cargo.toml",
                "[package]\nname = \"arith\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
            ),
            ("src/lib.rs", LIB),
            ("tests/api.rs", API),
        ])
    }

    #[test]
    fn deleting_a_test_in_a_cfg_test_module() {
        let repo = repo();
        repo.write("src/lib.rs", &edit(LIB, DIVISION_TEST, ""));
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 1,
                assertions_removed: 2,
                // src/lib.rs is no test path: the removed test escalates.
                modifies_tests: true,
                ..NONE
            }
        );
    }

    #[test]
    fn ignoring_a_test() {
        let repo = repo();
        repo.write(
            "src/lib.rs",
            &edit(
                LIB,
                "    #[test]\n    fn division",
                "    #[test]\n    #[ignore = \"fails on CI\"]\n    fn division",
            ),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                test_skips_added: 1,
                modifies_tests: true,
                ..NONE
            }
        );
        snapshot_report(&repo, "rust_ignoring_a_test");
    }

    #[test]
    fn removing_an_assertion() {
        let repo = repo();
        repo.write(
            "src/lib.rs",
            &edit(LIB, "        assert!(checked_div(4, 2).is_some());\n", ""),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                assertions_removed: 1,
                // An assertion removed anywhere makes the intent modify tests (gate.rs).
                modifies_tests: true,
                ..NONE
            }
        );
    }

    #[test]
    fn renaming_a_test() {
        let repo = repo();
        repo.write(
            "src/lib.rs",
            &edit(LIB, "fn adds_small_numbers()", "fn adds_two_numbers()"),
        );
        // The `#[test]` line is unchanged: nothing was removed. The change is inside the
        // `#[cfg(test)]` module, so it modifies tests although src/ is no test path.
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    /// An expected value edited to match the code counts nothing and is a test change: the
    /// report names the rule's file and the line, and so for a doctest.
    #[test]
    fn editing_an_expected_value_and_a_doctest() {
        let repo = repo();
        repo.write(
            "src/lib.rs",
            &edit(
                LIB,
                "assert_eq!(add(2, 3), 5);",
                "assert_eq!(add(2, 3), 6);",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        snapshot_report(&repo, "rust_expected_value_edited");
        let doc_repo = self::repo();
        doc_repo.write(
            "src/lib.rs",
            &edit(
                LIB,
                "/// assert_eq!(arith::add(2, 2), 4);",
                "/// assert_eq!(arith::add(2, 2), 5);",
            ),
        );
        assert_eq!(doc_repo.tampering(), NONE_IN_TESTS);
        snapshot_report(&doc_repo, "rust_doctest_edited");
    }

    #[test]
    fn moving_a_test_to_an_integration_test() {
        let repo = repo();
        repo.write("src/lib.rs", &edit(LIB, DIVISION_TEST, ""));
        repo.write("tests/api.rs", &format!("{API}{DIVISION_TEST}"));
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn adding_tests() {
        let repo = repo();
        repo.write(
            "src/lib.rs",
            &edit(
                LIB,
                "        assert!(checked_div(4, 2).is_some());\n    }\n",
                "        assert!(checked_div(4, 2).is_some());\n    }\n\n    #[test]\n    fn adds_zero() {\n        assert_eq!(add(7, 0), 7);\n    }\n\n    #[tokio::test]\n    async fn adds_later() {\n        assert_eq!(add(1, 1), 2);\n    }\n",
            ),
        );
        // Inside the `#[cfg(test)]` module: a test change, with nothing counted.
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    /// Comments and strings that look like tests count nothing; a doctest's lines count
    /// nothing either, but `cargo test` runs them: changing one is a test change.
    #[test]
    fn comments_strings_and_doctests_that_look_like_tests() {
        let doc_repo = repo();
        let doctest = edit(
            LIB,
            "/// ```\n/// assert_eq!(arith::add(2, 2), 4);\n/// ```\n",
            "/// `#[test]` functions below check it.\n",
        );
        doc_repo.write("src/lib.rs", &doctest);
        assert_eq!(doc_repo.tampering(), NONE_IN_TESTS);
        doc_repo.assert_no_findings();
        let repo = repo();
        let changed = edit(
            LIB,
            "pub const TEST_ATTRIBUTE: &str = \"#[test]\";\n",
            "pub const TEST_ATTRIBUTE: &str = \"#[ignore]\";\n\n// #[test] fn old() { assert!(false); } used to live here.\n/* #[test]\n   fn older() { assert_eq!(1, 2); }\n   #[ignore] */\npub const EXAMPLE: &str = r#\"\n#[test]\nfn generated() { assert!(\"quoted\" != \"\"); }\n\"#;\npub const MACRO: char = '#';\n",
        );
        repo.write("src/lib.rs", &changed);
        assert_eq!(repo.tampering(), NONE);
        repo.assert_no_findings();
    }
}

// ---------------------------------------------------------------------------------------
// Python

mod python {
    use super::*;

    pub(super) const PYTEST: &str = r"import pytest

from calc import add, divide


def test_add():
    assert add(2, 3) == 5


def test_divide_by_zero():
    with pytest.raises(ZeroDivisionError):
        divide(1, 0)
    assert divide(4, 2) == 2
";

    const DIVIDE_TEST: &str = r"

def test_divide_by_zero():
    with pytest.raises(ZeroDivisionError):
        divide(1, 0)
    assert divide(4, 2) == 2
";

    const UNITTEST: &str = r#"import unittest

from accounts import Account


class AccountTest(unittest.TestCase):
    def setUp(self):
        self.account = Account("ada")

    def test_owner(self):
        self.assertEqual(self.account.owner, "ada")

    def test_starts_empty(self):
        self.assertEqual(self.account.balance, 0)
        self.assertFalse(self.account.closed)


if __name__ == "__main__":
    unittest.main()
"#;

    const CALC: &str = r#""""Arithmetic.

>>> add(2, 3)
5
"""


def add(a, b):
    return a + b


def divide(a, b):
    """Divide a by b; ``assert b != 0`` is the caller's job."""
    return a / b
"#;

    fn repo() -> Repo {
        Repo::new(&[
            ("calc.py", CALC),
            ("tests/test_calc.py", PYTEST),
            ("tests/test_accounts.py", UNITTEST),
        ])
    }

    /// The checks of an `if`/`else` are alternatives: one platform's check made the only
    /// one removes no check a run made; both branches dropped remove one.
    #[test]
    fn alternatives_collapsed_to_one_check_remove_none() {
        let repo = repo();
        let chain = "def test_add():\n    if sys.platform == \"win32\":\n        assert add(2, 3) == 5\n    else:\n        assert add(3, 2) == 5\n";
        repo.write(
            "tests/test_calc.py",
            &edit(
                PYTEST,
                "def test_add():\n    assert add(2, 3) == 5\n",
                chain,
            ),
        );
        repo.git(&["add", "-A"]);
        repo.git(&["commit", "-q", "-m", "a check per platform"]);
        let per_platform = edit(
            PYTEST,
            "def test_add():\n    assert add(2, 3) == 5\n",
            chain,
        );
        repo.write(
            "tests/test_calc.py",
            &edit(
                &per_platform,
                chain,
                "def test_add():\n    assert add(3, 2) == 5\n",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.write(
            "tests/test_calc.py",
            &edit(&per_platform, chain, "def test_add():\n    add(3, 2)\n"),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                assertions_removed: 1,
                ..NONE_IN_TESTS
            }
        );
    }

    #[test]
    fn deleting_a_pytest_test() {
        let repo = repo();
        repo.write("tests/test_calc.py", &edit(PYTEST, DIVIDE_TEST, ""));
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 1,
                // `pytest.raises` and `assert`.
                assertions_removed: 2,
                modifies_tests: true,
                ..NONE
            }
        );
    }

    #[test]
    fn deleting_a_unittest_method() {
        let repo = repo();
        repo.write(
            "tests/test_accounts.py",
            &edit(
                UNITTEST,
                "    def test_starts_empty(self):\n        self.assertEqual(self.account.balance, 0)\n        self.assertFalse(self.account.closed)\n",
                "",
            ),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 1,
                assertions_removed: 2,
                modifies_tests: true,
                ..NONE
            }
        );
    }

    #[test]
    fn skipping_with_a_pytest_mark() {
        let repo = repo();
        repo.write(
            "tests/test_calc.py",
            &edit(
                PYTEST,
                "def test_divide_by_zero",
                "@pytest.mark.skip(reason=\"flaky\")\ndef test_divide_by_zero",
            ),
        );
        let skipped = Tampering {
            test_skips_added: 1,
            modifies_tests: true,
            ..NONE
        };
        assert_eq!(repo.tampering(), skipped);
        snapshot_report(&repo, "python_skipping_with_a_pytest_mark");
        // xfail instead of skip: one marker replaces another, nothing more is skipped.
        repo.git(&["commit", "-q", "-m", "skip"]);
        repo.write(
            "tests/test_calc.py",
            &edit(
                PYTEST,
                "def test_divide_by_zero",
                "@pytest.mark.xfail(strict=False)\ndef test_divide_by_zero",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
    }

    #[test]
    fn skipping_a_unittest_method_by_decorator_and_by_call() {
        let repo = repo();
        repo.write(
            "tests/test_accounts.py",
            &edit(
                UNITTEST,
                "    def test_owner(self):\n",
                "    @unittest.skip(\"broken\")\n    def test_owner(self):\n",
            ),
        );
        let one_skip = Tampering {
            test_skips_added: 1,
            modifies_tests: true,
            ..NONE
        };
        assert_eq!(repo.tampering(), one_skip);
        repo.write(
            "tests/test_accounts.py",
            &edit(
                UNITTEST,
                "        self.assertEqual(self.account.balance, 0)\n",
                "        self.skipTest(\"balance is flaky\")\n        self.assertEqual(self.account.balance, 0)\n",
            ),
        );
        assert_eq!(repo.tampering(), one_skip);
    }

    #[test]
    fn removing_assertions() {
        let repo = repo();
        repo.write(
            "tests/test_calc.py",
            &edit(PYTEST, "    assert divide(4, 2) == 2\n", ""),
        );
        let one = Tampering {
            assertions_removed: 1,
            modifies_tests: true,
            ..NONE
        };
        assert_eq!(repo.tampering(), one);
        repo.git(&["reset", "-q", "--hard"]);
        repo.write(
            "tests/test_accounts.py",
            &edit(
                UNITTEST,
                "        self.assertFalse(self.account.closed)\n",
                "",
            ),
        );
        assert_eq!(repo.tampering(), one);
    }

    #[test]
    fn renaming_a_test() {
        let repo = repo();
        repo.write(
            "tests/test_calc.py",
            &edit(PYTEST, "def test_add():", "def test_adds_two_numbers():"),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn moving_a_test_to_another_file() {
        let repo = repo();
        repo.write("tests/test_calc.py", &edit(PYTEST, DIVIDE_TEST, ""));
        repo.write(
            "tests/test_divide.py",
            &format!("import pytest\n\nfrom calc import divide\n{DIVIDE_TEST}"),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn adding_tests() {
        let repo = repo();
        repo.write(
            "tests/test_calc.py",
            &format!(
                "{PYTEST}\n\n@pytest.mark.parametrize(\"a\", [1, 2])\ndef test_add_zero(a):\n    assert add(a, 0) == a\n"
            ),
        );
        repo.write(
            "tests/test_accounts.py",
            &edit(
                UNITTEST,
                "\n\nif __name__",
                "\n    def test_deposit(self):\n        self.account.deposit(5)\n        self.assertEqual(self.account.balance, 5)\n\n\nif __name__",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn comments_strings_and_docstrings_that_look_like_tests() {
        let repo = repo();
        // In application code: a doctest, a docstring and a comment.
        let calc = edit(CALC, ">>> add(2, 3)\n5\n", ">>> assert add(2, 3) == 5\n");
        let calc = edit(
            &calc,
            "    \"\"\"Divide a by b; ``assert b != 0`` is the caller's job.\"\"\"\n",
            "    # assert b != 0, \"the caller checks\"\n    # def test_divide(): ...\n",
        );
        repo.write("calc.py", &calc);
        assert_eq!(repo.tampering(), NONE);
        // In a test file: comments and strings, removed and added.
        repo.write(
            "tests/test_calc.py",
            &edit(
                PYTEST,
                "def test_add():\n",
                "# def test_add_old(): assert add(1, 1) == 2\nTEMPLATE = \"def test_{name}():\\n    assert {check}\"\nNOTES = '''\n@pytest.mark.skip\ndef test_in_a_string():\n    assert False\n'''\n\n\ndef test_add():\n",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    /// A function named `test_…` in application code (a module pytest does not collect by
    /// its name, importing no test framework) is not a test: removing it counts nothing.
    /// The same module importing pytest is a test module, and then it does count, and
    /// escalates `modifies_tests` though the path is no test path.
    #[test]
    fn a_test_function_removed_outside_test_paths_counts_only_in_a_test_module() {
        let checks = "\"\"\"Health checks run at start-up.\"\"\"\n\n\ndef test_database(db):\n    return db.ping()\n\n\ndef test_cache(cache):\n    return cache.ping()\n";
        let repo = Repo::new(&[("app/checks.py", checks)]);
        let removed = edit(
            checks,
            "\n\ndef test_cache(cache):\n    return cache.ping()\n",
            "",
        );
        repo.write("app/checks.py", &removed);
        assert_eq!(repo.tampering(), NONE);

        let with_pytest = format!("import pytest\n{checks}");
        let repo = Repo::new(&[("app/checks.py", &with_pytest)]);
        repo.write("app/checks.py", &format!("import pytest\n{removed}"));
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 1,
                modifies_tests: true,
                ..NONE
            }
        );
        // The escalation alone: the same file with its function renamed.
        repo.write(
            "app/checks.py",
            &edit(
                &with_pytest,
                "def test_cache(cache)",
                "def test_redis(cache)",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
    }
}

// ---------------------------------------------------------------------------------------
// JavaScript and TypeScript

mod javascript {
    use super::*;

    /// Jest.
    pub(super) const JEST: &str = r"const { sum } = require('../sum');

describe('sum', () => {
  test('adds two numbers', () => {
    expect(sum(1, 2)).toBe(3);
  });

  test('adds negative numbers', () => {
    expect(sum(-1, -2)).toBe(-3);
    expect(sum(-1, 1)).toBe(0);
  });
});
";

    const NEGATIVE_TEST: &str = r"
  test('adds negative numbers', () => {
    expect(sum(-1, -2)).toBe(-3);
    expect(sum(-1, 1)).toBe(0);
  });
";

    /// Application code with test-like text in its comments and strings.
    const SUM: &str = r"/**
 * Adds two numbers.
 *
 * @example
 * expect(sum(1, 2)).toBe(3);
 */
function sum(a, b) {
  return a + b;
}

const USAGE = 'call it(a, b) or test(a, b)';

module.exports = { sum, USAGE };
";

    /// Vitest, TypeScript.
    const VITEST: &str = r"import { describe, expect, it } from 'vitest';
import { Cart } from './cart';

describe('Cart', () => {
  it('starts empty', () => {
    expect(new Cart().items).toHaveLength(0);
  });

  it('totals its items', () => {
    const cart = new Cart();
    cart.add({ price: 2 });
    cart.add({ price: 3 });
    expect(cart.total()).toBe(5);
  });
});
";

    /// Mocha with node's assert.
    const MOCHA: &str = r"const assert = require('assert');
const { get } = require('./client');

describe('GET /health', function () {
  it('answers 200', async function () {
    const res = await get('/health');
    assert.strictEqual(res.status, 200);
  });

  it('reports the version', async function () {
    const res = await get('/health');
    assert.ok(res.body.version);
  });
});
";

    /// node:test.
    const NODE_TEST: &str = r"import test from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../src/parse.mjs';

test('parses integers', () => {
  assert.equal(parse('42'), 42);
});

test('rejects words', (t) => {
  assert.throws(() => parse('x'));
});
";

    fn repo() -> Repo {
        Repo::new(&[
            (
                "package.json",
                "{ \"name\": \"shop\", \"private\": true }\n",
            ),
            ("src/sum.js", SUM),
            ("src/__tests__/sum.test.js", JEST),
            ("src/cart.test.ts", VITEST),
            ("test/health.spec.js", MOCHA),
            ("test/parse.test.mjs", NODE_TEST),
        ])
    }

    const ONE_TEST: Tampering = Tampering {
        tests_removed: 1,
        assertions_removed: 1,
        modifies_tests: true,
        ..NONE
    };

    const ONE_SKIP: Tampering = Tampering {
        test_skips_added: 1,
        modifies_tests: true,
        ..NONE
    };

    const ONE_ASSERTION: Tampering = Tampering {
        assertions_removed: 1,
        modifies_tests: true,
        ..NONE
    };

    #[test]
    fn jest_deleting_a_test() {
        let repo = repo();
        repo.write("src/__tests__/sum.test.js", &edit(JEST, NEGATIVE_TEST, ""));
        assert_eq!(
            repo.tampering(),
            Tampering {
                assertions_removed: 2,
                ..ONE_TEST
            }
        );
    }

    #[test]
    fn jest_skipping_a_test() {
        let repo = repo();
        repo.write(
            "src/__tests__/sum.test.js",
            &edit(
                JEST,
                "test('adds negative numbers'",
                "test.skip('adds negative numbers'",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        snapshot_report(&repo, "javascript_jest_skipping_a_test");
    }

    #[test]
    fn jest_removing_an_assertion() {
        let repo = repo();
        repo.write(
            "src/__tests__/sum.test.js",
            &edit(JEST, "    expect(sum(-1, 1)).toBe(0);\n", ""),
        );
        assert_eq!(repo.tampering(), ONE_ASSERTION);
    }

    #[test]
    fn jest_renaming_a_test() {
        let repo = repo();
        repo.write(
            "src/__tests__/sum.test.js",
            &edit(JEST, "test('adds two numbers'", "test('sums two numbers'"),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn jest_moving_a_test_to_another_file() {
        let repo = repo();
        repo.write("src/__tests__/sum.test.js", &edit(JEST, NEGATIVE_TEST, ""));
        repo.write(
            "src/__tests__/negative.test.js",
            &format!("const {{ sum }} = require('../sum');\n\ndescribe('negative sums', () => {{{NEGATIVE_TEST}}});\n"),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn jest_adding_tests() {
        let repo = repo();
        repo.write(
            "src/__tests__/sum.test.js",
            &edit(
                JEST,
                "});\n});\n",
                "});\n\n  test.each([[1, 1, 2], [2, 2, 4]])('sum(%i, %i)', (a, b, want) => {\n    expect(sum(a, b)).toBe(want);\n  });\n});\n",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn comments_strings_and_regexes_that_look_like_tests() {
        let repo = repo();
        let sum = edit(
            SUM,
            " * expect(sum(1, 2)).toBe(3);\n",
            " * sum(1, 2) === 3\n",
        );
        let sum = edit(
            &sum,
            "const USAGE = 'call it(a, b) or test(a, b)';\n",
            "const USAGE = \"call sum(a, b)\";\n// it('used to be tested here', () => expect(1).toBe(1));\nconst HELP = `\n  it.skip('x') and expect(y) are not code here\n`;\nconst TEST_CALL = /\\bit\\(|test\\(/;\n",
        );
        repo.write("src/sum.js", &sum);
        assert_eq!(repo.tampering(), NONE);
        repo.assert_no_findings();
    }

    /// A call of a local helper named `test` in application code (no test file by its
    /// name, no test framework imported) is not a test: removing it counts nothing.
    #[test]
    fn a_local_helper_named_test_is_not_a_test() {
        let validate = "const test = (pattern, text) => pattern.test(text);\n\nexport function isSlug(text) {\n  return test(/^[a-z-]+$/, text);\n}\n";
        let repo = Repo::new(&[("src/validate.js", validate)]);
        repo.write(
            "src/validate.js",
            &edit(
                validate,
                "  return test(/^[a-z-]+$/, text);\n",
                "  return /^[a-z-]+$/.test(text);\n",
            ),
        );
        assert_eq!(repo.tampering(), NONE);
    }

    #[test]
    fn vitest_deleting_skipping_focusing_and_removing_an_assertion() {
        let repo = repo();
        let totals_test = "\n  it('totals its items', () => {\n    const cart = new Cart();\n    cart.add({ price: 2 });\n    cart.add({ price: 3 });\n    expect(cart.total()).toBe(5);\n  });\n";
        repo.write("src/cart.test.ts", &edit(VITEST, totals_test, ""));
        assert_eq!(repo.tampering(), ONE_TEST);
        repo.write(
            "src/cart.test.ts",
            &edit(
                VITEST,
                "it('totals its items'",
                "it.skipIf(process.env.CI)('totals its items'",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        // `.only` silently skips every other test.
        repo.write(
            "src/cart.test.ts",
            &edit(VITEST, "describe('Cart'", "describe.only('Cart'"),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        repo.write(
            "src/cart.test.ts",
            &edit(VITEST, "    expect(cart.total()).toBe(5);\n", ""),
        );
        assert_eq!(repo.tampering(), ONE_ASSERTION);
    }

    #[test]
    fn mocha_deleting_skipping_and_removing_an_assertion() {
        let repo = repo();
        let version_test = "\n  it('reports the version', async function () {\n    const res = await get('/health');\n    assert.ok(res.body.version);\n  });\n";
        repo.write("test/health.spec.js", &edit(MOCHA, version_test, ""));
        assert_eq!(repo.tampering(), ONE_TEST);
        repo.write(
            "test/health.spec.js",
            &edit(
                MOCHA,
                "  it('reports the version'",
                "  xit('reports the version'",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        repo.write(
            "test/health.spec.js",
            &edit(
                MOCHA,
                "    const res = await get('/health');\n    assert.ok",
                "    this.skip();\n    const res = await get('/health');\n    assert.ok",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        repo.write(
            "test/health.spec.js",
            &edit(MOCHA, "    assert.strictEqual(res.status, 200);\n", ""),
        );
        assert_eq!(repo.tampering(), ONE_ASSERTION);
    }

    #[test]
    fn node_test_deleting_skipping_and_removing_an_assertion() {
        let repo = repo();
        let words_test =
            "\ntest('rejects words', (t) => {\n  assert.throws(() => parse('x'));\n});\n";
        repo.write("test/parse.test.mjs", &edit(NODE_TEST, words_test, ""));
        assert_eq!(repo.tampering(), ONE_TEST);
        repo.write(
            "test/parse.test.mjs",
            &edit(
                NODE_TEST,
                "test('rejects words', (t) => {",
                "test('rejects words', { skip: 'flaky' }, (t) => {",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        repo.write(
            "test/parse.test.mjs",
            &edit(
                NODE_TEST,
                "  assert.throws(() => parse('x'));\n",
                "  t.skip('not yet');\n  assert.throws(() => parse('x'));\n",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        repo.write(
            "test/parse.test.mjs",
            &edit(NODE_TEST, "  assert.equal(parse('42'), 42);\n", ""),
        );
        assert_eq!(repo.tampering(), ONE_ASSERTION);
    }
}

// ---------------------------------------------------------------------------------------
// Go

mod go {
    use super::*;

    const CALC_TEST: &str = r#"package calc

import (
	"fmt"
	"testing"
)

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestDivide(t *testing.T) {
	cases := []struct{ a, b, want int }{{4, 2, 2}, {9, 3, 3}}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d/%d", tc.a, tc.b), func(t *testing.T) {
			got, err := Divide(tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}
"#;

    const ADD_TEST: &str = r#"
func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}
"#;

    const CALC: &str = r#"// Package calc does arithmetic.
package calc

import "errors"

// Add adds two numbers.
func Add(a, b int) int { return a + b }

// Divide divides a by b.
func Divide(a, b int) (int, error) {
	if b == 0 {
		return 0, errors.New("division by zero")
	}
	return a / b, nil
}
"#;

    fn repo() -> Repo {
        Repo::new(&[
            ("go.mod", "module example.com/calc\n\ngo 1.22\n"),
            ("calc/calc.go", CALC),
            ("calc/calc_test.go", CALC_TEST),
        ])
    }

    #[test]
    fn deleting_a_test_with_subtests() {
        let repo = repo();
        repo.write(
            "calc/calc_test.go",
            &CALC_TEST[..=CALC_TEST.find("\nfunc TestDivide").unwrap()],
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                // `func TestDivide` and its `t.Run` subtest.
                tests_removed: 2,
                assertions_removed: 2,
                modifies_tests: true,
                ..NONE
            }
        );
        snapshot_report(&repo, "go_deleting_a_test_with_subtests");
    }

    #[test]
    fn skipping_a_test() {
        let repo = repo();
        repo.write(
            "calc/calc_test.go",
            &edit(
                CALC_TEST,
                "func TestDivide(t *testing.T) {\n",
                "func TestDivide(t *testing.T) {\n\tt.Skip(\"flaky on CI\")\n",
            ),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                test_skips_added: 1,
                modifies_tests: true,
                ..NONE
            }
        );
    }

    #[test]
    fn removing_an_assertion() {
        let repo = repo();
        repo.write(
            "calc/calc_test.go",
            &edit(
                CALC_TEST,
                "\t\t\tif err != nil {\n\t\t\t\tt.Fatal(err)\n\t\t\t}\n",
                "",
            ),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                assertions_removed: 1,
                modifies_tests: true,
                ..NONE
            }
        );
    }

    #[test]
    fn renaming_a_test() {
        let repo = repo();
        repo.write(
            "calc/calc_test.go",
            &edit(CALC_TEST, "func TestAdd(", "func TestAddition("),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn moving_a_test_to_another_file() {
        let repo = repo();
        repo.write("calc/calc_test.go", &edit(CALC_TEST, ADD_TEST, ""));
        repo.write(
            "calc/add_test.go",
            &format!("package calc\n\nimport \"testing\"\n{ADD_TEST}"),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn adding_tests() {
        let repo = repo();
        repo.write(
            "calc/calc_test.go",
            &format!(
                "{CALC_TEST}\nfunc TestDivideByZero(t *testing.T) {{\n\tif _, err := Divide(1, 0); err == nil {{\n\t\tt.Fatal(\"no error\")\n\t}}\n}}\n\nfunc ExampleAdd() {{\n\tfmt.Println(Add(1, 2))\n\t// Output: 3\n}}\n"
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn comments_and_strings_that_look_like_tests() {
        let repo = repo();
        let calc = edit(
            CALC,
            "// Divide divides a by b.\n",
            "// Divide divides a by b. Its test used to t.Skip(\"flaky\") here.\n// func TestDivide(t *testing.T) { t.Fatal(\"x\") }\n/*\nfunc TestOld(t *testing.T) {\n\tt.Errorf(\"gone\")\n}\n*/\nconst usage = \"func TestX(t *testing.T) { t.Fatal(err) }\"\n\nconst template = `\nfunc Test{{.Name}}(t *testing.T) {\n\tt.Skip()\n}\n`\n",
        );
        repo.write("calc/calc.go", &calc);
        assert_eq!(repo.tampering(), NONE);
        repo.assert_no_findings();
    }
}

// ---------------------------------------------------------------------------------------
// Java and Kotlin

mod jvm {
    use super::*;

    /// `JUnit` 5.
    const JUNIT5: &str = r"package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CalculatorTest {
    private final Calculator calculator = new Calculator();

    @Test
    void addsTwoNumbers() {
        assertEquals(5, calculator.add(2, 3));
    }

    @Test
    void divisionByZeroThrows() {
        assertThrows(ArithmeticException.class, () -> calculator.divide(1, 0));
        assertEquals(2, calculator.divide(4, 2));
    }
}
";

    const DIVISION_TEST: &str = r"
    @Test
    void divisionByZeroThrows() {
        assertThrows(ArithmeticException.class, () -> calculator.divide(1, 0));
        assertEquals(2, calculator.divide(4, 2));
    }
";

    /// `JUnit` 4.
    const JUNIT4: &str = r"package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LegacyCalculatorTest {
    @Test
    public void subtracts() {
        assertEquals(1, new Calculator().subtract(3, 2));
    }

    @Test(expected = ArithmeticException.class)
    public void divisionByZeroThrows() {
        new Calculator().divide(1, 0);
    }
}
";

    const CALCULATOR: &str = r"package com.example;

/**
 * A calculator. Tested by {@code CalculatorTest}: {@code assertEquals(5, add(2, 3))}.
 */
public class Calculator {
    public int add(int a, int b) {
        return a + b;
    }

    public int divide(int a, int b) {
        return a / b;
    }
}
";

    /// `JUnit` 5 and `kotlin.test`, with quoted names.
    const KOTLIN: &str = r#"package com.example

import kotlin.test.assertFailsWith
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

class GreeterTest {
    private val greeter = Greeter()

    @Test
    fun `greets by name`() {
        assertEquals("Hello, Ada!", greeter.greet("Ada"))
    }

    @Test
    fun `rejects a blank name`() {
        assertFailsWith<IllegalArgumentException> { greeter.greet(" ") }
        assertEquals("Hello, Bob!", greeter.greet("Bob"))
    }
}
"#;

    const BLANK_TEST: &str = r#"
    @Test
    fun `rejects a blank name`() {
        assertFailsWith<IllegalArgumentException> { greeter.greet(" ") }
        assertEquals("Hello, Bob!", greeter.greet("Bob"))
    }
"#;

    /// `JUnit` 4 in Kotlin.
    const KOTLIN_JUNIT4: &str = r#"package com.example

import org.junit.Assert.assertTrue
import org.junit.Test

class LegacyGreeterTest {
    @Test
    fun greetsPolitely() {
        assertTrue(Greeter().greet("Ada").startsWith("Hello"))
    }
}
"#;

    const GREETER: &str = r#"package com.example

/**
 * Greets people. Tested with `assertEquals("Hello, Ada!", greet("Ada"))`.
 */
class Greeter {
    fun greet(name: String): String {
        require(name.isNotBlank()) { "a name, not \"$name\"" }
        return "Hello, $name!"
    }
}
"#;

    const JAVA_TEST: &str = "src/test/java/com/example/CalculatorTest.java";
    const JAVA_JUNIT4_TEST: &str = "src/test/java/com/example/LegacyCalculatorTest.java";
    const KOTLIN_TEST: &str = "src/test/kotlin/com/example/GreeterTest.kt";
    const KOTLIN_JUNIT4_TEST: &str = "src/test/kotlin/com/example/LegacyGreeterTest.kt";

    fn repo() -> Repo {
        Repo::new(&[
            ("src/main/java/com/example/Calculator.java", CALCULATOR),
            (JAVA_TEST, JUNIT5),
            (JAVA_JUNIT4_TEST, JUNIT4),
            ("src/main/kotlin/com/example/Greeter.kt", GREETER),
            (KOTLIN_TEST, KOTLIN),
            (KOTLIN_JUNIT4_TEST, KOTLIN_JUNIT4),
        ])
    }

    const ONE_SKIP: Tampering = Tampering {
        test_skips_added: 1,
        modifies_tests: true,
        ..NONE
    };

    const ONE_ASSERTION: Tampering = Tampering {
        assertions_removed: 1,
        modifies_tests: true,
        ..NONE
    };

    #[test]
    fn java_deleting_tests() {
        let repo = repo();
        repo.write(JAVA_TEST, &edit(JUNIT5, DIVISION_TEST, ""));
        let two_assertions = Tampering {
            tests_removed: 1,
            assertions_removed: 2,
            modifies_tests: true,
            ..NONE
        };
        assert_eq!(repo.tampering(), two_assertions);
        repo.git(&["reset", "-q", "--hard"]);
        repo.write(
            JAVA_JUNIT4_TEST,
            &edit(
                JUNIT4,
                "\n    @Test(expected = ArithmeticException.class)\n    public void divisionByZeroThrows() {\n        new Calculator().divide(1, 0);\n    }\n",
                "",
            ),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 1,
                modifies_tests: true,
                ..NONE
            }
        );
    }

    #[test]
    fn java_disabling_and_assuming() {
        let repo = repo();
        repo.write(
            JAVA_TEST,
            &edit(
                JUNIT5,
                "    @Test\n    void divisionByZeroThrows",
                "    @Disabled(\"flaky\")\n    @Test\n    void divisionByZeroThrows",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        repo.write(
            JAVA_TEST,
            &edit(
                JUNIT5,
                "        assertEquals(5, calculator.add(2, 3));\n",
                "        Assumptions.assumeTrue(System.getenv(\"CI\") == null);\n        assertEquals(5, calculator.add(2, 3));\n",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        repo.git(&["reset", "-q", "--hard"]);
        repo.write(
            JAVA_JUNIT4_TEST,
            &edit(
                JUNIT4,
                "    @Test\n    public void subtracts",
                "    @Ignore\n    @Test\n    public void subtracts",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
    }

    #[test]
    fn java_removing_an_assertion() {
        let repo = repo();
        repo.write(
            JAVA_TEST,
            &edit(
                JUNIT5,
                "    @Test\n    void divisionByZeroThrows",
                "    @Disabled(\"hangs\")\n    @Test\n    void divisionByZeroThrows",
            ),
        );
        repo.write(
            JAVA_TEST,
            &edit(
                &std::fs::read_to_string(repo.path().join(JAVA_TEST)).unwrap(),
                "        assertEquals(2, calculator.divide(4, 2));\n",
                "",
            ),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                assertions_removed: 1,
                ..ONE_SKIP
            }
        );
        snapshot_report(&repo, "java_disabling_a_test_and_removing_an_assertion");
        repo.git(&["reset", "-q", "--hard"]);
        repo.write(
            JAVA_JUNIT4_TEST,
            &edit(
                JUNIT4,
                "        assertEquals(1, new Calculator().subtract(3, 2));\n",
                "        new Calculator().subtract(3, 2);\n",
            ),
        );
        assert_eq!(repo.tampering(), ONE_ASSERTION);
    }

    #[test]
    fn java_renaming_moving_and_adding_tests() {
        let repo = repo();
        repo.write(
            JAVA_TEST,
            &edit(JUNIT5, "void addsTwoNumbers()", "void addsSmallNumbers()"),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
        // Moved into a new class.
        repo.write(JAVA_TEST, &edit(JUNIT5, DIVISION_TEST, ""));
        repo.write(
            "src/test/java/com/example/DivisionTest.java",
            &format!(
                "package com.example;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass DivisionTest {{\n    private final Calculator calculator = new Calculator();\n{DIVISION_TEST}}}\n"
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
        repo.git(&["reset", "-q", "--hard"]);
        // Added: a parameterized test.
        repo.write(
            JAVA_TEST,
            &edit(
                JUNIT5,
                "    @Test\n    void addsTwoNumbers",
                "    @ParameterizedTest\n    @ValueSource(ints = {1, 2, 3})\n    void addsZero(int n) {\n        assertEquals(n, calculator.add(n, 0));\n    }\n\n    @Test\n    void addsTwoNumbers",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn kotlin_deleting_skipping_and_removing_an_assertion() {
        let repo = repo();
        repo.write(KOTLIN_TEST, &edit(KOTLIN, BLANK_TEST, ""));
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 1,
                assertions_removed: 2,
                modifies_tests: true,
                ..NONE
            }
        );
        snapshot_report(&repo, "kotlin_deleting_a_test");
        repo.write(
            KOTLIN_TEST,
            &edit(
                KOTLIN,
                "    @Test\n    fun `rejects",
                "    @Disabled(\"flaky\")\n    @Test\n    fun `rejects",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        repo.write(
            KOTLIN_TEST,
            &edit(
                KOTLIN,
                "        assertEquals(\"Hello, Bob!\", greeter.greet(\"Bob\"))\n",
                "",
            ),
        );
        assert_eq!(repo.tampering(), ONE_ASSERTION);
        repo.git(&["reset", "-q", "--hard"]);
        repo.write(
            KOTLIN_JUNIT4_TEST,
            &edit(
                KOTLIN_JUNIT4,
                "    @Test\n    fun greetsPolitely",
                "    @Ignore(\"later\")\n    @Test\n    fun greetsPolitely",
            ),
        );
        assert_eq!(repo.tampering(), ONE_SKIP);
        repo.write(
            KOTLIN_JUNIT4_TEST,
            &edit(
                KOTLIN_JUNIT4,
                "    @Test\n    fun greetsPolitely() {\n        assertTrue(Greeter().greet(\"Ada\").startsWith(\"Hello\"))\n    }\n",
                "",
            ),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 1,
                assertions_removed: 1,
                modifies_tests: true,
                ..NONE
            }
        );
    }

    #[test]
    fn kotlin_renaming_moving_and_adding_tests() {
        let repo = repo();
        repo.write(
            KOTLIN_TEST,
            &edit(
                KOTLIN,
                "fun `greets by name`()",
                "fun `greets a person by name`()",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
        repo.write(KOTLIN_TEST, &edit(KOTLIN, BLANK_TEST, ""));
        repo.write(
            "src/test/kotlin/com/example/BlankNameTest.kt",
            &format!(
                "package com.example\n\nimport kotlin.test.assertFailsWith\nimport org.junit.jupiter.api.Assertions.assertEquals\nimport org.junit.jupiter.api.Test\n\nclass BlankNameTest {{\n    private val greeter = Greeter()\n{BLANK_TEST}}}\n"
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
        repo.git(&["reset", "-q", "--hard"]);
        repo.write(
            KOTLIN_TEST,
            &edit(
                KOTLIN,
                "    @Test\n    fun `greets by name`",
                "    @Test\n    fun `greets twice`() {\n        assertEquals(greeter.greet(\"A\"), greeter.greet(\"A\"))\n    }\n\n    @Test\n    fun `greets by name`",
            ),
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }

    #[test]
    fn comments_and_strings_that_look_like_tests() {
        let repo = repo();
        repo.write(
            "src/main/java/com/example/Calculator.java",
            &edit(
                CALCULATOR,
                "public class Calculator {\n",
                "public class Calculator {\n    // @Test and @Disabled used to be here; assertEquals(1, 2) too.\n    static final String USAGE = \"@Disabled(\\\"x\\\") @Test void t() { assertTrue(false); }\";\n    static final String BLOCK = \"\"\"\n        @Test\n        void generated() { assertEquals(1, 1); }\n        \"\"\";\n    static final char AT = '@';\n",
            ),
        );
        repo.write(
            "src/main/kotlin/com/example/Greeter.kt",
            &edit(
                GREETER,
                "class Greeter {\n",
                "class Greeter {\n    /* outer /* @Test */ still a comment: assertEquals(1, 2) @Ignore */\n    val usage = \"@Test fun `x`() { assertTrue(${1 + 1} == 2) }\"\n    val raw = \"\"\"\n        @Disabled\n        assertEquals(1, 1)\n    \"\"\"\n",
            ),
        );
        assert_eq!(repo.tampering(), NONE);
        repo.assert_no_findings();
    }
}

// ---------------------------------------------------------------------------------------
// Whole files: deleted, renamed, copied

mod files {
    use super::*;

    /// A test file deleted outright loses every test and assertion it held.
    #[test]
    fn deleting_a_test_file() {
        let repo = Repo::new(&[("tests/test_calc.py", python::PYTEST)]);
        repo.remove("tests/test_calc.py");
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 2,
                assertions_removed: 3,
                modifies_tests: true,
                ..NONE
            }
        );
    }

    /// A rename is judged as an edit: the old content against the new.
    #[test]
    fn renaming_a_test_file_and_editing_it() {
        let repo = Repo::new(&[("tests/test_calc.py", python::PYTEST)]);
        repo.git(&["mv", "tests/test_calc.py", "tests/test_arith.py"]);
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.write(
            "tests/test_arith.py",
            &edit(python::PYTEST, "    assert divide(4, 2) == 2\n", ""),
        );
        assert_eq!(
            repo.tampering(),
            Tampering {
                assertions_removed: 1,
                modifies_tests: true,
                ..NONE
            }
        );
        let report = repo.report();
        // A rename's findings name its new path (docs/test-tampering.md, "Findings"); a
        // removal's line is in the old file.
        assert!(
            report.contains(
                "tests/test_arith.py:13 (old)  assertion removed: assert divide(4, 2) == 2"
            ),
            "{report}"
        );
    }

    /// Renaming a test file to a name no runner collects (and that the analysis does not
    /// know) removes its tests: `test_calc.py.disabled` is not Python any more.
    #[test]
    fn renaming_a_test_file_away_from_its_language_removes_its_tests() {
        let repo = renamed_away("tests/test_calc.py.disabled", "src/lib.rs.orig");
        let report = repo.report();
        assert!(
            report.contains("tests/test_calc.py:6 (old)  test removed: def test_add():"),
            "{report}"
        );
    }

    /// Renaming a test file to a name its language's runners do not collect by default
    /// (`test_calc.py` to `calc.py`, `sum.test.js` to `sum.js`) removes its tests: the
    /// code is all there, and none of it runs. A rename that keeps the runner's naming
    /// removes nothing.
    #[test]
    fn renaming_a_test_file_out_of_the_runners_naming_removes_its_tests() {
        let repo = Repo::new(&[
            ("tests/test_calc.py", python::PYTEST),
            ("web/sum.test.js", javascript::JEST),
        ]);
        repo.git(&["mv", "tests/test_calc.py", "tests/calc.py"]);
        repo.git(&["mv", "web/sum.test.js", "web/sum.js"]);
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 4,
                assertions_removed: 6,
                modifies_tests: true,
                ..NONE
            }
        );
        let output = repo.check_as_agent().output().unwrap();
        assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));

        let repo = Repo::new(&[
            ("tests/test_calc.py", python::PYTEST),
            ("web/sum.test.js", javascript::JEST),
        ]);
        repo.git(&["mv", "tests/test_calc.py", "tests/test_calculator.py"]);
        repo.git(&["mv", "web/sum.test.js", "web/sum.spec.js"]);
        assert_eq!(
            repo.tampering(),
            Tampering {
                modifies_tests: true,
                ..NONE
            }
        );
    }

    /// Renaming a file into another language (`lib.rs` to `lib.py`, `test_calc.py` to
    /// `test_calc.js`) removes its tests too: the new language's patterns know nothing of
    /// the old one's, and no runner of the old language collects them.
    #[test]
    fn renaming_a_test_file_into_another_language_removes_its_tests() {
        renamed_away("tests/test_calc.js", "src/lib.py");
    }

    /// A pytest file and a Rust file with tests, renamed to `python_to` and `rust_to`: every
    /// test and assertion of both is removed.
    fn renamed_away(python_to: &str, rust_to: &str) -> Repo {
        let repo = Repo::new(&[
            ("tests/test_calc.py", python::PYTEST),
            ("src/lib.rs", rust::LIB),
        ]);
        repo.git(&["mv", "tests/test_calc.py", python_to]);
        repo.git(&["mv", "src/lib.rs", rust_to]);
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 4,
                assertions_removed: 6,
                modifies_tests: true,
                ..NONE
            }
        );
        repo
    }

    /// A file over the analysis budget (4 MiB) is not read. A test deleted from a
    /// `#[cfg(test)]` module beside one huge comment line used to count nothing, and the
    /// built-in policy let the agent's commit through (src/ is no test path, and the line
    /// count is small). The new side now counts as empty, like a binary one.
    #[test]
    fn a_file_that_outgrows_the_analysis_budget_has_lost_its_tests() {
        let repo = Repo::new(&[("src/lib.rs", rust::LIB)]);
        let huge = format!(
            "{}// {}\n",
            edit(rust::LIB, DIVISION_TEST_LINE, ""),
            "x".repeat(4 * 1024 * 1024)
        );
        repo.write("src/lib.rs", &huge);
        assert_eq!(
            repo.tampering(),
            Tampering {
                tests_removed: 2,
                assertions_removed: 3,
                modifies_tests: true,
                ..NONE
            }
        );
        let output = repo.check_as_agent().output().unwrap();
        assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    }

    /// With `diff.renames=copies`, a new file can be reported as a copy of a changed one.
    /// The source stays, so the copy's tests are all new: nothing was removed.
    #[test]
    fn a_copied_test_file_adds_tests() {
        let repo = Repo::new(&[("tests/test_calc.py", python::PYTEST)]);
        repo.git(&["config", "diff.renames", "copies"]);
        // The copy drops a test of its source; the source itself only gains a comment.
        repo.write(
            "tests/test_calc.py",
            &format!("# Split into test_divide.py.\n{}", python::PYTEST),
        );
        repo.write(
            "tests/test_calc_copy.py",
            &edit(
                python::PYTEST,
                "\n\ndef test_add():\n    assert add(2, 3) == 5\n",
                "",
            ),
        );
        repo.git(&["add", "-A"]);
        let status = repo.git(&["diff", "--cached", "--name-status"]);
        assert!(
            status.starts_with('C') || status.contains("\nC"),
            "{status}"
        );
        assert_eq!(repo.tampering(), NONE_IN_TESTS);
        repo.assert_no_findings();
    }
}

// ---------------------------------------------------------------------------------------
// The gate: an agent's commit, with the hooks installed

/// An agent (`CLAUDECODE=1`) marks the failing test as ignored and commits: the built-in
/// policy holds the commit in the pre-commit hook, and `--no-verify` is stopped by the
/// reference-transaction backstop. The test is in a `#[cfg(test)]` module in `src/`, which
/// no `[tests].paths` pattern matches: only the analysis sees it.
#[test]
fn an_agent_skipping_a_failing_test_is_held_by_the_default_policy() {
    let repo = Repo::new(&[("src/lib.rs", rust::LIB)]);
    let install = repo.astrix().arg("install").output().unwrap();
    assert_eq!(install.status.code(), Some(0), "{}", stderr(&install));
    let head = repo.git(&["rev-parse", "HEAD"]);

    repo.write(
        "src/lib.rs",
        &edit(
            rust::LIB,
            "    #[test]\n    fn division",
            "    #[test]\n    #[ignore]\n    fn division",
        ),
    );
    repo.git(&["add", "src/lib.rs"]);
    let commit = |extra: &[&str]| {
        isolated("git", repo.path())
            .args(["commit", "-q", "-m", "Skip the flaky division test"])
            .args(extra)
            .env("CLAUDECODE", "1")
            .output()
            .unwrap()
    };

    let output = commit(&[]);
    let message = stderr(&output);
    assert!(!output.status.success(), "{message}");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head);
    assert!(message.contains("held for approval"), "{message}");
    assert!(message.contains("[agents-skipping-tests]"), "{message}");
    assert!(
        message.contains("test tampering: 0 tests removed, 1 skip added, 0 assertions removed"),
        "{message}"
    );
    assert!(
        message.contains("src/lib.rs:30  skip added: #[ignore]"),
        "{message}"
    );
    // The change is still staged, for a human to review.
    assert_eq!(
        repo.git(&["diff", "--cached", "--name-only"]),
        "src/lib.rs\n"
    );

    let output = commit(&["--no-verify"]);
    let message = stderr(&output);
    assert!(!output.status.success(), "{message}");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head);
    assert!(message.contains("[agents-skipping-tests]"), "{message}");
    assert!(
        message.contains("src/lib.rs:30  skip added: #[ignore]"),
        "{message}"
    );

    // The same change by a human goes through.
    let output = isolated("git", repo.path())
        .args(["commit", "-q", "-m", "Skip the flaky division test"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_ne!(repo.git(&["rev-parse", "HEAD"]), head);
}

/// Concluding a merge, a file is judged against the parent it differs from least. That
/// parent used to be found only when the policy needed line counts: under a policy that
/// reads `tests_removed` alone, a test dropped while resolving a merge was compared with
/// HEAD (which never had it), counted 0, and the commit went through. Both hooks now hold it.
#[test]
fn a_test_dropped_while_concluding_a_merge_is_held() {
    let base = "import pytest\n\n\ndef test_1():\n    assert 1\n";
    let repo = Repo::new(&[
        ("Astrixfile.ax", &with_tamper_rule()),
        ("tests/test_a.py", base),
    ]);
    repo.git(&["checkout", "-q", "-b", "more-tests"]);
    let more = (2..=6).fold(String::new(), |more, n| {
        more + &format!("\n\ndef test_{n}():\n    assert {n}\n")
    });
    repo.write("tests/test_a.py", &format!("{base}{more}"));
    repo.git(&["commit", "-q", "-am", "More tests"]);
    repo.git(&["checkout", "-q", "feature"]);
    repo.write("tests/test_a.py", &format!("# Arithmetic.\n{base}"));
    repo.git(&["commit", "-q", "-am", "A comment"]);
    let head = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["merge", "-q", "--no-commit", "more-tests"]);
    // The agent drops the merged branch's last test while concluding the merge.
    let merged = std::fs::read_to_string(repo.path().join("tests/test_a.py")).unwrap();
    repo.write(
        "tests/test_a.py",
        &edit(&merged, "\n\ndef test_6():\n    assert 6\n", ""),
    );
    assert_eq!(
        repo.tampering(),
        Tampering {
            tests_removed: 1,
            assertions_removed: 1,
            modifies_tests: true,
            ..NONE
        }
    );
    let output = repo.check_as_agent().output().unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(
        report.contains("tests/test_a.py:24 (old)  test removed: def test_6():"),
        "{report}"
    );

    let install = repo.astrix().arg("install").output().unwrap();
    assert_eq!(install.status.code(), Some(0), "{}", stderr(&install));
    for extra in [&[][..], &["--no-verify"][..]] {
        let output = isolated("git", repo.path())
            .args(["commit", "-q", "-m", "Merge more-tests"])
            .args(extra)
            .env("CLAUDECODE", "1")
            .output()
            .unwrap();
        let message = stderr(&output);
        assert!(!output.status.success(), "{extra:?}: {message}");
        assert!(
            message.contains("tests_removed is 1"),
            "{extra:?}: {message}"
        );
        assert_eq!(repo.git(&["rev-parse", "HEAD"]), head);
    }
}

/// A merge is judged by what its resolution does, net of what the other parent brought since
/// the merge base: a test the merged branch removed (judged in that branch's own commit) is
/// not removed again by the merge, also when the file is compared with the parent that
/// still had it. Once the merge is made, `astrix ci` counts it the same way.
#[test]
fn a_merge_is_not_charged_with_what_the_other_side_removed() {
    let base = "import pytest\n\n\ndef test_1():\n    assert 1\n\n\ndef test_2():\n    assert 2\n\n\ndef test_3():\n    assert 3\n";
    let repo = Repo::new(&[
        ("Astrixfile.ax", &with_tamper_rule()),
        ("tests/test_a.py", base),
    ]);
    let fork = repo.git(&["rev-parse", "HEAD"]).trim().to_owned();
    repo.git(&["checkout", "-q", "-b", "cleanup"]);
    repo.write(
        "tests/test_a.py",
        &edit(base, "\n\ndef test_3():\n    assert 3\n", ""),
    );
    repo.git(&["commit", "-q", "-am", "Drop test_3"]);
    repo.git(&["checkout", "-q", "feature"]);
    // Ten lines of notes on the first test: the merge is closer to `cleanup` than to this.
    let notes = (1..=10).fold(String::new(), |notes, n| {
        notes + &format!("    # note {n}\n")
    });
    repo.write(
        "tests/test_a.py",
        &edit(base, "def test_1():\n", &format!("def test_1():\n{notes}")),
    );
    repo.git(&["commit", "-q", "-am", "Notes"]);
    repo.git(&["merge", "-q", "--no-commit", "cleanup"]);
    assert_eq!(
        repo.tampering(),
        Tampering {
            modifies_tests: true,
            ..NONE
        }
    );
    repo.git(&["commit", "-q", "-m", "Merge cleanup"]);
    let output = repo
        .astrix()
        .args([
            "ci",
            "--base",
            &fork,
            "--target-branch",
            "main",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}", stderr(&output)));
    let merge = &report["commits"][2];
    assert_eq!(merge["summary"], "Merge cleanup", "{report}");
    assert_eq!(merge["intent"]["diff"]["tests_removed"], 0, "{merge}");
}

/// Both sides of a merge added the same test (a cherry-pick), and the merge keeps it once:
/// nothing is removed, though the counts of each side added up would say one test went.
#[test]
fn a_merge_of_the_same_test_added_on_both_sides_removes_nothing() {
    let base = "import pytest\n\n\ndef test_1():\n    assert 1\n";
    let repo = Repo::new(&[
        ("Astrixfile.ax", &with_tamper_rule()),
        ("tests/test_a.py", base),
    ]);
    let added = format!("{base}\n\ndef test_2():\n    assert 2\n");
    repo.git(&["checkout", "-q", "-b", "fix"]);
    repo.write("tests/test_a.py", &added);
    repo.git(&["commit", "-q", "-am", "test_2"]);
    repo.write(
        "tests/test_a.py",
        &added.replace("import pytest\n", "import pytest  # the runner\n"),
    );
    repo.git(&["commit", "-q", "-am", "A note"]);
    repo.git(&["checkout", "-q", "feature"]);
    repo.git(&["cherry-pick", "fix~1"]);
    repo.write(
        "tests/test_a.py",
        &format!("{added}\n\ndef test_3():\n    assert 3\n"),
    );
    repo.git(&["commit", "-q", "-am", "test_3"]);
    repo.git(&["merge", "-q", "--no-commit", "fix"]);
    assert_eq!(
        repo.tampering(),
        Tampering {
            modifies_tests: true,
            ..NONE
        }
    );
}

// ---------------------------------------------------------------------------------------
// Cost: the analysis runs only when a rule needs it

/// A policy whose rules read none of the tampering counts and have no `modifies_tests`
/// condition.
const NO_TAMPER_POLICY: &str = r#"version = 1

[[rule]]
id = "agents-ci-config"
actor = ["autonomous_llm"]
paths = [".github/**"]
decision = "require_approval"
reason = "a human signs off on CI configuration changed by an agent"
"#;

/// The same policy and a rule that reads `tests_removed`.
fn with_tamper_rule() -> String {
    format!(
        "{NO_TAMPER_POLICY}\n[[rule]]\nid = \"agents-removing-tests\"\nactor = [\"autonomous_llm\"]\npolicy = \"tests_removed <= 0\"\nreason = \"an agent removed tests\"\n"
    )
}

/// Without a rule that needs it, `astrix check` does not read the changed files' content:
/// it succeeds though the staged blob is missing from the object store. With such a rule,
/// it must read it, and fails closed.
#[test]
fn the_analysis_reads_no_content_unless_a_rule_needs_it() {
    for (policy, needs_content) in [
        (NO_TAMPER_POLICY.to_owned(), false),
        (with_tamper_rule(), true),
    ] {
        let repo = Repo::new(&[("Astrixfile.ax", &policy), ("src/lib.rs", rust::LIB)]);
        repo.write("src/lib.rs", &edit(rust::LIB, DIVISION_TEST_LINE, ""));
        repo.git(&["add", "src/lib.rs"]);
        let blob = repo.git(&["rev-parse", ":src/lib.rs"]);
        let blob = blob.trim();
        std::fs::remove_file(
            repo.path()
                .join(".git/objects")
                .join(&blob[..2])
                .join(&blob[2..]),
        )
        .unwrap();
        let output = repo
            .astrix()
            .arg("check")
            .env("CLAUDECODE", "1")
            .output()
            .unwrap();
        if needs_content {
            assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
            assert!(stderr(&output).contains(blob), "{}", stderr(&output));
        } else {
            assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
            let report = String::from_utf8(output.stdout).unwrap();
            assert!(!report.contains("test tampering"), "{report}");
        }
    }
}

/// A line of [`rust::LIB`] whose removal removes an assertion.
const DIVISION_TEST_LINE: &str = "        assert!(checked_div(4, 2).is_some());\n";

/// A file too large to analyse before the change (over 4 MiB) is not counted, so the
/// change's counts are unknown, not zero: a policy that reads them fails and holds, and
/// the change modifies tests. Regression (issue 9): a test removed from such a file passed
/// `tests_removed <= 0`.
#[test]
fn a_file_too_large_to_analyse_leaves_the_counts_unknown_and_holds() {
    let filler = "// filler line of a generated module that keeps growing\n".repeat(80_000);
    let big = format!("{}{filler}", rust::LIB);
    assert!(big.len() > 4 * 1024 * 1024);
    let repo = Repo::new(&[("Astrixfile.ax", &with_tamper_rule()), ("src/lib.rs", &big)]);
    repo.write("src/lib.rs", &edit(&big, DIVISION_TEST_LINE, ""));
    repo.git(&["add", "src/lib.rs"]);
    let intent = repo.astrix().arg("intent").output().unwrap();
    assert_eq!(intent.status.code(), Some(0), "{}", stderr(&intent));
    let intent: Value = serde_json::from_slice(&intent.stdout).unwrap();
    assert_eq!(intent["diff"]["modifies_tests"], "true", "{intent}");
    assert!(intent["diff"].get("tests_removed").is_none(), "{intent}");

    let output = repo.check_as_agent().output().unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(report.contains("agents-removing-tests"), "{report}");
}
