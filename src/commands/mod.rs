//! One module per subcommand. Each takes its clap arguments and the [`Context`] and returns
//! an exit status or an error (which the caller turns into exit 2).
//!
//! [`Context`]: crate::context::Context

pub mod approve;
pub mod backstop;
pub mod blast_radius;
pub mod check;
pub mod ci;
pub mod completions;
pub mod docs;
pub mod evaluate;
pub mod hook;
pub mod impacted_tests;
pub mod init;
pub mod install;
pub mod intent;
pub mod log;
pub mod mcp;
pub mod schema;
pub mod test;
pub mod trailers;
pub mod validate;

use std::path::{Path, PathBuf};

use crate::policy::FILE_NAME;

/// The root of the work tree that contains `cwd`: the nearest directory with a `.git`
/// directory or file.
pub fn find_work_tree(cwd: &Path) -> Option<PathBuf> {
    cwd.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The Astrixfile a command reads when none is named: the one at the root of the work tree,
/// else in the current directory.
pub fn default_policy_path(cwd: &Path) -> PathBuf {
    find_work_tree(cwd)
        .unwrap_or_else(|| cwd.to_path_buf())
        .join(FILE_NAME)
}
