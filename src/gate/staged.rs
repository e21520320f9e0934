//! What `git commit` is about to record, judged: the staged change against HEAD (and every
//! `MERGE_HEAD`), on the branch it goes to, by the policy committed at HEAD.

use std::path::Path;

use crate::env::EnvSnapshot;
use crate::git::{ChangeOptions, Head, Repository, Snapshot};

use super::source;
use super::{
    ChangeToJudge, JudgeOptions, Judgement, judge_change, needs_line_counts, needs_tamper,
    staged_policy_problems,
};

/// The branch a change on `head` goes to: the branch being rebased during a rebase, else
/// HEAD's branch; `None` on a detached HEAD.
pub fn current_branch(repo: &Repository, head: &Head) -> anyhow::Result<Option<String>> {
    if let Some(branch) = repo.rebase_branch()? {
        return Ok(Some(branch));
    }
    Ok(match head {
        Head::Branch { name, .. } => Some(name.clone()),
        Head::Unborn { branch } => branch.clone(),
        Head::Detached { .. } => None,
    })
}

/// The policy [`judge_staged`] parses on a second thread, once parsed.
fn joined(
    parsing: std::thread::ScopedJoinHandle<'_, source::RepositoryPolicy>,
) -> source::RepositoryPolicy {
    parsing
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Whether reading with `read` gives everything reading with `wanted` gives.
fn covers(read: &ChangeOptions, wanted: &ChangeOptions) -> bool {
    (read.line_counts || !wanted.line_counts) && (read.tamper || !wanted.tamper)
}

/// What to read of the change: what the caller asks for, and what `policy` needs.
fn change_options(policy: &source::RepositoryPolicy, options: JudgeOptions) -> ChangeOptions {
    ChangeOptions {
        line_counts: options.line_counts || needs_line_counts(&policy.loaded.policy),
        tamper: options.tamper || needs_tamper(&policy.loaded.policy),
    }
}

/// Judges the staged change of the repository that git would use from `cwd` with `env`.
pub fn judge_staged(
    cwd: &Path,
    env: &EnvSnapshot,
    options: JudgeOptions,
) -> anyhow::Result<(Repository, Judgement)> {
    let repo = Repository::open(cwd, env)?;
    let head = repo.head()?;
    let located = source::locate(&repo, &head)?;
    // The policy is parsed and validated on a second thread while this one reads the change.
    // What to read of the change depends on the policy: its text tells whether it may read
    // content at all (the built-in policy does), and what the parsed policy does not need of
    // what was read is dropped; a committed policy that needs more than its text showed (a
    // bug of that guess) has the change read again.
    let guess = ChangeOptions {
        line_counts: options.line_counts || located.may_need_content(),
        tamper: options.tamper || located.may_need_content(),
    };
    let (policy, branch, change) = std::thread::scope(|scope| {
        let parsing = std::thread::Builder::new()
            .name("astrix-policy".to_owned())
            .spawn_scoped(scope, move || located.load());
        let Ok(parsing) = parsing else {
            // No second thread to be had: the policy is read again and parsed here.
            let policy = source::for_repository(&repo, &head)?;
            let branch = current_branch(&repo, &head)?;
            let change = repo.staged_change(&change_options(&policy, options))?;
            return anyhow::Ok((policy, branch, change));
        };
        let branch = current_branch(&repo, &head)?;
        let read = repo.staged_change(&guess);
        let policy = joined(parsing);
        let wanted = change_options(&policy, options);
        let change = match read {
            Ok(change) if covers(&guess, &wanted) => change.keeping(&wanted),
            Err(err) if guess == wanted => return Err(err.into()),
            // Reading more than the policy needs failed (a blob it never reads is missing,
            // say), or it needs more than was read: what it needs is read, and only the
            // errors of that count.
            _ => repo.staged_change(&wanted)?,
        };
        Ok((policy, branch, change))
    })?;
    let parent = match &head {
        Head::Branch { commit, .. } | Head::Detached { commit } => Some(commit.clone()),
        Head::Unborn { .. } => None,
    };
    let staged_policy = staged_policy_problems(&repo, &change)?;
    let judgement = judge_change(
        env,
        &repo,
        ChangeToJudge {
            policy,
            branch,
            change,
            parent,
            new_policy: staged_policy,
            snapshot: Snapshot::Index,
            uncollected: Vec::new(),
        },
        options,
    )?;
    Ok((repo, judgement))
}
