//! `astrix schema`: the JSON Schema of the intent, the decision or the Astrixfile.

use schemars::generate::SchemaSettings;

use crate::app::{Context, ignore_broken_pipe};
use crate::cli::{SchemaArgs, SchemaKind};
use crate::exit::ExitStatus;
use crate::intent::ActionIntent;
use crate::report::{DecisionOutput, write_json};

/// The schema of `kind`, fully inlined (no `$ref`), as agents and some MCP clients need.
pub fn schema(kind: SchemaKind) -> serde_json::Value {
    let generator = || {
        SchemaSettings::draft2020_12()
            .with(|settings| settings.inline_subschemas = true)
            .into_generator()
    };
    match kind {
        SchemaKind::Intent => generator()
            .into_root_schema_for::<ActionIntent>()
            .to_value(),
        SchemaKind::Decision => generator()
            .into_root_schema_for::<DecisionOutput>()
            .to_value(),
        SchemaKind::Astrixfile => crate::policy::schema::astrixfile_schema(),
    }
}

/// Runs `astrix schema`.
pub fn run(args: &SchemaArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    ignore_broken_pipe(write_json(ctx.stdout, &schema(args.kind)))?;
    Ok(ExitStatus::Allowed)
}
