//! npm, yarn and pnpm workspaces: `package.json` `workspaces` (an array, or yarn's
//! `{"packages": […]}`) and `pnpm-workspace.yaml` (which pnpm reads instead). Edges come
//! from dependencies of any kind (`dependencies`, `devDependencies`, `peerDependencies`,
//! `optionalDependencies`) that name a workspace package, whatever the version specifier
//! (`workspace:*`, `^1.0.0`, an `npm:` or `workspace:` alias of a member).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{Files, MemberGlobs, Package, Via, Workspace, finish_dependencies, in_dir, shell_word};
use crate::impact::{Ecosystem, paths};

const PACKAGE_JSON: &str = "package.json";
const PNPM_WORKSPACE: &str = "pnpm-workspace.yaml";

const DEPENDENCY_KINDS: &[&str] = &[
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
];

/// The default test command of a package with a `test` script.
fn test_command(ecosystem: Ecosystem, root: &str, name: &str) -> String {
    let name = shell_word(name);
    let command = match ecosystem {
        Ecosystem::Pnpm => format!("pnpm --filter {name} test"),
        Ecosystem::Yarn => format!("yarn workspace {name} test"),
        _ => format!("npm test --workspace {name}"),
    };
    in_dir(root, command)
}

/// The npm, yarn or pnpm workspace rooted in `root`, if there is one.
pub fn discover(files: &Files, root: &str, problems: &mut Vec<String>) -> Option<Workspace> {
    let (ecosystem, patterns, manifests) = workspace_patterns(files, root, problems)?;
    let (exclude, include): (Vec<&str>, Vec<&str>) = patterns
        .iter()
        .map(String::as_str)
        .partition(|pattern| pattern.starts_with('!'));
    let exclude: Vec<&str> = exclude
        .iter()
        .map(|pattern| pattern.trim_start_matches('!'))
        .collect();
    let where_ = format!("the workspaces of `{}`", manifests.join("`, `"));
    let globs = match MemberGlobs::new(&include, &exclude, &where_) {
        Ok(globs) => globs,
        Err(problem) => {
            problems.push(problem);
            return None;
        }
    };
    let mut members: Vec<(String, Value)> = Vec::new();
    for dir in files.member_candidates(root, PACKAGE_JSON) {
        let relative = paths::below(dir, root).unwrap_or(dir);
        if !globs.is_member(relative) {
            continue;
        }
        let path = paths::file(dir, PACKAGE_JSON);
        if let Some(value) = files
            .text(&path, problems)
            .and_then(|text| parse_json(text, &path, problems))
        {
            members.push((dir.to_owned(), value));
        }
    }
    Some(Workspace {
        ecosystem,
        root: root.to_owned(),
        manifests,
        packages: packages(ecosystem, root, &members),
        via: Via::Manifests,
    })
}

/// The ecosystem, member patterns and manifests of the workspace rooted in `root`:
/// `pnpm-workspace.yaml` first (pnpm reads nothing else), else `workspaces` in
/// `package.json` (yarn when a `yarn.lock` or `packageManager` says so).
fn workspace_patterns(
    files: &Files,
    root: &str,
    problems: &mut Vec<String>,
) -> Option<(Ecosystem, Vec<String>, Vec<String>)> {
    let package_path = paths::file(root, PACKAGE_JSON);
    let pnpm_path = paths::file(root, PNPM_WORKSPACE);
    let root_package = match files.text(&package_path, problems) {
        Some(text) => Some(parse_json(text, &package_path, problems)?),
        None => None,
    };
    let mut manifests: Vec<String> = root_package
        .as_ref()
        .map(|_| package_path.clone())
        .into_iter()
        .collect();
    if let Some(text) = files.text(&pnpm_path, problems) {
        // pnpm's own file first: it is the one that names the members.
        manifests.insert(0, pnpm_path.clone());
        return match super::yaml::packages(text) {
            Ok(patterns) => Some((Ecosystem::Pnpm, patterns.unwrap_or_default(), manifests)),
            Err(problem) => {
                problems.push(format!("cannot read `{pnpm_path}`: {problem}"));
                None
            }
        };
    }
    let root_package = root_package?;
    let workspaces = root_package.get("workspaces")?;
    let Some(list) = workspaces
        .as_array()
        .or_else(|| workspaces.get("packages").and_then(Value::as_array))
    else {
        problems.push(format!(
            "`workspaces` in `{package_path}` is neither an array nor `{{\"packages\": […]}}`"
        ));
        return None;
    };
    let manager = root_package
        .get("packageManager")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let yarn =
        manager.starts_with("yarn@") || files.markers.contains(&paths::file(root, "yarn.lock"));
    let ecosystem = if yarn {
        Ecosystem::Yarn
    } else {
        Ecosystem::Npm
    };
    let patterns = list
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    Some((ecosystem, patterns, manifests))
}

/// The packages of the members (directory and parsed `package.json`), with their edges.
fn packages(ecosystem: Ecosystem, root: &str, members: &[(String, Value)]) -> Vec<Package> {
    // A package without a name (pnpm allows it) goes by its directory.
    let named: Vec<(String, &str, &Value)> = members
        .iter()
        .map(|(dir, value)| {
            let name = value
                .get("name")
                .and_then(Value::as_str)
                .map_or_else(|| dir.clone(), str::to_owned);
            (name, dir.as_str(), value)
        })
        .collect();
    let dirs: BTreeMap<&str, &str> = named
        .iter()
        .map(|(name, dir, _)| (name.as_str(), *dir))
        .collect();
    named
        .iter()
        .map(|(name, dir, value)| {
            let mut dependencies = BTreeSet::new();
            for kind in DEPENDENCY_KINDS {
                let Some(table) = value.get(*kind).and_then(Value::as_object) else {
                    continue;
                };
                for (key, spec) in table {
                    let target = alias_target(spec.as_str().unwrap_or_default()).unwrap_or(key);
                    if let Some(dir) = dirs.get(target) {
                        dependencies.insert((*dir).to_owned());
                    }
                }
            }
            let has_test = value
                .get("scripts")
                .and_then(|scripts| scripts.get("test"))
                .is_some_and(Value::is_string);
            Package {
                name: name.clone(),
                root: (*dir).to_owned(),
                dependencies: finish_dependencies(dir, dependencies),
                test: has_test.then(|| test_command(ecosystem, root, name)),
            }
        })
        .collect()
}

fn parse_json(text: &str, path: &str, problems: &mut Vec<String>) -> Option<Value> {
    match serde_json::from_str::<Value>(text) {
        Ok(value) if value.is_object() => Some(value),
        Ok(_) => {
            problems.push(format!("`{path}` is not a JSON object"));
            None
        }
        Err(err) => {
            problems.push(format!("`{path}` is not valid JSON: {err}"));
            None
        }
    }
}

/// The package an alias specifier names: `npm:@scope/real@^1` or `workspace:real@*`.
fn alias_target(spec: &str) -> Option<&str> {
    let rest = spec
        .strip_prefix("npm:")
        .or_else(|| spec.strip_prefix("workspace:"))?;
    // The version separator is the first `@` after the (possibly scoped) name.
    let search_from = usize::from(rest.starts_with('@'));
    let name = match rest[search_from..].find('@') {
        Some(at) => &rest[..search_from + at],
        None => rest,
    };
    let looks_like_name = !name.is_empty()
        && !name.starts_with(['^', '~', '*', '>', '<', '=', '.', '/'])
        && !name.chars().next().is_some_and(|ch| ch.is_ascii_digit());
    looks_like_name.then_some(name)
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
                    "{} @{} -> [{}] test={}",
                    package.name,
                    package.root,
                    package.dependencies.join(", "),
                    package.test.as_deref().unwrap_or("-")
                )
            })
            .collect()
    }

    #[test]
    fn npm_workspaces_with_every_kind_of_dependency() {
        let files = files(&[
            (
                "package.json",
                r#"{"private": true, "workspaces": ["packages/*", "!packages/skip"]}"#,
            ),
            (
                "packages/core/package.json",
                r#"{"name": "@acme/core", "scripts": {"test": "node t.js"}}"#,
            ),
            (
                "packages/ui/package.json",
                r#"{"name": "@acme/ui", "peerDependencies": {"@acme/core": "workspace:*"}}"#,
            ),
            (
                "packages/app/package.json",
                r#"{"name": "app", "devDependencies": {"ui": "npm:@acme/ui@^1", "left-pad": "1"}, "scripts": {"test": "x"}}"#,
            ),
            ("packages/skip/package.json", r#"{"name": "skip"}"#),
            (
                "packages/core/node_modules/x/package.json",
                r#"{"name": "x"}"#,
            ),
        ]);
        let mut problems = Vec::new();
        let workspace = discover(&files, "", &mut problems).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(workspace.ecosystem, Ecosystem::Npm);
        assert_eq!(
            summary(&workspace),
            [
                "app @packages/app -> [packages/ui] test=npm test --workspace app",
                "@acme/core @packages/core -> [] test=npm test --workspace @acme/core",
                "@acme/ui @packages/ui -> [packages/core] test=-",
            ]
        );
    }

    #[test]
    fn yarn_object_form_and_lockfile() {
        let mut files = files(&[
            (
                "web/package.json",
                r#"{"workspaces": {"packages": ["libs/*"], "nohoist": []}}"#,
            ),
            (
                "web/libs/a/package.json",
                r#"{"name": "a", "scripts": {"test": "jest"}}"#,
            ),
        ]);
        files.markers.insert("web/yarn.lock".to_owned());
        let workspace = discover(&files, "web", &mut Vec::new()).unwrap();
        assert_eq!(workspace.ecosystem, Ecosystem::Yarn);
        assert_eq!(
            summary(&workspace),
            ["a @web/libs/a -> [] test=cd web && yarn workspace a test"]
        );
    }

    #[test]
    fn pnpm_workspace_yaml_wins() {
        let files = files(&[
            (
                "package.json",
                r#"{"name": "root", "workspaces": ["ignored/*"]}"#,
            ),
            (
                "pnpm-workspace.yaml",
                "packages:\n  - 'apps/*'\n  - 'libs/**'\n",
            ),
            (
                "apps/web/package.json",
                r#"{"name": "web", "dependencies": {"util": "workspace:^"}, "scripts": {"test": "vitest"}}"#,
            ),
            ("libs/deep/util/package.json", r#"{"name": "util"}"#),
            ("ignored/x/package.json", r#"{"name": "x"}"#),
        ]);
        let workspace = discover(&files, "", &mut Vec::new()).unwrap();
        assert_eq!(workspace.ecosystem, Ecosystem::Pnpm);
        assert_eq!(workspace.manifests, ["pnpm-workspace.yaml", "package.json"]);
        assert_eq!(
            summary(&workspace),
            [
                "web @apps/web -> [libs/deep/util] test=pnpm --filter web test",
                "util @libs/deep/util -> [] test=-",
            ]
        );
    }

    #[test]
    fn no_workspaces_is_no_workspace() {
        let files = files(&[("package.json", r#"{"name": "solo"}"#)]);
        assert_eq!(discover(&files, "", &mut Vec::new()), None);
    }

    #[test]
    fn broken_json_is_a_problem() {
        let files = files(&[
            ("package.json", r#"{"workspaces": ["p/*"]}"#),
            ("p/a/package.json", "{ nope"),
        ]);
        let mut problems = Vec::new();
        let workspace = discover(&files, "", &mut problems).unwrap();
        assert!(workspace.packages.is_empty());
        assert!(
            problems[0].starts_with("`p/a/package.json` is not valid JSON"),
            "{problems:?}"
        );
    }

    #[test]
    fn aliases_name_their_target() {
        assert_eq!(alias_target("npm:@scope/real@^1"), Some("@scope/real"));
        assert_eq!(alias_target("workspace:real@*"), Some("real"));
        assert_eq!(alias_target("workspace:*"), None);
        assert_eq!(alias_target("workspace:^1.0.0"), None);
        assert_eq!(alias_target("^1.0.0"), None);
    }
}
