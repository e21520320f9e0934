//! `astrix hook claude-code`, `codex` and `gemini-cli`: the documented pre-tool-call inputs of
//! tests/fixtures/<harness>/ answered against a real repository, through the binary and
//! through the command `astrix install --agent` writes; the settings round trip; the guard
//! on commands that loosen the gate.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{ASTRIX, output_with_stdin, settings};
use crate::repo::TestRepo;

const TEST_FILE: &str = "def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 3


def test_add_negative():
    assert add(-1, -2) == -3
";

/// A repository with a committed test file, on the feature branch `work` (the built-in
/// policy denies agents' commits on `main`).
fn repository() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("tests/test_math.py", TEST_FILE);
    repo.write("src/__init__.py", "");
    repo.commit_all("initial");
    repo.git(&["checkout", "-q", "-b", "work"]);
    repo
}

fn fixture(harness: &str, name: &str, repo: &TestRepo) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(harness)
        .join(name);
    fs::read_to_string(path)
        .unwrap()
        .replace("{{ROOT}}", &repo.path().display().to_string())
        .into_bytes()
}

fn hook(repo: &TestRepo, harness: &str, input: &[u8]) -> Output {
    let mut command = repo.command(ASTRIX);
    command.args(["hook", harness]);
    output_with_stdin(command, input)
}

/// Exit code, stdout and stderr, as a snapshot shows them.
fn shown(output: &Output) -> String {
    format!(
        "exit: {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn snapshot(repo: &TestRepo, name: &str, output: &Output) {
    let temp = repo.path().parent().unwrap().to_path_buf();
    settings(&temp).bind(|| insta::assert_snapshot!(name, shown(output)));
}

/// The decision JSON of an answer, checked to be exactly the harness's shape.
fn decision(output: &Output) -> (String, String) {
    assert_eq!(output.status.code(), Some(0), "{}", shown(output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let specific = &value["hookSpecificOutput"];
    assert_eq!(value.as_object().unwrap().len(), 1, "{value}");
    assert_eq!(specific["hookEventName"], "PreToolUse");
    assert_eq!(specific.as_object().unwrap().len(), 3, "{value}");
    (
        specific["permissionDecision"].as_str().unwrap().to_owned(),
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

#[test]
fn claude_code_an_edit_that_deletes_a_test_is_asked_with_the_rule_and_the_finding() {
    let repo = repository();
    let output = hook(
        &repo,
        "claude-code",
        &fixture("claude-code", "edit_removes_test.json", &repo),
    );
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "ask");
    assert!(reason.contains("agents-removing-tests"), "{reason}");
    assert!(
        reason.contains("tests/test_math.py:9: test removed: `def test_add_negative():`"),
        "{reason}"
    );
    snapshot(&repo, "claude_code_ask", &output);
    // Nothing was written: the hook only answers.
    assert_eq!(
        fs::read_to_string(repo.path().join("tests/test_math.py")).unwrap(),
        TEST_FILE
    );
    // Recorded beside the commit decisions.
    let log = repo
        .command(ASTRIX)
        .args(["log", "--source", "tool-call", "--format", "json"])
        .output()
        .unwrap();
    let entries: serde_json::Value = serde_json::from_slice(&log.stdout).unwrap();
    assert_eq!(entries.as_array().unwrap().len(), 1, "{entries}");
    assert_eq!(entries[0]["hook"], "claude-code");
    assert_eq!(entries[0]["tool"], "Edit");
    assert_eq!(entries[0]["decision"], "require_approval");
    let commits = repo
        .command(ASTRIX)
        .args(["log", "--source", "commit", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&commits.stdout).trim(), "[]");
}

#[test]
fn claude_code_held_is_denied_where_nobody_is_asked() {
    let repo = repository();
    let output = hook(
        &repo,
        "claude-code",
        &fixture("claude-code", "edit_removes_test_bypass.json", &repo),
    );
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("bypassPermissions"), "{reason}");
    snapshot(&repo, "claude_code_held_in_bypass_mode", &output);
}

#[test]
fn claude_code_an_allowed_write_gets_no_decision() {
    let repo = repository();
    for name in ["write_new_file.json", "read.json"] {
        let output = hook(&repo, "claude-code", &fixture("claude-code", name, &repo));
        assert_eq!(
            shown(&output),
            "exit: Some(0)\nstdout:\n\nstderr:\n",
            "{name}"
        );
    }
}

#[test]
fn claude_code_denies_switching_the_gate_off() {
    let repo = repository();
    let output = hook(
        &repo,
        "claude-code",
        &fixture("claude-code", "bash_hooks_path.json", &repo),
    );
    assert_eq!(decision(&output).0, "deny");
    snapshot(&repo, "claude_code_deny_hooks_path", &output);
    let output = hook(
        &repo,
        "claude-code",
        &fixture("claude-code", "write_settings.json", &repo),
    );
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("Claude Code's settings"), "{reason}");
}

#[test]
fn claude_code_a_commit_is_judged_as_the_gate_would() {
    let repo = repository();
    repo.git(&["checkout", "-q", "main"]);
    repo.write("src/util.py", "x = 1\n");
    repo.git(&["add", "src/util.py"]);
    let output = hook(
        &repo,
        "claude-code",
        &fixture("claude-code", "bash_commit.json", &repo),
    );
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("agents-off-production"), "{reason}");
    // On a feature branch the same commit goes on to the harness's own rules.
    repo.git(&["checkout", "-q", "-b", "feature"]);
    let output = hook(
        &repo,
        "claude-code",
        &fixture("claude-code", "bash_commit.json", &repo),
    );
    assert_eq!(shown(&output), "exit: Some(0)\nstdout:\n\nstderr:\n");
}

#[test]
fn claude_code_malformed_input_and_errors_block_with_exit_2() {
    let repo = repository();
    let output = hook(
        &repo,
        "claude-code",
        &fixture("claude-code", "malformed.json", &repo),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    snapshot(&repo, "claude_code_malformed", &output);
    let output = hook(
        &repo,
        "claude-code",
        &fixture("claude-code", "write_into_directory.json", &repo),
    );
    assert_eq!(output.status.code(), Some(2));
    snapshot(&repo, "claude_code_internal_error", &output);
}

#[test]
fn codex_a_patch_that_deletes_a_test_is_denied_since_codex_has_no_ask() {
    let repo = repository();
    let output = hook(
        &repo,
        "codex",
        &fixture("codex", "apply_patch_removes_test.json", &repo),
    );
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("agents-removing-tests"), "{reason}");
    assert!(reason.contains("def test_add_negative():"), "{reason}");
    snapshot(&repo, "codex_held", &output);
}

#[test]
fn codex_allow_deny_malformed_and_error() {
    let repo = repository();
    let output = hook(
        &repo,
        "codex",
        &fixture("codex", "apply_patch_add.json", &repo),
    );
    assert_eq!(shown(&output), "exit: Some(0)\nstdout:\n\nstderr:\n");
    let output = hook(
        &repo,
        "codex",
        &fixture("codex", "bash_remove_hook.json", &repo),
    );
    assert_eq!(decision(&output).0, "deny");
    snapshot(&repo, "codex_deny_remove_hook", &output);
    let output = hook(&repo, "codex", &fixture("codex", "malformed.json", &repo));
    assert_eq!(output.status.code(), Some(2));
    assert!(!output.stderr.is_empty());
    snapshot(&repo, "codex_malformed", &output);
    let output = hook(
        &repo,
        "codex",
        &fixture("codex", "apply_patch_into_directory.json", &repo),
    );
    assert_eq!(output.status.code(), Some(2));
    snapshot(&repo, "codex_internal_error", &output);
}

/// The command of astrix's handler in `settings` (a path in the work tree).
fn installed_command(repo: &TestRepo, settings: &str) -> String {
    let text = fs::read_to_string(repo.path().join(settings)).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let hooks = &value["hooks"];
    hooks
        .get("PreToolUse")
        .or_else(|| hooks.get("BeforeTool"))
        .and_then(serde_json::Value::as_array)
        .unwrap()
        .iter()
        .flat_map(|group| group["hooks"].as_array().unwrap())
        .filter_map(|handler| handler["command"].as_str())
        .find(|command| command.contains("astrix-agent-hook"))
        .unwrap()
        .to_owned()
}

/// Runs the installed command as the harness does (`sh -c`), with `input` on stdin and a
/// PATH without astrix.
fn run_installed(repo: &TestRepo, command: &str, input: &[u8]) -> Output {
    let mut shell = repo.command("sh");
    shell.args(["-c", command]).env("PATH", "/usr/bin:/bin");
    output_with_stdin(shell, input)
}

/// A copy of the astrix binary that a test may remove.
fn own_binary(repo: &TestRepo) -> PathBuf {
    let dir = repo.path().parent().unwrap().join("bin");
    fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("astrix");
    fs::copy(ASTRIX, &exe).unwrap();
    exe
}

#[test]
fn the_installed_command_answers_and_blocks_when_astrix_is_missing() {
    for (harness, settings, held) in [
        (
            "claude-code",
            ".claude/settings.json",
            fixture_name("claude-code"),
        ),
        ("codex", ".codex/hooks.json", fixture_name("codex")),
        (
            "gemini-cli",
            ".gemini/settings.json",
            fixture_name("gemini-cli"),
        ),
    ] {
        let repo = repository();
        let exe = own_binary(&repo);
        // A copy just written can be "busy" while another test's fork still holds it open.
        let install = (0..50)
            .find_map(|_| {
                match repo
                    .command(&exe)
                    .args(["install", "--agent", harness])
                    .output()
                {
                    Err(error) if error.raw_os_error() == Some(26) => {
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        None
                    }
                    other => Some(other.unwrap()),
                }
            })
            .unwrap();
        assert!(install.status.success(), "{}", shown(&install));
        let command = installed_command(&repo, settings);
        let input = fixture(harness, held, &repo);
        let direct = hook(&repo, harness, &input);
        let through = run_installed(&repo, &command, &input);
        assert_eq!(shown(&through), shown(&direct), "{harness}");
        let allowed = run_installed(&repo, &command, b"not json");
        assert_eq!(allowed.status.code(), Some(2), "{harness}");
        // The binary gone and none on PATH: blocked, with the reason on stderr.
        fs::remove_file(&exe).unwrap();
        let missing = run_installed(&repo, &command, &input);
        assert_eq!(
            missing.status.code(),
            Some(2),
            "{harness}: {}",
            shown(&missing)
        );
        let stderr = String::from_utf8_lossy(&missing.stderr);
        assert!(
            stderr.contains("failed (exit 127), so the tool call is blocked"),
            "{stderr}"
        );
        assert!(missing.stdout.is_empty());
    }
}

fn fixture_name(harness: &str) -> &'static str {
    match harness {
        "claude-code" => "edit_removes_test.json",
        "gemini-cli" => "replace_removes_test.json",
        _ => "apply_patch_removes_test.json",
    }
}

#[test]
fn install_then_uninstall_gives_the_settings_back_byte_for_byte() {
    let repo = repository();
    let original = "{\n    \"permissions\": {\n        \"allow\": [\"Bash(cargo test:*)\"]\n    },\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]}\n        ]\n    }\n}\n";
    repo.write(".claude/settings.json", original);
    let install = |agent: &str| {
        repo.command(ASTRIX)
            .args(["install", "--agent", agent])
            .output()
            .unwrap()
    };
    let first = install("all");
    assert!(first.status.success(), "{}", shown(&first));
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.contains("installed is not active yet"), "{stdout}");
    let merged = fs::read_to_string(repo.path().join(".claude/settings.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(value["permissions"]["allow"][0], "Bash(cargo test:*)");
    assert_eq!(
        value["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "./lint.sh"
    );
    assert!(merged.contains("\n    \"permissions\""), "{merged}");
    // Idempotent.
    let again = install("claude-code");
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("already installed"),
        "{}",
        shown(&again)
    );
    assert_eq!(
        fs::read_to_string(repo.path().join(".claude/settings.json")).unwrap(),
        merged
    );
    let uninstall = repo
        .command(ASTRIX)
        .args(["uninstall", "--agent", "all"])
        .output()
        .unwrap();
    assert!(uninstall.status.success(), "{}", shown(&uninstall));
    assert_eq!(
        fs::read_to_string(repo.path().join(".claude/settings.json")).unwrap(),
        original
    );
    assert!(!repo.path().join(".codex").exists());
    assert!(!repo.path().join(".gemini").exists());
    assert!(!repo.path().join(".github").exists());
    assert!(!repo.path().join(".cursor").exists());
}

#[test]
fn commands_that_loosen_the_gate_are_refused_to_agents_and_logged() {
    let repo = repository();
    let install = repo.command(ASTRIX).arg("install").output().unwrap();
    assert!(install.status.success(), "{}", shown(&install));
    for (args, marker) in [
        (vec!["uninstall"], "CLAUDECODE"),
        (vec!["uninstall", "--agent", "all"], "CODEX_THREAD_ID"),
        (vec!["install", "--force"], "CLAUDECODE"),
    ] {
        let output = repo
            .command(ASTRIX)
            .args(&args)
            .env(marker, "1")
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            shown(&output)
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("refuses to run for an agent"), "{stderr}");
    }
    assert!(repo.path().join(".git/hooks/pre-commit").exists());
    let log = repo
        .command(ASTRIX)
        .args(["log", "--source", "command"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&log.stdout);
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.contains("[agent-loosens-gate]"), "{text}");
    // A person may.
    let output = repo.command(ASTRIX).arg("uninstall").output().unwrap();
    assert!(output.status.success(), "{}", shown(&output));
}

/// A Claude Code `Write` of `path` (absolute) run in `cwd`.
fn write_call(cwd: &Path, path: &Path) -> Vec<u8> {
    serde_json::json!({
        "session_id": "abc123",
        "transcript_path": "/dev/null",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": path, "content": "#!/bin/sh\nexit 0\n"},
        "tool_use_id": "toolu_1",
    })
    .to_string()
    .into_bytes()
}

#[test]
fn writes_that_reach_the_hooks_are_denied_wherever_the_hooks_are() {
    let repo = repository();
    // A `core.hooksPath` inside the work tree.
    repo.git(&["config", "core.hooksPath", ".githooks"]);
    let target = repo.path().join(".githooks/pre-commit");
    let output = hook(&repo, "claude-code", &write_call(repo.path(), &target));
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "deny");
    assert!(
        reason.contains("the directory git runs astrix's hooks from"),
        "{reason}"
    );
    repo.git(&["config", "--unset", "core.hooksPath"]);
    // From a linked worktree, the common git directory's hooks; through a link too.
    let linked = repo.path().parent().unwrap().join("linked");
    repo.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "other",
        linked.to_str().unwrap(),
    ]);
    let common_hook = repo.path().join(".git/hooks/pre-commit");
    let output = hook(&repo, "claude-code", &write_call(&linked, &common_hook));
    assert_eq!(decision(&output).0, "deny");
    std::os::unix::fs::symlink(repo.path().join(".git/hooks"), linked.join("tools")).unwrap();
    let output = hook(
        &repo,
        "claude-code",
        &write_call(&linked, &linked.join("tools/pre-commit")),
    );
    assert_eq!(decision(&output).0, "deny");
    // The linked worktree's own `.git` file.
    let output = hook(
        &repo,
        "claude-code",
        &write_call(&linked, &linked.join(".git")),
    );
    assert_eq!(decision(&output).0, "deny");
}

/// The inputs the real CLIs gave astrix's hook (captured in runs of
/// tests/fixtures/<harness>/real-cli/run.sh): Claude Code 2.1.332's `Edit` (with fields the
/// reference does not list, `prompt_id` and `effort`), and Codex 0.171.0's `Bash` call that
/// hands a patch to `apply_patch <<'EOF'`, which is judged as the patch it is.
#[test]
fn the_captured_inputs_of_the_real_clis_are_answered() {
    let repo = repository();
    let output = hook(
        &repo,
        "claude-code",
        &fixture("claude-code", "captured_edit_2.1.332.json", &repo),
    );
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "ask");
    assert!(reason.contains("def test_add_negative():"), "{reason}");
    let output = hook(
        &repo,
        "codex",
        &fixture("codex", "captured_bash_apply_patch_0.171.0.json", &repo),
    );
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("agents-removing-tests"), "{reason}");
    assert!(reason.contains("def test_add_negative():"), "{reason}");
}

/// Gemini CLI's answer JSON: `decision` and `reason`, and for an "ask" the `systemMessage`
/// its confirmation shows; nothing else.
fn gemini_decision(output: &Output) -> (String, String) {
    assert_eq!(output.status.code(), Some(0), "{}", shown(output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let object = value.as_object().unwrap();
    let decision = value["decision"].as_str().unwrap().to_owned();
    let reason = value["reason"].as_str().unwrap().to_owned();
    if decision == "ask" {
        assert_eq!(object.len(), 3, "{value}");
        assert_eq!(value["systemMessage"], reason.as_str());
    } else {
        assert_eq!(object.len(), 2, "{value}");
    }
    (decision, reason)
}

#[test]
fn gemini_a_replace_that_deletes_a_test_is_asked_with_the_rule_and_the_finding() {
    let repo = repository();
    for name in ["replace_removes_test.json", "captured_replace_0.61.0.json"] {
        let output = hook(&repo, "gemini-cli", &fixture("gemini-cli", name, &repo));
        let (answer, reason) = gemini_decision(&output);
        assert_eq!(answer, "ask", "{name}");
        assert!(reason.contains("agents-removing-tests"), "{reason}");
        assert!(
            reason.contains("tests/test_math.py:9: test removed: `def test_add_negative():`"),
            "{reason}"
        );
        if name == "replace_removes_test.json" {
            snapshot(&repo, "gemini_ask", &output);
        }
    }
    assert_eq!(
        fs::read_to_string(repo.path().join("tests/test_math.py")).unwrap(),
        TEST_FILE
    );
    let log = repo
        .command(ASTRIX)
        .args(["log", "--source", "tool-call", "--format", "json"])
        .output()
        .unwrap();
    let entries: serde_json::Value = serde_json::from_slice(&log.stdout).unwrap();
    assert_eq!(entries.as_array().unwrap().len(), 2, "{entries}");
    assert_eq!(entries[0]["hook"], "gemini-cli");
    assert_eq!(entries[0]["actor_id"], "gemini-cli");
    assert_eq!(entries[0]["tool"], "replace");
    assert_eq!(entries[0]["decision"], "require_approval");
}

#[test]
fn gemini_a_replace_that_does_not_match_exactly_is_still_judged() {
    // Gemini CLI's `replace` goes on matching loosely, so the result is unknown, not
    // nothing: the test file is touched, and the built-in policy holds that.
    let repo = repository();
    let output = hook(
        &repo,
        "gemini-cli",
        &fixture("gemini-cli", "replace_loose.json", &repo),
    );
    let (answer, reason) = gemini_decision(&output);
    assert_eq!(answer, "ask");
    assert!(reason.contains("agents-touching-tests"), "{reason}");
}

#[test]
fn gemini_allow_deny_malformed_and_error() {
    let repo = repository();
    for name in ["write_file_new.json", "read_file.json"] {
        let output = hook(&repo, "gemini-cli", &fixture("gemini-cli", name, &repo));
        assert_eq!(
            shown(&output),
            "exit: Some(0)\nstdout:\n\nstderr:\n",
            "{name}"
        );
    }
    let output = hook(
        &repo,
        "gemini-cli",
        &fixture("gemini-cli", "shell_hooks_path.json", &repo),
    );
    assert_eq!(gemini_decision(&output).0, "deny");
    snapshot(&repo, "gemini_deny_hooks_path", &output);
    // `dir_path` is where the command runs.
    let output = hook(
        &repo,
        "gemini-cli",
        &fixture("gemini-cli", "shell_remove_hook.json", &repo),
    );
    let (answer, reason) = gemini_decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("hooks"), "{reason}");
    let output = hook(
        &repo,
        "gemini-cli",
        &fixture("gemini-cli", "write_settings.json", &repo),
    );
    let (answer, reason) = gemini_decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("Gemini CLI's settings"), "{reason}");
    let output = hook(
        &repo,
        "gemini-cli",
        &fixture("gemini-cli", "malformed.json", &repo),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    snapshot(&repo, "gemini_malformed", &output);
    let output = hook(
        &repo,
        "gemini-cli",
        &fixture("gemini-cli", "write_into_directory.json", &repo),
    );
    assert_eq!(output.status.code(), Some(2));
    snapshot(&repo, "gemini_internal_error", &output);
}

#[test]
fn gemini_a_commit_is_judged_as_the_gate_would() {
    let repo = repository();
    repo.git(&["checkout", "-q", "main"]);
    repo.write("src/util.py", "x = 1\n");
    repo.git(&["add", "src/util.py"]);
    let output = hook(
        &repo,
        "gemini-cli",
        &fixture("gemini-cli", "shell_commit.json", &repo),
    );
    let (answer, reason) = gemini_decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("agents-off-production"), "{reason}");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    let output = hook(
        &repo,
        "gemini-cli",
        &fixture("gemini-cli", "shell_commit.json", &repo),
    );
    assert_eq!(shown(&output), "exit: Some(0)\nstdout:\n\nstderr:\n");
}

#[test]
fn gemini_install_then_uninstall_gives_the_settings_back_byte_for_byte() {
    let repo = repository();
    let original = "{\n  \"general\": {\n    \"vimMode\": true\n  },\n  \"hooks\": {\n    \"BeforeTool\": [\n      {\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\", \"timeout\": 5000}]}\n    ],\n    \"AfterAgent\": []\n  }\n}";
    repo.write(".gemini/settings.json", original);
    let run = |args: &[&str]| {
        let output = repo.command(ASTRIX).args(args).output().unwrap();
        assert!(output.status.success(), "{}", shown(&output));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let stdout = run(&["install", "--agent", "gemini-cli"]);
    assert!(
        stdout.contains("astrix's BeforeTool hook added"),
        "{stdout}"
    );
    assert!(stdout.contains("folder trust"), "{stdout}");
    let merged = fs::read_to_string(repo.path().join(".gemini/settings.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(value["general"]["vimMode"], true);
    let groups = value["hooks"]["BeforeTool"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["hooks"][0]["command"], "./lint.sh");
    assert_eq!(
        groups[1]["matcher"],
        "^(write_file|replace|run_shell_command)$"
    );
    // Gemini CLI's timeout is in milliseconds.
    assert_eq!(groups[1]["hooks"][0]["timeout"], 60000);
    assert!(value["hooks"].get("PreToolUse").is_none(), "{merged}");
    assert!(!merged.ends_with('\n'));
    let again = run(&["install", "--agent", "all"]);
    assert!(
        again.contains(".gemini/settings.json: already installed"),
        "{again}"
    );
    assert_eq!(
        fs::read_to_string(repo.path().join(".gemini/settings.json")).unwrap(),
        merged
    );
    run(&["uninstall", "--agent", "gemini-cli"]);
    assert_eq!(
        fs::read_to_string(repo.path().join(".gemini/settings.json")).unwrap(),
        original
    );
    // Without a file before: created, then removed with its directory.
    fs::remove_dir_all(repo.path().join(".gemini")).unwrap();
    run(&["install", "--agent", "gemini-cli"]);
    assert!(repo.path().join(".gemini/settings.json").exists());
    run(&["uninstall", "--agent", "all"]);
    assert!(!repo.path().join(".gemini").exists());
}

/// The Copilot CLI's decision JSON (`permissionDecision`, `permissionDecisionReason`, nothing
/// else), and the exit code beside it.
fn copilot_decision(output: &Output) -> (Option<i32>, String, String) {
    let value: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", shown(output)));
    assert_eq!(value.as_object().unwrap().len(), 2, "{value}");
    (
        output.status.code(),
        value["permissionDecision"].as_str().unwrap().to_owned(),
        value["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

#[test]
fn copilot_cli_an_edit_that_deletes_a_test_is_asked_with_the_rule_and_the_finding() {
    let repo = repository();
    let output = hook(
        &repo,
        "copilot-cli",
        &fixture("copilot", "edit_removes_test.json", &repo),
    );
    let (code, answer, reason) = copilot_decision(&output);
    assert_eq!((code, answer.as_str()), (Some(0), "ask"));
    assert!(reason.contains("agents-removing-tests"), "{reason}");
    assert!(
        reason.contains("tests/test_math.py:9: test removed: `def test_add_negative():`"),
        "{reason}"
    );
    snapshot(&repo, "copilot_ask", &output);
    assert_eq!(
        fs::read_to_string(repo.path().join("tests/test_math.py")).unwrap(),
        TEST_FILE
    );
    let log = repo
        .command(ASTRIX)
        .args(["log", "--source", "tool-call", "--format", "json"])
        .output()
        .unwrap();
    let entries: serde_json::Value = serde_json::from_slice(&log.stdout).unwrap();
    assert_eq!(entries.as_array().unwrap().len(), 1, "{entries}");
    assert_eq!(entries[0]["hook"], "copilot-cli");
    assert_eq!(entries[0]["tool"], "edit");
    assert_eq!(entries[0]["actor_id"], "copilot-cli");
    // The inputs the real CLI 1.0.102 gave a hook, in both of its forms, and the `copilot`
    // alias of the name.
    for (name, harness) in [
        ("captured_edit_1.0.102.json", "copilot-cli"),
        ("captured_edit_vscode_form_1.0.102.json", "copilot"),
    ] {
        let output = hook(&repo, harness, &fixture("copilot", name, &repo));
        let (code, answer, reason) = copilot_decision(&output);
        assert_eq!((code, answer.as_str()), (Some(0), "ask"), "{name}");
        assert!(reason.contains("def test_add_negative():"), "{reason}");
    }
}

#[test]
fn copilot_cli_allow_deny_commit_malformed_and_error() {
    let repo = repository();
    for name in ["create_new_file.json", "view.json"] {
        let output = hook(&repo, "copilot-cli", &fixture("copilot", name, &repo));
        assert_eq!(
            shown(&output),
            "exit: Some(0)\nstdout:\n\nstderr:\n",
            "{name}"
        );
    }
    let output = hook(
        &repo,
        "copilot-cli",
        &fixture("copilot", "bash_hooks_path.json", &repo),
    );
    let (code, answer, reason) = copilot_decision(&output);
    assert_eq!((code, answer.as_str()), (Some(0), "deny"));
    assert!(reason.contains("core.hooksPath"), "{reason}");
    snapshot(&repo, "copilot_deny_hooks_path", &output);
    let output = hook(
        &repo,
        "copilot-cli",
        &fixture("copilot", "create_hook_file.json", &repo),
    );
    let (_, answer, reason) = copilot_decision(&output);
    assert_eq!(answer, "deny");
    assert!(
        reason.contains("the Copilot CLI's hooks directory"),
        "{reason}"
    );
    // A commit on `main` is denied as the gate would deny it.
    repo.git(&["checkout", "-q", "main"]);
    repo.write("src/util.py", "x = 1\n");
    repo.git(&["add", "src/util.py"]);
    let output = hook(
        &repo,
        "copilot-cli",
        &fixture("copilot", "bash_commit.json", &repo),
    );
    let (_, answer, reason) = copilot_decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("agents-off-production"), "{reason}");
    // Malformed input and an error: exit 2 and the CLI's denial, with the reason.
    let output = hook(
        &repo,
        "copilot-cli",
        &fixture("copilot", "malformed.json", &repo),
    );
    let (code, answer, reason) = copilot_decision(&output);
    assert_eq!((code, answer.as_str()), (Some(2), "deny"));
    assert!(
        reason.contains("cannot read this copilot-cli tool call"),
        "{reason}"
    );
    snapshot(&repo, "copilot_malformed", &output);
    let output = hook(
        &repo,
        "copilot-cli",
        &fixture("copilot", "edit_into_directory.json", &repo),
    );
    let (code, answer, _) = copilot_decision(&output);
    assert_eq!((code, answer.as_str()), (Some(2), "deny"));
    snapshot(&repo, "copilot_internal_error", &output);
}

#[test]
fn copilot_cli_the_installed_command_answers_and_blocks_when_astrix_is_missing() {
    let repo = repository();
    let exe = own_binary(&repo);
    let install = (0..50)
        .find_map(|_| {
            match repo
                .command(&exe)
                .args(["install", "--agent", "copilot-cli"])
                .output()
            {
                Err(error) if error.raw_os_error() == Some(26) => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    None
                }
                other => Some(other.unwrap()),
            }
        })
        .unwrap();
    assert!(install.status.success(), "{}", shown(&install));
    let text = fs::read_to_string(repo.path().join(".github/hooks/astrix.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["version"], 1);
    let entry = &value["hooks"]["preToolUse"][0];
    assert_eq!(entry["type"], "command");
    let command = entry["bash"].as_str().unwrap().to_owned();
    let input = fixture("copilot", "edit_removes_test.json", &repo);
    let direct = hook(&repo, "copilot-cli", &input);
    let through = run_installed(&repo, &command, &input);
    assert_eq!(shown(&through), shown(&direct));
    // An allowed call: nothing on stdout, as from astrix itself.
    let allowed = fixture("copilot", "create_new_file.json", &repo);
    let through = run_installed(&repo, &command, &allowed);
    assert_eq!(shown(&through), "exit: Some(0)\nstdout:\n\nstderr:\n");
    let malformed = run_installed(&repo, &command, b"not json");
    let (code, answer, _) = copilot_decision(&malformed);
    assert_eq!((code, answer.as_str()), (Some(2), "deny"));
    // The binary gone and none on PATH: the CLI's denial and exit 2, with the reason.
    fs::remove_file(&exe).unwrap();
    let missing = run_installed(&repo, &command, &input);
    let (code, answer, reason) = copilot_decision(&missing);
    assert_eq!((code, answer.as_str()), (Some(2), "deny"));
    assert!(
        reason.contains("failed (exit 127), so the tool call is blocked"),
        "{reason}"
    );
    snapshot(&repo, "copilot_missing_binary", &missing);
}

#[test]
fn copilot_cli_install_then_uninstall_gives_the_directory_back() {
    let repo = repository();
    repo.write(".github/workflows/ci.yml", "on: push\n");
    let run = |args: &[&str]| {
        let output = repo.command(ASTRIX).args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", shown(&output));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    run(&["install", "--agent", "copilot"]);
    let written = fs::read_to_string(repo.path().join(".github/hooks/astrix.json")).unwrap();
    // A hook file of the user's beside astrix's is theirs.
    repo.write(".github/hooks/mine.json", "{\"version\": 1}\n");
    let again = run(&["install", "--agent", "copilot-cli"]);
    assert!(again.contains("already installed"), "{again}");
    assert_eq!(
        fs::read_to_string(repo.path().join(".github/hooks/astrix.json")).unwrap(),
        written
    );
    run(&["uninstall", "--agent", "copilot-cli"]);
    assert!(!repo.path().join(".github/hooks/astrix.json").exists());
    assert_eq!(
        fs::read_to_string(repo.path().join(".github/hooks/mine.json")).unwrap(),
        "{\"version\": 1}\n"
    );
    // The directory stayed for the user's file; with both gone, the repository is as it was.
    fs::remove_file(repo.path().join(".github/hooks/mine.json")).unwrap();
    fs::remove_dir(repo.path().join(".github/hooks")).unwrap();
    // Without a hook file of the user's, the directory astrix made goes too; `.github` stays.
    run(&["install", "--agent", "all"]);
    run(&["uninstall", "--agent", "all"]);
    assert!(!repo.path().join(".github/hooks").exists());
    assert_eq!(
        fs::read_to_string(repo.path().join(".github/workflows/ci.yml")).unwrap(),
        "on: push\n"
    );
}

/// Cursor's permission JSON (`permission`, `user_message`, `agent_message`), and the exit
/// code beside it.
fn cursor_decision(output: &Output) -> (Option<i32>, String, String) {
    let value: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", shown(output)));
    assert_eq!(value.as_object().unwrap().len(), 3, "{value}");
    assert_eq!(value["user_message"], value["agent_message"]);
    (
        output.status.code(),
        value["permission"].as_str().unwrap().to_owned(),
        value["agent_message"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn cursor_an_edit_that_deletes_a_test_is_denied_saying_a_person_must_approve() {
    let repo = repository();
    let output = hook(
        &repo,
        "cursor",
        &fixture("cursor", "strreplace_removes_test.json", &repo),
    );
    let (code, answer, reason) = cursor_decision(&output);
    assert_eq!((code, answer.as_str()), (Some(0), "deny"));
    assert!(reason.contains("agents-removing-tests"), "{reason}");
    assert!(
        reason.contains("tests/test_math.py:9: test removed: `def test_add_negative():`"),
        "{reason}"
    );
    assert!(reason.contains("a person must approve"), "{reason}");
    snapshot(&repo, "cursor_held", &output);
    assert_eq!(
        fs::read_to_string(repo.path().join("tests/test_math.py")).unwrap(),
        TEST_FILE
    );
}

#[test]
fn cursor_allow_deny_malformed_and_error() {
    let repo = repository();
    for name in ["write_new_file.json", "read.json"] {
        let output = hook(&repo, "cursor", &fixture("cursor", name, &repo));
        assert_eq!(
            shown(&output),
            "exit: Some(0)\nstdout:\n{}\n\nstderr:\n",
            "{name}"
        );
    }
    let output = hook(
        &repo,
        "cursor",
        &fixture("cursor", "shell_hooks_path.json", &repo),
    );
    let (code, answer, _) = cursor_decision(&output);
    assert_eq!((code, answer.as_str()), (Some(0), "deny"));
    snapshot(&repo, "cursor_deny_hooks_path", &output);
    let output = hook(
        &repo,
        "cursor",
        &fixture("cursor", "write_hooks_json.json", &repo),
    );
    let (_, answer, reason) = cursor_decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("Cursor's hooks file"), "{reason}");
    let output = hook(&repo, "cursor", &fixture("cursor", "malformed.json", &repo));
    let (code, answer, _) = cursor_decision(&output);
    assert_eq!((code, answer.as_str()), (Some(2), "deny"));
    snapshot(&repo, "cursor_malformed", &output);
    let output = hook(
        &repo,
        "cursor",
        &fixture("cursor", "strreplace_into_directory.json", &repo),
    );
    let (code, answer, _) = cursor_decision(&output);
    assert_eq!((code, answer.as_str()), (Some(2), "deny"));
    snapshot(&repo, "cursor_internal_error", &output);
}

#[test]
fn cursor_the_installed_command_fails_closed_and_round_trips() {
    let repo = repository();
    let original = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{\"command\": \".cursor/hooks/format.sh\"}]\n  }\n}\n";
    repo.write(".cursor/hooks.json", original);
    let exe = own_binary(&repo);
    let install = (0..50)
        .find_map(|_| {
            match repo
                .command(&exe)
                .args(["install", "--agent", "cursor"])
                .output()
            {
                Err(error) if error.raw_os_error() == Some(26) => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    None
                }
                other => Some(other.unwrap()),
            }
        })
        .unwrap();
    assert!(install.status.success(), "{}", shown(&install));
    let text = fs::read_to_string(repo.path().join(".cursor/hooks.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        value["hooks"]["afterFileEdit"][0]["command"],
        ".cursor/hooks/format.sh"
    );
    let entry = &value["hooks"]["preToolUse"][0];
    assert_eq!(entry["failClosed"], true);
    assert_eq!(entry["matcher"], "Shell|Write|StrReplace|Edit|Delete");
    let command = entry["command"].as_str().unwrap().to_owned();
    let input = fixture("cursor", "strreplace_removes_test.json", &repo);
    let direct = hook(&repo, "cursor", &input);
    let through = run_installed(&repo, &command, &input);
    assert_eq!(shown(&through), shown(&direct));
    fs::remove_file(&exe).unwrap();
    let missing = run_installed(&repo, &command, &input);
    assert_eq!(missing.status.code(), Some(2), "{}", shown(&missing));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("astrix hook cursor failed (exit 127), so the tool call is blocked"),
        "{stderr}"
    );
    let uninstall = repo
        .command(ASTRIX)
        .args(["uninstall", "--agent", "cursor"])
        .output()
        .unwrap();
    assert!(uninstall.status.success(), "{}", shown(&uninstall));
    assert_eq!(
        fs::read_to_string(repo.path().join(".cursor/hooks.json")).unwrap(),
        original
    );
}

/// A Claude Code `Bash` call of `command` in the repository.
fn bash_call(repo: &TestRepo, command: &str) -> Vec<u8> {
    serde_json::json!({
        "session_id": "abc123",
        "transcript_path": "/dev/null",
        "cwd": repo.path(),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Push the branch"},
        "tool_use_id": "toolu_push",
    })
    .to_string()
    .into_bytes()
}

/// [`repository`] as a clone of a bare `origin` (made with the git CLI) that has `main`,
/// with a commit of an ordinary change on `work`.
fn repository_with_origin() -> TestRepo {
    let repo = repository();
    let origin = repo.path().parent().unwrap().join("origin.git");
    let origin = origin.display().to_string();
    repo.git(&["init", "-q", "--bare", "-b", "main", &origin]);
    repo.git(&["remote", "add", "origin", &origin]);
    repo.git(&["push", "-q", "origin", "main"]);
    repo.git(&["fetch", "-q", "origin"]);
    repo.write("src/util.py", "x = 1\n");
    repo.commit_all("Add util");
    repo
}

#[test]
fn claude_code_a_push_to_main_is_denied_as_ci_would_deny_it() {
    let repo = repository_with_origin();
    let output = hook(
        &repo,
        "claude-code",
        &bash_call(&repo, "git push origin HEAD:main"),
    );
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "deny");
    assert!(reason.contains("agents-off-production"), "{reason}");
    assert!(
        reason.contains("`refs/remotes/origin/main..HEAD` to `origin/main`"),
        "{reason}"
    );
    snapshot(&repo, "agents_claude_code_push_to_main_denied", &output);
    // Recorded beside the commit decisions.
    let log = repo
        .command(ASTRIX)
        .args(["log", "--source", "tool-call", "--format", "json"])
        .output()
        .unwrap();
    let entries: serde_json::Value = serde_json::from_slice(&log.stdout).unwrap();
    assert_eq!(entries.as_array().unwrap().len(), 1, "{entries}");
    assert_eq!(entries[0]["decision"], "deny");
    assert_eq!(entries[0]["branch"], "main");
    // The same by the default form, from `main` itself.
    repo.git(&["checkout", "-q", "main"]);
    repo.git(&["merge", "-q", "--ff-only", "work"]);
    let output = hook(&repo, "claude-code", &bash_call(&repo, "git push"));
    assert_eq!(decision(&output).0, "deny");
    // Spellings an adversary found that once got through: git reads `heads/main` as
    // `refs/heads/main`, and the last of `--dry-run` and `--no-dry-run` wins.
    for command in [
        "git push origin HEAD:heads/main",
        "git push --dry-run --no-dry-run origin HEAD:main",
    ] {
        let output = hook(&repo, "claude-code", &bash_call(&repo, command));
        assert_eq!(decision(&output).0, "deny", "{command}");
    }
}

#[test]
fn claude_code_a_push_of_a_feature_branch_gets_no_decision() {
    let repo = repository_with_origin();
    for command in [
        "git push -u origin work",
        "git push origin HEAD:refs/heads/work",
        "git push --force-with-lease origin work",
    ] {
        let output = hook(&repo, "claude-code", &bash_call(&repo, command));
        assert_eq!(
            shown(&output),
            "exit: Some(0)\nstdout:\n\nstderr:\n",
            "{command}"
        );
    }
    // Once the remote has it, the default form pushes `work` to `origin/work`.
    repo.git(&["push", "-q", "-u", "origin", "work"]);
    repo.write("src/more.py", "y = 2\n");
    repo.commit_all("Add more");
    let output = hook(&repo, "claude-code", &bash_call(&repo, "git push"));
    assert_eq!(shown(&output), "exit: Some(0)\nstdout:\n\nstderr:\n");
    // A change to the tests on the same branch is held, as CI would hold it.
    repo.write("tests/test_more.py", "def test_more():\n    assert True\n");
    repo.commit_all("Add a test");
    let output = hook(&repo, "claude-code", &bash_call(&repo, "git push"));
    let (answer, reason) = decision(&output);
    assert_eq!(answer, "ask");
    assert!(reason.contains("agents-touching-tests"), "{reason}");
    assert!(
        reason.contains("`astrix ci` judges the branch again"),
        "{reason}"
    );
}

#[test]
fn claude_code_a_push_astrix_cannot_judge_is_asked() {
    let repo = repository_with_origin();
    for command in [
        "git push --all",
        "git push --mirror origin",
        "git push origin --delete old",
        "git push origin work main",
        "git push /somewhere/else work",
        "git push upstream work",
        // Settings on git's command line can choose what is pushed.
        "git -c remote.origin.push=HEAD:main push origin",
        "git --config-env push.default=X push origin",
    ] {
        let output = hook(&repo, "claude-code", &bash_call(&repo, command));
        let (answer, reason) = decision(&output);
        assert_eq!(answer, "ask", "{command}");
        assert!(
            reason.contains("cannot judge this push at the tool call")
                && reason.contains("`astrix ci` judges the branch in the pipeline"),
            "{command}: {reason}"
        );
    }
    // So do `remote.<name>.push` refspecs set in the repository's configuration.
    repo.git(&["config", "remote.origin.push", "HEAD:main"]);
    for command in ["git push", "git push origin"] {
        let output = hook(&repo, "claude-code", &bash_call(&repo, command));
        assert_eq!(decision(&output).0, "ask", "{command}");
    }
    repo.git(&["config", "--unset", "remote.origin.push"]);
    // Where nobody is asked, it is denied as any held call is.
    let input = String::from_utf8(bash_call(&repo, "git push --all"))
        .unwrap()
        .replace("\"default\"", "\"bypassPermissions\"");
    let output = hook(&repo, "claude-code", input.as_bytes());
    assert_eq!(decision(&output).0, "deny");
}
