//! What the gate keeps in the repository's common git directory (`astrix/`): approvals, the
//! audit log, and the record of the tips protected branches took.

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

/// The file (in the worktree's own git directory) where pre-commit notes the change it
/// passed and logged. The backstop judges that commit again all the same (the note is on the
/// side an agent can write); the note only keeps the audit log from showing one commit's
/// pass twice.
pub const PASS_FILE: &str = "astrix-pre-commit-pass.json";

/// What pre-commit passed and logged.
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

impl PassRecord {
    /// What a judgement passed: the parent, the tree, the actor, the target and the policy.
    pub fn of(judgement: &Judgement, tree: String) -> Self {
        Self {
            parent: judgement.parent().map(str::to_owned),
            tree,
            actor: judgement.actor.kind.clone(),
            target: judgement.target.env.clone(),
            policy_digest: judgement.policy.loaded.provenance.digest.clone(),
        }
    }
}

/// Notes what pre-commit passed and logged, for the backstop.
pub fn record_pass(repo: &Repository, judgement: &Judgement) -> anyhow::Result<()> {
    let record = PassRecord::of(judgement, repo.staged_tree_id()?);
    let path = repo.git_dir().join(PASS_FILE);
    let text = serde_json::to_vec(&record)?;
    let mut file = fs_err::File::create(&path)
        .with_context(|| format!("cannot record the pre-commit pass in `{}`", path.display()))?;
    file.write_all(&text)?;
    Ok(())
}

/// Takes the note of what pre-commit passed (it is for one commit): whether it is of the
/// commit `judgement` judged, with `tree`.
pub fn take_pass(repo: &Repository, judgement: &Judgement, tree: &str) -> bool {
    let path = repo.git_dir().join(PASS_FILE);
    let Some(record) = fs_err::read(&path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<PassRecord>(&bytes).ok())
    else {
        return false;
    };
    let matches = record == PassRecord::of(judgement, tree.to_owned());
    if matches {
        let _ = fs_err::remove_file(&path);
    }
    matches
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
        tool_call: None,
    }
}

/// The record of the tips astrix let protected branches take: `astrix/branch-tips.jsonl` in
/// the common git directory (shared by linked worktrees), one JSON object a line, appended.
///
/// It is what lets the backstop tell a protected branch that moved without it — `git branch
/// -m`/`-c` show the hook only a deletion, or nothing — from one it judged: a protected branch
/// whose tip is none of its environment's recorded tips, nor an ancestor of one, moved unseen.
/// A line records a tip (`branch`, `env`, `tip`) or, without `tip`, that an environment was
/// known when the record began, so that a branch of a known environment that appears unseen
/// is not taken on first sight. It lives where the agent can write (`.git`): like the
/// approvals store, it is a local convenience that `astrix ci` does not need.
pub const TIPS_FILE: &str = "branch-tips.jsonl";

/// One line of the tip record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TipEntry {
    /// The environment.
    pub env: String,
    /// The branch (short name), absent for an environment marker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// The commit (hex), absent for an environment marker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tip: Option<String>,
}

/// The tip record of one repository.
#[derive(Debug, Clone)]
pub struct TipRecord {
    path: std::path::PathBuf,
}

impl TipRecord {
    /// The record inside `astrix_dir` (`<common git dir>/astrix`).
    pub fn new(astrix_dir: &std::path::Path) -> Self {
        Self {
            path: astrix_dir.join(TIPS_FILE),
        }
    }

    /// Every entry, `None` when the record does not exist yet. A line that does not parse (a
    /// write cut short) is skipped: it can only make fewer tips known, which blocks, never
    /// lets through.
    pub fn load(&self) -> anyhow::Result<Option<Vec<TipEntry>>> {
        let text = match fs_err::read(&self.path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(anyhow::Error::new(error)
                    .context("cannot read the record of protected branch tips"));
            }
        };
        Ok(Some(
            text.split(|byte| *byte == b'\n')
                .filter_map(|line| serde_json::from_slice(line).ok())
                .collect(),
        ))
    }

    /// Appends `entries` in one write.
    pub fn append(&self, entries: &[TipEntry]) -> anyhow::Result<()> {
        if entries.is_empty() {
            return Ok(());
        }
        let mut text = Vec::new();
        for entry in entries {
            serde_json::to_writer(&mut text, entry)?;
            text.push(b'\n');
        }
        let context = || {
            format!(
                "cannot record the tips of protected branches in `{}`; make it writable (free disk space, fix its permissions)",
                self.path.display()
            )
        };
        if let Some(dir) = self.path.parent() {
            fs_err::create_dir_all(dir).with_context(context)?;
        }
        let mut file = fs_err::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .with_context(context)?;
        file.write_all(&text).with_context(context)?;
        Ok(())
    }
}
