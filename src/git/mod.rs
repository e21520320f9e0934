//! The git boundary: the only module that reads the repository (and the only one that imports
//! gix). Everything it returns is plain owned data.
//!
//! [`Repository::open`] finds the repository the way git's hooks see it (`GIT_DIR`,
//! `GIT_WORK_TREE`, `GIT_INDEX_FILE` from an [`EnvSnapshot`], linked worktrees,
//! subdirectories); [`Repository::staged_change`] is what `git commit` is about to record,
//! compared with `HEAD` (and, when a merge is being concluded, with every `MERGE_HEAD`), with
//! line counts equal to `git diff --cached --numstat`; [`Repository::commit_change`] is the
//! same for an existing commit.
//!
//! Choices where git offers several behaviours:
//! - Paths that are not UTF-8 are converted lossily (U+FFFD): such a file is still listed and
//!   counted, but its name is not byte-exact. Files are told apart by their bytes, so two
//!   names that differ only in replaced bytes are still two files.
//! - The facts of a change are computed with fixed settings, never the actor's: renames at
//!   git's default 50% similarity (no copies, git's default rename limit), git's default
//!   Myers diff for line counts, and a blob is binary when its first 8,000 bytes hold a NUL
//!   — `.gitattributes`, `core.attributesFile`, diff drivers, textconv, `diff.renames`,
//!   `diff.algorithm` and `core.bigFileThreshold` change nothing. The counts are those of
//!   `git diff --numstat` run with git's defaults and no attributes. What a team wants left
//!   out of the counts it names in the committed policy (`[facts] exclude`).
//! - Replacement objects (`git replace`, `refs/replace/*`, gitoxide's replace-ref base), grafts
//!   and the commit-graph file are never read: astrix judges the objects git commits.
//! - Submodule pointer changes are always reported (`diff.ignoreSubmodules` and
//!   `submodule.<name>.ignore` do not hide what a commit records).
//! - Merges are judged with git's combined rule: the paths whose content differs from every
//!   parent, each counted against the parent it differs from least; no renames are paired.
//! - A sparse index is expanded; a split index is read with its shared index.
//! - References are read through gix, or through git's plumbing in a reftable repository
//!   (see `refs.rs`).

mod change;
mod config;
mod count;
mod error;
mod history;
mod lines;
mod patch;
mod refs;
mod rename;
mod tree;
mod walk;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};

pub use change::{
    Change, ChangeKind, ChangeOptions, Entry, EntryMode, FileChange, LineCount, Totals,
};
pub use error::{GitError, History};
pub use history::{CommitInfo, CommitMeta, Signature, Snapshot, SnapshotFile, Trailer};

use crate::env::{
    EnvSnapshot, GIT_CEILING_DIRECTORIES, GIT_COMMON_DIR, GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE,
};
use error::message;
use rename::{Blobs, Pair, RenameOptions, Side, Status};
use tree::{BlobSource, Item, Objects, RawChange, same_type};

/// git's default `diff.renameLimit` for `git diff`: past 1000 × 1000 candidate pairs, inexact
/// renames are not looked for (which only ever raises the counts).
const RENAME_LIMIT: i64 = 1000;

/// An open repository, as seen from one working directory and environment.
#[derive(Debug)]
pub struct Repository {
    repo: gix::Repository,
    refs: refs::RefStore,
    /// Blobs read recently (see [`tree::BlobCache`]).
    blobs: std::cell::RefCell<tree::BlobCache>,
    common_dir: PathBuf,
    index_path: PathBuf,
    work_dir: Option<PathBuf>,
    /// The directory [`Self::open`] started from ([`Self::opened_from`]).
    opened_from: PathBuf,
}

/// The number of objects in the largest pack of `common_dir`'s object directory, when no
/// multi-pack-index covers the packs there; `None` when one does, or when no pack index can be
/// read. Read from each pack index's fan-out table (its first kilobyte).
///
/// gix checks every offset of a pack index when it opens it, in every process: for a
/// million objects, about half of what judging a branch update costs. A multi-pack-index is
/// opened without that check.
pub fn largest_pack_without_multi_index(common_dir: &Path) -> Option<u32> {
    use std::io::Read as _;

    const FAN_OUT_END: usize = 8 + 256 * 4;
    let pack = common_dir.join("objects").join("pack");
    if pack.join("multi-pack-index").exists() {
        return None;
    }
    let mut largest = None;
    for entry in std::fs::read_dir(&pack).ok()?.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|extension| extension != "idx") {
            continue;
        }
        let mut header = [0u8; FAN_OUT_END];
        let read = std::fs::File::open(&path).and_then(|mut file| file.read_exact(&mut header));
        // Version 2, the only one git has written since 2007: a magic number, the version,
        // then the fan-out table whose last entry is the number of objects.
        if read.is_err() || header[..8] != *b"\xfftOc\0\0\0\x02" {
            continue;
        }
        let mut count = [0u8; 4];
        count.copy_from_slice(&header[FAN_OUT_END - 4..]);
        let count = u32::from_be_bytes(count);
        largest = largest.max(Some(count));
    }
    largest
}

/// What `HEAD` is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// On a branch without commits yet (a new repository or an orphan branch).
    Unborn {
        /// The short branch name (`main`); `None` while `git clone` has not yet set HEAD
        /// (it holds the placeholder `refs/heads/.invalid`).
        branch: Option<String>,
    },
    /// On a branch.
    Branch {
        /// The short branch name (`main`, `release/1.0`).
        name: String,
        /// The commit it points at (hex).
        commit: String,
    },
    /// Detached at a commit.
    Detached {
        /// The commit (hex).
        commit: String,
    },
}

/// A file's content and blob id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    /// The blob id (hex).
    pub id: String,
    /// The content.
    pub data: Vec<u8>,
}

/// A branch reference and the commit it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchRef {
    /// The full reference name (`refs/remotes/origin/main`, `refs/heads/main`).
    pub name: String,
    /// The commit (hex).
    pub commit: String,
}

/// `user.name` and `user.email` from the git configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identity {
    /// `user.name`, when set.
    pub name: Option<String>,
    /// `user.email`, when set.
    pub email: Option<String>,
}

impl Repository {
    /// Opens the repository that git would use from `cwd` with the environment `env`:
    /// `GIT_DIR` (else discovery upwards from `cwd`, stopping at `GIT_CEILING_DIRECTORIES`),
    /// `GIT_WORK_TREE`, `GIT_INDEX_FILE` (relative values are relative to `cwd`), linked
    /// worktrees; configuration comes from the snapshot's `HOME`, `XDG_CONFIG_HOME`,
    /// `GIT_CONFIG_*`, never from the process environment.
    pub fn open(cwd: &Path, env: &EnvSnapshot) -> Result<Self, GitError> {
        let cwd = std::path::absolute(cwd).map_err(|error| GitError::Io {
            path: cwd.to_owned(),
            error,
        })?;
        // Strict, as git is: a repository configuration that cannot be read or holds an
        // invalid value is an error, not silently skipped (it decides renames, the diff
        // algorithm and what is binary).
        // Replacement objects (`git replace`, `refs/replace/*`) are not followed, whatever the
        // configuration: astrix judges the objects git commits, never what a replace ref
        // shows in their place. Nor is the commit-graph file read: it is a cache under `.git`
        // that anyone who can write there can forge, and ancestry decides what is judged.
        let mut options = gix::open::Options::isolated()
            .strict_config(true)
            .cli_overrides(["core.useReplaceRefs=false", "core.commitGraph=false"]);
        options.permissions.config.includes = true;
        let explicit_dir = env
            .get_os(GIT_DIR)
            .filter(|dir| !dir.is_empty())
            .map(|dir| cwd.join(dir));
        let mut repo = match &explicit_dir {
            Some(git_dir) => open_explicit(git_dir, options)?,
            None => discover(&cwd, env, options)?,
        };
        config::layer(&mut repo, env)?;
        set_pack_cache(&mut repo);
        if let Some(common) = env.get_os(GIT_COMMON_DIR).filter(|dir| !dir.is_empty()) {
            let given = cwd.join(common);
            if !same_dir(&given, repo.common_dir()) {
                return Err(GitError::CommonDirMismatch {
                    given,
                    actual: repo.common_dir().to_owned(),
                });
            }
        }
        let work_dir = if let Some(work_tree) =
            env.get_os(GIT_WORK_TREE).filter(|dir| !dir.is_empty())
        {
            Some(cwd.join(work_tree))
        } else if explicit_dir.is_some() {
            // git: with `GIT_DIR` set, `core.worktree` names the work tree; else a bare
            // repository has none; else the current directory is its top.
            let configured = repo.config_snapshot().string("core.worktree");
            let bare = repo.config_snapshot().boolean("core.bare").unwrap_or(false);
            match configured {
                Some(path) => {
                    let path =
                        gix::path::from_bstr(path.as_bstr()).map_err(|err| GitError::Config {
                            message: format!("`core.worktree` is not a path: {}", message(&err)),
                        })?;
                    Some(repo.git_dir().join(path))
                }
                None if bare => None,
                None => Some(cwd.clone()),
            }
        } else {
            repo.workdir().map(Path::to_owned)
        };
        let index_path = match env.get_os(GIT_INDEX_FILE).filter(|file| !file.is_empty()) {
            Some(file) => cwd.join(file),
            None => repo.git_dir().join("index"),
        };
        // A linked worktree's `commondir` is usually `../..`: report it without the dots.
        let common_dir = normalize(repo.common_dir());
        let storage = ref_storage(repo.common_dir())?;
        let refs = refs::RefStore::new(
            storage.as_deref(),
            repo.git_dir().to_owned(),
            env.vars()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        )?;
        Ok(Self {
            repo,
            refs,
            blobs: std::cell::RefCell::default(),
            common_dir,
            index_path,
            work_dir,
            opened_from: cwd,
        })
    }

    /// The directory this repository was opened from: [`Self::open`] of it (in the same
    /// environment) opens the same repository on another thread, as gix's handles cannot
    /// cross threads (this build leaves out gix's `parallel` feature).
    pub fn opened_from(&self) -> &Path {
        &self.opened_from
    }

    /// Object access, with the repository's cache of recently read blobs.
    fn objects(&self) -> Objects<'_> {
        Objects::new(&self.repo, &self.blobs)
    }

    /// The repository's private git directory (`.git`, or `.git/worktrees/<name>`).
    pub fn git_dir(&self) -> &Path {
        self.repo.git_dir()
    }

    /// The common git directory, shared by linked worktrees (approvals and the log live here).
    pub fn common_dir(&self) -> &Path {
        &self.common_dir
    }

    /// The work tree, if the repository has one.
    pub fn work_dir(&self) -> Option<&Path> {
        self.work_dir.as_deref()
    }

    /// The index file that is read (`GIT_INDEX_FILE` when set).
    pub fn index_path(&self) -> &Path {
        &self.index_path
    }

    /// What `git commit` is about to record: HEAD's tree (the empty tree on an unborn branch)
    /// against the index. When `MERGE_HEAD` exists, only the paths that differ from every
    /// parent are listed, each counted against its closest parent.
    pub fn staged_change(&self, options: &ChangeOptions) -> Result<Change, GitError> {
        self.staged_change_on(self.head_commit()?, self.merge_head_ids()?, options)
    }

    /// What `git commit --amend` is about to record, as the whole commit that replaces HEAD:
    /// the index against HEAD's parents (the empty tree when HEAD is a root commit), by the
    /// rules of [`Self::staged_change`].
    pub fn staged_amend_change(&self, options: &ChangeOptions) -> Result<Change, GitError> {
        let head = self.resolve_commit("HEAD")?;
        let (_, mut parents) = self.objects().commit(&head)?;
        let first = (!parents.is_empty()).then(|| parents.remove(0));
        self.staged_change_on(first, parents, options)
    }

    /// Whether the index holds exactly the tree of `commit`: what `git commit` has just
    /// recorded from it (a commit made otherwise, with `git commit-tree`, leaves the index
    /// as it was).
    pub fn index_matches_commit(&self, commit: &str) -> Result<bool, GitError> {
        let id = self.resolve_commit(commit)?;
        let index = self.load_index()?;
        let objects = self.objects();
        let (tree, _) = objects.commit(&id)?;
        Ok(objects
            .diff_tree_index(Some(tree), &index)?
            .changes
            .is_empty())
    }

    /// The index against `head`'s tree, concluding a merge with `merge_heads` when there are
    /// any.
    fn staged_change_on(
        &self,
        head: Option<ObjectId>,
        merge_heads: Vec<ObjectId>,
        options: &ChangeOptions,
    ) -> Result<Change, GitError> {
        let index = self.load_index()?;
        check_unmerged(&index)?;
        let objects = self.objects();
        let head_tree = head
            .map(|id| {
                objects
                    .commit(&id)
                    .map_err(|err| err.concerning(|| "the commit HEAD points at".to_owned()))
            })
            .transpose()?
            .map(|c| c.0);
        let diff = objects.diff_tree_index(head_tree, &index)?;
        self.check_cache_tree(&objects, &index, &diff)?;
        let raw = diff.changes;
        let mut others = Vec::new();
        for merge_head in &merge_heads {
            let (tree, _) = objects.commit(merge_head)?;
            let diff = objects.diff_tree_index(Some(tree), &index)?;
            self.check_cache_tree(&objects, &index, &diff)?;
            others.push(diff.changes);
        }
        let mut parents: Vec<ObjectId> = head.into_iter().collect();
        // The index is not needed to read the content: freed first, so that its entries (10
        // MiB for 100,000 files) and the pack pages the content reads are not held at once.
        drop(index);
        let mut content = Content {
            two_threads: true,
            ..Content::new(&objects)
        };
        if merge_heads.is_empty() {
            let files = Self::ordinary(raw, &mut content, options)?;
            return Ok(finish(files, &parents));
        }
        parents.extend(merge_heads);
        let files = combined(raw, others, &mut content, options)?;
        Ok(finish(files, &parents))
    }

    /// Refuses an index whose cache tree would make git commit other content than the
    /// entries the walk judged (see [`Objects::cache_tree_problem`]).
    fn check_cache_tree(
        &self,
        objects: &Objects<'_>,
        index: &gix::index::State,
        diff: &tree::IndexDiff,
    ) -> Result<(), GitError> {
        match objects.cache_tree_problem(index, diff)? {
            Some(message) => Err(GitError::Index {
                path: self.index_path.clone(),
                message,
            }),
            None => Ok(()),
        }
    }

    /// The change a commit makes: its tree against its first parent's (the empty tree for a
    /// root commit); for a merge commit, the combined rule of [`Self::staged_change`].
    pub fn commit_change(&self, rev: &str, options: &ChangeOptions) -> Result<Change, GitError> {
        let objects = self.objects();
        let id = self.resolve_commit(rev)?;
        let (tree, parents) = objects.commit(&id)?;
        let first_tree = parents
            .first()
            .map(|parent| objects.commit(parent))
            .transpose()?
            .map(|c| c.0);
        let raw = objects.diff_trees(first_tree, Some(tree))?;
        let mut content = Content::new(&objects);
        if parents.len() < 2 {
            let files = Self::ordinary(raw, &mut content, options)?;
            return Ok(finish(files, &parents));
        }
        let mut others = Vec::new();
        for parent in &parents[1..] {
            let (parent_tree, _) = objects.commit(parent)?;
            others.push(objects.diff_trees(Some(parent_tree), Some(tree))?);
        }
        let files = combined(raw, others, &mut content, options)?;
        Ok(finish(files, &parents))
    }

    /// What HEAD is: an unborn branch, a branch at a commit, or a detached commit. The
    /// placeholder of a clone in progress is an unborn HEAD without a branch.
    pub fn head(&self) -> Result<Head, GitError> {
        Ok(match self.head_ref()? {
            refs::HeadRef::Unset => Head::Unborn { branch: None },
            refs::HeadRef::Detached(id) => Head::Detached {
                commit: id.to_string(),
            },
            refs::HeadRef::Symbolic(name) => {
                let short = short_branch(name.as_bytes().as_bstr());
                match self.peel_ref(&name)? {
                    Some(commit) => Head::Branch {
                        name: short,
                        commit: commit.to_string(),
                    },
                    None => Head::Unborn {
                        branch: Some(short),
                    },
                }
            }
        })
    }

    /// The branch being rebased while a rebase is stopped (`rebase-merge/head-name` or
    /// `rebase-apply/head-name`), as a short name; `None` when no rebase is in progress or it
    /// rebases a detached HEAD.
    pub fn rebase_branch(&self) -> Result<Option<String>, GitError> {
        for dir in ["rebase-merge", "rebase-apply"] {
            let path = self.git_dir().join(dir).join("head-name");
            let Some(text) = read_optional(&path)? else {
                continue;
            };
            let name = text.trim();
            return Ok(name
                .starts_with("refs/")
                .then(|| short_branch(name.as_bytes().as_bstr())));
        }
        Ok(None)
    }

    /// The file at `path` in revision `rev` (for example `HEAD` and `Astrixfile.ax`); `None`
    /// when the revision or the file does not exist (or the path is a directory or a
    /// submodule); an error when the repository is damaged. Like `git rev-parse --verify`, a
    /// name that does not resolve to a commit (unknown, out of range, malformed) is no
    /// revision.
    pub fn file_at_rev(&self, rev: &str, path: &str) -> Result<Option<Blob>, GitError> {
        let Some(id) = self.file_id_at_rev(rev, path)? else {
            return Ok(None);
        };
        let what = || format!("`{path}` at `{rev}`");
        Ok(Some(Blob {
            data: self
                .objects()
                .blob(&id)
                .map_err(|err| err.concerning(what))?,
            id: id.to_string(),
        }))
    }

    /// The id of the file [`Self::file_at_rev`] reads, without reading its content.
    pub fn file_blob_id(&self, rev: &str, path: &str) -> Result<Option<String>, GitError> {
        Ok(self.file_id_at_rev(rev, path)?.map(|id| id.to_string()))
    }

    fn file_id_at_rev(&self, rev: &str, path: &str) -> Result<Option<gix::ObjectId>, GitError> {
        let Some(commit) = self.try_resolve_commit(rev)? else {
            return Ok(None);
        };
        let objects = self.objects();
        let what = || format!("`{path}` at `{rev}`");
        let (tree, _) = objects
            .commit(&commit)
            .map_err(|err| err.concerning(what))?;
        let Some(item) = objects
            .entry_at(tree, path.as_bytes().as_bstr())
            .map_err(|err| err.concerning(what))?
        else {
            return Ok(None);
        };
        if item.mode == EntryMode::Submodule.octal() {
            return Ok(None);
        }
        Ok(Some(item.id))
    }

    /// The staged file at `path` (stage 0; `None` when absent, conflicted, intent-to-add or
    /// a submodule).
    pub fn file_in_index(&self, path: &str) -> Result<Option<Blob>, GitError> {
        let index = self.load_index()?;
        let Some(entry) = index.entry_by_path_and_stage(
            path.as_bytes().as_bstr(),
            gix::index::entry::Stage::Unconflicted,
        ) else {
            return Ok(None);
        };
        if entry
            .flags
            .contains(gix::index::entry::Flags::INTENT_TO_ADD)
            || entry.mode == gix::index::entry::Mode::COMMIT
            || entry.mode.is_sparse()
        {
            return Ok(None);
        }
        let objects = self.objects();
        Ok(Some(Blob {
            id: entry.id.to_string(),
            data: objects
                .blob(&entry.id)
                .map_err(|err| err.concerning(|| format!("the staged `{path}`")))?,
        }))
    }

    /// True when the repository has any commit at all: HEAD resolves, or any reference
    /// points at an object. Tells the first commit of a repository from an orphan branch.
    pub fn has_any_commit(&self) -> Result<bool, GitError> {
        if self.head_commit()?.is_some() {
            return Ok(true);
        }
        for (_, value) in self.list_refs("refs/")? {
            if let refs::RefValue::Object(id) = value
                && self.repo.has_object(id)
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A configuration value as git reads it (`branch.main.remote`), `None` when unset or
    /// empty.
    pub fn config_string(&self, key: &str) -> Option<String> {
        self.repo
            .config_snapshot()
            .string(key)
            .map(|value| value.to_str_lossy().into_owned())
            .filter(|value| !value.is_empty())
    }

    /// The local default branch: `init.defaultBranch`, else `main`, else `master`, else the
    /// branch HEAD names, whichever exists first. Only local branches: a remote-tracking ref (`origin/HEAD`) can be moved
    /// by any command without anything judging it.
    pub fn default_branch_ref(&self) -> Result<Option<BranchRef>, GitError> {
        let mut candidates = Vec::new();
        if let Some(name) = self.repo.config_snapshot().string("init.defaultBranch") {
            let name = name.to_str_lossy();
            if !name.is_empty() {
                candidates.push(format!("refs/heads/{name}"));
            }
        }
        candidates.push("refs/heads/main".to_owned());
        candidates.push("refs/heads/master".to_owned());
        // A repository whose branch has another name (`trunk`): the one HEAD names.
        if let refs::HeadRef::Symbolic(name) = self.head_ref()?
            && name.starts_with("refs/heads/")
        {
            candidates.push(name);
        }
        for name in candidates {
            if let Some(commit) = self.peel_ref(&name)? {
                return Ok(Some(BranchRef {
                    name,
                    commit: commit.to_string(),
                }));
            }
        }
        Ok(None)
    }

    /// The id of the tree `git write-tree` would produce from the index, without writing any
    /// object (trees are hashed in memory; valid cache-tree entries are reused).
    pub fn staged_tree_id(&self) -> Result<String, GitError> {
        let index = self.load_index()?;
        check_unmerged(&index)?;
        Ok(self.objects().index_tree_id(&index)?.to_string())
    }

    /// The commits in `MERGE_HEAD` (hex), empty when no merge is being concluded.
    pub fn merge_heads(&self) -> Result<Vec<String>, GitError> {
        Ok(self
            .merge_head_ids()?
            .iter()
            .map(ToString::to_string)
            .collect())
    }

    /// The identity git records as the committer of a commit made now, exactly as git works
    /// it out: `git var GIT_COMMITTER_IDENT` (`GIT_COMMITTER_NAME`/`_EMAIL`, the
    /// configuration's `user.*` and `committer.*`, `EMAIL`, and git's own guess where the
    /// configuration allows one), run with `env`. `Ok(Err(what git said))` when git does not
    /// know who commits.
    pub fn committer_identity(
        &self,
        env: &EnvSnapshot,
    ) -> Result<Result<(String, String), String>, GitError> {
        let command = "git var GIT_COMMITTER_IDENT";
        let output = std::process::Command::new("git")
            .arg("--git-dir")
            .arg(self.repo.git_dir())
            .args(["var", "GIT_COMMITTER_IDENT"])
            .current_dir(self.repo.git_dir())
            .env_clear()
            .envs(env.vars())
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|error| GitError::GitCommand {
                command: command.to_owned(),
                message: format!("it cannot be started: {error}"),
            })?;
        if !output.status.success() {
            // git explains at length how to set an identity, then says what failed on its
            // `fatal:` line; the caller says how to fix it.
            let text = String::from_utf8_lossy(&output.stderr);
            let said = text
                .lines()
                .rev()
                .find_map(|line| line.trim().strip_prefix("fatal: "))
                .map_or_else(
                    || text.split_whitespace().collect::<Vec<_>>().join(" "),
                    str::to_owned,
                );
            return Ok(Err(said));
        }
        // `Name <email> 1700000000 +0000`: the name may hold anything but `<` and `>`.
        let text = String::from_utf8_lossy(&output.stdout);
        let parsed = text.rsplit_once('>').and_then(|(person, _)| {
            let (name, email) = person.rsplit_once('<')?;
            Some((name.trim().to_owned(), email.trim().to_owned()))
        });
        match parsed {
            Some((name, email)) if !name.is_empty() && !email.is_empty() => Ok(Ok((name, email))),
            _ => Ok(Err(format!("`{command}` printed `{}`", text.trim()))),
        }
    }

    /// `user.name` and `user.email` from the configuration.
    pub fn user_identity(&self) -> Identity {
        let config = self.repo.config_snapshot();
        let text = |key: &str| {
            config
                .string(key)
                .map(|value| value.to_str_lossy().into_owned())
        };
        Identity {
            name: text("user.name"),
            email: text("user.email"),
        }
    }

    fn load_index(&self) -> Result<gix::index::File, GitError> {
        let hash = self.repo.object_hash();
        if !self.index_path.exists() {
            // git treats a missing index as an empty one (a new repository).
            return Ok(gix::index::File::from_state(
                gix::index::State::new(hash),
                self.index_path.clone(),
            ));
        }
        // The trailing checksum is not verified, as git does not on ordinary reads (only `git
        // fsck` does): hashing a large index costs more than decoding it. A damaged index is
        // still an error when its structure does not decode.
        let index = gix::index::File::at(
            &self.index_path,
            hash,
            true,
            gix::index::decode::Options::default(),
        )
        .map_err(|err| {
            // A file that cannot be opened (its permissions) is not a damaged index.
            match err.downcast_any_ref::<gix::index::file::init::OpenError>() {
                Some(open) => GitError::Access {
                    path: open.path.clone(),
                    what: None,
                    error: open.source.raw_os_error().map_or_else(
                        || std::io::Error::new(open.source.kind(), open.source.to_string()),
                        std::io::Error::from_raw_os_error,
                    ),
                },
                // Nor is one that cannot be read (mapping it failed, out of memory): git's
                // `read-tree` would not mend that.
                None => match err.downcast_any_ref::<std::io::Error>() {
                    Some(io) => GitError::Io {
                        path: self.index_path.clone(),
                        error: io.raw_os_error().map_or_else(
                            || std::io::Error::new(io.kind(), io.to_string()),
                            std::io::Error::from_raw_os_error,
                        ),
                    },
                    None => GitError::Index {
                        path: self.index_path.clone(),
                        message: message(&err),
                    },
                },
            }
        })?;
        check_index_entries(&index).map_err(|message| GitError::Index {
            path: self.index_path.clone(),
            message,
        })?;
        Ok(index)
    }

    fn head_commit(&self) -> Result<Option<ObjectId>, GitError> {
        match self.head_ref()? {
            refs::HeadRef::Unset => Ok(None),
            refs::HeadRef::Detached(id) => Ok(Some(id)),
            refs::HeadRef::Symbolic(name) => self.peel_ref(&name),
        }
    }

    fn merge_head_ids(&self) -> Result<Vec<ObjectId>, GitError> {
        let path = self.git_dir().join("MERGE_HEAD");
        let Some(text) = read_optional(&path)? else {
            return Ok(Vec::new());
        };
        text.lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(|line| {
                ObjectId::from_hex(line.as_bytes()).map_err(|_| GitError::Malformed {
                    path: path.clone(),
                    message: format!("`{line}` is not an object id"),
                })
            })
            .collect()
    }

    /// Writes the files of commit `rev` into the empty directory `dir`, as a checkout
    /// would without filters: regular files with their executable bit, symbolic links as
    /// links (written last, so no file is written through one; one that leads out of `dir`
    /// or to nothing is left out), submodules as empty directories. A tree path that would leave `dir` (a `.`, `..` or `.git` component, a
    /// NUL or a backslash) is an error: git never writes such trees, a forged one is refused.
    pub fn export_commit(&self, rev: &str, dir: &Path) -> Result<(), GitError> {
        let id = self.resolve_commit(rev)?;
        let objects = self.objects();
        let (tree, _) = objects.commit(&id)?;
        let mut items = Vec::new();
        objects.flatten(tree, BStr::new(b""), &mut items)?;
        let write = |path: &Path, error: std::io::Error| GitError::Write {
            path: path.to_owned(),
            error,
        };
        let mut links = Vec::new();
        for (path, item) in &items {
            let Some(relative) = safe_relative(path.as_bstr()) else {
                return Err(GitError::Malformed {
                    path: PathBuf::from(path.to_str_lossy().into_owned()),
                    message: format!(
                        "commit `{rev}` holds a path that would leave its copy or holds a control character (a newline in a file name); rename it, or `git fsck` reports a forged tree"
                    ),
                });
            };
            let target = dir.join(relative);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|error| write(parent, error))?;
            }
            match item.mode {
                0o120_000 => links.push((target, item.id)),
                0o160_000 => {
                    std::fs::create_dir_all(&target).map_err(|error| write(&target, error))?;
                }
                mode => {
                    let data = objects.blob(&item.id)?;
                    std::fs::write(&target, data).map_err(|error| write(&target, error))?;
                    #[cfg(unix)]
                    if mode & 0o111 != 0 {
                        use std::os::unix::fs::PermissionsExt as _;
                        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))
                            .map_err(|error| write(&target, error))?;
                    }
                }
            }
        }
        let mut made = Vec::new();
        for (target, id) in links {
            let data = objects.blob(&id)?;
            let Ok(relative) = target.strip_prefix(dir) else {
                continue;
            };
            // A link that climbs above the copy (`../../x`, `/etc`) points elsewhere in every
            // other checkout: it is left out, as if it pointed nowhere.
            if !link_stays_below(relative, &data) {
                continue;
            }
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStrExt as _;
                std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(&data), &target)
                    .map_err(|error| write(&target, error))?;
            }
            #[cfg(not(unix))]
            std::fs::write(&target, data).map_err(|error| write(&target, error))?;
            made.push(target);
        }
        // Links through links (`a -> .`, `b -> a/..`) can still leave it: what resolves
        // outside the copy, or to nothing yet (a file a command could create there), is
        // removed.
        let root = dir.canonicalize().map_err(|error| write(dir, error))?;
        for target in made {
            let inside = target
                .canonicalize()
                .is_ok_and(|resolved| resolved.starts_with(&root));
            if !inside {
                std::fs::remove_file(&target).map_err(|error| write(&target, error))?;
            }
        }
        Ok(())
    }

    fn resolve_commit(&self, rev: &str) -> Result<ObjectId, GitError> {
        if rev == "HEAD" {
            return self.head_commit()?.ok_or_else(|| GitError::Revision {
                rev: rev.to_owned(),
                message: "HEAD is an unborn branch without commits".to_owned(),
            });
        }
        self.rev_parse_commit(rev)?
            .ok_or_else(|| GitError::Revision {
                rev: rev.to_owned(),
                message: "it names no commit of this repository".to_owned(),
            })
    }

    fn try_resolve_commit(&self, rev: &str) -> Result<Option<ObjectId>, GitError> {
        if rev == "HEAD" {
            return self.head_commit();
        }
        self.rev_parse_commit(rev)
    }

    fn ordinary(
        raw: Vec<RawChange>,
        content: &mut Content<'_, '_>,
        options: &ChangeOptions,
    ) -> Result<Vec<FileChange>, GitError> {
        let rename_options = RenameOptions {
            min_score: rename::DEFAULT_MIN_SCORE,
            limit: RENAME_LIMIT,
        };
        let pairs = rename::detect(raw, rename_options, content)?;
        if !options.line_counts {
            return Ok(pairs
                .into_iter()
                .map(|pair| file_change(pair, None))
                .collect());
        }
        let counts = count::line_counts(&pairs, content, options.tamper)?;
        Ok(pairs
            .into_iter()
            .zip(counts)
            .map(|(pair, (count, tamper))| FileChange {
                tamper,
                ..file_change(pair, Some(count))
            })
            .collect())
    }
}

fn finish(mut files: Vec<FileChange>, parents: &[ObjectId]) -> Change {
    files.sort_by(|a, b| {
        a.path
            .cmp(&b.path)
            .then_with(|| a.old_path().cmp(b.old_path()))
    });
    Change {
        files,
        parents: parents.iter().map(ToString::to_string).collect(),
    }
}

/// git's default `core.deltaBaseCacheLimit`.
const DELTA_BASE_CACHE_LIMIT: u64 = 96 * 1024 * 1024;

/// Gives the object database a cache of decoded pack entries, bounded like git's delta base
/// cache (`core.deltaBaseCacheLimit`). Without it, every blob at the end of a delta chain is
/// rebuilt from the chain's base, inflating every delta in between again; with it, a blob
/// whose base was read before costs one delta.
fn set_pack_cache(repo: &mut gix::Repository) {
    let limit = pack_cache_limit(repo);
    if limit == 0 {
        return;
    }
    repo.objects.set_pack_cache(move || {
        Box::new(gix::odb::pack::cache::lru::MemoryCappedHashmap::new(limit))
    });
}

/// The size of the pack cache of [`set_pack_cache`], 0 for none.
fn pack_cache_limit(repo: &gix::Repository) -> usize {
    let limit = repo
        .config_snapshot()
        .integer("core.deltaBaseCacheLimit")
        .and_then(|value| u64::try_from(value).ok())
        .unwrap_or(DELTA_BASE_CACHE_LIMIT);
    usize::try_from(limit).unwrap_or(usize::MAX)
}

/// Opens the repository `GIT_DIR` names, as it is (no `.git` appended).
fn open_explicit(git_dir: &Path, options: gix::open::Options) -> Result<gix::Repository, GitError> {
    gix::open_opts(git_dir, options.open_path_as_is(true)).map_err(|err| {
        if git_dir.exists() {
            GitError::Open {
                path: git_dir.to_owned(),
                message: message(&err),
            }
        } else {
            GitError::NotARepository {
                path: git_dir.to_owned(),
            }
        }
    })
}

/// Finds the repository from `cwd` upwards, as git does without `GIT_DIR`.
fn discover(
    cwd: &Path,
    env: &EnvSnapshot,
    options: gix::open::Options,
) -> Result<gix::Repository, GitError> {
    let ceiling_dirs: Vec<PathBuf> = env
        .get_os(GIT_CEILING_DIRECTORIES)
        .map(|dirs| {
            std::env::split_paths(dirs)
                .filter(|dir| dir.is_absolute())
                .collect()
        })
        .unwrap_or_default();
    let discovery = gix::discover::upwards::Options {
        ceiling_dirs,
        match_ceiling_dir_or_error: false,
        current_dir: Some(cwd),
        ..Default::default()
    };
    let ceilings = discovery.ceiling_dirs.clone();
    let (path, _trust) = gix::discover::upwards_opts(cwd, discovery).map_err(|_| {
        unreadable_git_dir(cwd, &ceilings).unwrap_or_else(|| GitError::NotARepository {
            path: cwd.to_owned(),
        })
    })?;
    let open_at = match path {
        gix::discover::repository::Path::LinkedWorkTree { work_dir, .. }
        | gix::discover::repository::Path::WorkTree(work_dir) => work_dir,
        gix::discover::repository::Path::Repository(git_dir) => git_dir,
    };
    gix::open_opts(&open_at, options).map_err(|err| GitError::Open {
        path: open_at.clone(),
        message: message(&err),
    })
}

/// Why discovery found no repository when the reason is permissions: the first `.git` from
/// `cwd` upwards (below the ceilings), or a directory on the way, that exists but may not be
/// read. Discovery takes such a `.git` for no repository at all.
fn unreadable_git_dir(cwd: &Path, ceilings: &[PathBuf]) -> Option<GitError> {
    let denied = |path: &Path, result: std::io::Result<()>| match result {
        Err(error) if error.kind() == std::io::ErrorKind::PermissionDenied => {
            Some(GitError::Access {
                path: path.to_owned(),
                what: None,
                error,
            })
        }
        _ => None,
    };
    for dir in cwd.ancestors() {
        if ceilings.iter().any(|ceiling| ceiling == dir) {
            return None;
        }
        let dot_git = dir.join(".git");
        match std::fs::symlink_metadata(&dot_git) {
            Ok(metadata) if metadata.is_dir() => {
                let head = dot_git.join("HEAD");
                return denied(&dot_git, std::fs::read_dir(&dot_git).map(drop))
                    .filter(|_| std::fs::File::open(&head).is_err())
                    .or_else(|| denied(&head, std::fs::File::open(&head).map(drop)));
            }
            // A `.git` file (a linked worktree, a submodule) names the directory.
            Ok(_) => return denied(&dot_git, std::fs::read(&dot_git).map(drop)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return denied(dir, Err(source));
            }
        }
    }
    None
}

/// Removes `.` and resolves `..` components lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

fn read_optional(path: &Path) -> Result<Option<String>, GitError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(GitError::Io {
            path: path.to_owned(),
            error,
        }),
    }
}

fn short_branch(name: &BStr) -> String {
    let name = name.to_str_lossy();
    name.strip_prefix("refs/heads/").unwrap_or(&name).to_owned()
}

/// What git relies on in an index and does not check itself when it reads one: entries in
/// strictly increasing order of path and stage (git commits them in the order they are in,
/// so an out-of-order index makes an unsorted tree, and the tree-to-index walk would miss
/// entries), and modes git writes (a regular file, a symbolic link, a submodule, a sparse
/// directory). A hand-made index that breaks them is damaged.
fn check_index_entries(index: &gix::index::State) -> Result<(), String> {
    use gix::index::entry::Mode;
    let mut previous: Option<(&BStr, gix::index::entry::Stage)> = None;
    for entry in index.entries() {
        let path = entry.path(index);
        let stage = entry.stage();
        if let Some((last_path, last_stage)) = previous {
            let order = last_path
                .cmp(path)
                .then((last_stage as u8).cmp(&(stage as u8)));
            match order {
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Equal => {
                    return Err(format!("it lists `{}` twice", path.to_str_lossy()));
                }
                std::cmp::Ordering::Greater => {
                    return Err(format!(
                        "its entries are out of order (`{}` comes after `{}`)",
                        path.to_str_lossy(),
                        last_path.to_str_lossy()
                    ));
                }
            }
        }
        previous = Some((path, stage));
        let mode = entry.mode.bits();
        let known = matches!(mode & 0o170_000, 0o100_000 | 0o120_000 | 0o160_000)
            || entry.mode == Mode::DIR
            || entry.mode.is_sparse();
        if !known {
            return Err(format!(
                "`{}` has a file type git never writes",
                path.to_str_lossy()
            ));
        }
    }
    Ok(())
}

fn check_unmerged(index: &gix::index::State) -> Result<(), GitError> {
    let mut paths: Vec<String> = index
        .entries()
        .iter()
        .filter(|entry| entry.stage() != gix::index::entry::Stage::Unconflicted)
        .map(|entry| entry.path(index).to_str_lossy().into_owned())
        .collect();
    if paths.is_empty() {
        return Ok(());
    }
    paths.dedup();
    Err(GitError::Unmerged { paths })
}

/// Blob contents (cached) for rename scoring and line counts.
struct Content<'o, 'r> {
    objects: &'o Objects<'r>,
    blobs: HashMap<ObjectId, Arc<Vec<u8>>>,
    /// Where the old and the new side's blobs were last found.
    sources: [BlobSource; 2],
    /// Whether the pairs of a change are counted on two threads when there are too few for
    /// [`count::line_counts`]'s own split: for the staged change (a commit or an amend),
    /// not for each commit of a range, which `astrix ci` measures on two threads as a whole.
    two_threads: bool,
}

impl<'o, 'r> Content<'o, 'r> {
    fn new(objects: &'o Objects<'r>) -> Self {
        Self {
            objects,
            blobs: HashMap::new(),
            sources: Default::default(),
            two_threads: false,
        }
    }

    /// What git diffs for one side: the blob, the link target, or `Subproject commit <id>`.
    /// A blob is kept for later only when `keep` (rename scoring and merges read blobs
    /// again; a pair's line count reads each once).
    fn side(
        &mut self,
        item: Option<Item>,
        side: Side,
        keep: bool,
    ) -> Result<Arc<Vec<u8>>, GitError> {
        match count::non_blob_content(item.as_ref()) {
            Some(content) => Ok(Arc::new(content)),
            None => match item {
                Some(item) if keep => self.data(&item.id, side),
                Some(item) => {
                    if let Some(data) = self.blobs.get(&item.id) {
                        return Ok(Arc::clone(data));
                    }
                    let source = &self.sources[usize::from(side == Side::New)];
                    Ok(Arc::new(self.objects.blob_from(&item.id, source)?))
                }
                None => Ok(Arc::new(Vec::new())),
            },
        }
    }

    /// Counts `job` on this thread; `paths` name its sides in errors, `keep` keeps the
    /// blobs read ([`Self::side`]).
    fn count(
        &mut self,
        job: &count::Job,
        paths: (Option<&BStr>, Option<&BStr>),
        keep: bool,
    ) -> Result<count::Measured, GitError> {
        let (old_data, new_data) = self.pair(job, paths, keep)?;
        Ok(job.measure(&old_data, &new_data))
    }

    /// What [`Self::count`] measures: both sides of `job`'s pair.
    fn pair(
        &mut self,
        job: &count::Job,
        (old_path, new_path): (Option<&BStr>, Option<&BStr>),
        keep: bool,
    ) -> Result<count::Sides, GitError> {
        let content_of = |which: &str, path: Option<&BStr>| {
            let path = path.map(|path| path.to_str_lossy().into_owned());
            format!("the {which} content of `{}`", path.unwrap_or_default())
        };
        let old_data = self
            .side(job.old, Side::Old, keep)
            .map_err(|err| err.concerning(|| content_of("old", old_path)))?;
        let new_data = self
            .side(job.new, Side::New, keep)
            .map_err(|err| err.concerning(|| content_of("new", new_path)))?;
        Ok((old_data, new_data))
    }

    fn line_count(
        &mut self,
        old: Option<(&BStr, Item)>,
        new: Option<(&BStr, Item)>,
    ) -> Result<LineCount, GitError> {
        let job = count::Job {
            old: old.map(|side| side.1),
            new: new.map(|side| side.1),
            tamper: None,
        };
        let (count, _) =
            self.count(&job, (old.map(|side| side.0), new.map(|side| side.0)), true)?;
        Ok(count)
    }
}

impl Blobs for Content<'_, '_> {
    fn data(&mut self, id: &ObjectId, side: Side) -> Result<Arc<Vec<u8>>, GitError> {
        if let Some(data) = self.blobs.get(id) {
            return Ok(Arc::clone(data));
        }
        let source = &self.sources[usize::from(side == Side::New)];
        let data = Arc::new(self.objects.blob_from(id, source)?);
        self.blobs.insert(*id, Arc::clone(&data));
        Ok(data)
    }
}

fn lossy(path: &BStr) -> String {
    path.to_str_lossy().into_owned()
}

fn entry(item: Item) -> Entry {
    Entry {
        mode: EntryMode::from_octal(item.mode).unwrap_or(EntryMode::File),
        id: item.id.to_string(),
    }
}

fn similarity(score: u64) -> u8 {
    u8::try_from(score * 100 / rename::MAX_SCORE).unwrap_or(100)
}

/// The path and the old path of the file `pair` becomes ([`FileChange::path`],
/// [`FileChange::old_path`]); `None` for a pair without sides.
fn analysed_paths(pair: &Pair) -> Option<(String, String)> {
    let path = lossy(pair.new.as_ref().or(pair.old.as_ref())?.0.as_bstr());
    let old_path = match (pair.status, &pair.old) {
        (Status::Renamed(_), Some((from, _))) => lossy(from.as_bstr()),
        _ => path.clone(),
    };
    Some((path, old_path))
}

fn file_change(pair: Pair, lines: Option<LineCount>) -> FileChange {
    let old_path = pair.old.as_ref().map(|(path, _)| lossy(path.as_bstr()));
    let kind = match pair.status {
        Status::Added => ChangeKind::Added,
        Status::Deleted => ChangeKind::Deleted,
        Status::Modified => ChangeKind::Modified,
        Status::TypeChanged => ChangeKind::TypeChanged,
        Status::Renamed(score) => ChangeKind::Renamed {
            from: old_path.clone().unwrap_or_default(),
            similarity: similarity(score),
        },
    };
    let raw_path: Vec<u8> = pair
        .new
        .as_ref()
        .or(pair.old.as_ref())
        .map(|(path, _)| path.to_vec())
        .unwrap_or_default();
    let path = lossy(raw_path.as_bstr());
    let raw_from = match pair.status {
        Status::Renamed(_) => pair.old.as_ref().map(|(path, _)| path.to_vec()),
        _ => None,
    };
    FileChange {
        path,
        raw_path,
        raw_from,
        kind,
        old: pair.old.map(|(_, item)| entry(item)),
        new: pair.new.map(|(_, item)| entry(item)),
        lines,
        tamper: None,
    }
}

/// The combined-diff rule for merges: a path is listed when its new content differs from
/// every parent's, and counted against the parent it differs from least.
fn combined(
    first: Vec<RawChange>,
    others: Vec<Vec<RawChange>>,
    content: &mut Content<'_, '_>,
    options: &ChangeOptions,
) -> Result<Vec<FileChange>, GitError> {
    let others: Vec<HashMap<BString, RawChange>> = others
        .into_iter()
        .map(|changes| {
            changes
                .into_iter()
                .map(|change| (change.path.clone(), change))
                .collect()
        })
        .collect();
    let mut files = Vec::new();
    for change in first {
        let mut parent_sides = vec![change.old];
        let mut differs_from_all = true;
        for other in &others {
            if let Some(other_change) = other.get(&change.path) {
                parent_sides.push(other_change.old);
            } else {
                differs_from_all = false;
                break;
            }
        }
        if !differs_from_all {
            continue;
        }
        let path = change.path.as_bstr();
        let new = change.new.map(|item| (path, item));
        // The closest parent is found whether or not line counts were asked for: which
        // parent a file is judged against (its kind, the test-tampering analysis) must not
        // depend on what the policy needs.
        let mut closest = (0, None);
        let mut best: Option<u64> = None;
        for (position, side) in parent_sides.iter().enumerate() {
            let count = content.line_count(side.map(|item| (path, item)), new)?;
            let distance = match count {
                LineCount::Text { added, deleted, .. } => added + deleted,
                LineCount::Binary { .. } => u64::MAX,
            };
            if best.is_none_or(|best| distance < best) {
                best = Some(distance);
                closest = (position, Some(count));
            }
        }
        let old = parent_sides[closest.0];
        let kind = match (old, change.new) {
            (None, _) => ChangeKind::Added,
            (_, None) => ChangeKind::Deleted,
            (Some(a), Some(b)) if same_type(a.mode, b.mode) => ChangeKind::Modified,
            (Some(_), Some(_)) => ChangeKind::TypeChanged,
        };
        files.push(FileChange {
            path: lossy(path),
            raw_path: path.to_vec(),
            raw_from: None,
            kind,
            old: old.map(entry),
            new: change.new.map(entry),
            lines: closest.1.filter(|_| options.line_counts),
            tamper: None,
        });
    }
    Ok(files)
}

/// The reference format of the repository whose common directory is `common_dir`, read as
/// git reads a repository's format: from its own `config` file alone, without includes,
/// `-c` options or `GIT_CONFIG_*` variables, none of which git lets choose it (a format
/// taken from them would make astrix read references git does not use).
fn ref_storage(common_dir: &Path) -> Result<Option<String>, GitError> {
    let path = common_dir.join("config");
    if !path.exists() {
        return Ok(None);
    }
    let file = gix::config::File::from_path_no_includes(path.clone(), gix::config::Source::Local)
        .map_err(|err| GitError::Config {
            message: format!(
                "`{}` does not read ({}); check that it is the repository's configuration and that `git config --list` works here",
                path.display(),
                message(&err)
            ),
        })?;
    Ok(file
        .string("extensions.refStorage")
        .map(|value| value.to_str_lossy().into_owned()))
}

/// Whether a symbolic link at `link` (relative to the copy) to `target` stays below the
/// copy when read as written: a relative target whose `..` never climb above the copy.
fn link_stays_below(link: &Path, target: &[u8]) -> bool {
    if target.is_empty() || target.first() == Some(&b'/') || target.contains(&0) {
        return false;
    }
    let mut depth = link.components().count().saturating_sub(1);
    for part in target.split(|&byte| byte == b'/') {
        match part {
            b"" | b"." => {}
            b".." => match depth.checked_sub(1) {
                Some(up) => depth = up,
                None => return false,
            },
            _ => depth += 1,
        }
    }
    true
}

/// `path` of a tree as a relative path that stays below the directory it is joined to:
/// `None` for an empty, `.`, `..` or `.git` component (any case), a backslash, or a
/// control character (a newline in a name would let a runner print a line of its choosing).
fn safe_relative(path: &BStr) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.split(|&byte| byte == b'/') {
        if part.is_empty()
            || part == b"."
            || part == b".."
            || part.eq_ignore_ascii_case(b".git")
            || part.iter().any(|&byte| byte < 0x20 || byte == 0x7f)
            || part.contains(&b'\\')
        {
            return None;
        }
        out.push(part.to_os_str().ok()?);
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exported_links_stay_below_their_copy() {
        let below = |link: &str, target: &str| link_stays_below(Path::new(link), target.as_bytes());
        assert!(below("docs/README.md", "../README.md"));
        assert!(below("a/b/c", "../../x/./y"));
        assert!(!below("tests/test_x.py", "../../checkout/build/test_x.py"));
        assert!(!below("README.md", "../x"));
        assert!(!below("tests/__pycache__", "/tmp/outside"));
        assert!(!below("a", ""));
    }

    #[test]
    fn exported_paths_stay_below_their_directory() {
        assert_eq!(
            safe_relative(BStr::new(b"src/a.rs")),
            Some(PathBuf::from("src/a.rs"))
        );
        for path in [
            &b"../a"[..],
            b"src/../../a",
            b"./a",
            b"a//b",
            b"/a",
            b"",
            b".git/hooks/pre-commit",
            b"sub/.GIT/config",
            b"a\\..\\b",
            b"a\0b",
            b"x\ntests/test_x.py::test_a\nq/test_z.py",
        ] {
            assert_eq!(safe_relative(BStr::new(path)), None, "{path:?}");
        }
    }
}
