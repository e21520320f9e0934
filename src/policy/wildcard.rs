//! Identity and trailer patterns of `[actors]` (`agent_authors`, `agent_trailers`): text
//! where `*` matches any run of characters (also none) and everything else is literal,
//! compared without regard to case.
//!
//! Not globs: identities are full of characters that globs treat specially (`[bot]`,
//! `{…}`, `?`), and a pattern such as `*[bot] <*>` must mean what it says.

/// A compiled `*` pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wildcard {
    /// The pattern as written.
    pattern: String,
    /// The literal parts between the `*`s, lowercased; one part when there is no `*`.
    parts: Vec<String>,
}

impl Wildcard {
    /// Compiles `pattern`.
    pub fn new(pattern: &str) -> Self {
        Self {
            pattern: pattern.to_owned(),
            parts: pattern
                .to_lowercase()
                .split('*')
                .map(str::to_owned)
                .collect(),
        }
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.pattern
    }

    /// Whether the whole of `text` matches.
    pub fn is_match(&self, text: &str) -> bool {
        let text = text.to_lowercase();
        let Some((first, rest)) = self.parts.split_first() else {
            return text.is_empty();
        };
        let Some((last, middle)) = rest.split_last() else {
            return text == *first;
        };
        let Some(mut remaining) = text.strip_prefix(first.as_str()) else {
            return false;
        };
        // Leftmost matches of the middle parts leave the most room for the rest.
        for part in middle {
            match remaining.find(part.as_str()) {
                Some(at) => remaining = &remaining[at + part.len()..],
                None => return false,
            }
        }
        remaining.ends_with(last.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! matches {
        ($name:ident, $pattern:expr, yes: [$($yes:expr),*], no: [$($no:expr),*]) => {
            #[test]
            fn $name() {
                let wildcard = Wildcard::new($pattern);
                $(assert!(wildcard.is_match($yes), "{:?} should match {:?}", $pattern, $yes);)*
                $(assert!(!wildcard.is_match($no), "{:?} should not match {:?}", $pattern, $no);)*
            }
        };
    }

    matches!(literal, "Robo <robo@example.com>",
        yes: ["Robo <robo@example.com>", "ROBO <Robo@Example.com>"],
        no: ["Robo <robo@example.com>x", "xRobo <robo@example.com>", ""]);
    matches!(brackets_are_literal, "*[bot] <*>",
        yes: ["renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>", "[bot] <>"],
        no: ["renovate <r@example.com>", "b <x>"]);
    matches!(star_everywhere, "*@agents.example.com>",
        yes: ["Any One <x@agents.example.com>"],
        no: ["Any One <x@agents.example.com.evil>"]);
    matches!(prefix_and_suffix_do_not_overlap, "ab*ba",
        yes: ["abba", "ab-ba", "abXba"],
        no: ["aba", "ab", "ba"]);
    matches!(middle_parts_in_order, "*x-agent: *run*",
        yes: ["X-Agent: nightly run", "x-agent: run"],
        no: ["x-agent: nightly", "run x-agent: "]);
    matches!(only_a_star, "*", yes: ["", "anything"], no: []);
    matches!(empty, "", yes: [""], no: ["a"]);
}
