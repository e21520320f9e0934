//! The report of a judged change: its context lines, its sections and notes, and the text
//! and JSON a person or an agent reads when a commit is stopped.

use std::io::Write;

use serde::Serialize;

use crate::cli::Format;
use crate::git::Change;
use crate::intent::ResolvedActor;
use crate::policy::{FILE_NAME, Policy};
use crate::report::{
    ContextLine, Explanation, Section, TextReport, decision_json, explain_sections, write_json,
};
use crate::tamper::{self, TamperReport};

use super::{Asked, Judgement, ResolvedTarget, commit_next_steps};

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

/// A finding as the report lists it: `file:line  what: the line`.
fn finding_line(finding: &tamper::Finding) -> String {
    let what = match finding.kind {
        tamper::FindingKind::TestRemoved => "test removed",
        tamper::FindingKind::TestAdded => "test added",
        tamper::FindingKind::SkipAdded => "skip added",
        tamper::FindingKind::SkipRemoved => "skip removed",
        tamper::FindingKind::AssertionRemoved => "assertion removed",
        tamper::FindingKind::AssertionAdded => "assertion added",
        tamper::FindingKind::TestDisabled => "test disabled",
        tamper::FindingKind::TestEnabled => "test enabled",
        tamper::FindingKind::DeadCodeAdded => "code below no longer runs",
        tamper::FindingKind::DeadCodeRemoved => "code below runs again",
        tamper::FindingKind::AssertionWeakened => "assertion weakened",
        tamper::FindingKind::WeakAssertionRemoved => "weak assertion removed",
        tamper::FindingKind::TestConfigChanged => "test setting changed",
    };
    let side = match finding.side {
        tamper::Side::Old => " (old)",
        tamper::Side::New => "",
    };
    if finding.line == 0 {
        // A setting of a runner configuration file, named rather than located.
        return format!("{}  {what}: {}", finding.path, finding.text);
    }
    format!(
        "{}:{}{side}  {what}: {}",
        finding.path, finding.line, finding.text
    )
}

/// `tools/sel.py  a pytest plugin (conftest.py registers it): …` for a file the
/// repository loads with the tests.
fn loaded_line(file: &tamper::FileTamper) -> Option<String> {
    let loaded = file.loaded_by.as_ref()?;
    let by = &loaded.path;
    // By what the file is, not what the gate looked it up as: a test directory's plugin
    // module with changed hooks has no `harness`, and is no setup file.
    let what = match file.language {
        _ if loaded.hooks => format!("a pytest plugin ({by} registers it)"),
        tamper::Language::Python => format!("test support code ({by} imports it)"),
        _ => format!("a test setup file ({by} names it)"),
    };
    Some(format!(
        "{}  {what}: its code runs with the tests",
        file.path
    ))
}

/// The test-tampering findings, `file:line  what: the line`, when there are any; then the
/// changed lines in Rust test code of files with no finding (`src/lib.rs:8  changed in test
/// code: assert_eq!(…)`), which make a change that counts nothing a test change.
pub fn tamper_section(judgement: &Judgement) -> Option<Section> {
    let report = judgement.tamper.as_ref()?;
    let findings: Vec<&tamper::Finding> = report.findings().collect();
    let in_items: Vec<String> = report
        .test_changes()
        .filter(|file| file.findings.is_empty())
        .filter_map(|file| {
            if let Some(line) = loaded_line(file) {
                return Some(line);
            }
            let at = file.test_item_line.as_ref()?;
            let side = match at.side {
                tamper::Side::Old => " (old)",
                tamper::Side::New => "",
            };
            let what = match at.what {
                tamper::TestLineKind::TestCode => "changed in test code",
                tamper::TestLineKind::Doctest => "changed in a doctest",
                tamper::TestLineKind::PytestHook
                    if at.text.trim_start().starts_with("pytest_plugins") =>
                {
                    "pytest plugins registered: the module is a pytest plugin, run with the tests"
                }
                tamper::TestLineKind::PytestHook => {
                    "a pytest hook: the module is a pytest plugin, run with the tests"
                }
                tamper::TestLineKind::ModuleDeclaration => {
                    "a module's declaration changed (its tests build with it)"
                }
            };
            Some(format!(
                "{}:{}{side}  {what}: {}",
                file.path, at.line, at.text
            ))
        })
        .collect();
    if findings.is_empty() && in_items.is_empty() && report.uncollected.is_empty() {
        return None;
    }
    let mut lines: Vec<String> = findings
        .iter()
        .take(FINDINGS_SHOWN)
        .map(|finding| finding_line(finding))
        .collect();
    if findings.len() > FINDINGS_SHOWN {
        lines.push(format!("and {} more", findings.len() - FINDINGS_SHOWN));
    }
    lines.extend(uncollected_lines(report));
    let only_items = findings.is_empty() && report.uncollected.is_empty();
    lines.extend(in_items);
    if only_items {
        return Some(Section {
            title: "test changes".to_owned(),
            lines,
        });
    }
    let mut extra = String::new();
    if report.assertions_weakened > 0 {
        extra.push_str(&format!(
            ", {} assertion{} weakened",
            report.assertions_weakened,
            if report.assertions_weakened == 1 {
                ""
            } else {
                "s"
            }
        ));
    }
    if report.test_config_changed > 0 {
        extra.push_str(&format!(
            ", {} test setting{} changed",
            report.test_config_changed,
            if report.test_config_changed == 1 {
                ""
            } else {
                "s"
            }
        ));
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
        ) + &extra,
        lines,
    })
}

/// The tests the runner no longer collects (`[tests] collect`), a few per command.
fn uncollected_lines(report: &tamper::TamperReport) -> Vec<String> {
    let mut lines = Vec::new();
    for run in &report.uncollected {
        // The runner's output comes from the change's configuration: one line each, with
        // control characters escaped.
        lines.extend(run.tests.iter().take(FINDINGS_SHOWN).map(|test| {
            format!(
                "no longer collected: {}  (listed by `{}`)",
                crate::report::one_line(test),
                run.command
            )
        }));
        if run.tests.len() > FINDINGS_SHOWN {
            lines.push(format!(
                "and {} more no longer listed by `{}`",
                run.tests.len() - FINDINGS_SHOWN,
                run.command
            ));
        }
    }
    lines
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

/// Writes the judgement's diagnostics (invalid staged or committed policy) to `out` (stderr),
/// in colour when `colour`.
pub fn write_policy_diagnostics(
    judgement: &Judgement,
    out: &mut dyn Write,
    colour: bool,
) -> std::io::Result<()> {
    if let Some(diagnostics) = &judgement.staged_policy {
        writeln!(out, "astrix: the staged {FILE_NAME} does not validate:")?;
        diagnostics.render(out, colour)?;
    }
    if let Some(diagnostics) = &judgement.policy.committed_invalid {
        writeln!(
            out,
            "astrix: the committed {FILE_NAME} does not validate; the built-in default policy judges until it is repaired:"
        )?;
        diagnostics.render(out, colour)?;
    }
    Ok(())
}

/// Renders the judgement as text or JSON to `out`, for whoever `asked`.
pub fn write_report(
    judgement: &Judgement,
    out: &mut dyn Write,
    style: crate::report::style::Style,
    format: Format,
    explain: bool,
    asked: Asked,
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
        Format::Text => write_text_report(
            judgement,
            out,
            style,
            match asked {
                Asked::PreCommit { .. } | Asked::ByCommit => "this commit",
                Asked::ByHand => "the staged change",
            },
            commit_next_steps(
                &judgement.policy.loaded.policy,
                &judgement.decision,
                &judgement.actor,
                &judgement.target,
                asked,
            ),
            explain,
        ),
    }
}

/// Renders the judgement of `subject` as text, with `next_steps`.
pub fn write_text_report(
    judgement: &Judgement,
    out: &mut dyn Write,
    style: crate::report::style::Style,
    subject: &str,
    next_steps: Vec<String>,
    explain: bool,
) -> std::io::Result<()> {
    TextReport {
        subject,
        decision: &judgement.decision,
        context: context_lines(judgement),
        sections: tamper_section(judgement)
            .into_iter()
            .chain(
                explain
                    .then(|| {
                        explain_sections(&judgement.intent, &judgement.policy.loaded.provenance)
                    })
                    .into_iter()
                    .flatten(),
            )
            .collect(),
        notes: notes(judgement),
        next_steps,
        explain,
    }
    .write(out, style)
}
