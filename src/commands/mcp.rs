//! `astrix mcp`: serve the MCP tools over stdio for the repository in the current directory.
//!
//! Standard output is the transport and carries nothing else; log lines go to standard
//! error. The server runs on a single-threaded tokio runtime (blocking work, such as test
//! runs, goes to its blocking pool) and returns when the client closes standard input.

use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use rmcp::ServiceExt as _;

use crate::app::Context;
use crate::cli::McpArgs;
use crate::exit::ExitStatus;
use crate::mcp::{Log, Server};

/// Runs `astrix mcp` until the client closes standard input.
pub fn run(_args: &McpArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let log: Log = Arc::new(Mutex::new(Box::new(std::io::stderr())));
    let server = Server::new(ctx.cwd.clone(), ctx.env.clone(), Arc::clone(&log));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the MCP server's runtime")?;
    let result = runtime.block_on(async {
        let service = server
            .serve(rmcp::transport::stdio())
            .await
            .context("the MCP client did not complete the initialisation")?;
        service
            .waiting()
            .await
            .context("the MCP server stopped unexpectedly")
    });
    // The blocking read of standard input may still be pending on the runtime's pool; it
    // must not keep the process alive once the session is over.
    runtime.shutdown_background();
    result?;
    Ok(ExitStatus::Allowed)
}
