//! Reading an Astrixfile.ax: TOML with spans, then validation into a [`Policy`].
//!
//! INTERFACE STUB — to be implemented.

use super::Policy;
use crate::diagnostic::Diagnostics;

/// Reads and validates a policy. `file` is the name shown in diagnostics. On success the
/// warnings (if any) are returned beside the policy.
pub fn load(file: &str, source: &str) -> Result<(Policy, Diagnostics), Diagnostics> {
    Err(Diagnostics {
        file: file.to_owned(),
        source: source.to_owned(),
        items: Vec::new(),
    })
}
