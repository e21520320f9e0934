//! The settings of the whole policy: `[[environment]]` (which branches target which
//! environment), `[actors]`, `[approval] ttl`, and the `[commit]` trailers, whose default
//! `[ci] require_provenance` changes.

use crate::diagnostic::{Code, Diagnostic};
use crate::policy::glob;
use crate::policy::load::Loader;
use crate::policy::raw::{At, RawEnvironment, StringList};
use crate::policy::text::quote;
use crate::policy::wildcard::Wildcard;
use crate::policy::{Actors, Environment, TrailerMode};

/// How long an approval stays valid when `[approval] ttl` is not set.
pub const DEFAULT_APPROVAL_TTL: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// `[commit] trailers`: `true` every commit, `false` none, absent agents' commits only —
/// or every commit when `[ci] require_provenance` asks each to carry its actor.
pub(super) fn trailer_mode(trailers: Option<bool>, require_provenance: bool) -> TrailerMode {
    match trailers {
        Some(true) => TrailerMode::All,
        Some(false) => TrailerMode::Off,
        None if require_provenance => TrailerMode::All,
        None => TrailerMode::Agents,
    }
}

impl Loader<'_> {
    /// `[approval] ttl`, [`DEFAULT_APPROVAL_TTL`] when absent (or invalid, reported).
    pub(super) fn validate_ttl(&mut self, ttl: Option<&At<String>>) -> std::time::Duration {
        let Some(ttl) = ttl else {
            return DEFAULT_APPROVAL_TTL;
        };
        match crate::time::parse_duration(&ttl.value) {
            Some(duration) if !duration.is_zero() => duration,
            _ => {
                self.report(
                    Diagnostic::new(
                        Code::InvalidDuration,
                        ttl.span.clone(),
                        format!("invalid duration `{}` for `ttl`", ttl.value),
                    )
                    .with_label("not a duration")
                    .with_help(
                        "write a positive whole number with a unit: `24h`, `90m`, `7d`, or seconds such as `3600`",
                    ),
                );
                DEFAULT_APPROVAL_TTL
            }
        }
    }

    pub(super) fn validate_environment(&mut self, raw: &RawEnvironment) -> Option<Environment> {
        let name = raw.name.as_ref().filter(|name| {
            self.non_empty(
                name,
                "environment name",
                "name the `target.env` these branches target, such as `production`",
            )
        });
        let mut branches = Vec::new();
        let mut ok = true;
        if let Some(list) = &raw.branches {
            for pattern in &list.value {
                match glob::compile_branch(&pattern.value) {
                    Ok(matcher) => branches.push(matcher),
                    Err(err) => {
                        ok = false;
                        self.report_glob_error(pattern, "branches", &err, "branch pattern");
                    }
                }
            }
            if list.value.is_empty() {
                let who = name.map_or_else(
                    || "this environment".to_owned(),
                    |name| format!("environment {}", quote(&name.value)),
                );
                self.report(
                    Diagnostic::new(
                        Code::EmptyCondition,
                        list.span.clone(),
                        format!("{who} never matches a branch: `branches` is empty"),
                    )
                    .with_label("an empty list matches nothing")
                    .with_help("list at least one branch pattern, or remove the entry"),
                );
            }
        }
        let patterns = raw.branches.as_ref()?;
        if !ok {
            return None;
        }
        Some(Environment {
            name: name?.value.clone(),
            branch_patterns: patterns.value.iter().map(|at| at.value.clone()).collect(),
            branches,
        })
    }

    /// `[actors]`.
    pub(super) fn validate_actors(
        &mut self,
        agent_env: Option<StringList>,
        agent_authors: Option<StringList>,
        agent_trailers: Option<StringList>,
    ) -> Actors {
        Actors {
            agent_env: agent_env
                .map(|list| self.validate_agent_env(list))
                .unwrap_or_default(),
            agent_authors: agent_authors
                .map(|list| self.validate_wildcards(list, "agent_authors"))
                .unwrap_or_default(),
            agent_trailers: agent_trailers
                .map(|list| self.validate_wildcards(list, "agent_trailers"))
                .unwrap_or_default(),
        }
    }

    /// `[actors]` patterns: `*` matches anything, the rest is literal; only an empty pattern
    /// is wrong.
    fn validate_wildcards(&mut self, list: StringList, key: &str) -> Vec<Wildcard> {
        list.value
            .into_iter()
            .filter(|pattern| {
                self.non_empty(
                    pattern,
                    &format!("pattern in `{key}`"),
                    "remove the empty entry; `*` matches anything",
                )
            })
            .map(|pattern| Wildcard::new(&pattern.value))
            .collect()
    }

    fn validate_agent_env(&mut self, list: StringList) -> Vec<String> {
        let mut names = Vec::with_capacity(list.value.len());
        for name in list.value {
            if !self.non_empty(
                &name,
                "variable name in `agent_env`",
                "remove the empty entry",
            ) {
                continue;
            }
            if is_env_var_name(&name.value) {
                names.push(name.value);
            } else {
                self.report(
                    Diagnostic::new(
                        Code::InvalidEnvVar,
                        name.span.clone(),
                        format!("invalid environment variable name {}", quote(&name.value)),
                    )
                    .with_label("not a variable name")
                    .with_help(
                        "a name is ASCII letters, digits and `_`, and does not start with a digit",
                    ),
                );
            }
        }
        names
    }
}

impl Loader<'_> {
    /// `[backstop] trusted_remotes`: names git takes for a remote (they become part of
    /// `refs/remotes/<name>/…`).
    pub(super) fn validate_remotes(&mut self, list: StringList) -> Vec<String> {
        let mut names = Vec::with_capacity(list.value.len());
        for name in list.value {
            if !self.non_empty(
                &name,
                "remote name in `trusted_remotes`",
                "remove the empty entry",
            ) {
                continue;
            }
            if is_remote_name(&name.value) {
                if !names.contains(&name.value) {
                    names.push(name.value);
                }
            } else {
                self.report(
                    Diagnostic::new(
                        Code::InvalidRemote,
                        name.span.clone(),
                        format!("invalid remote name {}", quote(&name.value)),
                    )
                    .with_label("not a remote's name")
                    .with_help(
                        "write the name `git remote` lists, such as `origin` (no spaces, `..`, `*`, `:`, `?`, `[`, `\\`, `^` or `~`)",
                    ),
                );
            }
        }
        names
    }
}

/// Whether `name` is one git accepts for a remote: `refs/remotes/<name>/x` is a valid ref
/// name.
fn is_remote_name(name: &str) -> bool {
    let bad_byte = |byte: u8| byte.is_ascii_control() || b" ~^:?*[\\\x7f".contains(&byte);
    !name.bytes().any(bad_byte)
        && !name.contains("..")
        && !name.contains("@{")
        && !name.contains("//")
        && !name.ends_with('/')
        && name.split('/').all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && !part.to_ascii_lowercase().ends_with(".lock")
        })
        && !name.ends_with('.')
        && !name.starts_with('-')
        && name != "@"
}

/// `^[A-Za-z_][A-Za-z0-9_]*$`.
fn is_env_var_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use crate::policy::testing::{V, diagnoses};
    use crate::policy::{TrailerMode, load};

    diagnoses! {
        empty_agent_author_pattern:
            &format!("{V}[actors]\nagent_authors = [\"*[bot] <*>\", \"\"]\n")
            => "empty-value", "empty pattern in `agent_authors`", "\"\"",
            Some("remove the empty entry; `*` matches anything");
        invalid_branch_glob:
            &format!("{V}[[environment]]\nname = \"production\"\nbranches = [\"release/[x\"]\n")
            => "invalid-glob", "invalid branch pattern `release/[x` in `branches`", "\"release/[x\"",
            Some("unclosed character class; missing ']'");
        invalid_env_var:
            &format!("{V}[actors]\nagent_env = [\"MY_AGENT\", \"MY-AGENT\"]\n")
            => "invalid-env-var", "invalid environment variable name `MY-AGENT`", "\"MY-AGENT\"",
            Some("a name is ASCII letters, digits and `_`, and does not start with a digit");
        invalid_env_var_leading_digit:
            &format!("{V}[actors]\nagent_env = [\"1AGENT\"]\n")
            => "invalid-env-var", "invalid environment variable name `1AGENT`", "\"1AGENT\"",
            Some("a name is ASCII letters, digits and `_`, and does not start with a digit");
        empty_condition_branches:
            &format!("{V}[[environment]]\nname = \"staging\"\nbranches = []\n")
            => "empty-condition", "environment `staging` never matches a branch: `branches` is empty", "[]",
            Some("list at least one branch pattern, or remove the entry");
        invalid_remote:
            &format!("{V}[backstop]\ntrusted_remotes = [\"origin\", \"up stream\"]\n")
            => "invalid-remote", "invalid remote name `up stream`", "\"up stream\"",
            Some("write the name `git remote` lists, such as `origin` (no spaces, `..`, `*`, `:`, `?`, `[`, `\\`, `^` or `~`)");
        empty_remote:
            &format!("{V}[backstop]\ntrusted_remotes = [\"\"]\n")
            => "empty-value", "empty remote name in `trusted_remotes`", "\"\"",
            Some("remove the empty entry");
    }

    #[test]
    fn trusted_remotes() {
        let source =
            format!("{V}[backstop]\ntrusted_remotes = [\"origin\", \"team/fork\", \"origin\"]\n");
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        assert_eq!(policy.backstop.trusted_remotes, ["origin", "team/fork"]);
        let (policy, _) = load("Astrixfile.ax", V).unwrap();
        assert!(policy.backstop.trusted_remotes.is_empty());
        for bad in [
            "a..b", "-x", "x.lock", "a//b", "x/", ".x", "a:b", "a*", "@", "a@{b",
        ] {
            assert!(!super::is_remote_name(bad), "{bad}");
        }
    }

    #[test]
    fn actor_patterns_and_commit_trailers() {
        let source = format!(
            "{V}[actors]\nagent_authors = [\"*[bot] <*>\"]\nagent_trailers = [\"X-Agent: *\"]\n[commit]\ntrailers = true\n"
        );
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        assert!(policy.actors.agent_authors[0].is_match("Robo[bot] <r@example.com>"));
        assert!(policy.actors.agent_trailers[0].is_match("x-agent: nightly"));
        assert_eq!(policy.commit.trailers, TrailerMode::All);
        let (policy, _) = load("Astrixfile.ax", "version = 1\n").unwrap();
        // Absent: agents' commits get the trailers.
        assert_eq!(policy.commit.trailers, TrailerMode::Agents);
        assert!(!policy.ci.require_provenance);
        assert!(policy.actors.agent_authors.is_empty() && policy.actors.agent_trailers.is_empty());
        let source = format!("{V}[commit]\ntrailers = false\n[ci]\nrequire_provenance = true\n");
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        assert_eq!(policy.commit.trailers, TrailerMode::Off);
        assert!(policy.ci.require_provenance);
        // Provenance required: every commit carries its actor unless the file says otherwise.
        let source = format!("{V}[ci]\nrequire_provenance = true\n");
        let (policy, _) = load("Astrixfile.ax", &source).unwrap();
        assert_eq!(policy.commit.trailers, TrailerMode::All);
    }
}
