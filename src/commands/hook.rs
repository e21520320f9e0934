//! `astrix hook <name>`: what the shims that `astrix install` writes into the hooks
//! directory run, and what `.pre-commit-hooks.yaml` runs under pre-commit and prek.
//!
//! - `pre-commit` judges the staged change (as `astrix check`), appends the decision to the
//!   audit log, and on a pass records that exact parent and tree for the backstop.
//! - `reference-transaction` is the backstop (SPEC §6): git runs it for every ref update,
//!   also under `git commit --no-verify`, and a non-zero exit in the `prepared` state aborts
//!   the update. See [`super::backstop`].
//! - `commit-msg` and `prepare-commit-msg` add `Astrix-Actor:` and `Astrix-Decision:`
//!   trailers to the commits that `[commit] trailers` names (agents' by default). See
//!   [`super::trailers`].

use std::io::Write as _;

use anyhow::{Context as _, bail};
use serde::{Deserialize, Serialize};

use super::check::{
    JudgeOptions, Judgement, astrix_dir, judge_staged, write_policy_diagnostics, write_report,
};
use crate::app::Context;
use crate::approvals::{ApprovalKey, ApprovalStore, Lookup};
use crate::audit::{AuditEntry, AuditLog};
use crate::cli::{Format, HookArgs};
use crate::exit::ExitStatus;
use crate::git::Repository;
use crate::time::{now_unix, rfc3339};

/// The file (in the worktree's own git directory) where pre-commit records the change it
/// passed, so that the backstop does not judge the same commit twice.
pub const PASS_FILE: &str = "astrix-pre-commit-pass.json";

/// What pre-commit passed: the backstop skips a new commit with exactly these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassRecord {
    /// The commit the change went on top of.
    pub parent: Option<String>,
    /// The tree that was committed.
    pub tree: String,
    /// `actor.type`.
    pub actor: String,
    /// `target.env`.
    pub target: String,
    /// The policy's digest.
    pub policy_digest: String,
}

/// Runs the git hook `args.name` with the arguments git gave it.
pub fn run(args: &HookArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    match args.name.as_str() {
        "pre-commit" => pre_commit(ctx),
        "reference-transaction" => super::backstop::run(args, ctx),
        "prepare-commit-msg" => super::trailers::prepare_commit_msg(args, ctx),
        "commit-msg" => super::trailers::commit_msg(args, ctx),
        other => bail!(
            "unknown hook `{other}`; astrix runs as the `pre-commit`, `prepare-commit-msg`, `commit-msg` and `reference-transaction` hooks"
        ),
    }
}

fn pre_commit(ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let (repo, mut judgement) = judge_staged(
        ctx,
        JudgeOptions {
            line_counts: false,
            approvals: true,
            tamper: false,
        },
    )
    .context("astrix cannot judge this commit, so it is blocked")?;
    let as_amend =
        judgement.status() == ExitStatus::Held && approved_as_amend(&repo, &mut judgement)?;
    let status = judgement.status();
    write_policy_diagnostics(&judgement, ctx)?;
    if status != ExitStatus::Allowed || judgement.decision.approved {
        // git shows a hook's output on the terminal; stderr keeps stdout free for tools.
        let style = ctx.stderr_style;
        write_report(&judgement, ctx.stderr, style, Format::Text, false)?;
    }
    let log = AuditLog::new(&astrix_dir(&repo));
    log.append(&audit_entry("pre-commit", &judgement, judgement.parent()))
        .context("the decision cannot be recorded in the audit log, so the commit is blocked")?;
    if status == ExitStatus::Allowed && !as_amend {
        record_pass(&repo, &judgement)?;
    }
    Ok(status)
}

/// Whether a held change is approved as an amend of HEAD (`astrix approve --amend`), and if
/// so marks the judgement approved. git does not tell pre-commit that it amends, and judges
/// an amend as the staged change against HEAD; the approval is of the whole commit on top of
/// HEAD's parent. No pass is recorded for it, so the backstop judges the commit git makes:
/// an amend finds the approval, a new commit on top of HEAD does not.
fn approved_as_amend(repo: &Repository, judgement: &mut Judgement) -> anyhow::Result<bool> {
    let Some(head) = judgement.parent() else {
        return Ok(false);
    };
    let key = ApprovalKey {
        parent: repo.commit_info(head)?.parents.first().cloned(),
        tree: repo.staged_tree_id()?,
        policy_digest: judgement.policy.loaded.provenance.digest.clone(),
        target: judgement.target.env.clone(),
    };
    let Lookup::Approved(found) = ApprovalStore::new(&astrix_dir(repo)).lookup(&key, now_unix())?
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

/// Records what pre-commit passed for the backstop.
fn record_pass(repo: &Repository, judgement: &Judgement) -> anyhow::Result<()> {
    let record = PassRecord {
        parent: judgement.parent().map(str::to_owned),
        tree: repo.staged_tree_id()?,
        actor: judgement.actor.kind.clone(),
        target: judgement.target.env.clone(),
        policy_digest: judgement.policy.loaded.provenance.digest.clone(),
    };
    let path = repo.git_dir().join(PASS_FILE);
    let text = serde_json::to_vec(&record)?;
    let mut file = fs_err::File::create(&path)
        .with_context(|| format!("cannot record the pre-commit pass in `{}`", path.display()))?;
    file.write_all(&text)?;
    Ok(())
}

/// The audit entry of a judgement.
pub fn audit_entry(hook: &str, judgement: &Judgement, commit: Option<&str>) -> AuditEntry {
    let decision = &judgement.decision;
    AuditEntry {
        time: crate::time::rfc3339(crate::time::now_unix()),
        hook: hook.to_owned(),
        actor: judgement.actor.kind.clone(),
        actor_id: judgement.actor.id.clone(),
        actor_source: judgement.actor.decided_by.clone(),
        target: judgement.target.env.clone(),
        branch: judgement.target.branch.clone(),
        files: judgement.intent.modified_files.len(),
        decision: decision.verdict.name().to_owned(),
        allowed: decision.allowed(),
        rules: decision.deciding_rules.clone(),
        reason: decision.reason.clone(),
        approval: judgement.approval.clone(),
        policy_digest: Some(judgement.policy.loaded.provenance.digest.clone()),
        commit: commit.map(str::to_owned),
    }
}
