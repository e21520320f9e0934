//! Who made a commit, from the commit itself (SPEC §7): its author, its committer and its
//! trailers. `astrix ci` judges commits made elsewhere, so the environment it runs in says
//! nothing about them.
//!
//! Evidence only escalates: anything that names a coding agent makes the commit an
//! `autonomous_llm`'s, and nothing makes it a human's again (an `Astrix-Actor: human`
//! trailer is recorded, never believed over an agent's identity). Without evidence the
//! commit is a human's.
//!
//! What counts as evidence:
//! - identities (the author, the committer, and every identity in a `Co-authored-by`,
//!   `Co-developed-by`, `Assisted-by` or `Author` line, at any indentation: the trailers
//!   that `git merge --squash` keeps are indented) of the agents in [`KNOWN_IDENTITIES`]
//!   and [`AGENT_BOTS`], and those matching `[actors] agent_authors`;
//! - an author or committer name ending in `(aider)`, as aider writes it;
//! - Claude Code's footer, `🤖 Generated with [Claude Code](…)`, on a line of its own (the
//!   words quoted in prose are not evidence);
//! - an `Astrix-Actor: autonomous_llm …` trailer (the prepare-commit-msg hook writes it);
//! - trailers matching `[actors] agent_trailers`.
//!
//! Matching ignores case.

use serde::Serialize;

use crate::git::{CommitMeta, Signature};
use crate::intent::{AUTONOMOUS_LLM, HUMAN, ResolvedActor};
use crate::policy::Actors;

/// The trailer the prepare-commit-msg hook writes with the actor it found.
pub const ACTOR_TRAILER: &str = "Astrix-Actor";
/// The trailer the prepare-commit-msg hook writes with the decision it made.
pub const DECISION_TRAILER: &str = "Astrix-Decision";

/// Trailers whose value is an identity that took part in writing the commit.
const AUTHORSHIP_TRAILERS: &[&str] = &["co-authored-by", "co-developed-by", "assisted-by"];

/// Agents known by an exact email: the email, the agent it names, and who that is.
pub const KNOWN_IDENTITIES: &[(&str, &str, &str)] = &[
    // `Co-Authored-By: Claude <noreply@anthropic.com>`.
    (
        "noreply@anthropic.com",
        "claude-code",
        "Claude Code's co-author identity",
    ),
    // `Co-authored-by: aider (<model>) <aider@aider.chat>`.
    ("aider@aider.chat", "aider", "aider's co-author identity"),
    // `Copilot <198982749+Copilot@users.noreply.github.com>`.
    (
        "198982749+copilot@users.noreply.github.com",
        "copilot",
        "the Copilot coding agent's identity",
    ),
    // `Co-authored-by: Cursor <cursoragent@cursor.com>`.
    (
        "cursoragent@cursor.com",
        "cursor",
        "Cursor's agent identity",
    ),
];

/// GitHub App (`<login>[bot]`) accounts of coding agents, and the agent each names.
/// Other bots (dependabot, renovate) are not agents; `agent_authors` can add any.
pub const AGENT_BOTS: &[(&str, &str)] = &[
    ("claude", "claude"),
    ("copilot-swe-agent", "copilot"),
    ("devin-ai-integration", "devin"),
    ("openai-codex", "codex"),
    ("chatgpt-codex-connector", "codex"),
    ("cursor", "cursor"),
    ("gemini-code-assist", "gemini-code-assist"),
];

/// One piece of evidence that an agent made a commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// The agent it names.
    pub agent: String,
    /// Where it was found: `author`, `committer`, `trailer` or `message`.
    pub source: &'static str,
    /// What was found there, as written (`Co-Authored-By: Claude <noreply@anthropic.com>`).
    pub text: String,
    /// Why it counts, in a few words (`Claude Code's co-author`).
    pub why: String,
}

impl Evidence {
    /// For people: ``trailer `Co-Authored-By: Claude <noreply@anthropic.com>` (…)``.
    pub fn describe(&self) -> String {
        format!("{} `{}` ({})", self.source, self.text, self.why)
    }

    /// A short label for a table: `Co-Authored-By trailer`, `author`.
    pub fn label(&self) -> String {
        match self.source {
            "trailer" => {
                let key = self.text.split(':').next().unwrap_or_default();
                format!("{key} trailer")
            }
            "message" => "message line".to_owned(),
            other => other.to_owned(),
        }
    }
}

/// The actor of a commit and what it was found from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommitActor {
    /// The actor, as the intent has it.
    pub actor: ResolvedActor,
    /// Everything that names an agent, in the order author, committer, trailers, message.
    pub evidence: Vec<Evidence>,
    /// `Astrix-Actor:` values that did not escalate (`human`): recorded, not believed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub declared: Vec<String>,
    /// `Astrix-Decision:` values: what the hook decided when the commit was made.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hook_decisions: Vec<String>,
}

impl CommitActor {
    /// Whether an agent made the commit.
    pub fn is_agent(&self) -> bool {
        self.actor.kind == AUTONOMOUS_LLM
    }
}

/// Finds who made a commit.
pub fn commit_actor(meta: &CommitMeta, actors: &Actors) -> CommitActor {
    let mut evidence = Vec::new();
    // A committer who is also the author adds nothing.
    let committer = (meta.committer != meta.author).then_some(("committer", &meta.committer));
    let identities = [Some(("author", &meta.author)), committer];
    for (source, signature) in identities.into_iter().flatten() {
        let text = signature.to_string();
        for (agent, why) in identity_matches(signature, actors) {
            evidence.push(Evidence {
                agent,
                source,
                text: text.clone(),
                why,
            });
        }
        if signature
            .name
            .to_lowercase()
            .trim_end()
            .ends_with("(aider)")
        {
            evidence.push(Evidence {
                agent: "aider".to_owned(),
                source,
                text: text.clone(),
                why: "aider marks the names of its commits `(aider)`".to_owned(),
            });
        }
    }
    let mut declared = Vec::new();
    let mut hook_decisions = Vec::new();
    for trailer in &meta.trailers {
        let key = trailer.key.to_lowercase();
        if key == ACTOR_TRAILER.to_lowercase() && parse_declared(&trailer.value).0 != AUTONOMOUS_LLM
        {
            declared.push(trailer.value.clone());
        }
        if key == DECISION_TRAILER.to_lowercase() {
            hook_decisions.push(trailer.value.clone());
        }
    }
    for (key, value) in trailer_like(meta) {
        let lower = key.to_lowercase();
        let text = format!("{key}: {value}");
        if AUTHORSHIP_TRAILERS.contains(&lower.as_str()) || lower == "author" {
            for signature in parse_identities(&value) {
                for (agent, why) in identity_matches(&signature, actors) {
                    evidence.push(Evidence {
                        agent,
                        source: "trailer",
                        text: text.clone(),
                        why,
                    });
                }
            }
        }
        if lower == ACTOR_TRAILER.to_lowercase() {
            let (kind, id) = parse_declared(&value);
            if kind == AUTONOMOUS_LLM {
                evidence.push(Evidence {
                    agent: id.unwrap_or_else(|| "agent".to_owned()),
                    source: "trailer",
                    text: text.clone(),
                    why: "the actor astrix's hook found when the commit was made".to_owned(),
                });
            }
        }
        if let Some(pattern) = actors
            .agent_trailers
            .iter()
            .find(|pattern| pattern.is_match(&text))
        {
            evidence.push(Evidence {
                agent: agent_name(&value),
                source: "trailer",
                text: text.clone(),
                why: format!("matches agent_trailers `{}`", pattern.as_str()),
            });
        }
    }
    for line in meta.message.lines() {
        if is_generated_with_claude_code(line) {
            evidence.push(Evidence {
                agent: "claude-code".to_owned(),
                source: "message",
                text: line.trim().to_owned(),
                why: "Claude Code's signature line".to_owned(),
            });
        }
    }
    // The same identity found twice (as a trailer git parsed and as a line) is one piece.
    let mut seen = std::collections::HashSet::new();
    evidence
        .retain(|item| seen.insert((item.agent.clone(), item.source, item.text.to_lowercase())));
    let actor = resolve(&evidence, &declared);
    CommitActor {
        actor,
        evidence,
        declared,
        hook_decisions,
    }
}

/// The actor of several commits judged as one change: an agent's when any of them is; the
/// agent's id when one agent made them all.
pub fn range_actor<'a>(
    commits: impl IntoIterator<Item = (&'a str, &'a CommitActor)>,
) -> ResolvedActor {
    let mut total = 0;
    let mut agents = Vec::new();
    let mut ids: Vec<&str> = Vec::new();
    for (commit, actor) in commits {
        total += 1;
        if actor.is_agent() {
            agents.push(short(commit));
            if let Some(id) = actor.actor.id.as_deref()
                && !ids.contains(&id)
            {
                ids.push(id);
            }
        }
    }
    if agents.is_empty() {
        return ResolvedActor {
            kind: HUMAN.to_owned(),
            id: None,
            decided_by: "no commit of the range names an agent".to_owned(),
        };
    }
    let listed = |items: &[&str], quote: bool| {
        let mut text = items
            .iter()
            .take(3)
            .map(|item| {
                if quote {
                    format!("`{item}`")
                } else {
                    (*item).to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        if items.len() > 3 {
            text.push_str(&format!(" and {} more", items.len() - 3));
        }
        text
    };
    ResolvedActor {
        kind: AUTONOMOUS_LLM.to_owned(),
        id: (ids.len() == 1).then(|| ids[0].to_owned()),
        decided_by: format!(
            "{} made {} of its {total} commits ({})",
            if ids.len() > 1 {
                format!("agents ({})", listed(&ids, false))
            } else {
                "an agent".to_owned()
            },
            agents.len(),
            listed(&agents, true)
        ),
    }
}

/// The first 12 characters of a commit id.
pub fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

fn resolve(evidence: &[Evidence], declared: &[String]) -> ResolvedActor {
    let mut not_believed = String::new();
    for value in declared {
        not_believed.push_str(&format!(
            "; `{ACTOR_TRAILER}: {value}` does not make it a human's"
        ));
    }
    match evidence.first() {
        Some(first) => {
            let more = evidence.len() - 1;
            ResolvedActor {
                kind: AUTONOMOUS_LLM.to_owned(),
                id: Some(first.agent.clone()),
                decided_by: format!(
                    "{}{}{not_believed}",
                    first.describe(),
                    match more {
                        0 => String::new(),
                        1 => " and 1 more piece of evidence".to_owned(),
                        more => format!(" and {more} more pieces of evidence"),
                    }
                ),
            }
        }
        None => ResolvedActor {
            kind: HUMAN.to_owned(),
            id: None,
            decided_by: "no agent named by the author, the committer or the trailers".to_owned(),
        },
    }
}

/// The agents an identity names, with why.
fn identity_matches(signature: &Signature, actors: &Actors) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let email = signature.email.to_lowercase();
    if let Some((_, agent, who)) = KNOWN_IDENTITIES
        .iter()
        .find(|(known, _, _)| *known == email)
    {
        found.push(((*agent).to_owned(), (*who).to_owned()));
    } else if let Some((login, agent)) = agent_bot(signature) {
        found.push((agent.to_owned(), format!("the `{login}[bot]` GitHub App")));
    }
    let text = signature.to_string();
    if let Some(pattern) = actors
        .agent_authors
        .iter()
        .find(|pattern| pattern.is_match(&text))
    {
        found.push((
            agent_name(&signature.name),
            format!("matches agent_authors `{}`", pattern.as_str()),
        ));
    }
    found
}

/// The agent a `<login>[bot]` account names: by its name, or by its GitHub noreply email
/// (`<id>+<login>[bot]@users.noreply.github.com`).
fn agent_bot(signature: &Signature) -> Option<(&'static str, &'static str)> {
    let name = signature.name.to_lowercase();
    let email = signature.email.to_lowercase();
    let login = email
        .strip_suffix("@users.noreply.github.com")
        .map(|local| local.split_once('+').map_or(local, |(_, login)| login));
    [Some(name.as_str()), login]
        .into_iter()
        .flatten()
        .filter_map(|account| account.strip_suffix("[bot]"))
        .find_map(|account| AGENT_BOTS.iter().find(|(bot, _)| *bot == account).copied())
}

/// Every `Key: value` that may name who took part in a commit: the trailers git finds (the
/// last paragraph, continuation lines unfolded) and every line of the message that looks
/// like one at any indentation, since `git merge --squash` and squashing rebases keep the
/// squashed commits' trailers indented or mid-message. Evidence only escalates, so a line
/// that merely looks like a trailer can only make a commit an agent's.
fn trailer_like(meta: &CommitMeta) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = meta
        .trailers
        .iter()
        .map(|trailer| (trailer.key.clone(), trailer.value.clone()))
        .collect();
    for line in meta.message.lines() {
        let line = line.trim();
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let is_key = !key.is_empty()
            && key
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-');
        let value = value.trim();
        if !is_key || value.is_empty() {
            continue;
        }
        let known = found.iter().any(|(known_key, known_value)| {
            known_key.eq_ignore_ascii_case(key) && known_value.eq_ignore_ascii_case(value)
        });
        if !known {
            found.push((key.to_owned(), value.to_owned()));
        }
    }
    found
}

/// Whether `line` is the footer Claude Code writes, `🤖 Generated with [Claude
/// Code](<link>)` (or `Generated with Claude Code`), alone on its line at any indentation;
/// the words quoted in prose are not.
fn is_generated_with_claude_code(line: &str) -> bool {
    let line = line.trim();
    let line = line.strip_prefix('🤖').map_or(line, str::trim_start);
    let lower = line.to_lowercase();
    let Some(rest) = lower.strip_prefix("generated with ") else {
        return false;
    };
    let rest = rest.trim_end();
    if rest == "claude code" {
        return true;
    }
    rest.strip_prefix("[claude code](")
        .and_then(|link| link.strip_suffix(')'))
        .is_some_and(|link| !link.is_empty() && !link.contains([' ', '(', ')']))
}

/// The identities in a trailer value: each `Name <email>` (a value may list several,
/// `Ada <a@x>, Claude <noreply@anthropic.com>`, and may say more after one, `… (via Claude
/// Code)`); a value without any `<` is a list of names (`copilot-swe-agent[bot]`).
fn parse_identities(value: &str) -> Vec<Signature> {
    let mut found = Vec::new();
    let mut rest = value;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>').map(|at| open + at) else {
            break;
        };
        let before = &rest[..open];
        let name = before
            .rsplit([',', ';', ')'])
            .next()
            .unwrap_or(before)
            .trim();
        let name = name.strip_prefix("and ").unwrap_or(name).trim();
        found.push(Signature {
            name: name.to_owned(),
            email: rest[open + 1..close].trim().to_owned(),
        });
        rest = &rest[close + 1..];
    }
    if found.is_empty() {
        for name in value.split([',', ';']) {
            let name = name.trim();
            if !name.is_empty() {
                found.push(Signature {
                    name: name.to_owned(),
                    email: String::new(),
                });
            }
        }
    }
    found
}

/// `autonomous_llm (claude-code)` as the type and the id.
fn parse_declared(value: &str) -> (String, Option<String>) {
    let value = value.trim();
    let (kind, rest) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
    let id = rest
        .trim()
        .strip_prefix('(')
        .and_then(|rest| rest.strip_suffix(')'))
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(str::to_owned);
    (kind.to_lowercase(), id)
}

/// A short name for an agent that a policy pattern found: the name part of an identity.
fn agent_name(value: &str) -> String {
    let name = value.split('<').next().unwrap_or(value).trim();
    if name.is_empty() {
        "agent".to_owned()
    } else {
        name.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::Trailer;
    use crate::policy::wildcard::Wildcard;

    fn meta(author: (&str, &str), committer: (&str, &str), message: &str) -> CommitMeta {
        let signature = |(name, email): (&str, &str)| Signature {
            name: name.to_owned(),
            email: email.to_owned(),
        };
        // Trailers as git finds them: the last paragraph's `Key: value` lines.
        let last = message.trim_end().rsplit("\n\n").next().unwrap_or_default();
        let trailers = if message.contains("\n\n") && last.lines().all(|line| line.contains(": ")) {
            last.lines()
                .filter_map(|line| line.split_once(": "))
                .map(|(key, value)| Trailer {
                    key: key.to_owned(),
                    value: value.to_owned(),
                })
                .collect()
        } else {
            Vec::new()
        };
        CommitMeta {
            id: "0123456789abcdef0123456789abcdef01234567".to_owned(),
            parents: Vec::new(),
            author: signature(author),
            committer: signature(committer),
            summary: message.lines().next().unwrap_or_default().to_owned(),
            message: message.to_owned(),
            trailers,
        }
    }

    const ADA: (&str, &str) = ("Ada Lovelace", "ada@example.com");
    const GITHUB: (&str, &str) = ("GitHub", "noreply@github.com");

    macro_rules! agent {
        ($name:ident, $author:expr, $committer:expr, $message:expr => $agent:expr, $source:expr) => {
            #[test]
            fn $name() {
                let found = commit_actor(&meta($author, $committer, $message), &Actors::default());
                assert_eq!(found.actor.kind, AUTONOMOUS_LLM, "{found:#?}");
                assert_eq!(found.actor.id.as_deref(), Some($agent), "{found:#?}");
                assert_eq!(found.evidence[0].source, $source, "{found:#?}");
            }
        };
    }

    agent!(claude_co_author, ADA, ADA,
        "Fix parser\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n" => "claude-code", "trailer");
    agent!(claude_signature_line, ADA, ADA,
        "Fix parser\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n" => "claude-code", "message");
    agent!(aider_co_author, ADA, ADA,
        "feat: x\n\nCo-authored-by: aider (openai/gpt-4o) <aider@aider.chat>\n" => "aider", "trailer");
    agent!(aider_author_name, ("Ada Lovelace (aider)", "ada@example.com"), ADA,
        "feat: x\n" => "aider", "author");
    agent!(aider_committer_name, ADA, ("Ada Lovelace (aider)", "ada@example.com"),
        "feat: x\n" => "aider", "committer");
    agent!(copilot_author, ("Copilot", "198982749+Copilot@users.noreply.github.com"), GITHUB,
        "Initial plan\n" => "copilot", "author");
    agent!(copilot_bot_name, ("copilot-swe-agent[bot]", "198982749+Copilot@users.noreply.github.com"), GITHUB,
        "Initial plan\n" => "copilot", "author");
    agent!(copilot_bot_co_author, ADA, ADA,
        "x\n\nCo-authored-by: copilot-swe-agent[bot] <198982749+copilot-swe-agent[bot]@users.noreply.github.com>\n" => "copilot", "trailer");
    agent!(cursor_co_author, ADA, ADA,
        "x\n\nCo-authored-by: Cursor <cursoragent@cursor.com>\n" => "cursor", "trailer");
    agent!(devin_bot_by_email, ("Devin AI", "158243242+devin-ai-integration[bot]@users.noreply.github.com"), GITHUB,
        "x\n" => "devin", "author");
    agent!(codex_bot, ("chatgpt-codex-connector[bot]", "x@example.com"), ADA, "x\n" => "codex", "author");
    agent!(gemini_bot, ("gemini-code-assist[bot]", "x@example.com"), ADA, "x\n" => "gemini-code-assist", "author");
    agent!(claude_bot, ("claude[bot]", "209825114+claude[bot]@users.noreply.github.com"), ADA, "x\n" => "claude", "author");
    agent!(astrix_actor_trailer, ADA, ADA,
        "x\n\nAstrix-Actor: autonomous_llm (codex)\nAstrix-Decision: allow\n" => "codex", "trailer");

    agent!(claude_co_author_with_a_suffix, ADA, ADA,
        "Fix parser\n\nCo-Authored-By: Claude <noreply@anthropic.com> (via Claude Code)\n" => "claude-code", "trailer");
    agent!(two_identities_in_one_trailer, ADA, ADA,
        "Fix parser\n\nCo-authored-by: Ada Lovelace <ada@example.com>, Claude <noreply@anthropic.com>\n" => "claude-code", "trailer");
    agent!(a_bot_named_without_an_email, ADA, ADA,
        "Fix parser\n\nCo-authored-by: copilot-swe-agent[bot]\n" => "copilot", "trailer");
    agent!(squashed_trailers_are_indented, ADA, ADA,
        "Squashed commit of the following:\n\ncommit 0123456789abcdef0123456789abcdef01234567\nAuthor: Ada Lovelace <ada@example.com>\nDate:   Thu Jan 1 00:00:00 2026 +0000\n\n    Fix parser\n\n    Co-Authored-By: Claude <noreply@anthropic.com>\n" => "claude-code", "trailer");
    agent!(squashed_agent_author, ADA, ADA,
        "Squashed commit of the following:\n\ncommit 0123456789abcdef0123456789abcdef01234567\nAuthor: Copilot <198982749+Copilot@users.noreply.github.com>\nDate:   Thu Jan 1 00:00:00 2026 +0000\n\n    Initial plan\n" => "copilot", "trailer");
    agent!(an_actor_trailer_mid_message, ADA, ADA,
        "Squash\n\n* first\n\nAstrix-Actor: autonomous_llm (codex)\n\n* second\n" => "codex", "trailer");
    agent!(claude_footer_indented, ADA, ADA,
        "Squash\n\n    Fix parser\n\n    \u{1f916} Generated with [Claude Code](https://claude.ai/code)\n" => "claude-code", "message");

    #[test]
    fn the_footer_counts_only_as_agents_write_it() {
        for line in [
            "🤖 Generated with [Claude Code](https://claude.com/claude-code)",
            "Generated with [Claude Code](https://claude.ai/code)",
            "  Generated with Claude Code",
        ] {
            assert!(is_generated_with_claude_code(line), "{line}");
        }
        for line in [
            "Remove the \"Generated with Claude Code\" footer from the template",
            "> 🤖 Generated with [Claude Code](https://claude.com/claude-code)",
            "\"🤖 Generated with [Claude Code](https://claude.com/claude-code)\" is what it writes",
            "Generated with Claude Code's help, then rewritten by hand",
            "generated with claude",
        ] {
            assert!(!is_generated_with_claude_code(line), "{line}");
        }
    }

    #[test]
    fn humans_and_other_bots_are_humans() {
        for (author, message) in [
            (
                ADA,
                "Fix parser\n\nSigned-off-by: Ada Lovelace <ada@example.com>\n",
            ),
            (
                (
                    "dependabot[bot]",
                    "49699333+dependabot[bot]@users.noreply.github.com",
                ),
                "Bump x\n",
            ),
            (ADA, "Mention Claude Code in the docs\n"),
            (
                ADA,
                "Drop the footer\n\nOur template no longer says \"🤖 Generated with [Claude Code](https://claude.com/claude-code)\".\n",
            ),
            (ADA, "x\n\nReviewed-by: Claude <noreply@anthropic.com>\n"),
        ] {
            let found = commit_actor(&meta(author, ADA, message), &Actors::default());
            assert_eq!(found.actor.kind, HUMAN, "{message}: {found:#?}");
            assert!(found.evidence.is_empty());
        }
    }

    #[test]
    fn a_human_trailer_never_downgrades() {
        let message = "x\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nAstrix-Actor: human\n";
        let found = commit_actor(&meta(ADA, ADA, message), &Actors::default());
        assert_eq!(found.actor.kind, AUTONOMOUS_LLM);
        assert_eq!(found.declared, ["human"]);
        assert!(
            found
                .actor
                .decided_by
                .contains("`Astrix-Actor: human` does not make it a human's"),
            "{}",
            found.actor.decided_by
        );
        let found = commit_actor(
            &meta(
                ADA,
                ADA,
                "x\n\nAstrix-Actor: human\nAstrix-Decision: allow\n",
            ),
            &Actors::default(),
        );
        assert_eq!(found.actor.kind, HUMAN);
        assert_eq!(found.hook_decisions, ["allow"]);
    }

    #[test]
    fn policy_patterns_add_agents() {
        let actors = Actors {
            agent_env: Vec::new(),
            agent_authors: vec![Wildcard::new("* <*@agents.example.com>")],
            agent_trailers: vec![Wildcard::new("X-Agent: *")],
        };
        let found = commit_actor(
            &meta(("Nightly", "run@agents.example.com"), ADA, "x\n"),
            &actors,
        );
        assert_eq!(found.actor.id.as_deref(), Some("Nightly"));
        assert!(
            found
                .actor
                .decided_by
                .contains("agent_authors `* <*@agents.example.com>`")
        );
        let found = commit_actor(&meta(ADA, ADA, "x\n\nx-agent: sweeper\n"), &actors);
        assert_eq!(found.actor.kind, AUTONOMOUS_LLM);
        assert_eq!(found.evidence[0].label(), "x-agent trailer");
    }

    #[test]
    fn the_range_is_an_agents_when_any_commit_is() {
        let human = commit_actor(&meta(ADA, ADA, "x\n"), &Actors::default());
        let agent = commit_actor(
            &meta(
                ADA,
                ADA,
                "x\n\nCo-authored-by: Cursor <cursoragent@cursor.com>\n",
            ),
            &Actors::default(),
        );
        let ids = ["a".repeat(40), "b".repeat(40)];
        let actor = range_actor([(ids[0].as_str(), &human), (ids[1].as_str(), &agent)]);
        assert_eq!(actor.kind, AUTONOMOUS_LLM);
        assert_eq!(actor.id.as_deref(), Some("cursor"));
        assert!(
            actor.decided_by.contains("`bbbbbbbbbbbb`"),
            "{}",
            actor.decided_by
        );
        assert_eq!(range_actor([(ids[0].as_str(), &human)]).kind, HUMAN);
    }
}
