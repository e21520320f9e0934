//! Reading a repository's component graph: the manifests of one snapshot (the index for
//! the staged change, a commit for a range), discovered from the roots that
//! `[impact] discover` names, merged with the policy's `[[component]]` entries.
//!
//! `cargo metadata` is asked only when it reads the same manifests as the snapshot: the
//! work tree's `Cargo.toml` files below the workspace root must be byte for byte the
//! snapshot's, and every package it reports must be in the snapshot. Otherwise (cargo not
//! installed, a manifest edited after `git add`, a commit other than the checkout, an
//! untracked crate, cargo failing) the manifests are read directly; both readers follow
//! Cargo's rules and give the same graph. The commit gate never runs cargo: a decision must
//! not depend on whether cargo is installed where the hook runs.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

use super::discover::{self, Files, MANIFEST_NAMES, MARKER_NAMES, Workspace};
use super::graph::{self, ComponentGraph};
use super::paths;
use crate::git::{ChangeOptions, GitError, Repository, Snapshot};
use crate::policy::{Discover, Policy};

/// What building the graph may do.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphOptions {
    /// The cargo binary to run `cargo metadata` with (when it can vouch for the snapshot's
    /// manifests); `None` never runs cargo.
    pub cargo: Option<OsString>,
}

/// What to fetch to deepen a shallow clone.
const FETCH_HINT: &str =
    "fetch the whole history (`git fetch --unshallow`, or `fetch-depth: 0` with actions/checkout)";

/// Why a blast radius cannot be computed. Unreadable manifests are not errors: they are
/// problems in the graph, and make everything affected.
#[derive(Debug, thiserror::Error)]
pub enum ImpactError {
    /// The repository could not be read.
    #[error(transparent)]
    Git(#[from] GitError),
    /// The base revision does not resolve to a commit.
    #[error("`{base}` is not a commit of this repository{}", shallow_hint(*.shallow))]
    UnknownBase {
        /// The revision as given.
        base: String,
        /// Whether the repository is a shallow clone (the commit may not be fetched).
        shallow: bool,
        /// Why it does not resolve.
        #[source]
        source: GitError,
    },
    /// HEAD has no commit to compare a base with.
    #[error("a base revision is compared with HEAD, and HEAD has no commit yet")]
    UnbornHead(#[source] GitError),
    /// The base and HEAD share no history that the repository holds.
    #[error("`{base}` and HEAD share no history in this shallow clone; {FETCH_HINT}")]
    ShallowHistory {
        /// The revision as given.
        base: String,
    },
    /// The base and HEAD have no common ancestor.
    #[error(
        "`{base}` and HEAD have no common ancestor, so there is no change to analyse; name a revision of the same history"
    )]
    UnrelatedHistories {
        /// The revision as given.
        base: String,
    },
}

fn shallow_hint(shallow: bool) -> String {
    if shallow {
        format!(" (this is a shallow clone: {FETCH_HINT})")
    } else {
        String::new()
    }
}

/// Which change to analyse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeSource {
    /// The staged change; the graph is read from the index.
    Staged,
    /// `merge-base(base, HEAD)..HEAD`; the graph is read from HEAD.
    Base(String),
    /// These repository-relative files; the graph is read from the index.
    Files(Vec<String>),
}

/// A change's component graph and blast radius.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The component graph.
    pub graph: ComponentGraph,
    /// The blast radius.
    pub radius: super::BlastRadius,
}

/// The blast radius of the change `source` names, with `policy`'s components and
/// `[impact]`. A base that does not resolve, or shares no history with HEAD, is an error:
/// an empty answer would claim that nothing is affected.
pub fn analyze_change(
    repo: &Repository,
    policy: &Policy,
    source: &ChangeSource,
    options: &GraphOptions,
) -> Result<Analysis, ImpactError> {
    let (files, snapshot) = match source {
        ChangeSource::Staged => (
            repo.staged_change(&ChangeOptions::default())?
                .modified_paths(),
            Snapshot::Index,
        ),
        ChangeSource::Files(files) => (files.clone(), Snapshot::Index),
        ChangeSource::Base(base) => range_files(repo, base)?,
    };
    let graph = component_graph(repo, &snapshot, policy, options)?;
    let radius = super::analyze(&graph, policy, &files);
    Ok(Analysis { graph, radius })
}

/// The files that `merge-base(base, HEAD)..HEAD` changes, and HEAD to read the graph from.
fn range_files(repo: &Repository, base: &str) -> Result<(Vec<String>, Snapshot), ImpactError> {
    let shallow = repo.is_shallow();
    let head = repo.commit_info("HEAD").map_err(ImpactError::UnbornHead)?;
    let base_commit = repo
        .commit_info(base)
        .map_err(|source| ImpactError::UnknownBase {
            base: base.to_owned(),
            shallow,
            source,
        })?;
    let merge_base = match repo.merge_base(&base_commit.id, &head.id) {
        Ok(Some(merge_base)) => merge_base,
        // In a shallow clone the walk stops at (or fails on) the missing history.
        Ok(None) | Err(_) if shallow => {
            return Err(ImpactError::ShallowHistory {
                base: base.to_owned(),
            });
        }
        Ok(None) => {
            return Err(ImpactError::UnrelatedHistories {
                base: base.to_owned(),
            });
        }
        Err(err) => return Err(err.into()),
    };
    let change = repo.range_change(&merge_base, &head.id, &ChangeOptions::default())?;
    Ok((change.modified_paths(), Snapshot::Commit(head.id)))
}

/// The component graph of `snapshot`: discovered workspaces and `policy`'s components.
pub fn component_graph(
    repo: &Repository,
    snapshot: &Snapshot,
    policy: &Policy,
    options: &GraphOptions,
) -> Result<ComponentGraph, ImpactError> {
    let roots = match &policy.impact.discover {
        Discover::Off => return Ok(graph::build(&policy.components, &[], Vec::new())),
        Discover::Roots(roots) => roots,
    };
    let names: Vec<&str> = MANIFEST_NAMES.iter().chain(MARKER_NAMES).copied().collect();
    let mut files = Files::default();
    for entry in repo.files_named(snapshot, &names)? {
        let wanted = roots
            .iter()
            .any(|root| paths::below(&entry.path, root).is_some())
            && !entry.path.split('/').any(|part| part == "node_modules");
        if !wanted {
            continue;
        }
        let name = entry.path.rsplit('/').next().unwrap_or_default();
        if MARKER_NAMES.contains(&name) {
            files.markers.insert(entry.path);
        } else {
            let data = repo.blob(&entry.id)?;
            files.manifests.insert(entry.path, data);
        }
    }
    let mut problems = Vec::new();
    let mut workspaces = Vec::new();
    for root in roots {
        let cargo = match (&options.cargo, repo.work_dir()) {
            (Some(cargo), Some(work_dir)) => cargo_metadata(cargo, work_dir, &files, root),
            _ => None,
        };
        workspaces.extend(discover::discover_root(&files, root, cargo, &mut problems));
    }
    Ok(graph::build(&policy.components, &workspaces, problems))
}

/// The number of components that `files` affect in the graph of `snapshot` (the
/// `impacted_components` policy argument), without running cargo.
pub fn impacted_components(
    repo: &Repository,
    snapshot: &Snapshot,
    policy: &Policy,
    files: &[String],
) -> Result<u64, ImpactError> {
    let graph = component_graph(repo, snapshot, policy, &GraphOptions::default())?;
    let radius = super::analyze(&graph, policy, files);
    Ok(u64::try_from(radius.impacted()).unwrap_or(u64::MAX))
}

/// The Cargo workspace at `root` according to `cargo metadata`, when cargo is installed,
/// succeeds, and reads exactly the snapshot's manifests.
fn cargo_metadata(
    cargo: &OsString,
    work_dir: &Path,
    files: &Files,
    root: &str,
) -> Option<Workspace> {
    const MANIFEST: &str = "Cargo.toml";
    let manifest = paths::file(root, MANIFEST);
    if !files.manifests.contains_key(&manifest) {
        return None;
    }
    let work_dir = work_dir.canonicalize().ok()?;
    for (path, data) in &files.manifests {
        let is_cargo = path == MANIFEST || path.ends_with("/Cargo.toml");
        if is_cargo && paths::below(path, root).is_some() {
            let on_disk = std::fs::read(work_dir.join(path)).ok()?;
            if on_disk != *data {
                return None;
            }
        }
    }
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .arg("--manifest-path")
        .arg(work_dir.join(&manifest))
        .current_dir(&work_dir)
        // A `rust-toolchain.toml` must not make rustup download a toolchain.
        .env("RUSTUP_AUTO_INSTALL", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let workspace = discover::cargo::from_metadata(&output.stdout, &work_dir, root).ok()?;
    let tracked = workspace.packages.iter().all(|package| {
        files
            .manifests
            .contains_key(&paths::file(&package.root, MANIFEST))
    });
    tracked.then_some(workspace)
}
