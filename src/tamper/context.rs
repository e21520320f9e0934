//! What a file's name and imports say about it, for the patterns: whether a name like
//! `def test_x` or `test(…)` is a test there at all, and the local names it gives the test
//! framework (`import pytest as pt`, `from pytest import mark as m`, `const d = describe`).
//!
//! Both are read from the two sides together, so that a line counts the same on both and
//! the nets stay whole-file differences.

use memchr::memmem;

use super::Language;

/// The names a file gives the test framework: alias → the name it stands for.
#[expect(
    clippy::struct_excessive_bools,
    reason = "five independent facts about one file, each read on its own: not a state machine"
)]
#[derive(Debug, Default)]
pub(crate) struct Context<'a> {
    /// Whether name-based test patterns (`def test…`, `test(…)`, `func TestX(`) count here.
    pub tests: bool,
    /// Whether the file is part of the test code (a test module, or a helper beside the
    /// tests): its assertions are the tests' ([`super::place`]).
    pub test_code: bool,
    /// Local names for framework names, as written in the file.
    pub aliases: Aliases<'a>,
    /// Whether the whole file is test code by its path or imports (a Python or JavaScript
    /// test module or helper, a Go `_test.go` file, a Rust file under `tests/`), not a
    /// source file that may hold a test module.
    pub test_file: bool,
    /// Whether the runner settings a file may write (pytest's hooks, `collect_ignore`,
    /// `pytest.exit`) are the project's test settings: a `conftest.py` or a module among
    /// the tests. A plugin's or pytest's own source defines the same hooks as its code.
    pub settings: bool,
    /// Whether the file is a Python test module by its name (`test_*.py`, `*_test.py`; not
    /// `conftest.py`): pytest registers no hook from it, so the hooks it defines (methods
    /// of a plugin class a test hands to `pytester`) and its `collect_ignore` configure no
    /// run.
    pub hooks_ignored: bool,
    /// Whether the file is a test framework's own source, in its own repository, outside
    /// the test paths ([`of_in`]): a skip written there (`pytest.skip(…)` in `_pytest/`)
    /// is the framework's code, not a marker on a test.
    pub framework_source: bool,
    /// A Java file's sides, read, when a class of the file extends a `JUnit` 3 `TestCase`
    /// (`extends TestCase`, `extends junit.framework.TestCase`, `extends AndroidTestCase`):
    /// its `public void testXxx()` methods are tests.
    pub junit3: Option<Box<super::jvm::Junit3Sides>>,
}

/// Python names whose aliases matter, and the name each alias stands for.
const PYTHON_NAMES: &[(&str, &str)] = &[
    ("pytest", "pytest"),
    ("unittest", "unittest"),
    ("mark", "mark"),
    ("skip", "skip"),
    ("skipIf", "skipIf"),
    ("skipUnless", "skipUnless"),
    ("expectedFailure", "expectedFailure"),
    ("SkipTest", "SkipTest"),
];

/// pytest's functions that skip the test calling them, each with the one token a local
/// name for it reads as: `pytest.skip` written as one name, which no source text tokenizes
/// to, so that `from pytest import skip` does not make `skip` unittest's decorator.
const PYTEST_SKIP_CALLS: &[(&str, &str)] = &[
    ("skip", "pytest.skip"),
    ("xfail", "pytest.xfail"),
    ("importorskip", "pytest.importorskip"),
];

/// JavaScript test and suite functions whose aliases matter.
const JS_NAMES: &[(&str, &str)] = &[
    ("describe", "describe"),
    ("it", "it"),
    ("test", "test"),
    ("context", "context"),
    ("suite", "suite"),
];

fn canonical(names: &[(&str, &'static str)], name: &[u8]) -> Option<&'static [u8]> {
    names
        .iter()
        .find(|(known, _)| known.as_bytes() == name)
        .map(|(_, canonical)| canonical.as_bytes())
}

fn is_ident(name: &[u8]) -> bool {
    !name.is_empty()
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
        && !name[0].is_ascii_digit()
}

fn words(line: &[u8]) -> Vec<&[u8]> {
    line.split(|&b| b.is_ascii_whitespace() || b == b',' || b == b'(' || b == b')')
        .filter(|w| !w.is_empty())
        .collect()
}

/// A file under one of these directories is a test module by its path.
const TEST_DIRS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "__tests__",
    "spec",
    "specs",
    "e2e",
    "cypress",
    "androidTest",
];

fn in_test_dir(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    parts.pop();
    parts.iter().any(|part| TEST_DIRS.contains(part))
}

/// Whether `path` is where pytest or unittest look for tests by default (`test_*.py`,
/// `*_test.py`, unittest's `test*.py`, Django's `tests.py`, `conftest.py`). A module under
/// a `tests/` directory with another name (a helper, a fixture app) is not collected.
pub(crate) fn python_test_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.strip_suffix(".py").unwrap_or(name);
    stem.starts_with("test") || stem.ends_with("_test") || stem == "conftest"
}

/// Whether `path` is where a Python test module is found by its name or directory (not
/// only by what it imports).
pub(crate) fn python_test_location(path: &str) -> bool {
    python_test_path(path) || in_test_dir(path)
}

/// Whether `path` is where Jest, Vitest, Mocha, Playwright or Cypress look for tests by
/// default (`*.test.*`, `*.spec.*`, `__tests__/`, `test/`, `e2e/`, `cypress/`).
pub(crate) fn js_test_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    [".test.", ".spec.", "_test.", "-test.", ".cy.", ".e2e."]
        .iter()
        .any(|marker| name.contains(marker))
        || in_test_dir(path)
}

/// Text that makes a Python module a test module wherever it is.
const PYTHON_IMPORTS: &[&[u8]] = &[
    b"import pytest",
    b"from pytest",
    b"import unittest",
    b"from unittest",
    b"TestCase",
];

/// Text that makes a JavaScript module a test module wherever it is.
const JS_IMPORTS: &[&[u8]] = &[
    b"describe(",
    b"vitest",
    b"@jest/globals",
    b"node:test",
    b"mocha",
    b"@playwright/test",
    b"from 'ava'",
    b"require('ava')",
    b"from \"ava\"",
];

/// How a line that declares a Python test starts.
const PYTHON_DECLARATIONS: &[&[u8]] = &[b"def test", b"async def test", b"class Test"];

/// How a line that declares a JavaScript test or suite starts: a runner's function called
/// (`it(`), or called through one of its modifiers (`it.only(`, `describe.skip.each(`, or
/// `test.each` before a template literal). Not any property of a variable that holds a
/// test (`test.file = file`, `test.run(fn)` in mocha's own bundle, 4070a44985b1).
fn js_declares_tests(sides: [&[u8]; 2]) -> bool {
    const FUNCTIONS: &[&[u8]] = &[b"describe", b"it", b"test", b"suite", b"context"];
    const MODIFIERS: &[&[u8]] = &[
        b"only",
        b"skip",
        b"each",
        b"todo",
        b"concurrent",
        b"failing",
        b"fails",
        b"fail",
        b"fixme",
        b"serial",
        b"parallel",
        b"sequential",
        b"shuffle",
        b"skipIf",
        b"runIf",
        b"describe",
        b"step",
        b"configure",
        b"use",
        b"beforeEach",
        b"afterEach",
        b"beforeAll",
        b"afterAll",
    ];
    sides.iter().any(|side| {
        side.split(|&b| b == b'\n').any(|line| {
            let line = line.trim_ascii_start();
            FUNCTIONS.iter().any(|function| {
                let Some(rest) = line.strip_prefix(*function) else {
                    return false;
                };
                // `describe ("math", …)`: blanks before the bracket (attack-50 B9).
                if rest.trim_ascii_start().starts_with(b"(") {
                    return true;
                }
                let Some(rest) = rest.strip_prefix(b".") else {
                    return false;
                };
                MODIFIERS.iter().any(|modifier| {
                    rest.strip_prefix(*modifier)
                        .is_some_and(|after| matches!(after.first(), Some(b'(' | b'.' | b'`')))
                })
            })
        })
    })
}

/// Whether a line of either side starts (after its indentation) by calling `describe` or
/// `it` with a written title: `describe("math", …)`, `it ('adds', …)`.
fn js_titled_tests(sides: [&[u8]; 2]) -> bool {
    sides.iter().any(|side| {
        side.split(|&b| b == b'\n').any(|line| {
            let line = line.trim_ascii_start();
            [&b"describe"[..], b"it"].iter().any(|function| {
                line.strip_prefix(*function)
                    .map(<[u8]>::trim_ascii_start)
                    .and_then(|rest| rest.strip_prefix(b"("))
                    .map(<[u8]>::trim_ascii_start)
                    .is_some_and(|title| matches!(title.first(), Some(b'"' | b'\'' | b'`')))
            })
        })
    })
}

/// Whether a line of either side starts (after its indentation) by declaring a test: a
/// module outside the test paths that imports the framework without declaring a test is
/// its own code (a plugin's, the framework's: `_pytest/main.py`'s `getattr(pytest, name)`,
/// mocha's `lib/runner.js`), not a test module.
fn declares_tests(sides: [&[u8]; 2], starts: &[&[u8]]) -> bool {
    sides.iter().any(|side| {
        side.split(|&b| b == b'\n').any(|line| {
            let line = line.trim_ascii_start();
            starts.iter().any(|start| line.starts_with(start))
        })
    })
}

/// Whether a Python module declares a test at module level (a line that starts, at column
/// 0, with `def test`, `async def test` or `class Test`) and checks something: it names
/// `assert` (a statement, `assert(…)`, `self.assertEqual`) or raises `AssertionError`.
/// pytest collects such a module wherever it is when the project's `python_files` says so
/// (`checks/calc_checks.py`, attack-46 B15; helper-56 found class-based tests, one-line
/// tests and checks in helpers that a narrower reading missed).
fn declares_module_level_tests(sides: [&[u8]; 2]) -> bool {
    let declares = |side: &[u8]| {
        PYTHON_DECLARATIONS.iter().any(|start| {
            side.starts_with(start) || memmem::find(side, &[b"\n", *start].concat()).is_some()
        })
    };
    let checks = |side: &[u8]| {
        memmem::find(side, b"assert").is_some() || memmem::find(side, b"AssertionError").is_some()
    };
    sides.iter().any(|side| declares(side)) && sides.iter().any(|side| checks(side))
}

fn holds(sides: [&[u8]; 2], needles: &[&[u8]]) -> bool {
    sides.iter().any(|side| {
        needles
            .iter()
            .any(|needle| memmem::find(side, needle).is_some())
    })
}

/// The context of a file at `path` with sides `old` and `new`.
#[cfg(test)]
pub(crate) fn of<'a>(language: Language, path: &str, old: &'a [u8], new: &'a [u8]) -> Context<'a> {
    of_in(language, path, old, new, false)
}

/// [`of`], in a repository whose own package is a test framework (`own_framework`, pytest's
/// or mocha's own): there the framework's name in a file outside the test paths is the
/// framework's source naming itself, not a helper of tests, so it makes no test code.
pub(crate) fn of_in<'a>(
    language: Language,
    path: &str,
    old: &'a [u8],
    new: &'a [u8],
    own_framework: bool,
) -> Context<'a> {
    let sides = [old, new];
    let mut context = Context {
        tests: true,
        test_code: true,
        aliases: Aliases::default(),
        test_file: false,
        settings: true,
        hooks_ignored: false,
        framework_source: false,
        junit3: None,
    };
    match language {
        Language::Python => {
            // The framework named anywhere, a comment or a lazy import too: a helper that
            // imports it inside its function, or only mentions it, is still where tests'
            // checks live (attack-47 B9-B13 got checks weakened in such helpers when only
            // imports run as the module loads counted). Not in the framework's own
            // repository (`own_framework`), where that is the framework naming itself.
            let imports = !own_framework && holds(sides, PYTHON_IMPORTS);
            // A module that declares a `def test…` at module level with an `assert` in it
            // is a test module wherever it is, with no import: a project's `python_files`
            // can collect it (attack-46 B15: `checks/calc_checks.py`).
            // Not in a framework's own source, whose classes are named for tests
            // (`class TestReport` in `_pytest/reports.py`).
            context.tests = python_test_path(path)
                || (!own_framework && declares_module_level_tests(sides))
                || (imports && (in_test_dir(path) || declares_tests(sides, PYTHON_DECLARATIONS)));
            // A helper module that imports the framework holds checks that tests call.
            context.test_code = context.tests || imports || in_test_dir(path);
            context.settings = python_test_location(path);
            context.hooks_ignored = python_test_path(path)
                && path
                    .rsplit('/')
                    .next()
                    .is_none_or(|name| name != "conftest.py");
            // Every name `python_aliases` reads is given by a statement that names one of
            // these modules (`_pytest` included).
            if holds(sides, &[b"pytest", b"unittest"]) {
                for side in sides {
                    python_aliases(side, &mut context.aliases);
                }
            }
        }
        Language::JavaScript => {
            let imports = !own_framework && holds(sides, JS_IMPORTS);
            // A suite or a test with a written title (`describe ("math", …)`) declares tests
            // without an import: which runner runs the file (a `.mocharc.json` `spec` outside
            // the test paths) is configured elsewhere, and its globals need none (attack-50
            // B9).
            context.tests = js_test_path(path)
                || (imports && js_declares_tests(sides))
                || js_titled_tests(sides);
            context.test_code = context.tests || imports;
            if holds(
                sides,
                &[b"= describe", b"= it", b"= test", b"= context", b"= suite"],
            ) {
                for side in sides {
                    js_aliases(side, &mut context.aliases);
                }
            }
        }
        Language::Go => context.tests = path.ends_with("_test.go"),
        Language::Java => context.junit3 = super::jvm::Junit3Sides::read(sides).map(Box::new),
        Language::Rust | Language::Kotlin | Language::RunnerConfig => {}
    }
    context.framework_source = own_framework && !context.test_code;
    context.test_file = match language {
        Language::Python | Language::JavaScript => context.test_code,
        Language::Go => context.tests,
        Language::Rust | Language::Java | Language::Kotlin => in_test_dir(path),
        Language::RunnerConfig => false,
    };
    context
}

/// Local names for framework names: the first name each alias is given, in the order the
/// file gives them, and looked up in constant time (a file may give thousands).
#[derive(Debug, Default)]
pub(crate) struct Aliases<'a> {
    order: Vec<(&'a [u8], &'static [u8])>,
    names: std::collections::HashMap<&'a [u8], &'static [u8]>,
}

impl Aliases<'_> {
    /// The name `alias` stands for.
    pub(crate) fn get(&self, alias: &[u8]) -> Option<&'static [u8]> {
        self.names.get(alias).copied()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

#[cfg(test)]
impl<'a> Aliases<'a> {
    /// Every alias and the name it stands for, in the order the file gives them.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &(&'a [u8], &'static [u8])> {
        self.order.iter()
    }
}

fn add<'a>(aliases: &mut Aliases<'a>, alias: &'a [u8], to: &'static [u8]) {
    if alias != to && is_ident(alias) && !aliases.names.contains_key(alias) {
        aliases.names.insert(alias, to);
        aliases.order.push((alias, to));
    }
}

/// `import pytest as pt`, `from pytest import mark as m, skip as s`, `import unittest as
/// ut`, `m = pytest.mark`, `s = pytest.mark.skip`, `pt = pytest`; pytest's skipping
/// functions imported or bound by name (`from pytest import importorskip as need`,
/// `from pytest import skip`, `need = pytest.importorskip`).
fn python_aliases<'a>(text: &'a [u8], aliases: &mut Aliases<'a>) {
    // The names of a `from pytest import (` (or one ending in `\`) that goes on over the
    // next lines.
    let mut open_import: Option<(Vec<&'a [u8]>, Continued)> = None;
    // Statements: lines, and the parts of a line between `;`, a comment left out.
    let statements = text.split(|&b| b == b'\n').flat_map(|line| {
        let code = line.split(|&b| b == b'#').next().unwrap_or(line);
        code.split(|&b| b == b';')
    });
    for line in statements {
        let mut words = words(line);
        let backslash = line.trim_ascii_end().ends_with(b"\\");
        if let Some((mut names, continued)) = open_import.take() {
            names.extend(words.iter().copied().filter(|word| *word != b"\\"));
            let goes_on = match continued {
                Continued::Bracket => !line.contains(&b')'),
                Continued::Backslash => backslash,
            };
            if goes_on {
                open_import = Some((names, continued));
                continue;
            }
            words = [&b"from"[..], b"pytest", b"import"]
                .into_iter()
                .chain(names)
                .collect();
        } else if matches!(words.as_slice(), [b"from", module, b"import", ..] if is_pytest(module))
        {
            let continued = if line.contains(&b'(') && !line.contains(&b')') {
                Some(Continued::Bracket)
            } else {
                backslash.then_some(Continued::Backslash)
            };
            if let Some(continued) = continued {
                let names = words[3..].iter().copied().filter(|word| *word != b"\\");
                open_import = Some((names.collect(), continued));
                continue;
            }
        }
        match words.as_slice() {
            [b"from", module, b"import", b"*"] if is_pytest(module) => {
                for (name, to) in PYTEST_SKIP_CALLS {
                    add(aliases, name.as_bytes(), to.as_bytes());
                }
            }
            [b"from", module, b"import", rest @ ..] if is_pytest(module) => {
                let mut names = rest.iter().peekable();
                while let Some(name) = names.next() {
                    let local = match names.peek() {
                        Some(&&b"as") => {
                            names.next();
                            names.next().copied().unwrap_or(name)
                        }
                        _ => name,
                    };
                    match canonical(PYTEST_SKIP_CALLS, name) {
                        Some(to) => add(aliases, local, to),
                        None => {
                            if let Some(to) = canonical(PYTHON_NAMES, name) {
                                add(aliases, local, to);
                            }
                        }
                    }
                }
            }
            [b"import", rest @ ..] | [b"from", _, b"import", rest @ ..] => {
                for pair in rest.windows(3) {
                    if let [name, b"as", alias] = pair {
                        let name = name.rsplit(|&b| b == b'.').next().unwrap_or(name);
                        if let Some(to) = canonical(PYTHON_NAMES, name) {
                            add(aliases, alias, to);
                        }
                    }
                }
            }
            [alias, b"=", value] => {
                let last = value.rsplit(|&b| b == b'.').next().unwrap_or(value);
                let root = value.split(|&b| b == b'.').next().unwrap_or(value);
                // `s = self.skipTest`: unittest's skip under a local name.
                if last == b"skipTest" && value.len() > last.len() {
                    add(aliases, alias, b"pytest.skip");
                    continue;
                }
                // A local name for pytest (`import pytest as pt`) roots it as well.
                let root: &[u8] = aliases.get(root).unwrap_or(root);
                if !matches!(root, b"pytest" | b"unittest") {
                    continue;
                }
                let two_parts = memchr::memchr_iter(b'.', value).count() == 1;
                let to = match (last, two_parts) {
                    // `need = pytest.importorskip`: the function itself.
                    (_, true) if root == b"pytest" => {
                        canonical(PYTEST_SKIP_CALLS, last).or_else(|| canonical(PYTHON_NAMES, last))
                    }
                    (b"skipif" | b"xfail", _) => Some(&b"skip"[..]),
                    _ => canonical(PYTHON_NAMES, last),
                };
                if let Some(to) = to {
                    add(aliases, alias, to);
                }
            }
            _ => {}
        }
    }
}

/// How an import statement goes on over the next lines.
#[derive(Clone, Copy)]
enum Continued {
    /// Inside the brackets it opened, up to the `)`.
    Bracket,
    /// Each line ending in `\`.
    Backslash,
}

/// pytest, or the private module its skipping functions come from.
fn is_pytest(module: &[u8]) -> bool {
    matches!(module, b"pytest" | b"_pytest.outcomes")
}

/// `const d = describe;`, `let t = test`, `var x = it`.
fn js_aliases<'a>(text: &'a [u8], aliases: &mut Aliases<'a>) {
    for line in text.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = line.strip_suffix(b";").unwrap_or(line);
        if let [b"const" | b"let" | b"var", alias, b"=", value] = words(line).as_slice()
            && let Some(to) = canonical(JS_NAMES, value)
        {
            add(aliases, alias, to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_test_context() {
        // A helper beside the tests is test code, but pytest collects no test from it.
        assert!(!of(Language::Python, "tests/helpers.py", b"", b"").tests);
        assert!(of(Language::Python, "tests/helpers.py", b"", b"").test_code);
        assert!(
            of(
                Language::Python,
                "tests/helpers.py",
                b"import pytest\n",
                b""
            )
            .tests
        );
        assert!(of(Language::Python, "app/test_views.py", b"", b"").tests);
        assert!(of(Language::Python, "app/tests.py", b"", b"").tests);
        assert!(of(Language::Python, "app/views_test.py", b"", b"").tests);
        assert!(
            !of(
                Language::Python,
                "src/flask/app.py",
                b"def test_client(self):\n",
                b""
            )
            .tests
        );
        // Importing the framework makes a module test code (its checks are the tests'), and
        // a test module only where it declares a test: pytest's own `_pytest/main.py`
        // looks up `getattr(pytest, name)` as code.
        let helper = of(Language::Python, "src/checks.py", b"import pytest\n", b"");
        assert!(helper.test_code && !helper.tests);
        assert!(
            of(
                Language::Python,
                "src/checks.py",
                b"import pytest\n\ndef test_a():\n",
                b""
            )
            .tests
        );
    }

    #[test]
    fn javascript_titled_tests_need_no_import() {
        // A spec that a `.mocharc.json` outside the test paths runs (attack-50 B9).
        let spec = b"describe (\"math\", function () {\n  it ('adds', function () {});\n});\n";
        assert!(of(Language::JavaScript, "lib/math.check.js", spec, b"").tests);
        assert!(
            !of(
                Language::JavaScript,
                "lib/app.js",
                b"it(x);\ncontext(options);\n",
                b""
            )
            .tests
        );
    }

    #[test]
    fn javascript_declarations() {
        for text in [
            &b"it('adds', () => {});\n"[..],
            b"  describe.only('x', () => {});\n",
            b"test.each`a | b`('x', () => {});\n",
            b"describe.skip.each([1])('x', () => {});\n",
            b"test.describe.parallel('x', () => {});\n",
        ] {
            assert!(
                js_declares_tests([text, b""]),
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        // Properties of a variable that holds a test (mocha's own bundle), and names that
        // start like a runner's function.
        for text in [
            &b"test.file = file;\n"[..],
            b"test.run(fn);\n",
            b"it.next();\n",
            b"testing(1);\n",
            b"item(1);\n",
        ] {
            assert!(
                !js_declares_tests([text, b""]),
                "{}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn python_module_level_tests_without_an_import() {
        // A module outside the test paths whose `def test…` at module level asserts: a
        // project's `python_files` collects it (attack-46 B15).
        let module =
            b"def add(a, b):\n    return a + b\n\n\ndef test_add():\n    assert add(1, 2) == 3\n";
        let context = of(Language::Python, "checks/calc_checks.py", module, b"");
        assert!(context.tests && context.test_code);
        // Class-based and one-line tests, and checks in a helper, too (helper-56's 1a-1h).
        for text in [
            &b"class TestAdd:\n    def test_add(self):\n        assert add(1, 1) == 2\n"[..],
            b"def test_add(): assert add(1, 1) == 2\n",
            b"def check(x):\n    assert x\n\n\ndef test_add():\n    check(add(1, 1) == 2)\n",
            b"def test_add():\n    if add(1, 1) != 2:\n        raise AssertionError\n",
        ] {
            assert!(of(Language::Python, "checks/calc_checks.py", text, b"").tests);
        }
        // A method named `test…` (indented), or a module-level one that checks nothing,
        // is the module's own code.
        for text in [
            &b"class App:\n    def test_client(self):\n        assert self.ok\n"[..],
            b"def test_connection(host):\n    return ping(host)\n",
        ] {
            assert!(!of(Language::Python, "src/app.py", text, b"").tests);
        }
    }

    #[test]
    fn python_framework_named_anywhere() {
        // A helper outside the test directories that imports the framework lazily, or
        // names it in a comment, is test code (attack-47 B9-B11).
        let test_code =
            |text: &[u8]| of(Language::Python, "src/lib/checks.py", text, b"").test_code;
        assert!(test_code(b"import pytest\n"));
        assert!(test_code(
            b"def close(a, b):\n    import pytest\n    assert a == pytest.approx(b)\n"
        ));
        assert!(test_code(
            b"# adapted from pytest's approx\ndef close(a, b):\n    assert abs(a - b) < 1e-9\n"
        ));
        assert!(test_code(
            b"class Checks:  # mixed into the unittest TestCase classes\n    pass\n"
        ));
        assert!(!test_code(
            b"def close(a, b):\n    return abs(a - b) < 1e-9\n"
        ));
    }

    #[test]
    fn python_aliases_are_read_from_both_sides() {
        let old = b"import pytest as pt\n";
        let new = b"from pytest import mark as m\nimport unittest as ut\nsk = pytest.mark.skip\nfrom unittest import skip as nope\nfrom pytest import importorskip as need, xfail\nhop = pytest.skip\nfrom pytest import (\n    fixture,\n    skip as s2,\n)\n";
        let context = of(Language::Python, "tests/test_a.py", old, new);
        let aliases: Vec<_> = context
            .aliases
            .iter()
            .map(|(a, b)| {
                (
                    String::from_utf8_lossy(a).into_owned(),
                    String::from_utf8_lossy(b).into_owned(),
                )
            })
            .collect();
        assert_eq!(
            aliases,
            [
                ("pt".into(), "pytest".into()),
                ("m".into(), "mark".into()),
                ("ut".into(), "unittest".into()),
                ("sk".into(), "skip".into()),
                ("nope".into(), "skip".into()),
                ("need".into(), "pytest.importorskip".into()),
                ("xfail".into(), "pytest.xfail".into()),
                ("hop".into(), "pytest.skip".into()),
                ("s2".into(), "pytest.skip".into()),
            ]
        );
    }

    /// Statements joined by `;`, continued by `\` or in brackets with a comment, a star
    /// import, pytest's private module and a local name for pytest all give skip names.
    #[test]
    fn pytest_skip_names_however_written() {
        let aliases = |text: &str| -> Vec<(String, String)> {
            of(Language::Python, "tests/test_a.py", b"", text.as_bytes())
                .aliases
                .iter()
                .map(|(a, b)| {
                    (
                        String::from_utf8_lossy(a).into_owned(),
                        String::from_utf8_lossy(b).into_owned(),
                    )
                })
                .collect()
        };
        let skip = |name: &str| vec![(name.to_owned(), "pytest.skip".to_owned())];
        assert_eq!(
            aliases("import pytest; from pytest import skip as s\n"),
            skip("s")
        );
        assert_eq!(aliases("from pytest import skip as s;\n"), skip("s"));
        assert_eq!(
            aliases("from pytest import fixture, \\\n    skip as s\n"),
            skip("s")
        );
        assert_eq!(
            aliases("from pytest import (  # see (12)\n    skip as s,\n)\n"),
            skip("s")
        );
        assert_eq!(
            aliases("from _pytest.outcomes import skip as s\n"),
            skip("s")
        );
        assert_eq!(aliases("from pytest import *\n")[0], skip("skip")[0]);
        let pt = aliases("import pytest as pt\ns = pt.skip\n");
        assert_eq!(pt.last(), skip("s").last());
    }

    #[test]
    fn js_aliases() {
        let context = of(
            Language::JavaScript,
            "test/a.test.js",
            b"",
            b"const d = describe;\nlet x = other;\n",
        );
        assert_eq!(
            context.aliases.iter().copied().collect::<Vec<_>>(),
            [(&b"d"[..], &b"describe"[..])]
        );
        assert!(
            !of(
                Language::JavaScript,
                "lib/router.js",
                b"function test(x) {}\n",
                b""
            )
            .tests
        );
    }
}
