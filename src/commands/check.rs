//! `astrix check`: judge exactly what git is about to commit and print the report, worded
//! for a person who asked: no commit is under way.

use std::io::Write;

use crate::cli::CheckArgs;
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;
use crate::gate::{Asked, JudgeOptions, judge_staged, write_policy_diagnostics, write_report};
use crate::git::GitError;

/// Runs `astrix check`.
pub fn run(args: &CheckArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let (_, judgement) = judge_staged(
        &ctx.cwd,
        &ctx.env,
        JudgeOptions {
            line_counts: args.explain,
            approvals: true,
            tamper: args.explain,
        },
    )
    .map_err(|error| {
        // Run by hand, no commit is under way: outside a repository there is nothing a commit
        // could record, and inside one a commit of this change would be blocked.
        if matches!(
            error.downcast_ref::<GitError>(),
            Some(GitError::NotARepository { .. })
        ) {
            error
        } else {
            error.context(
                "cannot judge the staged change, so a `git commit` of it would be blocked too",
            )
        }
    })?;
    write_policy_diagnostics(&judgement, ctx.stderr, ctx.stderr_style.enabled())?;
    let style = ctx.stdout_style;
    // One write for the whole report rather than one per line (stdout is line-buffered).
    let mut out = std::io::BufWriter::new(&mut *ctx.stdout);
    ignore_broken_pipe(
        write_report(
            &judgement,
            &mut out,
            style,
            args.format.format,
            args.explain,
            Asked::ByHand,
        )
        .and_then(|()| out.flush()),
    )?;
    Ok(judgement.status())
}
