//! Runtime dual arrays: the values of the runtime forward pass (seed 000 §6, Fig. 12's
//! type translation: every real array is paired with its Delta, every integer or boolean
//! array is left alone), and the runtime Delta payloads.

use super::delta::{Delta, Rep};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::{Tensor, Value};
use std::marker::PhantomData;
use std::rc::Rc;

/// The payloads of runtime Deltas: concrete tensors and materialised index tables.
pub struct Runtime<S>(PhantomData<S>);

/// A materialised index map of `gather` / `scatter`: for every point of the map's index
/// space (row-major), the flat slot it reads from (gather) or writes to (scatter) in the
/// leading `prefix` dimensions of the other side, or `None` when out of bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The shape of the index space (the binders' extents).
    pub space: Vec<usize>,
    /// Number of index components (the length of the prefix index).
    pub prefix: usize,
    /// One entry per point of the index space.
    pub targets: Vec<Option<usize>>,
}

impl<S: Scalar> Rep for Runtime<S> {
    type Factor = Rc<Tensor<S>>;
    type Cond = Rc<Tensor<bool>>;
    type Ix = Vec<i64>;
    type Map = Rc<Table>;
    fn factor_text(k: &Self::Factor) -> String {
        format!("<R{:?}>", k.shape)
    }
    fn cond_text(c: &Self::Cond) -> String {
        format!("<B{:?}>", c.shape)
    }
    fn ix_text(ix: &Self::Ix) -> String {
        format!("{ix:?}")
    }
    fn map_text(m: &Self::Map) -> String {
        format!("<table of {}>", m.targets.len())
    }
}

/// A runtime Delta.
pub type RDelta<S> = Delta<Runtime<S>>;

/// A dual array value of the runtime forward pass.
#[derive(Clone)]
pub enum DV<S: Scalar> {
    /// A real array and its Delta.
    R(Rc<Tensor<S>>, RDelta<S>),
    /// An integer array (no derivative).
    Z(Rc<Tensor<i64>>),
    /// A boolean array (no derivative).
    B(Rc<Tensor<bool>>),
    /// A tuple.
    T(Vec<DV<S>>),
}

impl<S: Scalar> DV<S> {
    /// A real array with a zero Delta.
    pub fn constant(t: Tensor<S>) -> DV<S> {
        let shape = t.shape.clone();
        DV::R(Rc::new(t), Delta::zero(shape))
    }

    /// The primal value.
    pub fn primal(&self) -> Value<S> {
        match self {
            DV::R(t, _) => Value::Real((**t).clone()),
            DV::Z(t) => Value::Int((**t).clone()),
            DV::B(t) => Value::Bool((**t).clone()),
            DV::T(vs) => Value::Tuple(vs.iter().map(DV::primal).collect()),
        }
    }

    /// The Deltas of the real arrays inside, in order (tuples depth-first).
    pub fn deltas(&self) -> Vec<RDelta<S>> {
        fn go<S: Scalar>(v: &DV<S>, out: &mut Vec<RDelta<S>>) {
            match v {
                DV::R(_, d) => out.push(d.clone()),
                DV::Z(_) | DV::B(_) => {}
                DV::T(vs) => vs.iter().for_each(|c| go(c, out)),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }

    /// The scalars of the arrays of rank >= 1 inside (what the step and memory
    /// accounting of docs/language.md, "Resource limits", counts; a scalar counts 0).
    pub fn array_scalars(&self) -> usize {
        let count = |shape: &[usize], n: usize| if shape.is_empty() { 0 } else { n };
        match self {
            DV::R(t, _) => count(&t.shape, t.data.len()),
            DV::Z(t) => count(&t.shape, t.data.len()),
            DV::B(t) => count(&t.shape, t.data.len()),
            DV::T(vs) => vs.iter().map(DV::array_scalars).sum(),
        }
    }

    /// The type's description for error messages.
    pub fn describe(&self) -> String {
        self.primal().ty().to_string()
    }
}

/// The input value as dual arrays: real array number `k` (in parameter order, tuples
/// depth-first) gets Delta `Input(k)`. `next` counts the real leaves.
pub fn seed_input<S: Scalar>(v: &Value<S>, next: &mut usize) -> DV<S> {
    match v {
        Value::Real(t) => {
            *next += 1;
            DV::R(Rc::new(t.clone()), Delta::input(*next - 1, t.shape.clone()))
        }
        Value::Int(t) => DV::Z(Rc::new(t.clone())),
        Value::Bool(t) => DV::B(Rc::new(t.clone())),
        Value::Tuple(vs) => DV::T(vs.iter().map(|c| seed_input(c, next)).collect()),
    }
}

/// A value shaped like `like` whose real arrays are taken in order from `leaves` (zeros
/// where a leaf is `None`); integers become `0`, booleans `false` (the reference's
/// convention for gradients).
pub fn assemble<S: Scalar>(
    like: &Value<S>,
    leaves: &mut impl Iterator<Item = Option<Tensor<S>>>,
) -> Value<S> {
    match like {
        Value::Real(t) => match leaves.next().flatten() {
            Some(g) => Value::Real(g),
            None => Value::Real(Tensor::filled(t.shape.clone(), S::zero())),
        },
        Value::Int(t) => Value::Int(Tensor::filled(t.shape.clone(), 0)),
        Value::Bool(t) => Value::Bool(Tensor::filled(t.shape.clone(), false)),
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(|c| assemble(c, leaves)).collect()),
    }
}
