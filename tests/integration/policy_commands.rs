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

/// With no file named and none in the repository, `validate` checks the built-in default
/// policy, as `test` runs its cases: both use what the gate would use. Covers issue 22.
#[test]
fn validate_without_a_policy_file_checks_the_built_in_default() {
    let sandbox = Sandbox::new();
    sandbox.git(&["init", "-q", "-b", "main"]);
    let output = sandbox.astrix().arg("validate").output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        text.starts_with(
            "the built-in default policy (there is no Astrixfile.ax here; `astrix init` writes it) is valid: "
        ),
        "{text}"
    );
    let output = sandbox
        .astrix()
        .args(["validate", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["valid"], true);
    assert_eq!(value["file"], "<built-in default policy>");
    assert_eq!(value["errors"], 0);
    // A file that is named must exist: that is not a fallback.
    let output = sandbox
        .astrix()
        .args(["validate", "Astrixfile.ax"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// `astrix test` without a path says which file it found, and that it is the file on
/// disk, not one named on the command line. Covers issue 22.
#[test]
fn test_names_the_file_it_found_in_the_work_tree() {
    let sandbox = Sandbox::new();
    sandbox.git(&["init", "-q", "-b", "main"]);
    let init = sandbox.astrix().arg("init").output().unwrap();
    assert_eq!(init.status.code(), Some(0));
    std::fs::create_dir(sandbox.path().join("sub")).unwrap();
    let output = sandbox
        .astrix()
        .arg("test")
        .current_dir(sandbox.path().join("sub"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.ends_with(
            "Astrixfile.ax` (the work tree's file as it is on disk; the gate reads the committed one)"
        ),
        "{first}"
    );
    assert!(!text.contains("named on the command line"), "{text}");
}

/// The Astrixfile that `astrix init` writes points at documentation every user has (it ships
/// in the binary), and `init` says that committing the policy is itself held. Covers issue 22.
#[test]
fn init_points_at_the_shipped_docs_and_says_that_committing_the_policy_is_held() {
    let sandbox = Sandbox::new();
    sandbox.git(&["init", "-q", "-b", "main"]);
    let output = sandbox.astrix().arg("init").output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    for expected in [
        "`astrix docs astrixfile` explains every key",
        "committing Astrixfile.ax — this first version and every later change — is held for a human's approval, whoever commits",
        "runs `astrix approve` in their own shell",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    let written = std::fs::read_to_string(sandbox.path().join("Astrixfile.ax")).unwrap();
    assert!(
        written.contains("# Every key is documented by `astrix docs astrixfile`"),
        "{written}"
    );
    assert!(!written.contains("docs/astrixfile.md"), "{written}");

    // What it points at is there: the page of the source tree, as it is.
    let output = sandbox
        .astrix()
        .args(["docs", "astrixfile"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        include_str!("../../docs/astrixfile.md")
    );
}

/// `astrix docs` lists its pages, and each prints the page of `docs/` it names.
#[test]
fn docs_lists_and_prints_every_page() {
    let sandbox = Sandbox::new();
    let output = sandbox.astrix().arg("docs").output().unwrap();
    let list = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{list}");
    for (topic, page) in [
        ("astrixfile", include_str!("../../docs/astrixfile.md")),
        ("ci", include_str!("../../docs/ci.md")),
        ("security", include_str!("../../docs/security.md")),
        ("blast-radius", include_str!("../../docs/blast-radius.md")),
        (
            "test-tampering",
            include_str!("../../docs/test-tampering.md"),
        ),
        ("mcp", include_str!("../../docs/mcp.md")),
        ("agents", include_str!("../../docs/agents.md")),
        ("install", include_str!("../../docs/install.md")),
        ("robustness", include_str!("../../docs/robustness.md")),
        ("architecture", include_str!("../../docs/architecture.md")),
    ] {
        assert!(
            list.contains(&format!("\n  {topic} ")),
            "{topic} in:\n{list}"
        );
        let output = sandbox.astrix().args(["docs", topic]).output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&output.stdout), page, "{topic}");
    }
    let output = sandbox.astrix().args(["docs", "nope"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// Every field that `astrix validate --format json` prints is named where docs/astrixfile.md
/// describes that output. Covers issue 22.
#[test]
fn every_field_of_validate_json_is_documented() {
    let sandbox = Sandbox::new();
    sandbox.write("Astrixfile.ax", SEVERAL_MISTAKES);
    let output = sandbox
        .astrix()
        .args(["validate", "Astrixfile.ax", "--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let docs = include_str!("../../docs/astrixfile.md");
    let described = docs
        .split("With `--format json` the same problems are printed as")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("docs/astrixfile.md describes the JSON of `astrix validate`");
    let mut keys: Vec<&String> = value.as_object().unwrap().keys().collect();
    keys.extend(value["diagnostics"][0].as_object().unwrap().keys());
    for key in keys {
        assert!(
            described.contains(&format!("\"{key}\"")),
            "`{key}` is not documented in:\n{described}"
        );
    }
}
