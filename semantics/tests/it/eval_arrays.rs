//! Array forms on hand-built elaborated ASTs: indexing (in and out of bounds), build,
//! gather, scatter, sum, sum_outer, replicate, transpose, reshape, iota, append, stacking.
use crate::common;
use adora_core::ast::*;
use adora_core::types::Base;
use adora_semantics::value::Value;
use common::*;

fn x23() -> Value<adora_semantics::Rat> {
    va(&[2, 3], &[1, 2, 3, 4, 5, 6])
}

#[test]
fn index_prefix_and_out_of_bounds() {
    let f = |is: Vec<Expr>, ret| func(&[("x", tra(&[2, 3]))], ret, index(var("x"), is));
    assert_eq!(run(&f(vec![zn(1)], tra(&[3])), &[x23()]), vr(&[4, 5, 6]));
    assert_eq!(run(&f(vec![zn(1), zn(2)], tr()), &[x23()]), sr(ri(6)));
    let (v, st) = run_stats(&f(vec![zn(2)], tra(&[3])), &[x23()]);
    assert_eq!((v, st.oob_reads), (vr(&[0, 0, 0]), 1));
    let (v, st) = run_stats(&f(vec![zn(0), zn(-1)], tr()), &[x23()]);
    assert_eq!((v, st.oob_reads), (sr(ri(0)), 1));
    // integer and boolean arrays read 0 / false
    let g = func(
        &[("z", ta(Base::Z, &[2]))],
        tz(),
        index(var("z"), vec![zn(5)]),
    );
    assert_eq!(run(&g, &[vz(&[7, 8])]), Value::int(0));
    let g = func(&[], tb(), index(arr(vec![bl(true)]), vec![zn(1)]));
    assert_eq!(run(&g, &[]), Value::bool(false));
}

#[test]
fn build_one_and_two_dimensional() {
    // build 4 (i => real(i) * 2)
    let e = build(&[4], &["i"], mul(prim(Prim::Real, vec![var("i")]), rn(2)));
    assert_eq!(run_expr(e, tra(&[4])), vr(&[0, 2, 4, 6]));
    // build [2, 3] ((i, j) => x[j, i])  -> transpose of x : R[3, 2]
    let f = func(
        &[("x", tra(&[3, 2]))],
        tra(&[2, 3]),
        build(
            &[2, 3],
            &["i", "j"],
            index(var("x"), vec![var("j"), var("i")]),
        ),
    );
    assert_eq!(
        run(&f, &[va(&[3, 2], &[1, 2, 3, 4, 5, 6])]),
        va(&[2, 3], &[1, 3, 5, 2, 4, 6])
    );
    // rows of a build may be arrays
    let e = build(
        &[2],
        &["i"],
        arr(vec![prim(Prim::Real, vec![var("i")]), rn(9)]),
    );
    assert_eq!(run_expr(e, tra(&[2, 2])), va(&[2, 2], &[0, 9, 1, 9]));
}

#[test]
fn conv_example_from_the_design() {
    // conv(x, w) = build 8 (i => sum(build 3 (k => x[i + k] * w[k]))); main = sum(y * y)
    let conv = build(
        &[8],
        &["i"],
        sum(build(
            &[3],
            &["k"],
            mul(
                index(var("x"), vec![add(var("i"), var("k"))]),
                index(var("w"), vec![var("k")]),
            ),
        )),
    );
    let f = func(
        &[("x", tra(&[10])), ("w", tra(&[3]))],
        tr(),
        let_("y", conv, sum(mul(var("y"), var("y")))),
    );
    let x: Vec<i64> = (1..=10).collect();
    // y[i] = x[i] + 2 x[i+1] + 3 x[i+2] with w = [1, 2, 3] → y[i] = 6 i + 14 (x = i + 1)
    let want: i64 = (0..8).map(|i| (6 * i + 14) * (6 * i + 14)).sum();
    assert_eq!(run(&f, &[vr(&x), vr(&[1, 2, 3])]), sr(ri(want)));
}

#[test]
fn gather_reads_and_counts_out_of_bounds() {
    // gather([2, 3], x, (i, j) => [2 * (i + j), i]) on x : R[5, 2] ; ix has length 2 → result R[2, 3]
    let ix = vec![mul(zn(2), add(var("i"), var("j"))), var("i")];
    let g = ex(ExprKind::Gather(
        vec![2, 3],
        b(var("x")),
        vec!["i".into(), "j".into()],
        ix,
    ));
    let f = func(&[("x", tra(&[5, 2]))], tra(&[2, 3]), g);
    let x = va(&[5, 2], &[10, 11, 20, 21, 30, 31, 40, 41, 50, 51]);
    let (v, st) = run_stats(&f, &[x]);
    // (0,0)->x[0,0]=10 (0,1)->x[2,0]=30 (0,2)->x[4,0]=50 (1,0)->x[2,1]=31 (1,1)->x[4,1]=51 (1,2)->x[6,1] oob
    assert_eq!(v, va(&[2, 3], &[10, 30, 50, 31, 51, 0]));
    assert_eq!(st.oob_reads, 1);
    // prefix gather keeps the tail: gather([3], x, i => [2 - i]) on R[2, 2]... rows reversed with one oob
    let g = ex(ExprKind::Gather(
        vec![3],
        b(var("x")),
        vec!["i".into()],
        vec![sub(zn(1), var("i"))],
    ));
    let f = func(&[("x", tra(&[2, 2]))], tra(&[3, 2]), g);
    let (v, st) = run_stats(&f, &[va(&[2, 2], &[1, 2, 3, 4])]);
    assert_eq!((v, st.oob_reads), (va(&[3, 2], &[3, 4, 1, 2, 0, 0]), 1));
}

#[test]
fn scatter_adds_collisions_and_drops_out_of_bounds() {
    // scatter([3], x, i => [i % 3]) on x : R[5]  → [x0 + x3, x1 + x4, x2]
    let s = ex(ExprKind::Scatter(
        vec![3],
        b(var("x")),
        vec!["i".into()],
        vec![bin(BinOp::Mod, var("i"), zn(3))],
    ));
    let f = func(&[("x", tra(&[5]))], tra(&[3]), s);
    let (v, st) = run_stats(&f, &[vr(&[1, 2, 3, 4, 5])]);
    assert_eq!(v, vr(&[5, 7, 3]));
    assert_eq!(st.oob_writes, 0);
    // scatter([2, 2], x, i => [i - 1]) on x : R[3, 2]: row 0 → oob, rows 1, 2 → result rows 0, 1
    let s = ex(ExprKind::Scatter(
        vec![2, 2],
        b(var("x")),
        vec!["i".into()],
        vec![sub(var("i"), zn(1))],
    ));
    let f = func(&[("x", tra(&[3, 2]))], tra(&[2, 2]), s);
    let (v, st) = run_stats(&f, &[va(&[3, 2], &[1, 2, 3, 4, 5, 6])]);
    assert_eq!((v, st.oob_writes), (va(&[2, 2], &[3, 4, 5, 6]), 1));
    // two binders, one index: scatter([2], x, (i, j) => [j]) on R[2, 2] sums columns
    let s = ex(ExprKind::Scatter(
        vec![2],
        b(var("x")),
        vec!["i".into(), "j".into()],
        vec![var("j")],
    ));
    let f = func(&[("x", tra(&[2, 2]))], tra(&[2]), s);
    assert_eq!(run(&f, &[va(&[2, 2], &[1, 2, 3, 4])]), vr(&[4, 6]));
    // integers
    let s = ex(ExprKind::Scatter(
        vec![1],
        b(var("z")),
        vec!["i".into()],
        vec![zn(0)],
    ));
    let f = func(&[("z", ta(Base::Z, &[3]))], ta(Base::Z, &[1]), s);
    assert_eq!(
        run(&f, &[vz(&[1, 2, 3])]),
        Value::ints(vec![1], vec![6]).unwrap()
    );
}

#[test]
fn sums_replicate_transpose_reshape() {
    let f = func(&[("x", tra(&[2, 3]))], tr(), sum(var("x")));
    assert_eq!(run(&f, &[x23()]), sr(ri(21)));
    let f = func(
        &[("x", tra(&[2, 3]))],
        tra(&[3]),
        prim(Prim::SumOuter, vec![var("x")]),
    );
    assert_eq!(run(&f, &[x23()]), vr(&[5, 7, 9]));
    let f = func(
        &[("x", tra(&[0, 3]))],
        tra(&[3]),
        prim(Prim::SumOuter, vec![var("x")]),
    );
    assert_eq!(run(&f, &[va(&[0, 3], &[])]), vr(&[0, 0, 0]));
    let f = func(&[("x", tra(&[0]))], tr(), sum(var("x")));
    assert_eq!(run(&f, &[vr(&[])]), sr(ri(0)));
    let f = func(&[("x", tra(&[2]))], tra(&[3, 2]), rep(3, var("x")));
    assert_eq!(run(&f, &[vr(&[1, 2])]), va(&[3, 2], &[1, 2, 1, 2, 1, 2]));
    let f = func(
        &[("x", tra(&[2, 3]))],
        tra(&[3, 2]),
        prim(Prim::Transpose(vec![1, 0]), vec![var("x")]),
    );
    assert_eq!(run(&f, &[x23()]), va(&[3, 2], &[1, 4, 2, 5, 3, 6]));
    // rank 3: result dim k = input dim perm[k]; perm [2, 0, 1] on [2, 3, 4] gives [4, 2, 3]
    let data: Vec<i64> = (0..24).collect();
    let f = func(
        &[("x", tra(&[2, 3, 4]))],
        tra(&[4, 2, 3]),
        prim(Prim::Transpose(vec![2, 0, 1]), vec![var("x")]),
    );
    let v = run(&f, &[va(&[2, 3, 4], &data)]);
    let mut want = vec![];
    for c in 0..4 {
        for a in 0..2 {
            for b2 in 0..3 {
                want.push(a * 12 + b2 * 4 + c);
            }
        }
    }
    assert_eq!(v, va(&[4, 2, 3], &want));
    let f = func(
        &[("x", tra(&[2, 3]))],
        tra(&[3, 2]),
        prim(Prim::Reshape(vec![3, 2]), vec![var("x")]),
    );
    assert_eq!(run(&f, &[x23()]), va(&[3, 2], &[1, 2, 3, 4, 5, 6]));
    let f = func(
        &[("x", tra(&[2, 3]))],
        tra(&[6]),
        prim(
            Prim::Reshape(vec![6]),
            vec![index(rep(1, var("x")), vec![zn(0)])],
        ),
    );
    assert_eq!(run(&f, &[x23()]), vr(&[1, 2, 3, 4, 5, 6]));
}

#[test]
fn iota_append_stack_array_literals() {
    assert_eq!(
        run_expr(prim(Prim::Iota(4), vec![]), ta(Base::Z, &[4])),
        vz(&[0, 1, 2, 3])
    );
    let f = func(
        &[("x", tra(&[2, 2])), ("y", tra(&[1, 2]))],
        tra(&[3, 2]),
        prim(Prim::Append, vec![var("x"), var("y")]),
    );
    assert_eq!(
        run(&f, &[va(&[2, 2], &[1, 2, 3, 4]), va(&[1, 2], &[5, 6])]),
        va(&[3, 2], &[1, 2, 3, 4, 5, 6])
    );
    let f = func(
        &[("x", tra(&[2])), ("y", tra(&[2]))],
        tra(&[2, 2]),
        prim(Prim::Stack, vec![var("x"), var("y")]),
    );
    assert_eq!(
        run(&f, &[vr(&[1, 2]), vr(&[3, 4])]),
        va(&[2, 2], &[1, 2, 3, 4])
    );
    let e = arr(vec![arr(vec![rl(1, 2), rn(2)]), arr(vec![rn(3), rn(4)])]);
    assert_eq!(run_expr(e, tra(&[2, 2])).real_scalars()[0], &rat(1, 2));
}

#[test]
fn index_does_not_copy_the_array() {
    // build 20000 (i => x[i]) and a 2-D row read in a build. Steps (one per node
    // evaluation, each iteration counting, plus one per scalar of a produced array;
    // docs/language.md) are linear in the iterations:
    // a read `x[i]` is one step whatever the size of `x`. Whether a read copies the array
    // is not visible to a deterministic counter; the criterion benchmark `eval-bulk`
    // (semantics/benches/eval.rs) times these two programs.
    let n = 20000;
    let f = func(
        &[("x", tra(&[n]))],
        tra(&[n]),
        build(&[n], &["i"], index(var("x"), vec![var("i")])),
    );
    let x = Value::real_vector((0..n as i64).map(ri).collect());
    let (v, st) = run_stats(&f, std::slice::from_ref(&x));
    assert_eq!(v, x);
    // per iteration `x`, `i`, `x[i]` (a read produces nothing); the build once, plus
    // one per scalar it produces
    assert_eq!(st.steps, 4 * n as u64 + 1);
    // rows of a [200, 200] matrix, summed: each x[i] is a view, not a copy of x
    let m = 200;
    let f = func(
        &[("x", tra(&[m, m]))],
        tra(&[m]),
        build(&[m], &["i"], sum(index(var("x"), vec![var("i")]))),
    );
    let xm = Value::reals(vec![m, m], (0..(m * m) as i64).map(ri).collect()).unwrap();
    let (v, st) = run_stats(&f, &[xm]);
    assert_eq!(v.real_scalars()[1], &ri((m * m + m * (m - 1) / 2) as i64));
    // per row `x`, `i`, `x[i]`, `sum(..)`; the build once, plus one per scalar
    assert_eq!(st.steps, 5 * m as u64 + 1);
}
