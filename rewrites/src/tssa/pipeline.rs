//! The pipeline of engine `tssa` (docs/engines/tssa.md): lower the core program to the
//! tensor language, let-lift (§5.1), eliminate pairs (§5.2), push `gen` out (§5.3),
//! convert to Tensor SSA (§5.4), differentiate there (§6: [`super::deriv`]) and raise the
//! result back to a core program. Every stage is observable: [`run`] returns all of them
//! and [`text`] prints one (`adora show --engine tssa --stage S`).

use super::deriv::{adjoint, forward, tangent_ty};
use super::egg::{genpush, letlift, pairelim};
use super::lower::{lower, Lowered};
use super::ssa::to_ssa;
use adora_core::ast::Function;
use adora_core::diag::Result;
use adora_core::tl::{Rat, SsaProgram, Term, Var};
use adora_semantics::scalar::Scalar;
use adora_semantics::tl::TlValue;
use adora_semantics::value::Value;

/// The stages `adora show --engine tssa --stage S` prints, with what each is.
pub const STAGES: [(&str, &str); 5] = [
    (
        "tl",
        "engine tssa: the program lowered to the tensor language (seed 001 §3)",
    ),
    (
        "letlift",
        "engine tssa: after let-lifting (seed 001 §5.1, rules 5.1-5.10)",
    ),
    (
        "pairelim",
        "engine tssa: after pair elimination (seed 001 §5.2, rules 5.11-5.20)",
    ),
    (
        "genpush",
        "engine tssa: after gen push-out (seed 001 §5.3, rules 5.21-5.24)",
    ),
    (
        "ssa",
        "engine tssa: in Tensor-SSA form (seed 001 §5.4, Fig. 10)",
    ),
];

/// Every stage of the pipeline up to Tensor SSA.
#[derive(Clone, Debug)]
pub struct Stages {
    /// The lowered program (`tl`).
    pub lowered: Lowered,
    /// After let-lifting.
    pub letlift: Term,
    /// After pair elimination.
    pub pairelim: Term,
    /// After gen push-out.
    pub genpush: Term,
    /// In Tensor-SSA form.
    pub ssa: SsaProgram,
}

/// Runs the pipeline up to Tensor SSA.
pub fn run(f: &Function) -> Result<Stages> {
    let lowered = lower(f)?;
    let ll = letlift(&lowered.term)?;
    let pe = pairelim(&ll, &lowered.inputs)?;
    let gp = genpush(&pe, &lowered.inputs)?;
    let ssa = to_ssa(&gp, &lowered.inputs)?;
    Ok(Stages {
        lowered,
        letlift: ll,
        pairelim: pe,
        genpush: gp,
        ssa,
    })
}

/// The text of stage `stage` (one of [`STAGES`]; `None`: not a stage of this pipeline).
pub fn text(f: &Function, stage: &str) -> Option<Result<String>> {
    if !STAGES.iter().any(|(n, _)| *n == stage) {
        return None;
    }
    Some(run(f).map(|s| match stage {
        "tl" => s.lowered.term.to_string(),
        "letlift" => s.letlift.to_string(),
        "pairelim" => s.pairelim.to_string(),
        "genpush" => s.genpush.to_string(),
        _ => s.ssa.to_string(),
    }))
}

/// The inputs of `p` with real components: the ones the engine differentiates.
pub fn wrt(p: &SsaProgram) -> Vec<Var> {
    p.inputs
        .iter()
        .filter(|(_, t)| tangent_ty(t).is_some())
        .map(|(x, _)| x.clone())
        .collect()
}

/// A core value as a tensor-language value: arrays nest, tuples become right-nested
/// pairs (`(a, b, c)` is `(a, (b, c))`).
pub fn to_tl<S: Scalar>(v: &Value<S>) -> TlValue<S> {
    fn nest<T: Clone, S>(
        shape: &[usize],
        data: &[T],
        leaf: &impl Fn(&T) -> TlValue<S>,
    ) -> TlValue<S> {
        match shape.split_first() {
            None => leaf(&data[0]),
            Some((&n, rest)) => {
                let step = rest.iter().product::<usize>();
                TlValue::Arr(
                    (0..n)
                        .map(|k| nest(rest, &data[k * step..(k + 1) * step], leaf))
                        .collect(),
                )
            }
        }
    }
    match v {
        Value::Real(t) => nest(&t.shape, &t.data, &|x: &S| TlValue::Num(x.clone())),
        Value::Int(t) => nest(&t.shape, &t.data, &|x: &i64| TlValue::Int(*x)),
        Value::Bool(t) => nest(&t.shape, &t.data, &|x: &bool| TlValue::Bool(*x)),
        Value::Tuple(vs) => vs
            .iter()
            .rev()
            .map(to_tl)
            .reduce(|acc, x| TlValue::Pair(Box::new(x), Box::new(acc)))
            .unwrap_or(TlValue::Arr(Vec::new())),
    }
}

/// The costs `C` (seed 001 §4.3) of the primal in Tensor SSA and of its derivatives at
/// given inputs: `adora cost --engine tssa`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TssaCosts {
    /// `C(e)`.
    pub primal: u64,
    /// `C(D⟦e⟧)` at tangents of ones.
    pub jvp: u64,
    /// `C(R⟦e⟧)` at the cotangent of ones.
    pub vjp: u64,
    /// `|X|`: real scalars of the differentiated inputs.
    pub x: u64,
    /// `|Y|`: real scalars of the output.
    pub y: u64,
}

/// The ones of a tangent type.
fn ones(ty: &adora_core::tl::Ty) -> TlValue<Rat> {
    use adora_core::tl::Ty;
    match ty {
        Ty::Num => TlValue::Num(Rat::from_integer(1.into())),
        Ty::Pair(a, b) => TlValue::Pair(Box::new(ones(a)), Box::new(ones(b))),
        Ty::Arr(n, t) => TlValue::Arr((0..*n).map(|_| ones(t)).collect()),
        Ty::Bool => TlValue::Bool(false),
        Ty::Int => TlValue::Int(0),
    }
}

/// [`TssaCosts`] of `f` at `inputs`.
pub fn costs(f: &Function, inputs: &[Value<Rat>]) -> Result<TssaCosts> {
    use adora_costmodel::tl::{cost_c_ssa, type_size};
    let s = run(f)?;
    let p = &s.ssa;
    let xs: Vec<TlValue<Rat>> = inputs.iter().map(to_tl).collect();
    let w = wrt(p);
    let fwd = forward::derive(p, &w)?;
    let dxs: Vec<TlValue<Rat>> = fwd.tangent_inputs.iter().map(|(_, _, t)| ones(t)).collect();
    let jargs: Vec<_> = xs.iter().chain(&dxs).cloned().collect();
    let jvp = cost_c_ssa(&fwd.program(), &jargs)?;
    let r = adjoint::vjp(p, &w)?;
    let cot_ty = r
        .inputs
        .last()
        .map(|(_, t)| t.clone())
        .unwrap_or(adora_core::tl::Ty::Num);
    let rargs: Vec<_> = xs.iter().cloned().chain([ones(&cot_ty)]).collect();
    Ok(TssaCosts {
        primal: cost_c_ssa(p, &xs)?,
        jvp,
        vjp: cost_c_ssa(&r, &rargs)?,
        x: fwd
            .tangent_inputs
            .iter()
            .map(|(_, _, t)| type_size(t))
            .sum(),
        y: type_size(&cot_ty),
    })
}
