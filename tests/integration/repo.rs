//! `TestRepo`: a temporary git repository driven by the real `git` CLI in an isolated
//! environment, for end-to-end tests of the library and of the astrix binary.
//!
//! Isolation: the environment is cleared except `PATH`; `HOME` is a directory inside the
//! temporary directory; no system or global git configuration (`GIT_CONFIG_NOSYSTEM=1`,
//! `GIT_CONFIG_GLOBAL=/dev/null`); fixed author and committer names, emails and dates; the
//! repository is created with `main` as its branch and `commit.gpgsign=false`. Nothing from
//! the machine leaks in: no `GIT_DIR`, `GIT_INDEX_FILE`, `GIT_WORK_TREE`, and no agent
//! markers (`CLAUDECODE`, `CODEX_*`, …).

#![allow(
    dead_code,
    reason = "a shared fixture: each test module uses a different part of it"
)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use astrix::env::EnvSnapshot;

/// A fixed date, so that commit ids are reproducible.
pub const DATE: &str = "2005-04-07T22:13:13 +0200";

/// The host's `PATH`, the one variable the isolated environment keeps (to find `git`).
#[expect(
    clippy::disallowed_methods,
    reason = "the fixture hands the host's PATH on; astrix itself reads variables only in src/env.rs"
)]
fn host_path() -> OsString {
    std::env::var_os("PATH").unwrap_or_default()
}

/// A temporary git repository with an isolated environment.
pub struct TestRepo {
    // Held for its `Drop`: the directory is removed with the fixture.
    _temp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
}

impl TestRepo {
    /// A new, empty repository on branch `main`.
    pub fn new() -> Self {
        let repo = Self::bare_dir();
        repo.git(&["init", "-q", "-b", "main"]);
        repo.git(&["config", "commit.gpgsign", "false"]);
        repo
    }

    /// The fixture's directories, without `git init` (to set a repository up differently).
    pub fn bare_dir() -> Self {
        let temp = tempfile::Builder::new()
            .prefix("astrix-test-")
            .tempdir()
            .expect("create a temporary directory");
        // Canonical paths, so that they compare equal with what git and gix report.
        let base = temp.path().canonicalize().expect("canonical temp dir");
        let root = base.join("repo");
        let home = base.join("home");
        std::fs::create_dir_all(&root).expect("create the repository directory");
        std::fs::create_dir_all(&home).expect("create the home directory");
        Self {
            _temp: temp,
            root,
            home,
        }
    }

    /// The repository's work tree.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// The isolated home directory.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// The isolated environment, as name/value pairs.
    pub fn env_vars(&self) -> Vec<(String, OsString)> {
        let mut vars: Vec<(String, OsString)> = vec![
            ("HOME".to_owned(), self.home.clone().into_os_string()),
            ("GIT_CONFIG_NOSYSTEM".to_owned(), "1".into()),
            ("GIT_CONFIG_GLOBAL".to_owned(), "/dev/null".into()),
            ("GIT_AUTHOR_NAME".to_owned(), "A U Thor".into()),
            ("GIT_AUTHOR_EMAIL".to_owned(), "author@example.com".into()),
            ("GIT_AUTHOR_DATE".to_owned(), DATE.into()),
            ("GIT_COMMITTER_NAME".to_owned(), "C O Mitter".into()),
            (
                "GIT_COMMITTER_EMAIL".to_owned(),
                "committer@example.com".into(),
            ),
            ("GIT_COMMITTER_DATE".to_owned(), DATE.into()),
            ("GIT_TERMINAL_PROMPT".to_owned(), "0".into()),
            ("LC_ALL".to_owned(), "C".into()),
            ("TZ".to_owned(), "UTC".into()),
        ];
        vars.push(("PATH".to_owned(), host_path()));
        vars
    }

    /// An [`EnvSnapshot`] matching the isolated environment (what the astrix binary would see
    /// when started by [`Self::command`]).
    pub fn env_snapshot(&self) -> EnvSnapshot {
        EnvSnapshot::from_pairs(self.env_vars())
    }

    /// The snapshot plus `extra` variables.
    pub fn env_snapshot_with(&self, extra: &[(&str, &str)]) -> EnvSnapshot {
        let mut vars = self.env_vars();
        vars.extend(
            extra
                .iter()
                .map(|(name, value)| ((*name).to_owned(), OsString::from(value))),
        );
        EnvSnapshot::from_pairs(vars)
    }

    /// `program` with the isolated environment, run in the repository.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command
            .env_clear()
            .envs(self.env_vars())
            .current_dir(&self.root);
        command
    }

    /// Runs git with `args` in `dir` and `extra` environment variables.
    pub fn git_output_in(&self, dir: &Path, extra: &[(&str, &str)], args: &[&str]) -> Output {
        let mut command = self.command("git");
        command.current_dir(dir).args(args);
        for (name, value) in extra {
            command.env(name, value);
        }
        command.output().expect("run git")
    }

    /// Runs git with `args`, whatever its outcome.
    pub fn git_result(&self, args: &[&str]) -> Output {
        self.git_output_in(&self.root, &[], args)
    }

    /// Runs git with `args` and returns its stdout; fails the test when git fails.
    pub fn git(&self, args: &[&str]) -> String {
        self.git_in(&self.root, &[], args)
    }

    /// Like [`Self::git`], in `dir` with `extra` environment variables.
    pub fn git_in(&self, dir: &Path, extra: &[(&str, &str)], args: &[&str]) -> String {
        let output = self.git_output_in(dir, extra, args);
        assert!(
            output.status.success(),
            "git {args:?} failed: {}\n{}",
            String::from_utf8_lossy(&output.stderr),
            String::from_utf8_lossy(&output.stdout)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Writes `contents` at `path` (relative to the work tree), creating directories.
    pub fn write(&self, path: impl AsRef<Path>, contents: impl AsRef<[u8]>) {
        let path = self.root.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent directories");
        }
        std::fs::write(&path, contents).expect("write file");
    }

    /// Removes the file or directory at `path`.
    pub fn remove(&self, path: impl AsRef<Path>) {
        let path = self.root.join(path);
        if path.is_dir() && !path.is_symlink() {
            std::fs::remove_dir_all(path).expect("remove directory");
        } else {
            std::fs::remove_file(path).expect("remove file");
        }
    }

    /// `git mv from to`, creating the destination's directories first.
    pub fn mv(&self, from: &str, to: &str) {
        if let Some(parent) = self.root.join(to).parent() {
            std::fs::create_dir_all(parent).expect("create parent directories");
        }
        self.git(&["mv", from, to]);
    }

    /// Makes `path` a symbolic link to `target` (replacing what is there).
    pub fn symlink(&self, path: impl AsRef<Path>, target: &str) {
        let path = self.root.join(path);
        if path.symlink_metadata().is_ok() {
            std::fs::remove_file(&path).expect("remove old file");
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent directories");
        }
        std::os::unix::fs::symlink(target, path).expect("create symlink");
    }

    /// Sets or clears the executable bits of `path`.
    pub fn set_executable(&self, path: impl AsRef<Path>, executable: bool) {
        use std::os::unix::fs::PermissionsExt;
        let path = self.root.join(path);
        let mode = if executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .expect("set permissions");
    }

    /// Stages everything and commits it with `message`; returns the commit id.
    pub fn commit_all(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.rev_parse("HEAD")
    }

    /// The full id of `rev`.
    pub fn rev_parse(&self, rev: &str) -> String {
        self.git(&["rev-parse", rev]).trim().to_owned()
    }
}
