//! The git boundary against git itself: what `Repository::staged_change` and
//! `Repository::commit_change` report is compared with `git diff --cached --numstat -z` and
//! `--name-status -z` (same files, kinds, similarity and line counts) over a scenario matrix.
//!
//! git runs with the fixed settings astrix's facts use whatever the repository configures
//! ([`FIXED`]): renames at 50% and no copies, Myers, no attributes, no drivers.

use std::collections::BTreeSet;
use std::path::Path;

use astrix::git::{
    Change, ChangeKind, ChangeOptions, EntryMode, GitError, Head, LineCount, Repository,
};

use crate::common::output_with_stdin;
use crate::repo::TestRepo;

fn counts() -> ChangeOptions {
    ChangeOptions {
        line_counts: true,
        tamper: false,
    }
}

// ---------------------------------------------------------------------------------------
// Rendering both sides the same way

/// One line per file: `status \t old \t new \t added \t deleted` (`-` for binary).
fn render(change: &Change) -> Vec<String> {
    let mut lines: Vec<String> = change
        .files
        .iter()
        .map(|file| {
            let status = match &file.kind {
                ChangeKind::Renamed { similarity, .. } => format!("R{similarity:03}"),
                other => other.letter().to_string(),
            };
            let old = match &file.kind {
                ChangeKind::Renamed { from, .. } => from.clone(),
                _ => String::new(),
            };
            let lines = match file.lines.expect("line counts were asked for") {
                LineCount::Text { added, deleted, .. } => format!("{added}\t{deleted}"),
                LineCount::Binary { .. } => "-\t-".to_owned(),
            };
            format!("{status}\t{old}\t{}\t{lines}", file.path)
        })
        .collect();
    lines.sort();
    lines
}

fn split_z(bytes: &[u8]) -> Vec<String> {
    let mut fields: Vec<String> = bytes
        .split(|byte| *byte == 0)
        .map(|field| String::from_utf8_lossy(field).into_owned())
        .collect();
    if fields.last().is_some_and(String::is_empty) {
        fields.pop();
    }
    fields
}

/// Parses `--name-status -z`: `STATUS\0path\0` or `R100\0old\0new\0`.
fn parse_name_status(bytes: &[u8]) -> Vec<(String, String, String)> {
    let fields = split_z(bytes);
    let mut out = Vec::new();
    let mut iter = fields.into_iter();
    while let Some(status) = iter.next() {
        if status.starts_with('R') || status.starts_with('C') {
            let old = iter.next().expect("old path");
            let new = iter.next().expect("new path");
            out.push((status, old, new));
        } else {
            let path = iter.next().expect("path");
            out.push((status, String::new(), path));
        }
    }
    out
}

/// Parses `--numstat -z`: `added\tdeleted\tpath\0` or `added\tdeleted\t\0old\0new\0`.
fn parse_numstat(bytes: &[u8]) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let tab = rest.iter().position(|b| *b == b'\t').expect("added");
        let added = String::from_utf8_lossy(&rest[..tab]).into_owned();
        rest = &rest[tab + 1..];
        let tab = rest.iter().position(|b| *b == b'\t').expect("deleted");
        let deleted = String::from_utf8_lossy(&rest[..tab]).into_owned();
        rest = &rest[tab + 1..];
        let take = |rest: &mut &[u8]| {
            let nul = rest.iter().position(|b| *b == 0).expect("NUL");
            let field = String::from_utf8_lossy(&rest[..nul]).into_owned();
            *rest = &rest[nul + 1..];
            field
        };
        let path = if rest.first() == Some(&0) {
            rest = &rest[1..];
            let _old = take(&mut rest);
            take(&mut rest)
        } else {
            take(&mut rest)
        };
        out.push((added, deleted, path));
    }
    out
}

/// git's options for the settings astrix's facts use, whatever the repository, the user or
/// `git -c` configure: no attributes (`--attr-source` of the empty tree, no
/// `core.attributesFile`), git's default Myers, renames at git's defaults and no copies, no
/// external diff or textconv, and git's default `core.bigFileThreshold`.
const FIXED: &[&str] = &[
    "-c",
    "core.attributesFile=/dev/null",
    "-c",
    "diff.algorithm=myers",
    "-c",
    "diff.renames=true",
    "-c",
    "diff.renameLimit=1000",
    "-c",
    "core.bigFileThreshold=512m",
    "--attr-source=4b825dc642cb6eb9a060e54bf8d69288fbee4904",
];

/// What git reports for `git diff <args>` with the [`FIXED`] settings, rendered like
/// [`render`].
fn git_view(repo: &TestRepo, dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Vec<String> {
    let with = |extra: &str| {
        let mut all: Vec<&str> = FIXED.to_vec();
        all.extend_from_slice(args);
        all.extend_from_slice(&["--no-ext-diff", "--no-textconv"]);
        all.push(extra);
        all.push("-z");
        repo.git_output_in(dir, env, &all)
    };
    let names = with("--name-status");
    assert!(names.status.success(), "{names:?}");
    let stats = with("--numstat");
    assert!(stats.status.success(), "{stats:?}");
    let names = parse_name_status(&names.stdout);
    let stats = parse_numstat(&stats.stdout);
    assert_eq!(names.len(), stats.len(), "git's two outputs disagree");
    let mut lines: Vec<String> = names
        .into_iter()
        .zip(stats)
        .map(|((status, old, new), (added, deleted, path))| {
            assert_eq!(new, path, "git's outputs are in the same order");
            format!("{status}\t{old}\t{new}\t{added}\t{deleted}")
        })
        .collect();
    lines.sort();
    lines
}

/// `n` lines, each `line(i)` and a newline.
fn lines_of(n: usize, line: impl Fn(usize) -> String) -> String {
    let mut out = String::new();
    for i in 0..n {
        out.push_str(&line(i));
        out.push('\n');
    }
    out
}

fn staged(repo: &TestRepo) -> Change {
    Repository::open(repo.path(), &repo.env_snapshot())
        .expect("open")
        .staged_change(&counts())
        .expect("staged change")
}

/// `staged_change` from `dir` with `env` equals `git diff --cached` there.
fn assert_staged_matches_git_in(repo: &TestRepo, dir: &Path, env: &[(&str, &str)]) -> Vec<String> {
    let snapshot = repo.env_snapshot_with(env);
    let ours = Repository::open(dir, &snapshot)
        .expect("open")
        .staged_change(&counts())
        .expect("staged change");
    let ours = render(&ours);
    let theirs = git_view(repo, dir, env, &["diff", "--cached"]);
    assert_eq!(ours, theirs, "astrix (left) and git diff --cached (right)");
    ours
}

fn assert_staged_matches_git(repo: &TestRepo) -> Vec<String> {
    assert_staged_matches_git_in(repo, repo.path(), &[])
}

// ---------------------------------------------------------------------------------------
// The scenario matrix

#[test]
fn first_commit_on_an_unborn_head() {
    let repo = TestRepo::new();
    repo.write("README.md", "hello\nworld\n");
    repo.write("src/lib.rs", "fn main() {}\n");
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(
        view,
        ["A\t\tREADME.md\t2\t0", "A\t\tsrc/lib.rs\t1\t0"],
        "both files are added"
    );
    assert!(staged(&repo).parents.is_empty());
}

#[test]
fn nothing_staged_is_an_empty_change() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("one");
    let change = staged(&repo);
    assert!(change.files.is_empty());
    assert_eq!(change.parents, [repo.rev_parse("HEAD")]);
}

#[test]
fn add_modify_delete() {
    let repo = TestRepo::new();
    repo.write("keep.txt", "1\n2\n3\n");
    repo.write("gone.txt", "bye\n");
    repo.commit_all("base");
    repo.write("keep.txt", "1\nTWO\n3\n4\n");
    repo.remove("gone.txt");
    repo.write("new.txt", "fresh\n");
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view.len(), 3);
}

#[test]
fn exact_rename_counts_no_lines() {
    let repo = TestRepo::new();
    repo.write("old/name.txt", "line\n".repeat(20));
    repo.commit_all("base");
    repo.mv("old/name.txt", "new/place.txt");
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view, ["R100\told/name.txt\tnew/place.txt\t0\t0"]);
    let change = staged(&repo);
    assert_eq!(change.modified_paths(), ["new/place.txt", "old/name.txt"]);
}

#[test]
fn rename_with_an_edit() {
    let repo = TestRepo::new();
    let text = lines_of(40, |i| format!("line {i}"));
    repo.write("a.txt", &text);
    repo.commit_all("base");
    repo.remove("a.txt");
    repo.write(
        "b.txt",
        text.replace("line 7\n", "line seven\n") + "extra\n",
    );
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert!(view[0].starts_with('R'), "{view:?}");
}

/// `diff.renames` changes what `git diff` shows people, never the facts: renames are always
/// found at 50%, copies never.
#[test]
fn renames_do_not_follow_diff_renames_config() {
    for setting in ["false", "true", "copies"] {
        let repo = TestRepo::new();
        repo.git(&["config", "diff.renames", setting]);
        let text = lines_of(30, |i| format!("row {i}"));
        repo.write("orig.txt", &text);
        repo.write("moved.txt", "to be moved\n".repeat(5));
        repo.commit_all("base");
        repo.write("orig.txt", format!("{text}one more\n"));
        repo.write("copy.txt", &text);
        repo.mv("moved.txt", "elsewhere.txt");
        repo.git(&["add", "-A"]);
        let view = assert_staged_matches_git(&repo);
        let letters: BTreeSet<char> = view.iter().filter_map(|l| l.chars().next()).collect();
        assert!(
            letters.contains(&'R') && !letters.contains(&'C'),
            "{setting}: {view:?}"
        );
        // The copy counts all its lines.
        assert!(
            view.contains(&"A\t\tcopy.txt\t30\t0".to_owned()),
            "{view:?}"
        );
    }
}

/// A deleted file whose content lands twice is one rename and one added file, also with
/// `diff.renames=copies` (a copy would count none of its lines).
#[test]
fn two_copies_of_a_deleted_file_are_a_rename_and_an_addition() {
    let repo = TestRepo::new();
    repo.git(&["config", "diff.renames", "copies"]);
    repo.write("src.txt", "shared content\n".repeat(10));
    repo.commit_all("base");
    repo.remove("src.txt");
    repo.write("a.txt", "shared content\n".repeat(10));
    repo.write("b.txt", "shared content\n".repeat(10));
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(
        view,
        ["A\t\tb.txt\t10\t0", "R100\tsrc.txt\ta.txt\t0\t0"],
        "{view:?}"
    );
}

#[test]
fn mode_only_change() {
    let repo = TestRepo::new();
    repo.write("run.sh", "#!/bin/sh\necho hi\n");
    repo.commit_all("base");
    repo.set_executable("run.sh", true);
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view, ["M\t\trun.sh\t0\t0"]);
    let change = staged(&repo);
    assert!(change.files[0].is_mode_only());
    assert_eq!(
        change.files[0].new.as_ref().map(|e| e.mode),
        Some(EntryMode::Executable)
    );
}

#[test]
fn symlink_added_and_retargeted() {
    let repo = TestRepo::new();
    repo.write("target-a", "a\n");
    repo.symlink("link", "target-a");
    repo.commit_all("base");
    repo.symlink("link", "target-b");
    repo.symlink("other-link", "somewhere/else");
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view.len(), 2);
    let change = staged(&repo);
    assert!(
        change
            .files
            .iter()
            .all(|f| f.new.as_ref().is_some_and(|e| e.mode == EntryMode::Symlink))
    );
}

#[test]
fn type_changes_between_file_and_symlink() {
    let repo = TestRepo::new();
    repo.write("was-file", "content\nmore\n");
    repo.symlink("was-link", "target");
    repo.commit_all("base");
    repo.symlink("was-file", "target");
    repo.remove("was-link");
    repo.write("was-link", "now a file\n");
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert!(view.iter().all(|line| line.starts_with('T')), "{view:?}");
}

fn add_submodule_commit(repo: &TestRepo, path: &str, commit: &str) {
    repo.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{commit},{path}"),
    ]);
}

#[test]
fn submodule_pointer_change() {
    let repo = TestRepo::new();
    let first = "1111111111111111111111111111111111111111";
    let second = "2222222222222222222222222222222222222222";
    repo.write("file.txt", "x\n");
    repo.git(&["add", "-A"]);
    add_submodule_commit(&repo, "vendor/lib", first);
    repo.git(&["commit", "-q", "-m", "base"]);
    add_submodule_commit(&repo, "vendor/lib", second);
    add_submodule_commit(&repo, "vendor/new", first);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(
        view,
        ["A\t\tvendor/new\t1\t0", "M\t\tvendor/lib\t1\t1"],
        "git counts a pointer change as 1 1"
    );
}

#[test]
fn submodule_added_with_git_submodule_add() {
    let repo = TestRepo::new();
    let sub = TestRepo::new();
    sub.write("lib.txt", "library\n");
    sub.commit_all("lib");
    repo.write("main.txt", "main\n");
    repo.commit_all("base");
    let url = sub.path().to_str().expect("utf-8 temp path");
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        url,
        "deps/lib",
    ]);
    let view = assert_staged_matches_git(&repo);
    assert!(view.iter().any(|l| l.contains("deps/lib")), "{view:?}");
    assert!(view.iter().any(|l| l.contains(".gitmodules")), "{view:?}");
}

/// Binary is a NUL in the first 8,000 bytes, and nothing else: `binary`, `-diff` and `diff`
/// attributes change nothing.
#[test]
fn binary_by_nul_only_never_by_attributes() {
    let repo = TestRepo::new();
    repo.write(
        ".gitattributes",
        "*.bin binary\n*.nodiff -diff\n*.forced diff\n",
    );
    repo.write("blob.dat", b"abc\0def\n".as_slice());
    repo.write("text.bin", "looks like text\n");
    repo.write("text.nodiff", "also text\n");
    repo.write("nul.forced", b"has\0nul\nbut forced text\n".as_slice());
    repo.commit_all("base");
    repo.write("blob.dat", b"abc\0xyz\n".as_slice());
    repo.write("text.bin", "looks like text\nchanged\n");
    repo.write("text.nodiff", "also text\nchanged\n");
    repo.write("nul.forced", b"has\0nul\nchanged\n".as_slice());
    repo.write(
        "late-nul.txt",
        [vec![b'a'; 9000], vec![0u8], b"\n".to_vec()].concat(),
    );
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    let binary: Vec<&String> = view.iter().filter(|l| l.ends_with("-\t-")).collect();
    assert_eq!(binary.len(), 2, "{view:?}");
    assert!(view.contains(&"M\t\ttext.bin\t1\t0".to_owned()), "{view:?}");
    assert!(
        view.contains(&"M\t\tnul.forced\t-\t-".to_owned()),
        "{view:?}"
    );
    let totals = staged(&repo).totals().expect("totals");
    assert_eq!(totals.binary_files, 2);
    // The new content of the binary files, and the added text lines.
    // The new content of the binary files (8 and 16 bytes), and the added text lines.
    assert_eq!(totals.bytes_added, 8 + 16 + 8 + 8 + 9002);
}

/// A change of more than 256 pairs is counted on two threads, the second reading blobs
/// through its own handle on the object database: every kind of pair (text, binary by
/// content, files that attributes and a driver's setting would make binary or text, links,
/// submodules, renames, type changes, additions, deletions) counts as git counts it with the
/// fixed settings, with the blobs loose and packed.
#[test]
fn a_large_change_counts_as_git_does_on_two_threads() {
    let repo = TestRepo::new();
    repo.git(&["config", "diff.nontext.binary", "true"]);
    repo.write(
        ".gitattributes",
        "*.bin binary\n*.nodiff -diff\n*.forced diff\n*.drv diff=nontext\n",
    );
    let base = |n: usize| lines_of(12 + n % 7, |i| format!("file {n} line {i}"));
    for n in 0..400 {
        let path = match n % 10 {
            0 => format!("d{}/blob{n}.dat", n % 4),
            1 => format!("d{}/text{n}.bin", n % 4),
            2 => format!("d{}/text{n}.nodiff", n % 4),
            3 => format!("d{}/nul{n}.forced", n % 4),
            4 => format!("d{}/driven{n}.drv", n % 4),
            _ => format!("d{}/plain{n}.txt", n % 4),
        };
        let mut content = base(n).into_bytes();
        if n % 10 == 0 || n % 10 == 3 {
            content.extend_from_slice(b"nul\0here\n");
        }
        repo.write(&path, content);
    }
    for n in 0..20 {
        repo.symlink(format!("links/l{n}"), &format!("target-{n}"));
    }
    repo.commit_all("base");
    let head = repo.rev_parse("HEAD");
    for n in 0..10 {
        add_submodule_commit(&repo, &format!("vendor/m{n}"), &head);
    }
    repo.commit_all("submodules");

    for entry in walk(repo.path()) {
        let n: usize = entry
            .file_name()
            .and_then(|name| name.to_str())
            .and_then(|name| {
                name.trim_start_matches(char::is_alphabetic)
                    .split('.')
                    .next()
            })
            .and_then(|digits| digits.parse().ok())
            .unwrap_or(0);
        let path = entry.strip_prefix(repo.path()).unwrap().to_owned();
        match n % 13 {
            0 => repo.remove(&path),
            1 if path.starts_with("links") => repo.symlink(&path, "elsewhere"),
            2 => {
                let mut moved = path.clone().into_os_string();
                moved.push(".moved");
                repo.mv(path.to_str().unwrap(), moved.to_str().unwrap());
            }
            _ if path.starts_with("links") => {}
            _ => {
                let mut content = std::fs::read(&entry).unwrap();
                content.extend_from_slice(format!("added {n}\n").as_bytes());
                if n.is_multiple_of(3) {
                    content.drain(..content.len().min(9));
                }
                repo.write(&path, content);
            }
        }
    }
    for n in 0..30 {
        repo.write(
            format!("new/n{n}.txt"),
            lines_of(n + 1, |i| format!("new {i}")),
        );
    }
    repo.remove("links/l3");
    repo.write("links/l3", "now a file\n");
    add_submodule_commit(&repo, "vendor/m4", &repo.rev_parse("HEAD~1"));
    repo.git(&["add", "-A"]);

    let view = assert_staged_matches_git(&repo);
    assert!(view.len() > 300, "{}", view.len());
    for kind in ["R", "A\t", "D\t", "M\t", "T\t"] {
        assert!(
            view.iter().any(|line| line.starts_with(kind)),
            "{kind}: {view:?}"
        );
    }
    // Binary by a NUL only: what attributes or a driver would call binary is text.
    let binary: Vec<&String> = view.iter().filter(|line| line.ends_with("-\t-")).collect();
    assert!(binary.len() > 50, "{}", binary.len());
    assert!(
        binary
            .iter()
            .all(|line| line.contains(".dat") || line.contains(".forced")),
        "{binary:?}"
    );
    // The same with every blob packed, the staged ones too.
    pack_everything(&repo);
    assert!(repo.git(&["count-objects", "-v"]).starts_with("count: 0\n"));
    assert_eq!(assert_staged_matches_git(&repo), view);
}

/// Packs every object, the blobs only the index holds too (`git repack` leaves those loose).
fn pack_everything(repo: &TestRepo) {
    repo.git(&["repack", "-a", "-d", "-q"]);
    let mut staged = String::new();
    for line in repo.git(&["ls-files", "-s"]).lines() {
        if let Some(id) = line.split_whitespace().nth(1) {
            staged.push_str(id);
            staged.push('\n');
        }
    }
    let mut command = repo.command("git");
    command.args(["pack-objects", "-q", ".git/objects/pack/pack"]);
    assert!(
        output_with_stdin(command, staged.as_bytes())
            .status
            .success()
    );
    repo.git(&["prune-packed"]);
}

/// The files under `dir`, but for dot files (`.git`, `.gitattributes`), sorted.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            if kind.is_dir() {
                pending.push(entry.path());
            } else {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    files
}

#[test]
fn binary_pure_rename_is_binary_like_git() {
    let repo = TestRepo::new();
    repo.write("img.png", b"\x89PNG\0\0\0data".as_slice());
    repo.commit_all("base");
    repo.mv("img.png", "assets/img.png");
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view, ["R100\timg.png\tassets/img.png\t-\t-"]);
}

#[test]
fn odd_file_names() {
    let repo = TestRepo::new();
    repo.write("plain.txt", "x\n");
    repo.commit_all("base");
    for name in [
        "with space.txt",
        "with\ttab.txt",
        "with\nnewline.txt",
        "ünïcödé.txt",
        "-leading-dash.txt",
        "quote\"d.txt",
        "dir with space/inner.txt",
    ] {
        repo.write(name, format!("{name}\n"));
    }
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view.len(), 7);
}

#[test]
fn non_utf8_names_are_lossy() {
    use std::os::unix::ffi::OsStrExt;
    let repo = TestRepo::new();
    let name = std::ffi::OsStr::from_bytes(b"bad-\xff-name.txt");
    repo.write(name, "x\n");
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view, ["A\t\tbad-\u{fffd}-name.txt\t1\t0"]);
}

#[test]
fn intent_to_add_entries_are_ignored() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("base");
    repo.write("later.txt", "not yet\n");
    repo.git(&["add", "-N", "later.txt"]);
    repo.write("a.txt", "a\nb\n");
    repo.git(&["add", "a.txt"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view, ["M\t\ta.txt\t1\t0"]);
    let id = Repository::open(repo.path(), &repo.env_snapshot())
        .unwrap()
        .staged_tree_id()
        .unwrap();
    assert_eq!(id, repo.git(&["write-tree"]).trim());
}

#[test]
fn deep_directories() {
    let repo = TestRepo::new();
    let deep = (0..30)
        .map(|i| format!("d{i}"))
        .collect::<Vec<_>>()
        .join("/");
    repo.write(format!("{deep}/leaf.txt"), "leaf\n");
    repo.write("top.txt", "top\n");
    repo.commit_all("base");
    repo.write(format!("{deep}/leaf.txt"), "leaf\nchanged\n");
    repo.write(format!("{deep}/sibling.txt"), "new\n");
    repo.git(&["add", "-A"]);
    assert_staged_matches_git(&repo);
}

#[test]
fn line_ending_edge_cases() {
    let repo = TestRepo::new();
    repo.write("no-newline.txt", "a\nb");
    repo.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
    repo.write("empty.txt", "");
    repo.write("to-empty.txt", "content\n");
    repo.commit_all("base");
    repo.write("no-newline.txt", "a\nb\n");
    repo.write("crlf.txt", "one\r\ntwo\nthree\r\nfour\r\n");
    repo.write("empty.txt", "now\nfilled\n");
    repo.write("to-empty.txt", "");
    repo.write("new-empty.txt", "");
    repo.git(&["add", "-A"]);
    assert_staged_matches_git(&repo);
}

#[test]
fn structural_edge_cases() {
    let repo = TestRepo::new();
    repo.write("empty-a", "");
    repo.write("file-then-dir", "was a file\n");
    repo.write("dir-then-file/inner.txt", "was in a dir\n");
    repo.symlink("link-to-move", "target");
    repo.git(&["add", "-A"]);
    add_submodule_commit(
        &repo,
        "sub-to-move",
        "1111111111111111111111111111111111111111",
    );
    repo.git(&["commit", "-q", "-m", "base"]);
    repo.remove("empty-a");
    repo.write("empty-b", "");
    repo.remove("file-then-dir");
    repo.write("file-then-dir/now.txt", "now a directory\n");
    repo.remove("dir-then-file");
    repo.write("dir-then-file", "now a file\n");
    repo.remove("link-to-move");
    repo.symlink("moved-link", "target");
    repo.git(&["add", "-A"]);
    add_submodule_commit(
        &repo,
        "moved-sub",
        "1111111111111111111111111111111111111111",
    );
    let view = assert_staged_matches_git(&repo);
    assert!(
        view.contains(&"R100\tempty-a\tempty-b\t0\t0".to_owned()),
        "{view:?}"
    );
    repo.git(&["commit", "-q", "-m", "restructure"]);
    assert_commit_matches_git(&repo, "HEAD");
}

/// A deterministic generator, so that the scenarios are reproducible without a crate.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> usize {
        usize::try_from(self.next() % n).expect("small")
    }
}

#[test]
fn large_file_with_scattered_edits() {
    let repo = TestRepo::new();
    let mut rng = Lcg(7);
    // Repetitive code-like lines (braces, blank lines) to exercise git's heuristics.
    let vocabulary = [
        "}",
        "",
        "    return x;",
        "{",
        "    let y = 1;",
        "// comment",
    ];
    let mut lines: Vec<String> = (0..5000)
        .map(|i| {
            if i % 3 == 0 {
                format!("fn item_{i}() -> u32 {{")
            } else {
                vocabulary[rng.below(vocabulary.len() as u64)].to_owned()
            }
        })
        .collect();
    repo.write("big.rs", lines.join("\n") + "\n");
    repo.commit_all("base");
    for _ in 0..120 {
        let at = rng.below(lines.len() as u64);
        match rng.below(3) {
            0 => lines[at] = format!("changed {}", rng.next()),
            1 => {
                lines.remove(at);
            }
            _ => lines.insert(
                at,
                vocabulary[rng.below(vocabulary.len() as u64)].to_owned(),
            ),
        }
    }
    repo.write("big.rs", lines.join("\n") + "\n");
    repo.git(&["add", "-A"]);
    assert_staged_matches_git(&repo);
}

/// `diff.algorithm` changes the diffs people see, never the counts: they are git's Myers.
#[test]
fn diff_algorithm_config_is_ignored() {
    for algorithm in ["patience", "minimal", "histogram"] {
        let repo = TestRepo::new();
        repo.git(&["config", "diff.algorithm", algorithm]);
        let base = lines_of(200, |i| (i % 7).to_string());
        repo.write("f.txt", &base);
        repo.commit_all("base");
        let edited = lines_of(200, |i| if i % 13 == 0 { 99 } else { i % 7 }.to_string());
        repo.write("f.txt", edited);
        repo.git(&["add", "-A"]);
        assert_staged_matches_git(&repo);
    }
}

/// Code-like files with random edits, with each `diff.algorithm` configured: the counts are
/// always git's Myers.
#[test]
fn random_line_edits_under_each_algorithm() {
    let vocabulary = [
        "}",
        "",
        "{",
        "    return x;",
        "    let y = 1;",
        "// comment",
        "    if a {",
        "    }",
    ];
    for algorithm in ["myers", "minimal", "patience", "histogram"] {
        for seed in 1..=6u64 {
            let repo = TestRepo::new();
            repo.git(&["config", "diff.algorithm", algorithm]);
            let mut rng = Lcg(seed * 31 + 5);
            let mut lines: Vec<String> = (0..400)
                .map(|i| {
                    if rng.below(4) == 0 {
                        format!("fn f{i}() {{")
                    } else {
                        vocabulary[rng.below(vocabulary.len() as u64)].to_owned()
                    }
                })
                .collect();
            repo.write("code.rs", lines.join("\n") + "\n");
            repo.commit_all("base");
            for _ in 0..(5 + rng.below(40)) {
                let at = rng.below(lines.len() as u64);
                match rng.below(4) {
                    0 => lines[at] = format!("changed {}", rng.next()),
                    1 => {
                        lines.remove(at);
                    }
                    2 => {
                        let block: Vec<String> = lines[at..(at + 5).min(lines.len())].to_vec();
                        let to = rng.below(lines.len() as u64);
                        for (offset, line) in block.into_iter().enumerate() {
                            lines.insert(to + offset, line);
                        }
                    }
                    _ => lines.insert(
                        at,
                        vocabulary[rng.below(vocabulary.len() as u64)].to_owned(),
                    ),
                }
            }
            repo.write("code.rs", lines.join("\n") + "\n");
            repo.git(&["add", "-A"]);
            assert_staged_matches_git(&repo);
        }
    }
}

/// Random edits over many similar files: renames, copies, edits, deletions, additions, with
/// `diff.renames` set to `true` or `copies` (which changes nothing: this is what exercises
/// the similarity matrix).
#[test]
fn random_renames_and_edits_match_git() {
    for seed in 1..=12u64 {
        for mode in ["true", "copies"] {
            let repo = TestRepo::new();
            repo.git(&["config", "diff.renames", mode]);
            let mut rng = Lcg(seed);
            let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"];
            let mut files: Vec<(String, Vec<String>)> = (0..12)
                .map(|i| {
                    let len = 5 + rng.below(40);
                    let body = (0..len)
                        .map(|_| {
                            format!("{} {}", words[rng.below(words.len() as u64)], rng.below(4))
                        })
                        .collect();
                    (format!("dir{}/file{i}.txt", rng.below(3)), body)
                })
                .collect();
            for (path, body) in &files {
                repo.write(path, body.join("\n") + "\n");
            }
            repo.commit_all("base");
            for (index, (path, body)) in files.iter_mut().enumerate() {
                match rng.below(6) {
                    0 => {
                        let new_path = format!("moved{}/file{index}.txt", rng.below(2));
                        repo.mv(path.as_str(), &new_path);
                        *path = new_path;
                    }
                    1 => {
                        let new_path = format!("renamed/other{index}.txt");
                        repo.remove(path.as_str());
                        let at = rng.below(body.len() as u64);
                        body[at] = format!("edited {}", rng.next());
                        *path = new_path;
                    }
                    2 => {
                        let at = rng.below(body.len() as u64);
                        body.insert(at, "inserted".to_owned());
                    }
                    3 => {
                        repo.write(format!("copies/copy{index}.txt"), body.join("\n") + "\n");
                    }
                    4 => {
                        repo.remove(path.as_str());
                        path.clear();
                    }
                    _ => {}
                }
                if !path.is_empty() {
                    repo.write(path.as_str(), body.join("\n") + "\n");
                }
            }
            repo.git(&["add", "-A"]);
            assert_staged_matches_git(&repo);
        }
    }
}

// ---------------------------------------------------------------------------------------
// How the repository is opened

fn commit_a_style_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.write("b.txt", "b\n");
    repo.commit_all("base");
    repo.write("a.txt", "a\nchanged\n");
    repo.write("b.txt", "b\nchanged\n");
    repo.git(&["add", "b.txt"]);
    repo
}

#[test]
fn git_index_file_points_at_a_temporary_index() {
    let repo = commit_a_style_repo();
    // What `git commit -a` does: a temporary index holding everything tracked.
    let env = [("GIT_INDEX_FILE", ".git/index.astrix-test")];
    repo.git_in(repo.path(), &env, &["read-tree", "HEAD"]);
    repo.git_in(repo.path(), &env, &["add", "-u"]);
    let view = assert_staged_matches_git_in(&repo, repo.path(), &env);
    assert_eq!(view.len(), 2, "both files, not just the staged one");
    // Without the variable, only the real index's content.
    assert_eq!(assert_staged_matches_git(&repo).len(), 1);
}

/// A pre-commit hook that records what git hands hooks (working directory, `GIT_*`
/// variables, a copy of the index it points at) and refuses the commit.
const CAPTURE_HOOK: &str = r#"#!/bin/sh
pwd > "$CAPTURE/pwd"
env | grep '^GIT_' | grep -v -e '^GIT_AUTHOR' -e '^GIT_COMMITTER' > "$CAPTURE/env"
if [ -n "$GIT_INDEX_FILE" ]; then cp "$GIT_INDEX_FILE" "$CAPTURE/index"; fi
exit 1
"#;

/// Runs `git <args> -m x` (a commit) from `dir` with the capture hook, then checks that astrix, opened
/// the way the hook was run, sees what git would have committed; returns that view.
fn staged_as_a_hook_sees_it(repo: &TestRepo, dir: &Path, args: &[&str]) -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;
    let hooks = repo.path().join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let hook = hooks.join("pre-commit");
    std::fs::write(&hook, CAPTURE_HOOK).unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let capture = tempfile::tempdir().unwrap();
    let capture_dir = capture.path().to_str().unwrap().to_owned();
    let mut command = args.to_vec();
    command.extend_from_slice(&["-q", "-m", "x"]);
    let output = repo.git_output_in(dir, &[("CAPTURE", &capture_dir)], &command);
    assert!(!output.status.success(), "the hook refuses the commit");
    let cwd = std::fs::read_to_string(capture.path().join("pwd")).unwrap();
    let cwd = Path::new(cwd.trim_end());
    let mut env: Vec<(String, String)> = std::fs::read_to_string(capture.path().join("env"))
        .unwrap()
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    // The index git pointed the hook at is gone once the commit is refused: use the copy.
    if let Some(index) = env.iter_mut().find(|(name, _)| name == "GIT_INDEX_FILE") {
        capture
            .path()
            .join("index")
            .to_str()
            .unwrap()
            .clone_into(&mut index.1);
    }
    let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_staged_matches_git_in(repo, cwd, &env)
}

#[test]
fn commit_all_as_a_hook_sees_it() {
    let repo = commit_a_style_repo();
    let view = staged_as_a_hook_sees_it(&repo, repo.path(), &["commit", "-a"]);
    assert_eq!(view, ["M\t\ta.txt\t1\t0", "M\t\tb.txt\t1\t0"]);
}

#[test]
fn commit_with_paths_as_a_hook_sees_it() {
    let repo = commit_a_style_repo();
    // `git commit a.txt` commits a.txt from the work tree and leaves b.txt's staged change.
    let view = staged_as_a_hook_sees_it(&repo, repo.path(), &["commit", "a.txt"]);
    assert_eq!(view, ["M\t\ta.txt\t1\t0"]);
}

#[test]
fn commit_from_a_subdirectory_as_a_hook_sees_it() {
    let repo = commit_a_style_repo();
    repo.write("sub/c.txt", "c\n");
    repo.git(&["add", "sub/c.txt"]);
    let view = staged_as_a_hook_sees_it(&repo, &repo.path().join("sub"), &["commit"]);
    assert_eq!(view, ["A\t\tsub/c.txt\t1\t0", "M\t\tb.txt\t1\t0"]);
}

/// `git -c` values reach hooks in `GIT_CONFIG_PARAMETERS`; none changes the facts.
#[test]
fn git_dash_c_does_not_change_the_facts_a_hook_sees() {
    let repo = TestRepo::new();
    repo.write("a.txt", "moved content\n".repeat(5));
    repo.write("c.txt", "x\n");
    repo.commit_all("base");
    repo.mv("a.txt", "b.txt");
    repo.write("c.txt", "x\n".repeat(1000));
    repo.git(&["add", "c.txt"]);
    for config in [
        "diff.renames=false",
        "core.bigFileThreshold=1",
        "diff.algorithm=patience",
        "core.attributesFile=/dev/null",
    ] {
        let view = staged_as_a_hook_sees_it(&repo, repo.path(), &["-c", config, "commit"]);
        assert_eq!(
            view,
            ["M\t\tc.txt\t999\t0", "R100\ta.txt\tb.txt\t0\t0"],
            "{config}"
        );
    }
}

#[test]
fn commit_in_a_linked_worktree_as_a_hook_sees_it() {
    let repo = commit_a_style_repo();
    let worktree = repo.home().join("wt");
    repo.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "wt",
        worktree.to_str().unwrap(),
    ]);
    std::fs::write(worktree.join("a.txt"), "a\nfrom the worktree\n").unwrap();
    let view = staged_as_a_hook_sees_it(&repo, &worktree, &["commit", "-a"]);
    assert_eq!(view, ["M\t\ta.txt\t1\t0"]);
}

#[test]
fn opened_from_a_subdirectory() {
    let repo = TestRepo::new();
    repo.write("sub/dir/file.txt", "x\n");
    repo.commit_all("base");
    repo.write("sub/dir/file.txt", "x\ny\n");
    repo.write("root.txt", "root\n");
    repo.git(&["add", "-A"]);
    let dir = repo.path().join("sub/dir");
    let view = assert_staged_matches_git_in(&repo, &dir, &[]);
    assert_eq!(view.len(), 2, "paths stay repository-relative");
    let opened = Repository::open(&dir, &repo.env_snapshot()).unwrap();
    assert_eq!(opened.work_dir(), Some(repo.path()));
}

#[test]
fn a_linked_worktree() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("base");
    let worktree = repo.home().join("wt");
    repo.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "feature",
        worktree.to_str().unwrap(),
    ]);
    std::fs::write(worktree.join("a.txt"), "a\nin worktree\n").unwrap();
    repo.git_in(&worktree, &[], &["add", "a.txt"]);
    let view = assert_staged_matches_git_in(&repo, &worktree, &[]);
    assert_eq!(view, ["M\t\ta.txt\t1\t0"]);
    // The main work tree's index is untouched.
    assert!(assert_staged_matches_git(&repo).is_empty());
    let opened = Repository::open(&worktree, &repo.env_snapshot()).unwrap();
    assert_eq!(opened.common_dir(), repo.path().join(".git"));
    assert_ne!(opened.git_dir(), opened.common_dir());
    assert_eq!(opened.work_dir(), Some(worktree.as_path()));
    assert_eq!(
        opened.head().unwrap(),
        Head::Branch {
            name: "feature".to_owned(),
            commit: repo.rev_parse("HEAD")
        }
    );
}

#[test]
fn git_dir_set_without_a_work_tree() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("base");
    repo.write("a.txt", "a\nb\n");
    repo.git(&["add", "-A"]);
    let git_dir = repo.path().join(".git");
    let git_dir = git_dir.to_str().unwrap();
    // From a directory outside the work tree, as a hook run with `GIT_DIR` may be.
    let outside = repo.home();
    let env = [("GIT_DIR", git_dir)];
    let view = assert_staged_matches_git_in(&repo, outside, &env);
    assert_eq!(view, ["M\t\ta.txt\t1\t0"]);
    // git's rule: with GIT_DIR and no GIT_WORK_TREE, the current directory is the work tree.
    let opened = Repository::open(outside, &repo.env_snapshot_with(&env)).unwrap();
    assert_eq!(opened.work_dir(), Some(outside));
    // A relative GIT_DIR is relative to the current directory.
    let relative = [("GIT_DIR", ".git")];
    assert_staged_matches_git_in(&repo, repo.path(), &relative);
}

#[test]
fn a_bare_repository_has_no_work_tree() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("base");
    let bare = repo.home().join("bare.git");
    repo.git(&["clone", "-q", "--bare", ".", bare.to_str().unwrap()]);
    let opened = Repository::open(&bare, &repo.env_snapshot()).unwrap();
    assert_eq!(opened.work_dir(), None);
    let blob = opened.file_at_rev("HEAD", "a.txt").unwrap().unwrap();
    assert_eq!(blob.data, b"a\n");
}

#[test]
fn not_a_repository() {
    let repo = TestRepo::bare_dir();
    let err = Repository::open(repo.path(), &repo.env_snapshot()).unwrap_err();
    assert!(matches!(err, GitError::NotARepository { .. }), "{err}");
    assert!(err.to_string().starts_with("not a git repository"));
    let env = repo.env_snapshot_with(&[("GIT_DIR", "/nonexistent/astrix/.git")]);
    assert!(matches!(
        Repository::open(repo.path(), &env).err(),
        Some(GitError::NotARepository { .. })
    ));
}

#[test]
fn the_process_environment_does_not_leak_in() {
    // The snapshot decides: a bogus GIT_INDEX_FILE in it is used, the process's is not.
    let repo = commit_a_style_repo();
    let env = repo.env_snapshot_with(&[("GIT_INDEX_FILE", "does-not-exist")]);
    let change = Repository::open(repo.path(), &env)
        .unwrap()
        .staged_change(&counts())
        .unwrap();
    // A missing index is an empty one: everything in HEAD is deleted.
    assert_eq!(render(&change), ["D\t\ta.txt\t0\t1", "D\t\tb.txt\t0\t1"]);
}

// ---------------------------------------------------------------------------------------
// The index: cache tree, conflicts, sparse

#[test]
fn an_index_without_a_cache_tree() {
    let repo = TestRepo::new();
    for i in 0..20 {
        repo.write(format!("d{}/f{i}.txt", i % 4), format!("{i}\n"));
    }
    repo.commit_all("base");
    // `read-tree` writes an index without the cache-tree extension.
    repo.git(&["read-tree", "HEAD"]);
    repo.write("d1/f1.txt", "changed\n");
    repo.git(&["add", "d1/f1.txt"]);
    assert_staged_matches_git(&repo);
    let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert_eq!(
        opened.staged_tree_id().unwrap(),
        repo.git(&["write-tree"]).trim()
    );
}

#[test]
fn a_partially_invalidated_cache_tree() {
    let repo = TestRepo::new();
    for i in 0..20 {
        repo.write(format!("d{}/e{}/f{i}.txt", i % 4, i % 2), format!("{i}\n"));
    }
    repo.commit_all("base");
    // After a commit the cache tree is complete; staging one file invalidates its parents.
    repo.write("d2/e0/f2.txt", "changed\n");
    repo.write("d3/new.txt", "new\n");
    repo.git(&["add", "-A"]);
    assert_staged_matches_git(&repo);
    let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert_eq!(
        opened.staged_tree_id().unwrap(),
        repo.git(&["write-tree"]).trim()
    );
}

/// The cache tree is trusted only where it equals HEAD's trees: after `reset --soft` it is
/// complete but describes another commit, so the walk reads every directory that differs and
/// skips only those that are equal. Names around `/` in sort order (`a-b`, `a.txt`, `a0`)
/// and type changes between a file and a directory check the walk's order.
/// Covers issue 5.
#[test]
fn a_cache_tree_of_another_commit() {
    let repo = TestRepo::new();
    for i in 0..24 {
        repo.write(format!("d{}/e{}/f{i}.txt", i % 3, i % 2), format!("{i}\n"));
    }
    for path in [
        "a",
        "a.txt",
        "a-b/c.txt",
        "a0/x.txt",
        "b/inner.txt",
        "c/d/e.txt",
    ] {
        repo.write(path, format!("{path}\n"));
    }
    repo.commit_all("base");
    repo.write("d1/e0/f4.txt", "changed\n");
    repo.remove("d2/e1/f5.txt");
    repo.write("d0/new/g.txt", "new\n");
    repo.remove("a");
    repo.write("a/now-a-dir.txt", "a\n");
    repo.remove("b");
    repo.write("b", "now a file\n");
    repo.write("a-b/c.txt", "changed\n");
    repo.remove("c/d/e.txt");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "next"]);
    repo.git(&["reset", "-q", "--soft", "HEAD~1"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view.len(), 8, "{view:?}");
    let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert_eq!(
        opened.staged_tree_id().unwrap(),
        repo.git(&["write-tree"]).trim()
    );
}

/// Random trees with names that sort around `/`, random edits (including files that become
/// directories and back), with a complete, partial or missing cache tree, against git.
/// Covers issue 5.
#[test]
fn random_tree_shapes_match_git() {
    let names = ["a", "a.b", "a-", "a0", "ab", "b"];
    for seed in 1..=10u64 {
        let mut rng = Lcg(seed);
        let repo = TestRepo::new();
        let random_path = |rng: &mut Lcg| {
            let depth = 1 + rng.below(3);
            (0..depth)
                .map(|_| names[rng.below(names.len() as u64)])
                .collect::<Vec<_>>()
                .join("/")
        };
        // A path cannot be a file and a directory at once.
        let conflicts = |files: &BTreeSet<String>, path: &str| {
            files.iter().any(|other| {
                other == path
                    || other.starts_with(&format!("{path}/"))
                    || path.starts_with(&format!("{other}/"))
            })
        };
        let mut files = BTreeSet::new();
        while files.len() < 30 {
            let path = random_path(&mut rng);
            if !conflicts(&files, &path) {
                repo.write(&path, format!("{path} base\n"));
                files.insert(path);
            }
        }
        repo.commit_all("base");
        if seed % 3 == 0 {
            // An index without a cache tree.
            repo.git(&["read-tree", "HEAD"]);
        }
        for path in files.clone() {
            match rng.below(4) {
                0 => {
                    repo.remove(&path);
                    files.remove(&path);
                }
                1 => repo.write(&path, format!("{path} changed {}\n", rng.next())),
                _ => {}
            }
        }
        for _ in 0..10 {
            let path = random_path(&mut rng);
            if !conflicts(&files, &path) {
                if repo.path().join(&path).is_dir() {
                    // An empty directory left by a removed file.
                    repo.remove(&path);
                }
                repo.write(&path, format!("{path} added\n"));
                files.insert(path);
            }
        }
        repo.git(&["add", "-A"]);
        if seed % 3 == 1 {
            // A complete cache tree of another commit.
            repo.git(&["commit", "-q", "-m", "next"]);
            repo.git(&["reset", "-q", "--soft", "HEAD~1"]);
        }
        assert_staged_matches_git(&repo);
        let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
        assert_eq!(
            opened.staged_tree_id().unwrap(),
            repo.git(&["write-tree"]).trim(),
            "seed {seed}"
        );
    }
}

#[test]
fn index_format_variants() {
    for setup in [
        &["update-index", "--index-version", "4"][..],
        &["update-index", "--index-version", "2"][..],
        &["update-index", "--split-index"][..],
        &["config", "index.skipHash", "true"][..],
    ] {
        let repo = TestRepo::new();
        for i in 0..30 {
            repo.write(format!("dir{}/file{i}.txt", i % 3), format!("{i}\n"));
        }
        repo.commit_all("base");
        repo.git(setup);
        repo.write("dir1/file1.txt", "changed\n");
        repo.write("dir2/new.txt", "new\n");
        repo.remove("dir0/file0.txt");
        repo.git(&["add", "-A"]);
        let view = assert_staged_matches_git(&repo);
        assert_eq!(view.len(), 3, "{setup:?}");
        let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
        assert_eq!(
            opened.staged_tree_id().unwrap(),
            repo.git(&["write-tree"]).trim(),
            "{setup:?}"
        );
    }
}

#[test]
fn unmerged_entries_are_an_error() {
    let repo = conflicted_merge();
    let err = Repository::open(repo.path(), &repo.env_snapshot())
        .unwrap()
        .staged_change(&counts())
        .unwrap_err();
    assert!(
        matches!(&err, GitError::Unmerged { paths } if paths == &["conflict.txt"]),
        "{err}"
    );
    assert!(err.to_string().contains("resolve them and `git add`"));
}

#[test]
fn a_corrupt_index_is_an_error_not_a_panic() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("base");
    let index = repo.path().join(".git/index");
    let bytes = std::fs::read(&index).unwrap();
    for cut in [0, 5, 12, 40, bytes.len() - 1] {
        std::fs::write(&index, &bytes[..cut]).unwrap();
        let result = Repository::open(repo.path(), &repo.env_snapshot())
            .unwrap()
            .staged_change(&counts());
        if cut == 0 {
            // git refuses an empty index file too; either way, no panic.
            let _ = result;
        } else {
            assert!(
                matches!(result, Err(GitError::Index { .. })),
                "cut at {cut}"
            );
        }
    }
    std::fs::write(&index, b"garbage that is not an index at all").unwrap();
    assert!(matches!(
        Repository::open(repo.path(), &repo.env_snapshot())
            .unwrap()
            .staged_change(&counts()),
        Err(GitError::Index { .. })
    ));
}

#[test]
fn a_missing_object_is_an_error() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("base");
    repo.write("a.txt", "a\nb\n");
    repo.git(&["add", "a.txt"]);
    let blob = repo.git(&["rev-parse", ":a.txt"]).trim().to_owned();
    let object = repo
        .path()
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::remove_file(object).unwrap();
    let err = Repository::open(repo.path(), &repo.env_snapshot())
        .unwrap()
        .staged_change(&counts())
        .unwrap_err();
    assert!(
        matches!(&err, GitError::MissingObject { id, .. } if *id == blob),
        "{err}"
    );
    // Without line counts no blob is read.
    let change = Repository::open(repo.path(), &repo.env_snapshot())
        .unwrap()
        .staged_change(&ChangeOptions::default())
        .unwrap();
    assert_eq!(change.files.len(), 1);
}

#[test]
fn a_corrupt_tree_is_an_error_not_a_panic() {
    let repo = TestRepo::new();
    let dir = repo.path().to_owned();
    let write_literally = |kind: &str, data: &[u8]| {
        let mut command = repo.command("git");
        command
            .current_dir(&dir)
            .args(["hash-object", "-w", "--literally", "--stdin", "-t", kind]);
        let output = output_with_stdin(command, data);
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    };
    let cases: [&[u8]; 4] = [
        b"garbage",
        b"100644 name",
        b"100644 truncated\0\x01\x02",
        b"999999 bad-mode\0aaaaaaaaaaaaaaaaaaaa",
    ];
    for bad in cases {
        let bad_tree = write_literally("tree", bad);
        let listing = format!("040000 tree {bad_tree}\tsub\n");
        let mut command = repo.command("git");
        command.args(["mktree", "--missing"]);
        let root = output_with_stdin(command, listing.as_bytes());
        assert!(root.status.success(), "{root:?}");
        let root = String::from_utf8(root.stdout).unwrap().trim().to_owned();
        let commit = repo
            .git(&["commit-tree", &root, "-m", "bad"])
            .trim()
            .to_owned();
        let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
        let result = opened.commit_change(&commit, &counts());
        assert!(
            matches!(result, Err(GitError::CorruptObject { .. })),
            "{bad:?}: {result:?}"
        );
        // A blob where a tree belongs.
        let blob = write_literally("blob", b"not a tree");
        let mut tree = b"40000 sub\0".to_vec();
        tree.extend((0..20).map(|i| u8::from_str_radix(&blob[2 * i..2 * i + 2], 16).unwrap()));
        let root = write_literally("tree", &tree);
        let commit = repo
            .git(&["commit-tree", &root, "-m", "bad"])
            .trim()
            .to_owned();
        let result = opened.commit_change(&commit, &counts());
        assert!(
            matches!(result, Err(GitError::UnexpectedKind { .. })),
            "{result:?}"
        );
    }
}

#[test]
fn a_sparse_index_is_expanded() {
    let repo = TestRepo::new();
    repo.write("in/a.txt", "a\n");
    repo.write("out/b.txt", "b\n");
    repo.write("out/deeper/c.txt", "c\n");
    repo.commit_all("base");
    repo.git(&["sparse-checkout", "init", "--cone", "--sparse-index"]);
    repo.git(&["sparse-checkout", "set", "in"]);
    repo.write("in/a.txt", "a\nchanged\n");
    repo.git(&["add", "in/a.txt"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view, ["M\t\tin/a.txt\t1\t0"]);
    let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert_eq!(
        opened.staged_tree_id().unwrap(),
        repo.git(&["write-tree"]).trim()
    );
}

/// Directories that a sparse index keeps as one entry can differ from HEAD too (here after
/// `reset --soft`): changed, added and removed directories are compared tree to tree.
/// Covers issue 5.
#[test]
fn a_sparse_index_with_changes_in_its_sparse_directories() {
    let repo = TestRepo::new();
    repo.write("in/a.txt", "a\n");
    repo.write("out/b.txt", "b\n");
    repo.write("out/deeper/c.txt", "c\n");
    repo.write("out/same/s.txt", "s\n");
    repo.write("gone/d.txt", "d\n");
    repo.commit_all("base");
    repo.write("in/a.txt", "a\nchanged\n");
    repo.write("out/b.txt", "b\nchanged\n");
    repo.write("out/deeper/new.txt", "new\n");
    repo.write("fresh/e.txt", "e\n");
    repo.remove("gone/d.txt");
    repo.commit_all("next");
    repo.git(&["sparse-checkout", "init", "--cone", "--sparse-index"]);
    repo.git(&["sparse-checkout", "set", "in"]);
    repo.git(&["reset", "-q", "--soft", "HEAD~1"]);
    let sparse = repo.git(&["ls-files", "--sparse"]);
    assert!(sparse.lines().any(|line| line == "out/"), "{sparse}");
    assert!(sparse.lines().any(|line| line == "fresh/"), "{sparse}");
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view.len(), 5, "{view:?}");
    let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert_eq!(
        opened.staged_tree_id().unwrap(),
        repo.git(&["write-tree"]).trim()
    );
}

// ---------------------------------------------------------------------------------------
// Merges: the combined rule

fn diverged() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("shared.txt", "1\n2\n3\n4\n5\n6\n7\n8\n");
    repo.write("ours-only.txt", "ours\n");
    repo.write("theirs-only.txt", "theirs\n");
    repo.write("conflict.txt", "base\n");
    repo.commit_all("base");
    repo.git(&["checkout", "-q", "-b", "topic"]);
    repo.write("theirs-only.txt", "theirs\nchanged on topic\n");
    repo.write("shared.txt", "1\n2\n3\n4\n5\n6\n7\neight\n");
    repo.write("conflict.txt", "topic\n");
    repo.write("added-on-topic.txt", "new\n");
    repo.commit_all("topic");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("ours-only.txt", "ours\nchanged on main\n");
    repo.write("shared.txt", "one\n2\n3\n4\n5\n6\n7\n8\n");
    repo.write("conflict.txt", "main\n");
    repo.commit_all("main");
    repo
}

fn conflicted_merge() -> TestRepo {
    let repo = diverged();
    let output = repo.git_result(&["merge", "--no-commit", "topic"]);
    assert!(!output.status.success(), "the merge conflicts");
    repo
}

/// The combined rule computed with git: the paths `git diff-tree -c` lists for a merge
/// commit of this content, each with the smallest per-parent `--numstat`.
fn git_combined_view(repo: &TestRepo, commit: &str) -> Vec<String> {
    let names = repo.git_result(&["diff-tree", "-c", "-r", "--name-only", "-z", commit]);
    assert!(names.status.success());
    let mut paths = split_z(&names.stdout);
    // diff-tree prints the commit id first.
    paths.retain(|p| p != commit);
    let parents: Vec<String> = repo
        .git(&["rev-list", "--parents", "-n1", commit])
        .split_whitespace()
        .skip(1)
        .map(str::to_owned)
        .collect();
    let mut lines = Vec::new();
    for path in paths {
        let mut best: Option<(u64, String)> = None;
        for parent in &parents {
            let stat = repo.git(&[
                "diff",
                "--no-renames",
                "--numstat",
                parent,
                commit,
                "--",
                &path,
            ]);
            let fields: Vec<&str> = stat.split('\t').collect();
            let (added, deleted) = (fields[0], fields[1]);
            let distance = if added == "-" {
                u64::MAX
            } else {
                added.parse::<u64>().unwrap() + deleted.parse::<u64>().unwrap()
            };
            if best.as_ref().is_none_or(|(d, _)| distance < *d) {
                best = Some((distance, format!("{path}\t{added}\t{deleted}")));
            }
        }
        lines.push(best.unwrap().1);
    }
    lines.sort();
    lines
}

fn render_paths_and_counts(change: &Change) -> Vec<String> {
    render(change)
        .into_iter()
        .map(|line| line.splitn(3, '\t').nth(2).unwrap().to_owned())
        .collect()
}

fn merge_commit_of_index(repo: &TestRepo) -> String {
    let tree = repo.git(&["write-tree"]).trim().to_owned();
    repo.git(&[
        "commit-tree",
        &tree,
        "-p",
        "HEAD",
        "-p",
        "MERGE_HEAD",
        "-m",
        "merge",
    ])
    .trim()
    .to_owned()
}

#[test]
fn concluding_a_clean_merge() {
    let repo = diverged();
    // Resolve the conflict file on main first so that the merge is clean.
    repo.git(&["checkout", "-q", "topic"]);
    repo.write("conflict.txt", "main\n");
    repo.commit_all("align");
    repo.git(&["checkout", "-q", "main"]);
    repo.git(&["merge", "--no-commit", "--no-ff", "topic"]);
    let change = staged(&repo);
    assert_eq!(
        change.parents,
        [repo.rev_parse("HEAD"), repo.rev_parse("MERGE_HEAD")]
    );
    assert!(change.is_merge());
    let commit = merge_commit_of_index(&repo);
    let expected = git_combined_view(&repo, &commit);
    assert_eq!(render_paths_and_counts(&change), expected);
    // A clean merge changes nothing beyond its parents except where both sides edited.
    assert_eq!(expected, ["shared.txt\t1\t1"]);
}

#[test]
fn concluding_a_conflicted_merge_after_resolution() {
    let repo = conflicted_merge();
    repo.write("conflict.txt", "resolved by hand\n");
    repo.write("ours-only.txt", "ours\nchanged on main\nand an evil edit\n");
    repo.git(&["add", "-A"]);
    let change = staged(&repo);
    let commit = merge_commit_of_index(&repo);
    let expected = git_combined_view(&repo, &commit);
    assert_eq!(render_paths_and_counts(&change), expected);
    let paths: Vec<&str> = change.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["conflict.txt", "ours-only.txt", "shared.txt"]);
}

// ---------------------------------------------------------------------------------------
// Commits

fn assert_commit_matches_git(repo: &TestRepo, rev: &str) -> Vec<String> {
    let ours = Repository::open(repo.path(), &repo.env_snapshot())
        .unwrap()
        .commit_change(rev, &counts())
        .unwrap();
    let ours = render(&ours);
    let theirs = git_view(repo, repo.path(), &[], &["show", "--format=", rev]);
    assert_eq!(ours, theirs, "astrix (left) and git show (right)");
    ours
}

#[test]
fn commit_change_of_a_root_and_an_ordinary_commit() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\nb\nc\n");
    repo.write("dir/b.bin", b"\0\x01".as_slice());
    let root = repo.commit_all("root");
    assert_eq!(assert_commit_matches_git(&repo, &root).len(), 2);
    repo.mv("a.txt", "renamed.txt");
    repo.write("dir/c.txt", "c\n");
    repo.remove("dir/b.bin");
    repo.commit_all("second");
    assert_commit_matches_git(&repo, "HEAD");
    let change = Repository::open(repo.path(), &repo.env_snapshot())
        .unwrap()
        .commit_change("HEAD", &counts())
        .unwrap();
    assert_eq!(change.parents, [root]);
}

/// `.gitattributes` (at any depth, committed or staged) never make text binary.
#[test]
fn attributes_in_subdirectories_do_not_apply_to_staged_changes_or_commits() {
    let repo = TestRepo::new();
    repo.write(".gitattributes", "*.dat binary\n");
    repo.write("sub/.gitattributes", "*.txt -diff\n");
    repo.write("sub/deeper/a.txt", "a\n");
    repo.write("b.txt", "b\n");
    repo.write("x.dat", "text really\n");
    repo.commit_all("base");
    repo.write("sub/deeper/a.txt", "a\nb\n");
    repo.write("b.txt", "b\nc\n");
    repo.write("x.dat", "text really\nmore\n");
    repo.git(&["add", "-A"]);
    let view = assert_staged_matches_git(&repo);
    assert_eq!(view.iter().filter(|l| l.ends_with("-\t-")).count(), 0);
    repo.git(&["commit", "-q", "-m", "edit"]);
    let view = assert_commit_matches_git(&repo, "HEAD");
    assert_eq!(view.iter().filter(|l| l.ends_with("-\t-")).count(), 0);
}

/// A change cannot make its own lines binary, nor can the attributes committed before it,
/// `core.attributesFile` or `$GIT_DIR/info/attributes`.
#[test]
fn attributes_never_hide_lines() {
    let repo = TestRepo::new();
    repo.write("big.txt", lines_of(10, |i| format!("line {i}")));
    repo.commit_all("base");
    repo.write(".gitattributes", "* -diff\n");
    repo.write("big.txt", lines_of(500, |i| format!("new line {i}")));
    repo.git(&["add", "-A"]);
    let totals = staged(&repo).totals().unwrap();
    assert_eq!((totals.lines_added, totals.binary_files), (501, 0));
    // git itself, with its usual settings, would call big.txt binary here.
    let plain = repo.git(&["diff", "--cached", "--numstat"]);
    assert!(plain.contains("-\t-\tbig.txt"), "{plain}");
    repo.git(&["commit", "-q", "-m", "attributes"]);
    let commit = Repository::open(repo.path(), &repo.env_snapshot())
        .unwrap()
        .commit_change("HEAD", &counts())
        .unwrap();
    assert_eq!(commit.totals().unwrap().binary_files, 0);
    // Committed, and from every other source, they still change nothing.
    std::fs::write(repo.path().join(".git/info/attributes"), "* binary\n").unwrap();
    repo.write(repo.home().join("attributes"), "* -diff\n");
    repo.git(&[
        "config",
        "core.attributesFile",
        repo.home().join("attributes").to_str().unwrap(),
    ]);
    repo.write("big.txt", "short now\n");
    repo.git(&["add", "-A"]);
    let totals = staged(&repo).totals().unwrap();
    assert_eq!(
        (
            totals.lines_added,
            totals.lines_deleted,
            totals.binary_files
        ),
        (1, 500, 0)
    );
}

#[test]
fn commit_change_of_a_merge_commit() {
    let repo = conflicted_merge();
    repo.write("conflict.txt", "resolved\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-edit"]);
    let change = Repository::open(repo.path(), &repo.env_snapshot())
        .unwrap()
        .commit_change("HEAD", &counts())
        .unwrap();
    assert_eq!(change.parents.len(), 2);
    let expected = git_combined_view(&repo, &repo.rev_parse("HEAD"));
    assert_eq!(render_paths_and_counts(&change), expected);
}

#[test]
fn commit_change_of_an_unknown_revision_is_an_error() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("base");
    let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert!(matches!(
        opened.commit_change("no-such-branch", &counts()),
        Err(GitError::Revision { .. })
    ));
}

// ---------------------------------------------------------------------------------------
// Helpers

#[test]
fn staged_tree_id_equals_git_write_tree() {
    let repo = TestRepo::new();
    let opened = || Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    // Empty index: the empty tree.
    assert_eq!(
        opened().staged_tree_id().unwrap(),
        repo.git(&["write-tree"]).trim()
    );
    repo.write("a.txt", "a\n");
    repo.write("a-b/c.txt", "c\n");
    repo.write("a/b.txt", "b\n");
    repo.write("a.b", "dot\n");
    repo.set_executable("a.b", true);
    repo.symlink("link", "a.txt");
    repo.git(&["add", "-A"]);
    add_submodule_commit(&repo, "sub", "1111111111111111111111111111111111111111");
    let before = repo.git(&["count-objects"]);
    assert_eq!(
        opened().staged_tree_id().unwrap(),
        repo.git(&["write-tree"]).trim()
    );
    repo.git(&["commit", "-q", "-m", "base"]);
    repo.write("a/b.txt", "changed\n");
    repo.git(&["add", "-A"]);
    let ours = opened().staged_tree_id().unwrap();
    let objects = repo.git(&["count-objects"]);
    assert_eq!(ours, repo.git(&["write-tree"]).trim());
    assert_ne!(
        before, objects,
        "sanity: git wrote objects, astrix did not need to"
    );
}

#[test]
fn head_on_unborn_branch_and_detached() {
    let repo = TestRepo::new();
    let opened = || Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert_eq!(
        opened().head().unwrap(),
        Head::Unborn {
            branch: Some("main".to_owned())
        }
    );
    assert!(!opened().has_any_commit().unwrap());
    repo.write("a.txt", "a\n");
    let first = repo.commit_all("first");
    assert!(opened().has_any_commit().unwrap());
    repo.git(&["checkout", "-q", "-b", "release/1.0"]);
    assert_eq!(
        opened().head().unwrap(),
        Head::Branch {
            name: "release/1.0".to_owned(),
            commit: first.clone()
        }
    );
    repo.git(&["checkout", "-q", "--detach"]);
    assert_eq!(
        opened().head().unwrap(),
        Head::Detached {
            commit: first.clone()
        }
    );
    // An orphan branch in a repository with history.
    repo.git(&["checkout", "-q", "--orphan", "fresh"]);
    assert_eq!(
        opened().head().unwrap(),
        Head::Unborn {
            branch: Some("fresh".to_owned())
        }
    );
    assert!(opened().has_any_commit().unwrap());
    assert_eq!(
        opened().default_branch_ref().unwrap(),
        Some(astrix::git::BranchRef {
            name: "refs/heads/main".to_owned(),
            commit: first
        })
    );
}

#[test]
fn rebase_branch_during_an_interrupted_rebase() {
    let repo = TestRepo::new();
    repo.write("f.txt", "base\n");
    repo.commit_all("base");
    repo.git(&["checkout", "-q", "-b", "feature/x"]);
    repo.write("f.txt", "feature\n");
    repo.commit_all("feature");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("f.txt", "main\n");
    repo.commit_all("main");
    let opened = || Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert_eq!(opened().rebase_branch().unwrap(), None);
    repo.git(&["checkout", "-q", "feature/x"]);
    let output = repo.git_result(&["rebase", "main"]);
    assert!(!output.status.success(), "the rebase stops on a conflict");
    assert_eq!(
        opened().rebase_branch().unwrap().as_deref(),
        Some("feature/x")
    );
    assert!(matches!(opened().head().unwrap(), Head::Detached { .. }));
    repo.git(&["rebase", "--abort"]);
    assert_eq!(opened().rebase_branch().unwrap(), None);
}

#[test]
fn files_at_revisions_and_in_the_index() {
    let repo = TestRepo::new();
    let opened = || Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert_eq!(opened().file_at_rev("HEAD", "Astrixfile.ax").unwrap(), None);
    repo.write("Astrixfile.ax", "version = 1\n");
    repo.write("dir/x.txt", "x\n");
    repo.commit_all("policy");
    let blob = opened()
        .file_at_rev("HEAD", "Astrixfile.ax")
        .unwrap()
        .unwrap();
    assert_eq!(blob.data, b"version = 1\n");
    assert_eq!(blob.id, repo.rev_parse("HEAD:Astrixfile.ax"));
    assert_eq!(opened().file_at_rev("HEAD", "missing").unwrap(), None);
    assert_eq!(opened().file_at_rev("HEAD", "dir").unwrap(), None);
    assert_eq!(
        opened()
            .file_at_rev("no-such-ref", "Astrixfile.ax")
            .unwrap(),
        None
    );
    assert_eq!(
        opened().file_at_rev("HEAD~5", "Astrixfile.ax").unwrap(),
        None
    );
    assert_eq!(
        opened()
            .file_at_rev("origin/HEAD", "Astrixfile.ax")
            .unwrap(),
        None
    );
    // Like `git rev-parse --verify`, a malformed name is no revision.
    assert_eq!(
        opened()
            .file_at_rev("HEAD^{nonsense", "Astrixfile.ax")
            .unwrap(),
        None
    );
    assert_eq!(
        opened()
            .file_at_rev("main", "dir/x.txt")
            .unwrap()
            .unwrap()
            .data,
        b"x\n"
    );
    repo.write("Astrixfile.ax", "version = 2\n");
    repo.git(&["add", "Astrixfile.ax"]);
    let staged = opened().file_in_index("Astrixfile.ax").unwrap().unwrap();
    assert_eq!(staged.data, b"version = 2\n");
    assert_eq!(opened().file_in_index("nope").unwrap(), None);
}

/// The orphan-branch policy comes from a local branch (`init.defaultBranch`, `main`,
/// `master`, the branch HEAD names), never from `origin/HEAD`, which any command can point anywhere without
/// anything judging it.
#[test]
fn default_branch_is_local_never_origin_head() {
    let upstream = TestRepo::new();
    upstream.write("a.txt", "a\n");
    upstream.commit_all("a");
    upstream.git(&["branch", "trunk"]);
    upstream.git(&["symbolic-ref", "HEAD", "refs/heads/trunk"]);
    let clone = TestRepo::bare_dir();
    clone.git(&[
        "clone",
        "-q",
        upstream.path().to_str().unwrap(),
        clone.path().to_str().unwrap(),
    ]);
    let default = |repo: &TestRepo| {
        Repository::open(repo.path(), &repo.env_snapshot())
            .unwrap()
            .default_branch_ref()
            .unwrap()
            .map(|branch| branch.name)
    };
    // The clone has a local `trunk` only, and `origin/HEAD` names `origin/trunk`: the
    // local branch HEAD names is the default, never the remote's.
    assert_eq!(default(&clone).as_deref(), Some("refs/heads/trunk"));
    clone.git(&["config", "init.defaultBranch", "trunk"]);
    assert_eq!(default(&clone).as_deref(), Some("refs/heads/trunk"));
    clone.git(&["config", "--unset", "init.defaultBranch"]);
    clone.git(&["branch", "main", "trunk"]);
    clone.git(&[
        "symbolic-ref",
        "refs/remotes/origin/HEAD",
        "refs/remotes/origin/trunk",
    ]);
    assert_eq!(default(&clone).as_deref(), Some("refs/heads/main"));
    let empty = TestRepo::new();
    assert_eq!(default(&empty), None);
}

#[test]
fn merge_heads_and_user_identity() {
    let repo = conflicted_merge();
    repo.git(&["config", "user.name", "Jane Approver"]);
    repo.git(&["config", "user.email", "jane@example.com"]);
    let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    assert_eq!(opened.merge_heads().unwrap(), [repo.rev_parse("topic")]);
    let identity = opened.user_identity();
    assert_eq!(identity.name.as_deref(), Some("Jane Approver"));
    assert_eq!(identity.email.as_deref(), Some("jane@example.com"));
    // Global configuration comes from the snapshot's HOME, not from the machine's.
    let fresh = TestRepo::new();
    let opened = Repository::open(fresh.path(), &fresh.env_snapshot()).unwrap();
    assert_eq!(opened.user_identity().name, None);
    std::fs::write(
        fresh.home().join(".gitconfig"),
        "[user]\n\tname = From Home\n",
    )
    .unwrap();
    let env = fresh.env_snapshot_with(&[("GIT_CONFIG_GLOBAL", "")]);
    let env_vars: Vec<(String, std::ffi::OsString)> = fresh
        .env_vars()
        .into_iter()
        .filter(|(name, _)| name != "GIT_CONFIG_GLOBAL")
        .collect();
    let without_global_override = astrix::env::EnvSnapshot::from_pairs(env_vars);
    let opened = Repository::open(fresh.path(), &without_global_override).unwrap();
    assert_eq!(opened.user_identity().name.as_deref(), Some("From Home"));
    // An empty GIT_CONFIG_GLOBAL reads no global file.
    let opened = Repository::open(fresh.path(), &env).unwrap();
    assert_eq!(opened.user_identity().name, None);
}

/// Prints how long `staged_change` takes on a repository of a few thousand files next to
/// `git diff --cached --numstat` (run with `--release --ignored --nocapture`).
#[test]
#[ignore = "a timing report, not a check"]
fn timing_on_a_few_thousand_files() {
    use std::time::Instant;
    let repo = TestRepo::new();
    for i in 0..5000 {
        repo.write(
            format!("src/m{}/n{}/file{i}.rs", i % 20, i % 7),
            lines_of(60, |line| format!("// file {i} line {line}")),
        );
    }
    repo.commit_all("base");
    for i in (0..5000).step_by(100) {
        repo.write(
            format!("src/m{}/n{}/file{i}.rs", i % 20, i % 7),
            lines_of(61, |line| format!("// file {i} line {line} edited")),
        );
    }
    for i in 0..10 {
        let from = format!(
            "src/m{}/n{}/file{}.rs",
            (i * 7 + 1) % 20,
            (i * 7 + 1) % 7,
            i * 7 + 1
        );
        repo.mv(&from, &format!("moved/file{i}.rs"));
    }
    repo.git(&["add", "-A"]);
    let opened = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    for (label, options) in [
        ("without line counts", ChangeOptions::default()),
        ("with line counts", counts()),
    ] {
        let start = Instant::now();
        let change = opened.staged_change(&options).unwrap();
        eprintln!(
            "staged_change {label}: {:?} ({} files)",
            start.elapsed(),
            change.files.len()
        );
    }
    let start = Instant::now();
    opened.staged_tree_id().unwrap();
    eprintln!("staged_tree_id: {:?}", start.elapsed());
    let start = Instant::now();
    let _ = Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    eprintln!("open: {:?}", start.elapsed());
    let start = Instant::now();
    repo.git(&["diff", "--cached", "--numstat"]);
    eprintln!("git diff --cached --numstat: {:?}", start.elapsed());
    repo.git(&["commit", "-q", "-m", "edits"]);
    let start = Instant::now();
    let change = opened.commit_change("HEAD", &counts()).unwrap();
    eprintln!(
        "commit_change with line counts: {:?} ({} files)",
        start.elapsed(),
        change.files.len()
    );
    let start = Instant::now();
    repo.git(&["show", "--numstat", "--format=", "HEAD"]);
    eprintln!("git show --numstat: {:?}", start.elapsed());
    repo.git(&["reset", "-q", "--soft", "HEAD~1"]);
    // Without a cache tree nothing can be skipped.
    repo.git(&["read-tree", "HEAD"]);
    repo.git(&["add", "-A"]);
    let start = Instant::now();
    opened.staged_change(&counts()).unwrap();
    eprintln!("staged_change without a cache tree: {:?}", start.elapsed());
    let start = Instant::now();
    repo.git(&["diff", "--cached", "--numstat"]);
    eprintln!(
        "git diff --cached --numstat (no cache tree): {:?}",
        start.elapsed()
    );
    assert_staged_matches_git(&repo);
}

/// The test-tampering analysis that runs beside the line counts (on their blobs and line
/// diffs, on two threads for a large change) is the analysis that reads each file's blobs
/// itself: the same counts and the same findings, file by file, for every kind of pair —
/// modified, added, deleted, renamed within a language and out of every language, turned
/// into a link, binary on one side, executable.
#[test]
fn the_tampering_analysis_beside_the_counts_is_the_analysis_of_the_blobs() {
    let repo = TestRepo::new();
    let source = tamper_source;
    let path = |n: usize| {
        let extension = ["rs", "py", "js", "go", "java"][n % 5];
        let name = if n % 5 == 1 { "test_m" } else { "m" };
        format!("d{}/{name}{n}.{extension}", n % 3)
    };
    for n in 0..340 {
        repo.write(path(n), source(n, 4));
    }
    repo.commit_all("base");
    for n in 0..340 {
        let file = path(n);
        match n % 11 {
            0 => repo.remove(&file),
            1 => repo.mv(&file, &format!("{file}.disabled")),
            2 => repo.mv(&file, &format!("moved/{}", file.replace('/', "_"))),
            3 => {
                repo.remove(&file);
                repo.symlink(&file, "elsewhere");
            }
            4 => {
                let mut content = source(n, 4).into_bytes();
                content.insert(10, 0);
                repo.write(&file, content);
            }
            5 => repo.set_executable(&file, true),
            6 => {
                // Commented out with a block comment, or skipped, where the language can.
                let text = source(n, 4);
                let edited = match n % 5 {
                    0 => text
                        .replacen("    #[test]\n    fn t1", "    /*#[test]\n    fn t1", 1)
                        .replacen("    #[test]\n    fn t2", "    */#[test]\n    fn t2", 1),
                    1 => text.replacen("def test_1", "@pytest.mark.skip\ndef test_1", 1),
                    2 => text.replacen("test('t1'", "test.skip('t1'", 1),
                    _ => text.replacen("{n}, {n}", "", 1),
                };
                repo.write(&file, edited);
            }
            _ => repo.write(&file, source(n, n % 4)),
        }
    }
    for n in 340..350 {
        repo.write(path(n), source(n, 2));
    }
    repo.git(&["add", "-A"]);

    let open = || Repository::open(repo.path(), &repo.env_snapshot()).unwrap();
    let (beside, alone) = (open(), open());
    let change = |repo: &Repository, tamper: bool| {
        repo.staged_change(&ChangeOptions {
            line_counts: true,
            tamper,
        })
        .unwrap()
    };
    let with = change(&beside, true);
    let without = change(&alone, false);
    assert!(with.files.len() > 300, "{}", with.files.len());
    let analysed = with
        .files
        .iter()
        .filter(|file| file.tamper.is_some())
        .count();
    assert!(analysed > 250, "{analysed} of {} files", with.files.len());
    assert!(without.files.iter().all(|file| file.tamper.is_none()));
    // Renames out of every language are analysed beside the counts; the files turned into
    // links are left to the analysis of the blobs.
    assert!(
        with.files
            .iter()
            .any(|file| file.tamper.is_some() && file.path.ends_with(".disabled"))
    );
    assert!(with.files.iter().any(|file| {
        file.tamper.is_none()
            && file
                .new
                .as_ref()
                .is_some_and(|new| new.mode == EntryMode::Symlink)
    }));

    let report_with = astrix::gate::analyze_tampering(&beside, &with).unwrap();
    let report_without = astrix::gate::analyze_tampering(&alone, &without).unwrap();
    assert!(report_with.tests_removed > 100, "{report_with:#?}");
    assert!(report_with.test_skips_added > 0, "{report_with:#?}");
    assert!(report_with.assertions_removed > 100, "{report_with:#?}");
    assert_eq!(report_with, report_without);
}

/// A source file with `tests` tests, in the language `n` picks (Rust, Python, JavaScript, Go,
/// Java).
fn tamper_source(n: usize, tests: usize) -> String {
    use std::fmt::Write as _;
    let mut text = match n % 5 {
        0 => format!("pub fn f{n}() {{}}\n\n#[cfg(test)]\nmod tests {{\n"),
        3 => format!("package p{n}\n\nimport \"testing\"\n\n"),
        4 => format!("class T{n} {{\n"),
        _ => String::new(),
    };
    for t in 0..tests {
        let _ = match n % 5 {
            0 => write!(
                text,
                "    #[test]\n    fn t{t}() {{\n        assert_eq!(1, 1); // {n}\n    }}\n"
            ),
            1 => write!(text, "def test_{t}():\n    assert {n} == {n}\n\n"),
            2 => write!(
                text,
                "test('t{t}', () => {{\n  expect({n}).toBe({n});\n}});\n"
            ),
            3 => write!(
                text,
                "func TestT{t}(t *testing.T) {{\n\tif {n} != {n} {{\n\t\tt.Fatal(\"x\")\n\t}}\n}}\n\n"
            ),
            _ => write!(
                text,
                "  @Test\n  void t{t}() {{\n    assertEquals({n}, {n});\n  }}\n"
            ),
        };
    }
    if matches!(n % 5, 0 | 4) {
        text.push_str("}\n");
    }
    text
}
