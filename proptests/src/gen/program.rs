//! Whole programs: `main`'s parameters (the inputs), an optional helper `def` that `main`
//! calls, optionally the two instances of a sized helper (`sized_helper`), `main`'s
//! result type, its body, and random input values.

use super::ctx::{Gen, HelperSig, Var, VarKind};
use super::expr::all_real;
use super::mk;
use super::{Case, Fragment, RetKind};
use adora_core::ast::{Def, Expr, ExprKind, Param, Pat, Program};
use adora_core::types::{Base, Type};
use adora_core::Span;
use rand::Rng;

const MAIN_PARAMS: [&str; 3] = ["x", "y", "z"];
const HELPER_PARAMS: [&str; 2] = ["p", "q"];
/// Name of the generated helper `def`.
pub const HELPER: &str = "f";

impl Gen {
    /// A random parameter type for this fragment.
    pub fn param_type(&mut self) -> Type {
        let (n, m) = (self.dim(), self.dim());
        let k = self.dim();
        let r = Type::real();
        let table: Vec<(u32, Type)> = match self.frag() {
            Fragment::Scalar => vec![
                (8, r),
                (2, Type::int()),
                (1, Type::Tuple(vec![Type::real(), Type::real()])),
            ],
            Fragment::Bulk => vec![
                (3, r),
                (4, Type::Array(Base::R, vec![n])),
                (3, Type::Array(Base::R, vec![n, m])),
                (1, Type::Array(Base::R, vec![n, m, k])),
                (1, Type::int()),
                (1, Type::Array(Base::Z, vec![n])),
                (
                    1,
                    Type::Tuple(vec![Type::real(), Type::Array(Base::R, vec![m])]),
                ),
            ],
            Fragment::Soac => vec![
                (3, r),
                (5, Type::Array(Base::R, vec![n])),
                (2, Type::Array(Base::R, vec![n, m])),
                (1, Type::int()),
                (1, Type::Array(Base::Z, vec![n])),
                (
                    1,
                    Type::Tuple(vec![Type::real(), Type::Array(Base::R, vec![m])]),
                ),
            ],
        };
        self.weighted(&table)
    }

    /// A result type of the kind `ret`.
    pub fn result_type(&mut self, ret: RetKind) -> Type {
        let max_rank = match self.frag() {
            Fragment::Scalar => 0,
            Fragment::Bulk => 3,
            Fragment::Soac => 2,
        };
        match ret {
            RetKind::RealScalar => Type::real(),
            RetKind::RealArray => self.real_type(max_rank),
            RetKind::Real => {
                if self.chance(0.15) {
                    Type::Tuple(vec![
                        self.real_type(max_rank.min(1)),
                        self.real_type(max_rank.min(1)),
                    ])
                } else {
                    self.real_type(max_rank)
                }
            }
            RetKind::Any => {
                let k = self.weighted(&[(11, 0), (5, 1), (3, 2), (1, 3)]);
                match k {
                    0 => Type::real(),
                    1 if max_rank > 0 => {
                        let rank = self.urange(1, max_rank);
                        Type::Array(Base::R, self.shape(rank))
                    }
                    2 | 1 => {
                        let n = self.urange(2, 3);
                        Type::Tuple((0..n).map(|_| self.tuple_component(max_rank)).collect())
                    }
                    _ => self.pick(&[Type::int(), Type::bool()]),
                }
            }
        }
    }

    /// Generates a whole case: program and inputs.
    pub fn program(&mut self) -> Case {
        let size = self.spec.size.max(2) as usize;
        let mut defs = Vec::new();
        // main's parameters: at least one containing reals.
        let count = self.weighted(&[(3, 1usize), (4, 2), (2, 3)]);
        let mut ptypes = Vec::new();
        for k in 0..count {
            let mut t = self.param_type();
            while k == 0 && !t.has_reals() {
                t = self.param_type();
            }
            ptypes.push(t);
        }
        if self.chance(0.35) {
            defs.push(self.helper_def(size));
        }
        let ret = self.result_type(self.spec.ret);
        let params: Vec<Param> = MAIN_PARAMS
            .iter()
            .zip(&ptypes)
            .map(|(n, t)| Param {
                name: n.to_string(),
                ty: t.clone(),
                span: Span::DUMMY,
            })
            .collect();
        let vars = params
            .iter()
            .map(|p| Var {
                name: p.name.clone(),
                ty: p.ty.clone(),
                kind: VarKind::Input,
            })
            .collect();
        let sized = self.sized_helper_calls(&params);
        self.in_main = true;
        let body = match sized {
            None => self.with_vars(vars, |g| g.main_body(&ret, size)),
            Some((instances, locals, calls)) => {
                defs.extend(instances);
                let mut vars: Vec<Var> = vars;
                vars.extend(locals.iter().cloned());
                let body = self.with_vars(vars, |g| g.main_body(&ret, size));
                super::sized_helper::bind_calls(&locals, calls, body)
            }
        };
        self.in_main = false;
        let inputs = ptypes.iter().map(|t| self.input_value(t)).collect();
        defs.push(def("main", params, ret, body));
        let aux = self.rng.gen();
        Case {
            fragment: self.frag(),
            program: Program {
                defs,
                templates: Vec::new(),
            },
            inputs,
            aux,
        }
    }

    fn main_body(&mut self, ret: &Type, size: usize) -> Expr {
        let Some(h) = self.helper.clone() else {
            return self.expr(ret, size);
        };
        if !self.chance(0.6) || size < 6 {
            return self.expr(ret, size);
        }
        // let t = f(args) in body
        let parts = self.split(size - 1, 2);
        let arg_budgets = self.split(parts[0].saturating_sub(1).max(1), h.params.len());
        let args = h
            .params
            .iter()
            .zip(arg_budgets)
            .map(|(t, b)| self.expr(t, b))
            .collect();
        let call = mk::node(ExprKind::Call(h.name.clone(), args));
        let name = self.fresh("t");
        let var = Var {
            name: name.clone(),
            ty: h.ret.clone(),
            kind: VarKind::Local,
        };
        let body = self.with_vars(vec![var], |g| g.expr(ret, parts[1]));
        mk::let_(Pat::Var(name), call, body)
    }

    fn helper_def(&mut self, size: usize) -> Def {
        let count = self.weighted(&[(3, 1usize), (2, 2)]);
        let ptypes: Vec<Type> = (0..count).map(|_| self.param_type()).collect();
        let ret = if self.chance(0.7) {
            self.real_type(if self.frag() == Fragment::Scalar {
                0
            } else {
                2
            })
        } else {
            self.value_type()
        };
        let ret = if all_real(&ret) || self.chance(0.5) {
            ret
        } else {
            Type::real()
        };
        let params: Vec<Param> = HELPER_PARAMS
            .iter()
            .zip(&ptypes)
            .map(|(n, t)| Param {
                name: n.to_string(),
                ty: t.clone(),
                span: Span::DUMMY,
            })
            .collect();
        let vars = params
            .iter()
            .map(|p| Var {
                name: p.name.clone(),
                ty: p.ty.clone(),
                kind: VarKind::Param,
            })
            .collect();
        let body = self.with_vars(vars, |g| g.expr(&ret, (size / 3).max(3)));
        self.helper = Some(HelperSig {
            name: HELPER.to_string(),
            params: ptypes,
            ret: ret.clone(),
        });
        def(HELPER, params, ret, body)
    }
}

/// A `def` without source positions.
pub fn def(name: &str, params: Vec<Param>, ret: Type, body: Expr) -> Def {
    Def {
        name: name.to_string(),
        params,
        ret,
        body,
        span: Span::DUMMY,
        name_span: Span::DUMMY,
    }
}
