//! How astrix is distributed: `--version` names the package and the commit, and the hooks
//! that `astrix install` writes run a program only once it shows it is astrix. Another
//! project's `astrix` (one on the Python package index installs a command of that name) on PATH, or written over
//! the installed binary, is refused with exit 2, and so blocks the commit.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

use crate::common::{ASTRIX, Sandbox, isolated};

/// A repository at `<sandbox>/repo` with one commit and astrix's hooks, and a directory of
/// tools (git and cat, nothing named astrix) for the hooks' PATH.
struct Repo {
    sandbox: Sandbox,
    root: PathBuf,
}

impl Repo {
    /// Installs the hooks with `installer` (an astrix binary).
    fn with_installer(installer: &Path) -> Self {
        let sandbox = Sandbox::new();
        let root = sandbox.path().join("repo");
        fs::create_dir(&root).unwrap();
        let repo = Self { sandbox, root };
        repo.git(&["init", "-q", "-b", "main"]);
        fs::write(repo.root.join("README.md"), "hello\n").unwrap();
        repo.git(&["add", "README.md"]);
        repo.git(&["commit", "-q", "-m", "initial"]);
        let tools = repo.temp().join("tools");
        fs::create_dir(&tools).unwrap();
        let found = Command::new("sh")
            .args(["-c", "command -v git && command -v cat"])
            .output()
            .unwrap();
        for path in String::from_utf8(found.stdout).unwrap().lines() {
            let path = Path::new(path);
            symlink(path, tools.join(path.file_name().unwrap())).unwrap();
        }
        let output = isolated(&installer.display().to_string(), &repo.root)
            .arg("install")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        repo
    }

    fn new() -> Self {
        Self::with_installer(Path::new(ASTRIX))
    }

    fn temp(&self) -> &Path {
        self.sandbox.path()
    }

    fn hook(&self, name: &str) -> PathBuf {
        self.root.join(".git/hooks").join(name)
    }

    fn git(&self, args: &[&str]) -> String {
        let output = isolated("git", &self.root).args(args).output().unwrap();
        assert!(output.status.success(), "git {args:?}: {}", stderr(&output));
        String::from_utf8(output.stdout).unwrap()
    }

    fn head(&self) -> String {
        self.git(&["rev-parse", "HEAD"]).trim().to_owned()
    }

    /// PATH: `first` (when given), then the tools.
    fn path_with(&self, first: Option<&Path>) -> String {
        let tools = self.temp().join("tools").display().to_string();
        first.map_or(tools.clone(), |dir| format!("{}:{tools}", dir.display()))
    }

    /// Stages a change and runs `git commit` with `extra` arguments and `path`.
    fn commit(&self, extra: &[&str], path: &str) -> Output {
        fs::write(self.root.join("a.txt"), format!("{}\n", self.head())).unwrap();
        self.git(&["add", "a.txt"]);
        isolated("git", &self.root)
            .env("PATH", path)
            .args(["commit", "-q", "-m", "change"])
            .args(extra)
            .output()
            .unwrap()
    }

    /// Points the hooks at `binary` instead of the astrix that installed them (rewriting
    /// them, so that they are newer than any binary made before).
    fn record_binary(&self, binary: &Path) {
        for name in [
            "pre-commit",
            "prepare-commit-msg",
            "commit-msg",
            "reference-transaction",
        ] {
            let path = self.hook(name);
            let text = fs::read_to_string(&path).unwrap();
            let recorded = format!("astrix_bin='{ASTRIX}'");
            assert!(text.contains(&recorded), "{text}");
            let text = text.replace(&recorded, &format!("astrix_bin='{}'", binary.display()));
            fs::write(&path, text).unwrap();
        }
    }

    fn log(&self) -> String {
        fs::read_to_string(self.temp().join("log")).unwrap_or_default()
    }

    /// An executable sh script at `<sandbox>/<relative>` that logs its arguments, answers
    /// `--version` with `version` (exactly, with `printf %b`), and otherwise exits 0: what a
    /// stranger's `astrix` may do.
    fn program(&self, relative: &str, version: &str) -> PathBuf {
        let path = self.temp().join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let log = self.temp().join("log");
        fs::write(
            &path,
            format!(
                "#!/bin/sh\necho \"stranger $*\" >> '{}'\nif [ \"$1\" = --version ]; then printf '%b' '{version}'; fi\nexit 0\n",
                log.display()
            ),
        )
        .unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Sets `path`'s modification time (and closes it again: a file open for writing cannot be
/// run).
fn set_modified(path: &Path, time: SystemTime) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(time).unwrap();
}

/// Sets `path`'s modification time `ago` in the past.
fn age(path: &Path, ago: Duration) {
    set_modified(path, SystemTime::now() - ago);
}

/// What a stranger's `--version` might print. The first is the other `astrix` on the Python package index (a
/// click program); the others come close to astrix's own line, and none is it.
const STRANGERS: &[&str] = &[
    "astrix, version 0.1.7\\n",
    "astrix 0.1.7\\n",
    "astrix 0.1.0 (astrix 0123456789ab)\\n",
    "astrix 0.1.0 (astrix-guard)\\n",
    "astrix 0.1.0 (astrix-guard 0123456789AB)\\n",
    "astrix 0.1.0 (astrix-guard 0123456789ab) extra\\n",
    " astrix 0.1.0 (astrix-guard 0123456789ab)\\n",
    "astrix v0.1.0 (astrix-guard 0123456789ab)\\n",
    "astrix 0.1.0; rm -rf / (astrix-guard 0123456789ab)\\n",
    "something else\\nastrix 0.1.0 (astrix-guard 0123456789ab)\\n",
    "",
];

#[test]
fn version_names_the_package_and_the_commit() {
    let output = isolated(ASTRIX, Path::new("/"))
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    let line = text.strip_suffix('\n').unwrap();
    let rest = line
        .strip_prefix(&format!(
            "astrix {} (astrix-guard ",
            env!("CARGO_PKG_VERSION")
        ))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{line:?}"));
    // The tests run from a git checkout, so the build names its commit (12 hex digits).
    assert_eq!(rest.len(), 12, "{line:?}");
    assert!(
        rest.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
        "{line:?}"
    );
    let checkout = Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(checkout.stdout)
            .unwrap()
            .starts_with(rest),
        "{line:?} is not the checkout's commit"
    );
}

/// The installed binary is gone and a stranger's `astrix` is on PATH: every hook refuses it
/// with exit 2 and says what it is and what to do; the commit is blocked, also under
/// `--no-verify` (the backstop), and the stranger is never run for anything but `--version`.
#[test]
fn a_strangers_astrix_on_path_is_refused_and_blocks_the_commit() {
    let repo = Repo::new();
    repo.record_binary(&repo.temp().join("gone/astrix"));
    let stranger = repo.program("stranger/astrix", STRANGERS[0]);
    let path = repo.path_with(stranger.parent());
    let before = repo.head();

    for hook in ["pre-commit", "commit-msg", "prepare-commit-msg"] {
        let message = repo.temp().join("message");
        fs::write(&message, "change\n").unwrap();
        let output = isolated(&repo.hook(hook).display().to_string(), &repo.root)
            .env("PATH", &path)
            .arg(&message)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{hook}: {}", stderr(&output));
        let text = stderr(&output);
        for expected in [
            format!(
                "error: `{}` is not astrix: its `--version` does not answer `astrix <version> \
                 (astrix-guard <commit>)`, so it is another program named astrix\n",
                stranger.display()
            ),
            "  install astrix (the package astrix-guard: `cargo install astrix-guard` or `pip \
             install astrix-guard`) and run `astrix install` again, or run `astrix uninstall` \
             to remove the hooks\n"
                .to_owned(),
            format!("  the {hook} hook at `"),
        ] {
            assert!(text.contains(&expected), "{hook}: {expected:?} in {text:?}");
        }
    }

    let output = repo.commit(&[], &path);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("is not astrix"),
        "{}",
        stderr(&output)
    );
    assert_eq!(repo.head(), before);

    // `--no-verify` skips pre-commit and commit-msg, not prepare-commit-msg: without it,
    // the backstop is what refuses the stranger.
    let output = repo.commit(&["--no-verify"], &path);
    assert!(!output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("the prepare-commit-msg hook at"),
        "{}",
        stderr(&output)
    );
    fs::remove_file(repo.hook("prepare-commit-msg")).unwrap();
    let output = repo.commit(&["--no-verify"], &path);
    assert!(!output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("the reference-transaction hook at"),
        "{}",
        stderr(&output)
    );
    assert_eq!(repo.head(), before);

    let log = repo.log();
    assert!(!log.is_empty());
    assert!(
        log.lines().all(|line| line == "stranger --version"),
        "the stranger ran for more than --version:\n{log}"
    );
}

/// Each near miss of astrix's `--version` line is refused; astrix's own binary on PATH is
/// taken, and the commit goes through.
#[test]
fn only_astrixs_own_version_line_is_taken() {
    let repo = Repo::new();
    repo.record_binary(&repo.temp().join("gone/astrix"));
    let before = repo.head();
    for (index, version) in STRANGERS.iter().enumerate() {
        let stranger = repo.program(&format!("stranger{index}/astrix"), version);
        let output = repo.commit(&[], &repo.path_with(stranger.parent()));
        assert_eq!(
            output.status.code(),
            Some(1),
            "{version:?}: {}",
            stderr(&output)
        );
        assert!(stderr(&output).contains("is not astrix"), "{version:?}");
        assert_eq!(repo.head(), before, "{version:?}");
    }

    let ours = repo.temp().join("ours");
    fs::create_dir(&ours).unwrap();
    symlink(ASTRIX, ours.join("astrix")).unwrap();
    let output = repo.commit(&[], &repo.path_with(Some(&ours)));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_ne!(repo.head(), before);
}

/// A stranger's `astrix` written over the installed binary after the hooks (what `pip
/// install astrix` does to a virtual environment's `bin/astrix`) is newer than the hooks,
/// so they check it, and refuse it.
#[test]
fn a_stranger_written_over_the_installed_binary_is_refused() {
    let sandbox = Sandbox::new();
    let installed = sandbox.path().join("bin/astrix");
    fs::create_dir_all(installed.parent().unwrap()).unwrap();
    fs::copy(ASTRIX, &installed).unwrap();
    let repo = Repo::new();
    repo.record_binary(&installed);
    let before = repo.head();
    // The hooks are newer than the binary: it runs unchecked, and the commit goes through.
    age(&installed, Duration::from_secs(3600));
    let output = repo.commit(&[], &repo.path_with(None));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let after = repo.head();
    assert_ne!(after, before);

    // Another package's `astrix`, written over it now.
    fs::remove_file(&installed).unwrap();
    let stranger = repo.program("stranger/astrix", STRANGERS[0]);
    fs::rename(&stranger, &installed).unwrap();
    let output = isolated(&repo.hook("pre-commit").display().to_string(), &repo.root)
        .env("PATH", repo.path_with(None))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!("error: `{}` is not astrix", installed.display())),
        "{}",
        stderr(&output)
    );
    let output = repo.commit(&[], &repo.path_with(None));
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let output = repo.commit(&["--no-verify"], &repo.path_with(None));
    assert!(!output.status.success(), "{}", stderr(&output));
    assert_eq!(repo.head(), after);
}

/// The normal path costs no extra process: the installed binary, older than the hooks, is
/// run without `--version`. An upgraded one (newer than the hooks) is checked and taken.
#[test]
fn the_installed_binary_runs_unchecked_until_it_changes() {
    let repo = Repo::new();
    // A logging astrix: the real one behind a script that notes each call.
    let log = repo.temp().join("log");
    let wrapper = repo.temp().join("bin/astrix");
    fs::create_dir_all(wrapper.parent().unwrap()).unwrap();
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho \"astrix $*\" >> '{}'\nexec '{ASTRIX}' \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
    age(&wrapper, Duration::from_secs(3600));
    repo.record_binary(&wrapper);
    let output = repo.commit(&[], &repo.path_with(None));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let calls = repo.log();
    assert!(calls.contains("astrix hook pre-commit\n"), "{calls}");
    assert!(!calls.contains("--version"), "{calls}");

    // An upgrade: the binary is newer than the hooks now, and shows it is astrix.
    fs::remove_file(&log).unwrap();
    set_modified(&wrapper, SystemTime::now() + Duration::from_secs(60));
    let output = repo.commit(&[], &repo.path_with(None));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let calls = repo.log();
    assert!(
        calls.starts_with("astrix --version\nastrix hook pre-commit\n"),
        "{calls}"
    );
}
