//! Workspace discovery: the packages that a repository's manifests declare, and the
//! directories each depends on, as pure functions of the manifests' text.
//!
//! Discovery starts from the workspace roots that `[impact] discover` names (the repository
//! root by default) and reads only the manifests there and in the member directories the
//! root's globs select; a manifest elsewhere (a test fixture's `Cargo.toml`, a vendored
//! `package.json`) is never a component by accident. What cannot be read is a *problem*:
//! the analysis then reports everything as affected, because a graph with a hole in it
//! cannot say what is safe.

pub mod cargo;
pub mod node;
pub mod uv;
mod yaml;

use std::collections::{BTreeMap, BTreeSet};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::Ecosystem;
use super::paths;

/// File names whose content discovery reads.
pub const MANIFEST_NAMES: &[&str] = &[
    "Cargo.toml",
    "package.json",
    "pnpm-workspace.yaml",
    "pyproject.toml",
];

/// File names whose presence (not content) discovery looks at.
pub const MARKER_NAMES: &[&str] = &["yarn.lock"];

/// The files of one snapshot that discovery looks at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Files {
    /// Manifests ([`MANIFEST_NAMES`]) by repository-relative path.
    pub manifests: BTreeMap<String, Vec<u8>>,
    /// Paths of the marker files ([`MARKER_NAMES`]).
    pub markers: BTreeSet<String>,
}

impl Files {
    /// The directories below `root` (not `root` itself) that hold a file named `name`,
    /// skipping anything inside `node_modules`.
    fn member_candidates<'a>(
        &'a self,
        root: &'a str,
        name: &'a str,
    ) -> impl Iterator<Item = &'a str> + 'a {
        self.manifests.keys().filter_map(move |path| {
            let dir = path.strip_suffix(name)?;
            let dir = if dir.is_empty() {
                ""
            } else {
                dir.strip_suffix('/')?
            };
            let relative = paths::below(dir, root)?;
            let inside_modules = relative.split('/').any(|part| part == "node_modules");
            (!relative.is_empty() && !inside_modules).then_some(dir)
        })
    }

    /// Files holding the manifests `entries` (path, text), for tests.
    #[cfg(test)]
    fn of_manifests(entries: &[(&str, &str)]) -> Self {
        let mut files = Self::default();
        for (path, text) in entries {
            files
                .manifests
                .insert((*path).to_owned(), text.as_bytes().to_vec());
        }
        files
    }

    fn text(&self, path: &str, problems: &mut Vec<String>) -> Option<&str> {
        let bytes = self.manifests.get(path)?;
        if let Ok(text) = std::str::from_utf8(bytes) {
            return Some(text);
        }
        problems.push(format!("`{path}` is not UTF-8 text"));
        None
    }
}

/// How a workspace was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Via {
    /// By reading its manifests.
    Manifests,
    /// From `cargo metadata`.
    CargoMetadata,
}

/// A package that discovery found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// Its name (`[package] name`, `name` in `package.json`, `[project] name`).
    pub name: String,
    /// Its directory, repository-relative (`""` for the root).
    pub root: String,
    /// The directories of the packages it depends on (any kind of dependency), sorted.
    pub dependencies: Vec<String>,
    /// The command that tests it, when the ecosystem offers one.
    pub test: Option<String>,
}

/// A workspace that discovery found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// Its ecosystem.
    pub ecosystem: Ecosystem,
    /// Its root directory.
    pub root: String,
    /// The workspace's own manifest files: a change to one affects every member.
    pub manifests: Vec<String>,
    /// Its packages, sorted by directory.
    pub packages: Vec<Package>,
    /// How it was read.
    pub via: Via,
}

/// Every workspace rooted in `root`, read from `files` (Cargo by reading its manifests; see
/// [`crate::impact::load`] for `cargo metadata`).
pub fn discover_root(
    files: &Files,
    root: &str,
    cargo: Option<Workspace>,
    problems: &mut Vec<String>,
) -> Vec<Workspace> {
    let mut workspaces = Vec::new();
    match cargo {
        Some(workspace) => workspaces.push(workspace),
        None => workspaces.extend(cargo::from_manifests(files, root, problems)),
    }
    workspaces.extend(node::discover(files, root, problems));
    workspaces.extend(uv::discover(files, root, problems));
    workspaces
}

/// Workspace member globs (`crates/*`, `packages/**`), matched against directories relative
/// to the workspace root: `*` never crosses `/`.
pub(crate) struct MemberGlobs {
    include: GlobSet,
    exclude: GlobSet,
}

impl MemberGlobs {
    /// Compiles `include` and `exclude` globs; `where_` names them in a problem.
    pub(crate) fn new(include: &[&str], exclude: &[&str], where_: &str) -> Result<Self, String> {
        Ok(Self {
            include: glob_set(include, where_)?,
            exclude: glob_set(exclude, where_)?,
        })
    }

    /// Whether the directory `relative` (to the workspace root) is a member.
    pub(crate) fn is_member(&self, relative: &str) -> bool {
        self.include.is_match(relative) && !self.exclude.is_match(relative)
    }
}

fn glob_set(patterns: &[&str], where_: &str) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let normal = normal_glob(pattern);
        let glob = GlobBuilder::new(&normal)
            .literal_separator(true)
            .build()
            .map_err(|err| format!("invalid pattern `{pattern}` in {where_}: {}", err.kind()))?;
        builder.add(glob);
    }
    builder
        .build()
        .map_err(|err| format!("invalid patterns in {where_}: {err}"))
}

/// A member glob without `./` in front or `/` behind.
fn normal_glob(pattern: &str) -> String {
    let mut text = pattern.trim();
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    text.trim_end_matches('/').to_owned()
}

/// Sorted, deduplicated directories, without the package's own.
fn finish_dependencies(own: &str, dependencies: BTreeSet<String>) -> Vec<String> {
    dependencies.into_iter().filter(|dir| dir != own).collect()
}

/// `text` quoted for `sh` when it holds anything but safe characters.
pub(crate) fn shell_word(text: &str) -> String {
    let safe = !text.is_empty()
        && text
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || "@%+=:,./_-".contains(ch));
    if safe {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// `command` run in `dir` (relative to the repository root).
pub(crate) fn in_dir(dir: &str, command: String) -> String {
    if dir.is_empty() {
        command
    } else {
        format!("cd {} && {command}", shell_word(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_globs_do_not_cross_slashes() {
        let globs = MemberGlobs::new(&["crates/*", "./tools/"], &["crates/skip"], "test").unwrap();
        assert!(globs.is_member("crates/core"));
        assert!(!globs.is_member("crates/core/nested"));
        assert!(globs.is_member("tools"));
        assert!(!globs.is_member("crates/skip"));
        let deep = MemberGlobs::new(&["packages/**"], &[], "test").unwrap();
        assert!(deep.is_member("packages/a/b"));
    }

    #[test]
    fn candidates_skip_node_modules_and_the_root() {
        let mut files = Files::default();
        for path in [
            "package.json",
            "packages/a/package.json",
            "packages/a/node_modules/x/package.json",
            "other/package.json",
        ] {
            files.manifests.insert(path.to_owned(), Vec::new());
        }
        let found: Vec<&str> = files.member_candidates("", "package.json").collect();
        assert_eq!(found, ["other", "packages/a"]);
        let found: Vec<&str> = files
            .member_candidates("packages", "package.json")
            .collect();
        assert_eq!(found, ["packages/a"]);
    }

    #[test]
    fn shell_words_are_quoted_when_needed() {
        assert_eq!(shell_word("@acme/web"), "@acme/web");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(
            in_dir("web app", "npm test".to_owned()),
            "cd 'web app' && npm test"
        );
    }
}
