//! References: what a name points at, and which names exist.
//!
//! git keeps references in one of two formats (`extensions.refStorage`): the `files` backend
//! (loose files and `packed-refs`), which gix reads, and `reftable` (git ≥ 2.45, git 3.0's
//! default), which gix cannot read yet. For a reftable repository every reference is read
//! through git's own plumbing (`git for-each-ref`, `git symbolic-ref`, `git rev-parse`), once
//! per process: astrix never writes references, so what it read stays what git has until
//! the command (or hook) ends.
//!
//! `HEAD` can hold the placeholder `ref: refs/heads/.invalid`: `git clone` writes it while it
//! creates the branches, and a reftable repository keeps it for good beside the real `HEAD`
//! in the table (so that older git sees a repository). In the files backend it reads as
//! "no branch yet" ([`HeadRef::Unset`]); in a reftable repository the file is never read.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use gix::ObjectId;
use gix::bstr::ByteSlice;

use super::{GitError, Repository, message};

/// The symbolic target `git clone` leaves in `HEAD` until it has set the real one, and that
/// reftable repositories keep in the `HEAD` file.
pub(crate) const PLACEHOLDER_HEAD: &str = "refs/heads/.invalid";

/// What one reference holds, without following it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RefValue {
    /// An object id.
    Object(ObjectId),
    /// Another reference, by its full name.
    Symbolic(String),
}

/// What `HEAD` holds, without following it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HeadRef {
    /// A branch (or any reference) by its full name; it may not exist yet (unborn).
    Symbolic(String),
    /// A commit.
    Detached(ObjectId),
    /// No branch yet: the placeholder of a clone in progress.
    Unset,
}

/// How the references of a repository are read.
#[derive(Debug)]
pub(crate) enum RefStore {
    /// gix reads them (the files backend).
    Gix,
    /// git's plumbing reads them (reftable), once.
    Git(GitRefs),
}

/// The references of a reftable repository, read with git on first use.
#[derive(Debug)]
pub(crate) struct GitRefs {
    /// The repository's (worktree's) git directory, given to git as `--git-dir`.
    git_dir: PathBuf,
    /// The environment git runs with: the one astrix was given.
    env: Vec<(String, OsString)>,
    snapshot: OnceCell<Snapshot>,
}

/// Every reference of a reftable repository, and `HEAD`.
#[derive(Debug)]
struct Snapshot {
    head: HeadRef,
    refs: BTreeMap<String, RefValue>,
}

impl RefStore {
    /// The store for a repository whose `extensions.refStorage` is `storage` (absent: files).
    pub(crate) fn new(
        storage: Option<&str>,
        git_dir: PathBuf,
        env: Vec<(String, OsString)>,
    ) -> Result<Self, GitError> {
        match storage.map(str::to_ascii_lowercase).as_deref() {
            None | Some("files") => Ok(Self::Gix),
            Some("reftable") => Ok(Self::Git(GitRefs {
                git_dir,
                env,
                snapshot: OnceCell::new(),
            })),
            Some(other) => Err(GitError::Config {
                message: format!(
                    "`extensions.refStorage` is `{other}`, a reference format astrix cannot read (it reads `files` and `reftable`); upgrade astrix"
                ),
            }),
        }
    }
}

impl GitRefs {
    /// Runs `git --git-dir=<dir> <args>`; `Ok(None)` when git exits with status 1 (what the
    /// plumbing used here says for "no such reference" or "not symbolic").
    fn run(&self, args: &[&str]) -> Result<Option<Vec<u8>>, GitError> {
        let shown = || format!("git {}", args.join(" "));
        let output = Command::new("git")
            .arg("--git-dir")
            .arg(&self.git_dir)
            .args(args)
            .env_clear()
            .envs(self.env.iter().map(|(key, value)| (key, value)))
            .stdin(Stdio::null())
            .output()
            .map_err(|error| GitError::GitCommand {
                command: shown(),
                message: format!("it cannot be started: {error}"),
            })?;
        match output.status.code() {
            Some(0) => Ok(Some(output.stdout)),
            Some(1) => Ok(None),
            _ => Err(GitError::GitCommand {
                command: shown(),
                message: String::from_utf8_lossy(&output.stderr)
                    .trim()
                    .replace('\n', " "),
            }),
        }
    }

    fn snapshot(&self) -> Result<&Snapshot, GitError> {
        if let Some(snapshot) = self.snapshot.get() {
            return Ok(snapshot);
        }
        let snapshot = self.read()?;
        Ok(self.snapshot.get_or_init(|| snapshot))
    }

    fn read(&self) -> Result<Snapshot, GitError> {
        let listing = self
            .run(&[
                "for-each-ref",
                "--format=%(refname)%00%(symref)%00%(objectname)",
            ])?
            .unwrap_or_default();
        let mut refs = BTreeMap::new();
        for line in listing.lines() {
            let mut fields = line.splitn(3, |byte| *byte == 0);
            let (Some(name), Some(symref), Some(id)) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err(Self::malformed(line));
            };
            let name = name.to_str_lossy().into_owned();
            let value = if symref.is_empty() {
                RefValue::Object(ObjectId::from_hex(id).map_err(|_| Self::malformed(line))?)
            } else {
                RefValue::Symbolic(symref.to_str_lossy().into_owned())
            };
            refs.insert(name, value);
        }
        let head = match self.run(&["symbolic-ref", "--quiet", "--no-recurse", "HEAD"])? {
            Some(target) => HeadRef::Symbolic(target.trim().to_str_lossy().into_owned()),
            None => match self.run(&["rev-parse", "--quiet", "--verify", "HEAD"])? {
                Some(id) => HeadRef::Detached(
                    ObjectId::from_hex(id.trim()).map_err(|_| Self::malformed(&id))?,
                ),
                None => HeadRef::Unset,
            },
        };
        let head = match head {
            HeadRef::Symbolic(target) if target == PLACEHOLDER_HEAD => HeadRef::Unset,
            other => other,
        };
        Ok(Snapshot { head, refs })
    }

    fn malformed(line: &[u8]) -> GitError {
        GitError::GitCommand {
            command: "git for-each-ref".to_owned(),
            message: format!(
                "it printed `{}`, which is not a reference",
                line.to_str_lossy()
            ),
        }
    }

    /// The commit a revision expression names (`HEAD~2`, `main@{1}`, a tag), `None` when it
    /// names none.
    fn rev_parse(&self, rev: &str) -> Result<Option<ObjectId>, GitError> {
        let spec = format!("{rev}^{{commit}}");
        let Some(out) = self.run(&[
            "rev-parse",
            "--quiet",
            "--verify",
            "--end-of-options",
            &spec,
        ])?
        else {
            return Ok(None);
        };
        ObjectId::from_hex(out.trim())
            .map(Some)
            .map_err(|_| Self::malformed(&out))
    }
}

impl Repository {
    /// What `HEAD` holds.
    pub(crate) fn head_ref(&self) -> Result<HeadRef, GitError> {
        match &self.refs {
            RefStore::Git(refs) => Ok(refs.snapshot()?.head.clone()),
            RefStore::Gix => {
                let head = match self.repo.find_reference("HEAD") {
                    Ok(head) => head,
                    Err(err) => {
                        // gix refuses the placeholder's name (a component starting with `.`).
                        if self.head_file_is_placeholder() {
                            return Ok(HeadRef::Unset);
                        }
                        return Err(reference_error("HEAD", &err));
                    }
                };
                Ok(match head.target() {
                    gix::refs::TargetRef::Object(id) => HeadRef::Detached(id.to_owned()),
                    gix::refs::TargetRef::Symbolic(name) => {
                        let name = name.as_bstr().to_str_lossy().into_owned();
                        if name == PLACEHOLDER_HEAD {
                            HeadRef::Unset
                        } else {
                            HeadRef::Symbolic(name)
                        }
                    }
                })
            }
        }
    }

    fn head_file_is_placeholder(&self) -> bool {
        std::fs::read(self.git_dir().join("HEAD"))
            .is_ok_and(|bytes| bytes.trim() == format!("ref: {PLACEHOLDER_HEAD}").as_bytes())
    }

    /// What the reference `name` (a full name: `refs/heads/main`) holds, without following
    /// it; `None` when it does not exist.
    pub(crate) fn read_ref(&self, name: &str) -> Result<Option<RefValue>, GitError> {
        if name == "HEAD" {
            return Ok(match self.head_ref()? {
                HeadRef::Symbolic(target) => Some(RefValue::Symbolic(target)),
                HeadRef::Detached(id) => Some(RefValue::Object(id)),
                HeadRef::Unset => None,
            });
        }
        match &self.refs {
            RefStore::Git(refs) => Ok(refs.snapshot()?.refs.get(name).cloned()),
            RefStore::Gix => {
                let found = self
                    .repo
                    .try_find_reference(name)
                    .map_err(|err| reference_error(name, &err))?;
                // gix also tries the name under `refs/`, `refs/heads/` and so on: only the
                // reference of exactly this name is it.
                Ok(found
                    .filter(|reference| reference.name().as_bstr() == name.as_bytes())
                    .map(|reference| match reference.target() {
                        gix::refs::TargetRef::Object(id) => RefValue::Object(id.to_owned()),
                        gix::refs::TargetRef::Symbolic(target) => {
                            RefValue::Symbolic(target.as_bstr().to_str_lossy().into_owned())
                        }
                    }))
            }
        }
    }

    /// Whether deleting `name` (which points at `id`) only removes its loose copy, as `git
    /// pack-refs` (and `git gc`) does once the reference is in `packed-refs`: the packed copy
    /// names the same object and `packed-refs` is not locked (a deletion that removes the
    /// packed copy too locks it to rewrite it). Never in a reftable repository.
    pub(crate) fn is_loose_copy_of_packed(&self, name: &str, id: &str) -> Result<bool, GitError> {
        if !matches!(self.refs, RefStore::Gix) {
            return Ok(false);
        }
        if self.repo.common_dir().join("packed-refs.lock").exists() {
            return Ok(false);
        }
        let packed = self
            .repo
            .refs
            .cached_packed_buffer()
            .map_err(|err| reference_error(name, &err))?;
        let Some(packed) = packed else {
            return Ok(false);
        };
        let found = packed
            .try_find(name)
            .map_err(|err| reference_error(name, &err))?;
        Ok(found.is_some_and(|reference| {
            reference.name.as_bstr() == name.as_bytes()
                && ObjectId::from_hex(id.as_bytes()).is_ok_and(|id| reference.target() == id)
        }))
    }

    /// Whether `name` leads to an object only through references under `prefix`: an
    /// ordinary reference, or a chain of symbolic ones each naming a reference under
    /// `prefix` (git follows at most five). A dangling or looping chain leads nowhere.
    pub(crate) fn resolves_within(&self, name: &str, prefix: &str) -> Result<bool, GitError> {
        let mut current = name.to_owned();
        for _ in 0..=5 {
            match self.read_ref(&current)? {
                Some(RefValue::Object(_)) => return Ok(true),
                Some(RefValue::Symbolic(target)) if target.starts_with(prefix) => current = target,
                None | Some(RefValue::Symbolic(_)) => return Ok(false),
            }
        }
        Ok(false)
    }

    /// The object the reference `name` finally points at (symbolic references followed, an
    /// annotated tag peeled); `None` when it does not exist or leads nowhere.
    pub(crate) fn peel_ref(&self, name: &str) -> Result<Option<ObjectId>, GitError> {
        let mut current = name.to_owned();
        // git follows at most five levels of symbolic references.
        for _ in 0..=5 {
            match self.read_ref(&current)? {
                None => return Ok(None),
                Some(RefValue::Symbolic(target)) => current = target,
                Some(RefValue::Object(id)) => return self.peel_object(id, name),
            }
        }
        Err(GitError::Reference {
            name: name.to_owned(),
            message: "it is a chain of more than five symbolic references".to_owned(),
        })
    }

    /// Peels annotated tags down to the object they finally name.
    fn peel_object(&self, mut id: ObjectId, name: &str) -> Result<Option<ObjectId>, GitError> {
        for _ in 0..64 {
            let object = match self.repo.try_find_object(id) {
                Ok(Some(object)) => object,
                Ok(None) => return Ok(None),
                Err(err) => return Err(reference_error(name, &err)),
            };
            if object.kind == gix::object::Kind::Commit {
                // Kept: a branch's tip is read again for what it holds. (One that does not
                // parse is reported where its content is asked for.)
                let _ =
                    self.blobs
                        .borrow_mut()
                        .keep_commit(&id, &object.data, self.repo.object_hash());
            }
            if object.kind != gix::object::Kind::Tag {
                return Ok(Some(id));
            }
            let tag = object
                .try_into_tag()
                .map_err(|err| reference_error(name, &err))?;
            id = tag
                .target_id()
                .map_err(|err| reference_error(name, &err))?
                .detach();
        }
        Err(GitError::Reference {
            name: name.to_owned(),
            message: "it is a tag of a tag more than 64 levels deep".to_owned(),
        })
    }

    /// Every reference whose full name starts with `prefix` (`refs/heads/`), sorted by name,
    /// with what it holds.
    pub(crate) fn list_refs(&self, prefix: &str) -> Result<Vec<(String, RefValue)>, GitError> {
        match &self.refs {
            RefStore::Git(refs) => Ok(refs
                .snapshot()?
                .refs
                .range(prefix.to_owned()..)
                .take_while(|(name, _)| name.starts_with(prefix))
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect()),
            RefStore::Gix => {
                let platform = self
                    .repo
                    .references()
                    .map_err(|err| reference_error(prefix, &err))?;
                let iter = if prefix.is_empty() {
                    platform.all()
                } else {
                    platform.prefixed(prefix.as_bytes().as_bstr())
                }
                .map_err(|err| reference_error(prefix, &err))?;
                let mut out = Vec::new();
                for reference in iter {
                    // As git does ("ignoring broken ref"): a reference that does not decode
                    // points at nothing and is no reference of the listing.
                    let Ok(reference) = reference else {
                        continue;
                    };
                    let name = reference.name().as_bstr().to_str_lossy().into_owned();
                    let value = match reference.target() {
                        gix::refs::TargetRef::Object(id) => RefValue::Object(id.to_owned()),
                        gix::refs::TargetRef::Symbolic(target) => {
                            RefValue::Symbolic(target.as_bstr().to_str_lossy().into_owned())
                        }
                    };
                    out.push((name, value));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(out)
            }
        }
    }

    /// Whether any reference under `refs/` points straight at the commit `id` (hex).
    pub fn is_ref_tip(&self, id: &str) -> Result<bool, GitError> {
        let Ok(id) = ObjectId::from_hex(id.as_bytes()) else {
            return Ok(false);
        };
        Ok(self
            .list_refs("refs/")?
            .iter()
            .any(|(_, value)| *value == RefValue::Object(id)))
    }

    /// The full names that `name` can mean, in git's order (`git rev-parse`'s rules: as it
    /// is, then under `refs/`, `refs/tags/`, `refs/heads/`, `refs/remotes/`, and a remote's
    /// `HEAD`), of those that exist. More than one means git calls the name ambiguous.
    pub fn expand_ref_name(&self, name: &str) -> Result<Vec<String>, GitError> {
        if name.is_empty() || name.starts_with('-') {
            return Ok(Vec::new());
        }
        let candidates = [
            name.to_owned(),
            format!("refs/{name}"),
            format!("refs/tags/{name}"),
            format!("refs/heads/{name}"),
            format!("refs/remotes/{name}"),
            format!("refs/remotes/{name}/HEAD"),
        ];
        let mut found = Vec::new();
        for candidate in candidates {
            // Names such as `main` are only references under `refs/` (or `HEAD` and the
            // pseudo-references, which are all upper case).
            let top_level = !candidate.starts_with("refs/");
            if top_level
                && !candidate
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b == b'_')
            {
                continue;
            }
            if gix::refs::FullName::try_from(candidate.as_str()).is_err() && candidate != "HEAD" {
                continue;
            }
            if self.read_ref(&candidate)?.is_some() && !found.contains(&candidate) {
                found.push(candidate);
            }
        }
        Ok(found)
    }

    /// The commit a revision names, through the reference store (`None`: it names none). A
    /// full object id is looked up directly.
    pub(crate) fn rev_parse_commit(&self, rev: &str) -> Result<Option<ObjectId>, GitError> {
        // A full object id names that object, as git reads it before any reference of the
        // same name (and without parsing it as a revision, which costs more than reading
        // the commit: `astrix ci` names every commit of a range so).
        if let Ok(id) = ObjectId::from_hex(rev.as_bytes()) {
            if self.blobs.borrow().knows_commit(&id) {
                return Ok(Some(id));
            }
            if self.repo.has_object(id) {
                return self.peel_to_commit(id, rev).map(Some);
            }
        }
        match &self.refs {
            RefStore::Git(refs) => refs.rev_parse(rev),
            RefStore::Gix => {
                let spec = format!("{rev}^{{commit}}");
                match self.repo.rev_parse_single(spec.as_str()) {
                    Ok(id) => Ok(Some(id.detach())),
                    // As for `git rev-parse --verify`, a name that does not resolve
                    // (unknown, out of range, not a commit, malformed) is no revision;
                    // damaged data is an error.
                    Err(err) if !err.is_corrupted() => Ok(None),
                    Err(err) => Err(GitError::Revision {
                        rev: rev.to_owned(),
                        message: message(&err),
                    }),
                }
            }
        }
    }

    /// `id` peeled (tags) to a commit.
    fn peel_to_commit(&self, id: ObjectId, rev: &str) -> Result<ObjectId, GitError> {
        let peeled = self.peel_object(id, rev)?.unwrap_or(id);
        // A commit that `peel_object` read is kept: its kind needs no second read. (One that
        // gix's parser refuses, which git accepts, is not kept, and is still a commit.)
        if self.blobs.borrow().knows_commit(&peeled) {
            return Ok(peeled);
        }
        let object = self
            .repo
            .find_header(peeled)
            .map_err(|err| GitError::Revision {
                rev: rev.to_owned(),
                message: message(&err),
            })?;
        if object.kind() == gix::object::Kind::Commit {
            Ok(peeled)
        } else {
            Err(GitError::Revision {
                rev: rev.to_owned(),
                message: format!("it names a {}, not a commit", object.kind()),
            })
        }
    }
}

pub(crate) fn reference_error(name: &str, err: &(dyn std::error::Error + 'static)) -> GitError {
    GitError::Reference {
        name: name.to_owned(),
        message: message(err),
    }
}
