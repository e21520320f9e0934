//! ActionIntent JSON: strict parsing, and the round trip `from_json(to_json(intent))`.
//!
//! Properties: `from_json` never panics; a parsed intent prints (compact and pretty) to
//! JSON that parses back to an equal intent, and prints the same again (a fixed point);
//! every modified file is a normalised repository path; evaluating the intent against the
//! built-in default policy never panics and its decision is self-consistent.
#![no_main]

use astrix::eval::evaluate;
use astrix::intent::ActionIntent;
use astrix::policy::{self, DEFAULT_POLICY, Policy, Verdict};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn default_policy() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| match policy::load("Astrixfile.ax", DEFAULT_POLICY) {
        Ok((policy, _)) => policy,
        Err(diagnostics) => panic!("the default policy does not load: {diagnostics:?}"),
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(intent) = ActionIntent::from_json(text) else {
        return;
    };
    for path in &intent.modified_files {
        let path = path.as_str();
        assert!(!path.is_empty() && !path.starts_with('/') && !path.contains('\\'));
        assert!(
            path.split('/')
                .all(|segment| !segment.is_empty() && segment != "." && segment != ".."),
            "not normalised: {path:?}"
        );
    }

    let compact = intent.to_json();
    let again = ActionIntent::from_json(&compact)
        .unwrap_or_else(|err| panic!("to_json output does not parse: {err}\n{compact}"));
    assert_eq!(again, intent, "round trip changed the intent: {compact}");
    assert_eq!(again.to_json(), compact, "to_json is not a fixed point");
    let pretty = intent.to_json_pretty();
    let again = ActionIntent::from_json(&pretty)
        .unwrap_or_else(|err| panic!("to_json_pretty output does not parse: {err}\n{pretty}"));
    assert_eq!(
        again, intent,
        "pretty round trip changed the intent: {pretty}"
    );

    let decision = evaluate(default_policy(), &intent);
    match decision.verdict {
        Verdict::Allow => assert!(decision.allowed() && !decision.denied()),
        Verdict::RequireApproval => {
            assert_eq!(decision.allowed(), intent.approved == Some(true));
        }
        Verdict::Deny => assert!(!decision.allowed() && decision.denied()),
    }
    assert_eq!(decision.default_used, decision.deciding_rules.is_empty());
    serde_json::to_string(&decision).expect("a decision serialises");
});
