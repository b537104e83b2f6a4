//! The table of primitives (`rewrites/src/prims`): docs/rules/primitives.md tabulates
//! exactly its entries; every operation of engine `linear` it covers names the same JVP
//! rule as the rule registry, and every transpose rule it names is registered; every
//! partial-derivative template, evaluated at random exact inputs, equals the reference
//! derivative (`adora_semantics::reference::gradient`) of a one-primitive program, and
//! every choice follows the reference's selected operand — exactly.

use adora_rewrites::linear::rules::{jvp_rule, TRANSPOSE_RULES};
use adora_rewrites::prims::partials::{eval_scalar, Env};
use adora_rewrites::prims::{deriv_at, primitive, Cond, Deriv, PrimId, PRIMITIVES};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// The row docs/rules/primitives.md has for a primitive.
fn row(p: &adora_rewrites::prims::Primitive) -> String {
    let statics = if p.statics.is_empty() {
        "—"
    } else {
        p.statics
    };
    format!(
        "| `{}` | `{}` | {} | {} | {} | {} | `{}` |",
        p.name,
        p.syntax,
        p.arity,
        statics,
        if p.elementwise { "yes" } else { "no" },
        p.deriv,
        p.jvp
    )
}

#[test]
fn the_document_tabulates_exactly_the_primitives() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/rules/primitives.md"
    ))
    .expect("docs/rules/primitives.md");
    let rows: BTreeSet<&str> = doc
        .lines()
        .filter(|l| l.starts_with("| `") && l.ends_with("` |"))
        .collect();
    let table: Vec<String> = PRIMITIVES.iter().map(row).collect();
    let table: BTreeSet<&str> = table.iter().map(String::as_str).collect();
    assert_eq!(
        rows,
        table,
        "docs/rules/primitives.md and PRIMITIVES differ; the table's rows:\n{}",
        table.iter().copied().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn every_primitive_has_one_entry_and_registered_rules() {
    let names: BTreeSet<&str> = PRIMITIVES.iter().map(|p| p.name).collect();
    assert_eq!(names.len(), PRIMITIVES.len(), "duplicate names");
    for p in PRIMITIVES {
        assert_eq!(primitive(p.id).name, p.name, "{} listed twice", p.name);
        if let Deriv::Linear { transpose, args } = &p.deriv {
            assert!(
                TRANSPOSE_RULES.iter().any(|r| r.name == *transpose),
                "{transpose}"
            );
            assert!(args.iter().all(|&i| i < p.arity), "{}", p.name);
        }
        if let Deriv::Partials(ps) = &p.deriv {
            assert_eq!(ps.len(), p.arity, "{}: one partial per operand", p.name);
        }
    }
}

#[test]
fn linear_operations_name_the_tables_jvp_rule() {
    use adora_core::ast::{BinOp, Prim, UnOp};
    use adora_core::linear::Op;
    use adora_rewrites::linear::jvp::prim_of_op;
    let ops = [
        Op::Unary(UnOp::Neg),
        Op::Binary(BinOp::Add),
        Op::Binary(BinOp::Sub),
        Op::Binary(BinOp::Mul),
        Op::Binary(BinOp::Div),
        Op::Index,
        Op::Prim(Prim::Exp),
        Op::Prim(Prim::Log),
        Op::Prim(Prim::Sin),
        Op::Prim(Prim::Cos),
        Op::Prim(Prim::Tanh),
        Op::Prim(Prim::Sqrt),
        Op::Prim(Prim::Abs),
        Op::Prim(Prim::Pow(3)),
        Op::Prim(Prim::Min),
        Op::Prim(Prim::Max),
        Op::Prim(Prim::Select),
        Op::Prim(Prim::Real),
        Op::Prim(Prim::Floor),
        Op::Prim(Prim::Sum),
        Op::Prim(Prim::SumOuter),
        Op::Prim(Prim::Replicate(2)),
        Op::Prim(Prim::Transpose(vec![1, 0])),
        Op::Prim(Prim::Reshape(vec![2])),
        Op::Prim(Prim::Append),
    ];
    let mut seen = BTreeSet::new();
    for op in ops {
        let (id, _) = prim_of_op(&op).unwrap_or_else(|| panic!("{op:?} is in the table"));
        assert_eq!(jvp_rule(&op), primitive(id).jvp, "{op:?}");
        seen.insert(primitive(id).name);
    }
    // gather and scatter carry index functions; the registry names them by constructor.
    assert_eq!(primitive(PrimId::Gather).jvp, "jvp/gather");
    assert_eq!(primitive(PrimId::Scatter).jvp, "jvp/scatter");
    assert_eq!(seen.len() + 2, PRIMITIVES.len());
}

fn rat(rng: &mut ChaCha8Rng) -> Rat {
    Rat::new(
        rng.gen_range(-12i64..=12).into(),
        rng.gen_range(1i64..=5).into(),
    )
}

/// The program of one primitive applied to `a` (and `b`), and an input for each.
fn program(id: PrimId, k: i64) -> String {
    let body = match id {
        PrimId::Neg => "-a".to_string(),
        PrimId::Add => "a + b".to_string(),
        PrimId::Sub => "a - b".to_string(),
        PrimId::Mul => "a * b".to_string(),
        PrimId::Div => "a / b".to_string(),
        PrimId::Min => "min(a, b)".to_string(),
        PrimId::Max => "max(a, b)".to_string(),
        PrimId::Pow => format!("pow(a, {k})"),
        PrimId::Exp => "exp(a)".to_string(),
        PrimId::Log => "log(a)".to_string(),
        PrimId::Sin => "sin(a)".to_string(),
        PrimId::Cos => "cos(a)".to_string(),
        PrimId::Tanh => "tanh(a)".to_string(),
        PrimId::Sqrt => "sqrt(a)".to_string(),
        PrimId::Abs => "abs(a)".to_string(),
        PrimId::Floor => "real(floor(a))".to_string(),
        other => panic!("{other:?} is not scalar"),
    };
    format!("def main(a: R, b: R) -> R =\n  {body} + 0 * b")
}

/// Random rational operands, with ties for `min` / `max`, `0` for `abs`, no division by
/// zero and no `pow` of zero.
fn operands(id: PrimId, rng: &mut ChaCha8Rng) -> (Rat, Rat) {
    let (a, mut b) = (rat(rng), rat(rng));
    let a = match id {
        PrimId::Abs if rng.gen_bool(0.3) => Rat::from_integer(0.into()),
        PrimId::Pow if a == Rat::from_integer(0.into()) => Rat::new(1.into(), 3.into()),
        _ => a,
    };
    if matches!(id, PrimId::Min | PrimId::Max) && rng.gen_bool(0.3) {
        b = a.clone();
    }
    if id == PrimId::Div && b == Rat::from_integer(0.into()) {
        b = Rat::new((-2).into(), 3.into());
    }
    (a, b)
}

#[test]
fn every_template_equals_the_reference_derivative_exactly() {
    use PrimId::*;
    let scalar = [Neg, Abs, Pow, Add, Sub, Mul, Div, Min, Max, Floor];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let opts = EvalOptions::default();
    for id in scalar {
        for round in 0..12 {
            let k = if id == Pow { (round % 7) - 3 } else { 0 };
            let src = program(id, k);
            let f = adora_core::load(&src, "main")
                .unwrap_or_else(|d| panic!("{}", d.render("p", &src)));
            let (a, b) = operands(id, &mut rng);
            let ins = [Value::real(a.clone()), Value::real(b.clone())];
            let g = reference::gradient(&f, &ins, &opts).unwrap_or_else(|d| panic!("{src}: {d}"));
            let y = g.value.as_real().unwrap().clone();
            let grad = |i: usize| -> Rat {
                g.grads[i]
                    .as_ref()
                    .and_then(|v| v.as_real())
                    .cloned()
                    .unwrap()
            };
            let zero = Rat::from_integer(0.into());
            let env = Env {
                a: a.clone(),
                b: b.clone(),
                y,
                k,
            };
            let want: Vec<Rat> = match deriv_at(id, k) {
                Deriv::Partials(ps) => {
                    let mut w: Vec<Rat> =
                        ps.iter().map(|p| eval_scalar(p, &env).unwrap()).collect();
                    w.resize(2, zero.clone());
                    w
                }
                Deriv::Choose {
                    cond,
                    then_arg,
                    else_arg,
                } => {
                    let holds = match cond {
                        Cond::Le => a <= b,
                        Cond::Ge => a >= b,
                        Cond::Operand(_) => unreachable!("no scalar select here"),
                    };
                    let mut w = vec![zero.clone(), zero.clone()];
                    w[if holds { *then_arg } else { *else_arg }] = Rat::from_integer(1.into());
                    w
                }
                Deriv::Constant => vec![zero.clone(), zero.clone()],
                Deriv::Linear { .. } => unreachable!("no linear scalar primitive here"),
            };
            assert_eq!(vec![grad(0), grad(1)], want, "{src} at a = {a}, b = {b}");
        }
    }
}

/// The transcendentals are not rational: their templates are checked in f64 against the
/// reference's f64 derivative, with exact (`==`) equality of the IEEE results (both
/// evaluate the same closed form), at random operands.
#[test]
fn transcendental_templates_equal_the_f64_reference_derivative() {
    use PrimId::*;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let opts = EvalOptions::default();
    for id in [Exp, Log, Sin, Cos, Tanh, Sqrt] {
        for _ in 0..12 {
            let src = program(id, 0);
            let f = adora_core::load(&src, "main")
                .unwrap_or_else(|d| panic!("{}", d.render("p", &src)));
            let a: f64 = rng.gen_range(0.05..4.0);
            let ins = [Value::real(a), Value::real(0.5f64)];
            let g = reference::gradient(&f, &ins, &opts).unwrap_or_else(|d| panic!("{src}: {d}"));
            let y = *g.value.as_real().unwrap();
            let got = g.grads[0]
                .as_ref()
                .and_then(|v| v.as_real())
                .copied()
                .unwrap();
            let Deriv::Partials(ps) = deriv_at(id, 0) else {
                panic!("{id:?} has partials")
            };
            let env = Env { a, b: 0.5, y, k: 0 };
            assert_eq!(got, eval_scalar(&ps[0], &env).unwrap(), "{src} at a = {a}");
        }
    }
}

/// `select(c, a, b)` follows the selected branch.
#[test]
fn select_follows_the_selected_branch() {
    let src = "def main(c: B, a: R, b: R) -> R =\n  select(c, a, b)";
    let f = adora_core::load(src, "main").unwrap();
    let Deriv::Choose {
        cond: Cond::Operand(0),
        then_arg,
        else_arg,
    } = deriv_at(PrimId::Select, 0)
    else {
        panic!("select chooses by its condition operand")
    };
    for c in [true, false] {
        let ins = [
            Value::Bool(adora_semantics::value::Tensor::scalar(c)),
            Value::real(Rat::new(1.into(), 2.into())),
            Value::real(Rat::new((-3).into(), 1.into())),
        ];
        let g = reference::gradient(&f, &ins, &EvalOptions::default()).unwrap();
        let one = Rat::from_integer(1.into());
        let zero = Rat::from_integer(0.into());
        let chosen = if c { *then_arg } else { *else_arg };
        for i in [1usize, 2] {
            let got = g.grads[i]
                .as_ref()
                .and_then(|v| v.as_real())
                .cloned()
                .unwrap();
            assert_eq!(
                got,
                if i == chosen {
                    one.clone()
                } else {
                    zero.clone()
                },
                "c = {c}, operand {i}"
            );
        }
    }
}
