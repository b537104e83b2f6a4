//! The evaluator's limits and events (docs/language.md, "Resource limits" and "Semantic
//! conventions"): the errors they raise, and [`Checks`], the counters of a runtime that
//! is not the evaluator (the dual-arrays runtime passes of `adora-rewrites`).

use super::arith::int_op;
use crate::eval::EvalOptions;
use crate::scalar::Scalar;
use adora_core::ast::{BinOp, ExprKind};
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

/// The message of the `ErrorKind::Resource` error past `max_memory` bytes of arrays.
pub fn memory_limit_message(max_memory: u64) -> String {
    format!("memory budget ({max_memory} bytes of arrays) exceeded; use --max-memory N")
}

/// The bytes the memory budget counts for an array of `scalars` scalars in a runtime
/// whose reals are `S`: `size_of::<S>()` per scalar (at least 8, the size of a `Z`). It
/// is the fixed-size storage only: the digits of large exact rationals are bounded by
/// `max_rational_bits` instead (docs/language.md, "Resource limits").
pub fn array_bytes<S>(scalars: usize) -> u64 {
    let per = std::mem::size_of::<S>().max(8) as u64;
    (scalars as u64).saturating_mul(per)
}

/// Whether a node of this form produces a new array, which costs one step and
/// [`array_bytes`] per scalar (docs/language.md, "Resource limits"): elementwise operators,
/// primitives, array literals and the bulk constructs do; variables, literals, tuples,
/// projections, `if`, `let`, `loop` and indexing (a view of its operand) pass values on.
pub fn produces(kind: &ExprKind) -> bool {
    !matches!(
        kind,
        ExprKind::Var(_)
            | ExprKind::Lit(_)
            | ExprKind::Tuple(_)
            | ExprKind::Proj(..)
            | ExprKind::If(..)
            | ExprKind::Let(..)
            | ExprKind::Loop { .. }
            | ExprKind::Index(..)
            | ExprKind::Call(..)
    )
}

/// The step limit and the memory budget before producing `scalars` more scalars, at
/// `steps` steps and `bytes` bytes so far: `Err(true)` past the step limit, `Err(false)`
/// past the memory budget.
fn over(opts: &EvalOptions, steps: u64, bytes: u64, scalars: u64, add: u64) -> Option<bool> {
    if steps.saturating_add(scalars) > opts.max_steps {
        Some(true)
    } else if bytes.saturating_add(add) > opts.max_memory {
        Some(false)
    } else {
        None
    }
}

/// The step and memory accounting of one run (docs/language.md, "Resource limits"): the
/// one implementation the evaluator and the runtime passes share.
#[derive(Clone, Copy, Debug, Default)]
pub struct Usage {
    /// Steps taken.
    pub steps: u64,
    /// Bytes of arrays produced ([`array_bytes`]).
    pub bytes: u64,
}

/// Which limit an accounting call ran past.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exceeded {
    /// `max_steps`.
    Steps,
    /// `max_memory`.
    Memory,
}

impl Exceeded {
    /// The message of the error, under `opts`.
    pub fn message(self, opts: &EvalOptions) -> String {
        match self {
            Exceeded::Steps => step_limit_message(opts.max_steps),
            Exceeded::Memory => memory_limit_message(opts.max_memory),
        }
    }
}

impl Usage {
    /// Counts `n` steps.
    pub fn charge(&mut self, n: u64, opts: &EvalOptions) -> std::result::Result<(), Exceeded> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > opts.max_steps {
            return Err(Exceeded::Steps);
        }
        Ok(())
    }

    /// Checks, before allocating, that producing `scalars` scalars (one step and
    /// `array_bytes::<S>(1)` bytes each) stays within both limits; counts nothing.
    pub fn reserve<S>(
        &self,
        scalars: usize,
        opts: &EvalOptions,
    ) -> std::result::Result<(), Exceeded> {
        match over(
            opts,
            self.steps,
            self.bytes,
            scalars as u64,
            array_bytes::<S>(scalars),
        ) {
            Some(true) => Err(Exceeded::Steps),
            Some(false) => Err(Exceeded::Memory),
            None => Ok(()),
        }
    }

    /// Counts an array of `scalars` scalars produced: one step and its bytes each.
    pub fn produce<S>(
        &mut self,
        scalars: usize,
        opts: &EvalOptions,
    ) -> std::result::Result<(), Exceeded> {
        self.bytes = self.bytes.saturating_add(array_bytes::<S>(scalars));
        if self.bytes > opts.max_memory {
            return Err(Exceeded::Memory);
        }
        self.charge(scalars as u64, opts)
    }
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

/// The evaluator's limits and events, shared by the runtime passes. Its step and memory
/// accounting is [`Usage`], the evaluator's, for reals of `S`.
pub struct Checks<'o, S> {
    /// The evaluation options (strictness, limits).
    pub opts: &'o EvalOptions,
    /// Steps and bytes so far.
    pub usage: Usage,
    _s: std::marker::PhantomData<S>,
}

impl<'o, S> Checks<'o, S> {
    /// Fresh counters under `opts`.
    pub fn new(opts: &'o EvalOptions) -> Checks<'o, S> {
        Checks {
            opts,
            usage: Usage::default(),
            _s: std::marker::PhantomData,
        }
    }

    fn error(&self, x: Exceeded, span: Span) -> Diagnostic {
        Diagnostic::new(ErrorKind::Resource, span, x.message(self.opts))
    }

    /// Counts `n` evaluation steps; past the limit, `ErrorKind::Resource`.
    pub fn charge(&mut self, n: u64, span: Span) -> Result<()> {
        self.usage
            .charge(n, self.opts)
            .map_err(|x| self.error(x, span))
    }

    /// Counts an array of `scalars` scalars produced by a node at `span` ([`Usage::produce`]).
    pub fn produce(&mut self, scalars: usize, span: Span) -> Result<()> {
        self.usage
            .produce::<S>(scalars, self.opts)
            .map_err(|x| self.error(x, span))
    }

    /// Checks, before allocating an array of `n` scalars, the element limit, the step
    /// limit and the memory budget ([`Usage::reserve`]); `n` when all three hold.
    pub fn limit(&self, n: Option<usize>, span: Span) -> Result<usize> {
        let n = check_elements(n, span)?;
        self.usage
            .reserve::<S>(n, self.opts)
            .map_err(|x| self.error(x, span))?;
        Ok(n)
    }

    /// Checks the size of an exact rational produced by arithmetic.
    pub fn fit<T: Scalar>(&self, x: T, span: Span) -> Result<T> {
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
    pub fn real_div<T: Scalar>(&mut self, x: &T, y: &T, span: Span) -> Result<T> {
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
    pub fn pow_real<T: Scalar>(&mut self, x: &T, k: i64, span: Span) -> Result<T> {
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
