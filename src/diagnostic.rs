//! Diagnostics for Astrixfile.ax: the one renderer for every problem found in a policy file.
//!
//! INTERFACE STUB — to be implemented.

use std::io::{self, Write};
use std::ops::Range;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem in a policy file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable kebab-case code, e.g. `unknown-key`, `duplicate-rule-id`.
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

/// Every problem found in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics {
    /// The file name as shown to the user.
    pub file: String,
    /// The file's text.
    pub source: String,
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn has_errors(&self) -> bool {
        self.items
            .iter()
            .any(|item| item.severity == Severity::Error)
    }

    /// Renders as `file:line:col`, source line, underline, help.
    pub fn render(&self, out: &mut dyn Write, _color: bool) -> io::Result<()> {
        for item in &self.items {
            writeln!(out, "error[{}]: {}", item.code, item.message)?;
        }
        Ok(())
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
}
