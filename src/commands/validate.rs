//! `astrix validate`: every problem of an Astrixfile in one run.

use super::default_policy_path;
use crate::cli::{Format, ValidateArgs};
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;
use crate::policy;
use crate::report::write_json;

/// The file name diagnostics of the built-in default policy would carry (it has none).
const BUILT_IN_LABEL: &str = "<built-in default policy>";

/// Runs `astrix validate`.
pub fn run(args: &ValidateArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    // As `astrix test` does: with no file named and none at the root of the work tree, the
    // built-in default policy is the one astrix would use, so it is the one checked.
    let (label, loaded) = match &args.path {
        None if !default_policy_path(&ctx.cwd).exists() => (
            "the built-in default policy (there is no Astrixfile.ax here; `astrix init` writes it)"
                .to_owned(),
            policy::load(BUILT_IN_LABEL, policy::DEFAULT_POLICY),
        ),
        path => {
            let path = path
                .clone()
                .unwrap_or_else(|| default_policy_path(&ctx.cwd));
            let label = path.display().to_string();
            let bytes = crate::gate::source::read_policy_file(&path)?;
            let loaded = policy::decode(&label, bytes).and_then(|text| policy::load(&label, &text));
            (label, loaded)
        }
    };
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
