//! The one harness through which the command line, the golden runner and the property
//! catalogue ask engines questions (docs/architecture.md, "The engine interface").
//!
//! [`ask`] validates a question with the reference's validation
//! (`adora_semantics::reference::{check_inputs, check_scalar_result, check_tangents,
//! check_cotangent}`), picks the engine's [`Route`] — its derivative program when it has
//! one for the question, else its runtime answers — and returns an [`Answer`] in the
//! reference's result types. `grad` is a VJP with cotangent 1. A derivative program is
//! evaluated by the one evaluator (`adora_semantics::eval`) and its outputs unpacked by
//! its signature ([`DerivativeProgram::unpack`]). [`compare`] then judges an answer
//! against the reference's: exactly (`==`) in exact mode, within the relative tolerance
//! [`F64_TOLERANCE`] in `f64` mode (rounding differs between engines). Under a convention
//! profile other than `futhark` (`EvalOptions::conventions`), an engine that does not
//! implement the profiles itself ([`Engine::implements_conventions`]: all but the
//! reference) answers for the program lowered by `crate::conventions::lower`.

use super::program::{DerivativeProgram, Question, Seed};
use super::{Derivatives, Engine, Runtime};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_semantics::conventions::Conventions;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference::{self, Gradient};
use adora_semantics::scalar::{Interval, Scalar};
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// Relative tolerance of comparisons in `f64` mode: `|a - r| <= 1e-9 * max(1, |r|)` (and NaN
/// agrees with NaN, an infinity with the same infinity: [`Mode::agrees`]).
pub const F64_TOLERANCE: f64 = 1e-9;

/// A numeric mode: the scalar type of the evaluation, the engine's runtime answers in it,
/// and how two answers are compared.
pub trait Mode: Scalar {
    /// The runtime answers in this mode.
    fn runtime(r: &dyn Runtime) -> &dyn Derivatives<Self>;
    /// Whether `actual` agrees with `expected`: equality for exact rationals; for `f64`,
    /// both NaN, or equal (so an infinity agrees only with the same infinity), or
    /// `|actual - expected| <= tol * max(1, |expected|)`.
    fn agrees(actual: &Self, expected: &Self, tol: f64) -> bool;
    /// How agreement is judged at [`F64_TOLERANCE`], for reports.
    const AGREEMENT: &'static str;
    /// Whether agreement means equality (exact mode) rather than a tolerance.
    const EXACT: bool;
    /// An expectation known to a relative accuracy `rel` as the set of values it allows:
    /// an enclosure widens by `rel · |bound|` on each side (golden programs' `-- numeric:
    /// ball tol=…`, docs/golden-format.md); the other modes keep the value.
    fn widened(&self, rel: f64) -> Self {
        let _ = rel;
        self.clone()
    }
}

impl Mode for Rat {
    fn runtime(r: &dyn Runtime) -> &dyn Derivatives<Rat> {
        r
    }
    fn agrees(actual: &Rat, expected: &Rat, _: f64) -> bool {
        actual == expected
    }
    const AGREEMENT: &'static str = "exactly";
    const EXACT: bool = true;
}

/// Certified enclosures (`--numeric ball`, docs/oracle.md, "Certified enclosures"): an
/// answer agrees with the expected one when their enclosures overlap, since the exact
/// value lies in both.
impl Mode for Interval {
    fn runtime(r: &dyn Runtime) -> &dyn Derivatives<Interval> {
        r
    }
    fn agrees(actual: &Interval, expected: &Interval, _: f64) -> bool {
        actual.overlaps(expected)
    }
    const AGREEMENT: &'static str = "the enclosures overlap";
    const EXACT: bool = false;
    fn widened(&self, rel: f64) -> Self {
        use num_traits::Signed;
        let r = Rat::from_float(rel).unwrap_or_default();
        let (lo, hi) = (self.lo(), self.hi());
        let p = adora_semantics::scalar::interval::precision();
        let (dl, dh) = (&r * Signed::abs(&lo), &r * Signed::abs(&hi));
        Interval::from_bounds(&(lo - dl), &(hi + dh), p)
    }
}

impl Mode for f64 {
    fn runtime(r: &dyn Runtime) -> &dyn Derivatives<f64> {
        r
    }
    fn agrees(actual: &f64, expected: &f64, tol: f64) -> bool {
        // docs/architecture.md, "The harness": NaN agrees with NaN, an infinity with the
        // same infinity (`==`), finite values within the relative tolerance. The tolerance
        // is for finite values only: against an infinite `expected` it is infinite itself
        // and would let every value agree (`|-inf - inf| <= 1e-9 * inf`).
        (actual.is_nan() && expected.is_nan())
            || actual == expected
            || (actual.is_finite()
                && expected.is_finite()
                && (actual - expected).abs() <= tol * expected.abs().max(1.0))
    }
    const AGREEMENT: &'static str = "within relative tolerance 1e-9";
    const EXACT: bool = false;
}

/// A question with its seeds.
#[derive(Clone, Debug, PartialEq)]
pub enum Query<S> {
    /// Value and gradient (scalar `R` result).
    Grad,
    /// Value and JVP for one tangent per input (`None`: zero).
    Jvp(Vec<Option<Value<S>>>),
    /// Value and VJP for the result cotangent.
    Vjp(Value<S>),
}

impl<S> Query<S> {
    /// The question asked.
    pub fn question(&self) -> Question {
        match self {
            Query::Grad => Question::Grad,
            Query::Jvp(_) => Question::Jvp,
            Query::Vjp(_) => Question::Vjp,
        }
    }
}

/// An engine's answer, in the reference's result types.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer<S> {
    /// `grad` and `vjp`: the value and one cotangent per input.
    Gradient(Gradient<S>),
    /// `jvp`: the value and the tangent of the result.
    Jvp(Value<S>, Value<S>),
}

impl<S: Clone> Answer<S> {
    /// The value and the answer's parts (`grad`, `vjp`: per input; `jvp`: the tangent),
    /// as a [`Gradient`].
    pub fn into_gradient(self) -> Gradient<S> {
        match self {
            Answer::Gradient(g) => g,
            Answer::Jvp(value, t) => Gradient {
                value,
                grads: vec![Some(t)],
            },
        }
    }
}

/// How an engine answers a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// By its derivative program, evaluated.
    Program,
    /// By its runtime answers.
    Runtime,
}

/// Every route `e` offers for `q`, the preferred (a program) first.
pub fn routes(e: &dyn Engine, q: Question) -> Vec<Route> {
    let mut out = Vec::new();
    if e.programs().contains(&q) {
        out.push(Route::Program);
    }
    if e.runtime().is_some() {
        out.push(Route::Runtime);
    }
    out
}

/// Validates a question with the reference's validation: inputs of the parameters'
/// types; `grad`: a scalar `R` result; tangents of the inputs' types; a cotangent of the
/// result's type.
pub fn validate<S>(f: &Function, inputs: &[Value<S>], query: &Query<S>) -> Result<()> {
    reference::check_inputs(f, inputs)?;
    match query {
        Query::Grad => reference::check_scalar_result(f),
        Query::Jvp(ts) => reference::check_tangents(f, inputs, ts),
        Query::Vjp(c) => reference::check_cotangent(f, c),
    }
}

/// Engine `e`'s answer to `query` for `f` at `inputs`, by its preferred route.
pub fn ask<S: Mode>(
    e: &dyn Engine,
    f: &Function,
    inputs: &[Value<S>],
    query: &Query<S>,
    opts: &EvalOptions,
) -> Result<Answer<S>> {
    match routes(e, query.question()).first() {
        Some(r) => ask_by(e, *r, f, inputs, query, opts),
        None => {
            validate(f, inputs, query)?;
            Err(Diagnostic::new(
                ErrorKind::Unsupported,
                Span::DUMMY,
                format!(
                    "engine `{}` answers no {} question",
                    e.name(),
                    query.question().name()
                ),
            ))
        }
    }
}

/// Engine `e`'s answer to `query` by the given route. An error about the program's
/// evaluation that has no source position (met in a generated program) gets one
/// (`super::locate`).
pub fn ask_by<S: Mode>(
    e: &dyn Engine,
    route: Route,
    f: &Function,
    inputs: &[Value<S>],
    query: &Query<S>,
    opts: &EvalOptions,
) -> Result<Answer<S>> {
    answer_by(e, route, f, inputs, query, opts).map_err(|d| {
        if super::locate::needs_position(&d) {
            super::locate::locate(e.name(), d, f, inputs, query, opts)
        } else {
            d
        }
    })
}

/// [`ask_by`] without locating errors.
pub fn answer_by<S: Mode>(
    e: &dyn Engine,
    route: Route,
    f: &Function,
    inputs: &[Value<S>],
    query: &Query<S>,
    opts: &EvalOptions,
) -> Result<Answer<S>> {
    validate(f, inputs, query)?;
    // Enclosure scalars record undecidable operations (docs/oracle.md, "Certified
    // enclosures"); the one evaluator reports them at their expression, and an event met
    // elsewhere (an engine's own runtime) becomes an error without a position here, which
    // `ask_by` locates. No answer computed past an undecided comparison is returned.
    let _ = S::take_undecided();
    let answer = answer_route(e, route, f, inputs, query, opts);
    match S::take_undecided() {
        Some(u) => Err(u.diagnostic(Span::DUMMY)),
        None => answer,
    }
}

fn answer_route<S: Mode>(
    e: &dyn Engine,
    route: Route,
    f: &Function,
    inputs: &[Value<S>],
    query: &Query<S>,
    opts: &EvalOptions,
) -> Result<Answer<S>> {
    if !e.implements_conventions() && opts.conventions != Conventions::Futhark {
        // Another profile than `futhark`: the engine differentiates the lowered program
        // under `futhark` (crate::conventions), whose derivative is the profile's.
        let lowered = crate::conventions::lower(f, opts.conventions)?.function;
        let futhark = EvalOptions {
            conventions: Conventions::Futhark,
            ..opts.clone()
        };
        return answer_route(e, route, &lowered, inputs, query, &futhark);
    }
    match route {
        Route::Program => {
            let dp = e.program(f, query.question())?;
            evaluate(&dp, f, inputs, query, opts)
        }
        Route::Runtime => {
            let Some(r) = e.runtime() else {
                return Err(super::unsupported("runtime answers"));
            };
            let r = S::runtime(r);
            adora_core::with_stack(|| match query {
                Query::Grad => r.gradient(f, inputs, opts).map(Answer::Gradient),
                Query::Jvp(ts) => r.jvp(f, inputs, ts, opts).map(|(v, t)| Answer::Jvp(v, t)),
                Query::Vjp(c) => r.vjp(f, inputs, c, opts).map(Answer::Gradient),
            })
        }
    }
}

/// Evaluates a derivative program of `f` for `query` (`grad`: cotangent 1) with the one
/// evaluator and unpacks its outputs by its signature.
pub fn evaluate<S: Scalar>(
    dp: &DerivativeProgram,
    f: &Function,
    inputs: &[Value<S>],
    query: &Query<S>,
    opts: &EvalOptions,
) -> Result<Answer<S>> {
    let one = Value::real(S::one());
    let seed = match query {
        Query::Grad => Seed::Cotangent(&one),
        Query::Jvp(ts) => Seed::Tangents(ts),
        Query::Vjp(c) => Seed::Cotangent(c),
    };
    let args = dp.arguments(f, inputs, seed)?;
    let (out, _) = adora_core::with_stack(|| eval(&dp.function, &args, opts))?;
    let u = dp.unpack(f, inputs, out)?;
    Ok(match query {
        Query::Jvp(_) => {
            let t = u.tangent.clone().unwrap_or_else(|| Value::zeros(&f.ret));
            Answer::Jvp(u.value, t)
        }
        Query::Grad | Query::Vjp(_) => Answer::Gradient(u.gradient()),
    })
}

/// Value and gradient of a scalar-real `f` from engine `e`.
pub fn gradient<S: Mode>(
    e: &dyn Engine,
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<Gradient<S>> {
    ask(e, f, inputs, &Query::Grad, opts).map(Answer::into_gradient)
}

/// Value and JVP of `f` from engine `e`.
pub fn jvp<S: Mode>(
    e: &dyn Engine,
    f: &Function,
    inputs: &[Value<S>],
    tangents: &[Option<Value<S>>],
    opts: &EvalOptions,
) -> Result<(Value<S>, Value<S>)> {
    match ask(e, f, inputs, &Query::Jvp(tangents.to_vec()), opts)? {
        Answer::Jvp(v, t) => Ok((v, t)),
        Answer::Gradient(_) => Err(Diagnostic::new(
            ErrorKind::Type,
            f.body.span,
            format!(
                "internal error: engine `{}` answered a JVP with a gradient",
                e.name()
            ),
        )),
    }
}

/// Value and VJP of `f` from engine `e`.
pub fn vjp<S: Mode>(
    e: &dyn Engine,
    f: &Function,
    inputs: &[Value<S>],
    cotangent: &Value<S>,
    opts: &EvalOptions,
) -> Result<Gradient<S>> {
    ask(e, f, inputs, &Query::Vjp(cotangent.clone()), opts).map(Answer::into_gradient)
}

/// Whether two values agree: same structure and shapes, equal integers and booleans, and
/// reals that agree in the sense of [`Mode::agrees`] with tolerance `tol`.
pub fn values_agree<S: Mode>(actual: &Value<S>, expected: &Value<S>, tol: f64) -> bool {
    match (actual, expected) {
        (Value::Real(a), Value::Real(b)) => {
            a.shape == b.shape
                && a.data.len() == b.data.len()
                && a.data
                    .iter()
                    .zip(&b.data)
                    .all(|(x, y)| S::agrees(x, y, tol))
        }
        (Value::Int(a), Value::Int(b)) => a == b,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Tuple(a), Value::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| values_agree(x, y, tol))
        }
        _ => false,
    }
}

/// The parts of `actual` that differ from `expected` (at tolerance [`F64_TOLERANCE`] in
/// `f64` mode): `value`, input names (`grad`, `vjp`) or `tangent` (`jvp`). Empty when
/// they agree.
pub fn compare<S: Mode>(f: &Function, actual: &Answer<S>, expected: &Answer<S>) -> Vec<String> {
    let mut out = Vec::new();
    let agree = |a: &Value<S>, b: &Value<S>| values_agree(a, b, F64_TOLERANCE);
    match (actual, expected) {
        (Answer::Jvp(v, t), Answer::Jvp(w, u)) => {
            if !agree(v, w) {
                out.push("value".to_string());
            }
            if !agree(t, u) {
                out.push("tangent".to_string());
            }
        }
        (Answer::Gradient(a), Answer::Gradient(e)) => {
            if !agree(&a.value, &e.value) {
                out.push("value".to_string());
            }
            for (k, (x, y)) in a.grads.iter().zip(&e.grads).enumerate() {
                let same = match (x, y) {
                    (Some(x), Some(y)) => agree(x, y),
                    (None, None) => true,
                    _ => false,
                };
                if !same {
                    let name = f.params.get(k).map(|p| p.name.clone());
                    out.push(name.unwrap_or_else(|| format!("#{k}")));
                }
            }
            if a.grads.len() != e.grads.len() {
                out.push("number of inputs".to_string());
            }
        }
        _ => out.push("kind of answer".to_string()),
    }
    out
}

/// What asking one engine and comparing with the reference found.
#[derive(Clone, Debug)]
pub enum Verdict<S> {
    /// The engine declined (`Unsupported`), with its reason.
    Skipped(Diagnostic),
    /// The engine failed with another error.
    Failed(Diagnostic),
    /// The answer agrees with the reference.
    Agrees(Answer<S>),
    /// The answer differs from the reference in the named parts.
    Differs(Answer<S>, Vec<String>),
}

/// Asks `e` and compares its answer with `expected` (the reference's).
pub fn judge<S: Mode>(
    e: &dyn Engine,
    f: &Function,
    inputs: &[Value<S>],
    query: &Query<S>,
    expected: &Answer<S>,
    opts: &EvalOptions,
) -> Verdict<S> {
    match ask(e, f, inputs, query, opts) {
        Err(d) if d.kind == ErrorKind::Unsupported => Verdict::Skipped(d),
        Err(d) => Verdict::Failed(d),
        Ok(a) => {
            let diff = compare(f, &a, expected);
            if diff.is_empty() {
                Verdict::Agrees(a)
            } else {
                Verdict::Differs(a, diff)
            }
        }
    }
}
