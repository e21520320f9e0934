//! A range of commits, judged as `astrix ci` judges a pull request (SPEC §7): exactly the
//! commits of `git rev-list BASE..HEAD`, each as a commit in the environment of the branch it
//! was made on, and the range as a whole as a merge into the target's environment, by the
//! policy at the tip of the target; the actor of each from the commit itself.

use std::sync::{Condvar, Mutex};

use anyhow::{Context as _, bail};

use crate::commit_actor::{ACTOR_TRAILER, CommitActor, commit_actor, range_actor, short};
use crate::env::{EnvSnapshot, GITHUB_BASE_REF, GITHUB_HEAD_REF, GITHUB_WORKFLOW_REF};
use crate::eval::RuleOutcome;
use crate::git::{Change, ChangeOptions, CommitMeta, FileChange, Head, LineCount, Repository};
use crate::intent::{Action, ResolvedActor};
use crate::policy::Verdict;

use super::source::{self, RepositoryPolicy};
use super::{
    ChangeToJudge, JudgeOptions, Judgement, ResolvedTarget, committed_policy_problems,
    judge_change_for, needs_tamper, resolve_target,
};

/// What to judge: the arguments of `astrix ci`.
pub struct RangeRequest<'a> {
    /// `--base`: the target.
    pub base: &'a str,
    /// `--head`.
    pub head: &'a str,
    /// `--target-branch`.
    pub target_branch: Option<&'a str>,
    /// `--head-branch`.
    pub head_branch: Option<&'a str>,
    /// `--approved`: the pipeline's review rules are met.
    pub approved: bool,
    /// Who judges every commit and the range as their actor, in place of what each commit
    /// says (an agent's `git push`, judged at its tool call); `None` in the pipeline.
    pub actor: Option<ResolvedActor>,
}

/// Judges the range `request` names in `repo`, the pipeline's environment being `env`.
pub fn judge_range(
    repo: &Repository,
    env: &EnvSnapshot,
    request: &RangeRequest<'_>,
) -> anyhow::Result<Run> {
    let range = resolve_range(repo, request.base, request.head)?;
    let target_branch = target_branch(request, &range, env)?;
    let head_branch = head_branch(request, repo, &range, env, &target_branch)?;
    let policy = source::at_target(repo, &range.base_id, &range.base)?;
    let mut run = judge(
        env,
        repo,
        range,
        policy,
        Branches {
            target: target_branch,
            head: head_branch,
        },
        request.approved,
        request.actor.as_ref(),
    )?;
    run.warnings = warnings(&run, env);
    Ok(run)
}

/// Every change is measured in full: the JSON shows every commit's line counts (and the
/// test-tampering analysis runs beside them when the policy reads it).
fn change_options(policy: &RepositoryPolicy) -> ChangeOptions {
    ChangeOptions {
        line_counts: true,
        tamper: JUDGE_OPTIONS.tamper || needs_tamper(&policy.loaded.policy),
    }
}

/// No approvals store in CI: `--approved` is the pipeline's approval.
const JUDGE_OPTIONS: JudgeOptions = JudgeOptions {
    line_counts: true,
    approvals: false,
    tamper: false,
};

/// How `actions/checkout` and GitLab fetch the whole history.
const FETCH_HINT: &str = "fetch the full history (`fetch-depth: 0` for actions/checkout, \
                          `GIT_DEPTH: 0` on GitLab CI)";

/// What `--approved` says in the output.
pub const PIPELINE_APPROVAL: &str = "the pipeline's review rules are met (`--approved`)";

/// The gate rule of `[ci] require_provenance`.
const MISSING_PROVENANCE: &str = "missing-provenance";

/// The commits to judge.
pub struct Range {
    /// `--base` as given.
    pub base: String,
    /// `--head` as given.
    pub head: String,
    /// The commit `--base` names.
    pub base_id: String,
    /// The full reference `--base` names, if it names one.
    pub base_ref: Option<String>,
    /// The head commit.
    pub head_id: String,
    /// The full reference `--head` names, if it names one.
    pub head_ref: Option<String>,
    /// The best common ancestors of base and head, the one git would pick first; more than
    /// one in a criss-cross history.
    pub merge_bases: Vec<String>,
    /// Exactly `git rev-list BASE..HEAD`, parents before children.
    pub commits: Vec<String>,
    /// References a remote-tracking `--base` or `--head` won over.
    pub shadowed: Vec<(String, Vec<String>)>,
}

impl Range {
    /// The merge base shown in reports (the first of several).
    pub fn merge_base(&self) -> &str {
        self.merge_bases.first().map_or("", String::as_str)
    }
}

fn resolve_range(repo: &Repository, base: &str, head: &str) -> anyhow::Result<Range> {
    let shallow = repo.is_shallow();
    let hint = |what: &str| {
        if shallow {
            format!("{what}; this is a shallow clone: {FETCH_HINT}")
        } else {
            what.to_owned()
        }
    };
    let resolve = |rev: &str, what: &str| {
        match repo.resolve_exact(rev) {
        Ok(resolved) => Ok(resolved),
        Err(err @ crate::git::GitError::AmbiguousRevision { .. }) => {
            Err(anyhow::anyhow!("the {what} {err}"))
        }
        Err(err) => Err(anyhow::Error::new(err).context(hint(&if what == "base" {
            format!(
                "the base `{rev}` is not a commit of this repository; fetch it (`git fetch origin <branch>`) or pass a commit id"
            )
        } else {
            format!("the head `{rev}` is not a commit of this repository")
        }))),
    }
    };
    let base_rev = resolve(base, "base")?;
    let head_rev = resolve(head, "head")?;
    let merge_bases = match repo.merge_bases(&base_rev.id, &head_rev.id) {
        Ok(bases) if !bases.is_empty() => bases,
        Ok(_) | Err(_) if shallow => bail!(
            "`{base}` and `{head}` have no common commit in this shallow clone, so astrix cannot tell where the change starts; {FETCH_HINT}"
        ),
        Ok(_) => bail!(
            "`{base}` and `{head}` have no common history, so astrix cannot tell where the change starts; pass the branch the change goes to as `--base`"
        ),
        Err(err) => return Err(err.into()),
    };
    // Exactly what the head adds to the base: in a criss-cross history no merge base hides
    // everything the base has.
    let commits = repo
        .commits_between(&base_rev.id, &head_rev.id)
        .with_context(|| hint(&format!("cannot list the commits of `{base}..{head}`")))?;
    let shadowed = [(base, &base_rev), (head, &head_rev)]
        .into_iter()
        .filter(|(_, rev)| !rev.shadowed.is_empty())
        .map(|(name, rev)| (name.to_owned(), rev.shadowed.clone()))
        .collect();
    Ok(Range {
        base: base.to_owned(),
        head: head.to_owned(),
        base_id: base_rev.id,
        base_ref: base_rev.reference,
        head_id: head_rev.id,
        head_ref: head_rev.reference,
        merge_bases,
        commits,
        shadowed,
    })
}

/// The branch a change goes to or comes from, and where that came from.
pub struct TargetBranch {
    pub name: String,
    pub from: String,
}

/// Where the range goes, and where its commits were made.
pub struct Branches {
    /// The range as a whole is a merge into this branch's environment.
    pub target: TargetBranch,
    /// Each commit is a commit in this branch's environment.
    pub head: TargetBranch,
}

/// The branch a full reference name is: `main` for `refs/heads/main` and
/// `refs/remotes/origin/main`; `None` for tags and a remote's `HEAD`.
fn branch_of(reference: &str) -> Option<String> {
    if let Some(branch) = reference.strip_prefix("refs/heads/") {
        return Some(branch.to_owned());
    }
    reference
        .strip_prefix("refs/remotes/")
        .and_then(|rest| rest.split_once('/'))
        .map(|(_, branch)| branch)
        .filter(|branch| *branch != "HEAD")
        .map(str::to_owned)
}

fn target_branch(
    args: &RangeRequest<'_>,
    range: &Range,
    env: &EnvSnapshot,
) -> anyhow::Result<TargetBranch> {
    if let Some(name) = args.target_branch {
        return Ok(TargetBranch {
            name: name.to_owned(),
            from: "--target-branch".to_owned(),
        });
    }
    if let Some(name) = env.get(GITHUB_BASE_REF).filter(|name| !name.is_empty()) {
        return Ok(TargetBranch {
            name: name.to_owned(),
            from: GITHUB_BASE_REF.to_owned(),
        });
    }
    if let Some(name) = range.base_ref.as_deref().and_then(branch_of) {
        return Ok(TargetBranch {
            name,
            from: format!("--base {}", args.base),
        });
    }
    bail!(
        "cannot tell which branch the change goes to: `{}` names no branch; pass `--target-branch <name>`",
        args.base
    )
}

fn head_branch(
    args: &RangeRequest<'_>,
    repo: &Repository,
    range: &Range,
    env: &EnvSnapshot,
    target: &TargetBranch,
) -> anyhow::Result<TargetBranch> {
    if let Some(name) = args.head_branch {
        return Ok(TargetBranch {
            name: name.to_owned(),
            from: "--head-branch".to_owned(),
        });
    }
    if let Some(name) = env.get(GITHUB_HEAD_REF).filter(|name| !name.is_empty()) {
        return Ok(TargetBranch {
            name: name.to_owned(),
            from: GITHUB_HEAD_REF.to_owned(),
        });
    }
    if let Some(name) = range.head_ref.as_deref().and_then(branch_of) {
        return Ok(TargetBranch {
            name,
            from: format!("--head {}", args.head),
        });
    }
    if args.head == "HEAD"
        && let Head::Branch { name, .. } = repo.head()?
    {
        return Ok(TargetBranch {
            name,
            from: "HEAD".to_owned(),
        });
    }
    // Nothing says where the commits were made: they are judged as commits on the target,
    // the strictest reading, and the header says how to say otherwise.
    Ok(TargetBranch {
        name: target.name.clone(),
        from: format!(
            "the target (`{}` names no branch; pass `--head-branch`)",
            args.head
        ),
    })
}

/// Something the run found that does not change a decision but should be seen.
pub struct Warning {
    pub text: String,
    /// The file it is about, for an annotation.
    pub file: Option<String>,
}

/// The workflow file that runs the job (`GITHUB_WORKFLOW_REF`), repository-relative.
fn running_workflow(env: &EnvSnapshot) -> Option<String> {
    let value = env.get(GITHUB_WORKFLOW_REF)?;
    // `owner/repo/.github/workflows/astrix.yml@refs/heads/main`.
    let (path, _) = value.rsplit_once('@')?;
    let mut parts = path.splitn(3, '/');
    let (_owner, _repo, file) = (parts.next()?, parts.next()?, parts.next()?);
    (!file.is_empty()).then(|| file.to_owned())
}

fn warnings(run: &Run, env: &EnvSnapshot) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for (name, shadowed) in &run.range.shadowed {
        warnings.push(Warning {
            text: format!(
                "`{name}` means the remote-tracking branch; {} of the same name {} ignored: delete {}",
                shadowed
                    .iter()
                    .map(|name| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(" and "),
                if shadowed.len() == 1 { "is" } else { "are" },
                if shadowed.len() == 1 { "it" } else { "them" }
            ),
            file: None,
        });
    }
    if let Some(workflow) = running_workflow(env) {
        let changed_by: Vec<&str> = run
            .commits
            .iter()
            .filter(|commit| {
                commit
                    .judgement
                    .intent
                    .modified_files
                    .iter()
                    .any(|path| path.as_str() == workflow)
            })
            .map(|commit| short(&commit.meta.id))
            .collect();
        if !changed_by.is_empty() {
            warnings.push(Warning {
                text: format!(
                    "the range changes `{workflow}`, the workflow that runs this check (in {}): a workflow that runs the pull request's own copy (`on: pull_request`) can be edited to pass anything; run astrix from `pull_request_target` or a required workflow, as `astrix docs ci` shows",
                    changed_by
                        .iter()
                        .map(|id| format!("`{id}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                file: Some(workflow),
            });
        }
    }
    warnings
}

/// The change from the merge base to the head: what the commits of `git rev-list BASE..HEAD`
/// change, together, on top of what the base and the head share.
///
/// In a criss-cross history (several merge bases) no single merge base is right: against
/// each, the commits the other brings (the target's own, or the branch's that the target
/// already merged) would look like the branch's, and a path the branch changed where the
/// target later made the same change would be left out. The change is measured instead from
/// a virtual merge base, as git's `ort` merge builds one: the merge bases merged, path by
/// path, over their own merge base. A path that only some of the merge bases changed (or that
/// they all changed alike) has that version in the virtual base, and the range is measured
/// against it. A path they changed differently would need a content merge (git's virtual
/// base then holds conflict markers): it is measured against the merge base it differs from
/// most, the larger count, so that a size limit errs on the side of holding. Judging the sum
/// of each commit's own change instead would count a line changed twice where one commit
/// undoes another, and would miss what a merge in the range quietly keeps from one side.
fn whole_change(
    repo: &Repository,
    range: &Range,
    options: &ChangeOptions,
) -> anyhow::Result<Change> {
    let first = repo.range_change(range.merge_base(), &range.head_id, options)?;
    if range.merge_bases.len() < 2 {
        return Ok(first);
    }
    let mut against = vec![first];
    for base in range.merge_bases.iter().skip(1) {
        against.push(repo.range_change(base, &range.head_id, options)?);
    }
    let sides = virtual_base(repo, &range.merge_bases)?;
    let weight = |file: &FileChange| match file.lines {
        Some(LineCount::Text { added, deleted, .. }) => added + deleted,
        Some(LineCount::Binary { .. }) => 1,
        None => 0,
    };
    // Whether the change against merge base `index` is the one to count for `path`.
    let counts = |index: usize, path: &[u8]| match sides.get(path) {
        Some(Side::Base(chosen)) => *chosen == index,
        Some(Side::Conflict) => true,
        // No merge base changed the path: they all hold the same version.
        None => index == 0,
    };
    let mut files: std::collections::BTreeMap<Vec<u8>, FileChange> =
        std::collections::BTreeMap::new();
    for (index, change) in against.into_iter().enumerate() {
        for file in change.files {
            let counted = counts(index, &file.raw_path)
                && file
                    .raw_from
                    .as_deref()
                    .is_none_or(|from| counts(index, from));
            if !counted {
                continue;
            }
            match files.get(&file.raw_path) {
                Some(known) if weight(known) >= weight(&file) => {}
                _ => {
                    files.insert(file.raw_path.clone(), file);
                }
            }
        }
    }
    let mut files: Vec<FileChange> = files.into_values().collect();
    files.sort_by(|a, b| {
        a.path
            .cmp(&b.path)
            .then_with(|| a.old_path().cmp(b.old_path()))
    });
    Ok(Change {
        files,
        parents: vec![range.merge_base().to_owned()],
    })
}

/// A path's content in a tree: its object id and mode.
type Version = (String, crate::git::EntryMode);

/// Which merge base holds a path's version in the virtual merge base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// This one (the first of those that changed it).
    Base(usize),
    /// Two of them changed it differently.
    Conflict,
}

/// The virtual merge base of `bases`, as the paths some of them changed over the merge base
/// of them all (found pairwise, the first of several) and the side each path comes from.
/// Without a common commit every path any two of them hold differently is a conflict.
fn virtual_base(
    repo: &Repository,
    bases: &[String],
) -> anyhow::Result<std::collections::HashMap<Vec<u8>, Side>> {
    let mut common = Some(bases[0].clone());
    for base in &bases[1..] {
        common = match common {
            Some(one) => repo.merge_bases(&one, base)?.into_iter().next(),
            None => None,
        };
    }
    let from = common.unwrap_or_else(|| bases[0].clone());
    let options = ChangeOptions {
        line_counts: false,
        tamper: false,
    };
    // Per path, the version each merge base that changed it holds (`None`: deleted).
    let mut versions: std::collections::HashMap<Vec<u8>, Vec<(usize, Option<Version>)>> =
        std::collections::HashMap::new();
    for (index, base) in bases.iter().enumerate() {
        for file in repo.range_change(&from, base, &options)?.files {
            let new = file
                .new
                .as_ref()
                .map(|entry| (entry.id.clone(), entry.mode));
            // A rename is the removal of its source and the addition of its path.
            if let Some(source) = file.raw_from {
                versions.entry(source).or_default().push((index, None));
            }
            versions
                .entry(file.raw_path)
                .or_default()
                .push((index, new));
        }
    }
    Ok(versions
        .into_iter()
        .map(|(path, changed)| {
            let (first, version) = &changed[0];
            let side = if changed.iter().all(|(_, other)| other == version) {
                Side::Base(*first)
            } else {
                Side::Conflict
            };
            (path, side)
        })
        .collect())
}

/// One commit, judged.
pub struct JudgedCommit {
    pub meta: CommitMeta,
    pub actor: CommitActor,
    pub judgement: Judgement,
}

/// Everything `astrix ci` found.
pub struct Run {
    pub range: Range,
    pub branches: Branches,
    pub policy: RepositoryPolicy,
    pub commits: Vec<JudgedCommit>,
    /// The range as a whole; `None` when it is empty.
    pub whole: Option<Judgement>,
    pub approved_flag: bool,
    /// Where the range goes and where its commits were made, resolved even for an empty
    /// range.
    pub target: ResolvedTarget,
    pub head_target: ResolvedTarget,
    pub warnings: Vec<Warning>,
}

fn judge(
    env: &EnvSnapshot,
    repo: &Repository,
    range: Range,
    policy: RepositoryPolicy,
    branches: Branches,
    approved: bool,
    pusher: Option<&ResolvedActor>,
) -> anyhow::Result<Run> {
    let rules = &policy.loaded.policy;
    let target = resolve_target(rules, Some(&branches.target.name), env);
    let head_target = resolve_target(rules, Some(&branches.head.name), env);
    let options = change_options(&policy);
    let beside = Beside::new(range.commits.len());
    std::thread::scope(|scope| {
        let beside = beside
            .as_ref()
            .filter(|beside| beside.start(scope, env, repo.opened_from(), &range, &options));
        judge_with(
            env, repo, &range, &policy, &branches, approved, pusher, &options, beside,
        )
    })
    .map(|(commits, whole)| Run {
        range,
        branches,
        policy,
        commits,
        whole,
        approved_flag: approved,
        target,
        head_target,
        warnings: Vec::new(),
    })
}

/// [`judge`]'s commits and range as a whole, their changes measured by `beside` too when it
/// runs.
#[expect(
    clippy::too_many_arguments,
    reason = "the parts of one judgement, split from `judge` only to run inside its thread scope"
)]
fn judge_with(
    env: &EnvSnapshot,
    repo: &Repository,
    range: &Range,
    policy: &RepositoryPolicy,
    branches: &Branches,
    approved: bool,
    pusher: Option<&ResolvedActor>,
    options: &ChangeOptions,
    beside: Option<&Beside>,
) -> anyhow::Result<(Vec<JudgedCommit>, Option<Judgement>)> {
    let mut commits = Vec::with_capacity(range.commits.len());
    for (index, id) in range.commits.iter().enumerate() {
        let meta = repo.commit_meta(id)?;
        let mut actor = commit_actor(&meta, &policy.loaded.policy.actors);
        if let Some(pusher) = pusher {
            actor.actor = pusher.clone();
        }
        let change = match beside {
            Some(beside) => beside.commit(repo, index, id, options)?,
            None => repo.commit_change(id, options)?,
        };
        let new_policy = committed_policy_problems(repo, id, &change)?;
        let mut holds = Vec::new();
        let provenance = meta
            .trailers
            .iter()
            .any(|trailer| trailer.key.eq_ignore_ascii_case(ACTOR_TRAILER));
        if policy.loaded.policy.ci.require_provenance && !provenance && !change.files.is_empty() {
            holds.push(RuleOutcome::gate(
                MISSING_PROVENANCE,
                Verdict::RequireApproval,
                format!(
                    "the commit has no `{ACTOR_TRAILER}:` trailer, so it was made without astrix's hooks (or with them off) and who made it is not recorded; a human confirms it (`[ci] require_provenance`)"
                ),
                Vec::new(),
            ));
        }
        let mut judgement = judge_change_for(
            env,
            repo,
            ChangeToJudge {
                policy: policy.clone(),
                branch: Some(branches.head.name.clone()),
                change,
                parent: meta.parents.first().cloned(),
                new_policy,
                snapshot: crate::git::Snapshot::Commit(id.clone()),
                uncollected: Vec::new(),
            },
            actor.actor.clone(),
            None,
            holds,
            JUDGE_OPTIONS,
        )
        .with_context(|| format!("cannot judge commit `{}`", short(id)))?;
        if approved {
            approve(&mut judgement);
        }
        commits.push(JudgedCommit {
            meta,
            actor,
            judgement,
        });
    }
    let whole = if commits.is_empty() {
        None
    } else {
        let actor = match pusher {
            Some(pusher) => pusher.clone(),
            None => range_actor(
                commits
                    .iter()
                    .map(|commit| (commit.meta.id.as_str(), &commit.actor)),
            ),
        };
        let change = match beside {
            Some(beside) => beside.whole(repo, range, options)?,
            None => whole_change(repo, range, options)?,
        };
        let new_policy = committed_policy_problems(repo, &range.head_id, &change)?;
        let uncollected = uncollected(env, repo, policy, range)?;
        let mut judgement = judge_change_for(
            env,
            repo,
            ChangeToJudge {
                policy: policy.clone(),
                branch: Some(branches.target.name.clone()),
                change,
                parent: Some(range.merge_base().to_owned()),
                new_policy,
                snapshot: crate::git::Snapshot::Commit(range.head_id.clone()),
                uncollected,
            },
            actor,
            Some(Action::Merge),
            Vec::new(),
            JUDGE_OPTIONS,
        )
        .context("cannot judge the range as a whole")?;
        if approved {
            approve(&mut judgement);
        }
        Some(judgement)
    };
    Ok((commits, whole))
}

/// What the runner no longer collects over the range as a whole (`[tests] collect`).
fn uncollected(
    env: &EnvSnapshot,
    repo: &Repository,
    policy: &RepositoryPolicy,
    range: &Range,
) -> anyhow::Result<Vec<crate::tamper::Uncollected>> {
    super::collect::uncollected(
        env,
        repo,
        &policy.loaded.policy.test_collect,
        range.merge_base(),
        &range.head_id,
    )
    .context("cannot ask the test runner which tests it collects (`[tests] collect`)")
}

/// A second thread that measures the changes of a range beside the calling thread: the
/// range as a whole first, then its commits from the last one back, while the calling
/// thread measures them from the first one on and judges each in order. Measuring is most
/// of the work (reading and diffing every changed blob, and the test-tampering analysis);
/// the commits are independent of each other, and a CI machine has more than one core.
///
/// The second thread opens the repository again (gix's handles cannot cross threads) and
/// only ever answers with a change or with nothing: whatever it could not measure, the
/// calling thread measures again in order, so errors, and which one is reported, never
/// depend on threads.
struct Beside {
    state: Mutex<Ahead>,
    /// Signalled when the second thread is done.
    done: Condvar,
}

/// What the two threads have claimed, and what the second one measured.
struct Ahead {
    /// The next commit (by index) the calling thread measures: it has claimed those before.
    front: usize,
    /// The second thread has claimed the commits from this index on.
    back: usize,
    /// The second thread's changes by commit index; `None` where it could not measure one.
    commits: Vec<Option<Change>>,
    /// The range as a whole, when the second thread could measure it.
    whole: Option<Change>,
    /// The second thread is done: everything from `back` on that it could measure is here.
    done: bool,
}

impl Beside {
    /// Ranges of fewer commits are measured on the calling thread alone: opening the
    /// repository again and starting a thread cost about what measuring a commit does.
    const MIN_COMMITS: usize = 4;

    /// The shared state for a range of `count` commits; `None` when the range is too short
    /// to share.
    fn new(count: usize) -> Option<Self> {
        (count >= Self::MIN_COMMITS).then(|| Self {
            state: Mutex::new(Ahead {
                front: 0,
                back: count,
                commits: (0..count).map(|_| None).collect(),
                whole: None,
                done: false,
            }),
            done: Condvar::new(),
        })
    }

    /// Starts the second thread in `scope`; `false` when it cannot be started (the calling
    /// thread then measures everything, as it would have).
    fn start<'scope>(
        &'scope self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        env: &'scope EnvSnapshot,
        opened_from: &'scope std::path::Path,
        range: &'scope Range,
        options: &'scope ChangeOptions,
    ) -> bool {
        // `spawn_scoped` rather than `scope.spawn`, which panics when no thread can be made;
        // the stack of a main thread, so that diffing a huge file is no more at risk there.
        std::thread::Builder::new()
            .name("astrix-range".to_owned())
            .stack_size(8 << 20)
            .spawn_scoped(scope, move || {
                // A panic here (a bug) leaves the calling thread to measure, and hit, the
                // same thing: it is reported there, in order.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    self.measure(env, opened_from, range, options);
                }));
                self.lock().done = true;
                self.done.notify_all();
            })
            .is_ok()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ahead> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The second thread's work.
    fn measure(
        &self,
        env: &EnvSnapshot,
        opened_from: &std::path::Path,
        range: &Range,
        options: &ChangeOptions,
    ) {
        let Ok(repo) = Repository::open(opened_from, env) else {
            return;
        };
        let whole = whole_change(&repo, range, options).ok();
        self.lock().whole = whole;
        loop {
            let index = {
                let mut state = self.lock();
                if state.back <= state.front {
                    return;
                }
                state.back -= 1;
                state.back
            };
            let change = repo.commit_change(&range.commits[index], options).ok();
            if let Some(slot) = self.lock().commits.get_mut(index) {
                *slot = change;
            }
        }
    }

    /// Waits for the second thread to be done.
    fn finished(&self) -> std::sync::MutexGuard<'_, Ahead> {
        let mut state = self.lock();
        while !state.done {
            state = self
                .done
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        state
    }

    /// The change of commit `id`, the range's `index`th: measured here when the second
    /// thread has not claimed it, else the second thread's (measured again here when it
    /// could not).
    fn commit(
        &self,
        repo: &Repository,
        index: usize,
        id: &str,
        options: &ChangeOptions,
    ) -> Result<Change, crate::git::GitError> {
        let mut state = self.lock();
        if index < state.back {
            state.front = index + 1;
            drop(state);
            return repo.commit_change(id, options);
        }
        drop(state);
        let measured = self
            .finished()
            .commits
            .get_mut(index)
            .and_then(Option::take);
        match measured {
            Some(change) => Ok(change),
            None => repo.commit_change(id, options),
        }
    }

    /// The range as a whole: the second thread's, or measured here when it could not.
    fn whole(
        &self,
        repo: &Repository,
        range: &Range,
        options: &ChangeOptions,
    ) -> anyhow::Result<Change> {
        let measured = self.finished().whole.take();
        match measured {
            Some(change) => Ok(change),
            None => whole_change(repo, range, options),
        }
    }
}

/// `--approved`: a hold passes, and says so; a denial stays.
fn approve(judgement: &mut Judgement) {
    if judgement.decision.verdict == Verdict::RequireApproval {
        judgement.intent.approved = Some(true);
        judgement.decision.approved = true;
        judgement.approval = Some(PIPELINE_APPROVAL.to_owned());
    }
}
