//! `astrix docs`: the user documentation, built into the binary, so that the pointers in
//! messages and in the Astrixfile that `astrix init` writes lead somewhere in every
//! repository — not only in a clone of astrix.

use clap::ValueEnum as _;

use crate::cli::{DocsArgs, DocsTopic};
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;

/// The Markdown text of a page, as it is in the project's `docs/`.
pub fn page(topic: DocsTopic) -> &'static str {
    match topic {
        DocsTopic::Astrixfile => include_str!("../../docs/astrixfile.md"),
        DocsTopic::Ci => include_str!("../../docs/ci.md"),
        DocsTopic::Security => include_str!("../../docs/security.md"),
        DocsTopic::BlastRadius => include_str!("../../docs/blast-radius.md"),
        DocsTopic::TestTampering => include_str!("../../docs/test-tampering.md"),
        DocsTopic::Mcp => include_str!("../../docs/mcp.md"),
        DocsTopic::Agents => include_str!("../../docs/agents.md"),
        DocsTopic::Install => include_str!("../../docs/install.md"),
        DocsTopic::Robustness => include_str!("../../docs/robustness.md"),
        DocsTopic::Architecture => include_str!("../../docs/architecture.md"),
    }
}

/// Runs `astrix docs`.
pub fn run(args: &DocsArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let out = &mut *ctx.stdout;
    let mut write = || -> std::io::Result<()> {
        if let Some(topic) = args.topic {
            return out.write_all(page(topic).as_bytes());
        }
        writeln!(
            out,
            "astrix docs TOPIC prints one page of astrix's documentation:"
        )?;
        for topic in DocsTopic::value_variants() {
            let Some(value) = topic.to_possible_value() else {
                continue;
            };
            let help = value
                .get_help()
                .map(ToString::to_string)
                .unwrap_or_default();
            writeln!(out, "  {:<15} {help}", value.get_name())?;
        }
        writeln!(
            out,
            "a link to `NAME.md` in a page is `astrix docs NAME`; the pages are also in the docs/ directory of astrix's source, beside its README"
        )
    };
    ignore_broken_pipe(write())?;
    Ok(ExitStatus::Allowed)
}
