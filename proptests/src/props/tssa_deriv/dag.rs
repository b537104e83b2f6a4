//! S001-X2.2a and X2.2b on constructed programs: the adjoint dualities (dead code and
//! zero, fan-out and sum) on sized families, and the addition count of reversed linear
//! scalar DAGs (G4).

use super::support::rng_of;
use crate::catalogue::{Outcome, Pass};
use adora_core::tl::{Access, ConstVal, Pred, Rat, Rhs, SsaOut, SsaProgram, Stmt, Ty, Var};
use adora_costmodel::tl::cost_c_ssa;
use adora_rewrites::tssa::deriv::adjoint::reverse;
use adora_rewrites::tssa::deriv::forward::derive;
use adora_rewrites::tssa::deriv::{tensor_ty, vjp};
use adora_semantics::tl::{eval_ssa, TlValue};
use rand::Rng;

fn stmt(var: &str, ty: Ty, rhs: Rhs) -> Stmt {
    Stmt {
        var: var.into(),
        ty,
        rhs,
    }
}

fn input(var: &str, x: &str, ty: Ty) -> Stmt {
    stmt(
        var,
        ty,
        Rhs::Input {
            input: x.into(),
            path: vec![],
        },
    )
}

fn acc(v: &str, idx: &[&str]) -> Access {
    Access {
        var: v.into(),
        idx: idx.iter().map(|s| s.to_string()).collect(),
    }
}

fn num(k: i64) -> Rat {
    Rat::from_integer(k.into())
}

fn arr(xs: Vec<Rat>) -> TlValue<Rat> {
    TlValue::Arr(xs.into_iter().map(TlValue::Num).collect())
}

/// S001-X2.2a at size `n`: (1) `sum i. x[i]` with an unused input `y` and a constant
/// second output: the adjoint of the sum is the fan-out `gen i. w` (cost 0), the
/// adjoint of the dead input is zero, the constant output's cotangent is dead — `C(R) =
/// 0`; (2) the fan-out `gen i. x` of a scalar: its adjoint is the sum `sum i. w[i]`,
/// `C(R) = n − 1`.
pub fn duality(d: &[usize]) -> Outcome {
    let n = (d[0] % 6) as u64;
    let vec_n = tensor_ty(&[n]);
    let mut rng = rng_of(d);
    let xs: Vec<Rat> = (0..n).map(|_| num(rng.gen_range(-5..=5))).collect();
    let w = num(rng.gen_range(-5..=5));
    // (1)
    let p = SsaProgram {
        inputs: vec![("x".into(), vec_n.clone()), ("y".into(), vec_n.clone())],
        stmts: vec![
            input("a", "x", vec_n.clone()),
            input("b", "y", vec_n.clone()),
            stmt(
                "s",
                Ty::Num,
                Rhs::Contract {
                    dims: vec![],
                    sums: vec![("i".into(), n)],
                    pred: Pred::True,
                    y: acc("a", &["i"]),
                    z: None,
                },
            ),
            stmt(
                "c",
                vec_n.clone(),
                Rhs::Const {
                    dims: vec![("i".into(), n)],
                    pred: Pred::True,
                    value: ConstVal::Num(num(3)),
                },
            ),
        ],
        output: SsaOut::Pair(
            Box::new(SsaOut::Var("s".into())),
            Box::new(SsaOut::Var("c".into())),
        ),
    };
    let r = vjp(&p, &["x".into(), "y".into()]).map_err(|e| format!("vjp: {e}"))?;
    let cot = TlValue::Pair(
        Box::new(TlValue::Num(w.clone())),
        Box::new(arr(vec![num(1); n as usize])),
    );
    let args = vec![arr(xs.clone()), arr(xs.clone()), cot];
    let got = eval_ssa(&r, &args).map_err(|e| format!("{e}\n{r}"))?;
    let want = TlValue::Pair(
        Box::new(arr(vec![w.clone(); n as usize])),
        Box::new(arr(vec![num(0); n as usize])),
    );
    let c = cost_c_ssa(&r, &args).map_err(|e| e.to_string())?;
    if got != want || c != 0 {
        return Err(format!(
            "sum/dead code at n = {n}: adjoint {got} (want {want}), C(R) = {c} (want 0)\n{r}"
        ));
    }
    // (2)
    let q = SsaProgram {
        inputs: vec![("x".into(), Ty::Num)],
        stmts: vec![
            input("a", "x", Ty::Num),
            stmt(
                "f",
                vec_n.clone(),
                Rhs::Contract {
                    dims: vec![("i".into(), n)],
                    sums: vec![],
                    pred: Pred::True,
                    y: acc("a", &[]),
                    z: None,
                },
            ),
        ],
        output: SsaOut::Var("f".into()),
    };
    let r = vjp(&q, &["x".into()]).map_err(|e| format!("vjp: {e}"))?;
    let args = vec![TlValue::Num(w.clone()), arr(xs.clone())];
    let got = eval_ssa(&r, &args).map_err(|e| format!("{e}\n{r}"))?;
    let want = TlValue::Num(xs.iter().cloned().fold(num(0), |a, b| a + b));
    let c = cost_c_ssa(&r, &args).map_err(|e| e.to_string())?;
    if got != want || c != n.saturating_sub(1) {
        return Err(format!(
            "fan-out at n = {n}: adjoint {got} (want {want}), C(R) = {c} (want {})\n{r}",
            n.saturating_sub(1)
        ));
    }
    Pass::ok()
}

/// A linear scalar DAG (G4): `m` inputs, nodes that are k-ary sums (k ≥ 2) or constant
/// scalings of earlier nodes, every node used, the sinks the outputs. Returns the
/// program, its additions and scalings, and the number of outputs.
fn dag(rng: &mut impl Rng) -> (SsaProgram, usize, usize, usize) {
    let m = rng.gen_range(1..=4);
    let mut stmts = Vec::new();
    let mut inputs = Vec::new();
    let mut nodes: Vec<Var> = Vec::new();
    for k in 0..m {
        inputs.push((format!("x{k}"), Ty::Num));
        stmts.push(input(&format!("n{k}"), &format!("x{k}"), Ty::Num));
        nodes.push(format!("n{k}"));
    }
    let mut used = vec![false; m];
    let (mut adds, mut scalings) = (0, 0);
    let count = rng.gen_range(1..=6);
    for _ in 0..count {
        let name = format!("n{}", nodes.len());
        // The earliest unused node first (so every input is used when it can be).
        let mut pick = |rng: &mut dyn rand::RngCore| {
            let k = match (0..nodes.len()).find(|&k| !used[k]) {
                Some(k) if k < nodes.len() => k,
                _ => rng.gen_range(0..nodes.len()),
            };
            used[k] = true;
            nodes[k].clone()
        };
        if rng.gen_bool(0.3) {
            let a = pick(rng);
            let c = format!("c{}", nodes.len());
            stmts.push(stmt(
                &c,
                Ty::Num,
                Rhs::Const {
                    dims: vec![],
                    pred: Pred::True,
                    value: ConstVal::Num(num(rng.gen_range(2..=4))),
                },
            ));
            stmts.push(stmt(
                &name,
                Ty::Num,
                Rhs::Contract {
                    dims: vec![],
                    sums: vec![],
                    pred: Pred::True,
                    y: acc(&c, &[]),
                    z: Some(acc(&a, &[])),
                },
            ));
            scalings += 1;
        } else {
            let k = rng.gen_range(2..=3);
            let mut acc_var = pick(rng);
            for j in 1..k {
                let b = pick(rng);
                let v = if j + 1 == k {
                    name.clone()
                } else {
                    format!("{name}_{j}")
                };
                stmts.push(stmt(
                    &v,
                    Ty::Num,
                    Rhs::Add {
                        dims: vec![],
                        p: Pred::True,
                        y: acc_var,
                        q: Pred::True,
                        z: b,
                    },
                ));
                acc_var = v;
                adds += 1;
            }
        }
        nodes.push(name);
        used.push(false);
    }
    let sinks: Vec<Var> = (0..nodes.len())
        .filter(|&k| !used[k])
        .map(|k| nodes[k].clone())
        .collect();
    let outputs = sinks.len();
    let output = sinks
        .iter()
        .rev()
        .map(|v| SsaOut::Var(v.clone()))
        .reduce(|acc, v| SsaOut::Pair(Box::new(v), Box::new(acc)))
        .unwrap_or(SsaOut::Var(nodes[0].clone()));
    (
        SsaProgram {
            inputs,
            stmts,
            output,
        },
        adds,
        scalings,
        outputs,
    )
}

/// S001-X2.2b: reversing a linear DAG gives `adds(R) = adds(e) + #outputs − #inputs`
/// additions and the same number of scalings.
pub fn transpose_additions(d: &[usize]) -> Outcome {
    let (p, adds, scalings, outputs) = dag(&mut rng_of(d));
    let wrt: Vec<Var> = p.inputs.iter().map(|(x, _)| x.clone()).collect();
    let fwd = derive(&p, &wrt).map_err(|e| format!("D: {e}"))?;
    let (st, _) = reverse(&fwd, None).map_err(|e| format!("R: {e}"))?;
    let (mut r_adds, mut r_scalings) = (0, 0);
    for s in &st.adjoints {
        match &s.rhs {
            Rhs::Add { .. } => r_adds += 1,
            Rhs::Contract { z: Some(_), .. } => r_scalings += 1,
            _ => {}
        }
    }
    let want = (adds + outputs) as i64 - p.inputs.len() as i64;
    if r_adds as i64 != want || r_scalings != scalings {
        return Err(format!(
            "adds(R) = {r_adds} (want {adds} + {outputs} - {} = {want}), scalings {r_scalings} (want {scalings})\n{p}\nadjoint statements: {:?}",
            p.inputs.len(),
            st.adjoints
        ));
    }
    Pass::ok()
}

/// S001-X2.1b: the VJP of the 1-D convolution `z = gen i:m. sum (j:k, l:n). [l == i + j]
/// w[j] * x[l]` with respect to `x` is the correlation `dx[l] = Σ_j [0 ≤ l − j < m] w[j]
/// dz[l − j]`, exactly, for random sizes, filters and cotangents.
pub fn conv_correlation(d: &[usize]) -> Outcome {
    use adora_core::tl::{Aff, CmpOp, Index};
    use std::collections::BTreeMap;
    let mut rng = rng_of(d);
    let k = rng.gen_range(1..=3u64);
    let m = rng.gen_range(0..=4u64);
    let n = m + k - 1;
    let ix = |terms: &[&str]| {
        let mut t = BTreeMap::new();
        for v in terms {
            *t.entry(v.to_string()).or_insert(0) += 1;
        }
        Index::Aff(Aff {
            terms: t,
            constant: 0,
        })
    };
    let p = SsaProgram {
        inputs: vec![("x".into(), tensor_ty(&[n])), ("w".into(), tensor_ty(&[k]))],
        stmts: vec![
            input("a", "x", tensor_ty(&[n])),
            input("b", "w", tensor_ty(&[k])),
            stmt(
                "z",
                tensor_ty(&[m]),
                Rhs::Contract {
                    dims: vec![("i".into(), m)],
                    sums: vec![("j".into(), k), ("l".into(), n)],
                    pred: Pred::Cmp(CmpOp::Eq, ix(&["l"]), ix(&["i", "j"])),
                    y: acc("b", &["j"]),
                    z: Some(acc("a", &["l"])),
                },
            ),
        ],
        output: SsaOut::Var("z".into()),
    };
    let r = vjp(&p, &["x".into()]).map_err(|e| format!("vjp: {e}"))?;
    let small = |rng: &mut rand_chacha::ChaCha8Rng| num(rng.gen_range(-4..=4));
    let xs: Vec<Rat> = (0..n).map(|_| small(&mut rng)).collect();
    let ws: Vec<Rat> = (0..k).map(|_| small(&mut rng)).collect();
    let dz: Vec<Rat> = (0..m).map(|_| small(&mut rng)).collect();
    let got = eval_ssa(&r, &[arr(xs), arr(ws.clone()), arr(dz.clone())])
        .map_err(|e| format!("{e}\n{r}"))?;
    let want = arr((0..n as i64)
        .map(|l| {
            (0..k as i64)
                .filter(|j| (0..m as i64).contains(&(l - j)))
                .fold(num(0), |s, j| {
                    s + ws[j as usize].clone() * dz[(l - j) as usize].clone()
                })
        })
        .collect());
    if got != want {
        return Err(format!(
            "m = {m}, k = {k}: VJP {got}, correlation {want}\n{r}"
        ));
    }
    Pass::ok()
}
