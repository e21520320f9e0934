//! `astrix intent`: the ActionIntent of the staged change, as JSON.

use crate::cli::IntentArgs;
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;
use crate::gate::{JudgeOptions, judge_staged};

/// Runs `astrix intent`.
pub fn run(_args: &IntentArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let (_, judgement) = judge_staged(
        &ctx.cwd,
        &ctx.env,
        JudgeOptions {
            line_counts: true,
            approvals: false,
            tamper: true,
        },
    )?;
    let mut intent = judgement.intent;
    // What the policy escalated is part of the intent a caller would send.
    intent.diff.modifies_tests.0 = judgement.decision.modifies_tests;
    ignore_broken_pipe(writeln!(ctx.stdout, "{}", intent.to_json_pretty()))?;
    Ok(ExitStatus::Allowed)
}
