//! A proposed tool call, judged by the repository's policy as the commit gate would judge
//! it: the same policy source, actor, target, intent builder, gate holds and evaluation
//! ([`crate::gate`], [`crate::eval`]); only the change differs: the files the call would
//! write, with their content before (the work tree's) and after (computed in memory).
//!
//! - `modified_files` are the repository-relative paths the call writes;
//! - the tampering analysis ([`crate::tamper`]) runs on each file's before and after, so
//!   that a deleted test or an added skip marker is held before it is written;
//! - the line counts, when a rule reads them, are the staged change's plus the call's own
//!   (a file the call writes that is also staged counts in both);
//! - a call that writes `Astrixfile.ax` is held (`policy-change`), and denied when the new
//!   content does not validate (`staged-policy-invalid`).

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::env::EnvSnapshot;
use crate::eval::{Decision, RuleOutcome, evaluate_with};
use crate::gate::source::{self, RepositoryPolicy};
use crate::gate::{
    COMMITTED_POLICY_INVALID, ChangeFacts, STAGED_POLICY_INVALID, build_intent, current_branch,
    needs_impact, needs_line_counts, policy_change_hold, policy_problems, resolve_target,
};
use crate::git::{ChangeOptions, Repository, Snapshot};
use crate::intent::{ActionIntent, ResolvedActor};
use crate::linediff::LineDiff;
use crate::policy::{FILE_NAME, Verdict};
use crate::tamper::{self, TamperReport};

/// A file as a tool call would leave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposedFile {
    /// The repository-relative path (`/` separators).
    pub path: String,
    /// The work tree's content now (`None` when the file does not exist).
    pub before: Option<Vec<u8>>,
    /// The content after the call.
    pub after: After,
}

/// What a file holds after the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum After {
    /// This content.
    Content(Vec<u8>),
    /// The file is deleted.
    Deleted,
    /// Content astrix does not compute (a notebook cell edit): its line counts are unknown,
    /// so a rule that reads them fails and holds.
    Unknown,
}

impl After {
    fn bytes(&self) -> Option<&[u8]> {
        match self {
            After::Content(bytes) => Some(bytes),
            After::Deleted | After::Unknown => None,
        }
    }
}

/// A proposed change, judged.
pub struct Judged {
    /// The intent that was evaluated.
    pub intent: ActionIntent,
    /// The decision.
    pub decision: Decision,
    /// The tampering analysis of the proposed files.
    pub tamper: TamperReport,
    /// The policy that judged.
    pub policy: RepositoryPolicy,
}

/// Judges `files` (inside `repo`'s work tree) as a change by `actor`.
pub fn judge_files(
    repo: &Repository,
    env: &EnvSnapshot,
    actor: &ResolvedActor,
    files: &[ProposedFile],
) -> anyhow::Result<Judged> {
    let head = repo.head()?;
    let policy = source::for_repository(repo, &head)?;
    let rules = &policy.loaded.policy;
    let branch = current_branch(repo, &head)?;
    let target = resolve_target(rules, branch.as_deref(), env);

    let tamper = tamper::combine(
        files
            .iter()
            .filter_map(|file| {
                let after = match &file.after {
                    After::Content(bytes) => Some(bytes.as_slice()),
                    After::Deleted => None,
                    // Not analysed: nothing is known to be removed.
                    After::Unknown => file.before.as_deref(),
                };
                tamper::analyze_changed_file(
                    &file.path,
                    &file.path,
                    file.before.as_deref(),
                    after,
                    None,
                )
            })
            .collect(),
    );

    let mut facts = ChangeFacts {
        files: files.iter().map(|file| file.path.clone()).collect(),
        tamper: Some(tamper.clone()),
        ..ChangeFacts::default()
    };
    facts.files.sort();
    facts.files.dedup();
    if needs_line_counts(rules) {
        let staged = repo
            .staged_change(&ChangeOptions {
                line_counts: true,
                tamper: false,
            })?
            .totals_without(|file| {
                rules.excludes_from_counts(&file.path)
                    && rules.excludes_from_counts(file.old_path())
            });
        let proposed = files
            .iter()
            .filter(|file| !rules.excludes_from_counts(&file.path))
            .map(counts)
            .try_fold(Counts::default(), |sum, counts| Some(sum.add(counts?)));
        if let (Some(staged), Some(proposed)) = (staged, proposed) {
            facts.lines_added = Some(staged.lines_added + proposed.lines_added);
            facts.lines_deleted = Some(staged.lines_deleted + proposed.lines_deleted);
            facts.binary_files = Some(staged.binary_files + proposed.binary_files);
            facts.bytes_added = Some(staged.bytes_added + proposed.bytes_added);
        }
    }
    if needs_impact(rules) {
        let count = crate::impact::impacted_components(repo, &Snapshot::Index, rules, &facts.files)
            .context("cannot read the component graph of the change")?;
        facts.impacted_components = Some(count);
    }
    let intent = build_intent(&facts, actor, &target)?;

    let mut holds: Vec<RuleOutcome> = policy_change_hold(&facts).into_iter().collect();
    if let Some(new_policy) = files
        .iter()
        .find(|file| file.path == FILE_NAME)
        .and_then(|file| file.after.bytes())
        && let Some(problems) = policy_problems(new_policy.to_vec())
    {
        holds.push(RuleOutcome::gate(
            STAGED_POLICY_INVALID,
            Verdict::Deny,
            format!(
                "the {FILE_NAME} this call writes does not validate ({} error{}); a policy that cannot be read never lands",
                problems.error_count(),
                if problems.error_count() == 1 { "" } else { "s" }
            ),
            vec![FILE_NAME.to_owned()],
        ));
    }
    if policy.committed_invalid.is_some() {
        holds.push(RuleOutcome::gate(
            COMMITTED_POLICY_INVALID,
            Verdict::RequireApproval,
            format!(
                "the committed {FILE_NAME} does not validate, so the built-in default judged this change; a human approves until it is repaired"
            ),
            Vec::new(),
        ));
    }
    let decision = evaluate_with(rules, &intent, holds);
    Ok(Judged {
        intent,
        decision,
        tamper,
        policy,
    })
}

/// Line counts of one proposed file.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    lines_added: u64,
    lines_deleted: u64,
    binary_files: u64,
    bytes_added: u64,
}

impl Counts {
    fn add(self, other: Self) -> Self {
        Self {
            lines_added: self.lines_added + other.lines_added,
            lines_deleted: self.lines_deleted + other.lines_deleted,
            binary_files: self.binary_files + other.binary_files,
            bytes_added: self.bytes_added + other.bytes_added,
        }
    }
}

/// The counts of `file` as `git diff --numstat` counts them (git's own line diff, and its
/// rule for binary content: a NUL in the first 8000 bytes); `None` when the content after
/// is unknown.
fn counts(file: &ProposedFile) -> Option<Counts> {
    const FIRST_FEW_BYTES: usize = 8000;
    let binary = |data: &[u8]| data[..data.len().min(FIRST_FEW_BYTES)].contains(&0);
    let before = file.before.as_deref().unwrap_or_default();
    let after = match &file.after {
        After::Content(bytes) => bytes.as_slice(),
        After::Deleted => &[],
        After::Unknown => return None,
    };
    if before == after {
        return Some(Counts::default());
    }
    if binary(before) || binary(after) {
        return Some(Counts {
            binary_files: 1,
            bytes_added: after.len() as u64,
            ..Counts::default()
        });
    }
    let lines = |data: &[u8]| {
        memchr::memchr_iter(b'\n', data).count() as u64
            + u64::from(data.last().is_some_and(|byte| *byte != b'\n'))
    };
    if before.is_empty() || after.is_empty() {
        return Some(Counts {
            lines_added: lines(after),
            lines_deleted: lines(before),
            bytes_added: after.len() as u64,
            ..Counts::default()
        });
    }
    let diff = LineDiff::new(before, after);
    Some(Counts {
        lines_added: u64::from(diff.added()),
        lines_deleted: u64::from(diff.removed()),
        bytes_added: diff.bytes_added(),
        binary_files: 0,
    })
}

/// The repository-relative path of `path` (absolute, normalised) in `work_dir`, when it is
/// inside it; `Err` when the path cannot be an intent's path.
pub fn relative_path(work_dir: &Path, path: &Path) -> Option<anyhow::Result<String>> {
    let relative = path.strip_prefix(work_dir).ok()?;
    let mut parts = Vec::new();
    for part in relative.components() {
        match part.as_os_str().to_str() {
            Some(text) => parts.push(text.to_owned()),
            None => {
                return Some(Err(anyhow::anyhow!(
                    "`{}` is not a UTF-8 path, which astrix cannot judge",
                    path.display()
                )));
            }
        }
    }
    if parts.is_empty() {
        return Some(Err(anyhow::anyhow!(
            "`{}` is the work tree itself, not a file in it",
            path.display()
        )));
    }
    Some(Ok(parts.join("/")))
}

/// The work tree's content of `path`, `None` when there is no file.
pub fn read_current(path: &PathBuf) -> anyhow::Result<Option<Vec<u8>>> {
    match fs_err::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error).context("cannot read the file the tool call would change"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(before: Option<&str>, after: After) -> ProposedFile {
        ProposedFile {
            path: "a.txt".to_owned(),
            before: before.map(|text| text.as_bytes().to_vec()),
            after,
        }
    }

    #[test]
    fn counts_are_numstat_counts() {
        let edit = counts(&file(
            Some("a\nb\nc\n"),
            After::Content(b"a\nB\nc\nd\n".to_vec()),
        ))
        .unwrap();
        assert_eq!((edit.lines_added, edit.lines_deleted), (2, 1));
        let new = counts(&file(None, After::Content(b"x\ny".to_vec()))).unwrap();
        assert_eq!((new.lines_added, new.bytes_added), (2, 3));
        let gone = counts(&file(Some("x\n"), After::Deleted)).unwrap();
        assert_eq!(gone.lines_deleted, 1);
        let binary = counts(&file(Some("x\n"), After::Content(b"\0".to_vec()))).unwrap();
        assert_eq!(binary.binary_files, 1);
        assert!(counts(&file(Some("x"), After::Unknown)).is_none());
    }

    #[test]
    fn relative_paths_stay_inside_the_work_tree() {
        let root = Path::new("/w");
        assert_eq!(
            relative_path(root, Path::new("/w/src/a.rs"))
                .unwrap()
                .unwrap(),
            "src/a.rs"
        );
        assert!(relative_path(root, Path::new("/elsewhere/a.rs")).is_none());
        assert!(relative_path(root, Path::new("/w")).unwrap().is_err());
    }
}
