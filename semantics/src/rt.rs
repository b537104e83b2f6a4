//! Internal runtime values of the evaluator: arrays share their storage (`Rc`), so using a
//! variable or taking a prefix index (`x[i]`) never copies the whole array; rank-0 arrays
//! hold their scalar inline (no allocation).

use crate::scalar::Scalar;
use crate::value::{Tensor, Value};
use adora_core::types::{Base, Type};
use std::rc::Rc;

/// Whether two shapes are equal. Rank-0 shapes (empty vectors) compare without calling
/// `memcmp`: slice `==` calls it even for empty slices, with an empty vector's dangling
/// pointer, and the masked load of glibc's vectorised `memcmp` there took about a seventh
/// of the exact reference gradient of a convolution loss, which compares the shapes of
/// scalars for every element (docs/benchmarks.md).
#[inline]
pub(crate) fn same_shape(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len() && (a.is_empty() || a == b)
}

/// Storage of an array: an inline scalar (rank 0) or a window into a shared buffer.
#[derive(Clone, Debug)]
enum Store<T> {
    One(T),
    Many(Rc<Vec<T>>, usize),
}

/// A row-major array whose storage may be shared with other arrays.
#[derive(Clone, Debug)]
pub(crate) struct Arr<T> {
    shape: Vec<usize>,
    len: usize,
    store: Store<T>,
}

impl<T: Clone> Arr<T> {
    /// A rank-0 array.
    pub fn scalar(x: T) -> Arr<T> {
        Arr {
            shape: Vec::new(),
            len: 1,
            store: Store::One(x),
        }
    }

    /// An array of `shape` with row-major `data` (the caller guarantees the length).
    pub fn from_vec(shape: Vec<usize>, mut data: Vec<T>) -> Arr<T> {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        if shape.is_empty() {
            match data.pop() {
                Some(x) => Arr::scalar(x),
                None => Arr {
                    shape,
                    len: 0,
                    store: Store::Many(Rc::new(data), 0),
                },
            }
        } else {
            Arr {
                len: data.len(),
                shape,
                store: Store::Many(Rc::new(data), 0),
            }
        }
    }

    /// An array of `shape` with every element `x`.
    pub fn filled(shape: Vec<usize>, x: T) -> Arr<T> {
        let n = shape.iter().product();
        Arr::from_vec(shape, vec![x; n])
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The elements, row-major.
    pub fn data(&self) -> &[T] {
        match &self.store {
            Store::One(x) => std::slice::from_ref(x),
            Store::Many(v, off) => &v[*off..*off + self.len],
        }
    }

    /// The only element of a rank-0 array.
    pub fn as_scalar(&self) -> Option<&T> {
        match &self.store {
            Store::One(x) => Some(x),
            Store::Many(..) => None,
        }
    }

    /// The elements as an owned vector (no copy when the buffer is not shared).
    pub fn into_vec(self) -> Vec<T> {
        match self.store {
            Store::One(x) => vec![x],
            Store::Many(v, off) => {
                if off == 0 && v.len() == self.len {
                    Rc::try_unwrap(v).unwrap_or_else(|v| v[..self.len].to_vec())
                } else {
                    v[off..off + self.len].to_vec()
                }
            }
        }
    }

    /// The sub-array at flat offset `start` (in elements) with `shape` (shares storage).
    fn window(&self, start: usize, shape: Vec<usize>) -> Arr<T> {
        let len = shape.iter().product();
        if shape.is_empty() {
            return Arr::scalar(self.data()[start].clone());
        }
        match &self.store {
            Store::Many(v, off) => Arr {
                shape,
                len,
                store: Store::Many(v.clone(), off + start),
            },
            Store::One(x) => Arr::from_vec(shape, vec![x.clone(); len]),
        }
    }

    /// The sub-array `self[idx]` for an in-bounds prefix index (checked by the caller).
    pub fn prefix(&self, idx: &[usize]) -> Arr<T> {
        let mut flat = 0;
        for (&i, &d) in idx.iter().zip(&self.shape) {
            flat = flat * d + i;
        }
        let tail = self.shape[idx.len()..].to_vec();
        let inner: usize = tail.iter().product();
        self.window(flat * inner, tail)
    }

    /// The same elements with another shape of the same size.
    pub fn reshaped(&self, shape: Vec<usize>) -> Arr<T> {
        if shape.is_empty() || self.shape.is_empty() {
            return Arr::from_vec(shape, self.data().to_vec());
        }
        Arr {
            shape,
            len: self.len,
            store: self.store.clone(),
        }
    }

    /// The public tensor.
    pub fn to_tensor(&self) -> Tensor<T> {
        Tensor {
            shape: self.shape.clone(),
            data: self.data().to_vec(),
        }
    }

    /// From a public tensor.
    pub fn from_tensor(t: &Tensor<T>) -> Arr<T> {
        Arr::from_vec(t.shape.clone(), t.data.clone())
    }

    /// Elementwise map.
    pub fn map<U: Clone, E>(&self, mut f: impl FnMut(&T) -> Result<U, E>) -> Result<Arr<U>, E> {
        if let Some(x) = self.as_scalar() {
            return Ok(Arr::scalar(f(x)?));
        }
        let data = self
            .data()
            .iter()
            .map(&mut f)
            .collect::<Result<Vec<U>, E>>()?;
        Ok(Arr::from_vec(self.shape.clone(), data))
    }

    /// Elementwise update of `self` by `other` (same shape, checked by the caller),
    /// reusing `self`'s storage when it is not shared.
    pub fn zip_assign<B: Clone, E>(
        self,
        other: &Arr<B>,
        mut f: impl FnMut(&mut T, &B) -> Result<(), E>,
    ) -> Result<Arr<T>, E> {
        let shape = self.shape.clone();
        if let Store::One(mut x) = self.store {
            f(&mut x, &other.data()[0])?;
            return Ok(Arr::scalar(x));
        }
        let mut data = self.into_vec();
        for (p, q) in data.iter_mut().zip(other.data()) {
            f(p, q)?;
        }
        Ok(Arr::from_vec(shape, data))
    }

    /// Elementwise combination of two arrays of the same shape (checked by the caller).
    pub fn zip<B: Clone, U: Clone, E>(
        &self,
        other: &Arr<B>,
        mut f: impl FnMut(&T, &B) -> Result<U, E>,
    ) -> Result<Arr<U>, E> {
        if let (Some(x), Some(y)) = (self.as_scalar(), other.as_scalar()) {
            return Ok(Arr::scalar(f(x, y)?));
        }
        let data = self
            .data()
            .iter()
            .zip(other.data())
            .map(|(x, y)| f(x, y))
            .collect::<Result<Vec<U>, E>>()?;
        Ok(Arr::from_vec(self.shape.clone(), data))
    }
}

/// An internal value: arrays of the three base types, or a tuple (shared).
#[derive(Clone, Debug)]
pub(crate) enum RV<S> {
    R(Arr<S>),
    Z(Arr<i64>),
    B(Arr<bool>),
    T(Rc<Vec<RV<S>>>),
}

impl<S: Scalar> RV<S> {
    /// Number of scalars.
    pub fn size(&self) -> usize {
        match self {
            RV::R(a) => a.len(),
            RV::Z(a) => a.len(),
            RV::B(a) => a.len(),
            RV::T(vs) => vs.iter().map(RV::size).sum(),
        }
    }

    /// Base type and shape of an array value.
    pub fn array(&self) -> Option<(Base, &[usize])> {
        match self {
            RV::R(a) => Some((Base::R, a.shape())),
            RV::Z(a) => Some((Base::Z, a.shape())),
            RV::B(a) => Some((Base::B, a.shape())),
            RV::T(_) => None,
        }
    }

    /// The type of the value.
    pub fn ty(&self) -> Type {
        match self {
            RV::R(a) => Type::Array(Base::R, a.shape().to_vec()),
            RV::Z(a) => Type::Array(Base::Z, a.shape().to_vec()),
            RV::B(a) => Type::Array(Base::B, a.shape().to_vec()),
            RV::T(vs) => Type::Tuple(vs.iter().map(RV::ty).collect()),
        }
    }

    /// From a public value (copies the data once).
    pub fn from_value(v: &Value<S>) -> RV<S> {
        match v {
            Value::Real(t) => RV::R(Arr::from_tensor(t)),
            Value::Int(t) => RV::Z(Arr::from_tensor(t)),
            Value::Bool(t) => RV::B(Arr::from_tensor(t)),
            Value::Tuple(vs) => RV::T(Rc::new(vs.iter().map(RV::from_value).collect())),
        }
    }

    /// To a public value.
    pub fn to_value(&self) -> Value<S> {
        match self {
            RV::R(a) => Value::Real(a.to_tensor()),
            RV::Z(a) => Value::Int(a.to_tensor()),
            RV::B(a) => Value::Bool(a.to_tensor()),
            RV::T(vs) => Value::Tuple(vs.iter().map(RV::to_value).collect()),
        }
    }

    /// The zero value of a type (`0`, `0`, `false`).
    pub fn zeros(ty: &Type) -> RV<S> {
        match ty {
            Type::Array(Base::R, s) => RV::R(Arr::filled(s.clone(), S::zero())),
            Type::Array(Base::Z, s) => RV::Z(Arr::filled(s.clone(), 0)),
            Type::Array(Base::B, s) => RV::B(Arr::filled(s.clone(), false)),
            Type::Tuple(ts) => RV::T(Rc::new(ts.iter().map(RV::zeros).collect())),
        }
    }

    /// The integer array, if this is one.
    pub fn as_z(&self) -> Option<&Arr<i64>> {
        match self {
            RV::Z(a) => Some(a),
            _ => None,
        }
    }

    /// The boolean array, if this is one.
    pub fn as_b(&self) -> Option<&Arr<bool>> {
        match self {
            RV::B(a) => Some(a),
            _ => None,
        }
    }

    /// The sub-value at an in-bounds prefix index.
    pub fn prefix(&self, idx: &[usize]) -> RV<S> {
        match self {
            RV::R(a) => RV::R(a.prefix(idx)),
            RV::Z(a) => RV::Z(a.prefix(idx)),
            RV::B(a) => RV::B(a.prefix(idx)),
            RV::T(vs) => RV::T(Rc::new(vs.iter().map(|v| v.prefix(idx)).collect())),
        }
    }

    /// Size of the outermost dimension (tuples: that of their first array component, all
    /// components must agree); `None` for scalars.
    pub fn outer_len(&self) -> Option<usize> {
        match self {
            RV::T(vs) => {
                let mut n = None;
                for v in vs.iter() {
                    let m = v.outer_len()?;
                    if n.is_some_and(|n| n != m) {
                        return None;
                    }
                    n = Some(m);
                }
                n
            }
            _ => self.array().and_then(|(_, s)| s.first().copied()),
        }
    }
}

/// Stacks equally typed values along a new outer dimension of size `items.len()`; a list
/// of tuples stacks componentwise. `None` when the list is empty or the types differ.
pub(crate) fn stack<S: Scalar>(items: Vec<RV<S>>) -> Option<RV<S>> {
    let mut st = Stacker::with_capacity(items.len());
    for it in &items {
        if !st.push(it) {
            return None;
        }
    }
    st.finish(&[items.len()])
}

/// Accumulates equally typed values (arrays, or tuples of them componentwise) into one
/// flat buffer per component, without keeping the individual values.
pub(crate) enum Stacker<S> {
    /// Nothing pushed yet (the capacity hint is the expected number of values).
    Empty(usize),
    /// Reals: the inner shape and the elements so far.
    R(Vec<usize>, Vec<S>),
    /// Integers.
    Z(Vec<usize>, Vec<i64>),
    /// Booleans.
    B(Vec<usize>, Vec<bool>),
    /// Tuples, one stacker per component.
    T(Vec<Stacker<S>>),
}

impl<S: Scalar> Stacker<S> {
    /// A stacker expecting about `n` values.
    pub fn with_capacity(n: usize) -> Stacker<S> {
        Stacker::Empty(n)
    }

    /// Appends a value; `false` when its type differs from the first value's.
    pub fn push(&mut self, v: &RV<S>) -> bool {
        fn add<T: Clone>(shape: &[usize], data: &mut Vec<T>, a: &Arr<T>) -> bool {
            if !same_shape(a.shape(), shape) {
                return false;
            }
            data.extend_from_slice(a.data());
            true
        }
        if let Stacker::Empty(n) = *self {
            *self = match v {
                RV::R(a) => Stacker::R(
                    a.shape().to_vec(),
                    Vec::with_capacity(n.saturating_mul(a.len())),
                ),
                RV::Z(a) => Stacker::Z(
                    a.shape().to_vec(),
                    Vec::with_capacity(n.saturating_mul(a.len())),
                ),
                RV::B(a) => Stacker::B(
                    a.shape().to_vec(),
                    Vec::with_capacity(n.saturating_mul(a.len())),
                ),
                RV::T(vs) => Stacker::T(vs.iter().map(|_| Stacker::Empty(n)).collect()),
            };
        }
        match (self, v) {
            (Stacker::R(s, d), RV::R(a)) => add(s, d, a),
            (Stacker::Z(s, d), RV::Z(a)) => add(s, d, a),
            (Stacker::B(s, d), RV::B(a)) => add(s, d, a),
            (Stacker::T(cs), RV::T(vs)) if cs.len() == vs.len() => {
                cs.iter_mut().zip(vs.iter()).all(|(c, v)| c.push(v))
            }
            _ => false,
        }
    }

    /// The value of shape `outer ++ inner` (the number of pushed values must be the
    /// product of `outer`); `None` when nothing was pushed.
    pub fn finish(self, outer: &[usize]) -> Option<RV<S>> {
        let full = |inner: &[usize]| {
            let mut s = outer.to_vec();
            s.extend_from_slice(inner);
            s
        };
        Some(match self {
            Stacker::Empty(_) => return None,
            Stacker::R(s, d) => RV::R(Arr::from_vec(full(&s), d)),
            Stacker::Z(s, d) => RV::Z(Arr::from_vec(full(&s), d)),
            Stacker::B(s, d) => RV::B(Arr::from_vec(full(&s), d)),
            Stacker::T(cs) => RV::T(Rc::new(
                cs.into_iter()
                    .map(|c| c.finish(outer))
                    .collect::<Option<Vec<_>>>()?,
            )),
        })
    }
}

/// The value of type `outer ++ ty` with no elements (some dimension of `outer` is 0).
pub(crate) fn empty_of<S: Scalar>(outer: &[usize], ty: &Type) -> RV<S> {
    match ty {
        Type::Array(b, s) => {
            let mut shape = outer.to_vec();
            shape.extend_from_slice(s);
            RV::zeros(&Type::Array(*b, shape))
        }
        Type::Tuple(ts) => RV::T(Rc::new(ts.iter().map(|t| empty_of(outer, t)).collect())),
    }
}
