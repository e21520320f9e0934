//! Updates of local branches, judged: what the backstop (the `reference-transaction` hook,
//! SPEC §6) decides for a transaction.
//!
//! git runs it for every ref update — also under `git commit --no-verify` — and a non-zero
//! exit in the `prepared` state aborts the update (`fatal: ref updates aborted by hook`;
//! the change stays staged). It judges each update of a local branch that brings new
//! content:
//! - a new commit on top of the old tip (skipped when pre-commit already passed that exact
//!   parent and tree for the same actor, target and policy);
//! - an amend or other rewrite of the tip, judged as the whole commit against its parent, so
//!   that amending cannot grow a change past a limit piece by piece;
//! - a fast-forward of a branch that an `[[environment]]` entry names (`merge --ff-only`,
//!   `branch -f`, `update-ref`), judged commit by commit and as a whole.
//!
//! Everything else returns at once: other refs, deletions, branch creation at an existing
//! commit, moves backwards.

use anyhow::Context as _;

use crate::env::EnvSnapshot;
use crate::exit::ExitStatus;
use crate::git::{ChangeOptions, GitError, Head, Repository, Snapshot};
use crate::intent::ResolvedActor;
use crate::policy::FILE_NAME;

use super::source::{self, RepositoryPolicy};
use super::{
    ChangeToJudge, JudgeOptions, Judgement, PASS_FILE, PassRecord, judge_change, policy_problems,
    touches_policy,
};

/// The gate rule that denies a symbolic branch across environments.
pub const SYMBOLIC_BRANCH: &str = "symbolic-branch";

/// A judgement the backstop made for an update, for the caller to report and record.
pub struct Outcome<'j> {
    /// The branch that moves.
    pub branch: &'j str,
    /// The commit it would point at.
    pub new: &'j str,
    /// What the update does.
    pub movement: &'j Move,
    /// What was judged ("a new commit", "the fast-forward as a whole").
    pub what: &'j str,
    /// The judgement.
    pub judgement: &'j Judgement,
}

/// A branch refused as a symbolic reference to another environment.
pub struct SymbolicRefusal {
    /// The branch.
    pub branch: String,
    /// Why, for the report and the audit log.
    pub problem: String,
    /// Who acts.
    pub actor: ResolvedActor,
    /// The environment the branch targets.
    pub target: String,
    /// The digest of the policy that judged.
    pub policy_digest: String,
}

/// What the caller does with each judgement as it is made: report it (when it stops the
/// update) and record it; returns its status.
pub trait Reporter {
    /// A judged update in `repo`.
    fn judged(&mut self, repo: &Repository, outcome: &Outcome<'_>) -> anyhow::Result<ExitStatus>;
    /// A refused symbolic branch in `repo`.
    fn refused(
        &mut self,
        repo: &Repository,
        refusal: &SymbolicRefusal,
    ) -> anyhow::Result<ExitStatus>;
}

/// The backstop computes only what the policy needs, and honours recorded approvals.
const GATE_OPTIONS: JudgeOptions = JudgeOptions {
    line_counts: false,
    approvals: true,
    tamper: false,
};

/// One side of a line of the hook's input: git writes a zero id for "absent", and since git
/// 2.46 `ref:<name>` for a symbolic reference.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    /// Absent (or, for the old side, not verified by the command).
    Zero,
    /// A commit (hex).
    Commit(String),
    /// A symbolic reference to another reference (its full name).
    Symbolic(String),
}

impl Value {
    fn parse(text: &str) -> Self {
        match text.strip_prefix("ref:") {
            Some(target) => Value::Symbolic(target.to_owned()),
            None if is_zero(text) => Value::Zero,
            None => Value::Commit(text.to_owned()),
        }
    }
}

/// One line of the hook's input, for a local branch.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    old: Value,
    new: Value,
    branch: String,
}

/// An update that sets a branch to a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Update {
    /// The commit the branch points at before the update, zeros when it does not exist.
    old: String,
    new: String,
    branch: String,
}

/// A branch made (or remade) a symbolic reference to `target`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SymbolicUpdate {
    branch: String,
    target: String,
}

fn is_zero(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|byte| byte == b'0')
}

/// The lines of the input that update local branches (`refs/heads/*`).
fn branch_lines(input: &str) -> Vec<Line> {
    input
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ' ');
            let (old, new, name) = (parts.next()?, parts.next()?, parts.next()?);
            let branch = name.strip_prefix("refs/heads/")?;
            Some(Line {
                old: Value::parse(old),
                new: Value::parse(new),
                branch: branch.to_owned(),
            })
        })
        .collect()
}

/// The updates of local branches that set a commit (not deletions, not symbolic refs).
#[cfg(test)]
fn branch_updates(input: &str) -> Vec<Update> {
    branch_lines(input)
        .into_iter()
        .filter_map(|line| match (line.old, line.new) {
            (old, Value::Commit(new)) => Some(Update {
                old: match old {
                    Value::Commit(old) => old,
                    _ => "0".repeat(new.len()),
                },
                new,
                branch: line.branch,
            }),
            _ => None,
        })
        .collect()
}

/// Judges the transaction `input` (git's lines `<old> <new> <ref>`, in the `prepared`
/// state) in the repository at `cwd`; `reporter` reports and records each judgement as it is
/// made. Returns the worst status.
pub fn judge_transaction(
    cwd: &std::path::Path,
    env: &EnvSnapshot,
    input: &str,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<ExitStatus> {
    let lines = branch_lines(input);
    if lines.is_empty() {
        return Ok(ExitStatus::Allowed);
    }
    let repo = Repository::open(cwd, env)
        .context("astrix cannot open the repository, so the ref update is blocked")?;
    let repo = &repo;
    let mut updates = Vec::new();
    let mut symbolic = Vec::new();
    for line in lines {
        match line.new {
            // A deletion brings no content.
            Value::Zero => {}
            Value::Symbolic(target) => symbolic.push(SymbolicUpdate {
                branch: line.branch,
                target,
            }),
            Value::Commit(new) => {
                // `git branch -f` and `git update-ref` without an old value send zeros as the
                // old tip even when the branch exists, and a symbolic branch sends its target;
                // until the update is committed, the branch still points at its old tip.
                let old = match line.old {
                    Value::Commit(old) => Some(old),
                    Value::Zero | Value::Symbolic(_) => branch_tip(repo, &line.branch)?,
                };
                updates.push(Update {
                    old: old.unwrap_or_else(|| "0".repeat(new.len())),
                    new,
                    branch: line.branch,
                });
            }
        }
    }
    let mut worst = ExitStatus::Allowed;
    for update in &symbolic {
        let status = judge_symbolic(repo, update, env, reporter).with_context(|| {
            format!(
                "astrix cannot judge the update of `{}`, so it is blocked",
                update.branch
            )
        })?;
        worst = worst.worst(status);
    }
    for update in &updates {
        let status = judge_update(repo, update, env, reporter).with_context(|| {
            format!(
                "astrix cannot judge the update of `{}`, so it is blocked",
                update.branch
            )
        })?;
        worst = worst.worst(status);
    }
    Ok(worst)
}

/// A branch that becomes a symbolic reference gains, unseen, every commit its target gains
/// later (git updates the target, and names the symbolic branch only when a commit is made
/// through it). A branch that an `[[environment]]` names may therefore only point at a local
/// branch of its own environment; other branches (an alias such as `trunk` for `main`) may
/// point anywhere, since a protected branch judges whatever it gains from them.
fn judge_symbolic(
    repo: &Repository,
    update: &SymbolicUpdate,
    env: &EnvSnapshot,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<ExitStatus> {
    let policy = source::for_repository(repo, &repo.head()?)?;
    let rules = &policy.loaded.policy;
    let name_target = super::resolve_target(rules, Some(&update.branch), env);
    let protected = rules.environment_for_branch(&update.branch).is_some();
    let problem = match update.target.strip_prefix("refs/heads/") {
        _ if !protected => None,
        Some(target_branch) => {
            let target = super::resolve_target(rules, Some(target_branch), env);
            (target.env != name_target.env).then(|| {
                format!(
                    "`{}` targets `{}` but would point at `{target_branch}`, which targets `{}`: commits made on `{target_branch}` would reach `{}` without being judged for `{}`",
                    update.branch, name_target.env, target.env, update.branch, name_target.env
                )
            })
        }
        None => Some(format!(
            "`{}` targets `{}` and would point at `{}`, which is not a local branch: whatever moves `{}` would reach `{}` without being judged",
            update.branch, name_target.env, update.target, update.target, update.branch
        )),
    };
    let Some(problem) = problem else {
        return Ok(ExitStatus::Allowed);
    };
    let actor = crate::env::resolve_actor(env, &rules.actors.agent_env);
    reporter.refused(
        repo,
        &SymbolicRefusal {
            branch: update.branch.clone(),
            problem,
            actor,
            target: name_target.env,
            policy_digest: policy.loaded.provenance.digest.clone(),
        },
    )
}

/// The commit `branch` points at, `None` when it does not exist.
fn branch_tip(repo: &Repository, branch: &str) -> anyhow::Result<Option<String>> {
    match repo.commit_info(&format!("refs/heads/{branch}")) {
        Ok(info) => Ok(Some(info.id)),
        Err(GitError::Revision { .. }) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// What an update does to its branch.
pub enum Move {
    /// A new commit on top of the old tip (or a root commit on a new branch).
    NewCommit,
    /// The tip rewritten (amend, rebase, reset to an unrelated commit).
    Rewrite,
    /// The tip moved forward over existing commits.
    FastForward,
    /// Nothing new: branch creation at an existing commit, or a move backwards.
    Nothing,
}

fn classify(repo: &Repository, update: &Update) -> anyhow::Result<Move> {
    let commit = repo.commit_info(&update.new)?;
    if is_zero(&update.old) {
        // A branch that starts with a new root commit: the first commit of a repository or
        // of an orphan branch, made on the branch HEAD names while it is unborn. A new
        // branch at an existing commit (`git switch -c`, a clone creating its branches at
        // what it fetched, with HEAD still a placeholder or already naming the branch)
        // brings nothing new.
        let made_here = match repo.head()? {
            Head::Unborn {
                branch: Some(branch),
            } => branch == update.branch && !repo.is_ref_tip(&update.new)?,
            _ => false,
        };
        return Ok(if commit.parents.is_empty() && made_here {
            Move::NewCommit
        } else {
            Move::Nothing
        });
    }
    if commit.parents.first() == Some(&update.old) {
        return Ok(Move::NewCommit);
    }
    if repo.is_ancestor(&update.new, &update.old)? {
        return Ok(Move::Nothing);
    }
    if repo.is_ancestor(&update.old, &update.new)? {
        return Ok(Move::FastForward);
    }
    Ok(Move::Rewrite)
}

/// The policy in force on the branch before the update: the Astrixfile.ax at the old tip;
/// for a new branch, what the commit gate would use from HEAD.
fn policy_before(repo: &Repository, update: &Update) -> anyhow::Result<RepositoryPolicy> {
    let head = if is_zero(&update.old) {
        repo.head()?
    } else {
        Head::Branch {
            name: update.branch.clone(),
            commit: update.old.clone(),
        }
    };
    Ok(source::for_repository(repo, &head)?)
}

fn judge_update(
    repo: &Repository,
    update: &Update,
    env: &EnvSnapshot,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<ExitStatus> {
    let movement = classify(repo, update)?;
    let policy = policy_before(repo, update)?;
    let options = ChangeOptions {
        line_counts: super::needs_line_counts(&policy.loaded.policy),
    };
    match movement {
        Move::Nothing => Ok(ExitStatus::Allowed),
        Move::NewCommit | Move::Rewrite => {
            let commit = repo.commit_info(&update.new)?;
            if matches!(movement, Move::NewCommit)
                && passed_by_pre_commit(repo, update, &commit, &policy, env)
            {
                return Ok(ExitStatus::Allowed);
            }
            let judgement = judge_commit(repo, update, &update.new, policy, &options, env)?;
            reporter.judged(
                repo,
                &Outcome {
                    branch: &update.branch,
                    new: &update.new,
                    movement: &movement,
                    what: movement_label(&movement),
                    judgement: &judgement,
                },
            )
        }
        Move::FastForward => {
            let branch_env = policy
                .loaded
                .policy
                .environment_for_branch(&update.branch)
                .is_some();
            if !branch_env {
                return Ok(ExitStatus::Allowed);
            }
            let mut worst = ExitStatus::Allowed;
            for commit in repo.first_parent_chain(&update.old, &update.new)? {
                let judgement = judge_commit(repo, update, &commit, policy.clone(), &options, env)?;
                worst = worst.worst(reporter.judged(
                    repo,
                    &Outcome {
                        branch: &update.branch,
                        new: &update.new,
                        movement: &Move::FastForward,
                        what: "a commit brought by a fast-forward",
                        judgement: &judgement,
                    },
                )?);
            }
            let change = repo.range_change(&update.old, &update.new, &options)?;
            let new_policy = if touches_policy(&change) {
                repo.file_at_rev(&update.new, FILE_NAME)?
                    .and_then(|blob| policy_problems(blob.data))
            } else {
                None
            };
            let whole = judge_change(
                env,
                repo,
                ChangeToJudge {
                    policy,
                    branch: Some(update.branch.clone()),
                    change,
                    parent: Some(update.old.clone()),
                    new_policy,
                    snapshot: Snapshot::Commit(update.new.clone()),
                },
                GATE_OPTIONS,
            )?;
            worst = worst.worst(reporter.judged(
                repo,
                &Outcome {
                    branch: &update.branch,
                    new: &update.new,
                    movement: &Move::FastForward,
                    what: "the fast-forward as a whole",
                    judgement: &whole,
                },
            )?);
            Ok(worst)
        }
    }
}

fn movement_label(movement: &Move) -> &'static str {
    match movement {
        Move::Rewrite => "the rewritten commit (amend or rebase), judged whole against its parent",
        _ => "a new commit",
    }
}

/// Judges one commit against its parent(s) with the branch's policy.
fn judge_commit(
    repo: &Repository,
    update: &Update,
    commit: &str,
    policy: RepositoryPolicy,
    options: &ChangeOptions,
    env: &EnvSnapshot,
) -> anyhow::Result<Judgement> {
    let info = repo.commit_info(commit)?;
    let change = repo.commit_change(commit, options)?;
    let new_policy = if touches_policy(&change) {
        repo.file_at_rev(commit, FILE_NAME)?
            .and_then(|blob| policy_problems(blob.data))
    } else {
        None
    };
    judge_change(
        env,
        repo,
        ChangeToJudge {
            policy,
            branch: Some(update.branch.clone()),
            change,
            parent: info.parents.first().cloned(),
            new_policy,
            snapshot: Snapshot::Commit(commit.to_owned()),
        },
        GATE_OPTIONS,
    )
}

/// Whether pre-commit passed exactly this commit's parent and tree for the same actor,
/// target and policy.
fn passed_by_pre_commit(
    repo: &Repository,
    update: &Update,
    commit: &crate::git::CommitInfo,
    policy: &RepositoryPolicy,
    env: &EnvSnapshot,
) -> bool {
    let path = repo.git_dir().join(PASS_FILE);
    let Ok(bytes) = fs_err::read(&path) else {
        return false;
    };
    let Ok(record) = serde_json::from_slice::<PassRecord>(&bytes) else {
        return false;
    };
    let rules = &policy.loaded.policy;
    let actor = crate::env::resolve_actor(env, &rules.actors.agent_env);
    // The branch that moves, which need not be HEAD's (`git update-ref`).
    let target = super::resolve_target(rules, Some(&update.branch), env);
    let expected = PassRecord {
        parent: commit.parents.first().cloned(),
        tree: commit.tree.clone(),
        actor: actor.kind,
        target: target.env,
        policy_digest: policy.loaded.provenance.digest.clone(),
    };
    // One use only: a later commit with the same content is judged again.
    let _ = fs_err::remove_file(&path);
    record == expected
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbolic_values_are_not_commit_ids() {
        let zero = "0".repeat(64);
        let a = "a".repeat(64);
        let input = format!(
            "{zero} ref:refs/heads/main refs/heads/trunk\nref:refs/heads/main {zero} refs/heads/trunk\nref:refs/heads/main ref:refs/heads/feature HEAD\nref:refs/heads/main {a} refs/heads/alias\n"
        );
        assert_eq!(
            branch_lines(&input),
            vec![
                Line {
                    old: Value::Zero,
                    new: Value::Symbolic("refs/heads/main".to_owned()),
                    branch: "trunk".to_owned(),
                },
                Line {
                    old: Value::Symbolic("refs/heads/main".to_owned()),
                    new: Value::Zero,
                    branch: "trunk".to_owned(),
                },
                Line {
                    old: Value::Symbolic("refs/heads/main".to_owned()),
                    new: Value::Commit(a.clone()),
                    branch: "alias".to_owned(),
                },
            ]
        );
        // Only the last sets a commit; its old side is looked up in the repository.
        assert_eq!(
            branch_updates(&input),
            vec![Update {
                old: zero,
                new: a,
                branch: "alias".to_owned(),
            }]
        );
    }

    #[test]
    fn only_local_branch_updates_that_set_a_commit() {
        let zero = "0".repeat(40);
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let input = format!(
            "{zero} {zero} AUTO_MERGE\n{a} {b} HEAD\n{a} {b} refs/heads/main\n{a} {zero} refs/heads/gone\n{a} {b} refs/tags/v1\n{zero} {b} refs/heads/feature/x\n"
        );
        let updates = branch_updates(&input);
        assert_eq!(
            updates,
            vec![
                Update {
                    old: a.clone(),
                    new: b.clone(),
                    branch: "main".to_owned()
                },
                Update {
                    old: zero,
                    new: b,
                    branch: "feature/x".to_owned()
                },
            ]
        );
    }
}
