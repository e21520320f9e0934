//! Commands: glue between the command line, the library and the outside world.
//!
//! Each command returns an [`ExitStatus`] or an error; every error ends in exit 2 with
//! `error: …` and its causes on stderr, so that a failure blocks the action (fails closed).

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use crate::cli::{Cli, Command};
use crate::commands;
use crate::env::EnvSnapshot;
use crate::exit::ExitStatus;
use crate::report::style::Style;
use crate::source::InvalidPolicyError;

/// What a command needs from the outside world.
pub struct Context<'a> {
    /// Results.
    pub stdout: &'a mut dyn Write,
    /// Diagnostics and progress.
    pub stderr: &'a mut dyn Write,
    /// The environment, read once.
    pub env: EnvSnapshot,
    /// The working directory.
    pub cwd: PathBuf,
    /// Styles for stdout.
    pub stdout_style: Style,
    /// Styles for stderr.
    pub stderr_style: Style,
    /// Whether stdin is a terminal (approval needs one).
    pub stdin_is_terminal: bool,
    /// Whether stderr is a terminal (progress is drawn in place there).
    pub stderr_is_terminal: bool,
}

/// Runs a parsed command line against the real process environment.
pub fn run(cli: Cli) -> ExitStatus {
    let env = EnvSnapshot::from_process();
    let colour = env.colour_allowed();
    let stdout = io::stdout();
    let stderr = io::stderr();
    let stdout_style = Style::new(colour && stdout.is_terminal());
    let stderr_is_terminal = stderr.is_terminal();
    let stderr_style = Style::new(colour && stderr_is_terminal);
    // Not locked for the whole run: `astrix mcp` writes to both from other threads (its
    // transport and its log), which would wait forever on a lock held here.
    let mut out = stdout;
    let mut err = stderr;
    let cwd = match std::env::current_dir() {
        Ok(cwd) => cwd,
        Err(error) => {
            let _ = writeln!(err, "error: cannot read the current directory: {error}");
            return ExitStatus::Error;
        }
    };
    let mut ctx = Context {
        stdout: &mut out,
        stderr: &mut err,
        env,
        cwd,
        stdout_style,
        stderr_style,
        stdin_is_terminal: io::stdin().is_terminal(),
        stderr_is_terminal,
    };
    run_with(cli, &mut ctx)
}

/// Runs a parsed command line in `ctx`.
pub fn run_with(cli: Cli, ctx: &mut Context<'_>) -> ExitStatus {
    let result = match cli.command {
        Command::Check(args) => commands::check::run(&args, ctx),
        Command::Ci(args) => commands::ci::run(&args, ctx),
        Command::Intent(args) => commands::intent::run(&args, ctx),
        Command::Approve(args) => commands::approve::run(&args, ctx),
        Command::Log(args) => commands::log::run(&args, ctx),
        Command::Evaluate(args) => commands::evaluate::run(&args, ctx),
        Command::Validate(args) => commands::validate::run(&args, ctx),
        Command::Test(args) => commands::test::run(&args, ctx),
        Command::Init(args) => commands::init::run(&args, ctx),
        Command::Schema(args) => commands::schema::run(&args, ctx),
        Command::Completions(args) => commands::completions::run(&args, ctx),
        Command::Install(args) => commands::install::install(&args, ctx),
        Command::Uninstall(args) => commands::install::uninstall(&args, ctx),
        Command::Hook(args) => commands::hook::run(&args, ctx),
        Command::BlastRadius(args) => commands::blast_radius::run(&args, ctx),
        Command::ImpactedTests(args) => commands::impacted_tests::run(&args, ctx),
        Command::Mcp(args) => commands::mcp::run(&args, ctx),
    };
    match result {
        Ok(status) => status,
        Err(error) => {
            report_error(&error, ctx);
            ExitStatus::Error
        }
    }
}

/// Prints `error: …`, then one `caused by: …` line per cause; an invalid policy is printed
/// with all its diagnostics.
fn report_error(error: &anyhow::Error, ctx: &mut Context<'_>) {
    // A broken pipe or closed stderr cannot be reported anywhere; the exit code still is.
    let style = ctx.stderr_style;
    if let Some(InvalidPolicyError(diagnostics)) = error.downcast_ref::<InvalidPolicyError>() {
        let _ = diagnostics.render(ctx.stderr, style.enabled());
    }
    let _ = writeln!(ctx.stderr, "{} {error}", style.red().paint("error:"));
    for cause in error.chain().skip(1) {
        let _ = writeln!(ctx.stderr, "  caused by: {cause}");
    }
}

/// Treats a broken pipe on stdout as success: the reader went away, the decision stands.
pub fn ignore_broken_pipe(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
