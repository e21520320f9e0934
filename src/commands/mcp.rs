//! `astrix mcp`: serve the MCP tools over stdio for the repository in the current directory.
//!
//! Standard output is the transport and carries nothing else; log lines go to standard
//! error. The server runs on a single-threaded tokio runtime (blocking work, such as test
//! runs, goes to its blocking pool) and returns when the client closes standard input.

use std::io::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use rmcp::ServiceExt as _;

use crate::cli::McpArgs;
use crate::context::Context;
use crate::exit::ExitStatus;
use crate::mcp::wire::LineTransport;
use crate::mcp::{Log, Server, TOOLS};

/// How long the end of a session waits for a cancelled test run to end its test's process
/// group (which has 2 seconds between SIGTERM and SIGKILL).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(4);

/// Runs `astrix mcp` until the client closes standard input.
pub fn run(args: &McpArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let dir = match &args.directory {
        Some(dir) => {
            let dir = ctx.cwd.join(dir);
            anyhow::ensure!(dir.is_dir(), "`{}` is not a directory", dir.display());
            dir
        }
        None => ctx.cwd.clone(),
    };
    let log: Log = Arc::new(Mutex::new(Box::new(std::io::stderr())));
    if let Ok(mut log) = log.lock() {
        // Only a line for the client's log; nothing else is written before the session.
        let _ = writeln!(log, "astrix mcp: serving `{}` over stdio", dir.display());
    }
    let server = Server::new(dir, ctx.env.clone(), Arc::clone(&log));
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
            ))
            .await
            .context("the MCP client did not complete the initialisation")?;
        // A client that stops the server with a signal (SIGTERM, SIGINT, SIGHUP) ends the
        // session as closing stdin does: a test run still going is stopped, with its
        // process group, before the server exits.
        let token = service.cancellation_token();
        let signal_log = Arc::clone(&log);
        tokio::spawn(async move {
            let name = termination().await;
            if let Ok(mut log) = signal_log.lock() {
                let _ = writeln!(log, "astrix mcp: stopping on {name}");
            }
            token.cancel();
        });
        service
            .waiting()
            .await
            .context("the MCP server stopped unexpectedly")
    });
    // Dropping the session's tasks cancels a test run still in progress; its blocking task
    // then kills the running test, which is waited for here (briefly: a pending read of
    // standard input must not keep the process alive once the session is over).
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    result?;
    Ok(ExitStatus::Allowed)
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
