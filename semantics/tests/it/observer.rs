//! Observer event sequences on small hand-built programs, exactly as documented in
//! `adora_semantics::eval`.
use crate::common;
use adora_core::ast::*;
use adora_semantics::eval::{eval_observed, EvalOptions, Event, Observer};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use common::*;

#[derive(Default)]
struct Log(Vec<String>);

fn label(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Var(x) => x.clone(),
        ExprKind::Lit(Lit::Int(n)) => n.to_string(),
        ExprKind::Lit(Lit::Real(r)) => format!("{r}r"),
        ExprKind::Lit(Lit::Bool(b)) => b.to_string(),
        ExprKind::Binary(op, ..) => format!("{op:?}"),
        ExprKind::Prim(p, _) => format!("{p:?}"),
        ExprKind::Index(..) => "index".into(),
        ExprKind::Let(..) => "let".into(),
        ExprKind::Build(..) => "build".into(),
        ExprKind::Map(..) => "map".into(),
        ExprKind::Reduce(..) => "reduce".into(),
        ExprKind::Scan(..) => "scan".into(),
        ExprKind::Loop { .. } => "loop".into(),
        ExprKind::Gather(..) => "gather".into(),
        ExprKind::Scatter(..) => "scatter".into(),
        ExprKind::ScatterInto { .. } => "scatter_into".into(),
        ExprKind::ReduceByIndex { .. } => "rbi".into(),
        ExprKind::Tuple(_) => "tuple".into(),
        ExprKind::If(..) => "if".into(),
        other => format!("{other:?}"),
    }
}

impl Observer for Log {
    fn event(&mut self, ev: Event<'_>) {
        self.0.push(match ev {
            Event::Node {
                expr,
                result,
                args,
                collisions,
                writes,
            } => {
                let mut s = format!("{} {result} {args:?}", label(expr));
                if writes > 0 || collisions > 0 {
                    s.push_str(&format!(" w{writes} c{collisions}"));
                }
                s
            }
            Event::ParBegin { expr, iterations } => format!("par {} {iterations}", label(expr)),
            Event::SeqBegin { expr, iterations } => format!("seq {} {iterations}", label(expr)),
            Event::Iter => "iter".into(),
            Event::End => "end".into(),
            Event::Bind { scalars } => format!("bind {scalars}"),
            Event::Unbind { scalars } => format!("unbind {scalars}"),
        });
    }
}

fn events(f: &Function, inputs: &[Value<Rat>]) -> Vec<String> {
    let mut log = Log::default();
    eval_observed(f, inputs, &EvalOptions::default(), &mut log).unwrap();
    log.0
}

#[test]
fn let_binary_and_inputs() {
    let f = func(
        &[("x", tra(&[2])), ("y", tra(&[2]))],
        tr(),
        let_("z", mul(var("x"), var("y")), sum(var("z"))),
    );
    let want = [
        "bind 2",
        "bind 2",
        "x 2 []",
        "y 2 []",
        "Mul 2 [2, 2]",
        "bind 2",
        "z 2 []",
        "Sum 1 [2]",
        "unbind 2",
        "let 1 [2, 1]",
        "unbind 2",
        "unbind 2",
    ];
    assert_eq!(events(&f, &[vr(&[1, 2]), vr(&[3, 4])]), want);
}

#[test]
fn build_and_index() {
    let f = func(
        &[("x", tra(&[2, 3]))],
        tra(&[2]),
        build(
            &[2],
            &["i"],
            mul(index(var("x"), vec![var("i"), zn(0)]), rn(2)),
        ),
    );
    let body = [
        "iter",
        "x 6 []",
        "i 1 []",
        "0 1 []",
        "index 1 [6, 1, 1]",
        "2r 1 []",
        "Mul 1 [1, 1]",
    ];
    let mut want = vec!["bind 6", "par build 2"];
    want.extend(body);
    want.extend(body);
    want.extend(["end", "build 2 []", "unbind 6"]);
    assert_eq!(events(&f, &[va(&[2, 3], &[1, 2, 3, 4, 5, 6])]), want);
}

#[test]
fn map_and_reduce_with_lambdas() {
    let m = ex(ExprKind::Map(lam(&["a"], sum(var("a"))), vec![var("x")]));
    let f = func(&[("x", tra(&[2, 3]))], tra(&[2]), m);
    let it = ["iter", "bind 3", "a 3 []", "Sum 1 [3]", "unbind 3"];
    let mut want = vec!["bind 6", "x 6 []", "par map 2"];
    want.extend(it);
    want.extend(it);
    want.extend(["end", "map 2 [6]", "unbind 6"]);
    assert_eq!(events(&f, &[va(&[2, 3], &[1, 2, 3, 4, 5, 6])]), want);

    let r = ex(ExprKind::Reduce(
        Op::Lambda(lam(&["a", "c"], add(var("a"), var("c")))),
        b(rn(0)),
        b(var("x")),
    ));
    let f = func(&[("x", tra(&[2]))], tr(), r);
    let it = [
        "iter",
        "bind 1",
        "bind 1",
        "a 1 []",
        "c 1 []",
        "Add 1 [1, 1]",
        "unbind 1",
        "unbind 1",
    ];
    let mut want = vec!["bind 2", "0r 1 []", "x 2 []", "par reduce 2"];
    want.extend(it);
    want.extend(it);
    want.extend(["end", "reduce 1 [1, 2]", "unbind 2"]);
    assert_eq!(events(&f, &[vr(&[1, 2])]), want);

    // built-in operators: only the iterations
    let s = ex(ExprKind::Scan(Op::Max, b(rn(0)), b(var("x"))));
    let f = func(&[("x", tra(&[3]))], tra(&[3]), s);
    let want = [
        "bind 3",
        "0r 1 []",
        "x 3 []",
        "par scan 3",
        "iter",
        "iter",
        "iter",
        "end",
        "scan 3 [1, 3]",
        "unbind 3",
    ];
    assert_eq!(events(&f, &[vr(&[1, 2, 3])]), want);
}

#[test]
fn loop_is_sequential() {
    let l = ex(ExprKind::Loop {
        acc: Pat::Var("acc".into()),
        init: b(rn(0)),
        var: "i".into(),
        count: 2,
        body: b(add(var("acc"), rn(1))),
    });
    let f = func(&[], tr(), l);
    let it = [
        "iter",
        "bind 1",
        "acc 1 []",
        "1r 1 []",
        "Add 1 [1, 1]",
        "unbind 1",
    ];
    let mut want = vec!["0r 1 []", "seq loop 2"];
    want.extend(it);
    want.extend(it);
    want.extend(["end", "loop 1 [1]"]);
    assert_eq!(events(&f, &[]), want);
}

#[test]
fn writes_and_collisions() {
    // scatter of R[3, 2] rows into 2 slots: rows 0 and 2 collide → 6 writes, 2 collisions (scalars)
    let s = ex(ExprKind::Scatter(
        vec![2, 2],
        b(var("x")),
        vec!["i".into()],
        vec![bin(BinOp::Mod, var("i"), zn(2))],
    ));
    let f = func(&[("x", tra(&[3, 2]))], tra(&[2, 2]), s);
    let ev = events(&f, &[va(&[3, 2], &[1, 2, 3, 4, 5, 6])]);
    assert_eq!(ev[2], "par scatter 3");
    assert_eq!(ev[ev.len() - 2], "scatter 4 [6] w6 c2");
    assert_eq!(ev.iter().filter(|e| *e == "iter").count(), 3);

    let si = ex(ExprKind::ScatterInto {
        dest: b(var("d")),
        is: b(var("is")),
        vs: b(var("vs")),
    });
    let f = func(
        &[
            ("d", tra(&[3])),
            ("is", ta(adora_core::Base::Z, &[4])),
            ("vs", tra(&[4])),
        ],
        tra(&[3]),
        si,
    );
    let ev = events(&f, &[vr(&[0, 0, 0]), vz(&[2, 0, 2, 9]), vr(&[1, 2, 3, 4])]);
    let want = [
        "bind 3",
        "bind 4",
        "bind 4",
        "d 3 []",
        "is 4 []",
        "vs 4 []",
        "scatter_into 3 [3, 4, 4] w3 c1",
        "unbind 4",
        "unbind 4",
        "unbind 3",
    ];
    assert_eq!(ev, want);

    let rbi = ex(ExprKind::ReduceByIndex {
        dest: b(var("d")),
        op: Op::Add,
        ne: b(rn(0)),
        is: b(var("is")),
        vs: b(var("vs")),
    });
    let f = func(
        &[
            ("d", tra(&[3])),
            ("is", ta(adora_core::Base::Z, &[4])),
            ("vs", tra(&[4])),
        ],
        tra(&[3]),
        rbi,
    );
    let ev = events(&f, &[vr(&[0, 0, 0]), vz(&[2, 0, 2, 9]), vr(&[1, 2, 3, 4])]);
    let want = [
        "bind 3",
        "bind 4",
        "bind 4",
        "d 3 []",
        "0r 1 []",
        "is 4 []",
        "vs 4 []",
        "par rbi 4",
        "iter",
        "iter",
        "iter",
        "iter",
        "end",
        "rbi 3 [3, 1, 4, 4] w3 c1",
        "unbind 4",
        "unbind 4",
        "unbind 3",
    ];
    assert_eq!(ev, want);
}

#[test]
fn gather_and_if_and_tuples() {
    let g = ex(ExprKind::Gather(
        vec![2],
        b(var("x")),
        vec!["i".into()],
        vec![sub(zn(1), var("i"))],
    ));
    let f = func(&[("x", tra(&[2]))], tra(&[2]), g);
    let it = ["iter", "1 1 []", "i 1 []", "Sub 1 [1, 1]"];
    let mut want = vec!["bind 2", "x 2 []", "par gather 2"];
    want.extend(it);
    want.extend(it);
    want.extend(["end", "gather 2 [2]", "unbind 2"]);
    assert_eq!(events(&f, &[vr(&[1, 2])]), want);

    let f = func(
        &[],
        adora_core::Type::Tuple(vec![tr(), tr()]),
        ex(ExprKind::If(
            b(bl(false)),
            b(tuple(vec![rn(1), rn(1)])),
            b(tuple(vec![rn(2), rn(3)])),
        )),
    );
    assert_eq!(
        events(&f, &[]),
        [
            "false 1 []",
            "2r 1 []",
            "3r 1 []",
            "tuple 2 [1, 1]",
            "if 2 [1, 2]"
        ]
    );
}
