//! Shell commands an agent proposes, read for what would switch the gate off, and for the
//! commits they would make.
//!
//! This is best-effort by nature: a shell is a programming language, and a command can
//! build what it runs at run time (`$(echo Z2l0 | base64 -d)`, a script written first and
//! run next). The commit gate (the pre-commit and reference-transaction hooks) is the
//! guarantee; this reading only lets an agent learn early, as the answer to its tool call,
//! what the gate would refuse, and refuses the plain ways of turning the gate off.
//!
//! A command is cut into simple commands at the shell's control operators (`;`, `&`, `|`,
//! newlines, parentheses, backquotes and `$(`), outside quotes; each is split into words
//! with the `shlex` crate (POSIX quoting rules). Redirections (`>`, `>>`) become words of
//! their own, so that their targets are seen. Leading `NAME=value` assignments and
//! wrappers (`sudo`, `env`, `command`, `exec`, `nohup`, `time`, `timeout`, `xargs`, …) are
//! looked through, `sh -c`/`bash -c` and `eval` are read recursively, and `cd DIR` moves
//! the directory later relative paths are read from.

use std::path::{Path, PathBuf};

use super::protect::Protected;

/// What a shell command would do that astrix has a say in.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Why it is refused, when it would switch the gate off.
    pub denial: Option<String>,
    /// The directories `git commit` would run in, and whether it commits more than the
    /// staged change (`-a`, pathspecs).
    pub commits: Vec<(PathBuf, bool)>,
    /// The directories `git push` would run in, and what it would push.
    pub pushes: Vec<(PathBuf, Push)>,
}

/// What a `git push` names, before the repository's configuration resolves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Push {
    /// One branch (or the current one) to one remote (or the default one).
    Simple {
        /// The remote named, if any.
        remote: Option<String>,
        /// The source named (`HEAD`, a branch, a commit), if any.
        source: Option<String>,
        /// The destination named (`main`, `refs/heads/main`), if any.
        destination: Option<String>,
        /// `--force`, `-f`, `--force-with-lease`, `+refspec`.
        force: bool,
    },
    /// A form astrix does not judge at the tool call, and why.
    Unjudged(String),
}

/// How deep `sh -c` and `eval` are read.
const MAX_DEPTH: usize = 4;

/// Reads `command`, run in `cwd`, against what `protected` keeps.
pub fn analyse(command: &str, cwd: &Path, home: Option<&Path>, protected: &Protected) -> Analysis {
    let mut reader = Reader {
        cwd: cwd.to_path_buf(),
        home,
        protected,
        analysis: Analysis::default(),
    };
    reader.script(command, 0);
    reader.analysis
}

struct Reader<'a> {
    cwd: PathBuf,
    home: Option<&'a Path>,
    protected: &'a Protected,
    analysis: Analysis,
}

impl Reader<'_> {
    fn deny(&mut self, why: String) {
        if self.analysis.denial.is_none() {
            self.analysis.denial = Some(why);
        }
    }

    fn script(&mut self, script: &str, depth: usize) {
        if depth > MAX_DEPTH {
            self.deny("the command nests `sh -c` and `eval` too deeply to be read".to_owned());
            return;
        }
        for segment in segments(script) {
            if let Some(words) = shlex::split(&segment) {
                self.simple(&words, depth);
            } else {
                // Quotes that do not close: the shell would refuse it too, but read the raw
                // text for the plain ways of switching the gate off.
                let lower = segment.to_ascii_lowercase();
                if lower.contains("hookspath") || lower.contains("git_config") {
                    self.deny(format!(
                        "`{}` cannot be read (its quotes do not close) and names the hooks' configuration",
                        cut(&segment)
                    ));
                }
            }
            if self.analysis.denial.is_some() {
                return;
            }
        }
    }

    fn simple(&mut self, words: &[String], depth: usize) {
        let mut rest = words;
        // Assignments and wrappers before the program.
        loop {
            let Some(first) = rest.first() else {
                return;
            };
            if let Some(name) = assignment(first) {
                self.assigned(name);
                rest = &rest[1..];
                continue;
            }
            match program(first) {
                "sudo" | "doas" | "command" | "builtin" | "exec" | "nohup" | "time" | "then"
                | "do" | "else" | "elif" | "if" | "while" | "until" | "!" | "nice" | "stdbuf"
                | "ionice" | "xargs" | "env" | "setsid" => {
                    rest = &rest[1..];
                    // Their options (`env -i`, `sudo -u root`, `xargs -0`).
                    while let Some(option) = rest.first() {
                        if option.starts_with('-') && option.len() > 1 {
                            rest = &rest[1..];
                        } else {
                            break;
                        }
                    }
                }
                "timeout" => {
                    rest = &rest[1..];
                    while rest.first().is_some_and(|word| word.starts_with('-')) {
                        rest = &rest[1..];
                    }
                    // The duration.
                    rest = rest.get(1..).unwrap_or_default();
                }
                _ => break,
            }
        }
        let Some(first) = rest.first() else {
            return;
        };
        let args = &rest[1..];
        match program(first) {
            "export" | "declare" | "typeset" | "readonly" | "local" | "set" => {
                for arg in args {
                    if let Some(name) = assignment(arg) {
                        self.assigned(name);
                    } else if is_git_config_variable(arg) {
                        self.assigned(arg);
                    }
                }
            }
            "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "busybox" => {
                if let Some(at) = args.iter().position(|arg| {
                    arg.starts_with('-') && !arg.starts_with("--") && arg.contains('c')
                }) && let Some(script) = args.get(at + 1)
                {
                    self.script(script, depth + 1);
                }
            }
            "eval" => self.script(&args.join(" "), depth + 1),
            "cd" | "pushd" => {
                if let Some(dir) = args.iter().find(|arg| !arg.starts_with('-')) {
                    self.cwd = self.resolve(dir);
                }
            }
            "git" => self.git(args),
            "astrix" => self.astrix(args),
            _ => {}
        }
        self.paths(first, args);
    }

    fn assigned(&mut self, name: &str) {
        if is_git_config_variable(name) {
            self.deny(format!(
                "the command sets `{name}`, which hands git configuration to every git it starts (and can move `core.hooksPath` away from astrix's hooks)"
            ));
        }
    }

    fn git(&mut self, args: &[String]) {
        let mut dir = self.cwd.clone();
        let mut index = 0;
        // Settings given on git's command line, which a push's destination may come from.
        let mut overrides = false;
        while index < args.len() {
            let arg = args[index].as_str();
            let value = args.get(index + 1).map(String::as_str);
            match arg {
                "-C" => {
                    if let Some(value) = value {
                        dir = resolve_in(&dir, value, self.home);
                    }
                    index += 2;
                }
                "-c" | "--config-env" => {
                    if let Some(value) = value {
                        self.git_override(value);
                    }
                    overrides = true;
                    index += 2;
                }
                "--git-dir" | "--work-tree" | "--namespace" | "--exec-path" | "--super-prefix"
                | "--list-cmds" | "--attr-source" => index += 2,
                _ if arg.starts_with("--config-env=") => {
                    self.git_override(&arg["--config-env=".len()..]);
                    overrides = true;
                    index += 1;
                }
                _ if arg.starts_with('-') => index += 1,
                _ => break,
            }
        }
        let Some(subcommand) = args.get(index) else {
            return;
        };
        let rest = &args[index + 1..];
        match subcommand.as_str() {
            "config" => self.git_config(rest),
            "replace" => {
                let lists = rest.iter().all(|arg| {
                    matches!(arg.as_str(), "-l" | "--list") || arg.starts_with("--format")
                });
                if !lists {
                    self.deny(
                        "`git replace` makes git read other objects in place of commits, which the gate does not see; astrix refuses it for agents".to_owned(),
                    );
                }
            }
            "commit" => {
                let more = rest.iter().any(|arg| {
                    matches!(
                        arg.as_str(),
                        "-a" | "--all" | "-i" | "--include" | "-o" | "--only"
                    ) || (arg.starts_with('-') && !arg.starts_with("--") && arg[1..].contains('a'))
                }) || rest.iter().any(|arg| arg == "--");
                self.analysis.commits.push((dir, more));
            }
            "push" => {
                let push = if overrides {
                    Some(Push::Unjudged(
                        "`git -c … push` (settings on the command line can choose what is pushed, and where)"
                            .to_owned(),
                    ))
                } else {
                    push(rest)
                };
                if let Some(push) = push {
                    self.analysis.pushes.push((dir, push));
                }
            }
            _ => {}
        }
    }

    /// `git -c KEY=VALUE` or `--config-env=KEY=ENV`.
    fn git_override(&mut self, setting: &str) {
        let key = setting.split('=').next().unwrap_or(setting);
        if gate_key(key) {
            self.deny(format!(
                "`git -c {setting}` changes `{key}` for that git, so astrix's hooks would not run; astrix refuses it for agents"
            ));
        }
    }

    fn git_config(&mut self, args: &[String]) {
        const READS: &[&str] = &[
            "--get",
            "--get-all",
            "--get-regexp",
            "--get-urlmatch",
            "-l",
            "--list",
            "get",
            "list",
            "--show-origin",
            "--show-scope",
            "--name-only",
        ];
        let Some(key) = args
            .iter()
            .find(|arg| !arg.starts_with('-') && gate_key(arg))
        else {
            return;
        };
        let operands = args.iter().filter(|arg| !arg.starts_with('-')).count();
        let reads = args.iter().any(|arg| READS.contains(&arg.as_str()))
            || (operands == 1 && args.len() == 1);
        if !reads {
            self.deny(format!(
                "`git config {}` changes `{key}`, which decides whether astrix's hooks run; a human changes it from their own shell",
                args.join(" ")
            ));
        }
    }

    fn astrix(&mut self, args: &[String]) {
        // The first word that is neither an option nor the value of `-C`/`--color`.
        let mut words = args.iter();
        let mut subcommand = None;
        while let Some(word) = words.next() {
            if matches!(word.as_str(), "-C" | "--color") {
                words.next();
            } else if !word.starts_with('-') {
                subcommand = Some(word);
                break;
            }
        }
        let Some(subcommand) = subcommand else {
            return;
        };
        let force = args.iter().any(|arg| arg == "--force");
        match subcommand.as_str() {
            "uninstall" => self.deny(
                "`astrix uninstall` removes the gate; a human runs it from their own shell".to_owned(),
            ),
            "install" if force => self.deny(
                "`astrix install --force` replaces the hooks already there; a human runs it from their own shell".to_owned(),
            ),
            "approve" => self.deny(
                "`astrix approve` is a human's act; ask the user to run it from their own shell".to_owned(),
            ),
            _ => {}
        }
    }

    /// The paths a command names (its arguments and redirection targets), against what
    /// `protected` keeps.
    fn paths(&mut self, program_word: &str, args: &[String]) {
        let name = program(program_word);
        let writes_by_name = writer(name, args);
        let recursive_removal = matches!(name, "rm" | "rmdir" | "mv" | "shred")
            || (name == "find" && args.iter().any(|arg| arg == "-delete"));
        let mut redirect = false;
        for arg in args {
            if matches!(arg.as_str(), ">" | ">>" | ">|" | "&>" | "&>>") {
                redirect = true;
                continue;
            }
            let target = std::mem::take(&mut redirect);
            if arg.starts_with('-') && !target {
                continue;
            }
            if !(target || writes_by_name) {
                continue;
            }
            let path = self.resolve(arg);
            if let Some(what) = self.protected.protects(&path) {
                self.deny(format!(
                    "the command writes or removes `{arg}`, which is {what}; astrix refuses that to agents"
                ));
                return;
            }
            if recursive_removal && let Some(what) = self.protected.inside(&path) {
                self.deny(format!(
                    "the command removes or moves `{arg}`, which holds {what}; astrix refuses that to agents"
                ));
                return;
            }
        }
    }

    fn resolve(&self, word: &str) -> PathBuf {
        resolve_in(&self.cwd, word, self.home)
    }
}

/// Whether `name` (its basename) writes the files it names: anything but the readers that
/// only look, and `sed`/`perl` without `-i`, `find` without `-delete`/`-exec`.
fn writer(name: &str, args: &[String]) -> bool {
    const READERS: &[&str] = &[
        "cat",
        "less",
        "more",
        "head",
        "tail",
        "ls",
        "stat",
        "file",
        "wc",
        "grep",
        "egrep",
        "fgrep",
        "rg",
        "ag",
        "diff",
        "cmp",
        "readlink",
        "realpath",
        "test",
        "[",
        "echo",
        "printf",
        "sha1sum",
        "sha256sum",
        "md5sum",
        "od",
        "xxd",
        "hexdump",
        "strings",
        "jq",
        "bat",
        "tree",
        "du",
        "git",
        "cd",
        "pushd",
        "astrix",
        "true",
        "false",
        "which",
        "type",
        "basename",
        "dirname",
    ];
    match name {
        "sed" | "perl" => args.iter().any(|arg| {
            arg.starts_with("-i") || arg == "--in-place" || arg.starts_with("--in-place=")
        }),
        "find" => args.iter().any(|arg| {
            matches!(
                arg.as_str(),
                "-delete"
                    | "-exec"
                    | "-execdir"
                    | "-ok"
                    | "-okdir"
                    | "-fprint"
                    | "-fprint0"
                    | "-fprintf"
                    | "-fls"
            )
        }),
        _ => !READERS.contains(&name),
    }
}

/// What `git push ARGS` would push; `None` for a dry run, which pushes nothing.
fn push(args: &[String]) -> Option<Push> {
    let unjudged = |why: String| Some(Push::Unjudged(why));
    let mut force = false;
    let mut dry_run = false; // The last of `--dry-run` and `--no-dry-run` wins, as in git.
    let mut operands: Vec<&str> = Vec::new();
    let mut index = 0;
    let mut options_end = false;
    while index < args.len() {
        let arg = args[index].as_str();
        index += 1;
        if options_end || !arg.starts_with('-') || arg == "-" {
            operands.push(arg);
            continue;
        }
        match arg {
            "--" => options_end = true,
            "-n" | "--dry-run" => dry_run = true,
            "--no-dry-run" => dry_run = false,
            "-f" | "--force" | "--force-if-includes" => force = true,
            _ if arg.starts_with("--force-with-lease") => force = true,
            "-u"
            | "--set-upstream"
            | "-q"
            | "--quiet"
            | "-v"
            | "--verbose"
            | "--progress"
            | "--no-progress"
            | "--no-verify"
            | "--verify"
            | "--atomic"
            | "--no-atomic"
            | "--porcelain"
            | "--follow-tags"
            | "--no-follow-tags"
            | "--thin"
            | "--no-thin"
            | "--no-force-with-lease"
            | "--no-signed"
            | "--signed"
            | "-4"
            | "-6"
            | "--ipv4"
            | "--ipv6" => {}
            "-o" | "--push-option" | "--receive-pack" | "--exec" => index += 1,
            _ if arg.starts_with("--push-option=")
                || arg.starts_with("--signed=")
                || arg.starts_with("--receive-pack=")
                || arg.starts_with("--exec=")
                || arg.starts_with("--recurse-submodules=") => {}
            _ if arg.starts_with("--") => {
                return unjudged(format!("`git push {arg}`"));
            }
            _ => {
                // A cluster of short options: `-uf`.
                for flag in arg[1..].chars() {
                    match flag {
                        'f' => force = true,
                        'u' | 'q' | 'v' | '4' | '6' => {}
                        'n' => dry_run = true,
                        _ => return unjudged(format!("`git push {arg}`")),
                    }
                }
            }
        }
    }
    (!dry_run).then_some(())?; // A dry run pushes nothing.
    let (remote, refspec) = match operands.as_slice() {
        [] => (None, None),
        [remote] => (Some(*remote), None),
        [remote, refspec] => (Some(*remote), Some(*refspec)),
        _ => return unjudged("a `git push` of several refspecs".to_owned()),
    };
    let Some(refspec) = refspec else {
        return Some(Push::Simple {
            remote: remote.map(str::to_owned),
            source: None,
            destination: None,
            force,
        });
    };
    let (plus, refspec) = match refspec.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, refspec),
    };
    let (source, destination) = match refspec.split_once(':') {
        Some(("", _)) => return unjudged(format!("`git push` deleting `{refspec}`")),
        Some((source, destination)) => (source, Some(destination)),
        None => (refspec, None),
    };
    if source.contains('*') || source.starts_with("refs/tags/") || source.is_empty() {
        return unjudged(format!("`git push` of `{refspec}`"));
    }
    Some(Push::Simple {
        remote: remote.map(str::to_owned),
        source: Some(source.to_owned()),
        destination: destination
            .filter(|name| !name.is_empty())
            .map(str::to_owned),
        force: force || plus,
    })
}

/// Whether a configuration key decides whether astrix's hooks run: `core.hooksPath`, and the
/// includes that can set it from another file (keys are case-insensitive, as git reads them).
fn gate_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key == "core.hookspath"
        || key == "include.path"
        || (key.starts_with("includeif.") && key.rsplit('.').next() == Some("path"))
}

/// `GIT_CONFIG`, `GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>`, `GIT_CONFIG_PARAMETERS`, …
fn is_git_config_variable(name: &str) -> bool {
    name == "GIT_CONFIG" || name.starts_with("GIT_CONFIG_")
}

/// The name of a `NAME=value` word.
fn assignment(word: &str) -> Option<&str> {
    let (name, _) = word.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some(name)
}

/// A program word's basename (`/usr/bin/git` is `git`).
fn program(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// `word` as a path: `~` and `$HOME` expanded, relative to `cwd`.
fn resolve_in(cwd: &Path, word: &str, home: Option<&Path>) -> PathBuf {
    let expanded = home.and_then(|home| {
        ["~/", "$HOME/", "${HOME}/"]
            .iter()
            .find_map(|prefix| word.strip_prefix(prefix))
            .map(|rest| home.join(rest))
            .or_else(|| matches!(word, "~" | "$HOME" | "${HOME}").then(|| home.to_path_buf()))
    });
    let path = expanded.unwrap_or_else(|| PathBuf::from(word));
    if path.is_absolute() {
        path
    } else {
        cwd.join(path)
    }
}

/// `script` cut into simple commands at control operators outside quotes, with `$(…)` and
/// backquoted commands as commands of their own, and redirections spaced out into words.
fn segments(script: &str) -> Vec<String> {
    let mut segments = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut chars = script.chars().peekable();
    let cut = |current: &mut String, segments: &mut Vec<String>| {
        if !current.trim().is_empty() {
            segments.push(std::mem::take(current));
        }
        current.clear();
    };
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => {
                quote = None;
                current.push(c);
            }
            (Some('\''), _) => current.push(c),
            (_, '\\') => {
                current.push(c);
                if let Some(next) = chars.next() {
                    current.push(next);
                }
            }
            // A command substituted inside double quotes runs all the same.
            (Some('"'), '`' | ')') => cut(&mut current, &mut segments),
            (Some('"') | None, '$') if chars.peek() == Some(&'(') => {
                chars.next();
                cut(&mut current, &mut segments);
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                current.push(c);
            }
            (None, ';' | '&' | '|' | '\n' | '(' | ')' | '`' | '{' | '}') => {
                // `&>` and `>&` are redirections, not a control operator.
                if c == '&' && chars.peek() == Some(&'>') {
                    chars.next();
                    current.push_str(" &> ");
                    continue;
                }
                cut(&mut current, &mut segments);
            }
            (None, '>') => {
                if chars.peek() == Some(&'>') {
                    chars.next();
                    current.push_str(" >> ");
                } else if chars.peek() == Some(&'&') {
                    // `>&2`: a descriptor, not a file.
                    chars.next();
                    current.push_str(" >&");
                } else {
                    if chars.peek() == Some(&'|') {
                        chars.next();
                    }
                    current.push_str(" > ");
                }
            }
            (None, '<') => current.push_str(" < "),
            (None, '#') if current.is_empty() || current.ends_with(char::is_whitespace) => {
                // A comment, to the end of the line.
                for next in chars.by_ref() {
                    if next == '\n' {
                        break;
                    }
                }
                cut(&mut current, &mut segments);
            }
            _ => current.push(c),
        }
    }
    cut(&mut current, &mut segments);
    segments
}

/// `text` cut to 200 characters, for messages.
pub fn cut(text: &str) -> String {
    const MAX: usize = 200;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protected() -> Protected {
        Protected::for_tests(
            Path::new("/repo"),
            &[
                (Path::new("/repo/.git"), "git's own state"),
                (Path::new("/repo/.git/hooks"), "the hooks directory"),
                (
                    Path::new("/repo/.claude/settings.json"),
                    "Claude Code's settings",
                ),
                (
                    Path::new("/home/a/.claude/settings.json"),
                    "Claude Code's settings",
                ),
            ],
        )
    }

    fn denial(command: &str) -> Option<String> {
        analyse(
            command,
            Path::new("/repo"),
            Some(Path::new("/home/a")),
            &protected(),
        )
        .denial
    }

    #[test]
    fn the_plain_ways_of_switching_the_gate_off_are_refused() {
        for command in [
            "git config core.hooksPath /dev/null",
            "git config --local core.hookspath .nohooks",
            "git config --unset core.hooksPath",
            "git -c core.hooksPath=/dev/null commit -m x",
            "git --config-env=core.hooksPath=X commit",
            "git --config-env core.hooksPath=HOME commit -am x",
            "git config include.path ../evil.cfg",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/x git commit",
            "export GIT_CONFIG_PARAMETERS=\"'core.hooksPath'='/x'\"",
            "env GIT_CONFIG_GLOBAL=/tmp/x git commit",
            "rm .git/hooks/pre-commit",
            "rm -rf .git",
            "echo exit 0 > .git/hooks/pre-commit",
            "cat x >> /repo/.git/hooks/reference-transaction",
            "cd .git/hooks && rm pre-commit",
            "chmod -x .git/hooks/pre-commit",
            "sed -i s/astrix/true/ .git/hooks/pre-commit",
            "cp /dev/null .claude/settings.json",
            "ls && astrix uninstall",
            "astrix -C . uninstall --agent claude-code",
            "astrix install --force",
            "astrix approve --reason ok",
            "git replace HEAD other",
            "bash -c 'git config core.hooksPath /tmp'",
            "sh -c \"rm -f .git/hooks/pre-commit\"",
            "eval git config core.hooksPath /tmp",
            "echo $(git config core.hooksPath /tmp)",
            "sudo -u root rm .git/hooks/pre-commit",
            "rm -rf .",
            "find .git -name 'pre-*' -delete",
            "echo x>.git/hooks/pre-commit",
            "echo x 1>.git/hooks/pre-commit",
            "printf '[core]\\nhooksPath=/x' >> .git/config",
            "ln -sf /dev/null .git/hooks/pre-commit",
            "mv .git .git2",
            "tee .git/hooks/pre-commit < evil",
            "cat > .git/hooks/pre-commit <<EOF\nexit 0\nEOF",
            "/usr/local/bin/astrix uninstall",
            "bash -lc 'git config core.hooksPath /x'",
            "git config -f .git/config core.hooksPath /x",
            "git config --global core.hooksPath /x",
            "rm -rf .claude",
            "cp evil ~/.claude/settings.json",
            "python3 tool.py .git/hooks/pre-commit",
            "GIT_CONFIG=/tmp/x git commit -m y",
        ] {
            assert!(denial(command).is_some(), "{command}");
        }
    }

    #[test]
    fn ordinary_commands_pass() {
        for command in [
            "cargo test",
            "git status && git diff",
            "git config --get core.hooksPath",
            "git config core.hooksPath",
            "git config user.name 'Ada'",
            "cat .git/hooks/pre-commit",
            "ls -la .git/hooks",
            "grep -r astrix .claude/settings.json",
            "echo 'core.hooksPath is set by astrix' > notes.txt",
            "git replace --list",
            "rm -rf target",
            "astrix check",
            "echo hi >&2",
            "git log --oneline | head -5 # git config core.hooksPath x",
        ] {
            assert_eq!(denial(command), None, "{command}");
        }
    }

    #[test]
    fn commits_are_found_with_their_directory() {
        let analysis = analyse(
            "cargo fmt && git -C sub commit -am 'x'; git commit -m y",
            Path::new("/repo"),
            None,
            &protected(),
        );
        assert_eq!(
            analysis.commits,
            [
                (PathBuf::from("/repo/sub"), true),
                (PathBuf::from("/repo"), false)
            ]
        );
    }

    fn pushes(command: &str) -> Vec<(PathBuf, Push)> {
        analyse(command, Path::new("/repo"), None, &protected()).pushes
    }

    fn simple(
        remote: Option<&str>,
        source: Option<&str>,
        destination: Option<&str>,
        force: bool,
    ) -> Push {
        Push::Simple {
            remote: remote.map(str::to_owned),
            source: source.map(str::to_owned),
            destination: destination.map(str::to_owned),
            force,
        }
    }

    #[test]
    fn the_simple_forms_of_git_push_are_read() {
        for (command, push) in [
            ("git push", simple(None, None, None, false)),
            (
                "git push -u origin",
                simple(Some("origin"), None, None, false),
            ),
            (
                "git push --set-upstream origin feature",
                simple(Some("origin"), Some("feature"), None, false),
            ),
            (
                "git push origin HEAD:main",
                simple(Some("origin"), Some("HEAD"), Some("main"), false),
            ),
            (
                "git push origin HEAD:refs/heads/x",
                simple(Some("origin"), Some("HEAD"), Some("refs/heads/x"), false),
            ),
            (
                "git push -o ci.skip origin a:b",
                simple(Some("origin"), Some("a"), Some("b"), false),
            ),
            (
                "git push --force origin work",
                simple(Some("origin"), Some("work"), None, true),
            ),
            (
                "git push -uf origin",
                simple(Some("origin"), None, None, true),
            ),
            (
                "git push --force-with-lease=main:abc origin main",
                simple(Some("origin"), Some("main"), None, true),
            ),
            (
                "git push origin +work:work",
                simple(Some("origin"), Some("work"), Some("work"), true),
            ),
        ] {
            assert_eq!(
                pushes(command),
                [(PathBuf::from("/repo"), push)],
                "{command}"
            );
        }
        assert_eq!(
            pushes("git commit -m x && git -C sub push origin"),
            [(
                PathBuf::from("/repo/sub"),
                simple(Some("origin"), None, None, false)
            )]
        );
    }

    #[test]
    fn the_forms_of_git_push_not_judged_here_are_marked() {
        for command in [
            "git push --all",
            "git push --mirror origin",
            "git push --tags",
            "git push --delete origin old",
            "git push -d origin old",
            "git push origin :old",
            "git push origin a b",
            "git push origin 'refs/heads/*:refs/heads/*'",
            "git push origin refs/tags/v1",
            "git push --prune origin",
        ] {
            let found = pushes(command);
            assert!(
                matches!(found.as_slice(), [(_, Push::Unjudged(_))]),
                "{command}: {found:?}"
            );
        }
        // A dry run pushes nothing; other commands are not pushes.
        assert_eq!(pushes("git push -n origin main"), []);
        assert_eq!(pushes("git push --dry-run"), []);
        // The last of `--dry-run` and `--no-dry-run` wins; settings on git's command line
        // can choose the destination, so such a push is not judged here.
        assert!(matches!(
            pushes("git push --dry-run --no-dry-run origin HEAD:main").as_slice(),
            [(_, Push::Simple { .. })]
        ));
        for command in [
            "git -c remote.origin.push=HEAD:main push origin",
            "git --config-env push.default=X push",
        ] {
            assert!(
                matches!(pushes(command).as_slice(), [(_, Push::Unjudged(_))]),
                "{command}"
            );
        }
        assert_eq!(pushes("echo git push && git pull"), []);
    }

    #[test]
    fn unbalanced_quotes_that_name_the_hooks_are_refused() {
        assert!(denial("git config core.hooksPath 'x").is_some());
        assert_eq!(denial("echo 'unclosed"), None);
    }
}
