//! What to do next, for a change the gate stopped: most useful first.

use crate::eval::{Decision, RuleOutcome};
use crate::intent::{AUTONOMOUS_LLM, HUMAN, ResolvedActor};
use crate::policy::{FILE_NAME, Policy, Verdict};

use super::{COMMITTED_POLICY_INVALID, ResolvedTarget, STAGED_POLICY_INVALID};

/// Who the report of a staged change answers: a `git commit` under way (the hooks), or a
/// person who asked (`astrix check`), for whom no commit is blocked or to be run "again".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// The pre-commit hook of a `git commit` that is under way; `can_amend` when HEAD is a
    /// commit, so that the `git commit` may be an `--amend` (git does not tell the hook).
    PreCommit {
        /// HEAD is a commit.
        can_amend: bool,
    },
    /// The backstop, judging a new commit that `git commit` is making.
    ByCommit,
    /// `astrix check`, run by hand (or by a script) outside any commit.
    ByHand,
}

/// Next steps for a commit that the gate stopped, most useful first.
pub fn commit_next_steps(
    policy: &Policy,
    decision: &Decision,
    actor: &ResolvedActor,
    target: &ResolvedTarget,
    asked: Asked,
) -> Vec<String> {
    let (commit_again, commit_it) = match asked {
        Asked::PreCommit { .. } | Asked::ByCommit => {
            ("run the same `git commit` again", "commit again")
        }
        Asked::ByHand => ("commit it", "commit"),
    };
    // One approval for the whole `git commit --amend`: the amend's covers both hooks, while
    // a plain one covers only pre-commit's view (what changed since HEAD).
    let amend = match asked {
        Asked::PreCommit { can_amend: true } => {
            " (for a `git commit --amend`, `astrix approve --amend`: it approves the whole amended commit, which both hooks judge)"
        }
        _ => "",
    };
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
            "the staged {FILE_NAME} is invalid: fix the errors listed above (`astrix validate` shows them), `git add` it, and {commit_it}"
        ));
    }
    if any(&[COMMITTED_POLICY_INVALID]) {
        steps.push(format!(
            "the committed {FILE_NAME} is invalid, so the built-in default judged this change: repair the file, and have a human run `astrix approve` to let the repair through"
        ));
    }
    // A denial by a rule that names environments: the branch is the problem.
    let denied_for_env = denied_by_an_env_rule(policy, decision, &deciding);
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
            // A person is told to approve, not to ask one; an agent is told to ask (and
            // `astrix approve` refuses to run for it).
            let who = if actor.kind == HUMAN {
                "review the staged change yourself and run `astrix approve` in this repository, at your own terminal"
            } else {
                "ask a human to review the staged change and run `astrix approve` in this repository"
            };
            steps.push(format!("{or}{who}{amend}; then {commit_again}"));
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
            match asked {
                Asked::PreCommit { .. } | Asked::ByCommit => "`git commit --no-verify` does not skip astrix: the reference-transaction hook judges the commit again",
                Asked::ByHand => "`git commit --no-verify` would not skip astrix: the reference-transaction hook judges the commit too",
            }
            .to_owned(),
        );
    }
    steps
}

/// Next steps for a branch update the backstop stopped because of commits it would gain
/// that were not staged here (a rewrite, commits from elsewhere): they are approved, or
/// changed, as commits, not as a staged change.
pub fn update_next_steps(
    policy: &Policy,
    decision: &Decision,
    target: &ResolvedTarget,
    branch: &str,
    tip: &str,
    retry: &str,
) -> Vec<String> {
    let mut steps = Vec::new();
    if decision.allowed() {
        return steps;
    }
    let deciding: Vec<&RuleOutcome> = decision.deciding_outcomes().collect();
    let denied_for_env = denied_by_an_env_rule(policy, decision, &deciding);
    if denied_for_env {
        steps.push(format!(
            "`{branch}` targets `{}`: moving it over these commits here (`merge`, `reset`, `branch -f`, `pull`, `rebase`) is judged as your change to `{}`; put them on a feature branch instead and open a pull request",
            target.env, target.env
        ));
    }
    match decision.verdict {
        Verdict::RequireApproval => steps.push(format!(
            "ask a human to review what `{branch}` would gain and run `astrix approve --branch {branch} --tip {tip}` in this repository; then run {retry} again"
        )),
        Verdict::Deny => steps.push(
            "approval cannot lift a denial: change or drop the denied commit (`git rebase -i`) so that no rule denies it"
                .to_owned(),
        ),
        Verdict::Allow => {}
    }
    steps
}

/// Next steps for an amend the backstop stopped: the whole amended commit is what is
/// approved (`astrix approve --amend`), or changed.
pub fn amend_next_steps(decision: &Decision) -> Vec<String> {
    match decision.verdict {
        Verdict::RequireApproval if !decision.allowed() => vec![
            "ask a human to review the amended commit and run `astrix approve --amend` in this repository; then run the same `git commit --amend` again".to_owned(),
        ],
        Verdict::Deny => vec![
            "approval cannot lift a denial: change what is staged so that no rule denies the amended commit".to_owned(),
        ],
        _ => Vec::new(),
    }
}

/// Whether `decision` denies through a rule that names environments: then the branch the
/// change goes to is the problem, not the change.
fn denied_by_an_env_rule(policy: &Policy, decision: &Decision, deciding: &[&RuleOutcome]) -> bool {
    decision.verdict == Verdict::Deny
        && deciding.iter().any(|outcome| {
            policy
                .rules
                .iter()
                .any(|rule| rule.id == outcome.id && rule.env.is_some())
        })
}
