//! Token patterns: how a language table says what a test, a skip marker or an assertion
//! looks like, and the matcher that counts them on one line of stripped code.
//!
//! Patterns are plain `const` data (no regular expressions, nothing compiled at run time):
//! a pattern is a short sequence of [`Tok`]s matched against the tokens of a line. A match
//! starts at a token boundary, so `my_assert_helper(` never matches `assert(` and
//! `latest(` never matches `test(`.

use super::lex::is_ident_byte;

/// One token of a stripped line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// An identifier, keyword or number.
    Ident(&'a [u8]),
    /// A string or character literal (the lexer left a single `"` where it was).
    Str,
    /// Any other byte that is not whitespace.
    Punct(u8),
}

/// Splits stripped code into tokens, appending them to `out`.
pub(crate) fn tokenize<'a>(code: &'a [u8], out: &mut Vec<Token<'a>>) {
    // Code has at most a token for every two bytes but short runs of punctuation: one
    // allocation for the line rather than one for every doubling.
    out.reserve(code.len() / 2 + 1);
    let mut i = 0;
    while i < code.len() {
        let byte = code[i];
        if byte.is_ascii_whitespace() {
            i += 1;
        } else if is_ident_byte(byte) {
            let end = i + code[i..].iter().take_while(|&&b| is_ident_byte(b)).count();
            out.push(Token::Ident(&code[i..end]));
            i = end;
        } else {
            out.push(if byte == b'"' {
                Token::Str
            } else {
                Token::Punct(byte)
            });
            i += 1;
        }
    }
}

/// How many more brackets a line's stripped `code` opens than it closes (negative when it
/// closes more).
pub(crate) fn open_brackets(code: &[u8]) -> i64 {
    code.iter()
        .map(|byte| match byte {
            b'(' | b'[' | b'{' => 1,
            b')' | b']' | b'}' => -1,
            _ => 0,
        })
        .sum()
}

/// A rule for an identifier.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Name {
    /// Exactly one of these.
    Is(&'static [&'static str]),
    /// Starts with one of these (`assert` matches `assert_eq` and `assertEquals`).
    StartsWith(&'static [&'static str]),
    /// One of these, then nothing or a character that is not a lowercase ASCII letter: Go's
    /// rule for `TestXxx` (`Test`, `TestParse`, `Test_parse`, but not `Testify`, nor
    /// `TestMain`).
    GoPrefix(&'static [&'static str]),
    /// Any identifier except these.
    AnyBut(&'static [&'static str]),
}

impl Name {
    fn matches(self, ident: &[u8]) -> bool {
        match self {
            Self::Is(names) => names.iter().any(|name| name.as_bytes() == ident),
            Self::StartsWith(prefixes) => prefixes
                .iter()
                .any(|prefix| ident.starts_with(prefix.as_bytes())),
            // `TestMain(m *testing.M)` is no test: `go test` runs it instead of the tests.
            Self::GoPrefix(prefixes) => {
                ident != b"TestMain"
                    && prefixes.iter().any(|prefix| {
                        ident.starts_with(prefix.as_bytes())
                            && !ident.get(prefix.len()).is_some_and(u8::is_ascii_lowercase)
                    })
            }
            Self::AnyBut(names) => !names.iter().any(|name| name.as_bytes() == ident),
        }
    }
}

/// One element of a pattern.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Tok {
    /// An identifier that satisfies the rule.
    Ident(Name),
    /// A path, `a::b::c` or `a.b.c` (one identifier at least), whose last segment satisfies
    /// the rule: `#[tokio::test]`, `@org.junit.Test`.
    Path(Name),
    /// One of these punctuation bytes.
    Punct(&'static [u8]),
    /// A string literal.
    Str,
    /// A value's first token: a string literal or an identifier (a name, a number,
    /// `True`), not punctuation.
    Value,
    /// A balanced `( … )` group on the line if there is one, else nothing (a Go method
    /// receiver).
    OptParens,
    /// An assignment's `=`: not `==`, `===` or `=>`.
    Assign,
    /// An index `[ … ]` that is read, not assigned: `describe[mode]`, `it["sk" + "ip"](`,
    /// but not `context[key] = value` or `context[key] += 1`. One left open at the end of
    /// the line is read.
    IndexRead,
}

impl Tok {
    /// Whether this element matches the single token `token` (for [`Pattern::not_after`]).
    fn matches_one(self, token: Token<'_>) -> bool {
        match (self, token) {
            (Self::Ident(name) | Self::Path(name), Token::Ident(ident)) => name.matches(ident),
            (Self::Punct(set), Token::Punct(byte)) => set.contains(&byte),
            (Self::Str | Self::Value, Token::Str) | (Self::Value, Token::Ident(_)) => true,
            _ => false,
        }
    }

    /// The index after this element when it matches at `tokens[i]`.
    #[inline]
    fn match_at(self, tokens: &[Token<'_>], i: usize) -> Option<usize> {
        match self {
            Self::OptParens => {
                if tokens.get(i) != Some(&Token::Punct(b'(')) {
                    return Some(i);
                }
                let mut depth = 0usize;
                for (j, token) in tokens.iter().enumerate().skip(i) {
                    match token {
                        Token::Punct(b'(') => depth += 1,
                        Token::Punct(b')') => {
                            depth -= 1;
                            if depth == 0 {
                                return Some(j + 1);
                            }
                        }
                        _ => {}
                    }
                }
                None
            }
            Self::Assign => (tokens.get(i) == Some(&Token::Punct(b'='))
                && !matches!(tokens.get(i + 1), Some(Token::Punct(b'=' | b'>'))))
            .then_some(i + 1),
            Self::IndexRead => {
                if tokens.get(i) != Some(&Token::Punct(b'[')) {
                    return None;
                }
                let mut depth = 0usize;
                for (j, token) in tokens.iter().enumerate().skip(i) {
                    match token {
                        Token::Punct(b'[') => depth += 1,
                        Token::Punct(b']') => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                let after = |k: usize| tokens.get(j + k).copied();
                                let assigned = match after(1) {
                                    Some(Token::Punct(b'=')) => {
                                        !matches!(after(2), Some(Token::Punct(b'=' | b'>')))
                                    }
                                    Some(Token::Punct(
                                        b'+' | b'-' | b'*' | b'/' | b'|' | b'&' | b'?',
                                    )) => after(2) == Some(Token::Punct(b'=')),
                                    _ => false,
                                };
                                return (!assigned).then_some(j + 1);
                            }
                        }
                        _ => {}
                    }
                }
                Some(i + 1)
            }
            Self::Path(name) => {
                let Token::Ident(mut last) = *tokens.get(i)? else {
                    return None;
                };
                let mut j = i + 1;
                loop {
                    match tokens.get(j..j + 3) {
                        Some([Token::Punct(b':'), Token::Punct(b':'), Token::Ident(next)]) => {
                            last = next;
                            j += 3;
                        }
                        _ => match tokens.get(j..j + 2) {
                            Some([Token::Punct(b'.'), Token::Ident(next)]) => {
                                last = next;
                                j += 2;
                            }
                            _ => break,
                        },
                    }
                }
                name.matches(last).then_some(j)
            }
            Self::Ident(_) | Self::Punct(_) | Self::Str | Self::Value => {
                self.matches_one(*tokens.get(i)?).then_some(i + 1)
            }
        }
    }
}

/// A sequence of elements that makes one test, skip marker or assertion.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pattern {
    /// The elements, matched on consecutive tokens.
    pub seq: &'static [Tok],
    /// The match does not count when the token before it matches one of these (`.test(`
    /// is a method call, `function test(` a definition).
    pub not_after: &'static [Tok],
    /// The match does not count when these elements follow it (Mocha's pending `it('x')`,
    /// a test without a body, which never runs).
    pub not_before: &'static [Tok],
    /// The match counts only on a line that also declares a test (node:test's
    /// `{ skip: true }` option, which would be too common a phrase anywhere else).
    pub with_test: bool,
    /// The match counts only at the start of the line (`#[should_panic]`, `macro_rules!
    /// assert_eq`): a list of such patterns costs one attempt a line.
    pub at_start: bool,
}

impl Pattern {
    /// A pattern with no context rules.
    pub(crate) const fn new(seq: &'static [Tok]) -> Self {
        Self {
            seq,
            not_after: &[],
            not_before: &[],
            with_test: false,
            at_start: false,
        }
    }

    /// The same pattern, counted only at the start of a line.
    pub(crate) const fn at_start(self) -> Self {
        Self {
            at_start: true,
            ..self
        }
    }

    /// The same pattern, not counted after any of `tokens`.
    pub(crate) const fn not_after(self, tokens: &'static [Tok]) -> Self {
        Self {
            not_after: tokens,
            ..self
        }
    }

    /// The same pattern, not counted when `tokens` follow it.
    pub(crate) const fn not_before(self, tokens: &'static [Tok]) -> Self {
        Self {
            not_before: tokens,
            ..self
        }
    }

    /// The same pattern, counted only on a line that also declares a test.
    pub(crate) const fn with_test(self) -> Self {
        Self {
            with_test: true,
            ..self
        }
    }

    #[expect(
        clippy::inline_always,
        reason = "the matcher's inner loop: measured, callgrind counts 10% more instructions \
                  for the analysis when this is a call"
    )]
    #[inline(always)]
    /// [`Self::match_at`], for tests that compare matchers.
    #[cfg(test)]
    pub(crate) fn seq_match(&self, tokens: &[Token<'_>], start: usize) -> Option<usize> {
        self.match_at(tokens, start)
    }

    fn match_at(&self, tokens: &[Token<'_>], start: usize) -> Option<usize> {
        // The sequence first: at most tokens, it fails on the first one, which the token
        // before it need not be read for.
        let end = self
            .seq
            .iter()
            .try_fold(start, |i, tok| tok.match_at(tokens, i))?;
        let after_excluded = start > 0
            && self
                .not_after
                .iter()
                .any(|tok| tok.matches_one(tokens[start - 1]));
        let before_excluded = !self.not_before.is_empty()
            && self
                .not_before
                .iter()
                .try_fold(end, |i, tok| tok.match_at(tokens, i))
                .is_some();
        (!after_excluded && !before_excluded).then_some(end)
    }
}

/// The tokens a list of patterns can start a match on, by their first byte (an
/// identifier's first letter, a punctuation byte; strings apart): most tokens of a line
/// start none of a list's patterns, and telling so once per token is cheaper than trying
/// each pattern there. A set that admits too much costs time, never a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Starts([u64; 5]);

/// The sets of the lists used last, by the list's address (lists are `'static` data, so an
/// address always names the same list): building a set costs more than a line's matching.
type StartsCache = [Option<(usize, usize, Starts)>; 256];

thread_local! {
    static STARTS: std::cell::RefCell<StartsCache> = const { std::cell::RefCell::new([None; 256]) };
}

/// The bytes identifiers are made of, as a set.
const IDENTIFIERS: [u64; 5] = {
    let mut set = [0u64; 5];
    let mut byte = 0;
    while byte < 256 {
        #[expect(clippy::cast_possible_truncation, reason = "byte < 256")]
        if super::lex::is_ident_byte(byte as u8) {
            set[byte / 64] |= 1 << (byte % 64);
        }
        byte += 1;
    }
    set
};

impl Starts {
    /// The bit of string literals, past the 256 bytes.
    const STR: usize = 256;

    /// [`Self::of`], built once per list.
    fn cached(patterns: &'static [Pattern]) -> Self {
        let key = (patterns.as_ptr() as usize, patterns.len());
        let slot = (key.0 >> 4 ^ key.1) % 256;
        STARTS.with_borrow_mut(|cache| match cache[slot] {
            Some((address, len, starts)) if (address, len) == key => starts,
            _ => {
                let starts = Self::of(patterns);
                cache[slot] = Some((key.0, key.1, starts));
                starts
            }
        })
    }

    fn of(patterns: &[Pattern]) -> Self {
        let mut starts = Self([0; 5]);
        for pattern in patterns {
            match pattern.seq.first() {
                Some(Tok::Ident(
                    Name::Is(names) | Name::StartsWith(names) | Name::GoPrefix(names),
                )) => {
                    for name in *names {
                        match name.as_bytes().first() {
                            Some(&byte) => starts.add(usize::from(byte)),
                            None => starts.add_identifiers(),
                        }
                    }
                }
                Some(Tok::Ident(Name::AnyBut(_)) | Tok::Path(_)) => starts.add_identifiers(),
                Some(Tok::Punct(bytes)) => {
                    for &byte in *bytes {
                        starts.add(usize::from(byte));
                    }
                }
                Some(Tok::Str) => starts.add(Self::STR),
                Some(Tok::Value) => {
                    starts.add(Self::STR);
                    starts.add_identifiers();
                }
                Some(Tok::IndexRead) => starts.add(usize::from(b'[')),
                Some(Tok::Assign) => starts.add(usize::from(b'=')),
                // Matches without consuming a token: anything may follow.
                Some(Tok::OptParens) | None => starts.0 = [u64::MAX; 5],
            }
        }
        starts
    }

    fn add(&mut self, bit: usize) {
        self.0[bit / 64] |= 1 << (bit % 64);
    }

    fn add_identifiers(&mut self) {
        for (set, identifiers) in self.0.iter_mut().zip(IDENTIFIERS) {
            *set |= identifiers;
        }
    }

    fn admits(&self, token: Token<'_>) -> bool {
        let bit = match token {
            Token::Ident(name) => name.first().map_or(0, |&byte| usize::from(byte)),
            Token::Punct(byte) => usize::from(byte),
            Token::Str => Self::STR,
        };
        self.0[bit / 64] & (1 << (bit % 64)) != 0
    }
}

/// How many times the patterns occur in `tokens`, without overlaps: scanning left to right,
/// the first pattern that matches at a token counts once and the scan resumes after it.
/// `declares_test` tells whether the line declares a test (for [`Pattern::with_test`]).
pub(crate) fn count(
    patterns: &'static [Pattern],
    tokens: &[Token<'_>],
    declares_test: bool,
) -> u32 {
    let mut found = 0;
    for_each_match(patterns, tokens, declares_test, |_, _| found += 1);
    found
}

/// Calls `found(start, end)` for each match that [`count`] counts, with the token range it
/// covers.
pub(crate) fn for_each_match(
    patterns: &'static [Pattern],
    tokens: &[Token<'_>],
    declares_test: bool,
    mut found: impl FnMut(usize, usize),
) {
    if patterns.is_empty() {
        return;
    }
    let starts_only = patterns.iter().all(|pattern| pattern.at_start);
    let starts = Starts::cached(patterns);
    let mut i = 0;
    'tokens: while i < tokens.len() {
        if !starts.admits(tokens[i]) {
            // No pattern of the list can match from here: what trying each would conclude.
            if starts_only {
                return;
            }
            i += 1;
            continue;
        }
        for pattern in patterns {
            if (pattern.with_test && !declares_test) || (pattern.at_start && i > 0) {
                continue;
            }
            if let Some(end) = pattern.match_at(tokens, i) {
                found(i, end);
                i = end.max(i + 1);
                continue 'tokens;
            }
        }
        if starts_only {
            return;
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(code: &str) -> Vec<Token<'_>> {
        let mut out = Vec::new();
        tokenize(code.as_bytes(), &mut out);
        out
    }

    const ASSERT_CALL: Pattern =
        Pattern::new(&[Tok::Ident(Name::Is(&["assert"])), Tok::Punct(b"(")]);
    const TEST_ATTR: Pattern = Pattern::new(&[
        Tok::Punct(b"#"),
        Tok::Punct(b"["),
        Tok::Path(Name::Is(&["test"])),
    ]);

    #[test]
    fn tokens_of_a_line() {
        assert_eq!(
            tokens("#[tokio::test] x\"+1"),
            [
                Token::Punct(b'#'),
                Token::Punct(b'['),
                Token::Ident(b"tokio"),
                Token::Punct(b':'),
                Token::Punct(b':'),
                Token::Ident(b"test"),
                Token::Punct(b']'),
                Token::Ident(b"x"),
                Token::Str,
                Token::Punct(b'+'),
                Token::Ident(b"1"),
            ]
        );
    }

    #[test]
    fn matches_whole_tokens_only() {
        assert_eq!(
            count(&[ASSERT_CALL], &tokens("assert(x); assert (y)"), false),
            2
        );
        assert_eq!(count(&[ASSERT_CALL], &tokens("my_assert(x)"), false), 0);
        assert_eq!(count(&[ASSERT_CALL], &tokens("asserted(x)"), false), 0);
    }

    #[test]
    fn paths_match_on_their_last_segment() {
        assert_eq!(count(&[TEST_ATTR], &tokens("#[test]"), false), 1);
        assert_eq!(
            count(&[TEST_ATTR], &tokens("#[tokio::test(flavor)]"), false),
            1
        );
        assert_eq!(count(&[TEST_ATTR], &tokens("#[test::other]"), false), 0);
        assert_eq!(count(&[TEST_ATTR], &tokens("#[testing]"), false), 0);
    }

    #[test]
    fn context_rules() {
        const METHOD: Pattern = ASSERT_CALL.not_after(&[Tok::Punct(b".")]);
        const OPTION: Pattern = ASSERT_CALL.with_test();
        assert_eq!(count(&[METHOD], &tokens("x.assert(y)"), false), 0);
        assert_eq!(count(&[OPTION], &tokens("assert(y)"), false), 0);
        assert_eq!(count(&[OPTION], &tokens("assert(y)"), true), 1);
    }

    #[test]
    fn go_prefix_rule() {
        let name = Name::GoPrefix(&["Test"]);
        assert!(name.matches(b"Test"));
        assert!(name.matches(b"TestParse"));
        assert!(name.matches(b"Test_parse"));
        assert!(!name.matches(b"Testify"));
        assert!(!name.matches(b"Tes"));
    }

    #[test]
    fn optional_parentheses() {
        const PATTERN: Pattern = Pattern::new(&[
            Tok::Ident(Name::Is(&["func"])),
            Tok::OptParens,
            Tok::Ident(Name::GoPrefix(&["Test"])),
        ]);
        assert_eq!(count(&[PATTERN], &tokens("func TestA(t)"), false), 1);
        assert_eq!(count(&[PATTERN], &tokens("func (s *S) TestA()"), false), 1);
        assert_eq!(count(&[PATTERN], &tokens("func (s *S"), false), 0);
    }
}
