//! Diagnostics for Astrixfile.ax: the one renderer for every problem found in a policy file.
//!
//! TOML syntax errors and semantic errors become the same [`Diagnostic`], so they look the
//! same to the user: a stable kebab-case [`Code`], a one-line message, the offending text
//! underlined at `file:line:col`, and an optional help line. [`Diagnostics::render`] writes
//! the text form (through `annotate-snippets`), [`Diagnostics::to_json`] the JSON form.
//!
//! Spans come from parsers and may be empty, reversed, inside a UTF-8 sequence or past the
//! end of the file; rendering clamps them and never panics. Lines and columns are 1-based,
//! and columns count characters, not bytes.

use std::io::{self, Write};
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use serde_json::json;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The file is not loaded.
    Error,
    /// The file loads, but probably does not mean what its author intended.
    Warning,
}

impl Severity {
    /// The name used in the text and JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Every diagnostic code, in one place. The strings are stable: scripts and docs use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// The file is larger than astrix reads ([`crate::policy::MAX_POLICY_BYTES`]).
    FileTooLarge,
    /// The file is not valid TOML (or nests deeper than astrix reads).
    TomlSyntax,
    /// A key or table that astrix does not know.
    UnknownKey,
    /// A value of the wrong TOML type.
    WrongType,
    /// A required key is absent.
    MissingKey,
    /// `version` is not one this astrix reads.
    UnsupportedVersion,
    /// A decision that is not `allow`, `require_approval` or `deny`.
    UnknownDecision,
    /// A known decision where it is not allowed (`allow` on a rule with a `policy`).
    InvalidDecision,
    /// A rule without `policy` has no `decision`.
    MissingDecision,
    /// Two rules share an id.
    DuplicateRuleId,
    /// A rule id that is not lowercase kebab-case.
    InvalidRuleId,
    /// A path or branch pattern that does not compile.
    InvalidGlob,
    /// A numeric policy that does not parse.
    InvalidPolicy,
    /// A numeric policy names an argument that does not exist.
    UnknownArgument,
    /// A `[[test]]` intent that is not a valid intent (SPEC §2).
    InvalidIntent,
    /// Two `[[test]]` cases share a name.
    DuplicateTestName,
    /// An `[actors].agent_env` entry that is not an environment variable name.
    InvalidEnvVar,
    /// An empty string where a value is needed.
    EmptyValue,
    /// A duration (`[approval] ttl`) that is not a number with a unit.
    InvalidDuration,
    /// Two `[[component]]` entries share a name.
    DuplicateComponent,
    /// `depends_on` names a component that does not exist (checked in the file only when
    /// discovery is off; otherwise when the component graph is built).
    UnknownComponent,
    /// An `[impact] discover` entry that is not a directory of the repository.
    InvalidDirectory,
    /// Warning: a condition with an empty list, so the rule (or environment) never matches.
    EmptyCondition,
    /// Warning: a rule names an actor type that looks like a misspelt known one.
    UnknownActor,
    /// Warning: a rule names an environment that looks like a misspelt `[[environment]]`.
    UnknownEnv,
    /// Warning: declared components depend on each other in a cycle.
    ComponentCycle,
    /// A rule's `action` names something other than `commit` or `merge`.
    UnknownAction,
    /// A `[backstop] trusted_remotes` entry that is not a remote's name.
    InvalidRemote,
}

impl Code {
    /// Every code, errors first.
    pub const ALL: [Code; 28] = [
        Code::FileTooLarge,
        Code::TomlSyntax,
        Code::UnknownKey,
        Code::WrongType,
        Code::MissingKey,
        Code::UnsupportedVersion,
        Code::UnknownDecision,
        Code::InvalidDecision,
        Code::MissingDecision,
        Code::DuplicateRuleId,
        Code::InvalidRuleId,
        Code::InvalidGlob,
        Code::InvalidPolicy,
        Code::UnknownArgument,
        Code::InvalidIntent,
        Code::DuplicateTestName,
        Code::InvalidEnvVar,
        Code::EmptyValue,
        Code::InvalidDuration,
        Code::DuplicateComponent,
        Code::UnknownComponent,
        Code::InvalidDirectory,
        Code::EmptyCondition,
        Code::UnknownActor,
        Code::UnknownEnv,
        Code::ComponentCycle,
        Code::UnknownAction,
        Code::InvalidRemote,
    ];

    /// The stable kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::FileTooLarge => "file-too-large",
            Code::TomlSyntax => "toml-syntax",
            Code::UnknownKey => "unknown-key",
            Code::WrongType => "wrong-type",
            Code::MissingKey => "missing-key",
            Code::UnsupportedVersion => "unsupported-version",
            Code::UnknownDecision => "unknown-decision",
            Code::InvalidDecision => "invalid-decision",
            Code::MissingDecision => "missing-decision",
            Code::DuplicateRuleId => "duplicate-rule-id",
            Code::InvalidRuleId => "invalid-rule-id",
            Code::InvalidGlob => "invalid-glob",
            Code::InvalidPolicy => "invalid-policy",
            Code::UnknownArgument => "unknown-argument",
            Code::InvalidIntent => "invalid-intent",
            Code::DuplicateTestName => "duplicate-test-name",
            Code::InvalidEnvVar => "invalid-env-var",
            Code::EmptyValue => "empty-value",
            Code::InvalidDuration => "invalid-duration",
            Code::EmptyCondition => "empty-condition",
            Code::UnknownActor => "unknown-actor",
            Code::UnknownEnv => "unknown-env",
            Code::DuplicateComponent => "duplicate-component",
            Code::UnknownComponent => "unknown-component",
            Code::InvalidDirectory => "invalid-directory",
            Code::ComponentCycle => "component-cycle",
            Code::UnknownAction => "unknown-action",
            Code::InvalidRemote => "invalid-remote",
        }
    }

    /// Whether a problem with this code stops the file from loading.
    pub fn severity(self) -> Severity {
        match self {
            Code::EmptyCondition | Code::UnknownActor | Code::UnknownEnv | Code::ComponentCycle => {
                Severity::Warning
            }
            _ => Severity::Error,
        }
    }

    /// The code with this name.
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|code| code.as_str() == name)
    }
}

/// One problem in a policy file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Whether the problem stops the file from loading.
    pub severity: Severity,
    /// Stable kebab-case code, e.g. `unknown-key`, `duplicate-rule-id` (see [`Code`]).
    pub code: &'static str,
    /// Lowercase, one line, user values in backticks.
    pub message: String,
    /// Byte range in the source that the label underlines.
    pub span: Range<usize>,
    /// Short text under the underline.
    pub label: String,
    /// What to do about it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the severity of `code`, no label and no help.
    pub fn new(code: Code, span: Range<usize>, message: impl Into<String>) -> Self {
        Self {
            severity: code.severity(),
            code: code.as_str(),
            message: message.into(),
            span,
            label: String::new(),
            help: None,
        }
    }

    /// Sets the text under the underline.
    #[must_use]
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Sets the help line.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the help line when there is one.
    #[must_use]
    pub fn with_optional_help(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }
}

/// Every problem found in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics {
    /// The file name as shown to the user.
    pub file: String,
    /// The file's text.
    pub source: String,
    /// The problems, in the order they were found.
    pub items: Vec<Diagnostic>,
}

/// Excerpts longer than this are not shown: a pathological line would make every
/// diagnostic on it cost as much as the line, and nobody reads such a line anyway.
const MAX_EXCERPT: usize = 4096;

impl Diagnostics {
    /// An empty list for `file`.
    pub fn new(file: &str, source: &str) -> Self {
        Self {
            file: file.to_owned(),
            source: source.to_owned(),
            items: Vec::new(),
        }
    }

    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.items
            .iter()
            .any(|item| item.severity == Severity::Error)
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.count(Severity::Error)
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.count(Severity::Warning)
    }

    fn count(&self, severity: Severity) -> usize {
        self.items
            .iter()
            .filter(|item| item.severity == severity)
            .count()
    }

    /// Renders every diagnostic as `file:line:col`, the source line with the offending text
    /// underlined, the label and the help line, then a summary line. ANSI colour is used
    /// only when `color` is true. Writes nothing when there is nothing to report.
    pub fn render(&self, out: &mut dyn Write, color: bool) -> io::Result<()> {
        if self.items.is_empty() {
            return Ok(());
        }
        let index = LineIndex::new(&self.source);
        let renderer = if color {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        let file = clean(&self.file);
        for item in &self.items {
            let group = self.group(item, &index, &file);
            writeln!(out, "{}", renderer.render(&[group]))?;
            writeln!(out)?;
        }
        self.render_summary(out, color)
    }

    /// The annotate-snippets report of one diagnostic.
    fn group<'a>(&'a self, item: &Diagnostic, index: &LineIndex, file: &'a str) -> Group<'a> {
        let level = match item.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let title = level.primary_title(clean(&item.message)).id(item.code);
        let mut span = clamp(&self.source, &item.span);
        let mut excerpt = index.excerpt(&self.source, &span);
        if excerpt.len() > MAX_EXCERPT {
            // A long multi-line span: underline its first line only.
            let first_line_end = self.source[span.start..]
                .find('\n')
                .map_or(self.source.len(), |offset| span.start + offset);
            span = span.start..first_line_end.max(span.start);
            excerpt = index.excerpt(&self.source, &span);
        }
        let mut group = Group::with_title(title);
        if excerpt.len() > MAX_EXCERPT {
            let (line, column) = index.position(&self.source, span.start);
            group = group.element(Origin::path(file).line(line).char_column(column));
            if !item.label.is_empty() {
                group = group.element(Level::NOTE.message(format!(
                    "{} (the line is too long to show)",
                    clean(&item.label)
                )));
            }
        } else {
            let (line, _) = index.position(&self.source, excerpt.start);
            let local = span.start - excerpt.start..span.end - excerpt.start;
            let mut annotation = AnnotationKind::Primary.span(local);
            if !item.label.is_empty() {
                annotation = annotation.label(clean(&item.label));
            }
            group = group.element(
                Snippet::source(&self.source[excerpt])
                    .line_start(line)
                    .path(file)
                    .fold(true)
                    .annotation(annotation),
            );
        }
        if let Some(help) = &item.help {
            group = group.element(Level::HELP.message(clean(help)));
        }
        group
    }

    fn render_summary(&self, out: &mut dyn Write, color: bool) -> io::Result<()> {
        let errors = self.error_count();
        let warnings = self.warning_count();
        let (severity, style) = if errors > 0 {
            ("error", "\x1b[1m\x1b[91m")
        } else {
            ("warning", "\x1b[1m\x1b[93m")
        };
        let counts = match (errors, warnings) {
            (0, w) => plural(w, "warning"),
            (e, 0) => plural(e, "error"),
            (e, w) => format!("{} and {}", plural(e, "error"), plural(w, "warning")),
        };
        let file = clean(&self.file);
        if color {
            writeln!(
                out,
                "{style}{severity}\x1b[0m\x1b[1m: {file} has {counts}\x1b[0m"
            )
        } else {
            writeln!(out, "{severity}: {file} has {counts}")
        }
    }

    /// The JSON form: `{"file", "errors", "warnings", "diagnostics": [...]}`, where each
    /// diagnostic has `severity`, `code`, `message`, `line`, `column`, `end_line`,
    /// `end_column`, `label` and `help`. Lines and columns are 1-based and count
    /// characters; the end position is just after the last underlined character.
    pub fn to_json(&self) -> serde_json::Value {
        let index = LineIndex::new(&self.source);
        let diagnostics: Vec<serde_json::Value> = self
            .items
            .iter()
            .map(|item| {
                let span = clamp(&self.source, &item.span);
                let (line, column) = index.position(&self.source, span.start);
                let (end_line, end_column) = index.position(&self.source, span.end);
                json!({
                    "severity": item.severity,
                    "code": item.code,
                    "message": item.message,
                    "line": line,
                    "column": column,
                    "end_line": end_line,
                    "end_column": end_column,
                    "label": item.label,
                    "help": item.help,
                })
            })
            .collect();
        json!({
            "file": self.file,
            "errors": self.error_count(),
            "warnings": self.warning_count(),
            "diagnostics": diagnostics,
        })
    }
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Replaces control characters (an escape sequence in a key, say) with visible ones, so
/// that a hostile file cannot drive the terminal.
fn clean(text: &str) -> String {
    annotate_snippets::normalize_untrusted_str(text)
}

/// `span` made safe for `source`: ordered, within the text, on character boundaries. A
/// span at the very end of a file that ends with a newline moves onto the last line.
pub(crate) fn clamp(source: &str, span: &Range<usize>) -> Range<usize> {
    let len = source.len();
    let mut start = span.start.min(len);
    let mut end = span.end.min(len).max(start);
    if start == len && end == len && source.ends_with('\n') {
        start = len - 1;
        end = len - 1;
        if start > 0 && source.as_bytes()[start - 1] == b'\r' {
            start -= 1;
            end -= 1;
        }
    }
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    while !source.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// Line starts of a text, and character counts at regular checkpoints, so that a
/// position costs a binary search plus a short scan however long the line is.
#[derive(Debug)]
pub(crate) struct LineIndex {
    /// Byte offset of the start of every line.
    line_starts: Vec<usize>,
    /// Characters before byte `i * CHECKPOINT` (checkpoints sit on character boundaries
    /// or just after them; see [`LineIndex::chars_before`]).
    checkpoints: Vec<usize>,
}

const CHECKPOINT: usize = 256;

impl LineIndex {
    /// Indexes `source`.
    pub(crate) fn new(source: &str) -> Self {
        let bytes = source.as_bytes();
        let mut line_starts = vec![0];
        let mut checkpoints = Vec::with_capacity(bytes.len() / CHECKPOINT + 1);
        let mut chars = 0;
        for (offset, &byte) in bytes.iter().enumerate() {
            if offset % CHECKPOINT == 0 {
                checkpoints.push(chars);
            }
            if !is_continuation(byte) {
                chars += 1;
            }
            if byte == b'\n' {
                line_starts.push(offset + 1);
            }
        }
        Self {
            line_starts,
            checkpoints,
        }
    }

    /// Number of characters that start before byte `offset`.
    fn chars_before(&self, source: &str, offset: usize) -> usize {
        let bytes = source.as_bytes();
        let offset = offset.min(bytes.len());
        let block = offset / CHECKPOINT;
        let Some(&base) = self.checkpoints.get(block) else {
            return bytes
                .iter()
                .take(offset)
                .filter(|&&b| !is_continuation(b))
                .count();
        };
        base + bytes
            .get(block * CHECKPOINT..offset)
            .unwrap_or_default()
            .iter()
            .filter(|&&b| !is_continuation(b))
            .count()
    }

    /// Index of the line that contains byte `offset`.
    fn line_index(&self, offset: usize) -> usize {
        self.line_starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1)
    }

    /// 1-based line and character column of byte `offset`.
    pub(crate) fn position(&self, source: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(source.len());
        let line = self.line_index(offset);
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let column = self.chars_before(source, offset) - self.chars_before(source, start);
        (line + 1, column + 1)
    }

    /// 1-based line of byte `offset`.
    pub(crate) fn line(&self, offset: usize) -> usize {
        self.line_index(offset) + 1
    }

    /// The whole lines that `span` touches, without the final line break.
    fn excerpt(&self, source: &str, span: &Range<usize>) -> Range<usize> {
        let first = self.line_index(span.start);
        // A span that ends right after a line break does not touch the next line.
        let last_offset = if span.end > span.start && source.as_bytes()[span.end - 1] == b'\n' {
            span.end - 1
        } else {
            span.end
        };
        let last = self.line_index(last_offset.max(span.start));
        let start = self.line_starts.get(first).copied().unwrap_or(0);
        let mut end = self
            .line_starts
            .get(last + 1)
            .map_or(source.len(), |&next| next - 1);
        if end > start && source.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        // The span may end on the line break itself; keep it inside the excerpt.
        start..end.max(span.end).min(source.len())
    }
}

fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostics(source: &str, items: Vec<Diagnostic>) -> Diagnostics {
        Diagnostics {
            file: "Astrixfile.ax".to_owned(),
            source: source.to_owned(),
            items,
        }
    }

    fn render(diagnostics: &Diagnostics) -> String {
        let mut out = Vec::new();
        diagnostics.render(&mut out, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn renders_location_underline_label_and_help() {
        let source = "version = 1\n[[rule]]\nid = \"x\"\ndecison = \"deny\"\n";
        let start = source.find("decison").unwrap();
        let item = Diagnostic::new(
            Code::UnknownKey,
            start..start + 7,
            "unknown key `decison` in `[[rule]]`",
        )
        .with_label("not a known key")
        .with_help("did you mean `decision`?");
        let text = render(&diagnostics(source, vec![item]));
        assert_eq!(
            text,
            "error[unknown-key]: unknown key `decison` in `[[rule]]`\n \
             --> Astrixfile.ax:4:1\n  \
             |\n\
             4 | decison = \"deny\"\n  \
             | ^^^^^^^ not a known key\n  \
             |\n  \
             = help: did you mean `decision`?\n\n\
             error: Astrixfile.ax has 1 error\n"
        );
    }

    #[test]
    fn columns_count_characters() {
        let source = "ééé = 1\n";
        let start = source.find('1').unwrap();
        let item = Diagnostic::new(Code::WrongType, start..start + 1, "m");
        let json = diagnostics(source, vec![item]).to_json();
        assert_eq!(json["diagnostics"][0]["line"], 1);
        assert_eq!(json["diagnostics"][0]["column"], 7);
        assert_eq!(json["diagnostics"][0]["end_column"], 8);
    }

    #[test]
    fn json_counts_errors_and_warnings() {
        let source = "a = 1\nb = 2\n";
        let json = diagnostics(
            source,
            vec![
                Diagnostic::new(Code::WrongType, 4..5, "m").with_label("l"),
                Diagnostic::new(Code::EmptyCondition, 10..11, "w"),
            ],
        )
        .to_json();
        assert_eq!(json["file"], "Astrixfile.ax");
        assert_eq!(json["errors"], 1);
        assert_eq!(json["warnings"], 1);
        assert_eq!(json["diagnostics"][0]["severity"], "error");
        assert_eq!(json["diagnostics"][0]["label"], "l");
        assert_eq!(json["diagnostics"][0]["help"], serde_json::Value::Null);
        assert_eq!(json["diagnostics"][1]["severity"], "warning");
        assert_eq!(json["diagnostics"][1]["code"], "empty-condition");
        assert_eq!(json["diagnostics"][1]["line"], 2);
        assert_eq!(json["diagnostics"][1]["column"], 5);
    }

    #[test]
    fn summary_counts_both() {
        let source = "a = 1\n";
        let text = render(&diagnostics(
            source,
            vec![
                Diagnostic::new(Code::WrongType, 0..1, "m"),
                Diagnostic::new(Code::WrongType, 0..1, "m"),
                Diagnostic::new(Code::EmptyCondition, 0..1, "w"),
            ],
        ));
        assert!(text.ends_with("error: Astrixfile.ax has 2 errors and 1 warning\n"));
        let text = render(&diagnostics(
            source,
            vec![Diagnostic::new(Code::EmptyCondition, 0..1, "w")],
        ));
        assert!(text.starts_with("warning[empty-condition]: w\n"));
        assert!(text.ends_with("warning: Astrixfile.ax has 1 warning\n"));
    }

    #[test]
    fn nothing_to_report_writes_nothing() {
        assert_eq!(render(&diagnostics("a = 1", Vec::new())), "");
    }

    #[test]
    fn hostile_spans_never_panic() {
        let sources = ["", "\n", "a", "a = 1\n", "é", "a\r\nb\r\n", "[a]\n\n\n"];
        let spans = [
            0..0,
            0..1,
            Range { start: 1, end: 0 },
            0..1000,
            999..1000,
            1..2,
            usize::MAX - 1..usize::MAX,
        ];
        for source in sources {
            for span in spans.clone() {
                let item = Diagnostic::new(Code::TomlSyntax, span.clone(), "m").with_label("l");
                let all = diagnostics(source, vec![item]);
                let text = render(&all);
                assert!(
                    text.contains("error[toml-syntax]: m"),
                    "{source:?} {span:?}"
                );
                let json = all.to_json();
                assert!(json["diagnostics"][0]["line"].as_u64().unwrap() >= 1);
            }
        }
    }

    #[test]
    fn span_at_end_of_file_sits_on_the_last_line() {
        let source = "a = [1,\n";
        let item = Diagnostic::new(Code::TomlSyntax, 8..8, "unclosed array").with_label("here");
        let text = render(&diagnostics(source, vec![item]));
        assert!(text.contains("--> Astrixfile.ax:1:8"), "{text}");
        assert!(text.contains("1 | a = [1,\n"), "{text}");
    }

    #[test]
    fn multi_line_spans_render_both_ends() {
        let source = "paths = [\n  \"a\",\n  \"b\",\n]\nx = 1\n";
        let end = source.find(']').unwrap() + 1;
        let item = Diagnostic::new(Code::WrongType, 8..end, "m").with_label("an array");
        let text = render(&diagnostics(source, vec![item]));
        assert!(text.contains("--> Astrixfile.ax:1:9"), "{text}");
        assert!(text.contains("4 | | ]"), "{text}");
        assert!(!text.contains("x = 1"), "{text}");
    }

    #[test]
    fn control_characters_are_not_written_raw() {
        let source = "\"\u{1b}[31m\" = 1\n";
        let item = Diagnostic::new(Code::UnknownKey, 0..9, "unknown key `\u{1b}[31m`")
            .with_label("\u{1b}[2J")
            .with_help("\u{7}");
        let all = diagnostics(source, vec![item]);
        let text = render(&all);
        assert!(!text.contains('\u{1b}'), "{text:?}");
        assert!(!text.contains('\u{7}'), "{text:?}");
    }

    #[test]
    fn colour_only_when_asked() {
        let all = diagnostics("a = 1\n", vec![Diagnostic::new(Code::WrongType, 4..5, "m")]);
        let mut out = Vec::new();
        all.render(&mut out, true).unwrap();
        assert!(String::from_utf8(out).unwrap().contains('\u{1b}'));
        assert!(!render(&all).contains('\u{1b}'));
    }

    #[test]
    fn very_long_lines_are_not_excerpted() {
        let source = format!("a = [{}]\n", "\"x\", ".repeat(10_000));
        let item = Diagnostic::new(Code::EmptyValue, 50_000..50_003, "m");
        let text = render(&diagnostics(&source, vec![item]));
        assert!(text.contains("--> Astrixfile.ax:1:50001"), "{text}");
        assert!(text.len() < 1_000);
    }

    #[test]
    fn positions_agree_with_a_naive_count() {
        let source = "aé\nbb€c\n\nz".repeat(300);
        let index = LineIndex::new(&source);
        for offset in (0..=source.len()).filter(|&o| source.is_char_boundary(o)) {
            let before = &source[..offset];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap().chars().count() + 1;
            assert_eq!(index.position(&source, offset), (line, column), "{offset}");
        }
    }

    #[test]
    fn codes_round_trip() {
        for code in Code::ALL {
            assert_eq!(Code::from_name(code.as_str()), Some(code));
            assert!(
                code.as_str()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-')
            );
        }
    }
}
