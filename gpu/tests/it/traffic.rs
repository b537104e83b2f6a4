//! Counted memory traffic (docs/backend.md, "Memory traffic"): the compulsory bytes of
//! small plans, derived by hand — each distinct buffer a kernel reads once plus its
//! output, 8 bytes an element, host loops multiplying by their trip count.

use adora_gpu::plan::{plan, traffic, Plan};

fn plan_of(src: &str) -> Plan {
    let p = adora_core::parser::parse_program(src).expect("parses");
    let f = adora_core::check::elaborate(&p, "main").expect("checks");
    plan(&f).expect("plans")
}

#[test]
fn a_dot_product_reads_both_vectors_once_and_writes_one_scalar() {
    let p = plan_of("def main(x: R[10], y: R[10]) -> R = sum(x * y)\n");
    let t = traffic(&p);
    assert_eq!(t.kernels.len(), 1, "{}", adora_gpu::plan::show(&p));
    // (10 + 10 + 1) elements × 8 bytes.
    assert_eq!(t.total, 168);
    assert_eq!(t.carry_bytes, 0);
}

#[test]
fn a_buffer_read_twice_by_one_kernel_counts_once() {
    let p = plan_of("def main(x: R[100]) -> R[100] = build 100 (i => exp(x[i]) * x[i] + x[i])\n");
    let t = traffic(&p);
    assert_eq!(t.kernels.len(), 1, "{}", adora_gpu::plan::show(&p));
    // x once (100) and the result (100), 8 bytes each.
    assert_eq!(t.total, 1600);
}

#[test]
fn a_matrix_product_reads_a_and_b_and_writes_c() {
    let p = plan_of(
        "def main(a: R[2, 3], b: R[3, 4]) -> R[2, 4] =\n  \
         build [2, 4] ((i, j) => sum(build 3 (k => a[i, k] * b[k, j])))\n",
    );
    let t = traffic(&p);
    let text = adora_gpu::plan::show(&p);
    assert!(text.contains("matmul"), "{text}");
    assert_eq!(t.kernels.len(), 1, "{text}");
    // a (6) + b (12) + c (8) elements × 8 bytes.
    assert_eq!(t.total, 208);
    assert!(text.contains("traffic: 208 bytes per call"), "{text}");
}

#[test]
fn a_host_loop_multiplies_its_body_by_the_trip_count() {
    let p = plan_of("def main(x: R, w: R[6]) -> R =\n  loop (a = x) for i < 6 do a * w[i] + x\n");
    let t = traffic(&p);
    let text = adora_gpu::plan::show(&p);
    // The accumulator's initial copy (a scalar read, a scalar written: 16 bytes) runs
    // once; the body reads a (1), w (6) and x (1) and writes one scalar: 9 × 8 = 72
    // bytes, 6 launches; the accumulator copy reads and writes one scalar per iteration.
    assert_eq!(t.kernels.len(), 2, "{text}");
    assert_eq!(
        (t.kernels[0].bytes, t.kernels[0].launches),
        (16, 1),
        "{text}"
    );
    assert_eq!(
        (t.kernels[1].bytes, t.kernels[1].launches),
        (72, 6),
        "{text}"
    );
    assert_eq!(t.carry_bytes, 6 * 16);
    assert_eq!(t.total, 16 + 6 * 72 + 6 * 16);
    assert!(
        text.contains("traffic: 544 bytes per call (7 kernel launches"),
        "{text}"
    );
}
