//! The texts that MCP clients show to models: the server's instructions and each tool's
//! description. Each description is at most 600 characters: what the tool is for first, which
//! sibling to use instead, the required fields by name, and the failure modes in a sentence;
//! what the input schema already says (each field's meaning) is not repeated (SPEC §9).

/// The server's instructions (sent once, at initialisation).
pub const INSTRUCTIONS: &str = "\
astrix guards the git commits in this repository: its commit hook judges every commit \
against the policy committed at HEAD (Astrixfile.ax), and blocks it or holds it for a \
human's approval. Ask before you act: call astrix_evaluate_policy with the action you plan \
to learn what the hook will decide, astrix_get_blast_radius to see which components a \
change affects, and astrix_run_impacted_tests to run the tests of those components.";

/// The description of `astrix_evaluate_policy`: at most 600 characters, front-loaded, with
/// the required fields by name and nothing that the input schema already says.
pub const EVALUATE_POLICY: &str = "\
Predicts what the astrix commit hook will decide for a planned action, under the policy \
committed at HEAD: allowed, denied, or held for approval, with the reason. Required: \
intent.actor.type, intent.target.env, intent.modified_files, intent.diff.modifies_tests; \
send the diff counts too (`astrix intent` prints them): a rule reading a missing count \
holds. Use astrix_get_blast_radius for what a change affects, astrix_run_impacted_tests to \
test it. denied: do not act; requires_approval: a human must approve. Bad input is a \
tool error naming the fix; any other error: treat the action as blocked.";

/// The description of `astrix_get_blast_radius`.
pub const BLAST_RADIUS: &str = "\
Lists the components a change affects and why (owns a changed file, or depends on one), from \
Astrixfile.ax and Cargo, npm, pnpm and uv workspaces. Read-only. No required fields: the \
staged change by default, or modified_files (files you plan to change) or base (commits \
since a revision). With nothing staged it returns no components and a summary saying so. \
Long results are paged (see summary, next_offset). Use astrix_run_impacted_tests to run \
their tests, astrix_evaluate_policy for the commit decision. Errors (bad input, unknown \
base) are tool errors: treat every component as affected.";

/// The description of `astrix_run_impacted_tests`.
pub const RUN_IMPACTED_TESTS: &str = "\
Runs the test commands of the components a change affects (see astrix_get_blast_radius) at \
the repository root, one by one; returns each exit code, duration and output tail, and \
passed. No required fields: the staged change by default, or modified_files or base; \
dry_run only lists. After timeout_seconds (600 by default) it stops the running command \
and its children and returns timed_out; cancelling the request stops them too. A failing \
test is a result (passed: false), not an error; any error means nothing was proven. Use \
astrix_evaluate_policy for the commit decision.";
