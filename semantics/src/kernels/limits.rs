//! The evaluator's limits and events (docs/language.md, "Resource limits" and "Semantic
//! conventions"): the errors they raise, and [`Checks`], the counters of a runtime that
//! is not the evaluator (the dual-arrays runtime passes of `adora-rewrites`).

use super::arith::int_op;
use crate::eval::EvalOptions;
use crate::scalar::Scalar;
use adora_core::ast::BinOp;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::limits::MAX_ARRAY_ELEMENTS;

/// The `ErrorKind::Resource` error of an array over [`MAX_ARRAY_ELEMENTS`] scalars.
pub fn too_many_elements(span: Span) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Resource,
        span,
        format!("array of more than {MAX_ARRAY_ELEMENTS} scalars"),
    )
}

/// `n` when an array of `n` scalars is within [`MAX_ARRAY_ELEMENTS`] (`None`: the size
/// overflowed), the error of [`too_many_elements`] otherwise.
pub fn check_elements(n: Option<usize>, span: Span) -> Result<usize> {
    match n {
        Some(n) if n <= MAX_ARRAY_ELEMENTS => Ok(n),
        _ => Err(too_many_elements(span)),
    }
}

/// The `ErrorKind::Resource` error of an exact rational over `max_bits` bits.
pub fn too_large(max_bits: u64, span: Span) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Resource,
        span,
        format!(
            "exact rational larger than {max_bits} bits (numerator or denominator); use --numeric f64"
        ),
    )
}

/// The message of the `ErrorKind::Resource` error past `max_steps` evaluation steps.
pub fn step_limit_message(max_steps: u64) -> String {
    format!("evaluation step limit ({max_steps}) exceeded")
}

/// The `ErrorKind::Runtime` error of a division by zero under `--strict`.
pub fn division_by_zero(span: Span) -> Diagnostic {
    Diagnostic::new(ErrorKind::Runtime, span, "division by zero")
}

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
                step_limit_message(self.opts.max_steps),
            ));
        }
        Ok(())
    }

    /// Checks that an array of `n` scalars is within the element limit.
    pub fn limit(&self, n: Option<usize>, span: Span) -> Result<usize> {
        check_elements(n, span)
    }

    /// Checks the size of an exact rational produced by arithmetic.
    pub fn fit<S: Scalar>(&self, x: S, span: Span) -> Result<S> {
        if x.fits_bits(self.opts.max_rational_bits) {
            Ok(x)
        } else {
            Err(too_large(self.opts.max_rational_bits, span))
        }
    }

    /// A division by zero: an error under `strict`.
    pub fn div_zero(&mut self, span: Span) -> Result<()> {
        if self.opts.strict {
            return Err(division_by_zero(span));
        }
        Ok(())
    }

    /// `x / y` on reals, total.
    pub fn real_div<S: Scalar>(&mut self, x: &S, y: &S, span: Span) -> Result<S> {
        let (q, zero) = super::arith::div_real(x, y);
        if zero {
            self.div_zero(span)?;
        }
        self.fit(q, span)
    }

    /// `x op y` on integers (`+ - * / %`).
    pub fn int_arith(&mut self, op: BinOp, x: i64, y: i64, span: Span) -> Result<i64> {
        let (r, by_zero) = int_op(op, x, y);
        if by_zero {
            self.div_zero(span)?;
        }
        r.ok_or_else(|| overflow(span))
    }

    /// `pow(x, k)` on reals ([`super::arith::pow_real`]) with the size checks and the
    /// division-by-zero event; charges [`super::arith::pow_steps`] steps.
    pub fn pow_real<S: Scalar>(&mut self, x: &S, k: i64, span: Span) -> Result<S> {
        self.charge(super::arith::pow_steps(k), span)?;
        let bits = self.opts.max_rational_bits;
        super::arith::pow_real(
            x,
            k,
            bits,
            |v| {
                if v.fits_bits(bits) {
                    Ok(v)
                } else {
                    Err(too_large(bits, span))
                }
            },
            || too_large(bits, span),
            || self.div_zero(span),
        )
    }

    /// `pow(x, k)` on integers ([`super::arith::pow_int`]).
    pub fn pow_int(&mut self, x: i64, k: i64, span: Span) -> Result<i64> {
        super::arith::pow_int(x, k, || self.div_zero(span))?.ok_or_else(|| overflow(span))
    }
}
