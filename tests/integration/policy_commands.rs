//! `astrix validate`, `astrix test`, `astrix init` and `astrix schema`.

use crate::cmd_snapshot;
use crate::common::Sandbox;

const SEVERAL_MISTAKES: &str = r#"version = 1
default = "alow"

[tests]
paths = ["tests/[oops"]

[[rule]]
id = "Agents_Off"
actor = "autonomous_llm"
decison = "deny"

[[rule]]
id = "size"
policy = "line_changed <= 400"

[[rule]]
id = "size"
policy = "lines_changed between 0 and 200"
decision = "deny"
"#;

#[test]
fn validate_accepts_the_default_policy() {
    let sandbox = Sandbox::new();
    sandbox.git(&["init", "-q", "-b", "main"]);
    let init = sandbox.astrix().arg("init").output().unwrap();
    assert_eq!(init.status.code(), Some(0));
    cmd_snapshot!(sandbox.path(), sandbox.astrix().arg("validate"));
}

#[test]
fn validate_reports_every_mistake_in_one_run() {
    let sandbox = Sandbox::new();
    sandbox.write("Astrixfile.ax", SEVERAL_MISTAKES);
    cmd_snapshot!(
        sandbox.path(),
        sandbox.astrix().args(["validate", "Astrixfile.ax"])
    );
}

#[test]
fn validate_reports_every_mistake_as_json() {
    let sandbox = Sandbox::new();
    sandbox.write("Astrixfile.ax", SEVERAL_MISTAKES);
    cmd_snapshot!(
        sandbox.path(),
        sandbox
            .astrix()
            .args(["validate", "Astrixfile.ax", "--format", "json"])
    );
}

#[test]
fn validate_missing_file_is_an_error() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .astrix()
        .args(["validate", "nope.ax"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("nope.ax"));
}

#[test]
fn validate_binary_file_is_an_error() {
    let sandbox = Sandbox::new();
    sandbox.write("Astrixfile.ax", [0xff_u8, 0xfe, 0x00, 0x01]);
    let output = sandbox
        .astrix()
        .arg("validate")
        .arg("Astrixfile.ax")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    // Reported like every other problem of the file: a diagnostic at `file:line:col`.
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains("error[toml-syntax]: `Astrixfile.ax` is not UTF-8 text: byte `0xff`"),
        "{report}"
    );
    assert!(report.contains("--> Astrixfile.ax:1:1"), "{report}");
}

#[test]
fn test_passes_on_the_default_policy() {
    let sandbox = Sandbox::new();
    cmd_snapshot!(sandbox.path(), sandbox.astrix().arg("test"));
}

#[test]
fn test_fails_readably_on_a_wrong_expectation() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "Astrixfile.ax",
        r#"version = 1

[[environment]]
name = "production"
branches = ["main"]

[[rule]]
id = "agents-off-production"
actor = ["autonomous_llm"]
env = ["production"]
decision = "deny"
reason = "agents do not commit to production"

[[test]]
name = "humans may commit to production"
intent = { actor = { type = "human" }, target = { env = "production" }, modified_files = ["a.rs"], diff = { modifies_tests = "false" } }
expect = "allow"

[[test]]
name = "agents may commit to production (wrong on purpose)"
intent = { actor = { type = "autonomous_llm" }, target = { env = "production" }, modified_files = ["a.rs"], diff = { modifies_tests = "false" } }
expect = "allow"
"#,
    );
    cmd_snapshot!(
        sandbox.path(),
        sandbox.astrix().args(["test", "Astrixfile.ax"])
    );
}

/// Covers issue #20: in `[[test]]` cases too, a negative or fractional count fails the
/// policy that reads it, so a case expecting `allow` from `lines_deleted = -500` fails.
#[test]
fn test_cases_hold_on_counts_that_are_not_counts() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "Astrixfile.ax",
        r#"version = 1

[[rule]]
id = "size"
policy = "lines_changed <= 400"
reason = "large diffs need review"

[[test]]
name = "a negative count is held"
intent = { actor = { type = "autonomous_llm" }, target = { env = "d" }, modified_files = ["a.rs"], diff = { modifies_tests = "false", lines_added = 500, lines_deleted = -500 } }
expect = "require_approval"

[[test]]
name = "a fractional count is held"
intent = { actor = { type = "autonomous_llm" }, target = { env = "d" }, modified_files = ["a.rs"], diff = { modifies_tests = "false", lines_added = 1.5, lines_deleted = 0 } }
expect = "require_approval"

[[test]]
name = "a negative count does not make a large change allowed"
intent = { actor = { type = "autonomous_llm" }, target = { env = "d" }, modified_files = ["a.rs"], diff = { modifies_tests = "false", lines_added = 500, lines_deleted = -200 } }
expect = "allow"
"#,
    );
    let output = sandbox
        .astrix()
        .args(["test", "--format", "json", "Astrixfile.ax"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{value:#}");
    assert_eq!(value["passed"], 2, "{value:#}");
    assert_eq!(value["failed"], 1, "{value:#}");
    let text = value.to_string();
    assert!(text.contains("a negative count"), "{value:#}");
}

#[test]
fn test_as_json() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .astrix()
        .args(["test", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["failed"], 0);
    assert!(value["passed"].as_u64().unwrap() >= 10);
    assert_eq!(value["policy"]["source"], "built-in");
}

#[test]
fn init_writes_the_default_policy_and_refuses_to_overwrite() {
    let sandbox = Sandbox::new();
    sandbox.git(&["init", "-q", "-b", "main"]);
    std::fs::create_dir(sandbox.path().join("sub")).unwrap();
    let output = sandbox
        .astrix()
        .arg("init")
        .current_dir(sandbox.path().join("sub"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let written = std::fs::read_to_string(sandbox.path().join("Astrixfile.ax")).unwrap();
    assert!(written.contains("agents-off-production"));

    cmd_snapshot!(
        sandbox.path(),
        "init_refuses_to_overwrite",
        sandbox.astrix().arg("init")
    );

    std::fs::write(sandbox.path().join("Astrixfile.ax"), "version = 1\n").unwrap();
    let output = sandbox.astrix().args(["init", "--force"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let written = std::fs::read_to_string(sandbox.path().join("Astrixfile.ax")).unwrap();
    assert!(written.contains("agents-off-production"));
}

#[test]
fn init_outside_a_repository_is_an_error() {
    let sandbox = Sandbox::new();
    let output = sandbox.astrix().arg("init").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not inside a git repository"));
}

#[test]
fn schemas_are_printed() {
    let sandbox = Sandbox::new();
    for kind in ["intent", "decision", "astrixfile"] {
        let output = sandbox.astrix().args(["schema", kind]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{kind}");
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(value.is_object(), "{kind}: {value}");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(!text.contains("$ref"), "{kind} schema must be inlined");
    }
}

#[test]
fn intent_and_decision_schemas() {
    let sandbox = Sandbox::new();
    cmd_snapshot!(
        sandbox.path(),
        "schema_intent",
        sandbox.astrix().args(["schema", "intent"])
    );
    cmd_snapshot!(
        sandbox.path(),
        "schema_decision",
        sandbox.astrix().args(["schema", "decision"])
    );
}
