//! proptest integration: a [`Strategy`] of generated cases whose [`ValueTree`] shrinks
//! with [`super::shrink::candidates`].

use super::shrink::candidates;
use super::{generate, Case, Fragment, GenSpec, RetKind};
use proptest::prelude::Rng;
use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::TestRunner;

/// Generates cases from one of `specs` (chosen uniformly per case).
#[derive(Clone, Debug)]
pub struct CaseStrategy {
    /// The specs to draw from (non-empty).
    pub specs: Vec<GenSpec>,
}

impl CaseStrategy {
    /// Cases of one spec.
    pub fn new(spec: GenSpec) -> CaseStrategy {
        CaseStrategy { specs: vec![spec] }
    }

    /// Cases of every fragment with the given size and result kind.
    pub fn all_fragments(size: u32, ret: RetKind) -> CaseStrategy {
        CaseStrategy {
            specs: Fragment::ALL
                .iter()
                .map(|f| GenSpec::new(*f).size(size).ret(ret))
                .collect(),
        }
    }

    /// The same strategy with every spec restricted to `f64`-exact programs.
    pub fn f64_exact(mut self) -> CaseStrategy {
        self.specs = self.specs.into_iter().map(GenSpec::f64_exact).collect();
        self
    }
}

impl Strategy for CaseStrategy {
    type Tree = CaseTree;
    type Value = Case;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let seed = runner.rng().next_u64();
        let k = (runner.rng().next_u64() % self.specs.len().max(1) as u64) as usize;
        let spec = self
            .specs
            .get(k)
            .ok_or("a CaseStrategy needs at least one spec")?;
        Ok(CaseTree::new(generate(spec, seed)))
    }
}

/// A generated case and its shrinking state: `baseline` is the smallest case known to
/// fail, `current` the one under test; candidates are the one-step shrinks of the
/// baseline, tried in order.
#[derive(Clone, Debug)]
pub struct CaseTree {
    baseline: Case,
    current: Case,
    cands: Vec<Case>,
    next: usize,
    on_candidate: bool,
}

impl CaseTree {
    /// A tree rooted at `case`.
    pub fn new(case: Case) -> CaseTree {
        CaseTree {
            baseline: case.clone(),
            current: case,
            cands: Vec::new(),
            next: 0,
            on_candidate: false,
        }
    }

    fn advance(&mut self) -> bool {
        if self.next < self.cands.len() {
            self.current = self.cands[self.next].clone();
            self.next += 1;
            self.on_candidate = true;
            true
        } else {
            self.current = self.baseline.clone();
            self.on_candidate = false;
            false
        }
    }
}

impl ValueTree for CaseTree {
    type Value = Case;

    fn current(&self) -> Case {
        self.current.clone()
    }

    /// Called when `current` fails: it becomes the baseline and its shrinks the candidates.
    fn simplify(&mut self) -> bool {
        if self.on_candidate || self.cands.is_empty() && self.next == 0 {
            self.baseline = self.current.clone();
            self.cands = candidates(&self.baseline);
            self.next = 0;
        }
        self.advance()
    }

    /// Called when `current` passes: try the baseline's next candidate.
    fn complicate(&mut self) -> bool {
        self.advance()
    }
}
