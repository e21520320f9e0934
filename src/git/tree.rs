//! Reading trees and the index into per-path changes, and hashing the index into a tree.
//!
//! Walks are iterative (a hostile tree cannot overflow the stack) and skip what is known to be
//! equal: subtrees with the same id, and directories whose cache-tree entry in the index is
//! valid and equal to HEAD's subtree (what `git commit` itself relies on).

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice, ByteVec};
use gix::index::entry::{Flags, Mode, Stage};

use super::error::{GitError, History, message};

/// Trees nested deeper than this are refused.
pub(crate) const MAX_DEPTH: usize = 4096;

const MODE_TREE: u32 = 0o040_000;
const MODE_TYPE_MASK: u32 = 0o170_000;
const MODE_REGULAR: u32 = 0o100_000;

/// One side of a path: a canonical mode and an object id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Item {
    /// `100644`, `100755`, `120000` or `160000`.
    pub mode: u32,
    /// The blob (or, for a submodule, commit) id.
    pub id: ObjectId,
}

/// A path whose entry differs between two sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawChange {
    /// The repository-relative path.
    pub path: BString,
    /// Before (`None`: absent).
    pub old: Option<Item>,
    /// After (`None`: absent).
    pub new: Option<Item>,
}

/// True for regular files, executable or not.
pub(crate) fn is_regular(mode: u32) -> bool {
    mode & MODE_TYPE_MASK == MODE_REGULAR
}

/// True when both modes have the same file type (git's `S_IFMT` comparison).
pub(crate) fn same_type(a: u32, b: u32) -> bool {
    a & MODE_TYPE_MASK == b & MODE_TYPE_MASK
}

fn is_tree(mode: u32) -> bool {
    mode & MODE_TYPE_MASK == MODE_TREE
}

/// git's `canon_mode`: regular files are `100644` or `100755`.
fn canonical(mode: u32) -> u32 {
    if is_regular(mode) {
        if mode & 0o111 == 0 {
            0o100_644
        } else {
            0o100_755
        }
    } else {
        mode
    }
}

/// A mode and id, or nothing, on one side of a name in two trees.
type Side = Option<(u32, ObjectId)>;

/// An entry of a tree object.
struct TreeEntry {
    name: BString,
    mode: u32,
    id: ObjectId,
}

/// Blobs read recently, by id, so that what one step read another does not inflate again:
/// the tampering analysis reads the blobs the line counts read, and in a range of commits a
/// commit's old side is the new side of the one before it. Bounded in memory.
#[derive(Debug, Default)]
pub(crate) struct BlobCache {
    blobs: HashMap<ObjectId, Rc<Vec<u8>>>,
    bytes: usize,
    /// Commits' trees and parents: the backstop asks about the same few commits again and
    /// again (a loose one is a file to open, map and inflate each time).
    commits: HashMap<ObjectId, (ObjectId, Rc<[ObjectId]>)>,
}

/// The most commits a [`BlobCache`] holds.
const COMMIT_CACHE_LEN: usize = 4096;

/// The most a [`BlobCache`] holds, and the largest blob it keeps.
const BLOB_CACHE_BYTES: usize = 16 * 1024 * 1024;
const BLOB_CACHE_LARGEST: usize = 1024 * 1024;

impl BlobCache {
    /// Whether the commit `id` was read already (so it exists, and is a commit).
    pub(crate) fn knows_commit(&self, id: &ObjectId) -> bool {
        self.commits.contains_key(id)
    }

    /// Parses the commit `id` read as `data` and keeps its tree and parents.
    pub(crate) fn keep_commit(
        &mut self,
        id: &ObjectId,
        data: &[u8],
        hash: gix::hash::Kind,
    ) -> Result<(ObjectId, Vec<ObjectId>), GitError> {
        let commit = gix::objs::CommitRef::from_bytes(data, hash)
            .map_err(|err| GitError::corrupt(id, message(&err)))?;
        let tree = commit.tree();
        let parents: Vec<ObjectId> = commit.parents().collect();
        if self.commits.len() >= COMMIT_CACHE_LEN {
            self.commits.clear();
        }
        self.commits.insert(*id, (tree, parents.as_slice().into()));
        Ok((tree, parents))
    }

    fn get(&self, id: &ObjectId) -> Option<Rc<Vec<u8>>> {
        self.blobs.get(id).cloned()
    }

    fn keep(&mut self, id: ObjectId, data: &[u8]) {
        if data.len() > BLOB_CACHE_LARGEST || self.blobs.contains_key(&id) {
            return;
        }
        if self.bytes + data.len() > BLOB_CACHE_BYTES {
            // Not a cache of the most used: what is read next is mostly new.
            self.blobs.clear();
            self.bytes = 0;
        }
        self.bytes += data.len();
        self.blobs.insert(id, Rc::new(data.to_vec()));
    }
}

/// Object access with errors mapped to [`GitError`].
pub(crate) struct Objects<'r> {
    repo: &'r gix::Repository,
    /// The repository's cache of recently read blobs.
    cache: &'r RefCell<BlobCache>,
    /// Trees read by path lookups ([`Self::entry_at`]), which revisit the same directories.
    lookups: RefCell<HashMap<ObjectId, Rc<Vec<TreeEntry>>>>,
    /// Loose blobs, read with one zlib state (`None` when replacement objects apply).
    loose: Option<LooseBlobs>,
}

impl<'r> Objects<'r> {
    pub(crate) fn new(repo: &'r gix::Repository, cache: &'r RefCell<BlobCache>) -> Self {
        let store = repo.objects.store_ref();
        let loose = store
            .replacements()
            .next()
            .is_none()
            .then(|| LooseBlobs::new(store.path()));
        Self {
            repo,
            cache,
            lookups: RefCell::default(),
            loose,
        }
    }

    /// The kind and content of an object.
    pub(crate) fn read(&self, id: &ObjectId) -> Result<(gix::object::Kind, Vec<u8>), GitError> {
        match self.repo.try_find_object(*id) {
            Ok(Some(object)) => {
                let object = object.detach();
                Ok((object.kind, object.data))
            }
            Ok(None) => Err(self.missing(id)),
            Err(err) => Err(self.unreadable(id, &err)),
        }
    }

    /// The error for an object the database does not have: a permission problem when the
    /// place a loose object or the packs would be found cannot be read (the object database
    /// takes an unreadable file for an absent one), else a missing object.
    fn missing(&self, id: &ObjectId) -> GitError {
        let objects = self.repo.common_dir().join("objects");
        let hex = id.to_string();
        let (fan_out, rest) = hex.split_at(2);
        let loose_dir = objects.join(fan_out);
        let denied = |result: std::io::Result<()>| {
            result
                .err()
                .filter(|err| err.kind() == std::io::ErrorKind::PermissionDenied)
        };
        let file = loose_dir.join(rest);
        let probe = if let Some(error) = denied(std::fs::File::open(&file).map(drop)) {
            // Name the directory when it is what may not be read.
            Some(match denied(std::fs::read_dir(&loose_dir).map(drop)) {
                Some(dir_error) => (loose_dir, dir_error),
                None => (file, error),
            })
        } else {
            let packs = objects.join("pack");
            denied(std::fs::read_dir(&packs).map(drop)).map(|error| (packs, error))
        };
        if let Some((path, error)) = probe {
            return GitError::Access {
                path,
                what: Some(format!("object `{hex}`")),
                error,
            };
        }
        GitError::missing_from(id, history(self.repo))
    }

    /// The error for an object that the database fails to read: a permission problem when
    /// that is the cause, else a damaged object.
    fn unreadable(&self, id: &ObjectId, err: &(dyn std::error::Error + 'static)) -> GitError {
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(err);
        while let Some(current) = cause {
            if let Some(io) = current.downcast_ref::<std::io::Error>()
                && io.kind() == std::io::ErrorKind::PermissionDenied
                && let denied @ GitError::Access { .. } = self.missing(id)
            {
                return denied;
            }
            cause = current.source();
        }
        GitError::corrupt(&id, message(err))
    }

    /// Reads an object of kind `kind` into `data`, reusing its allocation.
    pub(crate) fn read_into(
        &self,
        id: &ObjectId,
        kind: gix::object::Kind,
        data: &mut Vec<u8>,
    ) -> Result<(), GitError> {
        use gix::prelude::Find as _;
        match self.repo.objects.try_find(id, data) {
            Ok(Some(object)) if object.kind == kind => Ok(()),
            Ok(Some(object)) => Err(GitError::UnexpectedKind {
                id: id.to_string(),
                expected: kind_name(kind),
                actual: kind_name(object.kind).to_owned(),
            }),
            Ok(None) => Err(self.missing(id)),
            Err(err) => Err(self.unreadable(id, &err)),
        }
    }

    fn read_kind(&self, id: &ObjectId, kind: gix::object::Kind) -> Result<Vec<u8>, GitError> {
        let (actual, data) = self.read(id)?;
        if actual == kind {
            Ok(data)
        } else {
            Err(GitError::UnexpectedKind {
                id: id.to_string(),
                expected: kind_name(kind),
                actual: kind_name(actual).to_owned(),
            })
        }
    }

    /// A blob's content.
    pub(crate) fn blob(&self, id: &ObjectId) -> Result<Vec<u8>, GitError> {
        self.blob_from(id, &BlobSource::default())
    }

    /// How another thread reads this repository's blobs; `None` when replacement objects
    /// apply (they are honoured only through the repository's own handle).
    pub(crate) fn detached(&self) -> Option<DetachedSpec> {
        self.loose.as_ref()?;
        Some(DetachedSpec {
            objects_dir: self.repo.objects.store_ref().path().to_owned(),
            object_hash: self.repo.object_hash(),
            pack_cache: super::pack_cache_limit(self.repo),
        })
    }

    /// A blob's content, looked for first where `source` says the blobs of its side are.
    pub(crate) fn blob_from(
        &self,
        id: &ObjectId,
        source: &BlobSource,
    ) -> Result<Vec<u8>, GitError> {
        if let Some(data) = self.cache.borrow().get(id) {
            return Ok(data.as_ref().clone());
        }
        match find_blob(self.loose.as_ref(), &*self.repo.objects, id, source) {
            Ok(data) => {
                self.cache.borrow_mut().keep(*id, &data);
                Ok(data)
            }
            Err(NotABlob::Kind(kind)) => Err(GitError::UnexpectedKind {
                id: id.to_string(),
                expected: kind_name(gix::object::Kind::Blob),
                actual: kind_name(kind).to_owned(),
            }),
            Err(NotABlob::Missing) => Err(self.missing(id)),
            Err(NotABlob::Unreadable(err)) => Err(self.unreadable(id, &*err)),
        }
    }

    /// A commit's tree and parents.
    pub(crate) fn commit(&self, id: &ObjectId) -> Result<(ObjectId, Vec<ObjectId>), GitError> {
        if let Some((tree, parents)) = self.cache.borrow().commits.get(id) {
            return Ok((*tree, parents.to_vec()));
        }
        let data = self.read_kind(id, gix::object::Kind::Commit)?;
        self.cache
            .borrow_mut()
            .keep_commit(id, &data, self.repo.object_hash())
    }

    fn tree(&self, id: &ObjectId) -> Result<Vec<TreeEntry>, GitError> {
        let data = self.read_kind(id, gix::object::Kind::Tree)?;
        let mut entries = Vec::new();
        let mut order = TreeOrder::default();
        for entry in gix::objs::TreeRefIter::from_bytes(&data, self.repo.object_hash()) {
            let entry = entry.map_err(|err| GitError::corrupt(id, message(&err)))?;
            order
                .next(entry.filename, entry.mode.is_tree())
                .map_err(|problem| GitError::corrupt(id, problem))?;
            entries.push(TreeEntry {
                name: entry.filename.to_owned(),
                mode: canonical(u32::from(entry.mode.value())),
                id: entry.oid.to_owned(),
            });
        }
        Ok(entries)
    }

    fn cached_tree(&self, id: &ObjectId) -> Result<Rc<Vec<TreeEntry>>, GitError> {
        if let Some(entries) = self.lookups.borrow().get(id) {
            return Ok(Rc::clone(entries));
        }
        let entries = Rc::new(self.tree(id)?);
        self.lookups.borrow_mut().insert(*id, Rc::clone(&entries));
        Ok(entries)
    }

    /// Every non-tree entry below `tree`, with `prefix` prepended to the paths.
    pub(crate) fn flatten(
        &self,
        tree: ObjectId,
        prefix: &BStr,
        out: &mut Vec<(BString, Item)>,
    ) -> Result<(), GitError> {
        let mut stack = vec![(prefix.to_owned(), tree)];
        while let Some((prefix, tree)) = stack.pop() {
            check_depth(prefix.as_bstr())?;
            for entry in self.tree(&tree)? {
                let path = join(prefix.as_bstr(), &entry.name);
                if is_tree(entry.mode) {
                    stack.push((path, entry.id));
                } else {
                    out.push((
                        path,
                        Item {
                            mode: entry.mode,
                            id: entry.id,
                        },
                    ));
                }
            }
        }
        Ok(())
    }

    /// The index's stage-0 entries (intent-to-add entries left out, sparse directories
    /// expanded), except those below `pruned` directory prefixes. Sorted by path.
    pub(crate) fn index_entries(
        &self,
        index: &gix::index::State,
        pruned: &[BString],
    ) -> Result<Vec<(BString, Item)>, GitError> {
        let mut skip = vec![false; index.entries().len()];
        for prefix in pruned {
            let range = if prefix.is_empty() {
                Some(0..index.entries().len())
            } else {
                let mut dir = prefix.clone();
                dir.push(b'/');
                index.prefixed_entries_range(dir.as_bstr())
            };
            if let Some(range) = range {
                for flag in &mut skip[range] {
                    *flag = true;
                }
            }
        }
        let mut out = Vec::with_capacity(index.entries().len());
        for (position, entry) in index.entries().iter().enumerate() {
            if skip[position]
                || entry.stage() != Stage::Unconflicted
                || entry.flags.contains(Flags::INTENT_TO_ADD)
            {
                continue;
            }
            let path = entry.path(index);
            if entry.mode.is_sparse() || entry.mode == Mode::DIR {
                let prefix = path.strip_suffix(b"/").unwrap_or(path);
                self.flatten(entry.id, prefix.as_bstr(), &mut out)?;
                continue;
            }
            out.push((
                path.to_owned(),
                Item {
                    mode: canonical(entry.mode.bits()),
                    id: entry.id,
                },
            ));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// The names of the directories directly in `tree`.
    pub(crate) fn subtree_names(&self, tree: ObjectId) -> Result<Vec<BString>, GitError> {
        Ok(self
            .cached_tree(&tree)?
            .iter()
            .filter(|entry| is_tree(entry.mode))
            .map(|entry| entry.name.clone())
            .collect())
    }

    /// The entry at `path` in `tree` (`None` when absent or a directory).
    pub(crate) fn entry_at(&self, tree: ObjectId, path: &BStr) -> Result<Option<Item>, GitError> {
        let mut current = tree;
        let mut components = path.split_str("/").peekable();
        while let Some(component) = components.next() {
            let entries = self.cached_tree(&current)?;
            let Some(entry) = entries.iter().find(|entry| entry.name == component) else {
                return Ok(None);
            };
            if components.peek().is_none() {
                return Ok((!is_tree(entry.mode)).then_some(Item {
                    mode: entry.mode,
                    id: entry.id,
                }));
            }
            if !is_tree(entry.mode) {
                return Ok(None);
            }
            current = entry.id;
        }
        Ok(None)
    }

    /// The per-path changes from tree `old` to tree `new` (`None`: the empty tree), skipping
    /// subtrees with equal ids. Sorted by path.
    pub(crate) fn diff_trees(
        &self,
        old: Option<ObjectId>,
        new: Option<ObjectId>,
    ) -> Result<Vec<RawChange>, GitError> {
        let mut changes = Vec::new();
        self.diff_trees_into(BString::default(), old, new, &mut changes)?;
        changes.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(changes)
    }

    /// Appends the changes from tree `old` to tree `new` below `prefix` to `changes`
    /// (unsorted): the entries of both trees are merged in git's tree order, one directory at
    /// a time.
    fn diff_trees_into(
        &self,
        prefix: BString,
        old: Option<ObjectId>,
        new: Option<ObjectId>,
        changes: &mut Vec<RawChange>,
    ) -> Result<(), GitError> {
        let mut stack = vec![(prefix, old, new)];
        let (mut old_data, mut new_data) = (Vec::new(), Vec::new());
        while let Some((prefix, old, new)) = stack.pop() {
            if old == new {
                continue;
            }
            check_depth(prefix.as_bstr())?;
            let old_entries = self
                .tree_entries(old, &mut old_data)
                .map_err(|err| err.concerning(|| directory(prefix.as_bstr())))?;
            let new_entries = self
                .tree_entries(new, &mut new_data)
                .map_err(|err| err.concerning(|| directory(prefix.as_bstr())))?;
            let (mut a, mut b) = (0, 0);
            while a < old_entries.len() || b < new_entries.len() {
                let order = match (old_entries.get(a), new_entries.get(b)) {
                    (Some(x), Some(y)) => compare_entries(x.0, is_tree(x.1), y.0, is_tree(y.1)),
                    (Some(_), None) => Ordering::Less,
                    _ => Ordering::Greater,
                };
                let (old_side, new_side) = match order {
                    Ordering::Less => (old_entries.get(a), None),
                    Ordering::Greater => (None, new_entries.get(b)),
                    Ordering::Equal => (old_entries.get(a), new_entries.get(b)),
                };
                a += usize::from(old_side.is_some());
                b += usize::from(new_side.is_some());
                let Some(&(name, _, _)) = old_side.or(new_side) else {
                    break;
                };
                let path = join(prefix.as_bstr(), name);
                let side = |side: Option<&TreeRef<'_>>| side.map(|&(_, mode, id)| (mode, id));
                let (old_side, new_side) = (side(old_side), side(new_side));
                let subtree =
                    |side: Side| side.filter(|(mode, _)| is_tree(*mode)).map(|(_, id)| id);
                let (old_tree, new_tree) = (subtree(old_side), subtree(new_side));
                if old_tree.is_some() || new_tree.is_some() {
                    // Same name and order means the same type on both sides.
                    if old_tree != new_tree {
                        stack.push((path, old_tree, new_tree));
                    }
                } else if old_side != new_side {
                    let blob = |side: Side| side.map(|(mode, id)| Item { mode, id });
                    changes.push(RawChange {
                        path,
                        old: blob(old_side),
                        new: blob(new_side),
                    });
                }
            }
        }
        Ok(())
    }

    /// The entries of `tree` (none for `None`), borrowing names from `data`, which the tree is
    /// read into.
    fn tree_entries<'d>(
        &self,
        tree: Option<ObjectId>,
        data: &'d mut Vec<u8>,
    ) -> Result<Vec<TreeRef<'d>>, GitError> {
        data.clear();
        let Some(tree) = tree else {
            return Ok(Vec::new());
        };
        self.read_into(&tree, gix::object::Kind::Tree, data)?;
        let mut order = TreeOrder::default();
        gix::objs::TreeRefIter::from_bytes(data, self.repo.object_hash())
            .map(|entry| {
                let entry = entry.map_err(|err| GitError::corrupt(&tree, message(&err)))?;
                let mode = canonical(u32::from(entry.mode.value()));
                order
                    .next(entry.filename, is_tree(mode))
                    .map_err(|problem| GitError::corrupt(&tree, problem))?;
                Ok((entry.filename.as_bytes(), mode, entry.oid.to_owned()))
            })
            .collect()
    }

    /// The per-path changes from tree `old` (`None`: the empty tree) to the index. Sorted by
    /// path.
    ///
    /// The tree and the index's sorted entries are walked together, one directory at a time,
    /// as git's `unpack_trees` does: a directory whose valid cache-tree entry equals the tree's
    /// subtree is skipped without reading it or its entries, and nothing is copied for the
    /// paths that are equal.
    pub(crate) fn diff_tree_index(
        &self,
        old: Option<ObjectId>,
        index: &gix::index::State,
    ) -> Result<IndexDiff, GitError> {
        let mut walk = IndexWalk {
            objects: self,
            index,
            changes: Vec::new(),
            stack: Vec::new(),
            data: Vec::new(),
            skipped: HashSet::new(),
            miscounted: false,
        };
        match old {
            None => {
                for entry in index.entries() {
                    walk.added(entry)?;
                }
            }
            Some(old) => {
                walk.stack.push(IndexDir {
                    prefix: BString::default(),
                    tree: old,
                    entries: 0..index.entries().len(),
                    cache: index.tree(),
                });
                while let Some(dir) = walk.stack.pop() {
                    walk.directory(dir)?;
                }
            }
        }
        let mut changes = walk.changes;
        changes.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(IndexDiff {
            changes,
            skipped: walk.skipped,
            miscounted: walk.miscounted,
        })
    }

    /// The id of the tree `git write-tree` would write from `index`, computed in memory;
    /// valid cache-tree entries are used as they are.
    pub(crate) fn index_tree_id(&self, index: &gix::index::State) -> Result<ObjectId, GitError> {
        let (id, _) = self.index_tree(index, None)?;
        Ok(id)
    }

    /// Whether the tree git would commit from `index` is the tree whose changes
    /// [`Self::diff_tree_index`] found: git takes every valid cache-tree entry as it is (its
    /// tree, and its entry count to step over the entries below it), the walk only those it
    /// `skipped` as equal to the old tree. A valid entry with another tree or count than its
    /// entries make (a hand-made index) would let git commit content the walk never saw.
    /// Returns what does not match, if anything.
    ///
    /// The walk checked the count of every directory it skipped. In the usual index (`git
    /// add` invalidates the entries of the directories it changes) every other valid entry
    /// lies below a skipped one, and nothing is left to check; only otherwise are the trees
    /// recomputed from the entries, which costs a pass over the whole index.
    pub(crate) fn cache_tree_problem(
        &self,
        index: &gix::index::State,
        diff: &IndexDiff,
    ) -> Result<Option<String>, GitError> {
        let trusted = |dir: &[u8], id: ObjectId| diff.skipped.contains(&(BString::from(dir), id));
        if !diff.miscounted && !has_untrusted_entry(index.tree(), &trusted) {
            return Ok(None);
        }
        let (_, mismatch) = self.index_tree(index, Some(&trusted))?;
        Ok(mismatch)
    }

    /// [`Self::index_tree_id`]; with `verify`, valid cache-tree entries that it does not
    /// trust are recomputed from their entries, and the first that differs is returned.
    fn index_tree(
        &self,
        index: &gix::index::State,
        verify: Option<Trust<'_>>,
    ) -> Result<(ObjectId, Option<String>), GitError> {
        // Paths borrowed from the index: no allocation per entry.
        let mut entries: Vec<(&[u8], u32, ObjectId)> = Vec::with_capacity(index.entries().len());
        for entry in index.entries() {
            if entry.stage() != Stage::Unconflicted || entry.flags.contains(Flags::INTENT_TO_ADD) {
                continue;
            }
            let path: &[u8] = entry.path(index);
            if entry.mode.is_sparse() || entry.mode == Mode::DIR {
                let path = path.strip_suffix(b"/").unwrap_or(path);
                entries.push((path, MODE_TREE, entry.id));
            } else {
                entries.push((path, canonical(entry.mode.bits()), entry.id));
            }
        }
        // Already in order but for sparse directories, whose `/` is gone (a sorted run is
        // cheap to sort).
        entries.sort_by(|a, b| a.0.cmp(b.0));
        let mut build = TreeBuild {
            hash: self.repo.object_hash(),
            objects: self,
            verify,
            mismatch: None,
        };
        let id = match build.tree(&entries, 0, index.tree(), 0)? {
            Some(id) => id,
            None => hash_tree(&[], build.hash)?,
        };
        Ok((id, build.mismatch))
    }
}

/// What a tree is, for errors: "the directory \`src/a\`", or the root directory.
fn directory(prefix: &BStr) -> String {
    if prefix.is_empty() {
        "the root directory".to_owned()
    } else {
        format!("the directory `{}`", prefix.to_str_lossy())
    }
}

/// Where the blobs of one side of a change were last found. The staged side is mostly loose
/// objects (`git add` writes one per file) and the committed side mostly packed, or loose
/// until the next `git gc`; looking first where the previous blob of the same side was found
/// saves a failed `open()` per packed blob. Where a blob is looked for first never changes
/// what is read.
#[derive(Debug, Default)]
pub(crate) struct BlobSource {
    packed: std::cell::Cell<bool>,
}

/// What another thread needs to read this repository's blobs ([`DetachedBlobs`]).
#[derive(Debug, Clone)]
pub(crate) struct DetachedSpec {
    objects_dir: std::path::PathBuf,
    object_hash: gix::hash::Kind,
    pack_cache: usize,
}

/// Reads blobs on another thread than the repository's. gix's handles cannot cross threads
/// (this build leaves out gix's `parallel` feature), so the object database is opened again
/// there. It answers with a blob or with nothing: whatever it cannot read is read again on
/// the repository's own thread, which reports the error as for any other object.
pub(crate) struct DetachedBlobs {
    loose: LooseBlobs,
    odb: gix::odb::Handle,
}

impl DetachedBlobs {
    /// Opens the object database `spec` names; `None` when it cannot.
    pub(crate) fn open(spec: &DetachedSpec) -> Option<Self> {
        let mut odb = gix::odb::at(&spec.objects_dir, spec.object_hash).ok()?;
        let limit = spec.pack_cache;
        if limit > 0 {
            odb.set_pack_cache(move || {
                Box::new(gix::odb::pack::cache::lru::MemoryCappedHashmap::new(limit))
            });
        }
        Some(Self {
            loose: LooseBlobs::new(&spec.objects_dir),
            odb,
        })
    }

    /// A blob's content, looked for first where `source` says the blobs of its side are.
    pub(crate) fn blob(&self, id: &ObjectId, source: &BlobSource) -> Option<Vec<u8>> {
        find_blob(Some(&self.loose), &self.odb, id, source).ok()
    }
}

/// How much of its history and objects `repo` was cloned with.
pub(crate) fn history(repo: &gix::Repository) -> History {
    // An unreadable `shallow` file counts as shallow: the careful reading of a missing object.
    if repo.is_shallow().unwrap_or(true) {
        return History::Shallow;
    }
    let config = repo.config_snapshot();
    let promisor = config.string("extensions.partialClone").is_some()
        || repo.remote_names().iter().any(|name| {
            config
                .boolean(format!("remote.{name}.promisor").as_str())
                .unwrap_or(false)
        });
    if promisor {
        History::Partial
    } else {
        History::Complete
    }
}

/// What the object database has under an id that is not a blob's content.
enum NotABlob {
    /// An object of another kind.
    Kind(gix::object::Kind),
    /// Nothing.
    Missing,
    /// The lookup failed.
    Unreadable(Box<dyn std::error::Error + Send + Sync>),
}

/// A blob's content, looked for first where `source` says the blobs of its side are: loose
/// (through `loose`, when replacement objects do not apply) or in `odb`, which also reads
/// whatever `loose` cannot.
fn find_blob(
    loose: Option<&LooseBlobs>,
    odb: &impl gix::odb::pack::Find,
    id: &ObjectId,
    source: &BlobSource,
) -> Result<Vec<u8>, NotABlob> {
    if !source.packed.get()
        && let Some(data) = loose.and_then(|loose| loose.read(id))
    {
        return Ok(data);
    }
    let mut data = Vec::new();
    let packed = match odb.try_find(id, &mut data) {
        Ok(Some((object, location))) if object.kind == gix::object::Kind::Blob => {
            location.is_some()
        }
        Ok(Some((object, _))) => return Err(NotABlob::Kind(object.kind)),
        Ok(None) => return Err(NotABlob::Missing),
        Err(err) => return Err(NotABlob::Unreadable(err.into())),
    };
    // Found loose by the object database after being looked for in the packs: look loose
    // first next time.
    source.packed.set(packed || loose.is_none());
    // A blob decoded from a delta chain comes in the buffer its decoding needed, several
    // times its size; blobs can be kept for the whole diff.
    data.shrink_to_fit();
    Ok(data)
}

/// The staged side of a commit is mostly loose objects (`git add` writes one per file), and
/// gix sets up a new zlib state for each loose object it reads, which costs more than
/// inflating a small file. These are read here with one zlib state for all. Whatever this
/// cannot read as a blob (not loose here, in an alternate, damaged, not a blob) is left to
/// gix, which reads it or reports the error as it does for every other object.
struct LooseBlobs {
    /// The objects directory.
    dir: std::path::PathBuf,
    inflate: RefCell<gix::zlib::Inflate>,
    /// The compressed file, reused between reads.
    file: RefCell<Vec<u8>>,
}

/// Longer than any loose object header (`blob <20 digits>\0`).
const LOOSE_HEADER_MAX: usize = 64;

/// deflate never expands data more than about 1032-fold: a header that claims more than
/// this many bytes per compressed byte is damaged (and is not allocated for).
const MAX_INFLATE_RATIO: usize = 1032;

impl LooseBlobs {
    fn new(dir: &std::path::Path) -> Self {
        Self {
            dir: dir.to_owned(),
            inflate: RefCell::default(),
            file: RefCell::new(Vec::new()),
        }
    }

    /// The blob `id` when it is a loose object of the objects directory that inflates
    /// exactly as its header says; `None` for anything else.
    fn read(&self, id: &ObjectId) -> Option<Vec<u8>> {
        use std::io::Read as _;

        let hex = id.to_hex().to_string();
        let path = self.dir.join(&hex[..2]).join(&hex[2..]);
        let file = std::fs::File::open(path).ok()?;
        let mut compressed = self.file.borrow_mut();
        compressed.clear();
        // Through `take`, so that the file is read without asking for its size first.
        file.take(u64::MAX).read_to_end(&mut compressed).ok()?;

        let mut inflate = self.inflate.borrow_mut();
        inflate.reset();
        let mut header = [0u8; LOOSE_HEADER_MAX];
        let (status, consumed_in, consumed_out) = inflate.prefix(&compressed, &mut header).ok()?;
        let (kind, size, header_size) =
            gix::objs::decode::loose_header(&header[..consumed_out]).ok()?;
        let size = usize::try_from(size).ok()?;
        if kind != gix::object::Kind::Blob
            || size > compressed.len().saturating_mul(MAX_INFLATE_RATIO)
        {
            return None;
        }
        let held = consumed_out.checked_sub(header_size)?;
        let mut data = Vec::new();
        data.try_reserve_exact(size).ok()?;
        if status == gix::zlib::Status::StreamEnd {
            data.extend_from_slice(header.get(header_size..consumed_out)?);
        } else if held <= size {
            inflate
                .rest(
                    compressed.get(consumed_in..)?,
                    &header[..consumed_out],
                    header_size,
                    &mut data,
                    size,
                )
                .ok()?;
        }
        (data.len() == size).then_some(data)
    }
}

fn kind_name(kind: gix::object::Kind) -> &'static str {
    match kind {
        gix::object::Kind::Blob => "blob",
        gix::object::Kind::Tree => "tree",
        gix::object::Kind::Commit => "commit",
        gix::object::Kind::Tag => "tag",
    }
}

fn join(prefix: &BStr, name: &[u8]) -> BString {
    let mut path = BString::from(Vec::with_capacity(prefix.len() + name.len() + 1));
    if !prefix.is_empty() {
        path.push_str(prefix);
        path.push(b'/');
    }
    path.push_str(name);
    path
}

fn check_depth(path: &BStr) -> Result<(), GitError> {
    let depth = path.find_iter("/").count();
    if depth >= MAX_DEPTH {
        return Err(GitError::TooDeep {
            path: path.to_str_lossy().into_owned(),
            limit: MAX_DEPTH,
        });
    }
    Ok(())
}

/// The state of [`Objects::diff_tree_index`].
struct IndexWalk<'w, 'r> {
    objects: &'w Objects<'r>,
    index: &'w gix::index::State,
    changes: Vec<RawChange>,
    /// Directories still to compare.
    stack: Vec<IndexDir<'w>>,
    /// The tree being read, reused.
    data: Vec<u8>,
    /// The directories skipped because their valid cache-tree entry equals the old tree's.
    skipped: HashSet<(BString, ObjectId)>,
    /// A skipped directory's cache-tree entry counts other entries than the index has there.
    miscounted: bool,
}

/// The changes from a tree to the index, and the directories the walk took as unchanged
/// because of the index's cache tree (see [`Objects::cache_tree_problem`]).
pub(crate) struct IndexDiff {
    /// The per-path changes, sorted by path.
    pub changes: Vec<RawChange>,
    /// `(directory, tree)` for each directory skipped.
    pub skipped: HashSet<(BString, ObjectId)>,
    /// Some skipped directory's cache-tree entry counts other entries than the index has.
    pub miscounted: bool,
}

impl<'w> IndexWalk<'w, '_> {
    /// Whether `dir` is skipped: its valid cache-tree entry names the old tree. git then
    /// commits that tree and steps over as many entries as the entry counts; a count other
    /// than the entries there is noted for [`Objects::cache_tree_problem`].
    fn skip(&mut self, dir: &IndexDir<'_>) -> bool {
        let Some(count) = dir
            .cache
            .filter(|cache| cache.id == dir.tree)
            .and_then(|cache| cache.num_entries)
        else {
            return false;
        };
        let staged = self.index.entries()[dir.entries.clone()]
            .iter()
            .filter(|entry| is_staged(entry))
            .count();
        if usize::try_from(count).ok() != Some(staged) {
            self.miscounted = true;
        }
        true
    }

    /// Compares one directory of the tree with its range of index entries; pushes its
    /// subdirectories.
    fn directory(&mut self, dir: IndexDir<'w>) -> Result<(), GitError> {
        if self.skip(&dir) {
            self.skipped.insert((dir.prefix, dir.tree));
            return Ok(());
        }
        check_depth(dir.prefix.as_bstr())?;
        let index = self.index;
        let entries = index.entries();
        // The path of an entry below this directory, after the directory's `prefix/`.
        let skip = if dir.prefix.is_empty() {
            0
        } else {
            dir.prefix.len() + 1
        };
        let rest = |position: usize| &entries[position].path(index)[skip..];
        // A sparse index keeps an unexpanded directory as one entry, `prefix/`.
        let first = dir.entries.start;
        if dir.entries.len() == 1 && rest(first).is_empty() && is_sparse(&entries[first]) {
            let tree = Some(entries[first].id);
            return self.objects.diff_trees_into(
                dir.prefix,
                Some(dir.tree),
                tree,
                &mut self.changes,
            );
        }
        let mut data = std::mem::take(&mut self.data);
        self.objects
            .read_into(&dir.tree, gix::object::Kind::Tree, &mut data)
            .map_err(|err| err.concerning(|| directory(dir.prefix.as_bstr())))?;
        let (mut next, end) = (dir.entries.start, dir.entries.end);
        let mut order = TreeOrder::default();
        for entry in gix::objs::TreeRefIter::from_bytes(&data, self.objects.repo.object_hash()) {
            let entry = entry.map_err(|err| GitError::corrupt(&dir.tree, message(&err)))?;
            order
                .next(entry.filename, entry.mode.is_tree())
                .map_err(|problem| GitError::corrupt(&dir.tree, problem))?;
            let name: &[u8] = entry.filename;
            let old = Item {
                mode: canonical(u32::from(entry.mode.value())),
                id: entry.oid.to_owned(),
            };
            if is_tree(old.mode) {
                // Index entries before `name/` are only in the index.
                while next < end && compare_dir(rest(next), name).is_lt() {
                    self.added(&entries[next])?;
                    next += 1;
                }
                let below = next
                    + entries[next..end].partition_point(|entry| {
                        compare_dir(&entry.path(index)[skip..], name).is_eq()
                    });
                self.stack.push(IndexDir {
                    prefix: join(dir.prefix.as_bstr(), name),
                    tree: old.id,
                    entries: next..below,
                    cache: dir.cache.and_then(|cache| child(cache, name)),
                });
                next = below;
                continue;
            }
            while next < end && rest(next) < name {
                self.added(&entries[next])?;
                next += 1;
            }
            let mut new = None;
            while next < end && rest(next) == name {
                let entry = &entries[next];
                if is_staged(entry) {
                    new = Some(Item {
                        mode: canonical(entry.mode.bits()),
                        id: entry.id,
                    });
                }
                next += 1;
            }
            if new != Some(old) {
                self.changes.push(RawChange {
                    path: join(dir.prefix.as_bstr(), name),
                    old: Some(old),
                    new,
                });
            }
        }
        self.data = data;
        while next < end {
            self.added(&entries[next])?;
            next += 1;
        }
        Ok(())
    }

    /// Records an index entry that has no counterpart in the tree: a staged file is added, a
    /// sparse directory adds every file of its tree; conflict stages and intent-to-add entries
    /// are not part of a commit.
    fn added(&mut self, entry: &gix::index::Entry) -> Result<(), GitError> {
        if !is_staged(entry) {
            return Ok(());
        }
        let path = entry.path(self.index);
        if is_sparse(entry) {
            let prefix = path.strip_suffix(b"/").unwrap_or(path);
            return self.objects.diff_trees_into(
                prefix.into(),
                None,
                Some(entry.id),
                &mut self.changes,
            );
        }
        self.changes.push(RawChange {
            path: path.to_owned(),
            old: None,
            new: Some(Item {
                mode: canonical(entry.mode.bits()),
                id: entry.id,
            }),
        });
        Ok(())
    }
}

/// A tree entry: name, canonical mode, id.
type TreeRef<'d> = (&'d [u8], u32, ObjectId);

/// A directory of the tree-to-index walk: its path, its tree, the range of index entries
/// below it, and its cache-tree node.
struct IndexDir<'i> {
    prefix: BString,
    tree: ObjectId,
    entries: std::ops::Range<usize>,
    cache: Option<&'i gix::index::extension::Tree>,
}

/// A stage-0 entry that a commit records (not a conflict stage, not intent-to-add).
fn is_staged(entry: &gix::index::Entry) -> bool {
    entry.stage() == Stage::Unconflicted && !entry.flags.contains(Flags::INTENT_TO_ADD)
}

/// A sparse index's entry for a whole directory.
fn is_sparse(entry: &gix::index::Entry) -> bool {
    entry.mode.is_sparse() || entry.mode == Mode::DIR
}

/// The cache-tree node of directory `name` below `cache`. git keeps children sorted by name
/// length, then bytes; a node not found that way is looked for in order, and a missing one
/// only means that the directory is read.
fn child<'i>(
    cache: &'i gix::index::extension::Tree,
    name: &[u8],
) -> Option<&'i gix::index::extension::Tree> {
    let found = cache
        .children
        .binary_search_by(|child| {
            child
                .name
                .len()
                .cmp(&name.len())
                .then_with(|| child.name.as_slice().cmp(name))
        })
        .ok()
        .map(|position| &cache.children[position]);
    found.or_else(|| {
        cache
            .children
            .iter()
            .find(|child| child.name.as_slice() == name)
    })
}

/// Orders a path below a directory against that directory's entry `name` for a subtree, as
/// if the subtree were `name/`: `Equal` when the path lies inside it.
fn compare_dir(path: &[u8], name: &[u8]) -> Ordering {
    let common = path.len().min(name.len());
    path[..common]
        .cmp(&name[..common])
        .then_with(|| match path.get(name.len()) {
            // A proper prefix of `name`, or `name` itself, sorts before `name/`.
            None => Ordering::Less,
            Some(b'/') => Ordering::Equal,
            Some(byte) => byte.cmp(&b'/'),
        })
}

/// Checks, entry by entry, what git writes in a tree and the walks rely on: names in git's
/// tree order, each once, none empty, `.`, `..` or with a `/` (`git fsck` reports each as an
/// error). A hand-made tree that breaks them could hide a path from a merge of two sorted
/// lists, or name one path twice.
#[derive(Default)]
struct TreeOrder<'n> {
    previous: Option<(&'n [u8], bool)>,
}

impl<'n> TreeOrder<'n> {
    fn next(&mut self, name: &'n BStr, tree: bool) -> Result<(), String> {
        if name.is_empty() || name == "." || name == ".." || name.contains(&b'/') {
            return Err(format!(
                "it has an entry named `{}`, which git never writes",
                name.to_str_lossy()
            ));
        }
        if let Some((previous, previous_tree)) = &self.previous {
            if *previous == name.as_bytes() {
                return Err(format!("it names `{}` twice", name.to_str_lossy()));
            }
            if compare_entries(previous, *previous_tree, name, tree) != Ordering::Less {
                return Err(format!(
                    "its entries are out of order (`{}` comes after `{}`)",
                    name.to_str_lossy(),
                    previous.to_str_lossy()
                ));
            }
        }
        self.previous = Some((name.as_bytes(), tree));
        Ok(())
    }
}

/// git's tree entry order: names compared bytewise, a tree's name as if followed by `/`.
fn compare_entries(a: &[u8], a_tree: bool, b: &[u8], b_tree: bool) -> Ordering {
    let common = a.len().min(b.len());
    a[..common].cmp(&b[..common]).then_with(|| {
        let next = |name: &[u8], tree: bool| {
            name.get(common)
                .copied()
                .unwrap_or(if tree { b'/' } else { 0 })
        };
        next(a, a_tree).cmp(&next(b, b_tree))
    })
}

/// Whether a valid cache-tree entry is taken as it is: by its directory and tree.
type Trust<'t> = &'t dyn Fn(&[u8], ObjectId) -> bool;

/// Hashing the index into trees, level by level.
struct TreeBuild<'v, 'o, 'r> {
    hash: gix::hash::Kind,
    /// Where a cache-tree entry's tree is read when its id is not the one its entries hash
    /// to (an old repository's legacy encoding).
    objects: &'o Objects<'r>,
    /// When set, a valid cache-tree entry is taken as it is only when this trusts it (by
    /// directory and tree); the others are recomputed and compared.
    verify: Option<Trust<'v>>,
    /// How the first cache-tree entry found to differ from its entries differs.
    mismatch: Option<String>,
}

impl TreeBuild<'_, '_, '_> {
    /// Builds the tree for `entries` (sorted, all below the directory whose path ends at byte
    /// `offset`), hashing each level; `None` when nothing is in it. A valid cache-tree entry
    /// is used as it is, as git does (when verifying: after checking it).
    fn tree(
        &mut self,
        entries: &[(&[u8], u32, ObjectId)],
        offset: usize,
        cache: Option<&gix::index::extension::Tree>,
        depth: usize,
    ) -> Result<Option<ObjectId>, GitError> {
        let dir: &[u8] = match entries.first() {
            Some((path, _, _)) if offset > 0 => &path[..offset - 1],
            _ => b"",
        };
        let valid = cache.filter(|cache| cache.num_entries.is_some());
        if let Some(cache) = valid {
            let Some(trusted) = self.verify else {
                return Ok(Some(cache.id));
            };
            let count = cache.num_entries.map(|count| count as usize);
            if count != Some(entries.len()) && self.mismatch.is_none() {
                self.mismatch = Some(format!(
                    "its cache tree says {} holds {} entries, but the index has {} there",
                    shown_dir(dir),
                    count.unwrap_or_default(),
                    entries.len()
                ));
            }
            if trusted(dir, cache.id) {
                return Ok(Some(cache.id));
            }
        }
        if depth >= MAX_DEPTH {
            let path = entries.first().map(|e| e.0.to_str_lossy().into_owned());
            return Err(GitError::TooDeep {
                path: path.unwrap_or_default(),
                limit: MAX_DEPTH,
            });
        }
        let mut level: Vec<(&[u8], u32, ObjectId)> = Vec::new();
        let mut start = 0;
        while start < entries.len() {
            let (path, mode, id) = &entries[start];
            let rest = &path[offset..];
            match rest.find_byte(b'/') {
                None => {
                    level.push((rest, *mode, *id));
                    start += 1;
                }
                Some(slash) => {
                    let name = &rest[..slash];
                    let end = start
                        + entries[start..]
                            .iter()
                            .take_while(|(other, _, _)| {
                                let other = &other[offset..];
                                other.len() > slash
                                    && other[slash] == b'/'
                                    && &other[..slash] == name
                            })
                            .count();
                    let child = cache.and_then(|cache| {
                        cache
                            .children
                            .iter()
                            .find(|child| child.name.as_slice() == name)
                    });
                    if let Some(id) =
                        self.tree(&entries[start..end], offset + slash + 1, child, depth + 1)?
                    {
                        level.push((name, MODE_TREE, id));
                    }
                    start = end;
                }
            }
        }
        let computed = if level.is_empty() {
            None
        } else {
            Some(hash_tree(&level, self.hash)?)
        };
        let Some(cache) = valid else {
            return Ok(computed);
        };
        // A valid entry that was not trusted: git commits it as it is, so that is the tree;
        // it must be the one its entries make.
        let computed = match computed {
            Some(id) => id,
            None => hash_tree(&[], self.hash)?,
        };
        if computed != cache.id && self.mismatch.is_none() && !self.same_tree(cache.id, &level) {
            self.mismatch = Some(format!(
                "its cache tree says git commits tree `{}` for {}, but the entries there make tree `{computed}`",
                cache.id,
                shown_dir(dir)
            ));
        }
        Ok(Some(cache.id))
    }
}

impl TreeBuild<'_, '_, '_> {
    /// Whether the tree object `id` holds exactly the entries of `level`, modes read as git
    /// reads them. Trees that old git (and other tools) wrote with zero-padded modes
    /// (`040000`, which `git fsck` calls `zeroPaddedFilemode`) hash to another id than the
    /// canonical encoding of the same entries: after `git read-tree` of such a commit, the
    /// cache tree names that id, and git commits it. The content is the same, so it is no
    /// damage; a tree that cannot be read, or lists other entries, is.
    fn same_tree(&self, id: ObjectId, level: &[(&[u8], u32, ObjectId)]) -> bool {
        let Ok(data) = self.objects.read_kind(&id, gix::object::Kind::Tree) else {
            return false;
        };
        let mut found: Vec<(&[u8], u32, ObjectId)> = Vec::with_capacity(level.len());
        for entry in gix::objs::TreeRefIter::from_bytes(&data, self.hash) {
            let Ok(entry) = entry else {
                return false;
            };
            found.push((
                entry.filename.as_ref(),
                canonical(u32::from(entry.mode.value())),
                entry.oid.to_owned(),
            ));
        }
        // In git's order, as the tree's own entries must be (an unsorted tree is damage).
        let mut expected = level.to_vec();
        expected.sort_by(tree_order);
        found == expected
    }
}

/// Whether git would take a valid cache-tree entry as it is that `trusted` does not vouch
/// for: the valid entries met from the root down, through invalid ones only.
fn has_untrusted_entry(root: Option<&gix::index::extension::Tree>, trusted: Trust<'_>) -> bool {
    let mut stack: Vec<(BString, &gix::index::extension::Tree)> = Vec::new();
    stack.extend(root.map(|root| (BString::default(), root)));
    while let Some((dir, tree)) = stack.pop() {
        if tree.num_entries.is_some() {
            if !trusted(dir.as_slice(), tree.id) {
                return true;
            }
            continue;
        }
        for child in &tree.children {
            let name: &[u8] = child.name.as_slice();
            stack.push((join(dir.as_bstr(), name), child));
        }
    }
    false
}

/// A directory of the index, for messages.
fn shown_dir(dir: &[u8]) -> String {
    if dir.is_empty() {
        "the root directory".to_owned()
    } else {
        format!("`{}`", dir.to_str_lossy())
    }
}

/// git's tree entry order: names compared bytewise, a tree's name as if followed by `/`.
fn tree_order(a: &(&[u8], u32, ObjectId), b: &(&[u8], u32, ObjectId)) -> Ordering {
    compare_entries(a.0, is_tree(a.1), b.0, is_tree(b.1))
}

/// Serialises and hashes one tree level (without writing it).
fn hash_tree(
    level: &[(&[u8], u32, ObjectId)],
    hash: gix::hash::Kind,
) -> Result<ObjectId, GitError> {
    let mut sorted = level.to_vec();
    sorted.sort_by(tree_order);
    let mut data = Vec::with_capacity(sorted.len() * 48);
    for (name, mode, id) in sorted {
        data.extend_from_slice(format!("{mode:o} ").as_bytes());
        data.extend_from_slice(name);
        data.push(0);
        data.extend_from_slice(id.as_bytes());
    }
    gix::objs::compute_hash(hash, gix::objs::Kind::Tree, &data)
        .map_err(|err| GitError::corrupt(&"(new tree)", message(&err)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(byte: u8) -> ObjectId {
        ObjectId::from_bytes_or_panic(&[byte; 20])
    }

    #[test]
    fn canonical_modes() {
        assert_eq!(canonical(0o100_664), 0o100_644);
        assert_eq!(canonical(0o100_775), 0o100_755);
        assert_eq!(canonical(0o120_000), 0o120_000);
        assert_eq!(canonical(0o160_000), 0o160_000);
    }

    #[test]
    fn tree_order_puts_directories_after_dotted_names() {
        let file = (&b"a.c"[..], 0o100_644, id(1));
        let dir = (&b"a"[..], MODE_TREE, id(2));
        let other = (&b"a0"[..], 0o100_644, id(3));
        let mut entries = [other, dir, file];
        entries.sort_by(tree_order);
        let names: Vec<&[u8]> = entries.iter().map(|e| e.0).collect();
        assert_eq!(names, [&b"a.c"[..], b"a", b"a0"]);
    }

    /// Writes a loose object file for `id` with `content` (header included), compressed.
    fn write_loose(dir: &std::path::Path, id: &ObjectId, content: &[u8]) -> std::path::PathBuf {
        use std::io::Write as _;
        let hex = id.to_hex().to_string();
        let path = dir.join(&hex[..2]).join(&hex[2..]);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut out =
            gix::zlib::stream::deflate::Write::new(Vec::new(), gix::zlib::Compression::default());
        out.write_all(content).unwrap();
        out.flush().unwrap();
        std::fs::write(&path, out.into_inner()).unwrap();
        path
    }

    #[test]
    fn loose_blobs_are_read_or_left_to_gix() {
        let dir = tempfile::tempdir().unwrap();
        let loose = LooseBlobs::new(dir.path());
        let small = b"hello\n".to_vec();
        let large: Vec<u8> = (0..100_000u32).flat_map(u32::to_le_bytes).collect();
        for (byte, data) in [(1, small), (2, large), (3, Vec::new())] {
            let mut content = format!("blob {}\0", data.len()).into_bytes();
            content.extend_from_slice(&data);
            write_loose(dir.path(), &id(byte), &content);
            assert_eq!(loose.read(&id(byte)), Some(data), "blob {byte}");
        }
        // Anything else is left to gix: missing, not a blob, damaged, sizes that lie.
        assert_eq!(loose.read(&id(9)), None);
        write_loose(dir.path(), &id(10), b"tree 0\0");
        assert_eq!(loose.read(&id(10)), None);
        let path = write_loose(dir.path(), &id(11), b"blob 5\0hello");
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..6]).unwrap();
        assert_eq!(loose.read(&id(11)), None);
        write_loose(dir.path(), &id(12), b"blob 9\0hello");
        assert_eq!(loose.read(&id(12)), None);
        write_loose(dir.path(), &id(13), b"blob 3\0hello");
        assert_eq!(loose.read(&id(13)), None);
        write_loose(dir.path(), &id(14), b"blob 99999999999\0hello");
        assert_eq!(loose.read(&id(14)), None);
        let garbage = write_loose(dir.path(), &id(15), b"");
        std::fs::write(garbage, b"not zlib at all").unwrap();
        assert_eq!(loose.read(&id(15)), None);
    }

    #[test]
    fn empty_tree_hash_is_gits() {
        let empty = hash_tree(&[], gix::hash::Kind::Sha1).unwrap();
        assert_eq!(
            empty.to_string(),
            "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
        );
    }
}
