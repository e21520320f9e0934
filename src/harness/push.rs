//! `git push` at the tool call, judged as `astrix ci` would judge the branch it updates.
//!
//! The push of one branch is resolved as git resolves it (the remote, the source, the
//! destination, from the command and the repository's configuration: `branch.<name>.remote`,
//! `branch.<name>.pushRemote`, `remote.pushDefault`, `push.default`), and judged as the range
//! `<remote-tracking destination>..<source>` ([`judge_range`], the pipeline's own code): each
//! commit as a commit on the destination (after the push it is one of that branch's own
//! commits, whoever opens a pull request later), the whole as a merge into it, with the agent
//! as the actor. A destination the remote does not have yet is measured from the default
//! branch. The forms this does not resolve (`--all`, `--mirror`, `--tags`, deleting, several
//! refspecs, a URL) are asked about: CI judges them, and remains the guarantee.

use std::path::Path;

use crate::commit_actor::short;
use crate::env::EnvSnapshot;
use crate::exit::ExitStatus;
use crate::gate::Judgement;
use crate::gate::range::{RangeRequest, judge_range};
use crate::git::{Head, Repository};
use crate::intent::ResolvedActor;
use crate::policy::Verdict;

use super::shell::Push;
use super::{Outcome, PUSH_UNJUDGED};

/// What approving a held push lets through.
pub(super) const ASK_NOTE: &str = "Approving lets this one push run; `astrix ci` judges the branch again in the pipeline, and that is the guarantee";

/// A push astrix does not judge here: asked, with why.
fn unjudged(why: &str) -> Outcome {
    Outcome {
        verdict: Verdict::RequireApproval,
        reason: format!(
            "astrix: {why}, so astrix cannot judge this push at the tool call; `astrix ci` judges the branch in the pipeline"
        ),
        rules: vec![PUSH_UNJUDGED.to_owned()],
        ask_note: Some(ASK_NOTE),
        ..Outcome::allow()
    }
}

/// A push of one branch, resolved as git resolves it.
struct Resolved {
    remote: String,
    /// The source as named.
    source: String,
    /// The source as `judge_range` reads it (a local branch by its full name).
    head: String,
    /// The destination branch (short name).
    destination: String,
    /// Where the change starts.
    base: String,
}

/// Resolves `push` in `repo`: `Ok(Err(why))` when astrix does not judge it here.
fn resolve(repo: &Repository, push: &Push) -> anyhow::Result<Result<Resolved, String>> {
    let (remote, source, destination) = match push {
        Push::Unjudged(what) => return Ok(Err(format!("{what} is not a form it resolves"))),
        Push::Simple {
            remote,
            source,
            destination,
            ..
        } => (remote, source, destination),
    };
    let current = match repo.head()? {
        Head::Branch { name, .. } => Some(name),
        _ => None,
    };
    let branch_config = |key: &str| {
        current
            .as_ref()
            .and_then(|branch| repo.config_string(&format!("branch.{branch}.{key}")))
    };
    let remote = match remote {
        Some(remote) => remote.clone(),
        None => branch_config("pushRemote")
            .or_else(|| repo.config_string("remote.pushDefault"))
            .or_else(|| branch_config("remote"))
            .unwrap_or_else(|| "origin".to_owned()),
    };
    if remote.contains(['/', ':', '\\'])
        || repo
            .config_string(&format!("remote.{remote}.url"))
            .is_none()
    {
        return Ok(Err(format!(
            "`{remote}` is not a configured remote of this repository"
        )));
    }
    // The source, and the destination git would give it.
    let (source, destination) = match (source, destination) {
        (Some(source), Some(destination)) => (source.clone(), destination.clone()),
        (Some(source), None) => {
            let name = if source == "HEAD" || source == "@" {
                match &current {
                    Some(branch) => branch.clone(),
                    None => return Ok(Err("HEAD names no branch".to_owned())),
                }
            } else {
                source
                    .strip_prefix("refs/heads/")
                    .unwrap_or(source)
                    .to_owned()
            };
            (source.clone(), name)
        }
        // `remote.<name>.push` refspecs choose what a push without one sends.
        (None, _)
            if repo
                .config_string(&format!("remote.{remote}.push"))
                .is_some() =>
        {
            return Ok(Err(format!(
                "`remote.{remote}.push` chooses what `git push` sends"
            )));
        }
        (None, _) => match default_push(repo, current.as_deref()) {
            Ok(pair) => pair,
            Err(why) => return Ok(Err(why)),
        },
    };
    // git reads `heads/main` as `refs/heads/main` too.
    let destination = destination
        .strip_prefix("refs/heads/")
        .or_else(|| destination.strip_prefix("heads/"))
        .unwrap_or(&destination)
        .to_owned();
    if destination.starts_with("refs/") || destination == "HEAD" || destination.contains('*') {
        return Ok(Err(format!(
            "the destination `{destination}` is not a branch"
        )));
    }
    // A local branch named as the source is that branch, never a tag or a remote's.
    let head = if !source.starts_with("refs/")
        && source != "HEAD"
        && repo.peel_ref(&format!("refs/heads/{source}"))?.is_some()
    {
        format!("refs/heads/{source}")
    } else {
        source.clone()
    };
    let base = match base(repo, &remote, &destination)? {
        Ok(base) => base,
        Err(why) => return Ok(Err(why)),
    };
    Ok(Ok(Resolved {
        remote,
        source,
        head,
        destination,
        base,
    }))
}

/// What a bare `git push` pushes from `current`: the source and its destination, by
/// `push.default`.
fn default_push(repo: &Repository, current: Option<&str>) -> Result<(String, String), String> {
    let Some(branch) = current else {
        return Err(
            "HEAD names no branch, so `git push` pushes nothing git would name here".to_owned(),
        );
    };
    let mode = repo
        .config_string("push.default")
        .unwrap_or_else(|| "simple".to_owned())
        .to_ascii_lowercase();
    let destination = match mode.as_str() {
        "simple" | "current" => branch.to_owned(),
        "upstream" | "tracking" => match repo.config_string(&format!("branch.{branch}.merge")) {
            Some(merge) => merge,
            None => {
                return Err(format!(
                    "`{branch}` has no upstream for `push.default = {mode}`"
                ));
            }
        },
        _ => {
            return Err(format!("`push.default = {mode}` may push several branches"));
        }
    };
    Ok((format!("refs/heads/{branch}"), destination))
}

/// Where the change starts: what the remote has of the destination, else the default
/// branch (the remote's copy of it, else the local one).
fn base(
    repo: &Repository,
    remote: &str,
    destination: &str,
) -> anyhow::Result<Result<String, String>> {
    let tracking = format!("refs/remotes/{remote}/{destination}");
    if repo.peel_ref(&tracking)?.is_some() {
        return Ok(Ok(tracking));
    }
    let Some(default) = repo.default_branch_ref()? else {
        return Ok(Err(format!(
            "the remote has no `{destination}` yet and there is no default branch to measure it from"
        )));
    };
    let name = default.name.trim_start_matches("refs/heads/");
    let remote_default = format!("refs/remotes/{remote}/{name}");
    if repo.peel_ref(&remote_default)?.is_some() {
        Ok(Ok(remote_default))
    } else {
        Ok(Ok(default.name.clone()))
    }
}

/// Judges `push`, run in `dir`, by `actor`.
pub(super) fn judge(
    dir: &Path,
    env: &EnvSnapshot,
    actor: ResolvedActor,
    push: &Push,
) -> anyhow::Result<Outcome> {
    let force = matches!(push, Push::Simple { force: true, .. });
    let repo = Repository::open(dir, env)?;
    let Resolved {
        remote,
        source,
        head,
        destination,
        base,
    } = match resolve(&repo, push)? {
        Ok(resolved) => resolved,
        Err(why) => return Ok(unjudged(&why)),
    };
    let run = judge_range(
        &repo,
        env,
        &RangeRequest {
            base: &base,
            head: &head,
            target_branch: Some(&destination),
            head_branch: Some(&destination),
            approved: false,
            actor: Some(actor),
        },
    )?;
    let whole = format!("the push as a whole, a merge into `{destination}`");
    let mut worst: Option<(String, &Judgement)> = None;
    let judged = run
        .commits
        .iter()
        .map(|commit| {
            (
                format!(
                    "commit `{}` ({})",
                    short(&commit.meta.id),
                    commit.meta.summary
                ),
                &commit.judgement,
            )
        })
        .chain(
            run.whole
                .as_ref()
                .map(|judgement| (whole.clone(), judgement)),
        );
    for (what, judgement) in judged {
        let status = judgement.status();
        let known = worst
            .as_ref()
            .map_or(ExitStatus::Allowed, |(_, known)| known.status());
        if status != ExitStatus::Allowed && status.worst(known) != known {
            worst = Some((what, judgement));
        }
    }
    let Some((what, judgement)) = worst else {
        let rewrites = force && !run.range.merge_bases.contains(&run.range.base_id);
        if rewrites {
            return Ok(unjudged(&format!(
                "the forced push rewrites `{remote}/{destination}`, and what it removes from that branch is not judged here"
            )));
        }
        return Ok(Outcome::allow());
    };
    let decision = &judgement.decision;
    let denied = decision.verdict != Verdict::RequireApproval;
    let word = if denied {
        "denies"
    } else {
        "holds for a human's review"
    };
    let mut reason = format!(
        "astrix: `astrix ci` {word} this push of `{}..{}` to `{remote}/{destination}`: {what}: {}",
        run.range.base, source, decision.reason
    );
    if force {
        reason.push_str("\n(a forced push: what it removes from the branch is not judged here)");
    }
    Ok(Outcome {
        verdict: if denied {
            Verdict::Deny
        } else {
            Verdict::RequireApproval
        },
        reason,
        rules: decision.deciding_rules.clone(),
        files: judgement.intent.modified_files.len(),
        target: Some((judgement.target.env.clone(), Some(destination.clone()))),
        policy_digest: Some(run.policy.loaded.provenance.digest.clone()),
        ask_note: Some(ASK_NOTE),
    })
}
