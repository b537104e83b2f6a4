//! The `soac/rule-*` properties: each reverse rule of engine `soac` for `reduce`, `scan`,
//! `reduce_by_index` and `scatter_into` (seed 004 §5.1–§5.3) is sound on random
//! instances. The instance comes from `adora_rewrites::soac::rules::instances` (values
//! with ties and zeros, slices, empty arrays, duplicate and out-of-bounds indices). The
//! rule runs standalone (`soac::rules::standalone`). Its VJP program must equal the
//! reference VJP exactly (docs/engines/soac-rules.md, "Checking the rules").

use crate::catalogue::{Check, Outcome, Pass, Property};
use adora_rewrites::soac::rules::instances::{instance, Kind};
use adora_rewrites::soac::rules::standalone::check;

/// Draws the instance of `kind` for the seed the dimensions `d` make, and checks it.
fn sound(kind: Kind, d: &[usize]) -> Outcome {
    let seed = d.iter().fold(0u64, |s, &x| {
        s.wrapping_mul(1_000_003).wrapping_add(x as u64)
    });
    let inst = instance(kind, seed).map_err(|e| format!("{kind:?} seed {seed}: {}", e.message))?;
    check(&inst.function, &inst.inputs, &inst.cotangent).map_err(|why| {
        format!(
            "{kind:?} seed {seed}: {why}\n{}\ninputs {:?}\ncotangent {:?}",
            adora_core::pretty::function(&inst.function),
            inst.inputs,
            inst.cotangent
        )
    })?;
    Pass::ok()
}

fn reduce_general(d: &[usize]) -> Outcome {
    sound(Kind::ReduceGeneral, d)
}
fn reduce_plus(d: &[usize]) -> Outcome {
    sound(Kind::ReducePlus, d)
}
fn reduce_mul(d: &[usize]) -> Outcome {
    sound(Kind::ReduceMul, d)
}
fn reduce_min_max(d: &[usize]) -> Outcome {
    sound(Kind::ReduceMinMax, d)
}
fn scan_general(d: &[usize]) -> Outcome {
    sound(Kind::ScanGeneral, d)
}
fn scan_plus(d: &[usize]) -> Outcome {
    sound(Kind::ScanPlus, d)
}
fn reduce_by_index(d: &[usize]) -> Outcome {
    sound(Kind::ReduceByIndex, d)
}
fn reduce_by_index_general(d: &[usize]) -> Outcome {
    sound(Kind::ReduceByIndexGeneral, d)
}
fn scatter(d: &[usize]) -> Outcome {
    sound(Kind::Scatter, d)
}

/// One property: its name, paper section, what it states, and its check.
fn prop(
    name: &'static str,
    source: &'static str,
    description: &'static str,
    check: fn(&[usize]) -> Outcome,
) -> Property {
    Property {
        name,
        source,
        fragment: "soac",
        description,
        figure: None,
        check: Check::Dims {
            count: 2,
            max: 1_000_000,
            check,
        },
    }
}

/// The reverse-rule properties of engine `soac`.
pub fn properties() -> Vec<Property> {
    vec![
        prop(
            "soac/rule-reduce-sound",
            "seed 004 §5.1 (general reduce rule)",
            "the general rule of reduce with a lambda operator (possibly non-associative, with free \
             variables, mixing slice components) equals the reference VJP exactly",
            reduce_general,
        ),
        prop(
            "soac/rule-reduce-plus-sound",
            "seed 004 §5.1.1 (reduce with +)",
            "x̄s += replicate(n, ȳ), n̄e += ȳ equals the reference VJP exactly (built-in + and the \
             lambda a + b, slices)",
            reduce_plus,
        ),
        prop(
            "soac/rule-reduce-mul-sound",
            "seed 004 §5.1.1 (reduce with *: no zero, one zero, two or more zeros)",
            "the multiplicative reduce rule equals the reference VJP exactly with 0 to 3 zero factors, \
             per slice position",
            reduce_mul,
        ),
        prop(
            "soac/rule-reduce-minmax-sound",
            "seed 004 §5.1.1 (reduce with min/max); docs/language.md (ties)",
            "only the first extremal element (or ne when no element equals the result) gets ȳ: equal \
             to the reference VJP exactly on inputs with many ties",
            reduce_min_max,
        ),
        prop(
            "soac/rule-scan-sound",
            "seed 004 §5.2 (scan rule: local partials, scan of linear-function composition, map)",
            "the scan rules for *, min, max and lambda operators (Jacobian matrices for slices) equal \
             the reference VJP exactly",
            scan_general,
        ),
        prop(
            "soac/rule-scan-plus-sound",
            "seed 004 §5.2 (scan with +)",
            "x̄s_i += Σ_{j ≥ i} ȳs_j and n̄e += Σ ȳs equal the reference VJP exactly",
            scan_plus,
        ),
        prop(
            "soac/rule-reduce-by-index-sound",
            "seed 004 §5.1.2 (reduce_by_index with +, *, min, max)",
            "the reduce_by_index rules for built-in operators equal the reference VJP exactly with \
             duplicate and out-of-bounds indices and ties with the destination",
            reduce_by_index,
        ),
        prop(
            "soac/rule-reduce-by-index-general-sound",
            "seed 004 §5.1.2 (reduce_by_index with a general operator)",
            "the general reduce_by_index rule (replay loop, reverse loop) equals the reference VJP \
             exactly for lambda operators",
            reduce_by_index_general,
        ),
        prop(
            "soac/rule-scatter-sound",
            "seed 004 §5.3 (scatter rule)",
            "v̄s_j = ȳ[is_j] for the surviving in-bounds writes, d̄est = ȳ zeroed at written positions: \
             equal to the reference VJP exactly with duplicate and out-of-bounds indices",
            scatter,
        ),
    ]
}
