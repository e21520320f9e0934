//! Where a check stands: whether a check added on a line runs in a test and its failure
//! fails that test. A copy of a removed check moves it only there (attack-43, attack-44:
//! copies "moved" under `pytest.raises`, after a `return` or a `continue`, into a skipped
//! suite, into a test nested in a helper).
//!
//! Read from the side's lines with the lexer's state at the start of each line, so that a
//! docstring's or a comment's words are not code. Up from the check: the blocks around it
//! up to the test's head, then the test's marks and the suites and classes around it. Down
//! from the test's head to the check: the statements before it that may end the test (a
//! `return` or a skip not inside a nested function, a `continue` or `break` of a loop
//! around the check, mocha's `done()`).

use super::lex::{self, State};
use super::pattern::{self, Token};
use super::{Context, Language, Mark, Table, classify, indentation};

/// How far up [`runs_in_a_test`] looks for the test around a line.
const MAX_TEST_WALK: usize = 400;

/// The state the lexer is in at the start of each of `lines`.
pub(super) fn line_states(table: &Table, lines: &[&[u8]]) -> Vec<State> {
    let mut states = Vec::with_capacity(lines.len());
    let mut state = State::Code;
    for line in lines {
        states.push(state);
        state = lex::advance(&table.syntax, state, line);
    }
    states
}

/// One line's code, read in its lexer state.
struct Read<'l> {
    tokens: Vec<Token<'l>>,
    /// Its names, lowercase.
    words: Vec<Vec<u8>>,
    /// It holds a test for [`classify`].
    test: bool,
    /// It holds a check (an assertion for [`classify`]).
    check: bool,
}

fn read<'c>(
    table: &Table,
    context: &Context<'_>,
    text: &[u8],
    state: State,
    line: &[u8],
    code: &'c mut Vec<u8>,
) -> Option<Read<'c>> {
    let found = classify(table, context, text, state, line, code, (Mark::Live, 0));
    if code.trim_ascii().is_empty() {
        return None;
    }
    let mut tokens = Vec::new();
    pattern::tokenize(code, &mut tokens);
    // A line that is only strings (a docstring, its last line) says nothing.
    if tokens
        .iter()
        .all(|token| matches!(token, Token::Str | Token::Punct(b';')))
    {
        return None;
    }
    let words = tokens
        .iter()
        .filter_map(|token| match token {
            Token::Ident(word) => Some(word.to_ascii_lowercase()),
            _ => None,
        })
        .collect();
    Some(Read {
        tokens,
        words,
        test: found.counts.tests > 0,
        check: found.counts.assertions > 0,
    })
}

impl Read<'_> {
    fn has(&self, wanted: &[&str]) -> bool {
        self.words
            .iter()
            .any(|word| wanted.iter().any(|w| word == w.as_bytes()))
    }
}

/// Words (lowercase, whole) that mark a test or a suite skipped or disabled.
const SKIP_WORDS: &[&str] = &[
    "skip",
    "skipif",
    "skipunless",
    "skiptest",
    "xfail",
    "xit",
    "xtest",
    "xdescribe",
    "xcontext",
    "todo",
    "ignore",
    "disabled",
    "pending",
    "expectedfailure",
    "only",
];

/// A call of a skip or an exit at the top level of a statement (`pytest.skip(…)`,
/// `this.skip()`, `t.Skip()`, `sys.exit(…)`, mocha's `done()`): one named inside brackets is
/// an argument (`pytest.raises(pytest.skip.Exception)`).
fn ends_the_test(tokens: &[Token<'_>]) -> bool {
    let mut depth = 0i32;
    tokens.iter().enumerate().any(|(i, token)| {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth -= 1,
            Token::Ident(word) if depth <= 0 => {
                let called = tokens.get(i + 1) == Some(&Token::Punct(b'('));
                let word = word.to_ascii_lowercase();
                return matches!(word.as_slice(), b"return" | b"raise" | b"throw" | b"yield")
                    || (called
                        && (SKIP_WORDS.iter().any(|skip| word == skip.as_bytes())
                            || matches!(
                                word.as_slice(),
                                b"exit" | b"_exit" | b"done" | b"skipnow" | b"fail"
                            )
                            || word.starts_with(b"assume")));
            }
            _ => {}
        }
        false
    })
}

/// A side of a file, read for where its checks stand.
pub(super) struct Source<'w, 'c> {
    pub table: &'w Table,
    pub context: &'w Context<'c>,
    /// The whole text of the side.
    pub text: &'w [u8],
    pub lines: &'w [&'w [u8]],
    /// The lexer's state at the start of each line ([`line_states`]).
    pub states: &'w [State],
}

impl Source<'_, '_> {
    /// Line `i`'s code, read in its state; `None` when it holds none.
    fn read<'c>(&self, i: usize, code: &'c mut Vec<u8>) -> Option<Read<'c>> {
        read(
            self.table,
            self.context,
            self.text,
            self.states[i],
            self.lines[i],
            code,
        )
    }
}

/// Whether a block head opens a nested function, lambda, closure or class: what ends it
/// ends no test.
fn opens_a_function(read: &Read<'_>) -> bool {
    read.has(&["def", "lambda", "function", "fn", "func", "class"])
        || read
            .tokens
            .windows(2)
            .any(|pair| pair == [Token::Punct(b'='), Token::Punct(b'>')])
        || read.tokens.contains(&Token::Punct(b'|'))
}

/// Whether the check on line `index` of `lines` (a side of a file in `table`'s language,
/// its lexer `states` from [`line_states`], whole text `text`) stands where it runs and its
/// failure fails a test: in the body of a test (found by [`classify`]); inside no block
/// that may not run it or that swallows its failure (`if`, `try`, `with
/// pytest.raises(…)`, a context manager the file defines, a callback such as `expect(() =>
/// …)` or `forEach(…)`, a nested function, a loop over nothing); after no statement of the
/// test that may end it first (`return`, `raise`, a skip, `done()`, outside a nested
/// function; `continue` or `break` of a loop around it); in no test or suite marked
/// skipped, nor one under a condition or inside a function. Blocks that run what they hold
/// (Python's `with`, a `for` loop over something, a suite) may enclose it.
pub(super) fn runs_in_a_test(side: &Source<'_, '_>, index: usize) -> Option<usize> {
    let head = test_around(side, index, true)?;
    let mut code = Vec::new();
    let read = side.read(head, &mut code)?;
    // Marked skipped on its own line, or made a generator (`function* ()`: mocha runs
    // nothing of it).
    let generator = read
        .tokens
        .windows(2)
        .any(|pair| pair == [Token::Ident(b"function"), Token::Punct(b'*')]);
    if read.has(SKIP_WORDS) || generator {
        return None;
    }
    let names: Vec<Vec<u8>> = side
        .read(index, &mut Vec::new())
        .map(|read| values_read(&read.tokens))
        .unwrap_or_default();
    (test_runs(side, head) && nothing_ends_it_before(side, head, index, &names)).then_some(head)
}

/// Words that name no value a check reads.
const NOT_VALUES: &[&[u8]] = &[
    b"assert",
    b"not",
    b"is",
    b"in",
    b"and",
    b"or",
    b"none",
    b"true",
    b"false",
    b"null",
    b"undefined",
    b"await",
    b"new",
    b"typeof",
    b"instanceof",
    b"void",
];

/// The names whose values a check reads (lowercase): the identifiers at the root of its
/// expressions (`r` of `r.total`, `self` of `self.value`), not a function it calls
/// (`expect(`, `len(`), an attribute after a `.` or a literal.
fn values_read(tokens: &[Token<'_>]) -> Vec<Vec<u8>> {
    let mut names: Vec<Vec<u8>> = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let Token::Ident(word) = token else { continue };
        let after_dot = i > 0 && tokens[i - 1] == Token::Punct(b'.');
        let called = tokens.get(i + 1) == Some(&Token::Punct(b'('));
        let lower = word.to_ascii_lowercase();
        if after_dot
            || called
            || asserts_on(&tokens[i + 1..])
            || word.first().is_some_and(u8::is_ascii_digit)
            || NOT_VALUES.contains(&lower.as_slice())
            || names.contains(&lower)
        {
            continue;
        }
        names.push(lower);
    }
    names
}

/// Whether the line (its `read`) leaves the values of `names` as they were, the names the
/// copy reads and those given a value read from them (`size = r.size`: what changes
/// `size` may change `r`, so `size` is watched from there on, and added to `names`).
///
/// A watched name is touched where it is bound a second time (`r = other()`, `_, r = r,
/// x`; each binding is counted in `bound`), where a method is called on it or it is
/// assigned to in any form (`r.append(2)`, `r["total"] = 4`, `r.total = 4`, `r ^= 7`, `r
/// := x`, `r++`, [`may_change`]; in a check too: `assert r.pop()`), and where it is passed
/// to a call outside a check (`adjust(r)`), since the call may change it (attack-46
/// B1-B7). Lines of nested functions count too: a function defined above may run.
fn leaves_alone(read: &Read<'_>, names: &mut Vec<Vec<u8>>, bound: &mut Vec<usize>) -> bool {
    let tokens = &read.tokens;
    let (targets, equals) = assigned_names(tokens);
    let mut reads_watched = false;
    // The brackets open at each token: whether each is a call's (`f(`, `x.m(`).
    let mut open: Vec<bool> = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => {
                let call = *token == Token::Punct(b'(')
                    && matches!(
                        i.checked_sub(1).map(|at| tokens[at]),
                        Some(Token::Ident(_) | Token::Punct(b')' | b']'))
                    );
                open.push(call);
                continue;
            }
            Token::Punct(b')' | b']' | b'}') => {
                open.pop();
                continue;
            }
            _ => {}
        }
        let Token::Ident(word) = token else { continue };
        if i > 0 && tokens[i - 1] == Token::Punct(b'.') {
            continue;
        }
        let Some(at) = names
            .iter()
            .position(|name| name.eq_ignore_ascii_case(word))
        else {
            continue;
        };
        // A target, or a name inside one (`[r] = …`, `(r, x) = …`): bound.
        if (open.is_empty() && targets.contains(&i)) || equals.is_some_and(|equals| i < equals) {
            bound[at] += 1;
            if bound[at] > 1 {
                return false;
            }
            continue;
        }
        if read.check && asserts_on(&tokens[i + 1..]) {
            continue;
        }
        if may_change(&tokens[i + 1..]) || (!read.check && open.iter().any(|&call| call)) {
            return false;
        }
        reads_watched = true;
    }
    if reads_watched && !read.check {
        for &at in &targets {
            if let Token::Ident(word) = tokens[at] {
                let word = word.to_ascii_lowercase();
                if !names.contains(&word) {
                    names.push(word);
                    bound.push(1);
                }
            }
        }
    }
    true
}

/// The tokens of the names a statement assigns at its top level: `r = …`, `const r = …`,
/// `Integer r = …`, `r: int = …`, `a, b = …`, `for r in …`, `… as r`; not `r == x`, `r.x =
/// …` (an attribute: the name is changed, not bound) or a name inside brackets. Also the
/// index of the top-level `=`, whose left side may bind names otherwise (`[r] = …`).
fn assigned_names(tokens: &[Token<'_>]) -> (Vec<usize>, Option<usize>) {
    let mut names = Vec::new();
    let mut depth = 0i32;
    let mut equals = None;
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth -= 1,
            Token::Punct(b'=') if depth == 0 => {
                let before = i.checked_sub(1).map(|at| tokens[at]);
                let after = tokens.get(i + 1);
                let compares = matches!(before, Some(Token::Punct(b'=' | b'!' | b'<' | b'>')))
                    || matches!(after, Some(Token::Punct(b'=' | b'>')));
                if !compares {
                    equals = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    if let Some(equals) = equals {
        // The targets: names at the top level before the `=`, each followed by `,`, `:`
        // (a type), `=` or the type's end, and not after a `.`.
        let mut depth = 0i32;
        for i in 0..equals {
            match tokens[i] {
                Token::Punct(b'(' | b'[' | b'{' | b'<') => depth += 1,
                Token::Punct(b')' | b']' | b'}' | b'>') => depth -= 1,
                Token::Ident(_) if depth <= 0 => {
                    let after_dot = i > 0 && tokens[i - 1] == Token::Punct(b'.');
                    let next = tokens.get(i + 1);
                    let target = matches!(next, Some(Token::Punct(b',' | b'=' | b':')));
                    if !after_dot && target {
                        names.push(i);
                    }
                }
                _ => {}
            }
        }
    }
    for (i, pair) in tokens.windows(2).enumerate() {
        match pair {
            [Token::Ident(b"as"), Token::Ident(_)] => names.push(i + 1),
            [Token::Ident(b"for"), Token::Ident(_)] => {
                if matches!(
                    tokens.get(i + 2),
                    Some(Token::Ident(b"in" | b"of") | Token::Punct(b','))
                ) {
                    names.push(i + 1);
                }
            }
            _ => {}
        }
    }
    (names, equals)
}

/// Whether what follows a name calls an assertion method on it: `self` of
/// `self.assertEqual(…)`, a test case's own checks, which change nothing.
fn asserts_on(rest: &[Token<'_>]) -> bool {
    matches!(
        rest,
        [Token::Punct(b'.'), Token::Ident(name), Token::Punct(b'('), ..] if name.starts_with(b"assert")
    )
}

/// Whether what follows a name in a check may change its value: a method called on it, an
/// assignment to it or to a part of it, an increment.
fn may_change(rest: &[Token<'_>]) -> bool {
    // `=`, `+=`, `>>=`, `**=`, `:=`, `??=`, `||=`, and `++`, `--`; not `==`, `=>`, `<=`,
    // `>=`, `!=`, `!==`.
    let assignment = |rest: &[Token<'_>]| {
        let ops: Vec<u8> = rest
            .iter()
            .map_while(|token| match token {
                Token::Punct(byte) if b"+-*/%|&^<>@:?~!".contains(byte) => Some(*byte),
                _ => None,
            })
            .collect();
        match (rest.get(ops.len()), rest.get(ops.len() + 1)) {
            (Some(Token::Punct(b'=')), next) => {
                let compares = matches!(ops.as_slice(), b"<" | b">" | b"!");
                let equality = ops.is_empty() && matches!(next, Some(Token::Punct(b'=' | b'>')));
                !compares && !equality
            }
            _ => matches!(ops.as_slice(), b"++" | b"--"),
        }
    };
    if assignment(rest) {
        return true;
    }
    // Down the name's path: `.a.b(` calls a method; `[k] =` assigns an item.
    let mut i = 0;
    while let Some(token) = rest.get(i) {
        match token {
            Token::Punct(b'.') => {
                if matches!(rest.get(i + 2), Some(Token::Punct(b'('))) {
                    return true;
                }
                i += 2;
            }
            Token::Punct(b'[') => {
                let mut depth = 0i32;
                while let Some(token) = rest.get(i) {
                    match token {
                        Token::Punct(b'[') => depth += 1,
                        Token::Punct(b']') => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => break,
        }
        if assignment(&rest[i.min(rest.len())..]) {
            return true;
        }
    }
    false
}

/// Skip words that, named at all (`Reflect.apply(this.skip, this, [])`, `s = this.skip`),
/// may skip the test later: attack-46 B8.
const SKIP_NAMES: &[&[u8]] = &[b"skip", b"skiptest", b"skipif", b"skipunless", b"xfail"];

/// The line of the head of the test whose body holds line `index`: directly (no block
/// between them: a copy in a `with`, a loop or a callback stands for none) when `direct`,
/// else through any blocks.
pub(super) fn test_around(side: &Source<'_, '_>, index: usize, direct: bool) -> Option<usize> {
    let Source {
        table,
        lines,
        states,
        ..
    } = *side;
    let (target, &state) = (lines.get(index)?, states.get(index)?);
    if state != State::Code {
        return None;
    }
    let python = table.language == Language::Python;
    let mut code = Vec::new();
    let mut bound = if python { indentation(target) } else { 0 };
    for i in (0..index).rev().take(MAX_TEST_WALK) {
        let Some(read) = side.read(i, &mut code) else {
            continue;
        };
        let opens = if python {
            let own = indentation(lines[i]);
            (own < bound).then(|| bound = own).is_some()
        } else {
            opens_around(&read.tokens, &mut bound)
        };
        if !opens {
            continue;
        }
        if read.test || declares_a_test(side, i, &read.tokens) {
            return Some(i);
        }
        if direct {
            return None;
        }
    }
    None
}

/// Whether the test whose head is on line `head` runs: no mark above it skips it, and the
/// blocks around it are suites or classes, under no condition, not skipped, with no hook
/// that skips.
fn test_runs(side: &Source<'_, '_>, head: usize) -> bool {
    let lines = side.lines;
    let python = side.table.language == Language::Python;
    let mut code = Vec::new();
    let mut bound = if python { indentation(lines[head]) } else { 0 };
    // The line below is a block's head: the marks above it are its.
    let mut marks_of_a_head = true;
    // A skip called in a block at the test's level seen below (a hook's body).
    let mut skip_below = false;
    for i in (0..head).rev().take(MAX_TEST_WALK) {
        let Some(read) = side.read(i, &mut code) else {
            continue;
        };
        let trimmed = lines[i].trim_ascii_start();
        let mark = trimmed.starts_with(b"@") || trimmed.starts_with(b"#[");
        if mark && marks_of_a_head {
            // `@pytest.mark.skip`, `#[ignore]`, `@Disabled`, and a parametrisation over
            // nothing (`@pytest.mark.parametrize("n", [])`).
            if read.has(SKIP_WORDS)
                || (read.has(&["parametrize"]) && empty_list_argument(&read.tokens))
            {
                return false;
            }
            continue;
        }
        marks_of_a_head = false;
        // Whether the line opens a block around the test, and whether it stands at the
        // test's level (a statement of the block the test is in, or a sibling's first line).
        let (opens, at_level) = if python {
            let own = indentation(lines[i]);
            (own < bound, own == bound)
        } else {
            let opens = opens_around(&read.tokens, &mut bound);
            (opens, !opens && bound == 0)
        };
        if python && opens {
            bound = indentation(lines[i]);
        }
        if at_level {
            if read.has(&["pytestmark"]) && read.has(SKIP_WORDS) {
                return false;
            }
            if skip_below && is_a_hook(&read) {
                return false;
            }
            skip_below = false;
            marks_of_a_head = true;
        } else if !opens && ends_the_test(&read.tokens) && read.has(SKIP_WORDS) {
            // Inside a sibling block (a hook's body, read before its head).
            skip_below = true;
        }
        if !opens {
            continue;
        }
        marks_of_a_head = true;
        skip_below = false;
        // A block around the test: a suite or a class, not a condition, a loop or a
        // function (a test nested in a helper is no test), nor one marked skipped.
        let around = if python {
            read.has(&[
                "def", "if", "elif", "else", "for", "while", "try", "except", "with", "lambda",
            ])
        } else {
            read.has(&[
                "if", "else", "while", "for", "try", "catch", "switch", "case",
            ])
        };
        if around || read.has(SKIP_WORDS) {
            return false;
        }
    }
    true
}

/// A hook that runs before each test of its block (`setup_method`, `setUp`, `before`,
/// `beforeEach`): a skip in it skips them.
fn is_a_hook(read: &Read<'_>) -> bool {
    read.has(&[
        "setup",
        "setup_method",
        "setup_class",
        "setup_function",
        "setup_module",
        "setupclass",
        "before",
        "beforeeach",
        "beforeall",
        "setupsuite",
        "setuptest",
    ])
}

/// A call whose last argument is an empty list or tuple (`parametrize("n", [])`).
fn empty_list_argument(tokens: &[Token<'_>]) -> bool {
    tokens.windows(3).any(|three| {
        matches!(
            three,
            [
                Token::Punct(b','),
                Token::Punct(b'[' | b'('),
                Token::Punct(b']' | b')')
            ]
        )
    })
}

/// Whether no statement of the test whose head is on line `head`, before the check on line
/// `index`, may end the test first: a `return`, `raise`, `throw`, a skip, `done()` or an
/// exit outside a nested function, or a `continue` or `break` of a loop (or labelled
/// block) still open at the check.
fn nothing_ends_it_before(
    side: &Source<'_, '_>,
    head: usize,
    index: usize,
    names: &[Vec<u8>],
) -> bool {
    let lines = side.lines;
    let mut names = names.to_vec();
    let python = side.table.language == Language::Python;
    let mut code = Vec::new();
    // The blocks open at each line: (indentation, or 0 for a bracket; it is a function's).
    // The check stands directly in the test's body (`test_around`), so a `continue` or
    // `break` before it leaves a loop that closed before it: only exits count.
    let mut open: Vec<(usize, bool)> = Vec::new();
    // How often the test binds each name the check reads: bound again before the check,
    // a name is another value than the one the removed check read (attack-45 B11).
    let mut bound: Vec<usize> = vec![0; names.len()];
    for (i, line) in lines.iter().enumerate().take(index).skip(head + 1) {
        let Some(read) = side.read(i, &mut code) else {
            continue;
        };
        if python {
            while open.last().is_some_and(|&(at, _)| at >= indentation(line)) {
                open.pop();
            }
        }
        if !leaves_alone(&read, &mut names, &mut bound)
            || read
                .words
                .iter()
                .any(|word| SKIP_NAMES.contains(&word.as_slice()))
        {
            return false;
        }
        if !open.iter().any(|&(_, function)| function) {
            // A call of a computed member (`this["skip"]()`) may be anything.
            if read
                .tokens
                .windows(2)
                .any(|pair| pair == [Token::Punct(b']'), Token::Punct(b'(')])
            {
                return false;
            }
            if ends_the_test(&read.tokens) {
                // An exit inside a function the line opens (`it(…, () => { return; })`)
                // is that function's; one at the line's start is the test's.
                let first_open = read
                    .tokens
                    .iter()
                    .position(|token| matches!(token, Token::Punct(b'{')));
                let exit_at = read.tokens.iter().position(|token| {
                    matches!(token, Token::Ident(word) if matches!(*word, b"return" | b"raise" | b"throw" | b"yield"))
                });
                let inside_a_function_it_opens = first_open.is_some_and(|open_at| {
                    exit_at.is_some_and(|exit_at| exit_at > open_at) && opens_a_function(&read)
                });
                if !inside_a_function_it_opens {
                    return false;
                }
            }
        }
        let function = opens_a_function(&read);
        if python {
            if code_ends_with_colon(&read.tokens) {
                open.push((indentation(line), function));
            }
        } else {
            for token in &read.tokens {
                match token {
                    Token::Punct(b'{' | b'(' | b'[') => open.push((0, function)),
                    Token::Punct(b'}' | b')' | b']') => {
                        open.pop();
                    }
                    _ => {}
                }
            }
        }
    }
    true
}

/// The line's code ends with `:` (a Python block's head).
fn code_ends_with_colon(tokens: &[Token<'_>]) -> bool {
    tokens.last() == Some(&Token::Punct(b':'))
}

/// Reads a line's `tokens` from its end, with `bound` brackets closed below it still to be
/// matched: whether it opens one that encloses what is below (a block's head).
fn opens_around(tokens: &[Token<'_>], bound: &mut usize) -> bool {
    let mut head = false;
    for token in tokens.iter().rev() {
        match token {
            Token::Punct(b')' | b']' | b'}') => *bound += 1,
            Token::Punct(b'(' | b'[' | b'{') => {
                if *bound == 0 {
                    head = true;
                } else {
                    *bound -= 1;
                }
            }
            _ => {}
        }
    }
    head
}

/// Whether the block head on line `i` of `lines` (its `tokens`) declares a test that
/// [`classify`] finds on an attribute above it (`@Test`, `#[test]`, over other attributes
/// such as `@DisplayName(…)`), or a `JUnit` 3 `void test…()` method.
fn declares_a_test(side: &Source<'_, '_>, i: usize, tokens: &[Token<'_>]) -> bool {
    let (table, lines) = (side.table, side.lines);
    if table.language == Language::Python {
        return false;
    }
    let mut code = Vec::new();
    for above in (0..i).rev().take(16) {
        let trimmed = lines[above].trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        if !(trimmed.starts_with(b"@") || trimmed.starts_with(b"#[")) {
            break;
        }
        if side.read(above, &mut code).is_some_and(|read| read.test) {
            return true;
        }
    }
    matches!(table.language, Language::Java | Language::Kotlin)
        && tokens.windows(2).any(|pair| {
            matches!(pair, [Token::Ident(b"void" | b"fun"), Token::Ident(name)] if name.starts_with(b"test"))
        })
}
