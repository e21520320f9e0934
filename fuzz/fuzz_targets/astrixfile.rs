//! Astrixfile.ax parsing and validation, and the rendering of its diagnostics.
//!
//! Properties: `load` never panics; a failed load carries at least one error; rendering the
//! diagnostics (plain and coloured) and their JSON form never panics and puts every
//! position inside the file; a loaded policy evaluates its own `[[test]]` intents, and
//! every numeric policy it holds parses again from its own text to the same comparison.
#![no_main]

use astrix::eval::evaluate;
use astrix::policy::numeric::NumericPolicy;
use astrix::policy::{self, Policy};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Bytes that are not UTF-8 never reach `load` (the file reader refuses them first);
    // the lossy conversion keeps the rest of such an input useful.
    let source = String::from_utf8_lossy(data);
    match policy::load("Astrixfile.ax", &source) {
        Ok((policy, warnings)) => {
            assert!(!warnings.has_errors(), "a loaded policy carries errors");
            check_rendering(&warnings, &source);
            check_policy(&policy);
        }
        Err(diagnostics) => {
            assert!(
                diagnostics.has_errors(),
                "a refused policy must say why: {diagnostics:?}"
            );
            check_rendering(&diagnostics, &source);
        }
    }
});

fn check_rendering(diagnostics: &astrix::diagnostic::Diagnostics, source: &str) {
    for color in [false, true] {
        let mut out = Vec::new();
        diagnostics
            .render(&mut out, color)
            .expect("rendering into a Vec cannot fail");
        if !diagnostics.items.is_empty() {
            assert!(!out.is_empty(), "diagnostics rendered to nothing");
        }
    }
    let json = diagnostics.to_json();
    let lines = source.split('\n').count();
    let items = json["diagnostics"]
        .as_array()
        .expect("`diagnostics` is an array");
    assert_eq!(items.len(), diagnostics.items.len());
    for item in items {
        for key in ["line", "end_line"] {
            let line = item[key].as_u64().expect("line is a number");
            assert!(
                line >= 1 && line as usize <= lines,
                "{key} {line} outside a file of {lines} lines: {item}"
            );
        }
        for key in ["column", "end_column"] {
            assert!(item[key].as_u64().expect("column is a number") >= 1);
        }
        let start = (item["line"].as_u64(), item["column"].as_u64());
        let end = (item["end_line"].as_u64(), item["end_column"].as_u64());
        assert!(start <= end, "the end comes before the start: {item}");
    }
}

fn check_policy(policy: &Policy) {
    for rule in &policy.rules {
        if let Some(numeric) = &rule.policy {
            let again = NumericPolicy::parse(&numeric.text).expect("a loaded policy re-parses");
            assert_eq!(&again, numeric);
        }
    }
    for case in &policy.cases {
        let decision = evaluate(policy, &case.intent);
        assert_eq!(decision.default_used, decision.deciding_rules.is_empty());
    }
}
