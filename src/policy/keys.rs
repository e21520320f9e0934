//! The keys each table of an Astrixfile accepts: reading reports any other key, and
//! `schema.rs` describes exactly these (a test checks it).

/// How a key is written in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `key = value`.
    Value,
    /// A `[key]` table.
    Table,
    /// An array of `[[key]]` tables.
    Tables,
}

/// A key a table accepts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Key {
    /// The key's name.
    pub(crate) name: &'static str,
    /// How it is written.
    pub(crate) shape: Shape,
}

impl Key {
    const fn value(name: &'static str) -> Self {
        Self {
            name,
            shape: Shape::Value,
        }
    }

    const fn table(name: &'static str) -> Self {
        Self {
            name,
            shape: Shape::Table,
        }
    }

    const fn tables(name: &'static str) -> Self {
        Self {
            name,
            shape: Shape::Tables,
        }
    }

    /// The key as a user writes it: `id`, `[tests]`, `[[rule]]`.
    pub(crate) fn written(self) -> String {
        match self.shape {
            Shape::Value => self.name.to_owned(),
            Shape::Table => format!("[{}]", self.name),
            Shape::Tables => format!("[[{}]]", self.name),
        }
    }
}

/// The top level of the file.
pub(crate) const TOP: &[Key] = &[
    Key::value("version"),
    Key::value("default"),
    Key::table("tests"),
    Key::tables("environment"),
    Key::table("actors"),
    Key::table("approval"),
    Key::table("commit"),
    Key::table("ci"),
    Key::tables("rule"),
    Key::tables("test"),
    Key::tables("component"),
    Key::table("impact"),
    Key::table("facts"),
    Key::table("backstop"),
];
/// `[tests]`.
pub(crate) const TESTS: &[Key] = &[Key::value("paths"), Key::value("collect")];
/// `[[environment]]`.
pub(crate) const ENVIRONMENT: &[Key] = &[Key::value("name"), Key::value("branches")];
/// `[actors]`.
pub(crate) const ACTORS: &[Key] = &[
    Key::value("agent_env"),
    Key::value("agent_authors"),
    Key::value("agent_trailers"),
];
/// `[approval]`.
pub(crate) const APPROVAL: &[Key] = &[Key::value("ttl")];
/// `[commit]`.
pub(crate) const COMMIT: &[Key] = &[Key::value("trailers")];
/// `[ci]`.
pub(crate) const CI: &[Key] = &[Key::value("require_provenance")];
/// `[[rule]]`.
pub(crate) const RULE: &[Key] = &[
    Key::value("id"),
    Key::value("actor"),
    Key::value("env"),
    Key::value("paths"),
    Key::value("only_paths"),
    Key::value("modifies_tests"),
    Key::value("action"),
    Key::value("ignore_case"),
    Key::value("decision"),
    Key::value("reason"),
    Key::value("policy"),
];
/// `[[test]]`.
pub(crate) const TEST: &[Key] = &[
    Key::value("name"),
    Key::value("intent"),
    Key::value("expect"),
];
/// `[[component]]`.
pub(crate) const COMPONENT: &[Key] = &[
    Key::value("name"),
    Key::value("paths"),
    Key::value("depends_on"),
    Key::value("test"),
];
/// `[backstop]`.
pub(crate) const BACKSTOP: &[Key] = &[Key::value("trusted_remotes")];
/// `[facts]`.
pub(crate) const FACTS: &[Key] = &[Key::value("exclude")];
/// `[impact]`.
pub(crate) const IMPACT: &[Key] = &[
    Key::value("ignore"),
    Key::value("global"),
    Key::value("discover"),
];
