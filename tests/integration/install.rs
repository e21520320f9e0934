//! `astrix install`, `astrix uninstall` and the shims they write, checked with real
//! repositories and real `git commit` runs.
//!
//! Where a test needs to see what the shims run, it points them at a fake `astrix` (a sh
//! script that appends its arguments, and the reference-transaction input, to a log).

#![expect(
    clippy::unwrap_used,
    reason = "helpers outside #[test] functions panic on a broken test setup"
)]

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::cmd_snapshot;
use crate::common::{ASTRIX, Sandbox, isolated, regex_escape};

/// A repository at `<sandbox>/repo` with one commit, beside a directory of tools that the
/// hooks may use (git and cat, nothing named astrix) and a log for fakes.
struct Repo {
    sandbox: Sandbox,
    root: PathBuf,
}

impl Repo {
    fn new() -> Self {
        let sandbox = Sandbox::new();
        let root = sandbox.path().join("repo");
        fs::create_dir(&root).unwrap();
        let repo = Self { sandbox, root };
        repo.git(&["init", "-q", "-b", "main"]);
        repo.write("README.md", "hello\n");
        repo.git(&["add", "README.md"]);
        repo.git(&["commit", "-q", "-m", "initial"]);
        repo.tools();
        repo
    }

    fn temp(&self) -> &Path {
        self.sandbox.path()
    }

    fn hooks(&self) -> PathBuf {
        self.root.join(".git/hooks")
    }

    fn log(&self) -> PathBuf {
        self.temp().join("log")
    }

    fn read_log(&self) -> String {
        fs::read_to_string(self.log()).unwrap_or_default()
    }

    fn write(&self, relative: &str, contents: &str) {
        let path = self.root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    /// `<sandbox>/tools`: what the hooks and fakes may run, and no astrix.
    fn tools(&self) {
        let tools = self.temp().join("tools");
        fs::create_dir(&tools).unwrap();
        let found = Command::new("sh")
            .args(["-c", "command -v git && command -v cat"])
            .output()
            .unwrap();
        for path in String::from_utf8(found.stdout).unwrap().lines() {
            let path = Path::new(path);
            symlink(path, tools.join(path.file_name().unwrap())).unwrap();
        }
    }

    /// A PATH with `first` (when given) before the tools.
    fn path_with(&self, first: Option<&Path>) -> String {
        let tools = self.temp().join("tools").display().to_string();
        match first {
            Some(dir) => format!("{}:{tools}", dir.display()),
            None => tools,
        }
    }

    /// `git` in the repository (or `dir`), with PATH limited to the tools.
    fn git_in(&self, dir: &Path, args: &[&str]) -> Output {
        isolated("git", dir)
            .env("PATH", self.path_with(None))
            .args(args)
            .output()
            .unwrap()
    }

    fn git(&self, args: &[&str]) -> String {
        let output = isolated("git", &self.root).args(args).output().unwrap();
        assert!(
            output.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// Stages a change to `file` and runs `git commit` with `extra` arguments and `path`.
    fn commit(&self, file: &str, extra: &[&str], path: &str) -> Output {
        self.write(file, &format!("{file} changed\n"));
        self.git(&["add", file]);
        isolated("git", &self.root)
            .env("PATH", path)
            .args(["commit", "-q", "-m", "change"])
            .args(extra)
            .output()
            .unwrap()
    }

    fn head(&self) -> String {
        self.git(&["rev-parse", "HEAD"]).trim().to_owned()
    }

    fn astrix(&self) -> Command {
        isolated(ASTRIX, &self.root)
    }

    fn install(&self, args: &[&str]) -> Output {
        let output = self.astrix().arg("install").args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        output
    }

    /// A sh script at `<sandbox>/<relative>`, executable.
    fn script(&self, relative: &str, body: &str) -> PathBuf {
        let path = self.temp().join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// A fake astrix at `<sandbox>/fake/astrix` that logs each call and exits with `code`.
    /// It answers `--version` as astrix does (unlogged), since the shims run only a program
    /// that does.
    fn fake_astrix(&self, code: u8) -> PathBuf {
        self.script(
            "fake/astrix",
            &format!(
                r#"if [ "$1" = --version ]; then echo 'astrix 0.1.0 (astrix-guard 0123456789ab)'; exit 0; fi
{{
  printf 'astrix'
  for arg in "$@"; do printf ' %s' "$arg"; done
  printf '\n'
  if [ "$1" = hook ] && [ "$2" = reference-transaction ]; then cat; fi
}} >> '{log}'
exit {code}
"#,
                log = self.log().display()
            ),
        )
    }

    /// Makes the installed shims run `binary` instead of the astrix that installed them.
    fn record_binary(&self, binary: &Path) {
        for name in ["pre-commit", "reference-transaction"] {
            let path = self.hooks().join(name);
            let text = fs::read_to_string(&path).unwrap();
            let recorded = format!("astrix_bin='{ASTRIX}'");
            assert!(text.contains(&recorded), "{text}");
            let text = text.replace(&recorded, &format!("astrix_bin='{}'", binary.display()));
            fs::write(&path, text).unwrap();
        }
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
}

/// Snapshots with the path of the astrix binary shown as `[ASTRIX]`.
fn with_binary_filter(check: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    for spelling in [PathBuf::from(ASTRIX), fs::canonicalize(ASTRIX).unwrap()] {
        settings.add_filter(&regex_escape(&spelling.display().to_string()), "[ASTRIX]");
    }
    settings.bind(check);
}

/// A hook with bytes that a text round trip would change: no final newline, not UTF-8.
const ODD_HOOK: &[u8] = b"#!/bin/sh\n# caf\xe9\r\nexit 0";

fn assert_astrix_shim(path: &Path, name: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.starts_with("#!/bin/sh\n"), "{text}");
    assert!(
        text.contains(&format!("\n# astrix-hook: {name}\n")),
        "{text}"
    );
    assert!(text.contains("\n# astrix-hook-version: 1\n"), "{text}");
    assert!(
        text.contains(&format!("\nastrix_bin='{ASTRIX}'\n")),
        "{text}"
    );
    assert!(!text.contains("@ASTRIX@"), "{text}");
    assert_eq!(mode(path), 0o755);
}

#[test]
fn install_writes_both_hooks_into_a_fresh_repository() {
    let repo = Repo::new();
    with_binary_filter(|| cmd_snapshot!(repo.temp(), repo.astrix().arg("install")));
    assert_astrix_shim(&repo.hooks().join("pre-commit"), "pre-commit");
    assert_astrix_shim(
        &repo.hooks().join("reference-transaction"),
        "reference-transaction",
    );
    assert_astrix_shim(
        &repo.hooks().join("prepare-commit-msg"),
        "prepare-commit-msg",
    );
    assert!(!repo.hooks().join("pre-commit.astrix-orig").exists());
    assert!(!repo.hooks().join("pre-commit.astrix-new").exists());
}

#[test]
fn the_installed_hooks_run_for_a_commit() {
    let repo = Repo::new();
    repo.install(&[]);
    // The recorded binary really is the one called: the real astrix lets the commit through.
    let before = repo.head();
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_ne!(repo.head(), before);
}

#[test]
fn install_chains_an_existing_hook_which_runs_first() {
    let repo = Repo::new();
    let original = format!(
        "#!/bin/sh\necho chained > '{}'\necho 'original pre-commit' >> '{}'\n",
        repo.temp().join("marker").display(),
        repo.log().display()
    );
    fs::write(repo.hooks().join("pre-commit"), &original).unwrap();
    fs::set_permissions(
        repo.hooks().join("pre-commit"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    with_binary_filter(|| cmd_snapshot!(repo.temp(), repo.astrix().arg("install")));
    assert_eq!(
        fs::read_to_string(repo.hooks().join("pre-commit.astrix-orig")).unwrap(),
        original
    );
    assert_astrix_shim(&repo.hooks().join("pre-commit"), "pre-commit");

    let fake = repo.fake_astrix(0);
    repo.record_binary(&fake);
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        fs::read_to_string(repo.temp().join("marker")).unwrap(),
        "chained\n"
    );
    let log = repo.read_log();
    let lines: Vec<&str> = log.lines().take(2).collect();
    assert_eq!(
        lines,
        ["original pre-commit", "astrix hook pre-commit"],
        "{log}"
    );
}

#[test]
fn a_failing_chained_hook_blocks_the_commit_before_astrix_runs() {
    let repo = Repo::new();
    fs::write(
        repo.hooks().join("pre-commit"),
        "#!/bin/sh\necho 'no, says the original hook' >&2\nexit 1\n",
    )
    .unwrap();
    fs::set_permissions(
        repo.hooks().join("pre-commit"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    repo.install(&[]);
    let fake = repo.fake_astrix(0);
    repo.record_binary(&fake);

    let before = repo.head();
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("no, says the original hook"),
        "{}",
        stderr(&output)
    );
    assert_eq!(repo.head(), before);
    assert!(
        !repo.read_log().contains("hook pre-commit"),
        "{}",
        repo.read_log()
    );
}

#[test]
fn a_chained_hook_that_git_would_not_run_is_not_run() {
    let repo = Repo::new();
    // Not executable: git ignores it, and so does the shim.
    fs::write(repo.hooks().join("pre-commit"), "#!/bin/sh\nexit 1\n").unwrap();
    fs::set_permissions(
        repo.hooks().join("pre-commit"),
        fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let output = repo.install(&[]);
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("not executable"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn force_replaces_an_existing_hook_and_keeps_a_backup() {
    let repo = Repo::new();
    let hook = repo.hooks().join("pre-commit");
    fs::write(&hook, ODD_HOOK).unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o700)).unwrap();
    with_binary_filter(|| {
        cmd_snapshot!(repo.temp(), repo.astrix().args(["install", "--force"]));
    });
    let backup = repo.hooks().join("pre-commit.astrix-backup");
    assert_eq!(fs::read(&backup).unwrap(), ODD_HOOK);
    assert_eq!(mode(&backup), 0o700);
    assert!(!repo.hooks().join("pre-commit.astrix-orig").exists());
    assert_astrix_shim(&hook, "pre-commit");
}

#[test]
fn a_replaced_hook_no_longer_runs() {
    let repo = Repo::new();
    let hook = repo.hooks().join("pre-commit");
    fs::write(&hook, "#!/bin/sh\nexit 1\n").unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
    repo.install(&["--force"]);
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn uninstall_restores_a_chained_hook_byte_for_byte() {
    let repo = Repo::new();
    let hook = repo.hooks().join("pre-commit");
    fs::write(&hook, ODD_HOOK).unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o750)).unwrap();
    repo.install(&[]);
    cmd_snapshot!(repo.temp(), repo.astrix().arg("uninstall"));
    assert_eq!(fs::read(&hook).unwrap(), ODD_HOOK);
    assert_eq!(mode(&hook), 0o750);
    assert!(!repo.hooks().join("pre-commit.astrix-orig").exists());
    assert!(!repo.hooks().join("reference-transaction").exists());
}

#[test]
fn uninstall_restores_a_replaced_hook_byte_for_byte() {
    let repo = Repo::new();
    let hook = repo.hooks().join("reference-transaction");
    fs::write(&hook, ODD_HOOK).unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o711)).unwrap();
    repo.install(&["--force"]);
    cmd_snapshot!(repo.temp(), repo.astrix().arg("uninstall"));
    assert_eq!(fs::read(&hook).unwrap(), ODD_HOOK);
    assert_eq!(mode(&hook), 0o711);
    assert!(
        !repo
            .hooks()
            .join("reference-transaction.astrix-backup")
            .exists()
    );
    assert!(!repo.hooks().join("pre-commit").exists());
}

#[test]
fn uninstall_restores_a_symlinked_hook() {
    let repo = Repo::new();
    let target = repo.script("shared-hooks/pre-commit", "exit 0\n");
    let hook = repo.hooks().join("pre-commit");
    symlink(&target, &hook).unwrap();
    repo.install(&[]);
    assert!(
        fs::symlink_metadata(repo.hooks().join("pre-commit.astrix-orig"))
            .unwrap()
            .is_symlink()
    );
    repo.astrix().arg("uninstall").output().unwrap();
    assert_eq!(fs::read_link(&hook).unwrap(), target);
}

#[test]
fn uninstall_without_astrix_hooks_leaves_foreign_hooks_alone() {
    let repo = Repo::new();
    let hook = repo.hooks().join("pre-commit");
    fs::write(&hook, ODD_HOOK).unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
    cmd_snapshot!(repo.temp(), repo.astrix().arg("uninstall"));
    assert_eq!(fs::read(&hook).unwrap(), ODD_HOOK);
}

#[test]
fn reinstall_updates_in_place_and_does_not_chain_itself() {
    let repo = Repo::new();
    let hook = repo.hooks().join("pre-commit");
    fs::write(&hook, ODD_HOOK).unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
    repo.install(&[]);
    let first = fs::read(&hook).unwrap();
    with_binary_filter(|| cmd_snapshot!(repo.temp(), repo.astrix().arg("install")));
    assert_eq!(fs::read(&hook).unwrap(), first);
    assert_eq!(
        fs::read(repo.hooks().join("pre-commit.astrix-orig")).unwrap(),
        ODD_HOOK
    );
    assert!(
        !repo
            .hooks()
            .join("reference-transaction.astrix-orig")
            .exists()
    );
    repo.astrix().arg("uninstall").output().unwrap();
    assert_eq!(fs::read(&hook).unwrap(), ODD_HOOK);
}

#[test]
fn force_on_a_chained_install_stops_running_the_chained_hook() {
    let repo = Repo::new();
    let hook = repo.hooks().join("pre-commit");
    fs::write(&hook, "#!/bin/sh\nexit 1\n").unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
    repo.install(&[]);
    repo.install(&["--force"]);
    assert!(!repo.hooks().join("pre-commit.astrix-orig").exists());
    assert!(repo.hooks().join("pre-commit.astrix-backup").exists());
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert!(output.status.success(), "{}", stderr(&output));
    repo.astrix().arg("uninstall").output().unwrap();
    assert_eq!(fs::read_to_string(&hook).unwrap(), "#!/bin/sh\nexit 1\n");
}

#[test]
fn install_refuses_to_overwrite_a_kept_hook() {
    let repo = Repo::new();
    // A foreign hook, and a chained one kept from an earlier install: neither may be lost.
    repo.script("repo/.git/hooks/pre-commit", "exit 0\n");
    repo.script("repo/.git/hooks/pre-commit.astrix-orig", "exit 3\n");
    let output = repo.astrix().arg("install").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("pre-commit.astrix-orig` is already there"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        fs::read_to_string(repo.hooks().join("pre-commit")).unwrap(),
        "#!/bin/sh\nexit 0\n"
    );
    assert!(!repo.hooks().join("pre-commit.astrix-new").exists());
}

#[test]
fn install_honours_a_relative_core_hooks_path_from_a_subdirectory() {
    let repo = Repo::new();
    repo.git(&["config", "core.hooksPath", ".githooks"]);
    repo.write("src/lib.rs", "");
    let output = isolated(ASTRIX, &repo.root.join("src"))
        .arg("install")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let dir = repo.root.join(".githooks");
    assert!(
        String::from_utf8_lossy(&output.stdout)
            .contains(&format!("hooks directory: {}", dir.display()))
    );
    assert_astrix_shim(&dir.join("pre-commit"), "pre-commit");
    assert_astrix_shim(&dir.join("reference-transaction"), "reference-transaction");
    assert!(!repo.hooks().join("pre-commit").exists());
    assert!(!repo.root.join("src/.githooks").exists());

    // git runs them from there.
    let fake = repo.fake_astrix(0);
    for name in ["pre-commit", "reference-transaction"] {
        let path = dir.join(name);
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, text.replace(ASTRIX, &fake.display().to_string())).unwrap();
    }
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(repo.read_log().contains("astrix hook pre-commit\n"));

    let output = repo.astrix().arg("uninstall").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(!dir.join("pre-commit").exists());
}

#[test]
fn install_honours_an_absolute_core_hooks_path() {
    let repo = Repo::new();
    let dir = repo.temp().join("shared hooks/astrix");
    repo.git(&["config", "core.hooksPath", &dir.display().to_string()]);
    repo.install(&[]);
    assert_astrix_shim(&dir.join("pre-commit"), "pre-commit");
    assert_astrix_shim(&dir.join("reference-transaction"), "reference-transaction");
    assert!(!repo.hooks().join("pre-commit").exists());
}

#[test]
fn core_hooks_path_from_the_global_config_is_refused() {
    let repo = Repo::new();
    let global = repo.temp().join("global.gitconfig");
    fs::write(&global, "[core]\n\thooksPath = /somewhere/shared-hooks\n").unwrap();
    let output = repo
        .astrix()
        .env("GIT_CONFIG_GLOBAL", &global)
        .arg("install")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(
            "`core.hooksPath` is set to `/somewhere/shared-hooks` outside this repository"
        ),
        "{}",
        stderr(&output)
    );
    assert!(!repo.hooks().join("pre-commit").exists());

    // Set for the repository, it wins over the global value and is honoured.
    repo.git(&["config", "core.hooksPath", ".githooks"]);
    let output = repo
        .astrix()
        .env("GIT_CONFIG_GLOBAL", &global)
        .arg("install")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(repo.root.join(".githooks/pre-commit").exists());
}

#[test]
fn install_from_a_linked_worktree_uses_the_common_git_dir() {
    let repo = Repo::new();
    let worktree = repo.temp().join("linked");
    repo.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "feature",
        &worktree.display().to_string(),
    ]);
    let output = isolated(ASTRIX, &worktree).arg("install").output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout)
            .contains(&format!("hooks directory: {}\n", repo.hooks().display()))
    );
    assert_astrix_shim(&repo.hooks().join("pre-commit"), "pre-commit");
    assert!(!repo.root.join(".git/worktrees/linked/hooks").exists());

    // A commit in the worktree runs them.
    let fake = repo.fake_astrix(0);
    repo.record_binary(&fake);
    fs::write(worktree.join("b.txt"), "b\n").unwrap();
    assert!(repo.git_in(&worktree, &["add", "b.txt"]).status.success());
    let output = repo.git_in(&worktree, &["commit", "-q", "-m", "in the worktree"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let log = repo.read_log();
    assert!(log.contains("astrix hook pre-commit\n"), "{log}");
    assert!(log.contains(" refs/heads/feature\n"), "{log}");

    let output = isolated(ASTRIX, &worktree)
        .arg("uninstall")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(!repo.hooks().join("pre-commit").exists());
}

#[test]
fn backstop_installs_only_reference_transaction() {
    let repo = Repo::new();
    // A pre-commit hook of a hook manager stays as it is.
    let manager = repo.script("repo/.git/hooks/pre-commit", "exec prek hook-impl\n");
    let before = fs::read(&manager).unwrap();
    with_binary_filter(|| {
        cmd_snapshot!(repo.temp(), repo.astrix().args(["install", "--backstop"]));
    });
    assert_eq!(fs::read(&manager).unwrap(), before);
    assert!(!repo.hooks().join("pre-commit.astrix-orig").exists());
    assert_astrix_shim(
        &repo.hooks().join("reference-transaction"),
        "reference-transaction",
    );
}

#[test]
fn shims_fall_back_to_astrix_on_path() {
    let repo = Repo::new();
    repo.install(&[]);
    repo.record_binary(&repo.temp().join("gone/astrix"));
    let fake = repo.fake_astrix(0);
    let output = repo.commit("a.txt", &[], &repo.path_with(fake.parent()));
    assert!(output.status.success(), "{}", stderr(&output));
    let log = repo.read_log();
    assert!(log.starts_with("astrix hook pre-commit\n"), "{log}");
    assert!(
        log.contains("astrix hook reference-transaction prepared\n"),
        "{log}"
    );
}

#[test]
fn commit_is_blocked_when_astrix_is_nowhere() {
    let repo = Repo::new();
    repo.install(&[]);
    let gone = repo.temp().join("gone/astrix");
    repo.record_binary(&gone);
    let before = repo.head();
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains(&format!(
            "error: astrix is not installed at `{}` nor on PATH; reinstall it, or run \
             `astrix uninstall` to remove the hooks",
            gone.display()
        )),
        "{message}"
    );
    assert!(message.contains("the pre-commit hook at"), "{message}");
    assert_eq!(repo.head(), before);
    // The change is still staged.
    assert_eq!(repo.git(&["diff", "--cached", "--name-only"]), "a.txt\n");

    // `--no-verify` skips pre-commit, and the backstop blocks the update instead.
    let output = repo.commit("a.txt", &["--no-verify"], &repo.path_with(None));
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("the reference-transaction hook at"),
        "{message}"
    );
    assert_eq!(repo.head(), before);
}

/// The chained reference-transaction hook logs its state and input; the fake astrix logs
/// its arguments and input. Returns the repository and the commit's output.
fn commit_with_logging_reference_transaction(astrix_exit: u8, extra: &[&str]) -> (Repo, Output) {
    let repo = Repo::new();
    repo.script(
        "repo/.git/hooks/reference-transaction",
        &format!(
            "printf 'chained %s\\n' \"$1\" >> '{log}'\ncat >> '{log}'\n",
            log = repo.log().display()
        ),
    );
    repo.install(&[]);
    let fake = repo.fake_astrix(astrix_exit);
    repo.record_binary(&fake);
    let output = repo.commit("a.txt", extra, &repo.path_with(None));
    (repo, output)
}

/// The log split into calls: the first line of each, and the lines of input after it.
fn calls(log: &str) -> Vec<(String, Vec<String>)> {
    let mut calls: Vec<(String, Vec<String>)> = Vec::new();
    for line in log.lines() {
        if line.starts_with("astrix ") || line.starts_with("chained ") {
            calls.push((line.to_owned(), Vec::new()));
        } else {
            calls.last_mut().unwrap().1.push(line.to_owned());
        }
    }
    calls
}

/// The states the chained hook saw, and the calls of astrix, in order; checks that astrix
/// was started exactly once per `prepared` state of a transaction that updates a local
/// branch, with the lines the chained hook got, and never for any other.
fn check_transactions(calls: &[(String, Vec<String>)]) -> (Vec<String>, Vec<String>) {
    let mut chained_states = Vec::new();
    let mut astrix_calls = Vec::new();
    for (index, (call, input)) in calls.iter().enumerate() {
        if let Some(state) = call.strip_prefix("chained ") {
            chained_states.push(state.to_owned());
            let branch = input.iter().any(|line| line.contains(" refs/heads/"));
            let next = calls.get(index + 1);
            if state == "prepared" && branch {
                // astrix runs right after the chained hook, with the same input.
                let (next, next_input) = next.unwrap();
                assert_eq!(next, "astrix hook reference-transaction prepared");
                assert_eq!(next_input, input);
            } else if let Some((next, _)) = next {
                assert!(!next.starts_with("astrix "), "{call} {input:?} then {next}");
            }
        } else {
            astrix_calls.push(call.clone());
        }
    }
    assert!(
        astrix_calls
            .iter()
            .all(|call| !call.contains("committed") && !call.contains("aborted")),
        "{astrix_calls:?}"
    );
    (chained_states, astrix_calls)
}

#[test]
fn reference_transaction_starts_astrix_only_when_prepared() {
    let (repo, output) = commit_with_logging_reference_transaction(0, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let head = repo.head();
    let calls = calls(&repo.read_log());
    assert_eq!(calls[0].0, "astrix hook pre-commit");
    let (states, astrix) = check_transactions(&calls[1..]);
    let prepared = states.iter().filter(|state| *state == "prepared").count();
    let committed = states.iter().filter(|state| *state == "committed").count();
    assert!(prepared >= 1, "{states:?}");
    assert_eq!(committed, prepared, "{states:?}");
    assert_eq!(astrix.len(), 1, "{astrix:?}");
    // The branch update came through as `<old> <new> <ref>`, to both hooks.
    let (_, updates) = &calls[1];
    assert!(
        updates
            .iter()
            .any(|line| line.ends_with(&format!(" {head} refs/heads/main"))),
        "{updates:?}"
    );
    assert!(
        updates.iter().all(|line| line.split(' ').count() == 3),
        "{updates:?}"
    );
    let (committed_call, committed_updates) = &calls[3];
    assert_eq!(committed_call, "chained committed");
    assert_eq!(committed_updates, updates);
}

#[test]
fn reference_transaction_under_no_verify_still_runs_astrix() {
    let (repo, output) = commit_with_logging_reference_transaction(0, &["--no-verify"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let log = repo.read_log();
    assert!(!log.contains("astrix hook pre-commit"), "{log}");
    assert!(
        log.contains("astrix hook reference-transaction prepared\n"),
        "{log}"
    );
}

#[test]
fn reference_transaction_aborted_does_not_start_astrix() {
    let (repo, output) = commit_with_logging_reference_transaction(1, &["--no-verify"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("ref updates aborted by hook"),
        "{}",
        stderr(&output)
    );
    let calls = calls(&repo.read_log());
    let (states, astrix) = check_transactions(&calls);
    assert_eq!(states, ["prepared", "aborted"]);
    assert_eq!(astrix, ["astrix hook reference-transaction prepared"]);
    // Still staged, not committed.
    assert_eq!(repo.git(&["diff", "--cached", "--name-only"]), "a.txt\n");
}

#[test]
fn a_failing_chained_reference_transaction_hook_aborts_before_astrix() {
    let repo = Repo::new();
    repo.script(
        "repo/.git/hooks/reference-transaction",
        &format!(
            "printf 'chained %s\\n' \"$1\" >> '{log}'\n[ \"$1\" != prepared ]\n",
            log = repo.log().display()
        ),
    );
    repo.install(&[]);
    let fake = repo.fake_astrix(0);
    repo.record_binary(&fake);
    let output = repo.commit("a.txt", &["--no-verify"], &repo.path_with(None));
    assert!(!output.status.success());
    assert_eq!(repo.read_log(), "chained prepared\nchained aborted\n");
}

#[test]
fn a_binary_path_with_spaces_and_quotes_is_recorded_safely() {
    let repo = Repo::new();
    let dir = repo.temp().join("it's a \"dir\" with $HOME and `x`");
    fs::create_dir(&dir).unwrap();
    let binary = dir.join("astrix");
    fs::copy(ASTRIX, &binary).unwrap();
    let mut install = isolated(&binary.display().to_string(), &repo.root);
    install.arg("install");
    // A child that another test's thread forked while the copy was open for writing holds
    // it until that child execs; until then, running the copy fails with ETXTBSY.
    let mut output = install.output();
    for _ in 0..100 {
        match &output {
            Err(error) if error.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
                output = install.output();
            }
            _ => break,
        }
    }
    let output = output.unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Replace the copy by a fake, at the same path: the shims call exactly that file.
    fs::remove_file(&binary).unwrap();
    let fake = repo.fake_astrix(0);
    fs::copy(&fake, &binary).unwrap();
    fs::remove_file(&fake).unwrap();
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        repo.read_log().starts_with("astrix hook pre-commit\n"),
        "{}",
        repo.read_log()
    );
}

#[test]
fn install_outside_a_repository_is_an_error() {
    let sandbox = Sandbox::new();
    let output = sandbox.astrix().arg("install").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("is not inside a git repository"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn hook_rejects_an_unknown_hook_name() {
    let repo = Repo::new();
    let output = repo.astrix().args(["hook", "post-merge"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown hook `post-merge`"));
    let output = repo
        .astrix()
        .args(["hook", "reference-transaction", "prepared"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
}

/// husky (v9: `core.hooksPath = .husky/_`, a directory it writes again whenever it installs):
/// astrix writes only the backstop there, leaves husky's files and the repository's own
/// `.husky/pre-commit` alone, and says how to chain the gate through husky's scripts and
/// that each work tree needs the backstop. Covers issue 22.
#[test]
fn husky_is_detected_and_only_the_backstop_is_written_into_its_directory() {
    let repo = Repo::new();
    repo.write(".husky/pre-commit", "npm test\n");
    repo.git(&["add", ".husky/pre-commit"]);
    repo.git(&["commit", "-q", "-m", "husky"]);
    repo.write(".husky/_/.gitignore", "*\n");
    let husky_hook = repo.script("repo/.husky/_/pre-commit", ". \"$(dirname \"$0\")/h\"\n");
    let before = fs::read(&husky_hook).unwrap();
    repo.git(&["config", "core.hooksPath", ".husky/_"]);
    let output = repo.install(&[]);
    let text = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "husky manages this repository's hooks (`core.hooksPath` is `.husky/_`)",
        "      .husky/pre-commit           astrix hook pre-commit\n",
        "      .husky/commit-msg           astrix hook commit-msg \"$1\"\n",
        "  pre-commit: not installed: the hook manager runs it (see above)\n",
        "  reference-transaction: installed\n",
        "run `astrix install` again in each linked worktree, and after husky installs its directory again",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    assert_eq!(fs::read(&husky_hook).unwrap(), before);
    assert!(!repo.root.join(".husky/_/pre-commit.astrix-orig").exists());
    assert_eq!(
        fs::read_to_string(repo.root.join(".husky/pre-commit")).unwrap(),
        "npm test\n"
    );
    assert_astrix_shim(
        &repo.root.join(".husky/_/reference-transaction"),
        "reference-transaction",
    );
    assert!(repo.git(&["status", "--porcelain"]).is_empty());
}

/// husky before v9 (`core.hooksPath = .husky`, the tracked hooks themselves): a tracked hook
/// is never written over, and the untracked backstop beside it is named as such. Covers
/// issue 22.
#[test]
fn a_tracked_hook_in_the_hooks_directory_is_never_written_over() {
    let repo = Repo::new();
    repo.script("repo/.husky/pre-commit", "npx lint-staged\n");
    repo.git(&["add", ".husky/pre-commit"]);
    repo.git(&["commit", "-q", "-m", "husky"]);
    let before = fs::read(repo.root.join(".husky/pre-commit")).unwrap();
    repo.git(&["config", "core.hooksPath", ".husky"]);
    let output = repo.install(&[]);
    let text = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "  pre-commit: not changed: `.husky/pre-commit` is tracked by the repository",
        "add `astrix hook pre-commit` to it instead",
        "the hooks astrix wrote there are untracked files (`git status` lists them)",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    assert_eq!(
        fs::read(repo.root.join(".husky/pre-commit")).unwrap(),
        before
    );
    assert!(!repo.root.join(".husky/pre-commit.astrix-orig").exists());
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        "?? .husky/reference-transaction\n"
    );
}

/// lefthook (a `lefthook.yml` at the root, hooks it writes over on `lefthook install`): its
/// pre-commit hook stays, the gate is chained through its configuration, and the backstop,
/// which lefthook does not install, is. Covers issue 22.
#[test]
fn lefthook_is_detected_and_the_gate_chained_through_its_configuration() {
    let repo = Repo::new();
    repo.write(
        "lefthook.yml",
        "pre-commit:\n  commands:\n    lint:\n      run: make lint\n",
    );
    let lefthook = repo.script(
        "repo/.git/hooks/pre-commit",
        "exec lefthook run pre-commit\n",
    );
    let before = fs::read(&lefthook).unwrap();
    let output = repo.install(&[]);
    let text = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "lefthook manages this repository's hooks (`lefthook.yml` is at the root)",
        "then run `lefthook install`",
        "            run: astrix hook pre-commit\n",
        "            run: astrix hook commit-msg {1}",
        "  reference-transaction: installed\n",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    assert_eq!(fs::read(&lefthook).unwrap(), before);
    assert!(!repo.hooks().join("pre-commit.astrix-orig").exists());
    assert_astrix_shim(
        &repo.hooks().join("reference-transaction"),
        "reference-transaction",
    );
}

/// The gate warns, on every commit, when it runs without its backstop (a hook manager runs
/// it, or the backstop was removed): `git commit --no-verify` would skip astrix. Covers
/// issue 22.
#[test]
fn the_gate_warns_when_it_runs_without_its_backstop() {
    let repo = Repo::new();
    repo.install(&[]);
    let output = repo.commit("a.txt", &[], &repo.path_with(None));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!stderr(&output).contains("backstop"), "{}", stderr(&output));

    fs::remove_file(repo.hooks().join("reference-transaction")).unwrap();
    let output = repo.commit("b.txt", &[], &repo.path_with(None));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!(
            "astrix: warning: astrix's backstop (the reference-transaction hook) is not installed in `{}`, so `git commit --no-verify` and other branch moves skip astrix here; run `astrix install --backstop`",
            repo.hooks().canonicalize().unwrap().display()
        )),
        "{}",
        stderr(&output)
    );
}

/// A pack of many objects that no multi-pack-index covers gets a note on what each hook pays
/// for it and how to spare it; a multi-pack-index, or a small pack, gets none. (The pack
/// index here is its header alone, which is all the note reads.)
#[test]
fn install_notes_a_large_pack_without_a_multi_pack_index() {
    const NOTE: &str = "no multi-pack-index covers it";
    let repo = Repo::new();
    let pack = repo.hooks().parent().unwrap().join("objects/pack");
    fs::create_dir_all(&pack).unwrap();
    let index = |objects: u32| {
        let mut header = b"\xfftOc\0\0\0\x02".to_vec();
        for _ in 0..256 {
            header.extend_from_slice(&objects.to_be_bytes());
        }
        header
    };
    fs::write(pack.join("pack-1.idx"), index(1_000)).unwrap();
    let output = repo.astrix().arg("install").output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!String::from_utf8_lossy(&output.stdout).contains(NOTE));

    fs::write(pack.join("pack-2.idx"), index(1_242_388)).unwrap();
    let output = repo.astrix().arg("install").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        stdout.contains("the largest pack of this repository holds 1242388 objects and no multi-pack-index covers it"),
        "{stdout}"
    );
    assert!(stdout.contains("`git multi-pack-index write`"), "{stdout}");

    fs::write(pack.join("multi-pack-index"), b"").unwrap();
    let output = repo.astrix().arg("install").output().unwrap();
    assert!(!String::from_utf8_lossy(&output.stdout).contains(NOTE));
}
