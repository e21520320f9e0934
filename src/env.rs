//! The environment: the one module that reads environment variables.
//!
//! Everything else receives an [`EnvSnapshot`], so that actor detection and target
//! selection are pure functions of it and can be tested without touching the process.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};

use crate::intent::{AUTONOMOUS_LLM, HUMAN, ResolvedActor};

/// Explicit actor type (`human`, `autonomous_llm`, …); markers below override it upwards.
pub const ASTRIX_ACTOR_TYPE: &str = "ASTRIX_ACTOR_TYPE";
/// Explicit actor id.
pub const ASTRIX_ACTOR_ID: &str = "ASTRIX_ACTOR_ID";
/// Target environment when no `[[environment]]` entry matches the branch.
pub const ASTRIX_TARGET_ENV: &str = "ASTRIX_TARGET_ENV";
/// The cargo binary that `astrix blast-radius` asks for `cargo metadata`, as Cargo sets it
/// for the tools it runs; default `cargo` from `PATH`.
pub const CARGO: &str = "CARGO";
/// Set by `astrix ci` for a `[tests] collect` command: the job's own checkout, where the
/// project's dependencies are installed.
pub const ASTRIX_CHECKOUT: &str = "ASTRIX_CHECKOUT";
/// Where temporary files go (the copies `[tests] collect` runs in); default `/tmp`.
pub const TMPDIR: &str = "TMPDIR";
/// Disables colour (<https://no-color.org>).
pub const NO_COLOR: &str = "NO_COLOR";

/// `true` on GitHub Actions: `astrix ci` adds workflow-command annotations.
pub const GITHUB_ACTIONS: &str = "GITHUB_ACTIONS";
/// The file a GitHub Actions step appends its Markdown job summary to.
pub const GITHUB_STEP_SUMMARY: &str = "GITHUB_STEP_SUMMARY";
/// The branch a pull request goes to, on GitHub Actions (`pull_request` events only).
pub const GITHUB_BASE_REF: &str = "GITHUB_BASE_REF";
/// The branch a pull request comes from, on GitHub Actions (`pull_request` events only).
pub const GITHUB_HEAD_REF: &str = "GITHUB_HEAD_REF";
/// The workflow file that runs the job and its ref, on GitHub Actions
/// (`owner/repo/.github/workflows/astrix.yml@refs/heads/main`).
pub const GITHUB_WORKFLOW_REF: &str = "GITHUB_WORKFLOW_REF";

/// The repository directory git points hooks at (relative to the current directory).
pub const GIT_DIR: &str = "GIT_DIR";
/// The work tree, when it is not the parent of the repository directory.
pub const GIT_WORK_TREE: &str = "GIT_WORK_TREE";
/// The index to read instead of `$GIT_DIR/index`; git sets it for `git commit -a` and
/// `git commit <paths>` (relative values are relative to the current directory).
pub const GIT_INDEX_FILE: &str = "GIT_INDEX_FILE";
/// The common directory of a linked worktree.
pub const GIT_COMMON_DIR: &str = "GIT_COMMON_DIR";
/// Colon-separated directories at which repository discovery stops.
pub const GIT_CEILING_DIRECTORIES: &str = "GIT_CEILING_DIRECTORIES";
/// When true, the system git configuration is not read.
pub const GIT_CONFIG_NOSYSTEM: &str = "GIT_CONFIG_NOSYSTEM";
/// The system git configuration file, instead of `/etc/gitconfig`.
pub const GIT_CONFIG_SYSTEM: &str = "GIT_CONFIG_SYSTEM";
/// The global git configuration file, instead of `~/.gitconfig` and the XDG one.
pub const GIT_CONFIG_GLOBAL: &str = "GIT_CONFIG_GLOBAL";
/// The number of `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>` pairs.
pub const GIT_CONFIG_COUNT: &str = "GIT_CONFIG_COUNT";
/// Configuration given with `git -c key=value`, which git passes on to hooks.
pub const GIT_CONFIG_PARAMETERS: &str = "GIT_CONFIG_PARAMETERS";
/// The home directory (global git configuration lives there).
pub const HOME: &str = "HOME";
/// The XDG configuration directory (`$XDG_CONFIG_HOME/git/config`).
pub const XDG_CONFIG_HOME: &str = "XDG_CONFIG_HOME";

/// Variables that coding agents set in the processes they start, and the agent each names.
pub const AGENT_MARKERS: &[(&str, &str)] = &[
    ("CLAUDECODE", "claude-code"),
    ("CODEX_SANDBOX", "codex"),
    ("CODEX_THREAD_ID", "codex"),
    ("CODEX_CI", "codex"),
    ("GEMINI_CLI", "gemini-cli"),
    ("COPILOT_CLI", "copilot-cli"),
    ("CURSOR_AGENT", "cursor"),
    ("CLINE_ACTIVE", "cline"),
    ("AUGMENT_AGENT", "augment"),
    ("OPENCODE", "opencode"),
    ("AI_AGENT", "ai-agent"),
    ("AGENT", "agent"),
];

/// The variables astrix looks at, read once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvSnapshot {
    vars: BTreeMap<String, OsString>,
}

impl EnvSnapshot {
    /// Reads the process environment.
    #[expect(
        clippy::disallowed_methods,
        reason = "this module is the one place that reads the environment"
    )]
    pub fn from_process() -> Self {
        Self {
            vars: std::env::vars_os()
                .filter_map(|(key, value)| key.into_string().ok().map(|key| (key, value)))
                .collect(),
        }
    }

    /// A snapshot with exactly these variables (for tests and for callers that build one).
    pub fn from_pairs<K: Into<String>, V: Into<OsString>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        Self {
            vars: pairs
                .into_iter()
                .map(|(key, value)| (key.into(), value.into()))
                .collect(),
        }
    }

    /// The value of `name` when it is set to valid UTF-8 (possibly empty).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).and_then(|value| value.to_str())
    }

    /// The raw value of `name` when it is set, also when it is not valid UTF-8 (paths).
    pub fn get_os(&self, name: &str) -> Option<&OsStr> {
        self.vars.get(name).map(OsString::as_os_str)
    }

    /// Every variable, for a child process that must see the same environment (git, when
    /// astrix reads a reftable repository's references through it).
    pub fn vars(&self) -> impl Iterator<Item = (&str, &OsStr)> {
        self.vars
            .iter()
            .map(|(key, value)| (key.as_str(), value.as_os_str()))
    }

    /// Whether `name` is set to a non-empty value.
    pub fn is_set_non_empty(&self, name: &str) -> bool {
        self.vars.get(name).is_some_and(|value| !value.is_empty())
    }

    /// The directory for temporary files: `TMPDIR`, else `/tmp`.
    pub fn temp_dir(&self) -> std::path::PathBuf {
        self.get_os(TMPDIR)
            .filter(|dir| !dir.is_empty())
            .map_or_else(
                || std::path::PathBuf::from("/tmp"),
                std::path::PathBuf::from,
            )
    }

    /// Whether colour may be used (a terminal is checked separately).
    pub fn colour_allowed(&self) -> bool {
        !self.is_set_non_empty(NO_COLOR)
    }
}

/// Works out the actor from the environment (SPEC §6).
///
/// Agent markers (the built-in ones, then `extra_markers` from `[actors].agent_env`) only
/// escalate: a marker with a non-empty value makes the actor `autonomous_llm` whatever
/// `ASTRIX_ACTOR_TYPE` says.
pub fn resolve_actor(env: &EnvSnapshot, extra_markers: &[String]) -> ResolvedActor {
    let explicit_id = env
        .get(ASTRIX_ACTOR_ID)
        .filter(|id| !id.is_empty())
        .map(str::to_owned);
    let builtin = AGENT_MARKERS
        .iter()
        .map(|(name, agent)| (*name, (*agent).to_owned()));
    let extra = extra_markers
        .iter()
        .map(|name| (name.as_str(), name.to_ascii_lowercase().replace('_', "-")));
    if let Some((marker, agent)) = builtin
        .chain(extra)
        .find(|(name, _)| env.is_set_non_empty(name))
    {
        let explicit = env.get(ASTRIX_ACTOR_TYPE).filter(|kind| !kind.is_empty());
        let decided_by = match explicit {
            Some(kind) if kind != AUTONOMOUS_LLM => {
                format!("agent marker `{marker}` (overrides {ASTRIX_ACTOR_TYPE}={kind})")
            }
            _ => format!("agent marker `{marker}`"),
        };
        return ResolvedActor {
            kind: AUTONOMOUS_LLM.to_owned(),
            id: explicit_id.or(Some(agent)),
            decided_by,
        };
    }
    match env.get(ASTRIX_ACTOR_TYPE).filter(|kind| !kind.is_empty()) {
        Some(kind) => ResolvedActor {
            kind: kind.to_owned(),
            id: explicit_id,
            decided_by: format!("{ASTRIX_ACTOR_TYPE}={kind}"),
        },
        None => ResolvedActor {
            kind: HUMAN.to_owned(),
            id: explicit_id,
            decided_by: "default (no agent marker and no ASTRIX_ACTOR_TYPE)".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_human() {
        let actor = resolve_actor(&EnvSnapshot::default(), &[]);
        assert_eq!(actor.kind, HUMAN);
        assert!(actor.decided_by.starts_with("default"));
    }

    #[test]
    fn explicit_type_is_used() {
        let env = EnvSnapshot::from_pairs([(ASTRIX_ACTOR_TYPE, "bot"), (ASTRIX_ACTOR_ID, "ci")]);
        let actor = resolve_actor(&env, &[]);
        assert_eq!(
            (actor.kind.as_str(), actor.id.as_deref()),
            ("bot", Some("ci"))
        );
    }

    #[test]
    fn each_marker_makes_an_agent() {
        for (marker, agent) in AGENT_MARKERS {
            let env = EnvSnapshot::from_pairs([(*marker, "1")]);
            let actor = resolve_actor(&env, &[]);
            assert_eq!(actor.kind, AUTONOMOUS_LLM, "{marker}");
            assert_eq!(actor.id.as_deref(), Some(*agent));
            assert!(actor.decided_by.contains(marker));
        }
    }

    #[test]
    fn empty_marker_does_not_count() {
        let env = EnvSnapshot::from_pairs([("CLAUDECODE", "")]);
        assert_eq!(resolve_actor(&env, &[]).kind, HUMAN);
    }

    #[test]
    fn marker_wins_over_explicit_human() {
        let env = EnvSnapshot::from_pairs([("CLAUDECODE", "1"), (ASTRIX_ACTOR_TYPE, "human")]);
        let actor = resolve_actor(&env, &[]);
        assert_eq!(actor.kind, AUTONOMOUS_LLM);
        assert!(
            actor
                .decided_by
                .contains("overrides ASTRIX_ACTOR_TYPE=human")
        );
    }

    #[test]
    fn extra_markers_from_the_policy() {
        let env = EnvSnapshot::from_pairs([("MY_AGENT_RUNNER", "yes")]);
        let actor = resolve_actor(&env, &["MY_AGENT_RUNNER".to_owned()]);
        assert_eq!(actor.kind, AUTONOMOUS_LLM);
        assert_eq!(actor.id.as_deref(), Some("my-agent-runner"));
    }
}
