//! Renderers for the blast radius and the impacted tests: a tree for people, a Mermaid
//! flowchart for pull requests, and the tables of a test run. JSON is the data's own
//! serialisation ([`crate::impact::BlastRadius`]).

use std::fmt::Write as _;
use std::io::{self, Write};

use super::style::Style;
use crate::impact::analysis::{Affected, BlastRadius, ImpactedTests, Reason};
use crate::impact::graph::ComponentGraph;
use crate::impact::run::TestResult;

/// How many changed files a direct component lists before "and N more".
const FILES_SHOWN: usize = 5;
/// How many names a "not affected" line lists before it only counts them.
const NAMES_SHOWN: usize = 12;
/// How many reasons the Mermaid note lists.
const NOTE_REASONS: usize = 3;

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `name  ecosystem · dir`.
fn label(affected: &Affected, style: Style) -> String {
    let place = match &affected.root {
        Some(root) => format!("{} · {root}", affected.ecosystem),
        None => affected.ecosystem.to_string(),
    };
    format!(
        "{}  {}",
        style.bold().paint(&affected.name),
        style.dim().paint(&place)
    )
}

/// The one-line summary: how many files changed, how many components are affected.
pub fn headline(radius: &BlastRadius) -> String {
    let files = plural(radius.changed_files.len(), "changed file", "changed files");
    if radius.components.is_empty() {
        return if radius.all_affected {
            format!("{files}; the repository has no components, so nothing can be affected")
        } else {
            format!("{files}; no component is affected")
        };
    }
    format!(
        "{files} → {} of {} affected",
        radius.components.len(),
        plural(radius.total_components, "component", "components")
    )
}

/// The blast radius as a tree: each direct component with its changed files, and below it
/// the components that depend on it (each under the first dependency path that reaches it).
pub fn write_blast_text(
    radius: &BlastRadius,
    graph: &ComponentGraph,
    out: &mut dyn Write,
    style: Style,
) -> io::Result<()> {
    writeln!(out, "{}", style.bold().paint(&headline(radius)))?;
    if radius.all_affected {
        writeln!(out)?;
        writeln!(out, "{}", style.yellow().paint("everything is affected:"))?;
        for reason in &radius.all_reasons {
            writeln!(out, "  {}", reason.describe())?;
        }
    }
    if !radius.components.is_empty() {
        writeln!(out)?;
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); radius.components.len()];
    let position: std::collections::HashMap<usize, usize> = radius
        .components
        .iter()
        .enumerate()
        .map(|(position, affected)| (affected.index, position))
        .collect();
    let mut roots = Vec::new();
    for (index, affected) in radius.components.iter().enumerate() {
        match affected.via.and_then(|via| position.get(&via)) {
            Some(&parent) => children[parent].push(index),
            None => roots.push(index),
        }
    }
    // Depth first, with an explicit stack: a long dependency chain must not overflow it.
    // Each entry: (component, prefix of its line, connector, prefix of what is below it).
    let mut stack: Vec<(usize, String, &str, String)> = roots
        .iter()
        .rev()
        .map(|&root| (root, String::new(), "", String::new()))
        .collect();
    while let Some((index, prefix, connector, below)) = stack.pop() {
        let affected = &radius.components[index];
        writeln!(out, "{prefix}{connector}{}", label(affected, style))?;
        let bar = if children[index].is_empty() {
            "  "
        } else {
            "│ "
        };
        for line in detail_lines(affected, radius.all_affected) {
            writeln!(out, "{below}{bar}{}", style.dim().paint(&line))?;
        }
        let count = children[index].len();
        for (order, &child) in children[index].iter().enumerate().rev() {
            let last = order + 1 == count;
            let (connector, more) = if last {
                ("└── ", "    ")
            } else {
                ("├── ", "│   ")
            };
            stack.push((child, below.clone(), connector, format!("{below}{more}")));
        }
    }
    writeln!(out)?;
    let not_affected = graph.components.len() - radius.components.len();
    if not_affected > 0 {
        let names: Vec<&str> = graph
            .components
            .iter()
            .enumerate()
            .filter(|(index, _)| !position.contains_key(index))
            .map(|(_, component)| component.name.as_str())
            .collect();
        if names.len() <= NAMES_SHOWN {
            writeln!(out, "not affected: {}", names.join(", "))?;
        } else {
            writeln!(
                out,
                "not affected: {}",
                plural(names.len(), "component", "components")
            )?;
        }
    }
    if !radius.ignored_files.is_empty() {
        writeln!(out, "ignored: {}", radius.ignored_files.join(", "))?;
    }
    write_workspaces(graph, out, style)
}

/// What is shown under a component: its changed files (bounded), and dependency paths
/// beyond the first (which the tree already shows). Reasons that affect everything are
/// listed once, above the tree.
fn detail_lines(affected: &Affected, all_affected: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut files = 0;
    for reason in &affected.reasons {
        match reason {
            Reason::File { .. } | Reason::WorkspaceManifest { .. } => {
                files += 1;
                if files <= FILES_SHOWN {
                    lines.push(reason.describe());
                }
            }
            Reason::Dependency { .. } => {}
            Reason::Global { .. } | Reason::Unowned { .. } | Reason::Problem { .. } => {
                debug_assert!(all_affected);
            }
        }
    }
    if files > FILES_SHOWN {
        lines.push(format!("and {} more", files - FILES_SHOWN));
    }
    for reason in affected
        .reasons
        .iter()
        .filter(|reason| matches!(reason, Reason::Dependency { .. }))
        .skip(1)
    {
        lines.push(format!("also {}", reason.describe()));
    }
    lines
}

fn write_workspaces(graph: &ComponentGraph, out: &mut dyn Write, style: Style) -> io::Result<()> {
    let declared = graph
        .components
        .iter()
        .filter(|component| component.ecosystem == crate::impact::Ecosystem::Declared)
        .count();
    let mut parts: Vec<String> = graph
        .workspaces
        .iter()
        .map(|workspace| {
            let via = match workspace.via {
                crate::impact::discover::Via::CargoMetadata => ", read by cargo metadata",
                crate::impact::discover::Via::Manifests => "",
            };
            format!(
                "{} `{}` ({}{via})",
                workspace.ecosystem,
                workspace.manifest,
                plural(workspace.packages, "package", "packages")
            )
        })
        .collect();
    if declared > 0 {
        parts.push(format!("{declared} declared in Astrixfile.ax"));
    }
    if parts.is_empty() {
        parts.push("none (no workspace discovered, no [[component]] declared)".to_owned());
    }
    writeln!(
        out,
        "{}",
        style
            .dim()
            .paint(&format!("components: {}", parts.join("; ")))
    )
}

/// The affected subgraph as a Mermaid flowchart in a Markdown code block, ready for a pull
/// request comment or a job summary: changed components highlighted, edges from each
/// affected component to the affected components it depends on.
pub fn write_mermaid(
    radius: &BlastRadius,
    graph: &ComponentGraph,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut text = String::from("```mermaid\nflowchart LR\n");
    if radius.components.is_empty() {
        let _ = writeln!(text, "  none[\"{}\"]", mermaid_text(&headline(radius)));
    }
    let affected: std::collections::HashMap<usize, usize> = radius
        .components
        .iter()
        .enumerate()
        .map(|(position, affected)| (affected.index, position))
        .collect();
    for (position, component) in radius.components.iter().enumerate() {
        let _ = writeln!(text, "  c{position}[\"{}\"]", mermaid_text(&component.name));
    }
    for (position, component) in radius.components.iter().enumerate() {
        for dependency in &graph.components[component.index].dependencies {
            if let Some(target) = affected.get(dependency) {
                let _ = writeln!(text, "  c{position} --> c{target}");
            }
        }
    }
    if radius.all_affected {
        let mut reasons: Vec<String> = radius
            .all_reasons
            .iter()
            .take(NOTE_REASONS)
            .map(Reason::describe)
            .collect();
        if radius.all_reasons.len() > NOTE_REASONS {
            reasons.push(format!(
                "and {} more",
                radius.all_reasons.len() - NOTE_REASONS
            ));
        }
        let _ = writeln!(
            text,
            "  why[/\"everything is affected: {}\"/]",
            mermaid_text(&reasons.join("; "))
        );
    }
    let direct: Vec<String> = radius
        .components
        .iter()
        .enumerate()
        .filter(|(_, component)| component.direct)
        .map(|(position, _)| format!("c{position}"))
        .collect();
    if !direct.is_empty() {
        text.push_str("  classDef changed fill:#ffe8cc,stroke:#e8590c,stroke-width:2px\n");
        let _ = writeln!(text, "  class {} changed", direct.join(","));
    }
    text.push_str("```\n");
    out.write_all(text.as_bytes())
}

/// Text for a quoted Mermaid label: quotes and markup characters as entities.
fn mermaid_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '#' => out.push_str("#35;"),
            ch if ch.is_control() => out.push(' '),
            ch => out.push(ch),
        }
    }
    out
}

/// The impacted tests, one per line: component and command.
pub fn write_tests_text(
    tests: &ImpactedTests,
    radius: &BlastRadius,
    out: &mut dyn Write,
    style: Style,
) -> io::Result<()> {
    writeln!(out, "{}", style.bold().paint(&headline(radius)))?;
    if radius.all_affected {
        let first = radius
            .all_reasons
            .first()
            .map(Reason::describe)
            .unwrap_or_default();
        let more = radius.all_reasons.len() - 1;
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        writeln!(
            out,
            "{} {first}{more}",
            style.yellow().paint("everything is affected:")
        )?;
    }
    if tests.tests.is_empty() {
        writeln!(out, "no tests to run")?;
    } else {
        writeln!(out)?;
        let width = tests
            .tests
            .iter()
            .map(|test| test.component.chars().count())
            .max()
            .unwrap_or(0);
        for test in &tests.tests {
            let also = if test.also_for.is_empty() {
                String::new()
            } else {
                format!("  (also for {})", test.also_for.join(", "))
            };
            let padding = " ".repeat(width - test.component.chars().count());
            writeln!(
                out,
                "  {}{padding}  {}{}",
                style.bold().paint(&test.component),
                test.command,
                style.dim().paint(&also)
            )?;
        }
    }
    if !tests.untested.is_empty() {
        writeln!(out)?;
        writeln!(out, "no test command: {}", tests.untested.join(", "))?;
    }
    Ok(())
}

/// `1.2s`.
pub fn duration(ms: u64) -> String {
    format!("{}.{}s", ms / 1000, (ms % 1000) / 100)
}

/// `passed`, `failed (exit 1)`, `failed (signal)`.
pub fn result_text(result: &TestResult) -> String {
    match (result.passed, result.exit_code) {
        (true, _) => "passed".to_owned(),
        (false, Some(code)) => format!("failed (exit {code})"),
        (false, None) => "failed (killed by a signal)".to_owned(),
    }
}

/// The summary table of a run: component, command, result, duration; then the totals.
pub fn write_results_table(
    results: &[TestResult],
    out: &mut dyn Write,
    style: Style,
) -> io::Result<()> {
    let rows: Vec<[String; 4]> = results
        .iter()
        .map(|result| {
            [
                result.component.clone(),
                result.command.clone(),
                result_text(result),
                duration(result.duration_ms),
            ]
        })
        .collect();
    let header = [
        "component".to_owned(),
        "command".to_owned(),
        "result".to_owned(),
        "duration".to_owned(),
    ];
    let mut widths = [0; 4];
    for row in std::iter::once(&header).chain(&rows) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let pad = |cell: &str, width: usize| " ".repeat(width - cell.chars().count());
    writeln!(
        out,
        "{}",
        style.dim().paint(&format!(
            "{}{}  {}{}  {}{}  {}",
            header[0],
            pad(&header[0], widths[0]),
            header[1],
            pad(&header[1], widths[1]),
            header[2],
            pad(&header[2], widths[2]),
            header[3]
        ))
    )?;
    for (row, result) in rows.iter().zip(results) {
        let paint = if result.passed {
            style.green()
        } else {
            style.red()
        };
        writeln!(
            out,
            "{}{}  {}{}  {}{}  {}",
            row[0],
            pad(&row[0], widths[0]),
            row[1],
            pad(&row[1], widths[1]),
            paint.paint(&row[2]),
            pad(&row[2], widths[2]),
            row[3]
        )?;
    }
    let failed = results.iter().filter(|result| !result.passed).count();
    let passed = results.len() - failed;
    writeln!(out)?;
    let totals = format!("{passed} passed, {failed} failed");
    if failed == 0 {
        writeln!(out, "{}", style.green().paint(&totals))
    } else {
        writeln!(out, "{}", style.red().paint(&totals))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mermaid_labels_are_escaped() {
        assert_eq!(mermaid_text("a\"b<c>#"), "a#quot;b#lt;c#gt;#35;");
    }

    #[test]
    fn durations_have_tenths() {
        assert_eq!(duration(1234), "1.2s");
        assert_eq!(duration(5), "0.0s");
    }
}
