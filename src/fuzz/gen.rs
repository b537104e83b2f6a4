//! The input of execution `i`: a seed program (mutated or not), a typed random program of
//! the property generators (`proptests/src/gen`), or an adversarial program, with inputs,
//! tangents, a cotangent, an engine and a stage chosen at random for its target. The input
//! depends only on the seed, `i` and the corpus.

use super::case::Case;
use super::corpus::Seed;
use super::mutate::{self, EXTREME_NUMBERS};
use super::rng::Rng;
use super::Target;
use adora_core::types::{Base, Type};
use adora_proptests::gen::{self, Fragment, GenSpec, RetKind};
use adora_rewrites::engine::{self, Question};

/// What the generator draws from.
pub struct Generator {
    /// The seed programs.
    pub seeds: Vec<Seed>,
    /// The target(s): one, or every public one for `all`.
    pub targets: Vec<Target>,
    /// `--max-steps` of every execution.
    pub max_steps: u64,
}

/// The most scalars of a random input literal (larger shapes get no random input).
const MAX_LITERAL_SCALARS: usize = 4096;

impl Generator {
    /// The input of execution `i` of the run with seed `seed`.
    pub fn case(&self, seed: u64, i: u64) -> Case {
        let mut rng = Rng::for_execution(seed, i);
        let target = *rng.pick(&self.targets);
        // Adversarial programs are 1 in 200: each is slow to run (up to seconds), and a
        // higher share would bring the rate of executions down by a factor.
        let (mut src, entry, mut given) = match rng.below(1000) {
            0..=4 => (mutate::adversarial(&mut rng), "main".into(), vec![]),
            5..=254 => typed(&mut rng),
            _ => {
                let s = rng.pick(&self.seeds).clone();
                (s.src, s.entry, s.inputs)
            }
        };
        if rng.chance(70) {
            for _ in 0..1 + rng.below(4) {
                let other = &rng.pick(&self.seeds).src.clone();
                src = mutate::mutate(&src, other, &mut rng);
            }
        }
        if rng.chance(5) && !given.is_empty() {
            let k = rng.below(given.len());
            given[k].1 = mutate::mutate(&given[k].1, "", &mut rng);
        }
        let mut case = Case {
            target,
            src,
            entry,
            inputs: given,
            tangents: vec![],
            cotangent: "1".into(),
            engine: "reference".into(),
            stage: "inline".into(),
            f64: rng.chance(30),
            strict: rng.chance(15),
            max_steps: self.max_steps,
        };
        self.complete(&mut case, &mut rng);
        case
    }

    /// Inputs for the parameters without one (the program's types come from checking
    /// it; a program that does not check keeps the inputs it has), and the target's
    /// tangents, cotangent, engine and stage.
    fn complete(&self, case: &mut Case, rng: &mut Rng) {
        let func = std::panic::catch_unwind(|| adora_core::load(&case.src, &case.entry))
            .ok()
            .and_then(Result::ok);
        let q = match case.target {
            Target::Grad => Some(Question::Grad),
            Target::Vjp | Target::Cost => Some(Question::Vjp),
            Target::Jvp => Some(Question::Jvp),
            Target::Show => {
                case.stage = rng
                    .pick(&["parse", "inline", "bot", "delta", "grad", "vjp", "jvp"])
                    .to_string();
                Question::from_name(&case.stage)
            }
            _ => None,
        };
        let derives = matches!(case.target, Target::Show | Target::Cost);
        let engines: Vec<String> = match q {
            Some(q) if derives => engine::with_program(q),
            _ => engine::registry(),
        }
        .iter()
        .map(|e| e.name().to_string())
        .collect();
        if let Some(e) = engines.get(rng.below(engines.len().max(1))) {
            case.engine = e.clone();
        }
        let Some(f) = func else { return };
        let mut inputs = Vec::new();
        for p in &f.params {
            match case.inputs.iter().find(|(n, _)| *n == p.name) {
                Some(given) if rng.chance(85) => inputs.push(given.clone()),
                _ => {
                    if let Some(l) = literal(&p.ty, rng) {
                        inputs.push((p.name.to_string(), l));
                    }
                }
            }
        }
        case.inputs = inputs;
        if case.target == Target::Jvp {
            for p in f.params.iter().filter(|p| p.ty.has_reals()) {
                if rng.chance(70) {
                    if let Some(l) = literal(&p.ty, rng) {
                        case.tangents.push((p.name.to_string(), l));
                    }
                }
            }
        }
        if let Some(l) = literal(&f.ret, rng) {
            case.cotangent = l;
        }
    }
}

/// A typed random program of the property generators and its inputs.
fn typed(rng: &mut Rng) -> (String, String, Vec<(String, String)>) {
    let fragment = *rng.pick(&Fragment::ALL);
    let ret = *rng.pick(&[RetKind::Any, RetKind::RealScalar, RetKind::Real]);
    let spec = GenSpec::new(fragment)
        .size(4 + rng.below(80) as u32)
        .ret(ret);
    let c = gen::generate(&spec, rng.next_u64());
    let inputs = c
        .main()
        .params
        .iter()
        .zip(&c.inputs)
        .map(|(p, v)| (p.name.to_string(), adora_proptests::values::literal(v)))
        .collect();
    (gen::source(&c.program), "main".into(), inputs)
}

/// A random literal of type `ty`: mostly small numbers, sometimes extreme ones; `None`
/// for arrays of more than [`MAX_LITERAL_SCALARS`] scalars.
pub fn literal(ty: &Type, rng: &mut Rng) -> Option<String> {
    match ty {
        Type::Tuple(ts) => {
            let parts: Option<Vec<String>> = ts.iter().map(|t| literal(t, rng)).collect();
            Some(format!("({})", parts?.join(", ")))
        }
        Type::Array(base, shape) => {
            // Every prefix of the shape counts: `R[2^40, 0]` has no scalar but 2^40 `[]`s
            // (an allocation of 51 GB ended the first million-execution run).
            let mut n = 1usize;
            for &d in shape.iter() {
                n = n.checked_mul(d).filter(|&n| n <= MAX_LITERAL_SCALARS)?;
            }
            Some(nested(shape, *base, rng))
        }
    }
}

fn nested(shape: &[usize], base: Base, rng: &mut Rng) -> String {
    match shape.split_first() {
        None => scalar(base, rng),
        Some((n, rest)) => {
            let parts: Vec<String> = (0..*n).map(|_| nested(rest, base, rng)).collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

fn scalar(base: Base, rng: &mut Rng) -> String {
    let extreme = rng.chance(3);
    match base {
        Base::B => rng.pick(&["true", "false"]).to_string(),
        Base::Z if extreme => rng
            .pick(&[
                "9223372036854775807",
                "-9223372036854775808",
                "16777216",
                "-1",
            ])
            .to_string(),
        Base::Z => (rng.below(9) as i64 - 3).to_string(),
        Base::R if extreme => rng.pick(EXTREME_NUMBERS).to_string(),
        Base::R => {
            let num = rng.below(11) as i64 - 5;
            match rng.below(4) {
                0 => num.to_string(),
                d => format!("{num}/{}", d + 1),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_bounded_by_every_prefix_of_the_shape() {
        let mut rng = Rng::for_execution(7, 0);
        let empty_rows = Type::Array(Base::R, vec![1 << 40, 0]);
        assert_eq!(literal(&empty_rows, &mut rng), None);
        let no_rows = Type::Array(Base::R, vec![0, 1 << 40]);
        assert_eq!(literal(&no_rows, &mut rng).as_deref(), Some("[]"));
        let small = Type::Array(Base::Z, vec![2, 0]);
        assert_eq!(literal(&small, &mut rng).as_deref(), Some("[[], []]"));
    }
}
