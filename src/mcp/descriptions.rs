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

Diff counts (`lines_added` and the like) are optional; a count that arrives as a \
floating-point number of magnitude 2^53 or more cannot be trusted to be the number sent \
and fails every policy that reads it: send such numbers as strings (\"12345678901234567\").

Errors: invalid input (an unknown or missing field, `modifies_tests` as a JSON boolean \
instead of the string \"true\" or \"false\", an absolute or `..` path) returns a tool error \
that names the field and the fix; nothing was evaluated, so correct the input and call \
again. Any other error means astrix could not judge the action (for example, an \
unreadable repository): treat the action as blocked, since the commit hook fails closed on \
the same error.";
