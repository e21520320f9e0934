//! Line counts as `git diff --numstat` reports them, and git's binary detection.
//!
//! Pure functions over byte buffers, so that they can be tested without a repository.
//!
//! Counts come from similar's Myers, which bounds its work with heuristics modelled on git's
//! xdiff. Whenever the shortest edit script is found (ordinary commits, including thousands
//! of lines with scattered edits) the counts are git's exactly, since every shortest script
//! has the same counts. When both give up on the shortest script (hundreds of edits across a
//! long file of highly repetitive lines) the two heuristics pick different near-minimal
//! scripts, and the counts can differ from git's by a few percent, in either direction.

use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp};

/// Git looks for a NUL byte in this many leading bytes to call a buffer binary
/// (`FIRST_FEW_BYTES` in git's `xdiff-interface.c`).
const FIRST_FEW_BYTES: usize = 8000;

/// True when git's content sniffing calls `data` binary: a NUL in its first 8000 bytes.
pub(crate) fn buffer_is_binary(data: &[u8]) -> bool {
    data[..data.len().min(FIRST_FEW_BYTES)].contains(&0)
}

/// What the `diff` attribute says about a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DiffAttribute {
    /// Not mentioned: content decides.
    Unspecified,
    /// `diff`: always text, even with NUL bytes.
    Set,
    /// `-diff` (also through the `binary` macro): always binary.
    Unset,
    /// `diff=<driver>`: the driver's `diff.<driver>.binary` setting decides, else content.
    Driver(String),
}

/// Whether the diff of a path is binary, the way git's `diff_filespec_is_binary` decides:
/// the attribute (or its driver's `binary` setting) first, then the content.
pub(crate) fn is_binary(
    attribute: &DiffAttribute,
    driver_binary: Option<bool>,
    data: &[u8],
) -> bool {
    match attribute {
        DiffAttribute::Set => false,
        DiffAttribute::Unset => true,
        DiffAttribute::Driver(_) => driver_binary.unwrap_or_else(|| buffer_is_binary(data)),
        DiffAttribute::Unspecified => buffer_is_binary(data),
    }
}

/// The line diff algorithm, from `diff.algorithm`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum LineAlgorithm {
    /// git's default Myers with its cost heuristics (similar's `Myers` follows them).
    #[default]
    Myers,
    /// `minimal`: the shortest edit script.
    Minimal,
    /// `patience`.
    Patience,
    /// `histogram`.
    Histogram,
}

impl LineAlgorithm {
    /// Parses a `diff.algorithm` value (case-insensitive, as git does).
    pub(crate) fn parse(value: &str) -> Option<Self> {
        match value.to_ascii_lowercase().as_str() {
            "myers" | "default" => Some(Self::Myers),
            "minimal" => Some(Self::Minimal),
            "patience" => Some(Self::Patience),
            "histogram" => Some(Self::Histogram),
            _ => None,
        }
    }

    fn similar(self) -> Algorithm {
        match self {
            // similar's histogram does not fall back to Myers on frequent lines as git's does and
            // then overcounts badly; Myers gives git's histogram counts in every case we test.
            Self::Myers | Self::Histogram => Algorithm::Myers,
            Self::Minimal => Algorithm::RawMyers,
            Self::Patience => Algorithm::Patience,
        }
    }
}

/// How long the shortest-edit-script search of `diff.algorithm=minimal` may run on one file.
/// Its cost grows with the file's length times the number of edits, without bound: git's own
/// `--minimal` needs minutes for a 200,000-line file written in reverse order. Past the
/// deadline similar deletes and inserts what is left to compare, and an edit script that is
/// not the shortest counts at least as many added and at least as many deleted lines as the
/// shortest one, so a limit such as `lines_changed <= 400` can only be failed, never passed,
/// by the fallback. The other algorithms bound their own work (Myers with git's cost
/// heuristics, patience through Myers).
const MINIMAL_DEADLINE: Duration = Duration::from_secs(5);

/// Splits `data` into lines the way xdiff does: each line keeps its `\n`; a last line without
/// one is a line of its own (so `a` and `a\n` differ).
fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::with_capacity(data.len() / 32 + 1);
    let mut start = 0;
    for (index, byte) in data.iter().enumerate() {
        if *byte == b'\n' {
            lines.push(&data[start..=index]);
            start = index + 1;
        }
    }
    if start < data.len() {
        lines.push(&data[start..]);
    }
    lines
}

/// The number of lines of `data`, as [`split_lines`] cuts them.
fn line_count(data: &[u8]) -> usize {
    let newlines = data
        .iter()
        .fold(0, |count, byte| count + usize::from(*byte == b'\n'));
    newlines + usize::from(data.last().is_some_and(|byte| *byte != b'\n'))
}

/// The byte lengths of the longest common prefix and suffix of whole lines of `old` and
/// `new` (the suffix taken from what the prefix leaves). similar's Myers, like git's xdiff,
/// matches them before anything else (and classifies lines only between them), so the
/// counts of what lies between are the counts of the whole; patience looks for unique lines
/// before trimming, so it is given everything.
fn common_lines(old: &[u8], new: &[u8]) -> (usize, usize) {
    let same = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    // Whole lines only: up to the last newline among the equal bytes.
    let prefix = old[..same]
        .iter()
        .rposition(|byte| *byte == b'\n')
        .map_or(0, |newline| newline + 1);
    let (old_rest, new_rest) = (&old[prefix..], &new[prefix..]);
    let same = old_rest
        .iter()
        .rev()
        .zip(new_rest.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    // The suffix starts where a line starts on both sides: after a newline that precedes it
    // on both sides, or at the prefix's end.
    let starts_line = |rest: &[u8], at: usize| at == 0 || rest[at - 1] == b'\n';
    if starts_line(old_rest, old_rest.len() - same) && starts_line(new_rest, new_rest.len() - same)
    {
        return (prefix, same);
    }
    // Else after the first newline inside the equal bytes (the same on both sides).
    let start = old_rest.len() - same;
    let suffix = old_rest[start..]
        .iter()
        .position(|byte| *byte == b'\n')
        .map_or(0, |newline| same - newline - 1);
    (prefix, suffix)
}

/// Lines added and deleted between two text buffers.
pub(crate) fn count_lines(old: &[u8], new: &[u8], algorithm: LineAlgorithm) -> (u64, u64) {
    if old == new {
        return (0, 0);
    }
    let (prefix, suffix) = match algorithm {
        LineAlgorithm::Patience => (0, 0),
        _ => common_lines(old, new),
    };
    let old = &old[prefix..old.len() - suffix];
    let new = &new[prefix..new.len() - suffix];
    if old.is_empty() || new.is_empty() {
        return (line_count(new) as u64, line_count(old) as u64);
    }
    let old_lines = split_lines(old);
    let new_lines = split_lines(new);
    let (mut added, mut deleted) = (0usize, 0usize);
    let deadline = (algorithm == LineAlgorithm::Minimal).then(|| Instant::now() + MINIMAL_DEADLINE);
    for op in
        similar::capture_diff_slices_deadline(algorithm.similar(), &old_lines, &new_lines, deadline)
    {
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete { old_len, .. } => deleted += old_len,
            DiffOp::Insert { new_len, .. } => added += new_len,
            DiffOp::Replace {
                old_len, new_len, ..
            } => {
                deleted += old_len;
                added += new_len;
            }
        }
    }
    (added as u64, deleted as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! counts {
        ($name:ident, $old:expr, $new:expr, $added:expr, $deleted:expr) => {
            #[test]
            fn $name() {
                assert_eq!(
                    count_lines($old, $new, LineAlgorithm::Myers),
                    ($added, $deleted)
                );
            }
        };
    }

    counts!(identical, b"a\nb\n", b"a\nb\n", 0, 0);
    counts!(added_file, b"", b"a\nb\n", 2, 0);
    counts!(deleted_file, b"a\nb\nc", b"", 0, 3);
    counts!(one_line_changed, b"a\nb\nc\n", b"a\nB\nc\n", 1, 1);
    counts!(missing_final_newline_is_a_change, b"a\nb", b"a\nb\n", 1, 1);
    counts!(crlf_is_content, b"a\r\nb\r\n", b"a\nb\r\n", 1, 1);
    counts!(empty_to_empty, b"", b"", 0, 0);
    counts!(insert_in_middle, b"1\n2\n3\n", b"1\n2\nx\ny\n3\n", 2, 0);

    counts!(
        change_in_the_last_line_without_newline,
        b"a\nb\nc",
        b"a\nb\nd",
        1,
        1
    );
    counts!(newline_added_at_the_end, b"a\nb", b"a\nb\n", 1, 1);
    counts!(suffix_inside_a_line, b"xab\nc\n", b"ab\nc\n", 1, 1);
    counts!(prefix_of_the_other, b"a\nb\n", b"a\nb\nc\n", 1, 0);
    counts!(
        repeated_lines_around_an_edit,
        b"x\nx\nx\nx\n",
        b"x\nx\ny\nx\nx\n",
        1,
        0
    );

    /// Trimming whole common lines first gives the counts of diffing everything, for edits
    /// of every shape.
    #[test]
    fn trimming_common_lines_does_not_change_counts() {
        let mut state = 11u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        let pieces: [&[u8]; 6] = [b"a", b"b", b"\n", b"a\n", b"\n\n", b"ab"];
        for _ in 0..5_000 {
            let mut text = |len: u64| -> Vec<u8> {
                (0..len)
                    .flat_map(|_| pieces[usize::try_from(next(6)).unwrap()].to_vec())
                    .collect()
            };
            let (head, middle_a, middle_b, tail) = (text(4), text(3), text(3), text(4));
            let old = [head.clone(), middle_a, tail.clone()].concat();
            let new = [head, middle_b, tail].concat();
            for algorithm in [
                LineAlgorithm::Myers,
                LineAlgorithm::Minimal,
                LineAlgorithm::Patience,
            ] {
                let untrimmed = {
                    let (old_lines, new_lines) = (split_lines(&old), split_lines(&new));
                    let (mut added, mut deleted) = (0, 0);
                    for op in
                        similar::capture_diff_slices(algorithm.similar(), &old_lines, &new_lines)
                    {
                        let (_, old_range, new_range) = op.as_tag_tuple();
                        if !matches!(op, DiffOp::Equal { .. }) {
                            deleted += old_range.len() as u64;
                            added += new_range.len() as u64;
                        }
                    }
                    (added, deleted)
                };
                assert_eq!(
                    count_lines(&old, &new, algorithm),
                    untrimmed,
                    "{algorithm:?}: {:?} -> {:?}",
                    String::from_utf8_lossy(&old),
                    String::from_utf8_lossy(&new)
                );
            }
        }
    }

    #[test]
    fn splits_like_xdiff() {
        assert_eq!(split_lines(b"a\nb"), [&b"a\n"[..], &b"b"[..]]);
        assert_eq!(split_lines(b"a\n\n"), [&b"a\n"[..], &b"\n"[..]]);
        assert!(split_lines(b"").is_empty());
    }

    #[test]
    fn nul_in_the_first_8000_bytes_is_binary() {
        assert!(buffer_is_binary(b"abc\0def"));
        assert!(!buffer_is_binary(b"plain text\n"));
        let mut late = vec![b'a'; FIRST_FEW_BYTES];
        late.push(0);
        assert!(!buffer_is_binary(&late));
        late[FIRST_FEW_BYTES - 1] = 0;
        assert!(buffer_is_binary(&late));
    }

    #[test]
    fn attributes_decide_before_content() {
        let text = b"text\n";
        let nul = b"a\0b";
        assert!(is_binary(&DiffAttribute::Unset, None, text));
        assert!(!is_binary(&DiffAttribute::Set, None, nul));
        assert!(is_binary(&DiffAttribute::Unspecified, None, nul));
        let driver = DiffAttribute::Driver("x".to_owned());
        assert!(is_binary(&driver, Some(true), text));
        assert!(!is_binary(&driver, Some(false), nul));
        assert!(is_binary(&driver, None, nul));
    }

    #[test]
    fn algorithm_names() {
        assert_eq!(
            LineAlgorithm::parse("Histogram"),
            Some(LineAlgorithm::Histogram)
        );
        assert_eq!(LineAlgorithm::parse("default"), Some(LineAlgorithm::Myers));
        assert_eq!(LineAlgorithm::parse("fast"), None);
    }
}
