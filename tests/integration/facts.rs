//! Facts nobody can lower: what an agent configures (`git -c`, `core.attributesFile`,
//! `$GIT_DIR/info/attributes`, a committed `.gitattributes`, diff drivers, rename and
//! threshold settings) or writes (replacement objects, a NUL byte, lines ended by CR only,
//! one very long line) never lowers the counts of a change. Each attempt runs end to end as
//! an agent (`CLAUDECODE=1`) with the built-in default policy, through `git commit` (the
//! pre-commit hook) and `git commit --no-verify` (the backstop).

use std::fs;

use crate::gate::{AGENT, Gate, HUMAN, git_at, stderr, stdout};

/// `count` lines `<name>_<i> = <i>`.
fn numbered(name: &str, count: usize, end: &str) -> String {
    let mut out = String::new();
    for i in 0..count {
        out.push_str(&format!("{name}_{i} = {i}{end}"));
    }
    out
}

/// A 1,000-line Python file: over the default's 400-line limit for agents.
fn thousand_lines() -> String {
    numbered("value", 1000, "\n")
}

/// A repository on a feature branch (`development`) with no committed policy: the built-in
/// default judges.
fn feature_branch() -> Gate {
    let gate = Gate::with_policy(None);
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate
}

/// `git <config> commit -q <args>` in the gate's work tree as an agent.
fn agent_commit(gate: &Gate, config: &[&str], args: &[&str]) -> std::process::Output {
    let mut all: Vec<&str> = config.to_vec();
    all.extend_from_slice(&["commit", "-q"]);
    all.extend_from_slice(args);
    git_at(&gate.root, AGENT, &all)
}

/// The staged change is stopped by pre-commit and, under `--no-verify`, by the backstop,
/// both times by `rule`; HEAD stays where it was.
#[track_caller]
fn assert_held_both_ways(gate: &Gate, config: &[&str], rule: &str) {
    assert_held_both_ways_with(gate, config, &[], rule);
}

/// [`assert_held_both_ways`], with `args` added to `git commit`.
#[track_caller]
fn assert_held_both_ways_with(gate: &Gate, config: &[&str], args: &[&str], rule: &str) {
    let head = gate.head();
    let with = |more: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(more);
        agent_commit(gate, config, &all)
    };
    let output = with(&["-m", "agent change"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "pre-commit: {text}");
    assert!(text.contains("astrix: held for approval"), "{text}");
    assert!(
        text.contains(&format!("[{rule}]")),
        "pre-commit, {rule}: {text}"
    );
    let output = with(&["--no-verify", "-m", "agent change"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(128), "backstop: {text}");
    assert!(
        text.contains(
            "astrix: the reference-transaction hook stopped the update of branch `feature`"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!("[{rule}]")),
        "backstop, {rule}: {text}"
    );
    assert_eq!(gate.head(), head);
}

/// The intent's counts for the staged change, as an agent with `config` in
/// `GIT_CONFIG_PARAMETERS` (as `git -c` passes it to hooks).
fn counts(gate: &Gate, config: &str) -> (u64, u64, u64, u64) {
    let mut command = crate::gate::astrix_at(&gate.root, AGENT);
    command.env("GIT_CONFIG_PARAMETERS", config).arg("intent");
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let intent: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let count = |name: &str| {
        intent["diff"][name]
            .as_u64()
            .unwrap_or_else(|| panic!("{name}: {intent}"))
    };
    (
        count("lines_added"),
        count("lines_deleted"),
        count("binary_files"),
        count("bytes_added"),
    )
}

#[test]
fn settings_on_the_command_line_change_nothing() {
    let gate = feature_branch();
    gate.write("src/big.py", thousand_lines());
    gate.git(&["add", "src/big.py"]);
    let bytes = thousand_lines().len() as u64;
    for config in [
        "'core.bigFileThreshold'='1'",
        "'diff.renames'='false'",
        "'diff.algorithm'='patience'",
    ] {
        assert_eq!(counts(&gate, config), (1000, 0, 0, bytes), "{config}");
    }
    assert_held_both_ways(
        &gate,
        &["-c", "core.bigFileThreshold=1"],
        "agents-diff-size",
    );
}

#[test]
fn an_attributes_file_of_the_agents_changes_nothing() {
    let gate = feature_branch();
    let attributes = gate.temp().join("attributes");
    fs::write(&attributes, "* -diff\n").unwrap();
    gate.write("src/big.py", thousand_lines());
    gate.git(&["add", "src/big.py"]);
    let setting = format!("core.attributesFile={}", attributes.display());
    // git itself now calls the file binary.
    let plain = git_at(
        &gate.root,
        HUMAN,
        &["-c", &setting, "diff", "--cached", "--numstat"],
    );
    assert!(stdout(&plain).starts_with("-\t-\t"), "{}", stdout(&plain));
    assert_held_both_ways(&gate, &["-c", &setting], "agents-diff-size");
    // And in the repository's own info/attributes.
    fs::write(gate.root.join(".git/info/attributes"), "* binary\n").unwrap();
    assert_held_both_ways(&gate, &[], "agents-diff-size");
}

#[test]
fn committed_attributes_and_drivers_change_nothing() {
    for (attributes, config) in [
        ("*.py -diff\n", &[][..]),
        ("*.py binary\n", &[][..]),
        ("*.py diff=x\n", &["-c", "diff.x.binary=true"][..]),
        ("*.py diff=x\n", &["-c", "diff.x.textconv=true"][..]),
    ] {
        let gate = feature_branch();
        // A human commits the attributes first (or the agent, in an earlier commit).
        gate.write(".gitattributes", attributes);
        gate.setup_commit("attributes");
        gate.write("src/big.py", thousand_lines());
        gate.git(&["add", "src/big.py"]);
        assert_held_both_ways(&gate, config, "agents-diff-size");
    }
    // Staged with the change itself.
    let gate = feature_branch();
    gate.write(".gitattributes", "* -diff\n");
    gate.write("src/big.py", thousand_lines());
    gate.git(&["add", "-A"]);
    assert_held_both_ways(&gate, &[], "agents-diff-size");
}

#[test]
fn copy_detection_changes_nothing() {
    let gate = feature_branch();
    gate.write("src/base.py", thousand_lines());
    gate.setup_commit("base");
    // A copy of a changed file: with `diff.renames=copies` git counts 2 lines.
    gate.write("src/copy.py", thousand_lines());
    gate.write("src/base.py", thousand_lines() + "one_more = 1\n");
    gate.git(&["add", "-A"]);
    let copies = git_at(
        &gate.root,
        HUMAN,
        &[
            "-c",
            "diff.renames=copies",
            "diff",
            "--cached",
            "--shortstat",
        ],
    );
    assert!(
        stdout(&copies).contains("1 insertion"),
        "{}",
        stdout(&copies)
    );
    assert_eq!(
        counts(&gate, "'diff.renames'='copies'").0,
        1001,
        "the copy counts its lines"
    );
    assert_held_both_ways(&gate, &["-c", "diff.renames=copies"], "agents-diff-size");
}

#[test]
fn a_nul_byte_makes_a_binary_file_that_is_held() {
    let gate = feature_branch();
    let mut script: Vec<u8> = (0..1000)
        .flat_map(|i| format!("let v{i} = {i};\n").into_bytes())
        .collect();
    script.insert(10, 0);
    let size = script.len() as u64;
    assert!(size < 40_000);
    gate.write("src/app.js", &script);
    gate.git(&["add", "src/app.js"]);
    assert_eq!(counts(&gate, ""), (0, 0, 1, size));
    assert_held_both_ways(&gate, &[], "agents-binary-files");
}

#[test]
fn lines_ended_by_cr_only_count_by_their_bytes() {
    let gate = feature_branch();
    let statements = numbered("x", 5000, ";\r");
    gate.write("src/app.js", &statements);
    gate.git(&["add", "src/app.js"]);
    assert_eq!(counts(&gate, ""), (1, 0, 0, statements.len() as u64));
    assert_held_both_ways(&gate, &[], "agents-bytes-added");
}

#[test]
fn one_long_line_counts_by_its_bytes() {
    let gate = feature_branch();
    let line = format!("var data = \"{}\";\n", "x".repeat(67_000));
    gate.write("src/data.js", &line);
    gate.git(&["add", "src/data.js"]);
    assert_eq!(counts(&gate, ""), (1, 0, 0, line.len() as u64));
    assert_held_both_ways(&gate, &[], "agents-bytes-added");
}

/// `[facts] exclude` in the committed policy leaves generated files out of the counts — but
/// not a rename that moves an edit into an excluded name, and not the file itself from the
/// rules that name paths.
#[test]
fn the_committed_policy_leaves_files_out_of_the_counts() {
    let policy = format!(
        "{}\n[facts]\nexclude = [\"*.min.js\"]\n",
        crate::gate::POLICY.replace("lines_changed <= 20", "lines_changed <= 400")
    );
    let gate = Gate::with_policy(Some(&policy));
    gate.git(&["switch", "-q", "-c", "feature"]);
    gate.write("web/app.min.js", thousand_lines());
    gate.git(&["add", "-A"]);
    assert_eq!(counts(&gate, "").0, 0);
    let before = gate.head();
    let output = agent_commit(&gate, &[], &["-m", "bundle"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_ne!(gate.head(), before);
    // The bundle is committed; renaming an edited source into an excluded name counts.
    gate.write("web/app.js", thousand_lines());
    gate.setup_commit("source");
    gate.git(&["mv", "web/app.js", "web/other.min.js"]);
    let more = numbered("extra", 500, "\n");
    gate.write("web/other.min.js", thousand_lines() + &more);
    gate.git(&["add", "-A"]);
    assert_eq!(counts(&gate, "").0, 500);
    assert_held_both_ways(&gate, &[], "agents-diff-size");
}

/// Replacement objects show git another object in place of one it has: astrix judges the
/// objects git commits, never what a replace ref shows.
#[test]
fn replacement_objects_are_ignored() {
    // A replaced policy: the committed one denies, the replacement allows everything.
    let strict = format!(
        "{}\n[[rule]]\nid = \"no-generated\"\npaths = [\"gen/**\"]\ndecision = \"deny\"\n",
        crate::gate::POLICY
    );
    let gate = Gate::with_policy(Some(&strict));
    gate.git(&["switch", "-q", "-c", "feature"]);
    let lax = gate.temp().join("lax.ax");
    fs::write(&lax, "version = 1\n").unwrap();
    let lax_blob = gate.git(&["hash-object", "-w", lax.to_str().unwrap()]);
    let strict_blob = gate.rev("HEAD:Astrixfile.ax");
    gate.git(&["replace", &strict_blob, lax_blob.trim()]);
    assert_eq!(gate.git(&["show", "HEAD:Astrixfile.ax"]), "version = 1\n");
    gate.write("gen/out.txt", "generated\n");
    gate.git(&["add", "-A"]);
    let output = agent_commit(&gate, &[], &["-m", "generated"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("[no-generated]"),
        "{}",
        stderr(&output)
    );
    gate.git(&["replace", "-d", &strict_blob]);

    // A replaced HEAD: a commit whose tree already holds the staged change, so that the
    // change looks empty against it — also through gitoxide's own replace-ref base.
    gate.git(&["reset", "-q", "--hard"]);
    gate.write("src/big.py", thousand_lines());
    gate.git(&["add", "-A"]);
    let tree = gate.git(&["write-tree"]);
    let fake = gate.git(&["commit-tree", "-m", "fake", "-p", "HEAD", tree.trim()]);
    let head = gate.head();
    gate.git(&["replace", &head, fake.trim()]);
    // git sees nothing staged, so the commit needs `--allow-empty`; it still records the
    // 1,000 lines on top of the real HEAD.
    assert!(gate.git(&["diff", "--cached", "--stat"]).is_empty());
    assert_held_both_ways_with(&gate, &[], &["--allow-empty"], "agents-diff-size");
    gate.git(&["replace", "-d", &head]);
    gate.git(&["update-ref", &format!("refs/elsewhere/{head}"), fake.trim()]);
    assert_held_both_ways(
        &gate,
        &["-c", "gitoxide.objects.replaceRefBase=refs/elsewhere/"],
        "agents-diff-size",
    );
}
