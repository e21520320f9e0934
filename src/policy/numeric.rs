//! Numeric policies (SPEC §4): the comparison grammar and the exact decimals it compares.
//!
//! This module owns three things:
//!
//! - [`NumericPolicy::parse`], a hand-written lexer and recursive-descent parser for exactly
//!   one comparison `<argument> <operator> <finite number>`. Every rejection is a
//!   [`PolicySyntaxError`] with a lowercase message, a help sentence and the byte span of the
//!   offending text, so the loader can underline it in the Astrixfile.
//! - [`parse_number`], the number grammar shared by policies and intents:
//!
//!   ```text
//!   number   = [sign] digits [ "." digits ] [ ("e" | "E") [sign] digits ]
//!   sign     = "+" | "-"
//!   digits   = one or more of 0-9
//!   ```
//!
//!   JSON's number syntax is a subset of it. `.5` and `5.` are rejected (with a help that
//!   shows `0.5` and `5`), as are `NaN`, `inf` and `infinity` in any case and with any sign.
//!   Leading zeros (`007`) are accepted. Digits are read into an exact
//!   [`rust_decimal::Decimal`] without ever passing through binary floating point; a number
//!   that the decimal cannot hold exactly (more than 29 significant digits, a magnitude above
//!   79228162514264337593543950335, or more than 28 digits after the point once trailing
//!   zeros are dropped) is rejected, never rounded. Values are normalised: `10.50` is `10.5`,
//!   `1e3` is `1000` and `-0` is `0`.
//! - [`convert`], which turns the JSON text of an intent value into such a decimal, and
//!   [`convert_float`] for transports that have already decoded a number into an `f64`.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use rust_decimal::Decimal;

/// An example policy used in help texts.
const EXAMPLE: &str = "lines_changed <= 400";

/// The largest mantissa `rust_decimal` holds: 2^96 - 1 = 79228162514264337593543950335.
const MAX_MANTISSA: u128 = (1 << 96) - 1;

/// The most digits a decimal may have after the point.
const MAX_SCALE: u32 = 28;

/// How the exact range is described to users.
const RANGE: &str = "±79228162514264337593543950335 with at most 28 digits after the decimal point";

/// The longest value text a [`ConversionFailure`] carries before it is cut short.
const MAX_EXCERPT_CHARS: usize = 64;

/// A name a policy may compare (the table of SPEC §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Argument {
    /// `files_changed`: the number of modified files.
    FilesChanged,
    /// `lines_added`: added text lines.
    LinesAdded,
    /// `lines_deleted`: deleted text lines.
    LinesDeleted,
    /// `lines_changed`: `lines_added + lines_deleted`.
    LinesChanged,
    /// `tests_changed`: modified files that match `[tests].paths`.
    TestsChanged,
    /// `binary_files`: modified files that are not text.
    BinaryFiles,
    /// `bytes_added`: bytes of added text lines plus the size of added or changed binary
    /// files.
    BytesAdded,
    /// `tests_removed`: test tampering (SPEC §6.1).
    TestsRemoved,
    /// `test_skips_added`: test tampering (SPEC §6.1).
    TestSkipsAdded,
    /// `assertions_removed`: test tampering (SPEC §6.1).
    AssertionsRemoved,
    /// `assertions_weakened`: assertions that check nothing added, test tampering.
    AssertionsWeakened,
    /// `test_config_changed`: test-runner settings and targets changed, test tampering.
    TestConfigChanged,
    /// `impacted_components`: components in the blast radius (SPEC §8).
    ImpactedComponents,
}

impl Argument {
    /// Every argument, in the order of SPEC §4's table.
    pub const ALL: [Argument; 13] = [
        Argument::FilesChanged,
        Argument::LinesAdded,
        Argument::LinesDeleted,
        Argument::LinesChanged,
        Argument::TestsChanged,
        Argument::BinaryFiles,
        Argument::BytesAdded,
        Argument::TestsRemoved,
        Argument::TestSkipsAdded,
        Argument::AssertionsRemoved,
        Argument::AssertionsWeakened,
        Argument::TestConfigChanged,
        Argument::ImpactedComponents,
    ];

    /// The name written in policies.
    pub fn name(self) -> &'static str {
        match self {
            Argument::FilesChanged => "files_changed",
            Argument::LinesAdded => "lines_added",
            Argument::LinesDeleted => "lines_deleted",
            Argument::LinesChanged => "lines_changed",
            Argument::TestsChanged => "tests_changed",
            Argument::BinaryFiles => "binary_files",
            Argument::BytesAdded => "bytes_added",
            Argument::TestsRemoved => "tests_removed",
            Argument::TestSkipsAdded => "test_skips_added",
            Argument::AssertionsRemoved => "assertions_removed",
            Argument::AssertionsWeakened => "assertions_weakened",
            Argument::TestConfigChanged => "test_config_changed",
            Argument::ImpactedComponents => "impacted_components",
        }
    }

    /// The argument with this name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|argument| argument.name() == name)
    }

    /// The known argument closest to `name` by edit distance, for a "did you mean" hint;
    /// `None` when nothing is close (within a third of the candidate's length).
    pub fn suggest(name: &str) -> Option<Self> {
        let lowered = name.to_ascii_lowercase();
        Self::ALL
            .into_iter()
            .map(|argument| {
                let distance = strsim::damerau_levenshtein(&lowered, argument.name());
                (distance, argument)
            })
            .filter(|&(distance, argument)| distance * 3 <= argument.name().len())
            .min_by_key(|&(distance, _)| distance)
            .map(|(_, argument)| argument)
    }
}

impl fmt::Display for Argument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operator {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`: numerically equal (`0.00 == 0`).
    Eq,
    /// `!=`: numerically unequal.
    Ne,
}

impl Operator {
    /// Every operator.
    pub const ALL: [Operator; 6] = [
        Operator::Lt,
        Operator::Le,
        Operator::Gt,
        Operator::Ge,
        Operator::Eq,
        Operator::Ne,
    ];

    /// The operator as written in policies.
    pub fn symbol(self) -> &'static str {
        match self {
            Operator::Lt => "<",
            Operator::Le => "<=",
            Operator::Gt => ">",
            Operator::Ge => ">=",
            Operator::Eq => "==",
            Operator::Ne => "!=",
        }
    }

    /// The operator written as `symbol`.
    pub fn from_symbol(symbol: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|operator| operator.symbol() == symbol)
    }

    /// Whether `left <operator> right` holds.
    pub fn compare(self, left: Decimal, right: Decimal) -> bool {
        match self {
            Operator::Lt => left < right,
            Operator::Le => left <= right,
            Operator::Gt => left > right,
            Operator::Ge => left >= right,
            Operator::Eq => left == right,
            Operator::Ne => left != right,
        }
    }

    /// The operator that keeps the meaning when both sides swap (`a < b` is `b > a`).
    fn mirrored(self) -> Self {
        match self {
            Operator::Lt => Operator::Gt,
            Operator::Le => Operator::Ge,
            Operator::Gt => Operator::Lt,
            Operator::Ge => Operator::Le,
            Operator::Eq => Operator::Eq,
            Operator::Ne => Operator::Ne,
        }
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// A parsed numeric policy: `<argument> <operator> <value>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumericPolicy {
    /// The argument compared (the left-hand side).
    pub argument: Argument,
    /// How it is compared.
    pub operator: Operator,
    /// The exact, normalised number it is compared with (the right-hand side).
    pub value: Decimal,
    /// The policy text as written, without surrounding whitespace.
    pub text: String,
}

/// Why a policy string does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PolicySyntaxError {
    /// What is wrong: lowercase, one line, user values in backticks.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Byte range of the offending text within the policy string that was parsed.
    pub span: Range<usize>,
    /// Whether the policy is a well-formed comparison that names an unknown argument
    /// (diagnostic code `unknown-argument` rather than an invalid policy).
    pub unknown_argument: bool,
}

impl PolicySyntaxError {
    fn new(message: String, help: String, span: Range<usize>) -> Self {
        Self {
            message,
            help: Some(help),
            span,
            unknown_argument: false,
        }
    }
}

impl NumericPolicy {
    /// Parses exactly one comparison `<argument> <operator> <finite number>` (SPEC §4).
    ///
    /// Spaces around the operator are optional, and whitespace around the policy is
    /// ignored. The structure is checked before the argument's name: `x <=` reports the
    /// missing number (and mentions that `x` is unknown in the help), while a well-formed
    /// `x <= 5` reports the unknown argument with [`PolicySyntaxError::unknown_argument`]
    /// set.
    pub fn parse(text: &str) -> Result<Self, PolicySyntaxError> {
        let tokens = lex(text);
        let parser = Parser {
            input: text,
            tokens: &tokens,
        };
        let comparison = parser.comparison().map_err(|mut error| {
            // The argument's name is resolved only once the structure is right; when it
            // is unknown as well, say so now rather than in the next round of fixes.
            if let Some(argument) = parser.unknown_argument_name() {
                let help = error.help.take().unwrap_or_default();
                error.help = Some(format!(
                    "{help}; also, `{argument}` is not a known argument{}",
                    did_you_mean_suffix(argument)
                ));
            }
            error
        })?;
        let name = parser.text(comparison.argument);
        let Some(argument) = Argument::from_name(name) else {
            return Err(PolicySyntaxError {
                message: format!("unknown argument `{name}`"),
                help: Some(match Argument::suggest(name) {
                    Some(suggestion) => format!("did you mean `{suggestion}`?"),
                    None => format!("the known arguments are {}", known_arguments()),
                }),
                span: comparison.argument.span(),
                unknown_argument: true,
            });
        };
        Ok(Self {
            argument,
            operator: comparison.operator,
            value: comparison.value,
            text: text.trim().to_owned(),
        })
    }

    /// Whether the policy holds for `value`, the argument's actual value: `value <operator>
    /// self.value`, compared numerically.
    pub fn holds(&self, value: Decimal) -> bool {
        self.operator.compare(value, self.value)
    }
}

impl FromStr for NumericPolicy {
    type Err = PolicySyntaxError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse(text)
    }
}

impl fmt::Display for NumericPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// " (did you mean `x`?)" when an argument is close to `name`, else nothing.
fn did_you_mean_suffix(name: &str) -> String {
    Argument::suggest(name)
        .map(|suggestion| format!(" (did you mean `{suggestion}`?)"))
        .unwrap_or_default()
}

/// "`files_changed`, `lines_added`, …" for help texts.
fn known_arguments() -> String {
    Argument::ALL
        .into_iter()
        .map(|argument| format!("`{argument}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "`<`, `<=`, …" for help texts.
fn known_operators() -> String {
    Operator::ALL
        .into_iter()
        .map(|operator| format!("`{operator}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

// ---------------------------------------------------------------------------------------
// Lexer

/// What a token is. Numbers are lexed loosely (any run of number-like characters) and
/// checked by [`parse_number`], so that `400abc` is reported as one invalid number rather
/// than a number followed by a stray word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokenKind {
    /// `[A-Za-z_][A-Za-z0-9_]*`; capitals are lexed so that `Lines_Changed` gets a hint.
    Identifier,
    /// A digit, `.digit` or a sign followed by an alphanumeric or `.`, then the run of
    /// alphanumerics, `_`, `.` and exponent signs that follows.
    Number,
    /// A run of `<`, `>`, `=` and `!`.
    Operator,
    /// Anything else: one character, or a run of `&` or of `|`.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Token {
    kind: TokenKind,
    // INVARIANT: `start` and `end` are char boundaries of the lexed input.
    start: usize,
    end: usize,
}

impl Token {
    fn span(self) -> Range<usize> {
        self.start..self.end
    }
}

fn is_operator_char(c: char) -> bool {
    matches!(c, '<' | '>' | '=' | '!')
}

/// Whether a number token starts at the beginning of `rest`.
fn starts_number(rest: &str) -> bool {
    let mut chars = rest.chars();
    match chars.next() {
        Some(c) if c.is_ascii_digit() => true,
        Some('.') => chars.next().is_some_and(|c| c.is_ascii_digit()),
        Some('+' | '-') => chars
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '.'),
        _ => false,
    }
}

fn lex(input: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut chars = input.char_indices().peekable();
    while let Some(&(start, first)) = chars.peek() {
        if first.is_whitespace() {
            chars.next();
            continue;
        }
        let kind = if first.is_ascii_alphabetic() || first == '_' {
            TokenKind::Identifier
        } else if starts_number(input.get(start..).unwrap_or_default()) {
            TokenKind::Number
        } else if is_operator_char(first) {
            TokenKind::Operator
        } else {
            TokenKind::Other
        };
        chars.next();
        let mut previous = first;
        while let Some(&(_, next)) = chars.peek() {
            let continues = match kind {
                TokenKind::Identifier => next.is_ascii_alphanumeric() || next == '_',
                TokenKind::Number => {
                    next.is_ascii_alphanumeric()
                        || matches!(next, '_' | '.')
                        || (matches!(next, '+' | '-') && matches!(previous, 'e' | 'E'))
                }
                TokenKind::Operator => is_operator_char(next),
                TokenKind::Other => matches!(first, '&' | '|') && next == first,
            };
            if !continues {
                break;
            }
            previous = next;
            chars.next();
        }
        let end = chars.peek().map_or(input.len(), |&(index, _)| index);
        tokens.push(Token { kind, start, end });
    }
    tokens
}

// ---------------------------------------------------------------------------------------
// Parser

/// A comparison whose structure is valid; the argument's name is not resolved yet.
struct Comparison {
    argument: Token,
    operator: Operator,
    value: Decimal,
}

/// Recursive descent over the tokens of one policy: `comparison = identifier operator
/// number end`. Each step reports what it expected and what it found.
struct Parser<'a> {
    input: &'a str,
    tokens: &'a [Token],
}

impl<'a> Parser<'a> {
    fn text(&self, token: Token) -> &'a str {
        self.input.get(token.span()).unwrap_or_default()
    }

    fn token(&self, index: usize) -> Option<Token> {
        self.tokens.get(index).copied()
    }

    /// The first token's name, when it is an identifier that names no argument.
    fn unknown_argument_name(&self) -> Option<&'a str> {
        self.token(0)
            .filter(|token| token.kind == TokenKind::Identifier)
            .map(|token| self.text(token))
            .filter(|name| Argument::from_name(name).is_none())
    }

    /// The argument to show in examples: the one written if it is known, else a close
    /// match, else `lines_changed`.
    fn example_argument(&self) -> &'static str {
        self.token(0)
            .filter(|token| token.kind == TokenKind::Identifier)
            .map(|token| self.text(token))
            .and_then(|name| Argument::from_name(name).or_else(|| Argument::suggest(name)))
            .unwrap_or(Argument::LinesChanged)
            .name()
    }

    fn comparison(&self) -> Result<Comparison, PolicySyntaxError> {
        let argument = self.argument()?;
        let (operator, operator_token) = self.operator(argument)?;
        let (value, value_token) = self.value(argument, operator, operator_token)?;
        self.end(argument.start..value_token.end, 3)?;
        Ok(Comparison {
            argument,
            operator,
            value,
        })
    }

    fn argument(&self) -> Result<Token, PolicySyntaxError> {
        let Some(first) = self.token(0) else {
            return Err(PolicySyntaxError::new(
                String::from("empty policy"),
                format!("write one comparison, such as `{EXAMPLE}`"),
                0..self.input.len(),
            ));
        };
        let found = self.text(first);
        match first.kind {
            TokenKind::Identifier => Ok(first),
            TokenKind::Operator => {
                let example = match self.token(1) {
                    Some(number) if number.kind == TokenKind::Number => {
                        format!("lines_changed {found} {}", self.text(number))
                    }
                    _ => String::from(EXAMPLE),
                };
                Err(PolicySyntaxError::new(
                    format!("missing argument before `{found}`"),
                    format!("name the argument to compare first, e.g. `{example}`"),
                    first.span(),
                ))
            }
            TokenKind::Number => Err(PolicySyntaxError::new(
                format!("expected an argument name, found `{found}`"),
                self.swapped_sides().map_or_else(
                    || format!("a policy starts with the argument it compares, e.g. `{EXAMPLE}`"),
                    |swapped| format!("put the argument first: `{swapped}`"),
                ),
                first.span(),
            )),
            TokenKind::Other => Err(PolicySyntaxError::new(
                format!("unexpected `{found}`"),
                format!("write one comparison, such as `{EXAMPLE}`"),
                first.span(),
            )),
        }
    }

    /// `400 >= lines_changed` written the right way round, when the policy is exactly that.
    fn swapped_sides(&self) -> Option<String> {
        let [number, operator, argument] = self.tokens else {
            return None;
        };
        let operator = Operator::from_symbol(self.text(*operator))?;
        let argument = Argument::from_name(self.text(*argument))?;
        parse_number(self.text(*number)).ok()?;
        Some(format!(
            "{argument} {} {}",
            operator.mirrored(),
            self.text(*number)
        ))
    }

    fn operator(&self, argument: Token) -> Result<(Operator, Token), PolicySyntaxError> {
        let name = self.text(argument);
        let example = self.example_argument();
        let generic_help = format!(
            "write one of {} between the argument and the number, e.g. `{example} <= 400`",
            known_operators()
        );
        let Some(token) = self.token(1) else {
            return Err(PolicySyntaxError::new(
                format!("missing comparison operator after `{name}`"),
                format!("compare it with a number, e.g. `{example} <= 400`"),
                argument.span(),
            ));
        };
        let found = self.text(token);
        if token.kind == TokenKind::Operator {
            return match Operator::from_symbol(found) {
                Some(operator) => Ok((operator, token)),
                None => Err(PolicySyntaxError::new(
                    format!("unknown operator `{found}`"),
                    match found {
                        "=" | "===" => String::from("write `==` to compare for equality"),
                        "=<" => String::from("write `<=`"),
                        "=>" => String::from("write `>=`"),
                        "<>" | "!" | "=!" | "!==" => String::from("write `!=`"),
                        _ => format!("use one of {}", known_operators()),
                    },
                    token.span(),
                )),
            };
        }
        let help = if token.kind == TokenKind::Identifier {
            match found.to_ascii_lowercase().as_str() {
                "between" => {
                    let (low, high) = self.between_bounds();
                    format!(
                        "a policy is one comparison; write a range as two rules, \
                         `{example} >= {low}` and `{example} <= {high}`"
                    )
                }
                "lt" => String::from("write `<` instead of `lt`"),
                "le" | "lte" => format!("write `<=` instead of `{found}`"),
                "gt" => String::from("write `>` instead of `gt`"),
                "ge" | "gte" => format!("write `>=` instead of `{found}`"),
                "eq" | "is" => format!("write `==` instead of `{found}`"),
                "ne" => String::from("write `!=` instead of `ne`"),
                _ => generic_help,
            }
        } else {
            generic_help
        };
        Err(PolicySyntaxError::new(
            format!("expected a comparison operator after `{name}`, found `{found}`"),
            help,
            token.span(),
        ))
    }

    /// The bounds of `<argument> between <low> and <high>`, or an example pair.
    fn between_bounds(&self) -> (&'a str, &'a str) {
        match self.tokens {
            [_, _, low, and, high]
                if low.kind == TokenKind::Number
                    && self.text(*and).eq_ignore_ascii_case("and")
                    && high.kind == TokenKind::Number =>
            {
                (self.text(*low), self.text(*high))
            }
            _ => ("0", "200"),
        }
    }

    fn value(
        &self,
        argument: Token,
        operator: Operator,
        operator_token: Token,
    ) -> Result<(Decimal, Token), PolicySyntaxError> {
        let example = self.example_argument();
        let number_help = format!("compare with a finite number, e.g. `{example} {operator} 400`");
        let Some(token) = self.token(2) else {
            return Err(PolicySyntaxError::new(
                format!("missing number after `{operator}`"),
                format!(
                    "end the comparison with the number to compare against, \
                     e.g. `{example} {operator} 400`"
                ),
                operator_token.span(),
            ));
        };
        let found = self.text(token);
        match token.kind {
            TokenKind::Number => parse_number(found)
                .map(|value| (value, token))
                .map_err(|error| number_syntax_error(found, error, token)),
            TokenKind::Identifier => {
                if parse_number(found) == Err(NumberError::NonFinite) {
                    Err(number_syntax_error(found, NumberError::NonFinite, token))
                } else if Argument::from_name(found).is_some() {
                    Err(PolicySyntaxError::new(
                        String::from("comparing two arguments is not supported"),
                        format!(
                            "compare `{}` with a number, e.g. `{example} {operator} 400`",
                            self.text(argument)
                        ),
                        token.span(),
                    ))
                } else {
                    Err(PolicySyntaxError::new(
                        format!("expected a number after `{operator}`, found `{found}`"),
                        number_help,
                        token.span(),
                    ))
                }
            }
            TokenKind::Operator | TokenKind::Other => {
                let joined = format!("{operator}{found}");
                let help = if token.kind == TokenKind::Operator
                    && Operator::from_symbol(&joined).is_some()
                {
                    format!("write `{joined}` without a space")
                } else {
                    number_help
                };
                Err(PolicySyntaxError::new(
                    format!("expected a number after `{operator}`, found `{found}`"),
                    help,
                    token.span(),
                ))
            }
        }
    }

    /// Checks that no token follows the comparison, which spans `comparison` and ends
    /// before token `next`.
    fn end(&self, comparison: Range<usize>, next: usize) -> Result<(), PolicySyntaxError> {
        let (Some(first), Some(last)) = (self.token(next), self.tokens.last()) else {
            return Ok(());
        };
        let found = self.text(first);
        let comparison = self.input.get(comparison).unwrap_or_default();
        let joins = ["and", "or", "&&", "||", "&", "|", ",", ";"];
        let help = if joins.iter().any(|join| found.eq_ignore_ascii_case(join)) {
            String::from("a policy is exactly one comparison; write a separate rule for each limit")
        } else {
            format!("a policy is exactly one comparison, such as `{EXAMPLE}`")
        };
        Err(PolicySyntaxError::new(
            format!("expected the end of the policy after `{comparison}`, found `{found}`"),
            help,
            first.start..last.end,
        ))
    }
}

/// The error for a number token (or a non-finite word) in the value position.
fn number_syntax_error(text: &str, error: NumberError, token: Token) -> PolicySyntaxError {
    let (message, help) = match error {
        NumberError::NonFinite => (
            format!("`{text}` is not a finite number"),
            String::from(
                "compare with a finite number such as `400`; a rule without a limit needs no policy",
            ),
        ),
        NumberError::OutOfRange => (
            format!("`{text}` is outside the exact decimal range of {RANGE}"),
            String::from(
                "numbers are compared exactly and never rounded; write one within that range",
            ),
        ),
        NumberError::MissingIntegerDigits => (
            format!("invalid number `{text}`"),
            format!(
                "write a digit before the decimal point: `{}`",
                text.replacen('.', "0.", 1)
            ),
        ),
        NumberError::MissingFractionDigits => (
            format!("invalid number `{text}`"),
            format!(
                "write digits after the decimal point, or leave it out: `{}`",
                text.replacen('.', "", 1)
            ),
        ),
        NumberError::MissingExponentDigits => (
            format!("invalid number `{text}`"),
            String::from("write the exponent's digits, e.g. `1e3`"),
        ),
        NumberError::Empty | NumberError::Malformed => (
            format!("invalid number `{text}`"),
            String::from(
                "a number is an optional sign, digits, an optional fraction and an optional \
                 exponent, e.g. `400`, `-1`, `0.95` or `1e3`",
            ),
        ),
    };
    PolicySyntaxError::new(message, help, token.span())
}

// ---------------------------------------------------------------------------------------
// Numbers

/// Why a text is not a number of the grammar in the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum NumberError {
    /// The text is empty.
    #[error("empty number")]
    Empty,
    /// `NaN`, `inf` or `infinity`, in any case and with any sign.
    #[error("not a finite number")]
    NonFinite,
    /// A fraction without digits before the point: `.5`.
    #[error("missing digits before the decimal point")]
    MissingIntegerDigits,
    /// A decimal point without digits after it: `5.`.
    #[error("missing digits after the decimal point")]
    MissingFractionDigits,
    /// An exponent marker without digits: `1e`, `1e+`.
    #[error("missing digits in the exponent")]
    MissingExponentDigits,
    /// Anything else that does not follow the grammar: `1.2.3`, `12abc`, `--1`, ` 1`.
    #[error("not a number")]
    Malformed,
    /// A well-formed number that no exact decimal holds.
    #[error("outside the exact decimal range of {RANGE}")]
    OutOfRange,
}

/// Parses `text` (exactly, with no surrounding whitespace) as a number of the grammar in
/// the module docs, into an exact normalised decimal.
pub fn parse_number(text: &str) -> Result<Decimal, NumberError> {
    scan_number(text)?.to_decimal()
}

/// The parts of a well-formed number, still as digit strings.
struct ScannedNumber<'a> {
    negative: bool,
    integer: &'a str,
    fraction: &'a str,
    /// The written exponent, saturated to the `i64` range.
    exponent: i64,
}

fn is_non_finite(text: &str) -> bool {
    let unsigned = text
        .strip_prefix('+')
        .or_else(|| text.strip_prefix('-'))
        .unwrap_or(text);
    ["nan", "inf", "infinity"]
        .iter()
        .any(|word| unsigned.eq_ignore_ascii_case(word))
}

/// The length of the run of ASCII digits at the start of `bytes`.
fn digit_run(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count()
}

fn scan_number(text: &str) -> Result<ScannedNumber<'_>, NumberError> {
    if text.is_empty() {
        return Err(NumberError::Empty);
    }
    if is_non_finite(text) {
        return Err(NumberError::NonFinite);
    }
    let bytes = text.as_bytes();
    let mut pos = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            pos += 1;
            true
        }
        Some(b'+') => {
            pos += 1;
            false
        }
        _ => false,
    };
    let integer_start = pos;
    pos += digit_run(&bytes[pos..]);
    let integer = &text[integer_start..pos];

    let mut point = false;
    let fraction_start = pos + 1;
    if bytes.get(pos) == Some(&b'.') {
        point = true;
        pos += 1;
        pos += digit_run(&bytes[pos..]);
    }
    let fraction = if point {
        &text[fraction_start..pos]
    } else {
        ""
    };

    let mut exponent_marker = false;
    let mut exponent_digits = "";
    let mut exponent_negative = false;
    if matches!(bytes.get(pos), Some(b'e' | b'E')) {
        exponent_marker = true;
        pos += 1;
        match bytes.get(pos) {
            Some(b'-') => {
                exponent_negative = true;
                pos += 1;
            }
            Some(b'+') => pos += 1,
            _ => {}
        }
        let start = pos;
        pos += digit_run(&bytes[pos..]);
        exponent_digits = &text[start..pos];
    }

    // Trailing text outranks the missing parts: `.5abc` is malformed, not "write `0.5abc`".
    if pos != bytes.len() || (integer.is_empty() && fraction.is_empty()) {
        return Err(NumberError::Malformed);
    }
    if integer.is_empty() {
        return Err(NumberError::MissingIntegerDigits);
    }
    if point && fraction.is_empty() {
        return Err(NumberError::MissingFractionDigits);
    }
    if exponent_marker && exponent_digits.is_empty() {
        return Err(NumberError::MissingExponentDigits);
    }

    // Saturating is exact enough: any exponent beyond the i64 range puts a non-zero
    // mantissa out of range anyway, and a zero mantissa ignores it.
    let magnitude = exponent_digits.bytes().fold(0_i64, |acc, digit| {
        acc.saturating_mul(10)
            .saturating_add(i64::from(digit - b'0'))
    });
    Ok(ScannedNumber {
        negative,
        integer,
        fraction,
        exponent: if exponent_negative {
            -magnitude
        } else {
            magnitude
        },
    })
}

impl ScannedNumber<'_> {
    /// The exact decimal `±(integer fraction) × 10^(exponent - fraction.len())`.
    fn to_decimal(&self) -> Result<Decimal, NumberError> {
        let digits = [self.integer, self.fraction].concat();
        let significant = digits.trim_start_matches('0');
        let trimmed = significant.trim_end_matches('0');
        if trimmed.is_empty() {
            return Ok(Decimal::ZERO);
        }
        // 2^96 - 1 has 29 digits, so more significant digits never fit.
        if trimmed.len() > 29 {
            return Err(NumberError::OutOfRange);
        }
        // Cannot overflow: at most 29 digits, and 10^29 < 2^128.
        let mut mantissa = trimmed
            .bytes()
            .fold(0_u128, |acc, digit| acc * 10 + u128::from(digit - b'0'));
        // i128 holds every term exactly: lengths are at most isize::MAX.
        let power = i128::from(self.exponent)
            + i128::try_from(significant.len() - trimmed.len()).unwrap_or(i128::MAX / 4)
            - i128::try_from(self.fraction.len()).unwrap_or(i128::MAX / 4);
        let scale = if power >= 0 {
            let factor = u32::try_from(power)
                .ok()
                .and_then(|power| 10_u128.checked_pow(power))
                .ok_or(NumberError::OutOfRange)?;
            mantissa = mantissa
                .checked_mul(factor)
                .ok_or(NumberError::OutOfRange)?;
            0
        } else {
            u32::try_from(-power)
                .ok()
                .filter(|&scale| scale <= MAX_SCALE)
                .ok_or(NumberError::OutOfRange)?
        };
        if mantissa > MAX_MANTISSA {
            return Err(NumberError::OutOfRange);
        }
        let magnitude = i128::try_from(mantissa).map_err(|_| NumberError::OutOfRange)?;
        let signed = if self.negative { -magnitude } else { magnitude };
        Decimal::try_from_i128_with_scale(signed, scale).map_err(|_| NumberError::OutOfRange)
    }
}

// ---------------------------------------------------------------------------------------
// Conversion of intent values

/// Why an intent value could not be converted to a number. Every failure fails the policy
/// that reads the value (SPEC §4); none is ever taken as zero.
///
/// The texts carried are the value's JSON text as written (a string keeps its quotes and
/// escapes, so it is safe to print), cut to 64 characters followed by `…` when longer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConversionFailure {
    /// The intent has no such value.
    Missing,
    /// The value is `null`.
    Null,
    /// The value is `true` or `false`.
    Boolean,
    /// The value is a string, array or object that is not a number (its JSON text).
    NotNumeric(String),
    /// The value is `NaN` or an infinity (as a string such as `"inf"`).
    NonFinite,
    /// The value is a number that no exact decimal holds (its JSON text).
    OutOfRange(String),
    /// The value reached astrix as a float of magnitude 2^53 or more, which cannot be
    /// trusted to be the number that was sent (its text).
    UntrustedFloat(String),
    /// The value is a number below zero, which no count is (its text).
    Negative(String),
    /// The value is a number with a fraction, which no count has (its text).
    NotInteger(String),
}

/// Converts the JSON text of an intent value into an exact decimal (SPEC §4).
///
/// - A JSON number is read from its own digits with [`parse_number`] (JSON's number syntax
///   is a subset of the policy grammar), so a 27-digit integer keeps every digit.
/// - A JSON string is unescaped, trimmed of surrounding whitespace (`" 125\n"`, as `wc -l`
///   prints it, is 125), then read with [`parse_number`]; `"NaN"`, `"inf"`, `"-Infinity"`
///   and the like are [`ConversionFailure::NonFinite`].
/// - `null`, `true`/`false`, arrays, objects and text that is not JSON fail with the
///   matching [`ConversionFailure`]. Whitespace around the JSON text is ignored.
pub fn convert(json: &str) -> Result<Decimal, ConversionFailure> {
    let text = json.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    match text {
        "null" => return Err(ConversionFailure::Null),
        "true" | "false" => return Err(ConversionFailure::Boolean),
        _ => {}
    }
    let (number, from_string) = if text.starts_with('"') {
        match serde_json::from_str::<String>(text) {
            Ok(decoded) => (decoded, true),
            Err(_) => return Err(ConversionFailure::NotNumeric(excerpt(text))),
        }
    } else {
        (text.to_owned(), false)
    };
    let number = if from_string { number.trim() } else { &number };
    parse_number(number).map_err(|error| match error {
        NumberError::NonFinite => ConversionFailure::NonFinite,
        NumberError::OutOfRange => ConversionFailure::OutOfRange(excerpt(text)),
        NumberError::Empty
        | NumberError::MissingIntegerDigits
        | NumberError::MissingFractionDigits
        | NumberError::MissingExponentDigits
        | NumberError::Malformed => ConversionFailure::NotNumeric(excerpt(text)),
    })
}

/// Converts a number that a transport (MCP) has already decoded into an `f64`.
///
/// NaN and the infinities are [`ConversionFailure::NonFinite`]. A magnitude of 2^53 or more
/// is [`ConversionFailure::UntrustedFloat`]: beyond it, neighbouring integers share a float,
/// so the value may not be the number that was sent (SPEC §4). Below it, the shortest
/// decimal that round-trips to the float is taken, which recovers the number as it was
/// written whenever it had at most 15 significant digits (`0.1` is 0.1, not the float's
/// binary expansion).
pub fn convert_float(value: f64) -> Result<Decimal, ConversionFailure> {
    /// 2^53: from here on, not every integer is a float.
    const UNTRUSTED: f64 = 9_007_199_254_740_992.0;
    let Some(number) = serde_json::Number::from_f64(value) else {
        return Err(ConversionFailure::NonFinite);
    };
    let text = number.to_string();
    if value.abs() >= UNTRUSTED {
        return Err(ConversionFailure::UntrustedFloat(text));
    }
    convert(&text)
}

/// `value` (converted from `text`) as a count: a whole number of zero or more. A negative or
/// fractional count fails the policy that reads it, as a non-numeric one does: `lines_added:
/// -5` would otherwise shrink `lines_changed` and let a large change through.
pub fn check_count(value: Decimal, text: &str) -> Result<Decimal, ConversionFailure> {
    if value.is_sign_negative() && !value.is_zero() {
        Err(ConversionFailure::Negative(excerpt(text.trim())))
    } else if !value.fract().is_zero() {
        Err(ConversionFailure::NotInteger(excerpt(text.trim())))
    } else {
        Ok(value)
    }
}

/// `text`, cut to [`MAX_EXCERPT_CHARS`] characters with `…` when longer.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(MAX_EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(text: &str) -> Decimal {
        Decimal::from_str_exact(text).unwrap()
    }

    /// `valid!(name, policy, argument, operator, value)`: the policy parses to exactly this.
    macro_rules! valid {
        ($name:ident, $text:expr, $argument:ident, $operator:ident, $value:expr) => {
            #[test]
            fn $name() {
                let policy = NumericPolicy::parse($text).unwrap();
                assert_eq!(policy.argument, Argument::$argument);
                assert_eq!(policy.operator, Operator::$operator);
                assert_eq!(policy.value, dec($value));
                assert_eq!(policy.text, $text.trim());
            }
        };
    }

    /// `syntaxerr!(name, policy, message, underlined text, help)`: the policy is rejected
    /// with this message and help, underlining this text (not an unknown argument).
    macro_rules! syntaxerr {
        ($name:ident, $text:expr, $message:expr, $underlined:expr, $help:expr) => {
            #[test]
            fn $name() {
                let input: &str = $text;
                let error = NumericPolicy::parse(input).unwrap_err();
                let message: &str = &$message;
                assert_eq!(error.message, message, "message of {input:?}");
                assert_eq!(&input[error.span.clone()], $underlined, "span of {input:?}");
                assert_eq!(error.help.as_deref(), Some($help), "help of {input:?}");
                assert!(
                    !error.unknown_argument,
                    "{input:?} is not an unknown argument"
                );
            }
        };
    }

    /// `unknownarg!(name, policy, underlined name, help)`.
    macro_rules! unknownarg {
        ($name:ident, $text:expr, $underlined:expr, $help:expr) => {
            #[test]
            fn $name() {
                let input: &str = $text;
                let error = NumericPolicy::parse(input).unwrap_err();
                assert!(
                    error.unknown_argument,
                    "{input:?} names an unknown argument"
                );
                assert_eq!(error.message, format!("unknown argument `{}`", $underlined));
                assert_eq!(&input[error.span.clone()], $underlined);
                assert_eq!(error.help.as_deref(), Some($help));
            }
        };
    }

    /// `converts!(name, json => Ok(decimal text))` or `converts!(name, json => Err(failure))`.
    macro_rules! converts {
        ($name:ident, $json:expr => Ok($value:expr)) => {
            #[test]
            fn $name() {
                assert_eq!(convert($json), Ok(dec($value)), "convert({:?})", $json);
            }
        };
        ($name:ident, $json:expr => Err($failure:expr)) => {
            #[test]
            fn $name() {
                assert_eq!(convert($json), Err($failure), "convert({:?})", $json);
            }
        };
    }

    const KNOWN: &str = "the known arguments are `files_changed`, `lines_added`, \
        `lines_deleted`, `lines_changed`, `tests_changed`, `binary_files`, `bytes_added`, \
        `tests_removed`, \
        `test_skips_added`, `assertions_removed`, `assertions_weakened`, \
        `test_config_changed`, `impacted_components`";
    const GRAMMAR_HELP: &str = "a number is an optional sign, digits, an optional fraction \
        and an optional exponent, e.g. `400`, `-1`, `0.95` or `1e3`";
    const RANGE_MESSAGE: &str = "is outside the exact decimal range of \
        ±79228162514264337593543950335 with at most 28 digits after the decimal point";
    const RANGE_HELP: &str =
        "numbers are compared exactly and never rounded; write one within that range";
    const NON_FINITE_HELP: &str =
        "compare with a finite number such as `400`; a rule without a limit needs no policy";
    const OPERATOR_HELP: &str = "write one of `<`, `<=`, `>`, `>=`, `==`, `!=` between the \
        argument and the number, e.g. `lines_changed <= 400`";

    // SPEC §4, valid.
    valid!(
        spec_lines_changed,
        "lines_changed <= 400",
        LinesChanged,
        Le,
        "400"
    );
    valid!(
        spec_files_changed,
        "files_changed < 30",
        FilesChanged,
        Lt,
        "30"
    );
    valid!(spec_binary_files, "binary_files == 0", BinaryFiles, Eq, "0");
    valid!(spec_exponent, "lines_added <= 1e3", LinesAdded, Le, "1000");
    valid!(spec_negative, "tests_changed != -1", TestsChanged, Ne, "-1");

    // Spacing and operators.
    valid!(no_spaces, "lines_changed<=400", LinesChanged, Le, "400");
    valid!(
        no_spaces_negative,
        "lines_changed>=-1",
        LinesChanged,
        Ge,
        "-1"
    );
    valid!(no_spaces_ne, "lines_changed!=-1", LinesChanged, Ne, "-1");
    valid!(
        space_one_side,
        "lines_changed <=400",
        LinesChanged,
        Le,
        "400"
    );
    valid!(
        surrounding_whitespace,
        "  \tlines_changed > 3 \n",
        LinesChanged,
        Gt,
        "3"
    );
    valid!(
        greater,
        "impacted_components > 2",
        ImpactedComponents,
        Gt,
        "2"
    );
    valid!(
        every_argument_a,
        "test_skips_added == 0",
        TestSkipsAdded,
        Eq,
        "0"
    );
    valid!(
        every_argument_b,
        "assertions_removed < 1",
        AssertionsRemoved,
        Lt,
        "1"
    );
    valid!(
        every_argument_c,
        "tests_removed >= 0",
        TestsRemoved,
        Ge,
        "0"
    );
    valid!(
        every_argument_d,
        "lines_deleted <= 10",
        LinesDeleted,
        Le,
        "10"
    );

    // Numbers.
    valid!(fraction, "lines_added < 0.95", LinesAdded, Lt, "0.95");
    valid!(plus_sign, "lines_added < +2", LinesAdded, Lt, "2");
    valid!(
        upper_exponent,
        "lines_added < 1.5E-2",
        LinesAdded,
        Lt,
        "0.015"
    );
    valid!(plus_exponent, "lines_added < 2e+2", LinesAdded, Lt, "200");
    valid!(
        exponent_cancels_fraction,
        "lines_added < 1.25e2",
        LinesAdded,
        Lt,
        "125"
    );
    valid!(leading_zeros, "lines_added < 007", LinesAdded, Lt, "7");
    valid!(negative_zero, "lines_added == -0", LinesAdded, Eq, "0");
    valid!(
        trailing_zeros,
        "lines_added == 10.50",
        LinesAdded,
        Eq,
        "10.5"
    );
    valid!(
        max,
        "lines_added <= 79228162514264337593543950335",
        LinesAdded,
        Le,
        "79228162514264337593543950335"
    );
    valid!(
        min,
        "lines_added >= -79228162514264337593543950335",
        LinesAdded,
        Ge,
        "-79228162514264337593543950335"
    );
    valid!(
        smallest_step,
        "lines_added > 1e-28",
        LinesAdded,
        Gt,
        "0.0000000000000000000000000001"
    );
    valid!(
        trailing_zeros_beyond_scale,
        "lines_added > 0.100000000000000000000000000000000",
        LinesAdded,
        Gt,
        "0.1"
    );
    valid!(
        zero_huge_exponent,
        "lines_added == 0e999999999999999999999",
        LinesAdded,
        Eq,
        "0"
    );
    valid!(
        big_exponent_fits,
        "lines_added < 7.9e28",
        LinesAdded,
        Lt,
        "79000000000000000000000000000"
    );

    // SPEC §4, rejected.
    syntaxerr!(
        spec_between,
        "lines_changed between 0 and 200",
        "expected a comparison operator after `lines_changed`, found `between`",
        "between",
        "a policy is one comparison; write a range as two rules, `lines_changed >= 0` and \
         `lines_changed <= 200`"
    );
    syntaxerr!(
        spec_two_arguments,
        "lines_added <= lines_deleted",
        "comparing two arguments is not supported",
        "lines_deleted",
        "compare `lines_added` with a number, e.g. `lines_added <= 400`"
    );
    syntaxerr!(
        spec_two_comparisons,
        "lines_changed <= 200 and files_changed < 3",
        "expected the end of the policy after `lines_changed <= 200`, found `and`",
        "and files_changed < 3",
        "a policy is exactly one comparison; write a separate rule for each limit"
    );
    unknownarg!(
        spec_unknown_argument,
        "missing_argument > 0",
        "missing_argument",
        KNOWN
    );
    syntaxerr!(
        spec_nan,
        "lines_changed <= NaN",
        "`NaN` is not a finite number",
        "NaN",
        NON_FINITE_HELP
    );
    syntaxerr!(
        spec_inf,
        "lines_changed <= inf",
        "`inf` is not a finite number",
        "inf",
        NON_FINITE_HELP
    );
    syntaxerr!(
        spec_missing_argument,
        "<= 5",
        "missing argument before `<=`",
        "<=",
        "name the argument to compare first, e.g. `lines_changed <= 5`"
    );
    syntaxerr!(
        spec_missing_number,
        "x <=",
        "missing number after `<=`",
        "<=",
        "end the comparison with the number to compare against, e.g. `lines_changed <= 400`; \
         also, `x` is not a known argument"
    );
    syntaxerr!(
        spec_out_of_range,
        "lines_added <= 1e40",
        &format!("`1e40` {RANGE_MESSAGE}"),
        "1e40",
        RANGE_HELP
    );
    syntaxerr!(
        spec_too_small,
        "lines_added <= 1e-40",
        &format!("`1e-40` {RANGE_MESSAGE}"),
        "1e-40",
        RANGE_HELP
    );

    // Non-finite spellings.
    syntaxerr!(
        infinity,
        "lines_changed <= infinity",
        "`infinity` is not a finite number",
        "infinity",
        NON_FINITE_HELP
    );
    syntaxerr!(
        negative_inf,
        "lines_changed >= -inf",
        "`-inf` is not a finite number",
        "-inf",
        NON_FINITE_HELP
    );
    syntaxerr!(
        positive_infinity,
        "lines_changed<=+Infinity",
        "`+Infinity` is not a finite number",
        "+Infinity",
        NON_FINITE_HELP
    );

    // Range.
    syntaxerr!(
        max_plus_one,
        "lines_added <= 79228162514264337593543950336",
        &format!("`79228162514264337593543950336` {RANGE_MESSAGE}"),
        "79228162514264337593543950336",
        RANGE_HELP
    );
    syntaxerr!(
        scale_29,
        "lines_added <= 1e-29",
        &format!("`1e-29` {RANGE_MESSAGE}"),
        "1e-29",
        RANGE_HELP
    );
    syntaxerr!(
        too_many_digits,
        "lines_added <= 0.79228162514264337593543950336",
        &format!("`0.79228162514264337593543950336` {RANGE_MESSAGE}"),
        "0.79228162514264337593543950336",
        RANGE_HELP
    );
    syntaxerr!(
        huge_exponent,
        "lines_added <= 1e99999999999999999999999",
        &format!("`1e99999999999999999999999` {RANGE_MESSAGE}"),
        "1e99999999999999999999999",
        RANGE_HELP
    );

    // Number syntax.
    syntaxerr!(
        leading_point,
        "lines_added <= .5",
        "invalid number `.5`",
        ".5",
        "write a digit before the decimal point: `0.5`"
    );
    syntaxerr!(
        negative_leading_point,
        "lines_added >= -.5",
        "invalid number `-.5`",
        "-.5",
        "write a digit before the decimal point: `-0.5`"
    );
    syntaxerr!(
        trailing_point,
        "lines_added <= 5.",
        "invalid number `5.`",
        "5.",
        "write digits after the decimal point, or leave it out: `5`"
    );
    syntaxerr!(
        missing_exponent_digits,
        "lines_added <= 1e",
        "invalid number `1e`",
        "1e",
        "write the exponent's digits, e.g. `1e3`"
    );
    syntaxerr!(
        missing_exponent_digits_after_sign,
        "lines_added <= 1e-",
        "invalid number `1e-`",
        "1e-",
        "write the exponent's digits, e.g. `1e3`"
    );
    syntaxerr!(
        trailing_letters,
        "lines_added <= 400abc",
        "invalid number `400abc`",
        "400abc",
        GRAMMAR_HELP
    );
    syntaxerr!(
        two_points,
        "lines_added <= 1.2.3",
        "invalid number `1.2.3`",
        "1.2.3",
        GRAMMAR_HELP
    );
    syntaxerr!(
        leading_point_with_garbage,
        "lines_added <= .5x",
        "invalid number `.5x`",
        ".5x",
        GRAMMAR_HELP
    );
    syntaxerr!(
        underscore_separator,
        "lines_added <= 1_000",
        "invalid number `1_000`",
        "1_000",
        GRAMMAR_HELP
    );
    syntaxerr!(
        negated_argument,
        "lines_added <= -lines_deleted",
        "invalid number `-lines_deleted`",
        "-lines_deleted",
        GRAMMAR_HELP
    );
    syntaxerr!(
        space_in_number,
        "lines_added <= 1 000",
        "expected the end of the policy after `lines_added <= 1`, found `000`",
        "000",
        "a policy is exactly one comparison, such as `lines_changed <= 400`"
    );
    syntaxerr!(
        detached_sign,
        "lines_added <= - 1",
        "expected a number after `<=`, found `-`",
        "-",
        "compare with a finite number, e.g. `lines_added <= 400`"
    );

    // Structure.
    syntaxerr!(
        empty,
        "",
        "empty policy",
        "",
        "write one comparison, such as `lines_changed <= 400`"
    );
    syntaxerr!(
        blank,
        "  \t ",
        "empty policy",
        "  \t ",
        "write one comparison, such as `lines_changed <= 400`"
    );
    syntaxerr!(
        argument_only,
        "lines_changed",
        "missing comparison operator after `lines_changed`",
        "lines_changed",
        "compare it with a number, e.g. `lines_changed <= 400`"
    );
    syntaxerr!(
        missing_operator,
        "lines_changed 400",
        "expected a comparison operator after `lines_changed`, found `400`",
        "400",
        OPERATOR_HELP
    );
    syntaxerr!(
        missing_number_known_argument,
        "files_changed >",
        "missing number after `>`",
        ">",
        "end the comparison with the number to compare against, e.g. `files_changed > 400`"
    );
    syntaxerr!(
        number_first,
        "400 >= lines_changed",
        "expected an argument name, found `400`",
        "400",
        "put the argument first: `lines_changed <= 400`"
    );
    syntaxerr!(
        number_first_not_swappable,
        "400",
        "expected an argument name, found `400`",
        "400",
        "a policy starts with the argument it compares, e.g. `lines_changed <= 400`"
    );
    syntaxerr!(
        missing_argument_without_number,
        "== x",
        "missing argument before `==`",
        "==",
        "name the argument to compare first, e.g. `lines_changed <= 400`"
    );
    syntaxerr!(
        parenthesised,
        "(lines_changed <= 400)",
        "unexpected `(`",
        "(",
        "write one comparison, such as `lines_changed <= 400`"
    );
    syntaxerr!(
        single_equals,
        "binary_files = 0",
        "unknown operator `=`",
        "=",
        "write `==` to compare for equality"
    );
    syntaxerr!(
        reversed_le,
        "binary_files =< 0",
        "unknown operator `=<`",
        "=<",
        "write `<=`"
    );
    syntaxerr!(
        reversed_ge,
        "binary_files => 0",
        "unknown operator `=>`",
        "=>",
        "write `>=`"
    );
    syntaxerr!(
        diamond,
        "binary_files <> 0",
        "unknown operator `<>`",
        "<>",
        "write `!=`"
    );
    syntaxerr!(
        shift,
        "binary_files << 0",
        "unknown operator `<<`",
        "<<",
        "use one of `<`, `<=`, `>`, `>=`, `==`, `!=`"
    );
    syntaxerr!(
        word_operator,
        "lines_added le 3",
        "expected a comparison operator after `lines_added`, found `le`",
        "le",
        "write `<=` instead of `le`"
    );
    syntaxerr!(
        split_operator,
        "lines_added < = 3",
        "expected a number after `<`, found `=`",
        "=",
        "write `<=` without a space"
    );
    syntaxerr!(
        unknown_word_value,
        "lines_added <= many",
        "expected a number after `<=`, found `many`",
        "many",
        "compare with a finite number, e.g. `lines_added <= 400`"
    );
    syntaxerr!(
        double_ampersand,
        "lines_added <= 3 && lines_deleted <= 3",
        "expected the end of the policy after `lines_added <= 3`, found `&&`",
        "&& lines_deleted <= 3",
        "a policy is exactly one comparison; write a separate rule for each limit"
    );
    syntaxerr!(
        trailing_comment,
        "lines_added <= 3 # small",
        "expected the end of the policy after `lines_added <= 3`, found `#`",
        "# small",
        "a policy is exactly one comparison, such as `lines_changed <= 400`"
    );
    syntaxerr!(
        syntax_error_with_close_unknown_argument,
        "lines_chagned <= 1 or 2",
        "expected the end of the policy after `lines_chagned <= 1`, found `or`",
        "or 2",
        "a policy is exactly one comparison; write a separate rule for each limit; also, \
         `lines_chagned` is not a known argument (did you mean `lines_changed`?)"
    );
    syntaxerr!(
        non_ascii,
        "lines_added ≤ 3",
        "expected a comparison operator after `lines_added`, found `≤`",
        "≤",
        "write one of `<`, `<=`, `>`, `>=`, `==`, `!=` between the argument and the number, \
         e.g. `lines_added <= 400`"
    );
    syntaxerr!(
        span_after_multibyte_whitespace,
        "\u{3000}lines_added <= 1e",
        "invalid number `1e`",
        "1e",
        "write the exponent's digits, e.g. `1e3`"
    );

    // Unknown arguments.
    unknownarg!(
        typo,
        "lines_chagned <= 400",
        "lines_chagned",
        "did you mean `lines_changed`?"
    );
    unknownarg!(
        missing_letter,
        "test_changed < 3",
        "test_changed",
        "did you mean `tests_changed`?"
    );
    unknownarg!(
        capitals,
        "Lines_Added < 3",
        "Lines_Added",
        "did you mean `lines_added`?"
    );
    unknownarg!(
        synonym,
        "lines_removed < 3",
        "lines_removed",
        "did you mean `lines_deleted`?"
    );
    unknownarg!(far_off, "x < 3", "x", KNOWN);
    unknownarg!(leading_underscore, "  _files < 3", "_files", KNOWN);

    #[test]
    fn unknown_argument_is_reported_only_for_well_formed_comparisons() {
        let error = NumericPolicy::parse("x <").unwrap_err();
        assert!(!error.unknown_argument);
        let error = NumericPolicy::parse("x < 1").unwrap_err();
        assert!(error.unknown_argument);
    }

    #[test]
    fn text_is_trimmed_and_displayed() {
        let policy: NumericPolicy = "  lines_changed<=400 ".parse().unwrap();
        assert_eq!(policy.text, "lines_changed<=400");
        assert_eq!(policy.to_string(), "lines_changed<=400");
    }

    #[test]
    fn holds_compares_numerically() {
        let holds =
            |policy: &str, value: &str| NumericPolicy::parse(policy).unwrap().holds(dec(value));
        assert!(holds("lines_changed <= 400", "400"));
        assert!(!holds("lines_changed <= 400", "401"));
        assert!(holds("lines_changed < 400", "399.99"));
        assert!(!holds("lines_changed < 400", "400"));
        assert!(holds("lines_changed > 400", "400.0001"));
        assert!(!holds("lines_changed >= 400", "399"));
        assert!(holds("binary_files == 0", "0.00"));
        assert!(holds("binary_files == 0.00", "0"));
        assert!(holds("binary_files == 10.50", "10.5"));
        assert!(!holds("binary_files != 10.50", "10.5"));
        assert!(holds("tests_changed != -1", "0"));
        assert!(!holds("tests_changed != -1", "-1"));
        assert!(holds("lines_added <= 1e3", "1000"));
        assert!(!holds("lines_added <= 1e3", "1000.0000000000000000000001"));
        assert!(holds(
            "lines_added < 79228162514264337593543950335",
            "79228162514264337593543950334"
        ));
    }

    #[test]
    fn operator_symbols_round_trip() {
        for operator in Operator::ALL {
            assert_eq!(Operator::from_symbol(operator.symbol()), Some(operator));
            assert_eq!(operator.mirrored().mirrored(), operator);
        }
        for argument in Argument::ALL {
            assert_eq!(Argument::from_name(argument.name()), Some(argument));
            assert_eq!(Argument::suggest(argument.name()), Some(argument));
        }
    }

    #[test]
    fn parse_number_errors() {
        assert_eq!(parse_number(""), Err(NumberError::Empty));
        assert_eq!(parse_number(" 1"), Err(NumberError::Malformed));
        assert_eq!(parse_number("1 "), Err(NumberError::Malformed));
        assert_eq!(parse_number("--1"), Err(NumberError::Malformed));
        assert_eq!(parse_number("+"), Err(NumberError::Malformed));
        assert_eq!(parse_number("."), Err(NumberError::Malformed));
        assert_eq!(parse_number("e3"), Err(NumberError::Malformed));
        assert_eq!(parse_number("0x10"), Err(NumberError::Malformed));
        assert_eq!(parse_number("١"), Err(NumberError::Malformed));
        assert_eq!(parse_number("-NAN"), Err(NumberError::NonFinite));
        assert_eq!(parse_number(".5"), Err(NumberError::MissingIntegerDigits));
        assert_eq!(
            parse_number("5.e3"),
            Err(NumberError::MissingFractionDigits)
        );
        assert_eq!(parse_number("5e+"), Err(NumberError::MissingExponentDigits));
        assert_eq!(
            parse_number("1e-9999999999999999999999"),
            Err(NumberError::OutOfRange)
        );
        assert_eq!(
            parse_number("100e-30"),
            Ok(dec("0.0000000000000000000000000001"))
        );
        assert_eq!(parse_number("-0.000e5"), Ok(Decimal::ZERO));
        assert!(!parse_number("-0").unwrap().is_sign_negative());
    }

    // Conversion: JSON numbers keep their own digits.
    converts!(integer, "125" => Ok("125"));
    converts!(negative_integer, "-3" => Ok("-3"));
    converts!(json_exponent, "1.5e2" => Ok("150"));
    converts!(json_fraction, "0.25" => Ok("0.25"));
    converts!(json_whitespace, " \n125\t" => Ok("125"));
    converts!(digits_27, "123456789012345678901234567" => Ok("123456789012345678901234567"));
    converts!(
        max_integer,
        "79228162514264337593543950335" => Ok("79228162514264337593543950335")
    );
    converts!(
        max_plus_one_integer,
        "79228162514264337593543950336"
            => Err(ConversionFailure::OutOfRange("79228162514264337593543950336".into()))
    );
    converts!(json_huge, "1e400" => Err(ConversionFailure::OutOfRange("1e400".into())));
    converts!(json_tiny, "1e-400" => Err(ConversionFailure::OutOfRange("1e-400".into())));

    // Numeric strings use the same grammar.
    converts!(string_integer, r#""125""# => Ok("125"));
    converts!(string_padded, r#"" 125\n""# => Ok("125"));
    converts!(string_exponent, r#""1e3""# => Ok("1000"));
    converts!(string_plus, r#""+7""# => Ok("7"));
    converts!(string_escaped_digits, r#""\u0031\u0032""# => Ok("12"));
    converts!(
        string_digits_27,
        r#""123456789012345678901234567""# => Ok("123456789012345678901234567")
    );
    converts!(
        string_out_of_range,
        r#""1e40""# => Err(ConversionFailure::OutOfRange(r#""1e40""#.into()))
    );
    converts!(string_nan, r#""NaN""# => Err(ConversionFailure::NonFinite));
    converts!(string_inf, r#""inf""# => Err(ConversionFailure::NonFinite));
    converts!(string_infinity, r#""Infinity""# => Err(ConversionFailure::NonFinite));
    converts!(string_negative_inf, r#""-inf""# => Err(ConversionFailure::NonFinite));
    converts!(
        string_garbage,
        r#""abc""# => Err(ConversionFailure::NotNumeric(r#""abc""#.into()))
    );
    converts!(string_empty, r#""""# => Err(ConversionFailure::NotNumeric(r#""""#.into())));
    converts!(
        string_leading_point,
        r#"".5""# => Err(ConversionFailure::NotNumeric(r#"".5""#.into()))
    );
    converts!(
        string_inner_space,
        r#""1 000""# => Err(ConversionFailure::NotNumeric(r#""1 000""#.into()))
    );
    converts!(
        string_unterminated,
        r#""12"# => Err(ConversionFailure::NotNumeric(r#""12"#.into()))
    );

    // Everything else.
    converts!(null, "null" => Err(ConversionFailure::Null));
    converts!(boolean_true, "true" => Err(ConversionFailure::Boolean));
    converts!(boolean_false, "false" => Err(ConversionFailure::Boolean));
    converts!(array, "[1]" => Err(ConversionFailure::NotNumeric("[1]".into())));
    converts!(object, "{}" => Err(ConversionFailure::NotNumeric("{}".into())));
    converts!(empty_text, "" => Err(ConversionFailure::NotNumeric(String::new())));
    converts!(bare_nan, "NaN" => Err(ConversionFailure::NonFinite));

    #[test]
    fn long_texts_are_cut() {
        let long = format!("\"{}\"", "x".repeat(100));
        let Err(ConversionFailure::NotNumeric(text)) = convert(&long) else {
            panic!("{long} is not numeric");
        };
        assert_eq!(text, format!("\"{}…", "x".repeat(63)));
    }

    #[test]
    fn floats() {
        assert_eq!(convert_float(125.0), Ok(dec("125")));
        assert_eq!(convert_float(0.1), Ok(dec("0.1")));
        assert_eq!(convert_float(-2.5), Ok(dec("-2.5")));
        assert_eq!(convert_float(1e-7), Ok(dec("0.0000001")));
        assert_eq!(
            convert_float(9_007_199_254_740_991.0),
            Ok(dec("9007199254740991"))
        );
        assert_eq!(
            convert_float(9_007_199_254_740_992.0),
            Err(ConversionFailure::UntrustedFloat(
                "9007199254740992.0".into()
            ))
        );
        assert_eq!(
            convert_float(-1e300),
            Err(ConversionFailure::UntrustedFloat("-1e+300".into()))
        );
        assert_eq!(convert_float(f64::NAN), Err(ConversionFailure::NonFinite));
        assert_eq!(
            convert_float(f64::INFINITY),
            Err(ConversionFailure::NonFinite)
        );
        assert_eq!(
            convert_float(f64::NEG_INFINITY),
            Err(ConversionFailure::NonFinite)
        );
        assert!(matches!(
            convert_float(5e-324),
            Err(ConversionFailure::OutOfRange(_))
        ));
    }

    /// A small linear congruential generator: deterministic, no dependencies.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0
        }

        /// A signed integer of up to `bits` bits of magnitude; small ranges make ties common.
        fn integer(&mut self) -> i128 {
            let bits = [4, 16, 40, 64, 96][(self.next() >> 61) as usize % 5];
            let magnitude = ((u128::from(self.next()) << 64) | u128::from(self.next()))
                & ((1_u128 << bits) - 1);
            let magnitude = i128::try_from(magnitude).unwrap();
            if self.next() & 1 == 0 {
                magnitude
            } else {
                -magnitude
            }
        }
    }

    #[test]
    fn holds_agrees_with_integer_arithmetic() {
        let mut random = Lcg(0x5eed);
        for _ in 0..4000 {
            let actual = random.integer();
            let limit = random.integer();
            for operator in Operator::ALL {
                let spacing = if random.next() & 1 == 0 { " " } else { "" };
                let text = format!("lines_added{spacing}{operator}{spacing}{limit}");
                let policy = NumericPolicy::parse(&text).unwrap();
                let value = convert(&actual.to_string()).unwrap();
                let expected = match operator {
                    Operator::Lt => actual < limit,
                    Operator::Le => actual <= limit,
                    Operator::Gt => actual > limit,
                    Operator::Ge => actual >= limit,
                    Operator::Eq => actual == limit,
                    Operator::Ne => actual != limit,
                };
                assert_eq!(policy.holds(value), expected, "{text} with {actual}");
                // The same number written as a string, with an exponent, agrees too.
                let string = convert(&format!("\"{actual}0e-1\"")).unwrap();
                assert_eq!(
                    policy.holds(string),
                    expected,
                    "{text} with \"{actual}0e-1\""
                );
            }
        }
    }

    #[test]
    fn garbage_never_panics_and_agrees_with_rust_decimal() {
        let alphabet = b"0123456789+-.eE xin\"[]{}";
        let mut random = Lcg(42);
        for _ in 0..20_000 {
            let length = (random.next() >> 60) as usize;
            let text: String = (0..length)
                .map(|_| char::from(alphabet[(random.next() >> 32) as usize % alphabet.len()]))
                .collect();
            let _ = NumericPolicy::parse(&format!("lines_added <= {text}"));
            let _ = convert(&text);
            // Without an exponent, rust_decimal's own exact parser is an oracle.
            if let Ok(value) = parse_number(&text)
                && !text.contains(['e', 'E'])
                && !text.starts_with('+')
            {
                assert_eq!(Decimal::from_str_exact(&text), Ok(value), "{text}");
            }
        }
    }
}
