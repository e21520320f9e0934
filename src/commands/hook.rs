//! `astrix hook <name>`: what the shims that `astrix install` writes into the hooks
//! directory run, and what `.pre-commit-hooks.yaml` runs under pre-commit and prek.
//!
//! - `pre-commit` judges the staged change (as `astrix check`), appends the decision to the
//!   audit log, and notes what it passed so that the backstop, which judges the commit
//!   again, does not log the same pass twice. An empty change is left to git (and, when git
//!   makes a commit of it, to the backstop).
//! - `reference-transaction` is the backstop (SPEC §6): git runs it for every ref update,
//!   also under `git commit --no-verify`, and a non-zero exit in the `prepared` state aborts
//!   the update. See [`super::backstop`].
//! - `commit-msg` and `prepare-commit-msg` add `Astrix-Actor:` and `Astrix-Decision:`
//!   trailers to the commits that `[commit] trailers` names (agents' by default). See
//!   [`super::trailers`].
//! - `claude-code`, `codex`, `copilot-cli`, `cursor` and `gemini-cli` are the coding agents'
//!   pre-tool-call hooks: the proposed tool call arrives as JSON on stdin and is answered in
//!   the harness's format. See
//!   [`crate::harness`].

use anyhow::{Context as _, bail};

use crate::audit::AuditLog;
use crate::cli::{Format, HookArgs};
use crate::context::Context;
use crate::exit::ExitStatus;
use crate::gate::{
    Asked, JudgeOptions, approved_as_amend, astrix_dir, audit_entry, judge_staged, record_pass,
    write_policy_diagnostics, write_report,
};
use crate::harness::Harness;

/// Runs the git hook `args.name` with the arguments git gave it.
pub fn run(args: &HookArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    match args.name.as_str() {
        "pre-commit" => pre_commit(ctx),
        "reference-transaction" => super::backstop::run(args, ctx),
        "prepare-commit-msg" => super::trailers::prepare_commit_msg(args, ctx),
        "commit-msg" => super::trailers::commit_msg(args, ctx),
        other => match Harness::from_name(other) {
            Some(harness) => crate::harness::run(harness, ctx),
            None => bail!(
                "unknown hook `{other}`; astrix runs as the `pre-commit`, `prepare-commit-msg`, `commit-msg` and `reference-transaction` git hooks, and as the `claude-code`, `codex`, `copilot-cli`, `cursor` and `gemini-cli` pre-tool-call hooks"
            ),
        },
    }
}

fn pre_commit(ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let (repo, mut judgement) = judge_staged(
        &ctx.cwd,
        &ctx.env,
        JudgeOptions {
            line_counts: false,
            approvals: true,
            tamper: false,
        },
    )
    .context("astrix cannot judge this commit, so it is blocked")?;
    // Nothing staged and no merge to conclude: git refuses this commit itself ("nothing to
    // commit") unless it was given `--allow-empty` or `--amend`, which it does not tell its
    // hooks. Stepping aside lets git say so, instead of a decision about no files. Nothing
    // is recorded as passed, so a commit that git does make is judged in full by the
    // backstop.
    if judgement.change.files.is_empty() && !judgement.change.is_merge() {
        return Ok(ExitStatus::Allowed);
    }
    // A gate without its backstop is skipped by `git commit --no-verify`: say so, every
    // time, until it is installed (a hook manager runs this hook, and cannot install that one).
    if let Some(dir) = super::install::backstop_missing(&ctx.cwd) {
        writeln!(
            ctx.stderr,
            "{} astrix's backstop (the reference-transaction hook) is not installed in `{}`, so `git commit --no-verify` and other branch moves skip astrix here; run `astrix install --backstop`",
            ctx.stderr_style.yellow().paint("astrix: warning:"),
            dir.display()
        )?;
    }
    let as_amend =
        judgement.status() == ExitStatus::Held && approved_as_amend(&repo, &mut judgement)?;
    let status = judgement.status();
    write_policy_diagnostics(&judgement, ctx.stderr, ctx.stderr_style.enabled())?;
    if status != ExitStatus::Allowed || judgement.decision.approved {
        // git shows a hook's output on the terminal; stderr keeps stdout free for tools.
        let style = ctx.stderr_style;
        write_report(
            &judgement,
            ctx.stderr,
            style,
            Format::Text,
            false,
            Asked::PreCommit {
                can_amend: judgement.parent().is_some(),
            },
        )?;
    }
    let log = AuditLog::new(&astrix_dir(&repo));
    log.append(&audit_entry("pre-commit", &judgement, judgement.parent()))
        .context("the decision cannot be recorded in the audit log, so the commit is blocked")?;
    if status == ExitStatus::Allowed && !as_amend {
        record_pass(&repo, &judgement)?;
    }
    Ok(status)
}
