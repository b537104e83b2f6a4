//! Matrix products written transposed (docs/backend.md, "Matrix products"): a `map`
//! kernel that only transposes the result of a matrix product read nowhere else is
//! dropped, and the product writes the transposed result itself, by
//! `(op(a) · op(b))ᵀ = op(b)ᵀ · op(a)ᵀ` — both operands read with the other stride, no
//! extra pass over the result. Engine `linear`'s gradient of a matrix product ends in
//! such a transpose (its transpose of `b[r, j]` scatters to `[j, r]`).

use super::memory::{kernel_reads, outputs};
use super::sx::Sx;
use super::{KernelKind, Plan, Step};

/// The buffer a `map` kernel over `[p, q]` reads as `src[v1, v0]` and nothing else.
fn transposed_read(kind: &KernelKind) -> Option<usize> {
    let KernelKind::Map { vars, body } = kind else {
        return None;
    };
    let [v0, v1] = vars[..] else {
        return None;
    };
    match body {
        Sx::Load(b, _, ix) if ix[..] == [Sx::Var(v1), Sx::Var(v0)] => Some(*b),
        _ => None,
    }
}

/// How many times each buffer is read by a kernel, loops' bodies and carries included.
fn read_counts(steps: &[Step], counts: &mut [usize]) {
    for s in steps {
        match s {
            Step::Kernel(k) => kernel_reads(&k.kind)
                .into_iter()
                .for_each(|b| counts[b] += 1),
            Step::Loop { body, carry, .. } => {
                read_counts(body, counts);
                carry.iter().for_each(|&(from, _)| counts[from] += 1);
            }
        }
    }
}

/// Whether a step reads or writes buffer `b`.
fn touches(s: &Step, b: usize) -> bool {
    match s {
        Step::Kernel(k) => k.out == b || kernel_reads(&k.kind).contains(&b),
        Step::Loop { body, carry, .. } => {
            body.iter().any(|s| touches(s, b)) || carry.iter().any(|&(f, t)| f == b || t == b)
        }
    }
}

/// Folds every such transpose into its product, within each step list.
pub fn fold_transposes(p: &mut Plan) {
    let mut counts = vec![0; p.buffers.len()];
    read_counts(&p.steps, &mut counts);
    let mut outs = Vec::new();
    outputs(&p.output, &mut outs);
    let single = |b: usize| counts[b] == 1 && !outs.contains(&b);
    fold_in(&mut p.steps, &single);
}

fn fold_in(steps: &mut Vec<Step>, single: &impl Fn(usize) -> bool) {
    let mut k = 0;
    while k < steps.len() {
        if let Step::Loop { body, .. } = &mut steps[k] {
            fold_in(body, single);
        }
        let Step::Kernel(t) = &steps[k] else {
            k += 1;
            continue;
        };
        let target = t.out;
        let producer = transposed_read(&t.kind).filter(|&b| single(b)).and_then(|b| {
            steps[..k].iter().rposition(
                |s| matches!(s, Step::Kernel(m) if m.out == b && matches!(m.kind, KernelKind::MatMul { n, .. } if n > 1)),
            )
        });
        // Nothing between the product and the transpose touches the transpose's output.
        let producer = producer.filter(|&j| steps[j + 1..k].iter().all(|s| !touches(s, target)));
        let Some(j) = producer else {
            k += 1;
            continue;
        };
        if let Step::Kernel(m) = &mut steps[j] {
            if let KernelKind::MatMul {
                a,
                ta,
                b,
                tb,
                m: rows,
                n: cols,
                k: _,
            } = &mut m.kind
            {
                std::mem::swap(a, b);
                let (ta0, tb0) = (*ta, *tb);
                *ta = !tb0;
                *tb = !ta0;
                std::mem::swap(rows, cols);
            }
            m.out = target;
        }
        steps.remove(k);
    }
}
