//! Shared helpers: running the built binary in isolation and snapshotting its output.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The built astrix binary.
pub const ASTRIX: &str = env!("CARGO_BIN_EXE_astrix");

/// A temporary directory to run astrix in, outside any repository.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Self {
            dir: tempfile::Builder::new()
                .prefix("astrix-test")
                .tempdir()
                .expect("create a temporary directory"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `contents` to `relative`, creating parent directories.
    pub fn write(&self, relative: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.path().join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent directories");
        }
        std::fs::write(&path, contents).expect("write a file");
        path
    }

    /// `astrix` with an isolated environment, run in the sandbox.
    pub fn astrix(&self) -> Command {
        isolated(ASTRIX, self.path())
    }

    /// `git` with an isolated environment, run in the sandbox.
    pub fn git(&self, args: &[&str]) -> String {
        let output = isolated("git", self.path())
            .args(args)
            .output()
            .expect("run git");
        assert!(
            output.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }
}

/// A command with a clean environment: no global git config, no `GIT_*` variables, no agent
/// markers, fixed identities and dates.
pub fn isolated(program: &str, cwd: &Path) -> Command {
    let mut command = Command::new(program);
    // A fixed PATH and HOME keep the machine's settings out of the tests (and out of the
    // snapshots' metadata); global git config is off, so HOME is never read.
    command
        .env_clear()
        .current_dir(cwd)
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", "/nonexistent-astrix-test-home")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Ada Author")
        .env("GIT_AUTHOR_EMAIL", "ada@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_NAME", "Ada Author")
        .env("GIT_COMMITTER_EMAIL", "ada@example.com")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z");
    command
}

/// Runs `command` with `stdin` as its standard input and collects its output. The input is
/// written from another thread, so that a command writing much before it has read all of it
/// cannot block; a command that stops reading early is not an error here.
pub fn output_with_stdin(mut command: Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the command");
    let mut input = child.stdin.take().expect("its standard input");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("wait for the command");
    writer.join().expect("the writer thread");
    output
}

/// Escapes `text` for use as a literal in an insta filter regex.
pub fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// insta settings: snapshots in the top-level `snapshots/`, temp paths and the version
/// filtered.
pub fn settings(temp: &Path) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    // Canonical and non-canonical spellings of the temporary directory.
    if let Ok(canonical) = temp.canonicalize() {
        settings.add_filter(
            &regex_escape(&canonical.display().to_string()),
            "[TEMP_DIR]",
        );
    }
    settings.add_filter(&regex_escape(&temp.display().to_string()), "[TEMP_DIR]");
    settings.add_filter(&regex_escape(env!("CARGO_PKG_VERSION")), "[VERSION]");
    // The commit of `astrix --version`, which changes with every commit of astrix.
    settings.add_filter(
        r"\(astrix-guard (?:[0-9a-f]{7,64}|unknown)\)",
        "(astrix-guard [COMMIT])",
    );
    settings.add_filter(r"sha256:[0-9a-f]{64}", "sha256:[DIGEST]");
    settings
}

/// Snapshots a command's exit code, stdout and stderr, with temp paths filtered.
#[macro_export]
macro_rules! cmd_snapshot {
    ($temp:expr, $cmd:expr) => {
        $crate::common::settings($temp).bind(|| {
            insta_cmd::assert_cmd_snapshot!($cmd);
        })
    };
    ($temp:expr, $name:expr, $cmd:expr) => {
        $crate::common::settings($temp).bind(|| {
            insta_cmd::assert_cmd_snapshot!($name, $cmd);
        })
    };
}
