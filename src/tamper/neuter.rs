//! Tests and assertions that stay in the file but stop meaning anything: an assertion that
//! checks nothing (`assert True`, `assert_eq!(x, x)`, `expect(true).toBe(true)`, a Python
//! tuple `assert (x, "m")`), Rust `cfg` predicates that are false under test, and the lines
//! that make the code below them dead (an item compiled out, an `if False:` block, a
//! `return` at the top of a test body, `__test__ = False`).
//!
//! All of it works on the tokens of one stripped line, like the patterns; finding where a
//! dead region ends reads the following lines of the same side (braces or indentation).

use super::Language;
use super::lex::{self, State, Syntax};
use super::pattern::{self, Token};

/// How a line makes code dead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// The item that follows is compiled out (Rust `#[cfg(not(test))]`): this line through
    /// the item's end.
    Item,
    /// The block this line opens never runs (`if False:`, `if (false) {`).
    Block,
    /// The rest of the enclosing test body never runs (a `return` at its top).
    Rest,
    /// The same, from a block that always runs and returns (`if cfg!(test) {` then
    /// `return;`, `if True:` then `return`): this line opens it, and the rest of the body
    /// after it never runs.
    RestAfterBlock,
    /// Nothing in the file runs as a test (Python's module-level `__test__ = False`, Go's
    /// `//go:build ignore` in a `_test.go` file, Rust's `#![cfg(not(test))]`).
    Whole,
    /// Nothing in the enclosing class runs as a test (`__test__ = False` in a class body).
    Class,
    /// A Rust `macro_rules!` definition: when its body holds a test attribute, the macro
    /// defines tests, and its invocations count instead of the attribute (this line through
    /// the definition's end).
    Template,
}

fn ident<'a>(token: Option<&Token<'a>>) -> Option<&'a [u8]> {
    match token {
        Some(Token::Ident(name)) => Some(name),
        _ => None,
    }
}

fn is_punct(token: Option<&Token<'_>>, byte: u8) -> bool {
    token == Some(&Token::Punct(byte))
}

/// The index just after the group that opens at `tokens[open]` (`(`, `[` or `{`), when it
/// closes on this line.
pub(crate) fn group_end(tokens: &[Token<'_>], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// `tokens` split at every comma outside any bracket (allocates: [`split_top`] is the one
/// for every assertion).
pub(crate) fn split_all<'t, 'a>(tokens: &'t [Token<'a>]) -> Vec<&'t [Token<'a>]> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth -= 1,
            Token::Punct(b',') if depth == 0 => {
                parts.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tokens[start..]);
    parts
}

/// The first [`MAX_PARTS`] parts of `tokens` split at the `at` bytes outside any bracket
/// (the last one holds the rest), without allocating: this runs on every assertion.
fn split_top<'t, 'a>(tokens: &'t [Token<'a>], at: u8) -> Parts<'t, 'a> {
    let mut parts = Parts {
        items: [&[]; MAX_PARTS],
        len: 0,
    };
    let (mut depth, mut start) = (0i32, 0);
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth -= 1,
            Token::Punct(byte) if *byte == at && depth == 0 && parts.len < MAX_PARTS - 1 => {
                parts.items[parts.len] = &tokens[start..i];
                parts.len += 1;
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.items[parts.len] = &tokens[start..];
    parts.len += 1;
    parts
}

/// How many parts [`split_top`] keeps.
const MAX_PARTS: usize = 4;

/// Parts of a token list, at most [`MAX_PARTS`].
struct Parts<'t, 'a> {
    items: [&'t [Token<'a>]; MAX_PARTS],
    len: usize,
}

impl<'t, 'a> Parts<'t, 'a> {
    fn as_slice(&self) -> &[&'t [Token<'a>]] {
        &self.items[..self.len]
    }

    fn first(&self) -> &'t [Token<'a>] {
        self.items[0]
    }
}

/// The arguments of the call whose `(` is `tokens[open]`, and the index after its `)`.
fn call_args<'t, 'a>(tokens: &'t [Token<'a>], open: usize) -> Option<(Parts<'t, 'a>, usize)> {
    if !is_punct(tokens.get(open), b'(') {
        return None;
    }
    let end = group_end(tokens, open)?;
    let inner = &tokens[open + 1..end - 1];
    let mut args = split_top(inner, b',');
    if inner.is_empty() {
        args.len = 0;
    }
    Some((args, end))
}

/// The deepest nesting of brackets, or the longest run of negations, that an assertion is
/// read through: the readers below recurse once per level, and a condition nested deeper
/// than this is no one's test: it is read as one that checks nothing ([`always_true`]), so
/// that nesting cannot hide a check of nothing (Python alone allows 200 levels).
pub(crate) const MAX_NESTING: usize = 32;

/// Whether `tokens` nest brackets, chain `not`/`!`, or chain comparisons (`False is False
/// is … x`) deeper than [`MAX_NESTING`].
pub(crate) fn too_deep(tokens: &[Token<'_>]) -> bool {
    let (mut depth, mut negations, mut comparisons) = (0usize, 0usize, 0usize);
    for token in tokens {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth = depth.saturating_sub(1),
            Token::Punct(b'=') | Token::Ident(b"is") => comparisons += 1,
            _ => {}
        }
        if matches!(token, Token::Punct(b'!') | Token::Ident(b"not")) {
            negations += 1;
        } else {
            negations = 0;
        }
        if depth > MAX_NESTING || negations > MAX_NESTING || comparisons > 2 * MAX_NESTING {
            return true;
        }
    }
    false
}

/// The arguments of the assertion call matched at `tokens[start..end]`: the pattern ends
/// with its `(` (`self.assertEqual(`), before it (`assertEquals`), or its name is followed
/// by one.
fn assertion_args<'t, 'a>(
    tokens: &'t [Token<'a>],
    start: usize,
    end: usize,
) -> Option<(Parts<'t, 'a>, usize)> {
    [end.saturating_sub(1), end, start + 1]
        .into_iter()
        .find(|open| is_punct(tokens.get(*open), b'('))
        .and_then(|open| call_args(tokens, open))
}

pub(crate) fn is_number(name: &[u8]) -> bool {
    name.first().is_some_and(u8::is_ascii_digit)
}

const RUST_INTEGER_SUFFIXES: [&[u8]; 13] = [
    b"", b"u8", b"u16", b"u32", b"u64", b"u128", b"usize", b"i8", b"i16", b"i32", b"i64", b"i128",
    b"isize",
];

/// A number literal whose value is zero, however written: `0`, `0.0`, `0x0`, `0_0`, and with
/// a type suffix (Rust's `0u8` or `0.0f64`, Java's `0L` or `0.0f`, JavaScript's `BigInt` `0n`,
/// Python's imaginary `0j`).
fn is_zero(name: &[u8]) -> bool {
    if !is_number(name) {
        return false;
    }
    let digits = if let [b'0', b'x' | b'X' | b'o' | b'O' | b'b' | b'B', rest @ ..] = name {
        // Hexadecimal digits include `f` and `d`: only a Rust integer suffix follows them.
        let end = rest
            .iter()
            .position(|b| matches!(b, b'u' | b'i'))
            .unwrap_or(rest.len());
        if !RUST_INTEGER_SUFFIXES.contains(&&rest[end..]) {
            return false;
        }
        &rest[..end]
    } else {
        let end = name
            .iter()
            .position(u8::is_ascii_alphabetic)
            .unwrap_or(name.len());
        let suffix = &name[end..];
        let known = matches!(
            suffix,
            b"" | b"n" | b"j" | b"J" | b"l" | b"L" | b"f" | b"F" | b"d" | b"D" | b"f32" | b"f64"
        ) || RUST_INTEGER_SUFFIXES.contains(&suffix);
        if !known {
            return false;
        }
        &name[..end]
    };
    !digits.is_empty() && digits.iter().all(|b| matches!(b, b'0' | b'.' | b'_'))
}

/// The expression is a constant that is always true.
fn truthy_in(expr: &[Token<'_>]) -> bool {
    // Python's `a if c else b` binds loosest of all: true when the branch taken is.
    if let Some((then, condition, otherwise)) = conditional(expr) {
        return (truthy_in(then) && truthy_in(otherwise))
            || (truthy_in(condition) && truthy_in(then))
            || (falsy_in(condition) && truthy_in(otherwise));
    }
    // `||` and `or` bind loosest: one constant true operand makes the whole true.
    if any_operand(expr, Logic::Or, truthy_in) {
        return true;
    }
    match expr {
        // A string, Python's `...`, and a function (`lambda: x == 3`), never called.
        [Token::Str]
        | [Token::Punct(b'.'), Token::Punct(b'.'), Token::Punct(b'.')]
        | [Token::Ident(b"lambda"), ..] => true,
        [Token::Ident(name)] => {
            matches!(*name, b"true" | b"True") || (is_number(name) && !is_zero(name))
        }
        [Token::Punct(b'!') | Token::Ident(b"not"), rest @ ..] => falsy_in(rest),
        // `all(…)` of nothing: an empty collection written out, or a generator or
        // comprehension over one (`all(f(x) == 3 for x in [])`).
        [
            Token::Ident(b"all"),
            Token::Punct(b'('),
            inner @ ..,
            Token::Punct(b')'),
        ] if group_end(expr, 1) == Some(expr.len()) => over_nothing(inner),
        // A list or array written out with something in it (JavaScript's is true even
        // empty; Python's empty one is not).
        [Token::Punct(b'['), inner @ .., Token::Punct(b']')]
            if !inner.is_empty() && group_end(expr, 0) == Some(expr.len()) =>
        {
            true
        }
        [Token::Punct(b'('), inner @ .., Token::Punct(b')')]
            if group_end(expr, 0) == Some(expr.len()) =>
        {
            // A generator (`(x == 3 for _ in y)`) is true, never run.
            (split_top(inner, b',').len == 1 && top_level_for(inner)) || truthy_in(inner)
        }
        _ => cfg_macro(expr) == Some(true),
    }
}

/// Whether `expr` is an empty collection written out (`[]`, `()`, `{}`, `range(0)`), or a
/// generator or comprehension whose `for … in` runs over one.
fn over_nothing(expr: &[Token<'_>]) -> bool {
    let empty = |tokens: &[Token<'_>]| {
        matches!(
            tokens,
            [Token::Punct(b'['), Token::Punct(b']')]
                | [Token::Punct(b'('), Token::Punct(b')')]
                | [Token::Punct(b'{'), Token::Punct(b'}')]
                | [
                    Token::Ident(b"range"),
                    Token::Punct(b'('),
                    Token::Ident(b"0"),
                    Token::Punct(b')')
                ]
        )
    };
    if empty(expr) {
        return true;
    }
    // A comprehension in its brackets: `[f(x) for x in []]`.
    let inner = match expr {
        [
            Token::Punct(b'[' | b'('),
            inner @ ..,
            Token::Punct(b']' | b')'),
        ] if group_end(expr, 0) == Some(expr.len()) => inner,
        _ => expr,
    };
    let mut fors = top_level(inner).filter(|(_, token)| **token == Token::Ident(b"for"));
    let (Some((at_for, _)), None) = (fors.next(), fors.next()) else {
        return false;
    };
    let Some((at_in, _)) =
        top_level(inner).find(|(i, token)| *i > at_for && **token == Token::Ident(b"in"))
    else {
        return false;
    };
    // The iterable runs to the end, or to an `if` of the comprehension.
    let iterable = &inner[at_in + 1..];
    let end = top_level(iterable)
        .find(|(_, token)| **token == Token::Ident(b"if"))
        .map_or(iterable.len(), |(i, _)| i);
    empty(&iterable[..end])
}

/// Python's conditional expression `then if condition else otherwise`, split at its `if`
/// and `else` outside any bracket.
fn conditional<'t, 'a>(
    expr: &'t [Token<'a>],
) -> Option<(&'t [Token<'a>], &'t [Token<'a>], &'t [Token<'a>])> {
    let mut at_if = None;
    for (i, token) in top_level(expr) {
        match token {
            Token::Ident(b"if") if i > 0 && at_if.is_none() => at_if = Some(i),
            Token::Ident(b"else") => {
                let at_if = at_if?;
                return Some((&expr[..at_if], &expr[at_if + 1..i], &expr[i + 1..]));
            }
            _ => {}
        }
    }
    None
}

/// A comparison of number literals only (`3 > 2`, `2 + 1 == 3`): its value never depends
/// on the code under test.
fn constant_comparison(expr: &[Token<'_>]) -> bool {
    let compares = expr
        .iter()
        .any(|token| matches!(token, Token::Punct(b'<' | b'>' | b'=')));
    compares
        && expr.iter().all(|token| match token {
            Token::Ident(word) => is_number(word),
            Token::Punct(byte) => b"+-*/%<>=!().".contains(byte),
            Token::Str => false,
        })
}

/// The call that ends a matcher chain from `tokens[from]` (`.to.equal(x)`, `.not.toBe(x)`,
/// `.should.eql(x)`): the chain's last name, whether `not` is one of its names, and the
/// call's first argument (`None` when it has none), when the chain (of no segment, or
/// more) ends in a call.
struct MatcherCall<'t, 'a> {
    last: Option<&'a [u8]>,
    negated: bool,
    first: Option<&'t [Token<'a>]>,
}

fn matcher_call<'t, 'a>(tokens: &'t [Token<'a>], from: usize) -> Option<MatcherCall<'t, 'a>> {
    let (mut i, mut last, mut negated) = (from, None, false);
    while is_punct(tokens.get(i), b'.')
        && let Some(name) = ident(tokens.get(i + 1))
    {
        negated |= name == b"not";
        last = Some(name);
        i += 2;
    }
    let (args, _) = call_args(tokens, i)?;
    Some(MatcherCall {
        last,
        negated,
        first: args.as_slice().first().copied(),
    })
}

/// Whether `expr` has a `for` outside any bracket: a generator's or comprehension's.
fn top_level_for(expr: &[Token<'_>]) -> bool {
    top_level(expr).any(|(_, token)| *token == Token::Ident(b"for"))
}

/// The tokens of `expr` outside any bracket, with their index (the brackets themselves
/// left out; a closing one too many is ignored).
fn top_level<'t, 'a>(expr: &'t [Token<'a>]) -> impl Iterator<Item = (usize, &'t Token<'a>)> {
    let mut depth = 0usize;
    expr.iter()
        .enumerate()
        .filter(move |(_, token)| match token {
            Token::Punct(b'(' | b'[' | b'{') => {
                depth += 1;
                false
            }
            Token::Punct(b')' | b']' | b'}') => {
                depth = depth.saturating_sub(1);
                false
            }
            _ => depth == 0,
        })
}

/// `cfg!(predicate)`: its value under `cargo test`, when the predicate has one.
fn cfg_macro(expr: &[Token<'_>]) -> Option<bool> {
    match expr {
        [
            Token::Ident(b"cfg"),
            Token::Punct(b'!'),
            Token::Punct(b'('),
            inner @ ..,
            Token::Punct(b')'),
        ] if group_end(expr, 2) == Some(expr.len()) => cfg_value(inner),
        _ => None,
    }
}

/// The two short-circuit operators, as C-like languages and Python write them.
#[derive(Clone, Copy)]
enum Logic {
    /// `||`, `or`.
    Or,
    /// `&&`, `and`.
    And,
}

/// Whether `expr` has at least two operands at its top level joined by `logic`, and one of
/// them satisfies `test`: `x == 1 || true`, `assert x or True`, `false && f()`.
fn any_operand(expr: &[Token<'_>], logic: Logic, test: fn(&[Token<'_>]) -> bool) -> bool {
    let (punct, word): (u8, &[u8]) = match logic {
        Logic::Or => (b'|', b"or"),
        Logic::And => (b'&', b"and"),
    };
    let (mut depth, mut start, mut split, mut i) = (0i32, 0, false, 0);
    let mut found = false;
    while i < expr.len() {
        let width = match &expr[i] {
            Token::Punct(b'(' | b'[' | b'{') => {
                depth += 1;
                0
            }
            Token::Punct(b')' | b']' | b'}') => {
                depth -= 1;
                0
            }
            Token::Punct(byte)
                if depth == 0 && *byte == punct && is_punct(expr.get(i + 1), punct) =>
            {
                2
            }
            // Not a method of that name (`option.or(…)`).
            Token::Ident(name)
                if depth == 0 && *name == word && !(i > 0 && is_punct(expr.get(i - 1), b'.')) =>
            {
                1
            }
            _ => 0,
        };
        if width > 0 {
            found |= test(&expr[start..i]);
            split = true;
            start = i + width;
            i += width;
        } else {
            i += 1;
        }
    }
    split && (found || test(&expr[start..]))
}

/// The expression is a constant that is always true ([`truthy_in`]), read only when it
/// nests no deeper than [`MAX_NESTING`]: the reading recurses once per bracket or `not`.
fn truthy(expr: &[Token<'_>]) -> bool {
    !too_deep(expr) && truthy_in(expr)
}

/// The expression is a constant that is always false (`False`, `0`, `not True`:
/// [`falsy_in`]), read only when it nests no deeper than [`MAX_NESTING`].
pub(crate) fn falsy(expr: &[Token<'_>]) -> bool {
    !too_deep(expr) && falsy_in(expr)
}

/// The expression is a constant that is always false.
fn falsy_in(expr: &[Token<'_>]) -> bool {
    // `&&` and `and` bind tighter than `||` and `or`: one constant false operand makes the
    // whole false only where no `||` or `or` joins the top level.
    if any_operand(expr, Logic::Or, |_| true) {
        return false;
    }
    if any_operand(expr, Logic::And, falsy_in) {
        return true;
    }
    match expr {
        [Token::Ident(name)] => {
            matches!(*name, b"false" | b"False" | b"None" | b"nil" | b"null") || is_zero(name)
        }
        [Token::Punct(b'!') | Token::Ident(b"not"), rest @ ..] => truthy_in(rest),
        [Token::Punct(b'('), inner @ .., Token::Punct(b')')]
            if group_end(expr, 0) == Some(expr.len()) =>
        {
            falsy_in(inner)
        }
        _ => cfg_macro(expr) == Some(false),
    }
}

/// Two operands that are the same code, with no string literal in them (the lexer keeps no
/// string contents, so `f("a")` and `f("b")` would look alike).
fn same(a: &[Token<'_>], b: &[Token<'_>]) -> bool {
    // Two `new X()` are two objects: comparing them tests `equals` (gson's
    // `assertEquals(new X(), new X())`), which is a real check. So do two objects a type
    // makes, `X.create()`, `Foo::new()`.
    let constructs = a.contains(&Token::Ident(b"new"))
        || (a.contains(&Token::Punct(b'('))
            && a.iter()
                .any(|token| matches!(token, Token::Ident(name) if name.first().is_some_and(u8::is_ascii_uppercase))));
    !a.is_empty() && a == b && !a.contains(&Token::Str) && !constructs
}

/// `a == a`, `a === a`, `a is a`, `a <= a`, `a >= a`: true whatever `a` is.
/// `mock.ANY` (or `ANY`, `unittest.mock.ANY`): equal to anything.
fn is_any(operand: &[Token<'_>]) -> bool {
    matches!(operand, [.., Token::Ident(b"ANY")])
        && operand
            .iter()
            .all(|token| matches!(token, Token::Ident(_) | Token::Punct(b'.')))
}

/// Two operands that compare equal whatever the code does: the same code, or `mock.ANY`.
fn always_equal(a: &[Token<'_>], b: &[Token<'_>]) -> bool {
    same(a, b) || is_any(a) || is_any(b)
}

fn tautology(expr: &[Token<'_>]) -> bool {
    let mut depth = 0i32;
    for (i, token) in expr.iter().enumerate() {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth -= 1,
            Token::Punct(b'=' | b'<' | b'>') if depth == 0 => {
                let before = i.checked_sub(1).and_then(|j| expr.get(j));
                let operator_start = !matches!(
                    before,
                    Some(Token::Punct(
                        b'=' | b'!' | b'<' | b'>' | b'-' | b'+' | b'*' | b'/'
                    ))
                );
                if !operator_start || !is_punct(expr.get(i + 1), b'=') {
                    continue;
                }
                let mut rhs = i + 2;
                if is_punct(expr.get(rhs), b'=') {
                    rhs += 1;
                }
                let equal = matches!(token, Token::Punct(b'='));
                return same(&expr[..i], &expr[rhs..])
                    || (equal && always_equal(&expr[..i], &expr[rhs..]));
            }
            Token::Ident(b"is") if depth == 0 => {
                let rhs = &expr[i + 1..];
                if ident(rhs.first()) == Some(b"not") {
                    return false;
                }
                return same(&expr[..i], rhs);
            }
            _ => {}
        }
    }
    false
}

/// A condition that holds whatever the code does.
fn always_true(expr: &[Token<'_>]) -> bool {
    too_deep(expr)
        || truthy(expr)
        || tautology(expr)
        || constant_comparison(expr)
        // Arithmetic of numbers alone: a fixed value (`assert.ok(1 + 1)`).
        || (expr.len() > 1 && is_literal(expr))
        || (!too_deep(expr) && kind_of_a_boolean(expr))
}

/// Whether `expr` is a boolean by its form, whatever it reads: a comparison (`r == 4`,
/// `a < b`, `x in xs`, `y is z`), a negation (`not x`, `!x`), `bool(…)`, in brackets or
/// not. Joined by `and`, `or`, `&&`, `||` or a conditional it may be anything.
fn is_boolean(expr: &[Token<'_>]) -> bool {
    match expr {
        [Token::Punct(b'('), inner @ .., Token::Punct(b')')]
            if group_end(expr, 0) == Some(expr.len()) =>
        {
            return is_boolean(inner);
        }
        [Token::Punct(b'!') | Token::Ident(b"not"), rest @ ..] => return !rest.is_empty(),
        [Token::Ident(b"bool" | b"Boolean"), Token::Punct(b'('), ..] => {
            return group_end(expr, 1) == Some(expr.len());
        }
        _ => {}
    }
    let joined = top_level(expr).any(|(i, token)| match token {
        Token::Punct(byte @ (b'|' | b'&')) => is_punct(expr.get(i + 1), *byte),
        Token::Punct(b'?') => true,
        Token::Ident(word) => matches!(*word, b"and" | b"or" | b"if" | b"lambda"),
        _ => false,
    });
    // A generic's brackets (`get<number>(`, `cache.<Integer>get(`) compare nothing.
    let generic = |i: usize| {
        let mut j = i + 1;
        while matches!(
            expr.get(j),
            Some(Token::Ident(_) | Token::Punct(b',' | b'.' | b'?'))
        ) {
            j += 1;
        }
        j > i + 1
            && is_punct(expr.get(j), b'>')
            && matches!(expr.get(j + 1), Some(Token::Punct(b'(') | Token::Ident(_)))
    };
    let closes_generic = |i: usize| {
        (0..i)
            .rev()
            .take_while(|&j| {
                matches!(
                    expr.get(j),
                    Some(Token::Ident(_) | Token::Punct(b',' | b'.' | b'?' | b'<'))
                )
            })
            .any(|j| is_punct(expr.get(j), b'<') && generic(j))
    };
    !joined
        && top_level(expr).any(|(i, token)| match token {
            Token::Punct(b'<') => !generic(i),
            Token::Punct(b'>') if closes_generic(i) => false,
            // Not an arrow (`=>`, `->`): a function.
            Token::Punct(b'>') => !matches!(
                i.checked_sub(1).and_then(|j| expr.get(j)),
                Some(Token::Punct(b'=' | b'-'))
            ),
            // `==`, `!=`, `===`, `!==`: not an assignment.
            Token::Punct(b'=') => {
                is_punct(expr.get(i + 1), b'=')
                    || matches!(
                        i.checked_sub(1).and_then(|j| expr.get(j)),
                        Some(Token::Punct(b'=' | b'!'))
                    )
            }
            Token::Ident(word) => matches!(*word, b"in" | b"is" | b"instanceof"),
            _ => false,
        })
}

/// A type that every boolean is an instance of, or a tuple of types holding one: `bool`,
/// `int` (Python's `bool` is a subclass), `object`, `numbers.Number` and its kin, `(bool,)`.
fn a_boolean_is(types: &[Token<'_>]) -> bool {
    let one = |t: &[Token<'_>]| {
        matches!(
            t,
            [Token::Ident(b"bool" | b"int" | b"object")]
                | [
                    ..,
                    Token::Ident(b"Number" | b"Integral" | b"Real" | b"Complex")
                ]
        ) && t
            .iter()
            .all(|token| matches!(token, Token::Ident(_) | Token::Punct(b'.')))
    };
    match types {
        [Token::Punct(b'('), inner @ .., Token::Punct(b')')]
            if group_end(types, 0) == Some(types.len()) =>
        {
            split_top(inner, b',').as_slice().iter().any(|t| one(t))
        }
        _ => one(types),
    }
}

/// [`kind_of_a_boolean`] for the forms told by how they start: `typeof …`, `type(…) is
/// bool`, `isinstance(…)`, `str(…)`, `repr(…)`, `{…}`; `None` for the others.
fn kind_by_form(expr: &[Token<'_>]) -> Option<bool> {
    if let [Token::Ident(b"typeof"), rest @ ..] = expr {
        let compared = top_level(rest).find(|(i, token)| {
            matches!(token, Token::Punct(b'=' | b'!')) && is_punct(rest.get(i + 1), b'=')
        });
        return Some(match compared {
            Some((at, _)) => is_boolean(&rest[..at]),
            None => !rest.is_empty(),
        });
    }
    // `type(r == 4) is bool`, `type(r == 4) == bool`.
    if let [Token::Ident(b"type"), Token::Punct(b'('), ..] = expr
        && let Some(close) = group_end(expr, 1)
        && matches!(
            &expr[close..],
            [Token::Ident(b"is"), Token::Ident(b"bool")]
                | [
                    Token::Punct(b'='),
                    Token::Punct(b'='),
                    Token::Ident(b"bool")
                ]
        )
    {
        return Some(is_boolean(&expr[2..close - 1]));
    }
    if let [
        Token::Ident(b"isinstance"),
        Token::Punct(b'('),
        inner @ ..,
        Token::Punct(b')'),
    ] = expr
        && group_end(expr, 1) == Some(expr.len())
    {
        let parts = split_top(inner, b',');
        return Some(parts.len == 2 && a_boolean_is(parts.items[1]) && is_boolean(parts.items[0]));
    }
    // `str(r == 4)`, `String(r === 4)`: "True" or "False", never empty; `repr(x)` never is.
    if let [
        Token::Ident(name),
        Token::Punct(b'('),
        inner @ ..,
        Token::Punct(b')'),
    ] = expr
        && group_end(expr, 1) == Some(expr.len())
    {
        return match *name {
            b"str" | b"String" => Some(is_boolean(inner)),
            b"repr" => Some(!inner.is_empty()),
            _ => None,
        };
    }
    // An object or dict written out with entries (`{ s: r === 3 }`), a set with members:
    // true whatever they hold.
    if let [Token::Punct(b'{'), inner @ .., Token::Punct(b'}')] = expr
        && group_end(expr, 0) == Some(expr.len())
        && !inner.is_empty()
        && !top_level(inner).any(|(_, token)| *token == Token::Punct(b';'))
    {
        return Some(true);
    }
    None
}

/// A check of a value's kind that a boolean always passes, so that what it compares is
/// never checked: `(r == 4) is not None`, `(r == 4) != None`, `(r === 4) !== undefined`,
/// `(r == 4) in (True, False)`, `isinstance(r == 4, bool)`, `typeof (r === 4) === "…"` (a
/// boolean's type name is fixed, whatever string it is compared with), `typeof x` alone (a
/// type name is a non-empty string); and `x in (4, x)`, a collection written out that holds
/// the value itself.
fn kind_of_a_boolean(expr: &[Token<'_>]) -> bool {
    if let Some(kind) = kind_by_form(expr) {
        return kind;
    }
    let absent = |rhs: &[Token<'_>]| {
        matches!(
            rhs,
            [Token::Ident(b"None" | b"null" | b"undefined" | b"nil")]
        )
    };
    for (i, token) in top_level(expr) {
        match token {
            // `lhs is not None`.
            Token::Ident(b"is") if expr.get(i + 1) == Some(&Token::Ident(b"not")) => {
                return absent(&expr[i + 2..]) && is_boolean(&expr[..i]);
            }
            // `lhs != None`, `lhs !== undefined`.
            Token::Punct(b'!') if is_punct(expr.get(i + 1), b'=') => {
                let rhs = if is_punct(expr.get(i + 2), b'=') {
                    i + 3
                } else {
                    i + 2
                };
                return absent(expr.get(rhs..).unwrap_or_default()) && is_boolean(&expr[..i]);
            }
            // `lhs >= False`, `lhs <= True`: a boolean is both.
            Token::Punct(b'>' | b'<') if is_punct(expr.get(i + 1), b'=') => {
                let bound = match token {
                    Token::Punct(b'>') => [&b"False"[..], b"false", b"0"],
                    _ => [&b"True"[..], b"true", b"1"],
                };
                return matches!(expr.get(i + 2..), Some([Token::Ident(word)]) if bound.contains(word))
                    && is_boolean(&expr[..i]);
            }
            // `lhs in (…)`, not `lhs not in (…)`.
            Token::Ident(b"in") if i > 0 && expr.get(i - 1) != Some(&Token::Ident(b"not")) => {
                let (lhs, rhs) = (&expr[..i], &expr[i + 1..]);
                let written = matches!(rhs.first(), Some(Token::Punct(b'(' | b'[' | b'{')))
                    && group_end(rhs, 0) == Some(rhs.len());
                if !written {
                    return false;
                }
                let items = split_all(&rhs[1..rhs.len() - 1]);
                let has = |word: &[u8]| {
                    items.iter().any(|item| {
                        matches!(item, [Token::Ident(name)] if name.eq_ignore_ascii_case(word))
                    })
                };
                return items.iter().any(|item| same(lhs, item))
                    || (has(b"true") && has(b"false") && is_boolean(lhs));
            }
            _ => {}
        }
    }
    false
}

/// Whether the assertion matched at `tokens[start..end]` checks nothing: its condition is a
/// constant or the same on both sides, or (Python) it asserts a non-empty tuple.
pub(crate) fn is_trivial(
    language: Language,
    tokens: &[Token<'_>],
    start: usize,
    end: usize,
) -> bool {
    // should.js matches from the `.` of `x.should`: `x.should.equal(x)` checks nothing.
    if language == Language::JavaScript
        && is_punct(tokens.get(start), b'.')
        && ident(tokens.get(start + 1)) == Some(b"should")
    {
        // A literal, `(0).should.equal(1)`, against literals checks nothing either.
        if let Some(
            [
                Token::Punct(b'('),
                literal @ (Token::Str | Token::Ident(_)),
                Token::Punct(b')'),
            ],
        ) = start.checked_sub(3).map(|from| &tokens[from..start])
            && is_literal(std::slice::from_ref(literal))
            // Brackets of their own, not a call's arguments (`app.set('x').should…`).
            && !start.checked_sub(4).is_some_and(|at| {
                matches!(tokens[at], Token::Ident(_) | Token::Punct(b')' | b']'))
            })
        {
            return !matcher_checks_a_value(tokens, start);
        }
        let mut from = start;
        while from > 0 && matches!(tokens[from - 1], Token::Ident(_) | Token::Punct(b'.')) {
            from -= 1;
        }
        let subject = &tokens[from..start];
        return !subject.is_empty() && compared_to_itself(tokens, start, subject);
    }
    let Some(name) = ident(tokens.get(start)) else {
        return false;
    };
    // The `assert` statement (Python, Java): its expression runs to `,` or `:` or `;`.
    let statement = language == Language::Python || !is_punct(tokens.get(end), b'(');
    if name == b"assert" && end == start + 1 && statement {
        let rest = &tokens[end..];
        let rest = split_top(rest, b';').first();
        let separator = if language == Language::Python {
            b','
        } else {
            b':'
        };
        let expr = split_top(rest, separator).first();
        if language == Language::Python
            && is_punct(expr.first(), b'(')
            && group_end(expr, 0) == Some(expr.len())
            && split_top(&expr[1..expr.len() - 1], b',').len > 1
        {
            return true;
        }
        // A list, set or dict written out with something in it is true, whatever it holds.
        if language == Language::Python
            && matches!(expr.first(), Some(Token::Punct(b'[' | b'{')))
            && expr.len() > 2
            && group_end(expr, 0) == Some(expr.len())
        {
            return true;
        }
        return always_true(expr);
    }
    if name == b"assert" && end == start + 1 {
        // Java's `assert (x);` and JavaScript's `assert(x)` alike.
        return call_args(tokens, end)
            .is_some_and(|(args, _)| cond_trivial(b"assert", args.as_slice()));
    }
    // The name of the assertion and the `(` of its arguments.
    let mut last = name;
    for token in &tokens[start..end] {
        if let Token::Ident(segment) = token {
            last = segment;
        }
    }
    let open = if is_punct(tokens.get(end - 1), b'(') {
        end - 1
    } else if is_punct(tokens.get(end), b'(') {
        end
    } else {
        return false;
    };
    let Some((args, after)) = call_args(tokens, open) else {
        return false;
    };
    if matches!(last, b"expect" | b"Expect") {
        // `expect(true)…`, `expect(x).toBe(x)`, `expect(x).to.equal(x)`. A method named
        // `expect` (supertest's `request(app).get('/').expect(200)`) states the value it
        // checks for, not a subject: it is no trivial assertion.
        if start > 0 && is_punct(tokens.get(start - 1), b'.') {
            return false;
        }
        let [subject] = args.as_slice() else {
            return false;
        };
        if language == Language::JavaScript && is_boolean(subject) && matches_a_kind(tokens, after)
        {
            return true;
        }
        if is_literal(subject) {
            // `expect("shown").to.equal(value)` names the expected value first: a check
            // of `value`, not of the literal. (gomega's matchers are calls themselves:
            // `Expect(true).To(BeTrue())`.)
            return language != Language::JavaScript || !matcher_checks_a_value(tokens, after);
        }
        return compared_to_itself(tokens, after, subject);
    }
    // Testify passes `t` first.
    let args = args.as_slice();
    let args = if language == Language::Go && args.len() > 1 {
        &args[1..]
    } else {
        args
    };
    cond_trivial(last, args)
}

/// A literal written out: a string, a number, `true`, `false`, `null`, `None`; or
/// arithmetic of numbers alone (`1 + 1`, `-(2 ** 3)`), whose value is as fixed.
fn is_literal(expr: &[Token<'_>]) -> bool {
    match expr {
        [Token::Str] => true,
        [Token::Ident(word)] => truthy(expr) || falsy(expr) || is_number(word),
        _ => {
            expr.iter()
                .any(|token| matches!(token, Token::Ident(word) if is_number(word)))
                && expr.iter().all(|token| match token {
                    Token::Ident(word) => is_number(word),
                    Token::Punct(byte) => b"+-*/%()".contains(byte),
                    Token::Str => false,
                })
        }
    }
}

/// Names in a matcher's argument that give no value of their own: literals, `this`,
/// conversions of literals, Jest's `expect.anything()`.
const NO_VALUE: &[&[u8]] = &[
    b"true",
    b"false",
    b"null",
    b"undefined",
    b"NaN",
    b"Infinity",
    b"this",
    b"void",
    b"typeof",
    b"new",
    b"Boolean",
    b"String",
    b"Number",
    b"Object",
    b"Array",
    b"JSON",
    b"parse",
    b"stringify",
    b"expect",
    b"anything",
    b"any",
    b"valueOf",
    b"toString",
];

/// Whether the matcher that follows `expect(…)` from `tokens[from]` on (`.to.equal(x)`,
/// `.not.toBe(x)`) is given a value to check as its first argument: a name or a call of
/// one, not a literal, not a literal negated or converted (`!0`, `Boolean(1)`,
/// `String("a")`), not something joined by `||`, `&&` or `?` (`true || f()`), and not
/// Jest's `expect.anything()` or `expect.any(…)`. chai's second argument is a message.
fn matcher_checks_a_value(tokens: &[Token<'_>], from: usize) -> bool {
    let Some(MatcherCall {
        first: Some(first), ..
    }) = matcher_call(tokens, from)
    else {
        return false;
    };
    let joined = first
        .iter()
        .any(|token| matches!(token, Token::Punct(b'|' | b'&' | b'?')));
    !joined
        && first.iter().any(|token| match token {
            Token::Ident(word) => !is_number(word) && !NO_VALUE.contains(word),
            _ => false,
        })
}

/// The names a check reads its value through: the identifiers of its line, the functions
/// it calls included (`fnmatch_ex(p, path)` checks something other than `match(p, path)`),
/// but numbers, the assertions' own words (the token ranges `calls` matched:
/// `self.assertNotEqual(`), the words of the assertion styles and of the language
/// (`assert`, `is`, `not`, `None`, `expect`, `to`, `be`, `self`) and the builtins that only
/// read a value (`hasattr`, `len`, `list`).
pub(crate) fn subject_words<'a>(
    tokens: &[Token<'a>],
    calls: &[std::ops::Range<usize>],
) -> Vec<&'a [u8]> {
    let mut words = value_words(tokens, calls);
    words.retain(|word| !READERS.contains(word));
    words
}

/// The builtins that only read a value, for [`subject_words`].
const READERS: &[&[u8]] = &[
    b"hasattr",
    b"getattr",
    b"bool",
    b"len",
    b"list",
    b"tuple",
    b"set",
    b"dict",
    b"str",
    b"any",
    b"all",
    b"callable",
];

/// Whether a check asks only what kind a value is, or whether it holds a key: a type check
/// (`isinstance(x, int)`, `type(x)`, `assertIsInstance`, `assertInstanceOf`, testify's
/// `IsType`, `instanceof`, `typeof x`, `x.constructor`, `Number.isInteger(x)`, chai's
/// `.to.be.a("number")`, Jest's `toBeInstanceOf` or `expect.any(Number)`), or a key's
/// presence (`"id" in r`, `assertIn("id", r)`, `.to.have.property("id")`,
/// `toHaveProperty("id")`, `hasattr`, `containsKey`, chai's `.keys(…)`, `Object.keys(r)`).
/// Beside an existence check, it leaves the value unchecked.
pub(crate) fn asks_kind_or_key(tokens: &[Token<'_>]) -> bool {
    const KIND: &[&[u8]] = &[
        b"isinstance",
        b"assertIsInstance",
        b"assertNotIsInstance",
        b"assert_is_instance",
        b"assertInstanceOf",
        b"assertIsType",
        b"IsType",
        b"instanceof",
        b"typeof",
        b"toBeInstanceOf",
        b"instanceOf",
        b"hasOwnProperty",
        b"hasattr",
        b"containsKey",
        b"hasKey",
        b"constructor",
        b"isInteger",
        b"isSafeInteger",
        b"isArray",
    ];
    // chai's words a matcher follows in a chain.
    const CHAIN: &[&[u8]] = &[
        b"to", b"be", b"been", b"is", b"not", b"have", b"has", b"own", b"any", b"all", b"deep",
        b"nested", b"include", b"contain", b"and", b"that", b"which",
    ];
    // The number of arguments of the call whose `(` is at `open`.
    let arguments = |open: usize| call_args(tokens, open).map_or(0, |(args, _)| args.len);
    tokens.iter().enumerate().any(|(i, token)| match token {
        Token::Ident(word) if KIND.contains(word) => true,
        // `type(x)`, Jest's `expect.any(Number)`.
        Token::Ident(b"type") => {
            is_punct(tokens.get(i + 1), b'(') && !is_punct(tokens.get(i.wrapping_sub(1)), b'.')
        }
        Token::Ident(b"any") => {
            is_punct(tokens.get(i.wrapping_sub(1)), b'.')
                && ident(tokens.get(i.wrapping_sub(2))) == Some(b"expect")
        }
        // JavaScript's `Object.keys(r)`: the keys, not what they hold.
        Token::Ident(b"keys") if ident(tokens.get(i.wrapping_sub(2))) == Some(b"Object") => {
            is_punct(tokens.get(i.wrapping_sub(1)), b'.')
        }
        // Jest's `toHaveProperty("id")`, without the value it should hold.
        Token::Ident(b"toHaveProperty") => {
            is_punct(tokens.get(i + 1), b'(') && arguments(i + 1) < 2
        }
        // chai's `.a(…)`, `.an(…)`, `.property(…)` (without a value), `.keys(…)`, in a chain.
        Token::Ident(b"a" | b"an" | b"property" | b"ownProperty" | b"keys" | b"key") => {
            is_punct(tokens.get(i.wrapping_sub(1)), b'.')
                && is_punct(tokens.get(i + 1), b'(')
                && ident(tokens.get(i.wrapping_sub(2))).is_some_and(|word| CHAIN.contains(&word))
                && (!matches!(token, Token::Ident(b"property" | b"ownProperty"))
                    || arguments(i + 1) < 2)
        }
        // `"id" in r`, `assertIn("id", r)`: a string looked for in the value.
        Token::Ident(b"in" | b"assertIn" | b"assert_in") => {
            let key = if *token == Token::Ident(b"in") {
                i.checked_sub(1).and_then(|j| tokens.get(j))
            } else {
                tokens.get(i + 2)
            };
            key == Some(&Token::Str)
        }
        _ => false,
    })
}

/// The names of the value a check reads, as [`subject_words`] but with the builtins that
/// read it (`len(c)` reads `len` and `c`): what it checks of the value.
pub(crate) fn value_words<'a>(
    tokens: &[Token<'a>],
    calls: &[std::ops::Range<usize>],
) -> Vec<&'a [u8]> {
    const STYLE: &[&[u8]] = &[
        b"assert",
        b"is",
        b"not",
        b"None",
        b"True",
        b"False",
        b"in",
        b"and",
        b"or",
        b"self",
        b"this",
        b"null",
        b"undefined",
        b"true",
        b"false",
        b"to",
        b"be",
        b"been",
        b"have",
        b"should",
        b"exist",
        b"ok",
        b"is_some",
        b"is_ok",
        b"nil",
        b"NotNil",
        b"BeNil",
        b"NotTo",
        b"t",
        b"new",
        b"expect",
        b"toBeDefined",
        b"toBeTruthy",
        b"toBeNull",
        b"toBeUndefined",
        b"assertTrue",
        b"assert_true",
        b"assert_",
        b"failUnless",
        b"assertFalse",
        b"assert_false",
        b"failIf",
        b"assertIsNotNone",
        b"assertNotNull",
        b"assertThat",
        b"isNotNull",
        b"isTrue",
        b"Assert",
        b"Assertions",
        b"unwrap",
        b"require",
        b"assert_ne",
        b"Some",
        b"Ok",
    ];
    let mut words: Vec<&[u8]> = tokens
        .iter()
        .enumerate()
        .filter(|(i, _)| !calls.iter().any(|call| call.contains(i)))
        .filter_map(|(i, token)| match token {
            // Not a string's prefix (`f"…"`, `rb"…"`).
            Token::Ident(word)
                if tokens.get(i + 1) == Some(&Token::Str)
                    && word.len() <= 2
                    && word.iter().all(|b| b"fFbBrRuU".contains(b)) =>
            {
                None
            }
            Token::Ident(word) if !is_number(word) && !STYLE.contains(word) => Some(*word),
            _ => None,
        })
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// Whether the assertion matched at `tokens[start..end]` only checks that a value exists or
/// is truthy, not what it is: `expect(x).toBeDefined()`, `.not.toBeNull()`, chai's
/// `.to.exist`, `should.exist(x)`, `assertIsNotNone(x)`, `assertTrue(x)` of a bare value,
/// `assert x is not None`, a bare `assert x`, `assertNotNull(x)`, `assert!(x.is_some())`,
/// `assert!(x.is_ok())`, testify's `NotNil`, gomega's `NotTo(BeNil())`. Put in place of an
/// exact check, it lets a wrong value pass.
pub(crate) fn is_existence(
    language: Language,
    tokens: &[Token<'_>],
    start: usize,
    end: usize,
) -> bool {
    // should.js matches from the `.` of `x.should`.
    let name = ident(tokens.get(start)).unwrap_or_default();
    let rest = &tokens[start..];
    let has = |seq: &[&[u8]]| {
        rest.windows(seq.len()).any(|window| {
            window.iter().zip(seq).all(|(token, want)| match token {
                Token::Ident(word) => word == want,
                Token::Punct(byte) => want.len() == 1 && want[0] == *byte,
                Token::Str => false,
            })
        })
    };
    // The argument of a call that checks truthiness, a bare value, with or without a
    // message (first in Python, `assertTrue(x, "m")`; first in JUnit 4, `assertTrue("m",
    // x)`): `assertTrue(found)`; not `assertTrue(a.equals(b))`, `assertTrue(false)`.
    // `python` reads Python's first argument: `truthiness` for `assertTrue`, `absence` for
    // `assertFalse`.
    let one_argument_that = |python: Condition| {
        assertion_args(tokens, start, end).is_some_and(|(args, _)| {
            match args.as_slice() {
                // Python's `assert f(x)` and `assertTrue(f(x))` are the same check.
                [value] if language == Language::Python => python(value),
                [value] => bare(value),
                // unittest's second argument is the message, whatever it is (an f-string,
                // a name).
                [first, _] if language == Language::Python => python(first),
                [first, second] => !bare(first) && bare(second),
                _ => false,
            }
        })
    };
    let one_argument = || one_argument_that(truthiness);
    match language {
        Language::JavaScript => {
            // Presence only: truthiness (`assert.ok(x)`, `x.should.be.ok`, `.toBeTruthy()`)
            // is how the styles express uses check booleans, and they switch between them.
            has(&[b".", b"toBeDefined"])
                || has(&[b"not", b".", b"toBeNull"])
                || has(&[b"not", b".", b"toBeUndefined"])
                || has(&[b".", b"exist"])
                || js_not_nullish(tokens, start, end)
        }
        Language::Python => {
            if name == b"assertIsNotNone" {
                return true;
            }
            if matches!(
                name,
                b"assertTrue" | b"assert_true" | b"assert_" | b"failUnless"
            ) {
                return one_argument();
            }
            // `assertFalse(x is None)` is `assert x is not None`.
            if matches!(name, b"assertFalse" | b"assert_false" | b"failIf") {
                return one_argument_that(absence);
            }
            if compares_presence(name, tokens, start, end) {
                return true;
            }
            if name != b"assert" || end != start + 1 {
                return false;
            }
            let expr = split_top(&tokens[end..], b',').first();
            truthiness(expr)
        }
        Language::Java | Language::Kotlin => {
            tokens[start..end].contains(&Token::Ident(b"assertNotNull"))
                || (tokens[start..end].contains(&Token::Ident(b"assertTrue"))
                    && (one_argument() || asks_presence(tokens, start, end)))
                // AssertJ's and Truth's `assertThat(x).isNotNull()`, as the chain's last
                // matcher (`.isNotNull().isEqualTo(4)` still checks the value).
                || (name == b"assertThat" && {
                    let matcher = [
                        Token::Punct(b'.'),
                        Token::Ident(b"isNotNull"),
                        Token::Punct(b'('),
                        Token::Punct(b')'),
                    ];
                    rest.windows(4).enumerate().any(|(i, window)| {
                        window == matcher && rest.get(i + 4) != Some(&Token::Punct(b'.'))
                    })
                })
        }
        Language::Rust => {
            has(&[b".", b"is_some", b"(", b")", b")"]) || has(&[b".", b"is_ok", b"(", b")", b")"])
        }
        Language::Go => {
            has(&[b".", b"NotNil", b"("])
                || has(&[b"NotTo", b"(", b"BeNil"])
                || has(&[b"ToNot", b"(", b"BeNil"])
        }
        Language::RunnerConfig => false,
    }
}

/// Whether `value` compared with `True` by identity is checked exactly: a plain value that
/// is not a boolean whatever it holds (`f(5)`, `x.ready`; not `bool(x)`, `callable(x)`,
/// `s.startswith("a")`), which one value, `True`, passes.
fn identity_checked(value: &[Token<'_>]) -> bool {
    let value = without_brackets(value);
    plain_value(value) && !boolean_valued(value)
}

/// Whether `value` is a boolean whatever it holds: a call of `bool`, `callable`,
/// `isinstance`, `issubclass`, `hasattr`, `all`, `any`, or of a predicate
/// ([`predicate_call`]).
fn boolean_valued(value: &[Token<'_>]) -> bool {
    matches!(
        value,
        [
            Token::Ident(
                b"bool"
                    | b"callable"
                    | b"isinstance"
                    | b"issubclass"
                    | b"hasattr"
                    | b"all"
                    | b"any"
            ),
            Token::Punct(b'('),
            ..
        ]
    ) || predicate_call(value)
}

/// [`truthiness`] of a value `assertIs` compares with `True`: only one that is a boolean
/// whatever it holds ([`identity_checked`]).
fn boolean_truthiness(value: &[Token<'_>]) -> bool {
    !identity_checked(value) && truthiness(value)
}

/// Whether the Python assertion at `tokens[start..end]` compares one value with `True` by
/// equality (`assert x == True`, `assertEqual(x, True)`; by identity, `is True` and
/// `assertIs(x, True)`, it is an exact check on both sides and [`is_existence`] does not
/// take it). One value passes (`1` too): in place of an exact check it is the expected value
/// changed, not a weaker check (flask's 53b8f0821879, `== "foo"` made `is True`); removed,
/// it is read as a check of truthiness, so that flake8's E712 rewrite (`assert x`) weakens
/// nothing. The analysis reads it as exact where the change adds it.
pub(crate) fn is_boolean_check(
    language: Language,
    tokens: &[Token<'_>],
    start: usize,
    end: usize,
) -> bool {
    if language != Language::Python {
        return false;
    }
    let is_true = |side: &[Token<'_>]| without_brackets(side) == [Token::Ident(b"True")];
    // A value that is a boolean whatever it holds (`bool(x)`, `callable(x)`, `x.startswith(…)`)
    // compared with `True` is its truthiness: a weak check (helper-65's attack-57 T3, T8, U3).
    let plain_value = identity_checked;
    let name = ident(tokens.get(start)).unwrap_or_default();
    if matches!(
        name,
        b"assertIs" | b"assertEqual" | b"assertEquals" | b"assert_equal"
    ) {
        return assertion_args(tokens, start, end).is_some_and(|(args, _)| {
            matches!(args.as_slice(), [a, b] | [a, b, _]
                if (is_true(a) && plain_value(b)) || (is_true(b) && plain_value(a)))
        });
    }
    if name != b"assert" || end != start + 1 {
        return false;
    }
    let expr = without_brackets(split_top(&tokens[end..], b',').first());
    let Some((at, _)) = top_level(expr).find(|(i, token)| {
        **token == Token::Ident(b"is") && expr.get(i + 1) != Some(&Token::Ident(b"not"))
            || (**token == Token::Punct(b'=') && expr.get(i + 1) == Some(&Token::Punct(b'=')))
    }) else {
        return false;
    };
    let width = if expr[at] == Token::Ident(b"is") {
        1
    } else {
        2
    };
    let (left, right) = (&expr[..at], &expr[at + width..]);
    (is_true(right) && plain_value(without_brackets(left)))
        || (is_true(left) && plain_value(without_brackets(right)))
}

/// Whether a JavaScript `assert(…)` or `assert.ok(…)` checks only that one value is not
/// `null` or `undefined`: `assert.ok(r != null)`, `assert(r !== undefined)`, `assert(null
/// !== r)` (attack-46 B6: beside a check of the value's key and kind, it stood in for
/// `assert.deepStrictEqual(r, …)`).
fn js_not_nullish(tokens: &[Token<'_>], start: usize, end: usize) -> bool {
    let head = &tokens[start..end.min(tokens.len())];
    let ok = matches!(
        head,
        [Token::Ident(b"assert"), ..]
            if !head.iter().skip(1).any(|token| matches!(token, Token::Ident(name) if *name != b"ok" && *name != b"strict"))
    );
    if !ok {
        return false;
    }
    let Some((args, _)) = assertion_args(tokens, start, end) else {
        return false;
    };
    let ([arg] | [arg, _]) = args.as_slice() else {
        return false;
    };
    let nullish = |side: &[Token<'_>]| matches!(side, [Token::Ident(b"null" | b"undefined")]);
    let Some(at) = arg.iter().position(|token| *token == Token::Punct(b'!')) else {
        return false;
    };
    let rest = &arg[at + 1..];
    let ([Token::Punct(b'='), Token::Punct(b'='), rest @ ..] | [Token::Punct(b'='), rest @ ..]) =
        rest
    else {
        return false;
    };
    let (left, right) = (&arg[..at], rest);
    let value = |side: &[Token<'_>]| !side.is_empty() && !side.iter().any(is_comparison);
    (nullish(right) && value(left)) || (nullish(left) && value(right))
}

/// A test of a Python condition: [`truthiness`] or [`absence`].
type Condition = fn(&[Token<'_>]) -> bool;

/// Whether the Python assertion call `name` at `tokens[start..end]` compares one value with
/// a constant so that it only checks presence: `assertEqual(x, True)` is `assert x ==
/// True`, `assertIsNot(x, None)` is `assert x is not None`, `assertNotEqual(x, False)`
/// is `assert x != False`, `assertEqual(x is None, False)` is `assertFalse(x is None)`.
fn compares_presence(name: &[u8], tokens: &[Token<'_>], start: usize, end: usize) -> bool {
    const EQUAL: &[&[u8]] = &[
        b"assertEqual",
        b"assertEquals",
        b"assert_equal",
        b"assertIs",
    ];
    const NOT_EQUAL: &[&[u8]] = &[b"assertIsNot", b"assertNotEqual"];
    let checks: &[(&[u8], Condition)] = if name == b"assertIs" {
        // `assertIs(x, True)` is `assert x is True` ([`condition`]).
        &[(b"True", boolean_truthiness), (b"False", absence)]
    } else if EQUAL.contains(&name) {
        &[(b"True", truthiness), (b"False", absence)]
    } else if NOT_EQUAL.contains(&name) {
        &[(b"None", truthiness), (b"False", truthiness)]
    } else {
        return false;
    };
    let Some((args, _)) = assertion_args(tokens, start, end) else {
        return false;
    };
    let ([first, second] | [first, second, _]) = args.as_slice() else {
        return false;
    };
    checks.iter().any(|(constant, test)| {
        let is_constant = |arg: &[Token<'_>]| without_brackets(arg) == [Token::Ident(constant)];
        (is_constant(first) && test(second)) || (is_constant(second) && test(first))
    })
}

/// Whether `JUnit`'s `assertTrue(…)` at `tokens[start..end]` only asks whether something is
/// there: its condition (after a message) is a call of a presence predicate,
/// `map.containsKey(k)`, `handlers.hasHandlerFor(t)`, `file.exists()`,
/// `optional.isPresent()`; what `assertNotNull(map.get(k))` asks too. Not `contains`,
/// which checks what a string or list holds.
fn asks_presence(tokens: &[Token<'_>], start: usize, end: usize) -> bool {
    let Some((args, _)) = assertion_args(tokens, start, end) else {
        return false;
    };
    let condition = match args.as_slice() {
        [condition] => *condition,
        [message, condition] if message.iter().all(|token| *token == Token::Str) => *condition,
        _ => return false,
    };
    let Some(open) = condition
        .iter()
        .rposition(|token| *token == Token::Punct(b'('))
    else {
        return false;
    };
    if group_end(condition, open) != Some(condition.len()) || open < 2 {
        return false;
    }
    let (Some(Token::Punct(b'.')), Some(Token::Ident(name))) =
        (condition.get(open - 2), condition.get(open - 1))
    else {
        return false;
    };
    // `hasHandlerFor`, not `has`: gson's `JsonArray.has(x)` is `contains(x)` renamed.
    name.strip_prefix(b"has")
        .and_then(|rest| rest.first())
        .is_some_and(u8::is_ascii_uppercase)
        || matches!(*name, b"containsKey" | b"exists" | b"isPresent")
}

/// A value that is only read (a name, an attribute, an item), not computed, compared or
/// constant.
fn bare(value: &[Token<'_>]) -> bool {
    let constant = matches!(value, [Token::Ident(word)] if truthy(value) || falsy(value) || is_number(word) || matches!(*word, b"None" | b"null" | b"undefined"))
        || value.iter().all(|token| *token == Token::Str);
    !value.is_empty() && !constant && !value.iter().any(is_comparison)
}

/// A token that compares or calls: what a check of an exact value has.
fn is_comparison(token: &Token<'_>) -> bool {
    matches!(token, Token::Punct(b'=' | b'<' | b'>' | b'!' | b'('))
        || matches!(token, Token::Ident(b"in" | b"not" | b"and" | b"or" | b"is"))
}

/// A Python condition that only checks truthiness or presence of one value: a bare value
/// (`x`, `rv.data`, `config["KEY"]`), `x is not None`, `x != None`, `x != 0`, `x == True`, `x is
/// True`, `x is not False`, each also with the constant first (`None is not x`), in brackets, or
/// negated (`not x is None`, `not not x`); not a constant (`assert False,
/// "unreachable"`), not a type check (`isinstance(x, int)`).
fn truthiness(expr: &[Token<'_>]) -> bool {
    !too_deep(expr) && condition(expr, true)
}

/// A Python condition that is true exactly when one value is absent or falsy, compared
/// with a constant: `x is None`, `x == None`, `x is False`, `x == False`, `not x`, …; what
/// `assertFalse` turns into a presence check.
fn absence(expr: &[Token<'_>]) -> bool {
    !too_deep(expr) && condition(expr, false)
}

/// [`truthiness`] when `present`, else [`absence`]: the condition read in one normal form,
/// a value compared with `None`, `True` or `False` by `is`, `is not`, `==` or `!=`, on
/// either side, under any number of `not`s and brackets.
fn condition(expr: &[Token<'_>], present: bool) -> bool {
    const IS: Token<'static> = Token::Ident(b"is");
    const NOT: Token<'static> = Token::Ident(b"not");
    const EQ: Token<'static> = Token::Punct(b'=');
    const BANG: Token<'static> = Token::Punct(b'!');
    if let [Token::Punct(b'('), inner @ .., Token::Punct(b')')] = expr
        && group_end(expr, 0) == Some(expr.len())
    {
        return condition(inner, present);
    }
    if let [Token::Ident(b"not"), rest @ ..] = expr {
        return condition(rest, !present);
    }
    // Presence checks joined by `and` check presence only (`x is not None and add(1, 2)`);
    // a constant true beside them (`and True`) adds nothing.
    if present {
        let ands: Vec<usize> = top_level(expr)
            .filter(|(_, token)| **token == Token::Ident(b"and"))
            .map(|(i, _)| i)
            .collect();
        if !ands.is_empty() {
            let (mut from, mut presence) = (0, false);
            let all = ands.iter().chain(std::iter::once(&expr.len())).all(|&to| {
                let operand = &expr[from..to];
                from = to + 1;
                let checks = !operand.is_empty() && condition(operand, true);
                presence |= checks;
                checks || truthy(operand)
            });
            return all && presence;
        }
    }
    // Where the comparison is, and whether it holds for "equal" (`is`, `==`) or not.
    let mut at = None;
    for (i, token) in top_level(expr) {
        match token {
            _ if *token == IS => {
                let negated = expr.get(i + 1) == Some(&NOT);
                at = Some((i, i + 1 + usize::from(negated), !negated));
                break;
            }
            _ if *token == EQ && expr.get(i + 1) == Some(&EQ) => {
                at = Some((i, i + 2, true));
                break;
            }
            _ if *token == BANG && expr.get(i + 1) == Some(&EQ) => {
                at = Some((i, i + 2, false));
                break;
            }
            _ => {}
        }
    }
    let Some((left_end, right_start, equal)) = at else {
        // `x not in (None,)`, `x not in [None, False]`: `x is not None` written as
        // membership.
        if let Some(at) = expr
            .windows(2)
            .position(|pair| pair == [Token::Ident(b"not"), Token::Ident(b"in")])
            && let right = without_brackets_or_list(&expr[at + 2..])
            && !right.is_empty()
            && split_top(right, b',')
                .as_slice()
                .iter()
                .all(|part| part.is_empty() || matches!(part, [Token::Ident(b"None" | b"False")]))
        {
            return present && plain_value(&expr[..at]);
        }
        // A value on its own is true when present; `not value` is read above. A call that
        // asks something of its arguments is a check of its own.
        return present && plain_value(expr) && !predicate_call(expr);
    };
    let (left, right) = (
        without_brackets(&expr[..left_end]),
        without_brackets(&expr[right_start..]),
    );
    let (value, constant) = match (left, right) {
        (value, [Token::Ident(constant @ (b"None" | b"True" | b"False"))])
        | ([Token::Ident(constant @ (b"None" | b"True" | b"False"))], value) => (value, *constant),
        (value, zero_side) | (zero_side, value)
            if written_zero(zero_side) && !written_zero(value) =>
        {
            (value, &b"0"[..])
        }
        _ => return false,
    };
    // A number compared with zero by `==` or `!=` is its truthiness (`result.ret != 0` is
    // `result.ret`), whatever it is; by `is`, a check of its own.
    if constant == b"0" {
        let by_equality = expr[left_end..right_start]
            .iter()
            .all(|token| matches!(token, Token::Punct(b'=' | b'!')));
        return by_equality && equal != present && plain_value(value);
    }
    // A condition compared with a boolean is that condition or its negation:
    // `(x is None) is False` is `x is not None`.
    if constant != b"None" && !plain_value(value) {
        let negated = (constant == b"False") == equal;
        return condition(without_brackets(value), present != negated);
    }
    // `x is True` holds for one value only, `True` itself: an exact check, unless the value
    // is a boolean whatever it holds (`bool(x) is True` is its truthiness). `x == True` is
    // read as truthiness where a change removes it (flake8's E712 makes it `assert x`;
    // [`is_boolean_check`]). helper-65's attack-57 T1, T6, U1.
    let by_identity = expr[left_end..right_start]
        .first()
        .is_some_and(|token| *token == Token::Ident(b"is"));
    if constant == b"True" && by_identity && equal == present && identity_checked(value) {
        return false;
    }
    // Whether the comparison holds when the value is there (truthy, not None).
    let holds_when_present = match constant {
        b"True" => equal,
        _ => !equal,
    };
    holds_when_present == present && plain_value(value)
}

/// Zero however written: `0`, `0.0`, `-0`, `0x0`.
fn written_zero(side: &[Token<'_>]) -> bool {
    let digits = match side {
        [Token::Punct(b'-' | b'+'), rest @ ..] => rest,
        _ => side,
    };
    digits.iter().any(|token| matches!(token, Token::Ident(_)))
        && digits.iter().all(|token| match token {
            Token::Ident(z) => is_zero(z),
            Token::Punct(b'.') => true,
            _ => false,
        })
}

/// The inside of a tuple or list written out, `(None,)` or `[None, False]`; `expr` itself
/// otherwise.
fn without_brackets_or_list<'t, 'a>(expr: &'t [Token<'a>]) -> &'t [Token<'a>] {
    match expr {
        [
            Token::Punct(b'(' | b'['),
            inner @ ..,
            Token::Punct(b')' | b']'),
        ] if group_end(expr, 0) == Some(expr.len()) => inner,
        _ => expr,
    }
}

/// `expr` without the brackets around all of it (`(None)`, `((x))`).
fn without_brackets<'t, 'a>(mut expr: &'t [Token<'a>]) -> &'t [Token<'a>] {
    for _ in 0..MAX_NESTING {
        match expr {
            [Token::Punct(b'('), inner @ .., Token::Punct(b')')]
                if group_end(expr, 0) == Some(expr.len()) =>
            {
                expr = inner;
            }
            _ => break,
        }
    }
    expr
}

/// Whether `value`, asserted on its own, is a call with arguments of a function that
/// answers yes or no (`math.isclose(x, 3)`, `re.fullmatch("3", s)`, `all(r == 3 for r in
/// rs)`, `s.startswith("a")`, a lambda called in place): a check of its own. Not a function
/// that computes a value (`assert add(1, 2)` is a presence check), nor a call without
/// arguments (`has_request_context()`).
fn predicate_call(value: &[Token<'_>]) -> bool {
    const PREDICATES: &[&[u8]] = &[
        b"is",
        b"has_",
        b"can",
        b"should",
        b"check",
        b"match",
        b"fullmatch",
        b"search",
        b"startswith",
        b"endswith",
        b"contains",
        b"exists",
        b"equal",
        b"allclose",
    ];
    if !is_punct(value.last(), b')') {
        return false;
    }
    // The `(` the last `)` closes, found from the end.
    let mut depth = 0usize;
    let mut open = None;
    for (i, token) in value.iter().enumerate().rev() {
        match token {
            Token::Punct(b')' | b']' | b'}') => depth += 1,
            Token::Punct(b'(' | b'[' | b'{') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let Some(open) = open.filter(|&open| open > 0 && open + 2 < value.len()) else {
        return false;
    };
    // A function that answers yes or no by its name, or one written in place (a lambda).
    matches!(value[open], Token::Punct(b'('))
        && match value[open - 1] {
            Token::Ident(name) => {
                PREDICATES.iter().any(|prefix| name.starts_with(prefix))
                    || matches!(name, b"all" | b"any")
            }
            _ => true,
        }
}

/// One value, read or returned by a call (`x`, `rv.data`, `config["KEY"]`,
/// `has_request_context()`): not a constant, not compared, not a bracket left open (the
/// expression goes on below and this line alone says nothing about it).
fn plain_value(value: &[Token<'_>]) -> bool {
    // A type check (`isinstance(x, int)`, pytest's `excinfo.errisinstance(T)`) checks
    // something of its own, as `assertIsInstance` does.
    let type_check = value.windows(2).any(|pair| {
        matches!(pair, [Token::Ident(name), Token::Punct(b'(')]
            if name.ends_with(b"isinstance") || name.ends_with(b"issubclass"))
    });
    if type_check {
        return false;
    }
    let constant = matches!(value, [Token::Ident(word)] if truthy(value) || falsy(value) || is_number(word) || *word == b"None");
    // Inside a call's parentheses anything goes (`f(a == b)` is still one value).
    let mut depth = 0usize;
    let compares = value.iter().any(|token| match token {
        Token::Punct(b'(' | b'[') => {
            depth += 1;
            false
        }
        Token::Punct(b')' | b']') => {
            depth = depth.saturating_sub(1);
            false
        }
        _ => depth == 0 && is_comparison(token),
    });
    let open = value
        .iter()
        .filter(|token| matches!(token, Token::Punct(b'(' | b'[' | b'{')))
        .count()
        > value
            .iter()
            .filter(|token| matches!(token, Token::Punct(b')' | b']' | b'}')))
            .count();
    !value.is_empty() && !constant && !compares && !open
}

/// `expect(a)` followed by `.matcher(a)` (through `.to.`, `.not` is left alone).
fn compared_to_itself(tokens: &[Token<'_>], from: usize, subject: &[Token<'_>]) -> bool {
    matches!(
        matcher_call(tokens, from),
        Some(MatcherCall { last: Some(_), negated: false, first: Some(arg) }) if same(arg, subject)
    )
}

/// Whether the matcher chain from `tokens[from]` (after `expect(…)`) checks only what every
/// boolean is: chai's `.to.be.a("boolean")`, `.to.exist`, `.not.undefined`, `.not.null`,
/// Jest's `.toBeDefined()`, `.not.toBeNull()`.
fn matches_a_kind(tokens: &[Token<'_>], from: usize) -> bool {
    const CHAIN: &[&[u8]] = &[
        b"to", b"be", b"been", b"is", b"that", b"which", b"and", b"has", b"have", b"with", b"does",
        b"still",
    ];
    let mut words = Vec::new();
    let mut inner: Vec<&[u8]> = Vec::new();
    let mut depth = 0i32;
    for token in tokens.get(from..).unwrap_or_default() {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => {
                depth -= 1;
                if depth < 0 {
                    break;
                }
            }
            Token::Punct(b';') if depth == 0 => break,
            Token::Ident(word) if depth == 0 => words.push(*word),
            // Jest's `expect.any(Boolean)`, chai's `.oneOf([true, false])`: what every
            // boolean is.
            Token::Ident(word @ (b"expect" | b"any" | b"Boolean" | b"true" | b"false"))
                if depth > 0 =>
            {
                inner.push(*word);
            }
            // An argument other than a type's name (`.a("boolean")`) compares a value.
            Token::Ident(_) if depth > 0 => return false,
            _ => {}
        }
    }
    let negated = words.contains(&&b"not"[..]);
    let mut kind = false;
    for word in words {
        match word {
            // `.not.to.be.a("string")` holds for every boolean as well.
            b"a" | b"an" => kind = true,
            b"exist" | b"toBeDefined" => kind |= !negated,
            b"undefined" | b"null" | b"toBeUndefined" | b"toBeNull" => kind |= negated,
            b"toEqual" | b"toStrictEqual" => {
                kind |= inner.contains(&&b"any"[..]) && inner.contains(&&b"Boolean"[..]);
            }
            b"oneOf" => kind |= inner.contains(&&b"true"[..]) && inner.contains(&&b"false"[..]),
            b"not" => {}
            _ if CHAIN.contains(&word) => {}
            _ => return false,
        }
    }
    kind
}

/// An assertion call named `name` that checks what every boolean passes, of a comparison
/// (`self.assertIsInstance(r == 4, bool)`, `self.assertIn(r == 4, (True, False))`,
/// `self.assertIsNotNone(r == 4)`, `assert.notStrictEqual(r === 3, undefined)`,
/// `assert.strictEqual(typeof (r === 3), "boolean")`): the comparison is never checked.
fn checks_a_booleans_kind(name: &[u8], args: &[&[Token<'_>]]) -> bool {
    let absent = |arg: &[Token<'_>]| {
        matches!(
            without_brackets(arg),
            [Token::Ident(b"None" | b"null" | b"undefined" | b"nil")]
        )
    };
    let type_of_a_boolean =
        |arg: &[Token<'_>]| matches!(arg, [Token::Ident(b"typeof"), rest @ ..] if is_boolean(rest));
    let last = name.rsplit(|&b| b == b'.').next().unwrap_or(name);
    match (last, args) {
        (b"assertIsInstance" | b"assert_is_instance", [value, types, ..]) => {
            is_boolean(value) && a_boolean_is(types)
        }
        (b"assertNotIsInstance", [value, types, ..]) => {
            is_boolean(value)
                && matches!(
                    without_brackets(types),
                    [Token::Ident(
                        b"str" | b"bytes" | b"list" | b"dict" | b"tuple" | b"set" | b"float"
                    )]
                )
        }
        (b"assertIn" | b"assert_in", [value, collection, ..]) => {
            let mut expr: Vec<Token<'_>> = value.to_vec();
            expr.push(Token::Ident(b"in"));
            expr.extend_from_slice(collection);
            !too_deep(&expr) && kind_of_a_boolean(&expr)
        }
        (b"assertIsNotNone" | b"assertNotNull" | b"assert_is_not_none", [value, ..]) => {
            is_boolean(value)
        }
        (b"notStrictEqual" | b"notEqual" | b"assertNotEqual" | b"assertIsNot", [a, b, ..]) => {
            (absent(b) && is_boolean(a)) || (absent(a) && is_boolean(b))
        }
        (
            b"strictEqual" | b"equal" | b"deepEqual" | b"deepStrictEqual" | b"assertEqual",
            [a, b, ..],
        ) => {
            (type_of_a_boolean(a) && b == &[Token::Str])
                || (type_of_a_boolean(b) && a == &[Token::Str])
        }
        _ => false,
    }
}

/// An assertion call named `name` with `args` checks nothing.
fn cond_trivial(name: &[u8], args: &[&[Token<'_>]]) -> bool {
    if checks_a_booleans_kind(name, args) {
        return true;
    }
    // Most assertions check something: rule them out before looking at the name.
    let maybe = args
        .iter()
        .take(3)
        .any(|arg| always_true(arg) || falsy(arg))
        || matches!(args, [a, b, ..] if always_equal(a, b))
        || matches!(args, [_, a, b, ..] if always_equal(a, b));
    if !maybe {
        return false;
    }
    let mut buffer = [0u8; 48];
    let Some(lower) = buffer.get_mut(..name.len()) else {
        return false;
    };
    lower.copy_from_slice(name);
    lower.make_ascii_lowercase();
    let lower = &*lower;
    let has = |needle: &[u8]| lower.windows(needle.len()).any(|window| window == needle);
    if has(b"not") || has(b"_ne") || lower.ends_with(b"ne") || has(b"raise") || has(b"throw") {
        return false;
    }
    if has(b"equal") || has(b"_eq") || lower.ends_with(b"eq") || has(b"same") {
        // `assert_eq!(x, x)`, `assertEquals(1, 1)`, JUnit's message-first
        // `assertEquals("m", x, x)`.
        return match args {
            [a, b, ..] if always_equal(a, b) => true,
            [[Token::Str], a, b, ..] => always_equal(a, b),
            _ => false,
        };
    }
    // JUnit's message first: `assertTrue("m", x)`.
    let ([[Token::Str], condition] | [condition, ..]) = args else {
        return false;
    };
    if has(b"false") {
        return falsy(condition);
    }
    if lower == b"assert"
        || has(b"true")
        || lower == b"ok"
        || lower == b"assert_" && args.len() == 1
    {
        return always_true(condition);
    }
    false
}

/// The value of a Rust `cfg` predicate when tests are built: `Some(false)` for a predicate
/// that is false under test whatever else is set (`not(test)`, `any()`, `all(test, any())`),
/// `None` when it depends on something else (a feature, the target).
pub(crate) fn cfg_value(tokens: &[Token<'_>]) -> Option<bool> {
    cfg_value_when(tokens, true)
}

/// The value of a Rust `cfg` predicate in a build where `test` is set or not ([`cfg_value`]
/// is the test build's).
pub(crate) fn cfg_value_when(tokens: &[Token<'_>], test: bool) -> Option<bool> {
    // Read once per nesting level: a predicate nested deeper is not known.
    if too_deep(tokens) {
        return None;
    }
    cfg_value_in(tokens, test)
}

/// [`cfg_value_when`] of a predicate known to nest no deeper than [`MAX_NESTING`].
#[expect(
    clippy::manual_try_fold,
    reason = "three-valued logic: an unknown operand does not end the fold, a true one (any) or a false one (all) decides it"
)]
fn cfg_value_in(tokens: &[Token<'_>], test: bool) -> Option<bool> {
    match tokens {
        [Token::Ident(b"test")] => Some(test),
        [Token::Ident(b"true")] => Some(true),
        [Token::Ident(b"false")] => Some(false),
        // A name rustc or the platform sets (`unix`, `debug_assertions`, `miri`): it may be
        // set. Any other bare name (`tests`, `never`, `disabled`, a `--cfg` only a special
        // build passes) is not set by `cargo test`.
        [Token::Ident(name)] => (!WELL_KNOWN_CFGS.contains(name)).then_some(false),
        [
            Token::Ident(operator),
            Token::Punct(b'('),
            inner @ ..,
            Token::Punct(b')'),
        ] => {
            let parts: Vec<&[Token<'_>]> = if inner.is_empty() {
                Vec::new()
            } else {
                split_top(inner, b',')
                    .as_slice()
                    .iter()
                    .copied()
                    .filter(|part| !part.is_empty())
                    .collect()
            };
            let values = parts.iter().map(|part| cfg_value_in(part, test));
            match *operator {
                b"not" => match parts.as_slice() {
                    [one] => cfg_value_in(one, test).map(|value| !value),
                    _ => None,
                },
                b"any" => values.fold(Some(false), |acc, value| match (acc, value) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                }),
                b"all" => values.fold(Some(true), |acc, value| match (acc, value) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The bare `cfg` names rustc, Cargo or the target set in some build that runs tests.
const WELL_KNOWN_CFGS: &[&[u8]] = &[
    b"unix",
    b"windows",
    b"doc",
    b"doctest",
    b"miri",
    b"debug_assertions",
    b"proc_macro",
    b"overflow_checks",
    b"ub_checks",
    b"panic",
    b"clippy",
    b"rustfmt",
    b"target_thread_local",
    b"target_has_atomic",
    b"fmt_debug",
    b"contract_checks",
    b"relocation_model",
    b"sanitize",
    b"emscripten_wasm_eh",
];

/// A Rust `#[cfg_attr(predicate, attributes…)]` line: the attributes it applies under test
/// (none when the predicate is false under test).
pub(crate) fn cfg_attr_applies<'t, 'a>(tokens: &'t [Token<'a>]) -> Vec<&'t [Token<'a>]> {
    let [
        Token::Punct(b'#'),
        Token::Punct(b'['),
        Token::Ident(b"cfg_attr"),
        ..,
    ] = tokens
    else {
        return Vec::new();
    };
    let Some((args, _)) = call_args(tokens, 3) else {
        return Vec::new();
    };
    match args.as_slice().split_first() {
        Some((predicate, attributes)) if cfg_value(predicate) != Some(false) => attributes.to_vec(),
        _ => Vec::new(),
    }
}

/// The predicate and the attributes of a `cfg_attr(predicate, attributes…)` whose `(` is
/// `tokens[open]`.
pub(crate) fn cfg_attr_split<'t, 'a>(
    tokens: &'t [Token<'a>],
    open: usize,
) -> Option<(&'t [Token<'a>], Vec<&'t [Token<'a>]>)> {
    let (args, _) = call_args(tokens, open)?;
    let (predicate, attributes) = args.as_slice().split_first()?;
    Some((predicate, attributes.to_vec()))
}

/// What the stripped line `tokens` triggers, by itself (the `return` of [`Trigger::Rest`] is
/// told by its caller, which knows the lines above).
pub(crate) fn trigger(language: Language, tokens: &[Token<'_>]) -> Option<Trigger> {
    match language {
        Language::Rust => match tokens {
            [
                Token::Punct(b'#'),
                Token::Punct(b'!'),
                Token::Punct(b'['),
                Token::Ident(b"cfg"),
                rest @ ..,
            ] => cfg_group(rest).then_some(Trigger::Whole),
            [
                Token::Punct(b'#'),
                Token::Punct(b'['),
                Token::Ident(b"cfg"),
                rest @ ..,
            ] => cfg_group(rest).then_some(Trigger::Item),
            [
                Token::Ident(b"macro_rules"),
                Token::Punct(b'!'),
                Token::Ident(_),
                ..,
            ] => Some(Trigger::Template),
            _ => if_false(tokens, b'{'),
        },
        Language::Python => match tokens {
            [Token::Ident(b"__test__"), Token::Punct(b'='), value @ ..] if falsy(value) => {
                Some(Trigger::Class)
            }
            _ => if_false(tokens, b':'),
        },
        _ => if_false(tokens, b'{'),
    }
}

/// `( predicate ) ]` with a predicate false under test.
fn cfg_group(rest: &[Token<'_>]) -> bool {
    let Some(end) = (is_punct(rest.first(), b'('))
        .then(|| group_end(rest, 0))
        .flatten()
    else {
        return false;
    };
    cfg_value(&rest[1..end - 1]) == Some(false) && is_punct(rest.get(end), b']')
}

/// `if False:` (`opener` `:`), `if (false) {` / `if false {` (`opener` `{`), and the loops
/// that never run: `while False:`, `while (false) {`, Python's `for _ in []:`.
fn if_false(tokens: &[Token<'_>], opener: u8) -> Option<Trigger> {
    let [Token::Ident(keyword), condition @ .., Token::Punct(last)] = tokens else {
        return None;
    };
    if *last != opener {
        return None;
    }
    let never = match *keyword {
        b"if" | b"while" => falsy(condition),
        b"for" if opener == b':' => matches!(
            condition,
            [
                ..,
                Token::Ident(b"in"),
                Token::Punct(b'['),
                Token::Punct(b']')
            ] | [
                ..,
                Token::Ident(b"in"),
                Token::Punct(b'('),
                Token::Punct(b')')
            ]
        ),
        _ => false,
    };
    never.then_some(Trigger::Block)
}

/// Whether `line` opens a block that always runs and `next` (the line after it) returns
/// from it: `if cfg!(test) {` / `return;`, `if True:` / `return`. With [`is_exit`], the
/// multi-line form of an early exit.
pub(crate) fn opens_an_exit(line: &[u8], next: Option<&[u8]>) -> bool {
    // Most changed lines are not an `if`: no tokens for them.
    if !line.trim_ascii_start().starts_with(b"if") {
        return false;
    }
    let mut tokens = Vec::new();
    pattern::tokenize(line, &mut tokens);
    let [
        Token::Ident(b"if"),
        condition @ ..,
        Token::Punct(b'{' | b':'),
    ] = tokens.as_slice()
    else {
        return false;
    };
    if !truthy(condition) {
        return false;
    }
    let mut after = Vec::new();
    pattern::tokenize(next.unwrap_or_default(), &mut after);
    matches!(after.first(), Some(Token::Ident(b"return")))
}

/// Whether the line ends the whole test process with success: Python's `os._exit(0)`, Node's
/// `process.exit()` / `process.exit(0)`, Rust's `process::exit(0)`, Go's `os.Exit(0)`. In
/// test code it stops every test still to run, and the runner reports what ran so far as
/// a pass (pytest's `sys.exit(0)` fails the test instead, and Go's `os.Exit(m.Run())`
/// passes the tests' own status on: neither is one).
pub(crate) fn exits_with_success(language: Language, tokens: &[Token<'_>]) -> bool {
    let call: &[&[u8]] = match language {
        Language::Python => &[b"os", b".", b"_exit", b"("],
        Language::JavaScript => &[b"process", b".", b"exit", b"("],
        Language::Rust => &[b"process", b":", b":", b"exit", b"("],
        Language::Go => &[b"os", b".", b"Exit", b"("],
        _ => return false,
    };
    let matches = |window: &[Token<'_>]| {
        window.iter().zip(call).all(|(token, want)| match token {
            Token::Ident(word) => word == want,
            Token::Punct(byte) => want.len() == 1 && want[0] == *byte,
            Token::Str => false,
        })
    };
    tokens.windows(call.len()).enumerate().any(|(at, window)| {
        matches(window)
            && match &tokens[at + call.len()..] {
                [Token::Ident(zero), Token::Punct(b')'), ..] => is_zero(zero),
                [Token::Punct(b')'), ..] => language == Language::JavaScript,
                _ => false,
            }
    })
}

/// Whether the line is an exit that skips the rest of a body: `return`, `return;`,
/// `if (true) return;`, `if True: return`.
pub(crate) fn is_exit(tokens: &[Token<'_>]) -> bool {
    match tokens {
        [Token::Ident(b"return"), ..] => true,
        [Token::Ident(b"if"), rest @ ..] => {
            let Some(at) = rest.iter().position(|t| *t == Token::Ident(b"return")) else {
                return false;
            };
            let mut condition = &rest[..at];
            if let [inner @ .., Token::Punct(b':' | b'{')] = condition {
                condition = inner;
            }
            truthy(condition)
        }
        _ => false,
    }
}

/// The lines of one side, with what the region search needs.
pub(crate) struct Side<'s, 'a> {
    pub lines: &'s [&'a [u8]],
    pub syntax: &'s Syntax,
}

fn indent(line: &[u8]) -> Option<usize> {
    let width = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    (width < line.len() && !line[width..].iter().all(u8::is_ascii_whitespace)).then_some(width)
}

impl Side<'_, '_> {
    /// The last line of the indented block below `from`: the lines after it that are blank or
    /// indented more than `outer`.
    fn indented_end(&self, from: usize, outer: usize) -> usize {
        let mut end = from;
        for (i, line) in self.lines.iter().enumerate().skip(from + 1) {
            match indent(line) {
                None => {}
                Some(width) if width > outer => end = i,
                Some(_) => break,
            }
        }
        end
    }

    /// The line where the braces opened from `from` on (starting at `depth` open ones) close;
    /// with `depth` 0, the first `{` opens them and a `;` before it ends the item.
    fn brace_end(&self, from: usize, state: State, mut depth: usize) -> usize {
        let mut state = state;
        let mut code = Vec::new();
        let mut opened = depth > 0;
        for (i, line) in self.lines.iter().enumerate().skip(from) {
            code.clear();
            state = lex::strip_line(self.syntax, state, line, &mut code);
            let mut tokens = Vec::new();
            pattern::tokenize(&code, &mut tokens);
            for token in &tokens {
                match token {
                    Token::Punct(b'{') => {
                        depth += 1;
                        opened = true;
                    }
                    Token::Punct(b'}') => {
                        depth = depth.saturating_sub(1);
                        if opened && depth == 0 {
                            return i;
                        }
                    }
                    Token::Punct(b';') if !opened => return i,
                    _ => {}
                }
            }
        }
        self.lines.len().saturating_sub(1)
    }

    /// The lines `trigger` at line `at` (which starts in `state`) makes dead.
    pub(crate) fn region(
        &self,
        trigger: Trigger,
        at: usize,
        state: State,
        python: bool,
    ) -> std::ops::Range<usize> {
        let line = self.lines.get(at).copied().unwrap_or_default();
        let own = indent(line).unwrap_or(0);
        match trigger {
            Trigger::Whole => 0..self.lines.len(),
            Trigger::Item | Trigger::Template => at..self.brace_end(at, state, 0) + 1,
            Trigger::Block if python => at + 1..self.indented_end(at, own) + 1,
            Trigger::Block => at + 1..self.brace_end(at, state, 0) + 1,
            Trigger::Rest | Trigger::RestAfterBlock if python => {
                at + 1..self.indented_end(at, own.saturating_sub(1)) + 1
            }
            Trigger::Rest | Trigger::RestAfterBlock => {
                // After the exit line, the body's braces close at depth 1; after the line
                // that opens the returning block, at depth 2.
                let depth = if trigger == Trigger::Rest { 1 } else { 2 };
                let mut code = Vec::new();
                let next = lex::strip_line(self.syntax, state, line, &mut code);
                if at + 1 >= self.lines.len() {
                    return at + 1..at + 1;
                }
                at + 1..self.brace_end(at + 1, next, depth) + 1
            }
            Trigger::Class => {
                if own == 0 {
                    return 0..self.lines.len();
                }
                // The enclosing class: the nearest line above indented less.
                let class = (0..at)
                    .rev()
                    .find(|&i| indent(self.lines[i]).is_some_and(|width| width < own))
                    .unwrap_or(0);
                let outer = indent(self.lines[class]).unwrap_or(0);
                class..self.indented_end(class, outer) + 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(code: &str) -> Vec<Token<'_>> {
        let mut out = Vec::new();
        pattern::tokenize(code.as_bytes(), &mut out);
        out
    }

    /// Whether the one assertion the language's table finds in `code` is trivial.
    fn trivial(language: Language, code: &str) -> bool {
        let table = crate::tamper::TABLES
            .iter()
            .find(|table| table.language == language)
            .expect("a table");
        let mut stripped = Vec::new();
        lex::strip_line(&table.syntax, State::Code, code.as_bytes(), &mut stripped);
        let mut tokens = Vec::new();
        pattern::tokenize(&stripped, &mut tokens);
        let mut found = Vec::new();
        pattern::for_each_match(table.assertions, &tokens, false, |start, end| {
            found.push(is_trivial(language, &tokens, start, end));
        });
        assert_eq!(found.len(), 1, "{code}");
        found[0]
    }

    /// A condition is read when it nests no deeper than `MAX_NESTING`; a message nested
    /// deeper does not hide it.
    #[test]
    fn deep_messages_do_not_hide_the_condition() {
        let deep = format!("{}\"m\"{}", "(".repeat(40), ")".repeat(40));
        for (language, code) in [
            (Language::Python, format!("assert True, {deep}")),
            (Language::Python, format!("self.assertTrue(True, {deep})")),
            (Language::JavaScript, format!("assert(true, {deep})")),
        ] {
            assert!(trivial(language, &code), "{code}");
        }
        // What nests deeper is not read (each level is read once more): a condition nested
        // deeper checks nothing, whatever it holds, so that nesting hides no check of
        // nothing.
        let chain = format!("assert {}x", "False is ".repeat(100));
        assert!(!existence(Language::Python, &chain));
        for inner in ["True", "r == 4"] {
            let nested = format!("assert {}{inner}{}", "(".repeat(40), ")".repeat(40));
            assert!(trivial(Language::Python, &nested), "{nested}");
        }
    }

    #[test]
    fn zero_however_written() {
        for zero in [
            "0", "0.0", "0.", "00", "0_0", "0x0", "0X00", "0b0", "0o0", "0j", "0n", "0L", "0.0f",
            "0d", "0u8", "0usize", "0i64", "0.0f64", "0x0u32",
        ] {
            assert!(is_zero(zero.as_bytes()), "{zero}");
        }
        for other in [
            "1", "0.5", "10", "0x1", "0xf", "0x0f", "0e", "1n", "0u7", "0ull", "0abc", "x0", "",
        ] {
            assert!(!is_zero(other.as_bytes()), "{other}");
        }
    }

    #[test]
    fn exits_that_end_a_suite_with_success() {
        for (language, code, exits) in [
            (Language::Python, "os._exit(0)", true),
            (Language::Python, "sys.exit(0)", false),
            (Language::Python, "os._exit(1)", false),
            (Language::JavaScript, "process.exit()", true),
            (Language::JavaScript, "process.exit(0);", true),
            (Language::JavaScript, "process.exit(1);", false),
            (Language::Rust, "std::process::exit(0);", true),
            (Language::Rust, "std::process::exit(code);", false),
            (Language::Go, "os.Exit(0)", true),
            (Language::Go, "os.Exit(m.Run())", false),
        ] {
            assert_eq!(exits_with_success(language, &tokens(code)), exits, "{code}");
        }
    }

    /// chai's and should.js's forms: a literal against literals, or a value against itself,
    /// checks nothing; a literal against a value checks the value.
    #[test]
    fn literal_subjects_and_should_forms() {
        for code in [
            // A literal against a literal however written, or against nothing it checks.
            "expect(true).toBe(!0)",
            "expect(true).toBe(Boolean(1))",
            "expect(\"a\").toBe(String(\"a\"))",
            "expect(true).toBe(true || add(1, 1))",
            "expect(true).to.equal(true, msg)",
            "expect(1).toEqual(expect.anything())",
            "expect(1).toEqual(expect.any(Number))",
            "expect(true).toBe(true), String(add)",
            "test.should.equal(test)",
            "this.hook.should.eql(this.hook)",
            "(0).should.equal(0, \"runs\")",
            "(0).should.not.equal(1)",
            "expect(1).not.toBe(2)",
            // A literal against another it never equals checks nothing either: it cannot
            // tell a right result from a wrong one, and where it never runs or its failure
            // is expected (`(() => { (0).should.equal(1) }).should.throw()`, a closure never
            // called) it passes (helper-72's attack on a rule that read it as a check).
            "(0).should.equal(1, \"skipped\")",
            "(true).should.equal(false)",
            "expect(0).to.equal(1, \"skipped\")",
            "expect(1).toBe(2)",
            "expect(010).to.equal(8)",
        ] {
            assert!(trivial(Language::JavaScript, code), "{code}");
        }
        for code in [
            // The expected value first, the value checked in the matcher.
            "expect(\"shown\").to.not.equal(this.hiddenFromSibling)",
            "expect(true).toBe(isValid(x))",
            "expect(1).to.equal(add(0, 1), \"m\")",
            "test.should.equal(other)",
            "test.should.not.equal(test)",
            "(0).should.equal(count)",
            "app.set('title').should.equal('My App')",
            "f(1).should.equal(2)",
            // A BigInt zero is false: the check is `isValid(x)`.
            "assert.ok(0n || isValid(x))",
        ] {
            assert!(!trivial(Language::JavaScript, code), "{code}");
        }
    }

    #[test]
    fn trivial_assertions() {
        for (language, code) in [
            (Language::Python, "assert True"),
            (Language::Python, "assert 1"),
            (Language::JavaScript, "assert.ok(1n || isValid(x))"),
            (Language::Python, "assert (x == 1, \"m\")"),
            (Language::Python, "assert x == x"),
            (Language::Python, "assert not False, 'never'"),
            (Language::Python, "assert {x == 1}"),
            (Language::Python, "assert [x == 1]"),
            (Language::Python, "assert {\"k\": x == 1}"),
            (Language::Python, "assert x == 1 or ..."),
            (Language::Python, "assert compute() == mock.ANY"),
            (Language::Python, "assert compute() == 3 if False else True"),
            (Language::Python, "assert True if compute() else 1"),
            (Language::Python, "assert 3 > 2"),
            (Language::Python, "assert 2 + 1 == 3"),
            // Whether or not it holds (helper-72: `10000000000000001 > 10000000000000000`
            // holds in Python, not in floating point).
            (Language::Python, "assert 0 == 1"),
            (
                Language::Python,
                "assert 10000000000000001 > 10000000000000000",
            ),
            (Language::Rust, "assert!(1 != 1)"),
            (Language::Java, "assertTrue(010 == 8)"),
            (Language::Python, "self.assertTrue(3 > 2)"),
            (Language::Python, "self.assertEqual(compute(), mock.ANY)"),
            (Language::Python, "self.assertEqual(ANY, compute())"),
            (Language::Python, "assert lambda: compute() == 3"),
            (Language::Python, "self.assertTrue(lambda: compute() == 3)"),
            (Language::Python, "assert (compute() == 3 for _ in [0])"),
            (Language::Python, "self.assertTrue(True)"),
            (Language::Python, "self.assertEqual(a.b, a.b)"),
            (Language::Rust, "assert!(true)"),
            (Language::Rust, "assert_eq!(x, x)"),
            (Language::Rust, "assert!(v.len() == v.len(), \"m\")"),
            (Language::Java, "assertTrue(true)"),
            (Language::Java, "assertTrue(\"m\", true)"),
            (Language::Java, "assertEquals(1, 1)"),
            // Arithmetic of numbers alone has a fixed value (mocha's c04c1d73b309).
            (Language::JavaScript, "expect(1 + 1).to.equal(2)"),
            (Language::JavaScript, "expect(-(2 * 3)).toBe(-6)"),
            (Language::Java, "assertFalse(false)"),
            (Language::Java, "assert true;"),
            (Language::JavaScript, "expect(true).toBe(true)"),
            (Language::JavaScript, "expect(1).toBe(2)"),
            (Language::JavaScript, "expect(x).toEqual(x)"),
            (Language::JavaScript, "assert(true)"),
            (Language::Go, "assert.True(t, true)"),
            (Language::Go, "Expect(true).To(BeTrue())"),
            (Language::Rust, "assert!(add(2, 3) == 5 || true)"),
            (Language::Rust, "assert!(!ready() || true, \"m\")"),
            (Language::Python, "assert add(1, 2) == 3 or True"),
            (Language::Rust, "assert!(cfg!(test))"),
        ] {
            assert!(trivial(language, code), "{code}");
        }
        for (language, code) in [
            (Language::Python, "assert x"),
            (Language::Python, "assert x == 1"),
            (Language::Python, "assert (x == 1)"),
            (Language::Python, "assert f(\"a\") == f(\"b\")"),
            (Language::Python, "assert x is not x"),
            (Language::Python, "assert {}"),
            (Language::Python, "assert compute() != mock.ANY"),
            (Language::Python, "assert x if y else z"),
            (Language::Python, "assert True if y else x"),
            (Language::Python, "assert x > 2"),
            (Language::Python, "assert len(x) == 3"),
            (Language::Python, "assert (x == 3)"),
            (Language::Python, "assert [] == x"),
            (Language::Python, "assert x[0] == 1"),
            (Language::Rust, "assert!(false)"),
            (Language::Rust, "assert_ne!(x, x)"),
            (Language::Rust, "assert_eq!(\"a\", \"b\")"),
            (Language::Rust, "assert_eq!(add(1, 2), 3)"),
            (Language::Java, "assertEquals(expected, actual)"),
            (Language::Java, "assertThrows(X.class, () -> f())"),
            (Language::JavaScript, "expect(render()).toBe(true)"),
            (Language::JavaScript, "expect(x).not.toBe(x)"),
            (Language::JavaScript, "expect(x).toBe(y)"),
            (Language::JavaScript, "expect(n + 1).toBe(2)"),
            (Language::JavaScript, "expect(1 + f()).toBe(2)"),
            // supertest: `.expect(…)` states the response it checks for.
            (Language::JavaScript, "request(app).get(\"/\").expect(200)"),
            (Language::JavaScript, "agent.get(\"/\").expect(\"hello\")"),
            (
                Language::Java,
                "assertEquals(new Point(1, 2), new Point(1, 2))",
            ),
            (Language::Go, "assert.Equal(t, want, got)"),
            (
                Language::Java,
                "MoreAsserts.assertEqualsAndHashCode(JsonNull.create(), JsonNull.create())",
            ),
            (Language::Rust, "assert_eq!(Point::new(1), Point::new(1))"),
            (Language::Rust, "assert!(a || b)"),
            (Language::Rust, "assert!(opt.or(Some(true)).is_some())"),
            (Language::Python, "assert x or y"),
            (Language::Rust, "assert!(cfg!(unix))"),
        ] {
            assert!(!trivial(language, code), "{code}");
        }
    }

    /// A check of a boolean's kind, and an array or arithmetic of numbers alone, check
    /// nothing; a check of another value's kind does.
    #[test]
    fn kinds_of_a_boolean() {
        for (language, code) in [
            (Language::Python, "assert (r == 4) is not None"),
            (Language::Python, "assert (r == 4) != None"),
            (Language::Python, "assert (r == 4) in (True, False)"),
            (Language::Python, "assert (not r) in [False, True]"),
            (Language::Python, "assert isinstance(r == 4, bool)"),
            (Language::Python, "assert type(r == 4) is bool"),
            (Language::Python, "assert r in (4, r)"),
            (Language::Python, "self.assertTrue((r == 4) is not None)"),
            (
                Language::JavaScript,
                "assert.ok((1 + 1 === 3) !== undefined)",
            ),
            (
                Language::JavaScript,
                "assert.ok(typeof (1 + 1 === 3) === \"boolean\")",
            ),
            (Language::JavaScript, "assert.ok(typeof x)"),
            (Language::JavaScript, "assert.ok([1 + 1 === 3])"),
            (Language::JavaScript, "assert.ok(1 + 1)"),
            (Language::JavaScript, "assert(1 + 1, 3)"),
            (Language::Java, "assertTrue((r == 4) != null)"),
            (
                Language::Python,
                "assert all(add(x, 1) == x + 2 for x in [])",
            ),
            (Language::Python, "assert all([add(x, 1) == 3 for x in ()])"),
            (Language::Python, "assert all([])"),
            (
                Language::Python,
                "self.assertTrue(all(f(x) for x in range(0)))",
            ),
            (
                Language::Python,
                "assert ((((((((((((((((((((((((((((((((((r == 4)))))))))))))))))))))))))))))))))) is not None",
            ),
        ] {
            assert!(trivial(language, code), "{code}");
        }
        for (language, code) in [
            (Language::Python, "assert r is not None"),
            (Language::Python, "assert r.value() is not None"),
            (Language::Python, "assert (a and b) is not None"),
            (Language::Python, "assert r in (4, 5)"),
            (Language::Python, "assert r not in (4, r)"),
            (Language::Python, "assert flag in (True, False)"),
            (Language::Python, "assert isinstance(r, bool)"),
            (Language::Python, "assert type(r) is bool"),
            (Language::Python, "assert r in xs"),
            (Language::JavaScript, "assert.ok(typeof x === \"string\")"),
            (
                Language::JavaScript,
                "assert.ok(find(x === 4) !== undefined)",
            ),
            (Language::JavaScript, "assert.ok(x !== undefined)"),
            (Language::Java, "assertTrue(map.get(k) != null)"),
            (
                Language::JavaScript,
                "assert.ok(cache.get<number>(\"k\") !== undefined)",
            ),
            (
                Language::Java,
                "assertTrue(cache.<Integer>get(\"k\") != null)",
            ),
            (
                Language::Python,
                "assert all(add(x, 1) == x + 2 for x in range(3))",
            ),
            (Language::Python, "assert all(x for x in xs if x)"),
            (Language::Python, "assert all(results)"),
        ] {
            assert!(!trivial(language, code), "{code}");
        }
    }

    /// A boolean's kind checked through unittest, node's `assert` or a matcher, its other
    /// kinds and bounds, and values never empty (the eleventh attacker's B2-B10).
    #[test]
    fn kinds_of_a_boolean_written_other_ways() {
        for (language, code) in [
            (Language::Python, "self.assertIsInstance(r == 4, bool)"),
            (Language::Python, "self.assertIn(r == 4, (True, False))"),
            (Language::Python, "self.assertIsNotNone(r == 4)"),
            (Language::Python, "assert isinstance(r == 4, (bool,))"),
            (Language::Python, "assert isinstance(r == 4, int)"),
            (Language::Python, "assert (r == 4) >= False"),
            (Language::Python, "assert (r == 4) <= True"),
            (Language::Python, "assert str(r == 4)"),
            (Language::Python, "assert repr(r)"),
            (
                Language::JavaScript,
                "assert.strictEqual(typeof (r === 3), \"boolean\")",
            ),
            (
                Language::JavaScript,
                "assert.notStrictEqual(r === 3, undefined)",
            ),
            (Language::JavaScript, "expect(r === 3).to.be.a(\"boolean\")"),
            (Language::JavaScript, "expect(r === 3).to.exist"),
            (Language::JavaScript, "expect(r === 3).not.to.be.undefined"),
            (Language::JavaScript, "expect(r === 3).toBeDefined()"),
            (Language::JavaScript, "assert.ok(String(r === 3))"),
            (Language::JavaScript, "assert.ok({ s: r === 3 })"),
            // The thirteenth attacker's B15-B19.
            (
                Language::Python,
                "self.assertIsInstance(r == 4, numbers.Number)",
            ),
            (Language::Python, "self.assertNotIsInstance(r == 4, str)"),
            (
                Language::JavaScript,
                "expect(r === 4).not.to.be.a(\"string\")",
            ),
            (
                Language::JavaScript,
                "expect(r === 4).toEqual(expect.any(Boolean))",
            ),
            (
                Language::JavaScript,
                "expect(r === 4).to.be.oneOf([true, false])",
            ),
        ] {
            assert!(trivial(language, code), "{code}");
        }
        for (language, code) in [
            (Language::Python, "self.assertIsInstance(r, bool)"),
            (Language::Python, "self.assertIsInstance(r == 4, str)"),
            (Language::Python, "self.assertIn(r, (True, False))"),
            (Language::Python, "self.assertIsNotNone(r)"),
            (Language::Python, "assert isinstance(r == 4, (str, bytes))"),
            (Language::Python, "assert r >= False"),
            (Language::Python, "assert (r == 4) >= True"),
            (Language::Python, "assert str(r)"),
            (
                Language::JavaScript,
                "assert.strictEqual(typeof r, \"boolean\")",
            ),
            (Language::JavaScript, "assert.notStrictEqual(r, undefined)"),
            (
                Language::JavaScript,
                "assert.notStrictEqual(r === 3, false)",
            ),
            (Language::JavaScript, "expect(r).to.be.a(\"boolean\")"),
            (Language::JavaScript, "expect(r === 3).to.be.true"),
            (
                Language::JavaScript,
                "expect(r === 3).to.be.a(\"boolean\").and.equal(true)",
            ),
            (Language::JavaScript, "expect(r === 3).toBe(true)"),
            (Language::JavaScript, "expect(r === 3).to.be.undefined"),
            (Language::JavaScript, "assert.ok(String(r))"),
            (Language::JavaScript, "expect(r === 4).toEqual(true)"),
            (Language::JavaScript, "expect(r === 4).to.be.oneOf([true])"),
            (Language::Python, "self.assertNotIsInstance(r, str)"),
        ] {
            assert!(!trivial(language, code), "{code}");
        }
    }

    #[test]
    fn code_that_never_runs() {
        let never = |code: &str, opener: u8| if_false(&tokens(code), opener).is_some();
        for (code, opener) in [
            ("if false && add(1, 2) != 3 {", b'{'),
            ("if (false) {", b'{'),
            ("while False:", b':'),
            ("while (false) {", b'{'),
            ("for _ in []:", b':'),
            ("for x in ():", b':'),
            ("if !cfg!(test) {", b'{'),
            ("if not True and x:", b':'),
        ] {
            assert!(never(code, opener), "{code}");
        }
        for (code, opener) in [
            ("if a || false && b {", b'{'),
            ("if x:", b':'),
            ("while running {", b'{'),
            ("for x in items:", b':'),
            ("if cfg!(unix) {", b'{'),
        ] {
            assert!(!never(code, opener), "{code}");
        }
        assert!(is_exit(&tokens("if cfg!(test) { return; }")));
        assert!(opens_an_exit(b"if cfg!(test) {", Some(b"    return;")));
        assert!(opens_an_exit(b"if True:", Some(b"    return")));
        assert!(!opens_an_exit(b"if ready {", Some(b"    return;")));
        assert!(!opens_an_exit(b"if true {", Some(b"    x += 1;")));
        assert!(!opens_an_exit(b"if true {", None));
        assert!(!is_exit(&tokens("if cfg!(windows) { return; }")));
    }

    /// Whether some assertion of `code` only checks that a value exists.
    fn existence(language: Language, code: &str) -> bool {
        let tokens = tokens(code);
        let table = match language {
            Language::Python => &crate::tamper::python::TABLE,
            Language::JavaScript => &crate::tamper::javascript::TABLE,
            Language::Java => &crate::tamper::jvm::JAVA,
            Language::Rust => &crate::tamper::rust::TABLE,
            _ => &crate::tamper::go::TABLE,
        };
        let mut found = false;
        pattern::for_each_match(table.assertions, &tokens, false, |start, end| {
            found |= is_existence(language, &tokens, start, end);
        });
        found
    }

    #[test]
    fn boolean_checks() {
        let boolean = |code: &str| {
            let mut tokens = Vec::new();
            pattern::tokenize(code.as_bytes(), &mut tokens);
            let mut found = false;
            pattern::for_each_match(
                crate::tamper::python::TABLE.assertions,
                &tokens,
                false,
                |start, end| found |= is_boolean_check(Language::Python, &tokens, start, end),
            );
            found
        };
        for code in [
            "assert x is True",
            "assert x == True",
            "assert (x.ready is True)",
            "assert True == x",
            "self.assertIs(x, True)",
            "self.assertEqual(True, x.ready, \"m\")",
        ] {
            assert!(boolean(code), "{code}");
        }
        for code in [
            "assert x",
            "assert x is not True",
            "assert x is False",
            "assert x == 3",
            // A boolean whatever it holds: its truthiness (attack-57 T3, U3).
            "assert callable(h) is True",
            "assert bool(f(5)) is True",
            "self.assertIs(bool(f(5)), True)",
            "self.assertTrue(x)",
        ] {
            assert!(!boolean(code), "{code}");
        }
    }

    #[test]
    fn existence_checks() {
        for (language, code) in [
            (Language::Python, "assert rv.data"),
            (Language::Python, "assert app.config[\"KEY\"]"),
            (Language::Python, "assert x is not None"),
            (Language::Python, "assert x == True"),
            (Language::Python, "assert has_request_context()"),
            (Language::Python, "self.assertTrue(flask.session.modified)"),
            (Language::Python, "self.assertIsNotNone(x)"),
            (Language::Python, "self.assertTrue(has_request_context())"),
            (Language::JavaScript, "expect(x).toBeDefined()"),
            (Language::JavaScript, "expect(x).not.toBeNull()"),
            (Language::JavaScript, "should.exist(err)"),
            (Language::Python, "self.assertTrue(log, \"\")"),
            (
                Language::Python,
                "self.assertEqual(app.config[\"KEY\"], True)",
            ),
            (Language::Python, "self.assert_equal(True, x.ready)"),
            (Language::Python, "self.assertIsNot(x, None)"),
            (Language::Python, "self.assertIs(not x, False)"),
            (Language::Python, "self.assertTrue(x, f\"\")"),
            (Language::Python, "self.assertTrue(x, expected)"),
            (Language::Python, "self.assertNotEqual((x), (None))"),
            (Language::Python, "assert (x) != (None)"),
            (Language::Python, "assert (None) is not (x)"),
            (Language::Python, "assert (x is None) is False"),
            (Language::Python, "assert x not in (None,)"),
            (Language::Python, "assert x not in [None, False]"),
            (Language::Python, "assert (x is None) == False"),
            (Language::Python, "assert False is (x is None)"),
            (Language::Python, "assert (x != None) == True"),
            // One normal form: the constant first, `!=`, negations, brackets.
            (Language::Python, "assert x != None"),
            (Language::Python, "assert None is not x"),
            (Language::Python, "assert None != x.y"),
            (Language::Python, "assert True == x"),
            (Language::Python, "assert not x is None"),
            (Language::Python, "assert not (x == None)"),
            (Language::Python, "assert not not x"),
            (Language::Python, "assert (x is not None), \"m\""),
            (Language::Python, "assert x is not False"),
            // A boolean whatever it holds, compared with `True` (attack-57 T3, U3).
            (Language::Python, "assert bool(x) is True"),
            (Language::Python, "self.assertIs(callable(x), True)"),
            (Language::Python, "self.assertFalse(x is None)"),
            (Language::Python, "self.assertFalse(None == x, \"\")"),
            (Language::Python, "self.assertFalse(not x)"),
            (Language::Python, "self.assertTrue(x != None)"),
            (Language::Python, "self.assertNotEqual(x, False)"),
            (Language::Python, "self.assertIsNot(False, x)"),
            (Language::Python, "self.assertEqual(x is None, False)"),
            (Language::Java, "assertNotNull(x)"),
            (Language::Java, "assertThat(Calc.add(1, 2)).isNotNull();"),
            (Language::Java, "assertThat(result).isNotNull()"),
            (Language::Python, "assert x is not None and add(1, 2)"),
            (
                Language::Python,
                "assert (add(1, 2) and True and add(1, 2))",
            ),
            (Language::Java, "assertTrue(found)"),
            (Language::Java, "assertTrue(map.containsKey(\"a\"))"),
            (
                Language::Java,
                "assertTrue(\"\", handlers.hasAnyHandlerFor(type))",
            ),
            (Language::Java, "assertTrue(path.toFile().exists())"),
            (Language::Rust, "assert!(x.is_some());"),
            (Language::Go, "assert.NotNil(t, x)"),
        ] {
            assert!(existence(language, code), "{code}");
        }
    }

    #[test]
    fn checks_of_their_own() {
        for (language, code) in [
            (Language::Python, "assert False, \"unreachable\""),
            (Language::Python, "assert x == 3"),
            (Language::Python, "assert \"a\" in x"),
            (Language::Python, "assert not x"),
            (Language::Python, "self.assertEqual(x, 3)"),
            (Language::Python, "self.assertEqual(x == y, True)"),
            (Language::Python, "self.assertEqual(x, False)"),
            (Language::Python, "self.assertIsNot(x, y)"),
            (Language::Python, "assert x is None"),
            (Language::Python, "assert x is False"),
            // One value, `True`, passes: an exact check (attack-57 T1, U1).
            (Language::Python, "assert x is True"),
            (Language::Python, "self.assertIs(x, True, \"\")"),
            (Language::Python, "assert (x is None) is True"),
            (Language::Python, "assert (x == 3) is True"),
            (Language::Python, "assert x not in (1, 2)"),
            (Language::Python, "assert x not in y"),
            (Language::Python, "assert e.errisinstance(BadRequest)"),
            (Language::Python, "assert math.isclose(compute(), 3)"),
            (Language::Python, "assert re.fullmatch(\"3\", str(x))"),
            (Language::Python, "assert all(r == 3 for r in rs)"),
            (Language::Python, "assert (lambda v: v == 3)(compute())"),
            (Language::Python, "assert isinstance(x, int)"),
            (
                Language::Python,
                "assert issubclass(excinfo.type, ImportError)",
            ),
            (Language::Python, "self.assertTrue(isinstance(x, int))"),
            (Language::Python, "assert x == None"),
            (Language::Python, "assert not x is not None"),
            (Language::Python, "assert x != False == y"),
            (Language::Python, "assert None is not None"),
            (Language::Python, "assert x == False"),
            (Language::Python, "self.assertFalse(x)"),
            (Language::Python, "self.assertFalse(x is not None)"),
            (Language::Python, "self.assertFalse(x == 3)"),
            (Language::Python, "self.assertTrue(x is None)"),
            (Language::Python, "assert x is not None and add(1, 2) == 4"),
            (Language::Python, "assert x and y == 3"),
            (Language::Python, "assert True and True"),
            (
                Language::Java,
                "assertThat(Calc.add(1, 2)).isNotNull().isEqualTo(3);",
            ),
            (Language::JavaScript, "assert(x === 3)"),
            (Language::JavaScript, "assert.equal(x, 3)"),
            (Language::JavaScript, "expect(x).toBe(3)"),
            (Language::Java, "assertEquals(3, x)"),
            (Language::Java, "assertTrue(json.contains(\"x\"))"),
            (Language::Java, "assertTrue(a.equals(b))"),
            (Language::Java, "assertTrue(array.has(a))"),
            (
                Language::Java,
                "assertTrue(map.containsKey(\"a\") && map.get(\"a\") == 3)",
            ),
            (Language::JavaScript, "assert(false)"),
            (Language::JavaScript, "assert.ok(!app.enabled(\"x\"))"),
            // Truthiness in JavaScript: the styles switch between these.
            (Language::JavaScript, "assert.ok(req.called)"),
            (Language::JavaScript, "req.accepts(\"html\").should.be.true"),
            (Language::Python, "self.assert_(not rv.data)"),
            (Language::Rust, "assert_eq!(x, Some(3));"),
        ] {
            assert!(!existence(language, code), "{code}");
        }
    }

    #[test]
    fn cfg_predicates() {
        let value = |code: &str| cfg_value(&tokens(code));
        assert_eq!(value("test"), Some(true));
        assert_eq!(value("not(test)"), Some(false));
        assert_eq!(value("any()"), Some(false));
        assert_eq!(value("all()"), Some(true));
        assert_eq!(value("all(test, any())"), Some(false));
        assert_eq!(value("all(test, unix)"), None);
        assert_eq!(value("any(test, unix)"), Some(true));
        assert_eq!(value("feature = \"x\""), None);
        assert_eq!(value("not(unix)"), None);
        // Names nothing sets under `cargo test`.
        assert_eq!(value("tests"), Some(false));
        assert_eq!(value("all(test, never)"), Some(false));
        assert_eq!(value("any(test, never)"), Some(true));
        assert_eq!(value("not(tests)"), Some(true));
        assert_eq!(value("all(test, debug_assertions)"), None);
    }

    #[test]
    fn triggers() {
        let of = |language, code: &str| trigger(language, &tokens(code));
        assert_eq!(of(Language::Rust, "#[cfg(not(test))]"), Some(Trigger::Item));
        assert_eq!(of(Language::Rust, "#[cfg(test)]"), None);
        assert_eq!(of(Language::Rust, "#[cfg(unix)]"), None);
        assert_eq!(of(Language::Rust, "#![cfg(any())]"), Some(Trigger::Whole));
        assert_eq!(of(Language::Python, "if False:"), Some(Trigger::Block));
        assert_eq!(of(Language::Python, "if x:"), None);
        assert_eq!(
            of(Language::Python, "__test__ = False"),
            Some(Trigger::Class)
        );
        assert_eq!(
            of(Language::JavaScript, "if (false) {"),
            Some(Trigger::Block)
        );
        assert!(is_exit(&tokens("return")));
        assert!(is_exit(&tokens("if (true) return;")));
        assert!(is_exit(&tokens("if True: return")));
        assert!(!is_exit(&tokens("if (x) return;")));
    }
}
