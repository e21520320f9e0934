//! Git compatibility end to end: reftable repositories, symbolic branches, clones with the
//! hooks from a template directory (whose `HEAD` holds a placeholder while git creates the
//! branches), SHA-256 repositories and trees with zero-padded modes. Each runs real git with
//! the hooks `astrix install` writes.

use std::fs;
use std::path::Path;

use crate::common::isolated;
use crate::gate::{
    AGENT, Gate, HELD, HUMAN, assert_committed, assert_stopped_by_backstop,
    assert_stopped_by_pre_commit, commit_at, git_at, stderr,
};

/// A test edit that the gate's policy holds for an agent (`agents-touching-tests`).
fn stage_a_test_change(gate: &Gate) {
    gate.write(
        "tests/t.rs",
        "#[test]\nfn one() {\n    assert_eq!(1, 1);\n}\n\n#[test]\nfn two() {}\n",
    );
    gate.git(&["add", "tests/t.rs"]);
}

/// Humans commit; an agent's held change is held by pre-commit and, under `--no-verify`, by
/// the backstop; a human's approval lets it through.
fn humans_commit_and_an_agents_held_change_stays_held(gate: &Gate) {
    let before = gate.head();
    gate.write("README.md", "hello again\n");
    gate.git(&["add", "README.md"]);
    let main = assert_committed(gate, &gate.commit(HUMAN, &["-m", "readme"]), &before);

    gate.git(&["switch", "-q", "-c", "feature"]);
    stage_a_test_change(gate);
    let output = gate.commit(AGENT, &["-m", "more tests"]);
    assert_stopped_by_pre_commit(gate, &output, &main, HELD);
    let output = gate.commit(AGENT, &["--no-verify", "-m", "more tests"]);
    assert_stopped_by_backstop(gate, &output, &main, HELD);
    let check = gate.astrix(AGENT, &["check"]);
    assert_eq!(check.status.code(), Some(3), "{}", stderr(&check));

    gate.approve(&[]);
    assert_committed(gate, &gate.commit(AGENT, &["-m", "more tests"]), &main);
}

#[test]
fn a_reftable_repository_is_judged_as_any_other() {
    let gate = Gate::with_init(&["--ref-format=reftable"], Some(crate::gate::POLICY));
    assert_eq!(
        gate.git(&["rev-parse", "--show-ref-format"]).trim(),
        "reftable"
    );
    // The file git keeps for older tools; the real HEAD is in the table.
    let head_file = fs::read_to_string(gate.root.join(".git/HEAD")).unwrap();
    assert_eq!(head_file.trim(), "ref: refs/heads/.invalid");
    humans_commit_and_an_agents_held_change_stays_held(&gate);

    // The branch decides the target as in any repository: an agent is denied on `main`.
    gate.git(&["switch", "-q", "main"]);
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    2\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    let head = gate.head();
    let output = gate.commit(AGENT, &["-m", "on main"]);
    assert_stopped_by_pre_commit(&gate, &output, &head, "agents-off-production");
    let intent = gate.intent(AGENT);
    assert_eq!(intent["target"]["env"], "production", "{intent}");
}

#[test]
fn a_sha256_repository_is_judged_as_any_other() {
    let gate = Gate::with_init(&["--object-format=sha256"], Some(crate::gate::POLICY));
    assert_eq!(gate.head().len(), 64);
    humans_commit_and_an_agents_held_change_stays_held(&gate);
    // Line counts and files are read from SHA-256 objects.
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    3\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    let intent = gate.intent(HUMAN);
    assert_eq!(intent["modified_files"], serde_json::json!(["src/lib.rs"]));
    assert_eq!(intent["diff"]["lines_added"], 1, "{intent}");
    assert_eq!(intent["diff"]["lines_deleted"], 1, "{intent}");
}

#[test]
fn a_sha256_reftable_repository_is_judged_as_any_other() {
    let gate = Gate::with_init(
        &["--object-format=sha256", "--ref-format=reftable"],
        Some(crate::gate::POLICY),
    );
    humans_commit_and_an_agents_held_change_stays_held(&gate);
}

/// Symbolic branches, in either reference format: created, committed through, removed.
fn symbolic_branches_work(gate: &Gate) {
    // A common alias: `trunk` for `main`.
    gate.git(&["symbolic-ref", "refs/heads/trunk", "refs/heads/main"]);
    assert_eq!(
        gate.git(&["symbolic-ref", "refs/heads/trunk"]).trim(),
        "refs/heads/main"
    );
    // Committing through it moves `main`, judged as `main`.
    gate.git(&["switch", "-q", "trunk"]);
    let before = gate.head();
    gate.write("README.md", "through the alias\n");
    gate.git(&["add", "README.md"]);
    let after = assert_committed(gate, &gate.commit(HUMAN, &["-m", "alias"]), &before);
    assert_eq!(gate.rev("main"), after);
    gate.git(&["switch", "-q", "main"]);

    // `update-ref --stdin` symbolic commands, and deletions.
    let output = crate::common::output_with_stdin(
        {
            let mut command = isolated("git", &gate.root);
            command.args(["update-ref", "--no-deref", "--stdin"]);
            command
        },
        b"symref-create refs/heads/alias refs/heads/main\n",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = crate::common::output_with_stdin(
        {
            let mut command = isolated("git", &gate.root);
            command.args(["update-ref", "--no-deref", "--stdin"]);
            command
        },
        b"symref-update refs/heads/alias refs/heads/trunk\n",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    gate.git(&["symbolic-ref", "--delete", "refs/heads/alias"]);
    gate.git(&["branch", "-d", "trunk"]);
    assert!(
        gate.git(&["branch", "--list"]).trim().ends_with("main"),
        "{}",
        gate.git(&["branch", "--list"])
    );

    // A feature branch made an alias of another feature branch, then an ordinary branch.
    gate.git(&["branch", "feature"]);
    gate.git(&["symbolic-ref", "refs/heads/topic", "refs/heads/feature"]);
    gate.git(&["update-ref", "--no-deref", "refs/heads/topic", "main"]);
    gate.git(&["branch", "-D", "topic"]);
    gate.git(&["branch", "-m", "feature", "feature-2"]);
    gate.git(&["branch", "-D", "feature-2"]);
}

/// A protected branch never becomes an alias of a branch of another environment, nor of a
/// reference outside `refs/heads/`: it would gain their commits without being judged.
fn protected_branches_do_not_alias_other_environments(gate: &Gate) {
    gate.git(&["branch", "feature"]);
    let output = git_at(
        &gate.root,
        HUMAN,
        &[
            "symbolic-ref",
            "refs/heads/release/1.0",
            "refs/heads/feature",
        ],
    );
    let text = stderr(&output);
    assert_ne!(output.status.code(), Some(0), "{text}");
    assert!(
        text.contains("fatal: ref updates aborted by hook"),
        "{text}"
    );
    assert!(
        text.contains("`release/1.0` targets `production` but would point at `feature`, which targets `development`"),
        "{text}"
    );
    let output = git_at(
        &gate.root,
        HUMAN,
        &["symbolic-ref", "refs/heads/release/2.0", "refs/tags/v1"],
    );
    assert_ne!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("which is not a local branch"),
        "{}",
        stderr(&output)
    );
    // The same environment is fine: `master` and `main` are both production.
    gate.git(&["symbolic-ref", "refs/heads/master", "refs/heads/main"]);
    let branches = gate.git(&["for-each-ref", "--format=%(refname)", "refs/heads/"]);
    assert!(!branches.contains("release/"), "{branches}");
}

#[test]
fn symbolic_branches_are_created_committed_through_and_removed() {
    let gate = Gate::new();
    symbolic_branches_work(&gate);
    protected_branches_do_not_alias_other_environments(&Gate::new());
}

#[test]
fn symbolic_branches_in_a_reftable_repository() {
    let gate = Gate::with_init(&["--ref-format=reftable"], Some(crate::gate::POLICY));
    symbolic_branches_work(&gate);
    protected_branches_do_not_alias_other_environments(&Gate::with_init(
        &["--ref-format=reftable"],
        Some(crate::gate::POLICY),
    ));
}

/// `git clone` with `--template` holding the hooks `astrix install` wrote: git runs the
/// backstop while the clone's `HEAD` still holds the placeholder `refs/heads/.invalid`.
#[test]
fn clones_take_the_hooks_from_a_template() {
    let origin = Gate::new();
    origin.git(&["branch", "develop"]);
    let template = origin.temp().join("template");
    fs::create_dir_all(template.join("hooks")).unwrap();
    for hook in [
        "pre-commit",
        "prepare-commit-msg",
        "commit-msg",
        "reference-transaction",
    ] {
        fs::copy(
            origin.root.join(".git/hooks").join(hook),
            template.join("hooks").join(hook),
        )
        .unwrap();
    }
    let template_arg = format!("--template={}", template.display());
    let source = origin.root.display().to_string();
    let clone = |name: &str, extra: &[&str]| -> std::path::PathBuf {
        let mut args = vec!["clone", "-q", template_arg.as_str()];
        args.extend_from_slice(extra);
        args.push(source.as_str());
        args.push(name);
        let output = git_at(origin.temp(), HUMAN, &args);
        assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
        origin.temp().join(name)
    };
    for (name, extra) in [
        ("bare.git", &["--bare"][..]),
        ("mirror.git", &["--mirror"][..]),
        (
            "reftable-bare.git",
            &["--bare", "--ref-format=reftable"][..],
        ),
    ] {
        let dir = clone(name, extra);
        assert!(dir.join("hooks/reference-transaction").exists(), "{name}");
        let branches = git_at(&dir, HUMAN, &["branch", "--list"]);
        assert!(
            String::from_utf8_lossy(&branches.stdout).contains("develop"),
            "{name}"
        );
    }
    // A work-tree clone, in both formats: humans commit, an agent's test change is held.
    for (name, extra) in [
        ("work", &[][..]),
        ("work-reftable", &["--ref-format=reftable"][..]),
    ] {
        let dir = clone(name, extra);
        assert_clone_is_gated(&dir);
    }
}

fn assert_clone_is_gated(dir: &Path) {
    fs::write(dir.join("README.md"), "changed in the clone\n").unwrap();
    git_at(dir, HUMAN, &["add", "README.md"]);
    let output = commit_at(dir, HUMAN, &["-m", "human"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    git_at(dir, HUMAN, &["switch", "-q", "-c", "feature"]);
    fs::write(dir.join("tests/t.rs"), "#[test]\nfn two() {}\n").unwrap();
    git_at(dir, HUMAN, &["add", "tests/t.rs"]);
    let output = commit_at(dir, AGENT, &["--no-verify", "-m", "agent"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(128), "{text}");
    assert!(text.contains(HELD), "{text}");
}

/// A tree whose subtree mode is written `040000` (old git, other tools; `git fsck` warns
/// `zeroPaddedFilemode`) hashes to another id than the same entries written canonically.
/// After `git read-tree` of such a commit the index's cache tree names it, and git commits
/// it: the change is judged, not called damage.
#[test]
fn a_tree_with_zero_padded_modes_is_read_as_git_reads_it() {
    // No committed policy: the padded tree below leaves only `src/`, and deleting a policy
    // would be held.
    let gate = Gate::with_policy(None);
    let blob = gate
        .git(&["rev-parse", "HEAD:src/lib.rs"])
        .trim()
        .to_owned();
    let hex = |id: &str| -> Vec<u8> {
        (0..id.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&id[i..i + 2], 16).unwrap())
            .collect()
    };
    let hash_tree = |content: Vec<u8>| -> String {
        let mut command = isolated("git", &gate.root);
        command.args(["hash-object", "-t", "tree", "-w", "--literally", "--stdin"]);
        let output = crate::common::output_with_stdin(command, &content);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    };
    let mut sub = b"100644 lib.rs\0".to_vec();
    sub.extend(hex(&blob));
    let sub = hash_tree(sub);
    let mut root = b"040000 src\0".to_vec();
    root.extend(hex(&sub));
    let root = hash_tree(root);
    let commit = gate.git(&["commit-tree", "-m", "padded", &root]);
    let commit = commit.trim();
    // git accepts it, with a warning.
    let fsck = git_at(&gate.root, HUMAN, &["fsck", "--no-dangling"]);
    assert!(fsck.status.success(), "{}", stderr(&fsck));
    assert!(
        stderr(&fsck).contains("zeroPaddedFilemode"),
        "{}",
        stderr(&fsck)
    );

    // The index now holds only `src/lib.rs`, and its cache tree names the padded tree.
    gate.git(&["read-tree", commit]);
    assert_eq!(gate.git(&["write-tree"]).trim(), root);
    let intent = gate.intent(HUMAN);
    let files = intent["modified_files"].as_array().unwrap();
    assert!(files.iter().any(|file| file == "README.md"), "{intent}");
    assert!(!files.iter().any(|file| file == "src/lib.rs"), "{intent}");
    let check = gate.astrix(HUMAN, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));

    // Committed, the padded tree is HEAD's, and changes on top of it are judged as usual.
    let before = gate.head();
    let output = gate.commit(HUMAN, &["-m", "padded"]);
    assert_committed(&gate, &output, &before);
    assert_eq!(gate.rev("HEAD^{tree}"), root);
    gate.write("src/lib.rs", "pub fn one() -> u32 {\n    5\n}\n");
    gate.git(&["add", "src/lib.rs"]);
    let intent = gate.intent(HUMAN);
    assert_eq!(intent["modified_files"], serde_json::json!(["src/lib.rs"]));
    assert_eq!(intent["diff"]["lines_added"], 1, "{intent}");
}

/// A loose reference that does not decode is ignored, as git ignores it ("ignoring broken
/// ref"), also while HEAD is unborn, when astrix lists every reference to tell a first
/// commit from an orphan branch (git's t1400-update-ref test 30).
#[test]
fn a_broken_reference_is_ignored_as_git_ignores_it() {
    let gate = Gate::with_policy(None);
    gate.git(&["switch", "-q", "--orphan", "fresh"]);
    fs::write(gate.root.join(".git/refs/heads/bad"), "").unwrap();
    gate.git(&["symbolic-ref", "refs/heads/ref-to-bad", "refs/heads/bad"]);
    gate.write("a.txt", "a\n");
    gate.git(&["add", "a.txt"]);
    let output = gate.commit(HUMAN, &["-m", "first on fresh"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(gate.git(&["rev-list", "--count", "fresh"]).trim(), "1");
}
