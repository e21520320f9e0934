//! The evaluator on arbitrary (policy, intent) pairs, from a structured model
//! (`astrix_fuzz::model`) rendered to Astrixfile TOML and intent JSON.
//!
//! Properties checked on every input:
//!
//! 1. Every file the model renders loads, every intent it renders parses and round-trips.
//! 2. Each rule's outcome agrees with an independent reading of the conditions (actor, env,
//!    `modifies_tests` after escalation by `[tests].paths`, `paths`, `only_paths`, with the
//!    globs read by `astrix_fuzz::globs`), and the verdict is the strongest contribution,
//!    or the default when nothing contributes.
//! 3. Numeric policies agree with exact arithmetic computed another way: the argument's
//!    value from the model's own numbers (integers through i128, the rest and sums through
//!    the string oracle), compared by the oracle; a value astrix must not use (missing,
//!    null, boolean, text, non-finite, out of range) fails the policy.
//! 4. The decision is independent of rule order: the rules permuted give the same verdict,
//!    the same set of deciding rules and the same outcome for every rule.
//! 5. Adding a deny rule with conditions (and no policy) never weakens the verdict and
//!    never lifts a denial; it denies exactly when it matches or the verdict was already
//!    deny. A deny rule with a policy never weakens a verdict that rules decided (a passing
//!    policy contributes `allow`, so it may only replace the policy's default, SPEC §3).
#![no_main]

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use astrix::eval::{Decision, evaluate};
use astrix::intent::ActionIntent;
use astrix::policy::load::DEFAULT_TEST_PATTERNS;
use astrix::policy::{self, Policy, Verdict};
use astrix_fuzz::globs;
use astrix_fuzz::model::{
    ArgumentM, ConditionsM, IntentM, PolicyDecisionM, PolicyFileM, PolicyM, RuleKindM, RuleM,
    VerdictM,
};
use astrix_fuzz::oracle::{self, Exact};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    policy: PolicyFileM,
    intent: IntentM,
    /// Sort keys for the permutation of the rules.
    order: Vec<u8>,
    /// The conditions of the deny rule that is added.
    deny: ConditionsM,
    /// Its policy, if any.
    deny_policy: Option<PolicyM>,
}

fuzz_target!(|input: Input| check(&input));

fn load(text: &str) -> Policy {
    match policy::load("Astrixfile.ax", text) {
        Ok((policy, _)) => policy,
        Err(diagnostics) => {
            let mut out = Vec::new();
            let _ = diagnostics.render(&mut out, false);
            panic!(
                "a generated policy does not load:\n{text}\n{}",
                String::from_utf8_lossy(&out)
            );
        }
    }
}

fn verdict(model: VerdictM) -> Verdict {
    match model {
        VerdictM::Allow => Verdict::Allow,
        VerdictM::RequireApproval => Verdict::RequireApproval,
        VerdictM::Deny => Verdict::Deny,
    }
}

/// What every rule did, by id: matched, contribution, and the policy's pass.
type Outcomes = BTreeMap<String, (bool, Option<Verdict>, Option<bool>)>;

fn outcomes(decision: &Decision) -> Outcomes {
    decision
        .outcomes
        .iter()
        .map(|o| {
            (
                o.id.clone(),
                (
                    o.matched,
                    o.contributes,
                    o.policy.as_ref().map(|p| p.passed),
                ),
            )
        })
        .collect()
}

fn deciding(decision: &Decision) -> Vec<String> {
    let mut ids = decision.deciding_rules.clone();
    ids.sort();
    ids
}

fn check(input: &Input) {
    let model = &input.policy;
    let rules = model.rules();
    let identity: Vec<usize> = (0..rules.len()).collect();
    let text = model.render(&identity, &[]);
    let policy = load(&text);

    let intent_text = input.intent.render();
    let intent = ActionIntent::from_json(&intent_text)
        .unwrap_or_else(|err| panic!("a generated intent does not parse: {err}\n{intent_text}"));
    let again = ActionIntent::from_json(&intent.to_json()).expect("to_json parses");
    assert_eq!(again, intent);

    let decision = evaluate(&policy, &intent);
    check_against_model(input, &decision);

    // 4. Rule order.
    let mut order = identity.clone();
    if input.order.is_empty() {
        order.reverse();
    } else {
        order.sort_by_key(|&i| input.order[i % input.order.len()].wrapping_add(i as u8));
    }
    let permuted = evaluate(&load(&model.render(&order, &[])), &intent);
    assert_eq!(
        permuted.verdict, decision.verdict,
        "order {order:?} changed the verdict"
    );
    assert_eq!(deciding(&permuted), deciding(&decision), "order {order:?}");
    assert_eq!(permuted.default_used, decision.default_used);
    assert_eq!(outcomes(&permuted), outcomes(&decision), "order {order:?}");

    // 5. A deny rule more.
    let extra = RuleM {
        conditions: input.deny.clone(),
        kind: match &input.deny_policy {
            None => RuleKindM::Plain(VerdictM::Deny),
            Some(policy) => RuleKindM::Numeric(policy.clone(), PolicyDecisionM::Deny),
        },
        reason: None,
    };
    let with_deny = evaluate(
        &load(&model.render(&identity, &[("zz-deny", &extra)])),
        &intent,
    );
    let added = with_deny
        .outcomes
        .iter()
        .find(|o| o.id == "zz-deny")
        .expect("the added rule has an outcome");
    let mut before = outcomes(&with_deny);
    before.remove("zz-deny");
    assert_eq!(
        before,
        outcomes(&decision),
        "adding a rule changed the others"
    );
    match &input.deny_policy {
        None => {
            assert!(
                with_deny.verdict >= decision.verdict,
                "a deny rule weakened the verdict"
            );
            assert_eq!(
                with_deny.verdict == Verdict::Deny,
                decision.verdict == Verdict::Deny || added.matched,
                "a deny rule that matched did not deny, or one that did not match did"
            );
        }
        Some(_) => {
            if decision.default_used {
                let expected = match added.contributes {
                    None => decision.verdict,
                    Some(contribution) => contribution,
                };
                assert_eq!(with_deny.verdict, expected);
            } else {
                assert!(
                    with_deny.verdict >= decision.verdict,
                    "a deny rule weakened the verdict"
                );
            }
        }
    }
}

/// Properties 2 and 3: every outcome and the verdict, from the model alone.
fn check_against_model(input: &Input, decision: &Decision) {
    let model = &input.policy;
    let files = input.intent.files();
    let test_patterns: Vec<String> = match &model.tests_paths {
        Some(list) => list
            .iter()
            .take(astrix_fuzz::model::MAX_LIST)
            .map(|p| p.render())
            .collect(),
        None => DEFAULT_TEST_PATTERNS
            .iter()
            .map(|p| (*p).to_owned())
            .collect(),
    };
    let is_test = |file: &str| test_patterns.iter().any(|p| globs::matches(p, file));
    let tests_changed = files.iter().filter(|f| is_test(f)).count();
    let modifies_tests = input.intent.modifies_tests || tests_changed > 0;
    assert_eq!(
        decision.modifies_tests, modifies_tests,
        "escalation by [tests].paths"
    );

    let mut strongest: Option<Verdict> = None;
    for (index, rule) in model.rules().iter().enumerate() {
        let id = format!("r{index}");
        let outcome = decision
            .outcomes
            .iter()
            .find(|o| o.id == id)
            .unwrap_or_else(|| panic!("no outcome for {id}"));
        let c = &rule.conditions;
        let render = |list: &Vec<astrix_fuzz::model::PatternM>| -> Vec<String> {
            list.iter()
                .take(astrix_fuzz::model::MAX_LIST)
                .map(|p| p.render())
                .collect()
        };
        let actor_ok = c.actor.as_ref().is_none_or(|list| {
            list.iter()
                .take(4)
                .any(|a| a.name() == input.intent.actor.name())
        });
        let env_ok = c.env.as_ref().is_none_or(|list| {
            list.iter()
                .take(4)
                .any(|e| e.name() == input.intent.env.name())
        });
        let tests_ok = c
            .modifies_tests
            .is_none_or(|wanted| wanted == modifies_tests);
        let paths_ok = c.paths.as_ref().is_none_or(|list| {
            let patterns = render(list);
            files
                .iter()
                .any(|f| patterns.iter().any(|p| globs::matches(p, f)))
        });
        let only_ok = c.only_paths.as_ref().is_none_or(|list| {
            let patterns = render(list);
            !files.is_empty()
                && files
                    .iter()
                    .all(|f| patterns.iter().any(|p| globs::matches(p, f)))
        });
        let matched = actor_ok && env_ok && tests_ok && paths_ok && only_ok;
        assert_eq!(
            outcome.matched, matched,
            "{id}: astrix says matched={}, the model {matched} (actor {actor_ok}, env {env_ok}, \
             modifies_tests {tests_ok}, paths {paths_ok}, only_paths {only_ok}); files {files:?}",
            outcome.matched
        );
        let contribution = if !matched {
            None
        } else {
            match &rule.kind {
                RuleKindM::Plain(v) => Some(verdict(*v)),
                RuleKindM::Numeric(policy, on_failure) => {
                    let passed =
                        check_numeric(&id, policy, input, files.len(), tests_changed, outcome);
                    Some(if passed {
                        Verdict::Allow
                    } else {
                        match on_failure {
                            PolicyDecisionM::Deny => Verdict::Deny,
                            _ => Verdict::RequireApproval,
                        }
                    })
                }
            }
        };
        assert_eq!(outcome.contributes, contribution, "{id}");
        strongest = strongest.max(contribution);
    }
    match strongest {
        Some(v) => {
            assert_eq!(decision.verdict, v);
            assert!(!decision.default_used);
        }
        None => {
            let default = model.default.map_or(Verdict::Allow, verdict);
            assert_eq!(decision.verdict, default);
            assert!(decision.default_used);
        }
    }
}

/// The policy's result from exact arithmetic; asserts that astrix agrees.
fn check_numeric(
    id: &str,
    policy: &PolicyM,
    input: &Input,
    files: usize,
    tests_changed: usize,
    outcome: &astrix::eval::RuleOutcome,
) -> bool {
    let counts = &input.intent.counts;
    let count = |name: &str| counts.get(name).and_then(|c| c.exact());
    let value: Option<Exact> = match policy.argument {
        ArgumentM::FilesChanged => Some(Exact::from_i128(files as i128)),
        ArgumentM::TestsChanged => Some(Exact::from_i128(tests_changed as i128)),
        ArgumentM::LinesChanged => match (count("lines_added"), count("lines_deleted")) {
            (Some(a), Some(b)) => Some(oracle::add(&a, &b)).filter(Exact::fits),
            _ => None,
        },
        other => count(other.name()),
    };
    let threshold = policy.threshold().exact();
    let expected = value
        .as_ref()
        .is_some_and(|v| oracle::compare(v, policy.operator.symbol(), &threshold));
    // Integers: the same comparison once more in i128.
    if let (Some(v), Some(t)) = (value.as_ref().and_then(Exact::to_i128), threshold.to_i128()) {
        let by_i128 = match policy.operator.symbol() {
            "<" => v < t,
            "<=" => v <= t,
            ">" => v > t,
            ">=" => v >= t,
            "==" => v == t,
            _ => v != t,
        };
        assert_eq!(by_i128, expected, "the oracle disagrees with i128");
    }
    let result = outcome
        .policy
        .as_ref()
        .expect("a matched policy rule has a result");
    assert_eq!(
        result.passed,
        expected,
        "{id}: `{}` with value {:?}: astrix says passed={} ({}), exact arithmetic says {expected}",
        result.policy,
        value.as_ref().map(Exact::to_text),
        result.passed,
        result.detail
    );
    // The value astrix compared, numerically (a sum may print as `1.0`).
    let compared = result
        .value
        .as_deref()
        .map(|text| match oracle::read(text) {
            oracle::Reading::Number(exact) => exact,
            other => panic!("{id}: astrix compared {text:?}, which reads as {other:?}"),
        });
    assert_eq!(
        compared, value,
        "{id}: the value astrix compared ({})",
        result.detail
    );
    expected
}
