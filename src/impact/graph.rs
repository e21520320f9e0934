//! The component graph: discovered packages and `[[component]]` entries, merged, with their
//! dependencies resolved to edges. Pure: a function of the policy and discovery's results.

use std::collections::{BTreeMap, HashMap};

use super::Ecosystem;
use super::discover::{Via, Workspace};
use crate::policy::ComponentDecl;
use crate::policy::glob::ListId;

/// One component of the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// Its name, unique in the graph.
    pub name: String,
    /// Where it comes from (a refined package keeps its ecosystem).
    pub ecosystem: Ecosystem,
    /// Its directory (`""` for the repository root); `None` for a declared component that
    /// owns files only through `paths`.
    pub root: Option<String>,
    /// The declared `paths`, as a list of the policy's matcher.
    pub paths: Option<ListId>,
    /// Indices of the components it depends on, sorted.
    pub dependencies: Vec<usize>,
    /// The command that tests it.
    pub test: Option<String>,
}

/// A workspace, for reports: which manifest, how many packages, how it was read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WorkspaceSummary {
    /// The ecosystem.
    pub ecosystem: Ecosystem,
    /// Its main manifest.
    pub manifest: String,
    /// How many packages it has.
    pub packages: usize,
    /// How it was read.
    pub via: Via,
}

/// Every component, and what is known about the repository's structure.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComponentGraph {
    /// The components, sorted by name (indices are positions here).
    pub components: Vec<Component>,
    /// Workspace manifests and the components of their workspace: a change to one affects
    /// all of them.
    pub workspace_files: Vec<(String, Vec<usize>)>,
    /// The workspaces that were discovered.
    pub workspaces: Vec<WorkspaceSummary>,
    /// What made the graph untrustworthy (an unreadable manifest, an unknown name in
    /// `depends_on`): the analysis then reports everything as affected.
    pub problems: Vec<String>,
}

impl ComponentGraph {
    /// The component with this name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.components
            .binary_search_by(|component| component.name.as_str().cmp(name))
            .ok()
    }
}

/// A component before its dependencies are resolved.
struct Pending {
    name: String,
    ecosystem: Ecosystem,
    root: Option<String>,
    paths: Option<ListId>,
    /// Discovered dependencies, as directories of the same ecosystem.
    dependency_dirs: Vec<String>,
    /// Declared dependencies, as names.
    dependency_names: Vec<String>,
    /// The `[[component]]` entry that declared or refined it.
    declared_line: Option<usize>,
    test: Option<String>,
}

/// Merges discovered workspaces and declared components into a graph. `problems` are
/// discovery's; names that cannot be resolved are added to them.
pub fn build(
    declared: &[ComponentDecl],
    workspaces: &[Workspace],
    mut problems: Vec<String>,
) -> ComponentGraph {
    let mut pending: Vec<Pending> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut workspace_members: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
    let mut summaries = Vec::new();
    for workspace in workspaces {
        let mut members = Vec::new();
        for package in &workspace.packages {
            let name = unique_name(&by_name, &package.name, workspace.ecosystem, &package.root);
            by_name.insert(name.clone(), pending.len());
            members.push(pending.len());
            pending.push(Pending {
                name,
                ecosystem: workspace.ecosystem,
                root: Some(package.root.clone()),
                paths: None,
                dependency_dirs: package.dependencies.clone(),
                dependency_names: Vec::new(),
                declared_line: None,
                test: package.test.clone(),
            });
        }
        summaries.push(WorkspaceSummary {
            ecosystem: workspace.ecosystem,
            manifest: workspace.manifests.first().cloned().unwrap_or_default(),
            packages: workspace.packages.len(),
            via: workspace.via,
        });
        workspace_members.push((workspace.manifests.clone(), members));
    }
    merge_declared(declared, &mut pending, &mut by_name);
    let (components, position) = resolve(&pending, &by_name, &mut problems);
    let mut workspace_files: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (manifests, members) in workspace_members {
        for manifest in manifests {
            let entry = workspace_files.entry(manifest).or_default();
            entry.extend(members.iter().map(|&index| position[index]));
            entry.sort_unstable();
            entry.dedup();
        }
    }
    ComponentGraph {
        components,
        workspace_files: workspace_files.into_iter().collect(),
        workspaces: summaries,
        problems,
    }
}

/// Adds the declared components: new ones, or refinements of discovered packages.
fn merge_declared(
    declared: &[ComponentDecl],
    pending: &mut Vec<Pending>,
    by_name: &mut HashMap<String, usize>,
) {
    for component in declared {
        if let Some(&index) = by_name.get(&component.name) {
            // Refines a discovered package.
            let refined = &mut pending[index];
            refined.paths = component.paths.as_ref().map(|paths| paths.list);
            refined
                .dependency_names
                .extend(component.depends_on.iter().cloned());
            refined.declared_line = Some(component.line);
            if component.test.is_some() {
                refined.test.clone_from(&component.test);
            }
            continue;
        }
        by_name.insert(component.name.clone(), pending.len());
        pending.push(Pending {
            name: component.name.clone(),
            ecosystem: Ecosystem::Declared,
            root: None,
            paths: component.paths.as_ref().map(|paths| paths.list),
            dependency_dirs: Vec::new(),
            dependency_names: component.depends_on.clone(),
            declared_line: Some(component.line),
            test: component.test.clone(),
        });
    }
}

/// The components sorted by name, with resolved dependencies, and the new position of each
/// pending component; unknown names become problems.
fn resolve(
    pending: &[Pending],
    by_name: &HashMap<String, usize>,
    problems: &mut Vec<String>,
) -> (Vec<Component>, Vec<usize>) {
    let mut order: Vec<usize> = (0..pending.len()).collect();
    order.sort_by(|&a, &b| pending[a].name.cmp(&pending[b].name));
    let mut position = vec![0; pending.len()];
    for (new, &old) in order.iter().enumerate() {
        position[old] = new;
    }
    let by_dir: HashMap<(Ecosystem, &str), usize> = pending
        .iter()
        .enumerate()
        .filter_map(|(index, item)| {
            let root = item.root.as_deref()?;
            (item.ecosystem != Ecosystem::Declared).then_some(((item.ecosystem, root), index))
        })
        .collect();
    let names: Vec<&str> = order
        .iter()
        .map(|&old| pending[old].name.as_str())
        .collect();
    let mut components = Vec::with_capacity(pending.len());
    for &old in &order {
        let item = &pending[old];
        let mut dependencies: Vec<usize> = item
            .dependency_dirs
            .iter()
            .filter_map(|dir| by_dir.get(&(item.ecosystem, dir.as_str())))
            .map(|&index| position[index])
            .collect();
        for name in &item.dependency_names {
            match by_name.get(name) {
                Some(&index) => dependencies.push(position[index]),
                None => problems.push(unknown_dependency(item, name, &names)),
            }
        }
        dependencies.sort_unstable();
        dependencies.dedup();
        components.push(Component {
            name: item.name.clone(),
            ecosystem: item.ecosystem,
            root: item.root.clone(),
            paths: item.paths,
            dependencies,
            test: item.test.clone(),
        });
    }
    (components, position)
}

/// `name`, or when a component already has it, `name@dir` (`name@dir#ecosystem` when that
/// is taken too): two workspaces may each have a package called `core`.
fn unique_name(
    taken: &HashMap<String, usize>,
    name: &str,
    ecosystem: Ecosystem,
    root: &str,
) -> String {
    if !taken.contains_key(name) {
        return name.to_owned();
    }
    let at_dir = format!("{name}@{}", super::display_dir(root));
    if !taken.contains_key(&at_dir) {
        return at_dir;
    }
    format!("{at_dir}#{ecosystem}")
}

fn unknown_dependency(item: &Pending, name: &str, names: &[&str]) -> String {
    let line = item
        .declared_line
        .map(|line| format!(" ({} line {line})", crate::policy::FILE_NAME))
        .unwrap_or_default();
    let hint = suggest(name, names)
        .map(|found| format!("; did you mean `{found}`?"))
        .unwrap_or_default();
    format!(
        "`[[component]]` `{}`{line} depends on `{name}`, which is neither declared nor discovered{hint}",
        item.name
    )
}

/// The closest name to `word`, when it is close enough to be a likely typo.
fn suggest<'a>(word: &str, names: &[&'a str]) -> Option<&'a str> {
    names
        .iter()
        .map(|name| (strsim::damerau_levenshtein(word, name), *name))
        .filter(|(distance, name)| {
            let length = name.chars().count().max(word.chars().count());
            *distance > 0 && *distance <= (length / 3).max(1)
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impact::discover::Package;
    use crate::policy::PatternList;

    fn package(name: &str, root: &str, dependencies: &[&str]) -> Package {
        Package {
            name: name.to_owned(),
            root: root.to_owned(),
            dependencies: dependencies.iter().map(|dir| (*dir).to_owned()).collect(),
            test: Some(format!("cargo test -p {name}")),
        }
    }

    fn cargo(root: &str, packages: Vec<Package>) -> Workspace {
        Workspace {
            ecosystem: Ecosystem::Cargo,
            root: root.to_owned(),
            manifests: vec![crate::impact::paths::file(root, "Cargo.toml")],
            packages,
            via: Via::Manifests,
        }
    }

    fn declared(name: &str, depends_on: &[&str], test: Option<&str>) -> ComponentDecl {
        ComponentDecl {
            name: name.to_owned(),
            line: 3,
            paths: Some(PatternList {
                patterns: vec![format!("{name}/**")],
                list: ListId(7),
            }),
            depends_on: depends_on.iter().map(|name| (*name).to_owned()).collect(),
            test: test.map(str::to_owned),
        }
    }

    #[test]
    fn declared_components_depend_on_discovered_ones_and_refine_them() {
        let workspaces = [cargo(
            "",
            vec![
                package("core", "crates/core", &[]),
                package("api", "crates/api", &["crates/core", "vendor/outside"]),
            ],
        )];
        let graph = build(
            &[
                declared("web", &["api"], Some("npm test")),
                declared("core", &[], Some("cargo nextest run -p core")),
            ],
            &workspaces,
            Vec::new(),
        );
        assert!(graph.problems.is_empty(), "{:?}", graph.problems);
        let names: Vec<&str> = graph.components.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["api", "core", "web"]);
        let api = graph.find("api").unwrap();
        let core = graph.find("core").unwrap();
        let web = graph.find("web").unwrap();
        assert_eq!(graph.components[api].dependencies, [core]);
        assert_eq!(graph.components[web].dependencies, [api]);
        assert_eq!(graph.components[web].ecosystem, Ecosystem::Declared);
        let refined = &graph.components[core];
        assert_eq!(refined.ecosystem, Ecosystem::Cargo);
        assert_eq!(refined.test.as_deref(), Some("cargo nextest run -p core"));
        assert_eq!(refined.paths, Some(ListId(7)));
        assert_eq!(
            graph.workspace_files,
            [("Cargo.toml".to_owned(), vec![api, core])]
        );
    }

    #[test]
    fn an_unknown_dependency_is_a_problem_with_a_hint() {
        let workspaces = [cargo("", vec![package("core", "core", &[])])];
        let graph = build(&[declared("web", &["cor"], None)], &workspaces, Vec::new());
        assert_eq!(
            graph.problems,
            [
                "`[[component]]` `web` (Astrixfile.ax line 3) depends on `cor`, which is neither declared nor discovered; did you mean `core`?"
            ]
        );
    }

    #[test]
    fn colliding_names_are_made_unique() {
        let workspaces = [
            cargo("", vec![package("core", "core", &[])]),
            cargo("tools", vec![package("core", "tools/core", &[])]),
        ];
        let graph = build(&[], &workspaces, Vec::new());
        let names: Vec<&str> = graph.components.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["core", "core@tools/core"]);
    }
}
