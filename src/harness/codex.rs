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
//! A shell command that only hands a patch to `apply_patch` (`apply_patch <<'EOF' … EOF`,
//! perhaps after `cd DIR &&`) is how Codex runs a patch the model wrote as a shell command;
//! its hook reports that call as `Bash` (codex-cli 0.171.0, seen in a real run), so astrix
//! judges it as the patch it is. MCP tools (`mcp__<server>__<tool>`) are not astrix's to
//! judge.
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
    super::expect_event(super::Harness::Codex, &input.hook_event_name)?;
    let command =
        || super::string_argument(&input.tool_input, "tool_input", &input.tool_name, "command");
    let action = match input.tool_name.as_str() {
        "Bash" => {
            let command = command()?;
            match shell_patch(&command) {
                Some((dir, patch)) => patch_action(&patch, dir.as_deref()),
                None => Action::Shell(command),
            }
        }
        "apply_patch" => patch_action(&command()?, None),
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

/// The writes of a patch envelope, its paths relative to `dir` when given.
fn patch_action(patch: &str, dir: Option<&str>) -> Action {
    match parse_patch(patch) {
        Ok(ops) => {
            let mut writes = writes(ops);
            if let Some(dir) = dir {
                for write in &mut writes {
                    write.path = PathBuf::from(dir).join(&write.path);
                    if let super::Content::Patch {
                        source: Some(source),
                        ..
                    } = &mut write.content
                    {
                        *source = PathBuf::from(dir).join(&*source);
                    }
                }
            }
            Action::Write(writes)
        }
        // Codex's apply_patch refuses it too, and writes nothing.
        Err(why) => Action::Inapplicable(format!("the patch cannot be applied: {why}")),
    }
}

/// A patch that a shell command hands to `apply_patch` (`apply_patch <<'EOF' … EOF`, perhaps
/// after `cd DIR &&`), as Codex runs it, reporting the call as `Bash`: the directory and the
/// envelope.
fn shell_patch(command: &str) -> Option<(Option<String>, String)> {
    const BEGIN: &str = "*** Begin Patch";
    const END: &str = "*** End Patch";
    let text = command.trim_start();
    let (dir, rest) = match text.strip_prefix("cd ") {
        Some(after) => {
            let (dir, rest) = after.split_once("&&")?;
            let dir = shlex::split(dir.trim())?;
            let [dir] = dir.as_slice() else {
                return None;
            };
            (Some(dir.clone()), rest.trim_start())
        }
        None => (None, text),
    };
    if !(rest.starts_with("apply_patch ") || rest.starts_with("apply_patch<<")) {
        return None;
    }
    let start = rest.find(BEGIN)?;
    let end = rest[start..].find(END)? + start + END.len();
    Some((dir, rest[start..end].to_owned()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_handed_to_apply_patch_by_the_shell_is_found() {
        let patch = "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch";
        assert_eq!(
            shell_patch(&format!("apply_patch <<'EOF'\n{patch}\nEOF\n")),
            Some((None, patch.to_owned()))
        );
        assert_eq!(
            shell_patch(&format!("cd sub && apply_patch <<'EOF'\n{patch}\nEOF")),
            Some((Some("sub".to_owned()), patch.to_owned()))
        );
        assert_eq!(shell_patch(&format!("echo '{patch}'")), None);
        assert_eq!(shell_patch("apply_patch <<'EOF'\nEOF"), None);
    }
}
