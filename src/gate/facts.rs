//! The facts of a change, as the intent needs them: the paths, the counts (with `[facts]
//! exclude` applied), the test-tampering analysis, and which of them a policy reads at all
//! (so that the gate computes nothing it does not need).

use crate::git::{Change, Entry, EntryMode, Repository, Snapshot};
use crate::intent::ResolvedActor;
use crate::intent::{ActionIntent, Actor, Diff, ModifiesTests, RawCount, RepoPath, Target};
use crate::policy::Policy;
use crate::policy::numeric::Argument;
use crate::tamper::{self, TamperReport};

use super::ResolvedTarget;

/// What a change measures, as the git boundary found it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeFacts {
    /// Every modified path (both sides of renames), repository-relative.
    pub files: Vec<String>,
    /// Added text lines, when counted.
    pub lines_added: Option<u64>,
    /// Deleted text lines, when counted.
    pub lines_deleted: Option<u64>,
    /// Binary files, when counted.
    pub binary_files: Option<u64>,
    /// Bytes of added text lines and of added or changed binary files, when counted.
    pub bytes_added: Option<u64>,
    /// Test tampering (SPEC §6.1), when analysed.
    pub tamper: Option<crate::tamper::TamperReport>,
    /// Components in the blast radius (SPEC §8), when a policy reads them.
    pub impacted_components: Option<u64>,
}

/// Why a change's paths cannot form an intent.
#[derive(Debug, thiserror::Error)]
// Not a `#[source]`: the message already includes it, and the error report would print it
// a second time as its cause.
#[error("the change has a path astrix cannot judge: {}", describe_path_error(.0))]
pub struct PathError(crate::intent::RepoPathError);

impl From<crate::intent::RepoPathError> for PathError {
    fn from(error: crate::intent::RepoPathError) -> Self {
        Self(error)
    }
}

/// The problem and its fix. git accepts a backslash in a file name, but an intent's paths do
/// not (SPEC §2, where a backslash would be a second separator that rules written with `/`
/// do not see), so the fix is in the repository, not in how paths are written.
fn describe_path_error(error: &crate::intent::RepoPathError) -> String {
    match error {
        crate::intent::RepoPathError::Backslash(path) => format!(
            "`{path}` contains a backslash, which astrix does not accept in a path; rename the \
             file without it (`git mv`), or unstage it (`git restore --staged`)"
        ),
        other => other.to_string(),
    }
}

/// The intent of a change made by `actor` towards `target`.
pub fn build_intent(
    facts: &ChangeFacts,
    actor: &ResolvedActor,
    target: &ResolvedTarget,
) -> Result<ActionIntent, PathError> {
    let modified_files = facts
        .files
        .iter()
        .map(|path| RepoPath::new(path.clone()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PathError)?;
    // Counts that missed a file are unknown, not zero: a policy on them fails and holds.
    let counted = facts.tamper.as_ref().filter(|report| !report.uncounted);
    let tamper = facts.tamper.as_ref();
    Ok(ActionIntent {
        actor: Actor {
            kind: actor.kind.clone(),
            id: actor.id.clone(),
        },
        target: Target {
            env: target.env.clone(),
        },
        modified_files,
        diff: Diff {
            lines_added: facts.lines_added.map(RawCount::from_u64),
            lines_deleted: facts.lines_deleted.map(RawCount::from_u64),
            binary_files: facts.binary_files.map(RawCount::from_u64),
            bytes_added: facts.bytes_added.map(RawCount::from_u64),
            // A test removed or skipped, or an assertion removed, in any file (test path or
            // not: a Rust `#[cfg(test)]` module lives in `src/`) modifies tests.
            modifies_tests: ModifiesTests(tamper.is_some_and(|report| {
                report.modifies_tests()
                    || report.assertions_removed > 0
                    || report.assertions_weakened > 0
                    || report.test_config_changed > 0
                    || report.uncounted
            })),
            tests_removed: counted.map(|report| RawCount::from_u64(report.tests_removed)),
            test_skips_added: counted.map(|report| RawCount::from_u64(report.test_skips_added)),
            assertions_removed: counted.map(|report| RawCount::from_u64(report.assertions_removed)),
            assertions_weakened: counted
                .map(|report| RawCount::from_u64(report.assertions_weakened)),
            test_config_changed: counted
                .map(|report| RawCount::from_u64(report.test_config_changed)),
            impacted_components: facts.impacted_components.map(RawCount::from_u64),
        },
        approved: None,
        action: None,
    })
}

/// The facts of a change, as the intent needs them. The size counts leave out the files that
/// `[facts] exclude` names, each side of a pair (a rename is left out only when both its
/// paths are excluded, so a rename cannot hide its own edit).
pub fn change_facts(change: &Change, policy: &Policy, tamper: Option<TamperReport>) -> ChangeFacts {
    let totals = change.totals_without(|file| {
        policy.excludes_from_counts(&file.path) && policy.excludes_from_counts(file.old_path())
    });
    ChangeFacts {
        files: change.modified_paths(),
        lines_added: totals.map(|totals| totals.lines_added),
        lines_deleted: totals.map(|totals| totals.lines_deleted),
        binary_files: totals.map(|totals| totals.binary_files),
        bytes_added: totals.map(|totals| totals.bytes_added),
        tamper,
        impacted_components: None,
    }
}

/// The test-tampering analysis of a change: every changed regular file of a known language,
/// old content against new (a rename's old content under its new path); a rename to a path
/// of no known language (`test_a.py` to `test_a.py.disabled`) as the deletion of its old
/// path.
pub fn analyze_tampering(repo: &Repository, change: &Change) -> anyhow::Result<TamperReport> {
    let content = |entry: Option<&Entry>| -> anyhow::Result<Option<Vec<u8>>> {
        match entry {
            Some(entry) if matches!(entry.mode, EntryMode::File | EntryMode::Executable) => {
                Ok(Some(repo.blob(&entry.id)?))
            }
            _ => Ok(None),
        }
    };
    let mut files = Vec::new();
    let merge = MergeSides::of(repo, change)?;
    let own = own_framework(repo, change)?;
    for file in &change.files {
        let framework_source =
            own.covers(&file.path) && tamper::is_framework_source(&file.path, file.old_path());
        if let Some(analysis) = file.tamper.as_ref().filter(|_| !framework_source) {
            // Analysed alongside the line counts, from the same content (`ChangeOptions::tamper`).
            files.push(analysis.clone());
            continue;
        }
        if !tamper::is_analysed(&file.path) && !tamper::is_analysed(file.old_path()) {
            continue;
        }
        let old = content(file.old.as_ref())?;
        let new = content(file.new.as_ref())?;
        let analysis = if framework_source {
            tamper::analyze_framework_source(
                &file.path,
                file.old_path(),
                old.as_deref(),
                new.as_deref(),
            )
        } else {
            tamper::analyze_changed_file(
                &file.path,
                file.old_path(),
                old.as_deref(),
                new.as_deref(),
                None,
            )
        };
        if let Some(mut analysis) = analysis {
            if let Some(merge) = &merge {
                merge.own(repo, file.old.as_ref(), new.as_deref(), &mut analysis)?;
            }
            files.push(analysis);
        }
    }
    // A `node_modules` of the repository's own, however it is made (a symbolic link to a
    // stub of `chai`, helper-68's attack-59 L1), is what the tests load for their packages.
    for file in &change.files {
        let own_modules = |path: &str| path.split('/').any(|part| part == "node_modules");
        if (own_modules(&file.path) || own_modules(file.old_path()))
            && !files.iter().any(|analysed| analysed.path == file.path)
        {
            files.push(tamper::FileTamper::with_setting(&file.path, "node_modules"));
        }
    }
    named_skips_used_elsewhere(repo, change, &mut files)?;
    // A framework's own repository loads its own source with its tests: that is the code
    // its tests test, not their harness.
    if !own.python {
        registered_plugins(repo, change, &mut files)?;
    }
    if !own.javascript {
        js_setup_files(repo, change, &mut files)?;
    }
    if own.renamed {
        if let Some(file) = files
            .iter_mut()
            .find(|file| ROOTS.contains(&file.path.as_str()))
        {
            file.add_setting(RENAMED);
        } else if let Some(file) = change
            .files
            .iter()
            .find(|file| ROOTS.contains(&file.path.as_str()))
        {
            files.push(tamper::FileTamper::with_setting(&file.path, RENAMED));
        }
    }
    Ok(tamper::combine(files))
}

/// The package names of test frameworks, per language of their source: in a repository
/// whose own package is one, the framework's source names the framework as its own code.
/// Exact names, not a plugin's (`pytest-xdist`'s source is a plugin that its own tests
/// load, and a name like `chai-helpers` is any project's: helper-65's attack-57 F1-F9).
const PYTHON_FRAMEWORKS: &[&str] = &["pytest", "py", "nose", "nose2", "unittest2"];
const JS_FRAMEWORKS: &[&str] = &[
    "mocha",
    "jest",
    "jasmine",
    "jasmine-core",
    "ava",
    "tap",
    "chai",
    "should",
    "expect.js",
    "karma",
    "qunit",
    "vitest",
];

/// The languages whose framework the repository's own package is, as its root files
/// (`read`) name it (`pyproject.toml`'s `[project]` or `[tool.poetry]` `name`, `setup.cfg`'s
/// or `setup.py`'s `name` for Python; `package.json`'s `"name"` for JavaScript).
fn framework_of(
    read: impl Fn(&str) -> anyhow::Result<Option<String>>,
    wanted: Framework,
) -> anyhow::Result<Framework> {
    let named = |name: &str, names: &[&str]| {
        let name = name.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
        names.contains(&name.as_str())
    };
    let mut framework = Framework::default();
    if wanted.javascript
        && let Some(text) = read("package.json")?
        && let Ok(serde_json::Value::Object(package)) = serde_json::from_str(&text)
        && let Some(name) = package.get("name").and_then(serde_json::Value::as_str)
    {
        framework.javascript = named(name, JS_FRAMEWORKS);
    }
    if !wanted.python {
        return Ok(framework);
    }
    if let Some(text) = read("pyproject.toml")?
        && let Ok(table) = text.parse::<toml::Table>()
        && let Some(name) = table
            .get("project")
            .and_then(|project| project.get("name"))
            .or_else(|| {
                table
                    .get("tool")
                    .and_then(|tool| tool.get("poetry"))
                    .and_then(|poetry| poetry.get("name"))
            })
            .and_then(toml::Value::as_str)
    {
        framework.python = named(name, PYTHON_FRAMEWORKS);
        return Ok(framework);
    }
    // `name = pytest` in `setup.cfg`'s `[metadata]`, `name="pytest"` in `setup.py`.
    for path in ["setup.cfg", "setup.py"] {
        if let Some(text) = read(path)? {
            for line in text.lines() {
                let line = line.trim().trim_end_matches(',');
                if let Some((key, value)) = line.split_once('=')
                    && key.trim() == "name"
                    && !value.trim().is_empty()
                    && value
                        .trim()
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.\"'".contains(c))
                {
                    framework.python = named(value, PYTHON_FRAMEWORKS);
                    return Ok(framework);
                }
            }
        }
    }
    Ok(framework)
}

/// Which languages' test framework a repository's own package is ([`framework_of`]).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Framework {
    python: bool,
    javascript: bool,
    /// The change names the package as a framework its parent's was not.
    renamed: bool,
}

/// The root files that name a repository's own package.
const ROOTS: &[&str] = &["package.json", "pyproject.toml", "setup.cfg", "setup.py"];

/// The setting a change that names its package as a test framework counts.
const RENAMED: &str = "package named as a test framework";

impl Framework {
    /// Whether the file at `path` is in the framework's own language.
    fn covers(self, path: &str) -> bool {
        match tamper::language_of(path) {
            Some(tamper::Language::Python) => self.python,
            Some(tamper::Language::JavaScript) => self.javascript,
            _ => false,
        }
    }
}

/// The repository's framework as the change's first parent names it: read from the parent,
/// so that a change cannot give its own repository a framework's name. A change that does
/// (its package renamed `pytest`) changes how the tests after it are read: that is a test
/// setting of its own, [`RENAMED`], on the file that names it (helper-65's attack-57 F4,
/// F5). Read only when a file it would change is in the change.
fn own_framework(repo: &Repository, change: &Change) -> anyhow::Result<Framework> {
    let Some(parent) = change.parents.first() else {
        return Ok(Framework::default());
    };
    // Only the manifests of the languages whose source the change touches are read (all of
    // them when a manifest changes): a JavaScript change reads no `pyproject.toml`.
    let roots_changed = change
        .files
        .iter()
        .any(|file| ROOTS.contains(&file.path.as_str()));
    let mut wanted = Framework {
        python: roots_changed,
        javascript: roots_changed,
        renamed: false,
    };
    for file in &change.files {
        if tamper::is_framework_source(&file.path, file.old_path()) {
            match tamper::language_of(&file.path) {
                Some(tamper::Language::Python) => wanted.python = true,
                Some(tamper::Language::JavaScript) => wanted.javascript = true,
                _ => {}
            }
        }
    }
    if !(wanted.python || wanted.javascript) {
        return Ok(Framework::default());
    }
    // Each manifest read from the parent once, for both sides.
    let mut parent_roots: std::collections::BTreeMap<&str, Option<String>> =
        std::collections::BTreeMap::new();
    for root in ROOTS {
        let javascript = *root == "package.json";
        if !(if javascript {
            wanted.javascript
        } else {
            wanted.python
        }) {
            continue;
        }
        let text = repo
            .file_at_rev(parent, root)?
            .map(|blob| String::from_utf8_lossy(&blob.data).into_owned());
        parent_roots.insert(root, text);
    }
    let in_parent = |path: &str| -> anyhow::Result<Option<String>> {
        Ok(parent_roots.get(path).cloned().flatten())
    };
    let mut before = framework_of(in_parent, wanted)?;
    if roots_changed {
        let in_change = |path: &str| -> anyhow::Result<Option<String>> {
            match change.files.iter().find(|file| file.path == path) {
                Some(file) => match file.new.as_ref().filter(|entry| entry.mode.is_regular()) {
                    Some(entry) => Ok(Some(
                        String::from_utf8_lossy(&repo.blob(&entry.id)?).into_owned(),
                    )),
                    None => Ok(None),
                },
                None => in_parent(path),
            }
        };
        let after = framework_of(in_change, wanted)?;
        before.renamed =
            (after.python && !before.python) || (after.javascript && !before.javascript);
    }
    Ok(before)
}

/// Whether the gate looks `file` up among the repository's plugins: a module outside the
/// test paths that names pytest, or any module not named for tests with changed hook lines
/// (`tests/plugin.py`, attack-50 B7h: already test code by its path, its hooks a setting
/// when registered).
fn looked_up(file: &tamper::FileTamper) -> bool {
    file.harness == Some(tamper::Harness::PytestPlugin) || !file.plugin_hooks.is_empty()
}

/// A Python module outside the test paths that names pytest is part of the tests when the
/// repository registers it as a plugin ([`tamper::plugins`]): the change to it is a test
/// change, and the changed lines of its hooks a changed runner setting (attack-50 B7f-h,
/// helper-59's attack-52). The registrations are read from each parent's tree and from the
/// change's new files, then followed through the hooks registered modules take in from
/// others. Read only when such a module changed: then every path of the parents' trees is
/// listed once.
fn registered_plugins(
    repo: &Repository,
    change: &Change,
    files: &mut [tamper::FileTamper],
) -> anyhow::Result<()> {
    use std::collections::BTreeMap;
    use tamper::plugins::{Registry, is_module, is_registry};
    if !files.iter().any(looked_up) {
        return Ok(());
    }
    let mut registry = Registry::default();
    // Every Python module, by path, with the blob it has (the change's when it changes it).
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    let read = |path: &str, id: &str, registry: &mut Registry| -> anyhow::Result<()> {
        if is_registry(path) {
            registry.read(path, &repo.blob(id)?);
        }
        Ok(())
    };
    for parent in &change.parents {
        let snapshot = Snapshot::Commit(parent.clone());
        for file in repo.files_where(&snapshot, |path| is_registry(path) || is_module(path))? {
            read(&file.path, &file.id, &mut registry)?;
            if is_module(&file.path) {
                modules.insert(file.path, file.id);
            }
        }
    }
    for other in &change.files {
        if let Some(entry) = other.new.as_ref().filter(|entry| entry.mode.is_regular()) {
            read(&other.path, &entry.id, &mut registry)?;
            if is_module(&other.path) {
                modules.insert(other.path.clone(), entry.id.clone());
            }
        }
    }
    // The hooks a registered module takes in from another register that one too.
    let mut done: std::collections::HashSet<String> = std::collections::HashSet::new();
    for _ in 0..4 {
        let next: Vec<(String, String)> = modules
            .iter()
            .filter(|(path, _)| !done.contains(path.as_str()) && registry.names_exactly(path))
            .map(|(path, id)| (path.clone(), id.clone()))
            .collect();
        let mut grew = false;
        for (path, id) in next {
            grew |= registry.read_module(&path, &repo.blob(&id)?);
            done.insert(path);
        }
        if !grew {
            break;
        }
    }
    for file in files.iter_mut().filter(|file| looked_up(file)) {
        let found = registry
            .registrar(&file.path)
            .or_else(|| {
                file.old_path
                    .as_deref()
                    .and_then(|path| registry.registrar(path))
            })
            .map(|(by, hooks)| (by.to_owned(), hooks));
        if let Some((by, hooks)) = found {
            file.plugin_registered(&by, hooks);
        }
    }
    Ok(())
}

/// A JavaScript file outside the test paths is test code when a test runner's
/// configuration names it ([`tamper::plugins::Registry::read_js`]): a `.mocharc` `require`,
/// a Jest `setupFilesAfterEnv`, the script `npm test` runs. The configurations are looked
/// for in each directory above the file and in each directory at the root (`web/.mocharc.yml`
/// naming `../support/setup.js`), in each parent commit and in the change: a few tree
/// lookups, not a listing of the tree. Read only when such a file changed.
fn js_setup_files(
    repo: &Repository,
    change: &Change,
    files: &mut [tamper::FileTamper],
) -> anyhow::Result<()> {
    use std::collections::BTreeSet;
    use tamper::plugins::{JS_RUNNER_CONFIGS, Registry};
    if !files
        .iter()
        .any(|file| file.harness == Some(tamper::Harness::SetupFile))
    {
        return Ok(());
    }
    let mut dirs: BTreeSet<&str> = BTreeSet::new();
    for file in files
        .iter()
        .filter(|file| file.harness == Some(tamper::Harness::SetupFile))
    {
        let mut path = file.path.as_str();
        while let Some((dir, _)) = path.rsplit_once('/') {
            dirs.insert(dir);
            path = dir;
        }
        dirs.insert("");
    }
    let dirs: Vec<&str> = dirs.into_iter().collect();
    let mut registry = Registry::default();
    for parent in &change.parents {
        for file in repo.files_in_dirs(parent, &dirs, true, JS_RUNNER_CONFIGS)? {
            registry.read_js(&file.path, &repo.blob(&file.id)?);
        }
    }
    for other in &change.files {
        let name = other.path.rsplit('/').next().unwrap_or_default();
        if JS_RUNNER_CONFIGS.contains(&name)
            && let Some(entry) = other.new.as_ref().filter(|entry| entry.mode.is_regular())
        {
            registry.read_js(&other.path, &repo.blob(&entry.id)?);
        }
    }
    for file in files
        .iter_mut()
        .filter(|file| file.harness == Some(tamper::Harness::SetupFile))
    {
        let by = registry
            .names_js(&file.path)
            .or_else(|| {
                file.old_path
                    .as_deref()
                    .and_then(|path| registry.names_js(path))
            })
            .map(str::to_owned);
        if let Some(by) = by {
            file.plugin_registered(&by, false);
        }
    }
    Ok(())
}

/// A skip bound to a name that a file forgave (only its own new tests use the name) counts
/// again when another file of the change mentions the name: `from test_a import need_x`
/// and `@need_x` on tests that ran there. Not a file that forgave a skip bound to the same
/// name itself and mentions it only bare: those mentions are of its own binding (express
/// names `describePromises = … describe.skip` in each test file that needs it), where
/// `test_a.need_x` is not. Read only when a file forgave one.
fn named_skips_used_elsewhere(
    repo: &Repository,
    change: &Change,
    files: &mut [tamper::FileTamper],
) -> anyhow::Result<()> {
    // (the file's index, its path, the name)
    let named: Vec<(usize, String, String)> = files
        .iter()
        .enumerate()
        .flat_map(|(index, file)| {
            file.named_skips
                .iter()
                .map(move |named| (index, file.path.clone(), named.name.clone()))
        })
        .collect();
    if named.is_empty() {
        return Ok(());
    }
    for other in &change.files {
        let Some(entry) = other
            .new
            .as_ref()
            .filter(|entry| matches!(entry.mode, EntryMode::File | EntryMode::Executable))
        else {
            continue;
        };
        let text = repo.blob(&entry.id)?;
        let binds_itself = |name: &String| {
            named
                .iter()
                .any(|(_, path, own)| own == name && *path == other.path)
        };
        // Its own binding explains only its bare mentions: `test_a.need_x` reaches another's.
        let exempt =
            |name: &String| binds_itself(name) && !tamper::mentions_as_attribute(&text, name);
        for (index, path, name) in &named {
            if *path != other.path && !exempt(name) && tamper::mentions(&text, name) {
                files[*index].named_skip_used_elsewhere(name);
            }
        }
    }
    Ok(())
}

/// A merge of two parents with one merge base: what its own resolution does to the tests,
/// not what either side did before it.
///
/// A merged file is compared with the parent it differs from least (`c`); the other parent
/// (`o`) brought its own changes since the merge base `B`, and the merge result `M` keeps
/// them or not. [`tamper::FileTamper::own_in_merge`] takes off the analysis of `c → M` what
/// `B → o` did the same way (a test the other side removed, judged where it was removed),
/// and adds what `o → M` undid of it (a test the other side added that the resolution
/// dropped). Octopus merges and criss-cross histories (several merge bases) keep the
/// comparison with the closest parent alone.
struct MergeSides {
    parents: [String; 2],
    base: String,
}

impl MergeSides {
    fn of(repo: &Repository, change: &Change) -> anyhow::Result<Option<Self>> {
        let [one, two] = change.parents.as_slice() else {
            return Ok(None);
        };
        let bases = repo.merge_bases(one, two)?;
        let [base] = bases.as_slice() else {
            return Ok(None);
        };
        Ok(Some(Self {
            parents: [one.clone(), two.clone()],
            base: base.clone(),
        }))
    }

    /// Makes `analysis` (of the closest parent's side `closest` against the merge's `new`)
    /// the merge's own.
    fn own(
        &self,
        repo: &Repository,
        closest: Option<&Entry>,
        new: Option<&[u8]>,
        analysis: &mut tamper::FileTamper,
    ) -> anyhow::Result<()> {
        let path = analysis.path.clone();
        // Which side is which, and whether the other side changed the file at all, from the
        // tree entries alone: the contents are read only for a file both sides changed.
        let closest = closest.map(|entry| entry.id.as_str());
        let mut other_parent = None;
        for parent in &self.parents {
            let id = repo.file_blob_id(parent, &path)?;
            if id.as_deref() != closest {
                other_parent = Some((parent, id));
            }
        }
        // Both parents hold the closest side: the other side changed nothing here.
        let Some((other_parent, other_id)) = other_parent else {
            return Ok(());
        };
        if repo.file_blob_id(&self.base, &path)? == other_id {
            // Nor here: the other side kept the merge base's version.
            return Ok(());
        }
        let other = repo.file_at_rev(other_parent, &path)?;
        let base = repo.file_at_rev(&self.base, &path)?;
        let other = other.as_ref().map(|blob| blob.data.as_slice());
        let base = base.as_ref().map(|blob| blob.data.as_slice());
        let brought = tamper::analyze_file(&path, base, other);
        let undone = tamper::analyze_file(&path, other, new);
        if let (Some(brought), Some(undone)) = (brought, undone) {
            analysis.own_in_merge(&brought, &undone);
        }
        Ok(())
    }
}

/// Whether any rule of `policy` compares line counts (so the gate must compute them).
pub fn needs_line_counts(policy: &Policy) -> bool {
    policy.rules.iter().any(|rule| {
        rule.policy
            .as_ref()
            .is_some_and(|policy| reads_line_counts(policy.argument))
    })
}

/// Whether a rule needs the test-tampering analysis: it reads one of its counts, or its
/// `modifies_tests` condition, which a removed or skipped test escalates.
pub fn needs_tamper(policy: &Policy) -> bool {
    policy.rules.iter().any(|rule| {
        rule.modifies_tests.is_some()
            || rule
                .policy
                .as_ref()
                .is_some_and(|policy| reads_tamper(policy.argument))
    })
}

/// Whether a policy's text may need what [`needs_line_counts`] or [`needs_tamper`] ask
/// for, read before it is parsed: it names one of those arguments or `modifies_tests`
/// anywhere, or holds a backslash (an escape, or a line continuation in a string, could
/// spell one). A guess that the parsed policy settles; false only where both are false.
pub fn text_may_need_content(text: &[u8]) -> bool {
    text.contains(&b'\\')
        || Argument::ALL
            .into_iter()
            .filter(|argument| reads_line_counts(*argument) || reads_tamper(*argument))
            .map(Argument::name)
            .chain(["modifies_tests"])
            .any(|name| memchr::memmem::find(text, name.as_bytes()).is_some())
}

fn reads_line_counts(argument: Argument) -> bool {
    matches!(
        argument,
        Argument::LinesAdded
            | Argument::LinesDeleted
            | Argument::LinesChanged
            | Argument::BinaryFiles
            | Argument::BytesAdded
    )
}

fn reads_tamper(argument: Argument) -> bool {
    matches!(
        argument,
        Argument::TestsRemoved
            | Argument::TestSkipsAdded
            | Argument::AssertionsRemoved
            | Argument::AssertionsWeakened
            | Argument::TestConfigChanged
    )
}

/// Whether a rule reads `impacted_components` (so the gate must build the component graph).
pub fn needs_impact(policy: &Policy) -> bool {
    policy.rules.iter().any(|rule| {
        rule.policy
            .as_ref()
            .is_some_and(|policy| policy.argument == Argument::ImpactedComponents)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The guess from a policy's text never says "no content" where the parsed policy reads
    /// some; it may say "content" where the policy reads none (a name in a comment).
    #[test]
    fn the_text_guess_never_misses_what_the_policy_reads() {
        let rule = |body: &str| {
            format!("version = 1\n[[rule]]\nid = \"r\"\n{body}\ndecision = \"require_approval\"\n")
        };
        let cases = [
            (crate::policy::DEFAULT_POLICY.to_owned(), true),
            (rule("paths = [\".github/**\"]"), false),
            (rule("policy = \"files_changed <= 2\""), false),
            (rule("policy = \"lines_changed <= 400\""), true),
            (rule("policy = \"bytes_added <= 4000\""), true),
            (rule("policy = \"tests_removed > 0\""), true),
            (rule("modifies_tests = true"), true),
            // Spelled with an escape, in a quoted key or in a string.
            (rule("\"modifies\\u005ftests\" = true"), true),
            (rule("policy = \"lines\\u005fchanged <= 400\""), true),
            // A name in a comment reads nothing, but the guess cannot tell.
            (
                rule("# lines_added is not compared\npaths = [\"a\"]"),
                false,
            ),
        ];
        for (text, reads) in cases {
            let policy = match crate::policy::load("Astrixfile.ax", &text) {
                Ok((policy, _)) => policy,
                Err(diagnostics) => panic!("{text}: {diagnostics:?}"),
            };
            let needs = needs_line_counts(&policy) || needs_tamper(&policy);
            assert_eq!(needs, reads, "{text}");
            let guess = text_may_need_content(text.as_bytes());
            assert!(guess || !needs, "{text}");
        }
        assert!(text_may_need_content(b"# lines_added\n"));
        assert!(!text_may_need_content(b"version = 1\n"));
    }
}
