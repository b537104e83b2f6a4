//! Scalar semantics of the primal computations of the runtime passes, exactly the
//! evaluator's (docs/language.md; `adora_semantics::eval`): total division with its event (an
//! error under `--strict`), 64-bit integers with overflow errors, floor division, the
//! tie rules of `min`/`max`, `pow` by repeated multiplication, left-fold sums, the bound
//! on exact rationals' sizes, the step and array-size limits.

use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::limits::MAX_ARRAY_ELEMENTS;
use adora_semantics::eval::EvalOptions;
use adora_semantics::scalar::Scalar;
use std::cmp::Ordering;

/// The `ErrorKind::Runtime` "integer overflow" error.
pub fn overflow(span: Span) -> Diagnostic {
    Diagnostic::new(ErrorKind::Runtime, span, "integer overflow")
}

/// An error for a program that is not well typed (excluded by the checker; kept total).
pub fn ill(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Type, span, msg)
}

/// The evaluator's limits and events, shared by the runtime passes.
pub struct Checks<'o> {
    /// The evaluation options (strictness, limits).
    pub opts: &'o EvalOptions,
    /// Nodes evaluated so far.
    pub steps: u64,
}

impl<'o> Checks<'o> {
    /// Fresh counters under `opts`.
    pub fn new(opts: &'o EvalOptions) -> Checks<'o> {
        Checks { opts, steps: 0 }
    }

    /// Counts `n` evaluation steps; past the limit, `ErrorKind::Resource`.
    pub fn charge(&mut self, n: u64, span: Span) -> Result<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.opts.max_steps {
            return Err(Diagnostic::new(
                ErrorKind::Resource,
                span,
                format!("evaluation step limit ({}) exceeded", self.opts.max_steps),
            ));
        }
        Ok(())
    }

    /// Checks that an array of `n` scalars is within the element limit.
    pub fn limit(&self, n: Option<usize>, span: Span) -> Result<usize> {
        match n {
            Some(n) if n <= MAX_ARRAY_ELEMENTS => Ok(n),
            _ => Err(Diagnostic::new(
                ErrorKind::Resource,
                span,
                format!("array of more than {MAX_ARRAY_ELEMENTS} scalars"),
            )),
        }
    }

    /// Checks the size of an exact rational produced by arithmetic.
    pub fn fit<S: Scalar>(&self, x: S, span: Span) -> Result<S> {
        if x.fits_bits(self.opts.max_rational_bits) {
            Ok(x)
        } else {
            Err(Diagnostic::new(
                ErrorKind::Resource,
                span,
                format!(
                    "exact rational larger than {} bits (numerator or denominator); use --numeric f64",
                    self.opts.max_rational_bits
                ),
            ))
        }
    }

    /// A division by zero: an error under `strict`.
    pub fn div_zero(&mut self, span: Span) -> Result<()> {
        if self.opts.strict {
            return Err(Diagnostic::new(
                ErrorKind::Runtime,
                span,
                "division by zero",
            ));
        }
        Ok(())
    }

    /// `x / y` on reals, total.
    pub fn real_div<S: Scalar>(&mut self, x: &S, y: &S, span: Span) -> Result<S> {
        let q = match x.checked_div(y) {
            Some(q) => q,
            None => {
                self.div_zero(span)?;
                x.div_by_zero(y)
            }
        };
        self.fit(q, span)
    }

    /// `x op y` on integers (`+ - * / %`).
    pub fn int_arith(
        &mut self,
        op: adora_core::ast::BinOp,
        x: i64,
        y: i64,
        span: Span,
    ) -> Result<i64> {
        use adora_core::ast::BinOp;
        let r = match op {
            BinOp::Add => x.checked_add(y),
            BinOp::Sub => x.checked_sub(y),
            BinOp::Mul => x.checked_mul(y),
            BinOp::Div => match floor_div(x, y) {
                Some(q) => q,
                None => {
                    self.div_zero(span)?;
                    Some(0)
                }
            },
            _ => match floor_mod(x, y) {
                Some(r) => Some(r),
                None => {
                    self.div_zero(span)?;
                    Some(x)
                }
            },
        };
        r.ok_or_else(|| overflow(span))
    }

    /// `pow(x, k)` on reals: `|k|` multiplications from one, then a total reciprocal
    /// for negative `k`.
    pub fn pow_real<S: Scalar>(&mut self, x: &S, k: i64, span: Span) -> Result<S> {
        let mut r = S::one();
        for _ in 0..k.unsigned_abs() {
            r = self.fit(r.mul(x), span)?;
        }
        if k < 0 {
            r = match S::one().checked_div(&r) {
                Some(q) => self.fit(q, span)?,
                None => {
                    self.div_zero(span)?;
                    S::one().div_by_zero(&r)
                }
            };
        }
        Ok(r)
    }

    /// `pow(x, k)` on integers (a negative power is the floor reciprocal).
    pub fn pow_int(&mut self, x: i64, k: i64, span: Span) -> Result<i64> {
        let mut r: i64 = 1;
        for _ in 0..k.unsigned_abs() {
            r = r.checked_mul(x).ok_or_else(|| overflow(span))?;
        }
        if k < 0 {
            r = match floor_div(1, r) {
                Some(q) => q.ok_or_else(|| overflow(span))?,
                None => {
                    self.div_zero(span)?;
                    0
                }
            };
        }
        Ok(r)
    }
}

/// `pow(x, k)` with total division and no events or limits (for derivative factors,
/// whose primal counterpart has already been checked).
pub fn pow_total<S: Scalar>(x: &S, k: i64) -> S {
    let mut r = S::one();
    for _ in 0..k.unsigned_abs() {
        r = r.mul(x);
    }
    if k < 0 {
        r = S::one()
            .checked_div(&r)
            .unwrap_or_else(|| S::one().div_by_zero(&r));
    }
    r
}

/// Floor division on `Z`: `None` for a zero divisor, `Some(None)` on overflow.
pub fn floor_div(x: i64, y: i64) -> Option<Option<i64>> {
    if y == 0 {
        return None;
    }
    let Some(q) = x.checked_div(y) else {
        return Some(None);
    };
    Some(Some(if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }))
}

/// Remainder of floor division (sign of the divisor); `None` for a zero divisor.
pub fn floor_mod(x: i64, y: i64) -> Option<i64> {
    if y == 0 {
        return None;
    }
    if y == -1 {
        return Some(0);
    }
    let r = x % y;
    Some(if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    })
}

/// Whether `max(a, b)` (`is_max`) or `min(a, b)` keeps its left operand: `a >= b` resp.
/// `a <= b` on primal values (ties pick the left operand; an unordered pair the right).
pub fn keeps_left(is_max: bool, o: Option<Ordering>) -> bool {
    match o {
        Some(Ordering::Equal) => true,
        Some(Ordering::Greater) => is_max,
        Some(Ordering::Less) => !is_max,
        None => false,
    }
}

/// Whether an ordering satisfies a comparison operator.
pub fn holds(op: adora_core::ast::BinOp, o: Option<Ordering>) -> bool {
    use adora_core::ast::BinOp;
    match op {
        BinOp::Eq => o == Some(Ordering::Equal),
        BinOp::Ne => o != Some(Ordering::Equal),
        BinOp::Lt => o == Some(Ordering::Less),
        BinOp::Le => matches!(o, Some(Ordering::Less | Ordering::Equal)),
        BinOp::Gt => o == Some(Ordering::Greater),
        BinOp::Ge => matches!(o, Some(Ordering::Greater | Ordering::Equal)),
        _ => false,
    }
}

/// `abs'(x)`: `-1` below zero, `0` at zero, `1` above (and for unordered values, as the
/// reference's dual numbers do).
pub fn sign<S: Scalar>(x: &S) -> S {
    match x.compare(&S::zero()) {
        Some(Ordering::Less) => S::one().neg(),
        Some(Ordering::Equal) => S::zero(),
        _ => S::one(),
    }
}
