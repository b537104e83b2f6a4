//! The body of an exported program: an elaborated function as Python statements that call
//! the target's runtime (`_add`, `_index`, `_build`, …; docs/oracle.md, "Export"). The
//! same statements serve JAX and PyTorch: only the runtime prelude differs
//! ([`super::jax`], [`super::pytorch`]).
//!
//! Every node is evaluated into a fresh temporary (`t12 = …`) in the order the evaluator
//! evaluates it; lambda bodies (of `build`, `map`, `gather`, `scatter`, `reduce`, `scan`,
//! `reduce_by_index`) become nested `def`s, `if` a Python `if` (lazy, as in the
//! language), `loop` a Python `for`. Names are mangled injectively (`v_` prefix, `_` to
//! `__`, `'` to `_q`), so no binder can clash with a temporary or the runtime.

use adora_core::ast::{
    BinOp, Expr, ExprKind, Function, Lambda, Lit, NonFinite, Op, Pat, Prim, UnOp,
};
use adora_core::check::NodeTypes;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::{Base, Type};

/// Emits the Python function `program(...)` for `f`, whose node types are `types`.
pub fn program(f: &Function, types: &NodeTypes) -> Result<String> {
    let mut e = Emitter {
        types,
        lines: Vec::new(),
        indent: 1,
        next: 0,
    };
    let params: Vec<String> = f.params.iter().map(|p| name(&p.name)).collect();
    let result = e.expr(&f.body)?;
    e.line(format!("return {result}"));
    let mut out = format!("def program({}):\n", params.join(", "));
    for l in &e.lines {
        out.push_str(l);
        out.push('\n');
    }
    Ok(out)
}

/// The Python name of a program name: injective, and never a Python keyword, a
/// temporary (`t…`, `f…`) or a runtime function (`_…`).
pub fn name(n: &str) -> String {
    format!("v_{}", n.replace('_', "__").replace('\'', "_q"))
}

/// A base type as the runtime spells it.
fn base(b: Base) -> &'static str {
    match b {
        Base::R => "'R'",
        Base::Z => "'Z'",
        Base::B => "'B'",
    }
}

/// A shape as a Python tuple.
fn shape(s: &[usize]) -> String {
    match s {
        [] => "()".to_string(),
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            s.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

struct Emitter<'t> {
    types: &'t NodeTypes,
    lines: Vec<String>,
    indent: usize,
    next: usize,
}

impl Emitter<'_> {
    fn line(&mut self, s: String) {
        self.lines
            .push(format!("{}{}", "    ".repeat(self.indent), s));
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    /// `t = code`, returning `t`.
    fn bind(&mut self, code: String) -> String {
        let t = self.fresh("t");
        self.line(format!("{t} = {code}"));
        t
    }

    /// The static type of `e` as an array (base, shape); an internal error otherwise.
    fn array_type(&self, e: &Expr) -> Result<(Base, Vec<usize>)> {
        match self.types.get(e) {
            Some(Type::Array(b, s)) => Ok((*b, s.clone())),
            other => Err(Diagnostic::new(
                ErrorKind::Internal,
                e.span,
                format!("export: no array type for this node ({other:?})"),
            )),
        }
    }

    /// Emits a nested `def` with `params` whose body is `body`; returns its name.
    fn lambda(&mut self, params: &[String], body: &Expr) -> Result<String> {
        let f = self.fresh("f");
        self.line(format!("def {f}({}):", params.join(", ")));
        self.indent += 1;
        let r = self.expr(body)?;
        self.line(format!("return {r}"));
        self.indent -= 1;
        Ok(f)
    }

    /// A binary operator of `reduce`/`scan`/`reduce_by_index` as a runtime value.
    fn op(&mut self, op: &Op) -> Result<String> {
        Ok(match op {
            Op::Add => "'add'".to_string(),
            Op::Mul => "'mul'".to_string(),
            Op::Min => "'min'".to_string(),
            Op::Max => "'max'".to_string(),
            Op::Lambda(Lambda { params, body }) => {
                let ps: Vec<String> = params.iter().map(|p| name(p)).collect();
                self.lambda(&ps, body)?
            }
        })
    }

    fn list(&mut self, es: &[Expr]) -> Result<String> {
        let vs = es
            .iter()
            .map(|e| self.expr(e))
            .collect::<Result<Vec<_>>>()?;
        Ok(format!("[{}]", vs.join(", ")))
    }

    fn pattern(p: &Pat) -> String {
        match p {
            Pat::Var(v) => name(v),
            Pat::Tuple(vs) => {
                let ns: Vec<String> = vs.iter().map(|v| name(v)).collect();
                format!("({},)", ns.join(", "))
            }
        }
    }

    /// Emits the statements computing `e`; returns the Python atom holding its value.
    fn expr(&mut self, e: &Expr) -> Result<String> {
        match &e.kind {
            ExprKind::Var(v) => Ok(name(v)),
            ExprKind::Lit(l) => Ok(match l {
                Lit::Int(n) => format!("_int({n})"),
                Lit::Real(r) => format!("_real('{r}')"),
                Lit::Bool(b) => format!("_bool({})", if *b { "True" } else { "False" }),
                Lit::NonFinite(NonFinite::Inf) => "_real('inf')".to_string(),
                Lit::NonFinite(NonFinite::NaN) => "_real('nan')".to_string(),
            }),
            ExprKind::Array(es) => {
                let l = self.list(es)?;
                Ok(self.bind(format!("_stack({l})")))
            }
            ExprKind::Tuple(es) => {
                let vs = es
                    .iter()
                    .map(|e| self.expr(e))
                    .collect::<Result<Vec<_>>>()?;
                Ok(self.bind(format!("({},)", vs.join(", "))))
            }
            ExprKind::Proj(t, k) => {
                let t = self.expr(t)?;
                Ok(self.bind(format!("{t}[{k}]")))
            }
            ExprKind::Let(p, v, b) => {
                let v = self.expr(v)?;
                self.line(format!("{} = {v}", Self::pattern(p)));
                self.expr(b)
            }
            ExprKind::If(c, a, b) => {
                let c = self.expr(c)?;
                let t = self.fresh("t");
                self.line(format!("if _truth({c}):"));
                self.indent += 1;
                let a = self.expr(a)?;
                self.line(format!("{t} = {a}"));
                self.indent -= 1;
                self.line("else:".to_string());
                self.indent += 1;
                let b = self.expr(b)?;
                self.line(format!("{t} = {b}"));
                self.indent -= 1;
                Ok(t)
            }
            ExprKind::Unary(op, a) => {
                let a = self.expr(a)?;
                let f = match op {
                    UnOp::Neg => "_neg",
                    UnOp::Not => "_not",
                };
                Ok(self.bind(format!("{f}({a})")))
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                let f = match op {
                    BinOp::Add => "_add",
                    BinOp::Sub => "_sub",
                    BinOp::Mul => "_mul",
                    BinOp::Div => "_div",
                    BinOp::Mod => "_mod",
                    BinOp::Eq => "_eq",
                    BinOp::Ne => "_ne",
                    BinOp::Lt => "_lt",
                    BinOp::Le => "_le",
                    BinOp::Gt => "_gt",
                    BinOp::Ge => "_ge",
                    BinOp::And => "_and",
                    BinOp::Or => "_or",
                };
                Ok(self.bind(format!("{f}({a}, {b})")))
            }
            ExprKind::Call(f, _) => Err(Diagnostic::new(
                ErrorKind::Unsupported,
                e.span,
                format!("`export` does not export the call of `{f}`: calls are inlined first"),
            )),
            ExprKind::Prim(p, args) => self.prim(p, args),
            ExprKind::Index(x, is) => {
                let x = self.expr(x)?;
                let l = self.list(is)?;
                Ok(self.bind(format!("_index({x}, {l})")))
            }
            ExprKind::Build(sh, binders, body) => {
                let (b, full) = self.array_type(e)?;
                let ps: Vec<String> = binders.iter().map(|v| name(v)).collect();
                let f = self.lambda(&ps, body)?;
                Ok(self.bind(format!(
                    "_build({}, {f}, {}, {})",
                    shape(sh),
                    base(b),
                    shape(&full)
                )))
            }
            ExprKind::Gather(sh, x, binders, ix) => {
                let (b, full) = self.array_type(e)?;
                let x = self.expr(x)?;
                let ps: Vec<String> = binders.iter().map(|v| name(v)).collect();
                let f = self.fresh("f");
                self.line(format!("def {f}({}):", ps.join(", ")));
                self.indent += 1;
                let l = self.list(ix)?;
                self.line(format!("return _index({x}, {l})"));
                self.indent -= 1;
                Ok(self.bind(format!(
                    "_build({}, {f}, {}, {})",
                    shape(sh),
                    base(b),
                    shape(&full)
                )))
            }
            ExprKind::Scatter(_, x, binders, ix) => {
                let (b, full) = self.array_type(e)?;
                let x = self.expr(x)?;
                let ps: Vec<String> = binders.iter().map(|v| name(v)).collect();
                let f = self.fresh("f");
                self.line(format!("def {f}({}):", ps.join(", ")));
                self.indent += 1;
                let l = self.list(ix)?;
                self.line(format!("return {l}"));
                self.indent -= 1;
                Ok(self.bind(format!(
                    "_scatter({x}, {}, {f}, {}, {})",
                    binders.len(),
                    base(b),
                    shape(&full)
                )))
            }
            ExprKind::Map(Lambda { params, body }, xs) => {
                let (b, full) = self.array_type(e)?;
                let l = self.list(xs)?;
                let ps: Vec<String> = params.iter().map(|v| name(v)).collect();
                let f = self.lambda(&ps, body)?;
                Ok(self.bind(format!("_map({f}, {l}, {}, {})", base(b), shape(&full))))
            }
            ExprKind::Reduce(op, ne, xs) => {
                let ne = self.expr(ne)?;
                let xs = self.expr(xs)?;
                let op = self.op(op)?;
                Ok(self.bind(format!("_reduce({op}, {ne}, {xs})")))
            }
            ExprKind::Scan(op, ne, xs) => {
                let ne = self.expr(ne)?;
                let xs = self.expr(xs)?;
                let op = self.op(op)?;
                Ok(self.bind(format!("_scan({op}, {ne}, {xs})")))
            }
            ExprKind::ReduceByIndex {
                dest,
                op,
                ne: _,
                is,
                vs,
            } => {
                let d = self.expr(dest)?;
                let is = self.expr(is)?;
                let vs = self.expr(vs)?;
                let op = self.op(op)?;
                Ok(self.bind(format!("_reduce_by_index({d}, {op}, {is}, {vs})")))
            }
            ExprKind::ScatterInto { dest, is, vs } => {
                let d = self.expr(dest)?;
                let is = self.expr(is)?;
                let vs = self.expr(vs)?;
                Ok(self.bind(format!("_scatter_into({d}, {is}, {vs})")))
            }
            ExprKind::Loop {
                acc,
                init,
                var,
                count,
                body,
            } => {
                let init = self.expr(init)?;
                let p = Self::pattern(acc);
                self.line(format!("{p} = {init}"));
                let i = self.fresh("i");
                self.line(format!("for {i} in range({count}):"));
                self.indent += 1;
                self.line(format!("{} = _int({i})", name(var)));
                let r = self.expr(body)?;
                self.line(format!("{p} = {r}"));
                self.indent -= 1;
                Ok(self.bind(p))
            }
        }
    }

    fn prim(&mut self, p: &Prim, args: &[Expr]) -> Result<String> {
        let vs = args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Result<Vec<_>>>()?;
        let a = vs.join(", ");
        let code = match p {
            Prim::Exp | Prim::Log | Prim::Sin | Prim::Cos | Prim::Tanh | Prim::Sqrt => {
                format!("_{}({a})", p.name())
            }
            Prim::Abs => format!("_abs({a})"),
            Prim::Floor => format!("_floor({a})"),
            Prim::Real => format!("_to_real({a})"),
            Prim::Min => format!("_min({a})"),
            Prim::Max => format!("_max({a})"),
            Prim::Pow(k) => format!("_pow({a}, {k})"),
            Prim::Select => format!("_select({a})"),
            Prim::Sum => format!("_sum({a})"),
            Prim::SumOuter => format!("_sum_outer({a})"),
            Prim::Replicate(n) => format!("_replicate({n}, {a})"),
            Prim::Transpose(perm) => format!("_transpose({}, {a})", shape(perm)),
            Prim::Reshape(sh) => format!("_reshape({}, {a})", shape(sh)),
            Prim::Iota(n) => format!("_iota({n})"),
            Prim::Append => format!("_append({a})"),
            Prim::Stack => format!("_stack([{a}])"),
        };
        Ok(self.bind(code))
    }
}
