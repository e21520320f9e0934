//! The audit log: every decision the gate makes, appended as one JSON line to
//! `astrix/audit.jsonl` in the repository's common git directory (SPEC §6).

use std::io::{BufRead as _, Write as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The log's file name inside the astrix directory of the common git directory.
pub const FILE_NAME: &str = "audit.jsonl";

/// One decision of the gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// When, RFC 3339 UTC.
    pub time: String,
    /// What judged: `pre-commit`, `reference-transaction`, `check`.
    pub hook: String,
    /// `actor.type`.
    pub actor: String,
    /// `actor.id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor_id: Option<String>,
    /// How the actor was found.
    pub actor_source: String,
    /// `target.env`.
    pub target: String,
    /// The branch, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// How many files the change modifies.
    pub files: usize,
    /// `allow`, `require_approval`, `deny`, or `error`.
    pub decision: String,
    /// Whether the action went ahead.
    pub allowed: bool,
    /// The rules that decided.
    #[serde(default)]
    pub rules: Vec<String>,
    /// The reason, as reported.
    pub reason: String,
    /// The approval that let a held change through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<String>,
    /// `sha256:` digest of the policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy_digest: Option<String>,
    /// The commit judged, or the parent of the staged change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The agent's tool call, when a harness hook (`astrix hook claude-code`) judged one
    /// instead of a commit.
    #[serde(default, flatten, skip_serializing_if = "Option::is_none")]
    pub tool_call: Option<ToolCallRecord>,
}

/// What an agent's tool call proposed, in an audit entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallRecord {
    /// The harness's name of the tool (`Edit`, `Bash`, `apply_patch`).
    pub tool: String,
    /// What the call does: the files it writes, or the shell command (cut to 200
    /// characters).
    pub subject: String,
}

/// Where an entry comes from, for `astrix log --source`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A commit or a branch update, judged by the git hooks or `astrix check`.
    Commit,
    /// An agent's tool call, judged by a harness hook.
    ToolCall,
    /// A command that would loosen the gate (`astrix uninstall`), refused to an agent.
    Command,
}

/// The `hook` of the entries that record a command astrix refused to run.
pub const COMMAND_HOOKS: &[&str] = &["install", "uninstall"];

impl AuditEntry {
    /// Where the entry comes from.
    pub fn source(&self) -> Source {
        if self.tool_call.is_some() {
            Source::ToolCall
        } else if COMMAND_HOOKS.contains(&self.hook.as_str()) {
            Source::Command
        } else {
            Source::Commit
        }
    }
}

/// Errors of the audit log. The IO error is part of the message, not a `source`, so that
/// an error report does not print it twice.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error(
        "cannot append to the audit log `{}`: {error}; make it writable again (free disk space, fix its permissions)",
        path.display()
    )]
    Append {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("cannot read the audit log `{}`: {error}", path.display())]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// The audit log of one repository.
#[derive(Debug, Clone)]
pub struct AuditLog {
    path: PathBuf,
}

impl AuditLog {
    /// The log inside `astrix_dir` (`<common git dir>/astrix`).
    pub fn new(astrix_dir: &Path) -> Self {
        Self {
            path: astrix_dir.join(FILE_NAME),
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one entry as a single write, so that concurrent writers do not interleave.
    ///
    /// A write that failed part way (a full disk) leaves a line without its end; the next
    /// entry then starts on a line of its own, so that only the torn line is lost, never the
    /// entry written after it.
    pub fn append(&self, entry: &AuditEntry) -> Result<(), AuditError> {
        let error = |error| AuditError::Append {
            path: self.path.clone(),
            error,
        };
        let mut line = serde_json::to_vec(entry).map_err(|e| error(std::io::Error::other(e)))?;
        line.push(b'\n');
        if let Some(dir) = self.path.parent() {
            fs_err::create_dir_all(dir).map_err(error)?;
        }
        let mut file = fs_err::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&self.path)
            .map_err(error)?;
        if ends_without_newline(&mut file).map_err(error)? {
            line.insert(0, b'\n');
        }
        file.write_all(&line).map_err(error)?;
        file.flush().map_err(error)?;
        file.sync_data().map_err(error)
    }

    /// The last `limit` entries (all when `None`), oldest first. Lines that are not entries
    /// (a torn write, a hand edit) are returned as errors in place.
    pub fn read(
        &self,
        limit: Option<usize>,
    ) -> Result<Vec<Result<AuditEntry, String>>, AuditError> {
        let file = match fs_err::File::open(&self.path) {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => {
                return Err(AuditError::Read {
                    path: self.path.clone(),
                    error,
                });
            }
        };
        let mut entries = Vec::new();
        for (number, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|error| AuditError::Read {
                path: self.path.clone(),
                error,
            })?;
            if line.trim().is_empty() {
                continue;
            }
            entries.push(
                serde_json::from_str(&line)
                    .map_err(|error| format!("line {}: {error}", number + 1)),
            );
        }
        if let Some(limit) = limit {
            let skip = entries.len().saturating_sub(limit);
            entries.drain(..skip);
        }
        Ok(entries)
    }
}

/// Whether a regular file's last byte is not a line end (an empty file, or a device such
/// as `/dev/full`, is not).
fn ends_without_newline(file: &mut fs_err::File) -> std::io::Result<bool> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let metadata = file.metadata()?;
    if !metadata.is_file() || metadata.len() == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(decision: &str) -> AuditEntry {
        AuditEntry {
            time: "2026-01-01T00:00:00Z".to_owned(),
            hook: "pre-commit".to_owned(),
            actor: "human".to_owned(),
            actor_id: None,
            actor_source: "default".to_owned(),
            target: "development".to_owned(),
            branch: Some("feature".to_owned()),
            files: 2,
            decision: decision.to_owned(),
            allowed: decision == "allow",
            rules: Vec::new(),
            reason: "ok".to_owned(),
            approval: None,
            policy_digest: None,
            commit: None,
            tool_call: None,
        }
    }

    #[test]
    fn appends_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(&dir.path().join("astrix"));
        for decision in ["allow", "deny", "require_approval"] {
            log.append(&entry(decision)).unwrap();
        }
        let all = log.read(None).unwrap();
        assert_eq!(all.len(), 3);
        let last = log.read(Some(1)).unwrap();
        assert_eq!(last[0].as_ref().unwrap().decision, "require_approval");
    }

    /// Appends `bytes` to the log as they are, as a write that failed part way leaves them.
    fn append_raw(log: &AuditLog, bytes: &[u8]) {
        std::fs::OpenOptions::new()
            .append(true)
            .open(log.path())
            .unwrap()
            .write_all(bytes)
            .unwrap();
    }

    #[test]
    fn a_tool_call_reads_back_with_its_source() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(dir.path());
        let mut call = entry("deny");
        call.hook = "claude-code".to_owned();
        call.tool_call = Some(ToolCallRecord {
            tool: "Bash".to_owned(),
            subject: "git config core.hooksPath /dev/null".to_owned(),
        });
        log.append(&call).unwrap();
        log.append(&entry("allow")).unwrap();
        let all = log.read(None).unwrap();
        assert_eq!(all[0].as_ref().unwrap(), &call);
        assert_eq!(all[0].as_ref().unwrap().source(), Source::ToolCall);
        assert_eq!(all[1].as_ref().unwrap().source(), Source::Commit);
    }

    #[test]
    fn torn_lines_are_reported_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(dir.path());
        log.append(&entry("allow")).unwrap();
        append_raw(&log, b"{\"time\":\n");
        let all = log.read(None).unwrap();
        assert!(all[0].is_ok());
        assert!(all[1].as_ref().unwrap_err().starts_with("line 2"));
    }

    #[test]
    fn an_entry_after_a_torn_write_starts_on_its_own_line() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(dir.path());
        log.append(&entry("allow")).unwrap();
        // What a write that failed part way leaves: a line without its end.
        append_raw(&log, b"{\"time\":\"2026-");
        log.append(&entry("deny")).unwrap();
        let all = log.read(None).unwrap();
        assert_eq!(all.len(), 3, "{all:?}");
        assert!(all[1].as_ref().unwrap_err().starts_with("line 2"));
        assert_eq!(all[2].as_ref().unwrap().decision, "deny");
    }

    #[test]
    fn full_disk_is_an_error() {
        if !Path::new("/dev/full").exists() {
            return;
        }
        let log = AuditLog {
            path: PathBuf::from("/dev/full"),
        };
        assert!(matches!(
            log.append(&entry("allow")),
            Err(AuditError::Append { .. })
        ));
    }
}
