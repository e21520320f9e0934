//! Java and Kotlin: `JUnit` 4 and 5, `TestNG`, `kotlin.test`, `AssertJ`, Hamcrest and Truth.
//!
//! Both languages share the patterns and differ only in how they write comments and
//! literals (Kotlin nests block comments, has `"""` raw strings and quoted identifiers).
//! `JUnit` 3's tests are the `public void testXxx()` methods of a class that extends a
//! `TestCase` ([`junit3_test`], where the file's context says so).

use super::lex::{self, Backtick, SingleQuote, State, Syntax};
use super::pattern::{self, Name, Pattern, Tok, Token};
use super::{Language, Table};

/// The name of the `JUnit` 3 test a line declares, if it has the shape of one: `public void
/// testXxx()`, without parameters (`final` and `synchronized` allowed; a `static` method is
/// none). It is a test in a class that extends a `TestCase` ([`junit3_lines`]).
pub(crate) fn junit3_test<'t>(tokens: &[Token<'t>]) -> Option<&'t [u8]> {
    let mut rest = tokens;
    let mut public = false;
    while let [Token::Ident(word), tail @ ..] = rest {
        match *word {
            b"public" => public = true,
            b"final" | b"synchronized" => {}
            _ => break,
        }
        rest = tail;
    }
    match rest {
        [
            Token::Ident(b"void"),
            Token::Ident(name),
            Token::Punct(b'('),
            Token::Punct(b')'),
            ..,
        ] if public && name.starts_with(b"test") => Some(name),
        _ => None,
    }
}

/// The classes whose `public void testXxx()` methods `JUnit` 3 runs: those that extend
/// one of these by name (last segment of the path: `junit.framework.TestCase`).
const JUNIT3_BASES: &[&[u8]] = &[
    b"TestCase",
    b"AndroidTestCase",
    b"InstrumentationTestCase",
    b"ActivityInstrumentationTestCase2",
    b"ActivityUnitTestCase",
    b"ApplicationTestCase",
    b"ProviderTestCase2",
    b"ServiceTestCase",
    b"LoaderTestCase",
    b"SingleLaunchActivityTestCase",
    b"GWTTestCase",
];

/// Both sides of a Java file that declares a `JUnit` 3 test case, read once for the file's
/// context and for the tests it keeps: each line's code ([`code_lines`]) and whether the
/// line is in a test case ([`junit3_lines`]), old side first.
#[derive(Debug, Default)]
pub(crate) struct Junit3Sides {
    pub code: [Vec<Vec<u8>>; 2],
    pub classes: [Vec<bool>; 2],
}

impl Junit3Sides {
    /// The sides read, when some class of either extends a `JUnit` 3 test case in code.
    pub(crate) fn read(sides: [&[u8]; 2]) -> Option<Self> {
        if !sides
            .iter()
            .any(|side| memchr::memmem::find(side, b"TestCase").is_some())
        {
            return None;
        }
        let code = sides.map(|side| code_lines(&JAVA.syntax, side));
        let classes = [junit3_lines(&code[0]), junit3_lines(&code[1])];
        classes
            .iter()
            .any(|side| side.contains(&true))
            .then_some(Self { code, classes })
    }
}

/// The code of each line of a Java side, comments and strings left out.
fn code_lines(syntax: &Syntax, side: &[u8]) -> Vec<Vec<u8>> {
    let mut state = State::Code;
    super::split_lines(side)
        .into_iter()
        .map(|line| {
            let mut code = Vec::new();
            state = lex::strip_line(syntax, state, line, &mut code);
            code
        })
        .collect()
}

/// For each line of a Java side (its [`code_lines`]), whether the innermost class around
/// it is a `JUnit` 3 test case: declared, in code (not in a comment or a string), as
/// extending one of [`JUNIT3_BASES`] (`class CalcTest extends TestCase {`, over lines
/// too). A nested class of another kind, or a project base class named `…TestCase`, is
/// none (attack-47 BJ2, BJ5, BJ7).
fn junit3_lines(code: &[Vec<u8>]) -> Vec<bool> {
    let mut flags = Vec::with_capacity(code.len());
    // Open braces: whether each opens a class body, and whether that class is a test case.
    let mut braces: Vec<Option<bool>> = Vec::new();
    // A class declared and not yet opened: whether it extends a test case.
    let mut declared: Option<bool> = None;
    let mut after_extends = false;
    let mut tokens = Vec::new();
    for line in code {
        tokens.clear();
        pattern::tokenize(line, &mut tokens);
        for (i, token) in tokens.iter().enumerate() {
            match token {
                Token::Ident(b"class" | b"interface" | b"enum" | b"record")
                    if !matches!(
                        i.checked_sub(1).map(|at| tokens[at]),
                        Some(Token::Punct(b'.'))
                    ) =>
                {
                    declared = Some(false);
                    after_extends = false;
                }
                Token::Ident(b"extends") if declared.is_some() => after_extends = true,
                Token::Ident(name) if after_extends => {
                    let last = !matches!(tokens.get(i + 1), Some(Token::Punct(b'.')));
                    if last {
                        declared = Some(JUNIT3_BASES.contains(name));
                        after_extends = false;
                    }
                }
                Token::Punct(b'{') => {
                    braces.push(declared.take());
                    after_extends = false;
                }
                Token::Punct(b'}') => {
                    braces.pop();
                }
                _ => {}
            }
        }
        let innermost = braces.iter().rev().find_map(|brace| *brace);
        flags.push(innermost == Some(true));
    }
    flags
}

/// `@Test`, `@ParameterizedTest`, `@org.junit.jupiter.api.Test`, … .
const TESTS: &[Pattern] = &[Pattern::new(&[
    Tok::Punct(b"@"),
    Tok::Path(Name::Is(&[
        "Test",
        "ParameterizedTest",
        "RepeatedTest",
        "TestFactory",
        "TestTemplate",
    ])),
])];

const SKIPS: &[Pattern] = &[
    // `@Disabled`, `@DisabledIf…`, `@DisabledOnOs(…)`, and the conditions that disable a
    // test everywhere else: `@EnabledIf…`, `@EnabledOnOs(…)`, `@EnabledForJreRange(…)`.
    Pattern::new(&[
        Tok::Punct(b"@"),
        Tok::Path(Name::StartsWith(&[
            "Disabled",
            "EnabledIf",
            "EnabledOn",
            "EnabledFor",
            "EnabledIn",
        ])),
    ]),
    // JUnit 4's and kotlin.test's `@Ignore`.
    Pattern::new(&[Tok::Punct(b"@"), Tok::Path(Name::Is(&["Ignore"]))]),
    // Assumptions abort the test as skipped: `assumeTrue(…)`, `Assume.assumeThat(…)`,
    // `Assumptions.assumeFalse(…)`.
    Pattern::new(&[Tok::Ident(Name::StartsWith(&["assume"])), Tok::Punct(b"(")])
        .not_after(DEFINITIONS),
    // TestNG's `@Test(enabled = false)`.
    Pattern::new(&[
        Tok::Ident(Name::Is(&["enabled"])),
        Tok::Punct(b"="),
        Tok::Ident(Name::Is(&["false"])),
    ])
    .with_test(),
];

const ASSERTIONS: &[Pattern] = &[
    // `assertEquals(…)`, `Assertions.assertThrows(…)`, `assertThat(x)`, Kotlin's
    // `assertIs<T>(…)` and `assertFailsWith<E> { … }`.
    Pattern::new(&[
        Tok::Ident(Name::StartsWith(&["assert"])),
        Tok::Punct(b"(<{"),
    ])
    .not_after(DEFINITIONS),
    // Java's `assert` statement.
    Pattern::new(&[Tok::Ident(Name::Is(&["assert"]))]),
];

/// Failures that make a test pass: `JUnit` 4's `@Test(expected = AssertionError.class)`
/// passes only when the test's own check fails.
const DISABLES: &[Pattern] = &[Pattern::new(&[
    Tok::Ident(Name::Is(&["expected"])),
    Tok::Punct(b"="),
    Tok::Ident(FAILURES),
    Tok::Punct(b"."),
    Tok::Ident(Name::Is(&["class"])),
])];

/// Checks whose failure is caught: `assertThrows(AssertionError.class, () -> …)`.
const SWALLOWERS: &[Pattern] = &[Pattern::new(&[
    Tok::Ident(Name::Is(&["assertThrows", "expectThrows"])),
    Tok::Punct(b"("),
    Tok::Ident(FAILURES),
    Tok::Punct(b"."),
    Tok::Ident(Name::Is(&["class"])),
])];

/// What a failing assertion throws.
const FAILURES: Name = Name::Is(&[
    "AssertionError",
    "AssertionFailedError",
    "ComparisonFailure",
    "Throwable",
]);

/// A helper named `assert…` or `assume…` being defined, not called.
const DEFINITIONS: &[Tok] = &[Tok::Ident(Name::Is(&["void", "fun"]))];

/// The Java table.
pub(crate) const JAVA: Table = Table {
    language: Language::Java,
    extensions: &["java"],
    syntax: Syntax {
        hash_comments: false,
        slash_comments: true,
        nested_block_comments: false,
        single_quote: SingleQuote::Char,
        triple_quotes: true,
        backtick: Backtick::Punct,
        multiline_strings: false,
        rust_raw_strings: false,
        regex_literals: false,
        unicode_line_ends: false,
    },
    tests: TESTS,
    skips: SKIPS,
    assertions: ASSERTIONS,
    disables: DISABLES,
    weakeners: &[],
    swallowers: SWALLOWERS,
    selectors: &[],
};

/// The Kotlin table.
pub(crate) const KOTLIN: Table = Table {
    language: Language::Kotlin,
    extensions: &["kt", "kts"],
    syntax: Syntax {
        nested_block_comments: true,
        backtick: Backtick::String {
            escapes: false,
            multiline: false,
        },
        ..JAVA.syntax
    },
    tests: TESTS,
    skips: SKIPS,
    assertions: ASSERTIONS,
    disables: DISABLES,
    weakeners: &[],
    swallowers: SWALLOWERS,
    selectors: &[],
};

#[cfg(test)]
mod tests {
    use crate::tamper::tamper_cases;
    use crate::tamper::tests::totals;

    const JUNIT: &str = r"package app;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        assertEquals(3, Calc.add(1, 2));
        assertTrue(Calc.add(0, 0) == 0);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void positive(int n) {
        assertThat(Calc.add(n, n)).isPositive();
    }
}
";

    const JUNIT3: &str = "package app;\n\nimport junit.framework.TestCase;\n\npublic class CalcTest extends TestCase {\n  public void testAdds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n\n  public void testBig() {\n    assertEquals(4, Calc.add(2, 2));\n  }\n}\n";

    const KOTLIN_TEST: &str = r"package app

import kotlin.test.Test
import kotlin.test.assertEquals

class CalcTest {
    @Test
    fun `adds two numbers`() {
        assertEquals(3, Calc.add(1, 2))
    }

    @Test
    fun rejects() {
        assertFailsWith<IllegalArgumentException> { Calc.add(-1, 0) }
    }
}
";

    fn edit(text: &str, from: &str, to: &str) -> String {
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1)
    }

    tamper_cases! {
        deleting_a_test: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "    @Test\n    void adds() {\n        assertEquals(3, Calc.add(1, 2));\n        assertTrue(Calc.add(0, 0) == 0);\n    }\n\n", ""), [1, 0, 2];
        adding_disabled: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "    @Test\n", "    @Disabled(\"flaky\")\n    @Test\n"), [0, 1, 0];
        adding_conditional_disable_and_assumption: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "    void adds() {\n", "    @DisabledOnOs(OS.WINDOWS)\n    void adds() {\n        Assumptions.assumeTrue(false);\n"), [0, 2, 0];
        junit4_ignore: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "    @Test\n", "    @Test\n    @org.junit.Ignore\n"), [0, 1, 0];
        testng_disabled: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "    @Test\n", "    @Test(enabled = false)\n"), [0, 1, 0];
        // JUnit 3: the `public void testXxx()` methods of a class that extends a `TestCase`
        // (gson's b9998e511f3a, bc2c25f23580 and e0de45ff69ba deleted such tests).
        junit3_test_deleted: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, "  public void testBig() {\n    assertEquals(4, Calc.add(2, 2));\n  }\n", ""), [1, 0, 1];
        junit3_test_renamed_out: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, "public void testBig()", "public void xtestBig()"), [1, 0, 0];
        junit3_test_given_a_parameter: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, "public void testBig()", "public void testBig(int n)"), [1, 0, 0];
        junit3_test_made_static: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, "public void testBig()", "public static void testBig()"), [1, 0, 0];
        junit3_test_made_private: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, "public void testBig()", "private void testBig()"), [1, 0, 0];
        junit3_test_added: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, "  public void testBig() {", "  public void testMore() {\n    assertEquals(5, Calc.add(2, 3));\n  }\n\n  public void testBig() {"), [-1, 0, -1];
        // A class that no longer extends `TestCase` runs none of them; one ported to JUnit 4
        // with `@Test` on each runs them all.
        junit3_base_dropped: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, " extends TestCase", ""), [2, 0, 0];
        junit3_base_dropped_one_ported: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, " extends TestCase", "").replace("  public void testAdds", "  @Test\n  public void testAdds").replace("import junit.framework.TestCase;", "import org.junit.Test;"), [1, 0, 0];
        // A `@Test` that is the file's own annotation, or not imported from a runner, runs
        // nothing (attack-47 BJ3); a class the file nests that extends `TestCase` does not
        // run the outer class's tests (BJ2), nor does a test moved into a plain nested
        // class run (BJ7); `TestCase` in a comment is none (BJ1).
        junit3_ported_to_an_own_annotation: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, " extends TestCase", "").replace("  public void test", "  @Test\n  public void test").replace("import junit.framework.TestCase;", "import org.junit.Test;\n\n@interface Test {}"), [2, 0, 0];
        junit3_base_dropped_nested_test_case_added: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, " extends TestCase {", " {\n  abstract static class Legacy extends TestCase {}\n"), [2, 0, 0];
        junit3_test_moved_into_a_plain_nested_class: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, "  public void testBig() {\n    assertEquals(4, Calc.add(2, 2));\n  }\n", "  static class Pending {\n  public void testBig() {\n    assertEquals(4, Calc.add(2, 2));\n  }\n  }\n"), [1, 0, 0];
        junit3_base_in_a_comment: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, " extends TestCase {", " /* extends TestCase */ {"), [2, 0, 0];
        // A JUnit 4 class whose base the project named `…TestCase` is no JUnit 3 class
        // (attack-47 BJ5): `@Test` dropped from a test disables it.
        junit4_base_named_test_case: "src/test/java/app/CalcTest.java", "import org.junit.Test;\n\npublic class CalcTest extends CalcTestCase {\n  @Test public void testAdds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n}\n" => "import org.junit.Test;\n\npublic class CalcTest extends CalcTestCase {\n  public void testAdds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n}\n", [1, 0, 0];
        // `@Test` written above a JUnit 3 test (which the runner ran already) makes up for
        // no test deleted beside it.
        junit3_annotated_beside_a_deletion: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, "  public void testBig() {\n    assertEquals(4, Calc.add(2, 2));\n  }\n", "").replace("  public void testAdds", "  @Test\n  public void testAdds"), [1, 0, 1];
        junit3_base_renamed: "src/test/java/app/CalcTest.java", JUNIT3 => edit(JUNIT3, " extends TestCase", " extends junit.framework.TestCase"), [0, 0, 0];
        // Outside a `TestCase`, a method named `test…` is no test (JUnit 4 wants `@Test`).
        junit4_method_named_test: "src/test/java/app/CalcTest.java", "public class CalcTest {\n  public void testAdds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n}\n" => "public class CalcTest {\n}\n", [0, 0, 1];
        // A JUnit 3 method that was no test (`disable_test…`) made an ignored JUnit 4 test
        // skips nothing that ran (gson's 1a2170b99c9d): it is a test added; `testAdds`,
        // given `@Test` as its class stops extending `TestCase`, is the test that ran.
        junit3_disabled_method_ported_ignored: "src/test/java/app/CalcTest.java", "public class CalcTest extends TestCase {\n  public void testAdds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n\n  public void disable_testBig() {\n    assertEquals(4, Calc.add(2, 2));\n  }\n}\n" => "import org.junit.Test;\n\npublic class CalcTest {\n  @Test\n  public void testAdds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n\n  @Test\n  @Ignore\n  public void disable_testBig() {\n    assertEquals(4, Calc.add(2, 2));\n  }\n}\n", [-1, 0, 0];
        // `@Ignore` below an added `@Test` that the diff lines up over a test that ran
        // still counts.
        ignoring_a_test_below_an_added_test_annotation: "src/test/java/app/CalcTest.java", "public class CalcTest {\n  @Test\n  public void adds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n}\n" => "public class CalcTest {\n  @Test\n  public void more() {\n    assertEquals(4, Calc.add(2, 2));\n  }\n\n  @Test\n  @Ignore\n  public void adds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n}\n", [-1, 1, -1];
        // An assumption in the body of a new test (below its `@Test`).
        an_assumption_in_a_new_test: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "isPositive();\n    }\n", "isPositive();\n    }\n\n    @Test\n    void more() {\n        assumeTrue(fast());\n        assertEquals(4, Calc.add(2, 2));\n    }\n"), [-1, 0, -1];
        removing_an_assertion: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "        assertTrue(Calc.add(0, 0) == 0);\n", ""), [0, 0, 1];
        renaming_a_test: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "void adds()", "void addsTwoNumbers()"), [0, 0, 0];
        adding_tests: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "    @ParameterizedTest", "    @RepeatedTest(3)\n    void again() {\n        assert Calc.add(1, 1) == 2;\n    }\n\n    @ParameterizedTest"), [-1, 0, -1];
        comments_and_strings: "src/test/java/app/CalcTest.java", JUNIT => edit(JUNIT, "class CalcTest {\n", "class CalcTest {\n    // @Test assertEquals(1, 1)\n    /**\n     * @Test\n     * @Disabled\n     * assertTrue(x)\n     */\n    static final String S = \"@Test assertTrue(x)\";\n    static final String T = \"\"\"\n        @Disabled\n        \"\"\";\n"), [0, 0, 0];
        helper_definitions: "src/test/java/app/Helpers.java", "static void assertValid(Object o) {}\n" => "", [0, 0, 0];
        kotlin_deleting_a_test: "src/test/kotlin/app/CalcTest.kt", KOTLIN_TEST => edit(KOTLIN_TEST, "    @Test\n    fun rejects() {\n        assertFailsWith<IllegalArgumentException> { Calc.add(-1, 0) }\n    }\n", ""), [1, 0, 1];
        kotlin_ignore: "src/test/kotlin/app/CalcTest.kt", KOTLIN_TEST => edit(KOTLIN_TEST, "    @Test\n    fun rejects", "    @Ignore\n    @Test\n    fun rejects"), [0, 1, 0];
        kotlin_nested_comment: "src/test/kotlin/app/CalcTest.kt", KOTLIN_TEST => edit(KOTLIN_TEST, "class CalcTest {\n", "class CalcTest {\n    /* outer /* inner */ @Test assertEquals(1, 1) */\n    val s = \"\"\"\n        @Test\n    \"\"\"\n"), [0, 0, 0];
    }

    #[test]
    fn moving_a_test_between_files_nets_out() {
        let test = "    @Test\n    void moved() {\n        assertTrue(true);\n    }\n";
        assert_eq!(
            totals(&[
                (
                    "A.java",
                    &format!("class A {{\n{test}}}\n"),
                    "class A {\n}\n"
                ),
                (
                    "B.java",
                    "class B {\n}\n",
                    &format!("class B {{\n{test}}}\n")
                ),
            ]),
            (0, 0, 0)
        );
    }
}
