//! The branch rule end to end: a branch only gains commits that something vouches for —
//! its old tip, another local branch (for a feature branch), a branch of its own environment
//! or a commit judged for it (for a protected branch) — whatever git command moves it. Each
//! test plays an agent (`CLAUDECODE=1`) with ordinary git commands against the hooks that
//! `astrix install` writes, and checks where the branches point afterwards, not only what
//! was printed.

use std::process::Output;

use crate::gate::{AGENT, Env, Gate, HUMAN, approve_at, git_at, stderr, stdout};

const STOPPED: &str = "astrix: the reference-transaction hook stopped the update of branch";

fn run(gate: &Gate, env: Env, args: &[&str]) -> Output {
    git_at(&gate.root, env, args)
}

#[track_caller]
fn ok(output: &Output) {
    assert!(
        output.status.success(),
        "{}{}",
        stdout(output),
        stderr(output)
    );
}

/// An update the backstop refused: git failed, and the report names `what`.
#[track_caller]
fn refused(output: &Output, what: &str) {
    let text = stderr(output);
    assert!(!output.status.success(), "{text}");
    assert!(text.contains(STOPPED), "{text}");
    assert!(text.contains(what), "{text}");
}

/// The commit a branch points at, `None` when it does not exist.
fn tip(gate: &Gate, branch: &str) -> Option<String> {
    let output = run(
        gate,
        HUMAN,
        &[
            "rev-parse",
            "--verify",
            "-q",
            &format!("refs/heads/{branch}"),
        ],
    );
    output
        .status
        .success()
        .then(|| stdout(&output).trim().to_owned())
}

/// Puts the work tree back after a refused command: whatever git left in progress is
/// aborted, and `branch` is checked out clean at `at`.
fn restore(gate: &Gate, branch: &str, at: &str) {
    for abort in [
        &["rebase", "--abort"][..],
        &["merge", "--abort"],
        &["cherry-pick", "--abort"],
    ] {
        let _ = run(gate, HUMAN, abort);
    }
    ok(&run(gate, HUMAN, &["switch", "-q", "-f", branch]));
    ok(&run(gate, HUMAN, &["reset", "-q", "--hard", at]));
}

/// A test weakened by an agent: held by `agents-touching-tests` on any branch.
fn weaken_tests(gate: &Gate) {
    gate.write("tests/t.rs", "#[test]\nfn one() {}\n");
    ok(&run(gate, HUMAN, &["add", "tests/t.rs"]));
}

/// Every way of moving a feature branch onto `sneaky` (held content on no branch): each is
/// refused, and no branch points at it afterwards.
fn assert_lands_nowhere(gate: &Gate, sneaky: &str) {
    let feature = tip(gate, "feature").unwrap();
    // With `feature` not checked out.
    ok(&run(gate, AGENT, &["switch", "-q", "--detach", &feature]));
    for args in [
        &["switch", "-c", "x", sneaky][..],
        &["branch", "x", sneaky],
        &["branch", "-f", "feature", sneaky],
        &["update-ref", "refs/heads/feature", sneaky],
        &["update-ref", "refs/heads/x", sneaky],
        &["push", ".", &format!("{sneaky}:refs/heads/x")],
        &["fetch", ".", &format!("{sneaky}:refs/heads/x")],
    ] {
        let output = run(gate, AGENT, args);
        refused(&output, "[agents-touching-tests]");
        assert_eq!(
            tip(gate, "feature").as_deref(),
            Some(feature.as_str()),
            "{args:?}"
        );
        assert_eq!(tip(gate, "x"), None, "{args:?}");
        restore(gate, "feature", &feature);
        ok(&run(gate, AGENT, &["switch", "-q", "--detach", &feature]));
    }
    // With `feature` checked out.
    restore(gate, "feature", &feature);
    let merge = gate
        .git(&["rev-list", "--parents", "-n1", sneaky])
        .split(' ')
        .count()
        > 2;
    let pick: &[&str] = if merge {
        &["cherry-pick", "-m", "1", sneaky]
    } else {
        &["cherry-pick", sneaky]
    };
    for args in [
        &["merge", "--ff-only", sneaky][..],
        &["merge", "--no-ff", "--no-edit", sneaky],
        &["reset", "--hard", sneaky],
        &["reset", "--soft", sneaky],
        &["rebase", sneaky],
        pick,
    ] {
        let output = run(gate, AGENT, args);
        refused(&output, "[agents-touching-tests]");
        assert_eq!(
            tip(gate, "feature").as_deref(),
            Some(feature.as_str()),
            "{args:?}"
        );
        restore(gate, "feature", &feature);
    }
}

/// A gate on a feature branch with one commit of the agent's on it.
fn feature_gate() -> Gate {
    let gate = Gate::new();
    ok(&run(&gate, AGENT, &["switch", "-q", "-c", "feature"]));
    gate.write("src/feature.rs", "pub fn feature() {}\n");
    ok(&run(&gate, AGENT, &["add", "-A"]));
    ok(&gate.commit(AGENT, &["-m", "feature work"]));
    gate
}

#[test]
fn commits_made_on_a_detached_head_reach_no_branch_unjudged() {
    let gate = feature_gate();
    ok(&run(&gate, AGENT, &["switch", "-q", "--detach"]));
    weaken_tests(&gate);
    // No branch moves, so nothing stops the commit itself.
    ok(&gate.commit(AGENT, &["--no-verify", "-m", "weaken"]));
    let sneaky = gate.head();
    let output = run(&gate, AGENT, &["switch", "-c", "x"]);
    refused(&output, "[agents-touching-tests]");
    let text = stderr(&output);
    assert!(
        text.contains("\"weaken\", on no branch or other reference"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "run `astrix approve --branch x --tip {}`",
            &sneaky[..12]
        )),
        "{text}"
    );
    assert_lands_nowhere(&gate, &sneaky);
}

#[test]
fn commits_made_by_commit_tree_reach_no_branch_unjudged() {
    let gate = feature_gate();
    weaken_tests(&gate);
    let tree = gate.git(&["write-tree"]).trim().to_owned();
    let sneaky = gate
        .git(&["commit-tree", "-p", "HEAD", "-m", "weaken", &tree])
        .trim()
        .to_owned();
    ok(&run(&gate, HUMAN, &["reset", "-q", "--hard"]));
    assert_lands_nowhere(&gate, &sneaky);
}

#[test]
fn a_stash_reaches_no_branch_unjudged() {
    let gate = feature_gate();
    weaken_tests(&gate);
    ok(&run(&gate, AGENT, &["stash", "-q"]));
    let feature = tip(&gate, "feature").unwrap();
    let output = run(&gate, AGENT, &["merge", "--ff-only", "stash"]);
    refused(&output, "[agents-touching-tests]");
    assert!(
        stderr(&output).contains("on `refs/stash`"),
        "{}",
        stderr(&output)
    );
    assert_eq!(tip(&gate, "feature"), Some(feature.clone()));
    restore(&gate, "feature", &feature);
    let stash = gate.rev("stash");
    assert_lands_nowhere(&gate, &stash);
    // Popping it is the ordinary way: the change is staged again, and judged as a commit.
    ok(&run(&gate, AGENT, &["stash", "pop", "-q", "--index"]));
    let output = gate.commit(AGENT, &["-m", "weaken"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("[agents-touching-tests]"));
}

#[test]
fn commits_made_inside_a_rebase_are_judged_when_the_branch_takes_them() {
    let gate = feature_gate();
    let feature = tip(&gate, "feature").unwrap();
    // An `edit` stop: the agent amends the stopped commit without pre-commit.
    let output = git_at(
        &gate.root,
        &[
            ("CLAUDECODE", "1"),
            ("GIT_SEQUENCE_EDITOR", "sed -i 1s/^pick/edit/"),
        ],
        &["rebase", "-i", "main"],
    );
    ok(&output);
    weaken_tests(&gate);
    ok(&gate.commit(AGENT, &["--amend", "--no-edit", "--no-verify"]));
    let output = run(&gate, AGENT, &["rebase", "--continue"]);
    refused(&output, "[agents-touching-tests]");
    assert!(
        stderr(&output).contains("then run `git rebase --continue` again"),
        "{}",
        stderr(&output)
    );
    assert_eq!(tip(&gate, "feature"), Some(feature.clone()));
    restore(&gate, "feature", &feature);

    // A commit added by `--exec`.
    let output = run(
        &gate,
        AGENT,
        &[
            "rebase",
            "--exec",
            "printf '#[test]\\nfn two() {}\\n' >> tests/t.rs && git commit -qam more --no-verify",
            "main",
        ],
    );
    refused(&output, "[agents-touching-tests]");
    assert_eq!(tip(&gate, "feature"), Some(feature.clone()));
    restore(&gate, "feature", &feature);

    // A rebase that only moves the branch's own commits costs nothing.
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    gate.write("README.md", "main moves on\n");
    ok(&run(&gate, HUMAN, &["add", "README.md"]));
    ok(&gate.commit(HUMAN, &["-m", "main moves on"]));
    ok(&run(&gate, AGENT, &["switch", "-q", "feature"]));
    ok(&run(&gate, AGENT, &["rebase", "-q", "main"]));
    assert_eq!(gate.rev("feature^"), gate.rev("main"));
}

#[test]
fn commits_that_pass_one_by_one_are_judged_as_one_change_too() {
    let gate = feature_gate();
    let feature = tip(&gate, "feature").unwrap();
    ok(&run(&gate, AGENT, &["switch", "-q", "--detach"]));
    // Two commits of 15 lines: each within `lines_changed <= 20`, not both.
    for part in ["a", "b"] {
        let text = (0..15).fold(String::new(), |mut text, n| {
            text.push_str(&format!("pub const {part}{n}: u8 = {n};\n"));
            text
        });
        gate.write(&format!("src/{part}.rs"), text);
        ok(&run(&gate, AGENT, &["add", "-A"]));
        ok(&gate.commit(AGENT, &["-m", part]));
    }
    let sneaky = gate.head();
    ok(&run(&gate, AGENT, &["switch", "-q", "feature"]));
    let output = run(&gate, AGENT, &["merge", "--ff-only", &sneaky]);
    refused(&output, "(the commits it would gain, as one change)");
    assert!(
        stderr(&output).contains("lines_changed is 30"),
        "{}",
        stderr(&output)
    );
    assert_eq!(tip(&gate, "feature"), Some(feature.clone()));
    restore(&gate, "feature", &feature);
    // A human approves what the move brings; the same merge then goes through.
    let approval = approve_at(
        &gate.root,
        &["--branch", "feature", "--tip", &sneaky],
        "y\n",
    );
    let shown = stdout(&approval);
    assert_eq!(approval.status.code(), Some(0), "{shown}");
    assert!(shown.contains("the 2 commits as one change"), "{shown}");
    ok(&run(&gate, AGENT, &["merge", "-q", "--ff-only", &sneaky]));
    assert_eq!(tip(&gate, "feature"), Some(sneaky));
}

#[test]
fn an_agent_cannot_put_its_commits_on_a_production_branch() {
    let gate = feature_gate();
    let main = tip(&gate, "main").unwrap();
    let feature = tip(&gate, "feature").unwrap();
    for args in [
        &["branch", "-f", "main", "feature"][..],
        &["update-ref", "refs/heads/main", "feature"],
        &["branch", "release/1.0", "feature"],
        &["switch", "-c", "release/1.0"],
        &["checkout", "-b", "release/1.0", "feature"],
        &["push", ".", "feature:main"],
        &["fetch", ".", "feature:release/1.0"],
    ] {
        let output = run(&gate, AGENT, args);
        refused(&output, "[agents-off-production]");
        assert_eq!(
            tip(&gate, "main").as_deref(),
            Some(main.as_str()),
            "{args:?}"
        );
        assert_eq!(tip(&gate, "release/1.0"), None, "{args:?}");
        restore(&gate, "feature", &feature);
    }
    // From main itself.
    ok(&run(&gate, AGENT, &["switch", "-q", "main"]));
    for args in [
        &["merge", "--ff-only", "feature"][..],
        &["merge", "--no-ff", "--no-edit", "feature"],
        &["reset", "--hard", "feature"],
        &["rebase", "feature"],
        &["cherry-pick", "feature"],
        &["pull", "--ff-only", ".", "feature"],
    ] {
        let output = run(&gate, AGENT, args);
        refused(&output, "[agents-off-production]");
        assert_eq!(
            tip(&gate, "main").as_deref(),
            Some(main.as_str()),
            "{args:?}"
        );
        restore(&gate, "main", &main);
    }
    // Deleting main to make it again, or renaming over it, starts with a deletion.
    ok(&run(&gate, AGENT, &["switch", "-q", "feature"]));
    for args in [
        &["branch", "-D", "main"][..],
        &["branch", "-M", "other", "main"],
        &["update-ref", "-d", "refs/heads/main"],
    ] {
        if args[1] == "-M" {
            ok(&run(&gate, AGENT, &["branch", "other"]));
        }
        let output = run(&gate, AGENT, args);
        refused(&output, "(an agent deletes a protected branch)");
        assert_eq!(
            tip(&gate, "main").as_deref(),
            Some(main.as_str()),
            "{args:?}"
        );
    }
    // A person may.
    ok(&run(&gate, HUMAN, &["branch", "-D", "main"]));
    // And a branch made again is judged as a new one: it gains all it has.
    let output = run(&gate, AGENT, &["branch", "main", "feature"]);
    refused(&output, "[agents-off-production]");
    assert_eq!(tip(&gate, "main"), None);
}

#[test]
fn a_protected_branch_that_moved_unseen_blocks_the_next_update() {
    let gate = feature_gate();
    let main = tip(&gate, "main").unwrap();
    // `git branch -c` and `-m` show the hook nothing, or a deletion, never what they write.
    for (args, branch) in [
        (&["branch", "-c", "feature", "release/2"][..], "release/2"),
        (&["branch", "-m", "feature", "release/3"], "release/3"),
    ] {
        ok(&run(&gate, AGENT, args));
        // The next update of any branch, by anyone, is blocked and says what to do.
        let output = run(&gate, AGENT, &["switch", "-q", "-c", "next", "main"]);
        refused(
            &output,
            "(a protected branch moved where the hook does not see)",
        );
        let text = stderr(&output);
        assert!(
            text.contains(&format!("`{branch}` targets `production`")),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "the last tip recorded for `production` is `{}`",
                &main[..12]
            )),
            "{text}"
        );
        assert_eq!(tip(&gate, "next"), None);
        let output = run(&gate, HUMAN, &["branch", "unrelated"]);
        refused(
            &output,
            "(a protected branch moved where the hook does not see)",
        );
        // Pointing it back at a judged tip, or deleting it, lets work go on.
        if branch == "release/2" {
            ok(&run(&gate, HUMAN, &["branch", "-f", branch, &main]));
        } else {
            ok(&run(&gate, HUMAN, &["branch", "-m", branch, "feature"]));
        }
        ok(&run(&gate, HUMAN, &["branch", "unrelated"]));
        ok(&run(&gate, HUMAN, &["branch", "-D", "unrelated"]));
    }
    // The same for a commit made with the hooks switched off.
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    gate.write("README.md", "unseen\n");
    ok(&run(
        &gate,
        AGENT,
        &["-c", "core.hooksPath=/dev/null", "commit", "-qam", "unseen"],
    ));
    let output = run(&gate, AGENT, &["branch", "more"]);
    refused(&output, "`main` targets `production` and points at");
}

#[test]
fn a_symbolic_branch_may_not_alias_another_environment() {
    let gate = feature_gate();
    let output = run(
        &gate,
        AGENT,
        &["symbolic-ref", "refs/heads/release/x", "refs/heads/feature"],
    );
    refused(&output, "(a symbolic reference)");
    let output = run(
        &gate,
        AGENT,
        &["symbolic-ref", "refs/heads/main", "refs/heads/feature"],
    );
    refused(&output, "(a symbolic reference)");
    // An alias of a feature branch, or of main under another name, is fine.
    ok(&run(
        &gate,
        AGENT,
        &["symbolic-ref", "refs/heads/trunk", "refs/heads/main"],
    ));
}

#[test]
fn an_orphan_branch_takes_the_local_default_branch_policy_not_origin_head() {
    let gate = feature_gate();
    // A laxer policy on a remote-tracking ref, with origin/HEAD pointed at it.
    ok(&run(&gate, HUMAN, &["switch", "-q", "-c", "lax", "main"]));
    gate.write("Astrixfile.ax", "version = 1\ndefault = \"allow\"\n");
    gate.setup_commit("lax");
    let lax = gate.head();
    ok(&run(&gate, HUMAN, &["switch", "-q", "feature"]));
    ok(&run(&gate, HUMAN, &["branch", "-D", "lax"]));
    ok(&run(
        &gate,
        AGENT,
        &["update-ref", "refs/remotes/origin/lax", &lax],
    ));
    ok(&run(
        &gate,
        AGENT,
        &[
            "symbolic-ref",
            "refs/remotes/origin/HEAD",
            "refs/remotes/origin/lax",
        ],
    ));
    ok(&run(&gate, AGENT, &["switch", "-q", "--orphan", "orphan"]));
    weaken_tests(&gate);
    for args in [&["-m", "orphan"][..], &["--no-verify", "-m", "orphan"]] {
        let output = gate.commit(AGENT, args);
        let text = stderr(&output);
        assert!(!output.status.success(), "{text}");
        assert!(text.contains("[agents-touching-tests]"), "{text}");
        assert!(text.contains("of the default branch `main`"), "{text}");
    }
    assert_eq!(tip(&gate, "orphan"), None);
}

/// What people do every day passes without a prompt, and so does an agent's work on
/// feature branches.
#[test]
fn everyday_work_passes() {
    for actor in [HUMAN, AGENT] {
        let gate = Gate::new();
        let git = |args: &[&str]| ok(&run(&gate, actor, args));
        let commit = |path: &str, text: &str, message: &str| {
            gate.write(path, text);
            ok(&run(&gate, actor, &["add", "-A"]));
            ok(&gate.commit(actor, &["-m", message]));
        };
        git(&["switch", "-q", "-c", "topic"]);
        commit("src/a.rs", "pub fn a() {}\n", "a");
        commit("src/b.rs", "pub fn b() {}\n", "b");
        // main moves on (a person's commit).
        ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
        gate.write("README.md", "news\n");
        ok(&run(&gate, HUMAN, &["add", "-A"]));
        ok(&gate.commit(HUMAN, &["-m", "news"]));
        git(&["switch", "-q", "topic"]);
        git(&["rebase", "-q", "main"]);
        git(&["rebase", "-q", "--exec", "true", "main"]);
        // Interactive: reorder the two commits.
        ok(&git_at(
            &gate.root,
            &[
                actor,
                &[("GIT_SEQUENCE_EDITOR", "sed -i -e '1{h;d}' -e '2G'")],
            ]
            .concat(),
            &["rebase", "-q", "-i", "main"],
        ));
        // Autosquash a fixup.
        commit("src/a.rs", "pub fn a() -> u8 { 1 }\n", "fixup! a");
        ok(&git_at(
            &gate.root,
            &[actor, &[("GIT_SEQUENCE_EDITOR", "true")]].concat(),
            &["rebase", "-q", "-i", "--autosquash", "main"],
        ));
        assert_eq!(
            gate.git(&["log", "--format=%s", "main..topic"])
                .lines()
                .count(),
            2
        );
        // Another topic, cherry-picked and merged.
        git(&["switch", "-q", "-c", "other", "main"]);
        commit("src/c.rs", "pub fn c() {}\n", "c");
        commit("src/d.rs", "pub fn d() {}\n", "d");
        git(&["switch", "-q", "topic"]);
        git(&["cherry-pick", "other~1"]);
        git(&["merge", "-q", "--no-edit", "other"]);
        git(&["merge", "-q", "--no-edit", "main"]);
        // Stash and pop.
        gate.write("src/a.rs", "pub fn a() -> u8 { 2 }\n");
        git(&["stash", "-q"]);
        git(&["stash", "pop", "-q"]);
        git(&["commit", "-qam", "a again"]);
        // Branches made, renamed, copied and deleted.
        git(&["branch", "spare"]);
        git(&["branch", "-m", "spare", "spare2"]);
        git(&["branch", "-c", "spare2", "spare3"]);
        git(&["branch", "-D", "spare2", "spare3"]);
        git(&["switch", "-q", "-c", "from-main", "main"]);
        git(&["switch", "-q", "topic"]);
        // A linked worktree.
        let tree = gate.temp().join("wt");
        git(&[
            "worktree",
            "add",
            "-q",
            "-b",
            "wt-topic",
            tree.to_str().unwrap(),
            "topic",
        ]);
        std::fs::write(tree.join("src/wt.rs"), "pub fn wt() {}\n").unwrap();
        ok(&git_at(&tree, actor, &["add", "-A"]));
        ok(&git_at(&tree, actor, &["commit", "-qm", "in a worktree"]));
        git(&["merge", "-q", "--ff-only", "wt-topic"]);
        git(&["worktree", "remove", tree.to_str().unwrap()]);
        let log = gate.log();
        assert!(
            log.iter().all(|entry| entry["decision"] == "allow"),
            "{log:#?}"
        );
    }
}

/// A person's `git pull` of a production branch brings what others made, and works; an
/// agent's is judged as the agent's change to production.
#[test]
fn pulling_a_production_branch() {
    let origin = Gate::new();
    let clone_dir = origin.temp().join("clone");
    ok(&git_at(
        origin.temp(),
        HUMAN,
        &[
            "clone",
            "-q",
            origin.root.to_str().unwrap(),
            clone_dir.to_str().unwrap(),
        ],
    ));
    let install = crate::gate::astrix_at(&clone_dir, HUMAN)
        .arg("install")
        .output()
        .unwrap();
    ok(&install);
    // Others move main on, with a commit the policy holds for anyone (an agent's tests).
    origin.write("tests/t.rs", "#[test]\nfn upstream() {}\n");
    ok(&git_at(&origin.root, HUMAN, &["add", "-A"]));
    ok(&origin.commit(HUMAN, &["-m", "upstream tests"]));
    let upstream = origin.head();
    let output = git_at(&clone_dir, AGENT, &["pull", "-q", "--ff-only"]);
    let text = stderr(&output);
    assert!(!output.status.success(), "{text}");
    assert!(text.contains("[agents-off-production]"), "{text}");
    ok(&git_at(&clone_dir, HUMAN, &["reset", "-q", "--hard"]));
    ok(&git_at(&clone_dir, HUMAN, &["pull", "-q", "--ff-only"]));
    let head = git_at(&clone_dir, HUMAN, &["rev-parse", "HEAD"]);
    assert_eq!(stdout(&head).trim(), upstream);
}

/// In a reftable repository git shows the hook nothing at all for `git branch -m`, `-M` or
/// `-c`: renaming over a production branch is seen at the next update, which it blocks.
#[test]
fn reftable_renames_are_caught_at_the_next_update() {
    let gate = Gate::with_init(&["--ref-format=reftable"], Some(crate::gate::POLICY));
    ok(&run(&gate, AGENT, &["switch", "-q", "-c", "feature"]));
    gate.write("src/feature.rs", "pub fn feature() {}\n");
    ok(&run(&gate, AGENT, &["add", "-A"]));
    ok(&gate.commit(AGENT, &["-m", "feature work"]));
    let main = tip(&gate, "main").unwrap();
    ok(&run(&gate, AGENT, &["switch", "-q", "--detach"]));
    ok(&run(&gate, AGENT, &["branch", "-M", "feature", "main"]));
    let output = run(&gate, AGENT, &["switch", "-q", "-c", "next"]);
    refused(&output, "`main` targets `production` and points at");
    // Detached commits are judged there as anywhere.
    weaken_tests(&gate);
    ok(&gate.commit(AGENT, &["--no-verify", "-m", "weaken"]));
    ok(&run(&gate, HUMAN, &["branch", "-f", "main", &main]));
    let output = run(&gate, AGENT, &["switch", "-c", "x"]);
    refused(&output, "[agents-touching-tests]");
    assert_eq!(tip(&gate, "x"), None);
}
