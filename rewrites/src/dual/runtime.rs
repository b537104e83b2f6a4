//! The runtime instances of the Delta evaluators (seed 000 §6.4): the reverse pass on
//! concrete cotangent arrays (Fig. 17), and the forward evaluation of a Delta on
//! concrete tangents (`eval` of §2.3, horde-ad's `derivativeFromDelta`), which answers
//! JVPs and checks the adjoint law `<dy, J dx> = <J^T dy, dx>`.

use super::delta::Kind;
use super::reverse::{Reverse, Target};
use super::value::{RDelta, Runtime, Table};
use adora_semantics::kernels::tensor::{self, filled, map_with, zip_with};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Tensor;
use std::collections::HashMap;
use std::convert::Infallible;
use std::rc::Rc;

/// Cotangents are concrete arrays.
pub struct Concrete;

fn add<S: Scalar>(a: &Tensor<S>, b: &Tensor<S>) -> Tensor<S> {
    let mut out = a.clone();
    for (x, y) in out.data.iter_mut().zip(&b.data) {
        x.add_assign(y);
    }
    out
}

fn mul<S: Scalar>(k: &Tensor<S>, c: &Tensor<S>) -> Tensor<S> {
    let r: Result<_, Infallible> = zip_with(k, c, |a, b| Ok(a.mul(b)));
    r.unwrap_or_else(|e| match e {})
}

fn div<S: Scalar>(c: &Tensor<S>, k: &Tensor<S>) -> Tensor<S> {
    let r: Result<_, Infallible> = zip_with(c, k, |a, b| {
        Ok(a.checked_div(b).unwrap_or_else(|| a.div_by_zero(b)))
    });
    r.unwrap_or_else(|e| match e {})
}

fn neg<S: Scalar>(c: &Tensor<S>) -> Tensor<S> {
    let r: Result<_, Infallible> = map_with(c, |a| Ok(a.neg()));
    r.unwrap_or_else(|e| match e {})
}

fn mask<S: Scalar>(b: &Tensor<bool>, c: &Tensor<S>, then_branch: bool) -> Tensor<S> {
    let zero = filled(&c.shape, S::zero());
    if then_branch {
        tensor::select(b, c, &zero)
    } else {
        tensor::select(b, &zero, c)
    }
}

fn sum_outer<S: Scalar>(c: &Tensor<S>) -> Tensor<S> {
    let n = c.shape.first().copied().unwrap_or(0);
    let inner = c.shape.get(1..).unwrap_or(&[]).to_vec();
    let m = tensor::volume(&inner);
    let mut acc: Vec<S> = if n == 0 {
        vec![S::zero(); m]
    } else {
        c.data[..m].to_vec()
    };
    for row in 1..n {
        for (k, v) in acc.iter_mut().enumerate() {
            v.add_assign(&c.data[row * m + k]);
        }
    }
    Tensor {
        shape: inner,
        data: acc,
    }
}

fn scatter_table<S: Scalar>(c: &Tensor<S>, shape: &[usize], t: &Table) -> Tensor<S> {
    let r: Result<_, Infallible> =
        tensor::scatter_rows(c, shape, t.prefix, &t.targets, &S::zero(), |a, b| {
            a.add_assign(b);
            Ok(())
        });
    r.unwrap_or_else(|e| match e {})
}

impl<S: Scalar> Target<Runtime<S>> for Concrete {
    type Ct = Rc<Tensor<S>>;
    fn dup(&mut self, c: Self::Ct) -> Self::Ct {
        c
    }
    fn add(&mut self, a: Self::Ct, b: Self::Ct) -> Self::Ct {
        let mut a = a;
        let inner = Rc::make_mut(&mut a);
        for (x, y) in inner.data.iter_mut().zip(&b.data) {
            x.add_assign(y);
        }
        a
    }
    fn neg(&mut self, c: Self::Ct) -> Self::Ct {
        Rc::new(neg(&c))
    }
    fn scale(&mut self, k: &Rc<Tensor<S>>, c: Self::Ct) -> Self::Ct {
        Rc::new(mul(k, &c))
    }
    fn div_by(&mut self, k: &Rc<Tensor<S>>, c: Self::Ct) -> Self::Ct {
        Rc::new(div(&c, k))
    }
    fn select(
        &mut self,
        b: &Rc<Tensor<bool>>,
        c: Self::Ct,
        then_branch: bool,
        _shape: &[usize],
    ) -> Self::Ct {
        Rc::new(mask(b, &c, then_branch))
    }
    fn one_hot(&mut self, shape: &[usize], ix: &Vec<i64>, c: Self::Ct) -> Self::Ct {
        Rc::new(tensor::one_hot(shape, ix, &c, &S::zero()))
    }
    fn scatter(&mut self, src_shape: &[usize], map: &Rc<Table>, c: Self::Ct) -> Self::Ct {
        Rc::new(scatter_table(&c, src_shape, map))
    }
    fn gather(
        &mut self,
        _src_shape: &[usize],
        _out_shape: &[usize],
        map: &Rc<Table>,
        c: Self::Ct,
    ) -> Self::Ct {
        Rc::new(tensor::gather_rows(
            &c,
            map.prefix,
            &map.space,
            &map.targets,
            &S::zero(),
        ))
    }
    fn replicate(&mut self, n: usize, c: Self::Ct) -> Self::Ct {
        Rc::new(tensor::replicate(n, &c))
    }
    fn replicate_all(&mut self, shape: &[usize], c: Self::Ct) -> Self::Ct {
        let x = c.data.first().cloned().unwrap_or_else(S::zero);
        Rc::new(filled(shape, x))
    }
    fn sum_outer(&mut self, c: Self::Ct, _shape: &[usize]) -> Self::Ct {
        Rc::new(sum_outer(&c))
    }
    fn transpose(&mut self, perm: &[usize], c: Self::Ct) -> Self::Ct {
        Rc::new(tensor::transpose(&c, perm))
    }
    fn reshape(&mut self, shape: &[usize], c: Self::Ct) -> Self::Ct {
        Rc::new(tensor::reshape(&c, shape))
    }
    fn slice(&mut self, c: Self::Ct, start: usize, len: usize, _shape: &[usize]) -> Self::Ct {
        Rc::new(tensor::slice_outer(&c, start, len))
    }
    fn index_outer(&mut self, c: Self::Ct, k: usize, _shape: &[usize]) -> Self::Ct {
        Rc::new(tensor::read_prefix(&c, &[k as i64], &S::zero()))
    }
}

/// What one runtime reverse pass produced.
pub struct Backprop<S> {
    /// The gradient of every input leaf (`None`: zero).
    pub grads: Vec<Option<Tensor<S>>>,
    /// One-hot arrays created (one per `Index` node transposed).
    pub one_hots: usize,
    /// `Share` fragments processed.
    pub shares: usize,
    /// What the pass did (visits, processing order, one-hot volume), for the properties.
    pub trace: super::reverse::Trace,
}

/// The runtime reverse pass (`gradientFromDelta` of Fig. 5 / Fig. 17): backpropagates
/// each root's cotangent into the `inputs` input leaves.
pub fn backprop<S: Scalar>(roots: Vec<(RDelta<S>, Tensor<S>)>, inputs: usize) -> Backprop<S> {
    let roots = roots.into_iter().map(|(d, c)| (d, Rc::new(c))).collect();
    let (grads, st) = Reverse::<Runtime<S>, Concrete>::new(inputs).run(&mut Concrete, roots);
    Backprop {
        grads: grads
            .into_iter()
            .map(|g| g.map(|t| Rc::try_unwrap(t).unwrap_or_else(|rc| (*rc).clone())))
            .collect(),
        one_hots: st.one_hots,
        shares: st.shares_processed,
        trace: st.trace,
    }
}

/// The forward evaluation of a runtime Delta (the tangent it denotes) for the given
/// input tangents (`None`: zero), each `Share` evaluated once.
pub fn tangent<S: Scalar>(d: &RDelta<S>, inputs: &[Option<Tensor<S>>]) -> Tensor<S> {
    let mut memo: HashMap<u64, Rc<Tensor<S>>> = HashMap::new();
    (*fwd(d, inputs, &mut memo)).clone()
}

fn fwd<S: Scalar>(
    d: &RDelta<S>,
    inputs: &[Option<Tensor<S>>],
    memo: &mut HashMap<u64, Rc<Tensor<S>>>,
) -> Rc<Tensor<S>> {
    let zero = || Rc::new(filled(d.shape(), S::zero()));
    let t = match d.kind() {
        Kind::Zero => return zero(),
        Kind::Input(i) => match inputs.get(*i).and_then(|t| t.as_ref()) {
            Some(t) => return Rc::new(t.clone()),
            None => return zero(),
        },
        Kind::Share(id, body) => {
            if let Some(t) = memo.get(id) {
                return t.clone();
            }
            let t = fwd(body, inputs, memo);
            memo.insert(*id, t.clone());
            return t;
        }
        Kind::Add(a, b) => add(&fwd(a, inputs, memo), &fwd(b, inputs, memo)),
        Kind::Neg(a) => neg(&fwd(a, inputs, memo)),
        Kind::Scale(k, a) => mul(k, &fwd(a, inputs, memo)),
        Kind::DivBy(k, a) => div(&fwd(a, inputs, memo), k),
        Kind::Select(b, x, y) => tensor::select(b, &fwd(x, inputs, memo), &fwd(y, inputs, memo)),
        Kind::Index(a, ix) => tensor::read_prefix(&fwd(a, inputs, memo), ix, &S::zero()),
        Kind::Gather(a, m) => tensor::gather_rows(
            &fwd(a, inputs, memo),
            m.prefix,
            &m.space,
            &m.targets,
            &S::zero(),
        ),
        Kind::Scatter(a, m) => scatter_table(&fwd(a, inputs, memo), d.shape(), m),
        Kind::Sum(a) => {
            let t = fwd(a, inputs, memo);
            let mut acc = t.data.first().cloned().unwrap_or_else(S::zero);
            for x in t.data.iter().skip(1) {
                acc.add_assign(x);
            }
            Tensor::scalar(acc)
        }
        Kind::SumOuter(a) => sum_outer(&fwd(a, inputs, memo)),
        Kind::Replicate(n, a) => tensor::replicate(*n, &fwd(a, inputs, memo)),
        Kind::Transpose(p, a) => tensor::transpose(&fwd(a, inputs, memo), p),
        Kind::Reshape(a) => tensor::reshape(&fwd(a, inputs, memo), d.shape()),
        Kind::Append(a, b) => tensor::append(&fwd(a, inputs, memo), &fwd(b, inputs, memo)),
        Kind::Stack(ds) => {
            let ts: Vec<Rc<Tensor<S>>> = ds.iter().map(|x| fwd(x, inputs, memo)).collect();
            let refs: Vec<&Tensor<S>> = ts.iter().map(|t| &**t).collect();
            tensor::stack(&refs)
        }
    };
    Rc::new(t)
}
