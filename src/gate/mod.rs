//! Judging a change: the one home that every entry point calls (SPEC §6, §7).
//!
//! What arrives is a staged change (`astrix check`, `astrix intent`, the pre-commit hook), a
//! commit or an update of a branch (the backstop), or a range of commits (`astrix ci`).
//! Each is turned into the same things, here and nowhere else:
//!
//! - where the policy comes from ([`source`]);
//! - who acts and where the change goes ([`resolve_target`]; the actor comes from
//!   [`crate::env`] or, in CI, from each commit, [`crate::commit_actor`]);
//! - the facts and the intent ([`facts`]), the gate's own holds ([`holds`]);
//! - the decision, with a recorded approval ([`judgement`]);
//! - the report data: context lines, sections, next steps ([`report`], [`next`]).
//!
//! Commands parse their arguments, call in here, and print. Reading the repository is
//! [`crate::git`]'s job and reading the process environment [`crate::env`]'s; the policy
//! engine ([`crate::policy`], [`crate::eval`]) stays pure.

pub mod approval;
pub mod branch;
pub mod collect;
pub mod facts;
pub mod holds;
pub mod judgement;
pub mod next;
pub mod range;
pub mod record;
pub mod report;
pub mod source;
pub mod staged;
pub mod target;

pub use approval::{approved_as_amend, holds_for_any_actor, judge_amend};
pub use facts::{
    ChangeFacts, PathError, analyze_tampering, build_intent, change_facts, needs_impact,
    needs_line_counts, needs_tamper,
};
pub(crate) use holds::staged_policy_problems;
pub use holds::{
    COMMITTED_POLICY_INVALID, POLICY_CHANGE, STAGED_POLICY_INVALID, committed_policy_problems,
    policy_change_hold, policy_problems, touches_policy,
};
pub use judgement::{
    ChangeToJudge, JudgeOptions, Judgement, judge_change, judge_change_as, judge_change_for,
};
pub use next::{Asked, amend_next_steps, commit_next_steps, update_next_steps};
pub use record::{
    PASS_FILE, PassRecord, TipEntry, TipRecord, astrix_dir, audit_entry, record_pass, take_pass,
};
pub use report::{
    context_lines, notes, tamper_section, write_policy_diagnostics, write_report, write_text_report,
};
pub use staged::{current_branch, judge_staged};
pub use target::{DEFAULT_TARGET, ResolvedTarget, resolve_target};
