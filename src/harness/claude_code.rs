//! Claude Code's `PreToolUse` command hook (the protocol of Claude Code 2.x's hooks
//! reference, checked against 2.1.332).
//!
//! Input, one JSON object on stdin: `session_id`, `transcript_path`, `cwd`,
//! `permission_mode` (`default`, `plan`, `acceptEdits`, `auto`, `dontAsk`,
//! `bypassPermissions`), `hook_event_name` (`PreToolUse`), `tool_name`, `tool_input`,
//! `tool_use_id`. The tools astrix reads:
//! - `Write` `{file_path, content}`;
//! - `Edit` `{file_path, old_string, new_string, replace_all?}`;
//! - `MultiEdit` `{file_path, edits: [{old_string, new_string, replace_all?}]}`;
//! - `NotebookEdit` `{notebook_path, new_source, cell_id?, cell_type?, edit_mode?}`;
//! - `Bash` `{command, description?, timeout?, run_in_background?}`.
//!
//! `file_path` is absolute. Any other tool is not astrix's to judge.
//!
//! Output: exit 0 with nothing leaves the call to Claude Code's own permission rules; exit
//! 0 with `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision":
//! "deny" | "ask", "permissionDecisionReason": …}}` denies it (the reason is shown to
//! Claude) or asks the user (the reason is shown in the prompt). Exit 2 blocks the call
//! with stderr as the reason; any other exit code, a timeout, or a missing command lets the
//! call through, which is why the command `astrix install --agent claude-code` writes maps
//! every failure to exit 2.

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

use super::edit::Replacement;
use super::{Action, Answer, Content, FileWrite, ToolCall};

/// The hook's input, as far as astrix reads it; other fields are ignored.
#[derive(Debug, Deserialize)]
struct PreToolUse {
    hook_event_name: String,
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
    #[serde(default)]
    cwd: Option<PathBuf>,
    #[serde(default)]
    permission_mode: Option<String>,
}

/// The permission modes in which Claude Code shows the user an `ask`. In the others
/// (`bypassPermissions`, `dontAsk`, `auto`) an `ask` is answered without a person, so a
/// held call is denied instead.
const ASKING_MODES: &[&str] = &["default", "plan", "acceptEdits"];

/// Reads the hook's input.
pub fn parse(input: &[u8]) -> anyhow::Result<ToolCall> {
    let input: PreToolUse = serde_json::from_slice(input)?;
    super::expect_event(super::Harness::ClaudeCode, &input.hook_event_name)?;
    let field = |name: &str| {
        super::string_argument(&input.tool_input, "tool_input", &input.tool_name, name)
    };
    let replacement = |value: &Value| -> anyhow::Result<Replacement> {
        let text = |name: &str| {
            value
                .get(name)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| anyhow::anyhow!("an edit's `{name}` is missing or not a string"))
        };
        Ok(Replacement {
            old: text("old_string")?,
            new: text("new_string")?,
            all: value
                .get("replace_all")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        })
    };
    let action = match input.tool_name.as_str() {
        "Write" => Action::Write(vec![FileWrite {
            path: PathBuf::from(field("file_path")?),
            content: Content::Replace(field("content")?.into_bytes()),
        }]),
        "Edit" => Action::Write(vec![FileWrite {
            path: PathBuf::from(field("file_path")?),
            content: Content::Edits(vec![replacement(&input.tool_input)?]),
        }]),
        "MultiEdit" => {
            let edits = input
                .tool_input
                .get("edits")
                .and_then(Value::as_array)
                .ok_or_else(|| {
                    anyhow::anyhow!("`tool_input.edits` of `MultiEdit` is missing or not a list")
                })?
                .iter()
                .map(replacement)
                .collect::<anyhow::Result<Vec<_>>>()?;
            Action::Write(vec![FileWrite {
                path: PathBuf::from(field("file_path")?),
                content: Content::Edits(edits),
            }])
        }
        "NotebookEdit" => Action::Write(vec![FileWrite {
            path: PathBuf::from(field("notebook_path")?),
            content: Content::Unknown,
        }]),
        "Bash" => Action::Shell(field("command")?),
        _ => Action::Other,
    };
    let asks = input
        .permission_mode
        .as_deref()
        .is_some_and(|mode| ASKING_MODES.contains(&mode));
    Ok(ToolCall {
        tool: input.tool_name,
        cwd: input.cwd,
        ask_reaches_a_person: asks,
        mode: input.permission_mode,
        action,
    })
}

/// The answer on stdout (nothing for no decision).
pub fn render(answer: &Answer) -> Option<String> {
    let (decision, reason) = match answer {
        Answer::NoDecision => return None,
        Answer::Deny(reason) => ("deny", reason),
        Answer::Ask(reason) => ("ask", reason),
    };
    Some(
        serde_json::json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": decision,
                "permissionDecisionReason": reason,
            }
        })
        .to_string(),
    )
}

/// The tools the installed hook is registered for (the `matcher` of its entry).
pub const MATCHER: &str = "Write|Edit|MultiEdit|NotebookEdit|Bash";
