//! Scalar expressions: the body of one kernel, evaluated once per point of the kernel's
//! index space (docs/backend.md, "Kernel plans"). Every value is an `f64`: reals are
//! IEEE doubles, integers (`Z`) are exact integral doubles and booleans are `0`/`1`.

/// A buffer of the plan: a flat, row-major array of `f64`s.
pub type BufId = usize;

/// A variable of a kernel: an index variable of its space, a `let`, a fold's counter or
/// accumulator, or a host-side loop counter.
pub type VarId = u32;

/// Unary scalar operations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Un {
    /// `-x`.
    Neg,
    /// `!b`.
    Not,
    /// `exp`.
    Exp,
    /// `log`.
    Log,
    /// `sin`.
    Sin,
    /// `cos`.
    Cos,
    /// `tanh`.
    Tanh,
    /// `sqrt`.
    Sqrt,
    /// `abs`.
    Abs,
    /// `floor(x)`: `R → Z`.
    Floor,
    /// `pow(x, k)` on reals: `x^|k|` by squaring, then `1 / ·` for `k < 0` (IEEE).
    PowR(i64),
    /// `pow(x, k)` on integers: `x^|k|`, then the floor reciprocal (total) for `k < 0`.
    PowZ(i64),
}

/// Binary scalar operations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bin {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` on reals (IEEE, as `--numeric f64`).
    DivR,
    /// `/` on integers: floor division, `x / 0 = 0`.
    DivZ,
    /// `%` on integers: the remainder of floor division, `x % 0 = x`.
    ModZ,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `&&`.
    And,
    /// `||`.
    Or,
    /// `min(a, b)`: `a` when `a <= b`, else `b`.
    Min,
    /// `max(a, b)`: `a` when `a >= b`, else `b`.
    Max,
}

/// A scalar expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Sx {
    /// A constant.
    Const(f64),
    /// A variable.
    Var(VarId),
    /// An element of a buffer of the given shape at a full multi-index; an index out of
    /// its dimension (or not integral) reads `0` (docs/language.md, "Semantic conventions").
    Load(BufId, Vec<usize>, Vec<Sx>),
    /// A unary operation.
    Un(Un, Box<Sx>),
    /// A binary operation.
    Bin(Bin, Box<Sx>, Box<Sx>),
    /// `c ? a : b` (`c` nonzero).
    Select(Box<Sx>, Box<Sx>, Box<Sx>),
    /// `let v = value in body`.
    Let(VarId, Box<Sx>, Box<Sx>),
    /// A sequential fold inside one kernel thread: `acc = init; for var < count:
    /// acc = body(var, acc)`; the value is the last `acc`.
    Fold {
        /// The counter.
        var: VarId,
        /// The trip count.
        count: usize,
        /// The accumulator.
        acc: VarId,
        /// Its initial value.
        init: Box<Sx>,
        /// The next accumulator.
        body: Box<Sx>,
    },
}

impl Sx {
    /// A unary node.
    pub fn un(op: Un, a: Sx) -> Sx {
        Sx::Un(op, Box::new(a))
    }
    /// A binary node.
    pub fn bin(op: Bin, a: Sx, b: Sx) -> Sx {
        Sx::Bin(op, Box::new(a), Box::new(b))
    }
    /// A selection.
    pub fn select(c: Sx, a: Sx, b: Sx) -> Sx {
        Sx::Select(Box::new(c), Box::new(a), Box::new(b))
    }

    /// Whether the expression contains a fold (then it is not cheap to recompute).
    pub fn has_fold(&self) -> bool {
        let mut found = false;
        self.visit(&mut |s| found |= matches!(s, Sx::Fold { .. }));
        found
    }

    /// Whether the expression contains a transcendental operation (`exp log sin cos tanh
    /// sqrt`: tens of times an addition's cost, so worth computing once).
    pub fn has_transcendental(&self) -> bool {
        let mut found = false;
        self.visit(&mut |s| {
            found |= matches!(
                s,
                Sx::Un(
                    Un::Exp | Un::Log | Un::Sin | Un::Cos | Un::Tanh | Un::Sqrt,
                    _
                )
            )
        });
        found
    }

    /// The number of nodes (what the kernel's C source grows with).
    pub fn size(&self) -> usize {
        let mut n = 0;
        self.visit(&mut |_| n += 1);
        n
    }

    /// Calls `f` on every node, pre-order.
    pub fn visit(&self, f: &mut impl FnMut(&Sx)) {
        f(self);
        match self {
            Sx::Const(_) | Sx::Var(_) => {}
            Sx::Load(_, _, ix) => ix.iter().for_each(|i| i.visit(f)),
            Sx::Un(_, a) => a.visit(f),
            Sx::Bin(_, a, b) | Sx::Let(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Sx::Select(c, a, b) => {
                c.visit(f);
                a.visit(f);
                b.visit(f);
            }
            Sx::Fold { init, body, .. } => {
                init.visit(f);
                body.visit(f);
            }
        }
    }

    /// Shares the operands of `a op a`: every binary node whose two operands are the same
    /// expression (a square `e * e`, as `sum(q * q)` of a kernel-local `q` fuses to) and
    /// more than a variable or constant becomes `let v = e in v op v`, with `v` from
    /// `fresh`, so `e` is computed once. Bottom-up, so shared operands nest.
    pub fn share_equal_operands(&mut self, fresh: &mut impl FnMut() -> VarId) {
        match self {
            Sx::Const(_) | Sx::Var(_) => {}
            Sx::Load(_, _, ix) => ix.iter_mut().for_each(|i| i.share_equal_operands(fresh)),
            Sx::Un(_, a) => a.share_equal_operands(fresh),
            Sx::Bin(op, a, b) => {
                a.share_equal_operands(fresh);
                b.share_equal_operands(fresh);
                if a == b && !matches!(**a, Sx::Const(_) | Sx::Var(_)) {
                    let v = fresh();
                    let e = std::mem::replace(&mut **a, Sx::Var(v));
                    **b = Sx::Var(v);
                    let op = *op;
                    *self = Sx::Let(
                        v,
                        Box::new(e),
                        Box::new(Sx::Bin(op, Box::new(Sx::Var(v)), Box::new(Sx::Var(v)))),
                    );
                }
            }
            Sx::Select(c, a, b) => {
                c.share_equal_operands(fresh);
                a.share_equal_operands(fresh);
                b.share_equal_operands(fresh);
            }
            Sx::Let(_, a, b) => {
                a.share_equal_operands(fresh);
                b.share_equal_operands(fresh);
            }
            Sx::Fold { init, body, .. } => {
                init.share_equal_operands(fresh);
                body.share_equal_operands(fresh);
            }
        }
    }

    /// Applies `f` to every variable occurrence and binder (renumbering).
    pub fn rename(&mut self, f: &mut impl FnMut(VarId) -> VarId) {
        match self {
            Sx::Const(_) => {}
            Sx::Var(v) => *v = f(*v),
            Sx::Load(_, _, ix) => ix.iter_mut().for_each(|i| i.rename(f)),
            Sx::Un(_, a) => a.rename(f),
            Sx::Bin(_, a, b) => {
                a.rename(f);
                b.rename(f);
            }
            Sx::Let(v, a, b) => {
                *v = f(*v);
                a.rename(f);
                b.rename(f);
            }
            Sx::Select(c, a, b) => {
                c.rename(f);
                a.rename(f);
                b.rename(f);
            }
            Sx::Fold {
                var,
                acc,
                init,
                body,
                ..
            } => {
                *var = f(*var);
                *acc = f(*acc);
                init.rename(f);
                body.rename(f);
            }
        }
    }

    /// The buffers the expression reads.
    pub fn reads(&self, out: &mut Vec<BufId>) {
        self.visit(&mut |s| {
            if let Sx::Load(b, _, _) = s {
                if !out.contains(b) {
                    out.push(*b);
                }
            }
        });
    }

    /// Replaces the buffer ids by `f`.
    pub fn rebuffer(&mut self, f: &impl Fn(BufId) -> BufId) {
        match self {
            Sx::Const(_) | Sx::Var(_) => {}
            Sx::Load(b, _, ix) => {
                *b = f(*b);
                ix.iter_mut().for_each(|i| i.rebuffer(f));
            }
            Sx::Un(_, a) => a.rebuffer(f),
            Sx::Bin(_, a, b) | Sx::Let(_, a, b) => {
                a.rebuffer(f);
                b.rebuffer(f);
            }
            Sx::Select(c, a, b) => {
                c.rebuffer(f);
                a.rebuffer(f);
                b.rebuffer(f);
            }
            Sx::Fold { init, body, .. } => {
                init.rebuffer(f);
                body.rebuffer(f);
            }
        }
    }

    /// Whether the variable `v` occurs (binders are unique per kernel template, so an
    /// occurrence is a free one wherever `v` is not bound inside).
    pub fn mentions(&self, v: VarId) -> bool {
        let mut found = false;
        self.visit(&mut |s| found |= matches!(s, Sx::Var(w) if *w == v));
        found
    }

    /// Substitutes `to` for every free occurrence of `v` (binders are unique per kernel
    /// template, so no capture arises: `to` is a variable or a constant).
    pub fn subst(&self, v: VarId, to: &Sx) -> Sx {
        match self {
            Sx::Var(w) if *w == v => to.clone(),
            Sx::Const(_) | Sx::Var(_) => self.clone(),
            Sx::Load(b, sh, ix) => {
                Sx::Load(*b, sh.clone(), ix.iter().map(|i| i.subst(v, to)).collect())
            }
            Sx::Un(op, a) => Sx::un(*op, a.subst(v, to)),
            Sx::Bin(op, a, b) => Sx::bin(*op, a.subst(v, to), b.subst(v, to)),
            Sx::Select(c, a, b) => Sx::select(c.subst(v, to), a.subst(v, to), b.subst(v, to)),
            Sx::Let(w, a, b) => {
                let b = if *w == v {
                    (**b).clone()
                } else {
                    b.subst(v, to)
                };
                Sx::Let(*w, Box::new(a.subst(v, to)), Box::new(b))
            }
            Sx::Fold {
                var,
                count,
                acc,
                init,
                body,
            } => Sx::Fold {
                var: *var,
                count: *count,
                acc: *acc,
                init: Box::new(init.subst(v, to)),
                body: Box::new(if *var == v || *acc == v {
                    (**body).clone()
                } else {
                    body.subst(v, to)
                }),
            },
        }
    }
}

/// Scalar semantics of the operations on `f64`, shared by the CPU executor and the
/// checks (the CUDA C generator emits the same formulas; docs/backend.md).
pub mod ops {
    use super::{Bin, Un};

    /// `x^n` by squaring, as the evaluator computes it (docs/language.md, `pow`).
    fn pow_sq(x: f64, n: u64) -> f64 {
        if n == 0 {
            return 1.0;
        }
        let mut r = x;
        for i in (0..63 - n.leading_zeros()).rev() {
            r *= r;
            if (n >> i) & 1 == 1 {
                r *= x;
            }
        }
        r
    }

    /// Floor division on integral doubles, total (`x / 0 = 0`).
    pub fn div_z(x: f64, y: f64) -> f64 {
        if y == 0.0 {
            0.0
        } else {
            (x / y).floor()
        }
    }

    /// Remainder of floor division, total (`x % 0 = x`).
    pub fn mod_z(x: f64, y: f64) -> f64 {
        if y == 0.0 {
            x
        } else {
            x - y * (x / y).floor()
        }
    }

    /// A unary operation.
    pub fn un(op: Un, x: f64) -> f64 {
        match op {
            Un::Neg => -x,
            Un::Not => f64::from(x == 0.0),
            Un::Exp => x.exp(),
            Un::Log => x.ln(),
            Un::Sin => x.sin(),
            Un::Cos => x.cos(),
            Un::Tanh => x.tanh(),
            Un::Sqrt => x.sqrt(),
            Un::Abs => x.abs(),
            Un::Floor => x.floor(),
            Un::PowR(k) => {
                let r = pow_sq(x, k.unsigned_abs());
                if k < 0 {
                    1.0 / r
                } else {
                    r
                }
            }
            Un::PowZ(k) => {
                let r = pow_sq(x, k.unsigned_abs());
                if k < 0 {
                    div_z(1.0, r)
                } else {
                    r
                }
            }
        }
    }

    /// A binary operation.
    pub fn bin(op: Bin, a: f64, b: f64) -> f64 {
        match op {
            Bin::Add => a + b,
            Bin::Sub => a - b,
            Bin::Mul => a * b,
            Bin::DivR => a / b,
            Bin::DivZ => div_z(a, b),
            Bin::ModZ => mod_z(a, b),
            Bin::Eq => f64::from(a == b),
            Bin::Ne => f64::from(a != b),
            Bin::Lt => f64::from(a < b),
            Bin::Le => f64::from(a <= b),
            Bin::Gt => f64::from(a > b),
            Bin::Ge => f64::from(a >= b),
            Bin::And => f64::from(a != 0.0 && b != 0.0),
            Bin::Or => f64::from(a != 0.0 || b != 0.0),
            Bin::Min => {
                if a <= b {
                    a
                } else {
                    b
                }
            }
            Bin::Max => {
                if a >= b {
                    a
                } else {
                    b
                }
            }
        }
    }
}
