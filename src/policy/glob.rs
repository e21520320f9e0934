//! Path globs with .gitignore / CODEOWNERS semantics, compiled once per policy.
//!
//! - a pattern without `/` (other than a trailing one) matches a name at any depth:
//!   `*.md`, `Cargo.lock`;
//! - a pattern with `/` is anchored at the repository root: `docs/*.md` is one level,
//!   `docs/**` any depth; a leading `/` anchors explicitly;
//! - `*` and `?` never cross `/`, `**` does; matching is case-sensitive;
//! - a pattern that names a directory also matches everything below it (`docs`, `docs/`,
//!   `.github` match `.github/workflows/ci.yml`).
//!
//! Every list of patterns in a policy is registered with one [`MatcherBuilder`], which
//! compiles all of them into combined glob sets, so that a path is matched against every
//! list of every rule in one pass ([`Matcher::matching_lists`]).

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

/// The globset globs that implement one gitignore-style pattern.
pub fn compile_pattern(pattern: &str) -> Result<Vec<Glob>, GlobError> {
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
    let mut globs = vec![build(&base)?];
    if !base.ends_with("/**") {
        // A pattern that names a directory covers the files below it.
        globs.push(build(&format!("{base}/**"))?);
    }
    Ok(globs)
}

/// A single branch-name glob: anchored, `*` never crosses `/`.
pub fn compile_branch(pattern: &str) -> Result<globset::GlobMatcher, GlobError> {
    if pattern.is_empty() {
        return Err(GlobError::Empty);
    }
    Ok(build(pattern)?.compile_matcher())
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
    globs: Vec<(Glob, ListId)>,
    lists: u32,
}

/// Globs per compiled set. globset refuses a single set that grows past the regex engine's
/// size limit (around 12,000 complex globs), so large policies are split into several sets
/// (and a set that is still refused is split further, see [`compile_set`]). Smaller sets
/// also keep the regex engine's per-set caches small: with 20,000 rules of three globs,
/// sets of 2,000 grew to 3 GB matching 1,000 paths and 8 GB matching 10,000, sets of 500
/// stay under 750 MB, and compile in the same time.
const GLOBS_PER_SET: usize = 500;

impl MatcherBuilder {
    /// Registers a list of patterns that were already checked with [`compile_pattern`].
    pub fn add_list(&mut self, globs: Vec<Glob>) -> ListId {
        let id = ListId(self.lists);
        self.lists += 1;
        self.globs.extend(globs.into_iter().map(|glob| (glob, id)));
        id
    }

    /// Compiles every registered list.
    pub fn build(self) -> Result<Matcher, GlobError> {
        let mut sets = Vec::new();
        let mut owners = Vec::new();
        for chunk in self.globs.chunks(GLOBS_PER_SET) {
            compile_set(chunk, &mut sets, &mut owners)?;
        }
        Ok(Matcher {
            sets,
            owners,
            lists: self.lists as usize,
        })
    }
}

/// Compiles `globs` into one set, or into two halves, recursively, when the regex engine
/// refuses the set as too large: its size limit is per set, and heavy globs (long runs of
/// `?`, which match any character but `/`) reach it with far fewer than [`GLOBS_PER_SET`].
/// A glob that is refused on its own is reported.
fn compile_set(
    globs: &[(Glob, ListId)],
    sets: &mut Vec<GlobSet>,
    owners: &mut Vec<Vec<ListId>>,
) -> Result<(), GlobError> {
    let mut builder = GlobSetBuilder::new();
    for (glob, _) in globs {
        builder.add(glob.clone());
    }
    match builder.build() {
        Ok(set) => {
            sets.push(set);
            owners.push(globs.iter().map(|(_, list)| *list).collect());
            Ok(())
        }
        Err(_) if globs.len() > 1 => {
            let (first, second) = globs.split_at(globs.len() / 2);
            compile_set(first, sets, owners)?;
            compile_set(second, sets, owners)
        }
        Err(err) => Err(GlobError::Syntax(err.to_string())),
    }
}

/// All pattern lists of a policy, compiled.
#[derive(Debug, Clone, Default)]
pub struct Matcher {
    sets: Vec<GlobSet>,
    owners: Vec<Vec<ListId>>,
    lists: usize,
}

impl Matcher {
    /// Number of registered lists.
    pub fn list_count(&self) -> usize {
        self.lists
    }

    /// Marks in `hits` (indexed by list) every list with a pattern that matches `path`.
    /// `scratch` is reused between calls to avoid allocation.
    pub fn matching_lists(&self, path: &str, hits: &mut [bool], scratch: &mut Vec<usize>) {
        let candidate = globset::Candidate::new(path);
        for (set, owners) in self.sets.iter().zip(&self.owners) {
            set.matches_candidate_into(&candidate, scratch);
            for &index in scratch.iter() {
                if let Some(list) = owners.get(index) {
                    if let Some(hit) = hits.get_mut(list.0 as usize) {
                        *hit = true;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        let mut builder = MatcherBuilder::default();
        builder.add_list(compile_pattern(pattern).unwrap());
        let matcher = builder.build().unwrap();
        let mut hits = vec![false];
        matcher.matching_lists(path, &mut hits, &mut Vec::new());
        hits[0]
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
        assert_eq!(compile_pattern(""), Err(GlobError::Empty));
        assert_eq!(compile_pattern("/"), Err(GlobError::Empty));
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
        assert!(matcher.sets.len() > 2, "{} sets", matcher.sets.len());
        let mut hits = vec![false; matcher.list_count()];
        let path = format!("src/x299/{}/d.rs", "y".repeat(400));
        matcher.matching_lists(&path, &mut hits, &mut Vec::new());
        let hit_lists: Vec<usize> = (0..hits.len()).filter(|&i| hits[i]).collect();
        assert_eq!(hit_lists, [lists[299].0 as usize]);
    }

    #[test]
    fn branch_globs_do_not_cross_slash() {
        let release = compile_branch("release/*").unwrap();
        assert!(release.is_match("release/1.0"));
        assert!(!release.is_match("release/1.0/hotfix"));
        assert!(!compile_branch("main").unwrap().is_match("main2"));
    }
}
