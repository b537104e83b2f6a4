//! The memory plan (docs/backend.md, "Memory"): every buffer's lifetime (first write to
//! last read, in step order, a buffer used inside a loop but made before it living to the
//! loop's end), then slots handed out greedily so buffers with disjoint lifetimes share
//! one.

use super::{KernelKind, Output, Plan, Step};

/// Buffers a kernel reads (a batched product's include those of the reduction it
/// replaces, which may run instead).
pub fn kernel_reads(kind: &KernelKind) -> Vec<usize> {
    let mut out = Vec::new();
    for e in kind.exprs() {
        e.reads(&mut out);
    }
    match kind {
        KernelKind::MatMul { a, b, .. } => out.extend([*a, *b]),
        KernelKind::Batched { a, b, zeros, .. } => {
            out.extend([*a, *b]);
            if let super::Zeros::Masks(ms) = zeros {
                out.extend(ms.iter().flatten());
            }
        }
        _ => {}
    }
    out
}

struct Life {
    def: Vec<usize>,
    last: Vec<usize>,
}

fn touch(l: &mut Life, b: usize, pos: usize, write: bool) {
    if write && l.def[b] == usize::MAX {
        l.def[b] = pos;
    }
    if l.def[b] == usize::MAX {
        l.def[b] = pos;
    }
    l.last[b] = l.last[b].max(pos);
}

fn walk(steps: &[Step], pos: &mut usize, l: &mut Life) {
    for s in steps {
        *pos += 1;
        match s {
            Step::Kernel(k) => {
                for b in kernel_reads(&k.kind) {
                    touch(l, b, *pos, false);
                }
                touch(l, k.out, *pos, true);
            }
            Step::Loop { body, carry, .. } => {
                let start = *pos;
                let before: Vec<usize> = l.def.clone();
                walk(body, pos, l);
                *pos += 1;
                for &(from, to) in carry {
                    touch(l, from, *pos, false);
                    touch(l, to, *pos, true);
                }
                let end = *pos;
                for (b, made) in before.iter().enumerate() {
                    if *made != usize::MAX && *made < start && l.last[b] >= start {
                        l.last[b] = end;
                    }
                }
            }
        }
    }
}

/// The buffers of a result.
pub fn outputs(o: &Output, out: &mut Vec<usize>) {
    match o {
        Output::Buf(b) => out.push(*b),
        Output::Tuple(os) => os.iter().for_each(|o| outputs(o, out)),
    }
}

/// Computes lifetimes and assigns slots.
pub fn assign(p: &mut Plan) {
    let n = p.buffers.len();
    let mut l = Life {
        def: vec![usize::MAX; n],
        last: vec![0; n],
    };
    let mut ins = Vec::new();
    p.inputs.iter().for_each(|o| outputs(o, &mut ins));
    for &b in &ins {
        l.def[b] = 0;
    }
    let mut pos = 0;
    walk(&p.steps, &mut pos, &mut l);
    let mut outs = Vec::new();
    outputs(&p.output, &mut outs);
    for &b in ins.iter().chain(&outs) {
        l.last[b] = usize::MAX;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&b| (l.def[b], b));
    let mut slots: Vec<usize> = Vec::new();
    let mut holder: Vec<Option<usize>> = Vec::new();
    for b in order {
        let d = l.def[b];
        for h in holder.iter_mut() {
            if let Some(o) = *h {
                if l.last[o] < d {
                    *h = None;
                }
            }
        }
        let len = p.buffers[b].len();
        let pick = (0..slots.len())
            .filter(|&s| holder[s].is_none() && slots[s] >= len)
            .min_by_key(|&s| slots[s]);
        let s = match pick {
            Some(s) => s,
            None => {
                slots.push(len);
                holder.push(None);
                slots.len() - 1
            }
        };
        holder[s] = Some(b);
        p.buffers[b].slot = s;
    }
    p.slots = slots;
}
