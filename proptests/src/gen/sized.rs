//! Cases given with size parameters (docs/language.md, "Size parameters"): for about a
//! third of the cases (chosen by `aux`, which shrinking keeps), `main` is printed with
//! every size equal to a dimension of its parameter types written as a size name, and the
//! pipeline loads that text instantiated at the inputs' shapes. The instantiated program
//! must be the generated one ([`crate::props::util::load`] checks it), and every property
//! then runs on it. A program with the two instances of a sized helper
//! ([`super::sized_helper`]) prints that helper once, with its size parameter, called at
//! both sizes.

use super::{sized_helper, Case};
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
        let helper = sized_helper::template_of(&self.program);
        if dims.is_empty() && helper.is_none() {
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
        let mut defs: Vec<String> = Vec::new();
        for d in &self.program.defs {
            let is_instance = sized_helper::INSTANCES.contains(&d.name.as_str());
            match helper {
                // The sized helper, once, as written, where its first instance was.
                Some(text) if is_instance => {
                    if d.name == sized_helper::INSTANCES[0] {
                        defs.push(format!("{text}\n"));
                    }
                }
                Some(_) if std::ptr::eq(d, main) => defs.push(pretty::def_with_size_names(
                    &sized_helper::calling_the_helper(d),
                    &names,
                )),
                _ if std::ptr::eq(d, main) => defs.push(pretty::def_with_size_names(d, &names)),
                _ => defs.push(pretty::def(d)),
            }
        }
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
