//! The property catalogue (specs/theorems.md): every property has a stable name `area/kebab-name`
//! (cited by `specs/theorems.md`), its source (paper and theorem, or "engine
//! invariant"), the fragment its cases come from, a description, and a check.
//!
//! A check returns an [`Outcome`]: a failure message, or a pass that may carry a figure
//! (the summary prints the largest seen, e.g. the worst relative `f64` error) and may be
//! vacuous (the case had nothing to check, e.g. no real inputs for a gradient property).

use crate::gen::strategy::CaseStrategy;
use crate::gen::Case;
use crate::gen::RetKind;
use crate::props::{
    backend, ball, bot, bot_claims, conventions, cost, dual, dual_baselines, dual_dag, dual_delta,
    dual_delta_core, dual_symbolic, dual_symbolic_rev, engines, kit, lang, linear, linear_claims,
    linear_rings, linear_unzip, pullback, pullback_cost, pullback_forms, sem_arrays, semantics,
    soac, soac_costs, soac_framework, soac_loops, soac_maps, soac_reverse, soac_rules, soac_while,
    tssa_deriv, tssa_lower, tssa_passes, tssa_tl,
};
use adora_rewrites::engine::Engine;

/// A passing check's report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pass {
    /// A figure of this case (the runner reports the maximum over all cases).
    pub figure: Option<f64>,
    /// Whether the case had nothing to check.
    pub vacuous: bool,
}

impl Pass {
    /// A plain pass.
    pub fn ok() -> Outcome {
        Ok(Pass::default())
    }
    /// A pass with a figure.
    pub fn figure(x: f64) -> Outcome {
        Ok(Pass {
            figure: Some(x),
            vacuous: false,
        })
    }
    /// A vacuous pass (nothing to check in this case).
    pub fn vacuous() -> Outcome {
        Ok(Pass {
            figure: None,
            vacuous: true,
        })
    }
}

/// The result of checking one case: a pass, or a readable failure message.
pub type Outcome = Result<Pass, String>;

/// How the per-case figures of a property are summarised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agg {
    /// The largest figure seen.
    Max,
    /// The mean over the non-vacuous cases.
    Mean,
}

/// What a property's figure means and how it is summarised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// A short label (`max rel err`).
    pub label: &'static str,
    /// How the cases' figures combine.
    pub agg: Agg,
}

/// How a property draws and checks its cases.
#[derive(Clone, Copy)]
pub enum Check {
    /// A property of generated programs and inputs.
    Case {
        /// The generator (fragments, size, result kind).
        strategy: fn() -> CaseStrategy,
        /// The check of one case.
        check: fn(&Case) -> Outcome,
    },
    /// A property of one registered engine (`adora_rewrites::engine::find(engine)`) on
    /// generated programs of the fragments the engine declares.
    Engine {
        /// The engine's registry name.
        engine: &'static str,
        /// The result kind of the generated programs.
        ret: RetKind,
        /// The check of one case.
        check: fn(&dyn Engine, &Case) -> Outcome,
    },
    /// A property of a few random dimensions (each in `1..=max`).
    Dims {
        /// How many dimensions.
        count: usize,
        /// Largest dimension.
        max: usize,
        /// The check.
        check: fn(&[usize]) -> Outcome,
    },
}

/// One property of the catalogue.
#[derive(Clone, Copy)]
pub struct Property {
    /// Stable name `area/kebab-name`.
    pub name: &'static str,
    /// Where it comes from: paper and theorem, or "engine invariant".
    pub source: &'static str,
    /// The fragment(s) its cases come from: `scalar`, `bulk`, `soac`, `all`, or `shapes`.
    pub fragment: &'static str,
    /// What it states.
    pub description: &'static str,
    /// What the summary's figure means (`None`: no figure).
    pub figure: Option<Figure>,
    /// How to check it.
    pub check: Check,
}

impl std::fmt::Debug for Property {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Property({})", self.name)
    }
}

/// Every property, in a fixed order.
pub fn catalogue() -> Vec<Property> {
    let mut out = Vec::new();
    out.extend(lang::properties());
    out.extend(semantics::properties());
    out.extend(ball::properties());
    out.extend(sem_arrays::properties());
    out.extend(cost::properties());
    out.extend(bot::properties());
    out.extend(bot_claims::properties());
    out.extend(dual::properties());
    out.extend(dual_delta::properties());
    out.extend(dual_dag::properties());
    out.extend(dual_baselines::properties());
    out.extend(dual_delta_core::properties());
    out.extend(dual_symbolic::properties());
    out.extend(dual_symbolic_rev::properties());
    out.extend(linear::properties());
    out.extend(linear_claims::properties());
    out.extend(linear_unzip::properties());
    out.extend(linear_rings::properties());
    out.extend(soac_reverse::properties());
    out.extend(soac_loops::properties());
    out.extend(soac_framework::properties());
    out.extend(soac_while::properties());
    out.extend(kit::properties());
    out.extend(soac::properties());
    out.extend(engines::properties());
    out.extend(conventions::properties());
    out.extend(soac_rules::properties());
    out.extend(soac_maps::properties());
    out.extend(soac_costs::properties());
    out.extend(backend::properties());
    out.extend(tssa_tl::properties());
    out.extend(tssa_lower::properties());
    out.extend(tssa_deriv::properties());
    out.extend(tssa_passes::properties());
    out.extend(pullback::properties());
    out.extend(pullback_cost::properties());
    out.extend(pullback_forms::properties());
    out
}

/// The property called `name`.
pub fn find(name: &str) -> Option<Property> {
    catalogue().into_iter().find(|p| p.name == name)
}
