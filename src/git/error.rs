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
    #[error(
        "cannot open the git repository at `{}`: {message}; check that it is intact (`git status` works there) and that the user running astrix may read it",
        path.display()
    )]
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
    /// The index file does not decode, or holds what git never writes there.
    #[error(
        "the index `{}` is damaged: {message}; rebuild it from HEAD with `git read-tree HEAD` (the work tree is left alone) and stage the change again",
        path.display()
    )]
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
    #[error("{}", missing_message(id, what.as_deref(), *history))]
    MissingObject {
        /// The object id (hex).
        id: String,
        /// What the object is, when the caller knows ("the new content of \`a.txt\`").
        what: Option<String>,
        /// Whether the repository was cloned without all of its history or objects.
        history: History,
    },
    /// An object could not be read or decoded.
    #[error(
        "object `{id}`{} is damaged: {message}; `git fsck` lists the damaged objects: restore them from a clone or a backup that has them",
        concerning(what.as_deref())
    )]
    CorruptObject {
        /// The object id (hex).
        id: String,
        /// What the object is, when the caller knows.
        what: Option<String>,
        /// Why.
        message: String,
    },
    /// A file or directory of the repository exists but may not be read (its permissions).
    #[error(
        "cannot read `{}`{}: {error}; astrix reads the repository as the user that runs it (and git): give that user read access to it",
        path.display(),
        concerning(what.as_deref())
    )]
    Access {
        /// The file or directory.
        path: PathBuf,
        /// What it holds, when that is not plain from the path ("object \`…\`").
        what: Option<String>,
        /// The IO error (in the message, so not a `source`: reports would print it twice).
        error: std::io::Error,
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
    /// A revision that names more than one thing, or not what its form promises
    /// ([`super::Repository::resolve_exact`]).
    #[error("`{rev}` {message}")]
    AmbiguousRevision {
        /// The revision as given.
        rev: String,
        /// What it names, and what to pass instead.
        message: String,
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
    #[error(
        "cannot read the reference `{name}`: {message}; check that the repository is intact (`git status` works there) and that the user running astrix may read it"
    )]
    Reference {
        /// The reference name.
        name: String,
        /// Why.
        message: String,
    },
    /// git's own plumbing, which reads what gix cannot (a reftable repository's references),
    /// failed.
    #[error(
        "astrix reads this repository's references with git, and `{command}` failed: {message}; check that git (2.45 or later for reftable repositories) is on PATH and that `git status` works here"
    )]
    GitCommand {
        /// The command, as run (without `--git-dir`).
        command: String,
        /// What git said, or why it could not start.
        message: String,
    },
    /// The git configuration could not be read or holds an invalid value.
    #[error("cannot read the git configuration: {message}")]
    Config {
        /// Why.
        message: String,
    },
    /// A file of the repository (a state file such as `MERGE_HEAD`) could not be read.
    #[error("cannot read `{}`: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The IO error (in the message, so not a `source`: reports would print it twice).
        error: std::io::Error,
    },
    /// A commit's files could not be written out ([`crate::git::Repository::export_commit`]).
    #[error(
        "cannot write `{}`: {error}; check that the temporary directory is writable and has room for a copy of the repository's files",
        path.display()
    )]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The IO error.
        error: std::io::Error,
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

/// How much of its history and objects a repository was cloned with: what an absent object
/// means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum History {
    /// All of it: an absent object is damage.
    Complete,
    /// A shallow clone (`git clone --depth`): history stops at the commits in
    /// `$GIT_DIR/shallow`.
    Shallow,
    /// A partial clone (`git clone --filter`): objects are fetched from the promisor remote
    /// when needed; this one could not be.
    Partial,
}

/// The message of [`GitError::MissingObject`].
fn missing_message(id: &str, what: Option<&str>, history: History) -> String {
    let what = concerning(what);
    match history {
        History::Complete => format!(
            "object `{id}`{what} is missing from the object database, so the repository is damaged; `git fsck` lists what is missing: `git add` a staged file again to store its content, and fetch or copy other objects from a clone that has them"
        ),
        History::Shallow => format!(
            "object `{id}`{what} is not in this shallow clone: its history is cut off before what astrix has to read; fetch the full history (`git fetch --unshallow`; `fetch-depth: 0` for actions/checkout, `GIT_DEPTH: 0` on GitLab CI)"
        ),
        History::Partial => format!(
            "object `{id}`{what} is not in this partial clone, and git could not fetch it from the promisor remote; check that the remote is reachable from here (`git cat-file -p {id}` fetches it), or clone without `--filter` (leave `filter` unset for actions/checkout)"
        ),
    }
}

impl GitError {
    /// A missing object in a repository with `history`.
    pub(crate) fn missing_from(id: &impl ToString, history: History) -> Self {
        GitError::MissingObject {
            id: id.to_string(),
            what: None,
            history,
        }
    }

    /// An object that does not read or decode.
    pub(crate) fn corrupt(id: &impl ToString, message: String) -> Self {
        GitError::CorruptObject {
            id: id.to_string(),
            what: None,
            message,
        }
    }

    /// Says what the object of a missing, damaged or unreadable object error is ("the new
    /// content of \`a.txt\`"), unless the error says so already; other errors are returned
    /// as they are.
    #[must_use]
    pub(crate) fn concerning(mut self, describe: impl FnOnce() -> String) -> Self {
        if let GitError::MissingObject { what, .. }
        | GitError::CorruptObject { what, .. }
        | GitError::Access { what, .. } = &mut self
        {
            match what {
                Some(known) if known.starts_with("object `") && !known.contains(',') => {
                    known.push_str(", ");
                    known.push_str(&describe());
                }
                Some(_) => {}
                None => *what = Some(describe()),
            }
        }
        self
    }
}

/// ` (what)`, or nothing.
fn concerning(what: Option<&str>) -> String {
    what.map(|what| format!(" ({what})")).unwrap_or_default()
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
