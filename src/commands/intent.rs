//! `astrix intent`: the ActionIntent of the staged change, as JSON.

use super::check::{JudgeOptions, judge_staged};
use crate::app::{Context, ignore_broken_pipe};
use crate::cli::IntentArgs;
use crate::exit::ExitStatus;

/// Runs `astrix intent`.
pub fn run(_args: &IntentArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let (_, judgement) = judge_staged(
        ctx,
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
