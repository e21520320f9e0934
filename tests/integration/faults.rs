//! Faults end to end (issue 9): when the repository, the policy, the disk or the approvals
//! store is damaged or out of reach, astrix blocks with exit 2 and a message that says what
//! is wrong and how to fix it — never a panic, never a pass. And the states git passes
//! through in ordinary work (a merge, a rebase, a cherry-pick, a revert, a detached HEAD)
//! are not faults: they are judged as usual.
//!
//! Every test drives a real repository with the hooks that `astrix install` writes (the
//! fixture of [`crate::gate`]) and, where git itself runs the hook, a real `git commit`.
//! git reads the index before it runs any hook and rewrites it when it can, so a damaged
//! index reaches astrix through `git commit` only when git accepts it (entries out of
//! order, an entry listed twice, a cache tree that disagrees with the entries); the other
//! index faults are shown with `astrix check` and `astrix hook pre-commit`, which is what
//! the hook runs.
//!
//! Sessions and CI run as root, which ignores file modes: the permission tests drop to
//! `nobody` with `setpriv` (and only chmod when they already run unprivileged).

use std::fs;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{ASTRIX, isolated, output_with_stdin};
use crate::gate::{
    AGENT, DENIED, Gate, HELD, HUMAN, POLICY, approve_at, assert_committed,
    assert_stopped_by_backstop, assert_stopped_by_pre_commit, astrix_at, gate_settings, git_at,
    stderr, stdout,
};

/// Snapshots a command with the gate's filters (temp paths, object ids, times).
macro_rules! fault_snapshot {
    ($gate:expr, $name:expr, $cmd:expr) => {
        gate_settings($gate.temp()).bind(|| {
            insta_cmd::assert_cmd_snapshot!($name, $cmd);
        })
    };
}

/// Snapshots `text` (what a command printed) with the gate's filters: for commands whose
/// own line differs between machines (run through `setpriv` as root, directly otherwise).
fn text_snapshot(gate: &Gate, name: &str, text: &str) {
    gate_settings(gate.temp()).bind(|| {
        insta::assert_snapshot!(name, text);
    });
}

/// A change any actor may commit on a feature branch: the pass that a fault must turn into
/// a block.
const ORDINARY: (&str, &str) = ("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");

/// A gate on branch `feature` with [`ORDINARY`] staged, which would pass.
fn staged_ordinary_change() -> Gate {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write(ORDINARY.0, ORDINARY.1);
    gate.git(&["add", ORDINARY.0]);
    let check = gate.astrix(HUMAN, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    gate
}

/// The fault as `astrix check` and as the pre-commit hook see it: exit 2 (an error, the
/// commit blocked) with `message` on stderr.
#[track_caller]
fn assert_error(gate: &Gate, env: &[(&str, &str)], message: &str) {
    for args in [&["check"][..], &["hook", "pre-commit"]] {
        let output = gate.astrix(env, args);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {text}");
        assert!(text.contains(message), "{args:?}: {message:?} in:\n{text}");
        assert!(!text.contains("panicked"), "{text}");
    }
}

/// A `git commit` that the pre-commit hook blocked with an error: git's exit 1, astrix's
/// `message` on stderr, HEAD where it was, the change still staged.
#[track_caller]
fn assert_blocked_by_error(gate: &Gate, output: &Output, head: &str, message: &str) {
    let text = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains(message), "{message:?} in:\n{text}");
    assert!(!text.contains("panicked"), "{text}");
    assert_eq!(gate.head(), head);
}

// ---------------------------------------------------------------------------------------
// The index

/// The bytes of the index.
fn index(gate: &Gate) -> Vec<u8> {
    fs::read(gate.root.join(".git/index")).unwrap()
}

/// SHA-1 of `data`, by `sha1sum` (the test crate has no hash of its own).
fn sha1(data: &[u8]) -> Vec<u8> {
    let output = output_with_stdin(Command::new("sha1sum"), data);
    let hex = String::from_utf8(output.stdout).unwrap();
    (0..20)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// Writes `body` (an index without its trailing checksum) as the index, checksum added: the
/// file is then damaged only in the way the test means.
fn write_index(gate: &Gate, body: &[u8]) {
    let mut file = body.to_vec();
    file.extend(sha1(body));
    fs::write(gate.root.join(".git/index"), file).unwrap();
}

/// A version-2 index split into its parts: the entries (offset of each, and its name), and
/// the end of the entries (where the extensions start).
struct IndexParts {
    entries: Vec<(usize, String)>,
    entries_end: usize,
}

fn parse_index(bytes: &[u8]) -> IndexParts {
    assert_eq!(&bytes[..4], b"DIRC");
    assert_eq!(u32::from_be_bytes(bytes[4..8].try_into().unwrap()), 2);
    let count = u32::from_be_bytes(bytes[8..12].try_into().unwrap());
    let mut offset = 12;
    let mut entries = Vec::new();
    for _ in 0..count {
        let flags = u16::from_be_bytes(bytes[offset + 60..offset + 62].try_into().unwrap());
        let length = usize::from(flags & 0xfff);
        let name = String::from_utf8(bytes[offset + 62..offset + 62 + length].to_vec()).unwrap();
        entries.push((offset, name));
        // 62 fixed bytes, the name, 1 to 8 NULs to a multiple of 8.
        offset += (62 + length + 8) & !7;
    }
    let entries_end = offset;
    IndexParts {
        entries,
        entries_end,
    }
}

/// The index with the name of entry `from` overwritten by `to` (of the same length).
fn rename_entry(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let parts = parse_index(bytes);
    let (offset, _) = parts
        .entries
        .iter()
        .find(|(_, name)| name == from)
        .unwrap_or_else(|| panic!("no entry {from}"));
    let mut body = bytes[..bytes.len() - 20].to_vec();
    body[offset + 62..offset + 62 + to.len()].copy_from_slice(to.as_bytes());
    body
}

#[test]
fn a_truncated_index_is_an_error_that_says_how_to_rebuild_it() {
    let gate = staged_ordinary_change();
    let good = index(&gate);
    let parts = parse_index(&good);
    // In the header, inside the first entry, inside the last entry.
    let cuts = [
        10,
        parts.entries[0].0 + 30,
        parts.entries.last().unwrap().0 + 50,
    ];
    for cut in cuts {
        fs::write(gate.root.join(".git/index"), &good[..cut]).unwrap();
        assert_error(&gate, HUMAN, "the index `");
        assert_error(&gate, HUMAN, "is damaged: ");
        assert_error(
            &gate,
            HUMAN,
            "; rebuild it from HEAD with `git read-tree HEAD` (the work tree is left alone) and stage the change again",
        );
        // git reads the index before any hook runs, and refuses it too.
        let before = gate.head();
        let output = gate.commit(HUMAN, &["-m", "truncated"]);
        assert_ne!(output.status.code(), Some(0), "cut at {cut}");
        assert_eq!(gate.head(), before);
    }
    fs::write(
        gate.root.join(".git/index"),
        &good[..parts.entries[0].0 + 30],
    )
    .unwrap();
    fault_snapshot!(
        gate,
        "fault_truncated_index",
        astrix_at(&gate.root, HUMAN).arg("check")
    );
    // Cut inside the extensions, the entries are whole: astrix refuses the file, while git
    // reads the entries, drops what it cannot read and writes a new index before it runs
    // the hook, which judges that one. Nothing is committed unjudged.
    fs::write(gate.root.join(".git/index"), &good[..parts.entries_end + 6]).unwrap();
    assert_error(&gate, HUMAN, "is damaged: ");
    let before = gate.head();
    assert_committed(&gate, &gate.commit(HUMAN, &["-m", "healed"]), &before);
    let last = gate.log().pop().unwrap();
    assert_eq!(
        (&last["hook"], &last["decision"], &last["commit"]),
        (
            &"pre-commit".into(),
            &"allow".into(),
            &before.as_str().into()
        ),
        "{last:#}"
    );
    gate.git(&["reset", "-q", "--soft", "HEAD~1"]);
    fs::write(gate.root.join(".git/index"), &good[..10]).unwrap();
    // The advice works: git rebuilds the index, and the change can be staged again.
    gate.git(&["read-tree", "HEAD"]);
    gate.git(&["add", ORDINARY.0]);
    let before = gate.head();
    assert_committed(&gate, &gate.commit(HUMAN, &["-m", "repaired"]), &before);
}

#[test]
fn a_corrupt_index_is_an_error() {
    let gate = staged_ordinary_change();
    let good = index(&gate);
    let body = &good[..good.len() - 20];
    let parts = parse_index(&good);
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut body = body.to_vec();
        edit(&mut body);
        body
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "bad signature",
            with(&|body| body[..4].copy_from_slice(b"XIRC")),
            "is damaged: ",
        ),
        (
            "unknown version",
            with(&|body| body[4..8].copy_from_slice(&99_u32.to_be_bytes())),
            "is damaged: ",
        ),
        (
            "more entries than the file holds",
            with(&|body| body[8..12].copy_from_slice(&1000_u32.to_be_bytes())),
            "is damaged: ",
        ),
        (
            "an entry whose name length is wrong",
            with(&|body| {
                let offset = parts.entries[1].0;
                body[offset + 60..offset + 62].copy_from_slice(&20_u16.to_be_bytes());
            }),
            "is damaged: ",
        ),
        (
            "a file type git never writes",
            with(&|body| {
                let offset = parts.entries[1].0;
                body[offset + 24..offset + 28].copy_from_slice(&0o010_644_u32.to_be_bytes());
            }),
            "has a file type git never writes",
        ),
        (
            "garbage",
            b"this is not an index at all, just some text".to_vec(),
            "is damaged: ",
        ),
    ];
    for (what, bytes, message) in cases {
        if what == "garbage" {
            fs::write(gate.root.join(".git/index"), &bytes).unwrap();
        } else {
            write_index(&gate, &bytes);
        }
        for args in [&["check"][..], &["hook", "pre-commit"]] {
            let output = gate.astrix(HUMAN, args);
            let text = stderr(&output);
            assert_eq!(output.status.code(), Some(2), "{what}: {text}");
            assert!(text.contains(message), "{what}: {text}");
            assert!(text.contains("git read-tree HEAD"), "{what}: {text}");
        }
        let before = gate.head();
        let output = gate.commit(HUMAN, &["-m", what]);
        assert_ne!(output.status.code(), Some(0), "{what}");
        assert_eq!(gate.head(), before, "{what}");
        // A crash of git leaves its lock behind.
        let _ = fs::remove_file(gate.root.join(".git/index.lock"));
    }
    write_index(&gate, &with(&|body| body[..4].copy_from_slice(b"XIRC")));
    fault_snapshot!(
        gate,
        "fault_corrupt_index",
        astrix_at(&gate.root, HUMAN).arg("check")
    );
}

/// An index extension: signature, length, data.
fn extension(signature: [u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = signature.to_vec();
    out.extend(u32::try_from(data.len()).unwrap().to_be_bytes());
    out.extend(data);
    out
}

#[test]
fn index_extensions_are_read_as_git_reads_them() {
    let gate = staged_ordinary_change();
    let good = index(&gate);
    let parts = parse_index(&good);
    let entries = &good[..parts.entries_end];
    let garbage = b"\xde\xad\xbe\xef garbage \x00\x01\x02";
    let with_extension = |extra: Vec<u8>| {
        let mut body = entries.to_vec();
        body.extend(extra);
        body
    };
    // An optional extension (upper-case signature) that git does not know is skipped, by git
    // and by astrix: the change is judged.
    write_index(&gate, &with_extension(extension(*b"ZZZZ", garbage)));
    let check = gate.astrix(HUMAN, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    // A required one (lower case) that nobody knows: git and astrix refuse the index.
    write_index(&gate, &with_extension(extension(*b"zzzz", garbage)));
    assert_error(&gate, HUMAN, "is damaged: ");
    let before = gate.head();
    let output = gate.commit(HUMAN, &["-m", "required extension"]);
    assert_eq!(output.status.code(), Some(128), "{}", stderr(&output));
    assert_eq!(gate.head(), before);
    // One whose length runs past the end of the file.
    let mut overlong = extension(*b"ZZZZ", garbage);
    overlong[4..8].copy_from_slice(&100_000_u32.to_be_bytes());
    write_index(&gate, &with_extension(overlong));
    assert_error(&gate, HUMAN, "is damaged: ");
    // A cache tree (`TREE`) whose data does not parse: git drops it, and so does astrix,
    // which judges the entries.
    write_index(&gate, &with_extension(extension(*b"TREE", garbage)));
    let check = gate.astrix(HUMAN, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
}

#[test]
fn an_index_git_commits_but_that_is_out_of_order_blocks_the_commit() {
    let gate = staged_ordinary_change();
    let good = index(&gate);
    // `src/lib.rs` becomes `zzz/lib.rs`, before `tests/t.rs`: git would commit an unsorted
    // tree (which `git fsck` reports), and astrix's walk of a sorted index would miss the
    // entry, so it is refused.
    write_index(&gate, &rename_entry(&good, "src/lib.rs", "zzz/lib.rs"));
    let before = gate.head();
    assert_error(
        &gate,
        HUMAN,
        "is damaged: its entries are out of order (`tests/t.rs` comes after `zzz/lib.rs`)",
    );
    fault_snapshot!(
        gate,
        "fault_index_out_of_order",
        gate.commit_command(HUMAN, &["-m", "out of order"])
    );
    assert_eq!(gate.head(), before);

    // An entry listed twice: git runs the hook with it, too.
    write_index(&gate, &rename_entry(&good, "tests/t.rs", "src/lib.rs"));
    let output = gate.commit(HUMAN, &["-m", "twice"]);
    assert_blocked_by_error(
        &gate,
        &output,
        &before,
        "is damaged: it lists `src/lib.rs` twice",
    );
}

/// The `TREE` extension of one directory below the root: the root invalid (so that git
/// computes it), `dir` valid with `entries` entries and the tree `id`.
fn cache_tree(dir: &str, entries: usize, id: &str) -> Vec<u8> {
    let mut data = b"\0-1 1\n".to_vec();
    data.extend(dir.as_bytes());
    data.extend(format!("\0{entries} 0\n").as_bytes());
    data.extend((0..20).map(|i| u8::from_str_radix(&id[2 * i..2 * i + 2], 16).unwrap()));
    extension(*b"TREE", &data)
}

/// `git mktree` of `listing` (`mode type id\tname` lines).
fn mktree(gate: &Gate, listing: &str) -> String {
    let mut command = isolated("git", &gate.root);
    command.arg("mktree");
    let output = output_with_stdin(command, listing.as_bytes());
    assert!(output.status.success());
    stdout(&output).trim().to_owned()
}

/// Regression: git commits a valid cache-tree entry of the index as it is, without looking
/// at the entries below it; astrix judged the entries. A hand-made index whose cache tree
/// named another tree for `src/` than its entries let `git commit` record a file that
/// astrix never saw (here a secret the policy denies), and pre-commit passed it.
#[test]
fn a_cache_tree_that_disagrees_with_the_entries_blocks_the_commit() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    // The innocent change astrix is shown: one line of README.md.
    gate.write("README.md", "hello again\n");
    gate.git(&["add", "README.md"]);
    // What git would commit for `src/`: lib.rs as it is, and a secret.
    let lib = gate.rev("HEAD:src/lib.rs");
    let secret = gate
        .git(&["hash-object", "-w", "--stdin"])
        .trim()
        .to_owned();
    let forged = mktree(
        &gate,
        &format!("100644 blob {lib}\tlib.rs\n100644 blob {secret}\tx.secret\n"),
    );
    let good = index(&gate);
    let parts = parse_index(&good);
    let mut body = good[..parts.entries_end].to_vec();
    body.extend(cache_tree("src", 1, &forged));
    write_index(&gate, &body);

    let before = gate.head();
    let message = format!(
        "is damaged: its cache tree says git commits tree `{forged}` for `src`, but the entries there make tree `{}`",
        gate.rev("HEAD:src")
    );
    assert_error(&gate, HUMAN, &message);
    fault_snapshot!(
        gate,
        "fault_cache_tree_disagrees",
        gate.commit_command(HUMAN, &["-m", "innocent"])
    );
    assert_eq!(gate.head(), before);
    // Under --no-verify, the backstop judges the commit git made, secret and all.
    let output = gate.commit(HUMAN, &["--no-verify", "-m", "innocent"]);
    assert_stopped_by_backstop(&gate, &output, &before, "[secrets]");
    assert!(
        stderr(&output).contains("src/x.secret"),
        "{}",
        stderr(&output)
    );

    // The entry count lies instead: `src/` is HEAD's tree, but said to hold 2 entries. git
    // steps over that many entries, `tests/t.rs` with it, and would commit a tree without
    // the tests: a deletion the walk (which skips `src/` as unchanged) never saw.
    gate.git(&["read-tree", "HEAD"]);
    gate.git(&["add", "README.md"]);
    let good = index(&gate);
    let parts = parse_index(&good);
    let mut body = good[..parts.entries_end].to_vec();
    body.extend(cache_tree("src", 2, &gate.rev("HEAD:src")));
    write_index(&gate, &body);
    assert_error(
        &gate,
        AGENT,
        "is damaged: its cache tree says `src` holds 2 entries, but the index has 1 there",
    );
    let output = gate.commit(AGENT, &["-m", "innocent"]);
    assert_blocked_by_error(&gate, &output, &before, "holds 2 entries");
    let output = gate.commit(AGENT, &["--no-verify", "-m", "innocent"]);
    assert_stopped_by_backstop(&gate, &output, &before, "[agents-touching-tests]");
    assert!(stderr(&output).contains("D tests/t.rs") || stderr(&output).contains("tests/t.rs"));
}

// ---------------------------------------------------------------------------------------
// Objects

/// The path of the loose object `id`.
fn loose(gate: &Gate, id: &str) -> PathBuf {
    gate.root.join(".git/objects").join(&id[..2]).join(&id[2..])
}

#[test]
fn a_missing_blob_blocks_the_commit() {
    let gate = staged_ordinary_change();
    let blob = gate.rev(&format!(":{}", ORDINARY.0));
    fs::remove_file(loose(&gate, &blob)).unwrap();
    let before = gate.head();
    assert_error(
        &gate,
        HUMAN,
        &format!(
            "object `{blob}` (the new content of `src/lib.rs`) is missing from the object database"
        ),
    );
    fault_snapshot!(
        gate,
        "fault_missing_blob",
        gate.commit_command(HUMAN, &["-m", "missing blob"])
    );
    assert_eq!(gate.head(), before);
    // The advice works: `git add` stores the content again.
    gate.git(&["add", ORDINARY.0]);
    assert_committed(&gate, &gate.commit(HUMAN, &["-m", "restored"]), &before);
}

/// A change large enough to be counted on two threads ([`a_missing_blob_blocks_the_commit`]
/// for 300 files): whichever thread meets a missing blob, the error is the one counting the
/// pairs in order reports, naming the first file whose content is missing.
#[test]
fn a_missing_blob_in_a_large_change_blocks_the_commit() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    let path = |n: usize| format!("many/f{n:03}.txt");
    for n in 0..300 {
        gate.write(&path(n), format!("first {n}\nsecond\nthird\n"));
    }
    gate.setup_commit("many files");
    for n in 0..300 {
        gate.write(&path(n), format!("first {n}\nchanged\nthird\nfourth\n"));
    }
    gate.git(&["add", "many"]);
    let check = gate.astrix(HUMAN, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    let before = gate.head();
    // The last file, which the second thread counts first.
    let last = gate.rev(&format!(":{}", path(299)));
    fs::remove_file(loose(&gate, &last)).unwrap();
    let missing = |id: &str, n: usize| {
        format!(
            "object `{id}` (the new content of `{}`) is missing from the object database",
            path(n)
        )
    };
    assert_error(&gate, HUMAN, &missing(&last, 299));
    // And one the first thread counts: it is the one reported, as it comes first.
    let early = gate.rev(&format!(":{}", path(7)));
    fs::remove_file(loose(&gate, &early)).unwrap();
    assert_error(&gate, HUMAN, &missing(&early, 7));
    let output = gate.commit(HUMAN, &["-m", "missing blobs"]);
    assert_blocked_by_error(&gate, &output, &before, &missing(&early, 7));
    // Storing the content again mends it (`git add` would skip files whose index entry
    // looks up to date).
    gate.git(&["hash-object", "-w", &path(7), &path(299)]);
    assert_committed(&gate, &gate.commit(HUMAN, &["-m", "restored"]), &before);
}

#[test]
fn a_missing_tree_blocks_the_commit() {
    let gate = staged_ordinary_change();
    let tree = gate.rev("HEAD:src");
    fs::remove_file(loose(&gate, &tree)).unwrap();
    let before = gate.head();
    let output = gate.commit(HUMAN, &["-m", "missing tree"]);
    assert_blocked_by_error(
        &gate,
        &output,
        &before,
        &format!(
            "object `{tree}` (the directory `src`) is missing from the object database, so the repository is damaged"
        ),
    );
    fault_snapshot!(
        gate,
        "fault_missing_tree",
        astrix_at(&gate.root, HUMAN).arg("check")
    );
}

/// A repository whose first commit is packed (`git gc`) and whose HEAD is a loose commit
/// on top of it, with [`ORDINARY`] staged: the pack holds the committed Astrixfile.ax.
fn packed_history() -> Gate {
    let gate = Gate::new();
    gate.git(&["gc", "-q"]);
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("README.md", "after the pack\n");
    gate.setup_commit("loose");
    gate.write(ORDINARY.0, ORDINARY.1);
    gate.git(&["add", ORDINARY.0]);
    gate
}

fn pack_files(gate: &Gate, extension: &str) -> Vec<PathBuf> {
    fs::read_dir(gate.root.join(".git/objects/pack"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect()
}

#[test]
fn a_missing_or_damaged_pack_blocks_the_commit() {
    let gate = packed_history();
    let head = gate.head();
    let policy = gate.rev("HEAD:Astrixfile.ax");
    let packs = pack_files(&gate, "pack");
    assert_eq!(packs.len(), 1);
    let pack = fs::read(&packs[0]).unwrap();

    // Damaged: the pack's compressed data overwritten.
    let mut damaged = pack.clone();
    for byte in &mut damaged[40..pack.len() - 40] {
        *byte ^= 0x55;
    }
    fs::write(&packs[0], &damaged).unwrap();
    assert_error(
        &gate,
        HUMAN,
        &format!("object `{policy}` (`Astrixfile.ax` at `{head}`) is damaged: "),
    );
    let output = gate.commit(HUMAN, &["-m", "damaged pack"]);
    assert_ne!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(gate.head(), head);

    // Missing: the pack removed (its index left behind).
    fs::remove_file(&packs[0]).unwrap();
    assert_error(
        &gate,
        HUMAN,
        &format!(
            "object `{policy}` (`Astrixfile.ax` at `{head}`) is missing from the object database"
        ),
    );
    let output = gate.commit(HUMAN, &["-m", "missing pack"]);
    assert_blocked_by_error(&gate, &output, &head, "is missing from the object database");
    fault_snapshot!(
        gate,
        "fault_missing_pack",
        astrix_at(&gate.root, HUMAN).arg("check")
    );
    // And with the pack's index gone too.
    for index in pack_files(&gate, "idx") {
        fs::remove_file(index).unwrap();
    }
    assert_error(&gate, HUMAN, "is missing from the object database");
}

/// Writes `data` as a tree object as it is (`git hash-object --literally`): what git itself
/// would never write.
fn write_tree_literally(gate: &Gate, data: &[u8]) -> String {
    let mut command = isolated("git", &gate.root);
    command.args(["hash-object", "-w", "--literally", "-t", "tree", "--stdin"]);
    let output = output_with_stdin(command, data);
    assert!(output.status.success());
    stdout(&output).trim().to_owned()
}

/// Trees git never writes, in commits that reach astrix without a pre-commit hook: judged
/// by `astrix ci`, and by the backstop when a branch is moved onto them. A merge of two
/// sorted lists would misjudge an unsorted tree, so each is a damaged object.
#[test]
fn a_tree_git_would_not_write_is_a_damaged_object() {
    let gate = Gate::new();
    let blob = gate.rev("HEAD:README.md");
    let id: Vec<u8> = (0..20)
        .map(|i| u8::from_str_radix(&blob[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let entry = |name: &str| {
        let mut out = format!("100644 {name}\0").into_bytes();
        out.extend(&id);
        out
    };
    let cases = [
        (
            [entry("README.md"), entry("Astrixfile.ax")].concat(),
            "is damaged: its entries are out of order (`Astrixfile.ax` comes after `README.md`)",
        ),
        (
            [
                entry("Astrixfile.ax"),
                entry("README.md"),
                entry("README.md"),
            ]
            .concat(),
            "is damaged: it names `README.md` twice",
        ),
        (
            [entry("Astrixfile.ax"), entry("a/b")].concat(),
            "is damaged: it has an entry named `a/b`, which git never writes",
        ),
    ];
    let main = gate.head();
    for (tree, message) in cases {
        let tree = write_tree_literally(&gate, &tree);
        let commit = gate
            .git(&["commit-tree", &tree, "-p", &main, "-m", "hand-made"])
            .trim()
            .to_owned();
        let output = gate.astrix(
            HUMAN,
            &[
                "ci",
                "--base",
                &main,
                "--head",
                &commit,
                "--target-branch",
                "main",
            ],
        );
        assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
        let text = format!("{}{}", stdout(&output), stderr(&output));
        assert!(text.contains(message), "{message:?} in:\n{text}");
        // Moving `main` there: the backstop judges the commit, and refuses it.
        let output = git_at(
            &gate.root,
            HUMAN,
            &["update-ref", "refs/heads/main", &commit],
        );
        assert_ne!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(stderr(&output).contains(message), "{}", stderr(&output));
        assert_eq!(gate.rev("main"), main);
    }
}

// ---------------------------------------------------------------------------------------
// The policy file

/// A policy that is binary from its second line: a `version` line, then bytes that are not
/// UTF-8 (and an escape sequence, which must not reach the terminal).
const BINARY_POLICY: &[u8] = b"version = 1\n# \xff\xfe\x00\x1b[31m binary \x89PNG\r\n";

/// SPEC §6: a committed policy that does not validate judges nothing silently; the change is
/// judged by the built-in default and held, with the diagnostics, so that a human can
/// approve the commit that repairs it. So a binary committed policy ends in a hold (exit 3),
/// not an error: the commit is blocked all the same.
#[test]
fn a_binary_committed_policy_holds_the_commit_with_its_diagnostics() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("Astrixfile.ax", BINARY_POLICY);
    gate.setup_commit("a binary policy, where no hook ran");
    gate.write(ORDINARY.0, ORDINARY.1);
    gate.git(&["add", ORDINARY.0]);
    let before = gate.head();
    let check = gate.astrix(HUMAN, &["check"]);
    assert_eq!(check.status.code(), Some(3), "{}", stderr(&check));
    let text = stderr(&check);
    for expected in [
        "error[toml-syntax]: `Astrixfile.ax` is not UTF-8 text: byte `0xff` is not part of a UTF-8 character",
        "--> Astrixfile.ax:2:3",
        "help: an Astrixfile is a TOML file, which is UTF-8 text",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    assert!(
        !text.contains('\x1b'),
        "an escape reached the terminal: {text:?}"
    );
    fault_snapshot!(
        gate,
        "fault_binary_committed_policy",
        gate.commit_command(HUMAN, &["-m", "ordinary"])
    );
    assert_eq!(gate.head(), before);
}

#[test]
fn a_binary_or_unreadable_policy_named_on_the_command_line_is_an_error() {
    let gate = Gate::new();
    let policy = gate.temp().join("binary.ax");
    fs::write(&policy, BINARY_POLICY).unwrap();
    let intent = gate.temp().join("intent.json");
    fs::write(
        &intent,
        r#"{"actor": {"type": "human"}, "target": {"env": "development"}, "modified_files": ["a"], "diff": {"modifies_tests": "false"}}"#,
    )
    .unwrap();
    let mut evaluate = astrix_at(&gate.root, HUMAN);
    evaluate.args(["evaluate", "--policy", "../binary.ax", "../intent.json"]);
    fault_snapshot!(gate, "fault_binary_policy_option", evaluate);
    for args in [&["test"][..], &["validate"]] {
        let output = astrix_at(&gate.root, HUMAN)
            .args(args)
            .arg(&policy)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let text = format!("{}{}", stdout(&output), stderr(&output));
        assert!(text.contains("is not UTF-8 text"), "{args:?}: {text}");
        assert!(text.contains("binary.ax:2:3"), "{args:?}: {text}");
    }

    // Unreadable: the file's mode keeps the user who runs astrix out.
    let Some(user) = Unprivileged::find() else {
        return;
    };
    Unprivileged::open_up(gate.temp());
    fs::set_permissions(&policy, fs::Permissions::from_mode(0o000)).unwrap();
    let output = user
        .command(ASTRIX, &gate.root)
        .arg("evaluate")
        .arg("--policy")
        .arg(&policy)
        .arg(&intent)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!(
            "error: cannot read the policy file `{}`; check that it exists and that you may read it",
            policy.display()
        )),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("Permission denied"));
    fs::set_permissions(&policy, fs::Permissions::from_mode(0o644)).unwrap();
}

// ---------------------------------------------------------------------------------------
// Permissions

/// Who the permission tests run astrix and git as: `nobody` through `setpriv` when the tests
/// run as root (whom file modes do not stop), else the user the tests run as.
enum Unprivileged {
    Nobody,
    Myself,
}

impl Unprivileged {
    /// `None` (the test is skipped, and says so) when the tests run as root without
    /// `setpriv`.
    #[expect(clippy::print_stderr, reason = "a skipped test says why")]
    fn find() -> Option<Self> {
        let probe = tempfile::tempfile().unwrap();
        if probe.metadata().unwrap().uid() != 0 {
            return Some(Self::Myself);
        }
        let setpriv = Command::new("setpriv").arg("--version").output();
        if setpriv.is_ok_and(|output| output.status.success()) {
            Some(Self::Nobody)
        } else {
            eprintln!(
                "skipped: running as root, and `setpriv` is not available to drop privileges"
            );
            None
        }
    }

    /// `program` in `dir` with the isolated environment, as this user.
    fn command(&self, program: &str, dir: &Path) -> Command {
        match self {
            Self::Myself => isolated(program, dir),
            Self::Nobody => {
                let mut command = isolated("setpriv", dir);
                command.args(["--reuid=65534", "--regid=65534", "--clear-groups", program]);
                command
            }
        }
    }

    /// Lets this user into the test's temporary directory (created private to its owner).
    fn open_up(temp: &Path) {
        fs::set_permissions(temp, fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// Lets this user write in `root`, so that it can commit there.
    fn open_for_writing(&self, root: &Path) {
        if let Self::Nobody = self {
            let status = Command::new("chmod")
                .args(["-R", "a+rwX"])
                .arg(root)
                .status()
                .unwrap();
            assert!(status.success());
        }
    }

    /// `git args` in `dir` as this user. git refuses a repository that another user owns
    /// unless `safe.directory` says otherwise (given on the command line, where git honours
    /// it); astrix reads it all the same.
    fn git(&self, dir: &Path, args: &[&str]) -> Output {
        let mut command = self.command("git", dir);
        if let Self::Nobody = self {
            command.args(["-c", "safe.directory=*"]);
        }
        command.args(args).output().unwrap()
    }
}

/// Runs `body` with `path`'s mode set to `mode`, and puts the old mode back.
fn with_mode(path: &Path, mode: u32, body: impl FnOnce()) {
    let old = fs::metadata(path).unwrap().permissions();
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    body();
    fs::set_permissions(path, old).unwrap();
}

#[test]
fn permission_denied_on_the_git_directory_is_an_error() {
    let Some(user) = Unprivileged::find() else {
        return;
    };
    let gate = staged_ordinary_change();
    Unprivileged::open_up(gate.temp());
    let git_dir = gate.root.join(".git");
    let check = |args: &[&str], message: &str| {
        let output = user
            .command(ASTRIX, &gate.root)
            .args(args)
            .output()
            .unwrap();
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {text}");
        assert!(text.contains(message), "{message:?} in:\n{text}");
    };
    let fix = "; astrix reads the repository as the user that runs it (and git): give that user read access to it";
    let cases = [
        (
            git_dir.clone(),
            format!(
                "cannot read `{}`: Permission denied (os error 13){fix}",
                git_dir.display()
            ),
        ),
        (
            git_dir.join("HEAD"),
            format!(
                "cannot read `{}`: Permission denied",
                git_dir.join("HEAD").display()
            ),
        ),
        (
            git_dir.join("index"),
            format!(
                "cannot read `{}`: Permission denied",
                git_dir.join("index").display()
            ),
        ),
        (git_dir.join("config"), "configuration file at".to_owned()),
        (git_dir.join("objects"), "Permission denied".to_owned()),
        // HEAD names the branch; its file under `refs/heads/` cannot be read.
        (
            git_dir.join("refs/heads"),
            "cannot read the reference `refs/heads/feature`: Could not read reference".to_owned(),
        ),
    ];
    for (path, message) in &cases {
        with_mode(path, 0o000, || {
            check(&["check"], message);
            check(&["hook", "pre-commit"], message);
        });
    }
    with_mode(&git_dir, 0o000, || {
        let output = user
            .command(ASTRIX, &gate.root)
            .arg("check")
            .output()
            .unwrap();
        text_snapshot(&gate, "fault_git_directory_unreadable", &stderr(&output));
    });
    // A search-only directory is enough: git and astrix open the files they know by name.
    with_mode(&git_dir, 0o711, || {
        let output = user
            .command(ASTRIX, &gate.root)
            .arg("check")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    });
}

#[test]
fn permission_denied_on_the_objects_blocks_the_commit() {
    let Some(user) = Unprivileged::find() else {
        return;
    };
    let gate = staged_ordinary_change();
    Unprivileged::open_up(gate.temp());
    user.open_for_writing(&gate.root);
    let commit = |message: &str| user.git(&gate.root, &["commit", "-q", "-m", message]);
    let before = gate.head();
    let blob = gate.rev(&format!(":{}", ORDINARY.0));
    let fan_out = gate.root.join(".git/objects").join(&blob[..2]);
    with_mode(&fan_out, 0o000, || {
        let output = commit("unreadable objects");
        assert_blocked_by_error(
            &gate,
            &output,
            &before,
            &format!(
                "cannot read `{}` (object `{blob}`, the new content of `src/lib.rs`): Permission denied (os error 13); astrix reads the repository as the user that runs it (and git): give that user read access to it",
                fan_out.display()
            ),
        );
        text_snapshot(&gate, "fault_objects_unreadable", &stderr(&output));
    });
    // One object file: the committed policy's blob.
    let policy = gate.rev("HEAD:Astrixfile.ax");
    let file = loose(&gate, &policy);
    with_mode(&file, 0o000, || {
        let output = commit("unreadable policy");
        assert_blocked_by_error(
            &gate,
            &output,
            &before,
            &format!(
                "cannot read `{}` (object `{policy}`, `Astrixfile.ax` at `{before}`): Permission denied",
                file.display()
            ),
        );
    });
    // Readable again: the same commit goes through.
    let output = commit("readable");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_ne!(gate.head(), before);
}

// ---------------------------------------------------------------------------------------
// A full disk

/// `.git/astrix/<name>` as a link to `/dev/full`, where every write fails with "no space left
/// on device" (ENOSPC).
fn full_disk_at(gate: &Gate, name: &str) -> PathBuf {
    let dir = gate.root.join(".git/astrix");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    symlink("/dev/full", &path).unwrap();
    path
}

#[test]
fn a_full_disk_while_appending_to_the_audit_log_blocks_the_commit() {
    assert!(Path::new("/dev/full").exists(), "this test needs /dev/full");
    let gate = staged_ordinary_change();
    let log = full_disk_at(&gate, "audit.jsonl");
    let before = gate.head();
    let output = gate.commit(HUMAN, &["-m", "full disk"]);
    assert_blocked_by_error(
        &gate,
        &output,
        &before,
        "error: the decision cannot be recorded in the audit log, so the commit is blocked",
    );
    assert!(
        stderr(&output).contains("No space left on device (os error 28); make it writable again (free disk space, fix its permissions)"),
        "{}",
        stderr(&output)
    );
    fault_snapshot!(
        gate,
        "fault_full_disk_audit_log",
        gate.commit_command(HUMAN, &["-m", "full disk"])
    );
    // The backstop records its decisions too: under --no-verify it blocks the update.
    let output = gate.commit(HUMAN, &["--no-verify", "-m", "full disk"]);
    assert_eq!(output.status.code(), Some(128), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .contains("the decision cannot be recorded in the audit log, so the update is blocked"),
        "{}",
        stderr(&output)
    );
    assert_eq!(gate.head(), before);
    // Space again: the same commit goes through, and is logged.
    fs::remove_file(log).unwrap();
    assert_committed(&gate, &gate.commit(HUMAN, &["-m", "full disk"]), &before);
    assert_eq!(gate.log().len(), 1);
}

/// A held change (an agent's edit of the tests) staged on a feature branch.
fn staged_held_change(gate: &Gate, content: &str) {
    gate.write("tests/t.rs", content);
    gate.git(&["add", "tests/t.rs"]);
}

#[test]
fn a_full_disk_while_recording_an_approval_records_nothing() {
    assert!(Path::new("/dev/full").exists(), "this test needs /dev/full");
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    staged_held_change(&gate, "#[test]\nfn one() {}\n");
    gate.approve(&["--reason", "an earlier approval"]);
    let store = gate.root.join(".git/astrix/approvals.json");
    let recorded = fs::read(&store).unwrap();

    // Other content, approved while the disk is full. The store is written to a temporary
    // file that is renamed over the old one; the temporary file is where the disk is full.
    staged_held_change(&gate, "#[test]\nfn two() {}\n");
    let temporary = full_disk_at(&gate, "approvals.json.tmp");
    let output = approve_at(&gate.root, &[], "y\n");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.contains("No space left on device (os error 28); nothing was recorded (the store is as it was): make it writable again (free disk space, fix its permissions) and approve again"),
        "{text}"
    );
    assert_eq!(fs::read(&store).unwrap(), recorded, "the store changed");
    assert!(!temporary.exists(), "the temporary file was left behind");
    // Still held.
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "tests"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, HELD);
}

/// `unshare -rm` (a user and a mount namespace) works here: then a real, tiny tmpfs can be
/// mounted where astrix writes. Not everywhere: some CI runners forbid user namespaces.
fn user_namespaces() -> bool {
    Command::new("unshare")
        .args(["-rm", "true"])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// The approvals store on a real file system that fills up in the middle of the write:
/// a tmpfs of three pages, two of them taken by the store as it is. The new store (one more
/// approval) needs more than the one page left: the write fails part way, and the old store
/// must be left whole.
#[test]
fn an_approval_that_fills_the_disk_part_way_leaves_the_store_as_it_was() {
    if !user_namespaces() {
        eprintln!("skipped: `unshare -rm` is not allowed here, so no tmpfs can be mounted");
        return;
    }
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    staged_held_change(&gate, "#[test]\nfn one() {}\n");
    // A long reason makes the store span two pages.
    gate.approve(&["--reason", &"r".repeat(4800)]);
    let astrix_dir = gate.root.join(".git/astrix");
    let recorded = fs::read(astrix_dir.join("approvals.json")).unwrap();
    assert!((4097..8192).contains(&recorded.len()), "{}", recorded.len());
    staged_held_change(&gate, "#[test]\nfn two() {}\n");

    let out = gate.temp().join("out");
    fs::create_dir(&out).unwrap();
    let script = gate.temp().join("full.sh");
    fs::write(
        &script,
        format!(
            r#"set -e
dir="$1/.git/astrix"
cp "$dir/approvals.json" "$2/before.json"
mount -t tmpfs -o size=12k tmpfs "$dir"
cp "$2/before.json" "$dir/approvals.json"
set +e
'{ASTRIX}' approve
echo $? > "$2/code"
set -e
cp "$dir/approvals.json" "$2/after.json"
ls -a "$dir" > "$2/listing"
df -k "$dir" > "$2/df"
"#
        ),
    )
    .unwrap();
    let line = format!(
        "unshare -rm sh '{}' '{}' '{}'",
        script.display(),
        gate.root.display(),
        out.display()
    );
    let mut command = isolated("script", &gate.root);
    command
        .env("NO_COLOR", "1")
        .args(["-qec", &line, "/dev/null"]);
    let output = output_with_stdin(command, b"y\n");
    let text = stdout(&output);
    assert_eq!(
        fs::read_to_string(out.join("code")).unwrap().trim(),
        "2",
        "{text}{}",
        stderr(&output)
    );
    assert!(
        text.contains(
            "No space left on device (os error 28); nothing was recorded (the store is as it was)"
        ),
        "{text}"
    );
    assert_eq!(fs::read(out.join("after.json")).unwrap(), recorded);
    let listing = fs::read_to_string(out.join("listing")).unwrap();
    assert!(!listing.contains("approvals.json.tmp"), "{listing}");
}

// ---------------------------------------------------------------------------------------
// The approvals store

fn store(gate: &Gate) -> PathBuf {
    gate.root.join(".git/astrix/approvals.json")
}

#[test]
fn a_hand_edited_approval_is_refused() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    staged_held_change(&gate, "#[test]\nfn one() {}\n");
    let id = gate.approve(&[]);
    let recorded = fs::read_to_string(store(&gate)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&recorded).unwrap();
    let record = &json["approvals"][0];
    let patch = record["patch"].as_str().unwrap().to_owned();
    // Other content is staged, and the approval edited to match it: the digest of its patch
    // is what an approval of it records.
    staged_held_change(&gate, "#[test]\nfn two() {}\n");
    let other_id = gate.approve(&[]);
    let other: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(store(&gate)).unwrap()).unwrap();
    let other_patch = other["approvals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|record| record["id"] == other_id.as_str())
        .map(|record| record["patch"].as_str().unwrap().to_owned())
        .unwrap();
    assert_ne!(patch, other_patch);
    let seal = record["seal"].as_str().unwrap().to_owned();
    let expires = record["expires"].as_i64().unwrap();
    let edits: Vec<(&str, String)> = vec![
        ("the patch", recorded.replace(&patch, &other_patch)),
        (
            "the seal",
            recorded.replace(&seal, &format!("sha256:{}", "0".repeat(64))),
        ),
        (
            "the expiry",
            recorded.replace(&expires.to_string(), &(expires + 86_400).to_string()),
        ),
        (
            "the id",
            recorded.replace(&format!("\"{id}\""), "\"000000000000\""),
        ),
    ];
    let before = gate.head();
    for (what, text) in &edits {
        assert_ne!(text, &recorded, "{what}");
        fs::write(store(&gate), text).unwrap();
        let output = gate.commit(AGENT, &["-m", "tests"]);
        assert_blocked_by_error(
            &gate,
            &output,
            &before,
            "was edited by hand (its seal does not match); remove it with `astrix approve --revoke ",
        );
    }
    fs::write(store(&gate), &edits[0].1).unwrap();
    fault_snapshot!(
        gate,
        "fault_approval_edited_by_hand",
        gate.commit_command(AGENT, &["-m", "tests"])
    );
    // The fix the message gives works: revoked, the commit is held again; approved, it goes.
    let output = gate.astrix(HUMAN, &["approve", "--revoke", &id]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = gate.commit(AGENT, &["-m", "tests"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, HELD);
    gate.approve(&[]);
    assert_committed(&gate, &gate.commit(AGENT, &["-m", "tests"]), &before);
}

#[test]
fn an_approval_of_other_content_is_never_accepted() {
    // An approval recorded in one repository, copied into another whose staged content is
    // the same patch on another parent commit, but whose policy is another.
    let first = Gate::new();
    first.git(&["switch", "-q", "-c", "feature"]);
    staged_held_change(&first, "#[test]\nfn one() {}\n");
    first.approve(&[]);
    let second = Gate::with_policy(Some(&format!("{POLICY}\n# another history\n")));
    second.git(&["switch", "-q", "-c", "feature"]);
    staged_held_change(&second, "#[test]\nfn one() {}\n");
    fs::create_dir_all(second.root.join(".git/astrix")).unwrap();
    fs::copy(store(&first), store(&second)).unwrap();
    let before = second.head();
    let output = second.commit(AGENT, &["-m", "tests"]);
    assert_stopped_by_pre_commit(&second, &output, &before, HELD);

    // In the same repository: an approval of one content, then other content staged.
    let before = first.head();
    staged_held_change(&first, "#[test]\nfn other() {}\n");
    let output = first.commit(AGENT, &["-m", "tests"]);
    assert_stopped_by_pre_commit(
        &first,
        &output,
        &before,
        "the staged content changed since it was approved",
    );
    // An approval whose record names this content but was sealed for the other is refused
    // (see `a_hand_edited_approval_is_refused`); one for the content as approved is used.
    staged_held_change(&first, "#[test]\nfn one() {}\n");
    assert_committed(&first, &first.commit(AGENT, &["-m", "tests"]), &before);
}

#[test]
fn a_damaged_approvals_store_blocks_a_held_commit() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    staged_held_change(&gate, "#[test]\nfn one() {}\n");
    gate.approve(&[]);
    let recorded = fs::read(store(&gate)).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", recorded[..recorded.len() / 2].to_vec()),
        ("binary garbage", b"\x00\xff\xfe garbage \x1b[31m".to_vec()),
        ("empty", Vec::new()),
        ("not a store", b"{}".to_vec()),
        (
            "another version",
            String::from_utf8(recorded.clone())
                .unwrap()
                .replacen("\"version\": 2", "\"version\": 3", 1)
                .into_bytes(),
        ),
    ];
    let before = gate.head();
    for (what, bytes) in &cases {
        assert_ne!(bytes, &recorded, "{what}");
        fs::write(store(&gate), bytes).unwrap();
        let output = gate.commit(AGENT, &["-m", "tests"]);
        assert_blocked_by_error(&gate, &output, &before, "is corrupt (");
        assert!(
            stderr(&output)
                .contains("); no approval in it is accepted: remove the file and approve again"),
            "{what}: {}",
            stderr(&output)
        );
        // Nor is a new approval recorded over it.
        let approval = approve_at(&gate.root, &[], "y\n");
        assert_eq!(
            approval.status.code(),
            Some(2),
            "{what}: {}",
            stdout(&approval)
        );
        assert_eq!(&fs::read(store(&gate)).unwrap(), bytes, "{what}");
    }
    fault_snapshot!(
        gate,
        "fault_approvals_store_corrupt",
        gate.commit_command(AGENT, &["-m", "tests"])
    );
    // A change that needs no approval does not read the store.
    gate.git(&["restore", "--staged", "tests/t.rs"]);
    gate.write(ORDINARY.0, ORDINARY.1);
    gate.git(&["add", ORDINARY.0]);
    assert_committed(&gate, &gate.commit(AGENT, &["-m", "ordinary"]), &before);
    // The fix the message gives works.
    let before = gate.head();
    fs::remove_file(store(&gate)).unwrap();
    gate.git(&["add", "tests/t.rs"]);
    let id = gate.approve(&[]);
    assert!(!id.is_empty());
    assert_committed(&gate, &gate.commit(AGENT, &["-m", "tests"]), &before);
}

// ---------------------------------------------------------------------------------------
// A panic

/// The environment variable that makes this test's own process the child that panics.
const PANIC_CHILD: &str = "ASTRIX_FAULTS_PANIC_CHILD";

/// astrix's `main` is `astrix::app::run_guarded(|| astrix::run(…))`. No input is known to
/// make astrix panic (that would be a bug to fix), and a trigger for tests would have to
/// ship in the binary, so the test runs `run_guarded` in a process of its own — this test
/// binary, started again to run only this test — with a body that panics, and checks the
/// exit code and the message there. The test below checks that `main` is that call.
#[test]
#[expect(
    clippy::exit,
    reason = "the child process ends with the guarded exit status"
)]
fn a_panic_ends_in_exit_2_with_a_request_to_report_it() {
    if std::env::var_os(PANIC_CHILD).is_some() {
        let status = astrix::app::run_guarded(|| panic!("a deliberate test panic"));
        std::process::exit(status as i32);
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "faults::a_panic_ends_in_exit_2_with_a_request_to_report_it",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(PANIC_CHILD, "1")
        .output()
        .unwrap();
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.contains("error: astrix crashed at tests/integration/faults.rs:"),
        "{text}"
    );
    assert!(
        text.contains(": a deliberate test panic; the action is blocked\nhelp: this is a bug in astrix: please report it at the astrix issue tracker, with the command you ran and this message"),
        "{text}"
    );
}

#[test]
fn the_binary_runs_guarded() {
    let main = include_str!("../../src/main.rs");
    assert!(
        main.contains("astrix::app::run_guarded(|| astrix::run(astrix::cli::Cli::parse()))"),
        "{main}"
    );
}

// ---------------------------------------------------------------------------------------
// Ordinary states are not faults

/// A repository where `main` and `feature` changed the same line of `tests/t.rs` (and
/// `feature` a source file too), on `feature`.
fn diverged_tests() -> Gate {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("tests/t.rs", "#[test]\nfn feature() {}\n");
    gate.write("src/f.rs", "pub fn f() {}\n");
    gate.setup_commit("feature tests");
    gate.git(&["switch", "-q", "main"]);
    gate.write("tests/t.rs", "#[test]\nfn main() {}\n");
    gate.setup_commit("main tests");
    gate.git(&["switch", "-q", "feature"]);
    gate
}

/// Resolves the conflict in `tests/t.rs` with content of neither side, and stages it.
fn resolve(gate: &Gate) {
    gate.write(
        "tests/t.rs",
        "#[test]\nfn main() {}\n#[test]\nfn feature() {}\n",
    );
    gate.git(&["add", "tests/t.rs"]);
}

#[test]
fn committing_during_a_stopped_rebase_is_judged_for_the_branch_being_rebased() {
    // A plain rebase of `feature` onto `main`, stopped by a conflict, then `git commit`.
    let gate = diverged_tests();
    let output = git_at(&gate.root, AGENT, &["rebase", "main"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    // Only unmerged entries are an error, and the message says what to do.
    assert_error(
        &gate,
        AGENT,
        "the index has unresolved conflicts in `tests/t.rs`; resolve them and `git add` the files",
    );
    resolve(&gate);
    let before = gate.head();
    let output = gate.commit(AGENT, &["--no-edit"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-touching-tests]");
    assert!(
        stderr(&output).contains("branch `feature` matches no [[environment]]"),
        "{}",
        stderr(&output)
    );
    let output = gate.commit(HUMAN, &["--no-edit"]);
    assert_committed(&gate, &output, &before);
    let output = git_at(&gate.root, HUMAN, &["rebase", "--continue"]);
    assert!(output.status.success(), "{}", stderr(&output));

    // An interactive rebase of `main` (production) that stops to edit a commit: the
    // agent's commit there targets `main`, though HEAD is detached.
    gate.git(&["switch", "-q", "main"]);
    let output = git_at(
        &gate.root,
        HUMAN,
        &[
            "-c",
            "sequence.editor=sed -i 1s/^pick/edit/",
            "rebase",
            "-q",
            "-i",
            "HEAD~1",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(gate.git(&["branch", "--show-current"]), "");
    gate.write("src/g.rs", "pub fn g() {}\n");
    gate.git(&["add", "src/g.rs"]);
    let before = gate.head();
    let output = gate.commit(AGENT, &["-m", "extra"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, DENIED);
    assert!(
        stderr(&output).contains("target  production — branch `main` matches `main`"),
        "{}",
        stderr(&output)
    );
    let output = gate.commit(HUMAN, &["-m", "extra"]);
    assert_committed(&gate, &output, &before);
    let output = git_at(&gate.root, HUMAN, &["rebase", "--continue"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(gate.git(&["log", "-1", "--format=%s", "main"]), "extra\n");
}

#[test]
fn committing_a_conflicted_cherry_pick_or_revert_is_judged_normally() {
    let gate = diverged_tests();
    // A cherry-pick of main's test change onto feature, stopped by a conflict.
    let output = git_at(&gate.root, AGENT, &["cherry-pick", "main"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_error(
        &gate,
        AGENT,
        "the index has unresolved conflicts in `tests/t.rs`",
    );
    resolve(&gate);
    let before = gate.head();
    let output = gate.commit(AGENT, &["--no-edit"]);
    assert_stopped_by_pre_commit(&gate, &output, &before, "[agents-touching-tests]");
    let picked = assert_committed(&gate, &gate.commit(HUMAN, &["--no-edit"]), &before);

    // A revert of feature's own test commit, stopped by a conflict with what was picked.
    let output = git_at(&gate.root, AGENT, &["revert", "--no-edit", "HEAD~1"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_error(
        &gate,
        AGENT,
        "the index has unresolved conflicts in `tests/t.rs`",
    );
    gate.write("tests/t.rs", "#[test]\nfn main() {}\n");
    gate.git(&["add", "tests/t.rs"]);
    let output = gate.commit(AGENT, &["--no-edit"]);
    assert_stopped_by_pre_commit(&gate, &output, &picked, "[agents-touching-tests]");
    // The same revert of a source file only: allowed for the agent.
    gate.git(&["checkout", "-q", "HEAD", "--", "tests/t.rs"]);
    let output = gate.commit(AGENT, &["--no-edit"]);
    assert_committed(&gate, &output, &picked);
}

#[test]
fn a_detached_head_is_judged_as_development() {
    let gate = Gate::new();
    gate.git(&["switch", "-q", "--detach", "main"]);
    gate.write(ORDINARY.0, ORDINARY.1);
    gate.git(&["add", ORDINARY.0]);
    let check = gate.astrix(AGENT, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    assert!(
        stdout(&check)
            .contains("target  development — default `development` (no branch (detached HEAD))"),
        "{}",
        stdout(&check)
    );
    let before = gate.head();
    assert_committed(&gate, &gate.commit(AGENT, &["-m", "detached"]), &before);
    // The same change on `main` is an agent's commit to production.
    gate.git(&["switch", "-q", "main"]);
    gate.write(ORDINARY.0, ORDINARY.1);
    gate.git(&["add", ORDINARY.0]);
    let output = gate.commit(AGENT, &["-m", "on main"]);
    assert_stopped_by_pre_commit(&gate, &output, &gate.head(), DENIED);
}
