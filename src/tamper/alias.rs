//! Skip markers bound to a name and used only on the tests added with them.
//!
//! A suite often names a conditional skip once and puts it on the tests that need it:
//! `need_dotenv = pytest.mark.skipif(not dotenv, …)` above `@need_dotenv def test_x()`, or
//! `var describeAsyncHooks = hasHooks ? describe : describe.skip` and then
//! `describeAsyncHooks('async local storage', function () { … })`. The skip marker is on the
//! line that binds the name, far from any test, so the rule that forgives a skip added with
//! its test (the marker beside the test, in the same hunk) does not see it, and flask's and
//! express's own new tests read as tests skipped.
//!
//! [`only_on_new_tests`] reads the name's uses instead: the marker skips nothing that ran
//! when every use is on an added line and applies to code added with it — a decorator of a
//! test declared below it in the same hunk, or a call whose block opens on the use and
//! closes within the hunk (every test inside is new). A name never used in the file (it may
//! be imported elsewhere), or used any other way (`pytestmark = need_dotenv`, passed as an
//! argument, a call that takes an existing function), keeps the marker counted.

use std::ops::Range;

use super::lex::{self, State, Syntax};

/// The new side of a changed file, as [`only_on_new_tests`] reads it.
pub(super) struct NewSide<'a> {
    /// The stripped code of each line (comments dropped, literals replaced by `"`).
    pub code: &'a [Vec<u8>],
    /// The added lines, one range per hunk, in order.
    pub added: &'a [Range<usize>],
    /// The added lines that declare a test, sorted.
    pub tests: &'a [usize],
    /// An `=` inside brackets names an argument (Python), not an assignment (JavaScript).
    pub keyword_arguments: bool,
    /// The lines each name is used on ([`name_lines`]), so that a name's uses are found
    /// without reading the whole file again for each skip marker.
    pub uses: &'a std::collections::HashMap<&'a [u8], Vec<usize>>,
}

/// The lines of `code` each name is used on: every whole identifier not after a `.` (as
/// [`occurrences`] finds them).
pub(super) fn name_lines(code: &[Vec<u8>]) -> std::collections::HashMap<&[u8], Vec<usize>> {
    let mut uses: std::collections::HashMap<&[u8], Vec<usize>> = std::collections::HashMap::new();
    for (line, text) in code.iter().enumerate() {
        let mut i = 0;
        while i < text.len() {
            if !lex::is_ident_byte(text[i]) {
                i += 1;
                continue;
            }
            let end = i + text[i..]
                .iter()
                .take_while(|&&b| lex::is_ident_byte(b))
                .count();
            if i == 0 || text[i - 1] != b'.' {
                let lines = uses.entry(&text[i..end]).or_default();
                if lines.last() != Some(&line) {
                    lines.push(line);
                }
            }
            i = end;
        }
    }
    uses
}

/// The stripped code of each of `lines`, lexed from the start of the file.
pub(super) fn code_lines(syntax: &Syntax, lines: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut state = State::Code;
    lines
        .iter()
        .map(|line| {
            let mut code = Vec::new();
            state = lex::strip_line(syntax, state, line, &mut code);
            code
        })
        .collect()
}

/// The name the skip marker on added line `mark` binds and the tests it applies to, when
/// the marker is part of a module-level statement that binds that one name (on its line or
/// an added line above it that it continues) and every use of the name applies to code
/// added with it; `None` otherwise (no such binding, a use that applies to code that was
/// there before or that cannot be told, or no use at all).
pub(super) fn only_on_new_tests(side: &NewSide<'_>, mark: usize) -> Option<(Vec<u8>, Vec<usize>)> {
    let hunk = hunk_of(side.added, mark)?;
    let (start, name, at) = binding(side, &side.added[hunk], mark)?;
    let mut tests = Vec::new();
    for &line in side.uses.get(name.as_slice()).into_iter().flatten() {
        let Some(code) = side.code.get(line) else {
            continue;
        };
        for found in occurrences(code, &name) {
            if (line, found) == (start, at) {
                continue;
            }
            tests.extend(applies_to_new_code(side, line, found, name.len())?);
        }
    }
    (!tests.is_empty()).then_some((name, tests))
}

/// The hunk whose added lines hold `line`.
fn hunk_of(added: &[Range<usize>], line: usize) -> Option<usize> {
    let hunk = added.partition_point(|range| range.end <= line);
    added
        .get(hunk)
        .filter(|range| range.contains(&line))
        .map(|_| hunk)
}

/// The line, name and column of the binding that the marker on `mark` belongs to:
/// `name = …` (with `var`, `let`, `const` or `export const` before it in JavaScript) at the
/// start of a line of its own, not indented (module level, not a statement in a test's body),
/// on `mark` or on one of the three added lines above it. Each line after it up to `mark`
/// continues the expression: inside a bracket it opened, or starting with an operator
/// (`  ? describe`, `  : describe.skip`). The statement binds that one name: no second
/// assignment (`a = b = describe.skip`, `a = (b = …)` in JavaScript, a walrus), no second
/// declarator (`var a = …, b = …`), no second statement after a `;`.
fn binding(
    side: &NewSide<'_>,
    hunk: &Range<usize>,
    mark: usize,
) -> Option<(usize, Vec<u8>, usize)> {
    let code = side.code;
    let start = (mark.saturating_sub(3).max(hunk.start)..=mark)
        .rev()
        .find(|&start| {
            code.get(start)
                .is_some_and(|line| bound_name(line).is_some())
        })?;
    let line = &code[start];
    if line.first().is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    let (name, value) = bound_name(line)?;
    let at = occurrences(line, &name).next()?;
    // The value, from after the `=` to the end of the statement: up to `mark`, and on while
    // a bracket stays open (a `pytest.mark.skipif(` over several lines).
    let mut depth: i64 = 0;
    let mut previous: u8 = b' ';
    for (i, text) in code.iter().enumerate().skip(start).take(40) {
        let text: &[u8] = if i == start { &line[value..] } else { text };
        if i > start && i <= mark && depth <= 0 {
            let trimmed = text.trim_ascii_start();
            let continues = [&b"?"[..], b":", b".", b"||", b"&&"]
                .iter()
                .any(|operator| trimmed.starts_with(operator));
            if !continues {
                return None;
            }
        }
        if i > mark && depth <= 0 {
            break;
        }
        for (j, &byte) in text.iter().enumerate() {
            let next = text.get(j + 1).copied().unwrap_or(b' ');
            match byte {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                // A second assignment: at any depth in JavaScript, outside brackets in Python
                // (whose `=` inside a call names an argument); a walrus anywhere.
                b'=' if !b"=!<>:".contains(&previous)
                    && next != b'='
                    && next != b'>'
                    && (depth <= 0 || !side.keyword_arguments) =>
                {
                    return None;
                }
                b'=' if previous == b':' => return None,
                b',' | b';' if depth <= 0 => return None,
                _ => {}
            }
            if !byte.is_ascii_whitespace() {
                previous = byte;
            }
        }
    }
    Some((start, name, at))
}

/// The name a line binds and where its value starts (after the `=`): `name = …` or
/// `name: Type = …`, after `export`, `var`, `let` or `const`; not a comparison (`==`) or an
/// attribute (`a.b = …`).
fn bound_name(line: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut rest = line.trim_ascii_start();
    for keyword in [&b"export"[..], b"var", b"let", b"const"] {
        if let Some(after) = rest.strip_prefix(keyword)
            && after.first().is_some_and(u8::is_ascii_whitespace)
        {
            rest = after.trim_ascii_start();
        }
    }
    let end = rest
        .iter()
        .position(|&b| !lex::is_ident_byte(b))
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(end);
    if name.is_empty() || name[0].is_ascii_digit() {
        return None;
    }
    let mut after = after.trim_ascii_start();
    if let Some(annotation) = after.strip_prefix(b":") {
        // A type annotation: up to the `=`.
        let equals = annotation.iter().position(|&b| b == b'=')?;
        after = &annotation[equals..];
    }
    let value = after.strip_prefix(b"=")?;
    if value.starts_with(b"=") {
        return None;
    }
    Some((name.to_vec(), line.len() - value.len()))
}

/// Where `name` occurs in `code` as a whole identifier (not `x.name` or `name_x`).
fn occurrences<'a>(code: &'a [u8], name: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    memchr::memmem::find_iter(code, name).filter(move |&at| {
        let before = at.checked_sub(1).and_then(|i| code.get(i));
        let after = code.get(at + name.len());
        before.is_none_or(|&b| !lex::is_ident_byte(b) && b != b'.')
            && after.is_none_or(|&b| !lex::is_ident_byte(b))
    })
}

/// The tests that the use of the name at byte `at` of line `line` applies to, when they are
/// code added with it: a decorator (`@name`, `@name(…)`) of a test declared below it in the
/// same hunk, or a call (`name(…`) whose brackets open a block that closes on a later line,
/// every line of it added. `None` for any other use.
fn applies_to_new_code(
    side: &NewSide<'_>,
    line: usize,
    at: usize,
    len: usize,
) -> Option<Vec<usize>> {
    let hunk = &side.added[hunk_of(side.added, line)?];
    let code = &side.code[line];
    let before = code[..at].trim_ascii();
    let after = code[at + len..].trim_ascii_start();
    if before == b"@" {
        // What the decorator applies to: the next statement below it that is not another
        // decorator (nor blank). It must declare a test, added in the same hunk: a class
        // below it (`@need_x class TestOld:`) takes the mark for all its methods.
        let statement = (line + 1..side.code.len()).find(|&next| {
            let code = side.code[next].trim_ascii();
            !code.is_empty() && !code.starts_with(b"@")
        })?;
        return (statement < hunk.end && side.tests.binary_search(&statement).is_ok())
            .then(|| vec![statement]);
    }
    if !after.starts_with(b"(") {
        return None;
    }
    // Every line of the block is added, or only closes brackets (or is blank): the diff may
    // align a `})` or a blank line of the new block with one of the same text that was there
    // before, and such a line holds no test.
    let closes = |code: &Vec<u8>| {
        code.iter()
            .all(|b| b.is_ascii_whitespace() || matches!(b, b')' | b']' | b'}' | b';' | b','))
    };
    let mut depth: i64 = 0;
    for (i, code) in side.code[line..].iter().enumerate() {
        if i > 0 && hunk_of(side.added, line + i).is_none() && !closes(code) {
            return None;
        }
        let from = if i == 0 { at } else { 0 };
        for &byte in &code[from..] {
            match byte {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            // A call that closes on its own line takes what it applies to from elsewhere.
            let block = line..=line + i;
            return (i > 0).then(|| {
                side.tests
                    .iter()
                    .copied()
                    .filter(|test| block.contains(test))
                    .collect()
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the marker on line `mark` applies only to new tests, for a side of `code`
    /// whose `added` lines declare `tests`.
    fn governs_new(
        code: &[Vec<u8>],
        added: &[Range<usize>],
        tests: &[usize],
        keyword_arguments: bool,
        mark: usize,
    ) -> bool {
        let uses = name_lines(code);
        let side = NewSide {
            code,
            added,
            tests,
            keyword_arguments,
            uses: &uses,
        };
        only_on_new_tests(&side, mark).is_some()
    }

    fn side_of(syntax: &Syntax, text: &str) -> Vec<Vec<u8>> {
        let lines: Vec<&[u8]> = text.split_inclusive('\n').map(str::as_bytes).collect();
        code_lines(syntax, &lines)
    }

    #[test]
    fn bound_names() {
        for (line, name) in [
            ("need_dotenv = pytest.mark.skipif(", Some("need_dotenv")),
            (
                "var describeAsyncHooks = typeof x === 'f'",
                Some("describeAsyncHooks"),
            ),
            ("export const d: Suite = describe.skip", Some("d")),
            ("  let it2 = it.skip", Some("it2")),
            ("a.b = describe.skip", None),
            ("if x == describe.skip:", None),
            ("describe.skip('x', f)", None),
            ("1x = 2", None),
        ] {
            assert_eq!(
                bound_name(line.as_bytes()).map(|(name, _)| name),
                name.map(|name| name.as_bytes().to_vec()),
                "{line}"
            );
        }
    }

    /// flask's `need_dotenv`, express's `describeAsyncHooks`: used on new tests only.
    #[test]
    fn names_used_only_on_tests_added_with_them() {
        let python = &super::super::python::TABLE.syntax;
        let text = "import pytest\n\
            need_dotenv = pytest.mark.skipif(\n    not dotenv, reason=\"dotenv is not installed\"\n)\n\
            \n@need_dotenv\ndef test_load_dotenv():\n    assert 1\n";
        let code = side_of(python, text);
        let added = [Range { start: 1, end: 8 }];
        assert!(governs_new(&code, &added, &[6], true, 1));
        // The same decorator on a test that was there before (the `def` line unchanged).
        let added = [Range { start: 1, end: 6 }];
        assert!(!governs_new(&code, &added, &[], true, 1));

        let javascript = &super::super::javascript::TABLE.syntax;
        let text = "var describeAsyncHooks = typeof hooks === 'function'\n  ? describe\n  : describe.skip\n\
            describe('res', function () {\n  describeAsyncHooks('storage', function () {\n    it('keeps', function () {})\n  })\n})\n";
        let code = side_of(javascript, text);
        let added = [0..3, 4..7];
        assert!(governs_new(&code, &added, &[5], false, 2));
        // The diff aligned the block's last `})` with an older one below it.
        let added = [0..3, 4..6];
        assert!(governs_new(&code, &added, &[5], false, 2));
        // The suite's first line renamed, its tests unchanged below.
        let added = [0..3, 4..5];
        assert!(!governs_new(&code, &added, &[], false, 2));
    }

    #[test]
    fn other_uses_keep_the_marker_counted() {
        let python = &super::super::python::TABLE.syntax;
        for text in [
            // Never used here: it may be imported by another file.
            "skip_it = pytest.mark.skip\n",
            // Applied to a whole module.
            "skip_it = pytest.mark.skip\npytestmark = skip_it\n",
            // A name in a string is no use, the use in code is on an unchanged line.
            "skip_it = pytest.mark.skip\nx = 'skip_it'\n@skip_it\ndef test_old():\n    pass\n",
            // Two names bound at once, one of them the module's mark.
            "skip_it = pytestmark = pytest.mark.skip\n@skip_it\ndef test_new():\n    pass\n",
            // A second statement on the line.
            "skip_it = pytest.mark.skip; pytestmark = skip_it\n@skip_it\ndef test_new():\n    pass\n",
            // A walrus.
            "skip_it = (pytestmark := pytest.mark.skip)\n@skip_it\ndef test_new():\n    pass\n",
            // Bound in a body, not at module level.
            "def test_old():\n    skip_it = pytest.skip('x')\n@skip_it\ndef test_new():\n    pass\n",
            // A class below the decorator takes it for every method.
            "skip_it = pytest.mark.skip\n@skip_it\nclass TestOld:\n    def test_new(self):\n        pass\n",
        ] {
            let code = side_of(python, text);
            let added = [Range { start: 0, end: 2 }];
            assert!(!governs_new(&code, &added, &[], true, 0), "{text}");
        }
        let javascript = &super::super::javascript::TABLE.syntax;
        for (text, mark) in [
            // A call that takes a suite written elsewhere.
            ("const d = describe.skip\nd('old suite', oldSuite)\n", 0),
            // The global `describe` replaced on the way.
            (
                "var d = describe = describe.skip\nd('s', function () {\n  it('x', f)\n})\n",
                0,
            ),
            (
                "var d = (describe = describe.skip)\nd('s', function () {\n  it('x', f)\n})\n",
                0,
            ),
            // A second declarator.
            (
                "var d = describe.skip, e = describe.skip\nd('s', function () {\n  it('x', f)\n})\n",
                0,
            ),
            // A line below that is a statement of its own, not a continuation.
            (
                "var d = describe\n    this.skip()\nd('s', function () {\n  it('x', f)\n})\n",
                1,
            ),
        ] {
            let code = side_of(javascript, text);
            let added = [Range {
                start: 0,
                end: code.len(),
            }];
            let tests: Vec<usize> = (0..code.len())
                .filter(|&i| code[i].trim_ascii_start().starts_with(b"it("))
                .collect();
            assert!(!governs_new(&code, &added, &tests, false, mark), "{text}");
        }
    }
}
