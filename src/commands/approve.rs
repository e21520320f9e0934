//! `astrix approve`: a human approves exactly the staged content, or what a branch would
//! gain by moving to a commit (`--branch`/`--tip`).
//!
//! An approval binds the digest of the change's verbatim patch, the policy's digest and the
//! target environment; it needs a terminal on stdin, asks for `y`/`yes`, and is refused when
//! an agent marker is present in the environment.

use std::io::BufRead as _;

use anyhow::{Context as _, bail};

use crate::approvals::{Approval, ApprovalKey, ApprovalStore};
use crate::audit::AuditLog;
use crate::cli::{ApproveArgs, Format};
use crate::context::Context;
use crate::env::{AGENT_MARKERS, EnvSnapshot};
use crate::exit::ExitStatus;
use crate::gate::{
    JudgeOptions, Judgement, astrix_dir, branch::judge_proposed_move, holds_for_any_actor,
    judge_amend, judge_staged,
};
use crate::intent::HUMAN;
use crate::policy::Verdict;
use crate::report::write_json;
use crate::time::{format_duration, now_unix, rfc3339};

/// Runs `astrix approve`.
pub fn run(args: &ApproveArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    if args.list {
        return list(args, ctx);
    }
    if let Some(id) = &args.revoke {
        return revoke(id, ctx);
    }
    refuse_agents(ctx)?;
    if !ctx.stdin_is_terminal {
        bail!(
            "`astrix approve` needs a person at a terminal: standard input is not a terminal; run it yourself in a shell"
        );
    }
    if let (Some(branch), Some(tip)) = (&args.branch, &args.tip) {
        return approve_move(args, branch, tip, ctx);
    }
    let (repo, judgement) = if args.amend {
        judge_amend(&ctx.cwd, &ctx.env)?
    } else {
        judge_staged(
            &ctx.cwd,
            &ctx.env,
            JudgeOptions {
                line_counts: true,
                approvals: false,
                tamper: true,
            },
        )?
    };
    refuse_judged_agent(&judgement)?;
    if judgement.change.files.is_empty() {
        bail!("nothing is staged; `git add` the change to approve first");
    }
    // Before anything is shown or asked: an answer that cannot be recorded is not asked for.
    let (name, email) = identity(&repo, &ctx.env)?;
    let holds = holds_for_any_actor(&judgement);
    if !show(&judgement, &holds, ctx)? {
        return Ok(ExitStatus::Allowed);
    }
    let out = &mut *ctx.stderr;
    let ttl = judgement.policy.loaded.policy.approval_ttl;
    write!(
        out,
        "\napprove exactly this content on top of {} (valid for {})? [y/N] ",
        judgement.parent().map_or_else(
            || "the first commit".to_owned(),
            |id| format!("`{}`", &id[..id.len().min(12)])
        ),
        format_duration(ttl)
    )?;
    out.flush()?;
    if !confirmed()? {
        writeln!(ctx.stdout, "not approved")?;
        return Ok(ExitStatus::Denied);
    }
    let now = now_unix();
    let expires = now.saturating_add(i64::try_from(ttl.as_secs()).unwrap_or(i64::MAX));
    let approval = approval_of(
        &repo,
        &judgement,
        &holds,
        (&name, &email),
        (now, expires),
        args.reason.clone(),
    )?;
    let id = approval.id.clone();
    ApprovalStore::new(&astrix_dir(&repo)).record(approval, now)?;
    writeln!(
        ctx.stdout,
        "approved `{id}` until {}; run the same `git commit` again{}",
        rfc3339(expires),
        if args.amend { " (with --amend)" } else { "" }
    )?;
    Ok(ExitStatus::Allowed)
}

/// The holds on one change, for each actor that a rule holds it for.
type Holds = Vec<(String, Verdict, Vec<String>)>;

/// `astrix approve --branch B --tip C`: what moving `B` to `C` would bring, each commit and
/// the whole, shown and approved at once.
fn approve_move(
    args: &ApproveArgs,
    branch: &str,
    tip: &str,
    ctx: &mut Context<'_>,
) -> anyhow::Result<ExitStatus> {
    let proposed = judge_move_for_a_person(ctx, branch, tip)?;
    let repo = &proposed.repo;
    let (name, email) = identity(repo, &ctx.env)?;
    if proposed.judged.is_empty() {
        writeln!(
            ctx.stdout,
            "moving `{branch}` to `{tip}` brings nothing to judge: every commit is on the branch, or vouched for (`astrix docs security` says how); there is nothing to approve"
        )?;
        return Ok(ExitStatus::Allowed);
    }
    let mut held = Vec::new();
    let mut skipped = 0usize;
    for (what, judgement) in &proposed.judged {
        let holds = holds_for_any_actor(judgement);
        // Denied for an agent and nothing for a person: no approval lifts it for the one, and
        // the other's move needs none (a person's move over commits that exist already).
        if !holds.is_empty()
            && holds
                .iter()
                .all(|(_, verdict, _)| *verdict == Verdict::Deny)
            && !holds
                .iter()
                .any(|(actor, ..)| *actor == judgement.actor.kind)
            && proposed.judged.len() > 1
        {
            skipped += 1;
            continue;
        }
        let title = format!("astrix approve: moving `{branch}` to `{tip}` — {what}");
        if show_change(judgement, &holds, &title, ctx)? {
            held.push((judgement, holds));
        }
    }
    if held.is_empty() && skipped > 0 {
        writeln!(
            ctx.stderr,
            "
what `{branch}` would gain is denied for an agent (approval cannot lift a denial) and held for no one else: a person's move needs no approval; there is nothing to approve"
        )?;
        return Ok(ExitStatus::Allowed);
    }
    if held.is_empty() {
        writeln!(
            ctx.stderr,
            "
no rule holds what `{branch}` would gain, for any actor; there is nothing to approve"
        )?;
        return Ok(ExitStatus::Allowed);
    }
    let ttl = held[0].0.policy.loaded.policy.approval_ttl;
    let now = now_unix();
    let expires = now.saturating_add(i64::try_from(ttl.as_secs()).unwrap_or(i64::MAX));
    // A change judged twice (a commit that is also the whole move) is approved once.
    let mut approvals: Vec<Approval> = Vec::new();
    for (judgement, holds) in &held {
        let approval = approval_of(
            repo,
            judgement,
            holds,
            (&name, &email),
            (now, expires),
            args.reason.clone(),
        )?;
        if !approvals.iter().any(|known| known.id == approval.id) {
            approvals.push(approval);
        }
    }
    let out = &mut *ctx.stderr;
    write!(
        out,
        "
approve {} for `{branch}` ({}) — the {} commit{} it would gain — (valid for {})? [y/N] ",
        if approvals.len() == 1 {
            "this change".to_owned()
        } else {
            format!("these {} changes", approvals.len())
        },
        held[0].0.target.env,
        proposed.brought,
        if proposed.brought == 1 { "" } else { "s" },
        format_duration(ttl)
    )?;
    out.flush()?;
    if !confirmed()? {
        writeln!(ctx.stdout, "not approved")?;
        return Ok(ExitStatus::Denied);
    }
    let store = ApprovalStore::new(&astrix_dir(repo));
    let mut ids = Vec::new();
    for approval in approvals {
        ids.push(approval.id.clone());
        store.record(approval, now)?;
    }
    writeln!(
        ctx.stdout,
        "approved {} until {}; run the same git command again",
        ids.iter()
            .map(|id| format!("`{id}`"))
            .collect::<Vec<_>>()
            .join(", "),
        rfc3339(expires)
    )?;
    Ok(ExitStatus::Allowed)
}

/// The approval of one judged change.
fn approval_of(
    repo: &crate::git::Repository,
    judgement: &Judgement,
    holds: &Holds,
    (name, email): (&str, &str),
    (now, expires): (i64, i64),
    reason: Option<String>,
) -> anyhow::Result<Approval> {
    Ok(Approval::new(
        ApprovalKey {
            patch: repo.patch_digest(&judgement.change)?,
            policy_digest: judgement.policy.loaded.provenance.digest.clone(),
            target: judgement.target.env.clone(),
        },
        judgement.parent().map(str::to_owned),
        name.to_owned(),
        email.to_owned(),
        now,
        expires,
        reason,
        judgement.change.modified_paths(),
        holds
            .iter()
            .flat_map(|(_, _, reasons)| reasons.iter().map(|reason| reason_id(reason)))
            .collect(),
    ))
}

/// Who approves: the identity git would record as the committer of a commit made now.
fn identity(repo: &crate::git::Repository, env: &EnvSnapshot) -> anyhow::Result<(String, String)> {
    match repo.committer_identity(env)? {
        Ok(identity) => Ok(identity),
        Err(said) => bail!(
            "git does not know who you are, and an approval records who gave it (git says: {said}); \
             set it as you would for a commit — `git config user.name \"Your Name\"` and \
             `git config user.email you@example.com` (add `--global` for every repository), or \
             `GIT_COMMITTER_NAME` and `GIT_COMMITTER_EMAIL` — then run `astrix approve` again"
        ),
    }
}

/// Reads the answer: `y` or `yes`, in any case.
fn confirmed() -> anyhow::Result<bool> {
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .context("cannot read the answer")?;
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// Shows the staged change and what holds it, on stderr; false when nothing holds it.
fn show(judgement: &Judgement, holds: &Holds, ctx: &mut Context<'_>) -> anyhow::Result<bool> {
    let shown = show_change(judgement, holds, "astrix approve: the staged change", ctx)?;
    if !shown {
        writeln!(
            ctx.stderr,
            "\nno rule holds this content for any actor; there is nothing to approve"
        )?;
    }
    Ok(shown)
}

/// Shows a change under `title` and what holds it, on stderr; false when nothing holds it.
/// Fails when a rule denies it for every actor: approval cannot lift a denial.
fn show_change(
    judgement: &Judgement,
    holds: &Holds,
    title: &str,
    ctx: &mut Context<'_>,
) -> anyhow::Result<bool> {
    let style = ctx.stderr_style;
    let out = &mut *ctx.stderr;
    writeln!(out, "{}", style.bold().paint(title))?;
    writeln!(
        out,
        "  target  {} — {}",
        judgement.target.env, judgement.target.decided_by
    )?;
    writeln!(
        out,
        "  policy  {}",
        judgement.policy.loaded.provenance.description
    )?;
    writeln!(out, "  files   {}", judgement.change.modified_paths().len())?;
    for file in &judgement.change.files {
        let lines = match file.lines {
            Some(crate::git::LineCount::Text { added, deleted, .. }) => {
                format!("+{added} -{deleted}")
            }
            Some(crate::git::LineCount::Binary { .. }) => "binary".to_owned(),
            None => String::new(),
        };
        let path = match &file.kind {
            crate::git::ChangeKind::Renamed { from, .. } => {
                format!("{} -> {}", shown_path(from), shown_path(&file.path))
            }
            _ => shown_path(&file.path),
        };
        writeln!(out, "    {} {path}  {lines}", file.kind.letter())?;
    }
    if holds.is_empty() {
        return Ok(false);
    }
    writeln!(out, "\n{}", style.bold().paint("what holds it"))?;
    let mut denied_for_all = true;
    for (actor, verdict, reasons) in holds {
        writeln!(out, "  for {actor} ({verdict}):")?;
        for reason in reasons {
            writeln!(out, "    {reason}")?;
        }
        denied_for_all &= *verdict == Verdict::Deny;
    }
    if denied_for_all {
        bail!(
            "this content is denied, and approval cannot lift a denial; change it (what is staged, or the commits the branch would gain)"
        );
    }
    Ok(true)
}

/// A path as the approver reads it: a name with control characters is quoted and escaped,
/// so that it cannot break, or forge, a line of what is being approved.
fn shown_path(path: &str) -> String {
    if path.chars().any(char::is_control) {
        format!("{path:?}")
    } else {
        path.to_owned()
    }
}

fn reason_id(reason: &str) -> String {
    reason
        .strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
        .map_or_else(|| reason.to_owned(), |(id, _)| id.to_owned())
}

/// Approving is a person's act: refused when any agent marker is in the environment.
fn refuse_agents(ctx: &Context<'_>) -> anyhow::Result<()> {
    if let Some((marker, agent)) = AGENT_MARKERS
        .iter()
        .find(|(name, _)| ctx.env.is_set_non_empty(name))
    {
        bail!(
            "`astrix approve` refuses to run for an agent: `{marker}` is set ({agent}); a human approves from their own shell"
        );
    }
    Ok(())
}

/// Refused when the repository's policy (the one the gate judges with) takes the actor for
/// anything but a person: its `[actors] agent_env` markers and `ASTRIX_ACTOR_TYPE` count,
/// not only the markers astrix knows.
fn refuse_policy_agent(repo: &crate::git::Repository, env: &EnvSnapshot) -> anyhow::Result<()> {
    let head = repo.head()?;
    let policy = crate::gate::source::for_repository(repo, &head)?;
    let actor = crate::env::resolve_actor(env, &policy.loaded.policy.actors.agent_env);
    if actor.kind != HUMAN {
        bail!(
            "`astrix approve` refuses to run for an actor that is not a person: the policy takes this actor for `{}` ({}); a human approves from their own shell",
            actor.kind,
            actor.decided_by
        );
    }
    Ok(())
}

/// [`judge_proposed_move`], refused when the policy takes the actor for an agent.
fn judge_move_for_a_person(
    ctx: &Context<'_>,
    branch: &str,
    tip: &str,
) -> anyhow::Result<crate::gate::branch::ProposedMove> {
    let proposed = judge_proposed_move(&ctx.cwd, &ctx.env, branch, tip)?;
    for (_, judgement) in &proposed.judged {
        refuse_judged_agent(judgement)?;
    }
    Ok(proposed)
}

/// Approving is a person's act: refused when the policy that judged takes the actor for an
/// agent, by its own `[actors] agent_env` markers or `ASTRIX_ACTOR_TYPE`, beyond the
/// built-in markers [`refuse_agents`] checks before anything is read.
fn refuse_judged_agent(judgement: &crate::gate::Judgement) -> anyhow::Result<()> {
    if judgement.actor.kind != HUMAN {
        bail!(
            "`astrix approve` refuses to run for an actor that is not a person: the policy takes this actor for `{}` ({}); a human approves from their own shell",
            judgement.actor.kind,
            judgement.actor.decided_by
        );
    }
    Ok(())
}

fn list(args: &ApproveArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let repo = crate::git::Repository::open(&ctx.cwd, &ctx.env)?;
    let store = ApprovalStore::new(&astrix_dir(&repo));
    let approvals = store.load()?;
    let used = last_uses(&repo, &approvals)?;
    let now = now_unix();
    if args.format.format == Format::Json {
        let mut values = Vec::new();
        for (approval, used_at) in approvals.iter().zip(&used) {
            let mut value = serde_json::to_value(approval)?;
            if let serde_json::Value::Object(map) = &mut value {
                map.insert("used_at".to_owned(), serde_json::json!(used_at));
            }
            values.push(value);
        }
        write_json(ctx.stdout, &values)?;
        return Ok(ExitStatus::Allowed);
    }
    if approvals.is_empty() {
        writeln!(ctx.stdout, "no approvals recorded")?;
    }
    for (approval, used_at) in approvals.iter().zip(&used) {
        // An approval is not spent by its use: until it expires it lets the same content
        // through again (a commit that failed after the hook, the same patch on a new
        // parent), so a used one says both.
        let state = match (used_at, approval.expires > now) {
            (None, true) => "valid until".to_owned(),
            (None, false) => "expired at".to_owned(),
            (Some(at), true) => format!("used at {at}, valid for the same content until"),
            (Some(at), false) => format!("used at {at}, expired at"),
        };
        writeln!(
            ctx.stdout,
            "{}  {} <{}>  {} {}  target {}  {} file{}{}",
            approval.id,
            approval.approver_name,
            approval.approver_email,
            state,
            rfc3339(approval.expires),
            approval.key.target,
            approval.files.len(),
            if approval.files.len() == 1 { "" } else { "s" },
            approval
                .reason
                .as_deref()
                .map(|reason| format!("  — {reason}"))
                .unwrap_or_default()
        )?;
    }
    Ok(ExitStatus::Allowed)
}

/// When each approval last let a change through, from the audit log.
fn last_uses(
    repo: &crate::git::Repository,
    approvals: &[Approval],
) -> anyhow::Result<Vec<Option<String>>> {
    let entries = AuditLog::new(&astrix_dir(repo)).read(None)?;
    Ok(approvals
        .iter()
        .map(|approval| {
            let named = format!("`{}`", approval.id);
            entries
                .iter()
                .filter_map(|entry| entry.as_ref().ok())
                .filter(|entry| {
                    entry.allowed
                        && entry
                            .approval
                            .as_deref()
                            .is_some_and(|text| text.starts_with(&named))
                })
                .map(|entry| entry.time.clone())
                .next_back()
        })
        .collect())
}

fn revoke(id: &str, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    refuse_agents(ctx)?;
    let repo = crate::git::Repository::open(&ctx.cwd, &ctx.env)?;
    refuse_policy_agent(&repo, &ctx.env)?;
    let store = ApprovalStore::new(&astrix_dir(&repo));
    if store.revoke(id)? {
        writeln!(ctx.stdout, "revoked `{id}`")?;
        Ok(ExitStatus::Allowed)
    } else {
        bail!("no approval `{id}`; `astrix approve --list` shows the recorded ones")
    }
}
