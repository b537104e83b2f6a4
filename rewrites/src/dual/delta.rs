//! Delta terms (seed 000 §2.3, §4.2, Fig. 12; horde-ad `Delta.hs`, notes §1.2): the
//! forward derivative of a dual array, as a term of linear operators over the inputs'
//! tangents.
//!
//! A `Delta<R>` is a DAG: nodes are reference counted and sharing is made explicit by
//! `Share` nodes carrying unique ids (invariant 1 of §2.5: every id inside `Share n d` is
//! smaller than `n`; invariant 2: equal ids denote the same node). Every node records the
//! static shape of the tangent it denotes (the paper's `shapeDelta`, cached).
//!
//! The payload type `R: Rep` says what the Delta embeds where it mentions primal data:
//! concrete tensors and index tables in the runtime pass ([`super::forward`]), variable
//! references and index terms in the symbolic pass ([`super::symbolic`], the paper's
//! `SymDelta` of §7.2).
//!
//! The constructors and the linear map each denotes (`⟦d⟧` is the tangent `d` computes
//! from the input tangents; shapes in `[..]`):
//!
//! | constructor | meaning | transpose (reverse pass) |
//! |---|---|---|
//! | `Zero` | `0` | nothing |
//! | `Input(i)` | tangent of input leaf `i` | `grad[i] += c` |
//! | `Share(n, d)` | `⟦d⟧`, computed once | `accum[n] += c`, later `d` with `accum[n]` |
//! | `Add(d, e)` | `⟦d⟧ + ⟦e⟧` | `c` to both (duplicated: shared) |
//! | `Neg(d)` | `-⟦d⟧` | `-c` |
//! | `Scale(k, d)` | `k ⊙ ⟦d⟧` (elementwise, `k` primal) | `k ⊙ c` |
//! | `DivBy(k, d)` | `⟦d⟧ ⊘ k` (total division) | `c ⊘ k` |
//! | `Select(b, d, e)` | `select(b, ⟦d⟧, ⟦e⟧)` | `select(b, c, 0)`, `select(b, 0, c)` |
//! | `Index(d, ix)` | `⟦d⟧[ix]` | `oneHot(shape d, ix, c)` |
//! | `Gather(d, f)` | `gather(sh, ⟦d⟧, f)` | `scatter(shape d, c, f)` |
//! | `Scatter(d, f)` | `scatter(sh, ⟦d⟧, f)` | `gather(.., c, f)` |
//! | `Sum(d)` | `sum(⟦d⟧)` | `replicate` of `c` to `shape d` |
//! | `SumOuter(d)` | `sum_outer(⟦d⟧)` | `replicate(n, c)` |
//! | `Replicate(n, d)` | `replicate(n, ⟦d⟧)` | `sum_outer(c)` |
//! | `Transpose(p, d)` | `transpose(p, ⟦d⟧)` | `transpose(p⁻¹, c)` |
//! | `Reshape(d)` | `reshape(sh, ⟦d⟧)` | `reshape(shape d, c)` |
//! | `Append(d, e)` | `append(⟦d⟧, ⟦e⟧)` | the two slices of `c` |
//! | `Stack(ds)` | `stack(⟦d1⟧, …)` | `c[k]` to `d_k` (duplicated: shared) |
//!
//! `Neg`, `DivBy` and `Select` are our additions to the paper's `Scale`: they keep the
//! reverse pass free of materialised `-1`, reciprocal and 0/1-mask arrays (and `select`
//! costs nothing in the `ops` model), and they are exact: `c ⊘ k` is total like the
//! language's division, so `x / 0` has derivative 0 exactly as the reference has.
//!
//! Smart constructors (the lower-case functions) keep terms small as horde-ad's do
//! (`dAdd`, `dScale`, `shareDelta`): every linear operator of `Zero` is `Zero`, `Add`
//! drops `Zero` operands, and [`Delta::share`] does not wrap `Zero`, `Input` or `Share`.

use adora_core::types::Shape;
use std::collections::HashSet;
use std::rc::Rc;

/// What a Delta embeds where it refers to primal data (see the module documentation).
pub trait Rep {
    /// The primal factor of `Scale` / `DivBy` (an array of the node's shape, or a scalar
    /// for rank-0 nodes).
    type Factor: Clone;
    /// The primal condition of `Select` (a boolean scalar, or an array of the node's
    /// shape).
    type Cond: Clone;
    /// The position of `Index` (a prefix index of the indexed tangent).
    type Ix: Clone;
    /// The index map of `Gather` / `Scatter`.
    type Map: Clone;
    /// The factor as text (for printing).
    fn factor_text(k: &Self::Factor) -> String;
    /// The condition as text.
    fn cond_text(c: &Self::Cond) -> String;
    /// The index as text.
    fn ix_text(ix: &Self::Ix) -> String;
    /// The index map as text.
    fn map_text(m: &Self::Map) -> String;
}

/// A Delta term: a shared reference to a [`Node`].
pub struct Delta<R: Rep>(Rc<Node<R>>);

impl<R: Rep> Clone for Delta<R> {
    fn clone(&self) -> Self {
        Delta(Rc::clone(&self.0))
    }
}

/// One node: its shape and its constructor.
pub struct Node<R: Rep> {
    /// The shape of the tangent the node denotes.
    pub shape: Shape,
    /// The constructor.
    pub kind: Kind<R>,
}

/// The Delta constructors (see the module documentation for their meaning).
pub enum Kind<R: Rep> {
    /// The zero tangent.
    Zero,
    /// The tangent of input leaf `i` (parameters in order, tuples depth-first).
    Input(usize),
    /// Global sharing: node `id` denotes its body, evaluated once.
    Share(u64, Delta<R>),
    /// Sum of two tangents of one shape.
    Add(Delta<R>, Delta<R>),
    /// Negation.
    Neg(Delta<R>),
    /// Elementwise product with a primal factor.
    Scale(R::Factor, Delta<R>),
    /// Elementwise total division by a primal factor.
    DivBy(R::Factor, Delta<R>),
    /// Elementwise (or whole-array, for a scalar condition) selection.
    Select(R::Cond, Delta<R>, Delta<R>),
    /// Indexing by a prefix.
    Index(Delta<R>, R::Ix),
    /// `gather` with the node's shape's leading dimensions as index space.
    Gather(Delta<R>, R::Map),
    /// `scatter` into the node's shape.
    Scatter(Delta<R>, R::Map),
    /// Sum of all elements (a scalar).
    Sum(Delta<R>),
    /// Sum along the outermost dimension.
    SumOuter(Delta<R>),
    /// A new outermost dimension of the given size.
    Replicate(usize, Delta<R>),
    /// `transpose(perm, d)`: result dimension `k` is dimension `perm[k]` of `d`.
    Transpose(Vec<usize>, Delta<R>),
    /// `reshape` to the node's shape.
    Reshape(Delta<R>),
    /// Concatenation along the outermost dimension.
    Append(Delta<R>, Delta<R>),
    /// Stacking along a new outermost dimension (array literals, `stack`).
    Stack(Vec<Delta<R>>),
}

/// A supply of fresh, increasing `Share` ids (the paper's monadic `fresh` of Fig. 3).
#[derive(Clone, Debug, Default)]
pub struct Ids {
    next: u64,
}

impl Ids {
    /// A supply starting at id 1.
    pub fn new() -> Ids {
        Ids { next: 1 }
    }
    /// The next id (strictly larger than every id handed out before).
    pub fn fresh(&mut self) -> u64 {
        let n = self.next.max(1);
        self.next = n + 1;
        n
    }
}

impl<R: Rep> Delta<R> {
    fn mk(shape: Shape, kind: Kind<R>) -> Delta<R> {
        Delta(Rc::new(Node { shape, kind }))
    }
    /// The node.
    pub fn node(&self) -> &Node<R> {
        &self.0
    }
    /// The node's shape.
    pub fn shape(&self) -> &[usize] {
        &self.0.shape
    }
    /// The node's constructor.
    pub fn kind(&self) -> &Kind<R> {
        &self.0.kind
    }
    /// Whether this is `Zero`.
    pub fn is_zero(&self) -> bool {
        matches!(self.0.kind, Kind::Zero)
    }
    /// `Zero` of `shape`.
    pub fn zero(shape: Shape) -> Delta<R> {
        Delta::mk(shape, Kind::Zero)
    }
    /// `Input(i)` of `shape`.
    pub fn input(i: usize, shape: Shape) -> Delta<R> {
        Delta::mk(shape, Kind::Input(i))
    }
    /// The same node behind a fresh `Share` id, unless it is `Zero`, `Input` or already a
    /// `Share` (horde-ad's `shareDelta`).
    pub fn share(self, ids: &mut Ids) -> Delta<R> {
        match self.kind() {
            Kind::Zero | Kind::Input(_) | Kind::Share(..) => self,
            _ => {
                let shape = self.0.shape.clone();
                Delta::mk(shape, Kind::Share(ids.fresh(), self))
            }
        }
    }
    /// `d + e` (drops `Zero`s).
    pub fn plus(d: Delta<R>, e: Delta<R>) -> Delta<R> {
        if d.is_zero() {
            return e;
        }
        if e.is_zero() {
            return d;
        }
        let shape = d.0.shape.clone();
        Delta::mk(shape, Kind::Add(d, e))
    }
    /// `-d`.
    pub fn minus(d: Delta<R>) -> Delta<R> {
        if d.is_zero() {
            return d;
        }
        let shape = d.0.shape.clone();
        Delta::mk(shape, Kind::Neg(d))
    }
    /// `k ⊙ d`.
    pub fn scale(k: R::Factor, d: Delta<R>) -> Delta<R> {
        if d.is_zero() {
            return d;
        }
        let shape = d.0.shape.clone();
        Delta::mk(shape, Kind::Scale(k, d))
    }
    /// `d ⊘ k`.
    pub fn div_by(k: R::Factor, d: Delta<R>) -> Delta<R> {
        if d.is_zero() {
            return d;
        }
        let shape = d.0.shape.clone();
        Delta::mk(shape, Kind::DivBy(k, d))
    }
    /// `select(b, d, e)` (both of one shape); `d` itself when both branches are the
    /// same node (or both `Zero`).
    pub fn select(b: R::Cond, d: Delta<R>, e: Delta<R>) -> Delta<R> {
        if (d.is_zero() && e.is_zero()) || d.same(&e) {
            return d;
        }
        let shape = d.0.shape.clone();
        Delta::mk(shape, Kind::Select(b, d, e))
    }
    /// `d[ix]` where `ix` has `len` components.
    pub fn index(d: Delta<R>, ix: R::Ix, len: usize) -> Delta<R> {
        let shape = d.0.shape.get(len..).unwrap_or(&[]).to_vec();
        if d.is_zero() {
            return Delta::zero(shape);
        }
        Delta::mk(shape, Kind::Index(d, ix))
    }
    /// `gather` of result shape `shape`.
    pub fn gather(d: Delta<R>, map: R::Map, shape: Shape) -> Delta<R> {
        if d.is_zero() {
            return Delta::zero(shape);
        }
        Delta::mk(shape, Kind::Gather(d, map))
    }
    /// `scatter` into shape `shape`.
    pub fn scatter(d: Delta<R>, map: R::Map, shape: Shape) -> Delta<R> {
        if d.is_zero() {
            return Delta::zero(shape);
        }
        Delta::mk(shape, Kind::Scatter(d, map))
    }
    /// `sum(d)`.
    pub fn sum(d: Delta<R>) -> Delta<R> {
        if d.is_zero() {
            return Delta::zero(Vec::new());
        }
        Delta::mk(Vec::new(), Kind::Sum(d))
    }
    /// `sum_outer(d)` (rank >= 1).
    pub fn sum_outer(d: Delta<R>) -> Delta<R> {
        let shape = d.0.shape.get(1..).unwrap_or(&[]).to_vec();
        if d.is_zero() {
            return Delta::zero(shape);
        }
        Delta::mk(shape, Kind::SumOuter(d))
    }
    /// `replicate(n, d)`.
    pub fn replicate(n: usize, d: Delta<R>) -> Delta<R> {
        let mut shape = vec![n];
        shape.extend_from_slice(&d.0.shape);
        if d.is_zero() {
            return Delta::zero(shape);
        }
        Delta::mk(shape, Kind::Replicate(n, d))
    }
    /// `transpose(perm, d)`.
    pub fn transpose(perm: Vec<usize>, d: Delta<R>) -> Delta<R> {
        let shape: Shape = perm
            .iter()
            .map(|&p| d.0.shape.get(p).copied().unwrap_or(0))
            .collect();
        if d.is_zero() {
            return Delta::zero(shape);
        }
        Delta::mk(shape, Kind::Transpose(perm, d))
    }
    /// `reshape(shape, d)`.
    pub fn reshape(shape: Shape, d: Delta<R>) -> Delta<R> {
        if d.is_zero() {
            return Delta::zero(shape);
        }
        Delta::mk(shape, Kind::Reshape(d))
    }
    /// `append(d, e)`.
    pub fn append(d: Delta<R>, e: Delta<R>) -> Delta<R> {
        let mut shape = d.0.shape.clone();
        if let (Some(a), Some(b)) = (shape.first_mut(), e.0.shape.first()) {
            *a += *b;
        }
        if d.is_zero() && e.is_zero() {
            return Delta::zero(shape);
        }
        Delta::mk(shape, Kind::Append(d, e))
    }
    /// `stack(ds)` (at least one element; all of one shape).
    pub fn stack(ds: Vec<Delta<R>>) -> Delta<R> {
        let mut shape = vec![ds.len()];
        if let Some(d) = ds.first() {
            shape.extend_from_slice(&d.0.shape);
        }
        if ds.iter().all(Delta::is_zero) {
            return Delta::zero(shape);
        }
        Delta::mk(shape, Kind::Stack(ds))
    }

    /// The children of this node.
    pub fn children(&self) -> Vec<&Delta<R>> {
        match self.kind() {
            Kind::Zero | Kind::Input(_) => Vec::new(),
            Kind::Share(_, d)
            | Kind::Neg(d)
            | Kind::Scale(_, d)
            | Kind::DivBy(_, d)
            | Kind::Index(d, _)
            | Kind::Gather(d, _)
            | Kind::Scatter(d, _)
            | Kind::Sum(d)
            | Kind::SumOuter(d)
            | Kind::Replicate(_, d)
            | Kind::Transpose(_, d)
            | Kind::Reshape(d) => vec![d],
            Kind::Add(d, e) | Kind::Select(_, d, e) | Kind::Append(d, e) => vec![d, e],
            Kind::Stack(ds) => ds.iter().collect(),
        }
    }

    /// The number of nodes of the DAG: every node reachable from here, the body of each
    /// `Share` id counted once however often the id occurs.
    pub fn node_count(&self) -> usize {
        node_count_all(std::slice::from_ref(self))
    }

    /// `Share(id, d)` with a given id (for callers that translate a DAG and keep its ids).
    pub fn with_id(id: u64, d: Delta<R>) -> Delta<R> {
        let shape = d.0.shape.clone();
        Delta::mk(shape, Kind::Share(id, d))
    }

    /// The `Share` ids reachable from here, each with its node, in ascending id order.
    pub fn shares(&self) -> Vec<(u64, Delta<R>)> {
        let mut found: std::collections::BTreeMap<u64, Delta<R>> = Default::default();
        let mut stack = vec![self.clone()];
        while let Some(d) = stack.pop() {
            if let Kind::Share(id, _) = d.kind() {
                if found.contains_key(id) {
                    continue;
                }
                found.insert(*id, d.clone());
            }
            stack.extend(d.children().into_iter().cloned());
        }
        found.into_iter().collect()
    }

    /// Whether `self` and `other` are the same node (pointer equality).
    pub fn same(&self, other: &Delta<R>) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The number of nodes of the DAG reachable from any of `roots`, the body of each
/// `Share` id counted once.
pub fn node_count_all<R: Rep>(roots: &[Delta<R>]) -> usize {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut count = 0usize;
    let mut stack: Vec<&Delta<R>> = roots.iter().collect();
    while let Some(d) = stack.pop() {
        if let Kind::Share(id, _) = d.kind() {
            if !seen.insert(*id) {
                continue;
            }
        }
        count += 1;
        stack.extend(d.children());
    }
    count
}

/// The constructor's name as printed (`Add`, `Scale`, ...).
pub fn kind_name<R: Rep>(k: &Kind<R>) -> &'static str {
    match k {
        Kind::Zero => "Zero",
        Kind::Input(_) => "Input",
        Kind::Share(..) => "Share",
        Kind::Add(..) => "Add",
        Kind::Neg(_) => "Neg",
        Kind::Scale(..) => "Scale",
        Kind::DivBy(..) => "DivBy",
        Kind::Select(..) => "Select",
        Kind::Index(..) => "Index",
        Kind::Gather(..) => "Gather",
        Kind::Scatter(..) => "Scatter",
        Kind::Sum(_) => "Sum",
        Kind::SumOuter(_) => "SumOuter",
        Kind::Replicate(..) => "Replicate",
        Kind::Transpose(..) => "Transpose",
        Kind::Reshape(_) => "Reshape",
        Kind::Append(..) => "Append",
        Kind::Stack(_) => "Stack",
    }
}

/// The inverse of a permutation (`inv[perm[k]] = k`).
pub fn inverse_perm(perm: &[usize]) -> Vec<usize> {
    let mut inv = vec![0; perm.len()];
    for (k, &p) in perm.iter().enumerate() {
        if let Some(slot) = inv.get_mut(p) {
            *slot = k;
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Payloads that print as themselves (for tests).
    struct T;
    impl Rep for T {
        type Factor = i32;
        type Cond = bool;
        type Ix = Vec<i64>;
        type Map = ();
        fn factor_text(k: &i32) -> String {
            k.to_string()
        }
        fn cond_text(c: &bool) -> String {
            c.to_string()
        }
        fn ix_text(ix: &Vec<i64>) -> String {
            format!("{ix:?}")
        }
        fn map_text(_: &()) -> String {
            "f".into()
        }
    }

    #[test]
    fn smart_constructors_drop_zeros_and_keep_shapes() {
        let x: Delta<T> = Delta::input(0, vec![3, 2]);
        let z = Delta::zero(vec![3, 2]);
        assert!(Delta::plus(z.clone(), x.clone()).same(&x));
        assert!(Delta::scale(2, z.clone()).is_zero());
        assert!(Delta::select(true, x.clone(), x.clone()).same(&x));
        assert_eq!(Delta::index(z.clone(), vec![1], 1).shape(), &[2]);
        assert_eq!(Delta::transpose(vec![1, 0], x.clone()).shape(), &[2, 3]);
        assert_eq!(Delta::replicate(4, x.clone()).shape(), &[4, 3, 2]);
        assert_eq!(Delta::sum_outer(x.clone()).shape(), &[2]);
        assert_eq!(Delta::append(x.clone(), x.clone()).shape(), &[6, 2]);
        assert_eq!(Delta::stack(vec![x.clone(), z.clone()]).shape(), &[2, 3, 2]);
        assert!(Delta::stack(vec![z.clone(), z]).is_zero());
        assert_eq!(inverse_perm(&[2, 0, 1]), vec![1, 2, 0]);
    }

    #[test]
    fn shares_get_increasing_ids_and_count_once() {
        let mut ids = Ids::new();
        let x: Delta<T> = Delta::input(0, vec![2]);
        assert!(x.clone().share(&mut ids).same(&x), "inputs are not shared");
        let a = Delta::scale(3, x.clone()).share(&mut ids);
        let b = Delta::plus(a.clone(), Delta::minus(a.clone())).share(&mut ids);
        let (Kind::Share(ia, _), Kind::Share(ib, _)) = (a.kind(), b.kind()) else {
            panic!("not shared");
        };
        assert!(ia < ib);
        assert!(
            b.clone().share(&mut ids).same(&b),
            "a share is not shared again"
        );
        // b = Share(Add(a, Neg(a))), a = Share(Scale(x)): b, Add, Neg, a, Scale, x
        assert_eq!(b.node_count(), 6);
        assert_eq!(b.shares().len(), 2);
        let text = crate::dual::print::render(&b, &|i| format!("x{i}"));
        assert_eq!(
            text,
            "#1 : R[2] = Scale(3, Input x0)\n#2 : R[2] = Add(#1, Neg(#1))\nroot : R[2] = #2\n"
        );
    }
}
