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

/// Below this many changed paths, the staged change is read whole while the policy is
/// parsed (see [`judge_staged`]): at most what the built-in policy reads for it.
const READ_WHOLE_BELOW_PATHS: usize = 256;

/// The policy [`judge_staged`] parses on a second thread, once parsed.
fn joined(
    parsing: std::thread::ScopedJoinHandle<'_, source::RepositoryPolicy>,
) -> source::RepositoryPolicy {
    parsing
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
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
    // The policy is parsed and validated on a second thread while this one reads the change:
    // on an ordinary commit, a quarter of the work. What to read of the change depends on the
    // policy; a change of few paths is read whole meanwhile (what the built-in policy reads),
    // and what the policy turns out not to need is dropped.
    let (policy, branch, change) = std::thread::scope(|scope| {
        let loading = std::thread::Builder::new()
            .name("astrix-policy".to_owned())
            .spawn_scoped(scope, move || located.load());
        let Ok(loading) = loading else {
            // No second thread to be had: the policy is read again and parsed here.
            let policy = source::for_repository(&repo, &head)?;
            let branch = current_branch(&repo, &head)?;
            let change = repo.staged_change(&change_options(&policy, options))?;
            return anyhow::Ok((policy, branch, change));
        };
        let branch = current_branch(&repo, &head)?;
        let whole = ChangeOptions {
            line_counts: true,
            tamper: true,
        };
        let (mut parsing, mut parsed) = (Some(loading), None);
        let read = repo.staged_change_then(|paths| {
            match parsing
                .take_if(|parsing| paths >= READ_WHOLE_BELOW_PATHS || parsing.is_finished())
            {
                Some(parsing) => {
                    let policy = joined(parsing);
                    let wanted = change_options(&policy, options);
                    parsed = Some(policy);
                    (wanted, ())
                }
                None => (whole.clone(), ()),
            }
        });
        // Still parsing when the change was read: it was read whole.
        let read_whole = parsing.is_some();
        let policy = match parsed.or_else(|| parsing.map(joined)) {
            Some(policy) => policy,
            None => source::for_repository(&repo, &head)?,
        };
        let wanted = change_options(&policy, options);
        let change = match read {
            Ok((change, ())) if read_whole => change.keeping(&wanted),
            Ok((change, ())) => change,
            // Reading what the policy does not need failed (a blob missing, say): what it
            // needs is read again, and only its errors count.
            Err(_) if read_whole && wanted != whole => repo.staged_change(&wanted)?,
            Err(err) => return Err(err.into()),
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
        },
        options,
    )?;
    Ok((repo, judgement))
}
