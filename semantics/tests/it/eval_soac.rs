//! Seed-004 forms on hand-built elaborated ASTs: map, reduce, scan, reduce_by_index,
//! scatter_into, loop — with the fold order and tie conventions of docs/language.md.
use crate::common;
use adora_core::ast::*;
use adora_core::diag::ErrorKind;
use adora_core::types::{Base, Type};
use adora_semantics::dual::Dual;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use common::*;

fn reduce(op: Op, ne: Expr, xs: Expr) -> Expr {
    ex(ExprKind::Reduce(op, b(ne), b(xs)))
}
fn scan(op: Op, ne: Expr, xs: Expr) -> Expr {
    ex(ExprKind::Scan(op, b(ne), b(xs)))
}

/// Duals whose tangent id k marks which input element was selected.
fn marked(xs: &[i64]) -> Value<Dual<Rat>> {
    Value::real_vector(
        xs.iter()
            .enumerate()
            .map(|(k, &x)| Dual::variable(ri(x), k))
            .collect(),
    )
}

fn selected(v: &Value<Dual<Rat>>) -> Vec<usize> {
    v.real_scalars()
        .iter()
        .map(|d| {
            d.tangents()
                .iter()
                .map(|(k, _)| *k)
                .next()
                .unwrap_or(usize::MAX)
        })
        .collect()
}

#[test]
fn map_zips_outer_slices() {
    let m = ex(ExprKind::Map(
        lam(&["a", "c"], add(var("a"), sum(var("c")))),
        vec![var("x"), var("y")],
    ));
    let f = func(&[("x", tra(&[2])), ("y", tra(&[2, 2]))], tra(&[2]), m);
    assert_eq!(
        run(&f, &[vr(&[1, 2]), va(&[2, 2], &[1, 2, 3, 4])]),
        vr(&[4, 9])
    );
    assert!(eval(
        &f,
        &[vr(&[1, 2]), va(&[3, 2], &[0; 6])],
        &EvalOptions::default()
    )
    .is_err());
}

#[test]
fn reduce_add_mul_fold_left_from_ne() {
    let f = func(&[("x", tra(&[4]))], tr(), reduce(Op::Add, rn(10), var("x")));
    assert_eq!(run(&f, &[vr(&[1, 2, 3, 4])]), sr(ri(20)));
    let f = func(
        &[("x", tra(&[3]))],
        tr(),
        reduce(Op::Mul, rl(1, 2), var("x")),
    );
    assert_eq!(run(&f, &[vr(&[2, 3, 4])]), sr(ri(12)));
    // slices elementwise: reduce(*, replicate(2, 1), xs) multiplies the rows
    let f = func(
        &[("x", tra(&[3, 2]))],
        tra(&[2]),
        reduce(Op::Mul, rep(2, rn(1)), var("x")),
    );
    assert_eq!(run(&f, &[va(&[3, 2], &[1, 2, 3, 4, 5, 6])]), vr(&[15, 48]));
    // empty → ne
    let f = func(&[("x", tra(&[0]))], tr(), reduce(Op::Add, rn(7), var("x")));
    assert_eq!(run(&f, &[vr(&[])]), sr(ri(7)));
    // a non-commutative lambda shows the fold order: op(a, x) = 2 a + x
    let op = Op::Lambda(lam(&["a", "x"], add(mul(rn(2), var("a")), var("x"))));
    let f = func(&[("x", tra(&[3]))], tr(), reduce(op, rn(1), var("x")));
    // ((2*1 + 5)*2 + 6)*2 + 7 = 47
    assert_eq!(run(&f, &[vr(&[5, 6, 7])]), sr(ri(47)));
}

#[test]
fn reduce_min_max_ties_lowest_index_then_elements_beat_ne() {
    let f = func(&[("x", tra(&[4]))], tr(), reduce(Op::Max, rn(3), var("x")));
    let (v, _) = eval(&f, &[marked(&[1, 3, 2, 3])], &EvalOptions::default()).unwrap();
    assert_eq!(v.as_real().unwrap().value(), &ri(3));
    assert_eq!(
        selected(&v),
        vec![1],
        "lowest index among equal maxima, and it beats ne"
    );
    let f = func(&[("x", tra(&[4]))], tr(), reduce(Op::Min, rn(9), var("x")));
    let (v, _) = eval(&f, &[marked(&[4, 2, 2, 5])], &EvalOptions::default()).unwrap();
    assert_eq!(selected(&v), vec![1]);
    // ne wins only when strictly better
    let f = func(&[("x", tra(&[2]))], tr(), reduce(Op::Min, rn(0), var("x")));
    let (v, _) = eval(&f, &[marked(&[4, 2])], &EvalOptions::default()).unwrap();
    assert_eq!(
        (v.as_real().unwrap().value().clone(), selected(&v)),
        (ri(0), vec![usize::MAX])
    );
    // empty: ne
    let f = func(&[("x", tra(&[0]))], tr(), reduce(Op::Max, rn(-5), var("x")));
    assert_eq!(run(&f, &[vr(&[])]), sr(ri(-5)));
    // integers, per lane on rows
    let f = func(
        &[("z", ta(Base::Z, &[3, 2]))],
        ta(Base::Z, &[2]),
        reduce(Op::Max, rep(2, zn(0)), var("z")),
    );
    let z = Value::Int(Tensor::new(vec![3, 2], vec![1, -4, 7, -2, 3, -3]).unwrap());
    assert_eq!(run(&f, &[z]), Value::ints(vec![2], vec![7, 0]).unwrap());
}

#[test]
fn scan_is_inclusive_reduce_of_prefixes() {
    let f = func(
        &[("x", tra(&[4]))],
        tra(&[4]),
        scan(Op::Add, rn(10), var("x")),
    );
    assert_eq!(run(&f, &[vr(&[1, 2, 3, 4])]), vr(&[11, 13, 16, 20]));
    let f = func(
        &[("x", tra(&[4]))],
        tra(&[4]),
        scan(Op::Max, rn(2), var("x")),
    );
    assert_eq!(run(&f, &[vr(&[1, 3, 2, 5])]), vr(&[2, 3, 3, 5]));
    let (v, _) = eval(&f, &[marked(&[2, 3, 3, 1])], &EvalOptions::default()).unwrap();
    // scan[0] = max(x0 = 2, ne = 2) → x0 (elements win ties); later: the first 3 (index 1)
    assert_eq!(selected(&v), vec![0, 1, 1, 1]);
    let f = func(
        &[("x", tra(&[0]))],
        tra(&[0]),
        scan(Op::Add, rn(10), var("x")),
    );
    assert_eq!(run(&f, &[vr(&[])]), vr(&[]));
    let op = Op::Lambda(lam(&["a", "x"], sub(var("x"), var("a"))));
    let f = func(&[("x", tra(&[3]))], tra(&[3]), scan(op, rn(1), var("x")));
    assert_eq!(run(&f, &[vr(&[5, 6, 7])]), vr(&[4, 2, 5]));
}

#[test]
fn reduce_by_index_combines_in_index_order() {
    let rbi = |op: Op| {
        ex(ExprKind::ReduceByIndex {
            dest: b(var("d")),
            op,
            ne: b(rn(0)),
            is: b(var("is")),
            vs: b(var("vs")),
        })
    };
    let params = [
        ("d", tra(&[3])),
        ("is", ta(Base::Z, &[5])),
        ("vs", tra(&[5])),
    ];
    let f = func(&params, tra(&[3]), rbi(Op::Add));
    let (v, st) = eval(
        &f,
        &[
            vr(&[1, 1, 1]),
            vz(&[0, 2, 0, 7, -1]),
            vr(&[10, 20, 30, 40, 50]),
        ],
        &EvalOptions::default(),
    )
    .unwrap();
    assert_eq!(v, vr(&[41, 1, 21]));
    assert_eq!(st.oob_writes, 2);
    // max keeps the existing destination on a tie, then the lowest index
    let f = func(&params, tra(&[3]), rbi(Op::Max));
    let d = Value::real_vector(vec![
        Dual::variable(ri(5), 100),
        Dual::variable(ri(0), 101),
        Dual::variable(ri(0), 102),
    ]);
    let is: Value<Dual<Rat>> = Value::Int(Tensor::vector(vec![0, 1, 1, 2, 2]));
    let (v, _) = eval(
        &f,
        &[d, is, marked(&[5, 3, 3, 1, 2])],
        &EvalOptions::default(),
    )
    .unwrap();
    assert_eq!(selected(&v), vec![100, 1, 4]);
    // a lambda operator receives whole slices
    let params2 = [
        ("d", tra(&[2, 2])),
        ("is", ta(Base::Z, &[2])),
        ("vs", tra(&[2, 2])),
    ];
    let op = Op::Lambda(lam(&["a", "c"], add(var("a"), mul(var("c"), var("c")))));
    let e = ex(ExprKind::ReduceByIndex {
        dest: b(var("d")),
        op,
        ne: b(rep(2, rn(0))),
        is: b(var("is")),
        vs: b(var("vs")),
    });
    let f = func(&params2, tra(&[2, 2]), e);
    assert_eq!(
        run(
            &f,
            &[
                va(&[2, 2], &[1, 1, 1, 1]),
                vz(&[1, 1]),
                va(&[2, 2], &[1, 2, 3, 4])
            ]
        ),
        va(&[2, 2], &[1, 1, 11, 21])
    );
}

#[test]
fn scatter_into_last_write_wins_collisions_counted() {
    let e = at(
        ExprKind::ScatterInto {
            dest: b(var("d")),
            is: b(var("is")),
            vs: b(var("vs")),
        },
        3,
    );
    let f = func(
        &[
            ("d", tra(&[3])),
            ("is", ta(Base::Z, &[4])),
            ("vs", tra(&[4])),
        ],
        tra(&[3]),
        e,
    );
    let inputs = [vr(&[0, 0, 0]), vz(&[2, 0, 2, 3]), vr(&[1, 2, 3, 4])];
    let (v, st) = eval(&f, &inputs, &EvalOptions::default()).unwrap();
    assert_eq!(v, vr(&[2, 0, 3]));
    assert_eq!((st.colliding_writes, st.oob_writes), (1, 1));
    let d = eval(
        &f,
        &inputs,
        &EvalOptions {
            strict: true,
            ..EvalOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!((d.kind, d.span.start), (ErrorKind::Runtime, 3));
}

#[test]
fn loop_runs_sequentially() {
    // loop (acc = 1) for i < 5 do acc * 2 + real(i)
    let l = ex(ExprKind::Loop {
        acc: Pat::Var("acc".into()),
        init: b(rn(1)),
        var: "i".into(),
        count: 5,
        body: b(add(
            mul(var("acc"), rn(2)),
            prim(Prim::Real, vec![var("i")]),
        )),
    });
    // 1 → 2 → 5 → 12 → 27 → 58
    assert_eq!(run_expr(l, tr()), sr(ri(58)));
    // tuple accumulator: fibonacci
    let l = ex(ExprKind::Loop {
        acc: Pat::Tuple(vec!["a".into(), "c".into()]),
        init: b(tuple(vec![zn(0), zn(1)])),
        var: "i".into(),
        count: 10,
        body: b(tuple(vec![var("c"), add(var("a"), var("c"))])),
    });
    assert_eq!(
        run_expr(l, Type::Tuple(vec![tz(), tz()])),
        Value::Tuple(vec![Value::int(55), Value::int(89)])
    );
    let l = ex(ExprKind::Loop {
        acc: Pat::Var("a".into()),
        init: b(rn(3)),
        var: "i".into(),
        count: 0,
        body: b(rn(0)),
    });
    assert_eq!(run_expr(l, tr()), sr(ri(3)));
}
