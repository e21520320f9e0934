//! Text for messages, shared by both phases of loading: user values quoted, "did you mean"
//! suggestions, and spans inside a TOML string.

use std::ops::Range;

/// A user value for a message: in backticks, control characters escaped, long values cut.
pub(super) fn quote(value: &str) -> String {
    const LIMIT: usize = 60;
    let mut out = String::from("`");
    for (count, ch) in value.chars().enumerate() {
        if count == LIMIT {
            out.push('…');
            break;
        }
        if ch.is_control() {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    out.push('`');
    out
}

/// The closest candidate to `word`, when it is close enough to be a likely typo.
pub(super) fn suggest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    // Bounded so that hostile files stay fast: long words are not typos of short keys.
    const MAX_LEN: usize = 64;
    const MAX_CANDIDATES: usize = 256;
    if word.is_empty() || word.len() > MAX_LEN {
        return None;
    }
    let normal = |text: &str| text.to_lowercase().replace('-', "_");
    let wanted = normal(word);
    candidates
        .into_iter()
        .take(MAX_CANDIDATES)
        .filter(|candidate| candidate.len() <= MAX_LEN && *candidate != word)
        .map(|candidate| {
            let distance = strsim::damerau_levenshtein(&wanted, &normal(candidate));
            (distance, candidate)
        })
        .filter(|(distance, candidate)| {
            let length = candidate.chars().count().max(word.chars().count());
            *distance <= (length / 3).max(1) && *distance < word.chars().count()
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Where an error at `inner` (a byte range within the decoded string `decoded`) sits in
/// the source. When the string is written without escapes, the range maps one to one
/// after the opening quote; otherwise the whole string is underlined.
pub(super) fn inner_span(
    source: &str,
    value_span: &Range<usize>,
    decoded: &str,
    inner: &Range<usize>,
) -> Range<usize> {
    let whole = value_span.clone();
    let Some(raw) = source.get(value_span.clone()) else {
        return whole;
    };
    let delimiter = ["\"\"\"", "'''", "\"", "'"]
        .into_iter()
        .find(|delimiter| raw.starts_with(delimiter));
    let Some(delimiter) = delimiter else {
        return whole;
    };
    let mut start = value_span.start + delimiter.len();
    if delimiter.len() == 3 {
        // A line break right after the opening delimiter is not part of the string.
        if source[start..].starts_with("\r\n") {
            start += 2;
        } else if source[start..].starts_with('\n') {
            start += 1;
        }
    }
    let end = start + decoded.len();
    let verbatim = source.get(start..end) == Some(decoded)
        && source
            .get(end..)
            .is_some_and(|rest| rest.starts_with(delimiter));
    if !verbatim {
        return whole;
    }
    let mut from = inner.start.min(decoded.len());
    let mut to = inner.end.min(decoded.len()).max(from);
    while !decoded.is_char_boundary(from) {
        from -= 1;
    }
    while !decoded.is_char_boundary(to) {
        to += 1;
    }
    start + from..start + to
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_close_matches_only() {
        assert_eq!(suggest("decison", ["decision", "id"]), Some("decision"));
        assert_eq!(suggest("Decision", ["decision"]), Some("decision"));
        assert_eq!(
            suggest("only-paths", ["paths", "only_paths"]),
            Some("only_paths")
        );
        assert_eq!(suggest("x", ["id"]), None);
        assert_eq!(suggest("colour", ["policy", "reason"]), None);
        assert_eq!(suggest(&"a".repeat(1000), ["a"]), None);
    }

    #[test]
    fn policy_spans_map_into_the_toml_string() {
        let cases: &[(&str, &str, Range<usize>, &str)] = &[
            // (TOML value, decoded text, span in the text, expected underline)
            (
                "\"lines_chnged <= 4\"",
                "lines_chnged <= 4",
                0..12,
                "lines_chnged",
            ),
            ("'lines_chnged <= 4'", "lines_chnged <= 4", 13..15, "<="),
            ("\"\"\"\nx <= 4\"\"\"", "x <= 4", 5..6, "4"),
            ("'''x <= 4'''", "x <= 4", 0..1, "x"),
            // An escape shifts offsets: the whole string is underlined.
            ("\"x\\u0020<= 4\"", "x <= 4", 0..1, "\"x\\u0020<= 4\""),
            ("\"\\\\\\\\\"", "\\\\", 0..1, "\"\\\\\\\\\""),
            // Spans past the end are clamped to the end of the text.
            ("\"x <=\"", "x <=", 4..9, ""),
            ("\"é <= 1\"", "é <= 1", 1..2, "é"),
        ];
        for (value, decoded, inner, expected) in cases {
            let source = format!("policy = {value}\n");
            let value_span = 9..9 + value.len();
            let span = inner_span(&source, &value_span, decoded, inner);
            assert_eq!(&source[span], *expected, "{value}");
        }
    }

    #[test]
    fn quote_escapes_and_cuts() {
        assert_eq!(quote("a\u{1b}b"), "`a\\u{1b}b`");
        assert_eq!(quote(&"x".repeat(100)), format!("`{}…`", "x".repeat(60)));
    }
}
