//! The evaluator: a pure function from a policy and an intent to a decision (SPEC §3, §5).
//!
//! No IO happens here. Every path of the intent is matched once against every pattern list
//! of the policy (one combined glob set), then each rule is decided from those results.
//! Combining is by strength — deny over `require_approval` over allow — so the result does
//! not depend on rule order; when no rule contributes, the policy's `default` decides.

use rust_decimal::Decimal;
use serde::Serialize;

use crate::intent::ActionIntent;
use crate::policy::numeric::{Argument, ConversionFailure, NumericPolicy, convert};
use crate::policy::{Policy, Rule, Verdict};

/// How many triggering files a rule outcome keeps (reports show a few, then "and N more").
pub const FILES_KEPT: usize = 10;

/// The outcome of evaluating an intent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// The combined verdict.
    pub verdict: Verdict,
    /// Whether the intent said the required approval is recorded.
    pub approved: bool,
    /// The ids of the rules that produced the verdict (empty when the default decided).
    pub deciding_rules: Vec<String>,
    /// True when no rule contributed and the policy's `default` decided.
    pub default_used: bool,
    /// One sentence per deciding rule (or the default), joined into `reason`.
    pub reason: String,
    /// Whether the intent modifies tests after escalation by `[tests].paths`.
    pub modifies_tests: bool,
    /// The first modified file that matched `[tests].paths`, when that escalated the flag.
    pub modifies_tests_escalated_by: Option<String>,
    /// Every rule's outcome, in file order.
    pub outcomes: Vec<RuleOutcome>,
}

impl Decision {
    /// `allowed` of SPEC §5: allowed, or held and approved.
    pub fn allowed(&self) -> bool {
        match self.verdict {
            Verdict::Allow => true,
            Verdict::RequireApproval => self.approved,
            Verdict::Deny => false,
        }
    }

    /// `denied` of SPEC §5.
    pub fn denied(&self) -> bool {
        self.verdict == Verdict::Deny
    }

    /// `requires_approval` of SPEC §5.
    pub fn requires_approval(&self) -> bool {
        self.verdict == Verdict::RequireApproval
    }

    /// The outcomes of the rules that decided.
    pub fn deciding_outcomes(&self) -> impl Iterator<Item = &RuleOutcome> {
        self.outcomes
            .iter()
            .filter(|outcome| self.deciding_rules.contains(&outcome.id))
    }
}

/// What one rule did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleOutcome {
    /// The rule's id.
    pub id: String,
    /// 1-based line of the rule in the policy file.
    pub line: usize,
    /// Whether every condition matched.
    pub matched: bool,
    /// The first condition that did not match (`actor`, `env`, `paths`, `only_paths`,
    /// `modifies_tests`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmatched_condition: Option<&'static str>,
    /// What the rule contributed, when it matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contributes: Option<Verdict>,
    /// The numeric policy's result, when the rule has one and matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyOutcome>,
    /// The rule's reason, or a generated one.
    pub reason: String,
    /// Files that triggered the rule's path conditions (at most [`FILES_KEPT`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// How many files triggered them in all.
    #[serde(skip_serializing_if = "is_zero")]
    pub files_total: usize,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(value: &usize) -> bool {
    *value == 0
}

/// A numeric policy, evaluated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PolicyOutcome {
    /// The comparison as written.
    pub policy: String,
    /// The argument's value as an exact decimal, when it could be converted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Whether the comparison holds (false when the value could not be converted).
    pub passed: bool,
    /// A sentence saying what was compared, or why the value was unusable.
    pub detail: String,
}

/// Per pattern list: how many files matched and the first few of them.
#[derive(Debug, Clone, Default)]
struct ListHits {
    count: usize,
    first: Vec<usize>,
}

/// Evaluates `intent` against `policy`.
pub fn evaluate(policy: &Policy, intent: &ActionIntent) -> Decision {
    let lists = match_paths(policy, intent);
    let tests_hits = lists
        .get(policy.tests_list.0 as usize)
        .cloned()
        .unwrap_or_default();
    let modifies_tests_escalated_by = if intent.diff.modifies_tests.0 {
        None
    } else {
        tests_hits
            .first
            .first()
            .and_then(|&index| intent.modified_files.get(index))
            .map(|path| path.as_str().to_owned())
    };
    let modifies_tests = intent.diff.modifies_tests.0 || tests_hits.count > 0;
    let facts = Facts {
        intent,
        tests_changed: tests_hits.count,
    };

    let outcomes: Vec<RuleOutcome> = policy
        .rules
        .iter()
        .map(|rule| evaluate_rule(rule, intent, &lists, modifies_tests, &facts))
        .collect();

    let strongest = outcomes
        .iter()
        .filter_map(|outcome| outcome.contributes)
        .max();
    let (verdict, deciding_rules, default_used, reason) = match strongest {
        Some(verdict) => {
            let deciding: Vec<&RuleOutcome> = outcomes
                .iter()
                .filter(|outcome| outcome.contributes == Some(verdict))
                .collect();
            let reason = deciding
                .iter()
                .map(|outcome| format!("[{}] {}", outcome.id, outcome.reason))
                .collect::<Vec<_>>()
                .join("; ");
            let ids = deciding.iter().map(|outcome| outcome.id.clone()).collect();
            (verdict, ids, false, reason)
        }
        None => (
            policy.default,
            Vec::new(),
            true,
            format!(
                "no rule matched; the policy's default is `{}`",
                policy.default
            ),
        ),
    };

    Decision {
        verdict,
        approved: intent.approved.unwrap_or(false),
        deciding_rules,
        default_used,
        reason,
        modifies_tests,
        modifies_tests_escalated_by,
        outcomes,
    }
}

/// Matches every modified file against every pattern list once.
fn match_paths(policy: &Policy, intent: &ActionIntent) -> Vec<ListHits> {
    let list_count = policy.matcher.list_count();
    let mut lists = vec![ListHits::default(); list_count];
    let mut hits = vec![false; list_count];
    let mut scratch = Vec::new();
    for (index, path) in intent.modified_files.iter().enumerate() {
        hits.fill(false);
        policy
            .matcher
            .matching_lists(path.as_str(), &mut hits, &mut scratch);
        for (list, _) in hits.iter().enumerate().filter(|(_, hit)| **hit) {
            if let Some(entry) = lists.get_mut(list) {
                entry.count += 1;
                if entry.first.len() < FILES_KEPT {
                    entry.first.push(index);
                }
            }
        }
    }
    lists
}

fn evaluate_rule(
    rule: &Rule,
    intent: &ActionIntent,
    lists: &[ListHits],
    modifies_tests: bool,
    facts: &Facts<'_>,
) -> RuleOutcome {
    let mut outcome = RuleOutcome {
        id: rule.id.clone(),
        line: rule.line,
        matched: false,
        unmatched_condition: None,
        contributes: None,
        policy: None,
        reason: rule.reason.clone().unwrap_or_default(),
        files: Vec::new(),
        files_total: 0,
    };
    let file_names = |hits: &ListHits| -> Vec<String> {
        hits.first
            .iter()
            .filter_map(|&index| intent.modified_files.get(index))
            .map(|path| path.as_str().to_owned())
            .collect()
    };

    let unmatched = if rule
        .actor
        .as_ref()
        .is_some_and(|actors| !actors.contains(&intent.actor.kind))
    {
        Some("actor")
    } else if rule
        .env
        .as_ref()
        .is_some_and(|envs| !envs.contains(&intent.target.env))
    {
        Some("env")
    } else if rule
        .modifies_tests
        .is_some_and(|wanted| wanted != modifies_tests)
    {
        Some("modifies_tests")
    } else {
        None
    };
    if unmatched.is_some() {
        outcome.unmatched_condition = unmatched;
        return outcome;
    }
    if let Some(paths) = &rule.paths {
        let hits = lists
            .get(paths.list.0 as usize)
            .cloned()
            .unwrap_or_default();
        if hits.count == 0 {
            outcome.unmatched_condition = Some("paths");
            return outcome;
        }
        outcome.files = file_names(&hits);
        outcome.files_total = hits.count;
    }
    if let Some(only) = &rule.only_paths {
        let hits = lists.get(only.list.0 as usize).cloned().unwrap_or_default();
        let total = intent.modified_files.len();
        if total == 0 || hits.count != total {
            outcome.unmatched_condition = Some("only_paths");
            return outcome;
        }
        if rule.paths.is_none() {
            outcome.files = file_names(&hits);
            outcome.files_total = hits.count;
        }
    }
    outcome.matched = true;

    match &rule.policy {
        None => {
            outcome.contributes = Some(rule.decision);
            if outcome.reason.is_empty() {
                outcome.reason = format!("rule `{}` decides `{}`", rule.id, rule.decision);
            }
        }
        Some(policy) => {
            let result = check_policy(policy, facts);
            if result.passed {
                outcome.contributes = Some(Verdict::Allow);
                outcome.reason.clone_from(&result.detail);
            } else {
                outcome.contributes = Some(rule.decision);
                outcome.reason = if outcome.reason.is_empty() {
                    result.detail.clone()
                } else {
                    format!("{} ({})", outcome.reason, result.detail)
                };
            }
            outcome.policy = Some(result);
        }
    }
    outcome
}

/// The values policies compare, derived from the intent on demand.
struct Facts<'a> {
    intent: &'a ActionIntent,
    tests_changed: usize,
}

impl Facts<'_> {
    fn value(&self, argument: Argument) -> Result<Decimal, (ConversionFailure, &'static str)> {
        let diff = &self.intent.diff;
        let raw = |name: &'static str| -> Result<Decimal, (ConversionFailure, &'static str)> {
            match diff.count(name) {
                Some(raw) => convert(raw.json()).map_err(|failure| (failure, name)),
                None => Err((ConversionFailure::Missing, name)),
            }
        };
        match argument {
            Argument::FilesChanged => Ok(Decimal::from(self.intent.modified_files.len())),
            Argument::TestsChanged => Ok(Decimal::from(self.tests_changed)),
            Argument::LinesChanged => {
                let added = raw("lines_added")?;
                let deleted = raw("lines_deleted")?;
                added.checked_add(deleted).ok_or((
                    ConversionFailure::OutOfRange(format!("{added} + {deleted}")),
                    "lines_changed",
                ))
            }
            other => raw(other.name()),
        }
    }
}

fn check_policy(policy: &NumericPolicy, facts: &Facts<'_>) -> PolicyOutcome {
    let name = policy.argument.name();
    match facts.value(policy.argument) {
        Ok(value) => {
            let passed = policy.holds(value);
            let detail = format!(
                "`{}` {}: {name} is {value}",
                policy.text,
                if passed { "holds" } else { "fails" }
            );
            PolicyOutcome {
                policy: policy.text.clone(),
                value: Some(value.to_string()),
                passed,
                detail,
            }
        }
        Err((failure, field)) => PolicyOutcome {
            policy: policy.text.clone(),
            value: None,
            passed: false,
            detail: format!(
                "`{}` fails: {}",
                policy.text,
                describe_failure(&failure, field)
            ),
        },
    }
}

/// Why a value could not be compared, as a phrase about `field`.
fn describe_failure(failure: &ConversionFailure, field: &str) -> String {
    match failure {
        ConversionFailure::Missing => {
            format!("`diff.{field}` is missing, and a missing value is never taken as zero")
        }
        ConversionFailure::Null => format!("`diff.{field}` is null"),
        ConversionFailure::Boolean => format!("`diff.{field}` is a boolean, not a number"),
        ConversionFailure::NotNumeric(text) => format!("`diff.{field}` is `{text}`, not a number"),
        ConversionFailure::NonFinite => format!("`diff.{field}` is not a finite number"),
        ConversionFailure::OutOfRange(text) => {
            format!("`diff.{field}` is `{text}`, outside the exact decimal range")
        }
        ConversionFailure::UntrustedFloat(text) => format!(
            "`diff.{field}` is the float `{text}`, too large to be exact; send it as a string"
        ),
    }
}
