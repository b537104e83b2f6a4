//! The GradBench evals Adora serves (docs/gradbench.md, "Evals served"): for each, the
//! program in our language (`specs/gradbench/<eval>/<eval>.adl`, compiled in), its
//! functions, and how an eval's JSON `input` becomes the program's inputs.
//!
//! | eval | functions | program inputs | numbers |
//! |---|---|---|---|
//! | `hello` | `square`, `double` | `x` | exact |
//! | `llsq` | `primal`, `gradient` | `x`, `t` (the grid `-1 + 2i/(n-1)`, exact) | exact |
//! | `det` | `primal`, `gradient` | `a` (`A` as `ell × ell`), `sets` (`0 … 2^ell - 1`) | exact |
//! | `kmeans` | `cost`, `dir` | `points`, `centroids` | exact |
//! | `ode` | `primal`, `gradient` | `x`, `hs` (`s` steps of `2/s`, exact) | exact |
//! | `gmm` | `objective`, `jacobian` | `alpha`, `mu`, `q`, `l`, `x`, `wm` (= `m`), `gamma`, `lgd` | f64 |
//! | `lse` | `primal`, `gradient` | `x` | f64 |
//! | `lstm` | `objective`, `jacobian` | `mp`, `ep`, `st`, `sq` | f64 |
//!
//! A derivative is always an engine's (the `--engine` of `adora gradbench`), never a
//! hand-written program: `gradient`/`jacobian`/`double` are the gradient of the entry
//! point, and `kmeans`'s `dir` is `J / H` with `J` the gradient in the centroids and `H`
//! the diagonal of the Hessian, the reference JVP of the engine's gradient program along
//! ones (the Hessian of the k-means cost is diagonal, so `H · 1` is its diagonal).

use adora_semantics::value::Value;
use adora_semantics::Rat;
use num_traits::One;
use serde_json::Value as Json;

/// How an eval's numbers are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// A rational program: exact rationals (answers are the doubles nearest the exact
    /// values).
    Exact,
    /// A program with `exp`, `log`, `tanh`: f64 (certified enclosures in
    /// `adora gradbench-check`).
    Transcendental,
}

/// What a GradBench function asks of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The entry point's value.
    Value,
    /// The gradient of the entry point (scalar `R` result) in the inputs listed, as the
    /// eval's output shape says.
    Gradient,
    /// `kmeans` `dir`: the gradient in the centroids divided by the Hessian's diagonal.
    NewtonDirection,
}

/// One function of an eval.
#[derive(Clone, Copy, Debug)]
pub struct Function {
    /// GradBench's name of the function.
    pub name: &'static str,
    /// The entry point of the program that computes it.
    pub entry: &'static str,
    /// What it asks.
    pub ask: Ask,
}

/// One eval served.
#[derive(Clone, Copy, Debug)]
pub struct Eval {
    /// GradBench's module name.
    pub name: &'static str,
    /// The program's path in the repository (for error messages).
    pub file: &'static str,
    /// The program's source.
    pub src: &'static str,
    /// How its numbers are computed.
    pub numbers: Numbers,
    /// Its functions.
    pub functions: &'static [Function],
}

/// An [`Eval`] whose program is `specs/gradbench/NAME/NAME.adl`, with its functions
/// `(name, entry, ask)`.
macro_rules! eval {
    ($name:literal, $numbers:ident, $(($f:literal, $entry:literal, $ask:ident)),+) => {
        Eval {
            name: $name,
            file: concat!("specs/gradbench/", $name, "/", $name, ".adl"),
            src: include_str!(concat!("../../../specs/gradbench/", $name, "/", $name, ".adl")),
            numbers: Numbers::$numbers,
            functions: &[$(Function { name: $f, entry: $entry, ask: Ask::$ask }),+],
        }
    };
}

/// Every eval served, by module name.
pub const EVALS: &[Eval] = &[
    eval!(
        "hello",
        Exact,
        ("square", "main", Value),
        ("double", "main", Gradient)
    ),
    eval!(
        "llsq",
        Exact,
        ("primal", "main", Value),
        ("gradient", "main", Gradient)
    ),
    eval!(
        "det",
        Exact,
        ("primal", "main", Value),
        ("gradient", "main", Gradient)
    ),
    eval!(
        "kmeans",
        Exact,
        ("cost", "main", Value),
        ("dir", "main", NewtonDirection)
    ),
    eval!(
        "ode",
        Exact,
        ("primal", "main", Value),
        ("gradient", "last", Gradient)
    ),
    eval!(
        "lse",
        Transcendental,
        ("primal", "main", Value),
        ("gradient", "main", Gradient)
    ),
    eval!(
        "gmm",
        Transcendental,
        ("objective", "main", Value),
        ("jacobian", "main", Gradient)
    ),
    eval!(
        "lstm",
        Transcendental,
        ("objective", "main", Value),
        ("jacobian", "main", Gradient)
    ),
];

/// The eval called `name`.
pub fn find(name: &str) -> Option<&'static Eval> {
    EVALS.iter().find(|e| e.name == name)
}

impl Eval {
    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<&'static Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// One input of the program: JSON from the eval's input (read as the exact values of
/// the doubles it writes), or a value the adapter computed exactly.
#[derive(Clone, Debug)]
pub enum Arg {
    /// A JSON value read against the parameter's type.
    Json(Json),
    /// An exact value.
    Exact(Value<Rat>),
}

/// The largest count the adapter itself turns into an array or a loop (llsq's `n`,
/// ode's `s`, gmm's `d` and `m`); GradBench's largest are 16392, 100, 128 and 0.
pub const MAX_COUNT: u64 = 10_000_000;

/// The largest `ell` of `det` served: the program keeps `2^ell` minors.
pub const MAX_DET_ELL: u64 = 20;

/// The program's inputs for `eval`'s JSON `input`, by parameter name; an error says which
/// field is missing or malformed.
pub fn program_inputs(eval: &Eval, input: &Json) -> Result<Vec<(&'static str, Arg)>, String> {
    let field = |k: &str| -> Result<Json, String> {
        input
            .get(k)
            .cloned()
            .ok_or_else(|| format!("the input of `{}` has no field `{k}`", eval.name))
    };
    let count = |k: &str| -> Result<u64, String> {
        field(k)?.as_u64().ok_or_else(|| {
            format!(
                "field `{k}` of the `{}` input is not a non-negative integer",
                eval.name
            )
        })
    };
    let js = |names: &[(&'static str, &str)]| -> Result<Vec<(&'static str, Arg)>, String> {
        names
            .iter()
            .map(|(param, k)| Ok((*param, Arg::Json(field(k)?))))
            .collect()
    };
    Ok(match eval.name {
        "hello" => vec![("x", Arg::Json(input.clone()))],
        "llsq" => {
            let n = count("n")?;
            if !(2..=MAX_COUNT).contains(&n) {
                return Err(format!(
                    "llsq serves 2 <= n <= {MAX_COUNT} sample points (got n = {n})"
                ));
            }
            let mut out = js(&[("x", "x")])?;
            out.push(("t", Arg::Exact(Value::real_vector(grid(n)))));
            out
        }
        "det" => {
            let ell = count("ell")?;
            if ell == 0 || ell > MAX_DET_ELL {
                return Err(format!(
                    "det serves 1 <= ell <= {MAX_DET_ELL} (got ell = {ell})"
                ));
            }
            let a = field("A")?;
            let flat = a
                .as_array()
                .ok_or("field `A` of the `det` input is not an array")?;
            if flat.len() as u64 != ell * ell {
                return Err(format!(
                    "field `A` has {} numbers, ell = {ell} needs {}",
                    flat.len(),
                    ell * ell
                ));
            }
            let rows = flat
                .chunks(ell as usize)
                .map(|r| Json::Array(r.to_vec()))
                .collect();
            let p = 1i64 << ell;
            let sets = Value::ints(vec![p as usize], (0..p).collect()).expect("shape of iota");
            vec![
                ("a", Arg::Json(Json::Array(rows))),
                ("sets", Arg::Exact(sets)),
            ]
        }
        "kmeans" => js(&[("points", "points"), ("centroids", "centroids")])?,
        "lse" => js(&[("x", "x")])?,
        "ode" => {
            let s = count("s")?;
            if !(1..=MAX_COUNT).contains(&s) {
                return Err(format!(
                    "ode serves 1 <= s <= {MAX_COUNT} steps (got s = {s})"
                ));
            }
            let h = Rat::new(2.into(), (s as i64).into());
            let mut out = js(&[("x", "x")])?;
            out.push(("hs", Arg::Exact(Value::real_vector(vec![h; s as usize]))));
            out
        }
        "gmm" => {
            let d = count("d")?;
            let m = count("m")?;
            if d > MAX_COUNT || m > MAX_COUNT {
                return Err(format!(
                    "gmm serves d, m <= {MAX_COUNT} (got d = {d}, m = {m})"
                ));
            }
            let mut out = js(&[
                ("alpha", "alpha"),
                ("mu", "mu"),
                ("q", "q"),
                ("l", "l"),
                ("x", "x"),
                ("gamma", "gamma"),
            ])?;
            out.push((
                "wm",
                Arg::Exact(Value::real(Rat::from_integer((m as i64).into()))),
            ));
            let lgd = Rat::from_float(log_multigamma(d, m))
                .ok_or("the Wishart normaliser is not finite")?;
            out.push(("lgd", Arg::Exact(Value::real(lgd))));
            out
        }
        "lstm" => js(&[
            ("mp", "main_params"),
            ("ep", "extra_params"),
            ("st", "state"),
            ("sq", "sequence"),
        ])?,
        other => return Err(format!("no eval `{other}`")),
    })
}

/// llsq's sample points `t_i = -1 + 2 i / (n - 1)`, `i < n`, exactly.
fn grid(n: u64) -> Vec<Rat> {
    let den = Rat::from_integer(((n - 1) as i64).into());
    (0..n)
        .map(|i| -Rat::one() + Rat::from_integer((2 * i as i64).into()) / &den)
        .collect()
}

/// `log Γ_d((d + m + 1) / 2)`, the multivariate log-gamma of the Wishart normaliser of
/// `gmm` (GradBench's `evals/gmm/README.md`, "Implementation"): `d (d - 1) / 4 · log π`
/// plus `log Γ((d + m + 2 - j) / 2)` for `j = 1 … d`, each a log-gamma of an integer or
/// half-integer, summed in f64.
pub fn log_multigamma(d: u64, m: u64) -> f64 {
    let pi = std::f64::consts::PI;
    let mut acc = (d as f64) * (d as f64 - 1.0) / 4.0 * pi.ln();
    for j in 1..=d {
        acc += log_gamma_half(d + m + 2 - j);
    }
    acc
}

/// `log Γ(k / 2)` for an integer `k >= 1`: `log((k/2 - 1)!)` for even `k`, and
/// `log Γ(1/2) + Σ_{i < (k-1)/2} log(1/2 + i)` for odd `k` (`Γ(1/2) = √π`).
fn log_gamma_half(k: u64) -> f64 {
    if k.is_multiple_of(2) {
        (1..k / 2).map(|i| (i as f64).ln()).sum()
    } else {
        let half_log_pi = 0.5 * std::f64::consts::PI.ln();
        half_log_pi + (0..(k - 1) / 2).map(|i| (0.5 + i as f64).ln()).sum::<f64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    #[test]
    fn the_llsq_grid_is_exact() {
        let g = grid(3);
        assert_eq!(g, vec![-Rat::one(), Rat::zero(), Rat::one()]);
        assert_eq!(grid(4)[1], Rat::new((-1).into(), 3.into()));
    }

    #[test]
    fn log_gamma_of_half_integers() {
        // Γ(1/2) = √π, Γ(3/2) = √π / 2, Γ(3) = 2, Γ(1) = 1.
        let lp = std::f64::consts::PI.ln();
        assert!((log_gamma_half(1) - 0.5 * lp).abs() < 1e-15);
        assert!((log_gamma_half(3) - (0.5 * lp - 2f64.ln())).abs() < 1e-15);
        assert!((log_gamma_half(6) - 2f64.ln()).abs() < 1e-15);
        assert_eq!(log_gamma_half(2), 0.0);
        // Γ_2(3/2) = π^(1/2) Γ(3/2) Γ(1) for d = 2, m = 0.
        let want = 0.5 * lp + (0.5 * lp - 2f64.ln());
        assert!((log_multigamma(2, 0) - want).abs() < 1e-14);
        // d = 3, m = 2: Python's sum of math.lgamma gives 2.694924879806965.
        assert!((log_multigamma(3, 2) - 2.694924879806965).abs() < 1e-14);
    }
}
