//! Numeric policies (SPEC §4): the grammar `<argument> <operator> <finite number>` and the
//! exact decimal conversion of intent values.
//!
//! INTERFACE STUB — to be implemented.

use std::fmt;
use std::ops::Range;

use rust_decimal::Decimal;

/// A name a policy may compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Argument {
    FilesChanged,
    LinesAdded,
    LinesDeleted,
    LinesChanged,
    TestsChanged,
    BinaryFiles,
    TestsRemoved,
    TestSkipsAdded,
    AssertionsRemoved,
    ImpactedComponents,
}

impl Argument {
    /// Every argument, in the order of SPEC §4's table.
    pub const ALL: [Argument; 10] = [
        Argument::FilesChanged,
        Argument::LinesAdded,
        Argument::LinesDeleted,
        Argument::LinesChanged,
        Argument::TestsChanged,
        Argument::BinaryFiles,
        Argument::TestsRemoved,
        Argument::TestSkipsAdded,
        Argument::AssertionsRemoved,
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
            Argument::TestsRemoved => "tests_removed",
            Argument::TestSkipsAdded => "test_skips_added",
            Argument::AssertionsRemoved => "assertions_removed",
            Argument::ImpactedComponents => "impacted_components",
        }
    }

    /// The argument with this name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|argument| argument.name() == name)
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
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// A parsed numeric policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumericPolicy {
    pub argument: Argument,
    pub operator: Operator,
    pub value: Decimal,
    /// The policy text as written.
    pub text: String,
}

/// Why a policy string does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicySyntaxError {
    pub message: String,
    pub help: Option<String>,
    pub span: Range<usize>,
    pub unknown_argument: bool,
}

impl NumericPolicy {
    pub fn parse(_text: &str) -> Result<Self, PolicySyntaxError> {
        Err(PolicySyntaxError {
            message: String::from("not implemented"),
            help: None,
            span: 0..0,
            unknown_argument: false,
        })
    }

    pub fn holds(&self, _value: Decimal) -> bool {
        false
    }
}

/// Why an intent value could not be converted to a number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConversionFailure {
    Missing,
    Null,
    Boolean,
    NotNumeric(String),
    NonFinite,
    OutOfRange(String),
    UntrustedFloat(String),
}

pub fn convert(_json: &str) -> Result<Decimal, ConversionFailure> {
    Err(ConversionFailure::Missing)
}
