//! Condition numbers of the compared outputs (docs/oracle.md, "Differential testing"), so
//! that a large float error can be told from cancellation.
//!
//! | output | its condition number, with respect to the inputs' reals `x_j` |
//! |---|---|
//! | value `y_k` | `Σ_j \|∂y_k/∂x_j\| \|x_j\| / \|y_k\|` (for a sum `Σ x_j`: `Σ \|x_j\| / \|Σ x_j\|`) |
//! | gradient `g_i = ∂y/∂x_i` | `Σ_j \|∂²y/∂x_i∂x_j\| \|x_j\| / \|g_i\|` |
//! | JVP `t_k = Σ_i ∂y_k/∂x_i ṫ_i` | `Σ_j \|Σ_i ∂²y_k/∂x_i∂x_j ṫ_i\| \|x_j\| / \|t_k\|` |
//! | VJP `v_i = Σ_k c_k ∂y_k/∂x_i` | `Σ_j \|Σ_k c_k ∂²y_k/∂x_i∂x_j\| \|x_j\| / \|v_i\|` |
//!
//! `∞` where the output is 0 and the sum is not, 0 where both are. The first and second
//! derivatives come from one evaluation of the reference at nested dual numbers seeded with
//! every input (`adora_semantics::reference::jacobian` at `Dual<S>` inputs: each partial is
//! itself a dual number carrying its own partials, the Hessian rows), computed exactly (or
//! as enclosures) and reported in f64. Programs with more than [`MAX_INPUTS`] real inputs
//! get the value's condition numbers only (first order, one evaluation).

use crate::cli::inputs::{render, Loaded};
use crate::export::{probe_cotangent, probe_tangent};
use adora_rewrites::engine::harness::Mode;
use adora_semantics::dual::Dual;
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;

/// The most real input scalars for which second-order condition numbers are computed.
pub const MAX_INPUTS: usize = 64;

/// Condition numbers per compared output, in the order of its reals (empty: unknown).
#[derive(Clone, Debug, Default)]
pub struct Conditions {
    /// Of the value's reals.
    pub value: Vec<f64>,
    /// Of the gradient, per input real (scalar results).
    pub gradient: Vec<f64>,
    /// Of the JVP along the probing tangent, per real of the result.
    pub jvp: Vec<f64>,
    /// Of the VJP of the probing cotangent, per input real.
    pub vjp: Vec<f64>,
}

/// `num / |out|` with the conventions of the module table.
fn ratio(num: f64, out: f64) -> f64 {
    if num == 0.0 {
        0.0
    } else {
        num / out.abs()
    }
}

fn f<S: Scalar>(x: &S) -> f64 {
    x.approx_f64()
}

/// The condition numbers of `l`'s outputs at `xs` (module documentation).
pub fn conditions<S: Mode>(
    l: &Loaded,
    xs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<Conditions, String> {
    let bad = |d: adora_core::diag::Diagnostic| render(l, &d).text;
    let x: Vec<f64> = xs
        .iter()
        .flat_map(|v| v.real_scalars())
        .map(|r| f(r).abs())
        .collect();
    let n = x.len();
    if n > MAX_INPUTS {
        let (v, rows) = reference::jacobian(&l.func, xs, opts).map_err(bad)?;
        let value = v
            .real_scalars()
            .into_iter()
            .zip(rows)
            .map(|(y, row)| ratio(row.iter().map(|(j, d)| f(d).abs() * x[*j]).sum(), f(y)))
            .collect();
        return Ok(Conditions {
            value,
            ..Conditions::default()
        });
    }
    let mut id = 0usize;
    let seeded: Vec<Value<Dual<S>>> = xs
        .iter()
        .map(|v| {
            v.map_reals(&mut |r| {
                id += 1;
                Dual::variable(r.clone(), id - 1)
            })
        })
        .collect();
    let (v, rows) = reference::jacobian(&l.func, &seeded, opts).map_err(bad)?;
    let ys: Vec<f64> = v.real_scalars().into_iter().map(|y| f(y.value())).collect();
    // jac[k][j] = ∂y_k/∂x_j; hess[k][j][i] = ∂²y_k/∂x_j∂x_i.
    let mut jac = vec![vec![0.0; n]; ys.len()];
    let mut hess = vec![vec![vec![0.0; n]; n]; ys.len()];
    for (k, row) in rows.iter().enumerate() {
        for (j, d) in row {
            jac[k][*j] = f(d.value());
            for (i, h) in d.tangents() {
                hess[k][*j][*i] = f(h);
            }
        }
    }
    let weigh = |dv: &dyn Fn(usize) -> f64| -> f64 { (0..n).map(|j| dv(j).abs() * x[j]).sum() };
    let value = (0..ys.len())
        .map(|k| ratio(weigh(&|j| jac[k][j]), ys[k]))
        .collect();
    let gradient = if ys.len() == 1 && v.as_real().is_some() {
        (0..n)
            .map(|i| ratio(weigh(&|j| hess[0][i][j]), jac[0][i]))
            .collect()
    } else {
        Vec::new()
    };
    let t: Vec<f64> = (0..n).map(|i| f(&probe_tangent(i))).collect();
    let jvp = (0..ys.len())
        .map(|k| {
            let tk: f64 = (0..n).map(|i| jac[k][i] * t[i]).sum();
            ratio(weigh(&|j| (0..n).map(|i| hess[k][i][j] * t[i]).sum()), tk)
        })
        .collect();
    let c: Vec<f64> = (0..ys.len()).map(|k| f(&probe_cotangent(k))).collect();
    let vjp = (0..n)
        .map(|i| {
            let vi: f64 = (0..ys.len()).map(|k| c[k] * jac[k][i]).sum();
            ratio(
                weigh(&|j| (0..ys.len()).map(|k| c[k] * hess[k][i][j]).sum()),
                vi,
            )
        })
        .collect();
    Ok(Conditions {
        value,
        gradient,
        jvp,
        vjp,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::inputs::load;
    use crate::cli::sizes::Sizing;
    use adora_semantics::Rat;
    use num_bigint::BigInt;

    fn loaded(name: &str, src: &str) -> Loaded {
        let dir = std::env::temp_dir().join(format!("adora-cond-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(name);
        std::fs::write(&file, src).unwrap();
        let sizing = Sizing {
            explicit: &[],
            run: None,
        };
        load(&file, "main", sizing).unwrap_or_else(|e| panic!("{}", e.text))
    }

    fn rat(n: i64, d: i64) -> Value<Rat> {
        Value::real(Rat::new(BigInt::from(n), BigInt::from(d)))
    }

    /// `x - y` at `x = 1 + 2^-40`, `y = 1`: the value's condition number is
    /// `(|x| + |y|) / |x - y| = 2^41 + 1` (cancellation); its gradient is constant, so the
    /// gradient's condition numbers are 0.
    #[test]
    fn cancellation_shows_in_the_value() {
        let l = loaded("sub.adl", "def main(x: R, y: R) -> R =\n  x - y\n");
        let big = 1i64 << 40;
        let c = conditions(&l, &[rat(big + 1, big), rat(1, 1)], &EvalOptions::default()).unwrap();
        assert_eq!(c.value, vec![(2u64 << 40) as f64 + 1.0]);
        assert_eq!(c.gradient, vec![0.0, 0.0]);
    }

    /// `x0 * x1` at `(2, 3)`: `g0 = x1` has condition 1 (`∂g0/∂x1 = 1`, `|x1| / |x1|`); the
    /// JVP along the probing tangent `(-1/2, -3/2)` is `t = -9/2` with `∂t/∂x0 = -3/2`,
    /// `∂t/∂x1 = -1/2`, so its condition number is `(3/2·2 + 1/2·3) / (9/2) = 1`.
    #[test]
    fn second_order_conditions_of_a_product() {
        let l = loaded("mul.adl", "def main(a: R, b: R) -> R =\n  a * b\n");
        let c = conditions(&l, &[rat(2, 1), rat(3, 1)], &EvalOptions::default()).unwrap();
        assert_eq!(c.value, vec![2.0]);
        assert_eq!(c.gradient, vec![1.0, 1.0]);
        assert_eq!(c.jvp, vec![1.0]);
    }
}
