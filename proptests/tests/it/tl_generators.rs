//! Generators G2 (tensor-language terms) and G3 (Tensor-SSA programs): well-typed,
//! evaluable, deterministic, of real size, and covering the constructs they promise
//! (docs/engines/tssa-language.md, "Generators").

use adora_core::tl::{type_of, IExpr, Index, Pred, Rhs, Term, Ty};
use adora_costmodel::tl::{cost_c, cost_c_ssa};
use adora_proptests::gen::tl::{ssa_case, tl_case, SsaGenOptions, TlGenOptions};
use adora_semantics::tl::{eval_ssa, eval_term};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Counts of constructs, by name.
#[derive(Default)]
struct Seen(BTreeMap<&'static str, usize>);

impl Seen {
    fn hit(&mut self, k: &'static str) {
        *self.0.entry(k).or_default() += 1;
    }
    fn pred(&mut self, p: &Pred) {
        match p {
            Pred::True | Pred::False => {}
            Pred::Cmp(_, a, b) => {
                for x in [a, b] {
                    match x {
                        Index::Opaque(_) => self.hit("opaque"),
                        Index::Aff(f) if f.terms.len() >= 2 => self.hit("i + j"),
                        _ => {}
                    }
                }
                self.hit("cmp");
            }
            Pred::Rel(..) => self.hit("relation"),
            Pred::Data(..) => self.hit("data"),
            Pred::And(a, b) | Pred::Or(a, b) => {
                self.pred(a);
                self.pred(b);
            }
            Pred::Not(a) => {
                self.hit("not");
                self.pred(a);
            }
            Pred::Exists(_, _, q) => {
                self.hit("exists");
                self.pred(q);
            }
        }
    }
    /// Walks a term; `under` says whether a gen, sum or bracket encloses it.
    fn term(&mut self, t: &Term, under: bool) -> usize {
        1 + match t {
            Term::Var(_) | Term::Const(_) => 0,
            Term::IndexConst(_) => {
                self.hit("#a");
                0
            }
            Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) => {
                self.term(a, under) + self.term(b, under)
            }
            Term::Call(_, e) => {
                self.hit("black box");
                self.term(e, under)
            }
            Term::Proj(_, e) => self.term(e, under),
            Term::Access(e, a) => {
                if let Index::Opaque(IExpr::Read(..)) = a {
                    self.hit("int data");
                }
                if matches!(**e, Term::Gen(..)) {
                    self.hit("gen access");
                }
                self.term(e, under)
            }
            Term::Gen(_, n, e) | Term::Sum(_, n, e) => {
                if *n == 0 {
                    self.hit("range 0");
                }
                self.term(e, true)
            }
            Term::Bracket(p, e) => {
                if matches!(**e, Term::Bracket(..)) {
                    self.hit("nested brackets");
                }
                self.pred(p);
                self.term(e, true)
            }
            Term::Let(_, e1, e2) => {
                if under {
                    self.hit("let under gen/sum/[p]");
                }
                self.term(e1, under) + self.term(e2, under)
            }
        }
    }
}

fn has_array_of_pairs(t: &Ty) -> bool {
    match t {
        Ty::Arr(_, e) => matches!(**e, Ty::Pair(..)) || has_array_of_pairs(e),
        Ty::Pair(a, b) => has_array_of_pairs(a) || has_array_of_pairs(b),
        _ => false,
    }
}

#[test]
fn g2_terms_are_well_typed_evaluable_varied_and_deterministic() {
    let opts = TlGenOptions::default();
    let mut seen = Seen::default();
    let mut nodes = 0;
    let n = 300;
    for seed in 0..n {
        let c = tl_case(&mut rng(seed), &opts);
        let again = tl_case(&mut rng(seed), &opts);
        assert_eq!(c.term, again.term, "seed {seed} is not deterministic");
        assert_eq!(c.values, again.values);
        let t = type_of(&c.term, &c.inputs)
            .unwrap_or_else(|e| panic!("seed {seed}: {}\n{c}", e.message));
        assert!(
            adora_core::tl::types::is_soa(&t),
            "seed {seed}: output `{t}`"
        );
        for (x, ty) in &c.inputs {
            assert!(
                adora_core::tl::types::is_soa(ty),
                "seed {seed}: input {x}: {ty}"
            );
        }
        for ((_, ty), v) in c.inputs.iter().zip(&c.values) {
            assert!(v.has_type(ty));
        }
        let v = eval_term(&c.term, &c.env())
            .unwrap_or_else(|e| panic!("seed {seed}: {}\n{c}", e.message));
        assert!(v.has_type(&t), "seed {seed}: value {v} of type {t}");
        cost_c(&c.term, &c.env()).unwrap_or_else(|e| panic!("seed {seed}: {}\n{c}", e.message));
        nodes += seen.term(&c.term, false);
        let mut pairs_inside = false;
        adora_core::tl::types::check_with(&c.term, &c.inputs, false, &mut |_, ty| {
            pairs_inside |= has_array_of_pairs(ty)
        })
        .unwrap();
        if pairs_inside {
            seen.hit("array of pairs");
        }
    }
    let mean = nodes as f64 / n as f64;
    assert!(mean >= 15.0, "mean size {mean}");
    for k in [
        "array of pairs",
        "let under gen/sum/[p]",
        "nested brackets",
        "exists",
        "relation",
        "data",
        "opaque",
        "int data",
        "i + j",
        "not",
        "#a",
        "black box",
        "range 0",
        "gen access",
    ] {
        assert!(
            seen.0.get(k).copied().unwrap_or(0) >= 5,
            "G2 rarely makes {k}: {:?}",
            seen.0
        );
    }
}

#[test]
fn g2_without_black_boxes_has_none() {
    let opts = TlGenOptions {
        black_boxes: false,
        ..TlGenOptions::default()
    };
    for seed in 0..100 {
        let c = tl_case(&mut rng(seed), &opts);
        let mut seen = Seen::default();
        seen.term(&c.term, false);
        assert!(!seen.0.contains_key("black box"), "seed {seed}");
    }
}

#[test]
fn g3_programs_are_evaluable_varied_and_deterministic() {
    let opts = SsaGenOptions::default();
    let mut forms: BTreeMap<&str, usize> = BTreeMap::new();
    let mut stmts = 0;
    let n = 300;
    for seed in 0..n {
        let c = ssa_case(&mut rng(seed), &opts);
        assert_eq!(
            c.program,
            ssa_case(&mut rng(seed), &opts).program,
            "seed {seed}"
        );
        let v = eval_ssa(&c.program, &c.values)
            .unwrap_or_else(|e| panic!("seed {seed}: {}\n{c}", e.message));
        let _ = v;
        cost_c_ssa(&c.program, &c.values)
            .unwrap_or_else(|e| panic!("seed {seed}: {}\n{c}", e.message));
        stmts += c.program.stmts.len();
        for s in &c.program.stmts {
            let mut hit = |k| *forms.entry(k).or_default() += 1;
            match &s.rhs {
                Rhs::Input { .. } => hit("input"),
                Rhs::Const { .. } => hit("const"),
                Rhs::Add { .. } => hit("add"),
                Rhs::Map { .. } => hit("map"),
                Rhs::Contract { y, z, sums, .. } => {
                    hit(if z.is_some() { "binary" } else { "unary" });
                    let mut idx = y.idx.clone();
                    idx.extend(z.iter().flat_map(|z| z.idx.clone()));
                    let mut dedup = idx.clone();
                    dedup.sort();
                    dedup.dedup();
                    if dedup.len() < idx.len() {
                        hit("repeated index");
                    }
                    if !sums.is_empty() {
                        hit("summed");
                    }
                }
            }
            if s.rhs.to_string().contains("exists") {
                hit("exists");
            }
        }
    }
    assert!(
        stmts as f64 / n as f64 >= 4.0,
        "mean statements {}",
        stmts as f64 / n as f64
    );
    for k in [
        "input",
        "const",
        "add",
        "map",
        "binary",
        "unary",
        "repeated index",
        "summed",
        "exists",
    ] {
        assert!(
            forms.get(k).copied().unwrap_or(0) >= 5,
            "G3 rarely makes {k}: {forms:?}"
        );
    }
}
