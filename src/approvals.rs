//! The approvals store: a human's approval of exactly one change (SPEC §6).
//!
//! An approval binds the change as the digest of its verbatim patch (made with fixed
//! options, see `git::Repository::patch_digest`), the policy's digest and the target
//! environment: the same patch on top of another parent (a rebase that leaves it unchanged)
//! keeps it; any change to the patch, the policy or the target makes it stale; it expires
//! after the policy's TTL. The parent it was approved on is recorded for people. The store is `astrix/approvals.json` in the repository's common
//! git directory, shared by linked worktrees. Each record carries a seal (a digest of its
//! fields) so that a hand-edited record is detected and refused; a forged store with
//! recomputed seals is outside what a local file can prevent (`astrix ci` re-judges).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The store's file name inside the astrix directory of the common git directory.
pub const FILE_NAME: &str = "approvals.json";

const STORE_VERSION: u32 = 2;

/// The version whose approvals bound a parent and a tree; they no longer apply.
const OLD_STORE_VERSION: u32 = 1;

/// What an approval is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalKey {
    /// `sha256:` digest of the change's verbatim patch.
    pub patch: String,
    /// `sha256:` digest of the policy that held the change.
    pub policy_digest: String,
    /// The target environment.
    pub target: String,
}

/// A recorded approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Approval {
    /// Short id, for `astrix approve --revoke`.
    pub id: String,
    /// What was approved.
    #[serde(flatten)]
    pub key: ApprovalKey,
    /// The commit the change went on top of when it was approved (`None` for a
    /// repository's first commit), for people: it is not part of what the approval binds.
    pub parent: Option<String>,
    /// The approver's git identity.
    pub approver_name: String,
    /// The approver's git e-mail.
    pub approver_email: String,
    /// When, in Unix seconds.
    pub created: i64,
    /// Until when, in Unix seconds.
    pub expires: i64,
    /// Why, in the approver's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The files of the approved change (for `--list`).
    #[serde(default)]
    pub files: Vec<String>,
    /// The rules that held the change.
    #[serde(default)]
    pub held_by: Vec<String>,
    /// Digest of every field above.
    pub seal: String,
}

impl Approval {
    /// Builds a sealed approval.
    #[expect(clippy::too_many_arguments, reason = "a record with this many fields")]
    pub fn new(
        key: ApprovalKey,
        parent: Option<String>,
        approver_name: String,
        approver_email: String,
        created: i64,
        expires: i64,
        reason: Option<String>,
        files: Vec<String>,
        held_by: Vec<String>,
    ) -> Self {
        let mut approval = Self {
            id: String::new(),
            key,
            parent,
            approver_name,
            approver_email,
            created,
            expires,
            reason,
            files,
            held_by,
            seal: String::new(),
        };
        approval.seal = approval.compute_seal();
        approval.id = approval
            .seal
            .chars()
            .skip("sha256:".len())
            .take(12)
            .collect();
        approval
    }

    fn compute_seal(&self) -> String {
        let mut hasher = Sha256::new();
        let mut field = |value: &str| {
            hasher.update(value.len().to_le_bytes());
            hasher.update(value.as_bytes());
        };
        field("astrix-approval-v2");
        field(&self.key.patch);
        field(self.parent.as_deref().unwrap_or(""));
        field(&self.key.policy_digest);
        field(&self.key.target);
        field(&self.approver_name);
        field(&self.approver_email);
        field(&self.created.to_string());
        field(&self.expires.to_string());
        field(self.reason.as_deref().unwrap_or(""));
        field(&self.files.join("\0"));
        field(&self.held_by.join("\0"));
        let digest = hasher.finalize();
        let mut out = String::from("sha256:");
        for byte in digest {
            out.push_str(&format!("{byte:02x}"));
        }
        out
    }

    /// Whether the seal matches the fields and the id belongs to the seal.
    pub fn is_intact(&self) -> bool {
        let seal = self.compute_seal();
        seal == self.seal && seal.get(7..19) == Some(self.id.as_str())
    }
}

/// What the store says about a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// A valid approval for exactly this content.
    Approved(Box<Approval>),
    /// Approvals exist for this content but none applies; the sentence says why.
    Stale(String),
    /// Nothing recorded for this content.
    None,
}

/// The version field of any store.
#[derive(Debug, Deserialize)]
struct VersionOnly {
    version: u32,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoreFile {
    version: u32,
    approvals: Vec<Approval>,
}

/// Errors of the approvals store.
/// The IO error is part of the message, not a `source`, so that an error report does not
/// print it twice.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "cannot read the approvals store `{}`: {error}; give the user that runs git read access to it",
        path.display()
    )]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(
        "cannot record the approval in `{}`: {error}; nothing was recorded (the store is as it was): make it writable again (free disk space, fix its permissions) and approve again",
        path.display()
    )]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(
        "the approvals store `{}` is corrupt ({message}); no approval in it is accepted: remove the file and approve again",
        path.display()
    )]
    Corrupt { path: PathBuf, message: String },
    #[error(
        "the approval `{id}` in `{}` was edited by hand (its seal does not match); remove it with `astrix approve --revoke {id}` and approve again",
        path.display()
    )]
    Tampered { path: PathBuf, id: String },
}

/// The approvals store of one repository.
#[derive(Debug, Clone)]
pub struct ApprovalStore {
    path: PathBuf,
}

impl ApprovalStore {
    /// The store inside `astrix_dir` (`<common git dir>/astrix`).
    pub fn new(astrix_dir: &Path) -> Self {
        Self {
            path: astrix_dir.join(FILE_NAME),
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every recorded approval (none when the file does not exist). A record whose seal
    /// does not match is an error: the store was edited.
    pub fn load(&self) -> Result<Vec<Approval>, StoreError> {
        let bytes = match fs_err::read(&self.path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => {
                return Err(StoreError::Read {
                    path: self.path.clone(),
                    error,
                });
            }
        };
        // A store of the version that bound a parent and a tree: its approvals no longer
        // apply (a human approves again), and recording one replaces it.
        if let Ok(old) = serde_json::from_slice::<VersionOnly>(&bytes)
            && old.version == OLD_STORE_VERSION
        {
            return Ok(Vec::new());
        }
        let file: StoreFile =
            serde_json::from_slice(&bytes).map_err(|error| StoreError::Corrupt {
                path: self.path.clone(),
                message: error.to_string(),
            })?;
        if file.version != STORE_VERSION {
            return Err(StoreError::Corrupt {
                path: self.path.clone(),
                message: format!("unknown store version {}", file.version),
            });
        }
        if let Some(bad) = file.approvals.iter().find(|approval| !approval.is_intact()) {
            return Err(StoreError::Tampered {
                path: self.path.clone(),
                id: bad.id.clone(),
            });
        }
        Ok(file.approvals)
    }

    /// Looks up an approval for `key` that has not expired at `now`; `parent` (the commit
    /// the change goes on top of) only says why an approval on the same parent is stale.
    pub fn lookup(
        &self,
        key: &ApprovalKey,
        parent: Option<&str>,
        now: i64,
    ) -> Result<Lookup, StoreError> {
        let approvals = self.load()?;
        Ok(lookup_in(&approvals, key, parent, now))
    }

    /// Records `approval`, dropping expired ones.
    pub fn record(&self, approval: Approval, now: i64) -> Result<(), StoreError> {
        let mut approvals = self.load()?;
        approvals.retain(|existing| existing.expires > now && existing.key != approval.key);
        approvals.push(approval);
        self.save(approvals)
    }

    /// Removes the approval with `id`; false when there is none.
    pub fn revoke(&self, id: &str) -> Result<bool, StoreError> {
        let mut approvals = match self.load() {
            Ok(approvals) => approvals,
            // Revoking is how a tampered record is cleaned up: drop it even if its seal is bad.
            Err(StoreError::Tampered { .. }) => self.load_unchecked()?,
            Err(other) => return Err(other),
        };
        let before = approvals.len();
        approvals.retain(|approval| approval.id != id);
        if approvals.len() == before {
            return Ok(false);
        }
        self.save(approvals)?;
        Ok(true)
    }

    fn load_unchecked(&self) -> Result<Vec<Approval>, StoreError> {
        let bytes = fs_err::read(&self.path).map_err(|error| StoreError::Read {
            path: self.path.clone(),
            error,
        })?;
        serde_json::from_slice::<StoreFile>(&bytes)
            .map(|file| file.approvals)
            .map_err(|error| StoreError::Corrupt {
                path: self.path.clone(),
                message: error.to_string(),
            })
    }

    /// Writes the store atomically: a temporary file, flushed, then renamed over the old one.
    fn save(&self, approvals: Vec<Approval>) -> Result<(), StoreError> {
        let write_error = |error| StoreError::Write {
            path: self.path.clone(),
            error,
        };
        let file = StoreFile {
            version: STORE_VERSION,
            approvals,
        };
        let text = serde_json::to_vec_pretty(&file)
            .map_err(|error| write_error(std::io::Error::other(error)))?;
        if let Some(dir) = self.path.parent() {
            fs_err::create_dir_all(dir).map_err(write_error)?;
        }
        let temporary = self.path.with_extension("json.tmp");
        let result = (|| -> std::io::Result<()> {
            let mut out = fs_err::File::create(&temporary)?;
            out.write_all(&text)?;
            out.write_all(b"\n")?;
            out.sync_all()?;
            fs_err::rename(&temporary, &self.path)
        })();
        if result.is_err() {
            let _ = fs_err::remove_file(&temporary);
        }
        result.map_err(write_error)
    }
}

fn lookup_in(approvals: &[Approval], key: &ApprovalKey, parent: Option<&str>, now: i64) -> Lookup {
    if let Some(found) = approvals
        .iter()
        .find(|approval| approval.key == *key && approval.expires > now)
    {
        return Lookup::Approved(Box::new(found.clone()));
    }
    if let Some(expired) = approvals.iter().find(|approval| approval.key == *key) {
        return Lookup::Stale(format!(
            "the approval `{}` by {} expired at {}",
            expired.id,
            expired.approver_name,
            crate::time::rfc3339(expired.expires)
        ));
    }
    let same_content = approvals
        .iter()
        .find(|approval| approval.key.patch == key.patch);
    if let Some(other) = same_content {
        let what = if other.key.policy_digest == key.policy_digest {
            format!(
                "the target changed from `{}` to `{}`",
                other.key.target, key.target
            )
        } else {
            "the policy changed since".to_owned()
        };
        return Lookup::Stale(format!(
            "the approval `{}` for this content no longer applies: {what}",
            other.id
        ));
    }
    if approvals
        .iter()
        .any(|approval| approval.parent.as_deref() == parent)
    {
        return Lookup::Stale(
            "an approval exists for this parent commit, but the staged content changed since it was approved".to_owned(),
        );
    }
    Lookup::None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> ApprovalKey {
        ApprovalKey {
            patch: format!("sha256:{}", "b".repeat(64)),
            policy_digest: "sha256:00".to_owned(),
            target: "production".to_owned(),
        }
    }

    #[expect(
        clippy::unnecessary_wraps,
        reason = "the parent as the store takes it: a repository's first commit has none"
    )]
    fn parent() -> Option<String> {
        Some("a".repeat(40))
    }

    fn approval(key: ApprovalKey, expires: i64) -> Approval {
        Approval::new(
            key,
            parent(),
            "Ada".to_owned(),
            "ada@example.com".to_owned(),
            100,
            expires,
            Some("reviewed".to_owned()),
            vec!["tests/a.rs".to_owned()],
            vec!["agents-touching-tests".to_owned()],
        )
    }

    #[test]
    fn records_and_finds_an_approval() {
        let dir = tempfile::tempdir().unwrap();
        let store = ApprovalStore::new(dir.path());
        assert_eq!(
            store.lookup(&key(), parent().as_deref(), 150).unwrap(),
            Lookup::None
        );
        store.record(approval(key(), 200), 150).unwrap();
        assert!(matches!(
            store.lookup(&key(), parent().as_deref(), 150).unwrap(),
            Lookup::Approved(_)
        ));
    }

    #[test]
    fn expired_and_changed_approvals_are_stale() {
        let dir = tempfile::tempdir().unwrap();
        let store = ApprovalStore::new(dir.path());
        store.record(approval(key(), 200), 150).unwrap();
        assert!(
            matches!(store.lookup(&key(), parent().as_deref(), 250).unwrap(), Lookup::Stale(s) if s.contains("expired"))
        );
        let mut other_patch = key();
        other_patch.patch = format!("sha256:{}", "c".repeat(64));
        assert!(
            matches!(store.lookup(&other_patch, parent().as_deref(), 150).unwrap(), Lookup::Stale(s) if s.contains("content changed"))
        );
        let mut other_policy = key();
        other_policy.policy_digest = "sha256:01".to_owned();
        assert!(
            matches!(store.lookup(&other_policy, parent().as_deref(), 150).unwrap(), Lookup::Stale(s) if s.contains("policy changed"))
        );
        let mut other_target = key();
        other_target.target = "staging".to_owned();
        assert!(
            matches!(store.lookup(&other_target, parent().as_deref(), 150).unwrap(), Lookup::Stale(s) if s.contains("target changed"))
        );
        // The same patch on top of another parent (a rebase) is still approved.
        assert!(matches!(
            store.lookup(&key(), None, 150).unwrap(),
            Lookup::Approved(_)
        ));
        assert_eq!(store.lookup(&other_patch, None, 150).unwrap(), Lookup::None);
    }

    #[test]
    fn edited_record_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = ApprovalStore::new(dir.path());
        store.record(approval(key(), 200), 150).unwrap();
        let text = std::fs::read_to_string(store.path()).unwrap();
        std::fs::write(store.path(), text.replace(&"b".repeat(64), &"c".repeat(64))).unwrap();
        let mut edited = key();
        edited.patch = format!("sha256:{}", "c".repeat(64));
        assert!(matches!(
            store.lookup(&edited, parent().as_deref(), 150),
            Err(StoreError::Tampered { .. })
        ));
    }

    #[test]
    fn corrupt_store_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let store = ApprovalStore::new(dir.path());
        std::fs::write(store.path(), "{not json").unwrap();
        assert!(matches!(
            store.lookup(&key(), parent().as_deref(), 150),
            Err(StoreError::Corrupt { .. })
        ));
    }

    #[test]
    fn a_store_of_the_old_version_no_longer_applies() {
        let dir = tempfile::tempdir().unwrap();
        let store = ApprovalStore::new(dir.path());
        std::fs::write(
            store.path(),
            r#"{"version": 1, "approvals": [{"id": "x"}]}"#,
        )
        .unwrap();
        assert_eq!(store.load().unwrap(), Vec::new());
        store.record(approval(key(), 200), 150).unwrap();
        assert_eq!(store.load().unwrap().len(), 1);
    }

    #[test]
    fn revoke_removes_even_a_tampered_record() {
        let dir = tempfile::tempdir().unwrap();
        let store = ApprovalStore::new(dir.path());
        let recorded = approval(key(), 200);
        let id = recorded.id.clone();
        store.record(recorded, 150).unwrap();
        let text = std::fs::read_to_string(store.path()).unwrap();
        std::fs::write(store.path(), text.replace("reviewed", "rubber-stamped")).unwrap();
        assert!(store.revoke(&id).unwrap());
        assert_eq!(store.load().unwrap(), Vec::new());
        assert!(!store.revoke(&id).unwrap());
    }
}
