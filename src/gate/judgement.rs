//! A change judged: the actor and the target, the facts and the intent, the gate's own
//! holds beside the policy's rules, the decision, and a recorded approval of a held change.
//! Every entry point — the staged change, a commit, a branch update, a range — comes here.

use anyhow::Context as _;

use crate::approvals::{ApprovalKey, ApprovalStore, Lookup};
use crate::diagnostic::Diagnostics;
use crate::env::{EnvSnapshot, resolve_actor};
use crate::eval::{Decision, RuleOutcome, evaluate_with};
use crate::exit::ExitStatus;
use crate::git::{Change, Repository, Snapshot};
use crate::intent::ActionIntent;
use crate::intent::ResolvedActor;
use crate::policy::{FILE_NAME, Verdict};
use crate::tamper::TamperReport;

use super::source::RepositoryPolicy;
use super::{
    COMMITTED_POLICY_INVALID, ResolvedTarget, STAGED_POLICY_INVALID, analyze_tampering, astrix_dir,
    build_intent, change_facts, needs_impact, needs_tamper, policy_change_hold, resolve_target,
};

/// What the judgement needs to compute.
#[derive(Debug, Clone, Copy, Default)]
pub struct JudgeOptions {
    /// Compute line counts even when no policy needs them (for output).
    pub line_counts: bool,
    /// Look up recorded approvals for a held change.
    pub approvals: bool,
    /// Analyse test tampering even when no rule needs it (for output).
    pub tamper: bool,
}

/// A change (staged, or a commit), judged.
pub struct Judgement {
    /// The commit the change goes on top of (`None` for a repository's first commit).
    pub parent: Option<String>,
    /// The policy that judged, and a committed policy's problems.
    pub policy: RepositoryPolicy,
    /// Who is acting.
    pub actor: ResolvedActor,
    /// Where the change goes.
    pub target: ResolvedTarget,
    /// The staged change.
    pub change: Change,
    /// Its intent (with `approved` set when an approval applies).
    pub intent: ActionIntent,
    /// The decision.
    pub decision: Decision,
    /// The problems of a staged Astrixfile.ax that does not validate.
    pub staged_policy: Option<Diagnostics>,
    /// The test-tampering analysis, when a rule or the output needed it.
    pub tamper: Option<TamperReport>,
    /// The approval that let a held change through.
    pub approval: Option<String>,
    /// Why a recorded approval does not apply, when one exists.
    pub stale_approval: Option<String>,
}

impl Judgement {
    /// The commit the change goes on top of.
    pub fn parent(&self) -> Option<&str> {
        self.parent.as_deref()
    }

    /// The exit status of the decision.
    pub fn status(&self) -> ExitStatus {
        ExitStatus::from_decision(self.decision.verdict, self.decision.approved)
    }
}

/// A change and what surrounds it, ready to be judged.
pub struct ChangeToJudge {
    /// The policy that judges it.
    pub policy: RepositoryPolicy,
    /// The branch it goes to.
    pub branch: Option<String>,
    /// The change.
    pub change: Change,
    /// The commit it goes on top of.
    pub parent: Option<String>,
    /// The problems of the Astrixfile.ax that the change itself brings, when it does not
    /// validate.
    pub new_policy: Option<Diagnostics>,
    /// Where the content the change records is read (its manifests, for the component
    /// graph of `impacted_components`).
    pub snapshot: Snapshot,
    /// The tests the runner no longer collects (`[tests] collect`, `astrix ci`'s range).
    pub uncollected: Vec<crate::tamper::Uncollected>,
}

/// Judges a change: actor and target from the environment and the policy, the gate's own
/// holds, the policy's rules, and a recorded approval of the change's patch when it is held.
pub fn judge_change(
    env: &EnvSnapshot,
    repo: &Repository,
    subject: ChangeToJudge,
    options: JudgeOptions,
) -> anyhow::Result<Judgement> {
    let actor = resolve_actor(env, &subject.policy.loaded.policy.actors.agent_env);
    judge_change_as(env, repo, subject, actor, options)
}

/// [`judge_change`] with an actor found elsewhere than in the environment: `astrix ci`
/// finds it in each commit, since the CI runner's environment is not who made the commits.
pub fn judge_change_as(
    env: &EnvSnapshot,
    repo: &Repository,
    subject: ChangeToJudge,
    actor: ResolvedActor,
    options: JudgeOptions,
) -> anyhow::Result<Judgement> {
    judge_change_for(env, repo, subject, actor, None, Vec::new(), options)
}

/// The test-tampering report of `change`, when the policy or `options` want one or the
/// runner no longer collects some test.
fn tampering(
    repo: &Repository,
    change: &Change,
    rules: &crate::policy::Policy,
    options: JudgeOptions,
    uncollected: Vec<crate::tamper::Uncollected>,
) -> anyhow::Result<Option<crate::tamper::TamperReport>> {
    let mut tamper = if options.tamper || needs_tamper(rules) {
        Some(analyze_tampering(repo, change)?)
    } else {
        None
    };
    if !uncollected.is_empty() {
        tamper
            .get_or_insert_with(Default::default)
            .add_uncollected(uncollected);
    }
    Ok(tamper)
}

/// [`judge_change_as`] for an intent with an `action` (`astrix ci` judges a pull request as
/// a whole as a `merge`), with `holds` of the caller's own beside the policy's rules.
pub fn judge_change_for(
    env: &EnvSnapshot,
    repo: &Repository,
    subject: ChangeToJudge,
    actor: ResolvedActor,
    action: Option<crate::intent::Action>,
    holds: Vec<RuleOutcome>,
    options: JudgeOptions,
) -> anyhow::Result<Judgement> {
    let ChangeToJudge {
        policy,
        branch,
        change,
        parent,
        new_policy,
        snapshot,
        uncollected,
    } = subject;
    let rules = &policy.loaded.policy;
    let target = resolve_target(rules, branch.as_deref(), env);
    let tamper = tampering(repo, &change, rules, options, uncollected)?;
    let mut facts = change_facts(&change, rules, tamper);
    if needs_impact(rules) {
        let count = crate::impact::impacted_components(repo, &snapshot, rules, &facts.files)
            .context("cannot read the component graph of the change")?;
        facts.impacted_components = Some(count);
    }
    let mut intent = build_intent(&facts, &actor, &target)?;
    intent.action = action;

    let mut extra = holds;
    extra.extend(policy_change_hold(&facts));
    if let Some(diagnostics) = &new_policy {
        extra.push(RuleOutcome::gate(
            STAGED_POLICY_INVALID,
            Verdict::Deny,
            format!(
                "the {FILE_NAME} in this change does not validate ({} error{}); a policy that cannot be read never lands",
                diagnostics.error_count(),
                if diagnostics.error_count() == 1 { "" } else { "s" }
            ),
            vec![FILE_NAME.to_owned()],
        ));
    }
    if policy.committed_invalid.is_some() {
        extra.push(RuleOutcome::gate(
            COMMITTED_POLICY_INVALID,
            Verdict::RequireApproval,
            format!(
                "the committed {FILE_NAME} does not validate, so the built-in default judged this change; a human approves until it is repaired"
            ),
            Vec::new(),
        ));
    }
    let mut decision = evaluate_with(rules, &intent, extra);
    if let Some(tamper) = &facts.tamper {
        let changed: Vec<&str> = tamper
            .test_changes()
            .map(|file| file.path.as_str())
            .collect();
        decision.name_test_changes(rules, &changed);
    }

    let mut approval = None;
    let mut stale_approval = None;
    if options.approvals && decision.verdict == Verdict::RequireApproval {
        let key = ApprovalKey {
            patch: repo.patch_digest(&change)?,
            policy_digest: policy.loaded.provenance.digest.clone(),
            target: target.env.clone(),
        };
        let store = ApprovalStore::new(&astrix_dir(repo));
        match store.lookup(&key, parent.as_deref(), crate::time::now_unix())? {
            Lookup::Approved(found) => {
                intent.approved = Some(true);
                decision.approved = true;
                approval = Some(format!(
                    "`{}` by {} <{}> at {}{}",
                    found.id,
                    found.approver_name,
                    found.approver_email,
                    crate::time::rfc3339(found.created),
                    found
                        .reason
                        .as_deref()
                        .map(|reason| format!(" ({reason})"))
                        .unwrap_or_default()
                ));
            }
            Lookup::Stale(why) => stale_approval = Some(why),
            Lookup::None => {}
        }
    }

    Ok(Judgement {
        parent,
        policy,
        actor,
        target,
        change,
        intent,
        decision,
        staged_policy: new_policy,
        tamper: facts.tamper,
        approval,
        stale_approval,
    })
}
