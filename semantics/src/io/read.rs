//! Values from literal expressions and from JSON, directed by the expected type.

use super::JsonNumbers;
use crate::scalar::{non_finite_message, NonFinite, Scalar};
use crate::value::{Tensor, Value};
use crate::Rat;
use adora_core::ast::{BinOp, Expr, ExprKind, Lit, UnOp};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::{Base, Type};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

/// Largest decimal exponent accepted in a number's text (`1e10000`).
const MAX_EXPONENT: i64 = 10_000;

/// Parses an exact rational: a decimal (`-2`, `0.125`, `1.5e-3`) or a quotient of two
/// decimals (`1/3`, `-2.5/7`). `None` for anything else and for a zero denominator.
pub fn parse_rational(text: &str) -> Option<Rat> {
    let text = text.trim();
    if let Some((p, q)) = text.split_once('/') {
        let (p, q) = (parse_decimal(p.trim())?, parse_decimal(q.trim())?);
        // `Scalar`'s division: on machine words when they suffice; `None` for `q = 0`.
        return <Rat as crate::scalar::Scalar>::checked_div(&p, &q);
    }
    parse_decimal(text)
}

/// A decimal number with optional sign, fraction and exponent.
fn parse_decimal(s: &str) -> Option<Rat> {
    let (neg, s) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(k) => (&s[..k], Some(&s[k + 1..])),
        None => (s, None),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits_ok = |d: &str| d.bytes().all(|c| c.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !digits_ok(int) || !digits_ok(frac) {
        return None;
    }
    let mut exp10: i64 = match exp {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits_ok(digits) || digits.len() > 6 {
                return None;
            }
            e.parse().ok()?
        }
    };
    if exp10.abs() > MAX_EXPONENT {
        return None;
    }
    exp10 -= frac.len() as i64;
    let all = format!("{int}{frac}");
    let n: BigInt = if all.is_empty() {
        BigInt::zero()
    } else {
        all.parse().ok()?
    };
    let n = if neg { -n } else { n };
    let ten = BigInt::from(10u32);
    let scale = num_traits::pow(ten, exp10.unsigned_abs() as usize);
    Some(if exp10 >= 0 {
        Rat::from_integer(n * scale)
    } else {
        Rat::new(n, scale)
    })
}

/// A number of a value literal: exact, or a non-finite `inf`, `-inf`, `nan` (which only
/// `f64` scalars hold; docs/language.md, "Non-finite literals").
#[derive(Clone, Debug)]
enum Num {
    Exact(Rat),
    NonFinite { x: NonFinite, neg: bool },
}

impl Num {
    fn neg(self) -> Num {
        match self {
            Num::Exact(r) => Num::Exact(-r),
            Num::NonFinite { x, neg } => Num::NonFinite { x, neg: !neg },
        }
    }

    /// The exact value, if any.
    fn exact(self) -> Option<Rat> {
        match self {
            Num::Exact(r) => Some(r),
            Num::NonFinite { .. } => None,
        }
    }

    /// The real scalar, or the non-rational error (`None`: the caller's span) for a
    /// non-finite number in an exact mode.
    fn real<S: Scalar>(&self) -> std::result::Result<S, String> {
        match self {
            Num::Exact(r) => Ok(S::from_rational(r)),
            Num::NonFinite { x, neg } => match S::non_finite(*x) {
                Some(v) if *neg => Ok(v.neg()),
                Some(v) => Ok(v),
                None => Err(non_finite_message(*x)),
            },
        }
    }
}

/// The number a literal expression denotes (`3`, `-2.5`, `1/3`, `-(1/3)`, `-inf`).
fn number(e: &Expr) -> Result<Option<Num>> {
    Ok(match &e.kind {
        ExprKind::Lit(Lit::Int(n)) => Some(Num::Exact(Rat::from_integer(n.clone()))),
        ExprKind::Lit(Lit::Real(r)) => Some(Num::Exact(r.clone())),
        ExprKind::Lit(Lit::NonFinite(x)) => Some(Num::NonFinite { x: *x, neg: false }),
        ExprKind::Unary(UnOp::Neg, a) => number(a)?.map(Num::neg),
        ExprKind::Binary(BinOp::Div, a, b) => {
            match (
                number(a)?.and_then(Num::exact),
                number(b)?.and_then(Num::exact),
            ) {
                (Some(p), Some(q)) => {
                    if Zero::is_zero(&q) {
                        return Err(Diagnostic::new(
                            ErrorKind::Input,
                            e.span,
                            "division by zero in a literal",
                        ));
                    }
                    Some(Num::Exact(p / q))
                }
                _ => None,
            }
        }
        _ => None,
    })
}

/// `n thing` or `n things`.
fn plural(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// What a literal expression looks like, for error messages.
fn describe(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Lit(Lit::Bool(_)) => "a boolean".to_string(),
        ExprKind::Array(es) => format!("an array of {}", plural(es.len(), "element")),
        ExprKind::Tuple(es) => format!("a tuple of {}", plural(es.len(), "component")),
        _ => match number(e) {
            Ok(Some(Num::Exact(r))) if r.is_integer() => "an integer".to_string(),
            Ok(Some(Num::Exact(_))) => "a non-integer number".to_string(),
            Ok(Some(Num::NonFinite { x, .. })) => format!("the non-finite number `{}`", x.name()),
            _ => "an expression that is not a literal".to_string(),
        },
    }
}

fn mismatch(span: Span, ty: &Type, found: String) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Input,
        span,
        format!("expected {ty}, found {found}"),
    )
}

/// Elements of the three base types, collected in row-major order.
enum Elems<S> {
    R(Vec<S>),
    Z(Vec<i64>),
    B(Vec<bool>),
}

impl<S: Scalar> Elems<S> {
    fn new(base: Base) -> Elems<S> {
        match base {
            Base::R => Elems::R(Vec::new()),
            Base::Z => Elems::Z(Vec::new()),
            Base::B => Elems::B(Vec::new()),
        }
    }
    fn into_value(self, shape: Vec<usize>) -> Value<S> {
        match self {
            Elems::R(d) => Value::Real(Tensor { shape, data: d }),
            Elems::Z(d) => Value::Int(Tensor { shape, data: d }),
            Elems::B(d) => Value::Bool(Tensor { shape, data: d }),
        }
    }
}

/// See [`crate::io::value_from_expr`].
pub(super) fn from_expr<S: Scalar>(e: &Expr, ty: &Type) -> Result<Value<S>> {
    match ty {
        Type::Tuple(ts) => match &e.kind {
            ExprKind::Tuple(es) if es.len() == ts.len() => Ok(Value::Tuple(
                es.iter()
                    .zip(ts)
                    .map(|(e, t)| from_expr(e, t))
                    .collect::<Result<_>>()?,
            )),
            _ => Err(mismatch(e.span, ty, describe(e))),
        },
        Type::Array(base, shape) => {
            let mut out = Elems::new(*base);
            collect_expr(e, *base, shape, &mut out)?;
            Ok(out.into_value(shape.clone()))
        }
    }
}

fn collect_expr<S: Scalar>(
    e: &Expr,
    base: Base,
    shape: &[usize],
    out: &mut Elems<S>,
) -> Result<()> {
    let ty = || Type::Array(base, shape.to_vec());
    if let Some((&n, rest)) = shape.split_first() {
        return match &e.kind {
            ExprKind::Array(es) if es.len() == n => {
                es.iter().try_for_each(|c| collect_expr(c, base, rest, out))
            }
            _ => Err(mismatch(e.span, &ty(), describe(e))),
        };
    }
    match out {
        Elems::R(d) => match number(e)? {
            Some(n) => d.push(
                n.real::<S>()
                    .map_err(|m| Diagnostic::new(ErrorKind::NonRational, e.span, m))?,
            ),
            None => return Err(mismatch(e.span, &ty(), describe(e))),
        },
        Elems::Z(d) => match number(e)?.and_then(Num::exact) {
            Some(r) if r.is_integer() => match r.to_integer().to_i64() {
                Some(n) => d.push(n),
                None => {
                    return Err(Diagnostic::new(
                        ErrorKind::Input,
                        e.span,
                        "integer out of the range of Z",
                    ))
                }
            },
            _ => return Err(mismatch(e.span, &ty(), describe(e))),
        },
        Elems::B(d) => match &e.kind {
            ExprKind::Lit(Lit::Bool(b)) => d.push(*b),
            _ => return Err(mismatch(e.span, &ty(), describe(e))),
        },
    }
    Ok(())
}

/// What a JSON value looks like, for error messages.
fn describe_json(j: &serde_json::Value) -> String {
    use serde_json::Value as J;
    match j {
        J::Null => "null".to_string(),
        J::Bool(_) => "a boolean".to_string(),
        J::Number(n) => format!("the number {n}"),
        J::String(s) => format!("the string {s:?}"),
        J::Array(a) => format!("an array of {}", plural(a.len(), "element")),
        J::Object(_) => "an object".to_string(),
    }
}

/// See [`crate::io::value_from_json`].
pub(super) fn from_json<S: Scalar>(
    j: &serde_json::Value,
    ty: &Type,
    what: &str,
    numbers: JsonNumbers,
) -> Result<Value<S>> {
    let err = |ty: &Type, j: &serde_json::Value| {
        Diagnostic::new(
            ErrorKind::Input,
            Span::DUMMY,
            format!("{what}: expected {ty}, found {}", describe_json(j)),
        )
    };
    match ty {
        Type::Tuple(ts) => match j {
            serde_json::Value::Array(a) if a.len() == ts.len() => Ok(Value::Tuple(
                a.iter()
                    .zip(ts)
                    .map(|(j, t)| from_json(j, t, what, numbers))
                    .collect::<Result<_>>()?,
            )),
            _ => Err(err(ty, j)),
        },
        Type::Array(base, shape) => {
            let mut out = Elems::new(*base);
            let reader = JsonReader { what, numbers };
            collect_json(j, *base, shape, &mut out, &reader, &err)?;
            Ok(out.into_value(shape.clone()))
        }
    }
}

/// How the elements of a JSON input are read: who is reading (`what`, for errors) and how
/// JSON numbers become reals.
struct JsonReader<'a> {
    what: &'a str,
    numbers: JsonNumbers,
}

impl JsonReader<'_> {
    /// The real a JSON scalar denotes: a number (by [`JsonNumbers`]), a string `"p/q"`,
    /// `"n"` or a decimal (always exact), or `"inf"`, `"-inf"`, `"nan"`. `Ok(None)`: not a
    /// real at all; `Err`: a real this numeric mode cannot hold, or a number that is no
    /// finite double.
    fn real<S: Scalar>(&self, j: &serde_json::Value) -> Result<Option<S>> {
        use serde_json::Value as J;
        let num = match j {
            J::Number(n) => match self.numbers {
                JsonNumbers::Decimal => parse_rational(&n.to_string()).map(Num::Exact),
                JsonNumbers::Double => Some(Num::Exact(self.double(n)?)),
            },
            J::String(s) => match s.as_str() {
                "inf" => Some(Num::NonFinite {
                    x: NonFinite::Inf,
                    neg: false,
                }),
                "-inf" => Some(Num::NonFinite {
                    x: NonFinite::Inf,
                    neg: true,
                }),
                "nan" => Some(Num::NonFinite {
                    x: NonFinite::NaN,
                    neg: false,
                }),
                _ => parse_rational(s).map(Num::Exact),
            },
            _ => None,
        };
        match num {
            None => Ok(None),
            Some(n) => n.real::<S>().map(Some).map_err(|m| {
                Diagnostic::new(
                    ErrorKind::NonRational,
                    Span::DUMMY,
                    format!("{}: {m}", self.what),
                )
            }),
        }
    }

    /// The exact value of the IEEE double nearest to the JSON number's decimal text
    /// ([`JsonNumbers::Double`]); a number out of the range of doubles is an input error.
    fn double(&self, n: &serde_json::Number) -> Result<Rat> {
        let text = n.to_string();
        text.parse::<f64>()
            .ok()
            .and_then(Rat::from_float)
            .ok_or_else(|| {
                Diagnostic::new(
                    ErrorKind::Input,
                    Span::DUMMY,
                    format!(
                        "{}: the number {text} is out of the range of IEEE doubles (--json-numbers double)",
                        self.what
                    ),
                )
            })
    }
}

fn collect_json<S: Scalar>(
    j: &serde_json::Value,
    base: Base,
    shape: &[usize],
    out: &mut Elems<S>,
    reader: &JsonReader,
    err: &dyn Fn(&Type, &serde_json::Value) -> Diagnostic,
) -> Result<()> {
    use serde_json::Value as J;
    let ty = || Type::Array(base, shape.to_vec());
    if let Some((&n, rest)) = shape.split_first() {
        return match j {
            J::Array(a) if a.len() == n => a
                .iter()
                .try_for_each(|c| collect_json(c, base, rest, out, reader, err)),
            _ => Err(err(&ty(), j)),
        };
    }
    match out {
        Elems::R(d) => d.push(reader.real::<S>(j)?.ok_or_else(|| err(&ty(), j))?),
        Elems::Z(d) => {
            // Integers are read exactly whatever `JsonNumbers` says.
            let rational = match j {
                J::Number(n) => parse_rational(&n.to_string()),
                J::String(s) => parse_rational(s),
                _ => None,
            };
            match rational
                .filter(|r| r.is_integer())
                .and_then(|r| r.to_integer().to_i64())
            {
                Some(n) => d.push(n),
                None => return Err(err(&ty(), j)),
            }
        }
        Elems::B(d) => match j {
            J::Bool(b) => d.push(*b),
            _ => return Err(err(&ty(), j)),
        },
    }
    Ok(())
}
