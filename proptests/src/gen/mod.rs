//! Random well-typed surface programs and matching inputs, for named fragments.
//!
//! Generation is type-directed: [`ctx::Gen::expr`] produces an expression of a requested
//! type in an environment of typed variables with a size budget. A [`GenSpec`] names the
//! fragment, the size budget of `main`'s body, the kind of result, and whether the
//! program must be exactly computable in `f64` (see [`GenSpec::f64_exact`]).
//!
//! Fragments (the constructs each may contain; [`coverage::constructs`] names them):
//!
//! * [`Fragment::Scalar`]: `R`/`Z`/`B` scalars and tuples — literals, `+ - * /` (and `%`
//!   on `Z`), negation, comparisons, `&& || !`, `min`, `max`, `abs`, `pow`, `floor`,
//!   `real`, `select`, `let` (also of tuple patterns), tuples and projections, calls of
//!   a helper `def`;
//! * [`Fragment::Bulk`] (seed 000): the scalar constructs lifted elementwise to arrays
//!   with rank-0 broadcasting, plus `build` (1-D and 2-D), indexing by a prefix, `gather`,
//!   `scatter`, `sum`, `sum_outer`, `replicate`, `transpose`, `reshape`, `append`, `stack`,
//!   array literals, `iota`, elementwise `select`;
//! * [`Fragment::Soac`] (seed 004): the scalar constructs lifted elementwise, plus `map`,
//!   `reduce` (`+`, `*`, `min`, `max`, lambda), `scan`, `reduce_by_index`,
//!   `scatter_into`, `loop`, `if`, indexing, `replicate`, `iota`, array literals.
//!
//! All literals and inputs are small rationals (numerators -5..5, denominators 1..4), all
//! operations are rational (exact evaluation never meets `exp`, `sin`, ...), shapes have
//! dimensions 1–4 (at most 64 elements per array), integer arithmetic stays small, and
//! index expressions are mostly in bounds and sometimes not.

pub mod bulk;
pub mod coverage;
pub mod ctx;
pub mod expr;
pub mod index;
pub mod lit;
pub mod mk;
pub mod program;
pub mod pullback;
pub mod qc;
pub mod scalar;
pub mod scale;
pub mod shrink;
pub mod sized;
pub mod sized_helper;
pub mod soac;
pub mod strategy;
pub mod tl;
pub mod tl_ssa;
pub mod typing;
pub mod walk;

use crate::values::{literal, Rat};
use adora_core::ast::{Def, Program};
use adora_semantics::value::Value;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// A named fragment of the core language (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fragment {
    /// Scalars and tuples.
    Scalar,
    /// Seed 000's bulk array operations.
    Bulk,
    /// Seed 004's second-order array combinators and control flow.
    Soac,
}

impl Fragment {
    /// All fragments.
    pub const ALL: [Fragment; 3] = [Fragment::Scalar, Fragment::Bulk, Fragment::Soac];

    /// The fragment's name: `scalar`, `bulk`, `soac`.
    pub fn name(self) -> &'static str {
        match self {
            Fragment::Scalar => "scalar",
            Fragment::Bulk => "bulk",
            Fragment::Soac => "soac",
        }
    }

    /// The fragment called `name`.
    pub fn from_name(name: &str) -> Option<Fragment> {
        Fragment::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for Fragment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What kind of result `main` has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetKind {
    /// Mostly a real scalar; sometimes a real array, a tuple, or an integer or boolean.
    Any,
    /// A real scalar (for gradients).
    RealScalar,
    /// A real array of any rank (rank 0 included).
    RealArray,
    /// Real arrays or tuples of them (every scalar of the result is real).
    Real,
}

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct GenSpec {
    /// The fragment.
    pub fragment: Fragment,
    /// Size budget (about the most nodes) of `main`'s body; the helper gets a third.
    pub size: u32,
    /// The kind of `main`'s result.
    pub ret: RetKind,
    /// Restrict to programs whose `f64` evaluation is exact: literals and inputs are
    /// dyadic (denominators 1, 2, 4), reals are divided only by the literals 2, 4, 0.5,
    /// and `pow` exponents are non-negative. Exact and `f64` evaluation then agree
    /// unless a value needs more than 53 significant bits.
    pub f64_exact: bool,
}

impl GenSpec {
    /// A spec for `fragment` with the default size (40) and any result.
    pub fn new(fragment: Fragment) -> GenSpec {
        GenSpec {
            fragment,
            size: 40,
            ret: RetKind::Any,
            f64_exact: false,
        }
    }
    /// The same spec with size budget `size`.
    pub fn size(mut self, size: u32) -> GenSpec {
        self.size = size;
        self
    }
    /// The same spec with result kind `ret`.
    pub fn ret(mut self, ret: RetKind) -> GenSpec {
        self.ret = ret;
        self
    }
    /// The same spec restricted to `f64`-exact programs.
    pub fn f64_exact(mut self) -> GenSpec {
        self.f64_exact = true;
        self
    }
}

/// A generated test case: a surface program with a `def main` (and sometimes a helper it
/// calls), and one input value per parameter of `main`.
#[derive(Clone, PartialEq)]
pub struct Case {
    /// The fragment it was generated for.
    pub fragment: Fragment,
    /// The program (spans are all [`adora_core::Span::DUMMY`]).
    pub program: Program,
    /// Inputs, in the order of `main`'s parameters.
    pub inputs: Vec<Value<Rat>>,
    /// Auxiliary randomness for the properties (tangents, cotangents, coefficients); it
    /// is fixed while the case shrinks.
    pub aux: u64,
}

impl Case {
    /// The `main` definition.
    pub fn main(&self) -> &Def {
        self.program
            .defs
            .iter()
            .rev()
            .find(|d| d.name == "main")
            .expect("generated programs have a main")
    }

    /// Total number of expression nodes over all `def`s.
    pub fn node_count(&self) -> usize {
        self.program
            .defs
            .iter()
            .map(|d| adora_core::visit::node_count(&d.body))
            .sum()
    }

    /// The inputs as command-line flags: `--input 'x=[1, 2/3]' --input 'y=2'`.
    pub fn input_flags(&self) -> String {
        let main = self.main();
        main.params
            .iter()
            .zip(&self.inputs)
            .map(|(p, v)| format!("--input '{}={}'", p.name, literal(v)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The program's source (through `adora_core::pretty::program`; the AST's debug form
    /// if the printer panics; with size parameters when the case has them) followed by
    /// the input flags.
    pub fn render(&self) -> String {
        let sized = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.sized_source()));
        let src = match sized {
            Ok(Some(s)) => s,
            _ => source(&self.program),
        };
        format!("{src}\n{}", self.input_flags())
    }
}

/// Printed source of a program; the AST's debug form if the printer panics.
pub fn source(p: &Program) -> String {
    let p2 = p.clone();
    std::panic::catch_unwind(move || adora_core::pretty::program(&p2))
        .unwrap_or_else(|_| format!("(the pretty-printer panicked; AST follows)\n{p:#?}"))
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.fragment, self.render())
    }
}

/// Generates the case of `spec` determined by `seed`, with the size budget multiplied by
/// the factor of `adora check --size` in force ([`scale::factor`]; 1 by default).
pub fn generate(spec: &GenSpec, seed: u64) -> Case {
    let mut spec = spec.clone();
    spec.size = spec.size.saturating_mul(scale::factor());
    let mut g = ctx::Gen::new(spec, ChaCha8Rng::seed_from_u64(seed));
    g.program()
}
