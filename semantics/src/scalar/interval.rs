//! Certified enclosures: the scalar of `--numeric ball`, an inf-sup interval `[lo, hi]` of
//! binary floats of a chosen precision with outward (directed) rounding, so that every
//! result provably contains the exact real value (docs/oracle.md, "Certified
//! enclosures"; docs/language.md, "Numeric modes").
//!
//! * Exact rationals enter exactly when they have a binary form of the working precision,
//!   otherwise as the enclosing pair of floats (rounded down, rounded up).
//! * `+ - * /` round each bound away from the interval. Division by the point `0` follows
//!   the total-division convention (`checked_div` returns `None`, the result is `0` as in
//!   exact mode); a divisor that contains `0` but is not the point `0` is *undecidable*.
//! * Whatever the enclosure cannot decide (overlapping operands of a comparison, `floor`
//!   at an ambiguous integer, a `log`/`sqrt` argument straddling the domain boundary) is
//!   recorded as an [`Undecided`] event, which the evaluator reports with the position of
//!   the expression ([`Scalar::take_undecided`]); no branch is ever guessed.
//!
//! The working precision is per thread ([`set_precision`], [`PrecisionScope`]); the
//! default is [`DEFAULT_PRECISION`] bits. The floats round it up to a multiple of 64.

use super::{NonFinite, NonRational, Scalar, Transcendental, Undecided};
use crate::Rat;
use astro_float_num::{BigFloat, Consts};
use std::cell::{Cell, RefCell};
use std::cmp::Ordering;

pub mod decimal;
mod elem;
mod float;

use float::{cmp, Down, Up};

/// The default working precision in bits (`--precision`).
pub const DEFAULT_PRECISION: usize = 128;
/// The smallest working precision accepted (one machine word).
pub const MIN_PRECISION: usize = 64;
/// The largest working precision accepted (a resource limit).
pub const MAX_PRECISION: usize = 1 << 16;

thread_local! {
    static PRECISION: Cell<usize> = const { Cell::new(DEFAULT_PRECISION) };
    static EVENT: RefCell<Option<Undecided>> = const { RefCell::new(None) };
    static CONSTS: RefCell<Option<Consts>> = const { RefCell::new(None) };
}

/// The working precision of this thread, in bits.
pub fn precision() -> usize {
    PRECISION.with(Cell::get)
}

/// Sets this thread's working precision (clamped to [`MIN_PRECISION`]..=
/// [`MAX_PRECISION`]); returns the previous one.
pub fn set_precision(bits: usize) -> usize {
    PRECISION.with(|c| c.replace(bits.clamp(MIN_PRECISION, MAX_PRECISION)))
}

/// Sets the working precision until dropped, then restores the previous one.
#[derive(Debug)]
pub struct PrecisionScope(usize);

impl PrecisionScope {
    /// Works at `bits` bits until the scope is dropped.
    pub fn new(bits: usize) -> PrecisionScope {
        PrecisionScope(set_precision(bits))
    }
}

impl Drop for PrecisionScope {
    fn drop(&mut self) {
        set_precision(self.0);
    }
}

/// Records an event unless one is pending (the first one is reported).
fn record(u: Undecided) {
    EVENT.with(|e| {
        let mut e = e.borrow_mut();
        if e.is_none() {
            *e = Some(u);
        }
    });
}

/// Runs `f` with this thread's cache of constants (`π`).
fn with_consts<R>(f: impl FnOnce(&mut Consts) -> R) -> R {
    CONSTS.with(|c| {
        let mut c = c.borrow_mut();
        let cc = c.get_or_insert_with(|| {
            Consts::new().unwrap_or_else(|e| panic!("cannot allocate the constants cache: {e:?}"))
        });
        f(cc)
    })
}

/// A closed interval `[lo, hi]` of finite binary floats containing a real value.
#[derive(Clone)]
pub struct Interval {
    lo: BigFloat,
    hi: BigFloat,
}

impl Interval {
    /// The interval of two bounds; a non-finite bound (the exponent range was left)
    /// records an event and gives the point `0`.
    fn new(lo: BigFloat, hi: BigFloat) -> Interval {
        if float::finite(&lo) && float::finite(&hi) {
            Interval { lo, hi }
        } else {
            record(Undecided::Domain(
                "the enclosure left the exponent range of the binary floats".to_string(),
            ));
            Interval::point_i64(0)
        }
    }

    fn point_i64(n: i64) -> Interval {
        let x = BigFloat::from_i64(n, 64);
        Interval {
            lo: x.clone(),
            hi: x,
        }
    }

    /// The enclosure of an exact rational at precision `p`.
    pub fn of_rational(r: &Rat, p: usize) -> Interval {
        Interval::new(float::of_rat(r, p, Down), float::of_rat(r, p, Up))
    }

    /// The interval `[lo, hi]` of two rationals (`lo <= hi`), rounded outward to `p` bits.
    pub fn from_bounds(lo: &Rat, hi: &Rat, p: usize) -> Interval {
        Interval::new(float::of_rat(lo, p, Down), float::of_rat(hi, p, Up))
    }

    /// The exact lower bound.
    pub fn lo(&self) -> Rat {
        float::to_rat(&self.lo).unwrap_or_default()
    }

    /// The exact upper bound.
    pub fn hi(&self) -> Rat {
        float::to_rat(&self.hi).unwrap_or_default()
    }

    /// The exact width `hi - lo`.
    pub fn width(&self) -> Rat {
        self.hi() - self.lo()
    }

    /// Whether `lo <= r <= hi`.
    pub fn contains(&self, r: &Rat) -> bool {
        self.lo() <= *r && *r <= self.hi()
    }

    /// Whether `self` lies inside `o`.
    pub fn is_subset_of(&self, o: &Interval) -> bool {
        cmp(&o.lo, &self.lo) != Ordering::Greater && cmp(&self.hi, &o.hi) != Ordering::Greater
    }

    /// Whether the two intervals have a point in common.
    pub fn overlaps(&self, o: &Interval) -> bool {
        cmp(&self.lo, &o.hi) != Ordering::Greater && cmp(&o.lo, &self.hi) != Ordering::Greater
    }

    /// Whether this is a single point.
    pub fn is_point(&self) -> bool {
        cmp(&self.lo, &self.hi) == Ordering::Equal
    }

    fn sign_lo(&self) -> Ordering {
        cmp(&self.lo, &BigFloat::from_word(0, 64))
    }

    fn sign_hi(&self) -> Ordering {
        cmp(&self.hi, &BigFloat::from_word(0, 64))
    }

    fn add_p(&self, o: &Interval, p: usize) -> Interval {
        Interval::new(self.lo.add(&o.lo, p, Down), self.hi.add(&o.hi, p, Up))
    }

    fn sub_p(&self, o: &Interval, p: usize) -> Interval {
        Interval::new(self.lo.sub(&o.hi, p, Down), self.hi.sub(&o.lo, p, Up))
    }

    fn mul_p(&self, o: &Interval, p: usize) -> Interval {
        let pairs = [
            (&self.lo, &o.lo),
            (&self.lo, &o.hi),
            (&self.hi, &o.lo),
            (&self.hi, &o.hi),
        ];
        let lo = pairs
            .iter()
            .map(|(a, b)| a.mul(b, p, Down))
            .reduce(float::min);
        let hi = pairs
            .iter()
            .map(|(a, b)| a.mul(b, p, Up))
            .reduce(float::max);
        Interval::new(lo.unwrap_or_default(), hi.unwrap_or_default())
    }

    /// `self / o` for a divisor that does not contain `0`.
    fn div_p(&self, o: &Interval, p: usize) -> Interval {
        let pairs = [
            (&self.lo, &o.lo),
            (&self.lo, &o.hi),
            (&self.hi, &o.lo),
            (&self.hi, &o.hi),
        ];
        let lo = pairs
            .iter()
            .map(|(a, b)| a.div(b, p, Down))
            .reduce(float::min);
        let hi = pairs
            .iter()
            .map(|(a, b)| a.div(b, p, Up))
            .reduce(float::max);
        Interval::new(lo.unwrap_or_default(), hi.unwrap_or_default())
    }

    /// The midpoint and the radius, exact.
    pub fn mid_rad(&self) -> (Rat, Rat) {
        let (lo, hi) = (self.lo(), self.hi());
        let two = Rat::from_integer(2.into());
        ((&lo + &hi) / &two, (hi - lo) / two)
    }

    /// The decimal digits the enclosure certifies: `floor(log10(|mid| / rad))`, clamped to
    /// `0..=max_digits(p)`; a point gives the maximum (docs/json.md, "Enclosures").
    pub fn certified_digits(&self) -> usize {
        let most = max_digits(precision());
        let (mid, rad) = self.mid_rad();
        if num_traits::Zero::is_zero(&rad) {
            return most;
        }
        if num_traits::Zero::is_zero(&mid) {
            return 0;
        }
        let k = decimal::floor_log10(&(num_traits::Signed::abs(&mid) / rad));
        k.clamp(0, most as i64) as usize
    }

    /// `mid ± rad` with `mid` to `sig` significant digits and `rad` rounded up (enlarged
    /// by the rounding of `mid`), so the printed ball still contains the enclosure.
    fn ball_text(&self, sig: usize) -> (String, String) {
        let (mid, rad) = self.mid_rad();
        let (mid_s, mid_v) = decimal::decimal(&mid, sig, decimal::Dir::Nearest);
        let err = num_traits::Signed::abs(&(&mid - mid_v));
        let (rad_s, _) = decimal::decimal(&(rad + err), 3, decimal::Dir::Up);
        (mid_s, rad_s)
    }
}

/// The decimal digits printed for the bounds at `p` bits: `ceil(p · log10 2) + 1`.
pub fn max_digits(p: usize) -> usize {
    (p as f64 * std::f64::consts::LOG10_2).ceil() as usize + 1
}

impl std::fmt::Debug for Interval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = max_digits(precision());
        write!(
            f,
            "[{}, {}]",
            decimal::decimal(&self.lo(), d, decimal::Dir::Down).0,
            decimal::decimal(&self.hi(), d, decimal::Dir::Up).0
        )
    }
}

impl PartialEq for Interval {
    fn eq(&self, o: &Interval) -> bool {
        cmp(&self.lo, &o.lo) == Ordering::Equal && cmp(&self.hi, &o.hi) == Ordering::Equal
    }
}

impl Scalar for Interval {
    fn zero() -> Self {
        Interval::point_i64(0)
    }
    fn one() -> Self {
        Interval::point_i64(1)
    }
    fn from_i64(n: i64) -> Self {
        Interval::point_i64(n)
    }
    fn from_rational(r: &Rat) -> Self {
        Interval::of_rational(r, precision())
    }
    fn non_finite(_: NonFinite) -> Option<Self> {
        None
    }
    fn is_zero(&self) -> bool {
        self.lo.is_zero() && self.hi.is_zero()
    }
    fn add(&self, o: &Self) -> Self {
        self.add_p(o, precision())
    }
    fn sub(&self, o: &Self) -> Self {
        self.sub_p(o, precision())
    }
    fn mul(&self, o: &Self) -> Self {
        self.mul_p(o, precision())
    }
    fn neg(&self) -> Self {
        Interval {
            lo: self.hi.neg(),
            hi: self.lo.neg(),
        }
    }
    fn checked_div(&self, o: &Self) -> Option<Self> {
        if o.is_zero() {
            return None;
        }
        if o.sign_lo() != Ordering::Greater && o.sign_hi() != Ordering::Less {
            record(Undecided::Undecidable(format!(
                "undecidable at {} bits: the divisor's enclosure {o:?} contains 0 \
                 but is not the point 0",
                precision()
            )));
            return Some(Self::zero());
        }
        Some(self.div_p(o, precision()))
    }
    fn compare(&self, o: &Self) -> Option<Ordering> {
        if cmp(&self.hi, &o.lo) == Ordering::Less {
            Some(Ordering::Less)
        } else if cmp(&self.lo, &o.hi) == Ordering::Greater {
            Some(Ordering::Greater)
        } else if self.is_point() && o.is_point() && self == o {
            Some(Ordering::Equal)
        } else {
            record(Undecided::Undecidable(format!(
                "undecidable at {} bits: comparison of overlapping enclosures {self:?} \
                 and {o:?}",
                precision()
            )));
            None
        }
    }
    fn take_undecided() -> Option<Undecided> {
        EVENT.with(|e| e.borrow_mut().take())
    }
    fn floor_i64(&self) -> Option<i64> {
        let (a, b) = (self.lo.floor(), self.hi.floor());
        if cmp(&a, &b) != Ordering::Equal {
            record(Undecided::Undecidable(format!(
                "undecidable at {} bits: `floor` of the enclosure {self:?}, which \
                 contains an integer other than its lower bound",
                precision()
            )));
            return None;
        }
        num_traits::ToPrimitive::to_i64(&float::to_rat(&a)?.to_integer())
    }
    fn abs(&self) -> Self {
        if self.sign_lo() != Ordering::Less {
            self.clone()
        } else if self.sign_hi() != Ordering::Greater {
            self.neg()
        } else {
            // `|x|` is continuous: the enclosure of a straddling interval is [0, max].
            let hi = float::max(self.lo.neg(), self.hi.clone());
            Interval::new(BigFloat::from_word(0, 64), hi)
        }
    }
    fn transcendental(&self, f: Transcendental) -> Result<Self, NonRational> {
        Ok(elem::apply(self, f, precision()))
    }
    fn approx_f64(&self) -> f64 {
        num_traits::ToPrimitive::to_f64(&self.mid_rad().0).unwrap_or(f64::NAN)
    }
    fn as_rational(&self) -> Option<&Rat> {
        None
    }
    fn fits_bits(&self, _max_bits: u64) -> bool {
        true
    }
    fn to_literal(&self) -> String {
        let sig = (self.certified_digits() + 2).min(max_digits(precision()));
        let (mid, rad) = self.ball_text(sig);
        format!("{mid} ± {rad}")
    }
    fn to_json(&self) -> serde_json::Value {
        let d = max_digits(precision());
        let (mid, rad) = self.ball_text(d);
        serde_json::json!({
            "mid": mid,
            "rad": rad,
            "lo": decimal::decimal(&self.lo(), d, decimal::Dir::Down).0,
            "hi": decimal::decimal(&self.hi(), d, decimal::Dir::Up).0,
            "digits": self.certified_digits(),
        })
    }
}

#[cfg(test)]
mod tests;
