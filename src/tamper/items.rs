//! Whether a change to a Rust file outside test paths changes its tests: a source file's
//! `#[cfg(test)] mod tests { … }`, its `#[test]` functions, a `mod tests;` that brings a test
//! module in. Such a change touches tests (the intent modifies tests) even when no count
//! moves: a test's expected value edited to match the code, a tolerance widened, a
//! `process::exit(0)` at the top of the module are all edits inside test code that the
//! counts net to nothing.
//!
//! Items are read from rustfmt's layout, as [`super::place`] reads them: an item starts on a
//! line at column 0 (not a comment, an attribute or a closing brace), with its attributes on
//! the lines right above it. A changed line above any item (the file's first comment lines)
//! is in no item, and touches no test.

use std::ops::Range;

use super::lex::{self, State, Syntax};
use super::pattern::{self, Pattern, Token};
use super::place;

/// Whether a changed line on either side (`old` and `new`, changed where `hunks` say) is in
/// a test item, or the file is all test code (`#![cfg(test)]`).
pub(crate) fn rust_change_touches_tests(
    tests: &'static [Pattern],
    syntax: &Syntax,
    old: &[&[u8]],
    new: &[&[u8]],
    hunks: &[(Range<usize>, Range<usize>)],
) -> bool {
    [(old, 0), (new, 1)].into_iter().any(|(lines, side)| {
        let ranges = || {
            hunks.iter().map(move |hunk| {
                if side == 0 {
                    hunk.0.clone()
                } else {
                    hunk.1.clone()
                }
            })
        };
        // Read by layout alone first, which costs no lexing; only an answer of yes is
        // checked again with the lines that start inside a string or comment left out
        // (`#[test]` at column 0 of a raw string is no attribute).
        ranges().any(|range| touches(tests, lines, range, &|_| true)) && {
            let in_code = code_lines(syntax, lines);
            ranges().any(|range| touches(tests, lines, range, &|i| in_code[i]))
        }
    })
}

/// Per line, whether it starts in code (not inside a string or a block comment).
fn code_lines(syntax: &Syntax, lines: &[&[u8]]) -> Vec<bool> {
    let mut state = State::Code;
    lines
        .iter()
        .map(|line| {
            let starts_in_code = state == State::Code;
            state = lex::advance(syntax, state, line);
            starts_in_code
        })
        .collect()
}

/// Whether a line of `range` (changed lines of one side) is in a test item of `lines`,
/// reading only the lines `in_code` admits as item or attribute lines.
fn touches(
    tests: &'static [Pattern],
    lines: &[&[u8]],
    range: Range<usize>,
    in_code: &dyn Fn(usize) -> bool,
) -> bool {
    let range = range.start.min(lines.len())..range.end.min(lines.len());
    if range.is_empty() {
        return false;
    }
    let starts_item = |i: usize| starts_item(lines[i]) && in_code(i);
    // The item of the first changed line, each item that starts inside the range, and the
    // item below a changed attribute line (`#[cfg(test)]` edited belongs to the module it
    // guards).
    let first = (0..=range.start).rev().find(|&i| starts_item(i));
    let below_attributes = range
        .clone()
        .filter(|&i| lines[i].starts_with(b"#[") && in_code(i))
        .filter_map(|i| (i..lines.len()).find(|&j| starts_item(j)));
    first
        .into_iter()
        .chain(range.clone().filter(|&i| starts_item(i)))
        .chain(below_attributes)
        .any(|start| test_item(tests, lines, start, in_code))
        || (first.is_some() && whole_file_is_tests(lines))
}

/// A line at column 0 that is no comment, attribute or closing brace starts an item.
fn starts_item(line: &[u8]) -> bool {
    line.first()
        .is_some_and(|&byte| !byte.is_ascii_whitespace() && !matches!(byte, b'/' | b'}' | b'#'))
}

/// Whether the item that starts on line `start` only builds or runs under test: `mod tests`
/// (with a body or not), a `macro_rules!` (it may define tests), or a test attribute on the
/// lines right above it.
fn test_item(
    tests: &'static [Pattern],
    lines: &[&[u8]],
    start: usize,
    in_code: &dyn Fn(usize) -> bool,
) -> bool {
    let mut tokens = Vec::new();
    pattern::tokenize(lines[start], &mut tokens);
    if matches!(
        tokens.as_slice(),
        [Token::Ident(b"mod"), Token::Ident(b"tests" | b"test"), ..]
            | [
                Token::Ident(b"pub"),
                Token::Ident(b"mod"),
                Token::Ident(b"tests" | b"test"),
                ..
            ]
            | [Token::Ident(b"macro_rules"), ..]
    ) {
        return true;
    }
    for (i, line) in lines[..start].iter().enumerate().rev() {
        let trimmed = line.trim_ascii();
        if trimmed.starts_with(b"//") {
            continue;
        }
        if !trimmed.starts_with(b"#") || !in_code(i) {
            break;
        }
        tokens.clear();
        pattern::tokenize(trimmed, &mut tokens);
        if place::test_attribute(tests, &tokens) {
            return true;
        }
    }
    false
}

/// A file under `#![cfg(test)]`: every item is test code.
fn whole_file_is_tests(lines: &[&[u8]]) -> bool {
    lines
        .iter()
        .take_while(|line| !starts_item(line) || line.starts_with(b"#!"))
        .filter(|line| line.starts_with(b"#!["))
        .any(|line| {
            let mut tokens = Vec::new();
            pattern::tokenize(line, &mut tokens);
            matches!(
                tokens.as_slice(),
                [Token::Punct(b'#'), Token::Punct(b'!'), Token::Punct(b'['), Token::Ident(b"cfg"), rest @ ..]
                    if rest.contains(&Token::Ident(b"test")) && !rest.contains(&Token::Ident(b"not"))
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&[u8]> {
        text.split_inclusive('\n').map(str::as_bytes).collect()
    }

    const SOURCE: &str = "//! A crate.\n\
        use std::fmt;\n\
        \n\
        pub fn add(a: i32, b: i32) -> i32 {\n\
        \x20   a + b\n\
        }\n\
        \n\
        #[cfg(test)]\n\
        mod tests {\n\
        \x20   use super::*;\n\
        \n\
        \x20   #[test]\n\
        \x20   fn adds() {\n\
        \x20       assert_eq!(add(1, 2), 3);\n\
        \x20   }\n\
        }\n";

    fn touched(line: usize) -> bool {
        let side = lines(SOURCE);
        touches(
            super::super::rust::TABLE.tests,
            &side,
            line..line + 1,
            &|_| true,
        )
    }

    #[test]
    fn a_change_in_the_test_module_touches_tests_and_one_in_the_library_does_not() {
        // The expected value, the test's own line, the module's braces and attribute.
        for line in [7, 8, 11, 12, 13, 14, 15] {
            assert!(touched(line), "line {line}");
        }
        // The doc comment above every item, the `use`, the library function.
        for line in [0, 1, 3, 4, 5] {
            assert!(!touched(line), "line {line}");
        }
    }

    /// `#[test]` and `fn` at column 0 of a raw string are no test item.
    #[test]
    fn a_test_written_in_a_string_is_no_test() {
        let side = lines(
            "pub const EXAMPLE: &str = r#\"\n#[test]\nfn generated() { assert!(true); }\n\"#;\n",
        );
        let hunks = [(0..0, 1..3)];
        let tests = super::super::rust::TABLE.tests;
        let syntax = &super::super::rust::TABLE.syntax;
        assert!(!rust_change_touches_tests(
            tests,
            syntax,
            &[],
            &side,
            &hunks
        ));
        let code =
            lines("pub const EXAMPLE: &str = \"\";\n#[test]\nfn generated() { assert!(true); }\n");
        assert!(rust_change_touches_tests(tests, syntax, &[], &code, &hunks));
    }

    #[test]
    fn a_test_module_declared_or_a_test_function_outside_a_module_is_test_code() {
        let tests = super::super::rust::TABLE.tests;
        let side = lines("pub mod parse;\n#[cfg(test)]\nmod tests;\n");
        let touches = |side: &[&[u8]], range: Range<usize>| touches(tests, side, range, &|_| true);
        assert!(touches(&side, 2..3));
        assert!(!touches(&side, 0..1));
        let side =
            lines("fn helper() {}\n\n#[tokio::test]\nasync fn works() {\n    helper();\n}\n");
        assert!(touches(&side, 4..5));
        assert!(!touches(&side, 0..1));
        let side = lines("#![cfg(test)]\n\nfn helper() {\n    todo!()\n}\n");
        assert!(touches(&side, 3..4));
    }
}
