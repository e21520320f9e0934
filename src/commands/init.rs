//! `astrix init`: writes the built-in default policy to the root of the work tree.

use anyhow::bail;

use super::find_work_tree;
use crate::cli::InitArgs;
use crate::context::Context;
use crate::exit::ExitStatus;
use crate::policy::{DEFAULT_POLICY, FILE_NAME};

/// Runs `astrix init`.
pub fn run(args: &InitArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let Some(root) = find_work_tree(&ctx.cwd) else {
        bail!(
            "`{}` is not inside a git repository; run `git init` first, or run `astrix init` in a repository",
            ctx.cwd.display()
        );
    };
    let path = root.join(FILE_NAME);
    if path.exists() && !args.force {
        bail!(
            "`{}` already exists; run `astrix init --force` to replace it with the default policy",
            path.display()
        );
    }
    fs_err::write(&path, DEFAULT_POLICY)?;
    writeln!(
        ctx.stdout,
        "wrote the default policy to {}\n\
         next: review it (`astrix docs astrixfile` explains every key), run `astrix test`, then commit it; astrix reads the committed version\n\
         note: with astrix's hooks installed, committing Astrixfile.ax — this first version and every later change — is held for a human's approval, whoever commits: \
         a person reviews the staged file, runs `astrix approve` in their own shell (never an agent's), then runs the same `git commit` again; \
         an agent cannot commit it on a production branch at all",
        path.display()
    )?;
    Ok(ExitStatus::Allowed)
}
