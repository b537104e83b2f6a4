//! Scalar expressions as C statements, for CUDA (docs/backend.md, "CUDA") and for the CPU
//! executor's compiled kernels (docs/backend.md, "Compiled kernels"): every node becomes
//! a `const double` temporary, a selection an `if`, a fold a `for` loop.
//!
//! With [`Writer::integers`] (the compiled kernels) index variables and fold counters also
//! have `long long` names with known extents, and an index expression built from them
//! and integral constants by `+ - *` (and `div_z`/`mod_z` by a positive constant of a
//! non-negative operand) is computed in integers; a load whose indices are provably
//! inside their dimensions reads without a test, others test bounds (and integrality,
//! as the lanes do) and read 0 outside.

use crate::plan::sx::{Bin, Sx, Un};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

/// Largest integer magnitude an integer index expression may reach (exact as a double
/// and far from `long long` overflow).
const INT_LIMIT: i128 = 1 << 50;

/// The integer side of a writer: `long long` names and extents of variables, and the
/// buffers read.
#[derive(Default)]
pub struct Ints {
    /// Kernel variable → (C name of its `long long` value, its least and greatest
    /// values).
    pub vars: HashMap<u32, (String, i128, i128)>,
    /// Buffers read by name `bN` (declared by the caller).
    pub read: BTreeSet<usize>,
    /// Buffers whose loads read 0 (they share the output's memory slot: the lanes read
    /// an empty slice for them).
    pub zero: BTreeSet<usize>,
}

/// The statement writer of one kernel.
pub struct Writer {
    /// The statements so far.
    pub out: String,
    next: usize,
    /// Kernel variable → C name.
    pub env: HashMap<u32, String>,
    /// Current indentation (two spaces each).
    pub indent: usize,
    /// Integer index arithmetic and named buffers (compiled kernels), or `None` (CUDA:
    /// `B[n][…]` with a bounds test on every load).
    pub ints: Option<Ints>,
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

fn un(op: Un, a: &str) -> String {
    match op {
        Un::Neg => format!("(-{a})"),
        Un::Not => format!("({a} == 0.0 ? 1.0 : 0.0)"),
        Un::Exp => format!("exp({a})"),
        Un::Log => format!("log({a})"),
        Un::Sin => format!("sin({a})"),
        Un::Cos => format!("cos({a})"),
        Un::Tanh => format!("tanh({a})"),
        Un::Sqrt => format!("sqrt({a})"),
        Un::Abs => format!("fabs({a})"),
        Un::Floor => format!("floor({a})"),
        Un::PowR(k) => format!("adora_pow_r({a}, {k}LL)"),
        Un::PowZ(k) => format!("adora_pow_z({a}, {k}LL)"),
    }
}

fn bin(op: Bin, a: &str, b: &str) -> String {
    let cmp = |o: &str| format!("({a} {o} {b} ? 1.0 : 0.0)");
    match op {
        Bin::Add => format!("({a} + {b})"),
        Bin::Sub => format!("({a} - {b})"),
        Bin::Mul => format!("({a} * {b})"),
        Bin::DivR => format!("({a} / {b})"),
        Bin::DivZ => format!("adora_div_z({a}, {b})"),
        Bin::ModZ => format!("adora_mod_z({a}, {b})"),
        Bin::Eq => cmp("=="),
        Bin::Ne => cmp("!="),
        Bin::Lt => cmp("<"),
        Bin::Le => cmp("<="),
        Bin::Gt => cmp(">"),
        Bin::Ge => cmp(">="),
        Bin::And => format!("({a} != 0.0 && {b} != 0.0 ? 1.0 : 0.0)"),
        Bin::Or => format!("({a} != 0.0 || {b} != 0.0 ? 1.0 : 0.0)"),
        Bin::Min => format!("adora_min({a}, {b})"),
        Bin::Max => format!("adora_max({a}, {b})"),
    }
}

/// Nodes of a selection's branch that the compiled kernels evaluate unconditionally.
const BRANCHLESS: usize = 24;

/// Whether a branch is small and has no fold (cheap to evaluate on both sides).
fn branchless(s: &Sx) -> bool {
    let mut n = 0;
    let mut fold = false;
    s.visit(&mut |x| {
        n += 1;
        fold |= matches!(
            x,
            Sx::Fold { .. } | Sx::Un(Un::Exp | Un::Log | Un::Sin | Un::Cos | Un::Tanh, _)
        );
    });
    !fold && n <= BRANCHLESS
}

impl Writer {
    /// A writer at indentation `indent`.
    pub fn new(indent: usize) -> Writer {
        Writer {
            out: String::new(),
            next: 0,
            env: HashMap::new(),
            indent,
            ints: None,
        }
    }

    /// A writer with integer index arithmetic and named buffers (module documentation).
    pub fn integers(indent: usize, zero: BTreeSet<usize>) -> Writer {
        Writer {
            ints: Some(Ints {
                zero,
                ..Ints::default()
            }),
            ..Writer::new(indent)
        }
    }

    /// Binds kernel variable `v` to the double `name` and the integer `int` of values
    /// `0..extent`.
    pub fn int_var(&mut self, v: u32, name: &str, int: &str, extent: usize) {
        self.var(v, name);
        if let Some(i) = &mut self.ints {
            if extent > 0 {
                i.vars.insert(v, (int.to_string(), 0, extent as i128 - 1));
            }
        }
    }

    /// `s` as an integer expression with its range, when it is built from integer
    /// variables and integral constants by `+ - *`, or `div_z`/`mod_z` of a non-negative
    /// operand by a positive constant.
    fn int_expr(&self, s: &Sx) -> Option<(String, i128, i128)> {
        let ints = self.ints.as_ref()?;
        let r = match s {
            Sx::Var(v) => {
                let (name, lo, hi) = ints.vars.get(v)?;
                (name.clone(), *lo, *hi)
            }
            Sx::Const(c) if c.trunc() == *c && c.abs() < INT_LIMIT as f64 => {
                let k = *c as i128;
                (format!("{k}LL"), k, k)
            }
            Sx::Bin(op @ (Bin::Add | Bin::Sub | Bin::Mul), a, b) => {
                let (x, xl, xh) = self.int_expr(a)?;
                let (y, yl, yh) = self.int_expr(b)?;
                let (c, lo, hi) = match op {
                    Bin::Add => ("+", xl + yl, xh + yh),
                    Bin::Sub => ("-", xl - yh, xh - yl),
                    _ => {
                        let ps = [xl * yl, xl * yh, xh * yl, xh * yh];
                        ("*", *ps.iter().min()?, *ps.iter().max()?)
                    }
                };
                (format!("({x} {c} {y})"), lo, hi)
            }
            Sx::Bin(op @ (Bin::DivZ | Bin::ModZ), a, b) => {
                let (x, xl, xh) = self.int_expr(a)?;
                let Sx::Const(k) = **b else { return None };
                if xl < 0 || k < 1.0 || k.trunc() != k || k >= INT_LIMIT as f64 {
                    return None;
                }
                let k = k as i128;
                match op {
                    Bin::DivZ => (format!("({x} / {k}LL)"), xl / k, xh / k),
                    _ => (format!("({x} % {k}LL)"), 0, xh.min(k - 1)),
                }
            }
            _ => return None,
        };
        (r.1.abs() < INT_LIMIT && r.2.abs() < INT_LIMIT).then_some(r)
    }

    /// A load with integer index arithmetic (module documentation).
    fn int_load(&mut self, b: usize, shape: &[usize], ix: &[Sx]) -> String {
        if self.ints.as_ref().is_some_and(|i| i.zero.contains(&b)) {
            return "0.0".into();
        }
        if let Some(i) = &mut self.ints {
            i.read.insert(b);
        }
        if shape.is_empty() {
            return self.bind(format!("b{b}[0]"));
        }
        let mut cond = Vec::new();
        let mut flat = String::new();
        for (k, (i, &n)) in ix.iter().zip(shape).enumerate() {
            let u = match self.int_expr(i) {
                Some((x, lo, hi)) if lo >= 0 && hi < n as i128 => x,
                Some((x, _, _)) => {
                    let u = self.fresh("u");
                    self.line(&format!("const long long {u} = {x};"));
                    cond.push(format!("{u} >= 0 && {u} < {n}LL"));
                    u
                }
                None => {
                    let d = self.expr(i);
                    let u = self.fresh("u");
                    self.line(&format!("const long long {u} = adora_ix({d}, {n}LL);"));
                    cond.push(format!("{u} >= 0"));
                    u
                }
            };
            flat = if k == 0 {
                u
            } else {
                format!("({flat}) * {n}LL + {u}")
            };
        }
        if cond.is_empty() {
            self.bind(format!("b{b}[{flat}]"))
        } else {
            self.bind(format!("({}) ? b{b}[{flat}] : 0.0", cond.join(" && ")))
        }
    }

    /// The integer index of `i` into a dimension of `n`, or `-1` when outside it or not
    /// integral (a scatter's write is then dropped): a C expression of type `long long`.
    pub fn int_index(&mut self, i: &Sx, n: usize) -> String {
        match self.int_expr(i) {
            Some((x, lo, hi)) if lo >= 0 && hi < n as i128 => x,
            Some((x, _, _)) => {
                let u = self.fresh("u");
                self.line(&format!("const long long {u} = {x};"));
                format!("(({u} >= 0 && {u} < {n}LL) ? {u} : -1LL)")
            }
            None => {
                let d = self.expr(i);
                format!("adora_ix({d}, {n}LL)")
            }
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
            Sx::Load(b, shape, ix) if self.ints.is_some() => self.int_load(*b, shape, ix),
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
            Sx::Select(c, a, b) if self.ints.is_some() && branchless(a) && branchless(b) => {
                // Both branches computed (loads are total), one picked: no branch, so
                // the loop around can be vectorised.
                let c = self.expr(c);
                let a = self.expr(a);
                let b = self.expr(b);
                self.bind(format!("{c} != 0.0 ? {a} : {b}"))
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
                // An integer value keeps an integer name (and its range) beside its double.
                let int = self.int_expr(a).map(|(x, lo, hi)| {
                    let n = self.fresh("n");
                    self.line(&format!("const long long {n} = {x};"));
                    (n, lo, hi)
                });
                let a = match &int {
                    Some((n, _, _)) => format!("(double){n}"),
                    None => self.expr(a),
                };
                let name = self.bind(a);
                let old = self.env.insert(*v, name);
                let old_int = self.ints.as_mut().and_then(|i| match int {
                    Some(n) => i.vars.insert(*v, n),
                    None => i.vars.remove(v),
                });
                let r = self.expr(b);
                match old {
                    Some(o) => self.env.insert(*v, o),
                    None => self.env.remove(v),
                };
                if let (Some(i), Some(o)) = (&mut self.ints, old_int) {
                    i.vars.insert(*v, o);
                }
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
                let old_ints = self.ints.as_mut().map(|i| {
                    let ov = if *count > 0 {
                        i.vars.insert(*var, (c.clone(), 0, *count as i128 - 1))
                    } else {
                        i.vars.remove(var)
                    };
                    (ov, i.vars.remove(acc))
                });
                let r = self.expr(body);
                self.line(&format!("{a} = {r};"));
                for (k, o) in [(*var, ov), (*acc, oa)] {
                    match o {
                        Some(o) => self.env.insert(k, o),
                        None => self.env.remove(&k),
                    };
                }
                if let (Some(i), Some((ov, oa))) = (&mut self.ints, old_ints) {
                    for (k, o) in [(*var, ov), (*acc, oa)] {
                        match o {
                            Some(o) => i.vars.insert(k, o),
                            None => i.vars.remove(&k),
                        };
                    }
                }
                self.indent -= 1;
                self.line("}");
                a
            }
        }
    }
}
