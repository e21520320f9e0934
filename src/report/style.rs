//! Terminal styles: ANSI colour only on a terminal, and never when `NO_COLOR` is set.

use std::fmt;

/// Whether styles are applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    enabled: bool,
}

/// One ANSI style, or none.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    code: Option<&'static str>,
}

impl Style {
    /// Styles that are applied when `enabled` is true.
    pub fn new(enabled: bool) -> Self {
        Self { enabled }
    }

    /// Whether styles are applied.
    pub fn enabled(self) -> bool {
        self.enabled
    }

    fn paint(self, code: &'static str) -> Paint {
        Paint {
            code: self.enabled.then_some(code),
        }
    }

    /// Red, for denials and errors.
    pub fn red(self) -> Paint {
        self.paint("1;31")
    }

    /// Yellow, for holds and warnings.
    pub fn yellow(self) -> Paint {
        self.paint("1;33")
    }

    /// Green, for passes.
    pub fn green(self) -> Paint {
        self.paint("1;32")
    }

    /// Bold.
    pub fn bold(self) -> Paint {
        self.paint("1")
    }

    /// Dim, for labels.
    pub fn dim(self) -> Paint {
        self.paint("2")
    }
}

impl Paint {
    /// `text` in this style.
    pub fn paint(self, text: &str) -> Painted<'_> {
        Painted { paint: self, text }
    }
}

/// Text with a style, for `format!`.
pub struct Painted<'a> {
    paint: Paint,
    text: &'a str,
}

impl fmt::Display for Painted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.paint.code {
            Some(code) => write!(f, "\x1b[{code}m{}\x1b[0m", self.text),
            None => f.write_str(self.text),
        }
    }
}
