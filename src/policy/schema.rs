//! The JSON Schema of Astrixfile.ax, for editors (taplo, Even Better TOML).
//!
//! Draft-07, because that is what TOML editors read. Every key has a description. The
//! schema is written by hand beside the loader; a test checks that it describes exactly the
//! keys that [`super::load()`] accepts, table by table.

use serde_json::{Value, json};

use super::Verdict;
use super::load::{DEFAULT_GLOBAL_PATTERNS, DEFAULT_TEST_PATTERNS, SUPPORTED_VERSION};
use super::numeric::Argument;
use crate::intent::ActionIntent;

/// The JSON Schema (draft-07) of an Astrixfile.ax, as printed by `astrix schema astrixfile`.
pub fn astrixfile_schema() -> Value {
    let mut schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Astrixfile.ax",
        "description": "The astrix policy: what an autonomous coding agent (or anyone) may \
            commit in this repository. TOML, at the repository root; astrix reads the version \
            committed at HEAD. Every key is documented by `astrix docs astrixfile`.",
        "type": "object",
        "additionalProperties": false,
        "required": ["version"],
        "properties": {
            "version": {
                "description": "The format of this file. Required; this astrix reads \
                    version 1, and a higher number needs a newer astrix.",
                "type": "integer",
                "const": SUPPORTED_VERSION,
            },
            "default": decision(
                "The decision when no rule contributes one. Absent means `allow`.",
                &Verdict::ALL,
            ),
            "tests": tests(),
            "environment": {
                "description": "Branches and the environment (`target.env`) they target. \
                    The first entry whose patterns match the branch wins.",
                "type": "array",
                "items": environment(),
            },
            "actors": actors(),
            "approval": {
                "description": "How human approvals (`astrix approve`) work.",
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "ttl": {
                        "description": "How long an approval stays valid after it is \
                            recorded: a whole number with a unit (`24h`, `90m`, `7d`) or \
                            seconds. Default `24h`.",
                        "type": "string",
                        "pattern": "^[0-9]+[smhd]?$",
                    },
                },
            },
            "commit": commit(),
            "ci": {
                "description": "How `astrix ci` judges a range of commits.",
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "require_provenance": {
                        "description": "Hold every commit with changes of its own that \
                            has no `Astrix-Actor:` trailer: its maker's hooks were off, or \
                            it was made where none run. It catches careless absence, not \
                            forgery. Default false.",
                        "type": "boolean",
                        "default": false,
                    },
                },
            },
            "rule": {
                "description": "The rules. Each contributes a decision when all its \
                    conditions match; deny overrides require_approval, which overrides allow.",
                "type": "array",
                "items": rule(),
            },
            "test": {
                "description": "Policy tests, run by `astrix test`: an intent and the \
                    decision the policy must reach for it.",
                "type": "array",
                "items": test_case(),
            },
            "component": components(),
            "impact": impact(),
            "facts": facts(),
            "backstop": backstop(),
        },
    });
    // Defaults that are not literals of the `json!` above.
    if let Some(default) = schema.pointer_mut("/properties/default") {
        default["default"] = json!("allow");
    }
    if let Some(paths) = schema.pointer_mut("/properties/tests/properties/paths") {
        paths["default"] = json!(DEFAULT_TEST_PATTERNS);
    }
    if let Some(global) = schema.pointer_mut("/properties/impact/properties/global") {
        global["default"] = json!(DEFAULT_GLOBAL_PATTERNS);
    }
    schema
}

fn facts() -> Value {
    json!({
        "description": "What the size counts of a change (`lines_added`, `lines_deleted`, \
            `lines_changed`, `binary_files`, `bytes_added`) leave out. The counts are \
            otherwise git's own, with fixed settings that nothing the actor configures \
            changes.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "exclude": patterns(
                "Files left out of the size counts (generated files, lockfiles); they are \
                 still modified files that rules with `paths` see. A rename is left out only \
                 when both its paths are.",
            ),
        },
    })
}

fn backstop() -> Value {
    json!({
        "description": "What the reference-transaction hook takes as vouching for the commits \
            a branch gains.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "trusted_remotes": {
                "description": "Remotes whose remote-tracking branches vouch for commits as \
                    local branches do: a branch of an environment then gains, unjudged, what \
                    `<remote>/<a branch of that environment>` has. Empty by default, since the \
                    hook cannot tell a fetched remote-tracking branch from one set by hand \
                    (`git update-ref refs/remotes/origin/main <commit>`).",
                "type": "array",
                "items": { "type": "string", "minLength": 1 },
                "uniqueItems": true,
                "default": [],
            },
        },
    })
}

fn actors() -> Value {
    json!({
        "description": "How astrix recognises who is acting.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "agent_env": {
                "description": "Extra environment variables whose presence (with a \
                    non-empty value) marks the actor as an autonomous agent, beside \
                    the markers astrix knows (CLAUDECODE, CODEX_SANDBOX, GEMINI_CLI, …).",
                "type": "array",
                "items": {
                    "type": "string",
                    "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
                },
            },
            "agent_authors": {
                "description": "`astrix ci`: patterns of `Name <email>` identities \
                    whose commits are an autonomous agent's, matched against the \
                    author, the committer and every `Co-authored-by`, `Co-developed-by` \
                    and `Assisted-by` trailer. `*` \
                    matches any characters, everything else is literal; case does not \
                    matter. Example: `*[bot] <*>`.",
                "type": "array",
                "items": {"type": "string", "minLength": 1},
            },
            "agent_trailers": {
                "description": "`astrix ci`: patterns of commit-message trailers, \
                    written `Key: value`, that mark a commit as an autonomous agent's. \
                    `*` matches any characters, everything else is literal; case does \
                    not matter. Example: `X-Agent: *`.",
                "type": "array",
                "items": {"type": "string", "minLength": 1},
            },
        },
    })
}

fn commit() -> Value {
    json!({
        "description": "What the hooks add to the commits they let through.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "trailers": {
                "description": "Which commits the hooks give `Astrix-Actor:` and \
                    `Astrix-Decision:` trailers, so that `astrix ci` knows who made them: \
                    `true` every commit, `false` none. Absent: agents' commits (every \
                    commit when `[ci] require_provenance` is set).",
                "type": "boolean",
            },
        },
    })
}

fn decision(description: &str, allowed: &[Verdict]) -> Value {
    json!({
        "description": description,
        "type": "string",
        "enum": allowed.iter().map(|verdict| verdict.name()).collect::<Vec<_>>(),
    })
}

fn patterns(description: &str) -> Value {
    json!({
        "description": format!(
            "{description} Syntax of .gitignore / CODEOWNERS: a pattern without `/` matches \
             a file name at any depth, a pattern with `/` is anchored at the root, `*` never \
             crosses `/`, `**` does; case-sensitive."
        ),
        "type": "array",
        "items": {"type": "string", "minLength": 1},
    })
}

fn environment() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "branches"],
        "properties": {
            "name": {
                "description": "The environment these branches target, as rules name it in \
                    `env` (for example `production`).",
                "type": "string",
                "minLength": 1,
            },
            "branches": {
                "description": "Branch name patterns: `*` never crosses `/` (`release/*`).",
                "type": "array",
                "items": {"type": "string", "minLength": 1},
            },
        },
    })
}

fn rule() -> Value {
    let arguments: Vec<&str> = Argument::ALL
        .iter()
        .map(|argument| argument.name())
        .collect();
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["id"],
        "properties": {
            "id": {
                "description": "Unique kebab-case name of the rule, shown in reports.",
                "type": "string",
                "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$",
            },
            "actor": {
                "description": "Condition: the intent's `actor.type` is one of these \
                    (`autonomous_llm`, `human`). Absent matches any actor.",
                "type": "array",
                "items": {"type": "string", "minLength": 1},
            },
            "env": {
                "description": "Condition: the intent's `target.env` is one of these. \
                    Absent matches any environment.",
                "type": "array",
                "items": {"type": "string", "minLength": 1},
            },
            "paths": patterns(
                "Condition: at least one modified file matches one of these patterns.",
            ),
            "only_paths": patterns(
                "Condition: every modified file matches one of these patterns (never true \
                 for a change without files).",
            ),
            "modifies_tests": {
                "description": "Condition: whether the change modifies tests (after \
                    `[tests].paths` has been applied).",
                "type": "boolean",
            },
            "action": {
                "description": "Condition: the intent's `action` is one of these: \
                    `commit` (a commit on the target's branch; an intent without `action` \
                    is one) or `merge` (a pull request's commits merged into the target, \
                    as `astrix ci` judges the range). Absent matches any action.",
                "type": "array",
                "items": {"type": "string", "enum": ["commit", "merge"]},
            },
            "ignore_case": {
                "description": "`paths` and `only_paths` match regardless of ASCII case \
                    (`.ENV` for `.env`). Default false.",
                "type": "boolean",
                "default": false,
            },
            "decision": decision(
                "What the rule contributes when it matches; with a `policy`, what it \
                 contributes when the policy fails (default `require_approval`; `allow` \
                 is not accepted there).",
                &Verdict::ALL,
            ),
            "reason": {
                "description": "Why the rule exists, for the person or agent reading the \
                    report.",
                "type": "string",
                "minLength": 1,
            },
            "policy": {
                "description": format!(
                    "A numeric comparison `<argument> <operator> <number>` evaluated when \
                     the conditions match: it contributes `allow` when it holds and the \
                     rule's decision when it fails. A missing or non-numeric value fails. \
                     Operators: <, <=, >, >=, ==, !=. Arguments: {}.",
                    arguments.join(", ")
                ),
                "type": "string",
                "minLength": 1,
            },
        },
        "allOf": [
            {
                "if": {"not": {"required": ["policy"]}},
                "then": {"required": ["decision"]},
            },
            {
                "if": {"required": ["policy"]},
                "then": {
                    "properties": {
                        "decision": {"enum": ["require_approval", "deny"]},
                    },
                },
            },
        ],
    })
}

fn components() -> Value {
    json!({
        "description": "Components for the blast radius (`astrix blast-radius`, \
            `astrix impacted-tests`, the `impacted_components` policy argument), beside the \
            workspace packages astrix discovers (Cargo, npm, yarn, pnpm, uv). An entry with \
            the name of a discovered package refines it.",
        "type": "array",
        "items": component(),
    })
}

fn impact() -> Value {
    json!({
        "description": "How the blast radius treats files and finds workspaces.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "ignore": patterns(
                "Files that affect no component (documentation, say). Checked \
                 first: an ignored file is never global.",
            ),
            "global": patterns(
                "Files that affect every component. Setting it replaces the \
                 built-in list shown as the default.",
            ),
            "discover": {
                "description": "Where workspaces are discovered: `true` (the \
                    repository root, the default), `false` (only `[[component]]` \
                    entries), or the directories that hold workspace roots \
                    (`[\".\", \"web\"]`).",
                "oneOf": [
                    {"type": "boolean"},
                    {"type": "array", "items": {"type": "string", "minLength": 1}},
                ],
                "default": true,
            },
        },
    })
}

fn component() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name"],
        "properties": {
            "name": {
                "description": "Unique name of the component, as `depends_on` and the \
                    reports name it. The name of a discovered workspace package refines \
                    that package.",
                "type": "string",
                "minLength": 1,
            },
            "paths": patterns(
                "The files the component owns. A file that these patterns match belongs \
                 to this component rather than to the workspace package whose directory \
                 holds it.",
            ),
            "depends_on": {
                "description": "Components this one depends on, declared or discovered: \
                    a change to any of them affects this one.",
                "type": "array",
                "items": {"type": "string", "minLength": 1},
            },
            "test": {
                "description": "The shell command (run with `sh -c` at the repository \
                    root) that tests the component; replaces a discovered package's \
                    default.",
                "type": "string",
                "minLength": 1,
            },
        },
    })
}

fn test_case() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "intent", "expect"],
        "properties": {
            "name": {
                "description": "Unique name of the case, shown by `astrix test`.",
                "type": "string",
                "minLength": 1,
            },
            "intent": intent_schema(),
            "expect": decision("The decision the policy must reach.", &Verdict::ALL),
        },
    })
}

/// The `ActionIntent` schema, inlined, as the `intent` of a `[[test]]`.
fn intent_schema() -> Value {
    let generator = schemars::generate::SchemaSettings::draft07()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator();
    let mut schema = generator.into_root_schema_for::<ActionIntent>().to_value();
    crate::intent::add_action_to_schema(&mut schema);
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
        object.insert(
            "description".to_owned(),
            json!(
                "The intent to evaluate, as an inline table with the fields of the JSON \
                 ActionIntent: actor, target, modified_files, diff (modifies_tests is the \
                 string \"true\" or \"false\"), approved, action."
            ),
        );
    }
    schema
}

/// `[tests]`.
fn tests() -> Value {
    json!({
        "description": "What counts as a test file.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "paths": patterns(
                "Path patterns of test files. A change that modifies a matching file \
                 modifies tests, whatever the intent says. Absent means the built-in \
                 list shown as the default.",
            ),
            "collect": {
                "description": "Shell commands that print the tests a runner \
                    collects, one per line. `astrix ci` runs each on a copy of the \
                    merge base and of the head; a test printed before and not after \
                    counts as removed. Run it in a job without secrets: the change's \
                    own runner configuration runs.",
                "type": "array",
                "items": { "type": "string", "minLength": 1 },
                "default": [],
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::super::keys::{self, Key};
    use super::*;

    fn property_names(schema: &Value, pointer: &str) -> Vec<String> {
        let properties = schema
            .pointer(pointer)
            .and_then(Value::as_object)
            .unwrap_or_else(|| panic!("no object at {pointer}"));
        let mut names: Vec<String> = properties.keys().cloned().collect();
        names.sort();
        names
    }

    fn key_names(keys: &[Key]) -> Vec<String> {
        let mut names: Vec<String> = keys.iter().map(|key| key.name.to_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn describes_exactly_the_keys_the_loader_accepts() {
        let schema = astrixfile_schema();
        let tables: [(&str, &[Key]); 11] = [
            ("/properties", keys::TOP),
            ("/properties/tests/properties", keys::TESTS),
            (
                "/properties/environment/items/properties",
                keys::ENVIRONMENT,
            ),
            ("/properties/actors/properties", keys::ACTORS),
            ("/properties/approval/properties", keys::APPROVAL),
            ("/properties/commit/properties", keys::COMMIT),
            ("/properties/rule/items/properties", keys::RULE),
            ("/properties/test/items/properties", keys::TEST),
            ("/properties/component/items/properties", keys::COMPONENT),
            ("/properties/impact/properties", keys::IMPACT),
            ("/properties/facts/properties", keys::FACTS),
        ];
        for (pointer, keys) in tables {
            assert_eq!(
                property_names(&schema, pointer),
                key_names(keys),
                "{pointer}"
            );
            let table = pointer.trim_end_matches("/properties");
            let table = if table.is_empty() { "" } else { table };
            assert_eq!(
                schema.pointer(&format!("{table}/additionalProperties")),
                Some(&json!(false)),
                "{pointer}"
            );
        }
    }

    #[test]
    fn every_key_has_a_description() {
        fn walk(value: &Value, path: &str) {
            if let Some(properties) = value.get("properties").and_then(Value::as_object) {
                for (name, property) in properties {
                    let path = format!("{path}.{name}");
                    assert!(
                        property
                            .get("description")
                            .and_then(Value::as_str)
                            .is_some_and(|text| !text.is_empty()),
                        "{path} has no description"
                    );
                    walk(property, &path);
                    if let Some(items) = property.get("items") {
                        walk(items, &path);
                    }
                }
            }
        }
        let schema = astrixfile_schema();
        assert!(schema["description"].is_string());
        walk(&schema, "");
    }

    #[test]
    fn is_draft_07_without_references() {
        let schema = astrixfile_schema();
        assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
        let text = schema.to_string();
        assert!(!text.contains("\"$ref\""), "schemas are inlined");
        assert!(!text.contains("\"$defs\"") && !text.contains("\"definitions\""));
        assert_eq!(
            schema.pointer("/properties/tests/properties/paths/default"),
            Some(&json!(DEFAULT_TEST_PATTERNS))
        );
    }
}
