//! The environment a change targets: the first `[[environment]]` entry that matches its
//! branch; else `ASTRIX_TARGET_ENV`; else `development`.

use serde::Serialize;

use crate::env::{ASTRIX_TARGET_ENV, EnvSnapshot};
use crate::policy::Policy;

/// The environment a change targets when nothing else says.
pub const DEFAULT_TARGET: &str = "development";

/// The target environment and how it was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedTarget {
    /// `target.env`.
    pub env: String,
    /// The branch the change goes to, if there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// How the environment was found, for the report.
    pub decided_by: String,
}

/// The target of a change on `branch` (SPEC §6): the first `[[environment]]` entry that
/// matches the branch; else `ASTRIX_TARGET_ENV`; else `development`. The variable never
/// downgrades a branch that an entry matches.
pub fn resolve_target(policy: &Policy, branch: Option<&str>, env: &EnvSnapshot) -> ResolvedTarget {
    if let Some(branch) = branch
        && let Some((environment, pattern)) = policy.environment_for_branch(branch)
    {
        return ResolvedTarget {
            env: environment.name.clone(),
            branch: Some(branch.to_owned()),
            decided_by: format!(
                "branch `{branch}` matches `{pattern}` of [[environment]] `{}`",
                environment.name
            ),
        };
    }
    let unmatched = match branch {
        Some(branch) => format!("branch `{branch}` matches no [[environment]]"),
        None => "no branch (detached HEAD)".to_owned(),
    };
    match env.get(ASTRIX_TARGET_ENV).filter(|value| !value.is_empty()) {
        Some(value) => ResolvedTarget {
            env: value.to_owned(),
            branch: branch.map(str::to_owned),
            decided_by: format!("{ASTRIX_TARGET_ENV}={value} ({unmatched})"),
        },
        None => ResolvedTarget {
            env: DEFAULT_TARGET.to_owned(),
            branch: branch.map(str::to_owned),
            decided_by: format!("default `{DEFAULT_TARGET}` ({unmatched})"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::load;

    fn policy() -> Policy {
        let text = r#"
version = 1
[[environment]]
name = "production"
branches = ["main", "release/*"]
[[environment]]
name = "staging"
branches = ["develop"]
"#;
        match load("Astrixfile.ax", text) {
            Ok((policy, _)) => policy,
            Err(diagnostics) => panic!("{diagnostics:?}"),
        }
    }

    #[test]
    fn branch_entries_decide_first() {
        let env = EnvSnapshot::from_pairs([(ASTRIX_TARGET_ENV, "development")]);
        let target = resolve_target(&policy(), Some("release/2.0"), &env);
        assert_eq!(target.env, "production");
        assert!(
            target.decided_by.contains("`release/*`"),
            "{}",
            target.decided_by
        );
    }

    #[test]
    fn variable_applies_only_when_no_entry_matches() {
        let env = EnvSnapshot::from_pairs([(ASTRIX_TARGET_ENV, "staging")]);
        assert_eq!(
            resolve_target(&policy(), Some("feature/x"), &env).env,
            "staging"
        );
        assert_eq!(resolve_target(&policy(), None, &env).env, "staging");
    }

    #[test]
    fn default_is_development() {
        let target = resolve_target(&policy(), Some("feature"), &EnvSnapshot::default());
        assert_eq!(target.env, DEFAULT_TARGET);
        assert!(target.decided_by.contains("matches no [[environment]]"));
        let detached = resolve_target(&policy(), None, &EnvSnapshot::default());
        assert!(detached.decided_by.contains("detached"));
    }
}
