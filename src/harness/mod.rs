//! The coding agents' pre-tool-call hooks: `astrix hook claude-code`, `astrix hook codex`
//! and `astrix hook gemini-cli` answer a proposed tool call with the same Astrixfile.ax that
//! judges the commit.
//!
//! Each harness has its module, for its documented input and output ([`claude_code`],
//! [`codex`], [`gemini`]); what they share is here: a tool call read into an [`Action`], judged, and
//! answered.
//!
//! - A file-writing call is judged as a change ([`judge`]): the files it writes, their
//!   content before and after (computed in memory, [`edit`]), the tampering analysis. A
//!   write to what [`protect`] keeps (git's and astrix's state, the hooks directory, the
//!   harnesses' settings) is denied whatever the policy says.
//! - A shell command is read ([`shell`]): the plain ways of switching the gate off are
//!   denied, and a `git commit` is judged as the pre-commit hook would judge it.
//! - Anything else is not astrix's to judge.
//!
//! Answers: a denial is the harness's deny, with the reason; a held call is the harness's
//! "ask" with the reason where a person answers it, else a denial; an allowed call gets no
//! decision at all, so the harness's own permission rules still apply (astrix never grants
//! what the user did not). Malformed input and any error are the harness's blocking answer
//! (an error of the command: exit 2 with the reason on stderr).

pub mod claude_code;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod edit;
pub mod gemini;
pub mod judge;
pub mod protect;
mod push;
pub mod settings;
pub mod shell;

use std::io::Read as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::audit::{AuditEntry, AuditLog, ToolCallRecord};
use crate::context::Context;
use crate::env::{ASTRIX_ACTOR_ID, EnvSnapshot, HOME};
use crate::exit::ExitStatus;
use crate::gate::{JudgeOptions, astrix_dir, judge_staged};
use crate::git::Repository;
use crate::intent::{AUTONOMOUS_LLM, ResolvedActor};
use crate::policy::Verdict;
use crate::tamper::FindingKind;

use self::edit::{Chunk, Replacement, apply_chunks, apply_replacements};
use self::judge::{After, ProposedFile, judge_files, read_current, relative_path};
use self::protect::{Protected, normalise, real_path};
use self::shell::Push;

/// A coding agent whose tool calls astrix answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Harness {
    /// Anthropic's Claude Code.
    ClaudeCode,
    /// The Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    GeminiCli,
    /// The GitHub Copilot CLI.
    CopilotCli,
    /// Cursor's agent.
    Cursor,
}

impl Harness {
    /// Every harness, in the order `--agent all` installs them.
    pub const ALL: [Harness; 5] = [
        Harness::ClaudeCode,
        Harness::Codex,
        Harness::CopilotCli,
        Harness::Cursor,
        Harness::GeminiCli,
    ];

    /// The name on the command line (`astrix hook claude-code`), which is also the actor id.
    pub fn name(self) -> &'static str {
        match self {
            Harness::ClaudeCode => "claude-code",
            Harness::Codex => "codex",
            Harness::CopilotCli => "copilot-cli",
            Harness::Cursor => "cursor",
            Harness::GeminiCli => "gemini-cli",
        }
    }

    /// The event the harness runs the hook on (`PreToolUse`, Gemini CLI's `BeforeTool`, the
    /// Copilot CLI's and Cursor's `preToolUse`).
    pub fn event(self) -> &'static str {
        match self {
            Harness::ClaudeCode | Harness::Codex => "PreToolUse",
            Harness::GeminiCli => "BeforeTool",
            Harness::CopilotCli | Harness::Cursor => "preToolUse",
        }
    }

    /// The harness with this name (`copilot` is the Copilot CLI's too).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "copilot" => Some(Harness::CopilotCli),
            _ => Self::ALL.into_iter().find(|harness| harness.name() == name),
        }
    }

    /// The agent marker the harness sets in the commands it runs, so that a commit it
    /// proposes is judged for the actor the gate will see.
    fn marker(self) -> &'static str {
        match self {
            Harness::ClaudeCode => "CLAUDECODE",
            Harness::Codex => "CODEX_THREAD_ID",
            Harness::GeminiCli => "GEMINI_CLI",
            Harness::CopilotCli => "COPILOT_CLI",
            Harness::Cursor => "CURSOR_AGENT",
        }
    }

    fn parse(self, input: &[u8]) -> anyhow::Result<ToolCall> {
        match self {
            Harness::ClaudeCode => claude_code::parse(input),
            Harness::Codex => codex::parse(input),
            Harness::GeminiCli => gemini::parse(input),
            Harness::CopilotCli => copilot::parse(input),
            Harness::Cursor => cursor::parse(input),
        }
    }

    fn render(self, answer: &Answer) -> Option<String> {
        match self {
            Harness::ClaudeCode => claude_code::render(answer),
            Harness::Codex => codex::render(answer),
            Harness::GeminiCli => gemini::render(answer),
            Harness::CopilotCli => copilot::render(answer),
            Harness::Cursor => cursor::render(answer),
        }
    }

    /// Whether an error is also answered on stdout with the harness's denial (beside exit
    /// 2): where exit 2 alone is not the documented way to block.
    fn denies_errors_on_stdout(self) -> bool {
        matches!(self, Harness::CopilotCli | Harness::Cursor)
    }
}

/// A proposed tool call, as the harness described it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The harness's name of the tool.
    pub tool: String,
    /// The directory the session works in.
    pub cwd: Option<PathBuf>,
    /// Whether an "ask" reaches a person in the harness's current mode.
    pub ask_reaches_a_person: bool,
    /// The harness's permission mode, as it named it.
    pub mode: Option<String>,
    /// What the call would do.
    pub action: Action,
}

/// What a tool call would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Write these files.
    Write(Vec<FileWrite>),
    /// Run this shell command.
    Shell(String),
    /// Nothing: the harness's tool would refuse the call (why).
    Inapplicable(String),
    /// Something astrix does not judge (reading, searching, an MCP tool).
    Other,
}

/// One file a call writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileWrite {
    /// The path as the call gives it (absolute, or relative to the session's directory).
    pub path: PathBuf,
    /// What it becomes.
    pub content: Content,
}

/// What a written file becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// This content, whatever was there.
    Replace(Vec<u8>),
    /// The current content with these replacements, in order.
    Edits(Vec<Replacement>),
    /// The same, from a tool that goes on matching loosely when a replacement is not found
    /// as written (Gemini CLI's `replace`): then what it writes is unknown.
    LooseEdits(Vec<Replacement>),
    /// The content of `source` (or of the file itself) with these hunks applied.
    Patch {
        /// The file the hunks apply to, when the patch moves it here.
        source: Option<PathBuf>,
        /// The hunks.
        chunks: Vec<Chunk>,
    },
    /// The file is deleted.
    Delete,
    /// Content astrix does not compute.
    Unknown,
}

/// The answer to a tool call, before the harness's format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// No decision: the harness's own permission rules decide.
    NoDecision,
    /// Refused, with the reason shown to the agent.
    Deny(String),
    /// A person decides, with the reason shown to them.
    Ask(String),
}

/// What astrix concluded about a call.
struct Outcome {
    verdict: Verdict,
    reason: String,
    rules: Vec<String>,
    files: usize,
    target: Option<(String, Option<String>)>,
    policy_digest: Option<String>,
    /// What approving a held call lets through, when not a commit's change.
    ask_note: Option<&'static str>,
}

impl Outcome {
    fn allow() -> Self {
        Self {
            verdict: Verdict::Allow,
            reason: String::new(),
            rules: Vec::new(),
            files: 0,
            target: None,
            policy_digest: None,
            ask_note: None,
        }
    }

    fn deny(reason: String, rule: &str) -> Self {
        Self {
            verdict: Verdict::Deny,
            reason,
            rules: vec![rule.to_owned()],
            ..Self::allow()
        }
    }
}

/// The gate rule that denies writes to what [`protect`] keeps.
pub const PROTECTED_STATE: &str = "protected-state";
/// The gate rule that denies shell commands that would switch the gate off.
pub const GATE_OFF: &str = "gate-off";
/// The gate rule that asks about a `git push` astrix does not judge at the tool call.
pub const PUSH_UNJUDGED: &str = "push-unjudged";

/// Runs `astrix hook <harness>`: reads the tool call from stdin and answers it.
/// An error unless the input's `hook_event_name` is the event `harness` is registered under.
pub(crate) fn expect_event(harness: Harness, event: &str) -> anyhow::Result<()> {
    let (expected, name) = (harness.event(), harness.name());
    if event != expected {
        anyhow::bail!(
            "`hook_event_name` is `{event}`, but astrix answers `{expected}` only; register `astrix hook {name}` under `{expected}`"
        );
    }
    Ok(())
}

/// The string `name` of a tool call's arguments `args` (the object the harness calls
/// `object`, as in `tool_input`), or an error that names the field and the tool.
pub(crate) fn string_argument(
    args: &serde_json::Value,
    object: &str,
    tool: &str,
    name: &str,
) -> anyhow::Result<String> {
    args.get(name)
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| anyhow::anyhow!("`{object}.{name}` of `{tool}` is missing or not a string"))
}

pub fn run(harness: Harness, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .context("cannot read the tool call from standard input, so it is blocked")?;
    answer(harness, &input, ctx)
}

/// Answers the tool call `input` (the harness's JSON) on `ctx.stdout`. An error is exit 2
/// with the reason on stderr, and for the harnesses that block only on a JSON denial, that
/// denial on stdout too.
pub fn answer(harness: Harness, input: &[u8], ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let result = decide_and_answer(harness, input, ctx);
    if let Err(error) = &result
        && harness.denies_errors_on_stdout()
        && let Some(text) = harness.render(&Answer::Deny(format!("{error:#}")))
    {
        writeln!(ctx.stdout, "{text}")?;
    }
    result
}

fn decide_and_answer(
    harness: Harness,
    input: &[u8],
    ctx: &mut Context<'_>,
) -> anyhow::Result<ExitStatus> {
    let call = harness.parse(input).with_context(|| {
        format!(
            "astrix cannot read this {} tool call, so it is blocked: the input is not the harness's {} JSON",
            harness.name(),
            harness.event()
        )
    })?;
    let cwd = match &call.cwd {
        Some(dir) if dir.is_absolute() => dir.clone(),
        Some(dir) => ctx.cwd.join(dir),
        None => ctx.cwd.clone(),
    };
    let session = Session::open(harness, &cwd, &ctx.env)?;
    let outcome = session.decide(&call).with_context(|| {
        format!(
            "astrix cannot judge this `{}` call, so it is blocked",
            call.tool
        )
    })?;
    let answer = match outcome.verdict {
        Verdict::Allow => Answer::NoDecision,
        Verdict::Deny => Answer::Deny(outcome.reason.clone()),
        Verdict::RequireApproval if call.ask_reaches_a_person => Answer::Ask(format!(
            "{}\n{}",
            outcome.reason,
            outcome.ask_note.unwrap_or(
                "Approving lets this one call run; the commit gate judges the commit again, and a human approves it there with `astrix approve`"
            )
        )),
        Verdict::RequireApproval => Answer::Deny(format!(
            "{}\n{}",
            outcome.reason,
            match (harness, call.mode.as_deref()) {
                (Harness::Codex, _) => {
                    "Codex has no \"ask\" for a hook to give, so astrix denies what it holds; a human makes this change (and approves the commit with `astrix approve`)".to_owned()
                }
                (Harness::Cursor, _) => {
                    "Cursor does not enforce \"ask\" for preToolUse, so astrix denies what it holds; a person must approve: a human makes this change (and approves the commit with `astrix approve`)".to_owned()
                }
                (_, mode) => format!(
                    "In permission mode `{}` nobody is asked, so astrix denies what it holds; a human makes this change, or runs the session in a mode that asks (default, acceptEdits, plan)",
                    mode.unwrap_or("(none given)")
                ),
            }
        )),
    };
    if answer != Answer::NoDecision {
        session.record(&call, &outcome)?;
    }
    if let Some(text) = harness.render(&answer) {
        writeln!(ctx.stdout, "{text}")?;
    }
    Ok(ExitStatus::Allowed)
}

/// The repository (if any) a session works in, and what is kept from it.
struct Session {
    harness: Harness,
    cwd: PathBuf,
    home: Option<PathBuf>,
    env: EnvSnapshot,
    repo: Option<Repository>,
    work_dir: Option<PathBuf>,
    protected: Protected,
}

impl Session {
    fn open(harness: Harness, cwd: &Path, env: &EnvSnapshot) -> anyhow::Result<Self> {
        let home = env
            .get_os(HOME)
            .map(PathBuf::from)
            .filter(|home| home.is_absolute());
        let (repo, work_dir, protected) = match crate::commands::find_work_tree(cwd) {
            Some(_) => {
                let repo = Repository::open(cwd, env)?;
                let work_dir = repo.work_dir().map(|dir| normalise(&cwd.join(dir)));
                let hooks = crate::commands::install::hooks_dir(cwd)
                    .context("cannot find the directory git runs hooks from")?;
                let astrix = astrix_dir(&repo);
                let git_dir = normalise(&cwd.join(repo.git_dir()));
                let common_dir = normalise(&cwd.join(repo.common_dir()));
                let protected = Protected::new(
                    work_dir.as_deref(),
                    &[&git_dir, &common_dir],
                    Some(&normalise(&cwd.join(hooks))),
                    Some(&normalise(&cwd.join(astrix))),
                    home.as_deref(),
                );
                (Some(repo), work_dir, protected)
            }
            None => (
                None,
                None,
                Protected::new(None, &[], None, None, home.as_deref()),
            ),
        };
        Ok(Self {
            harness,
            cwd: cwd.to_path_buf(),
            home,
            env: env.clone(),
            repo,
            work_dir,
            protected,
        })
    }

    fn actor(&self) -> ResolvedActor {
        ResolvedActor {
            kind: AUTONOMOUS_LLM.to_owned(),
            id: Some(
                self.env
                    .get(ASTRIX_ACTOR_ID)
                    .filter(|id| !id.is_empty())
                    .unwrap_or(self.harness.name())
                    .to_owned(),
            ),
            decided_by: format!("the {} tool-call hook", self.harness.name()),
        }
    }

    fn decide(&self, call: &ToolCall) -> anyhow::Result<Outcome> {
        match &call.action {
            Action::Other | Action::Inapplicable(_) => Ok(Outcome::allow()),
            Action::Write(writes) => self.writes(call, writes),
            Action::Shell(command) => self.shell(command),
        }
    }

    fn writes(&self, call: &ToolCall, writes: &[FileWrite]) -> anyhow::Result<Outcome> {
        let absolute = |path: &Path| normalise(&self.cwd.join(path));
        for write in writes {
            let path = absolute(&write.path);
            if let Some(what) = self.protected.protects(&path) {
                return Ok(Outcome::deny(
                    format!(
                        "astrix: `{}` is {what}; astrix refuses agents' writes there, whatever the policy says",
                        path.display()
                    ),
                    PROTECTED_STATE,
                ));
            }
        }
        let (Some(repo), Some(work_dir)) = (&self.repo, &self.work_dir) else {
            return Ok(Outcome::allow());
        };
        let real_work_dir = real_path(work_dir);
        let mut proposed = Vec::new();
        for write in writes {
            let path = absolute(&write.path);
            let Some(relative) = relative_path(&real_work_dir, &real_path(&path))
                .or_else(|| relative_path(work_dir, &path))
            else {
                // Outside the repository, and not where git or astrix keep anything.
                continue;
            };
            let relative = relative?;
            let before = read_current(&path)?;
            let after = match &write.content {
                Content::Replace(bytes) => After::Content(bytes.clone()),
                Content::Delete if before.is_none() => return Ok(Outcome::allow()),
                Content::Delete => After::Deleted,
                Content::Unknown => After::Unknown,
                Content::Edits(edits) => match apply_replacements(before.as_deref(), edits) {
                    Ok(bytes) => After::Content(bytes),
                    // The harness's tool fails the same way, and writes nothing.
                    Err(_) => return Ok(Outcome::allow()),
                },
                Content::LooseEdits(edits) => match apply_replacements(before.as_deref(), edits) {
                    Ok(bytes) => After::Content(bytes),
                    Err(_) => After::Unknown,
                },
                Content::Patch { source, chunks } => {
                    let base = match source {
                        Some(source) => read_current(&absolute(source))?,
                        None => before.clone(),
                    };
                    match base.map(|base| apply_chunks(&base, chunks)) {
                        Some(Ok(bytes)) => After::Content(bytes),
                        _ => return Ok(Outcome::allow()),
                    }
                }
            };
            proposed.push(ProposedFile {
                path: relative,
                before,
                after,
            });
        }
        if proposed.is_empty() {
            return Ok(Outcome::allow());
        }
        let judged = judge_files(repo, &self.env, &self.actor(), &proposed)?;
        let decision = &judged.decision;
        let mut outcome = Outcome {
            verdict: decision.verdict,
            reason: String::new(),
            rules: decision.deciding_rules.clone(),
            files: judged.intent.modified_files.len(),
            target: Some((judged.intent.target.env.clone(), None)),
            policy_digest: Some(judged.policy.loaded.provenance.digest.clone()),
            ask_note: None,
        };
        if decision.verdict != Verdict::Allow {
            outcome.reason = policy_reason(&call.tool, decision, &judged.tamper);
        }
        Ok(outcome)
    }

    fn shell(&self, command: &str) -> anyhow::Result<Outcome> {
        let analysis = shell::analyse(command, &self.cwd, self.home.as_deref(), &self.protected);
        if let Some(why) = analysis.denial {
            return Ok(Outcome::deny(
                format!(
                    "astrix: {why}. (astrix reads shell commands on a best-effort basis; the commit gate judges every commit whatever runs it)"
                ),
                GATE_OFF,
            ));
        }
        // `git commit`, judged as the pre-commit hook will judge it, by the actor it will see.
        let mut vars: Vec<(String, std::ffi::OsString)> = self
            .env
            .vars()
            .map(|(key, value)| (key.to_owned(), value.to_owned()))
            .collect();
        vars.push((self.harness.marker().to_owned(), "1".into()));
        let env = EnvSnapshot::from_pairs(vars);
        for (dir, more) in analysis.commits {
            if crate::commands::find_work_tree(&dir).is_none() {
                continue;
            }
            let (_, judgement) = judge_staged(
                &dir,
                &env,
                JudgeOptions {
                    line_counts: false,
                    approvals: true,
                    tamper: false,
                },
            )?;
            if judgement.change.files.is_empty() && !more {
                continue;
            }
            let status = judgement.status();
            if status == ExitStatus::Allowed {
                continue;
            }
            let decision = &judgement.decision;
            let word = match decision.verdict {
                Verdict::Deny => "denies",
                _ => "holds for a human's approval",
            };
            let mut reason = format!(
                "astrix: the commit gate {word} this commit ({}): {}",
                decision.deciding_rules.join(", "),
                decision.reason
            );
            if decision.verdict == Verdict::RequireApproval {
                reason.push_str(
                    "\nA human approves the staged change with `astrix approve` from their own shell; then the commit goes through",
                );
            }
            if more {
                reason.push_str(
                    "\n(judged on the staged change; the files `-a` or the paths add are judged by the gate when the commit runs)",
                );
            }
            // Answering "ask" would approve the command, not the commit: the gate would
            // still stop it. The agent learns the gate's answer now.
            return Ok(Outcome {
                verdict: Verdict::Deny,
                reason,
                rules: decision.deciding_rules.clone(),
                files: judgement.intent.modified_files.len(),
                target: Some((
                    judgement.target.env.clone(),
                    judgement.target.branch.clone(),
                )),
                policy_digest: Some(judgement.policy.loaded.provenance.digest.clone()),
                ask_note: None,
            });
        }
        Ok(self.pushes(analysis.pushes))
    }

    /// `git push`, judged as `astrix ci` would judge the branch it updates: deny → deny,
    /// held → ask, allowed → no decision; a form astrix does not resolve here is asked.
    fn pushes(&self, pushes: Vec<(PathBuf, Push)>) -> Outcome {
        let mut held = None;
        for (dir, push) in pushes {
            if crate::commands::find_work_tree(&dir).is_none() {
                continue;
            }
            let outcome = match push::judge(&dir, &self.env, self.actor(), &push) {
                Ok(outcome) => outcome,
                Err(error) => Outcome {
                    verdict: Verdict::RequireApproval,
                    reason: format!(
                        "astrix cannot judge this push here ({error:#}); `astrix ci` judges it in the pipeline"
                    ),
                    rules: vec![PUSH_UNJUDGED.to_owned()],
                    ask_note: Some(push::ASK_NOTE),
                    ..Outcome::allow()
                },
            };
            match outcome.verdict {
                Verdict::Allow => {}
                Verdict::Deny => return outcome,
                Verdict::RequireApproval => {
                    held.get_or_insert(outcome);
                }
            }
        }
        held.unwrap_or_else(Outcome::allow)
    }

    /// Appends the decision to the audit log, beside the commit gate's.
    fn record(&self, call: &ToolCall, outcome: &Outcome) -> anyhow::Result<()> {
        let Some(repo) = &self.repo else {
            return Ok(());
        };
        let actor = self.actor();
        let (target, branch) = outcome.target.clone().unwrap_or_default();
        let subject = match &call.action {
            Action::Shell(command) => shell::cut(command),
            Action::Write(writes) => shell::cut(
                &writes
                    .iter()
                    .map(|write| write.path.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Action::Inapplicable(_) | Action::Other => String::new(),
        };
        AuditLog::new(&astrix_dir(repo))
            .append(&AuditEntry {
                time: crate::time::rfc3339(crate::time::now_unix()),
                hook: self.harness.name().to_owned(),
                actor: actor.kind,
                actor_id: actor.id,
                actor_source: actor.decided_by,
                target,
                branch,
                files: outcome.files,
                decision: outcome.verdict.name().to_owned(),
                allowed: false,
                rules: outcome.rules.clone(),
                reason: outcome.reason.clone(),
                approval: None,
                policy_digest: outcome.policy_digest.clone(),
                commit: None,
                tool_call: Some(ToolCallRecord {
                    tool: call.tool.clone(),
                    subject,
                }),
            })
            .context(
                "the decision cannot be recorded in the audit log, so the tool call is blocked",
            )
    }
}

/// The reason shown for a held or denied file write: the rules, their reasons, and the
/// lines of tests the call removes or skips.
fn policy_reason(
    tool: &str,
    decision: &crate::eval::Decision,
    tamper: &crate::tamper::TamperReport,
) -> String {
    const SHOWN: usize = 5;
    let word = match decision.verdict {
        Verdict::Deny => "denied",
        _ => "held for a human's approval",
    };
    let rules = if decision.deciding_rules.is_empty() {
        "the policy's default".to_owned()
    } else {
        decision.deciding_rules.join(", ")
    };
    let mut text = format!(
        "astrix: this {tool} call is {word} by the repository's policy ({rules}): {}",
        decision.reason
    );
    let findings: Vec<_> = tamper
        .findings()
        .filter(|finding| {
            matches!(
                finding.kind,
                FindingKind::TestRemoved | FindingKind::SkipAdded | FindingKind::AssertionRemoved
            )
        })
        .collect();
    for finding in findings.iter().take(SHOWN) {
        let what = match finding.kind {
            FindingKind::TestRemoved => "test removed",
            FindingKind::SkipAdded => "skip added",
            _ => "assertion removed",
        };
        text.push_str(&format!(
            "\n- {}:{}: {what}: `{}`",
            finding.path, finding.line, finding.text
        ));
    }
    if findings.len() > SHOWN {
        text.push_str(&format!("\n- and {} more", findings.len() - SHOWN));
    }
    text
}
