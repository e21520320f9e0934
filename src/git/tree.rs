//! Reading trees and the index into per-path changes, and hashing the index into a tree.
//!
//! Walks are iterative (a hostile tree cannot overflow the stack) and skip what is known to be
//! equal: subtrees with the same id, and directories whose cache-tree entry in the index is
//! valid and equal to HEAD's subtree (what `git commit` itself relies on).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice, ByteVec};
use gix::index::entry::{Flags, Mode, Stage};

use super::error::{GitError, message};

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

/// Object access with errors mapped to [`GitError`].
pub(crate) struct Objects<'r> {
    repo: &'r gix::Repository,
    /// Trees read by path lookups ([`Self::entry_at`]), which revisit the same directories.
    lookups: RefCell<HashMap<ObjectId, Rc<Vec<TreeEntry>>>>,
}

impl<'r> Objects<'r> {
    pub(crate) fn new(repo: &'r gix::Repository) -> Self {
        Self {
            repo,
            lookups: RefCell::default(),
        }
    }

    /// The kind and content of an object.
    pub(crate) fn read(&self, id: &ObjectId) -> Result<(gix::object::Kind, Vec<u8>), GitError> {
        match self.repo.try_find_object(*id) {
            Ok(Some(object)) => {
                let object = object.detach();
                Ok((object.kind, object.data))
            }
            Ok(None) => Err(GitError::MissingObject { id: id.to_string() }),
            Err(err) => Err(GitError::CorruptObject {
                id: id.to_string(),
                message: message(&err),
            }),
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
        self.read_kind(id, gix::object::Kind::Blob)
    }

    /// A commit's tree and parents.
    pub(crate) fn commit(&self, id: &ObjectId) -> Result<(ObjectId, Vec<ObjectId>), GitError> {
        let data = self.read_kind(id, gix::object::Kind::Commit)?;
        let commit =
            gix::objs::CommitRef::from_bytes(&data, self.repo.object_hash()).map_err(|err| {
                GitError::CorruptObject {
                    id: id.to_string(),
                    message: message(&err),
                }
            })?;
        let tree = commit.tree();
        let parents = commit.parents().collect();
        Ok((tree, parents))
    }

    fn tree(&self, id: &ObjectId) -> Result<Vec<TreeEntry>, GitError> {
        let data = self.read_kind(id, gix::object::Kind::Tree)?;
        let mut entries = Vec::new();
        for entry in gix::objs::TreeRefIter::from_bytes(&data, self.repo.object_hash()) {
            let entry = entry.map_err(|err| GitError::CorruptObject {
                id: id.to_string(),
                message: message(&err),
            })?;
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

    /// An index holding only the `.gitattributes` files of `tree` in the directories of
    /// `paths` and their ancestors: all that attribute lookups for those paths read, without
    /// loading the whole tree.
    pub(crate) fn attributes_index<'p>(
        &self,
        tree: ObjectId,
        paths: impl Iterator<Item = &'p BStr>,
    ) -> Result<gix::index::State, GitError> {
        let mut dirs = std::collections::BTreeSet::new();
        dirs.insert(BString::default());
        for path in paths {
            for (position, byte) in path.iter().enumerate() {
                if *byte == b'/' {
                    dirs.insert(BString::from(&path[..position]));
                }
            }
        }
        let mut index = gix::index::State::new(self.repo.object_hash());
        for dir in dirs {
            let file = join(dir.as_bstr(), b".gitattributes");
            if let Some(item) = self.entry_at(tree, file.as_bstr())?
                && is_regular(item.mode)
            {
                index.dangerously_push_entry(
                    gix::index::entry::Stat::default(),
                    item.id,
                    Flags::empty(),
                    Mode::FILE,
                    file.as_bstr(),
                );
            }
        }
        index.sort_entries();
        Ok(index)
    }

    /// The per-path changes from tree `old` to tree `new` (`None`: the empty tree), skipping
    /// subtrees with equal ids. Sorted by path.
    pub(crate) fn diff_trees(
        &self,
        old: Option<ObjectId>,
        new: Option<ObjectId>,
    ) -> Result<Vec<RawChange>, GitError> {
        let mut changes = Vec::new();
        let mut stack = vec![(BString::default(), old, new)];
        while let Some((prefix, old, new)) = stack.pop() {
            if old == new {
                continue;
            }
            check_depth(prefix.as_bstr())?;
            let mut names: BTreeMap<BString, (Side, Side)> = BTreeMap::new();
            if let Some(old) = old {
                for entry in self.tree(&old)? {
                    names.entry(entry.name).or_default().0 = Some((entry.mode, entry.id));
                }
            }
            if let Some(new) = new {
                for entry in self.tree(&new)? {
                    names.entry(entry.name).or_default().1 = Some((entry.mode, entry.id));
                }
            }
            for (name, (old, new)) in names {
                let path = join(prefix.as_bstr(), &name);
                let subtree =
                    |side: Side| side.filter(|(mode, _)| is_tree(*mode)).map(|(_, id)| id);
                let blob = |side: Side| {
                    side.filter(|(mode, _)| !is_tree(*mode))
                        .map(|(mode, id)| Item { mode, id })
                };
                let (old_tree, new_tree) = (subtree(old), subtree(new));
                if (old_tree.is_some() || new_tree.is_some()) && old_tree != new_tree {
                    stack.push((path.clone(), old_tree, new_tree));
                }
                let (old_blob, new_blob) = (blob(old), blob(new));
                if old_blob != new_blob {
                    changes.push(RawChange {
                        path,
                        old: old_blob,
                        new: new_blob,
                    });
                }
            }
        }
        changes.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(changes)
    }

    /// The per-path changes from tree `old` (`None`: the empty tree) to the index, skipping
    /// directories whose valid cache-tree entry equals the tree's. Sorted by path.
    pub(crate) fn diff_tree_index(
        &self,
        old: Option<ObjectId>,
        index: &gix::index::State,
    ) -> Result<Vec<RawChange>, GitError> {
        let mut old_entries = Vec::new();
        let mut pruned: Vec<BString> = Vec::new();
        if let Some(old) = old {
            let mut stack = vec![(BString::default(), old, index.tree())];
            while let Some((prefix, tree, cache)) = stack.pop() {
                if cache.is_some_and(|cache| cache.num_entries.is_some() && cache.id == tree) {
                    pruned.push(prefix);
                    continue;
                }
                check_depth(prefix.as_bstr())?;
                for entry in self.tree(&tree)? {
                    let path = join(prefix.as_bstr(), &entry.name);
                    if is_tree(entry.mode) {
                        let child = cache.and_then(|cache| {
                            cache
                                .children
                                .iter()
                                .find(|child| child.name.as_slice() == entry.name.as_slice())
                        });
                        stack.push((path, entry.id, child));
                    } else {
                        old_entries.push((
                            path,
                            Item {
                                mode: entry.mode,
                                id: entry.id,
                            },
                        ));
                    }
                }
            }
        }
        let new_entries = self.index_entries(index, &pruned)?;
        old_entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(merge(old_entries, new_entries))
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

    /// The id of the tree `git write-tree` would write from `index`, computed in memory;
    /// valid cache-tree entries are used as they are.
    pub(crate) fn index_tree_id(&self, index: &gix::index::State) -> Result<ObjectId, GitError> {
        let mut entries: Vec<(BString, u32, ObjectId)> = Vec::with_capacity(index.entries().len());
        for entry in index.entries() {
            if entry.stage() != Stage::Unconflicted || entry.flags.contains(Flags::INTENT_TO_ADD) {
                continue;
            }
            let path = entry.path(index);
            if entry.mode.is_sparse() || entry.mode == Mode::DIR {
                let path = path.strip_suffix(b"/").unwrap_or(path);
                entries.push((path.into(), MODE_TREE, entry.id));
            } else {
                entries.push((path.to_owned(), canonical(entry.mode.bits()), entry.id));
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let hash = self.repo.object_hash();
        match build_tree(&entries, 0, index.tree(), hash, 0)? {
            Some(id) => Ok(id),
            None => hash_tree(&[], hash),
        }
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

/// Merges two sorted listings into the paths that differ.
fn merge(old: Vec<(BString, Item)>, new: Vec<(BString, Item)>) -> Vec<RawChange> {
    let mut changes = Vec::new();
    let mut old = old.into_iter().peekable();
    let mut new = new.into_iter().peekable();
    loop {
        let order = match (old.peek(), new.peek()) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some((a, _)), Some((b, _))) => a.cmp(b),
        };
        match order {
            std::cmp::Ordering::Less => {
                if let Some((path, item)) = old.next() {
                    changes.push(RawChange {
                        path,
                        old: Some(item),
                        new: None,
                    });
                }
            }
            std::cmp::Ordering::Greater => {
                if let Some((path, item)) = new.next() {
                    changes.push(RawChange {
                        path,
                        old: None,
                        new: Some(item),
                    });
                }
            }
            std::cmp::Ordering::Equal => {
                if let (Some((path, a)), Some((_, b))) = (old.next(), new.next())
                    && a != b
                {
                    changes.push(RawChange {
                        path,
                        old: Some(a),
                        new: Some(b),
                    });
                }
            }
        }
    }
    changes
}

/// Builds the tree for `entries` (sorted, all below the directory whose path ends at byte
/// `offset`), hashing each level; `None` when nothing is in it.
fn build_tree(
    entries: &[(BString, u32, ObjectId)],
    offset: usize,
    cache: Option<&gix::index::extension::Tree>,
    hash: gix::hash::Kind,
    depth: usize,
) -> Result<Option<ObjectId>, GitError> {
    if let Some(cache) = cache
        && cache.num_entries.is_some()
    {
        return Ok(Some(cache.id));
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
                let dir = &rest[..slash];
                let end = start
                    + entries[start..]
                        .iter()
                        .take_while(|(other, _, _)| {
                            let other = &other[offset..];
                            other.len() > slash && other[slash] == b'/' && &other[..slash] == dir
                        })
                        .count();
                let child = cache.and_then(|cache| {
                    cache
                        .children
                        .iter()
                        .find(|child| child.name.as_slice() == dir)
                });
                if let Some(id) = build_tree(
                    &entries[start..end],
                    offset + slash + 1,
                    child,
                    hash,
                    depth + 1,
                )? {
                    level.push((dir, MODE_TREE, id));
                }
                start = end;
            }
        }
    }
    if level.is_empty() {
        return Ok(None);
    }
    hash_tree(&level, hash).map(Some)
}

/// git's tree entry order: names compared bytewise, a tree's name as if followed by `/`.
fn tree_order(a: &(&[u8], u32, ObjectId), b: &(&[u8], u32, ObjectId)) -> std::cmp::Ordering {
    let common = a.0.len().min(b.0.len());
    a.0[..common].cmp(&b.0[..common]).then_with(|| {
        let next = |entry: &(&[u8], u32, ObjectId)| {
            entry
                .0
                .get(common)
                .copied()
                .unwrap_or(if is_tree(entry.1) { b'/' } else { 0 })
        };
        next(a).cmp(&next(b))
    })
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
    gix::objs::compute_hash(hash, gix::objs::Kind::Tree, &data).map_err(|err| {
        GitError::CorruptObject {
            id: "(new tree)".to_owned(),
            message: message(&err),
        }
    })
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

    #[test]
    fn empty_tree_hash_is_gits() {
        let empty = hash_tree(&[], gix::hash::Kind::Sha1).unwrap();
        assert_eq!(
            empty.to_string(),
            "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
        );
    }

    #[test]
    fn merge_reports_differences_only() {
        let item = |byte| Item {
            mode: 0o100_644,
            id: id(byte),
        };
        let old = vec![
            ("a".into(), item(1)),
            ("b".into(), item(2)),
            ("c".into(), item(3)),
        ];
        let new = vec![
            ("b".into(), item(2)),
            ("c".into(), item(4)),
            ("d".into(), item(5)),
        ];
        let paths: Vec<(String, bool, bool)> = merge(old, new)
            .into_iter()
            .map(|c| (c.path.to_string(), c.old.is_some(), c.new.is_some()))
            .collect();
        assert_eq!(
            paths,
            [
                ("a".to_owned(), true, false),
                ("c".to_owned(), true, true),
                ("d".to_owned(), false, true)
            ]
        );
    }
}
