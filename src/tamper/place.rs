//! Where a line is, for the patterns that only mean something in a test: an assertion of
//! library code checks the program, not a test, and a function named `test_…` defined
//! inside a test is that test's helper.
//!
//! Per file: Python and JavaScript assertions count in a test module (the file context of
//! [`super::context`]), JVM ones in a file under a `test/` directory, named `*Test`/`*Tests`
//! or using a test framework, Go ones everywhere (`t.Error` only exists in tests). Rust
//! assertions count in a file under a test directory (`tests/`, `benches/`), a `tests.rs` /
//! `*_test.rs` module, and elsewhere only inside an item that only compiles under test
//! (`#[cfg(test)] mod tests { … }`, `#[test] fn …`, a `mod tests { … }`): the line walk of
//! [`rust_test_lines`].

use memchr::memmem;

use super::Language;
use super::lex::{self, State, Syntax};
use super::pattern::{self, Pattern, Token};

/// Whether the assertions of a whole file at `path`, with sides `sides`, are the tests'
/// (`None` for Rust outside test paths: per line, by [`rust_test_lines`]).
pub(crate) fn file_is_tests(
    language: Language,
    path: &str,
    context_tests: bool,
    sides: [&[u8]; 2],
) -> Option<bool> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let dirs = || path.split('/').rev().skip(1);
    match language {
        Language::Python | Language::JavaScript => Some(context_tests),
        Language::Go | Language::RunnerConfig => Some(true),
        Language::Java | Language::Kotlin => Some(
            dirs().any(|dir| matches!(dir, "test" | "tests" | "androidTest" | "testFixtures"))
                || ["Test", "Tests", "IT", "TestCase", "Spec"]
                    .iter()
                    .any(|suffix| stem.ends_with(suffix))
                || sides.iter().any(|side| {
                    [&b"org.junit"[..], b"org.testng", b"kotlin.test", b"@Test"]
                        .iter()
                        .any(|needle| memmem::find(side, needle).is_some())
                }),
        ),
        Language::Rust => (dirs().any(|dir| {
            matches!(
                dir,
                "tests" | "test" | "benches" | "testing" | "testutil" | "test_utils"
            )
        }) || matches!(stem, "tests" | "test")
            || stem.ends_with("_test")
            || stem.ends_with("_tests"))
        .then_some(true),
    }
}

/// Whether a Rust attribute line says the item below it only builds or runs under test:
/// a test attribute (`tests` patterns), or a `cfg` that names `test` and not `not`.
fn test_attribute(tests: &[Pattern], tokens: &[Token<'_>]) -> bool {
    match tokens {
        [
            Token::Punct(b'#'),
            Token::Punct(b'['),
            Token::Ident(b"cfg"),
            rest @ ..,
        ] => rest.contains(&Token::Ident(b"test")) && !rest.contains(&Token::Ident(b"not")),
        [Token::Punct(b'#'), Token::Punct(b'['), ..] => pattern::count(tests, tokens, false) > 0,
        [Token::Ident(b"mod"), Token::Ident(b"tests" | b"test"), ..] => true,
        _ => false,
    }
}

/// Per line of a Rust side: whether it is inside an item that only builds under test (or
/// is the attribute line of one). A `#![cfg(test)]` makes every line a test line.
pub(crate) fn rust_test_lines(syntax: &Syntax, tests: &[Pattern], lines: &[&[u8]]) -> Vec<bool> {
    let mut flags = Vec::with_capacity(lines.len());
    let mut state = State::Code;
    let mut code = Vec::new();
    let mut depth = 0usize;
    let mut pending = false;
    // The depths at which a test item's braces opened.
    let mut opened: Vec<usize> = Vec::new();
    for line in lines {
        code.clear();
        let start = state;
        state = lex::strip_line(syntax, start, line, &mut code);
        let mut tokens = Vec::new();
        pattern::tokenize(&code, &mut tokens);
        if start == State::Code {
            if let [
                Token::Punct(b'#'),
                Token::Punct(b'!'),
                Token::Punct(b'['),
                Token::Ident(b"cfg"),
                rest @ ..,
            ] = tokens.as_slice()
                && rest.contains(&Token::Ident(b"test"))
                && !rest.contains(&Token::Ident(b"not"))
            {
                return vec![true; lines.len()];
            }
            if test_attribute(tests, &tokens) {
                pending = true;
            }
        }
        let mut in_tests = pending || !opened.is_empty();
        for token in &tokens {
            match token {
                Token::Punct(b'{') => {
                    depth += 1;
                    if pending {
                        opened.push(depth);
                        pending = false;
                    }
                }
                Token::Punct(b'}') => {
                    if opened.last() == Some(&depth) {
                        opened.pop();
                    }
                    depth = depth.saturating_sub(1);
                }
                Token::Punct(b';') if pending => {
                    // `#[cfg(test)] use helpers::*;`: an item without a body.
                    pending = false;
                }
                _ => {}
            }
        }
        in_tests |= !opened.is_empty();
        flags.push(in_tests);
    }
    flags
}

/// Per line of a Python side: whether it defines a function inside a function (`def` under
/// a `def`, by indentation). Such a function is a helper of the one it is in, whatever its
/// name: pytest and unittest collect module-level functions and class methods only.
pub(crate) fn python_nested_defs(lines: &[&[u8]]) -> Vec<bool> {
    let mut flags = Vec::with_capacity(lines.len());
    // The open `def`s and `class`es: indentation, and whether it is a `def`.
    let mut open: Vec<(usize, bool)> = Vec::new();
    for line in lines {
        let trimmed = line.trim_ascii_start();
        if trimmed.is_empty()
            || trimmed.starts_with(b"#")
            || trimmed.iter().all(u8::is_ascii_whitespace)
        {
            flags.push(false);
            continue;
        }
        let indent = line.len() - trimmed.len();
        while open.last().is_some_and(|&(at, _)| at >= indent) {
            open.pop();
        }
        let is_def = trimmed.starts_with(b"def ") || trimmed.starts_with(b"async def ");
        flags.push(is_def && open.last().is_some_and(|&(_, def)| def));
        if is_def || trimmed.starts_with(b"class ") {
            open.push((indent, is_def));
        }
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tamper::rust;

    fn lines(text: &str) -> Vec<&[u8]> {
        text.lines().map(str::as_bytes).collect()
    }

    #[test]
    fn rust_test_items() {
        let text = "fn lib() {\n    assert!(x);\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert!(y);\n    }\n}\n\nfn after() {\n    assert!(z);\n}\n#[cfg(not(test))]\nfn not_test() {\n    assert!(w);\n}\n";
        let flags = rust_test_lines(&rust::TABLE.syntax, rust::TABLE.tests, &lines(text));
        let in_tests: Vec<usize> = flags
            .iter()
            .enumerate()
            .filter(|(_, f)| **f)
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(in_tests, (5..=11).collect::<Vec<_>>());
        let whole = rust_test_lines(
            &rust::TABLE.syntax,
            rust::TABLE.tests,
            &lines("#![cfg(test)]\nfn x() {\n    assert!(a);\n}\n"),
        );
        assert!(whole.iter().all(|f| *f));
        // A test attribute on an item without a body ends at its `;`.
        let flags = rust_test_lines(
            &rust::TABLE.syntax,
            rust::TABLE.tests,
            &lines("#[cfg(test)]\nuse a::b;\nfn lib() {\n    assert!(x);\n}\n"),
        );
        assert_eq!(flags, [true, true, false, false, false]);
    }

    #[test]
    fn rust_paths() {
        for path in [
            "tests/it.rs",
            "crates/x/tests/a.rs",
            "src/tests.rs",
            "src/parse_test.rs",
            "benches/b.rs",
        ] {
            assert_eq!(
                file_is_tests(Language::Rust, path, true, [b"", b""]),
                Some(true),
                "{path}"
            );
        }
        assert_eq!(
            file_is_tests(Language::Rust, "src/lib.rs", true, [b"", b""]),
            None
        );
        assert_eq!(
            file_is_tests(
                Language::Java,
                "src/main/java/a/Calc.java",
                true,
                [b"class Calc {}", b""]
            ),
            Some(false)
        );
        assert_eq!(
            file_is_tests(
                Language::Java,
                "src/test/java/a/Calc.java",
                true,
                [b"", b""]
            ),
            Some(true)
        );
        assert_eq!(
            file_is_tests(
                Language::Java,
                "x/Calc.java",
                true,
                [b"import org.junit.Test;", b""]
            ),
            Some(true)
        );
    }

    #[test]
    fn python_nesting() {
        let text = "def test_a():\n    def test_inner():\n        pass\n\n\nclass TestB:\n    def test_m(self):\n        def test_deep():\n            pass\n\n\ndef test_c():\n    class Inner:\n        def test_x(self):\n            pass\n";
        let nested: Vec<usize> = python_nested_defs(&lines(text))
            .iter()
            .enumerate()
            .filter(|(_, f)| **f)
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(nested, [2, 8]);
    }
}
