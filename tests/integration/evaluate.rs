//! `astrix evaluate`: explicit intents, every decision and exit code, errors failing closed.

use std::process::Command;

use crate::cmd_snapshot;
use crate::common::{Sandbox, output_with_stdin};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/intents");

fn example(name: &str) -> String {
    format!("{EXAMPLES}/{name}.json")
}

fn run_with_stdin(command: Command, stdin: &str) -> std::process::Output {
    output_with_stdin(command, stdin.as_bytes())
}

fn json(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "stdout is not JSON ({err}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn readme_examples_give_each_decision_and_exit_code() {
    let sandbox = Sandbox::new();
    let cases = [
        ("allow", 0, (true, false, false)),
        ("deny", 1, (false, true, false)),
        ("hold", 3, (false, false, true)),
        ("hold-approved", 0, (true, false, true)),
    ];
    for (name, code, (allowed, denied, requires_approval)) in cases {
        let output = sandbox
            .astrix()
            .args(["evaluate", &example(name), "--format", "json"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(code), "{name}");
        let value = json(&output);
        assert_eq!(value["allowed"], allowed, "{name}: {value}");
        assert_eq!(value["denied"], denied, "{name}: {value}");
        assert_eq!(
            value["requires_approval"], requires_approval,
            "{name}: {value}"
        );
        assert_eq!(
            value.as_object().unwrap().len(),
            4,
            "exactly the four published fields: {value}"
        );
    }
}

#[test]
fn readme_names_every_example() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for name in ["allow", "deny", "hold", "hold-approved"] {
        assert!(
            readme.contains(&format!("examples/intents/{name}.json")),
            "README.md does not show examples/intents/{name}.json"
        );
    }
}

#[test]
fn deny_as_json() {
    let sandbox = Sandbox::new();
    cmd_snapshot!(
        sandbox.path(),
        sandbox
            .astrix()
            .args(["evaluate", &example("deny"), "--format", "json"])
    );
}

#[test]
fn hold_as_text() {
    let sandbox = Sandbox::new();
    cmd_snapshot!(
        sandbox.path(),
        sandbox.astrix().args(["evaluate", &example("hold")])
    );
}

#[test]
fn hold_approved_as_text() {
    let sandbox = Sandbox::new();
    cmd_snapshot!(
        sandbox.path(),
        sandbox
            .astrix()
            .args(["evaluate", &example("hold-approved")])
    );
}

#[test]
fn explain_adds_the_intent_policy_and_rules() {
    let sandbox = Sandbox::new();
    cmd_snapshot!(
        sandbox.path(),
        sandbox.astrix().args([
            "evaluate",
            &example("allow"),
            "--explain",
            "--format",
            "json"
        ])
    );
}

#[test]
fn explain_as_text() {
    let sandbox = Sandbox::new();
    cmd_snapshot!(
        sandbox.path(),
        sandbox
            .astrix()
            .args(["evaluate", &example("deny"), "--explain"])
    );
}

#[test]
fn reads_standard_input() {
    let sandbox = Sandbox::new();
    let intent = std::fs::read_to_string(example("deny")).unwrap();
    for args in [vec!["evaluate"], vec!["evaluate", "-"]] {
        let mut command = sandbox.astrix();
        command.args(&args).args(["--format", "json"]);
        let output = run_with_stdin(command, &intent);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(json(&output)["denied"], true);
    }
}

const SIZE_POLICY: &str = r#"
version = 1

[[rule]]
id = "size"
policy = "lines_added <= 123456789012345678901234567"
decision = "deny"
reason = "too many lines"
"#;

fn size_intent(lines_added: &str) -> String {
    format!(
        r#"{{"actor":{{"type":"human"}},"target":{{"env":"development"}},"modified_files":["a.rs"],"diff":{{"modifies_tests":"false","lines_added":{lines_added}}}}}"#
    )
}

#[test]
fn large_integers_keep_their_digits() {
    let sandbox = Sandbox::new();
    let policy = sandbox.write("Astrixfile.ax", SIZE_POLICY);
    let policy = policy.to_str().unwrap();
    let cases = [
        ("123456789012345678901234567", 0),
        ("123456789012345678901234568", 1),
        ("\"123456789012345678901234568\"", 1),
        ("\"125\"", 0),
        ("1.25e2", 0),
    ];
    for (value, code) in cases {
        let mut command = sandbox.astrix();
        command.args(["evaluate", "--policy", policy, "--format", "json"]);
        let output = run_with_stdin(command, &size_intent(value));
        assert_eq!(
            output.status.code(),
            Some(code),
            "{value}: {}",
            json(&output)
        );
    }
}

#[test]
fn unusable_values_fail_the_policy_and_hold_never_zero() {
    let sandbox = Sandbox::new();
    let policy = sandbox.write(
        "Astrixfile.ax",
        "version = 1\n[[rule]]\nid = \"size\"\npolicy = \"lines_added <= 10\"\n",
    );
    let policy = policy.to_str().unwrap();
    for value in [
        "null", "true", "\"many\"", "\"NaN\"", "\"inf\"", "[1]", "{}",
    ] {
        let mut command = sandbox.astrix();
        command.args(["evaluate", "--policy", policy, "--format", "json"]);
        let output = run_with_stdin(command, &size_intent(value));
        assert_eq!(output.status.code(), Some(3), "{value}: {}", json(&output));
        assert_eq!(json(&output)["requires_approval"], true);
    }
    // Missing entirely.
    let mut command = sandbox.astrix();
    command.args(["evaluate", "--policy", policy, "--format", "json"]);
    let output = run_with_stdin(
        command,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false"}}"#,
    );
    assert_eq!(output.status.code(), Some(3));
    let reason = json(&output)["reason"].as_str().unwrap().to_owned();
    assert!(reason.contains("missing"), "{reason}");
}

/// Covers issue #20: a negative or fractional count is not a count. It fails the policy
/// that reads it and holds, as a non-numeric one does, and never shrinks `lines_changed`.
#[test]
fn negative_and_fractional_counts_fail_the_policy_and_hold() {
    let sandbox = Sandbox::new();
    let policy = sandbox.write(
        "Astrixfile.ax",
        "version = 1\n[[rule]]\nid = \"size\"\npolicy = \"lines_changed <= 400\"\nreason = \"large diffs need review\"\n",
    );
    let policy = policy.to_str().unwrap();
    for (added, deleted, expected) in [
        (
            "500",
            "-500",
            "`diff.lines_deleted` is `-500`, a negative count",
        ),
        ("-5", "0", "`diff.lines_added` is `-5`, a negative count"),
        (
            "\"-5\"",
            "0",
            "`diff.lines_added` is `\"-5\"`, a negative count",
        ),
        (
            "1.5",
            "0",
            "`diff.lines_added` is `1.5`, not a whole number",
        ),
        (
            "1",
            "2.5e-1",
            "`diff.lines_deleted` is `2.5e-1`, not a whole number",
        ),
    ] {
        let mut command = sandbox.astrix();
        command.args(["evaluate", "--policy", policy, "--format", "json"]);
        let intent = format!(
            r#"{{"actor":{{"type":"human"}},"target":{{"env":"d"}},"modified_files":["a.rs"],"diff":{{"modifies_tests":"false","lines_added":{added},"lines_deleted":{deleted}}}}}"#
        );
        let output = run_with_stdin(command, &intent);
        let decision = json(&output);
        assert_eq!(
            output.status.code(),
            Some(3),
            "{added} {deleted}: {decision}"
        );
        assert_eq!(decision["requires_approval"], true);
        let reason = decision["reason"].as_str().unwrap();
        assert!(reason.contains(expected), "{reason}");
        assert!(
            reason.contains("a count is a whole number of 0 or more"),
            "{reason}"
        );
    }
    // Whole numbers written with a fraction or an exponent are counts.
    let mut command = sandbox.astrix();
    command.args(["evaluate", "--policy", policy, "--format", "json"]);
    let output = run_with_stdin(
        command,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":["a.rs"],"diff":{"modifies_tests":"false","lines_added":1.0e2,"lines_deleted":-0}}"#,
    );
    assert_eq!(output.status.code(), Some(0), "{}", json(&output));
}

#[test]
fn boolean_modifies_tests_is_an_error_that_shows_the_fix() {
    let sandbox = Sandbox::new();
    let mut command = sandbox.astrix();
    command.arg("evaluate");
    let output = run_with_stdin(
        command,
        r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":true}}"#,
    );
    assert_eq!(output.status.code(), Some(2));
    cmd_snapshot!(sandbox.path(), {
        let mut command = sandbox.astrix();
        command.arg("evaluate").arg(sandbox.write(
            "intent.json",
            r#"{"actor":{"type":"human"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":true}}"#,
        ));
        command
    });
}

#[test]
fn unknown_field_is_an_error_naming_it() {
    let sandbox = Sandbox::new();
    let intent = sandbox.write(
        "intent.json",
        r#"{"actor":{"type":"human","role":"admin"},"target":{"env":"d"},"modified_files":[],"diff":{"modifies_tests":"false"}}"#,
    );
    let output = sandbox
        .astrix()
        .arg("evaluate")
        .arg(intent)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("actor.role"), "{stderr}");
    assert!(stderr.contains("unknown field `role`"), "{stderr}");
}

#[test]
fn invalid_policy_is_an_error_with_its_diagnostics() {
    let sandbox = Sandbox::new();
    let policy = sandbox.write(
        "Astrixfile.ax",
        "version = 1\n[[rule]]\nid = \"x\"\ndecison = \"deny\"\n",
    );
    cmd_snapshot!(
        sandbox.path(),
        sandbox
            .astrix()
            .args(["evaluate", &example("allow"), "--policy"])
            .arg(policy)
    );
}

#[test]
fn missing_intent_file_is_an_error() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .astrix()
        .args(["evaluate", "does-not-exist.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("does-not-exist.json"), "{stderr}");
}

/// The reader's own words never reach the user: each mistake says what an intent expects,
/// and where its schema is. Covers issue 22.
#[test]
fn invalid_intents_say_what_was_expected_in_the_terms_of_an_intent() {
    let sandbox = Sandbox::new();
    for (intent, expected) in [
        (
            r#"{"actor":"claude","target":{"env":"x"},"modified_files":[],"diff":{"modifies_tests":"false"}}"#,
            "error: invalid intent at `actor` (line 1, column 17): invalid type: string \"claude\", expected an object with `type` and an optional `id`",
        ),
        (
            r#"{"actor":{"type":"human"},"target":{"env":"x"},"modified_files":[],"diff":{"modifies_tests":"false"},"approved":tru}"#,
            "not valid JSON: a bare word where a value belongs",
        ),
        (
            r#"{"actor":{"type":"human"}"#,
            "the JSON text ends before the intent does",
        ),
        ("", "error: invalid intent: the input is empty"),
        ("[]", "expected a JSON object with named fields, not a list"),
    ] {
        let output = run_with_stdin(evaluate_command(&sandbox), intent);
        let text = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{intent}: {text}");
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
        assert!(
            text.trim_end()
                .ends_with("; `astrix schema intent` prints the JSON Schema an intent follows"),
            "{text}"
        );
        for raw in ["struct", "EOF", "ident", "`?`", "sequence"] {
            assert!(!text.contains(raw), "{raw:?} in:\n{text}");
        }
    }
    let output = sandbox
        .astrix()
        .args(["evaluate", "nosuch.json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.starts_with(
            "error: cannot read the intent file `nosuch.json`; check the path, or give `-` to read the intent from standard input\n"
        ),
        "{text}"
    );
}

/// At a terminal, `evaluate` says that it is reading an intent from standard input before it
/// waits for one (a pseudo-terminal made by `script(1)`; Ctrl-D ends the input). Covers
/// issue 22.
#[test]
fn evaluate_at_a_terminal_says_that_it_reads_standard_input() {
    let sandbox = Sandbox::new();
    let intent = std::fs::read_to_string(example("deny")).unwrap();
    let line = format!("'{}' evaluate --format json", crate::common::ASTRIX);
    let mut command = crate::common::isolated("script", sandbox.path());
    command.args(["-qec", &line, "/dev/null"]);
    let input = format!("{}\n\u{4}", intent.replace('\n', " "));
    let output = output_with_stdin(command, input.as_bytes());
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("astrix evaluate: reading an intent (JSON) from standard input; end it with Ctrl-D, or give a file: `astrix evaluate intent.json`"),
        "{text}"
    );
    assert!(text.contains("\"denied\": true"), "{text}");

    // Not at a terminal: no such line (a program that pipes the intent in reads JSON only).
    let output = run_with_stdin(evaluate_command(&sandbox), &intent);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `astrix evaluate` reading standard input.
fn evaluate_command(sandbox: &Sandbox) -> Command {
    let mut command = sandbox.astrix();
    command.arg("evaluate");
    command
}
