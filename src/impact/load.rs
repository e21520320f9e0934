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

use std::path::Path;
use std::process::{Command, Stdio};

use super::discover::{self, Files, MANIFEST_NAMES, MARKER_NAMES, Workspace};
use super::graph::{self, ComponentGraph};
use super::paths;
use crate::git::{GitError, Repository, Snapshot};
use crate::policy::{Discover, Policy};

/// What building the graph may do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GraphOptions {
    /// Run `cargo metadata` (when it can vouch for the snapshot's manifests).
    pub cargo_metadata: bool,
}

/// Why the component graph could not be read (the repository, not the manifests: those
/// become problems in the graph).
pub type ImpactError = GitError;

/// The component graph of `snapshot`: discovered workspaces and `policy`'s components.
pub fn component_graph(
    repo: &Repository,
    snapshot: &Snapshot,
    policy: &Policy,
    options: GraphOptions,
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
        let cargo = if options.cargo_metadata {
            repo.work_dir()
                .and_then(|work_dir| cargo_metadata(work_dir, &files, root))
        } else {
            None
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
    let graph = component_graph(repo, snapshot, policy, GraphOptions::default())?;
    let radius = super::analyze(&graph, policy, files);
    Ok(u64::try_from(radius.impacted()).unwrap_or(u64::MAX))
}

/// The Cargo workspace at `root` according to `cargo metadata`, when cargo is installed,
/// succeeds, and reads exactly the snapshot's manifests.
fn cargo_metadata(work_dir: &Path, files: &Files, root: &str) -> Option<Workspace> {
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
    let output = Command::new("cargo")
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
