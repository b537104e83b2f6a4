//! Derivative programs: the common output of the program-transforming engines
//! (docs/architecture.md, "The engine interface").
//!
//! A [`DerivativeProgram`] is an elaborated core [`Function`] (it passes
//! `adora_core::check::check_function`, prints as source that parses again, and runs on
//! the one evaluator) plus a [`Signature`] saying what each parameter and each output
//! is: a primal input, the incoming tangent of input `k` (JVP) or the incoming cotangent
//! of the result (VJP); the primal value, the tangent of the result, or the cotangent of
//! input `k`. A program with one output returns it alone; with several, a tuple of them
//! in signature order.
//!
//! Tangent and cotangent slots come in one of two [`Layout`]s: `Full` (the slot has the
//! type of the primal it belongs to, integer and boolean components ignored on the way
//! in and zero on the way out — engine `dual`'s gradient program) or `Reals` (the slot
//! has the tangent type of seed 002 §5.1.5: only the real components, a single one
//! standing alone, absent when there is none — engine `linear`'s programs).

use crate::linear::tangent::tangent_type;
use crate::linear::values::{from_tangent, tangent_part};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::Type;
use adora_semantics::reference::{self, Gradient};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::{Tensor, Value};

/// A derivative question of the headers and the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    /// Value and gradient of a scalar-`R` program (a VJP with cotangent 1).
    Grad,
    /// Value and vector–Jacobian product for a result cotangent.
    Vjp,
    /// Value and Jacobian–vector product for input tangents.
    Jvp,
}

impl Question {
    /// Every question, in the order of the command line.
    pub const ALL: [Question; 3] = [Question::Grad, Question::Vjp, Question::Jvp];

    /// The question's name (`grad`, `vjp`, `jvp`): command, stage and header name.
    pub fn name(self) -> &'static str {
        match self {
            Question::Grad => "grad",
            Question::Vjp => "vjp",
            Question::Jvp => "jvp",
        }
    }

    /// The question called `name`.
    pub fn from_name(name: &str) -> Option<Question> {
        Question::ALL.into_iter().find(|q| q.name() == name)
    }

    /// Whether `f` can be asked this question at all (`grad`: a scalar `R` result; the
    /// reference's validation, `adora_semantics::reference::check_scalar_result`).
    pub fn check_function(self, f: &Function) -> Result<()> {
        match self {
            Question::Grad => reference::check_scalar_result(f),
            Question::Vjp | Question::Jvp => Ok(()),
        }
    }
}

/// How tangent and cotangent slots are typed (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The primal's type; integer and boolean components are ignored / zero.
    Full,
    /// The tangent type (seed 002 §5.1.5): only the reals.
    Reals,
}

/// What a parameter of a derivative program is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Input `k` of the primal function.
    Primal(usize),
    /// The tangent of input `k` (JVP).
    Tangent(usize),
    /// The cotangent of the result (VJP; 1 for `grad`).
    Cotangent,
}

/// What an output of a derivative program is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// The primal value.
    Value,
    /// The tangent of the result (JVP).
    Tangent,
    /// The cotangent of input `k` (VJP).
    Cotangent(usize),
}

/// The parameters and outputs of a derivative program, and its slot layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// One entry per parameter, in order.
    pub inputs: Vec<Input>,
    /// One entry per output, in order (one output: returned alone; several: a tuple).
    pub outputs: Vec<Output>,
    /// How tangent and cotangent slots are typed.
    pub layout: Layout,
}

/// A derivative program: an engine's answer to a [`Question`] as a core program.
#[derive(Clone, Debug)]
pub struct DerivativeProgram {
    /// The question it answers (`Grad` programs are VJP programs, called with cotangent 1).
    pub question: Question,
    /// The program the engine differentiated (after its own preparation, e.g. the bot
    /// normal form): the baseline of the cheap-gradient bound.
    pub primal: Function,
    /// The derivative program itself.
    pub function: Function,
    /// What its parameters and outputs are.
    pub signature: Signature,
}

/// An internal error: an engine produced a program that does not fit its signature.
fn mismatch(dp: &DerivativeProgram, what: String) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Type,
        dp.function.body.span,
        format!(
            "internal error: the derivative program `{}` does not fit its signature: {what}",
            dp.function.name
        ),
    )
}

/// The incoming seed of a derivative program: tangents (JVP) or a cotangent (VJP).
#[derive(Debug)]
pub enum Seed<'a, S> {
    /// One tangent per input (`None`: zero).
    Tangents(&'a [Option<Value<S>>]),
    /// The cotangent of the result.
    Cotangent(&'a Value<S>),
}

impl<S> Clone for Seed<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Seed<'_, S> {}

/// What a derivative program's outputs say, unpacked into the reference's result types.
#[derive(Clone, Debug, PartialEq)]
pub struct Unpacked<S> {
    /// The primal value.
    pub value: Value<S>,
    /// The tangent of the result (JVP programs; integer and boolean parts copied from the
    /// value, the reference's convention).
    pub tangent: Option<Value<S>>,
    /// Per input: its cotangent (VJP programs; `None` for inputs without reals).
    pub cotangents: Vec<Option<Value<S>>>,
}

impl<S> Unpacked<S> {
    /// The value and the cotangents as a [`Gradient`].
    pub fn gradient(self) -> Gradient<S> {
        Gradient {
            value: self.value,
            grads: self.cotangents,
        }
    }
}

/// A value of type `ty` with the reals of `src` and the integers and booleans of `like`
/// (`copy`) or zeros.
fn with_reals_of<S: Scalar>(src: &Value<S>, like: &Value<S>, copy: bool) -> Value<S> {
    match (src, like) {
        (Value::Real(t), _) => Value::Real(t.clone()),
        (Value::Tuple(xs), Value::Tuple(ls)) if xs.len() == ls.len() => Value::Tuple(
            xs.iter()
                .zip(ls)
                .map(|(x, l)| with_reals_of(x, l, copy))
                .collect(),
        ),
        (_, l) if copy => l.clone(),
        (_, l) => Value::zeros(&l.ty()),
    }
}

impl DerivativeProgram {
    /// The type of a tangent or cotangent slot for a primal of type `ty`.
    fn slot_type(&self, ty: &Type) -> Option<Type> {
        match self.signature.layout {
            Layout::Full => Some(ty.clone()),
            Layout::Reals => tangent_type(ty),
        }
    }

    fn param_type<'a>(&self, f: &'a Function, k: usize) -> Result<&'a Type> {
        f.params
            .get(k)
            .map(|p| &p.ty)
            .ok_or_else(|| mismatch(self, format!("input {k} does not exist")))
    }

    /// The parameter types the signature demands for the primal function `f`.
    pub fn input_types(&self, f: &Function) -> Result<Vec<Type>> {
        let mut out = Vec::new();
        for i in &self.signature.inputs {
            let ty = match *i {
                Input::Primal(k) => Some(self.param_type(f, k)?.clone()),
                Input::Tangent(k) => self.slot_type(self.param_type(f, k)?),
                Input::Cotangent => self.slot_type(&f.ret),
            };
            out.push(ty.ok_or_else(|| mismatch(self, format!("{i:?} has no tangent type")))?);
        }
        Ok(out)
    }

    /// The output types the signature demands for the primal function `f`.
    pub fn output_types(&self, f: &Function) -> Result<Vec<Type>> {
        let mut out = Vec::new();
        for o in &self.signature.outputs {
            let ty = match *o {
                Output::Value => Some(f.ret.clone()),
                Output::Tangent => self.slot_type(&f.ret),
                Output::Cotangent(k) => self.slot_type(self.param_type(f, k)?),
            };
            out.push(ty.ok_or_else(|| mismatch(self, format!("{o:?} has no tangent type")))?);
        }
        Ok(out)
    }

    /// Re-checks the program: it type-checks as an elaborated core function, and its
    /// parameter and result types are those its signature demands for `f`.
    pub fn check(&self, f: &Function) -> Result<()> {
        adora_core::check::check_function(&self.function)?;
        let want = self.input_types(f)?;
        let got: Vec<Type> = self.function.params.iter().map(|p| p.ty.clone()).collect();
        if got != want {
            return Err(mismatch(
                self,
                format!("parameters {got:?}, the signature says {want:?}"),
            ));
        }
        let outs = self.output_types(f)?;
        let ret = match outs.len() {
            1 => outs[0].clone(),
            _ => Type::Tuple(outs),
        };
        if self.function.ret != ret {
            return Err(mismatch(
                self,
                format!("result {}, the signature says {ret}", self.function.ret),
            ));
        }
        Ok(())
    }

    /// The arguments of the program for `f`'s `inputs` and the seed.
    pub fn arguments<S: Scalar>(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        seed: Seed<'_, S>,
    ) -> Result<Vec<Value<S>>> {
        let slot = |v: &Value<S>, ty: &Type| match self.signature.layout {
            Layout::Full => Some(v.clone()),
            Layout::Reals => tangent_part(v, ty),
        };
        let mut args = Vec::new();
        for i in &self.signature.inputs {
            let arg = match (*i, seed) {
                (Input::Primal(k), _) => inputs.get(k).cloned(),
                (Input::Tangent(k), Seed::Tangents(ts)) => {
                    let ty = self.param_type(f, k)?;
                    let zero = Value::zeros(ty);
                    let t = ts.get(k).and_then(Option::as_ref).unwrap_or(&zero);
                    slot(t, ty)
                }
                (Input::Cotangent, Seed::Cotangent(c)) => slot(c, &f.ret),
                _ => None,
            };
            args.push(arg.ok_or_else(|| mismatch(self, format!("no argument for {i:?}")))?);
        }
        Ok(args)
    }

    /// Unpacks the program's result `out` for `f`'s `inputs` by the signature.
    pub fn unpack<S: Scalar>(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        out: Value<S>,
    ) -> Result<Unpacked<S>> {
        let n = self.signature.outputs.len();
        let parts = match (n, out) {
            (1, v) => vec![v],
            (_, Value::Tuple(vs)) if vs.len() == n => vs,
            (_, v) => {
                return Err(mismatch(
                    self,
                    format!("{n} outputs expected, the program returned {}", v.ty()),
                ))
            }
        };
        let mut value = None;
        let mut tangent = None;
        let mut cts: Vec<Option<Value<S>>> = vec![None; inputs.len()];
        for (o, v) in self.signature.outputs.iter().zip(parts) {
            match *o {
                Output::Value => value = Some(v),
                Output::Tangent => tangent = Some(v),
                Output::Cotangent(k) => match cts.get_mut(k) {
                    Some(slot) => *slot = Some(v),
                    None => return Err(mismatch(self, format!("input {k} does not exist"))),
                },
            }
        }
        let value = value.ok_or_else(|| mismatch(self, "no value output".into()))?;
        let layout = self.signature.layout;
        let tangent = match self.question {
            Question::Jvp => Some(match layout {
                Layout::Reals => from_tangent(tangent.as_ref(), &value, &f.ret, true),
                Layout::Full => match &tangent {
                    Some(t) => with_reals_of(t, &value, true),
                    None => with_reals_of(&Value::zeros(&f.ret), &value, true),
                },
            }),
            Question::Grad | Question::Vjp => None,
        };
        let cotangents = match self.question {
            Question::Jvp => vec![None; inputs.len()],
            Question::Grad | Question::Vjp => inputs
                .iter()
                .zip(&f.params)
                .zip(cts)
                .map(|((x, p), c)| {
                    p.ty.has_reals().then(|| match layout {
                        Layout::Reals => from_tangent(c.as_ref(), x, &p.ty, false),
                        Layout::Full => match &c {
                            Some(g) => with_reals_of(g, x, false),
                            None => Value::zeros(&p.ty),
                        },
                    })
                })
                .collect(),
        };
        Ok(Unpacked {
            value,
            tangent,
            cotangents,
        })
    }
}

/// The all-ones value of type `ty` (reals 1; integers and booleans zero): the cotangent
/// `adora cost` and the cheap-gradient bound use for non-scalar results.
pub fn ones<S: Scalar>(ty: &Type) -> Value<S> {
    match ty {
        Type::Array(adora_core::types::Base::R, s) => {
            Value::Real(Tensor::filled(s.clone(), S::one()))
        }
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(ones).collect()),
        other => Value::zeros(other),
    }
}
