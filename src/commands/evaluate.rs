//! `astrix evaluate`: an explicit ActionIntent against the policy.

use std::io::Read as _;
use std::path::Path;

use anyhow::Context as _;

use crate::cli::{EvaluateArgs, Format};
use crate::context::{Context, ignore_broken_pipe};
use crate::diagnostic::Diagnostics;
use crate::env::EnvSnapshot;
use crate::eval::{RuleOutcome, evaluate_with};
use crate::exit::ExitStatus;
use crate::gate::source::{self, LoadedPolicy};
use crate::gate::{self, COMMITTED_POLICY_INVALID, ChangeFacts};
use crate::git::{GitError, Repository};
use crate::intent::ActionIntent;
use crate::policy::Verdict;
use crate::report::{
    ContextLine, Explanation, TextReport, decision_json, explain_sections, intent_next_steps,
    write_json,
};

/// Runs `astrix evaluate`.
pub fn run(args: &EvaluateArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let text = read_input(args.file.as_deref(), ctx)?;
    let intent = ActionIntent::from_json(&text).map_err(|error| {
        anyhow::anyhow!("{error}; `astrix schema intent` prints the JSON Schema an intent follows")
    })?;
    let (loaded, committed_invalid) = resolve_policy(args, ctx)?;
    // As the commit gate does: an action that edits the policy file is held.
    let files = intent
        .modified_files
        .iter()
        .map(|path| path.as_str().to_owned())
        .collect();
    let mut extra: Vec<RuleOutcome> = gate::policy_change_hold(&ChangeFacts {
        files,
        ..ChangeFacts::default()
    })
    .into_iter()
    .collect();
    if let Some(diagnostics) = &committed_invalid {
        diagnostics.render(ctx.stderr, ctx.stderr_style.enabled())?;
        extra.push(committed_policy_invalid_hold());
    }
    let decision = evaluate_with(&loaded.policy, &intent, extra);
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
                sections: if args.explain {
                    explain_sections(&intent, &loaded.provenance)
                } else {
                    Vec::new()
                },
                notes: Vec::new(),
                next_steps: intent_next_steps(&decision),
                explain: args.explain,
            };
            ignore_broken_pipe(report.write(ctx.stdout, ctx.stdout_style))?;
        }
    }
    Ok(status)
}

/// The intent's text: from `path`, or standard input for `-` or no path. Reading a terminal
/// says so first, so that a person who forgot the file is not left waiting in silence.
fn read_input(path: Option<&std::path::Path>, ctx: &mut Context<'_>) -> anyhow::Result<String> {
    let bytes = match path {
        Some(path) if path.as_os_str() != "-" => fs_err::read(path).with_context(|| {
            format!(
                "cannot read the intent file `{}`; check the path, or give `-` to read the intent from standard input",
                path.display()
            )
        })?,
        _ => {
            if ctx.stdin_is_terminal {
                writeln!(
                    ctx.stderr,
                    "astrix evaluate: reading an intent (JSON) from standard input; end it with Ctrl-D, or give a file: `astrix evaluate intent.json`"
                )?;
            }
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

/// The hold that joins the decision when the committed policy does not validate, as the
/// commit gate adds it.
pub fn committed_policy_invalid_hold() -> RuleOutcome {
    RuleOutcome::gate(
        COMMITTED_POLICY_INVALID,
        Verdict::RequireApproval,
        "the committed Astrixfile.ax does not validate, so the built-in default judged; a human approves until it is repaired".to_owned(),
        Vec::new(),
    )
}

/// `--policy`, else the repository's committed policy (as the commit gate finds it), else
/// the built-in default.
fn resolve_policy(
    args: &EvaluateArgs,
    ctx: &Context<'_>,
) -> anyhow::Result<(LoadedPolicy, Option<Diagnostics>)> {
    if let Some(path) = &args.policy {
        return Ok((source::from_file(path, source::FileOrigin::Named)?, None));
    }
    repository_policy(&ctx.cwd, &ctx.env)
}

/// The policy of the repository at `cwd` as the commit gate finds it, else (outside a
/// repository) the built-in default. The second value is the committed policy's diagnostics
/// when it does not validate: the gate then judges by the built-in default and holds (see
/// [`committed_policy_invalid_hold`]), and so do `evaluate` and the MCP server.
pub fn repository_policy(
    cwd: &Path,
    env: &EnvSnapshot,
) -> anyhow::Result<(LoadedPolicy, Option<Diagnostics>)> {
    let repo = match Repository::open(cwd, env) {
        Ok(repo) => repo,
        Err(GitError::NotARepository { .. }) => {
            return Ok((source::built_in("not inside a git repository"), None));
        }
        Err(error) => return Err(error.into()),
    };
    let head = repo.head()?;
    let resolved = source::for_repository(&repo, &head)?;
    Ok((resolved.loaded, resolved.committed_invalid))
}
