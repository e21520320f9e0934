//! Which lines of a Rust file are test code, whatever its layout: a walk of each side's
//! blocks over the lexer's code ([`SideWalk`]).
//!
//! A `{` opens a block that is test code when its parent is, or when a test attribute
//! (`#[test]`, `#[tokio::test]`, a `cfg` that holds only under test) or `mod tests` is
//! pending for the item it belongs to. Comments and literals never count (the lexer drops
//! them), so `r#"}"#`, `'{'` and `/* } */` do not unbalance the walk, and an attribute may
//! be split over lines, spaced with any whitespace Rust allows, or written through an alias
//! (`use core::prelude::v1::test as check;`). The doc comments' code examples (doctests,
//! which `cargo test` runs) are test code too.

use memchr::memmem;

use super::lex::{self, State, Syntax};
use super::neuter;
use super::pattern::{self, Pattern, Token};

/// Which lines of a Rust side `side` (split into `lines`) are test code: the lines of an item under a test
/// attribute (and all of that item's attribute lines), of a private `mod tests`/`mod test`,
/// of a `macro_rules!` whose body holds a test attribute (it defines tests), everything after
/// a `#![cfg(test)]` in the block or file it is in, and the lines of a doc comment's Rust
/// code example. A line counts if any of it is test code. A side with no test attribute
/// and no doc comment (it never says `test`, `quickcheck`, `parameterized`, `apply`, `doc`,
/// `///`, `//!`, `/**` or `/*!`) has none. The walk reads up to line `limit`, and on
/// while something it read waits for a later line ([`SideWalk`] reads on later).
#[cfg(test)]
pub(crate) fn rust_test_lines(
    syntax: &Syntax,
    tests: &'static [Pattern],
    side: &[u8],
    lines: &[&[u8]],
    limit: usize,
) -> RustLines {
    let mut walk = SideWalk::new(tests, side);
    walk.read(syntax, lines, limit);
    walk.found(lines.len())
}

/// The walk of [`rust_test_lines`] over one Rust side, which can stop after some line and
/// read on later from where it stopped. Two sides that start with the same lines walk them
/// alike, so a copy of one side's walk after them is the other's.
#[derive(Clone)]
pub(crate) struct SideWalk {
    walk: Walk,
    /// The side has nothing the walk looks for: it reads no line.
    idle: bool,
    /// The next line to read, and the lexer's state at its start.
    next: usize,
    state: State,
    /// Per line read: its [`DOCTEST`] and [`CODE_LINE`] bits, and whether its code is
    /// test code.
    bits: Vec<u8>,
    code_lines: Vec<bool>,
    /// The code of the line being read, when the lexer strips it.
    stripped: Vec<u8>,
}

impl SideWalk {
    /// A walk of the Rust side `side` (with the test attribute patterns `tests`) that has
    /// read no line yet.
    pub(crate) fn new(tests: &'static [Pattern], side: &[u8]) -> Self {
        let idle = [
            &b"test"[..],
            b"quickcheck",
            b"parameterized",
            b"apply",
            b"doc",
            b"///",
            b"//!",
            b"/**",
            b"/*!",
        ]
        .iter()
        .all(|needle| memmem::find(side, needle).is_none())
            && memmem::find(side, b"mod").is_none();
        Self {
            walk: Walk {
                tests,
                open: Vec::new(),
                file_test: false,
                pending: None,
                pending_macro: false,
                macro_name: None,
                test_macros: Vec::new(),
                calls: Vec::new(),
                call: None,
                last_ident: None,
                pending_module: false,
                pending_dead: false,
                module: None,
                modules: Vec::new(),
                nest: 0,
                attributes_from: None,
                inner_from: None,
                hash: Hash::None,
                attribute: Vec::new(),
                brackets: 0,
                aliases: std::collections::HashSet::new(),
                alias: Alias::None,
                docs: Docs::default(),
            },
            idle,
            next: 0,
            state: State::Code,
            bits: Vec::new(),
            code_lines: Vec::new(),
            stripped: Vec::new(),
        }
    }

    /// Whether the walk reads lines at all (the side may hold something it looks for).
    pub(crate) fn reads(&self) -> bool {
        !self.idle
    }

    /// The number of lines read.
    pub(crate) fn lines_read(&self) -> usize {
        self.next
    }

    /// Reads on through `lines` (the side's) up to line `limit`, and past it while
    /// something read waits for a later line (an item's attributes, an invocation).
    pub(crate) fn read(&mut self, syntax: &Syntax, lines: &[&[u8]], limit: usize) {
        if self.idle {
            return;
        }
        while let Some(&line) = lines.get(self.next) {
            if self.next > limit && self.walk.settled() {
                return;
            }
            self.read_line(syntax, line);
        }
    }

    /// Reads on through `lines` up to line `end` (not included).
    pub(crate) fn read_to(&mut self, syntax: &Syntax, lines: &[&[u8]], end: usize) {
        if self.idle {
            return;
        }
        while self.next < end
            && let Some(&line) = lines.get(self.next)
        {
            self.read_line(syntax, line);
        }
    }

    /// Reads on through `lines` until the side has declared every module of `names` out of
    /// line, or to its end: what is declared stays declared, so the rest cannot drop one.
    pub(crate) fn read_until_declared(
        &mut self,
        syntax: &Syntax,
        lines: &[&[u8]],
        names: &[&[u8]],
    ) {
        if self.idle {
            return;
        }
        let mut missing = names.to_vec();
        let mut checked = 0;
        loop {
            if let Some(declared) = self.walk.modules.get(checked..) {
                missing.retain(|name| !declared.iter().any(|module| module.name == *name));
            }
            checked = self.walk.modules.len();
            if missing.is_empty() {
                return;
            }
            let Some(&line) = lines.get(self.next) else {
                return;
            };
            self.read_line(syntax, line);
        }
    }

    /// Reads line `self.next`, `line`.
    fn read_line(&mut self, syntax: &Syntax, line: &[u8]) {
        let i = self.next;
        self.next += 1;
        let line = if i == 0 {
            line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line)
        } else {
            line
        };
        // A first line `#!…` that is not an attribute is a shebang, which rustc skips.
        if i == 0 && line.starts_with(b"#!") && !line[2..].trim_ascii_start().starts_with(b"[") {
            self.bits.push(0);
            self.code_lines.push(false);
            return;
        }
        // The line without its indentation, found once for all that reads it.
        let unindented = line.trim_ascii_start();
        let mut bits = 0;
        if self.walk.docs.line(line, unindented, self.state) {
            bits |= DOCTEST;
        }
        let before = self.state;
        let plain = lex::is_plain(self.state, line);
        let (code, indent): (&[u8], usize) = if plain {
            (line, line.len() - unindented.len())
        } else {
            self.stripped.clear();
            self.state = lex::strip_line(syntax, self.state, line, &mut self.stripped);
            (&self.stripped, 0)
        };
        let blank = if plain {
            unindented.is_empty()
        } else {
            code.trim_ascii().is_empty()
        };
        // A comment that stays a comment changes nothing that runs.
        if !blank || before != self.state || matches!(self.state, State::Str(_)) {
            bits |= CODE_LINE;
        }
        self.bits.push(bits);
        let test = self.walk.line(i, code, indent, &mut self.code_lines);
        self.code_lines.push(test);
    }

    /// What the walk found in a side of `len` lines, from the lines it has read: the bits of
    /// every line once it has read them all, else of the lines read (the others have none
    /// yet).
    pub(crate) fn found(&self, len: usize) -> RustLines {
        let walk = &self.walk;
        let complete = self.idle || self.next >= len;
        let known = if complete { len } else { self.next };
        let mut out = self.bits.clone();
        out.resize(known, 0);
        let mut code_lines = self.code_lines.clone();
        code_lines.resize(known, false);
        for (name, first, last) in &walk.calls {
            if walk.test_macros.contains(name) {
                // An invocation still open goes on to the end (of what is known).
                let last = last
                    .unwrap_or(len.saturating_sub(1))
                    .min(known.saturating_sub(1));
                if let Some(lines) = code_lines.get_mut(*first..=last) {
                    lines.fill(true);
                }
            }
        }
        for (bits, code) in out.iter_mut().zip(code_lines) {
            if code {
                *bits |= TEST_CODE;
            }
        }
        for module in &walk.modules {
            for bits in out.get_mut(module.decl..=module.end).into_iter().flatten() {
                *bits |= MODULE;
            }
            if module.attributed {
                for bits in out.get_mut(module.from..=module.end).into_iter().flatten() {
                    *bits |= MODULE_ATTRIBUTE;
                }
            }
        }
        RustLines {
            bits: out,
            complete,
            modules: walk
                .modules
                .iter()
                .map(|module| (module.name.clone(), module.from..module.end + 1))
                .collect(),
        }
    }
}

/// What [`rust_test_lines`] found in a side.
#[derive(Debug, Clone, Default)]
pub(crate) struct RustLines {
    /// Per line: [`TEST_CODE`], [`DOCTEST`], [`CODE_LINE`], [`MODULE`], [`MODULE_ATTRIBUTE`].
    pub bits: Vec<u8>,
    /// The modules the side declares out of line (`mod parse;`): each name, and the lines
    /// of its declaration (its attributes included).
    pub modules: Vec<(Vec<u8>, std::ops::Range<usize>)>,
    /// The walk read the whole side (not only up to the lines asked about).
    pub complete: bool,
}

/// A line's bit in [`RustLines`]: it declares a module out of line (`mod parse;`),
/// whose file's tests build only while it does.
pub(crate) const MODULE: u8 = 8;
/// A line's bit in [`RustLines`]: it is a line of an out-of-line module's
/// declaration with attributes (`#[cfg(feature = "parse")]` over `mod parse;` builds its
/// tests only with the feature; `#[path = "…"] mod parse;` builds another file).
pub(crate) const MODULE_ATTRIBUTE: u8 = 16;

/// A line's bit in [`RustLines`]: it is (partly) in test code.
pub(crate) const TEST_CODE: u8 = 1;
/// A line's bit in [`RustLines`]: it holds code, or opens or closes a comment or a
/// string, or is inside a string: it is not only a comment.
pub(crate) const CODE_LINE: u8 = 4;
/// A line's bit in [`RustLines`]: it is a line of a doc example (a doctest), or a
/// fence or HTML comment that may make one.
pub(crate) const DOCTEST: u8 = 2;

/// An out-of-line module declaration (`#[cfg(…)] mod parse;`).
#[derive(Debug, Clone)]
struct ModuleDeclaration {
    name: Vec<u8>,
    /// The first line of its attributes, the line of its `mod`, and the line of its `;`.
    from: usize,
    decl: usize,
    end: usize,
    /// It has attributes (`#[cfg(feature = "parse")]`, `#[path = "…"]`), maybe on its own
    /// line.
    attributed: bool,
}

/// A block open at some point of the walk.
#[derive(Debug, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts about one block, each read in one place"
)]
struct Block {
    /// Its code only builds or runs under test.
    test: bool,
    /// The line it opens on.
    start: usize,
    /// It is the body of a `macro_rules!`.
    macro_rules: bool,
    /// A test attribute is in it (for a `macro_rules!`: the macro defines tests).
    names_test: bool,
    /// The `(`/`[` depth of the enclosing block where it opened.
    nest: u32,
    /// It is a module's body (or a macro's): items, not statements.
    module: bool,
    /// For a `macro_rules!` body, the macro's name.
    name: Option<Vec<u8>>,
    /// No build compiles it (`#[cfg(any())] mod off { … }`, or inside such a block).
    dead: bool,
}

/// A test attribute seen, for the item whose `{` comes next.
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// How many blocks were open where it was seen: a `}` that closes one of them ends it.
    depth: usize,
    /// The `(`/`[` depth it was seen at: a `,` there ends it (an attribute of a field, a
    /// variant, a parameter or a match arm), unless an item keyword came after it.
    nest: u32,
    /// An item keyword (`fn`, `mod`, `impl`…) came after it: a `,` is in the item's
    /// header (`fn t<A, B>()`, a `where` clause) and ends nothing.
    item: bool,
    /// The `<` of generics open in the item's header: a `{` there (`impl F<{ 2 }>`) is not
    /// the item's body.
    angle: u32,
}

/// Where the walk is in reading `#`, `!` and `[`, which may be spread over lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hash {
    None,
    /// After `#`.
    Outer,
    /// After `#!`.
    Inner,
}

/// Where the walk is in reading `test as NAME` (a `use` that renames the test attribute).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Alias {
    None,
    /// After `test`.
    Test,
    /// After `test as`.
    As,
}

/// The walk of [`rust_test_lines`] between two lines.
#[derive(Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts about the item being read, each set and read in one place"
)]
struct Walk {
    tests: &'static [Pattern],
    /// The blocks open, innermost last.
    open: Vec<Block>,
    /// A `#![cfg(test)]` outside any block: the rest of the file is test code.
    file_test: bool,
    pending: Option<Pending>,
    /// A `macro_rules` seen, for the `{` that comes next, and the name after its `!`.
    pending_macro: bool,
    macro_name: Option<Vec<u8>>,
    /// The macros of this side that define tests (a `macro_rules!` whose body holds a test
    /// attribute).
    test_macros: Vec<Vec<u8>>,
    /// Macro invocations at item level (`check!(case, 1, 2);` in a module): name, first
    /// line, and last line once known.
    calls: Vec<(Vec<u8>, usize, Option<usize>)>,
    /// The invocation being read: its index in `calls`, and how many blocks were open
    /// where it started.
    call: Option<(usize, usize)>,
    /// The identifier just read, when it may name a macro being invoked.
    last_ident: Option<(Vec<u8>, usize)>,
    /// A `mod` seen, for the `{` that comes next.
    pending_module: bool,
    /// A `cfg` that no build satisfies seen, for the item that comes next.
    pending_dead: bool,
    /// The module whose `mod` was just read, and its line: a `;` makes it out of line.
    module: Option<(Vec<u8>, usize)>,
    /// The modules declared out of line.
    modules: Vec<ModuleDeclaration>,
    /// `(` and `[` open in the current block: a `;` inside them (`[u8; 2]`) ends no item.
    nest: u32,
    /// The first line of the attributes of the item being read.
    attributes_from: Option<usize>,
    /// The first line of the inner attribute being read (`#![…]`).
    inner_from: Option<usize>,
    hash: Hash,
    /// The attribute being read (from its `#` to its `]`, across lines), and its `[` depth
    /// (0: none is being read).
    attribute: Vec<u8>,
    brackets: u32,
    /// Names a `use … test as NAME;` gave the test attribute.
    aliases: std::collections::HashSet<Vec<u8>>,
    alias: Alias,
    /// Where the walk is in the doc comments.
    docs: Docs,
}

/// A byte the walk passes over.
const SKIP: u8 = 0;
/// A byte of an identifier ([`lex::is_ident_byte`]).
const IDENT: u8 = 1;
/// A byte the walk reads: `#`, `!`, a bracket, `<`, `>`, `;` or `,`.
const READ: u8 = 2;
/// The first byte of a character that may be whitespace to Rust (U+0085, U+200E, U+200F,
/// U+2028, U+2029).
const WIDE: u8 = 3;

/// The class of each byte of code.
const CLASSES: [u8; 256] = {
    let mut table = [SKIP; 256];
    let mut byte = 0;
    while byte < 256 {
        #[expect(clippy::cast_possible_truncation, reason = "byte < 256")]
        let b = byte as u8;
        if b == 0xC2 || b == 0xE2 {
            table[byte] = WIDE;
        } else if lex::is_ident_byte(b) {
            table[byte] = IDENT;
        } else if matches!(
            b,
            b'#' | b'!' | b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b',' | b'<' | b'>'
        ) {
            table[byte] = READ;
        }
        byte += 1;
    }
    table
};

/// A byte that changes nothing in a simple stretch of code ([`Walk::line_simple`]).
const PASS: u8 = 0;
/// A bracket or `;`, which [`Walk::punct`] reads.
const BRACKET: u8 = 1;
/// The first byte of `test`, `mod` or `macro_rules`.
const KEYWORD: u8 = 2;
/// `#`, `!`, or the first byte of a character that may be whitespace to Rust: the stretch
/// ends.
const STOP: u8 = 3;

/// The class of each byte of code in a simple stretch ([`Walk::line_simple`]).
const SIMPLE: [u8; 256] = {
    let mut table = [PASS; 256];
    let mut byte = 0;
    while byte < 256 {
        #[expect(clippy::cast_possible_truncation, reason = "byte < 256")]
        let b = byte as u8;
        table[byte] = match b {
            b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' => BRACKET,
            b't' | b'm' => KEYWORD,
            b'#' | b'!' | 0xC2 | 0xE2 => STOP,
            _ => PASS,
        };
        byte += 1;
    }
    table
};

/// The length of the whitespace character Rust allows that starts `code` and is not ASCII
/// (U+0085 NEXT LINE, U+200E and U+200F marks, U+2028 and U+2029 separators), else 0.
fn wide_space(code: &[u8]) -> usize {
    match code {
        [0xC2, 0x85, ..] => 2,
        [0xE2, 0x80, 0x8E | 0x8F | 0xA8 | 0xA9, ..] => 3,
        _ => 0,
    }
}

/// Whether `byte` is ASCII whitespace to Rust (vertical tab and form feed included).
fn ascii_space(byte: u8) -> bool {
    byte.is_ascii_whitespace() || byte == 0x0B
}

/// `code` with every whitespace character Rust allows written as one space, and raw
/// identifiers (`r#test`) and a path's leading `::` (`#[::core::prelude::v1::test]`)
/// written plainly, for tokenizing an attribute.
fn plain_attribute(code: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(code.len());
    let mut i = 0;
    while i < code.len() {
        let wide = wide_space(&code[i..]);
        if wide > 0 {
            out.push(b' ');
            i += wide;
            continue;
        }
        let byte = code[i];
        let starts_ident = out.last().is_none_or(|&last| !lex::is_ident_byte(last));
        if byte == b'r'
            && starts_ident
            && code.get(i + 1) == Some(&b'#')
            && code.get(i + 2).is_some_and(|&b| lex::is_ident_byte(b))
        {
            i += 2;
            continue;
        }
        if byte == b':'
            && code.get(i + 1) == Some(&b':')
            && matches!(
                out.iter().rev().find(|b| !ascii_space(**b)),
                Some(b'[' | b'(' | b',')
            )
        {
            i += 2;
            continue;
        }
        out.push(if ascii_space(byte) { b' ' } else { byte });
        i += 1;
    }
    out
}

/// The words of a doc example's fence (```` ```no_run ````) that keep it a Rust example
/// that `cargo test` builds or runs; with `rust` among them, any other word does.
const RUST_FENCE_WORDS: &[&str] = &[
    "rust",
    "no_run",
    "should_panic",
    "compile_fail",
    "ignore",
    "test_harness",
    "standalone_crate",
    "edition2015",
    "edition2018",
    "edition2021",
    "edition2024",
];

/// A code block open in a doc comment.
#[derive(Debug, Clone, Copy)]
struct Fence {
    /// `` ` `` or `~`, and how many open it: a run of at least as many closes it.
    byte: u8,
    len: usize,
    /// Its code is Rust.
    rust: bool,
}

/// Where the walk is in the doc comments (`///`, `//!`, `/** */`, `/*! */`, and
/// one-line `#[doc = "…"]`), whose Rust code examples `cargo test` runs as doctests.
#[derive(Debug, Clone, Default)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent states of the doc comment being read, each read in one place"
)]
struct Docs {
    fence: Option<Fence>,
    /// Inside a `/** … */` or `/*! … */` doc comment.
    block: bool,
    /// The last doc line was blank (an indented code block may start after it).
    blank: bool,
    /// The last doc line was in an indented code block.
    indented: bool,
    /// Inside the string of a `#[doc = "…"]` that spans lines.
    string: bool,
}

/// Where `needle` (not empty) first occurs in `haystack`, a line or less: a scan for its
/// first byte, which costs less than setting up a [`memmem`] search for one short line.
fn find_short(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    memchr::memchr_iter(first, haystack).find(|&at| haystack[at + 1..].starts_with(rest))
}

impl Docs {
    /// Follows line `line` (`trimmed` without its indentation), which starts in lexer state
    /// `state`; returns whether it is part of a doc example, counting every fence line
    /// (```` ```text ```` above an example turns it into prose), and a doc line with an HTML
    /// comment (`<!--` hides an example).
    fn line(&mut self, line: &[u8], trimmed: &[u8], state: State) -> bool {
        // Most lines are code that starts with neither `/` nor `#`: no doc line, and the
        // end of any doc comment above (a blank line ends nothing).
        if !self.string && !self.block && state == State::Code {
            match trimmed.first() {
                Some(b'/' | b'#') => {}
                Some(_) => {
                    self.fence = None;
                    self.blank = false;
                    self.indented = false;
                    return false;
                }
                None => return false,
            }
        }
        let Some(text) = self.text(line, trimmed, state) else {
            // Doc comments go on over blank lines, attributes and other comments.
            if !(trimmed.is_empty() || trimmed.starts_with(b"#") || trimmed.starts_with(b"//")) {
                self.fence = None;
                self.blank = false;
                self.indented = false;
            }
            return false;
        };
        // The one space after `///` is the comment's, not the text's.
        let text = text.strip_prefix(b" ").unwrap_or(text);
        let mut quoted = text;
        while let Some(rest) = quoted.trim_ascii_start().strip_prefix(b">") {
            quoted = rest;
        }
        let trimmed = quoted.trim_ascii();
        let html = find_short(trimmed, b"<!--").is_some() || find_short(trimmed, b"-->").is_some();
        let run = |byte: u8| trimmed.iter().take_while(|&&b| b == byte).count();
        let (ticks, tildes) = (run(b'`'), run(b'~'));
        let opener = if ticks >= 3 {
            Some((b'`', ticks))
        } else if tildes >= 3 {
            Some((b'~', tildes))
        } else {
            None
        };
        if let Some(open) = self.fence {
            let closes = opener.is_some_and(|(byte, len)| {
                byte == open.byte && len >= open.len && trimmed[len..].trim_ascii().is_empty()
            });
            if closes {
                self.fence = None;
            }
            self.blank = false;
            // A comment in an example runs nothing (an assertion commented out still
            // counts: its old line was code).
            return closes || (open.rust && !trimmed.starts_with(b"//"));
        }
        if let Some((byte, len)) = opener {
            let info = String::from_utf8_lossy(&trimmed[len..]);
            let words: Vec<&str> = info
                .split([',', ' ', '\t', '{', '}', '.'])
                .filter(|word| !word.is_empty())
                .collect();
            let rust = words.contains(&"rust")
                || words
                    .iter()
                    .all(|word| RUST_FENCE_WORDS.contains(word) || word.starts_with("ignore-"));
            // Any fence line counts; the lines of a fence of another language do not.
            self.fence = Some(Fence { byte, len, rust });
            self.blank = false;
            self.indented = false;
            return true;
        }
        let blank = trimmed.is_empty();
        let indented = !blank
            && (text.starts_with(b"    ") || text.starts_with(b"\t"))
            && (self.blank || self.indented);
        self.indented = indented;
        self.blank = blank;
        indented || html
    }

    /// The text of a doc line, when `line` (`trimmed` without its indentation, starting in
    /// `state`) is one.
    fn text<'l>(&mut self, line: &'l [u8], trimmed: &'l [u8], state: State) -> Option<&'l [u8]> {
        if self.string {
            if !matches!(state, State::Str(_)) {
                self.string = false;
                return None;
            }
            if let Some(end) = memchr::memchr(b'"', line) {
                self.string = false;
                return Some(&line[..end]);
            }
            return Some(line);
        }
        if self.block {
            if !matches!(state, State::Block(_)) {
                self.block = false;
                return None;
            }
            let text = trimmed
                .strip_prefix(b"*")
                .filter(|text| !text.starts_with(b"/"))
                .unwrap_or(trimmed);
            if let Some(end) = find_short(text, b"*/") {
                self.block = false;
                return Some(&text[..end]);
            }
            return Some(text);
        }
        if state != State::Code {
            return None;
        }
        if let Some(text) = trimmed
            .strip_prefix(b"///")
            .filter(|text| !text.starts_with(b"/"))
            .or_else(|| trimmed.strip_prefix(b"//!"))
        {
            return Some(text);
        }
        if let Some(text) = trimmed
            .strip_prefix(b"/**")
            .filter(|text| !text.starts_with(b"*") && !text.starts_with(b"/"))
            .or_else(|| trimmed.strip_prefix(b"/*!"))
        {
            if let Some(end) = find_short(text, b"*/") {
                return Some(&text[..end]);
            }
            self.block = true;
            return Some(text);
        }
        // `#[doc = "…"]` on one line: the string's text.
        let rest = trimmed.strip_prefix(b"#")?.trim_ascii_start();
        let rest = rest.strip_prefix(b"!").unwrap_or(rest).trim_ascii_start();
        let rest = rest
            .strip_prefix(b"[")?
            .trim_ascii_start()
            .strip_prefix(b"doc")?;
        let rest = rest
            .trim_ascii_start()
            .strip_prefix(b"=")?
            .trim_ascii_start();
        let rest = rest.strip_prefix(b"\"")?;
        if let Some(end) = memchr::memrchr(b'"', rest) {
            return Some(&rest[..end]);
        }
        self.string = true;
        Some(rest)
    }
}

impl Walk {
    /// Nothing read waits for a later line to be decided: no attribute or `#` being read,
    /// no item's attributes before their item, no invocation or `macro_rules!` open (its
    /// lines are test code if its body turns out to hold a test attribute).
    fn settled(&self) -> bool {
        self.attributes_from.is_none()
            && self.inner_from.is_none()
            && self.brackets == 0
            && self.hash == Hash::None
            && self.call.is_none()
            && !self.pending_macro
            && !self.open.iter().any(|block| block.macro_rules)
    }

    fn in_test(&self) -> bool {
        self.file_test || self.open.last().is_some_and(|block| block.test)
    }

    /// Walks the code of line `i`, whose first `indent` bytes are ASCII whitespace; returns
    /// whether any of it is test code. A `macro_rules!` that ends here and defines tests
    /// marks its earlier lines in `out`; a test attribute marks the attribute lines of its
    /// item above it.
    fn line(&mut self, i: usize, code: &[u8], indent: usize, out: &mut [bool]) -> bool {
        // The lines of an attribute being read count once it ends as a test attribute.
        let mut line_test = self.in_test() || self.pending.is_some();
        let mut j = if self.simple() {
            self.line_simple(i, code, indent, out, &mut line_test)
        } else {
            0
        };
        while j < code.len() {
            if self.brackets > 0 {
                // An attribute being read takes every byte, and only a bracket can end it.
                let rest = &code[j..];
                let Some(at) = memchr::memchr2(b'[', b']', rest) else {
                    self.attribute.extend_from_slice(rest);
                    break;
                };
                self.attribute.extend_from_slice(&rest[..at]);
                j += at;
                if self.attribute_byte(code[j]) {
                    line_test = true;
                    if let Some(from) = self.inner_from.or(self.attributes_from) {
                        out[from..i].fill(true);
                    }
                }
                if self.brackets == 0 {
                    self.inner_from = None;
                }
                j += 1;
                continue;
            }
            // Whitespace and the punctuation the walk passes over, at once.
            let Some(skipped) = code[j..]
                .iter()
                .position(|&b| CLASSES[usize::from(b)] != SKIP)
            else {
                break;
            };
            j += skipped;
            let byte = code[j];
            let class = CLASSES[usize::from(byte)];
            if class == WIDE {
                let wide = wide_space(&code[j..]);
                if wide > 0 {
                    j += wide;
                    continue;
                }
            }
            if self.hash != Hash::None
                && let Some(taken) = self.after_hash(&code[j..], i)
            {
                j += taken;
                continue;
            }
            if class == IDENT || class == WIDE {
                let ident_end = |from: usize| {
                    from + code[from..]
                        .iter()
                        .position(|&b| CLASSES[usize::from(b)] != IDENT)
                        .unwrap_or(code.len() - from)
                };
                let mut start = j;
                let mut end = ident_end(j + 1);
                // `r#test`: the identifier after `r#`.
                if &code[j..end] == b"r"
                    && code.get(end) == Some(&b'#')
                    && code
                        .get(end + 1)
                        .is_some_and(|&b| CLASSES[usize::from(b)] == IDENT)
                {
                    start = end + 1;
                    end = ident_end(start);
                }
                if self.ident(&code[..j], &code[start..end], &code[end..], i) {
                    line_test = true;
                    if let Some(from) = self.attributes_from {
                        out[from..i].fill(true);
                    }
                }
                j = end;
            } else {
                let previous = if j > 0 { code[j - 1] } else { 0 };
                line_test |= self.punct(byte, previous, i, out);
                j += 1;
            }
        }
        line_test
    }

    /// Nothing waits for an identifier: no attribute or `#` being read, no alias, test
    /// attribute, `macro_rules!` or invocation's name pending. Then, until a `#`, a `!` or
    /// one of `test`, `mod` and `macro_rules`, an identifier changes nothing, and neither do
    /// `<`, `>` and `,`.
    fn simple(&self) -> bool {
        self.brackets == 0
            && self.hash == Hash::None
            && self.alias == Alias::None
            && self.pending.is_none()
            && !self.pending_macro
            && self.last_ident.is_none()
    }

    /// Reads the code of line `i` from its start (after its whitespace `indent`) as
    /// [`Walk::line`] does, in a walk that is [`Walk::simple`], passing over all but
    /// brackets and `;` (which keep it simple); sets
    /// `line_test` when one opens a test block or closes a macro that defines tests.
    /// Returns where reading token by token goes on: at the identifier before a `#` or `!`
    /// (`r#test`, `name!`), at `test`, `mod` or `macro_rules`, at a character that may be
    /// whitespace, or at the end.
    fn line_simple(
        &mut self,
        i: usize,
        code: &[u8],
        indent: usize,
        out: &mut [bool],
        line_test: &mut bool,
    ) -> usize {
        let is_ident = |byte: u8| CLASSES[usize::from(byte)] == IDENT;
        let mut j = indent;
        // The bytes passed over, at once.
        while let Some(skipped) = code
            .get(j..)
            .and_then(|rest| rest.iter().position(|&b| SIMPLE[usize::from(b)] != PASS))
        {
            j += skipped;
            let byte = code[j];
            let previous = if j > 0 { code[j - 1] } else { 0 };
            match SIMPLE[usize::from(byte)] {
                // As [`Walk::punct`] reads them with nothing pending.
                BRACKET => match byte {
                    b'(' | b'[' => self.nest += 1,
                    b')' | b']' => self.nest = self.nest.saturating_sub(1),
                    _ => *line_test |= self.punct(byte, previous, i, out),
                },
                KEYWORD => {
                    let rest = &code[j..];
                    let keyword = |word: &[u8]| {
                        rest.starts_with(word) && rest.get(word.len()).is_none_or(|&b| !is_ident(b))
                    };
                    if !is_ident(previous)
                        && (keyword(b"test") || keyword(b"mod") || keyword(b"macro_rules"))
                    {
                        return j;
                    }
                }
                _ => {
                    // Back over the whitespace and identifier before it: they are read
                    // with it.
                    let before = code[..j].trim_ascii_end();
                    let start = before
                        .iter()
                        .rposition(|&b| !is_ident(b))
                        .map_or(0, |at| at + 1);
                    return start;
                }
            }
            j += 1;
        }
        code.len()
    }

    /// The byte after a `#` or `#!`, at the start of `code`: `!` or `[` goes on reading the
    /// attribute (returns how many bytes it took), anything else ends it (`None`: the byte
    /// is read as usual).
    fn after_hash(&mut self, code: &[u8], i: usize) -> Option<usize> {
        match (self.hash, code.first()) {
            (Hash::Outer, Some(b'!')) => {
                self.hash = Hash::Inner;
                Some(1)
            }
            (_, Some(b'[')) => {
                self.attribute.clear();
                self.attribute.extend_from_slice(match self.hash {
                    Hash::Inner => b"#![",
                    _ => b"#[",
                });
                // An inner attribute is its block's, not the next item's.
                if self.hash == Hash::Inner {
                    self.inner_from = Some(i);
                } else {
                    self.attributes_from.get_or_insert(i);
                }
                self.hash = Hash::None;
                self.brackets = 1;
                Some(1)
            }
            _ => {
                self.hash = Hash::None;
                None
            }
        }
    }

    /// One byte of an attribute being read; returns whether the attribute ends here and is
    /// a test attribute.
    fn attribute_byte(&mut self, byte: u8) -> bool {
        self.attribute.push(byte);
        match byte {
            b'[' => self.brackets += 1,
            b']' => self.brackets -= 1,
            _ => {}
        }
        if self.brackets > 0 {
            return false;
        }
        let code = plain_attribute(&self.attribute);
        let mut tokens = Vec::new();
        pattern::tokenize(&code, &mut tokens);
        let inner = tokens.get(1) == Some(&Token::Punct(b'!'));
        if !inner && never_built(&tokens) {
            self.pending_dead = true;
        }
        if !self.test_attribute(&tokens) {
            // A setting of doctests (`#![doc(test(attr(deny(warnings))))]`,
            // `#[cfg(not(doctest))]`) is a test change on its own lines.
            return test_setting(&tokens);
        }
        if inner {
            match self.open.last_mut() {
                Some(block) => block.test = true,
                None => self.file_test = true,
            }
        } else {
            self.pending = Some(Pending {
                depth: self.open.len(),
                nest: self.nest,
                item: false,
                angle: 0,
            });
        }
        if let Some(block) = self.open.last_mut() {
            block.names_test = true;
        }
        true
    }

    /// Whether an attribute (its tokens, `#` to `]`, spaces plain) says the item below it
    /// only builds or runs under test: a test attribute (the `tests` patterns, or a name a
    /// `use … test as NAME` gave it), a `cfg` that names `test` and holds in some test build
    /// but in no other, or a `cfg_attr` that applies either.
    fn test_attribute(&self, tokens: &[Token<'_>]) -> bool {
        attribute_body(tokens).is_some_and(|body| self.test_meta(body))
    }

    /// [`Walk::test_attribute`] of an attribute's content (`cfg(test)`, `tokio::test`).
    fn test_meta(&self, meta: &[Token<'_>]) -> bool {
        match meta {
            [
                Token::Ident(b"cfg"),
                Token::Punct(b'('),
                predicate @ ..,
                Token::Punct(b')'),
            ] => only_under_test(predicate, None),
            [Token::Ident(b"cfg_attr"), ..] => {
                let Some((predicate, attributes)) = neuter::cfg_attr_split(meta, 1) else {
                    return false;
                };
                attributes.iter().any(|attribute| match attribute {
                    // `cfg_attr(P, cfg(Q))`: present where `not(P)` or `Q` holds.
                    [
                        Token::Ident(b"cfg"),
                        Token::Punct(b'('),
                        inner @ ..,
                        Token::Punct(b')'),
                    ] => only_under_test(inner, Some(predicate)),
                    _ => self.test_meta(attribute),
                })
            }
            [Token::Ident(name), ..] if self.aliases.contains(*name) => true,
            _ => {
                let mut tokens = vec![Token::Punct(b'#'), Token::Punct(b'[')];
                tokens.extend_from_slice(meta);
                tokens.push(Token::Punct(b']'));
                pattern::count(self.tests, &tokens, false) > 0
            }
        }
    }

    /// An identifier (`before` and `rest` are the code around it on its line); returns
    /// whether it makes the item it starts test code (a private `mod tests`).
    fn ident(&mut self, before: &[u8], ident: &[u8], rest: &[u8], i: usize) -> bool {
        let bang = rest.trim_ascii_start().first() == Some(&b'!');
        // Most identifiers change nothing but end the one read before them.
        if !bang
            && self.alias == Alias::None
            && self.pending.is_none()
            && !self.pending_macro
            && !matches!(ident, b"test" | b"mod" | b"macro_rules")
        {
            self.last_ident = None;
            return false;
        }
        // An invocation at item level (`name!` at the top of a module, outside any
        // invocation): its lines are test code if the macro turns out to define tests.
        let item_level = self.nest == 0
            && self.call.is_none()
            && self.open.last().is_none_or(|block| block.module);
        self.last_ident =
            (item_level && bang && ident != b"macro_rules").then(|| (ident.to_vec(), i));
        self.alias = match (self.alias, ident) {
            (_, b"test") => Alias::Test,
            (Alias::Test, b"as") => Alias::As,
            (Alias::As, name) => {
                self.aliases.insert(name.to_vec());
                Alias::None
            }
            _ => Alias::None,
        };
        if let Some(pending) = &mut self.pending
            && matches!(
                ident,
                b"fn"
                    | b"mod"
                    | b"impl"
                    | b"struct"
                    | b"enum"
                    | b"union"
                    | b"trait"
                    | b"const"
                    | b"static"
                    | b"type"
                    | b"use"
                    | b"extern"
                    | b"macro_rules"
            )
        {
            pending.item = true;
        }
        match ident {
            b"mod" => {
                self.pending_module = true;
                let rest = plain_attribute(rest);
                let rest = rest.trim_ascii_start();
                let name = &rest[..rest
                    .iter()
                    .position(|&b| !lex::is_ident_byte(b))
                    .unwrap_or(rest.len())];
                let name = name.strip_prefix(b"r#").unwrap_or(name);
                self.module = Some((name.to_vec(), i));
                let before = before.trim_ascii_end();
                let public = before.ends_with(b"pub") || before.ends_with(b")");
                if matches!(name, b"tests" | b"test") && !public {
                    self.pending = Some(Pending {
                        depth: self.open.len(),
                        nest: self.nest,
                        item: true,
                        angle: 0,
                    });
                    return true;
                }
            }
            b"macro_rules" => self.pending_macro = true,
            _ if self.pending_macro && self.macro_name.is_none() => {
                self.macro_name = Some(ident.to_vec());
            }
            _ => {}
        }
        false
    }

    /// A `#`, `!`, bracket, `;` or `,` on line `i`; returns whether it opens a test block
    /// or closes a macro that defines tests.
    fn punct(&mut self, byte: u8, previous: u8, i: usize, out: &mut [bool]) -> bool {
        if byte != b'!' {
            self.last_ident = None;
        }
        match byte {
            b'#' => self.hash = Hash::Outer,
            b'!' => {
                if let Some((name, line)) = self.last_ident.take() {
                    self.call = Some((self.calls.len(), self.open.len()));
                    self.calls.push((name, line, None));
                }
            }
            b'{' => return self.open_block(i),
            b'}' => return self.close_block(i, out),
            b'<' => {
                if let Some(pending) = self.pending.as_mut().filter(|pending| pending.item) {
                    pending.angle += 1;
                }
            }
            // Not the `>` of `->` or `=>`.
            b'>' if !matches!(previous, b'-' | b'=') => {
                if let Some(pending) = self.pending.as_mut() {
                    pending.angle = pending.angle.saturating_sub(1);
                }
            }
            b'(' | b'[' => self.nest += 1,
            b')' | b']' => {
                self.nest = self.nest.saturating_sub(1);
                if self.pending.is_some_and(|pending| pending.nest > self.nest) {
                    self.end_item();
                }
            }
            b';' if self.nest == 0
                && self
                    .pending
                    .is_none_or(|pending| pending.depth == self.open.len()) =>
            {
                self.end_statement(i);
            }
            b',' if self.pending.is_some_and(|pending| {
                !pending.item && pending.nest == self.nest && pending.depth == self.open.len()
            }) =>
            {
                self.end_item();
            }
            _ => {}
        }
        false
    }

    /// A `{` on line `i`; returns whether the block it opens is test code.
    fn open_block(&mut self, i: usize) -> bool {
        let test = self.in_test() || self.pending.is_some();
        self.open.push(Block {
            test,
            start: i,
            macro_rules: self.pending_macro,
            names_test: false,
            nest: self.nest,
            module: self.pending_module || self.pending_macro,
            name: self.macro_name.take(),
            dead: self.pending_dead || self.open.last().is_some_and(|block| block.dead),
        });
        // A `{` inside the item's header (`-> [u8; { 1 }]`, `where [(); { N }]:`, `impl
        // F<{ 2 }>`) is not its body.
        if self.nest == 0 && self.pending.is_none_or(|pending| pending.angle == 0) {
            self.pending = None;
            self.attributes_from = None;
        }
        self.pending_macro = false;
        self.pending_module = false;
        self.pending_dead = false;
        self.module = None;
        self.nest = 0;
        test
    }

    /// A `}` on line `i`; returns whether it closes a macro that defines tests (whose lines
    /// it marks in `out`).
    fn close_block(&mut self, i: usize, out: &mut [bool]) -> bool {
        if let Some(block) = self.open.pop() {
            self.nest = block.nest;
            if let Some(parent) = self.open.last_mut() {
                parent.names_test |= block.names_test;
            }
            if let Some((call, depth)) = self.call
                && depth == self.open.len()
                && self.nest == 0
            {
                // `name! { … }` ends with its block.
                self.calls[call].2 = Some(i);
                self.call = None;
            }
            if block.macro_rules && block.names_test && !block.test {
                if let Some(name) = block.name {
                    self.test_macros.push(name);
                }
                out[block.start..i].fill(true);
                self.end_item();
                return true;
            }
        }
        // What was pending inside the block ends with it; a `{ … }` in an item's header
        // (`-> [u8; { 1 }]`) leaves the item's attributes pending.
        if self
            .pending
            .is_none_or(|pending| pending.depth > self.open.len())
        {
            self.end_item();
        }
        false
    }

    /// A `;` that ends an item or statement on line `i`: an invocation ends, and a `mod`
    /// read is an out-of-line module's declaration.
    fn end_statement(&mut self, i: usize) {
        if let Some((call, depth)) = self.call
            && depth == self.open.len()
        {
            self.calls[call].2 = Some(i);
            self.call = None;
        }
        // Only a declaration some build compiles declares a module: not one in a
        // `macro_rules!` body or under a `cfg` no build satisfies.
        let live = !self.pending_dead
            && !self
                .open
                .iter()
                .any(|block| block.dead || block.macro_rules);
        if let Some((name, decl)) = self.module.take().filter(|_| live) {
            self.modules.push(ModuleDeclaration {
                name,
                from: self.attributes_from.unwrap_or(decl).min(decl),
                decl,
                end: i,
                attributed: self.attributes_from.is_some(),
            });
        }
        self.end_item();
    }

    /// The item being read ends: nothing is pending for the next one.
    fn end_item(&mut self) {
        self.pending = None;
        self.pending_macro = false;
        self.macro_name = None;
        self.pending_module = false;
        self.pending_dead = false;
        self.module = None;
        self.attributes_from = None;
    }
}

/// The content of an attribute (its tokens, `#[` or `#![` to `]`): `cfg(test)` of
/// `#[cfg(test)]`.
fn attribute_body<'t, 'a>(tokens: &'t [Token<'a>]) -> Option<&'t [Token<'a>]> {
    let ([
        Token::Punct(b'#'),
        Token::Punct(b'!'),
        Token::Punct(b'['),
        body @ ..,
    ]
    | [Token::Punct(b'#'), Token::Punct(b'['), body @ ..]) = tokens
    else {
        return None;
    };
    Some(body.strip_suffix(&[Token::Punct(b']')]).unwrap_or(body))
}

/// Whether an attribute (its tokens) is a `cfg` that no build satisfies, test or not
/// (`#[cfg(any())]`).
fn never_built(tokens: &[Token<'_>]) -> bool {
    match attribute_body(tokens) {
        Some(
            [
                Token::Ident(b"cfg"),
                Token::Punct(b'('),
                predicate @ ..,
                Token::Punct(b')'),
            ],
        ) => {
            neuter::cfg_value_when(predicate, true) == Some(false)
                && neuter::cfg_value_when(predicate, false) == Some(false)
        }
        _ => false,
    }
}

/// Whether an attribute (its tokens) sets how doctests run: `doc(test(…))`, or a `cfg` or
/// `cfg_attr` that names `doctest`.
fn test_setting(tokens: &[Token<'_>]) -> bool {
    let Some(body) = attribute_body(tokens) else {
        return false;
    };
    match body {
        [
            Token::Ident(b"doc"),
            Token::Punct(b'('),
            Token::Ident(b"test"),
            ..,
        ] => true,
        [Token::Ident(b"cfg" | b"cfg_attr"), rest @ ..] => rest.contains(&Token::Ident(b"doctest")),
        _ => false,
    }
}

/// Whether a `cfg` predicate that names `test` keeps an item out of every build but test
/// builds: it may hold when `test` is set and cannot when it is not. Code under
/// `cfg(any(test, feature = "std"))` is library code too. With `unless`
/// (`cfg_attr(unless, cfg(predicate))`), the item is present where `unless` does not hold
/// or the predicate does.
fn only_under_test(predicate: &[Token<'_>], unless: Option<&[Token<'_>]>) -> bool {
    let names_test = |tokens: &[Token<'_>]| tokens.contains(&Token::Ident(b"test"));
    if !names_test(predicate) && !unless.is_some_and(names_test) {
        return false;
    }
    let present = |test: bool| {
        let value = neuter::cfg_value_when(predicate, test);
        match unless {
            None => value,
            Some(unless) => match (neuter::cfg_value_when(unless, test), value) {
                (Some(false), _) | (_, Some(true)) => Some(true),
                (Some(true), value) => value,
                (None, _) => None,
            },
        }
    };
    present(false) == Some(false) && present(true) != Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tamper::rust;

    fn lines(text: &str) -> Vec<&[u8]> {
        text.lines().map(str::as_bytes).collect()
    }

    /// The 1-based numbers of the lines of `text` that are test code or a doctest and
    /// that `keep` keeps.
    fn test_lines_where(text: &str, keep: impl Fn(&[u8]) -> bool) -> Vec<usize> {
        let side = lines(text);
        let found = rust_test_lines(
            &rust::TABLE.syntax,
            rust::TABLE.tests,
            text.as_bytes(),
            &side,
            usize::MAX,
        );
        (0..side.len())
            .filter(|&i| found.bits[i] & (TEST_CODE | DOCTEST) != 0 && keep(side[i]))
            .map(|i| i + 1)
            .collect()
    }

    fn rust_tests(text: &str) -> Vec<usize> {
        test_lines_where(text, |_| true)
    }

    fn asserts_in_tests(text: &str) -> Vec<usize> {
        test_lines_where(text, |line| line.trim_ascii_start().starts_with(b"assert"))
    }

    const NONE: [usize; 0] = [];

    #[test]
    fn rust_lines_in_test_items() {
        let text = "fn lib() {\n    assert!(x);\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert!(y);\n    }\n}\n\nfn after() {\n    assert!(z);\n}\n#[cfg(not(test))]\nfn not_test() {\n    assert!(w);\n}\n#[test]\n// a comment\nfn top() {\n    assert!(v);\n}\n";
        assert_eq!(asserts_in_tests(text), [9, 23]);
        assert_eq!(
            rust_tests("#![cfg(test)]\nfn x() {\n    assert!(a);\n}\n"),
            [1, 2, 3, 4]
        );
        // A test attribute on an item without a body ends with it.
        assert_eq!(
            rust_tests("#[cfg(test)]\nuse a::b;\nfn lib() {\n    assert!(x);\n}\n"),
            [1, 2]
        );
        // No mention of `test`: nothing to walk.
        assert_eq!(rust_tests("fn a() {\n    assert!(x);\n}\n"), NONE);
    }

    /// The layouts rustfmt never writes, and literals and comments that look like code:
    /// the blocks decide, not the columns.
    #[test]
    fn rust_test_items_whatever_the_layout() {
        let body = "pub fn add(a: i32) -> i32 { a }\n";
        for (name, text, expected) in [
            (
                "indented",
                "    #[cfg(test)]\n    mod tests {\n        #[test]\n        fn t() {\n            assert_eq!(add(1), 1);\n        }\n    }\n",
                &[5][..],
            ),
            (
                "same line",
                "#[cfg(test)] mod tests {\n    #[test] fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[3],
            ),
            (
                "brace below",
                "#[cfg(test)]\nmod tests\n{\n    #[test]\n    fn t()\n    {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[7],
            ),
            (
                "comment between",
                "#[cfg(test)]\n/* helpers\n} */\nmod tests {\n    #[test]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[7],
            ),
            (
                "raw string",
                "#[cfg(test)]\nmod tests {\n    const S: &str = r#\"}}}\n}\n\"#;\n    #[test]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[8],
            ),
            (
                "multi-line string",
                "#[cfg(test)]\nmod tests {\n    const S: &str = \"\n}\nfn lib() {\n\";\n    #[test]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[9],
            ),
            (
                "char brace",
                "#[cfg(test)]\nmod tests {\n    const C: char = '}';\n    #[test]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[6],
            ),
            (
                "attribute over lines",
                "#[cfg(\n    test\n)]\nmod checks {\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[6],
            ),
            (
                "hash and bracket on two lines",
                "#\n// why\n[test]\nfn t() {\n    assert_eq!(add(1), 1);\n}\n",
                &[5],
            ),
            (
                "inner attribute",
                "mod checks {\n    #![cfg(test)]\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\nfn lib() {\n    assert!(true);\n}\n",
                &[4],
            ),
            (
                "array type",
                "#[test]\nfn t() -> [u8; 2] {\n    assert_eq!(add(1), 1);\n    [0; 2]\n}\n",
                &[3],
            ),
            (
                "block in the header",
                "#[test]\nfn t() -> Result<(), [u8; { 1 }]> {\n    assert_eq!(add(1), 1);\n    Ok(())\n}\n",
                &[3],
            ),
            (
                "generics and a where clause",
                "#[test]\nfn t<A, B>()\nwhere\n    A: Default,\n    B: Default,\n{\n    assert_eq!(add(1), 1);\n}\n",
                &[7],
            ),
            (
                "macro of tests",
                "macro_rules! cases {\n    ($n:ident) => {\n        #[test]\n        fn $n() {\n            assert_eq!(add(1), 1);\n        }\n    };\n}\n",
                &[5],
            ),
            (
                "cfg with a not",
                "#[cfg(all(test, not(miri)))]\nmod unit {\n    fn t() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[4],
            ),
            (
                "cfg_attr",
                "#[cfg_attr(test, test)]\nfn t() {\n    assert_eq!(add(1), 1);\n}\n#[cfg_attr(not(test), cfg(any()))]\nmod unit {\n    fn u() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[3, 8],
            ),
            (
                "a path from the root, a raw identifier, an alias",
                "#[::core::prelude::v1::test]\nfn t() {\n    assert_eq!(add(1), 1);\n}\n#[r#test]\nfn u() {\n    assert_eq!(add(1), 1);\n}\nuse core::prelude::v1::test as check;\n#[check]\nfn v() {\n    assert_eq!(add(1), 1);\n}\n",
                &[3, 7, 12],
            ),
            (
                "whitespace Rust allows",
                "#\u{b}[test]\nfn t() {\n    assert_eq!(add(1), 1);\n}\n#[\u{200e}test]\nfn u() {\n    assert_eq!(add(1), 1);\n}\n#\u{85}[cfg(\u{200e}test)]\nmod \u{200e}unit {\n    fn v() {\n        assert_eq!(add(1), 1);\n    }\n}\n",
                &[3, 7, 12],
            ),
        ] {
            // The lines are counted in `text`, below the library function.
            let expected: Vec<usize> = expected.iter().map(|line| line + 1).collect();
            assert_eq!(
                asserts_in_tests(&format!("{body}{text}")),
                expected,
                "{name}"
            );
        }
    }

    /// Library code next to test code stays library code.
    #[test]
    fn library_code_beside_tests() {
        let text = "#[cfg(test)] mod tests { #[test] fn t() {} }\nfn lib() {\n    assert!(x);\n}\nmacro_rules! check {\n    ($e:expr) => { assert!($e && cfg!(test)) };\n}\nstruct S {\n    #[cfg(test)]\n    probe: u8,\n}\nfn more() {\n    assert!(y);\n}\nenum E {\n    #[cfg(test)]\n    Probe,\n    Real { x: u8 },\n}\nfn arms(n: i32) -> i32 {\n    match n {\n        #[cfg(test)]\n        -1 => 0,\n        n => {\n            assert!(n > 0);\n            n\n        }\n    }\n}\nfn param(#[cfg(test)] _probe: u8, a: i32) -> i32 {\n    assert!(a > 0);\n    a\n}\npub mod test {\n    pub fn helper() {\n        assert!(true);\n    }\n}\n";
        assert_eq!(asserts_in_tests(text), NONE);
    }

    /// What a second review got past the walk.
    #[test]
    fn second_review() {
        // A multi-line attribute of library code is library code.
        assert_eq!(
            rust_tests(
                "#[derive(\n    Debug,\n    Clone,\n)]\nstruct S;\n#[cfg(test)]\nmod tests {}\n"
            ),
            [6, 7]
        );
        // A shebang is not a comment's start.
        assert_eq!(
            rust_tests("#!/usr/bin/env -S cargo +nightly -Zscript /*\n#[test]\nfn t() {\n}\n"),
            [2, 3, 4]
        );
        // A space before the `!` of a test macro's invocation; a test impl of a
        // const-generic type.
        assert_eq!(
            rust_tests(
                "macro_rules! case {\n    ($n:ident) => {\n        #[test]\n        fn $n() {}\n    };\n}\ncase !(a);\n#[cfg(test)]\nimpl Fixture<{ 2 }> {\n    fn f() {}\n}\nfn lib() {}\n"
            ),
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        );
        // Doctest settings and other crates' test attributes.
        assert_eq!(
            rust_tests(
                "#![doc(test(attr(deny(warnings))))]\n#[cfg(not(doctest))]\nfn lib() {}\n#[proptest]\nfn p() {}\n#[gtest]\nfn g() {}\n"
            ),
            [1, 2, 4, 5, 6, 7]
        );
    }

    /// A walk that stops after a line answers for every line up to it as the whole walk
    /// does: it reads on while an item's attributes or an invocation wait for later lines.
    #[test]
    fn a_walk_up_to_a_line() {
        let text = "macro_rules! case {\n    ($n:ident) => {\n        #[test]\n        fn $n() {}\n    };\n}\nfn lib() {}\n#[cfg(miri)]\n#[allow(unused)]\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\ncase!(\n    a\n);\n/// ```\n/// f();\n/// ```\nfn f() {}\n";
        let side = lines(text);
        let whole = rust_test_lines(
            &rust::TABLE.syntax,
            rust::TABLE.tests,
            text.as_bytes(),
            &side,
            usize::MAX,
        );
        for limit in 0..side.len() {
            let part = rust_test_lines(
                &rust::TABLE.syntax,
                rust::TABLE.tests,
                text.as_bytes(),
                &side,
                limit,
            );
            assert_eq!(part.bits[..=limit], whole.bits[..=limit], "limit {limit}");
        }
    }

    /// An attribute added above a test item belongs to it: `#[cfg(miri)]` over
    /// `#[cfg(test)] mod tests` is a test change.
    #[test]
    fn attributes_of_a_test_item() {
        assert_eq!(
            rust_tests(
                "fn lib() {}\n#[cfg(miri)]\n#[allow(dead_code)]\n#[cfg(test)]\nmod tests {\n}\n"
            ),
            [2, 3, 4, 5, 6]
        );
    }

    /// The invocations of a macro of the same file that defines tests are tests; those of
    /// other macros are not.
    #[test]
    fn invocations_of_test_macros() {
        let text = "macro_rules! check {\n    ($name:ident, $a:expr, $b:expr) => {\n        #[test]\n        fn $name() {\n            assert_eq!($a, $b);\n        }\n    };\n}\nmacro_rules! only_tests {\n    ($($item:item)*) => { $(#[cfg(test)] $item)* };\n}\nmacro_rules! plain {\n    () => {};\n}\ncheck!(adds, 1 + 1, 2);\ncheck!(\n    subtracts,\n    1 - 1,\n    0\n);\nplain!();\nonly_tests! {\n    mod unit {\n        fn t() {}\n    }\n}\nfn lib() {\n    check!(x, 1, 1);\n}\n";
        assert_eq!(
            rust_tests(text),
            [
                1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 18, 19, 20, 22, 23, 24, 25, 26
            ]
        );
    }

    /// A doc comment's Rust example is a doctest; a `text` one is not.
    #[test]
    fn doc_examples() {
        let text = "/// Adds.\n///\n/// ```\n/// assert_eq!(add(1), 1);\n/// ```\n///\n/// ```text\n/// add(1) = 1\n/// ```\npub fn add(a: i32) -> i32 { a }\n//! ```rust,no_run\n//! x::add(1);\n//! ```\n";
        // The fences of the `text` example count (one turns an example into prose), its
        // lines do not.
        assert_eq!(rust_tests(text), [3, 4, 5, 7, 9, 11, 12, 13]);
        for (name, text, expected) in [
            (
                "tildes",
                "/// ~~~\n/// f();\n/// ~~~\nfn f() {}\n",
                &[1, 2, 3][..],
            ),
            (
                "four backticks",
                "/// ````\n/// f();\n/// ```\n/// ````\nfn f() {}\n",
                &[1, 2, 3, 4],
            ),
            (
                "rust among other words",
                "/// ```rust,example\n/// f();\n/// ```\nfn f() {}\n",
                &[1, 2, 3],
            ),
            (
                "indented",
                "/// Calls it:\n///\n///     f();\n///\n/// Done.\nfn f() {}\n",
                &[3],
            ),
            (
                "block doc",
                "/**\n * ```\n * f();\n * ```\n */\nfn f() {}\n/*! ```\nf();\n``` */\n",
                &[2, 3, 4, 7, 8, 9],
            ),
            (
                "blockquote",
                "/// > ```\n/// > f();\n/// > ```\nfn f() {}\n",
                &[1, 2, 3],
            ),
            (
                "over a blank line and an attribute",
                "/// ```\n\n#[inline]\n/// f();\n/// ```\nfn f() {}\n",
                &[1, 4, 5],
            ),
            (
                "doc attributes",
                "#[doc = \"```\"]\n#[doc = \"f();\"]\n#[doc = \"```\"]\nfn f() {}\n",
                &[1, 2, 3],
            ),
            (
                "an HTML comment",
                "/// <!--\n/// ```\n/// f();\n/// ```\n/// -->\nfn f() {}\n",
                &[1, 2, 3, 4, 5],
            ),
            (
                "after a byte order mark",
                "\u{feff}/// ```\n/// f();\n/// ```\nfn f() {}\n",
                &[1, 2, 3],
            ),
        ] {
            assert_eq!(rust_tests(text), expected, "{name}");
        }
    }
}
