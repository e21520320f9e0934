//! Command-line interface: clap derive types only.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// What `astrix --version` prints after `astrix `: the version, the package and the commit
/// it was built from (`unknown` when the build could not tell), as
/// `astrix 0.1.0 (astrix-guard 1a2b3c4d5e6f)`. The hooks and the pre-commit shim take a
/// program for astrix only when the first line of its `--version` has this form, so that a
/// stranger's `astrix` on PATH is never run in its place: keep it.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (astrix-guard ",
    env!("ASTRIX_BUILD_COMMIT"),
    ")"
);

/// A commit-time guardrail for repositories that autonomous coding agents work in.
///
/// Exit codes of every evaluating command: 0 allowed (including held and approved),
/// 1 denied, 3 held for a human's approval, 2 error (the action is blocked).
#[derive(Debug, Parser)]
#[command(name = "astrix", version = VERSION, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    /// Run as if astrix had been started in DIR, as `git -C` does: the repository is found
    /// from there, and relative paths on the command line are read from there.
    #[arg(short = 'C', value_name = "DIR")]
    pub directory: Option<PathBuf>,
    /// When to colour the output: `auto` on a terminal unless `NO_COLOR` is set, `always`
    /// (also when piped, and despite `NO_COLOR`), `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto, global = true)]
    pub color: ColorWhen,
    /// Print nothing but errors: the exit code is the answer (0 allowed, 1 denied, 3 held,
    /// 2 error). Not for `approve`, which asks, nor `mcp`, whose output is the protocol.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    /// Always, also when the output is not a terminal and when `NO_COLOR` is set.
    Always,
    /// Never.
    Never,
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// For people: a report with colour on a terminal.
    #[default]
    Text,
    /// For programs.
    Json,
}

/// `--format`, shared by the commands that report.
#[derive(Debug, Clone, Copy, Args)]
pub struct FormatArg {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Judge the staged change: exactly what `git commit` is about to record.
    Check(CheckArgs),
    /// Judge every commit of a branch, and the branch as a whole, in CI.
    Ci(CiArgs),
    /// Print the ActionIntent of the staged change as JSON (it round-trips into `evaluate`).
    Intent(IntentArgs),
    /// Approve exactly the staged content (a human, at a terminal).
    Approve(ApproveArgs),
    /// Show the audit log of the gate's decisions.
    Log(LogArgs),
    /// Evaluate an ActionIntent (JSON) against the policy.
    Evaluate(EvaluateArgs),
    /// Check an Astrixfile.ax; exit 0 when valid, 2 with every problem when not.
    Validate(ValidateArgs),
    /// Run the `[[test]]` cases of an Astrixfile.ax.
    Test(TestArgs),
    /// Write the built-in default policy to Astrixfile.ax at the repository root.
    Init(InitArgs),
    /// Print the JSON Schema of the intent, the decision or the Astrixfile.
    Schema(SchemaArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Print astrix's documentation (it ships with the binary): every policy key, CI, security.
    Docs(DocsArgs),
    /// Install astrix's git hooks (pre-commit, prepare-commit-msg, reference-transaction).
    Install(InstallArgs),
    /// Remove astrix's git hooks and put back the hooks they chained or replaced.
    Uninstall(UninstallArgs),
    /// Run a git hook; the hooks that `astrix install` writes call this.
    Hook(HookArgs),
    /// Show the components a change affects, and why.
    BlastRadius(BlastRadiusArgs),
    /// List the tests of the components a change affects, or run them with `--run`.
    ImpactedTests(ImpactedTestsArgs),
    /// Serve astrix's tools to coding agents over MCP (stdio), for this repository.
    Mcp(McpArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Add the intent, the policy's source and every rule's outcome to the output.
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub format: FormatArg,
}

/// `astrix ci`.
#[derive(Debug, Args)]
pub struct CiArgs {
    /// Where the change goes, such as `origin/main` (which always means
    /// `refs/remotes/origin/main`): the commits judged are those the head has and it does not
    /// (`git rev-list BASE..HEAD`), with the policy committed at it.
    #[arg(long, value_name = "REV")]
    pub base: String,
    /// The tip of the change.
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    pub head: String,
    /// The branch the change goes to, for `[[environment]]`: the range as a whole is judged as
    /// a merge into it (default: `GITHUB_BASE_REF`, else the branch `--base` names).
    #[arg(long, value_name = "NAME")]
    pub target_branch: Option<String>,
    /// The branch the commits were made on, for `[[environment]]`: each is judged as a commit
    /// there, as the local gate judged it (default: `GITHUB_HEAD_REF`, else the branch
    /// `--head` names, else the checked-out branch).
    #[arg(long, value_name = "NAME")]
    pub head_branch: Option<String>,
    /// The pipeline's own review rules are met (an approving review, say): held commits pass,
    /// and the output says so. A denial stays a denial.
    #[arg(long)]
    pub approved: bool,
    #[command(flatten)]
    pub format: FormatArg,
}

#[derive(Debug, Args)]
pub struct IntentArgs {}

#[derive(Debug, Args)]
pub struct ApproveArgs {
    /// Why the change is approved; recorded with the approval.
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    /// Approve the staged content as an amend of HEAD (on top of HEAD's parent).
    #[arg(long, conflicts_with_all = ["list", "revoke", "branch"])]
    pub amend: bool,
    /// Approve what BRANCH would gain by moving to `--tip`: each commit that nothing vouches
    /// for, and all of them as one change, as the reference-transaction hook judges them.
    #[arg(long, value_name = "BRANCH", requires = "tip", conflicts_with_all = ["list", "revoke"])]
    pub branch: Option<String>,
    /// The commit `--branch` would move to.
    #[arg(long, value_name = "COMMIT", requires = "branch")]
    pub tip: Option<String>,
    /// List the recorded approvals.
    #[arg(long, conflicts_with = "revoke")]
    pub list: bool,
    /// Remove the approval with this id.
    #[arg(long, value_name = "ID")]
    pub revoke: Option<String>,
    #[command(flatten)]
    pub format: FormatArg,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Show only the last N decisions (of those the other filters keep).
    #[arg(short = 'n', long = "count", value_name = "N")]
    pub count: Option<usize>,
    /// Only the decisions about this actor: its type (`autonomous_llm`, `human`) or its id
    /// (`claude-code`).
    #[arg(long, value_name = "ACTOR")]
    pub actor: Option<String>,
    /// Only the decisions of this kind.
    #[arg(long, value_enum, value_name = "DECISION")]
    pub decision: Option<LogDecision>,
    /// Only the decisions made since WHEN: a date (`2026-11-30`), a UTC time
    /// (`2026-11-30T10:00:00Z`), or a span back from now (`90m`, `2h`, `7d`).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only the decisions from this source.
    #[arg(long, value_enum, value_name = "SOURCE")]
    pub source: Option<LogSource>,
    #[command(flatten)]
    pub format: FormatArg,
}

/// `astrix log --source`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogSource {
    /// Commits and branch updates, judged by the git hooks.
    Commit,
    /// Coding agents' tool calls, judged by `astrix hook <agent>`.
    ToolCall,
    /// Commands that would loosen the gate, refused to an agent (`astrix uninstall`).
    Command,
}

/// `astrix log --decision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogDecision {
    /// Allowed by the policy.
    Allow,
    /// Held for approval, whether or not an approval let it through.
    #[value(name = "require_approval")]
    RequireApproval,
    /// Held, and not let through.
    Held,
    /// Held, and let through by an approval.
    Approved,
    /// Denied.
    Deny,
    /// The gate could not judge (the action was blocked).
    Error,
}

#[derive(Debug, Args)]
pub struct EvaluateArgs {
    /// The intent file; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// The policy to use, instead of the Astrixfile.ax committed at HEAD.
    #[arg(long, value_name = "PATH")]
    pub policy: Option<PathBuf>,
    /// Add the intent, the policy's source and every rule's outcome to the output.
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub format: FormatArg,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The policy file (default: Astrixfile.ax at the repository root).
    pub path: Option<PathBuf>,
    #[command(flatten)]
    pub format: FormatArg,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// The policy file (default: Astrixfile.ax at the repository root).
    pub path: Option<PathBuf>,
    #[command(flatten)]
    pub format: FormatArg,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Overwrite an existing Astrixfile.ax.
    #[arg(long)]
    pub force: bool,
}

/// Which schema `astrix schema` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaKind {
    /// The ActionIntent that `evaluate` reads and `intent` prints.
    Intent,
    /// The decision that evaluating commands print with `--format json`.
    Decision,
    /// The Astrixfile.ax policy file (for editors such as taplo / Even Better TOML).
    Astrixfile,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which schema.
    #[arg(value_enum)]
    pub kind: SchemaKind,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// A page of the documentation that `astrix docs` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocsTopic {
    /// Astrixfile.ax: every key, path patterns, numeric policies, how rules combine, tests,
    /// diagnostics.
    Astrixfile,
    /// `astrix ci`: the road from the local gate to the merge, GitHub Actions and GitLab CI.
    Ci,
    /// What each defence stops and what it does not; approvals; the backstop.
    Security,
    /// The blast radius and impacted tests: components, workspaces, `[impact]`.
    BlastRadius,
    /// How tests removed, skipped and weakened are counted.
    TestTampering,
    /// The MCP server: registering it, its tools and their schemas.
    Mcp,
    /// The agents' tool-call hooks: Claude Code, Codex, Gemini CLI, Copilot CLI, Cursor.
    Agents,
    /// Every way to install astrix: wheels, crates.io, release binaries, pre-commit, the action.
    Install,
    /// Faults, hostile inputs and fuzzing.
    Robustness,
    /// How astrix is built, for contributors.
    Architecture,
}

/// `astrix docs`.
#[derive(Debug, Args)]
pub struct DocsArgs {
    /// The page; without one, the list of pages.
    #[arg(value_enum)]
    pub topic: Option<DocsTopic>,
}

/// `astrix install`.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// Replace an existing hook instead of chaining it (it is kept as a backup, and
    /// `astrix uninstall` puts it back).
    #[arg(long)]
    pub force: bool,
    /// Install only the reference-transaction hook, beside a pre-commit hook that a hook
    /// manager (pre-commit, prek) runs.
    #[arg(long)]
    pub backstop: bool,
    /// Instead of the git hooks, merge astrix's pre-tool-call hook into a coding agent's
    /// project settings (`claude-code`: .claude/settings.json, `codex`: .codex/hooks.json,
    /// `copilot-cli`: .github/hooks/astrix.json, `cursor`: .cursor/hooks.json), or into every
    /// one's (`all`).
    #[arg(long, value_enum, value_name = "AGENT", conflicts_with_all = ["force", "backstop"])]
    pub agent: Option<AgentChoice>,
}

/// `--agent`: a coding agent whose tool calls astrix answers, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AgentChoice {
    /// Claude Code.
    ClaudeCode,
    /// The Codex CLI.
    Codex,
    /// Gemini CLI.
    GeminiCli,
    /// The GitHub Copilot CLI.
    #[value(alias = "copilot")]
    CopilotCli,
    /// Cursor's agent.
    Cursor,
    /// Every agent astrix has a hook for.
    All,
}

/// `astrix uninstall`.
#[derive(Debug, Args)]
pub struct UninstallArgs {
    /// Instead of the git hooks, take astrix's pre-tool-call hook out of a coding agent's
    /// project settings (or out of every one's, `all`).
    #[arg(long, value_enum, value_name = "AGENT")]
    pub agent: Option<AgentChoice>,
}

/// `astrix hook`.
#[derive(Debug, Args)]
pub struct HookArgs {
    /// The hook that git runs (`pre-commit`, `prepare-commit-msg`, `commit-msg`,
    /// `reference-transaction`), or a coding agent's pre-tool-call hook (`claude-code`,
    /// `codex`, `copilot-cli`, `cursor`, `gemini-cli`), which reads the proposed tool call as JSON on stdin.
    #[arg(value_name = "HOOK")]
    pub name: String,
    /// The arguments git gives the hook.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<OsString>,
}

/// Which change `blast-radius` and `impacted-tests` analyse.
#[derive(Debug, Clone, Args)]
pub struct ChangeSelection {
    /// Analyse the commits `merge-base(REV, HEAD)..HEAD` instead of the staged change.
    #[arg(long, value_name = "REV", conflicts_with = "paths")]
    pub base: Option<String>,
    /// Analyse these files (relative to the current directory) instead of the staged
    /// change.
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,
}

/// Output format of `astrix blast-radius`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum BlastFormat {
    /// For people: a tree of the affected components.
    #[default]
    Text,
    /// For programs.
    Json,
    /// A Mermaid flowchart of the affected components, in a Markdown code block (for a pull
    /// request comment or a job summary).
    Mermaid,
}

/// `astrix blast-radius`.
#[derive(Debug, Args)]
pub struct BlastRadiusArgs {
    #[command(flatten)]
    pub change: ChangeSelection,
    /// Output format.
    #[arg(long, value_enum, default_value_t = BlastFormat::Text)]
    pub format: BlastFormat,
}

/// `astrix impacted-tests`.
#[derive(Debug, Args)]
pub struct ImpactedTestsArgs {
    #[command(flatten)]
    pub change: ChangeSelection,
    /// Run the tests (one after another, at the repository root); exit 0 when all pass, 1
    /// when any fails.
    #[arg(long)]
    pub run: bool,
    #[command(flatten)]
    pub format: FormatArg,
}

/// `astrix mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve the repository at DIR instead of the current directory's (for clients that
    /// start servers elsewhere, such as `${workspaceFolder}` in Cursor).
    #[arg(short = 'C', long = "directory", value_name = "DIR")]
    pub directory: Option<PathBuf>,
}
