//! The command line itself: help, version, usage errors.

use crate::cmd_snapshot;
use crate::common::Sandbox;

#[test]
fn help_lists_every_command() {
    let sandbox = Sandbox::new();
    cmd_snapshot!(sandbox.path(), sandbox.astrix().arg("--help"));
}

#[test]
fn version_is_printed() {
    let sandbox = Sandbox::new();
    cmd_snapshot!(sandbox.path(), sandbox.astrix().arg("--version"));
}

#[test]
fn usage_error_exits_2() {
    let sandbox = Sandbox::new();
    let output = sandbox.astrix().arg("--no-such-flag").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn completions_are_generated_for_bash() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .astrix()
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let script = String::from_utf8(output.stdout).unwrap();
    assert!(script.contains("_astrix()"), "{script}");
    assert!(script.contains("evaluate"));
}

/// `-C DIR` runs astrix as if started there, as `git -C` does: the repository is found from
/// there, and relative paths of the command line are read from there. Covers issue 22.
#[test]
fn dash_c_runs_as_if_started_in_the_directory() {
    let sandbox = Sandbox::new();
    std::fs::create_dir(sandbox.path().join("repo")).unwrap();
    crate::common::isolated("git", &sandbox.path().join("repo"))
        .args(["init", "-q", "-b", "main"])
        .status()
        .unwrap();
    sandbox.write(
        "repo/intent.json",
        r#"{"actor":{"type":"human"},"target":{"env":"development"},"modified_files":["a.rs"],"diff":{"modifies_tests":"false"}}"#,
    );
    let output = sandbox
        .astrix()
        .args(["-C", "repo", "evaluate", "intent.json", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = sandbox
        .astrix()
        .args(["-C", "repo", "log"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("no decisions recorded in "), "{text}");
    assert!(text.contains("/repo/.git/astrix/audit.jsonl"), "{text}");
    let output = sandbox
        .astrix()
        .args(["-C", "nosuch", "log"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .starts_with("error: cannot run in `nosuch` (`-C`): "),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `--color` beside `NO_COLOR`: `auto` colours only a terminal and never with `NO_COLOR`;
/// `always` colours a pipe too, and wins over `NO_COLOR`; `never` never. Covers issue 22.
#[test]
fn color_is_chosen_by_the_flag_beside_no_color() {
    let sandbox = Sandbox::new();
    let intent = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/intents/deny.json");
    let coloured = |args: &[&str], no_color: bool| {
        let mut command = sandbox.astrix();
        command.args(args).args(["evaluate", intent]);
        if no_color {
            command.env("NO_COLOR", "1");
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(1));
        output.stdout.contains(&0x1b)
    };
    assert!(!coloured(&[], false), "auto, piped");
    assert!(coloured(&["--color", "always"], false));
    assert!(
        coloured(&["--color=always"], true),
        "always wins over NO_COLOR"
    );
    assert!(!coloured(&["--color", "never"], false));
    assert!(!coloured(&["--color", "auto"], true));
    let output = sandbox
        .astrix()
        .args(["--color", "sometimes", "log"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// `-q`: nothing but errors; the exit code is the answer. Not for `approve` or `mcp`.
/// Covers issue 22.
#[test]
fn quiet_prints_only_errors() {
    let sandbox = Sandbox::new();
    let intent = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/intents/deny.json");
    for args in [
        &["-q", "evaluate", intent][..],
        &["evaluate", "--quiet", intent],
    ] {
        let output = sandbox.astrix().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(1));
        assert!(
            output.stdout.is_empty() && output.stderr.is_empty(),
            "{args:?}"
        );
    }
    let output = sandbox
        .astrix()
        .args(["-q", "evaluate", "nosuch.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&output.stderr).starts_with("error: cannot read the intent file"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for command in ["approve", "mcp"] {
        let output = sandbox.astrix().args(["-q", command]).output().unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&output.stderr)
                .contains(&format!("`--quiet` does not apply to `astrix {command}`")),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The user docs (README.md and docs/) name every command and every flag that `--help`
/// lists, so that none is undocumented. Covers issue 22.
#[test]
fn every_command_and_flag_is_documented() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut docs = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    for entry in std::fs::read_dir(format!("{root}/docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "md") {
            docs.push_str(&std::fs::read_to_string(path).unwrap());
        }
    }
    let sandbox = Sandbox::new();
    let help = |args: &[&str]| {
        let output = sandbox.astrix().args(args).arg("--help").output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let flags = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|line| {
                let line = line.trim_start();
                let line = line
                    .strip_prefix('-')
                    .filter(|rest| rest.len() > 2 && rest.as_bytes()[1] == b',')
                    .map_or(line, |rest| rest[2..].trim_start());
                let flag = line.strip_prefix("--")?;
                let name: String = flag
                    .chars()
                    .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '-')
                    .collect();
                (!name.is_empty() && name != "help" && name != "version")
                    .then(|| format!("--{name}"))
            })
            .collect()
    };
    let top = help(&[]);
    let commands: Vec<String> = top
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .unwrap()
        .lines()
        .filter_map(|line| {
            let name = line.strip_prefix("  ")?;
            (!name.starts_with(' ')).then(|| name.split_whitespace().next())?
        })
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect();
    assert!(commands.len() >= 15, "{commands:?}");
    // The reading of `--help` finds what it shows.
    for (args, flag) in [
        (&[][..], "--color"),
        (&["ci"], "--base"),
        (&["log"], "--since"),
    ] {
        assert!(
            flags(&help(args)).contains(&flag.to_owned()),
            "{args:?} {flag}"
        );
    }
    let mut missing = Vec::new();
    for flag in flags(&top) {
        if !docs.contains(&flag) {
            missing.push(format!("astrix {flag}"));
        }
    }
    for command in &commands {
        if !docs.contains(&format!("astrix {command}")) {
            missing.push(format!("astrix {command}"));
        }
        for flag in flags(&help(&[command])) {
            if !docs.contains(&flag) {
                missing.push(format!("astrix {command} {flag}"));
            }
        }
    }
    assert!(missing.is_empty(), "undocumented: {missing:?}");
}
