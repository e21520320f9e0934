//! `astrix install --agent <harness>` and `astrix uninstall --agent <harness>`: astrix's
//! hook merged into a harness's project settings, and taken out again.
//!
//! The settings files are JSON with the same shape in both harnesses:
//! `{"hooks": {"PreToolUse": [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]}}`
//! (`.claude/settings.json` for Claude Code, `.codex/hooks.json` for Codex), with the event
//! `BeforeTool` and a timeout in milliseconds in Gemini CLI's `.gemini/settings.json`. The Copilot CLI's
//! file has flat entries, `{"version": 1, "hooks": {"preToolUse": [{"type": "command",
//! "bash": …, "timeoutSec": …}]}}`, and astrix's is a file of its own in the directory the
//! CLI reads every `*.json` of (`.github/hooks/astrix.json`). Installing adds one matcher
//! group (or entry) and keeps everything else, in its order; the file keeps its indentation
//! (two spaces, four, or tabs) and whether it ends with a newline. Installing again changes
//! nothing, or only the command when the binary moved.
//!
//! What the file held before is recorded in astrix's state (`astrix/agents/<harness>.json`
//! in the common git directory), with what installing wrote: while the file is as astrix
//! left it, uninstalling puts the old one back byte for byte (or removes the file and the
//! directory astrix created). When it was edited since, uninstalling removes astrix's
//! handlers (those whose command carries [`MARK`]) and whatever group they leave empty, and
//! keeps the rest.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Harness;

/// The word that marks astrix's handler in a settings file: the name its shell wrapper runs
/// under (`$0`), so that it also names the wrapper in the shell's own error messages.
pub const MARK: &str = "astrix-agent-hook";

/// Seconds the harness waits for the hook (it lets the call through after that).
const TIMEOUT_SECONDS: u64 = 60;

impl Harness {
    /// The project settings file astrix's hook goes into, relative to the work tree's root.
    pub fn settings_file(self) -> &'static str {
        match self {
            Harness::ClaudeCode => ".claude/settings.json",
            Harness::Codex => ".codex/hooks.json",
            Harness::CopilotCli => ".github/hooks/astrix.json",
            Harness::Cursor => ".cursor/hooks.json",
            Harness::GeminiCli => ".gemini/settings.json",
        }
    }

    /// The shape of the harness's hooks file.
    fn shape(self) -> Shape {
        match self {
            Harness::ClaudeCode => Shape::Grouped {
                matcher: super::claude_code::MATCHER,
                event: self.event(),
                timeout: TIMEOUT_SECONDS,
            },
            Harness::Codex => Shape::Grouped {
                matcher: super::codex::MATCHER,
                event: self.event(),
                timeout: TIMEOUT_SECONDS,
            },
            // Gemini CLI counts a hook's timeout in milliseconds.
            Harness::GeminiCli => Shape::Grouped {
                matcher: super::gemini::MATCHER,
                event: self.event(),
                timeout: TIMEOUT_SECONDS * 1000,
            },
            Harness::CopilotCli => Shape::Copilot,
            Harness::Cursor => Shape::Cursor(super::cursor::MATCHER),
        }
    }

    /// What to tell the user after installing: when the hook becomes active.
    pub fn activation_note(self) -> &'static str {
        match self {
            Harness::ClaudeCode => {
                "Claude Code reads hooks when a session starts: start a new session here (in a folder it does not trust yet it asks first); `/hooks` lists the hook. A user-level alternative is the same entry in ~/.claude/settings.json"
            }
            Harness::Cursor => {
                "Cursor runs a project's hooks in a trusted workspace and reloads hooks.json when it changes; the Hooks tab in Customize lists the entry. A user-level alternative is the same entry in ~/.cursor/hooks.json"
            }
            Harness::CopilotCli => {
                "the Copilot CLI loads .github/hooks/*.json when a session starts in a folder you trust (it asks once per folder); in prompt mode (-p) only in a folder already trusted, or with COPILOT_ALLOW_ALL=true or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true. A user-level alternative is the same file in ~/.copilot/hooks/"
            }
            Harness::GeminiCli => {
                "Gemini CLI reads hooks when a session starts, and runs a project's hooks only in a folder it trusts (when folder trust is on); the first session that sees the new hook warns about it and then runs it. `/hooks panel` lists it. A user-level alternative is the same entry in ~/.gemini/settings.json"
            }
            Harness::Codex => {
                "installed is not active yet: Codex runs a project's hooks only in a project you trust, and only once you trust each hook. Start Codex in this repository, trust the project, and review and trust astrix's hook in `/hooks` (it is listed as untrusted until then; changing the file asks again). A user-level alternative is the same entry in ~/.codex/hooks.json, which Codex also asks you to trust once"
            }
        }
    }
}

/// How a harness's hooks file holds astrix's handler.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// `hooks.<event>[]` groups `{matcher, hooks: [{type, command, timeout}]}`: Claude
    /// Code's and Codex's `PreToolUse`, Gemini CLI's `BeforeTool` (its timeout in
    /// milliseconds).
    Grouped {
        matcher: &'static str,
        event: &'static str,
        timeout: u64,
    },
    /// The Copilot CLI's `version: 1` file: `hooks.preToolUse[]` entries `{type, bash,
    /// timeoutSec}`.
    Copilot,
    /// Cursor's `version: 1` file: `hooks.preToolUse[]` entries `{command, matcher, timeout,
    /// failClosed}`.
    Cursor(&'static str),
}

impl Shape {
    fn event(self) -> &'static str {
        match self {
            Shape::Grouped { event, .. } => event,
            Shape::Copilot | Shape::Cursor(_) => "preToolUse",
        }
    }

    /// Astrix's entry in the event's list.
    fn entry(self, command: &str) -> Value {
        match self {
            Shape::Grouped {
                matcher, timeout, ..
            } => serde_json::json!({
                "matcher": matcher,
                "hooks": [{
                    "type": "command",
                    "command": command,
                    "timeout": timeout,
                }],
            }),
            Shape::Copilot => serde_json::json!({
                "type": "command",
                "bash": command,
                "timeoutSec": TIMEOUT_SECONDS,
            }),
            Shape::Cursor(matcher) => serde_json::json!({
                "command": command,
                "matcher": matcher,
                "timeout": TIMEOUT_SECONDS,
                "failClosed": true,
            }),
        }
    }

    /// Whether `entry` (an element of the event's list) runs astrix's handler.
    fn is_astrix(self, entry: &Value) -> bool {
        let command = match self {
            Shape::Grouped { .. } => return false,
            Shape::Copilot => entry.get("bash"),
            Shape::Cursor(_) => entry.get("command"),
        };
        command
            .and_then(Value::as_str)
            .is_some_and(|command| command.contains(MARK))
    }
}

/// The command astrix's handler runs: a POSIX `sh` wrapper around `astrix hook <harness>`
/// that turns every failure into the blocking answer (exit 2 with a reason on stderr; for
/// the Copilot CLI, also its JSON denial on stdout). The harnesses let a call through on
/// other exit codes (Gemini CLI on exit 1, or with nothing on stderr), on a missing command
/// (127) and on a crash; the wrapper runs `exe`,
/// else `astrix` on `PATH`, and says why it blocked.
pub fn hook_command(harness: Harness, exe: &Path) -> anyhow::Result<String> {
    let exe = exe.to_str().context(
        "the path of the astrix binary is not UTF-8, so it cannot go into a JSON settings file",
    )?;
    let quoted = shlex::try_quote(exe)
        .map_err(|error| anyhow::anyhow!("cannot quote the path of the astrix binary: {error}"))?;
    let name = harness.name();
    let script = if harness == Harness::CopilotCli {
        // The answer is held until astrix has exited, so that a failure is answered with
        // one JSON denial, never a partial answer followed by one.
        format!(
            "a=\"$1\"; [ -x \"$a\" ] || a=astrix; out=$(\"$a\" hook {name}); rc=$?; \
             [ \"$rc\" -eq 0 ] && {{ [ -z \"$out\" ] || printf \"%s\\n\" \"$out\"; exit 0; }}; \
             [ \"$rc\" -eq 2 ] && [ -n \"$out\" ] && {{ printf \"%s\\n\" \"$out\"; exit 2; }}; \
             m=\"astrix hook {name} failed (exit $rc), so the tool call is blocked; install astrix again (astrix install --agent {name}) or put it on PATH\"; \
             echo \"$0: $m\" >&2; \
             printf \"{{\\\"permissionDecision\\\":\\\"deny\\\",\\\"permissionDecisionReason\\\":\\\"%s\\\"}}\\n\" \"$m\"; \
             exit 2"
        )
    } else {
        format!(
            "a=\"$1\"; [ -x \"$a\" ] || a=astrix; \"$a\" hook {name}; rc=$?; \
             [ \"$rc\" -eq 0 ] && exit 0; \
             [ \"$rc\" -eq 2 ] || echo \"$0: astrix hook {name} failed (exit $rc), so the tool call is blocked; install astrix again (astrix install --agent {name}) or put it on PATH\" >&2; \
             exit 2"
        )
    };
    Ok(format!("sh -c '{script}' {MARK} {quoted}"))
}

/// What installing recorded, to put the file back.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    /// The file's content before the first install (`None`: there was no file).
    before: Option<String>,
    /// What installing wrote.
    after: String,
    /// The directory installing created for the file, if it did.
    #[serde(default)]
    created_dir: Option<PathBuf>,
}

/// Where the install record of `harness` lives.
fn record_path(astrix_dir: &Path, harness: Harness) -> PathBuf {
    astrix_dir
        .join("agents")
        .join(format!("{}.json", harness.name()))
}

/// Merges astrix's hook into `work_dir`'s settings for `harness`. Returns what happened.
pub fn install(
    harness: Harness,
    work_dir: &Path,
    astrix_dir: &Path,
    exe: &Path,
) -> anyhow::Result<String> {
    let path = work_dir.join(harness.settings_file());
    let shown = harness.settings_file();
    let command = hook_command(harness, exe)?;
    let before = read_text(&path)?;
    let mut root = match &before {
        Some(text) => parse(text, shown)?,
        None => Map::new(),
    };
    let changed = merge(&mut root, harness.shape(), &command, shown)?;
    let Some(changed) = changed else {
        return Ok(format!("{shown}: already installed"));
    };
    let after = render(&Value::Object(root), before.as_deref());
    // The topmost directory installing creates (`.github/` when there was none), so that
    // uninstalling takes away all it made.
    let created_dir = path
        .ancestors()
        .skip(1)
        .take_while(|dir| !dir.as_os_str().is_empty() && !dir.exists())
        .last()
        .map(Path::to_path_buf);
    if let Some(dir) = path.parent() {
        fs_err::create_dir_all(dir)?;
    }
    write_atomically(&path, after.as_bytes())?;
    // The first install's record keeps the original; a later one only what it wrote.
    let record_file = record_path(astrix_dir, harness);
    let previous: Option<Record> =
        read_text(&record_file)?.and_then(|text| serde_json::from_str(&text).ok());
    let record = match previous {
        Some(previous) if before.as_deref() == Some(previous.after.as_str()) => Record {
            after: after.clone(),
            ..previous
        },
        _ => Record {
            before,
            after,
            created_dir,
        },
    };
    if let Some(dir) = record_file.parent() {
        fs_err::create_dir_all(dir)?;
    }
    write_atomically(
        &record_file,
        serde_json::to_string_pretty(&record)?.as_bytes(),
    )?;
    let event = harness.shape().event();
    Ok(format!(
        "{shown}: {}",
        if changed == Merge::Added {
            format!("astrix's {event} hook added")
        } else {
            format!("astrix's {event} hook updated (the astrix binary moved)")
        }
    ))
}

/// Takes astrix's hook out of `work_dir`'s settings for `harness`. Returns what happened.
pub fn uninstall(harness: Harness, work_dir: &Path, astrix_dir: &Path) -> anyhow::Result<String> {
    let path = work_dir.join(harness.settings_file());
    let shown = harness.settings_file();
    let record_file = record_path(astrix_dir, harness);
    let record: Option<Record> = match read_text(&record_file)? {
        Some(text) => Some(serde_json::from_str(&text).with_context(|| {
            format!(
                "astrix's install record `{}` cannot be read; remove it, and astrix's hook from {shown} by hand",
                record_file.display()
            )
        })?),
        None => None,
    };
    let current = read_text(&path)?;
    let note = match (&current, &record) {
        (None, _) => format!("{shown}: nothing to uninstall (no such file)"),
        (Some(text), Some(record)) if *text == record.after => {
            if let Some(before) = &record.before {
                write_atomically(&path, before.as_bytes())?;
            } else {
                fs_err::remove_file(&path)?;
                if let Some(created) = &record.created_dir {
                    // Each only when empty: anything else put there stays.
                    for dir in path.ancestors().skip(1) {
                        if !dir.starts_with(created) || fs_err::remove_dir(dir).is_err() {
                            break;
                        }
                    }
                }
            }
            format!("{shown}: put back as it was before astrix's hook was installed")
        }
        (Some(text), _) => {
            let mut root = parse(text, shown)?;
            if remove(&mut root, harness.shape()) {
                if root.is_empty()
                    && record
                        .as_ref()
                        .is_some_and(|record| record.before.is_none())
                {
                    fs_err::remove_file(&path)?;
                } else {
                    let after = render(&Value::Object(root), Some(text));
                    write_atomically(&path, after.as_bytes())?;
                }
                format!(
                    "{shown}: astrix's {} hook removed, the rest kept",
                    harness.shape().event()
                )
            } else {
                format!("{shown}: nothing to uninstall (astrix's hook is not there)")
            }
        }
    };
    if record.is_some() {
        fs_err::remove_file(&record_file)?;
    }
    Ok(note)
}

/// Whether `work_dir`'s settings for `harness` hold astrix's hook.
pub fn installed(harness: Harness, work_dir: &Path) -> bool {
    read_text(&work_dir.join(harness.settings_file()))
        .ok()
        .flatten()
        .is_some_and(|text| text.contains(MARK))
}

fn read_text(path: &Path) -> anyhow::Result<Option<String>> {
    match fs_err::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| anyhow::anyhow!("`{}` is not UTF-8 text; fix it first", path.display())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error.into()),
    }
}

fn parse(text: &str, shown: &str) -> anyhow::Result<Map<String, Value>> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => bail!("{shown} is not a JSON object; fix it, then install again"),
        Err(error) => bail!(
            "{shown} is not valid JSON ({error}); fix it, then install again (astrix does not write over a file it cannot read)"
        ),
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Merge {
    Added,
    Updated,
}

/// Adds (or updates) astrix's group in `root`; `None` when it is already there as it
/// should be.
fn merge(
    root: &mut Map<String, Value>,
    shape: Shape,
    command: &str,
    shown: &str,
) -> anyhow::Result<Option<Merge>> {
    if let Shape::Copilot | Shape::Cursor(_) = shape {
        root.entry("version").or_insert(Value::from(1));
    }
    let event = shape.event();
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .with_context(|| {
            format!("`hooks` in {shown} is not an object; fix it, then install again")
        })?;
    let groups = hooks
        .entry(event)
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()
        .with_context(|| {
            format!("`hooks.{event}` in {shown} is not a list; fix it, then install again")
        })?;
    let expected = shape.entry(command);
    let Shape::Grouped { matcher, .. } = shape else {
        if let Some(entry) = groups.iter_mut().find(|entry| shape.is_astrix(entry)) {
            if *entry == expected {
                return Ok(None);
            }
            *entry = expected;
            return Ok(Some(Merge::Updated));
        }
        groups.push(expected);
        return Ok(Some(Merge::Added));
    };
    for group in groups.iter_mut() {
        let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
            continue;
        };
        for handler in handlers.iter_mut() {
            let Some(existing) = handler.get("command").and_then(Value::as_str) else {
                continue;
            };
            if !existing.contains(MARK) {
                continue;
            }
            if existing == command {
                if group.get("matcher").and_then(Value::as_str) == Some(matcher) {
                    return Ok(None);
                }
            } else if let Some(object) = handler.as_object_mut() {
                object.insert("command".to_owned(), Value::String(command.to_owned()));
            }
            if let Some(object) = group.as_object_mut() {
                object.insert("matcher".to_owned(), Value::String(matcher.to_owned()));
            }
            return Ok(Some(Merge::Updated));
        }
    }
    groups.push(expected);
    Ok(Some(Merge::Added))
}

/// Removes astrix's handlers, and the groups, lists and objects that leaves empty; whether
/// anything was removed.
fn remove(root: &mut Map<String, Value>, shape: Shape) -> bool {
    let event = shape.event();
    let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) else {
        return false;
    };
    let Some(groups) = hooks.get_mut(event).and_then(Value::as_array_mut) else {
        return false;
    };
    let mut removed = false;
    groups.retain_mut(|group| {
        if shape.is_astrix(group) {
            removed = true;
            return false;
        }
        let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
            return true;
        };
        let before = handlers.len();
        handlers.retain(|handler| {
            !handler
                .get("command")
                .and_then(Value::as_str)
                .is_some_and(|command| command.contains(MARK))
        });
        if handlers.len() == before {
            return true;
        }
        removed = true;
        !handlers.is_empty()
    });
    if removed && groups.is_empty() {
        hooks.remove(event);
        if hooks.is_empty() {
            root.remove("hooks");
            // The version installing added, with nothing left for it to describe.
            if let Shape::Copilot | Shape::Cursor(_) = shape
                && root.get("version") == Some(&Value::from(1))
                && root.len() == 1
            {
                root.remove("version");
            }
        }
    }
    removed
}

/// `value` as pretty JSON indented as `like` is (two spaces when there is nothing to go
/// by), ending with a newline unless `like` did not.
fn render(value: &Value, like: Option<&str>) -> String {
    let indent = like
        .and_then(|text| {
            text.lines()
                .skip(1)
                .find(|line| !line.trim().is_empty())
                .map(|line| {
                    line.chars()
                        .take_while(|c| *c == ' ' || *c == '\t')
                        .collect::<String>()
                })
        })
        .filter(|indent| !indent.is_empty())
        .unwrap_or_else(|| "  ".to_owned());
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    // Serialising a `Value` into memory does not fail.
    let _ = value.serialize(&mut serializer);
    let mut text = String::from_utf8(out).unwrap_or_default();
    if like.is_none_or(|like| like.ends_with('\n')) {
        text.push('\n');
    }
    text
}

fn write_atomically(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    let temp = path.with_extension("astrix-new");
    fs_err::write(&temp, contents)?;
    fs_err::rename(&temp, path)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn installed_in(text: Option<&str>) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".claude/settings.json");
        if let Some(text) = text {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
        }
        (dir, path)
    }

    const EXE: &str = "/opt/astrix/bin/astrix";

    #[test]
    fn install_then_uninstall_gives_the_file_back_byte_for_byte() {
        for original in [
            None,
            Some("{}"),
            Some(
                "{\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n    \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]}\n}\n",
            ),
            Some("{\n\t\"model\": \"x\"\n}"),
        ] {
            let (dir, path) = installed_in(original);
            let state = dir.path().join("state");
            install(Harness::ClaudeCode, dir.path(), &state, Path::new(EXE)).unwrap();
            let written = std::fs::read_to_string(&path).unwrap();
            assert!(written.contains(MARK), "{written}");
            if let Some(original) = original {
                assert!(written.ends_with('\n') == original.ends_with('\n'));
            }
            let again = install(Harness::ClaudeCode, dir.path(), &state, Path::new(EXE)).unwrap();
            assert!(again.ends_with("already installed"), "{again}");
            uninstall(Harness::ClaudeCode, dir.path(), &state).unwrap();
            if let Some(original) = original {
                assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
            } else {
                assert!(!path.exists());
                assert!(!path.parent().unwrap().exists());
            }
        }
    }

    #[test]
    fn an_edited_file_keeps_the_edit_and_loses_only_astrix() {
        let (dir, path) = installed_in(Some("{\n  \"hooks\": {}\n}\n"));
        let state = dir.path().join("state");
        install(Harness::ClaudeCode, dir.path(), &state, Path::new(EXE)).unwrap();
        let edited =
            std::fs::read_to_string(&path)
                .unwrap()
                .replacen('{', "{\n  \"model\": \"opus\",", 1);
        std::fs::write(&path, &edited).unwrap();
        uninstall(Harness::ClaudeCode, dir.path(), &state).unwrap();
        let left: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(left, serde_json::json!({"model": "opus"}));
    }

    #[test]
    fn a_moved_binary_updates_the_command() {
        let (dir, path) = installed_in(None);
        let state = dir.path().join("state");
        install(Harness::Codex, dir.path(), &state, Path::new(EXE)).unwrap();
        let note = install(Harness::Codex, dir.path(), &state, Path::new("/new/astrix")).unwrap();
        assert!(note.contains("updated"), "{note}");
        let text = std::fs::read_to_string(dir.path().join(".codex/hooks.json")).unwrap();
        assert!(
            text.contains("/new/astrix") && !text.contains(EXE),
            "{text}"
        );
        assert_eq!(text.matches(MARK).count(), 1);
        uninstall(Harness::Codex, dir.path(), &state).unwrap();
        assert!(!dir.path().join(".codex").exists());
        assert!(!path.exists());
    }

    #[test]
    fn a_file_that_is_not_json_is_not_written_over() {
        let (dir, path) = installed_in(Some("{ not json"));
        let error = install(
            Harness::ClaudeCode,
            dir.path(),
            &dir.path().join("s"),
            Path::new(EXE),
        )
        .unwrap_err();
        assert!(error.to_string().contains("not valid JSON"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not json");
    }

    #[test]
    fn the_copilot_file_round_trips_and_an_edit_keeps_the_rest() {
        let original = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"preToolUse\": [\n      {\"type\": \"command\", \"bash\": \"./mine.sh\"}\n    ]\n  }\n}\n";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".github/hooks/astrix.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, original).unwrap();
        let state = dir.path().join("state");
        install(Harness::CopilotCli, dir.path(), &state, Path::new(EXE)).unwrap();
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let entries = written["hooks"]["preToolUse"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0]["bash"], "./mine.sh");
        assert!(entries[1]["bash"].as_str().unwrap().contains(MARK));
        assert_eq!(entries[1]["timeoutSec"], TIMEOUT_SECONDS);
        let again = install(Harness::CopilotCli, dir.path(), &state, Path::new(EXE)).unwrap();
        assert!(again.ends_with("already installed"), "{again}");
        uninstall(Harness::CopilotCli, dir.path(), &state).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
        // Edited after installing: only astrix's entry goes.
        install(Harness::CopilotCli, dir.path(), &state, Path::new(EXE)).unwrap();
        let edited =
            std::fs::read_to_string(&path)
                .unwrap()
                .replacen('{', "{\n  \"note\": \"mine\",", 1);
        std::fs::write(&path, &edited).unwrap();
        uninstall(Harness::CopilotCli, dir.path(), &state).unwrap();
        let left: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            left,
            serde_json::json!({"note": "mine", "version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./mine.sh"}]}})
        );
    }

    #[test]
    fn the_command_quotes_the_binary() {
        let command = hook_command(Harness::ClaudeCode, Path::new("/a b/astrix")).unwrap();
        assert!(
            command.ends_with(&format!("{MARK} '/a b/astrix'")),
            "{command}"
        );
    }
}
