//! `astrix hook <name>`: what the shims that `astrix install` writes into the hooks
//! directory run, and what `.pre-commit-hooks.yaml` runs under pre-commit and prek.

use anyhow::bail;

use crate::app::Context;
use crate::cli::HookArgs;
use crate::exit::ExitStatus;

/// Runs the git hook `args.name` with the arguments git gave it.
///
/// This is the entry point of the shims in `hooks/`: `pre-commit` judges the staged change,
/// `reference-transaction` (called by its shim only in the `prepared` state, with git's
/// `<old> <new> <ref>` lines on standard input) judges branch updates. Any other name is an
/// error, which blocks whatever git was doing.
pub fn run(args: &HookArgs, _ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    match args.name.as_str() {
        // The commit gate (SPEC §6) fills these in; until then every commit passes.
        "pre-commit" | "reference-transaction" => Ok(ExitStatus::Allowed),
        other => bail!(
            "unknown hook `{other}`; astrix runs as the `pre-commit` and `reference-transaction` hooks"
        ),
    }
}
