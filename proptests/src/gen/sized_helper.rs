//! A helper `def` with a size parameter called at two sizes (docs/language.md, "Helpers
//! with size parameters"). Some bulk programs get one: `main` binds
//! `let s1 = sz_a(x) in let s2 = sz_b(append(x, x)) in …` for a real vector input `x`,
//! where `sz_a` and `sz_b` are the instances of one helper of [`TEMPLATES`] at the two
//! lengths, made by `adora_core`'s own instantiation. The generated program holds the
//! literal instances; a case given with size parameters ([`super::Case::sized_source`])
//! prints the helper once, as written, and calls it at both sizes — and loading that text
//! must give exactly the function of the generated program.

use super::ctx::{Gen, Var, VarKind};
use super::mk;
use super::Fragment;
use adora_core::ast::{Def, ExprKind, Param, Pat, Prim, Program};
use adora_core::sizes::Sizes;
use adora_core::types::{Base, Type};
use adora_core::visit::children_mut;
use adora_core::Expr;

/// The helpers, each `def sz(v: R[n]) -> R`, valid at every `n >= 1`.
pub const TEMPLATES: [&str; 4] = [
    "def sz(v: R[n]) -> R = sum(v * v)",
    "def sz(v: R[n]) -> R = sum(v) / real(n)",
    "def sz(v: R[n]) -> R = v[0] * v[n - 1]",
    "def sz(v: R[n]) -> R = sum(build n (i => v[i] * v[n - 1 - i]))",
];

/// The index of the template that divides by its size.
const MEAN: usize = 1;

/// The helper's name in the printed source.
const NAME: &str = "sz";
/// The names of its two instances in generated programs.
pub const INSTANCES: [&str; 2] = ["sz_a", "sz_b"];

/// The template `k` instantiated at `n`, named `name`.
fn instance(k: usize, n: usize, name: &str) -> Option<Def> {
    let p = adora_core::parse(TEMPLATES[k]).ok()?;
    let sizes: Sizes = [("n".to_string(), n)].into_iter().collect();
    let mut d = p.templates.first()?.instantiate(&sizes).ok()?;
    d.name = name.to_string();
    Some(d)
}

/// The length of `d`'s single `R[n]` parameter.
fn length(d: &Def) -> Option<usize> {
    match d.params.as_slice() {
        [Param {
            ty: Type::Array(Base::R, s),
            ..
        }] if s.len() == 1 => Some(s[0]),
        _ => None,
    }
}

impl Gen {
    /// For some bulk programs whose inputs `params` include a non-empty real vector `x`:
    /// the two instances of a helper, and the local bindings `(name, call)` that call
    /// them on `x` and on `append(x, x)` (two different lengths).
    pub fn sized_helper_calls(
        &mut self,
        params: &[Param],
    ) -> Option<(Vec<Def>, Vec<Var>, Vec<Expr>)> {
        if self.frag() != Fragment::Bulk || !self.chance(0.15) {
            return None;
        }
        let vectors: Vec<(&str, usize)> = params
            .iter()
            .filter_map(|p| match &p.ty {
                Type::Array(Base::R, s) if s.len() == 1 && s[0] >= 1 => {
                    Some((p.name.as_str(), s[0]))
                }
                _ => None,
            })
            .collect();
        if vectors.is_empty() {
            return None;
        }
        let (x, n) = self.pick(&vectors);
        // A program exactly computable in f64 divides by 2, 4 and 1/2 only: no mean.
        let mut k = self.urange(0, TEMPLATES.len() - 1);
        if self.spec.f64_exact && k == MEAN {
            k = 0;
        }
        let defs = vec![
            instance(k, n, INSTANCES[0])?,
            instance(k, 2 * n, INSTANCES[1])?,
        ];
        let args = [
            mk::var(x),
            mk::prim(Prim::Append, vec![mk::var(x), mk::var(x)]),
        ];
        let mut vars = Vec::new();
        let mut calls = Vec::new();
        for (inst, arg) in INSTANCES.iter().zip(args) {
            vars.push(Var {
                name: self.fresh("s"),
                ty: Type::real(),
                kind: VarKind::Local,
            });
            calls.push(mk::node(ExprKind::Call(inst.to_string(), vec![arg])));
        }
        Some((defs, vars, calls))
    }
}

/// `body` under `let v1 = c1 in let v2 = c2 in …`.
pub fn bind_calls(vars: &[Var], calls: Vec<Expr>, body: Expr) -> Expr {
    vars.iter().zip(calls).rev().fold(body, |acc, (v, c)| {
        mk::let_(Pat::Var(v.name.clone()), c, acc)
    })
}

/// When `p` holds both instances of one template (unchanged by shrinking): that template's
/// text.
pub fn template_of(p: &Program) -> Option<&'static str> {
    let find = |n: &str| p.defs.iter().find(|d| d.name == n);
    let (a, b) = (find(INSTANCES[0])?, find(INSTANCES[1])?);
    let (na, nb) = (length(a)?, length(b)?);
    (0..TEMPLATES.len())
        .find(|&k| {
            instance(k, na, INSTANCES[0]).as_ref() == Some(a)
                && instance(k, nb, INSTANCES[1]).as_ref() == Some(b)
        })
        .map(|k| TEMPLATES[k])
}

/// `d` with its calls of the instances calling the helper by its own name.
pub fn calling_the_helper(d: &Def) -> Def {
    fn go(e: &mut Expr) {
        if let ExprKind::Call(f, _) = &mut e.kind {
            if INSTANCES.contains(&f.as_str()) {
                *f = NAME.to_string();
            }
        }
        for c in children_mut(e) {
            go(c);
        }
    }
    let mut d = d.clone();
    go(&mut d.body);
    d
}
