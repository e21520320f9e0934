//! `astrix check`: judge exactly what git is about to commit (SPEC §6), and the shared
//! judgement that `intent`, `approve` and the pre-commit hook build on.

use std::io::Write;

use anyhow::Context as _;
use serde::Serialize;

use crate::app::{Context, ignore_broken_pipe};
use crate::approvals::{ApprovalKey, ApprovalStore, Lookup};
use crate::cli::{CheckArgs, Format};
use crate::diagnostic::Diagnostics;
use crate::env::{ResolvedActor, resolve_actor};
use crate::eval::{Decision, RuleOutcome, evaluate_with};
use crate::exit::ExitStatus;
use crate::gate::{
    self, COMMITTED_POLICY_INVALID, ChangeFacts, ResolvedTarget, STAGED_POLICY_INVALID,
};
use crate::git::{Change, ChangeKind, ChangeOptions, Entry, EntryMode, Head, Repository, Snapshot};
use crate::intent::ActionIntent;
use crate::policy::{self, FILE_NAME, Policy, Verdict};
use crate::report::{ContextLine, Explanation, Section, TextReport, decision_json, write_json};
use crate::source::{self, RepositoryPolicy};
use crate::tamper::{self, TamperReport};

/// What the judgement needs to compute.
#[derive(Debug, Clone, Copy, Default)]
pub struct JudgeOptions {
    /// Compute line counts even when no policy needs them (for output).
    pub line_counts: bool,
    /// Look up recorded approvals for a held change.
    pub approvals: bool,
    /// Analyse test tampering even when no rule needs it (for output).
    pub tamper: bool,
}

/// A change (staged, or a commit), judged.
pub struct Judgement {
    /// The commit the change goes on top of (`None` for a repository's first commit).
    pub parent: Option<String>,
    /// The policy that judged, and a committed policy's problems.
    pub policy: RepositoryPolicy,
    /// Who is acting.
    pub actor: ResolvedActor,
    /// Where the change goes.
    pub target: ResolvedTarget,
    /// The staged change.
    pub change: Change,
    /// Its intent (with `approved` set when an approval applies).
    pub intent: ActionIntent,
    /// The decision.
    pub decision: Decision,
    /// The problems of a staged Astrixfile.ax that does not validate.
    pub staged_policy: Option<Diagnostics>,
    /// The test-tampering analysis, when a rule or the output needed it.
    pub tamper: Option<TamperReport>,
    /// The approval that let a held change through.
    pub approval: Option<String>,
    /// Why a recorded approval does not apply, when one exists.
    pub stale_approval: Option<String>,
}

impl Judgement {
    /// The commit the change goes on top of.
    pub fn parent(&self) -> Option<&str> {
        self.parent.as_deref()
    }

    /// The exit status of the decision.
    pub fn status(&self) -> ExitStatus {
        ExitStatus::from_decision(self.decision.verdict, self.decision.approved)
    }
}

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

/// The facts of a change, as the intent needs them. The size counts leave out the files that
/// `[facts] exclude` names, each side of a pair (a rename is left out only when both its
/// paths are excluded, so a rename cannot hide its own edit).
pub fn change_facts(change: &Change, policy: &Policy, tamper: Option<TamperReport>) -> ChangeFacts {
    let totals = change.totals_without(|file| {
        policy.excludes_from_counts(&file.path) && policy.excludes_from_counts(file.old_path())
    });
    ChangeFacts {
        files: change.modified_paths(),
        lines_added: totals.map(|totals| totals.lines_added),
        lines_deleted: totals.map(|totals| totals.lines_deleted),
        binary_files: totals.map(|totals| totals.binary_files),
        bytes_added: totals.map(|totals| totals.bytes_added),
        tamper,
        impacted_components: None,
    }
}

/// The test-tampering analysis of a change: every changed regular file of a known language,
/// old content against new (a rename's old content under its new path); a rename to a path
/// of no known language (`test_a.py` to `test_a.py.disabled`) as the deletion of its old
/// path.
pub fn analyze_tampering(repo: &Repository, change: &Change) -> anyhow::Result<TamperReport> {
    let content = |entry: Option<&Entry>| -> anyhow::Result<Option<Vec<u8>>> {
        match entry {
            Some(entry) if matches!(entry.mode, EntryMode::File | EntryMode::Executable) => {
                Ok(Some(repo.blob(&entry.id)?))
            }
            _ => Ok(None),
        }
    };
    let mut files = Vec::new();
    for file in &change.files {
        if tamper::language_of(&file.path).is_none()
            && tamper::language_of(file.old_path()).is_none()
        {
            continue;
        }
        let old = content(file.old.as_ref())?;
        let new = content(file.new.as_ref())?;
        let analysis = if tamper::language_of(&file.path).is_some() {
            tamper::analyze_file(&file.path, old.as_deref(), new.as_deref())
        } else {
            tamper::analyze_file(file.old_path(), old.as_deref(), None)
        };
        if let Some(analysis) = analysis {
            files.push(analysis);
        }
    }
    Ok(tamper::combine(files))
}

/// Judges the staged change of the repository at `ctx.cwd`.
pub fn judge_staged(
    ctx: &Context<'_>,
    options: JudgeOptions,
) -> anyhow::Result<(Repository, Judgement)> {
    let repo = Repository::open(&ctx.cwd, &ctx.env)?;
    let head = repo.head()?;
    let policy = source::for_repository(&repo, &head)?;
    let branch = current_branch(&repo, &head)?;
    let change = repo.staged_change(&ChangeOptions {
        line_counts: options.line_counts || gate::needs_line_counts(&policy.loaded.policy),
    })?;
    let parent = match &head {
        Head::Branch { commit, .. } | Head::Detached { commit } => Some(commit.clone()),
        Head::Unborn { .. } => None,
    };
    let staged_policy = staged_policy_problems(&repo, &change)?;
    let judgement = judge_change(
        ctx,
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
        |repo| Ok(repo.staged_tree_id()?),
    )?;
    Ok((repo, judgement))
}

/// A change and what surrounds it, ready to be judged.
pub struct ChangeToJudge {
    /// The policy that judges it.
    pub policy: RepositoryPolicy,
    /// The branch it goes to.
    pub branch: Option<String>,
    /// The change.
    pub change: Change,
    /// The commit it goes on top of.
    pub parent: Option<String>,
    /// The problems of the Astrixfile.ax that the change itself brings, when it does not
    /// validate.
    pub new_policy: Option<Diagnostics>,
    /// Where the content the change records is read (its manifests, for the component
    /// graph of `impacted_components`).
    pub snapshot: Snapshot,
}

/// Judges a change: actor and target from the environment and the policy, the gate's own
/// holds, the policy's rules, and a recorded approval for a held change (`tree` computes
/// the id of the tree the change records, only when an approval is looked up).
pub fn judge_change(
    ctx: &Context<'_>,
    repo: &Repository,
    subject: ChangeToJudge,
    options: JudgeOptions,
    tree: impl FnOnce(&Repository) -> anyhow::Result<String>,
) -> anyhow::Result<Judgement> {
    let actor = resolve_actor(&ctx.env, &subject.policy.loaded.policy.actors.agent_env);
    judge_change_as(ctx, repo, subject, actor, options, tree)
}

/// [`judge_change`] with an actor found elsewhere than in the environment: `astrix ci`
/// finds it in each commit, since the CI runner's environment is not who made the commits.
pub fn judge_change_as(
    ctx: &Context<'_>,
    repo: &Repository,
    subject: ChangeToJudge,
    actor: ResolvedActor,
    options: JudgeOptions,
    tree: impl FnOnce(&Repository) -> anyhow::Result<String>,
) -> anyhow::Result<Judgement> {
    judge_change_for(ctx, repo, subject, actor, None, Vec::new(), options, tree)
}

/// [`judge_change_as`] for an intent with an `action` (`astrix ci` judges a pull request as
/// a whole as a `merge`), with `holds` of the caller's own beside the policy's rules.
#[expect(
    clippy::too_many_arguments,
    reason = "the one judgement every caller shares, with what `astrix ci` adds"
)]
pub fn judge_change_for(
    ctx: &Context<'_>,
    repo: &Repository,
    subject: ChangeToJudge,
    actor: ResolvedActor,
    action: Option<crate::intent::Action>,
    holds: Vec<RuleOutcome>,
    options: JudgeOptions,
    tree: impl FnOnce(&Repository) -> anyhow::Result<String>,
) -> anyhow::Result<Judgement> {
    let ChangeToJudge {
        policy,
        branch,
        change,
        parent,
        new_policy,
        snapshot,
    } = subject;
    let rules = &policy.loaded.policy;
    let target = gate::resolve_target(rules, branch.as_deref(), &ctx.env);
    let tamper = if options.tamper || gate::needs_tamper(rules) {
        Some(analyze_tampering(repo, &change)?)
    } else {
        None
    };
    let mut facts = change_facts(&change, rules, tamper);
    if gate::needs_impact(rules) {
        let count = crate::impact::impacted_components(repo, &snapshot, rules, &facts.files)
            .context("cannot read the component graph of the change")?;
        facts.impacted_components = Some(count);
    }
    let mut intent = gate::build_intent(&facts, &actor, &target)?;
    intent.action = action;

    let mut extra = holds;
    extra.extend(gate::policy_change_hold(&facts));
    if let Some(diagnostics) = &new_policy {
        extra.push(RuleOutcome::gate(
            STAGED_POLICY_INVALID,
            Verdict::Deny,
            format!(
                "the {FILE_NAME} in this change does not validate ({} error{}); a policy that cannot be read never lands",
                diagnostics.error_count(),
                if diagnostics.error_count() == 1 { "" } else { "s" }
            ),
            vec![FILE_NAME.to_owned()],
        ));
    }
    if policy.committed_invalid.is_some() {
        extra.push(RuleOutcome::gate(
            COMMITTED_POLICY_INVALID,
            Verdict::RequireApproval,
            format!(
                "the committed {FILE_NAME} does not validate, so the built-in default judged this change; a human approves until it is repaired"
            ),
            Vec::new(),
        ));
    }
    let mut decision = evaluate_with(rules, &intent, extra);

    let mut approval = None;
    let mut stale_approval = None;
    if options.approvals && decision.verdict == Verdict::RequireApproval {
        let key = ApprovalKey {
            parent: parent.clone(),
            tree: tree(repo)?,
            policy_digest: policy.loaded.provenance.digest.clone(),
            target: target.env.clone(),
        };
        let store = ApprovalStore::new(&astrix_dir(repo));
        match store.lookup(&key, crate::time::now_unix())? {
            Lookup::Approved(found) => {
                intent.approved = Some(true);
                decision.approved = true;
                approval = Some(format!(
                    "`{}` by {} <{}> at {}{}",
                    found.id,
                    found.approver_name,
                    found.approver_email,
                    crate::time::rfc3339(found.created),
                    found
                        .reason
                        .as_deref()
                        .map(|reason| format!(" ({reason})"))
                        .unwrap_or_default()
                ));
            }
            Lookup::Stale(why) => stale_approval = Some(why),
            Lookup::None => {}
        }
    }

    Ok(Judgement {
        parent,
        policy,
        actor,
        target,
        change,
        intent,
        decision,
        staged_policy: new_policy,
        tamper: facts.tamper,
        approval,
        stale_approval,
    })
}

/// `<common git dir>/astrix`: where approvals, the audit log and caches live.
pub fn astrix_dir(repo: &Repository) -> std::path::PathBuf {
    repo.common_dir().join("astrix")
}

/// The diagnostics of a staged Astrixfile.ax that the change adds or edits and that does not
/// validate.
fn staged_policy_problems(
    repo: &Repository,
    change: &Change,
) -> anyhow::Result<Option<Diagnostics>> {
    if !touches_policy(change) {
        return Ok(None);
    }
    let Some(blob) = repo.file_in_index(FILE_NAME)? else {
        return Ok(None);
    };
    Ok(policy_problems(blob.data))
}

/// The diagnostics of the Astrixfile.ax at commit `rev`, when `change` (the commit's, or a
/// range's ending there) adds or edits it and it does not validate.
pub fn committed_policy_problems(
    repo: &Repository,
    rev: &str,
    change: &Change,
) -> anyhow::Result<Option<Diagnostics>> {
    if !touches_policy(change) {
        return Ok(None);
    }
    Ok(repo
        .file_at_rev(rev, FILE_NAME)?
        .and_then(|blob| policy_problems(blob.data)))
}

/// Whether `change` adds or edits Astrixfile.ax.
pub fn touches_policy(change: &Change) -> bool {
    change
        .files
        .iter()
        .any(|file| file.path == FILE_NAME && file.kind != ChangeKind::Deleted)
}

/// The diagnostics of a policy file's content, when it does not validate.
pub fn policy_problems(data: Vec<u8>) -> Option<Diagnostics> {
    match policy::decode(FILE_NAME, data) {
        Ok(text) => policy::load(FILE_NAME, &text).err(),
        Err(diagnostics) => Some(diagnostics),
    }
}

/// The context lines of a commit report: actor, target, policy, approval.
pub fn context_lines(judgement: &Judgement) -> Vec<ContextLine> {
    let actor = &judgement.actor;
    let mut lines = vec![
        ContextLine {
            label: "actor",
            text: format!(
                "{}{} — {}",
                actor.kind,
                actor
                    .id
                    .as_deref()
                    .map(|id| format!(" ({id})"))
                    .unwrap_or_default(),
                actor.decided_by
            ),
        },
        ContextLine {
            label: "target",
            text: format!("{} — {}", judgement.target.env, judgement.target.decided_by),
        },
        ContextLine {
            label: "policy",
            text: judgement.policy.loaded.provenance.description.clone(),
        },
        ContextLine {
            label: "change",
            text: describe_change(&judgement.change, &judgement.policy.loaded.policy),
        },
    ];
    if let Some(approval) = &judgement.approval {
        lines.push(ContextLine {
            label: "approval",
            text: approval.clone(),
        });
    }
    lines
}

fn describe_change(change: &Change, policy: &Policy) -> String {
    let files = change.modified_paths().len();
    let mut text = format!("{files} file{}", if files == 1 { "" } else { "s" });
    let excluded = |file: &crate::git::FileChange| {
        policy.excludes_from_counts(&file.path) && policy.excludes_from_counts(file.old_path())
    };
    if let Some(totals) = change.totals_without(excluded) {
        text.push_str(&format!(
            ", +{} -{} lines",
            totals.lines_added, totals.lines_deleted
        ));
        if totals.binary_files > 0 {
            text.push_str(&format!(", {} binary", totals.binary_files));
        }
        let left_out = change.files.iter().filter(|file| excluded(file)).count();
        if left_out > 0 {
            text.push_str(&format!(
                " ({left_out} file{} left out of the counts by [facts] exclude)",
                if left_out == 1 { "" } else { "s" }
            ));
        }
    }
    if change.is_merge() {
        text.push_str(" (concluding a merge: only what differs from every parent)");
    }
    text
}

/// How many test-tampering findings a report lists.
const FINDINGS_SHOWN: usize = 20;

/// The test-tampering findings, `file:line  what: the line`, when there are any.
pub fn tamper_section(judgement: &Judgement) -> Option<Section> {
    let report = judgement.tamper.as_ref()?;
    let findings: Vec<&tamper::Finding> = report.findings().collect();
    if findings.is_empty() {
        return None;
    }
    let mut lines: Vec<String> = findings
        .iter()
        .take(FINDINGS_SHOWN)
        .map(|finding| {
            let what = match finding.kind {
                tamper::FindingKind::TestRemoved => "test removed",
                tamper::FindingKind::TestAdded => "test added",
                tamper::FindingKind::SkipAdded => "skip added",
                tamper::FindingKind::SkipRemoved => "skip removed",
                tamper::FindingKind::AssertionRemoved => "assertion removed",
                tamper::FindingKind::AssertionAdded => "assertion added",
            };
            let side = match finding.side {
                tamper::Side::Old => " (old)",
                tamper::Side::New => "",
            };
            format!(
                "{}:{}{side}  {what}: {}",
                finding.path, finding.line, finding.text
            )
        })
        .collect();
    if findings.len() > FINDINGS_SHOWN {
        lines.push(format!("and {} more", findings.len() - FINDINGS_SHOWN));
    }
    Some(Section {
        title: format!(
            "test tampering: {} test{} removed, {} skip{} added, {} assertion{} removed",
            report.tests_removed,
            if report.tests_removed == 1 { "" } else { "s" },
            report.test_skips_added,
            if report.test_skips_added == 1 {
                ""
            } else {
                "s"
            },
            report.assertions_removed,
            if report.assertions_removed == 1 {
                ""
            } else {
                "s"
            },
        ),
        lines,
    })
}

/// Notes for the report: a stale approval.
pub fn notes(judgement: &Judgement) -> Vec<String> {
    judgement
        .stale_approval
        .iter()
        .map(|why| {
            format!("{why}; a human runs `astrix approve` again to approve what is staged now")
        })
        .collect()
}

/// The `--explain` / JSON extras of a commit judgement.
#[derive(Serialize)]
struct CommitExplanation<'a> {
    actor: &'a ResolvedActor,
    target: &'a ResolvedTarget,
    #[serde(skip_serializing_if = "Option::is_none")]
    approval: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stale_approval: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    test_tampering: Option<&'a TamperReport>,
}

/// Writes the judgement's diagnostics (invalid staged or committed policy) to stderr.
pub fn write_policy_diagnostics(
    judgement: &Judgement,
    ctx: &mut Context<'_>,
) -> std::io::Result<()> {
    let colour = ctx.stderr_style.enabled();
    if let Some(diagnostics) = &judgement.staged_policy {
        writeln!(
            ctx.stderr,
            "astrix: the staged {FILE_NAME} does not validate:"
        )?;
        diagnostics.render(ctx.stderr, colour)?;
    }
    if let Some(diagnostics) = &judgement.policy.committed_invalid {
        writeln!(
            ctx.stderr,
            "astrix: the committed {FILE_NAME} does not validate; the built-in default policy judges until it is repaired:"
        )?;
        diagnostics.render(ctx.stderr, colour)?;
    }
    Ok(())
}

/// Renders the judgement as text or JSON to `out`.
pub fn write_report(
    judgement: &Judgement,
    out: &mut dyn Write,
    style: crate::report::style::Style,
    format: Format,
    explain: bool,
) -> std::io::Result<()> {
    match format {
        Format::Json => {
            let explanation = Explanation::new(
                &judgement.decision,
                &judgement.intent,
                &judgement.policy.loaded.provenance,
            );
            let mut value = decision_json(&judgement.decision, explain.then_some(&explanation));
            if explain {
                let extra = CommitExplanation {
                    actor: &judgement.actor,
                    target: &judgement.target,
                    approval: judgement.approval.as_deref(),
                    stale_approval: judgement.stale_approval.as_deref(),
                    test_tampering: judgement.tamper.as_ref(),
                };
                if let (serde_json::Value::Object(map), Ok(serde_json::Value::Object(more))) =
                    (&mut value, serde_json::to_value(extra))
                {
                    map.extend(more);
                }
            }
            write_json(out, &value)
        }
        Format::Text => {
            let report = TextReport {
                subject: "this commit",
                decision: &judgement.decision,
                context: context_lines(judgement),
                sections: tamper_section(judgement).into_iter().collect(),
                notes: notes(judgement),
                next_steps: gate::commit_next_steps(
                    &judgement.policy.loaded.policy,
                    &judgement.decision,
                    &judgement.actor,
                    &judgement.target,
                ),
                explain,
            };
            report.write(out, style)
        }
    }
}

/// Runs `astrix check`.
pub fn run(args: &CheckArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let (_, judgement) = judge_staged(
        ctx,
        JudgeOptions {
            line_counts: args.explain,
            approvals: true,
            tamper: args.explain,
        },
    )
    .context("cannot judge the staged change; the commit is blocked")?;
    write_policy_diagnostics(&judgement, ctx)?;
    let style = ctx.stdout_style;
    // One write for the whole report rather than one per line (stdout is line-buffered).
    let mut out = std::io::BufWriter::new(&mut *ctx.stdout);
    ignore_broken_pipe(
        write_report(
            &judgement,
            &mut out,
            style,
            args.format.format,
            args.explain,
        )
        .and_then(|()| out.flush()),
    )?;
    Ok(judgement.status())
}
