//! Cursor's `preToolUse` agent hook (the protocol of Cursor's hooks reference, hook
//! configuration `"version": 1`, as documented for Cursor 2.x; not run against a real Cursor:
//! its CLI installs with a script from cursor.com, not from a package registry).
//!
//! Configuration: `.cursor/hooks.json` of the project (run in a trusted workspace, from the
//! project root), `{"version": 1, "hooks": {"preToolUse": [{"command": …, "matcher": …,
//! "timeout": …, "failClosed": true}]}}`.
//!
//! Input, one JSON object on stdin: the common fields (`conversation_id`, `generation_id`,
//! `model`, `hook_event_name` `preToolUse`, `cursor_version`, `workspace_roots`,
//! `user_email`, `transcript_path`) and `tool_name`, `tool_input`, `tool_use_id`, `cwd`. The
//! reference documents `Shell`'s input (`{command, working_directory}`) and names the other
//! tools a matcher selects (`Read`, `Write`, `Grep`, `Delete`, `Task`, `MCP:<tool>`), but not
//! their inputs. astrix reads:
//! - `Shell` `{command, working_directory?}`;
//! - `Write` with a path (`file_path`, `path` or `target_file`) and its content
//!   (`content`, `contents` or `file_text`);
//! - `StrReplace` / `Edit` with a path and `old_string`, `new_string`, `replace_all?`;
//! - `Delete` with a path.
//!
//! A write whose content is not in one of those fields is judged with its content unknown
//! (its line counts unknown, so a rule that reads them holds it); a write to what astrix
//! keeps is denied whatever it carries.
//!
//! Output: `{"permission": "deny", "user_message": …, "agent_message": …}` blocks the call;
//! `"ask"` is accepted by the schema but not enforced for `preToolUse`, so a held call is
//! denied, saying a person must make the change. An allowed call gets `{}` (no permission:
//! Cursor's own approvals decide). Exit 2 blocks as a denial does; any other exit code, a
//! crash, a timeout or invalid JSON lets the call through unless the entry says
//! `failClosed: true`, which `astrix install --agent cursor` writes, beside the wrapper that
//! maps every failure to exit 2. astrix answers its own errors with the denial and exit 2.

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
    workspace_roots: Vec<PathBuf>,
}

/// Reads the hook's input.
pub fn parse(input: &[u8]) -> anyhow::Result<ToolCall> {
    let input: PreToolUse = serde_json::from_slice(input)?;
    super::expect_event(super::Harness::Cursor, &input.hook_event_name)?;
    let args = match &input.tool_input {
        // Cursor passes some tools' input as a JSON string.
        Value::String(text) => serde_json::from_str(text).unwrap_or(Value::Null),
        other => other.clone(),
    };
    let text = |names: &[&str]| {
        names
            .iter()
            .find_map(|name| args.get(*name).and_then(Value::as_str))
            .map(str::to_owned)
    };
    let path = || {
        text(&["file_path", "path", "target_file"]).ok_or_else(|| {
            anyhow::anyhow!(
                "`tool_input` of `{}` names no file (`file_path`, `path` or `target_file`)",
                input.tool_name
            )
        })
    };
    let mut cwd = input
        .cwd
        .clone()
        .or_else(|| input.workspace_roots.first().cloned());
    let action = match input.tool_name.as_str() {
        "Shell" => {
            if let Some(dir) = text(&["working_directory"]).filter(|dir| !dir.is_empty()) {
                cwd = Some(PathBuf::from(dir));
            }
            Action::Shell(super::string_argument(
                &input.tool_input,
                "tool_input",
                "Shell",
                "command",
            )?)
        }
        "Write" => Action::Write(vec![FileWrite {
            path: PathBuf::from(path()?),
            content: match text(&["content", "contents", "file_text"]) {
                Some(content) => Content::Replace(content.into_bytes()),
                None => Content::Unknown,
            },
        }]),
        "StrReplace" | "Edit" => Action::Write(vec![FileWrite {
            path: PathBuf::from(path()?),
            content: match (text(&["old_string"]), text(&["new_string"])) {
                (Some(old), Some(new)) => Content::Edits(vec![Replacement {
                    old,
                    new,
                    all: args
                        .get("replace_all")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                }]),
                _ => Content::Unknown,
            },
        }]),
        "Delete" => Action::Write(vec![FileWrite {
            path: PathBuf::from(path()?),
            content: Content::Delete,
        }]),
        _ => Action::Other,
    };
    Ok(ToolCall {
        tool: input.tool_name,
        cwd,
        // `ask` is not enforced for `preToolUse`.
        ask_reaches_a_person: false,
        mode: None,
        action,
    })
}

/// The answer on stdout: always a JSON object (Cursor reads an empty answer as invalid).
pub fn render(answer: &Answer) -> Option<String> {
    let reason = match answer {
        Answer::NoDecision => return Some("{}".to_owned()),
        Answer::Deny(reason) | Answer::Ask(reason) => reason,
    };
    Some(
        serde_json::json!({
            "permission": "deny",
            "user_message": reason,
            "agent_message": reason,
        })
        .to_string(),
    )
}

/// The tools the installed hook is registered for (the `matcher` of its entry).
pub const MATCHER: &str = "Shell|Write|StrReplace|Edit|Delete";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_shell_input_and_the_write_tools_are_read() {
        let shell = br#"{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"npm install","working_directory":"/project/sub"},"tool_use_id":"abc123","cwd":"/project"}"#;
        let call = parse(shell).unwrap();
        assert_eq!(call.action, Action::Shell("npm install".into()));
        assert_eq!(call.cwd, Some(PathBuf::from("/project/sub")));
        let write = br#"{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"path":"/p/a.py"}}"#;
        assert_eq!(
            parse(write).unwrap().action,
            Action::Write(vec![FileWrite {
                path: PathBuf::from("/p/a.py"),
                content: Content::Unknown
            }])
        );
        let other = br#"{"hook_event_name":"beforeShellExecution","command":"ls","tool_name":"x"}"#;
        assert!(parse(other).is_err());
    }
}
