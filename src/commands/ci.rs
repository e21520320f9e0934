//! `astrix ci`: judge every commit of a branch, and the branch as a whole (SPEC §7).
//!
//! Local hooks can be removed, and agents in cloud sandboxes commit where none is installed;
//! the pipeline is where every commit is judged for sure. The commits are those the head
//! has and the merge base of base and head does not (`git rev-list`, every parent, so that
//! no commit hides behind a merge), parents before children. Each is judged against its
//! first parent, a merge by what it changes beyond its parents (SPEC §6); then the whole
//! range as one more change, so that a change split into small commits is still judged at
//! its full size.
//!
//! - **Policy**: the Astrixfile.ax at the merge base; a commit that edits it is held
//!   (`policy-change`) and is still judged by the merge base's.
//! - **Actor**: from each commit ([`crate::commit_actor`]), never from the runner's
//!   environment; the range is an agent's when any of its commits is.
//! - **Target**: `--target-branch`, else `GITHUB_BASE_REF`, else the branch `--base` names,
//!   through `[[environment]]`; none of these is an error.
//! - **`--approved`**: the pipeline's review rules are met; holds pass, denials stay.
//! - **Output**: a table and the reasons (or JSON); on GitHub Actions, workflow-command
//!   annotations, and a Markdown job summary appended to `$GITHUB_STEP_SUMMARY`.
//! - **Exit code**: the worst decision, error (2) > denied (1) > held (3) > allowed (0).

use std::fmt::Write as _;
use std::io::Write;

use anyhow::{Context as _, bail};
use serde::Serialize;

use super::check::{
    ChangeToJudge, JudgeOptions, Judgement, committed_policy_problems, judge_change_as,
    tamper_section,
};
use crate::app::{Context, ignore_broken_pipe};
use crate::cli::{CiArgs, Format};
use crate::commit_actor::{CommitActor, Evidence, commit_actor, range_actor, short};
use crate::env::{
    EnvSnapshot, GITHUB_ACTIONS, GITHUB_BASE_REF, GITHUB_STEP_SUMMARY, ResolvedActor,
};
use crate::exit::ExitStatus;
use crate::git::{ChangeOptions, CommitMeta, Repository, Signature};
use crate::intent::ActionIntent;
use crate::policy::{FILE_NAME, Verdict};
use crate::report::style::Style;
use crate::report::{ContextLine, DecisionOutput, PolicyProvenance, TextReport, write_json};
use crate::source::{self, RepositoryPolicy};

/// Every change is measured in full: the JSON shows every commit's line counts.
const CHANGE_OPTIONS: ChangeOptions = ChangeOptions { line_counts: true };

/// No approvals store in CI: `--approved` is the pipeline's approval.
const JUDGE_OPTIONS: JudgeOptions = JudgeOptions {
    line_counts: true,
    approvals: false,
    tamper: false,
};

/// How `actions/checkout` and GitLab fetch the whole history.
const FETCH_HINT: &str = "fetch the full history (`fetch-depth: 0` for actions/checkout, \
                          `GIT_DEPTH: 0` on GitLab CI)";

/// What `--approved` says in the output.
const PIPELINE_APPROVAL: &str = "the pipeline's review rules are met (`--approved`)";

/// Author names are cut to this many characters in the table.
const AUTHOR_WIDTH: usize = 24;

/// Runs `astrix ci`.
pub fn run(args: &CiArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let repo = Repository::open(&ctx.cwd, &ctx.env)?;
    let range = resolve_range(&repo, &args.base, &args.head)?;
    let target_branch = target_branch(args, &repo, &ctx.env)?;
    let policy = source::at_merge_base(&repo, &range.merge_base)?;
    let run = judge(ctx, &repo, range, policy, target_branch, args.approved)?;

    write_policy_diagnostics(&run, ctx)?;
    let github = ctx.env.get(GITHUB_ACTIONS) == Some("true");
    let style = ctx.stdout_style;
    match args.format.format {
        Format::Text => {
            ignore_broken_pipe(run.write_text(ctx.stdout, style))?;
            if github {
                ignore_broken_pipe(run.write_annotations(ctx.stdout))?;
            }
        }
        Format::Json => {
            ignore_broken_pipe(write_json(ctx.stdout, &run.json()))?;
            // The runner reads workflow commands from both streams; stdout stays JSON.
            if github {
                run.write_annotations(ctx.stderr)?;
            }
        }
    }
    if let Some(path) = ctx
        .env
        .get_os(GITHUB_STEP_SUMMARY)
        .filter(|path| !path.is_empty())
    {
        let path = std::path::Path::new(path);
        let mut file = fs_err::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .context("cannot write the job summary")?;
        file.write_all(run.summary_markdown().as_bytes())
            .context("cannot write the job summary")?;
    }
    Ok(run.status())
}

/// The commits to judge.
struct Range {
    /// `--base` as given.
    base: String,
    /// `--head` as given.
    head: String,
    /// The head commit.
    head_id: String,
    /// The merge base of base and head.
    merge_base: String,
    /// The commits the head has and the merge base does not, parents before children.
    commits: Vec<String>,
}

fn resolve_range(repo: &Repository, base: &str, head: &str) -> anyhow::Result<Range> {
    let shallow = repo.is_shallow();
    let hint = |what: &str| {
        if shallow {
            format!("{what}; this is a shallow clone: {FETCH_HINT}")
        } else {
            what.to_owned()
        }
    };
    let base_id = repo
        .commit_info(base)
        .with_context(|| {
            hint(&format!(
                "the base `{base}` is not a commit of this repository; fetch it (`git fetch origin <branch>`) or pass a commit id"
            ))
        })?
        .id;
    let head_id = repo
        .commit_info(head)
        .with_context(|| {
            hint(&format!(
                "the head `{head}` is not a commit of this repository"
            ))
        })?
        .id;
    let merge_base = match repo.merge_base(&base_id, &head_id) {
        Ok(Some(id)) => id,
        Ok(None) | Err(_) if shallow => bail!(
            "`{base}` and `{head}` have no common commit in this shallow clone, so astrix cannot tell where the change starts; {FETCH_HINT}"
        ),
        Ok(None) => bail!(
            "`{base}` and `{head}` have no common history, so astrix cannot tell where the change starts; pass the branch the change goes to as `--base`"
        ),
        Err(err) => return Err(err.into()),
    };
    let commits = repo
        .commits_between(&merge_base, &head_id)
        .with_context(|| hint(&format!("cannot list the commits of `{base}..{head}`")))?;
    Ok(Range {
        base: base.to_owned(),
        head: head.to_owned(),
        head_id,
        merge_base,
        commits,
    })
}

/// The branch the change goes to, and where that came from.
struct TargetBranch {
    name: String,
    from: String,
}

fn target_branch(
    args: &CiArgs,
    repo: &Repository,
    env: &EnvSnapshot,
) -> anyhow::Result<TargetBranch> {
    if let Some(name) = &args.target_branch {
        return Ok(TargetBranch {
            name: name.clone(),
            from: "--target-branch".to_owned(),
        });
    }
    if let Some(name) = env.get(GITHUB_BASE_REF).filter(|name| !name.is_empty()) {
        return Ok(TargetBranch {
            name: name.to_owned(),
            from: GITHUB_BASE_REF.to_owned(),
        });
    }
    if let Some(name) = repo.branch_name(&args.base) {
        return Ok(TargetBranch {
            name,
            from: format!("--base {}", args.base),
        });
    }
    bail!(
        "cannot tell which branch the change goes to: `{}` names no branch; pass `--target-branch <name>`",
        args.base
    )
}

/// One commit, judged.
struct JudgedCommit {
    meta: CommitMeta,
    actor: CommitActor,
    judgement: Judgement,
}

/// Everything `astrix ci` found.
struct Run {
    range: Range,
    target_branch: TargetBranch,
    policy: RepositoryPolicy,
    commits: Vec<JudgedCommit>,
    /// The range as a whole; `None` when it is empty.
    whole: Option<Judgement>,
    approved_flag: bool,
}

fn judge(
    ctx: &Context<'_>,
    repo: &Repository,
    range: Range,
    policy: RepositoryPolicy,
    target_branch: TargetBranch,
    approved: bool,
) -> anyhow::Result<Run> {
    let mut commits = Vec::with_capacity(range.commits.len());
    for id in &range.commits {
        let meta = repo.commit_meta(id)?;
        let actor = commit_actor(&meta, &policy.loaded.policy.actors);
        let change = repo.commit_change(id, &CHANGE_OPTIONS)?;
        let new_policy = committed_policy_problems(repo, id, &change)?;
        let tree = repo.commit_info(id)?.tree;
        let mut judgement = judge_change_as(
            ctx,
            repo,
            ChangeToJudge {
                policy: policy.clone(),
                branch: Some(target_branch.name.clone()),
                change,
                parent: meta.parents.first().cloned(),
                new_policy,
                snapshot: crate::git::Snapshot::Commit(id.clone()),
            },
            actor.actor.clone(),
            JUDGE_OPTIONS,
            move |_| Ok(tree),
        )
        .with_context(|| format!("cannot judge commit `{}`", short(id)))?;
        if approved {
            approve(&mut judgement);
        }
        commits.push(JudgedCommit {
            meta,
            actor,
            judgement,
        });
    }
    let whole = if commits.is_empty() {
        None
    } else {
        let actor = range_actor(
            commits
                .iter()
                .map(|commit| (commit.meta.id.as_str(), &commit.actor)),
        );
        let change = repo.range_change(&range.merge_base, &range.head_id, &CHANGE_OPTIONS)?;
        let new_policy = committed_policy_problems(repo, &range.head_id, &change)?;
        let tree = repo.commit_info(&range.head_id)?.tree;
        let mut judgement = judge_change_as(
            ctx,
            repo,
            ChangeToJudge {
                policy: policy.clone(),
                branch: Some(target_branch.name.clone()),
                change,
                parent: Some(range.merge_base.clone()),
                new_policy,
                snapshot: crate::git::Snapshot::Commit(range.head_id.clone()),
            },
            actor,
            JUDGE_OPTIONS,
            move |_| Ok(tree),
        )
        .context("cannot judge the range as a whole")?;
        if approved {
            approve(&mut judgement);
        }
        Some(judgement)
    };
    Ok(Run {
        range,
        target_branch,
        policy,
        commits,
        whole,
        approved_flag: approved,
    })
}

/// `--approved`: a hold passes, and says so; a denial stays.
fn approve(judgement: &mut Judgement) {
    if judgement.decision.verdict == Verdict::RequireApproval {
        judgement.intent.approved = Some(true);
        judgement.decision.approved = true;
        judgement.approval = Some(PIPELINE_APPROVAL.to_owned());
    }
}

/// The decision in a word or two.
fn decision_word(judgement: &Judgement) -> &'static str {
    match (judgement.decision.verdict, judgement.decision.approved) {
        (Verdict::Allow, _) => "allowed",
        (Verdict::RequireApproval, true) => "approved",
        (Verdict::RequireApproval, false) => "held",
        (Verdict::Deny, _) => "denied",
    }
}

fn paint_decision(judgement: &Judgement, style: Style, text: &str) -> String {
    let paint = match judgement.status() {
        ExitStatus::Allowed => style.green(),
        ExitStatus::Held => style.yellow(),
        ExitStatus::Denied | ExitStatus::Error => style.red(),
    };
    paint.paint(text).to_string()
}

/// The deciding rules, comma-separated; `default` when the policy's default decided.
fn rules_cell(judgement: &Judgement) -> String {
    let decision = &judgement.decision;
    if decision.default_used {
        if decision.verdict == Verdict::Allow {
            String::new()
        } else {
            "(default)".to_owned()
        }
    } else if decision.verdict == Verdict::Allow {
        // Rules that allow explicitly say nothing the reader needs in a table of problems.
        String::new()
    } else {
        decision.deciding_rules.join(", ")
    }
}

fn actor_cell(actor: &ResolvedActor) -> String {
    match &actor.id {
        Some(id) => format!("{} ({id})", actor.kind),
        None => actor.kind.clone(),
    }
}

fn evidence_cell(evidence: &[Evidence]) -> String {
    let mut labels: Vec<String> = Vec::new();
    for item in evidence {
        let label = item.label();
        if !labels.contains(&label) {
            labels.push(label);
        }
    }
    labels.join(", ")
}

fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_owned()
    } else {
        let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// A row of the table, before padding.
struct Row<'a> {
    cells: [String; 6],
    judgement: &'a Judgement,
}

impl Run {
    /// The worst decision's exit status.
    fn status(&self) -> ExitStatus {
        self.judgements()
            .map(Judgement::status)
            .fold(ExitStatus::Allowed, ExitStatus::worst)
    }

    /// Every judgement: the commits, then the range.
    fn judgements(&self) -> impl Iterator<Item = &Judgement> {
        self.commits
            .iter()
            .map(|commit| &commit.judgement)
            .chain(self.whole.as_ref())
    }

    fn any_approved(&self) -> bool {
        self.judgements()
            .any(|judgement| judgement.decision.verdict == Verdict::RequireApproval)
            && self.approved_flag
    }

    /// The overall decision, for the headline.
    fn headline(&self) -> &'static str {
        match self.status() {
            ExitStatus::Denied | ExitStatus::Error => "denied",
            ExitStatus::Held => "held for approval",
            ExitStatus::Allowed if self.any_approved() => "allowed (approved by the pipeline)",
            ExitStatus::Allowed => "allowed",
        }
    }

    /// `3 commits in `origin/main..HEAD` and the range as a whole`.
    fn what(&self) -> String {
        let count = self.commits.len();
        format!(
            "{count} commit{} in `{}..{}` and the range as a whole",
            if count == 1 { "" } else { "s" },
            self.range.base,
            self.range.head
        )
    }

    fn target(&self) -> Option<&crate::gate::ResolvedTarget> {
        self.judgements().next().map(|judgement| &judgement.target)
    }

    fn rows(&self) -> Vec<Row<'_>> {
        let mut rows: Vec<Row<'_>> = self
            .commits
            .iter()
            .map(|commit| Row {
                cells: [
                    short(&commit.meta.id).to_owned(),
                    cut(&commit.meta.author.name, AUTHOR_WIDTH),
                    actor_cell(&commit.actor.actor),
                    evidence_cell(&commit.actor.evidence),
                    decision_word(&commit.judgement).to_owned(),
                    rules_cell(&commit.judgement),
                ],
                judgement: &commit.judgement,
            })
            .collect();
        if let Some(whole) = &self.whole {
            let count = self.commits.len();
            rows.push(Row {
                cells: [
                    "range".to_owned(),
                    format!("{count} commit{}", if count == 1 { "" } else { "s" }),
                    actor_cell(&whole.actor),
                    match self.commits.iter().filter(|c| c.actor.is_agent()).count() {
                        0 => String::new(),
                        1 => "1 agent commit".to_owned(),
                        agents => format!("{agents} agent commits"),
                    },
                    decision_word(whole).to_owned(),
                    rules_cell(whole),
                ],
                judgement: whole,
            });
        }
        rows
    }

    fn write_text(&self, out: &mut dyn Write, style: Style) -> std::io::Result<()> {
        self.write_header(out, style)?;
        if self.commits.is_empty() {
            return Ok(());
        }
        writeln!(out)?;
        self.write_table(out, style)?;
        for commit in &self.commits {
            let subject = format!(
                "commit {} {:?} by {}",
                short(&commit.meta.id),
                commit.meta.summary,
                commit.meta.author
            );
            write_details(out, style, &subject, "this commit", &commit.judgement)?;
        }
        if let Some(whole) = &self.whole {
            let subject = format!(
                "the range as a whole: {} (from the merge base {} to {})",
                self.what_short(),
                short(&self.range.merge_base),
                short(&self.range.head_id)
            );
            write_details(out, style, &subject, "the range", whole)?;
        }
        self.write_evidence(out, style)?;
        let steps = self.next_steps();
        if !steps.is_empty() {
            writeln!(out)?;
            writeln!(out, "{}", style.bold().paint("next:"))?;
            for step in steps {
                writeln!(out, "  - {step}")?;
            }
        }
        Ok(())
    }

    /// The headline, and the base, target and policy.
    fn write_header(&self, out: &mut dyn Write, style: Style) -> std::io::Result<()> {
        let headline = self.headline();
        let painted = match self.status() {
            ExitStatus::Allowed => style.green(),
            ExitStatus::Held => style.yellow(),
            ExitStatus::Denied | ExitStatus::Error => style.red(),
        }
        .paint(&format!("astrix ci: {headline}"))
        .to_string();
        if self.commits.is_empty() {
            writeln!(
                out,
                "{painted}: nothing to judge: `{}` has no commits that `{}` does not have",
                self.range.head, self.range.base
            )?;
        } else {
            writeln!(out, "{painted}: {}", self.what())?;
        }
        let mut context = vec![
            ContextLine {
                label: "base",
                text: format!(
                    "{} (merge base {})",
                    self.range.base,
                    short(&self.range.merge_base)
                ),
            },
            ContextLine {
                label: "policy",
                text: self.policy.loaded.provenance.description.clone(),
            },
        ];
        if let Some(target) = self.target() {
            context.insert(
                1,
                ContextLine {
                    label: "target",
                    text: format!(
                        "{} — {}; the branch from `{}`",
                        target.env, target.decided_by, self.target_branch.from
                    ),
                },
            );
        }
        for line in &context {
            writeln!(
                out,
                "  {}{}  {}",
                style.dim().paint(line.label),
                " ".repeat(6usize.saturating_sub(line.label.len())),
                line.text
            )?;
        }
        Ok(())
    }

    /// Every piece of evidence that made a commit an agent's.
    fn write_evidence(&self, out: &mut dyn Write, style: Style) -> std::io::Result<()> {
        let agents: Vec<&JudgedCommit> = self
            .commits
            .iter()
            .filter(|commit| commit.actor.is_agent())
            .collect();
        if !agents.is_empty() {
            writeln!(out)?;
            writeln!(out, "{}", style.bold().paint("agent evidence"))?;
            for commit in agents {
                for evidence in &commit.actor.evidence {
                    writeln!(
                        out,
                        "  {}  {}: {}",
                        short(&commit.meta.id),
                        evidence.agent,
                        evidence.describe()
                    )?;
                }
                for declared in &commit.actor.declared {
                    writeln!(
                        out,
                        "  {}  `{}: {declared}` is not believed over the evidence above",
                        short(&commit.meta.id),
                        crate::commit_actor::ACTOR_TRAILER
                    )?;
                }
            }
        }
        Ok(())
    }

    fn what_short(&self) -> String {
        let count = self.commits.len();
        format!("{count} commit{}", if count == 1 { "" } else { "s" })
    }

    fn write_table(&self, out: &mut dyn Write, style: Style) -> std::io::Result<()> {
        const HEADERS: [&str; 6] = ["commit", "author", "actor", "evidence", "decision", "rules"];
        let rows = self.rows();
        let mut widths = HEADERS.map(|header| header.chars().count());
        for row in &rows {
            for (width, cell) in widths.iter_mut().zip(&row.cells) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let line = |cells: [&str; 6], decision: Option<(&Judgement, Style)>| {
            let mut text = String::from("  ");
            for (index, (cell, width)) in cells.iter().zip(widths).enumerate() {
                let padded = format!("{cell:<width$}");
                let padded = match decision {
                    Some((judgement, style)) if index == 4 => {
                        paint_decision(judgement, style, &padded)
                    }
                    _ => padded,
                };
                text.push_str(&padded);
                if index + 1 < cells.len() {
                    text.push_str("  ");
                }
            }
            text.trim_end().to_owned()
        };
        writeln!(out, "{}", style.dim().paint(&line(HEADERS, None)))?;
        for row in &rows {
            let cells = [
                row.cells[0].as_str(),
                row.cells[1].as_str(),
                row.cells[2].as_str(),
                row.cells[3].as_str(),
                row.cells[4].as_str(),
                row.cells[5].as_str(),
            ];
            writeln!(out, "{}", line(cells, Some((row.judgement, style))))?;
        }
        Ok(())
    }

    /// What to do next, most useful first.
    fn next_steps(&self) -> Vec<String> {
        let mut steps = Vec::new();
        let denied = self
            .judgements()
            .any(|judgement| judgement.decision.verdict == Verdict::Deny);
        let held = self.judgements().any(|judgement| {
            judgement.decision.verdict == Verdict::RequireApproval && !judgement.decision.approved
        });
        if let Some(whole) = &self.whole {
            let only_whole: Vec<&String> = whole
                .decision
                .deciding_rules
                .iter()
                .filter(|rule| {
                    whole.decision.verdict != Verdict::Allow
                        && !self.commits.iter().any(|commit| {
                            commit.judgement.decision.verdict != Verdict::Allow
                                && commit.judgement.decision.deciding_rules.contains(rule)
                        })
                })
                .collect();
            if !only_whole.is_empty() {
                steps.push(format!(
                    "the range as a whole is stopped by {}, which no single commit is: small commits do not get a change past a limit; split the change into several pull requests, or have it reviewed as a whole",
                    only_whole
                        .iter()
                        .map(|rule| format!("`{rule}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        if denied {
            steps.push(format!(
                "approval cannot lift a denial: rewrite the denied commits (`git rebase -i {}`) so that no rule denies them, and push again",
                short(&self.range.merge_base)
            ));
        }
        if held {
            steps.push(
                "a human reviews the held commits; once the pipeline's review rules are met (an approving review, say), it runs `astrix ci` with `--approved`"
                    .to_owned(),
            );
        }
        steps
    }

    /// GitHub Actions workflow commands: one per deciding rule of each change that did not
    /// simply pass, with the rule's first file.
    fn write_annotations(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let items = self
            .commits
            .iter()
            .map(|commit| {
                (
                    format!(
                        "commit {} {:?} by {} ({})",
                        short(&commit.meta.id),
                        commit.meta.summary,
                        commit.meta.author.name,
                        actor_cell(&commit.actor.actor)
                    ),
                    &commit.judgement,
                )
            })
            .chain(self.whole.iter().map(|whole| {
                (
                    format!(
                        "the range as a whole ({}, {})",
                        self.what_short(),
                        actor_cell(&whole.actor)
                    ),
                    whole,
                )
            }));
        for (what, judgement) in items {
            let decision = &judgement.decision;
            let (level, word) = match (decision.verdict, decision.approved) {
                (Verdict::Allow, _) => continue,
                (Verdict::RequireApproval, true) => ("notice", "approved"),
                (Verdict::RequireApproval, false) => ("warning", "held"),
                (Verdict::Deny, _) => ("error", "denied"),
            };
            let outcomes: Vec<_> = decision.deciding_outcomes().collect();
            if outcomes.is_empty() {
                writeln!(
                    out,
                    "::{level} title={}::{}",
                    escape_property(&format!("astrix: {word} (the policy's default)")),
                    escape_data(&format!("{what}: {}", decision.reason))
                )?;
                continue;
            }
            for outcome in outcomes {
                let file = self
                    .annotated_file(judgement, outcome)
                    .map(|file| format!("file={},", escape_property(file)))
                    .unwrap_or_default();
                let mut message = format!("{what}: [{}] {}", outcome.id, outcome.reason);
                if outcome.files_total > 1 {
                    let _ = write!(
                        message,
                        " (files: {}{})",
                        outcome.files.join(", "),
                        if outcome.files_total > outcome.files.len() {
                            format!(" and {} more", outcome.files_total - outcome.files.len())
                        } else {
                            String::new()
                        }
                    );
                }
                if decision.approved {
                    let _ = write!(message, "; {PIPELINE_APPROVAL}");
                }
                writeln!(
                    out,
                    "::{level} {file}title={}::{}",
                    escape_property(&format!("astrix: {word} by {}", outcome.id)),
                    escape_data(&message)
                )?;
            }
        }
        Ok(())
    }

    /// The file an annotation of `outcome` points at: the first file its path conditions
    /// matched; for a rule about tests, the first file that modifies tests.
    fn annotated_file<'j>(
        &self,
        judgement: &'j Judgement,
        outcome: &'j crate::eval::RuleOutcome,
    ) -> Option<&'j str> {
        if let Some(file) = outcome.files.first() {
            return Some(file);
        }
        let about_tests = self
            .policy
            .loaded
            .policy
            .rules
            .iter()
            .any(|rule| rule.id == outcome.id && rule.modifies_tests.is_some());
        if !about_tests {
            return None;
        }
        judgement
            .decision
            .modifies_tests_escalated_by
            .as_deref()
            .or_else(|| {
                judgement
                    .tamper
                    .as_ref()
                    .and_then(|report| report.findings().next())
                    .map(|finding| finding.path.as_str())
            })
    }

    /// The Markdown job summary.
    fn summary_markdown(&self) -> String {
        let mut out = format!("### astrix ci: {}\n\n", self.headline());
        if self.commits.is_empty() {
            let _ = writeln!(
                out,
                "Nothing to judge: `{}` has no commits that `{}` does not have.",
                self.range.head, self.range.base
            );
            return out;
        }
        let _ = write!(out, "{}", self.what());
        if let Some(target) = self.target() {
            let _ = write!(out, ", going to `{}`", target.env);
        }
        let _ = writeln!(
            out,
            ". Policy: {}.\n",
            self.policy.loaded.provenance.description
        );
        out.push_str("| commit | author | actor | evidence | decision | rules |\n");
        out.push_str("|---|---|---|---|---|---|\n");
        for (index, row) in self.rows().iter().enumerate() {
            let first = match self.commits.get(index) {
                Some(commit) => format!(
                    "`{}` {}",
                    row.cells[0],
                    markdown_cell(&cut(&commit.meta.summary, 50))
                ),
                None => "**range**".to_owned(),
            };
            let rules = if row.cells[5].is_empty() {
                String::new()
            } else {
                row.cells[5]
                    .split(", ")
                    .map(|rule| format!("`{rule}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let decision = match row.cells[4].as_str() {
                "denied" => "❌ denied",
                "held" => "⏸️ held",
                "approved" => "✅ approved",
                _ => "✅ allowed",
            };
            let _ = writeln!(
                out,
                "| {first} | {} | {} | {} | {decision} | {rules} |",
                markdown_cell(&row.cells[1]),
                markdown_cell(&row.cells[2]),
                markdown_cell(&row.cells[3]),
            );
        }
        let reasons = self.reasons_markdown();
        if !reasons.is_empty() {
            out.push('\n');
            for reason in reasons {
                out.push_str(&reason);
                out.push('\n');
            }
        }
        let steps = self.next_steps();
        if !steps.is_empty() {
            out.push_str("\n**Next**\n\n");
            for step in steps {
                let _ = writeln!(out, "- {}", markdown_cell(&step));
            }
        }
        out
    }

    /// One Markdown list item per deciding rule of each change that did not simply pass.
    fn reasons_markdown(&self) -> Vec<String> {
        let mut reasons = Vec::new();
        let labelled = self
            .commits
            .iter()
            .map(|commit| (format!("`{}`", short(&commit.meta.id)), &commit.judgement))
            .chain(
                self.whole
                    .iter()
                    .map(|whole| ("the range as a whole".to_owned(), whole)),
            );
        for (label, judgement) in labelled {
            if judgement.decision.verdict == Verdict::Allow {
                continue;
            }
            let word = decision_word(judgement);
            for outcome in judgement.decision.deciding_outcomes() {
                let files = if outcome.files.is_empty() {
                    String::new()
                } else {
                    format!(
                        " ({})",
                        outcome
                            .files
                            .iter()
                            .map(|file| format!("`{file}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                reasons.push(format!(
                    "- {label} {word} by `{}`: {}{files}",
                    outcome.id,
                    markdown_cell(&outcome.reason)
                ));
            }
            if judgement.decision.default_used {
                reasons.push(format!(
                    "- {label} {word}: {}",
                    markdown_cell(&judgement.decision.reason)
                ));
            }
        }
        reasons
    }

    fn json(&self) -> CiJson<'_> {
        let statuses: Vec<ExitStatus> = self.judgements().map(Judgement::status).collect();
        CiJson {
            allowed: statuses.iter().all(|status| *status == ExitStatus::Allowed),
            denied: statuses.contains(&ExitStatus::Denied),
            requires_approval: self
                .judgements()
                .any(|judgement| judgement.decision.requires_approval()),
            base: &self.range.base,
            head: &self.range.head,
            head_commit: &self.range.head_id,
            merge_base: &self.range.merge_base,
            target_branch: &self.target_branch.name,
            target_branch_from: &self.target_branch.from,
            target: self.target(),
            policy: &self.policy.loaded.provenance,
            approved_by_pipeline: self.approved_flag,
            commits: self
                .commits
                .iter()
                .map(|commit| CommitJson {
                    commit: &commit.meta.id,
                    parents: &commit.meta.parents,
                    summary: &commit.meta.summary,
                    author: &commit.meta.author,
                    committer: &commit.meta.committer,
                    actor: &commit.actor.actor,
                    evidence: &commit.actor.evidence,
                    declared_actor: &commit.actor.declared,
                    hook_decisions: &commit.actor.hook_decisions,
                    judged: JudgedJson::new(&commit.judgement),
                })
                .collect(),
            range: self.whole.as_ref().map(|whole| RangeJson {
                commits: self.commits.len(),
                actor: &whole.actor,
                judged: JudgedJson::new(whole),
            }),
        }
    }
}

/// Renders the reasons of a change that did not simply pass.
fn write_details(
    out: &mut dyn Write,
    style: Style,
    subject: &str,
    what: &str,
    judgement: &Judgement,
) -> std::io::Result<()> {
    if judgement.decision.verdict == Verdict::Allow {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "{}", style.bold().paint(subject))?;
    let mut context = vec![ContextLine {
        label: "actor",
        text: format!(
            "{} — {}",
            actor_cell(&judgement.actor),
            judgement.actor.decided_by
        ),
    }];
    if let Some(approval) = &judgement.approval {
        context.push(ContextLine {
            label: "approval",
            text: approval.clone(),
        });
    }
    TextReport {
        subject: what,
        decision: &judgement.decision,
        context,
        sections: tamper_section(judgement).into_iter().collect(),
        notes: Vec::new(),
        next_steps: Vec::new(),
        explain: false,
    }
    .write(out, style)
}

/// Prints the diagnostics of the policy at the merge base, and of any commit's, to stderr.
fn write_policy_diagnostics(run: &Run, ctx: &mut Context<'_>) -> std::io::Result<()> {
    let colour = ctx.stderr_style.enabled();
    if let Some(diagnostics) = &run.policy.committed_invalid {
        writeln!(
            ctx.stderr,
            "astrix: the {FILE_NAME} at the merge base does not validate; the built-in default policy judges, and every change is held:"
        )?;
        diagnostics.render(ctx.stderr, colour)?;
    }
    for commit in &run.commits {
        if let Some(diagnostics) = &commit.judgement.staged_policy {
            writeln!(
                ctx.stderr,
                "astrix: the {FILE_NAME} of commit {} does not validate:",
                short(&commit.meta.id)
            )?;
            diagnostics.render(ctx.stderr, colour)?;
        }
    }
    Ok(())
}

/// Escapes the message of a workflow command.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property (`file=`, `title=`) of a workflow command.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Text for one cell of a Markdown table: on one line, `|` escaped.
fn markdown_cell(text: &str) -> String {
    text.replace(['\r', '\n'], " ").replace('|', "\\|")
}

/// `astrix ci --format json`.
#[derive(Serialize)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "the decision fields of SPEC §5, aggregated, beside the `--approved` flag"
)]
struct CiJson<'a> {
    /// Every commit and the range are allowed (or held and approved).
    allowed: bool,
    /// Any commit or the range is denied.
    denied: bool,
    /// Any commit or the range needs a human's approval (whether or not `--approved`).
    requires_approval: bool,
    base: &'a str,
    head: &'a str,
    head_commit: &'a str,
    merge_base: &'a str,
    target_branch: &'a str,
    target_branch_from: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'a crate::gate::ResolvedTarget>,
    policy: &'a PolicyProvenance,
    approved_by_pipeline: bool,
    commits: Vec<CommitJson<'a>>,
    range: Option<RangeJson<'a>>,
}

#[derive(Serialize)]
struct CommitJson<'a> {
    commit: &'a str,
    parents: &'a [String],
    summary: &'a str,
    author: &'a Signature,
    committer: &'a Signature,
    actor: &'a ResolvedActor,
    /// Everything that names an agent.
    evidence: &'a [Evidence],
    /// `Astrix-Actor:` values that did not escalate (recorded, not believed).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    declared_actor: &'a [String],
    /// `Astrix-Decision:` values: what the hook decided when the commit was made.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    hook_decisions: &'a [String],
    #[serde(flatten)]
    judged: JudgedJson<'a>,
}

#[derive(Serialize)]
struct RangeJson<'a> {
    commits: usize,
    actor: &'a ResolvedActor,
    #[serde(flatten)]
    judged: JudgedJson<'a>,
}

/// A change's intent and decision.
#[derive(Serialize)]
struct JudgedJson<'a> {
    intent: &'a ActionIntent,
    decision: DecisionOutput,
    verdict: Verdict,
    deciding_rules: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    approval: Option<&'a str>,
}

impl<'a> JudgedJson<'a> {
    fn new(judgement: &'a Judgement) -> Self {
        Self {
            intent: &judgement.intent,
            decision: DecisionOutput::from_decision(&judgement.decision),
            verdict: judgement.decision.verdict,
            deciding_rules: &judgement.decision.deciding_rules,
            approval: judgement.approval.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_command_escapes() {
        assert_eq!(escape_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }

    #[test]
    fn markdown_cells_stay_on_one_line() {
        assert_eq!(markdown_cell("a|b\nc"), "a\\|b c");
    }

    #[test]
    fn long_names_are_cut() {
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
    }
}
