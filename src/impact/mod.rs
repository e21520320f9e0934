//! Blast radius and impacted tests (SPEC §8): which components a change can break, why, and
//! which tests prove it did not.
//!
//! The work is split so that every decision is a pure function of data:
//!
//! - [`discover`] reads workspace manifests (Cargo, npm, yarn, pnpm, uv) from their text
//!   into packages and the directories they depend on;
//! - [`graph`] merges those packages with the policy's `[[component]]` entries into one
//!   [`ComponentGraph`];
//! - [`analysis`] maps changed files onto the graph and walks reverse dependencies into a
//!   [`BlastRadius`], and lists the impacted test commands.
//!
//! IO stays at the edges: [`load`] reads the manifests of a repository snapshot (and asks
//! `cargo metadata` when it can vouch for the same manifests), and [`run`] runs test
//! commands. Commands, the commit gate and the MCP server all call these same functions.

pub mod analysis;
pub mod discover;
pub mod graph;
pub mod load;
pub mod run;

use std::fmt;

use serde::Serialize;

pub use analysis::{
    Affected, BlastRadius, ImpactedTests, Reason, TestCommand, analyze, impacted_tests,
};
pub use graph::{Component, ComponentGraph};
pub use load::{
    Analysis, ChangeSource, GraphOptions, ImpactError, analyze_change, component_graph,
    impacted_components,
};

/// Where a component comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ecosystem {
    /// A `[[component]]` entry of the policy.
    Declared,
    /// A package of a Cargo workspace.
    Cargo,
    /// A package of an npm workspace.
    Npm,
    /// A package of a yarn workspace.
    Yarn,
    /// A package of a pnpm workspace.
    Pnpm,
    /// A member of a uv workspace.
    Uv,
}

impl Ecosystem {
    /// The name used in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Ecosystem::Declared => "declared",
            Ecosystem::Cargo => "cargo",
            Ecosystem::Npm => "npm",
            Ecosystem::Yarn => "yarn",
            Ecosystem::Pnpm => "pnpm",
            Ecosystem::Uv => "uv",
        }
    }
}

impl fmt::Display for Ecosystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The version of the JSON that `blast-radius` and `impacted-tests` print.
pub const SCHEMA_VERSION: u32 = 1;

/// `dir` for people: `.` for the repository root.
pub fn display_dir(dir: &str) -> &str {
    if dir.is_empty() { "." } else { dir }
}

/// Repository-relative path helpers: `""` is the root, separators are `/`.
pub(crate) mod paths {
    /// `base/relative`, with `.` and `..` resolved lexically; `None` when it leaves the
    /// repository or is absolute.
    pub(crate) fn join(base: &str, relative: &str) -> Option<String> {
        if relative.starts_with('/') || relative.contains('\\') {
            return None;
        }
        let mut parts: Vec<&str> = base.split('/').filter(|part| !part.is_empty()).collect();
        for part in relative.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                part => parts.push(part),
            }
        }
        Some(parts.join("/"))
    }

    /// `dir/name` (`name` at the root).
    pub(crate) fn file(dir: &str, name: &str) -> String {
        if dir.is_empty() {
            name.to_owned()
        } else {
            format!("{dir}/{name}")
        }
    }

    /// The directory that holds `path` (`""` at the root).
    pub(crate) fn parent(path: &str) -> &str {
        path.rsplit_once('/').map_or("", |(dir, _)| dir)
    }

    /// `path` relative to `dir` when it is `dir` itself or below it.
    pub(crate) fn below<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
        if dir.is_empty() {
            return Some(path);
        }
        let rest = path.strip_prefix(dir)?;
        if rest.is_empty() {
            Some("")
        } else {
            rest.strip_prefix('/')
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn joins_lexically_and_stays_inside() {
            assert_eq!(
                join("crates/cli", "../core").as_deref(),
                Some("crates/core")
            );
            assert_eq!(join("", "./a/b/").as_deref(), Some("a/b"));
            assert_eq!(join("a", "../..").as_deref(), None);
            assert_eq!(join("a", "/etc").as_deref(), None);
            assert_eq!(join("a", ".").as_deref(), Some("a"));
        }

        #[test]
        fn below_respects_directory_boundaries() {
            assert_eq!(
                below("crates/core/src/lib.rs", "crates/core"),
                Some("src/lib.rs")
            );
            assert_eq!(below("crates/core2/lib.rs", "crates/core"), None);
            assert_eq!(below("crates/core", "crates/core"), Some(""));
            assert_eq!(below("x", ""), Some("x"));
            assert_eq!(parent("a/b/c.rs"), "a/b");
            assert_eq!(parent("c.rs"), "");
        }
    }
}
