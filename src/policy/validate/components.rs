//! The blast radius: `[impact]` (`ignore`, `global` and `discover`) and `[[component]]`
//! (unique names, `depends_on`, and a warning for each cycle).

use std::collections::{HashMap, HashSet};

use super::Names;
use crate::diagnostic::{Code, Diagnostic};
use crate::policy::glob::MatcherBuilder;
use crate::policy::load::Loader;
use crate::policy::raw::{At, RawComponent, RawDiscover, RawImpact};
use crate::policy::text::quote;
use crate::policy::{ComponentDecl, Discover, Impact};

/// `[impact] global` when the file does not set it: files that affect every component
/// (root manifests, lockfiles, toolchain and package-manager settings).
pub const DEFAULT_GLOBAL_PATTERNS: &[&str] = &[
    "/Cargo.toml",
    "/package.json",
    "/pnpm-workspace.yaml",
    "/pyproject.toml",
    "Cargo.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lock",
    "bun.lockb",
    "uv.lock",
    "rust-toolchain",
    "rust-toolchain.toml",
    "/.cargo/config",
    "/.cargo/config.toml",
    "/.npmrc",
    "/.yarnrc.yml",
    ".nvmrc",
    ".node-version",
    ".python-version",
    ".tool-versions",
];

impl Loader<'_> {
    /// `[impact]`: `ignore` (default none), `global` (default [`DEFAULT_GLOBAL_PATTERNS`])
    /// and `discover` (default the repository root).
    pub(super) fn validate_impact(
        &mut self,
        raw: &RawImpact,
        builder: &mut MatcherBuilder,
    ) -> Option<Impact> {
        let defaults: Vec<At<String>> = DEFAULT_GLOBAL_PATTERNS
            .iter()
            .map(|pattern| At {
                value: (*pattern).to_owned(),
                span: 0..0,
            })
            .collect();
        let ignore = self.validate_patterns(
            raw.ignore.as_ref().map_or(&[][..], |list| &list.value),
            "ignore",
            builder,
        );
        let global = self.validate_patterns(
            raw.global
                .as_ref()
                .map_or(&defaults[..], |list| &list.value),
            "global",
            builder,
        );
        let discover = match &raw.discover {
            None | Some(RawDiscover::Flag(true)) => Some(Discover::Roots(vec![String::new()])),
            Some(RawDiscover::Flag(false)) => Some(Discover::Off),
            Some(RawDiscover::Dirs(list)) => {
                let mut roots = Vec::with_capacity(list.value.len());
                let mut ok = true;
                for dir in &list.value {
                    match normal_directory(&dir.value) {
                        Some(root) if !roots.contains(&root) => roots.push(root),
                        Some(_) => {}
                        None => {
                            ok = false;
                            self.report(
                                Diagnostic::new(
                                    Code::InvalidDirectory,
                                    dir.span.clone(),
                                    format!(
                                        "invalid directory {} in `discover`",
                                        quote(&dir.value)
                                    ),
                                )
                                .with_label("not a directory of the repository")
                                .with_help(
                                    "write a directory relative to the repository root with `/` \
                                     separators, such as `\".\"` or `\"web\"`; `..` and absolute \
                                     paths are not allowed",
                                ),
                            );
                        }
                    }
                }
                ok.then_some(Discover::Roots(roots))
            }
        };
        Some(Impact {
            ignore: ignore?,
            global: global?,
            discover: discover?,
        })
    }

    /// `[[component]]`: names unique; `depends_on` names a declared component (or, with
    /// discovery on, possibly a discovered one: that is checked when the graph is built);
    /// cycles are allowed (a change to one member affects them all) but warned about.
    pub(super) fn validate_components(
        &mut self,
        raw: &[RawComponent],
        builder: &mut MatcherBuilder,
        discover: Option<&Discover>,
    ) -> Option<Vec<ComponentDecl>> {
        let mut ok = true;
        let mut lines: HashMap<&str, usize> = HashMap::new();
        let mut components = Vec::with_capacity(raw.len());
        for component in raw {
            let Some(name) = &component.name else {
                ok = false;
                continue;
            };
            if !self.non_empty(name, "component name", "name the component, such as `web`") {
                ok = false;
                continue;
            }
            let line = self.line(name.span.start);
            if let Some(&first) = lines.get(name.value.as_str()) {
                ok = false;
                self.report(
                    Diagnostic::new(
                        Code::DuplicateComponent,
                        name.span.clone(),
                        format!("duplicate component {}", quote(&name.value)),
                    )
                    .with_label(format!("already used on line {first}"))
                    .with_help(format!(
                        "the first component with this name is on line {first}; give each \
                         component its own name, or merge the two entries"
                    )),
                );
                continue;
            }
            lines.insert(&name.value, line);
            let paths = component
                .paths
                .as_ref()
                .map(|list| self.validate_patterns(&list.value, "paths", builder));
            let paths = match paths {
                Some(Some(list)) => Some(list),
                Some(None) => {
                    ok = false;
                    None
                }
                None => None,
            };
            let mut depends_on = Vec::new();
            for dependency in component.depends_on.iter().flat_map(|list| &list.value) {
                if self.non_empty(
                    dependency,
                    "component name in `depends_on`",
                    "remove the empty entry",
                ) {
                    depends_on.push(dependency.value.clone());
                } else {
                    ok = false;
                }
            }
            let test = component.test.as_ref().filter(|test| {
                self.non_empty(
                    test,
                    "`test`",
                    "write the shell command that tests the component, or remove `test`",
                )
            });
            if component.test.is_some() && test.is_none() {
                ok = false;
            }
            components.push(ComponentDecl {
                name: name.value.clone(),
                line,
                paths,
                depends_on,
                test: test.map(|test| test.value.clone()),
            });
        }
        // Names are checked once every entry is known, so that order does not matter.
        let declared = Names::new(components.iter().map(|component| component.name.as_str()));
        if matches!(discover, Some(Discover::Off)) {
            ok &= self.report_unknown_components(raw, &declared);
        }
        self.report_component_cycles(raw, &declared);
        ok.then_some(components)
    }

    /// With discovery off, every `depends_on` name is a declared component; `false` when one
    /// is not (reported).
    fn report_unknown_components(&mut self, raw: &[RawComponent], declared: &Names<'_>) -> bool {
        let mut ok = true;
        for dependency in raw
            .iter()
            .flat_map(|component| component.depends_on.iter().flat_map(|list| &list.value))
        {
            if dependency.value.is_empty() || declared.set.contains(dependency.value.as_str()) {
                continue;
            }
            ok = false;
            let help = match self.suggest(&dependency.value, declared.ordered.iter().copied()) {
                Some(name) => format!("did you mean `{name}`?"),
                None => "name a `[[component]]` of this file; with `discover = false` no \
                         workspace package is a component"
                    .to_owned(),
            };
            self.report(
                Diagnostic::new(
                    Code::UnknownComponent,
                    dependency.span.clone(),
                    format!("unknown component {}", quote(&dependency.value)),
                )
                .with_label("no `[[component]]` has this name")
                .with_help(help),
            );
        }
        ok
    }

    /// Warns once per cycle among declared components, at the `depends_on` entry that
    /// closes it (a depth-first search in file order; iterative, so a long chain cannot
    /// overflow the stack).
    fn report_component_cycles(&mut self, raw: &[RawComponent], declared: &Names<'_>) {
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum State {
            New,
            Open,
            Done,
        }
        let index: HashMap<&str, usize> = declared
            .ordered
            .iter()
            .enumerate()
            .map(|(position, name)| (*name, position))
            .collect();
        // The first entry of each name (duplicates were reported already).
        let mut edges: Vec<Vec<(usize, &At<String>)>> = vec![Vec::new(); index.len()];
        let mut seen = HashSet::new();
        for component in raw {
            let Some(name) = &component.name else {
                continue;
            };
            let Some(&from) = index.get(name.value.as_str()) else {
                continue;
            };
            if !seen.insert(from) {
                continue;
            }
            for dependency in component.depends_on.iter().flat_map(|list| &list.value) {
                if let Some(&to) = index.get(dependency.value.as_str()) {
                    edges[from].push((to, dependency));
                }
            }
        }
        let mut state = vec![State::New; edges.len()];
        let mut cycles = Vec::new();
        for start in 0..edges.len() {
            if state[start] != State::New {
                continue;
            }
            // (node, next edge to follow)
            let mut stack = vec![(start, 0usize)];
            state[start] = State::Open;
            while let Some(top) = stack.last_mut() {
                let node = top.0;
                let Some(&(to, at)) = edges[node].get(top.1) else {
                    state[node] = State::Done;
                    stack.pop();
                    continue;
                };
                top.1 += 1;
                match state[to] {
                    State::New => {
                        state[to] = State::Open;
                        stack.push((to, 0));
                    }
                    State::Open => {
                        let from = stack
                            .iter()
                            .position(|(open, _)| *open == to)
                            .unwrap_or_default();
                        let mut path: Vec<&str> = stack[from..]
                            .iter()
                            .map(|(open, _)| declared.ordered[*open])
                            .collect();
                        path.push(declared.ordered[to]);
                        cycles.push((at.span.clone(), cycle_text(&path)));
                    }
                    State::Done => {}
                }
            }
        }
        for (span, path) in cycles {
            self.report(
                Diagnostic::new(
                    Code::ComponentCycle,
                    span,
                    format!("components depend on each other in a cycle: {path}"),
                )
                .with_label("closes the cycle")
                .with_help(
                    "a change to any component of a cycle affects all of them; remove this \
                     dependency if that is not meant",
                ),
            );
        }
    }
}

/// A cycle of components for a message, `a → b → a`; a long one is shortened.
fn cycle_text(path: &[&str]) -> String {
    const SHOWN: usize = 8;
    if path.len() <= SHOWN {
        return path.join(" → ");
    }
    format!(
        "{} → … → {} ({} components)",
        path[..SHOWN / 2].join(" → "),
        path[path.len() - 2..].join(" → "),
        path.len() - 1
    )
}

/// A directory of `[impact] discover` as a repository-relative path without `./` or a
/// trailing `/` (`""` for the root); `None` when it is absolute, leaves the repository or
/// uses `\\`.
fn normal_directory(dir: &str) -> Option<String> {
    if dir.is_empty() || dir.starts_with('/') || dir.contains('\\') {
        return None;
    }
    let mut parts = Vec::new();
    for part in dir.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::DEFAULT_GLOBAL_PATTERNS;
    use crate::policy::testing::{V, diagnoses, diagnostics};
    use crate::policy::{Discover, load};

    diagnoses! {
        duplicate_component:
            &format!("{V}[[component]]\nname = \"web\"\n[[component]]\nname = \"web\"\n")
            => "duplicate-component", "duplicate component `web`", "\"web\"",
            Some("the first component with this name is on line 3; give each component its own name, or merge the two entries");
        unknown_component_without_discovery:
            &format!("{V}[impact]\ndiscover = false\n[[component]]\nname = \"web\"\n[[component]]\nname = \"e2e\"\ndepends_on = [\"wbe\"]\n")
            => "unknown-component", "unknown component `wbe`", "\"wbe\"",
            Some("did you mean `web`?");
        component_cycle:
            &format!("{V}[[component]]\nname = \"a\"\ndepends_on = [\"b\"]\n[[component]]\nname = \"b\"\ndepends_on = [\"c\"]\n[[component]]\nname = \"c\"\ndepends_on = [\"a\"]\n")
            => "component-cycle", "components depend on each other in a cycle: a → b → c → a", "\"a\"",
            Some("a change to any component of a cycle affects all of them; remove this dependency if that is not meant");
        component_depends_on_itself:
            &format!("{V}[[component]]\nname = \"a\"\ndepends_on = [\"a\"]\n")
            => "component-cycle", "components depend on each other in a cycle: a → a", "\"a\"",
            Some("a change to any component of a cycle affects all of them; remove this dependency if that is not meant");
        empty_component_test:
            &format!("{V}[[component]]\nname = \"web\"\ntest = \"\"\n")
            => "empty-value", "empty `test`", "\"\"",
            Some("write the shell command that tests the component, or remove `test`");
        discover_outside_the_repository:
            &format!("{V}[impact]\ndiscover = [\"web\", \"../x\"]\n")
            => "invalid-directory", "invalid directory `../x` in `discover`", "\"../x\"",
            Some("write a directory relative to the repository root with `/` separators, such as `\".\"` or `\"web\"`; `..` and absolute paths are not allowed");
        invalid_ignore_glob:
            &format!("{V}[impact]\nignore = [\"docs/[a\"]\n")
            => "invalid-glob", "invalid pattern `docs/[a` in `ignore`", "\"docs/[a\"",
            Some("unclosed character class; missing ']'");
    }

    #[test]
    fn components_and_impact_load_into_the_policy() {
        let source = r#"version = 1
[impact]
ignore = ["*.md"]
discover = [".", "./web/", "web"]

[[component]]
name = "web"
paths = ["web/**"]
depends_on = ["core"]
test = "npm test"

[[component]]
name = "e2e"
depends_on = ["web"]
"#;
        let (policy, warnings) = load("Astrixfile.ax", source).unwrap();
        assert!(warnings.items.is_empty(), "{warnings:#?}");
        assert_eq!(
            policy.impact.discover,
            Discover::Roots(vec![String::new(), "web".to_owned()])
        );
        assert_eq!(policy.impact.ignore.patterns, ["*.md"]);
        assert_eq!(
            policy.impact.global.patterns.len(),
            DEFAULT_GLOBAL_PATTERNS.len()
        );
        let names: Vec<&str> = policy.components.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["web", "e2e"]);
        let web = &policy.components[0];
        assert_eq!((web.line, web.test.as_deref()), (7, Some("npm test")));
        assert_eq!(web.depends_on, ["core"]);
        assert!(policy.components[1].paths.is_none());
        let mut hits = vec![false; policy.matcher.list_count()];
        policy
            .matcher
            .matching_lists("web/src/app.ts", &mut hits, &mut Vec::new());
        assert!(hits[web.paths.as_ref().unwrap().list.0 as usize]);
        policy
            .matcher
            .matching_lists("Cargo.lock", &mut hits, &mut Vec::new());
        assert!(hits[policy.impact.global.list.0 as usize]);
    }

    #[test]
    fn discovery_defaults_to_the_root_and_can_be_turned_off() {
        let (policy, _) = load("Astrixfile.ax", V).unwrap();
        assert_eq!(policy.impact.discover, Discover::Roots(vec![String::new()]));
        let off = format!("{V}[impact]\ndiscover = false\n");
        let (policy, _) = load("Astrixfile.ax", &off).unwrap();
        assert_eq!(policy.impact.discover, Discover::Off);
    }

    #[test]
    fn a_long_chain_of_components_is_checked_without_recursion() {
        let mut source = V.to_owned();
        for index in 0..10_000 {
            source.push_str(&format!(
                "[[component]]\nname = \"c{index}\"\ndepends_on = [\"c{}\"]\n",
                index + 1
            ));
        }
        source.push_str("[[component]]\nname = \"c10000\"\ndepends_on = [\"c0\"]\n");
        let found = diagnostics(&source);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].code, "component-cycle");
    }
}
