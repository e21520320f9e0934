//! `[tests] collect`: asking the test runner which tests it collects (`astrix ci`).
//!
//! Each command runs in a copy of the merge base's files and then, in the same directory,
//! of the head's; a line it printed on the base and does not print on the head is a test
//! the change removed, whatever the syntax of the change says. The head's own runner
//! configuration runs here: a job that runs `astrix ci` with `[tests] collect` set runs code
//! the change wrote, so it holds no secrets.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context as _, bail};

use crate::commit_actor::short;
use crate::env::{ASTRIX_CHECKOUT, EnvSnapshot};
use crate::git::Repository;
use crate::tamper::Uncollected;

/// The most characters of a failed command's output a report quotes.
const OUTPUT_QUOTED: usize = 2_000;

/// What each of `commands` listed on `base` and no longer lists on `head`; only the
/// commands that lost a test.
pub fn uncollected(
    env: &EnvSnapshot,
    repo: &Repository,
    commands: &[String],
    base: &str,
    head: &str,
) -> anyhow::Result<Vec<Uncollected>> {
    if commands.is_empty() {
        return Ok(Vec::new());
    }
    let scratch = Scratch::new(&env.temp_dir())?;
    // The copy is a directory of a name no commit can know, inside one only this user may
    // enter: a link that leaves the copy and comes back by name finds nothing, and no one
    // else can swap the copy for a link between the sides.
    let checkout = scratch.path.join(unguessable("copy"));
    let before = listed(repo, commands, base, &checkout, "base")?;
    if let Some((command, _)) = commands
        .iter()
        .zip(&before)
        .find(|(_, tests)| tests.is_empty())
    {
        bail!(
            "the `[tests] collect` command `{command}` listed no test on the base `{}`; a command that lists nothing cannot show a test removed (a pipeline hides its first command's failure: run it in a checkout of that commit to see why), so fix the command or remove it",
            short(base)
        );
    }
    let after = listed(repo, commands, head, &checkout, "head")?;
    Ok(commands
        .iter()
        .zip(before.into_iter().zip(after))
        .filter_map(|(command, (before, after))| {
            let tests: Vec<String> = before.difference(&after).cloned().collect();
            (!tests.is_empty()).then(|| Uncollected {
                command: command.clone(),
                tests,
            })
        })
        .collect())
}

/// The lines each command prints in a fresh copy of `rev`'s files at `checkout`.
fn listed(
    repo: &Repository,
    commands: &[String],
    rev: &str,
    checkout: &Path,
    side: &str,
) -> anyhow::Result<Vec<BTreeSet<String>>> {
    // `remove_dir_all` removes a link in place of the copy, not what it leads to; and
    // `create_dir` fails on anything left in its place.
    if std::fs::symlink_metadata(checkout).is_ok() {
        std::fs::remove_dir_all(checkout).with_context(|| {
            format!(
                "cannot empty `{}` for the {side}'s files; a command of the base may have left files it cannot remove (read-only directories): remove them",
                checkout.display()
            )
        })?;
    }
    std::fs::create_dir(checkout).with_context(|| {
        format!(
            "cannot create `{}` for the {side}'s files; check that the temporary directory is writable",
            checkout.display()
        )
    })?;
    repo.export_commit(rev, checkout)
        .with_context(|| format!("cannot copy the files of the {side} `{}`", short(rev)))?;
    let prefixes = prefixes(checkout);
    commands
        .iter()
        .map(|command| {
            let output = run(command, checkout, repo.work_dir().unwrap_or(repo.git_dir()))?;
            if !output.status.success() {
                let said = tail(&output.stderr, &output.stdout);
                bail!(
                    "the `[tests] collect` command `{command}` failed on the {side} `{}` ({}); it must list the tests on both sides: run it in a checkout of that commit to see why, or fix the command{}",
                    short(rev),
                    output.status,
                    if said.is_empty() {
                        " (it printed nothing)".to_owned()
                    } else {
                        format!(". It printed (the end):\n{said}")
                    }
                );
            }
            Ok(String::from_utf8_lossy(&output.stdout)
                .lines()
                .map(|line| relative(line.trim(), &prefixes))
                .filter(|line| !line.is_empty())
                .collect())
        })
        .collect()
}

/// The most a command may print: a list of tests, however large the suite, is far less.
const OUTPUT_LIMIT: u64 = 64 << 20;

/// What `command` printed in `dir`, read up to [`OUTPUT_LIMIT`].
fn run(command: &str, dir: &Path, checkout: &Path) -> anyhow::Result<std::process::Output> {
    use std::io::Read as _;
    let start = || {
        format!(
            "cannot start `sh` to run the `[tests] collect` command `{command}`; check that `sh` is on PATH"
        )
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env(ASTRIX_CHECKOUT, checkout)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(start)?;
    // Errors on a thread of their own, so that neither pipe fills while the other is read.
    let errors = child.stderr.take().map(|stderr| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.take(OUTPUT_LIMIT).read_to_end(&mut text);
            text
        })
    });
    let mut stdout = Vec::new();
    if let Some(out) = child.stdout.take() {
        out.take(OUTPUT_LIMIT + 1)
            .read_to_end(&mut stdout)
            .with_context(|| format!("cannot read what `{command}` printed"))?;
    }
    if u64::try_from(stdout.len()).unwrap_or(u64::MAX) > OUTPUT_LIMIT {
        let _ = child.kill();
        let _ = child.wait();
        bail!(
            "the `[tests] collect` command `{command}` printed more than {} MiB; it must print the tests, one per line, and nothing else",
            OUTPUT_LIMIT >> 20
        );
    }
    let status = child
        .wait()
        .with_context(|| format!("cannot wait for `{command}` to finish"))?;
    let stderr = errors
        .and_then(|thread| thread.join().ok())
        .unwrap_or_default();
    Ok(std::process::Output {
        status,
        stdout,
        stderr,
    })
}

/// `prefix-` and a name no one can guess ahead of the run.
fn unguessable(prefix: &str) -> String {
    use std::hash::{BuildHasher as _, Hasher as _};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos()),
    );
    format!("{prefix}-{:016x}", hasher.finish())
}

/// The ways `checkout` is written in a command's output, longest first: as given and as
/// the system resolves it (`/tmp` may be a link), each followed by `/`.
fn prefixes(checkout: &Path) -> Vec<String> {
    let mut prefixes = vec![format!("{}/", checkout.display())];
    if let Ok(resolved) = checkout.canonicalize() {
        prefixes.push(format!("{}/", resolved.display()));
    }
    prefixes.sort_by_key(|prefix| std::cmp::Reverse(prefix.len()));
    prefixes.dedup();
    prefixes
}

/// `line` with the checkout's directory left out wherever it appears (a runner that prints
/// absolute paths prints the same lines on both sides).
fn relative(line: &str, prefixes: &[String]) -> String {
    prefixes.iter().fold(line.to_owned(), |line, prefix| {
        line.replace(prefix.as_str(), "")
    })
}

/// The end of what a failed command wrote (its errors, else its output), each line behind
/// `| `: the change wrote the runner's configuration, so no line it makes may start a
/// GitHub Actions workflow command (`::set-env`) or pass for one of astrix's.
fn tail(stderr: &[u8], stdout: &[u8]) -> String {
    let text = if stderr.trim_ascii().is_empty() {
        stdout
    } else {
        stderr
    };
    let text = String::from_utf8_lossy(text.trim_ascii());
    let start = text
        .char_indices()
        .rev()
        .nth(OUTPUT_QUOTED - 1)
        .map_or(0, |(at, _)| at);
    text[start..]
        .lines()
        .map(|line| format!("  | {}", crate::report::one_line(line)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A directory of astrix's own under the temporary directory, removed when dropped.
struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// A new directory under `base` that only this user may enter.
    fn new(base: &Path) -> anyhow::Result<Self> {
        for _ in 0..100u32 {
            let path = base.join(unguessable(&format!(
                "astrix-collect-{}",
                std::process::id()
            )));
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            match builder.create(&path) {
                Ok(()) => return Ok(Self { path }),
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(err) => {
                    return Err(err).with_context(|| {
                        format!(
                            "cannot create a directory in `{}` for `[tests] collect`; set `TMPDIR` to a writable directory",
                            base.display()
                        )
                    });
                }
            }
        }
        bail!(
            "cannot find a free name for a directory in `{}` for `[tests] collect`; remove old `astrix-collect-*` directories there",
            base.display()
        )
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_read_relative_to_the_checkout() {
        let prefixes = vec!["/tmp/a/checkout/".to_owned()];
        assert_eq!(
            relative("/tmp/a/checkout/web/sum.test.js", &prefixes),
            "web/sum.test.js"
        );
        assert_eq!(
            relative("tests/test_a.py::test_x", &prefixes),
            "tests/test_a.py::test_x"
        );
    }

    #[test]
    fn a_failure_quotes_the_end_of_its_errors() {
        assert_eq!(tail(b"  boom\n", b"out"), "  | boom");
        assert_eq!(tail(b"\n", b"out\n"), "  | out");
        assert_eq!(
            tail(b"::set-env name=X::1\nok\x1b[2J", b""),
            "  | ::set-env name=X::1\n  | ok\\u{1b}[2J"
        );
        let long = "é".repeat(OUTPUT_QUOTED + 10);
        assert_eq!(
            tail(long.as_bytes(), b"").chars().count(),
            OUTPUT_QUOTED + 4
        );
    }
}
