//! `astrix validate`: every problem of an Astrixfile in one run.

use super::default_policy_path;
use crate::cli::{Format, ValidateArgs};
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;
use crate::policy;
use crate::report::write_json;

/// Runs `astrix validate`.
pub fn run(args: &ValidateArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let path = args
        .path
        .clone()
        .unwrap_or_else(|| default_policy_path(&ctx.cwd));
    let label = path.display().to_string();
    let bytes = crate::gate::source::read_policy_file(&path)?;
    let loaded = policy::decode(&label, bytes).and_then(|text| policy::load(&label, &text));
    let (status, diagnostics, summary) = match loaded {
        Ok((policy, warnings)) => (
            ExitStatus::Allowed,
            warnings,
            format!(
                "{label} is valid: {} rule{}, {} test{}",
                policy.rules.len(),
                if policy.rules.len() == 1 { "" } else { "s" },
                policy.cases.len(),
                if policy.cases.len() == 1 { "" } else { "s" },
            ),
        ),
        Err(diagnostics) => (ExitStatus::Error, diagnostics, String::new()),
    };
    match args.format.format {
        Format::Json => {
            let mut value = diagnostics.to_json();
            if let serde_json::Value::Object(map) = &mut value {
                map.insert(
                    "valid".to_owned(),
                    serde_json::Value::Bool(status == ExitStatus::Allowed),
                );
            }
            ignore_broken_pipe(write_json(ctx.stdout, &value))?;
        }
        Format::Text => {
            if !diagnostics.items.is_empty() {
                ignore_broken_pipe(diagnostics.render(ctx.stdout, ctx.stdout_style.enabled()))?;
            }
            if status == ExitStatus::Allowed {
                ignore_broken_pipe(writeln!(ctx.stdout, "{summary}"))?;
            }
        }
    }
    Ok(status)
}
