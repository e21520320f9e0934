//! The staged (or committed) change as plain owned data: what the intent is built from.

use std::collections::BTreeMap;

/// Knobs for [`super::Repository::staged_change`] and [`super::Repository::commit_change`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeOptions {
    /// Compute line counts (reads every changed blob); without it `FileChange::lines` is `None`.
    /// A merge reads the blobs of the paths that differ from every parent either way: they
    /// are compared with the parent they differ from least.
    pub line_counts: bool,
    /// With `line_counts`, also run the test-tampering analysis of each file of a known
    /// language whose sides are regular files, on the blobs and the line diff the counts use
    /// ([`FileChange::tamper`]), so that no blob is read or diffed twice.
    pub tamper: bool,
}

/// A change between a commit (or the index) and its parents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Change {
    /// The changed files, sorted by path.
    pub files: Vec<FileChange>,
    /// The commits the change is judged against, as hex ids: for the staged change `HEAD`
    /// (empty on an unborn branch) followed by every `MERGE_HEAD`; for a commit, its parents.
    pub parents: Vec<String>,
}

impl Change {
    /// The change as reading it with `options` gives it, from one read with everything on:
    /// the line counts and the test-tampering analysis `options` does not ask for dropped.
    #[must_use]
    pub fn keeping(mut self, options: &ChangeOptions) -> Self {
        for file in &mut self.files {
            if !options.line_counts {
                file.lines = None;
            }
            if !(options.line_counts && options.tamper) {
                file.tamper = None;
            }
        }
        self
    }

    /// True when the change concludes a merge (two or more parents); `files` then holds only
    /// the paths whose content differs from every parent.
    pub fn is_merge(&self) -> bool {
        self.parents.len() > 1
    }

    /// Every path the intent lists: each changed path, and both sides of a rename, sorted and
    /// deduplicated.
    ///
    /// Paths are told apart by their bytes, not by their (lossy) text: two files whose names
    /// are not UTF-8 and differ only in the bytes that U+FFFD replaces are two entries, so
    /// that `files_changed` counts every file git commits.
    pub fn modified_paths(&self) -> Vec<String> {
        let mut paths = BTreeMap::new();
        for file in &self.files {
            paths
                .entry(file.raw_path.as_slice())
                .or_insert_with(|| file.path.clone());
            if let (ChangeKind::Renamed { from, .. }, Some(raw_from)) = (&file.kind, &file.raw_from)
            {
                paths
                    .entry(raw_from.as_slice())
                    .or_insert_with(|| from.clone());
            }
        }
        paths.into_values().collect()
    }

    /// Sum of the text line counts, number of binary files and bytes added; `None` when line
    /// counts were not computed.
    pub fn totals(&self) -> Option<Totals> {
        self.totals_without(|_| false)
    }

    /// [`Self::totals`] over the files `excluded` does not leave out.
    pub fn totals_without(&self, excluded: impl Fn(&FileChange) -> bool) -> Option<Totals> {
        let mut totals = Totals::default();
        for file in &self.files {
            let lines = file.lines?;
            if excluded(file) {
                continue;
            }
            match lines {
                LineCount::Text { added, deleted, .. } => {
                    totals.lines_added += added;
                    totals.lines_deleted += deleted;
                }
                LineCount::Binary { .. } => totals.binary_files += 1,
            }
            totals.bytes_added += lines.bytes_added();
        }
        Some(totals)
    }
}

/// Totals over a [`Change`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Text lines added.
    pub lines_added: u64,
    /// Text lines deleted.
    pub lines_deleted: u64,
    /// Files whose diff is binary.
    pub binary_files: u64,
    /// Bytes of the added text lines plus the size of added or changed binary files.
    pub bytes_added: u64,
}

/// One changed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The repository-relative path after the change (`/` separators). Path bytes that are not
    /// UTF-8 are replaced with U+FFFD (lossy): the file is still listed and counted, but its
    /// name may not be byte-exact.
    pub path: String,
    /// `path` as git stores it: the bytes that identify the file when `path` is lossy.
    pub raw_path: Vec<u8>,
    /// For a rename or copy, the source path as git stores it.
    pub raw_from: Option<Vec<u8>>,
    /// What happened to it.
    pub kind: ChangeKind,
    /// The entry before the change (`None` when added).
    pub old: Option<Entry>,
    /// The entry after the change (`None` when deleted).
    pub new: Option<Entry>,
    /// Lines added and deleted, as `git diff --numstat` counts them (only when asked for).
    pub lines: Option<LineCount>,
    /// The test-tampering analysis of the file, when the line counts ran it
    /// ([`ChangeOptions::tamper`]); `None` when it was not run here (it then reads the blobs
    /// itself).
    pub tamper: Option<crate::tamper::FileTamper>,
}

impl FileChange {
    /// True when only the file mode changed (for example `chmod +x`), not the content.
    pub fn is_mode_only(&self) -> bool {
        matches!((&self.old, &self.new), (Some(old), Some(new)) if old.id == new.id && old.mode != new.mode)
    }

    /// The path before the change: the source of a rename, else [`Self::path`].
    pub fn old_path(&self) -> &str {
        match &self.kind {
            ChangeKind::Renamed { from, .. } => from,
            _ => &self.path,
        }
    }
}

/// What happened to a path, as `git diff --name-status` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeKind {
    /// `A`: new path.
    Added,
    /// `M`: content or mode (`chmod +x`, see [`FileChange::is_mode_only`]) changed.
    Modified,
    /// `D`: path removed.
    Deleted,
    /// `R`: moved from `from`, possibly edited.
    Renamed {
        /// The old path.
        from: String,
        /// Similarity in percent (100 for an exact move).
        similarity: u8,
    },
    /// `T`: the entry changed type (file, symlink, submodule).
    TypeChanged,
}

impl ChangeKind {
    /// The one-letter status of `git diff --name-status`.
    pub fn letter(&self) -> char {
        match self {
            Self::Added => 'A',
            Self::Modified => 'M',
            Self::Deleted => 'D',
            Self::Renamed { .. } => 'R',
            Self::TypeChanged => 'T',
        }
    }
}

/// One side of a changed path: what the tree or index holds there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// What kind of entry it is.
    pub mode: EntryMode,
    /// The object id (hex): a blob, or the commit a submodule points at.
    pub id: String,
}

/// The kind of a tree or index entry, with git's mode numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryMode {
    /// A regular file (`100644`).
    File,
    /// An executable file (`100755`).
    Executable,
    /// A symbolic link (`120000`); its content is the link target.
    Symlink,
    /// A submodule (gitlink, `160000`); the id is the commit it points at.
    Submodule,
}

impl EntryMode {
    /// A regular file, executable or not: what has content of its own to analyse.
    pub fn is_regular(self) -> bool {
        matches!(self, Self::File | Self::Executable)
    }

    /// Git's octal mode number.
    pub fn octal(self) -> u32 {
        match self {
            Self::File => 0o100_644,
            Self::Executable => 0o100_755,
            Self::Symlink => 0o120_000,
            Self::Submodule => 0o160_000,
        }
    }

    /// The kind for a (canonical) git mode; `None` for trees and unknown modes.
    pub(crate) fn from_octal(mode: u32) -> Option<Self> {
        match mode {
            0o100_644 => Some(Self::File),
            0o100_755 => Some(Self::Executable),
            0o120_000 => Some(Self::Symlink),
            0o160_000 => Some(Self::Submodule),
            _ => None,
        }
    }
}

/// Lines added and deleted in one file, or binary (git prints `-\t-`), and the bytes it
/// adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineCount {
    /// A text diff.
    Text {
        /// Lines added.
        added: u64,
        /// Lines deleted.
        deleted: u64,
        /// The bytes of the added lines.
        bytes_added: u64,
    },
    /// A binary diff: a NUL byte in the first 8000 bytes of either side (git's rule; no
    /// attribute, driver or size setting changes it).
    Binary {
        /// The size of the new content (0 when the file is deleted).
        bytes_added: u64,
    },
}

impl LineCount {
    /// The bytes the file adds.
    pub fn bytes_added(&self) -> u64 {
        match *self {
            LineCount::Text { bytes_added, .. } | LineCount::Binary { bytes_added } => bytes_added,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, kind: ChangeKind, lines: LineCount) -> FileChange {
        let raw_from = match &kind {
            ChangeKind::Renamed { from, .. } => Some(from.as_bytes().to_vec()),
            _ => None,
        };
        FileChange {
            path: path.to_owned(),
            raw_path: path.as_bytes().to_vec(),
            raw_from,
            kind,
            old: None,
            new: None,
            lines: Some(lines),
            tamper: None,
        }
    }

    #[test]
    fn modified_paths_lists_both_sides_of_renames() {
        let change = Change {
            files: vec![
                file(
                    "b.txt",
                    ChangeKind::Renamed {
                        from: "z.txt".to_owned(),
                        similarity: 100,
                    },
                    LineCount::Text {
                        added: 0,
                        deleted: 0,
                        bytes_added: 0,
                    },
                ),
                file(
                    "c.png",
                    ChangeKind::Added,
                    LineCount::Binary { bytes_added: 300 },
                ),
                file(
                    "b.txt",
                    ChangeKind::Modified,
                    LineCount::Text {
                        added: 2,
                        deleted: 1,
                        bytes_added: 9,
                    },
                ),
            ],
            ..Change::default()
        };
        assert_eq!(change.modified_paths(), ["b.txt", "c.png", "z.txt"]);
        assert_eq!(
            change.totals(),
            Some(Totals {
                lines_added: 2,
                lines_deleted: 1,
                binary_files: 1,
                bytes_added: 309,
            })
        );
        // Files a policy leaves out of the counts are still modified files.
        assert_eq!(
            change.totals_without(|file| file.path == "c.png"),
            Some(Totals {
                lines_added: 2,
                lines_deleted: 1,
                binary_files: 0,
                bytes_added: 9,
            })
        );
    }

    /// Two names that are not UTF-8 and read the same once U+FFFD replaces their invalid bytes
    /// are still two files: `files_changed` must count what git commits.
    #[test]
    fn lossy_names_that_collide_are_still_two_files() {
        let mut change = Change::default();
        for raw in [&b"a\xff.txt"[..], &b"a\xfe.txt"[..], &b"a\xff.txt"[..]] {
            change.files.push(FileChange {
                path: String::from_utf8_lossy(raw).into_owned(),
                raw_path: raw.to_vec(),
                raw_from: None,
                kind: ChangeKind::Modified,
                old: None,
                new: None,
                lines: None,
                tamper: None,
            });
        }
        assert_eq!(change.modified_paths(), ["a\u{fffd}.txt", "a\u{fffd}.txt"]);
    }

    #[test]
    fn totals_need_line_counts() {
        let mut change = Change::default();
        change.files.push(FileChange {
            path: "a".to_owned(),
            raw_path: b"a".to_vec(),
            raw_from: None,
            kind: ChangeKind::Added,
            old: None,
            new: None,
            lines: None,
            tamper: None,
        });
        assert_eq!(change.totals(), None);
    }

    #[test]
    fn keeping_drops_what_the_options_do_not_ask_for() {
        let analysed = FileChange {
            tamper: crate::tamper::analyze_changed_file(
                "tests/t.py",
                "tests/t.py",
                Some(b"def test_a():\n    assert f()\n"),
                Some(b""),
                None,
            ),
            ..file(
                "t.rs",
                ChangeKind::Modified,
                LineCount::Binary { bytes_added: 1 },
            )
        };
        let whole = Change {
            files: vec![analysed.clone()],
            ..Change::default()
        };
        let keep = |line_counts, tamper| {
            let file = &whole
                .clone()
                .keeping(&ChangeOptions {
                    line_counts,
                    tamper,
                })
                .files[0];
            (file.lines.is_some(), file.tamper.is_some())
        };
        assert_eq!(keep(true, true), (true, true));
        assert_eq!(keep(true, false), (true, false));
        // The analysis runs with the counts only.
        assert_eq!(keep(false, true), (false, false));
        assert_eq!(keep(false, false), (false, false));
    }

    #[test]
    fn modes_round_trip() {
        for mode in [
            EntryMode::File,
            EntryMode::Executable,
            EntryMode::Symlink,
            EntryMode::Submodule,
        ] {
            assert_eq!(EntryMode::from_octal(mode.octal()), Some(mode));
        }
        assert_eq!(EntryMode::from_octal(0o40_000), None);
    }
}
