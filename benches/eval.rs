//! Evaluation micro-benchmark (issue 5): 1,000 rules (path globs and numeric policies)
//! against intents of 10, 1,000 and 10,000 modified files.
//!
//! Run with `cargo bench --bench eval`. Prints the median of repeated evaluations and the
//! growth factor from 1,000 to 10,000 files (the target is ≤ 11× for 10× the files).

#![allow(clippy::print_stdout, reason = "a benchmark prints its figures")]

use std::time::{Duration, Instant};

use astrix::eval::evaluate;
use astrix::intent::ActionIntent;
use astrix::policy::load;

const RULES: usize = 1_000;

fn policy_text() -> String {
    let mut text = String::from("version = 1\ndefault = \"allow\"\n");
    for i in 0..RULES {
        let dir = i % 10;
        match i % 4 {
            0 => text.push_str(&format!(
                "[[rule]]\nid = \"paths-{i}\"\npaths = [\"src/d{dir}/**/*.rs\", \"**/gen{i}/*.json\"]\ndecision = \"require_approval\"\n"
            )),
            1 => text.push_str(&format!(
                "[[rule]]\nid = \"only-{i}\"\nonly_paths = [\"docs/**\", \"*.md\", \"d{dir}/**/file{i}.txt\"]\ndecision = \"allow\"\n"
            )),
            2 => text.push_str(&format!(
                "[[rule]]\nid = \"size-{i}\"\nactor = [\"autonomous_llm\"]\npolicy = \"lines_changed <= {}\"\n",
                400 + i
            )),
            _ => text.push_str(&format!(
                "[[rule]]\nid = \"mixed-{i}\"\nenv = [\"production\"]\npaths = [\"d{dir}/s{}/**\", \"*.{}\"]\npolicy = \"files_changed < {}\"\ndecision = \"deny\"\n",
                i % 7,
                ["lock", "pem", "key", "toml"][i % 4],
                20 + i
            )),
        }
    }
    text
}

fn intent(files: usize) -> ActionIntent {
    let paths: Vec<String> = (0..files)
        .map(|i| format!("\"d{}/s{}/m{}/file{i}.rs\"", i % 10, i % 7, i % 100))
        .collect();
    let text = format!(
        r#"{{"actor":{{"type":"autonomous_llm"}},"target":{{"env":"production"}},"modified_files":[{}],"diff":{{"modifies_tests":"false","lines_added":1200,"lines_deleted":30,"binary_files":0}}}}"#,
        paths.join(",")
    );
    match ActionIntent::from_json(&text) {
        Ok(intent) => intent,
        Err(error) => panic!("benchmark intent: {error}"),
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let text = policy_text();
    let started = Instant::now();
    let policy = match load("bench.ax", &text) {
        Ok((policy, _)) => policy,
        Err(diagnostics) => panic!("benchmark policy: {diagnostics:?}"),
    };
    println!("load {RULES} rules: {:?}", started.elapsed());

    // A commit's few paths: every evaluation compiles only the globs they can match. Run
    // first, while the policy has not compiled the sets of every glob.
    let few = intent(10);
    let samples: Vec<Duration> = (0..31).map(|_| timed(&policy, &few)).collect();
    println!(
        "evaluate {RULES} rules x {:>6} files: median {:?} (compiling the globs they can match, each time)",
        10,
        median(samples)
    );

    let many = intent(10_000);
    println!(
        "first evaluation of {} files (compiles the sets of every glob, kept): {:?}",
        10_000,
        timed(&policy, &many)
    );
    let mut medians = Vec::new();
    for files in [1_000, 10_000] {
        let intent = intent(files);
        let runs = if files > 5_000 { 11 } else { 31 };
        let samples: Vec<Duration> = (0..runs).map(|_| timed(&policy, &intent)).collect();
        let median = median(samples);
        println!("evaluate {RULES} rules x {files:>6} files: median {median:?}");
        medians.push(median);
    }
    println!(
        "growth for 10x the files: {:.2}x",
        medians[1].as_secs_f64() / medians[0].as_secs_f64()
    );
}

/// One evaluation's time.
fn timed(policy: &astrix::policy::Policy, intent: &ActionIntent) -> Duration {
    let started = Instant::now();
    let decision = evaluate(policy, intent);
    let elapsed = started.elapsed();
    std::hint::black_box(decision);
    elapsed
}
