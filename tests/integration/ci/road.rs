//! The pull-request road end to end, as a user and an agent walk it: a bare origin, a
//! developer's clone with astrix's hooks, and a fresh clone per CI run that fetches what
//! `actions/checkout` fetches (every branch and tag, `fetch-depth: 0`). An agent's feature
//! branch is held as a merge into `main` and passes with `--approved`; a human's passes; an
//! agent's commit pushed straight to `main` is denied; and each way of talking CI around
//! (issue #16) is held or denied.

#![expect(
    clippy::too_many_lines,
    reason = "each test walks one road from the developer's clone to the CI clone, top to bottom"
)]

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Output;

use super::{render, stderr, stdout};
use crate::common::{ASTRIX, regex_escape, settings};
use crate::repo::TestRepo;

/// The default policy, committed, plus what some tests add.
const DEFAULT: &str = astrix::policy::DEFAULT_POLICY;

/// An agent's marker: Claude Code sets it in the shells it starts.
const AGENT: &[(&str, &str)] = &[("CLAUDECODE", "1")];

/// A bare origin, a developer's clone with the hooks installed, and CI clones.
struct Road {
    dev: TestRepo,
    origin: PathBuf,
    clones: std::cell::Cell<usize>,
}

impl Road {
    /// `main` with `policy` committed (by a human) and pushed, and astrix's hooks installed.
    fn new(policy: Option<&str>) -> Self {
        let dev = TestRepo::new();
        let origin = dev.path().parent().unwrap().join("origin.git");
        let origin_path = origin.display().to_string();
        dev.git(&["init", "-q", "--bare", "-b", "main", &origin_path]);
        dev.git(&["remote", "add", "origin", &origin_path]);
        if let Some(policy) = policy {
            dev.write("Astrixfile.ax", policy);
        }
        dev.write("README.md", "hello\n");
        dev.write("src/lib.rs", "pub fn answer() -> u32 {\n    42\n}\n");
        dev.write("deploy/prod.yml", "replicas: 1\n");
        dev.commit_all("Start");
        dev.git(&["push", "-q", "origin", "main"]);
        let output = dev.command(ASTRIX).arg("install").output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", render(&output));
        Self {
            dev,
            origin,
            clones: std::cell::Cell::new(0),
        }
    }

    /// Writes `files`, stages everything and commits with `git commit -m` under `env`
    /// (the hooks run); returns the commit id.
    fn commit(&self, env: &[(&str, &str)], files: &[(&str, &str)], message: &str) -> String {
        for (path, contents) in files {
            self.dev.write(path, contents);
        }
        self.dev.git(&["add", "-A"]);
        self.dev
            .git_in(self.dev.path(), env, &["commit", "-q", "-m", message]);
        self.dev.rev_parse("HEAD")
    }

    /// Like [`Self::commit`] with the hooks off: what a human commits after approving it
    /// locally (`astrix approve` needs a terminal), or what a cloud agent commits where no
    /// hook runs (its message then says who it is).
    fn commit_unhooked(&self, files: &[(&str, &str)], message: &str) -> String {
        for (path, contents) in files {
            self.dev.write(path, contents);
        }
        self.dev.git(&["add", "-A"]);
        self.dev.git(&[
            "-c",
            "core.hooksPath=/dev/null",
            "commit",
            "-q",
            "-m",
            message,
        ]);
        self.dev.rev_parse("HEAD")
    }

    fn git(&self, args: &[&str]) -> String {
        self.dev.git(args)
    }

    /// A fresh clone of the origin, as `actions/checkout` with `fetch-depth: 0` leaves it:
    /// every branch as `refs/remotes/origin/*`, every tag, and `checkout` (a commit, checked
    /// out detached; or a branch, checked out as a local branch).
    fn ci_clone(&self, checkout: &str) -> PathBuf {
        let n = self.clones.get() + 1;
        self.clones.set(n);
        let dir = self.dev.path().parent().unwrap().join(format!("ci-{n}"));
        let dir_path = dir.display().to_string();
        let origin = self.origin.display().to_string();
        let root = self.dev.path().parent().unwrap();
        self.dev.git_in(root, &[], &["init", "-q", &dir_path]);
        self.dev
            .git_in(&dir, &[], &["remote", "add", "origin", &origin]);
        self.dev.git_in(
            &dir,
            &[],
            &[
                "fetch",
                "-q",
                "--tags",
                "origin",
                "+refs/heads/*:refs/remotes/origin/*",
                "+refs/pull/*:refs/remotes/pull/*",
            ],
        );
        let is_branch = self
            .dev
            .git_output_in(
                &dir,
                &[],
                &[
                    "rev-parse",
                    "--verify",
                    "-q",
                    &format!("refs/remotes/origin/{checkout}"),
                ],
            )
            .status
            .success();
        if is_branch {
            self.dev.git_in(
                &dir,
                &[],
                &[
                    "checkout",
                    "-q",
                    "-B",
                    checkout,
                    &format!("refs/remotes/origin/{checkout}"),
                ],
            );
        } else {
            self.dev
                .git_in(&dir, &[], &["checkout", "-q", "--detach", checkout]);
        }
        dir
    }

    /// `astrix ci` in `clone` with `args` and `env`.
    fn ci(&self, clone: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut command = self.dev.command(ASTRIX);
        command.current_dir(clone).arg("ci").args(args);
        for (name, value) in env {
            command.env(name, value);
        }
        command.output().unwrap()
    }

    /// What GitHub sets for a pull request from `head` into `main`.
    fn pull_request(head: &'static str) -> [(&'static str, &'static str); 2] {
        [("GITHUB_BASE_REF", "main"), ("GITHUB_HEAD_REF", head)]
    }

    fn message(&self, rev: &str) -> String {
        self.dev.git(&["log", "-1", "--format=%B", rev])
    }

    fn snapshot(&self, name: &str, output: &Output) {
        let mut settings = settings(self.dev.path().parent().unwrap());
        settings.add_filter(
            &regex_escape(&self.dev.path().display().to_string()),
            "[REPO]",
        );
        settings.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
        settings.add_filter(r"\b[0-9a-f]{12}\b", "[COMMIT]    ");
        settings.bind(|| insta::assert_snapshot!(name, render(output)));
    }
}

fn code(output: &Output) -> Option<i32> {
    output.status.code()
}

#[test]
fn an_agents_feature_branch_is_held_as_a_merge_and_passes_with_approval() {
    let road = Road::new(Some(DEFAULT));
    // The local gate: an agent's commit on main is denied, and the gate says where to go.
    road.dev
        .write("src/lib.rs", "pub fn answer() -> u32 {\n    43\n}\n");
    road.git(&["add", "-A"]);
    let denied = road
        .dev
        .git_output_in(road.dev.path(), AGENT, &["commit", "-q", "-m", "On main"]);
    assert!(!denied.status.success());
    let text = String::from_utf8_lossy(&denied.stderr);
    assert!(
        text.contains("commit on a feature branch and open a pull request"),
        "{text}"
    );
    // It does: a feature branch, committed with the hooks, no trailer typed by hand.
    road.git(&["switch", "-q", "-c", "feature"]);
    let commit = road.commit(AGENT, &[], "Answer 43");
    assert_eq!(
        road.message(&commit),
        "Answer 43\n\nAstrix-Actor: autonomous_llm (claude-code)\nAstrix-Decision: allow\n\n"
    );
    road.git(&["push", "-q", "origin", "feature"]);

    // pull_request_target: the base's workflow, the head's commits checked out detached.
    let clone = road.ci_clone(&commit);
    let env = Road::pull_request("feature");
    let output = road.ci(&clone, &["--base", "origin/main"], &env);
    assert_eq!(code(&output), Some(3), "{}", render(&output));
    road.snapshot("ci_road_agent_pull_request_held", &output);
    let json = road.ci(&clone, &["--base", "origin/main", "--format", "json"], &env);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["commits"][0]["verdict"], "allow");
    assert_eq!(
        value["commits"][0]["intent"]["target"]["env"],
        "development"
    );
    assert!(value["commits"][0]["intent"].get("action").is_none());
    assert_eq!(value["range"]["intent"]["action"], "merge");
    assert_eq!(value["range"]["intent"]["target"]["env"], "production");
    assert_eq!(
        value["range"]["deciding_rules"][0],
        "agents-merging-to-production"
    );

    // The review: an approving review by someone else, and the pipeline passes --approved.
    let output = road.ci(&clone, &["--base", "origin/main", "--approved"], &env);
    assert_eq!(code(&output), Some(0), "{}", render(&output));

    // GitHub's merge-ref checkout (`on: pull_request`) judges the same.
    road.git(&["switch", "-q", "main"]);
    road.git(&["reset", "-q", "--hard", "origin/main"]);
    road.dev.git_in(
        road.dev.path(),
        &[],
        &[
            "merge",
            "-q",
            "--no-ff",
            "--no-verify",
            "-m",
            "Merge feature",
            "feature",
        ],
    );
    road.git(&["push", "-q", "origin", "HEAD:refs/pull/1/merge"]);
    road.git(&["reset", "-q", "--hard", "origin/main"]);
    let clone = road.ci_clone("refs/remotes/pull/1/merge");
    let output = road.ci(&clone, &["--base", "origin/main"], &env);
    assert_eq!(code(&output), Some(3), "{}", render(&output));
}

#[test]
fn a_humans_feature_branch_is_allowed() {
    let road = Road::new(Some(DEFAULT));
    road.git(&["switch", "-q", "-c", "feature"]);
    let commit = road.commit(
        &[],
        &[("src/lib.rs", "pub fn answer() -> u32 {\n    7\n}\n")],
        "Seven",
    );
    assert_eq!(
        road.message(&commit),
        "Seven\n\n",
        "a human's commit gets no trailer"
    );
    road.git(&["push", "-q", "origin", "feature"]);
    let clone = road.ci_clone(&commit);
    let output = road.ci(
        &clone,
        &["--base", "origin/main"],
        &Road::pull_request("feature"),
    );
    assert_eq!(code(&output), Some(0), "{}", render(&output));
}

#[test]
fn an_agents_commit_pushed_straight_to_main_is_denied() {
    let road = Road::new(Some(DEFAULT));
    let before = road.dev.rev_parse("main");
    road.git(&["switch", "-q", "-c", "feature"]);
    road.commit(AGENT, &[("src/lib.rs", "// x\n")], "Straight to main");
    road.git(&["push", "-q", "origin", "feature:main"]);
    // A push event: actions/checkout checks the branch out; `before` is the old tip.
    let clone = road.ci_clone("main");
    let output = road.ci(&clone, &["--base", &before, "--target-branch", "main"], &[]);
    assert_eq!(code(&output), Some(1), "{}", render(&output));
    road.snapshot("ci_road_agent_push_to_main_denied", &output);

    // A cloud agent commits where no hook runs: its own identity says who it is.
    let before = road.dev.rev_parse("origin/main");
    let cloud = TestRepo::new();
    let origin = road.origin.display().to_string();
    cloud.git(&["fetch", "-q", &origin, "main"]);
    cloud.git(&["reset", "-q", "--hard", "FETCH_HEAD"]);
    cloud.write("src/cloud.rs", "// cloud\n");
    cloud.commit_all(
        "From the cloud\n\nCo-Authored-By: Claude <noreply@anthropic.com> (via Claude Code)",
    );
    cloud.git(&["push", "-q", &origin, "HEAD:main"]);
    let clone = road.ci_clone("main");
    let output = road.ci(&clone, &["--base", &before, "--target-branch", "main"], &[]);
    assert_eq!(code(&output), Some(1), "{}", render(&output));
}

/// Talked around (1): a tag, or a local branch, named `origin/main` shadows the
/// remote-tracking branch. `origin/main` means `refs/remotes/origin/main`; the range is
/// judged, and the shadowing reference is named.
#[test]
fn a_reference_shadowing_the_base_judges_nothing_less() {
    let road = Road::new(Some(DEFAULT));
    road.git(&["switch", "-q", "-c", "feature"]);
    let commit = road.commit(AGENT, &[("src/lib.rs", "// x\n")], "Agent work");
    road.git(&["push", "-q", "origin", "feature"]);
    road.git(&["tag", "origin/main", &commit]);
    road.git(&["push", "-q", "origin", "refs/tags/origin/main"]);
    let env = Road::pull_request("feature");
    let clone = road.ci_clone(&commit);
    let output = road.ci(&clone, &["--base", "origin/main"], &env);
    assert_eq!(code(&output), Some(3), "{}", render(&output));
    assert!(
        stderr(&output).contains("`refs/tags/origin/main` of the same name is ignored"),
        "{}",
        render(&output)
    );
    // A local branch of that name (what a push event's checkout of such a branch makes).
    road.dev
        .git_in(&clone, &[], &["branch", "origin/main", &commit]);
    let output = road.ci(&clone, &["--base", "origin/main"], &env);
    assert_eq!(code(&output), Some(3), "{}", render(&output));
    // A name that is not remote-qualified and means two things is an error naming both.
    road.dev
        .git_in(&clone, &[], &["branch", "main", "refs/remotes/origin/main"]);
    road.dev.git_in(&clone, &[], &["tag", "main", &commit]);
    let output = road.ci(&clone, &["--base", "main"], &env);
    assert_eq!(code(&output), Some(2), "{}", render(&output));
    let text = stderr(&output);
    assert!(
        text.contains(
            "the base `main` is ambiguous: it names `refs/tags/main` and `refs/heads/main`"
        ),
        "{text}"
    );
    // The remote-tracking branch missing, a tag of its name does not stand in for it.
    road.dev.git_in(
        &clone,
        &[],
        &["update-ref", "-d", "refs/remotes/origin/main"],
    );
    road.dev
        .git_in(&clone, &[], &["branch", "-D", "origin/main"]);
    let output = road.ci(&clone, &["--base", "origin/main"], &env);
    assert_eq!(code(&output), Some(2), "{}", render(&output));
    assert!(
        stderr(&output).contains("no remote-tracking branch `refs/remotes/origin/main`"),
        "{}",
        render(&output)
    );
}

/// Talked around (2): the policy of an old fork point. The target's policy judges.
#[test]
fn the_targets_policy_judges_not_the_fork_points() {
    // The fork point's policy is lax; main tightens it later.
    let road = Road::new(Some("version = 1\n"));
    road.git(&["switch", "-q", "-c", "feature"]);
    let commit = road.commit(
        AGENT,
        &[(".github/workflows/ci.yml", "on: push\n")],
        "Change CI",
    );
    road.git(&["push", "-q", "origin", "feature"]);
    road.git(&["switch", "-q", "main"]);
    road.commit_unhooked(&[("Astrixfile.ax", DEFAULT)], "Tighten the policy");
    road.git(&["push", "-q", "origin", "main"]);
    let clone = road.ci_clone(&commit);
    let output = road.ci(
        &clone,
        &["--base", "origin/main", "--format", "json"],
        &Road::pull_request("feature"),
    );
    assert_eq!(code(&output), Some(3), "{}", render(&output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["policy"]["source"], "target");
    assert_eq!(value["commits"][0]["deciding_rules"][0], "agents-ci-config");

    // A fork point without any policy does not fall back to the built-in default when the
    // target's is stricter.
    let strict = format!(
        "{DEFAULT}\n[[rule]]\nid = \"agents-deploy\"\nactor = [\"autonomous_llm\"]\npaths = [\"deploy/**\"]\ndecision = \"deny\"\nreason = \"agents do not touch deployment\"\n"
    );
    let road = Road::new(None);
    road.git(&["switch", "-q", "-c", "feature"]);
    let commit = road.commit(AGENT, &[("deploy/prod.yml", "replicas: 9\n")], "Scale");
    road.git(&["push", "-q", "origin", "feature"]);
    road.git(&["switch", "-q", "main"]);
    road.commit_unhooked(&[("Astrixfile.ax", &strict)], "A policy");
    road.git(&["push", "-q", "origin", "main"]);
    let clone = road.ci_clone(&commit);
    let output = road.ci(
        &clone,
        &["--base", "origin/main", "--approved"],
        &Road::pull_request("feature"),
    );
    assert_eq!(code(&output), Some(1), "{}", render(&output));
    assert!(
        stdout(&output).contains("agents-deploy"),
        "{}",
        render(&output)
    );
}

/// A criss-cross history: `main` merged the branch's first commit while the branch merged
/// `main`. Returns the road on `feature` after both merges; `main_change` is main's own
/// commit (made on a branch an agent worked on and merged by a human, so that judging it
/// as the pull request's would hold it).
fn criss_cross(policy: &str, agent_merge: bool) -> (Road, String) {
    let road = Road::new(Some(policy));
    road.git(&["switch", "-q", "-c", "feature"]);
    let f1 = road.commit(
        &[],
        &[("src/feature.rs", "// feature\n")],
        "Feature, part 1",
    );
    road.git(&["push", "-q", "origin", "feature"]);
    // main's own change: an agent's test change, reviewed and merged.
    road.git(&["switch", "-q", "-c", "agent-tests", "main"]);
    road.commit_unhooked(
        &[("tests/extra.rs", "#[test]\nfn extra() {}\n")],
        "More tests\n\nCo-Authored-By: Claude <noreply@anthropic.com>",
    );
    road.commit(&[], &[("deploy/prod.yml", "replicas: 2\n")], "Two replicas");
    road.git(&["switch", "-q", "main"]);
    road.dev.git_in(
        road.dev.path(),
        &[],
        &[
            "merge",
            "-q",
            "--no-ff",
            "-m",
            "Merge agent-tests",
            "agent-tests",
        ],
    );
    let main_tip = road.dev.rev_parse("main");
    // main merges the branch's first part ...
    road.dev.git_in(
        road.dev.path(),
        &[],
        &["merge", "-q", "--no-ff", "-m", "Merge feature part 1", &f1],
    );
    road.git(&["push", "-q", "origin", "main"]);
    // ... while the branch merges main as it was before that.
    road.git(&["switch", "-q", "feature"]);
    let env: &[(&str, &str)] = if agent_merge { AGENT } else { &[] };
    if agent_merge {
        // An agent's merge that keeps the branch's old deploy file: merging it reverts main's.
        road.dev.git_in(
            road.dev.path(),
            env,
            &["merge", "-q", "--no-ff", "--no-commit", &main_tip],
        );
        road.git(&["checkout", &f1, "--", "deploy/prod.yml"]);
        road.dev
            .git_in(road.dev.path(), env, &["commit", "-q", "-m", "Merge main"]);
    } else {
        road.dev.git_in(
            road.dev.path(),
            env,
            &["merge", "-q", "--no-ff", "-m", "Merge main", &main_tip],
        );
    }
    let bases = road.git(&["merge-base", "--all", "origin/main", "HEAD"]);
    assert_eq!(bases.lines().count(), 2, "a criss-cross: {bases}");
    (road, main_tip)
}

/// Talked around (3): a criss-cross history. The commits judged are `git rev-list
/// BASE..HEAD`, and the range is what merging changes on the target.
#[test]
fn a_criss_cross_human_pull_request_is_allowed() {
    let (road, _) = criss_cross(DEFAULT, false);
    let head = road.commit(
        &[],
        &[("src/feature.rs", "// feature, part 2\n")],
        "Feature, part 2",
    );
    road.git(&["push", "-q", "origin", "feature"]);
    let clone = road.ci_clone(&head);
    let output = road.ci(
        &clone,
        &["--base", "origin/main", "--format", "json"],
        &Road::pull_request("feature"),
    );
    assert_eq!(code(&output), Some(0), "{}", render(&output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let summaries: Vec<&str> = value["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|commit| commit["summary"].as_str().unwrap())
        .collect();
    assert_eq!(summaries, ["Merge main", "Feature, part 2"]);
    assert_eq!(value["merge_bases"].as_array().unwrap().len(), 2);
    assert_eq!(
        value["range"]["intent"]["modified_files"],
        serde_json::json!(["src/feature.rs"])
    );
}

#[test]
fn a_criss_cross_merge_that_reverts_the_targets_change_is_denied_even_when_approved() {
    let strict = format!(
        "{DEFAULT}\n[[rule]]\nid = \"agents-deploy\"\nactor = [\"autonomous_llm\"]\npaths = [\"deploy/**\"]\ndecision = \"deny\"\nreason = \"agents do not touch deployment\"\n"
    );
    let (road, _) = criss_cross(&strict, true);
    road.git(&["push", "-q", "origin", "feature"]);
    let head = road.dev.rev_parse("HEAD");
    let clone = road.ci_clone(&head);
    let output = road.ci(
        &clone,
        &["--base", "origin/main", "--approved", "--format", "json"],
        &Road::pull_request("feature"),
    );
    assert_eq!(code(&output), Some(1), "{}", render(&output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["range"]["deciding_rules"][0], "agents-deploy");
}

/// `count` numbered lines `prefix1`, `prefix2`, ….
fn numbered(prefix: &str, count: usize) -> String {
    let mut text = String::new();
    for n in 1..=count {
        text.push_str(prefix);
        text.push_str(&n.to_string());
        text.push('\n');
    }
    text
}

/// A criss-cross of human commits: `feature` forks from `main` with `big.txt` (300 lines);
/// `main` rewrites all of `big.txt` (`main_tip`) and merges the branch's first commit while
/// the branch merges `main_tip`. Returns the road on `feature`.
fn sized_criss_cross() -> Road {
    let road = Road::new(Some(DEFAULT));
    road.commit(&[], &[("big.txt", &numbered("a", 300))], "Big file");
    road.git(&["push", "-q", "origin", "main"]);
    road.git(&["switch", "-q", "-c", "feature"]);
    let f1 = road.commit(
        &[],
        &[("src/feature.rs", "// feature\n")],
        "Feature, part 1",
    );
    road.git(&["switch", "-q", "main"]);
    let main_tip = road.commit(&[], &[("big.txt", &numbered("b", 300))], "Rewrite big.txt");
    road.git(&["merge", "-q", "--no-ff", "-m", "Merge feature part 1", &f1]);
    road.git(&["push", "-q", "origin", "main"]);
    road.git(&["switch", "-q", "feature"]);
    road.git(&["merge", "-q", "--no-ff", "-m", "Merge main", &main_tip]);
    let bases = road.git(&["merge-base", "--all", "main", "HEAD"]);
    assert_eq!(bases.lines().count(), 2, "a criss-cross: {bases}");
    road
}

/// The lines the range as a whole changes, added and deleted, and its files.
fn whole_range_size(road: &Road, head: &str) -> (u64, serde_json::Value) {
    let clone = road.ci_clone(head);
    let output = road.ci(
        &clone,
        &["--base", "origin/main", "--format", "json"],
        &Road::pull_request("feature"),
    );
    assert_eq!(code(&output), Some(0), "{}", render(&output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["merge_bases"].as_array().unwrap().len(), 2);
    let diff = &value["range"]["intent"]["diff"];
    (
        diff["lines_added"].as_u64().unwrap() + diff["lines_deleted"].as_u64().unwrap(),
        value["range"]["intent"]["modified_files"].clone(),
    )
}

/// Criss-cross sizes (1): the target's own rewrite of `big.txt` (600 lines changed), which
/// the target changed again since, is none of the range's: the range adds one line.
/// Measured against one merge base and kept because `big.txt` differs between the base and
/// the head, it counted 601.
#[test]
fn a_criss_cross_range_is_not_charged_with_the_targets_own_changes() {
    let road = sized_criss_cross();
    road.git(&["switch", "-q", "main"]);
    road.commit(
        &[],
        &[("big.txt", &numbered("c", 300))],
        "Rewrite big.txt again",
    );
    road.git(&["push", "-q", "origin", "main"]);
    road.git(&["switch", "-q", "feature"]);
    let head = road.commit(&[], &[("src/part2.rs", "// part 2\n")], "Feature, part 2");
    road.git(&["push", "-q", "origin", "feature"]);
    let (lines, files) = whole_range_size(&road, &head);
    assert_eq!(lines, 1);
    assert_eq!(files, serde_json::json!(["src/part2.rs"]));
}

/// Criss-cross sizes (2): the range's commits add 300 lines; that the target cherry-picked
/// one of them (150 lines) does not make it smaller, as with one merge base (`git diff
/// BASE...HEAD`). Counting only the paths that differ between the base and the head gave
/// 150.
#[test]
fn a_criss_cross_range_counts_a_change_the_target_also_made() {
    let road = sized_criss_cross();
    road.commit(&[], &[("a.txt", &numbered("x", 150))], "Add a.txt");
    let b = road.commit(&[], &[("b.txt", &numbered("y", 150))], "Add b.txt");
    road.git(&["push", "-q", "origin", "feature"]);
    road.git(&["switch", "-q", "main"]);
    road.git(&["cherry-pick", &b]);
    road.git(&["push", "-q", "origin", "main"]);
    road.git(&["switch", "-q", "feature"]);
    let (lines, files) = whole_range_size(&road, &b);
    assert_eq!(lines, 300);
    assert_eq!(files, serde_json::json!(["a.txt", "b.txt"]));
}

/// Talked around (4): evidence that escaped the parser, and a human's quote that did not.
#[test]
fn agent_evidence_in_any_form_is_held_and_a_quote_is_not() {
    let road = Road::new(Some(DEFAULT));
    road.git(&["switch", "-q", "-c", "feature"]);
    let cases = [
        (
            "Suffix\n\nCo-Authored-By: Claude <noreply@anthropic.com> (via Claude Code)",
            true,
        ),
        (
            "Two\n\nCo-authored-by: Ada <ada@example.com>, Cursor <cursoragent@cursor.com>",
            true,
        ),
        (
            "Quote\n\nDrop the \"🤖 Generated with [Claude Code](https://claude.com/claude-code)\" footer from the template.",
            false,
        ),
    ];
    let base = road.dev.rev_parse("HEAD");
    for (index, (message, agent)) in cases.iter().enumerate() {
        road.git(&["switch", "-q", "-C", "feature", &base]);
        // Made where no hook runs (`--no-verify` skips commit-msg; the actor is a human's
        // environment), as a cloud agent's commits arrive.
        road.dev.write(
            "tests/case.rs",
            format!("#[test]\nfn case_{index}() {{}}\n"),
        );
        road.git(&["add", "-A"]);
        road.git(&["commit", "-q", "--no-verify", "-m", message]);
        road.git(&["push", "-q", "-f", "origin", "feature"]);
        let head = road.dev.rev_parse("HEAD");
        let clone = road.ci_clone(&head);
        let output = road.ci(
            &clone,
            &["--base", "origin/main"],
            &Road::pull_request("feature"),
        );
        assert_eq!(
            code(&output),
            Some(if *agent { 3 } else { 0 }),
            "{message}: {}",
            render(&output)
        );
    }
    // `git merge --squash` of an agent's branch leaves its trailers indented.
    road.git(&["switch", "-q", "-C", "cloud", &base]);
    road.dev.write("tests/cloud.rs", "#[test]\nfn cloud() {}\n");
    road.git(&["add", "-A"]);
    road.git(&[
        "commit",
        "-q",
        "--no-verify",
        "-m",
        "Cloud work\n\nCo-Authored-By: Claude <noreply@anthropic.com>",
    ]);
    road.git(&["switch", "-q", "-C", "feature", &base]);
    road.git(&["merge", "-q", "--squash", "cloud"]);
    road.git(&["commit", "-q", "--no-edit"]);
    assert!(
        road.message("HEAD").contains("    Co-Authored-By: Claude"),
        "{}",
        road.message("HEAD")
    );
    road.git(&["push", "-q", "-f", "origin", "feature"]);
    let head = road.dev.rev_parse("HEAD");
    let clone = road.ci_clone(&head);
    let output = road.ci(
        &clone,
        &["--base", "origin/main"],
        &Road::pull_request("feature"),
    );
    assert_eq!(code(&output), Some(3), "{}", render(&output));
}

/// Talked around (5): the pipeline judging itself. Run from `pull_request_target`, the
/// base's command judges the agent's edit of the workflow (held), and says that the range
/// changes the workflow that runs it.
#[test]
fn a_pull_request_that_edits_the_running_workflow_is_held_and_named() {
    let road = Road::new(Some(DEFAULT));
    road.git(&["switch", "-q", "-c", "feature"]);
    // A cloud agent's commit (no hook runs there; its trailer says who made it).
    let commit = road.commit_unhooked(
        &[(
            ".github/workflows/astrix.yml",
            "on: pull_request\njobs: {}\n",
        )],
        "Simplify the check\n\nCo-authored-by: Cursor <cursoragent@cursor.com>",
    );
    road.git(&["push", "-q", "origin", "feature"]);
    let clone = road.ci_clone(&commit);
    let env = [
        ("GITHUB_BASE_REF", "main"),
        ("GITHUB_HEAD_REF", "feature"),
        ("GITHUB_ACTIONS", "true"),
        (
            "GITHUB_WORKFLOW_REF",
            "octo/app/.github/workflows/astrix.yml@refs/heads/main",
        ),
    ];
    let output = road.ci(&clone, &["--base", "origin/main"], &env);
    assert_eq!(code(&output), Some(3), "{}", render(&output));
    assert!(
        stderr(&output).contains(
            "the range changes `.github/workflows/astrix.yml`, the workflow that runs this check"
        ),
        "{}",
        render(&output)
    );
    assert!(
        stdout(&output)
            .contains("::warning file=.github/workflows/astrix.yml,title=astrix%3A warning::"),
        "{}",
        render(&output)
    );
    // What the edited copy would have run instead is not the base's: even so, approval
    // cannot lift the denial of a commit made on production.
    let output = road.ci(
        &clone,
        &[
            "--base",
            "origin/main",
            "--target-branch",
            "scratch",
            "--head-branch",
            "main",
            "--approved",
        ],
        &env,
    );
    assert_eq!(code(&output), Some(1), "{}", render(&output));
}

/// Provenance: the hooks record the actor on agents' commits after the editor, keep it
/// through amend and rebase, and `[ci] require_provenance` holds commits without one.
#[test]
fn provenance_is_recorded_kept_and_required() {
    let policy = format!("{DEFAULT}\n[ci]\nrequire_provenance = true\n");
    let road = Road::new(Some(&policy));
    road.git(&["switch", "-q", "-c", "feature"]);
    // Written in the editor (an agent's GIT_EDITOR), recorded by commit-msg after it.
    let editor = road.dev.path().parent().unwrap().join("editor.sh");
    std::fs::write(&editor, "#!/bin/sh\nprintf 'Edited\\n' > \"$1\"\n").unwrap();
    std::fs::write(
        road.dev.path().parent().unwrap().join("empty.sh"),
        "#!/bin/sh\n: > \"$1\"\n",
    )
    .unwrap();
    for script in ["editor.sh", "empty.sh"] {
        let path = road.dev.path().parent().unwrap().join(script);
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let editor_path = editor.display().to_string();
    let empty = road
        .dev
        .path()
        .parent()
        .unwrap()
        .join("empty.sh")
        .display()
        .to_string();
    road.dev.write("src/a.rs", "// a\n");
    road.git(&["add", "-A"]);
    let with_editor: Vec<(&str, &str)> =
        [("CLAUDECODE", "1"), ("GIT_EDITOR", editor_path.as_str())].to_vec();
    road.dev
        .git_in(road.dev.path(), &with_editor, &["commit", "-q"]);
    assert_eq!(
        road.message("HEAD"),
        "Edited\n\nAstrix-Actor: autonomous_llm (claude-code)\nAstrix-Decision: allow\n\n"
    );
    // An aborted edit stays aborted: no commit whose message is only the trailers.
    road.dev.write("src/b.rs", "// b\n");
    road.git(&["add", "-A"]);
    let aborted = road.dev.git_output_in(
        road.dev.path(),
        &[("CLAUDECODE", "1"), ("GIT_EDITOR", empty.as_str())],
        &["commit", "-q"],
    );
    assert!(
        !aborted.status.success(),
        "{}",
        String::from_utf8_lossy(&aborted.stderr)
    );
    // `--no-verify -m` skips commit-msg; prepare-commit-msg records it.
    road.dev.git_in(
        road.dev.path(),
        AGENT,
        &["commit", "-q", "--no-verify", "-m", "Quick"],
    );
    assert!(
        road.message("HEAD")
            .contains("Astrix-Actor: autonomous_llm (claude-code)")
    );
    // A human's amend keeps the agent beside the human (require_provenance: everyone gets one).
    road.git(&["commit", "-q", "--amend", "--no-edit"]);
    let amended = road.message("HEAD");
    assert!(
        amended.contains("Astrix-Actor: autonomous_llm (claude-code)"),
        "{amended}"
    );
    assert!(amended.contains("Astrix-Actor: human"), "{amended}");
    // A rebase keeps them.
    road.git(&["rebase", "-q", "--force-rebase", "main"]);
    assert!(
        road.message("HEAD")
            .contains("Astrix-Actor: autonomous_llm (claude-code)")
    );
    road.git(&["push", "-q", "origin", "feature"]);
    let head = road.dev.rev_parse("HEAD");
    let clone = road.ci_clone(&head);
    let output = road.ci(
        &clone,
        &["--base", "origin/main", "--format", "json"],
        &Road::pull_request("feature"),
    );
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    for commit in value["commits"].as_array().unwrap() {
        assert_eq!(commit["actor"]["type"], "autonomous_llm", "{commit:#}");
        assert!(
            !commit["deciding_rules"]
                .as_array()
                .unwrap()
                .contains(&serde_json::json!("missing-provenance"))
        );
    }
    // A commit made with the hooks off has none, and is held.
    road.dev.write("src/c.rs", "// c\n");
    road.git(&["add", "-A"]);
    road.git(&[
        "-c",
        "core.hooksPath=/dev/null",
        "commit",
        "-q",
        "-m",
        "Hooks off",
    ]);
    assert_eq!(road.message("HEAD"), "Hooks off\n\n");
    road.git(&["push", "-q", "origin", "feature"]);
    let head = road.dev.rev_parse("HEAD");
    let clone = road.ci_clone(&head);
    let output = road.ci(
        &clone,
        &["--base", "origin/main", "--format", "json"],
        &Road::pull_request("feature"),
    );
    assert_eq!(code(&output), Some(3), "{}", render(&output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let last = value["commits"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        last["deciding_rules"],
        serde_json::json!(["missing-provenance"])
    );
}

/// The step of docs/ci.md's workflow that decides `--approved`, run as the runner runs it,
/// with a `gh` that answers with the reviews below (in pages, as `--paginate` prints them).
#[test]
fn the_documented_review_step_approves_only_someone_elses_approval_of_the_head() {
    let markdown = include_str!("../../../docs/ci.md");
    let step = markdown
        .split("- name: Approved by someone other than the author, not a bot?")
        .nth(1)
        .expect("docs/ci.md shows the review step");
    let mut script = step
        .split("run: |\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|line| line.starts_with("          "))
        .map(|line| &line[10..])
        .collect::<Vec<_>>()
        .join("\n");
    script.push('\n');
    assert!(script.contains("gh api --paginate"), "{script}");
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let review = |login: &str, kind: &str, state: &str, commit: &str, at: &str| serde_json::json!({"user": {"login": login, "type": kind}, "state": state, "commit_id": commit, "submitted_at": at});
    let head = "h".repeat(40);
    let old = "o".repeat(40);
    let cases = [
        (
            "someone else approves the head",
            vec![vec![review(
                "ada",
                "User",
                "APPROVED",
                &head,
                "2026-01-01T00:00:00Z",
            )]],
            true,
        ),
        (
            "the author approves",
            vec![vec![review(
                "agent-owner",
                "User",
                "APPROVED",
                &head,
                "2026-01-01T00:00:00Z",
            )]],
            false,
        ),
        (
            "a bot approves",
            vec![vec![review(
                "helper[bot]",
                "Bot",
                "APPROVED",
                &head,
                "2026-01-01T00:00:00Z",
            )]],
            false,
        ),
        (
            "an older head was approved",
            vec![vec![review(
                "ada",
                "User",
                "APPROVED",
                &old,
                "2026-01-01T00:00:00Z",
            )]],
            false,
        ),
        (
            "approval taken back by a later review",
            vec![
                vec![review(
                    "ada",
                    "User",
                    "APPROVED",
                    &head,
                    "2026-01-01T00:00:00Z",
                )],
                vec![review(
                    "ada",
                    "User",
                    "CHANGES_REQUESTED",
                    &head,
                    "2026-01-02T00:00:00Z",
                )],
            ],
            false,
        ),
        (
            "a later comment keeps the approval, across pages",
            vec![
                vec![review(
                    "ada",
                    "User",
                    "APPROVED",
                    &head,
                    "2026-01-01T00:00:00Z",
                )],
                vec![review(
                    "ada",
                    "User",
                    "COMMENTED",
                    &head,
                    "2026-01-02T00:00:00Z",
                )],
            ],
            true,
        ),
        ("no reviews", vec![vec![]], false),
    ];
    for (name, pages, expected) in cases {
        let pages: String = pages
            .iter()
            .map(|page| serde_json::to_string(page).unwrap())
            .collect();
        std::fs::write(dir.path().join("pages.json"), pages).unwrap();
        let gh = bin.join("gh");
        std::fs::write(
            &gh,
            format!(
                "#!/bin/sh\ncat '{}'\n",
                dir.path().join("pages.json").display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
        let output_file = dir.path().join("output");
        std::fs::write(&output_file, "").unwrap();
        let output = std::process::Command::new("bash")
            .arg("-e")
            .arg("-c")
            .arg(&script)
            .env_clear()
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("RUNNER_TEMP", dir.path())
            .env("GITHUB_OUTPUT", &output_file)
            .env("REPO", "octo/app")
            .env("PR", "7")
            .env("AUTHOR", "agent-owner")
            .env("HEAD_SHA", &head)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let written = std::fs::read_to_string(&output_file).unwrap();
        assert_eq!(written, format!("approved={expected}\n"), "{name}");
    }
}
