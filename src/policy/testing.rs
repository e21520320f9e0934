//! Support for the loader's unit tests: the diagnostics of a file, and a table of
//! minimal files, each with the one diagnostic it must get (STYLE §7).

use super::load;
use crate::diagnostic::{Code, Diagnostic};

/// The first line of a minimal file.
pub(super) const V: &str = "version = 1\n";

/// An intent that reads, as an inline table.
pub(super) const INTENT: &str = "{ actor = { type = \"human\" }, target = { env = \"d\" }, modified_files = [], diff = { modifies_tests = \"false\" } }";

/// Loads `source` and returns every diagnostic, whether it loaded or not.
pub(super) fn diagnostics(source: &str) -> Vec<Diagnostic> {
    match load("Astrixfile.ax", source) {
        Ok((_, diagnostics)) | Err(diagnostics) => diagnostics.items,
    }
}

/// The expected single diagnostic of a minimal file: its code, message, underlined
/// text and help, checked as text rather than byte offsets.
pub(super) struct Expected<'a> {
    pub(super) code: &'a str,
    pub(super) message: &'a str,
    pub(super) underlined: &'a str,
    pub(super) help: Option<&'a str>,
}

/// Checks that `source` gets exactly the `expected` diagnostic.
pub(super) fn check(source: &str, expected: &Expected<'_>) {
    let found = diagnostics(source);
    assert_eq!(
        found.len(),
        1,
        "expected one diagnostic, found {found:#?}\nin:\n{source}"
    );
    let diagnostic = &found[0];
    assert_eq!(diagnostic.code, expected.code, "{diagnostic:#?}");
    assert_eq!(diagnostic.message, expected.message, "{diagnostic:#?}");
    assert_eq!(
        &source[diagnostic.span.clone()],
        expected.underlined,
        "{diagnostic:#?}"
    );
    assert_eq!(diagnostic.help.as_deref(), expected.help, "{diagnostic:#?}");
    assert!(!diagnostic.label.is_empty(), "{diagnostic:#?}");
    assert_eq!(
        Some(diagnostic.severity),
        Code::from_name(diagnostic.code).map(Code::severity)
    );
}

/// `name: source => code, message, underlined text, help;`: one test each.
macro_rules! diagnoses {
    ($($name:ident: $source:expr => $code:expr, $message:expr, $underlined:expr, $help:expr;)*) => {
        $(
            #[test]
            fn $name() {
                let help: Option<&str> = $help;
                $crate::policy::testing::check(
                    $source,
                    &$crate::policy::testing::Expected { code: $code, message: $message, underlined: $underlined, help },
                );
            }
        )*
    };
}

pub(super) use diagnoses;
