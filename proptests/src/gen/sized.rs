//! Cases given with size parameters (docs/language.md, "Size parameters"): for about a
//! third of the cases (chosen by `aux`, which shrinking keeps), `main` is printed with
//! every size equal to a dimension of its parameter types written as a size name, and the
//! pipeline loads that text instantiated at the inputs' shapes. The instantiated program
//! must be the generated one ([`crate::props::util::load`] checks it), and every property
//! then runs on it.

use super::Case;
use adora_core::pretty::{self, SizeNames};
use adora_core::types::Type;
use adora_core::visit;
use std::collections::BTreeSet;

/// Candidate size names, in order of use.
const NAMES: [&str; 6] = ["n", "m", "k", "l", "s", "u"];

impl Case {
    /// Whether the case is given with size parameters.
    pub fn sized(&self) -> bool {
        self.aux % 3 == 1
    }

    /// The program's source with `main` generalised to size parameters, when the case is
    /// [`Case::sized`] and `main`'s parameter types have dimensions.
    pub fn sized_source(&self) -> Option<String> {
        if !self.sized() {
            return None;
        }
        let main = self.main();
        let mut dims: Vec<usize> = Vec::new();
        for p in &main.params {
            collect_dims(&p.ty, &mut dims);
        }
        if dims.is_empty() {
            return None;
        }
        let mut taken: BTreeSet<String> = BTreeSet::new();
        for d in &self.program.defs {
            taken.insert(d.name.clone());
            taken.extend(d.params.iter().map(|p| p.name.clone()));
            taken.extend(visit::all_names(&d.body));
        }
        let mut fresh = NAMES
            .iter()
            .map(|n| n.to_string())
            .chain((0..).map(|k| format!("n{k}")))
            .filter(|n| !taken.contains(n));
        let mut names = SizeNames::new();
        for d in dims {
            names
                .entry(d)
                .or_insert_with(|| fresh.next().expect("an endless supply of names"));
        }
        let defs: Vec<String> = self
            .program
            .defs
            .iter()
            .map(|d| {
                if std::ptr::eq(d, main) {
                    pretty::def_with_size_names(d, &names)
                } else {
                    pretty::def(d)
                }
            })
            .collect();
        Some(defs.join("\n"))
    }
}

/// The dimensions of `t`, in order (tuples: their parts').
fn collect_dims(t: &Type, out: &mut Vec<usize>) {
    match t {
        Type::Array(_, s) => out.extend(s),
        Type::Tuple(ts) => ts.iter().for_each(|t| collect_dims(t, out)),
    }
}
