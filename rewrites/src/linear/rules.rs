//! The rule registries of the `linear` engine, JAX-style: one named JVP rule per
//! non-linear primitive ([`JVP_RULES`], implemented in [`super::jvp`]) and one named
//! transpose rule per linear primitive ([`TRANSPOSE_RULES`], implemented in
//! [`super::transpose`]), each with the rule in our notation and its source in seed 002.
//! [`jvp_rule`] and [`transpose_rule`] name the rule an operation uses; the tests check
//! that every operation has exactly one registered rule.

use adora_core::ast::{BinOp, Prim, UnOp};
use adora_core::linear::check::masked_branch;
use adora_core::linear::{Atom, Op};

/// One registered rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Stable name (`jvp/mul`, `transpose/add`).
    pub name: &'static str,
    /// The primitive it is for.
    pub construct: &'static str,
    /// The rule in our notation (`ẏ` the tangent of the result, `z̄` a cotangent).
    pub rule: &'static str,
    /// Where it comes from in seed 002.
    pub source: &'static str,
}

const fn r(
    name: &'static str,
    construct: &'static str,
    rule: &'static str,
    source: &'static str,
) -> Rule {
    Rule {
        name,
        construct,
        rule,
        source,
    }
}

/// The JVP rules (`y = op(a, b)`; `ȧ`, `ḃ` the tangents of the arguments).
pub const JVP_RULES: &[Rule] = &[
    r("jvp/var", "a", "ẏ = ȧ", "§5.1 JVar"),
    r("jvp/lit", "literal", "ẏ = 0", "§5.1 JLit"),
    r(
        "jvp/tuple",
        "(a, b)",
        "ẏ = (ȧ, ḃ) over the components with a tangent",
        "§5.1 JTup",
    ),
    r(
        "jvp/array",
        "[a, b]",
        "ẏ = append(reshape([1, sh], ȧ), reshape([1, sh], ḃ))",
        "§5.1 (omitted rules)",
    ),
    r("jvp/neg", "-a", "ẏ = -1.0 * ȧ", "§5.1.3"),
    r("jvp/add", "a + b", "ẏ = ȧ + ḃ", "§5.1.3"),
    r("jvp/sub", "a - b", "ẏ = ȧ + (-1.0 * ḃ)", "§5.1.3"),
    r("jvp/mul", "a * b", "ẏ = b * ȧ + a * ḃ", "§5.1 JPrimMul"),
    r(
        "jvp/div",
        "a / b",
        "i = 1 / b; n = -(y * i); ẏ = i * ȧ + n * ḃ",
        "§5.1.3",
    ),
    r(
        "jvp/int",
        "Z and B operations (%, comparisons, &&, ||, !, floor, iota)",
        "no tangent (integers and booleans are constants)",
        "§5.1.5",
    ),
    r("jvp/exp", "exp(a)", "ẏ = y * ȧ", "§5.1.3"),
    r("jvp/log", "log(a)", "ẏ = (1 / a) * ȧ", "§5.1.3"),
    r("jvp/sin", "sin(a)", "ẏ = cos(a) * ȧ", "§5.1 JPrimSin"),
    r("jvp/cos", "cos(a)", "ẏ = -(sin(a)) * ȧ", "§5.1.3"),
    r("jvp/tanh", "tanh(a)", "ẏ = (1 - y * y) * ȧ", "§5.1.3"),
    r("jvp/sqrt", "sqrt(a)", "ẏ = (1 / (y + y)) * ȧ", "§5.1.3"),
    r(
        "jvp/abs",
        "abs(a)",
        "ẏ = select(a < 0, -1, select(a > 0, 1, 0)) * ȧ (abs'(0) = 0)",
        "§5.1.3; docs/language.md",
    ),
    r(
        "jvp/pow",
        "pow(a, k)",
        "ẏ = (k * pow(a, k - 1)) * ȧ; k = 0: ẏ = 0",
        "§5.1.3",
    ),
    r(
        "jvp/min",
        "min(a, b)",
        "ẏ = select(a <= b, ȧ, ḃ)",
        "§5.1.3; docs/language.md ties",
    ),
    r(
        "jvp/max",
        "max(a, b)",
        "ẏ = select(a >= b, ȧ, ḃ)",
        "§5.1.3; docs/language.md ties",
    ),
    r("jvp/real", "real(i)", "ẏ = 0", "§5.1.5"),
    r(
        "jvp/select",
        "select(c, a, b)",
        "ẏ = select(c, ȧ, ḃ) (a missing tangent is the constant 0.0)",
        "§5.1.3",
    ),
    r(
        "jvp/index",
        "a[i]",
        "ẏ = ȧ[i]",
        "§5.1.3 (linear array primitive)",
    ),
    r(
        "jvp/gather",
        "gather(sh, a, m)",
        "ẏ = gather(sh, ȧ, m)",
        "§5.1.3",
    ),
    r(
        "jvp/scatter",
        "scatter(sh, a, m)",
        "ẏ = scatter(sh, ȧ, m)",
        "§5.1.3",
    ),
    r(
        "jvp/one-hot",
        "one_hot(sh, a, i)",
        "ẏ = one_hot(sh, ȧ, i)",
        "§5.1.3",
    ),
    r("jvp/split", "split(n, a)", "ẏ = split(n, ȧ)", "§5.1.3"),
    r("jvp/sum", "sum(a)", "ẏ = sum(ȧ)", "§5.1.3"),
    r(
        "jvp/sum-outer",
        "sum_outer(a)",
        "ẏ = sum_outer(ȧ)",
        "§5.1.3",
    ),
    r(
        "jvp/replicate",
        "replicate(n, a)",
        "ẏ = replicate(n, ȧ)",
        "§5.1.3",
    ),
    r(
        "jvp/transpose",
        "transpose(p, a)",
        "ẏ = transpose(p, ȧ)",
        "§5.1.3",
    ),
    r(
        "jvp/reshape",
        "reshape(sh, a)",
        "ẏ = reshape(sh, ȧ)",
        "§5.1.3",
    ),
    r("jvp/append", "append(a, b)", "ẏ = append(ȧ, ḃ)", "§5.1.3"),
    r("jvp/stack", "stack([a, b])", "as jvp/array", "§5.1.3"),
    r(
        "jvp/unpack",
        "let (a, b) = t",
        "let (ȧ, ḃ) = ṫ",
        "§5.1 JUnpackA/B",
    ),
    r(
        "jvp/drop",
        "drop(a)",
        "drop(a); ȧ dropped by repair",
        "§5.1.2",
    ),
    r(
        "jvp/call",
        "f(a)",
        "let (y ; ẏ) = f_jvp(a ; ȧ)",
        "§5.1 JApp",
    ),
    r(
        "jvp/let",
        "let x = e1 in e2",
        "let (x ; ẋ) = J(e1) in J(e2), dups of shared tangents by repair",
        "§5.1 JLet",
    ),
    r("jvp/ret", "(a, b ;)", "(a, b ; ȧ, ḃ)", "§5.1 JRet"),
];

/// The transpose rules (`z = op(..)` with cotangent `z̄`; `ā` the cotangent produced for
/// the linear argument `a`).
pub const TRANSPOSE_RULES: &[Rule] = &[
    r("transpose/var", "dz = da", "ā = z̄", "§7 TLinVar"),
    r("transpose/zero", "dz = zero(T)", "drop(z̄)", "§7 TLinZero"),
    r("transpose/drop", "drop(da)", "ā = zero(T)", "§7 TDrop"),
    r(
        "transpose/add",
        "dz = da + db",
        "(ā, b̄) = dup(z̄)",
        "§7 TLinAdd",
    ),
    r(
        "transpose/dup",
        "(dz1, dz2) = dup(da)",
        "ā = z̄1 + z̄2",
        "§7 TDup",
    ),
    r("transpose/scale", "dz = x * da", "ā = x * z̄", "§7 TLinMul"),
    r(
        "transpose/tuple",
        "dz = (da, db)",
        "let (ā, b̄) = z̄",
        "§7 TLinTup",
    ),
    r(
        "transpose/unpack",
        "let (da, db) = dz",
        "z̄ = (ā, b̄)",
        "§7.1.3 TLinUnpack",
    ),
    r(
        "transpose/index",
        "dz = da[i]",
        "ā = one_hot(shape(da), z̄, i)",
        "docs/engines/linear.md index ↔ one-hot",
    ),
    r(
        "transpose/one-hot",
        "dz = one_hot(sh, da, i)",
        "ā = z̄[i]",
        "docs/engines/linear.md",
    ),
    r(
        "transpose/gather",
        "dz = gather(sh, da, m)",
        "ā = scatter(shape(da), z̄, m)",
        "docs/engines/linear.md gather ↔ scatter",
    ),
    r(
        "transpose/scatter",
        "dz = scatter(sh, da, m)",
        "ā = gather(shape(da)[..k], z̄, m)",
        "docs/engines/linear.md",
    ),
    r(
        "transpose/sum",
        "dz = sum(da)",
        "ā = reshape(shape(da), replicate(n, z̄))",
        "docs/engines/linear.md sum ↔ replicate",
    ),
    r(
        "transpose/sum-outer",
        "dz = sum_outer(da)",
        "ā = replicate(n, z̄)",
        "docs/engines/linear.md",
    ),
    r(
        "transpose/replicate",
        "dz = replicate(n, da)",
        "ā = sum_outer(z̄)",
        "docs/engines/linear.md",
    ),
    r(
        "transpose/transpose",
        "dz = transpose(p, da)",
        "ā = transpose(p⁻¹, z̄)",
        "docs/engines/linear.md",
    ),
    r(
        "transpose/reshape",
        "dz = reshape(sh, da)",
        "ā = reshape(shape(da), z̄)",
        "docs/engines/linear.md",
    ),
    r(
        "transpose/append",
        "dz = append(da, db)",
        "let (ā, b̄) = split(n, z̄)",
        "docs/engines/linear.md append ↔ slices",
    ),
    r(
        "transpose/split",
        "dz = split(n, da)",
        "let (p, q) = z̄ in ā = append(p, q)",
        "docs/engines/linear.md",
    ),
    r(
        "transpose/select",
        "dz = select(c, da, db)",
        "(z1, z2) = dup(z̄); ā = select(c, z1, 0.0); b̄ = select(c, 0.0, z2)",
        "docs/engines/linear.md select(c) ↔ select(c)",
    ),
    r(
        "transpose/select-masked",
        "dz = select(c, da, 0.0)",
        "ā = select(c, z̄, 0.0)",
        "docs/engines/linear.md",
    ),
    r(
        "transpose/call",
        "(; dz) = g(x ; da)",
        "(; ā) = g_t(x ; z̄)",
        "§7 TApp",
    ),
    r(
        "transpose/nonlinear",
        "non-linear statements",
        "kept, in order, before the transposed linear ones",
        "§7.1.3 TNonLin",
    ),
    r(
        "transpose/ret",
        "(; dy)",
        "parameters ct_dy; returns (; ct_dx)",
        "§7 TRet",
    ),
];

/// The JVP rule an operation uses.
pub fn jvp_rule(op: &Op) -> &'static str {
    match op {
        Op::Id => "jvp/var",
        Op::Zero(_) => "jvp/lit",
        Op::Tuple => "jvp/tuple",
        Op::Array => "jvp/array",
        Op::Unary(UnOp::Neg) => "jvp/neg",
        Op::Binary(BinOp::Add) => "jvp/add",
        Op::Binary(BinOp::Sub) => "jvp/sub",
        Op::Binary(BinOp::Mul) => "jvp/mul",
        Op::Binary(BinOp::Div) => "jvp/div",
        Op::Unary(_) | Op::Binary(_) => "jvp/int",
        Op::Index => "jvp/index",
        Op::Gather(..) => "jvp/gather",
        Op::Scatter(..) => "jvp/scatter",
        Op::OneHot(_) => "jvp/one-hot",
        Op::Split(_) => "jvp/split",
        Op::Prim(p) => match p {
            Prim::Exp => "jvp/exp",
            Prim::Log => "jvp/log",
            Prim::Sin => "jvp/sin",
            Prim::Cos => "jvp/cos",
            Prim::Tanh => "jvp/tanh",
            Prim::Sqrt => "jvp/sqrt",
            Prim::Abs => "jvp/abs",
            Prim::Floor | Prim::Iota(_) => "jvp/int",
            Prim::Real => "jvp/real",
            Prim::Min => "jvp/min",
            Prim::Max => "jvp/max",
            Prim::Pow(_) => "jvp/pow",
            Prim::Select => "jvp/select",
            Prim::Sum => "jvp/sum",
            Prim::SumOuter => "jvp/sum-outer",
            Prim::Replicate(_) => "jvp/replicate",
            Prim::Transpose(_) => "jvp/transpose",
            Prim::Reshape(_) => "jvp/reshape",
            Prim::Append => "jvp/append",
            Prim::Stack => "jvp/stack",
        },
    }
}

/// The transpose rule a linear operation uses (`None`: the operation has no linear form).
pub fn transpose_rule(op: &Op, args: &[Atom]) -> Option<&'static str> {
    Some(match op {
        Op::Id => "transpose/var",
        Op::Zero(_) => "transpose/zero",
        Op::Tuple => "transpose/tuple",
        Op::Binary(BinOp::Add) => "transpose/add",
        Op::Binary(BinOp::Mul) => "transpose/scale",
        Op::Index => "transpose/index",
        Op::OneHot(_) => "transpose/one-hot",
        Op::Gather(..) => "transpose/gather",
        Op::Scatter(..) => "transpose/scatter",
        Op::Split(_) => "transpose/split",
        Op::Prim(Prim::Sum) => "transpose/sum",
        Op::Prim(Prim::SumOuter) => "transpose/sum-outer",
        Op::Prim(Prim::Replicate(_)) => "transpose/replicate",
        Op::Prim(Prim::Transpose(_)) => "transpose/transpose",
        Op::Prim(Prim::Reshape(_)) => "transpose/reshape",
        Op::Prim(Prim::Append) => "transpose/append",
        Op::Prim(Prim::Select) if masked_branch(op, args).is_some() => "transpose/select-masked",
        Op::Prim(Prim::Select) => "transpose/select",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use adora_core::ast::Lit;
    use adora_core::types::Type;

    fn all_ops() -> Vec<Op> {
        let mut ops = vec![
            Op::Id,
            Op::Zero(Type::real()),
            Op::Tuple,
            Op::Array,
            Op::Index,
            Op::Gather(vec![1], vec!["i".into()], Vec::new()),
            Op::Scatter(vec![1], vec!["i".into()], Vec::new()),
            Op::OneHot(vec![1]),
            Op::Split(1),
            Op::Unary(UnOp::Neg),
            Op::Unary(UnOp::Not),
        ];
        ops.extend(BinOp::ALL.iter().map(|b| Op::Binary(*b)));
        for p in [
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
            Prim::Transpose(vec![0]),
            Prim::Reshape(vec![1]),
            Prim::Iota(1),
            Prim::Append,
            Prim::Stack,
        ] {
            ops.push(Op::Prim(p));
        }
        ops
    }

    #[test]
    fn every_operation_has_one_registered_rule() {
        let names = |rs: &[Rule]| rs.iter().map(|r| r.name).collect::<Vec<_>>();
        let jvp = names(JVP_RULES);
        let tr = names(TRANSPOSE_RULES);
        for rs in [&jvp, &tr] {
            let mut sorted = rs.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), rs.len(), "duplicate rule names");
        }
        let args = [
            Atom::Var("c".into()),
            Atom::Var("a".into()),
            Atom::Var("b".into()),
        ];
        for op in all_ops() {
            assert!(jvp.contains(&jvp_rule(&op)), "{op:?}");
            let n = if matches!(op, Op::Prim(Prim::Select)) {
                3
            } else {
                2
            };
            if op.linear_args(n).is_some() {
                let t = transpose_rule(&op, &args[..n]).unwrap_or_else(|| panic!("{op:?}"));
                assert!(tr.contains(&t), "{op:?}");
            } else {
                assert_eq!(transpose_rule(&op, &args[..n]), None, "{op:?}");
            }
        }
        let masked = vec![
            Atom::Var("c".into()),
            Atom::Var("a".into()),
            Atom::Lit(Lit::Real(num_rational::BigRational::from_integer(0.into()))),
        ];
        assert_eq!(
            transpose_rule(&Op::Prim(Prim::Select), &masked),
            Some("transpose/select-masked")
        );
    }
}
