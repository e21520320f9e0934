//! Where the policy comes from: a file named on the command line, a revision of the
//! repository, or the built-in default. Every evaluating command resolves its policy here,
//! so that what `evaluate` answers is what the commit gate does.

use std::fmt::Write as _;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::diagnostic::Diagnostics;
use crate::policy::{self, Policy};
use crate::report::PolicyProvenance;

/// A validated policy and where it came from.
#[derive(Debug, Clone)]
pub struct LoadedPolicy {
    /// The policy.
    pub policy: Policy,
    /// Where it came from.
    pub provenance: PolicyProvenance,
    /// Warnings found while validating it.
    pub warnings: Diagnostics,
}

/// A policy file that does not validate.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the policy `{}` is invalid", .0.file)]
pub struct InvalidPolicyError(pub Diagnostics);

/// `sha256:<hex>` of the policy text.
pub fn digest(text: &str) -> String {
    let hash = Sha256::digest(text.as_bytes());
    let mut out = String::from("sha256:");
    for byte in hash {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// Validates `text`; `provenance` says where it came from (its digest is filled in here).
pub fn from_text(
    label: &str,
    text: &str,
    mut provenance: PolicyProvenance,
) -> Result<LoadedPolicy, InvalidPolicyError> {
    provenance.digest = digest(text);
    match policy::load(label, text) {
        Ok((policy, warnings)) => Ok(LoadedPolicy {
            policy,
            provenance,
            warnings,
        }),
        Err(diagnostics) => Err(InvalidPolicyError(diagnostics)),
    }
}

/// The built-in default policy; `why` says why it applies.
pub fn built_in(why: &str) -> LoadedPolicy {
    let provenance = PolicyProvenance {
        source: "built-in".to_owned(),
        file: None,
        revision: None,
        digest: String::new(),
        description: format!("the built-in default policy ({why})"),
    };
    match from_text(
        "<built-in default policy>",
        policy::DEFAULT_POLICY,
        provenance,
    ) {
        Ok(loaded) => loaded,
        // INVARIANT: the built-in policy is validated by unit tests; reaching this is a bug,
        // and the panic hook turns it into exit 2 (the action is blocked).
        Err(err) => panic!("the built-in default policy does not validate: {err:?}"),
    }
}

/// Reads and validates a policy file from disk.
pub fn from_file(path: &Path) -> anyhow::Result<LoadedPolicy> {
    let bytes = fs_err::read(path)?;
    let label = path.display().to_string();
    let text = String::from_utf8(bytes).map_err(|_| {
        anyhow::anyhow!(
            "`{label}` is not UTF-8 text; an Astrixfile is a TOML file (is it a binary file?)"
        )
    })?;
    let provenance = PolicyProvenance {
        source: "file".to_owned(),
        file: Some(label.clone()),
        revision: None,
        digest: String::new(),
        description: format!("`{label}` (named on the command line)"),
    };
    Ok(from_text(&label, &text, provenance)?)
}
