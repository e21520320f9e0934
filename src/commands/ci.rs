//! `astrix ci`: judge every commit of a branch, and the branch as a whole (SPEC §7).
//!
//! Local hooks can be removed, and agents in cloud sandboxes commit where none is installed;
//! the pipeline is where every commit is judged for sure. The commits are exactly those of
//! `git rev-list BASE..HEAD` (every parent, so that no commit hides behind a merge, and none
//! of the target's own, also in a criss-cross history), parents before children. Each is
//! judged against its first parent, a merge by what it changes beyond its parents (SPEC §6);
//! then the whole range as one more change, so that a change split into small commits is
//! still judged at its full size.
//!
//! - **Revisions**: `--base` and `--head` resolve without ambiguity
//!   ([`Repository::resolve_exact`]): `origin/main` is `refs/remotes/origin/main`, never a
//!   tag or a local branch of that name, and a name that means two things is an error.
//! - **Policy**: the Astrixfile.ax at the tip of the target (`--base`), never an older one:
//!   a branch forked from an older target is judged by the target's policy as it is now; a
//!   commit that edits it is held (`policy-change`) and still judged by the target's.
//! - **Actor**: from each commit ([`crate::commit_actor`]), never from the runner's
//!   environment; the range is an agent's when any of its commits is.
//! - **Commit vs. merge**: each commit is a `commit` in the environment of the branch it was
//!   made on (`--head-branch`, `GITHUB_HEAD_REF`, the branch `--head` names, the checked-out
//!   branch), as the local gate judged it; the range is a `merge` into the target's
//!   environment (`--target-branch`, `GITHUB_BASE_REF`, the branch `--base` names).
//! - **`--approved`**: the pipeline's review rules are met; holds pass, denials stay.
//! - **Provenance**: with `[ci] require_provenance`, a commit with changes of its own and no
//!   `Astrix-Actor:` trailer is held.
//! - **Output**: a table and the reasons (or JSON); on GitHub Actions, workflow-command
//!   annotations, a Markdown job summary appended to `$GITHUB_STEP_SUMMARY`, and a warning
//!   when the range changes the workflow file that runs the job (`GITHUB_WORKFLOW_REF`).
//! - **Exit code**: the worst decision, error (2) > denied (1) > held (3) > allowed (0).

use std::fmt::Write as _;
use std::io::Write;

use anyhow::Context as _;
use serde::Serialize;

use crate::cli::{CiArgs, Format};
use crate::commit_actor::{Evidence, short};
use crate::context::{Context, ignore_broken_pipe};
use crate::env::{GITHUB_ACTIONS, GITHUB_STEP_SUMMARY};
use crate::exit::ExitStatus;
use crate::gate::ResolvedTarget;
use crate::gate::range::{JudgedCommit, PIPELINE_APPROVAL, RangeRequest, Run, judge_range};
use crate::gate::{Judgement, tamper_section};
use crate::git::{Repository, Signature};
use crate::intent::Action;
use crate::intent::ActionIntent;
use crate::intent::ResolvedActor;
use crate::policy::numeric::Argument;
use crate::policy::{FILE_NAME, Verdict};
use crate::report::style::Style;
use crate::report::{
    ContextLine, DecisionOutput, NoWorkflowCommands, PolicyProvenance, TextReport, one_line,
    write_json,
};

/// Author names are cut to this many characters in the table.
const AUTHOR_WIDTH: usize = 24;

/// Runs `astrix ci`.
pub fn run(args: &CiArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let repo = Repository::open(&ctx.cwd, &ctx.env)?;
    let run = judge_range(
        &repo,
        &ctx.env,
        &RangeRequest {
            base: &args.base,
            head: &args.head,
            target_branch: args.target_branch.as_deref(),
            head_branch: args.head_branch.as_deref(),
            approved: args.approved,
            actor: None,
        },
    )?;

    write_policy_diagnostics(&run, ctx)?;
    for warning in &run.warnings {
        let line = format!("astrix ci: warning: {}\n", one_line(&warning.text));
        ctx.stderr
            .write_all(&crate::report::no_workflow_command(line.as_bytes()))?;
    }
    let github = ctx.env.get(GITHUB_ACTIONS) == Some("true");
    let style = ctx.stdout_style;
    match args.format.format {
        Format::Text => {
            // Authors, subjects, paths and reasons come from the repository: none of its
            // text may give the runner a workflow command.
            let mut guarded = NoWorkflowCommands::new(&mut *ctx.stdout);
            ignore_broken_pipe(
                run.write_text(&mut guarded, style)
                    .and_then(|()| guarded.finish()),
            )?;
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

    fn rows(&self) -> Vec<Row<'_>> {
        let mut rows: Vec<Row<'_>> = self
            .commits
            .iter()
            .map(|commit| Row {
                cells: [
                    short(&commit.meta.id).to_owned(),
                    cut(&one_line(&commit.meta.author.name), AUTHOR_WIDTH),
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
                "commit {} {:?} by {} <{}>",
                short(&commit.meta.id),
                commit.meta.summary,
                one_line(&commit.meta.author.name),
                one_line(&commit.meta.author.email)
            );
            write_details(out, style, &subject, "this commit", &commit.judgement)?;
        }
        if let Some(whole) = &self.whole {
            let subject = format!(
                "the range as a whole: {} (from the merge base {} to {})",
                self.what_short(),
                short(self.range.merge_base()),
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
        let merge_bases = match self.range.merge_bases.as_slice() {
            [one] => format!("merge base {}", short(one)),
            several => format!(
                "merge bases {} (a criss-cross history)",
                several
                    .iter()
                    .map(|base| short(base))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let context = [
            ContextLine {
                label: "base",
                text: format!(
                    "{} ({}; {merge_bases})",
                    self.range.base,
                    short(&self.range.base_id)
                ),
            },
            ContextLine {
                label: "target",
                text: format!(
                    "{} — {}; the branch from `{}`: the range as a whole is a merge into it",
                    self.target.env, self.target.decided_by, self.branches.target.from
                ),
            },
            ContextLine {
                label: "head",
                text: format!(
                    "{} — {}; the branch from {}: each commit is a commit there",
                    self.head_target.env,
                    self.head_target.decided_by,
                    if self.branches.head.from.starts_with("the target") {
                        self.branches.head.from.clone()
                    } else {
                        format!("`{}`", self.branches.head.from)
                    }
                ),
            },
            ContextLine {
                label: "policy",
                text: self.policy.loaded.provenance.description.clone(),
            },
        ];
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
                        one_line(&evidence.describe())
                    )?;
                }
                for declared in &commit.actor.declared {
                    writeln!(
                        out,
                        "  {}  `{}: {}` is not believed over the evidence above",
                        short(&commit.meta.id),
                        crate::commit_actor::ACTOR_TRAILER,
                        one_line(declared)
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
        let is_held = |judgement: &Judgement| {
            judgement.decision.verdict == Verdict::RequireApproval && !judgement.decision.approved
        };
        // Held by more than the review of a merge (which has its own step below).
        let held = self.commits.iter().any(|commit| is_held(&commit.judgement))
            || self.whole.as_ref().is_some_and(|whole| {
                is_held(whole)
                    && (whole.decision.default_used
                        || whole
                            .decision
                            .deciding_rules
                            .iter()
                            .any(|rule| !self.merge_only(rule)))
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
            // Rules that hold merges only are the review a pull request goes through, not a
            // limit that small commits got around.
            let (merges, only_whole): (Vec<&String>, Vec<&String>) = only_whole
                .into_iter()
                .partition(|rule| self.merge_only(rule));
            if !merges.is_empty() {
                steps.push(format!(
                    "the range as a whole is a merge into `{}` that {} holds for a human's review: once someone other than its author (and not a bot) approves the pull request, the pipeline runs `astrix ci` with `--approved`",
                    self.target.env,
                    merges
                        .iter()
                        .map(|rule| format!("`{rule}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            let ticks = |rules: &[&String]| {
                rules
                    .iter()
                    .map(|rule| format!("`{rule}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let only_whole = self.uncollected_step(whole, only_whole, &mut steps);
            let (limits, others): (Vec<&String>, Vec<&String>) =
                only_whole.into_iter().partition(|rule| self.is_limit(rule));
            if !limits.is_empty() {
                steps.push(format!(
                    "the range as a whole is stopped by {}, which no single commit is: small commits do not get a change past a limit; split the change into several pull requests, or have it reviewed as a whole",
                    ticks(&limits)
                ));
            }
            if !others.is_empty() {
                steps.push(format!(
                    "the range as a whole, a merge into `{}`, is stopped by {}, which no single commit is: each commit is judged where it was made (`{}`)",
                    self.target.env,
                    ticks(&others),
                    self.head_target.env
                ));
            }
        }
        if denied && self.branches.head.name == self.branches.target.name {
            steps.push(format!(
                "the commits were made on `{}` itself and are judged as commits there: an agent's work goes on a feature branch and comes in as a reviewed pull request",
                self.branches.head.name
            ));
        }
        if denied {
            steps.push(format!(
                "approval cannot lift a denial: rewrite the denied commits (`git rebase -i {}`) so that no rule denies them, and push again",
                short(self.range.merge_base())
            ));
        }
        if held {
            steps.push(
                "a human reviews the held commits; once the pipeline's review rules are met (an approving review by someone other than the author, not a bot: \"Approval in CI\" in `astrix docs ci`), it runs `astrix ci` with `--approved`"
                    .to_owned(),
            );
        }
        steps
    }

    /// Whether rule `id` is a numeric limit (`policy = "…"`).
    fn is_limit(&self, id: &str) -> bool {
        self.policy
            .loaded
            .policy
            .rules
            .iter()
            .any(|rule| rule.id == id && rule.policy.is_some())
    }

    /// The step for tests the runner no longer collects, asked of the range as a whole only:
    /// a limit on `tests_removed` that stops only the range is that, not small commits.
    /// Returns the other rules of `only_whole`.
    fn uncollected_step<'r>(
        &self,
        whole: &Judgement,
        only_whole: Vec<&'r String>,
        steps: &mut Vec<String>,
    ) -> Vec<&'r String> {
        let uncollected: usize = whole
            .tamper
            .iter()
            .flat_map(|report| &report.uncollected)
            .map(|run| run.tests.len())
            .sum();
        let (removal, others): (Vec<&String>, Vec<&String>) =
            only_whole.into_iter().partition(|rule| {
                uncollected > 0 && self.limits_argument(rule, Argument::TestsRemoved)
            });
        if !removal.is_empty() {
            let one = uncollected == 1;
            steps.push(format!(
                "the test runner no longer collects {uncollected} test{} that it collected on the merge base (`[tests] collect` asks it of the range as a whole, so no single commit shows this), and {} stops the range for it: restore {}, or a human confirms {} meant to go",
                if one { "" } else { "s" },
                removal
                    .iter()
                    .map(|rule| format!("`{rule}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if one { "the test" } else { "the tests" },
                if one { "it was" } else { "they were" },
            ));
        }
        others
    }

    /// Whether rule `id` is a numeric limit on `argument`.
    fn limits_argument(&self, id: &str, argument: Argument) -> bool {
        self.policy.loaded.policy.rules.iter().any(|rule| {
            rule.id == id
                && rule
                    .policy
                    .as_ref()
                    .is_some_and(|policy| policy.argument == argument)
        })
    }

    /// Whether rule `id` holds merges only (`action = ["merge"]`).
    fn merge_only(&self, id: &str) -> bool {
        self.policy
            .loaded
            .policy
            .rules
            .iter()
            .find(|rule| rule.id == id)
            .and_then(|rule| rule.action.as_deref())
            .is_some_and(|actions| actions == [Action::Merge])
    }

    /// GitHub Actions workflow commands: one per deciding rule of each change that did not
    /// simply pass, with the rule's first file.
    fn write_annotations(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for warning in &self.warnings {
            let file = warning
                .file
                .as_deref()
                .map(|file| format!("file={},", escape_property(file)))
                .unwrap_or_default();
            writeln!(
                out,
                "::warning {file}title={}::{}",
                escape_property("astrix: warning"),
                escape_data(&one_line(&warning.text))
            )?;
        }
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
                    escape_data(&one_line(&format!("{what}: {}", decision.reason)))
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
                    escape_data(&one_line(&message))
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
        if let Some(target) = Some(&self.target) {
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
            merge_base: self.range.merge_base(),
            merge_bases: &self.range.merge_bases,
            base_commit: &self.range.base_id,
            target_branch: &self.branches.target.name,
            target_branch_from: &self.branches.target.from,
            head_branch: &self.branches.head.name,
            head_branch_from: &self.branches.head.from,
            head_target: &self.head_target,
            warnings: self
                .warnings
                .iter()
                .map(|warning| warning.text.as_str())
                .collect(),
            target: Some(&self.target),
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
    // The diagnostics quote the branch's own policy text.
    let mut stderr = NoWorkflowCommands::new(&mut *ctx.stderr);
    if let Some(diagnostics) = &run.policy.committed_invalid {
        writeln!(
            stderr,
            "astrix: the {FILE_NAME} at the merge base does not validate; the built-in default policy judges, and every change is held:"
        )?;
        diagnostics.render(&mut stderr, colour)?;
    }
    for commit in &run.commits {
        if let Some(diagnostics) = &commit.judgement.staged_policy {
            writeln!(
                stderr,
                "astrix: the {FILE_NAME} of commit {} does not validate:",
                short(&commit.meta.id)
            )?;
            diagnostics.render(&mut stderr, colour)?;
        }
    }
    stderr.finish()
}

/// Escapes the message of a workflow command.
fn escape_data(text: &str) -> String {
    // `##[` would start the runner's older form of a command, were this line not one.
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
        .replace("##[", "## [")
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
    /// The commit `--base` names: the target's tip, whose policy judges.
    base_commit: &'a str,
    merge_base: &'a str,
    /// Every merge base (more than one in a criss-cross history).
    merge_bases: &'a [String],
    target_branch: &'a str,
    target_branch_from: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'a ResolvedTarget>,
    /// The branch the commits were made on, and its environment: each commit is judged as
    /// a commit there.
    head_branch: &'a str,
    head_branch_from: &'a str,
    head_target: &'a ResolvedTarget,
    /// What the run found beside the decisions (a shadowed reference, a changed workflow).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<&'a str>,
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
    /// What the test runner no longer collects (`[tests] collect`, the range only).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    uncollected: &'a [crate::tamper::Uncollected],
}

impl<'a> JudgedJson<'a> {
    fn new(judgement: &'a Judgement) -> Self {
        Self {
            intent: &judgement.intent,
            decision: DecisionOutput::from_decision(&judgement.decision),
            verdict: judgement.decision.verdict,
            deciding_rules: &judgement.decision.deciding_rules,
            approval: judgement.approval.as_deref(),
            uncollected: judgement
                .tamper
                .as_ref()
                .map_or(&[], |report| report.uncollected.as_slice()),
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
