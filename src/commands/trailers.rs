//! Provenance trailers: the hooks add `Astrix-Actor:` and `Astrix-Decision:` to the commits
//! they let through, so that `astrix ci` knows who made a commit that looks like anyone's
//! (an agent working in a local checkout commits under its user's name).
//!
//! `[commit] trailers` says which commits get them: absent, agents' commits (every commit
//! when `[ci] require_provenance` is set); `true`, every commit; `false`, none.
//!
//! Two hooks write them, because neither alone sees every commit:
//! - `commit-msg` runs after the editor, on the message as it will be recorded (an empty one,
//!   an aborted edit, is left empty, so git still aborts). `--no-verify` skips it.
//! - `prepare-commit-msg` runs before the editor, also under `--no-verify`. It writes when
//!   git says that no editor will open (`GIT_EDITOR=:` in the hook's environment, or an
//!   editor of `true`), and for an agent's commit always: otherwise a human's aborted edit
//!   would leave a commit whose message is only the trailers, and an agent's `--no-verify`
//!   commit none.
//!
//! They only add: a trailer already there is kept, so an agent's `Astrix-Actor:` survives an
//! amend or a rebase by anyone that keeps the message, and a human's amend of an agent's
//! commit adds the human beside the agent, never instead. A human's rebase and cherry-pick
//! replays (which carry the message they had) are left alone by `prepare-commit-msg`; an
//! agent's are marked as the agent's. A message in another encoding is handled byte for
//! byte; the keys are spelled so that `core.commentChar` never strips them.

use anyhow::Context as _;

use crate::cli::HookArgs;
use crate::commit_actor::{ACTOR_TRAILER, DECISION_TRAILER};
use crate::context::Context;
use crate::env::resolve_actor;
use crate::exit::ExitStatus;
use crate::gate::source;
use crate::gate::{JudgeOptions, Judgement, judge_staged};
use crate::git::Repository;
use crate::intent::AUTONOMOUS_LLM;
use crate::policy::TrailerMode;

/// What git sets in a commit hook's environment when no editor will be launched (`:`), or
/// the editor the user set.
const GIT_EDITOR: &str = "GIT_EDITOR";

/// Editors that leave the message as it is: `GIT_EDITOR=true git commit --amend`.
const NO_EDIT: &[&str] = &[":", "true", "/bin/true", "/usr/bin/true"];

/// `prepare-commit-msg FILE [SOURCE [COMMIT]]`: adds the trailers when no editor follows,
/// and always for an agent's commit (commit-msg, which `--no-verify` skips, may not run).
pub fn prepare_commit_msg(args: &HookArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let no_edit = ctx
        .env
        .get(GIT_EDITOR)
        .is_some_and(|editor| NO_EDIT.contains(&editor.trim()));
    add_to_message(args, ctx, "prepare-commit-msg", Some(no_edit))
}

/// `commit-msg FILE`: adds the trailers to the final message.
pub fn commit_msg(args: &HookArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    add_to_message(args, ctx, "commit-msg", None)
}

/// `before_editor`: `None` in commit-msg; in prepare-commit-msg, whether no real editor
/// follows. Before an editor only an agent's commit gets the trailers: a human's edit that
/// empties the message would otherwise commit the trailers alone instead of aborting (an
/// agent's editor is a program, and `--no-verify` would leave its commit without them).
fn add_to_message(
    args: &HookArgs,
    ctx: &mut Context<'_>,
    hook: &str,
    before_editor: Option<bool>,
) -> anyhow::Result<ExitStatus> {
    let skip_replays = before_editor.is_some();
    let Some(file) = args.args.first() else {
        anyhow::bail!("the {hook} hook needs the message file that git gives it");
    };
    let repo = Repository::open(&ctx.cwd, &ctx.env)
        .context("astrix cannot open the repository, so the commit is blocked")?;
    let policy = source::for_repository(&repo, &repo.head()?)?;
    let rules = &policy.loaded.policy;
    let actor = resolve_actor(&ctx.env, &rules.actors.agent_env);
    // A replay (rebase, cherry-pick) carries its message, and a human's is left alone; an
    // agent's replay is a commit the agent made (it may have resolved conflicts), so it is
    // marked as the agent's beside what the message already says.
    if skip_replays && repo.replaying().is_some() && actor.kind != AUTONOMOUS_LLM {
        return Ok(ExitStatus::Allowed);
    }
    let wanted = match rules.commit.trailers {
        TrailerMode::Off => false,
        TrailerMode::All => true,
        TrailerMode::Agents => actor.kind == AUTONOMOUS_LLM,
    };
    if !wanted || (before_editor == Some(false) && actor.kind != AUTONOMOUS_LLM) {
        return Ok(ExitStatus::Allowed);
    }
    let path = ctx.cwd.join(file);
    let bytes = fs_err::read(&path)?;
    // A message in another encoding (`i18n.commitEncoding`, which git requires to keep
    // ASCII as ASCII) is read byte for byte as Latin-1: the lines, comments and trailers
    // are ASCII, and the other bytes are written back as they were.
    let (text, latin1) = match String::from_utf8(bytes) {
        Ok(text) => (text, false),
        Err(err) => (
            err.into_bytes()
                .iter()
                .map(|byte| char::from(*byte))
                .collect(),
            true,
        ),
    };
    let comment = comment_prefix(repo.comment_setting().as_deref(), &text);
    let (actor_key, decision_key) = trailer_keys(&comment);
    // The actor is cheap to find, the decision is not: a message that already names this
    // actor (prepare-commit-msg wrote it) is done.
    let actor_line = format!(
        "{actor_key}: {}",
        actor_value(&actor.kind, actor.id.as_deref())
    );
    if has_line(&text, &comment, &actor_line) {
        return Ok(ExitStatus::Allowed);
    }
    // The decision is what the gate found; when this hook cannot judge (a damaged index,
    // say), the actor is still recorded, and the gate's own hooks block the commit.
    let judged = judge_staged(
        &ctx.cwd,
        &ctx.env,
        JudgeOptions {
            line_counts: false,
            approvals: true,
            tamper: false,
        },
    );
    let trailers: Vec<(&str, String)> = match &judged {
        Ok((_, judgement)) => {
            let [(_, actor), (_, decision)] = trailers_of(judgement);
            vec![(actor_key, actor), (decision_key, decision)]
        }
        Err(_) => vec![(actor_key, actor_value(&actor.kind, actor.id.as_deref()))],
    };
    let updated = add_trailers(&text, &comment, &trailers).or_else(|| {
        // Before an agent's editor, an empty message gets the trailers below the line its
        // subject goes on: the editor (a program) writes the subject above them.
        (before_editor == Some(false)).then(|| {
            let mut out = String::from("\n\n");
            for (key, value) in &trailers {
                out.push_str(&format!("{key}: {value}\n"));
            }
            out.push_str(&text);
            out
        })
    });
    if let Some(updated) = updated {
        if latin1 {
            // Every char came from one byte, or is an ASCII trailer.
            let bytes: Vec<u8> = updated
                .chars()
                .map(|ch| u8::try_from(u32::from(ch)).unwrap_or(b'?'))
                .collect();
            fs_err::write(&path, bytes)?;
        } else {
            fs_err::write(&path, updated)?;
        }
    }
    Ok(ExitStatus::Allowed)
}

/// The characters that start a comment line of the message: `core.commentChar` (or
/// `core.commentString`), `#` when unset. With `auto` git picks one of `#;@!$%^&|:` that no
/// line of the message starts with; it is found as the scissors line's, else the one the
/// message's last line (git's instructions) starts with.
fn comment_prefix(setting: Option<&str>, text: &str) -> String {
    match setting {
        None => "#".to_owned(),
        Some(value) if value.eq_ignore_ascii_case("auto") => {
            let scissors = text.lines().find_map(|line| {
                line.strip_suffix(" ------------------------ >8 ------------------------")
                    .filter(|prefix| !prefix.is_empty())
            });
            let last = text
                .lines()
                .rev()
                .find(|line| !line.trim().is_empty())
                .and_then(|line| line.chars().next())
                .filter(|first| "#;@!$%^&|:".contains(*first));
            scissors
                .map(str::to_owned)
                .or_else(|| last.map(String::from))
                .unwrap_or_else(|| "#".to_owned())
        }
        Some(value) => value.to_owned(),
    }
}

/// The trailer keys, spelled so that git does not strip them as comments (`core.commentChar
/// = A` would strip `Astrix-Actor:`); astrix reads them in any case.
fn trailer_keys(comment: &str) -> (&'static str, &'static str) {
    const SPELLINGS: [(&str, &str); 3] = [
        (ACTOR_TRAILER, DECISION_TRAILER),
        ("astrix-actor", "astrix-decision"),
        ("ASTRIX-ACTOR", "ASTRIX-DECISION"),
    ];
    SPELLINGS
        .into_iter()
        .find(|(actor, decision)| !actor.starts_with(comment) && !decision.starts_with(comment))
        .unwrap_or(SPELLINGS[0])
}

/// `autonomous_llm (claude-code)`, or the type alone without an id.
fn actor_value(kind: &str, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("{kind} ({id})"),
        None => kind.to_owned(),
    }
}

/// Whether `text` has `line` (case aside) among its content lines, before the scissors.
fn has_line(text: &str, comment: &str, line: &str) -> bool {
    let scissors = format!("{comment} ------------------------ >8 ------------------------");
    text.lines()
        .take_while(|candidate| *candidate != scissors)
        .filter(|candidate| !candidate.starts_with(comment))
        .any(|candidate| candidate.trim().eq_ignore_ascii_case(line))
}

/// `Astrix-Actor: autonomous_llm (claude-code)` and `Astrix-Decision: allow`.
fn trailers_of(judgement: &Judgement) -> [(&'static str, String); 2] {
    let actor = actor_value(&judgement.actor.kind, judgement.actor.id.as_deref());
    let decision = &judgement.decision;
    let decision = if decision.approved {
        format!("{} (approved)", decision.verdict)
    } else {
        decision.verdict.to_string()
    };
    [(ACTOR_TRAILER, actor), (DECISION_TRAILER, decision)]
}

/// Whether `line` looks like a trailer: `Key: value` with a key of letters, digits and `-`.
fn is_trailer_line(line: &str) -> bool {
    line.split_once(':').is_some_and(|(key, _)| {
        !key.is_empty()
            && key
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
    })
}

/// The message with `trailers` added to its trailer block (a new last paragraph when it has
/// none), before the comments and the scissors line that git strips; `None` when nothing
/// changes (every trailer is already there, or the message is empty).
fn add_trailers(text: &str, comment: &str, trailers: &[(&str, String)]) -> Option<String> {
    let scissors = format!("{comment} ------------------------ >8 ------------------------");
    // Lines with their end offsets, up to the scissors line.
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content == scissors {
            break;
        }
        offset += line.len();
        lines.push((content, offset));
    }
    let is_content = |line: &str| !line.trim().is_empty() && !line.starts_with(comment);
    let last = lines.iter().rposition(|(line, _)| is_content(line))?;
    let content: Vec<&str> = lines[..=last]
        .iter()
        .map(|(line, _)| *line)
        .filter(|line| !line.starts_with(comment))
        .collect();
    let existing: Vec<String> = content.iter().map(|line| line.to_lowercase()).collect();
    let missing: Vec<String> = trailers
        .iter()
        .map(|(key, value)| format!("{key}: {value}"))
        .filter(|line| !existing.contains(&line.to_lowercase()))
        .collect();
    if missing.is_empty() {
        return None;
    }
    // The last paragraph is a trailer block when it is not the subject and every line is a
    // trailer.
    let paragraph_start = content
        .iter()
        .rposition(|line| line.trim().is_empty())
        .map(|blank| blank + 1);
    let in_block = paragraph_start.is_some_and(|start| {
        content[start..]
            .iter()
            .all(|line| is_trailer_line(line.trim_end()))
    });
    let end = lines[last].1;
    let mut out = String::with_capacity(text.len() + 80);
    out.push_str(&text[..end]);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    if !in_block {
        out.push('\n');
    }
    for line in missing {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&text[end..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(text: &str) -> Option<String> {
        add_trailers(
            text,
            "#",
            &[
                (ACTOR_TRAILER, "autonomous_llm (codex)".to_owned()),
                (DECISION_TRAILER, "allow".to_owned()),
            ],
        )
    }

    const ADDED: &str = "Astrix-Actor: autonomous_llm (codex)\nAstrix-Decision: allow\n";

    #[test]
    fn a_subject_gets_a_new_paragraph() {
        assert_eq!(add("Fix it\n").unwrap(), format!("Fix it\n\n{ADDED}"));
        assert_eq!(add("Fix it").unwrap(), format!("Fix it\n\n{ADDED}"));
    }

    #[test]
    fn a_subject_that_looks_like_a_trailer_is_still_the_subject() {
        assert_eq!(add("fix: typo\n").unwrap(), format!("fix: typo\n\n{ADDED}"));
    }

    #[test]
    fn an_existing_trailer_block_is_extended() {
        let text = "Fix it\n\nBody.\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n";
        assert_eq!(add(text).unwrap(), format!("{text}{ADDED}"));
    }

    #[test]
    fn comments_and_scissors_stay_after_the_trailers() {
        let text = "Fix it\n\n# Please enter the commit message\n# ------------------------ >8 ------------------------\ndiff --git a b\n";
        assert_eq!(
            add(text).unwrap(),
            format!(
                "Fix it\n\n{ADDED}\n# Please enter the commit message\n# ------------------------ >8 ------------------------\ndiff --git a b\n"
            )
        );
    }

    #[test]
    fn nothing_changes_when_the_trailers_are_there_or_the_message_is_empty() {
        assert_eq!(add(&format!("Fix it\n\n{ADDED}")), None);
        assert_eq!(add("\n# only comments\n"), None);
        assert_eq!(add(""), None);
    }

    #[test]
    fn the_comment_prefix_follows_the_setting() {
        assert_eq!(comment_prefix(None, "x\n"), "#");
        assert_eq!(comment_prefix(Some(";"), "x\n"), ";");
        assert_eq!(comment_prefix(Some("//"), "x\n"), "//");
        let verbose =
            "\n; Please enter\n; ------------------------ >8 ------------------------\ndiff\n";
        assert_eq!(comment_prefix(Some("auto"), verbose), ";");
        assert_eq!(
            comment_prefix(Some("auto"), "\n@ Please enter\n@ Lines starting\n"),
            "@"
        );
    }

    #[test]
    fn trailer_keys_never_start_with_the_comment_prefix() {
        assert_eq!(trailer_keys("#"), (ACTOR_TRAILER, DECISION_TRAILER));
        assert_eq!(trailer_keys("A"), ("astrix-actor", "astrix-decision"));
        assert_eq!(trailer_keys("a"), (ACTOR_TRAILER, DECISION_TRAILER));
        assert_eq!(trailer_keys("Astrix"), ("astrix-actor", "astrix-decision"));
    }

    #[test]
    fn another_actor_trailer_is_kept_beside_the_hooks() {
        let text = "Fix it\n\nAstrix-Actor: human\n";
        assert_eq!(add(text).unwrap(), format!("{text}{ADDED}"));
    }
}
