//! Hostile and huge inputs (issue 9): the built binary on deeply nested TOML and JSON, huge
//! policies and intents, huge and numerous staged files, and hostile paths. Each case ends in
//! bounded time with the right answer or a clear error (exit 2), never a panic, a hang or a
//! wrong pass. `benches/robustness.py` runs the same cases at full size with a release build
//! and records time and peak memory (docs/robustness.md).

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::{ASTRIX, output_with_stdin};
use crate::repo::TestRepo;

/// The most any case here may take with the debug binary on a loaded machine; a hang or a
/// quadratic blow-up takes far longer.
const BOUND: Duration = Duration::from_secs(120);

/// Runs `command` with `stdin`, and checks that it finished within [`BOUND`] and did not
/// panic (exit 101) or die of a signal (a stack overflow is SIGSEGV/SIGABRT).
fn run(command: Command, stdin: &[u8]) -> Output {
    let started = Instant::now();
    let output = output_with_stdin(command, stdin);
    let elapsed = started.elapsed();
    assert!(elapsed < BOUND, "took {elapsed:?}");
    assert!(
        matches!(output.status.code(), Some(0..=3)),
        "exit {:?}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What a person sees: reports and diagnostics go to stdout, errors to stderr.
fn text(output: &Output) -> String {
    format!("{}{}", stdout(output), stderr(output))
}

/// `astrix args…` in the repository.
fn astrix(repo: &TestRepo, args: &[&str]) -> Output {
    let mut command = repo.command(ASTRIX);
    command.args(args);
    run(command, b"")
}

/// `astrix check` in the repository, with extra environment variables.
fn check_with(repo: &TestRepo, env: &[(&str, &str)]) -> Output {
    let mut command = repo.command(ASTRIX);
    command.arg("check");
    for (name, value) in env {
        command.env(name, value);
    }
    run(command, b"")
}

fn check(repo: &TestRepo) -> Output {
    check_with(repo, &[])
}

/// The intent of the staged change, as `astrix intent` prints it.
fn intent(repo: &TestRepo) -> serde_json::Value {
    let output = astrix(repo, &["intent"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// `git diff --cached --numstat` totals: (added, deleted, binary files).
fn git_numstat(repo: &TestRepo, extra: &[&str]) -> (u64, u64, u64) {
    let mut args = vec!["diff", "--cached", "--numstat", "-z"];
    args.extend_from_slice(extra);
    let output = repo.git_result(&args);
    assert!(output.status.success());
    let (mut added, mut deleted, mut binary) = (0, 0, 0);
    for record in output.stdout.split(|byte| *byte == 0) {
        let text = String::from_utf8_lossy(record);
        let mut fields = text.split('\t');
        match (fields.next(), fields.next()) {
            (Some("-"), Some("-")) => binary += 1,
            (Some(a), Some(d)) => {
                added += a.parse::<u64>().unwrap();
                deleted += d.parse::<u64>().unwrap();
            }
            _ => {}
        }
    }
    (added, deleted, binary)
}

/// A repository whose committed policy is `policy` (plus a first file).
fn repo_with_policy(policy: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write("Astrixfile.ax", policy);
    repo.write("README.md", "readme\n");
    repo.commit_all("base");
    repo
}

/// Holds every change of more than 400 lines, or whose size is unknown.
const HOLD_POLICY: &str =
    "version = 1\n\n[[rule]]\nid = \"size\"\npolicy = \"lines_changed <= 400\"\n";

/// Denies every change of more than 400 lines, and holds every binary file.
const SIZE_POLICY: &str = "version = 1\n\n[[rule]]\nid = \"size\"\npolicy = \"lines_changed <= 400\"\ndecision = \"deny\"\nreason = \"too big\"\n\n[[rule]]\nid = \"no-binaries\"\npolicy = \"binary_files == 0\"\n";

fn intent_json(files: &[String], lines_added: &str) -> String {
    let files = serde_json::to_string(files).unwrap();
    format!(
        r#"{{"actor": {{"type": "autonomous_llm"}}, "target": {{"env": "development"}}, "modified_files": {files}, "diff": {{"modifies_tests": "false", "lines_added": {lines_added}, "lines_deleted": 0, "binary_files": 0, "bytes_added": 100}}}}"#
    )
}

// ---------------------------------------------------------------------------------------
// Deeply nested TOML and JSON.

#[test]
fn deeply_nested_astrixfiles_are_clear_errors() {
    let repo = TestRepo::new();
    let depth = 100_000;
    let dotted = vec!["a"; depth].join(".");
    let cases = [
        (
            format!("x = {}{}\n", "[".repeat(depth), "]".repeat(depth)),
            "nest deeper than 64 levels",
        ),
        (
            format!("x = {}1{}\n", "{a=".repeat(depth), "}".repeat(depth)),
            "nest deeper than 64 levels",
        ),
        (
            format!("{}a{}\n", "[".repeat(depth), "]".repeat(depth)),
            "nest deeper than 64 levels",
        ),
        (format!("{dotted} = 1\n"), "a dotted key has too many parts"),
        (format!("[{dotted}]\n"), "a dotted key has too many parts"),
        (
            format!("[[test]]\nname = \"t\"\nexpect = \"allow\"\nintent = {{ {dotted} = 1 }}\n"),
            "a dotted key has too many parts",
        ),
    ];
    for (body, message) in cases {
        repo.write("deep.ax", format!("version = 1\n{body}"));
        let output = astrix(&repo, &["validate", "deep.ax"]);
        assert_eq!(output.status.code(), Some(2), "{message}");
        let shown = text(&output);
        assert!(shown.contains(message), "{shown}");
        assert!(shown.contains("help:"), "{shown}");
        // Evaluating with it is the same error.
        repo.write("intent.json", intent_json(&[], "1"));
        let output = astrix(&repo, &["evaluate", "intent.json", "--policy", "deep.ax"]);
        assert_eq!(output.status.code(), Some(2));
        assert!(text(&output).contains(message));
    }
}

#[test]
fn deeply_nested_intents_are_errors_or_fail_the_policy() {
    let repo = TestRepo::new();
    repo.write("policy.ax", HOLD_POLICY);
    let depth = 100_000;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let objects = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
    // Where a value must be a string, an object or a list of paths: an error (exit 2).
    for (intent, message) in [
        (objects.clone(), "unknown field `a`"),
        (arrays.clone(), "invalid type"),
        (
            format!(r#"{{"actor": {{"type": {arrays}}}}}"#),
            "at `actor.type`",
        ),
        (
            format!(
                r#"{{"actor": {{"type": "human"}}, "target": {{"env": "d"}}, "modified_files": {arrays}, "diff": {{"modifies_tests": "false"}}}}"#
            ),
            "at `modified_files[0]`",
        ),
    ] {
        let mut command = repo.command(ASTRIX);
        command.args(["evaluate", "-", "--policy", "policy.ax"]);
        let output = run(command, intent.as_bytes());
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert!(text(&output).contains(message), "{}", text(&output));
    }
    // A count may be any JSON value (SPEC §2); a nested one is no number, so the policy
    // that reads it fails and holds (exit 3), never passes.
    for value in [&arrays, &objects] {
        let mut command = repo.command(ASTRIX);
        command.args(["evaluate", "-", "--policy", "policy.ax", "--format", "json"]);
        let output = run(command, intent_json(&[], value).as_bytes());
        assert_eq!(output.status.code(), Some(3), "{}", text(&output));
        let decision: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(decision["allowed"], false);
        assert_eq!(decision["requires_approval"], true);
    }
}

/// MCP reads JSON-RPC with `serde_json`'s recursion limit (128): a message nested deeper is
/// unparsable, and answered as a parse error (−32700, `id: null`, issue #20); the server
/// neither crashes nor stops serving.
#[test]
fn mcp_survives_a_deeply_nested_message() {
    let repo = repo_with_policy(HOLD_POLICY);
    let depth = 100_000;
    let call = |id: u32, lines_added: &str| {
        format!(
            r#"{{"jsonrpc": "2.0", "id": {id}, "method": "tools/call", "params": {{"name": "astrix_evaluate_policy", "arguments": {{"intent": {intent}}}}}}}"#,
            intent = intent_json(&[], lines_added)
        )
    };
    let mut input = String::new();
    for message in [
        r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}"#.to_owned(),
        r#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#.to_owned(),
        call(2, &format!("{}{}", "[".repeat(depth), "]".repeat(depth))),
        call(3, &format!("{}{}", "[".repeat(100), "]".repeat(100))),
        call(4, "1"),
    ] {
        writeln!(input, "{message}").unwrap();
    }
    let mut command = repo.command(ASTRIX);
    command.arg("mcp");
    let output = run(command, input.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let answers: Vec<serde_json::Value> = BufReader::new(&output.stdout[..])
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
        .collect();
    let ids: Vec<&serde_json::Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(
        ids,
        [&1.into(), &serde_json::Value::Null, &3.into(), &4.into()],
        "{answers:#?}"
    );
    assert_eq!(answers[1]["error"]["code"], -32700, "{answers:#?}");
    let message = answers[1]["error"]["message"].as_str().unwrap();
    assert!(message.contains("recursion limit exceeded"), "{message}");
    // 100 levels parse, and are no number: the policy fails and holds.
    assert_eq!(
        answers[2]["result"]["structuredContent"]["requires_approval"],
        true
    );
    assert_eq!(answers[2]["result"]["structuredContent"]["allowed"], false);
    assert_eq!(answers[3]["result"]["structuredContent"]["allowed"], true);
}

// ---------------------------------------------------------------------------------------
// Huge policies and intents.

/// `rules` rules, each with three globs of alternations, classes and wildcards; one in two
/// denies, the others hold.
fn heavy_policy(rules: usize) -> String {
    let mut text = String::from("version = 1\ndefault = \"allow\"\n");
    for i in 0..rules {
        let decision = if i % 2 == 0 {
            "deny"
        } else {
            "require_approval"
        };
        write!(
            text,
            "\n[[rule]]\nid = \"r{i}\"\npaths = [\"**/mod{i}/**/*.{{rs,py,ts,go}}\", \"src/[a-m]*{i}/**/x?{i}*.txt\", \"*{i}*.[ch]\"]\ndecision = \"{decision}\"\nreason = \"rule {i}\"\n"
        )
        .unwrap();
    }
    text
}

/// The policy of 20,000 such rules takes about two minutes to compile four times with the
/// debug build; `benches/robustness.py` runs it at full size (seconds with a release build).
/// Here 2,000 rules, 6,000 globs in twelve sets.
#[test]
fn thousands_of_rules_with_heavy_globs() {
    let repo = TestRepo::new();
    repo.write("heavy.ax", heavy_policy(2_000));
    let output = astrix(&repo, &["validate", "heavy.ax"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(stdout(&output).contains("2000 rules"));
    for (files, code, deciding) in [
        // Rule 1999 holds; nothing else matches.
        (vec!["a/mod1999/b/c.rs", "docs/x.md"], 3, "[r1999]"),
        // Rule 1234 denies (its third glob), rule 1999 holds: deny wins.
        (vec!["lib/v1234.h", "a/mod1999/c.py"], 1, "[r1234]"),
        (vec!["docs/readme.md"], 0, "default"),
    ] {
        let files: Vec<String> = files.into_iter().map(str::to_owned).collect();
        repo.write("intent.json", intent_json(&files, "1"));
        let output = astrix(
            &repo,
            &[
                "evaluate",
                "intent.json",
                "--policy",
                "heavy.ax",
                "--format",
                "json",
            ],
        );
        assert_eq!(output.status.code(), Some(code), "{}", text(&output));
        let decision: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(
            decision["reason"].as_str().unwrap().contains(deciding),
            "{decision}"
        );
    }
}

/// Heavy globs reach the regex engine's size limit with a few hundred per set; the policy
/// still loads (the sets are split) rather than being refused as a whole.
#[test]
fn rules_whose_globs_do_not_fit_one_set_still_load() {
    let repo = TestRepo::new();
    let mut policy = String::from("version = 1\n");
    let heavy = "?".repeat(400);
    for i in 0..300 {
        write!(
            policy,
            "\n[[rule]]\nid = \"r{i}\"\npaths = [\"**/x{i}/{heavy}/[!a-c]*.{{rs,py}}\"]\ndecision = \"deny\"\n"
        )
        .unwrap();
    }
    repo.write("heavy.ax", policy);
    let files = [format!("src/x299/{}/d.rs", "y".repeat(400))];
    repo.write("intent.json", intent_json(&files, "1"));
    let output = astrix(&repo, &["evaluate", "intent.json", "--policy", "heavy.ax"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(text(&output).contains("[r299]"));
}

#[test]
fn an_intent_of_a_million_files() {
    let repo = TestRepo::new();
    repo.write("policy.ax", astrix::policy::DEFAULT_POLICY);
    let mut files: Vec<String> = (0..1_000_000)
        .map(|i| format!("src/d{}/sub{}/file{i}.rs", i % 1000, i % 37))
        .collect();
    // An agent's change of 1,000,000 files and 5 lines: within the size limit, and only the
    // last file, a CI workflow, matches a rule, which holds the change.
    files[999_999] = ".github/workflows/ci.yml".to_owned();
    let mut command = repo.command(ASTRIX);
    command.args(["evaluate", "-", "--policy", "policy.ax", "--format", "json"]);
    let output = run(command, intent_json(&files, "5").as_bytes());
    assert_eq!(output.status.code(), Some(3), "{}", text(&output));
    let decision: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let reason = decision["reason"].as_str().unwrap();
    assert!(reason.starts_with("[agents-ci-config]"), "{reason}");
    assert!(!reason.contains("; ["), "only one rule decides: {reason}");
}

/// A 50 MB policy is refused before parsing with a clear error, from a file and from HEAD.
#[test]
fn a_fifty_megabyte_policy_is_refused_with_a_clear_error() {
    let repo = TestRepo::new();
    let mut policy = String::from("version = 1\n");
    let mut i = 0;
    while policy.len() < 50 * 1024 * 1024 {
        write!(
            policy,
            "[[rule]]\nid = \"r{i}\"\npaths = [\"src/m{i}/**\"]\ndecision = \"deny\"\n"
        )
        .unwrap();
        i += 1;
    }
    repo.write("huge.ax", &policy);
    let output = astrix(&repo, &["validate", "huge.ax"]);
    assert_eq!(output.status.code(), Some(2));
    let message = text(&output);
    assert!(message.contains("error[file-too-large]"), "{message}");
    assert!(
        message.contains("more than the 10 MiB astrix reads"),
        "{message}"
    );
    // Committed as the repository's policy, it judges nothing: the built-in default does,
    // and the commit is held with the diagnostic.
    repo.write("Astrixfile.ax", &policy);
    repo.commit_all("huge policy");
    repo.write("src/lib.rs", "fn f() {}\n");
    repo.git(&["add", "src/lib.rs"]);
    let output = check(&repo);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output));
    assert!(
        text(&output).contains("file-too-large"),
        "{}",
        stderr(&output)
    );
}

// ---------------------------------------------------------------------------------------
// Huge staged files.

#[test]
fn a_sixty_megabyte_binary_file_staged_and_renamed() {
    let repo = repo_with_policy(SIZE_POLICY);
    // Pseudo-random bytes: incompressible, with NUL bytes early on.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let data: Vec<u8> = (0..60 * 1024 * 1024 / 8)
        .flat_map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()
        })
        .collect();
    repo.write("blob.bin", &data);
    repo.git(&["add", "blob.bin"]);
    let output = check(&repo);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output));
    assert!(text(&output).contains("binary_files is 1"));
    assert_eq!(intent(&repo)["diff"]["binary_files"], 1);
    assert_eq!(git_numstat(&repo, &[]), (0, 0, 1));
    // Moved and edited: an inexact rename of a 60 MB blob, found as git finds it.
    repo.git(&["commit", "-q", "--no-verify", "-m", "blob"]);
    let mut edited = data;
    edited[1000] ^= 0xff;
    repo.git(&["rm", "-q", "blob.bin"]);
    repo.write("moved.bin", &edited);
    repo.git(&["add", "moved.bin"]);
    let files = intent(&repo)["modified_files"].clone();
    assert_eq!(files, serde_json::json!(["blob.bin", "moved.bin"]));
    let status = repo.git(&["diff", "--cached", "--name-status"]);
    assert!(status.starts_with("R099\tblob.bin\tmoved.bin"), "{status}");
}

/// Two million lines, added and then rewritten entirely: counts equal git's, and the
/// size limit denies. (The full rewrite of two million lines is in the benchmark; here
/// 200,000, since the debug build diffs ten times slower.)
#[test]
fn a_two_million_line_file_added_and_a_rewritten_one() {
    let repo = repo_with_policy(SIZE_POLICY);
    let lines = |n: usize, word: &str| {
        let mut text = String::with_capacity(n * 32);
        for i in 0..n {
            writeln!(text, "{word} {i} of the text").unwrap();
        }
        text
    };
    repo.write("big.txt", lines(2_000_000, "line"));
    repo.git(&["add", "big.txt"]);
    let output = check(&repo);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(text(&output).contains("lines_changed is 2000000"));
    assert_eq!(git_numstat(&repo, &[]), (2_000_000, 0, 0));

    repo.write("big.txt", lines(200_000, "line"));
    repo.commit_all("base");
    repo.write("big.txt", lines(200_000, "rewritten"));
    repo.git(&["add", "big.txt"]);
    let counted = intent(&repo);
    assert_eq!(
        (
            counted["diff"]["lines_added"].as_u64().unwrap(),
            counted["diff"]["lines_deleted"].as_u64().unwrap(),
            0
        ),
        git_numstat(&repo, &[])
    );
    assert_eq!(check(&repo).status.code(), Some(1));
}

/// `diff.algorithm=minimal` searches for the shortest edit script without a cost limit; on
/// a file written in reverse it would run for hours (git's own `--minimal` takes minutes).
/// astrix gives up after a deadline and counts the rest as deleted and added: never fewer
/// lines than the shortest script, so a size limit is never passed wrongly.
#[test]
fn minimal_diff_of_a_reversed_file_is_bounded_and_never_undercounts() {
    let repo = repo_with_policy(SIZE_POLICY);
    let n: u64 = 20_000;
    let forward: Vec<String> = (0..n).map(|i| format!("line {i}\n")).collect();
    repo.write("f.txt", forward.concat());
    repo.commit_all("base");
    let reversed: Vec<String> = forward.into_iter().rev().collect();
    repo.write("f.txt", reversed.concat());
    repo.git(&["add", "f.txt"]);
    repo.git(&["config", "diff.algorithm", "minimal"]);
    let started = Instant::now();
    let counted = intent(&repo);
    assert!(started.elapsed() < Duration::from_secs(60));
    // The shortest script keeps one line: n - 1 added and n - 1 deleted.
    let added = counted["diff"]["lines_added"].as_u64().unwrap();
    let deleted = counted["diff"]["lines_deleted"].as_u64().unwrap();

    assert!((n - 1..=n).contains(&added), "{added}");
    assert!((n - 1..=n).contains(&deleted), "{deleted}");
    assert_eq!(check(&repo).status.code(), Some(1));
}

#[test]
fn a_hundred_thousand_staged_files() {
    let repo = repo_with_policy(astrix::policy::DEFAULT_POLICY);
    let blob = {
        let mut command = repo.command("git");
        command.args(["hash-object", "-w", "--stdin"]);
        stdout(&run_git(command, b"hello\n")).trim().to_owned()
    };
    let mut entries = String::new();
    for i in 0..100_000 {
        writeln!(
            entries,
            "100644 {blob}\td{}/e{}/file{i}.txt",
            i % 100,
            i / 1000 % 10
        )
        .unwrap();
    }
    let mut command = repo.command("git");
    command.args(["update-index", "--index-info"]);
    run_git(command, entries.as_bytes());
    let counted = intent(&repo);
    assert_eq!(counted["modified_files"].as_array().unwrap().len(), 100_000);
    assert_eq!(counted["diff"]["lines_added"], 100_000);
    assert_eq!(git_numstat(&repo, &[]), (100_000, 0, 0));
    // A human on `main` (production): allowed; an agent: denied on production.
    assert_eq!(check(&repo).status.code(), Some(0));
    let output = check_with(&repo, &[("CLAUDECODE", "1")]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output).contains("100000 files"),
        "{}",
        stderr(&output)
    );
}

fn run_git(command: Command, stdin: &[u8]) -> Output {
    let output = output_with_stdin(command, stdin);
    assert!(output.status.success(), "{}", text(&output));
    output
}

// ---------------------------------------------------------------------------------------
// Hostile paths.

#[test]
fn non_utf8_names_are_matched_and_each_counted() {
    let repo = repo_with_policy(
        "version = 1\n\n[[rule]]\nid = \"keys\"\npaths = [\"*.pem\", \"secrets/**\"]\ndecision = \"deny\"\n\n[[rule]]\nid = \"one-file\"\npolicy = \"files_changed < 2\"\ndecision = \"deny\"\n",
    );
    // Two names that read the same once U+FFFD replaces their invalid bytes: two files.
    repo.write(OsStr::from_bytes(b"a\xff.txt"), "a\n");
    repo.write(OsStr::from_bytes(b"a\xfe.txt"), "b\n");
    repo.git(&["add", "-A"]);
    let output = check(&repo);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("files_changed is 2"),
        "{}",
        stderr(&output)
    );
    repo.git(&["commit", "-q", "--no-verify", "-m", "two"]);
    // Deny rules still see names with invalid bytes.
    for name in [&b"caf\xe9.pem"[..], &b"secrets/\xff\xfe"[..]] {
        repo.write(OsStr::from_bytes(name), "x\n");
        repo.git(&["add", "-A"]);
        let output = check(&repo);
        assert_eq!(output.status.code(), Some(1), "{}", text(&output));
        assert!(text(&output).contains("[keys]"), "{}", text(&output));
        repo.git(&["rm", "-q", "--cached", "-r", "."]);
        repo.git(&["reset", "-q"]);
        std::fs::remove_file(repo.path().join(OsStr::from_bytes(name))).unwrap();
    }
}

#[test]
fn long_paths_deep_directories_and_names_at_the_filesystem_limit() {
    let repo = repo_with_policy(
        "version = 1\n\n[[rule]]\nid = \"keys\"\npaths = [\"*.pem\"]\ndecision = \"deny\"\n",
    );
    // Real files: directories of 255-byte names, 4,095 bytes in all (PATH_MAX less its NUL).
    let name = "n".repeat(255);
    let mut dir = String::new();
    while 4095 - dir.len() - 1 > 255 {
        if !dir.is_empty() {
            dir.push('/');
        }
        dir.push_str(&name);
    }
    let leaf = format!("{}.pem", "k".repeat(4095 - dir.len() - 1 - 4));
    let path = format!("{dir}/{leaf}");
    assert_eq!(path.len(), 4095);
    // Relative to the work tree: the absolute path would pass PATH_MAX.
    let mut command = repo.command("sh");
    command.args([
        "-c",
        "mkdir -p \"$1\" && cd \"$1\" && echo x > \"$2\"",
        "sh",
        &dir,
        &leaf,
    ]);
    run_git(command, b"");
    repo.git(&["add", "-A"]);
    // gix 0.90 misreads an index of version 2 or 3 with a path of 4,095 bytes or more
    // (git pads such an entry after its NUL; gix does not skip the padding): the gate cannot
    // read what is staged and blocks the commit (exit 2), never passes it.
    let output = check(&repo);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("/.git/index` is damaged"),
        "{}",
        text(&output)
    );
    // Version 4 (no padding) is read, and the rule that matches the name denies.
    repo.git(&["update-index", "--index-version", "4"]);
    let output = check(&repo);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert_eq!(intent(&repo)["modified_files"][0], path);
    repo.git(&["reset", "-q"]);
    std::fs::remove_dir_all(repo.path().join(&name)).unwrap();

    // Index entries beyond what a file system holds: a 16,000-byte path and 2,000 levels.
    let blob = {
        let mut command = repo.command("git");
        command.args(["hash-object", "-w", "--stdin"]);
        stdout(&run_git(command, b"x\n")).trim().to_owned()
    };
    let long = format!("{}/x.pem", "d".repeat(16_000));
    let deep = format!("{}x.pem", "d/".repeat(2_000));
    let mut command = repo.command("git");
    command.args(["update-index", "--index-info"]);
    run_git(
        command,
        format!("100644 {blob}\t{long}\n100644 {blob}\t{deep}\n").as_bytes(),
    );
    let output = check(&repo);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let files = intent(&repo)["modified_files"].clone();
    assert_eq!(files, serde_json::json!([deep, long]));
    // 4,094 bytes, one less, in an index of version 2: read as it is.
    repo.git(&["update-index", "--index-version", "2"]);
    repo.git(&["rm", "-q", "--cached", &long, &deep]);
    let short = format!("{}/x.pem", "d".repeat(4_088));
    assert_eq!(short.len(), 4_094);
    let mut command = repo.command("git");
    command.args(["update-index", "--index-info"]);
    run_git(command, format!("100644 {blob}\t{short}\n").as_bytes());
    let output = check(&repo);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
}

/// A backslash is a legal byte in a git path but not in an intent's path (SPEC §2): the
/// gate cannot judge such a commit, so it blocks it and says how to fix it.
#[test]
fn a_backslash_in_a_staged_name_blocks_with_the_fix() {
    let repo = repo_with_policy(SIZE_POLICY);
    repo.write("back\\slash.txt", "x\n");
    repo.git(&["add", "-A"]);
    let output = check(&repo);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let message = text(&output);
    assert!(message.contains("`back\\slash.txt`"), "{message}");
    assert!(message.contains("git mv"), "{message}");
}
