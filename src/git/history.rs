//! Commits and their history: what the backstop, CI and the blast radius need beyond the
//! staged change.

use gix::ObjectId;
use gix::bstr::{BStr, ByteSlice};

use super::tree::is_regular;
use super::{
    BranchRef, Change, ChangeOptions, Content, GitError, Repository, finish, lossy, message,
};

/// How many commits [`Repository::is_ancestor`] reads, at most, to find the ancestor among
/// the parents down the descendant's first parents before it asks for a merge base.
const FIRST_PARENT_STEPS: usize = 32;

/// How many commits [`Repository::commits_not_in`] reads, at most, to find its tip on the
/// first-parent line of a hidden tip before it walks the way git does.
const FIRST_PARENT_BUDGET: usize = 64;

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

/// A revision resolved without ambiguity ([`Repository::resolve_exact`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedRevision {
    /// The commit (hex).
    pub id: String,
    /// The full name of the reference it names (`refs/remotes/origin/main`), when it names
    /// one; `None` for a commit id, `HEAD` and other expressions.
    pub reference: Option<String>,
    /// References with the same short name that a remote-tracking name won over
    /// (`refs/tags/origin/main` beside `refs/remotes/origin/main`).
    pub shadowed: Vec<String>,
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
        let (tree, parents) = self.objects().commit(&id)?;
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
        self.objects().blob(&object)
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
        self.files_where(snapshot, |path| {
            let name = path.rsplit('/').next().unwrap_or_default();
            names.contains(&name)
        })
    }

    /// The regular files of the commit `rev` named one of `names` directly in one of `dirs`
    /// (`""` is the root), or with `top` in the root's directories too, sorted by path: a
    /// few lookups in the trees of those directories (each read once), not a listing of
    /// the whole tree.
    pub fn files_in_dirs(
        &self,
        rev: &str,
        dirs: &[&str],
        top: bool,
        names: &[&str],
    ) -> Result<Vec<SnapshotFile>, GitError> {
        let objects = self.objects();
        let (tree, _) = objects.commit(&self.resolve_commit(rev)?)?;
        let mut all: Vec<String> = dirs.iter().map(|dir| (*dir).to_owned()).collect();
        if top {
            for name in objects.subtree_names(tree)? {
                let name = lossy(name.as_bstr());
                if !all.contains(&name) {
                    all.push(name);
                }
            }
        }
        let mut files = Vec::new();
        for dir in &all {
            for name in names {
                let path = if dir.is_empty() {
                    (*name).to_owned()
                } else {
                    format!("{dir}/{name}")
                };
                if let Some(item) = objects.entry_at(tree, BStr::new(path.as_bytes()))?
                    && is_regular(item.mode)
                {
                    files.push(SnapshotFile {
                        path,
                        id: item.id.to_string(),
                    });
                }
            }
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }

    /// The regular files (executable or not) of `snapshot` whose repository-relative path
    /// `wanted` accepts, sorted by path. Symbolic links and submodules are left out.
    pub fn files_where(
        &self,
        snapshot: &Snapshot,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<Vec<SnapshotFile>, GitError> {
        let objects = self.objects();
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
                is_regular(item.mode) && wanted(&String::from_utf8_lossy(path.as_slice()))
            })
            .map(|(path, item)| SnapshotFile {
                path: lossy(path.as_bstr()),
                id: item.id.to_string(),
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }

    /// Resolves `rev` as `astrix ci` needs it, where a revision that means two things is an
    /// attack or a mistake, never something to guess at:
    /// - `<remote>/<branch>` of a configured remote means `refs/remotes/<remote>/<branch>`
    ///   and nothing else (a tag or local branch of that name is reported in `shadowed`); it
    ///   is an error when that ref does not exist;
    /// - any other short name that more than one reference (or a reference and a commit id)
    ///   answers to, in git's order (`refs/<name>`, `refs/tags/`, `refs/heads/`,
    ///   `refs/remotes/`, `refs/remotes/<name>/HEAD`), is an error naming them;
    /// - `~N` and `^N` suffixes apply to the name's commit; other expressions resolve as git
    ///   resolves them.
    pub fn resolve_exact(&self, rev: &str) -> Result<ResolvedRevision, GitError> {
        let split = rev.find(['~', '^']).unwrap_or(rev.len());
        let (name, suffix) = rev.split_at(split);
        let expression = name.is_empty()
            || name == "HEAD"
            || name == "@"
            || name.contains([':', '{', ' '])
            || name.contains("..");
        if expression {
            return Ok(ResolvedRevision {
                id: self.resolve_commit(rev)?.to_string(),
                reference: None,
                shadowed: Vec::new(),
            });
        }
        let candidates = self.references_named(name);
        // A full object id means that object and a full reference name that reference, as
        // git takes them: a branch or tag named like either never stands in for it.
        if suffix.is_empty()
            && let Ok(id) = gix::ObjectId::from_hex(name.as_bytes())
            && self.repo.has_object(id)
        {
            return Ok(ResolvedRevision {
                id: self.resolve_commit(rev)?.to_string(),
                reference: None,
                shadowed: Vec::new(),
            });
        }
        if name.starts_with("refs/") && candidates.iter().any(|candidate| candidate == name) {
            return Ok(ResolvedRevision {
                id: self.resolve_commit(&format!("{name}{suffix}"))?.to_string(),
                reference: suffix.is_empty().then(|| name.to_owned()),
                shadowed: Vec::new(),
            });
        }
        let remote = name
            .split_once('/')
            .map(|(remote, _)| remote)
            .filter(|remote| {
                self.repo
                    .remote_names()
                    .iter()
                    .any(|known| known.as_slice() == remote.as_bytes())
            });
        let chosen = if let Some(remote) = remote {
            let wanted = format!("refs/remotes/{name}");
            if !candidates.contains(&wanted) {
                return Err(GitError::AmbiguousRevision {
                    rev: rev.to_owned(),
                    message: format!(
                        "names the remote `{remote}`, but there is no remote-tracking branch `{wanted}`{}; fetch it (`git fetch {remote} {}`)",
                        if candidates.is_empty() {
                            String::new()
                        } else {
                            format!(" (only {})", quoted_list(&candidates))
                        },
                        name.split_once('/').map_or(name, |(_, branch)| branch)
                    ),
                });
            }
            wanted
        } else {
            let object = if candidates.is_empty() {
                None
            } else {
                self.object_named(name)
            };
            match (candidates.len(), object) {
                (0, _) => {
                    return Ok(ResolvedRevision {
                        id: self.resolve_commit(rev)?.to_string(),
                        reference: None,
                        shadowed: Vec::new(),
                    });
                }
                (1, None) => candidates[0].clone(),
                (_, object) => {
                    let mut named = candidates.clone();
                    if let Some(object) = object {
                        named.push(format!("the commit {object}"));
                    }
                    return Err(GitError::AmbiguousRevision {
                        rev: rev.to_owned(),
                        message: format!(
                            "is ambiguous: it names {}; pass the full name of the one you mean",
                            quoted_list(&named)
                        ),
                    });
                }
            }
        };
        let shadowed = candidates
            .into_iter()
            .filter(|name| *name != chosen)
            .collect();
        Ok(ResolvedRevision {
            id: self
                .resolve_commit(&format!("{chosen}{suffix}"))?
                .to_string(),
            reference: suffix.is_empty().then_some(chosen),
            shadowed,
        })
    }

    /// The references a short name answers to, in git's order (see
    /// [`Repository::expand_ref_name`]), read through the reference store (so in reftable
    /// repositories too); a reference that cannot be read counts as absent here, and the
    /// resolution that follows reports it.
    fn references_named(&self, name: &str) -> Vec<String> {
        self.expand_ref_name(name).unwrap_or_default()
    }

    /// The object a name of 4 to 40 hex digits abbreviates, if it names one.
    fn object_named(&self, name: &str) -> Option<String> {
        let hex =
            (4..=40).contains(&name.len()) && name.bytes().all(|byte| byte.is_ascii_hexdigit());
        if !hex {
            return None;
        }
        if let Ok(id) = gix::ObjectId::from_hex(name.as_bytes()) {
            return self.repo.has_object(id).then(|| id.to_string());
        }
        self.repo
            .rev_parse_single(format!("{name}^{{object}}").as_str())
            .ok()
            .map(|id| id.to_string())
    }

    /// Every best common ancestor of two commits (more than one in a criss-cross history),
    /// empty when their histories are unrelated.
    pub fn merge_bases(&self, one: &str, two: &str) -> Result<Vec<String>, GitError> {
        let one = self.resolve_commit(one)?;
        let two = self.resolve_commit(two)?;
        self.repo
            .merge_bases_many(one, &[two])
            .map(|bases| {
                bases
                    .into_iter()
                    .map(|id| id.detach().to_string())
                    .collect()
            })
            .map_err(|err| GitError::Revision {
                rev: format!("{one}...{two}"),
                message: message(&err),
            })
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
        let descendant_id = self.resolve_commit(descendant)?;
        if ancestor_id == descendant_id {
            return Ok(true);
        }
        // The usual question is about a branch that moved forwards by a few commits (a
        // commit, a cherry-pick, a fast-forward): proved a few first parents down, before a
        // merge base.
        if super::walk::on_first_parent_line(
            &self.objects(),
            ancestor_id,
            &[descendant_id],
            FIRST_PARENT_STEPS,
        ) {
            return Ok(true);
        }
        Ok(self.merge_base(ancestor, descendant)? == Some(ancestor_id.to_string()))
    }

    /// The commits from `to` back along first parents until `from` (exclusive), oldest
    /// first: what a fast-forward from `from` to `to` brings onto a first-parent history.
    pub fn first_parent_chain(&self, from: &str, to: &str) -> Result<Vec<String>, GitError> {
        let objects = self.objects();
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
        let objects = self.objects();
        let old_id = self.resolve_commit(old)?;
        let new_id = self.resolve_commit(new)?;
        let (old_tree, _) = objects.commit(&old_id)?;
        let (new_tree, _) = objects.commit(&new_id)?;
        let raw = objects.diff_trees(Some(old_tree), Some(new_tree))?;
        let mut content = Content::new(&objects);
        let files = Self::ordinary(raw, &mut content, options)?;
        Ok(finish(files, &[old_id]))
    }
}

/// Who made a commit: a name and an email, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Signature {
    /// The name (lossy UTF-8, trimmed).
    pub name: String,
    /// The email, without the angle brackets (lossy UTF-8, trimmed).
    pub email: String,
}

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} <{}>", self.name, self.email)
    }
}

/// A trailer of a commit message (`Key: value` in its last paragraph).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Trailer {
    /// The key, as written (`Co-Authored-By`).
    pub key: String,
    /// The value, trimmed, continuation lines unfolded.
    pub value: String,
}

/// What a commit says about itself: who made it and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitMeta {
    /// The commit (hex).
    pub id: String,
    /// Its parents (hex), first parent first.
    pub parents: Vec<String>,
    /// The author.
    pub author: Signature,
    /// The committer.
    pub committer: Signature,
    /// The subject line, whitespace folded as `git log --format=%s` shows it.
    pub summary: String,
    /// The whole message (lossy UTF-8).
    pub message: String,
    /// The trailers, as git finds them (`git interpret-trailers --parse`): the last
    /// paragraph when it consists of trailers (or enough of them beside a `Signed-off-by`).
    pub trailers: Vec<Trailer>,
}

impl Repository {
    /// The author, committer, message and trailers of the commit `rev` resolves to.
    pub fn commit_meta(&self, rev: &str) -> Result<CommitMeta, GitError> {
        let id = self.resolve_commit(rev)?;
        let (kind, data) = self.objects().read(&id)?;
        if kind != gix::object::Kind::Commit {
            return Err(GitError::UnexpectedKind {
                id: id.to_string(),
                expected: "commit",
                actual: kind.to_string(),
            });
        }
        let corrupt =
            |err: &(dyn std::error::Error + 'static)| GitError::corrupt(&id, message(err));
        let commit = gix::objs::CommitRef::from_bytes(&data, self.repo.object_hash())
            .map_err(|err| corrupt(&err))?;
        let signature = |signature: gix::actor::SignatureRef<'_>| {
            let signature = signature.trim();
            Signature {
                name: signature.name.to_str_lossy().into_owned(),
                email: signature.email.to_str_lossy().into_owned(),
            }
        };
        let author = signature(commit.author().map_err(|err| corrupt(&err))?);
        let committer = signature(commit.committer().map_err(|err| corrupt(&err))?);
        let trailers = commit
            .message_trailers()
            .map(|trailer| Trailer {
                key: trailer.token.to_str_lossy().into_owned(),
                value: trailer.value.to_str_lossy().into_owned(),
            })
            .collect();
        Ok(CommitMeta {
            id: id.to_string(),
            parents: commit.parents().map(|parent| parent.to_string()).collect(),
            author,
            committer,
            summary: commit.message_summary().to_str_lossy().into_owned(),
            message: commit.message.to_str_lossy().into_owned(),
            trailers,
        })
    }

    /// The commits `head` has and `base` does not (`git rev-list base..head`), parents
    /// before children: the first parent's side first, then a merge's other parents, then
    /// the merge. What `astrix ci` judges; exact also when committer dates go backwards (see
    /// `walk.rs` for what the walk assumes of the history it does not read).
    pub fn commits_between(&self, base: &str, head: &str) -> Result<Vec<String>, GitError> {
        self.commits_not_in(head, &[base.to_owned()])
    }

    /// The commits `tip` has and none of `hidden` has (`git rev-list tip ^hidden…`), parents
    /// before children, as [`Self::commits_between`] orders them. The walk is git's own,
    /// with dates that may go backwards (see `walk.rs`): it never leaves out a commit of the
    /// tip's, is never longer than git's answer (shorter where git's slop is too little for
    /// the clock skew), and reads the hidden side's history only as far as the dates and the
    /// skew seen require.
    pub fn commits_not_in(&self, tip: &str, hidden: &[String]) -> Result<Vec<String>, GitError> {
        let head = self.resolve_commit(tip)?;
        let hidden = hidden
            .iter()
            .map(|rev| self.resolve_commit(rev))
            .collect::<Result<Vec<_>, _>>()?;
        let objects = self.objects();
        if super::walk::on_first_parent_line(&objects, head, &hidden, FIRST_PARENT_BUDGET) {
            return Ok(Vec::new());
        }
        let listing = super::walk::commits_not_in(&objects, head, &hidden)?;
        let wanted: gix::hashtable::HashSet<ObjectId> = listing.commits.iter().copied().collect();
        let parents_of = |id: &ObjectId| listing.parents.get(id).cloned().unwrap_or_default();
        // Depth-first, each commit after its parents; iterative, so that a long history
        // cannot overflow the stack.
        let mut ordered = Vec::with_capacity(wanted.len());
        let mut done = gix::hashtable::HashSet::default();
        let mut stack: Vec<(ObjectId, Vec<ObjectId>, usize)> = Vec::new();
        if wanted.contains(&head) {
            stack.push((head, parents_of(&head), 0));
        }
        while let Some((id, parents, next)) = stack.last_mut() {
            if let Some(parent) = parents.get(*next).copied() {
                *next += 1;
                if wanted.contains(&parent) && !done.contains(&parent) {
                    // Mark it now: a commit reached along two paths is listed once.
                    done.insert(parent);
                    stack.push((parent, parents_of(&parent), 0));
                }
                continue;
            }
            let id = *id;
            done.insert(id);
            ordered.push(id.to_string());
            stack.pop();
        }
        Ok(ordered)
    }

    /// Every local branch (`refs/heads/*`) with the commit it points at, sorted by name; a
    /// symbolic branch is listed with its target's commit while it names local branches
    /// only, and one that leads to no commit is left out.
    pub fn local_branches(&self) -> Result<Vec<BranchRef>, GitError> {
        let mut branches = self.branches_under("refs/heads/")?;
        // A symbolic branch is a branch only while it names local branches: one that names a
        // tag or a remote-tracking ref shows content no branch took.
        let mut kept = Vec::with_capacity(branches.len());
        for branch in branches.drain(..) {
            if self.resolves_within(&branch.name, "refs/heads/")? {
                kept.push(branch);
            }
        }
        Ok(kept)
    }

    /// Whether deleting the local branch `branch` at `tip` only removes its loose copy
    /// (`git pack-refs`, `git gc`): the branch stays, in `packed-refs`.
    pub fn deletes_only_loose_copy(&self, branch: &str, tip: &str) -> Result<bool, GitError> {
        self.is_loose_copy_of_packed(&format!("refs/heads/{branch}"), tip)
    }

    /// Whether a reference `refs/heads/<branch>` exists, whatever it holds (a commit that is
    /// gone from the object database, a symbolic reference to nothing).
    pub fn branch_exists(&self, branch: &str) -> Result<bool, GitError> {
        Ok(self.read_ref(&format!("refs/heads/{branch}"))?.is_some())
    }

    /// Whether the local branch `branch` (short name) is an ordinary branch or leads to its
    /// commit only through other local branches (see [`Self::local_branches`]).
    pub fn is_local_branch_chain(&self, branch: &str) -> Result<bool, GitError> {
        self.resolves_within(&format!("refs/heads/{branch}"), "refs/heads/")
    }

    /// The remote-tracking branches of `remote` (`refs/remotes/<remote>/*`, not its `HEAD`),
    /// as [`Self::local_branches`] lists them.
    pub fn remote_branches(&self, remote: &str) -> Result<Vec<BranchRef>, GitError> {
        let prefix = format!("refs/remotes/{remote}/");
        let mut branches = self.branches_under(&prefix)?;
        branches.retain(|branch| branch.name != format!("{prefix}HEAD"));
        Ok(branches)
    }

    /// Every reference under `refs/` (branches, remote-tracking branches, tags, the stash…)
    /// with the commit it leads to, as pairs of its full name and the commit; references that
    /// lead to no commit are left out.
    pub fn reference_tips(&self) -> Result<Vec<(String, String)>, GitError> {
        Ok(self
            .branches_under("refs/")?
            .into_iter()
            .map(|branch| (branch.name, branch.commit))
            .collect())
    }

    fn branches_under(&self, prefix: &str) -> Result<Vec<BranchRef>, GitError> {
        let mut out = Vec::new();
        for (name, _) in self.list_refs(prefix)? {
            // A reference git cannot read (an empty or garbled file) is skipped, as `git
            // for-each-ref` skips it: it names no commit.
            let Ok(Some(id)) = self.peel_ref(&name) else {
                continue;
            };
            // A branch names a commit; anything else (a tree, a blob) leads to no commit.
            if self
                .repo
                .find_header(id)
                .is_ok_and(|header| header.kind() == gix::object::Kind::Commit)
            {
                out.push(BranchRef {
                    name,
                    commit: id.to_string(),
                });
            }
        }
        Ok(out)
    }

    /// The change `tip` makes against `bases` (commits): against one, the diff of their trees
    /// as [`Repository::commit_change`] makes it (renames found); against several, git's
    /// combined rule — the paths whose content differs from every base, each counted against
    /// the base it differs from least; against none, everything `tip` holds is added.
    pub fn change_against(
        &self,
        tip: &str,
        bases: &[String],
        options: &ChangeOptions,
    ) -> Result<Change, GitError> {
        let objects = self.objects();
        let (tree, _) = objects.commit(&self.resolve_commit(tip)?)?;
        let base_ids = bases
            .iter()
            .map(|base| self.resolve_commit(base))
            .collect::<Result<Vec<_>, _>>()?;
        let mut base_trees = Vec::with_capacity(base_ids.len());
        for id in &base_ids {
            base_trees.push(objects.commit(id)?.0);
        }
        let raw = objects.diff_trees(base_trees.first().copied(), Some(tree))?;
        let mut content = Content::new(&objects);
        if base_trees.len() < 2 {
            let files = Self::ordinary(raw, &mut content, options)?;
            return Ok(finish(files, &base_ids));
        }
        let mut others = Vec::new();
        for base in &base_trees[1..] {
            others.push(objects.diff_trees(Some(*base), Some(tree))?);
        }
        let files = super::combined(raw, others, &mut content, options)?;
        Ok(finish(files, &base_ids))
    }
    /// The branch a revision names, when it names one: `main` for `main`, `refs/heads/main`,
    /// `origin/main` and `refs/remotes/origin/main`; `None` for commit ids, tags and
    /// expressions such as `HEAD~2`.
    pub fn branch_name(&self, rev: &str) -> Option<String> {
        if rev.contains(['~', '^', ':', '@', '{']) || rev == "HEAD" {
            return None;
        }
        // The reference git would take the name for (the first of its rules that exists); a
        // revision that is no valid reference name (a commit id with a suffix, say) names no
        // branch, and the caller then asks for the branch explicitly.
        let name = self.expand_ref_name(rev).ok()?.into_iter().next()?;
        if let Some(branch) = name.strip_prefix("refs/heads/") {
            return Some(branch.to_owned());
        }
        // `refs/remotes/<remote>/<branch>`: the remote's own HEAD names no branch.
        name.strip_prefix("refs/remotes/")
            .and_then(|rest| rest.split_once('/'))
            .map(|(_, branch)| branch)
            .filter(|branch| *branch != "HEAD")
            .map(str::to_owned)
    }
}

impl Repository {
    /// The operation that is replaying existing commits, if one is in progress: `rebase` or
    /// `cherry-pick` (their state files in the git directory). A revert is not one: it makes
    /// a new commit.
    pub fn replaying(&self) -> Option<&'static str> {
        let dir = self.git_dir();
        [
            ("rebase-merge", "rebase"),
            ("rebase-apply", "rebase"),
            ("CHERRY_PICK_HEAD", "cherry-pick"),
        ]
        .into_iter()
        .find(|(file, _)| dir.join(file).exists())
        .map(|(_, operation)| operation)
    }

    /// The character that starts comment lines in commit messages: `core.commentChar`, `#`
    /// when it is unset or `auto`.
    /// `core.commentChar` (or `core.commentString`) as set, when set: one character, a
    /// string, or `auto`.
    pub fn comment_setting(&self) -> Option<String> {
        let config = self.repo.config_snapshot();
        config
            .string("core.commentString")
            .or_else(|| config.string("core.commentChar"))
            .map(|value| value.to_str_lossy().into_owned())
            .filter(|value| !value.is_empty())
    }

    pub fn comment_char(&self) -> char {
        let config = self.repo.config_snapshot();
        config
            .string("core.commentChar")
            .and_then(|value| {
                let value = value.to_str_lossy();
                let mut chars = value.chars();
                let first = chars.next()?;
                chars.next().is_none().then_some(first)
            })
            .unwrap_or('#')
    }
}

/// `` `a`, `b` and `c` ``.
fn quoted_list(items: &[String]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|item| {
            if item.starts_with("the commit ") {
                item.clone()
            } else {
                format!("`{item}`")
            }
        })
        .collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}
