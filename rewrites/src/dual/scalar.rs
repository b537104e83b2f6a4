//! The naive scalar dual-numbers reverse AD of seed 000 §2 (engine `dual-scalar`): every
//! real scalar carries its own Delta (Fig. 1(b): `Zero`, `Input`, `Add`, `Scale`,
//! `Share`), every primitive operation's Delta gets a fresh `Share` id (Fig. 3, the
//! pessimistic approach: `dD` always shares), and the reverse pass processes ids in
//! decreasing order (Fig. 5). No bot: `build` stays, so a program over arrays of `n`
//! elements builds `O(n)` Delta nodes — the Delta explosion of §4.1 that dual arrays
//! avoid, measured by [`delta_nodes`].
//!
//! Implementation: the generic evaluator of `adora_semantics` instantiated at the scalar
//! type [`DScalar`], which records Delta nodes as it computes (the type-class
//! instantiation of §8 / App. D, with Rust's `Scalar` trait in the role of the class).
//! The derivative rules are the table of primitives ([`crate::prims`], interpreted at
//! scalars by [`crate::prims::partials::eval_scalar`]), checked against the reference
//! (`adora_semantics::dual`), so gradients are exact. Documented special cases, tried
//! first: `abs` at a positive (or unordered) argument is the dual number itself (no new
//! Delta node), exact `pow` is the evaluator's product by squaring (its Delta is built
//! by the product rule), and the f64 division by zero keeps the reference's factored form. In f64 mode (`F` [keeps explicit zeros](Scalar::keeps_explicit_zeros)) a `Scale`
//! by zero is kept and `pow` and `abs` use the textbook rules, as the reference does
//! (docs/language.md, "Semantic conventions"): every product of the chain rule is formed
//! in IEEE, so `x * sqrt(x)` at `0` has derivative `0 · inf = NaN`. `Share` ids come from one process-wide increasing counter (horde-ad's
//! `unsafePerformIO` counter): children are built before parents, so invariant 1 holds,
//! and only the relative order of ids matters.

use crate::prims::partials::{eval_scalar, Env, T};
use crate::prims::{deriv_at, Deriv, PrimId};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::Type;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference::Gradient;
use adora_semantics::scalar::{NonRational, Scalar, Transcendental};
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::sync::Arc;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn fresh_id() -> u64 {
    NEXT_ID.fetch_add(1, AtomicOrdering::Relaxed)
}

/// A scalar Delta (Fig. 1(b)); `None` is `Zero`.
#[derive(Clone, Debug)]
pub struct SD<F>(Option<Arc<SNode<F>>>);

/// Drops a Delta without recursion: a sum over `n` elements is an `Add` chain `n` deep
/// (up to the array limit of 2^24), whose recursive drop would overflow the stack. Nodes
/// that other Deltas still share are only released by one reference.
impl<F> Drop for SD<F> {
    fn drop(&mut self) {
        let mut stack: Vec<Arc<SNode<F>>> = self.0.take().into_iter().collect();
        while let Some(a) = stack.pop() {
            if let Ok(node) = Arc::try_unwrap(a) {
                match node {
                    SNode::Input(_) | SNode::Failed(_) => {}
                    SNode::Add(mut x, mut y) => {
                        stack.extend(x.0.take());
                        stack.extend(y.0.take());
                    }
                    SNode::Scale(_, mut x) | SNode::Share(_, mut x) => stack.extend(x.0.take()),
                }
            }
        }
    }
}

/// The non-zero scalar Delta constructors.
#[derive(Debug)]
pub enum SNode<F> {
    /// Input scalar number `k` (all real input scalars in order).
    Input(usize),
    /// `d + e`.
    Add(SD<F>, SD<F>),
    /// `k · d`.
    Scale(F, SD<F>),
    /// Global sharing.
    Share(u64, SD<F>),
    /// The Delta of an operation whose partial derivative the table of primitives could
    /// not give at this scalar type (the message says why): an internal error, reported
    /// by every pass that reaches the node (the `Scalar` operations cannot fail).
    Failed(String),
}

impl<F: Scalar> SD<F> {
    fn zero() -> SD<F> {
        SD(None)
    }
    fn is_zero(&self) -> bool {
        self.0.is_none()
    }
    fn node(n: SNode<F>) -> SD<F> {
        SD(Some(Arc::new(n)))
    }
    fn add(a: SD<F>, b: SD<F>) -> SD<F> {
        match (a.is_zero(), b.is_zero()) {
            (true, _) => b,
            (_, true) => a,
            _ => SD::node(SNode::Add(a, b)),
        }
    }
    /// `k · d`; a structural zero `d` stays zero, and so does the scale by a zero `k`
    /// except in f64 mode, where `0 · inf = NaN` must be formed later.
    fn scale(k: F, d: SD<F>) -> SD<F> {
        if d.is_zero() || (!F::keeps_explicit_zeros() && k.is_zero()) {
            return SD::zero();
        }
        SD::node(SNode::Scale(k, d))
    }
    /// The result Delta of a primitive operation, under a fresh id (Fig. 3's `dD`).
    fn share(d: SD<F>) -> SD<F> {
        match d.0.as_deref() {
            None | Some(SNode::Input(_)) | Some(SNode::Share(..)) => d,
            _ => SD::node(SNode::Share(fresh_id(), d)),
        }
    }
}

/// A dual number of §2: a primal scalar and its Delta.
#[derive(Clone, Debug)]
pub struct DScalar<F> {
    value: F,
    delta: SD<F>,
}

impl<F: Scalar> DScalar<F> {
    /// Input scalar number `k`.
    pub fn input(value: F, k: usize) -> DScalar<F> {
        DScalar {
            value,
            delta: SD::node(SNode::Input(k)),
        }
    }
    fn constant(value: F) -> DScalar<F> {
        DScalar {
            value,
            delta: SD::zero(),
        }
    }
    fn new(value: F, delta: SD<F>) -> DScalar<F> {
        DScalar {
            value,
            delta: SD::share(delta),
        }
    }
    /// The primal value.
    pub fn value(&self) -> &F {
        &self.value
    }
    /// The Delta.
    pub fn delta(&self) -> &SD<F> {
        &self.delta
    }
}

impl<F: Scalar> PartialEq for DScalar<F> {
    fn eq(&self, o: &Self) -> bool {
        let same = match (&self.delta.0, &o.delta.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        self.value == o.value && same
    }
}

/// The Delta of `y = id(a, b)` (static exponent `k`) by the table of primitives:
/// `Σᵢ ∂ᵢ · dᵢ`, a partial `1` passing its Delta through (seed 000 Fig. 14).
fn table_delta<F: Scalar>(
    id: PrimId,
    env: &Env<F>,
    deltas: &[&SD<F>],
) -> std::result::Result<SD<F>, NonRational> {
    // The primitives of the scalar arithmetic below all have partials (`pow(x, 0)` has
    // none, a constant); `min`, `max` and `select` are composed by the evaluator from
    // comparisons, so they never reach here.
    let Deriv::Partials(ps) = deriv_at(id, env.k) else {
        return Ok(SD::zero());
    };
    let mut acc = SD::zero();
    for (p, d) in ps.iter().zip(deltas) {
        let term = match p {
            T::Int(1) => (*d).clone(),
            _ => SD::scale(eval_scalar(p, env)?, (*d).clone()),
        };
        acc = SD::add(acc, term);
    }
    Ok(acc)
}

/// The [`SNode::Failed`] Delta of `id`, whose partial is not rational (`n`).
fn failed<F: Scalar>(id: PrimId, n: NonRational) -> SD<F> {
    SD::node(SNode::Failed(format!(
        "the table of primitives gives `{}` a partial derivative outside the scalar type: {}",
        crate::prims::primitive(id).name,
        n.message()
    )))
}

/// An internal error for a pass that reached an [`SNode::Failed`] Delta.
fn internal(f: &Function, message: String) -> Diagnostic {
    Diagnostic::new(ErrorKind::Internal, f.body.span, message)
}

impl<F: Scalar> DScalar<F> {
    /// `id(self, o)` with primal result `y` (no transcendental reaches here).
    fn binary(&self, o: &Self, id: PrimId, y: F) -> Self {
        let env = Env {
            a: self.value.clone(),
            b: o.value.clone(),
            y: y.clone(),
            k: 0,
        };
        let d = table_delta(id, &env, &[&self.delta, &o.delta]).unwrap_or_else(|n| failed(id, n));
        DScalar::new(y, d)
    }
    /// `id(self)` (static exponent `k`) with primal result `y`.
    fn unary(&self, id: PrimId, k: i64, y: F) -> std::result::Result<Self, NonRational> {
        let env = Env {
            a: self.value.clone(),
            b: self.value.clone(),
            y: y.clone(),
            k,
        };
        let d = table_delta(id, &env, &[&self.delta])?;
        Ok(DScalar::new(y, d))
    }
}

impl<F: Scalar> Scalar for DScalar<F> {
    fn zero() -> Self {
        DScalar::constant(F::zero())
    }
    fn one() -> Self {
        DScalar::constant(F::one())
    }
    fn from_i64(n: i64) -> Self {
        DScalar::constant(F::from_i64(n))
    }
    fn from_rational(r: &Rat) -> Self {
        DScalar::constant(F::from_rational(r))
    }
    fn non_finite(x: adora_semantics::scalar::NonFinite) -> Option<Self> {
        F::non_finite(x).map(DScalar::constant)
    }
    fn is_zero(&self) -> bool {
        self.value.is_zero() && self.delta.is_zero()
    }
    fn add(&self, o: &Self) -> Self {
        self.binary(o, PrimId::Add, self.value.add(&o.value))
    }
    fn sub(&self, o: &Self) -> Self {
        self.binary(o, PrimId::Sub, self.value.sub(&o.value))
    }
    fn mul(&self, o: &Self) -> Self {
        self.binary(o, PrimId::Mul, self.value.mul(&o.value))
    }
    fn neg(&self) -> Self {
        let y = self.value.neg();
        self.unary(PrimId::Neg, 0, y.clone())
            .unwrap_or_else(|n| DScalar::new(y, failed(PrimId::Neg, n)))
    }
    fn checked_div(&self, o: &Self) -> Option<Self> {
        let q = self.value.checked_div(&o.value)?;
        Some(self.binary(o, PrimId::Div, q))
    }
    fn div_by_zero(&self, o: &Self) -> Self {
        // Special case (f64 mode, `b = 0`): the reference's factored form
        // `(1 / b) · (a' - q b')`, so that IEEE forms the same infinities and NaNs.
        let q = self.value.div_by_zero(&o.value);
        let r = F::one().div_by_zero(&o.value);
        let numerator = SD::add(self.delta.clone(), SD::scale(q.neg(), o.delta.clone()));
        DScalar::new(q, SD::scale(r, numerator))
    }
    fn keeps_explicit_zeros() -> bool {
        F::keeps_explicit_zeros()
    }
    fn pow_rule(&self, k: i64, repeated: Self) -> Self {
        if !F::keeps_explicit_zeros() {
            return repeated;
        }
        let y = repeated.value;
        self.unary(PrimId::Pow, k, y.clone())
            .unwrap_or_else(|n| DScalar::new(y, failed(PrimId::Pow, n)))
    }
    fn compare(&self, o: &Self) -> Option<Ordering> {
        self.value.compare(&o.value)
    }
    fn take_undecided() -> Option<adora_semantics::scalar::Undecided> {
        F::take_undecided()
    }
    fn floor_i64(&self) -> Option<i64> {
        self.value.floor_i64()
    }
    fn abs(&self) -> Self {
        match self.value.compare(&F::zero()) {
            // Special case: `abs` is the identity here, the dual number itself.
            Some(Ordering::Greater) | None => self.clone(),
            _ => {
                let y = self.value.abs();
                self.unary(PrimId::Abs, 0, y.clone())
                    .unwrap_or_else(|n| DScalar::new(y, failed(PrimId::Abs, n)))
            }
        }
    }
    fn transcendental(&self, f: Transcendental) -> std::result::Result<Self, NonRational> {
        let y = self.value.transcendental(f)?;
        let id = PrimId::of_transcendental(f);
        self.unary(id, 0, y)
    }
    fn approx_f64(&self) -> f64 {
        self.value.approx_f64()
    }
    fn as_rational(&self) -> Option<&Rat> {
        self.value.as_rational()
    }
    fn fits_bits(&self, max_bits: u64) -> bool {
        self.value.fits_bits(max_bits)
    }
    fn to_literal(&self) -> String {
        self.value.to_literal()
    }
    fn to_json(&self) -> serde_json::Value {
        self.value.to_json()
    }
}

/// The inputs with real scalar number `k` (in `real_scalars` order) as `Input(k)`, and
/// the number of real scalars.
fn seed<F: Scalar>(inputs: &[Value<F>]) -> (Vec<Value<DScalar<F>>>, usize) {
    let mut next = 0usize;
    let out = inputs
        .iter()
        .map(|v| {
            v.map_reals(&mut |x| {
                next += 1;
                DScalar::input(x.clone(), next - 1)
            })
        })
        .collect();
    (out, next)
}

/// The reverse pass of Fig. 5 over scalar Deltas: `roots` with their cotangents, into
/// `n` input scalars.
fn backprop<F: Scalar>(roots: Vec<(SD<F>, F)>, n: usize) -> std::result::Result<Vec<F>, String> {
    let mut grad = vec![F::zero(); n];
    let mut pending: BTreeMap<u64, (F, SD<F>)> = BTreeMap::new();
    let mut failure = None;
    type Pending<F> = BTreeMap<u64, (F, SD<F>)>;
    // Depth first, `a` before `b` as the recursive pass of Fig. 5, with an explicit stack:
    // Deltas are as deep as the longest accumulation (2^24 elements).
    fn go<F: Scalar>(
        c: F,
        d: &SD<F>,
        grad: &mut [F],
        pending: &mut Pending<F>,
        failure: &mut Option<String>,
    ) {
        let mut stack = vec![(c, d)];
        while let Some((c, d)) = stack.pop() {
            let Some(node) = d.0.as_deref() else { continue };
            match node {
                SNode::Failed(m) => *failure = Some(m.clone()),
                SNode::Input(k) => {
                    if let Some(g) = grad.get_mut(*k) {
                        g.add_assign(&c);
                    }
                }
                SNode::Add(a, b) => {
                    stack.push((c.clone(), b));
                    stack.push((c, a));
                }
                SNode::Scale(k, a) => stack.push((k.mul(&c), a)),
                SNode::Share(id, a) => match pending.get_mut(id) {
                    Some((acc, _)) => acc.add_assign(&c),
                    None => {
                        pending.insert(*id, (c, a.clone()));
                    }
                },
            }
        }
    }
    for (d, c) in roots {
        go(c, &d, &mut grad, &mut pending, &mut failure);
    }
    while let Some((_, (c, d))) = pending.pop_last() {
        go(c, &d, &mut grad, &mut pending, &mut failure);
    }
    match failure {
        Some(m) => Err(m),
        None => Ok(grad),
    }
}

/// Nodes of the scalar Delta DAGs of `roots` (each `Share` body counted once).
fn count_nodes<F: Scalar>(roots: &[&SD<F>]) -> usize {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut count = 0;
    let mut stack: Vec<&SD<F>> = roots.to_vec();
    while let Some(d) = stack.pop() {
        let Some(node) = d.0.as_deref() else { continue };
        if let SNode::Share(id, _) = node {
            if !seen.insert(*id) {
                continue;
            }
        }
        count += 1;
        match node {
            SNode::Input(_) | SNode::Failed(_) => {}
            SNode::Add(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            SNode::Scale(_, a) | SNode::Share(_, a) => stack.push(a),
        }
    }
    count
}

fn primal<F: Scalar>(v: &Value<DScalar<F>>) -> Value<F> {
    v.map_reals(&mut |d| d.value.clone())
}

fn split<F: Scalar>(inputs: &[Value<F>], dense: &[F]) -> Vec<Option<Value<F>>> {
    let mut it = dense.iter().cloned().map(|x| Some(Tensor::scalar(x)));
    inputs
        .iter()
        .map(|v| {
            let g = unflatten(v, &mut it);
            v.ty().has_reals().then_some(g)
        })
        .collect()
}

fn unflatten<F: Scalar>(
    like: &Value<F>,
    it: &mut impl Iterator<Item = Option<Tensor<F>>>,
) -> Value<F> {
    match like {
        Value::Real(t) => {
            let data = (0..t.len())
                .map(|_| {
                    it.next()
                        .flatten()
                        .map(|s| s.data[0].clone())
                        .unwrap_or_else(F::zero)
                })
                .collect();
            Value::Real(Tensor {
                shape: t.shape.clone(),
                data,
            })
        }
        Value::Int(t) => Value::Int(Tensor::filled(t.shape.clone(), 0)),
        Value::Bool(t) => Value::Bool(Tensor::filled(t.shape.clone(), false)),
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(|c| unflatten(c, it)).collect()),
    }
}

/// Runs `f` at dual numbers: the output and the number of real input scalars.
fn forward<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    opts: &EvalOptions,
) -> Result<(Value<DScalar<F>>, usize)> {
    let (duals, n) = seed(inputs);
    let (out, _) = eval(f, &duals, opts)?;
    Ok((out, n))
}

/// Value and input cotangents for the output cotangent `cotangent` (§2.7's wrapper with
/// a general output, App. A). Runs on a large stack ([`adora_core::with_stack`]): the
/// scalar Deltas of long accumulations are deep.
pub fn vjp<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    cotangent: &Value<F>,
    opts: &EvalOptions,
) -> Result<Gradient<F>> {
    adora_core::with_stack(|| vjp_here(f, inputs, cotangent, opts))
}

fn vjp_here<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    cotangent: &Value<F>,
    opts: &EvalOptions,
) -> Result<Gradient<F>> {
    if cotangent.ty() != f.ret {
        return Err(Diagnostic::new(
            ErrorKind::Input,
            f.body.span,
            format!("cotangent: expected {}, found {}", f.ret, cotangent.ty()),
        ));
    }
    let (out, n) = forward(f, inputs, opts)?;
    let roots: Vec<(SD<F>, F)> = out
        .real_scalars()
        .into_iter()
        .zip(cotangent.real_scalars())
        .filter(|(_, c)| F::keeps_explicit_zeros() || !c.is_zero())
        .map(|(y, c)| (y.delta.clone(), c.clone()))
        .collect();
    let grads = backprop(roots, n).map_err(|m| internal(f, m))?;
    Ok(Gradient {
        value: primal(&out),
        grads: split(inputs, &grads),
    })
}

/// Value and gradient of a program with a scalar real result.
pub fn gradient<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    opts: &EvalOptions,
) -> Result<Gradient<F>> {
    if f.ret != Type::real() {
        return Err(Diagnostic::new(
            ErrorKind::Type,
            f.body.span,
            format!(
                "grad needs a scalar R result; use vjp (`{}` returns {})",
                f.name, f.ret
            ),
        ));
    }
    vjp(f, inputs, &Value::real(F::one()), opts)
}

/// Value and tangent of the result for input tangents (`None`: zero), by forward
/// evaluation of the scalar Deltas (each `Share` once).
pub fn jvp<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    tangents: &[Option<Value<F>>],
    opts: &EvalOptions,
) -> Result<(Value<F>, Value<F>)> {
    adora_core::with_stack(|| jvp_here(f, inputs, tangents, opts))
}

fn jvp_here<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    tangents: &[Option<Value<F>>],
    opts: &EvalOptions,
) -> Result<(Value<F>, Value<F>)> {
    if tangents.len() != inputs.len() {
        return Err(Diagnostic::new(
            ErrorKind::Input,
            f.body.span,
            format!(
                "{} tangents given for {} inputs",
                tangents.len(),
                inputs.len()
            ),
        ));
    }
    // `None`: an input without a tangent, a structural zero (never multiplied, as in the
    // reference's `jvp`, where such inputs are constants).
    let mut dense: Vec<Option<F>> = Vec::new();
    for (x, t) in inputs.iter().zip(tangents) {
        match t {
            Some(t) if t.ty() == x.ty() => {
                dense.extend(t.real_scalars().into_iter().map(|v| Some(v.clone())))
            }
            Some(t) => {
                return Err(Diagnostic::new(
                    ErrorKind::Input,
                    f.body.span,
                    format!("tangent: expected {}, found {}", x.ty(), t.ty()),
                ))
            }
            None => dense.extend(x.real_scalars().into_iter().map(|_| None)),
        }
    }
    let (out, _) = forward(f, inputs, opts)?;
    let mut memo: HashMap<u64, Option<F>> = HashMap::new();
    let mut failure = None;
    let tangent = out.map_reals(&mut |y| {
        tangent_of(&y.delta, &dense, &mut memo, &mut failure).unwrap_or_else(F::zero)
    });
    match failure {
        Some(m) => Err(internal(f, m)),
        None => Ok((primal(&out), tangent)),
    }
}

/// The tangent of a scalar Delta for the input tangents `dense`; `None` is a structural
/// zero (the Delta does not reach an input with a tangent). A post-order traversal with
/// explicit stacks (`a` before `b`, each `Share` once): Deltas are as deep as the longest
/// accumulation, up to the array limit of 2^24 elements. A [`SNode::Failed`] node records
/// its message in `failure`.
fn tangent_of<F: Scalar>(
    d: &SD<F>,
    dense: &[Option<F>],
    memo: &mut HashMap<u64, Option<F>>,
    failure: &mut Option<String>,
) -> Option<F> {
    enum Task<'d, F> {
        Visit(&'d SD<F>),
        Add,
        Scale(&'d F),
        Memo(u64),
    }
    let mut tasks = vec![Task::Visit(d)];
    let mut vals: Vec<Option<F>> = Vec::new();
    while let Some(task) = tasks.pop() {
        match task {
            Task::Visit(d) => match d.0.as_deref() {
                None => vals.push(None),
                Some(SNode::Input(k)) => vals.push(dense.get(*k).cloned().flatten()),
                Some(SNode::Failed(m)) => {
                    *failure = Some(m.clone());
                    vals.push(None);
                }
                Some(SNode::Add(a, b)) => {
                    tasks.push(Task::Add);
                    tasks.push(Task::Visit(b));
                    tasks.push(Task::Visit(a));
                }
                Some(SNode::Scale(k, a)) => {
                    tasks.push(Task::Scale(k));
                    tasks.push(Task::Visit(a));
                }
                Some(SNode::Share(id, a)) => match memo.get(id) {
                    Some(t) => vals.push(t.clone()),
                    None => {
                        tasks.push(Task::Memo(*id));
                        tasks.push(Task::Visit(a));
                    }
                },
            },
            Task::Add => {
                let y = vals.pop().flatten();
                let x = vals.pop().flatten();
                vals.push(match (x, y) {
                    (Some(x), Some(y)) => Some(x.add(&y)),
                    (x, None) => x,
                    (None, y) => y,
                });
            }
            Task::Scale(k) => {
                let t = vals.pop().flatten();
                vals.push(t.map(|t| k.mul(&t)));
            }
            Task::Memo(id) => {
                let t = vals.last().cloned().flatten();
                memo.insert(id, t);
            }
        }
    }
    vals.pop().flatten()
}

/// The number of scalar Delta nodes `f` builds on `inputs` (the Delta term of all output
/// scalars, `Share` bodies counted once): §4.1's Delta explosion.
pub fn delta_nodes<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    opts: &EvalOptions,
) -> Result<usize> {
    adora_core::with_stack(|| {
        let (out, _) = forward(f, inputs, opts)?;
        let roots: Vec<&SD<F>> = out.real_scalars().into_iter().map(|y| &y.delta).collect();
        Ok(count_nodes(&roots))
    })
}

#[cfg(test)]
#[path = "scalar_tests.rs"]
mod tests;
