//! The gate's own holds, beside the policy's rules: a change to the policy file is held, a
//! policy file in the change that does not validate is denied, and while the committed one
//! does not validate everything is held.

use crate::diagnostic::Diagnostics;
use crate::eval::RuleOutcome;
use crate::git::{Change, ChangeKind, Repository};
use crate::policy::{self, FILE_NAME, Verdict};

use super::ChangeFacts;

/// The gate rule that holds every change to the policy file.
pub const POLICY_CHANGE: &str = "policy-change";
/// The gate rule that denies a staged policy file that does not validate.
pub const STAGED_POLICY_INVALID: &str = "staged-policy-invalid";
/// The gate rule that holds every change while the committed policy does not validate.
pub const COMMITTED_POLICY_INVALID: &str = "committed-policy-invalid";

/// The gate's hold on a change that edits or deletes the policy file.
pub fn policy_change_hold(facts: &ChangeFacts) -> Option<RuleOutcome> {
    facts.files.iter().any(|file| file == FILE_NAME).then(|| {
        RuleOutcome::gate(
            POLICY_CHANGE,
            Verdict::RequireApproval,
            format!(
                "this change edits {FILE_NAME}; a human approves every change to the policy that judges commits"
            ),
            vec![FILE_NAME.to_owned()],
        )
    })
}

/// The diagnostics of a staged Astrixfile.ax that the change adds or edits and that does not
/// validate.
pub(crate) fn staged_policy_problems(
    repo: &Repository,
    change: &Change,
) -> anyhow::Result<Option<Diagnostics>> {
    if !touches_policy(change) {
        return Ok(None);
    }
    let Some(blob) = repo.file_in_index(FILE_NAME)? else {
        return Ok(None);
    };
    Ok(policy_problems(blob.data))
}

/// The diagnostics of the Astrixfile.ax at commit `rev`, when `change` (the commit's, or a
/// range's ending there) adds or edits it and it does not validate.
pub fn committed_policy_problems(
    repo: &Repository,
    rev: &str,
    change: &Change,
) -> anyhow::Result<Option<Diagnostics>> {
    if !touches_policy(change) {
        return Ok(None);
    }
    Ok(repo
        .file_at_rev(rev, FILE_NAME)?
        .and_then(|blob| policy_problems(blob.data)))
}

/// Whether `change` adds or edits Astrixfile.ax.
pub fn touches_policy(change: &Change) -> bool {
    change
        .files
        .iter()
        .any(|file| file.path == FILE_NAME && file.kind != ChangeKind::Deleted)
}

/// The diagnostics of a policy file's content, when it does not validate.
pub fn policy_problems(data: Vec<u8>) -> Option<Diagnostics> {
    match policy::decode(FILE_NAME, data) {
        Ok(text) => policy::load(FILE_NAME, &text).err(),
        Err(diagnostics) => Some(diagnostics),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_file_changes_are_held() {
        let facts = ChangeFacts {
            files: vec!["Astrixfile.ax".to_owned()],
            ..ChangeFacts::default()
        };
        assert!(policy_change_hold(&facts).is_some());
        let nested = ChangeFacts {
            files: vec!["docs/Astrixfile.ax".to_owned()],
            ..ChangeFacts::default()
        };
        assert!(policy_change_hold(&nested).is_none());
    }
}
