//! Skips that apply only to test cases the change adds.
//!
//! A parametrised test runs once per case. A skip put on one case applies to that case
//! alone, and when the case is new it skips nothing that ran: flask's 980168d08498 adds
//! `pytest.param(lambda app: StringIO("Test"), marks=pytest.mark.skipif(not PY2, …))` to a
//! test's cases, and cobra's df12a0a24975 adds a `skip string` field to a Go table of cases,
//! sets it on the case it adds, and skips under `if tc.skip != "" {`.
//!
//! A case is new when every line of it is added and its values are written nowhere in the
//! old side (compared as code, whitespace and string contents aside, so that a case turned
//! into `pytest.param(1, 2, marks=…)` from `(1, 2)` is still the old one). A case whose
//! values changed is a new case, as a removed row is no removed test: the old case is gone
//! either way.

use std::ops::Range;

use super::lex::is_ident_byte;
use super::missing::top_level_parts;

/// The code of a side's lines (comments dropped, literals replaced by `"`,
/// [`super::alias::code_lines`]), and which lines are added.
pub(super) struct NewSide<'a> {
    /// Each line as written.
    pub raw: &'a [&'a [u8]],
    pub code: &'a [Vec<u8>],
    /// The added lines, one range per hunk, in order.
    pub added: &'a [Range<usize>],
}

impl NewSide<'_> {
    fn is_added(&self, line: usize) -> bool {
        let hunk = self.added.partition_point(|range| range.end <= line);
        self.added
            .get(hunk)
            .is_some_and(|range| range.contains(&line))
    }
}

/// A place in a side's code: line and byte.
type At = (usize, usize);

/// `code` without whitespace, every line of it joined.
pub(super) fn squeezed(code: &[Vec<u8>]) -> Vec<u8> {
    code.iter()
        .flatten()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect()
}

/// Whether the skip markers on `line` all apply to one `pytest.param(…)` case that the
/// change adds: the call holds every name on the line, every line of the call is added, and
/// its values (`marks=` and `id=` aside) are written nowhere in `old` (squeezed).
pub(super) fn python_new_case(old: &[u8], new: &NewSide<'_>, line: usize) -> bool {
    const CALL: &[u8] = b"pytest.param(";
    let Some((start, end)) = (line.saturating_sub(8)..=line)
        .rev()
        .flat_map(|at| {
            let code = new.code.get(at).map_or(&[][..], Vec::as_slice);
            memchr::memmem::find_iter(code, CALL)
                .map(move |byte| (at, byte))
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
        })
        .find_map(|start| {
            let open = (start.0, start.1 + CALL.len() - 1);
            let end = matching(new.code, open, 40)?;
            covers(new.code, start, end, line).then_some((start, end))
        })
    else {
        return false;
    };
    if !in_parametrize(new.code, start) {
        return false;
    }
    if !(start.0..=end.0).all(|at| new.is_added(at)) {
        return false;
    }
    let arguments = between(new.code, (start.0, start.1 + CALL.len()), end);
    let mut values: Vec<Vec<u8>> = Vec::new();
    let mut marks = false;
    for part in top_level_parts(&arguments) {
        let part: Vec<u8> = part
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        if part.starts_with(b"marks=") {
            marks = true;
        } else if !part.starts_with(b"id=") && !part.is_empty() {
            values.push(part);
        }
    }
    let values = values.join(&b","[..]);
    marks && !values.is_empty() && memchr::memmem::find(old, &values).is_none()
}

/// Whether the `pytest.param(` at `start` is an item of a list or tuple written in a
/// `parametrize(…)` call: its marks apply to that case and nothing else (not a mark taken
/// out of it, `pytest.param(…).marks`, onto a whole module).
fn in_parametrize(code: &[Vec<u8>], start: At) -> bool {
    let Some(list) = enclosing_open(code, start) else {
        return false;
    };
    let Some(call) = enclosing_open(code, list) else {
        return false;
    };
    let list_kind = code[list.0][list.1];
    let before = code[call.0][..call.1].trim_ascii_end();
    matches!(list_kind, b'[' | b'(')
        && code[call.0][call.1] == b'('
        && before.ends_with(b"parametrize")
}

/// Whether the call from `start` (its name) to `end` (its closing bracket) holds every name
/// on `line`: what the line has outside it is punctuation and spaces.
fn covers(code: &[Vec<u8>], start: At, end: At, line: usize) -> bool {
    if line < start.0 || line > end.0 {
        return false;
    }
    let Some(text) = code.get(line) else {
        return false;
    };
    let from = if start.0 == line { start.1 } else { 0 };
    let to = if end.0 == line { end.1 + 1 } else { text.len() };
    let outside = |bytes: &[u8]| !bytes.iter().any(|&b| is_ident_byte(b));
    outside(&text[..from]) && outside(text.get(to..).unwrap_or_default())
}

/// The bracket that closes the one at `open`, within `lines` lines.
fn matching(code: &[Vec<u8>], open: At, lines: usize) -> Option<At> {
    let mut depth = 0_i64;
    for (line, text) in code.iter().enumerate().skip(open.0).take(lines) {
        let from = if line == open.0 { open.1 } else { 0 };
        for (byte, &b) in text.iter().enumerate().skip(from) {
            match b {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some((line, byte));
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// The code from `from` up to `to` (not included), its lines joined by spaces.
fn between(code: &[Vec<u8>], from: At, to: At) -> Vec<u8> {
    let mut text = Vec::new();
    for line in from.0..=to.0 {
        let Some(bytes) = code.get(line) else { break };
        let start = if line == from.0 { from.1 } else { 0 };
        let end = if line == to.0 { to.1 } else { bytes.len() };
        text.extend_from_slice(bytes.get(start..end).unwrap_or_default());
        text.push(b' ');
    }
    text
}

/// Whether the Go skip on `line` fires only for table cases the change adds: it is the
/// first statement under `if tc.skip != "" {` (or `if tc.skip {`, `!= nil`, `len(…) > 0`),
/// where `tc` ranges over a table of cases whose anonymous struct declares `skip` on an
/// added line, the old side never mentions `skip`, the field is only read (`tc.skip`) or
/// set as a key (`skip: "…"`) of cases that are new, and every case the change edits names
/// its fields (a case written by position could set it unseen).
pub(super) fn go_new_case(
    old: &[Vec<u8>],
    old_squeezed: &[u8],
    new: &NewSide<'_>,
    line: usize,
) -> bool {
    let Some((guard, case, field)) = go_guard(new, line) else {
        return false;
    };
    if old.iter().any(|code| super::mentions(code, field)) {
        return false;
    }
    let Some(table) = go_table(new, field) else {
        return false;
    };
    if !ranges_over(new.code, &table.name, case, guard) {
        return false;
    }
    let Some(keys) = table_keys(new.code, &table, field) else {
        return false;
    };
    let only_read = new.code.iter().enumerate().all(|(at, code)| {
        super::whole_words(code, field).all(|byte| {
            (at, byte) == table.declaration
                || keys.contains(&(at, byte))
                || is_read(code, byte, field.len())
        })
    });
    only_read
        && table.entries.iter().all(|entry| {
            let sets = keys.iter().any(|key| entry.range.contains_at(*key));
            let edited = (entry.range.0.0..=entry.range.1.0).any(|at| new.is_added(at));
            if sets {
                new_entry(old_squeezed, new, entry, field)
            } else {
                !edited || entry.keyed
            }
        })
}

/// The guard above a Go skip: the line of `if tc.skip != "" {` and the names it reads
/// (`tc`, `skip`), when the skip on `line` is the first statement of its block (or on its
/// line: `if tc.skip != "" { t.Skip() }`).
fn go_guard<'a>(new: &NewSide<'a>, line: usize) -> Option<(usize, &'a [u8], &'a str)> {
    let code = new.code;
    let own = code.get(line)?.trim_ascii();
    let guard = if own.starts_with(b"if ") {
        line
    } else {
        (0..line)
            .rev()
            .find(|&at| !code[at].trim_ascii().is_empty())?
    };
    let text = code[guard].trim_ascii();
    let condition = text.strip_prefix(b"if ")?;
    let condition = &condition[..condition.iter().position(|&b| b == b'{')?];
    if guard != line && !text.ends_with(b"{") {
        return None;
    }
    let condition: Vec<u8> = condition
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let selector = condition
        .strip_prefix(b"len(")
        .and_then(|rest| {
            rest.strip_suffix(b")>0")
                .or_else(|| rest.strip_suffix(b")!=0"))
        })
        .or_else(|| {
            // A string literal is one `"` in the code.
            [&b"!=\""[..], b"!=nil", b""]
                .iter()
                .find_map(|end| condition.strip_suffix(*end))
        })?;
    // `!= "x"` is `!= "` in the code too: the string must be the empty one as written.
    if condition.ends_with(b"!=\"") {
        let raw: Vec<u8> = new
            .raw
            .get(guard)?
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        if !raw.starts_with(&[&b"if"[..], selector, b"!=\"\"{"].concat()) {
            return None;
        }
    }
    let dot = selector.iter().position(|&b| b == b'.')?;
    let (case, field) = (&selector[..dot], &selector[dot + 1..]);
    if !is_name(case) || !is_name(field) {
        return None;
    }
    // The names, borrowed from the guard's own line.
    let text = &code[guard];
    let case_at = super::whole_words(text, std::str::from_utf8(case).ok()?).next()?;
    let field_at = memchr::memmem::find(text, &[b".", field].concat())? + 1;
    let field = std::str::from_utf8(&text[field_at..field_at + field.len()]).ok()?;
    Some((guard, &text[case_at..case_at + case.len()], field))
}

/// A Go table of cases: `name := []struct { … }{ … }` (or a `map[…]struct`).
#[derive(Debug)]
struct Table {
    /// The variable it is bound to.
    name: Vec<u8>,
    /// Where the field is declared in its struct.
    declaration: At,
    /// Its cases: the braces directly inside its literal.
    entries: Vec<Entry>,
    /// Its literal, from `{` to `}`.
    literal: (At, At),
}

/// One case of a [`Table`].
#[derive(Debug)]
struct Entry {
    range: Span,
    /// It names a field (`name: "x"`), where one written by position does not.
    keyed: bool,
}

/// From a place to another, both included.
#[derive(Debug, Clone, Copy)]
struct Span(At, At);

impl Span {
    fn contains_at(self, at: At) -> bool {
        self.0 <= at && at <= self.1
    }
}

/// The table of cases whose anonymous struct declares `field` on an added line: the
/// declaration (`skip string`) must be the first word of its line, inside `struct {` of a
/// line that binds a slice or map of it (`tcs := []struct {`), whose literal follows the
/// struct's `}` on the same line (`}{`).
fn go_table(new: &NewSide<'_>, field: &str) -> Option<Table> {
    let declared = new.code.iter().enumerate().find(|(at, code)| {
        let text = code.trim_ascii_start();
        new.is_added(*at)
            && text.starts_with(field.as_bytes())
            && text.get(field.len()).is_some_and(u8::is_ascii_whitespace)
    })?;
    let declaration = (
        declared.0,
        declared.1.len() - declared.1.trim_ascii_start().len(),
    );
    let open = enclosing_open(new.code, (declared.0, 0))?;
    let head = &new.code[open.0][..open.1];
    let squeezed: Vec<u8> = head
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let binding = squeezed.strip_suffix(b"[]struct").or_else(|| {
        let map = memchr::memmem::rfind(&squeezed, b"map[")?;
        squeezed
            .strip_suffix(b"struct")
            .filter(|_| squeezed[map..].ends_with(b"]struct"))
            .map(|_| &squeezed[..map])
    })?;
    let name = binding
        .strip_suffix(b":=")
        .or_else(|| binding.strip_suffix(b"="))
        .map(|name| name.strip_prefix(b"var").unwrap_or(name))?;
    if !is_name(name) {
        return None;
    }
    let close = matching(new.code, open, 200)?;
    let after = &new.code[close.0][close.1 + 1..];
    let gap = after.len() - after.trim_ascii_start().len();
    if after.get(gap) != Some(&b'{') {
        return None;
    }
    let literal_open = (close.0, close.1 + 1 + gap);
    let literal_close = matching(new.code, literal_open, 5000)?;
    let entries = entries(new.code, literal_open, literal_close);
    Some(Table {
        name: name.to_vec(),
        declaration,
        entries,
        literal: (literal_open, literal_close),
    })
}

/// The innermost bracket still open at `at` (its line and byte), within 50 lines above it.
fn enclosing_open(code: &[Vec<u8>], at: At) -> Option<At> {
    let mut depth = 0_i64;
    for line in (at.0.saturating_sub(50)..=at.0).rev() {
        let text = code.get(line)?;
        let end = if line == at.0 {
            at.1.min(text.len())
        } else {
            text.len()
        };
        for (byte, &b) in text[..end].iter().enumerate().rev() {
            match b {
                b')' | b']' | b'}' => depth += 1,
                b'(' | b'[' | b'{' if depth == 0 => return Some((line, byte)),
                b'(' | b'[' | b'{' => depth -= 1,
                _ => {}
            }
        }
    }
    None
}

/// The braces directly inside the literal from `open` to `close`, and whether each names
/// a field at its top level (`name:`).
fn entries(code: &[Vec<u8>], open: At, close: At) -> Vec<Entry> {
    let mut found = Vec::new();
    let mut depth = 0_i64;
    let mut start = open;
    let mut keyed = false;
    for_each_byte(code, open, close, |at, byte, next| match byte {
        b'(' | b'[' | b'{' => {
            depth += 1;
            if depth == 2 && byte == b'{' {
                start = at;
                keyed = false;
            }
        }
        b')' | b']' | b'}' => {
            if depth == 2 && byte == b'}' {
                found.push(Entry {
                    range: Span(start, at),
                    keyed,
                });
            }
            depth -= 1;
        }
        b':' if depth == 2 && next != Some(b'=') => keyed = true,
        _ => {}
    });
    found
}

/// Calls `visit` with each byte from `from` to `to` (both included), its place and the byte
/// after it on its line.
fn for_each_byte(code: &[Vec<u8>], from: At, to: At, mut visit: impl FnMut(At, u8, Option<u8>)) {
    for line in from.0..=to.0 {
        let Some(text) = code.get(line) else { return };
        let start = if line == from.0 { from.1 } else { 0 };
        let end = if line == to.0 {
            (to.1 + 1).min(text.len())
        } else {
            text.len()
        };
        for byte in start..end {
            visit((line, byte), text[byte], text.get(byte + 1).copied());
        }
    }
}

/// Where `field` is set as a key (`skip: "…"`) in the table: directly in a case, not in a
/// literal nested in one. `None` when it is a key anywhere else in the literal.
fn table_keys(code: &[Vec<u8>], table: &Table, field: &str) -> Option<Vec<At>> {
    let (open, close) = table.literal;
    let mut keys = Vec::new();
    for line in open.0..=close.0 {
        let text = &code[line];
        for byte in super::whole_words(text, field) {
            let at = (line, byte);
            if !Span(open, close).contains_at(at) || !is_key(text, byte, field.len()) {
                continue;
            }
            let direct = table
                .entries
                .iter()
                .any(|entry| entry.range.contains_at(at) && depth_in(code, entry.range.0, at) == 1);
            if !direct {
                return None;
            }
            keys.push(at);
        }
    }
    Some(keys)
}

/// How many brackets are open at `at`, counted from the one at `from`.
fn depth_in(code: &[Vec<u8>], from: At, at: At) -> i64 {
    let mut depth = 0;
    for_each_byte(code, from, at, |place, byte, _| {
        if place == at {
            return;
        }
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
    });
    depth
}

/// Whether the name at `byte` of `text` is a key: `name:`, not `name :=`.
fn is_key(text: &[u8], byte: usize, len: usize) -> bool {
    let rest = text[byte + len..].trim_ascii_start();
    let before = byte.checked_sub(1).and_then(|i| text.get(i));
    rest.starts_with(b":") && !rest.starts_with(b":=") && before != Some(&b'.')
}

/// Whether the name at `byte` of `text` is read as a field (`tc.skip != ""`,
/// `len(tc.skip)`): after a `.`, followed by the end of an expression or a comparison, and
/// no `&` on the line (a pointer to it could set it).
fn is_read(text: &[u8], byte: usize, len: usize) -> bool {
    let before = byte.checked_sub(1).and_then(|i| text.get(i));
    let rest = text[byte + len..].trim_ascii_start();
    let ends = match rest {
        [] | [b')' | b',' | b'}' | b']' | b'{' | b';', ..] | [b'!' | b'=', b'=', ..] => true,
        [b'<' | b'>', next, ..] => *next != rest[0],
        _ => false,
    };
    before == Some(&b'.') && ends && !text.contains(&b'&')
}

/// Whether `guard` is inside a `for _, case := range name {` loop over the table.
fn ranges_over(code: &[Vec<u8>], name: &[u8], case: &[u8], guard: usize) -> bool {
    let header = [&b"range"[..], name, b"{"].concat();
    (0..guard).rev().take(200).any(|at| {
        let text: Vec<u8> = code[at]
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        let Some(rest) = text.strip_prefix(b"for") else {
            return false;
        };
        let binds = rest
            .strip_suffix(header.as_slice())
            .and_then(|vars| vars.strip_suffix(b":="))
            .and_then(|vars| vars.rsplit(|&b| b == b',').next());
        let Some(open) = code[at].iter().rposition(|&b| b == b'{') else {
            return false;
        };
        binds == Some(case)
            && matching(code, (at, open), 2000).is_some_and(|close| close.0 >= guard)
            && !(at + 1..guard).any(|between| rebinds(&code[between], case))
    })
}

/// Whether a line assigns `name` (`tc = cases[1]`, `tc, ok := …`), other than Go's
/// `tc := tc` that copies it for a closure.
fn rebinds(code: &[u8], name: &[u8]) -> bool {
    let text: Vec<u8> = code
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if text == [name, b":=", name].concat() {
        return false;
    }
    // The first `=` or `:=` that assigns (not `==`, `!=`, `<=`, `>=`).
    let Some(op) = (0..text.len()).find(|&i| {
        text[i] == b'='
            && text.get(i + 1) != Some(&b'=')
            && !(i > 0 && b"=!<>".contains(&text[i - 1]))
    }) else {
        return false;
    };
    let Ok(word) = std::str::from_utf8(name) else {
        return true;
    };
    super::whole_words(&text[..op], word).any(|at| {
        let next = text.get(at + name.len()).copied();
        let attribute = at > 0 && text[at - 1] == b'.';
        !attribute && matches!(next, Some(b'=' | b':' | b','))
    })
}

/// Whether a case that sets `field` is new: every line of it is added (or only closes or
/// opens brackets, which the diff may align with an older line of the same text), and its
/// other fields are no case of the old side.
fn new_entry(old_squeezed: &[u8], new: &NewSide<'_>, entry: &Entry, field: &str) -> bool {
    let Span(start, end) = entry.range;
    let brackets = |code: &Vec<u8>| {
        code.iter()
            .all(|b| b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b')' | b']' | b','))
    };
    let added = (start.0..=end.0).all(|at| new.is_added(at) || brackets(&new.code[at]));
    if !added {
        return false;
    }
    // The case's fields but the one that skips, as `{a:1,b:""` is found in the old side
    // before its `}` (or `,}`).
    let inner = between(new.code, (start.0, start.1 + 1), end);
    let squeezed: Vec<u8> = inner
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let sets_field = |part: &[u8]| {
        part.strip_prefix(field.as_bytes())
            .is_some_and(|rest| rest.starts_with(b":"))
    };
    let kept: Vec<&[u8]> = top_level_parts(&squeezed)
        .into_iter()
        .filter(|part| !part.is_empty() && !sets_field(part))
        .collect();
    let needle = [&b"{"[..], &kept.join(&b","[..])].concat();
    !memchr::memmem::find_iter(old_squeezed, &needle).any(|at| {
        let rest = &old_squeezed[at + needle.len()..];
        rest.starts_with(b"}") || rest.starts_with(b",}")
    })
}

/// Whether `text` is a name (`tc`, `skip`).
fn is_name(text: &[u8]) -> bool {
    !text.is_empty() && !text[0].is_ascii_digit() && text.iter().all(|&b| is_ident_byte(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(syntax: &super::super::lex::Syntax, text: &str) -> Vec<Vec<u8>> {
        let lines: Vec<&[u8]> = text.split_inclusive('\n').map(str::as_bytes).collect();
        super::super::alias::code_lines(syntax, &lines)
    }

    /// The lines the line diff of `old` and `new` adds, one range per hunk.
    fn added(old: &str, new: &str) -> Vec<Range<usize>> {
        crate::linediff::LineDiff::new(old.as_bytes(), new.as_bytes())
            .hunks()
            .map(|(_, after)| after)
            .filter(|after| !after.is_empty())
            .collect()
    }

    /// The first line of `text` that holds `marker`.
    fn line_of(text: &str, marker: &str) -> usize {
        text.lines()
            .position(|line| line.contains(marker))
            .unwrap_or(usize::MAX)
    }

    /// Whether the skip on the line of `new` that holds `marker` applies only to a new
    /// pytest case, against `old`.
    fn python_case(old: &str, new: &str, marker: &str) -> bool {
        let syntax = &super::super::python::TABLE.syntax;
        let code = code_of(syntax, new);
        let added = added(old, new);
        let raw: Vec<&[u8]> = new.split_inclusive('\n').map(str::as_bytes).collect();
        python_new_case(
            &squeezed(&code_of(syntax, old)),
            &NewSide {
                raw: &raw,
                code: &code,
                added: &added,
            },
            line_of(new, marker),
        )
    }

    const PARAMS: &str = "@pytest.mark.parametrize(\"a, b\", [\n    (1, 2),\n    (3, 4),\n])\ndef test_add(a, b):\n    assert add(a, b) > 0\n";

    /// flask's 980168d08498: a case added skipped, to a test that ran before.
    #[test]
    fn a_skip_on_a_pytest_case_the_change_adds() {
        for case in [
            "    pytest.param(\n        lambda: StringIO(\"Test\"), 4,\n        marks=pytest.mark.skipif(not PY2, reason=\"Python 2 only\"),\n    ),\n",
            "    pytest.param(5, 6, marks=pytest.mark.xfail),\n",
            "    pytest.param(5, 6, id=\"five\", marks=[pytest.mark.skip]),\n",
        ] {
            let new = edit(PARAMS, "    (3, 4),\n", &format!("    (3, 4),\n{case}"));
            assert!(python_case(PARAMS, &new, "marks="), "{new}");
        }
    }

    #[test]
    fn a_skip_on_a_pytest_case_that_ran_counts() {
        for (case, why) in [
            (
                "    pytest.param(3, 4, marks=pytest.mark.skip),\n",
                "the old case, marked",
            ),
            (
                "    pytest.param(\n        3,\n        4,\n        id=\"three\",\n        marks=[pytest.mark.skip],\n    ),\n",
                "the old case over lines, named",
            ),
            (
                "    pytest.param((3), 4, marks=pytest.mark.skip), pytest.mark.skip,\n",
                "a marker beside the case",
            ),
        ] {
            let new = edit(PARAMS, "    (3, 4),\n", case);
            assert!(!python_case(PARAMS, &new, "mark.skip"), "{why}: {new}");
        }
        // A mark taken out of a new case onto the whole module.
        let taken = format!(
            "{PARAMS}pytestmark = getattr(\n    pytest.param(object(), marks=pytest.mark.skip),\n    \"marks\",\n)\n"
        );
        assert!(!python_case(PARAMS, &taken, "marks="));
        // A new case whose first line was there before.
        let old = edit(
            PARAMS,
            "    (3, 4),\n",
            "    pytest.param(5, 6,\n        id=\"x\"),\n",
        );
        let new = edit(
            PARAMS,
            "    (3, 4),\n",
            "    pytest.param(5, 6,\n        marks=pytest.mark.skip),\n",
        );
        assert!(!python_case(&old, &new, "marks="));
    }

    fn edit(text: &str, from: &str, to: &str) -> String {
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1)
    }

    /// Whether the `t.Skip` of `new` fires only for new Go cases, against `old`.
    fn go_case(old: &str, new: &str) -> bool {
        let syntax = &super::super::go::TABLE.syntax;
        let old_code = code_of(syntax, old);
        let code = code_of(syntax, new);
        let added = added(old, new);
        let raw: Vec<&[u8]> = new.split_inclusive('\n').map(str::as_bytes).collect();
        go_new_case(
            &old_code,
            &squeezed(&old_code),
            &NewSide {
                raw: &raw,
                code: &code,
                added: &added,
            },
            line_of(new, "t.Skip"),
        )
    }

    const GO_OLD: &str = "func TestGen(t *testing.T) {\n\ttcs := []struct {\n\t\tname string\n\t\tin   int\n\t\twant string\n\t}{\n\t\t{\n\t\t\tname: \"simple\",\n\t\t\tin:   1,\n\t\t\twant: \"a\",\n\t\t},\n\t}\n\tfor _, tc := range tcs {\n\t\tt.Run(tc.name, func(t *testing.T) {\n\t\t\tcheck(t, tc.in, tc.want)\n\t\t})\n\t}\n}\n";

    const GO_GUARD: &str = "\t\t\tif tc.skip != \"\" {\n\t\t\t\tt.Skip(tc.skip)\n\t\t\t}\n";

    const GO_CASE: &str = "\t\t{\n\t\t\tname: \"bool slice\",\n\t\t\tin:   2,\n\t\t\twant: \"b\",\n\t\t\tskip: \"not yet\",\n\t\t},\n";

    /// `GO_OLD` with a `skip` field declared, `case` appended to the table, and `guard` at
    /// the top of the subtest.
    fn go_new(case: &str, guard: &str) -> String {
        GO_OLD
            .replacen("\t\twant string\n", "\t\twant string\n\t\tskip string\n", 1)
            .replacen("\t\t},\n\t}\n", &format!("\t\t}},\n{case}\t}}\n"), 1)
            .replacen(
                "func(t *testing.T) {\n",
                &format!("func(t *testing.T) {{\n{guard}"),
                1,
            )
    }

    /// cobra's df12a0a24975: a case added with `skip` set, under a guard on the new field.
    #[test]
    fn a_skip_on_a_go_case_the_change_adds() {
        assert!(go_case(GO_OLD, &go_new(GO_CASE, GO_GUARD)));
        let copied = go_new(GO_CASE, GO_GUARD).replacen(
            "\tfor _, tc := range tcs {\n",
            "\tfor _, tc := range tcs {\n\t\ttc := tc\n",
            1,
        );
        assert!(go_case(GO_OLD, &copied));
        for guard in [
            "\t\t\tif len(tc.skip) > 0 {\n\t\t\t\tt.Skip(tc.skip)\n\t\t\t}\n",
            "\t\t\tif tc.skip != \"\" { t.Skip(tc.skip) }\n",
        ] {
            assert!(go_case(GO_OLD, &go_new(GO_CASE, guard)), "{guard}");
        }
    }

    #[test]
    fn a_skip_that_can_reach_a_go_case_that_ran_counts() {
        let plain =
            "\t\t{\n\t\t\tname: \"bool slice\",\n\t\t\tin:   2,\n\t\t\twant: \"b\",\n\t\t},\n";
        // cobra's 7b62c7df786a: the field set on a case that was there.
        let on_old = go_new(plain, GO_GUARD).replacen(
            "\t\t\twant: \"a\",\n",
            "\t\t\twant: \"a\",\n\t\t\tskip: \"broken\",\n",
            1,
        );
        assert!(!go_case(GO_OLD, &on_old));
        for (new, why) in [
            (
                go_new(
                    "\t\t{name: \"simple\", in: 1, want: \"a\", skip: \"broken\"},\n",
                    GO_GUARD,
                ),
                "the old case written again, with the field",
            ),
            (
                go_new(GO_CASE, &format!("\t\t\ttc.skip = \"all\"\n{GO_GUARD}")),
                "the field set in the loop",
            ),
            (
                go_new(GO_CASE, &GO_GUARD.replacen("!=", "==", 1)),
                "another condition",
            ),
            (
                go_new(GO_CASE, &format!("\t\t\ttc = tcs[1]\n{GO_GUARD}")),
                "every run made the new case's",
            ),
            (
                go_new(GO_CASE, &GO_GUARD.replacen("\"\"", "\"x\"", 1)),
                "another string: the old cases' empty field is not it",
            ),
            (
                go_new(
                    GO_CASE,
                    &GO_GUARD.replacen("\"\" {", "\"x\" { // != \"\"", 1),
                ),
                "the empty string in a comment",
            ),
            (
                go_new(
                    GO_CASE,
                    "\t\t\tif tc.skip != \"\" || tc.in > 0 {\n\t\t\t\tt.Skip(tc.skip)\n\t\t\t}\n",
                ),
                "a second condition",
            ),
            (
                go_new("\t\t{\"bool slice\", 2, \"b\", \"not yet\"},\n", GO_GUARD).replacen(
                    "\t\t\tname: \"simple\",\n\t\t\tin:   1,\n\t\t\twant: \"a\",\n",
                    "\t\t\t\"simple\", 1, \"a\", \"broken\",\n",
                    1,
                ),
                "cases written by position",
            ),
        ] {
            assert!(!go_case(GO_OLD, &new), "{why}: {new}");
        }
        // A field the old side had.
        let old = GO_OLD.replacen("\t\twant string\n", "\t\twant string\n\t\tskip string\n", 1);
        assert!(!go_case(
            &old,
            &go_new(GO_CASE, GO_GUARD).replacen(
                "\t\tskip string\n\t\tskip string\n",
                "\t\tskip string\n",
                1
            )
        ));
    }
}
