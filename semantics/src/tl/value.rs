//! Values of the tensor language (paper §4.1: scalar values, pair values, array values,
//! zero shapes) and the environments terms are evaluated in.

use crate::scalar::Scalar;
use adora_core::tl::{Ty, Var};
use std::fmt;

/// A value: a number, a boolean or integer datum (E1, E3), a pair, or an array.
#[derive(Clone, Debug, PartialEq)]
pub enum TlValue<S> {
    /// A number.
    Num(S),
    /// A boolean datum (relation inputs).
    Bool(bool),
    /// An integer datum.
    Int(i64),
    /// A pair.
    Pair(Box<TlValue<S>>, Box<TlValue<S>>),
    /// An array.
    Arr(Vec<TlValue<S>>),
}

impl<S: Scalar> TlValue<S> {
    /// The zero of a type (paper §4.1, "zero shapes"): `0`, `(0, 0)`, `[0, …, 0]`; data
    /// types give `false` and `0`.
    pub fn zero_of(t: &Ty) -> TlValue<S> {
        match t {
            Ty::Num => TlValue::Num(S::zero()),
            Ty::Bool => TlValue::Bool(false),
            Ty::Int => TlValue::Int(0),
            Ty::Pair(a, b) => TlValue::pair(TlValue::zero_of(a), TlValue::zero_of(b)),
            Ty::Arr(n, e) => TlValue::Arr(vec![TlValue::zero_of(e); *n as usize]),
        }
    }

    /// `(a, b)`.
    pub fn pair(a: TlValue<S>, b: TlValue<S>) -> TlValue<S> {
        TlValue::Pair(Box::new(a), Box::new(b))
    }

    /// The number, if this is one.
    pub fn as_num(&self) -> Option<&S> {
        match self {
            TlValue::Num(x) => Some(x),
            _ => None,
        }
    }

    /// A type of the value: empty arrays are typed `[0]num` (the element type of an
    /// empty array is not recorded in it).
    pub fn type_of(&self) -> Ty {
        match self {
            TlValue::Num(_) => Ty::Num,
            TlValue::Bool(_) => Ty::Bool,
            TlValue::Int(_) => Ty::Int,
            TlValue::Pair(a, b) => Ty::pair(a.type_of(), b.type_of()),
            TlValue::Arr(es) => Ty::arr(
                es.len() as u64,
                es.first().map_or(Ty::Num, TlValue::type_of),
            ),
        }
    }

    /// Whether the value has type `t`.
    pub fn has_type(&self, t: &Ty) -> bool {
        match (self, t) {
            (TlValue::Num(_), Ty::Num)
            | (TlValue::Bool(_), Ty::Bool)
            | (TlValue::Int(_), Ty::Int) => true,
            (TlValue::Pair(a, b), Ty::Pair(ta, tb)) => a.has_type(ta) && b.has_type(tb),
            (TlValue::Arr(es), Ty::Arr(n, e)) => {
                es.len() as u64 == *n && es.iter().all(|x| x.has_type(e))
            }
            _ => false,
        }
    }

    /// The same value with every number mapped by `f`.
    pub fn map_num<T>(&self, f: &mut impl FnMut(&S) -> T) -> TlValue<T> {
        match self {
            TlValue::Num(x) => TlValue::Num(f(x)),
            TlValue::Bool(b) => TlValue::Bool(*b),
            TlValue::Int(k) => TlValue::Int(*k),
            TlValue::Pair(a, b) => TlValue::Pair(Box::new(a.map_num(f)), Box::new(b.map_num(f))),
            TlValue::Arr(es) => TlValue::Arr(es.iter().map(|e| e.map_num(f)).collect()),
        }
    }

    /// The numbers of the value, in order (depth first).
    pub fn nums(&self) -> Vec<&S> {
        let mut out = Vec::new();
        self.collect_nums(&mut out);
        out
    }

    fn collect_nums<'a>(&'a self, out: &mut Vec<&'a S>) {
        match self {
            TlValue::Num(x) => out.push(x),
            TlValue::Bool(_) | TlValue::Int(_) => {}
            TlValue::Pair(a, b) => {
                a.collect_nums(out);
                b.collect_nums(out);
            }
            TlValue::Arr(es) => es.iter().for_each(|e| e.collect_nums(out)),
        }
    }

    /// The struct-of-arrays form (paper §5.2): an array of pairs becomes the pair of
    /// arrays of components, recursively; an empty array stays `[]`, and a pair of two
    /// values whose struct-of-arrays forms are `[]` becomes `[]` (`[0](T × U) ≅ [0]T ×
    /// [0]U`, both empty).
    pub fn soa(&self) -> TlValue<S> {
        match self {
            TlValue::Pair(a, b) => {
                let (a, b) = (a.soa(), b.soa());
                if is_empty_arr(&a) && is_empty_arr(&b) {
                    TlValue::Arr(Vec::new())
                } else {
                    TlValue::pair(a, b)
                }
            }
            TlValue::Arr(es) => {
                let es: Vec<TlValue<S>> = es.iter().map(TlValue::soa).collect();
                if !es.is_empty() && es.iter().all(|e| matches!(e, TlValue::Pair(..))) {
                    let (mut l, mut r) = (Vec::new(), Vec::new());
                    for e in es {
                        if let TlValue::Pair(a, b) = e {
                            l.push(*a);
                            r.push(*b);
                        }
                    }
                    TlValue::pair(TlValue::Arr(l), TlValue::Arr(r)).soa()
                } else {
                    TlValue::Arr(es)
                }
            }
            v => v.clone(),
        }
    }

    /// Equality up to the struct-of-arrays isomorphism `[n](T × U) ≅ [n]T × [n]U`
    /// (paper §5.2): the intermediates of pair elimination compare equal to the values
    /// they stand for.
    pub fn iso_eq(a: &TlValue<S>, b: &TlValue<S>) -> bool {
        a.soa() == b.soa()
    }
}

fn is_empty_arr<S>(v: &TlValue<S>) -> bool {
    matches!(v, TlValue::Arr(es) if es.is_empty())
}

impl<S: Scalar> fmt::Display for TlValue<S> {
    /// `3`, `1/2`, `true`, `(a, b)`, `[a, b, c]` (numbers in the concrete syntax of
    /// their field).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TlValue::Num(x) => f.write_str(&x.to_literal()),
            TlValue::Bool(b) => write!(f, "{b}"),
            TlValue::Int(k) => write!(f, "{k}"),
            TlValue::Pair(a, b) => write!(f, "({a}, {b})"),
            TlValue::Arr(es) => {
                f.write_str("[")?;
                for (k, e) in es.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{e}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// An environment: value variables bound to values, each with its type when the caller
/// gave it (otherwise the type is read off the value, see [`TlValue::type_of`]).
#[derive(Clone, Debug, Default)]
pub struct TlEnv<S> {
    pub(crate) vals: Vec<(Var, Ty, TlValue<S>)>,
}

impl<S: Scalar> TlEnv<S> {
    /// The empty environment.
    pub fn new() -> TlEnv<S> {
        TlEnv { vals: Vec::new() }
    }

    /// Binds `x` to `v` (shadowing an earlier binding), typed by the value itself.
    pub fn bind(&mut self, x: impl Into<Var>, v: TlValue<S>) -> &mut TlEnv<S> {
        let t = v.type_of();
        self.vals.push((x.into(), t, v));
        self
    }

    /// Binds `x : t` to `v`; needed for empty arrays of non-scalar elements, whose type
    /// the value does not record.
    pub fn bind_typed(&mut self, x: impl Into<Var>, t: Ty, v: TlValue<S>) -> &mut TlEnv<S> {
        self.vals.push((x.into(), t, v));
        self
    }

    /// The environment of typed inputs and their values, in order.
    pub fn from_inputs(inputs: &[(Var, Ty)], values: &[TlValue<S>]) -> TlEnv<S> {
        let mut env = TlEnv::new();
        for ((x, t), v) in inputs.iter().zip(values) {
            env.bind_typed(x.clone(), t.clone(), v.clone());
        }
        env
    }

    /// The value bound to `x` (the latest binding).
    pub fn get(&self, x: &str) -> Option<&TlValue<S>> {
        self.vals
            .iter()
            .rev()
            .find(|(y, _, _)| y == x)
            .map(|(_, _, v)| v)
    }

    /// The typed bindings, oldest first.
    pub fn types(&self) -> Vec<(Var, Ty)> {
        self.vals
            .iter()
            .map(|(x, t, _)| (x.clone(), t.clone()))
            .collect()
    }

    /// The bindings, oldest first.
    pub fn bindings(&self) -> impl Iterator<Item = (&Var, &Ty, &TlValue<S>)> {
        self.vals.iter().map(|(x, t, v)| (x, t, v))
    }
}
