//! Names of constructs, one vocabulary for every coverage measurement (the generators'
//! fragment coverage, the golden corpus's feature coverage): a node's *form*
//! ([`ExprKind::form_name`]) and, for forms with variants, which variant.

use crate::ast::{Expr, ExprKind, Pat};
use std::fmt;

/// The construct one node is an instance of. Its [`Display`](fmt::Display) form is
/// `form` or `form:variant` (`var`, `lit:int`, `let:tuple`, `binop:add`, `prim:sum_outer`,
/// `reduce:lambda`, `build:2d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Construct {
    /// The expression form ([`ExprKind::form_name`]).
    pub form: &'static str,
    /// The variant, for forms that have them: the literal's kind ([`crate::ast::Lit::kind_name`]);
    /// the operator's name for `unop`, `binop` ([`crate::ast::UnOp::name`],
    /// [`crate::ast::BinOp::name`]); the built-in's name for `prim`
    /// ([`crate::ast::Prim::name`]); the combining operator's name for `reduce`, `scan`
    /// and `reduce_by_index` ([`crate::ast::Op::name`]); `var` or `tuple` (the pattern)
    /// for `let` and `loop`; `1d` or `2d` (two or more extents) for `build`. `None` for
    /// every other form.
    pub variant: Option<&'static str>,
}

impl fmt::Display for Construct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.variant {
            Some(v) => write!(f, "{}:{v}", self.form),
            None => f.write_str(self.form),
        }
    }
}

fn pat_variant(p: &Pat) -> &'static str {
    match p {
        Pat::Var(_) => "var",
        Pat::Tuple(_) => "tuple",
    }
}

/// The construct of the node `e` (not of its descendants).
pub fn construct(e: &Expr) -> Construct {
    use ExprKind::*;
    let variant = match &e.kind {
        Lit(l) => Some(l.kind_name()),
        Let(p, ..) => Some(pat_variant(p)),
        Loop { acc, .. } => Some(pat_variant(acc)),
        Unary(op, _) => Some(op.name()),
        Binary(op, ..) => Some(op.name()),
        Prim(p, _) => Some(p.name()),
        Build(sh, ..) => Some(if sh.len() >= 2 { "2d" } else { "1d" }),
        Reduce(op, ..) | Scan(op, ..) | ReduceByIndex { op, .. } => Some(op.name()),
        Var(_)
        | Array(_)
        | Tuple(_)
        | Proj(..)
        | If(..)
        | Call(..)
        | Index(..)
        | Gather(..)
        | Scatter(..)
        | Map(..)
        | ScatterInto { .. } => None,
    };
    Construct {
        form: e.kind.form_name(),
        variant,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{BinOp, Prim, UnOp};
    use crate::visit::{node_count, subexprs};

    fn body(src: &str) -> Expr {
        let p = crate::parse(&format!("def main(x: R, i: Z, b: B) -> R = {src}")).unwrap();
        p.defs[0].body.clone()
    }

    fn name(src: &str) -> String {
        construct(&body(src)).to_string()
    }

    #[test]
    fn operator_symbols_parse_back_to_their_operators() {
        for op in BinOp::ALL {
            let e = body(&format!("x {} x", op.symbol()));
            assert!(
                matches!(e.kind, ExprKind::Binary(o, ..) if o == op),
                "{op:?}"
            );
            assert_eq!(construct(&e).to_string(), format!("binop:{}", op.name()));
        }
        for op in [UnOp::Neg, UnOp::Not] {
            let e = body(&format!("{}x", op.symbol()));
            assert!(matches!(e.kind, ExprKind::Unary(o, _) if o == op), "{op:?}");
        }
        assert_eq!(name("-x"), "unop:neg");
        assert_eq!(name("!b"), "unop:not");
    }

    #[test]
    fn built_in_names_are_the_concrete_syntax() {
        let all = [
            Prim::Exp,
            Prim::Log,
            Prim::Sin,
            Prim::Cos,
            Prim::Tanh,
            Prim::Sqrt,
            Prim::Abs,
            Prim::Floor,
            Prim::Real,
            Prim::Min,
            Prim::Max,
            Prim::Pow(2),
            Prim::Select,
            Prim::Sum,
            Prim::SumOuter,
            Prim::Replicate(2),
            Prim::Transpose(vec![1, 0]),
            Prim::Reshape(vec![4]),
            Prim::Iota(3),
            Prim::Append,
            Prim::Stack,
        ];
        for p in &all {
            assert!(crate::lexer::is_builtin(p.name()), "{}", p.name());
        }
        assert_eq!(name("sum_outer(x)"), "prim:sum_outer");
        assert_eq!(name("pow(x, 3)"), "prim:pow");
        assert_eq!(name("iota(3)"), "prim:iota");
    }

    #[test]
    fn constructs_name_form_and_variant() {
        let cases = [
            ("x", "var"),
            ("3", "lit:int"),
            ("2.5", "lit:real"),
            ("true", "lit:bool"),
            ("[x, x]", "array"),
            ("(x, i)", "tuple"),
            ("let a = x in a", "let:var"),
            ("let (a, c) = (x, x) in a", "let:tuple"),
            ("if b then x else x", "if"),
            ("f(x)", "call"),
            ("build 3 (k => x)", "build:1d"),
            ("build [2, 3] ((k, l) => x)", "build:2d"),
            ("map(a => a, [x])", "map"),
            ("reduce(+, 0.0, [x])", "reduce:add"),
            ("scan(max, 0.0, [x])", "scan:max"),
            ("reduce((a, c) => a, 0.0, [x])", "reduce:lambda"),
            ("loop (a = x) for k < 3 do a", "loop:var"),
            ("loop ((a, c) = (x, x)) for k < 3 do (a, c)", "loop:tuple"),
        ];
        for (src, want) in cases {
            assert_eq!(name(src), want, "{src}");
        }
        let c = construct(&body("let a = x in a"));
        assert_eq!((c.form, c.variant), ("let", Some("var")));
        assert_eq!(construct(&body("x")).variant, None);
    }

    #[test]
    fn subexprs_lists_every_node_in_pre_order() {
        let e = body("x + map(a => a * x, [x]).0");
        let names: Vec<String> = subexprs(&e)
            .into_iter()
            .map(|n| construct(n).to_string())
            .collect();
        let want = [
            "binop:add",
            "var",
            "proj",
            "map",
            "binop:mul",
            "var",
            "var",
            "array",
            "var",
        ];
        assert_eq!(names, want);
        assert_eq!(subexprs(&e).len(), node_count(&e));
    }
}
