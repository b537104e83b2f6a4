//! A kernel body as C statements over lanes (docs/backend.md, "Compiled kernels"): the
//! body is computed for [`LANES`] points at once, each value either *uniform* (the same
//! on every lane: one `const double`) or a *lane* value (one per lane: an `adora_vd`,
//! eight doubles in a GCC vector, which the C compiler keeps in vector registers). With
//! no lane variable bound (tails, scatters, scans) every value is uniform: plain scalar C.
//!
//! | node | uniform | lanes |
//! |---|---|---|
//! | index variable, fold counter | `long long`, its range known | affine `base + stride · u` (`jb + u`), or a vector of indices (`ia[u]`) |
//! | integer index arithmetic (`+ - *` of integers, `div_z`/`mod_z` of a non-negative integer by a positive constant) | `long long`, with its range | affine while `+ -` and constant factors keep it so, else a vector of `long long` |
//! | load | a test per index not provably inside its dimension | an affine index inside the buffer for the whole block (tested once per block): one vector load (stride 1) or a strided one; otherwise lane by lane, each tested |
//! | other index | `adora_ix` (0 outside or not integral, as the lanes) | the same per lane |
//! | `select` | `if`/`else` when its branches are large or hold a fold | both branches, blended by the condition's mask (a uniform condition with large branches: `if`/`else`) |
//! | fold | a `for` loop | a uniform `for` loop, the accumulator a vector |
//! | `exp log sin cos tanh sqrt abs floor pow`, `div_z`, `mod_z` | the `libm` call | the call per lane |
//!
//! Every operation is the IEEE operation the lanes evaluator applies, lane by lane:
//! vector `+ - * /` round each element as the scalar operation does, comparisons give
//! `1.0`/`0.0`, a blend picks bits.

use crate::cuda::expr::{bin_of, lit, un_of};
use crate::plan::sx::{Bin, Sx, Un, VarId};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

/// Points computed together.
pub const LANES: usize = 8;

/// The C helpers of lane values (after the scalar prelude).
pub const VECTOR_PRELUDE: &str = r#"typedef double adora_vd __attribute__((vector_size(64)));
typedef long long adora_vi __attribute__((vector_size(64)));
#define ADORA_VD(s) ((adora_vd){(s), (s), (s), (s), (s), (s), (s), (s)})
#define ADORA_VI(s) ((adora_vi){(s), (s), (s), (s), (s), (s), (s), (s)})
static inline adora_vd adora_vsel(adora_vi m, adora_vd a, adora_vd b) {
  return (adora_vd)(((adora_vi)a & m) | ((adora_vi)b & ~m));
}
static inline adora_vd adora_vbool(adora_vi m) { return __builtin_convertvector(m & 1, adora_vd); }
static inline adora_vi adora_vtrue(adora_vd c) { return c != ADORA_VD(0.0); }
static inline adora_vd adora_vmin(adora_vd a, adora_vd b) { return adora_vsel(a <= b, a, b); }
static inline adora_vd adora_vmax(adora_vd a, adora_vd b) { return adora_vsel(a >= b, a, b); }
#define ADORA_VMAP(name, f) static inline adora_vd name(adora_vd x) { adora_vd r; for (int k = 0; k < 8; ++k) r[k] = f(x[k]); return r; }
ADORA_VMAP(adora_vexp, exp)
ADORA_VMAP(adora_vlog, log)
ADORA_VMAP(adora_vsin, sin)
ADORA_VMAP(adora_vcos, cos)
ADORA_VMAP(adora_vtanh, tanh)
ADORA_VMAP(adora_vsqrt, sqrt)
ADORA_VMAP(adora_vfabs, fabs)
ADORA_VMAP(adora_vfloor, floor)
static inline adora_vd adora_vdiv_z(adora_vd a, adora_vd b) { adora_vd r; for (int k = 0; k < 8; ++k) r[k] = adora_div_z(a[k], b[k]); return r; }
static inline adora_vd adora_vmod_z(adora_vd a, adora_vd b) { adora_vd r; for (int k = 0; k < 8; ++k) r[k] = adora_mod_z(a[k], b[k]); return r; }
static inline adora_vd adora_vpow_r(adora_vd x, long long n) { adora_vd r; for (int k = 0; k < 8; ++k) r[k] = adora_pow_r(x[k], n); return r; }
static inline adora_vd adora_vpow_z(adora_vd x, long long n) { adora_vd r; for (int k = 0; k < 8; ++k) r[k] = adora_pow_z(x[k], n); return r; }
static inline adora_vi adora_vix(adora_vd x, long long n) { adora_vi r; for (int k = 0; k < 8; ++k) r[k] = adora_ix(x[k], n); return r; }
"#;

/// Nodes of a selection's branch evaluated on both sides.
const BRANCHLESS: usize = 24;

/// Largest integer magnitude an integer index expression may reach.
const INT_LIMIT: i128 = 1 << 50;

/// A double value.
#[derive(Clone, Debug)]
pub enum V {
    /// The same on every lane: a C expression of type `double`.
    U(String),
    /// One per lane: a C expression of type `adora_vd`.
    L(String),
}

/// The lanes of an integer value.
#[derive(Clone, Debug)]
enum Li {
    /// `base + stride · u` on lane `u` (`base` a C `long long` expression).
    Affine(String, i128),
    /// A C expression of type `adora_vi`.
    Vec(String),
}

/// An integer value and its least and greatest values.
#[derive(Clone, Debug)]
pub struct I {
    /// Uniform: a C `long long` expression; lanes: `None`.
    uni: Option<String>,
    lanes: Option<Li>,
    lo: i128,
    hi: i128,
}

impl I {
    fn uniform(code: String, lo: i128, hi: i128) -> I {
        I {
            uni: Some(code),
            lanes: None,
            lo,
            hi,
        }
    }
    fn lane(l: Li, lo: i128, hi: i128) -> I {
        I {
            uni: None,
            lanes: Some(l),
            lo,
            hi,
        }
    }
    fn is_lane(&self) -> bool {
        self.lanes.is_some()
    }
    /// The lanes as an `adora_vi` expression.
    fn vec(&self) -> String {
        match (&self.uni, &self.lanes) {
            (Some(c), _) => format!("ADORA_VI({c})"),
            (None, Some(Li::Vec(v))) => v.clone(),
            (None, Some(Li::Affine(b, s))) => {
                let steps: Vec<String> =
                    (0..LANES as i128).map(|u| format!("{}LL", s * u)).collect();
                format!("(ADORA_VI({b}) + (adora_vi){{{}}})", steps.join(", "))
            }
            (None, None) => "ADORA_VI(0LL)".into(),
        }
    }
    /// Lane `k` as a `long long` expression.
    fn at(&self, k: &str) -> String {
        match (&self.uni, &self.lanes) {
            (Some(c), _) => c.clone(),
            (None, Some(Li::Vec(v))) => format!("({v})[{k}]"),
            (None, Some(Li::Affine(b, s))) => format!("({b} + {s}LL * {k})"),
            (None, None) => "0LL".into(),
        }
    }
}

/// The statement writer of one kernel function.
pub struct Writer {
    lines: String,
    /// Current indentation (two spaces each).
    pub indent: usize,
    next: usize,
    env: HashMap<VarId, V>,
    ints: HashMap<VarId, I>,
    /// Buffers read (declared `bN` by [`Writer::finish`]).
    pub read: BTreeSet<usize>,
    zero: BTreeSet<usize>,
    /// Lanes over the flat space: the kernel's variables, their extents and the C name
    /// of the block's first flat point.
    flat: Option<(Vec<VarId>, Vec<usize>, String)>,
}

/// Whether a branch is small and has no fold or call.
fn branchless(s: &Sx) -> bool {
    let (mut n, mut heavy) = (0, false);
    s.visit(&mut |x| {
        n += 1;
        heavy |= matches!(
            x,
            Sx::Fold { .. } | Sx::Un(Un::Exp | Un::Log | Un::Sin | Un::Cos | Un::Tanh, _)
        );
    });
    !heavy && n <= BRANCHLESS
}

impl Writer {
    /// A writer at indentation `indent`; loads of the buffers `zero` read 0.
    pub fn new(indent: usize, zero: BTreeSet<usize>) -> Writer {
        Writer {
            lines: String::new(),
            indent,
            next: 0,
            env: HashMap::new(),
            ints: HashMap::new(),
            read: BTreeSet::new(),
            zero,
            flat: None,
        }
    }

    /// Lanes over consecutive flat points from `t` of the space of `vars` over `shape`
    /// (bound by [`Writer::vector_index`]), or none: a load at a suffix of the variables,
    /// in order, of a buffer of that suffix's shape reads consecutive elements.
    pub fn flat_lanes(&mut self, flat: Option<(&[VarId], &[usize], &str)>) {
        self.flat = flat.map(|(v, s, t)| (v.to_vec(), s.to_vec(), t.to_string()));
    }

    /// A load at a suffix of the flat lanes' variables (see [`Writer::flat_lanes`]):
    /// lane `u` reads element `(t + u) mod S` of the buffer (`S` its size), one vector
    /// load when the block does not wrap.
    fn suffix_load(&mut self, b: usize, shape: &[usize], ix: &[Sx]) -> Option<V> {
        let (vars, kshape, t) = self.flat.clone()?;
        let d = ix.len();
        if d > vars.len() || kshape[kshape.len() - d..] != *shape {
            return None;
        }
        let own = ix
            .iter()
            .zip(&vars[vars.len() - d..])
            .all(|(i, v)| *i == Sx::Var(*v));
        if !own {
            return None;
        }
        let size = shape.iter().product::<usize>();
        let l = self.fresh("l");
        self.line(&format!("adora_vd {l};"));
        if d == vars.len() {
            self.line(&format!("__builtin_memcpy(&{l}, b{b} + {t}, sizeof {l});"));
        } else {
            let off = self.fresh("off");
            self.line(&format!("const long long {off} = {t} % {size}LL;"));
            self.open(&format!("if ({off} + {LANES} <= {size}LL)"));
            self.line(&format!(
                "__builtin_memcpy(&{l}, b{b} + {off}, sizeof {l});"
            ));
            self.close();
            self.open("else");
            self.line(&format!(
                "for (int k = 0; k < {LANES}; ++k) {l}[k] = b{b}[({t} + k) % {size}LL];"
            ));
            self.close();
        }
        Some(V::L(l))
    }

    /// A fresh C name.
    pub fn fresh(&mut self, stem: &str) -> String {
        self.next += 1;
        format!("{stem}_{}", self.next)
    }

    /// Appends one line.
    pub fn line(&mut self, s: &str) {
        let _ = writeln!(self.lines, "{}{s}", "  ".repeat(self.indent));
    }

    /// Opens a block `HEAD {`.
    pub fn open(&mut self, head: &str) {
        self.line(&format!("{head} {{"));
        self.indent += 1;
    }

    /// Closes the innermost block.
    pub fn close(&mut self) {
        self.indent -= 1;
        self.line("}");
    }

    /// Binds kernel variable `v` to a uniform integer `int` (values `0..extent`) and its
    /// double `name`.
    pub fn uniform_index(&mut self, v: VarId, name: &str, int: &str, extent: usize) {
        self.env.insert(v, V::U(name.to_string()));
        self.bind_int(
            v,
            I::uniform(int.to_string(), 0, extent as i128 - 1),
            extent,
        );
    }

    /// Binds kernel variable `v` to the lanes `base + u` (values `0..extent`).
    pub fn affine_index(&mut self, v: VarId, base: &str, extent: usize) {
        let i = I::lane(Li::Affine(base.to_string(), 1), 0, extent as i128 - 1);
        self.env.insert(
            v,
            V::L(format!("__builtin_convertvector({}, adora_vd)", i.vec())),
        );
        self.bind_int(v, i, extent);
    }

    /// Binds kernel variable `v` to the lanes of the `adora_vi` variable `vec` (values
    /// `0..extent`).
    pub fn vector_index(&mut self, v: VarId, vec: &str, extent: usize) {
        self.env
            .insert(v, V::L(format!("__builtin_convertvector({vec}, adora_vd)")));
        let i = I::lane(Li::Vec(vec.to_string()), 0, extent as i128 - 1);
        self.bind_int(v, i, extent);
    }

    fn bind_int(&mut self, v: VarId, i: I, extent: usize) {
        if extent > 0 {
            self.ints.insert(v, i);
        } else {
            self.ints.remove(&v);
        }
    }

    /// Binds a variable to a uniform double (a host loop counter, a scan's accumulator).
    pub fn uniform(&mut self, v: VarId, name: &str) {
        self.bind_value(v, V::U(name.to_string()));
    }

    fn bind_value(&mut self, v: VarId, x: V) {
        self.env.insert(v, x);
        self.ints.remove(&v);
    }

    /// `x` as a scalar C expression (uniform values only).
    pub fn scalar(&self, x: &V) -> String {
        match x {
            V::U(s) => s.clone(),
            V::L(e) => panic!("a lane value where a uniform one is needed: {e}"),
        }
    }

    /// `x` as an `adora_vd` expression (a uniform value broadcast).
    pub fn vector(&self, x: &V) -> String {
        match x {
            V::U(s) => format!("ADORA_VD({s})"),
            V::L(e) => e.clone(),
        }
    }

    /// A uniform temporary.
    fn uni(&mut self, expr: &str) -> V {
        let t = self.fresh("t");
        self.line(&format!("const double {t} = {expr};"));
        V::U(t)
    }

    /// A lane temporary.
    fn lane(&mut self, expr: &str) -> V {
        let t = self.fresh("l");
        self.line(&format!("const adora_vd {t} = {expr};"));
        V::L(t)
    }

    /// A value of operands: uniform when they all are.
    fn value(
        &mut self,
        ops: &[&V],
        f: impl FnOnce(&[String]) -> String,
        g: impl FnOnce(&[String]) -> String,
    ) -> V {
        if ops.iter().all(|o| matches!(o, V::U(_))) {
            let a: Vec<String> = ops.iter().map(|o| self.scalar(o)).collect();
            self.uni(&f(&a))
        } else {
            let a: Vec<String> = ops.iter().map(|o| self.vector(o)).collect();
            self.lane(&g(&a))
        }
    }

    /// Whether `s` reads a lane value.
    pub fn is_lane(&self, s: &Sx) -> bool {
        let mut lane = false;
        s.visit(&mut |x| {
            if let Sx::Var(v) = x {
                lane |= matches!(self.env.get(v), Some(V::L(..)))
                    || self.ints.get(v).is_some_and(I::is_lane);
            }
        });
        lane
    }

    /// `s` as an integer value with its range, when it is integer index arithmetic.
    fn int_expr(&self, s: &Sx) -> Option<I> {
        let r = match s {
            Sx::Var(v) => self.ints.get(v)?.clone(),
            Sx::Const(c) if c.trunc() == *c && c.abs() < INT_LIMIT as f64 => {
                let k = *c as i128;
                I::uniform(format!("{k}LL"), k, k)
            }
            Sx::Bin(op @ (Bin::Add | Bin::Sub | Bin::Mul), a, b) => {
                let x = self.int_expr(a)?;
                let y = self.int_expr(b)?;
                let (c, lo, hi) = match op {
                    Bin::Add => ("+", x.lo + y.lo, x.hi + y.hi),
                    Bin::Sub => ("-", x.lo - y.hi, x.hi - y.lo),
                    _ => {
                        let ps = [x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi];
                        ("*", *ps.iter().min()?, *ps.iter().max()?)
                    }
                };
                let konst = |i: &I| (i.lo == i.hi && i.uni.is_some()).then_some(i.lo);
                let lanes = match (&x.uni, &y.uni, &x.lanes, &y.lanes) {
                    (Some(p), Some(q), _, _) => {
                        return Some(I::uniform(format!("({p} {c} {q})"), lo, hi)).filter(ok)
                    }
                    (None, Some(q), Some(Li::Affine(b, s)), _) if *op != Bin::Mul => {
                        Li::Affine(format!("({b} {c} {q})"), *s)
                    }
                    (Some(p), None, _, Some(Li::Affine(b, s))) if *op != Bin::Mul => {
                        let s = if *op == Bin::Sub { -s } else { *s };
                        Li::Affine(format!("({p} {c} {b})"), s)
                    }
                    (None, None, Some(Li::Affine(b1, s1)), Some(Li::Affine(b2, s2)))
                        if *op != Bin::Mul =>
                    {
                        let s = if *op == Bin::Sub { s1 - s2 } else { s1 + s2 };
                        Li::Affine(format!("({b1} {c} {b2})"), s)
                    }
                    (None, _, Some(Li::Affine(b, s)), _) if konst(&y).is_some() => {
                        let k = konst(&y)?;
                        Li::Affine(format!("({b} * {k}LL)"), s * k)
                    }
                    (_, None, _, Some(Li::Affine(b, s))) if konst(&x).is_some() => {
                        let k = konst(&x)?;
                        Li::Affine(format!("({k}LL * {b})"), s * k)
                    }
                    _ => Li::Vec(format!("({} {c} {})", x.vec(), y.vec())),
                };
                I::lane(lanes, lo, hi)
            }
            Sx::Bin(op @ (Bin::DivZ | Bin::ModZ), a, b) => {
                let x = self.int_expr(a)?;
                let Sx::Const(k) = **b else { return None };
                if x.lo < 0 || k < 1.0 || k.trunc() != k || k >= INT_LIMIT as f64 {
                    return None;
                }
                let k = k as i128;
                let (o, lo, hi) = match op {
                    Bin::DivZ => ("/", x.lo / k, x.hi / k),
                    _ => ("%", 0, x.hi.min(k - 1)),
                };
                match &x.uni {
                    Some(c) => I::uniform(format!("({c} {o} {k}LL)"), lo, hi),
                    None => I::lane(
                        Li::Vec(format!("({} {o} ADORA_VI({k}LL))", x.vec())),
                        lo,
                        hi,
                    ),
                }
            }
            _ => return None,
        };
        Some(r).filter(ok)
    }

    /// A uniform index `i` into a dimension of `n` (no lane variable bound): its C code
    /// and whether it needs the test `0 <= index < n` (an index not integral is made
    /// `-1` by `adora_ix`).
    pub fn index(&mut self, i: &Sx, n: usize) -> (String, bool) {
        if let Some(x) = self.int_expr(i).filter(|x| !x.is_lane()) {
            let inside = x.lo >= 0 && x.hi < n as i128;
            return (x.uni.unwrap_or_default(), !inside);
        }
        let d = self.expr(i);
        let d = self.scalar(&d);
        let u = self.fresh("u");
        self.line(&format!("const long long {u} = adora_ix({d}, {n}LL);"));
        (u, true)
    }

    /// A load `b[ix]` of a buffer of `shape`.
    fn load(&mut self, b: usize, shape: &[usize], ix: &[Sx]) -> V {
        if self.zero.contains(&b) || shape.contains(&0) {
            return V::U("0.0".into());
        }
        self.read.insert(b);
        if shape.is_empty() {
            return self.uni(&format!("b{b}[0]"));
        }
        if let Some(v) = self.suffix_load(b, shape, ix) {
            return v;
        }
        // Per dimension: the index, and whether it needs a test.
        let mut dims: Vec<(I, bool, usize)> = Vec::new();
        for (i, &n) in ix.iter().zip(shape) {
            let x = match self.int_expr(i) {
                Some(x) => {
                    let inside = x.lo >= 0 && x.hi < n as i128;
                    (x, !inside, n)
                }
                None => match self.expr(i) {
                    V::U(d) => {
                        let u = self.fresh("u");
                        self.line(&format!("const long long {u} = adora_ix({d}, {n}LL);"));
                        // `-1` outside: tested as an integer index.
                        (I::uniform(u, -1, n as i128 - 1), true, n)
                    }
                    V::L(d) => {
                        let u = self.fresh("u");
                        self.line(&format!("const adora_vi {u} = adora_vix({d}, {n}LL);"));
                        (I::lane(Li::Vec(u), -1, n as i128 - 1), true, n)
                    }
                },
            };
            dims.push(x);
        }
        let lane = dims.iter().any(|d| d.0.is_lane());
        if !lane {
            let mut flat = String::new();
            let mut tests = Vec::new();
            for (k, (i, test, n)) in dims.iter().enumerate() {
                let c = i.uni.clone().unwrap_or_default();
                if *test {
                    tests.push(format!("({c}) >= 0 && ({c}) < {n}LL"));
                }
                flat = if k == 0 {
                    c
                } else {
                    format!("({flat}) * {n}LL + {c}")
                };
            }
            return if tests.is_empty() {
                self.uni(&format!("b{b}[{flat}]"))
            } else {
                self.uni(&format!("({}) ? b{b}[{flat}] : 0.0", tests.join(" && ")))
            };
        }
        self.lane_load(b, &dims)
    }

    /// A load with lane indices.
    fn lane_load(&mut self, b: usize, dims: &[(I, bool, usize)]) -> V {
        let t = self.fresh("l");
        self.line(&format!("adora_vd {t};"));
        // The flat index as affine lanes, when every lane index is affine.
        let mut affine: Option<(String, i128)> = Some((String::new(), 0));
        for (k, (i, _, n)) in dims.iter().enumerate() {
            affine = affine.and_then(|(base, s)| {
                let (ib, is) = match (&i.uni, &i.lanes) {
                    (Some(c), _) => (c.clone(), 0),
                    (None, Some(Li::Affine(c, st))) => (c.clone(), *st),
                    _ => return None,
                };
                Some(if k == 0 {
                    (ib, is)
                } else {
                    (format!("({base}) * {n}LL + {ib}"), s * *n as i128 + is)
                })
            });
        }
        let last = LANES as i128 - 1;
        // Per-lane fallback: each lane's indices tested.
        let per_lane = |w: &mut Writer| {
            w.open(&format!("for (int k = 0; k < {LANES}; ++k)"));
            let mut flat = String::new();
            let mut tests = Vec::new();
            for (d, (i, test, n)) in dims.iter().enumerate() {
                let c = i.at("k");
                if *test {
                    tests.push(format!("({c}) >= 0 && ({c}) < {n}LL"));
                }
                flat = if d == 0 {
                    c
                } else {
                    format!("({flat}) * {n}LL + {c}")
                };
            }
            if tests.is_empty() {
                w.line(&format!("{t}[k] = b{b}[{flat}];"));
            } else {
                w.line(&format!(
                    "{t}[k] = ({}) ? b{b}[{flat}] : 0.0;",
                    tests.join(" && ")
                ));
            }
            w.close();
        };
        match affine {
            Some((base, stride)) => {
                // The whole block inside: the first and last lane of each tested index
                // (affine, so monotone in the lane) inside its dimension.
                let mut tests = Vec::new();
                for (i, test, n) in dims {
                    if *test {
                        for k in [0, last] {
                            let c = i.at(&k.to_string());
                            tests.push(format!("({c}) >= 0 && ({c}) < {n}LL"));
                        }
                    }
                }
                let fast = if stride == 1 {
                    format!("__builtin_memcpy(&{t}, b{b} + ({base}), sizeof {t});")
                } else {
                    format!(
                        "for (int k = 0; k < {LANES}; ++k) {t}[k] = b{b}[({base}) + {stride}LL * k];"
                    )
                };
                if tests.is_empty() {
                    self.line(&fast);
                } else {
                    self.open(&format!("if ({})", tests.join(" && ")));
                    self.line(&fast);
                    self.close();
                    self.open("else");
                    per_lane(self);
                    self.close();
                }
            }
            None => per_lane(self),
        }
        V::L(t)
    }

    /// Emits the statements of `s` and returns its value.
    pub fn expr(&mut self, s: &Sx) -> V {
        match s {
            Sx::Const(c) => V::U(lit(*c)),
            Sx::Var(v) => self.env.get(v).cloned().unwrap_or(V::U("NAN".into())),
            Sx::Load(b, shape, ix) => self.load(*b, shape, ix),
            Sx::Un(op, a) => {
                let a = self.expr(a);
                self.value(
                    &[&a],
                    |x| un_of(*op, &x[0], false),
                    |x| un_of(*op, &x[0], true),
                )
            }
            Sx::Bin(op, a, b) => {
                let a = self.expr(a);
                let b = self.expr(b);
                self.value(
                    &[&a, &b],
                    |x| bin_of(*op, &x[0], &x[1], false),
                    |x| bin_of(*op, &x[0], &x[1], true),
                )
            }
            Sx::Select(c, a, b) => {
                let cv = self.expr(c);
                if matches!(cv, V::L(..)) || (branchless(a) && branchless(b)) {
                    let x = self.expr(a);
                    let y = self.expr(b);
                    return self.value(
                        &[&cv, &x, &y],
                        |o| format!("{} != 0.0 ? {} : {}", o[0], o[1], o[2]),
                        |o| format!("adora_vsel(adora_vtrue({}), {}, {})", o[0], o[1], o[2]),
                    );
                }
                self.branches(&cv, a, b)
            }
            Sx::Let(v, a, b) => {
                let old = (self.env.get(v).cloned(), self.ints.get(v).cloned());
                match self.int_expr(a) {
                    Some(i) => {
                        let (x, i) = match &i.uni {
                            Some(c) => {
                                let n = self.fresh("n");
                                self.line(&format!("const long long {n} = {c};"));
                                let x = self.uni(&format!("(double){n}"));
                                (x, I::uniform(n, i.lo, i.hi))
                            }
                            None => {
                                let x = self.lane(&format!(
                                    "__builtin_convertvector({}, adora_vd)",
                                    i.vec()
                                ));
                                (x, i)
                            }
                        };
                        self.env.insert(*v, x);
                        self.ints.insert(*v, i);
                    }
                    None => {
                        let x = self.expr(a);
                        self.bind_value(*v, x);
                    }
                }
                let r = self.expr(b);
                self.restore(*v, old);
                r
            }
            Sx::Fold {
                var,
                count,
                acc,
                init,
                body,
            } => self.fold(*var, *count, *acc, init, body),
        }
    }

    fn restore(&mut self, v: VarId, old: (Option<V>, Option<I>)) {
        match old.0 {
            Some(x) => self.env.insert(v, x),
            None => self.env.remove(&v),
        };
        match old.1 {
            Some(i) => self.ints.insert(v, i),
            None => self.ints.remove(&v),
        };
    }

    /// `c ? a : b` with a uniform condition and large branches: one branch runs.
    fn branches(&mut self, c: &V, a: &Sx, b: &Sx) -> V {
        let c = self.scalar(c);
        let lane = self.is_lane(a) || self.is_lane(b);
        let r = self.fresh("s");
        self.line(&format!(
            "{} {r};",
            if lane { "adora_vd" } else { "double" }
        ));
        self.open(&format!("if ({c} != 0.0)"));
        for (k, branch) in [a, b].into_iter().enumerate() {
            if k == 1 {
                self.close();
                self.open("else");
            }
            let x = self.expr(branch);
            let x = if lane {
                self.vector(&x)
            } else {
                self.scalar(&x)
            };
            self.line(&format!("{r} = {x};"));
        }
        self.close();
        if lane {
            V::L(r)
        } else {
            V::U(r)
        }
    }

    /// A fold: a uniform `for` loop; its accumulator a vector when the fold reads a lane
    /// value.
    fn fold(&mut self, var: VarId, count: usize, acc: VarId, init: &Sx, body: &Sx) -> V {
        let lane = self.is_lane(init) || self.is_lane(body);
        let i = self.expr(init);
        let old = (
            (self.env.get(&var).cloned(), self.ints.get(&var).cloned()),
            (self.env.get(&acc).cloned(), self.ints.get(&acc).cloned()),
        );
        let a = self.fresh("acc");
        let (ty, x) = if lane {
            ("adora_vd", self.vector(&i))
        } else {
            ("double", self.scalar(&i))
        };
        self.line(&format!("{ty} {a} = {x};"));
        let c = self.fresh("c");
        self.open(&format!("for (long long {c} = 0; {c} < {count}LL; ++{c})"));
        let cd = self.fresh("t");
        self.line(&format!("const double {cd} = (double){c};"));
        self.uniform_index(var, &cd, &c, count);
        let av = if lane {
            V::L(a.clone())
        } else {
            V::U(a.clone())
        };
        self.bind_value(acc, av.clone());
        let r = self.expr(body);
        let x = if lane {
            self.vector(&r)
        } else {
            self.scalar(&r)
        };
        self.line(&format!("{a} = {x};"));
        self.close();
        self.restore(var, old.0);
        self.restore(acc, old.1);
        av
    }

    /// The function's text: `head`, the buffers read, the statements.
    pub fn finish(self, head: &str) -> String {
        let mut s = format!("{head} {{\n");
        for b in &self.read {
            let _ = writeln!(s, "  const double* restrict b{b} = B[{b}];");
        }
        s.push_str(&self.lines);
        s.push_str("}\n");
        s
    }
}

/// Whether an integer value's range stays far from overflow.
fn ok(i: &I) -> bool {
    i.lo.abs() < INT_LIMIT && i.hi.abs() < INT_LIMIT
}
