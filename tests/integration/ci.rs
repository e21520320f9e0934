//! `astrix ci` against real branches: commits by humans and by each agent identity, size
//! limits that only the whole range exceeds, a branch that loosens the policy, merges, an
//! empty range, missing or shallow history, `--approved`, GitHub Actions output; and the
//! `prepare-commit-msg` hook that leaves trailers for CI to read.

#![expect(
    clippy::unwrap_used,
    reason = "helpers outside #[test] functions panic on a broken test setup"
)]

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{ASTRIX, isolated, regex_escape, settings};
use crate::repo::TestRepo;

mod road;

/// The policy of the base branch.
const POLICY: &str = r#"version = 1

[[environment]]
name = "production"
branches = ["release/*"]

[actors]
agent_authors = ["* <*@agents.example.com>"]
agent_trailers = ["X-Agent: *"]

[[rule]]
id = "agents-off-production"
actor = ["autonomous_llm"]
env = ["production"]
decision = "deny"
reason = "agents do not change production branches"

[[rule]]
id = "agents-touching-tests"
actor = ["autonomous_llm"]
modifies_tests = true
decision = "require_approval"
reason = "a human signs off on test changes made by an agent"

[[rule]]
id = "agents-deploy"
actor = ["autonomous_llm"]
paths = ["deploy/**"]
decision = "deny"
reason = "agents do not touch deployment"

[[rule]]
id = "agents-diff-size"
actor = ["autonomous_llm"]
policy = "lines_changed <= 100"
reason = "agent changes over 100 lines need a human review"
"#;

/// An author and a committer.
#[derive(Clone, Copy)]
struct Who {
    author: (&'static str, &'static str),
    committer: (&'static str, &'static str),
}

const ADA: (&str, &str) = ("Ada Lovelace", "ada@example.com");
const GITHUB: (&str, &str) = ("GitHub", "noreply@github.com");

const fn by(author: (&'static str, &'static str)) -> Who {
    Who {
        author,
        committer: author,
    }
}

const HUMAN: Who = by(ADA);
const COPILOT: Who = Who {
    author: ("Copilot", "198982749+Copilot@users.noreply.github.com"),
    committer: GITHUB,
};

/// Message endings of agents that sign their commits in the message.
const CLAUDE: &str = "\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n";
const CURSOR: &str = "\n\nCo-authored-by: Cursor <cursoragent@cursor.com>\n";

/// A repository whose `main` has [`POLICY`], on a branch `feature` made from it; commits get
/// readable labels in snapshots.
struct Branch {
    repo: TestRepo,
    labels: Vec<(String, String)>,
}

impl Branch {
    fn new() -> Self {
        Self::with_policy(POLICY)
    }

    fn with_policy(policy: &str) -> Self {
        let repo = TestRepo::new();
        let mut branch = Self {
            repo,
            labels: Vec::new(),
        };
        branch.repo.write("Astrixfile.ax", policy);
        branch.repo.write("README.md", "hello\n");
        branch.commit("base", HUMAN, &[], "Policy and readme");
        branch.repo.git(&["switch", "-q", "-c", "feature"]);
        branch
    }

    /// Writes `files`, stages everything and commits as `who`; returns the commit id.
    fn commit(&mut self, label: &str, who: Who, files: &[(&str, &str)], message: &str) -> String {
        for (path, contents) in files {
            self.repo.write(path, contents);
        }
        self.repo.git(&["add", "-A"]);
        self.repo.git_in(
            self.repo.path(),
            &identity(who),
            &["commit", "-q", "--allow-empty", "-m", message],
        );
        let id = self.repo.rev_parse("HEAD");
        self.label(label, &id);
        id
    }

    fn label(&mut self, label: &str, id: &str) {
        self.labels.push((id.to_owned(), label.to_owned()));
    }

    /// `astrix ci` with `args`, in an isolated environment plus `env`.
    fn ci(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        astrix_ci(self.repo.path(), args, env)
    }

    /// Snapshots an output with commit ids replaced by their labels.
    fn snapshot(&self, name: &str, output: &Output) {
        self.snapshot_text(name, &render(output));
    }

    fn snapshot_text(&self, name: &str, text: &str) {
        let mut settings = settings(self.repo.path().parent().unwrap());
        for (id, label) in &self.labels {
            settings.add_filter(&regex_escape(id), format!("<{label}>"));
            // Short ids in tables keep their width of 12.
            settings.add_filter(
                &regex_escape(&id[..12]),
                format!("<{:<10}>", &label[..label.len().min(10)]),
            );
        }
        settings.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
        settings.add_filter(r"\b[0-9a-f]{12}\b", "[COMMIT]    ");
        settings.bind(|| insta::assert_snapshot!(name, text));
    }
}

fn identity(who: Who) -> [(&'static str, &'static str); 4] {
    [
        ("GIT_AUTHOR_NAME", who.author.0),
        ("GIT_AUTHOR_EMAIL", who.author.1),
        ("GIT_COMMITTER_NAME", who.committer.0),
        ("GIT_COMMITTER_EMAIL", who.committer.1),
    ]
}

fn astrix_ci(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command: Command = isolated(ASTRIX, dir);
    command.arg("ci").args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap()
}

fn render(output: &Output) -> String {
    format!(
        "exit code: {}\n----- stdout -----\n{}----- stderr -----\n{}",
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| panic!("{err}: {}", stdout(output)))
}

/// `n` numbered lines.
fn lines(n: usize, what: &str) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("{what} {i}\n"));
    }
    text
}

/// A commit by each identity: its label, who made it, and its message.
const IDENTITIES: &[(&str, Who, &str)] = &[
    ("human", HUMAN, "A human's change"),
    (
        "claude",
        HUMAN,
        "Claude's trailer\n\nCo-Authored-By: Claude <noreply@anthropic.com>",
    ),
    (
        "claude-line",
        HUMAN,
        "Claude's line\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)",
    ),
    (
        "aider",
        HUMAN,
        "aider's co-author\n\nCo-authored-by: aider (anthropic/claude-sonnet-4) <aider@aider.chat>",
    ),
    (
        "aider-name",
        by(("Ada Lovelace (aider)", "ada@example.com")),
        "aider's name",
    ),
    ("copilot", COPILOT, "The Copilot coding agent"),
    (
        "copilot-bot",
        Who {
            author: ADA,
            committer: (
                "copilot-swe-agent[bot]",
                "198982749+Copilot@users.noreply.github.com",
            ),
        },
        "Copilot's bot as committer",
    ),
    (
        "cursor",
        HUMAN,
        "Cursor's co-author\n\nCo-authored-by: Cursor <cursoragent@cursor.com>",
    ),
    (
        "claude-bot",
        Who {
            author: (
                "claude[bot]",
                "209825114+claude[bot]@users.noreply.github.com",
            ),
            committer: GITHUB,
        },
        "Claude's GitHub App",
    ),
    (
        "devin",
        Who {
            author: (
                "Devin AI",
                "158243242+devin-ai-integration[bot]@users.noreply.github.com",
            ),
            committer: GITHUB,
        },
        "Devin, by its email",
    ),
    (
        "codex",
        by(("openai-codex[bot]", "codex@example.com")),
        "Codex",
    ),
    (
        "codex-conn",
        by(("chatgpt-codex-connector[bot]", "codex@example.com")),
        "Codex's connector",
    ),
    (
        "cursor-bot",
        by(("cursor[bot]", "cursor@example.com")),
        "Cursor's bot",
    ),
    (
        "gemini",
        by(("gemini-code-assist[bot]", "gemini@example.com")),
        "Gemini Code Assist",
    ),
    (
        "declared",
        HUMAN,
        "Declared by the hook\n\nAstrix-Actor: autonomous_llm (opencode)\nAstrix-Decision: allow",
    ),
    (
        "pattern",
        by(("Nightly", "run@agents.example.com")),
        "agent_authors pattern",
    ),
    (
        "trailer",
        HUMAN,
        "agent_trailers pattern\n\nX-Agent: sweeper",
    ),
    (
        "dependabot",
        by((
            "dependabot[bot]",
            "49699333+dependabot[bot]@users.noreply.github.com",
        )),
        "Not an agent",
    ),
];

#[test]
fn every_agent_identity_is_recognised_and_named() {
    let mut branch = Branch::new();
    let one = |name: &str| (format!("src/{name}.rs"), format!("// {name}\n"));
    let cases = IDENTITIES;
    for (label, who, message) in cases {
        let (path, contents) = one(label);
        branch.commit(label, *who, &[(path.as_str(), contents.as_str())], message);
    }
    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", render(&output));
    branch.snapshot("ci_every_agent_identity", &output);

    let value = json(&branch.ci(&["--base", "main", "--format", "json"], &[]));
    let commits = value["commits"].as_array().unwrap();
    assert_eq!(commits.len(), cases.len());
    for (commit, (label, _, _)) in commits.iter().zip(cases) {
        let agent = !matches!(*label, "human" | "dependabot");
        assert_eq!(
            commit["actor"]["type"] == "autonomous_llm",
            agent,
            "{label}: {commit:#}"
        );
        assert_eq!(commit["intent"]["actor"]["type"], commit["actor"]["type"]);
        assert_eq!(!commit["evidence"].as_array().unwrap().is_empty(), agent);
    }
    assert_eq!(value["range"]["actor"]["type"], "autonomous_llm");
}

#[test]
fn agent_test_changes_are_held_and_human_ones_pass() {
    let mut branch = Branch::new();
    branch.commit(
        "human",
        HUMAN,
        &[("tests/human.rs", "#[test]\nfn human() {}\n")],
        "Add a human's test",
    );
    branch.commit(
        "claude",
        HUMAN,
        &[("tests/agent.rs", "#[test]\nfn agent() {}\n")],
        &format!("Add an agent's test{CLAUDE}"),
    );
    branch.commit(
        "docs",
        HUMAN,
        &[("docs/guide.md", "# Guide\n")],
        "Write the guide",
    );
    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(3), "{}", render(&output));
    branch.snapshot("ci_agent_test_changes_held", &output);
}

#[test]
fn a_size_limit_only_the_whole_range_exceeds() {
    let mut branch = Branch::new();
    for part in 1..=3 {
        branch.commit(
            &format!("part-{part}"),
            COPILOT,
            &[(&format!("src/part{part}.rs"), &lines(40, "// line"))],
            &format!("Part {part} of the feature"),
        );
    }
    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(3), "{}", render(&output));
    branch.snapshot("ci_size_limit_of_the_whole_range", &output);

    let output = branch.ci(&["--base", "main", "--format", "json"], &[]);
    assert_eq!(output.status.code(), Some(3));
    branch.snapshot_text("ci_size_limit_of_the_whole_range_json", &stdout(&output));
}

#[test]
fn a_branch_that_loosens_the_policy_is_held_and_judged_by_the_base() {
    let mut branch = Branch::new();
    let loosened = POLICY.replace(
        "decision = \"deny\"\nreason = \"agents do not touch deployment\"",
        "decision = \"allow\"\nreason = \"agents may deploy\"",
    );
    assert_ne!(loosened, POLICY);
    branch.commit(
        "loosen",
        HUMAN,
        &[("Astrixfile.ax", &loosened)],
        "Let agents deploy",
    );
    branch.commit(
        "deploy",
        HUMAN,
        &[("deploy/prod.yml", "replicas: 3\n")],
        &format!("Scale up{CURSOR}"),
    );
    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(1), "{}", render(&output));
    branch.snapshot("ci_branch_loosening_the_policy", &output);
    let value = json(&branch.ci(&["--base", "main", "--format", "json"], &[]));
    assert_eq!(value["policy"]["source"], "target");
    assert_eq!(value["commits"][0]["deciding_rules"][0], "policy-change");
    assert_eq!(value["commits"][1]["deciding_rules"][0], "agents-deploy");
}

#[test]
fn a_broken_policy_on_the_branch_is_denied_with_its_diagnostics() {
    let mut branch = Branch::new();
    branch.commit(
        "broken",
        HUMAN,
        &[("Astrixfile.ax", "version = 1\n[[rule]]\nid = \"x\"\n")],
        "Break the policy",
    );
    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(1), "{}", render(&output));
    let text = render(&output);
    assert!(text.contains("staged-policy-invalid"), "{text}");
    assert!(
        stderr(&output).contains("the Astrixfile.ax of commit"),
        "{text}"
    );
}

#[test]
fn merges_in_the_range_are_judged_on_what_they_change() {
    let mut branch = Branch::new();
    branch.commit("first", HUMAN, &[("src/a.rs", "// a\n")], "First");
    // A side branch with an agent's test change, merged back by an agent who also adds a
    // file of their own in the merge commit.
    branch.repo.git(&["switch", "-q", "-c", "side"]);
    branch.commit(
        "side-tests",
        HUMAN,
        &[("tests/side.rs", "#[test]\nfn side() {}\n")],
        &format!("Test the side{CURSOR}"),
    );
    branch.repo.git(&["switch", "-q", "feature"]);
    branch.commit("second", HUMAN, &[("src/b.rs", "// b\n")], "Second");
    branch
        .repo
        .git(&["merge", "-q", "--no-ff", "--no-commit", "side"]);
    branch.commit(
        "merge-side",
        HUMAN,
        &[("deploy/extra.yml", "x: 1\n")],
        &format!("Merge side{CURSOR}"),
    );
    // main moves on and is merged in: its commit is the base's, not the branch's.
    branch.repo.git(&["switch", "-q", "main"]);
    branch.commit(
        "main-later",
        HUMAN,
        &[("NEWS.md", "news\n")],
        "News on main",
    );
    branch.repo.git(&["switch", "-q", "feature"]);
    branch.repo.git_in(
        branch.repo.path(),
        &identity(HUMAN),
        &["merge", "-q", "--no-ff", "-m", "Merge main", "main"],
    );
    let id = branch.repo.rev_parse("HEAD");
    branch.label("merge-main", &id);

    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(1), "{}", render(&output));
    branch.snapshot("ci_merges_in_the_range", &output);

    let value = json(&branch.ci(&["--base", "main", "--format", "json"], &[]));
    let files = |index: usize| value["commits"][index]["intent"]["modified_files"].clone();
    let summaries: Vec<&str> = value["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|commit| commit["summary"].as_str().unwrap())
        .collect();
    assert_eq!(
        summaries,
        [
            "First",
            "Second",
            "Test the side",
            "Merge side",
            "Merge main"
        ]
    );
    // The merges list only what differs from every parent.
    assert_eq!(files(3), serde_json::json!(["deploy/extra.yml"]));
    assert_eq!(files(4), serde_json::json!([]));
    // main's commit is not the branch's: the merge base moved to it.
    assert!(
        !value["range"]["intent"]["modified_files"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("NEWS.md"))
    );
}

#[test]
fn an_empty_range_is_allowed_and_says_so() {
    let branch = Branch::new();
    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", render(&output));
    branch.snapshot("ci_empty_range", &output);
    let value = json(&branch.ci(&["--base", "main", "--format", "json"], &[]));
    assert_eq!(value["commits"], serde_json::json!([]));
    assert_eq!(value["range"], serde_json::Value::Null);
    assert_eq!(value["allowed"], true);
}

#[test]
fn a_missing_base_is_an_error_not_a_pass() {
    let mut branch = Branch::new();
    branch.commit("work", HUMAN, &[("src/a.rs", "// a\n")], "Work");
    let output = branch.ci(&["--base", "origin/main"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", render(&output));
    branch.snapshot("ci_missing_base", &output);

    // Unrelated history: no merge base.
    branch.repo.git(&["switch", "-q", "--orphan", "elsewhere"]);
    branch.repo.write("other.txt", "other\n");
    branch.repo.git(&["add", "other.txt"]);
    branch.repo.git(&["commit", "-q", "-m", "Unrelated"]);
    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", render(&output));
    assert!(
        stderr(&output).contains("have no common history"),
        "{}",
        render(&output)
    );

    // A commit id names no branch: the target must be given.
    let main = branch.repo.rev_parse("main");
    branch.repo.git(&["switch", "-q", "feature"]);
    let output = branch.ci(&["--base", &main], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", render(&output));
    assert!(
        stderr(&output).contains("pass `--target-branch <name>`"),
        "{}",
        render(&output)
    );
    let output = branch.ci(&["--base", &main, "--target-branch", "main"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", render(&output));
}

#[test]
fn a_shallow_clone_asks_for_the_full_history() {
    let mut branch = Branch::new();
    branch.commit("work", HUMAN, &[("src/a.rs", "// a\n")], "Work");
    // main moves on, so that neither tip is the other's parent.
    branch.repo.git(&["switch", "-q", "main"]);
    branch.commit("news", HUMAN, &[("NEWS.md", "news\n")], "News");
    branch.repo.git(&["switch", "-q", "feature"]);
    let source = format!("file://{}", branch.repo.path().display());
    let clone = branch.repo.path().parent().unwrap().join("shallow");
    let clone_path = clone.display().to_string();
    branch.repo.git(&[
        "clone",
        "-q",
        "--depth=1",
        "--no-single-branch",
        "--branch",
        "feature",
        &source,
        &clone_path,
    ]);
    let output = astrix_ci(&clone, &["--base", "origin/main"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", render(&output));
    let message = stderr(&output);
    assert!(message.contains("shallow clone"), "{message}");
    assert!(message.contains("fetch-depth: 0"), "{message}");
}

/// A partial clone (`--filter=blob:none`) lacks the blobs astrix reads; with the promisor
/// remote gone, the error says so and how to get them, not that the repository is damaged.
#[test]
fn a_partial_clone_without_its_promisor_says_so() {
    let mut branch = Branch::new();
    branch.commit("work", HUMAN, &[("src/a.rs", "// a\n")], "Work");
    let origin = branch.repo.path().parent().unwrap().join("origin.git");
    let origin_path = origin.display().to_string();
    branch
        .repo
        .git(&["clone", "-q", "--bare", ".", &origin_path]);
    branch
        .repo
        .git_in(&origin, &[], &["config", "uploadpack.allowFilter", "true"]);
    let clone = branch.repo.path().parent().unwrap().join("partial");
    let clone_path = clone.display().to_string();
    branch.repo.git(&[
        "clone",
        "-q",
        "--filter=blob:none",
        "--no-checkout",
        &format!("file://{origin_path}"),
        &clone_path,
    ]);
    std::fs::remove_dir_all(&origin).unwrap();
    let output = astrix_ci(
        &clone,
        &["--base", "origin/main", "--head", "origin/feature"],
        &[],
    );
    assert_eq!(output.status.code(), Some(2), "{}", render(&output));
    let message = stderr(&output);
    assert!(message.contains("partial clone"), "{message}");
    assert!(message.contains("promisor remote"), "{message}");
    assert!(!message.contains("damaged"), "{message}");
}

#[test]
fn a_human_trailer_never_downgrades_an_agents_commit() {
    let mut branch = Branch::new();
    branch.commit(
        "copilot",
        COPILOT,
        &[("tests/a.rs", "#[test]\nfn a() {}\n")],
        "Add a test\n\nAstrix-Actor: human",
    );
    branch.commit(
        "ada",
        HUMAN,
        &[("src/a.rs", "// a\n")],
        "A human says so\n\nAstrix-Actor: human\nAstrix-Decision: allow",
    );
    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(3), "{}", render(&output));
    branch.snapshot("ci_human_trailer_does_not_downgrade", &output);
    let value = json(&branch.ci(&["--base", "main", "--format", "json"], &[]));
    assert_eq!(value["commits"][0]["actor"]["type"], "autonomous_llm");
    assert_eq!(value["commits"][0]["declared_actor"][0], "human");
    assert_eq!(value["commits"][1]["actor"]["type"], "human");
    assert_eq!(value["commits"][1]["hook_decisions"][0], "allow");
}

#[test]
fn approved_turns_holds_into_passes_but_never_lifts_a_denial() {
    let mut branch = Branch::new();
    branch.commit(
        "claude",
        HUMAN,
        &[("tests/agent.rs", "#[test]\nfn agent() {}\n")],
        &format!("Add an agent's test{CLAUDE}"),
    );
    let output = branch.ci(&["--base", "main", "--approved"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", render(&output));
    branch.snapshot("ci_approved_holds_pass", &output);
    let value = json(&branch.ci(&["--base", "main", "--approved", "--format", "json"], &[]));
    assert_eq!(value["allowed"], true);
    assert_eq!(value["requires_approval"], true);
    assert_eq!(value["approved_by_pipeline"], true);
    assert_eq!(value["commits"][0]["intent"]["approved"], true);

    branch.commit(
        "deploy",
        HUMAN,
        &[("deploy/prod.yml", "replicas: 3\n")],
        &format!("Scale up{CURSOR}"),
    );
    let output = branch.ci(&["--base", "main", "--approved"], &[]);
    assert_eq!(output.status.code(), Some(1), "{}", render(&output));
    assert!(
        stdout(&output).contains("astrix ci: denied"),
        "{}",
        render(&output)
    );
}

#[test]
fn github_actions_gets_annotations_and_a_job_summary() {
    let mut branch = Branch::new();
    branch.commit(
        "human",
        HUMAN,
        &[("src/a.rs", "// a\n")],
        "A human's change",
    );
    branch.commit(
        "claude",
        HUMAN,
        &[("tests/agent.rs", "#[test]\nfn agent() {}\n")],
        &format!("Add an agent's test{CLAUDE}"),
    );
    branch.commit(
        "deploy",
        HUMAN,
        &[("deploy/prod.yml", "replicas: 3\n")],
        &format!("Scale up{CURSOR}"),
    );
    let summary = branch.repo.path().parent().unwrap().join("summary.md");
    let summary_path = summary.display().to_string();
    let env = [
        ("GITHUB_ACTIONS", "true"),
        ("GITHUB_STEP_SUMMARY", summary_path.as_str()),
        ("GITHUB_BASE_REF", "release/1.0"),
    ];
    let output = branch.ci(&["--base", "main"], &env);
    assert_eq!(output.status.code(), Some(1), "{}", render(&output));
    branch.snapshot("ci_github_actions_output", &output);
    let text = std::fs::read_to_string(&summary).unwrap();
    branch.snapshot_text("ci_github_actions_job_summary", &text);

    // JSON keeps stdout for JSON; the annotations go to stderr, and the summary is appended.
    let output = branch.ci(&["--base", "main", "--format", "json"], &env);
    assert_eq!(output.status.code(), Some(1));
    let value = json(&output);
    assert_eq!(value["target"]["env"], "production");
    assert_eq!(value["target_branch_from"], "GITHUB_BASE_REF");
    assert!(
        stderr(&output).contains("::error file=deploy/prod.yml,"),
        "{}",
        render(&output)
    );
    let twice = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(twice, format!("{text}{text}"));

    // Going to a development branch, the agent's test change is held: a warning on the test
    // file; with --approved, a notice. The denial stays an error.
    let github = [("GITHUB_ACTIONS", "true")];
    let output = branch.ci(&["--base", "main", "--target-branch", "feature"], &github);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.contains(
            "::warning file=tests/agent.rs,title=astrix%3A held by agents-touching-tests::commit "
        ),
        "{text}"
    );
    let output = branch.ci(
        &["--base", "main", "--target-branch", "feature", "--approved"],
        &github,
    );
    let text = stdout(&output);
    assert!(
        text.contains(
            "::notice file=tests/agent.rs,title=astrix%3A approved by agents-touching-tests::"
        ),
        "{text}"
    );
    assert!(
        text.contains("::error file=deploy/prod.yml,title=astrix%3A denied by agents-deploy::"),
        "{text}"
    );

    // Without GITHUB_ACTIONS, no workflow commands.
    let output = branch.ci(&["--base", "main"], &[]);
    assert!(!stdout(&output).contains("::"), "{}", render(&output));
}

/// Every line of `text` that the Actions runner would read as a workflow command (its first
/// characters other than blanks are `::`).
fn workflow_commands(text: &str) -> Vec<&str> {
    text.split(['\n', '\r'])
        .filter(|line| line.trim_start().starts_with("::"))
        .collect()
}

/// Authors, subjects and paths come from the repository: in GitHub Actions none of them may
/// give the runner a command, in the text, the annotations or the JSON run's stderr.
#[test]
fn text_from_the_repository_cannot_give_workflow_commands() {
    let mut branch = Branch::new();
    let author = "Eve\r::set-env name=X::y";
    branch.commit(
        "evil",
        by((author, "eve@example.com")),
        &[(
            "tests/evil\n::add-mask::secret.rs",
            "#[test]\nfn evil() {}\n",
        )],
        &format!("Tests\r::stop-commands::token{CLAUDE}"),
    );
    let github = [("GITHUB_ACTIONS", "true")];
    let text = branch.ci(&["--base", "main", "--target-branch", "feature"], &github);
    assert_eq!(text.status.code(), Some(3), "{}", render(&text));
    let json = branch.ci(
        &[
            "--base",
            "main",
            "--target-branch",
            "feature",
            "--format",
            "json",
        ],
        &github,
    );
    assert_eq!(json.status.code(), Some(3), "{}", render(&json));
    for output in [&text, &json] {
        for stream in [stdout(output), stderr(output)] {
            for command in workflow_commands(&stream) {
                // astrix's own annotations, whose text is escaped as GitHub reads it.
                assert!(
                    ["::warning ", "::notice ", "::error "]
                        .iter()
                        .any(|own| command.starts_with(own)),
                    "a workflow command from the repository: {command:?}\n{}",
                    render(output)
                );
            }
            assert!(!stream.contains('\r'), "{stream:?}");
        }
    }
    let out = stdout(&text);
    assert!(out.contains(r"Eve\r::set-env name=X::y"), "{out}");
    assert!(out.contains(r"tests/evil\n::add-mask::secret.rs"), "{out}");
    // The annotation names the file as GitHub escapes a property.
    assert!(
        out.contains("::warning file=tests/evil%0A%3A%3Aadd-mask%3A%3Asecret.rs,title="),
        "{out}"
    );
    branch.snapshot("ci_untrusted_text_escaped", &text);
}

/// A full object id or a full reference name means exactly that: a branch named like the id,
/// or a branch `refs/heads/refs/remotes/origin/main`, does not stand in for it.
#[test]
fn full_ids_and_full_reference_names_resolve_exactly() {
    let mut branch = Branch::new();
    let main = branch.repo.rev_parse("main");
    let tip = branch.commit("work", HUMAN, &[("src/a.rs", "// a\n")], "Work");
    branch
        .repo
        .git(&["update-ref", &format!("refs/heads/{main}"), &tip]);
    branch
        .repo
        .git(&["update-ref", "refs/remotes/origin/main", &main]);
    branch
        .repo
        .git(&["update-ref", "refs/heads/refs/remotes/origin/main", &tip]);
    for base in [main.as_str(), "refs/remotes/origin/main"] {
        let output = branch.ci(
            &[
                "--base",
                base,
                "--target-branch",
                "main",
                "--format",
                "json",
            ],
            &[],
        );
        assert_eq!(output.status.code(), Some(0), "{base}: {}", render(&output));
        let value = json(&output);
        assert_eq!(value["base_commit"], main.as_str(), "{base}");
        assert_eq!(value["commits"].as_array().unwrap().len(), 1, "{base}");
    }
    // The head as a full id too, against a branch named like it.
    branch
        .repo
        .git(&["update-ref", &format!("refs/heads/{tip}"), &main]);
    let output = branch.ci(&["--base", "main", "--head", &tip, "--format", "json"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", render(&output));
    assert_eq!(json(&output)["commits"].as_array().unwrap().len(), 1);
}

/// `astrix install` in `repo`, with the repository's environment.
fn install(repo: &TestRepo) {
    let output = repo.command(ASTRIX).arg("install").output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", render(&output));
}

fn message(repo: &TestRepo, rev: &str) -> String {
    repo.git(&["log", "-1", "--format=%B", rev])
}

#[test]
fn the_prepare_commit_msg_hook_adds_trailers_that_ci_reads() {
    let repo = TestRepo::new();
    repo.write(
        "Astrixfile.ax",
        "version = 1\n\n[commit]\ntrailers = true\n",
    );
    repo.commit_all("Policy");
    // A commit made before the hooks, to cherry-pick later.
    repo.git(&["switch", "-q", "-c", "old"]);
    repo.write("old.txt", "old\n");
    let old = repo.commit_all("An old change");
    repo.git(&["switch", "-q", "main"]);
    install(&repo);
    repo.git(&["switch", "-q", "-c", "feature"]);

    repo.write("src/a.rs", "// a\n");
    repo.git(&["add", "-A"]);
    repo.git_in(
        repo.path(),
        &[("CLAUDECODE", "1")],
        &["commit", "-q", "-m", "By an agent"],
    );
    assert_eq!(
        message(&repo, "HEAD"),
        "By an agent\n\nAstrix-Actor: autonomous_llm (claude-code)\nAstrix-Decision: allow\n\n"
    );

    repo.write("src/b.rs", "// b\n");
    repo.git(&["add", "-A"]);
    repo.git(&[
        "commit",
        "-q",
        "-m",
        "By a human",
        "-m",
        "Signed-off-by: A U Thor <author@example.com>",
    ]);
    assert_eq!(
        message(&repo, "HEAD"),
        "By a human\n\nSigned-off-by: A U Thor <author@example.com>\nAstrix-Actor: human\nAstrix-Decision: allow\n\n"
    );

    // Amends, cherry-picks and merges keep the message they carry.
    repo.git(&["commit", "-q", "--amend", "--no-edit"]);
    assert_eq!(message(&repo, "HEAD").matches("Astrix-Actor").count(), 1);
    repo.git(&["cherry-pick", &old]);
    assert_eq!(message(&repo, "HEAD"), "An old change\n\n");
    // A revert is a new commit.
    repo.git(&["revert", "--no-edit", "HEAD"]);
    assert!(
        message(&repo, "HEAD").ends_with("\n\nAstrix-Actor: human\nAstrix-Decision: allow\n\n"),
        "{}",
        message(&repo, "HEAD")
    );
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);

    let output = astrix_ci(repo.path(), &["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", render(&output));
    let value = json(&astrix_ci(
        repo.path(),
        &["--base", "main", "--format", "json"],
        &[],
    ));
    assert_eq!(value["commits"][0]["actor"]["type"], "autonomous_llm");
    assert_eq!(value["commits"][0]["actor"]["id"], "claude-code");
    assert_eq!(
        value["commits"][0]["evidence"][0]["text"],
        "Astrix-Actor: autonomous_llm (claude-code)"
    );
    assert_eq!(value["commits"][0]["hook_decisions"][0], "allow");
    assert_eq!(value["commits"][1]["actor"]["type"], "human");
}

/// Where an agent's `Astrix-Actor:` trailer used to be missed: a Latin-1 message, a comment
/// character git strips the trailer as, `--no-verify` with an editor (commit-msg skipped;
/// prepare-commit-msg still runs).
#[test]
fn an_agents_trailer_survives_encodings_comment_characters_and_no_verify() {
    let repo = TestRepo::new();
    repo.write("Astrixfile.ax", "version = 1\n");
    repo.commit_all("Policy");
    install(&repo);
    repo.git(&["switch", "-q", "-c", "feature"]);
    let agent: &[(&str, &str)] = &[("CLAUDECODE", "1")];
    let trailer = "autonomous_llm (claude-code)";
    let mut n = 0;
    let mut commit = |config: &[&str], env: &[(&str, &str)], args: &[&str]| {
        n += 1;
        repo.write(format!("src/{n}.rs"), format!("// {n}\n"));
        repo.git(&["add", "-A"]);
        let mut full: Vec<&str> = config.to_vec();
        full.push("commit");
        full.push("-q");
        full.extend(args);
        repo.git_in(repo.path(), env, &full);
        repo.git(&["log", "-1", "--format=%B", "HEAD"])
    };

    // Latin-1 (`i18n.commitEncoding`): the message is not UTF-8.
    let latin1 = repo.path().join("latin1.txt");
    std::fs::write(&latin1, b"Caf\xe9 cr\xe8me\n").unwrap();
    let latin1 = latin1.display().to_string();
    let message = commit(
        &["-c", "i18n.commitEncoding=latin1"],
        agent,
        &["-F", &latin1],
    );
    assert!(message.contains(trailer), "{message:?}");
    let raw = repo.git_result(&["cat-file", "commit", "HEAD"]).stdout;
    assert!(
        raw.windows(4).any(|w| w == b"Caf\xe9"),
        "the bytes are kept"
    );

    // `core.commentChar = A`, with the message cleaned up as after an editor: git strips
    // every line that starts with `A`.
    let message = commit(
        &["-c", "core.commentChar=A"],
        agent,
        &["--cleanup=strip", "-m", "Comment char A"],
    );
    assert!(
        message
            .to_lowercase()
            .contains(&format!("astrix-actor: {trailer}")),
        "{message:?}"
    );
    // `auto`, with `-v` (a scissors line under which git cuts everything).
    let message = commit(
        &["-c", "core.commentChar=auto"],
        &[("CLAUDECODE", "1"), ("GIT_EDITOR", "sed -i 1s/^/Auto/")],
        &["-v"],
    );
    assert!(message.starts_with("Auto"), "{message:?}");
    assert!(message.contains(trailer), "{message:?}");

    // `--no-verify` skips commit-msg: an agent's editor, and `GIT_EDITOR=true --amend`.
    let message = commit(
        &[],
        &[("CLAUDECODE", "1"), ("GIT_EDITOR", "sed -i 1s/^/Edited/")],
        &["--no-verify"],
    );
    assert!(message.starts_with("Edited\n\n"), "{message:?}");
    assert!(message.contains(trailer), "{message:?}");
    repo.write("src/human.rs", "// human\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "By a human"]);
    repo.write("src/human.rs", "// an agent's amend\n");
    repo.git(&["add", "-A"]);
    repo.git_in(
        repo.path(),
        &[("CLAUDECODE", "1"), ("GIT_EDITOR", "true")],
        &["commit", "-q", "--amend", "--no-verify"],
    );
    let message = repo.git(&["log", "-1", "--format=%B", "HEAD"]);
    assert!(message.contains(trailer), "{message:?}");

    // Replays by an agent: a human's commit cherry-picked, and reworded in `rebase -i`
    // under `--no-verify`.
    repo.git(&["switch", "-q", "-c", "human", "main"]);
    repo.write("src/picked.rs", "// picked\n");
    let picked = repo.commit_all("A human's commit");
    repo.git(&["switch", "-q", "feature"]);
    repo.git_in(repo.path(), agent, &["cherry-pick", &picked]);
    let message = repo.git(&["log", "-1", "--format=%B", "HEAD"]);
    assert!(message.contains(trailer), "{message:?}");
    repo.git(&["switch", "-q", "-c", "reworded", "human"]);
    repo.git_in(
        repo.path(),
        &[
            ("CLAUDECODE", "1"),
            ("GIT_SEQUENCE_EDITOR", "sed -i 1s/^pick/reword/"),
            ("GIT_EDITOR", "sed -i 1s/^/Reworded:\\ /"),
        ],
        &["rebase", "-q", "-i", "--no-verify", "main"],
    );
    let message = repo.git(&["log", "-1", "--format=%B", "HEAD"]);
    assert!(message.starts_with("Reworded: A human's"), "{message:?}");
    assert!(message.contains(trailer), "{message:?}");
    repo.git(&["switch", "-q", "feature"]);

    let value = json(&astrix_ci(
        repo.path(),
        &["--base", "main", "--format", "json"],
        &[],
    ));
    for commit in value["commits"].as_array().unwrap() {
        assert_eq!(commit["actor"]["type"], "autonomous_llm", "{commit}");
    }
}

#[test]
fn the_hooks_add_no_trailers_when_the_policy_turns_them_off() {
    let repo = TestRepo::new();
    repo.write(
        "Astrixfile.ax",
        "version = 1\n\n[commit]\ntrailers = false\n",
    );
    repo.commit_all("Policy");
    install(&repo);
    repo.write("src/a.rs", "// a\n");
    repo.git(&["add", "-A"]);
    repo.git_in(
        repo.path(),
        &[("CLAUDECODE", "1")],
        &["commit", "-q", "-m", "By an agent"],
    );
    assert_eq!(message(&repo, "HEAD"), "By an agent\n\n");
}

/// A range long enough to be measured on two threads (the calling one from the first commit
/// on, a second one from the last back) counts every commit as `git log --numstat` does,
/// in order.
#[test]
fn a_long_range_counts_every_commit_as_git_does() {
    let mut branch = Branch::new();
    let mut ids = Vec::new();
    for i in 0..24 {
        let body = lines(10 + 7 * i, &format!("line of commit {i}"));
        let mut files = vec![(format!("src/file{}.rs", i % 5), body)];
        if i % 3 == 0 {
            files.push((format!("docs/note{i}.md"), lines(i, "note")));
        }
        let files: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_str()))
            .collect();
        ids.push(branch.commit(&format!("c{i}"), HUMAN, &files, &format!("Commit {i}")));
    }
    let output = branch.ci(&["--base", "main", "--format", "json"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = json(&output);
    let commits = report["commits"].as_array().unwrap();
    assert_eq!(commits.len(), ids.len());
    for (commit, id) in commits.iter().zip(&ids) {
        assert_eq!(commit["commit"], id.as_str());
        let numstat = branch.repo.git(&["show", "--numstat", "--format=", id]);
        let (mut added, mut deleted) = (0, 0);
        for line in numstat.lines().filter(|line| !line.is_empty()) {
            let mut fields = line.split('\t');
            added += fields.next().unwrap().parse::<u64>().unwrap();
            deleted += fields.next().unwrap().parse::<u64>().unwrap();
        }
        let diff = &commit["intent"]["diff"];
        assert_eq!(diff["lines_added"], added, "{id}");
        assert_eq!(diff["lines_deleted"], deleted, "{id}");
    }
}

/// Blobs missing from two commits of a long range, one measured by each thread: the error
/// is the first commit's, as when the commits are measured one after the other.
#[test]
fn a_missing_blob_in_a_long_range_is_reported_for_the_first_commit() {
    let mut branch = Branch::new();
    let mut blobs = Vec::new();
    for i in 0..16 {
        let path = format!("src/f{i}.txt");
        let body = format!("unique content of commit {i}\n");
        branch.commit(
            &format!("c{i}"),
            HUMAN,
            &[(&path, &body)],
            &format!("Commit {i}"),
        );
        blobs.push(branch.repo.rev_parse(&format!("HEAD:{path}")));
    }
    for blob in [&blobs[2], &blobs[14]] {
        let object = branch
            .repo
            .path()
            .join(".git/objects")
            .join(&blob[..2])
            .join(&blob[2..]);
        std::fs::remove_file(&object).unwrap();
    }
    let output = branch.ci(&["--base", "main"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    let message = stderr(&output);
    assert!(message.contains(&blobs[2]), "{message}");
    assert!(!message.contains(&blobs[14]), "{message}");
}

/// [`POLICY`] that asks a data-driven runner which tests it collects: one test per line
/// of `tests/cases.list`, printed as absolute paths (as jest prints its files), and only
/// where astrix names the job's checkout.
const COLLECTING: &str = r#"
[tests]
collect = ['test -n "$ASTRIX_CHECKOUT" && sed "s|^|$PWD/|" tests/cases.list']

[[rule]]
id = "tests-stay"
policy = "tests_removed == 0"
reason = "a removed test needs a human's sign-off"
"#;

/// The command of [`COLLECTING`].
const COLLECT: &str = r#"test -n "$ASTRIX_CHECKOUT" && sed "s|^|$PWD/|" tests/cases.list"#;

#[test]
fn the_runner_is_asked_which_tests_it_collects() {
    let mut branch = Branch::with_policy(&format!("{POLICY}{COLLECTING}"));
    branch.repo.git(&["switch", "-q", "main"]);
    branch.commit(
        "cases",
        HUMAN,
        &[("tests/cases.list", "adds\nsubtracts\nrounds\n")],
        "Add the cases",
    );
    branch.repo.git(&["switch", "-q", "feature"]);
    branch.repo.git(&["reset", "-q", "--hard", "main"]);
    // The syntax says nothing: a data file of a runner the analysis does not read.
    branch.commit(
        "drop",
        HUMAN,
        &[
            ("tests/cases.list", "adds\nsubtracts\n"),
            ("src/calc.txt", "x\n"),
        ],
        "Tidy the cases",
    );
    let temp = branch.repo.path().parent().unwrap().to_owned();
    let tmpdir = [("TMPDIR", temp.to_str().unwrap())];
    let output = branch.ci(&["--base", "main"], &tmpdir);
    assert_eq!(output.status.code(), Some(3), "{}", render(&output));
    branch.snapshot("ci_runner_collects_fewer_tests", &output);
    let output = branch.ci(&["--base", "main", "--format", "json"], &tmpdir);
    let value = json(&output);
    assert_eq!(
        value["range"]["intent"]["diff"]["tests_removed"], 1,
        "{value}"
    );
    assert_eq!(
        value["range"]["uncollected"],
        serde_json::json!([{"command": COLLECT, "tests": ["rounds"]}]),
        "{value}"
    );
    // Its copies are gone.
    let left: Vec<_> = std::fs::read_dir(&temp)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with("astrix-collect")
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // A link that leads out of the copy leads elsewhere in any other checkout: it is left
    // out, and the runner's list cannot be read through it.
    branch.repo.git(&["rm", "-q", "tests/cases.list"]);
    std::fs::create_dir_all(branch.repo.path().join("tests")).unwrap();
    std::os::unix::fs::symlink(
        "../../elsewhere/cases.list",
        branch.repo.path().join("tests/cases.list"),
    )
    .unwrap();
    branch.commit("link", HUMAN, &[], "Share the cases");
    let output = branch.ci(&["--base", "main"], &tmpdir);
    assert_eq!(output.status.code(), Some(2), "{}", render(&output));
    let message = stderr(&output);
    assert!(message.contains("failed on the head"), "{message}");
    assert!(message.contains("  | sed: "), "{message}");

    // A runner that fails on either side fails the job: it cannot say what is collected.
    let broken = Branch::with_policy(&format!(
        "{POLICY}{}",
        COLLECTING.replace("test -n", "exit 4; test -n")
    ));
    let mut broken = broken;
    broken.commit("any", HUMAN, &[("src/a.txt", "a\n")], "Add a");
    let output = broken.ci(&["--base", "main"], &tmpdir);
    assert_eq!(output.status.code(), Some(2), "{}", render(&output));
    let message = stderr(&output);
    assert!(message.contains("failed on the base"), "{message}");
}

/// The copies `[tests] collect` runs in keep what the change commits inside them: a link
/// that leads out through another link, or to nothing, is left out, so a command that
/// writes through it writes nothing outside; a runner's line with control characters is
/// escaped in the report; a command that lists nothing on the base is an error.
#[test]
fn the_copies_the_runner_is_asked_in_stay_inside() {
    let policy = format!(
        "{POLICY}\n[tests]\ncollect = ['(echo pwned > out) 2>/dev/null; cat tests/cases.list']\n\n[[rule]]\nid = \"tests-stay\"\npolicy = \"tests_removed == 0\"\n"
    );
    let mut branch = Branch::with_policy(&policy);
    branch.repo.git(&["switch", "-q", "main"]);
    branch.commit(
        "cases",
        HUMAN,
        &[("tests/cases.list", "adds\nclears \u{1b}[2J the screen\n")],
        "Add the cases",
    );
    branch.repo.git(&["switch", "-q", "feature"]);
    branch.repo.git(&["reset", "-q", "--hard", "main"]);
    let root = branch.repo.path().to_owned();
    std::os::unix::fs::symlink(".", root.join("up")).unwrap();
    std::os::unix::fs::symlink("up/..", root.join("up2")).unwrap();
    std::os::unix::fs::symlink("up2/../escaped", root.join("out")).unwrap();
    branch.commit("links", HUMAN, &[("tests/cases.list", "adds\n")], "Link up");
    let temp = root.parent().unwrap().to_owned();
    let tmpdir = [("TMPDIR", temp.to_str().unwrap())];
    let output = branch.ci(&["--base", "main"], &tmpdir);
    assert_eq!(output.status.code(), Some(3), "{}", render(&output));
    assert!(!temp.join("escaped").exists(), "{}", render(&output));
    let text = stdout(&output);
    assert!(
        text.contains("no longer collected: clears \\u{1b}[2J the screen"),
        "{text}"
    );

    let empty = Branch::with_policy(&format!("{POLICY}\n[tests]\ncollect = ['true']\n"));
    let mut empty = empty;
    empty.commit("any", HUMAN, &[("src/a.txt", "a\n")], "Add a");
    let output = empty.ci(&["--base", "main"], &tmpdir);
    assert_eq!(output.status.code(), Some(2), "{}", render(&output));
    assert!(
        stderr(&output).contains("listed no test on the base"),
        "{}",
        render(&output)
    );
}

/// GitHub's runner also reads a command after any Unicode whitespace (a no-break space),
/// and its older `##[command]` form anywhere in a line: neither comes through from the
/// repository, in text or JSON.
#[test]
fn no_workflow_command_in_any_form_the_runner_reads() {
    let mut branch = Branch::new();
    branch.commit(
        "evil",
        by(("##[error]forged by author", "eve@example.com")),
        &[(
            "tests/\u{a0}::error::forged annotation/test_x.rs",
            "#[test]\nfn evil() {}\n",
        )],
        &format!("##[stop-commands]token{CLAUDE}"),
    );
    let github = [("GITHUB_ACTIONS", "true")];
    for format in ["text", "json"] {
        let output = branch.ci(
            &[
                "--base",
                "main",
                "--target-branch",
                "feature",
                "--format",
                format,
            ],
            &github,
        );
        assert_eq!(output.status.code(), Some(3), "{}", render(&output));
        for stream in [stdout(&output), stderr(&output)] {
            assert!(!stream.contains("##["), "{stream}");
            for command in workflow_commands(&stream) {
                assert!(
                    ["::warning ", "::notice ", "::error "]
                        .iter()
                        .any(|own| command.trim_start().starts_with(own)),
                    "a workflow command from the repository: {command:?}\n{}",
                    render(&output)
                );
            }
        }
    }
}

/// GitHub's runner ends a line at a lone `\r` too: an error that quotes a path holding
/// one gives it no command.
#[test]
fn a_carriage_return_in_an_error_starts_no_command() {
    let mut branch = Branch::with_policy(&format!(
        "{POLICY}\n[tests]\ncollect = ['cat tests/cases.list']\n"
    ));
    branch.commit(
        "evil",
        HUMAN,
        &[
            ("tests/cases.list", "adds\n"),
            ("tests/x\r::add-mask::p.rs", "x\n"),
        ],
        "Add a case",
    );
    let github = [("GITHUB_ACTIONS", "true")];
    let output = branch.ci(&["--base", "main"], &github);
    assert_eq!(output.status.code(), Some(2), "{}", render(&output));
    for stream in [stdout(&output), stderr(&output)] {
        assert!(workflow_commands(&stream).is_empty(), "{stream:?}");
    }
}
