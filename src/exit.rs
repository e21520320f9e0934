//! Exit codes shared by every evaluating command (SPEC §5).

use std::process::ExitCode;

use crate::policy::Verdict;

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Allowed, including held-and-approved; or a command that succeeded.
    Allowed = 0,
    /// Denied, or a check that found failures (`astrix test`).
    Denied = 1,
    /// An error: bad usage, invalid policy or intent, unreadable repository. Fails closed.
    Error = 2,
    /// Held for a human's approval.
    Held = 3,
}

impl ExitStatus {
    /// The exit status of a final decision.
    pub fn from_decision(verdict: Verdict, approved: bool) -> Self {
        match verdict {
            Verdict::Allow => ExitStatus::Allowed,
            Verdict::RequireApproval if approved => ExitStatus::Allowed,
            Verdict::RequireApproval => ExitStatus::Held,
            Verdict::Deny => ExitStatus::Denied,
        }
    }

    /// The worse of two statuses, in the order error > denied > held > allowed.
    #[must_use]
    pub fn worst(self, other: Self) -> Self {
        fn rank(status: ExitStatus) -> u8 {
            match status {
                ExitStatus::Allowed => 0,
                ExitStatus::Held => 1,
                ExitStatus::Denied => 2,
                ExitStatus::Error => 3,
            }
        }
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> Self {
        ExitCode::from(status as u8)
    }
}
