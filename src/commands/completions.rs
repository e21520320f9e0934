//! `astrix completions <shell>`: a shell completion script on stdout.

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;

/// Runs `astrix completions`.
pub fn run(args: &CompletionsArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let mut command = Cli::command();
    let mut buffer = Vec::new();
    clap_complete::generate(args.shell, &mut command, "astrix", &mut buffer);
    ignore_broken_pipe(ctx.stdout.write_all(&buffer))?;
    Ok(ExitStatus::Allowed)
}
