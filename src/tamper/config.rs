//! The runner told to look away: files that configure what a test runner selects or runs,
//! compared setting by setting (or target by target), not line by line. A dependency bump
//! in `package.json` changes no test setting; `scripts.test` does.
//!
//! | file | settings compared |
//! |---|---|
//! | `pytest.ini` | every key of `[pytest]` |
//! | `setup.cfg` | every key of `[tool:pytest]` |
//! | `pytest.toml`, `.pytest.toml` | every key of `[pytest]` |
//! | `tox.ini` | every key of `[tox]` but where packages come from and where tox works (`indexserver`, `minversion`, …), every key of `[pytest]`, `commands`, `ignore_outcome`, `ignore_errors`, `platform` and the runner variables of `setenv` (`PYTEST_ADDOPTS`) of `[testenv]` and `[testenv:…]` (not of tool environments, `[testenv:docs]`, `[testenv:lint]`, nor of those whose commands name no test runner) |
//! | `pyproject.toml` | every key of `[tool.pytest.ini_options]` and `[tool.pytest]`; Hatch's, PDM's, poethepoet's and taskipy's scripts named for tests or running a runner; all of `[tool.hatch.envs.hatch-test]`; runner variables of Hatch's `env-vars` |
//! | `Cargo.toml` | `autotests`, `autolib`, `autobins`, `autoexamples`, `autobenches`, `build`; `test`, `doctest`, `harness`, `path` and `required-features` of any target, `[[test]]`, the library's `crate-type` and `proc-macro`, `[features] default`, `[workspace]` `members`, `exclude`, `default-members`, `[profile.test]`, `debug-assertions` and `overflow-checks` of `[profile.dev]` and its packages |
//! | `.cargo/config.toml`, `.cargo/config` | `rustflags`, `rustdocflags`, `runner`, `linker` of `[build]` and of any `[target.…]`, `rustc`, `rustc-wrapper`, `rustc-workspace-wrapper`, `target` of `[build]`, the profiles as above |
//! | `build.rs` | any change, when a side sets a `cfg` (`cargo:rustc-cfg=…`) |
//! | `package.json` | `scripts.test`, `scripts.test:…`, `scripts.pretest`, and the scripts they run by name (`npm run unit`, `run-s a b`); `jest`, `mocha`, `ava`; `imports` (what `#name` specifiers load); `name` where the new side has `exports` and another name (it loads itself by that name) |
//! | `jest.config.*`, `vitest.config.*`, `vitest.workspace.*`, `.mocharc.*`, `playwright.config.*`, `cypress.config.*`, and the configurations they load (`jest.base.js`) | every changed key (`name:` on a changed line) |
//! | `Makefile`, `GNUmakefile`, `*.mk`, `justfile` | targets whose name holds `test`, and `check`, and the targets running a test command they lead to (a prerequisite, `$(MAKE) unit`); the variables they use, and those the runner reads (`export PYTEST_ADDOPTS`) |
//! | `pom.xml` | changed lines naming a switch that skips tests or ignores failures; any changed line of the Surefire or Failsafe plugin but its version |
//! | `build.gradle(.kts)` | the same switches; any changed line of the `test` task |
//! | `noxfile.py` | changed lines naming the test command |
//! | a test script: `scripts/test.sh`, `run-tests.ps1`, any script under `ci/`, `.ci/`, `.github/scripts/` | changed lines that run the tests, as in a CI configuration |
//! | `go.mod` below the root | added or removed (a directory leaves or joins the module `go test ./...` runs) |
//! | any file under a `node_modules/` directory | any change (what the tests' `require` loads) |
//! | `vite.config.*` | changed lines of the `test:` block |
//! | CI configurations | changed lines that run the tests, `continue-on-error`, `allow_failure`; a build matrix left with fewer entries or excluding something, in a file that runs the tests |
//!
//! A side that does not parse is compared as a whole: any change counts once, as `(file)`;
//! except a `package.json`, which is then read line by line (its test scripts' lines, and
//! the lines of a `jest`, `mocha`, `ava` or `vitest` block).

use std::collections::BTreeMap;

use crate::linediff::LineDiff;

/// What kind of runner configuration a file is, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// INI sections: the sections whose keys are compared (`*` ends a prefix).
    Ini(&'static [&'static str]),
    PyProject,
    Cargo,
    /// A `.cargo/config.toml`: the flags and runner of builds and test runs.
    CargoConfig,
    PackageJson,
    /// A JavaScript or JSON runner configuration: every changed key.
    JsConfig,
    Makefile,
    /// A `justfile`: recipes like a Makefile's targets, indented with spaces or tabs.
    Justfile,
    /// A build file, a CI workflow or a `noxfile.py`: the changed lines that hold one of
    /// these words, each named by the setting it stands for.
    Words(&'static [(&'static str, &'static str)]),
    /// A Vite configuration: the changed lines of its `test:` block (Vitest's settings).
    Vite,
    /// A Cargo build script: any change to one that sets a `cfg` (the condition above the
    /// `println!` decides as much as the line).
    BuildScript,
    /// pytest's own TOML file (`pytest.toml`, pytest 9): every key of `[pytest]`.
    PytestToml,
    /// A file whose presence alone steers the run (`pyvenv.cfg`: pytest collects nothing
    /// in its directory): counted by [`presence_changed`], whatever it holds.
    Marker,
    /// A Maven `pom.xml`: [`MAVEN`]'s switches on changed lines, and any changed line of the
    /// Surefire or Failsafe plugin's block (which tests it includes, excludes or skips).
    Maven,
    /// A Gradle build file: [`GRADLE`]'s settings on changed lines, and any changed line of
    /// the `test` task's block (`exclude`, `enabled = false`, filters).
    Gradle,
    /// A shell script that runs the tests for CI or a person (`scripts/test.sh`, anything
    /// under `ci/`): its changed lines that run the tests, as in a CI configuration.
    Script,
    /// A `go.mod` below the repository's root: adding or removing one moves a directory in
    /// or out of the module that `go test ./...` runs at the root.
    GoModule,
    /// A file under a `node_modules/` directory: what `require("expect.js")` loads from
    /// the test files below it (a stand-in of an assertion library, attack-35 R4a).
    NodeModule,
}

/// Maven's switches that skip the tests or ignore their failures.
const MAVEN: &[(&str, &str)] = &[
    ("skipTests", "skipTests"),
    ("maven.test.skip", "maven.test.skip"),
    ("testFailureIgnore", "testFailureIgnore"),
    ("maven.test.failure.ignore", "maven.test.failure.ignore"),
    ("skipITs", "skipITs"),
];

/// Gradle's test-task settings that ignore failures or select tests.
const GRADLE: &[(&str, &str)] = &[
    ("ignoreFailures", "ignoreFailures"),
    ("excludeTestsMatching", "excludeTestsMatching"),
    ("includeTestsMatching", "includeTestsMatching"),
    ("failOnNoMatchingTests", "failOnNoMatchingTests"),
    ("-x test", "-x test"),
];

/// A nox session's test command.
const NOX: &[(&str, &str)] = &[("pytest", "pytest"), ("unittest", "unittest")];

/// The name CI configurations give a changed test command (see [`ci_test_command`]).
const CI_COMMAND: &str = "CI test command";
const CI_MATRIX: &str = "CI test matrix";

/// CI settings that let a failing step pass, or pass the runner options.
const CI: &[(&str, &str)] = &[
    ("PYTEST_ADDOPTS", "PYTEST_ADDOPTS"),
    ("continue-on-error", "continue-on-error"),
    ("allow_failure", "allow_failure"),
    ("allow_failures", "allow_failures"),
];

/// Whether `path` is a CI configuration: a GitHub Actions workflow, GitLab CI, Travis,
/// Azure Pipelines, `CircleCI`, `AppVeyor`, Buildkite, a `Jenkinsfile`.
fn is_ci(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let yaml = std::path::Path::new(name)
        .extension()
        .is_some_and(|extension| {
            extension.eq_ignore_ascii_case("yml") || extension.eq_ignore_ascii_case("yaml")
        });
    (yaml && (path.starts_with(".github/workflows/") || path.starts_with(".buildkite/")))
        || matches!(
            name,
            ".gitlab-ci.yml"
                | ".travis.yml"
                | "azure-pipelines.yml"
                | "appveyor.yml"
                | ".appveyor.yml"
                | "Jenkinsfile"
        )
        || path == ".circleci/config.yml"
}

fn kind(path: &str) -> Option<Kind> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = match name.strip_prefix('.') {
        Some(hidden) => hidden.split('.').next().unwrap_or(hidden),
        None => name.split('.').next().unwrap_or(name),
    };
    if path
        .split('/')
        .rev()
        .skip(1)
        .any(|part| part == "node_modules")
    {
        return Some(Kind::NodeModule);
    }
    Some(match name {
        "pytest.ini" | ".pytest.ini" => Kind::Ini(&["pytest"]),
        "setup.cfg" => Kind::Ini(&["tool:pytest"]),
        "tox.ini" => Kind::Ini(&["tox", "pytest", "testenv", "testenv:*"]),
        "pyproject.toml" => Kind::PyProject,
        "Cargo.toml" => Kind::Cargo,
        "config.toml" | "config"
            if path.ends_with(".cargo/config.toml") || path.ends_with(".cargo/config") =>
        {
            Kind::CargoConfig
        }
        "build.rs" => Kind::BuildScript,
        "package.json" => Kind::PackageJson,
        "Makefile" | "makefile" | "GNUmakefile" => Kind::Makefile,
        "justfile" | "Justfile" | ".justfile" => Kind::Justfile,
        "pytest.toml" | ".pytest.toml" => Kind::PytestToml,
        "pyvenv.cfg" => Kind::Marker,
        "history" if path.ends_with("conda-meta/history") => Kind::Marker,
        "pom.xml" => Kind::Maven,
        "build.gradle" | "build.gradle.kts" => Kind::Gradle,
        "go.mod" if path.contains('/') => Kind::GoModule,
        "noxfile.py" => Kind::Words(NOX),
        _ if is_ci(path) => Kind::Words(CI),
        _ if stem == "vite" && name.contains(".config.") => Kind::Vite,
        _ if std::path::Path::new(name)
            .extension()
            .is_some_and(|extension| extension.eq_ignore_ascii_case("mk")) =>
        {
            Kind::Makefile
        }
        _ if matches!(
            stem,
            "jest" | "vitest" | "playwright" | "cypress" | "mocharc" | "karma"
        ) && (name.contains(".config.")
            || name.contains(".workspace.")
            || name.contains(".conf.")
            || name.starts_with(".mocharc.")) =>
        {
            // A sample under `example/` or `examples/` (mocha's `example/config/.mocharc.js`)
            // configures no run of the project's tests: the runners read their
            // configuration from where they start.
            if path
                .split('/')
                .rev()
                .skip(1)
                .any(|part| matches!(part, "example" | "examples"))
            {
                return None;
            }
            Kind::JsConfig
        }
        // A configuration another one loads (`module.exports = require('./jest.base')`,
        // `preset`): `jest.base.js`, `jest.shared.config.json`, `vitest.common.ts`.
        _ if matches!(stem, "jest" | "vitest")
            && name.matches('.').count() >= 2
            && name.rsplit_once('.').is_some_and(|(_, extension)| {
                matches!(
                    extension,
                    "js" | "cjs" | "mjs" | "ts" | "cts" | "mts" | "json"
                )
            }) =>
        {
            Kind::JsConfig
        }
        _ if is_test_script(path) => Kind::Script,
        _ => return None,
    })
}

/// Whether `path` is a shell script that runs tests: one named for them (a word of its name
/// is `test`, `tests`, `check`, `pytest`, `unittest` or `e2e`: `scripts/run-tests.sh`,
/// `test.sh`), or any script of a CI directory (`ci/`, `.ci/`, `.github/scripts/`,
/// `scripts/ci/`). A CI step that runs `./scripts/test.sh` reads the script, so the script's
/// test lines are the CI's.
fn is_test_script(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => (stem, Some(extension)),
        _ => (name, None),
    };
    let directory = &path[..path.len() - name.len()];
    // `directory` is `dir` or ends with `/dir`.
    let under = |dir: &str| {
        directory
            .strip_suffix(dir)
            .is_some_and(|parent| parent.is_empty() || parent.ends_with('/'))
    };
    let in_ci = ["ci/", ".ci/", ".github/scripts/", "scripts/ci/"]
        .into_iter()
        .any(under);
    let script = match extension {
        Some(extension) => matches!(extension, "sh" | "bash" | "zsh" | "ps1" | "bat" | "cmd"),
        // A script without extension: only where scripts live.
        None => {
            in_ci
                || ["scripts/", "script/", "bin/", "tools/"]
                    .into_iter()
                    .any(under)
        }
    };
    script && (in_ci || runs_tests(stem))
}

/// The setting a change counts when it adds or takes away the runner's configuration file
/// itself, whatever the file holds: pytest reads the first configuration file it finds
/// (`pytest.ini` even empty, `.pytest.ini`, `pytest.toml`, `.pytest.toml`, a
/// `[tool.pytest.ini_options]` table in `pyproject.toml`, `[pytest]` in `tox.ini`,
/// `[tool:pytest]` in `setup.cfg`) and Mocha the first `.mocharc.*`, so a new one that sets
/// nothing drops every setting of the one it shadows (helper-67's attack-58 S1-S6, M1, M2).
/// `old` and `new` are `None` for an absent side.
pub(crate) fn presence_changed(
    path: &str,
    old: Option<&[u8]>,
    new: Option<&[u8]>,
) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    // A directory pytest takes for a virtual environment it never collects from, at any
    // depth (helper-68's attack-59 V1, V2).
    if name == "pyvenv.cfg" || path.ends_with("conda-meta/history") {
        return (old.is_some() != new.is_some())
            .then(|| "a directory marked as a virtual environment pytest skips".to_owned());
    }
    // At the root or one directory down (`tests/pytest.ini`, read by `pytest tests`); one
    // deeper is a sample's or a test's input (`testing/example_scripts/pytest.ini`).
    if path.matches('/').count() > 1 {
        return None;
    }
    // A table's header however TOML and ini let it be spaced or quoted (`[ tool."pytest"
    // ]`, helper-69's review).
    let holds = |side: Option<&[u8]>, header: &[&[u8]]| {
        side.is_some_and(|text| {
            text.split(|&b| b == b'\n').any(|line| {
                let line = line.trim_ascii();
                if !line.starts_with(b"[") {
                    return false;
                }
                let end = line
                    .iter()
                    .position(|&b| b == b']')
                    .map_or(line.len(), |at| at + 1);
                let bare: Vec<u8> = line[..end]
                    .iter()
                    .copied()
                    .filter(|b| !matches!(b, b' ' | b'\t' | b'"' | b'\''))
                    .collect();
                header.iter().any(|header| bare == *header)
            })
        })
    };
    let (before, after) = match name {
        // A module named like the runner, which `python -m pytest` loads instead of it
        // (attack-59 W1).
        "pytest.ini" | ".pytest.ini" | "pytest.toml" | ".pytest.toml" | "pytest.py" => {
            (old.is_some(), new.is_some())
        }
        "pyproject.toml" => {
            // However TOML writes the table: a header, a dotted key, an inline table
            // (helper-70's attack-60 S2, S3); by its lines where the file does not parse.
            let header: &[&[u8]] = &[b"[tool.pytest]", b"[tool.pytest.ini_options]"];
            let pytest_table = |side: Option<&[u8]>| {
                let parsed = side
                    .and_then(|text| std::str::from_utf8(text).ok())
                    .and_then(toml_table);
                match parsed {
                    Some(table) => table
                        .get("tool")
                        .and_then(toml::Value::as_table)
                        .is_some_and(|tool| tool.contains_key("pytest")),
                    None => holds(side, header),
                }
            };
            (pytest_table(old), pytest_table(new))
        }
        "tox.ini" => (holds(old, &[b"[pytest]"]), holds(new, &[b"[pytest]"])),
        "setup.cfg" => (
            holds(old, &[b"[tool:pytest]"]),
            holds(new, &[b"[tool:pytest]"]),
        ),
        // The names Mocha reads (not `.mocharc.json5`, `.mocharc.JSON`).
        ".mocharc.js" | ".mocharc.cjs" | ".mocharc.yaml" | ".mocharc.yml" | ".mocharc.jsonc"
        | ".mocharc.json" => (old.is_some(), new.is_some()),
        _ => return None,
    };
    let what = if name == "pytest.py" {
        "a module named like the runner"
    } else {
        "configuration file"
    };
    (before != after).then(|| format!("{what} {}", if after { "added" } else { "removed" }))
}

/// Whether `path` names a file that configures a test runner.
pub(crate) fn is_config(path: &str) -> bool {
    kind(path).is_some()
}

/// The test settings and targets that differ between `old` and `new` (either may be empty
/// for an added or deleted file), each named once, in a stable order. `diff`, when given, is
/// the line diff of exactly these two buffers (the line counts'), so that a file is not
/// diffed again; without it, the settings read by line diff it once here.
pub(crate) fn changed<'a>(
    path: &str,
    old: &'a [u8],
    new: &'a [u8],
    diff: Option<&LineDiff<'a>>,
) -> Vec<String> {
    let Some(kind) = kind(path) else {
        return Vec::new();
    };
    let own = std::cell::OnceCell::new();
    let diff = || diff.unwrap_or_else(|| own.get_or_init(|| LineDiff::new(old, new)));
    let settings = |text: &[u8]| -> Option<BTreeMap<String, String>> {
        let text = std::str::from_utf8(text).ok()?;
        match kind {
            Kind::Ini(sections) => Some(ini(text, sections)),
            Kind::PyProject => pyproject(text),
            Kind::Cargo => cargo(text),
            Kind::CargoConfig => cargo_config(text),
            Kind::PackageJson => package_json(text),
            Kind::Makefile => Some(makefile(text, false)),
            Kind::Justfile => Some(makefile(text, true)),
            Kind::PytestToml => pytest_toml(text),
            Kind::JsConfig
            | Kind::Words(_)
            | Kind::Vite
            | Kind::BuildScript
            | Kind::Maven
            | Kind::Gradle
            | Kind::Script
            | Kind::GoModule
            | Kind::Marker
            | Kind::NodeModule => None,
        }
    };
    match kind {
        Kind::Cargo if !cargo_lines_may_matter(old, new, diff()) => return Vec::new(),
        Kind::JsConfig => return changed_keys(diff()),
        Kind::Words(words) => return changed_words(words, is_ci(path), old, new, diff()),
        Kind::Script => return changed_words(&[], true, old, new, diff()),
        Kind::Maven => {
            let mut keys = changed_words(MAVEN, false, old, new, diff());
            keys.extend(changed_plugin(diff(), MAVEN));
            return keys;
        }
        Kind::Gradle => {
            let mut keys = changed_words(GRADLE, false, old, new, diff());
            if changed_marked(diff(), gradle_test_task_lines, |line| {
                a_setting(line, GRADLE) && !line.starts_with(b"//")
            }) {
                keys.push("test task".to_owned());
            }
            return keys;
        }
        Kind::GoModule => {
            return if old.is_empty() == new.is_empty() {
                Vec::new()
            } else {
                vec!["module boundary".to_owned()]
            };
        }
        Kind::Marker => return Vec::new(),
        Kind::NodeModule => {
            return if old == new {
                Vec::new()
            } else {
                vec!["node_modules".to_owned()]
            };
        }
        Kind::Vite => return changed_block(b"test", diff()),
        Kind::BuildScript => {
            let sets_cfg = |side: &[u8]| memchr::memmem::find(side, b"rustc-cfg").is_some();
            return if old != new && (sets_cfg(old) || sets_cfg(new)) {
                vec!["cargo:rustc-cfg".to_owned()]
            } else {
                Vec::new()
            };
        }
        _ => {}
    }
    match (settings(old), settings(new)) {
        (Some(mut before), Some(mut after)) => {
            if matches!(kind, Kind::Ini(_)) {
                drop_tool_envs(&mut before, &mut after);
            }
            if matches!(kind, Kind::PyProject) {
                same_pytest_table(&mut before, &mut after);
            }
            let mut keys: Vec<String> = before
                .iter()
                .filter(|(key, value)| after.get(*key) != Some(value))
                .map(|(key, _)| key.clone())
                .collect();
            keys.extend(
                after
                    .keys()
                    .filter(|key| !before.contains_key(*key))
                    .cloned(),
            );
            keys.retain(|key| leaves_out_tests(key, before.get(key), after.get(key)));
            keys.sort();
            keys
        }
        _ => vec!["(file)".to_owned()],
    }
}

/// A `pyproject.toml` whose pytest settings moved from `[tool.pytest.ini_options]` to
/// `[tool.pytest]` (or back), one table on each side: the old side's keys are named as the
/// new side's table names them, so that a setting that kept its words is no change (pytest's
/// 8ab25002ba63 converted its own).
fn same_pytest_table(before: &mut BTreeMap<String, String>, after: &mut BTreeMap<String, String>) {
    const INI: &str = "[tool.pytest.ini_options] ";
    const NATIVE: &str = "[tool.pytest] ";
    let uses = |settings: &BTreeMap<String, String>, table: &str| {
        settings.keys().any(|key| key.starts_with(table))
    };
    let (from, to) = if uses(before, INI)
        && !uses(before, NATIVE)
        && uses(after, NATIVE)
        && !uses(after, INI)
    {
        (INI, NATIVE)
    } else if uses(before, NATIVE) && !uses(before, INI) && uses(after, INI) && !uses(after, NATIVE)
    {
        (NATIVE, INI)
    } else {
        return;
    };
    let moved: Vec<String> = before
        .keys()
        .filter(|key| key.starts_with(from))
        .cloned()
        .collect();
    for key in moved {
        if let Some(value) = before.remove(&key) {
            before.insert(format!("{to}{}", &key[from.len()..]), value);
        }
    }
}

/// The words of a setting's value that can change what runs, in order: quotes dropped
/// around a word the shell neither expands nor splits (`KARMA := "node_modules/.bin/karma"`
/// runs what the unquoted one ran, mocha's 8fe36a36c41a), the options that only change the
/// output left out ([`REPORTING`] with a reporter the runner ships: `--growl`, `--reporter
/// spec`; mocha's 57c7acc6ff41), and a line break kept as a word (another command), unless a
/// `\` continues the line.
fn run_words(value: &str, pytest_setting: bool) -> Vec<&str> {
    let raw: Vec<&str> = value
        .lines()
        .flat_map(|line| {
            let line = line.trim_end();
            let (line, end) = match line.strip_suffix('\\') {
                Some(continued) => (continued, None),
                None => (line, Some("\n")),
            };
            line.split_whitespace().chain(end)
        })
        .collect();
    let in_pytest = pytest_commands(&raw, pytest_setting);
    let mut words = Vec::new();
    let mut i = 0;
    while let Some(&word) = raw.get(i) {
        i += 1;
        // Not a word with a character the shell expands, splits at or acts on (a
        // pipe, `||`, a redirection: `-g "math|cat"` is a pattern, `-g math|cat` a
        // pipeline, attack-49 P8, P9).
        let plain = |inner: &str| {
            !inner.contains([
                '$', '`', '*', '?', '[', '{', '~', '\\', '|', '&', ';', '<', '>', '(', ')', '#',
                '!',
            ])
        };
        let word = word
            .strip_prefix('"')
            .and_then(|w| w.strip_suffix('"'))
            .or_else(|| word.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')))
            .filter(|inner| plain(inner))
            .unwrap_or(word);
        // `py.test` is pytest's old name for the same program (pytest's 0334e75c3088).
        let word = if word == "py.test" { "pytest" } else { word };
        let (option, value) = word.split_once('=').unwrap_or((word, ""));
        if reports(option, value, in_pytest[i - 1]) {
            if value.is_empty()
                && TAKES_VALUE.contains(&option)
                && raw
                    .get(i)
                    .is_some_and(|next| shipped(option, next.trim_matches(['"', '\''])))
            {
                i += 1;
            } else if value.is_empty() && TAKES_VALUE.contains(&option) {
                words.push(word);
            }
            continue;
        }
        words.push(word);
    }
    words
}

/// For each of a setting's `words`, whether it is part of a command that runs pytest: the
/// command's program (its first word that assigns no variable; the module of `python -m`)
/// is `pytest` or `py.test`, or the whole value is pytest's own options (`pytest_setting`:
/// a pytest section's `addopts`). Commands end at a line break, `;`, `&&`, `||` and `|`, so
/// the `-v` of `pytest && node -v check.js` is node's (helper-56's 3a-3c).
fn pytest_commands(words: &[&str], pytest_setting: bool) -> Vec<bool> {
    let mut in_pytest = Vec::with_capacity(words.len());
    let mut program: Option<&str> = None;
    let mut module_next = false;
    for &word in words {
        let word = word.trim_matches(['"', '\'']);
        if matches!(word, "\n" | ";" | "&&" | "||" | "|") {
            program = None;
            in_pytest.push(pytest_setting);
            continue;
        }
        if module_next {
            program = Some(word);
            module_next = false;
        } else if program.is_none() && (word.starts_with('-') || !word.contains('=')) {
            program = Some(word.rsplit('/').next().unwrap_or(word));
        } else if word == "-m" && matches!(program, Some("python" | "python3")) {
            module_next = true;
        }
        in_pytest.push(pytest_setting || matches!(program, Some("pytest" | "py.test")));
        if word.ends_with(';') {
            program = None;
        }
    }
    in_pytest
}

/// Whether `option` (with `value`, written `option=value`) only changes what a run prints:
/// one of [`REPORTING`], a reporter the runner ships, and `-v` only in a command that runs
/// pytest (`pytest` is `in_pytest`; for Jest, Vitest and node `-v` is `--version`: no test
/// runs).
fn reports(option: &str, value: &str, in_pytest: bool) -> bool {
    REPORTING.contains(&option)
        && (value.is_empty() || shipped(option, value))
        && (in_pytest || !matches!(option, "-v" | "-vv" | "-vvv"))
}

/// Whether `name` is a reporter the runner of `option` ships (`true` for an option that
/// names no reporter): a reporter of one's own is code that can end the run with success.
fn shipped(option: &str, name: &str) -> bool {
    match option {
        "--reporter" | "-R" => BUILT_IN.contains(&name),
        "--reporters" => JEST_BUILT_IN.contains(&name),
        _ => true,
    }
}

/// Whether a changed setting can change which tests build or run: a workspace member
/// removed or a package excluded (one added builds more tests), and compiler flags that
/// set a `cfg` or the checks tests rely on (`--cfg`, `debug-assertions`, `overflow-checks`,
/// `panic`); static linking or a target CPU does not.
/// What follows the `name` of a `package.json` with `exports` in its settings (`package
/// name`).
const EXPORTS: &str = "\0exports";

/// Whether a `package.json`'s `name` setting changed so that the package loads itself under
/// a name it did not: the new side has `exports` and another name. `exports` added or
/// removed under the same name (mocha's 3031567913b5, c32a696f0963), or a package renamed
/// without them, changes what no test loads by name.
fn self_reference(before: Option<&String>, after: Option<&String>) -> bool {
    let name = |side: Option<&String>| {
        side.map(|value| value.strip_suffix(EXPORTS).unwrap_or(value).to_owned())
    };
    after.is_some_and(|value| value.ends_with(EXPORTS)) && name(before) != name(after)
}

fn leaves_out_tests(key: &str, before: Option<&String>, after: Option<&String>) -> bool {
    if key == "package name" {
        return self_reference(before, after);
    }
    // pytest's marker registrations and its minimum version select no test: a marker
    // registered is a name declared (pytest's 0025e4408f51), and one no longer registered
    // fails the run under `--strict-markers` rather than passing it.
    let pytest_section = [
        "[pytest] ",
        "[tool:pytest] ",
        "[tool.pytest] ",
        "[tool.pytest.ini_options] ",
    ]
    .iter()
    .any(|section| key.starts_with(section));
    if pytest_section && (key.ends_with("] markers") || key.ends_with("] minversion")) {
        return false;
    }
    // The settings hold each value as TOML writes it (`["a", "b"]`).
    let entries = |value: Option<&String>| -> Vec<String> {
        value
            .and_then(|value| format!("v = {value}").parse::<toml::Table>().ok())
            .and_then(|mut table| table.remove("v"))
            .and_then(|value| value.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .map(|entry| {
                entry
                    .as_str()
                    .map_or_else(|| entry.to_string(), str::to_owned)
            })
            .collect()
    };
    let gone = |from: Option<&String>, to: Option<&String>| {
        let to = entries(to);
        entries(from).iter().any(|entry| !to.contains(entry))
    };
    if key == "[workspace] members" {
        return gone(before, after);
    }
    if key == "[workspace] exclude" {
        return gone(after, before);
    }
    if key.ends_with(" rustflags") || key.ends_with(" rustdocflags") {
        let sets_checks = |value: Option<&String>| {
            value.is_some_and(|value| {
                [
                    "cfg",
                    "debug-assertions",
                    "overflow-checks",
                    "panic",
                    "test",
                ]
                .iter()
                .any(|word| value.contains(word))
            })
        };
        return sets_checks(before) || sets_checks(after);
    }
    !only_reporting_changed(before, after, pytest_section)
}

/// Options that take their value as the next word.
const TAKES_VALUE: &[&str] = &[
    "--reporter",
    "-R",
    "--reporters",
    "--reporter-options",
    "--tb",
    "--cov-report",
    "--junitxml",
    "--junit-xml",
    "--durations",
];
/// Options that only change the output (also written `--option=value`).
const REPORTING: &[&str] = &[
    "--growl",
    "--inline-diffs",
    "--full-trace",
    "--reporter",
    "-R",
    "--reporters",
    "--reporter-options",
    "--tb",
    "--cov-report",
    "--junitxml",
    "--junit-xml",
    "--durations",
    "--durations-min",
    "--color",
    "--colors",
    "--colour",
    "--no-color",
    "--no-colors",
    "--verbose",
    "--quiet",
    "--silent",
    "--no-header",
    "--no-summary",
    "--showlocals",
    "-v",
    "-vv",
    "-vvv",
    "-q",
    "-qq",
];
/// The reporters Mocha and Vitest ship, which `--reporter`/`-R` name before any module
/// (a reporter of one's own is code that can exit 0).
const BUILT_IN: &[&str] = &[
    "spec",
    "dot",
    "nyan",
    "tap",
    "landing",
    "list",
    "progress",
    "json",
    "json-stream",
    "min",
    "doc",
    "markdown",
    "xunit",
    "html",
    "default",
    "summary",
    "verbose",
    "github-actions",
    "junit",
    "basic",
    "dots",
];

/// The reporters Jest ships: any other name after `--reporters` is a module it loads,
/// `dot` included.
const JEST_BUILT_IN: &[&str] = &["default", "verbose", "summary", "github-actions"];

/// Whether `word` (after `previous`) is an option of a coverage report that only shapes
/// it: `-m`, `--show-missing`, `--skip-covered`, `--sort=…`, `-d out` (not `--fail-under`,
/// which fails the run, nor `--rcfile`, which may set it).
fn coverage_output(word: &str, previous: Option<&str>) -> bool {
    const OPTIONS: &[&str] = &[
        "-m",
        "--show-missing",
        "--skip-covered",
        "--no-skip-covered",
        "--skip-empty",
        "--pretty-print",
        "-q",
        "--quiet",
        "-i",
        "--ignore-errors",
    ];
    const WITH_VALUE: &[&str] = &[
        "-d",
        "--directory",
        "-o",
        "--sort",
        "--format",
        "--precision",
        "--title",
    ];
    let option = word.split_once('=').map_or(word, |(option, _)| option);
    OPTIONS.contains(&word)
        || (word.contains('=') && WITH_VALUE.contains(&option))
        || (!word.starts_with('-')
            && previous.is_some_and(|previous| WITH_VALUE.contains(&previous)))
        || WITH_VALUE.contains(&word)
}

/// Whether two values of a setting differ only in options that change what a runner
/// prints, not which tests run or whether they pass: pytest's `-ra` for `-rfEX`, `--tb`,
/// `-v`, `-q`, `--color`, `--durations`, `--junitxml`, `--cov-report`; Mocha's and Jest's
/// `--reporter dot`, `-R spec`, `--reporters`, `--silent`, `--verbose`.
fn only_reporting_changed(
    before: Option<&String>,
    after: Option<&String>,
    pytest_setting: bool,
) -> bool {
    let (Some(before), Some(after)) = (before, after) else {
        return false;
    };
    // `-v` is pytest's verbosity, but Jest's, Vitest's and node's `--version`: it prints a
    // version and exits with success, running no test. It only reports in a command that
    // runs pytest ([`pytest_commands`]).
    // The same words in the same order, once quotes and output options are read.
    if run_words(before, pytest_setting) == run_words(after, pytest_setting) {
        return true;
    }
    // Each side's words, and whether each only changes the output.
    // A line's words: a coverage report command's are all output (`coverage report -m`,
    // `coverage html`), but for a threshold that fails the run (`--fail-under`).
    let line_words = |line: &str| -> Vec<(String, bool)> {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .map(|word| word.trim_matches(['"', '\'', '[', ']']))
            .filter(|word| !word.is_empty())
            .collect();
        let in_pytest = pytest_commands(&words, pytest_setting);
        // Which words are a coverage report's own (`coverage report -m`, `coverage html
        // -d out`): from `coverage report|html|xml|json|lcov` on, the options that only
        // shape the report, up to any other word (another command, `&&`, a threshold).
        let mut in_report = vec![false; words.len()];
        let mut reporting = false;
        for (i, word) in words.iter().enumerate() {
            if *word == "coverage" {
                reporting = words.get(i + 1).is_some_and(|command| {
                    matches!(*command, "report" | "html" | "xml" | "json" | "lcov")
                });
            } else if reporting
                && !matches!(*word, "report" | "html" | "xml" | "json" | "lcov")
                && !coverage_output(word, i.checked_sub(1).map(|at| words[at]))
            {
                reporting = false;
            }
            in_report[i] = reporting;
        }
        words
            .iter()
            .enumerate()
            .map(|(i, word)| {
                if in_report[i] {
                    return ((*word).to_owned(), true);
                }
                let (option, value) = word.split_once('=').unwrap_or((word, ""));
                let pytest_report = word.strip_prefix("-r").is_some_and(|chars| {
                    !chars.is_empty() && chars.chars().all(|c| "fEsxXpPaAwN".contains(c))
                });
                let previous = i.checked_sub(1).map(|at| words[at]);
                let value_of = previous.is_some_and(|previous| {
                    TAKES_VALUE.contains(&previous) && shipped(previous, word)
                });
                let option_ok = reports(option, value, in_pytest[i]);
                ((*word).to_owned(), option_ok || pytest_report || value_of)
            })
            .collect()
    };
    let words =
        |value: &str| -> Vec<(String, bool)> { value.lines().flat_map(&line_words).collect() };
    let (old, new) = (words(before), words(after));
    // Words are compared with what they are (`-m` of `coverage report -m` is not the `-m`
    // of `coverage run -m pytest`).
    let count = |side: &[(String, bool)], word: &(String, bool)| {
        side.iter().filter(|other| *other == word).count()
    };
    let differs = |from: &[(String, bool)], to: &[(String, bool)]| -> Vec<bool> {
        from.iter()
            .filter(|word| count(from, word) > count(to, word))
            .map(|&(_, reporting)| reporting)
            .collect()
    };
    let changed: Vec<bool> = differs(&old, &new)
        .into_iter()
        .chain(differs(&new, &old))
        .collect();
    // The other words in the same order: a reordering beside an output option changes what
    // runs (`-k "add or not sub"` made `-v -k "sub or not add"`, tox's `-` moved onto the
    // pytest line: attack-49 P1-P3).
    let running = |side: &[(String, bool)]| -> Vec<String> {
        side.iter()
            .filter(|(_, reporting)| !reporting)
            .map(|(word, _)| word.clone())
            .collect()
    };
    !changed.is_empty()
        && changed.iter().all(|&reporting| reporting)
        && running(&old) == running(&new)
}

/// The keys of the sections named in `sections` of an INI file, `[section] key`.
fn ini(text: &str, sections: &[&str]) -> BTreeMap<String, String> {
    let mut settings = BTreeMap::new();
    let mut section: Option<String> = None;
    let mut key: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            let name = name.trim();
            let wanted = sections
                .iter()
                .any(|wanted| match wanted.strip_suffix('*') {
                    Some(prefix) => name.starts_with(prefix),
                    None => name == *wanted,
                });
            section = wanted.then(|| name.to_owned());
            key = None;
            continue;
        }
        let Some(section) = &section else { continue };
        let continued = line.starts_with([' ', '\t']);
        if continued {
            if let Some(key) = &key
                && let Some(value) = settings.get_mut(key)
            {
                let value: &mut String = value;
                value.push('\n');
                value.push_str(trimmed);
            }
            continue;
        }
        let (name, value) = trimmed
            .split_once(['=', ':'])
            .map_or((trimmed, ""), |(name, value)| (name.trim(), value.trim()));
        // An environment's commands (and those run before and after them, and the
        // directory they run in: attack-49 P10), its runner variables, and the settings that
        // let its failures pass (`ignore_outcome`, `ignore_errors`) or skip it (`platform`).
        if section.starts_with("testenv")
            && !matches!(
                name,
                "commands"
                    | "commands_pre"
                    | "commands_post"
                    | "changedir"
                    | "change_dir"
                    | "setenv"
                    | "set_env"
                    | "ignore_outcome"
                    | "ignore_errors"
                    | "platform"
            )
        {
            key = None;
            continue;
        }
        // tox's own settings that choose no environment and no test: where packages come
        // from and where tox works (pytest's 4a08ee2b7480 changed `indexserver`).
        if section == "tox"
            && matches!(
                name,
                "indexserver"
                    | "minversion"
                    | "min_version"
                    | "toxworkdir"
                    | "work_dir"
                    | "temp_dir"
                    | "distshare"
                    | "isolated_build"
                    | "isolated_build_env"
                    | "package_env"
            )
        {
            key = None;
            continue;
        }
        let full = format!("[{section}] {name}");
        settings.insert(full.clone(), value.to_owned());
        key = Some(full);
    }
    // Of an environment's variables, those the runner reads its options from
    // (`PYTEST_ADDOPTS = -k "not slow"`); `PYTHONWARNINGS` or a coverage file are no test
    // setting. Each is compared on its own.
    let variables: Vec<String> = settings
        .keys()
        .filter(|key| key.ends_with("] setenv") || key.ends_with("] set_env"))
        .cloned()
        .collect();
    for key in variables {
        let Some(value) = settings.remove(&key) else {
            continue;
        };
        for line in value.lines() {
            let (name, value) = line.split_once('=').unwrap_or((line, ""));
            let name = name.trim();
            if runner_variable(name) {
                settings.insert(format!("{key} {name}"), value.trim().to_owned());
            }
        }
    }
    settings
}

/// Whether an environment variable sets a test runner's options or plugins:
/// `PYTEST_ADDOPTS`, `PYTEST_PLUGINS`, `PYTEST_DISABLE_PLUGIN_AUTOLOAD`, `NODE_OPTIONS`
/// holds none of them, `JEST_…`, `MOCHA_…`, `RUST_TEST_THREADS` and `GOFLAGS` do; so do
/// `PYTHONPATH` and `NODE_PATH`, which choose the code the tests import (a stub put first,
/// attack-49 P10c).
fn runner_variable(name: &str) -> bool {
    let name = name.to_ascii_uppercase();
    [
        "PYTEST_",
        "JEST_",
        "MOCHA_",
        "VITEST_",
        "RUST_TEST_",
        "NEXTEST_",
    ]
    .iter()
    .any(|prefix| name.starts_with(prefix))
        || matches!(
            name.as_str(),
            "GOFLAGS" | "UNITTEST_ARGS" | "PYTHONPATH" | "NODE_PATH"
        )
}

/// Drops the `commands` and variables of the named tox environments (`[testenv:…]`) that
/// run no test runner on either side: `coverage combine`, `codecov`, `pip-compile -U tests.in`. A
/// command runs tests when one of its words is a runner (`pytest`, `python -m unittest`,
/// `setup.py test`, `nosetests`, `trial`), a path to one (`{envbindir}/pytest`) or one of
/// its plugins' names (`pytest-…`). The default `[testenv]` always counts.
fn drop_tool_envs(before: &mut BTreeMap<String, String>, after: &mut BTreeMap<String, String>) {
    const RUNNERS: &[&str] = &[
        "pytest",
        "py.test",
        "unittest",
        "test",
        "nose",
        "nose2",
        "nosetests",
        "trial",
        "green",
        "stestr",
    ];
    let runs_tests = |value: Option<&String>| {
        value.is_some_and(|value| {
            value.to_ascii_lowercase().split_whitespace().any(|word| {
                let name = word.rsplit('/').next().unwrap_or(word);
                RUNNERS.contains(&name) || name.starts_with("pytest")
            })
        })
    };
    let keys: Vec<String> = before
        .keys()
        .chain(after.keys())
        .filter(|key| key.starts_with("[testenv:"))
        .cloned()
        .collect();
    for key in keys {
        // An environment's variables count when its commands run tests.
        let section = key
            .split_once("] ")
            .map_or(key.as_str(), |(section, _)| section);
        let commands = format!("{section}] commands");
        if !runs_tests(before.get(&commands)) && !runs_tests(after.get(&commands)) {
            before.remove(&key);
            after.remove(&key);
        }
    }
}

/// Tools whose tox environments run no tests whatever follows their name.
const NEVER_TESTS: &[&str] = &[
    "docs",
    "doc",
    "lint",
    "linting",
    "style",
    "typing",
    "mypy",
    "pyright",
    "flake8",
    "pylint",
    "ruff",
    "format",
    "fmt",
    "pre-commit",
    "precommit",
    "release",
    "publish",
    "upload",
    "manifest",
    "readme",
    "linkcheck",
    "spell",
    "spelling",
    "changelog",
    "typecheck",
    "types",
];

/// Tools whose tox environments may also run tests under another factor (`build-all`,
/// `dev-fast`); on their own, or with other tools' factors, they are tools.
const OTHER_TOOLS: &[&str] = &[
    "pep8", "black", "isort", "build", "dev", "devenv", "venv", "clean", "bump", "checkqa", "qa",
];

/// Whether a tox environment (or a list of them) runs tools rather than the tests: `docs`,
/// `lint`, `style,typing` (every factor of each name a tool), `publish-gh-release-notes`
/// (a first factor in [`NEVER_TESTS`] and no other that names a Python version or tests);
/// not `py312-docs`, `docs-tests`, `dev-fast`.
fn tool_env(env: &str) -> bool {
    let tool = |name: &str| NEVER_TESTS.contains(&name) || OTHER_TOOLS.contains(&name);
    // A factor that may run the tests: a Python version, `test`, `unit`, `cov`.
    let tests_factor = |factor: &str| {
        [
            "py",
            "test",
            "unit",
            "integration",
            "func",
            "cov",
            "e2e",
            "smoke",
            "check",
            "ci",
        ]
        .iter()
        .any(|start| factor.starts_with(start))
            || factor.chars().all(|c| c.is_ascii_digit() || c == '.')
    };
    env.split([',', ' '])
        .filter(|env| !env.is_empty())
        .all(|env| {
            let factors = || env.split('-');
            tool(env)
            || factors().all(&tool)
            // `publish-gh-release-notes`, `prepare-release-pr`: a tool that never runs the
            // tests, and no factor that may (not `dev-fast`, `build-all`, `release-py312`).
            || (factors().any(|factor| NEVER_TESTS.contains(&factor))
                && factors().all(|factor| tool(factor) || !tests_factor(factor)))
        })
}

/// A TOML document as a table, `None` where it does not parse.
pub(crate) fn toml_table(text: &str) -> Option<toml::Table> {
    toml::from_str::<toml::Table>(text).ok()
}

/// `[tool.pytest.ini_options]` and `[tool.pytest]` keys of a `pyproject.toml`.
fn pyproject(text: &str) -> Option<BTreeMap<String, String>> {
    let table = toml_table(text)?;
    let mut settings = BTreeMap::new();
    if let Some(pytest) = table
        .get("tool")
        .and_then(|tool| tool.get("pytest"))
        .and_then(toml::Value::as_table)
    {
        // pytest 9 reads `[tool.pytest]` with native types where `[tool.pytest.ini_options]`
        // held the ini file's strings: a list of strings is its words (`addopts = "-ra -p
        // x"` is `addopts = ["-ra", "-p", "x"]`), and [`same_pytest_table`] lines the two
        // tables up when a change moves from one to the other.
        let words = |value: &toml::Value| match value {
            toml::Value::String(text) => text.clone(),
            toml::Value::Array(items) if items.iter().all(toml::Value::is_str) => items
                .iter()
                .filter_map(toml::Value::as_str)
                .collect::<Vec<_>>()
                .join(" "),
            _ => value.to_string(),
        };
        for (key, value) in pytest {
            match (key.as_str(), value.as_table()) {
                ("ini_options", Some(options)) => {
                    for (key, value) in options {
                        settings.insert(format!("[tool.pytest.ini_options] {key}"), words(value));
                    }
                }
                _ => {
                    settings.insert(format!("[tool.pytest] {key}"), words(value));
                }
            }
        }
    }
    let tool = table.get("tool").and_then(toml::Value::as_table);
    // Task runners' test scripts: Hatch's environments (and all of its `hatch-test`
    // environment, which `hatch test` runs), PDM's scripts, poethepoet's and taskipy's tasks.
    let scripts = |table: Option<&toml::Value>, section: &str, settings: &mut BTreeMap<_, _>| {
        for (name, script) in table.and_then(toml::Value::as_table).into_iter().flatten() {
            if runs_tests(name) || names_a_runner(&script.to_string()) {
                settings.insert(format!("[{section}] {name}"), script.to_string());
            }
        }
    };
    if let Some(envs) = tool
        .and_then(|tool| tool.get("hatch"))
        .and_then(|hatch| hatch.get("envs"))
        .and_then(toml::Value::as_table)
    {
        for (env, config) in envs {
            if env == "hatch-test" {
                for (key, value) in config.as_table().into_iter().flatten() {
                    settings.insert(
                        format!("[tool.hatch.envs.hatch-test] {key}"),
                        value.to_string(),
                    );
                }
                continue;
            }
            let section = format!("tool.hatch.envs.{env}.scripts");
            scripts(config.get("scripts"), &section, &mut settings);
            // The variables the runner reads its options from (`PYTEST_ADDOPTS`).
            let variables = config.get("env-vars").and_then(toml::Value::as_table);
            for (name, value) in variables.into_iter().flatten() {
                if runner_variable(name) {
                    settings.insert(
                        format!("[tool.hatch.envs.{env}.env-vars] {name}"),
                        value.to_string(),
                    );
                }
            }
        }
    }
    let tool_table = |name: &str, key: &str| {
        tool.and_then(|tool| tool.get(name))
            .and_then(|table| table.get(key))
    };
    scripts(
        tool_table("pdm", "scripts"),
        "tool.pdm.scripts",
        &mut settings,
    );
    scripts(tool_table("poe", "tasks"), "tool.poe.tasks", &mut settings);
    scripts(
        tool_table("taskipy", "tasks"),
        "tool.taskipy.tasks",
        &mut settings,
    );
    Some(settings)
}

/// Whether a script's text runs a Python test runner (`pytest`, `python -m unittest`,
/// `nox`, `tox`).
fn names_a_runner(script: &str) -> bool {
    script
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '[' | ']' | ','))
        .any(|word| {
            let word = word.rsplit('/').next().unwrap_or(word);
            matches!(
                word,
                "pytest" | "py.test" | "unittest" | "nox" | "tox" | "nose2"
            )
        })
}

/// Copies the values of `keys` that `table` (a TOML table, when present) sets into
/// `settings`, each named `section key`.
fn copy_keys(
    table: Option<&toml::Value>,
    section: &str,
    keys: &[&str],
    settings: &mut BTreeMap<String, String>,
) {
    for key in keys {
        if let Some(value) = table.and_then(|table| table.get(*key)) {
            settings.insert(format!("{section} {key}"), value.to_string());
        }
    }
}

/// The profile settings that change what a test build checks: all of `[profile.test]`,
/// and `debug-assertions` and `overflow-checks` of `[profile.dev]` (which the test profile
/// inherits).
fn profiles(table: &toml::Table, settings: &mut BTreeMap<String, String>) {
    let Some(profiles) = table.get("profile").and_then(toml::Value::as_table) else {
        return;
    };
    if let Some(test) = profiles.get("test").and_then(toml::Value::as_table) {
        for (key, value) in test {
            settings.insert(format!("[profile.test] {key}"), value.to_string());
        }
    }
    let checks = ["debug-assertions", "overflow-checks"];
    let dev = profiles.get("dev");
    copy_keys(dev, "[profile.dev]", &checks, settings);
    // The same per package (`[profile.dev.package.x]`, `[profile.dev.package."*"]`).
    for (package, config) in dev
        .and_then(|dev| dev.get("package"))
        .and_then(toml::Value::as_table)
        .into_iter()
        .flatten()
    {
        let section = format!("[profile.dev.package.{package}]");
        copy_keys(Some(config), &section, &checks, settings);
    }
}

/// The flags and runners of a `.cargo/config.toml`: `rustflags` can set a `cfg` that
/// compiles tests out, and a `runner` decides what runs the test binaries (`runner =
/// "true"` runs none).
fn cargo_config(text: &str) -> Option<BTreeMap<String, String>> {
    let table = toml_table(text)?;
    let mut settings = BTreeMap::new();
    let keys = ["rustflags", "rustdocflags", "runner", "linker"];
    // What compiles and links the tests, and for which target.
    let build = [
        keys.as_slice(),
        &[
            "rustc",
            "rustc-wrapper",
            "rustc-workspace-wrapper",
            "target",
        ],
    ]
    .concat();
    copy_keys(table.get("build"), "[build]", &build, &mut settings);
    for (target, config) in table
        .get("target")
        .and_then(toml::Value::as_table)
        .into_iter()
        .flatten()
    {
        copy_keys(
            Some(config),
            &format!("[target.{target}]"),
            &keys,
            &mut settings,
        );
    }
    profiles(&table, &mut settings);
    Some(settings)
}

/// The test switches of a `Cargo.toml`'s targets, and its `[[test]]` targets.
fn cargo(text: &str) -> Option<BTreeMap<String, String>> {
    let table = toml_table(text)?;
    let mut settings = BTreeMap::new();
    copy_keys(
        table.get("package"),
        "[package]",
        CARGO_PACKAGE_KEYS,
        &mut settings,
    );
    let switches = ["test", "doctest", "harness"];
    // Where the library is and what it builds decide whether its tests and doctests build
    // at all.
    let lib = [switches.as_slice(), &["path", "crate-type", "proc-macro"]].concat();
    copy_keys(table.get("lib"), "[lib]", &lib, &mut settings);
    if settings
        .get("[lib] path")
        .is_some_and(|path| path == "\"src/lib.rs\"")
    {
        settings.remove("[lib] path");
    }
    let own_defaults = default_features(&table);
    if !own_defaults.is_empty() {
        settings.insert("[features] default".to_owned(), own_defaults.join(", "));
    }
    // Which packages a workspace builds and tests.
    let workspace = ["members", "exclude", "default-members"];
    copy_keys(
        table.get("workspace"),
        "[workspace]",
        &workspace,
        &mut settings,
    );
    profiles(&table, &mut settings);
    for targets in ["bin", "example", "bench"] {
        for target in table
            .get(targets)
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = target
                .get("name")
                .and_then(toml::Value::as_str)
                .unwrap_or("?");
            // A target's tests build only where it does: its path and required features. A
            // path Cargo would find the target at anyway is no setting.
            let keys = [switches.as_slice(), &["path", "required-features"]].concat();
            let section = format!("[[{targets}]] {name}");
            copy_keys(Some(target), &section, &keys, &mut settings);
            let path_key = format!("{section} path");
            let directory = match targets {
                "bin" => "src/bin",
                "example" => "examples",
                _ => "benches",
            };
            let default_paths = [
                format!("\"{directory}/{name}.rs\""),
                format!("\"{directory}/{name}/main.rs\""),
            ];
            if settings.get(&path_key).is_some_and(|path| {
                default_paths.contains(path) || (targets == "bin" && path == "\"src/main.rs\"")
            }) {
                settings.remove(&path_key);
            }
        }
    }
    for target in table
        .get("test")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = target
            .get("name")
            .and_then(toml::Value::as_str)
            .unwrap_or("?");
        settings.insert(format!("[[test]] {name}"), target.to_string());
    }
    Some(settings)
}

/// The test scripts and runner settings of a `package.json`. One that does not parse
/// (a trailing comma, a comment) is read line by line ([`package_json_lines`]): npm cannot
/// run it either, and what its test lines say is still what a fix would run.
fn package_json(text: &str) -> Option<BTreeMap<String, String>> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return Some(package_json_lines(text));
    };
    let object = value.as_object()?;
    let mut settings = BTreeMap::new();
    if let Some(scripts) = object.get("scripts").and_then(serde_json::Value::as_object) {
        // The test scripts, and the scripts they run by name (`"test": "npm run unit"`,
        // `run-s lint unit`), through any number of steps.
        let mut reached: Vec<&str> = scripts
            .keys()
            .map(String::as_str)
            .filter(|name| {
                *name == "test"
                    || name.starts_with("test:")
                    || *name == "pretest"
                    || *name == "posttest"
            })
            .collect();
        let mut next = 0;
        while let Some(name) = reached.get(next).copied() {
            next += 1;
            let Some(script) = scripts.get(name).and_then(serde_json::Value::as_str) else {
                continue;
            };
            for called in scripts_called(script) {
                if let Some((known, _)) = scripts.get_key_value(called)
                    && !reached.contains(&known.as_str())
                {
                    reached.push(known);
                }
            }
        }
        for name in reached {
            if let Some(script) = scripts.get(name) {
                settings.insert(format!("scripts.{name}"), script.to_string());
            }
        }
    }
    for key in ["jest", "mocha", "ava", "vitest"] {
        if let Some(value) = object.get(key) {
            settings.insert(key.to_owned(), value.to_string());
        }
    }
    // What `require("#assert")` loads, in the tests as anywhere (helper-64's attack-56
    // J12: `#assert` remapped to a module that checks nothing).
    if let Some(value) = object.get("imports") {
        settings.insert("imports".to_owned(), value.to_string());
    }
    // `$npm_package_config_spec` in a test script reads `config.spec` (helper-68's
    // attack-59 N1).
    if settings
        .iter()
        .any(|(key, script)| key.starts_with("scripts.") && script.contains("npm_package_config_"))
        && let Some(value) = object.get("config")
    {
        settings.insert("config".to_owned(), value.to_string());
    }
    // A test library installed from the repository itself (`"chai": "file:vendor/chai"`) is
    // code of the change's, not the library (attack-59 L2); a version bump is no test change.
    for table in ["dependencies", "devDependencies", "optionalDependencies"] {
        let Some(dependencies) = object.get(table).and_then(serde_json::Value::as_object) else {
            continue;
        };
        for (name, spec) in dependencies {
            if TEST_LIBRARIES.contains(&name.as_str()) || name.starts_with("@jest/") {
                let spec = spec.as_str().unwrap_or_default();
                let local = ["file:", "link:", "portal:", "./", "../", "/"]
                    .iter()
                    .any(|prefix| spec.starts_with(prefix));
                if local {
                    settings.insert(format!("dependency {name}"), spec.to_owned());
                }
            }
        }
    }
    // A package with `exports` is loaded under its own name: named `expect.js`, it is what
    // the tests' `require("expect.js")` loads (attack-35 R4b). Its name is kept with
    // whether it has them ([`self_reference`]).
    if let Some(name) = object.get("name") {
        let exports = if object.contains_key("exports") {
            EXPORTS
        } else {
            ""
        };
        settings.insert("package name".to_owned(), format!("{name}{exports}"));
    }
    Some(settings)
}

/// Test runners and assertion libraries, by their package names.
const TEST_LIBRARIES: &[&str] = &[
    "mocha",
    "jest",
    "vitest",
    "jasmine",
    "ava",
    "tap",
    "chai",
    "should",
    "expect",
    "expect.js",
    "assert",
    "power-assert",
    "sinon",
    "uvu",
    "qunit",
    "karma",
    "supertest",
    "node:test",
];

/// The script names a package script runs by name: the word after `npm run`,
/// `npm run-script`, `yarn [run]`, `pnpm [run]`, `bun run`, and every word after `run-s`,
/// `run-p` or `npm-run-all` (their options aside). Other words are left for the caller to
/// match against the scripts that exist.
fn scripts_called(script: &str) -> Vec<&str> {
    let mut called = Vec::new();
    for command in script.split(['&', ';', '|']) {
        let words: Vec<&str> = command
            .split_whitespace()
            .map(|word| word.trim_matches(['"', '\'']))
            .collect();
        let mut i = 0;
        while i < words.len() {
            match words[i] {
                "npm" | "pnpm" | "bun" | "yarn" => {
                    let mut j = i + 1;
                    while words.get(j).is_some_and(|word| word.starts_with('-')) {
                        j += 1;
                    }
                    if matches!(words.get(j).copied(), Some("run" | "run-script")) {
                        j += 1;
                        while words.get(j).is_some_and(|word| word.starts_with('-')) {
                            j += 1;
                        }
                    }
                    if let Some(word) = words.get(j) {
                        called.push(*word);
                    }
                    i = j;
                }
                "run-s" | "run-p" | "npm-run-all" | "npm-run-all2" => {
                    called.extend(words[i + 1..].iter().filter(|word| !word.starts_with('-')));
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    called
}

/// The test settings of a `package.json` that does not parse, by its lines: a line whose
/// key is a test script (`"test": …`, `"test:unit": …`, `"pretest"`, `"posttest"`) is that
/// script; a line that opens a runner's own block (`"jest": {`) names the block, with every
/// line up to the one that closes it. A change to any other line is no test setting.
fn package_json_lines(text: &str) -> BTreeMap<String, String> {
    let mut settings = BTreeMap::new();
    let mut block: Option<(String, i64)> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some((name, depth)) = &mut block {
            let name = name.clone();
            *depth += brace_balance(trimmed);
            let closed = *depth <= 0;
            if let Some(value) = settings.get_mut(&name) {
                let value: &mut String = value;
                value.push('\n');
                value.push_str(trimmed);
            }
            if closed {
                block = None;
            }
            continue;
        }
        let Some(rest) = trimmed.strip_prefix('"') else {
            continue;
        };
        let Some((key, value)) = rest.split_once('"') else {
            continue;
        };
        let Some(value) = value.trim_start().strip_prefix(':') else {
            continue;
        };
        let value = value.trim().trim_end_matches(',').trim();
        if key == "test" || key.starts_with("test:") || key == "pretest" || key == "posttest" {
            settings.insert(format!("scripts.{key}"), value.to_owned());
        } else if matches!(key, "jest" | "mocha" | "ava" | "vitest") {
            settings.insert(key.to_owned(), value.to_owned());
            let depth = brace_balance(value);
            if depth > 0 {
                block = Some((key.to_owned(), depth));
            }
        }
    }
    settings
}

/// `{` and `[` opened minus closed on a line (strings are not told apart: a rough count for
/// a file that does not parse).
fn brace_balance(line: &str) -> i64 {
    line.chars()
        .map(|c| match c {
            '{' | '[' => 1,
            '}' | ']' => -1,
            _ => 0,
        })
        .sum()
}

/// A Makefile's targets whose name holds `test`, and `check`: the rule line and its recipe;
/// and the targets they lead to that run a test command (`test: run-suite` with `run-suite:`
/// running `pytest`, or a recipe line `$(MAKE) unit`), through any number of steps.
fn makefile(text: &str, spaces: bool) -> BTreeMap<String, String> {
    // Every rule: (prerequisites, recipe), by target.
    let mut rules: BTreeMap<&str, (String, String)> = BTreeMap::new();
    let mut current: Vec<&str> = Vec::new();
    for line in text.lines() {
        if line.starts_with('\t') || (spaces && line.starts_with(' ')) {
            for target in &current {
                if let Some((_, recipe)) = rules.get_mut(target) {
                    recipe.push('\n');
                    recipe.push_str(line);
                }
            }
            continue;
        }
        current.clear();
        let Some((targets, prerequisites)) = line.split_once(':') else {
            continue;
        };
        if prerequisites.starts_with('=') || targets.contains('=') || targets.starts_with('#') {
            continue;
        }
        for target in targets.split_whitespace() {
            if target.starts_with('.') {
                continue;
            }
            // A target may have several rule lines: a target-specific variable
            // (`test: export PYTEST_ADDOPTS = -k x`), more prerequisites; each adds to it.
            let (known, _) = rules.entry(target).or_default();
            if !known.is_empty() {
                known.push('\n');
            }
            known.push_str(prerequisites.trim());
            current.push(target);
        }
    }
    let mut reached: Vec<&str> = rules
        .keys()
        .copied()
        .filter(|target| runs_tests(target))
        .collect();
    let mut next = 0;
    while let Some(target) = reached.get(next).copied() {
        next += 1;
        let Some((prerequisites, recipe)) = rules.get(target) else {
            continue;
        };
        let sub_makes = recipe.lines().flat_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let make = words
                .iter()
                .position(|word| matches!(*word, "$(MAKE)" | "${MAKE}" | "make" | "just"));
            make.map(|at| words[at + 1..].to_vec()).unwrap_or_default()
        });
        for called in prerequisites.split_whitespace().chain(sub_makes) {
            let Some((&known, (_, recipe))) = rules.get_key_value(called) else {
                continue;
            };
            let tests = recipe.lines().any(|line| ci_test_command(line.as_bytes()));
            if tests && !reached.contains(&known) {
                reached.push(known);
            }
        }
    }
    let mut settings = BTreeMap::new();
    for target in reached {
        if let Some((prerequisites, recipe)) = rules.get(target) {
            settings.insert(
                format!("target {target}"),
                format!("{prerequisites}{recipe}"),
            );
        }
    }
    // The variables the test targets use, `$(PYTEST_FLAGS)` or `${TEST_ARGS}`: changing
    // them changes what the targets run.
    let variables = make_variables(text);
    // A variable the runner itself reads (`export PYTEST_ADDOPTS = …`) counts wherever the
    // test targets run it.
    let used: Vec<(String, String)> = variables
        .iter()
        .filter(|(name, _)| {
            let (round, curly) = (format!("$({name})"), format!("${{{name}}}"));
            runner_variable(name)
                || settings
                    .values()
                    .any(|recipe| recipe.contains(&round) || recipe.contains(&curly))
        })
        .map(|(name, value)| (format!("variable {name}"), value.clone()))
        .collect();
    settings.extend(used);
    settings
}

/// A Makefile's variables (`NAME = value`, `:=`, `::=`, `?=`, `+=` appends), by name.
fn make_variables(text: &str) -> BTreeMap<String, String> {
    let mut variables: BTreeMap<String, String> = BTreeMap::new();
    for line in text.lines() {
        if line.starts_with('\t') || line.trim_start().starts_with('#') {
            continue;
        }
        let Some((name, value)) = line.split_once('=') else {
            continue;
        };
        let (name, append) = match name.trim_end().strip_suffix('+') {
            Some(name) => (name, true),
            None => (name.trim_end().trim_end_matches([':', '?']), false),
        };
        let name = name.trim();
        // `export PYTEST_ADDOPTS = …`, `override X = …`.
        let name = ["export ", "override "].iter().fold(name, |name, prefix| {
            name.strip_prefix(prefix).map_or(name, str::trim_start)
        });
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        if !valid {
            continue;
        }
        let value = value.trim().to_owned();
        let entry = variables.entry(name.to_owned()).or_default();
        if append && !entry.is_empty() {
            entry.push(' ');
            entry.push_str(&value);
        } else {
            *entry = value;
        }
    }
    variables
}

/// Whether a Makefile target is named for running tests: one of its words (split at `-`,
/// `_`, `.`, `/`, `:`) is `test`, `tests`, `check`, `pytest`, `unittest` or `e2e`. A target
/// that only contains the letters (`doctest`, `latest`, `contest`) is not.
fn runs_tests(target: &str) -> bool {
    // `check` is autotools' test target, but not a check of formatting, lints or types
    // (`check-format`, `lint-check`: helper-64's attack-56 F2).
    const OTHER_CHECKS: &[&str] = &[
        "format",
        "fmt",
        "lint",
        "lints",
        "style",
        "types",
        "type",
        "typecheck",
        "typing",
        "mypy",
        "black",
        "ruff",
        "flake8",
        "isort",
        "spell",
        "spelling",
        "license",
        "links",
        "docs",
        "doc",
        "deps",
        "security",
        "clippy",
        "prettier",
        "eslint",
    ];
    let words: Vec<&str> = target.split(['-', '_', '.', '/', ':']).collect();
    words.iter().any(|word| {
        matches!(*word, "test" | "tests" | "pytest" | "unittest" | "e2e")
            || (*word == "check" && !words.iter().any(|other| OTHER_CHECKS.contains(other)))
    })
}

/// The crate's own features a default build turns on, sorted: what decides which of its
/// code (and tests) compiles. `default` and every feature it turns on, through the features
/// they name (`default = ["std"]`, `std = ["extra"]` turns on `extra`); an optional
/// dependency's implicit feature (`serde/std` turns on `serde`, when `serde` is optional);
/// not what only changes a dependency's build (`bytecount/simd` of a required dependency,
/// `dep:x`, a weak `x?/feature`).
fn default_features(table: &toml::Table) -> Vec<String> {
    let features = table.get("features").and_then(toml::Value::as_table);
    let optional = |name: &str| {
        ["dependencies", "build-dependencies"].iter().any(|kind| {
            table
                .get(*kind)
                .and_then(|dependencies| dependencies.get(name))
                .and_then(|dependency| dependency.get("optional"))
                .and_then(toml::Value::as_bool)
                .unwrap_or(false)
        })
    };
    let mut on: Vec<String> = Vec::new();
    let mut pending = vec!["default".to_owned()];
    while let Some(feature) = pending.pop() {
        let entries = features
            .and_then(|features| features.get(&feature))
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(toml::Value::as_str);
        for entry in entries {
            let own = match entry.split_once('/') {
                Some((dependency, _)) if !dependency.ends_with('?') && optional(dependency) => {
                    dependency
                }
                Some(_) => continue,
                None if entry.starts_with("dep:") => continue,
                None => entry,
            };
            if !on.iter().any(|known| known == own) {
                on.push(own.to_owned());
                pending.push(own.to_owned());
            }
        }
    }
    on.sort();
    on
}

/// The keys of `[package]` that [`cargo`] compares: which targets Cargo finds and whether
/// a build script runs.
const CARGO_PACKAGE_KEYS: &[&str] = &[
    "autotests",
    "autolib",
    "autobins",
    "autoexamples",
    "autobenches",
    "build",
];

/// Whether the changed lines of a `Cargo.toml` can change a setting [`cargo`] compares. A
/// line under a dependency table (`[dependencies]`, `[target.'cfg(…)'.dev-dependencies]`,
/// `[workspace.dependencies]`), under `[package.metadata…]` or `[badges]`, or a whole
/// `key = value` of `[package]` other than [`CARGO_PACKAGE_KEYS`] (a version bump) cannot:
/// [`cargo`] reads none of them. Any other changed line can (a header, a line of any other
/// table, a top-level dotted key), and so can any change of a file with a multi-line
/// string, whose lines could look like headers. What cannot spares reading both sides as
/// TOML.
fn cargo_lines_may_matter(old: &[u8], new: &[u8], diff: &LineDiff<'_>) -> bool {
    let multiline = |side: &[u8]| {
        memchr::memmem::find(side, b"\"\"\"").is_some()
            || memchr::memmem::find(side, b"\'\'\'").is_some()
    };
    if multiline(old) || multiline(new) {
        return true;
    }
    let (old_lines, new_lines) = (diff.old_lines(), diff.new_lines());
    let (old_tables, new_tables) = (toml_tables(&old_lines), toml_tables(&new_lines));
    diff.hunks().any(|(before, after)| {
        before
            .map(|i| (old_lines[i], old_tables[i].as_str()))
            .chain(after.map(|j| (new_lines[j], new_tables[j].as_str())))
            .any(|(line, table)| cargo_line_may_matter(line, table))
    })
}

/// [`cargo_lines_may_matter`] for one changed line under the table `table` (its header's
/// name, spaces and quotes left out; empty before the first header).
fn cargo_line_may_matter(line: &[u8], table: &str) -> bool {
    let text = String::from_utf8_lossy(line);
    let line = text.trim();
    if line.is_empty() || line.starts_with('#') {
        return false;
    }
    if line.starts_with('[') {
        return true;
    }
    let last = table.rsplit('.').next().unwrap_or(table);
    if last.ends_with("dependencies")
        || table.starts_with("package.metadata")
        || table.starts_with("badges")
    {
        return false;
    }
    if table != "package" {
        return true;
    }
    let Some((key, value)) = line.split_once('=') else {
        // A line of a value over several lines.
        return true;
    };
    let balanced = |open: char, close: char| {
        value.chars().filter(|&c| c == open).count()
            == value.chars().filter(|&c| c == close).count()
    };
    let first = key.split('.').next().unwrap_or(key);
    let first = first.trim().trim_matches(['"', '\'']);
    !balanced('[', ']') || !balanced('{', '}') || CARGO_PACKAGE_KEYS.contains(&first)
}

/// The table each line of a TOML side is in: the name of the last header above it (or on
/// it), without brackets, spaces or quotes; empty before the first.
fn toml_tables(lines: &[&[u8]]) -> Vec<String> {
    let mut table = String::new();
    lines
        .iter()
        .map(|line| {
            let text = String::from_utf8_lossy(line);
            let trimmed = text.trim();
            if trimmed.starts_with('[') {
                let end = trimmed.rfind(']').unwrap_or(trimmed.len());
                table = trimmed[..end]
                    .chars()
                    .filter(|c| !matches!(c, '[' | ']' | '"' | '\'') && !c.is_whitespace())
                    .collect();
            }
            table.clone()
        })
        .collect()
}

/// The lines of the changed hunks of `diff`, comments and blank lines left out.
fn changed_lines<'a>(diff: &LineDiff<'a>) -> Vec<&'a [u8]> {
    let (old_lines, new_lines) = (diff.old_lines(), diff.new_lines());
    let mut lines = Vec::new();
    for (before, after) in diff.hunks() {
        for line in before
            .map(|i| old_lines[i])
            .chain(after.map(|j| new_lines[j]))
        {
            let trimmed = line.trim_ascii();
            if !trimmed.is_empty() && !trimmed.starts_with(b"#") && !trimmed.starts_with(b"//") {
                lines.push(line);
            }
        }
    }
    lines
}

/// The commands that run a test suite, as a CI step writes them.
const TEST_COMMANDS: &[&str] = &[
    "cargo test",
    "cargo nextest",
    "go test",
    "gotestsum",
    "pytest",
    "py.test",
    "unittest",
    "tox",
    "nox",
    "npm test",
    "npm run test",
    "npm t",
    "yarn test",
    "yarn run test",
    "pnpm test",
    "pnpm run test",
    "bun test",
    "jest",
    "vitest",
    "mocha",
    "mvn",
    "mvnw",
    "gradle",
    "gradlew",
    "make test",
    "make check",
    "just test",
    "ctest",
    "rspec",
    "phpunit",
    "dotnet test",
];

/// Whether a CI line runs the tests: a command (a line of a script, or the value of a
/// `run:`, `script:`, `command:` key) that starts with a test command, after a runner
/// prefix (`npx`, `python -m`, `./`, `poetry run`, …), and does not install anything. A
/// matrix entry (`tox: py310`), a dependency pin (`npm-i: mocha@9`), `pip install tox`,
/// `cache: gradle` and `uses: gradle/actions/setup-gradle@v4` are not.
fn ci_test_command(line: &[u8]) -> bool {
    ci_test_command_text(line).is_some()
}

/// The test command a CI line runs ([`ci_test_command`]), as written after its key and
/// runner prefixes, with its spaces squeezed: `run: npx jest --ci` and a block line
/// `  jest --ci` run the same.
fn ci_test_command_text(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(line);
    let mut command = text.trim().trim_start_matches(['-', ' ']).trim_start();
    if let Some((key, value)) = command.split_once(':')
        && !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        if !matches!(
            key,
            "run" | "script" | "command" | "cmd" | "commands" | "test_script" | "test"
        ) {
            return None;
        }
        command = value
            .trim()
            .trim_start_matches(['-', ' ', '|', '>'])
            .trim_start();
    }
    if command.contains("install") {
        return None;
    }
    loop {
        let before = command;
        for prefix in [
            "npx ",
            "python -m ",
            "python3 -m ",
            "./",
            "bundle exec ",
            "poetry run ",
            "uv run ",
            "pipenv run ",
            "hatch run ",
            "pdm run ",
            "sudo ",
            "time ",
            "xvfb-run ",
            "coverage run -m ",
        ] {
            command = command.strip_prefix(prefix).unwrap_or(command).trim_start();
        }
        if command == before {
            break;
        }
    }
    let runs_tests = TEST_COMMANDS.iter().any(|test| {
        command
            .get(..test.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(test))
            && !command[test.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
    }) && !builds_without_tests(command);
    runs_tests.then(|| command.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A Maven or Gradle command that runs no tests: one that skips them (`-DskipTests`,
/// `-Dmaven.test.skip`, Gradle's `-x test`), or a Maven one whose goals all come before
/// `test` (`compile`, `clean`, a plugin's `japicmp:cmp`); a `tox` or `nox` one that runs
/// only tool environments (`tox -e docs`). A build step added beside the tests
/// is no test setting; a test command changed into one of these still is (its old line
/// runs the tests).
fn builds_without_tests(command: &str) -> bool {
    let words: Vec<&str> = command
        .split_whitespace()
        .map(|word| word.trim_matches(['"', '\'']))
        .collect();
    let Some(tool) = words
        .first()
        .map(|tool| tool.rsplit('/').next().unwrap_or(tool))
    else {
        return false;
    };
    if matches!(tool, "tox" | "nox") {
        return runs_tool_envs(&words[1..]);
    }
    let maven = matches!(tool, "mvn" | "mvnw");
    if !maven && !matches!(tool, "gradle" | "gradlew") {
        return false;
    }
    let skips = words.iter().any(|word| {
        *word == "-DskipTests"
            || *word == "-DskipTests=true"
            || (word.starts_with("-Dmaven.test.skip") && !word.ends_with("=false"))
    }) || words
        .windows(2)
        .any(|pair| matches!(pair, ["-x" | "--exclude-task", "test"]));
    let goals: Vec<&str> = words[1..]
        .iter()
        .filter(|word| !word.starts_with('-'))
        .copied()
        .collect();
    let before_test = maven
        && !goals.is_empty()
        && goals.iter().all(|goal| {
            matches!(
                *goal,
                "clean"
                    | "validate"
                    | "initialize"
                    | "generate-sources"
                    | "process-resources"
                    | "compile"
            ) || goal.contains(':')
        });
    skips || before_test
}

/// Whether a `tox` or `nox` command's environments (`-e`, `--env`, nox's `-s`,
/// `--session`) are all tools, not the tests: `tox -e docs`, `tox -e
/// publish-gh-release-notes`, `nox -s lint` (the names [`tool_env`] knows, each factor of a
/// name such a tool). Without environments named, the default ones run the tests.
fn runs_tool_envs(args: &[&str]) -> bool {
    // A command chained to another (`tox -e lint && pytest`), or environments chosen
    // otherwise too (tox's labels `-m`, factors `-f`), may run the tests.
    // A variable (`$GITHUB_EVENT_PATH`) or a CI expression (`${{ github.token }}`) is an
    // argument; a command substituted (`$(pytest)`) runs.
    let chained = args.iter().any(|word| {
        word.contains("&&")
            || word.contains("||")
            || word.contains([';', '|', '`'])
            || word.contains("$(")
    });
    let selects_otherwise = args.iter().any(|word| {
        matches!(
            *word,
            "-m" | "--labels" | "-f" | "--factors" | "-t" | "--tags" | "-k" | "--keywords"
        ) || [
            "-m=",
            "--labels=",
            "-f=",
            "--factors=",
            "-t=",
            "--tags=",
            "-k=",
            "--keywords=",
        ]
        .iter()
        .any(|flag| word.starts_with(flag))
    });
    if chained || selects_otherwise {
        return false;
    }
    let mut envs: Vec<&str> = Vec::new();
    let mut taking = false;
    for word in args {
        if let Some((flag, value)) = word.split_once('=')
            && matches!(flag, "-e" | "--env" | "-s" | "--session" | "--sessions")
        {
            envs.push(value);
            taking = false;
        } else if matches!(*word, "-e" | "--env" | "-s" | "--session" | "--sessions") {
            taking = true;
        } else if word.starts_with('-') {
            // `-e` written together with its value: `-edocs`.
            if let Some(value) = word.strip_prefix("-e").filter(|value| !value.is_empty()) {
                envs.push(value);
            }
            taking = false;
        } else if taking {
            // nox's `-s lint tests` names several.
            envs.push(word);
        }
    }
    !envs.is_empty()
        && envs
            .iter()
            .flat_map(|env| env.split(','))
            .all(|env| tool_env(env.trim_matches(['"', '\''])))
}

/// The settings `words` names on the changed lines of `old` and `new`; in a CI
/// configuration, also a changed line that runs the tests (`CI test command`).
fn changed_words(
    words: &[(&str, &str)],
    ci: bool,
    old: &[u8],
    new: &[u8],
    diff: &LineDiff<'_>,
) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    if ci && changed_matrix(old, new, diff) {
        keys.push(CI_MATRIX.to_owned());
    }
    for line in changed_lines(diff) {
        for (key, word) in words {
            if memchr::memmem::find(line, word.as_bytes()).is_some()
                && !keys.iter().any(|k| k == key)
            {
                keys.push((*key).to_owned());
            }
        }
    }
    if ci && test_commands_changed(diff) {
        keys.push(CI_COMMAND.to_owned());
    }
    keys.sort();
    keys
}

/// Whether the changed lines of a CI configuration run other test commands than before: a
/// command removed, added or edited. The same commands moved or rewritten in another form
/// (`run: npm test` into a `run: |` block of `npm test` and a copy of the coverage file)
/// are not.
fn test_commands_changed(diff: &LineDiff<'_>) -> bool {
    let (old_lines, new_lines) = (diff.old_lines(), diff.new_lines());
    let mut before: Vec<String> = Vec::new();
    let mut after: Vec<String> = Vec::new();
    for (removed, added) in diff.hunks() {
        before.extend(removed.filter_map(|i| ci_test_command_text(old_lines[i])));
        after.extend(added.filter_map(|j| ci_test_command_text(new_lines[j])));
    }
    before.sort();
    after.sort();
    before != after
}

/// The keys whose values are a CI build matrix: the versions, platforms and environments the
/// tests run on (GitHub Actions' and GitLab's `matrix:`, Travis CI's top-level lists).
const MATRIX_KEYS: &[&[u8]] = &[
    b"matrix", b"node_js", b"python", b"jdk", b"go", b"rust", b"php", b"ruby", b"env", b"os",
];

/// Words that, on a changed line of a build matrix, leave something out or let it fail: a
/// job excluded, a module left out of one JDK's build (`--projects '!proto'`), a failure
/// allowed.
const MATRIX_EXCLUSIONS: &[&str] = &[
    "exclude",
    "--projects",
    "-pl ",
    "skip",
    "allow",
    "experimental",
    "fail-fast",
    "continue-on-error",
];

/// A CI configuration that runs the tests (on either side) runs them on fewer versions or
/// environments, or leaves something out: its build matrix holds fewer entries than before
/// (`- {name: '3.6', tox: py36}` dropped, `node-version: [14, 16, 18]` without 14), or a
/// changed line of it excludes or lets fail (`exclude:`, `--projects '!proto'`). A version
/// bumped in place (`node_js: "18.14"` to `"18.15"`) or added is not: the tests still run
/// everywhere they ran. A matrix of a file that runs no tests (a release or lint workflow)
/// is not one.
fn changed_matrix(old: &[u8], new: &[u8], diff: &LineDiff<'_>) -> bool {
    let runs_tests = |side: &[u8]| side.split(|&b| b == b'\n').any(ci_test_command);
    if !runs_tests(old) && !runs_tests(new) {
        return false;
    }
    let (old_lines, new_lines) = (diff.old_lines(), diff.new_lines());
    let (old_matrix, new_matrix) = (matrix_lines(&old_lines), matrix_lines(&new_lines));
    let entries = |lines: &[&[u8]], matrix: &[bool]| -> usize {
        lines
            .iter()
            .zip(matrix)
            .filter(|&(_, &inside)| inside)
            .map(|(line, _)| matrix_entries(line))
            .sum()
    };
    if entries(&old_lines, &old_matrix) > entries(&new_lines, &new_matrix) {
        return true;
    }
    let excludes = |line: &[u8]| {
        let text = String::from_utf8_lossy(line);
        MATRIX_EXCLUSIONS.iter().any(|word| text.contains(word))
    };
    diff.hunks().any(|(before, after)| {
        before
            .clone()
            .any(|i| old_matrix[i] && excludes(old_lines[i]))
            || after
                .clone()
                .any(|j| new_matrix[j] && excludes(new_lines[j]))
    })
}

/// How many matrix entries a line holds: the items of a flow sequence (`[14, 16, 18]` holds
/// three), else one for a line with content (`- "10"`, `- {name: Linux, python: '3.12'}`),
/// none for a blank line, a comment or a key that opens a block (`include:`).
fn matrix_entries(line: &[u8]) -> usize {
    let trimmed = line.trim_ascii();
    if trimmed.is_empty() || trimmed.starts_with(b"#") || trimmed.ends_with(b":") {
        return 0;
    }
    let Some(open) = trimmed.iter().position(|&b| b == b'[') else {
        return 1;
    };
    let mut depth = 0usize;
    let mut items = 0usize;
    let mut content = false;
    let mut quote: Option<u8> = None;
    for &b in &trimmed[open..] {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (None, b'\'' | b'"') => {
                quote = Some(b);
                content = true;
            }
            (None, b'[' | b'{') => {
                depth += 1;
                if depth > 1 {
                    content = true;
                }
            }
            (None, b']' | b'}') => {
                if depth == 1 && content {
                    items += 1;
                    content = false;
                }
                depth = depth.saturating_sub(1);
            }
            (None, b',') if depth == 1 => {
                if content {
                    items += 1;
                }
                content = false;
            }
            (None, b) if !b.is_ascii_whitespace() => content = true,
            // Inside a quoted string, or whitespace.
            _ => {}
        }
    }
    items.max(1)
}

/// Which lines of a YAML side are inside the value of a [`MATRIX_KEYS`] key, by their
/// indentation: a line belongs to the nearest key above it indented less, or indented the
/// same when the line is a list item (`node_js:` over `- "10"`).
fn matrix_lines(lines: &[&[u8]]) -> Vec<bool> {
    // (the key's column, whether it is a matrix key)
    let mut keys: Vec<(usize, bool)> = Vec::new();
    let mut inside = vec![false; lines.len()];
    for (i, line) in lines.iter().enumerate() {
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let mut rest = &line[indent..];
        let trimmed = rest.trim_ascii();
        if trimmed.is_empty() || trimmed.starts_with(b"#") {
            // Blank lines and comments belong to the block they are in.
            inside[i] = keys.iter().any(|&(_, matrix)| matrix);
            continue;
        }
        let item = rest.starts_with(b"- ") || rest == b"-" || rest.starts_with(b"-\n");
        while let Some(&(column, _)) = keys.last()
            && (column > indent || (column == indent && !item))
        {
            keys.pop();
        }
        inside[i] = keys.iter().any(|&(_, matrix)| matrix);
        let mut column = indent;
        if item {
            rest = rest[1..].trim_ascii_start();
            column = indent + (line.len() - indent - rest.len());
        }
        let name_end = rest
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')))
            .unwrap_or(rest.len());
        if name_end > 0 && rest.get(name_end) == Some(&b':') {
            let name = &rest[..name_end];
            keys.push((column, MATRIX_KEYS.contains(&name)));
        }
    }
    inside
}

/// The lines of each `name:` block of a side (`test: {` … `}`, or the one line).
fn block_lines(name: &[u8], lines: &[&[u8]]) -> Vec<bool> {
    let mut inside = vec![false; lines.len()];
    let mut depth = 0i64;
    let mut open = false;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_ascii_start();
        if !open
            && let Some(rest) = trimmed.strip_prefix(name)
            && rest.trim_ascii_start().starts_with(b":")
        {
            open = true;
            depth = 0;
        }
        if open {
            inside[i] = true;
            for &b in *line {
                match b {
                    b'{' | b'[' | b'(' => depth += 1,
                    b'}' | b']' | b')' => depth -= 1,
                    _ => {}
                }
            }
            if depth <= 0 {
                open = false;
            }
        }
    }
    inside
}

/// `name` when a changed line of `diff` is in a `name:` block of its side.
fn changed_block(name: &[u8], diff: &LineDiff<'_>) -> Vec<String> {
    if changed_marked(diff, |lines| block_lines(name, lines), |_| true) {
        vec![String::from_utf8_lossy(name).into_owned()]
    } else {
        Vec::new()
    }
}

/// Whether a changed line of `diff` is one that `marks` marks on its side and that
/// `counts` keeps (given the line without its surrounding whitespace).
fn changed_marked(
    diff: &LineDiff<'_>,
    marks: impl Fn(&[&[u8]]) -> Vec<bool>,
    counts: impl Fn(&[u8]) -> bool,
) -> bool {
    let (old_lines, new_lines) = (diff.old_lines(), diff.new_lines());
    let (old_marks, new_marks) = (marks(&old_lines), marks(&new_lines));
    let marked = |marks: &[bool], lines: &[&[u8]], i: usize| {
        marks.get(i).copied().unwrap_or(false)
            && lines.get(i).is_some_and(|line| counts(line.trim_ascii()))
    };
    diff.hunks().any(|(before, after)| {
        before.clone().any(|i| marked(&old_marks, &old_lines, i))
            || after.clone().any(|j| marked(&new_marks, &new_lines, j))
    })
}

/// Whether a line names one of `words` (then it counts as that setting, not twice).
fn names_a_word(line: &[u8], words: &[(&str, &str)]) -> bool {
    words
        .iter()
        .any(|(_, word)| memchr::memmem::find(line, word.as_bytes()).is_some())
}

/// Whether a line is a setting of its block: not blank, not an XML comment, naming none
/// of `words`.
fn a_setting(line: &[u8], words: &[(&str, &str)]) -> bool {
    !line.is_empty() && !line.starts_with(b"<!--") && !names_a_word(line, words)
}

/// The Surefire and Failsafe plugins' settings changed in a `pom.xml`: any changed line of
/// a `<plugin>` block whose `artifactId` is one of them, except its `<version>` and a line
/// that names one of `words`.
fn changed_plugin(diff: &LineDiff<'_>, words: &[(&str, &str)]) -> Vec<String> {
    ["surefire", "failsafe"]
        .into_iter()
        .filter(|plugin| {
            changed_marked(
                diff,
                |lines| plugin_lines(plugin, lines),
                |line| a_setting(line, words) && !line.starts_with(b"<version>"),
            )
        })
        .map(|plugin| format!("maven-{plugin}-plugin"))
        .collect()
}

/// The lines of each `<plugin>` … `</plugin>` block of a `pom.xml` side whose `artifactId`
/// holds `name`.
fn plugin_lines(name: &str, lines: &[&[u8]]) -> Vec<bool> {
    let mut inside = vec![false; lines.len()];
    let mut start: Option<usize> = None;
    let mut named = false;
    let holds = |line: &[u8], needle: &[u8]| memchr::memmem::find(line, needle).is_some();
    for (i, line) in lines.iter().enumerate() {
        if holds(line, b"<plugin>") || holds(line, b"<plugin ") {
            start = Some(i);
            named = false;
        }
        if start.is_some() && holds(line, b"artifactId") && holds(line, name.as_bytes()) {
            named = true;
        }
        if holds(line, b"</plugin>")
            && let Some(first) = start.take()
            && named
        {
            for mark in &mut inside[first..=i] {
                *mark = true;
            }
        }
    }
    inside
}

/// The lines of a Gradle build file's `test` task blocks: `test {`, `tasks.test {`,
/// `tasks.named('test') {`, `tasks.named<Test>("test") {`, `tasks.withType(Test) {`,
/// `tasks.withType<Test> {`, `test.configure {`, from the opening line to the brace that
/// closes it.
fn gradle_test_task_lines(lines: &[&[u8]]) -> Vec<bool> {
    let opens = |line: &str| {
        let line: String = line.split_whitespace().collect();
        let head = line.split('{').next().unwrap_or("");
        line.contains('{')
            && (matches!(head, "test" | "tasks.test" | "test.configure")
                || head.starts_with("tasks.named('test')")
                || head.starts_with("tasks.named(\"test\")")
                || head.starts_with("tasks.named<Test>(\"test\")")
                || head.starts_with("tasks.withType(Test)")
                || head.starts_with("tasks.withType<Test>")
                || head.starts_with("tasks.withType(Test::class"))
    };
    let mut inside = vec![false; lines.len()];
    let mut depth = 0i64;
    let mut open = false;
    for (i, line) in lines.iter().enumerate() {
        let text = String::from_utf8_lossy(line);
        if !open && opens(text.trim()) {
            open = true;
            depth = 0;
        }
        if open {
            inside[i] = true;
            for c in text.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if depth <= 0 {
                open = false;
            }
        }
    }
    inside
}

/// The keys of the `[pytest]` table of pytest's own `pytest.toml`.
fn pytest_toml(text: &str) -> Option<BTreeMap<String, String>> {
    let table = toml_table(text)?;
    let mut settings = BTreeMap::new();
    if let Some(pytest) = table.get("pytest").and_then(toml::Value::as_table) {
        for (key, value) in pytest {
            settings.insert(format!("[pytest] {key}"), value.to_string());
        }
    }
    Some(settings)
}

/// The keys (`name:` or `name =`) on the changed lines of a JavaScript or JSON runner
/// configuration, or `(file)` when the changed lines name none.
fn changed_keys(diff: &LineDiff<'_>) -> Vec<String> {
    let (old_lines, new_lines) = (diff.old_lines(), diff.new_lines());
    let mut keys = Vec::new();
    let mut any = false;
    for (before, after) in diff.hunks() {
        let lines = before
            .map(|i| old_lines[i])
            .chain(after.map(|j| new_lines[j]));
        for line in lines {
            let text = String::from_utf8_lossy(line);
            let trimmed = text.trim();
            if trimmed.is_empty() || trimmed.starts_with("//") {
                continue;
            }
            any = true;
            let key: String = trimmed
                .trim_start_matches(['"', '\''])
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            let rest = trimmed
                .trim_start_matches(['"', '\''])
                .get(key.len()..)
                .unwrap_or("")
                .trim_start_matches(['"', '\''])
                .trim_start();
            if !key.is_empty() && rest.starts_with(':') && !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    if keys.is_empty() && any {
        keys.push("(file)".to_owned());
    }
    keys.sort();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(path: &str, old: &str, new: &str) -> Vec<String> {
        changed(path, old.as_bytes(), new.as_bytes(), None)
    }

    #[test]
    fn output_flags_and_quotes_run_the_same() {
        let make = "KARMA := node_modules/.bin/karma\n\ntest-unit:\n\t@./bin/mocha --reporter dot test/unit\n\ntest-browser:\n\t$(KARMA) start\n";
        // Quoted, a notification or a built-in reporter: the same tests run (mocha's
        // 8fe36a36c41a, 57c7acc6ff41).
        for edited in [
            make.replace(
                "KARMA := node_modules/.bin/karma",
                "KARMA := \"node_modules/.bin/karma\"",
            ),
            make.replace("--reporter dot", "--reporter spec --growl"),
            make.replace("--reporter dot", "--reporter=spec --no-colors"),
            make.replace(
                "--reporter dot test/unit",
                "--reporter dot \\\n\t\t--growl \\\n\t\ttest/unit",
            ),
        ] {
            assert!(keys("Makefile", make, &edited).is_empty(), "{edited}");
        }
        // A reporter given by path runs code; a quoted glob or variable is expanded
        // otherwise; a word moved to a line of its own is another command.
        for edited in [
            make.replace("--reporter dot", "--reporter ./exit0.js"),
            make.replace("test/unit", "\"test/*\""),
            make.replace(
                "@./bin/mocha --reporter dot test/unit",
                "@./bin/mocha --reporter dot\n\ttest/unit",
            ),
            make.replace("test/unit", "test/unit --grep fast"),
        ] {
            assert_eq!(
                keys("Makefile", make, &edited),
                ["target test-unit"],
                "{edited}"
            );
        }
        // tox: where packages come from is no test setting; an environment made to pass
        // whatever its tests do, or skipped on this platform, is.
        let tox = "[tox]\nenvlist = py3\nindexserver =\n    default = https://a\n\n[testenv]\ncommands = pytest\n";
        assert!(keys("tox.ini", tox, &tox.replace("https://a", "https://b")).is_empty());
        // A pytest table added, however its header is spaced or quoted, is a configuration
        // file added (helper-67's attack-58 S5; helper-69's review).
        for header in [
            "[tool.pytest.ini_options]",
            "[ tool.pytest.ini_options ]",
            "[tool.\"pytest\".ini_options]",
            // A dotted key and an inline table (helper-70's attack-60 S2, S3).
            "[tool]\npytest.ini_options.minversion = \"7.0\"",
            "[tool]\npytest = { ini_options = { minversion = \"7.0\" } }",
        ] {
            assert_eq!(
                presence_changed(
                    "pyproject.toml",
                    Some(b"[project]\nname = \"a\"\n"),
                    Some(format!("[project]\nname = \"a\"\n{header}\n").as_bytes())
                )
                .as_deref(),
                Some("configuration file added"),
                "{header}"
            );
        }
        // `py.test` is pytest by its old name (pytest's 0334e75c3088).
        let old_name = tox.replace("commands = pytest", "commands = py.test -ra testing");
        assert!(keys("tox.ini", &old_name, &old_name.replace("py.test", "pytest")).is_empty());
        assert_eq!(
            keys(
                "tox.ini",
                tox,
                &tox.replace(
                    "commands = pytest\n",
                    "commands = pytest\nignore_outcome = true\n"
                )
            ),
            ["[testenv] ignore_outcome"]
        );
        assert_eq!(
            keys(
                "tox.ini",
                tox,
                &tox.replace(
                    "commands = pytest\n",
                    "commands = pytest\nplatform = win32\n"
                )
            ),
            ["[testenv] platform"]
        );
    }

    /// attack-49: a reordering beside an output option, quotes around a shell operator,
    /// and tox's keys that choose what runs and from where.
    #[test]
    fn reorders_operators_and_tox_keys_count() {
        let ini = "[pytest]\naddopts = -k \"add or not sub\"\n";
        assert_eq!(
            keys(
                "pytest.ini",
                ini,
                "[pytest]\naddopts = -v -k \"sub or not add\"\n"
            ),
            ["[pytest] addopts"]
        );
        let package =
            |script: &str| format!("{{\n  \"scripts\": {{\n    \"test\": {script}\n  }}\n}}\n");
        assert_eq!(
            keys(
                "package.json",
                &package("\"mocha -g 'math||true' test\""),
                &package("\"mocha -g math||true test\"")
            ),
            ["scripts.test"]
        );
        let tox = "[testenv]\ncommands = pytest\n";
        for (added, key) in [
            ("changedir = tests/smoke\n", "[testenv] changedir"),
            (
                "commands_pre = python -c \"import os\"\n",
                "[testenv] commands_pre",
            ),
            (
                "setenv =\n    PYTHONPATH = stubs\n",
                "[testenv] setenv PYTHONPATH",
            ),
        ] {
            assert_eq!(
                keys("tox.ini", tox, &format!("{tox}{added}")),
                [key],
                "{added}"
            );
        }
    }

    /// `-v` is verbosity for pytest, `--version` for Jest and Vitest: `jest -v` prints a
    /// version and exits with success, running no test.
    #[test]
    fn dash_v_reports_only_for_pytest() {
        let package =
            |script: &str| format!("{{\n  \"scripts\": {{\n    \"test\": \"{script}\"\n  }}\n}}\n");
        assert_eq!(
            keys("package.json", &package("jest"), &package("jest -v")),
            ["scripts.test"]
        );
        assert_eq!(
            keys(
                "package.json",
                &package("vitest run"),
                &package("vitest run -v")
            ),
            ["scripts.test"]
        );
        assert!(
            keys(
                "package.json",
                &package("pytest tests"),
                &package("pytest -v tests")
            )
            .is_empty()
        );
        let ini = "[pytest]\naddopts = -q\n";
        assert!(keys("pytest.ini", ini, &ini.replace("-q", "-v")).is_empty());
        // In a value that runs pytest and another program, `-v` is the other program's
        // there (helper-56's 3a-3c: `node -v` exits with success, checking nothing).
        for (old, new) in [
            (
                "pytest -q && node check.js",
                "pytest -q && node -v check.js",
            ),
            ("node check.js && pytest", "node -v check.js && pytest"),
        ] {
            assert_eq!(
                keys("package.json", &package(old), &package(new)),
                ["scripts.test"],
                "{new}"
            );
        }
        let tox = "[testenv]\ncommands =\n    pytest -q\n    node check.js\n";
        assert_eq!(
            keys(
                "tox.ini",
                tox,
                &tox.replace("node check.js", "node -v check.js")
            ),
            ["[testenv] commands"]
        );
        assert!(
            keys(
                "package.json",
                &package("python -m pytest tests"),
                &package("python -m pytest -v tests")
            )
            .is_empty()
        );
    }

    #[test]
    fn pytest_settings_that_select_no_test() {
        let ini = "[pytest]\naddopts = -ra\nmarkers =\n    slow: slow tests\n";
        assert!(
            keys(
                "pytest.ini",
                ini,
                &ini.replace("slow tests", "slow ones\n    db: a database")
            )
            .is_empty()
        );
        assert!(
            keys(
                "pytest.ini",
                ini,
                &ini.replace("addopts = -ra\n", "addopts = -ra\nminversion = 8.0\n")
            )
            .is_empty()
        );
        assert_eq!(
            keys("pytest.ini", ini, &ini.replace("-ra", "-ra -k fast")),
            ["[pytest] addopts"]
        );
        // `[tool.pytest.ini_options]` made `[tool.pytest]`, the same words.
        let old = "[tool.pytest.ini_options]\naddopts = \"-rfEX -p pytester\"\ntestpaths = [\"testing\"]\n";
        let new = "[tool.pytest]\naddopts = [ \"-rfEX\", \"-p\", \"pytester\" ]\ntestpaths = [\"testing\"]\n";
        assert!(keys("pyproject.toml", old, new).is_empty());
        assert_eq!(
            keys(
                "pyproject.toml",
                old,
                &new.replace("\"testing\"]", "\"testing/unit\"]")
            ),
            ["[tool.pytest] testpaths"]
        );
    }

    #[test]
    fn makefile_targets_named_for_tests() {
        for target in [
            "test",
            "tests",
            "test-unit",
            "integration_tests",
            "check",
            "e2e",
            "pytest",
        ] {
            assert!(runs_tests(target), "{target}");
        }
        for target in ["doctest", "latest", "contest", "build", "testdata-clean"] {
            assert!(!runs_tests(target), "{target}");
        }
    }

    #[test]
    fn recognised_files() {
        for path in [
            "pytest.ini",
            "sub/setup.cfg",
            "tox.ini",
            "pyproject.toml",
            "crates/a/Cargo.toml",
            "web/package.json",
            "jest.config.js",
            "vitest.config.mts",
            ".mocharc.yml",
            "Makefile",
            "build/rules.mk",
        ] {
            assert!(is_config(path), "{path}");
        }
        for path in ["README.md", "src/jest.js", "config.toml", "Cargo.lock"] {
            assert!(!is_config(path), "{path}");
        }
    }

    #[test]
    fn ini_sections() {
        let old = "[pytest]\naddopts = -q\ntestpaths = tests\n\n[flake8]\nmax-line-length = 80\n";
        let new = "[pytest]\naddopts = -q --deselect tests/test_a.py::test_x\ntestpaths = tests\n\n[flake8]\nmax-line-length = 100\n";
        assert_eq!(keys("pytest.ini", old, new), ["[pytest] addopts"]);
        assert_eq!(
            keys(
                "setup.cfg",
                "[tool:pytest]\ntestpaths = tests\n",
                "[tool:pytest]\ntestpaths = tests\n    other\n"
            ),
            ["[tool:pytest] testpaths"]
        );
        assert_eq!(
            keys(
                "tox.ini",
                "[testenv]\ndeps = x\ncommands = pytest\n",
                "[testenv]\ndeps = y\ncommands = pytest -k 'not slow'\n"
            ),
            ["[testenv] commands"]
        );
        // Environments that build docs or lint run no tests; one with a test factor may.
        let tox = "[testenv:docs]\ncommands = sphinx-build docs\n\n[testenv:py312-docs]\ncommands = pytest\n\n[testenv:lint,typing]\ncommands = ruff\n";
        let changed = tox
            .replace("sphinx-build", "sphinx-build -W")
            .replace("= pytest", "= pytest -x")
            .replace("ruff", "ruff check");
        assert_eq!(
            keys("tox.ini", tox, &changed),
            ["[testenv:py312-docs] commands"]
        );
        // An environment that runs no test runner on either side does not count.
        let tox = "[testenv:coverage-report]\ncommands = coverage combine\n\n[testenv:cov]\ncommands = coverage run -m pytest\n";
        let changed = tox
            .replace("combine", "combine -q")
            .replace("-m pytest", "-m pytest -x");
        assert_eq!(keys("tox.ini", tox, &changed), ["[testenv:cov] commands"]);
    }

    #[test]
    fn makefile_variables_the_test_targets_use() {
        let make = "PYTEST_FLAGS = -q\nVERSION = 1.0\n\ntest:\n\tpytest $(PYTEST_FLAGS)\n\nrelease:\n\techo $(VERSION)\n";
        assert_eq!(
            keys("Makefile", make, &make.replace("-q", "-q -k 'not add'")),
            ["variable PYTEST_FLAGS"]
        );
        assert!(keys("Makefile", make, &make.replace("1.0", "1.1")).is_empty());
        let appended = make.replace("VERSION", "PYTEST_FLAGS += --deselect x\nVERSION");
        assert_eq!(keys("Makefile", make, &appended), ["variable PYTEST_FLAGS"]);
    }

    /// Maven and Gradle steps that build without running the tests are no test command.
    #[test]
    fn builds_that_run_no_tests_are_no_ci_test_command() {
        assert!(!ci_test_command(b"        run: mvn -B package -DskipTests"));
        assert!(!ci_test_command(
            b"run: ./mvnw -Dmaven.test.skip=true install"
        ));
        assert!(!ci_test_command(b"run: mvn --batch-mode compile"));
        assert!(!ci_test_command(b"run: mvn -B clean japicmp:cmp"));
        assert!(!ci_test_command(b"run: ./gradlew build -x test"));
        assert!(ci_test_command(b"run: mvn -B verify -DskipTests=false"));
        assert!(ci_test_command(
            b"run: mvn -B -Dmaven.test.skip=false package"
        ));
        assert!(ci_test_command(b"run: mvn -B clean verify"));
        assert!(ci_test_command(b"run: ./gradlew check"));
    }

    #[test]
    fn build_files_ci_nox_just_and_vite() {
        let pom = "<project>\n  <properties>\n    <java.version>11</java.version>\n  </properties>\n</project>\n";
        assert!(keys("pom.xml", pom, &pom.replace("11", "17")).is_empty());
        assert_eq!(
            keys(
                "pom.xml",
                pom,
                &pom.replace(
                    "</properties>",
                    "  <skipTests>true</skipTests>\n  </properties>"
                )
            ),
            ["skipTests"]
        );
        let gradle = "test {\n    useJUnitPlatform()\n}\n";
        assert_eq!(
            keys(
                "build.gradle",
                gradle,
                &gradle.replace('}', "    ignoreFailures = true\n}")
            ),
            ["ignoreFailures"]
        );
        let workflow =
            "jobs:\n  test:\n    steps:\n      - run: cargo build\n      - run: cargo test --all\n";
        assert!(
            keys(
                ".github/workflows/ci.yml",
                workflow,
                &workflow.replace("cargo build", "cargo build --locked")
            )
            .is_empty()
        );
        assert_eq!(
            keys(
                ".github/workflows/ci.yml",
                workflow,
                &workflow.replace("--all", "--all || true")
            ),
            ["CI test command"]
        );
        assert_eq!(
            keys(
                ".gitlab-ci.yml",
                "test:\n  script: pytest\n",
                "test:\n  script: pytest\n  allow_failure: true\n"
            ),
            ["allow_failure"]
        );
        // `tox` and `jest` as whole words only.
        assert!(!ci_test_command(b"run: echo toxic jester"));
        assert!(!ci_test_command(
            b"- {name: '3.10', python: '3.10', tox: py310}"
        ));
        assert!(!ci_test_command(b"            npm-i: mocha@9.1.3"));
        assert!(ci_test_command(b"  script: npm test"));
        assert!(ci_test_command(b"        run: python -m pytest -x || true"));
        assert!(ci_test_command(b"          cargo test --all"));
        assert!(!ci_test_command(b"- run: pip install tox pytest"));
        assert!(!ci_test_command(b"- uses: gradle/actions/setup-gradle@v4"));
        assert!(ci_test_command(b"run: npx jest --ci"));
        let nox = "@nox.session\ndef tests(session):\n    session.install(\"-e\", \".\")\n    session.run(\"pytest\")\n";
        assert_eq!(
            keys(
                "noxfile.py",
                nox,
                &nox.replace("\"pytest\"", "\"pytest\", \"-k\", \"not slow\"")
            ),
            ["pytest"]
        );
        assert!(keys("noxfile.py", nox, &nox.replace("\"-e\", ", "")).is_empty());
        let just = "build:\n    cargo build\n\ntest:\n    cargo test\n";
        assert_eq!(
            keys(
                "justfile",
                just,
                &just.replace("cargo test", "cargo test || true")
            ),
            ["target test"]
        );
        assert!(
            keys(
                "justfile",
                just,
                &just.replace("cargo build", "cargo build -r")
            )
            .is_empty()
        );
        let vite = "export default defineConfig({\n  plugins: [react()],\n  test: {\n    environment: 'jsdom',\n  },\n});\n";
        assert!(
            keys(
                "vite.config.ts",
                vite,
                &vite.replace("react()", "react(), svgr()")
            )
            .is_empty()
        );
        assert_eq!(
            keys(
                "vite.config.ts",
                vite,
                &vite.replace("'jsdom',", "'jsdom',\n    exclude: ['src/**'],")
            ),
            ["test"]
        );
    }

    #[test]
    fn package_json_that_does_not_parse() {
        let old = "{\n  \"scripts\": {\n    \"test\": \"mocha\",\n  },\n  \"jest\": {\n    \"bail\": true\n  },\n  \"dependencies\": {\"a\": \"1\"},\n}\n";
        assert!(keys("package.json", old, &old.replace("\"1\"", "\"2\"")).is_empty());
        assert_eq!(
            keys("package.json", old, &old.replace("mocha", "mocha --bail")),
            ["scripts.test"]
        );
        assert_eq!(
            keys("package.json", old, &old.replace("true", "false")),
            ["jest"]
        );
        // Only lines that start with a key are read: a file on one line that does not
        // parse has lost its test script.
        let parsed = "{\"scripts\": {\"test\": \"mocha\"}}";
        assert_eq!(
            keys(
                "package.json",
                parsed,
                "{\"scripts\": {\"test\": \"mocha\",}}"
            ),
            ["scripts.test"]
        );
    }

    #[test]
    fn pyproject_tables() {
        let old = "[project]\nname = \"x\"\ndependencies = [\"a==1\"]\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n";
        let bump = old.replace("a==1", "a==2");
        assert!(keys("pyproject.toml", old, &bump).is_empty());
        let ignore = old.replace(
            "testpaths = [\"tests\"]",
            "testpaths = [\"tests\"]\naddopts = \"--ignore=tests/slow\"",
        );
        assert_eq!(
            keys("pyproject.toml", old, &ignore),
            ["[tool.pytest.ini_options] addopts"]
        );
    }

    /// Real history's settings that change no test run (the judged sample): a workspace
    /// member added (ripgrep be739c791028), static linking flags (46d0130597a8), a CI test
    /// command moved into a block beside coverage steps (express 0debedf4f31b), a tox
    /// environment that compiles requirements (flask 0f2ae2b93306).
    #[test]
    fn settings_that_leave_out_no_test() {
        let workspace = "[workspace]\nmembers = [\"a\"]\n";
        assert!(
            keys(
                "Cargo.toml",
                workspace,
                "[workspace]\nmembers = [\"a\", \"b\"]\n"
            )
            .is_empty()
        );
        assert_eq!(
            keys(
                "Cargo.toml",
                "[workspace]\nmembers = [\"a\", \"b\"]\n",
                workspace
            ),
            ["[workspace] members"]
        );
        let config = "[target.x86_64-pc-windows-msvc]\nrustflags = [\"-C\", \"target-feature=+crt-static\"]\n";
        assert!(keys(".cargo/config.toml", "", config).is_empty());
        assert_eq!(
            keys(
                ".cargo/config.toml",
                "",
                "[build]\nrustflags = [\"--cfg\", \"x\"]\n"
            ),
            ["[build] rustflags"]
        );
        let ci = "jobs:\n  test:\n    steps:\n    - name: Run tests\n      run: npm run test-ci\n";
        assert!(
            keys(
                ".github/workflows/ci.yml",
                ci,
                &ci.replace(
                    "run: npm run test-ci\n",
                    "run: |\n        npm run test-ci\n        cp coverage/lcov.info coverage/x.lcov\n"
                )
            )
            .is_empty()
        );
        assert_eq!(
            keys(
                ".github/workflows/ci.yml",
                ci,
                &ci.replace("test-ci", "test-ci || true")
            ),
            ["CI test command"]
        );
        let tox = "[tox]\nenvlist = py3\n\n[testenv:update-requirements]\ncommands =\n    pip-compile -U tests.in\n";
        assert!(
            keys(
                "tox.ini",
                tox,
                &tox.replace("-U tests.in", "-U tests.in docs.in")
            )
            .is_empty()
        );
        let pytest_env =
            "[tox]\nenvlist = py3\n\n[testenv:cov]\ncommands =\n    {envbindir}/pytest --cov\n";
        assert_eq!(
            keys("tox.ini", pytest_env, &pytest_env.replace(" --cov", " -x")),
            ["[testenv:cov] commands"]
        );
    }

    #[test]
    fn cargo_switches_and_test_targets() {
        let old = "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\n\n[[test]]\nname = \"it\"\npath = \"tests/it.rs\"\n";
        assert!(
            keys(
                "Cargo.toml",
                old,
                &old.replace("serde = \"1\"", "serde = \"1.1\"")
            )
            .is_empty()
        );
        assert_eq!(
            keys(
                "Cargo.toml",
                old,
                &old.replace("[[test]]\nname = \"it\"\npath = \"tests/it.rs\"\n", "")
            ),
            ["[[test]] it"]
        );
        assert_eq!(
            keys(
                "Cargo.toml",
                old,
                &old.replace("name = \"x\"\n", "name = \"x\"\nautotests = false\n")
            ),
            ["[package] autotests"]
        );
        assert_eq!(
            keys("Cargo.toml", old, &format!("{old}\n[lib]\ntest = false\n")),
            ["[lib] test"]
        );
        // What builds the library, its default features and the test profile decide which
        // tests build and what they check; a release profile does not.
        assert_eq!(
            keys(
                "Cargo.toml",
                old,
                &format!(
                    "{old}\n[lib]\npath = \"src/core.rs\"\ncrate-type = [\"cdylib\"]\n\n[features]\ndefault = [\"extra\", \"regex/perf\"]\n\n[profile.test]\ndebug-assertions = false\n\n[profile.dev]\noverflow-checks = false\nopt-level = 1\n\n[profile.release]\ndebug-assertions = false\n"
                )
            ),
            [
                "[features] default",
                "[lib] crate-type",
                "[lib] path",
                "[profile.dev] overflow-checks",
                "[profile.test] debug-assertions"
            ]
        );
        // Which packages and binaries build and test.
        assert_eq!(
            keys(
                "Cargo.toml",
                "[workspace]\nmembers = [\"a\", \"b\"]\n\n[[bin]]\nname = \"tool\"\npath = \"src/cli.rs\"\n",
                "[workspace]\nmembers = [\"a\"]\nexclude = [\"b\"]\n\n[[bin]]\nname = \"tool\"\npath = \"src/cli.rs\"\nrequired-features = [\"cli\"]\n\n[profile.dev.package.\"*\"]\noverflow-checks = false\n"
            ),
            [
                "[[bin]] tool required-features",
                "[profile.dev.package.*] overflow-checks",
                "[workspace] exclude",
                "[workspace] members"
            ]
        );
    }

    #[test]
    fn cargo_configuration_and_build_scripts() {
        assert_eq!(
            keys(
                ".cargo/config.toml",
                "[alias]\nb = \"build\"\n",
                "[alias]\nb = \"build\"\n[build]\nrustflags = [\"--cfg\", \"miri\"]\n[target.'cfg(all())']\nrunner = \"true\"\n"
            ),
            ["[build] rustflags", "[target.cfg(all())] runner"]
        );
        assert!(keys(".cargo/config.toml", "", "[alias]\nb = \"build\"\n").is_empty());
        assert!(is_config("crates/x/build.rs"));
        // The condition above the line that sets the cfg decides as much as the line.
        assert_eq!(
            keys(
                "build.rs",
                "fn main() {\n    if std::env::var(\"X\").is_some() {\n        println!(\"cargo:rustc-cfg=miri\");\n    }\n}\n",
                "fn main() {\n    if std::env::var(\"X\").is_none() {\n        println!(\"cargo:rustc-cfg=miri\");\n    }\n}\n"
            ),
            ["cargo:rustc-cfg"]
        );
        assert!(
            keys(
                "build.rs",
                "fn main() {}\n",
                "fn main() {\n    cc::build();\n}\n"
            )
            .is_empty()
        );
        assert_eq!(
            keys(
                ".cargo/config.toml",
                "",
                "[build]\nrustc-wrapper = \"tools/rustc.sh\"\n[target.x86_64-unknown-linux-gnu]\nlinker = \"tools/ld.sh\"\n"
            ),
            [
                "[build] rustc-wrapper",
                "[target.x86_64-unknown-linux-gnu] linker"
            ]
        );
        assert_eq!(
            keys(
                "build.rs",
                "fn main() {\n    println!(\"cargo:rerun-if-changed=build.rs\");\n}\n",
                "fn main() {\n    println!(\"cargo:rerun-if-changed=build.rs\");\n    println!(\"cargo:rustc-cfg=miri\");\n}\n"
            ),
            ["cargo:rustc-cfg"]
        );
    }

    #[test]
    fn package_json_scripts() {
        let old = "{\"scripts\": {\"test\": \"jest\", \"build\": \"tsc\"}, \"dependencies\": {\"a\": \"1\"}}";
        assert!(
            keys(
                "package.json",
                old,
                &old.replace("\"a\": \"1\"", "\"a\": \"2\"")
            )
            .is_empty()
        );
        assert!(keys("package.json", old, &old.replace("tsc", "tsc -b")).is_empty());
        assert_eq!(
            keys(
                "package.json",
                old,
                &old.replace("\"jest\"", "\"jest --passWithNoTests || true\"")
            ),
            ["scripts.test"]
        );
        // A side that does not parse is read by its lines: its test script is gone.
        assert_eq!(keys("package.json", old, "{not json"), ["scripts.test"]);
        // What `#assert` loads (helper-64's attack-56 J12).
        let mapped = "{\"imports\": {\"#assert\": \"./lib/assert.js\"}}";
        assert_eq!(
            keys(
                "package.json",
                mapped,
                &mapped.replace("assert.js", "loose.js")
            ),
            ["imports"]
        );
    }

    #[test]
    fn makefile_test_targets() {
        // `check` runs the tests; `check-format` checks the formatting (attack-56 F2).
        let checks = "check:\n\tpytest\n\ncheck-format:\n\tblack --check .\n";
        assert!(
            keys(
                "Makefile",
                checks,
                &checks.replace("black --check .", "black --check --diff .")
            )
            .is_empty()
        );
        assert_eq!(
            keys(
                "Makefile",
                checks,
                &checks.replace("\tpytest", "\tpytest -x")
            ),
            ["target check"]
        );
        let old = "build:\n\tcargo build\n\ntest: build\n\tcargo test\n\nlint:\n\tcargo clippy\n";
        assert!(
            keys(
                "Makefile",
                old,
                &old.replace("cargo clippy", "cargo clippy -q")
            )
            .is_empty()
        );
        assert_eq!(
            keys(
                "Makefile",
                old,
                &old.replace("\tcargo test", "\tcargo test || true")
            ),
            ["target test"]
        );
    }

    #[test]
    fn matrix_entries_and_lines() {
        for (line, entries) in [
            ("        node-version: [14, 16, 18]", 3),
            ("        python: ['3.11', '3.12,dev']", 2),
            ("          - {name: Linux, python: '3.12', tox: py312}", 1),
            ("  - \"10\"", 1),
            ("        include:", 0),
            ("        # - '3.6'", 0),
            ("        os: []", 1),
        ] {
            assert_eq!(matrix_entries(line.as_bytes()), entries, "{line}");
        }
        let workflow = "jobs:\n  tests:\n    strategy:\n      matrix:\n        include:\n          - {python: '3.12'}\n        node: [16]\n    steps:\n      - run: tox\nnode_js:\n- \"10\"\nscript: make test\n";
        let lines: Vec<&[u8]> = workflow.split_inclusive('\n').map(str::as_bytes).collect();
        assert_eq!(
            matrix_lines(&lines),
            [
                false, false, false, false, true, true, true, false, false, false, true, false
            ]
        );
    }

    /// A dependency bumped changes no setting and is not read as TOML; what can change one
    /// is.
    /// Default features that only switch a dependency's features (`bytecount/simd`), an
    /// empty default, and a target path Cargo finds anyway change nothing the tests build.
    #[test]
    fn cargo_settings_that_change_nothing() {
        let old = "[package]\nname = \"x\"\n\n[features]\ndefault = [\"fast\"]\nfast = []\n";
        for new in [
            old.replace(
                "default = [\"fast\"]",
                "default = [\"fast\", \"bytecount/simd\", \"dep:memchr\"]",
            ),
            format!(
                "{old}\n[[bin]]\nname = \"x\"\npath = \"src/main.rs\"\n\n[[bin]]\nname = \"y\"\npath = \"src/bin/y.rs\"\n\n[lib]\npath = \"src/lib.rs\"\n"
            ),
        ] {
            assert!(keys("Cargo.toml", old, &new).is_empty(), "{new}");
        }
        let new = old.replace("default = [\"fast\"]", "default = []");
        assert_eq!(keys("Cargo.toml", old, &new), ["[features] default"]);
        // What the default turns on through another feature, or through an optional
        // dependency's feature (which turns the dependency's own feature on).
        let chained = "[features]\ndefault = [\"std\"]\nstd = [\"extra\"]\nextra = []\n";
        assert_eq!(
            keys(
                "Cargo.toml",
                chained,
                &chained.replace("std = [\"extra\"]", "std = []")
            ),
            ["[features] default"]
        );
        let optional = "[dependencies]\nserde = { version = \"1\", optional = true }\n\n[features]\ndefault = [\"serde/std\"]\n";
        assert_eq!(
            keys(
                "Cargo.toml",
                optional,
                &optional.replace("\"serde/std\"", "")
            ),
            ["[features] default"]
        );
    }

    #[test]
    fn cargo_lines_that_may_matter() {
        let base = "[package]\nname = \"x\"\n\n[dependencies]\nregex = \"1.9\"\n\n[features]\ndefault = [\n  \"a\",\n]\n";
        for (from, to, matters) in [
            ("regex = \"1.9\"", "regex = \"1.10\"", false),
            (
                "regex = \"1.9\"",
                "regex = { version = \"1.10\", features = [\"std\"] }",
                false,
            ),
            ("  \"a\",\n", "  \"b\",\n", true),
            ("[dependencies]", "[dev-dependencies]", true),
            ("name = \"x\"", "name = \"x\"\nautotests = false", true),
            // A dotted key before the first header is the `[lib]` table's.
            ("[package]", "lib.test = false\n\n[package]", true),
            // Under `[dependencies]` it names a dependency called `lib`.
            (
                "regex = \"1.9\"",
                "regex = \"1.9\"\nlib.test = false",
                false,
            ),
            ("name = \"x\"", "name = \"x\"\nversion = \"0.2.0\"", false),
            // Every key of `[profile.test]` and of a `[[test]]` target is compared.
            (
                "[dependencies]",
                "[profile.test]\nopt-level = 1\n\n[dependencies]",
                true,
            ),
            // A multi-line string could hold a line that looks like a header.
            (
                "name = \"x\"",
                "name = \"x\"\ndescription = \"\"\"\n[dependencies]\n\"\"\"",
                true,
            ),
        ] {
            let new = base.replacen(from, to, 1);
            assert_eq!(
                cargo_lines_may_matter(
                    base.as_bytes(),
                    new.as_bytes(),
                    &LineDiff::new(base.as_bytes(), new.as_bytes())
                ),
                matters,
                "{from} -> {to}"
            );
            if !matters {
                assert_eq!(cargo(base).unwrap(), cargo(&new).unwrap(), "{to}");
            }
        }
        // A key of a table compared whole, its header unchanged: `[profile.test]`, a
        // `[[test]]` target renamed.
        let base =
            "[package]\nname = \"x\"\n\n[profile.test]\nopt-level = 0\n\n[[test]]\nname = \"it\"\n";
        for (from, to) in [("opt-level = 0", "opt-level = 1"), ("\"it\"", "\"other\"")] {
            let new = base.replacen(from, to, 1);
            assert!(
                cargo_lines_may_matter(
                    base.as_bytes(),
                    new.as_bytes(),
                    &LineDiff::new(base.as_bytes(), new.as_bytes())
                ),
                "{to}"
            );
            assert!(!keys("Cargo.toml", base, &new).is_empty(), "{to}");
        }
    }

    #[test]
    fn js_config_keys() {
        let old = "module.exports = {\n  testMatch: ['**/*.test.js'],\n};\n";
        let new = "module.exports = {\n  testMatch: ['**/*.test.js'],\n  testPathIgnorePatterns: ['/failing/'],\n};\n";
        assert_eq!(keys("jest.config.js", old, new), ["testPathIgnorePatterns"]);
    }

    #[test]
    fn pytest_toml_and_runner_variables() {
        assert_eq!(
            keys(
                "pytest.toml",
                "[pytest]\ntestpaths = [\"tests\"]\n",
                "[pytest]\ntestpaths = [\"tests\"]\naddopts = [\"--deselect\", \"tests/test_a.py::test_b\"]\n"
            ),
            ["[pytest] addopts"]
        );
        let tox = "[testenv]\ndeps = pytest\ncommands = pytest\n";
        assert_eq!(
            keys(
                "tox.ini",
                tox,
                &tox.replace(
                    "commands",
                    "setenv =\n    PYTEST_ADDOPTS = -k \"not slow\"\ncommands"
                )
            ),
            ["[testenv] setenv PYTEST_ADDOPTS"]
        );
        assert_eq!(
            keys(
                "tox.ini",
                tox,
                &tox.replace("commands", "set_env = PYTEST_ADDOPTS=-x\ncommands")
            ),
            ["[testenv] set_env PYTEST_ADDOPTS"]
        );
        // Variables the runner does not read are no test setting.
        assert!(
            keys(
                "tox.ini",
                tox,
                &tox.replace("commands", "setenv =\n    PYTHONWARNINGS = error\ncommands")
            )
            .is_empty()
        );
        // Nor the variables of an environment that runs no tests.
        let docs = "[testenv:build-docs]\ncommands = sphinx-build docs out\n";
        assert!(
            keys(
                "tox.ini",
                docs,
                &docs.replace("commands", "setenv = PYTEST_ADDOPTS=-x\ncommands")
            )
            .is_empty()
        );
    }

    #[test]
    fn task_runner_scripts_in_pyproject() {
        let hatch =
            "[tool.hatch.envs.default.scripts]\ntest = \"pytest {args}\"\nlint = \"ruff check\"\n";
        assert_eq!(
            keys(
                "pyproject.toml",
                hatch,
                &hatch.replace("pytest {args}", "pytest -k 'not slow' {args}")
            ),
            ["[tool.hatch.envs.default.scripts] test"]
        );
        assert!(
            keys(
                "pyproject.toml",
                hatch,
                &hatch.replace("ruff check", "ruff check --fix")
            )
            .is_empty()
        );
        // A script named otherwise that runs the runner, and Hatch's own test environment.
        let pdm = "[tool.pdm.scripts]\nci = \"python -m pytest tests\"\n";
        assert_eq!(
            keys(
                "pyproject.toml",
                pdm,
                &pdm.replace("tests\"", "tests/unit\"")
            ),
            ["[tool.pdm.scripts] ci"]
        );
        assert_eq!(
            keys(
                "pyproject.toml",
                "[project]\nname = \"x\"\n",
                "[project]\nname = \"x\"\n\n[tool.hatch.envs.hatch-test]\nextra-args = [\"-k\", \"not slow\"]\n"
            ),
            ["[tool.hatch.envs.hatch-test] extra-args"]
        );
    }

    #[test]
    fn package_scripts_the_test_script_runs() {
        let old = r#"{"scripts": {"test": "npm run unit && run-s lint:js e2e", "unit": "jest", "e2e": "playwright test", "lint:js": "eslint .", "build": "tsc"}}"#;
        for (from, to, key) in [
            ("\"jest\"", "\"jest -t adds\"", "scripts.unit"),
            (
                "\"playwright test\"",
                "\"playwright test --grep-invert x\"",
                "scripts.e2e",
            ),
            ("\"eslint .\"", "\"eslint src\"", "scripts.lint:js"),
        ] {
            assert_eq!(keys("package.json", old, &old.replace(from, to)), [key]);
        }
        // A script no test script runs is none.
        assert!(keys("package.json", old, &old.replace("\"tsc\"", "\"tsc -b\"")).is_empty());
        assert_eq!(
            scripts_called("yarn --silent run unit && pnpm e2e; npm-run-all -p a b"),
            ["unit", "e2e", "a", "b"]
        );
    }

    /// tox and nox environments that are tools, not the tests.
    #[test]
    fn ci_runs_of_tool_environments() {
        for line in [
            "  tox -e publish-gh-release-notes",
            "run: tox -e docs,linting",
            "run: tox -edocs",
            "run: nox -s lint",
            "run: tox --env=release",
            // pytest's 864a2bc0a318, ee8f98d2f976: release environments, given arguments.
            "        tox -e prepare-release-pr -- ${{ github.event.inputs.branch }} ${{ github.token }}",
            "        tox -e release-on-comment -- $GITHUB_EVENT_PATH ${{ github.token }}",
        ] {
            assert!(!ci_test_command(line.as_bytes()), "{line}");
        }
        for line in [
            "run: tox",
            "run: tox -e py312",
            "run: tox -e docs,py312",
            "run: tox -e py312-docs",
            "run: tox -e docs-tests",
            "run: tox -e publish-coverage",
            "run: nox -s tests",
            "run: tox -e ${{ matrix.env }}",
            "run: tox -e docs -- $(pytest)",
            "run: tox -e release-py312",
        ] {
            assert!(ci_test_command(line.as_bytes()), "{line}");
        }
    }

    /// A coverage report's own options only change the output.
    #[test]
    fn coverage_report_options() {
        // A coverage report's options, but for a threshold that fails the run.
        let tox = "[testenv]\ncommands =\n    coverage run -m pytest\n    coverage report\n";
        assert!(keys("tox.ini", tox, &tox.replace("report\n", "report -m\n")).is_empty());
        assert!(
            keys(
                "tox.ini",
                tox,
                &tox.replace("report\n", "html --skip-covered\n")
            )
            .is_empty()
        );
        // Not a threshold, a configuration that may hold one, a command chained to it, nor
        // another command beside it in a list.
        for new in [
            "report --fail-under=10\n",
            "report --fail-under 10\n",
            "report --rcfile=lax.rc\n",
            "report || true\n",
            "report && pytest -k 'not a'\n",
        ] {
            assert_eq!(
                keys("tox.ini", tox, &tox.replace("report\n", new)),
                ["[testenv] commands"],
                "{new}"
            );
        }
        let hatch = "[tool.hatch.envs.default.scripts]\ntest = [\"coverage erase\", \"coverage run -m pytest tests\"]\n";
        assert!(
            !keys(
                "pyproject.toml",
                hatch,
                &hatch.replace(", \"coverage run -m pytest tests\"", "")
            )
            .is_empty()
        );
        let make = "test:\n\tcoverage erase && pytest tests\n";
        assert!(
            !keys(
                "Makefile",
                make,
                &make.replace("tests\n", "tests --deselect t.py::a\n")
            )
            .is_empty()
        );
        assert_eq!(
            keys(
                "tox.ini",
                tox,
                &tox.replace("run -m pytest", "run -m pytest -x")
            ),
            ["[testenv] commands"]
        );
    }

    #[test]
    fn options_that_only_change_the_output() {
        let ini = |addopts: &str| format!("[pytest]\naddopts = {addopts}\n");
        for (old, new) in [
            ("-ra --strict-markers", "-rfEX --strict-markers"),
            ("-q", "-v --tb=short --durations 10"),
            ("--color=yes", ""),
        ] {
            assert!(
                keys("pytest.ini", &ini(old), &ini(new)).is_empty(),
                "{old} -> {new}"
            );
        }
        for (old, new) in [
            ("-ra", "-ra -k 'not slow'"),
            ("-q", "-q -x"),
            ("-q --strict-markers", "-q"),
        ] {
            assert_eq!(
                keys("pytest.ini", &ini(old), &ini(new)),
                ["[pytest] addopts"],
                "{old} -> {new}"
            );
        }
        let make = "test:\n\t./node_modules/.bin/mocha --reporter dot test/a.js\n";
        assert!(keys("Makefile", make, &make.replace("--reporter dot ", "")).is_empty());
        assert!(keys("Makefile", make, &make.replace("dot", "spec")).is_empty());
        // A reporter of one's own is code that can end the run with success: for Jest, `dot`
        // is a module name.
        let jest = r#"{"scripts": {"test": "jest"}}"#;
        assert!(
            !keys(
                "package.json",
                jest,
                &jest.replace("jest\"", "jest --reporters=dot\"")
            )
            .is_empty()
        );
        assert!(
            keys(
                "package.json",
                jest,
                &jest.replace("jest\"", "jest --reporters=default\"")
            )
            .is_empty()
        );
        for own in [
            "--reporter ./quiet.js",
            "--reporter=./quiet.js",
            "-R quiet-reporter",
        ] {
            assert!(
                !keys("Makefile", make, &make.replace("--reporter dot", own)).is_empty(),
                "{own}"
            );
        }
        assert!(!keys("Makefile", make, &make.replace("test/a.js", "test/b.js")).is_empty());
        // `cargo test -r` builds without debug assertions: not a report option.
        let cargo = "test:\n\tcargo test\n";
        assert!(
            !keys(
                "Makefile",
                cargo,
                &cargo.replace("cargo test", "cargo test -r")
            )
            .is_empty()
        );
    }

    #[test]
    fn runner_variables_in_makefiles_and_hatch() {
        let make = "test:\n\tpython -m pytest -q\n";
        for added in [
            "export PYTEST_ADDOPTS = --deselect t.py::test_a\n",
            "test: export PYTEST_ADDOPTS = -k 'not a'\n",
        ] {
            let keys = keys("Makefile", make, &format!("{added}{make}"));
            assert!(!keys.is_empty(), "{added}");
        }
        assert_eq!(
            keys(
                "Makefile",
                make,
                &format!("override JEST_FLAGS := --ci\n{make}")
            ),
            ["variable JEST_FLAGS"]
        );
        assert!(keys("Makefile", make, &format!("export CC = clang\n{make}")).is_empty());
        let hatch = "[tool.hatch.envs.default]\ndependencies = [\"pytest\"]\n";
        assert_eq!(
            keys(
                "pyproject.toml",
                hatch,
                &format!(
                    "{hatch}\n[tool.hatch.envs.default.env-vars]\nPYTEST_ADDOPTS = \"-k 'not a'\"\nCOLUMNS = \"80\"\n"
                )
            ),
            ["[tool.hatch.envs.default.env-vars] PYTEST_ADDOPTS"]
        );
    }

    #[test]
    fn makefile_targets_the_test_target_leads_to() {
        let old = "test: run-suite\n\nrun-suite:\n\tpython -m pytest -q\n\nbuild:\n\tcargo build\n\ncheck-all: build\n\t$(MAKE) unit\n\nunit:\n\tcargo test\n";
        assert_eq!(
            keys(
                "Makefile",
                old,
                &old.replace("pytest -q", "pytest -q -k 'not slow'")
            ),
            ["target run-suite"]
        );
        assert_eq!(
            keys(
                "Makefile",
                old,
                &old.replace("\tcargo test", "\tcargo test || true")
            ),
            ["target unit"]
        );
        // A prerequisite that runs no tests (a build) is not a test target.
        assert!(
            keys(
                "Makefile",
                old,
                &old.replace("cargo build", "cargo build --release")
            )
            .is_empty()
        );
    }

    #[test]
    fn surefire_and_gradle_test_task() {
        let pom = "<project>\n  <build>\n    <plugins>\n      <plugin>\n        <artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>\n      </plugin>\n      <plugin>\n        <artifactId>maven-jar-plugin</artifactId>\n        <configuration>\n          <excludes>\n            <exclude>**/a.txt</exclude>\n          </excludes>\n        </configuration>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n";
        let excluded = pom.replace(
            "<version>3.2.5</version>\n",
            "<version>3.2.5</version>\n        <configuration>\n          <excludes><exclude>**/CalcTest.java</exclude></excludes>\n        </configuration>\n",
        );
        assert_eq!(keys("pom.xml", pom, &excluded), ["maven-surefire-plugin"]);
        // Its version, and another plugin's excludes, are no test setting.
        assert!(keys("pom.xml", pom, &pom.replace("3.2.5", "3.3.0")).is_empty());
        assert!(keys("pom.xml", pom, &pom.replace("a.txt", "b.txt")).is_empty());

        let gradle = "dependencies {\n    testImplementation 'junit:junit:4.13'\n}\n\ntasks.named('test') {\n    useJUnitPlatform()\n}\n";
        for added in ["    exclude '**/CalcTest*'\n", "    enabled = false\n"] {
            assert_eq!(
                keys(
                    "build.gradle",
                    gradle,
                    &gradle.replace(
                        "    useJUnitPlatform()\n",
                        &format!("    useJUnitPlatform()\n{added}")
                    )
                ),
                ["test task"]
            );
        }
        assert!(keys("build.gradle", gradle, &gradle.replace("4.13", "4.13.2")).is_empty());
    }

    #[test]
    fn test_scripts_nested_modules_and_loaded_configurations() {
        let script = "#!/bin/sh\nset -e\necho start\npython -m pytest -q\n";
        for path in [
            "scripts/test.sh",
            "ci/build.sh",
            ".github/scripts/run",
            "bin/run-tests",
        ] {
            assert_eq!(
                keys(path, script, &script.replace("-q", "-q || true")),
                ["CI test command"],
                "{path}"
            );
            assert!(
                keys(path, script, &script.replace("start", "begin")).is_empty(),
                "{path}"
            );
        }
        for path in [
            "scripts/release.sh",
            "src/tests.rs",
            "run-tests",
            "docs/check.md",
        ] {
            assert!(!is_config(path), "{path}");
        }
        assert_eq!(
            keys("calc/go.mod", "", "module example.com/calc\n"),
            ["module boundary"]
        );
        assert_eq!(
            keys("calc/go.mod", "module example.com/calc\n", ""),
            ["module boundary"]
        );
        assert!(
            keys(
                "calc/go.mod",
                "module a\n\ngo 1.21\n",
                "module a\n\ngo 1.22\n"
            )
            .is_empty()
        );
        assert!(!is_config("go.mod"));
        assert!(is_config("config/jest.base.js"));
        assert!(is_config("vitest.shared.ts"));
        // A sample configuration under `example/` configures no run (mocha's f15e9884eba8).
        assert!(!is_config("example/config/.mocharc.js"));
        assert!(!is_config("examples/app/jest.config.js"));
        assert!(is_config("test/.mocharc.js"));
    }
}
