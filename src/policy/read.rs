//! Phase 1, reading: the file as TOML with spans, into the raw records (`raw.rs`).
//!
//! toml's recoverable parser builds a spanned tree, and its errors become `toml-syntax`
//! diagnostics. The tree is then read table by table (the `read_…` functions), checking the
//! structure only: known keys (`keys.rs`), value types and required keys. What the values
//! mean is phase 2's (`validate/`). The one value looked at here is `version`: a file newer
//! than this astrix is refused before anything else is read, since its keys may be unknown.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeInteger, DeTable, DeValue};

use super::keys::{self, Key};
use super::load::{Loader, SUPPORTED_VERSION};
use super::raw::{
    At, RawCase, RawComponent, RawDiscover, RawEnvironment, RawImpact, RawInteger, RawPolicy,
    RawRule, StringList,
};
use super::text::quote;
use crate::diagnostic::{Code, Diagnostic};

/// A TOML table being read.
#[derive(Debug, Clone)]
struct Table<'d, 'i> {
    entries: &'d DeTable<'i>,
    /// How the table is named in messages (`[[rule]]`); empty at the top level.
    name: &'static str,
    /// Where a missing key is reported: the header, or the inline table.
    span: Range<usize>,
}

impl<'d, 'i> Table<'d, 'i> {
    fn get(&self, key: &str) -> Option<&'d Spanned<DeValue<'i>>> {
        self.entries.get(key)
    }

    fn has(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    /// The table's place for messages (" in `[[rule]]`"), empty at the top level.
    fn context(&self) -> String {
        if self.name.is_empty() {
            String::new()
        } else {
            format!(" in `{}`", self.name)
        }
    }
}

/// What a key's value must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    String,
    Boolean,
    Integer,
    StringArray,
    BooleanOrStringArray,
    Table,
    TableArray,
}

impl Expected {
    fn phrase(self) -> &'static str {
        match self {
            Expected::String => "a string",
            Expected::Boolean => "a boolean",
            Expected::Integer => "an integer",
            Expected::StringArray => "an array of strings",
            Expected::BooleanOrStringArray => "a boolean or an array of strings",
            Expected::Table => "a table",
            Expected::TableArray => "an array of tables",
        }
    }
}

fn found_phrase(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

impl<'s> Loader<'s> {
    /// Parses the file into a spanned tree: each syntax error is reported, and the tree holds
    /// what toml's parser recovered around it.
    pub(super) fn parse(&mut self) -> Spanned<DeTable<'s>> {
        let (root, errors) = DeTable::parse_recoverable(self.source);
        for error in &errors {
            self.report_toml_error(error);
        }
        root
    }

    /// Phase 1: the tree into the raw records. `None` when the file's `version` is newer than
    /// this astrix (reported).
    pub(super) fn read<'d, 'i>(&mut self, root: &'d DeTable<'i>) -> Option<RawPolicy<'d, 'i>> {
        let top = Table {
            entries: root,
            name: "",
            span: 0..0,
        };
        // A newer file may use keys this astrix does not know; say only that it is newer.
        if self.newer_version(&top) {
            return None;
        }
        Some(self.read_policy(&top))
    }

    fn report_toml_error(&mut self, error: &toml::de::Error) {
        let mut span = error.span().unwrap_or(0..0);
        let text = self.source.get(span.clone()).unwrap_or_default();
        let mut message = error.message().replace('\n', " ");
        let mut help = None;
        let mut label = "not valid TOML";
        if message == "recursion limit" {
            // toml refuses a dotted key of more than `TOML_KEY_PARTS` parts (`a.b.c…`) without
            // saying where; point at the first such key.
            span = too_many_key_parts(self.source).unwrap_or(0..0);
            "a dotted key has too many parts".clone_into(&mut message);
            label = "too many parts";
            help = Some(format!(
                "TOML keys are read up to {TOML_KEY_PARTS} dotted parts, and no astrix key \
                 needs more than three; write the key with fewer dots"
            ));
        } else if message == "duplicate key" && !text.is_empty() {
            message = format!("duplicate key {}", quote(text));
            help = Some(
                "a key appears once per table; write `[[rule]]` (or `[[test]]`, \
                 `[[environment]]`) before each new entry"
                    .to_owned(),
            );
        } else if message.starts_with("string values must be quoted") {
            help = Some("put the value in double quotes".to_owned());
        }
        self.report(
            Diagnostic::new(Code::TomlSyntax, span, message)
                .with_label(label)
                .with_optional_help(help),
        );
    }

    // ---------------------------------------------------------------------------------
    // Reading helpers: types and required keys.

    /// Reports every key of `table` that is not in `known`, with a suggestion.
    fn check_keys(&mut self, table: &Table<'_, '_>, known: &[Key]) {
        for (key, value) in table.entries {
            let name: &str = key.get_ref();
            if known.iter().any(|known| known.name == name) {
                continue;
            }
            let value_span = value.span();
            let header = self
                .source
                .get(value_span.clone())
                .filter(|text| text.starts_with('['))
                .filter(|_| {
                    value_span.start <= key.span().start && key.span().end <= value_span.end
                });
            let (span, what, written) = match header {
                Some(text) if text.starts_with("[[") => {
                    (value_span, "table", format!("[[{name}]]"))
                }
                Some(_) => (value_span, "table", format!("[{name}]")),
                None => (key.span(), "key", name.to_owned()),
            };
            let suggestion = self
                .suggest(name, known.iter().map(|key| key.name))
                .and_then(|found| known.iter().find(|key| key.name == found));
            let help = match suggestion {
                Some(key) => format!("did you mean `{}`?", key.written()),
                None => format!(
                    "{} accepts {}",
                    if table.name.is_empty() {
                        "the top level".to_owned()
                    } else {
                        format!("`{}`", table.name)
                    },
                    known
                        .iter()
                        .map(|key| format!("`{}`", key.written()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            self.report(
                Diagnostic::new(
                    Code::UnknownKey,
                    span,
                    format!("unknown {what} {}{}", quote(&written), table.context()),
                )
                .with_label(format!("not a known {what}"))
                .with_help(help),
            );
        }
    }

    /// Reports `key` as missing from `table` when it is absent (a present key of the wrong
    /// type was already reported).
    fn require<T>(&mut self, table: &Table<'_, '_>, key: &str, value: Option<&T>, help: &str) {
        if value.is_some() || table.has(key) {
            return;
        }
        let label = if table.name.is_empty() {
            format!("no `{key}` in this file")
        } else {
            format!("no `{key}` in this table")
        };
        self.report(
            Diagnostic::new(
                Code::MissingKey,
                table.span.clone(),
                format!("missing key `{key}`{}", table.context()),
            )
            .with_label(label)
            .with_help(help),
        );
    }

    fn wrong_type(&mut self, key: &str, value: &Spanned<DeValue<'_>>, expected: Expected) {
        let help = match (expected, value.get_ref()) {
            (Expected::StringArray, DeValue::String(text)) => Some(format!(
                "write a list, even of one: `{key} = [{}]`",
                toml_string(text)
            )),
            (Expected::Boolean, DeValue::String(text)) if text == "true" || text == "false" => {
                Some(format!("write `{key} = {text}`, without quotes"))
            }
            (Expected::Integer, DeValue::String(text)) if text.parse::<i64>().is_ok() => {
                Some(format!("write `{key} = {text}`, without quotes"))
            }
            (Expected::Integer, DeValue::Float(float)) if float.as_str().parse::<f64>().is_ok() => {
                Some(format!("write a whole number such as `{key} = 1`"))
            }
            (Expected::TableArray, DeValue::Table(_)) => Some(format!(
                "write `[[{key}]]` with two brackets: the file may hold many of them"
            )),
            _ => None,
        };
        self.report(
            Diagnostic::new(
                Code::WrongType,
                value.span(),
                format!(
                    "wrong type for `{key}`: expected {}, found {}",
                    expected.phrase(),
                    found_phrase(value.get_ref())
                ),
            )
            .with_label(format!("expected {}", expected.phrase()))
            .with_optional_help(help),
        );
    }

    fn string(&mut self, table: &Table<'_, '_>, key: &str) -> Option<At<String>> {
        let value = table.get(key)?;
        if let DeValue::String(text) = value.get_ref() {
            Some(At {
                value: text.to_string(),
                span: value.span(),
            })
        } else {
            self.wrong_type(key, value, Expected::String);
            None
        }
    }

    fn boolean(&mut self, table: &Table<'_, '_>, key: &str) -> Option<At<bool>> {
        let value = table.get(key)?;
        if let DeValue::Boolean(flag) = value.get_ref() {
            Some(At {
                value: *flag,
                span: value.span(),
            })
        } else {
            self.wrong_type(key, value, Expected::Boolean);
            None
        }
    }

    fn integer(&mut self, table: &Table<'_, '_>, key: &str) -> Option<At<RawInteger>> {
        let value = table.get(key)?;
        if let DeValue::Integer(integer) = value.get_ref() {
            Some(At {
                value: RawInteger {
                    value: integer_value(integer),
                    text: integer.to_string(),
                },
                span: value.span(),
            })
        } else {
            self.wrong_type(key, value, Expected::Integer);
            None
        }
    }

    /// An array of strings; elements of another type are reported one by one.
    fn strings(&mut self, table: &Table<'_, '_>, key: &str) -> Option<StringList> {
        let value = table.get(key)?;
        let DeValue::Array(array) = value.get_ref() else {
            self.wrong_type(key, value, Expected::StringArray);
            return None;
        };
        let mut items = Vec::with_capacity(array.len());
        let mut all_strings = true;
        for element in array {
            if let DeValue::String(text) = element.get_ref() {
                items.push(At {
                    value: text.to_string(),
                    span: element.span(),
                });
            } else {
                all_strings = false;
                self.report(
                    Diagnostic::new(
                        Code::WrongType,
                        element.span(),
                        format!(
                            "wrong type in `{key}`: expected a string, found {}",
                            found_phrase(element.get_ref())
                        ),
                    )
                    .with_label("expected a string"),
                );
            }
        }
        all_strings.then_some(At {
            value: items,
            span: value.span(),
        })
    }

    /// A `[name]` table.
    fn table<'d, 'i>(
        &mut self,
        parent: &Table<'d, 'i>,
        key: &str,
        name: &'static str,
    ) -> Option<Table<'d, 'i>> {
        let value = parent.get(key)?;
        if let DeValue::Table(entries) = value.get_ref() {
            Some(Table {
                entries,
                name,
                span: value.span(),
            })
        } else {
            self.wrong_type(key, value, Expected::Table);
            None
        }
    }

    /// An array of `[[name]]` tables (or an array of inline tables).
    fn tables<'d, 'i>(
        &mut self,
        parent: &Table<'d, 'i>,
        key: &str,
        name: &'static str,
    ) -> Vec<Table<'d, 'i>> {
        let Some(value) = parent.get(key) else {
            return Vec::new();
        };
        let DeValue::Array(array) = value.get_ref() else {
            self.wrong_type(key, value, Expected::TableArray);
            return Vec::new();
        };
        let mut tables = Vec::with_capacity(array.len());
        for element in array {
            if let DeValue::Table(entries) = element.get_ref() {
                tables.push(Table {
                    entries,
                    name,
                    span: element.span(),
                });
            } else {
                self.report(
                    Diagnostic::new(
                        Code::WrongType,
                        element.span(),
                        format!(
                            "wrong type in `{key}`: expected a table, found {}",
                            found_phrase(element.get_ref())
                        ),
                    )
                    .with_label("expected a table"),
                );
            }
        }
        tables
    }

    // ---------------------------------------------------------------------------------
    // The tables.

    /// Whether `version` asks for a newer astrix; reports it when so.
    fn newer_version(&mut self, top: &Table<'_, '_>) -> bool {
        let Some(value) = top.get("version") else {
            return false;
        };
        let DeValue::Integer(integer) = value.get_ref() else {
            return false;
        };
        if !is_newer(integer) {
            return false;
        }
        self.report(
            Diagnostic::new(
                Code::UnsupportedVersion,
                value.span(),
                format!(
                    "version {} needs a newer astrix",
                    quote(&integer.to_string())
                ),
            )
            .with_label("newer than this astrix")
            .with_help(format!(
                "this astrix reads version {SUPPORTED_VERSION}; install a newer astrix"
            )),
        );
        true
    }

    fn read_policy<'d, 'i>(&mut self, top: &Table<'d, 'i>) -> RawPolicy<'d, 'i> {
        self.check_keys(top, keys::TOP);
        let mut raw = RawPolicy {
            version: self.integer(top, "version"),
            default: self.string(top, "default"),
            ..RawPolicy::default()
        };
        self.require(
            top,
            "version",
            raw.version.as_ref(),
            "add `version = 1` at the top of the file",
        );
        if let Some(tests) = self.table(top, "tests", "[tests]") {
            self.check_keys(&tests, keys::TESTS);
            raw.test_paths = self.strings(&tests, "paths");
            raw.test_collect = self.strings(&tests, "collect");
        }
        for table in self.tables(top, "environment", "[[environment]]") {
            raw.environments.push(self.read_environment(&table));
        }
        if let Some(actors) = self.table(top, "actors", "[actors]") {
            self.check_keys(&actors, keys::ACTORS);
            raw.agent_env = self.strings(&actors, "agent_env");
            raw.agent_authors = self.strings(&actors, "agent_authors");
            raw.agent_trailers = self.strings(&actors, "agent_trailers");
        }
        if let Some(approval) = self.table(top, "approval", "[approval]") {
            self.check_keys(&approval, keys::APPROVAL);
            raw.approval_ttl = self.string(&approval, "ttl");
        }
        if let Some(commit) = self.table(top, "commit", "[commit]") {
            self.check_keys(&commit, keys::COMMIT);
            raw.commit_trailers = self.boolean(&commit, "trailers");
        }
        if let Some(ci) = self.table(top, "ci", "[ci]") {
            self.check_keys(&ci, keys::CI);
            raw.ci_require_provenance = self.boolean(&ci, "require_provenance");
        }
        for table in self.tables(top, "rule", "[[rule]]") {
            raw.rules.push(self.read_rule(&table));
        }
        for table in self.tables(top, "test", "[[test]]") {
            raw.cases.push(self.read_case(&table));
        }
        for table in self.tables(top, "component", "[[component]]") {
            raw.components.push(self.read_component(&table));
        }
        if let Some(facts) = self.table(top, "facts", "[facts]") {
            self.check_keys(&facts, keys::FACTS);
            raw.facts_exclude = self.strings(&facts, "exclude");
        }
        if let Some(backstop) = self.table(top, "backstop", "[backstop]") {
            self.check_keys(&backstop, keys::BACKSTOP);
            raw.trusted_remotes = self.strings(&backstop, "trusted_remotes");
        }
        if let Some(impact) = self.table(top, "impact", "[impact]") {
            self.check_keys(&impact, keys::IMPACT);
            raw.impact = RawImpact {
                ignore: self.strings(&impact, "ignore"),
                global: self.strings(&impact, "global"),
                discover: self.discover(&impact),
            };
        }
        raw
    }

    fn read_component(&mut self, table: &Table<'_, '_>) -> RawComponent {
        self.check_keys(table, keys::COMPONENT);
        let raw = RawComponent {
            name: self.string(table, "name"),
            paths: self.strings(table, "paths"),
            depends_on: self.strings(table, "depends_on"),
            test: self.string(table, "test"),
        };
        self.require(
            table,
            "name",
            raw.name.as_ref(),
            "name the component, such as `name = \"web\"`",
        );
        raw
    }

    /// `[impact] discover`: a boolean or a list of directories.
    fn discover(&mut self, table: &Table<'_, '_>) -> Option<RawDiscover> {
        let value = table.get("discover")?;
        match value.get_ref() {
            DeValue::Boolean(flag) => Some(RawDiscover::Flag(*flag)),
            DeValue::Array(_) => self.strings(table, "discover").map(RawDiscover::Dirs),
            _ => {
                self.wrong_type("discover", value, Expected::BooleanOrStringArray);
                None
            }
        }
    }

    fn read_environment(&mut self, table: &Table<'_, '_>) -> RawEnvironment {
        self.check_keys(table, keys::ENVIRONMENT);
        let raw = RawEnvironment {
            name: self.string(table, "name"),
            branches: self.strings(table, "branches"),
        };
        self.require(
            table,
            "name",
            raw.name.as_ref(),
            "add the environment these branches target, such as `name = \"production\"`",
        );
        self.require(
            table,
            "branches",
            raw.branches.as_ref(),
            "add the branch patterns, such as `branches = [\"main\", \"release/*\"]`",
        );
        raw
    }

    fn read_rule(&mut self, table: &Table<'_, '_>) -> RawRule {
        self.check_keys(table, keys::RULE);
        let raw = RawRule {
            header: table.span.clone(),
            id: self.string(table, "id"),
            actor: self.strings(table, "actor"),
            env: self.strings(table, "env"),
            paths: self.strings(table, "paths"),
            only_paths: self.strings(table, "only_paths"),
            modifies_tests: self.boolean(table, "modifies_tests"),
            action: self.strings(table, "action"),
            ignore_case: self.boolean(table, "ignore_case"),
            decision: self.string(table, "decision"),
            has_decision: table.has("decision"),
            reason: self.string(table, "reason"),
            policy: self.string(table, "policy"),
            has_policy: table.has("policy"),
        };
        self.require(
            table,
            "id",
            raw.id.as_ref(),
            "give the rule a unique kebab-case id, such as `id = \"ci-config\"`",
        );
        raw
    }

    fn read_case<'d, 'i>(&mut self, table: &Table<'d, 'i>) -> RawCase<'d, 'i> {
        self.check_keys(table, keys::TEST);
        let intent = table.get("intent").filter(|value| {
            let is_table = matches!(value.get_ref(), DeValue::Table(_));
            if !is_table {
                self.wrong_type("intent", value, Expected::Table);
            }
            is_table
        });
        let raw = RawCase {
            header: table.span.clone(),
            name: self.string(table, "name"),
            intent,
            expect: self.string(table, "expect"),
        };
        self.require(
            table,
            "name",
            raw.name.as_ref(),
            "add `name = \"…\"` saying what the case checks",
        );
        self.require(
            table,
            "intent",
            raw.intent,
            "add the intent as an inline table: `intent = { actor = { type = \"human\" }, \
             target = { env = \"development\" }, modified_files = [\"src/lib.rs\"], \
             diff = { modifies_tests = \"false\" } }`",
        );
        self.require(
            table,
            "expect",
            raw.expect.as_ref(),
            "add the decision the case expects: `expect = \"allow\"`, \
             `\"require_approval\"` or `\"deny\"`",
        );
        raw
    }
}

/// Whether a `version` integer is above the supported one (any positive number too large
/// to parse counts as newer).
fn is_newer(integer: &DeInteger<'_>) -> bool {
    match integer_value(integer) {
        Some(value) => value > i128::from(SUPPORTED_VERSION),
        None => !integer.as_str().starts_with('-'),
    }
}

/// The value of a TOML integer when it fits (a test intent's numbers are written as JSON
/// with it too).
pub(super) fn integer_value(integer: &DeInteger<'_>) -> Option<i128> {
    i128::from_str_radix(integer.as_str(), integer.radix()).ok()
}

/// `text` as a TOML basic string, for help lines.
fn toml_string(text: &str) -> String {
    // A JSON string is a valid TOML basic string for everything but a few control
    // escapes, which help lines never need to be exact about.
    let cut: String = text.chars().take(60).collect();
    serde_json::Value::String(cut).to_string()
}

/// The most parts a dotted key may have: toml's parser refuses longer ones (its recursion
/// limit) with an error that carries no position.
const TOML_KEY_PARTS: usize = 80;

/// The line of the first dotted key with more than [`TOML_KEY_PARTS`] parts: a line (without
/// its comment) with that many dots outside quotes. Dots in values (`1.5`, dates) do not add
/// up to that many on one line of a policy, and when they do the span is only less precise.
fn too_many_key_parts(source: &str) -> Option<Range<usize>> {
    let mut start = 0;
    for line in source.split_inclusive('\n') {
        let mut dots = 0;
        let mut quote = None;
        for byte in line.bytes() {
            match (quote, byte) {
                (None, b'#') => break,
                (None, b'"' | b'\'') => quote = Some(byte),
                (Some(open), _) if byte == open => quote = None,
                (None, b'.') => dots += 1,
                _ => {}
            }
        }
        if dots >= TOML_KEY_PARTS {
            let end = start + line.trim_end().len();
            return Some(start..end.max(start + 1));
        }
        start += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::policy::load;
    use crate::policy::testing::{INTENT, V, diagnoses, diagnostics};

    diagnoses! {
        toml_syntax_unquoted_string:
            "version = 1\ndefault = allow\n"
            => "toml-syntax", "string values must be quoted, expected literal string", "allow",
            Some("put the value in double quotes");
        toml_syntax_duplicate_key:
            "version = 1\n[[rule]]\nid = \"a\"\nid = \"b\"\ndecision = \"deny\"\n"
            => "toml-syntax", "duplicate key `id`", "id",
            Some("a key appears once per table; write `[[rule]]` (or `[[test]]`, `[[environment]]`) before each new entry");
        unknown_key_in_rule:
            &format!("{V}[[rule]]\nid = \"a\"\ndecison = \"deny\"\ndecision = \"deny\"\n")
            => "unknown-key", "unknown key `decison` in `[[rule]]`", "decison",
            Some("did you mean `decision`?");
        unknown_key_without_suggestion:
            &format!("{V}[actors]\nfoo = 1\n")
            => "unknown-key", "unknown key `foo` in `[actors]`", "foo",
            Some("`[actors]` accepts `agent_env`, `agent_authors`, `agent_trailers`");
        unknown_top_level_key:
            "version = 1\ndefalt = \"deny\"\n"
            => "unknown-key", "unknown key `defalt`", "defalt", Some("did you mean `default`?");
        unknown_array_of_tables:
            &format!("{V}[[rules]]\nid = \"a\"\n")
            => "unknown-key", "unknown table `[[rules]]`", "[[rules]]", Some("did you mean `[[rule]]`?");
        unknown_table_suggests_its_form:
            &format!("{V}[actor]\nagent_env = []\n")
            => "unknown-key", "unknown table `[actor]`", "[actor]", Some("did you mean `[actors]`?");
        wrong_type_single_table_for_many:
            &format!("{V}[test]\nname = \"a\"\n")
            => "wrong-type", "wrong type for `test`: expected an array of tables, found a table", "[test]",
            Some("write `[[test]]` with two brackets: the file may hold many of them");
        wrong_type_boolean:
            &format!("{V}[[rule]]\nid = \"a\"\nmodifies_tests = \"true\"\ndecision = \"deny\"\n")
            => "wrong-type", "wrong type for `modifies_tests`: expected a boolean, found a string", "\"true\"",
            Some("write `modifies_tests = true`, without quotes");
        wrong_type_single_pattern:
            &format!("{V}[[rule]]\nid = \"a\"\npaths = \"docs/**\"\ndecision = \"deny\"\n")
            => "wrong-type", "wrong type for `paths`: expected an array of strings, found a string", "\"docs/**\"",
            Some("write a list, even of one: `paths = [\"docs/**\"]`");
        wrong_type_in_array:
            &format!("{V}[[rule]]\nid = \"a\"\nactor = [\"human\", 3]\ndecision = \"deny\"\n")
            => "wrong-type", "wrong type in `actor`: expected a string, found an integer", "3", None;
        wrong_type_version_string:
            "version = \"1\"\n"
            => "wrong-type", "wrong type for `version`: expected an integer, found a string", "\"1\"",
            Some("write `version = 1`, without quotes");
        wrong_type_version_float:
            "version = 1.0\n"
            => "wrong-type", "wrong type for `version`: expected an integer, found a float", "1.0",
            Some("write a whole number such as `version = 1`");
        wrong_type_intent:
            &format!("{V}[[test]]\nname = \"a\"\nintent = \"{{}}\"\nexpect = \"allow\"\n")
            => "wrong-type", "wrong type for `intent`: expected a table, found a string", "\"{}\"", None;
        missing_rule_id:
            &format!("{V}[[rule]]\ndecision = \"deny\"\n")
            => "missing-key", "missing key `id` in `[[rule]]`", "[[rule]]",
            Some("give the rule a unique kebab-case id, such as `id = \"ci-config\"`");
        missing_version:
            "default = \"allow\"\n"
            => "missing-key", "missing key `version`", "", Some("add `version = 1` at the top of the file");
        missing_environment_branches:
            &format!("{V}[[environment]]\nname = \"production\"\n")
            => "missing-key", "missing key `branches` in `[[environment]]`", "[[environment]]",
            Some("add the branch patterns, such as `branches = [\"main\", \"release/*\"]`");
        missing_test_expect:
            &format!("{V}[[test]]\nname = \"a\"\nintent = {INTENT}\n")
            => "missing-key", "missing key `expect` in `[[test]]`", "[[test]]",
            Some("add the decision the case expects: `expect = \"allow\"`, `\"require_approval\"` or `\"deny\"`");
        unsupported_version_newer:
            "version = 2\n[future]\nkey = 1\n"
            => "unsupported-version", "version `2` needs a newer astrix", "2",
            Some("this astrix reads version 1; install a newer astrix");
        unsupported_version_huge:
            "version = 99999999999999999999999999999999999999999\n"
            => "unsupported-version", "version `99999999999999999999999999999999999999999` needs a newer astrix",
            "99999999999999999999999999999999999999999",
            Some("this astrix reads version 1; install a newer astrix");
        commit_trailers_is_a_boolean:
            &format!("{V}[commit]\ntrailers = \"yes\"\n")
            => "wrong-type", "wrong type for `trailers`: expected a boolean, found a string", "\"yes\"", None;
        component_without_name:
            &format!("{V}[[component]]\npaths = [\"web/**\"]\n")
            => "missing-key", "missing key `name` in `[[component]]`", "[[component]]",
            Some("name the component, such as `name = \"web\"`");
        discover_of_the_wrong_type:
            &format!("{V}[impact]\ndiscover = \"yes\"\n")
            => "wrong-type", "wrong type for `discover`: expected a boolean or an array of strings, found a string", "\"yes\"",
            None;
    }

    #[test]
    fn rules_may_be_written_as_an_array_of_inline_tables() {
        let source = "version = 1\nrule = [\n  { id = \"a\", decision = \"deny\" },\n  { id = \"b\", decision = \"allow\" },\n]\n";
        let (policy, _) = load("Astrixfile.ax", source).unwrap();
        let lines: Vec<usize> = policy.rules.iter().map(|rule| rule.line).collect();
        assert_eq!(lines, [3, 4]);
        let source = "version = 1\nrule = [{ decision = \"deny\" }]\n";
        let found = diagnostics(source);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "missing-key");
        assert_eq!(&source[found[0].span.clone()], "{ decision = \"deny\" }");
    }
}
