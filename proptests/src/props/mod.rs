//! The properties, one module per area: [`backend`] (the kernel plan and CPU executor), [`lang`] (parser, printer, checker, elaboration),
//! [`semantics`] (evaluators and the reference derivative), [`sem_arrays`] (array constructs, inlining), [`cost`] (cost models), [`bot`] (the bulk-operation transform) and [`bot_claims`] (its rule system's claims), [`dual`] (dual-arrays
//! reverse AD; its Delta terms and evaluators in [`dual_delta`], their DAG structure in [`dual_dag`], baselines in [`dual_baselines`], the Delta as a core program in [`dual_delta_core`], the forward transformation in [`dual_symbolic`], the symbolic reverse pass in [`dual_symbolic_rev`]), [`linear`] (linearize, unzip, transpose; seed 002's remaining claims in [`linear_claims`], [`linear_unzip`] and [`linear_rings`]), [`kit`] (the lowering kit), [`soac`] (engine `soac`'s lowering), [`soac_reverse`] (engine `soac`'s reverse mode), [`engines`] (the properties every registered
//! engine gets, generated from the registry), [`soac_rules`] (the reverse rules of engine `soac`), [`soac_maps`] and [`soac_costs`] (engine `soac`'s maps, accumulators and costs), [`soac_loops`] (its loop checkpointing policies), [`soac_framework`] (its framework rules), [`soac_while`] (while loops as bounded loops), [`tssa_tl`] (the tensor language's
//! printer, parser, evaluator and cost model, seed 001), [`tssa_lower`] (engine `tssa`'s lowering, Tensor-SSA
//! conversion and raising), [`tssa_deriv`] (its derivatives `D` and `R`),
//! [`tssa_passes`] (its egg passes, with rule instances planted by [`tssa_plant`],
//! data paths fitted by [`tssa_iso`] and LL-NFs inlined by [`tssa_inline`]); with
//! shared helpers in [`util`] and alpha-equivalence in [`alpha`].

pub mod alpha;
pub mod backend;
pub mod ball;
pub mod bot;
pub mod bot_claims;
pub mod conventions;
pub mod cost;
pub mod dual;
pub mod dual_baselines;
pub mod dual_dag;
pub mod dual_delta;
pub mod dual_delta_core;
pub mod dual_symbolic;
pub mod dual_symbolic_rev;
pub mod engines;
pub mod kit;
pub mod lang;
pub mod linear;
pub mod linear_claims;
pub mod linear_rings;
pub mod linear_unzip;
pub mod pullback;
pub mod pullback_cost;
pub mod pullback_forms;
pub mod sem_arrays;
pub mod semantics;
pub mod soac;
pub mod soac_costs;
pub mod soac_framework;
pub mod soac_loops;
pub mod soac_maps;
pub mod soac_reverse;
pub mod soac_rules;
pub mod soac_while;
pub mod tssa_deriv;
pub mod tssa_inline;
pub mod tssa_iso;
pub mod tssa_lower;
pub mod tssa_passes;
pub mod tssa_plant;
pub mod tssa_tl;
pub mod util;
