//! Line counts as `git diff --numstat` reports them with git's default settings, and git's
//! binary detection.
//!
//! Pure functions over byte buffers, so that they can be tested without a repository.
//!
//! The counts are facts nothing the actor configures may lower, so they are always computed
//! the one way: git's default Myers diff over the whole files, as `gix-imara-diff` implements
//! it (a port of git's xdiff, with its preprocessing of lines that occur only in one file or
//! too often in the other, and its cost heuristics). Anything else changes which lines
//! xdiff's preprocessing discards, and with them the counts of long or repetitive files:
//! trimming common lines first, another Myers, or the common tail that git's `xdi_diff`
//! trims only without context lines (`-U0`, `diff.context=0`) — `--numstat` diffs with
//! git's default three.

use crate::linediff::LineDiff;

/// Git looks for a NUL byte in this many leading bytes to call a buffer binary
/// (`FIRST_FEW_BYTES` in git's `xdiff-interface.c`).
const FIRST_FEW_BYTES: usize = 8000;

/// True when git's content sniffing calls `data` binary: a NUL in its first 8000 bytes.
pub(crate) fn buffer_is_binary(data: &[u8]) -> bool {
    data[..data.len().min(FIRST_FEW_BYTES)].contains(&0)
}

/// What a text pair adds and deletes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TextCount {
    /// Lines added.
    pub added: u64,
    /// Lines deleted.
    pub deleted: u64,
    /// The bytes of the added lines (their newlines included).
    pub bytes_added: u64,
}

/// The number of lines of `data`: each ends at a `\n`, and a last line without one is a line
/// of its own (so `a` and `a\n` differ).
fn line_count(data: &[u8]) -> u64 {
    let newlines = memchr::memchr_iter(b'\n', data).count() as u64;
    newlines + u64::from(data.last().is_some_and(|byte| *byte != b'\n'))
}

/// Lines added and deleted between two text buffers, and the bytes of the added lines.
#[cfg(test)]
pub(crate) fn count_lines(old: &[u8], new: &[u8]) -> TextCount {
    count_lines_and_diff(old, new).0
}

/// [`count_lines`], with the line diff the counts come from (none when the buffers are equal
/// or one is empty: nothing to align).
pub(crate) fn count_lines_and_diff<'a>(
    old: &'a [u8],
    new: &'a [u8],
) -> (TextCount, Option<LineDiff<'a>>) {
    if old == new {
        return (TextCount::default(), None);
    }
    if old.is_empty() || new.is_empty() {
        let count = TextCount {
            added: line_count(new),
            deleted: line_count(old),
            bytes_added: new.len() as u64,
        };
        return (count, None);
    }
    let diff = LineDiff::new(old, new);
    let count = TextCount {
        added: u64::from(diff.added()),
        deleted: u64::from(diff.removed()),
        bytes_added: diff.bytes_added(),
    };
    (count, Some(diff))
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! counts {
        ($name:ident, $old:expr, $new:expr, $added:expr, $deleted:expr) => {
            #[test]
            fn $name() {
                let count = count_lines($old, $new);
                assert_eq!((count.added, count.deleted), ($added, $deleted));
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
    counts!(suffix_inside_a_line, b"xab\nc\n", b"ab\nc\n", 1, 1);
    counts!(prefix_of_the_other, b"a\nb\n", b"a\nb\nc\n", 1, 0);
    counts!(
        repeated_lines_around_an_edit,
        b"x\nx\nx\nx\n",
        b"x\nx\ny\nx\nx\n",
        1,
        0
    );
    // Carriage returns alone do not end lines, for git or for astrix.
    counts!(cr_only_is_one_line, b"", b"a;\rb;\rc;\r", 1, 0);

    /// Pairs whose counts depend on xdiff's preprocessing and heuristics, taken from real
    /// commits where a Myers other than git's disagreed with `git diff --numstat`. The
    /// expected counts are git's (`git diff --no-index --numstat OLD NEW`, git 2.47).
    #[test]
    fn counts_are_gits_where_other_diffs_disagree() {
        let fixture = |name: &str| {
            let path = format!(
                "{}/tests/fixtures/numstat/{name}",
                env!("CARGO_MANIFEST_DIR")
            );
            std::fs::read(&path).unwrap_or_else(|err| panic!("{path}: {err}"))
        };
        for (case, added, deleted) in [
            // Lines that occur many times in the other file, among unmatched lines, are
            // discarded before the diff (the cut-off is the square root of the file's
            // line count): `similar` matched one and counted 3 and 7.
            ("A-repetitive", 4, 8),
            // More than 256 edits: similar gave up on the shortest script differently.
            ("B-heuristic", 477, 36),
            // Trimming common lines before the diff changes the cut-off above.
            ("C-pretrim", 1, 55),
        ] {
            let count = count_lines(
                &fixture(&format!("{case}.old")),
                &fixture(&format!("{case}.new")),
            );
            assert_eq!((count.added, count.deleted), (added, deleted), "{case}");
        }
    }

    #[test]
    fn bytes_added_are_the_added_lines() {
        let count = count_lines(b"a\nb\n", b"a\nlonger line\nb\ntail");
        assert_eq!((count.added, count.deleted), (2, 0));
        assert_eq!(
            count.bytes_added,
            ("longer line\n".len() + "tail".len()) as u64
        );
        let one_long_line = vec![b'x'; 67_000];
        let count = count_lines(b"", &one_long_line);
        assert_eq!((count.added, count.bytes_added), (1, 67_000));
        assert_eq!(count_lines(b"a\n", b"").bytes_added, 0);
    }

    /// A common tail of whole 1 KiB blocks is diffed with everything else: git trims it only
    /// without context lines (`-U0`), and `--numstat` runs with three.
    #[test]
    fn the_common_tail_is_diffed_as_numstat_diffs_it() {
        let mut common = Vec::new();
        for i in 0..9 {
            common.extend_from_slice(format!("{i:03}").as_bytes());
            common.extend_from_slice(&[b'x'; 117]);
            common.extend_from_slice(b"\n\n");
        }
        let old = [&b"\n\n\n"[..], &common].concat();
        let new = [&b"a1\na2\na3\na4\n\nb1\nb2\nb3\nb4\n"[..], &common].concat();
        // git 2.47: `--numstat` gives 9 and 3; `-U0 --numstat`, which trims, 8 and 2.
        let count = count_lines(&old, &new);
        assert_eq!((count.added, count.deleted, count.bytes_added), (9, 3, 25));
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
}
