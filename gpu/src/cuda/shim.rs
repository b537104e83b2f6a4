//! A C++ host program that runs plans' generated CUDA C on the CPU against the shim
//! header `gpu/shim/cuda_shim.h` (docs/backend.md, "Running the CUDA C on the CPU"):
//! one function per plan holding its buffers, inputs and steps, run in forward, reverse
//! and shuffled block and thread orders, each printing `ORDER NAME v…` (the result's
//! elements in buffer order, `%.17g`).

use super::codegen::{self, Launch};
use crate::plan::{Output, Plan, Step};
use std::collections::VecDeque;
use std::fmt::Write;

/// The path of the shim header.
pub fn header() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("shim")
}

fn outputs(o: &Output, out: &mut Vec<usize>) {
    match o {
        Output::Buf(b) => out.push(*b),
        Output::Tuple(os) => os.iter().for_each(|o| outputs(o, out)),
    }
}

fn steps(plan: &Plan, ss: &[Step], launches: &mut VecDeque<Launch>, out: &mut String, pad: usize) {
    let p = "  ".repeat(pad);
    for s in ss {
        match s {
            Step::Kernel(_) => {
                let l = launches.pop_front().expect("one launch per kernel");
                if l.work {
                    let _ = writeln!(
                        out,
                        "{p}shim::launch({}, {}, {}, {}, {}, B, C, order);",
                        l.name, l.grid.0, l.grid.1, l.block.0, l.block.1
                    );
                }
            }
            Step::Loop {
                counter,
                count,
                body,
                carry,
            } => {
                let _ = writeln!(
                    out,
                    "{p}for (long long c{counter} = 0; c{counter} < {count}LL; ++c{counter}) {{"
                );
                let _ = writeln!(out, "{p}  C[{counter}] = (double)c{counter};");
                steps(plan, body, launches, out, pad + 1);
                for (k, (f, _)) in carry.iter().enumerate() {
                    let n = plan.buffers[*f].len();
                    let _ = writeln!(
                        out,
                        "{p}  std::vector<double> carry{k}(B[{f}], B[{f}] + {n});"
                    );
                }
                for (k, (_, t)) in carry.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "{p}  std::copy(carry{k}.begin(), carry{k}.end(), B[{t}]);"
                    );
                }
                let _ = writeln!(out, "{p}}}");
            }
        }
    }
}

fn max_counter(ss: &[Step]) -> u32 {
    ss.iter()
        .map(|s| match s {
            Step::Kernel(_) => 0,
            Step::Loop { counter, body, .. } => (*counter).max(max_counter(body)),
        })
        .max()
        .unwrap_or(0)
}

/// The C++ program for `plans`: (name, plan, the contents of each memory slot after the
/// inputs are stored, e.g. by [`crate::cpu::store_inputs`]). Names are printed as given
/// (they must not contain spaces).
pub fn program(plans: &[(String, &Plan, Vec<Vec<f64>>)]) -> String {
    let mut src = String::from("#include \"cuda_shim.h\"\n");
    src.push_str(codegen::PRELUDE);
    let mut bodies = String::new();
    for (i, (name, plan, slots)) in plans.iter().enumerate() {
        let (k, ls) = codegen::kernels(plan, &format!("p{i}_"));
        src.push_str(&k);
        let mut launches: VecDeque<Launch> = ls.into();
        let _ = writeln!(bodies, "static void run_p{i}(shim::Order order) {{");
        for (s, data) in slots.iter().enumerate() {
            // A slot the inputs leave zero is sized, not spelled out (the intermediate
            // slots of a large plan would make megabytes of literals).
            if data.iter().all(|x| x.to_bits() == 0) {
                let _ = writeln!(bodies, "  std::vector<double> slot{s}({});", data.len());
                continue;
            }
            let vals: Vec<String> = data.iter().map(|x| super::expr::lit(*x)).collect();
            let _ = writeln!(
                bodies,
                "  static const double init{s}[] = {{0.0{}{}}};",
                if vals.is_empty() { "" } else { ", " },
                vals.join(", ")
            );
            let _ = writeln!(
                bodies,
                "  std::vector<double> slot{s}(init{s} + 1, init{s} + 1 + {});",
                data.len()
            );
        }
        let ptrs: Vec<String> = plan
            .buffers
            .iter()
            .map(|b| format!("slot{}.data()", b.slot))
            .collect();
        let _ = writeln!(bodies, "  double* B[] = {{nullptr, {}}};", ptrs.join(", "));
        let _ = writeln!(bodies, "  double* const* Bp = B + 1;");
        let _ = writeln!(
            bodies,
            "  double C[{}] = {{0}};",
            max_counter(&plan.steps) + 1
        );
        let mut st = String::new();
        steps(plan, &plan.steps, &mut launches, &mut st, 1);
        bodies.push_str(
            &st.replace(", B, C, order)", ", Bp, C, order)")
                .replace("B[", "Bp["),
        );
        let mut outs = Vec::new();
        outputs(&plan.output, &mut outs);
        let _ = writeln!(bodies, "  printf(\"%s {name}\", shim::order_name(order));");
        for b in outs {
            let n = plan.buffers[b].len();
            let _ = writeln!(
                bodies,
                "  for (long long e = 0; e < {n}LL; ++e) printf(\" %.17g\", Bp[{b}][e]);"
            );
        }
        let _ = writeln!(bodies, "  printf(\"\\n\");\n}}");
    }
    src.push_str(&bodies);
    src.push_str(
        "int main() {\n  for (shim::Order o : {shim::Forward, shim::Reverse, shim::Shuffled}) {\n",
    );
    for i in 0..plans.len() {
        let _ = writeln!(src, "    run_p{i}(o);");
    }
    src.push_str("  }\n  return 0;\n}\n");
    src
}
