//! Scalar expressions as CUDA C statements (docs/backend.md, "CUDA"): every node becomes
//! a `const double` temporary, a selection an `if`, a fold a `for` loop.

use crate::plan::sx::{Bin, Sx, Un};
use std::collections::HashMap;
use std::fmt::Write;

/// The statement writer of one kernel.
pub struct Writer {
    /// The statements so far.
    pub out: String,
    next: usize,
    /// Kernel variable → C name.
    pub env: HashMap<u32, String>,
    /// Current indentation (two spaces each).
    pub indent: usize,
}

/// A double as a C literal that reads back exactly.
pub fn lit(x: f64) -> String {
    if x.is_nan() {
        "NAN".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "INFINITY".into()
        } else {
            "(-INFINITY)".into()
        }
    } else {
        let s = format!("{x:?}");
        if x < 0.0 {
            format!("({s})")
        } else {
            s
        }
    }
}

/// A unary operation as a C expression of `a` (the scalar conventions of
/// docs/language.md; `adora_pow_r`, `adora_pow_z` from the prelude). With `lanes`, `a`
/// is an `adora_vd` of the compiled kernels (docs/backend.md, "Compiled kernels") and so
/// is the result: each function is its per-lane helper `adora_vNAME`, a comparison's
/// mask becomes `1.0`/`0.0` by `adora_vbool`.
pub(crate) fn un_of(op: Un, a: &str, lanes: bool) -> String {
    let f = |name: &str| {
        if lanes {
            format!("adora_v{name}({a})")
        } else {
            format!("{name}({a})")
        }
    };
    match op {
        Un::Neg => format!("(-{a})"),
        Un::Not if lanes => format!("adora_vbool({a} == ADORA_VD(0.0))"),
        Un::Not => format!("({a} == 0.0 ? 1.0 : 0.0)"),
        Un::Exp => f("exp"),
        Un::Log => f("log"),
        Un::Sin => f("sin"),
        Un::Cos => f("cos"),
        Un::Tanh => f("tanh"),
        Un::Sqrt => f("sqrt"),
        Un::Abs => f("fabs"),
        Un::Floor => f("floor"),
        Un::PowR(k) => format!("adora_{}pow_r({a}, {k}LL)", if lanes { "v" } else { "" }),
        Un::PowZ(k) => format!("adora_{}pow_z({a}, {k}LL)", if lanes { "v" } else { "" }),
    }
}

/// [`un_of`] on scalars.
pub(crate) fn un(op: Un, a: &str) -> String {
    un_of(op, a, false)
}

/// A binary operation as a C expression of `a` and `b` (comparisons give `1.0`/`0.0`;
/// `adora_min`, `adora_max`, `adora_div_z`, `adora_mod_z` from the prelude). With
/// `lanes`, on `adora_vd`s, as [`un_of`].
pub(crate) fn bin_of(op: Bin, a: &str, b: &str, lanes: bool) -> String {
    let v = if lanes { "v" } else { "" };
    let cmp = |o: &str| {
        if lanes {
            format!("adora_vbool({a} {o} {b})")
        } else {
            format!("({a} {o} {b} ? 1.0 : 0.0)")
        }
    };
    let logic = |o: &str| {
        if lanes {
            format!("adora_vbool(adora_vtrue({a}) {o} adora_vtrue({b}))")
        } else {
            format!("({a} != 0.0 {o}{o} {b} != 0.0 ? 1.0 : 0.0)")
        }
    };
    match op {
        Bin::Add => format!("({a} + {b})"),
        Bin::Sub => format!("({a} - {b})"),
        Bin::Mul => format!("({a} * {b})"),
        Bin::DivR => format!("({a} / {b})"),
        Bin::DivZ => format!("adora_{v}div_z({a}, {b})"),
        Bin::ModZ => format!("adora_{v}mod_z({a}, {b})"),
        Bin::Eq => cmp("=="),
        Bin::Ne => cmp("!="),
        Bin::Lt => cmp("<"),
        Bin::Le => cmp("<="),
        Bin::Gt => cmp(">"),
        Bin::Ge => cmp(">="),
        Bin::And => logic("&"),
        Bin::Or => logic("|"),
        Bin::Min => format!("adora_{v}min({a}, {b})"),
        Bin::Max => format!("adora_{v}max({a}, {b})"),
    }
}

/// [`bin_of`] on scalars.
pub(crate) fn bin(op: Bin, a: &str, b: &str) -> String {
    bin_of(op, a, b, false)
}

impl Writer {
    /// A writer at indentation `indent`.
    pub fn new(indent: usize) -> Writer {
        Writer {
            out: String::new(),
            next: 0,
            env: HashMap::new(),
            indent,
        }
    }

    /// A fresh C name.
    pub fn fresh(&mut self, stem: &str) -> String {
        self.next += 1;
        format!("{stem}{}", self.next)
    }

    /// Appends one line.
    pub fn line(&mut self, s: &str) {
        let _ = writeln!(self.out, "{}{s}", "  ".repeat(self.indent));
    }

    /// `const double NAME = value;`, returning NAME.
    fn bind(&mut self, value: String) -> String {
        let t = self.fresh("t");
        self.line(&format!("const double {t} = {value};"));
        t
    }

    /// Binds a kernel variable to a C name.
    pub fn var(&mut self, v: u32, name: &str) {
        self.env.insert(v, name.to_string());
    }

    /// Emits the statements of `s` and returns the C expression (a name or literal) of
    /// its value.
    pub fn expr(&mut self, s: &Sx) -> String {
        match s {
            Sx::Const(c) => lit(*c),
            Sx::Var(v) => self.env.get(v).cloned().unwrap_or_else(|| "NAN".into()),
            Sx::Load(b, shape, ix) => {
                let is: Vec<String> = ix.iter().map(|i| self.expr(i)).collect();
                if shape.is_empty() {
                    return self.bind(format!("B[{b}][0]"));
                }
                let mut cond = Vec::new();
                let mut flat = String::new();
                for (k, (i, n)) in is.iter().zip(shape).enumerate() {
                    cond.push(format!("{i} >= 0.0 && {i} < {n}.0"));
                    flat = if k == 0 {
                        format!("(long long){i}")
                    } else {
                        format!("({flat}) * {n}LL + (long long){i}")
                    };
                }
                self.bind(format!("({}) ? B[{b}][{flat}] : 0.0", cond.join(" && ")))
            }
            Sx::Un(op, a) => {
                let a = self.expr(a);
                self.bind(un(*op, &a))
            }
            Sx::Bin(op, a, b) => {
                let a = self.expr(a);
                let b = self.expr(b);
                self.bind(bin(*op, &a, &b))
            }
            Sx::Select(c, a, b) => {
                let c = self.expr(c);
                let t = self.fresh("s");
                self.line(&format!("double {t};"));
                self.line(&format!("if ({c} != 0.0) {{"));
                self.indent += 1;
                let a = self.expr(a);
                self.line(&format!("{t} = {a};"));
                self.indent -= 1;
                self.line("} else {");
                self.indent += 1;
                let b = self.expr(b);
                self.line(&format!("{t} = {b};"));
                self.indent -= 1;
                self.line("}");
                t
            }
            Sx::Let(v, a, b) => {
                let a = self.expr(a);
                let name = self.bind(a);
                let old = self.env.insert(*v, name);
                let r = self.expr(b);
                match old {
                    Some(o) => self.env.insert(*v, o),
                    None => self.env.remove(v),
                };
                r
            }
            Sx::Fold {
                var,
                count,
                acc,
                init,
                body,
            } => {
                let init = self.expr(init);
                let a = self.fresh("acc");
                let c = self.fresh("c");
                let cv = self.fresh("i");
                self.line(&format!("double {a} = {init};"));
                self.line(&format!(
                    "for (long long {c} = 0; {c} < {count}LL; ++{c}) {{"
                ));
                self.indent += 1;
                self.line(&format!("const double {cv} = (double){c};"));
                let (ov, oa) = (self.env.insert(*var, cv), self.env.insert(*acc, a.clone()));
                let r = self.expr(body);
                self.line(&format!("{a} = {r};"));
                for (k, o) in [(*var, ov), (*acc, oa)] {
                    match o {
                        Some(o) => self.env.insert(k, o),
                        None => self.env.remove(&k),
                    };
                }
                self.indent -= 1;
                self.line("}");
                a
            }
        }
    }
}
