//! `astrix mcp`: serve the MCP tools over stdio for the repository in the current directory.
//!
//! Standard output is the transport and carries nothing else; log lines go to standard
//! error. [`crate::mcp::session`] runs the session (on a single-threaded tokio runtime, with
//! blocking work such as test runs on its blocking pool) and says how it ends: when the
//! client closes standard input, or a signal stops the server.

use std::io::Write as _;
use std::sync::{Arc, Mutex};

use crate::cli::McpArgs;
use crate::context::Context;
use crate::exit::ExitStatus;
use crate::mcp::Log;
use crate::mcp::session::serve_stdio;

/// Runs `astrix mcp` until the client closes standard input or stops the server.
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
    serve_stdio(dir, ctx.env.clone(), log)?;
    Ok(ExitStatus::Allowed)
}
