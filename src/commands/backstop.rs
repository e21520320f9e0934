//! The backstop: the `reference-transaction` hook (SPEC §6). git runs it for every ref
//! update — also under `git commit --no-verify` — and a non-zero exit in the `prepared`
//! state aborts the update (`fatal: ref updates aborted by hook`; the change stays staged).
//! What it decides is [`crate::gate::branch`]'s; here the transaction is read from standard
//! input, and each judgement that stops an update is reported on stderr and every one is
//! recorded in the audit log.

use std::io::BufRead as _;

use anyhow::Context as _;

use crate::audit::{AuditEntry, AuditLog};
use crate::cli::HookArgs;
use crate::context::Context;
use crate::exit::ExitStatus;
use crate::gate::branch::{
    self, Move, Outcome, PROTECTED_DELETION, Refusal, Reporter, SYMBOLIC_BRANCH, UNSEEN_MOVE,
};
use crate::gate::{
    Asked, amend_next_steps, astrix_dir, audit_entry, commit_next_steps, take_pass,
    update_next_steps, write_policy_diagnostics, write_text_report,
};
use crate::git::Repository;
use crate::policy::Verdict;

/// Runs the backstop for the transaction on standard input.
pub fn run(args: &HookArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    if args.args.first().and_then(|state| state.to_str()) != Some("prepared") {
        return Ok(ExitStatus::Allowed);
    }
    let mut input = String::new();
    for line in std::io::stdin().lock().lines() {
        input.push_str(&line.context("cannot read the ref updates from git")?);
        input.push('\n');
    }
    let cwd = ctx.cwd.clone();
    let env = ctx.env.clone();
    branch::judge_transaction(&cwd, &env, &input, &mut Printer { ctx })
}

/// Reports on stderr and records in the audit log.
struct Printer<'c, 'a> {
    ctx: &'c mut Context<'a>,
}

impl Printer<'_, '_> {
    /// The report of a judgement that stops an update: what arrived and from where, the
    /// judgement, and what to do.
    fn report(&mut self, repo: &Repository, outcome: &Outcome<'_>) -> anyhow::Result<()> {
        let style = self.ctx.stderr_style;
        let out = &mut *self.ctx.stderr;
        writeln!(
            out,
            "astrix: the reference-transaction hook stopped the update of branch `{}` ({})",
            outcome.branch, outcome.what
        )?;
        match outcome.commit {
            Some(commit) => {
                let summary = repo
                    .commit_meta(commit)
                    .map(|meta| meta.summary)
                    .unwrap_or_default();
                let from = match outcome.movement {
                    Move::NewCommit
                        if repo
                            .commit_info(commit)
                            .is_ok_and(|info| info.parents.is_empty()) =>
                    {
                        format!("the first commit of `{}`", outcome.branch)
                    }
                    Move::NewCommit => format!("on top of `{}`'s tip", outcome.branch),
                    Move::Amend => format!("which amends the tip of `{}`", outcome.branch),
                    Move::Rewrite | Move::Gain => branch::where_from(repo, commit, outcome.branch),
                };
                writeln!(
                    out,
                    "  arrived: commit {} {:?}, {from}",
                    &commit[..commit.len().min(12)],
                    summary,
                )?;
            }
            None if outcome.what == branch::REWIND => writeln!(
                out,
                "  arrived: `{}` moved back to {} (commits it had are gone from it), judged as one change against its old tip",
                outcome.branch,
                &outcome.new[..outcome.new.len().min(12)],
            )?,
            None => writeln!(
                out,
                "  arrived: the commits {} as one change",
                outcome.range
            )?,
        }
        write_policy_diagnostics(outcome.judgement, out, style.enabled())?;
        let judgement = outcome.judgement;
        // A new commit that `git commit` is making leaves what it records staged, so the
        // plain `astrix approve` approves it; one made otherwise (`git commit-tree` and
        // `update-ref`, a fast-forward) is approved as the branch's move.
        let by_commit = *outcome.movement == Move::NewCommit
            && outcome
                .commit
                .is_some_and(|commit| made_by_git_commit(repo, outcome.branch, commit));
        let next_steps = next_steps(repo, outcome, by_commit);
        let subject = if outcome.commit.is_some() {
            "this commit"
        } else {
            "these commits"
        };
        write_text_report(judgement, out, style, subject, next_steps, false)?;
        let footer = match outcome.movement {
            _ if outcome.what == branch::POLICY_MOVE => {
                "the branch was not updated: a protected branch's Astrixfile.ax changes only by a judged change, whoever moves it — also over commits that other references have, since anyone can write a remote-tracking branch or a tag here"
            }
            _ if outcome.what == branch::REWIND => {
                "the branch was not updated: what a protected branch loses (a reset, a rebase that drops commits) is judged as the change from its old tip to the new one, as whoever moves it"
            }
            Move::NewCommit if by_commit => {
                "the branch was not updated: a commit on top of its tip is judged whoever makes it (`git commit --no-verify` skips only the pre-commit hook, not astrix); after `git commit` the change is still staged"
            }
            Move::NewCommit => {
                "the branch was not updated: a commit on top of its tip is judged whoever brings it, however it was made (`git commit-tree`, `update-ref`, a fast-forward)"
            }
            Move::Amend => {
                "the branch was not updated: an amend is judged as the whole commit it makes, against its parent, not only what changed since the tip it replaces; the change is still staged"
            }
            Move::Rewrite => {
                "the branch was not updated: each commit a rewrite (an amend, a rebase) brings that the branch did not have is judged against its parent, and all of them as one change, as whoever moves the branch; a commit a rebase only moved is not judged again"
            }
            Move::Gain => {
                "the branch was not updated: it would gain commits that nothing vouches for (made where no branch moved, or on a branch of another environment); each is judged against its parent, and all of them as one change, as whoever moves the branch"
            }
        };
        writeln!(out, "\n{footer}")?;
        Ok(())
    }
}

impl Reporter for Printer<'_, '_> {
    fn judged(&mut self, repo: &Repository, outcome: &Outcome<'_>) -> anyhow::Result<ExitStatus> {
        let status = outcome.judgement.status();
        if status != ExitStatus::Allowed {
            self.report(repo, outcome)?;
        } else if let (Move::NewCommit, Some(commit)) = (outcome.movement, outcome.commit)
            && take_pass(repo, outcome.judgement, &repo.commit_info(commit)?.tree)
        {
            // pre-commit passed and logged this very commit.
            return Ok(status);
        }
        AuditLog::new(&astrix_dir(repo))
            .append(&audit_entry(
                "reference-transaction",
                outcome.judgement,
                Some(outcome.commit.unwrap_or(outcome.new)),
            ))
            .context(
                "the decision cannot be recorded in the audit log, so the update is blocked",
            )?;
        Ok(status)
    }

    fn refused(&mut self, repo: &Repository, refusal: &Refusal) -> anyhow::Result<ExitStatus> {
        let what = match refusal.rule {
            SYMBOLIC_BRANCH => "a symbolic reference",
            UNSEEN_MOVE => "a protected branch moved where the hook does not see",
            PROTECTED_DELETION => "an agent deletes a protected branch",
            _ => "too many commits to judge",
        };
        writeln!(
            self.ctx.stderr,
            "astrix: the reference-transaction hook stopped the update of branch `{}` ({what})\n  {}\n\nnext:",
            refusal.branch, refusal.problem
        )?;
        for step in &refusal.next_steps {
            writeln!(self.ctx.stderr, "  - {step}")?;
        }
        AuditLog::new(&astrix_dir(repo))
            .append(&AuditEntry {
                time: crate::time::rfc3339(crate::time::now_unix()),
                hook: "reference-transaction".to_owned(),
                actor: refusal.actor.kind.clone(),
                actor_id: refusal.actor.id.clone(),
                actor_source: refusal.actor.decided_by.clone(),
                target: refusal.target.clone(),
                branch: Some(refusal.branch.clone()),
                files: 0,
                decision: Verdict::Deny.name().to_owned(),
                allowed: false,
                rules: vec![refusal.rule.to_owned()],
                reason: refusal.problem.clone(),
                approval: None,
                policy_digest: Some(refusal.policy_digest.clone()),
                commit: None,
                tool_call: None,
            })
            .context(
                "the decision cannot be recorded in the audit log, so the update is blocked",
            )?;
        Ok(ExitStatus::Denied)
    }
}

/// What to do next about an update the backstop stopped; `by_commit` when a `git commit`
/// is making its one new commit ([`made_by_git_commit`]).
fn next_steps(repo: &Repository, outcome: &Outcome<'_>, by_commit: bool) -> Vec<String> {
    let judgement = outcome.judgement;
    match outcome.movement {
        Move::NewCommit if by_commit => commit_next_steps(
            &judgement.policy.loaded.policy,
            &judgement.decision,
            &judgement.actor,
            &judgement.target,
            Asked::ByCommit,
        ),
        Move::Amend => amend_next_steps(&judgement.decision),
        Move::NewCommit | Move::Rewrite | Move::Gain => update_next_steps(
            &judgement.policy.loaded.policy,
            &judgement.decision,
            &judgement.target,
            outcome.branch,
            &outcome.new[..outcome.new.len().min(12)],
            match repo.replaying() {
                Some("rebase") => "`git rebase --continue`",
                Some("cherry-pick") => "`git cherry-pick --continue`",
                _ => "the same git command",
            },
        ),
    }
}

/// Whether `commit`, one new commit on `branch`, is what a `git commit` on that branch is
/// recording: HEAD is on the branch, the index holds the commit's tree (which a `reset
/// --hard` or a fast-forward also leaves) and `COMMIT_EDITMSG`, which `git commit` writes
/// for every commit it makes, holds its message. When this cannot be told, it is not: the
/// report then names the approval of the branch's move, which covers a commit however it
/// was made.
fn made_by_git_commit(repo: &Repository, branch: &str, commit: &str) -> bool {
    let on_branch = match repo.head() {
        Ok(
            crate::git::Head::Branch { name, .. } | crate::git::Head::Unborn { branch: Some(name) },
        ) => name == branch,
        _ => false,
    };
    let edited = fs_err::read(repo.git_dir().join("COMMIT_EDITMSG")).ok();
    let message = repo.commit_meta(commit).ok().map(|meta| meta.message);
    let same_message = match (edited, message) {
        (Some(edited), Some(message)) => {
            let kept = String::from_utf8_lossy(&edited)
                .lines()
                .filter(|line| !line.starts_with('#'))
                .map(str::trim_end)
                .collect::<Vec<_>>()
                .join("\n");
            kept.trim() == message.trim()
        }
        _ => false,
    };
    on_branch && same_message && repo.index_matches_commit(commit).unwrap_or(false)
}
