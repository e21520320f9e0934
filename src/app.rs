//! The process's entry: the real environment, streams and working directory become a
//! [`Context`], the parsed command line picks a command, and its result becomes the exit
//! status.
//!
//! Each command returns an [`ExitStatus`] or an error; every error ends in exit 2 with
//! `error: …` and its causes on stderr, so that a failure blocks the action (fails closed).

use std::io::{self, IsTerminal, Write};

use crate::cli::{Cli, ColorWhen, Command};
use crate::commands;
use crate::context::Context;
use crate::env::EnvSnapshot;
use crate::exit::ExitStatus;
use crate::gate::source::InvalidPolicyError;
use crate::report::style::Style;

/// Runs a parsed command line against the real process environment.
pub fn run(cli: Cli) -> ExitStatus {
    let env = EnvSnapshot::from_process();
    let stdout = io::stdout();
    let stderr = io::stderr();
    let colour = |terminal: bool| match cli.color {
        ColorWhen::Auto => env.colour_allowed() && terminal,
        ColorWhen::Always => true,
        ColorWhen::Never => false,
    };
    let stdout_style = Style::new(colour(stdout.is_terminal()));
    let stderr_is_terminal = stderr.is_terminal();
    let stderr_style = Style::new(colour(stderr_is_terminal));
    // Not locked for the whole run: `astrix mcp` writes to both from other threads (its
    // transport and its log), which would wait forever on a lock held here.
    let mut out = stdout;
    let mut err = stderr;
    if let Some(dir) = &cli.directory {
        // As `git -C`: everything after runs there, relative paths of the command line too.
        if let Err(error) = std::env::set_current_dir(dir) {
            let _ = writeln!(
                err,
                "{} cannot run in `{}` (`-C`): {error}; name an existing directory",
                stderr_style.red().paint("error:"),
                dir.display()
            );
            return ExitStatus::Error;
        }
    }
    let cwd = match std::env::current_dir() {
        Ok(cwd) => cwd,
        Err(error) => {
            let _ = writeln!(err, "error: cannot read the current directory: {error}");
            return ExitStatus::Error;
        }
    };
    if cli.quiet
        && let Some(command) = match &cli.command {
            Command::Approve(args) if !args.list && args.revoke.is_none() => Some("approve"),
            Command::Mcp(_) => Some("mcp"),
            _ => None,
        }
    {
        let _ = writeln!(
            err,
            "{} `--quiet` does not apply to `astrix {command}`, {}; run it without `-q`",
            stderr_style.red().paint("error:"),
            if command == "mcp" {
                "whose output is the protocol"
            } else {
                "which shows what it approves and asks"
            }
        );
        return ExitStatus::Error;
    }
    // Quiet: results and notes go nowhere; errors still reach stderr, below.
    let (mut quiet_out, mut quiet_err) = (io::sink(), io::sink());
    let mut ctx = Context {
        stdout: if cli.quiet { &mut quiet_out } else { &mut out },
        stderr: if cli.quiet { &mut quiet_err } else { &mut err },
        env,
        cwd,
        stdout_style,
        stderr_style,
        stdin_is_terminal: io::stdin().is_terminal(),
        stderr_is_terminal,
    };
    match dispatch(cli, &mut ctx) {
        Ok(status) => status,
        Err(error) => {
            report_error(&error, &mut err, stderr_style);
            ExitStatus::Error
        }
    }
}

/// Runs a parsed command line in `ctx`.
pub fn run_with(cli: Cli, ctx: &mut Context<'_>) -> ExitStatus {
    match dispatch(cli, ctx) {
        Ok(status) => status,
        Err(error) => {
            let style = ctx.stderr_style;
            report_error(&error, ctx.stderr, style);
            ExitStatus::Error
        }
    }
}

/// The command's own result, before an error is reported.
fn dispatch(cli: Cli, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    match cli.command {
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
        Command::Docs(args) => commands::docs::run(&args, ctx),
        Command::Install(args) => commands::install::install(&args, ctx),
        Command::Uninstall(args) => commands::install::uninstall(&args, ctx),
        Command::Hook(args) => commands::hook::run(&args, ctx),
        Command::BlastRadius(args) => commands::blast_radius::run(&args, ctx),
        Command::ImpactedTests(args) => commands::impacted_tests::run(&args, ctx),
        Command::Mcp(args) => commands::mcp::run(&args, ctx),
    }
}

/// Prints `error: …`, then one `caused by: …` line per cause; an invalid policy is printed
/// with all its diagnostics.
fn report_error(error: &anyhow::Error, stderr: &mut dyn Write, style: Style) {
    // What an error quotes may come from the repository (a policy's text, a runner's
    // output): none of it may give a CI runner a workflow command.
    let mut stderr = crate::report::NoWorkflowCommands::new(stderr);
    // A broken pipe or closed stderr cannot be reported anywhere; the exit code still is.
    if let Some(InvalidPolicyError(diagnostics)) = error.downcast_ref::<InvalidPolicyError>() {
        let _ = diagnostics.render(&mut stderr, style.enabled());
    }
    let _ = writeln!(stderr, "{} {error}", style.red().paint("error:"));
    for cause in error.chain().skip(1) {
        let _ = writeln!(stderr, "  caused by: {cause}");
    }
    let _ = stderr.finish();
}

/// Runs `main` with astrix's panic hook installed and any panic caught: a panic (a bug) is
/// reported on stderr with a request to report it, and ends in [`ExitStatus::Error`], so
/// that the action is blocked. Without this, Rust exits with 101 after a panic, which a
/// caller that only knows astrix's exit codes could not tell apart. The binary's `main` is
/// this and nothing else.
pub fn run_guarded(main: impl FnOnce() -> ExitStatus + std::panic::UnwindSafe) -> ExitStatus {
    std::panic::set_hook(Box::new(|info| {
        // Nothing can be done when stderr is gone; the exit code still says it.
        let _ = writeln!(io::stderr().lock(), "{}", crash_report(info));
    }));
    std::panic::catch_unwind(main).unwrap_or(ExitStatus::Error)
}

/// What the panic hook prints: what happened and where, that the action is blocked, and to
/// report it.
pub fn crash_report(info: &std::panic::PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    let place = info
        .location()
        .map(|location| format!(" at {}:{}", location.file(), location.line()))
        .unwrap_or_default();
    format!(
        "error: astrix crashed{place}: {}; the action is blocked\n\
         help: this is a bug in astrix: please report it at the astrix issue tracker, with the command you ran and this message",
        what.replace('\n', " ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_report_says_where_and_asks_for_a_report() {
        let reports = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let previous = std::panic::take_hook();
        let sink = std::sync::Arc::clone(&reports);
        std::panic::set_hook(Box::new(move |info| {
            // The hook is the process's: keep only this test's panics.
            if info
                .location()
                .is_some_and(|place| place.file().ends_with("app.rs"))
                && let Ok(mut reports) = sink.lock()
            {
                reports.push(crash_report(info));
            }
        }));
        let text = std::panic::catch_unwind(|| panic!("first line\nsecond line"));
        let formatted = std::panic::catch_unwind(|| panic!("value {}", 7));
        let other = std::panic::catch_unwind(|| std::panic::panic_any(7_u8));
        std::panic::set_hook(previous);
        assert!(text.is_err() && formatted.is_err() && other.is_err());
        let reports = reports.lock().unwrap();
        assert!(
            reports[0].starts_with("error: astrix crashed at src/app.rs:"),
            "{}",
            reports[0]
        );
        assert!(
            reports[0].contains(": first line second line; the action is blocked\nhelp: this is a bug in astrix: please report it"),
            "{}",
            reports[0]
        );
        assert!(
            reports[1].contains(": value 7; the action is blocked"),
            "{}",
            reports[1]
        );
        assert!(
            reports[2].contains(": a panic without a message; the action is blocked"),
            "{}",
            reports[2]
        );
    }
}
