//! A per-line lexer that keeps the code of a line and drops its comments and string contents.
//!
//! It is a small state machine whose state at the start of a line is all it needs to know
//! about the lines before it: whether that line starts inside a block comment or inside a
//! string that spans lines. [`advance`] steps the state over one line without writing any
//! code out; [`strip_line`] turns one line into its
//! code, given the state the line starts in, and returns the state the next one starts in.
//!
//! The stripped code keeps identifiers and punctuation byte for byte; it replaces a comment
//! by one space and every string or character literal (quotes included) by a single `"`,
//! so that the token matcher sees one string token where the literal was.

/// How a language writes comments and literals.
#[derive(Debug, Clone, Copy)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches of a language table, each read in one place"
)]
pub(crate) struct Syntax {
    /// `# …` line comments (Python).
    pub hash_comments: bool,
    /// `// …` line comments and `/* … */` block comments (every C-like language).
    pub slash_comments: bool,
    /// Block comments nest, `/* /* */ */` (Rust, Kotlin).
    pub nested_block_comments: bool,
    /// What `'` opens.
    pub single_quote: SingleQuote,
    /// `"""` opens a string that spans lines (Python, Java text blocks, Kotlin); with
    /// [`SingleQuote::String`], `'''` does too.
    pub triple_quotes: bool,
    /// What `` ` `` opens.
    pub backtick: Backtick,
    /// A `"…"` string may span lines without a trailing backslash (Rust).
    pub multiline_strings: bool,
    /// `r"…"`, `r#"…"#`, `br"…"`, `cr"…"` raw strings (Rust).
    pub rust_raw_strings: bool,
    /// `/…/` regular-expression literals, recognised by the token before the `/` (JavaScript).
    pub regex_literals: bool,
    /// U+2028 and U+2029 end a line, and so a `//` comment, as `\r` and `\n` do
    /// (JavaScript).
    pub unicode_line_ends: bool,
}

/// What a `'` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SingleQuote {
    /// A string like `"…"` (Python, JavaScript).
    String,
    /// A character literal `'x'` when one closes it within one character, else nothing: a
    /// Rust lifetime or label (`'a`) stays code.
    Char,
}

/// What a `` ` `` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Backtick {
    /// Nothing: the backtick is punctuation.
    Punct,
    /// A string: a JavaScript template literal (escapes, spans lines), a Go raw string (no
    /// escapes, spans lines), a Kotlin quoted identifier (no escapes, one line).
    String {
        /// `\` escapes the next byte.
        escapes: bool,
        /// The string may span lines.
        multiline: bool,
    },
}

/// Where the lexer is at the start of a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// In code.
    Code,
    /// Inside this many nested block comments (1 unless the language nests them).
    Block(u8),
    /// Inside a string literal.
    Str(Quote),
}

/// The kind of string literal the lexer is inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quote {
    /// `"…"`.
    Double,
    /// `'…'` where `'` opens strings.
    Single,
    /// `"""…"""`.
    TripleDouble,
    /// `'''…'''`.
    TripleSingle,
    /// `` `…` ``.
    Backtick,
    /// A Rust raw string closed by `"` and this many `#`.
    Raw(u8),
}

impl Quote {
    fn closer(self) -> &'static [u8] {
        match self {
            Self::Double | Self::Raw(_) => b"\"",
            Self::Single => b"'",
            Self::TripleDouble => b"\"\"\"",
            Self::TripleSingle => b"'''",
            Self::Backtick => b"`",
        }
    }

    fn escapes(self, syntax: &Syntax) -> bool {
        match self {
            Self::Raw(_) => false,
            Self::Backtick => matches!(syntax.backtick, Backtick::String { escapes: true, .. }),
            Self::Double | Self::Single | Self::TripleDouble | Self::TripleSingle => true,
        }
    }

    fn multiline(self, syntax: &Syntax) -> bool {
        match self {
            Self::Raw(_) | Self::TripleDouble | Self::TripleSingle => true,
            Self::Backtick => matches!(
                syntax.backtick,
                Backtick::String {
                    multiline: true,
                    ..
                }
            ),
            Self::Double => syntax.multiline_strings,
            Self::Single => false,
        }
    }
}

/// True for the bytes an identifier is made of. Bytes of non-ASCII characters count, so a
/// Unicode identifier stays one token; `$` counts for JavaScript and Java names.
pub(crate) const fn is_ident_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$' || byte >= 0x80
}

/// The length in bytes of the UTF-8 character that starts with `lead` (1 for a stray
/// continuation byte, so that the lexer always moves on).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// Where the lexer writes the code of a line.
pub(crate) trait Sink {
    /// Writes one byte.
    fn push(&mut self, byte: u8);
    /// Writes bytes.
    fn extend(&mut self, bytes: &[u8]);
    /// The last byte written on this line that is not whitespace (for telling a regular
    /// expression from a division).
    fn last_significant(&self) -> Option<u8>;
    /// The identifier written last on this line, when nothing but whitespace follows it
    /// (`return` before a `/` starts a regular expression; `x` before one divides).
    fn last_word(&self) -> &[u8];
}

/// The longest keyword [`Sink::last_word`] is asked about.
const WORD_CAPACITY: usize = 10;

impl Sink for Vec<u8> {
    fn push(&mut self, byte: u8) {
        Vec::push(self, byte);
    }

    fn extend(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    fn last_significant(&self) -> Option<u8> {
        self.iter()
            .rev()
            .copied()
            .find(|b| !b.is_ascii_whitespace())
    }

    fn last_word(&self) -> &[u8] {
        let code = self.trim_ascii_end();
        let start = code
            .iter()
            .rposition(|&b| !is_ident_byte(b))
            .map_or(0, |i| i + 1);
        &code[start..]
    }
}

/// A sink that keeps only what the lexer reads back: computing states writes no code.
#[derive(Default)]
struct Discard {
    last: Option<u8>,
    /// The identifier written last, up to [`WORD_CAPACITY`] bytes (`len` past it: longer).
    word: [u8; WORD_CAPACITY],
    len: usize,
    /// Whitespace came after the last identifier byte: the next one starts a new word.
    gap: bool,
}

impl Sink for Discard {
    fn push(&mut self, byte: u8) {
        if byte.is_ascii_whitespace() {
            self.gap = true;
            return;
        }
        if is_ident_byte(byte) {
            if self.gap || !self.last.is_some_and(is_ident_byte) {
                self.len = 0;
            }
            if let Some(slot) = self.word.get_mut(self.len) {
                *slot = byte;
            }
            self.len += 1;
        } else {
            self.len = 0;
        }
        self.gap = false;
        self.last = Some(byte);
    }

    /// Only the last word and what follows it are kept: the bytes are pushed from the one
    /// before that word (whitespace or punctuation, which starts the word afresh), or from
    /// the last byte that is not whitespace when it is punctuation.
    fn extend(&mut self, bytes: &[u8]) {
        let Some(last) = bytes.iter().rposition(|b| !b.is_ascii_whitespace()) else {
            if !bytes.is_empty() {
                self.gap = true;
            }
            return;
        };
        let from = if is_ident_byte(bytes[last]) {
            bytes[..last]
                .iter()
                .rposition(|&b| !is_ident_byte(b))
                .unwrap_or(0)
        } else {
            last
        };
        for &byte in &bytes[from..] {
            self.push(byte);
        }
    }

    fn last_significant(&self) -> Option<u8> {
        self.last
    }

    fn last_word(&self) -> &[u8] {
        if self.last.is_some_and(is_ident_byte) {
            self.word.get(..self.len).unwrap_or_default()
        } else {
            &[]
        }
    }
}

/// The bytes that can start a comment or a literal in some language. A line that starts in
/// code and holds none of them ends in code.
const OPENERS: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    let openers = b"/#\"'`";
    while i < openers.len() {
        table[openers[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether `line`, starting in `state`, is code from end to end: it starts in code and holds
/// no byte that could open a comment or a literal, so it is its own stripped code and the
/// next line starts in code.
pub(crate) fn is_plain(state: State, line: &[u8]) -> bool {
    // Eight bytes at a time, with no branch per byte: lines are short, and a vector search
    // for five bytes costs more to set up than this.
    let opener = |bytes: &[u8]| {
        bytes
            .iter()
            .fold(false, |found, &byte| found | OPENERS[usize::from(byte)])
    };
    let (chunks, rest) = line.as_chunks::<8>();
    state == State::Code && !chunks.iter().any(|chunk| opener(chunk)) && !opener(rest)
}

/// The state the next line starts in when `line` starts in `state`. A line that starts in
/// code and holds no byte of [`OPENERS`] ends in code without running the lexer.
pub(crate) fn advance(syntax: &Syntax, state: State, line: &[u8]) -> State {
    if is_plain(state, line) {
        return State::Code;
    }
    strip_line(syntax, state, line, &mut Discard::default())
}

/// The state each of `lines` starts in, the first `upto` of them at most ([`advance`]).
pub(crate) fn start_states(syntax: &Syntax, lines: &[&[u8]], upto: usize) -> Vec<State> {
    let mut state = State::Code;
    let mut states = Vec::with_capacity(upto.min(lines.len()));
    for line in lines.iter().take(upto) {
        states.push(state);
        state = advance(syntax, state, line);
    }
    states
}

/// Splits `data` into lines ([`crate::linediff::split_lines`]) and computes the state each line starts in:
/// `states[i]` for line `i`, plus one entry for the end of the file.
#[cfg(test)]
fn lines_and_states<'a>(syntax: &Syntax, data: &'a [u8]) -> (Vec<&'a [u8]>, Vec<State>) {
    let lines = crate::linediff::split_lines(data);
    let mut states = Vec::with_capacity(lines.len() + 1);
    let mut state = State::Code;
    states.push(state);
    for line in &lines {
        state = advance(syntax, state, line);
        states.push(state);
    }
    (lines, states)
}

/// Appends the code of `line` (comments dropped, literals replaced by `"`) to `out` and
/// returns the state the next line starts in. A trailing `\n` or `\r\n` is ignored.
pub(crate) fn strip_line(syntax: &Syntax, start: State, line: &[u8], out: &mut impl Sink) -> State {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let len = line.len();
    let mut state = start;
    let mut i = 0;
    if matches!(state, State::Str(_)) {
        // The line continues a literal: it still shows as one string token.
        out.push(b'"');
    }
    while i < len {
        match state {
            State::Code => {
                // Plain code up to the next byte that may open a comment or a literal is
                // copied as it is.
                let next = find(line, i, |b| OPENERS[usize::from(b)]);
                out.extend(&line[i..next]);
                if next == len {
                    break;
                }
                (state, i) = code_step(syntax, line, next, out);
            }
            State::Block(depth) => {
                i = memchr::memchr2(b'*', b'/', &line[i..]).map_or(len, |at| i + at);
                if line[i..].starts_with(b"*/") {
                    i += 2;
                    state = if depth <= 1 {
                        State::Code
                    } else {
                        State::Block(depth - 1)
                    };
                } else if syntax.nested_block_comments && line[i..].starts_with(b"/*") {
                    i += 2;
                    state = State::Block(depth.saturating_add(1));
                } else {
                    i += 1;
                }
            }
            State::Str(quote) => {
                let closer = quote.closer();
                let escapes = quote.escapes(syntax);
                let rest = &line[i..];
                let next = if escapes {
                    memchr::memchr2(closer[0], b'\\', rest)
                } else {
                    memchr::memchr(closer[0], rest)
                };
                i = next.map_or(len, |at| i + at);
                if i == len {
                    break;
                }
                if escapes && line[i] == b'\\' {
                    // Skips the escaped byte; past the end means the newline is escaped.
                    i += 2;
                    continue;
                }
                let hashes = match quote {
                    Quote::Raw(hashes) => usize::from(hashes),
                    _ => 0,
                };
                let at_closer = line[i..].starts_with(closer)
                    && line[i + closer.len()..]
                        .iter()
                        .take(hashes)
                        .filter(|&&b| b == b'#')
                        .count()
                        == hashes;
                if at_closer {
                    i += closer.len() + hashes;
                    state = State::Code;
                } else {
                    i += 1;
                }
            }
        }
    }
    if let State::Str(quote) = state {
        // A one-line literal ends with its line unless a backslash escaped the newline
        // (the escape then stepped past the end).
        if !quote.multiline(syntax) && i <= len {
            state = State::Code;
        }
    }
    state
}

/// The index of the first byte at or after `from` that satisfies `wanted`, or the length.
fn find(line: &[u8], from: usize, wanted: impl Fn(u8) -> bool) -> usize {
    line[from..]
        .iter()
        .position(|&b| wanted(b))
        .map_or(line.len(), |p| from + p)
}

/// One step in code at `line[i]`, a byte in [`OPENERS`]: writes what is code to `out`,
/// returns the next state and the next index.
fn code_step(syntax: &Syntax, line: &[u8], i: usize, out: &mut impl Sink) -> (State, usize) {
    let byte = line[i];
    let rest = &line[i..];
    if (syntax.slash_comments && rest.starts_with(b"//")) || (syntax.hash_comments && byte == b'#')
    {
        out.push(b' ');
        // A lone carriage return ends a line for the languages' own readers (Python,
        // JavaScript), and so do U+2028 and U+2029 for JavaScript's: what follows is code,
        // not the comment.
        let mut end = memchr::memchr(b'\r', rest).map_or(line.len(), |at| i + at + 1);
        if syntax.unicode_line_ends {
            let separator = memchr::memmem::find_iter(&rest[..end - i], b"\xe2\x80")
                .find(|&at| matches!(rest.get(at + 2), Some(0xa8 | 0xa9)));
            if let Some(at) = separator {
                end = i + at + 3;
            }
        }
        return (State::Code, end);
    }
    if syntax.slash_comments && rest.starts_with(b"/*") {
        out.push(b' ');
        return (State::Block(1), i + 2);
    }
    if syntax.rust_raw_strings
        && matches!(byte, b'"' | b'#')
        && let Some((hashes, end)) = raw_string_start(line, i)
    {
        out.push(b'"');
        return (State::Str(Quote::Raw(hashes)), end);
    }
    match byte {
        b'"' => {
            out.push(b'"');
            if syntax.triple_quotes && rest.starts_with(b"\"\"\"") {
                (State::Str(Quote::TripleDouble), i + 3)
            } else {
                (State::Str(Quote::Double), i + 1)
            }
        }
        b'\'' => match syntax.single_quote {
            SingleQuote::String => {
                out.push(b'"');
                if syntax.triple_quotes && rest.starts_with(b"\'\'\'") {
                    (State::Str(Quote::TripleSingle), i + 3)
                } else {
                    (State::Str(Quote::Single), i + 1)
                }
            }
            SingleQuote::Char => {
                if let Some(end) = char_literal_end(line, i) {
                    out.push(b'"');
                    (State::Code, end)
                } else {
                    // A lifetime or a label stays code.
                    out.push(b'\'');
                    (State::Code, i + 1)
                }
            }
        },
        b'`' if syntax.backtick != Backtick::Punct => {
            out.push(b'"');
            (State::Str(Quote::Backtick), i + 1)
        }
        b'/' if syntax.regex_literals && regex_may_start(out) => {
            out.push(b'"');
            let end = regex_end(line, i);
            (State::Code, end)
        }
        _ => {
            out.push(byte);
            (State::Code, i + 1)
        }
    }
}

/// When the `"` or `#` at `line[i]` opens a Rust raw string (`r"`, `r#"`, `br##"`,
/// `cr"`: the identifier before it is `r`, `br` or `cr`), its number of `#` and the index
/// after the opening quote.
fn raw_string_start(line: &[u8], i: usize) -> Option<(u8, usize)> {
    let ident_start = line[..i]
        .iter()
        .rposition(|&b| !is_ident_byte(b))
        .map_or(0, |p| p + 1);
    if !matches!(&line[ident_start..i], b"r" | b"br" | b"cr") {
        return None;
    }
    let hashes = line[i..].iter().take_while(|&&b| b == b'#').count();
    if line.get(i + hashes) != Some(&b'"') {
        return None;
    }
    Some((u8::try_from(hashes).unwrap_or(u8::MAX), i + hashes + 1))
}

/// The end (exclusive) of the character literal that starts with the `'` at `line[i]`, or
/// `None` when the quote starts a lifetime or label instead.
fn char_literal_end(line: &[u8], i: usize) -> Option<usize> {
    match *line.get(i + 1)? {
        b'\'' => None,
        b'\\' => {
            // `'\n'`, `'\''`, `'\u{1F600}'`: the first `'` after the escaped byte closes it.
            let close = line.get(i + 3..)?.iter().position(|&b| b == b'\'')?;
            Some(i + 3 + close + 1)
        }
        lead => {
            let close = i + 1 + utf8_len(lead);
            (line.get(close) == Some(&b'\'')).then_some(close + 1)
        }
    }
}

/// Whether a `/` starts a regular-expression literal rather than a division: it does when
/// the code before it on the line ends in an operator, an opening bracket or a keyword that
/// an expression follows (`return`, `typeof`, `void`), or is empty.
fn regex_may_start(out: &impl Sink) -> bool {
    match out.last_significant() {
        None => true,
        Some(b) if is_ident_byte(b) => REGEX_KEYWORDS.contains(&out.last_word()),
        Some(b) => b"(,=:[!&|?{};+-*%<>~^".contains(&b),
    }
}

/// Keywords after which a `/` starts a regular expression (`return /x/`, `typeof /x/`), not
/// a division: an expression follows them, never an operator.
const REGEX_KEYWORDS: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"void",
    b"delete",
    b"in",
    b"instanceof",
    b"new",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"yield",
    b"await",
];

/// The end (exclusive) of the regular-expression literal whose opening `/` is at
/// `line[i]`: after the closing `/`, or the end of the line if none closes it.
fn regex_end(line: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    let mut in_class = false;
    while j < line.len() {
        match line[j] {
            b'\\' => j += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => return j + 1,
            _ => {}
        }
        j += 1;
    }
    line.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const C_LIKE: Syntax = Syntax {
        hash_comments: false,
        slash_comments: true,
        nested_block_comments: false,
        single_quote: SingleQuote::Char,
        triple_quotes: false,
        backtick: Backtick::Punct,
        multiline_strings: false,
        rust_raw_strings: false,
        regex_literals: false,
        unicode_line_ends: false,
    };
    const RUST: Syntax = Syntax {
        nested_block_comments: true,
        multiline_strings: true,
        rust_raw_strings: true,
        ..C_LIKE
    };
    const PYTHON: Syntax = Syntax {
        hash_comments: true,
        slash_comments: false,
        single_quote: SingleQuote::String,
        triple_quotes: true,
        ..C_LIKE
    };
    const JS: Syntax = Syntax {
        single_quote: SingleQuote::String,
        backtick: Backtick::String {
            escapes: true,
            multiline: true,
        },
        regex_literals: true,
        unicode_line_ends: true,
        ..C_LIKE
    };

    /// Strips `text` line by line and joins the code with `|`.
    fn strip(syntax: &Syntax, text: &str) -> String {
        let lines: Vec<&[u8]> = text.split_inclusive('\n').map(str::as_bytes).collect();
        let mut state = State::Code;
        let mut code = Vec::new();
        for (n, line) in lines.iter().enumerate() {
            if n > 0 {
                code.push(b'|');
            }
            state = strip_line(syntax, state, line, &mut code);
        }
        String::from_utf8(code).unwrap()
    }

    macro_rules! strips {
        ($($name:ident: $syntax:expr, $text:expr => $code:expr;)*) => {
            $(
                #[test]
                fn $name() {
                    assert_eq!(strip(&$syntax, $text), $code);
                }
            )*
        };
    }

    strips! {
        line_comment: C_LIKE, "a(); // assert!(x)" => "a();  ";
        block_comment_in_line: C_LIKE, "a /* b */ c" => "a   c";
        block_comment_over_lines: C_LIKE, "a /*\n#[test]\n*/ b" => "a  || b";
        nested_block_comment: RUST, "/* /* */ #[test] */ x" => "  x";
        unnested_block_comment: C_LIKE, "/* /* */ x */" => "  x */";
        string_contents: C_LIKE, r#"f("assert!(x) // no", 1)"# => r#"f(", 1)"#;
        escaped_quote: C_LIKE, r#"f("a\"b", c)"# => r#"f(", c)"#;
        rust_multiline_string: RUST, "let s = \"\n#[test]\n\";" => "let s = \"|\"|\";";
        rust_raw_string: RUST, "r#\"a \" #[test]\"# x" => "r\" x";
        rust_raw_identifier: RUST, "let r#type = 1; assert!(x)" => "let r#type = 1; assert!(x)";
        rust_byte_raw_string: RUST, "br##\"a\"# \"##; x" => "br\"; x";
        rust_raw_string_ending_in_backslash: RUST, "r\"C:\\\" + x" => "r\" + x";
        rust_lifetime: RUST, "fn f<'a>(x: &'a str) -> char { 'x' }" => "fn f<'a>(x: &'a str) -> char { \" }";
        rust_char_quote: RUST, r#"let q = '"'; assert!(q)"# => r#"let q = "; assert!(q)"#;
        rust_escaped_char: RUST, r"let q = '\''; x" => r#"let q = "; x"#;
        rust_unicode_char: RUST, "let c = 'é'; x" => "let c = \"; x";
        python_comment: PYTHON, "x = 1  # assert x" => "x = 1   ";
        python_hash_in_string: PYTHON, "x = '#' + y" => "x = \" + y";
        python_docstring: PYTHON, "def f():\n    \"\"\"\n    assert x\n    \"\"\"\n    y" => "def f():|    \"|\"|\"|    y";
        python_single_quote_ends_at_newline: PYTHON, "x = 'open\ny" => "x = \"|y";
        python_escaped_newline: PYTHON, "x = 'a\\\nb' + c" => "x = \"|\" + c";
        js_template_over_lines: JS, "x = `\nit('a')\n` + y" => "x = \"|\"|\" + y";
        js_regex: JS, "s.replace(/\"/g, '')" => "s.replace(\"g, \")";
        js_division: JS, "a = b / c / d" => "a = b / c / d";
        js_regex_with_class: JS, "x = /[/]it(/; y" => "x = \"; y";
        js_regex_after_keyword: JS, "void /[})]/; return /a/g" => "void \"; return \"g";
        js_division_after_name: JS, "x = returned / 2 / y" => "x = returned / 2 / y";
    }

    /// States alone (no code written) tell a regular expression after a keyword from a
    /// division after a name, as the stripped code does.
    /// A lone carriage return ends a line comment, as it ends the line for Python and
    /// JavaScript: a string opened after it is one.
    #[test]
    fn a_carriage_return_ends_a_line_comment() {
        let python = &super::super::python::TABLE.syntax;
        let mut code = Vec::new();
        let state = strip_line(python, State::Code, b"# see below\r\"\"\"", &mut code);
        assert!(matches!(state, State::Str(_)), "{state:?}");
        let mut code = Vec::new();
        strip_line(
            python,
            State::Code,
            b"# a comment\rtest_add = test_sub",
            &mut code,
        );
        assert!(
            code.ends_with(b"test_add = test_sub"),
            "{}",
            String::from_utf8_lossy(&code)
        );
    }

    /// JavaScript ends a line, and so a `//` comment, at U+2028 and U+2029 too (attack-43
    /// B23, B24): what follows is code. Other languages read on to the newline.
    #[test]
    fn unicode_line_separators_end_a_javascript_line_comment() {
        let javascript = &super::super::javascript::TABLE.syntax;
        for separator in ["\u{2028}", "\u{2029}"] {
            let line = format!("// fast path{separator}return; // done");
            let mut code = Vec::new();
            strip_line(javascript, State::Code, line.as_bytes(), &mut code);
            assert!(
                String::from_utf8_lossy(&code).contains("return;"),
                "{}",
                String::from_utf8_lossy(&code)
            );
            let mut code = Vec::new();
            strip_line(&JS, State::Code, line.as_bytes(), &mut code);
            assert!(String::from_utf8_lossy(&code).contains("return;"));
            // A separator inside a string is the string's.
            let quoted = format!("x = \"a{separator}b\"; // c{separator}d()");
            let mut code = Vec::new();
            strip_line(javascript, State::Code, quoted.as_bytes(), &mut code);
            let code = String::from_utf8_lossy(&code).into_owned();
            assert!(code.contains("d()") && !code.contains('a'), "{code}");
        }
        let rust = &super::super::rust::TABLE.syntax;
        let mut code = Vec::new();
        strip_line(
            rust,
            State::Code,
            "// a\u{2028}return;".as_bytes(),
            &mut code,
        );
        assert!(!String::from_utf8_lossy(&code).contains("return"));
    }

    #[test]
    fn states_after_keywords_and_names() {
        assert_eq!(advance(&JS, State::Code, b"return /'/\n"), State::Code);
        assert_eq!(advance(&JS, State::Code, b"void /`/\n"), State::Code);
        assert_ne!(advance(&JS, State::Code, b"x = voids / `\n"), State::Code);
        assert_ne!(
            advance(&JS, State::Code, b"x = returned_value / `\n"),
            State::Code
        );
    }

    #[test]
    fn states_follow_the_file() {
        let (lines, states) = lines_and_states(&C_LIKE, b"a /*\nb\n*/ c\nd");
        assert_eq!(lines, [&b"a /*\n"[..], b"b\n", b"*/ c\n", b"d"]);
        assert_eq!(
            states,
            [
                State::Code,
                State::Block(1),
                State::Block(1),
                State::Code,
                State::Code
            ]
        );
    }

    #[test]
    fn lines_like_the_diff() {
        assert!(lines_and_states(&C_LIKE, b"").0.is_empty());
        assert_eq!(lines_and_states(&C_LIKE, b"a\n\n").0, [&b"a\n"[..], b"\n"]);
        // An opener on the last byte of a line without a newline still counts.
        let (_, states) = lines_and_states(&C_LIKE, b"x\ny = \"");
        assert_eq!(states[2], State::Code);
        let (_, states) = lines_and_states(&RUST, b"x\ny = \"");
        assert_eq!(states[2], State::Str(Quote::Double));
    }
}
