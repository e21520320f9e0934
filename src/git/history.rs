//! Commits and their history: what the backstop, CI and the blast radius need beyond the
//! staged change.

use gix::ObjectId;
use gix::bstr::{BStr, ByteSlice};

use super::tree::is_regular;
use super::{
    Change, ChangeOptions, Content, GitError, Objects, Repository, finish, lossy, message,
};

/// Whose files to read: what the next commit records, or a commit's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Snapshot {
    /// The index (stage 0).
    Index,
    /// The tree of the commit a revision names.
    Commit(String),
}

/// A regular file of a [`Snapshot`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotFile {
    /// The repository-relative path.
    pub path: String,
    /// The blob id (hex), for [`Repository::blob`].
    pub id: String,
}

/// A commit's tree and parents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitInfo {
    /// The commit (hex).
    pub id: String,
    /// Its tree (hex).
    pub tree: String,
    /// Its parents (hex), first parent first.
    pub parents: Vec<String>,
}

impl Repository {
    /// The tree and parents of the commit `rev` resolves to.
    pub fn commit_info(&self, rev: &str) -> Result<CommitInfo, GitError> {
        let id = self.resolve_commit(rev)?;
        let (tree, parents) = Objects::new(&self.repo).commit(&id)?;
        Ok(CommitInfo {
            id: id.to_string(),
            tree: tree.to_string(),
            parents: parents.iter().map(ToString::to_string).collect(),
        })
    }

    /// The content of the blob with id `id` (hex).
    pub fn blob(&self, id: &str) -> Result<Vec<u8>, GitError> {
        let object = ObjectId::from_hex(id.as_bytes()).map_err(|err| GitError::Revision {
            rev: id.to_owned(),
            message: message(&err),
        })?;
        Objects::new(&self.repo).blob(&object)
    }

    /// Whether the repository is a shallow clone (its history is cut off).
    pub fn is_shallow(&self) -> bool {
        // gix reads `$GIT_DIR/shallow`; an unreadable file counts as shallow, the careful
        // answer for a caller that must not trust missing history.
        self.repo.is_shallow().unwrap_or(true)
    }

    /// The regular files (executable or not) of `snapshot` whose file name is one of
    /// `names`, sorted by path. Symbolic links and submodules are left out.
    pub fn files_named(
        &self,
        snapshot: &Snapshot,
        names: &[&str],
    ) -> Result<Vec<SnapshotFile>, GitError> {
        let objects = Objects::new(&self.repo);
        let entries = match snapshot {
            Snapshot::Index => {
                let index = self.load_index()?;
                objects.index_entries(&index, &[])?
            }
            Snapshot::Commit(rev) => {
                let (tree, _) = objects.commit(&self.resolve_commit(rev)?)?;
                let mut out = Vec::new();
                objects.flatten(tree, BStr::new(""), &mut out)?;
                out
            }
        };
        let mut files: Vec<SnapshotFile> = entries
            .into_iter()
            .filter(|(path, item)| {
                let name = path.rsplit_str("/").next().unwrap_or_default();
                is_regular(item.mode) && names.iter().any(|wanted| name == wanted.as_bytes())
            })
            .map(|(path, item)| SnapshotFile {
                path: lossy(path.as_bstr()),
                id: item.id.to_string(),
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }

    /// The best common ancestor of two commits, `None` when their histories are unrelated.
    pub fn merge_base(&self, one: &str, two: &str) -> Result<Option<String>, GitError> {
        let one = self.resolve_commit(one)?;
        let two = self.resolve_commit(two)?;
        self.repo
            .merge_base(one, two)
            .map(|base| base.map(|id| id.detach().to_string()))
            .map_err(|err| GitError::Revision {
                rev: format!("{one}...{two}"),
                message: message(&err),
            })
    }

    /// Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor).
    pub fn is_ancestor(&self, ancestor: &str, descendant: &str) -> Result<bool, GitError> {
        let ancestor_id = self.resolve_commit(ancestor)?;
        if ancestor_id == self.resolve_commit(descendant)? {
            return Ok(true);
        }
        Ok(self.merge_base(ancestor, descendant)? == Some(ancestor_id.to_string()))
    }

    /// The commits from `to` back along first parents until `from` (exclusive), oldest
    /// first: what a fast-forward from `from` to `to` brings onto a first-parent history.
    pub fn first_parent_chain(&self, from: &str, to: &str) -> Result<Vec<String>, GitError> {
        let objects = Objects::new(&self.repo);
        let stop = self.resolve_commit(from)?;
        let mut current: ObjectId = self.resolve_commit(to)?;
        let mut chain = Vec::new();
        while current != stop {
            chain.push(current.to_string());
            let (_, parents) = objects.commit(&current)?;
            match parents.first() {
                Some(parent) => current = *parent,
                None => break,
            }
        }
        chain.reverse();
        Ok(chain)
    }

    /// The change from commit `old` to commit `new` as one diff of their trees (renames and
    /// line counts as in [`Repository::commit_change`]); `parents` is `[old]`.
    pub fn range_change(
        &self,
        old: &str,
        new: &str,
        options: &ChangeOptions,
    ) -> Result<Change, GitError> {
        let objects = Objects::new(&self.repo);
        let old_id = self.resolve_commit(old)?;
        let new_id = self.resolve_commit(new)?;
        let (old_tree, _) = objects.commit(&old_id)?;
        let (new_tree, _) = objects.commit(&new_id)?;
        let raw = objects.diff_trees(Some(old_tree), Some(new_tree))?;
        let index =
            self.repo
                .index_from_tree(&new_tree)
                .map_err(|err| GitError::CorruptObject {
                    id: new_tree.to_string(),
                    message: message(&err),
                })?;
        let attributes = self.attributes(&index)?;
        let mut content = Content::new(&objects, attributes, self.diff_settings()?);
        let files = Self::ordinary(raw, &mut content, options)?;
        Ok(finish(files, &[old_id], content.settings.renames))
    }
}
