//! The analysis: changed files → the components they affect, and why. Pure.
//!
//! Each changed file is, in this order:
//! 1. **ignored** when `[impact] ignore` matches it: it affects nothing;
//! 2. **global** when `[impact] global` matches it: it affects every component;
//! 3. a **workspace manifest** (a workspace root's `Cargo.toml`, `package.json`,
//!    `pnpm-workspace.yaml`, `pyproject.toml`): it affects every package of that workspace;
//! 4. **owned** by the components whose `paths` match it, else by the component whose
//!    directory is its longest prefix;
//! 5. otherwise **unowned**: it affects every component, since nothing says it is safe.
//!
//! Components that own a changed file are *direct* (distance 0); their dependents, found
//! breadth-first over reverse dependencies, are affected at distance 1, 2, …, each with the
//! dependency paths that reach a direct component (`cli → api → core`). A global or
//! unowned file, or a problem in the graph, makes every component affected (and direct),
//! with that reason: astrix never answers "nothing affected" when it cannot tell.

use std::collections::{BTreeSet, HashMap, VecDeque};

use serde::Serialize;

use super::graph::ComponentGraph;
use super::{Ecosystem, SCHEMA_VERSION, display_dir};
use crate::policy::Policy;

/// Why a component is affected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// A changed file the component owns.
    File {
        /// The file.
        file: String,
    },
    /// A changed manifest of the workspace the component belongs to.
    WorkspaceManifest {
        /// The manifest.
        file: String,
    },
    /// The component depends, through `path`, on a component that a changed file affects
    /// directly: `["cli", "api", "core"]`.
    Dependency {
        /// From the affected component to a direct one.
        path: Vec<String>,
    },
    /// A changed global file (`[impact] global`) affects every component.
    Global {
        /// The file.
        file: String,
    },
    /// A changed file that no component owns affects every component.
    Unowned {
        /// The file.
        file: String,
    },
    /// The component graph could not be read completely, so every component counts as
    /// affected.
    Problem {
        /// What went wrong.
        message: String,
    },
}

impl Reason {
    /// One line for people.
    pub fn describe(&self) -> String {
        match self {
            Reason::File { file } => format!("changed: {file}"),
            Reason::WorkspaceManifest { file } => format!("workspace manifest changed: {file}"),
            Reason::Dependency { path } => format!("depends: {}", path.join(" → ")),
            Reason::Global { file } => format!("global file changed: {file}"),
            Reason::Unowned { file } => format!("owned by no component: {file}"),
            Reason::Problem { message } => format!("cannot tell: {message}"),
        }
    }
}

/// An affected component.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Affected {
    /// Its name.
    pub name: String,
    /// Its directory (`.` for the root); `null` for a declared component without one.
    pub root: Option<String>,
    /// Where it comes from.
    pub ecosystem: Ecosystem,
    /// Whether a changed file affects it directly (it owns one, or everything is affected).
    pub direct: bool,
    /// Dependency steps to the nearest direct component (0 when direct).
    pub distance: usize,
    /// Why it is affected.
    pub reasons: Vec<Reason>,
    /// Its index in the graph.
    #[serde(skip)]
    pub index: usize,
    /// The component through which it was first reached (the parent in the text tree).
    #[serde(skip)]
    pub via: Option<usize>,
}

/// What a change affects (SPEC §8), as `astrix blast-radius --format json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlastRadius {
    /// The version of this JSON shape.
    pub schema_version: u32,
    /// The changed files, sorted and deduplicated.
    pub changed_files: Vec<String>,
    /// How many components the repository has.
    pub total_components: usize,
    /// The affected components: direct ones first, then by distance and name.
    pub components: Vec<Affected>,
    /// Changed files that no component owns (each makes everything affected).
    pub unowned_files: Vec<String>,
    /// Changed files that `[impact] ignore` matches (they affect nothing).
    pub ignored_files: Vec<String>,
    /// Whether every component is affected.
    pub all_affected: bool,
    /// Why every component is affected: global and unowned files, graph problems.
    pub all_reasons: Vec<Reason>,
}

impl BlastRadius {
    /// The number of affected components (the `impacted_components` policy argument).
    pub fn impacted(&self) -> usize {
        self.components.len()
    }
}

/// The blast radius of `changed` files (repository-relative) in `graph`, with the
/// `[impact]` settings and component patterns of `policy`.
pub fn analyze(graph: &ComponentGraph, policy: &Policy, changed: &[String]) -> BlastRadius {
    let changed_files: Vec<String> = changed
        .iter()
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let count = graph.components.len();
    let mut by_root: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut by_list = Vec::new();
    for (index, component) in graph.components.iter().enumerate() {
        if let Some(root) = &component.root {
            by_root.entry(root.as_str()).or_default().push(index);
        }
        if let Some(list) = component.paths {
            by_list.push((list.0 as usize, index));
        }
    }
    let workspace_files: HashMap<&str, &[usize]> = graph
        .workspace_files
        .iter()
        .map(|(file, members)| (file.as_str(), members.as_slice()))
        .collect();
    let ignore = policy.impact.ignore.list.0 as usize;
    let global = policy.impact.global.list.0 as usize;

    let mut own: Vec<Vec<Reason>> = vec![Vec::new(); count];
    let mut unowned_files = Vec::new();
    let mut ignored_files = Vec::new();
    let mut all_reasons = Vec::new();
    let mut hits = vec![false; policy.matcher.list_count()];
    let mut scratch = Vec::new();
    let matcher = policy.matcher.for_paths(&changed_files);
    for file in &changed_files {
        hits.fill(false);
        matcher.matching_lists(file, &mut hits, &mut scratch);
        if hits.get(ignore).copied().unwrap_or(false) {
            ignored_files.push(file.clone());
            continue;
        }
        if hits.get(global).copied().unwrap_or(false) {
            all_reasons.push(Reason::Global { file: file.clone() });
            continue;
        }
        let mut owned = false;
        if let Some(members) = workspace_files.get(file.as_str()) {
            owned = true;
            for &member in *members {
                own[member].push(Reason::WorkspaceManifest { file: file.clone() });
            }
        }
        let mut owners: Vec<usize> = by_list
            .iter()
            .filter(|(list, _)| hits.get(*list).copied().unwrap_or(false))
            .map(|(_, index)| *index)
            .collect();
        if owners.is_empty() {
            owners = longest_prefix_owners(&by_root, file);
        }
        for owner in owners {
            owned = true;
            if !own[owner]
                .iter()
                .any(|reason| matches!(reason, Reason::WorkspaceManifest { file: f } if f == file))
            {
                own[owner].push(Reason::File { file: file.clone() });
            }
        }
        if !owned {
            unowned_files.push(file.clone());
            all_reasons.push(Reason::Unowned { file: file.clone() });
        }
    }
    all_reasons.extend(graph.problems.iter().map(|message| Reason::Problem {
        message: message.clone(),
    }));

    let all_affected = !all_reasons.is_empty();
    let mut components = Vec::new();
    if all_affected {
        for (index, reasons) in own.into_iter().enumerate() {
            let mut reasons = reasons;
            reasons.extend(all_reasons.iter().cloned());
            components.push(affected(graph, index, 0, reasons, None));
        }
    } else {
        components = walk(graph, own);
    }
    components.sort_by(|a, b| {
        a.distance
            .cmp(&b.distance)
            .then_with(|| a.name.cmp(&b.name))
    });
    BlastRadius {
        schema_version: SCHEMA_VERSION,
        changed_files,
        total_components: count,
        components,
        unowned_files,
        ignored_files,
        all_affected,
        all_reasons,
    }
}

/// The components whose directory is the longest prefix of `file` (several when packages
/// of different ecosystems share a directory).
fn longest_prefix_owners(by_root: &HashMap<&str, Vec<usize>>, file: &str) -> Vec<usize> {
    let mut dir = file;
    loop {
        if let Some(owners) = by_root.get(dir) {
            return owners.clone();
        }
        if dir.is_empty() {
            return Vec::new();
        }
        dir = super::paths::parent(dir);
    }
}

/// Breadth-first over reverse dependencies from the components that own changed files.
fn walk(graph: &ComponentGraph, own: Vec<Vec<Reason>>) -> Vec<Affected> {
    let count = graph.components.len();
    let mut dependents = vec![Vec::new(); count];
    for (index, component) in graph.components.iter().enumerate() {
        for &dependency in &component.dependencies {
            if dependency != index {
                dependents[dependency].push(index);
            }
        }
    }
    let mut distance: Vec<Option<usize>> = vec![None; count];
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut queue = VecDeque::new();
    for (index, reasons) in own.iter().enumerate() {
        if !reasons.is_empty() {
            distance[index] = Some(0);
            queue.push_back(index);
        }
    }
    while let Some(current) = queue.pop_front() {
        let Some(here) = distance[current] else {
            continue;
        };
        for &dependent in &dependents[current] {
            match distance[dependent] {
                None => {
                    distance[dependent] = Some(here + 1);
                    predecessors[dependent].push(current);
                    queue.push_back(dependent);
                }
                Some(there) if there == here + 1 => predecessors[dependent].push(current),
                Some(_) => {}
            }
        }
    }
    for list in &mut predecessors {
        list.sort_unstable();
        list.dedup();
    }
    // The first predecessor chain from `index` down to a direct component.
    let chain = |index: usize| -> Vec<String> {
        let mut path = vec![graph.components[index].name.clone()];
        let mut current = index;
        while let Some(&next) = predecessors[current].first() {
            path.push(graph.components[next].name.clone());
            current = next;
        }
        path
    };
    let mut out = Vec::new();
    for (index, reasons) in own.into_iter().enumerate() {
        let Some(steps) = distance[index] else {
            continue;
        };
        if steps == 0 {
            out.push(affected(graph, index, 0, reasons, None));
            continue;
        }
        let reasons = predecessors[index]
            .iter()
            .map(|&predecessor| {
                let mut path = vec![graph.components[index].name.clone()];
                path.extend(chain(predecessor));
                Reason::Dependency { path }
            })
            .collect();
        let via = predecessors[index].first().copied();
        out.push(affected(graph, index, steps, reasons, via));
    }
    out
}

fn affected(
    graph: &ComponentGraph,
    index: usize,
    distance: usize,
    reasons: Vec<Reason>,
    via: Option<usize>,
) -> Affected {
    let component = &graph.components[index];
    Affected {
        name: component.name.clone(),
        root: component
            .root
            .as_deref()
            .map(|root| display_dir(root).to_owned()),
        ecosystem: component.ecosystem,
        direct: distance == 0,
        distance,
        reasons,
        index,
        via,
    }
}

/// One test command to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TestCommand {
    /// The component it tests (the nearest one, when several share the command).
    pub component: String,
    /// The shell command, run with `sh -c` at the repository root.
    pub command: String,
    /// Other affected components with the same command.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_for: Vec<String>,
}

/// The impacted tests of a blast radius.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImpactedTests {
    /// The commands, deduplicated, nearest components first.
    pub tests: Vec<TestCommand>,
    /// Affected components without a test command.
    pub untested: Vec<String>,
}

/// The test commands of the affected components, in the blast radius's order (direct
/// components first), each command once.
pub fn impacted_tests(graph: &ComponentGraph, radius: &BlastRadius) -> ImpactedTests {
    let mut out = ImpactedTests::default();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for affected in &radius.components {
        let Some(command) = graph
            .components
            .get(affected.index)
            .and_then(|component| component.test.as_deref())
        else {
            out.untested.push(affected.name.clone());
            continue;
        };
        if let Some(&position) = seen.get(command) {
            out.tests[position].also_for.push(affected.name.clone());
            continue;
        }
        seen.insert(command, out.tests.len());
        out.tests.push(TestCommand {
            component: affected.name.clone(),
            command: command.to_owned(),
            also_for: Vec::new(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impact::discover::{Package, Via, Workspace};
    use crate::impact::graph;

    fn policy(extra: &str) -> Policy {
        match crate::policy::load("Astrixfile.ax", &format!("version = 1\n{extra}")) {
            Ok((policy, _)) => policy,
            Err(diagnostics) => panic!("{diagnostics:#?}"),
        }
    }

    /// A Cargo workspace: cli → api → core, tool independent, plus `web` (declared, paths
    /// `web/**`, depends on api) when the policy declares it.
    fn fixture(policy: &Policy) -> ComponentGraph {
        let package = |name: &str, dependencies: &[&str]| Package {
            name: name.to_owned(),
            root: format!("crates/{name}"),
            dependencies: dependencies
                .iter()
                .map(|name| format!("crates/{name}"))
                .collect(),
            test: Some(format!("cargo test -p {name}")),
        };
        let workspace = Workspace {
            ecosystem: Ecosystem::Cargo,
            root: String::new(),
            manifests: vec!["Cargo.toml".to_owned()],
            packages: vec![
                package("api", &["core"]),
                package("cli", &["api"]),
                package("core", &[]),
                package("tool", &[]),
            ],
            via: Via::Manifests,
        };
        graph::build(&policy.components, &[workspace], Vec::new())
    }

    fn summary(radius: &BlastRadius) -> Vec<String> {
        radius
            .components
            .iter()
            .map(|affected| {
                let reasons: Vec<String> = affected.reasons.iter().map(Reason::describe).collect();
                format!(
                    "{} d={} {}",
                    affected.name,
                    affected.distance,
                    reasons.join("; ")
                )
            })
            .collect()
    }

    fn files(list: &[&str]) -> Vec<String> {
        list.iter().map(|file| (*file).to_owned()).collect()
    }

    #[test]
    fn a_leaf_change_walks_up_the_chain() {
        let policy = policy("");
        let graph = fixture(&policy);
        let radius = analyze(&graph, &policy, &files(&["crates/core/src/lib.rs"]));
        assert_eq!(
            summary(&radius),
            [
                "core d=0 changed: crates/core/src/lib.rs",
                "api d=1 depends: api → core",
                "cli d=2 depends: cli → api → core",
            ]
        );
        assert!(!radius.all_affected);
        assert_eq!(radius.impacted(), 3);
    }

    #[test]
    fn a_root_change_affects_only_itself() {
        let policy = policy("");
        let graph = fixture(&policy);
        let radius = analyze(&graph, &policy, &files(&["crates/cli/src/main.rs"]));
        assert_eq!(
            summary(&radius),
            ["cli d=0 changed: crates/cli/src/main.rs"]
        );
    }

    #[test]
    fn global_and_unowned_files_affect_everything() {
        let policy = policy("");
        let graph = fixture(&policy);
        let radius = analyze(&graph, &policy, &files(&["Cargo.lock", "README.md"]));
        assert!(radius.all_affected);
        assert_eq!(radius.impacted(), 4);
        assert_eq!(radius.unowned_files, ["README.md"]);
        assert_eq!(
            radius.all_reasons,
            [
                Reason::Global {
                    file: "Cargo.lock".to_owned()
                },
                Reason::Unowned {
                    file: "README.md".to_owned()
                }
            ]
        );
        assert!(radius.components.iter().all(|affected| affected.direct));
    }

    #[test]
    fn ignored_files_affect_nothing() {
        let policy = policy("[impact]\nignore = [\"*.md\"]\n");
        let graph = fixture(&policy);
        let radius = analyze(
            &graph,
            &policy,
            &files(&["README.md", "crates/tool/README.md"]),
        );
        assert_eq!(radius.ignored_files.len(), 2);
        assert!(radius.components.is_empty() && !radius.all_affected);
    }

    #[test]
    fn declared_components_own_their_paths_and_depend_on_discovered_ones() {
        let policy = policy(
            "[[component]]\nname = \"web\"\npaths = [\"web/**\", \"crates/api/openapi.yaml\"]\ndepends_on = [\"api\"]\ntest = \"npm test\"\n",
        );
        let graph = fixture(&policy);
        let radius = analyze(&graph, &policy, &files(&["crates/core/src/lib.rs"]));
        assert_eq!(
            summary(&radius),
            [
                "core d=0 changed: crates/core/src/lib.rs",
                "api d=1 depends: api → core",
                "cli d=2 depends: cli → api → core",
                "web d=2 depends: web → api → core",
            ]
        );
        // A declared pattern wins over the directory that holds the file.
        let radius = analyze(&graph, &policy, &files(&["crates/api/openapi.yaml"]));
        assert_eq!(
            summary(&radius),
            ["web d=0 changed: crates/api/openapi.yaml"]
        );
        let tests = impacted_tests(&graph, &analyze(&graph, &policy, &files(&["crates/api/x"])));
        let commands: Vec<&str> = tests
            .tests
            .iter()
            .map(|test| test.command.as_str())
            .collect();
        assert_eq!(
            commands,
            ["cargo test -p api", "cargo test -p cli", "npm test"]
        );
    }

    #[test]
    fn every_shortest_path_is_a_reason() {
        let policy = policy("[[component]]\nname = \"app\"\ndepends_on = [\"api\", \"tool\"]\n");
        let graph = fixture(&policy);
        let radius = analyze(
            &graph,
            &policy,
            &files(&["crates/api/src/lib.rs", "crates/tool/src/lib.rs"]),
        );
        assert_eq!(
            summary(&radius),
            [
                "api d=0 changed: crates/api/src/lib.rs",
                "tool d=0 changed: crates/tool/src/lib.rs",
                "app d=1 depends: app → api; depends: app → tool",
                "cli d=1 depends: cli → api",
            ]
        );
    }

    #[test]
    fn cycles_terminate() {
        let policy = policy(
            "[[component]]\nname = \"a\"\npaths = [\"a/**\"]\ndepends_on = [\"b\"]\n[[component]]\nname = \"b\"\ndepends_on = [\"a\"]\n",
        );
        let graph = graph::build(&policy.components, &[], Vec::new());
        let radius = analyze(&graph, &policy, &files(&["a/x"]));
        assert_eq!(
            summary(&radius),
            ["a d=0 changed: a/x", "b d=1 depends: b → a"]
        );
    }

    #[test]
    fn workspace_manifests_affect_their_members() {
        let policy = policy("");
        let mut graph = fixture(&policy);
        graph.workspace_files = vec![("rust/Cargo.toml".to_owned(), vec![0, 1])];
        let radius = analyze(&graph, &policy, &files(&["rust/Cargo.toml"]));
        assert_eq!(
            summary(&radius),
            [
                "api d=0 workspace manifest changed: rust/Cargo.toml",
                "cli d=0 workspace manifest changed: rust/Cargo.toml",
            ]
        );
    }

    #[test]
    fn problems_make_everything_affected() {
        let policy = policy("");
        let mut graph = fixture(&policy);
        graph
            .problems
            .push("`x/Cargo.toml` is not valid TOML".to_owned());
        let radius = analyze(&graph, &policy, &files(&["crates/core/src/lib.rs"]));
        assert!(radius.all_affected);
        assert_eq!(radius.impacted(), 4);
    }

    #[test]
    fn a_root_package_owns_what_no_member_owns() {
        let policy = policy("");
        let workspace = Workspace {
            ecosystem: Ecosystem::Cargo,
            root: String::new(),
            manifests: vec!["Cargo.toml".to_owned()],
            packages: vec![
                Package {
                    name: "app".to_owned(),
                    root: String::new(),
                    dependencies: vec!["lib".to_owned()],
                    test: None,
                },
                Package {
                    name: "lib".to_owned(),
                    root: "lib".to_owned(),
                    dependencies: Vec::new(),
                    test: None,
                },
            ],
            via: Via::Manifests,
        };
        let graph = graph::build(&[], &[workspace], Vec::new());
        let radius = analyze(&graph, &policy, &files(&["README.md", "lib/src/lib.rs"]));
        assert_eq!(
            summary(&radius),
            [
                "app d=0 changed: README.md",
                "lib d=0 changed: lib/src/lib.rs"
            ]
        );
        assert!(radius.unowned_files.is_empty());
    }

    #[test]
    fn a_long_chain_is_walked_and_drawn() {
        let mut text = String::from(
            "[impact]\ndiscover = false\n[[component]]\nname = \"c0\"\npaths = [\"c0/**\"]\n",
        );
        for index in 1..1_000 {
            text.push_str(&format!(
                "[[component]]\nname = \"c{index}\"\ndepends_on = [\"c{}\"]\n",
                index - 1
            ));
        }
        let policy = policy(&text);
        let graph = graph::build(&policy.components, &[], Vec::new());
        let radius = analyze(&graph, &policy, &files(&["c0/x"]));
        assert_eq!(radius.impacted(), 1_000);
        assert_eq!(radius.components.last().map(|c| c.distance), Some(999));
        let mut out = Vec::new();
        crate::report::impact::write_blast_text(
            &radius,
            &graph,
            &mut out,
            crate::report::style::Style::default(),
        )
        .unwrap();
        assert!(String::from_utf8(out).unwrap().contains("└── c999"));
    }

    #[test]
    fn no_change_affects_nothing() {
        let policy = policy("");
        let graph = fixture(&policy);
        let radius = analyze(&graph, &policy, &[]);
        assert!(radius.components.is_empty() && !radius.all_affected);
    }

    #[test]
    fn shared_commands_run_once() {
        let policy = policy(
            "[impact]\ndiscover = false\n[[component]]\nname = \"a\"\npaths = [\"a/**\"]\ntest = \"make test\"\n[[component]]\nname = \"b\"\ndepends_on = [\"a\"]\ntest = \"make test\"\n[[component]]\nname = \"c\"\ndepends_on = [\"a\"]\n",
        );
        let graph = graph::build(&policy.components, &[], Vec::new());
        let tests = impacted_tests(&graph, &analyze(&graph, &policy, &files(&["a/x"])));
        assert_eq!(
            tests.tests,
            [TestCommand {
                component: "a".to_owned(),
                command: "make test".to_owned(),
                also_for: vec!["b".to_owned()],
            }]
        );
        assert_eq!(tests.untested, ["c"]);
    }
}
