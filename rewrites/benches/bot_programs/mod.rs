//! The benchmark programs of `benches/bot.rs` (also used by `tests/it/bot_scaling.rs` and
//! `tests/it/bot_sharing.rs`): four families at growing sizes — deep `build` nests, long
//! `let` chains, wide sums, and chains of shared lets.

#![allow(dead_code)]

/// A nest of `depth` builds of extent 2 whose body reads `x` at the sum of all binders
/// and `w` at each binder: `build 2 (i1 => ... build 2 (id => Σ_k x[i1+..+id] * w[ik]))`.
pub fn build_nest(depth: usize) -> String {
    let is: Vec<String> = (1..=depth).map(|k| format!("i{k}")).collect();
    let all = is.join(" + ");
    let terms: Vec<String> = is.iter().map(|i| format!("x[{all}] * w[{i}]")).collect();
    let mut body = terms.join(" + ");
    for i in is.iter().rev() {
        body = format!("build 2 ({i} => {body})");
    }
    let shape = vec!["2"; depth].join(",");
    format!(
        "def main(x: R[{}], w: R[2]) -> R[{shape}] = {body}",
        depth + 1
    )
}

/// A chain of `len` lets, alternating elementwise arithmetic and reversing builds, summed.
pub fn let_chain(len: usize) -> String {
    let mut s = String::from("def main(x: R[8], y: R[8]) -> R =\n  let a0 = x * y in\n");
    for k in 1..=len {
        let p = k - 1;
        if k % 2 == 1 {
            s.push_str(&format!(
                "  let a{k} = build 8 (i => a{p}[7 - i] + x[i] * y[(i + {k}) % 8]) in\n"
            ));
        } else {
            s.push_str(&format!("  let a{k} = a{p} * x - y in\n"));
        }
    }
    s.push_str(&format!("  sum(a{len})"));
    s
}

/// A convolution-like sum of `width` products inside one build:
/// `sum(build 16 (i => x[i] * w[0] + x[i + 1] * w[1] + ...))`.
pub fn wide_sum(width: usize) -> String {
    let terms: Vec<String> = (0..width).map(|k| format!("x[i + {k}] * w[{k}]")).collect();
    format!(
        "def main(x: R[{}], w: R[{width}]) -> R = sum(build 16 (i => {}))",
        16 + width,
        terms.join(" + ")
    )
}

/// A chain of `len` lets in which each `build` reads the previous array three times
/// (issue 19's family): `let a{k} = build 8 (i => a{k-1}[i] + a{k-1}[i + 1] * a{k-1}[i])`,
/// from `a0 = x`, summed. Inlining the lets makes bot's work exponential in `len`; with
/// the lets kept (docs/rules/bot.md, "Materialised lets") it is linear.
pub fn shared_chain(len: usize) -> String {
    let mut s = String::from("def main(x: R[8]) -> R =\n  let a0 = x * x in\n");
    for k in 1..=len {
        let p = k - 1;
        s.push_str(&format!(
            "  let a{k} = build 8 (i => a{p}[i] + a{p}[i + 1] * a{p}[i]) in\n"
        ));
    }
    s.push_str(&format!("  sum(a{len})"));
    s
}
