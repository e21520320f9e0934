//! Python: pytest and unittest. Tests are functions and methods whose name starts with
//! `test` (pytest's and unittest's default); skips are pytest marks and calls and unittest
//! decorators and `skipTest`; assertions are `assert` statements, `assert…(` calls
//! (`self.assertEqual(`, `mock.assert_called_once_with(`, `assert_frame_equal(`) and
//! `pytest.raises(` / `pytest.warns(`.

use super::lex::{Backtick, SingleQuote, Syntax};
use super::pattern::{Name, Pattern, Tok};
use super::{Language, Table};

/// unittest's skip decorators, as `@unittest.skip…` or imported bare.
const UNITTEST_SKIPS: Name = Name::Is(&["skip", "skipIf", "skipUnless", "expectedFailure"]);

/// pytest's hooks that decide which tests are collected and run, and how their outcome is
/// reported: a conftest that defines one, or changes one's body, changes the run.
pub(crate) const HOOKS: &[&str] = &[
    "pytest_collection_modifyitems",
    "pytest_ignore_collect",
    "pytest_collect_file",
    "pytest_pycollect_makeitem",
    "pytest_collection",
    "pytest_runtest_setup",
    "pytest_runtest_call",
    "pytest_runtest_makereport",
    "pytest_sessionfinish",
    "pytest_pyfunc_call",
    "pytest_runtest_protocol",
    "pytest_runtestloop",
    "pytest_runtest_teardown",
    "pytest_collection_finish",
    "pytest_cmdline_main",
    "pytest_cmdline_parse",
    "pytest_cmdline_preparse",
    "pytest_load_initial_conftests",
    // An item replaced as it is collected (`item.runtest = lambda: None` in
    // `pytest_itemcollected`, attack-50 B7b, B7c), a directory or module collected another
    // way. Not the hooks that only report (`pytest_report_teststatus`,
    // `pytest_deselected`), which in pytest's own source are its code, nor
    // `pytest_generate_tests`: pytest's test modules parametrize themselves with it (16
    // commits of its history would count).
    "pytest_itemcollected",
    "pytest_make_collect_report",
    "pytest_collect_directory",
    "pytest_pycollect_makemodule",
];

/// Whether `name` is one of pytest's hooks (or of a plugin family pytest loads: xdist's):
/// what a plugin module defines for pytest to call. `pytest_available` or `pytest_args`,
/// an application's own names, are none (helper-65's attack-57 FP1, FP2).
pub(crate) fn is_hook_name(name: &[u8]) -> bool {
    const NAMES: &[&str] = &[
        "pytest_plugins",
        "pytest_addhooks",
        "pytest_addoption",
        "pytest_configure",
        "pytest_unconfigure",
        "pytest_generate_tests",
        "pytest_pyfunc_call",
        "pytest_deselected",
        "pytest_internalerror",
        "pytest_keyboard_interrupt",
        "pytest_exception_interact",
        "pytest_enter_pdb",
        "pytest_leave_pdb",
        "pytest_load_initial_conftests",
        "pytest_plugin_registered",
        "pytest_markeval_namespace",
        "pytest_itemcollected",
        "pytest_testnodeready",
        "pytest_testnodedown",
        "pytest_namespace",
        "pytest_funcarg__",
    ];
    const FAMILIES: &[&str] = &[
        "pytest_runtest",
        "pytest_collect",
        "pytest_cmdline_",
        "pytest_report_",
        "pytest_session",
        "pytest_fixture_",
        "pytest_assert",
        "pytest_pycollect_",
        "pytest_xdist_",
        "pytest_terminal_",
        "pytest_warning",
        "pytest_make_",
        "pytest_ignore_",
        "pytest_configure_",
        "pytest_funcarg__",
    ];
    std::str::from_utf8(name).is_ok_and(|name| {
        NAMES.contains(&name)
            || FAMILIES.iter().any(|family| name.starts_with(family))
            || HOOKS.contains(&name)
    })
}

/// The setting a change to a hook of [`HOOKS`] (its definition, binding or body) counts as.
pub(crate) const COLLECTION_HOOK: &str = "a collection hook";

/// The Python table.
pub(crate) const TABLE: Table = Table {
    language: Language::Python,
    extensions: &["py"],
    syntax: Syntax {
        hash_comments: true,
        slash_comments: false,
        nested_block_comments: false,
        single_quote: SingleQuote::String,
        triple_quotes: true,
        backtick: Backtick::Punct,
        multiline_strings: false,
        rust_raw_strings: false,
        regex_literals: false,
        unicode_line_ends: false,
    },
    tests: &[
        // `def test_…(`, `async def test_…(`, methods included.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["def"])),
            Tok::Ident(Name::StartsWith(&["test"])),
        ]),
    ],
    skips: &[
        // `@pytest.mark.skip`, `@pytest.mark.skipif(…)`, `@pytest.mark.xfail`, also as
        // `pytestmark = …`, in `pytest.param(…, marks=…)` or after `from pytest import mark`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["mark"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["skip", "skipif", "xfail"])),
        ]),
        // `@pytest.mark.parametrize("x", [])`: an empty parameter set, which pytest skips.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["parametrize"])),
            Tok::Punct(b"("),
            Tok::Str,
            Tok::Punct(b","),
            Tok::Punct(b"[("),
            Tok::Punct(b"])"),
        ]),
        // `pytest.skip(…)`, `pytest.xfail(…)`, `pytest.importorskip(…)` in a test body.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["pytest"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["skip", "xfail", "importorskip"])),
            Tok::Punct(b"("),
        ]),
        // `py.test.skip(…)`: pytest's functions under its old name.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["py"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["test"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["skip", "xfail", "importorskip"])),
            Tok::Punct(b"("),
        ]),
        // `_pytest.outcomes.skip(…)`, where pytest's come from.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["outcomes"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["skip", "xfail", "importorskip"])),
            Tok::Punct(b"("),
        ]),
        // The same functions under a local name: `from pytest import importorskip as
        // need`, then `need(…)` (see `PYTEST_SKIP_CALLS` in context.rs).
        Pattern::new(&[
            Tok::Ident(Name::Is(&[
                "pytest.skip",
                "pytest.xfail",
                "pytest.importorskip",
            ])),
            Tok::Punct(b"("),
        ]),
        // `@unittest.skip(…)`, `@unittest.skipIf(…)`, `@unittest.expectedFailure`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["unittest"])),
            Tok::Punct(b"."),
            Tok::Ident(UNITTEST_SKIPS),
        ]),
        // `@skip(…)` and friends after `from unittest import skip`.
        Pattern::new(&[Tok::Punct(b"@"), Tok::Ident(UNITTEST_SKIPS)]),
        // `self.skipTest(…)`.
        Pattern::new(&[
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["skipTest"])),
            Tok::Punct(b"("),
        ]),
        // `raise unittest.SkipTest(…)`, `raise SkipTest`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["raise"])),
            Tok::Path(Name::Is(&["SkipTest"])),
        ]),
        // `raise pytest.skip.Exception(…)`, the exception `pytest.skip(…)` raises.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["skip", "pytest.skip"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["Exception"])),
        ]),
        // `getattr(pytest, "skip")(…)`, `getattr(pytest.mark, name)`: a marker looked up by
        // name.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["getattr"])),
            Tok::Punct(b"("),
            Tok::Path(Name::Is(&["pytest", "mark", "unittest"])),
            Tok::Punct(b","),
        ]),
    ],
    assertions: &[
        // The `assert` statement.
        Pattern::new(&[Tok::Ident(Name::Is(&["assert"]))]),
        // `self.assertEqual(…)`, `mock.assert_called_once_with(…)`, `assert_that(…)`; not a
        // `def assert_valid(` helper definition.
        Pattern::new(&[Tok::Ident(Name::StartsWith(&["assert"])), Tok::Punct(b"(")])
            .not_after(&[Tok::Ident(Name::Is(&["def", "class"]))]),
        // `with pytest.raises(…):`, `pytest.warns(…)`; not `pytest.warns(None)`, which
        // only records warnings (flask's 426a1e25b77e removed three that checked nothing).
        Pattern::new(&[
            Tok::Ident(Name::Is(&["pytest"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["raises", "warns"])),
            Tok::Punct(b"("),
        ])
        .not_before(&[Tok::Ident(Name::Is(&["None"])), Tok::Punct(b")")]),
        // Their `match=` argument checks the message, as the `assert … in str(e.value)`
        // it often replaces did.
        Pattern::new(&[
            Tok::Punct(b",("),
            Tok::Ident(Name::Is(&["match"])),
            Tok::Punct(b"="),
        ]),
        // A failure raised outright: `self.fail(…)`, `pytest.fail(…)`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["self", "pytest"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["fail"])),
            Tok::Punct(b"("),
        ]),
    ],
    // `test_x = None` and `del test_x` are found by the analysis itself: they count only
    // when the file defines `test_x`.
    disables: &[],
    weakeners: &[
        // `def assertEqual(self, *args): pass` in a test class: the assertions call it.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["def"])),
            Tok::Ident(UNITTEST_ASSERTIONS),
        ])
        .at_start(),
        // `self.assertEqual = lambda *a: None`, `unittest.TestCase.assertTrue = …`.
        Pattern::new(&[
            Tok::Path(UNITTEST_ASSERTIONS),
            Tok::Punct(b"="),
            Tok::Ident(Name::AnyBut(&[])),
        ])
        .at_start(),
    ],
    swallowers: &[
        // `except AssertionError:`, `except (AssertionError, ValueError):`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["except"])),
            Tok::Path(Name::Is(&["AssertionError"])),
        ]),
        Pattern::new(&[
            Tok::Ident(Name::Is(&["except"])),
            Tok::Punct(b"("),
            Tok::Path(Name::Is(&["AssertionError"])),
        ]),
        // `with pytest.raises(AssertionError):`, `self.assertRaises(AssertionError)`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["raises", "assertRaises"])),
            Tok::Punct(b"("),
            Tok::Path(Name::Is(&["AssertionError"])),
        ]),
    ],
    selectors: &[
        (
            "collect_ignore",
            Pattern::new(&[Tok::Ident(Name::Is(&[
                "collect_ignore",
                "collect_ignore_glob",
            ]))]),
        ),
        (
            COLLECTION_HOOK,
            Pattern::new(&[Tok::Ident(Name::Is(&["def"])), Tok::Ident(Name::Is(HOOKS))]),
        ),
        // The same hook bound by assignment: `pytest_collection_modifyitems = _drop`
        // (attack-50 B7e; helper-56's 2a, 2c).
        (
            COLLECTION_HOOK,
            Pattern::new(&[Tok::Ident(Name::Is(HOOKS)), Tok::Assign]).at_start(),
        ),
        // `config.option.keyword = "not slow"`: the command line rewritten (a value after
        // the `=`, so that a comparison, `==`, is none).
        (
            "config.option",
            Pattern::new(&[
                Tok::Ident(Name::Is(&["option"])),
                Tok::Punct(b"."),
                Tok::Ident(Name::AnyBut(&[])),
                Tok::Punct(b"="),
                Tok::Value,
            ]),
        ),
        (
            "items.clear()",
            Pattern::new(&[
                Tok::Ident(Name::Is(&["items"])),
                Tok::Punct(b"."),
                Tok::Ident(Name::Is(&["clear", "remove", "pop"])),
                Tok::Punct(b"("),
            ]),
        ),
        (
            "pytest.exit()",
            Pattern::new(&[
                Tok::Ident(Name::Is(&["pytest"])),
                Tok::Punct(b"."),
                Tok::Ident(Name::Is(&["exit"])),
                Tok::Punct(b"("),
            ]),
        ),
    ],
};

/// unittest's assertion methods, which a test class can override.
const UNITTEST_ASSERTIONS: Name = Name::Is(&[
    "assertEqual",
    "assertEquals",
    "assertNotEqual",
    "assertTrue",
    "assertFalse",
    "assertIs",
    "assertIsNone",
    "assertIsNotNone",
    "assertIn",
    "assertNotIn",
    "assertRaises",
    "assertAlmostEqual",
    "assertDictEqual",
    "assertListEqual",
    "assertCountEqual",
]);

#[cfg(test)]
mod tests {
    use crate::tamper::tamper_cases;
    use crate::tamper::tests::totals;

    const PYTEST: &str = r#"import pytest

from app import parse


def test_parse_number():
    assert parse("1") == 1
    assert parse("2") == 2


async def test_parse_async(client):
    with pytest.raises(ValueError):
        await client.parse("x")


class TestWords:
    def test_word(self):
        assert parse("a") == "a"
"#;

    const UNITTEST: &str = r"import unittest


class ParseTest(unittest.TestCase):
    def setUp(self):
        self.value = 1

    def test_value(self):
        self.assertEqual(self.value, 1)

    def testNegative(self):
        self.assertTrue(-self.value < 0)
";

    fn edit(text: &str, from: &str, to: &str) -> String {
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1)
    }

    tamper_cases! {
        deleting_a_test: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number():\n    assert parse(\"1\") == 1\n    assert parse(\"2\") == 2\n\n\n", ""), [1, 0, 2];
        deleting_an_async_test: "tests/test_parse.py", PYTEST => edit(PYTEST, "async def test_parse_async(client):\n    with pytest.raises(ValueError):\n        await client.parse(\"x\")\n", ""), [1, 0, 1];
        raises_match_replacing_an_assert: "tests/test_parse.py", "def test_x():\n    with pytest.raises(ValueError) as e:\n        parse(\"x\")\n    assert \"bad\" in str(e.value)\n" => "def test_x():\n    with pytest.raises(\n        ValueError, match=r\"bad\"\n    ):\n        parse(\"x\")\n", [0, 0, 0];
        fail_replacing_assert_false: "tests/test_parse.py", "def test_x():\n    if parse(\"x\") is None:\n        assert False, \"none\"\n" => "def test_x():\n    if parse(\"x\") is None:\n        pytest.fail(\"none\")\n", [0, 0, 0];
        // Checks in the branches of an `if`/`else` are alternatives: a run makes one
        // branch's (pytest's 37fa0fb4d34e).
        alternatives_collapsed_to_one: "tests/test_x.py", "def test_x(v):\n    if sys.version_info > (3,):\n        assert f() == 1\n    elif PY2:\n        assert f() == 3\n    else:\n        assert f() == 2\n" => "def test_x(v):\n    assert f() == 2\n", [0, 0, 0];
        alternatives_written_out: "tests/test_x.py", "def test_x(v):\n    assert f() == 2\n" => "def test_x(v):\n    if sys.platform == \"win32\":\n        assert f() == 1\n    else:\n        assert f() == 2\n", [0, 0, 0];
        alternatives_both_dropped: "tests/test_x.py", "def test_x(v):\n    if sys.platform == \"win32\":\n        assert f() == 1\n    else:\n        assert f() == 2\n    g()\n" => "def test_x(v):\n    g()\n", [0, 0, 1];
        a_branch_without_checks_is_no_alternative: "tests/test_x.py", "def test_x(v):\n    if v:\n        assert f() == 1\n    else:\n        pass\n    assert g()\n" => "def test_x(v):\n    assert g()\n", [0, 0, 1];
        // In a loop, or on a test's parameter, every branch may run (attack-57 N2, N3).
        alternatives_in_a_loop_count_each: "tests/test_x.py", "def test_x():\n    for i in range(2):\n        if i == 0:\n            assert f(i) == 1\n        else:\n            assert f(i) == 2\n" => "def test_x():\n    assert f(1) == 2\n", [0, 0, 1];
        a_kept_if_keeps_its_checks_counted: "tests/test_x.py", "def test_x(v):\n    if v:\n        assert f() == 1\n    else:\n        assert f() == 2\n" => "def test_x(v):\n    if v:\n        pass\n", [0, 0, 2];
        // A test that skipped itself first thing never ran (pytest's f098c2d353b5).
        a_test_that_never_ran_removed: "tests/test_x.py", "def test_a():\n    assert f() == 1\n\n\ndef test_wip():\n    \"\"\"Not yet.\"\"\"\n    pytest.skip(\"WIP\")\n    assert f() == 2\n" => "def test_a():\n    assert f() == 1\n", [0, -1, 0];
        a_test_skipped_under_a_condition_removed: "tests/test_x.py", "def test_a():\n    assert f() == 1\n\n\ndef test_win():\n    if win:\n        pytest.skip(\"win\")\n    assert f() == 2\n" => "def test_a():\n    assert f() == 1\n", [1, -1, 1];
        library_assertions_are_not_the_tests: "src/app.py", "def f(x):\n    assert x, \"x\"\n    return x\n" => "def f(x):\n    return x\n", [0, 0, 0];
        // A module that imports pytest, neither named nor placed as a test module, may hold
        // helpers that tests call: its checks count, whatever they check.
        plugin_helper_checks_still_count: "pkg/asserts.py", "import pytest\n\n\ndef check(a, b):\n    assert a == b\n    assert isinstance(a, int)\n" => "import pytest\n\n\ndef check(a, b):\n    pass\n", [0, 0, 2];
        // A signature over lines ends with `)` at the `def`'s indentation, not the test.
        class_bases_over_lines: "app/model_tests.py", "import unittest\n\nclass ModelTests(\n    unittest.TestCase\n):\n    def test_save(self):\n        self.assertEqual(save(), 1)\n" => "import unittest\n\nclass ModelTests(\n    unittest.TestCase\n):\n    def test_save(self):\n        pass\n", [0, 0, 1];
        a_test_signature_over_lines: "pkg/checks.py", "import pytest\n\n\ndef test_add(\n    tmp_path,\n) -> None:\n    assert isinstance(add(1, 2), int)\n" => "import pytest\n\n\ndef test_add(\n    tmp_path,\n) -> None:\n    pass\n", [0, 0, 1];
        tests_in_a_module_that_imports_pytest_still_count: "checks/parse_checks.py", "import pytest\n\n\nclass TestParse:\n    def test_a(self):\n        assert parse(\"1\") == 1\n\n\ndef test_b():\n    assert parse(\"2\") == 2\n    assert parse(\"3\") == 3\n" => "import pytest\n\n\nclass TestParse:\n    def test_a(self):\n        pass\n\n\ndef test_b():\n    assert parse(\"2\") == 2\n", [0, 0, 2];
        // A skip looked up by name: written out, built from pieces, held in a variable and
        // called, bound or used as a decorator; also a lookup whose result is handed on.
        getattr_skip_called: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"1\") == 1\n", "    getattr(pytest, \"skip\")(\"later\")\n    assert parse(\"1\") == 1\n"), [0, 1, 0];
        getattr_skip_bound: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"1\") == 1\n", "    s = getattr(pytest, \"sk\" + \"ip\")\n    s()\n    assert parse(\"1\") == 1\n"), [0, 1, 0];
        getattr_skip_by_variable_called: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"1\") == 1\n", "    getattr(pytest, name)(\"later\")\n    assert parse(\"1\") == 1\n"), [0, 1, 0];
        getattr_skip_by_variable_bound: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"1\") == 1\n", "    s = getattr(pytest.mark, name)\n    assert parse(\"1\") == 1\n"), [0, 1, 0];
        getattr_skip_decorator: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number", "@getattr(pytest.mark, name)\ndef test_parse_number"), [0, 1, 0];
        getattr_mark_then_skip: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number", "@getattr(pytest, \"mark\").skip\ndef test_parse_number"), [0, 1, 0];
        getattr_handed_back_still_counts: "tests/helpers.py", "import pytest\n\n\ndef lookup(name):\n    return None\n" => "import pytest\n\n\ndef lookup(name):\n    return getattr(pytest, name)\n", [0, 1, 0];
        // pytest's old name: its skips are skips, and renaming them adds none.
        old_name_skip_added: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"1\") == 1\n", "    py.test.skip(\"later\")\n    assert parse(\"1\") == 1\n"), [0, 1, 0];
        old_name_skip_renamed: "tests/test_parse.py", edit(PYTEST, "    assert parse(\"1\") == 1\n", "    py.test.importorskip(\"numpy\")\n    assert parse(\"1\") == 1\n") => edit(PYTEST, "    assert parse(\"1\") == 1\n", "    pytest.importorskip(\"numpy\")\n    assert parse(\"1\") == 1\n"), [0, 0, 0];
        // A signature's defaults and annotations run where the `def` is, however written.
        test_rebound_in_a_default_over_lines: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\ndef helper(x=[\n], y=(test_parse_number := 0)):\n    pass\n"), [1, 0, 0];
        test_rebound_in_an_annotation_over_lines: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\ndef helper(\n    x,\n) -> (test_parse_number := int):\n    pass\n"), [1, 0, 0];
        test_rebound_in_a_default_line: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\ndef helper(\n    x=(test_parse_number := 0),\n):\n    pass\n"), [1, 0, 0];
        a_function_nested_in_a_test_is_no_test: "tests/test_app.py", "def test_a():\n    def test_view():\n        return 1\n    assert test_view() == 1\n" => "def test_a():\n    def view():\n        return 1\n    assert view() == 1\n", [0, 0, 0];
        a_test_added_skipped_skips_nothing: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\n@pytest.mark.skip\ndef test_new():\n    pytest.skip(\"later\")\n    assert parse(\"3\") == 3\n"), [-1, 0, -1];
        // Renamed as it is skipped: no new test, a test that no longer runs.
        a_test_renamed_and_skipped_is_removed: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number():\n", "@pytest.mark.skip\ndef test_number_parses():\n"), [1, 0, 0];
        // A test of a new class named like one of another class is not told from a test
        // moved there: its skip counts (the price of never taking a test that ran for a
        // new one).
        a_new_test_named_like_an_old_one: "tests/test_x.py", "class TestA:\n    def test_x(self, a):\n        assert a == 1\n" => "class TestA:\n    def test_x(self, b):\n        assert b == 1\n\n\nclass TestB:\n    def test_x(self, c):\n        pytest.importorskip(\"xdist\")\n        assert c == 2\n", [-1, 1, -1];
        // A test split in two, both skipped: a test that ran runs no more.
        a_test_split_into_skipped_ones_is_removed: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number():\n", "@pytest.mark.skipif(\"sys.version_info < (2, 5)\")\ndef test_parse_one():\n    assert parse(\"1\") == 1\n\n\n@pytest.mark.skipif(\"sys.version_info < (2, 5)\")\ndef test_parse_two():\n"), [1, 0, -1];
        // A skipped test replaced by skipped new ones.
        a_skipped_test_split_into_skipped_ones: "tests/test_parse.py", edit(PYTEST, "def test_parse_number():\n", "@pytest.mark.skipif(\"sys.version_info < (3, 7)\")\ndef test_parse_number():\n") => edit(PYTEST, "def test_parse_number():\n", "@pytest.mark.skipif(\"not HAS_BREAKPOINT\")\ndef test_parse_one():\n    assert parse(\"1\") == 1\n\n\n@pytest.mark.skipif(\"not HAS_BREAKPOINT\")\ndef test_parse_two():\n"), [-1, 0, -1];
        // pytester's line matchers fail the test themselves: the `assert` around one that
        // stays checks nothing more. Around another call, or with the call changed, it does.
        assert_dropped_from_a_line_matcher: "testing/test_x.py", "def test_x(pytester):\n    result = pytester.runpytest()\n    assert result.stdout.fnmatch_lines([\n        \"*1 passed*\",\n    ])\n    assert result.stdout.no_fnmatch_line(\"*error*\")\n" => "def test_x(pytester):\n    result = pytester.runpytest()\n    result.stdout.fnmatch_lines([\n        \"*1 passed*\",\n    ])\n    result.stdout.no_fnmatch_line(\"*error*\")\n", [0, 0, 0];
        assert_dropped_from_another_call: "testing/test_x.py", "def test_x(pytester):\n    result = pytester.runpytest()\n    assert result.stdout.fnmatch_lines_ok([\"*\"])\n    assert check(result).fnmatch_lines([\"*\"])\n    assert result.stdout.fnmatch_lines([\"*1 passed*\"])\n" => "def test_x(pytester):\n    result = pytester.runpytest()\n    result.stdout.fnmatch_lines_ok([\"*\"])\n    check(result).fnmatch_lines([\"*\"])\n    result.stdout.fnmatch_lines([\"*\"])\n", [0, 0, 3];
        // What runs when a new test's decorator runs, at import, skips the module.
        a_module_skip_in_a_new_tests_parametrize: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\n@pytest.mark.parametrize(\"x\", [\n    1,\n    pytest.skip(\"later\", allow_module_level=True),\n])\ndef test_new(x):\n    assert parse(str(x)) == x\n"), [-1, 1, -1];
        // A marker for the whole module below a new test is not the test's.
        pytestmark_below_a_new_test: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\ndef test_new():\n    assert parse(\"3\") == 3\npytestmark = pytest.mark.skip\n"), [-1, 1, -1];
        // A test renamed and skipped, beside a skipped test whose marker is reworded.
        a_renamed_skip_beside_a_reworded_marker: "tests/test_parse.py", edit(PYTEST, "class TestWords:\n", "class TestWords:\n    @pytest.mark.skip\n") => edit(PYTEST, "def test_parse_number():\n", "@pytest.mark.skip\ndef test_number_parses():\n").replace("class TestWords:\n", "class TestWords:\n    @pytest.mark.skip(reason=\"later\")\n"), [1, 0, 0];
        // The call kept in a string, in a function nothing calls, or a matcher the file
        // defines itself: the `assert` was the check.
        assert_dropped_from_a_matcher_kept_in_a_string: "testing/test_x.py", "def test_x(pytester):\n    result = pytester.runpytest()\n    assert result.stdout.fnmatch_lines([\"*1 passed*\"])\n" => "def test_x(pytester):\n    result = pytester.runpytest()\n    \"\"\"\n    result.stdout.fnmatch_lines([\"*1 passed*\"])\n    \"\"\"\n", [0, 0, 1];
        assert_dropped_from_a_matcher_kept_in_dead_code: "testing/test_x.py", "def test_x(pytester):\n    result = pytester.runpytest()\n    assert result.stdout.fnmatch_lines([\"*1 passed*\"])\n" => "def test_x(pytester):\n    result = pytester.runpytest()\n    def later():\n        result.stdout.fnmatch_lines([\"*1 passed*\"])\n", [0, 0, 1];
        assert_dropped_from_an_own_matcher: "testing/test_x.py", "class Lines:\n    def fnmatch_lines(self, p):\n        return False\n\n\ndef test_x():\n    lines = Lines()\n    assert lines.fnmatch_lines([\"*\"])\n" => "class Lines:\n    def fnmatch_lines(self, p):\n        return False\n\n\ndef test_x():\n    lines = Lines()\n    lines.fnmatch_lines([\"*\"])\n", [0, 0, 1];
        // A skip in the body of a new test whose signature is written over lines.
        a_skip_in_a_new_test_with_a_signature_over_lines: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\ndef test_new(\n    tmp_path,\n) -> None:\n    pytest.importorskip(\"xdist\")\n    assert parse(\"3\") == 3\n"), [-1, 0, -1];
        // Module markers below or over a new test are not its own.
        pytestmark_over_lines_below_a_new_test: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\ndef test_new():\n    assert parse(\"3\") == 3\npytestmark = [\n    pytest.mark.skip(reason=\"later\"),\n]\n"), [-1, 1, -1];
        a_walrus_pytestmark_over_a_new_test: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\n@(pytestmark := pytest.mark.skip(reason=\"later\"))\ndef test_new():\n    assert parse(\"3\") == 3\n"), [-1, 1, -1];
        // A case skipped in the parametrize list over lines of a new test.
        a_new_test_with_a_skipped_case: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\n@pytest.mark.parametrize(\"x\", [\n    1,\n    pytest.param(2, marks=pytest.mark.skipif(\"sys.platform == 'win32'\")),\n])\ndef test_new(x):\n    assert parse(str(x)) == x\n"), [-1, 0, -1];
        a_skip_on_an_old_test_next_to_a_new_one_counts: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number():\n", "def test_new():\n    assert parse(\"3\") == 3\n\n\n@pytest.mark.skip\ndef test_parse_number():\n"), [-1, 1, -1];
        adding_skip_mark: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number", "@pytest.mark.skip(reason=\"flaky\")\ndef test_parse_number"), [0, 1, 0];
        adding_skipif_and_xfail: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number", "@pytest.mark.skipif(sys.platform == \"win32\", reason=\"x\")\n@pytest.mark.xfail\ndef test_parse_number"), [0, 2, 0];
        empty_parameter_set: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number", "@pytest.mark.parametrize(\"x\", [])\ndef test_parse_number"), [0, 1, 0];
        a_parameter_set_kept: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_parse_number", "@pytest.mark.parametrize(\"x\", [1, 2])\ndef test_parse_number"), [0, 0, 0];
        test_attribute_unset: "tests/test_parse.py", PYTEST => format!("{PYTEST}\ntest_parse_number.__test__ = False\n"), [1, 0, 0];
        test_rebound_at_module_level: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nif True:\n    test_parse_number = None\n"), [1, 0, 0];
        // However the name is rebound: annotated, chained, unpacked, by `:=`, `for`, `import`,
        // `with … as`, a class of that name, `globals()`, `setattr`, or `global` in a function.
        test_rebound_annotated: "tests/test_parse.py", PYTEST => format!("{PYTEST}\ntest_parse_number: object = None\n"), [1, 0, 0];
        test_rebound_chained: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nx = test_parse_number = None\n"), [1, 0, 0];
        test_rebound_unpacked: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n[test_parse_number, _r] = [None, 1]\n"), [1, 0, 0];
        test_rebound_by_walrus: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n(test_parse_number := None)\n"), [1, 0, 0];
        test_rebound_by_for: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nfor test_parse_number in [None]:\n    pass\n"), [1, 0, 0];
        test_rebound_by_import: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nfrom os import sep as test_parse_number\n"), [1, 0, 0];
        test_rebound_by_with: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nwith open(\"x\") as test_parse_number:\n    pass\n"), [1, 0, 0];
        test_rebound_by_class: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nclass test_parse_number:\n    pass\n"), [1, 0, 0];
        test_rebound_through_globals: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nglobals()[\"test_parse_number\"] = None\n"), [1, 0, 0];
        test_rebound_by_setattr: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nimport sys\nsetattr(sys.modules[__name__], \"test_parse_number\", None)\n"), [1, 0, 0];
        // Its body swapped, a module attribute or a test class's method set from outside,
        // deleted by `delattr`, or the module's globals edited inside a decorator.
        test_body_swapped: "tests/test_parse.py", PYTEST => format!("{PYTEST}\ntest_parse_number.__code__ = (lambda: None).__code__\n"), [1, 0, 0];
        test_rebound_through_locals: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nlocals().update(test_parse_number=None)\n"), [1, 0, 0];
        test_rebound_as_a_module_attribute: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nimport sys\nsys.modules[__name__].test_parse_number = None\n"), [1, 0, 0];
        test_deleted_by_delattr: "tests/test_parse.py", PYTEST => format!("{PYTEST}\nimport sys\ndelattr(sys.modules[__name__], \"test_parse_number\")\n"), [1, 0, 0];
        test_method_rebound_outside_its_class: "tests/test_calc.py", "class TestCalc:\n    def test_add(self):\n        assert add(1, 2) == 3\n" => "class TestCalc:\n    def test_add(self):\n        assert add(1, 2) == 3\n\n\nTestCalc.test_add = None\ndelattr(TestCalc, \"test_add\")\n", [2, 0, 0];
        globals_edited_in_a_decorator: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n@pytest.mark.usefixtures(*[globals().pop(\"test_parse_number\")][:0])\ndef helper():\n    pass\n"), [1, 0, 0];
        // A marker applied by assignment: the test still runs.
        marker_applied_by_assignment: "tests/test_parse.py", PYTEST => format!("{PYTEST}\ntest_parse_number = pytest.mark.slow(test_parse_number)\n"), [0, 0, 0];
        test_rebound_from_a_function_with_global: "tests/test_parse.py", PYTEST => format!("{PYTEST}\ndef _off():\n    global test_parse_number\n    test_parse_number = None\n\n\n_off()\n"), [1, 0, 0];
        // Attributes, items, calls and keyword arguments of the name bind nothing.
        test_name_used_not_bound: "tests/test_parse.py", PYTEST => format!("{PYTEST}\ntest_parse_number.slow = True\nMARKS = dict(test_parse_number=1)\nf = lambda test_parse_number=1: 0\nx: test_parse_number = 1\n"), [0, 0, 0];
        // A keyword argument of a test's name, on its own line (black's layout of
        // `testdir.makepyfile(test_parse_number=\"\"\"…`), and a local of that name unbind nothing
        // (pytest's history, 703e4b11ba76).
        test_name_as_a_keyword_argument_or_local: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"2\") == 2\n", "    assert parse(\"2\") == 2\n    files(\n        test_parse_number=\"x\",\n    )\n    test_word = 1\n"), [0, 0, 0];
        unittest_skip_test_alias: "tests/test_unit.py", UNITTEST => edit(UNITTEST, "        self.assertEqual(self.value, 1)\n", "        s = self.skipTest\n        s(\"later\")\n        self.assertEqual(self.value, 1)\n"), [0, 1, 0];
        // pytest's skip exception caught or checked for skips nothing; raised, it skips.
        skip_exception_caught_or_checked: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"2\") == 2\n", "    assert parse(\"2\") == 2\n    try:\n        run()\n    except pytest.skip.Exception:\n        pass\n    with pytest.raises(pytest.skip.Exception):\n        run()\n    assert isinstance(e, pytest.skip.Exception)\n"), [0, 0, -2];
        // A skip expected by `raises`, the block's only statement, is the subject (pytest
        // 1bba0a971465); with more below it, or outside such a block, it skips.
        skip_expected_by_raises: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"2\") == 2\n", "    assert parse(\"2\") == 2\n    with pytest.raises(pytest.skip.Exception) as excinfo:\n        pytest.skip(\"xxx\")\n    with self.assertRaises(unittest.SkipTest):\n\n        self.skipTest(\"x\")\n"), [0, 0, -2];
        skip_in_a_block_that_goes_on: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"2\") == 2\n", "    with pytest.raises(pytest.skip.Exception):\n        pytest.skip(\"xxx\")\n        run()\n    with pytest.raises(ValueError):\n        pytest.skip(\"xxx\")\n    assert parse(\"2\") == 2\n"), [0, 2, -2];
        // A skip under `raises` of anything else, or under a conditional, skips (attack-50
        // B4a-c).
        skip_under_another_raises: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"2\") == 2\n", "    with pytest.raises(ValueError, match=\"skip.Exception\"):\n        pytest.skip(\"x\")\n    with suppress(TypeError) if True else pytest.raises(pytest.skip.Exception):\n        pytest.skip(\"x\")\n    with self.assertRaises(KeyError, msg=\"SkipTest\"):\n        self.skipTest(\"x\")\n    assert parse(\"2\") == 2\n"), [0, 3, -4];
        // The skip escapes a `raises` of another exception, however it is named (attack-51
        // S1-S3, S6).
        skip_caught_as_another_exception: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"2\") == 2\n", "    with pytest.raises(unittest.SkipTest):\n        pytest.skip(\"x\")\n    with pytest.raises(Skipped):\n        pytest.skip(\"x\")\n    with pytest.raises(pytest.skip.Exception):\n        raise unittest.SkipTest(\"x\")\n    with pytest.raises(fake.skip.Exception):\n        pytest.skip(\"x\")\n    assert parse(\"2\") == 2\n"), [0, 4, -4];
        skip_exception_raised: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"1\") == 1\n", "    raise pytest.skip.Exception(\"later\")\n    assert parse(\"1\") == 1\n"), [0, 1, 0];
        adding_pytest_skip_call: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"1\") == 1\n", "    pytest.skip(\"later\")\n    assert parse(\"1\") == 1\n"), [0, 1, 0];
        removing_an_assertion: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"2\") == 2\n", ""), [0, 0, 1];
        removing_pytest_raises: "tests/test_parse.py", PYTEST => edit(PYTEST, "    with pytest.raises(ValueError):\n        await", "    await"), [0, 0, 1];
        renaming_a_test: "tests/test_parse.py", PYTEST => edit(PYTEST, "def test_word(self)", "def test_single_word(self)"), [0, 0, 0];
        adding_tests: "tests/test_parse.py", PYTEST => format!("{PYTEST}\n\ndef test_more():\n    assert parse(\"3\") == 3\n"), [-1, 0, -1];
        unittest_deleting_a_method: "tests/test_unit.py", UNITTEST => edit(UNITTEST, "    def testNegative(self):\n        self.assertTrue(-self.value < 0)\n", ""), [1, 0, 1];
        unittest_skip_test_call: "tests/test_unit.py", UNITTEST => edit(UNITTEST, "        self.assertEqual(self.value, 1)\n", "        self.skipTest(\"later\")\n        self.assertEqual(self.value, 1)\n"), [0, 1, 0];
        unittest_skip_decorators: "tests/test_unit.py", UNITTEST => edit(UNITTEST, "    def test_value", "    @unittest.skip(\"x\")\n    @unittest.expectedFailure\n    def test_value"), [0, 2, 0];
        unittest_raise_skip: "tests/test_unit.py", UNITTEST => edit(UNITTEST, "        self.value = 1\n", "        raise unittest.SkipTest(\"x\")\n"), [0, 1, 0];
        comments_strings_and_docstrings: "tests/test_parse.py", PYTEST => edit(PYTEST, "from app import parse\n", "from app import parse\n# def test_old(): assert x\nTEMPLATE = \"def test_x(): assert 1\"\nDOC = \"\"\"\ndef test_in_docstring():\n    assert False\n@pytest.mark.skip\n\"\"\"\n"), [0, 0, 0];
        docstring_swallowing_a_test: "tests/test_parse.py", PYTEST => edit(PYTEST, "class TestWords:\n", "'''\nclass TestWords:\n").replacen("== \"a\"\n", "== \"a\"\n'''\n", 1), [1, 0, 1];
        helper_definitions_are_not_assertions: "tests/helpers.py", "def assert_valid(x):\n    pass\n" => "", [0, 0, 0];
        // `pytest.warns(None)` records warnings and checks none (flask's 426a1e25b77e):
        // removing it removes nothing; one made from `pytest.warns(UserWarning)` removes one.
        warns_none_checks_nothing: "tests/test_parse.py", PYTEST => edit(PYTEST, "    assert parse(\"2\") == 2\n", "    with pytest.warns(None):\n        parse(\"2\")\n    assert parse(\"2\") == 2\n"), [0, 0, 0];
        warns_made_none: "tests/test_w.py", "import pytest\n\n\ndef test_w():\n    with pytest.warns(UserWarning):\n        run()\n" => "import pytest\n\n\ndef test_w():\n    with pytest.warns(None):\n        run()\n", [0, 0, 1];
    }

    #[test]
    fn moving_a_test_between_files_nets_out() {
        let test = "def test_moved():\n    assert True\n";
        assert_eq!(
            totals(&[
                (
                    "tests/test_a.py",
                    &format!("import x\n\n\n{test}"),
                    "import x\n"
                ),
                ("tests/test_b.py", "", test),
            ]),
            (0, 0, 0)
        );
    }

    #[test]
    fn application_methods_named_test_are_not_tests() {
        // Flask's `def test_client(self)`: a module that pytest does not collect by its name
        // (`test_*.py`, `*_test.py`, `tests.py`, a `tests/` package) and that imports no
        // test framework holds no tests.
        assert_eq!(
            totals(&[(
                "src/flask/app.py",
                "class Flask:\n    def test_client(self, use_cookies=True):\n        return FlaskClient(self)\n",
                ""
            )]),
            (0, 0, 0)
        );
        // `class assert_no_leak:` is a class, not an assertion.
        assert_eq!(
            totals(&[(
                "tests/helpers.py",
                "class assert_no_leak(object):\n    pass\n",
                ""
            )]),
            (0, 0, 0)
        );
        // A unittest module anywhere is a test module.
        assert_eq!(
            totals(&[(
                "app/checks.py",
                "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n",
                ""
            )]),
            (1, 0, 0)
        );
    }
}
