//! `astrix blast-radius`: the components a change affects, and why (SPEC §8); and the
//! shared step of `impacted-tests`: which change, which graph, which blast radius.
//!
//! The change is the staged one by default, `merge-base(REV, HEAD)..HEAD` with `--base`,
//! or the files named on the command line ([`crate::impact::analyze_change`] does the
//! work). The components declared in the policy come from the same Astrixfile.ax as the
//! gate's (committed at HEAD), so that the blast radius shown here is the one that
//! `impacted_components` counts.

use std::path::{Component, Path, PathBuf};

use anyhow::{Context as _, anyhow};

use crate::cli::{BlastFormat, BlastRadiusArgs, ChangeSelection};
use crate::context::{Context, ignore_broken_pipe};
use crate::env::CARGO;
use crate::exit::ExitStatus;
use crate::gate::source::{self, InvalidPolicyError, LoadedPolicy};
use crate::git::Repository;
use crate::impact::{BlastRadius, ChangeSource, ComponentGraph, GraphOptions, analyze_change};
use crate::report::impact::{write_blast_text, write_mermaid};
use crate::report::write_json;

/// A change, its component graph and its blast radius.
pub struct Analysis {
    /// The repository.
    pub repo: Repository,
    /// The policy whose `[[component]]` and `[impact]` were used.
    pub policy: LoadedPolicy,
    /// The component graph.
    pub graph: ComponentGraph,
    /// The blast radius.
    pub radius: BlastRadius,
    /// Named files that are neither in the work tree nor in the index nor at HEAD (a
    /// mistyped path, most likely): they are analysed as new files of that name.
    pub missing: Vec<String>,
}

/// Reads the change `selection` names and analyses its blast radius.
pub fn analyze_selection(
    selection: &ChangeSelection,
    ctx: &Context<'_>,
) -> anyhow::Result<Analysis> {
    let repo = Repository::open(&ctx.cwd, &ctx.env)?;
    let head = repo.head()?;
    let repository_policy = source::for_repository(&repo, &head)?;
    if let Some(diagnostics) = repository_policy.committed_invalid {
        return Err(anyhow::Error::new(InvalidPolicyError(diagnostics)).context(
            "the committed Astrixfile.ax does not validate, so its components are unknown",
        ));
    }
    let policy = repository_policy.loaded;
    let mut missing = Vec::new();
    let change = if let Some(base) = &selection.base {
        ChangeSource::Base(base.clone())
    } else if selection.paths.is_empty() {
        ChangeSource::Staged
    } else {
        let files = named_files(&repo, &ctx.cwd, &selection.paths)?;
        missing = files
            .iter()
            .filter(|file| !exists_anywhere(&repo, file))
            .cloned()
            .collect();
        ChangeSource::Files(files)
    };
    let options = GraphOptions {
        cargo: Some(
            ctx.env
                .get_os(CARGO)
                .filter(|cargo| !cargo.is_empty())
                .map_or_else(|| "cargo".into(), ToOwned::to_owned),
        ),
    };
    let analysis = analyze_change(&repo, &policy.policy, &change, &options)
        .context("cannot analyse the blast radius of the change")?;
    Ok(Analysis {
        repo,
        policy,
        graph: analysis.graph,
        radius: analysis.radius,
        missing,
    })
}

/// Whether `file` (repository-relative) is in the work tree, the index or HEAD's tree; a
/// path git cannot answer for counts as present, so that only a sure absence is reported.
fn exists_anywhere(repo: &Repository, file: &str) -> bool {
    repo.work_dir()
        .is_some_and(|dir| dir.join(file).symlink_metadata().is_ok())
        || !matches!(repo.file_in_index(file), Ok(None))
        || !matches!(repo.file_at_rev("HEAD", file), Ok(None))
}

/// Warns on stderr about named files that exist nowhere: the analysis treats each as a new
/// file, which is what was asked, but seldom what was meant.
pub fn warn_missing(analysis: &Analysis, ctx: &mut Context<'_>) -> std::io::Result<()> {
    let style = ctx.stderr_style;
    for file in &analysis.missing {
        writeln!(
            ctx.stderr,
            "{} `{file}` does not exist (not in the work tree, the index or HEAD); it is analysed as a new file of that name — check the path",
            style.yellow().paint("warning:")
        )?;
    }
    Ok(())
}

/// `paths` (relative to `cwd`, or absolute) as repository-relative paths.
fn named_files(repo: &Repository, cwd: &Path, paths: &[PathBuf]) -> anyhow::Result<Vec<String>> {
    let work_dir = repo
        .work_dir()
        .ok_or_else(|| anyhow!("the repository has no work tree, so files cannot be named"))?;
    let canonical_work = work_dir
        .canonicalize()
        .unwrap_or_else(|_| work_dir.to_path_buf());
    let cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let absolute = lexical(&cwd.join(path));
        let relative = absolute
            .strip_prefix(&canonical_work)
            .or_else(|_| absolute.strip_prefix(work_dir))
            .map_err(|_| {
                anyhow!(
                    "`{}` is outside the repository `{}`",
                    path.display(),
                    work_dir.display()
                )
            })?;
        let text = relative
            .to_str()
            .ok_or_else(|| anyhow!("`{}` is not UTF-8", path.display()))?;
        files.push(text.replace(std::path::MAIN_SEPARATOR, "/"));
    }
    Ok(files)
}

/// `path` with `.` and `..` resolved lexically.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Runs `astrix blast-radius`.
pub fn run(args: &BlastRadiusArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let analysis = analyze_selection(&args.change, ctx)?;
    warn_missing(&analysis, ctx)?;
    let style = ctx.stdout_style;
    let written = match args.format {
        BlastFormat::Json => write_json(ctx.stdout, &analysis.radius),
        BlastFormat::Text => write_blast_text(&analysis.radius, &analysis.graph, ctx.stdout, style),
        BlastFormat::Mermaid => write_mermaid(&analysis.radius, &analysis.graph, ctx.stdout),
    };
    ignore_broken_pipe(written)?;
    Ok(ExitStatus::Allowed)
}
