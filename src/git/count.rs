//! Line counts for the pairs of a change, on two threads when there are enough of them.
//!
//! Reading the blobs (mostly inflating them) and diffing their lines is most of what
//! `astrix check` does for an ordinary commit, and each pair is independent of the others.
//! The calling thread keeps everything that needs the repository's own handles (error
//! reporting); a second thread opens the object database again
//! ([`DetachedBlobs`]) and counts pairs from the other end of the list. What it cannot read
//! is counted again on the calling thread, so errors and their order are those of counting
//! one pair after the other.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use gix::bstr::BStr;

use super::Content;
use super::EntryMode;
use super::change::LineCount;
use super::error::GitError;
use super::lines;
use super::rename::Pair;
use super::tree::{BlobSource, DetachedBlobs, Item};
use crate::linediff::LineDiff;
use crate::tamper::{self, FileTamper};

/// Below this many pairs, a second thread costs about what it saves: starting it and
/// opening the object database again take about a millisecond on a small virtual machine,
/// about what 100 pairs of 30-line files cost to count (measured with `benches/gate.py` and
/// `perf stat`: 107 pairs were no faster, 260 pairs 15% faster, 20,000 pairs twice as fast).
const PARALLEL_MIN_PAIRS: usize = 256;

/// How many pairs [`pipelined`] reads ahead of the one being diffed.
const PIPELINE_AHEAD: usize = 2;

/// A pair larger than this (both sides) is measured by the thread that read it: what
/// [`pipelined`] holds at once stays a few megabytes beyond the pair being counted.
const PIPELINE_MAX_BYTES: usize = 4 * 1024 * 1024;

/// The second thread's stack: the 8 MiB a main thread has on Linux (reserved, not used).
const WORKER_STACK: usize = 8 * 1024 * 1024;

/// A pair to count: the entries of its sides (`None`: absent).
#[derive(Debug, Clone)]
pub(super) struct Job {
    pub(super) old: Option<Item>,
    pub(super) new: Option<Item>,
    /// The file's path and old path, when the test-tampering analysis runs on the pair here
    /// (see [`Self::measure`]).
    pub(super) tamper: Option<(String, String)>,
}

impl Job {
    /// A job for `pair`; with `tamper`, one that also analyses the pair for test tampering
    /// when its sides are regular files (or absent), so that [`Self::measure`] sees exactly
    /// the content the tampering analysis of a change reads for it.
    pub(super) fn new(pair: &Pair, tamper: bool) -> Self {
        let (old, new) = (
            pair.old.as_ref().map(|(_, item)| *item),
            pair.new.as_ref().map(|(_, item)| *item),
        );
        let regular = [old, new]
            .iter()
            .flatten()
            .all(|item| super::entry(*item).mode.is_regular());
        let tamper = (tamper && regular)
            .then(|| super::analysed_paths(pair))
            .flatten();
        Self { old, new, tamper }
    }

    /// [`Self::count`], and the test-tampering analysis of the pair when the job runs it, on
    /// the same buffers and, for text, the same line diff.
    pub(super) fn measure(&self, old: &[u8], new: &[u8]) -> (LineCount, Option<FileTamper>) {
        let (count, diff) = self.count_and_diff(old, new);
        let tamper = self.tamper.as_ref().and_then(|(path, old_path)| {
            tamper::analyze_changed_file(
                path,
                old_path,
                self.old.map(|_| old),
                self.new.map(|_| new),
                diff.as_ref(),
            )
        });
        (count, tamper)
    }

    /// Counts the pair from both sides' content (empty for a missing side): binary when
    /// either side has a NUL in its first 8000 bytes (git's rule, whatever the attributes,
    /// drivers or `core.bigFileThreshold` say), else its lines.
    #[cfg(test)]
    pub(super) fn count(&self, old: &[u8], new: &[u8]) -> LineCount {
        self.count_and_diff(old, new).0
    }

    /// [`Self::count`], with the line diff it computed (none for a binary or unchanged pair,
    /// or when a side is empty).
    fn count_and_diff<'a>(
        &self,
        old: &'a [u8],
        new: &'a [u8],
    ) -> (LineCount, Option<LineDiff<'a>>) {
        // The same blob on both sides (a rename, a mode change) changes no content, text or
        // binary: it adds nothing.
        let unchanged =
            matches!((&self.old, &self.new), (Some(old), Some(new)) if old.id == new.id);
        let binary = [(self.old.is_some(), old), (self.new.is_some(), new)]
            .into_iter()
            .any(|(present, data)| present && lines::buffer_is_binary(data));
        if binary {
            let bytes_added = if self.new.is_some() && !unchanged {
                new.len() as u64
            } else {
                0
            };
            return (LineCount::Binary { bytes_added }, None);
        }
        if unchanged {
            let count = LineCount::Text {
                added: 0,
                deleted: 0,
                bytes_added: 0,
            };
            return (count, None);
        }
        let (count, diff) = lines::count_lines_and_diff(old, new);
        let count = LineCount::Text {
            added: count.added,
            deleted: count.deleted,
            bytes_added: count.bytes_added,
        };
        (count, diff)
    }
}

/// The content git diffs for a side that is not a blob: nothing for a missing side, and
/// `Subproject commit <id>` for a submodule; `None` for a blob.
pub(super) fn non_blob_content(item: Option<&Item>) -> Option<Vec<u8>> {
    match item {
        None => Some(Vec::new()),
        Some(item) if item.mode == EntryMode::Submodule.octal() => {
            Some(format!("Subproject commit {}\n", item.id).into_bytes())
        }
        Some(_) => None,
    }
}

/// A pair's old and new content, as read for counting.
pub(super) type Sides = (Arc<Vec<u8>>, Arc<Vec<u8>>);

/// What counting a pair yields: its line count, and its test-tampering analysis when the job
/// runs it.
pub(super) type Measured = (LineCount, Option<FileTamper>);

/// The line counts of `pairs`, in their order; with `tamper`, each with its test-tampering
/// analysis where [`Job::new`] runs it.
pub(super) fn line_counts(
    pairs: &[Pair],
    content: &mut Content<'_, '_>,
    tamper: bool,
) -> Result<Vec<Measured>, GitError> {
    let jobs: Vec<Job> = pairs.iter().map(|pair| Job::new(pair, tamper)).collect();
    let detached = if jobs.len() >= PARALLEL_MIN_PAIRS {
        content.objects.detached()
    } else {
        None
    };
    let Some(spec) = detached else {
        if content.two_threads {
            return pipelined(&jobs, pairs, content);
        }
        return one_by_one(&jobs, pairs, content);
    };
    // The calling thread takes pairs from the front, the other thread from the back.
    let ends = Mutex::new((0, jobs.len()));
    let stop = AtomicBool::new(false);
    let take_front = || {
        let mut ends = ends
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (ends.0 < ends.1).then(|| {
            ends.0 += 1;
            ends.0 - 1
        })
    };
    let take_back = || {
        let mut ends = ends
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (ends.0 < ends.1).then(|| {
            ends.1 -= 1;
            ends.1
        })
    };
    let mut counts: Vec<Option<Measured>> = vec![None; jobs.len()];
    std::thread::scope(|scope| {
        // A thread that cannot be started leaves every pair to this one. Its stack is the
        // size of a main thread's, for the diff of a huge file.
        let worker = std::thread::Builder::new()
            .name("astrix-line-counts".to_owned())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, || {
                let mut done = Vec::new();
                let Some(blobs) = DetachedBlobs::open(&spec) else {
                    return done;
                };
                let sources: [BlobSource; 2] = Default::default();
                while !stop.load(Ordering::Relaxed) {
                    let Some(at) = take_back() else { break };
                    let job = &jobs[at];
                    let read = |item: Option<&Item>, source: &BlobSource| {
                        non_blob_content(item)
                            .or_else(|| item.and_then(|item| blobs.blob(&item.id, source)))
                    };
                    // Unread content is left to the calling thread.
                    let count = read(job.old.as_ref(), &sources[0]).and_then(|old| {
                        read(job.new.as_ref(), &sources[1]).map(|new| job.measure(&old, &new))
                    });
                    done.push((at, count));
                }
                done
            })
            .ok();
        let mine = (|| {
            while let Some(at) = take_front() {
                counts[at] = Some(content.count(&jobs[at], pair_paths(&pairs[at]), false)?);
            }
            Ok(())
        })();
        if mine.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        let theirs = match worker {
            Some(worker) => worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => Vec::new(),
        };
        mine?;
        for (at, count) in theirs {
            counts[at] = count;
        }
        Ok::<_, GitError>(())
    })?;
    // What the other thread could not read (or never took), in order.
    counted_here_where_missing(counts, jobs.as_slice(), pairs, content)
}

/// `counts`, with each pair that has none counted on this thread, in order.
fn counted_here_where_missing(
    counts: Vec<Option<Measured>>,
    jobs: &[Job],
    pairs: &[Pair],
    content: &mut Content<'_, '_>,
) -> Result<Vec<Measured>, GitError> {
    counts
        .into_iter()
        .enumerate()
        .map(|(at, count)| match count {
            Some(count) => Ok(count),
            None => content.count(&jobs[at], pair_paths(&pairs[at]), false),
        })
        .collect()
}

/// The pairs counted on this thread, in order.
fn one_by_one(
    jobs: &[Job],
    pairs: &[Pair],
    content: &mut Content<'_, '_>,
) -> Result<Vec<Measured>, GitError> {
    counted_here_where_missing(vec![None; jobs.len()], jobs, pairs, content)
}

/// The pairs counted on two threads: this one reads each pair's blobs (which needs the
/// repository's handles) and hands it to a second one to diff and analyse, or, when that one
/// is still busy with the pairs handed before, does it itself. Reading and diffing a pair
/// cost about the same, and a pair's analysis can cost several times both, so neither
/// thread waits for long. A single pair, or no second thread to be had, is counted here alone.
fn pipelined(
    jobs: &[Job],
    pairs: &[Pair],
    content: &mut Content<'_, '_>,
) -> Result<Vec<Measured>, GitError> {
    use std::sync::mpsc::TrySendError;

    if jobs.len() < 2 {
        return one_by_one(jobs, pairs, content);
    }
    // Pairs read ahead of the other thread, at most: with the size bound, what is held at
    // once stays a few megabytes beyond the pair being measured.
    let (read, to_measure) = std::sync::mpsc::sync_channel(PIPELINE_AHEAD);
    std::thread::scope(|scope| {
        let measuring = std::thread::Builder::new()
            .name("astrix-line-diffs".to_owned())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, move || {
                to_measure
                    .iter()
                    .map(|(at, (old, new)): (usize, Sides)| (at, jobs[at].measure(&old, &new)))
                    .collect::<Vec<_>>()
            });
        let Ok(measuring) = measuring else {
            return one_by_one(jobs, pairs, content);
        };
        let mut measured: Vec<Option<Measured>> = vec![None; jobs.len()];
        let mut reading = Ok(());
        for (at, (job, pair)) in jobs.iter().zip(pairs).enumerate() {
            let sides = match content.pair(job, pair_paths(pair), false) {
                Ok(sides) => sides,
                Err(err) => {
                    reading = Err(err);
                    break;
                }
            };
            if sides.0.len() + sides.1.len() > PIPELINE_MAX_BYTES {
                measured[at] = Some(job.measure(&sides.0, &sides.1));
                continue;
            }
            match read.try_send((at, sides)) {
                Ok(()) => {}
                Err(TrySendError::Full((at, (old, new)))) => {
                    measured[at] = Some(job.measure(&old, &new));
                }
                // The other thread stopped only by panicking, which its join passes on.
                Err(TrySendError::Disconnected(_)) => break,
            }
        }
        drop(read);
        let theirs = measuring
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        reading?;
        for (at, count) in theirs {
            measured[at] = Some(count);
        }
        // Every pair was measured by one thread or the other; one that was not (a bug) is
        // counted here rather than left out.
        counted_here_where_missing(measured, jobs, pairs, content)
    })
}

/// A pair's old and new paths, for messages.
fn pair_paths(pair: &Pair) -> (Option<&BStr>, Option<&BStr>) {
    (
        pair.old.as_ref().map(|(path, _)| path.as_ref()),
        pair.new.as_ref().map(|(path, _)| path.as_ref()),
    )
}

#[cfg(test)]
mod tests {
    use gix::ObjectId;

    use super::*;

    fn item(id: u8) -> Item {
        Item {
            mode: 0o100_644,
            id: ObjectId::from_bytes_or_panic(&[id; 20]),
        }
    }

    /// A pair of blobs `old` and `new` (ids made of one repeated byte).
    fn job(old: Option<u8>, new: Option<u8>) -> Job {
        Job {
            old: old.map(item),
            new: new.map(item),
            tamper: None,
        }
    }

    fn text(added: u64, deleted: u64, bytes_added: u64) -> LineCount {
        LineCount::Text {
            added,
            deleted,
            bytes_added,
        }
    }

    #[test]
    fn a_pair_counts_lines_unless_either_side_is_binary() {
        let modified = job(Some(1), Some(2));
        assert_eq!(modified.count(b"a\nb\nc\n", b"a\nB\nc\nd\n"), text(2, 1, 4));
        assert_eq!(
            modified.count(b"a\n", b"a\0\n"),
            LineCount::Binary { bytes_added: 3 }
        );
        assert_eq!(
            modified.count(b"a\0\n", b"a\n"),
            LineCount::Binary { bytes_added: 2 }
        );
        // A deleted binary adds nothing, nor does one renamed or made executable.
        assert_eq!(
            job(Some(1), None).count(b"\0\0\0", b""),
            LineCount::Binary { bytes_added: 0 }
        );
        assert_eq!(
            job(Some(4), Some(4)).count(b"\0\0\0", b"\0\0\0"),
            LineCount::Binary { bytes_added: 0 }
        );
    }

    #[test]
    fn an_added_file_counts_all_its_lines_and_an_unchanged_blob_none() {
        assert_eq!(job(None, Some(2)).count(b"", b"1\n2\n3"), text(3, 0, 5));
        // A mode change keeps the blob: nothing is counted, whatever the content.
        assert_eq!(job(Some(3), Some(3)).count(b"x\n", b"y\n"), text(0, 0, 0));
    }

    #[test]
    fn a_submodule_side_is_its_commit_line_and_a_missing_side_is_empty() {
        let id = ObjectId::from_bytes_or_panic(&[7; 20]);
        let submodule = Item {
            mode: EntryMode::Submodule.octal(),
            id,
        };
        assert_eq!(
            non_blob_content(Some(&submodule)),
            Some(format!("Subproject commit {id}\n").into_bytes())
        );
        assert_eq!(non_blob_content(None), Some(Vec::new()));
        let blob = Item {
            mode: 0o100_644,
            id,
        };
        assert_eq!(non_blob_content(Some(&blob)), None);
    }
}
