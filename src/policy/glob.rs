//! Path globs with .gitignore / CODEOWNERS semantics, compiled once per policy.
//!
//! - a pattern without `/` (other than a trailing one) matches a name at any depth:
//!   `*.md`, `Cargo.lock`;
//! - a pattern with `/` is anchored at the repository root: `docs/*.md` is one level,
//!   `docs/**` any depth; a leading `/` anchors explicitly;
//! - `*` and `?` never cross `/`, `**` does; matching is case-sensitive, unless a rule sets
//!   `ignore_case` ([`compile_pattern_ignoring_case`]): the pattern and the path are then
//!   compared in lower case;
//! - a pattern that names a directory also matches everything below it (`docs`, `docs/`,
//!   `.github` match `.github/workflows/ci.yml`).
//!
//! Every list of patterns in a policy is registered with one [`MatcherBuilder`]; a batch of
//! paths is matched against combined glob sets, every list of every rule in one pass
//! ([`Matcher::for_paths`], [`PathMatcher::matching_lists`]). Compiling globs costs far more
//! than matching them, so for a few paths only the globs those paths can match are compiled.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// Identifies one pattern list registered with a [`MatcherBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ListId(pub u32);

/// Why a pattern does not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GlobError {
    #[error("an empty pattern matches nothing")]
    Empty,
    #[error("{0}")]
    Syntax(String),
}

/// The globs that implement one gitignore-style pattern.
pub fn compile_pattern(pattern: &str) -> Result<Vec<PatternGlob>, GlobError> {
    compile(pattern, false)
}

/// [`compile_pattern`], matching regardless of case (`.ENV` for `.env`): a rule's
/// `ignore_case = true`, for names that mean the same file on case-insensitive file systems.
pub fn compile_pattern_ignoring_case(pattern: &str) -> Result<Vec<PatternGlob>, GlobError> {
    compile(pattern, true)
}

fn compile(pattern: &str, fold: bool) -> Result<Vec<PatternGlob>, GlobError> {
    // Ignoring case is matching in lower case: the pattern here, the path when it is matched
    // (a set of such globs sees lower-case paths, see `Set::fold`). globset's own
    // case-insensitive globs would all be regexes, compiled on every run.
    let lowered;
    let pattern = if fold {
        lowered = pattern.to_lowercase();
        lowered.as_str()
    } else {
        pattern
    };
    let trimmed = pattern.strip_suffix('/').unwrap_or(pattern);
    if trimmed.is_empty() || trimmed == "/" {
        return Err(GlobError::Empty);
    }
    let anchored = trimmed.starts_with('/') || trimmed.contains('/');
    let body = trimmed.strip_prefix('/').unwrap_or(trimmed);
    if body.is_empty() {
        return Err(GlobError::Empty);
    }
    let base = if anchored || body.starts_with("**/") {
        body.to_owned()
    } else {
        format!("**/{body}")
    };
    let directory = (!base.ends_with("/**")).then(|| format!("{base}/**"));
    let mut globs = vec![PatternGlob::with_case(base, fold)?];
    if let Some(directory) = directory {
        // A pattern that names a directory covers the files below it.
        globs.push(PatternGlob::with_case(directory, fold)?);
    }
    Ok(globs)
}

/// One glob of a pattern, compiled by globset when it is first matched.
///
/// globset's parser reports errors only for `[`, `{`, `}` and `\`, so a glob without them
/// cannot fail to build: it is kept as text, and built only when a batch of paths can match
/// it ([`Matcher::for_paths`]). Any other glob (and a very long one) is built when the
/// pattern is checked, so that its errors are reported then.
#[derive(Debug, Clone)]
pub struct PatternGlob {
    text: String,
    /// Matching ignores case: `text` is in lower case and is matched against paths in lower
    /// case.
    fold: bool,
    glob: OnceLock<Glob>,
}

/// Longer globs are built when checked, so that their regex is measured ([`surely_compiles`]).
const DEFERRED_MAX_LEN: usize = 1024;

impl PatternGlob {
    #[cfg(test)]
    fn new(text: String) -> Result<Self, GlobError> {
        Self::with_case(text, false)
    }

    /// A glob that ignores case when `fold`.
    fn with_case(text: String, fold: bool) -> Result<Self, GlobError> {
        let glob = OnceLock::new();
        if text.len() > DEFERRED_MAX_LEN || text.contains(['[', '{', '}', '\\']) {
            let _ = glob.set(build(&text)?);
        }
        Ok(Self { text, fold, glob })
    }

    /// The glob as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The glob, built now if it was not yet.
    fn glob(&self) -> Result<&Glob, GlobError> {
        if let Some(glob) = self.glob.get() {
            return Ok(glob);
        }
        let glob = build(&self.text)?;
        Ok(self.glob.get_or_init(|| glob))
    }
}

/// A single branch-name glob: anchored, `*` never crosses `/`.
pub fn compile_branch(pattern: &str) -> Result<BranchGlob, GlobError> {
    if pattern.is_empty() {
        return Err(GlobError::Empty);
    }
    // A name without glob syntax is compared as it is; any other is parsed now (its errors
    // are the policy's) and its regex built when a branch is first matched against it:
    // building the regexes of the built-in policy's four patterns cost more than reading
    // the rest of it.
    let glob = if pattern.contains(['*', '?', '[', ']', '{', '}', '\\']) {
        Some(build(pattern)?)
    } else {
        None
    };
    Ok(BranchGlob {
        text: pattern.to_owned(),
        glob,
        matcher: OnceLock::new(),
    })
}

/// A checked branch pattern ([`compile_branch`]).
#[derive(Debug, Clone)]
pub struct BranchGlob {
    text: String,
    /// The parsed glob; `None` for a plain name, which matches itself alone.
    glob: Option<Glob>,
    matcher: OnceLock<globset::GlobMatcher>,
}

impl BranchGlob {
    /// Whether `branch` matches the pattern.
    pub fn is_match(&self, branch: &str) -> bool {
        match &self.glob {
            None => branch == self.text,
            Some(glob) => self
                .matcher
                .get_or_init(|| glob.compile_matcher())
                .is_match(branch),
        }
    }
}

fn build(pattern: &str) -> Result<Glob, GlobError> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|err| GlobError::Syntax(err.kind().to_string()))
}

/// Collects the pattern lists of a policy; [`MatcherBuilder::build`] compiles them together.
#[derive(Debug, Default)]
pub struct MatcherBuilder {
    globs: Vec<(PatternGlob, ListId)>,
    lists: u32,
}

/// Globs per compiled set. globset refuses a single set that grows past the regex engine's
/// size limit (around 12,000 complex globs), so large policies are split into several sets
/// (and a set that is still refused is split further, see [`compile_set`]). Smaller sets
/// also keep the regex engine's per-set caches small: with 20,000 rules of three globs,
/// sets of 2,000 grew to 3 GB matching 1,000 paths and 8 GB matching 10,000, sets of 500
/// stay under 750 MB, and compile in the same time.
const GLOBS_PER_SET: usize = 500;

/// Regex text per compiled set. A set is closed when either limit is reached, which keeps
/// every set far below the regex engine's limits whichever globs it holds: an NFA state
/// takes a few dozen bytes and each regex character adds at most one, so a set of this much
/// regex text stays under 5 MiB of the 10 MiB globset allows.
const REGEX_BYTES_PER_SET: usize = 128 * 1024;

/// Alternations nested deeper than this may reach the regex parser's nesting limit.
const MAX_SAFE_NESTING: usize = 32;

impl MatcherBuilder {
    /// Registers a list of patterns that were already checked with [`compile_pattern`].
    pub fn add_list(&mut self, globs: Vec<PatternGlob>) -> ListId {
        let id = ListId(self.lists);
        self.lists += 1;
        self.globs.extend(globs.into_iter().map(|glob| (glob, id)));
        id
    }

    /// Collects every registered list into a matcher. The combined sets are compiled when
    /// paths are first matched, and then only from the globs that can match those paths
    /// ([`Matcher::for_paths`]); a glob that could make them fail to compile (one too long
    /// or too deeply nested for the regex engine) has them compiled now, so that such a
    /// policy is an error when it is loaded.
    pub fn build(self) -> Result<Matcher, GlobError> {
        let matcher = Matcher(Arc::new(Shared {
            globs: self.globs,
            all: OnceLock::new(),
            lists: self.lists as usize,
            batches: AtomicUsize::new(0),
        }));
        if !matcher.globs.iter().all(|(glob, _)| surely_compiles(glob)) {
            let index = Index::compile(&matcher.globs)?;
            let _ = matcher.all.set(index);
        }
        Ok(matcher)
    }
}

/// Whether any set holding `glob` compiles: its regex fits in a set on its own and its
/// alternations are not nested deeply (see [`REGEX_BYTES_PER_SET`]). A glob not built yet
/// has neither alternations nor more than a few bytes of regex per character.
fn surely_compiles(glob: &PatternGlob) -> bool {
    let Some(built) = glob.glob.get() else {
        return true;
    };
    let mut depth = 0usize;
    let mut deepest = 0usize;
    for c in built.glob().chars() {
        match c {
            '{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    built.regex().len() <= REGEX_BYTES_PER_SET && deepest <= MAX_SAFE_NESTING
}

/// A compiled set and the list of each of its globs.
#[derive(Debug, Clone)]
struct Set {
    globs: GlobSet,
    owners: Vec<ListId>,
    /// Its globs ignore case: they are matched against the path in lower case.
    fold: bool,
}

/// Compiles `globs` into sets of at most [`GLOBS_PER_SET`] globs and
/// [`REGEX_BYTES_PER_SET`] bytes of regex each.
fn compile_sets<'g>(
    globs: impl Iterator<Item = &'g (PatternGlob, ListId)>,
) -> Result<Vec<Set>, GlobError> {
    let (folded, exact): (Vec<_>, Vec<_>) = globs.partition(|(glob, _)| glob.fold);
    let mut sets = compile_sets_of(exact.into_iter(), false)?;
    sets.extend(compile_sets_of(folded.into_iter(), true)?);
    Ok(sets)
}

/// [`compile_sets`] for globs that all ignore case (`fold`) or none does.
fn compile_sets_of<'g>(
    globs: impl Iterator<Item = &'g (PatternGlob, ListId)>,
    fold: bool,
) -> Result<Vec<Set>, GlobError> {
    let mut sets = Vec::new();
    let mut chunk: Vec<(&Glob, ListId)> = Vec::new();
    let mut bytes = 0;
    for (glob, list) in globs {
        let glob = glob.glob()?;
        let size = glob.regex().len();
        if !chunk.is_empty() && (chunk.len() == GLOBS_PER_SET || bytes + size > REGEX_BYTES_PER_SET)
        {
            compile_set(&chunk, fold, &mut sets)?;
            chunk.clear();
            bytes = 0;
        }
        chunk.push((glob, *list));
        bytes += size;
    }
    if !chunk.is_empty() {
        compile_set(&chunk, fold, &mut sets)?;
    }
    Ok(sets)
}

/// Compiles `globs` into one set, or into two halves, recursively, when the regex engine
/// refuses the set as too large: its size limit is per set, and heavy globs (long runs of
/// `?`, which match any character but `/`) reach it with far fewer than [`GLOBS_PER_SET`].
/// A glob that is refused on its own is reported.
fn compile_set(
    globs: &[(&Glob, ListId)],
    fold: bool,
    sets: &mut Vec<Set>,
) -> Result<(), GlobError> {
    let mut builder = GlobSetBuilder::new();
    for (glob, _) in globs {
        builder.add((*glob).clone());
    }
    match builder.build() {
        Ok(set) => {
            sets.push(Set {
                globs: set,
                owners: globs.iter().map(|(_, list)| *list).collect(),
                fold,
            });
            Ok(())
        }
        Err(_) if globs.len() > 1 => {
            let (first, second) = globs.split_at(globs.len() / 2);
            compile_set(first, fold, sets)?;
            compile_set(second, fold, sets)
        }
        Err(err) => Err(GlobError::Syntax(err.to_string())),
    }
}

/// Up to this many paths are matched against sets compiled from the globs that can match
/// them; more are matched against the sets of every glob, compiled once.
const SELECT_MAX_PATHS: usize = 256;

/// After this many batches of paths have compiled their own sets, the sets of every glob
/// are compiled once and matched from then on: a policy that judges many changes in one
/// process (the 200 commits of a pull request) compiles the same globs over and over.
const SELECT_MAX_BATCHES: usize = 8;

/// All pattern lists of a policy, ready to compile.
///
/// Compiling a glob into the regex engine costs as much as matching it against a thousand
/// paths, and a commit's few paths can match only a few of a policy's globs. So a batch of
/// a few paths is matched against sets compiled from only the globs whose literal text the
/// paths contain (see `Needs`); which other globs share a set never changes what a glob
/// matches, so the answers are those of the sets of every glob.
#[derive(Debug, Clone, Default)]
pub struct Matcher(Arc<Shared>);

/// What the clones of a [`Matcher`] share: the globs, and the sets compiled from them.
#[derive(Debug, Default)]
pub struct Shared {
    globs: Vec<(PatternGlob, ListId)>,
    /// The sets of every glob, once compiled.
    all: OnceLock<Index>,
    lists: usize,
    /// How many batches of paths compiled their own sets: past [`SELECT_MAX_BATCHES`] (a
    /// range of commits in `astrix ci`, a backstop transaction) every glob is compiled once
    /// instead, for every clone of the policy.
    batches: AtomicUsize,
}

impl std::ops::Deref for Matcher {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The sets of every glob, split by the directory their globs name first ([`first_dir`]):
/// a path is matched against the sets of its first directory and those of the globs that
/// name none. A policy's rules are mostly about distinct parts of a repository, and
/// globset runs a regex for each glob of some kinds (`src/**/*.rs`, against every `.rs`
/// path), so this keeps a path from running the regexes of directories it is not in.
#[derive(Debug, Clone, Default)]
struct Index {
    /// The sets of the globs that name no first directory.
    anywhere: Vec<Set>,
    /// The sets of the globs that name one, by its name.
    by_dir: HashMap<String, Vec<Set>>,
}

impl Index {
    fn compile(globs: &[(PatternGlob, ListId)]) -> Result<Self, GlobError> {
        let mut grouped: HashMap<Option<&str>, Vec<&(PatternGlob, ListId)>> = HashMap::new();
        for entry in globs {
            grouped
                .entry(first_dir(entry.0.text()))
                .or_default()
                .push(entry);
        }
        let mut index = Self::default();
        for (dir, globs) in grouped {
            let sets = compile_sets(globs.into_iter())?;
            match dir {
                Some(dir) => {
                    index.by_dir.insert(dir.to_owned(), sets);
                }
                None => index.anywhere = sets,
            }
        }
        Ok(index)
    }
}

/// The directory that every path a glob matches starts with: the glob's text up to its first
/// `/`, when that text is literal. (A `/` right after a leading `**` is optional, but the
/// text before it is then not literal; a `/` before `**` is always matched.)
fn first_dir(glob: &str) -> Option<&str> {
    let (dir, _) = glob.split_once('/')?;
    (!dir.is_empty() && !dir.bytes().any(|byte| SPECIAL.contains(&byte))).then_some(dir)
}

/// A [`Matcher`] compiled for a batch of paths ([`Matcher::for_paths`]).
#[derive(Debug)]
pub struct PathMatcher<'m>(Sets<'m>);

#[derive(Debug)]
enum Sets<'m> {
    /// The globs that can match the batch.
    Selected(Vec<Set>),
    /// Every glob.
    All(&'m Index),
}

impl Matcher {
    /// Number of registered lists.
    pub fn list_count(&self) -> usize {
        self.lists
    }

    /// The matcher for `paths`: the globs that can match one of them compiled together, or,
    /// for many paths, every glob (compiled once and kept).
    pub fn for_paths<S: AsRef<str>>(&self, paths: &[S]) -> PathMatcher<'_> {
        if let Some(all) = self.all.get() {
            return PathMatcher(Sets::All(all));
        }
        let selective = paths.len() <= SELECT_MAX_PATHS
            && self.batches.fetch_add(1, Ordering::Relaxed) < SELECT_MAX_BATCHES;
        let compiled = if selective {
            let haystack = Haystack::new(paths);
            // Globs that ignore case are in lower case, and are matched against paths in
            // lower case: their literal text is looked for there.
            let lowered = self.globs.iter().any(|(glob, _)| glob.fold).then(|| {
                let lowered: Vec<String> = paths
                    .iter()
                    .map(|path| path.as_ref().to_lowercase())
                    .collect();
                Haystack::new(&lowered)
            });
            let candidates = self.globs.iter().filter(|(glob, _)| {
                let haystack = match &lowered {
                    Some(lowered) if glob.fold => lowered,
                    _ => &haystack,
                };
                Needs::of(glob.text()).all(|need| haystack.holds(need))
            });
            compile_sets(candidates).map(Sets::Selected)
        } else {
            match self.all.get() {
                Some(all) => Ok(Sets::All(all)),
                None => Index::compile(&self.globs)
                    .map(|index| Sets::All(self.all.get_or_init(|| index))),
            }
        };
        match compiled {
            Ok(sets) => PathMatcher(sets),
            // INVARIANT: `MatcherBuilder::build` compiled the sets of a policy with a glob
            // that may not compile, so any set compiled later holds globs that do. Should
            // that not hold, the panic hook blocks the action (exit 2): a pattern that
            // cannot be matched must not let anything through.
            Err(err) => panic!("the path patterns no longer compile: {err}"),
        }
    }

    /// Marks in `hits` (indexed by list) every list with a pattern that matches `path`.
    /// `scratch` is reused between calls to avoid allocation. To match many paths, compile
    /// once for all of them with [`Self::for_paths`].
    pub fn matching_lists(&self, path: &str, hits: &mut [bool], scratch: &mut Vec<usize>) {
        self.for_paths(&[path]).matching_lists(path, hits, scratch);
    }
}

impl PathMatcher<'_> {
    /// Whether any of its sets ignores case.
    fn has_fold(&self) -> bool {
        match &self.0 {
            Sets::Selected(sets) => sets.iter().any(|set| set.fold),
            Sets::All(index) => index
                .anywhere
                .iter()
                .chain(index.by_dir.values().flatten())
                .any(|set| set.fold),
        }
    }

    /// Marks in `hits` (indexed by list) every list with a pattern that matches `path`.
    /// `scratch` is reused between calls to avoid allocation.
    pub fn matching_lists(&self, path: &str, hits: &mut [bool], scratch: &mut Vec<usize>) {
        let candidate = globset::Candidate::new(path);
        // Sets of globs that ignore case see the path in lower case.
        let lowered = self.has_fold().then(|| path.to_lowercase());
        let lowered_candidate = lowered.as_deref().map(globset::Candidate::new);
        let sets: Vec<&Set> = match &self.0 {
            Sets::Selected(sets) => sets.iter().collect(),
            Sets::All(index) => {
                let by_dir = |path: &str| {
                    path.split_once('/')
                        .and_then(|(dir, _)| index.by_dir.get(dir))
                        .map_or(&[][..], Vec::as_slice)
                };
                // A set of globs that ignore case is filed under the first directory of its
                // lower-case globs, and looked up with the path's first directory in lower
                // case.
                let mut sets: Vec<&Set> = index.anywhere.iter().collect();
                sets.extend(by_dir(path).iter().filter(|set| !set.fold));
                if let Some(lowered) = &lowered {
                    sets.extend(by_dir(lowered).iter().filter(|set| set.fold));
                }
                sets
            }
        };
        for Set {
            globs: set,
            owners,
            fold,
        } in sets
        {
            let candidate = match &lowered_candidate {
                Some(lowered) if *fold => lowered,
                _ => &candidate,
            };
            set.matches_candidate_into(candidate, scratch);
            for &index in scratch.iter() {
                if let Some(list) = owners.get(index)
                    && let Some(hit) = hits.get_mut(list.0 as usize)
                {
                    *hit = true;
                }
            }
        }
    }
}

/// Text that every path a glob matches contains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need<'g> {
    /// The path starts with it.
    Prefix(&'g str),
    /// The path ends with it.
    Suffix(&'g str),
    /// The path contains it.
    Inner(&'g str),
}

/// The [`Need`]s of a glob: its runs of literal characters outside `{…}`, up to its first
/// `[` (class syntax is not followed here). Conservative where a literal might not be
/// matched literally: a run ends at any character that can have a meaning (`*?[]{},\`),
/// the character after `\` is skipped, and a `/` next to `**` is dropped (it belongs to
/// the `**/`, `/**/` or `/**` that may match without it).
struct Needs<'g> {
    glob: &'g str,
    /// Where scanning resumes.
    at: usize,
    /// How deep inside `{…}` the scan is.
    depth: usize,
}

/// Characters that end a run of literals.
const SPECIAL: &[u8] = b"*?[]{},\\";

impl<'g> Needs<'g> {
    fn of(glob: &'g str) -> Self {
        Self {
            glob,
            at: 0,
            depth: 0,
        }
    }
}

impl<'g> Iterator for Needs<'g> {
    type Item = Need<'g>;

    fn next(&mut self) -> Option<Need<'g>> {
        let bytes = self.glob.as_bytes();
        loop {
            let &byte = bytes.get(self.at)?;
            if !SPECIAL.contains(&byte) {
                let start = self.at;
                let end = bytes[start..]
                    .iter()
                    .position(|byte| SPECIAL.contains(byte))
                    .map_or(bytes.len(), |offset| start + offset);
                self.at = end;
                if self.depth > 0 {
                    continue;
                }
                let after_stars = start >= 2 && &bytes[start - 2..start] == b"**";
                let before_stars = bytes.get(end..end + 2) == Some(b"**");
                let mut run = start..end;
                if after_stars && bytes[run.start] == b'/' {
                    run.start += 1;
                }
                if before_stars && run.end > run.start && bytes[run.end - 1] == b'/' {
                    run.end -= 1;
                }
                // Runs end at ASCII characters, so these are character boundaries.
                let Some(text) = self.glob.get(run.clone()).filter(|text| !text.is_empty()) else {
                    continue;
                };
                return Some(if run.start == 0 {
                    Need::Prefix(text)
                } else if run.end == bytes.len() {
                    Need::Suffix(text)
                } else {
                    Need::Inner(text)
                });
            }
            self.at += 1;
            match byte {
                b'[' => {
                    self.at = bytes.len();
                    return None;
                }
                b'\\' => {
                    let escaped = self
                        .glob
                        .get(self.at..)
                        .and_then(|rest| rest.chars().next());
                    self.at += escaped.map_or(1, char::len_utf8);
                }
                b'{' => self.depth += 1,
                b'}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
    }
}

/// A batch of paths, joined by NUL bytes (which paths do not contain) for substring
/// searches: `\0a/b\0c\0`.
struct Haystack(Vec<u8>);

impl Haystack {
    fn new<S: AsRef<str>>(paths: &[S]) -> Self {
        let mut bytes = vec![0];
        for path in paths {
            bytes.extend_from_slice(path.as_ref().as_bytes());
            bytes.push(0);
        }
        Self(bytes)
    }

    /// Whether some path meets `need`. A path that contains a NUL byte can only make this
    /// true more often, which costs a compiled glob, never a match.
    fn holds(&self, need: Need<'_>) -> bool {
        let haystack = &self.0;
        match need {
            Need::Prefix(text) => {
                memchr::memmem::find_iter(haystack, text).any(|at| at > 0 && haystack[at - 1] == 0)
            }
            Need::Suffix(text) => memchr::memmem::find_iter(haystack, text)
                .any(|at| haystack.get(at + text.len()) == Some(&0)),
            Need::Inner(text) => memchr::memmem::find(haystack, text.as_bytes()).is_some(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Need::{Inner, Prefix, Suffix};
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        let mut builder = MatcherBuilder::default();
        builder.add_list(compile_pattern(pattern).unwrap());
        let matcher = builder.build().unwrap();
        let mut hits = vec![false];
        matcher.matching_lists(path, &mut hits, &mut Vec::new());
        hits[0]
    }

    #[test]
    fn ignore_case_matches_any_case_and_only_with_it() {
        let folded = |pattern: &str, path: &str| {
            let mut builder = MatcherBuilder::default();
            builder.add_list(compile_pattern_ignoring_case(pattern).unwrap());
            let matcher = builder.build().unwrap();
            let mut hits = vec![false];
            // Matched alone and in a batch of many paths (the sets of every glob).
            matcher.matching_lists(path, &mut hits, &mut Vec::new());
            let many: Vec<String> = (0..300).map(|i| format!("x/{i}")).collect();
            let mut all = vec![false];
            let batch = matcher.for_paths(&many);
            batch.matching_lists(path, &mut all, &mut Vec::new());
            assert_eq!(hits[0], all[0], "{pattern} vs {path}");
            hits[0]
        };
        for (pattern, path) in [
            (".env", ".ENV"),
            (".env", "app/.Env"),
            ("*.pfx", "certs/Server.PFX"),
            ("**/.aws/credentials", "home/.AWS/Credentials"),
            ("ID_RSA*", "keys/id_rsa.pub"),
        ] {
            assert!(folded(pattern, path), "{pattern} vs {path}");
            assert!(
                !matches(pattern, path),
                "{pattern} vs {path} without ignore_case"
            );
        }
        assert!(!folded(".env", ".envrc"));
        assert!(!folded("*.key", "src/keys.rs"));
    }

    macro_rules! glob_cases {
        ($($name:ident: $pattern:expr, $path:expr => $expected:expr;)*) => {
            $(
                #[test]
                fn $name() {
                    assert_eq!(matches($pattern, $path), $expected, "{} vs {}", $pattern, $path);
                }
            )*
        };
    }

    glob_cases! {
        name_at_root: "*.md", "README.md" => true;
        name_at_depth: "*.md", "docs/guide/intro.md" => true;
        exact_name_at_depth: "Cargo.lock", "crates/a/Cargo.lock" => true;
        exact_name_not_prefix: "Cargo.lock", "Cargo.lock.bak" => false;
        anchored_one_level: "docs/*.md", "docs/a.md" => true;
        anchored_star_does_not_cross: "docs/*.md", "docs/x/a.md" => false;
        anchored_not_at_depth: "docs/*.md", "src/docs/a.md" => false;
        double_star_any_depth: "docs/**", "docs/x/y/z.txt" => true;
        leading_slash_anchors: "/build.rs", "build.rs" => true;
        leading_slash_not_at_depth: "/build.rs", "x/build.rs" => false;
        directory_name_covers_contents: ".github", ".github/workflows/ci.yml" => true;
        trailing_slash_directory: "vendor/", "a/vendor/lib.c" => true;
        tests_dir_any_depth: "**/tests/**", "crates/x/tests/it.rs" => true;
        tests_dir_at_root: "**/tests/**", "tests/it.rs" => true;
        star_test_star: "*.test.*", "src/a.test.ts" => true;
        case_sensitive: "*.MD", "readme.md" => false;
        question_mark_no_slash: "a?b", "a/b" => false;
        env_files: ".env.*", "config/.env.local" => true;
        env_exact_not_dotenv_example: ".env", ".envrc" => false;
    }

    #[test]
    fn empty_pattern_is_rejected() {
        assert!(matches!(compile_pattern(""), Err(GlobError::Empty)));
        assert!(matches!(compile_pattern("/"), Err(GlobError::Empty)));
    }

    #[test]
    fn invalid_pattern_is_rejected() {
        assert!(matches!(compile_pattern("a[b"), Err(GlobError::Syntax(_))));
    }

    #[test]
    fn lists_are_matched_together() {
        let mut builder = MatcherBuilder::default();
        let a = builder.add_list(compile_pattern("*.md").unwrap());
        let b = builder.add_list(compile_pattern("src/**").unwrap());
        let matcher = builder.build().unwrap();
        let mut hits = vec![false; matcher.list_count()];
        matcher.matching_lists("src/README.md", &mut hits, &mut Vec::new());
        assert!(hits[a.0 as usize] && hits[b.0 as usize]);
    }

    /// Heavy globs (each `?` matches any character but `/`) reach the regex engine's size
    /// limit with a few hundred per set; the set is split until it compiles.
    #[test]
    fn sets_too_large_for_the_regex_engine_are_split() {
        let mut builder = MatcherBuilder::default();
        let heavy = "?".repeat(400);
        let lists: Vec<ListId> = (0..300)
            .map(|i| {
                let pattern = format!("**/x{i}/{heavy}/[!a-c]*.{{rs,py}}");
                builder.add_list(compile_pattern(&pattern).unwrap())
            })
            .collect();
        let matcher = builder.build().unwrap();
        // 600 globs: two sets (500 and 100) unless split.
        let sets = compile_sets(matcher.globs.iter()).unwrap();
        assert!(sets.len() > 2, "{} sets", sets.len());
        let mut hits = vec![false; matcher.list_count()];
        let path = format!("src/x299/{}/d.rs", "y".repeat(400));
        matcher.matching_lists(&path, &mut hits, &mut Vec::new());
        let hit_lists: Vec<usize> = (0..hits.len()).filter(|&i| hits[i]).collect();
        assert_eq!(hit_lists, [lists[299].0 as usize]);
    }

    fn needs(glob: &str) -> Vec<Need<'_>> {
        Needs::of(glob).collect()
    }

    macro_rules! needs_cases {
        ($($name:ident: $glob:expr => [$($need:expr),*];)*) => {
            $(
                #[test]
                fn $name() {
                    let expected: Vec<Need<'_>> = vec![$($need),*];
                    assert_eq!(needs($glob), expected, "{}", $glob);
                }
            )*
        };
    }

    needs_cases! {
        needs_of_a_literal: "Cargo.lock" => [Prefix("Cargo.lock")];
        needs_of_an_extension: "**/*.rs" => [Suffix(".rs")];
        needs_around_a_star: "src/*.rs" => [Prefix("src/"), Suffix(".rs")];
        needs_drop_slashes_next_to_double_stars: "a/**/b" => [Prefix("a"), Suffix("b")];
        needs_of_a_directory: "docs/**" => [Prefix("docs")];
        needs_inside_recursive_globs: "**/gen1/*.json/**" => [Inner("gen1/"), Inner(".json")];
        needs_skip_alternations: "x{a,b}y/*.{js,ts}" => [Prefix("x"), Inner("y/"), Inner(".")];
        needs_skip_nested_alternations: "{a,{b,c}}d" => [Suffix("d")];
        needs_stop_at_a_class: "ab[c]d" => [Prefix("ab")];
        needs_skip_an_escaped_character: r"a\*b" => [Prefix("a"), Suffix("b")];
        needs_skip_an_escaped_non_ascii_character: r"a\éb" => [Prefix("a"), Suffix("b")];
        needs_break_at_a_comma: "a,b" => [Prefix("a"), Suffix("b")];
        needs_of_a_question_mark: "?.md" => [Suffix(".md")];
        needs_of_double_stars_inside_a_name: "a**b" => [Prefix("a"), Suffix("b")];
        needs_of_only_stars: "**" => [];
    }

    /// A small deterministic random number generator for the property tests.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(self.0 >> 33).unwrap() % n
        }
    }

    /// Glob pieces of every kind the syntax has (literals, a non-ASCII one, `/`, `*`, `**` at
    /// every position, `?`, classes, alternations, escapes, commas), each with path pieces
    /// that it matches or nearly matches.
    const PIECES: &[(&str, &[&str])] = &[
        ("a", &["a", "b"]),
        ("b", &["b", ""]),
        ("é", &["é", "e"]),
        (".", &[".", "a"]),
        ("/", &["/", "", "a"]),
        ("*", &["", "a", "ab", "a/"]),
        ("**", &["", "a", "a/", "/a/"]),
        ("**/", &["", "/", "a/", "a/b/", "a"]),
        ("/**", &["/", "/a", "/a/b", ""]),
        ("?", &["a", "", "/", "é"]),
        ("[ab]", &["a", "c"]),
        ("[!a]", &["b", "a", "/"]),
        ("[a-c]", &["b", "d"]),
        ("{a,b}", &["a", "b", "c"]),
        ("{a,}", &["a", ""]),
        ("{,b/}", &["", "b/", "b"]),
        ("{a,b/**}", &["a", "b/", "b/a/b", "b"]),
        ("{**/a,b}", &["a", "x/a", "b", "/a"]),
        (r"\*", &["*", "a"]),
        (r"\a", &["a", "\\"]),
        (",", &[",", ""]),
        ("-", &["-", ""]),
    ];

    /// A random glob and a path made to match it, or nearly.
    fn glob_and_path(random: &mut Lcg, max: usize) -> (String, String) {
        let (mut glob, mut path) = (String::new(), String::new());
        for _ in 0..=random.below(max) {
            let (piece, fragments) = PIECES[random.below(PIECES.len())];
            glob.push_str(piece);
            path.push_str(fragments[random.below(fragments.len())]);
        }
        (glob, path)
    }

    /// Every glob's needs hold for every path globset matches it against: the needs never
    /// rule out a match, so selecting globs by them never changes an answer.
    #[test]
    fn needs_hold_for_every_match() {
        let mut random = Lcg(7);
        let (mut checked, mut needed) = (0, 0);
        for _ in 0..20_000 {
            let (pattern, path) = glob_and_path(&mut random, 6);
            let Ok(glob) = build(&pattern) else {
                continue;
            };
            let set = GlobSetBuilder::new().add(glob.clone()).build().unwrap();
            if set.is_match(&path) || glob.compile_matcher().is_match(&path) {
                let haystack = Haystack::new(&[path.as_str()]);
                for need in Needs::of(glob.glob()) {
                    assert!(
                        haystack.holds(need),
                        "{pattern:?} matches {path:?}, {need:?}"
                    );
                    needed += 1;
                }
                checked += 1;
            }
        }
        // The pieces make many matches, many of them with needs.
        assert!(
            checked > 3_000 && needed > 1_000,
            "{checked} matches, {needed} needs"
        );
    }

    /// Random policies: the sets compiled for a batch of paths, and the sets of every glob
    /// split by first directory, give every path of the batch the lists that one set of
    /// every glob gives it.
    #[test]
    fn sets_for_a_batch_agree_with_all_sets() {
        let mut random = Lcg(11);
        let mut hit_lists = 0;
        for _ in 0..300 {
            let mut builder = MatcherBuilder::default();
            let mut near = Vec::new();
            for _ in 0..=random.below(12) {
                let mut globs = Vec::new();
                for _ in 0..=random.below(3) {
                    let (pattern, path) = glob_and_path(&mut random, 5);
                    if let Ok(compiled) = compile_pattern(&pattern) {
                        globs.extend(compiled);
                        near.push(path);
                    }
                }
                builder.add_list(globs);
            }
            let matcher = builder.build().unwrap();
            assert!(matcher.all.get().is_none());
            let all = PathMatcher(Sets::Selected(compile_sets(matcher.globs.iter()).unwrap()));
            let index = Index::compile(&matcher.globs).unwrap();
            let indexed = PathMatcher(Sets::All(&index));
            let batch: Vec<String> = (0..=random.below(6))
                .filter_map(|_| near.get(random.below(near.len() + 1)).cloned())
                .filter(|path| !path.is_empty())
                .collect();
            let selected = matcher.for_paths(&batch);
            for path in &batch {
                let mut expected = vec![false; matcher.list_count()];
                all.matching_lists(path, &mut expected, &mut Vec::new());
                let mut hits = vec![false; matcher.list_count()];
                selected.matching_lists(path, &mut hits, &mut Vec::new());
                assert_eq!(
                    hits, expected,
                    "{path:?} in {batch:?} with {:?}",
                    matcher.globs
                );
                let mut by_dir = vec![false; matcher.list_count()];
                indexed.matching_lists(path, &mut by_dir, &mut Vec::new());
                assert_eq!(by_dir, expected, "{path:?} with {:?}", matcher.globs);
                hit_lists += hits.iter().filter(|hit| **hit).count();
            }
        }
        assert!(hit_lists > 500, "{hit_lists} lists matched");
    }

    /// Globs without `[`, `{`, `}` or `\` are built only when matched, so building them must
    /// never fail: random globs of every other kind of piece always build.
    #[test]
    fn globs_without_brackets_or_escapes_always_build() {
        let pieces = [
            "a", "é", ".", "/", "*", "**", "?", ",", "]", "!", "-", "^", " ",
        ];
        let mut random = Lcg(5);
        for _ in 0..5_000 {
            let text: String = (0..=random.below(8))
                .map(|_| pieces[random.below(pieces.len())])
                .collect();
            let glob = PatternGlob::new(text.clone()).unwrap();
            assert!(glob.glob.get().is_none(), "{text:?}");
            assert!(glob.glob().is_ok(), "{text:?}");
            assert!(surely_compiles(&glob), "{text:?}");
        }
    }

    #[test]
    fn globs_that_can_fail_are_built_when_checked() {
        for text in [
            "[ab]",
            "{a,b}",
            r"a\*",
            "a}",
            &"a".repeat(DEFERRED_MAX_LEN + 1),
        ] {
            let glob = PatternGlob::new(text.to_owned());
            assert!(
                glob.is_err() || glob.unwrap().glob.get().is_some(),
                "{text}"
            );
        }
        assert!(matches!(compile_pattern("a}"), Err(GlobError::Syntax(_))));
        assert!(matches!(compile_pattern(r"a\"), Err(GlobError::Syntax(_))));
    }

    #[test]
    fn a_few_paths_compile_only_the_globs_they_can_match() {
        let mut builder = MatcherBuilder::default();
        let docs = builder.add_list(compile_pattern("docs/**").unwrap());
        let rust = builder.add_list(compile_pattern("*.rs").unwrap());
        builder.add_list(compile_pattern("**/gen/*.json").unwrap());
        let matcher = builder.build().unwrap();
        let selected = matcher.for_paths(&["docs/a.md", "README.md"]);
        let Sets::Selected(sets) = &selected.0 else {
            panic!("selected")
        };
        let globs: usize = sets.iter().map(|set| set.globs.len()).sum();
        assert_eq!(globs, 1, "only `docs/**` can match");
        let built: Vec<&str> = matcher
            .globs
            .iter()
            .filter(|(glob, _)| glob.glob.get().is_some())
            .map(|(glob, _)| glob.text())
            .collect();
        assert_eq!(built, ["docs/**"], "the others are not even built");
        let mut hits = vec![false; matcher.list_count()];
        selected.matching_lists("docs/a.md", &mut hits, &mut Vec::new());
        assert!(hits[docs.0 as usize] && !hits[rust.0 as usize]);
        assert!(
            matcher.all.get().is_none(),
            "nothing compiled for all paths"
        );
    }

    #[test]
    fn many_paths_compile_every_glob_once() {
        let mut builder = MatcherBuilder::default();
        builder.add_list(compile_pattern("docs/**").unwrap());
        builder.add_list(compile_pattern("*.rs").unwrap());
        let matcher = builder.build().unwrap();
        let paths: Vec<String> = (0..=SELECT_MAX_PATHS)
            .map(|i| format!("f{i}.txt"))
            .collect();
        let sets = matcher.for_paths(&paths);
        assert!(matches!(sets.0, Sets::All(_)));
        let index = matcher.all.get().unwrap();
        assert_eq!(index.by_dir["docs"][0].globs.len(), 1);
        assert_eq!(index.anywhere[0].globs.len(), 2);
        // From now on every batch uses them.
        assert!(matches!(matcher.for_paths(&["a.rs"]).0, Sets::All(_)));
    }

    #[test]
    fn many_batches_compile_every_glob_once_for_every_clone() {
        let mut builder = MatcherBuilder::default();
        let docs = builder.add_list(compile_pattern("docs/**").unwrap());
        let rust = builder.add_list(compile_pattern("*.rs").unwrap());
        let matcher = builder.build().unwrap();
        let clone = matcher.clone();
        let answer = |matcher: &Matcher, path: &str| {
            let mut hits = vec![false; matcher.list_count()];
            matcher
                .for_paths(&[path])
                .matching_lists(path, &mut hits, &mut Vec::new());
            (hits[docs.0 as usize], hits[rust.0 as usize])
        };
        for batch in 0..SELECT_MAX_BATCHES {
            let matcher = if batch % 2 == 0 { &matcher } else { &clone };
            assert_eq!(answer(matcher, "docs/a.md"), (true, false));
            assert!(matcher.all.get().is_none(), "batch {batch}");
        }
        // The batch after those: every glob, compiled once and shared by the clones.
        assert_eq!(answer(&clone, "src/a.rs"), (false, true));
        assert!(matcher.all.get().is_some());
        assert!(matches!(matcher.for_paths(&["x"]).0, Sets::All(_)));
        assert_eq!(answer(&matcher, "docs/b.rs"), (true, true));
    }

    macro_rules! first_dir_cases {
        ($($name:ident: $glob:expr => $expected:expr;)*) => {
            $(
                #[test]
                fn $name() {
                    assert_eq!(first_dir($glob), $expected, "{}", $glob);
                }
            )*
        };
    }

    first_dir_cases! {
        first_dir_of_a_directory: "docs/**" => Some("docs");
        first_dir_of_a_nested_glob: "src/a/**/*.rs" => Some("src");
        first_dir_of_a_file_at_the_root: "Cargo.lock" => None;
        first_dir_of_a_recursive_prefix: "**/tests/**" => None;
        first_dir_of_a_wildcard_directory: "d*/x" => None;
        first_dir_of_an_alternation: "{a,b}/x" => None;
        first_dir_of_an_escape: r"a\/b" => None;
    }

    /// A glob whose regex could make a set fail to compile has the sets compiled when the
    /// policy is loaded, so that the failure is reported then.
    #[test]
    fn risky_globs_are_compiled_when_loaded() {
        let nested = format!(
            "{}a{}",
            "{".repeat(MAX_SAFE_NESTING + 1),
            "}".repeat(MAX_SAFE_NESTING + 1)
        );
        let long = "a".repeat(REGEX_BYTES_PER_SET);
        for pattern in [nested, long] {
            let mut builder = MatcherBuilder::default();
            builder.add_list(compile_pattern(&pattern).unwrap());
            let matcher = builder.build().unwrap();
            assert!(matcher.all.get().is_some(), "{pattern}");
        }
        let too_deep = format!("{}a{}", "{".repeat(300), "}".repeat(300));
        let mut builder = MatcherBuilder::default();
        builder.add_list(compile_pattern(&too_deep).unwrap());
        assert!(matches!(builder.build(), Err(GlobError::Syntax(_))));
    }

    /// Sets filled to their limits with the globs whose regexes are largest for their
    /// length still compile: whatever globs a batch selects, a set of them compiles.
    #[test]
    fn full_sets_of_the_costliest_globs_compile() {
        let shapes = [
            "a".repeat(60),
            "?*".repeat(30),
            "{a,b}".repeat(12),
            "[!a][a-c]".repeat(7),
            "**/a/**/b/**/é".to_owned(),
            format!(
                "{}a{}",
                "{".repeat(MAX_SAFE_NESTING),
                ",b}".repeat(MAX_SAFE_NESTING)
            ),
        ];
        for shape in shapes {
            assert!(
                surely_compiles(&PatternGlob::new(shape.clone()).unwrap()),
                "{shape}"
            );
            let regex = build(&shape).unwrap().regex().len();
            let mut builder = MatcherBuilder::default();
            let count = (REGEX_BYTES_PER_SET / regex).min(GLOBS_PER_SET);
            for i in 0..count {
                // Distinct globs, so that none is merged with another.
                builder.add_list(vec![PatternGlob::new(format!("{shape}{i}")).unwrap()]);
            }
            let matcher = builder.build().unwrap();
            let paths: Vec<String> = (0..=SELECT_MAX_PATHS).map(|i| i.to_string()).collect();
            let sets = matcher.for_paths(&paths);
            assert!(matches!(sets.0, Sets::All(_)), "{shape}");
        }
    }

    #[test]
    fn plain_branch_names_match_as_their_globs_do() {
        let names = [
            "main",
            "release/1.0",
            "main2",
            "Main",
            "ma-in",
            "a.b",
            "a/",
            "x y",
            "é",
        ];
        for pattern in names {
            let glob = build(pattern).unwrap().compile_matcher();
            let branch = compile_branch(pattern).unwrap();
            assert!(branch.glob.is_none(), "{pattern}");
            for name in names {
                assert_eq!(
                    branch.is_match(name),
                    glob.is_match(name),
                    "{pattern} {name}"
                );
            }
        }
        assert!(compile_branch("rel[").is_err());
        assert!(compile_branch("release/{a").is_err());
    }

    #[test]
    fn branch_globs_do_not_cross_slash() {
        let release = compile_branch("release/*").unwrap();
        assert!(release.is_match("release/1.0"));
        assert!(!release.is_match("release/1.0/hotfix"));
        assert!(!compile_branch("main").unwrap().is_match("main2"));
    }
}
