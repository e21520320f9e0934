//! The GitHub Copilot CLI's `preToolUse` command hook (the protocol of its hooks reference,
//! hook configuration `"version": 1`, checked against `@github/copilot` 1.0.102).
//!
//! Configuration: any `.github/hooks/*.json` of the repository,
//! `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": …, "timeoutSec": …}]}}`.
//!
//! Input, one JSON object on stdin (the camelCase form, which the event name `preToolUse`
//! selects): `sessionId`, `timestamp`, `cwd`, `toolName`, `toolArgs`. The tools astrix reads
//! (their schemas as the CLI sends them to the model):
//! - `edit` `{path, old_str?, new_str?}`: exactly one occurrence of `old_str` replaced;
//! - `create` `{path, file_text}`: a new file;
//! - `bash` `{command, description, …}`.
//!
//! `path` is absolute. The VS Code compatible form (event `PreToolUse`: `hook_event_name`,
//! `tool_name` capitalised, `tool_input`) is read too. Any other tool (`view`, `grep`,
//! `task`, MCP tools, `powershell`, whose quoting astrix does not read) is not astrix's to
//! judge.
//!
//! Output: exit 0 with nothing leaves the call to the CLI's own permissions; exit 0 with
//! `{"permissionDecision": "deny" | "ask", "permissionDecisionReason": …}` denies it (the
//! reason is shown to the agent) or asks the user. Where nobody can answer (`-p`), the CLI
//! turns an `ask` into a denial itself ("unable to ask user for confirmation", seen with
//! 1.0.102, also under `--allow-all-tools`). The reference says a failing hook is logged and
//! skipped; 1.0.102 blocks on exit 2 ("hook exited with code 2") and lets any other failure
//! through. So astrix answers its own errors with a `deny` carrying the reason *and* exit 2,
//! and the command `astrix install --agent copilot-cli` writes maps every failure to both.

use std::path::PathBuf;

use serde_json::Value;

use super::edit::Replacement;
use super::{Action, Answer, Content, FileWrite, ToolCall};

/// Reads the hook's input.
pub fn parse(input: &[u8]) -> anyhow::Result<ToolCall> {
    let input: Value = serde_json::from_slice(input)?;
    let Some(object) = input.as_object() else {
        anyhow::bail!("the input is not a JSON object");
    };
    if let Some(event) = object.get("hook_event_name")
        && event.as_str() != Some("PreToolUse")
    {
        anyhow::bail!(
            "`hook_event_name` is {event}, but astrix answers `preToolUse` only; register `astrix hook copilot-cli` under `preToolUse`"
        );
    }
    if object.contains_key("toolResult") || object.contains_key("tool_result") {
        anyhow::bail!(
            "the input carries a tool result, so the tool already ran; register `astrix hook copilot-cli` under `preToolUse`"
        );
    }
    let tool = ["toolName", "tool_name"]
        .iter()
        .find_map(|key| object.get(*key).and_then(Value::as_str))
        .ok_or_else(|| anyhow::anyhow!("`toolName` is missing or not a string"))?
        .to_owned();
    let mut args = ["toolArgs", "tool_input"]
        .iter()
        .find_map(|key| object.get(*key))
        .cloned()
        .unwrap_or(Value::Null);
    // The CLI passes the arguments on as the model wrote them: a JSON string it could not
    // parse stays a string.
    if let Value::String(text) = &args {
        args = serde_json::from_str(text).map_err(|error| {
            anyhow::anyhow!("`toolArgs` of `{tool}` is a string that is not JSON ({error})")
        })?;
    }
    let text = |name: &str| args.get(name).and_then(Value::as_str).map(str::to_owned);
    let field = |name: &str| super::string_argument(&args, "toolArgs", &tool, name);
    let action = match tool.to_ascii_lowercase().as_str() {
        "bash" => Action::Shell(field("command")?),
        "create" => Action::Write(vec![FileWrite {
            path: PathBuf::from(field("path")?),
            content: Content::Replace(field("file_text")?.into_bytes()),
        }]),
        "edit" => Action::Write(vec![FileWrite {
            path: PathBuf::from(field("path")?),
            content: match text("old_str") {
                Some(old) => Content::Edits(vec![Replacement {
                    old,
                    new: text("new_str").unwrap_or_default(),
                    all: false,
                }]),
                None => Content::Unknown,
            },
        }]),
        _ => Action::Other,
    };
    let cwd = object
        .get("cwd")
        .and_then(Value::as_str)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from);
    Ok(ToolCall {
        tool,
        cwd,
        // The CLI asks the user, or denies where it cannot (`-p`).
        ask_reaches_a_person: true,
        mode: None,
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
            "permissionDecision": decision,
            "permissionDecisionReason": reason,
        })
        .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_payload_forms_are_read() {
        let camel = br#"{"sessionId":"s","timestamp":1,"cwd":"/r","toolName":"edit","toolArgs":{"path":"/r/a.py","old_str":"x","new_str":"y"}}"#;
        let snake = br#"{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"t","cwd":"/r","tool_name":"Edit","tool_input":{"path":"/r/a.py","old_str":"x","new_str":"y"}}"#;
        for input in [&camel[..], &snake[..]] {
            let call = parse(input).unwrap();
            assert_eq!(
                call.action,
                Action::Write(vec![FileWrite {
                    path: PathBuf::from("/r/a.py"),
                    content: Content::Edits(vec![Replacement {
                        old: "x".into(),
                        new: "y".into(),
                        all: false
                    }]),
                }])
            );
        }
        let string_args = br#"{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#;
        assert_eq!(
            parse(string_args).unwrap().action,
            Action::Shell("ls".into())
        );
        let post = br#"{"toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{}}"#;
        assert!(parse(post).is_err());
    }
}
