//! `[[test]]`: unique names, the expected decision, and the intent. The intent is converted
//! from the TOML it was written as to JSON and read as an `ActionIntent`, so that it means
//! what the same JSON means to `astrix evaluate`; an error is underlined where it is in the
//! TOML.

use std::collections::HashMap;
use std::ops::Range;

use toml::Spanned;
use toml::de::DeValue;

use crate::diagnostic::{Code, Diagnostic};
use crate::intent::ActionIntent;
use crate::policy::TestCase;
use crate::policy::load::Loader;
use crate::policy::raw::RawCase;
use crate::policy::read::integer_value;
use crate::policy::text::quote;

impl Loader<'_> {
    pub(super) fn validate_case(
        &mut self,
        raw: &RawCase<'_, '_>,
        names: &mut HashMap<String, usize>,
    ) -> Option<TestCase> {
        let name = raw.name.as_ref().and_then(|name| {
            if !self.non_empty(name, "test name", "say what the case checks") {
                return None;
            }
            if let Some(&first) = names.get(&name.value) {
                self.report(
                    Diagnostic::new(
                        Code::DuplicateTestName,
                        name.span.clone(),
                        format!("duplicate test name {}", quote(&name.value)),
                    )
                    .with_label(format!("already used on line {first}"))
                    .with_help(format!(
                        "the first test with this name is on line {first}; give each test its \
                         own name"
                    )),
                );
                return None;
            }
            names.insert(name.value.clone(), self.line(name.span.start));
            Some(name.value.clone())
        });
        let intent = raw.intent.and_then(|intent| self.validate_intent(intent));
        let expect = raw
            .expect
            .as_ref()
            .and_then(|expect| self.decision(expect, "expect"));
        Some(TestCase {
            name: name?,
            line: self.line(raw.header.start),
            intent: intent?,
            expect: expect?,
        })
    }

    /// Converts the inline table to JSON and reads it as an `ActionIntent`, so that a test
    /// intent means exactly what the same JSON means to `astrix evaluate`.
    fn validate_intent(&mut self, intent: &Spanned<DeValue<'_>>) -> Option<ActionIntent> {
        let mut json = String::new();
        write_json(intent.get_ref(), &mut json);
        let err = match ActionIntent::from_json(&json) {
            Ok(parsed) => return Some(parsed),
            Err(err) => err,
        };
        let unknown_field = err.message.starts_with("unknown field");
        let (span, value) = locate(intent, &err.path, unknown_field);
        let path = err.path.trim_matches('.');
        let message = if path.is_empty() {
            "invalid intent".to_owned()
        } else {
            format!("invalid intent at `{path}`")
        };
        let mut label = err
            .message
            .replace("a JSON object with named fields", "an inline table");
        let mut help = None;
        if path.ends_with("modifies_tests") && matches!(value, Some(DeValue::Boolean(_))) {
            "a boolean, not the string \"true\" or \"false\"".clone_into(&mut label);
            help = Some(
                "`modifies_tests` is a string in intents, as in the JSON of `astrix evaluate`: write \
                 `modifies_tests = \"true\"` or `\"false\"`"
                    .to_owned(),
            );
        } else if err.message.starts_with("missing field") {
            help = Some(
                "an intent has `actor = { type = … }`, `target = { env = … }`, \
                 `modified_files = […]` and `diff = { modifies_tests = \"true\" or \"false\" }`"
                    .to_owned(),
            );
        }
        self.report(
            Diagnostic::new(Code::InvalidIntent, span, message)
                .with_label(label)
                .with_optional_help(help),
        );
        None
    }
}

/// Writes a TOML value as JSON text. Numbers keep their own digits (no float on the way),
/// so that a test intent means what the same JSON means on the command line; `nan` and
/// `inf`, which JSON cannot write, become strings (and fail any policy that reads them).
fn write_json(value: &DeValue<'_>, out: &mut String) {
    match value {
        DeValue::String(text) => out.push_str(&json_string(text)),
        DeValue::Integer(integer) => {
            if integer.radix() == 10 {
                out.push_str(integer.as_str().trim_start_matches('+'));
            } else {
                match integer_value(integer) {
                    Some(number) => out.push_str(&number.to_string()),
                    None => out.push_str(&json_string(&integer.to_string())),
                }
            }
        }
        DeValue::Float(float) => {
            let text = float.as_str();
            if text.contains("inf") || text.contains("nan") {
                out.push_str(&json_string(text));
            } else {
                out.push_str(text.trim_start_matches('+'));
            }
        }
        DeValue::Boolean(flag) => out.push_str(if *flag { "true" } else { "false" }),
        DeValue::Datetime(datetime) => out.push_str(&json_string(&datetime.to_string())),
        DeValue::Array(array) => {
            out.push('[');
            for (position, element) in array.iter().enumerate() {
                if position > 0 {
                    out.push(',');
                }
                write_json(element.get_ref(), out);
            }
            out.push(']');
        }
        DeValue::Table(table) => {
            out.push('{');
            for (position, (key, element)) in table.iter().enumerate() {
                if position > 0 {
                    out.push(',');
                }
                out.push_str(&json_string(key.get_ref()));
                out.push(':');
                write_json(element.get_ref(), out);
            }
            out.push('}');
        }
    }
}

fn json_string(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// The span of the value at `path` (`diff.modifies_tests`, `modified_files[0]`) inside a
/// test intent, or of the deepest part of it that exists; with `key`, the last key itself.
fn locate<'d, 'i>(
    root: &'d Spanned<DeValue<'i>>,
    path: &str,
    key: bool,
) -> (Range<usize>, Option<&'d DeValue<'i>>) {
    let segments = path_segments(path);
    let mut current = root;
    let mut span = root.span();
    let mut found = true;
    for (position, segment) in segments.iter().enumerate() {
        let last = position + 1 == segments.len();
        let next = match (segment, current.get_ref()) {
            (Segment::Field(name), DeValue::Table(table)) => {
                table.get_key_value(*name).map(|(found_key, value)| {
                    if key && last {
                        span = found_key.span();
                    } else {
                        span = value.span();
                    }
                    value
                })
            }
            (Segment::Index(index), DeValue::Array(array)) => array.get(*index).inspect(|value| {
                span = value.span();
            }),
            _ => None,
        };
        let Some(value) = next else {
            found = false;
            break;
        };
        current = value;
    }
    (span, found.then(|| current.get_ref()))
}

#[derive(Debug, PartialEq, Eq)]
enum Segment<'p> {
    Field(&'p str),
    Index(usize),
}

/// `a.b[0].c` → `a`, `b`, `0`, `c`.
fn path_segments(path: &str) -> Vec<Segment<'_>> {
    let mut segments = Vec::new();
    for part in path.split('.').filter(|part| !part.is_empty()) {
        let (name, mut indices) = part
            .find('[')
            .map_or((part, ""), |bracket| part.split_at(bracket));
        if !name.is_empty() {
            segments.push(Segment::Field(name));
        }
        while let Some(rest) = indices.strip_prefix('[') {
            let Some((number, tail)) = rest.split_once(']') else {
                break;
            };
            match number.parse() {
                Ok(index) => segments.push(Segment::Index(index)),
                Err(_) => break,
            }
            indices = tail;
        }
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::testing::{INTENT, V, diagnoses};
    use crate::policy::{Verdict, load};

    #[test]
    fn path_segments_split_fields_and_indices() {
        assert_eq!(
            path_segments("a.b[0][12].c"),
            [
                Segment::Field("a"),
                Segment::Field("b"),
                Segment::Index(0),
                Segment::Index(12),
                Segment::Field("c")
            ]
        );
        assert!(path_segments(".").is_empty());
    }

    diagnoses! {
        unknown_decision_expect:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {INTENT}\nexpect = \"allowed\"\n")
            => "unknown-decision", "unknown decision `allowed`", "\"allowed\"", Some("did you mean `allow`?");
        invalid_intent_boolean_modifies_tests:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {}\nexpect = \"allow\"\n", INTENT.replace("\"false\"", "true"))
            => "invalid-intent", "invalid intent at `diff.modifies_tests`", "true",
            Some("`modifies_tests` is a string in intents, as in the JSON of `astrix evaluate`: write `modifies_tests = \"true\"` or `\"false\"`");
        invalid_intent_unknown_field:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {}\nexpect = \"allow\"\n", INTENT.replace("\"human\"", "\"human\", kind = \"x\""))
            => "invalid-intent", "invalid intent at `actor.kind`", "kind", None;
        invalid_intent_bad_path:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {}\nexpect = \"allow\"\n", INTENT.replace("[]", "[\"ok\", \"/etc/passwd\"]"))
            => "invalid-intent", "invalid intent at `modified_files[1]`", "\"/etc/passwd\"", None;
        invalid_intent_missing_field:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {}\nexpect = \"allow\"\n", INTENT.replace("target = { env = \"d\" }, ", ""))
            => "invalid-intent", "invalid intent",
            "{ actor = { type = \"human\" }, modified_files = [], diff = { modifies_tests = \"false\" } }",
            Some("an intent has `actor = { type = … }`, `target = { env = … }`, `modified_files = […]` and `diff = { modifies_tests = \"true\" or \"false\" }`");
        duplicate_test_name:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {INTENT}\nexpect = \"allow\"\n[[test]]\nname = \"a\"\nintent = {INTENT}\nexpect = \"allow\"\n")
            => "duplicate-test-name", "duplicate test name `a`", "\"a\"",
            Some("the first test with this name is on line 3; give each test its own name");
    }

    #[test]
    fn test_cases_keep_their_intent_and_line() {
        let source = format!(
            "{V}\n[[test]]\nname = \"numbers keep their digits\"\nintent = {{ actor = {{ type = \"autonomous_llm\", id = \"x\" }}, target = {{ env = \"production\" }}, modified_files = [\"src/a.rs\"], diff = {{ modifies_tests = \"false\", lines_added = 123456789012345678901234567, lines_deleted = +1_000, binary_files = 1e3, tests_removed = nan, test_skips_added = \"7\", assertions_removed = 0x10 }}, approved = true }}\nexpect = \"require_approval\"\n"
        );
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        let case = &policy.cases[0];
        assert_eq!(case.name, "numbers keep their digits");
        assert_eq!(case.line, 3);
        assert_eq!(case.expect, Verdict::RequireApproval);
        let diff = &case.intent.diff;
        let json = |count: Option<&crate::intent::RawCount>| count.map(|c| c.json().to_owned());
        assert_eq!(
            json(diff.lines_added.as_ref()).as_deref(),
            Some("123456789012345678901234567")
        );
        assert_eq!(json(diff.lines_deleted.as_ref()).as_deref(), Some("1000"));
        assert_eq!(json(diff.binary_files.as_ref()).as_deref(), Some("1e3"));
        assert_eq!(
            json(diff.tests_removed.as_ref()).as_deref(),
            Some("\"nan\"")
        );
        assert_eq!(
            json(diff.test_skips_added.as_ref()).as_deref(),
            Some("\"7\"")
        );
        assert_eq!(
            json(diff.assertions_removed.as_ref()).as_deref(),
            Some("16")
        );
        assert_eq!(case.intent.approved, Some(true));
        assert_eq!(case.intent.actor.id.as_deref(), Some("x"));
    }
}
