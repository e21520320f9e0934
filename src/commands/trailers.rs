//! The `prepare-commit-msg` hook: with `[commit] trailers = true`, it adds
//! `Astrix-Actor:` and `Astrix-Decision:` trailers to a new commit's message, so that
//! `astrix ci` can show what the hooks saw when the commit was made.
//!
//! git gives the hook the message file, then where the message came from: nothing (the
//! editor opens), `message` (`-m`, `-F`), `template`, `merge`, `squash` or `commit` (`-c`,
//! `-C`, `--amend`). Trailers go only onto `message` commits that no rebase or cherry-pick
//! replays: the others carry a message that was written before, or are written in the
//! editor, where an aborted edit would leave a commit whose message is only the trailers.
//! A revert is a new commit by whoever makes it, and gets them.

use anyhow::Context as _;

use super::check::{JudgeOptions, Judgement, judge_staged};
use crate::app::Context;
use crate::cli::HookArgs;
use crate::commit_actor::{ACTOR_TRAILER, DECISION_TRAILER};
use crate::exit::ExitStatus;
use crate::git::Repository;
use crate::source;

/// Runs the hook: adds the trailers, or leaves the message alone.
pub fn prepare_commit_msg(args: &HookArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let Some(file) = args.args.first() else {
        anyhow::bail!("the prepare-commit-msg hook needs the message file that git gives it");
    };
    let from = args
        .args
        .get(1)
        .and_then(|from| from.to_str())
        .unwrap_or("");
    if from != "message" {
        return Ok(ExitStatus::Allowed);
    }
    let repo = Repository::open(&ctx.cwd, &ctx.env)
        .context("astrix cannot open the repository, so the commit is blocked")?;
    if repo.replaying().is_some() {
        return Ok(ExitStatus::Allowed);
    }
    let policy = source::for_repository(&repo, &repo.head()?)?;
    if !policy.loaded.policy.commit.trailers {
        return Ok(ExitStatus::Allowed);
    }
    let (_, judgement) = judge_staged(
        ctx,
        JudgeOptions {
            line_counts: false,
            approvals: true,
            tamper: false,
        },
    )
    .context("astrix cannot judge this commit, so it is blocked")?;
    let path = ctx.cwd.join(file);
    let bytes = fs_err::read(&path)?;
    // A message in another encoding (`i18n.commitEncoding`) is left as it is.
    let Ok(text) = String::from_utf8(bytes) else {
        return Ok(ExitStatus::Allowed);
    };
    let trailers = trailers_of(&judgement);
    if let Some(updated) = add_trailers(&text, repo.comment_char(), &trailers) {
        fs_err::write(&path, updated)?;
    }
    Ok(ExitStatus::Allowed)
}

/// `Astrix-Actor: autonomous_llm (claude-code)` and `Astrix-Decision: allow`.
fn trailers_of(judgement: &Judgement) -> [(&'static str, String); 2] {
    let actor = &judgement.actor;
    let actor = match &actor.id {
        Some(id) => format!("{} ({id})", actor.kind),
        None => actor.kind.clone(),
    };
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
fn add_trailers(text: &str, comment: char, trailers: &[(&str, String)]) -> Option<String> {
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
            '#',
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
    fn another_actor_trailer_is_kept_beside_the_hooks() {
        let text = "Fix it\n\nAstrix-Actor: human\n";
        assert_eq!(add(text).unwrap(), format!("{text}{ADDED}"));
    }
}
