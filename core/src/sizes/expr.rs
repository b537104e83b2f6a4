//! Size expressions: the static integer arithmetic allowed wherever a size is expected
//! (docs/language.md, "Size parameters"), and their evaluation under the sizes of one
//! instantiation.

use crate::ast::Name;
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use std::collections::BTreeMap;

/// The values of the size names in scope of one `def` instantiation.
pub type Sizes = BTreeMap<Name, usize>;

/// A binary operator of size arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeOp {
    /// `a + b`.
    Add,
    /// `a - b` (intermediate results may be negative; a size may not).
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`: floor division; a zero divisor is an error.
    Div,
    /// `a % b`: the remainder of floor division; a zero divisor is an error.
    Mod,
    /// `min(a, b)`.
    Min,
    /// `max(a, b)`.
    Max,
}

/// A size expression with its source span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeExpr {
    /// An integer literal.
    Lit(u128, Span),
    /// A size name.
    Name(Name, Span),
    /// `a op b` or `min(a, b)` / `max(a, b)`; the span covers the whole expression.
    Bin(SizeOp, Box<SizeExpr>, Box<SizeExpr>, Span),
}

impl SizeExpr {
    /// The source span of the expression.
    pub fn span(&self) -> Span {
        match self {
            SizeExpr::Lit(_, s) | SizeExpr::Name(_, s) | SizeExpr::Bin(_, _, _, s) => *s,
        }
    }

    /// Its value under `sizes`: an unknown name is an [`ErrorKind::Name`] error naming the
    /// `def` `owner`; overflow, a zero divisor and a negative or too large final value are
    /// [`ErrorKind::Shape`] errors at the expression.
    pub fn size(&self, sizes: &Sizes, owner: &str) -> Result<usize> {
        let v = self.value(sizes, owner)?;
        let show = || describe(self, sizes);
        if v < 0 {
            let msg = format!("the size {} is {v}, which is negative", show());
            return Err(Diagnostic::new(ErrorKind::Shape, self.span(), msg));
        }
        usize::try_from(v).map_err(|_| {
            let msg = format!("the size {} is {v}, which is too large", show());
            Diagnostic::new(ErrorKind::Shape, self.span(), msg)
        })
    }

    /// The integer value (may be negative); see [`SizeExpr::size`] for the errors.
    fn value(&self, sizes: &Sizes, owner: &str) -> Result<i128> {
        match self {
            SizeExpr::Lit(v, s) => i128::try_from(*v).map_err(|_| too_large(*s)),
            SizeExpr::Name(n, s) => {
                match sizes.get(n) {
                    Some(v) => Ok(*v as i128),
                    None => {
                        let msg = if owner.is_empty() {
                            format!("unknown size `{n}` (outside a `def`, a size is an integer literal)")
                        } else {
                            format!(
                            "unknown size `{n}` (a size is an integer literal, a size name bound by a parameter type of `{owner}`, or arithmetic on them)"
                        )
                        };
                        Err(Diagnostic::new(ErrorKind::Name, *s, msg))
                    }
                }
            }
            SizeExpr::Bin(op, a, b, s) => {
                let (x, y) = (a.value(sizes, owner)?, b.value(sizes, owner)?);
                let zero = || {
                    let msg = format!("division by zero in the size {}", describe(self, sizes));
                    Diagnostic::new(ErrorKind::Shape, *s, msg)
                };
                let r = match op {
                    SizeOp::Add => x.checked_add(y),
                    SizeOp::Sub => x.checked_sub(y),
                    SizeOp::Mul => x.checked_mul(y),
                    SizeOp::Div if y == 0 => return Err(zero()),
                    SizeOp::Div => Some(floor_div(x, y)),
                    SizeOp::Mod if y == 0 => return Err(zero()),
                    SizeOp::Mod => Some(x - y * floor_div(x, y)),
                    SizeOp::Min => Some(x.min(y)),
                    SizeOp::Max => Some(x.max(y)),
                };
                // Sizes are bounded by usize, so a bound on i128 magnitudes keeps every
                // product of two operands representable.
                r.filter(|v| v.unsigned_abs() <= u64::MAX as u128)
                    .ok_or_else(|| too_large(*s))
            }
        }
    }

    /// The size names the expression mentions, in order of first occurrence.
    pub fn names(&self) -> Vec<&Name> {
        let mut out: Vec<&Name> = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match e {
                SizeExpr::Lit(..) => {}
                SizeExpr::Name(n, _) => {
                    if !out.contains(&n) {
                        out.push(n);
                    }
                }
                SizeExpr::Bin(_, a, b, _) => {
                    stack.push(b);
                    stack.push(a);
                }
            }
        }
        out
    }
}

/// Floor division, as `/` on `Z` (docs/language.md); `y != 0`.
fn floor_div(x: i128, y: i128) -> i128 {
    let q = x / y;
    if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

fn too_large(s: Span) -> Diagnostic {
    Diagnostic::new(ErrorKind::Shape, s, "a size expression overflows")
}

/// `` `n - k + 1` `` with, when it mentions names, their values: `` `n - k + 1` (n = 2, k = 5) ``.
fn describe(e: &SizeExpr, sizes: &Sizes) -> String {
    let vals: Vec<String> = e
        .names()
        .into_iter()
        .filter_map(|n| sizes.get(n).map(|v| format!("{n} = {v}")))
        .collect();
    let text = render(e);
    if vals.is_empty() {
        format!("`{text}`")
    } else {
        format!("`{text}` ({})", vals.join(", "))
    }
}

/// The expression as source text (parentheses only where precedence needs them).
pub fn render(e: &SizeExpr) -> String {
    fn prec(e: &SizeExpr) -> u8 {
        match e {
            SizeExpr::Bin(SizeOp::Add | SizeOp::Sub, ..) => 1,
            SizeExpr::Bin(SizeOp::Mul | SizeOp::Div | SizeOp::Mod, ..) => 2,
            _ => 3,
        }
    }
    let wrap = |x: &SizeExpr, parens: bool| {
        if parens {
            format!("({})", render(x))
        } else {
            render(x)
        }
    };
    match e {
        SizeExpr::Lit(v, _) => v.to_string(),
        SizeExpr::Name(n, _) => n.clone(),
        SizeExpr::Bin(SizeOp::Min, a, b, _) => format!("min({}, {})", render(a), render(b)),
        SizeExpr::Bin(SizeOp::Max, a, b, _) => format!("max({}, {})", render(a), render(b)),
        SizeExpr::Bin(op, a, b, _) => {
            let sym = match op {
                SizeOp::Add => "+",
                SizeOp::Sub => "-",
                SizeOp::Mul => "*",
                SizeOp::Div => "/",
                _ => "%",
            };
            let p = prec(e);
            format!("{} {sym} {}", wrap(a, prec(a) < p), wrap(b, prec(b) <= p))
        }
    }
}
