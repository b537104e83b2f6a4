//! The scalar-field trait the evaluator is generic over, and its instances for exact
//! rationals ([`Rat`]) and `f64`.
//!
//! Conventions shared by every instance (docs/language.md):
//!
//! * division by zero is an event: [`Scalar::checked_div`] returns `None` for a zero
//!   divisor, the evaluator counts the event (`--strict` makes it an error) and uses
//!   [`Scalar::div_by_zero`]: `0` for exact rationals (total division, `x / 0 = 0`), the
//!   IEEE result (`±inf`, `NaN`) for `f64`, as docs/language.md fixes ("f64 mode is IEEE");
//! * comparisons ([`Scalar::compare`]) look at the primal value only (for dual numbers the
//!   tangent is ignored), so `min`, `max` and `select` return the selected operand whole;
//! * the transcendental functions ([`Transcendental`]) are not rational: exact instances
//!   return a [`NonRational`] error that the evaluator reports as
//!   `ErrorKind::NonRational`; `f64` evaluates them with IEEE semantics (`log(-1)` is NaN,
//!   `log(0)` is `-inf`).
//!
//! Name clashes: several methods share their names with `num_traits` methods (`zero`,
//! `one`, `is_zero`, `from_i64`). Where both traits are in scope call them as
//! `<Rat as Scalar>::zero()`.

use crate::Rat;
pub use adora_core::ast::NonFinite;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

pub mod interval;
mod word;

pub use interval::Interval;

/// The non-rational elementwise functions of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transcendental {
    /// `exp`.
    Exp,
    /// `log` (natural logarithm).
    Log,
    /// `sin`.
    Sin,
    /// `cos`.
    Cos,
    /// `tanh`.
    Tanh,
    /// `sqrt`.
    Sqrt,
}

impl Transcendental {
    /// The function's name in the concrete syntax.
    pub fn name(self) -> &'static str {
        match self {
            Transcendental::Exp => "exp",
            Transcendental::Log => "log",
            Transcendental::Sin => "sin",
            Transcendental::Cos => "cos",
            Transcendental::Tanh => "tanh",
            Transcendental::Sqrt => "sqrt",
        }
    }

    /// The transcendental function a primitive denotes, if it is one.
    pub fn of_prim(p: &adora_core::ast::Prim) -> Option<Transcendental> {
        use adora_core::ast::Prim;
        Some(match p {
            Prim::Exp => Transcendental::Exp,
            Prim::Log => Transcendental::Log,
            Prim::Sin => Transcendental::Sin,
            Prim::Cos => Transcendental::Cos,
            Prim::Tanh => Transcendental::Tanh,
            Prim::Sqrt => Transcendental::Sqrt,
            _ => return None,
        })
    }
}

/// The error of a transcendental function applied to an exact scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NonRational(pub Transcendental);

impl NonRational {
    /// The user-facing message, e.g. "`exp` is not a rational operation; use --numeric f64".
    pub fn message(&self) -> String {
        format!(
            "`{}` is not a rational operation; use --numeric f64",
            self.0.name()
        )
    }
}

/// An operation that an enclosure scalar ([`Interval`]) could not carry out soundly: the
/// evaluator reports it at the innermost expression that met it (docs/oracle.md,
/// "Certified enclosures"). Exact and `f64` instances never produce one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undecided {
    /// The enclosures do not decide the operation (overlapping operands of a comparison,
    /// a divisor or a `log`/`sqrt` argument straddling the boundary): raising the
    /// precision may decide it.
    Undecidable(String),
    /// The exact real operation has no value there (`log` of an enclosure `<= 0`, `sqrt`
    /// of one `< 0`) or the enclosure left the exponent range.
    Domain(String),
}

impl Undecided {
    /// The error of this event at `span`: `error[runtime]`, with a hint to raise
    /// `--precision` for an undecidable one.
    pub fn diagnostic(&self, span: adora_core::diag::Span) -> adora_core::diag::Diagnostic {
        use adora_core::diag::{Diagnostic, ErrorKind};
        match self {
            Undecided::Undecidable(m) => Diagnostic::new(ErrorKind::Runtime, span, m.clone())
                .with_help("raise --precision (bits) to decide it"),
            Undecided::Domain(m) => Diagnostic::new(ErrorKind::Runtime, span, m.clone()),
        }
    }
}

/// A field of real scalars: the operations the evaluator needs (see the module docs for the
/// conventions every instance follows).
pub trait Scalar: Clone + std::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The additive identity (for dual numbers: zero tangent).
    fn zero() -> Self;
    /// The multiplicative identity.
    fn one() -> Self;
    /// The scalar of an integer (exact for `Rat`; nearest `f64` otherwise).
    fn from_i64(n: i64) -> Self;
    /// The scalar of an exact rational (`f64`: correctly rounded).
    fn from_rational(r: &Rat) -> Self;
    /// The scalar of a non-finite literal (`inf`, `nan`): the IEEE value for `f64` (and
    /// dual numbers over it, with a zero tangent), `None` for exact instances, whose
    /// callers report [`non_finite_message`] at the literal (docs/language.md,
    /// "Literals").
    fn non_finite(x: NonFinite) -> Option<Self>;
    /// Whether this is exactly zero (for dual numbers: value and every tangent zero).
    fn is_zero(&self) -> bool;
    /// `self + o`.
    fn add(&self, o: &Self) -> Self;
    /// `self - o`.
    fn sub(&self, o: &Self) -> Self;
    /// `self * o`.
    fn mul(&self, o: &Self) -> Self;
    /// `-self`.
    fn neg(&self) -> Self;
    /// `self / o`, or `None` when the (primal) divisor is zero: the caller counts the event
    /// and uses [`Scalar::zero`] (total division).
    fn checked_div(&self, o: &Self) -> Option<Self>;
    /// The value of `self / divisor` when the divisor's primal value is zero (after
    /// [`Scalar::checked_div`] returned `None`): exact instances are total and give zero;
    /// `f64` gives the IEEE result.
    fn div_by_zero(&self, divisor: &Self) -> Self {
        let _ = divisor;
        Self::zero()
    }
    /// Whether derivative bookkeeping over this field keeps tangent entries that are zero
    /// (docs/language.md, "Semantic conventions": f64 derivatives form every product).
    ///
    /// `false` (the default, exact rationals): a zero entry is dropped, which is exact since
    /// `0 · x = 0` for every rational, and keeps `==` on dual numbers canonical. `true`
    /// (`f64`): an entry that was seeded or produced stays even when it is `0`, so that
    /// `0 · inf = NaN` appears as in a dense JVP; only entries of inputs a value does not
    /// depend on are absent (never multiplied).
    fn keeps_explicit_zeros() -> bool {
        false
    }
    /// The value of `pow(self, k)` with its derivative rule, given `repeated`: the
    /// evaluator's result of `x^|k|` by squaring and, for `k < 0`, a reciprocal
    /// (docs/language.md). The default returns `repeated`, whose derivative is the product
    /// and quotient rules applied along the way (for exact scalars this equals the textbook
    /// rule below). Dual numbers over a field that [keeps explicit
    /// zeros](Scalar::keeps_explicit_zeros) replace the tangent by the textbook rule
    /// `k · self^(k-1) · self'` evaluated in IEEE (`k = 0`: a constant; `k = 1`: `self'`),
    /// so `pow(y, -2)` at `y = 0` has tangent `-inf · y'` instead of the repeated rules'
    /// `NaN`.
    fn pow_rule(&self, k: i64, repeated: Self) -> Self {
        let _ = k;
        repeated
    }
    /// Values tied at one primal value combined by a convention that splits ties
    /// (docs/conventions.md, `crate::conventions`): the primal of `items[0]` and, for dual
    /// numbers, the mean of the tangents. Scalars without tangents return `items[0]`;
    /// `items` is never empty.
    fn tie_mean(items: &[&Self]) -> Self {
        items[0].clone()
    }
    /// `*self += o`; instances may override it to reuse `self`'s storage.
    fn add_assign(&mut self, o: &Self) {
        *self = self.add(o);
    }
    /// The left fold `((items[0] + items[1]) + …) + items[n-1]` (zero when empty), or
    /// `None` as soon as the primal value of a partial sum does not fit `max_bits` bits
    /// ([`Scalar::value_fits_bits`]; the evaluator then reports the size error). Sums and
    /// `+`-reductions call it. An instance may override it with a faster algorithm that
    /// gives the identical result: dual numbers merge all tangent maps in one sort instead
    /// of one merge per addition, which is quadratic in the number of tangent entries.
    fn sum_left<'x, I>(items: I, max_bits: u64) -> Option<Self>
    where
        I: IntoIterator<Item = &'x Self>,
        Self: 'x,
    {
        let mut it = items.into_iter();
        let mut acc = match it.next() {
            Some(x) => x.clone(),
            None => return Some(Self::zero()),
        };
        for x in it {
            acc.add_assign(x);
            if !acc.value_fits_bits(max_bits) {
                return None;
            }
        }
        Some(acc)
    }
    /// Compares primal values (`None` for `f64` NaN; for an [`Interval`] whose operands
    /// overlap `None` too, after recording an [`Undecided`] event that
    /// [`Scalar::take_undecided`] returns, so the evaluator reports it instead of
    /// treating it as NaN).
    fn compare(&self, o: &Self) -> Option<Ordering>;
    /// The first [`Undecided`] event met on this thread since the last call, cleared.
    /// Only enclosure instances record events; the default (exact, `f64`) has none. The
    /// evaluator calls it after every expression, so an event is reported at the innermost
    /// expression that met it and no branch is ever taken on an undecided comparison.
    fn take_undecided() -> Option<Undecided> {
        None
    }
    /// `floor(self)` as an integer, `None` when it is out of the range of `i64` (or NaN).
    fn floor_i64(&self) -> Option<i64>;
    /// `|self|`; for dual numbers the tangent is negated below zero and zero at zero
    /// (`abs'(0) = 0`).
    fn abs(&self) -> Self;
    /// Applies a transcendental function; exact instances return [`NonRational`].
    fn transcendental(&self, f: Transcendental) -> Result<Self, NonRational>;
    /// The (primal) value as the nearest `f64`.
    fn approx_f64(&self) -> f64;
    /// The exact rational (primal) value, for exact instances; `None` for `f64`.
    fn as_rational(&self) -> Option<&Rat>;
    /// Whether every exact rational inside (value and tangents) has a numerator and a
    /// denominator of at most `max_bits` bits. Always true for `f64`.
    fn fits_bits(&self, max_bits: u64) -> bool;
    /// [`Scalar::fits_bits`] of the primal value only: a cheap check the evaluator makes
    /// after every step of a long accumulation (sums, products, scatters), completed by a
    /// full [`Scalar::fits_bits`] check of the result.
    fn value_fits_bits(&self, max_bits: u64) -> bool {
        self.fits_bits(max_bits)
    }
    /// The (primal) value in the concrete syntax: `2`, `-1/3` (exact), `0.1` (`f64`,
    /// shortest round-trip form; non-finite values print as the literals `inf`, `-inf`,
    /// `nan`, which `--numeric f64` reads back).
    fn to_literal(&self) -> String;
    /// The (primal) value as JSON: exact values as strings `"p/q"` / `"n"`, `f64` values as
    /// numbers (non-finite ones as the strings `"inf"`, `"-inf"`, `"nan"`, which `--inputs`
    /// reads back; docs/json.md, "Values").
    fn to_json(&self) -> serde_json::Value;
}

/// The error of a non-finite literal met in exact mode: "`inf` is not a rational number;
/// run with --numeric f64".
pub fn non_finite_message(x: NonFinite) -> String {
    format!(
        "`{}` is not a rational number; run with --numeric f64",
        x.name()
    )
}

/// The literal text of an exact rational: `n` for integers, `p/q` otherwise (sign on `p`).
pub fn rational_literal(r: &Rat) -> String {
    if r.is_integer() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

impl Scalar for Rat {
    fn zero() -> Self {
        <Rat as Zero>::zero()
    }
    fn one() -> Self {
        <Rat as One>::one()
    }
    fn from_i64(n: i64) -> Self {
        Rat::from_integer(BigInt::from(n))
    }
    fn from_rational(r: &Rat) -> Self {
        r.clone()
    }
    fn non_finite(_: NonFinite) -> Option<Self> {
        None
    }
    fn is_zero(&self) -> bool {
        <Rat as Zero>::is_zero(self)
    }
    fn add(&self, o: &Self) -> Self {
        rat_add(self, o)
    }
    fn sub(&self, o: &Self) -> Self {
        word::sub(self, o).unwrap_or_else(|| rat_add(self, &-o))
    }
    fn mul(&self, o: &Self) -> Self {
        word::mul(self, o).unwrap_or_else(|| rat_mul(self, o))
    }
    fn neg(&self) -> Self {
        -self
    }
    fn checked_div(&self, o: &Self) -> Option<Self> {
        if <Rat as Zero>::is_zero(o) {
            None
        } else {
            Some(word::div(self, o).unwrap_or_else(|| rat_mul(self, &o.recip())))
        }
    }
    fn add_assign(&mut self, o: &Self) {
        if <Rat as Zero>::is_zero(o) {
            return;
        }
        *self = rat_add(self, o);
    }
    fn compare(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
    fn floor_i64(&self) -> Option<i64> {
        self.floor().to_integer().to_i64()
    }
    fn abs(&self) -> Self {
        Signed::abs(self)
    }
    fn transcendental(&self, f: Transcendental) -> Result<Self, NonRational> {
        Err(NonRational(f))
    }
    fn approx_f64(&self) -> f64 {
        ToPrimitive::to_f64(self).unwrap_or(f64::NAN)
    }
    fn as_rational(&self) -> Option<&Rat> {
        Some(self)
    }
    fn fits_bits(&self, max_bits: u64) -> bool {
        self.numer().bits() <= max_bits && self.denom().bits() <= max_bits
    }
    fn to_literal(&self) -> String {
        rational_literal(self)
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::Value::String(rational_literal(self))
    }
}

/// `a + b`, canonical: on machine words when both operands fit ([`word`]); without a gcd
/// for a zero operand or two integers; otherwise `num_rational`'s sum, which reduces.
fn rat_add(a: &Rat, b: &Rat) -> Rat {
    if let Some(r) = word::add(a, b) {
        r
    } else if <Rat as Zero>::is_zero(b) {
        a.clone()
    } else if <Rat as Zero>::is_zero(a) {
        b.clone()
    } else if a.is_integer() && b.is_integer() {
        Rat::new_raw(a.numer() + b.numer(), BigInt::one())
    } else {
        word::add_big(a, b)
    }
}

/// `a · b` of canonical rationals `p/q · r/s`, canonical: zero and integer operands without
/// a gcd; otherwise the cross-cancelled product `(p/g1 · r/g2) / (q/g2 · s/g1)` with
/// `g1 = gcd(p, s)`, `g2 = gcd(r, q)`, which is already reduced (`num_rational` reduces
/// it once more, a third gcd). The value is the same canonical rational. The gcds are
/// [`word::gcd_big`]'s, linear when one operand is small.
fn rat_mul(a: &Rat, b: &Rat) -> Rat {
    if <Rat as Zero>::is_zero(a) || <Rat as Zero>::is_zero(b) {
        return <Rat as Zero>::zero();
    }
    let (p, q, r, s) = (a.numer(), a.denom(), b.numer(), b.denom());
    if q.is_one() && s.is_one() {
        return Rat::new_raw(p * r, BigInt::one());
    }
    // Cancels gcd(x, y) from x and y (nothing to do when y is one).
    let cancel = |x: &BigInt, y: &BigInt| -> (BigInt, BigInt) {
        if y.is_one() {
            return (x.clone(), y.clone());
        }
        let g = word::gcd_big(x, y);
        if g.is_one() {
            (x.clone(), y.clone())
        } else {
            (x / &g, y / &g)
        }
    };
    let (p1, s1) = cancel(p, s);
    let (r1, q1) = cancel(r, q);
    Rat::new_raw(p1 * r1, q1 * s1)
}

/// The text of an `f64` in the concrete syntax (shortest round-trip decimal, no exponent).
fn f64_literal(x: f64) -> String {
    if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{x}")
    }
}

impl Scalar for f64 {
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn from_i64(n: i64) -> Self {
        n as f64
    }
    fn from_rational(r: &Rat) -> Self {
        ToPrimitive::to_f64(r).unwrap_or(f64::NAN)
    }
    fn non_finite(x: NonFinite) -> Option<Self> {
        Some(x.to_f64())
    }
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn neg(&self) -> Self {
        -self
    }
    fn checked_div(&self, o: &Self) -> Option<Self> {
        if *o == 0.0 {
            None
        } else {
            Some(self / o)
        }
    }
    fn div_by_zero(&self, divisor: &Self) -> Self {
        self / divisor
    }
    fn keeps_explicit_zeros() -> bool {
        true
    }
    fn add_assign(&mut self, o: &Self) {
        *self += o;
    }
    fn compare(&self, o: &Self) -> Option<Ordering> {
        self.partial_cmp(o)
    }
    fn floor_i64(&self) -> Option<i64> {
        let f = self.floor();
        // -2^63 is representable; 2^63 is the first value out of range.
        if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
            Some(f as i64)
        } else {
            None
        }
    }
    fn abs(&self) -> Self {
        f64::abs(*self)
    }
    fn transcendental(&self, f: Transcendental) -> Result<Self, NonRational> {
        let x = *self;
        Ok(match f {
            Transcendental::Exp => x.exp(),
            Transcendental::Log => x.ln(),
            Transcendental::Sin => x.sin(),
            Transcendental::Cos => x.cos(),
            Transcendental::Tanh => x.tanh(),
            Transcendental::Sqrt => x.sqrt(),
        })
    }
    fn approx_f64(&self) -> f64 {
        *self
    }
    fn as_rational(&self) -> Option<&Rat> {
        None
    }
    fn fits_bits(&self, _max_bits: u64) -> bool {
        true
    }
    fn to_literal(&self) -> String {
        f64_literal(*self)
    }
    fn to_json(&self) -> serde_json::Value {
        match serde_json::Number::from_f64(*self) {
            Some(n) => serde_json::Value::Number(n),
            None => serde_json::Value::String(f64_literal(*self)),
        }
    }
}
