//! Cargo workspaces: members and path dependencies (normal, dev and build, also
//! target-specific and inherited from `[workspace.dependencies]`).
//!
//! Two readers give the same answer: [`from_manifests`] reads the `Cargo.toml` files with
//! `toml`, following Cargo's rules (member globs, `exclude`, path dependencies inside the
//! workspace directory become members), and [`from_metadata`] reads the JSON of
//! `cargo metadata --no-deps --format-version 1`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Deserialize;
use toml::{Table, Value};

use super::{Files, MemberGlobs, Package, Via, Workspace, finish_dependencies, shell_word};
use crate::impact::{Ecosystem, paths};

const MANIFEST: &str = "Cargo.toml";

/// The tables of a manifest that list dependencies.
const DEPENDENCY_TABLES: &[&str] = &[
    "dependencies",
    "dev-dependencies",
    "dev_dependencies",
    "build-dependencies",
    "build_dependencies",
];

/// `cargo test -p <name>`, with `--manifest-path` for a workspace below the root.
pub fn test_command(root: &str, name: &str) -> String {
    if root.is_empty() {
        format!("cargo test -p {}", shell_word(name))
    } else {
        format!(
            "cargo test --manifest-path {} -p {}",
            shell_word(&paths::file(root, MANIFEST)),
            shell_word(name)
        )
    }
}

/// The Cargo workspace (or single package) whose manifest is `<root>/Cargo.toml`.
pub fn from_manifests(files: &Files, root: &str, problems: &mut Vec<String>) -> Option<Workspace> {
    let manifest_path = paths::file(root, MANIFEST);
    let top = parse(files, &manifest_path, problems)?;
    let workspace = top.get("workspace").and_then(Value::as_table);
    if workspace.is_none() && !top.contains_key("package") {
        problems.push(format!(
            "`{manifest_path}` has neither `[package]` nor `[workspace]`"
        ));
        return None;
    }
    let mut reader = Reader {
        files,
        root,
        workspace_dependencies: BTreeMap::new(),
        excluded: Vec::new(),
        problems,
    };
    let mut pending: Vec<String> = Vec::new();
    if top.contains_key("package") {
        pending.push(root.to_owned());
    }
    if let Some(workspace) = workspace {
        pending.extend(reader.members(workspace, &manifest_path));
        reader.workspace_dependencies = path_dependencies(
            workspace
                .get("dependencies")
                .and_then(Value::as_table)
                .into_iter(),
            root,
        );
    }
    // `members = ["."]` names the root package again.
    pending.sort();
    pending.dedup();
    // Path dependencies inside the workspace directory join the members (Cargo makes them
    // members too).
    let mut seen: BTreeSet<String> = pending.iter().cloned().collect();
    let mut packages = Vec::new();
    while let Some(dir) = pending.pop() {
        let Some(package) = reader.package(&dir) else {
            continue;
        };
        if workspace.is_some() {
            for dependency in &package.dependencies {
                let joins = paths::below(dependency, root).is_some()
                    && !reader.is_excluded(dependency)
                    && files
                        .manifests
                        .contains_key(&paths::file(dependency, MANIFEST));
                if joins && seen.insert(dependency.clone()) {
                    pending.push(dependency.clone());
                }
            }
        }
        packages.push(package);
    }
    packages.sort_by(|a, b| a.root.cmp(&b.root));
    Some(Workspace {
        ecosystem: Ecosystem::Cargo,
        root: root.to_owned(),
        manifests: vec![manifest_path],
        packages,
        via: Via::Manifests,
    })
}

struct Reader<'a> {
    files: &'a Files,
    root: &'a str,
    /// `[workspace.dependencies]` entries with a `path`: name → directory.
    workspace_dependencies: BTreeMap<String, String>,
    /// `[workspace] exclude`, as directories.
    excluded: Vec<String>,
    problems: &'a mut Vec<String>,
}

impl Reader<'_> {
    /// The member directories `[workspace] members` names (globs or paths), without the
    /// excluded ones.
    fn members(&mut self, workspace: &Table, manifest_path: &str) -> Vec<String> {
        let strings = |key: &str| -> Vec<&str> {
            workspace
                .get(key)
                .and_then(Value::as_array)
                .map(|array| array.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default()
        };
        let members = strings("members");
        self.excluded = strings("exclude")
            .into_iter()
            .filter_map(|dir| paths::join(self.root, dir))
            .collect();
        let where_ = format!("`[workspace] members` of `{manifest_path}`");
        let (globs, literal): (Vec<&str>, Vec<&str>) = members
            .into_iter()
            .partition(|member| member.contains(['*', '?', '[']));
        let mut dirs = Vec::new();
        for member in literal {
            match paths::join(self.root, member) {
                Some(dir)
                    if self
                        .files
                        .manifests
                        .contains_key(&paths::file(&dir, MANIFEST)) =>
                {
                    if !self.is_excluded(&dir) {
                        dirs.push(dir);
                    }
                }
                _ => self.problems.push(format!(
                    "workspace member `{member}` of `{manifest_path}` has no `Cargo.toml`"
                )),
            }
        }
        if !globs.is_empty() {
            match MemberGlobs::new(&globs, &[], &where_) {
                Ok(matcher) => {
                    for dir in self.files.member_candidates(self.root, MANIFEST) {
                        let relative = paths::below(dir, self.root).unwrap_or(dir);
                        if matcher.is_member(relative) && !self.is_excluded(dir) {
                            dirs.push(dir.to_owned());
                        }
                    }
                }
                Err(problem) => self.problems.push(problem),
            }
        }
        dirs.sort();
        dirs.dedup();
        dirs
    }

    fn is_excluded(&self, dir: &str) -> bool {
        self.excluded
            .iter()
            .any(|excluded| paths::below(dir, excluded).is_some())
    }

    /// The package whose manifest is `<dir>/Cargo.toml`.
    fn package(&mut self, dir: &str) -> Option<Package> {
        let manifest_path = paths::file(dir, MANIFEST);
        let manifest = parse(self.files, &manifest_path, self.problems)?;
        let Some(name) = manifest
            .get("package")
            .and_then(Value::as_table)
            .and_then(|package| package.get("name"))
            .and_then(Value::as_str)
        else {
            self.problems
                .push(format!("`{manifest_path}` has no `[package] name`"));
            return None;
        };
        let mut dependencies = BTreeSet::new();
        for table in dependency_tables(&manifest) {
            for (key, spec) in table {
                let Some(spec) = spec.as_table() else {
                    continue;
                };
                let target = if let Some(path) = spec.get("path").and_then(Value::as_str) {
                    paths::join(dir, path)
                } else if spec.get("workspace").and_then(Value::as_bool) == Some(true) {
                    self.workspace_dependencies.get(key).cloned()
                } else {
                    None
                };
                dependencies.extend(target);
            }
        }
        Some(Package {
            name: name.to_owned(),
            root: dir.to_owned(),
            dependencies: finish_dependencies(dir, dependencies),
            test: Some(test_command(self.root, name)),
        })
    }
}

fn parse(files: &Files, path: &str, problems: &mut Vec<String>) -> Option<Table> {
    let text = files.text(path, problems)?;
    match text.parse::<Table>() {
        Ok(table) => Some(table),
        Err(err) => {
            problems.push(format!(
                "`{path}` is not valid TOML: {}",
                err.message().replace('\n', " ")
            ));
            None
        }
    }
}

/// Every dependency table of a manifest, target-specific ones included.
fn dependency_tables(manifest: &Table) -> Vec<&Table> {
    let targets = manifest
        .get("target")
        .and_then(Value::as_table)
        .into_iter()
        .flat_map(|targets| targets.values().filter_map(Value::as_table));
    std::iter::once(manifest)
        .chain(targets)
        .flat_map(|holder| {
            DEPENDENCY_TABLES
                .iter()
                .filter_map(|key| holder.get(*key).and_then(Value::as_table))
        })
        .collect()
}

/// `name → directory` for the entries of `tables` that have a `path` (relative to `base`).
fn path_dependencies<'t>(
    tables: impl Iterator<Item = &'t Table>,
    base: &str,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for table in tables {
        for (name, spec) in table {
            if let Some(dir) = spec
                .as_table()
                .and_then(|spec| spec.get("path"))
                .and_then(Value::as_str)
                .and_then(|path| paths::join(base, path))
            {
                out.insert(name.clone(), dir);
            }
        }
    }
    out
}

#[derive(Deserialize)]
struct Metadata {
    packages: Vec<MetadataPackage>,
}

#[derive(Deserialize)]
struct MetadataPackage {
    name: String,
    manifest_path: String,
    #[serde(default)]
    dependencies: Vec<MetadataDependency>,
}

#[derive(Deserialize)]
struct MetadataDependency {
    /// Set for path dependencies (Cargo 1.51 and later).
    #[serde(default)]
    path: Option<String>,
    /// `null` for path dependencies.
    #[serde(default)]
    source: Option<String>,
}

/// The workspace in the output of `cargo metadata --no-deps --format-version 1`, run for
/// `<root>/Cargo.toml` of the work tree at `work_dir` (absolute and canonical, as Cargo
/// prints paths). An error says why the output cannot be used.
pub fn from_metadata(json: &[u8], work_dir: &Path, root: &str) -> Result<Workspace, String> {
    let metadata: Metadata = serde_json::from_slice(json)
        .map_err(|err| format!("cannot read the output of `cargo metadata`: {err}"))?;
    let relative = |absolute: &str| -> Result<String, String> {
        let path = Path::new(absolute)
            .strip_prefix(work_dir)
            .map_err(|_| format!("`cargo metadata` names `{absolute}` outside the work tree"))?;
        path.to_str()
            .map(|text| text.replace('\\', "/"))
            .ok_or_else(|| format!("`{absolute}` is not UTF-8"))
    };
    let mut packages = Vec::with_capacity(metadata.packages.len());
    for package in metadata.packages {
        let manifest = relative(&package.manifest_path)?;
        let dir = paths::parent(&manifest).to_owned();
        let mut dependencies = BTreeSet::new();
        for dependency in &package.dependencies {
            match (&dependency.path, &dependency.source) {
                (Some(path), _) => {
                    // A path dependency outside the work tree is not a component.
                    if let Ok(dir) = relative(path) {
                        dependencies.insert(dir);
                    }
                }
                (None, None) => {
                    return Err(
                        "this cargo does not report the paths of path dependencies".to_owned()
                    );
                }
                (None, Some(_)) => {}
            }
        }
        packages.push(Package {
            test: Some(test_command(root, &package.name)),
            name: package.name,
            dependencies: finish_dependencies(&dir, dependencies),
            root: dir,
        });
    }
    packages.sort_by(|a, b| a.root.cmp(&b.root));
    Ok(Workspace {
        ecosystem: Ecosystem::Cargo,
        root: root.to_owned(),
        manifests: vec![paths::file(root, MANIFEST)],
        packages,
        via: Via::CargoMetadata,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(entries: &[(&str, &str)]) -> Files {
        Files::of_manifests(entries)
    }

    fn summary(workspace: &Workspace) -> Vec<String> {
        workspace
            .packages
            .iter()
            .map(|package| {
                format!(
                    "{} @{} -> [{}]",
                    package.name,
                    package.root,
                    package.dependencies.join(", ")
                )
            })
            .collect()
    }

    const CORE: &str = "[package]\nname = \"core\"\n";

    #[test]
    fn members_globs_and_path_dependencies_of_every_kind() {
        let files = files(&[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"crates/*\"]\nexclude = [\"crates/old\"]\n\
                 [workspace.dependencies]\ncore = { path = \"crates/core\" }\n",
            ),
            ("crates/core/Cargo.toml", CORE),
            (
                "crates/api/Cargo.toml",
                "[package]\nname = \"api\"\n[dependencies]\ncore.workspace = true\nserde = \"1\"\n",
            ),
            (
                "crates/cli/Cargo.toml",
                "[package]\nname = \"cli\"\n[dev-dependencies]\napi = { path = \"../api\" }\n\
                 [target.'cfg(unix)'.build-dependencies]\nhelper = { path = \"../../helper\" }\n",
            ),
            ("helper/Cargo.toml", "[package]\nname = \"helper\"\n"),
            ("crates/old/Cargo.toml", "[package]\nname = \"old\"\n"),
            (
                "crates/core/tests/fixture/Cargo.toml",
                "[package]\nname = \"fixture\"\n",
            ),
        ]);
        let mut problems = Vec::new();
        let workspace = from_manifests(&files, "", &mut problems).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            summary(&workspace),
            [
                "api @crates/api -> [crates/core]",
                "cli @crates/cli -> [crates/api, helper]",
                "core @crates/core -> []",
                "helper @helper -> []",
            ]
        );
        assert_eq!(
            workspace.packages[0].test.as_deref(),
            Some("cargo test -p api")
        );
    }

    #[test]
    fn a_root_package_listed_as_a_member_is_one_package() {
        let files = files(&[
            (
                "Cargo.toml",
                "[package]\nname = \"app\"\n[workspace]\nmembers = [\".\", \"lib\"]\n\
                 [dependencies]\nlib = { path = \"lib\" }\n",
            ),
            ("lib/Cargo.toml", "[package]\nname = \"lib\"\n"),
        ]);
        let workspace = from_manifests(&files, "", &mut Vec::new()).unwrap();
        assert_eq!(summary(&workspace), ["app @ -> [lib]", "lib @lib -> []"]);
    }

    #[test]
    fn a_root_package_is_a_workspace_of_one() {
        let files = files(&[
            ("Cargo.toml", CORE),
            ("sub/Cargo.toml", "[package]\nname = \"sub\"\n"),
        ]);
        let workspace = from_manifests(&files, "", &mut Vec::new()).unwrap();
        assert_eq!(summary(&workspace), ["core @ -> []"]);
    }

    #[test]
    fn a_nested_workspace_tests_with_its_manifest_path() {
        let files = files(&[
            ("rust/Cargo.toml", "[workspace]\nmembers = [\"core\"]\n"),
            ("rust/core/Cargo.toml", CORE),
        ]);
        let workspace = from_manifests(&files, "rust", &mut Vec::new()).unwrap();
        assert_eq!(workspace.manifests, ["rust/Cargo.toml"]);
        assert_eq!(
            workspace.packages[0].test.as_deref(),
            Some("cargo test --manifest-path rust/Cargo.toml -p core")
        );
    }

    #[test]
    fn unreadable_manifests_are_problems() {
        let files = files(&[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"a\", \"missing\"]\n",
            ),
            ("a/Cargo.toml", "[package\nname = 1"),
        ]);
        let mut problems = Vec::new();
        let workspace = from_manifests(&files, "", &mut problems).unwrap();
        assert!(workspace.packages.is_empty());
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("`missing`"), "{problems:?}");
        assert!(
            problems[1].starts_with("`a/Cargo.toml` is not valid TOML"),
            "{problems:?}"
        );
    }

    #[test]
    fn metadata_gives_the_same_packages() {
        let json = r#"{"packages": [
            {"name": "api", "manifest_path": "/w/crates/api/Cargo.toml", "dependencies": [
                {"name": "core", "source": null, "path": "/w/crates/core"},
                {"name": "serde", "source": "registry+https://github.com/rust-lang/crates.io-index"}
            ]},
            {"name": "core", "manifest_path": "/w/crates/core/Cargo.toml", "dependencies": []}
        ], "workspace_root": "/w"}"#;
        let workspace = from_metadata(json.as_bytes(), Path::new("/w"), "").unwrap();
        assert_eq!(
            summary(&workspace),
            [
                "api @crates/api -> [crates/core]",
                "core @crates/core -> []"
            ]
        );
        assert_eq!(workspace.via, Via::CargoMetadata);
        let outside = from_metadata(json.as_bytes(), Path::new("/elsewhere"), "");
        assert!(outside.is_err());
    }
}
