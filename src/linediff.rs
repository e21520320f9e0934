//! git's line diff of two buffers: Myers with xdiff's preprocessing and heuristics, as
//! `gix-imara-diff` ports it. The line counts and the test-tampering analysis both read it,
//! so a pair of blobs is split into lines and diffed once for both.
//!
//! Lines keep their `\n`; a last line without one is a line of its own (so `a` and `a\n`
//! differ), as git's xdiff sees them.

use std::ops::Range;

use gix_imara_diff::{Algorithm, Diff, InternedInput};

/// Two buffers split into lines and diffed.
pub struct LineDiff<'a> {
    input: InternedInput<&'a [u8]>,
    diff: Diff,
}

impl<'a> LineDiff<'a> {
    /// Splits `old` and `new` into lines and diffs them.
    pub fn new(old: &'a [u8], new: &'a [u8]) -> Self {
        let input = InternedInput::new(old, new);
        let diff = Diff::compute(Algorithm::Myers, &input);
        Self { input, diff }
    }

    /// The lines of the old side.
    pub fn old_lines(&self) -> Vec<&'a [u8]> {
        self.lines(&self.input.before)
    }

    /// The lines of the new side.
    pub fn new_lines(&self) -> Vec<&'a [u8]> {
        self.lines(&self.input.after)
    }

    fn lines(&self, tokens: &[gix_imara_diff::Token]) -> Vec<&'a [u8]> {
        tokens
            .iter()
            .map(|token| self.input.interner[*token])
            .collect()
    }

    /// Lines removed from the old side.
    pub fn removed(&self) -> u32 {
        self.diff.count_removals()
    }

    /// Lines added on the new side.
    pub fn added(&self) -> u32 {
        self.diff.count_additions()
    }

    /// The bytes of the added lines, their newlines included.
    pub fn bytes_added(&self) -> u64 {
        self.input
            .after
            .iter()
            .enumerate()
            .filter(|(position, _)| {
                u32::try_from(*position).is_ok_and(|position| self.diff.is_added(position))
            })
            .map(|(_, token)| self.input.interner[*token].len() as u64)
            .sum()
    }

    /// The changed regions in order, as line index ranges of each side: between two of them
    /// (and before the first, after the last) as many lines are unchanged on both sides.
    pub fn hunks(&self) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + '_ {
        let index = |at: u32| usize::try_from(at).unwrap_or(usize::MAX);
        self.diff.hunks().map(move |hunk| {
            (
                index(hunk.before.start)..index(hunk.before.end),
                index(hunk.after.start)..index(hunk.after.end),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_newline_and_a_last_line_without_one() {
        let diff = LineDiff::new(b"a\nb\nc", b"a\nc\nd\n");
        assert_eq!(diff.old_lines(), [&b"a\n"[..], b"b\n", b"c"]);
        assert_eq!(diff.new_lines(), [&b"a\n"[..], b"c\n", b"d\n"]);
        assert_eq!(
            (diff.removed(), diff.added(), diff.bytes_added()),
            (2, 2, 4)
        );
        assert_eq!(diff.hunks().collect::<Vec<_>>(), [(1..3, 1..3)]);
    }
}
