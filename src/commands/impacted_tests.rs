//! `astrix impacted-tests`: the test commands of the components a change affects, and with
//! `--run` their results (exit 0 when all pass, 1 when any fails, 2 on error).

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use serde::Serialize;

use super::blast_radius::analyze_selection;
use crate::cli::{Format, ImpactedTestsArgs};
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;
use crate::impact::run::{Progress, RunOptions, TestResult, run_tests};
use crate::impact::{SCHEMA_VERSION, TestCommand, impacted_tests};
use crate::report::impact::{
    duration, headline, result_text, write_results_table, write_tests_text,
};
use crate::report::style::Style;
use crate::report::write_json;

/// The JSON of `impacted-tests`.
#[derive(Serialize)]
struct Output<'a> {
    schema_version: u32,
    tests: &'a [TestCommand],
    /// Affected components without a test command.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    untested: &'a [String],
    /// Only after `--run`.
    #[serde(skip_serializing_if = "Option::is_none")]
    results: Option<&'a [TestResult]>,
}

/// Runs `astrix impacted-tests`.
pub fn run(args: &ImpactedTestsArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let analysis = analyze_selection(&args.change, ctx)?;
    super::blast_radius::warn_missing(&analysis, ctx)?;
    let tests = impacted_tests(&analysis.graph, &analysis.radius);
    let style = ctx.stdout_style;
    let mut results = None;
    if args.run && !tests.tests.is_empty() {
        let work_dir = analysis
            .repo
            .work_dir()
            .ok_or_else(|| anyhow!("the repository has no work tree to run tests in"))?;
        let mut display = Display {
            out: &mut *ctx.stderr,
            terminal: ctx.stderr_is_terminal,
            style: ctx.stderr_style,
            last_draw: None,
            frame: 0,
            current: String::new(),
        };
        // The commands stay in astrix's process group, so that a terminal's Ctrl-C reaches
        // them; there is no time limit at a terminal.
        let ran = run_tests(&tests.tests, work_dir, RunOptions::default(), &mut display)?;
        write_failures(&ran, ctx.stderr, ctx.stderr_style)?;
        results = Some(ran);
    }
    let written = match args.format.format {
        Format::Json => write_json(
            ctx.stdout,
            &Output {
                schema_version: SCHEMA_VERSION,
                tests: &tests.tests,
                untested: &tests.untested,
                results: results.as_deref(),
            },
        ),
        Format::Text => match &results {
            Some(results) => writeln!(
                ctx.stdout,
                "{}\n",
                style.bold().paint(&headline(&analysis.radius))
            )
            .and_then(|()| write_results_table(results, ctx.stdout, style)),
            None => write_tests_text(&tests, &analysis.radius, ctx.stdout, style),
        },
    };
    ignore_broken_pipe(written)?;
    let failed = results
        .as_ref()
        .is_some_and(|results| results.iter().any(|result| !result.passed));
    Ok(if failed {
        ExitStatus::Denied
    } else {
        ExitStatus::Allowed
    })
}

/// The captured output of every failed test, on stderr.
fn write_failures(
    results: &[TestResult],
    out: &mut dyn Write,
    style: Style,
) -> std::io::Result<()> {
    for result in results.iter().filter(|result| !result.passed) {
        writeln!(
            out,
            "{}",
            style.red().paint(&format!(
                "── {}: `{}` {} ──",
                result.component,
                result.command,
                result_text(result)
            ))
        )?;
        out.write_all(&result.output)?;
        if !result.output.is_empty() && !result.output.ends_with(b"\n") {
            writeln!(out)?;
        }
    }
    Ok(())
}

/// Progress on stderr: a spinner redrawn in place on a terminal, a line per start and end
/// elsewhere (a CI log).
struct Display<'w> {
    out: &'w mut dyn Write,
    terminal: bool,
    style: Style,
    last_draw: Option<Instant>,
    frame: usize,
    /// `[i/n] component: command`, for redraws.
    current: String,
}

const FRAMES: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const REDRAW: Duration = Duration::from_millis(100);
/// Commands longer than this are cut on the spinner line, so that it stays on one line.
const SHOWN_COMMAND: usize = 60;

impl Progress for Display<'_> {
    fn started(&mut self, position: usize, total: usize, test: &TestCommand) {
        let command: String = if test.command.chars().count() > SHOWN_COMMAND {
            let cut: String = test.command.chars().take(SHOWN_COMMAND - 1).collect();
            format!("{cut}…")
        } else {
            test.command.clone()
        };
        self.current = format!("[{}/{total}] {}: {command}", position + 1, test.component);
        // Progress is best effort: a closed stderr must not stop the tests.
        if self.terminal {
            self.last_draw = None;
            self.waiting(Duration::ZERO);
        } else {
            let _ = writeln!(self.out, "{}", self.current);
        }
    }

    fn waiting(&mut self, elapsed: Duration) {
        if !self.terminal || self.last_draw.is_some_and(|last| last.elapsed() < REDRAW) {
            return;
        }
        self.last_draw = Some(Instant::now());
        self.frame = (self.frame + 1) % FRAMES.len();
        let ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        let _ = write!(
            self.out,
            "\r\x1b[2K{} {}  {}",
            FRAMES[self.frame],
            self.current,
            self.style.dim().paint(&duration(ms))
        );
        let _ = self.out.flush();
    }

    fn finished(&mut self, position: usize, total: usize, result: &TestResult) {
        let outcome = if result.passed {
            self.style.green().paint("passed")
        } else {
            self.style.red().paint("failed")
        };
        let line = format!(
            "[{}/{total}] {}: {outcome} in {}",
            position + 1,
            result.component,
            duration(result.duration_ms)
        );
        if self.terminal {
            let _ = writeln!(self.out, "\r\x1b[2K{line}");
        } else {
            let _ = writeln!(self.out, "{line}");
        }
    }
}
