//! Rename detection that pairs files the way `git diff` does (diffcore-rename), with git's
//! defaults: renames only (never copies), at 50% similarity.
//!
//! The steps, in git's order: exact matches by blob id (preferring an unused source with the
//! same basename); then, for renames only, files whose basename is unique among the remaining
//! sources and destinations and that are at least 75% similar; then the full matrix of the
//! remaining pairs at the minimum score (50%), keeping the best four sources per destination,
//! sorted by score and basename equality, and assigned greedily. Similarity is git's estimate:
//! content is cut into chunks at `\n` or every 64 bytes, chunks are hashed, and the score is
//! the bytes of the destination that the source also has, over the larger size (CR of CRLF is
//! ignored in text). Symlinks and submodules are only paired when identical.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};

use super::error::GitError;
use super::tree::{Item, RawChange, is_regular, same_type};

/// git's `MAX_SCORE`: similarity scores are fractions of it.
pub(crate) const MAX_SCORE: u64 = 60_000;
/// The default minimum similarity, 50%.
pub(crate) const DEFAULT_MIN_SCORE: u64 = 30_000;
/// Sources kept per destination in the similarity matrix (`NUM_CANDIDATE_PER_DST`).
const CANDIDATES_PER_DST: usize = 4;
/// Identical sources considered per destination before one is picked.
const IDENTICAL_ALTERNATIVES: usize = 100;
/// Chunks are cut at `\n` or after this many bytes.
const MAX_CHUNK: u32 = 64;
/// The prime the chunk hashes are reduced by (`HASHBASE`).
const HASHBASE: u32 = 107_927;

/// Rename detection settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RenameOptions {
    /// Minimum similarity score (out of [`MAX_SCORE`]).
    pub min_score: u64,
    /// `diff.renameLimit`: inexact detection is skipped when sources × destinations exceeds
    /// its square; 0 or less means unlimited.
    pub limit: i64,
}

/// The side of a change a blob is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Before the change (HEAD, a parent).
    Old,
    /// After it (the index, the commit).
    New,
}

/// Blob contents, supplied by the repository.
pub(crate) trait Blobs {
    /// The content of a blob on `side` of the change.
    fn data(&mut self, id: &ObjectId, side: Side) -> Result<Arc<Vec<u8>>, GitError>;
}

/// The status of a file pair after detection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// New path.
    Added,
    /// Removed path.
    Deleted,
    /// Same path, content or mode changed.
    Modified,
    /// Same path, entry type changed.
    TypeChanged,
    /// Moved, with the score.
    Renamed(u64),
}

/// A file pair: old and new side (path and entry), and its status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pair {
    /// Before.
    pub old: Option<(BString, Item)>,
    /// After.
    pub new: Option<(BString, Item)>,
    /// What happened.
    pub status: Status,
}

/// Pairs the raw per-path changes (sorted by path) into renames.
pub(crate) fn detect(
    raw: Vec<RawChange>,
    options: RenameOptions,
    blobs: &mut dyn Blobs,
) -> Result<Vec<Pair>, GitError> {
    let matches = Detector::new(&raw, options, blobs).run()?;
    Ok(write_back(raw, matches))
}

struct Matches {
    /// For each queue index that is a destination: the source queue index and score.
    dst: Vec<Option<(usize, u64)>>,
    /// How many pairs use each queue index as their source.
    used: Vec<u32>,
}

impl Matches {
    fn none(len: usize) -> Self {
        Self {
            dst: vec![None; len],
            used: vec![0; len],
        }
    }
}

#[derive(Clone, Copy)]
struct Candidate {
    dst: usize,
    src: usize,
    score: u64,
    name_score: u8,
}

/// git's `score_compare`: higher score first, then same basename first.
fn worse(a: Option<&Candidate>, b: Option<&Candidate>) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(a), Some(b)) => b
            .score
            .cmp(&a.score)
            .then_with(|| b.name_score.cmp(&a.name_score)),
    }
}

/// Sorted `(chunk hash, bytes)` pairs of one blob.
type Spans = Vec<(u32, u32)>;

struct Detector<'a> {
    raw: &'a [RawChange],
    options: RenameOptions,
    blobs: &'a mut dyn Blobs,
    /// Queue indices of destinations (additions), in path order.
    dsts: Vec<usize>,
    /// Queue indices of sources, in path order.
    srcs: Vec<usize>,
    matches: Matches,
    spans: HashMap<ObjectId, Rc<Spans>>,
}

impl<'a> Detector<'a> {
    fn new(raw: &'a [RawChange], options: RenameOptions, blobs: &'a mut dyn Blobs) -> Self {
        let matches = Matches::none(raw.len());
        let mut dsts = Vec::new();
        let mut srcs = Vec::new();
        for (index, change) in raw.iter().enumerate() {
            match (&change.old, &change.new) {
                (None, Some(_)) => dsts.push(index),
                (Some(_), None) => srcs.push(index),
                _ => {}
            }
        }
        Self {
            raw,
            options,
            blobs,
            dsts,
            srcs,
            matches,
            spans: HashMap::new(),
        }
    }

    fn old(&self, index: usize) -> Item {
        self.raw[index]
            .old
            .unwrap_or_else(|| unreachable!("sources have an old side"))
    }

    fn new_item(&self, index: usize) -> Item {
        self.raw[index]
            .new
            .unwrap_or_else(|| unreachable!("destinations have a new side"))
    }

    fn record(&mut self, dst: usize, src: usize, score: u64) {
        self.matches.used[src] += 1;
        self.matches.dst[dst] = Some((src, score));
    }

    fn run(mut self) -> Result<Matches, GitError> {
        if self.dsts.is_empty() || self.srcs.is_empty() {
            return Ok(self.matches);
        }
        self.exact();
        self.srcs.retain(|src| self.matches.used[*src] == 0);
        let min_basename_score = self.options.min_score + (MAX_SCORE - self.options.min_score) / 2;
        self.basenames(min_basename_score)?;
        self.srcs.retain(|src| self.matches.used[*src] == 0);
        let open_dsts: Vec<usize> = self
            .dsts
            .iter()
            .copied()
            .filter(|dst| self.matches.dst[*dst].is_none())
            .collect();
        if open_dsts.is_empty() || self.srcs.is_empty() {
            return Ok(self.matches);
        }
        if self.options.limit > 0 {
            let limit = u128::from(self.options.limit.unsigned_abs());
            let work = (open_dsts.len() as u128) * (self.srcs.len() as u128);
            if work > limit * limit {
                return Ok(self.matches);
            }
        }
        let mut matrix = Vec::with_capacity(open_dsts.len() * CANDIDATES_PER_DST);
        for dst in open_dsts {
            let mut best: [Option<Candidate>; CANDIDATES_PER_DST] = [None; CANDIDATES_PER_DST];
            for src_position in 0..self.srcs.len() {
                let src = self.srcs[src_position];
                let score = self.similarity(src, dst, self.options.min_score)?;
                let candidate = Candidate {
                    dst,
                    src,
                    score,
                    name_score: u8::from(basename_same(&self.raw[src].path, &self.raw[dst].path)),
                };
                record_if_better(&mut best, candidate);
            }
            matrix.extend(best);
        }
        // A stable sort, as git's STABLE_QSORT: ties keep destination then insertion order.
        matrix.sort_by(|a, b| worse(a.as_ref(), b.as_ref()));
        self.assign(&matrix);
        Ok(self.matches)
    }

    /// git's `find_identical_files` for every destination.
    fn exact(&mut self) {
        let mut by_id: HashMap<ObjectId, Vec<usize>> = HashMap::new();
        for src in &self.srcs {
            by_id.entry(self.old(*src).id).or_default().push(*src);
        }
        for position in 0..self.dsts.len() {
            let dst = self.dsts[position];
            let target = self.new_item(dst);
            let Some(sources) = by_id.get(&target.id) else {
                continue;
            };
            let mut best: Option<(usize, u8)> = None;
            let mut remaining = IDENTICAL_ALTERNATIVES;
            for src in sources {
                let source = self.old(*src);
                if (!is_regular(source.mode) || !is_regular(target.mode))
                    && source.mode != target.mode
                {
                    continue;
                }
                let used = self.matches.used[*src] > 0;
                if used {
                    continue;
                }
                let score = u8::from(!used)
                    + u8::from(basename_same(&self.raw[*src].path, &self.raw[dst].path));
                if best.is_none_or(|(_, best_score)| score > best_score) {
                    best = Some((*src, score));
                    if score == 2 {
                        break;
                    }
                }
                remaining -= 1;
                if remaining == 0 {
                    break;
                }
            }
            if let Some((src, _)) = best {
                self.record(dst, src, MAX_SCORE);
            }
        }
    }

    /// git's `find_basename_matches`: a source and a destination whose basename is unique on
    /// both sides are paired when similar enough.
    fn basenames(&mut self, min_score: u64) -> Result<(), GitError> {
        let mut sources: HashMap<&[u8], Option<usize>> = HashMap::new();
        for src in &self.srcs {
            let base = basename(&self.raw[*src].path);
            sources
                .entry(base)
                .and_modify(|unique| *unique = None)
                .or_insert(Some(*src));
        }
        let mut dests: HashMap<&[u8], Option<usize>> = HashMap::new();
        for dst in &self.dsts {
            if self.matches.dst[*dst].is_some() {
                continue;
            }
            let base = basename(&self.raw[*dst].path);
            dests
                .entry(base)
                .and_modify(|unique| *unique = None)
                .or_insert(Some(*dst));
        }
        let mut pairs = Vec::new();
        for src in &self.srcs {
            let base = basename(&self.raw[*src].path);
            if let (Some(Some(unique_src)), Some(Some(dst))) = (sources.get(base), dests.get(base))
                && unique_src == src
            {
                pairs.push((*src, *dst));
            }
        }
        for (src, dst) in pairs {
            if self.matches.dst[dst].is_some() {
                continue;
            }
            let score = self.similarity(src, dst, min_score)?;
            if score >= min_score {
                self.record(dst, src, score);
            }
        }
        Ok(())
    }

    /// git's `find_renames` over the sorted matrix.
    fn assign(&mut self, matrix: &[Option<Candidate>]) {
        for candidate in matrix {
            let Some(candidate) = candidate else { break };
            if candidate.score < self.options.min_score {
                break;
            }
            if self.matches.dst[candidate.dst].is_some() {
                continue;
            }
            if self.matches.used[candidate.src] > 0 {
                continue;
            }
            self.record(candidate.dst, candidate.src, candidate.score);
        }
    }

    /// git's `estimate_similarity`.
    fn similarity(&mut self, src: usize, dst: usize, min_score: u64) -> Result<u64, GitError> {
        let (source, target) = (self.old(src), self.new_item(dst));
        if !is_regular(source.mode) || !is_regular(target.mode) {
            return Ok(0);
        }
        let content_of = |which: &str, path: &BStr| format!("the {which} content of `{path}`");
        let src_data = self
            .blobs
            .data(&source.id, Side::Old)
            .map_err(|err| err.concerning(|| content_of("old", self.raw[src].path.as_bstr())))?;
        let dst_data = self
            .blobs
            .data(&target.id, Side::New)
            .map_err(|err| err.concerning(|| content_of("new", self.raw[dst].path.as_bstr())))?;
        let (src_size, dst_size) = (src_data.len() as u64, dst_data.len() as u64);
        let max_size = src_size.max(dst_size);
        let delta_size = max_size - src_size.min(dst_size);
        // Sizes too far apart cannot reach the minimum score (an exact shortcut).
        if u128::from(max_size) * u128::from(MAX_SCORE - min_score)
            < u128::from(delta_size) * u128::from(MAX_SCORE)
        {
            return Ok(0);
        }
        if dst_size == 0 {
            return Ok(0);
        }
        let src_spans = self.spans(source.id, &src_data);
        let dst_spans = self.spans(target.id, &dst_data);
        let copied = copied_bytes(&src_spans, &dst_spans);
        Ok(copied * MAX_SCORE / max_size)
    }

    /// The chunk hashes of a blob; text (no NUL in its first 8000 bytes, git's rule whatever
    /// the attributes say) ignores the CR of CRLF.
    fn spans(&mut self, id: ObjectId, data: &[u8]) -> Rc<Vec<(u32, u32)>> {
        if let Some(spans) = self.spans.get(&id) {
            return Rc::clone(spans);
        }
        let is_text = !super::lines::buffer_is_binary(data);
        let spans = Rc::new(hash_chunks(data, is_text));
        self.spans.insert(id, Rc::clone(&spans));
        spans
    }
}

/// git's `record_if_better`: keeps the best [`CANDIDATES_PER_DST`] sources.
fn record_if_better(best: &mut [Option<Candidate>; CANDIDATES_PER_DST], candidate: Candidate) {
    let mut worst = 0;
    for index in 1..CANDIDATES_PER_DST {
        if worse(best[index].as_ref(), best[worst].as_ref()).is_gt() {
            worst = index;
        }
    }
    if worse(best[worst].as_ref(), Some(&candidate)).is_gt() {
        best[worst] = Some(candidate);
    }
}

/// Turns the matches into pairs in queue order, as git's `diff_resolve_rename_copy` does
/// (each source is used by one pair at most).
fn write_back(raw: Vec<RawChange>, mut matches: Matches) -> Vec<Pair> {
    let sources: Vec<(BString, Option<Item>)> = raw
        .iter()
        .map(|change| (change.path.clone(), change.old))
        .collect();
    // Whether a deleted source went into a pair is decided before the counts are used up.
    let used_as_source: Vec<bool> = matches.used.iter().map(|used| *used > 0).collect();
    let mut pairs = Vec::with_capacity(raw.len());
    for (index, change) in raw.into_iter().enumerate() {
        match (change.old, change.new) {
            (None, Some(new)) => match matches.dst[index] {
                Some((src, score)) => {
                    matches.used[src] -= 1;
                    let status = Status::Renamed(score);
                    let (src_path, src_item) = &sources[src];
                    pairs.push(Pair {
                        old: src_item.map(|item| (src_path.clone(), item)),
                        new: Some((change.path, new)),
                        status,
                    });
                }
                None => pairs.push(Pair {
                    old: None,
                    new: Some((change.path, new)),
                    status: Status::Added,
                }),
            },
            (Some(old), None) => {
                if !used_as_source[index] {
                    pairs.push(Pair {
                        old: Some((change.path, old)),
                        new: None,
                        status: Status::Deleted,
                    });
                }
            }
            (Some(old), Some(new)) => {
                let status = if same_type(old.mode, new.mode) {
                    Status::Modified
                } else {
                    Status::TypeChanged
                };
                pairs.push(Pair {
                    old: Some((change.path.clone(), old)),
                    new: Some((change.path, new)),
                    status,
                });
            }
            (None, None) => {}
        }
    }
    pairs
}

fn basename(path: &[u8]) -> &[u8] {
    match path.rfind_byte(b'/') {
        Some(slash) => &path[slash + 1..],
        None => path,
    }
}

/// git's `basename_same`.
fn basename_same(src: &[u8], dst: &[u8]) -> bool {
    basename(src) == basename(dst)
}

/// Hashes `data` into chunks (git's `hash_chars`): sorted `(hash, bytes)` pairs.
pub(crate) fn hash_chunks(data: &[u8], is_text: bool) -> Vec<(u32, u32)> {
    let mut counts: HashMap<u32, u32> = HashMap::new();
    let (mut accum1, mut accum2, mut length) = (0u32, 0u32, 0u32);
    for (index, &byte) in data.iter().enumerate() {
        if is_text && byte == b'\r' && data.get(index + 1) == Some(&b'\n') {
            continue;
        }
        let previous = accum1;
        accum1 = (accum1 << 7) ^ (accum2 >> 25);
        accum2 = (accum2 << 7) ^ (previous >> 25);
        accum1 = accum1.wrapping_add(u32::from(byte));
        length += 1;
        if length < MAX_CHUNK && byte != b'\n' {
            continue;
        }
        let hash = accum1.wrapping_add(accum2.wrapping_mul(0x61)) % HASHBASE;
        *counts.entry(hash).or_default() += length;
        (accum1, accum2, length) = (0, 0, 0);
    }
    if length > 0 {
        let hash = accum1.wrapping_add(accum2.wrapping_mul(0x61)) % HASHBASE;
        *counts.entry(hash).or_default() += length;
    }
    let mut spans: Vec<(u32, u32)> = counts.into_iter().collect();
    spans.sort_unstable();
    spans
}

/// The bytes of the destination's chunks also found in the source (git's `src_copied`).
pub(crate) fn copied_bytes(src: &[(u32, u32)], dst: &[(u32, u32)]) -> u64 {
    let mut copied = 0u64;
    let mut dst_iter = dst.iter().peekable();
    for (hash, src_count) in src {
        while dst_iter.next_if(|(dst_hash, _)| dst_hash < hash).is_some() {}
        if let Some((_, dst_count)) = dst_iter.next_if(|(dst_hash, _)| dst_hash == hash) {
            copied += u64::from((*src_count).min(*dst_count));
        }
    }
    copied
}

#[cfg(test)]
mod tests {
    use super::*;
    use gix::bstr::ByteSlice;

    struct Memory(HashMap<ObjectId, Arc<Vec<u8>>>);

    impl Blobs for Memory {
        fn data(&mut self, id: &ObjectId, _: Side) -> Result<Arc<Vec<u8>>, GitError> {
            self.0
                .get(id)
                .cloned()
                .ok_or_else(|| GitError::missing_from(id, crate::git::History::Complete))
        }
    }

    fn blob(content: &str) -> ObjectId {
        gix::objs::compute_hash(
            gix::hash::Kind::Sha1,
            gix::objs::Kind::Blob,
            content.as_bytes(),
        )
        .unwrap()
    }

    struct Fixture {
        raw: Vec<RawChange>,
        blobs: Memory,
    }

    impl Fixture {
        fn new() -> Self {
            Self {
                raw: Vec::new(),
                blobs: Memory(HashMap::new()),
            }
        }

        fn item(&mut self, content: &str) -> Item {
            let id = blob(content);
            self.blobs
                .0
                .insert(id, Arc::new(content.as_bytes().to_vec()));
            Item {
                mode: 0o100_644,
                id,
            }
        }

        fn deleted(mut self, path: &str, content: &str) -> Self {
            let old = Some(self.item(content));
            self.raw.push(RawChange {
                path: path.into(),
                old,
                new: None,
            });
            self
        }

        fn added(mut self, path: &str, content: &str) -> Self {
            let new = Some(self.item(content));
            self.raw.push(RawChange {
                path: path.into(),
                old: None,
                new,
            });
            self
        }

        fn detect(mut self) -> Vec<String> {
            self.raw.sort_by(|a, b| a.path.cmp(&b.path));
            let options = RenameOptions {
                min_score: DEFAULT_MIN_SCORE,
                limit: 1000,
            };
            detect_pairs(self.raw, options, &mut self.blobs)
        }
    }

    fn detect_pairs(
        raw: Vec<RawChange>,
        options: RenameOptions,
        blobs: &mut Memory,
    ) -> Vec<String> {
        detect(raw, options, blobs)
            .unwrap()
            .into_iter()
            .map(|pair| {
                let new = pair.new.map(|(path, _)| path.to_str_lossy().into_owned());
                let old = pair.old.map(|(path, _)| path.to_str_lossy().into_owned());
                match pair.status {
                    Status::Added => format!("A {}", new.unwrap()),
                    Status::Deleted => format!("D {}", old.unwrap()),
                    Status::Modified => format!("M {}", new.unwrap()),
                    Status::TypeChanged => format!("T {}", new.unwrap()),
                    Status::Renamed(score) => format!(
                        "R{} {} {}",
                        score * 100 / MAX_SCORE,
                        old.unwrap(),
                        new.unwrap()
                    ),
                }
            })
            .collect()
    }

    const TEXT: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";

    #[test]
    fn exact_rename() {
        let pairs = Fixture::new()
            .deleted("a.txt", TEXT)
            .added("b.txt", TEXT)
            .detect();
        assert_eq!(pairs, ["R100 a.txt b.txt"]);
    }

    #[test]
    fn exact_rename_prefers_the_same_basename() {
        let pairs = Fixture::new()
            .deleted("a/x.txt", TEXT)
            .deleted("b/y.txt", TEXT)
            .added("c/y.txt", TEXT)
            .detect();
        assert_eq!(pairs, ["D a/x.txt", "R100 b/y.txt c/y.txt"]);
    }

    #[test]
    fn rename_with_an_edit() {
        let edited = TEXT.replace("five", "FIVE");
        let pairs = Fixture::new()
            .deleted("old.txt", TEXT)
            .added("new.txt", &edited)
            .detect();
        assert_eq!(pairs.len(), 1);
        assert!(pairs[0].starts_with('R') && pairs[0].ends_with("old.txt new.txt"));
    }

    #[test]
    fn dissimilar_files_are_not_paired() {
        let pairs = Fixture::new()
            .deleted("old.txt", TEXT)
            .added("new.txt", "something else entirely\n")
            .detect();
        assert_eq!(pairs, ["A new.txt", "D old.txt"]);
    }

    #[test]
    fn chunks_ignore_cr_of_crlf_in_text_only() {
        assert_eq!(
            hash_chunks(b"a\r\nb\r\n", true),
            hash_chunks(b"a\nb\n", true)
        );
        assert_ne!(
            hash_chunks(b"a\r\nb\r\n", false),
            hash_chunks(b"a\nb\n", false)
        );
    }

    #[test]
    fn long_lines_are_cut_every_64_bytes() {
        let line = vec![b'x'; 130];
        let spans = hash_chunks(&line, true);
        let total: u32 = spans.iter().map(|(_, count)| count).sum();
        assert_eq!(total, 130);
        // Two identical 64-byte chunks and one of 2 bytes.
        assert_eq!(spans.len(), 2);
    }

    #[test]
    fn copied_bytes_is_the_overlap() {
        let a = hash_chunks(b"one\ntwo\nthree\n", true);
        let b = hash_chunks(b"one\ntwo\nfour\n", true);
        assert_eq!(copied_bytes(&a, &b), 8);
        assert_eq!(copied_bytes(&a, &a), 14);
        assert_eq!(copied_bytes(&a, &[]), 0);
    }
}
