//! What an agent's tool call may not write, whatever the policy says: the state that decides
//! whether the gate runs and what it remembers.
//!
//! The invariant: no file-writing tool call, and no shell command astrix can read, writes
//! or removes a path at or under
//! - the repository's git directory and its common git directory (a linked worktree's
//!   `.git` file points at the first, which lives in the second), and a work tree's `.git`;
//! - the directory git runs hooks from (`core.hooksPath`, else `hooks/` of the common git
//!   directory), wherever it is, inside the work tree too;
//! - astrix's own state (`astrix/` in the common git directory: approvals, the audit log);
//! - the harnesses' settings files, where the tool-call hook itself is configured: the
//!   project's `.claude/settings.json`, `.claude/settings.local.json`, `.codex/hooks.json`,
//!   `.codex/config.toml`, `.gemini/settings.json`, `.gemini/trustedFolders.json`, the
//!   Copilot CLI's `.github/hooks/` and `.github/copilot/settings{,.local}.json`
//!   (`~/.copilot/hooks/`, `config.json` and `settings.json` in the home), Cursor's
//!   `.cursor/hooks.json` and `.cursor/hooks/`, and the same files in the user's home.
//!
//! Paths are compared after `.` and `..` are resolved and the longest existing part of the
//! path is resolved through its symbolic links, so that a link inside the work tree that
//! points into `.git/hooks` is seen for where it writes.

use std::path::{Component, Path, PathBuf};

/// The paths kept from agents, each with what it is.
#[derive(Debug, Clone, Default)]
pub struct Protected {
    roots: Vec<(PathBuf, String)>,
}

/// The harnesses' settings files, relative to a project's root and to the home directory.
pub const SETTINGS_FILES: &[(&str, &str)] = &[
    (
        ".claude/settings.json",
        "Claude Code's settings, where astrix's hook is configured",
    ),
    (
        ".claude/settings.local.json",
        "Claude Code's local settings, where hooks are configured",
    ),
    (
        ".codex/hooks.json",
        "Codex's hooks file, where astrix's hook is configured",
    ),
    (
        ".codex/config.toml",
        "Codex's configuration, where hooks are configured and trusted",
    ),
    (
        ".gemini/settings.json",
        "Gemini CLI's settings, where astrix's hook is configured",
    ),
    (
        ".gemini/trustedFolders.json",
        "Gemini CLI's trusted folders, which decide whether a project's hooks run",
    ),
    (
        ".github/hooks",
        "the Copilot CLI's hooks directory, where astrix's hook is configured",
    ),
    (
        ".github/copilot/settings.json",
        "the Copilot CLI's repository settings, where hooks are configured",
    ),
    (
        ".github/copilot/settings.local.json",
        "the Copilot CLI's local repository settings, where hooks are configured",
    ),
    (".copilot/hooks", "the Copilot CLI's user hooks directory"),
    (
        ".copilot/config.json",
        "the Copilot CLI's user configuration",
    ),
    (
        ".copilot/settings.json",
        "the Copilot CLI's user settings, where hooks are configured",
    ),
    (
        ".cursor/hooks.json",
        "Cursor's hooks file, where astrix's hook is configured",
    ),
    (".cursor/hooks", "the directory of Cursor's hook scripts"),
];

impl Protected {
    /// The protected paths of a repository (`git_dirs`: its git directory and common git
    /// directory; `hooks`: where git runs hooks from; `astrix`: astrix's state directory),
    /// of its work tree, and of the user's home.
    pub fn new(
        work_dir: Option<&Path>,
        git_dirs: &[&Path],
        hooks: Option<&Path>,
        astrix: Option<&Path>,
        home: Option<&Path>,
    ) -> Self {
        let mut protected = Self::default();
        if let Some(hooks) = hooks {
            protected.add(hooks, "the directory git runs astrix's hooks from");
        }
        if let Some(astrix) = astrix {
            protected.add(astrix, "astrix's own state (approvals, the audit log)");
        }
        for dir in git_dirs {
            protected.add(dir, "git's own state (the repository's git directory)");
        }
        for base in [work_dir, home].into_iter().flatten() {
            for (relative, what) in SETTINGS_FILES {
                protected.add(&base.join(relative), what);
            }
        }
        if let Some(work_dir) = work_dir {
            protected.add(
                &work_dir.join(".git"),
                "git's own state (the work tree's `.git`)",
            );
        }
        protected
    }

    /// For tests: exactly these paths.
    #[cfg(test)]
    pub fn for_tests(_work_dir: &Path, roots: &[(&Path, &str)]) -> Self {
        let mut protected = Self::default();
        for (path, what) in roots {
            protected.add(path, what);
        }
        protected
    }

    fn add(&mut self, path: &Path, what: &str) {
        let lexical = normalise(path);
        let real = real_path(&lexical);
        if real != lexical {
            self.roots.push((real, what.to_owned()));
        }
        self.roots.push((lexical, what.to_owned()));
    }

    /// What `path` (absolute) is, when it is a protected path or under one.
    pub fn protects(&self, path: &Path) -> Option<&str> {
        let forms = forms(path);
        // The most specific root first: the hooks directory inside `.git` is named as such.
        self.roots
            .iter()
            .filter(|(root, _)| forms.iter().any(|form| form.starts_with(root)))
            .max_by_key(|(root, _)| root.components().count())
            .map(|(_, what)| what.as_str())
    }

    /// What protected path `path` (absolute) holds, when removing or moving it would take
    /// one along (`rm -rf .` in the work tree takes `.git`).
    pub fn inside(&self, path: &Path) -> Option<&str> {
        let forms = forms(path);
        self.roots
            .iter()
            .find(|(root, _)| forms.iter().any(|form| root.starts_with(form)))
            .map(|(_, what)| what.as_str())
    }
}

/// `path` as written (normalised) and as it resolves through links.
fn forms(path: &Path) -> Vec<PathBuf> {
    let lexical = normalise(path);
    let real = real_path(&lexical);
    if real == lexical {
        vec![lexical]
    } else {
        vec![lexical, real]
    }
}

/// `path` with `.` and `..` resolved without looking at the file system.
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `path` with its longest existing part resolved through symbolic links (a link at the end
/// too), and the rest appended as it is.
pub fn real_path(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (
            existing.file_name().map(ToOwned::to_owned),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_a_root_are_protected_and_the_deepest_root_names_them() {
        let protected = Protected::for_tests(
            Path::new("/r"),
            &[
                (Path::new("/r/.git"), "git"),
                (Path::new("/r/.git/hooks"), "hooks"),
            ],
        );
        assert_eq!(
            protected.protects(Path::new("/r/.git/hooks/pre-commit")),
            Some("hooks")
        );
        assert_eq!(protected.protects(Path::new("/r/.git/config")), Some("git"));
        assert_eq!(
            protected.protects(Path::new("/r/src/../.git/x")),
            Some("git")
        );
        assert_eq!(protected.protects(Path::new("/r/.github/x")), None);
        assert_eq!(protected.inside(Path::new("/r/.")), Some("git"));
        assert_eq!(protected.inside(Path::new("/r/src")), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_seen_for_where_it_writes() {
        let dir = tempfile::tempdir().unwrap();
        let hooks = dir.path().join("repo/.git/hooks");
        std::fs::create_dir_all(&hooks).unwrap();
        std::os::unix::fs::symlink(&hooks, dir.path().join("repo/innocent")).unwrap();
        let protected = Protected::new(
            Some(&dir.path().join("repo")),
            &[&dir.path().join("repo/.git")],
            Some(&hooks),
            None,
            None,
        );
        assert_eq!(
            protected.protects(&dir.path().join("repo/innocent/pre-commit")),
            Some("the directory git runs astrix's hooks from")
        );
        assert_eq!(
            protected.protects(&dir.path().join("repo/src/main.rs")),
            None
        );
        assert!(
            protected
                .protects(&dir.path().join("repo/.claude/settings.json"))
                .is_some()
        );
    }
}
