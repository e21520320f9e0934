use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // A panic must never let a commit through: report it and exit 2 (never 101).
    std::panic::set_hook(Box::new(|info| {
        let mut stderr = std::io::stderr().lock();
        let _ = writeln!(
            stderr,
            "error: astrix crashed ({info}); the action is blocked\n\
             help: please report this at the astrix issue tracker with the command you ran"
        );
    }));
    let args = astrix::cli::Cli::parse();
    match std::panic::catch_unwind(|| astrix::run(args)) {
        Ok(status) => status.into(),
        Err(_) => astrix::ExitStatus::Error.into(),
    }
}
