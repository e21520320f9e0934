//! Skips that fire only where a module the old side could not do without is missing.
//!
//! A test module that imported `pytz` at its top could not even be imported where pytz is
//! not installed: none of its tests ran there. Guarding that import and skipping what needs
//! it — `pytest.importorskip("pytz")`, or `try: from pytz import timezone` /
//! `except ImportError: has_pytz = False` with `@pytest.mark.skipif(not has_pytz, …)` —
//! skips only there (flask's 34050630d679 and 96f7b07caf15): where pytz is installed, the
//! same tests run as before. A Java test that used `java.awt.Point` did not compile without
//! it; looking the class up with `Class.forName("java.awt.Point")` and `assumeNotNull` on
//! the result (gson's 441406cc780f) skips only where it is missing.
//!
//! So such a skip counts 0 when its only condition is the module's absence and the old side
//! of the same file needed that module unconditionally: a module-level `import M` or
//! `from M import …` (not indented: not under `try:`, `if` or a function), or, in Java, an
//! `import` of the platform class (`java.…`, `javax.…`) that the file used. A module the
//! old side did not need (`pytest.importorskip("nonexistent")`), a flag bound anywhere but
//! the guarded import (`HAS_FOO = False` of its own, a `global`, a string naming it), or a
//! second condition (`minversion=`, `skipif(not has_x or …)`) keeps the skip counted. The
//! caller counts it again when another file of the change mentions the module or the flag:
//! a dependency dropped from the requirements beside it would make the skip fire in CI.

use std::ops::Range;

use super::lex::is_ident_byte;

/// A side of a file, as these rules read it.
pub(super) struct Lines<'a> {
    /// Each line as written.
    pub raw: &'a [&'a [u8]],
    /// Each line's code: comments dropped, literals replaced by `"`
    /// ([`super::alias::code_lines`]).
    pub code: &'a [Vec<u8>],
}

/// A skip marker forgiven: its line (0-based, new side) and the names whose mention in
/// another file of the change counts it again.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Forgiven {
    pub line: usize,
    pub names: Vec<Vec<u8>>,
}

/// The Python skip markers on `marks` (lines of the new side that hold one each) whose only
/// condition is the absence of a module the old side imported unconditionally.
///
/// The module itself must be mentioned in the new side only where it is imported, skipped
/// without, or read (`pytz.timezone`): `sys.modules["pytz"] = None` above
/// `pytest.importorskip("pytz")` would make the skip fire where pytz is installed.
pub(super) fn python(old: &Lines<'_>, new: &Lines<'_>, marks: &[usize]) -> Vec<Forgiven> {
    let required = required_modules(old.code);
    if required.is_empty() {
        return Vec::new();
    }
    let mut guards = None;
    let mut candidates: Vec<Candidate<'_>> = Vec::new();
    for &line in marks {
        if let Some(module) = importorskip(new, line) {
            candidates.push(Candidate {
                line,
                lines: line..line + 1,
                modules: vec![module],
                flag: None,
            });
        } else if let Some(skip) = flag_skipif(new, line) {
            let guards = guards.get_or_insert_with(|| guarded_imports(new.code));
            if let Some(guard) = guards
                .iter()
                .find(|guard| guard.unset_only_without_modules(skip.flag, skip.none))
            {
                candidates.push(Candidate {
                    line,
                    lines: skip.lines,
                    modules: guard.modules.clone(),
                    flag: Some((skip.flag, guard.lines.clone())),
                });
            }
        }
    }
    candidates.retain(|candidate| {
        candidate
            .modules
            .iter()
            .all(|module| requires(&required, module))
    });
    let on = |at: usize, lines: &Range<usize>| lines.contains(&at);
    // A module may be mentioned where it is imported, in a guard or a skip of it.
    let may_name_a_module = |at: usize| {
        imports(&new.code[at]).is_some()
            || candidates.iter().any(|candidate| {
                on(at, &candidate.lines)
                    || candidate
                        .flag
                        .as_ref()
                        .is_some_and(|(_, guard)| on(at, guard))
            })
    };
    // A flag, in its guard or a skip that reads it.
    let flag_read = |flag: &[u8], guard: &Range<usize>, at: usize| {
        on(at, guard)
            || candidates.iter().any(|candidate| {
                candidate
                    .flag
                    .as_ref()
                    .is_some_and(|(other, _)| *other == flag)
                    && on(at, &candidate.lines)
            })
    };
    let mut forgiven = Vec::new();
    for candidate in &candidates {
        let modules_read = candidate
            .modules
            .iter()
            .all(|module| only_read(new, top(module), may_name_a_module));
        let flag_read = candidate
            .flag
            .as_ref()
            .is_none_or(|(flag, guard)| only_read(new, flag, |at| flag_read(flag, guard, at)));
        if !modules_read || !flag_read {
            continue;
        }
        let mut names: Vec<Vec<u8>> = candidate
            .modules
            .iter()
            .map(|module| top(module).to_vec())
            .collect();
        names.extend(candidate.flag.as_ref().map(|(flag, _)| flag.to_vec()));
        forgiven.push(Forgiven {
            line: candidate.line,
            names,
        });
    }
    forgiven
}

/// A skip that may fire only where modules are missing, as [`python`] weighs it.
struct Candidate<'a> {
    /// The line of its marker.
    line: usize,
    /// The lines of its statement.
    lines: Range<usize>,
    /// The modules whose absence it skips on.
    modules: Vec<&'a [u8]>,
    /// The flag it reads, and the lines of the guard that sets it.
    flag: Option<(&'a [u8], Range<usize>)>,
}

/// The Java `assumeNotNull(name);` lines of `marks` whose `name` is a platform class looked
/// up just above it and nothing else (`Class<?> name = null;`, `try {`,
/// `name = Class.forName("java.awt.Point");`, `} catch (ClassNotFoundException e) {`, `}`),
/// a class the old side imported and used.
pub(super) fn java(old: &Lines<'_>, new: &Lines<'_>, marks: &[usize]) -> Vec<Forgiven> {
    marks
        .iter()
        .filter(|&&line| {
            looked_up_class(new, line).is_some_and(|class| imports_and_uses(old, class))
        })
        .map(|&line| Forgiven {
            line,
            names: Vec::new(),
        })
        .collect()
}

/// The class an `assumeNotNull(name);` on `line` needs, when `name` is only the result of
/// looking the class up, in the lines just above it, as [`java`] reads them.
fn looked_up_class<'a>(new: &Lines<'a>, line: usize) -> Option<&'a [u8]> {
    let squeezed = |code: &[u8]| -> Vec<u8> {
        code.iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect()
    };
    let assume = squeezed(new.code.get(line)?);
    let name = assume
        .strip_prefix(b"Assume.")
        .unwrap_or(&assume)
        .strip_prefix(b"assumeNotNull(")?
        .strip_suffix(b");")?;
    if !is_name(name) {
        return None;
    }
    // The five code lines above it, blank and comment lines aside.
    let above: Vec<usize> = (0..line)
        .rev()
        .filter(|&i| !new.code[i].trim_ascii().is_empty())
        .take(5)
        .collect();
    let [closed, caught, lookup, opened, declared] = above.as_slice() else {
        return None;
    };
    let line_is = |i: usize, parts: &[&[u8]]| squeezed(&new.code[i]) == parts.concat();
    let catches = squeezed(&new.code[*caught]);
    let caught_name = catches
        .strip_prefix(b"}catch(ClassNotFoundException")
        .and_then(|rest| rest.strip_suffix(b"){"));
    let fits = line_is(*declared, &[b"Class<?>", name, b"=null;"])
        && line_is(*opened, &[b"try{"])
        && line_is(*lookup, &[name, b"=Class.forName(\");"])
        && caught_name.is_some_and(is_name)
        && line_is(*closed, &[b"}"]);
    if !fits {
        return None;
    }
    let raw = new.raw.get(*lookup)?;
    let class = string_after(raw, b"Class.forName(")?;
    let platform = class.starts_with(b"java.") || class.starts_with(b"javax.");
    (platform && is_dotted(class)).then_some(class)
}

/// Whether the old side imports `class` (`import java.awt.Point;`) and names it in other
/// code: the file did not compile without it.
fn imports_and_uses(old: &Lines<'_>, class: &[u8]) -> bool {
    let simple = class.rsplit(|&b| b == b'.').next().unwrap_or(class);
    let Ok(simple) = std::str::from_utf8(simple) else {
        return false;
    };
    let mut imported = false;
    let mut used = false;
    for code in old.code {
        let trimmed = code.trim_ascii();
        let import = trimmed
            .strip_prefix(b"import ")
            .and_then(|rest| rest.strip_suffix(b";"))
            .map(<[u8]>::trim_ascii);
        if import == Some(class) {
            imported = true;
        } else if import.is_none() && super::mentions(code, simple) {
            used = true;
        }
    }
    imported && used
}

/// The modules `code` imports unconditionally: `import a.b as c, d` or `from a.b import x`
/// on a line that is not indented.
fn required_modules(code: &[Vec<u8>]) -> Vec<&[u8]> {
    code.iter()
        .filter(|line| !line.first().is_some_and(u8::is_ascii_whitespace))
        .filter_map(|line| imports(line))
        .flat_map(|imports| imports.into_iter().map(|import| import.module))
        .collect()
}

/// Whether one of `required` is `module` or a module inside it (importing `a.b` needs `a`).
fn requires(required: &[&[u8]], module: &[u8]) -> bool {
    required.iter().any(|&known| {
        known == module
            || known
                .strip_prefix(module)
                .is_some_and(|rest| rest.starts_with(b"."))
    })
}

/// The package a module is in (`a` of `a.b`).
fn top(module: &[u8]) -> &[u8] {
    module.split(|&b| b == b'.').next().unwrap_or(module)
}

/// One module an import statement imports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Import<'a> {
    module: &'a [u8],
    /// The name it binds to a module object (`a` for `import a.b`, `c` for
    /// `import a.b as c`); none for `from a import x`, whose `x` may be any value.
    binds: Option<&'a [u8]>,
}

/// The modules a line of code imports, when it is one whole import statement:
/// `import a.b as c, d` or `from a.b import x, y` (not a relative import, a second
/// statement after `;`, or names in brackets that go on below).
fn imports(code: &[u8]) -> Option<Vec<Import<'_>>> {
    let statement = code.trim_ascii();
    if statement.contains(&b';') {
        return None;
    }
    if let Some(rest) = statement.strip_prefix(b"import ") {
        return rest
            .split(|&b| b == b',')
            .map(|part| {
                let words: Vec<&[u8]> = part
                    .split(u8::is_ascii_whitespace)
                    .filter(|w| !w.is_empty())
                    .collect();
                match words.as_slice() {
                    [module] if is_dotted(module) => Some(Import {
                        module,
                        binds: Some(top(module)),
                    }),
                    [module, b"as", alias] if is_dotted(module) && is_name(alias) => Some(Import {
                        module,
                        binds: Some(alias),
                    }),
                    _ => None,
                }
            })
            .collect();
    }
    let rest = statement.strip_prefix(b"from ")?;
    let mut words = rest
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty());
    let module = words.next()?;
    let open = (rest.contains(&b'(') && !rest.contains(&b')')) || rest.ends_with(b"\\");
    (words.next() == Some(b"import") && is_dotted(module) && !open).then(|| {
        vec![Import {
            module,
            binds: None,
        }]
    })
}

/// The module a `pytest.importorskip("M")` statement on `line` needs: the call alone, or
/// bound to one name (`redbaron = pytest.importorskip("redbaron")`), with nothing beside
/// the module's name but a `reason=` (no `minversion=`).
fn importorskip<'a>(new: &Lines<'a>, line: usize) -> Option<&'a [u8]> {
    let code: Vec<u8> = new
        .code
        .get(line)?
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let call = b"pytest.importorskip(\"";
    let at = memchr::memmem::find(&code, call)?;
    let bound = &code[..at];
    let binds = bound.is_empty() || bound.strip_suffix(b"=").is_some_and(is_name);
    let rest = &code[at + call.len()..];
    let only_a_reason = matches!(rest, b")" | b",)" | b",reason=\")" | b",reason=\",)");
    if !binds || !only_a_reason {
        return None;
    }
    let module = string_after(new.raw.get(line)?, b"importorskip(")?;
    is_dotted(module).then_some(module)
}

/// The text of the string literal that opens right after `call` in `raw` (spaces aside),
/// when it is a plain one-line string without escapes (`"java.awt.Point"`, `'pytz'`).
fn string_after<'a>(raw: &'a [u8], call: &[u8]) -> Option<&'a [u8]> {
    let at = memchr::memmem::find(raw, call)?;
    let rest = raw[at + call.len()..].trim_ascii_start();
    let (&quote, text) = rest.split_first()?;
    if !matches!(quote, b'"' | b'\'') || text.first() == Some(&quote) {
        return None;
    }
    let end = text
        .iter()
        .position(|&b| b == quote || b == b'\\' || b == b'\n')?;
    (text[end] == quote).then(|| &text[..end])
}

/// A `pytest.mark.skipif(…)` whose only condition (a `reason=` aside) is a flag being unset:
/// `not flag` or `flag is None`, as code or in a string (`'not has_pytz'`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct FlagSkip<'a> {
    /// The lines of the call.
    lines: Range<usize>,
    flag: &'a [u8],
    /// The condition is `flag is None`.
    none: bool,
}

/// The [`FlagSkip`] that starts on `line`, if the line holds one.
fn flag_skipif<'a>(new: &Lines<'a>, line: usize) -> Option<FlagSkip<'a>> {
    const CALL: &[u8] = b"pytest.mark.skipif(";
    let first = new.code.get(line)?;
    let open = memchr::memmem::find(first, CALL)? + CALL.len();
    if first.contains(&b';') {
        return None;
    }
    // The arguments, up to the bracket that closes the call (within eight lines).
    let mut arguments: Vec<u8> = Vec::new();
    let mut depth = 1_i32;
    let mut end = None;
    'lines: for (i, code) in new.code.iter().enumerate().skip(line).take(8) {
        let from = if i == line { open } else { 0 };
        for &byte in &code[from..] {
            match byte {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = Some(i + 1);
                break 'lines;
            }
            arguments.push(byte);
        }
        arguments.push(b' ');
    }
    let end = end?;
    let parts = top_level_parts(&arguments);
    let (condition, rest) = parts.split_first()?;
    let reason_only = rest.iter().enumerate().all(|(i, part)| {
        let part: Vec<u8> = part
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        part == b"reason=\"" || (part.is_empty() && i + 1 == rest.len())
    });
    if !reason_only {
        return None;
    }
    let condition = condition.trim_ascii();
    let (flag, none) = if condition == b"\"" {
        // A string condition, evaluated in the module's namespace: read it as written.
        let raw = new.raw.get(line)?;
        let before = &raw[..memchr::memmem::find(raw, CALL)?];
        if before.iter().any(|&b| matches!(b, b'"' | b'\'' | b'#')) {
            return None;
        }
        let (flag, none) = unset_flag(string_after(raw, CALL)?)?;
        (flag.to_vec(), none)
    } else {
        let (flag, none) = unset_flag(condition)?;
        (flag.to_vec(), none)
    };
    Some(FlagSkip {
        lines: line..end,
        flag: new_side_name(new, line..end, &flag)?,
        none,
    })
}

/// `flag` as the new side's own bytes (the name found in the call's raw lines).
fn new_side_name<'a>(new: &Lines<'a>, lines: Range<usize>, flag: &[u8]) -> Option<&'a [u8]> {
    let name = std::str::from_utf8(flag).ok()?;
    lines.into_iter().find_map(|i| {
        let raw: &'a [u8] = new.raw.get(i)?;
        super::whole_words(raw, name)
            .next()
            .map(|at| &raw[at..at + flag.len()])
    })
}

/// The flag a condition tests for being unset, and whether it is `flag is None`: `not flag`,
/// `flag is None`.
fn unset_flag(condition: &[u8]) -> Option<(&[u8], bool)> {
    let words: Vec<&[u8]> = condition
        .split(u8::is_ascii_whitespace)
        .filter(|word| !word.is_empty())
        .collect();
    match words.as_slice() {
        [b"not", flag] if is_name(flag) => Some((flag, false)),
        [flag, b"is", b"None"] if is_name(flag) => Some((flag, true)),
        _ => None,
    }
}

/// The parts of a call's arguments (or a list's items) split at the commas outside brackets.
pub(super) fn top_level_parts(arguments: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut depth = 0_i32;
    let mut start = 0;
    for (i, &byte) in arguments.iter().enumerate() {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&arguments[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&arguments[start..]);
    parts
}

/// A module-level `try:` that only imports modules and sets flags (`has_x = True`), with
/// `except` clauses that only unset them (`has_x = False`, `x = None`) and an `else:` that
/// only sets them.
#[derive(Debug, Default)]
struct Guarded<'a> {
    /// Its lines, from `try:` to the end of its last clause.
    lines: Range<usize>,
    /// The modules it imports.
    modules: Vec<&'a [u8]>,
    /// The names set when every import succeeds: flags set to `True`, names bound to a
    /// module object (`import blinker`).
    set: Vec<&'a [u8]>,
    /// Per `except` clause, the names it unsets, and whether to `None`.
    unset: Vec<Vec<(&'a [u8], bool)>>,
}

impl Guarded<'_> {
    /// Whether `flag` is set when the imports succeed and unset (to `None`, for `none`) by
    /// every `except` clause: it is unset exactly when an import failed.
    fn unset_only_without_modules(&self, flag: &[u8], none: bool) -> bool {
        self.set.contains(&flag)
            && !self.unset.is_empty()
            && self.unset.iter().all(|clause| {
                clause
                    .iter()
                    .any(|&(name, is_none)| name == flag && (is_none || !none))
            })
    }
}

/// Which part of a `try:` statement a line is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Clause {
    Try,
    Except,
    Else,
}

/// The module-level `try:` statements of `code` that are [`Guarded`] imports.
fn guarded_imports(code: &[Vec<u8>]) -> Vec<Guarded<'_>> {
    (0..code.len())
        .filter(|&start| code[start].trim_ascii_end() == b"try:")
        .filter_map(|start| guarded_import(code, start))
        .collect()
}

/// The [`Guarded`] import whose `try:` is on line `start`, if it is one.
fn guarded_import(code: &[Vec<u8>], start: usize) -> Option<Guarded<'_>> {
    let mut guard = Guarded {
        lines: start..start + 1,
        ..Guarded::default()
    };
    let mut clause = Clause::Try;
    for (i, line) in code.iter().enumerate().skip(start + 1) {
        let statement = line.trim_ascii();
        if statement.is_empty() {
            continue;
        }
        if line.first().is_some_and(u8::is_ascii_whitespace) {
            guard.add(clause, statement)?;
        } else if statement.starts_with(b"except") && statement.ends_with(b":") {
            clause = Clause::Except;
            guard.unset.push(Vec::new());
        } else if statement == b"else:" && clause == Clause::Except {
            clause = Clause::Else;
        } else if statement.starts_with(b"finally") {
            return None;
        } else {
            break;
        }
        guard.lines.end = i + 1;
    }
    (!guard.modules.is_empty() && !guard.unset.is_empty()).then_some(guard)
}

impl<'a> Guarded<'a> {
    /// Adds a statement of `clause`'s body; `None` for one a guarded import does not hold.
    fn add(&mut self, clause: Clause, statement: &'a [u8]) -> Option<()> {
        match (clause, assignment(statement)) {
            (Clause::Try, None) => {
                for import in imports(statement)? {
                    self.modules.push(import.module);
                    self.set.extend(import.binds);
                }
            }
            (Clause::Try | Clause::Else, Some((name, b"True"))) => self.set.push(name),
            (Clause::Except, Some((name, value @ (b"False" | b"None")))) => {
                self.unset.last_mut()?.push((name, value == b"None"));
            }
            (Clause::Except, None) if statement == b"pass" => {}
            _ => return None,
        }
        Some(())
    }
}

/// `name = value` with a name and a one-word value.
fn assignment(statement: &[u8]) -> Option<(&[u8], &[u8])> {
    let equals = statement.iter().position(|&b| b == b'=')?;
    let (name, value) = (
        statement[..equals].trim_ascii(),
        statement[equals + 1..].trim_ascii(),
    );
    let word = |text: &[u8]| !text.is_empty() && text.iter().all(|&b| is_ident_byte(b));
    (is_name(name) && word(value)).then_some((name, value))
}

/// Whether every mention of `name` in the code-bearing lines of `side` (comment lines
/// aside) is on a line `reads` accepts, or reads an attribute of the module it names
/// (`blinker.signal(…)`, not `x.blinker`). Mentions in strings count: `globals()["has_x"]`.
fn only_read(side: &Lines<'_>, name: &[u8], reads: impl Fn(usize) -> bool) -> bool {
    let Ok(word) = std::str::from_utf8(name) else {
        return false;
    };
    side.raw.iter().enumerate().all(|(i, line)| {
        side.code
            .get(i)
            .is_none_or(|code| code.trim_ascii().is_empty())
            || reads(i)
            || super::whole_words(line, word).all(|at| {
                line.get(at + name.len()) == Some(&b'.')
                    && at.checked_sub(1).and_then(|i| line.get(i)) != Some(&b'.')
            })
    })
}

/// Whether `text` is a Python or Java name (`has_pytz`), not a keyword constant.
fn is_name(text: &[u8]) -> bool {
    !text.is_empty()
        && !text[0].is_ascii_digit()
        && text.iter().all(|&b| is_ident_byte(b))
        && !matches!(text, b"True" | b"False" | b"None" | b"null")
}

/// Whether `text` is a dotted module or class name (`a.b.c`).
fn is_dotted(text: &[u8]) -> bool {
    text.split(|&b| b == b'.').all(is_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(
        syntax: &super::super::lex::Syntax,
        text: &str,
    ) -> (Vec<&'static [u8]>, Vec<Vec<u8>>) {
        let text: &'static str = Box::leak(text.to_owned().into_boxed_str());
        let raw: Vec<&'static [u8]> = text.split_inclusive('\n').map(str::as_bytes).collect();
        let code = super::super::alias::code_lines(syntax, &raw);
        (raw, code)
    }

    /// The lines of `new` forgiven, for an `old` side, over every line that holds a skip.
    fn forgiven_python(old: &str, new: &str) -> Vec<usize> {
        let syntax = &super::super::python::TABLE.syntax;
        let (old_raw, old_code) = lines_of(syntax, old);
        let (new_raw, new_code) = lines_of(syntax, new);
        let marks: Vec<usize> = (0..new_raw.len())
            .filter(|&i| {
                let code = &new_code[i];
                memchr::memmem::find(code, b"skipif").is_some()
                    || memchr::memmem::find(code, b"importorskip").is_some()
            })
            .collect();
        python(
            &Lines {
                raw: &old_raw,
                code: &old_code,
            },
            &Lines {
                raw: &new_raw,
                code: &new_code,
            },
            &marks,
        )
        .into_iter()
        .map(|forgiven| forgiven.line)
        .collect()
    }

    const OLD: &str = "import pytest\nfrom pytz import timezone\nimport redbaron.base\n\n\ndef test_tz():\n    assert timezone('UTC')\n";

    #[test]
    fn importorskip_of_a_module_the_old_side_imported() {
        for new in [
            "import pytest\nredbaron = pytest.importorskip(\"redbaron\")\n",
            "import pytest\npytest.importorskip('pytz', reason=\"tz\")\n",
            "import pytest\n\ndef test_tz():\n    pytest.importorskip(\"pytz\")\n",
            // flask's 96f7b07caf15: the module read through the name it is bound to.
            "import pytest\n# redbaron is optional\nredbaron = pytest.importorskip(\"redbaron\")\n\ndef test_a():\n    red = redbaron.RedBaron(\"x\")\n",
        ] {
            assert_eq!(forgiven_python(OLD, new).len(), 1, "{new}");
        }
        for new in [
            // Not needed before: it may be missing where the tests ran.
            "import pytest\npytest.importorskip(\"nonexistent\")\n",
            // A module inside it was not needed before.
            "import pytest\npytest.importorskip(\"pytz.extra\")\n",
            // A second condition.
            "import pytest\npytest.importorskip(\"pytz\", minversion=\"9\")\n",
            // Bound twice.
            "import pytest\na = b = pytest.importorskip(\"pytz\")\n",
            // Made to fail where it is installed.
            "import pytest, sys\nsys.modules['pytz'] = None\npytest.importorskip(\"pytz\")\n",
        ] {
            assert!(forgiven_python(OLD, new).is_empty(), "{new}");
        }
        // Imported conditionally before.
        for old in [
            "try:\n    import pytz\nexcept ImportError:\n    pytz = None\n",
            "def test_a():\n    import pytz\n",
            "'''\nimport pytz\n'''\n",
        ] {
            assert!(
                forgiven_python(old, "pytest.importorskip(\"pytz\")\n").is_empty(),
                "{old}"
            );
        }
    }

    /// flask's 34050630d679: the import guarded, the tests that need it skipped under the
    /// guard's flag.
    #[test]
    fn skipif_on_the_flag_of_a_guarded_import() {
        let guard = "import pytest\ntry:\n    from pytz import timezone\nexcept ImportError:\n    has_pytz = False\nelse:\n    has_pytz = True\n\n\n";
        for skip in [
            "@pytest.mark.skipif('not has_pytz')\n",
            "@pytest.mark.skipif(not has_pytz, reason=\"pytz is missing\")\n",
            "@pytest.mark.skipif(\n    not has_pytz,\n    reason='no pytz',\n)\n",
        ] {
            let new = format!("{guard}{skip}def test_tz():\n    assert timezone('UTC')\n");
            assert_eq!(forgiven_python(OLD, &new), vec![9], "{new}");
        }
        let module = "import pytest\ntry:\n    import pytz\nexcept ImportError:\n    pytz = None\n\npytestmark = pytest.mark.skipif(pytz is None, reason='x')\n\ndef test_tz():\n    assert pytz.timezone('UTC')\n";
        assert_eq!(forgiven_python(OLD, module), vec![6]);
        for (new, why) in [
            (
                format!("{guard}@pytest.mark.skipif(not has_pytz or True, reason='x')\ndef test_tz():\n    pass\n"),
                "a second condition",
            ),
            (
                format!("{guard}@pytest.mark.skipif(not has_pytz, True)\ndef test_tz():\n    pass\n"),
                "a second positional condition",
            ),
            (
                format!("{guard}has_pytz = False\n@pytest.mark.skipif(not has_pytz, reason='x')\ndef test_tz():\n    pass\n"),
                "the flag bound again",
            ),
            (
                format!("{guard}def setup():\n    global has_pytz\n@pytest.mark.skipif(not has_pytz, reason='x')\ndef test_tz():\n    pass\n"),
                "the flag bound in a function",
            ),
            (
                "import pytest\nHAS_FOO = False\n@pytest.mark.skipif(not HAS_FOO, reason='x')\ndef test_tz():\n    pass\n".to_owned(),
                "a flag of its own",
            ),
            (
                "import pytest\ntry:\n    import nonexistent\nexcept ImportError:\n    has_x = False\nelse:\n    has_x = True\n@pytest.mark.skipif(not has_x, reason='x')\ndef test_tz():\n    pass\n".to_owned(),
                "a module not needed before",
            ),
            (
                "import pytest\ntry:\n    from pytz import timezone\n    has_pytz = True\nexcept ImportError:\n    has_pytz = True\n@pytest.mark.skipif(not has_pytz, reason='x')\ndef test_tz():\n    pass\n".to_owned(),
                "a flag the failure does not unset",
            ),
            (
                "import pytest\ntry:\n    from pytz import timezone\n    has_pytz = True\n    configure()\nexcept ImportError:\n    has_pytz = False\n@pytest.mark.skipif(not has_pytz, reason='x')\ndef test_tz():\n    pass\n".to_owned(),
                "more than imports under try",
            ),
            (
                "import pytest\ntry:\n    from pytz import timezone\nexcept ImportError:\n    timezone = None\n@pytest.mark.skipif(timezone is None, reason='x')\ndef test_tz():\n    pass\n".to_owned(),
                "a name from-imported may be None itself",
            ),
        ] {
            assert!(forgiven_python(OLD, &new).is_empty(), "{why}: {new}");
        }
    }

    #[test]
    fn java_class_looked_up_before_an_assumption() {
        let java = &super::super::jvm::JAVA.syntax;
        let old = "import java.awt.Point;\nclass T {\n  @Test\n  public void t() {\n    String json = gson.toJson(new Point(1, 2));\n  }\n}\n";
        let lookup = |class: &str, catch: &str| {
            format!(
                "class T {{\n  @Test\n  public void t() {{\n    Class<?> pointClass = null;\n    try {{\n      pointClass = Class.forName(\"{class}\");\n    }} catch ({catch} e) {{\n    }}\n    assumeNotNull(pointClass);\n  }}\n}}\n"
            )
        };
        let forgiven = |old: &str, new: &str| {
            let (old_raw, old_code) = lines_of(java, old);
            let (new_raw, new_code) = lines_of(java, new);
            !super::java(
                &Lines {
                    raw: &old_raw,
                    code: &old_code,
                },
                &Lines {
                    raw: &new_raw,
                    code: &new_code,
                },
                &[8],
            )
            .is_empty()
        };
        assert!(forgiven(
            old,
            &lookup("java.awt.Point", "ClassNotFoundException")
        ));
        // Another class, a wider catch, a class the old side did not import or use.
        assert!(!forgiven(
            old,
            &lookup("java.awt.Color", "ClassNotFoundException")
        ));
        assert!(!forgiven(old, &lookup("java.awt.Point", "Exception")));
        assert!(!forgiven(
            "import java.awt.Point;\nclass T {}\n",
            &lookup("java.awt.Point", "ClassNotFoundException")
        ));
        // Not a platform class: its dependency can go with the change.
        let library = "import org.joda.Time;\nclass T {\n  Time t = new Time();\n}\n";
        assert!(!forgiven(
            library,
            &lookup("org.joda.Time", "ClassNotFoundException")
        ));
    }

    #[test]
    fn import_statements() {
        let modules = |code: &str| -> Option<Vec<Vec<u8>>> {
            imports(code.as_bytes()).map(|imports| {
                imports
                    .into_iter()
                    .map(|import| import.module.to_vec())
                    .collect()
            })
        };
        assert_eq!(
            modules("import a.b as c, d"),
            Some(vec![b"a.b".to_vec(), b"d".to_vec()])
        );
        assert_eq!(modules("from a.b import x, y"), Some(vec![b"a.b".to_vec()]));
        assert_eq!(modules("from . import x"), None);
        assert_eq!(modules("import a; import b"), None);
        assert_eq!(modules("from a import (x,"), None);
        assert_eq!(modules("imports = 1"), None);
        assert!(requires(&[b"a.b"], b"a"));
        assert!(!requires(&[b"ab"], b"a"));
        assert!(!requires(&[b"a"], b"a.b"));
    }
}
