//! Where a line is, for the patterns that only mean something in a test: an assertion of
//! library code checks the program, not a test, and a function named `test_…` defined
//! inside a test is that test's helper.
//!
//! Per file: Python and JavaScript assertions count in a test module (the file context of
//! [`super::context`]), JVM ones in a file under a `test/` directory, named `*Test`/`*Tests`
//! or using a test framework, Go ones everywhere (`t.Error` only exists in tests). Rust
//! assertions count in a file under a test directory (`tests/`, `benches/`), a `tests.rs` /
//! `*_test.rs` module, and elsewhere only inside an item that only compiles under test
//! (`#[cfg(test)] mod tests { … }`, `#[test] fn …`, a `mod tests { … }`), found by a walk of
//! the side's blocks ([`rust_test_lines`]).

use memchr::memmem;

use super::Language;
use super::lex::{self, Syntax};
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

/// Whether a Rust attribute (its tokens, `#` to `]`) says the item below it only builds or
/// runs under test: a test attribute (`tests` patterns), or a `cfg` that names `test` and
/// not `not`.
fn test_attribute(tests: &'static [Pattern], tokens: &[Token<'_>]) -> bool {
    match tokens {
        [
            Token::Punct(b'#'),
            Token::Punct(b'!'),
            Token::Punct(b'['),
            Token::Ident(b"cfg"),
            rest @ ..,
        ]
        | [
            Token::Punct(b'#'),
            Token::Punct(b'['),
            Token::Ident(b"cfg"),
            rest @ ..,
        ] => rest.contains(&Token::Ident(b"test")) && !rest.contains(&Token::Ident(b"not")),
        [Token::Punct(b'#'), Token::Punct(b'['), ..] => pattern::count(tests, tokens, false) > 0,
        _ => false,
    }
}

/// A block open at some point of a Rust side.
#[derive(Debug, Clone, Copy)]
struct Block {
    /// Its code only builds or runs under test.
    test: bool,
    /// The line it opens on.
    start: usize,
    /// It is the body of a `macro_rules!`.
    macro_rules: bool,
    /// It names `test` (a `#[test]` the macro writes): the macro may define tests.
    names_test: bool,
    /// The `(`/`[` depth of the enclosing block where it opened.
    nest: u32,
}

/// A byte the walk of [`rust_test_lines`] passes over.
const SKIP: u8 = 0;
/// A byte of an identifier ([`lex::is_ident_byte`]).
const IDENT: u8 = 1;
/// A byte the walk reads: `#`, a bracket or `;`.
const READ: u8 = 2;

/// The class of each byte, for [`rust_test_lines`].
const CLASSES: [u8; 256] = {
    let mut table = [SKIP; 256];
    let mut byte = 0;
    while byte < 256 {
        #[expect(clippy::cast_possible_truncation, reason = "byte < 256")]
        let b = byte as u8;
        if lex::is_ident_byte(b) {
            table[byte] = IDENT;
        } else if matches!(b, b'#' | b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';') {
            table[byte] = READ;
        }
        byte += 1;
    }
    table
};

/// Whether the attribute `attribute` (`#[…]` or `#![…]`, spaces dropped between `#`, `!`
/// and `[`) is a test attribute; an inner one makes the rest of the block it is in (or the
/// file) test code. Either way the block it is in now names `test`.
fn attribute_is_test(
    tests: &'static [Pattern],
    attribute: &[u8],
    open: &mut [Block],
    file_test: &mut bool,
) -> bool {
    let mut tokens = Vec::new();
    pattern::tokenize(attribute, &mut tokens);
    if !test_attribute(tests, &tokens) {
        return false;
    }
    if attribute.get(1) == Some(&b'!') {
        match open.last_mut() {
            Some(block) => block.test = true,
            None => *file_test = true,
        }
    }
    if let Some(block) = open.last_mut() {
        block.names_test = true;
    }
    true
}

/// Which lines of a Rust side `lines` are test code, whatever the layout: the lines of an
/// item under a test attribute or a `cfg` naming `test` (`#[cfg(test)] mod tests { … }`,
/// `#[test] fn t() { … }`, `#[tokio::test]`), of a `mod tests`/`mod test`, of a
/// `macro_rules!` whose body names `test` (it may define tests), everything after a
/// `#![cfg(test)]` in the block or file it is in, and the attribute lines themselves. One
/// pass of the lexer over the side: a `{` opens a block that is test code when its parent
/// is or when a test attribute is pending for the item it belongs to; `;` at the item's
/// level and `}` end what is pending. Comments and literals never count (the lexer drops
/// them), so `r#"}"#`, `'{'` and `/* } */` do not unbalance the walk. A line counts as
/// test code if any of it is. A side that never says `test` (nor `quickcheck`) has none.
pub(crate) fn rust_test_lines(
    syntax: &Syntax,
    tests: &'static [Pattern],
    lines: &[&[u8]],
) -> Vec<bool> {
    let mut out = vec![false; lines.len()];
    let finder = memmem::Finder::new(b"test");
    if !lines
        .iter()
        .any(|line| finder.find(line).is_some() || memmem::find(line, b"quickcheck").is_some())
    {
        return out;
    }
    let mut walk = Blocks {
        tests,
        open: Vec::new(),
        file_test: false,
        pending: false,
        pending_macro: false,
        nest: 0,
        attribute: Vec::new(),
        brackets: 0,
    };
    let mut state = lex::State::Code;
    let mut stripped = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code: &[u8] = if lex::is_plain(state, line) {
            line
        } else {
            stripped.clear();
            state = lex::strip_line(syntax, state, line, &mut stripped);
            &stripped
        };
        let test = walk.line(i, code, &mut out);
        out[i] |= test;
    }
    out
}

/// The walk of [`rust_test_lines`] between two lines.
struct Blocks {
    tests: &'static [Pattern],
    /// The blocks open, innermost last.
    open: Vec<Block>,
    /// A `#![cfg(test)]` outside any block: the rest of the file is test code.
    file_test: bool,
    /// A test attribute or `mod tests` seen, for the item whose `{` comes next.
    pending: bool,
    /// A `macro_rules` seen, for the `{` that comes next.
    pending_macro: bool,
    /// `(` and `[` open in the current block: a `;` inside them (`[u8; 2]`) ends no item.
    nest: u32,
    /// The attribute being read (`#` up to its `]`, across lines), and its `[` depth (0:
    /// none is being read).
    attribute: Vec<u8>,
    brackets: u32,
}

impl Blocks {
    fn in_test(&self) -> bool {
        self.file_test || self.open.last().is_some_and(|block| block.test)
    }

    /// Walks the code of line `i`; returns whether any of it is test code. A `macro_rules!`
    /// that ends here and turns out to define tests marks its earlier lines in `out`.
    fn line(&mut self, i: usize, code: &[u8], out: &mut [bool]) -> bool {
        let mut line_test = self.in_test() || self.pending || self.brackets > 0;
        let mut j = 0;
        while j < code.len() {
            let byte = code[j];
            if self.brackets > 0 {
                line_test |= self.attribute_byte(byte);
                j += 1;
                continue;
            }
            let class = CLASSES[usize::from(byte)];
            if class == SKIP {
                j += 1;
            } else if class == IDENT {
                let end = j + code[j..]
                    .iter()
                    .position(|&b| CLASSES[usize::from(b)] != IDENT)
                    .unwrap_or(code.len() - j);
                line_test |= self.ident(&code[j..end], &code[end..]);
                j = end;
            } else if byte == b'#' {
                j += self.hash(&code[j..]);
            } else {
                line_test |= self.punct(byte, i, out);
                j += 1;
            }
        }
        line_test
    }

    /// One byte of an attribute being read; returns whether the attribute ends here and is
    /// a test attribute.
    fn attribute_byte(&mut self, byte: u8) -> bool {
        self.attribute.push(byte);
        match byte {
            b'[' => self.brackets += 1,
            b']' => self.brackets -= 1,
            _ => {}
        }
        if self.brackets > 0
            || !attribute_is_test(
                self.tests,
                &self.attribute,
                &mut self.open,
                &mut self.file_test,
            )
        {
            return false;
        }
        self.pending |= self.attribute.get(1) != Some(&b'!');
        true
    }

    /// An identifier, and the code after it; returns whether it makes the line test code
    /// (`mod tests`).
    fn ident(&mut self, ident: &[u8], rest: &[u8]) -> bool {
        match ident {
            b"mod" => {
                let rest = rest.trim_ascii_start();
                let name = &rest[..rest
                    .iter()
                    .position(|&b| !lex::is_ident_byte(b))
                    .unwrap_or(rest.len())];
                if matches!(name, b"tests" | b"test") {
                    self.pending = true;
                    return true;
                }
            }
            b"macro_rules" => self.pending_macro = true,
            b"test" => {
                if let Some(block) = self.open.last_mut() {
                    block.names_test = true;
                }
            }
            _ => {}
        }
        false
    }

    /// A `#` at the start of `code`; returns how many bytes it takes: `#[` or `#![` (spaces
    /// allowed between) starts reading an attribute.
    fn hash(&mut self, code: &[u8]) -> usize {
        let after = |from: usize| {
            code.get(from..)?
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .map(|k| from + k)
        };
        let mut k = after(1);
        if k.is_some_and(|k| code[k] == b'!') {
            k = k.and_then(|k| after(k + 1));
        }
        let Some(k) = k.filter(|&k| code[k] == b'[') else {
            return 1;
        };
        // Kept without spaces: `# ! [` reads as `#![`.
        self.attribute.clear();
        self.attribute
            .extend(code[..=k].iter().filter(|b| !b.is_ascii_whitespace()));
        self.brackets = 1;
        k + 1
    }

    /// A bracket or `;` on line `i`; returns whether it opens a test block or closes a
    /// macro that defines tests.
    fn punct(&mut self, byte: u8, i: usize, out: &mut [bool]) -> bool {
        match byte {
            b'{' => {
                let test = self.in_test() || self.pending;
                self.open.push(Block {
                    test,
                    start: i,
                    macro_rules: self.pending_macro,
                    names_test: false,
                    nest: self.nest,
                });
                self.pending = false;
                self.pending_macro = false;
                self.nest = 0;
                return test;
            }
            b'}' => {
                self.pending = false;
                self.pending_macro = false;
                if let Some(block) = self.open.pop() {
                    self.nest = block.nest;
                    if let Some(parent) = self.open.last_mut() {
                        parent.names_test |= block.names_test;
                    }
                    if block.macro_rules && block.names_test && !block.test {
                        out[block.start..i].fill(true);
                        return true;
                    }
                }
            }
            b'(' | b'[' => self.nest += 1,
            b')' | b']' => self.nest = self.nest.saturating_sub(1),
            b';' if self.nest == 0 => {
                self.pending = false;
                self.pending_macro = false;
            }
            _ => {}
        }
        false
    }
}

/// A Python line's place bit: it defines a function no runner collects as a test, whatever
/// its name (see [`python_places`]).
pub(crate) const NOT_A_TEST: u8 = 2;

/// A Python line's place bit: it is in a test function that a later one of the same name
/// replaces; it never runs.
pub(crate) const SHADOWED: u8 = 4;

fn ident_prefix(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .position(|&b| !lex::is_ident_byte(b))
        .unwrap_or(text.len());
    &text[..end]
}

/// The place bits of each line of a Python side:
/// - [`NOT_A_TEST`] on a `def` inside a function (a helper of the one it is in: pytest and
///   unittest collect module-level functions and class methods only), and on a method of a
///   class no runner collects: its name does not start with `Test` (pytest) and it has no
///   base but `object` (unittest needs a `TestCase`), `class AddTest(object):`. Such a
///   class's `test…` methods never run: [`SHADOWED`] too, with their bodies;
/// - [`SHADOWED`] on a `def test…` and its body when a later `def` of the same name in the
///   same class or module replaces it: only the last one runs.
pub(crate) fn python_places(lines: &[&[u8]]) -> Vec<u8> {
    /// An open block: a `def`, or a class and whether the runners collect it.
    #[derive(Clone, Copy, PartialEq)]
    enum Open {
        Def,
        Class { collected: bool },
    }
    let mut places = vec![0u8; lines.len()];
    // The open `def`s and `class`es: indentation, the line, and what it is.
    let mut open: Vec<(usize, usize, Open)> = Vec::new();
    // The last `def test…` of each (scope line, name), and where it is.
    let mut defined: Vec<(Option<usize>, &[u8], usize, usize)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_ascii_start();
        if trimmed.is_empty()
            || trimmed.starts_with(b"#")
            || trimmed.iter().all(u8::is_ascii_whitespace)
        {
            continue;
        }
        let indent = line.len() - trimmed.len();
        while open.last().is_some_and(|&(at, _, _)| at >= indent) {
            open.pop();
        }
        let def = trimmed
            .strip_prefix(b"def ")
            .or_else(|| trimmed.strip_prefix(b"async def "));
        if let Some(rest) = def {
            let name = ident_prefix(rest.trim_ascii_start());
            let enclosing = open.last().copied();
            let body = |places: &mut [u8], bits: u8| {
                places[i] |= bits;
                for (j, body) in lines.iter().enumerate().skip(i + 1) {
                    let text = body.trim_ascii_start();
                    if !text.is_empty() && body.len() - text.len() <= indent {
                        break;
                    }
                    places[j] |= bits;
                }
            };
            if matches!(enclosing, Some((_, _, Open::Def))) {
                places[i] |= NOT_A_TEST;
            } else if matches!(enclosing, Some((_, _, Open::Class { collected: false }))) {
                // A test method of a class no runner collects never runs, nor do its
                // assertions; its other methods are helpers.
                if name.starts_with(b"test") {
                    body(&mut places, SHADOWED);
                }
                places[i] |= NOT_A_TEST;
            } else if name.starts_with(b"test") {
                let scope = enclosing.map(|(_, line, _)| line);
                if let Some(entry) = defined
                    .iter_mut()
                    .find(|(known, known_name, _, _)| *known == scope && *known_name == name)
                {
                    let (from, width) = (entry.2, entry.3);
                    places[from] |= SHADOWED;
                    for (j, body) in lines.iter().enumerate().skip(from + 1) {
                        let text = body.trim_ascii_start();
                        if !text.is_empty() && body.len() - text.len() <= width {
                            break;
                        }
                        places[j] |= SHADOWED;
                    }
                    (entry.2, entry.3) = (i, indent);
                } else {
                    defined.push((scope, name, i, indent));
                }
            }
            open.push((indent, i, Open::Def));
        } else if let Some(rest) = trimmed.strip_prefix(b"class ") {
            let rest = rest.trim_ascii_start();
            let name = ident_prefix(rest);
            let bases = rest[name.len()..]
                .trim_ascii_start()
                .strip_prefix(b"(")
                .and_then(|bases| {
                    bases
                        .iter()
                        .position(|&b| b == b')')
                        .map(|end| &bases[..end])
                })
                .map(<[u8]>::trim_ascii)
                .unwrap_or_default();
            let collected = name.starts_with(b"Test") || !(bases.is_empty() || bases == b"object");
            open.push((indent, i, Open::Class { collected }));
        }
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tamper::rust;

    fn lines(text: &str) -> Vec<&[u8]> {
        text.lines().map(str::as_bytes).collect()
    }

    fn rust_tests(text: &str) -> Vec<usize> {
        let side = lines(text);
        let marks = rust_test_lines(&rust::TABLE.syntax, rust::TABLE.tests, &side);
        (0..side.len())
            .filter(|&i| marks[i])
            .map(|i| i + 1)
            .collect()
    }

    fn asserts_in_tests(text: &str) -> Vec<usize> {
        let side = lines(text);
        let marks = rust_test_lines(&rust::TABLE.syntax, rust::TABLE.tests, &side);
        (0..side.len())
            .filter(|&i| side[i].trim_ascii_start().starts_with(b"assert") && marks[i])
            .map(|i| i + 1)
            .collect()
    }

    #[test]
    fn rust_lines_in_test_items() {
        let text = "fn lib() {\n    assert!(x);\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert!(y);\n    }\n}\n\nfn after() {\n    assert!(z);\n}\n#[cfg(not(test))]\nfn not_test() {\n    assert!(w);\n}\n#[test]\n// a comment\nfn top() {\n    assert!(v);\n}\n";
        assert_eq!(asserts_in_tests(text), [9, 23]);
        assert_eq!(
            rust_tests("#![cfg(test)]\nfn x() {\n    assert!(a);\n}\n"),
            [1, 2, 3, 4]
        );
        // A test attribute on an item without a body ends with it.
        assert_eq!(
            rust_tests("#[cfg(test)]\nuse a::b;\nfn lib() {\n    assert!(x);\n}\n"),
            [1, 2]
        );
        // No mention of `test`: nothing to walk.
        assert_eq!(
            rust_tests("fn a() {\n    assert!(x);\n}\n"),
            [] as [usize; 0]
        );
    }

    /// The layouts rustfmt never writes, and literals and comments that look like code:
    /// the blocks decide, not the columns.
    #[test]
    fn rust_test_items_whatever_the_layout() {
        let body = "pub fn add(a: i32) -> i32 { a }\n";
        for (name, text, expected) in [
            (
                "indented",
                "    #[cfg(test)]\n    mod tests {\n        #[test]\n        fn t() {\n            assert_eq!(add(1), 1);\n        }\n    }\n",
                &[5][..],
            ),
            (
                "same line",
                "#[cfg(test)] mod tests {\n    #[test] fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[3],
            ),
            (
                "brace below",
                "#[cfg(test)]\nmod tests\n{\n    #[test]\n    fn t()\n    {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[7],
            ),
            (
                "comment between",
                "#[cfg(test)]\n/* helpers\n} */\nmod tests {\n    #[test]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[7],
            ),
            (
                "raw string",
                "#[cfg(test)]\nmod tests {\n    const S: &str = r#\"}}}\n}\n\"#;\n    #[test]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[8],
            ),
            (
                "multi-line string",
                "#[cfg(test)]\nmod tests {\n    const S: &str = \"\n}\nfn lib() {\n\";\n    #[test]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[9],
            ),
            (
                "char brace",
                "#[cfg(test)]\nmod tests {\n    const C: char = '}';\n    #[test]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[6],
            ),
            (
                "attribute over lines",
                "#[cfg(\n    test\n)]\nmod checks {\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[6],
            ),
            (
                "inner attribute",
                "mod checks {\n    #![cfg(test)]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\nfn lib() {\n    assert!(true);\n}\n",
                &[4],
            ),
            (
                "array type",
                "#[test]\nfn t() -> [u8; 2] {\n    assert_eq!(add(1), 1);\n    [0; 2]\n}\n",
                &[3],
            ),
            (
                "macro of tests",
                "macro_rules! cases {\n    ($n:ident) => {\n        #[test]\n        fn $n() {\n            assert_eq!(add(1), 1);\n        }\n    };\n}\n",
                &[5],
            ),
        ] {
            // The lines are counted in `text`, below the library function.
            let expected: Vec<usize> = expected.iter().map(|line| line + 1).collect();
            assert_eq!(
                asserts_in_tests(&format!("{body}{text}")),
                expected,
                "{name}"
            );
        }
        // Library code after a test item, and a macro that defines no test, are not tests.
        let text = "#[cfg(test)] mod tests { #[test] fn t() {} }\nfn lib() {\n    assert!(x);\n}\nmacro_rules! check {\n    ($e:expr) => { assert!($e) };\n}\nstruct S {\n    #[cfg(test)]\n    probe: u8,\n}\nfn more() {\n    assert!(y);\n}\n";
        assert_eq!(asserts_in_tests(text), [] as [usize; 0]);
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
        let places = python_places(&lines(text));
        let not_tests: Vec<usize> = (0..places.len())
            .filter(|&i| places[i] & NOT_A_TEST != 0)
            .map(|i| i + 1)
            .collect();
        assert_eq!(not_tests, [2, 8, 14]);
    }

    #[test]
    fn python_classes_no_runner_collects() {
        let text = "class AddTest(object):\n    def test_a(self):\n        pass\n\nclass AddTest2(unittest.TestCase):\n    def test_b(self):\n        pass\n\nclass TestC:\n    def test_c(self):\n        pass\n\nclass Helper:\n    def test_d(self):\n        pass\n";
        let places = python_places(&lines(text));
        let not_tests: Vec<usize> = (0..places.len())
            .filter(|&i| places[i] & NOT_A_TEST != 0)
            .map(|i| i + 1)
            .collect();
        assert_eq!(not_tests, [2, 14]);
        let never: Vec<usize> = (0..places.len())
            .filter(|&i| places[i] & SHADOWED != 0)
            .map(|i| i + 1)
            .collect();
        assert_eq!(never, [2, 3, 4, 14, 15]);
    }

    #[test]
    fn python_tests_redefined() {
        let text = "def test_a():\n    assert f() == 1\n\n\ndef test_b():\n    pass\n\n\ndef test_a():\n    pass\n\nclass TestX:\n    def test_a(self):\n        assert 1\n";
        let places = python_places(&lines(text));
        let shadowed: Vec<usize> = (0..places.len())
            .filter(|&i| places[i] & SHADOWED != 0)
            .map(|i| i + 1)
            .collect();
        assert_eq!(shadowed, [1, 2, 3, 4]);
    }
}
