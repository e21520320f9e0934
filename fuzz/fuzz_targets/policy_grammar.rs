//! The numeric policy grammar and the exact decimals it compares (SPEC §4).
//!
//! The input is one text; when it holds a line break, the part before the first one is
//! also read as a policy and the part after it as an intent value. Properties:
//!
//! - `NumericPolicy::parse` never panics; its text is the input trimmed; it parses again
//!   from its canonical form to the same comparison; an error's span lies inside the input
//!   on character boundaries.
//! - `parse_number` agrees with an independent string-based reading of the grammar
//!   (`astrix_fuzz::oracle`): accepted exactly when well-formed and in the exact decimal
//!   range, with the same value; never rounded.
//! - `convert` on a JSON value: `null`, booleans, and non-numbers fail; a JSON integer is
//!   exactly the integer serde_json reads (compared as i128); a numeric string is its
//!   trimmed text's number.
//! - A policy and a value that both read: `holds` agrees with the oracle's comparison.
//! - With a second line break, `policy\nlines_added\nlines_deleted`: the evaluator's
//!   `lines_changed` is the exact sum (the oracle adds digit strings); a sum no decimal
//!   holds, or of a value that is not a count (negative or fractional), fails the policy,
//!   and a policy that passes agrees with exact comparison.
#![no_main]

use astrix::eval::evaluate;
use astrix::intent::ActionIntent;
use astrix::policy::numeric::{
    Argument, ConversionFailure, NumberError, NumericPolicy, convert, parse_number,
};
use astrix::policy::{self, Verdict};
use astrix_fuzz::oracle::{self, Exact, Reading};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_policy(text);
    check_number(text);
    check_convert(text);
    if let Some((policy, value)) = text.split_once('\n') {
        check_policy(policy);
        check_number(value);
        if let (Ok(policy), Some(expected)) = (NumericPolicy::parse(policy), value_of(value)) {
            check_holds(&policy, value, &expected);
        }
        if let (Ok(policy), Some((added, deleted))) =
            (NumericPolicy::parse(policy), value.split_once('\n'))
        {
            check_sum(policy, added, deleted);
        }
    }
});

/// `lines_changed` through the evaluator, against the oracle's exact sum.
fn check_sum(mut numeric: NumericPolicy, added: &str, deleted: &str) {
    if serde_json::from_str::<serde_json::Value>(added).is_err()
        || serde_json::from_str::<serde_json::Value>(deleted).is_err()
    {
        return;
    }
    numeric.argument = Argument::LinesChanged;
    let threshold = exact(&numeric.value.to_string()).expect("a policy value reads");
    let symbol = numeric.operator.symbol();
    // A policy loaded from a file (so it has every field a policy has), whose one rule
    // then gets the parsed comparison.
    let Ok((mut policy, _)) = policy::load(
        "Astrixfile.ax",
        "version = 1\n[[rule]]\nid = \"sum\"\npolicy = \"lines_changed <= 0\"\n",
    ) else {
        panic!("the base policy loads");
    };
    // Its one rule keeps every field the loader gives it; only the comparison changes.
    let Some(rule) = policy.rules.first_mut() else {
        panic!("the base policy has its rule");
    };
    rule.policy = Some(numeric);
    rule.decision = Verdict::Deny;
    let json = format!(
        r#"{{"actor":{{"type":"human"}},"target":{{"env":"d"}},"modified_files":["a"],"diff":{{"modifies_tests":"false","lines_added":{added},"lines_deleted":{deleted}}}}}"#
    );
    let Ok(intent) = ActionIntent::from_json(&json) else {
        return;
    };
    let decision = evaluate(&policy, &intent);
    let result = decision.outcomes[0]
        .policy
        .as_ref()
        .expect("the rule has a policy");
    let sum = match (value_of(added), value_of(deleted)) {
        // Only counts are summed: a negative or fractional one fails the policy.
        (Some(a), Some(b)) if a.is_count() && b.is_count() => {
            Some(oracle::add(&a, &b)).filter(Exact::fits)
        }
        _ => None,
    };
    let expected = sum
        .as_ref()
        .is_some_and(|sum| oracle::compare(sum, symbol, &threshold));
    assert_eq!(
        result.passed,
        expected,
        "`{}` with lines_added {added} and lines_deleted {deleted}: astrix says {} ({}), the \
         exact sum {:?} says {expected}",
        result.policy,
        result.passed,
        result.detail,
        sum.as_ref().map(Exact::to_text)
    );
}

/// The oracle's reading of `text`, when it is well-formed and in range.
fn exact(text: &str) -> Option<Exact> {
    match oracle::read(text) {
        Reading::Number(exact) if exact.fits() => Some(exact),
        _ => None,
    }
}

fn check_policy(text: &str) {
    match NumericPolicy::parse(text) {
        Ok(policy) => {
            assert_eq!(policy.text, text.trim());
            // The number as written, after the argument and the operator.
            let rest = policy
                .text
                .strip_prefix(policy.argument.name())
                .expect("the text starts with the argument")
                .trim_start()
                .strip_prefix(policy.operator.symbol())
                .expect("the operator follows the argument")
                .trim();
            let written = exact(rest).unwrap_or_else(|| panic!("accepted {rest:?} as a number"));
            assert_eq!(
                policy.value.to_string(),
                written.to_text(),
                "value of {text:?}"
            );
            let canonical = format!(
                "{}{}{}",
                policy.argument.name(),
                policy.operator.symbol(),
                policy.value
            );
            let again = NumericPolicy::parse(&canonical).expect("the canonical form parses");
            assert_eq!(
                (again.argument, again.operator, again.value),
                (policy.argument, policy.operator, policy.value)
            );
        }
        Err(error) => {
            assert!(
                text.get(error.span.clone()).is_some(),
                "span {:?} is not inside {text:?}",
                error.span
            );
            assert!(!error.message.is_empty());
        }
    }
}

fn check_number(text: &str) {
    let result = parse_number(text);
    match oracle::read(text) {
        Reading::Number(expected) if expected.fits() => match result {
            Ok(value) => assert_eq!(value.to_string(), expected.to_text(), "{text:?}"),
            Err(error) => panic!("{text:?} is {}, yet refused: {error:?}", expected.to_text()),
        },
        Reading::Number(_) => assert_eq!(result, Err(NumberError::OutOfRange), "{text:?}"),
        Reading::NonFinite => assert_eq!(result, Err(NumberError::NonFinite), "{text:?}"),
        Reading::Malformed => assert!(
            result.is_err() && result != Err(NumberError::OutOfRange),
            "{text:?} is not a number, yet read as {result:?}"
        ),
    }
}

/// What `convert` must make of `json`, when it is one JSON value: its exact number, or
/// `None` when it must fail.
fn value_of(json: &str) -> Option<Exact> {
    let value: serde_json::Value = serde_json::from_str(json).ok()?;
    match value {
        serde_json::Value::String(text) => exact(text.trim()),
        serde_json::Value::Number(number) => {
            let text = json.trim_matches([' ', '\t', '\n', '\r']);
            let expected = exact(text);
            // serde_json's own integer reading, compared as i128: the digits are kept.
            if let Some(integer) = number
                .as_i64()
                .map(i128::from)
                .or(number.as_u64().map(i128::from))
            {
                assert_eq!(
                    expected.as_ref().and_then(Exact::to_i128),
                    Some(integer),
                    "{json:?}"
                );
            }
            expected
        }
        _ => None,
    }
}

fn check_convert(json: &str) {
    let result = convert(json);
    let Ok(value) = serde_json::from_str::<serde_json::Value>(json) else {
        // Not one JSON value: never reaches `convert` from an intent; it must not panic.
        return;
    };
    let expected = value_of(json);
    match (&result, &expected) {
        (Ok(got), Some(expected)) => assert_eq!(got.to_string(), expected.to_text(), "{json:?}"),
        (Err(_), None) => {}
        _ => panic!("convert({json:?}) = {result:?}, expected {expected:?}"),
    }
    match value {
        serde_json::Value::Null => assert_eq!(result, Err(ConversionFailure::Null)),
        serde_json::Value::Bool(_) => assert_eq!(result, Err(ConversionFailure::Boolean)),
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => {
            assert!(
                matches!(result, Err(ConversionFailure::NotNumeric(_))),
                "{result:?}"
            );
        }
        serde_json::Value::String(text) => {
            if oracle::read(text.trim()) == Reading::NonFinite {
                assert_eq!(result, Err(ConversionFailure::NonFinite));
            }
        }
        serde_json::Value::Number(_) => {}
    }
}

fn check_holds(policy: &NumericPolicy, json: &str, expected: &Exact) {
    let value = convert(json).unwrap_or_else(|failure| panic!("convert({json:?}): {failure:?}"));
    let threshold = exact(policy.value.to_string().as_str()).expect("a policy value reads");
    let oracle = oracle::compare(expected, policy.operator.symbol(), &threshold);
    assert_eq!(
        policy.holds(value),
        oracle,
        "`{}` with {json:?}: astrix and exact arithmetic disagree",
        policy.text
    );
}
