//! One GradBench `evaluate`: the eval's program loaded at the input's sizes
//! ([`Job::prepare`]), its inputs in a numeric mode ([`Job::inputs`]) and the answer in the
//! eval's output shape ([`Job::run`]); docs/gradbench.md, "Evals served".
//!
//! | function asks | computed by |
//! |---|---|
//! | a value | the one evaluator (`adora_semantics::eval`) |
//! | a gradient | the engine's gradient program, evaluated (or its runtime answer) |
//! | kmeans `dir` | `J / H`: `J` the engine's gradient, `H · 1` the reference JVP of the engine's gradient program along ones in the centroids |

use super::evals::{self, Arg, Ask, Eval, Function};
use crate::cli::inputs::{render, Loaded};
use adora_core::sizes::{self, Given, Shaped};
use adora_rewrites::engine::harness::{self, Mode, Query};
use adora_rewrites::engine::program::{DerivativeProgram, Input, Output, Question, Seed};
use adora_rewrites::engine::{self, Engine};
use adora_semantics::eval::EvalOptions;
use adora_semantics::io::JsonNumbers;
use adora_semantics::value::Value;
use serde_json::Value as Json;

/// An answer in the eval's JSON shape, with our numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Out<S> {
    /// A number.
    Num(S),
    /// A JSON array.
    List(Vec<Out<S>>),
    /// A JSON object, its fields in GradBench's order.
    Fields(Vec<(&'static str, Out<S>)>),
}

impl<S: Clone> Out<S> {
    /// A real value as nested JSON arrays (row-major; a scalar as a number).
    pub fn nested(v: &Value<S>) -> Out<S> {
        let reals = v.real_scalars();
        let shape = v.shape().unwrap_or(&[]).to_vec();
        fn go<S: Clone>(xs: &[&S], shape: &[usize]) -> Out<S> {
            match shape.split_first() {
                None => Out::Num(xs[0].clone()),
                Some((&n, rest)) => {
                    let step = rest.iter().product::<usize>();
                    Out::List((0..n).map(|i| go(&xs[i * step..], rest)).collect())
                }
            }
        }
        go(&reals, &shape)
    }

    /// The reals of `vs` in order, as one flat JSON array.
    pub fn flat(vs: &[&Value<S>]) -> Out<S> {
        Out::List(
            vs.iter()
                .flat_map(|v| v.real_scalars())
                .map(|x| Out::Num(x.clone()))
                .collect(),
        )
    }
}

impl<S> Out<S> {
    /// The numbers in order (objects in field order).
    pub fn numbers(&self) -> Vec<&S> {
        match self {
            Out::Num(x) => vec![x],
            Out::List(xs) => xs.iter().flat_map(Out::numbers).collect(),
            Out::Fields(fs) => fs.iter().flat_map(|(_, o)| o.numbers()).collect(),
        }
    }

    /// The JSON of the answer, each number by `num`.
    pub fn to_json(&self, num: &impl Fn(&S) -> Json) -> Json {
        match self {
            Out::Num(x) => num(x),
            Out::List(xs) => Json::Array(xs.iter().map(|o| o.to_json(num)).collect()),
            Out::Fields(fs) => Json::Object(
                fs.iter()
                    .map(|(k, o)| (k.to_string(), o.to_json(num)))
                    .collect(),
            ),
        }
    }

    /// The numbers of `theirs` in the order of [`Out::numbers`], or why its structure is
    /// not this answer's (a missing field, an array of another length, a non-number).
    pub fn theirs<'t>(&self, theirs: &'t Json, path: &str) -> Result<Vec<&'t Json>, String> {
        match (self, theirs) {
            (Out::Num(_), t) if t.is_number() || t.is_string() => Ok(vec![t]),
            (Out::List(xs), Json::Array(ts)) if xs.len() == ts.len() => {
                let mut out = Vec::new();
                for (i, (x, t)) in xs.iter().zip(ts).enumerate() {
                    out.extend(x.theirs(t, &format!("{path}[{i}]"))?);
                }
                Ok(out)
            }
            (Out::Fields(fs), Json::Object(m)) => {
                let mut out = Vec::new();
                for (k, o) in fs {
                    let t = m.get(*k).ok_or_else(|| format!("{path}: no field `{k}`"))?;
                    out.extend(o.theirs(t, &format!("{path}.{k}"))?);
                }
                Ok(out)
            }
            (Out::List(xs), Json::Array(ts)) => Err(format!(
                "{path}: an array of {} numbers, expected {}",
                ts.len(),
                xs.len()
            )),
            (ours, t) => Err(format!(
                "{path}: expected {}, got {}",
                match ours {
                    Out::Num(_) => "a number",
                    Out::List(_) => "an array",
                    Out::Fields(_) => "an object",
                },
                super::check::json_kind(t)
            )),
        }
    }
}

/// One evaluate, prepared: the program at the input's sizes and, for a derivative, the
/// engine's gradient program.
pub struct Job<'e> {
    /// The eval.
    pub eval: &'static Eval,
    /// The function asked.
    pub function: &'static Function,
    /// The program at the input's sizes.
    pub loaded: Loaded,
    args: Vec<(&'static str, Arg)>,
    engine: &'e dyn Engine,
    program: Option<DerivativeProgram>,
}

impl<'e> Job<'e> {
    /// Loads `function` of `eval` at the sizes of `input`; for a derivative, derives the
    /// engine's gradient program when it has one (kmeans `dir` needs one).
    pub fn prepare(
        eval: &'static Eval,
        function: &'static Function,
        input: &Json,
        engine: &'e dyn Engine,
    ) -> Result<Job<'e>, String> {
        let args = evals::program_inputs(eval, input)?;
        let loaded = load(eval, function.entry, &args)?;
        let program = match function.ask {
            Ask::Value => None,
            Ask::Gradient if !engine.programs().contains(&Question::Grad) => None,
            Ask::Gradient | Ask::NewtonDirection => Some(
                engine
                    .program(&loaded.func, Question::Grad)
                    .map_err(|d| render(&loaded, &d).text)?,
            ),
        };
        Ok(Job {
            eval,
            function,
            loaded,
            args,
            engine,
            program,
        })
    }

    /// The program's inputs in the numeric mode `S` (JSON numbers as the exact values of
    /// the doubles they write).
    pub fn inputs<S: Mode>(&self) -> Result<Vec<Value<S>>, String> {
        let f = &self.loaded.func;
        f.params
            .iter()
            .map(|p| {
                let (_, arg) = self
                    .args
                    .iter()
                    .find(|(n, _)| *n == p.name)
                    .ok_or_else(|| format!("internal error: no input `{}`", p.name))?;
                match arg {
                    Arg::Json(j) => {
                        let what = format!("field `{}` of the `{}` input", p.name, self.eval.name);
                        adora_semantics::io::value_from_json_with::<S>(
                            j,
                            &p.ty,
                            &what,
                            JsonNumbers::Double,
                        )
                        .map_err(|d| d.message)
                    }
                    Arg::Exact(v) => Ok(Value::from_rationals(v)),
                }
            })
            .collect()
    }

    /// The answer at `xs` (from [`Job::inputs`]) in the eval's output shape.
    pub fn run<S: Mode>(&self, xs: &[Value<S>], opts: &EvalOptions) -> Result<Out<S>, String> {
        let l = &self.loaded;
        let err = |d: adora_core::diag::Diagnostic| render(l, &d).text;
        let _ = S::take_undecided();
        let out = match self.function.ask {
            Ask::Value => {
                let (v, _) =
                    adora_core::with_stack(|| adora_semantics::eval::eval(&l.func, xs, opts))
                        .map_err(err)?;
                Out::nested(&v)
            }
            Ask::Gradient => {
                let g = match &self.program {
                    Some(dp) => harness::evaluate(dp, &l.func, xs, &Query::Grad, opts)
                        .map_err(err)?
                        .into_gradient(),
                    None => harness::gradient(self.engine, &l.func, xs, opts).map_err(err)?,
                };
                let grads: Vec<&Value<S>> = g.grads.iter().flatten().collect();
                shape_gradient(self.eval.name, &grads)?
            }
            Ask::NewtonDirection => self.newton_direction(xs, opts)?,
        };
        if let Some(u) = S::take_undecided() {
            return Err(err(u.diagnostic(l.func.body.span)));
        }
        Ok(out)
    }

    /// kmeans `dir`: `J / (H · 1)` in the centroids (the second input).
    fn newton_direction<S: Mode>(
        &self,
        xs: &[Value<S>],
        opts: &EvalOptions,
    ) -> Result<Out<S>, String> {
        let l = &self.loaded;
        let err = |d: adora_core::diag::Diagnostic| render(l, &d).text;
        let dp = self.program.as_ref().ok_or_else(|| {
            format!(
                "engine `{}` derives no gradient program; kmeans `dir` differentiates one",
                self.engine.name()
            )
        })?;
        let one = Value::real(S::one());
        let args = dp
            .arguments(&l.func, xs, Seed::Cotangent(&one))
            .map_err(err)?;
        let centroids = 1;
        let ts: Vec<Option<Value<S>>> = dp
            .signature
            .inputs
            .iter()
            .zip(&args)
            .map(|(i, a)| match i {
                Input::Primal(k) if *k == centroids => Some(a.map_reals(&mut |_| S::one())),
                _ => None,
            })
            .collect();
        let reference = engine::reference();
        let (out, tangent) =
            harness::jvp(reference.as_ref(), &dp.function, &args, &ts, opts).map_err(err)?;
        let g = dp.unpack(&l.func, xs, out).map_err(err)?.gradient();
        let j = g.grads[centroids]
            .as_ref()
            .ok_or("internal error: no gradient of the centroids")?;
        let n = dp.signature.outputs.len();
        let pos = dp
            .signature
            .outputs
            .iter()
            .position(|o| *o == Output::Cotangent(centroids))
            .ok_or("internal error: the gradient program has no centroid output")?;
        let h = match (n, &tangent) {
            (1, t) => t,
            (_, Value::Tuple(ts)) => &ts[pos],
            _ => {
                return Err("internal error: the JVP of the gradient program is not a tuple".into())
            }
        };
        let mut hs = h.real_scalars().into_iter();
        let mut empty = false;
        let dir = j.map_reals(&mut |x| {
            let hx = hs.next().cloned().unwrap_or_else(S::zero);
            x.checked_div(&hx).unwrap_or_else(|| {
                empty = true;
                S::zero()
            })
        });
        if empty {
            return Err("a centroid is nearest to no point: the Hessian is singular".into());
        }
        Ok(Out::nested(&dir))
    }
}

/// A gradient in the eval's output shape: `lstm` flattens its two parameter matrices into
/// one array, `gmm` names its four, `det` flattens its matrix, the others give the first
/// real input's gradient as it is.
fn shape_gradient<S: Clone>(eval: &str, grads: &[&Value<S>]) -> Result<Out<S>, String> {
    let need = |n: usize| {
        if grads.len() < n {
            Err(format!(
                "internal error: {} gradients, expected {n}",
                grads.len()
            ))
        } else {
            Ok(())
        }
    };
    need(1)?;
    Ok(match eval {
        "det" => Out::flat(&grads[..1]),
        "lstm" => {
            need(2)?;
            Out::flat(&grads[..2])
        }
        "gmm" => {
            need(4)?;
            Out::Fields(vec![
                ("alpha", Out::nested(grads[0])),
                ("mu", Out::nested(grads[1])),
                ("q", Out::nested(grads[2])),
                ("l", Out::nested(grads[3])),
            ])
        }
        _ => Out::nested(grads[0]),
    })
}

/// Loads `entry` of `eval`'s program at the sizes of `args` (docs/language.md, "Size
/// parameters").
fn load(eval: &Eval, entry: &str, args: &[(&'static str, Arg)]) -> Result<Loaded, String> {
    let rendered = |d: adora_core::diag::Diagnostic| d.render(eval.file, eval.src);
    let sig = sizes::signature(eval.src, entry).map_err(rendered)?;
    let loaded = match sig {
        None => adora_core::load_with_warnings(eval.src, entry),
        Some(sig) => {
            let given: Vec<Given> = args
                .iter()
                .filter_map(|(name, arg)| {
                    let p = sig.params.iter().find(|p| p.name == *name)?;
                    let shape = match arg {
                        Arg::Json(j) => crate::cli::sizes::json_shape(j, &p.ty),
                        Arg::Exact(v) => Shaped::Array(v.shape().unwrap_or(&[]).to_vec()),
                    };
                    Some(Given {
                        param: name.to_string(),
                        shape,
                        origin: format!("field `{name}` of the `{}` input", eval.name),
                    })
                })
                .collect();
            let sizes = sig.bind(&[], &given).map_err(|d| d.message)?;
            adora_core::sizes::load_sized_with_warnings(eval.src, entry, &sizes)
        }
    };
    let (func, warnings) = loaded.map_err(rendered)?;
    Ok(Loaded {
        file: eval.file.to_string(),
        src: eval.src.to_string(),
        func,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_and_flat_shapes() {
        let v = Value::reals(vec![2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
        let n = Out::nested(&v);
        assert_eq!(
            n.to_json(&|x| serde_json::json!(x)),
            serde_json::json!([[1.0, 2.0], [3.0, 4.0]])
        );
        let f = Out::flat(&[&v, &Value::real(5.0)]);
        assert_eq!(
            f.to_json(&|x| serde_json::json!(x)),
            serde_json::json!([1.0, 2.0, 3.0, 4.0, 5.0])
        );
        assert!(n
            .theirs(&serde_json::json!([[1, 2], [3]]), "output")
            .is_err());
        assert_eq!(
            n.theirs(&serde_json::json!([[1, 2], [3, 4]]), "output")
                .unwrap()
                .len(),
            4
        );
    }
}
