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
use super::out::Out;
use crate::cli::inputs::{render, Loaded};
use adora_core::sizes::{self, Given, Shaped};
use adora_rewrites::engine::harness::{self, Mode, Query};
use adora_rewrites::engine::program::{DerivativeProgram, Input, Output, Question, Seed};
use adora_rewrites::engine::{self, Engine};
use adora_semantics::eval::EvalOptions;
use adora_semantics::io::JsonNumbers;
use adora_semantics::value::Value;
use serde_json::Value as Json;

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
