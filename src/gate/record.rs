//! What the gate keeps in the repository's common git directory (`astrix/`): approvals, the
//! audit log, and the record of what pre-commit passed.

use std::io::Write as _;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::audit::AuditEntry;
use crate::git::Repository;

use super::Judgement;

/// `<common git dir>/astrix`: where approvals, the audit log and caches live.
pub fn astrix_dir(repo: &Repository) -> std::path::PathBuf {
    repo.common_dir().join("astrix")
}

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

/// Records what pre-commit passed for the backstop.
pub fn record_pass(repo: &Repository, judgement: &Judgement) -> anyhow::Result<()> {
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
