//! `astrix schema`: the JSON Schema of the intent, the decision or the Astrixfile.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

use crate::cli::{SchemaArgs, SchemaKind};
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;
use crate::intent::ActionIntent;
use crate::report::{DecisionOutput, write_json};

/// The schema of `kind`, fully inlined (no `$ref`), as agents and some MCP clients need.
pub fn schema(kind: SchemaKind) -> serde_json::Value {
    match kind {
        SchemaKind::Intent => {
            let mut schema = inlined::<ActionIntent>();
            crate::intent::add_action_to_schema(&mut schema);
            schema
        }
        SchemaKind::Decision => inlined::<DecisionOutput>(),
        SchemaKind::Astrixfile => crate::policy::schema::astrixfile_schema(),
    }
}

/// The JSON Schema (draft 2020-12) of `T` with every subschema inlined: no `$ref` and no
/// `$defs`, since some MCP clients and model providers do not resolve references. The line
/// breaks of wrapped doc comments are joined, so that each description reads as one line.
pub fn inlined<T: JsonSchema>() -> serde_json::Value {
    let mut value = SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    join_description_lines(&mut value);
    value
}

fn join_description_lines(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                match item {
                    serde_json::Value::String(text) if key == "description" => {
                        *text = text
                            .replace("\n\n", "\u{0}")
                            .replace('\n', " ")
                            .replace('\u{0}', "\n\n");
                    }
                    other => join_description_lines(other),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(join_description_lines),
        _ => {}
    }
}

/// Runs `astrix schema`.
pub fn run(args: &SchemaArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    ignore_broken_pipe(write_json(ctx.stdout, &schema(args.kind)))?;
    Ok(ExitStatus::Allowed)
}
