use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Everything runs guarded: a panic ends in exit 2 with a request to report it, never in
    // exit 101 and never in a pass.
    astrix::app::run_guarded(|| astrix::run(astrix::cli::Cli::parse())).into()
}
