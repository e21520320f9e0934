//! How many times the runner runs a line: a test case is what the runner runs, so a
//! parametrized test with N literal cases is N tests, and a check in its body is N checks;
//! a check in a helper a test module defines counts where the helper is called, once per
//! call.
//!
//! - pytest: `@pytest.mark.parametrize(names, [a, b, …])` (a list or tuple literal) over a
//!   `def` or a `class` (stacked ones multiply);
//! - Jest, Vitest: `it.each([a, b, …])(…)`, `test.each`, `describe.each` with an array
//!   literal or a template table (one case per row below the header);
//! - Go: `for _, tc := range <literal>` (`[]T{…}`, `map[K]V{…}`, or a variable the file
//!   assigned such a literal with `:=`/`=` before the loop): its body runs once per entry,
//!   `t.Run` included;
//! - Python helpers: a function or method of a test module that is not a test, not
//!   decorated and not a runner hook (`setUp`, `setup_method`, `pytest_…`): its checks
//!   count once per call in the file (`check(…)`, `self.check(…)`), 0 when the file never
//!   names it, once when it only names it otherwise (passed as a callback).
//!
//! A case list that is not a literal (a variable, a comprehension, a call) or is empty
//! counts as one case, as before (pytest reports an empty parameter set as a skip, which
//! the skip patterns count). The weights of each side are compared line by line where the
//! sides' lines are the same ([`super::Analysis::walk`]): a case taken out of a table whose
//! loop body is unchanged removes the body's checks once.

use super::Language;
use super::lex::{self, State, Syntax};
use super::pattern::{self, Token};

/// How many times the runner runs what a line declares and checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Weight {
    /// Each test the line declares is this many tests.
    pub tests: u32,
    /// Each check on the line is this many checks.
    pub checks: u32,
}

impl Default for Weight {
    fn default() -> Self {
        Self {
            tests: 1,
            checks: 1,
        }
    }
}

/// The most cases one list counts: a larger literal counts this many.
const MAX_CASES: u32 = 10_000;

/// The most tokens a case list or a loop header is followed over.
const MAX_TOKENS: usize = 200_000;

/// The most lines a decorator is followed down to the `def` it decorates.
const DECORATOR_LINES: usize = 100;

/// The weights of each line of a side (`lines`, of a test module in `language`), or an
/// empty vector when every line weighs one ([`Weight::default`]).
pub(crate) fn weights(language: Language, syntax: &Syntax, lines: &[&[u8]]) -> Vec<Weight> {
    let needle: &[&[u8]] = match language {
        Language::Python => &[b"def "],
        Language::JavaScript => &[b".each"],
        Language::Go => &[b"range"],
        _ => return Vec::new(),
    };
    if !lines.iter().any(|line| {
        needle
            .iter()
            .any(|n| memchr::memmem::find(line, n).is_some())
    }) {
        return Vec::new();
    }
    let side = Lexed::new(syntax, lines);
    let mut weights = vec![Weight::default(); lines.len()];
    let mut budget = lines.len().saturating_mul(4).max(1024);
    let groups = match language {
        Language::Python => python_cases(&side),
        Language::JavaScript => javascript_cases(&side),
        Language::Go => go_cases(&side),
        _ => Vec::new(),
    };
    for (range, cases) in groups {
        for weight in weights.get_mut(range).unwrap_or_default() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            weight.tests = weight.tests.saturating_mul(cases).min(MAX_CASES);
            weight.checks = weight.checks.saturating_mul(cases).min(MAX_CASES);
        }
    }
    if language == Language::Python {
        python_helpers(&side, &mut weights, &mut budget);
    }
    if weights.iter().all(|weight| *weight == Weight::default()) {
        return Vec::new();
    }
    weights
}

/// A side lexed once: the state each line starts in, and its tokens with their lines.
struct Lexed<'a> {
    lines: &'a [&'a [u8]],
    states: Vec<State>,
    code: Vec<u8>,
    /// Per line, the range of its code in `code`.
    spans: Vec<std::ops::Range<usize>>,
}

impl<'a> Lexed<'a> {
    fn new(syntax: &Syntax, lines: &'a [&'a [u8]]) -> Self {
        let mut states = Vec::with_capacity(lines.len());
        let mut spans = Vec::with_capacity(lines.len());
        let mut code = Vec::new();
        let mut state = State::Code;
        for line in lines {
            states.push(state);
            let start = code.len();
            state = lex::strip_line(syntax, state, line, &mut code);
            spans.push(start..code.len());
            code.push(b'\n');
        }
        Self {
            lines,
            states,
            code,
            spans,
        }
    }

    /// Every token with the line it is on.
    fn tokens(&self) -> Vec<(usize, Token<'_>)> {
        let mut all = Vec::new();
        let mut line_tokens = Vec::new();
        for (i, span) in self.spans.iter().enumerate() {
            line_tokens.clear();
            pattern::tokenize(
                self.code.get(span.clone()).unwrap_or_default(),
                &mut line_tokens,
            );
            all.extend(line_tokens.iter().map(|&token| (i, token)));
        }
        all
    }

    fn starts_in_code(&self, line: usize) -> bool {
        self.states.get(line) == Some(&State::Code)
    }

    /// The raw text of `line` without its indentation, and the indentation's width.
    fn indented(&self, line: usize) -> (&'a [u8], usize) {
        let raw = self.lines.get(line).copied().unwrap_or_default();
        let trimmed = raw.trim_ascii_start();
        (trimmed, raw.len() - trimmed.len())
    }
}

/// The index of the bracket that closes the one at `open` in `tokens`, within
/// [`MAX_TOKENS`].
fn closing(tokens: &[(usize, Token<'_>)], open: usize) -> Option<usize> {
    let mut depth = 0i64;
    for (i, (_, token)) in tokens.iter().enumerate().skip(open).take(MAX_TOKENS) {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
                if depth < 0 {
                    return None;
                }
            }
            _ => {}
        }
    }
    None
}

/// The entries of the literal whose brackets are at `open` and `close`: the non-empty runs
/// between its top-level commas. `None` when it is not a plain list (a comprehension, `for`
/// at its top level, a spread).
fn entries(tokens: &[(usize, Token<'_>)], open: usize, close: usize) -> Option<u32> {
    let inner = tokens.get(open + 1..close)?;
    let mut depth = 0i64;
    let (mut count, mut run) = (0u32, false);
    for (_, token) in inner {
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth -= 1,
            Token::Punct(b',') if depth == 0 => {
                count += u32::from(run);
                run = false;
                continue;
            }
            Token::Ident(b"for" | b"async") if depth == 0 => return None,
            // `*others` / `...others`: cases from elsewhere.
            Token::Punct(b'*' | b'.') if depth == 0 && !run => return None,
            _ => {}
        }
        run = true;
    }
    count += u32::from(run);
    Some(count.min(MAX_CASES))
}

/// The lines from `first` to the end of the Python block its statement opens: the lines
/// below, up to the first code line indented no deeper than `first`, after the statement's
/// own brackets close.
fn python_block(
    side: &Lexed<'_>,
    tokens: &[(usize, Token<'_>)],
    at: usize,
) -> std::ops::Range<usize> {
    let Some(&(first, _)) = tokens.get(at) else {
        return 0..0;
    };
    let (_, indent) = side.indented(first);
    // The header's own lines: up to where its brackets close.
    let mut depth = 0i64;
    let mut header_end = first;
    for &(line, token) in tokens.iter().skip(at).take(MAX_TOKENS) {
        if line != header_end && depth <= 0 {
            break;
        }
        header_end = line;
        match token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth -= 1,
            _ => {}
        }
    }
    let mut end = header_end + 1;
    while end < side.lines.len() {
        let (text, width) = side.indented(end);
        if side.starts_in_code(end)
            && !text.is_empty()
            && !text.starts_with(b"#")
            && width <= indent
        {
            break;
        }
        end += 1;
    }
    first..end
}

/// The blocks of pytest's parametrized tests and classes, each with its case count.
fn python_cases(side: &Lexed<'_>) -> Vec<(std::ops::Range<usize>, u32)> {
    if !side
        .lines
        .iter()
        .any(|line| memchr::memmem::find(line, b"parametrize").is_some())
    {
        return Vec::new();
    }
    let tokens = side.tokens();
    let mut groups = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let at = i;
        i += 1;
        let (line, Token::Punct(b'@')) = tokens[at] else {
            continue;
        };
        // `@a.b.parametrize(` at the start of a line.
        if tokens
            .get(at.wrapping_sub(1))
            .is_some_and(|&(above, _)| above == line)
        {
            continue;
        }
        let mut j = at + 1;
        let mut name = None;
        while let Some(&(_, Token::Ident(id))) = tokens.get(j) {
            name = Some(id);
            match tokens.get(j + 1) {
                Some((_, Token::Punct(b'.'))) => j += 2,
                _ => break,
            }
        }
        let open = j + 1;
        if name != Some(b"parametrize".as_slice())
            || !matches!(tokens.get(open), Some((_, Token::Punct(b'('))))
        {
            continue;
        }
        let Some(close) = closing(&tokens, open) else {
            continue;
        };
        i = close + 1;
        // An empty parameter set is a skip (pytest's own report), which the skip patterns
        // count: the test stays one.
        let cases = parametrize_cases(&tokens, open, close)
            .filter(|&cases| cases > 0)
            .unwrap_or(1);
        // The `def` or `class` it decorates: the next statement at its depth that is not a
        // decorator.
        let mut k = close + 1;
        let mut depth = 0i64;
        let mut decorated = None;
        while let Some(&(below, token)) = tokens.get(k) {
            if below > line + DECORATOR_LINES {
                break;
            }
            let first = tokens
                .get(k.wrapping_sub(1))
                .is_none_or(|&(above, _)| above != below);
            if depth == 0 && first {
                match token {
                    Token::Ident(b"def" | b"class" | b"async") => {
                        decorated = Some(k);
                        break;
                    }
                    Token::Punct(b'@') => {}
                    _ => break,
                }
            }
            match token {
                Token::Punct(b'(' | b'[' | b'{') => depth += 1,
                Token::Punct(b')' | b']' | b'}') => depth -= 1,
                _ => {}
            }
            k += 1;
        }
        if let Some(def) = decorated
            && cases != 1
        {
            groups.push((python_block(side, &tokens, def), cases));
        }
    }
    groups
}

/// The case count of the `parametrize(…)` whose brackets are at `open` and `close`: the
/// entries of its second argument, when that is a list or tuple literal.
fn parametrize_cases(tokens: &[(usize, Token<'_>)], open: usize, close: usize) -> Option<u32> {
    // The first top-level comma ends the names.
    let mut depth = 0i64;
    let mut k = open + 1;
    while k < close {
        match tokens.get(k)?.1 {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => depth -= 1,
            Token::Punct(b',') if depth == 0 => break,
            _ => {}
        }
        k += 1;
    }
    let start = k + 1;
    if !matches!(tokens.get(start)?.1, Token::Punct(b'[' | b'(')) {
        return None;
    }
    let end = closing(tokens, start)?;
    // The literal is the whole argument (not `[…] + more`).
    if !matches!(tokens.get(end + 1)?.1, Token::Punct(b',' | b')')) || end >= close {
        return None;
    }
    entries(tokens, start, end)
}

/// The calls of Jest's and Vitest's `each` (`it.each([…])(…)`, `` describe.each`…`(…) ``),
/// each with its case count.
fn javascript_cases(side: &Lexed<'_>) -> Vec<(std::ops::Range<usize>, u32)> {
    let tokens = side.tokens();
    let mut groups = Vec::new();
    for at in 0..tokens.len() {
        let (line, Token::Ident(b"each")) = tokens[at] else {
            continue;
        };
        // `it.each`, `test.only.each`, `describe.skip.each`: a runner's name first.
        let mut k = at;
        let mut runner = false;
        while k >= 2
            && matches!(tokens.get(k - 1), Some((_, Token::Punct(b'.'))))
            && let Some(&(_, Token::Ident(name))) = tokens.get(k - 2)
        {
            k -= 2;
            runner = matches!(name, b"it" | b"test" | b"describe" | b"suite" | b"bench");
        }
        if !runner || (k > 0 && matches!(tokens.get(k - 1), Some((_, Token::Punct(b'.'))))) {
            continue;
        }
        let (cases, after) = match tokens.get(at + 1) {
            Some((_, Token::Punct(b'('))) => {
                let Some(close) = closing(&tokens, at + 1) else {
                    continue;
                };
                let cases = match tokens.get(at + 2) {
                    Some((_, Token::Punct(b'['))) => closing(&tokens, at + 2)
                        .filter(|&end| end + 1 == close)
                        .and_then(|end| entries(&tokens, at + 2, end)),
                    _ => None,
                };
                (cases, close + 1)
            }
            Some(&(first, Token::Str)) => {
                // A template table: one string token per line it spans.
                let mut end = at + 1;
                while matches!(tokens.get(end + 1), Some((_, Token::Str)))
                    && tokens
                        .get(end + 1)
                        .is_some_and(|&(next, _)| next > tokens[end].0)
                {
                    end += 1;
                }
                let last = tokens[end].0;
                (template_rows(side, first, last), end + 1)
            }
            _ => continue,
        };
        let Some(cases) = cases.filter(|&cases| cases != 1) else {
            continue;
        };
        if !matches!(tokens.get(after), Some((_, Token::Punct(b'(')))) {
            continue;
        }
        let Some(close) = closing(&tokens, after) else {
            continue;
        };
        let end = tokens.get(close).map_or(line, |&(end, _)| end);
        groups.push((line..end + 1, cases));
    }
    groups
}

/// The rows of a template table that opens on line `first` and closes on line `last`: its
/// non-blank lines but the header.
fn template_rows(side: &Lexed<'_>, first: usize, last: usize) -> Option<u32> {
    if last <= first {
        return None;
    }
    let text = |line: usize| side.lines.get(line).copied().unwrap_or_default();
    let mut rows = 0u32;
    // The opening line's text after the backtick, the closing line's before it.
    let open = text(first);
    if let Some(at) = memchr::memrchr(b'`', open)
        && !open[at + 1..].trim_ascii().is_empty()
    {
        rows += 1;
    }
    for line in first + 1..last {
        rows += u32::from(!text(line).trim_ascii().is_empty());
    }
    let close = text(last);
    if let Some(at) = memchr::memchr(b'`', close)
        && !close[..at].trim_ascii().is_empty()
    {
        rows += 1;
    }
    let cases = rows.checked_sub(1)?;
    Some(cases.min(MAX_CASES))
}

/// Go's `for … range <table>` loops, each body with its case count.
fn go_cases(side: &Lexed<'_>) -> Vec<(std::ops::Range<usize>, u32)> {
    let tokens = side.tokens();
    let mut groups = Vec::new();
    // The entries of the last composite literal assigned to each name.
    let mut tables: std::collections::HashMap<&[u8], Option<u32>> =
        std::collections::HashMap::new();
    let mut i = 0;
    while i < tokens.len() {
        let at = i;
        i += 1;
        match tokens[at].1 {
            // `name := []T{…}`, `name = map[K]V{…}`, `var name = …`.
            Token::Ident(name) if assigns(&tokens, at) => {
                let value = if matches!(tokens.get(at + 1), Some((_, Token::Punct(b':')))) {
                    at + 3
                } else {
                    at + 2
                };
                let literal = composite(&tokens, value);
                tables.insert(name, literal.map(|(cases, _)| cases));
            }
            Token::Ident(b"range") => {
                if !tokens[..at]
                    .iter()
                    .rev()
                    .take(8)
                    .any(|(_, token)| *token == Token::Ident(b"for"))
                {
                    continue;
                }
                let (cases, body) = match tokens.get(at + 1) {
                    Some(&(_, Token::Ident(name)))
                        if matches!(tokens.get(at + 2), Some((_, Token::Punct(b'{')))) =>
                    {
                        (tables.get(name).copied().flatten(), at + 2)
                    }
                    _ => match composite(&tokens, at + 1) {
                        Some((cases, end)) => (Some(cases), end + 1),
                        None => (None, at + 1),
                    },
                };
                let Some(cases) = cases else { continue };
                if !matches!(tokens.get(body), Some((_, Token::Punct(b'{')))) {
                    continue;
                }
                let Some(close) = closing(&tokens, body) else {
                    continue;
                };
                let (first, last) = (tokens[body].0, tokens[close].0);
                if cases != 1 {
                    groups.push((first..last + 1, cases));
                }
            }
            _ => {}
        }
    }
    groups
}

/// Whether the Go name at token `at` is assigned: `name := …`, `name = …` (not `name ==`,
/// not a field `x.name = …`).
fn assigns(tokens: &[(usize, Token<'_>)], at: usize) -> bool {
    let token = |k: usize| tokens.get(k).map(|&(_, token)| token);
    let assigned = match (token(at + 1), token(at + 2)) {
        (Some(Token::Punct(b':')), Some(Token::Punct(b'='))) => true,
        (Some(Token::Punct(b'=')), next) => next != Some(Token::Punct(b'=')),
        _ => false,
    };
    assigned && at.checked_sub(1).and_then(token) != Some(Token::Punct(b'.'))
}

/// The Go composite literal of a slice, array or map type that starts at token `at`
/// (`[]struct{ … }{ {…}, {…} }`, `map[string]int{…}`): its entry count and the index of its
/// closing brace. `None` when it is not one, or is empty.
fn composite(tokens: &[(usize, Token<'_>)], at: usize) -> Option<(u32, usize)> {
    let mut k = at;
    match tokens.get(k)?.1 {
        Token::Punct(b'[') => k = closing(tokens, k)? + 1,
        Token::Ident(b"map") if matches!(tokens.get(k + 1)?.1, Token::Punct(b'[')) => {
            k = closing(tokens, k + 1)? + 1;
        }
        _ => return None,
    }
    // The element type, up to the literal's brace.
    for _ in 0..64 {
        match tokens.get(k)?.1 {
            Token::Ident(b"struct" | b"interface")
                if matches!(tokens.get(k + 1)?.1, Token::Punct(b'{')) =>
            {
                k = closing(tokens, k + 1)? + 1;
            }
            Token::Punct(b'[' | b'(') => k = closing(tokens, k)? + 1,
            Token::Punct(b'{') => {
                let close = closing(tokens, k)?;
                return entries(tokens, k, close).map(|cases| (cases, close));
            }
            Token::Ident(_) | Token::Punct(b'*' | b'.') => k += 1,
            _ => return None,
        }
    }
    None
}

/// A Python function a test module defines that is not a test.
struct Helper<'a> {
    name: &'a [u8],
    /// A method (called as `self.name(`/`cls.name(`), or a function (`name(`).
    method: bool,
    /// Its `def` line and body.
    block: std::ops::Range<usize>,
    calls: Vec<usize>,
    /// Named other than in a call (passed on, assigned).
    named: bool,
}

/// Names the runners call themselves: a method or function of these names is no helper.
fn runner_hook(name: &[u8]) -> bool {
    name.starts_with(b"__")
        || name.starts_with(b"test")
        || name.starts_with(b"pytest_")
        || [
            &b"setUp"[..],
            b"tearDown",
            b"setup",
            b"teardown",
            b"runTest",
            b"asyncSetUp",
            b"asyncTearDown",
            b"load_tests",
            b"addCleanup",
        ]
        .iter()
        .any(|prefix| name.starts_with(prefix))
}

/// Weighs the checks in each helper of a Python test module by its calls
/// ([`Weight::checks`] of each calling line, summed), in a file that defines tests.
fn python_helpers(side: &Lexed<'_>, weights: &mut [Weight], budget: &mut usize) {
    let tokens = side.tokens();
    let Some(mut helpers) = find_helpers(side, &tokens) else {
        return;
    };
    find_calls(&tokens, &mut helpers);
    weigh_helpers(&helpers, weights, budget);
}

/// The helpers `tokens` of `side` define, when it defines tests too.
fn find_helpers<'a>(side: &Lexed<'_>, tokens: &[(usize, Token<'a>)]) -> Option<Vec<Helper<'a>>> {
    let mut helpers: Vec<Helper<'_>> = Vec::new();
    let mut has_tests = false;
    // The open `class` blocks' indentation, and whether a `def` is open.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut decorator: Option<usize> = None;
    let mut previous_line = usize::MAX;
    for (at, &(line, token)) in tokens.iter().enumerate() {
        if line == previous_line {
            continue;
        }
        previous_line = line;
        if !side.starts_in_code(line) {
            continue;
        }
        let (text, indent) = side.indented(line);
        while open.last().is_some_and(|&(at, _)| at >= indent) {
            open.pop();
        }
        match token {
            Token::Punct(b'@') => {
                decorator.get_or_insert(indent);
                continue;
            }
            Token::Ident(b"class") => {
                open.push((indent, false));
                decorator = None;
                continue;
            }
            Token::Ident(b"def" | b"async") => {}
            _ => {
                if decorator.is_some_and(|at| indent <= at)
                    && !matches!(token, Token::Punct(b')' | b']' | b'}' | b','))
                {
                    decorator = None;
                }
                continue;
            }
        }
        let def = if token == Token::Ident(b"async") {
            at + 2
        } else {
            at + 1
        };
        let Some(&(_, Token::Ident(name))) = tokens.get(def) else {
            continue;
        };
        if !text.starts_with(b"def ") && !text.starts_with(b"async def ") {
            continue;
        }
        let decorated = decorator.take().is_some_and(|at| at == indent);
        let nested = open.last().is_some_and(|&(_, def)| def);
        let method = open.last().is_some_and(|&(_, def)| !def);
        open.push((indent, true));
        if name.starts_with(b"test") && !nested {
            has_tests = true;
        }
        if decorated || (!nested && runner_hook(name)) {
            continue;
        }
        helpers.push(Helper {
            name,
            method,
            block: python_block(side, tokens, at),
            calls: Vec::new(),
            named: false,
        });
    }
    (has_tests && !helpers.is_empty()).then_some(helpers)
}

/// Records where each of `helpers` is called and named.
fn find_calls(tokens: &[(usize, Token<'_>)], helpers: &mut [Helper<'_>]) {
    let mut by_name: std::collections::HashMap<&[u8], Vec<usize>> =
        std::collections::HashMap::new();
    for (index, helper) in helpers.iter().enumerate() {
        by_name.entry(helper.name).or_default().push(index);
    }
    for (at, &(line, token)) in tokens.iter().enumerate() {
        let Token::Ident(name) = token else { continue };
        let Some(indices) = by_name.get(name) else {
            continue;
        };
        let before = at
            .checked_sub(1)
            .and_then(|k| tokens.get(k))
            .map(|&(_, t)| t);
        let receiver = at
            .checked_sub(2)
            .and_then(|k| tokens.get(k))
            .map(|&(_, t)| t);
        let call = matches!(tokens.get(at + 1), Some((_, Token::Punct(b'('))));
        let (method, function) = match before {
            Some(Token::Ident(b"def")) => continue,
            Some(Token::Punct(b'.')) => (
                matches!(receiver, Some(Token::Ident(b"self" | b"cls"))),
                false,
            ),
            _ => (false, true),
        };
        for &index in indices {
            let helper = &mut helpers[index];
            if call && ((helper.method && method) || (!helper.method && function)) {
                if !helper.block.contains(&line) {
                    helper.calls.push(line);
                }
            } else if !helper.block.contains(&line) || !call {
                helper.named = true;
            }
        }
    }
}

/// Sets the weight of each line of each helper's body to its calls' ([`python_helpers`]).
fn weigh_helpers(helpers: &[Helper<'_>], weights: &mut [Weight], budget: &mut usize) {
    // Helpers that call helpers: a few rounds carry the weights down.
    for _ in 0..3 {
        let mut changed = false;
        for helper in helpers {
            let weight = if helper.calls.is_empty() {
                u32::from(helper.named)
            } else {
                helper
                    .calls
                    .iter()
                    .map(|&line| weights.get(line).map_or(1, |weight| weight.checks))
                    .fold(0u32, u32::saturating_add)
                    .min(MAX_CASES)
            };
            // The body, not the `def` line.
            for line in helper.block.clone().skip(1) {
                if *budget == 0 {
                    return;
                }
                *budget -= 1;
                if let Some(slot) = weights.get_mut(line)
                    && slot.checks != weight
                {
                    slot.checks = weight;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}
