//! The commit gate's pure parts (SPEC §6): the target of a branch, the intent of a change,
//! the gate's own holds, and the next steps a stopped commit's report shows.
//!
//! Reading the repository is [`crate::git`]'s job and reading the environment
//! [`crate::env`]'s; everything here is a function of their results.

use serde::Serialize;

use crate::env::{ASTRIX_TARGET_ENV, AUTONOMOUS_LLM, EnvSnapshot, ResolvedActor};
use crate::eval::{Decision, RuleOutcome};
use crate::intent::{ActionIntent, Actor, Diff, ModifiesTests, RawCount, RepoPath, Target};
use crate::policy::numeric::Argument;
use crate::policy::{FILE_NAME, Policy, Verdict};

/// The environment a change targets when nothing else says.
pub const DEFAULT_TARGET: &str = "development";

/// The gate rule that holds every change to the policy file.
pub const POLICY_CHANGE: &str = "policy-change";
/// The gate rule that denies a staged policy file that does not validate.
pub const STAGED_POLICY_INVALID: &str = "staged-policy-invalid";
/// The gate rule that holds every change while the committed policy does not validate.
pub const COMMITTED_POLICY_INVALID: &str = "committed-policy-invalid";

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

/// What a change measures, as the git boundary found it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeFacts {
    /// Every modified path (both sides of renames), repository-relative.
    pub files: Vec<String>,
    /// Added text lines, when counted.
    pub lines_added: Option<u64>,
    /// Deleted text lines, when counted.
    pub lines_deleted: Option<u64>,
    /// Binary files, when counted.
    pub binary_files: Option<u64>,
    /// Bytes of added text lines and of added or changed binary files, when counted.
    pub bytes_added: Option<u64>,
    /// Test tampering (SPEC §6.1), when analysed.
    pub tamper: Option<crate::tamper::TamperReport>,
    /// Components in the blast radius (SPEC §8), when a policy reads them.
    pub impacted_components: Option<u64>,
}

/// Why a change's paths cannot form an intent.
#[derive(Debug, thiserror::Error)]
// Not a `#[source]`: the message already includes it, and the error report would print it
// a second time as its cause.
#[error("the change has a path astrix cannot judge: {}", describe_path_error(.0))]
pub struct PathError(crate::intent::RepoPathError);

impl From<crate::intent::RepoPathError> for PathError {
    fn from(error: crate::intent::RepoPathError) -> Self {
        Self(error)
    }
}

/// The problem and its fix. git accepts a backslash in a file name, but an intent's paths do
/// not (SPEC §2, where a backslash would be a second separator that rules written with `/`
/// do not see), so the fix is in the repository, not in how paths are written.
fn describe_path_error(error: &crate::intent::RepoPathError) -> String {
    match error {
        crate::intent::RepoPathError::Backslash(path) => format!(
            "`{path}` contains a backslash, which astrix does not accept in a path; rename the \
             file without it (`git mv`), or unstage it (`git restore --staged`)"
        ),
        other => other.to_string(),
    }
}

/// The intent of a change made by `actor` towards `target`.
pub fn build_intent(
    facts: &ChangeFacts,
    actor: &ResolvedActor,
    target: &ResolvedTarget,
) -> Result<ActionIntent, PathError> {
    let modified_files = facts
        .files
        .iter()
        .map(|path| RepoPath::new(path.clone()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PathError)?;
    // Counts that missed a file are unknown, not zero: a policy on them fails and holds.
    let counted = facts.tamper.as_ref().filter(|report| !report.uncounted);
    let tamper = facts.tamper.as_ref();
    Ok(ActionIntent {
        actor: Actor {
            kind: actor.kind.clone(),
            id: actor.id.clone(),
        },
        target: Target {
            env: target.env.clone(),
        },
        modified_files,
        diff: Diff {
            lines_added: facts.lines_added.map(RawCount::from_u64),
            lines_deleted: facts.lines_deleted.map(RawCount::from_u64),
            binary_files: facts.binary_files.map(RawCount::from_u64),
            bytes_added: facts.bytes_added.map(RawCount::from_u64),
            // A test removed or skipped, or an assertion removed, in any file (test path or
            // not: a Rust `#[cfg(test)]` module lives in `src/`) modifies tests.
            modifies_tests: ModifiesTests(tamper.is_some_and(|report| {
                report.modifies_tests() || report.assertions_removed > 0 || report.uncounted
            })),
            tests_removed: counted.map(|report| RawCount::from_u64(report.tests_removed)),
            test_skips_added: counted.map(|report| RawCount::from_u64(report.test_skips_added)),
            assertions_removed: counted.map(|report| RawCount::from_u64(report.assertions_removed)),
            impacted_components: facts.impacted_components.map(RawCount::from_u64),
        },
        approved: None,
        action: None,
    })
}

/// Whether any rule of `policy` compares line counts (so the gate must compute them).
pub fn needs_line_counts(policy: &Policy) -> bool {
    policy.rules.iter().any(|rule| {
        rule.policy.as_ref().is_some_and(|policy| {
            matches!(
                policy.argument,
                Argument::LinesAdded
                    | Argument::LinesDeleted
                    | Argument::LinesChanged
                    | Argument::BinaryFiles
                    | Argument::BytesAdded
            )
        })
    })
}

/// Whether a rule needs the test-tampering analysis: it reads one of its counts, or its
/// `modifies_tests` condition, which a removed or skipped test escalates.
pub fn needs_tamper(policy: &Policy) -> bool {
    policy.rules.iter().any(|rule| {
        rule.modifies_tests.is_some()
            || rule.policy.as_ref().is_some_and(|policy| {
                matches!(
                    policy.argument,
                    Argument::TestsRemoved | Argument::TestSkipsAdded | Argument::AssertionsRemoved
                )
            })
    })
}

/// Whether a rule reads `impacted_components` (so the gate must build the component graph).
pub fn needs_impact(policy: &Policy) -> bool {
    policy.rules.iter().any(|rule| {
        rule.policy
            .as_ref()
            .is_some_and(|policy| policy.argument == Argument::ImpactedComponents)
    })
}

/// The gate's hold on a change that edits or deletes the policy file.
pub fn policy_change_hold(facts: &ChangeFacts) -> Option<RuleOutcome> {
    facts.files.iter().any(|file| file == FILE_NAME).then(|| {
        RuleOutcome::gate(
            POLICY_CHANGE,
            Verdict::RequireApproval,
            format!(
                "this change edits {FILE_NAME}; a human approves every change to the policy that judges commits"
            ),
            vec![FILE_NAME.to_owned()],
        )
    })
}

/// Next steps for a commit that the gate stopped, most useful first.
pub fn commit_next_steps(
    policy: &Policy,
    decision: &Decision,
    actor: &ResolvedActor,
    target: &ResolvedTarget,
) -> Vec<String> {
    let mut steps = Vec::new();
    let deciding: Vec<&RuleOutcome> = decision.deciding_outcomes().collect();
    let any = |ids: &[&str]| {
        deciding
            .iter()
            .any(|outcome| ids.contains(&outcome.id.as_str()))
    };
    if decision.allowed() {
        return steps;
    }
    if any(&[STAGED_POLICY_INVALID]) {
        steps.push(format!(
            "the staged {FILE_NAME} is invalid: fix the errors listed above (`astrix validate` shows them), `git add` it, and commit again"
        ));
    }
    if any(&[COMMITTED_POLICY_INVALID]) {
        steps.push(format!(
            "the committed {FILE_NAME} is invalid, so the built-in default judged this change: repair the file, and have a human run `astrix approve` to let the repair through"
        ));
    }
    // A denial by a rule that names environments: the branch is the problem.
    let denied_for_env = decision.verdict == Verdict::Deny
        && deciding.iter().any(|outcome| {
            policy
                .rules
                .iter()
                .any(|rule| rule.id == outcome.id && rule.env.is_some())
        });
    if denied_for_env && let Some(branch) = &target.branch {
        steps.push(format!(
                "this branch (`{branch}`) targets `{}`: commit on a feature branch instead (`git switch -c <new-branch>`), and open a pull request",
                target.env
            ));
    }
    let size_limited = deciding.iter().any(|outcome| {
        outcome.policy.as_ref().is_some_and(|policy| {
            !policy.passed
                && ["lines_", "files_changed", "binary_files", "bytes_added"]
                    .iter()
                    .any(|name| policy.policy.contains(name))
        })
    });
    if size_limited {
        steps.push(
            "split the change into smaller commits (`git restore --staged <paths>` unstages part of it)"
                .to_owned(),
        );
    }
    let blast_limited = deciding.iter().any(|outcome| {
        outcome
            .policy
            .as_ref()
            .is_some_and(|policy| !policy.passed && policy.policy.contains("impacted_components"))
    });
    if blast_limited {
        steps.push(
            "`astrix blast-radius` shows which components this change affects and why; split off the files that affect many of them"
                .to_owned(),
        );
    }
    match decision.verdict {
        Verdict::RequireApproval => {
            let or = if steps.is_empty() { "" } else { "or " };
            steps.push(format!(
                "{or}ask a human to review the staged change and run `astrix approve` in this repository; then run the same `git commit` again"
            ));
        }
        Verdict::Deny => {
            steps.push(
                "approval cannot lift a denial: change what is staged so that no rule denies it"
                    .to_owned(),
            );
        }
        Verdict::Allow => {}
    }
    if actor.kind == AUTONOMOUS_LLM {
        steps.push(
            "`git commit --no-verify` does not skip astrix: the reference-transaction hook judges the commit again"
                .to_owned(),
        );
    }
    steps
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

    #[test]
    fn policy_file_changes_are_held() {
        let facts = ChangeFacts {
            files: vec!["Astrixfile.ax".to_owned()],
            ..ChangeFacts::default()
        };
        assert!(policy_change_hold(&facts).is_some());
        let nested = ChangeFacts {
            files: vec!["docs/Astrixfile.ax".to_owned()],
            ..ChangeFacts::default()
        };
        assert!(policy_change_hold(&nested).is_none());
    }
}
