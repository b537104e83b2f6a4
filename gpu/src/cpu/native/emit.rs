//! The C source of a plan's compiled kernels (docs/backend.md, "Compiled kernels"): the
//! scalar conventions of the CUDA prelude as `static inline` C functions, then per kernel
//! the functions below, over `B` (the buffer pointers by buffer id) and `C` (the host loop
//! counters by counter id). Bodies are written over [`LANES`] points at once
//! (`write.rs`), the points left over one at a time.
//!
//! | kernel | functions | computes | lanes |
//! |---|---|---|---|
//! | `map` | `NAME(B, C, lo, hi)` | output points `lo..hi` | consecutive points of the innermost dimension, or of the flat space when it is shorter than [`LANES`] |
//! | `reduce` | `NAME(B, C, lo, hi)` | outputs `lo..hi`, each the left fold from `init` over the reduced space in order | outputs, as `map` |
//! | `reduce` with `+` or `*` | also `NAME_part(B, C, o, lo, hi, res)`, `NAME_init(B, C, o)` | the fold of reduced points `lo..hi` of output `o` in [`LANES`] chains from the neutral element, combined pairwise; `init` of `o` | the chains: consecutive points of the innermost reduced dimension (the rest to chain 0) |
//! | `scan` | `NAME(B, C, lo, hi)` | inner elements `lo..hi`, each a sequential fold along the outer dimension | none |
//! | `scatter` | `NAME(B, C)` | every source point in order, its value added at its index (dropped outside) | none |
//! | batched `matmul` | `NAME_exact(B, C, lo, hi)` | outputs `lo..hi` of the reduction the product replaces | as `reduce` |
//!
//! A kernel of more than [`LANE_NODES`] nodes is written one point at a time (its lane
//! arrays would crowd the stack).

use super::write::{Writer, LANES, VECTOR_PRELUDE};
use crate::cuda::codegen::PRELUDE;
use crate::plan::sx::{Sx, VarId};
use crate::plan::{Kernel, KernelKind, Plan, RedOp};
use std::collections::BTreeSet;

/// The most nodes of a kernel written over lanes.
pub const LANE_NODES: usize = 4000;

/// How a compiled kernel is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `NAME(B, C, lo, hi)` over output points.
    Map,
    /// `NAME(B, C, lo, hi)` over outputs; `chunked`: also `NAME_part` and `NAME_init`.
    Reduce {
        /// Whether the reduction has partial folds (`+`, `*`).
        chunked: bool,
    },
    /// `NAME(B, C, lo, hi)` over inner elements.
    Scan,
    /// `NAME(B, C)`.
    Scatter,
    /// `NAME_exact(B, C, lo, hi)` over outputs.
    Batched,
}

/// A compiled kernel: its name in the plan, its symbol, its form.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The kernel's name (`k3_map`).
    pub kernel: String,
    /// Its C function's name (the symbols of its form start with it).
    pub symbol: String,
    /// How it is entered.
    pub form: Form,
}

/// The C source of a plan and its compiled kernels.
pub struct Source {
    /// The translation unit.
    pub text: String,
    /// The compiled kernels, in kernel order.
    pub kernels: Vec<Compiled>,
}

/// What the C side needs besides the CUDA prelude: `__device__` functions as `static
/// inline` ones, and the index test of the lanes (`gpu/src/cpu/lanes.rs`, `index`).
const HEADER: &str = r#"#include <math.h>
#include <string.h>
#define __device__ static
static inline long long adora_ix(double i, long long n) {
  if (i >= 0.0 && i < (double)n) {
    long long u = (long long)i;
    if ((double)u == i) return u;
  }
  return -1LL;
}
"#;

/// The parameters every kernel function starts with.
const PARAMS: &str = "double* const* restrict B, const double* restrict C";

/// The fold of `op`.
fn combine(op: RedOp, a: &str, b: &str) -> String {
    match op {
        RedOp::Add => format!("({a} + {b})"),
        RedOp::Mul => format!("({a} * {b})"),
        RedOp::Min => format!("adora_min({a}, {b})"),
        RedOp::Max => format!("adora_max({a}, {b})"),
    }
}

/// The fold of `op` on lane values.
fn vcombine(op: RedOp, a: &str, b: &str) -> String {
    match op {
        RedOp::Add => format!("({a} + {b})"),
        RedOp::Mul => format!("({a} * {b})"),
        RedOp::Min => format!("adora_vmin({a}, {b})"),
        RedOp::Max => format!("adora_vmax({a}, {b})"),
    }
}

/// The neutral element of a partial fold: `-0.0` for `+` (so a sum of `-0.0`s stays
/// `-0.0`), `1` for `*`.
fn neutral(op: RedOp) -> &'static str {
    match op {
        RedOp::Mul => "1.0",
        _ => "-0.0",
    }
}

/// A writer for kernel `k`: the buffers sharing its output's memory slot read 0, as the
/// lanes read them (`gpu/src/cpu/machine.rs` hands them empty slices).
fn writer(plan: &Plan, k: &Kernel) -> Writer {
    let slot = plan.buffers[k.out].slot;
    let zero: BTreeSet<usize> = (0..plan.buffers.len())
        .filter(|&b| plan.buffers[b].slot == slot)
        .collect();
    let mut w = Writer::new(1, zero);
    for (v, c) in &k.counters {
        let name = w.fresh("ctr");
        w.line(&format!("const double {name} = C[{c}];"));
        w.uniform(*v, &name);
    }
    w
}

/// Binds the variables `vars` of a space `shape` from the flat index `flat` (a C
/// expression), uniform.
fn unflatten(w: &mut Writer, vars: &[VarId], shape: &[usize], flat: &str) {
    let r = w.fresh("r");
    w.line(&format!("long long {r} = {flat};"));
    for (k, (&v, &n)) in vars.iter().zip(shape).enumerate().rev() {
        let (i, x) = (w.fresh("i"), w.fresh("x"));
        if k == 0 {
            w.line(&format!("const long long {i} = {r};"));
        } else {
            w.line(&format!("const long long {i} = {r} % {n}LL;"));
            w.line(&format!("{r} /= {n}LL;"));
        }
        w.line(&format!("const double {x} = (double){i};"));
        w.uniform_index(v, &x, &i, n);
    }
}

/// Binds `v` to the uniform integer `int` (values `0..n`) and its double.
fn uniform_at(w: &mut Writer, v: VarId, int: &str, n: usize) {
    let x = w.fresh("x");
    w.line(&format!("const double {x} = (double){int};"));
    w.uniform_index(v, &x, int, n);
}

/// How the points of a space are spread over lanes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lanes {
    /// Consecutive points of the innermost dimension (`jb + u`).
    Inner,
    /// Consecutive flat points, every index variable per lane.
    Flat,
    /// One point at a time.
    None,
}

/// Whether every load of `exprs` that reads an index variable of `vars` reads a buffer of
/// a suffix of `shape` at the same suffix of `vars`, in order (consecutive elements for
/// consecutive flat points, `Writer::flat_lanes`).
fn suffix_loads(vars: &[VarId], shape: &[usize], exprs: &[&Sx]) -> bool {
    let mut ok = true;
    for e in exprs {
        e.visit(&mut |x| {
            if let Sx::Load(_, bshape, ix) = x {
                let reads = ix.iter().any(|i| vars.iter().any(|v| i.mentions(*v)));
                let d = ix.len();
                let suffix = d <= vars.len()
                    && shape[shape.len() - d..] == bshape[..]
                    && ix
                        .iter()
                        .zip(&vars[vars.len() - d..])
                        .all(|(i, v)| *i == Sx::Var(*v));
                ok &= !reads || suffix;
            }
        });
    }
    ok
}

/// The lanes of kernel `k` over the space of `vars` over `shape`: consecutive points of
/// the innermost dimension when it is a multiple of [`LANES`] or at least four times
/// it; consecutive flat points when it is shorter, or when every load reads a suffix of
/// the variables (so every load is consecutive); none for a large kernel or space.
fn lanes(k: &Kernel, vars: &[VarId], shape: &[usize]) -> Lanes {
    let total: usize = shape.iter().product();
    let flat = || suffix_loads(vars, shape, &k.kind.exprs());
    match shape.last() {
        _ if k.kind.size() > LANE_NODES => Lanes::None,
        Some(&n) if n >= LANES && (n % LANES == 0 || n >= 4 * LANES) => Lanes::Inner,
        Some(&n) if n >= LANES && !flat() => Lanes::Inner,
        Some(_) if total >= LANES => Lanes::Flat,
        _ => Lanes::None,
    }
}

/// What one point (or block of points) of a space writes, the space's variables bound:
/// a `map` body stored, or an output's fold. `lane` says whether the points are lanes;
/// `at` is the C expression of the (first) point's flat index.
type Point<'a> = dyn FnMut(&mut Writer, bool, &str) + 'a;

/// Loops over the points `lo..hi` of a space of `vars` over `shape`, calling `point` per
/// block of [`LANES`] points (as `mode` lays them out) and per point left over.
fn points(w: &mut Writer, vars: &[VarId], shape: &[usize], mode: Lanes, point: &mut Point<'_>) {
    let d = shape.len();
    if d == 0 {
        w.open("if (lo < hi)");
        point(w, false, "0");
        w.close();
        return;
    }
    w.line("long long t = lo;");
    if mode == Lanes::Flat {
        w.open(&format!("for (; t + {LANES} <= hi; t += {LANES})"));
        let steps: Vec<String> = (0..LANES).map(|u| format!("{u}LL")).collect();
        let r = w.fresh("r");
        w.line(&format!(
            "adora_vi {r} = ADORA_VI(t) + (adora_vi){{{}}};",
            steps.join(", ")
        ));
        let mut ia = vec![String::new(); d];
        for k in (0..d).rev() {
            ia[k] = w.fresh("ia");
            if k == 0 {
                w.line(&format!("const adora_vi {} = {r};", ia[k]));
            } else {
                let n = shape[k];
                w.line(&format!(
                    "const adora_vi {} = {r} % ADORA_VI({n}LL);",
                    ia[k]
                ));
                w.line(&format!("{r} = {r} / ADORA_VI({n}LL);"));
            }
        }
        for k in 0..d {
            w.vector_index(vars[k], &ia[k], shape[k]);
        }
        w.flat_lanes(Some((vars, shape, "t")));
        point(w, true, "t");
        w.flat_lanes(None);
        w.close();
    }
    w.open("while (t < hi)");
    let inner = shape[d - 1];
    w.line(&format!("const long long row = t / {inner}LL;"));
    w.line(&format!("const long long j0 = t - row * {inner}LL;"));
    unflatten(w, &vars[..d - 1], &shape[..d - 1], "row");
    w.line(&format!("long long jn = {inner}LL - j0;"));
    w.line("if (jn > hi - t) jn = hi - t;");
    w.line("const long long base = t - j0;");
    w.line("long long jb = j0;");
    if mode == Lanes::Inner {
        w.open(&format!("for (; jb + {LANES} <= j0 + jn; jb += {LANES})"));
        w.affine_index(vars[d - 1], "jb", inner);
        point(w, true, "base + jb");
        w.close();
    }
    w.open("for (; jb < j0 + jn; ++jb)");
    uniform_at(w, vars[d - 1], "jb", inner);
    point(w, false, "base + jb");
    w.close();
    w.line("t += jn;");
    w.close();
}

/// Stores `r` at the point `at` (a block of [`LANES`] points from `at` when `lane`).
fn store(w: &mut Writer, lane: bool, at: &str, r: &super::write::V) {
    if lane {
        let v = w.fresh("o");
        let e = w.vector(r);
        w.line(&format!("const adora_vd {v} = {e};"));
        w.line(&format!(
            "__builtin_memcpy(out + ({at}), &{v}, sizeof {v});"
        ));
    } else {
        let e = w.scalar(r);
        w.line(&format!("out[{at}] = {e};"));
    }
}

/// `map`: output points `lo..hi`.
fn map(plan: &Plan, k: &Kernel, name: &str, vars: &[VarId], body: &Sx) -> String {
    let shape = &plan.buffers[k.out].shape;
    let mut w = writer(plan, k);
    w.line(&format!("double* restrict out = B[{}];", k.out));
    let mode = lanes(k, vars, shape);
    points(&mut w, vars, shape, mode, &mut |w, lane, at| {
        let r = w.expr(body);
        store(w, lane, at, &r);
    });
    w.finish(&format!(
        "void {name}({PARAMS}, long long lo, long long hi)"
    ))
}

/// The fields of a `reduce` kernel.
struct Red<'a> {
    vars: &'a [VarId],
    red_vars: &'a [VarId],
    red: &'a [usize],
    op: RedOp,
    init: &'a Sx,
    body: &'a Sx,
}

/// Nested uniform loops over a whole space of `vars` over `shape`; returns how many were
/// opened.
fn nest(w: &mut Writer, vars: &[VarId], shape: &[usize]) -> usize {
    for (&v, &n) in vars.iter().zip(shape) {
        let q = w.fresh("q");
        w.open(&format!("for (long long {q} = 0; {q} < {n}LL; ++{q})"));
        uniform_at(w, v, &q, n);
    }
    vars.len()
}

/// `reduce`: outputs `lo..hi`, each the left fold from `init` over the reduced space in
/// order; blocks of [`LANES`] outputs fold together (independent chains, each output's
/// fold the same).
fn reduce(plan: &Plan, k: &Kernel, name: &str, r: &Red<'_>) -> String {
    let shape = &plan.buffers[k.out].shape;
    let mut w = writer(plan, k);
    w.line(&format!("double* restrict out = B[{}];", k.out));
    let mode = lanes(k, r.vars, shape);
    points(&mut w, r.vars, shape, mode, &mut |w, lane, at| {
        let i = w.expr(r.init);
        let (ty, i) = if lane {
            ("adora_vd", w.vector(&i))
        } else {
            ("double", w.scalar(&i))
        };
        let acc = w.fresh("acc");
        w.line(&format!("{ty} {acc} = {i};"));
        let n = nest(w, r.red_vars, r.red);
        let x = w.expr(r.body);
        let x = if lane { w.vector(&x) } else { w.scalar(&x) };
        let f = if lane { vcombine } else { combine };
        w.line(&format!("{acc} = {};", f(r.op, &acc, &x)));
        for _ in 0..n {
            w.close();
        }
        let acc = if lane {
            super::write::V::L(acc)
        } else {
            super::write::V::U(acc)
        };
        store(w, lane, at, &acc);
    });
    w.finish(&format!(
        "void {name}({PARAMS}, long long lo, long long hi)"
    ))
}

/// `reduce` with `+` or `*`: the partial fold of reduced points `lo..hi` of output `o`
/// in [`LANES`] chains (point `j` of a row of the innermost reduced dimension goes to
/// chain `(j - j0) % LANES` while a whole block remains, the rest to chain 0), combined
/// pairwise; and `init` at output `o`.
fn reduce_part(plan: &Plan, k: &Kernel, name: &str, r: &Red<'_>) -> String {
    let shape = &plan.buffers[k.out].shape;
    let mut w = writer(plan, k);
    unflatten(&mut w, r.vars, shape, "o");
    let z = neutral(r.op);
    let a = w.fresh("a");
    w.line(&format!("adora_vd {a} = ADORA_VD({z});"));
    let mode = match lanes(k, r.red_vars, r.red) {
        Lanes::Inner => Lanes::Inner,
        _ => Lanes::None,
    };
    points(&mut w, r.red_vars, r.red, mode, &mut |w, lane, _| {
        let x = w.expr(r.body);
        if lane {
            let x = w.vector(&x);
            w.line(&format!("{a} = {};", vcombine(r.op, &a, &x)));
        } else {
            let x = w.scalar(&x);
            w.line(&format!(
                "{a}[0] = {};",
                combine(r.op, &format!("{a}[0]"), &x)
            ));
        }
    });
    let mut level: Vec<String> = (0..LANES).map(|u| format!("{a}[{u}]")).collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| combine(r.op, &p[0], &p[1]))
            .collect();
    }
    w.line(&format!("*res = {};", level[0]));
    let part = w.finish(&format!(
        "void {name}_part({PARAMS}, long long o, long long lo, long long hi, double* restrict res)"
    ));
    let mut w = writer(plan, k);
    unflatten(&mut w, r.vars, shape, "o");
    let i = w.expr(r.init);
    let i = w.scalar(&i);
    w.line(&format!("return {i};"));
    let init = w.finish(&format!("double {name}_init({PARAMS}, long long o)"));
    format!("{part}\n{init}")
}

/// `scan`: inner elements `lo..hi`, one at a time.
fn scan(plan: &Plan, k: &Kernel, name: &str, kind: &KernelKind) -> String {
    let KernelKind::Scan {
        vars,
        k: kv,
        acc,
        init,
        step,
    } = kind
    else {
        unreachable!("a scan")
    };
    let shape = &plan.buffers[k.out].shape;
    let m = shape.first().copied().unwrap_or(0);
    let rest = &shape[1..];
    let r: usize = rest.iter().product();
    let mut w = writer(plan, k);
    w.line(&format!("double* restrict out = B[{}];", k.out));
    w.open("for (long long t = lo; t < hi; ++t)");
    unflatten(&mut w, vars, rest, "t");
    let i = w.expr(init);
    let i = w.scalar(&i);
    w.line(&format!("double a = {i};"));
    w.open(&format!("for (long long s = 0; s < {m}LL; ++s)"));
    uniform_at(&mut w, *kv, "s", m);
    w.uniform(*acc, "a");
    let s = w.expr(step);
    let s = w.scalar(&s);
    w.line(&format!("a = {s};"));
    w.line(&format!("out[s * {r}LL + t] = a;"));
    w.close();
    w.close();
    w.finish(&format!(
        "void {name}({PARAMS}, long long lo, long long hi)"
    ))
}

/// `scatter`: every source point in order, one at a time.
fn scatter(plan: &Plan, k: &Kernel, name: &str, kind: &KernelKind) -> String {
    let KernelKind::Scatter {
        vars,
        src,
        index,
        value,
    } = kind
    else {
        unreachable!("a scatter")
    };
    let shape = &plan.buffers[k.out].shape;
    let mut w = writer(plan, k);
    w.line(&format!("double* restrict out = B[{}];", k.out));
    let n = nest(&mut w, vars, src);
    let mut flat = String::from("0LL");
    let mut tests = Vec::new();
    for (t, (i, &d)) in index.iter().zip(shape).enumerate() {
        let (c, test) = w.index(i, d);
        let u = w.fresh("u");
        w.line(&format!("const long long {u} = {c};"));
        if test {
            tests.push(format!("({u} >= 0 && {u} < {d}LL)"));
        }
        flat = if t == 0 {
            u
        } else {
            format!("({flat}) * {d}LL + {u}")
        };
    }
    let v = w.expr(value);
    let v = w.scalar(&v);
    let cond = if tests.is_empty() {
        "1".to_string()
    } else {
        tests.join(" && ")
    };
    w.line(&format!("if ({cond}) out[{flat}] += {v};"));
    for _ in 0..n {
        w.close();
    }
    w.finish(&format!("void {name}({PARAMS})"))
}

/// The reduction fields of `kind`, when it is a `reduce`.
fn red(kind: &KernelKind) -> Option<Red<'_>> {
    match kind {
        KernelKind::Reduce {
            vars,
            red_vars,
            red,
            op,
            init,
            body,
        } => Some(Red {
            vars,
            red_vars,
            red,
            op: *op,
            init,
            body,
        }),
        _ => None,
    }
}

/// The C source of `plan`'s kernels, symbols prefixed by `prefix` (several plans may
/// share one translation unit). Matrix products run in Rust and have no function; a
/// batched product has its reduction's.
pub fn source(plan: &Plan, prefix: &str) -> Source {
    let mut text = String::new();
    let mut kernels = Vec::new();
    for k in plan.kernels() {
        let name = format!("{prefix}{}", k.name);
        let (code, form) = match &k.kind {
            KernelKind::Map { vars, body } => (map(plan, k, &name, vars, body), Form::Map),
            KernelKind::Reduce { .. } => {
                let r = red(&k.kind).expect("a reduce");
                let chunked = matches!(r.op, RedOp::Add | RedOp::Mul);
                let mut code = reduce(plan, k, &name, &r);
                if chunked {
                    code.push('\n');
                    code.push_str(&reduce_part(plan, k, &name, &r));
                }
                (code, Form::Reduce { chunked })
            }
            KernelKind::Scan { .. } => (scan(plan, k, &name, &k.kind), Form::Scan),
            KernelKind::Scatter { .. } => (scatter(plan, k, &name, &k.kind), Form::Scatter),
            KernelKind::Batched { exact, .. } => match red(exact) {
                Some(r) => (reduce(plan, k, &format!("{name}_exact"), &r), Form::Batched),
                None => continue,
            },
            KernelKind::MatMul { .. } => continue,
        };
        text.push('\n');
        text.push_str(&code);
        kernels.push(Compiled {
            kernel: k.name.clone(),
            symbol: name,
            form,
        });
    }
    Source { text, kernels }
}

/// A translation unit of the header and helpers only, with one function of lane values:
/// what a C compiler must accept to compile kernels (GNU C vector extensions).
pub fn probe() -> String {
    format!(
        "{HEADER}{PRELUDE}{VECTOR_PRELUDE}adora_vd adora_probe(adora_vd x) {{ return adora_vsel(x < ADORA_VD(0.0), adora_vexp(x), x); }}\n"
    )
}

/// The whole translation unit of one plan: the header, the scalar conventions, every
/// kernel.
pub fn module(plan: &Plan) -> Source {
    let s = source(plan, "");
    Source {
        text: format!("{HEADER}{PRELUDE}{VECTOR_PRELUDE}{}", s.text),
        kernels: s.kernels,
    }
}

/// One translation unit for several plans (the `i`-th plan's symbols prefixed `pI_`), and
/// each plan's kernels.
pub fn modules(plans: &[&Plan]) -> (String, Vec<Vec<Compiled>>) {
    let mut text = format!("{HEADER}{PRELUDE}{VECTOR_PRELUDE}");
    let mut kernels = Vec::new();
    for (i, p) in plans.iter().enumerate() {
        let s = source(p, &format!("p{i}_"));
        text.push_str(&s.text);
        kernels.push(s.kernels);
    }
    (text, kernels)
}
