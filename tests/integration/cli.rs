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
