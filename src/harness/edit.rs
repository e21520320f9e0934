//! The content a file-writing tool call would leave, computed in memory the way the harness
//! computes it: Claude Code's `Edit` (`old_string`, `new_string`, `replace_all`), a
//! sequence of them (`MultiEdit`), and Codex's `apply_patch` envelopes.
//!
//! Pure: the caller reads the files and passes their content in. When an edit cannot be
//! applied (its `old_string` is not in the file, or is there more than once without
//! `replace_all`), the harness's tool fails and writes nothing; [`Inapplicable`] says so,
//! and the call is left to the harness.

use std::fmt;

/// Why the harness's tool would fail instead of writing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inapplicable(pub String);

impl fmt::Display for Inapplicable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One `old_string` → `new_string` replacement of Claude Code's `Edit` and `MultiEdit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// The text to find; empty creates a file that does not exist yet.
    pub old: String,
    /// What it becomes.
    pub new: String,
    /// Replace every occurrence instead of exactly one.
    pub all: bool,
}

/// `current` (`None` when the file does not exist) after `edits`, applied one after another
/// to the result of the one before, as `MultiEdit` applies them.
pub fn apply_replacements(
    current: Option<&[u8]>,
    edits: &[Replacement],
) -> Result<Vec<u8>, Inapplicable> {
    if edits.is_empty() {
        return Err(Inapplicable("the call holds no edit".to_owned()));
    }
    let mut text = match current {
        Some(bytes) => Some(
            String::from_utf8(bytes.to_vec())
                .map_err(|_| Inapplicable("the file is not UTF-8 text".to_owned()))?,
        ),
        None => None,
    };
    for edit in edits {
        text = Some(apply_one(text.as_deref(), edit)?);
    }
    Ok(text.unwrap_or_default().into_bytes())
}

fn apply_one(current: Option<&str>, edit: &Replacement) -> Result<String, Inapplicable> {
    if edit.old == edit.new {
        return Err(Inapplicable(
            "`old_string` and `new_string` are the same".to_owned(),
        ));
    }
    if edit.old.is_empty() {
        // An empty `old_string` creates the file (or fills an empty one).
        return match current {
            None | Some("") => Ok(edit.new.clone()),
            Some(_) => Err(Inapplicable(
                "an empty `old_string` only creates a file, and this one has content".to_owned(),
            )),
        };
    }
    let Some(text) = current else {
        return Err(Inapplicable("the file does not exist".to_owned()));
    };
    match text.matches(edit.old.as_str()).count() {
        0 => Err(Inapplicable("`old_string` is not in the file".to_owned())),
        1 => Ok(text.replacen(edit.old.as_str(), &edit.new, 1)),
        _ if edit.all => Ok(text.replace(edit.old.as_str(), &edit.new)),
        count => Err(Inapplicable(format!(
            "`old_string` is in the file {count} times and `replace_all` is not set"
        ))),
    }
}

/// One file operation of an `apply_patch` envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchOp {
    /// `*** Add File: <path>` with its `+` lines.
    Add {
        /// The path as written.
        path: String,
        /// The new file's content.
        content: String,
    },
    /// `*** Delete File: <path>`.
    Delete {
        /// The path as written.
        path: String,
    },
    /// `*** Update File: <path>`, perhaps with `*** Move to: <path>`, and its hunks.
    Update {
        /// The path as written.
        path: String,
        /// Where the file moves, when it does.
        move_to: Option<String>,
        /// The hunks, in order.
        chunks: Vec<Chunk>,
    },
}

/// One `@@` hunk of an update.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chunk {
    /// The line after `@@ `, which the hunk follows, when given.
    pub context: Option<String>,
    /// The lines the hunk expects (context and `-` lines).
    pub old: Vec<String>,
    /// The lines it leaves (context and `+` lines).
    pub new: Vec<String>,
    /// `*** End of File`: the hunk ends at the end of the file.
    pub end_of_file: bool,
}

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

/// Reads an `apply_patch` envelope (`*** Begin Patch` … `*** End Patch`).
pub fn parse_patch(text: &str) -> Result<Vec<PatchOp>, Inapplicable> {
    let lines: Vec<&str> = text.trim().lines().collect();
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
        return Err(Inapplicable("the patch is empty".to_owned()));
    };
    if first.trim() != BEGIN || last.trim() != END || lines.len() < 2 {
        return Err(Inapplicable(format!(
            "the patch does not start with `{BEGIN}` and end with `{END}`"
        )));
    }
    let body = &lines[1..lines.len() - 1];
    let mut ops = Vec::new();
    let mut index = 0;
    while index < body.len() {
        let line = body[index];
        if let Some(path) = line.strip_prefix(ADD) {
            index += 1;
            let mut content = String::new();
            while index < body.len() {
                let Some(added) = body[index].strip_prefix('+') else {
                    break;
                };
                content.push_str(added);
                content.push('\n');
                index += 1;
            }
            ops.push(PatchOp::Add {
                path: path.trim().to_owned(),
                content,
            });
        } else if let Some(path) = line.strip_prefix(DELETE) {
            index += 1;
            ops.push(PatchOp::Delete {
                path: path.trim().to_owned(),
            });
        } else if let Some(path) = line.strip_prefix(UPDATE) {
            index += 1;
            let mut move_to = None;
            if let Some(target) = body.get(index).and_then(|line| line.strip_prefix(MOVE)) {
                move_to = Some(target.trim().to_owned());
                index += 1;
            }
            let mut chunks = Vec::new();
            while index < body.len() && !body[index].starts_with("*** ") {
                let (chunk, used) = parse_chunk(&body[index..], chunks.is_empty())?;
                chunks.push(chunk);
                index += used;
            }
            if chunks.is_empty() {
                return Err(Inapplicable(format!("the update of `{path}` has no hunk")));
            }
            ops.push(PatchOp::Update {
                path: path.trim().to_owned(),
                move_to,
                chunks,
            });
        } else if line.trim().is_empty() {
            index += 1;
        } else {
            return Err(Inapplicable(format!(
                "`{line}` is not a file operation of the patch"
            )));
        }
    }
    if ops.is_empty() {
        return Err(Inapplicable("the patch changes no file".to_owned()));
    }
    Ok(ops)
}

/// One hunk from the start of `lines`, and how many lines it took. The first hunk of an
/// update may leave out its `@@` line.
fn parse_chunk(lines: &[&str], first: bool) -> Result<(Chunk, usize), Inapplicable> {
    let mut chunk = Chunk::default();
    let mut index = 0;
    match lines.first() {
        Some(&"@@") => index = 1,
        Some(line) if line.starts_with("@@ ") => {
            chunk.context = Some(line["@@ ".len()..].to_owned());
            index = 1;
        }
        Some(_) if first => {}
        Some(line) => {
            return Err(Inapplicable(format!(
                "`{line}` does not start a hunk (`@@`)"
            )));
        }
        None => return Err(Inapplicable("a hunk is missing".to_owned())),
    }
    let start = index;
    while index < lines.len() {
        let line = lines[index];
        if line == END_OF_FILE {
            chunk.end_of_file = true;
            index += 1;
            break;
        }
        if line.starts_with("@@") || line.starts_with("*** ") {
            break;
        }
        match line.chars().next() {
            None => {
                chunk.old.push(String::new());
                chunk.new.push(String::new());
            }
            Some(' ') => {
                chunk.old.push(line[1..].to_owned());
                chunk.new.push(line[1..].to_owned());
            }
            Some('-') => chunk.old.push(line[1..].to_owned()),
            Some('+') => chunk.new.push(line[1..].to_owned()),
            Some(_) => {
                return Err(Inapplicable(format!(
                    "`{line}` is not a line of a hunk (it starts with neither ` `, `-` nor `+`)"
                )));
            }
        }
        index += 1;
    }
    if index == start {
        return Err(Inapplicable("a hunk has no lines".to_owned()));
    }
    Ok((chunk, index))
}

/// `current` with the hunks of an update applied, as `apply_patch` applies them: each hunk
/// is looked for after the one before (after its `@@` line when it names one), exactly, then
/// ignoring trailing and then surrounding whitespace; the result ends with a newline.
pub fn apply_chunks(current: &[u8], chunks: &[Chunk]) -> Result<Vec<u8>, Inapplicable> {
    let text = std::str::from_utf8(current)
        .map_err(|_| Inapplicable("the file is not UTF-8 text".to_owned()))?;
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let mut replacements = Vec::new();
    let mut cursor = 0;
    for chunk in chunks {
        if let Some(context) = &chunk.context {
            let found = seek(&lines, std::slice::from_ref(context), cursor, false)
                .ok_or_else(|| Inapplicable(format!("the line `{context}` is not in the file")))?;
            cursor = found + 1;
        }
        if chunk.old.is_empty() {
            replacements.push((lines.len(), 0, chunk.new.clone()));
            continue;
        }
        let mut pattern: &[String] = &chunk.old;
        let mut new: &[String] = &chunk.new;
        let mut found = seek(&lines, pattern, cursor, chunk.end_of_file);
        // A hunk that ends with an empty line also matches without it (the file's end).
        if found.is_none() && pattern.last().is_some_and(String::is_empty) {
            pattern = &pattern[..pattern.len() - 1];
            if new.last().is_some_and(String::is_empty) {
                new = &new[..new.len() - 1];
            }
            found = seek(&lines, pattern, cursor, chunk.end_of_file);
        }
        let start = found.ok_or_else(|| {
            Inapplicable(format!(
                "the lines the hunk expects are not in the file:\n{}",
                chunk.old.join("\n")
            ))
        })?;
        replacements.push((start, pattern.len(), new.to_vec()));
        cursor = start + pattern.len();
    }
    replacements.sort_by_key(|(start, _, _)| *start);
    for (start, length, new) in replacements.into_iter().rev() {
        lines.splice(start..start + length, new);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok(out.into_bytes())
}

/// The first index at or after `from` where `pattern` starts in `lines` (from the end when
/// `at_end`), exactly, then ignoring trailing whitespace, then surrounding whitespace.
fn seek(lines: &[String], pattern: &[String], from: usize, at_end: bool) -> Option<usize> {
    if pattern.len() > lines.len() {
        return None;
    }
    let last = lines.len() - pattern.len();
    let comparisons: [fn(&str, &str) -> bool; 3] = [
        |a, b| a == b,
        |a, b| a.trim_end() == b.trim_end(),
        |a, b| a.trim() == b.trim(),
    ];
    for same in comparisons {
        let matches = |start: usize| {
            pattern
                .iter()
                .zip(&lines[start..])
                .all(|(want, have)| same(have, want))
        };
        if at_end && matches(last) {
            return Some(last);
        }
        if let Some(start) = (from.min(last + 1)..=last).find(|start| matches(*start)) {
            return Some(start);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(old: &str, new: &str, all: bool) -> Replacement {
        Replacement {
            old: old.to_owned(),
            new: new.to_owned(),
            all,
        }
    }

    #[test]
    fn an_edit_replaces_its_one_occurrence() {
        let out = apply_replacements(Some(b"a b c"), &[edit("b", "B", false)]).unwrap();
        assert_eq!(out, b"a B c");
    }

    #[test]
    fn an_ambiguous_edit_fails_unless_replace_all() {
        let err = apply_replacements(Some(b"x x"), &[edit("x", "y", false)]).unwrap_err();
        assert!(err.0.contains("2 times"), "{err}");
        let out = apply_replacements(Some(b"x x"), &[edit("x", "y", true)]).unwrap();
        assert_eq!(out, b"y y");
    }

    #[test]
    fn a_missing_old_string_fails() {
        assert!(apply_replacements(Some(b"abc"), &[edit("z", "y", false)]).is_err());
        assert!(apply_replacements(None, &[edit("z", "y", false)]).is_err());
        assert!(apply_replacements(Some(b"abc"), &[edit("a", "a", false)]).is_err());
    }

    #[test]
    fn an_empty_old_string_creates_a_file() {
        assert_eq!(
            apply_replacements(None, &[edit("", "new\n", false)]).unwrap(),
            b"new\n"
        );
        assert!(apply_replacements(Some(b"old"), &[edit("", "new", false)]).is_err());
    }

    #[test]
    fn multi_edits_apply_in_order() {
        let out = apply_replacements(
            Some(b"one two"),
            &[
                edit("one", "three", false),
                edit("three two", "done", false),
            ],
        )
        .unwrap();
        assert_eq!(out, b"done");
    }

    const PATCH: &str = "*** Begin Patch
*** Add File: new.txt
+hello
+world
*** Update File: src/lib.rs
@@ fn a() {
-    1
+    2
 }
*** Delete File: old.txt
*** End Patch";

    #[test]
    fn a_patch_is_read() {
        let ops = parse_patch(PATCH).unwrap();
        assert_eq!(ops.len(), 3);
        assert_eq!(
            ops[0],
            PatchOp::Add {
                path: "new.txt".to_owned(),
                content: "hello\nworld\n".to_owned()
            }
        );
        let PatchOp::Update { chunks, .. } = &ops[1] else {
            panic!("{ops:?}");
        };
        assert_eq!(chunks[0].context.as_deref(), Some("fn a() {"));
        assert_eq!(chunks[0].old, ["    1", "}"]);
        assert_eq!(chunks[0].new, ["    2", "}"]);
        assert_eq!(
            ops[2],
            PatchOp::Delete {
                path: "old.txt".to_owned()
            }
        );
    }

    #[test]
    fn hunks_apply_after_their_context() {
        let ops = parse_patch(PATCH).unwrap();
        let PatchOp::Update { chunks, .. } = &ops[1] else {
            panic!("{ops:?}");
        };
        let before = b"fn b() {\n    1\n}\nfn a() {\n    1\n}\n";
        let after = apply_chunks(before, chunks).unwrap();
        assert_eq!(after, b"fn b() {\n    1\n}\nfn a() {\n    2\n}\n");
        assert!(apply_chunks(b"nothing here\n", chunks).is_err());
    }

    #[test]
    fn whitespace_is_forgiven_last() {
        let chunk = Chunk {
            context: None,
            old: vec!["x = 1".to_owned()],
            new: vec!["x = 2".to_owned()],
            end_of_file: false,
        };
        assert_eq!(apply_chunks(b"  x = 1  \n", &[chunk]).unwrap(), b"x = 2\n");
    }

    #[test]
    fn malformed_patches_are_refused() {
        assert!(parse_patch("").is_err());
        assert!(parse_patch("*** Begin Patch\n*** End Patch").is_err());
        assert!(parse_patch("*** Begin Patch\nrm -rf /\n*** End Patch").is_err());
        assert!(parse_patch("*** Begin Patch\n*** Update File: a\n*** End Patch").is_err());
    }
}
