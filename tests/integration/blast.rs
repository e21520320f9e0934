//! `astrix blast-radius` and `astrix impacted-tests`, end to end from the binary, on fixture
//! workspaces in temporary repositories: Cargo (a dependency chain and an independent
//! crate, a declared component depending on a discovered one), npm, pnpm and uv.
//!
//! Unless a test says otherwise, `CARGO` names no binary, so that the manifests are read
//! directly whether or not the machine has cargo; one test checks that `cargo metadata`
//! reads the same graph, and one runs a real `cargo test -p`.

use std::path::Path;
use std::process::Command;

use crate::common::{Sandbox, output_with_stdin, settings};

/// `CARGO` for tests that must not run cargo.
const NO_CARGO: &str = "/nonexistent-astrix-test-cargo";

fn astrix(sandbox: &Sandbox) -> Command {
    let mut command = sandbox.astrix();
    command.env("CARGO", NO_CARGO);
    command
}

/// Snapshots `astrix <args>` run in the sandbox, with run times filtered.
fn snapshot(sandbox: &Sandbox, name: &str, args: &[&str]) {
    let mut settings = settings(sandbox.path());
    settings.add_filter(r"\b\d+\.\ds\b", "[DURATION]");
    settings.add_filter(r#""duration_ms": \d+"#, r#""duration_ms": "[MS]""#);
    settings.bind(|| {
        insta_cmd::assert_cmd_snapshot!(name, astrix(sandbox).args(args));
    });
}

fn output(command: &mut Command) -> (i32, String, String) {
    let output = command.output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn json(sandbox: &Sandbox, args: &[&str]) -> serde_json::Value {
    let (code, stdout, stderr) = output(astrix(sandbox).args(args).arg("--format=json"));
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// The names of the affected components in a blast-radius JSON.
fn affected(radius: &serde_json::Value) -> Vec<String> {
    radius["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|component| component["name"].as_str().unwrap().to_owned())
        .collect()
}

fn init(sandbox: &Sandbox) {
    sandbox.git(&["init", "-q", "-b", "main"]);
    sandbox.write(".gitignore", "target/\n");
}

fn commit_all(sandbox: &Sandbox, message: &str) {
    sandbox.git(&["add", "-A"]);
    sandbox.git(&["commit", "-q", "-m", message]);
}

/// Stages a change to `path` (a comment, so that manifests stay valid).
fn touch(sandbox: &Sandbox, path: &str) {
    let full = sandbox.path().join(path);
    let mut text = std::fs::read_to_string(&full).unwrap_or_default();
    let hash_comments = [".toml", ".lock", ".md", ".py", ".yaml", ".txt"];
    if hash_comments
        .iter()
        .any(|extension| path.ends_with(extension))
    {
        text.push_str("# changed\n");
    } else {
        text.push_str("// changed\n");
    }
    sandbox.write(path, text);
    sandbox.git(&["add", "-A"]);
}

fn crate_manifest(name: &str, dependencies: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{dependencies}"
    )
}

/// A Cargo workspace: `cli → api → core` (`cli` through `[workspace.dependencies]`),
/// `tool` on its own with a real test; a declared `web` that depends on `api`; docs that
/// `[impact] ignore`s; and a rule that holds changes affecting more than two components.
fn cargo_fixture() -> Sandbox {
    let sandbox = Sandbox::new();
    init(&sandbox);
    sandbox.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n\n\
         [workspace.dependencies]\napi = { path = \"crates/api\" }\n",
    );
    sandbox.write("Cargo.lock", "version = 3\n");
    sandbox.write("crates/core/Cargo.toml", crate_manifest("core", ""));
    sandbox.write("crates/core/src/lib.rs", "pub fn core() {}\n");
    sandbox.write(
        "crates/api/Cargo.toml",
        crate_manifest("api", "core = { path = \"../core\" }\n"),
    );
    sandbox.write("crates/api/src/lib.rs", "pub fn api() {}\n");
    sandbox.write(
        "crates/cli/Cargo.toml",
        crate_manifest("cli", "api.workspace = true\n"),
    );
    sandbox.write("crates/cli/src/lib.rs", "pub fn cli() {}\n");
    sandbox.write("crates/tool/Cargo.toml", crate_manifest("tool", ""));
    sandbox.write(
        "crates/tool/src/lib.rs",
        "#[test]\nfn adds() {\n    assert_eq!(1 + 1, 2);\n}\n",
    );
    sandbox.write("web/index.js", "export {};\n");
    sandbox.write("README.md", "# fixture\n");
    sandbox.write("docs/guide.md", "# guide\n");
    sandbox.write(
        "Astrixfile.ax",
        r#"version = 1

[impact]
ignore = ["docs/**"]

[[component]]
name = "web"
paths = ["web/**"]
depends_on = ["api"]
test = "echo web tests pass"

[[rule]]
id = "blast-radius"
policy = "impacted_components <= 2"
reason = "a change that affects more than two components needs a review"
"#,
    );
    commit_all(&sandbox, "init");
    sandbox
}

#[test]
fn cargo_leaf_change_affects_its_dependents() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "crates/core/src/lib.rs");
    snapshot(&sandbox, "blast_cargo_leaf_text", &["blast-radius"]);
    snapshot(
        &sandbox,
        "blast_cargo_leaf_json",
        &["blast-radius", "--format=json"],
    );
}

#[test]
fn cargo_root_change_affects_only_itself() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "crates/cli/src/lib.rs");
    snapshot(&sandbox, "blast_cargo_root_text", &["blast-radius"]);
}

#[test]
fn a_member_manifest_affects_the_member_and_its_dependents() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "crates/api/Cargo.toml");
    let radius = json(&sandbox, &["blast-radius"]);
    assert_eq!(affected(&radius), ["api", "cli", "web"]);
    assert_eq!(
        radius["components"][0]["reasons"],
        serde_json::json!([{"kind": "file", "file": "crates/api/Cargo.toml"}])
    );
}

#[test]
fn a_lockfile_affects_everything() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "Cargo.lock");
    snapshot(&sandbox, "blast_cargo_lockfile_text", &["blast-radius"]);
}

#[test]
fn an_unowned_file_affects_everything() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "README.md");
    snapshot(
        &sandbox,
        "blast_cargo_unowned_json",
        &["blast-radius", "--format=json"],
    );
}

#[test]
fn an_ignored_file_affects_nothing() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "docs/guide.md");
    snapshot(&sandbox, "blast_cargo_ignored_text", &["blast-radius"]);
}

#[test]
fn declared_components_own_their_paths() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "web/index.js");
    let radius = json(&sandbox, &["blast-radius"]);
    assert_eq!(affected(&radius), ["web"]);
    assert_eq!(radius["components"][0]["ecosystem"], "declared");
    assert_eq!(radius["components"][0]["root"], serde_json::Value::Null);
}

#[test]
fn mermaid_shows_the_affected_subgraph() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "crates/core/src/lib.rs");
    snapshot(
        &sandbox,
        "blast_cargo_mermaid",
        &["blast-radius", "--format=mermaid"],
    );
}

#[test]
fn base_takes_the_commits_since_the_merge_base() {
    let sandbox = cargo_fixture();
    sandbox.git(&["switch", "-q", "-c", "feature"]);
    touch(&sandbox, "crates/tool/src/lib.rs");
    sandbox.git(&["commit", "-q", "-m", "tool"]);
    touch(&sandbox, "crates/api/src/lib.rs");
    sandbox.git(&["commit", "-q", "-m", "api"]);
    // main moves on after the branch point; its change is not the branch's.
    sandbox.git(&["switch", "-q", "main"]);
    touch(&sandbox, "crates/core/src/lib.rs");
    sandbox.git(&["commit", "-q", "-m", "core on main"]);
    sandbox.git(&["switch", "-q", "feature"]);
    // A staged change is not part of `--base`.
    touch(&sandbox, "README.md");
    snapshot(
        &sandbox,
        "blast_cargo_base_text",
        &["blast-radius", "--base", "main"],
    );
}

#[test]
fn explicit_paths_override_the_staged_change() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "README.md");
    let (code, stdout, stderr) = output(
        astrix(&sandbox)
            .current_dir(sandbox.path().join("crates"))
            .args([
                "blast-radius",
                "--format=json",
                "tool/src/lib.rs",
                "./api/../api/src/lib.rs",
            ]),
    );
    assert_eq!(code, 0, "{stderr}");
    let radius: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        radius["changed_files"],
        serde_json::json!(["crates/api/src/lib.rs", "crates/tool/src/lib.rs"])
    );
    assert_eq!(affected(&radius), ["api", "tool", "cli", "web"]);
    let (code, _, stderr) = output(astrix(&sandbox).args(["blast-radius", "../elsewhere.rs"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("is outside the repository"), "{stderr}");
}

#[test]
fn a_missing_base_is_an_error() {
    let sandbox = cargo_fixture();
    snapshot(
        &sandbox,
        "blast_missing_base",
        &["blast-radius", "--base", "no-such-branch"],
    );
}

#[test]
fn a_shallow_clone_without_the_merge_base_is_an_error() {
    // main and feature each have a commit since they parted: a depth-1 clone of each
    // lacks the commit they share.
    let origin = cargo_fixture();
    origin.git(&["switch", "-q", "-c", "feature"]);
    touch(&origin, "crates/tool/src/lib.rs");
    origin.git(&["commit", "-q", "-m", "feature"]);
    origin.git(&["switch", "-q", "main"]);
    touch(&origin, "crates/core/src/lib.rs");
    origin.git(&["commit", "-q", "-m", "main"]);
    let clone = Sandbox::new();
    let url = format!("file://{}", origin.path().display());
    clone.git(&[
        "clone", "-q", "--depth", "1", "--branch", "feature", &url, "repo",
    ]);
    let repo = clone.path().join("repo");
    let run_git = |args: &[&str]| {
        let output = crate::common::isolated("git", &repo)
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
    };
    run_git(&[
        "fetch",
        "-q",
        "--depth",
        "1",
        "origin",
        "main:refs/remotes/origin/main",
    ]);
    let (code, _, stderr) =
        output(
            astrix(&clone)
                .current_dir(&repo)
                .args(["blast-radius", "--base", "origin/main"]),
        );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("shallow clone"), "{stderr}");
    assert!(stderr.contains("git fetch --unshallow"), "{stderr}");
}

#[test]
fn cargo_metadata_reads_the_same_graph() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "crates/core/src/lib.rs");
    let from_manifests = json(&sandbox, &["blast-radius"]);
    let with_cargo =
        |args: &[&str]| output(sandbox.astrix().env("CARGO", env!("CARGO")).args(args));
    let (code, stdout, stderr) = with_cargo(&["blast-radius", "--format=json"]);
    assert_eq!(code, 0, "{stderr}");
    let from_cargo: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(from_cargo, from_manifests);
    let (_, text, _) = with_cargo(&["blast-radius"]);
    assert!(
        text.contains("cargo `Cargo.toml` (4 packages, read by cargo metadata)"),
        "{text}"
    );
    // A manifest edited after `git add` is not the staged one: cargo cannot vouch for it.
    sandbox.write(
        "crates/tool/Cargo.toml",
        crate_manifest("tool", "core = { path = \"../core\" }\n"),
    );
    let (_, text, _) = with_cargo(&["blast-radius"]);
    assert!(text.contains("cargo `Cargo.toml` (4 packages);"), "{text}");
    assert!(text.contains("not affected: tool"), "{text}");
}

#[test]
fn impacted_components_is_a_policy_argument() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "crates/core/src/lib.rs");
    let (code, stdout, stderr) = output(astrix(&sandbox).arg("check"));
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert!(stdout.contains("impacted_components is 4"), "{stdout}");
    assert!(stdout.contains("astrix blast-radius"), "{stdout}");
    let (_, stdout, _) = output(astrix(&sandbox).args(["check", "--explain", "--format=json"]));
    let decision: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(decision["intent"]["diff"]["impacted_components"], 4);

    sandbox.git(&["reset", "-q", "--hard"]);
    touch(&sandbox, "crates/cli/src/lib.rs");
    let (code, stdout, _) = output(astrix(&sandbox).arg("check"));
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("impacted_components is 1"), "{stdout}");
}

#[test]
fn impacted_tests_lists_the_commands() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "crates/core/src/lib.rs");
    snapshot(&sandbox, "impacted_tests_cargo_text", &["impacted-tests"]);
    snapshot(
        &sandbox,
        "impacted_tests_cargo_json",
        &["impacted-tests", "--format=json"],
    );
}

#[test]
fn impacted_tests_run_a_real_cargo_test() {
    let sandbox = cargo_fixture();
    touch(&sandbox, "crates/tool/src/lib.rs");
    let toolchain = Path::new(env!("CARGO")).parent().unwrap();
    let (code, stdout, stderr) = output(
        astrix(&sandbox)
            .env(
                "PATH",
                format!("{}:/usr/local/bin:/usr/bin:/bin", toolchain.display()),
            )
            .env("CARGO_TARGET_DIR", sandbox.path().join("target"))
            .args(["impacted-tests", "--run", "--format=json"]),
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let result: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(result["results"][0]["command"], "cargo test -p tool");
    assert_eq!(result["results"][0]["passed"], true);
    assert!(stderr.contains("[1/1] tool: passed in"), "{stderr}");
}

/// Declared components only, with shell commands as tests: one passes, one fails.
fn run_fixture() -> Sandbox {
    let sandbox = Sandbox::new();
    init(&sandbox);
    sandbox.write("pass/a.txt", "a\n");
    sandbox.write("fail/b.txt", "b\n");
    sandbox.write(
        "Astrixfile.ax",
        r#"version = 1

[impact]
discover = false

[[component]]
name = "pass"
paths = ["pass/**"]
test = "echo all good"

[[component]]
name = "fail"
paths = ["fail/**"]
test = "echo something broke >&2; exit 1"
"#,
    );
    commit_all(&sandbox, "init");
    sandbox
}

#[test]
fn run_exits_1_when_a_test_fails() {
    let sandbox = run_fixture();
    touch(&sandbox, "pass/a.txt");
    touch(&sandbox, "fail/b.txt");
    snapshot(
        &sandbox,
        "impacted_tests_run_failing",
        &["impacted-tests", "--run"],
    );
    snapshot(
        &sandbox,
        "impacted_tests_run_failing_json",
        &["impacted-tests", "--run", "--format=json"],
    );
}

#[test]
fn run_exits_0_when_every_test_passes() {
    let sandbox = run_fixture();
    touch(&sandbox, "pass/a.txt");
    snapshot(
        &sandbox,
        "impacted_tests_run_passing",
        &["impacted-tests", "--run"],
    );
}

#[test]
fn run_without_tests_passes() {
    let sandbox = run_fixture();
    let (code, stdout, _) = output(astrix(&sandbox).args(["impacted-tests", "--run"]));
    assert_eq!(code, 0);
    assert!(stdout.contains("no tests to run"), "{stdout}");
}

/// An npm workspace: `app → @acme/ui → @acme/core` with `workspace:*` specifiers.
#[test]
fn npm_workspace() {
    let sandbox = Sandbox::new();
    init(&sandbox);
    sandbox.write(
        "package.json",
        r#"{"private": true, "workspaces": ["packages/*"]}"#,
    );
    sandbox.write("package-lock.json", "{}\n");
    sandbox.write(
        "packages/core/package.json",
        r#"{"name": "@acme/core", "scripts": {"test": "node --test"}}"#,
    );
    sandbox.write("packages/core/index.js", "export const core = 1;\n");
    sandbox.write(
        "packages/ui/package.json",
        r#"{"name": "@acme/ui", "dependencies": {"@acme/core": "workspace:*"}, "scripts": {"test": "node --test"}}"#,
    );
    sandbox.write(
        "packages/app/package.json",
        r#"{"name": "app", "devDependencies": {"@acme/ui": "workspace:*"}}"#,
    );
    sandbox.write(
        "packages/other/package.json",
        r#"{"name": "other", "dependencies": {"left-pad": "^1.3.0"}}"#,
    );
    commit_all(&sandbox, "init");
    touch(&sandbox, "packages/core/index.js");
    snapshot(&sandbox, "blast_npm_text", &["blast-radius"]);
    snapshot(&sandbox, "impacted_tests_npm_text", &["impacted-tests"]);
}

/// A pnpm workspace: `pnpm-workspace.yaml`, `apps/web → libs/util`.
#[test]
fn pnpm_workspace() {
    let sandbox = Sandbox::new();
    init(&sandbox);
    sandbox.write("package.json", r#"{"private": true}"#);
    sandbox.write(
        "pnpm-workspace.yaml",
        "packages:\n  - 'apps/*'\n  - 'libs/*'\n  - '!libs/legacy'\n",
    );
    sandbox.write(
        "apps/web/package.json",
        r#"{"name": "web", "dependencies": {"util": "workspace:^"}, "scripts": {"test": "vitest run"}}"#,
    );
    sandbox.write("apps/admin/package.json", r#"{"name": "admin"}"#);
    sandbox.write(
        "libs/util/package.json",
        r#"{"name": "util", "scripts": {"test": "vitest run"}}"#,
    );
    sandbox.write("libs/util/src/index.ts", "export const util = 1;\n");
    sandbox.write("libs/legacy/package.json", r#"{"name": "legacy"}"#);
    commit_all(&sandbox, "init");
    touch(&sandbox, "libs/util/src/index.ts");
    snapshot(&sandbox, "blast_pnpm_text", &["blast-radius"]);
    snapshot(
        &sandbox,
        "impacted_tests_pnpm_json",
        &["impacted-tests", "--format=json"],
    );
}

/// A uv workspace: the root project depends on `lib-a` (a workspace source), which depends
/// on `lib-b`.
#[test]
fn uv_workspace() {
    let sandbox = Sandbox::new();
    init(&sandbox);
    sandbox.write(
        "pyproject.toml",
        "[project]\nname = \"app\"\nversion = \"0.1.0\"\ndependencies = [\"lib-a\"]\n\n\
         [tool.uv.workspace]\nmembers = [\"packages/*\"]\n\n\
         [tool.uv.sources]\nlib-a = { workspace = true }\nlib-b = { workspace = true }\n",
    );
    sandbox.write("uv.lock", "version = 1\n");
    sandbox.write("app/main.py", "print('app')\n");
    sandbox.write(
        "packages/lib-a/pyproject.toml",
        "[project]\nname = \"lib-a\"\nversion = \"0.1.0\"\ndependencies = [\"lib-b>=0.1\"]\n",
    );
    sandbox.write(
        "packages/lib-b/pyproject.toml",
        "[project]\nname = \"lib-b\"\nversion = \"0.1.0\"\n",
    );
    sandbox.write("packages/lib-b/src/lib_b/__init__.py", "X = 1\n");
    sandbox.write(
        "packages/lib-c/pyproject.toml",
        "[project]\nname = \"lib-c\"\nversion = \"0.1.0\"\n",
    );
    commit_all(&sandbox, "init");
    touch(&sandbox, "packages/lib-b/src/lib_b/__init__.py");
    snapshot(&sandbox, "blast_uv_text", &["blast-radius"]);
    snapshot(&sandbox, "impacted_tests_uv_text", &["impacted-tests"]);
}

#[test]
fn a_broken_manifest_makes_everything_affected() {
    let sandbox = cargo_fixture();
    sandbox.write("crates/tool/Cargo.toml", "[package\nname = \"tool\"\n");
    touch(&sandbox, "crates/core/src/lib.rs");
    let radius = json(&sandbox, &["blast-radius"]);
    assert_eq!(radius["all_affected"], true);
    let reasons = radius["all_reasons"].as_array().unwrap();
    let reason = reasons
        .iter()
        .find(|reason| reason["kind"] == "problem")
        .unwrap();
    assert!(
        reason["message"]
            .as_str()
            .unwrap()
            .starts_with("`crates/tool/Cargo.toml` is not valid TOML"),
        "{reason}"
    );
}

#[test]
fn an_unknown_dependency_of_a_declared_component_makes_everything_affected() {
    let sandbox = cargo_fixture();
    let policy = std::fs::read_to_string(sandbox.path().join("Astrixfile.ax")).unwrap();
    sandbox.write(
        "Astrixfile.ax",
        policy.replace("depends_on = [\"api\"]", "depends_on = [\"apu\"]"),
    );
    commit_all(&sandbox, "typo");
    touch(&sandbox, "crates/tool/src/lib.rs");
    let radius = json(&sandbox, &["blast-radius"]);
    assert_eq!(radius["all_affected"], true);
    let message = radius["all_reasons"][0]["message"].as_str().unwrap();
    assert!(message.contains("did you mean `api`?"), "{message}");
}

/// The backstop judges a commit on the component graph of that commit (not the index).
#[test]
fn the_backstop_counts_impacted_components_of_the_commit() {
    let sandbox = cargo_fixture();
    let old = sandbox.git(&["rev-parse", "HEAD"]).trim().to_owned();
    touch(&sandbox, "crates/core/src/lib.rs");
    sandbox.git(&["commit", "-q", "-m", "core"]);
    let new = sandbox.git(&["rev-parse", "HEAD"]).trim().to_owned();
    // The index now differs from the commit: the graph must come from the commit.
    sandbox.write("crates/api/Cargo.toml", crate_manifest("api", ""));
    sandbox.git(&["add", "-A"]);
    let mut command = astrix(&sandbox);
    command.args(["hook", "reference-transaction", "prepared"]);
    // What git sends for a commit: HEAD, and the branch it points at.
    let output = output_with_stdin(
        command,
        format!("{old} {new} HEAD\n{old} {new} refs/heads/main\n").as_bytes(),
    );
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(text.contains("impacted_components is 4"), "{text}");
}

/// Without a rule that reads `impacted_components`, `astrix check` does not read the
/// component graph: it succeeds though the root manifest's blob is missing from the object
/// store. With such a rule it must read it, and fails closed.
#[test]
fn the_component_graph_is_read_only_when_a_rule_needs_it() {
    for needs_graph in [false, true] {
        let sandbox = cargo_fixture();
        if !needs_graph {
            let policy = std::fs::read_to_string(sandbox.path().join("Astrixfile.ax")).unwrap();
            let without = policy.replace("impacted_components <= 2", "files_changed <= 100");
            sandbox.write("Astrixfile.ax", without);
            commit_all(&sandbox, "no blast-radius rule");
        }
        touch(&sandbox, "crates/core/src/lib.rs");
        let blob = sandbox.git(&["rev-parse", ":Cargo.toml"]);
        let blob = blob.trim();
        std::fs::remove_file(
            sandbox
                .path()
                .join(".git/objects")
                .join(&blob[..2])
                .join(&blob[2..]),
        )
        .unwrap();
        let (code, stdout, stderr) = output(astrix(&sandbox).arg("check"));
        if needs_graph {
            assert_eq!(code, 2, "{stdout}{stderr}");
            assert!(stderr.contains("component graph"), "{stderr}");
        } else {
            assert_eq!(code, 0, "{stdout}{stderr}");
            assert!(!stdout.contains("impacted_components"), "{stdout}");
        }
    }
}

/// A named file that exists nowhere is still analysed (as a new file of that name), but the
/// answer says that it does not exist, instead of only "everything is affected"; a file that
/// was deleted, or is only staged, is no mistake. Covers issue 22.
#[test]
fn a_named_file_that_does_not_exist_is_reported() {
    let sandbox = cargo_fixture();
    let (code, _, stderr) = output(astrix(&sandbox).args(["blast-radius", "nosuch/file.rs"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "warning: `nosuch/file.rs` does not exist (not in the work tree, the index or HEAD); it is analysed as a new file of that name — check the path\n"
    );
    let (code, _, stderr) = output(astrix(&sandbox).args(["impacted-tests", "nosuch/file.rs"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("`nosuch/file.rs` does not exist"),
        "{stderr}"
    );

    std::fs::remove_file(sandbox.path().join("README.md")).unwrap();
    sandbox.write("new.rs", "");
    sandbox.git(&["add", "new.rs"]);
    std::fs::remove_file(sandbox.path().join("new.rs")).unwrap();
    let (code, _, stderr) = output(astrix(&sandbox).args(["blast-radius", "README.md", "new.rs"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "");
}
