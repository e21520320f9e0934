//! `astrix test`: runs the `[[test]]` cases of a policy.

use serde::Serialize;

use super::default_policy_path;
use crate::cli::{Format, TestArgs};
use crate::context::{Context, ignore_broken_pipe};
use crate::eval::evaluate;
use crate::exit::ExitStatus;
use crate::gate::source::{self, FileOrigin, LoadedPolicy};
use crate::policy::Verdict;
use crate::report::write_json;

/// The result of one case.
#[derive(Debug, Serialize)]
struct CaseResult<'a> {
    name: &'a str,
    line: usize,
    expected: Verdict,
    actual: Verdict,
    passed: bool,
    deciding_rules: Vec<String>,
    reason: String,
}

/// Runs `astrix test`.
pub fn run(args: &TestArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let loaded = load(args, ctx)?;
    let results: Vec<CaseResult<'_>> = loaded
        .policy
        .cases
        .iter()
        .map(|case| {
            let decision = evaluate(&loaded.policy, &case.intent);
            CaseResult {
                name: &case.name,
                line: case.line,
                expected: case.expect,
                actual: decision.verdict,
                passed: decision.verdict == case.expect,
                deciding_rules: decision.deciding_rules.clone(),
                reason: decision.reason,
            }
        })
        .collect();
    let failed = results.iter().filter(|result| !result.passed).count();
    let passed = results.len() - failed;
    let status = if failed == 0 {
        ExitStatus::Allowed
    } else {
        ExitStatus::Denied
    };

    match args.format.format {
        Format::Json => {
            let value = serde_json::json!({
                "policy": loaded.provenance,
                "cases": results,
                "passed": passed,
                "failed": failed,
            });
            ignore_broken_pipe(write_json(ctx.stdout, &value))?;
        }
        Format::Text => {
            let style = ctx.stdout_style;
            let out = &mut *ctx.stdout;
            let mut write = || -> std::io::Result<()> {
                writeln!(out, "testing {}", loaded.provenance.description)?;
                for result in &results {
                    if result.passed {
                        writeln!(
                            out,
                            "{} {} ({})",
                            style.green().paint("ok  "),
                            result.name,
                            result.actual
                        )?;
                    } else {
                        writeln!(
                            out,
                            "{} {} (line {})",
                            style.red().paint("FAIL"),
                            result.name,
                            result.line
                        )?;
                        writeln!(out, "       expected: {}", result.expected)?;
                        writeln!(out, "       actual:   {}", result.actual)?;
                        if result.deciding_rules.is_empty() {
                            writeln!(out, "       decided by: the policy's default")?;
                        } else {
                            writeln!(
                                out,
                                "       decided by: {}",
                                result.deciding_rules.join(", ")
                            )?;
                        }
                        writeln!(out, "       reason:   {}", result.reason)?;
                    }
                }
                if results.is_empty() {
                    writeln!(
                        out,
                        "no [[test]] cases; add some to check what the policy decides"
                    )?;
                }
                writeln!(out, "{passed} passed, {failed} failed")
            };
            ignore_broken_pipe(write())?;
        }
    }
    Ok(status)
}

/// The named policy, else the one at the root of the work tree, else the built-in default.
fn load(args: &TestArgs, ctx: &Context<'_>) -> anyhow::Result<LoadedPolicy> {
    if let Some(path) = &args.path {
        return source::from_file(path, FileOrigin::Named);
    }
    let path = default_policy_path(&ctx.cwd);
    if path.exists() {
        source::from_file(&path, FileOrigin::WorkTree)
    } else {
        Ok(source::built_in_with_cases(
            "there is no Astrixfile.ax here",
        ))
    }
}
