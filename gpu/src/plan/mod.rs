//! Kernel plans (docs/backend.md): an elaborated core `Function` — a primal, bot's normal
//! form or any engine's derivative program — lowered to a sequence of kernels over flat
//! `f64` buffers, with host-side loops, and a memory plan that reuses buffers.

mod arr;
mod batched;
mod gather;
mod lower;
mod matmul;
mod memory;
mod print;
mod soac;
pub mod sx;
mod tabulate;
pub mod traffic;
mod transpose;

use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::{Base, Type};
pub use sx::{Bin, BufId, Sx, Un, VarId};

/// A buffer of the plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// Its shape (row-major; `[]` is one scalar).
    pub shape: Vec<usize>,
    /// The element type it holds (all are stored as `f64`).
    pub base: Base,
    /// The memory slot the memory plan gives it (buffers with disjoint lifetimes share
    /// slots).
    pub slot: usize,
}

impl Buffer {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The combining operator of a parallel reduction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RedOp {
    /// `+` (neutral 0).
    Add,
    /// `*` (neutral 1).
    Mul,
    /// `min` (ties: the left operand).
    Min,
    /// `max` (ties: the left operand).
    Max,
}

impl RedOp {
    /// The binary operation it folds with.
    pub fn bin(self) -> Bin {
        match self {
            RedOp::Add => Bin::Add,
            RedOp::Mul => Bin::Mul,
            RedOp::Min => Bin::Min,
            RedOp::Max => Bin::Max,
        }
    }
    /// Its neutral element.
    pub fn neutral(self) -> f64 {
        match self {
            RedOp::Add => 0.0,
            RedOp::Mul => 1.0,
            RedOp::Min => f64::INFINITY,
            RedOp::Max => f64::NEG_INFINITY,
        }
    }
}

/// What a kernel computes into its output buffer.
#[derive(Clone, Debug, PartialEq)]
pub enum KernelKind {
    /// `out[vars] = body` over the output's whole index space (fused elementwise chains,
    /// gathers, transposes, `build` bodies).
    Map {
        /// One index variable per output dimension.
        vars: Vec<VarId>,
        /// The element.
        body: Sx,
    },
    /// `out[vars] = init op body(vars, r_0) op body(vars, r_1) …` over the reduction space
    /// `red` (sum, sum_outer, reduce with `+ * min max`).
    Reduce {
        /// Index variables of the output.
        vars: Vec<VarId>,
        /// Index variables of the reduced space.
        red_vars: Vec<VarId>,
        /// The reduced space's shape.
        red: Vec<usize>,
        /// The operator.
        op: RedOp,
        /// The first operand (the neutral element given by the program).
        init: Sx,
        /// The reduced elements.
        body: Sx,
    },
    /// An inclusive scan along the output's outermost dimension (length `m`), one
    /// sequential fold per inner element: `acc = init; acc = step(acc, k); out[k, vars] = acc`.
    Scan {
        /// Index variables of the inner dimensions.
        vars: Vec<VarId>,
        /// The position along the scanned dimension.
        k: VarId,
        /// The accumulator.
        acc: VarId,
        /// The initial accumulator.
        init: Sx,
        /// The next accumulator.
        step: Sx,
    },
    /// `out[index(vars)] += value(vars)` over the source space `src` (out-of-bounds
    /// writes dropped); the output holds its initial value already.
    Scatter {
        /// Index variables of the source space.
        vars: Vec<VarId>,
        /// The source space's shape.
        src: Vec<usize>,
        /// The full multi-index written.
        index: Vec<Sx>,
        /// The value added.
        value: Sx,
    },
    /// `out[m, n] = op(a)[m, k] · op(b)[k, n]` (a contraction recognised as a matrix
    /// product; `op` transposes when the flag says so). A matrix-vector product has `n = 1`.
    MatMul {
        /// The left operand (`[m, k]`, or `[k, m]` when `ta`).
        a: BufId,
        /// Whether `a` is read transposed.
        ta: bool,
        /// The right operand (`[k, n]`, or `[n, k]` when `tb`).
        b: BufId,
        /// Whether `b` is read transposed.
        tb: bool,
        /// Rows of the result.
        m: usize,
        /// Columns of the result.
        n: usize,
        /// The contracted length.
        k: usize,
    },
    /// A batched contraction `out[β, i, j] = Σ_r a[β, i, r] · b[β, r, j]`, one matrix
    /// product per batch index on strided views (docs/backend.md, "Batched products"):
    /// element `(β, i, r)` of `a` is at `β·sa[0] + i·sa[1] + r·sa[2]` (a stride 0 where
    /// the side does not read that index), likewise `b` at `(β, r, j)` and the output at
    /// `(β, i, j)`. The outputs that come out zero are recomputed as the program sums
    /// them ([`Zeros`]), so a zero has the program's sign. `exact` is the reduction it
    /// replaces, over the program's own buffers: it runs instead when a side was stored
    /// under a select and a side holds a non-finite value (a stored `0` would meet it
    /// where the program never multiplies), and it is what CUDA runs.
    Batched {
        /// The left side.
        a: BufId,
        /// The right side.
        b: BufId,
        /// The number of batch indices.
        count: usize,
        /// Rows (the left side's free index).
        m: usize,
        /// Columns (the right side's free index; 1 for a batched matrix-vector product).
        n: usize,
        /// The contracted length.
        k: usize,
        /// Strides of `a` for `(β, i, r)`.
        sa: [usize; 3],
        /// Strides of `b` for `(β, r, j)`.
        sb: [usize; 3],
        /// Strides of the output for `(β, i, j)`.
        so: [usize; 3],
        /// How the zeros are recomputed.
        zeros: Zeros,
        /// The `reduce` kernel it replaces.
        exact: Box<KernelKind>,
    },
}

/// How a batched product recomputes the outputs that come out zero (docs/backend.md,
/// "Batched products").
#[derive(Clone, Debug, PartialEq)]
pub enum Zeros {
    /// No side was stored under a select: re-summed in order from the two sides.
    Sides,
    /// The summed element is `c ? y : 0` (selects around the whole product, `c`
    /// reading the contracted index): each side's conditions are stored beside it, in
    /// its layout, as 1 or 0, and a term a condition drops is the program's `+0`.
    Masks([Option<BufId>; 2]),
    /// A select inside the product (a dropped term is `x · +0`, its sign that of the
    /// factors outside the select): re-evaluated by the reduction it replaces.
    Exact,
}

impl KernelKind {
    /// The scalar expressions of the kernel (none for a matrix product; a batched one's are
    /// those of the reduction it replaces).
    pub fn exprs(&self) -> Vec<&Sx> {
        match self {
            KernelKind::Map { body, .. } => vec![body],
            KernelKind::Reduce { init, body, .. } => vec![init, body],
            KernelKind::Scan { init, step, .. } => vec![init, step],
            KernelKind::Scatter { index, value, .. } => index.iter().chain([value]).collect(),
            KernelKind::MatMul { .. } => Vec::new(),
            KernelKind::Batched { exact, .. } => exact.exprs(),
        }
    }

    /// The scalar expressions of the kernel, mutably (the order of [`KernelKind::exprs`]).
    pub fn exprs_mut(&mut self) -> Vec<&mut Sx> {
        match self {
            KernelKind::Map { body, .. } => vec![body],
            KernelKind::Reduce { init, body, .. } => vec![init, body],
            KernelKind::Scan { init, step, .. } => vec![init, step],
            KernelKind::Scatter { index, value, .. } => {
                index.iter_mut().chain(std::iter::once(value)).collect()
            }
            KernelKind::MatMul { .. } => Vec::new(),
            KernelKind::Batched { exact, .. } => exact.exprs_mut(),
        }
    }

    /// The variables the kernel binds itself (index variables of its spaces, a scan's
    /// position and accumulator), mutably.
    pub fn binders_mut(&mut self) -> Vec<&mut VarId> {
        match self {
            KernelKind::Map { vars, .. } | KernelKind::Scatter { vars, .. } => {
                vars.iter_mut().collect()
            }
            KernelKind::Reduce { vars, red_vars, .. } => {
                vars.iter_mut().chain(red_vars.iter_mut()).collect()
            }
            KernelKind::Scan { vars, k, acc, .. } => vars.iter_mut().chain([k, acc]).collect(),
            KernelKind::MatMul { .. } => Vec::new(),
            KernelKind::Batched { exact, .. } => exact.binders_mut(),
        }
    }

    /// The kernel's name tag: `matmul` for a matrix product, batched or not, `map` and
    /// `reduce` for those, else `other`.
    pub fn tag<'a>(&self, other: &'a str) -> &'a str {
        match self {
            KernelKind::MatMul { .. } | KernelKind::Batched { .. } => "matmul",
            KernelKind::Map { .. } => "map",
            KernelKind::Reduce { .. } => "reduce",
            _ => other,
        }
    }

    /// Nodes of the kernel's scalar expressions.
    pub fn size(&self) -> usize {
        self.exprs().iter().map(|e| e.size()).sum()
    }
}

/// The most scalar-expression nodes one kernel may have. Fusion recomputes an array
/// `let` at each use inside a parallel body (a kernel has no per-thread arrays), so
/// nested reuse grows a body exponentially; such a program is refused rather than
/// compiled to megabytes of CUDA C (docs/backend.md, "What the plan refuses").
pub const MAX_KERNEL_SIZE: usize = 20_000;

/// One kernel: its output buffer and what it computes. Its variables are numbered
/// `0..nvars`.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// A readable name (`k3_map`).
    pub name: String,
    /// The buffer written.
    pub out: BufId,
    /// The computation.
    pub kind: KernelKind,
    /// Number of distinct variables (after renumbering).
    pub nvars: u32,
    /// The host loop counters the kernel reads: (kernel variable, loop counter).
    pub counters: Vec<(VarId, VarId)>,
}

/// A step of the plan.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Launch a kernel.
    Kernel(Kernel),
    /// Host-side iteration: run `body` `count` times with the counter set to `0..count`,
    /// copying each `(from, to)` buffer after an iteration (the new accumulator).
    Loop {
        /// The counter (a host variable kernels read).
        counter: VarId,
        /// Trip count.
        count: usize,
        /// The steps of one iteration.
        body: Vec<Step>,
        /// Accumulator updates at the end of an iteration.
        carry: Vec<(BufId, BufId)>,
    },
}

/// How the plan's result is assembled from buffers.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// An array held by a buffer.
    Buf(BufId),
    /// A tuple.
    Tuple(Vec<Output>),
}

/// A kernel plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The function's name.
    pub name: String,
    /// Every buffer.
    pub buffers: Vec<Buffer>,
    /// The buffers of each parameter (a tuple parameter has several), in order.
    pub inputs: Vec<Output>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The result.
    pub output: Output,
    /// The result type.
    pub ret: Type,
    /// Sizes in elements of the memory slots.
    pub slots: Vec<usize>,
}

impl Plan {
    /// Every kernel, loops' bodies included, in order.
    pub fn kernels(&self) -> Vec<&Kernel> {
        fn walk<'p>(steps: &'p [Step], out: &mut Vec<&'p Kernel>) {
            for s in steps {
                match s {
                    Step::Kernel(k) => out.push(k),
                    Step::Loop { body, .. } => walk(body, out),
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.steps, &mut out);
        out
    }

    /// Elements of all buffers together, and of the memory slots (what the memory plan
    /// saves is the difference).
    pub fn footprint(&self) -> (usize, usize) {
        (
            self.buffers.iter().map(Buffer::len).sum(),
            self.slots.iter().sum(),
        )
    }
}

/// Lowers an elaborated function to a kernel plan. Constructs the plan cannot express
/// are refused with `ErrorKind::Unsupported` naming the construct at its span
/// (docs/backend.md lists them).
pub fn plan(f: &Function) -> Result<Plan> {
    let mut p = lower::lower(f)?;
    transpose::fold_transposes(&mut p);
    if let Some(k) = p
        .kernels()
        .into_iter()
        .find(|k| k.kind.size() > MAX_KERNEL_SIZE)
    {
        return Err(Diagnostic::new(
            ErrorKind::Unsupported,
            f.body.span,
            format!(
                "the kernel plan does not support kernel `{}`: its fused body has {} scalar operations (at most {MAX_KERNEL_SIZE}; an array `let` used several times inside a parallel body is recomputed at each use) (docs/backend.md, \"What the plan refuses\")",
                k.name,
                k.kind.size()
            ),
        ));
    }
    memory::assign(&mut p);
    Ok(p)
}

pub use print::show;
pub use traffic::traffic;
