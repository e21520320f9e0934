//! Gemini CLI's `BeforeTool` command hook (the protocol of Gemini CLI's hooks reference,
//! checked against `@google/gemini-cli` 0.61.0).
//!
//! Input, one JSON object on stdin: `session_id`, `transcript_path`, `cwd`,
//! `hook_event_name` (`BeforeTool`), `timestamp`, `tool_name`, `tool_input` (the model's
//! arguments), and for MCP tools `mcp_context`. The tools astrix reads:
//! - `write_file` `{file_path, content}`;
//! - `replace` `{file_path, old_string, new_string, allow_multiple?, instruction?}`;
//! - `run_shell_command` `{command, description?, dir_path?, is_background?}`, run in
//!   `dir_path` (relative to the project) when given.
//!
//! `file_path` is absolute or relative to the project. When `old_string` is not found as
//! written, Gemini CLI's `replace` goes on matching loosely (whitespace, indentation, a
//! model's correction of the string), so an edit astrix cannot apply exactly is judged with
//! its result unknown instead of being left alone. MCP tools (`mcp_<server>_<tool>`) and the
//! rest are not astrix's to judge.
//!
//! Output: exit 0 with nothing leaves the call to Gemini CLI's own policy; exit 0 with
//! `{"decision": "deny", "reason": …}` blocks it, the reason sent to the model as the tool's
//! error; `{"decision": "ask", …}` makes Gemini CLI ask the user to confirm the call whatever
//! its approval mode (`systemMessage` is what the confirmation shows). Exit 2 blocks with
//! stderr as the reason; so does any other exit code but 1 when there is text on stderr or
//! stdout. Exit 1, a silent failure and a timeout let the call through, which is why the
//! command `astrix install --agent gemini-cli` writes maps every failure to exit 2. The
//! input does not say whether a person is there to answer an "ask".

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

use super::edit::Replacement;
use super::{Action, Answer, Content, FileWrite, ToolCall};

/// The hook's input, as far as astrix reads it; other fields are ignored.
#[derive(Debug, Deserialize)]
struct BeforeTool {
    hook_event_name: String,
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
    #[serde(default)]
    cwd: Option<PathBuf>,
}

/// Reads the hook's input.
pub fn parse(input: &[u8]) -> anyhow::Result<ToolCall> {
    let input: BeforeTool = serde_json::from_slice(input)?;
    super::expect_event(super::Harness::GeminiCli, &input.hook_event_name)?;
    let field = |name: &str| {
        super::string_argument(&input.tool_input, "tool_input", &input.tool_name, name)
    };
    let action = match input.tool_name.as_str() {
        "write_file" => Action::Write(vec![FileWrite {
            path: PathBuf::from(field("file_path")?),
            content: Content::Replace(field("content")?.into_bytes()),
        }]),
        "replace" => Action::Write(vec![FileWrite {
            path: PathBuf::from(field("file_path")?),
            content: Content::LooseEdits(vec![Replacement {
                old: field("old_string")?,
                new: field("new_string")?,
                all: input
                    .tool_input
                    .get("allow_multiple")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            }]),
        }]),
        "run_shell_command" => {
            let command = field("command")?;
            match input.tool_input.get("dir_path").and_then(Value::as_str) {
                Some(dir) if !dir.is_empty() => {
                    let dir = shlex::try_quote(dir).map_err(|error| {
                        anyhow::anyhow!("`tool_input.dir_path` cannot be read: {error}")
                    })?;
                    Action::Shell(format!("cd {dir} && {command}"))
                }
                _ => Action::Shell(command),
            }
        }
        _ => Action::Other,
    };
    Ok(ToolCall {
        tool: input.tool_name,
        cwd: input.cwd,
        // Gemini CLI asks whatever its approval mode; its input does not say whether the
        // session is headless (docs/agents.md says what happens there).
        ask_reaches_a_person: true,
        mode: None,
        action,
    })
}

/// The answer on stdout (nothing for no decision).
pub fn render(answer: &Answer) -> Option<String> {
    let value = match answer {
        Answer::NoDecision => return None,
        Answer::Deny(reason) => serde_json::json!({"decision": "deny", "reason": reason}),
        // The confirmation shows `systemMessage`, not `reason`.
        Answer::Ask(reason) => serde_json::json!({
            "decision": "ask",
            "reason": reason,
            "systemMessage": reason,
        }),
    };
    Some(value.to_string())
}

/// The tools the installed hook is registered for (the `matcher` of its entry, a regular
/// expression).
pub const MATCHER: &str = "^(write_file|replace|run_shell_command)$";

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tool: &str, input: &Value) -> ToolCall {
        parse(
            serde_json::json!({
                "session_id": "s", "transcript_path": "", "cwd": "/r",
                "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00Z",
                "tool_name": tool, "tool_input": input,
            })
            .to_string()
            .as_bytes(),
        )
        .unwrap()
    }

    #[test]
    fn a_shell_command_in_a_directory_is_read_there() {
        assert_eq!(
            call(
                "run_shell_command",
                &serde_json::json!({"command": "rm -rf hooks", "dir_path": ".git dir"})
            )
            .action,
            Action::Shell("cd '.git dir' && rm -rf hooks".to_owned())
        );
        assert_eq!(
            call("run_shell_command", &serde_json::json!({"command": "ls"})).action,
            Action::Shell("ls".to_owned())
        );
    }

    #[test]
    fn other_events_and_missing_fields_are_errors() {
        let error = parse(br#"{"hook_event_name":"AfterTool","tool_name":"replace"}"#)
            .unwrap_err()
            .to_string();
        assert!(error.contains("`BeforeTool` only"), "{error}");
        let error = parse(
            br#"{"hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"a"}}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("tool_input.old_string"), "{error}");
        assert_eq!(call("read_file", &Value::Null).action, Action::Other);
    }
}
