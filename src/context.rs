//! What a command needs from the outside world — its streams, the environment read once,
//! the working directory and what the terminal allows — and the helpers every command's
//! output uses. The entry point ([`crate::app`]) builds it; commands and the MCP server only
//! read and write through it, so that the library never touches the process itself.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::env::EnvSnapshot;
use crate::report::style::Style;

/// What a command needs from the outside world.
pub struct Context<'a> {
    /// Results.
    pub stdout: &'a mut dyn Write,
    /// Diagnostics and progress.
    pub stderr: &'a mut dyn Write,
    /// The environment, read once.
    pub env: EnvSnapshot,
    /// The working directory.
    pub cwd: PathBuf,
    /// Styles for stdout.
    pub stdout_style: Style,
    /// Styles for stderr.
    pub stderr_style: Style,
    /// Whether stdin is a terminal (approval needs one).
    pub stdin_is_terminal: bool,
    /// Whether stderr is a terminal (progress is drawn in place there).
    pub stderr_is_terminal: bool,
}

/// Treats a broken pipe on stdout as success: the reader went away, the decision stands.
pub fn ignore_broken_pipe(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
