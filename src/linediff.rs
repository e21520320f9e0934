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
    old: &'a [u8],
    new: &'a [u8],
    input: InternedInput<&'a [u8]>,
    diff: Diff,
}

impl<'a> LineDiff<'a> {
    /// Splits `old` and `new` into lines and diffs them.
    pub fn new(old: &'a [u8], new: &'a [u8]) -> Self {
        let input = InternedInput::new(old, new);
        let mut diff = Diff::compute(Algorithm::Myers, &input);
        // Where a block of changed lines could sit a line higher or lower (its first line
        // the same as the line after it), put it where git does: its indent heuristic, on
        // by default. The counts stay the same; which lines are the changed ones is what
        // the test-tampering analysis reads (a decorator added above a new class, not the
        // same decorator of the test below it).
        diff.postprocess_lines(&input);
        Self {
            old,
            new,
            input,
            diff,
        }
    }

    /// The lines of the old side, each a slice of the old buffer where it is.
    pub fn old_lines(&self) -> Vec<&'a [u8]> {
        self.lines(self.old, &self.input.before)
    }

    /// The lines of the new side, each a slice of the new buffer where it is.
    pub fn new_lines(&self) -> Vec<&'a [u8]> {
        self.lines(self.new, &self.input.after)
    }

    /// The lines of `side` where they are: the interner keeps one copy of equal lines, so
    /// an interned line may be its twin elsewhere, on this side or the other, and what reads
    /// on below a line (a statement over lines) needs the line's own place. The diff splits
    /// as [`split_lines`] does; should the two ever disagree, the interned lines.
    fn lines(&self, side: &'a [u8], tokens: &[gix_imara_diff::Token]) -> Vec<&'a [u8]> {
        let lines = split_lines(side);
        if lines.len() == tokens.len() {
            debug_assert!(
                lines
                    .iter()
                    .zip(tokens)
                    .all(|(line, token)| *line == self.input.interner[*token])
            );
            return lines;
        }
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

/// Splits `data` into lines that keep their `\n` (a last line without one is a line too),
/// as git's line diff sees them.
pub fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::with_capacity(data.len() / 32 + 1);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', data) {
        lines.push(&data[start..=end]);
        start = end + 1;
    }
    if start < data.len() {
        lines.push(&data[start..]);
    }
    lines
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

    #[test]
    fn a_block_that_could_slide_sits_where_git_puts_it() {
        // `git diff` adds lines 4–7 (a new decorated test above the old one), not 3–6 (which
        // would read as the old test's decorator added).
        let old = "class A:\n    def test_a(self):\n        pass\n\n    @skip\n    def test_b(self):\n        pass\n";
        let new = "class A:\n    def test_a(self):\n        pass\n\n    @skip\n    def test_n(self):\n        pass\n\n    @skip\n    def test_b(self):\n        pass\n";
        let diff = LineDiff::new(old.as_bytes(), new.as_bytes());
        assert_eq!(diff.hunks().collect::<Vec<_>>(), [(4..4, 4..8)]);
        assert_eq!((diff.removed(), diff.added()), (0, 4));
    }

    /// Equal lines are each in their own place, not their twin's.
    #[test]
    fn lines_are_where_they_are() {
        let (old, new) = (&b"x\na\nx\n"[..], &b"x\nb\nx\n"[..]);
        let diff = LineDiff::new(old, new);
        for (side, lines) in [(old, diff.old_lines()), (new, diff.new_lines())] {
            let at: Vec<usize> = lines
                .iter()
                .map(|line| line.as_ptr() as usize - side.as_ptr() as usize)
                .collect();
            assert_eq!(at, [0, 2, 4]);
        }
    }
}
