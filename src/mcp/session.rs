//! One stdio session of `astrix mcp`: the runtime, the transport, the signals that end it,
//! and what its parts share (where the log goes, why the session ends, and how many test
//! runs are still going).
//!
//! How a session ends:
//!
//! - the client closes standard input: a call still running gets up to 5 seconds (rmcp's
//!   drain) to finish and be answered, then it is stopped;
//! - SIGTERM, SIGINT or SIGHUP: a call still running is stopped at once;
//!
//! and in both cases a test run that is stopped ends its command's process group (SIGTERM,
//! 2 seconds, SIGKILL) before the process exits, which it then does at once.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use rmcp::ServiceExt as _;

use super::wire::LineTransport;
use super::{Log, Server, TOOLS};
use crate::env::EnvSnapshot;

/// How long the end of a session waits for the test runs it stopped to end their commands'
/// process groups (each has 2 seconds between SIGTERM and SIGKILL).
const RUN_STOP_GRACE: Duration = Duration::from_secs(4);

/// How long rmcp gives the calls still running to finish once standard input closes.
pub const DRAIN_SECONDS: u64 = 5;

/// What the parts of one session share.
pub struct Session {
    log: Log,
    /// Why the session ends, once it does: the first reason given.
    ending: Mutex<Option<String>>,
    /// The test runs still going.
    runs: Mutex<usize>,
    /// Notified as each test run ends.
    run_ended: Condvar,
}

impl Session {
    /// A session whose log lines go to `log`.
    pub fn new(log: Log) -> Self {
        Self {
            log,
            ending: Mutex::new(None),
            runs: Mutex::new(0),
            run_ended: Condvar::new(),
        }
    }

    /// Writes `astrix mcp: {line}` to the log.
    pub fn log(&self, line: &str) {
        if let Ok(mut log) = self.log.lock() {
            // A closed stderr cannot be reported anywhere.
            let _ = writeln!(log, "astrix mcp: {line}");
        }
    }

    /// The log itself.
    pub fn log_handle(&self) -> &Log {
        &self.log
    }

    /// Records why the session ends (`the client closed the connection`); a later reason
    /// does not replace the first.
    pub fn end(&self, why: &str) {
        if let Ok(mut ending) = self.ending.lock()
            && ending.is_none()
        {
            *ending = Some(why.to_owned());
        }
    }

    /// Why the session ends, once it does; `None` while it goes on.
    pub fn ending(&self) -> Option<String> {
        self.ending.lock().ok().and_then(|ending| ending.clone())
    }

    /// Counts a test run as going until the returned guard is dropped.
    pub fn run_started(self: &Arc<Self>) -> RunGuard {
        if let Ok(mut runs) = self.runs.lock() {
            *runs += 1;
        }
        RunGuard(Arc::clone(self))
    }

    /// The test runs still going.
    pub fn runs(&self) -> usize {
        self.runs.lock().map_or(0, |runs| *runs)
    }

    /// Blocks until no test run is going, or `grace` has passed; whether none is.
    fn wait_for_runs(&self, grace: Duration) -> bool {
        let Ok(runs) = self.runs.lock() else {
            return false;
        };
        self.run_ended
            .wait_timeout_while(runs, grace, |runs| *runs > 0)
            .is_ok_and(|(runs, _)| *runs == 0)
    }
}

/// A test run that is going; it ends when this is dropped.
pub struct RunGuard(Arc<Session>);

impl Drop for RunGuard {
    fn drop(&mut self) {
        if let Ok(mut runs) = self.0.runs.lock() {
            *runs = runs.saturating_sub(1);
        }
        self.0.run_ended.notify_all();
    }
}

/// Serves the MCP tools for the repository at (or above) `dir` over stdio, until the client
/// closes standard input or a signal stops the server.
pub fn serve_stdio(dir: PathBuf, env: EnvSnapshot, log: Log) -> anyhow::Result<()> {
    let server = Server::new(dir, env, log);
    let session = server.session();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the MCP server's runtime")?;
    let result = runtime.block_on(async {
        let service = server
            .serve(LineTransport::new(
                tokio::io::stdin(),
                tokio::io::stdout(),
                TOOLS.to_vec(),
                Arc::clone(&session),
            ))
            .await
            .context("the MCP client did not complete the initialisation")?;
        // A client that stops the server with a signal (SIGTERM, SIGINT, SIGHUP) ends the
        // session at once: a call still running is stopped, with its test's process group.
        let token = service.cancellation_token();
        let signal_session = Arc::clone(&session);
        tokio::spawn(async move {
            let name = termination().await;
            signal_session.end(&format!("the server was stopped by {name}"));
            if signal_session.runs() > 0 {
                signal_session.log(&format!(
                    "stopping on {name}; stopping the test run still going"
                ));
            } else {
                signal_session.log(&format!("stopping on {name}"));
            }
            token.cancel();
        });
        service
            .waiting()
            .await
            .context("the MCP server stopped unexpectedly")
    });
    if session.runs() > 0 {
        let why = session
            .ending()
            .unwrap_or_else(|| "the session ended".to_owned());
        session.log(&format!(
            "stopping the test run still going ({why}) and waiting for its test to end"
        ));
    }
    // Dropping the session's tasks cancels a test run still going; its blocking task then
    // ends the test's process group, which is waited for here. A read of standard input
    // that is still pending (after a signal, stdin is still open) is not waited for.
    runtime.shutdown_background();
    if !session.wait_for_runs(RUN_STOP_GRACE) {
        session.log(&format!(
            "a test run did not stop within {} seconds; its processes may outlive the server",
            RUN_STOP_GRACE.as_secs()
        ));
    }
    result?;
    Ok(())
}

/// Waits for `signal`, or for ever when it could not be listened to.
#[cfg(unix)]
async fn received(signal: Option<&mut tokio::signal::unix::Signal>) {
    match signal {
        Some(signal) => {
            signal.recv().await;
        }
        None => std::future::pending().await,
    }
}

/// Waits for a signal that asks the server to stop, and names it. Where a signal cannot be
/// listened to, waits for ever (the server then stops only when stdin closes).
#[cfg(unix)]
async fn termination() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let listen = |kind: SignalKind| signal(kind).ok();
    let (mut terminate, mut interrupt, mut hangup) = (
        listen(SignalKind::terminate()),
        listen(SignalKind::interrupt()),
        listen(SignalKind::hangup()),
    );
    tokio::select! {
        () = received(terminate.as_mut()) => "SIGTERM",
        () = received(interrupt.as_mut()) => "SIGINT",
        () = received(hangup.as_mut()) => "SIGHUP",
    }
}

/// Waits for Ctrl-C, and names it.
#[cfg(not(unix))]
async fn termination() -> &'static str {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
    "Ctrl-C"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Arc<Session> {
        Arc::new(Session::new(Arc::new(Mutex::new(
            Box::new(std::io::sink()),
        ))))
    }

    #[test]
    fn the_first_reason_to_end_is_kept() {
        let session = session();
        assert_eq!(session.ending(), None);
        session.end("the client closed the connection");
        session.end("the server was stopped by SIGTERM");
        assert_eq!(
            session.ending().as_deref(),
            Some("the client closed the connection")
        );
    }

    #[test]
    fn runs_are_counted_until_their_guards_drop() {
        let session = session();
        let first = session.run_started();
        let second = session.run_started();
        assert_eq!(session.runs(), 2);
        drop(first);
        assert!(!session.wait_for_runs(Duration::from_millis(10)));
        let waiter = std::thread::spawn({
            let session = Arc::clone(&session);
            move || session.wait_for_runs(Duration::from_secs(10))
        });
        drop(second);
        assert!(waiter.join().unwrap());
        assert_eq!(session.runs(), 0);
    }
}
