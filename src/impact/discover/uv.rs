//! uv workspaces: `[tool.uv.workspace]` `members` and `exclude` globs in the root
//! `pyproject.toml` (the root is a member too when it has a `[project]`). Edges come from
//! requirements (`[project] dependencies`, `optional-dependencies`, `[dependency-groups]`,
//! `[tool.uv] dev-dependencies`) that name a member — uv insists that such a requirement
//! has a `{ workspace = true }` source — and from `[tool.uv.sources]` paths into a member.

use std::collections::{BTreeMap, BTreeSet};

use toml::{Table, Value};

use super::{Files, MemberGlobs, Package, Via, Workspace, finish_dependencies, in_dir, shell_word};
use crate::impact::{Ecosystem, paths};

const PYPROJECT: &str = "pyproject.toml";

/// `uv run --package <name> pytest <dir>`, run from the workspace root.
fn test_command(root: &str, dir: &str, name: &str) -> String {
    let relative = paths::below(dir, root).unwrap_or(dir);
    let target = if relative.is_empty() {
        String::new()
    } else {
        format!(" {}", shell_word(relative))
    };
    in_dir(
        root,
        format!("uv run --package {} pytest{target}", shell_word(name)),
    )
}

/// PEP 503 normalisation: lowercase, runs of `-`, `_` and `.` become one `-`.
fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut separator = false;
    for ch in name.chars() {
        if matches!(ch, '-' | '_' | '.') {
            separator = true;
        } else {
            if separator && !out.is_empty() {
                out.push('-');
            }
            separator = false;
            out.push(ch.to_ascii_lowercase());
        }
    }
    out
}

/// The distribution name at the start of a PEP 508 requirement (`foo[extra]>=1; …`).
fn requirement_name(requirement: &str) -> Option<String> {
    let name: String = requirement
        .trim_start()
        .chars()
        .take_while(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | '.'))
        .collect();
    (!name.is_empty()).then(|| normalize(&name))
}

/// The uv workspace rooted in `root`, if its `pyproject.toml` has `[tool.uv.workspace]`.
pub fn discover(files: &Files, root: &str, problems: &mut Vec<String>) -> Option<Workspace> {
    let manifest_path = paths::file(root, PYPROJECT);
    let top = parse(files, &manifest_path, problems)?;
    let uv = tool_uv(&top);
    let workspace = uv?.get("workspace").and_then(Value::as_table)?;
    let strings = |key: &str| -> Vec<&str> {
        workspace
            .get(key)
            .and_then(Value::as_array)
            .map(|array| array.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    };
    let where_ = format!("`[tool.uv.workspace]` of `{manifest_path}`");
    let globs = match MemberGlobs::new(&strings("members"), &strings("exclude"), &where_) {
        Ok(globs) => globs,
        Err(problem) => {
            problems.push(problem);
            return None;
        }
    };
    let mut members: Vec<(String, Table)> = Vec::new();
    if top.contains_key("project") {
        members.push((root.to_owned(), top.clone()));
    }
    for dir in files.member_candidates(root, PYPROJECT) {
        let relative = paths::below(dir, root).unwrap_or(dir);
        if globs.is_member(relative) {
            let path = paths::file(dir, PYPROJECT);
            if let Some(table) = parse(files, &path, problems) {
                members.push((dir.to_owned(), table));
            }
        }
    }
    let mut named = Vec::with_capacity(members.len());
    for (dir, table) in &members {
        let name = table
            .get("project")
            .and_then(Value::as_table)
            .and_then(|project| project.get("name"))
            .and_then(Value::as_str);
        match name {
            Some(name) => named.push((name.to_owned(), dir.as_str(), table)),
            None => problems.push(format!(
                "`{}` has no `[project] name`",
                paths::file(dir, PYPROJECT)
            )),
        }
    }
    let by_name: BTreeMap<String, &str> = named
        .iter()
        .map(|(name, dir, _)| (normalize(name), *dir))
        .collect();
    let member_dirs: BTreeSet<&str> = named.iter().map(|(_, dir, _)| *dir).collect();
    let root_sources = uv
        .and_then(|uv| uv.get("sources"))
        .and_then(Value::as_table);
    let packages = named
        .iter()
        .map(|(name, dir, table)| {
            let mut dependencies = BTreeSet::new();
            for requirement in requirements(table) {
                if let Some(dir) = requirement_name(requirement).and_then(|name| by_name.get(&name))
                {
                    dependencies.insert((*dir).to_owned());
                }
            }
            let own_sources = tool_uv(table)
                .and_then(|uv| uv.get("sources"))
                .and_then(Value::as_table);
            for (sources, base) in [(root_sources, root), (own_sources, *dir)] {
                for source in sources.into_iter().flat_map(|sources| sources.values()) {
                    let target = source
                        .get("path")
                        .and_then(Value::as_str)
                        .and_then(|path| paths::join(base, path));
                    if let Some(target) =
                        target.filter(|target| member_dirs.contains(target.as_str()))
                    {
                        dependencies.insert(target);
                    }
                }
            }
            Package {
                name: name.clone(),
                root: (*dir).to_owned(),
                dependencies: finish_dependencies(dir, dependencies),
                test: Some(test_command(root, dir, name)),
            }
        })
        .collect();
    Some(Workspace {
        ecosystem: Ecosystem::Uv,
        root: root.to_owned(),
        manifests: vec![manifest_path],
        packages,
        via: Via::Manifests,
    })
}

fn tool_uv(table: &Table) -> Option<&Table> {
    table
        .get("tool")
        .and_then(Value::as_table)
        .and_then(|tool| tool.get("uv"))
        .and_then(Value::as_table)
}

/// Every requirement string of a `pyproject.toml`.
fn requirements(table: &Table) -> Vec<&str> {
    let project = table.get("project").and_then(Value::as_table);
    let optional = project
        .and_then(|project| project.get("optional-dependencies"))
        .and_then(Value::as_table);
    let groups = table.get("dependency-groups").and_then(Value::as_table);
    let lists: Vec<&Value> = project
        .and_then(|project| project.get("dependencies"))
        .into_iter()
        .chain(optional.into_iter().flat_map(Table::values))
        .chain(groups.into_iter().flat_map(Table::values))
        .chain(tool_uv(table).and_then(|uv| uv.get("dev-dependencies")))
        .collect();
    lists
        .into_iter()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(Value::as_str)
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn files(entries: &[(&str, &str)]) -> Files {
        Files::of_manifests(entries)
    }

    #[test]
    fn members_sources_and_requirements() {
        let files = files(&[
            (
                "pyproject.toml",
                "[project]\nname = \"App\"\ndependencies = [\"lib-a>=1\", \"requests\"]\n\
                 [tool.uv.workspace]\nmembers = [\"packages/*\"]\nexclude = [\"packages/skip\"]\n\
                 [tool.uv.sources]\nlib-a = { workspace = true }\n",
            ),
            (
                "packages/lib_a/pyproject.toml",
                "[project]\nname = \"Lib_A\"\n[dependency-groups]\ndev = [\"lib.b[x] ; python_version > '3'\"]\n",
            ),
            (
                "packages/lib_b/pyproject.toml",
                "[project]\nname = \"lib-b\"\n[tool.uv.sources]\nhelper = { path = \"../helper\" }\n",
            ),
            (
                "packages/helper/pyproject.toml",
                "[project]\nname = \"helper\"\n",
            ),
            (
                "packages/skip/pyproject.toml",
                "[project]\nname = \"skip\"\n",
            ),
        ]);
        let mut problems = Vec::new();
        let workspace = discover(&files, "", &mut problems).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let summary: Vec<String> = workspace
            .packages
            .iter()
            .map(|package| format!("{} -> [{}]", package.name, package.dependencies.join(", ")))
            .collect();
        assert_eq!(
            summary,
            [
                "App -> [packages/lib_a]",
                "helper -> []",
                "Lib_A -> [packages/lib_b]",
                "lib-b -> [packages/helper]",
            ]
        );
        assert_eq!(
            workspace.packages[2].test.as_deref(),
            Some("uv run --package Lib_A pytest packages/lib_a")
        );
        assert_eq!(
            workspace.packages[0].test.as_deref(),
            Some("uv run --package App pytest")
        );
    }

    #[test]
    fn a_project_without_a_uv_workspace_is_not_a_workspace() {
        let files = files(&[("pyproject.toml", "[project]\nname = \"solo\"\n")]);
        assert_eq!(discover(&files, "", &mut Vec::new()), None);
    }

    #[test]
    fn names_are_normalised() {
        assert_eq!(normalize("Foo__Bar.baz"), "foo-bar-baz");
        assert_eq!(
            requirement_name("Foo_Bar[x]>=1"),
            Some("foo-bar".to_owned())
        );
        assert_eq!(requirement_name(" ; x"), None);
    }
}
