//! Reverse mode as the pullback of a 1-form (Mak and Ong, *A Differential-form Pullback
//! Programming Language for Higher-order Reverse-mode Automatic Differentiation*, §2.2;
//! specs/theorems.md row S003-X2.2), on random higher-order functions `f, g : R -> R` of
//! the generator H2 ([`crate::gen::pullback`]), reduced by the strategy
//! (`adora_pullback::reduce::Reducer`) and observed in the concrete model:
//!
//! | property | row | statement checked |
//! |---|---|---|
//! | `pullback/one-form-pullback-is-vjp` | S003-X2.2 | for `F = \x. (f x, g x)` and `ω_p = \y. \w. w.p` (`dπ_p`), `pb(F, ω_p) s` reduces to the covector whose row is `f'(s)` (`p = 0`) or `g'(s)` (`p = 1`), the model's Jacobian row `p`; and `pb(\x. g (f x), ω) s` and `pb(f, pb(g, ω)) s` (contravariance) reduce to covectors with the model's observation of `(g ∘ f)'(s)` |

use crate::catalogue::{Check, Outcome, Pass, Property};
use crate::gen::pullback::PbGen;
use crate::props::pullback::{obs, STEP_LIMIT};
use adora_pullback::print;
use adora_pullback::reduce::Reducer;
use adora_pullback::syntax::{Fresh, Term};
use adora_semantics::Rat;

/// The largest term (nodes) one step may build.
const MAX_NODES: usize = 20_000;

/// `t` reduced to a value by the strategy, then observed in the model.
fn reduce_obs(t: &Term) -> Result<Vec<Rat>, String> {
    let r = Reducer::new().step_limit(STEP_LIMIT).size_limit(MAX_NODES);
    let out = r
        .run(t)
        .map_err(|d| format!("the reduction of {} fails: {}", print::term(t), d.message))?;
    obs(&out.value)
}

/// `\y. \w. w.p` when `p` is given (the 1-form `dπ_p` on `(R, R)`), else `\y. \w. w`.
fn one_form(fresh: &mut Fresh, p: Option<bool>) -> Term {
    let (y, w) = (fresh.var("y"), fresh.var("w"));
    let body = match p {
        Some(i) => Term::proj(Term::var(&w), i),
        None => Term::var(&w),
    };
    Term::lam(&y, Term::lam(&w, body))
}

fn check(f: &Term, g: &Term, s: &Rat) -> Result<(), String> {
    let mut fresh = Fresh::starting_at(2_000_000);
    let x = fresh.var("x");
    let at = |h: &Term| Term::app(h.clone(), Term::var(&x));
    let point = Term::num(s.clone());
    let one = Term::int(1);
    // Row p of the Jacobian of F = \x. (f x, g x) is the pullback of dπ_p.
    let big_f = Term::lam(&x, Term::pair(at(f), at(g)));
    for (p, h) in [(false, f), (true, g)] {
        let pulled = Term::app(
            Term::pb(big_f.clone(), one_form(&mut fresh, Some(p))),
            point.clone(),
        );
        let got = reduce_obs(&pulled)?;
        let want = obs(&Term::app(Term::jac(h.clone(), one.clone()), point.clone()))?;
        if got.first() != want.first() {
            return Err(format!(
                "row {} of the Jacobian: the pullback of dπ gives {:?}, the model's derivative is {:?}",
                u8::from(p),
                got.first(),
                want.first()
            ));
        }
    }
    // Contravariance: (g ∘ f)* ω = f* (g* ω).
    let comp = Term::lam(&x, Term::app(g.clone(), at(f)));
    let omega = one_form(&mut fresh, None);
    let left = Term::app(Term::pb(comp.clone(), omega.clone()), point.clone());
    let right = Term::app(
        Term::pb(f.clone(), Term::pb(g.clone(), omega)),
        point.clone(),
    );
    let (l, r) = (reduce_obs(&left)?, reduce_obs(&right)?);
    let want = obs(&left)?;
    if l != want || r != want {
        return Err(format!(
            "pb(g ∘ f, ω) s observes {l:?}, pb(f, pb(g, ω)) s {r:?}, the model {want:?}"
        ));
    }
    let d = obs(&Term::app(Term::jac(comp, one), point))?;
    if want.first() != d.first() {
        return Err(format!(
            "the model's covector row {:?} is not its derivative {:?}",
            want.first(),
            d.first()
        ));
    }
    Ok(())
}

fn one_form_pullback(d: &[usize]) -> Outcome {
    let seed = d[0] as u64;
    let mut pg = PbGen::new(seed);
    let (f, g) = (
        pg.closed_fun(3 + (seed % 6) as usize),
        pg.closed_fun(3 + (seed / 6 % 6) as usize),
    );
    let s = pg.rat();
    match check(&f, &g, &s) {
        Ok(()) => Pass::ok(),
        Err(why) => Err(format!(
            "{why}\nf = {}\ng = {}\ns = {s}",
            print::term(&f),
            print::term(&g)
        )),
    }
}

/// The 1-form property of the pullback calculus.
pub fn properties() -> Vec<Property> {
    vec![Property {
        name: "pullback/one-form-pullback-is-vjp",
        source: "S003 §2.2 (S003-X2.2)",
        fragment: "pullback",
        description: "for random higher-order f, g : R -> R, reducing pb(\\x. (f x, g x), \\y. \\w. w.p) s gives the covector whose row is row p of the Jacobian (the model's f'(s), g'(s)), and pb(\\x. g (f x), omega) s and pb(f, pb(g, omega)) s (contravariance) reduce to covectors equal to the model's, whose row is (g ∘ f)'(s); exact",
        figure: None,
        check: Check::Dims {
            count: 1,
            max: 1_000_000_000,
            check: one_form_pullback,
        },
    }]
}
