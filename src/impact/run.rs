//! Running test commands: each with `sh -c` at the repository root, one after another (test
//! runners of one workspace share build directories and locks), stdout and stderr captured
//! together in order. A [`Progress`] hears about each step, so that a terminal can show a
//! spinner and a log a line per test.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::analysis::TestCommand;

/// How often a running test is checked on (and its progress reported).
const POLL: Duration = Duration::from_millis(20);
/// How long to wait for a finished test's output when a process it started keeps the pipe
/// open (a server left running in the background).
const OUTPUT_GRACE: Duration = Duration::from_secs(2);

/// The result of one test command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TestResult {
    /// The component it tests.
    pub component: String,
    /// The command.
    pub command: String,
    /// Its exit code; `null` when a signal ended it.
    pub exit_code: Option<i32>,
    /// How long it ran.
    pub duration_ms: u64,
    /// Whether it exited with 0.
    pub passed: bool,
    /// What it printed, stdout and stderr interleaved.
    #[serde(skip)]
    pub output: Vec<u8>,
}

/// Hears about a run as it goes.
pub trait Progress {
    /// Test `position` (0-based) of `total` starts.
    fn started(&mut self, position: usize, total: usize, test: &TestCommand);
    /// The current test is still running.
    fn waiting(&mut self, elapsed: Duration);
    /// The current test ended.
    fn finished(&mut self, position: usize, total: usize, result: &TestResult);
    /// Whether the run should stop: the running test is killed and no other starts (the MCP
    /// server stops a run whose client cancelled it).
    fn cancelled(&mut self) -> bool {
        false
    }
}

/// A test command could not be started.
#[derive(Debug, thiserror::Error)]
#[error("cannot run `{command}` with `sh`")]
pub struct RunError {
    /// The command.
    pub command: String,
    /// Why.
    #[source]
    pub source: std::io::Error,
}

/// Runs `tests` in `dir`, in order, reporting to `progress`.
pub fn run_tests(
    tests: &[TestCommand],
    dir: &Path,
    progress: &mut dyn Progress,
) -> Result<Vec<TestResult>, RunError> {
    let mut results = Vec::with_capacity(tests.len());
    for (position, test) in tests.iter().enumerate() {
        if progress.cancelled() {
            return Err(RunError {
                command: test.command.clone(),
                source: cancelled(),
            });
        }
        progress.started(position, tests.len(), test);
        let result = run_one(test, dir, progress).map_err(|source| RunError {
            command: test.command.clone(),
            source,
        })?;
        progress.finished(position, tests.len(), &result);
        results.push(result);
    }
    Ok(results)
}

/// The error of a run that was cancelled.
fn cancelled() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::Interrupted, "the run was cancelled")
}

fn run_one(
    test: &TestCommand,
    dir: &Path,
    progress: &mut dyn Progress,
) -> std::io::Result<TestResult> {
    let start = Instant::now();
    // `exec 2>&1` first: one pipe keeps stdout and stderr in the order they were written.
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{}", test.command))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let (sender, receiver) = mpsc::channel();
    if let Some(mut stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut buffer = [0_u8; 8192];
            loop {
                match stdout.read(&mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(read) => {
                        if sender.send(buffer[..read].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    }
    let mut output = Vec::new();
    let status = loop {
        while let Ok(chunk) = receiver.try_recv() {
            output.extend(chunk);
        }
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if progress.cancelled() {
            // Ends `sh`, which has exec'd into the command when it is a simple one; processes
            // the command started in the background may outlive it.
            let _ = child.kill();
            let _ = child.wait();
            return Err(cancelled());
        }
        progress.waiting(start.elapsed());
        std::thread::sleep(POLL);
    };
    let duration = start.elapsed();
    let deadline = Instant::now() + OUTPUT_GRACE;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match receiver.recv_timeout(left) {
            Ok(chunk) => output.extend(chunk),
            Err(_) => break,
        }
    }
    Ok(TestResult {
        component: test.component.clone(),
        command: test.command.clone(),
        exit_code: status.code(),
        duration_ms: u64::try_from(duration.as_millis()).unwrap_or(u64::MAX),
        passed: status.success(),
        output,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Log(Vec<String>);

    impl Progress for Log {
        fn started(&mut self, position: usize, total: usize, test: &TestCommand) {
            self.0
                .push(format!("start {}/{total} {}", position + 1, test.component));
        }
        fn waiting(&mut self, _: Duration) {}
        fn finished(&mut self, _: usize, _: usize, result: &TestResult) {
            self.0
                .push(format!("end {} {:?}", result.component, result.exit_code));
        }
    }

    fn test(component: &str, command: &str) -> TestCommand {
        TestCommand {
            component: component.to_owned(),
            command: command.to_owned(),
            also_for: Vec::new(),
        }
    }

    #[test]
    fn runs_in_order_and_captures_both_streams() {
        let dir = std::env::temp_dir();
        let mut log = Log::default();
        let results = run_tests(
            &[
                test("a", "echo out; echo err >&2; echo out2"),
                test("b", "exit 3"),
            ],
            &dir,
            &mut log,
        )
        .unwrap();
        assert_eq!(
            log.0,
            [
                "start 1/2 a",
                "end a Some(0)",
                "start 2/2 b",
                "end b Some(3)"
            ]
        );
        assert_eq!(
            String::from_utf8_lossy(&results[0].output),
            "out\nerr\nout2\n"
        );
        assert!(results[0].passed && !results[1].passed);
    }

    #[test]
    fn a_comment_in_the_command_does_not_swallow_the_redirect() {
        let results = run_tests(
            &[test("a", "echo hi >&2 # a comment")],
            &std::env::temp_dir(),
            &mut Log::default(),
        )
        .unwrap();
        assert_eq!(String::from_utf8_lossy(&results[0].output), "hi\n");
    }

    /// Cancels as soon as a test has started.
    struct CancelOnStart(bool);

    impl Progress for CancelOnStart {
        fn started(&mut self, _: usize, _: usize, _: &TestCommand) {
            self.0 = true;
        }
        fn waiting(&mut self, _: Duration) {}
        fn finished(&mut self, _: usize, _: usize, _: &TestResult) {}
        fn cancelled(&mut self) -> bool {
            self.0
        }
    }

    #[test]
    fn a_cancelled_run_kills_the_running_test_and_starts_no_other() {
        let started = Instant::now();
        let error = run_tests(
            &[test("a", "sleep 30"), test("b", "echo never")],
            &std::env::temp_dir(),
            &mut CancelOnStart(false),
        )
        .unwrap_err();
        assert_eq!(error.command, "sleep 30");
        assert_eq!(error.source.kind(), std::io::ErrorKind::Interrupted);
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
