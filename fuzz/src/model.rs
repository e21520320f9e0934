//! A small structured model of an Astrixfile's rules and of an intent, for the `evaluate`
//! target: `arbitrary` builds the model from the fuzzer's bytes, and the model renders to
//! the TOML and JSON text that astrix reads. Names come from small vocabularies so that
//! conditions, globs and paths actually meet; every rendered policy is valid by
//! construction (the target asserts that it loads).
//!
//! Each intent count also knows, independently of astrix, what exact number it stands for
//! ([`CountM::exact`]), so that policy outcomes can be checked against exact arithmetic.

use arbitrary::Arbitrary;

use crate::oracle::{self, Exact, Reading};

/// Most rules a generated policy has (more adds cost, not depth).
pub const MAX_RULES: usize = 10;
/// Most modified files a generated intent has.
pub const MAX_FILES: usize = 8;
/// Most entries in a generated list (patterns, actors, environments).
pub const MAX_LIST: usize = 4;

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerdictM {
    Allow,
    RequireApproval,
    Deny,
}

impl VerdictM {
    pub fn name(self) -> &'static str {
        match self {
            VerdictM::Allow => "allow",
            VerdictM::RequireApproval => "require_approval",
            VerdictM::Deny => "deny",
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum ActorM {
    Human,
    Agent,
    /// A type no rule of the default vocabulary expects.
    Bot,
}

impl ActorM {
    pub fn name(self) -> &'static str {
        match self {
            ActorM::Human => "human",
            ActorM::Agent => "autonomous_llm",
            ActorM::Bot => "ci_bot",
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum EnvM {
    Production,
    Staging,
    Development,
    /// Not an `[[environment]]` and not close to one.
    Qa,
}

impl EnvM {
    pub fn name(self) -> &'static str {
        match self {
            EnvM::Production => "production",
            EnvM::Staging => "staging",
            EnvM::Development => "development",
            EnvM::Qa => "qa",
        }
    }
}

/// A path segment, shared by patterns and paths so that they meet.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum NameM {
    Src,
    Tests,
    Docs,
    Github,
    Workflows,
    Ci,
    Lib,
    Snapshots,
    RustFile,
    Markdown,
    Yaml,
    CargoLock,
    DotEnv,
    GoTest,
    PyTest,
    Spec,
    Pem,
    Readme,
    /// Non-ASCII, to reach character boundaries in matching and reporting.
    Unicode,
}

impl NameM {
    pub fn text(self) -> &'static str {
        match self {
            NameM::Src => "src",
            NameM::Tests => "tests",
            NameM::Docs => "docs",
            NameM::Github => ".github",
            NameM::Workflows => "workflows",
            NameM::Ci => ".ci",
            NameM::Lib => "lib",
            NameM::Snapshots => "snapshots",
            NameM::RustFile => "a.rs",
            NameM::Markdown => "b.md",
            NameM::Yaml => "ci.yml",
            NameM::CargoLock => "Cargo.lock",
            NameM::DotEnv => ".env",
            NameM::GoTest => "x_test.go",
            NameM::PyTest => "test_y.py",
            NameM::Spec => "z.spec.ts",
            NameM::Pem => "key.pem",
            NameM::Readme => "README.md",
            NameM::Unicode => "dé.md",
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum ExtM {
    Rs,
    Md,
    Yml,
    Lock,
    Py,
    Pem,
}

impl ExtM {
    pub fn text(self) -> &'static str {
        match self {
            ExtM::Rs => "rs",
            ExtM::Md => "md",
            ExtM::Yml => "yml",
            ExtM::Lock => "lock",
            ExtM::Py => "py",
            ExtM::Pem => "pem",
        }
    }
}

/// One segment of a glob.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum SegmentM {
    Name(NameM),
    Star,
    DoubleStar,
    /// `*.ext`
    StarExt(ExtM),
    /// `test_*`
    Prefix,
    /// `?` in place of a name's first character.
    Question(NameM),
    /// `[ab]*`: a character class.
    Class,
}

impl SegmentM {
    fn render(self) -> String {
        match self {
            SegmentM::Name(name) => name.text().to_owned(),
            SegmentM::Star => "*".to_owned(),
            SegmentM::DoubleStar => "**".to_owned(),
            SegmentM::StarExt(ext) => format!("*.{}", ext.text()),
            SegmentM::Prefix => "test_*".to_owned(),
            SegmentM::Question(name) => {
                let text = name.text();
                let first = text.chars().next().map_or(0, char::len_utf8);
                format!("?{}", &text[first..])
            }
            SegmentM::Class => "[abc]*".to_owned(),
        }
    }
}

/// A path pattern: segments joined by `/`, optionally anchored with a leading `/` and
/// optionally naming a directory with a trailing `/`.
#[derive(Arbitrary, Debug, Clone)]
pub struct PatternM {
    pub anchored: bool,
    pub trailing_slash: bool,
    pub segments: Vec<SegmentM>,
}

impl PatternM {
    pub fn render(&self) -> String {
        let mut body: Vec<String> = self
            .segments
            .iter()
            .take(MAX_LIST)
            .map(|segment| segment.render())
            .collect();
        if body.is_empty() {
            body.push("*".to_owned());
        }
        let mut text = body.join("/");
        if self.anchored {
            text.insert(0, '/');
        }
        if self.trailing_slash {
            text.push('/');
        }
        text
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum ArgumentM {
    FilesChanged,
    LinesAdded,
    LinesDeleted,
    LinesChanged,
    TestsChanged,
    BinaryFiles,
    BytesAdded,
    TestsRemoved,
    TestSkipsAdded,
    AssertionsRemoved,
    ImpactedComponents,
}

impl ArgumentM {
    pub fn name(self) -> &'static str {
        match self {
            ArgumentM::FilesChanged => "files_changed",
            ArgumentM::LinesAdded => "lines_added",
            ArgumentM::LinesDeleted => "lines_deleted",
            ArgumentM::LinesChanged => "lines_changed",
            ArgumentM::TestsChanged => "tests_changed",
            ArgumentM::BinaryFiles => "binary_files",
            ArgumentM::BytesAdded => "bytes_added",
            ArgumentM::TestsRemoved => "tests_removed",
            ArgumentM::TestSkipsAdded => "test_skips_added",
            ArgumentM::AssertionsRemoved => "assertions_removed",
            ArgumentM::ImpactedComponents => "impacted_components",
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum OperatorM {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl OperatorM {
    pub fn symbol(self) -> &'static str {
        match self {
            OperatorM::Lt => "<",
            OperatorM::Le => "<=",
            OperatorM::Gt => ">",
            OperatorM::Ge => ">=",
            OperatorM::Eq => "==",
            OperatorM::Ne => "!=",
        }
    }
}

/// A number as written in a policy or an intent.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum NumberM {
    Small(i8),
    Int(i64),
    /// A huge integer (up to 39 digits).
    Big(u128),
    /// `mantissa / 10^scale`, written with a decimal point.
    Fixed {
        mantissa: i64,
        scale: u8,
    },
    /// `mantissa e exponent`.
    Exponent {
        mantissa: i32,
        exponent: i8,
    },
    /// `1e28`-style boundary values.
    Power {
        negative: bool,
        exponent: i8,
    },
    /// The largest decimal, plus or minus a little.
    NearMax {
        delta: i8,
    },
    /// The largest mantissa, plus or minus a little, at a scale: the edge of the range
    /// for numbers with a fraction, where sums must not round.
    NearMaxScaled {
        delta: i8,
        scale: u8,
    },
}

impl NumberM {
    /// The number's text (valid JSON number syntax and valid policy syntax).
    pub fn text(self) -> String {
        match self {
            NumberM::Small(value) => value.to_string(),
            NumberM::Int(value) => value.to_string(),
            NumberM::Big(value) => value.to_string(),
            NumberM::Fixed { mantissa, scale } => {
                let scale = usize::from(scale % 32);
                let digits = mantissa.unsigned_abs().to_string();
                let digits = format!("{digits:0>width$}", width = scale + 1);
                let (int, frac) = digits.split_at(digits.len() - scale);
                let sign = if mantissa < 0 { "-" } else { "" };
                if frac.is_empty() {
                    format!("{sign}{int}")
                } else {
                    format!("{sign}{int}.{frac}")
                }
            }
            NumberM::Exponent { mantissa, exponent } => format!("{mantissa}e{exponent}"),
            NumberM::Power { negative, exponent } => {
                format!("{}1e{}", if negative { "-" } else { "" }, exponent % 32)
            }
            NumberM::NearMax { delta } => {
                let max: i128 = (1 << 96) - 1;
                (max + i128::from(delta)).to_string()
            }
            NumberM::NearMaxScaled { delta, scale } => {
                let digits = (((1_i128 << 96) - 1) + i128::from(delta)).to_string();
                let scale = usize::from(scale % 29).min(digits.len() - 1);
                let (int, frac) = digits.split_at(digits.len() - scale);
                if frac.is_empty() {
                    int.to_owned()
                } else {
                    format!("{int}.{frac}")
                }
            }
        }
    }

    /// The exact value, computed without astrix (integers through i128 where they are
    /// integers, the rest through the string oracle).
    pub fn exact(self) -> Exact {
        match self {
            NumberM::Small(value) => Exact::from_i128(value.into()),
            NumberM::Int(value) => Exact::from_i128(value.into()),
            NumberM::NearMax { delta } => {
                Exact::from_i128(((1_i128 << 96) - 1) + i128::from(delta))
            }
            other => match oracle::read(&other.text()) {
                Reading::Number(exact) => exact,
                reading => unreachable!("{other:?} renders as {reading:?}"),
            },
        }
    }
}

/// A `diff` count as an intent writes it.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum CountM {
    Number(NumberM),
    /// A numeric string: `"125"`.
    Quoted(NumberM),
    /// A numeric string with surrounding whitespace, as `wc -l` prints it: `" 125\n"`.
    Padded(NumberM),
    Null,
    Bool(bool),
    /// A non-numeric string.
    Text(NameM),
    /// `"NaN"`, `"inf"`, `"-Infinity"`.
    NonFinite(u8),
    Array,
}

impl CountM {
    pub fn json(self) -> String {
        match self {
            CountM::Number(number) => number.text(),
            CountM::Quoted(number) => format!("\"{}\"", number.text()),
            CountM::Padded(number) => format!("\" {}\\n\"", number.text()),
            CountM::Null => "null".to_owned(),
            CountM::Bool(flag) => flag.to_string(),
            CountM::Text(name) => serde_json::Value::String(name.text().to_owned()).to_string(),
            CountM::NonFinite(which) => ["\"NaN\"", "\"inf\"", "\"-Infinity\"", "\"+INF\""]
                [usize::from(which % 4)]
            .to_owned(),
            CountM::Array => "[1]".to_owned(),
        }
    }

    /// The exact value astrix must compare, or `None` when the policy must fail (a value
    /// that is not a number, not exact, or not a count: negative or fractional).
    pub fn exact(self) -> Option<Exact> {
        match self {
            CountM::Number(number) | CountM::Quoted(number) | CountM::Padded(number) => {
                Some(number.exact()).filter(|exact| exact.fits() && exact.is_count())
            }
            _ => None,
        }
    }
}

#[derive(Arbitrary, Debug, Clone)]
pub struct PolicyM {
    pub argument: ArgumentM,
    pub operator: OperatorM,
    pub value: NumberM,
    /// Spaces around the operator.
    pub spaced: bool,
}

impl PolicyM {
    /// The threshold: the written number when a decimal holds it, else 400 (a policy with
    /// an out-of-range number does not load, and the model renders only valid files).
    pub fn threshold(&self) -> NumberM {
        if self.value.exact().fits() {
            self.value
        } else {
            NumberM::Small(100)
        }
    }

    pub fn render(&self) -> String {
        let space = if self.spaced { " " } else { "" };
        format!(
            "{}{space}{}{space}{}",
            self.argument.name(),
            self.operator.symbol(),
            self.threshold().text()
        )
    }
}

/// The decision of a rule with a policy: `allow` is not allowed there.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum PolicyDecisionM {
    Default,
    RequireApproval,
    Deny,
}

#[derive(Arbitrary, Debug, Clone)]
pub enum RuleKindM {
    /// A rule without a policy: its decision when the conditions match.
    Plain(VerdictM),
    /// A rule with a numeric policy.
    Numeric(PolicyM, PolicyDecisionM),
}

#[derive(Arbitrary, Debug, Clone)]
pub struct ConditionsM {
    pub actor: Option<Vec<ActorM>>,
    pub env: Option<Vec<EnvM>>,
    pub paths: Option<Vec<PatternM>>,
    pub only_paths: Option<Vec<PatternM>>,
    pub modifies_tests: Option<bool>,
}

#[derive(Arbitrary, Debug, Clone)]
pub struct RuleM {
    pub conditions: ConditionsM,
    pub kind: RuleKindM,
    pub reason: Option<NameM>,
}

/// A TOML (and JSON) array of at most [`MAX_LIST`] strings.
fn string_array(items: impl Iterator<Item = String>) -> String {
    json_array(items.take(MAX_LIST))
}

fn json_array(items: impl Iterator<Item = String>) -> String {
    let quoted: Vec<String> = items
        .map(|item| serde_json::Value::String(item).to_string())
        .collect();
    format!("[{}]", quoted.join(", "))
}

impl RuleM {
    /// The `[[rule]]` table with this id.
    pub fn render(&self, id: &str) -> String {
        let mut out = format!("[[rule]]\nid = \"{id}\"\n");
        let c = &self.conditions;
        if let Some(actors) = &c.actor {
            out += &format!(
                "actor = {}\n",
                string_array(actors.iter().map(|a| a.name().to_owned()))
            );
        }
        if let Some(envs) = &c.env {
            out += &format!(
                "env = {}\n",
                string_array(envs.iter().map(|e| e.name().to_owned()))
            );
        }
        if let Some(paths) = &c.paths {
            out += &format!(
                "paths = {}\n",
                string_array(paths.iter().map(PatternM::render))
            );
        }
        if let Some(paths) = &c.only_paths {
            out += &format!(
                "only_paths = {}\n",
                string_array(paths.iter().map(PatternM::render))
            );
        }
        if let Some(flag) = c.modifies_tests {
            out += &format!("modifies_tests = {flag}\n");
        }
        match &self.kind {
            RuleKindM::Plain(verdict) => out += &format!("decision = \"{}\"\n", verdict.name()),
            RuleKindM::Numeric(policy, decision) => {
                out += &format!("policy = \"{}\"\n", policy.render());
                match decision {
                    PolicyDecisionM::Default => {}
                    PolicyDecisionM::RequireApproval => out += "decision = \"require_approval\"\n",
                    PolicyDecisionM::Deny => out += "decision = \"deny\"\n",
                }
            }
        }
        if let Some(reason) = self.reason {
            out += &format!("reason = \"because of {}\"\n", reason.text());
        }
        out
    }
}

#[derive(Arbitrary, Debug, Clone)]
pub struct PolicyFileM {
    pub default: Option<VerdictM>,
    pub tests_paths: Option<Vec<PatternM>>,
    pub rules: Vec<RuleM>,
}

impl PolicyFileM {
    pub fn rules(&self) -> &[RuleM] {
        &self.rules[..self.rules.len().min(MAX_RULES)]
    }

    /// The file with its rules in `order` (indices into [`PolicyFileM::rules`]), each rule
    /// keeping its id `r<index>`, plus `extra` rules appended under their own ids.
    pub fn render(&self, order: &[usize], extra: &[(&str, &RuleM)]) -> String {
        let mut out = String::from("version = 1\n");
        if let Some(default) = self.default {
            out += &format!("default = \"{}\"\n", default.name());
        }
        if let Some(paths) = &self.tests_paths {
            out += &format!(
                "[tests]\npaths = {}\n",
                string_array(paths.iter().map(PatternM::render))
            );
        }
        out += "[[environment]]\nname = \"production\"\nbranches = [\"main\", \"release/*\"]\n";
        out += "[[environment]]\nname = \"staging\"\nbranches = [\"develop\"]\n";
        let rules = self.rules();
        for &index in order {
            out += &rules[index].render(&format!("r{index}"));
        }
        for (id, rule) in extra {
            out += &rule.render(id);
        }
        out
    }
}

#[derive(Arbitrary, Debug, Clone)]
pub struct CountsM {
    pub lines_added: Option<CountM>,
    pub lines_deleted: Option<CountM>,
    pub binary_files: Option<CountM>,
    pub bytes_added: Option<CountM>,
    pub tests_removed: Option<CountM>,
    pub test_skips_added: Option<CountM>,
    pub assertions_removed: Option<CountM>,
    pub impacted_components: Option<CountM>,
}

impl CountsM {
    pub fn get(&self, name: &str) -> Option<CountM> {
        match name {
            "lines_added" => self.lines_added,
            "lines_deleted" => self.lines_deleted,
            "binary_files" => self.binary_files,
            "bytes_added" => self.bytes_added,
            "tests_removed" => self.tests_removed,
            "test_skips_added" => self.test_skips_added,
            "assertions_removed" => self.assertions_removed,
            "impacted_components" => self.impacted_components,
            _ => None,
        }
    }

    const NAMES: [&'static str; 8] = [
        "lines_added",
        "lines_deleted",
        "binary_files",
        "bytes_added",
        "tests_removed",
        "test_skips_added",
        "assertions_removed",
        "impacted_components",
    ];
}

#[derive(Arbitrary, Debug, Clone)]
pub struct IntentM {
    pub actor: ActorM,
    pub env: EnvM,
    pub files: Vec<Vec<NameM>>,
    pub modifies_tests: bool,
    pub counts: CountsM,
    pub approved: Option<bool>,
}

impl IntentM {
    pub fn files(&self) -> Vec<String> {
        self.files
            .iter()
            .take(MAX_FILES)
            .map(|segments| {
                let parts: Vec<&str> = segments.iter().take(MAX_LIST).map(|n| n.text()).collect();
                if parts.is_empty() {
                    "a.rs".to_owned()
                } else {
                    parts.join("/")
                }
            })
            .collect()
    }

    pub fn render(&self) -> String {
        let mut diff = format!("\"modifies_tests\": \"{}\"", self.modifies_tests);
        for name in CountsM::NAMES {
            if let Some(count) = self.counts.get(name) {
                diff += &format!(", \"{name}\": {}", count.json());
            }
        }
        let approved = match self.approved {
            Some(flag) => format!(", \"approved\": {flag}"),
            None => String::new(),
        };
        format!(
            "{{\"actor\": {{\"type\": \"{}\"}}, \"target\": {{\"env\": \"{}\"}}, \"modified_files\": {}, \"diff\": {{{diff}}}{approved}}}",
            self.actor.name(),
            self.env.name(),
            json_array(self.files().into_iter())
        )
    }
}
