//! Engine `tssa`'s lowering, Tensor-SSA conversion and raising (docs/engines/tssa-lowering.md;
//! the claims S001-X4.1b, S001-X4.1c, S001-X5.4a–c of specs/theorems.md):
//!
//! * `tssa/lowering-preserves-semantics`: on generated scalar and bulk programs, the
//!   lowered term is well typed (at the TL type of the result) and the TL evaluator gives
//!   exactly the core evaluator's value (programs outside the fragment are vacuous);
//! * `tssa/raise-preserves-semantics`: a Tensor-SSA program raised to core passes the
//!   core checker and evaluates to the TL value exactly;
//! * `tssa/ssa-normal-form`, `tssa/ssa-preserves-semantics`, `tssa/ssa-ops-neutral`: on
//!   generated GP-NF terms ([`gpnf`]), the conversion gives the normal form (CSE on and
//!   off), the same value, and the same cost `C` with CSE off (`≤` with CSE on).

pub mod gpnf;

use super::util::{exact, load, Eval};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::tl_ssa::{ssa_case, SsaGenOptions};
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use adora_core::diag::ErrorKind;
use adora_core::tl::{Rat, SsaProgram, Ty};
use adora_core::types::Type;
use adora_rewrites::tssa::lower::{lower_with_rows, ty_of};
use adora_rewrites::tssa::raise::{core_type, raise};
use adora_rewrites::tssa::ssa::{check_normal_form, to_ssa_with, SsaOptions};
use adora_semantics::tl::{eval_ssa, eval_term, TlEnv, TlValue};
use adora_semantics::value::{Tensor, Value};
use gpnf::{gpnf_case, GpnfCase};
use rand::SeedableRng;

/// A core value as a TL value (tuples as right-nested pairs, arrays nested).
pub fn to_tl(v: &Value<Rat>) -> TlValue<Rat> {
    fn nest<T: Clone>(
        shape: &[usize],
        data: &[T],
        leaf: &impl Fn(&T) -> TlValue<Rat>,
    ) -> TlValue<Rat> {
        match shape.split_first() {
            None => leaf(&data[0]),
            Some((&n, rest)) => {
                let step: usize = rest.iter().product();
                TlValue::Arr(
                    (0..n)
                        .map(|k| nest(rest, &data[k * step..(k + 1) * step], leaf))
                        .collect(),
                )
            }
        }
    }
    match v {
        Value::Real(t) => nest(&t.shape, &t.data, &|x: &Rat| TlValue::Num(x.clone())),
        Value::Int(t) => nest(&t.shape, &t.data, &|x: &i64| TlValue::Int(*x)),
        Value::Bool(t) => nest(&t.shape, &t.data, &|x: &bool| TlValue::Bool(*x)),
        Value::Tuple(vs) => {
            let mut parts: Vec<TlValue<Rat>> = vs.iter().map(to_tl).collect();
            let last = parts.pop().expect("tuples are not empty");
            parts
                .into_iter()
                .rev()
                .fold(last, |b, a| TlValue::Pair(Box::new(a), Box::new(b)))
        }
    }
}

fn flatten(v: &TlValue<Rat>, out: &mut Vec<TlValue<Rat>>) {
    match v {
        TlValue::Arr(vs) => vs.iter().for_each(|x| flatten(x, out)),
        x => out.push(x.clone()),
    }
}

/// A TL value of type `t` as a core value of type `core_type(t)`.
pub fn to_core(v: &TlValue<Rat>, t: &Ty) -> Option<Value<Rat>> {
    if let (TlValue::Pair(a, b), Ty::Pair(ta, tb)) = (v, t) {
        return Some(Value::Tuple(vec![to_core(a, ta)?, to_core(b, tb)?]));
    }
    let Type::Array(_, shape) = core_type(t) else {
        return None;
    };
    let mut leaves = Vec::new();
    flatten(v, &mut leaves);
    let mut el = t;
    while let Ty::Arr(_, e) = el {
        el = e;
    }
    Some(match el {
        Ty::Num => Value::Real(Tensor::new(
            shape,
            leaves
                .iter()
                .map(|x| x.as_num().cloned())
                .collect::<Option<_>>()?,
        )?),
        Ty::Int => Value::Int(Tensor::new(
            shape,
            leaves
                .iter()
                .map(|x| match x {
                    TlValue::Int(k) => Some(*k),
                    _ => None,
                })
                .collect::<Option<_>>()?,
        )?),
        Ty::Bool => Value::Bool(Tensor::new(
            shape,
            leaves
                .iter()
                .map(|x| match x {
                    TlValue::Bool(b) => Some(*b),
                    _ => None,
                })
                .collect::<Option<_>>()?,
        )?),
        _ => return None,
    })
}

fn lowering(case: &Case) -> Outcome {
    let f = load(case)?;
    let (l, rows) = match lower_with_rows(&f) {
        Ok(x) => x,
        Err(d) if d.kind == ErrorKind::Unsupported => return Pass::vacuous(),
        Err(d) => return Err(format!("lowering fails: {d}")),
    };
    let show = || format!("lowered term:\n{}", l.term);
    let want_ty = ty_of(&f.ret).ok_or("the result type has no TL type")?;
    let ty = adora_core::tl::type_of(&l.term, &l.inputs)
        .map_err(|d| format!("the lowered term is ill-typed: {d}\n{}", show()))?;
    if ty != want_ty {
        return Err(format!(
            "the lowered term has type {ty:?}, not {want_ty:?}\n{}",
            show()
        ));
    }
    let core = match exact(&f, &case.inputs)? {
        Eval::Value(v, _) => v,
        Eval::Resource(_) => return Pass::vacuous(),
    };
    let values: Vec<TlValue<Rat>> = case.inputs.iter().map(to_tl).collect();
    let env = TlEnv::from_inputs(&l.inputs, &values);
    let got =
        eval_term(&l.term, &env).map_err(|d| format!("TL evaluation fails: {d}\n{}", show()))?;
    if got != to_tl(&core) {
        return Err(format!(
            "the lowered term gives {got} but the core evaluator {core:?}\n{}",
            show()
        ));
    }
    Pass::figure(rows.len() as f64)
}

/// The GP-NF case of the dimensions drawn for a `Dims` property.
fn case_of(d: &[usize]) -> (u64, GpnfCase) {
    let seed = d.iter().fold(0u64, |s, &x| {
        s.wrapping_mul(1_000_003).wrapping_add(x as u64)
    });
    (seed, gpnf_case(seed))
}

fn convert(c: &GpnfCase, cse: bool, seed: u64) -> Result<SsaProgram, String> {
    to_ssa_with(&c.term, &c.inputs, SsaOptions { cse })
        .map_err(|d| format!("seed {seed}: the conversion fails: {d}\nterm:\n{}", c.term))
}

fn ssa_normal_form(d: &[usize]) -> Outcome {
    let (seed, c) = case_of(d);
    for cse in [false, true] {
        let p = convert(&c, cse, seed)?;
        check_normal_form(&p, cse).map_err(|e| {
            format!(
                "seed {seed}, CSE {cse}: not in normal form: {e}\nterm:\n{}\nSSA:\n{p}",
                c.term
            )
        })?;
    }
    Pass::ok()
}

fn ssa_semantics(d: &[usize]) -> Outcome {
    let (seed, c) = case_of(d);
    let env = TlEnv::from_inputs(&c.inputs, &c.values);
    let want = eval_term(&c.term, &env)
        .map_err(|e| format!("seed {seed}: the term fails: {e}\n{}", c.term))?;
    for cse in [false, true] {
        let p = convert(&c, cse, seed)?;
        let got = eval_ssa(&p, &c.values)
            .map_err(|e| format!("seed {seed}: SSA evaluation fails: {e}\n{p}"))?;
        if got != want {
            return Err(format!(
                "seed {seed}, CSE {cse}: SSA gives {got}, the term {want}\nterm:\n{}\nSSA:\n{p}",
                c.term
            ));
        }
    }
    Pass::ok()
}

fn ssa_cost(d: &[usize]) -> Outcome {
    let (seed, c) = case_of(d);
    let env = TlEnv::from_inputs(&c.inputs, &c.values);
    let before =
        adora_costmodel::tl::cost_c(&c.term, &env).map_err(|e| format!("seed {seed}: {e}"))?;
    let off = convert(&c, false, seed)?;
    let on = convert(&c, true, seed)?;
    let c_off = adora_costmodel::tl::cost_c_ssa(&off, &c.values)
        .map_err(|e| format!("seed {seed}: {e}"))?;
    let c_on =
        adora_costmodel::tl::cost_c_ssa(&on, &c.values).map_err(|e| format!("seed {seed}: {e}"))?;
    if c_off != before || c_on > before {
        return Err(format!(
            "seed {seed}: C(term) = {before}, C(ssa, CSE off) = {c_off}, C(ssa, CSE on) = {c_on}\nterm:\n{}\nSSA (CSE off):\n{off}",
            c.term
        ));
    }
    Pass::figure(before as f64)
}

fn raising(d: &[usize]) -> Outcome {
    let (seed, c) = case_of(d);
    // Even seeds: a G3 program; odd seeds: the conversion of a GP-NF term.
    let (p, values) = if seed % 2 == 0 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let g = ssa_case(&mut rng, &SsaGenOptions::default());
        (g.program, g.values)
    } else {
        (convert(&c, true, seed)?, c.values.clone())
    };
    let c = GpnfCase { values, ..c };
    let f = raise(&p, "main").map_err(|e| format!("seed {seed}: raising fails: {e}\n{p}"))?;
    let want = eval_ssa(&p, &c.values).map_err(|e| format!("seed {seed}: {e}"))?;
    let inputs: Vec<Value<Rat>> = c
        .values
        .iter()
        .zip(&p.inputs)
        .map(|(v, (_, t))| to_core(v, t).ok_or("an input has no core value"))
        .collect::<Result<_, _>>()?;
    let got = match exact(&f, &inputs)? {
        Eval::Value(v, _) => v,
        Eval::Resource(_) => return Pass::vacuous(),
    };
    if to_tl(&got) != want {
        return Err(format!(
            "seed {seed}: the raised function gives {got:?}, the SSA program {want}\nSSA:\n{p}\nraised:\n{}",
            adora_core::pretty::function(&f)
        ));
    }
    Pass::ok()
}

fn dims(
    name: &'static str,
    source: &'static str,
    description: &'static str,
    figure: Option<Figure>,
    check: fn(&[usize]) -> Outcome,
) -> Property {
    Property {
        name,
        source,
        fragment: "tl",
        description,
        figure,
        check: Check::Dims {
            count: 2,
            max: 1_000_000,
            check,
        },
    }
}

/// The properties of the lowering, the Tensor-SSA conversion and the raising.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "tssa/lowering-preserves-semantics",
            source: "S001-X4.1b (Adora: docs/engines/tssa-lowering.md, construct table)",
            fragment: "scalar, bulk",
            description: "the lowered term of a scalar or bulk program is well typed at its result's TL \
                          type and evaluates exactly to the core value (outside the fragment: vacuous; the \
                          figure: the most construct-table rows fired by one case)",
            figure: Some(Figure {
                label: "max rows fired",
                agg: Agg::Max,
            }),
            check: Check::Case {
                strategy: || CaseStrategy {
                    specs: [Fragment::Scalar, Fragment::Bulk]
                        .iter()
                        .map(|f| GenSpec::new(*f).size(30).ret(RetKind::Real))
                        .collect(),
                },
                check: lowering,
            },
        },
        dims(
            "tssa/raise-preserves-semantics",
            "S001-X4.1c (Adora: docs/engines/tssa-lowering.md, raising)",
            "a Tensor-SSA program (G3, or the conversion of a generated GP-NF term) raised to core passes \
             the core checker and evaluates exactly to the program's TL value",
            None,
            raising,
        ),
        dims(
            "tssa/ssa-normal-form",
            "S001-X5.4a (Bernstein et al. 2020, §5.4, Fig. 10)",
            "the conversion of a generated GP-NF term is in Tensor-SSA normal form: forms, definition before \
             use, canonical order and index names, and with CSE no repeated right-hand side",
            None,
            ssa_normal_form,
        ),
        dims(
            "tssa/ssa-preserves-semantics",
            "S001-X5.4b (Bernstein et al. 2020, §5.4, rules 5.25-5.34)",
            "the Tensor-SSA program of a generated GP-NF term evaluates exactly to the term's value, with CSE \
             on and off (black-box arguments predicated too)",
            None,
            ssa_semantics,
        ),
        dims(
            "tssa/ssa-ops-neutral",
            "S001-X5.4c (Bernstein et al. 2020, §5.4: the conversion is cost-neutral)",
            "C(ssa(e)) = C(e) with CSE off and C(ssa(e)) <= C(e) with CSE on, exactly (the figure: the largest \
             C(e))",
            Some(Figure {
                label: "max C",
                agg: Agg::Max,
            }),
            ssa_cost,
        ),
    ]
}
