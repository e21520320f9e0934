//! The commit gate end to end (SPEC §6): real `git commit` runs — and merges, rebases,
//! cherry-picks and fast-forwards — in temporary repositories with the hooks that
//! `astrix install` writes, which run the astrix binary under test.
//!
//! Every git and astrix process gets the isolated environment of [`isolated`]: no global
//! git configuration, no `GIT_*` variables and no agent markers from the machine; a test
//! that plays an agent sets a marker itself. Approvals are typed into `astrix approve`
//! through a pseudo-terminal made by `script(1)`.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::common::{ASTRIX, Sandbox, isolated, output_with_stdin, settings};

/// Variables added to the isolated environment.
pub(crate) type Env = &'static [(&'static str, &'static str)];

/// What an agent's processes carry: a marker of Claude Code.
pub(crate) const AGENT: Env = &[("CLAUDECODE", "1")];
/// A person at a shell: no marker.
pub(crate) const HUMAN: Env = &[];

/// The policy most tests commit first: environments as the built-in default has them, and
/// rules for each kind of decision (the built-in default's tampering rules need counts that
/// are tested elsewhere).
pub(crate) const POLICY: &str = r#"version = 1

[[environment]]
name = "production"
branches = ["main", "master", "release/*"]

[[environment]]
name = "staging"
branches = ["develop"]

[[rule]]
id = "agents-off-production"
actor = ["autonomous_llm"]
env = ["production"]
decision = "deny"
reason = "agents do not commit to production branches"

[[rule]]
id = "agents-touching-tests"
actor = ["autonomous_llm"]
modifies_tests = true
decision = "require_approval"
reason = "a human signs off on test changes made by an agent"

[[rule]]
id = "agents-diff-size"
actor = ["autonomous_llm"]
policy = "lines_changed <= 20"
reason = "agent changes over 20 lines need a review"

[[rule]]
id = "agents-binary"
actor = ["autonomous_llm"]
policy = "binary_files == 0"
reason = "binary files from an agent need a review"

[[rule]]
id = "agents-vendor"
actor = ["autonomous_llm"]
paths = ["vendor/**"]
decision = "require_approval"
reason = "vendored code from an agent needs a review"

[[rule]]
id = "secrets"
paths = ["*.secret"]
decision = "deny"
reason = "secrets never land"
"#;

/// A repository at `<sandbox>/repo` with astrix's hooks installed.
pub(crate) struct Gate {
    sandbox: Sandbox,
    pub(crate) root: PathBuf,
}

impl Gate {
    /// A repository on `main` whose first commit (made before the hooks were installed)
    /// holds [`POLICY`], `README.md`, `src/lib.rs` and `tests/t.rs`.
    pub(crate) fn new() -> Self {
        Self::with_policy(Some(POLICY))
    }

    /// Like [`Self::new`], with `policy` as the committed Astrixfile.ax (none for `None`).
    pub(crate) fn with_policy(policy: Option<&str>) -> Self {
        Self::with_init(&[], policy)
    }

    /// Like [`Self::with_policy`], with `init` added to `git init` (`--ref-format=reftable`).
    pub(crate) fn with_init(init: &[&str], policy: Option<&str>) -> Self {
        let gate = Self::init_with(init);
        gate.write("README.md", "hello\n");
        gate.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
        gate.write(
            "tests/t.rs",
            "#[test]\nfn one() {\n    assert_eq!(1, 1);\n}\n",
        );
        if let Some(policy) = policy {
            gate.write("Astrixfile.ax", policy);
        }
        gate.setup_commit("initial");
        gate.install();
        gate
    }

    /// An empty repository on an unborn `main`, with the hooks installed.
    fn empty() -> Self {
        let gate = Self::init();
        gate.install();
        gate
    }

    fn init() -> Self {
        Self::init_with(&[])
    }

    fn init_with(init: &[&str]) -> Self {
        let sandbox = Sandbox::new();
        let root = sandbox.path().join("repo");
        fs::create_dir(&root).unwrap();
        let gate = Self { sandbox, root };
        let mut args = vec!["init", "-q", "-b", "main"];
        args.extend_from_slice(init);
        gate.git(&args);
        // The approver's identity (commits take theirs from the isolated environment).
        let config = gate.root.join(".git/config");
        let mut text = fs::read_to_string(&config).unwrap();
        text.push_str("[user]\n\tname = Hu Man\n\temail = hu@example.com\n");
        text.push_str("[commit]\n\tgpgsign = false\n");
        fs::write(&config, text).unwrap();
        gate
    }

    pub(crate) fn install(&self) {
        let output = isolated(ASTRIX, &self.root)
            .arg("install")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let shim = fs::read_to_string(self.root.join(".git/hooks/pre-commit")).unwrap();
        assert!(shim.contains(&format!("astrix_bin='{ASTRIX}'")), "{shim}");
    }

    pub(crate) fn temp(&self) -> &Path {
        self.sandbox.path()
    }

    pub(crate) fn write(&self, relative: &str, contents: impl AsRef<[u8]>) {
        let path = self.root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    /// `git args` as a human in the work tree; fails the test when git fails.
    pub(crate) fn git(&self, args: &[&str]) -> String {
        let output = git_at(&self.root, HUMAN, args);
        assert!(
            output.status.success(),
            "git {args:?} failed: {}{}",
            stdout(&output),
            stderr(&output)
        );
        stdout(&output)
    }

    /// `git commit -q args` in the work tree, as `env` says who commits.
    pub(crate) fn commit(&self, env: &[(&str, &str)], args: &[&str]) -> Output {
        commit_at(&self.root, env, args)
    }

    /// A `git commit -q args` command, for snapshots.
    pub(crate) fn commit_command(&self, env: &[(&str, &str)], args: &[&str]) -> Command {
        let mut command = isolated("git", &self.root);
        command
            .envs(env.iter().copied())
            .args(["commit", "-q"])
            .args(args);
        command
    }

    /// Commits everything without the hooks, as history that was there before astrix
    /// watched: the record of the tips it let protected branches take starts again, so that
    /// the next update takes the branches as they are (a commit made without the hooks is
    /// otherwise a protected branch that moved unseen, which `unseen_moves_*` tests).
    pub(crate) fn setup_commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&[
            "-c",
            "core.hooksPath=/nonexistent",
            "commit",
            "-q",
            "-m",
            message,
        ]);
        let _ = fs::remove_file(self.root.join(".git/astrix/branch-tips.jsonl"));
    }

    pub(crate) fn rev(&self, rev: &str) -> String {
        self.git(&["rev-parse", rev]).trim().to_owned()
    }

    pub(crate) fn head(&self) -> String {
        self.rev("HEAD")
    }

    /// The staged paths (`git diff --cached --name-only`).
    pub(crate) fn staged(&self) -> Vec<String> {
        split_z(
            self.git(&["diff", "--cached", "--name-only", "--no-renames", "-z"])
                .as_bytes(),
        )
    }

    /// The paths a commit changes against its first parent.
    pub(crate) fn changed_in(&self, rev: &str) -> Vec<String> {
        split_z(
            self.git(&[
                "diff-tree",
                "-r",
                "--root",
                "--no-commit-id",
                "--name-only",
                "--no-renames",
                "-z",
                rev,
            ])
            .as_bytes(),
        )
    }

    pub(crate) fn astrix(&self, env: &[(&str, &str)], args: &[&str]) -> Output {
        astrix_at(&self.root, env)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// The staged change's intent, as `env` would send it.
    pub(crate) fn intent(&self, env: &[(&str, &str)]) -> Value {
        let output = self.astrix(env, &["intent"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        serde_json::from_slice(&output.stdout).unwrap()
    }

    /// A human approves what is staged; returns the approval's id.
    pub(crate) fn approve(&self, args: &[&str]) -> String {
        let output = approve_at(&self.root, args, "y\n");
        let text = stdout(&output);
        assert_eq!(output.status.code(), Some(0), "{text}");
        approval_id(&text)
    }

    /// The audit log as JSON.
    pub(crate) fn log(&self) -> Vec<Value> {
        let output = self.astrix(HUMAN, &["log", "--format", "json"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        serde_json::from_slice::<Vec<Value>>(&output.stdout).unwrap()
    }
}

/// `git args` in `dir` with `env` added to the isolated environment, whatever its outcome.
pub(crate) fn git_at(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    isolated("git", dir)
        .envs(env.iter().copied())
        // `rebase --continue` and friends would open an editor.
        .env("GIT_EDITOR", "true")
        .args(args)
        .output()
        .unwrap()
}

/// `git commit -q args` in `dir`, as `env` says who commits.
pub(crate) fn commit_at(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut all = vec!["commit", "-q"];
    all.extend_from_slice(args);
    git_at(dir, env, &all)
}

/// astrix in `dir` with `env`.
pub(crate) fn astrix_at(dir: &Path, env: &[(&str, &str)]) -> Command {
    let mut command = isolated(ASTRIX, dir);
    command.envs(env.iter().copied());
    command
}

/// `astrix approve args` in `dir` at a pseudo-terminal, with `answer` typed in. The approver
/// is the person the repository's configuration names (`user.name`): the isolated
/// environment's committer variables, which git would prefer, are for the commits.
pub(crate) fn approve_at(dir: &Path, args: &[&str], answer: &str) -> Output {
    approve_as(dir, args, answer, &[])
}

/// Like [`approve_at`], with `env` added to the approver's environment.
pub(crate) fn approve_as(dir: &Path, args: &[&str], answer: &str, env: &[(&str, &str)]) -> Output {
    let mut line = shell_quote(ASTRIX);
    line.push_str(" approve");
    for arg in args {
        line.push(' ');
        line.push_str(&shell_quote(arg));
    }
    let mut command = isolated("script", dir);
    for name in [
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
    ] {
        command.env_remove(name);
    }
    command
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .args(["-qec", &line, "/dev/null"]);
    output_with_stdin(command, answer.as_bytes())
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn split_z(bytes: &[u8]) -> Vec<String> {
    bytes
        .split(|byte| *byte == 0)
        .filter(|part| !part.is_empty())
        .map(|part| String::from_utf8_lossy(part).into_owned())
        .collect()
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The id in `approved `<id>` until …`.
pub(crate) fn approval_id(text: &str) -> String {
    let rest = text
        .split("approved `")
        .nth(1)
        .unwrap_or_else(|| panic!("no approval in:\n{text}"));
    rest.split('`').next().unwrap().to_owned()
}

/// A commit the pre-commit hook stopped: git's exit 1, the report on stderr, HEAD where it
/// was.
#[track_caller]
pub(crate) fn assert_stopped_by_pre_commit(gate: &Gate, output: &Output, head: &str, report: &str) {
    assert_eq!(output.status.code(), Some(1), "{}", stderr(output));
    assert!(stderr(output).contains(report), "{}", stderr(output));
    assert!(
        !stderr(output).contains("astrix: the reference-transaction hook stopped"),
        "{}",
        stderr(output)
    );
    assert_eq!(gate.head(), head);
}

/// An update the backstop stopped: git's exit 128 with its message, HEAD where it was.
#[track_caller]
pub(crate) fn assert_stopped_by_backstop(gate: &Gate, output: &Output, head: &str, report: &str) {
    let text = stderr(output);
    assert_eq!(output.status.code(), Some(128), "{text}");
    assert!(
        text.contains("fatal: ref updates aborted by hook"),
        "{text}"
    );
    assert!(
        text.contains("astrix: the reference-transaction hook stopped the update of branch"),
        "{text}"
    );
    assert!(text.contains(report), "{text}");
    assert_eq!(gate.head(), head);
}

#[track_caller]
pub(crate) fn assert_committed(gate: &Gate, output: &Output, before: &str) -> String {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        stdout(output),
        stderr(output)
    );
    let head = gate.head();
    assert_ne!(head, before, "HEAD did not move");
    head
}

pub(crate) const HELD: &str = "astrix: held for approval";
pub(crate) const DENIED: &str = "astrix: denied";

/// Snapshot settings: temp paths, commit ids, approval ids and times filtered.
pub(crate) fn gate_settings(temp: &Path) -> insta::Settings {
    let mut settings = settings(temp);
    settings.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
    settings.add_filter(r"\b[0-9a-f]{12}\b", "[ID]");
    settings.add_filter(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\b", "[TIME]");
    settings
}

macro_rules! gate_snapshot {
    ($gate:expr, $name:expr, $cmd:expr) => {
        gate_settings($gate.temp()).bind(|| {
            insta_cmd::assert_cmd_snapshot!($name, $cmd);
        })
    };
}

// ---------------------------------------------------------------------------------------
// The forms of `git commit`

#[test]
fn plain_commits_of_a_human_pass_and_are_logged_once() {
    let gate = Gate::new();
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    let before = gate.head();
    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "two"]), &before);
    assert_eq!(gate.changed_in(&head), ["src/lib.rs"]);
    assert!(gate.staged().is_empty());
    // pre-commit judged it, and the backstop skipped what pre-commit had passed.
    let log = gate.log();
    assert_eq!(log.len(), 1, "{log:#?}");
    assert_eq!(log[0]["hook"], "pre-commit");
    assert_eq!(log[0]["decision"], "allow");
    assert_eq!(log[0]["actor"], "human");
    assert_eq!(log[0]["target"], "production");
    assert_eq!(log[0]["branch"], "main");
    assert_eq!(log[0]["commit"], before.as_str());
}

#[test]
fn commit_all_judges_the_work_tree_changes_it_adds() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    // Nothing is staged: only `-a` brings the test change into the commit.
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    let before = gate.head();
    let output = gate.commit(AGENT, &["-a", "-m", "weaken"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-touching-tests]");
    assert!(stderr(&output).contains("change  1 file, +1 -3 lines"));
    // git rolled its temporary index back: nothing staged, the work tree as it was.
    assert!(gate.staged().is_empty());
    assert_eq!(
        gate.git(&["status", "--porcelain", "--untracked-files=no"]),
        " M tests/t.rs\n"
    );

    gate.git(&["checkout", "tests/t.rs"]);
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    let head = assert_committed(&gate, &gate.commit(AGENT, &["-a", "-m", "two"]), &before);
    assert_eq!(gate.changed_in(&head), ["src/lib.rs"]);
    // pre-commit judged the index git committed, so the backstop skipped it.
    let log = gate.log();
    let hooks: Vec<&str> = log
        .iter()
        .map(|entry| entry["hook"].as_str().unwrap())
        .collect();
    assert_eq!(hooks, ["pre-commit", "pre-commit"]);
}

#[test]
fn commit_with_paths_judges_only_the_named_paths() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    // A held test change is staged; the agent commits only src/lib.rs.
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    let before = gate.head();
    let head = assert_committed(
        &gate,
        &gate.commit(AGENT, &["-m", "two", "src/lib.rs"]),
        &before,
    );
    assert_eq!(gate.changed_in(&head), ["src/lib.rs"]);
    assert_eq!(gate.staged(), ["tests/t.rs"]);
    // The backstop found exactly what pre-commit passed, and did not judge it again.
    let log = gate.log();
    assert_eq!(log.len(), 1, "{log:#?}");
    assert_eq!(log[0]["files"], 1);

    // The other way round: the staged source change is allowed, the named test is not.
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    3\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    gate.git(&["restore", "--staged", "tests/t.rs"]);
    let output = gate.commit(AGENT, &["-m", "tests", "tests/t.rs"]);
    assert_stopped_by_pre_commit(&gate, &output, &head, "[agents-touching-tests]");
    assert_eq!(gate.staged(), ["src/lib.rs"]);
}

#[test]
fn commit_from_a_subdirectory_judges_the_whole_index() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let before = gate.head();
    let src = gate.root.join("src");
    let output = commit_at(&src, AGENT, &["-m", "from src"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-touching-tests]");

    // A human commits the same from there, and `astrix check` agrees from any directory.
    let check = astrix_at(&src, HUMAN).arg("check").output().unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert_committed(&gate, &commit_at(&src, HUMAN, &["-m", "x"]), &before);
}

#[test]
fn no_verify_is_stopped_by_the_backstop_and_the_change_stays_staged() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let before = gate.head();
    gate_snapshot!(
        gate,
        "backstop_stops_a_held_commit_under_no_verify",
        gate.commit_command(AGENT, &["--no-verify", "-m", "weaken"])
    );
    assert_eq!(gate.head(), before);
    assert_eq!(gate.staged(), ["tests/t.rs"]);
    let output = gate.commit(AGENT, &["--no-verify", "-m", "weaken"]);
    assert_stopped_by_backstop(&gate, &output, &before, "[agents-touching-tests]");
    assert!(
        stderr(&output)
            .contains("`git commit --no-verify` skips only the pre-commit hook, not astrix"),
        "{}",
        stderr(&output)
    );
    assert_eq!(gate.staged(), ["tests/t.rs"]);

    // Denied on a production branch, the same.
    gate.git(&["switch", "-q", "main"]);
    gate_snapshot!(
        gate,
        "backstop_stops_a_denied_commit_under_no_verify",
        gate.commit_command(AGENT, &["--no-verify", "-m", "weaken"])
    );
    assert_eq!(gate.head(), before);
    assert_eq!(gate.staged(), ["tests/t.rs"]);
    let log = gate.log();
    assert!(
        log.iter()
            .all(|entry| entry["hook"] == "reference-transaction"),
        "{log:#?}"
    );
    let decisions: Vec<&Value> = log.iter().map(|entry| &entry["decision"]).collect();
    assert_eq!(decisions, ["require_approval", "require_approval", "deny"]);

    // A human's `--no-verify` commit is judged too, and passes.
    let head = assert_committed(
        &gate,
        &gate.commit(HUMAN, &["--no-verify", "-m", "human"]),
        &before,
    );
    assert_eq!(gate.changed_in(&head), ["tests/t.rs"]);
    assert_eq!(gate.log().last().unwrap()["decision"], "allow");
}

/// Regression (issue 3): `astrix approve --amend` judged and showed only what changed since
/// HEAD (so a change grown past a limit had "nothing to approve"), and pre-commit never
/// accepted an amend's approval.
#[test]
fn amending_is_judged_as_the_whole_commit() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    let base = gate.head();
    let lines = |range: std::ops::Range<u32>| -> String {
        range.fold(String::new(), |mut text, n| {
            text.push_str(&format!("pub const N{n}: u32 = {n};\n"));
            text
        })
    };
    gate.write("src/consts.rs", lines(0..15));
    gate.git(&["add", "src/consts.rs"]);
    let first = assert_committed(&gate, &gate.commit(AGENT, &["-m", "consts"]), &base);

    // Growing a change past a limit piece by piece: 15 lines, then 10 more. pre-commit
    // sees the 10; the backstop judges the amended commit whole (25 lines).
    gate.write("src/consts.rs", lines(0..25));
    gate.git(&["add", "src/consts.rs"]);
    let output = gate.commit(AGENT, &["--amend", "-m", "more consts"]);
    assert_stopped_by_backstop(
        &gate,
        &output,
        &first,
        "(the amended commit, judged whole against its parent)",
    );
    assert!(stderr(&output).contains("lines_changed is 25"));
    assert!(
        stderr(&output).contains("run `astrix approve --amend`"),
        "{}",
        stderr(&output)
    );
    assert_eq!(gate.staged(), ["src/consts.rs"]);
    // A human approves exactly that amend, seeing the whole commit, and the same
    // `git commit --amend` goes through.
    let approval = approve_at(&gate.root, &["--amend"], "y\n");
    let text = stdout(&approval);
    assert_eq!(approval.status.code(), Some(0), "{text}");
    assert!(text.contains("A src/consts.rs  +25 -0"), "{text}");
    assert!(text.contains("[agents-diff-size]"), "{text}");
    assert!(
        text.contains("run the same `git commit` again (with --amend)"),
        "{text}"
    );
    let second = assert_committed(
        &gate,
        &gate.commit(AGENT, &["--amend", "-m", "more consts"]),
        &first,
    );
    assert_eq!(gate.rev("HEAD^"), base);
    assert_eq!(gate.changed_in(&second), ["src/consts.rs"]);

    // A held change amended in: pre-commit stops it, with and without `-m`.
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    for args in [
        &["--amend", "--no-edit"][..],
        &["--amend", "-m", "consts and tests"],
    ] {
        let output = gate.commit(AGENT, args);
        assert_stopped_by_pre_commit(&gate, &output, &second, "[agents-touching-tests]");
        assert_eq!(gate.staged(), ["tests/t.rs"]);
        // git does not tell pre-commit that it amends, so it names the one approval that
        // covers the whole amend (issue 22), which the rest of this test uses.
        assert!(
            stderr(&output).contains(
                "run `astrix approve` in this repository (for a `git commit --amend`, `astrix approve --amend`: it approves the whole amended commit, which both hooks judge); then run the same `git commit` again"
            ),
            "{}",
            stderr(&output)
        );
    }
    // Without pre-commit, the backstop judges the rewritten commit.
    let output = gate.commit(AGENT, &["--amend", "-m", "consts and tests", "--no-verify"]);
    assert_stopped_by_backstop(&gate, &output, &second, "[agents-touching-tests]");

    // Approved as an amend, it is not approved as a new commit on top of HEAD: pre-commit
    // cannot tell the two apart and lets it by, the backstop can and stops it.
    let approval = approve_at(&gate.root, &["--amend"], "y\n");
    let text = stdout(&approval);
    assert_eq!(approval.status.code(), Some(0), "{text}");
    assert!(text.contains("A src/consts.rs  +25 -0"), "{text}");
    assert!(text.contains("M tests/t.rs  +1 -3"), "{text}");
    let output = gate.commit(AGENT, &["-m", "tests on top"]);
    assert_stopped_by_backstop(&gate, &output, &second, "(a new commit)");
    assert_eq!(gate.staged(), ["tests/t.rs"]);
    let output = gate.commit(AGENT, &["--amend", "-m", "consts and tests"]);
    let third = assert_committed(&gate, &output, &second);
    assert!(
        stderr(&output).contains("for `git commit --amend`"),
        "{}",
        stderr(&output)
    );
    assert_eq!(gate.rev("HEAD^"), base);
    assert_eq!(gate.changed_in(&third), ["src/consts.rs", "tests/t.rs"]);

    // A human amends freely.
    gate.write("README.md", "hello again\n");
    gate.git(&["add", "README.md"]);
    let fourth = assert_committed(
        &gate,
        &gate.commit(HUMAN, &["--amend", "-m", "consts, tests, readme"]),
        &third,
    );
    assert_eq!(gate.rev("HEAD^"), base);
    assert_eq!(
        gate.changed_in(&fourth),
        ["README.md", "src/consts.rs", "tests/t.rs"]
    );
}

#[test]
fn a_linked_worktree_shares_approvals_and_the_log() {
    let gate = Gate::new();
    let linked = gate.temp().join("linked");
    gate.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "feature",
        &linked.display().to_string(),
    ]);
    fs::write(linked.join("tests/t.rs"), "#[test]\nfn one() {}\n").unwrap();
    assert!(
        git_at(&linked, HUMAN, &["add", "tests/t.rs"])
            .status
            .success()
    );
    let before = gate.head();
    let output = commit_at(&linked, AGENT, &["-m", "in the worktree"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains(HELD), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("target  development — default `development` (branch `feature`"),
        "{}",
        stderr(&output)
    );

    // Approved in the worktree, listed from the main one.
    let approval = approve_at(&linked, &[], "y\n");
    assert_eq!(approval.status.code(), Some(0), "{}", stdout(&approval));
    let id = approval_id(&stdout(&approval));
    let list = gate.astrix(HUMAN, &["approve", "--list"]);
    assert!(stdout(&list).contains(&id), "{}", stdout(&list));
    assert!(
        gate.root.join(".git/astrix/approvals.json").exists(),
        "approvals live in the common git directory"
    );

    let output = commit_at(&linked, AGENT, &["-m", "in the worktree"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("astrix: allowed (approved)"));
    assert_eq!(gate.head(), before, "main did not move");
    let feature = gate.rev("feature");
    assert_eq!(gate.changed_in(&feature), ["tests/t.rs"]);

    // One log for both worktrees.
    let log = gate.log();
    let branches: Vec<&Value> = log.iter().map(|entry| &entry["branch"]).collect();
    assert_eq!(branches, ["feature", "feature"], "{log:#?}");
    assert_eq!(
        log[1]["approval"].as_str().map(|text| text.contains(&id)),
        Some(true)
    );
}

#[test]
fn first_commit_is_judged_by_the_staged_policy() {
    // No policy staged: the built-in default judges, and denies an agent on `main`.
    let gate = Gate::empty();
    gate.write("README.md", "hello\n");
    gate.git(&["add", "README.md"]);
    let output = gate.commit(AGENT, &["-m", "first"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("[agents-off-production]"), "{text}");
    assert!(
        text.contains(
            "policy  the built-in default policy (the first commit of this repository stages no Astrixfile.ax)"
        ),
        "{text}"
    );
    assert!(
        git_at(&gate.root, HUMAN, &["rev-parse", "-q", "--verify", "HEAD"])
            .stdout
            .is_empty()
    );

    // The staged policy judges the first commit that brings it: its deny applies…
    gate.write("Astrixfile.ax", POLICY);
    gate.write("key.secret", "hunter2\n");
    gate.git(&["add", "-A"]);
    let output = gate.commit(HUMAN, &["-m", "first"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("[secrets] secrets never land"), "{text}");
    assert!(
        text.contains("policy  the staged Astrixfile.ax (the first commit of this repository)"),
        "{text}"
    );
    // …and bringing a policy is itself a policy change, which a human approves.
    gate.git(&["rm", "-q", "--cached", "key.secret"]);
    let output = gate.commit(HUMAN, &["-m", "first"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("[policy-change]"),
        "{}",
        stderr(&output)
    );
    let approval = approve_at(&gate.root, &[], "y\n");
    assert!(
        stdout(&approval).contains("on top of the first commit"),
        "{}",
        stdout(&approval)
    );
    let output = gate.commit(HUMAN, &["-m", "first"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(gate.changed_in("HEAD"), ["Astrixfile.ax", "README.md"]);
}

#[test]
fn first_commit_of_a_human_without_a_policy_passes() {
    let gate = Gate::empty();
    gate.write("README.md", "hello\n");
    gate.git(&["add", "README.md"]);
    let output = gate.commit(HUMAN, &["-m", "first"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(gate.changed_in("HEAD"), ["README.md"]);
    assert_eq!(gate.log().len(), 1);
}

#[test]
fn an_orphan_branch_is_judged_by_the_default_branch_policy() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "--orphan", "pages"]);
    assert!(gate.staged().is_empty());
    gate.write("index.html", "<p>hi</p>\n");
    gate.write("deploy.secret", "hunter2\n");
    gate.git(&["add", "index.html", "deploy.secret"]);
    let output = gate.commit(HUMAN, &["-m", "pages"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("[secrets] secrets never land"), "{text}");
    assert!(
        text.contains("policy  Astrixfile.ax of the default branch `main` ("),
        "{text}"
    );
    assert!(
        text.contains("because `pages` is an orphan branch without commits"),
        "{text}"
    );
    // The same under `--no-verify`: the backstop judges a new root commit.
    let output = gate.commit(HUMAN, &["--no-verify", "-m", "pages"]);
    assert_eq!(output.status.code(), Some(128), "{}", stderr(&output));
    assert!(
        git_at(&gate.root, HUMAN, &["rev-parse", "-q", "--verify", "pages"])
            .stdout
            .is_empty()
    );

    gate.git(&["rm", "-q", "--cached", "deploy.secret"]);
    let output = gate.commit(HUMAN, &["-m", "pages"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(gate.changed_in("pages"), ["index.html"]);
    assert_eq!(gate.git(&["rev-list", "--count", "pages"]).trim(), "1");
}

// ---------------------------------------------------------------------------------------
// Merges, rebases, cherry-picks

#[test]
fn concluding_a_merge_judges_what_it_changes_beyond_its_parents() {
    let gate = Gate::new();
    // A human changes the tests on one branch; an agent works on another.
    gate.git(&["switch", "-q", "-c", "left"]);
    gate.write("tests/t.rs", "#[test]\nfn left() {}\n");
    gate.setup_commit("left tests");
    gate.git(&["switch", "-q", "-c", "agent", "main"]);
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    let before = assert_committed(
        &gate,
        &gate.commit(AGENT, &["-m", "two"]),
        &gate.rev("main"),
    );

    // Clean: the test change it brings was judged when it was made.
    gate.git(&["merge", "-q", "--no-ff", "--no-commit", "left"]);
    let merge = assert_committed(&gate, &gate.commit(AGENT, &["--no-edit"]), &before);
    assert_eq!(
        gate.git(&["rev-list", "--parents", "-n", "1", &merge])
            .split(' ')
            .count(),
        3
    );
    let last = gate.log().pop().unwrap();
    assert_eq!(
        (&last["hook"], &last["decision"], &last["files"]),
        (&"pre-commit".into(), &"allow".into(), &0.into()),
        "{last:#}"
    );

    // Conflicted: both sides changed the tests.
    gate.git(&["switch", "-q", "-c", "right", "main"]);
    gate.write("tests/t.rs", "#[test]\nfn right() {}\n");
    gate.setup_commit("right tests");
    let before = gate.head();
    let output = git_at(&gate.root, AGENT, &["merge", "-q", "left"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    // Unmerged entries: astrix refuses to judge, and says what to do.
    for args in [&["check"][..], &["hook", "pre-commit"]] {
        let output = gate.astrix(AGENT, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains(
                "the index has unresolved conflicts in `tests/t.rs`; resolve them and `git add` the files"
            ),
            "{}",
            stderr(&output)
        );
    }
    // (git itself refuses to commit them before any hook runs.)
    let output = gate.commit(AGENT, &["--no-edit"]);
    assert_eq!(output.status.code(), Some(128), "{}", stderr(&output));
    assert_eq!(gate.head(), before);

    // Resolved with content that differs from both sides: the agent changed the tests.
    gate.write("tests/t.rs", "#[test]\nfn both() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let output = gate.commit(AGENT, &["--no-edit"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-touching-tests]");
    assert!(
        stderr(&output).contains("(concluding a merge: only what differs from every parent)"),
        "{}",
        stderr(&output)
    );
    // Resolved by taking one side: nothing beyond the parents.
    gate.git(&["checkout", "left", "--", "tests/t.rs"]);
    let merge = assert_committed(&gate, &gate.commit(AGENT, &["--no-edit"]), &before);
    assert_eq!(gate.rev(&format!("{merge}^2")), gate.rev("left"));
}

#[test]
fn humans_rebase_and_cherry_pick_as_usual() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "release/2"]);
    gate.write("src/a.rs", "a\n");
    gate.git(&["add", "src/a.rs"]);
    gate.setup_commit("a");
    gate.write("tests/t.rs", "#[test]\nfn release() {}\n");
    gate.setup_commit("release tests");
    let picked = gate.head();
    gate.write("src/b.rs", "b\n");
    gate.git(&["add", "src/b.rs"]);
    gate.setup_commit("b");
    gate.git(&["switch", "-q", "main"]);
    gate.write("tests/t.rs", "#[test]\nfn main() {}\n");
    gate.setup_commit("main tests");
    let main = gate.head();

    // A rebase that stops on a conflict: what is staged to conclude it targets the branch
    // being rebased.
    gate.git(&["switch", "-q", "release/2"]);
    let output = git_at(&gate.root, HUMAN, &["rebase", "main"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    gate.write(
        "tests/t.rs",
        "#[test]\nfn main() {}\n#[test]\nfn release() {}\n",
    );
    gate.git(&["add", "tests/t.rs"]);
    assert_eq!(gate.intent(HUMAN)["target"]["env"], "production");
    let output = git_at(&gate.root, HUMAN, &["rebase", "--continue"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(gate.rev("release/2~3"), main);
    assert_eq!(
        gate.git(&["log", "--format=%s", "main..release/2"]),
        "b\nrelease tests\na\n"
    );
    // git commits a rebase without pre-commit; the backstop judged the one commit whose
    // patch the rebase changed (the conflict resolved), not the two it only moved.
    let log = gate.log();
    assert_eq!(log.len(), 1, "{log:#?}");
    assert_eq!(log[0]["hook"], "reference-transaction");
    assert_eq!(log[0]["branch"], "release/2");
    assert_eq!(log[0]["target"], "production");
    assert_eq!(log[0]["commit"], gate.rev("release/2~1").as_str());
    assert!(
        log.iter().all(|entry| entry["decision"] == "allow"),
        "{log:#?}"
    );

    // Cherry-picks onto main: one clean, one that stops on a conflict.
    gate.git(&["switch", "-q", "main"]);
    gate.git(&["cherry-pick", &gate.rev("release/2~2")]);
    assert_eq!(gate.changed_in("HEAD"), ["src/a.rs"]);
    let output = git_at(&gate.root, HUMAN, &["cherry-pick", &picked]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    gate.write("tests/t.rs", "#[test]\nfn picked() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let before = gate.head();
    let output = git_at(&gate.root, HUMAN, &["cherry-pick", "--continue"]);
    let head = assert_committed(&gate, &output, &before);
    assert_eq!(gate.changed_in(&head), ["tests/t.rs"]);
    assert!(gate.log().iter().all(|entry| entry["decision"] == "allow"));
}

#[test]
fn an_agents_rebase_is_judged_by_what_it_changes_and_approved_as_a_branch_move() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn feature() {}\n");
    gate.setup_commit("tests by a human");
    gate.git(&["switch", "-q", "main"]);
    gate.write("README.md", "main moved on\n");
    gate.setup_commit("main moves on");
    gate.git(&["switch", "-q", "feature"]);
    // A rebase that only moves the branch's commits costs nothing: the same patches.
    let output = git_at(&gate.root, AGENT, &["rebase", "main"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(gate.rev("feature^"), gate.rev("main"));
    assert!(gate.log().is_empty(), "{:#?}", gate.log());

    // A commit made by a step of the rebase, without pre-commit, is judged when the branch
    // would take it; the rebase waits.
    gate.git(&["switch", "-q", "main"]);
    gate.write("README.md", "main moved on again\n");
    gate.setup_commit("main moves on again");
    gate.git(&["switch", "-q", "feature"]);
    let before = gate.head();
    let output = git_at(
        &gate.root,
        AGENT,
        &[
            "rebase",
            "--exec",
            "echo '// more' >> tests/t.rs && git commit -qam sneak --no-verify",
            "main",
        ],
    );
    let text = stderr(&output);
    assert!(!output.status.success(), "{text}");
    assert!(
        text.contains("fatal: ref updates aborted by hook"),
        "{text}"
    );
    assert!(text.contains("[agents-touching-tests]"), "{text}");
    assert!(
        text.contains("\"sneak\", on no branch or other reference"),
        "{text}"
    );
    let tip = gate.rev("HEAD");
    let short = &tip[..12];
    assert!(
        text.contains(&format!(
            "run `astrix approve --branch feature --tip {short}` in this repository; then run `git rebase --continue` again"
        )),
        "{text}"
    );
    assert_eq!(gate.rev("feature"), before);
    // A human approves exactly what the branch would gain, and the rebase completes.
    let approval = approve_at(&gate.root, &["--branch", "feature", "--tip", short], "y\n");
    let shown = stdout(&approval);
    assert_eq!(approval.status.code(), Some(0), "{shown}");
    assert!(shown.contains("M tests/t.rs  +1 -0"), "{shown}");
    assert!(shown.contains("[agents-touching-tests]"), "{shown}");
    let output = git_at(&gate.root, AGENT, &["rebase", "--continue"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(gate.rev("feature"), tip);
    assert_eq!(gate.changed_in("feature"), ["tests/t.rs"]);
}

// ---------------------------------------------------------------------------------------
// What a change is made of

#[test]
fn renames_are_judged_on_both_paths() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.git(&["mv", "tests/t.rs", "src/t.rs"]);
    let intent = gate.intent(AGENT);
    assert_eq!(
        intent["modified_files"],
        serde_json::json!(["src/t.rs", "tests/t.rs"])
    );
    // A pure move counts no lines.
    assert_eq!(intent["diff"]["lines_added"], 0);
    assert_eq!(intent["diff"]["lines_deleted"], 0);
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "move the tests away"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-touching-tests]");
    assert!(stderr(&output).contains("change  2 files, +0 -0 lines"));

    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "move"]), &before);
    assert_eq!(
        gate.git(&["show", "--format=", "--name-status", "-M", &head]),
        "R100\ttests/t.rs\tsrc/t.rs\n"
    );
}

/// File names that quoting, splitting or encoding could get wrong.
const ODD_NAMES: [&str; 5] = [
    "with space.txt",
    "tab\there.txt",
    "new\nline.txt",
    "ünïcødé ✓.txt",
    "-dash.txt",
];

/// Regression (issue 3): `astrix approve` printed names with newlines raw, so a file name
/// could break or forge lines of what a human approves.
#[test]
fn odd_file_names_are_judged_exactly() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    for name in ODD_NAMES {
        gate.write(&format!("docs/{name}"), format!("{name}\n"));
        gate.write(&format!("tests/{name}"), format!("{name}\n"));
    }
    gate.write("docs/my key.secret", "hunter2\n");
    gate.git(&["add", "-A"]);
    let mut expected: Vec<String> = ODD_NAMES
        .iter()
        .flat_map(|name| [format!("docs/{name}"), format!("tests/{name}")])
        .chain(["docs/my key.secret".to_owned()])
        .collect();
    expected.sort();
    let intent = gate.intent(AGENT);
    assert_eq!(intent["modified_files"], serde_json::json!(expected));
    assert_eq!(gate.staged(), expected);

    let before = gate.head();
    let output = gate.commit(HUMAN, &["-m", "odd"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "files: docs/my key.secret");
    gate.git(&["rm", "-q", "--cached", "docs/my key.secret"]);
    expected.retain(|path| !path.ends_with(".secret"));

    let output = gate.commit(AGENT, &["-m", "odd"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-touching-tests]");
    // What a human approves is listed one file a line, whatever the names.
    let approval = approve_at(&gate.root, &[], "n\n");
    let text = stdout(&approval);
    for expected in [
        "A \"tests/new\\nline.txt\"  +2 -0\r\n",
        "A \"tests/tab\\there.txt\"  +1 -0\r\n",
        "A tests/ünïcødé ✓.txt  +1 -0\r\n",
        "A tests/with space.txt  +1 -0\r\n",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "odd"]), &before);
    assert_eq!(gate.changed_in(&head), expected);
}

#[test]
fn deletions_are_judged() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.git(&["rm", "-q", "tests/t.rs"]);
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "drop the tests"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-touching-tests]");
    assert!(stderr(&output).contains("change  1 file, +0 -4 lines"));
    assert_eq!(gate.staged(), ["tests/t.rs"]);
    // An agent may delete source; a human may delete tests.
    gate.git(&["reset", "-q", "HEAD", "--", "tests/t.rs"]);
    gate.git(&["checkout", "tests/t.rs"]);
    gate.git(&["rm", "-q", "src/lib.rs"]);
    let head = assert_committed(&gate, &gate.commit(AGENT, &["-m", "drop lib"]), &before);
    gate.git(&["rm", "-q", "tests/t.rs"]);
    assert_committed(&gate, &gate.commit(HUMAN, &["-m", "drop tests"]), &head);
    assert!(!gate.root.join("tests/t.rs").exists());
    assert_eq!(
        gate.git(&["ls-tree", "-r", "--name-only", "HEAD"]),
        "Astrixfile.ax\nREADME.md\n"
    );
}

#[test]
fn binary_files_are_counted() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write(
        "assets/logo.png",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01",
    );
    gate.git(&["add", "assets/logo.png"]);
    let intent = gate.intent(AGENT);
    assert_eq!(intent["diff"]["binary_files"], 1);
    assert_eq!(intent["diff"]["lines_added"], 0);
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "logo"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-binary]");
    assert!(
        stderr(&output).contains("binary_files is 1"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("change  1 file, +0 -0 lines, 1 binary"));
    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "logo"]), &before);
    assert_eq!(gate.changed_in(&head), ["assets/logo.png"]);
}

#[test]
fn symlinks_are_modified_files() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    symlink("../README.md", gate.root.join("tests/readme")).unwrap();
    gate.git(&["add", "tests/readme"]);
    assert_eq!(
        gate.intent(AGENT)["modified_files"],
        serde_json::json!(["tests/readme"])
    );
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "link"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-touching-tests]");
    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "link"]), &before);
    assert!(
        gate.git(&["ls-tree", &head, "tests/readme"])
            .starts_with("120000 blob "),
        "a symlink was committed"
    );
}

#[test]
fn submodules_are_judged_by_their_pointer() {
    let gate = Gate::new();
    let sub = gate.temp().join("sub");
    fs::create_dir(&sub).unwrap();
    let in_sub = |args: &[&str]| {
        let output = git_at(&sub, HUMAN, args);
        assert!(output.status.success(), "{}", stderr(&output));
    };
    in_sub(&["init", "-q", "-b", "main"]);
    fs::write(sub.join("lib.c"), "int x;\n").unwrap();
    in_sub(&["add", "lib.c"]);
    in_sub(&["commit", "-q", "-m", "lib"]);

    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        &sub.display().to_string(),
        "vendor/lib",
    ]);
    let intent = gate.intent(AGENT);
    assert_eq!(
        intent["modified_files"],
        serde_json::json!([".gitmodules", "vendor/lib"])
    );
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "vendor"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "files: vendor/lib");
    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "vendor"]), &before);

    // A new pointer.
    let inner = gate.root.join("vendor/lib");
    fs::write(inner.join("lib.c"), "int y;\n").unwrap();
    let output = git_at(&inner, HUMAN, &["commit", "-q", "-am", "y"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let pointer = git_at(&inner, HUMAN, &["rev-parse", "HEAD"]);
    gate.git(&["add", "vendor/lib"]);
    assert_eq!(
        gate.intent(AGENT)["modified_files"],
        serde_json::json!(["vendor/lib"])
    );
    let output = gate.commit(AGENT, &["-m", "bump"]);
    assert_stopped_by_pre_commit(&gate, &output, &head, "files: vendor/lib");
    let bumped = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "bump"]), &head);
    assert_eq!(
        gate.git(&["ls-tree", &bumped, "vendor/lib"]),
        format!("160000 commit {}\tvendor/lib\n", stdout(&pointer).trim())
    );
}

// ---------------------------------------------------------------------------------------
// Actor and target

/// Each marker that agents set, and the agent it names.
const MARKERS: [(&str, &str); 12] = [
    ("CLAUDECODE", "claude-code"),
    ("CODEX_SANDBOX", "codex"),
    ("CODEX_THREAD_ID", "codex"),
    ("CODEX_CI", "codex"),
    ("GEMINI_CLI", "gemini-cli"),
    ("COPILOT_CLI", "copilot-cli"),
    ("CURSOR_AGENT", "cursor"),
    ("CLINE_ACTIVE", "cline"),
    ("AUGMENT_AGENT", "augment"),
    ("OPENCODE", "opencode"),
    ("AI_AGENT", "ai-agent"),
    ("AGENT", "agent"),
];

#[test]
fn every_agent_marker_makes_the_actor_an_agent() {
    let gate = Gate::new();
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    for (marker, agent) in MARKERS {
        let check = gate.astrix(
            &[(marker, "1")],
            &["check", "--format", "json", "--explain"],
        );
        assert_eq!(check.status.code(), Some(1), "{marker}");
        let json: Value = serde_json::from_slice(&check.stdout).unwrap();
        assert_eq!(
            json["actor"],
            serde_json::json!({
                "type": "autonomous_llm",
                "id": agent,
                "decided_by": format!("agent marker `{marker}`"),
            })
        );
        assert_eq!(json["intent"]["actor"]["type"], "autonomous_llm");
        assert_eq!(
            json["deciding_rules"],
            serde_json::json!(["agents-off-production"])
        );
    }
    // Through git, which hands its environment to the hooks.
    let before = gate.head();
    for (marker, agent) in [MARKERS[1], MARKERS[11]] {
        let env = [(marker, "1")];
        let output = gate.commit(&env, &["-m", "agent on main"]);
        assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-off-production]");
        assert!(
            stderr(&output).contains(&format!(
                "actor   autonomous_llm ({agent}) — agent marker `{marker}`"
            )),
            "{}",
            stderr(&output)
        );
        let output = gate.commit(&env, &["--no-verify", "-m", "agent on main"]);
        assert_stopped_by_backstop(&gate, &output, &before, "[agents-off-production]");
    }
    // An empty marker is no marker; ASTRIX_ACTOR_TYPE names an agent too.
    assert_eq!(gate.intent(&[("CLAUDECODE", "")])["actor"]["type"], "human");
    let env = [
        ("ASTRIX_ACTOR_TYPE", "autonomous_llm"),
        ("ASTRIX_ACTOR_ID", "my-bot"),
    ];
    assert_eq!(
        gate.intent(&env)["actor"],
        serde_json::json!({"type": "autonomous_llm", "id": "my-bot"})
    );
    let output = gate.commit(&env, &["-m", "agent on main"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "ASTRIX_ACTOR_TYPE=autonomous_llm");
    assert_eq!(gate.staged(), ["src/lib.rs"]);
}

#[test]
fn a_policy_names_more_markers() {
    let gate = Gate::with_policy(Some(&format!(
        "{POLICY}\n[actors]\nagent_env = [\"MY_AGENT_RUNNER\"]\n"
    )));
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    let env = [("MY_AGENT_RUNNER", "yes")];
    assert_eq!(
        gate.intent(&env)["actor"],
        serde_json::json!({"type": "autonomous_llm", "id": "my-agent-runner"})
    );
    let before = gate.head();
    let output = gate.commit(&env, &["-m", "runner on main"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "agent marker `MY_AGENT_RUNNER`");
}

#[test]
fn a_marker_escalates_over_an_explicit_human() {
    let gate = Gate::new();
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    let before = gate.head();
    let env = [
        ("ASTRIX_ACTOR_TYPE", "human"),
        ("CODEX_SANDBOX", "seatbelt"),
    ];
    let output = gate.commit(&env, &["-m", "I am human, honest"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, DENIED);
    assert!(
        stderr(&output).contains(
            "actor   autonomous_llm (codex) — agent marker `CODEX_SANDBOX` (overrides ASTRIX_ACTOR_TYPE=human)"
        ),
        "{}",
        stderr(&output)
    );
    let output = gate.commit(&env, &["--no-verify", "-m", "I am human, honest"]);
    assert_stopped_by_backstop(&gate, &output, &before, "[agents-off-production]");
    let log = gate.log();
    assert!(
        log.iter().all(|entry| entry["actor"] == "autonomous_llm"
            && entry["actor_source"]
                .as_str()
                .unwrap()
                .contains("overrides ASTRIX_ACTOR_TYPE=human")),
        "{log:#?}"
    );
    // Without the marker, the explicit human commits.
    let output = gate.commit(&[("ASTRIX_ACTOR_TYPE", "human")], &["-m", "human"]);
    assert_committed(&gate, &output, &before);
}

#[test]
fn the_branch_decides_the_target() {
    let gate = Gate::new();
    // (branch, ASTRIX_TARGET_ENV, expected target)
    let table = [
        ("main", None, "production"),
        ("main", Some("development"), "production"),
        ("master", None, "production"),
        ("release/1.0", None, "production"),
        ("release/1.0", Some("staging"), "production"),
        ("develop", None, "staging"),
        ("develop", Some("development"), "staging"),
        ("feature/x", None, "development"),
        ("feature/x", Some("staging"), "staging"),
        ("releases", None, "development"),
    ];
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    for (branch, variable, expected) in table {
        gate.git(&["switch", "-q", "-C", branch, "main"]);
        let mut env = vec![];
        if let Some(value) = variable {
            env.push(("ASTRIX_TARGET_ENV", value));
        }
        let check = gate.astrix(&env, &["check", "--format", "json", "--explain"]);
        let json: Value = serde_json::from_slice(&check.stdout).unwrap();
        assert_eq!(
            json["intent"]["target"]["env"], expected,
            "{branch} {variable:?}"
        );
        assert_eq!(json["target"]["branch"], branch);
    }
    // A detached HEAD has no branch: the variable, else development.
    gate.git(&["switch", "-q", "--detach", "main"]);
    assert_eq!(gate.intent(&[])["target"]["env"], "development");
    assert_eq!(
        gate.intent(&[("ASTRIX_TARGET_ENV", "production")])["target"]["env"],
        "production"
    );
    // And the target decides: an agent commits on a feature branch, not on main.
    gate.git(&["switch", "-q", "feature/x"]);
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "feature work"]);
    assert_committed(&gate, &output, &before);
}

/// Regression (issue 3): `git branch -f` and `git update-ref` without an old value hand the
/// hook zeros as the old tip, which the backstop took for a new branch and let through.
#[test]
fn an_agent_cannot_fast_forward_a_production_branch() {
    let gate = Gate::new();
    let main = gate.head();
    gate.git(&["switch", "-q", "-c", "feature"]);
    for n in 0..2 {
        gate.write(&format!("src/f{n}.rs"), "pub fn f() {}\n");
        gate.git(&["add", "-A"]);
        let before = gate.head();
        assert_committed(&gate, &gate.commit(AGENT, &["-m", "feature work"]), &before);
    }
    let feature = gate.head();
    gate.git(&["switch", "-q", "main"]);
    let output = git_at(&gate.root, AGENT, &["merge", "--ff-only", "feature"]);
    assert_stopped_by_backstop(&gate, &output, &main, "[agents-off-production]");
    assert!(
        stderr(&output).contains("(a commit it would gain that nothing vouches for)"),
        "{}",
        stderr(&output)
    );
    // The first denial stands: nothing after it is judged.
    assert!(
        !stderr(&output).contains("(the commits it would gain, as one change)"),
        "{}",
        stderr(&output)
    );
    // Nor with `branch -f` or `update-ref` from elsewhere.
    gate.git(&["switch", "-q", "feature"]);
    let output = git_at(&gate.root, AGENT, &["branch", "-f", "main", "feature"]);
    assert_eq!(output.status.code(), Some(128), "{}", stderr(&output));
    assert!(stderr(&output).contains("[agents-off-production]"));
    let output = git_at(
        &gate.root,
        AGENT,
        &["update-ref", "refs/heads/main", &feature],
    );
    assert_eq!(output.status.code(), Some(128), "{}", stderr(&output));
    assert_eq!(gate.rev("main"), main);
    // A feature branch fast-forwards freely, and a human fast-forwards main.
    let output = git_at(&gate.root, AGENT, &["branch", "-f", "other", "main"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = git_at(&gate.root, AGENT, &["branch", "-f", "other", "feature"]);
    assert!(output.status.success(), "{}", stderr(&output));
    gate.git(&["switch", "-q", "main"]);
    gate.git(&["merge", "-q", "--ff-only", "feature"]);
    assert_eq!(gate.head(), feature);
}

/// Regression (issue 3): the backstop matched pre-commit's pass against the target of HEAD's
/// branch, not of the branch being updated.
#[test]
fn a_pass_of_pre_commit_does_not_carry_over_to_another_branch() {
    let gate = Gate::new();
    let main = gate.head();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    // pre-commit passes the change for `feature`; git then aborts the commit (no message).
    let output = gate.commit(AGENT, &["-m", ""]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("empty commit message"),
        "{}",
        stderr(&output)
    );
    assert_eq!(gate.log()[0]["decision"], "allow");
    // The same parent and tree, committed by hand onto `main`.
    let tree = gate.git(&["write-tree"]).trim().to_owned();
    let commit = gate.git(&["commit-tree", &tree, "-p", &main, "-m", "by hand"]);
    let output = git_at(
        &gate.root,
        AGENT,
        &["update-ref", "refs/heads/main", commit.trim(), &main],
    );
    assert_eq!(output.status.code(), Some(128), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("[agents-off-production]"),
        "{}",
        stderr(&output)
    );
    assert_eq!(gate.rev("main"), main);
}

// ---------------------------------------------------------------------------------------
// The policy file

#[test]
fn policy_edits_are_held_until_a_human_approves() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    // Loosening: secrets allowed.
    let loose = POLICY.replace(
        "decision = \"deny\"\nreason = \"secrets never land\"",
        "decision = \"allow\"\nreason = \"secrets are fine\"",
    );
    assert_ne!(loose, POLICY);
    gate.write("Astrixfile.ax", &loose);
    gate.write("key.secret", "hunter2\n");
    gate.git(&["add", "-A"]);
    let before = gate.head();
    // The change cannot loosen the policy that judges it: the committed one denies.
    let output = gate.commit(HUMAN, &["-m", "loosen"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[secrets] secrets never land");
    gate.git(&["rm", "-q", "--cached", "key.secret"]);
    gate_snapshot!(
        gate,
        "policy_edit_is_held",
        gate.commit_command(HUMAN, &["-m", "loosen"])
    );
    assert_eq!(gate.head(), before);
    let output = gate.commit(HUMAN, &["--no-verify", "-m", "loosen"]);
    assert_stopped_by_backstop(&gate, &output, &before, "[policy-change]");

    gate.approve(&["--reason", "reviewed the new policy"]);
    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "loosen"]), &before);
    assert_eq!(gate.changed_in(&head), ["Astrixfile.ax"]);
    // From now on, the new policy judges.
    gate.git(&["add", "key.secret"]);
    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "key"]), &head);

    // Deleting the policy is a policy change too.
    gate.git(&["rm", "-q", "Astrixfile.ax"]);
    let output = gate.commit(HUMAN, &["-m", "no policy"]);
    assert_stopped_by_pre_commit(&gate, &output, &head, "[policy-change]");
    let output = gate.commit(AGENT, &["-m", "no policy"]);
    assert_stopped_by_pre_commit(&gate, &output, &head, "[policy-change]");
}

const INVALID_POLICY: &str = r#"version = 1

[[rule]]
id = "Agents_Off"
actor = ["autonomous_llm"]
decision = "deny-ish"
"#;

#[test]
fn an_invalid_staged_policy_is_denied_with_its_diagnostics() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("Astrixfile.ax", INVALID_POLICY);
    gate.git(&["add", "Astrixfile.ax"]);
    let before = gate.head();
    gate_snapshot!(
        gate,
        "invalid_staged_policy_is_denied",
        gate.commit_command(HUMAN, &["-m", "broken policy"])
    );
    assert_eq!(gate.head(), before);
    let output = gate.commit(HUMAN, &["--no-verify", "-m", "broken policy"]);
    assert_stopped_by_backstop(&gate, &output, &before, "[staged-policy-invalid]");
    assert!(stderr(&output).contains("error[invalid-rule-id]"));
    // Approval cannot lift it.
    let approval = approve_at(&gate.root, &[], "y\n");
    assert_eq!(approval.status.code(), Some(2), "{}", stdout(&approval));
    assert!(
        stdout(&approval).contains("approval cannot lift a denial"),
        "{}",
        stdout(&approval)
    );
    assert_eq!(gate.staged(), ["Astrixfile.ax"]);
}

#[test]
fn an_invalid_committed_policy_holds_everything_until_a_human_approves_the_repair() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("Astrixfile.ax", INVALID_POLICY);
    // It got in where no hook ran.
    gate.setup_commit("broken policy");
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    let before = gate.head();
    gate_snapshot!(
        gate,
        "invalid_committed_policy_holds",
        gate.commit_command(HUMAN, &["-m", "ordinary"])
    );
    assert_eq!(gate.head(), before);
    let output = gate.commit(HUMAN, &["--no-verify", "-m", "ordinary"]);
    assert_stopped_by_backstop(&gate, &output, &before, "[committed-policy-invalid]");
    // The built-in default judges meanwhile: an agent's test change is still held by it.
    let check = gate.astrix(AGENT, &["check"]);
    assert_eq!(check.status.code(), Some(3));
    assert!(
        stdout(&check).contains(
            "policy  the built-in default policy (the committed Astrixfile.ax does not validate)"
        ),
        "{}",
        stdout(&check)
    );

    // The repair, approved by a human.
    gate.git(&["restore", "--staged", "src/lib.rs"]);
    gate.write("Astrixfile.ax", POLICY);
    gate.git(&["add", "Astrixfile.ax"]);
    let output = gate.commit(HUMAN, &["-m", "repair"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[committed-policy-invalid]");
    let approval = approve_at(&gate.root, &[], "y\n");
    let text = stdout(&approval);
    assert_eq!(approval.status.code(), Some(0), "{text}");
    assert!(text.contains("[committed-policy-invalid]"), "{text}");
    assert!(text.contains("[policy-change]"), "{text}");
    let repaired = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "repair"]), &before);
    // Ordinary commits pass again.
    gate.git(&["add", "src/lib.rs"]);
    assert_committed(&gate, &gate.commit(HUMAN, &["-m", "ordinary"]), &repaired);
}

// ---------------------------------------------------------------------------------------
// Approval

#[test]
fn a_human_approval_at_a_terminal_lets_the_same_commit_through() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let before = gate.head();
    gate_snapshot!(
        gate,
        "agent_commit_is_held",
        gate.commit_command(AGENT, &["-m", "weaken"])
    );
    assert_eq!(gate.head(), before);

    // Answered no: nothing recorded, still held.
    let output = approve_at(&gate.root, &[], "n\n");
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(stdout(&output).contains("not approved"));
    let output = gate.astrix(HUMAN, &["approve", "--list"]);
    assert_eq!(stdout(&output), "no approvals recorded\n");
    let output = gate.commit(AGENT, &["-m", "weaken"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, HELD);

    // Answered yes: it shows what it approves, and what holds it for an agent.
    let output = approve_at(&gate.root, &["--reason", "the test was wrong"], "yes\n");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    for expected in [
        "astrix approve: the staged change",
        "M tests/t.rs  +1 -3",
        "for autonomous_llm (require_approval):",
        "[agents-touching-tests] a human signs off on test changes made by an agent",
        "(valid for 1d)? [y/N]",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    let id = approval_id(&text);
    let list = gate.astrix(HUMAN, &["approve", "--list"]);
    let listed = stdout(&list);
    assert!(
        listed.starts_with(&format!("{id}  Hu Man <hu@example.com>  valid until ")),
        "{listed}"
    );
    assert!(
        listed.ends_with("target development  1 file  — the test was wrong\n"),
        "{listed}"
    );
    let list = gate.astrix(HUMAN, &["approve", "--list", "--format", "json"]);
    let json: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(json[0]["id"], id.as_str());
    assert_eq!(json[0]["used_at"], Value::Null);
    assert_eq!(json[0]["parent"], before.as_str());
    assert_eq!(json[0]["files"], serde_json::json!(["tests/t.rs"]));
    assert_eq!(
        json[0]["held_by"],
        serde_json::json!(["agents-touching-tests"])
    );
    assert_eq!(json[0]["reason"], "the test was wrong");

    // Revoked: held again. Approved again: the same `git commit` goes through.
    let output = gate.astrix(HUMAN, &["approve", "--revoke", &id]);
    assert_eq!(stdout(&output), format!("revoked `{id}`\n"));
    let output = gate.commit(AGENT, &["-m", "weaken"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, HELD);
    let id = gate.approve(&[]);
    let output = gate.commit(AGENT, &["-m", "weaken"]);
    let head = assert_committed(&gate, &output, &before);
    assert!(
        stderr(&output).contains("astrix: allowed (approved): 1 rule requires a human's approval"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains(&format!("approval  `{id}` by Hu Man <hu@example.com> at ")));
    assert_eq!(gate.changed_in(&head), ["tests/t.rs"]);
    let entry = gate.log().pop().unwrap();
    assert_eq!(entry["decision"], "require_approval");
    assert_eq!(entry["allowed"], true);
    assert!(entry["approval"].as_str().unwrap().contains(&id));

    // Used: the list says so, and when, beside how long it still lets the same content
    // through (issue 22: it was shown as merely "valid until").
    let list = gate.astrix(HUMAN, &["approve", "--list"]);
    let listed = stdout(&list);
    let used_at = entry["time"].as_str().unwrap();
    assert!(
        listed.starts_with(&format!(
            "{id}  Hu Man <hu@example.com>  used at {used_at}, valid for the same content until "
        )),
        "{listed}"
    );
    let list = gate.astrix(HUMAN, &["approve", "--list", "--format", "json"]);
    let json: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(json[0]["used_at"], used_at);
}

/// The approver is who git would record as a commit's committer (`git var
/// GIT_COMMITTER_IDENT`), and an approver git does not know is told so before anything is
/// shown or asked. Covers issue 22.
#[test]
fn the_approver_is_the_identity_git_commits_with_and_is_checked_before_asking() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.git(&["config", "--unset", "user.name"]);
    gate.git(&["config", "--unset", "user.email"]);
    // git is not to guess from the machine's user and host.
    gate.git(&["config", "user.useConfigOnly", "true"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);

    let output = approve_at(&gate.root, &[], "y\n");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    for expected in [
        "error: git does not know who you are",
        "no email was given and auto-detection is disabled",
        "`git config user.name \"Your Name\"`",
        "`git config user.email you@example.com`",
        "`GIT_COMMITTER_NAME` and `GIT_COMMITTER_EMAIL`",
        "then run `astrix approve` again",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    for unexpected in ["astrix approve: the staged change", "[y/N]"] {
        assert!(!text.contains(unexpected), "{unexpected:?} in:\n{text}");
    }
    let output = gate.astrix(HUMAN, &["approve", "--list"]);
    assert_eq!(stdout(&output), "no approvals recorded\n");

    // What git itself honours: the committer variables, and `EMAIL` for the address (which
    // `user.useConfigOnly` refuses, as git does).
    gate.git(&["config", "--unset", "user.useConfigOnly"]);
    let output = approve_as(
        &gate.root,
        &[],
        "y\n",
        &[
            ("GIT_COMMITTER_NAME", "Env Approver"),
            ("EMAIL", "env@example.com"),
        ],
    );
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    let id = approval_id(&text);
    let output = gate.astrix(HUMAN, &["approve", "--list"]);
    assert!(
        stdout(&output).starts_with(&format!("{id}  Env Approver <env@example.com>  ")),
        "{}",
        stdout(&output)
    );

    // `astrix approve --branch` asks the same question first.
    gate.git(&["config", "user.useConfigOnly", "true"]);
    let output = approve_at(&gate.root, &["--branch", "main", "--tip", "feature"], "y\n");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.contains("error: git does not know who you are"),
        "{text}"
    );
    assert!(!text.contains("[y/N]"), "{text}");
}

/// With nothing staged, git's own "nothing to commit" answers, not a decision about zero
/// files; a commit that git does make of it (`--allow-empty`) is judged by the backstop, as
/// pre-commit records no pass for it. Covers issue 22.
#[test]
fn nothing_staged_is_left_to_git_and_an_empty_commit_to_the_backstop() {
    let gate = Gate::new();
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "nothing"]);
    let text = format!("{}{}", stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("nothing to commit"), "{text}");
    assert!(!text.contains("astrix:"), "{text}");
    assert_eq!(gate.head(), before);
    assert!(gate.log().is_empty(), "{:#?}", gate.log());

    // An agent's empty commit on production is still an agent's commit on production.
    let output = gate.commit(AGENT, &["--allow-empty", "-m", "empty"]);
    assert_stopped_by_backstop(&gate, &output, &before, "[agents-off-production]");

    // A person's goes through, judged once, by the backstop.
    let output = gate.commit(HUMAN, &["--allow-empty", "-m", "empty"]);
    assert_committed(&gate, &output, &before);
    let log = gate.log();
    assert_eq!(log.len(), 2, "{log:#?}");
    assert_eq!(log[1]["hook"], "reference-transaction");
    assert_eq!(log[1]["decision"], "allow");
}

#[test]
fn approval_is_refused_to_agents_and_without_a_terminal() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    // An agent marker in the environment.
    let output = gate.astrix(AGENT, &["approve"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(
            "`astrix approve` refuses to run for an agent: `CLAUDECODE` is set (claude-code)"
        ),
        "{}",
        stderr(&output)
    );
    // Even at a terminal.
    let output = approve_at_a_terminal(&gate, ("CLAUDECODE", "1"));
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    assert!(stdout(&output).contains("refuses to run for an agent"));
    // A human whose standard input is not a terminal (a pipe, a script).
    let output = gate.astrix(HUMAN, &["approve"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("standard input is not a terminal"),
        "{}",
        stderr(&output)
    );
    // Nor may an agent revoke one.
    let output = gate.astrix(AGENT, &["approve", "--revoke", "0123456789ab"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("refuses to run for an agent"));
    assert!(!gate.root.join(".git/astrix/approvals.json").exists());
}

/// `astrix approve` at a terminal (`script` gives it one) with `variable` set; its terminal
/// output is the output's stdout.
fn approve_at_a_terminal(gate: &Gate, (variable, value): (&str, &str)) -> Output {
    isolated("script", &gate.root)
        .env(variable, value)
        .args([
            "-qec",
            &format!("{} approve", shell_quote(ASTRIX)),
            "/dev/null",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The policy's own agent markers and `ASTRIX_ACTOR_TYPE` make an agent as surely as the
/// built-in markers: such an actor may not approve, even at a terminal.
#[test]
fn approval_is_refused_to_an_agent_the_policy_names() {
    let gate = Gate::with_policy(Some(&format!(
        "{POLICY}\n[actors]\nagent_env = [\"MY_BOT\"]\n"
    )));
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    for (variable, value) in [("MY_BOT", "1"), ("ASTRIX_ACTOR_TYPE", "autonomous_llm")] {
        let output = approve_at_a_terminal(&gate, (variable, value));
        assert_eq!(
            output.status.code(),
            Some(2),
            "{variable}: {}",
            stdout(&output)
        );
        assert!(
            stdout(&output).contains(
                "refuses to run for an actor that is not a person: the policy takes this actor"
            ),
            "{variable}: {}",
            stdout(&output)
        );
    }
    assert!(!gate.root.join(".git/astrix/approvals.json").exists());
    // Nor may such an actor revoke a person's approval.
    let id = gate.approve(&[]);
    for (variable, value) in [("MY_BOT", "1"), ("ASTRIX_ACTOR_TYPE", "autonomous_llm")] {
        let output = gate.astrix(&[(variable, value)], &["approve", "--revoke", &id]);
        assert_eq!(output.status.code(), Some(2), "{variable}");
        assert!(
            stderr(&output).contains("refuses to run for an actor that is not a person"),
            "{variable}: {}",
            stderr(&output)
        );
    }
    let list = gate.astrix(HUMAN, &["approve", "--list"]);
    assert!(stdout(&list).contains(&id), "{}", stdout(&list));
}

#[test]
fn an_approval_is_stale_once_the_staged_content_changes() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    gate.approve(&[]);
    // More is staged after the approval.
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n#[test]\nfn two() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "tests"]);
    assert_stopped_by_pre_commit(
        &gate,
        &output,
        &before,
        "note: an approval exists for this parent commit, but the staged content changed since it was approved; a human runs `astrix approve` again to approve what is staged now",
    );
    let output = gate.commit(AGENT, &["--no-verify", "-m", "tests"]);
    assert_stopped_by_backstop(
        &gate,
        &output,
        &before,
        "the staged content changed since it was approved",
    );

    // So is one for another target.
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let output = gate.commit(
        &[("CLAUDECODE", "1"), ("ASTRIX_TARGET_ENV", "staging")],
        &["-m", "tests"],
    );
    assert_stopped_by_pre_commit(
        &gate,
        &output,
        &before,
        "no longer applies: the target changed from `development` to `staging`",
    );
    // The approved content, committed where only the backstop judges it.
    assert_committed(
        &gate,
        &gate.commit(AGENT, &["--no-verify", "-m", "tests"]),
        &before,
    );
    let entry = gate.log().pop().unwrap();
    assert_eq!(entry["hook"], "reference-transaction");
    assert_eq!(entry["allowed"], true);
    assert!(entry["approval"].is_string(), "{entry:#}");
}

#[test]
fn an_approval_expires() {
    let gate = Gate::with_policy(Some(&format!("{POLICY}\n[approval]\nttl = \"1s\"\n")));
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let output = approve_at(&gate.root, &[], "y\n");
    assert!(
        stdout(&output).contains("(valid for 1s)? [y/N]"),
        "{}",
        stdout(&output)
    );
    let id = approval_id(&stdout(&output));
    std::thread::sleep(std::time::Duration::from_secs(2));
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "tests"]);
    assert_stopped_by_pre_commit(
        &gate,
        &output,
        &before,
        &format!("note: the approval `{id}` by Hu Man expired at "),
    );
    let list = gate.astrix(HUMAN, &["approve", "--list"]);
    assert!(stdout(&list).contains("  expired at "), "{}", stdout(&list));
}

// ---------------------------------------------------------------------------------------
// `astrix check`, `astrix intent`, `astrix log`

/// `astrix evaluate FILE` with `input` on standard input.
fn evaluate(gate: &Gate, env: &[(&str, &str)], args: &[&str], input: &[u8]) -> Output {
    let mut command = astrix_at(&gate.root, env);
    command.arg("evaluate").args(args);
    output_with_stdin(command, input)
}

/// Regression (issue 3): `evaluate` did not hold an intent that edits the policy file, as
/// the commit gate does.
#[test]
fn check_and_intent_round_trip_into_evaluate() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    let policy_edit = format!("{POLICY}# a comment\n");
    let cases: [(&str, &str, Env, &str, i32); 5] = [
        ("src/lib.rs", "changed\n", HUMAN, "allowed", 0),
        ("tests/t.rs", "changed\n", AGENT, "held", 3),
        ("Astrixfile.ax", &policy_edit, HUMAN, "policy edit", 3),
        ("deploy.secret", "changed\n", AGENT, "denied", 1),
        ("src/lib.rs", "changed\n", AGENT, "denied on main", 1),
    ];
    for (path, contents, env, what, code) in cases {
        gate.git(&["reset", "-q", "--hard"]);
        if what == "denied on main" {
            gate.git(&["switch", "-q", "main"]);
        }
        gate.write(path, contents);
        gate.git(&["add", path]);
        let text = gate.astrix(env, &["check"]);
        assert_eq!(text.status.code(), Some(code), "{what}: {}", stdout(&text));
        let check = gate.astrix(env, &["check", "--format", "json"]);
        assert_eq!(check.status.code(), Some(code), "{what}");
        let decision: Value = serde_json::from_slice(&check.stdout).unwrap();
        assert_eq!(
            decision.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["allowed", "denied", "requires_approval", "reason"],
            "{what}"
        );
        assert_eq!(decision["allowed"], code == 0, "{what}");
        assert_eq!(decision["denied"], code == 1, "{what}");
        assert_eq!(decision["requires_approval"], code == 3, "{what}");

        let intent = gate.astrix(env, &["intent"]);
        assert_eq!(intent.status.code(), Some(0));
        // What `intent` prints, `evaluate -` reads back to the same decision; the actor
        // is the intent's, whoever evaluates.
        let evaluated = evaluate(&gate, HUMAN, &["-", "--format", "json"], &intent.stdout);
        assert_eq!(
            evaluated.status.code(),
            Some(code),
            "{what}: {}",
            stderr(&evaluated)
        );
        let again: Value = serde_json::from_slice(&evaluated.stdout).unwrap();
        assert_eq!(again, decision, "{what}");
    }
    // An approved hold: `check` sets `approved`, and so does the intent it would send.
    gate.git(&["reset", "-q", "--hard"]);
    gate.git(&["switch", "-q", "feature"]);
    gate.write("tests/t.rs", "changed\n");
    gate.git(&["add", "tests/t.rs"]);
    gate.approve(&[]);
    let check = gate.astrix(AGENT, &["check", "--format", "json", "--explain"]);
    assert_eq!(check.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(
        (
            &json["allowed"],
            &json["requires_approval"],
            &json["intent"]["approved"]
        ),
        (&true.into(), &true.into(), &true.into())
    );
    assert!(json["approval"].as_str().unwrap().contains("by Hu Man"));
    let evaluated = evaluate(
        &gate,
        HUMAN,
        &["-"],
        &serde_json::to_vec(&json["intent"]).unwrap(),
    );
    assert_eq!(evaluated.status.code(), Some(0), "{}", stdout(&evaluated));
}

#[test]
fn check_reports_in_text_for_people() {
    let gate = Gate::new();
    gate.write("src/lib.rs", "changed\n");
    gate.git(&["add", "src/lib.rs"]);
    gate_snapshot!(
        gate,
        "agent_commit_on_main_is_denied",
        gate.commit_command(AGENT, &["-m", "on main"])
    );
    // Run by hand, no commit is under way: the report speaks of the staged change
    // (issue 22).
    let output = gate.astrix(AGENT, &["check", "--explain"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(!text.contains("this commit"), "{text}");
    assert!(!text.contains("again"), "{text}");
    for expected in [
        "astrix: denied: 1 rule denies the staged change",
        "`git commit --no-verify` would not skip astrix",
        // What text `--explain` adds before the rules (issue 22): the intent and where the
        // policy came from.
        "\nintent\n  {\"actor\":{\"type\":\"autonomous_llm\",\"id\":\"claude-code\"},\"target\":{\"env\":\"production\"}",
        "\npolicy\n  Astrixfile.ax committed at HEAD (",
        "\n  file      Astrixfile.ax\n",
        "\n  revision  ",
        "\n  digest    sha256:",
        "  [agents-off-production] agents do not commit to production branches",
        "rules\n  agents-off-production",
        "contributes `deny`",
        "no match (modifies_tests)",
        "  change  1 file, +1 -3 lines",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    // Nothing staged: allowed, with an empty intent.
    gate.git(&["reset", "-q", "--hard"]);
    let output = gate.astrix(AGENT, &["check"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "agents are denied on main whatever they stage"
    );
    gate.git(&["switch", "-q", "-c", "feature"]);
    let output = gate.astrix(AGENT, &["check"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(gate.intent(AGENT)["modified_files"], serde_json::json!([]));
}

#[test]
fn the_audit_log_records_every_decision() {
    let gate = Gate::new();
    let output = gate.astrix(HUMAN, &["log"]);
    assert!(
        stdout(&output).starts_with("no decisions recorded in "),
        "{}",
        stdout(&output)
    );
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("src/lib.rs", "changed\n");
    gate.git(&["add", "src/lib.rs"]);
    let before = gate.head();
    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "lib"]), &before);
    gate.write("tests/t.rs", "changed\n");
    gate.git(&["add", "tests/t.rs"]);
    assert_stopped_by_pre_commit(&gate, &gate.commit(AGENT, &["-m", "t"]), &head, HELD);
    let output = gate.commit(AGENT, &["--no-verify", "-m", "t"]);
    assert_stopped_by_backstop(&gate, &output, &head, HELD);
    gate.approve(&[]);
    let last = assert_committed(&gate, &gate.commit(AGENT, &["-m", "t"]), &head);
    gate.git(&["switch", "-q", "main"]);
    gate.write("x.secret", "x\n");
    gate.git(&["add", "x.secret"]);
    assert_stopped_by_pre_commit(&gate, &gate.commit(HUMAN, &["-m", "x"]), &before, DENIED);

    gate_snapshot!(
        gate,
        "audit_log_as_text",
        astrix_at(&gate.root, HUMAN).arg("log")
    );
    let output = gate.astrix(HUMAN, &["log", "-n", "2"]);
    assert_eq!(stdout(&output).lines().count(), 2);

    let log = gate.log();
    let summary: Vec<(&str, &str, &str, bool)> = log
        .iter()
        .map(|entry| {
            (
                entry["hook"].as_str().unwrap(),
                entry["actor"].as_str().unwrap(),
                entry["decision"].as_str().unwrap(),
                entry["allowed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("pre-commit", "human", "allow", true),
            ("pre-commit", "autonomous_llm", "require_approval", false),
            (
                "reference-transaction",
                "autonomous_llm",
                "require_approval",
                false
            ),
            ("pre-commit", "autonomous_llm", "require_approval", true),
            ("pre-commit", "human", "deny", false),
        ]
    );
    let approved = &log[3];
    assert_eq!(approved["actor_id"], "claude-code");
    assert_eq!(approved["actor_source"], "agent marker `CLAUDECODE`");
    assert_eq!(approved["target"], "development");
    assert_eq!(approved["branch"], "feature");
    assert_eq!(approved["files"], 1);
    assert_eq!(
        approved["rules"],
        serde_json::json!(["agents-touching-tests"])
    );
    assert!(approved["approval"].as_str().unwrap().contains("by Hu Man"));
    assert!(
        approved["policy_digest"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    assert_eq!(approved["commit"], head.as_str());
    // The backstop records the commit it judged.
    assert_ne!(log[2]["commit"], head.as_str());
    assert_eq!(log[4]["rules"], serde_json::json!(["secrets"]));
    assert_eq!(gate.rev("feature"), last);
    log_filters_keep_what_they_name(&gate);
}

/// `astrix log`'s filters (issue 22), on the five decisions of
/// [`the_audit_log_records_every_decision`]: by actor type or id, by decision, by time; `-n`
/// counts what they keep.
fn log_filters_keep_what_they_name(gate: &Gate) {
    let filtered = |args: &[&str]| -> Vec<(String, String, bool)> {
        let mut all = vec!["log", "--format", "json"];
        all.extend_from_slice(args);
        let output = gate.astrix(HUMAN, &all);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        serde_json::from_slice::<Vec<Value>>(&output.stdout)
            .unwrap()
            .iter()
            .map(|entry| {
                (
                    entry["hook"].as_str().unwrap().to_owned(),
                    entry["decision"].as_str().unwrap().to_owned(),
                    entry["allowed"].as_bool().unwrap(),
                )
            })
            .collect()
    };
    let entry =
        |hook: &str, decision: &str, allowed: bool| (hook.to_owned(), decision.to_owned(), allowed);
    assert_eq!(
        filtered(&["--actor", "human"]),
        [
            entry("pre-commit", "allow", true),
            entry("pre-commit", "deny", false)
        ]
    );
    assert_eq!(filtered(&["--actor", "claude-code"]).len(), 3);
    assert_eq!(
        filtered(&["--actor", "autonomous_llm", "-n", "1"]),
        [entry("pre-commit", "require_approval", true)]
    );
    assert_eq!(
        filtered(&["--decision", "held"]),
        [
            entry("pre-commit", "require_approval", false),
            entry("reference-transaction", "require_approval", false)
        ]
    );
    assert_eq!(
        filtered(&["--decision", "approved"]),
        [entry("pre-commit", "require_approval", true)]
    );
    assert_eq!(filtered(&["--decision", "require_approval"]).len(), 3);
    assert_eq!(
        filtered(&["--decision", "deny"]),
        [entry("pre-commit", "deny", false)]
    );
    assert_eq!(filtered(&["--decision", "error"]), []);
    assert_eq!(filtered(&["--since", "2000-01-01"]).len(), 5);
    assert_eq!(filtered(&["--since", "1d"]).len(), 5);
    assert_eq!(filtered(&["--since", "2999-01-01T00:00:00Z"]), []);
    let output = gate.astrix(HUMAN, &["log", "--since", "2999-01-01"]);
    assert!(
        stdout(&output).starts_with("no decision recorded in ")
            && stdout(&output).ends_with(" matches the filters\n"),
        "{}",
        stdout(&output)
    );
    assert_eq!(filtered(&["--since", "2024-02-29"]).len(), 5);
    since_refusals_say_why(gate);
}

/// `--since` refuses what is not a date, a UTC time or a span, and says why.
fn since_refusals_say_why(gate: &Gate) {
    for (wrong, why) in [
        ("yesterday", "is not a date (`2026-11-30`)"),
        ("2 h", "is not a date (`2026-11-30`)"),
        ("2026-02-30", "is not a day that exists"),
        ("2025-02-29", "is not a day that exists"),
        ("2026-13-01", "is not a day that exists"),
        ("0000-01-01", "is not a day that exists"),
        ("2026-02-03T25:00:00Z", "is not a time that exists"),
        ("2026-02-03T10:61:00Z", "is not a time that exists"),
        ("2026-02-03T23:59:60Z", "is not a time that exists"),
        (
            "2026-02-03t10:00:00z",
            "is not a UTC time as the log writes them",
        ),
        (
            "2026-02-03T10:00:00+00:00",
            "is not a UTC time as the log writes them",
        ),
        (
            "2026-02-03T10:00Z",
            "is not a UTC time as the log writes them",
        ),
        // A bare number is not taken for seconds: `2026` meant the year.
        ("2026", "is a number without a unit"),
        ("20261202", "is a number without a unit"),
        (
            "9999999999999999999d",
            "is a span too long to count back from now",
        ),
    ] {
        let output = gate.astrix(HUMAN, &["log", "--since", wrong]);
        assert_eq!(output.status.code(), Some(2), "{wrong}");
        assert!(
            stderr(&output).contains(&format!("`--since {wrong}` {why}")),
            "{}",
            stderr(&output)
        );
    }
}

/// Parses `git diff --name-status -z`: `X\0path\0`, or `R<score>\0old\0new\0`.
fn name_status_paths(bytes: &[u8]) -> Vec<String> {
    let fields = split_z(bytes);
    let mut paths = Vec::new();
    let mut fields = fields.iter();
    while let Some(status) = fields.next() {
        paths.push(fields.next().unwrap().clone());
        if status.starts_with('R') || status.starts_with('C') {
            paths.push(fields.next().unwrap().clone());
        }
    }
    paths.sort();
    paths.dedup();
    paths
}

#[test]
fn intent_lists_exactly_what_git_diff_cached_reports() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    let long = (0..20).fold(String::new(), |mut text, n| {
        text.push_str(&format!("line {n}\n"));
        text
    });
    gate.write("docs/moved.md", "moved as it is\n");
    gate.write("docs/long.md", &long);
    gate.write("bin/run.sh", "#!/bin/sh\n");
    gate.write("docs/was-a-file.md", "a file\n");
    gate.setup_commit("more files");

    gate.write("new file.txt", "new\n");
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["rm", "-q", "README.md"]);
    fs::create_dir(gate.root.join("guide")).unwrap();
    gate.git(&["mv", "docs/moved.md", "guide/moved.md"]);
    gate.git(&["mv", "docs/long.md", "guide/long.md"]);
    gate.write("guide/long.md", long.replace("line 7\n", "line seven\n"));
    fs::set_permissions(
        gate.root.join("bin/run.sh"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    symlink("../src/lib.rs", gate.root.join("docs/lib-link")).unwrap();
    fs::remove_file(gate.root.join("docs/was-a-file.md")).unwrap();
    symlink("moved.md", gate.root.join("docs/was-a-file.md")).unwrap();
    gate.write("assets/blob.bin", b"\0\x01\x02binary");
    for name in ODD_NAMES {
        gate.write(&format!("odd/{name}"), "odd\n");
    }
    gate.git(&["add", "-A"]);
    let head = gate.head();
    gate.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{head},vendor/pinned"),
    ]);
    gate.write("later.txt", "not part of the commit\n");
    gate.git(&["add", "-N", "later.txt"]);

    let from_git = name_status_paths(
        gate.git(&["diff", "--cached", "--name-status", "-z"])
            .as_bytes(),
    );
    assert!(
        from_git.contains(&"docs/moved.md".to_owned()),
        "{from_git:?}"
    );
    assert!(
        from_git.contains(&"guide/long.md".to_owned()),
        "{from_git:?}"
    );
    assert!(!from_git.contains(&"later.txt".to_owned()), "{from_git:?}");
    let intent = gate.intent(HUMAN);
    let files: Vec<String> = serde_json::from_value(intent["modified_files"].clone()).unwrap();
    assert_eq!(files, from_git);

    // Line counts and binary files as `--numstat` has them.
    let numstat = gate.git(&["diff", "--cached", "--numstat", "-z"]);
    let (mut added, mut deleted, mut binary) = (0, 0, 0);
    for record in numstat.split('\0') {
        let mut fields = record.splitn(3, '\t');
        let (Some(a), Some(d), Some(_)) = (fields.next(), fields.next(), fields.next()) else {
            continue;
        };
        if a == "-" {
            binary += 1;
        } else {
            added += a.parse::<u64>().unwrap();
            deleted += d.parse::<u64>().unwrap();
        }
    }
    assert_eq!(intent["diff"]["lines_added"], added);
    assert_eq!(intent["diff"]["lines_deleted"], deleted);
    assert_eq!(intent["diff"]["binary_files"], binary);
    assert_eq!(binary, 1);

    // And that is what the commit records.
    let before = gate.head();
    let head = assert_committed(&gate, &gate.commit(HUMAN, &["-m", "mixed"]), &before);
    let committed = name_status_paths(
        gate.git(&[
            "diff-tree",
            "-r",
            "-M",
            "--name-status",
            "-z",
            &before,
            &head,
        ])
        .as_bytes(),
    );
    assert_eq!(committed, files);
}

// ---------------------------------------------------------------------------------------
// What the local gate cannot stop, and what stops it instead (docs/security.md).

/// `astrix ci` over `main..feature`, for a change headed to `develop` (staging).
fn ci_into_develop(gate: &Gate) -> Output {
    isolated(ASTRIX, &gate.root)
        .args([
            "ci",
            "--base",
            "main",
            "--head",
            "feature",
            "--target-branch",
            "develop",
            "--format",
            "json",
        ])
        .output()
        .unwrap()
}

/// Hooks live in the clone: an agent that switches them off (`-c core.hooksPath=…`) runs
/// neither pre-commit nor the backstop, and its commit lands. `astrix ci` then judges the
/// commit from what it records: Claude Code's `Co-Authored-By` trailer makes it an agent's,
/// and its test change is held.
#[test]
fn hooks_switched_off_skip_the_local_gate_and_ci_judges_the_commit() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let before = gate.head();
    let message = "weaken\n\nCo-Authored-By: Claude <noreply@anthropic.com>";
    let output = git_at(
        &gate.root,
        AGENT,
        &[
            "-c",
            "core.hooksPath=/nonexistent",
            "commit",
            "-q",
            "-m",
            message,
        ],
    );
    let head = assert_committed(&gate, &output, &before);
    assert!(gate.log().is_empty(), "no hook ran: {:#?}", gate.log());

    let output = ci_into_develop(&gate);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let commit = &report["commits"][0];
    assert_eq!(commit["commit"], head.as_str(), "{report:#}");
    assert_eq!(commit["actor"]["type"], "autonomous_llm", "{report:#}");
    assert_eq!(commit["verdict"], "require_approval", "{report:#}");
    assert_eq!(
        commit["deciding_rules"][0], "agents-touching-tests",
        "{report:#}"
    );
}

/// Markers only escalate: an agent whose process carries none, and whose commit names no
/// agent, is judged as the human it appears to be — by the hook and by CI alike. Agents
/// need an identity of their own (a bot account, a trailer their tool always writes) for
/// CI to tell them apart.
#[test]
fn an_agent_without_markers_or_identity_is_judged_as_a_human() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let before = gate.head();
    assert_committed(&gate, &gate.commit(HUMAN, &["-m", "weaken"]), &before);
    assert_eq!(gate.log().last().unwrap()["decision"], "allow");

    let output = ci_into_develop(&gate);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["commits"][0]["actor"]["type"], "human", "{report:#}");
}

/// `astrix check` outside a repository says so, and nothing about a commit being blocked:
/// none is under way. Covers issue 22.
#[test]
fn check_outside_a_repository_speaks_of_no_commit() {
    let sandbox = Sandbox::new();
    let output = sandbox.astrix().arg("check").output().unwrap();
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(text.starts_with("error: not a git repository"), "{text}");
    assert!(text.contains("run astrix inside a git work tree"), "{text}");
    assert!(!text.contains("commit"), "{text}");
}
