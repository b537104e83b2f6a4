//! The C source of a plan's compiled kernels (docs/backend.md, "Compiled kernels"): the
//! scalar conventions of the CUDA prelude as `static inline` C functions, then per kernel
//! the functions below, over `B` (the buffer pointers by buffer id) and `C` (the host loop
//! counters by counter id).
//!
//! | kernel | functions | computes |
//! |---|---|---|
//! | `map` | `NAME(B, C, lo, hi)` | output points `lo..hi`, a row of the innermost dimension at a time |
//! | `reduce` | `NAME(B, C, lo, hi)` | outputs `lo..hi`, each the left fold from `init` over the reduced space in order |
//! | `reduce` with `+` or `*` | also `NAME_part(B, C, o, lo, hi, res)`, `NAME_init(B, C, o)` | the fold of reduced points `lo..hi` of output `o` in eight interleaved chains from the neutral element, and `init` of `o` |
//! | `scan` | `NAME(B, C, lo, hi)` | inner elements `lo..hi`, each a sequential fold along the outer dimension |
//! | `scatter` | `NAME(B, C)` | every source point in order, its value added at its index (dropped outside) |
//! | batched `matmul` | `NAME_exact(B, C, lo, hi)` | outputs `lo..hi` of the reduction the product replaces |
//!
//! Every body is written by [`Writer::integers`]: index variables are `long long`, loads
//! at indices provably inside their dimensions read without a test.

use crate::cuda::codegen::PRELUDE;
use crate::cuda::expr::Writer;
use crate::plan::{Kernel, KernelKind, Plan, RedOp};
use std::collections::BTreeSet;

/// How a compiled kernel is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `NAME(B, C, lo, hi)` over output points.
    Map,
    /// `NAME(B, C, lo, hi)` over outputs; `chunked`: also `NAME_part` and `NAME_init`.
    Reduce {
        /// Whether the reduction has partial sums (`+`, `*`).
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
fn writer(plan: &Plan, k: &Kernel, indent: usize) -> Writer {
    let slot = plan.buffers[k.out].slot;
    let zero: BTreeSet<usize> = (0..plan.buffers.len())
        .filter(|&b| plan.buffers[b].slot == slot)
        .collect();
    Writer::integers(indent, zero)
}

/// Binds the host loop counters `k` reads.
fn counters(w: &mut Writer, k: &Kernel) {
    for (v, c) in &k.counters {
        let name = w.fresh("ctr");
        w.line(&format!("const double {name} = C[{c}];"));
        w.var(*v, &name);
    }
}

/// Binds the variables `vars` of a space `shape` from the flat index `flat` (a C
/// expression): `long long` values and their doubles.
fn unflatten(w: &mut Writer, vars: &[u32], shape: &[usize], flat: &str) {
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
        w.int_var(v, &x, &i, n);
    }
}

/// Opens a loop over the points `lo..hi` (C expressions) of a space of `vars` over
/// `shape`, a row of the innermost dimension at a time: binds the variables and leaves the
/// writer inside the innermost loop, whose flat point is `t + (j - j0)`. Returns the
/// number of braces to close with [`close`] and the C name of the point's flat index.
fn rows(w: &mut Writer, vars: &[u32], shape: &[usize], lo: &str, hi: &str) -> (usize, String) {
    let d = shape.len();
    let inner = shape[d - 1];
    w.line(&format!("long long t = {lo};"));
    w.line(&format!("while (t < {hi}) {{"));
    w.indent += 1;
    w.line(&format!("const long long row = t / {inner}LL;"));
    w.line(&format!("const long long j0 = t - row * {inner}LL;"));
    unflatten(w, &vars[..d - 1], &shape[..d - 1], "row");
    w.line(&format!("long long jn = {inner}LL - j0;"));
    w.line(&format!("if (jn > {hi} - t) jn = {hi} - t;"));
    w.line("const long long base = t - j0;");
    w.line("for (long long j = j0; j < j0 + jn; ++j) {");
    w.indent += 1;
    let x = w.fresh("x");
    w.line(&format!("const double {x} = (double)j;"));
    w.int_var(vars[d - 1], &x, "j", inner);
    (2, "base + j".into())
}

/// Closes the loops of [`rows`].
fn close_rows(w: &mut Writer) {
    w.indent -= 1;
    w.line("}");
    w.line("t += jn;");
    w.indent -= 1;
    w.line("}");
}

/// Nested loops over a whole space of `vars` over `shape` (row-major order); returns the
/// number of loops opened.
fn nest(w: &mut Writer, vars: &[u32], shape: &[usize]) -> usize {
    for (&v, &n) in vars.iter().zip(shape) {
        let (q, x) = (w.fresh("q"), w.fresh("x"));
        w.line(&format!("for (long long {q} = 0; {q} < {n}LL; ++{q}) {{"));
        w.indent += 1;
        w.line(&format!("const double {x} = (double){q};"));
        w.int_var(v, &x, &q, n);
    }
    vars.len()
}

/// Closes `n` loops.
fn close(w: &mut Writer, n: usize) {
    for _ in 0..n {
        w.indent -= 1;
        w.line("}");
    }
}

/// The function: its head, the declarations of the buffers its body reads, the body.
fn function(head: &str, w: Writer) -> String {
    let mut s = format!("{head} {{\n");
    if let Some(ints) = &w.ints {
        for b in &ints.read {
            s.push_str(&format!("  const double* restrict b{b} = B[{b}];\n"));
        }
    }
    s.push_str(&w.out);
    s.push_str("}\n");
    s
}

/// `map`: output points `lo..hi`.
fn map(plan: &Plan, k: &Kernel, name: &str, vars: &[u32], body: &crate::plan::Sx) -> String {
    let shape = &plan.buffers[k.out].shape;
    let mut w = writer(plan, k, 1);
    w.line(&format!("double* restrict out = B[{}];", k.out));
    counters(&mut w, k);
    if shape.is_empty() {
        w.line("if (lo < hi) {");
        w.indent += 1;
        let r = w.expr(body);
        w.line(&format!("out[0] = {r};"));
        close(&mut w, 1);
    } else {
        let (_, at) = rows(&mut w, vars, shape, "lo", "hi");
        let r = w.expr(body);
        w.line(&format!("out[{at}] = {r};"));
        close_rows(&mut w);
    }
    function(
        &format!("void {name}({PARAMS}, long long lo, long long hi)"),
        w,
    )
}

/// The fields of a `reduce` kernel.
struct Red<'a> {
    vars: &'a [u32],
    red_vars: &'a [u32],
    red: &'a [usize],
    op: RedOp,
    init: &'a crate::plan::Sx,
    body: &'a crate::plan::Sx,
}

/// Outputs a block of the per-output reduction computes together.
pub const BLOCK: usize = 8;

/// The statements of one output's fold into `acc` (declared by the caller), the output's
/// variables bound.
fn fold_into(w: &mut Writer, r: &Red<'_>, acc: &str) {
    let n = nest(w, r.red_vars, r.red);
    let x = w.expr(r.body);
    w.line(&format!("{acc} = {};", combine(r.op, acc, &x)));
    close(w, n);
}

/// `reduce`: outputs `lo..hi`, each the left fold from `init` over the reduced space in
/// order. Along a row of the output's innermost dimension, blocks of [`BLOCK`] outputs
/// fold together, the block's loop innermost (independent chains the compiler can
/// vectorise); each output's fold is the same.
fn reduce(plan: &Plan, k: &Kernel, name: &str, r: &Red<'_>) -> String {
    let shape = &plan.buffers[k.out].shape;
    let mut w = writer(plan, k, 1);
    w.line(&format!("double* restrict out = B[{}];", k.out));
    counters(&mut w, k);
    let head = format!("void {name}({PARAMS}, long long lo, long long hi)");
    if shape.is_empty() {
        w.line("if (lo < hi) {");
        w.indent += 1;
        let a = w.expr(r.init);
        w.line(&format!("double acc = {a};"));
        fold_into(&mut w, r, "acc");
        w.line("out[0] = acc;");
        close(&mut w, 1);
        return function(&head, w);
    }
    let d = shape.len();
    let inner = shape[d - 1];
    let v = r.vars[d - 1];
    w.line("long long t = lo;");
    w.line("while (t < hi) {");
    w.indent += 1;
    w.line(&format!("const long long row = t / {inner}LL;"));
    w.line(&format!("const long long j0 = t - row * {inner}LL;"));
    unflatten(&mut w, &r.vars[..d - 1], &shape[..d - 1], "row");
    w.line(&format!("long long jn = {inner}LL - j0;"));
    w.line("if (jn > hi - t) jn = hi - t;");
    w.line("const long long base = t - j0;");
    w.line("long long jb = j0;");
    w.line(&format!(
        "for (; jb + {BLOCK} <= j0 + jn; jb += {BLOCK}) {{"
    ));
    w.indent += 1;
    w.line(&format!("double acc[{BLOCK}];"));
    let lane = |w: &mut Writer| {
        w.line(&format!("for (int u = 0; u < {BLOCK}; ++u) {{"));
        w.indent += 1;
        w.line("const long long j = jb + u;");
        let x = w.fresh("x");
        w.line(&format!("const double {x} = (double)j;"));
        w.int_var(v, &x, "j", inner);
    };
    lane(&mut w);
    let a = w.expr(r.init);
    w.line(&format!("acc[u] = {a};"));
    close(&mut w, 1);
    let n = nest(&mut w, r.red_vars, r.red);
    lane(&mut w);
    let x = w.expr(r.body);
    w.line(&format!("acc[u] = {};", combine(r.op, "acc[u]", &x)));
    close(&mut w, n + 1);
    w.line(&format!(
        "for (int u = 0; u < {BLOCK}; ++u) out[base + jb + u] = acc[u];"
    ));
    close(&mut w, 1);
    w.line("for (; jb < j0 + jn; ++jb) {");
    w.indent += 1;
    w.line("const long long j = jb;");
    let x = w.fresh("x");
    w.line(&format!("const double {x} = (double)j;"));
    w.int_var(v, &x, "j", inner);
    let a = w.expr(r.init);
    w.line(&format!("double acc1 = {a};"));
    fold_into(&mut w, r, "acc1");
    w.line("out[base + jb] = acc1;");
    close(&mut w, 1);
    w.line("t += jn;");
    close(&mut w, 1);
    function(&head, w)
}

/// `reduce` with `+` or `*`: the partial fold of reduced points `lo..hi` of output `o`
/// in eight chains (point `j` of a row run goes to chain `(j - j0) % 8` while eight
/// remain, the rest to chain 0), combined pairwise.
fn reduce_part(plan: &Plan, k: &Kernel, name: &str, r: &Red<'_>) -> String {
    let shape = &plan.buffers[k.out].shape;
    let mut w = writer(plan, k, 1);
    counters(&mut w, k);
    unflatten(&mut w, r.vars, shape, "o");
    let z = neutral(r.op);
    w.line(&format!(
        "double a[8] = {{{z}, {z}, {z}, {z}, {z}, {z}, {z}, {z}}};"
    ));
    if r.red.is_empty() {
        w.line("if (lo < hi) {");
        w.indent += 1;
        let x = w.expr(r.body);
        w.line(&format!("a[0] = {};", combine(r.op, "a[0]", &x)));
        close(&mut w, 1);
    } else {
        let d = r.red.len();
        let inner = r.red[d - 1];
        w.line("long long t = lo;");
        w.line("while (t < hi) {");
        w.indent += 1;
        w.line(&format!("const long long row = t / {inner}LL;"));
        w.line(&format!("const long long j0 = t - row * {inner}LL;"));
        unflatten(&mut w, &r.red_vars[..d - 1], &r.red[..d - 1], "row");
        w.line(&format!("long long jn = {inner}LL - j0;"));
        w.line("if (jn > hi - t) jn = hi - t;");
        w.line("const long long je = j0 + jn;");
        w.line("long long jb = j0;");
        w.line("for (; jb + 8 <= je; jb += 8) {");
        w.indent += 1;
        w.line("for (int u = 0; u < 8; ++u) {");
        w.indent += 1;
        w.line("const long long j = jb + u;");
        let x = w.fresh("x");
        w.line(&format!("const double {x} = (double)j;"));
        w.int_var(r.red_vars[d - 1], &x, "j", inner);
        let v = w.expr(r.body);
        w.line(&format!("a[u] = {};", combine(r.op, "a[u]", &v)));
        close(&mut w, 2);
        w.line("for (long long j = jb; j < je; ++j) {");
        w.indent += 1;
        let x = w.fresh("x");
        w.line(&format!("const double {x} = (double)j;"));
        w.int_var(r.red_vars[d - 1], &x, "j", inner);
        let v = w.expr(r.body);
        w.line(&format!("a[0] = {};", combine(r.op, "a[0]", &v)));
        close(&mut w, 1);
        w.line("t += jn;");
        close(&mut w, 1);
    }
    let pair = |i: usize, j: usize| combine(r.op, &format!("a[{i}]"), &format!("a[{j}]"));
    let (l, rr) = (
        combine(r.op, &pair(0, 1), &pair(2, 3)),
        combine(r.op, &pair(4, 5), &pair(6, 7)),
    );
    w.line(&format!("*res = {};", combine(r.op, &l, &rr)));
    let part = function(
        &format!(
            "void {name}_part({PARAMS}, long long o, long long lo, long long hi, double* restrict res)"
        ),
        w,
    );
    let mut w = writer(plan, k, 1);
    counters(&mut w, k);
    unflatten(&mut w, r.vars, shape, "o");
    let a = w.expr(r.init);
    w.line(&format!("return {a};"));
    let init = function(&format!("double {name}_init({PARAMS}, long long o)"), w);
    format!("{part}\n{init}")
}

/// `scan`: inner elements `lo..hi`.
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
    let mut w = writer(plan, k, 1);
    w.line(&format!("double* restrict out = B[{}];", k.out));
    counters(&mut w, k);
    w.line("for (long long t = lo; t < hi; ++t) {");
    w.indent += 1;
    unflatten(&mut w, vars, rest, "t");
    let i = w.expr(init);
    w.line(&format!("double a = {i};"));
    w.line(&format!("for (long long s = 0; s < {m}LL; ++s) {{"));
    w.indent += 1;
    w.line("const double sd = (double)s;");
    w.int_var(*kv, "sd", "s", m);
    w.var(*acc, "a");
    let s = w.expr(step);
    w.line(&format!("a = {s};"));
    w.line(&format!("out[s * {r}LL + t] = a;"));
    close(&mut w, 2);
    function(
        &format!("void {name}({PARAMS}, long long lo, long long hi)"),
        w,
    )
}

/// `scatter`: every source point in order.
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
    let mut w = writer(plan, k, 1);
    w.line(&format!("double* restrict out = B[{}];", k.out));
    counters(&mut w, k);
    let n = nest(&mut w, vars, src);
    let mut us = Vec::new();
    for (i, &d) in index.iter().zip(shape) {
        let x = w.int_index(i, d);
        let u = w.fresh("u");
        w.line(&format!("const long long {u} = {x};"));
        us.push((u, d));
    }
    let v = w.expr(value);
    let mut flat = String::from("0LL");
    for (t, (u, d)) in us.iter().enumerate() {
        flat = if t == 0 {
            u.clone()
        } else {
            format!("({flat}) * {d}LL + {u}")
        };
    }
    let cond: Vec<String> = us.iter().map(|(u, _)| format!("{u} >= 0")).collect();
    let cond = if cond.is_empty() {
        "1".to_string()
    } else {
        cond.join(" && ")
    };
    w.line(&format!("if ({cond}) out[{flat}] += {v};"));
    close(&mut w, n);
    function(&format!("void {name}({PARAMS})"), w)
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

/// The whole translation unit of one plan: the header, the scalar conventions, every
/// kernel.
pub fn module(plan: &Plan) -> Source {
    let s = source(plan, "");
    Source {
        text: format!("{HEADER}{PRELUDE}{}", s.text),
        kernels: s.kernels,
    }
}

/// One translation unit for several plans (the `i`-th plan's symbols prefixed `pI_`), and
/// each plan's kernels.
pub fn modules(plans: &[&Plan]) -> (String, Vec<Vec<Compiled>>) {
    let mut text = format!("{HEADER}{PRELUDE}");
    let mut kernels = Vec::new();
    for (i, p) in plans.iter().enumerate() {
        let s = source(p, &format!("p{i}_"));
        text.push_str(&s.text);
        kernels.push(s.kernels);
    }
    (text, kernels)
}
