//! Renderers for decisions: text for the person or agent whose action was stopped, JSON
//! for programs. Both write to `&mut dyn Write`.
//!
//! The JSON decision is exactly SPEC §5's four fields; `--explain` adds fields beside them.

use std::io::{self, Write};

use schemars::JsonSchema;
use serde::Serialize;

use crate::eval::{Decision, RuleOutcome};
use crate::intent::ActionIntent;
use crate::policy::Verdict;

pub mod impact;
pub mod style;

use style::Style;

/// How many files a report lists per rule before "and N more".
const FILES_SHOWN: usize = 5;

/// The decision as the published tool schema has it (SPEC §5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisionOutput {
    /// True when the action may go ahead: allowed, or held and already approved.
    pub allowed: bool,
    /// True when a rule denies the action; approval cannot lift a denial.
    pub denied: bool,
    /// True when the action needs a human's approval (whether or not it is recorded).
    pub requires_approval: bool,
    /// Every rule that produced the decision, with its reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub reason: Option<String>,
}

impl DecisionOutput {
    /// The four published fields of a decision.
    pub fn from_decision(decision: &Decision) -> Self {
        Self {
            allowed: decision.allowed(),
            denied: decision.denied(),
            requires_approval: decision.requires_approval(),
            reason: Some(decision.reason.clone()),
        }
    }
}

/// Where the policy that decided came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PolicyProvenance {
    /// `file`, `head`, `index`, `branch`, `target` (`astrix ci`) or `built-in`.
    pub source: String,
    /// The file the policy was read from, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The revision the policy was read at, when it came from git.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// `sha256:` digest of the policy text.
    pub digest: String,
    /// A sentence for people: where the policy came from and why.
    pub description: String,
}

/// The `--explain` additions.
#[derive(Debug, Clone, Serialize)]
pub struct Explanation<'a> {
    /// The intent that was evaluated.
    pub intent: &'a ActionIntent,
    /// Where the policy came from.
    pub policy: &'a PolicyProvenance,
    /// `modifies_tests` after escalation by `[tests].paths`.
    pub modifies_tests: bool,
    /// The modified file whose path escalated `modifies_tests`, if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modifies_tests_escalated_by: Option<&'a str>,
    /// Whether the policy's default decided.
    pub default_used: bool,
    /// The ids of the deciding rules.
    pub deciding_rules: &'a [String],
    /// Every rule's outcome, in file order.
    pub rules: &'a [RuleOutcome],
}

impl<'a> Explanation<'a> {
    /// The explanation of `decision`.
    pub fn new(
        decision: &'a Decision,
        intent: &'a ActionIntent,
        policy: &'a PolicyProvenance,
    ) -> Self {
        Self {
            intent,
            policy,
            modifies_tests: decision.modifies_tests,
            modifies_tests_escalated_by: decision.modifies_tests_escalated_by.as_deref(),
            default_used: decision.default_used,
            deciding_rules: &decision.deciding_rules,
            rules: &decision.outcomes,
        }
    }
}

/// The JSON of a decision, with the explanation's fields beside SPEC §5's when given.
pub fn decision_json(
    decision: &Decision,
    explanation: Option<&Explanation<'_>>,
) -> serde_json::Value {
    let mut value = serde_json::to_value(DecisionOutput::from_decision(decision))
        .unwrap_or(serde_json::Value::Null);
    if let (Some(explanation), serde_json::Value::Object(map)) = (explanation, &mut value)
        && let Ok(serde_json::Value::Object(extra)) = serde_json::to_value(explanation)
    {
        map.extend(extra);
    }
    value
}

/// Writes `value` as indented JSON and a newline.
pub fn write_json(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    let mut text = serde_json::to_vec_pretty(value)?;
    // `##[` can only be inside a string: written `##\u005b`, it parses to the same text,
    // and a CI runner does not read it as a workflow command (`##[error]…`).
    if memchr::memmem::find(&text, b"##[").is_some() {
        let mut escaped = Vec::with_capacity(text.len() + 16);
        let mut at = 0;
        for found in memchr::memmem::find_iter(&text, b"##[") {
            escaped.extend_from_slice(&text[at..found]);
            escaped.extend_from_slice(b"##\\u005b");
            at = found + 3;
        }
        escaped.extend_from_slice(&text[at..]);
        text = escaped;
    }
    out.write_all(&text)?;
    writeln!(out)
}

/// A line of context in the text report ("actor: …", "target: …").
#[derive(Debug, Clone)]
pub struct ContextLine {
    /// The label.
    pub label: &'static str,
    /// The text.
    pub text: String,
}

/// A titled list in a text report.
#[derive(Debug, Clone)]
pub struct Section {
    /// The title.
    pub title: String,
    /// One entry per line.
    pub lines: Vec<String>,
}

/// What text `--explain` adds before the rules table: the intent that was evaluated, and
/// where the policy came from (file, revision, digest) — with the built-in default, whose
/// line numbers are those of the file `astrix init` writes.
pub fn explain_sections(intent: &ActionIntent, policy: &PolicyProvenance) -> Vec<Section> {
    let mut lines = vec![one_line(&policy.description).into_owned()];
    if let Some(file) = &policy.file {
        lines.push(format!("file      {}", one_line(file)));
    }
    if let Some(revision) = &policy.revision {
        lines.push(format!("revision  {}", one_line(revision)));
    }
    if !policy.digest.is_empty() {
        lines.push(format!("digest    {}", policy.digest));
    }
    if policy.source == "built-in" {
        lines.push(
            "the line numbers below are those of the built-in default policy, which `astrix init` writes as Astrixfile.ax"
                .to_owned(),
        );
    }
    vec![
        Section {
            title: "intent".to_owned(),
            lines: vec![one_line(&intent.to_json()).into_owned()],
        },
        Section {
            title: "policy".to_owned(),
            lines,
        },
    ]
}

/// Everything the text report of a decision shows.
#[derive(Debug, Clone)]
pub struct TextReport<'a> {
    /// What was judged, e.g. "this action" or "this commit".
    pub subject: &'a str,
    /// The decision.
    pub decision: &'a Decision,
    /// Context lines (actor, target, policy), in order.
    pub context: Vec<ContextLine>,
    /// Titled lists shown after the deciding rules (e.g. the test-tampering findings).
    pub sections: Vec<Section>,
    /// Extra notes shown before the next steps (e.g. an invalid committed policy).
    pub notes: Vec<String>,
    /// What to do next, most useful first.
    pub next_steps: Vec<String>,
    /// Every rule's outcome, not only the deciding ones.
    pub explain: bool,
}

impl TextReport<'_> {
    /// Renders the report.
    pub fn write(&self, out: &mut dyn Write, style: Style) -> io::Result<()> {
        let decision = self.decision;
        let (word, paint) = match (decision.verdict, decision.approved) {
            (Verdict::Allow, _) => ("allowed", style.green()),
            (Verdict::RequireApproval, true) => ("allowed (approved)", style.green()),
            (Verdict::RequireApproval, false) => ("held for approval", style.yellow()),
            (Verdict::Deny, _) => ("denied", style.red()),
        };
        let summary = if decision.default_used {
            format!(
                "no rule matched, so the policy's default `{}` applies",
                decision.verdict
            )
        } else {
            let count = decision.deciding_rules.len();
            let one = count == 1;
            let verb = match decision.verdict {
                Verdict::Allow if one => "allows",
                Verdict::Allow => "allow",
                Verdict::RequireApproval if one => "requires a human's approval for",
                Verdict::RequireApproval => "require a human's approval for",
                Verdict::Deny if one => "denies",
                Verdict::Deny => "deny",
            };
            format!(
                "{count} rule{} {verb} {}",
                if one { "" } else { "s" },
                self.subject
            )
        };
        writeln!(
            out,
            "{}: {summary}",
            paint.paint(&format!("astrix: {word}"))
        )?;

        for outcome in decision.deciding_outcomes() {
            write_outcome(out, outcome, style)?;
        }
        if decision.default_used {
            writeln!(out, "  {}", one_line(&decision.reason))?;
        }
        for section in &self.sections {
            writeln!(out)?;
            writeln!(out, "{}", style.bold().paint(&section.title))?;
            for line in &section.lines {
                writeln!(out, "  {line}")?;
            }
        }
        if self.explain {
            writeln!(out)?;
            writeln!(out, "{}", style.bold().paint("rules"))?;
            for outcome in &decision.outcomes {
                let status = match (outcome.contributes, outcome.unmatched_condition) {
                    (Some(verdict), _) => format!("contributes `{verdict}`"),
                    (None, Some(condition)) => format!("no match ({condition})"),
                    (None, None) => "no match".to_owned(),
                };
                writeln!(
                    out,
                    "  {:<28} line {:<4} {status}",
                    outcome.id, outcome.line
                )?;
                if let Some(policy) = &outcome.policy {
                    writeln!(out, "  {:<28}           {}", "", policy.detail)?;
                }
            }
        }
        if !self.context.is_empty() {
            writeln!(out)?;
            let width = self
                .context
                .iter()
                .map(|line| line.label.len())
                .max()
                .unwrap_or(0);
            for line in &self.context {
                writeln!(
                    out,
                    "  {}{}  {}",
                    style.dim().paint(line.label),
                    " ".repeat(width.saturating_sub(line.label.len())),
                    line.text
                )?;
            }
        }
        for note in &self.notes {
            writeln!(out)?;
            writeln!(out, "{} {note}", style.yellow().paint("note:"))?;
        }
        if !self.next_steps.is_empty() {
            writeln!(out)?;
            writeln!(out, "{}", style.bold().paint("next:"))?;
            for step in &self.next_steps {
                writeln!(out, "  - {step}")?;
            }
        }
        Ok(())
    }
}

/// Text from the repository (an author's name, a commit subject, a rule's reason) on one line
/// of a report: every control character written as an escape (`\r`, `\n`, `\t`,
/// `\u{1b}`), so that it cannot break the line, forge another, move the cursor or, after a
/// line break, start a GitHub Actions workflow command (`::set-env`).
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        if ch.is_control() {
            out.extend(ch.escape_debug());
        } else {
            out.push(ch);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A writer for a report's lines that no line of which is a GitHub Actions workflow command.
/// The runner reads a command from a line whose first characters other than whitespace
/// (any Unicode whitespace: a no-break space too) are `::`, and, in its older form, from
/// `##[…]` anywhere in a line, on stdout and stderr alike; a line ends at `\n` or `\r`. Such a
/// line gets a `\\` before its `::`, and `##[` becomes `## [`. The workflow commands astrix
/// means to give are written around it. Lines are held until their end (or
/// [`Self::finish`]).
pub struct NoWorkflowCommands<'w> {
    out: &'w mut dyn io::Write,
    /// The current line, up to its end.
    line: Vec<u8>,
}

impl<'w> NoWorkflowCommands<'w> {
    pub fn new(out: &'w mut dyn io::Write) -> Self {
        Self {
            out,
            line: Vec::new(),
        }
    }

    /// Writes what is held back of an unfinished line.
    pub fn finish(mut self) -> io::Result<()> {
        self.release()?;
        self.out.flush()
    }

    fn release(&mut self) -> io::Result<()> {
        let line = std::mem::take(&mut self.line);
        self.out.write_all(&no_workflow_command(&line))
    }
}

/// `line` as [`NoWorkflowCommands`] writes it.
pub fn no_workflow_command(line: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let text = String::from_utf8_lossy(line);
    let blanks = text.len() - text.trim_start().len();
    let command = text[blanks..].starts_with("::");
    let legacy = memchr::memmem::find(line, b"##[").is_some();
    if !command && !legacy {
        return std::borrow::Cow::Borrowed(line);
    }
    // The blanks are whole characters of valid UTF-8, so their bytes are the line's own.
    let mut out = Vec::with_capacity(line.len() + 8);
    out.extend_from_slice(&line[..blanks]);
    if command {
        out.push(b'\\');
    }
    let rest = &line[blanks..];
    let mut at = 0;
    for found in memchr::memmem::find_iter(rest, b"##[") {
        out.extend_from_slice(&rest[at..found]);
        out.extend_from_slice(b"## [");
        at = found + 3;
    }
    out.extend_from_slice(&rest[at..]);
    std::borrow::Cow::Owned(out)
}

impl io::Write for NoWorkflowCommands<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // The runner ends a line at `\r` as well as at `\n` (.NET's `ReadLine`).
        let mut rest = buf;
        while let Some(end) = memchr::memchr2(b'\n', b'\r', rest) {
            self.line.extend_from_slice(&rest[..end]);
            self.release()?;
            self.out.write_all(&rest[end..=end])?;
            rest = &rest[end + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// A path as one line of a report: names with control characters (a newline could forge
/// report lines) are quoted with escapes.
pub fn display_path(path: &str) -> std::borrow::Cow<'_, str> {
    if path.chars().any(char::is_control) {
        std::borrow::Cow::Owned(format!("{path:?}"))
    } else {
        std::borrow::Cow::Borrowed(path)
    }
}

fn write_outcome(out: &mut dyn Write, outcome: &RuleOutcome, style: Style) -> io::Result<()> {
    writeln!(
        out,
        "  {} {}",
        style.bold().paint(&format!("[{}]", outcome.id)),
        one_line(&outcome.reason)
    )?;
    if !outcome.files.is_empty() {
        let shown: Vec<std::borrow::Cow<'_, str>> = outcome
            .files
            .iter()
            .take(FILES_SHOWN)
            .map(|file| display_path(file))
            .collect();
        let more = outcome.files_total.saturating_sub(shown.len());
        let mut text = shown.join(", ");
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        writeln!(out, "      {} {text}", style.dim().paint("files:"))?;
    }
    Ok(())
}

/// The next steps for an evaluated intent (not a commit).
pub fn intent_next_steps(decision: &Decision) -> Vec<String> {
    match (decision.verdict, decision.approved) {
        (Verdict::Allow, _) | (Verdict::RequireApproval, true) => Vec::new(),
        (Verdict::RequireApproval, false) => vec![
            "ask a human to approve this action; for a commit, a human runs `astrix approve` in the repository".to_owned(),
            "or change the action so that no rule holds it (see the reasons above)".to_owned(),
        ],
        (Verdict::Deny, _) => vec![
            "approval cannot lift a denial: change the action so that no rule denies it (see the reasons above)".to_owned(),
        ],
    }
}

#[cfg(test)]
mod workflow_command_tests {
    use super::*;

    #[test]
    fn no_line_gives_a_workflow_command() {
        for (line, written) in [
            ("::error::x", "\\::error::x"),
            ("  ::warning::x", "  \\::warning::x"),
            ("\u{a0}::error::forged", "\u{a0}\\::error::forged"),
            (
                "  203522f11107  ##[error]forged  human",
                "  203522f11107  ## [error]forged  human",
            ),
            ("a ##[stop-commands]t ##[x]", "a ## [stop-commands]t ## [x]"),
            ("plain: ok", "plain: ok"),
        ] {
            assert_eq!(
                String::from_utf8_lossy(&no_workflow_command(line.as_bytes())),
                written
            );
        }
    }

    #[test]
    fn a_carriage_return_ends_a_line_too() {
        use std::io::Write as _;
        let mut out = Vec::new();
        let mut guarded = super::NoWorkflowCommands::new(&mut out);
        write!(guarded, "error: `x\r::add-mask::p` is malformed\n##[x]").unwrap();
        guarded.finish().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out),
            "error: `x\r\\::add-mask::p` is malformed\n## [x]"
        );
    }

    #[test]
    fn untrusted_text_stays_on_one_line() {
        assert_eq!(
            one_line("Eve\r::set-env name=X::y"),
            r"Eve\r::set-env name=X::y"
        );
        assert_eq!(one_line("a\nb\t\u{1b}[2J\u{85}"), r"a\nb\t\u{1b}[2J\u{85}");
        assert!(matches!(
            one_line("plain"),
            std::borrow::Cow::Borrowed("plain")
        ));
    }

    #[test]
    fn lines_that_would_be_workflow_commands_are_escaped() {
        let mut out = Vec::new();
        let mut guard = NoWorkflowCommands::new(&mut out);
        // Written in pieces, as `write!` writes.
        for piece in [
            &b"  :"[..],
            b":set-output name=a::b\n::\n:x\nok :: fine\n",
            b"\t::e",
        ] {
            guard.write_all(piece).unwrap();
        }
        guard.finish().unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "  \\::set-output name=a::b\n\\::\n:x\nok :: fine\n\t\\::e"
        );
    }
}
