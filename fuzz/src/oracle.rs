//! An independent, string-based reading of SPEC §4's number grammar, used to check
//! `astrix::policy::numeric` against exact arithmetic computed another way.
//!
//! A number is kept as its sign, its significant digits (no leading or trailing zeros) and
//! a power of ten, so any length and any exponent compare exactly; nothing goes through
//! `rust_decimal`, floats or the code under test.

use std::cmp::Ordering;

/// The largest magnitude `rust_decimal` holds: 2^96 - 1.
pub const MAX_MANTISSA: &str = "79228162514264337593543950335";
/// The most digits after the decimal point.
pub const MAX_SCALE: i128 = 28;
/// Exponents are clamped to this magnitude: far beyond anything that fits, far below
/// overflow when input lengths are added.
const EXPONENT_CLAMP: i128 = 1_000_000_000_000_000_000_000_000;

/// An exact decimal: `(-1)^negative × 0.d1d2d3… × 10^point`, or zero when `digits` is empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exact {
    pub negative: bool,
    /// Significant digits, ASCII, without leading or trailing zeros.
    pub digits: Vec<u8>,
    /// The value is `0.digits × 10^point`: the position of the decimal point relative to
    /// the first significant digit.
    pub point: i128,
}

/// What the grammar says about a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// A well-formed number (whether or not a decimal can hold it).
    Number(Exact),
    /// `nan`, `inf`, `infinity` in any case, with an optional sign.
    NonFinite,
    /// Anything else.
    Malformed,
}

impl Exact {
    pub fn zero() -> Self {
        Self {
            negative: false,
            digits: Vec::new(),
            point: 0,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Whether this is a count: a whole number of zero or more (a negative or fractional
    /// count fails the policy that reads it).
    pub fn is_count(&self) -> bool {
        self.is_zero() || (!self.negative && self.digits.len() as i128 <= self.point)
    }

    /// An integer.
    pub fn from_i128(value: i128) -> Self {
        match read(&value.to_string()) {
            Reading::Number(exact) => exact,
            _ => unreachable!("an integer's digits are a number"),
        }
    }

    /// Whether `rust_decimal` holds this value exactly: some scale 0..=28 and a mantissa of
    /// at most 2^96 - 1 with `value = mantissa / 10^scale`.
    pub fn fits(&self) -> bool {
        if self.is_zero() {
            return true;
        }
        let n = self.digits.len() as i128;
        // Digits after the decimal point: n - point when positive.
        let scale = (n - self.point).max(0);
        if scale > MAX_SCALE {
            return false;
        }
        // The mantissa is the digits followed by (point - n) zeros when point > n.
        let mantissa_len = n.max(self.point);
        let max_len = MAX_MANTISSA.len() as i128;
        match mantissa_len.cmp(&max_len) {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => {
                let mut mantissa = self.digits.clone();
                mantissa.resize(MAX_MANTISSA.len(), b'0');
                mantissa.as_slice() <= MAX_MANTISSA.as_bytes()
            }
        }
    }

    /// Canonical text: `-12.5`, `1000`, `0.001`, `0`.
    pub fn to_text(&self) -> String {
        if self.is_zero() {
            return "0".to_owned();
        }
        let digits = std::str::from_utf8(&self.digits).unwrap_or_default();
        let n = self.digits.len() as i128;
        let body = if self.point <= 0 {
            format!("0.{}{digits}", "0".repeat((-self.point) as usize))
        } else if self.point >= n {
            format!("{digits}{}", "0".repeat((self.point - n) as usize))
        } else {
            let (int, frac) = digits.split_at(self.point as usize);
            format!("{int}.{frac}")
        };
        if self.negative {
            format!("-{body}")
        } else {
            body
        }
    }

    /// The value as an i128, when it is an integer that fits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.is_zero() {
            return Some(0);
        }
        if self.point < self.digits.len() as i128 || self.point > 38 {
            return None;
        }
        self.to_text().parse().ok()
    }
}

impl Ord for Exact {
    fn cmp(&self, other: &Self) -> Ordering {
        let sign = |x: &Exact| -> i8 {
            if x.is_zero() {
                0
            } else if x.negative {
                -1
            } else {
                1
            }
        };
        let (a, b) = (sign(self), sign(other));
        if a != b || a == 0 {
            return a.cmp(&b);
        }
        let magnitude = self
            .point
            .cmp(&other.point)
            .then_with(|| self.digits.cmp(&other.digits));
        if a < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl PartialOrd for Exact {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Reads `text` by SPEC §4's grammar, exactly as written (no whitespace allowed):
/// `[sign] digits [ "." digits ] [ (e|E) [sign] digits ]`.
pub fn read(text: &str) -> Reading {
    let unsigned = text
        .strip_prefix(['+', '-'])
        .unwrap_or(text)
        .to_ascii_lowercase();
    if ["nan", "inf", "infinity"].contains(&unsigned.as_str()) {
        return Reading::NonFinite;
    }
    let negative = text.starts_with('-');
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (integer, fraction) = match mantissa.split_once('.') {
        Some((integer, fraction)) => (integer, Some(fraction)),
        None => (mantissa, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(integer) || fraction.is_some_and(|f| !all_digits(f)) {
        return Reading::Malformed;
    }
    let exponent: i128 = match exponent {
        None => 0,
        Some(e) => {
            let (negative, digits) = match e.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, e.strip_prefix('+').unwrap_or(e)),
            };
            if !all_digits(digits) {
                return Reading::Malformed;
            }
            let mut value: i128 = 0;
            for b in digits.bytes() {
                value = (value * 10 + i128::from(b - b'0')).min(EXPONENT_CLAMP);
            }
            if negative { -value } else { value }
        }
    };
    // digits = integer ++ fraction; value = 0.digits × 10^(len(integer) + exponent).
    let fraction = fraction.unwrap_or("");
    let all: Vec<u8> = integer.bytes().chain(fraction.bytes()).collect();
    let leading = all.iter().take_while(|&&b| b == b'0').count();
    let mut digits = all[leading..].to_vec();
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    if digits.is_empty() {
        return Reading::Number(Exact::zero());
    }
    Reading::Number(Exact {
        negative,
        digits,
        point: integer.len() as i128 - leading as i128 + exponent,
    })
}

/// `left + right`, exactly.
pub fn add(left: &Exact, right: &Exact) -> Exact {
    if left.is_zero() {
        return right.clone();
    }
    if right.is_zero() {
        return left.clone();
    }
    // Both as integers at a common exponent: value = integer × 10^low.
    let low =
        (left.point - left.digits.len() as i128).min(right.point - right.digits.len() as i128);
    let widen = |x: &Exact| -> Vec<u8> {
        // Little-endian digit values of x / 10^low.
        let pad = (x.point - x.digits.len() as i128 - low) as usize;
        let mut out = vec![0_u8; pad];
        out.extend(x.digits.iter().rev().map(|b| b - b'0'));
        out
    };
    let (a, b) = (widen(left), widen(right));
    let magnitude_cmp = |a: &[u8], b: &[u8]| -> Ordering {
        let trim = |v: &[u8]| v.len() - v.iter().rev().take_while(|&&d| d == 0).count();
        let (la, lb) = (trim(a), trim(b));
        la.cmp(&lb)
            .then_with(|| a[..la].iter().rev().cmp(b[..lb].iter().rev()))
    };
    let (negative, digits) = if left.negative == right.negative {
        let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
        let mut carry = 0;
        for i in 0..a.len().max(b.len()) {
            let sum = a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0) + carry;
            out.push(sum % 10);
            carry = sum / 10;
        }
        out.push(carry);
        (left.negative, out)
    } else {
        let (big, small, negative) = match magnitude_cmp(&a, &b) {
            Ordering::Equal => return Exact::zero(),
            Ordering::Greater => (a, b, left.negative),
            Ordering::Less => (b, a, right.negative),
        };
        let mut out = Vec::with_capacity(big.len());
        let mut borrow = 0_i8;
        for i in 0..big.len() {
            let mut d = big[i] as i8 - small.get(i).copied().unwrap_or(0) as i8 - borrow;
            borrow = 0;
            if d < 0 {
                d += 10;
                borrow = 1;
            }
            out.push(d as u8);
        }
        (negative, out)
    };
    // Back to significant digits: drop low zeros (raising the exponent) and high zeros.
    let low_zeros = digits.iter().take_while(|&&d| d == 0).count();
    let mut significant: Vec<u8> = digits[low_zeros..].iter().rev().map(|d| d + b'0').collect();
    let high_zeros = significant.iter().take_while(|&&b| b == b'0').count();
    significant.drain(..high_zeros);
    if significant.is_empty() {
        return Exact::zero();
    }
    let exponent = low + low_zeros as i128;
    Exact {
        negative,
        point: significant.len() as i128 + exponent,
        digits: significant,
    }
}

/// `left <op> right` for an operator written as in policies.
pub fn compare(left: &Exact, symbol: &str, right: &Exact) -> bool {
    let order = left.cmp(right);
    match symbol {
        "<" => order == Ordering::Less,
        "<=" => order != Ordering::Greater,
        ">" => order == Ordering::Greater,
        ">=" => order != Ordering::Less,
        "==" => order == Ordering::Equal,
        "!=" => order != Ordering::Equal,
        other => panic!("unknown operator {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> Exact {
        match read(text) {
            Reading::Number(exact) => exact,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn reads_and_prints() {
        for (text, canonical) in [
            ("0", "0"),
            ("-0.00", "0"),
            ("10.50", "10.5"),
            ("1e3", "1000"),
            ("007", "7"),
            ("-1.25e-2", "-0.0125"),
            ("123.456", "123.456"),
            ("0.001", "0.001"),
        ] {
            assert_eq!(number(text).to_text(), canonical, "{text}");
        }
        for text in [
            "", ".5", "5.", "1e", "1e+", "--1", "1.2.3", " 1", "0x10", "1_000",
        ] {
            assert_eq!(read(text), Reading::Malformed, "{text:?}");
        }
        assert_eq!(read("-Infinity"), Reading::NonFinite);
    }

    #[test]
    fn range() {
        assert!(number(MAX_MANTISSA).fits());
        assert!(!number("79228162514264337593543950336").fits());
        assert!(number("7.9228162514264337593543950335").fits());
        assert!(number("0.0000000000000000000000000001").fits());
        assert!(!number("0.00000000000000000000000000001").fits());
        assert!(!number("1e29").fits());
        assert!(number("1e28").fits());
        assert!(number("0e999999999999999999999999999").fits());
    }

    #[test]
    fn orders() {
        assert!(number("-2") < number("-1.5"));
        assert!(number("0.1") < number("1"));
        assert!(number("1e3") == number("1000.000"));
        assert!(compare(&number("400"), "<=", &number("4e2")));
        assert!(!compare(&number("400.0001"), "<=", &number("4e2")));
        assert_eq!(number("-17").to_i128(), Some(-17));
        assert_eq!(number("1.5").to_i128(), None);
    }

    #[test]
    fn adds() {
        for (a, b, sum) in [
            ("1", "2", "3"),
            ("0.5", "0.5", "1"),
            ("-1", "1", "0"),
            (
                "1e28",
                "1e-28",
                "10000000000000000000000000000.0000000000000000000000000001",
            ),
            ("-2.5", "1", "-1.5"),
            ("1", "-2.5", "-1.5"),
            ("999", "1", "1000"),
            ("0", "-7", "-7"),
            ("100", "-0.01", "99.99"),
        ] {
            assert_eq!(add(&number(a), &number(b)).to_text(), sum, "{a} + {b}");
            assert_eq!(add(&number(a), &number(b)), number(sum), "{a} + {b}");
        }
    }
}
