//! Codex's `PreToolUse` command hook (the protocol of the Codex CLI's hooks, checked
//! against codex-cli 0.171.0; hooks are on by default since 0.124.0).
//!
//! Input, one JSON object on stdin: `session_id`, `turn_id`, `transcript_path`, `cwd`,
//! `hook_event_name` (`PreToolUse`), `model`, `permission_mode`, `tool_name`,
//! `tool_input`, `tool_use_id`. The tools astrix reads:
//! - `Bash` (every shell tool) `{command}`;
//! - `apply_patch` (file edits, which the `Edit` and `Write` matchers also select)
//!   `{command}`, the patch envelope (`*** Begin Patch` … `*** End Patch`).
//!
//! MCP tools (`mcp__<server>__<tool>`) are not astrix's to judge.
//!
//! Output: exit 0 with nothing lets the call go on to Codex's own approvals; exit 0 with
//! `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
//! "permissionDecisionReason": …}}` blocks it and shows the reason to the model; exit 2
//! with a reason on stderr blocks it too. Codex does not support `allow` or `ask` (it
//! reports them as a failed hook and runs the call), and a hook that fails, exits with any
//! other code or times out does not block: so a held call is denied, and the command
//! `astrix install --agent codex` writes maps every failure to exit 2.

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

use super::edit::{PatchOp, parse_patch};
use super::{Action, Answer, Content, FileWrite, ToolCall};

/// The hook's input, as far as astrix reads it.
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

/// Reads the hook's input.
pub fn parse(input: &[u8]) -> anyhow::Result<ToolCall> {
    let input: PreToolUse = serde_json::from_slice(input)?;
    if input.hook_event_name != "PreToolUse" {
        anyhow::bail!(
            "`hook_event_name` is `{}`, but astrix answers `PreToolUse` only; register `astrix hook codex` under `PreToolUse`",
            input.hook_event_name
        );
    }
    let command = || -> anyhow::Result<String> {
        input
            .tool_input
            .get("command")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "`tool_input.command` of `{}` is missing or not a string",
                    input.tool_name
                )
            })
    };
    let action = match input.tool_name.as_str() {
        "Bash" => Action::Shell(command()?),
        "apply_patch" => match parse_patch(&command()?) {
            Ok(ops) => Action::Write(writes(ops)),
            // Codex's apply_patch refuses it too, and writes nothing.
            Err(why) => Action::Inapplicable(format!("the patch cannot be applied: {why}")),
        },
        _ => Action::Other,
    };
    Ok(ToolCall {
        tool: input.tool_name,
        cwd: input.cwd,
        ask_reaches_a_person: false,
        mode: input.permission_mode,
        action,
    })
}

/// The file writes of a patch: a move is the deletion of its old path and the update
/// written to its new one.
fn writes(ops: Vec<PatchOp>) -> Vec<FileWrite> {
    let mut writes = Vec::new();
    for op in ops {
        match op {
            PatchOp::Add { path, content } => writes.push(FileWrite {
                path: PathBuf::from(path),
                content: Content::Replace(content.into_bytes()),
            }),
            PatchOp::Delete { path } => writes.push(FileWrite {
                path: PathBuf::from(path),
                content: Content::Delete,
            }),
            PatchOp::Update {
                path,
                move_to,
                chunks,
            } => {
                let source = PathBuf::from(&path);
                match move_to {
                    Some(target) => {
                        writes.push(FileWrite {
                            path: PathBuf::from(target),
                            content: Content::Patch {
                                source: Some(source.clone()),
                                chunks,
                            },
                        });
                        writes.push(FileWrite {
                            path: source,
                            content: Content::Delete,
                        });
                    }
                    None => writes.push(FileWrite {
                        path: source,
                        content: Content::Patch {
                            source: None,
                            chunks,
                        },
                    }),
                }
            }
        }
    }
    writes
}

/// The answer on stdout (nothing for no decision). Codex has no `ask`: the caller turns a
/// held call into a denial before this.
pub fn render(answer: &Answer) -> Option<String> {
    let reason = match answer {
        Answer::NoDecision => return None,
        Answer::Deny(reason) | Answer::Ask(reason) => reason,
    };
    Some(
        serde_json::json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        })
        .to_string(),
    )
}

/// The tools the installed hook is registered for (the `matcher` of its entry).
pub const MATCHER: &str = "^(Bash|apply_patch)$";
