//! The texts that MCP clients show to models: the server's instructions and each tool's
//! description. They say when to use a tool, which sibling to use instead, and what an error
//! means (SPEC §9).

/// The server's instructions (sent once, at initialisation).
pub const INSTRUCTIONS: &str = "\
astrix guards the git commits in this repository: its commit hook judges every commit \
against the policy committed at HEAD (Astrixfile.ax), and blocks it or holds it for a \
human's approval. Ask before you act: call astrix_evaluate_policy with the action you plan \
to learn what the hook will decide, astrix_get_blast_radius to see which components a \
change affects, and astrix_run_impacted_tests to run the tests of those components.";

/// The description of `astrix_evaluate_policy`.
pub const EVALUATE_POLICY: &str = "\
Evaluates a proposed action, given as an ActionIntent (who acts, which environment it \
targets, which repository files it would modify, whether it changes tests), against the \
policy of the repository this server was started in: the Astrixfile.ax committed at HEAD, \
the same policy the astrix commit hook applies. Returns the decision: `allowed`, `denied` \
and `requires_approval`, with a `reason` naming every rule that decided.

Call it before you carry out an action, such as editing files or committing, to learn \
whether the commit will go through. It only evaluates: it never executes, stages or \
commits anything, and calling it again with the same intent gives the same answer until \
HEAD's policy changes.

Use astrix_get_blast_radius instead to learn which components a change affects, and \
astrix_run_impacted_tests to run the tests of those components.

`denied: true`: do not carry out the action; no approval lifts a denial. \
`requires_approval: true`: a human must approve the exact change first (`astrix approve` \
at a terminal); do not try to approve it yourself. Set `approved: true` only when that \
approval is already recorded. It is taken as given here, but the commit hook verifies \
recorded approvals itself, so claiming one does not let a commit through.

Diff counts (`lines_added` and the like) are optional, but a rule that reads a count the \
intent lacks holds the action (a missing count is never zero): send `lines_added`, \
`lines_deleted`, `binary_files` and `bytes_added`, as `astrix intent` prints them. A count \
that arrives as a floating-point number of magnitude 2^53 or more cannot be trusted to be the number sent \
and fails every policy that reads it: send such numbers as strings (\"12345678901234567\").

Errors: invalid input (an unknown or missing field, `modifies_tests` as a JSON boolean \
instead of the string \"true\" or \"false\", an absolute or `..` path) returns a tool error \
that names the field and the fix; nothing was evaluated, so correct the input and call \
again. Any other error means astrix could not judge the action (for example, an \
unreadable repository): treat the action as blocked, since the commit hook fails closed on \
the same error.";

/// The description of `astrix_get_blast_radius`.
pub const BLAST_RADIUS: &str = "\
Lists the components of this repository that a change affects (its blast radius), and \
why: each affected component says whether it owns a changed file (`direct`) or depends on \
one that does, with the dependency path and its `distance`. Components come from the \
`[[component]]` tables of Astrixfile.ax and from Cargo, npm/yarn/pnpm and uv workspaces. \
A changed global file (root manifest, lockfile, toolchain file) or a file that no \
component owns makes every component affected, with that reason: the answer is never \
\"nothing affected\" when astrix cannot tell.

Which change: the staged change by default; `modified_files` for files you plan to change \
or have changed (before staging them); or `base` (a branch, tag or commit) for the commits \
of HEAD since its merge base with that revision. It only reads the repository.

Use astrix_run_impacted_tests instead to run the tests of the affected components, and \
astrix_evaluate_policy to learn whether the change may be committed.

Errors: invalid input returns a tool error that names the field and the fix; correct it \
and call again. A `base` that does not resolve, or a shallow clone that lacks the merge \
base, is an error rather than an empty answer: fetch more history or name another \
revision. Any other error means the blast radius is unknown, so treat every component as \
affected.";

/// The description of `astrix_run_impacted_tests`.
pub const RUN_IMPACTED_TESTS: &str = "\
Runs the test commands of the components that a change affects (the blast radius of \
astrix_get_blast_radius), one after another at the repository root, and returns each \
command with its exit code, duration and the tail of its output, and `passed`: true when \
every command exited with 0. With `dry_run: true` it only lists the commands and runs \
nothing. The change is chosen as for astrix_get_blast_radius: staged by default, \
`modified_files`, or `base`.

Use it after editing and before committing, to show that the change breaks nothing. Use \
astrix_get_blast_radius instead to only see what is affected, and astrix_evaluate_policy \
for the commit decision. The commands come from the repository (`test` of \
`[[component]]`, or the workspace's own test command, such as `cargo test -p core`); they \
may build and write build outputs but are not meant to change tracked files. While they \
run, the tool sends progress notifications when the request asks for them; cancelling \
the request stops the running command.

Errors: a failing test is not a tool error; it is reported with `passed: false` and its \
output tail. Invalid input returns a tool error that names the field and the fix; correct \
it and call again. Any other error (the change or the components cannot be read, a \
command cannot be started) means that nothing was proven: do not treat the change as \
tested.";
