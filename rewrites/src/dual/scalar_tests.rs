//! Deep scalar Deltas (issue 19): `sum(replicate(8000000, x))` overflowed the stack of
//! `jvp --engine dual-scalar`. The reverse pass, the tangent and the drop of an `Add`
//! chain a million deep run here on a thread with a 256 KiB stack, where any of them
//! recursing per node would overflow.

use super::*;

/// `((x + x) + x) + …`, `n` additions deep, as a left fold builds it.
fn chain(n: usize) -> SD<Rat> {
    let x = SD::<Rat>::node(SNode::Input(0));
    let mut acc = x.clone();
    for _ in 0..n {
        acc = SD::add(acc, SD::scale(Rat::from_integer(2.into()), x.clone()));
    }
    SD::share(acc)
}

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_million_deep_delta_needs_no_deep_stack() {
    const N: usize = 1_000_000;
    let expect = Rat::from_integer((2 * N as i64 + 1).into());
    on_small_stack(move || {
        let d = chain(N);
        let mut memo = HashMap::new();
        let mut failure = None;
        let one = Rat::from_integer(1.into());
        assert_eq!(
            tangent_of(&d, &[Some(one.clone())], &mut memo, &mut failure),
            Some(expect.clone())
        );
        assert!(failure.is_none());
        assert_eq!(backprop(vec![(d.clone(), one)], 1), Ok(vec![expect]));
        assert_eq!(count_nodes(&[&d]), 3 * N + 2);
        drop(d);
    });
}

#[test]
fn a_failed_partial_is_an_internal_error_not_a_panic() {
    // A Delta the table could not give reaches both passes as an error message.
    let n = NonRational(Transcendental::Sin);
    let d: SD<f64> = SD::add(SD::node(SNode::Input(0)), SD::share(failed(PrimId::Mul, n)));
    let m = backprop(vec![(d.clone(), 1.0)], 1).unwrap_err();
    assert!(m.contains("`mul`"), "{m}");
    let mut failure = None;
    let t = tangent_of(&d, &[Some(1.0)], &mut HashMap::new(), &mut failure);
    assert_eq!(t, Some(1.0));
    assert!(failure.is_some_and(|m| m.contains("`mul`")));
    assert!(count_nodes(&[&d]) >= 3);
}
