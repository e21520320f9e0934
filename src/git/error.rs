//! The one error type of the git boundary.

use std::fmt::Write as _;
use std::path::PathBuf;

/// Everything that can go wrong while reading the repository.
///
/// Messages are lowercase, on one line, and say what is wrong and what to do; no gix type
/// leaks out (causes from gix are kept as text).
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// No repository was found from the starting directory.
    #[error(
        "not a git repository (or any parent up to /): `{}`; run astrix inside a git work tree or set `GIT_DIR`",
        path.display()
    )]
    NotARepository {
        /// Where discovery started.
        path: PathBuf,
    },
    /// The repository exists but could not be opened.
    #[error("cannot open the git repository at `{}`: {message}", path.display())]
    Open {
        /// The repository directory.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// `GIT_COMMON_DIR` names another directory than the repository's own common directory.
    #[error(
        "`GIT_COMMON_DIR` is `{}` but the repository's common directory is `{}`; unset `GIT_COMMON_DIR` or fix the worktree's `commondir` file",
        given.display(),
        actual.display()
    )]
    CommonDirMismatch {
        /// The value of `GIT_COMMON_DIR`.
        given: PathBuf,
        /// The common directory the repository declares.
        actual: PathBuf,
    },
    /// The index file could not be read or decoded.
    #[error("cannot read the index `{}`: {message}", path.display())]
    Index {
        /// The index file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The index has conflict (unmerged) entries, so there is nothing well-defined to commit.
    #[error(
        "the index has unresolved conflicts in {}; resolve them and `git add` the files",
        list_paths(paths)
    )]
    Unmerged {
        /// The conflicted paths, sorted and deduplicated.
        paths: Vec<String>,
    },
    /// An object the repository refers to is not in the object database.
    #[error(
        "object `{id}` is missing from the object database; the repository is damaged or shallow"
    )]
    MissingObject {
        /// The object id (hex).
        id: String,
    },
    /// An object could not be read or decoded.
    #[error("cannot read object `{id}`: {message}")]
    CorruptObject {
        /// The object id (hex).
        id: String,
        /// Why.
        message: String,
    },
    /// An object has another type than the place that refers to it requires.
    #[error(
        "object `{id}` is a {actual}, but a {expected} was expected; the repository is damaged"
    )]
    UnexpectedKind {
        /// The object id (hex).
        id: String,
        /// The required type.
        expected: &'static str,
        /// The type found.
        actual: String,
    },
    /// A revision could not be resolved.
    #[error("cannot resolve the revision `{rev}`: {message}")]
    Revision {
        /// The revision as given.
        rev: String,
        /// Why.
        message: String,
    },
    /// A reference could not be read.
    #[error("cannot read the reference `{name}`: {message}")]
    Reference {
        /// The reference name.
        name: String,
        /// Why.
        message: String,
    },
    /// The git configuration could not be read or holds an invalid value.
    #[error("cannot read the git configuration: {message}")]
    Config {
        /// Why.
        message: String,
    },
    /// A file of the repository (a state file such as `MERGE_HEAD`) could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The IO error.
        #[source]
        source: std::io::Error,
    },
    /// A file of the repository holds something that is not what git writes there.
    #[error("`{}` is malformed: {message}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The index or a tree nests directories deeper than astrix follows.
    #[error(
        "`{path}` is nested more than {limit} directories deep; astrix does not judge such trees"
    )]
    TooDeep {
        /// The path (lossy UTF-8) where the limit was hit.
        path: String,
        /// The depth limit.
        limit: usize,
    },
}

/// At most this many paths are named in an [`GitError::Unmerged`] message.
const LISTED_PATHS: usize = 10;

fn list_paths(paths: &[String]) -> String {
    let mut out = String::new();
    for (index, path) in paths.iter().take(LISTED_PATHS).enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "`{path}`");
    }
    if paths.len() > LISTED_PATHS {
        let _ = write!(out, " and {} more", paths.len() - LISTED_PATHS);
    }
    out
}

/// Renders a foreign error (gix) on one line, causes joined by `: `.
pub(crate) fn message(err: &(dyn std::error::Error + 'static)) -> String {
    let mut out = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = cause.source();
    }
    out.replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmerged_message_lists_paths_and_says_what_to_do() {
        let err = GitError::Unmerged {
            paths: vec!["a.txt".to_owned(), "b c.txt".to_owned()],
        };
        assert_eq!(
            err.to_string(),
            "the index has unresolved conflicts in `a.txt`, `b c.txt`; resolve them and `git add` the files"
        );
    }

    #[test]
    fn unmerged_message_is_bounded() {
        let paths = (0..25).map(|i| format!("f{i}")).collect();
        let text = GitError::Unmerged { paths }.to_string();
        assert!(text.contains("`f9` and 15 more"), "{text}");
        assert!(!text.contains("f10"));
    }

    #[test]
    fn not_a_repository_message() {
        let err = GitError::NotARepository {
            path: PathBuf::from("/tmp/x"),
        };
        assert!(
            err.to_string()
                .starts_with("not a git repository (or any parent up to /)")
        );
    }
}
