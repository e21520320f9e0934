//! Go: the testing package, testify and gomega.
//!
//! Tests are `func TestXxx`, `func FuzzXxx` and `func ExampleXxx` (examples with an
//! `// Output:` comment run as tests), also as methods (testify suites), and explicit
//! subtests `t.Run(`. Benchmarks are not tests: `go test` does not run them by default.
//! Any `.go` file is analysed; test functions only compile in `_test.go` files anyway.

use super::lex::{Backtick, SingleQuote, Syntax};
use super::pattern::{Name, Pattern, Tok};
use super::{Language, Table};

/// The names `*testing.T`, `*testing.B`, `*testing.F` and `testing.TB` values usually have.
const RECEIVERS: Name = Name::Is(&["t", "b", "f", "tb", "tt"]);

/// `t.Skip…`.
const SKIP_METHODS: Name = Name::Is(&["Skip", "Skipf", "SkipNow"]);

/// `t.Error…` and `t.Fatal…`: a failing check.
const FAIL_METHODS: Name = Name::Is(&["Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow"]);

/// The Go table.
pub(crate) const TABLE: Table = Table {
    language: Language::Go,
    extensions: &["go"],
    syntax: Syntax {
        hash_comments: false,
        slash_comments: true,
        nested_block_comments: false,
        single_quote: SingleQuote::Char,
        triple_quotes: false,
        backtick: Backtick::String {
            escapes: false,
            multiline: true,
        },
        multiline_strings: false,
        rust_raw_strings: false,
        regex_literals: false,
        unicode_line_ends: false,
    },
    tests: &[
        // `func TestXxx(`, `func FuzzXxx(`, `func ExampleXxx(`, `func (s *Suite) TestXxx(`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["func"])),
            Tok::OptParens,
            Tok::Ident(Name::GoPrefix(&["Test", "Fuzz", "Example"])),
            Tok::Punct(b"("),
        ]),
        // `t.Run("name", func(t *testing.T) {`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["t", "tt"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["Run"])),
            Tok::Punct(b"("),
        ]),
    ],
    skips: &[
        // `t.Skip(…)`, `t.Skipf(…)`, `t.SkipNow()`, `b.Skip(…)`.
        Pattern::new(&[
            Tok::Ident(RECEIVERS),
            Tok::Punct(b"."),
            Tok::Ident(SKIP_METHODS),
            Tok::Punct(b"("),
        ]),
        // `s.T().Skip(…)` in a testify suite.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["T"])),
            Tok::Punct(b"("),
            Tok::Punct(b")"),
            Tok::Punct(b"."),
            Tok::Ident(SKIP_METHODS),
            Tok::Punct(b"("),
        ]),
    ],
    assertions: &[
        // `t.Error(…)`, `t.Errorf(…)`, `t.Fatal(…)`, `t.Fatalf(…)`, `t.Fail()`.
        Pattern::new(&[
            Tok::Ident(RECEIVERS),
            Tok::Punct(b"."),
            Tok::Ident(FAIL_METHODS),
            Tok::Punct(b"("),
        ]),
        Pattern::new(&[
            Tok::Ident(Name::Is(&["T"])),
            Tok::Punct(b"("),
            Tok::Punct(b")"),
            Tok::Punct(b"."),
            Tok::Ident(FAIL_METHODS),
            Tok::Punct(b"("),
        ]),
        // testify: `assert.Equal(t, …)`, `require.NoError(t, …)`; not `assert.New(t)`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["assert", "require"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::AnyBut(&["New"])),
            Tok::Punct(b"("),
        ]),
        // testify suites: `s.Require().Equal(…)`, `s.Assert().True(…)`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["Require", "Assert"])),
            Tok::Punct(b"("),
            Tok::Punct(b")"),
            Tok::Punct(b"."),
            Tok::Ident(Name::AnyBut(&[])),
            Tok::Punct(b"("),
        ]),
        // gomega: `Expect(x).To(…)`, `g.Expect(…)`, `Ω(x).Should(…)`.
        Pattern::new(&[Tok::Ident(Name::Is(&["Expect", "Ω"])), Tok::Punct(b"(")]),
    ],
    disables: &[],
    weakeners: &[],
    swallowers: &[],
    // A build constraint in a `_test.go` file is found by the analysis itself (it is a
    // comment).
    selectors: &[],
};

#[cfg(test)]
mod tests {
    use crate::tamper::tamper_cases;
    use crate::tamper::tests::totals;

    const GO: &str = r#"package calc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAdd(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Fatalf("Add(1, 2) = %d", got)
	}
	require.Equal(t, 5, Add(2, 3))
}

func TestTable(t *testing.T) {
	t.Run("zero", func(t *testing.T) {
		if Add(0, 0) != 0 {
			t.Error("zero")
		}
	})
}

func BenchmarkAdd(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Add(1, 2)
	}
}
"#;

    fn edit(from: &str, to: &str) -> String {
        assert!(GO.contains(from), "{from}");
        GO.replacen(from, to, 1)
    }

    tamper_cases! {
        deleting_a_test: "calc/calc_test.go", GO => edit("func TestAdd(t *testing.T) {\n\tif got := Add(1, 2); got != 3 {\n\t\tt.Fatalf(\"Add(1, 2) = %d\", got)\n\t}\n\trequire.Equal(t, 5, Add(2, 3))\n}\n\n", ""), [1, 0, 2];
        deleting_a_subtest: "calc/calc_test.go", GO => edit("\tt.Run(\"zero\", func(t *testing.T) {\n\t\tif Add(0, 0) != 0 {\n\t\t\tt.Error(\"zero\")\n\t\t}\n\t})\n", ""), [1, 0, 1];
        adding_t_skip: "calc/calc_test.go", GO => edit("func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n\tt.Skip(\"flaky\")\n"), [0, 1, 0];
        adding_skipf_and_skipnow: "calc/calc_test.go", GO => edit("func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skipf(\"short: %v\", 1)\n\t}\n\tt.SkipNow()\n"), [0, 2, 0];
        removing_an_assertion: "calc/calc_test.go", GO => edit("\trequire.Equal(t, 5, Add(2, 3))\n", ""), [0, 0, 1];
        renaming_a_test: "calc/calc_test.go", GO => edit("func TestAdd(", "func TestAddition("), [0, 0, 0];
        adding_tests: "calc/calc_test.go", GO => format!("{GO}\nfunc FuzzAdd(f *testing.F) {{\n\tf.Fuzz(func(t *testing.T, a int) {{\n\t\tassert.Equal(t, a, Add(a, 0))\n\t}})\n}}\n"), [-1, 0, -1];
        deleting_a_benchmark_is_not_a_test: "calc/calc_test.go", GO => edit("func BenchmarkAdd(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tAdd(1, 2)\n\t}\n}\n", ""), [0, 0, 0];
        comments_and_strings: "calc/calc_test.go", GO => edit("import (\n", "// func TestOld(t *testing.T) { t.Skip() }\n/*\nfunc TestBlock(t *testing.T) {\n\tt.Fatal(1)\n}\n*/\nvar doc = `\nfunc TestRaw(t *testing.T) {\n\tt.Error(\"x\")\n`\nvar s = \"t.Skip() assert.Equal(t)\"\n\nimport (\n"), [0, 0, 0];
        suite_methods: "calc/suite_test.go", "func (s *CalcSuite) TestAdd() {\n\ts.T().Skip(\"x\")\n\ts.Require().Equal(3, Add(1, 2))\n}\n" => "", [1, -1, 1];
        testify_constructor_is_not_an_assertion: "calc/calc_test.go", "a := assert.New(t)\nTestify()\nfunc Testify() {}\n" => "", [0, 0, 0];
    }

    #[test]
    fn moving_a_test_between_files_nets_out() {
        let test = "func TestMoved(t *testing.T) {\n\tt.Error(\"x\")\n}\n";
        assert_eq!(
            totals(&[
                ("a_test.go", &format!("package a\n\n{test}"), "package a\n"),
                ("b_test.go", "package a\n", &format!("package a\n\n{test}")),
            ]),
            (0, 0, 0)
        );
    }
}
