//! Lowering: an elaborated core function of the scalar and bulk fragments to a term of the
//! tensor language of *Differentiating a Tensor Language* (Bernstein et al. 2020, §3),
//! following the construct table of docs/engines/tssa-lowering.md. The paper has no host
//! language: the table, the desugarings of `-` (`a + (-1) * b`) and `/` (`a * recip(b)`)
//! and the extensions E1–E3 are Adora's decisions.
//!
//! | module | job |
//! |---|---|
//! | [`cx`] | state: node types, bindings, fresh names, frames of pending `let`s |
//! | [`at`] | rows that move indices: variables, `let`, projections, indexing, `build`, `gather`, literals, `stack`, `replicate`, `transpose`, `append`, `select` |
//! | [`real`] | real rows: arithmetic, black boxes, `min`/`max` (E1), `real` (E2), `sum`, `sum_outer`, `reshape`, `scatter` |
//! | [`data`] | integer and boolean rows: index arithmetic (E3), comparisons, connectives |
//! | [`value`] | whole values: `let`, tuples as right-nested pairs, `gen` materialisation |
//! | [`mk`] | constructors of terms, predicates and index expressions |

pub mod at;
pub mod cx;
pub mod data;
pub mod mk;
pub mod real;
pub mod value;

use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::tl::{Term, Ty, Var};
use adora_core::types::{Base, Type};
use cx::{Bound, Cx};

/// A lowered function: its inputs (the core parameters, in order, with their TL types)
/// and the term of its result.
#[derive(Clone, Debug, PartialEq)]
pub struct Lowered {
    /// The free variables of `term`: one per core parameter, same names, same order.
    pub inputs: Vec<(Var, Ty)>,
    /// The result.
    pub term: Term,
}

/// Lowers the elaborated core function `f` (docs/engines/tssa-lowering.md). Constructs
/// outside the scalar and bulk fragments (`if`, `map`, `reduce`, `scan`, `loop`, …),
/// integer or boolean results and tuple inputs with integer or boolean components are
/// rejected with [`ErrorKind::Unsupported`] naming the construct at its span.
pub fn lower(f: &Function) -> Result<Lowered> {
    lower_with_rows(f).map(|(l, _)| l)
}

/// [`lower`], also returning the construct-table rows that fired (coverage).
pub fn lower_with_rows(f: &Function) -> Result<(Lowered, Vec<&'static str>)> {
    let mut cx = Cx::new(f)?;
    let mut inputs = Vec::new();
    for p in &f.params {
        let (ty, b) = input(&p.ty, &p.name).ok_or_else(|| {
            Diagnostic::new(
                ErrorKind::Unsupported,
                p.span,
                format!(
                    "engine `tssa` does not support the input `{}: {}` (a tuple with integer or \
                     boolean components)",
                    p.name, p.ty
                ),
            )
        })?;
        inputs.push((p.name.clone(), ty));
        cx.bind(&p.name, b);
    }
    if !value::all_real(&f.ret) {
        return Err(Diagnostic::new(
            ErrorKind::Unsupported,
            f.body.span,
            format!(
                "engine `tssa` does not support the result type {} (integer or boolean scalars)",
                f.ret
            ),
        ));
    }
    let term = cx.framed(|cx| value::full(cx, &f.body))?;
    let rows = cx.rows.iter().copied().collect();
    Ok((Lowered { inputs, term }, rows))
}

/// The TL type of a core type (`Int`, `Bool` elements for integer and boolean arrays);
/// `None` for tuples with integer or boolean components.
pub fn ty_of(t: &Type) -> Option<Ty> {
    match t {
        Type::Array(b, s) => {
            let el = match b {
                Base::R => Ty::Num,
                Base::Z => Ty::Int,
                Base::B => Ty::Bool,
            };
            Some(
                s.iter()
                    .rev()
                    .fold(el, |t, &d| Ty::Arr(d as u64, Box::new(t))),
            )
        }
        Type::Tuple(ts) => {
            if !value::all_real(t) {
                return None;
            }
            let mut parts: Vec<Ty> = ts.iter().map(ty_of).collect::<Option<_>>()?;
            let last = parts.pop()?;
            Some(
                parts
                    .into_iter()
                    .rev()
                    .fold(last, |b, a| Ty::Pair(Box::new(a), Box::new(b))),
            )
        }
    }
}

fn input<'a>(t: &Type, name: &str) -> Option<(Ty, Bound<'a>)> {
    let ty = ty_of(t)?;
    let b = match t.base() {
        Some(Base::Z) => Bound::IntData(name.to_string()),
        Some(Base::B) => Bound::RelData(name.to_string()),
        _ => Bound::Term(Term::Var(name.to_string())),
    };
    Some((ty, b))
}
