//! Running test commands: each with `sh -c` at the repository root, one after another (test
//! runners of one workspace share build directories and locks), stdout and stderr captured
//! together in order. A [`Progress`] hears about each step, so that a terminal can show a
//! spinner and a log a line per test.
//!
//! [`RunOptions`] say how a run is contained. The MCP server runs each command in a process
//! group of its own and, when the call is cancelled, times out or its session ends, ends the
//! whole group (SIGTERM, a grace period, then SIGKILL): `sh` forks for all but a simple
//! command, so killing `sh` alone would leave the test running. The command line keeps the
//! commands in its own group instead, so that a terminal's Ctrl-C reaches them. Process
//! groups are POSIX: elsewhere (Windows) only the `sh` process itself is killed; a job object
//! would be the way to contain its children there, and astrix does not create one yet.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::analysis::TestCommand;

/// How often a running test is checked on (and its progress reported).
const POLL: Duration = Duration::from_millis(20);
/// How long to wait for a finished test's output when a process it started keeps the pipe
/// open (a server left running in the background).
const OUTPUT_GRACE: Duration = Duration::from_secs(2);
/// How long a process group has between SIGTERM and SIGKILL.
#[cfg_attr(not(unix), expect(dead_code, reason = "process groups are POSIX"))]
const KILL_GRACE: Duration = Duration::from_secs(2);

/// How a run is contained.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Run each command in a process group of its own, and end the whole group when the
    /// command is stopped, or when it exits and leaves processes behind (POSIX only).
    pub own_process_group: bool,
    /// When the run must end: the running command is stopped and reported with
    /// `timed_out`, and no other command starts.
    pub deadline: Option<Instant>,
}

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
    /// Whether the run's deadline stopped it ([`RunOptions::deadline`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
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
///
/// At the deadline of `options` the run ends early: the running command is stopped (its
/// result has `timed_out`), and the commands after it are not started, so there are fewer
/// results than tests.
pub fn run_tests(
    tests: &[TestCommand],
    dir: &Path,
    options: RunOptions,
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
        if past(options.deadline) {
            break;
        }
        progress.started(position, tests.len(), test);
        let result = run_one(test, dir, options, progress).map_err(|source| RunError {
            command: test.command.clone(),
            source,
        })?;
        progress.finished(position, tests.len(), &result);
        let timed_out = result.timed_out;
        results.push(result);
        if timed_out {
            break;
        }
    }
    Ok(results)
}

fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|deadline| Instant::now() >= deadline)
}

/// The error of a run that was cancelled.
fn cancelled() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::Interrupted, "the run was cancelled")
}

fn run_one(
    test: &TestCommand,
    dir: &Path,
    options: RunOptions,
    progress: &mut dyn Progress,
) -> std::io::Result<TestResult> {
    let start = Instant::now();
    // `exec 2>&1` first: one pipe keeps stdout and stderr in the order they were written.
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("exec 2>&1\n{}", test.command))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    if options.own_process_group {
        use std::os::unix::process::CommandExt as _;
        command.process_group(0);
    }
    let mut child = command.spawn()?;
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
    let status: Option<ExitStatus> = loop {
        while let Ok(chunk) = receiver.try_recv() {
            output.extend(chunk);
        }
        if let Some(status) = child.try_wait()? {
            // What the command left running in its group does not outlive it.
            end(&mut child, options);
            break Some(status);
        }
        if progress.cancelled() {
            end(&mut child, options);
            return Err(cancelled());
        }
        if past(options.deadline) {
            end(&mut child, options);
            break None;
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
        exit_code: status.and_then(|status| status.code()),
        duration_ms: u64::try_from(duration.as_millis()).unwrap_or(u64::MAX),
        passed: status.is_some_and(|status| status.success()),
        timed_out: status.is_none(),
        output,
    })
}

/// Ends a command and what it started: with [`RunOptions::own_process_group`], its whole
/// process group (POSIX); otherwise `sh` itself, which has exec'd into the command when it
/// is a simple one (processes that the command started may outlive it then).
fn end(child: &mut Child, options: RunOptions) {
    #[cfg(unix)]
    if options.own_process_group {
        end_group(child);
    }
    #[cfg(not(unix))]
    let _ = options;
    // Already reaped when it exited by itself; `kill` then does nothing.
    let _ = child.kill();
    let _ = child.wait();
}

/// Sends SIGTERM to the process group that `child` leads, gives its members [`KILL_GRACE`]
/// to exit, then sends SIGKILL to those left.
#[cfg(unix)]
fn end_group(child: &mut Child) {
    use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};
    let group = Pid::from_child(child);
    if test_kill_process_group(group).is_err() {
        // Nobody is left in the group (the usual end of a command that exited).
        return;
    }
    let _ = kill_process_group(group, Signal::TERM);
    let deadline = Instant::now() + KILL_GRACE;
    while Instant::now() < deadline {
        // Reaps the leader once it exits: a zombie would still count as a member.
        let _ = child.try_wait();
        if test_kill_process_group(group).is_err() {
            return;
        }
        std::thread::sleep(POLL);
    }
    let _ = kill_process_group(group, Signal::KILL);
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
            RunOptions::default(),
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
            RunOptions::default(),
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
            RunOptions::default(),
            &mut CancelOnStart(false),
        )
        .unwrap_err();
        assert_eq!(error.command, "sleep 30");
        assert_eq!(error.source.kind(), std::io::ErrorKind::Interrupted);
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    /// Whether process `pid` has ended (a zombie that nobody reaped has).
    #[cfg(target_os = "linux")]
    fn gone(pid: &str) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => stat
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
            Err(_) => true,
        }
    }

    /// Cancels once the inner shell wrote its process id.
    #[cfg(target_os = "linux")]
    struct CancelWhenWritten(std::path::PathBuf);
    #[cfg(target_os = "linux")]
    impl Progress for CancelWhenWritten {
        fn started(&mut self, _: usize, _: usize, _: &TestCommand) {}
        fn waiting(&mut self, _: Duration) {}
        fn finished(&mut self, _: usize, _: usize, _: &TestResult) {}
        fn cancelled(&mut self) -> bool {
            std::fs::read_to_string(&self.0).is_ok_and(|pid| pid.ends_with('\n'))
        }
    }

    /// Covers issue #20: `sh` forks for a command that is not simple, so killing `sh` alone
    /// leaves the test running. The whole process group ends.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_cancelled_run_ends_the_whole_process_group() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let command = "sh -c 'echo $$ > pid; exec sleep 30'; echo never";
        let started = Instant::now();

        let options = RunOptions {
            own_process_group: true,
            deadline: None,
        };
        let error = run_tests(
            &[test("a", command)],
            dir.path(),
            options,
            &mut CancelWhenWritten(pid_file.clone()),
        )
        .unwrap_err();
        assert_eq!(error.source.kind(), std::io::ErrorKind::Interrupted);
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let pid = pid.trim();
        let since = Instant::now();
        while !gone(pid) {
            assert!(
                since.elapsed() < Duration::from_secs(5),
                "`sleep 30` ({pid}) outlived its cancelled run"
            );
            std::thread::sleep(POLL);
        }
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    /// At the deadline the running command's group ends, its result says so, and no other
    /// command starts.
    #[cfg(unix)]
    #[test]
    fn a_run_past_its_deadline_stops_and_says_so() {
        let options = RunOptions {
            own_process_group: true,
            deadline: Some(Instant::now() + Duration::from_millis(300)),
        };
        let started = Instant::now();
        let results = run_tests(
            &[
                test("a", "echo before; sleep 30; echo after"),
                test("b", "echo never"),
            ],
            &std::env::temp_dir(),
            options,
            &mut Log::default(),
        )
        .unwrap();
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(results.len(), 1);
        assert!(results[0].timed_out && !results[0].passed);
        assert_eq!(results[0].exit_code, None);
        assert_eq!(String::from_utf8_lossy(&results[0].output), "before\n");
    }

    /// A command that exits and leaves a process in its group: the process ends too.
    #[cfg(target_os = "linux")]
    #[test]
    fn what_a_command_leaves_running_in_its_group_ends_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let options = RunOptions {
            own_process_group: true,
            deadline: None,
        };
        let results = run_tests(
            &[test("a", "sleep 30 & echo $! > pid; echo done")],
            dir.path(),
            options,
            &mut Log::default(),
        )
        .unwrap();
        assert!(results[0].passed);
        let pid = std::fs::read_to_string(dir.path().join("pid")).unwrap();
        let since = Instant::now();
        while !gone(pid.trim()) {
            assert!(
                since.elapsed() < Duration::from_secs(5),
                "the background sleep outlived its command"
            );
            std::thread::sleep(POLL);
        }
    }
}
