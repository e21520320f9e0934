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

/// Judges the staged change of the repository that git would use from `cwd` with `env`.
pub fn judge_staged(
    cwd: &Path,
    env: &EnvSnapshot,
    options: JudgeOptions,
) -> anyhow::Result<(Repository, Judgement)> {
    let repo = Repository::open(cwd, env)?;
    let head = repo.head()?;
    let policy = source::for_repository(&repo, &head)?;
    let branch = current_branch(&repo, &head)?;
    let change = repo.staged_change(&ChangeOptions {
        line_counts: options.line_counts || needs_line_counts(&policy.loaded.policy),
        tamper: options.tamper || needs_tamper(&policy.loaded.policy),
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
        },
        options,
    )?;
    Ok((repo, judgement))
}
