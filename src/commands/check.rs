//! `astrix check`: judge exactly what git is about to commit (SPEC §6) and print the report.

use std::io::Write;

use anyhow::Context as _;

use crate::cli::CheckArgs;
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;
use crate::gate::{JudgeOptions, judge_staged, write_policy_diagnostics, write_report};

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
    .context("cannot judge the staged change; the commit is blocked")?;
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
        )
        .and_then(|()| out.flush()),
    )?;
    Ok(judgement.status())
}
