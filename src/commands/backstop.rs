//! The backstop: the `reference-transaction` hook (SPEC §6). git runs it for every ref
//! update — also under `git commit --no-verify` — and a non-zero exit in the `prepared`
//! state aborts the update (`fatal: ref updates aborted by hook`; the change stays staged).
//! What it decides is [`crate::gate::branch`]'s; here the transaction is read from standard
//! input, and each judgement that stops an update is reported on stderr and every one is
//! recorded in the audit log.

use std::io::BufRead as _;

use anyhow::Context as _;

use crate::audit::{AuditEntry, AuditLog};
use crate::cli::{Format, HookArgs};
use crate::context::Context;
use crate::exit::ExitStatus;
use crate::gate::branch::{self, Move, Outcome, Reporter, SYMBOLIC_BRANCH, SymbolicRefusal};
use crate::gate::{astrix_dir, audit_entry, write_policy_diagnostics, write_report};
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

impl Reporter for Printer<'_, '_> {
    fn judged(&mut self, repo: &Repository, outcome: &Outcome<'_>) -> anyhow::Result<ExitStatus> {
        let status = outcome.judgement.status();
        if status != ExitStatus::Allowed {
            let style = self.ctx.stderr_style;
            writeln!(
                self.ctx.stderr,
                "astrix: the reference-transaction hook stopped the update of branch `{}` ({})",
                outcome.branch, outcome.what
            )?;
            write_policy_diagnostics(
                outcome.judgement,
                self.ctx.stderr,
                self.ctx.stderr_style.enabled(),
            )?;
            write_report(
                outcome.judgement,
                self.ctx.stderr,
                style,
                Format::Text,
                false,
            )?;
            let footer = match outcome.movement {
                Move::Rewrite => {
                    "the branch was not updated: a rewritten commit (an amend, a rebase) is judged whole against its parent. To approve it, a human runs `astrix approve --amend` (during a stopped rebase, at the commit it left checked out); then run the same `git commit --amend` or `git rebase --continue` again"
                }
                Move::NewCommit => {
                    "`--no-verify` skips only the pre-commit hook, not astrix: the branch was not updated, and the change is still staged"
                }
                Move::FastForward | Move::Nothing => "the branch was not updated",
            };
            writeln!(self.ctx.stderr, "\n{footer}")?;
        }
        AuditLog::new(&astrix_dir(repo))
            .append(&audit_entry(
                "reference-transaction",
                outcome.judgement,
                Some(outcome.new),
            ))
            .context(
                "the decision cannot be recorded in the audit log, so the update is blocked",
            )?;
        Ok(status)
    }

    fn refused(
        &mut self,
        repo: &Repository,
        refusal: &SymbolicRefusal,
    ) -> anyhow::Result<ExitStatus> {
        writeln!(
            self.ctx.stderr,
            "astrix: the reference-transaction hook stopped the update of branch `{}` (a symbolic reference)\n  {}\n\nnext:\n  - point `{}` at a branch of the same environment, or make it an ordinary branch (`git branch -f {} <commit>`)",
            refusal.branch, refusal.problem, refusal.branch, refusal.branch
        )?;
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
                rules: vec![SYMBOLIC_BRANCH.to_owned()],
                reason: refusal.problem.clone(),
                approval: None,
                policy_digest: Some(refusal.policy_digest.clone()),
                commit: None,
            })
            .context(
                "the decision cannot be recorded in the audit log, so the update is blocked",
            )?;
        Ok(ExitStatus::Denied)
    }
}
