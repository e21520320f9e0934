//! `astrix install` and `astrix uninstall`: the git hooks that run astrix.
//!
//! The hooks are the POSIX sh shims of the project's `hooks/` directory, with the absolute
//! path of the astrix binary that installs them filled in. They go where git runs hooks
//! from: `core.hooksPath` when the repository sets it, else `hooks/` in the common git
//! directory, which every linked worktree shares.
//!
//! A hook that is already there and is not astrix's is never lost. By default it is
//! *chained*: renamed to `<hook>.astrix-orig`, which the shim runs first. With `--force` it
//! is *replaced*: renamed to `<hook>.astrix-backup`, which nothing runs. `astrix uninstall`
//! removes the shims and renames either file back, so the hook returns byte for byte, with
//! its mode. Renames keep both, and never leave a moment without a hook in place.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::audit::{AuditEntry, AuditLog};
use crate::cli::{AgentChoice, InstallArgs, UninstallArgs};
use crate::context::Context;
use crate::env::{AGENT_MARKERS, resolve_actor};
use crate::exit::ExitStatus;
use crate::harness::{Harness, settings};
use crate::intent::HUMAN;

/// Suffix of a chained hook: the shim runs `<hook>.astrix-orig` first when it is executable.
pub const CHAINED_SUFFIX: &str = ".astrix-orig";
/// Suffix of a hook replaced with `--force`: nothing runs `<hook>.astrix-backup`.
pub const BACKUP_SUFFIX: &str = ".astrix-backup";
/// The start of the marker line that identifies astrix's shims (`# astrix-hook: <name>`).
pub const MARKER: &str = "# astrix-hook: ";
/// Where the shims receive the binary's path, as one shell-quoted word.
const PLACEHOLDER: &str = "@ASTRIX@";
/// A shim is written to `<hook>.astrix-new`, then renamed over the hook.
const TEMP_SUFFIX: &str = ".astrix-new";
/// The marker is among the first lines of a shim; a foreign hook that mentions it further
/// down stays foreign.
const MARKER_LINES: usize = 10;

/// The hooks astrix installs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hook {
    PreCommit,
    PrepareCommitMsg,
    CommitMsg,
    ReferenceTransaction,
}

impl Hook {
    /// In the order git runs them for a commit.
    const ALL: [Hook; 4] = [
        Hook::PreCommit,
        Hook::PrepareCommitMsg,
        Hook::CommitMsg,
        Hook::ReferenceTransaction,
    ];

    /// The file name git looks for.
    fn name(self) -> &'static str {
        match self {
            Hook::PreCommit => "pre-commit",
            Hook::PrepareCommitMsg => "prepare-commit-msg",
            Hook::CommitMsg => "commit-msg",
            Hook::ReferenceTransaction => "reference-transaction",
        }
    }

    /// The shim, with the placeholder for the binary's path.
    fn template(self) -> &'static str {
        match self {
            Hook::PreCommit => include_str!("../../hooks/pre-commit"),
            Hook::PrepareCommitMsg => include_str!("../../hooks/prepare-commit-msg"),
            Hook::CommitMsg => include_str!("../../hooks/commit-msg"),
            Hook::ReferenceTransaction => include_str!("../../hooks/reference-transaction"),
        }
    }

    /// What a failing chained hook blocks.
    fn blocks(self) -> &'static str {
        match self {
            Hook::PreCommit | Hook::PrepareCommitMsg | Hook::CommitMsg => "the commit",
            Hook::ReferenceTransaction => "the ref update",
        }
    }
}

/// A hook's file and the files kept beside it.
struct HookFiles {
    name: &'static str,
    hook: PathBuf,
    chained: PathBuf,
    backup: PathBuf,
    temp: PathBuf,
}

impl HookFiles {
    fn new(dir: &Path, hook: Hook) -> Self {
        let name = hook.name();
        let sibling = |suffix: &str| dir.join(format!("{name}{suffix}"));
        Self {
            name,
            hook: dir.join(name),
            chained: sibling(CHAINED_SUFFIX),
            backup: sibling(BACKUP_SUFFIX),
            temp: sibling(TEMP_SUFFIX),
        }
    }

    fn chained_name(&self) -> String {
        format!("{}{CHAINED_SUFFIX}", self.name)
    }

    fn backup_name(&self) -> String {
        format!("{}{BACKUP_SUFFIX}", self.name)
    }
}

/// What is at a hook's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Existing {
    Nothing,
    /// One of astrix's shims (a regular file with the marker).
    Astrix,
    /// Anything else: another tool's hook, a script of the user's, a symlink.
    Foreign,
}

/// Runs `astrix install`.
pub fn install(args: &InstallArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    if let Some(status) = install_agents_or_refuse(args, ctx)? {
        return Ok(status);
    }
    let layout = hooks_layout(&ctx.cwd)?;
    let manager = detect_manager(&layout);
    let dir = layout.dir.clone();
    fs_err::create_dir_all(&dir)?;
    let dir = tidy(dir);
    let exe = std::env::current_exe().context("cannot find the path of the astrix binary")?;
    writeln!(ctx.stdout, "hooks directory: {}", dir.display())?;
    if let Some((manager, evidence)) = &manager {
        let name = match manager {
            Manager::Husky => "husky",
            Manager::Lefthook => "lefthook",
        };
        writeln!(
            ctx.stdout,
            "{name} manages this repository's hooks ({evidence}): astrix does not write its \
             pre-commit, prepare-commit-msg and commit-msg hooks where {name} rewrites them; \
             {}",
            manager_setup(*manager)
        )?;
    }
    // With a hook manager, only the backstop: the manager runs the rest.
    let backstop_only = args.backstop || manager.is_some();
    for hook in Hook::ALL {
        let files = HookFiles::new(&dir, hook);
        if let Some(path) = tracked_hook(&layout, &files) {
            writeln!(
                ctx.stdout,
                "  {}: not changed: `{path}` is tracked by the repository (everyone who clones \
                 it shares it), so astrix does not write over it; add `astrix hook {}` to it \
                 instead",
                files.name, files.name
            )?;
            continue;
        }
        if manager.is_some() && hook != Hook::ReferenceTransaction {
            writeln!(
                ctx.stdout,
                "  {}: not installed: the hook manager runs it (see above)",
                files.name
            )?;
            continue;
        }
        if backstop_only && matches!(hook, Hook::PrepareCommitMsg | Hook::CommitMsg) {
            let note = if existing(&files.hook)? == Existing::Astrix {
                "left as it is (--backstop): astrix's, from an earlier install"
            } else {
                "not installed (--backstop): the `astrix-trailers` hook of astrix's \
                 .pre-commit-hooks.yaml (stage `commit-msg`) records agents' commits"
            };
            writeln!(ctx.stdout, "  {}: {note}", files.name)?;
            continue;
        }
        if backstop_only && hook == Hook::PreCommit {
            let note = if existing(&files.hook)? == Existing::Astrix {
                "left as it is (--backstop): astrix's, from an earlier install"
            } else {
                "not installed (--backstop): add the `astrix` hook of astrix's \
                 .pre-commit-hooks.yaml to your pre-commit or prek configuration"
            };
            writeln!(ctx.stdout, "  {}: {note}", files.name)?;
            continue;
        }
        let shim = render(hook.template(), &path_bytes(&exe));
        let note = install_hook(hook, &files, &shim, args.force)?;
        writeln!(ctx.stdout, "  {}: {note}", files.name)?;
    }
    writeln!(
        ctx.stdout,
        "the hooks run {}, or `astrix` on PATH when that file is gone",
        exe.display()
    )?;
    large_pack_note(&layout, ctx)?;
    if let Some(relative) = &layout.relative {
        let manager = manager.map_or("", |(manager, _)| match manager {
            Manager::Husky => ", and after husky installs its directory again",
            Manager::Lefthook => "",
        });
        writeln!(
            ctx.stdout,
            "note: `core.hooksPath` is relative (`{}`): git finds the hooks in each work tree's \
             own `{}`, so run `astrix install` again in each linked worktree{manager}",
            relative.display(),
            relative.display()
        )?;
        if !layout.tracked.is_empty() {
            writeln!(
                ctx.stdout,
                "note: `{}` also holds files the repository tracks; the hooks astrix wrote there are untracked files (`git status` lists them): leave them uncommitted, they name this machine's astrix",
                relative.display()
            )?;
        }
    }
    Ok(ExitStatus::Allowed)
}

/// From this many objects in one pack on, opening its index costs a hook more than
/// judging an ordinary commit does.
const LARGE_PACK_OBJECTS: u32 = 250_000;

/// A note on a large pack that no multi-pack-index covers (see
/// [`crate::git::largest_pack_without_multi_index`]), with what to do about it.
fn large_pack_note(layout: &Layout, ctx: &mut Context<'_>) -> anyhow::Result<()> {
    let Some(objects) = crate::git::largest_pack_without_multi_index(&layout.common_dir)
        .filter(|&objects| objects >= LARGE_PACK_OBJECTS)
    else {
        return Ok(());
    };
    writeln!(
        ctx.stdout,
        "note: the largest pack of this repository holds {objects} objects and no \
         multi-pack-index covers it: each hook that reads an object checks that pack's whole \
         index first (for a million objects, half of what judging a branch update costs); \
         `git multi-pack-index write` spares the hooks that work, and `git maintenance start` \
         keeps a multi-pack-index up to date"
    )?;
    Ok(())
}

/// The repository-relative path of `files`' hook when the repository tracks it.
fn tracked_hook(layout: &Layout, files: &HookFiles) -> Option<String> {
    let relative = layout.relative.as_deref()?;
    let path = lexical(&relative.join(files.name));
    let path = path.to_str()?;
    layout
        .tracked
        .iter()
        .any(|tracked| tracked == path)
        .then(|| path.to_owned())
}

/// Installs one shim and says what happened to what was there.
fn install_hook(hook: Hook, files: &HookFiles, shim: &[u8], force: bool) -> anyhow::Result<String> {
    let has_chained = present(&files.chained)?;
    let has_backup = present(&files.backup)?;
    match existing(&files.hook)? {
        Existing::Foreign => {
            // Whatever was kept from an earlier install must not be overwritten.
            for kept in [&files.chained, &files.backup] {
                if present(kept)? {
                    bail!(
                        "cannot keep the existing {} hook: `{}` is already there, from an \
                         earlier install; move one of them away and run `astrix install` again",
                        files.name,
                        kept.display()
                    );
                }
            }
            let executable = is_executable(&files.hook);
            let keep = if force { &files.backup } else { &files.chained };
            write_file(&files.temp, shim)?;
            fs_err::rename(&files.hook, keep)?;
            fs_err::rename(&files.temp, &files.hook)?;
            Ok(if force {
                format!(
                    "installed; the existing hook is replaced (--force) and kept as {}, \
                     which `astrix uninstall` puts back",
                    files.backup_name()
                )
            } else if executable {
                format!(
                    "installed; the existing hook is chained: kept as {}, it runs first and \
                     its failure blocks {}",
                    files.chained_name(),
                    hook.blocks()
                )
            } else {
                format!(
                    "installed; the existing hook is chained as {}, but it is not \
                     executable: git did not run it, and the shim does not either",
                    files.chained_name()
                )
            })
        }
        state => {
            if has_chained && force && has_backup {
                bail!(
                    "cannot stop chaining `{}`: `{}` is already there; move one of them away \
                     and run `astrix install --force` again",
                    files.chained.display(),
                    files.backup.display()
                );
            }
            write_file(&files.temp, shim)?;
            let mut note = if state == Existing::Astrix {
                "updated (it was already installed)".to_owned()
            } else {
                "installed".to_owned()
            };
            if has_chained && force {
                fs_err::rename(&files.chained, &files.backup)?;
                note.push_str(&format!(
                    "; the chained hook no longer runs (--force): kept as {}",
                    files.backup_name()
                ));
            } else if has_chained {
                note.push_str(&format!(
                    "; it chains {}, which runs first",
                    files.chained_name()
                ));
            } else if has_backup {
                note.push_str(&format!(
                    "; the hook it replaced is kept as {}",
                    files.backup_name()
                ));
            }
            fs_err::rename(&files.temp, &files.hook)?;
            Ok(note)
        }
    }
}

/// Runs `astrix uninstall`.
pub fn uninstall(args: &UninstallArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let (command, what) = match args.agent {
        Some(_) => (
            "uninstall --agent",
            "it takes astrix's hook out of the agent's settings",
        ),
        None => ("uninstall", "it removes the gate"),
    };
    refuse_agents(ctx, command, what)?;
    if let Some(agent) = args.agent {
        return uninstall_agents(agent, ctx);
    }
    let dir = tidy(hooks_dir(&ctx.cwd)?);
    writeln!(ctx.stdout, "hooks directory: {}", dir.display())?;
    let mut changed = false;
    for hook in Hook::ALL {
        let files = HookFiles::new(&dir, hook);
        if let Some((note, changed_this)) = uninstall_hook(&files)? {
            changed |= changed_this;
            writeln!(ctx.stdout, "  {}: {note}", files.name)?;
        }
    }
    if !changed {
        writeln!(
            ctx.stdout,
            "nothing to uninstall: no astrix hook is installed here"
        )?;
    }
    Ok(ExitStatus::Allowed)
}

/// The harnesses `--agent` names.
fn harnesses(agent: AgentChoice) -> Vec<Harness> {
    match agent {
        AgentChoice::ClaudeCode => vec![Harness::ClaudeCode],
        AgentChoice::Codex => vec![Harness::Codex],
        AgentChoice::GeminiCli => vec![Harness::GeminiCli],
        AgentChoice::CopilotCli => vec![Harness::CopilotCli],
        AgentChoice::Cursor => vec![Harness::Cursor],
        AgentChoice::All => Harness::ALL.to_vec(),
    }
}

/// The work tree's root and astrix's state directory of the repository at `cwd`.
fn agent_dirs(ctx: &Context<'_>) -> anyhow::Result<(PathBuf, PathBuf)> {
    let repo = crate::git::Repository::open(&ctx.cwd, &ctx.env)?;
    let work_dir = repo
        .work_dir()
        .map(|dir| ctx.cwd.join(dir))
        .context("an agent's project settings live in a work tree, and this repository has none (it is bare)")?;
    Ok((tidy(work_dir), crate::gate::astrix_dir(&repo)))
}

/// `--force` refused to an agent; `--agent` installed instead of the git hooks.
fn install_agents_or_refuse(
    args: &InstallArgs,
    ctx: &mut Context<'_>,
) -> anyhow::Result<Option<ExitStatus>> {
    if args.force {
        refuse_agents(
            ctx,
            "install --force",
            "it replaces the hooks already there",
        )?;
    }
    args.agent
        .map(|agent| install_agents(agent, ctx))
        .transpose()
}

/// `astrix install --agent`.
fn install_agents(agent: AgentChoice, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let (work_dir, astrix_dir) = agent_dirs(ctx)?;
    let exe = std::env::current_exe().context("cannot find the path of the astrix binary")?;
    for harness in harnesses(agent) {
        let note = settings::install(harness, &work_dir, &astrix_dir, &exe)?;
        writeln!(ctx.stdout, "{}: {note}", harness.name())?;
        writeln!(ctx.stdout, "  note: {}", harness.activation_note())?;
    }
    writeln!(
        ctx.stdout,
        "the hook runs {}, or `astrix` on PATH when that file is gone; if neither runs, every tool call it matches is blocked",
        exe.display()
    )?;
    if backstop_missing(&ctx.cwd).is_some() {
        writeln!(
            ctx.stdout,
            "note: astrix's git hooks are not installed here: the tool-call hook is an early answer, the commit gate is the guarantee; run `astrix install`"
        )?;
    }
    Ok(ExitStatus::Allowed)
}

/// `astrix uninstall --agent`.
fn uninstall_agents(agent: AgentChoice, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let (work_dir, astrix_dir) = agent_dirs(ctx)?;
    for harness in harnesses(agent) {
        let note = settings::uninstall(harness, &work_dir, &astrix_dir)?;
        writeln!(ctx.stdout, "{}: {note}", harness.name())?;
    }
    Ok(ExitStatus::Allowed)
}

/// Commands that loosen the gate are a person's: refused when an agent marker is in the
/// environment (the built-in ones, the policy's `[actors] agent_env`, `ASTRIX_ACTOR_TYPE`),
/// and the refusal is written to the audit log.
fn refuse_agents(ctx: &mut Context<'_>, command: &str, what: &str) -> anyhow::Result<()> {
    let builtin = AGENT_MARKERS
        .iter()
        .find(|(name, _)| ctx.env.is_set_non_empty(name))
        .map(|(name, agent)| (format!("`{name}` is set ({agent})"), (*agent).to_owned()));
    let repo = crate::commands::find_work_tree(&ctx.cwd)
        .and_then(|_| crate::git::Repository::open(&ctx.cwd, &ctx.env).ok());
    let judged = || {
        let repo = repo.as_ref()?;
        let head = repo.head().ok()?;
        let policy = crate::gate::source::for_repository(repo, &head).ok()?;
        let actor = resolve_actor(&ctx.env, &policy.loaded.policy.actors.agent_env);
        (actor.kind != HUMAN).then(|| {
            (
                format!(
                    "the policy takes this actor for `{}` ({})",
                    actor.kind, actor.decided_by
                ),
                actor.id.unwrap_or(actor.kind),
            )
        })
    };
    let Some((why, agent)) = builtin.or_else(judged) else {
        return Ok(());
    };
    let reason = format!(
        "`astrix {command}` refuses to run for an agent ({why}): {what}; a human runs it from their own shell"
    );
    if let Some(repo) = &repo {
        let branch = repo.head().ok().and_then(|head| match head {
            crate::git::Head::Branch { name, .. } => Some(name),
            _ => None,
        });
        AuditLog::new(&crate::gate::astrix_dir(repo))
            .append(&AuditEntry {
                time: crate::time::rfc3339(crate::time::now_unix()),
                hook: command.split(' ').next().unwrap_or(command).to_owned(),
                actor: crate::intent::AUTONOMOUS_LLM.to_owned(),
                actor_id: Some(agent),
                actor_source: why.clone(),
                target: String::new(),
                branch,
                files: 0,
                decision: crate::policy::Verdict::Deny.name().to_owned(),
                allowed: false,
                rules: vec!["agent-loosens-gate".to_owned()],
                reason: reason.clone(),
                approval: None,
                policy_digest: None,
                commit: None,
                tool_call: None,
            })
            .context("the refusal cannot be recorded in the audit log")?;
    }
    bail!("{reason}")
}

/// Removes one shim and puts back what it chained or replaced. Returns what happened and
/// whether anything changed, or `None` when there was nothing to say.
fn uninstall_hook(files: &HookFiles) -> anyhow::Result<Option<(String, bool)>> {
    let has_chained = present(&files.chained)?;
    let has_backup = present(&files.backup)?;
    let state = existing(&files.hook)?;
    if state == Existing::Foreign {
        let mut note = "left alone: it is not astrix's hook".to_owned();
        for (kept, name) in [
            (has_chained, files.chained_name()),
            (has_backup, files.backup_name()),
        ] {
            if kept {
                note.push_str(&format!("; {name} is left in place too"));
            }
        }
        return Ok(Some((note, false)));
    }
    // A rename over the shim removes it and puts the kept hook back in one step.
    let mut note = if state == Existing::Astrix {
        "removed".to_owned()
    } else if has_chained || has_backup {
        "astrix's hook was already gone".to_owned()
    } else {
        return Ok(None);
    };
    if has_chained {
        fs_err::rename(&files.chained, &files.hook)?;
        note.push_str(&format!(
            "; put back the hook it chained (from {})",
            files.chained_name()
        ));
        if has_backup {
            note.push_str(&format!("; {} is left in place", files.backup_name()));
        }
    } else if has_backup {
        fs_err::rename(&files.backup, &files.hook)?;
        note.push_str(&format!(
            "; put back the hook it replaced (from {})",
            files.backup_name()
        ));
    } else {
        fs_err::remove_file(&files.hook)?;
    }
    Ok(Some((note, true)))
}

/// The directory git runs this repository's hooks from.
///
/// This is the one function here that uses gix; it belongs to the git boundary (`src/git/`)
/// and is to move there.
///
/// `core.hooksPath` is honoured when the repository's own configuration (or an override on
/// the command line or in the environment) sets it: a relative value is relative to the
/// root of the work tree (the git directory in a bare repository), `~/` is expanded. A value
/// from the global or system configuration is refused: git runs every repository's hooks
/// from there, and astrix installs for one repository. Without it, the hooks go into the
/// common git directory, so that they apply in every linked worktree.
pub(crate) fn hooks_dir(cwd: &Path) -> anyhow::Result<PathBuf> {
    Ok(hooks_layout(cwd)?.dir)
}

/// Where the hooks go, and what decides how they may be written there.
struct Layout {
    /// The directory git runs the hooks from.
    dir: PathBuf,
    /// The repository's common git directory.
    common_dir: PathBuf,
    /// The work tree's root, when there is one.
    work_dir: Option<PathBuf>,
    /// `core.hooksPath` when it is set to a relative path: git resolves it in each work tree.
    relative: Option<PathBuf>,
    /// The repository-relative paths of the files the index tracks under `dir`, when `dir`
    /// is inside the work tree.
    tracked: Vec<String>,
}

/// [`hooks_dir`], with the work tree, a relative `core.hooksPath` and what is tracked there.
fn hooks_layout(cwd: &Path) -> anyhow::Result<Layout> {
    use gix::config::source::Kind;

    const KEY: &str = "core.hooksPath";
    let repo = gix::discover(cwd)
        .with_context(|| format!("`{}` is not inside a git repository", cwd.display()))?;
    let work_dir = repo.workdir().map(|dir| cwd.join(dir));
    let config = repo.config_snapshot();
    let Some(configured) = config
        .trusted_path(KEY)
        .with_context(|| format!("cannot read `{KEY}`"))?
    else {
        return Ok(Layout {
            dir: cwd.join(repo.common_dir()).join("hooks"),
            common_dir: cwd.join(repo.common_dir()),
            work_dir,
            relative: None,
            tracked: Vec::new(),
        });
    };
    let repository_scoped = config
        .plumbing()
        .string_filter(KEY, |meta| {
            matches!(meta.source.kind(), Kind::Repository | Kind::Override)
        })
        .is_some();
    if !repository_scoped {
        bail!(
            "`{KEY}` is set to `{}` outside this repository (global or system git \
             configuration), so git runs the hooks of every repository from there; set it for \
             this repository (`git config --local {KEY} .git/hooks`) and run `astrix install` \
             again",
            configured.display()
        );
    }
    if configured.as_os_str().is_empty() {
        bail!("`{KEY}` is set but empty; set it to a directory, or unset it");
    }
    let base = repo.workdir().unwrap_or_else(|| repo.git_dir());
    let dir = cwd.join(base).join(&configured);
    let relative = configured.is_relative().then(|| configured.clone());
    // A hooks directory inside the work tree may hold files of the repository (husky's
    // `.husky/pre-commit`): those are the project's, not this machine's, and stay as they are.
    let mut tracked = Vec::new();
    if let (Some(root), Some(prefix)) = (&work_dir, relative.as_deref()) {
        let prefix = lexical(prefix);
        if let Some(prefix) = prefix.to_str()
            && !prefix.is_empty()
            && !root.as_os_str().is_empty()
        {
            let index = repo
                .index_or_empty()
                .context("cannot read the index, to see which hooks the repository tracks")?;
            let prefix = format!("{}/", prefix.trim_end_matches('/'));
            for entry in index.entries() {
                let path = entry.path(&index).to_string();
                if path.starts_with(&prefix) {
                    tracked.push(path);
                }
            }
        }
    }
    Ok(Layout {
        dir,
        common_dir: cwd.join(repo.common_dir()),
        work_dir,
        relative,
        tracked,
    })
}

/// `path` with `.` segments dropped and `..` applied (a relative `core.hooksPath` as the
/// index spells paths).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A hook manager that owns the hooks astrix would write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Manager {
    /// husky: `core.hooksPath` is its directory (`.husky/_`, or `.husky` before v9), which it
    /// rewrites when it installs.
    Husky,
    /// lefthook: a `lefthook.yml` (or its other names) at the root, and hooks it writes over
    /// whatever is there when it installs.
    Lefthook,
}

/// The names lefthook reads its configuration from, at the root of the work tree.
const LEFTHOOK_FILES: &[&str] = &[
    "lefthook.yml",
    ".lefthook.yml",
    "lefthook.yaml",
    ".lefthook.yaml",
    "lefthook.toml",
    ".lefthook.toml",
    "lefthook.json",
    ".lefthook.json",
    "lefthook.jsonc",
    ".lefthook.jsonc",
];

/// The hook manager of this repository, and what shows it.
fn detect_manager(layout: &Layout) -> Option<(Manager, String)> {
    if let Some(relative) = &layout.relative
        && lexical(relative)
            .components()
            .next()
            .is_some_and(|first| first.as_os_str() == ".husky")
    {
        return Some((
            Manager::Husky,
            format!("`core.hooksPath` is `{}`", relative.display()),
        ));
    }
    let root = layout.work_dir.as_deref()?;
    if let Some(file) = LEFTHOOK_FILES.iter().find(|name| root.join(name).is_file()) {
        return Some((Manager::Lefthook, format!("`{file}` is at the root")));
    }
    None
}

/// What to add to the manager's own configuration so that it runs astrix's gate and
/// trailer hooks, one line of text each.
fn manager_setup(manager: Manager) -> &'static str {
    match manager {
        Manager::Husky => {
            "add astrix to husky's own hook scripts, which the repository tracks:\n\
             \x20     .husky/pre-commit           astrix hook pre-commit\n\
             \x20     .husky/prepare-commit-msg   astrix hook prepare-commit-msg \"$@\"\n\
             \x20     .husky/commit-msg           astrix hook commit-msg \"$1\""
        }
        Manager::Lefthook => {
            "add astrix to lefthook's configuration, then run `lefthook install`:\n\
             \x20     pre-commit:\n\
             \x20       commands:\n\
             \x20         astrix:\n\
             \x20           run: astrix hook pre-commit\n\
             \x20     prepare-commit-msg:\n\
             \x20       commands:\n\
             \x20         astrix:\n\
             \x20           run: astrix hook prepare-commit-msg {0}\n\
             \x20     commit-msg:\n\
             \x20       commands:\n\
             \x20         astrix:\n\
             \x20           run: astrix hook commit-msg {1}"
        }
    }
}

/// The directory of the hooks when astrix's backstop is not installed there: the gate warns
/// that `git commit --no-verify` then skips astrix. `None` when it is, or when the hooks
/// directory cannot be worked out (the gate says nothing it cannot stand behind).
pub fn backstop_missing(cwd: &Path) -> Option<PathBuf> {
    let dir = hooks_dir(cwd).ok()?;
    let hook = dir.join(Hook::ReferenceTransaction.name());
    match existing(&hook) {
        Ok(Existing::Astrix) | Err(_) => None,
        Ok(_) => Some(dir),
    }
}

/// The canonical spelling of `dir` when it exists (no `..` from a worktree's `commondir`).
fn tidy(dir: PathBuf) -> PathBuf {
    dir.canonicalize().unwrap_or(dir)
}

/// What is at `path`, without following a symlink.
fn existing(path: &Path) -> anyhow::Result<Existing> {
    let meta = match fs_err::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Existing::Nothing),
        Err(error) => return Err(error.into()),
    };
    if meta.is_dir() {
        bail!(
            "`{}` is a directory, not a hook; move it away and run the command again",
            path.display()
        );
    }
    if meta.is_file() && is_astrix_shim(&fs_err::read(path)?) {
        Ok(Existing::Astrix)
    } else {
        Ok(Existing::Foreign)
    }
}

/// Whether `text` is one of astrix's shims.
fn is_astrix_shim(text: &[u8]) -> bool {
    text.split(|byte| *byte == b'\n')
        .take(MARKER_LINES)
        .any(|line| line.starts_with(MARKER.as_bytes()))
}

/// Whether anything (a dangling symlink too) is at `path`.
fn present(path: &Path) -> io::Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(error),
    }
}

/// Fills the binary's path into a shim, as one single-quoted shell word.
fn render(template: &str, exe: &[u8]) -> Vec<u8> {
    let mut quoted = vec![b'\''];
    for &byte in exe {
        if byte == b'\'' {
            // Close the quote, add an escaped quote, reopen: `'it'\''s'`.
            quoted.extend_from_slice(b"'\\''");
        } else {
            quoted.push(byte);
        }
    }
    quoted.push(b'\'');
    let mut parts = template.split(PLACEHOLDER);
    let mut out = parts.next().unwrap_or_default().as_bytes().to_vec();
    for part in parts {
        out.extend_from_slice(&quoted);
        out.extend_from_slice(part.as_bytes());
    }
    out
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Vec<u8> {
    path.to_string_lossy().replace('\\', "/").into_bytes()
}

/// Writes an executable file (0o755, whatever the umask).
fn write_file(path: &Path, contents: &[u8]) -> io::Result<()> {
    fs_err::write(path, contents)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs_err::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// Whether git would run the hook at `path` (following a symlink).
fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path)
            .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shim_has_one_placeholder_and_its_marker() {
        for hook in Hook::ALL {
            let template = hook.template();
            assert_eq!(template.matches(PLACEHOLDER).count(), 1, "{}", hook.name());
            assert!(template.starts_with("#!/bin/sh\n"));
            assert!(template.contains(&format!("\n{MARKER}{}\n", hook.name())));
            assert!(template.contains("\n# astrix-hook-version: 1\n"));
            assert!(is_astrix_shim(template.as_bytes()));
        }
    }

    macro_rules! quoted {
        ($name:ident, $path:expr, $expected:expr) => {
            #[test]
            fn $name() {
                let shim = render("x=@ASTRIX@\n", $path.as_bytes());
                assert_eq!(
                    String::from_utf8(shim).unwrap(),
                    concat!("x=", $expected, "\n")
                );
            }
        };
    }

    quoted!(plain_path, "/usr/bin/astrix", "'/usr/bin/astrix'");
    quoted!(spaces, "/opt/my tools/astrix", "'/opt/my tools/astrix'");
    quoted!(
        single_quote,
        "/home/o'brien/astrix",
        r"'/home/o'\''brien/astrix'"
    );
    quoted!(
        shell_syntax,
        "/a/$(rm -rf x)`y`\"z\"/astrix",
        "'/a/$(rm -rf x)`y`\"z\"/astrix'"
    );

    #[test]
    fn foreign_hooks_are_not_shims() {
        assert!(!is_astrix_shim(b"#!/bin/sh\nexit 0\n"));
        let late = format!(
            "#!/bin/sh\n{}{MARKER}pre-commit\n",
            "\n".repeat(MARKER_LINES)
        );
        assert!(!is_astrix_shim(late.as_bytes()));
    }
}
