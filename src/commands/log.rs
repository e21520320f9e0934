//! `astrix log`: the audit log of the gate's decisions.

use crate::audit::AuditLog;
use crate::cli::{Format, LogArgs};
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;
use crate::gate::astrix_dir;
use crate::git::Repository;
use crate::report::write_json;

/// Runs `astrix log`.
pub fn run(args: &LogArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let repo = Repository::open(&ctx.cwd, &ctx.env)?;
    let log = AuditLog::new(&astrix_dir(&repo));
    let entries = log.read(args.count)?;
    match args.format.format {
        Format::Json => {
            let values: Vec<serde_json::Value> = entries
                .iter()
                .map(|entry| match entry {
                    Ok(entry) => serde_json::to_value(entry).unwrap_or_default(),
                    Err(error) => serde_json::json!({ "unreadable": error }),
                })
                .collect();
            ignore_broken_pipe(write_json(ctx.stdout, &values))?;
        }
        Format::Text => {
            let style = ctx.stdout_style;
            let out = &mut *ctx.stdout;
            let mut write = || -> std::io::Result<()> {
                if entries.is_empty() {
                    writeln!(out, "no decisions recorded in {}", log.path().display())?;
                }
                for entry in &entries {
                    let entry = match entry {
                        Ok(entry) => entry,
                        Err(error) => {
                            writeln!(out, "{} {error}", style.yellow().paint("unreadable entry:"))?;
                            continue;
                        }
                    };
                    let (word, paint) = match (entry.decision.as_str(), entry.allowed) {
                        ("allow", _) => ("allowed", style.green()),
                        ("require_approval", true) => ("approved", style.green()),
                        ("require_approval", false) => ("held", style.yellow()),
                        ("deny", _) => ("denied", style.red()),
                        (other, _) => (other, style.red()),
                    };
                    // Painted text ignores a width: pad outside the colour codes.
                    let decision = format!(
                        "{}{}",
                        paint.paint(word),
                        " ".repeat(8_usize.saturating_sub(word.chars().count()))
                    );
                    writeln!(
                        out,
                        "{}  {:<21}  {decision}  {}{} -> {}{}  {} file{}{}",
                        entry.time,
                        entry.hook,
                        entry.actor,
                        entry
                            .actor_id
                            .as_deref()
                            .map(|id| format!(" ({id})"))
                            .unwrap_or_default(),
                        entry.target,
                        entry
                            .branch
                            .as_deref()
                            .map(|branch| format!(" ({branch})"))
                            .unwrap_or_default(),
                        entry.files,
                        if entry.files == 1 { "" } else { "s" },
                        if entry.rules.is_empty() {
                            String::new()
                        } else {
                            format!("  [{}]", entry.rules.join(", "))
                        }
                    )?;
                }
                Ok(())
            };
            ignore_broken_pipe(write())?;
        }
    }
    Ok(ExitStatus::Allowed)
}
