//! Names the commit astrix is built from, for `astrix --version`.
//!
//! In order: `ASTRIX_BUILD_COMMIT` when it is set (a packager that knows better); the
//! commit checked out in this crate's own git repository; the commit that `cargo package`
//! recorded in `.cargo_vcs_info.json` (a crate from crates.io, which has no `.git`);
//! otherwise `unknown`. A git repository that merely contains the crate (a vendored copy
//! inside someone else's project) is not asked: its commit is not astrix's.

#![allow(
    clippy::print_stdout,
    reason = "a build script talks to cargo on stdout"
)]
#![allow(
    clippy::disallowed_methods,
    reason = "a build script reads cargo's environment; the rule that src/env.rs alone reads \
              environment variables is about astrix itself"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=ASTRIX_BUILD_COMMIT");
    println!("cargo:rerun-if-changed=build.rs");
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let commit = std::env::var("ASTRIX_BUILD_COMMIT")
        .ok()
        .filter(|commit| valid(commit))
        .or_else(|| from_git(&manifest_dir))
        .or_else(|| from_vcs_info(&manifest_dir))
        .unwrap_or_else(|| "unknown".to_owned());
    let short: String = commit.chars().take(12).collect();
    println!("cargo:rustc-env=ASTRIX_BUILD_COMMIT={short}");
    default_policy_digest(&manifest_dir);
}

/// The digest of the built-in default policy, which every judgement without a committed
/// policy records: computed once here rather than on every commit.
fn default_policy_digest(manifest_dir: &Path) {
    use sha2::{Digest, Sha256};
    use std::fmt::Write as _;

    let path = manifest_dir.join("src/policy/default.ax");
    println!("cargo:rerun-if-changed={}", path.display());
    let text =
        std::fs::read(&path).unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    let mut digest = String::from("sha256:");
    for byte in Sha256::digest(&text) {
        let _ = write!(digest, "{byte:02x}");
    }
    println!("cargo:rustc-env=ASTRIX_DEFAULT_POLICY_DIGEST={digest}");
}

/// A commit id as printed: hexadecimal, at least 7 digits, or `unknown`.
fn valid(commit: &str) -> bool {
    commit == "unknown"
        || (commit.len() >= 7
            && commit.len() <= 64
            && commit.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    Some(String::from_utf8(output.stdout).ok()?.trim().to_owned())
}

/// The commit of the git repository whose top level is the crate's own directory.
fn from_git(manifest_dir: &Path) -> Option<String> {
    let top = git(manifest_dir, &["rev-parse", "--show-toplevel"])?;
    let same = std::fs::canonicalize(&top).ok()? == std::fs::canonicalize(manifest_dir).ok()?;
    if !same {
        return None;
    }
    let commit = git(manifest_dir, &["rev-parse", "HEAD"])?;
    if !valid(&commit) {
        return None;
    }
    // Run again when HEAD moves: the file HEAD, the branch it names, and packed refs.
    // (cargo runs a build script on every build for a path that does not exist: only the
    // ones that do are named).
    let mut watched = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    watched.extend(git(manifest_dir, &["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(manifest_dir, &["rev-parse", "--git-path", &name]) {
            let path = manifest_dir.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    Some(commit)
}

/// `"sha1": "<40 hex digits>"` in the file `cargo package` writes; read by hand, so that the
/// build script needs no JSON parser.
fn from_vcs_info(manifest_dir: &Path) -> Option<String> {
    let path = manifest_dir.join(".cargo_vcs_info.json");
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let text = std::fs::read_to_string(path).ok()?;
    let rest = &text[text.find("\"sha1\"")? + "\"sha1\"".len()..];
    let rest = rest
        .trim_start()
        .strip_prefix(':')?
        .trim_start()
        .strip_prefix('"')?;
    let commit = &rest[..rest.find('"')?];
    valid(commit).then(|| commit.to_owned())
}
