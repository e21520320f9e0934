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
//! - identities (the author, the committer, and every `Co-authored-by`,
//!   `Co-developed-by` and `Assisted-by` trailer) of the agents in [`KNOWN_IDENTITIES`]
//!   and [`AGENT_BOTS`], and those matching `[actors] agent_authors`;
//! - an author or committer name ending in `(aider)`, as aider writes it;
//! - a `Generated with Claude Code` line anywhere in the message;
//! - an `Astrix-Actor: autonomous_llm …` trailer (the prepare-commit-msg hook writes it);
//! - trailers matching `[actors] agent_trailers`.
//!
//! Matching ignores case.

use serde::Serialize;

use crate::env::{AUTONOMOUS_LLM, HUMAN, ResolvedActor};
use crate::git::{CommitMeta, Signature};
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
        let text = format!("{}: {}", trailer.key, trailer.value);
        if AUTHORSHIP_TRAILERS.contains(&key.as_str())
            && let Some(signature) = parse_identity(&trailer.value)
        {
            for (agent, why) in identity_matches(&signature, actors) {
                evidence.push(Evidence {
                    agent,
                    source: "trailer",
                    text: text.clone(),
                    why,
                });
            }
        }
        if key == ACTOR_TRAILER.to_lowercase() {
            let (kind, id) = parse_declared(&trailer.value);
            if kind == AUTONOMOUS_LLM {
                evidence.push(Evidence {
                    agent: id.unwrap_or_else(|| "agent".to_owned()),
                    source: "trailer",
                    text: text.clone(),
                    why: "the actor astrix's hook found when the commit was made".to_owned(),
                });
            } else {
                declared.push(trailer.value.clone());
            }
        }
        if key == DECISION_TRAILER.to_lowercase() {
            hook_decisions.push(trailer.value.clone());
        }
        if let Some(pattern) = actors
            .agent_trailers
            .iter()
            .find(|pattern| pattern.is_match(&text))
        {
            evidence.push(Evidence {
                agent: agent_name(&trailer.value),
                source: "trailer",
                text: text.clone(),
                why: format!("matches agent_trailers `{}`", pattern.as_str()),
            });
        }
    }
    for line in meta.message.lines() {
        let plain: String = line
            .to_lowercase()
            .chars()
            .filter(|ch| !matches!(ch, '[' | ']'))
            .collect();
        if plain.contains("generated with claude code") {
            evidence.push(Evidence {
                agent: "claude-code".to_owned(),
                source: "message",
                text: line.trim().to_owned(),
                why: "Claude Code's signature line".to_owned(),
            });
        }
    }
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

/// `Name <email>` as a signature.
fn parse_identity(value: &str) -> Option<Signature> {
    let (name, rest) = value.split_once('<')?;
    let email = rest.strip_suffix('>').unwrap_or(rest);
    Some(Signature {
        name: name.trim().to_owned(),
        email: email.trim().to_owned(),
    })
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
