//! Updates of local branches, judged: what the backstop (the `reference-transaction` hook,
//! SPEC §6) decides for a transaction. git runs it for every ref update — also under `git
//! commit --no-verify` — and a non-zero exit in the `prepared` state aborts the update
//! (`fatal: ref updates aborted by hook`; the change stays staged).
//!
//! **The rule.** A branch only gains commits that something vouches for: its old tip has
//! them; they are on a branch of the same environment, or were judged for it before
//! (protected branches, those an `[[environment]]` names); they are on another local branch
//! (any other branch); they are on a remote-tracking branch of a remote the policy trusts
//! (`[backstop] trusted_remotes`). Every update of `refs/heads/*` — creation,
//! fast-forward, rewrite, merge, any mix — judges the commits the new tip brings that
//! nothing vouches for, each against its parent and all of them as one change, as the actor
//! who moves the branch, by the policy of the branch (at its old tip; for a new branch, the
//! local default branch's). What pre-commit judged is judged again: nothing an agent can
//! write under `.git` stands in for a judgement, except approvals. So commits made where no branch moved (a detached HEAD, `git
//! stash`, `git commit-tree`, the steps of a rebase) are judged when they reach a branch, and
//! a commit that a rebase only moved (the same patch as one the branch had) costs nothing.
//!
//! **What git does not show.** `git branch -m`/`-c` show the hook a deletion, or nothing, and
//! a symbolic branch gains what its target gains. So a symbolic branch may not alias a branch
//! of another environment ([`SYMBOLIC_BRANCH`]), and every transaction first checks that each
//! protected branch points at a tip astrix let it take ([`super::TipRecord`]); one that moved
//! unseen blocks the transaction ([`UNSEEN_MOVE`]) until it is moved back or deleted.

use std::collections::HashSet;

use anyhow::Context as _;

use crate::env::EnvSnapshot;
use crate::exit::ExitStatus;
use crate::git::{BranchRef, ChangeOptions, GitError, Head, Repository, Snapshot};
use crate::intent::{HUMAN, ResolvedActor};
use crate::policy::{FILE_NAME, Policy, Verdict};

use super::source::{self, RepositoryPolicy};
use super::{
    ChangeToJudge, JudgeOptions, Judgement, TipEntry, TipRecord, astrix_dir,
    committed_policy_problems, judge_change, resolve_target,
};

/// The gate rule that denies a symbolic branch across environments.
pub const SYMBOLIC_BRANCH: &str = "symbolic-branch";
/// The gate rule that blocks a transaction while a protected branch points at a tip astrix
/// never let it take.
pub const UNSEEN_MOVE: &str = "unseen-branch-move";

/// The gate rule that refuses an agent's deletion of a protected branch.
pub const PROTECTED_DELETION: &str = "protected-branch-deletion";

/// The gate rule that refuses an update that brings more commits than are judged at once.
pub const TOO_MANY_COMMITS: &str = "too-many-commits";

/// At most this many commits are judged one by one for an update; an update that brings more
/// is refused, so that a clone-sized update cannot make the hook run for minutes.
const MAX_JUDGED: usize = 2000;

/// At most this many recorded tips per branch vouch for ancestors (the newest).
const TIPS_PER_BRANCH: usize = 64;

/// A judgement the backstop made for an update, for the caller to report and record.
pub struct Outcome<'j> {
    /// The branch that moves.
    pub branch: &'j str,
    /// The commit it would point at.
    pub new: &'j str,
    /// What the update does.
    pub movement: &'j Move,
    /// What was judged ("a new commit", "the commits it brings, as one change").
    pub what: &'j str,
    /// The commits the update brings, `<old>..<new>` (or the new tip of a new branch), for
    /// `astrix approve --commits`.
    pub range: &'j str,
    /// The commit judged, `None` when the judgement is of all the commits as one change.
    pub commit: Option<&'j str>,
    /// The judgement.
    pub judgement: &'j Judgement,
}

/// An update refused before anything was judged: a symbolic branch across environments, a
/// protected branch that moved unseen, an update too large to judge.
pub struct Refusal {
    /// The gate rule.
    pub rule: &'static str,
    /// The branch.
    pub branch: String,
    /// What is wrong, for the report and the audit log.
    pub problem: String,
    /// What to do, one step a line.
    pub next_steps: Vec<String>,
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
    /// A refused update in `repo`.
    fn refused(&mut self, repo: &Repository, refusal: &Refusal) -> anyhow::Result<ExitStatus>;
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
    /// The commit the branch points at before the update, `None` when it does not exist.
    old: Option<String>,
    new: String,
    branch: String,
    /// Whether HEAD moves with it (a commit, an amend, a merge into the checked-out
    /// branch), rather than the branch alone (`git branch -f`, `update-ref`, a fetch).
    moves_head: bool,
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

impl Move {
    /// What the report calls a commit judged for a move of this kind.
    fn judged(self) -> &'static str {
        match self {
            Move::Amend => "the amended commit, judged whole against its parent",
            Move::Rewrite => {
                "a commit the rewrite (a rebase, a reset) brings that the branch did not have"
            }
            Move::NewCommit => "a new commit",
            Move::Gain => "a commit it would gain that nothing vouches for",
        }
    }
}

/// What an update does to its branch, for the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// One new commit on top of the old tip (or a root commit on a new branch).
    NewCommit,
    /// The tip replaced by one new commit on the same parent (`git commit --amend`).
    Amend,
    /// The tip rewritten (amend, rebase, reset to another line of history).
    Rewrite,
    /// The branch gains commits it did not make: created at them, moved forward over them, or
    /// given them by a merge.
    Gain,
}

/// What the transaction starts from: the local branches as they are before it, the tip
/// record, and the repository's policy for branches that no update names.
struct Before {
    branches: Vec<BranchRef>,
    /// `None` until the record exists.
    record: Option<Vec<TipEntry>>,
    /// The policy that says which branches are protected, and judges where a branch's own
    /// policy may not: the one at the newest tip the record holds (a tip astrix let a
    /// protected branch take); before any is recorded, the local default branch's (or the
    /// built-in default).
    policy: RepositoryPolicy,
}

impl Before {
    fn read(repo: &Repository) -> anyhow::Result<Self> {
        let record = TipRecord::new(&astrix_dir(repo)).load()?;
        let policy = match newest_recorded_tip(repo, record.as_deref())? {
            Some((branch, tip)) => source::at_recorded_tip(repo, &tip, &branch)?,
            None => source::for_repository(repo, &Head::Unborn { branch: None })?,
        };
        Ok(Self {
            branches: repo.local_branches()?,
            record,
            policy,
        })
    }

    /// The environment `branch` belongs to, if it is protected: the environment that the
    /// policy of [`Self::policy`] names it in, or the one it was last recorded for while that
    /// environment still exists (a branch deleted since is no longer protected). Never what
    /// the branch's own tip says.
    fn env_of(&self, branch: &str) -> Option<String> {
        let rules = &self.policy.loaded.policy;
        protected_env(rules, branch).or_else(|| {
            let entry = self.latest_entry(branch)?;
            entry.tip.as_ref()?;
            rules
                .environments
                .iter()
                .any(|environment| environment.name == entry.env)
                .then(|| entry.env.clone())
        })
    }

    /// Where an update of `branch` starts from: for a protected branch, where astrix last let
    /// it be — its newest recorded tip, whatever it points at now (moved unseen, renamed away
    /// or deleted with the hooks off), or nothing after a recorded deletion; otherwise (and
    /// when the record has no entry of its own for it, or its recorded tip is gone from the
    /// repository) `current`. So every move of a protected branch is judged from its anchor.
    fn start_of(
        &self,
        repo: &Repository,
        branch: &str,
        current: Option<String>,
    ) -> anyhow::Result<Option<String>> {
        if self.env_of(branch).is_none() {
            return Ok(current);
        }
        let Some(entry) = self.latest_entry(branch) else {
            return Ok(current);
        };
        let Some(tip) = &entry.tip else {
            return Ok(None);
        };
        match repo.commit_info(tip) {
            Ok(_) => Ok(Some(tip.clone())),
            Err(GitError::Revision { .. } | GitError::MissingObject { .. }) => Ok(current),
            Err(error) => Err(error.into()),
        }
    }

    /// The repository's default branch: the first branch the record took, or before any,
    /// the local default branch ([`Repository::default_branch_ref`]).
    fn default_branch(&self, repo: &Repository) -> anyhow::Result<Option<String>> {
        if let Some(branch) = first_branch(self.record.as_deref().unwrap_or_default()) {
            return Ok(Some(branch.to_owned()));
        }
        Ok(repo
            .default_branch_ref()?
            .map(|branch| branch.name.trim_start_matches("refs/heads/").to_owned()))
    }

    /// The newest record entry of `branch`: a tip it took, or its deletion.
    fn latest_entry(&self, branch: &str) -> Option<&TipEntry> {
        self.record
            .as_ref()?
            .iter()
            .rev()
            .find(|entry| entry.branch.as_deref() == Some(branch))
    }

    /// The protected branches whose newest record entry is a tip (not a deletion), by name.
    fn recorded_branches(&self) -> Vec<(&str, &TipEntry)> {
        let Some(record) = &self.record else {
            return Vec::new();
        };
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for entry in record.iter().rev() {
            let Some(branch) = entry.branch.as_deref() else {
                continue;
            };
            if seen.insert(branch) && entry.tip.is_some() {
                out.push((branch, entry));
            }
        }
        out.reverse();
        out
    }

    /// Whether an environment was known when the record began, or any tip was recorded for
    /// it since.
    fn knows_env(&self, env: &str) -> bool {
        self.record
            .as_ref()
            .is_none_or(|record| record.iter().any(|entry| entry.env == env))
    }

    /// The recorded tips of `env`, the newest of each branch first (at most
    /// [`TIPS_PER_BRANCH`] a branch).
    fn known_tips(&self, env: &str) -> Vec<String> {
        let Some(record) = &self.record else {
            return Vec::new();
        };
        let mut per_branch: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::default();
        let mut tips = Vec::new();
        for entry in record.iter().rev() {
            let (Some(branch), Some(tip)) = (&entry.branch, &entry.tip) else {
                continue;
            };
            if entry.env != env || tips.contains(tip) {
                continue;
            }
            let count = per_branch.entry(branch).or_default();
            if *count < TIPS_PER_BRANCH {
                *count += 1;
                tips.push(tip.clone());
            }
        }
        tips
    }

    /// Whether the protected branch `branch` of `env` points where astrix last let it:
    /// exactly its newest recorded tip — not an older one, nor an ancestor: every move astrix
    /// sees is recorded, so a branch found elsewhere was moved unseen (`git branch -C`, the
    /// hooks off), also when it was moved back. A branch without a record of its own (made
    /// unseen, or since its deletion) must be at a tip recorded for `env`.
    fn anchored(&self, branch: &str, tip: &str, env: &str) -> bool {
        if self.record.is_none() {
            return true;
        }
        if let Some(TipEntry {
            tip: Some(latest), ..
        }) = self.latest_entry(branch)
        {
            return latest == tip;
        }
        self.known_tips(env).iter().any(|known| known == tip)
    }
}

/// The tip whose policy is the repository's: the newest recorded tip of the recorded
/// default branch — the first branch the record took ([`default_first`]) — that the
/// repository still has; failing that, the newest recorded tip of any branch. Chosen by the
/// record alone, so that no configuration, command line or branch made later picks it.
fn newest_recorded_tip(
    repo: &Repository,
    record: Option<&[TipEntry]>,
) -> anyhow::Result<Option<(String, String)>> {
    let record = record.unwrap_or_default();
    let default = first_branch(record);
    let of_default = record
        .iter()
        .filter(|entry| default.is_some() && entry.branch.as_deref() == default);
    let others = record
        .iter()
        .filter(|entry| entry.branch.as_deref() != default);
    for entry in of_default.rev().chain(others.rev()) {
        let (Some(branch), Some(tip)) = (&entry.branch, &entry.tip) else {
            continue;
        };
        match repo.commit_info(tip) {
            Ok(_) => return Ok(Some((branch.clone(), tip.clone()))),
            // Gone since (a deleted branch's commits, collected): an older tip decides.
            Err(GitError::Revision { .. } | GitError::MissingObject { .. }) => {}
            Err(error) => return Err(error.into()),
        }
    }
    Ok(None)
}

/// The lines of a transaction, sorted by what they do to their branch.
#[derive(Default)]
struct Transaction {
    updates: Vec<Update>,
    symbolic: Vec<SymbolicUpdate>,
    deletions: Vec<String>,
    /// Every branch a line names.
    touched: HashSet<String>,
}

impl Transaction {
    fn read(
        repo: &Repository,
        before: &Before,
        lines: Vec<Line>,
        moves_head: bool,
    ) -> anyhow::Result<Self> {
        let mut updates = Vec::new();
        let mut symbolic = Vec::new();
        let mut deletions = Vec::new();
        let mut touched = HashSet::new();
        // What each branch points at once the transaction is through, where a line says so.
        let after: std::collections::HashMap<String, Option<String>> = lines
            .iter()
            .filter_map(|line| match &line.new {
                Value::Commit(new) => Some((line.branch.clone(), Some(new.clone()))),
                Value::Zero => Some((line.branch.clone(), None)),
                Value::Symbolic(_) => None,
            })
            .collect();
        for line in lines {
            touched.insert(line.branch.clone());
            match line.new {
                // A deletion brings no content, but it is where a rename over a protected branch
                // shows (`git branch -M feature main` deletes `main`, then writes it unseen).
                Value::Zero => deletions.push(line.branch),
                Value::Symbolic(target) => {
                    // A protected branch made an alias moves to its target's tip once the
                    // transaction is through: judged as any move of it (what it gains, what it
                    // loses); an alias of nothing deletes it.
                    if before.env_of(&line.branch).is_some()
                        && let Some(target_branch) = target.strip_prefix("refs/heads/")
                    {
                        let new = match after.get(target_branch) {
                            Some(new) => new.clone(),
                            None => branch_tip(repo, target_branch)?,
                        };
                        let current = branch_tip(repo, &line.branch)?;
                        let old = before.start_of(repo, &line.branch, current)?;
                        match new {
                            Some(new) if old.as_ref() != Some(&new) => updates.push(Update {
                                old,
                                new,
                                branch: line.branch.clone(),
                                moves_head: false,
                            }),
                            Some(_) => {}
                            None => deletions.push(line.branch.clone()),
                        }
                    }
                    symbolic.push(SymbolicUpdate {
                        branch: line.branch,
                        target,
                    });
                }
                Value::Commit(new) => {
                    // `git branch -f` and `git update-ref` without an old value send zeros as the
                    // old tip even when the branch exists, and a symbolic branch sends its target;
                    // until the update is committed, the branch still points at its old tip. A
                    // symbolic branch that names a tag or a remote-tracking ref shows content no
                    // branch took: made an ordinary branch, it is a new one.
                    let current = match line.old {
                        Value::Commit(old) => Some(old),
                        Value::Zero | Value::Symbolic(_) => {
                            if repo.is_local_branch_chain(&line.branch)? {
                                branch_tip(repo, &line.branch)?
                            } else {
                                None
                            }
                        }
                    };
                    let old = before.start_of(repo, &line.branch, current)?;
                    updates.push(Update {
                        old,
                        new,
                        branch: line.branch,
                        moves_head,
                    });
                }
            }
        }
        Ok(Self {
            updates,
            symbolic,
            deletions,
            touched,
        })
    }
}

/// Judges the transaction `input` (git's lines `<old> <new> <ref>`, in the `prepared`
/// state) in the repository at `cwd`; `reporter` reports and records each judgement as it is
/// made. Returns the worst status; when it lets the update through, the new tips of protected
/// branches are recorded.
pub fn judge_transaction(
    cwd: &std::path::Path,
    env: &EnvSnapshot,
    input: &str,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<ExitStatus> {
    // The repository's policy and the branches' are mostly one file: parsed once.
    source::reusing(|| judge_lines(cwd, env, input, reporter))
}

fn judge_lines(
    cwd: &std::path::Path,
    env: &EnvSnapshot,
    input: &str,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<ExitStatus> {
    let lines = branch_lines(input);
    if lines.is_empty() {
        return Ok(ExitStatus::Allowed);
    }
    let moves_head = input
        .lines()
        .any(|line| line.splitn(3, ' ').nth(2) == Some("HEAD"));
    let repo = Repository::open(cwd, env)
        .context("astrix cannot open the repository, so the ref update is blocked")?;
    let repo = &repo;
    let before = Before::read(repo)?;
    let Transaction {
        updates,
        symbolic,
        deletions,
        touched,
    } = Transaction::read(repo, &before, lines, moves_head)?;
    let mut worst = ExitStatus::Allowed;
    let mut record = Vec::new();
    if is_first_branches(repo, &before, &updates)? {
        seed_record(repo, &before, &updates)?;
        return Ok(ExitStatus::Allowed);
    }
    for branch in &deletions {
        worst = worst.worst(judge_deletion(
            repo,
            &before,
            branch,
            env,
            reporter,
            &mut record,
        )?);
    }
    for update in &symbolic {
        let status = judge_symbolic(repo, &before, update, env, reporter).with_context(|| {
            format!(
                "astrix cannot judge the update of `{}`, so it is blocked",
                update.branch
            )
        })?;
        worst = worst.worst(status);
    }
    worst = worst.worst(check_unseen_moves(
        repo,
        &before,
        &touched,
        env,
        reporter,
        &mut record,
    )?);
    for update in &updates {
        let status =
            judge_update(repo, &before, update, env, reporter, &mut record).with_context(|| {
                format!(
                    "astrix cannot judge the update of `{}`, so it is blocked",
                    update.branch
                )
            })?;
        worst = worst.worst(status);
    }
    if worst == ExitStatus::Allowed {
        default_first(repo, before.record.as_deref(), &mut record)?;
        TipRecord::new(&astrix_dir(repo)).append(&record)?;
    }
    Ok(worst)
}

/// The first branch the record took: the repository's default branch.
fn first_branch(record: &[TipEntry]) -> Option<&str> {
    record.iter().find_map(|entry| entry.branch.as_deref())
}

/// Puts the default branch's entry first when the record takes its first branch: the first
/// branch the record holds is the one whose policy is the repository's
/// ([`newest_recorded_tip`]), so that a branch made later (`main` beside `master`) never
/// becomes it.
fn default_first(
    repo: &Repository,
    record: Option<&[TipEntry]>,
    entries: &mut [TipEntry],
) -> anyhow::Result<()> {
    if record.is_some_and(|record| record.iter().any(|entry| entry.branch.is_some())) {
        return Ok(());
    }
    let Some(default) = repo.default_branch_ref()? else {
        return Ok(());
    };
    let default = default.name.trim_start_matches("refs/heads/").to_owned();
    // Environment markers first, then the default branch, then the rest, each in order.
    entries.sort_by_key(|entry| match entry.branch.as_deref() {
        None => 0,
        Some(branch) if branch == default => 1,
        Some(_) => 2,
    });
    Ok(())
}

/// A clone, or a fetch into a new repository: its first branches are what there is, and the
/// record begins with them (and with the environments the policy names).
fn seed_record(repo: &Repository, before: &Before, updates: &[Update]) -> anyhow::Result<()> {
    let mut record: Vec<TipEntry> = Vec::new();
    for environment in &before.policy.loaded.policy.environments {
        if !record
            .iter()
            .any(|entry: &TipEntry| entry.env == environment.name)
        {
            record.push(TipEntry {
                env: environment.name.clone(),
                branch: None,
                tip: None,
            });
        }
    }
    for update in updates {
        let policy = policy_before(repo, update)?;
        if let Some(env_name) = protected_env(&policy.loaded.policy, &update.branch) {
            record.push(TipEntry {
                env: env_name,
                branch: Some(update.branch.clone()),
                tip: Some(update.new.clone()),
            });
        }
    }
    default_first(repo, before.record.as_deref(), &mut record)?;
    TipRecord::new(&astrix_dir(repo)).append(&record)?;
    Ok(())
}

/// Whether the transaction gives a repository its first branches, other than by a commit: no
/// local branch exists, nothing was ever recorded, and each update either moves the branch
/// alone (a fetch, a bare clone; `git commit` moves HEAD with it) or sets it at a commit that
/// was fetched (a clone checks out the remote's branch). There is nothing yet to protect, and
/// what arrives is taken as the record's beginning — like the first sight of branches that
/// exist when the record begins.
fn is_first_branches(
    repo: &Repository,
    before: &Before,
    updates: &[Update],
) -> anyhow::Result<bool> {
    if !before.branches.is_empty() || before.record.is_some() || updates.is_empty() {
        return Ok(false);
    }
    for update in updates {
        if update.moves_head
            && !unpublished(repo, update, std::slice::from_ref(&update.new))?.is_empty()
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The environment of `branch` under `policy` when an `[[environment]]` names it.
fn protected_env(policy: &Policy, branch: &str) -> Option<String> {
    policy
        .environment_for_branch(branch)
        .map(|(environment, _)| environment.name.clone())
}

/// Every protected branch that this transaction does not update must point where astrix
/// last let it be ([`Before::anchored`]): git moves branches without showing the hook (`git
/// branch -m`/`-c`), and what such a move brought was never judged. The first transaction
/// after the record begins records what is there (and which environments exist); an
/// environment a changed policy adds later is only marked as known here — its branches were
/// taken, or not, by the change itself (`record_newly_protected`).
fn check_unseen_moves(
    repo: &Repository,
    before: &Before,
    touched: &HashSet<String>,
    env: &EnvSnapshot,
    reporter: &mut dyn Reporter,
    record: &mut Vec<TipEntry>,
) -> anyhow::Result<ExitStatus> {
    let rules = &before.policy.loaded.policy;
    let mut worst = ExitStatus::Allowed;
    let mut new_envs: Vec<String> = rules
        .environments
        .iter()
        .map(|environment| environment.name.clone())
        .filter(|name| before.record.is_none() || !before.knows_env(name))
        .collect();
    new_envs.dedup();
    for name in &new_envs {
        record.push(TipEntry {
            env: name.clone(),
            branch: None,
            tip: None,
        });
    }
    for branch in &before.branches {
        let Some(short) = branch.name.strip_prefix("refs/heads/") else {
            continue;
        };
        if touched.contains(short) {
            continue;
        }
        let Some(env_name) = before.env_of(short) else {
            continue;
        };
        if before.record.is_none() {
            // First sight: what is there is taken as it is. An environment that a policy
            // change adds later takes its branches at that change (`record_newly_protected`),
            // never as they stand at some later transaction.
            record.push(TipEntry {
                env: env_name,
                branch: Some(short.to_owned()),
                tip: Some(branch.commit.clone()),
            });
            continue;
        }
        if before.anchored(short, &branch.commit, &env_name) {
            continue;
        }
        let actor = crate::env::resolve_actor(env, &rules.actors.agent_env);
        let short_tip: String = branch.commit.chars().take(12).collect();
        let own = before
            .latest_entry(short)
            .and_then(|entry| entry.tip.clone());
        let back = own
            .clone()
            .or_else(|| before.known_tips(&env_name).first().cloned())
            .map_or_else(
                || "<commit>".to_owned(),
                |latest| latest.chars().take(12).collect::<String>(),
            );
        let last = if own.is_some() {
            format!("where astrix last let it be (`{back}`)")
        } else {
            format!("a tip astrix let a branch of `{env_name}` take")
        };
        let mut next_steps = vec![format!(
            "point `{short}` back {last}: `git branch -f {short} {back}` (on `{short}` itself: `git reset --keep {back}`); `git reflog show {short}` lists where it was"
        )];
        if actor.kind == HUMAN {
            next_steps.push(format!(
                "or, if where it is now is right, take it as it is yourself (what it gained is judged as your move): `git update-ref refs/heads/{short} {short_tip}`"
            ));
        } else {
            next_steps.push(format!(
                "then bring the work it held through a feature branch and a pull request; a person decides what `{env_name}` takes"
            ));
        }
        let problem = format!(
            "`{short}` targets `{env_name}` and points at `{short_tip}`, which is not {last}: it moved where the hook does not see (`git branch -m`/`-c`, with the hooks off, or without git), or a policy change made it protected while it held commits never judged for `{env_name}`, so what it gained or lost was never judged; every branch update is blocked until it points there again, or a move of it is judged"
        );
        worst = worst.worst(reporter.refused(
            repo,
            &unseen(before, actor, short, env_name, problem, next_steps),
        )?);
    }
    Ok(worst.worst(check_missing_branches(
        repo, before, touched, env, reporter,
    )?))
}

/// The refusal of an update because `branch` of `env` is not where astrix last let it be.
fn unseen(
    before: &Before,
    actor: ResolvedActor,
    branch: &str,
    env: String,
    problem: String,
    next_steps: Vec<String>,
) -> Refusal {
    Refusal {
        rule: UNSEEN_MOVE,
        branch: branch.to_owned(),
        problem,
        next_steps,
        actor,
        target: env,
        policy_digest: before.policy.loaded.provenance.digest.clone(),
    }
}

/// A protected branch that is gone without its deletion reaching the hook (a reftable
/// repository shows the hook no rename; with the hooks off, anything goes) blocks every
/// update until it is back.
fn check_missing_branches(
    repo: &Repository,
    before: &Before,
    touched: &HashSet<String>,
    env: &EnvSnapshot,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<ExitStatus> {
    let rules = &before.policy.loaded.policy;
    let mut worst = ExitStatus::Allowed;
    let present: HashSet<&str> = before
        .branches
        .iter()
        .filter_map(|branch| branch.name.strip_prefix("refs/heads/"))
        .collect();
    for (branch, entry) in before.recorded_branches() {
        // A branch whose commit is gone (a damaged repository) is still there.
        if present.contains(branch)
            || touched.contains(branch)
            || before.env_of(branch).is_none()
            || repo.branch_exists(branch)?
        {
            continue;
        }
        let Some(tip) = &entry.tip else { continue };
        let short_tip: String = tip.chars().take(12).collect();
        let actor = crate::env::resolve_actor(env, &rules.actors.agent_env);
        let mut next_steps = vec![format!(
            "make it where astrix last saw it: `git branch {branch} {short_tip}`"
        )];
        if actor.kind == HUMAN {
            next_steps.push(format!(
                "if it is to be gone, delete it yourself once it is there, so that astrix sees it: `git branch -D {branch}`"
            ));
        } else {
            next_steps.push(format!(
                "then leave it there: an agent may not delete `{branch}`; a person may"
            ));
        }
        let problem = format!(
            "`{branch}` targets `{}` and is gone, but astrix never saw it deleted: it was renamed or deleted where the hook does not see (`git branch -m` in a reftable repository, with the hooks off, or without git) — or a transaction that made it was aborted after astrix let it through — and a protected branch may not vanish unseen; every branch update is blocked until it is there",
            entry.env
        );
        worst = worst.worst(reporter.refused(
            repo,
            &unseen(
                before,
                actor,
                branch,
                entry.env.clone(),
                problem,
                next_steps,
            ),
        )?);
    }
    Ok(worst)
}

/// An agent may not delete a protected branch: git shows the hook the deletion that renaming
/// over a branch begins with (`git branch -M feature main`), never the branch it then
/// writes. A person may.
fn judge_deletion(
    repo: &Repository,
    before: &Before,
    branch: &str,
    env: &EnvSnapshot,
    reporter: &mut dyn Reporter,
    record: &mut Vec<TipEntry>,
) -> anyhow::Result<ExitStatus> {
    let Some(tip) = branch_tip(repo, branch)? else {
        return Ok(ExitStatus::Allowed);
    };
    // `git pack-refs` and `git gc` delete the loose copy of a branch they packed: it stays.
    if repo.deletes_only_loose_copy(branch, &tip)? {
        return Ok(ExitStatus::Allowed);
    }
    let policy = &before.policy;
    let rules = &policy.loaded.policy;
    let actor = crate::env::resolve_actor(env, &rules.actors.agent_env);
    let Some(env_name) = before.env_of(branch) else {
        return Ok(ExitStatus::Allowed);
    };
    if actor.kind == HUMAN {
        // Recorded, so that its absence is not taken for a deletion the hook never saw.
        record.push(TipEntry {
            env: env_name,
            branch: Some(branch.to_owned()),
            tip: None,
        });
        return Ok(ExitStatus::Allowed);
    }
    reporter.refused(
        repo,
        &Refusal {
            rule: PROTECTED_DELETION,
            branch: branch.to_owned(),
            problem: format!(
                "`{branch}` targets `{env_name}`, and an agent may not delete a protected branch: renaming another branch over it (`git branch -M <branch> {branch}`) starts with this deletion, and git does not show the hook the branch it then writes"
            ),
            next_steps: vec![
                format!("leave `{branch}` as it is; work on a feature branch and open a pull request"),
                "if this was `git branch -M`/`-m`, git deleted the branch being renamed before it got here: `git reflog` (or `git fsck --lost-found`) shows its commit, and `git branch <name> <commit>` makes it again".to_owned(),
                format!("a person may delete `{branch}` (`git branch -D {branch}`) from their own shell"),
            ],
            actor,
            target: env_name,
            policy_digest: policy.loaded.provenance.digest.clone(),
        },
    )
}

/// A branch that becomes a symbolic reference gains, unseen, every commit its target gains
/// later (git updates the target, and names the symbolic branch only when a commit is made
/// through it). A branch that an `[[environment]]` names may therefore only point at a local
/// branch of its own environment; other branches (an alias such as `trunk` for `main`) may
/// point anywhere, since a protected branch judges whatever it gains from them.
fn judge_symbolic(
    repo: &Repository,
    before: &Before,
    update: &SymbolicUpdate,
    env: &EnvSnapshot,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<ExitStatus> {
    let policy = &before.policy;
    let rules = &policy.loaded.policy;
    let actor = crate::env::resolve_actor(env, &rules.actors.agent_env);
    let name_target = resolve_target(rules, Some(&update.branch), env);
    let protected = before.env_of(&update.branch);
    let problem = match (update.target.strip_prefix("refs/heads/"), &protected) {
        (Some(_), None) => None,
        (Some(target_branch), Some(name_env)) => {
            let target_env = before.env_of(target_branch);
            (target_env.as_ref() != Some(name_env)).then(|| {
                let target = target_env.unwrap_or_else(|| resolve_target(rules, Some(target_branch), env).env);
                format!(
                    "`{}` targets `{name_env}` but would point at `{target_branch}`, which targets `{target}`: commits made on `{target_branch}` would reach `{}` without being judged for `{name_env}`",
                    update.branch, update.branch
                )
            })
        }
        // A feature branch may name a tag or a remote-tracking ref when a person makes it so;
        // an agent's would show content that no branch took.
        (None, None) if actor.kind == HUMAN => None,
        (None, _) => Some(format!(
            "`{}` targets `{}` and would point at `{}`, which is not a local branch: what it names was never judged for a branch, and whatever moves `{}` would reach `{}` without being judged",
            update.branch, name_target.env, update.target, update.target, update.branch
        )),
    };
    let Some(problem) = problem else {
        return Ok(ExitStatus::Allowed);
    };
    reporter.refused(
        repo,
        &Refusal {
            rule: SYMBOLIC_BRANCH,
            branch: update.branch.clone(),
            problem,
            next_steps: vec![format!(
                "point `{}` at a branch of the same environment, or make it an ordinary branch (`git branch -f {} <commit>`)",
                update.branch, update.branch
            )],
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

/// A judged change of the repository's policy (an allowed update of the default branch that
/// brings another Astrixfile.ax) takes the branches it newly protects where they hold only
/// what the default branch now has (their tips are ancestors of its new tip): those are
/// recorded, so that they are anchored rather than blocked as moved unseen. A branch with
/// anything else (an agent's commits, placed in advance) is not adopted: it blocks updates
/// until a person moves it, as any protected branch not at a judged tip does.
fn record_newly_protected(
    repo: &Repository,
    before: &Before,
    update: &Update,
    plan: &Plan,
    record: &mut Vec<TipEntry>,
) -> anyhow::Result<()> {
    if !plan.policy_changes
        || before.default_branch(repo)?.as_deref() != Some(update.branch.as_str())
    {
        return Ok(());
    }
    let policy = source::at_recorded_tip(repo, &update.new, &update.branch)?;
    let rules = &policy.loaded.policy;
    let mut tips: Vec<(String, String)> = before
        .branches
        .iter()
        .filter_map(|branch| {
            let short = branch.name.strip_prefix("refs/heads/")?;
            (short != update.branch).then(|| (short.to_owned(), branch.commit.clone()))
        })
        .collect();
    tips.push((update.branch.clone(), update.new.clone()));
    for (branch, tip) in tips {
        if before.env_of(&branch).is_none()
            && let Some(env) = protected_env(rules, &branch)
            && (tip == update.new || repo.is_ancestor(&tip, &update.new)?)
        {
            record.push(TipEntry {
                env,
                branch: Some(branch),
                tip: Some(tip),
            });
        }
    }
    Ok(())
}

/// How an update is judged: by which policy, for which protected environment, and whether
/// its old tip vouches for what it keeps.
struct Footing {
    policy: RepositoryPolicy,
    /// The protected environment of the branch ([`Before::env_of`]).
    env: Option<String>,
    /// Whether the branch exists and its tip is one it may have: any tip of a feature
    /// branch; for a protected branch, a tip astrix let it take (or an ancestor of one).
    old_anchored: bool,
}

/// The footing of `update`: a feature branch is judged by its own policy (at its old tip);
/// a new branch and a protected one by the repository's ([`Before::policy`]).
fn footing(repo: &Repository, before: &Before, update: &Update) -> anyhow::Result<Footing> {
    let env = before.env_of(&update.branch);
    let old_anchored = match (&update.old, &env) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(old), Some(env)) => before.anchored(&update.branch, old, env),
    };
    // A protected branch is judged by the repository's policy, the one that makes it
    // protected: its own tip may hold an older one that does not (a branch made at an old
    // commit of `main`).
    let policy = if old_anchored && env.is_none() {
        policy_before(repo, update)?
    } else {
        before.policy.clone()
    };
    Ok(Footing {
        policy,
        env,
        old_anchored,
    })
}

/// The policy in force on the branch before the update: the Astrixfile.ax at its old tip;
/// for a new branch, what the commit gate would use on it (the local default branch's, or
/// on the first commit of a repository the staged one). Never a ref that can move unjudged.
fn policy_before(repo: &Repository, update: &Update) -> anyhow::Result<RepositoryPolicy> {
    let head = match &update.old {
        Some(old) => Head::Branch {
            name: update.branch.clone(),
            commit: old.clone(),
        },
        None => Head::Unborn {
            branch: Some(update.branch.clone()),
        },
    };
    Ok(source::for_repository(repo, &head)?)
}

/// The tips whose commits vouch for `update` (see the module's header), and whether the old
/// tip is one of them.
fn vouching_tips(
    repo: &Repository,
    before: &Before,
    update: &Update,
    footing: &Footing,
) -> anyhow::Result<(Vec<String>, bool)> {
    let mut tips = Vec::new();
    let own = format!("refs/heads/{}", update.branch);
    // Which remotes are trusted, and which of their branches are protected, is the
    // repository's to say, never a branch's own tip's.
    let rules = &before.policy.loaded.policy;
    let old_vouches = footing.old_anchored;
    if old_vouches && let Some(old) = &update.old {
        tips.push(old.clone());
    }
    if let Some(env) = &footing.env {
        tips.extend(before.known_tips(env));
        for branch in &before.branches {
            let Some(short) = branch.name.strip_prefix("refs/heads/") else {
                continue;
            };
            // Another branch of the environment vouches only from a tip astrix let it take.
            if branch.name != own
                && before.env_of(short).as_deref() == Some(env)
                && before.anchored(short, &branch.commit, env)
            {
                tips.push(branch.commit.clone());
            }
        }
        for remote in trusted_remotes(rules) {
            for branch in repo.remote_branches(remote)? {
                let short = branch
                    .name
                    .strip_prefix(&format!("refs/remotes/{remote}/"))
                    .unwrap_or_default();
                if protected_env(rules, short).as_deref() == Some(env) {
                    tips.push(branch.commit);
                }
            }
        }
    } else {
        tips.extend(
            before
                .branches
                .iter()
                .filter(|branch| branch.name != own)
                .map(|branch| branch.commit.clone()),
        );
        if let Some(record) = &before.record {
            tips.extend(record.iter().filter_map(|entry| entry.tip.clone()));
        }
        for remote in trusted_remotes(rules) {
            tips.extend(repo.remote_branches(remote)?.into_iter().map(|b| b.commit));
        }
    }
    tips.sort();
    tips.dedup();
    Ok((tips, old_vouches))
}

/// The commits `update` brings that no tip of `hidden` has, parents first.
fn brought_commits(
    repo: &Repository,
    update: &Update,
    hidden: &[String],
    old_vouches: bool,
) -> anyhow::Result<Vec<String>> {
    if hidden.contains(&update.new) {
        return Ok(Vec::new());
    }
    // The usual case, one commit on top of the old tip: no walk.
    if old_vouches
        && let Some(old) = &update.old
        && repo.commit_info(&update.new)?.parents == [old.clone()]
    {
        return Ok(vec![update.new.clone()]);
    }
    Ok(repo.commits_not_in(&update.new, hidden)?)
}

/// What an update brings that nothing vouches for.
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts about one update, each read where the rule needs it"
)]
struct Plan {
    /// What the update does, for the report.
    movement: Move,
    /// The commits it brings, for `astrix approve` and the report.
    range: String,
    /// The commits it brings that nothing vouches for, parents first.
    brought: Vec<String>,
    /// Whether the old tip is not an ancestor of the new one (an amend, a rebase, a reset).
    rewrite: bool,
    /// Whether a protected branch, from a tip astrix let it take, loses commits (`git reset
    /// --hard main~3`, a rebase that drops one): for an agent, the change from the old tip
    /// to the new one is judged too, as the agent's.
    rewind: bool,
    /// Whether the old tip vouches for what it has ([`Footing::old_anchored`]).
    old_anchored: bool,
    /// Whether the branch is protected ([`Footing::env`]).
    protected: bool,
    /// Whether the move changes the branch's `Astrixfile.ax` (asked only of protected
    /// branches and the default branch, the ones whose policy decides).
    policy_changes: bool,
}

/// What `update` brings, by the policy `rules` of its branch.
fn plan_update(
    repo: &Repository,
    before: &Before,
    update: &Update,
    footing: &Footing,
) -> anyhow::Result<Plan> {
    let (hidden, old_vouches) = vouching_tips(repo, before, update, footing)?;
    let brought = brought_commits(repo, update, &hidden, old_vouches)?;
    let rewrite = match &update.old {
        Some(old) => !repo.is_ancestor(old, &update.new)?,
        None => false,
    };
    let single_on_top = update.moves_head
        && brought.len() == 1
        && repo.commit_info(&update.new)?.parents.first() == update.old.as_ref();
    let amend = update.moves_head && rewrite && brought.len() == 1 && brought[0] == update.new && {
        let old = update.old.as_deref().unwrap_or_default();
        repo.commit_info(&update.new)?.parents.first() == repo.commit_info(old)?.parents.first()
    };
    let movement = if amend {
        Move::Amend
    } else if rewrite {
        Move::Rewrite
    } else if single_on_top {
        Move::NewCommit
    } else {
        Move::Gain
    };
    let range = match &update.old {
        Some(old) if !rewrite => format!("{}..{}", short(old), short(&update.new)),
        _ => match brought.first() {
            Some(first) => match repo.commit_info(first)?.parents.first() {
                Some(parent) => format!("{}..{}", short(parent), short(&update.new)),
                None => short(&update.new),
            },
            None => short(&update.new),
        },
    };
    let rewind = rewrite
        && footing.env.is_some()
        && footing.old_anchored
        && update.old.as_ref() != Some(&update.new);
    Ok(Plan {
        movement,
        range,
        brought,
        rewrite,
        rewind,
        old_anchored: footing.old_anchored,
        protected: footing.env.is_some(),
        policy_changes: (footing.env.is_some()
            || before.default_branch(repo)?.as_deref() == Some(update.branch.as_str()))
            && changes_policy(repo, update)?,
    })
}

/// One change to judge for an update: a commit against its first parent, or all the
/// commits it brings as one change.
struct Step {
    change: crate::git::Change,
    parent: Option<String>,
    /// The commit whose content the change records.
    commit: String,
}

/// The commits of `plan` one by one, as changes against their first parents, each given to
/// `visit` until it returns false; returns how many were visited. A commit of a rewrite
/// with the same patch as one the old tip had (a rebase that only moved it) was judged when
/// the branch took it, and is left out.
fn for_each_commit(
    repo: &Repository,
    update: &Update,
    plan: &Plan,
    options: &ChangeOptions,
    mut visit: impl FnMut(Step) -> anyhow::Result<bool>,
) -> anyhow::Result<usize> {
    // Only an old tip that vouches for itself excuses a commit with the same patch: one that
    // moved there unseen would excuse its own copy.
    let dropped = match &update.old {
        Some(old) if plan.rewrite && plan.old_anchored => patch_digests(
            repo,
            &repo.commits_not_in(old, std::slice::from_ref(&update.new))?,
        )?,
        _ => HashSet::new(),
    };
    let mut visited = 0;
    for commit in &plan.brought {
        let info = repo.commit_info(commit)?;
        let change = repo.commit_change(commit, options)?;
        if !dropped.is_empty() && dropped.contains(&repo.patch_digest(&change)?) {
            continue;
        }
        visited += 1;
        let step = Step {
            change,
            parent: info.parents.first().cloned(),
            commit: commit.clone(),
        };
        if !visit(step)? {
            break;
        }
    }
    Ok(visited)
}

/// The commits of `plan` as one change: the new tip against the commits they grew from
/// (the parents outside them, the first-parent line first), by git's combined rule when
/// there are several.
fn whole_change(
    repo: &Repository,
    update: &Update,
    plan: &Plan,
    options: &ChangeOptions,
) -> anyhow::Result<Step> {
    let inside: HashSet<&str> = plan.brought.iter().map(String::as_str).collect();
    let mut bases: Vec<String> = Vec::new();
    for commit in plan.brought.iter().rev() {
        for parent in repo.commit_info(commit)?.parents {
            if !inside.contains(parent.as_str()) && !bases.contains(&parent) {
                bases.push(parent);
            }
        }
    }
    Ok(Step {
        change: repo.change_against(&update.new, &bases, options)?,
        parent: bases.first().cloned(),
        commit: update.new.clone(),
    })
}

/// The change from the old tip to the new one, as one step: what a rewind takes from its
/// branch, or what a move that changes the policy changes (from nothing, for a new branch).
fn tip_to_tip(repo: &Repository, update: &Update, options: &ChangeOptions) -> anyhow::Result<Step> {
    let bases: Vec<String> = update.old.iter().cloned().collect();
    Ok(Step {
        change: repo.change_against(&update.new, &bases, options)?,
        parent: update.old.clone(),
        commit: update.new.clone(),
    })
}

/// A protected branch's policy changes only by a judged change, whoever moves it: the
/// commits that bring it may sit on a reference anyone can write (a remote-tracking branch
/// set by `update-ref`, a tag), so a person's move is not taken as confirming it; `astrix
/// approve --branch` approves it. Judged as the change from the old tip to the new one.
fn judge_policy_move(
    repo: &Repository,
    update: &Update,
    plan: &Plan,
    policy: &RepositoryPolicy,
    env: &EnvSnapshot,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<ExitStatus> {
    let step = tip_to_tip(repo, update, &ChangeOptions::default())?;
    let mut judgement = judge_step(repo, env, policy, &update.branch, step, GATE_OPTIONS)?;
    reporter.judged(
        repo,
        &Outcome {
            branch: &update.branch,
            new: &update.new,
            movement: &plan.movement,
            what: POLICY_MOVE,
            range: &plan.range,
            commit: None,
            judgement: &mut judgement,
        },
    )
}

/// What the report calls the judged change of a person's move that changes a protected
/// branch's policy.
pub const POLICY_MOVE: &str =
    "a move that changes the branch's Astrixfile.ax, judged as one change against its old tip";

/// Whether moving the branch of `update` changes its `Astrixfile.ax`. A new branch changes
/// none: a protected one is judged by the repository's policy, whatever it holds.
fn changes_policy(repo: &Repository, update: &Update) -> anyhow::Result<bool> {
    if update.old.is_none() {
        return Ok(false);
    }
    let at = |rev: &Option<String>| -> anyhow::Result<Option<Vec<u8>>> {
        Ok(match rev {
            Some(rev) => repo.file_at_rev(rev, FILE_NAME)?.map(|blob| blob.data),
            None => None,
        })
    };
    Ok(at(&update.old)? != at(&Some(update.new.clone()))?)
}

/// What the report calls a rewind's judged change.
pub const REWIND: &str =
    "what the branch loses against its old tip (a reset, or a rewrite that drops commits)";

/// Judges one step of an update for its branch by the branch's policy.
fn judge_step(
    repo: &Repository,
    env: &EnvSnapshot,
    policy: &RepositoryPolicy,
    branch: &str,
    step: Step,
    options: JudgeOptions,
) -> anyhow::Result<Judgement> {
    let new_policy = committed_policy_problems(repo, &step.commit, &step.change)?;
    judge_change(
        env,
        repo,
        ChangeToJudge {
            policy: policy.clone(),
            branch: Some(branch.to_owned()),
            change: step.change,
            parent: step.parent,
            new_policy,
            snapshot: Snapshot::Commit(step.commit),
            uncollected: Vec::new(),
        },
        options,
    )
}

fn judge_update(
    repo: &Repository,
    before: &Before,
    update: &Update,
    env: &EnvSnapshot,
    reporter: &mut dyn Reporter,
    record: &mut Vec<TipEntry>,
) -> anyhow::Result<ExitStatus> {
    let footing = footing(repo, before, update)?;
    let plan = plan_update(repo, before, update, &footing)?;
    let rules = &footing.policy.loaded.policy;
    let by_agent = crate::env::resolve_actor(env, &rules.actors.agent_env).kind != HUMAN;
    // A person's move that brings nothing new (a reset back) may still change the policy.
    let policy_moves = !by_agent && plan.protected && plan.policy_changes;
    let status = if plan.brought.is_empty() && !(plan.rewind && by_agent) && !policy_moves {
        ExitStatus::Allowed
    } else {
        judge_plan(repo, update, &plan, &footing.policy, env, reporter)?
    };
    if status == ExitStatus::Allowed {
        record_newly_protected(repo, before, update, &plan, record)?;
    }
    if status == ExitStatus::Allowed
        && let Some(env_name) = footing.env
    {
        record.push(TipEntry {
            env: env_name,
            branch: Some(update.branch.clone()),
            tip: Some(update.new.clone()),
        });
    }
    Ok(status)
}

/// Judges what `plan` brings to the branch of `update`, as the actor who moves it: each
/// commit against its parent, then all of them as one change; a denial stops the rest.
fn judge_plan(
    repo: &Repository,
    update: &Update,
    plan: &Plan,
    policy: &RepositoryPolicy,
    env: &EnvSnapshot,
    reporter: &mut dyn Reporter,
) -> anyhow::Result<ExitStatus> {
    let rules = &policy.loaded.policy;
    let target = resolve_target(rules, Some(&update.branch), env);
    let actor = crate::env::resolve_actor(env, &rules.actors.agent_env);
    let options = ChangeOptions {
        line_counts: super::needs_line_counts(rules),
        tamper: super::needs_tamper(rules),
    };
    // A person who moves a branch over commits (`git pull`, `merge`, `reset`, `rebase`;
    // anything but a new commit or an amend) takes responsibility for them: the commits that
    // exist on another reference already (fetched, on another branch, stashed) are not
    // theirs to judge, and the move itself confirms what holds the others; denials stand.
    let lenient = actor.kind == HUMAN && matches!(plan.movement, Move::Gain | Move::Rewrite);
    if lenient && plan.protected && plan.policy_changes {
        let status = judge_policy_move(repo, update, plan, policy, env, reporter)?;
        if status != ExitStatus::Allowed {
            return Ok(status);
        }
    }
    let narrowed;
    let plan = if lenient {
        narrowed = Plan {
            brought: unpublished(repo, update, &plan.brought)?,
            movement: plan.movement,
            range: plan.range.clone(),
            rewrite: plan.rewrite,
            rewind: false,
            old_anchored: plan.old_anchored,
            protected: plan.protected,
            policy_changes: plan.policy_changes,
        };
        if narrowed.brought.is_empty() || !can_deny(rules, &actor.kind, &target.env) {
            return Ok(ExitStatus::Allowed);
        }
        &narrowed
    } else {
        plan
    };
    let mut report = |judgement: &mut Judgement, what: &str, commit: Option<&str>| {
        if lenient {
            confirm_by_the_move(judgement);
        }
        reporter.judged(
            repo,
            &Outcome {
                branch: &update.branch,
                new: &update.new,
                movement: &plan.movement,
                what,
                range: &plan.range,
                commit,
                judgement,
            },
        )
    };
    if plan.brought.len() > MAX_JUDGED {
        return reporter.refused(
            repo,
            &Refusal {
                rule: TOO_MANY_COMMITS,
                branch: update.branch.clone(),
                problem: format!(
                    "`{}` would gain {} commits that nothing vouches for (none on a branch of its environment, none judged for it); astrix judges at most {MAX_JUDGED} in one update",
                    update.branch,
                    plan.brought.len()
                ),
                next_steps: vec![
                    "move the branch in smaller steps, or have a person move it over commits that exist already".to_owned(),
                ],
                actor,
                target: target.env,
                policy_digest: policy.loaded.provenance.digest.clone(),
            },
        );
    }
    let mut worst = ExitStatus::Allowed;
    if plan.rewind && !lenient {
        // What the branch loses is the agent's change as much as what it gains.
        let step = tip_to_tip(repo, update, &options)?;
        let mut judgement = judge_step(repo, env, policy, &update.branch, step, GATE_OPTIONS)?;
        worst = report(&mut judgement, REWIND, None)?;
        if worst == ExitStatus::Denied || plan.brought.is_empty() {
            return Ok(worst);
        }
    }
    let what = plan.movement.judged();
    let judged = for_each_commit(repo, update, plan, &options, |step| {
        let commit = step.commit.clone();
        let mut judgement = judge_step(repo, env, policy, &update.branch, step, GATE_OPTIONS)?;
        let status = report(&mut judgement, what, Some(&commit))?;
        worst = worst.worst(status);
        // A denial stands whatever follows; the rest is not judged.
        Ok(status != ExitStatus::Denied)
    })?;
    if judged > 1 && worst != ExitStatus::Denied {
        let step = whole_change(repo, update, plan, &options)?;
        let mut judgement = judge_step(repo, env, policy, &update.branch, step, GATE_OPTIONS)?;
        worst = worst.worst(report(
            &mut judgement,
            "the commits it would gain, as one change",
            None,
        )?);
    }
    Ok(worst)
}

/// What moving a branch to a commit would bring, judged for `astrix approve --branch`:
/// the same commits and the same changes the backstop judges for that update, so that an
/// approval of them is found when the update is made.
pub struct ProposedMove {
    /// The repository.
    pub repo: Repository,
    /// Each change judged (a commit, or the whole), with what it is.
    pub judged: Vec<(String, Judgement)>,
    /// The commits the move would bring that nothing vouches for.
    pub brought: usize,
}

/// Judges moving `branch` to `tip` (a revision) in the repository at `cwd`, without
/// approvals, as the backstop would for that update.
pub fn judge_proposed_move(
    cwd: &std::path::Path,
    env: &EnvSnapshot,
    branch: &str,
    tip: &str,
) -> anyhow::Result<ProposedMove> {
    let repo = Repository::open(cwd, env)?;
    let branch = branch
        .strip_prefix("refs/heads/")
        .unwrap_or(branch)
        .to_owned();
    let new = repo
        .commit_info(tip)
        .with_context(|| format!("`{tip}` is not a commit of this repository; name the commit the branch would move to (the report of the hook names it)"))?
        .id;
    let update = Update {
        old: branch_tip(&repo, &branch)?,
        new,
        branch,
        moves_head: false,
    };
    let before = Before::read(&repo)?;
    let footing = footing(&repo, &before, &update)?;
    let plan = plan_update(&repo, &before, &update, &footing)?;
    let policy = footing.policy;
    if plan.brought.len() > MAX_JUDGED {
        anyhow::bail!(
            "moving `{}` to `{}` would bring {} commits that nothing vouches for; astrix judges (and approves) at most {MAX_JUDGED} at once: move the branch in smaller steps",
            update.branch,
            short(&update.new),
            plan.brought.len()
        );
    }
    let options = ChangeOptions {
        line_counts: true,
        tamper: true,
    };
    let judge_options = JudgeOptions {
        line_counts: true,
        approvals: false,
        tamper: true,
    };
    let mut judged = Vec::new();
    if plan.protected && plan.policy_changes {
        let step = tip_to_tip(&repo, &update, &ChangeOptions::default())?;
        judged.push((
            "the policy change the move brings".to_owned(),
            judge_step(&repo, env, &policy, &update.branch, step, judge_options)?,
        ));
    }
    if plan.rewind {
        let step = tip_to_tip(&repo, &update, &options)?;
        judged.push((
            "what the branch loses".to_owned(),
            judge_step(&repo, env, &policy, &update.branch, step, judge_options)?,
        ));
    }
    let count = for_each_commit(&repo, &update, &plan, &options, |step| {
        let label = format!("commit {}", short(&step.commit));
        judged.push((
            label,
            judge_step(&repo, env, &policy, &update.branch, step, judge_options)?,
        ));
        Ok(true)
    })?;
    if count > 1 {
        let step = whole_change(&repo, &update, &plan, &options)?;
        judged.push((
            format!("the {count} commits as one change"),
            judge_step(&repo, env, &policy, &update.branch, step, judge_options)?,
        ));
    }
    Ok(ProposedMove {
        brought: plan.brought.len(),
        judged,
        repo,
    })
}

/// Where a commit that `branch` would gain comes from, for the report: the references
/// (other than `branch`) that have it, or that none does.
pub fn where_from(repo: &Repository, commit: &str, branch: &str) -> String {
    /// At most this many references are asked (the report names the first few).
    const ASKED: usize = 256;
    const NAMED: usize = 3;
    let own = format!("refs/heads/{branch}");
    let Ok(tips) = repo.reference_tips() else {
        return "(the references that have it cannot be read)".to_owned();
    };
    let mut tips: Vec<(String, String)> =
        tips.into_iter().filter(|(name, _)| *name != own).collect();
    // Local branches first, then the stash, tags, remote-tracking branches.
    tips.sort_by_key(|(name, _)| {
        (
            !name.starts_with("refs/heads/"),
            name != "refs/stash",
            !name.starts_with("refs/tags/"),
        )
    });
    let mut names: Vec<String> = Vec::new();
    let mut more = 0usize;
    for (name, tip) in tips.iter().take(ASKED) {
        if repo.is_ancestor(commit, tip).unwrap_or(false) {
            if names.len() < NAMED {
                let shown = name.strip_prefix("refs/heads/").unwrap_or(name);
                names.push(format!("`{shown}`"));
            } else {
                more += 1;
            }
        }
    }
    if names.is_empty() {
        return "on no branch or other reference: made on a detached HEAD, by `git commit-tree`, or by the steps of a rebase or cherry-pick".to_owned();
    }
    let mut text = format!("on {}", names.join(", "));
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

/// The first 12 digits of a commit id.
fn short(id: &str) -> String {
    id.chars().take(12).collect()
}

/// The commits of `brought` that no reference other than the branch that moves has (a
/// remote-tracking branch, a tag, another branch, the stash): the ones made here, unseen.
fn unpublished(
    repo: &Repository,
    update: &Update,
    brought: &[String],
) -> anyhow::Result<Vec<String>> {
    let own = format!("refs/heads/{}", update.branch);
    let others: Vec<String> = repo
        .reference_tips()?
        .into_iter()
        .filter(|(name, _)| *name != own)
        .map(|(_, tip)| tip)
        .collect();
    if others.is_empty() {
        return Ok(brought.to_vec());
    }
    let unreached: HashSet<String> = repo
        .commits_not_in(&update.new, &others)?
        .into_iter()
        .collect();
    Ok(brought
        .iter()
        .filter(|commit| unreached.contains(*commit))
        .cloned()
        .collect())
}

/// A person's hold on the commits they move a branch over is lifted by the move.
fn confirm_by_the_move(judgement: &mut Judgement) {
    if judgement.decision.verdict == Verdict::RequireApproval && !judgement.decision.approved {
        judgement.intent.approved = Some(true);
        judgement.decision.approved = true;
        judgement.approval = Some(
            "confirmed by the person who moved the branch over commits that exist already"
                .to_owned(),
        );
    }
}

/// The remotes whose remote-tracking branches vouch like local branches
/// (`[backstop] trusted_remotes`).
fn trusted_remotes(policy: &Policy) -> &[String] {
    &policy.backstop.trusted_remotes
}

/// Whether a rule of `policy` can deny a change of `actor` in `env` (whatever it holds).
fn can_deny(policy: &Policy, actor: &str, env: &str) -> bool {
    policy.rules.iter().any(|rule| {
        rule.decision == Verdict::Deny
            && rule
                .actor
                .as_ref()
                .is_none_or(|actors| actors.iter().any(|kind| kind == actor))
            && rule
                .env
                .as_ref()
                .is_none_or(|envs| envs.iter().any(|name| name == env))
    }) || policy.default == Verdict::Deny
}

/// The patch digests of `commits`, each against its first parent.
fn patch_digests(repo: &Repository, commits: &[String]) -> anyhow::Result<HashSet<String>> {
    let options = ChangeOptions::default();
    let mut digests = HashSet::new();
    for commit in commits {
        digests.insert(repo.patch_digest(&repo.commit_change(commit, &options)?)?);
    }
    Ok(digests)
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
                    new: Value::Commit(a),
                    branch: "alias".to_owned(),
                },
            ]
        );
    }

    #[test]
    fn only_local_branches_count() {
        let zero = "0".repeat(40);
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let input = format!(
            "{zero} {zero} AUTO_MERGE\n{a} {b} HEAD\n{a} {b} refs/heads/main\n{a} {zero} refs/heads/gone\n{a} {b} refs/tags/v1\n{zero} {b} refs/heads/feature/x\n"
        );
        let branches: Vec<String> = branch_lines(&input)
            .into_iter()
            .map(|line| line.branch)
            .collect();
        assert_eq!(branches, ["main", "gone", "feature/x"]);
    }

    fn policy(text: &str) -> Policy {
        match crate::policy::load("Astrixfile.ax", text) {
            Ok((policy, _)) => policy,
            Err(diagnostics) => panic!("{diagnostics:?}"),
        }
    }

    #[test]
    fn a_rule_can_deny_only_the_actors_and_environments_it_names() {
        let rules = policy(
            "version = 1\n[[rule]]\nid = \"agents-off\"\nactor = [\"autonomous_llm\"]\nenv = [\"production\"]\ndecision = \"deny\"\n[[rule]]\nid = \"hold\"\ndecision = \"require_approval\"\n",
        );
        assert!(can_deny(&rules, "autonomous_llm", "production"));
        assert!(!can_deny(&rules, "human", "production"));
        assert!(!can_deny(&rules, "autonomous_llm", "development"));
        let strict = policy("version = 1\ndefault = \"deny\"\n");
        assert!(can_deny(&strict, "human", "development"));
    }
}
