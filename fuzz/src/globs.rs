//! An independent reading of SPEC §3's path patterns (.gitignore / CODEOWNERS semantics),
//! for the simple patterns the `evaluate` model writes and for the default `[tests].paths`:
//! segments of literal text, `*`, `?` and `[abc]` classes, and `**` as a whole segment.
//!
//! - a pattern without `/` (other than a trailing one) matches a name at any depth;
//! - a pattern with `/` is anchored at the root; a leading `/` anchors explicitly;
//! - `*` and `?` never cross `/`; `**` matches any number of whole segments, and a trailing
//!   `/**` at least one;
//! - a pattern that matches a directory matches everything below it.

/// Whether `path` (normalised, `/`-separated) matches the gitignore-style `pattern`.
pub fn matches(pattern: &str, path: &str) -> bool {
    let trimmed = pattern.strip_suffix('/').unwrap_or(pattern);
    let anchored = trimmed.contains('/');
    let body = trimmed.strip_prefix('/').unwrap_or(trimmed);
    let mut segments: Vec<&str> = body.split('/').collect();
    if !anchored && segments.first() != Some(&"**") {
        segments.insert(0, "**");
    }
    let path: Vec<&str> = path.split('/').collect();
    // The pattern itself, or any directory it names (a proper prefix of the path).
    (1..=path.len()).any(|end| whole(&segments, &path[..end], true))
}

/// Matches all of `path` against all of `pattern`; `start` says whether `pattern` begins
/// the original pattern (a leading `**/` may match nothing).
fn whole(pattern: &[&str], path: &[&str], start: bool) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => {
            // A trailing `/**` after other segments needs at least one segment.
            let min = usize::from(rest.is_empty() && !start);
            (min..=path.len()).any(|skip| whole(rest, &path[skip..], false))
        }
        Some((first, rest)) => match path.split_first() {
            Some((name, tail)) => {
                segment(first.as_bytes(), name.as_bytes()) && whole(rest, tail, false)
            }
            None => false,
        },
    }
}

/// One segment: `*` any run, `?` one character, `[abc]` one of those characters.
fn segment(pattern: &[u8], name: &[u8]) -> bool {
    let name = String::from_utf8_lossy(name);
    let chars: Vec<char> = name.chars().collect();
    let pattern = String::from_utf8_lossy(pattern);
    let pattern: Vec<char> = pattern.chars().collect();
    glob(&pattern, &chars)
}

fn glob(pattern: &[char], name: &[char]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some(('*', rest)) => (0..=name.len()).any(|skip| glob(rest, &name[skip..])),
        Some(('?', rest)) => !name.is_empty() && glob(rest, &name[1..]),
        Some(('[', rest)) => {
            let Some(close) = rest.iter().position(|&c| c == ']') else {
                return false;
            };
            let class = &rest[..close];
            !name.is_empty() && class.contains(&name[0]) && glob(&rest[close + 1..], &name[1..])
        }
        Some((c, rest)) => name.first() == Some(c) && glob(rest, &name[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn gitignore_semantics() {
        for (pattern, path, expected) in [
            ("*.md", "README.md", true),
            ("*.md", "docs/a/b.md", true),
            ("docs/*.md", "docs/b.md", true),
            ("docs/*.md", "docs/x/b.md", false),
            ("docs/**", "docs/x/b.md", true),
            ("docs/**", "docs", false),
            ("/Cargo.lock", "Cargo.lock", true),
            ("/Cargo.lock", "x/Cargo.lock", false),
            ("Cargo.lock", "x/Cargo.lock", true),
            (".github", ".github/workflows/ci.yml", true),
            ("docs/", "docs/a.md", true),
            ("**/tests/**", "tests/a.rs", true),
            ("**/tests/**", "src/tests/a.rs", true),
            ("**/tests/**", "tests", false),
            ("*_test.*", "pkg/x_test.go", true),
            ("test_*.py", "test_y.py", true),
            ("a/**/b", "a/b", true),
            ("a/**/b", "a/x/y/b", true),
            ("?rc", "src", true),
            ("[abc]*", "a.rs", true),
            ("[abc]*", "src", false),
            ("*", "src/a.rs", true),
            ("**", "a.rs", true),
        ] {
            assert_eq!(matches(pattern, path), expected, "{pattern} vs {path}");
        }
    }
}
