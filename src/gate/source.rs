//! Where the policy comes from: a file named on the command line, a revision of the
//! repository, or the built-in default. Every evaluating command resolves its policy here,
//! so that what `evaluate` answers is what the commit gate does.

use std::fmt::Write as _;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::diagnostic::Diagnostics;
use crate::policy::{self, Policy};
use crate::report::PolicyProvenance;

/// A validated policy and where it came from.
#[derive(Debug, Clone)]
pub struct LoadedPolicy {
    /// The policy.
    pub policy: std::sync::Arc<Policy>,
    /// Where it came from.
    pub provenance: PolicyProvenance,
    /// Warnings found while validating it.
    pub warnings: Diagnostics,
}

/// A policy file that does not validate.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the policy `{}` is invalid", .0.file)]
pub struct InvalidPolicyError(pub Diagnostics);

/// `sha256:<hex>` of the policy text.
pub fn digest(text: &str) -> String {
    let hash = Sha256::digest(text.as_bytes());
    let mut out = String::from("sha256:");
    for byte in hash {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// Validates `text`, its `[[test]]` cases included, which the caller runs or counts;
/// `provenance` says where it came from (its digest is filled in here).
pub fn from_text(
    label: &str,
    text: &str,
    provenance: PolicyProvenance,
) -> Result<LoadedPolicy, InvalidPolicyError> {
    from_text_with(label, text, provenance, Cases::Keep)
}

/// What a caller needs of a policy's `[[test]]` cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cases {
    /// The cases themselves: they are run (`astrix test`) or counted (`validate`).
    Keep,
    /// Only that they load, for a policy that judges: a committed policy whose cases do not
    /// load is invalid like any other. The built-in default's cases are known to load (unit
    /// tests run them), so its text (committed unchanged, or built in) is read without them.
    Check,
}

/// [`from_text`], reading the cases as `cases` says.
fn from_text_with(
    label: &str,
    text: &str,
    mut provenance: PolicyProvenance,
    cases: Cases,
) -> Result<LoadedPolicy, InvalidPolicyError> {
    let built_in = text == policy::DEFAULT_POLICY;
    provenance.digest = if built_in {
        policy::DEFAULT_POLICY_DIGEST.to_owned()
    } else {
        digest(text)
    };
    let read = if built_in && cases == Cases::Check {
        policy::DEFAULT_POLICY_RULES
    } else {
        text
    };
    match load_once(label, read, &provenance.digest) {
        Ok((policy, warnings)) => Ok(LoadedPolicy {
            policy: policy.into(),
            provenance,
            warnings,
        }),
        Err(diagnostics) => Err(InvalidPolicyError(diagnostics)),
    }
}

/// What loading a policy gave: the policy and its warnings, or its diagnostics.
type Loaded = Result<(Policy, Diagnostics), Diagnostics>;

/// A policy loaded inside [`reusing`]: its label, digest, the length of the text read (the
/// built-in default's is read with or without its cases), and what loading it gave.
type KeptPolicy = (String, String, usize, Loaded);

thread_local! {
    /// The policies loaded inside [`reusing`], by label and digest; `None` outside it.
    static LOADED: std::cell::RefCell<Option<Vec<KeptPolicy>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `work` with every policy it loads kept for the rest of it, so that the same text is
/// parsed once: the backstop reads the repository's policy and each branch's, which are
/// mostly the same file (or the built-in default). Outside it nothing is kept, and a
/// command that loads one policy pays nothing for the keeping.
pub fn reusing<T>(work: impl FnOnce() -> T) -> T {
    LOADED.with_borrow_mut(|loaded| *loaded = Some(Vec::new()));
    let result = work();
    LOADED.with_borrow_mut(|loaded| *loaded = None);
    result
}

/// [`policy::load`] of `text` (whose digest is `digest`), once per label and content inside
/// [`reusing`].
fn load_once(label: &str, text: &str, digest: &str) -> Loaded {
    /// A transaction judges a handful of policies at most; more are loaded again.
    const KEPT: usize = 8;
    let found = LOADED.with_borrow(|loaded| {
        loaded.as_ref().map(|loaded| {
            loaded
                .iter()
                .find(|(l, d, len, _)| l == label && d == digest && *len == text.len())
                .map(|(_, _, _, result)| result.clone())
        })
    });
    match found {
        None => policy::load(label, text),
        Some(Some(result)) => result,
        Some(None) => {
            let result = policy::load(label, text);
            LOADED.with_borrow_mut(|loaded| {
                if let Some(loaded) = loaded
                    && loaded.len() < KEPT
                {
                    loaded.push((
                        label.to_owned(),
                        digest.to_owned(),
                        text.len(),
                        result.clone(),
                    ));
                }
            });
            result
        }
    }
}

/// The built-in default policy, to judge with; `why` says why it applies. Its `[[test]]`
/// cases are not read: [`built_in_with_cases`] reads them, and unit tests run them.
pub fn built_in(why: &str) -> LoadedPolicy {
    built_in_loaded(why, Cases::Check)
}

/// [`built_in`] with its `[[test]]` cases, for `astrix test`.
pub fn built_in_with_cases(why: &str) -> LoadedPolicy {
    built_in_loaded(why, Cases::Keep)
}

fn built_in_loaded(why: &str, cases: Cases) -> LoadedPolicy {
    let provenance = PolicyProvenance {
        source: "built-in".to_owned(),
        file: None,
        revision: None,
        digest: String::new(),
        description: format!("the built-in default policy ({why})"),
    };
    match from_text_with(
        "<built-in default policy>",
        policy::DEFAULT_POLICY,
        provenance,
        cases,
    ) {
        Ok(loaded) => loaded,
        // INVARIANT: the built-in policy is validated by unit tests; reaching this is a bug,
        // and the panic hook turns it into exit 2 (the action is blocked).
        Err(err) => panic!("the built-in default policy does not validate: {err:?}"),
    }
}

/// How a policy file read from disk came to be read, for the report's `policy` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileOrigin {
    /// The user named it (`--policy PATH`, `astrix test PATH`).
    Named,
    /// The command found it at the root of the work tree, as it is on disk (which need not
    /// be what is committed).
    WorkTree,
}

/// Reads and validates a policy file from disk.
pub fn from_file(path: &Path, origin: FileOrigin) -> anyhow::Result<LoadedPolicy> {
    let label = path.display().to_string();
    let bytes = read_policy_file(path)?;
    let text = policy::decode(&label, bytes).map_err(InvalidPolicyError)?;
    let provenance = PolicyProvenance {
        source: "file".to_owned(),
        file: Some(label.clone()),
        revision: None,
        digest: String::new(),
        description: match origin {
            FileOrigin::Named => format!("`{label}` (named on the command line)"),
            FileOrigin::WorkTree => format!(
                "`{label}` (the work tree's file as it is on disk; the gate reads the committed one)"
            ),
        },
    };
    Ok(from_text(&label, &text, provenance)?)
}

/// The bytes of the policy file at `path`; an error says which file could not be read.
pub fn read_policy_file(path: &Path) -> anyhow::Result<Vec<u8>> {
    use anyhow::Context as _;
    fs_err::read(path).with_context(|| {
        format!(
            "cannot read the policy file `{}`; check that it exists and that you may read it",
            path.display()
        )
    })
}

/// The policy that judges changes in a repository, and what went wrong finding it.
#[derive(Debug, Clone)]
pub struct RepositoryPolicy {
    /// The policy that judges.
    pub loaded: LoadedPolicy,
    /// The diagnostics of a committed policy that does not validate; the built-in default
    /// judges instead, and the change is additionally held (SPEC §6).
    pub committed_invalid: Option<Diagnostics>,
}

/// Where the commit gate takes its policy from (SPEC §6): the `Astrixfile.ax` committed at
/// `HEAD`, never the working tree's or the index's; on the very first commit of a
/// repository, the staged one; on an orphan branch of a repository with history, the
/// default branch's; else the built-in default.
pub fn for_repository(
    repo: &crate::git::Repository,
    head: &crate::git::Head,
) -> Result<RepositoryPolicy, crate::git::GitError> {
    Ok(locate(repo, head)?.load())
}

/// The policy [`for_repository`] judges with, read from the repository but not yet parsed:
/// reading needs the repository, parsing and validating do not, so that the commit gate can
/// do them beside its reading of the change.
#[derive(Debug)]
pub enum Located {
    /// No policy file: the built-in default, for this reason.
    BuiltIn(String),
    /// A committed (or, on the first commit, staged) policy file's bytes and origin.
    Committed(Vec<u8>, PolicyProvenance),
}

impl Located {
    /// Whether the policy may read the change's content (line counts, the test-tampering
    /// analysis), told before it is parsed: always for the built-in policy, and for a
    /// committed one unless its text cannot name what needs it
    /// ([`super::facts::text_may_need_content`]).
    pub fn may_need_content(&self) -> bool {
        match self {
            Self::BuiltIn(_) => true,
            Self::Committed(data, _) => super::facts::text_may_need_content(data),
        }
    }

    /// Parses and validates the policy: an invalid committed one is reported in
    /// [`RepositoryPolicy::committed_invalid`], with the built-in default judging instead.
    pub fn load(self) -> RepositoryPolicy {
        match self {
            Self::BuiltIn(why) => RepositoryPolicy {
                loaded: built_in(&why),
                committed_invalid: None,
            },
            Self::Committed(data, provenance) => from_committed(data, provenance),
        }
    }
}

/// Where [`for_repository`]'s policy comes from, read but not parsed.
pub fn locate(
    repo: &crate::git::Repository,
    head: &crate::git::Head,
) -> Result<Located, crate::git::GitError> {
    use crate::git::Head;
    use crate::policy::FILE_NAME;

    let short = |id: &str| id.chars().take(12).collect::<String>();
    let (blob, source, revision, description) = match head {
        Head::Branch { commit, .. } | Head::Detached { commit } => (
            repo.file_at_rev(commit, FILE_NAME)?,
            "head",
            Some(commit.clone()),
            format!("{FILE_NAME} committed at HEAD ({})", short(commit)),
        ),
        Head::Unborn { branch } => {
            if repo.has_any_commit()? {
                match repo.default_branch_ref()? {
                    Some(default) => (
                        repo.file_at_rev(&default.commit, FILE_NAME)?,
                        "branch",
                        Some(default.commit.clone()),
                        format!(
                            "{FILE_NAME} of the default branch `{}` ({}), because {} without commits",
                            default.name.trim_start_matches("refs/heads/"),
                            short(&default.commit),
                            match branch {
                                Some(branch) => format!("`{branch}` is an orphan branch"),
                                None => "HEAD names no branch yet".to_owned(),
                            }
                        ),
                    ),
                    None => (None, "branch", None, String::new()),
                }
            } else {
                (
                    repo.file_in_index(FILE_NAME)?,
                    "index",
                    None,
                    format!("the staged {FILE_NAME} (the first commit of this repository)"),
                )
            }
        }
    };
    let Some(blob) = blob else {
        let why = match (head, source) {
            (Head::Unborn { .. }, "index") => {
                format!("the first commit of this repository stages no {FILE_NAME}")
            }
            (Head::Unborn { .. }, _) => {
                format!("no {FILE_NAME} on this orphan branch's default branch")
            }
            _ => format!("no {FILE_NAME} is committed at HEAD"),
        };
        return Ok(Located::BuiltIn(why));
    };
    let provenance = PolicyProvenance {
        source: source.to_owned(),
        file: Some(FILE_NAME.to_owned()),
        revision,
        digest: String::new(),
        description,
    };
    Ok(Located::Committed(blob.data, provenance))
}

/// The policy `astrix ci` judges a range with (SPEC §7): the Astrixfile.ax committed at the
/// tip of the target (`--base`, named `base` in the report), so that no commit of the range
/// judges itself and a branch forked from an older target (with a laxer policy, or none)
/// is judged by the target's policy as it is now; without one, the built-in default.
pub fn at_target(
    repo: &crate::git::Repository,
    commit: &str,
    base: &str,
) -> Result<RepositoryPolicy, crate::git::GitError> {
    use crate::policy::FILE_NAME;

    let short: String = commit.chars().take(12).collect();
    committed_at(
        repo,
        commit,
        "target",
        &format!("no {FILE_NAME} is committed at `{base}` ({short})"),
        format!("{FILE_NAME} committed at `{base}` ({short}), the target"),
    )
}

/// The policy the backstop decides with where no branch's own policy may: the
/// `Astrixfile.ax` at the newest tip it let a protected branch take (`branch` at `commit`),
/// so that no reference that can move unjudged (a default branch chosen on the command line,
/// a symbolic branch) chooses which branches are protected; without one, the built-in
/// default.
pub fn at_recorded_tip(
    repo: &crate::git::Repository,
    commit: &str,
    branch: &str,
) -> Result<RepositoryPolicy, crate::git::GitError> {
    use crate::policy::FILE_NAME;

    let short: String = commit.chars().take(12).collect();
    committed_at(
        repo,
        commit,
        "branch",
        &format!("no {FILE_NAME} is committed at `{branch}`'s last judged tip ({short})"),
        format!("{FILE_NAME} at `{branch}`'s last judged tip ({short})"),
    )
}

/// The policy committed at `commit` (from `source`, as `description` says), or the built-in
/// default for the reason `missing` when the commit has none.
fn committed_at(
    repo: &crate::git::Repository,
    commit: &str,
    source: &str,
    missing: &str,
    description: String,
) -> Result<RepositoryPolicy, crate::git::GitError> {
    let Some(blob) = repo.file_at_rev(commit, crate::policy::FILE_NAME)? else {
        return Ok(RepositoryPolicy {
            loaded: built_in(missing),
            committed_invalid: None,
        });
    };
    let provenance = PolicyProvenance {
        source: source.to_owned(),
        file: Some(crate::policy::FILE_NAME.to_owned()),
        revision: Some(commit.to_owned()),
        digest: String::new(),
        description,
    };
    Ok(from_committed(blob.data, provenance))
}

/// Validates a policy file read from git; one that does not validate leaves the built-in
/// default in charge, with its diagnostics (or, for the staged first commit's, without).
fn from_committed(data: Vec<u8>, provenance: PolicyProvenance) -> RepositoryPolicy {
    use crate::policy::FILE_NAME;

    let source = provenance.source.clone();
    let source = source.as_str();
    let text = match policy::decode(FILE_NAME, data) {
        Ok(text) => text,
        Err(diagnostics) => return invalid_committed(diagnostics, source),
    };
    match from_text_with(FILE_NAME, &text, provenance, Cases::Check) {
        Ok(loaded) => RepositoryPolicy {
            loaded,
            committed_invalid: None,
        },
        // The first commit's staged policy is both the judge and part of the change: the gate
        // denies it as a staged policy that does not validate.
        Err(InvalidPolicyError(diagnostics)) => invalid_committed(diagnostics, source),
    }
}

fn invalid_committed(diagnostics: Diagnostics, source: &str) -> RepositoryPolicy {
    let why = if source == "index" {
        "the staged Astrixfile.ax does not validate"
    } else {
        "the committed Astrixfile.ax does not validate"
    };
    RepositoryPolicy {
        loaded: built_in(why),
        committed_invalid: (source != "index").then_some(diagnostics),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_digest_is_the_digest_of_its_text() {
        assert_eq!(
            policy::DEFAULT_POLICY_DIGEST,
            digest(policy::DEFAULT_POLICY)
        );
        assert_eq!(
            built_in("test").provenance.digest,
            digest(policy::DEFAULT_POLICY)
        );
    }

    /// A repository that committed the built-in default unchanged is judged by it, cases
    /// unread, with the committed file named as the source; any other text is read whole, so
    /// that a committed case that does not load still makes the policy invalid.
    #[test]
    fn a_committed_default_judges_without_its_cases_and_other_texts_read_theirs() {
        let provenance = || PolicyProvenance {
            source: "head".to_owned(),
            file: Some(policy::FILE_NAME.to_owned()),
            revision: None,
            digest: String::new(),
            description: String::new(),
        };
        let committed = from_committed(policy::DEFAULT_POLICY.as_bytes().to_vec(), provenance());
        assert!(committed.committed_invalid.is_none());
        assert!(committed.loaded.policy.cases.is_empty());
        assert_eq!(committed.loaded.provenance.source, "head");
        assert_eq!(
            committed.loaded.provenance.digest,
            digest(policy::DEFAULT_POLICY)
        );

        let broken = format!("{}\n[[test]]\nname = \"x\"\n", policy::DEFAULT_POLICY);
        let committed = from_committed(broken.into_bytes(), provenance());
        assert!(committed.committed_invalid.is_some());
        assert_eq!(committed.loaded.provenance.source, "built-in");

        let with_cases = built_in_with_cases("test");
        assert_eq!(with_cases.policy.cases.len(), 24);
    }
}
