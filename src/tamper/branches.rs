//! Alternatives: the branches of an `if` / `elif` / `else` chain. A run takes one branch,
//! so the checks written in two branches are one check a run makes, not two. A change that
//! takes the chain away and keeps one branch's check (`if verbose: assert A` / `else:
//! assert B` made `assert B`) removes no check a run made.
//!
//! Chains are found by indentation, as the code is laid out (Python's own rule; brace
//! languages as their formatters write them): the `if` line, each `elif` / `else` line at
//! the same indentation, the bodies indented deeper, and for a brace language the closing
//! `}` at that indentation. Lines that start inside a string or a comment are body. Only a
//! chain whose conditions read what stays the same for a run (the platform, a version, the
//! run's options) and that no loop holds runs one branch a run ([`run_constant`],
//! [`in_a_loop`]); the caller also leaves out a chain with a check in a condition.

use std::ops::Range;

use super::indentation;
use super::lex::{self, State, Syntax};

/// The chains the changed `else` lines of a side belong to, each as its branches' line
/// ranges (header included), when the chain's `if` line and all its `elif` / `else` lines
/// are `changed`. `python` reads Python's layout (`else:` / `elif`), otherwise a brace
/// language's (`} else {`, `else if (…)`, `}` closing the chain).
pub(crate) fn changed_chains(
    syntax: &Syntax,
    lines: &[&[u8]],
    changed: impl Fn(usize) -> bool,
    python: bool,
) -> Vec<Vec<Range<usize>>> {
    let elses: Vec<usize> = (0..lines.len())
        .filter(|&at| changed(at) && is_branch(lines[at], python))
        .collect();
    if elses.is_empty() {
        return Vec::new();
    }
    let code = code_lines(syntax, lines);
    let mut chains: Vec<Vec<Range<usize>>> = Vec::new();
    // Every chain read, taken or not: each of its `else` lines is read once (an `elif`
    // ladder of thousands is one walk, not one per line).
    let mut seen: Vec<Range<usize>> = Vec::new();
    for at in elses {
        if !code[at] || seen.iter().any(|span| span.contains(&at)) {
            continue;
        }
        let Some(chain) = chain_at(lines, &code, at, python) else {
            continue;
        };
        let (Some(first), Some(last)) = (chain.first(), chain.last()) else {
            continue;
        };
        seen.push(first.start..last.end);
        if chain.iter().all(|branch| changed(branch.start))
            && chain
                .iter()
                .filter(|branch| !is_else_alone(lines[branch.start], python))
                .all(|branch| run_constant(lines[branch.start]))
            && !in_a_loop(lines, &code, first.start)
        {
            chains.push(chain);
        }
    }
    chains
}

/// Whether each line starts in code (not inside a string or a block comment).
fn code_lines(syntax: &Syntax, lines: &[&[u8]]) -> Vec<bool> {
    lex::start_states(syntax, lines, lines.len())
        .into_iter()
        .map(|state| state == State::Code)
        .collect()
}

fn word_at(code: &[u8], word: &[u8]) -> bool {
    code.strip_prefix(word).is_some_and(|rest| {
        rest.first()
            .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
    })
}

/// An `elif` / `else` line (Python), or an `else` line of a brace language (`} else {`,
/// `} else if (x) {`, `else {`).
fn is_branch(line: &[u8], python: bool) -> bool {
    let code = line.trim_ascii();
    if python {
        word_at(code, b"elif") || code.starts_with(b"else:") || code.starts_with(b"else :")
    } else {
        let code = code
            .strip_prefix(b"}")
            .map_or(code, <[u8]>::trim_ascii_start);
        word_at(code, b"else")
    }
}

/// A plain `else` line (no condition of its own).
fn is_else_alone(line: &[u8], python: bool) -> bool {
    let code = line.trim_ascii();
    let code = code
        .strip_prefix(b"}")
        .map_or(code, <[u8]>::trim_ascii_start);
    if python {
        code.starts_with(b"else")
    } else {
        code.strip_prefix(b"else")
            .is_some_and(|rest| !word_at(rest.trim_ascii_start(), b"if"))
    }
}

/// Whether a branch's condition reads what stays the same for a whole run: the platform,
/// the language's or a library's version, the run's own options or environment
/// (`sys.platform == "win32"`, `sys.version_info < (3, 8)`, `PY2`, `cfg!(windows)`,
/// `JavaVersion.isJava9OrLater()`, `verbose > 0`, `process.platform`). Only such a chain
/// runs one branch in a run; a condition on a loop's variable, a parameter or a value the
/// test computes may run every branch (helper-65's attack-57 N2-N4, J1-J3). Read by the
/// condition's words (up to the header's `:` or `{`), whole: `version` or `has_errors()`
/// are any value's names (helper-69's review).
fn run_constant(line: &[u8]) -> bool {
    // Dotted names and calls, matched on the condition with blanks taken out.
    const PATHS: &[&str] = &[
        "sys.platform",
        "sys.version",
        "sys.implementation",
        "sys.flags",
        "platform.",
        "os.name",
        "os.environ",
        "os.getenv",
        "process.platform",
        "process.env",
        "process.version",
        "runtime.goos",
        "runtime.goarch",
        "cfg!(",
        "javaversion.",
        "build.version",
        "getoption(",
        "config.option",
        "six.py",
    ];
    // Whole words, as constants are named.
    const WORDS: &[&str] = &[
        "py2",
        "py3",
        "py26",
        "py27",
        "py35",
        "py36",
        "py37",
        "py38",
        "py39",
        "pypy",
        "is_pypy",
        "jython",
        "is_jython",
        "ironpython",
        "windows",
        "is_windows",
        "win32",
        "iswindows",
        "is_win",
        "macos",
        "is_macos",
        "darwin",
        "linux",
        "is_linux",
        "verbose",
        "verbosity",
    ];
    let code = line.trim_ascii();
    let condition = match code.iter().position(|&b| b == b'{') {
        Some(open) if !code.starts_with(b"elif") => &code[..open],
        _ => code.split(|&b| b == b':').next().unwrap_or(code),
    };
    let words = String::from_utf8_lossy(condition).to_ascii_lowercase();
    let joined: String = words.chars().filter(|c| !c.is_whitespace()).collect();
    PATHS.iter().any(|path| joined.contains(path))
        || words
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| WORDS.contains(&word))
}

/// Whether a branch's header line holds its body too (`if win: assert f() == 1`, `} else {
/// assert!(x); }`): a check on it may be the body's, not the condition's.
pub(crate) fn body_on_header(line: &[u8]) -> bool {
    let (mut depth, mut quote) = (0_i64, None);
    for (i, &b) in line.iter().enumerate() {
        match (quote, b) {
            (Some(q), b) if b == q => quote = None,
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'(' | b'[') => depth += 1,
            (None, b')' | b']') => depth -= 1,
            (None, b':' | b'{') if depth == 0 => {
                let rest = line[i + 1..].trim_ascii();
                return !rest.is_empty() && !rest.starts_with(b"#") && rest != b"}";
            }
            _ => {}
        }
    }
    false
}

/// Whether the line at `at` is inside a loop: a `for` or `while` above it, indented less,
/// before the function it is in.
fn in_a_loop(lines: &[&[u8]], code: &[bool], at: usize) -> bool {
    let mut own = indentation(lines[at]);
    for above in (0..at).rev() {
        let line = lines[above];
        if !code[above] || line.trim_ascii().is_empty() || indentation(line) >= own {
            continue;
        }
        own = indentation(line);
        let trimmed = line.trim_ascii_start();
        if word_at(trimmed, b"for")
            || word_at(trimmed, b"while")
            || trimmed.starts_with(b"async for")
        {
            return true;
        }
        if word_at(trimmed, b"def")
            || word_at(trimmed, b"fn")
            || word_at(trimmed, b"function")
            || own == 0
        {
            return false;
        }
    }
    false
}

/// An `if` line that opens a chain.
fn is_if(line: &[u8]) -> bool {
    word_at(line.trim_ascii(), b"if")
}

/// The chain the branch line `at` is part of, as its branches' ranges.
fn chain_at(lines: &[&[u8]], code: &[bool], at: usize, python: bool) -> Option<Vec<Range<usize>>> {
    let own = indentation(lines[at]);
    let blank = |i: usize| {
        let text = lines[i].trim_ascii();
        !code[i] || text.is_empty() || text.starts_with(b"#") || text.starts_with(b"//")
    };
    let mut heads = vec![at];
    // Up to the `if`, through the bodies and the branches above.
    let mut i = at;
    loop {
        i = i.checked_sub(1)?;
        if blank(i) || indentation(lines[i]) > own {
            continue;
        }
        if indentation(lines[i]) < own {
            return None;
        }
        let line = lines[i];
        if is_branch(line, python) {
            heads.push(i);
        } else if is_if(line) {
            heads.push(i);
            break;
        } else if !python && line.trim_ascii() == b"}" {
            // `}` above `else {` on the next line.
        } else {
            return None;
        }
    }
    heads.sort_unstable();
    // Down to the chain's end, through the branches below.
    let mut end = lines.len();
    let mut i = at + 1;
    while i < lines.len() {
        if blank(i) || indentation(lines[i]) > own {
            i += 1;
            continue;
        }
        if indentation(lines[i]) < own {
            end = i;
            break;
        }
        if is_branch(lines[i], python) {
            heads.push(i);
        } else if !python && lines[i].trim_ascii().starts_with(b"}") {
            if lines
                .get(i + 1)
                .is_some_and(|next| is_branch(next, python) && indentation(next) == own)
            {
                i += 1;
                continue;
            }
            end = i + 1;
            break;
        } else {
            end = i;
            break;
        }
        i += 1;
    }
    let mut branches: Vec<Range<usize>> = heads.windows(2).map(|pair| pair[0]..pair[1]).collect();
    branches.push(*heads.last()?..end);
    Some(branches)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chains(text: &str, changed: &[usize], python: bool) -> Vec<Vec<Range<usize>>> {
        let syntax = if python {
            crate::tamper::python::TABLE.syntax
        } else {
            crate::tamper::rust::TABLE.syntax
        };
        let lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
        changed_chains(&syntax, &lines, |at| changed.contains(&at), python)
    }

    #[test]
    fn python_chains() {
        let text = "def test_x():\n    if sys.version_info > (3,):\n        assert a == 1\n    elif PY2:\n        assert a == 2\n    else:\n        assert a == 3\n    assert b\n";
        assert_eq!(
            chains(text, &[1, 2, 3, 4, 5, 6], true),
            vec![vec![1..3, 3..5, 5..7]]
        );
        // The `if` kept: the chain is not taken away.
        assert!(chains(text, &[3, 4, 5, 6], true).is_empty());
        // An `else` of a `for` or `try` opens no chain of alternatives.
        let text = "for x in y:\n    assert x\nelse:\n    assert z\n";
        assert!(chains(text, &[0, 1, 2, 3], true).is_empty());
        // A condition on a value that changes in a run may run every branch, whatever the
        // names (helper-69's review: `version`, a parameter `conversion`, `has_errors()`).
        for text in [
            "for i in range(2):\n    if i == 0:\n        assert a == 1\n    else:\n        assert a == 2\n",
            "for version in (1, 2):\n    if version == 1:\n        assert a == 1\n    else:\n        assert a == 2\n",
            "def test_x(conversion):\n    if conversion:\n        assert a == 1\n    else:\n        assert a == 2\n",
            "def test_x():\n    if r.has_errors():\n        assert a == 1\n    else:\n        assert a == 2\n",
            "def test_x():\n    for p in ps:\n        if sys.platform == p:\n            assert a == 1\n        else:\n            assert a == 2\n",
        ] {
            let lines = text.lines().count();
            let all: Vec<usize> = (0..lines).collect();
            assert!(chains(text, &all, true).is_empty(), "{text}");
        }
        assert!(body_on_header(b"    if win: assert f() == 1"));
        assert!(!body_on_header(b"    if self.assertEqual(f(), 1):"));
    }

    #[test]
    fn brace_chains() {
        let text = "fn t() {\n    if cfg!(windows) {\n        assert_eq!(a, 1);\n    } else {\n        let e = \"\\\nx\n\";\n        assert_eq!(a, 2);\n    }\n    done();\n}\n";
        assert_eq!(
            chains(text, &[1, 2, 3, 4, 5, 6, 7, 8], false),
            vec![vec![1..3, 3..9]]
        );
    }
}
