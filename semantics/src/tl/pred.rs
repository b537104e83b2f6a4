//! Predicates and integer expressions, rules 4.13–4.21 (paper §4.1) and the extensions
//! E1, E3, E4 (docs/engines/tssa-language.md, "Extensions"):
//!
//! | rule | predicate | value |
//! |---|---|---|
//! | 4.13 | `a ⋈ b` | the comparison of the index values |
//! | 4.14 | `R(a, …)` | the boolean datum read (out of bounds: false) |
//! | 4.15, 4.16 | `p && q`, `p \|\| q` | short-circuit |
//! | 4.17 | `exists i:n. p` | by enumeration of `i < n` |
//! | E1 | `{u ⋈ v}` | comparison of primal values (dual numbers: tangents ignored) |
//! | E4 | `!p` | negation |
//!
//! Integer expressions (E3) follow the host's integer conventions (docs/language.md):
//! floor division and its remainder, total (`x / 0 = 0`, `x % 0 = x`); reads of integer
//! data out of bounds are 0; overflow is an `ErrorKind::Runtime` error.

use super::eval::{internal, Ctx};
use super::value::TlValue;
use crate::kernels::arith::{floor_div, floor_mod};
use crate::scalar::Scalar;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{CmpOp, DataRef, IExpr, Index, Pred};
use std::cmp::Ordering;

fn overflow() -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Runtime,
        Span::DUMMY,
        "integer overflow in an index expression",
    )
}

/// Whether `o` satisfies the comparison (an unordered pair satisfies only `!=`).
pub fn cmp_holds(op: CmpOp, o: Option<Ordering>) -> bool {
    match op {
        CmpOp::Eq => o == Some(Ordering::Equal),
        CmpOp::Ne => o != Some(Ordering::Equal),
        CmpOp::Lt => o == Some(Ordering::Less),
        CmpOp::Le => matches!(o, Some(Ordering::Less | Ordering::Equal)),
    }
}

impl<S: Scalar> Ctx<S> {
    /// Whether a predicate holds in the current scope.
    pub fn holds(&mut self, p: &Pred) -> Result<bool> {
        self.step()?;
        Ok(match p {
            Pred::True => true,
            Pred::False => false,
            Pred::Cmp(op, a, b) => {
                let (x, y) = (self.index(a)?, self.index(b)?);
                cmp_holds(*op, Some(x.cmp(&y)))
            }
            Pred::Rel(x, idx) => match self.read_data(x, idx)? {
                Some(TlValue::Bool(b)) => b,
                None => false,
                Some(v) => return Err(internal(format!("relation `{x}` reads `{v}`"))),
            },
            Pred::Data(op, a, b) => {
                let (x, y) = (self.data(a)?, self.data(b)?);
                cmp_holds(*op, x.compare(&y))
            }
            Pred::And(a, b) => self.holds(a)? && self.holds(b)?,
            Pred::Or(a, b) => self.holds(a)? || self.holds(b)?,
            Pred::Not(a) => !self.holds(a)?,
            Pred::Exists(i, n, q) => {
                let mut found = false;
                for k in 0..*n as i64 {
                    self.push_index(i, k);
                    let r = self.holds(q);
                    self.pop_index();
                    if r? {
                        found = true;
                        break;
                    }
                }
                found
            }
        })
    }

    /// A read `x[a]…` of data at indices: `None` out of bounds.
    fn read_data(&mut self, x: &str, idx: &[Index]) -> Result<Option<TlValue<S>>> {
        let ks: Vec<i64> = idx.iter().map(|a| self.index(a)).collect::<Result<_>>()?;
        let mut v = self.lookup(x)?;
        for k in ks {
            v = match v {
                TlValue::Arr(es) => match usize::try_from(k).ok().and_then(|k| es.get(k)) {
                    Some(e) => e,
                    None => return Ok(None),
                },
                other => return Err(internal(format!("`{x}` read too deep at `{other}`"))),
            };
        }
        Ok(Some(v.clone()))
    }

    /// The real value of a data operand (E1).
    pub fn data(&mut self, d: &DataRef) -> Result<S> {
        match d {
            DataRef::Const(c) => Ok(S::from_rational(c)),
            DataRef::Read(x, path) => match self.read_path(x, path)? {
                TlValue::Num(v) => Ok(v),
                v => Err(internal(format!("the data read of `{x}` gives `{v}`"))),
            },
        }
    }

    /// Evaluates an opaque integer expression (E3).
    pub fn iexpr(&mut self, e: &IExpr) -> Result<i64> {
        Ok(match e {
            IExpr::Var(i) => self.ivar(i)?,
            IExpr::Const(c) => *c,
            IExpr::Add(a, b) => self
                .iexpr(a)?
                .checked_add(self.iexpr(b)?)
                .ok_or_else(overflow)?,
            IExpr::Mul(a, b) => self
                .iexpr(a)?
                .checked_mul(self.iexpr(b)?)
                .ok_or_else(overflow)?,
            IExpr::Neg(a) => self.iexpr(a)?.checked_neg().ok_or_else(overflow)?,
            IExpr::Div(a, b) => {
                let (x, y) = (self.iexpr(a)?, self.iexpr(b)?);
                match floor_div(x, y) {
                    None => 0,
                    Some(q) => q.ok_or_else(overflow)?,
                }
            }
            IExpr::Mod(a, b) => {
                let (x, y) = (self.iexpr(a)?, self.iexpr(b)?);
                floor_mod(x, y).unwrap_or(x)
            }
            IExpr::Min(a, b) => self.iexpr(a)?.min(self.iexpr(b)?),
            IExpr::Max(a, b) => self.iexpr(a)?.max(self.iexpr(b)?),
            IExpr::Abs(a) => self.iexpr(a)?.checked_abs().ok_or_else(overflow)?,
            IExpr::Read(x, idx) => match self.read_data(x, idx)? {
                Some(TlValue::Int(k)) => k,
                None => 0,
                Some(v) => return Err(internal(format!("integer datum `{x}` reads `{v}`"))),
            },
            IExpr::Floor(d) => {
                let v = self.data(d)?;
                v.floor_i64().ok_or_else(|| {
                    Diagnostic::new(
                        ErrorKind::Runtime,
                        Span::DUMMY,
                        format!(
                            "`floor` of `{}` is not an integer of 64 bits",
                            v.to_literal()
                        ),
                    )
                })?
            }
            IExpr::Cond(p, a, b) => {
                if self.holds(p)? {
                    self.iexpr(a)?
                } else {
                    self.iexpr(b)?
                }
            }
        })
    }
}
