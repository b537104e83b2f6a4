//! Unit tests of the sums of dual numbers: identical to the left fold, and not quadratic.

use super::sum::counter;
use super::Dual;
use crate::eval::EvalOptions;
use crate::reference::gradient;
use crate::scalar::Scalar;
use crate::value::Value;
use crate::Rat;

fn r(n: i64) -> Rat {
    Rat::from_integer(n.into())
}

/// The plain left fold by `add_assign` (the definition `sum_left` must match).
fn fold<F: Scalar>(items: &[Dual<F>]) -> Dual<F> {
    let mut acc = items[0].clone();
    for x in &items[1..] {
        acc.add_assign(x);
    }
    acc
}

#[test]
fn sum_left_is_the_left_fold() {
    // Overlapping, cancelling and out-of-order ids.
    let items = vec![
        Dual::new(r(1), vec![(3, r(1)), (5, r(2))]),
        Dual::new(r(2), vec![(1, r(4)), (3, r(-1))]),
        Dual::new(r(-1), vec![(5, r(-2)), (7, r(1))]),
        Dual::constant(r(4)),
        Dual::new(r(0), vec![(3, r(9)), (0, r(1))]),
    ];
    let got = <Dual<Rat> as Scalar>::sum_left(&items, 64).unwrap();
    assert_eq!(got, fold(&items));
    assert_eq!(
        got.tangents(),
        &[(0, r(1)), (1, r(4)), (3, r(9)), (7, r(1))]
    );
    assert_eq!(
        <Dual<Rat> as Scalar>::sum_left(&[], 64),
        Some(Dual::constant(r(0)))
    );
    // f64: the same additions in the same order per id, explicit zeros kept.
    let fs: Vec<Dual<f64>> = vec![
        Dual::new(0.1, vec![(2, 0.1), (0, 0.0)]),
        Dual::new(0.2, vec![(2, 0.2), (1, 1e16)]),
        Dual::new(0.3, vec![(2, 0.3), (1, 1.0), (0, -0.0)]),
        Dual::new(0.4, vec![(1, -1e16)]),
    ];
    let got = <Dual<f64> as Scalar>::sum_left(&fs, 64).unwrap();
    let want = fold(&fs);
    assert_eq!(got.value().to_bits(), want.value().to_bits());
    let bits = |d: &Dual<f64>| -> Vec<(usize, u64)> {
        d.tangents()
            .iter()
            .map(|(k, v)| (*k, v.to_bits()))
            .collect()
    };
    assert_eq!(bits(&got), bits(&want));
    assert_eq!(got.tangents().len(), 3);
    // The size check looks at every partial sum's primal value.
    let big = Dual::constant(Rat::new(1.into(), (1i64 << 40).into()));
    assert_eq!(
        <Dual<Rat> as Scalar>::sum_left(&[big.clone(), big], 8),
        None
    );
}

/// Tangent-entry operations of the reference gradient of `src` (with `N` replaced by `n`)
/// at inputs of ones of the given lengths (`0` stands for `n`).
fn entry_ops(src: &str, n: usize, lens: &[usize]) -> u64 {
    let f = adora_core::load(&src.replace('N', &n.to_string()), "main").unwrap();
    let inputs: Vec<Value<Rat>> = lens
        .iter()
        .map(|&l| Value::real_vector(vec![r(1); if l == 0 { n } else { l }]))
        .collect();
    let before = counter::total();
    gradient(&f, &inputs, &EvalOptions::default()).unwrap();
    counter::total() - before
}

#[test]
fn sums_are_not_quadratic() {
    // With one merge per addition the dot product makes about n²/2 entry operations and
    // the convolution loss about 3n²/2 (ratio 16 from n to 4n); one sort makes
    // O(n log n) (ratio about 5).
    let dot = "def main(x: R[N], y: R[N]) -> R = sum(x * y)";
    let conv = "def main(x: R[N], w: R[3]) -> R = \
                let y = build N (i => sum(build 3 (k => x[i + k] * w[k]))) in sum(y * y)";
    for (src, lens) in [(dot, [0, 0]), (conv, [0, 3])] {
        let small = entry_ops(src, 1000, &lens);
        let large = entry_ops(src, 4000, &lens);
        assert!(
            large < 6 * small,
            "{src}: {small} entry operations at n = 1000, {large} at n = 4000"
        );
    }
}

#[test]
fn sparse_ids_are_sorted_and_dense_ids_accumulated_alike() {
    // Ids far apart take the sorting path, dense ids the slot per id; both are the fold.
    for ids in [[0, 1_000_000, 7], [3, 1, 2]] {
        let items: Vec<Dual<Rat>> = (0..6)
            .map(|k| {
                let id = ids[k % 3];
                let other = ids[(k + 1) % 3];
                Dual::new(r(k as i64), vec![(id, r(k as i64 - 2)), (other, r(1))])
            })
            .collect();
        let got = <Dual<Rat> as Scalar>::sum_left(&items, 64).unwrap();
        assert_eq!(got, fold(&items), "ids {ids:?}");
    }
}

#[test]
fn scatter_and_reduce_by_index_sums_are_not_quadratic() {
    // Every row of `x * w` has the tangent ids {x_i, w}, and `w`'s id comes after every
    // `x_i`'s, so adding rows into their slot one at a time merges the slot's whole
    // tangent map each time: about n²/8 entry operations into 4 slots (ratio 16 from n to
    // 4n). One left fold per slot makes O(n) of them (ratio about 4).
    let scatter = "def main(x: R[N], w: R[1]) -> R = \
                   let s = scatter([4], x * w[0], i => [i % 4]) in sum(s * s)";
    let rbi = "def main(x: R[N], w: R[1]) -> R = \
               let h = reduce_by_index(replicate(4, 0.0), +, 0, iota(N) % 4, x * w[0]) in \
               sum(h * h)";
    for src in [scatter, rbi] {
        let small = entry_ops(src, 1000, &[0, 1]);
        let large = entry_ops(src, 4000, &[0, 1]);
        assert!(
            large < 6 * small,
            "{src}: {small} entry operations at n = 1000, {large} at n = 4000"
        );
    }
}
