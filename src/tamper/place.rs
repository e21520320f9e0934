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
//! the side's blocks ([`super::blocks`]).

use memchr::memmem;
use std::collections::HashMap;

use super::Language;
use super::lex::{self, State};

/// Whether the assertions of a whole file at `path`, with sides `sides`, are the tests'
/// (`None` for Rust outside test paths: per line, by [`super::blocks`]).
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

/// A Python line's place bit: it defines a function no runner collects as a test, whatever
/// its name (see [`python_places`]).
pub(crate) const NOT_A_TEST: u8 = 2;

/// A Python line's place bit: it is in a test function that a later one of the same name
/// replaces; it never runs.
pub(crate) const SHADOWED: u8 = 4;

/// A Python line's place bit: it is in the body of a function (a name bound there is the
/// function's own, and a line there may continue a call's arguments).
pub(crate) const IN_FUNCTION: u8 = 8;

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
///   same class or module replaces it: only the last one runs;
/// - [`IN_FUNCTION`] on each line of a function's body (blank lines and comments aside).
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
    let mut defined: Defined<'_> = Vec::new();
    let mut decorators = Decorators::default();
    // An open signature: the brackets it leaves open and the bits of the scope around it.
    let mut signature: Option<(i64, u8)> = None;
    // The state each line starts in: a line inside a string (a file's text that pytester
    // writes, `makepyfile("""…def test_x(): …""")`) opens or closes no block.
    let syntax = &super::python::TABLE.syntax;
    let mut state = State::Code;
    for (i, line) in lines.iter().enumerate() {
        let starts = state;
        state = lex::advance(syntax, state, line);
        if matches!(starts, State::Str(_)) {
            if open.iter().any(|&(_, _, block)| block == Open::Def) {
                places[i] |= IN_FUNCTION;
            }
            continue;
        }
        let trimmed = line.trim_ascii_start();
        if trimmed.is_empty()
            || trimmed.starts_with(b"#")
            || trimmed.iter().all(u8::is_ascii_whitespace)
        {
            continue;
        }
        // The rest of a signature or of a class's bases written over lines (`def f(\n
        // x=[],\n) -> None:`): what the scope around the `def` runs, not its body.
        if let Some((depth, bits)) = &mut signature {
            places[i] |= *bits;
            *depth += brackets_outside_strings(trimmed);
            if *depth <= 0 {
                signature = None;
            }
            continue;
        }
        let indent = line.len() - trimmed.len();
        let Some(fixture_def) = decorators.read(trimmed) else {
            continue;
        };
        while open.last().is_some_and(|&(at, _, _)| at >= indent) {
            open.pop();
        }
        if open.iter().any(|&(_, _, block)| block == Open::Def) {
            places[i] |= IN_FUNCTION;
        }
        let around = places[i];
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
            if matches!(enclosing, Some((_, _, Open::Def))) || fixture_def {
                // A function in a function, or a fixture (pytest never collects a
                // fixture, whatever its name: `@pytest.fixture` over `def test_x` takes
                // the test away).
                places[i] |= NOT_A_TEST;
            } else if matches!(
                enclosing,
                Some((
                    _,
                    _,
                    Open::Class {
                        collected: false,
                        ..
                    }
                ))
            ) {
                // A test method of a class no runner collects never runs, nor do its
                // assertions; its other methods are helpers.
                if name.starts_with(b"test") {
                    body(&mut places, SHADOWED);
                }
                places[i] |= NOT_A_TEST;
            } else if name.starts_with(b"test") {
                let scope = enclosing.map(|(_, line, _)| line);
                shadow(lines, &mut places, &mut defined, (scope, name, i, indent));
            }
            open.push((indent, i, Open::Def));
            let depth = brackets_outside_strings(trimmed);
            if depth > 0 {
                signature = Some((depth, around));
            }
        } else if let Some(rest) = trimmed.strip_prefix(b"class ") {
            let collected = python_class(lines, i, indent, rest);
            open.push((indent, i, Open::Class { collected }));
            let depth = brackets_outside_strings(trimmed);
            if depth > 0 {
                signature = Some((depth, around));
            }
        }
    }
    places
}

/// The last `def test…` of each (scope line, name), and where it is: line and indentation.
type Defined<'a> = Vec<(Option<usize>, &'a [u8], usize, usize)>;

/// Records the `def test…` `def` (its scope line, name, line and indentation), marking
/// an earlier one of the same name in the same scope and its body [`SHADOWED`].
fn shadow<'a>(
    lines: &[&[u8]],
    places: &mut [u8],
    defined: &mut Defined<'a>,
    def: (Option<usize>, &'a [u8], usize, usize),
) {
    let (scope, name, i, indent) = def;
    let Some(entry) = defined
        .iter_mut()
        .find(|(known, known_name, _, _)| *known == scope && *known_name == name)
    else {
        defined.push(def);
        return;
    };
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
}

/// What the runners make of the class opened on line `at` (indented `indent`), `rest`
/// following `class `: whether pytest or unittest collect its tests.
fn python_class(lines: &[&[u8]], at: usize, indent: usize, rest: &[u8]) -> bool {
    let rest = rest.trim_ascii_start();
    let name = ident_prefix(rest);
    let open = rest[name.len()..].trim_ascii_start().strip_prefix(b"(");
    // Bases written over lines (`class ModelTests(\n    unittest.TestCase\n):`) are not
    // read: such a class is taken to be collected.
    if open.is_some_and(|bases| !bases.contains(&b')')) {
        return true;
    }
    let bases = open
        .and_then(|bases| {
            bases
                .iter()
                .position(|&b| b == b')')
                .map(|end| &bases[..end])
        })
        .map(<[u8]>::trim_ascii)
        .unwrap_or_default();
    // pytest does not collect a `Test…` class of its own that has an `__init__` (it warns
    // and runs none of its tests); a base (`unittest.TestCase`) decides for itself.
    let plain = bases.is_empty() || bases == b"object";
    if plain {
        name.starts_with(b"Test") && !defines_init(lines, at, indent)
    } else {
        true
    }
}

/// Whether line `at` of a Python side is `assert x is not None` (or `assert x`, `x` a
/// name or an attribute path) followed, in the same block, by an exact check of what `x`
/// holds (`assert x.lineno == 3`, `assert x["a"] in y`), in a test that keeps every check
/// it had: a guard that narrows the value for the checks below it, which it weakens
/// nothing beside.
///
/// `kept` remembers [`keeps_its_checks`] per test (by its `def`'s line), and the block below
/// is read up to [`GUARDED_LINES`] lines on: each added line is asked, so that a change of
/// thousands of them stays linear.
pub(crate) fn narrows_before_checks(
    old: &[&[u8]],
    lines: &[&[u8]],
    at: usize,
    kept: &mut HashMap<usize, bool>,
) -> bool {
    let Some(line) = lines.get(at) else {
        return false;
    };
    let code = line.trim_ascii_start();
    let indent = line.len() - code.len();
    let Some(expr) = code.strip_prefix(b"assert ") else {
        return false;
    };
    let expr = expr
        .split(|&b| b == b'#')
        .next()
        .unwrap_or_default()
        .trim_ascii();
    let subject = expr
        .strip_suffix(b" is not None")
        .unwrap_or(expr)
        .trim_ascii();
    if subject.is_empty() || !subject.iter().all(|&b| lex::is_ident_byte(b) || b == b'.') {
        return false;
    }
    for below in lines.iter().skip(at + 1).take(GUARDED_LINES) {
        let text = below.trim_ascii_start();
        if text.is_empty() || text.starts_with(b"#") {
            continue;
        }
        if below.len() - text.len() < indent {
            return false;
        }
        let Some(check) = text.strip_prefix(b"assert ") else {
            continue;
        };
        let exact = [
            &b" == "[..],
            b" != ",
            b" in ",
            b" < ",
            b" > ",
            b" <= ",
            b" >= ",
        ]
        .iter()
        .any(|op| memmem::find(check, op).is_some());
        let reads = |after: u8| {
            memmem::find_iter(check, subject).any(|i| {
                let before_ok = i == 0 || !lex::is_ident_byte(check[i - 1]) && check[i - 1] != b'.';
                before_ok && check.get(i + subject.len()) == Some(&after)
            })
        };
        if exact && (reads(b'.') || reads(b'[')) {
            return keeps_its_checks(old, lines, at, kept);
        }
    }
    false
}

/// How many lines below a guard [`narrows_before_checks`] looks for the checks it narrows
/// the value for.
const GUARDED_LINES: usize = 200;

/// Whether the test (a `def test…`) that line `at` of the new side is directly in was there
/// on the old side (by a name no other `def` of either side has) and keeps every assertion
/// it had there, each line as it was.
fn keeps_its_checks(
    old: &[&[u8]],
    new: &[&[u8]],
    at: usize,
    kept: &mut HashMap<usize, bool>,
) -> bool {
    let indent_of = |line: &[u8]| line.len() - line.trim_ascii_start().len();
    let Some(line) = new.get(at) else {
        return false;
    };
    let own = indent_of(line);
    // The `def` above the line, less indented than it.
    let Some((start, name)) = new[..at].iter().enumerate().rev().find_map(|(i, above)| {
        let text = above.trim_ascii_start();
        let def = text
            .strip_prefix(b"def ")
            .or_else(|| text.strip_prefix(b"async def "))?;
        (indent_of(above) < own).then(|| (i, ident_prefix(def.trim_ascii_start())))
    }) else {
        return false;
    };
    if let Some(&known) = kept.get(&start) {
        return known;
    }
    let answer = def_keeps_its_checks(old, new, start, name);
    kept.insert(start, answer);
    answer
}

/// [`keeps_its_checks`] for the `def` of `name` on line `start` of the new side.
fn def_keeps_its_checks(old: &[&[u8]], new: &[&[u8]], start: usize, name: &[u8]) -> bool {
    let indent_of = |line: &[u8]| line.len() - line.trim_ascii_start().len();
    // The test itself (not a helper defined in it), known on both sides by a name no other
    // `def` of the file has (two classes' `test_make` are told apart by nothing here).
    let defines = |line: &[u8]| {
        let text = line.trim_ascii_start();
        text.strip_prefix(b"def ")
            .or_else(|| text.strip_prefix(b"async def "))
            .is_some_and(|def| {
                let def = def.trim_ascii_start();
                def.starts_with(name) && def.get(name.len()) == Some(&b'(')
            })
    };
    let once = |side: &[&[u8]]| side.iter().filter(|line| defines(line)).count() == 1;
    if !name.starts_with(b"test") || !once(old) || !once(new) {
        return false;
    }
    // A `def`'s assertions, each line trimmed, from its line on to the end of its body.
    let asserts = |side: &[&[u8]], from: usize| -> Vec<Vec<u8>> {
        let width = side.get(from).map_or(0, |line| indent_of(line));
        side.iter()
            .skip(from + 1)
            .take_while(|line| {
                let text = line.trim_ascii_start();
                text.is_empty() || text.starts_with(b"#") || indent_of(line) > width
            })
            .map(|line| line.trim_ascii())
            .filter(|text| text.starts_with(b"assert") || text.starts_with(b"self.assert"))
            .map(<[u8]>::to_vec)
            .collect()
    };
    let Some(before) = old.iter().position(|line| defines(line)) else {
        return false;
    };
    // Every old check is among the new ones, as many times as it was.
    let mut new_checks: HashMap<Vec<u8>, usize> = HashMap::new();
    for check in asserts(new, start) {
        *new_checks.entry(check).or_default() += 1;
    }
    asserts(old, before)
        .into_iter()
        .all(|check| match new_checks.get_mut(&check) {
            Some(left) if *left > 0 => {
                *left -= 1;
                true
            }
            _ => false,
        })
}

/// The decorators read since the last statement of a Python side.
#[derive(Default)]
struct Decorators {
    /// Whether they make a fixture.
    fixture: bool,
    /// The brackets a decorator's arguments leave open (`@pytest.fixture(` over lines).
    depth: i64,
}

impl Decorators {
    /// Reads a line (its code, indentation cut): `None` for a decorator or a line of its
    /// arguments, else whether the decorators above make the statement a fixture
    /// (`@pytest.fixture`, `@fixture(scope="module")`, `@pytest_asyncio.fixture`).
    fn read(&mut self, trimmed: &[u8]) -> Option<bool> {
        let statement = trimmed.starts_with(b"def ")
            || trimmed.starts_with(b"async def ")
            || trimmed.starts_with(b"class ");
        if self.depth > 0 && !statement {
            self.depth += brackets_outside_strings(trimmed);
            return None;
        }
        // A `def` ends a decorator whose brackets seemed to stay open.
        self.depth = 0;
        if let Some(decorator) = trimmed.strip_prefix(b"@") {
            // The decorator's own name (its arguments aside: `@mock.patch("app.fixture")`
            // is no fixture).
            let name = decorator
                .split(|&b| b == b'(')
                .next()
                .unwrap_or_default()
                .trim_ascii();
            self.fixture |= name.rsplit(|&b| b == b'.').next() == Some(&b"fixture"[..]);
            self.depth = brackets_outside_strings(trimmed).max(0);
            return None;
        }
        Some(std::mem::take(&mut self.fixture))
    }
}

/// How many more brackets a line opens than it closes, outside its quoted strings.
fn brackets_outside_strings(line: &[u8]) -> i64 {
    let mut depth = 0;
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for &b in line {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == q {
                    quote = None;
                }
            }
            None => match b {
                b'\'' | b'"' => quote = Some(b),
                b'#' => break,
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            },
        }
    }
    depth
}

/// Whether the class opened on line `at` (indented `indent`) defines `__init__` in its own
/// body.
fn defines_init(lines: &[&[u8]], at: usize, indent: usize) -> bool {
    in_class_body(lines, at, indent, |statement| {
        // `def __init__(`, `def  __init__ (`, `__init__ = lambda self: None`, and
        // `__new__`, which pytest refuses the same way.
        let name = statement
            .strip_prefix(b"def")
            .filter(|rest| rest.first().is_some_and(u8::is_ascii_whitespace))
            .unwrap_or(statement)
            .trim_ascii_start();
        [&b"__init__"[..], b"__new__"].iter().any(|constructor| {
            name.strip_prefix(*constructor)
                .is_some_and(|rest| !rest.first().is_some_and(|&b| lex::is_ident_byte(b)))
        })
    })
}

/// Whether a statement of the class opened on line `at` (indented `indent`), at its body's
/// own indentation (not in a method), satisfies `holds` (given with its indentation cut).
fn in_class_body(lines: &[&[u8]], at: usize, indent: usize, holds: impl Fn(&[u8]) -> bool) -> bool {
    let mut body_indent = None;
    for line in lines.iter().skip(at + 1) {
        let trimmed = line.trim_ascii_start();
        if trimmed.is_empty() || trimmed.starts_with(b"#") {
            continue;
        }
        let own = line.len() - trimmed.len();
        if own <= indent {
            return false;
        }
        let body = *body_indent.get_or_insert(own);
        if own == body && holds(trimmed) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&[u8]> {
        text.lines().map(str::as_bytes).collect()
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

    /// A file's text written by a test (pytester's `makepyfile("""…""")`) opens and closes
    /// no block: the lines after it are still in the test's body, and a `def test_x` in
    /// it shadows no test of the file.
    #[test]
    fn python_text_in_strings_is_no_code() {
        let text = "def test_a(pytester):\n    pytester.makepyfile(\n        conftest=\"\"\"\nimport pytest\n\ndef test_a():\n    pass\n\"\"\"\n    )\n    pytester.makepyfile(test_one=\"\"\"\ndef test_one(): pass\n\"\"\")\n";
        let places = python_places(&lines(text));
        let in_function: Vec<usize> = (0..places.len())
            .filter(|&i| places[i] & IN_FUNCTION != 0)
            .map(|i| i + 1)
            .collect();
        assert_eq!(in_function, (2..=12).collect::<Vec<_>>());
        assert!(places.iter().all(|bits| bits & SHADOWED == 0), "{places:?}");
    }

    #[test]
    fn python_fixtures_and_classes_with_init_are_no_tests() {
        let text = "@pytest.fixture\ndef test_a():\n    pass\n\n@pytest.fixture(\n    scope=\"module\", params=[\"(\"]\n)\ndef test_b():\n    pass\n\n@pytest.mark.x(\"(\")\ndef test_c():\n    pass\n\nclass TestD:\n    def __init__(self):\n        pass\n\n    def test_d(self):\n        pass\n\nclass TestE(unittest.TestCase):\n    def __init__(self, *a):\n        pass\n\n    def test_e(self):\n        pass\n";
        let places = python_places(&lines(text));
        let not_tests: Vec<usize> = (0..places.len())
            .filter(|&i| places[i] & NOT_A_TEST != 0)
            .map(|i| i + 1)
            .collect();
        // Both fixtures (one with arguments over three lines) are no tests; a marker whose
        // string holds a bracket leaves `test_c` a test; `TestD`'s methods are no tests,
        // `TestE`'s base collects it anyway.
        assert_eq!(not_tests, [2, 8, 16, 19]);
        // A constructor written otherwise; a decorator that only names a fixture in its
        // arguments.
        let text = "class TestF:\n    __init__ = lambda self: None\n\n    def test_f(self):\n        pass\n\nclass TestG:\n    def  __new__(cls):\n        pass\n\n    def test_g(self):\n        pass\n\n@mock.patch(\"app.fixture\", create=True)\ndef test_h():\n    pass\n";
        let places = python_places(&lines(text));
        let not_tests: Vec<usize> = (0..places.len())
            .filter(|&i| places[i] & NOT_A_TEST != 0)
            .map(|i| i + 1)
            .collect();
        assert_eq!(not_tests, [4, 8, 11]);
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
