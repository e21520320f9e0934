//! `astrix evaluate`: an explicit ActionIntent against the policy.

use std::io::Read as _;

use anyhow::Context as _;

use crate::app::{Context, ignore_broken_pipe};
use crate::cli::{EvaluateArgs, Format};
use crate::eval::evaluate;
use crate::exit::ExitStatus;
use crate::intent::ActionIntent;
use crate::report::{
    ContextLine, Explanation, TextReport, decision_json, intent_next_steps, write_json,
};
use crate::source::{self, LoadedPolicy};

/// Runs `astrix evaluate`.
pub fn run(args: &EvaluateArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let text = read_input(args.file.as_deref())?;
    let intent = ActionIntent::from_json(&text)?;
    let loaded = resolve_policy(args, ctx)?;
    let decision = evaluate(&loaded.policy, &intent);
    let status = ExitStatus::from_decision(decision.verdict, decision.approved);
    match args.format.format {
        Format::Json => {
            let explanation = args
                .explain
                .then(|| Explanation::new(&decision, &intent, &loaded.provenance));
            ignore_broken_pipe(write_json(
                ctx.stdout,
                &decision_json(&decision, explanation.as_ref()),
            ))?;
        }
        Format::Text => {
            let report = TextReport {
                subject: "this action",
                decision: &decision,
                context: vec![
                    ContextLine {
                        label: "actor",
                        text: match &intent.actor.id {
                            Some(id) => format!("{} ({id})", intent.actor.kind),
                            None => intent.actor.kind.clone(),
                        },
                    },
                    ContextLine {
                        label: "target",
                        text: intent.target.env.clone(),
                    },
                    ContextLine {
                        label: "policy",
                        text: loaded.provenance.description.clone(),
                    },
                ],
                notes: Vec::new(),
                next_steps: intent_next_steps(&decision),
                explain: args.explain,
            };
            ignore_broken_pipe(report.write(ctx.stdout, ctx.stdout_style))?;
        }
    }
    Ok(status)
}

/// The intent's text: from `path`, or standard input for `-` or no path.
fn read_input(path: Option<&std::path::Path>) -> anyhow::Result<String> {
    let bytes = match path {
        Some(path) if path.as_os_str() != "-" => fs_err::read(path)?,
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .context("cannot read the intent from standard input")?;
            bytes
        }
    };
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("the intent is not UTF-8 JSON text"))
}

/// `--policy`, else the repository's committed policy, else the built-in default.
fn resolve_policy(args: &EvaluateArgs, ctx: &Context<'_>) -> anyhow::Result<LoadedPolicy> {
    if let Some(path) = &args.policy {
        return source::from_file(path);
    }
    let _ = ctx;
    Ok(source::built_in("no repository policy"))
}
