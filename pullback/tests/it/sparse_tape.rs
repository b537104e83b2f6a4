//! Random straight-line programs with long live ranges (each let uses random earlier
//! intermediates and input components), so the sparse tape of rule 8 and of the chain rule
//! keeps, drops and merges paths in every way: the gradient by reverse mode (`pb`), every
//! column by forward mode (`J`) and the value are compared exactly with an independent
//! dual-number evaluation of the same program (docs/engines/pullback-reduction.md, "Sparse
//! environments").

use adora_pullback::ad;
use adora_pullback::parse;
use adora_pullback::reduce::Reducer;
use adora_pullback::syntax::Ty;
use adora_semantics::Rat;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// An operand: an input component (its path), an earlier let, or a small constant.
#[derive(Clone)]
enum Arg {
    Input(usize),
    Let(usize),
    Const(i64),
}

/// `(source, inputs, lets)`: `\z. let v0 = op (a, b) in … in v_last`.
fn program(g: &mut Lcg, inputs: usize) -> (String, Vec<(u8, Arg, Arg)>) {
    let n = 1 + g.next(24) as usize;
    let mut lets = Vec::new();
    for k in 0..n {
        let arg = |g: &mut Lcg| match g.next(5) {
            0 => Arg::Const(g.next(5) as i64 - 2),
            1 | 2 if k > 0 => Arg::Let(g.next(k as u64) as usize),
            _ => Arg::Input(g.next(inputs as u64) as usize),
        };
        let op = g.next(3) as u8;
        let (a, b) = (arg(g), arg(g));
        lets.push((op, a, b));
    }
    let path = |i: usize| {
        let mut s = "z".to_string();
        for _ in 0..i {
            s.push_str(".1");
        }
        if i + 1 < inputs {
            s.push_str(".0");
        }
        s
    };
    let show = |a: &Arg| match a {
        Arg::Input(i) => path(*i),
        Arg::Let(j) => format!("v{j}"),
        Arg::Const(c) => c.to_string(),
    };
    let mut src = String::from("\\z. ");
    for (k, (op, a, b)) in lets.iter().enumerate() {
        let f = ["add", "sub", "mul"][*op as usize];
        src.push_str(&format!("let v{k} = {f} ({}, {}) in ", show(a), show(b)));
    }
    src.push_str(&format!("v{}", n - 1));
    (src, lets)
}

/// The value and the derivative along `dir` by dual numbers.
fn dual_eval(lets: &[(u8, Arg, Arg)], x: &[Rat], dir: &[Rat]) -> (Rat, Rat) {
    let mut vals: Vec<(Rat, Rat)> = Vec::new();
    for (op, a, b) in lets {
        let get = |a: &Arg, vals: &Vec<(Rat, Rat)>| match a {
            Arg::Input(i) => (x[*i].clone(), dir[*i].clone()),
            Arg::Let(j) => vals[*j].clone(),
            Arg::Const(c) => (Rat::from_integer((*c).into()), Rat::from_integer(0.into())),
        };
        let ((p, dp), (q, dq)) = (get(a, &vals), get(b, &vals));
        vals.push(match op {
            0 => (&p + &q, dp + dq),
            1 => (&p - &q, dp - dq),
            _ => (&p * &q, &dp * &q + &p * &dq),
        });
    }
    vals.pop().expect("at least one let")
}

#[test]
fn reverse_and_forward_mode_agree_with_dual_numbers_on_random_series() {
    let mut g = Lcg(0x5eed_5a75e);
    let r = Reducer::new();
    for case in 0..300 {
        let inputs = 1 + g.next(3) as usize;
        let (src, lets) = program(&mut g, inputs);
        let f = parse::term(&src).unwrap_or_else(|d| panic!("case {case}: {src}: {}", d.message));
        let x: Vec<Rat> = (0..inputs)
            .map(|_| Rat::new((g.next(9) as i64 - 4).into(), (1 + g.next(3) as i64).into()))
            .collect();
        let ty = Ty::reals(inputs);
        let grad = ad::grad(&f, &ty, &x, &r)
            .unwrap_or_else(|d| panic!("case {case}: {src}: {}", d.message));
        for i in 0..inputs {
            let e: Vec<Rat> = (0..inputs)
                .map(|j| Rat::from_integer(((i == j) as i64).into()))
                .collect();
            let (value, d) = dual_eval(&lets, &x, &e);
            assert_eq!(grad.value, vec![value], "case {case}: {src}");
            assert_eq!(grad.derivative[i], d, "case {case}: ∂/∂z{i} of {src}");
            let col = ad::jvp(&f, &ty, &x, &e, &r)
                .unwrap_or_else(|d| panic!("case {case}: {src}: {}", d.message));
            assert_eq!(col.derivative, vec![d], "case {case}: column {i} of {src}");
        }
    }
}
