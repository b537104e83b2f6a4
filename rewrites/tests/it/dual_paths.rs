//! Every pipeline of the `dual` engines agrees exactly with the reference derivative on
//! hand-written build-free programs covering each construct's derivative rule.

use crate::dual_support;

use dual_support::agree_random;

#[test]
fn arithmetic() {
    agree_random(
        "def main(x: R[3], y: R[3]) -> R = sum(x * y - x / y + -y)",
        6,
    );
    agree_random(
        "def main(x: R, y: R) -> R = x * x * y / (x + y) - pow(x, 3) + pow(y, -2)",
        8,
    );
    agree_random(
        "def main(x: R[4]) -> R = sum(abs(x) * pow(x, 0) + pow(x, 1))",
        6,
    );
}

#[test]
fn fig18_after_bot() {
    agree_random(
        "def main(x: R[5]) -> R = sum_outer(x * gather([5], x, i => [4 - i]))",
        6,
    );
}

#[test]
fn let_sharing() {
    agree_random(
        "def main(x: R[3]) -> R = let y = x * x in let z = y + y * x in sum(z * y + y)",
        6,
    );
    agree_random(
        "def main(x: R, y: R) -> (R, R) = let (a, b) = (x * y, x - y) in (a * b, b * b)",
        6,
    );
}

#[test]
fn selection_min_max() {
    agree_random(
        "def main(x: R[4], y: R[4]) -> R = sum(select(x < y, x * y, y) + max(x, y) * min(x, y))",
        10,
    );
    agree_random(
        "def main(x: R[4], y: R[4]) -> R[4] = select(sum(x) < 0.0, x, y * y)",
        6,
    );
    agree_random(
        "def main(x: R[4]) -> R = sum(max(x, replicate(4, 0.5)) + min(x, x))",
        6,
    );
}

#[test]
fn data_movement() {
    agree_random(
        "def main(x: R[2, 3], y: R[3]) -> R[3, 2] = transpose([1, 0], x * replicate(2, y))",
        6,
    );
    agree_random(
        "def main(x: R[2, 3]) -> R[6] = reshape([6], x) * reshape([6], x)",
        4,
    );
    agree_random(
        "def main(x: R[2, 2], y: R[3, 2]) -> R[5, 2] = append(x, y * y)",
        4,
    );
    agree_random(
        "def main(x: R[2], y: R[2]) -> R[3, 2] = [x, y * x, replicate(2, 1.5)]",
        4,
    );
    agree_random(
        "def main(x: R[2], y: R[2]) -> R[2, 2] = stack([x * y, y])",
        4,
    );
    agree_random("def main(x: R[3, 2]) -> R[2] = sum_outer(x * x)", 4);
}

#[test]
fn indexing_in_and_out_of_bounds() {
    agree_random(
        "def main(x: R[4, 2], k: Z) -> R = sum(x[k] * x[1]) + x[k + 3, 1] * x[5, 0]",
        8,
    );
    agree_random(
        "def main(x: R[4], is: Z[3]) -> R[3] = gather([3], x, i => [is[i]]) * gather([3], x, i => [i - 1])",
        8,
    );
}

#[test]
fn scatter_collisions_and_drops() {
    agree_random(
        "def main(x: R[4], w: R[3]) -> R = sum(scatter([3], x * x, i => [i % 3]) * w) + sum(scatter([2], x, i => [i - 1]))",
        8,
    );
    agree_random(
        "def main(x: R[3, 2]) -> R[2, 2] = scatter([2, 2], x, i => [i / 2])",
        4,
    );
}

#[test]
fn index_maps_are_not_differentiated() {
    agree_random(
        "def main(x: R[4], y: R[4]) -> R = sum(gather([4], x, i => [floor(y[i] * 2.0) % 4]) * y)",
        8,
    );
}

#[test]
fn integers_and_tuples() {
    agree_random(
        "def main(p: (R[2], Z), x: R) -> (R[2], R) = (p.0 * x, real(p.1) * x)",
        6,
    );
    agree_random("def main(x: R[3]) -> R = sum(x * real(iota(3)))", 4);
}

#[test]
fn convolution_after_bot() {
    agree_random(
        "def main(x: R[10], w: R[3]) -> R =
           let y = sum_outer(transpose([1, 0], gather([8, 3], x, (i, k) => [i + k]) * replicate(8, w))) in
           sum(y * y)",
        4,
    );
}
