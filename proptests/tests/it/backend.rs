//! The backend's property (`backend/cpu-equals-exact`) with a fixed seed.

#[test]
fn backend_cpu_equals_exact() {
    crate::properties::check_seeded("backend/cpu-equals-exact", 150, 0x00AD_0A5E_ED15);
}

/// Every golden program of `specs/programs/` the plan accepts, run by the CPU executor on
/// its header inputs, equals the evaluator: exact programs the exact value converted to
/// `f64` (property `backend/cpu-equals-exact`'s comparison), `f64` programs the `f64`
/// evaluator within 1e-9 relative. Prints how many the plan accepted and refused.
#[test]
fn backend_golden_programs() {
    use adora_proptests::props::backend::{compare, Compared, TOLERANCE};
    use adora_semantics::value::Value;
    use adora_specs::case::Numeric;
    let dir = adora_specs::specs_dir().join("programs");
    let (mut accepted, mut refused, mut failures) = (0usize, Vec::new(), Vec::new());
    for path in adora_specs::discover(&dir) {
        let case = adora_specs::load_case(&path).expect("a golden case parses");
        let name = case.name();
        let Ok(f) = adora_specs::sized::load(&case) else {
            failures.push(format!("{name}: does not load"));
            continue;
        };
        let lit = |p: &adora_core::ast::Param| case.inputs.iter().find(|i| i.name == p.name);
        match case.numeric {
            // Enclosure programs (docs/oracle.md) have no float backend to compare with.
            Numeric::Ball { .. } => continue,
            Numeric::Exact => {
                let xs: Result<Vec<Value<adora_semantics::Rat>>, String> = f
                    .params
                    .iter()
                    .map(|p| {
                        let l = lit(p).ok_or(format!("no input `{}`", p.name))?;
                        adora_specs::compare::literal_value(&l.lit, &p.ty, &name, &case.source)
                    })
                    .collect();
                let xs = match xs {
                    Ok(xs) => xs,
                    Err(e) => {
                        failures.push(format!("{name}: {e}"));
                        continue;
                    }
                };
                match compare(&f, &xs, &name) {
                    Ok(Compared::Agree) => accepted += 1,
                    Ok(Compared::Skipped) => refused.push(name),
                    Err(e) => failures.push(e),
                }
            }
            Numeric::F64 { .. } => {
                let xs: Vec<Value<f64>> = f
                    .params
                    .iter()
                    .filter_map(|p| {
                        let l = lit(p)?;
                        adora_specs::compare::literal_value(&l.lit, &p.ty, &name, &case.source).ok()
                    })
                    .collect();
                if xs.len() != f.params.len() {
                    failures.push(format!("{name}: inputs do not read"));
                    continue;
                }
                let plan = match adora_gpu::plan::plan(&f) {
                    Ok(p) => p,
                    Err(_) => {
                        refused.push(name);
                        continue;
                    }
                };
                let opts = adora_semantics::eval::EvalOptions::default();
                let Ok((want, _)) =
                    adora_core::with_stack(|| adora_semantics::eval::eval(&f, &xs, &opts))
                else {
                    refused.push(name);
                    continue;
                };
                match adora_gpu::cpu::run(&plan, &xs) {
                    Ok(got)
                        if adora_rewrites::engine::harness::values_agree(
                            &got, &want, TOLERANCE,
                        ) =>
                    {
                        accepted += 1
                    }
                    Ok(got) => failures.push(format!(
                        "{name}: CPU executor {}, evaluator {}",
                        adora_semantics::io::to_text(&got),
                        adora_semantics::io::to_text(&want)
                    )),
                    Err(d) => failures.push(format!("{name}: {d}")),
                }
            }
        }
    }
    println!(
        "golden programs: {accepted} accepted and equal, {} refused or skipped: {}",
        refused.len(),
        refused.join(", ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(accepted > 0);
}
