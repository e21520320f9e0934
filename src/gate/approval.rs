//! Approvals of held changes: what a human approves (the staged change, or the whole commit
//! that `git commit --amend` records), the holds it lifts for any actor, and whether a held
//! change is approved as an amend.

use anyhow::bail;

use crate::approvals::{ApprovalKey, ApprovalStore, Lookup};
use crate::env::EnvSnapshot;
use crate::eval::evaluate_with;
use crate::git::{ChangeOptions, Head, Repository};
use crate::intent::{AUTONOMOUS_LLM, ResolvedActor};
use crate::policy::Verdict;
use crate::time::{now_unix, rfc3339};

use super::{
    ChangeToJudge, JudgeOptions, Judgement, astrix_dir, current_branch, judge_change, source,
    staged_policy_problems,
};

/// Whether a held change is approved as an amend of HEAD (`astrix approve --amend`), and if
/// so marks the judgement approved. git does not tell pre-commit that it amends, and judges
/// an amend as the staged change against HEAD; the approval is of the whole commit on top of
/// HEAD's parent. No pass is recorded for it, so the backstop judges the commit git makes:
/// an amend finds the approval, a new commit on top of HEAD does not.
pub fn approved_as_amend(repo: &Repository, judgement: &mut Judgement) -> anyhow::Result<bool> {
    let Some(head) = judgement.parent() else {
        return Ok(false);
    };
    let amend = repo.staged_amend_change(&ChangeOptions::default())?;
    let key = ApprovalKey {
        patch: repo.patch_digest(&amend)?,
        policy_digest: judgement.policy.loaded.provenance.digest.clone(),
        target: judgement.target.env.clone(),
    };
    let parent = repo.commit_info(head)?.parents.first().cloned();
    let Lookup::Approved(found) =
        ApprovalStore::new(&astrix_dir(repo)).lookup(&key, parent.as_deref(), now_unix())?
    else {
        return Ok(false);
    };
    judgement.intent.approved = Some(true);
    judgement.decision.approved = true;
    judgement.stale_approval = None;
    judgement.approval = Some(format!(
        "`{}` by {} <{}> at {}, for `git commit --amend` (the reference-transaction hook checks that this commit is one)",
        found.id,
        found.approver_name,
        found.approver_email,
        rfc3339(found.created),
    ));
    Ok(true)
}

/// Judges the staged content as `git commit --amend` records it: the whole commit that
/// replaces HEAD, on top of HEAD's parent — what the backstop judges and looks an approval
/// up for — not only what changed since HEAD.
pub fn judge_amend(
    cwd: &std::path::Path,
    env: &EnvSnapshot,
) -> anyhow::Result<(Repository, Judgement)> {
    let repo = Repository::open(cwd, env)?;
    let head = repo.head()?;
    let (Head::Branch { commit, .. } | Head::Detached { commit }) = &head else {
        bail!("there is no commit to amend yet");
    };
    let parent = repo.commit_info(commit)?.parents.first().cloned();
    let policy = source::for_repository(&repo, &head)?;
    let branch = current_branch(&repo, &head)?;
    let change = repo.staged_amend_change(&ChangeOptions {
        line_counts: true,
        tamper: true,
    })?;
    let new_policy = staged_policy_problems(&repo, &change)?;
    let judgement = judge_change(
        env,
        &repo,
        ChangeToJudge {
            policy,
            branch,
            change,
            parent,
            new_policy,
            snapshot: crate::git::Snapshot::Index,
            uncollected: Vec::new(),
        },
        JudgeOptions {
            line_counts: true,
            approvals: false,
            tamper: true,
        },
    )?;
    Ok((repo, judgement))
}

/// The holds on the judged content for its actor and for an agent: the rules that hold an
/// agent's commit even when the approver would pass.
pub fn holds_for_any_actor(judgement: &Judgement) -> Vec<(String, Verdict, Vec<String>)> {
    let policy = &judgement.policy.loaded.policy;
    let mut actors = vec![judgement.actor.clone()];
    if judgement.actor.kind != AUTONOMOUS_LLM {
        actors.push(ResolvedActor {
            kind: AUTONOMOUS_LLM.to_owned(),
            id: None,
            decided_by: String::new(),
        });
    }
    let mut holds = Vec::new();
    for actor in actors {
        let mut intent = judgement.intent.clone();
        intent.actor.kind.clone_from(&actor.kind);
        // The gate's own holds (a policy edit, an invalid committed policy) come from the
        // original judgement; they apply to every actor.
        let extra = judgement
            .decision
            .outcomes
            .iter()
            .filter(|outcome| outcome.line == 0)
            .cloned()
            .collect();
        let decision = evaluate_with(policy, &intent, extra);
        if decision.verdict != Verdict::Allow {
            let reasons = decision
                .deciding_outcomes()
                .map(|outcome| format!("[{}] {}", outcome.id, outcome.reason))
                .collect();
            holds.push((actor.kind, decision.verdict, reasons));
        }
    }
    holds
}
