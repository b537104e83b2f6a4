//! `adora difftest --against jax|pytorch [F…]`: golden programs exported to JAX or
//! PyTorch ([`super::export`]), run in the project's Python environment, and their values
//! and gradients compared with ours (docs/oracle.md, "Differential testing").
//!
//! Exact programs are compared against the exact rational: the float answer agrees when
//! `|d - r| <= 1e-9 * max(1, |r|)`, and the largest error in ULPs of the double nearest
//! `r` is reported. Programs with transcendental functions (`f64` and `ball` golden
//! programs) are compared against our certified enclosure `[lo, hi]` (`ball` mode at 128
//! bits): the float answer agrees when its distance to the enclosure is within the same
//! bound, and its distance in ULPs of the double nearest the enclosure's midpoint is
//! reported (0 inside). Where no enclosure can be had (an undecidable comparison, a value
//! outside the exponent range, an infinity or NaN) the answer is compared with our f64
//! answer within the bound (NaN agrees with NaN, an infinity with the same infinity).
//! Integers and booleans must be equal. Each agreeing program prints, per compared
//! output, its largest error in ULPs and the component where it occurs.

use super::error::CliError;
use super::export::{module, TargetArg};
use super::inputs::{self, render};
use super::{Format, JsonNumbersArg, Numeric, RunArgs, FAILED, OK};
use crate::export::Target;
use adora_core::diag::ErrorKind;
use adora_rewrites::engine::{self, harness};
use adora_semantics::eval::EvalOptions;
use adora_semantics::scalar::interval::PrecisionScope;
use adora_semantics::scalar::Interval;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use num_traits::{Signed, ToPrimitive};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The relative bound of an agreement: `|d - r| <= BOUND * max(1, |r|)`.
pub const BOUND: f64 = 1e-9;

/// The outcome of one program.
#[derive(Debug, PartialEq)]
enum Outcome {
    /// Every compared number agrees: the largest error in ULPs, and one line per compared
    /// output (its largest error in ULPs and where).
    Agree(f64, String),
    /// A number differs: what, where.
    Disagree(String),
    /// `export` refused the program (its message).
    Refused(String),
}

/// `adora difftest`.
pub fn difftest(against: TargetArg, files: &[PathBuf], python: &Path) -> Result<u8, CliError> {
    let target: Target = against.into();
    let module_name = match target {
        Target::Jax => "jax",
        Target::Pytorch => "torch",
    };
    let probe = Command::new(python)
        .args(["-c", &format!("import {module_name}")])
        .output();
    if !matches!(&probe, Ok(o) if o.status.success()) {
        println!(
            "skipped: {} cannot import `{module_name}`; create the environment with `scripts/python-env.sh {}` (or give --python)",
            python.display(),
            if target == Target::Jax { "jax" } else { "torch" }
        );
        return Ok(OK);
    }
    let files: Vec<PathBuf> = if files.is_empty() {
        adora_specs::discover(Path::new("specs/programs"))
    } else {
        files.to_vec()
    };
    let dir = std::env::temp_dir().join(format!("adora-difftest-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .map_err(|e| inputs::plain_error(ErrorKind::Input, format!("{}: {e}", dir.display())))?;
    let mut table: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    let mut ulps: BTreeMap<String, f64> = BTreeMap::new();
    let mut failed = false;
    for (k, f) in files.iter().enumerate() {
        let group = f
            .parent()
            .and_then(|p| p.file_name())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let outcome = match one(f, target, python, &dir.join(format!("p{k}.py"))) {
            Ok(Some(o)) => o,
            Ok(None) => continue,
            Err(e) => Outcome::Disagree(e),
        };
        let row = table.entry(group.clone()).or_default();
        row[0] += 1;
        match &outcome {
            Outcome::Agree(u, lines) => {
                row[1] += 1;
                println!("agree {}: {lines}", f.display());
                let w = ulps.entry(group).or_insert(0.0);
                *w = w.max(*u);
            }
            Outcome::Disagree(why) => {
                row[2] += 1;
                failed = true;
                println!("DISAGREE {}: {why}", f.display());
            }
            Outcome::Refused(why) => {
                row[3] += 1;
                println!("refused {}: {why}", f.display());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("\nagainst {}:", target.name());
    println!(
        "{:<16} {:>6} {:>6} {:>9} {:>8} {:>12}",
        "group", "cases", "agree", "disagree", "refused", "max ulps"
    );
    let mut tot = [0usize; 4];
    for (g, r) in &table {
        let u = ulps.get(g).copied().unwrap_or(0.0);
        println!(
            "{g:<16} {:>6} {:>6} {:>9} {:>8} {:>12.1}",
            r[0], r[1], r[2], r[3], u
        );
        for i in 0..4 {
            tot[i] += r[i];
        }
    }
    println!(
        "{:<16} {:>6} {:>6} {:>9} {:>8}",
        "total", tot[0], tot[1], tot[2], tot[3]
    );
    Ok(if failed { FAILED } else { OK })
}

/// One golden program: `None` when it is not a runnable case (a bad-input case).
fn one(file: &Path, target: Target, python: &Path, out: &Path) -> Result<Option<Outcome>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let case = adora_specs::parse_case(file, &text)?;
    if case.error.is_some() {
        return Ok(None);
    }
    // Programs with transcendentals are exported and run in f64; ours are enclosures.
    let numeric = match case.numeric {
        adora_specs::case::Numeric::Exact => Numeric::Exact,
        adora_specs::case::Numeric::F64 { .. } | adora_specs::case::Numeric::Ball { .. } => {
            Numeric::F64
        }
    };
    let a = RunArgs {
        file: file.to_path_buf(),
        entry: case.entry.clone(),
        inputs: case
            .inputs
            .iter()
            .map(|n| format!("{}={}", n.name, n.lit.text))
            .collect(),
        inputs_json: None,
        sizes: Vec::new(),
        json_numbers: JsonNumbersArg::Decimal,
        numeric,
        precision: 128,
        engine: None,
        checkpoint: None,
        strict: false,
        max_steps: EvalOptions::default().max_steps,
        max_memory: EvalOptions::default().max_memory,
        format: Format::Text,
    };
    let l = inputs::load_run(&a).map_err(|e| e.text)?;
    let m = match module(&l, &a, target) {
        Ok(m) => m,
        Err(e) if e.kind == ErrorKind::Unsupported => {
            return Ok(Some(Outcome::Refused(
                e.text.lines().next().unwrap_or("").to_string(),
            )))
        }
        Err(e) => return Err(e.text),
    };
    std::fs::write(out, m).map_err(|e| e.to_string())?;
    let run = Command::new(python)
        .arg(out)
        .output()
        .map_err(|e| e.to_string())?;
    if !run.status.success() {
        let err = String::from_utf8_lossy(&run.stderr);
        let last = err.lines().last().unwrap_or("").to_string();
        return Err(format!("{} failed: {last}", target.name()));
    }
    let theirs: Json = serde_json::from_slice(&run.stdout).map_err(|e| e.to_string())?;
    let opts = EvalOptions::default();
    let reference = engine::reference();
    let ours = match numeric {
        Numeric::Exact => {
            let xs = inputs::inputs::<Rat>(&l, &a).map_err(|e| e.text)?;
            ours_all(&l, &xs, &opts, reference.as_ref(), &theirs, Num::exact)
        }
        Numeric::F64 | Numeric::Ball => {
            let enclosed = {
                let _p = PrecisionScope::new(ENCLOSURE_BITS);
                inputs::inputs::<Interval>(&l, &a)
                    .map_err(|e| e.text)
                    .and_then(|xs| ours_all(&l, &xs, &opts, reference.as_ref(), &theirs, Num::ball))
            };
            match enclosed {
                Ok(o) => Ok(o),
                Err(_) => {
                    let xs = inputs::inputs::<f64>(&l, &a).map_err(|e| e.text)?;
                    ours_all(&l, &xs, &opts, reference.as_ref(), &theirs, |x: &f64| {
                        Num::F64(*x)
                    })
                }
            }
        }
    };
    let ours = match ours {
        Ok(o) => o,
        Err(e) => return Ok(Some(Outcome::Disagree(e))),
    };
    let mut worst = 0.0f64;
    let mut lines = Vec::new();
    for (what, ours, theirs) in &ours {
        let flat = flatten(theirs);
        if flat.len() != ours.len() {
            return Ok(Some(Outcome::Disagree(format!(
                "{what}: {} numbers, ours {}",
                flat.len(),
                ours.len()
            ))));
        }
        let mut here = (0.0f64, 0usize);
        for (k, (o, t)) in ours.iter().zip(&flat).enumerate() {
            match agree(o, t) {
                Some(u) if u > here.0 => here = (u, k),
                Some(_) => {}
                None => {
                    return Ok(Some(Outcome::Disagree(format!(
                        "{what}[{k}]: theirs {t}, ours {}",
                        o.show()
                    ))))
                }
            }
        }
        worst = worst.max(here.0);
        let kind = match ours.first() {
            Some(Num::Ball(..)) => " (enclosure)",
            Some(Num::F64(_)) => " (f64)",
            _ => "",
        };
        lines.push(format!(
            "{what}{kind} max {:.1} ulps at [{}]",
            here.0, here.1
        ));
    }
    Ok(Some(Outcome::Agree(worst, lines.join("; "))))
}

/// The precision of the enclosures the float answers are compared against.
const ENCLOSURE_BITS: usize = 128;

/// Our numbers of each compared output: `(what, ours, theirs)`.
type Ours<'t> = Vec<(String, Vec<Num>, &'t Json)>;

fn ours_all<'t, S: harness::Mode>(
    l: &inputs::Loaded,
    xs: &[Value<S>],
    opts: &EvalOptions,
    reference: &dyn engine::Engine,
    theirs: &'t Json,
    num: fn(&S) -> Num,
) -> Result<Ours<'t>, String> {
    let (v, _) = adora_semantics::eval::eval(&l.func, xs, opts).map_err(|d| render(l, &d).text)?;
    let mut out = vec![("value".to_string(), nums(&v, num), &theirs["value"])];
    if let Some(g) = theirs.get("gradient") {
        let ours =
            harness::gradient(reference, &l.func, xs, opts).map_err(|d| render(l, &d).text)?;
        for (p, gi) in l.func.params.iter().zip(&ours.grads) {
            if let Some(gi) = gi {
                out.push((format!("gradient {}", p.name), nums(gi, num), &g[&p.name]));
            }
        }
    }
    Ok(out)
}

/// One of our numbers.
#[derive(Debug)]
pub enum Num {
    /// An exact real.
    Exact(Rat),
    /// An f64 real.
    F64(f64),
    /// A certified enclosure `[lo, hi]` of a real.
    Ball(Rat, Rat),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl Num {
    fn exact(r: &Rat) -> Num {
        Num::Exact(r.clone())
    }
    fn ball(x: &Interval) -> Num {
        Num::Ball(x.lo(), x.hi())
    }
    fn show(&self) -> String {
        match self {
            Num::Exact(r) => format!("{r} (≈ {})", r.to_f64().unwrap_or(f64::NAN)),
            Num::F64(x) => format!("{x:?}"),
            Num::Ball(lo, hi) => format!(
                "[{}, {}]",
                lo.to_f64().unwrap_or(f64::NAN),
                hi.to_f64().unwrap_or(f64::NAN)
            ),
            Num::Int(n) => n.to_string(),
            Num::Bool(b) => b.to_string(),
        }
    }
}

fn nums<S>(v: &Value<S>, num: fn(&S) -> Num) -> Vec<Num> {
    match v {
        Value::Real(t) => t.data.iter().map(num).collect(),
        Value::Int(t) => t.data.iter().map(|n| Num::Int(*n)).collect(),
        Value::Bool(t) => t.data.iter().map(|b| Num::Bool(*b)).collect(),
        Value::Tuple(vs) => vs.iter().flat_map(|v| nums(v, num)).collect(),
    }
}

fn flatten(j: &Json) -> Vec<Json> {
    match j {
        Json::Array(xs) => xs.iter().flat_map(flatten).collect(),
        other => vec![other.clone()],
    }
}

fn their_f64(t: &Json) -> Option<f64> {
    match t {
        Json::Number(n) => n.as_f64(),
        Json::String(s) => match s.as_str() {
            "inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            "nan" => Some(f64::NAN),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `t` agrees with `o`: `Some(error in ULPs)` (0 for non-exact numbers) or `None`.
fn agree(o: &Num, t: &Json) -> Option<f64> {
    match o {
        Num::Int(n) => (t.as_i64() == Some(*n)).then_some(0.0),
        Num::Bool(b) => (t.as_bool() == Some(*b)).then_some(0.0),
        Num::F64(x) => {
            let d = their_f64(t)?;
            let ok = (x.is_nan() && d.is_nan())
                || (x.is_infinite() && d == *x)
                || (x.is_finite() && d.is_finite() && (d - x).abs() <= BOUND * x.abs().max(1.0));
            ok.then_some(0.0)
        }
        Num::Ball(lo, hi) => {
            let d = their_f64(t)?;
            let dr = Rat::from_float(d)?;
            let dist = if dr < *lo {
                lo - &dr
            } else if dr > *hi {
                &dr - hi
            } else {
                Rat::from_integer(0.into())
            };
            let mid = (lo + hi) / Rat::from_integer(2.into());
            within(&dist, &mid)
        }
        Num::Exact(r) => {
            let d = their_f64(t)?;
            let dr = Rat::from_float(d)?;
            within(&(&dr - r).abs(), r)
        }
    }
}

/// An error `err >= 0` against the real `r`: `None` past `BOUND * max(1, |r|)`, else the
/// error in ULPs of the double nearest `r`.
fn within(err: &Rat, r: &Rat) -> Option<f64> {
    let scale = r.abs().to_f64().unwrap_or(f64::INFINITY).max(1.0);
    let err_f = err.to_f64().unwrap_or(f64::INFINITY);
    if err_f > BOUND * scale {
        return None;
    }
    Some(err_f / ulp(r.to_f64().unwrap_or(0.0)))
}

/// The gap between `x` and the next double away from zero (the smallest subnormal at 0).
fn ulp(x: f64) -> f64 {
    let a = x.abs();
    if a == 0.0 || !a.is_finite() {
        return f64::from_bits(1);
    }
    f64::from_bits(a.to_bits() + 1) - a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rat(x: f64) -> Rat {
        Rat::from_float(x).unwrap()
    }

    #[test]
    fn a_float_inside_the_enclosure_is_zero_ulps_off() {
        let b = Num::Ball(rat(1.0), rat(2.0));
        assert_eq!(agree(&b, &serde_json::json!(1.5)), Some(0.0));
        assert_eq!(agree(&b, &serde_json::json!(2.0)), Some(0.0));
    }

    #[test]
    fn a_float_outside_the_enclosure_is_counted_in_ulps_of_the_midpoint() {
        let x = 1.5f64;
        let b = Num::Ball(rat(x), rat(x));
        let two_up = f64::from_bits(x.to_bits() + 2);
        assert_eq!(agree(&b, &serde_json::json!(two_up)), Some(2.0));
        let two_down = f64::from_bits(x.to_bits() - 2);
        assert_eq!(agree(&b, &serde_json::json!(two_down)), Some(2.0));
    }

    #[test]
    fn a_float_past_the_bound_disagrees_with_the_enclosure() {
        let b = Num::Ball(rat(1.0), rat(1.0 + 1e-12));
        assert_eq!(agree(&b, &serde_json::json!(1.0 + 1e-6)), None);
        assert_eq!(agree(&b, &serde_json::json!("nan")), None);
    }
}
