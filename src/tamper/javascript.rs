//! JavaScript and TypeScript: Jest, Vitest, Mocha, Jasmine, node:test and Playwright.
//!
//! A test is a call of `it`, `test` or `specify` (also through a modifier: `it.each`,
//! `test.concurrent`, `it.skip`, `xit`). A suite (`describe`, `context`, `suite`) is not a
//! test: the cases inside it are counted, and counting the block as well would count a
//! deleted suite twice. Suites do take skip markers (`describe.skip`, `xdescribe`), and a
//! focus marker (`.only`, `fit`, `fdescribe`) counts as a skip because it silently skips
//! every test that is not focused.

use super::lex::{Backtick, SingleQuote, Syntax};
use super::pattern::{Name, Pattern, Tok};
use super::{Language, Table};

/// Functions that declare one test case.
const TEST_FUNCTIONS: Name = Name::Is(&["it", "test", "specify"]);

/// Functions that declare a test case already marked skipped or focused (Jasmine, Mocha).
const MARKED_TEST_FUNCTIONS: Name = Name::Is(&["xit", "xtest", "xspecify", "fit"]);

/// Functions that declare a test case or a suite.
const TEST_OR_SUITE_FUNCTIONS: Name =
    Name::Is(&["it", "test", "specify", "describe", "context", "suite"]);

/// Modifiers that skip, focus or expect the failure of a test or suite.
const SKIP_MODIFIERS: Name = Name::Is(&[
    "skip", "only", "todo", "skipIf", "runIf", "fixme", "fails", "failing", "fail",
]);

/// `.` and `function`: a test function called as a method (`regex.test(s)`) or defined
/// (`function test(`) is not a test.
const NOT_A_CALL: &[Tok] = &[Tok::Punct(b"."), Tok::Ident(Name::Is(&["function"]))];

/// `=` and not `==` or `=>`: what follows a name that is assigned, not read.
const ASSIGNED: &[Tok] = &[Tok::Assign];

/// A title and nothing else: `it('title')` declares a pending test (Mocha) that never runs.
const PENDING: &[Tok] = &[Tok::Str, Tok::Punct(b")")];

/// The JavaScript and TypeScript table.
pub(crate) const TABLE: Table = Table {
    language: Language::JavaScript,
    extensions: &["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts"],
    syntax: Syntax {
        hash_comments: false,
        slash_comments: true,
        nested_block_comments: false,
        single_quote: SingleQuote::String,
        triple_quotes: false,
        backtick: Backtick::String {
            escapes: true,
            multiline: true,
        },
        multiline_strings: false,
        rust_raw_strings: false,
        regex_literals: true,
        unicode_line_ends: true,
    },
    tests: &[
        // `it(…)`, `test(…)`, `specify(…)`, `xit(…)`, `fit(…)`; not Mocha's pending
        // `it('title')`, which has no body to run.
        Pattern::new(&[Tok::Ident(TEST_FUNCTIONS), Tok::Punct(b"(")])
            .not_after(NOT_A_CALL)
            .not_before(PENDING),
        Pattern::new(&[Tok::Ident(MARKED_TEST_FUNCTIONS), Tok::Punct(b"(")]).not_after(NOT_A_CALL),
        // `it.each(…)`, `test.concurrent(…)`, `it.skip(…)`, `test.todo(…)`, `it.only(…)`.
        Pattern::new(&[
            Tok::Ident(TEST_FUNCTIONS),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&[
                "each",
                "concurrent",
                "sequential",
                "skip",
                "only",
                "todo",
                "skipIf",
                "runIf",
                "fixme",
                "fails",
                "failing",
            ])),
        ])
        .not_after(NOT_A_CALL),
    ],
    skips: &[
        // `it.skip(`, `describe.only(`, `test.todo(`, `test.skipIf(…)(`, `test.fails(`,
        // Playwright's `test.fixme(` and `test.describe.skip(`. Not the runner's own
        // definition of one (`context.it.skip = function (title) {`, in Mocha's source).
        Pattern::new(&[
            Tok::Ident(TEST_OR_SUITE_FUNCTIONS),
            Tok::Punct(b"."),
            Tok::Ident(SKIP_MODIFIERS),
        ])
        .not_before(ASSIGNED),
        // The value of an assignment used as one, `(it.skip = xit)('x', …)`: a skip read.
        // A statement that only assigns (`it.skip = …` at a line's start also counts, as
        // a runner's own definition is written `context.it.skip = …`).
        Pattern::new(&[
            Tok::Ident(TEST_OR_SUITE_FUNCTIONS),
            Tok::Punct(b"."),
            Tok::Ident(SKIP_MODIFIERS),
            Tok::Assign,
        ])
        .not_after(&[Tok::Punct(b".")]),
        // `test.concurrent.skip(`, `describe.sequential.only(`.
        Pattern::new(&[
            Tok::Ident(TEST_OR_SUITE_FUNCTIONS),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["concurrent", "sequential"])),
            Tok::Punct(b"."),
            Tok::Ident(SKIP_MODIFIERS),
        ])
        .not_before(ASSIGNED),
        // `xit(`, `xtest(`, `xdescribe(`, `xcontext(`, and Jasmine's focused `fit(` and
        // `fdescribe(`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&[
                "xit",
                "xtest",
                "xspecify",
                "xdescribe",
                "xcontext",
                "fit",
                "fdescribe",
            ])),
            Tok::Punct(b"(."),
        ])
        .not_after(NOT_A_CALL),
        // Skips from inside a test: Mocha's `this.skip()`, node:test's `t.skip()` and
        // `t.todo()`, Vitest's `ctx.skip()`.
        // A computed member, `describe["sk" + "ip"]`, `it[mode]`: a modifier picked at run
        // time. Not an object of that name assigned by key (`context[key] = value`).
        Pattern::new(&[Tok::Ident(TEST_OR_SUITE_FUNCTIONS), Tok::IndexRead]).not_after(NOT_A_CALL),
        Pattern::new(&[
            Tok::Ident(Name::Is(&["this", "t", "ctx", "context"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["skip", "todo"])),
            Tok::Punct(b"("),
        ]),
        // node:test's options, `test('x', { skip: true }, …)`, `{ todo: 'reason' }`,
        // `{ only: true }`, on the line that declares the test.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["skip", "todo", "only"])),
            Tok::Punct(b":"),
            Tok::Ident(Name::Is(&["true"])),
        ])
        .with_test(),
        Pattern::new(&[
            Tok::Ident(Name::Is(&["skip", "todo", "only"])),
            Tok::Punct(b":"),
            Tok::Str,
        ])
        .with_test(),
    ],
    assertions: &[
        // `expect(…)`, Playwright's `expect.soft(…)` and `expect.poll(…)`.
        Pattern::new(&[Tok::Ident(Name::Is(&["expect"])), Tok::Punct(b"(")]),
        Pattern::new(&[
            Tok::Ident(Name::Is(&["expect"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["soft", "poll"])),
            Tok::Punct(b"("),
        ]),
        // `assert(…)`, `assert.equal(…)`, `assert.strict.deepEqual(…)`, `t.assert.ok(…)`.
        Pattern::new(&[Tok::Ident(Name::Is(&["assert"])), Tok::Punct(b"(")])
            .not_after(&[Tok::Ident(Name::Is(&["function"]))]),
        Pattern::new(&[
            Tok::Ident(Name::Is(&["assert"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::AnyBut(&[])),
        ]),
        // should.js and chai's `should`: `x.should.equal(…)`, `should.exist(x)`,
        // `should(x).be.ok()`.
        Pattern::new(&[
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["should"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::AnyBut(&[])),
        ]),
        Pattern::new(&[
            Tok::Ident(Name::Is(&["should"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::AnyBut(&[])),
            Tok::Punct(b"("),
        ])
        .not_after(NOT_A_CALL),
        Pattern::new(&[Tok::Ident(Name::Is(&["should"])), Tok::Punct(b"(")]).not_after(NOT_A_CALL),
    ],
    // A test whose function is a generator (`it("x", function* () {`): the runner calls it,
    // gets an iterator back, and passes without running the body (attack-45 B9).
    disables: &[Pattern::new(&[Tok::Ident(Name::Is(&["function"])), Tok::Punct(b"*")]).with_test()],
    weakeners: &[
        // `const expect = () => ({ toBe() {} })`, `let expect = function …`: the assertions
        // below call a stand-in. `const expect = chai.expect` and `const { expect } = …`
        // bind the real one and do not match.
        Pattern::new(&[
            Tok::Ident(BINDINGS),
            Tok::Ident(Name::Is(&["expect"])),
            Tok::Punct(b"="),
            Tok::Punct(b"({"),
        ])
        .at_start(),
        Pattern::new(&[
            Tok::Ident(BINDINGS),
            Tok::Ident(Name::Is(&["expect"])),
            Tok::Punct(b"="),
            Tok::Ident(Name::Is(&["function", "async"])),
        ])
        .at_start(),
        // TypeScript's `const expect: any = …`.
        Pattern::new(&[
            Tok::Ident(BINDINGS),
            Tok::Ident(Name::Is(&["expect"])),
            Tok::Punct(b":"),
        ])
        .at_start(),
        // `function expect(…) {`.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["function"])),
            Tok::Ident(Name::Is(&["expect"])),
        ])
        .at_start(),
        // `const expect = _ => ({…})`: an arrow function of one bare parameter.
        Pattern::new(&[
            Tok::Ident(BINDINGS),
            Tok::Ident(Name::Is(&["expect"])),
            Tok::Punct(b"="),
            Tok::Ident(Name::AnyBut(&[])),
            Tok::Punct(b"="),
            Tok::Punct(b">"),
        ])
        .at_start(),
        // `global.expect = …`, `globalThis.expect = …`: whatever it is bound to. Bound to a
        // package (`require("expect.js")`, mocha's 50fc47d1b46c) it is the real library,
        // but a line cannot tell a package from a module beside the tests, a function
        // named elsewhere, or a bound matcher (attack-50 B5a-d).
        Pattern::new(&[
            Tok::Ident(Name::Is(&["global", "globalThis", "window"])),
            Tok::Punct(b"."),
            Tok::Ident(Name::Is(&["expect"])),
            Tok::Punct(b"="),
        ])
        .at_start(),
    ],
    // `} catch (e) {}` around an `expect` cannot be told from a test of a throw on one line.
    swallowers: &[],
    selectors: &[],
};

/// The keywords that bind a name.
const BINDINGS: Name = Name::Is(&["const", "let", "var"]);

#[cfg(test)]
mod tests {
    use crate::tamper::tamper_cases;
    use crate::tamper::tests::totals;

    const JEST: &str = r"import { parse } from './parse';

describe('parse', () => {
  it('parses numbers', () => {
    expect(parse('1')).toBe(1);
    expect(parse('2')).toBe(2);
  });

  test('rejects words', () => {
    expect(() => parse('x')).toThrow();
  });

  it.each([[1], [2]])('round-trips %i', (n) => {
    expect(parse(String(n))).toBe(n);
  });
});
";

    const NODE_TEST: &str = r"import test from 'node:test';
import assert from 'node:assert/strict';

test('adds', () => {
  assert.equal(1 + 1, 2);
  assert(true);
});
";

    fn edit(text: &str, from: &str, to: &str) -> String {
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1)
    }

    tamper_cases! {
        alternatives_collapsed_to_one: "test/a.spec.js", "it('x', () => {\n  if (process.platform === 'win32') {\n    expect(a()).toBe(1);\n  }\n  else if (process.platform === 'darwin') {\n    expect(a()).toBe(3);\n  } else {\n    expect(a()).toBe(2);\n  }\n});\n" => "it('x', () => {\n  expect(a()).toBe(2);\n});\n", [0, 0, 0];
        deleting_a_test: "src/parse.test.ts", JEST => edit(JEST, "  test('rejects words', () => {\n    expect(() => parse('x')).toThrow();\n  });\n\n", ""), [1, 0, 1];
        deleting_a_parametrised_test: "src/parse.test.ts", JEST => edit(JEST, "  it.each([[1], [2]])('round-trips %i', (n) => {\n    expect(parse(String(n))).toBe(n);\n  });\n", ""), [1, 0, 1];
        deleting_a_suite_counts_its_cases: "src/parse.test.ts", JEST => "", [3, 0, 4];
        skipping_a_test: "src/parse.test.ts", JEST => edit(JEST, "it('parses numbers'", "it.skip('parses numbers'"), [0, 1, 0];
        // A generator runs nothing of its body when the runner calls it (attack-45 B9).
        a_test_made_a_generator: "test/parse.spec.js", JEST => edit(JEST, "it('parses numbers', () => {", "it('parses numbers', function* () {"), [1, 0, 0];
        a_context_assigned_by_key_is_no_skip: "src/parse.test.ts", JEST => edit(JEST, "    expect(parse('1')).toBe(1);\n", "    context[key] = 1;\n    context[key] += 1;\n    expect(parse('1')).toBe(1);\n"), [0, 0, 0];
        a_computed_member_read_is_a_skip: "src/parse.test.ts", JEST => edit(JEST, "  it('parses numbers'", "  it[mode]('parses numbers'"), [1, 1, 0];
        // A test that ran, skipped next to a new one: its name was a removed test's.
        skipping_a_test_beside_a_new_one: "src/parse.test.ts", JEST => edit(JEST, "  it('parses numbers'", "  it('parses zero', () => expect(parse('0')).toBe(0));\n\n  it.skip('parses numbers'"), [-1, 1, -1];
        // Skipped where it was, with a new test of the same title elsewhere.
        skipping_a_test_beside_a_namesake: "src/parse.test.ts", JEST => format!("{}\ndescribe('more', () => {{\n  it('parses numbers', () => {{\n    expect(parse('7')).toBe(7);\n  }});\n}});\n", edit(JEST, "  it('parses numbers'", "  it.skip('parses numbers'")), [-1, 1, -1];
        // A hook's skip put in a suite that ran, a new suite focused below a hook, a root
        // hook, and a namesake of the skipped test declared first in its hunk: all count.
        a_hook_skip_in_a_suite_that_ran: "src/parse.test.ts", JEST => edit(JEST, "describe('parse', () => {\n", "describe('parse', () => {\n  before(function () {\n    this.skip();\n  });\n\n  it('parses zero', () => {\n    expect(parse('0')).toBe(0);\n  });\n"), [-1, 1, -1];
        a_new_suite_focused_below_a_hook: "src/parse.test.ts", JEST => format!("{JEST}\nbefore(function () {{}});\n\ndescribe.only('more', () => {{\n  it('parses zero', () => {{\n    expect(parse('0')).toBe(0);\n  }});\n}});\n"), [-1, 1, -1];
        a_root_hook_skip: "src/parse.test.ts", JEST => format!("{JEST}\nbefore(function () {{\n  this.skip();\n}});\n\nit('parses zero', () => {{\n  expect(parse('0')).toBe(0);\n}});\n"), [-1, 1, -1];
        a_namesake_declared_first: "src/parse.test.ts", JEST => edit(JEST, "  it('parses numbers', () => {\n    expect(parse('1')).toBe(1);", "  it('parses numbers', () => {\n    expect(parse('3')).toBe(3);\n  });\n\n  it.skip('parses numbers', () => {\n    expect(parse('1')).toBe(1);"), [-1, 1, -1];
        a_skip_beside_a_test_whose_title_was_computed: "src/parse.test.ts", edit(JEST, "it('parses numbers'", "it(TITLE") => edit(JEST, "  it('parses numbers'", "  it('parses zero', () => expect(parse('0')).toBe(0));\n\n  it.skip('parses numbers'"), [-1, 1, -1];
        // A new suite nested in one that ran, whose closing line the diff pairs with an
        // older one; and a new suite wrapped around a test that ran, which counts.
        a_nested_new_suite_skipped_by_its_hook: "src/parse.test.ts", JEST => edit(JEST, "    expect(() => parse('x')).toThrow();\n  });\n", "    expect(() => parse('x')).toThrow();\n  });\n\n  describe('esm', () => {\n    before(function () {\n      if (!esm) this.skip();\n    });\n\n    it('loads', () => {\n      expect(load()).toBe(1);\n    });\n  });\n"), [-1, 0, -1];
        a_new_suite_wrapped_around_a_test_that_ran: "src/parse.test.ts", JEST => edit(JEST, "  test('rejects words', () => {\n", "  describe('esm', () => {\n    before(function () {\n      this.skip();\n    });\n\n    it('loads', () => {\n      expect(load()).toBe(1);\n    });\n\n  test('rejects words', () => {\n").replace("    expect(() => parse('x')).toThrow();\n  });\n", "    expect(() => parse('x')).toThrow();\n  });\n  });\n"), [-1, 1, -1];
        // A suite skipped where it is declared, in a file the change adds (express's
        // 6f7a8301a182); the same around tests that ran counts.
        a_new_suite_skipped_as_declared: "test/static.js", "" => "describe('static', function () {\n  it('serves', function () {\n    expect(serve()).toBe(1);\n  });\n\n  (relative ? describe.skip : describe)('current dir', function () {\n    it('serves .', function () {\n      expect(serve('.')).toBe(1);\n    });\n  });\n});\n", [-2, 0, -2];
        a_suite_skipped_around_tests_that_ran: "src/parse.test.ts", JEST => edit(JEST, "describe('parse', () => {", "(relative ? describe.skip : describe)('parse', () => {"), [0, 1, 0];
        // A new suite whose brackets close below an old one (its indentation says
        // otherwise), a hook passed to `describe` as an argument, a root hook below a new
        // test: all skip tests that ran.
        a_new_suite_closing_below_an_old_one: "src/parse.test.ts", JEST => format!("describe.skip('more', () => {{\n  it('parses zero', () => {{\n    expect(parse('0')).toBe(0);\n  }});\n}});\n{JEST}}});\n").replacen("  });\n});\n", "  });\n", 1), [-1, 1, -1];
        a_hook_as_a_suite_argument: "src/parse.test.ts", JEST => format!("{JEST}\ndescribe('slow', (\n  before(function () {{\n    this.skip();\n  }}),\n  function () {{\n    it('waits', () => {{\n      expect(wait()).toBe(1);\n    }});\n  }}));\n"), [-1, 1, -1];
        a_root_hook_below_a_new_test: "src/parse.test.ts", JEST => format!("{JEST}\nit('parses zero', () => {{\n  expect(parse('0')).toBe(0);\n}});\nbefore(function () {{\n  this.skip();\n}});\n"), [-1, 1, -1];
        // A hook's skip in a suite the change adds applies to the suite's new tests.
        // The skip under a condition in the hook's body (mocha's c91b3254dc08); in a root
        // hook, under a condition too, it skips every test of the run.
        a_new_suite_skipped_by_its_hook_under_a_condition: "src/parse.test.ts", JEST => format!("{JEST}\ndescribe('esm', () => {{\n  before(function () {{\n    if (v6) {{\n      this.skip();\n    }} else {{\n      this.skip();\n    }}\n  }});\n\n  it('loads', () => {{\n    expect(load()).toBe(1);\n  }});\n}});\n"), [-1, 0, -1];
        a_root_hook_skip_under_a_condition: "src/parse.test.ts", JEST => format!("{JEST}\nbefore(function () {{\n  if (v6) {{\n    this.skip();\n  }}\n}});\n\nit('parses zero', () => {{\n  expect(parse('0')).toBe(0);\n}});\n"), [-1, 1, -1];
        a_condition_in_a_test_of_a_suite_that_ran: "src/parse.test.ts", JEST => edit(JEST, "describe('parse', () => {\n", "describe('parse', () => {\n  before(function () {\n    if (v6) {\n      this.skip();\n    }\n  });\n\n  it('parses zero', () => {\n    expect(parse('0')).toBe(0);\n  });\n"), [-1, 1, -1];
        // A "suite" whose callback is called on the spot, or declared with the file's own
        // `suite` function, runs its hook as a root hook (attack-47 BM1, BM2).
        a_suite_body_called_on_the_spot: "src/parse.test.ts", JEST => format!("{JEST}\ndescribe('gate', function () {{\n  before(function () {{\n    if (v6) {{\n      this.skip();\n    }}\n  }});\n\n  it('gates', () => {{\n    expect(gate()).toBe(1);\n  }});\n}}.call(this) || function () {{\n}});\n"), [-1, 1, -1];
        a_suite_function_of_the_file: "src/parse.test.ts", JEST => format!("function suite(t, body) {{\n  body.call(this);\n}}\n{JEST}\nsuite('gate', function () {{\n  before(function () {{\n    this.skip();\n  }});\n\n  it('gates', () => {{\n    expect(gate()).toBe(1);\n  }});\n}});\n"), [-1, 1, -1];
        a_new_suite_skipped_by_its_hook: "src/parse.test.ts", JEST => format!("{JEST}\ndescribe('esm', () => {{\n  before(function () {{\n    if (!esm) this.skip();\n  }});\n\n  it('loads', () => {{\n    expect(load()).toBe(1);\n  }});\n}});\n"), [-1, 0, -1];
        xit_skips: "src/parse.test.ts", JEST => edit(JEST, "it('parses numbers'", "xit('parses numbers'"), [0, 1, 0];
        only_counts_as_a_skip: "src/parse.test.ts", JEST => edit(JEST, "test('rejects words'", "test.only('rejects words'"), [0, 1, 0];
        todo_replacing_a_test: "src/parse.test.ts", JEST => edit(JEST, "  test('rejects words', () => {\n    expect(() => parse('x')).toThrow();\n  });\n", "  test.todo('rejects words');\n"), [0, 1, 1];
        skipping_a_suite: "src/parse.test.ts", JEST => edit(JEST, "describe('parse'", "describe.skip('parse'"), [0, 1, 0];
        xdescribe_skips: "src/parse.test.ts", JEST => edit(JEST, "describe('parse'", "xdescribe('parse'"), [0, 1, 0];
        removing_an_assertion: "src/parse.test.ts", JEST => edit(JEST, "    expect(parse('2')).toBe(2);\n", ""), [0, 0, 1];
        renaming_a_test: "src/parse.test.ts", JEST => edit(JEST, "it('parses numbers'", "it('parses integers'"), [0, 0, 0];
        adding_tests: "src/parse.test.ts", JEST => edit(JEST, "});\n\n  it.each", "});\n\n  it('parses zero', () => expect(parse('0')).toBe(0));\n\n  it.each"), [-1, 0, -1];
        node_test_skip_option: "test/add.test.mjs", NODE_TEST => edit(NODE_TEST, "test('adds', () => {", "test('adds', { skip: 'flaky' }, () => {"), [0, 1, 0];
        node_test_context_skip: "test/add.test.mjs", NODE_TEST => edit(NODE_TEST, "test('adds', () => {", "test('adds', (t) => {\n  t.skip();"), [0, 1, 0];
        node_assertions: "test/add.test.mjs", NODE_TEST => edit(NODE_TEST, "  assert.equal(1 + 1, 2);\n  assert(true);\n", ""), [0, 0, 2];
        comments_strings_and_templates: "src/parse.test.ts", JEST => edit(JEST, "describe('parse', () => {\n", "describe('parse', () => {\n  // it('old', () => expect(1).toBe(1));\n  /* test('x', () => {\n     expect(x) */\n  const s = \"it('a') expect(b)\";\n  const t = `\n  it.only('c')\n  `;\n"), [0, 0, 0];
        words_that_end_like_test_functions: "src/app.js", "submit(form); latest(x); regex.test(s); function test(x) {} myexpect(1); reassert(x);\n" => "", [0, 0, 0];
        defining_a_modifier_is_no_skip: "lib/interfaces/bdd.js", "" => "context.it.skip = function(title) {\n  return context.it(title);\n};\ncontext.describe.only = function(title, fn) {};\ncontext.test.concurrent.skip = skip;\n", [0, 0, 0];
        an_assignment_used_as_a_value_skips: "test/a.spec.js", "it('a', () => {});\n" => "(it.skip = xit)('a', () => {});\n(it.only = xit)('b', () => {});\n", [-1, 2, 0];
        reading_a_modifier_into_a_name_skips: "test/a.spec.js", "it('a', () => {});\n" => "const t = it.skip;\nt('a', () => {});\n", [0, 1, 0];
        pagination_skip_is_not_a_marker: "src/db.ts", "" => "const rows = await db.find({ skip: 10, only: true });\n", [0, 0, 0];
    }

    #[test]
    fn moving_a_test_between_files_nets_out() {
        let test = "it('moves', () => {\n  expect(1).toBe(1);\n});\n";
        assert_eq!(
            totals(&[
                (
                    "a.test.js",
                    &format!("import x from 'x';\n{test}"),
                    "import x from 'x';\n"
                ),
                ("b.test.js", "", test),
            ]),
            (0, 0, 0)
        );
    }

    #[test]
    fn a_helper_named_test_outside_test_files_is_not_a_test() {
        // A local function called `test` in a module that no runner collects by its name and
        // that imports no test framework; `.test(` and `function test(` never count.
        assert_eq!(
            totals(&[("src/validate.js", "if (test(value)) { ok(); }\n", "")]),
            (0, 0, 0)
        );
        // The same call in a test file is a test.
        assert_eq!(
            totals(&[("src/validate.test.js", "test('x', () => { ok(); });\n", "")]),
            (1, 0, 0)
        );
        // ... and so in a module that uses a test framework.
        assert_eq!(
            totals(&[(
                "src/checks.js",
                "import { test } from 'vitest';\ntest('x', () => { ok(); });\n",
                ""
            )]),
            (1, 0, 0)
        );
    }
}
