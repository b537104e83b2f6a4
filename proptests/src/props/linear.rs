//! Properties of the `linear` engine (seed 002, "You Only Linearize Once"): one per claim
//! of Theorem 4.1, Corollary 4.2, Lemmas 4.3 and 4.4, Theorem 5.1, Theorem 7.1,
//! Corollary 7.2 and Theorem 8.1, plus the recomputing VJP equal to the reference (the
//! engine's gradients, adjoint law, derivative programs and cheap-gradient bound are the
//! generated engine properties of [`super::engines`], `linear/...`).
//!
//! Every case goes through the engine's stages: the core program `f` (bot normal form
//! first when it has `build`), its non-linear Linear A form `P`, the JVP `J = J(P)`, the
//! unzipped `U = U(J)` (tape stored) with halves `f_jvp_primal` and `f_jvp_lin`, and the
//! transpose `T` of `f_jvp_lin`. Work is the `lin` model (`adora_costmodel::lin`) and the
//! interpreter's dynamic count (`adora_rewrites::linear::interp`). All comparisons are
//! exact (`==` on rationals).

use super::util::{aux_rng, fail, load, opts, random_rat, random_tangents, random_value};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::{dot, lin_comb, literal, reals, with_reals, Rat};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind};
use adora_core::linear::visit::{def_size, program_size};
use adora_core::linear::{check_linear_b, check_program, print, LinearDef, LinearProgram};
use adora_costmodel::lin;
use adora_rewrites::linear::{
    anf, engine, erase, interp, jvp, transpose, unzip, values, Checkpoint,
};
use adora_semantics::reference;
use adora_semantics::value::Value;
use num_traits::{One, Zero};
use rand_chacha::ChaCha8Rng;

/// Theorem 5.1, claim 2: `lin(J(P)) <= JVP_WORK * lin(P)` (the constant of our rule set:
/// the most expensive rule, `jvp/div`, does 7 units of work per unit of the primal's).
pub const JVP_WORK: u64 = 7;

/// Theorem 8.1: the size constants we check (`|J(P)| <= C_J |P|` and so on); the measured
/// ones are reported by `linear/thm-8.1-code-size` and in `docs/engines/linear.md`.
pub const SIZE_JVP: f64 = 12.0;
/// Unzipping (tape stored).
pub const SIZE_UNZIP: f64 = 3.0;
/// Transposition of the linear half.
pub const SIZE_TRANSPOSE: f64 = 4.0;
/// Erasure.
pub const SIZE_ERASE: f64 = 4.0;

pub(super) fn strategy(ret: RetKind) -> CaseStrategy {
    CaseStrategy {
        specs: vec![
            GenSpec::new(Fragment::Scalar).size(28).ret(ret),
            GenSpec::new(Fragment::Bulk).size(24).ret(ret),
        ],
    }
}

pub(super) fn any() -> CaseStrategy {
    strategy(RetKind::Any)
}

pub(super) fn real() -> CaseStrategy {
    strategy(RetKind::Real)
}

pub(super) fn real_scalar() -> CaseStrategy {
    strategy(RetKind::RealScalar)
}

macro_rules! prop {
    ($name:expr, $source:expr, $desc:expr, $fig:expr, $strat:expr, $check:expr) => {
        Property {
            name: $name,
            source: $source,
            fragment: "scalar, bulk",
            description: $desc,
            figure: $fig,
            check: Check::Case {
                strategy: $strat,
                check: $check,
            },
        }
    };
}

fn max(label: &'static str) -> Option<Figure> {
    Some(Figure {
        label,
        agg: Agg::Max,
    })
}

fn mean(label: &'static str) -> Option<Figure> {
    Some(Figure {
        label,
        agg: Agg::Mean,
    })
}

/// The `linear` properties.
pub fn properties() -> Vec<Property> {
    vec![
        prop!("linear/thm-4.1-work-independent", "seed 002 Theorem 4.1 (1)",
            "the lin work of the JVP program J does not depend on the values: the interpreter's count is the same for the case's inputs and tangents and for random other ones, and equals the static lin model (the figure: that work)",
            max("lin work of J"), any, work_independent),
        prop!("linear/thm-4.1-nonlinear-independent", "seed 002 Theorem 4.1 (2)",
            "the non-linear results of J are the same for two random sets of linear inputs (tangents)",
            None, any, nonlinear_independent),
        prop!("linear/thm-4.1-additive-homogeneous", "seed 002 Theorem 4.1 (3)",
            "the linear results of J are exactly additive and homogeneous in the linear inputs: J(t1 + t2) = J(t1) + J(t2) and J(a t1) = a J(t1) for random tangents and a random rational a (the figure: the fraction of cases with a non-zero J(t1))",
            mean("non-zero linear results (fraction)"), any, additive_homogeneous),
        prop!("linear/cor-4.2", "seed 002 Corollary 4.2",
            "with every linear input zero (a closed linear term), all linear results of J, of the unzipped linear half and of its transpose are zero",
            None, any, closed_zero),
        prop!("linear/lemma-4.3", "seed 002 Lemma 4.3",
            "the lin work of J, of the linear half and of its transpose is at least the real scalars of the linear inputs minus those of the linear outputs (the figure: the smallest slack)",
            max("most slack"), any, lemma_4_3),
        prop!("linear/lemma-4.4", "seed 002 Lemma 4.4, §4.5",
            "linearity erasure preserves values (the interpreter on E(J) with the tangents as ordinary inputs gives J's non-linear then linear results; so does the lowered core function) and lin work exactly",
            None, any, lemma_4_4),
        prop!("linear/thm-5.1-total", "seed 002 Theorem 5.1 (1)",
            "J exists and passes the Linear A checker for every program of the scalar and bulk fragments (bulk programs with build after the bot transform; a program the bot transform cannot normalise, or a resource limit, makes the case vacuous)",
            None, any, jvp_total),
        prop!("linear/thm-5.1-equals-reference", "seed 002 Theorem 5.1 (3, 4)",
            "the non-linear results of J equal exact evaluation and its linear results equal the reference JVP exactly, for random tangents",
            None, any, jvp_equals_reference),
        prop!("linear/thm-5.1-work-bound", "seed 002 Theorem 5.1 (2)",
            "lin(J(P)) <= 7 * lin(P) for the non-linear Linear A program P of the case (the figure: the worst ratio lin(J) / lin(P))",
            max("lin(J) / lin(P)"), any, jvp_work_bound),
        prop!("linear/thm-7.1-well-typed", "seed 002 Theorem 7.1 (1)",
            "the unzipped program and the transpose of its linear half pass the Linear B check, and the transpose takes the cotangents of the linear results and returns those of the linear inputs",
            None, any, transpose_well_typed),
        prop!("linear/thm-7.1-work-preserved", "seed 002 Theorem 7.1 (2)",
            "amortised lin work is preserved exactly: W(lin) + |linear outputs| = W(T(lin)) + |linear inputs|, by the static model and by the interpreter (the figure: the worst W(T) / W(lin))",
            max("W(T) / W(lin)"), any, transpose_work),
        prop!("linear/thm-7.1-dot-product", "seed 002 Theorem 7.1 (3)",
            "<ct, lin(tape ; t)> = <T(lin)(tape ; ct), t> exactly for random tangents t and cotangents ct (the figure: the fraction of cases where both sides are not zero)",
            mean("non-zero <ct, lin t> (fraction)"), real, dot_product),
        prop!("linear/cor-7.2", "seed 002 Corollary 7.2",
            "transposing twice gives a program with the same linear results as the linear half on random inputs, doing at most (here: exactly) the same lin work",
            None, any, transpose_twice),
        prop!("linear/thm-8.1-code-size", "seed 002 Theorem 8.1",
            "code size grows linearly: |J(P)| <= 12 |P|, |U(J)| <= 3 |J|, |T(lin)| <= 4 |lin|, |E(J)| <= 4 |J| (the figure: the worst |J(P)| / |P|; docs/engines/linear.md lists all four measured constants)",
            max("|J(P)| / |P|"), any, code_size),
        prop!("linear/recompute-equals-reference", "seed 002 §6 and §11 (checkpointing: recompute instead of store)",
            "the linear engine's VJP with every non-linear intermediate recomputed (unzip with `RecomputeAll`) and cotangent 1 equals the reference gradient exactly (the stored-tape gradient is `linear/grad-equals-reference`; the figure: the fraction of cases with a non-zero gradient)",
            mean("non-zero gradient (fraction)"), real_scalar, recompute_equals_reference),
    ]
}

/// The stages of one case.
pub(super) struct Stages {
    pub(super) f: Function,
    pub(super) p: LinearProgram,
    pub(super) j: LinearProgram,
    pub(super) jname: String,
    pub(super) u: LinearProgram,
    pub(super) lin: String,
    pub(super) prim: String,
    pub(super) t: LinearProgram,
    pub(super) lin_t: String,
}

impl Stages {
    fn def<'a>(p: &'a LinearProgram, name: &str) -> Result<&'a LinearDef, String> {
        p.def(name).ok_or_else(|| format!("no def `{name}`"))
    }
    pub(super) fn jdef(&self) -> Result<&LinearDef, String> {
        Self::def(&self.j, &self.jname)
    }
    pub(super) fn lin_def(&self) -> Result<&LinearDef, String> {
        Self::def(&self.u, &self.lin)
    }
    pub(super) fn t_def(&self) -> Result<&LinearDef, String> {
        Self::def(&self.t, &self.lin_t)
    }
}

pub(super) fn show(p: &LinearProgram) -> String {
    print::program(p)
}

/// A stage failed: a resource limit makes the case vacuous (`Ok(None)`), anything else
/// is a failure.
pub(super) fn stage<T>(r: adora_core::Result<T>, what: &str) -> Result<Option<T>, String> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(d) if d.kind == ErrorKind::Resource => Ok(None),
        Err(d) => Err(format!("{what} fails: {d}")),
    }
}

/// The bot transform (a precondition here, with its own properties): a program outside
/// its fragment (`Unsupported`) or a resource limit makes the case vacuous; an internal
/// error (bot could not reach its normal form) is a failure, never a skip.
pub(super) fn bot(f: &Function) -> Result<Option<Function>, String> {
    bot_result(engine::build_free(f))
}

/// How [`bot`] classifies the transform's result.
fn bot_result(r: adora_core::Result<Function>) -> Result<Option<Function>, String> {
    match r {
        Ok(g) => Ok(Some(g)),
        Err(d) if matches!(d.kind, ErrorKind::Resource | ErrorKind::Unsupported) => Ok(None),
        Err(d) => Err(format!("the bot transform fails: {d}")),
    }
}

pub(super) fn stages(case: &Case) -> Result<Option<Stages>, String> {
    let f = load(case)?;
    let Some(g) = bot(&f)? else {
        return Ok(None);
    };
    let Some(p) = stage(anf::from_core(&g), "conversion to Linear A")? else {
        return Ok(None);
    };
    let Some(j) = stage(jvp::jvp_program(&p), "JVP")? else {
        return Ok(None);
    };
    let jname = jvp::jvp_name(&f.name);
    let Some(u) = stage(unzip::unzip_program(&j, &Checkpoint::StoreAll), "unzipping")? else {
        return Ok(None);
    };
    let lin = unzip::lin_name(&jname);
    let Some(t) = stage(transpose::transpose_program(&u, &lin), "transposition")? else {
        return Ok(None);
    };
    let lin_t = transpose::transpose_name(&lin);
    Ok(Some(Stages {
        f,
        p,
        prim: unzip::primal_name(&jname),
        j,
        jname,
        u,
        lin,
        t,
        lin_t,
    }))
}

macro_rules! stages_or_vacuous {
    ($case:expr) => {
        match stages($case)? {
            Some(s) => s,
            None => return Pass::vacuous(),
        }
    };
}

/// Runs the interpreter; a resource limit is `Ok(None)`.
pub(super) fn run(
    p: &LinearProgram,
    f: &str,
    args: &[Value<Rat>],
    largs: &[Value<Rat>],
) -> Result<Option<interp::Run<Rat>>, String> {
    stage(
        interp::run(p, f, args, largs, &opts()),
        &format!("running `{f}`"),
    )
}

macro_rules! run_or_vacuous {
    ($p:expr, $f:expr, $a:expr, $l:expr) => {
        match run($p, $f, $a, $l)? {
            Some(r) => r,
            None => return Pass::vacuous(),
        }
    };
}

/// Random values for a def's linear parameters.
pub(super) fn random_largs(d: &LinearDef, rng: &mut ChaCha8Rng) -> Vec<Value<Rat>> {
    d.lparams.iter().map(|p| random_value(&p.ty, rng)).collect()
}

pub(super) fn static_work(p: &LinearProgram, f: &str) -> Result<u64, String> {
    lin::work(p, f).map_err(|d: Diagnostic| format!("the lin model fails on `{f}`: {d}"))
}

pub(super) fn shows(vs: &[Value<Rat>]) -> String {
    vs.iter().map(literal).collect::<Vec<_>>().join(", ")
}

fn work_independent(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let jd = s.jdef()?;
    let mut rng = aux_rng(case, 41);
    let l1 = random_largs(jd, &mut rng);
    let l2 = random_largs(jd, &mut rng);
    let other: Vec<Value<Rat>> = case
        .inputs
        .iter()
        .map(|x| {
            let xs: Vec<Rat> = reals(x).iter().map(|_| random_rat(&mut rng)).collect();
            with_reals(x, &xs)
        })
        .collect();
    let a = run_or_vacuous!(&s.j, &s.jname, &case.inputs, &l1);
    let b = run_or_vacuous!(&s.j, &s.jname, &other, &l2);
    let w = static_work(&s.j, &s.jname)?;
    if a.work != b.work || a.work != w {
        return fail(format!(
            "work {} vs {} on other values; the static lin model says {w}\n{}",
            a.work,
            b.work,
            show(&s.j)
        ));
    }
    Pass::figure(w as f64)
}

fn nonlinear_independent(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let jd = s.jdef()?;
    let mut rng = aux_rng(case, 42);
    let l1 = random_largs(jd, &mut rng);
    let l2 = random_largs(jd, &mut rng);
    let a = run_or_vacuous!(&s.j, &s.jname, &case.inputs, &l1);
    let b = run_or_vacuous!(&s.j, &s.jname, &case.inputs, &l2);
    if a.nl != b.nl {
        return fail(format!(
            "non-linear results ({}) vs ({}) for linear inputs ({}) and ({})",
            shows(&a.nl),
            shows(&b.nl),
            shows(&l1),
            shows(&l2)
        ));
    }
    Pass::ok()
}

fn additive_homogeneous(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let jd = s.jdef()?;
    let mut rng = aux_rng(case, 43);
    let l1 = random_largs(jd, &mut rng);
    let l2 = random_largs(jd, &mut rng);
    let a = random_rat(&mut rng);
    let one = Rat::one();
    let zero = Rat::zero();
    let sum: Vec<Value<Rat>> = l1
        .iter()
        .zip(&l2)
        .map(|(x, y)| lin_comb(&one, x, &one, y))
        .collect();
    let scaled: Vec<Value<Rat>> = l1.iter().map(|x| lin_comb(&a, x, &zero, x)).collect();
    let r1 = run_or_vacuous!(&s.j, &s.jname, &case.inputs, &l1);
    let r2 = run_or_vacuous!(&s.j, &s.jname, &case.inputs, &l2);
    let rs = run_or_vacuous!(&s.j, &s.jname, &case.inputs, &sum);
    let ra = run_or_vacuous!(&s.j, &s.jname, &case.inputs, &scaled);
    let want_sum: Vec<Value<Rat>> = r1
        .lin
        .iter()
        .zip(&r2.lin)
        .map(|(x, y)| lin_comb(&one, x, &one, y))
        .collect();
    let want_scaled: Vec<Value<Rat>> = r1.lin.iter().map(|x| lin_comb(&a, x, &zero, x)).collect();
    if rs.lin != want_sum {
        return fail(format!(
            "J(t1 + t2) = ({}) but J(t1) + J(t2) = ({})",
            shows(&rs.lin),
            shows(&want_sum)
        ));
    }
    if ra.lin != want_scaled {
        return fail(format!(
            "J({a} t1) = ({}) but {a} J(t1) = ({})",
            shows(&ra.lin),
            shows(&want_scaled)
        ));
    }
    let nonzero = r1.lin.iter().any(|v| reals(v).iter().any(|x| !x.is_zero()));
    Pass::figure(if nonzero { 1.0 } else { 0.0 })
}

fn zeros(d: &LinearDef) -> Vec<Value<Rat>> {
    d.lparams.iter().map(|p| Value::zeros(&p.ty)).collect()
}

fn all_zero(vs: &[Value<Rat>]) -> bool {
    vs.iter().all(|v| reals(v).iter().all(Zero::is_zero))
}

/// The tape of the unzipped program on the case's inputs.
pub(super) fn tape(s: &Stages, case: &Case) -> Result<Option<Vec<Value<Rat>>>, String> {
    Ok(run(&s.u, &s.prim, &case.inputs, &[])?.map(|r| r.nl[1..].to_vec()))
}

fn closed_zero(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let a = run_or_vacuous!(&s.j, &s.jname, &case.inputs, &zeros(s.jdef()?));
    let Some(tp) = tape(&s, case)? else {
        return Pass::vacuous();
    };
    let b = run_or_vacuous!(&s.u, &s.lin, &tp, &zeros(s.lin_def()?));
    let c = run_or_vacuous!(&s.t, &s.lin_t, &tp, &zeros(s.t_def()?));
    for (what, r) in [("J", &a), ("the linear half", &b), ("its transpose", &c)] {
        if !all_zero(&r.lin) {
            return fail(format!(
                "{what} returns ({}) on zero linear inputs",
                shows(&r.lin)
            ));
        }
    }
    Pass::ok()
}

fn lemma_4_3(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let mut slack = i128::MAX;
    for (p, d) in [(&s.j, s.jdef()?), (&s.u, s.lin_def()?), (&s.t, s.t_def()?)] {
        let w = static_work(p, &d.name)? as i128;
        let (i, o) = lin::linear_io(d);
        let bound = i as i128 - o as i128;
        if w < bound {
            return fail(format!("W(`{}`) = {w} < {i} - {o}\n{}", d.name, show(p)));
        }
        slack = slack.min(w - bound);
    }
    Pass::figure(slack as f64)
}

fn lemma_4_4(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let Some(e) = stage(erase::erase_program(&s.j), "erasure")? else {
        return Pass::vacuous();
    };
    if let Err(d) = check_program(&e) {
        return fail(format!(
            "the erased program is ill-typed: {d}\n{}",
            show(&e)
        ));
    }
    let (wj, we) = (static_work(&s.j, &s.jname)?, static_work(&e, &s.jname)?);
    if wj != we {
        return fail(format!(
            "lin work {wj} before erasure, {we} after\n{}\n{}",
            show(&s.j),
            show(&e)
        ));
    }
    let mut rng = aux_rng(case, 44);
    let l = random_largs(s.jdef()?, &mut rng);
    let a = run_or_vacuous!(&s.j, &s.jname, &case.inputs, &l);
    let mut all = case.inputs.clone();
    all.extend(l.iter().cloned());
    let b = run_or_vacuous!(&e, &s.jname, &all, &[]);
    let mut want = a.nl.clone();
    want.extend(a.lin.iter().cloned());
    if b.nl != want || b.work != a.work {
        return fail(format!(
            "J gives ({}) with work {}, E(J) gives ({}) with work {}",
            shows(&want),
            a.work,
            shows(&b.nl),
            b.work
        ));
    }
    match values::eval_def(&s.j, &s.jname, &all, &opts()) {
        Ok(v) if v == want => Pass::ok(),
        Ok(v) => fail(format!(
            "the lowered core function gives ({}), J ({})",
            shows(&v),
            shows(&want)
        )),
        Err(d) if d.kind == ErrorKind::Resource => Pass::vacuous(),
        Err(d) => fail(format!("lowering / evaluation fails: {d}")),
    }
}

fn jvp_total(case: &Case) -> Outcome {
    let f = load(case)?;
    let Some(g) = bot(&f)? else {
        return Pass::vacuous();
    };
    let p = anf::from_core(&g).map_err(|d| format!("conversion to Linear A fails: {d}"))?;
    let j = jvp::jvp_program(&p).map_err(|d| format!("JVP fails: {d}\n{}", show(&p)))?;
    check_program(&j).map_err(|d| format!("J is ill-typed: {d}\n{}", show(&j)))?;
    Pass::ok()
}

fn jvp_equals_reference(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let mut rng = aux_rng(case, 45);
    let t = random_tangents(&case.inputs, &mut rng);
    let want = match reference::jvp(&s.f, &case.inputs, &t, &opts()) {
        Ok(w) => w,
        Err(d) if d.kind == ErrorKind::Resource => return Pass::vacuous(),
        Err(d) => return fail(format!("the reference JVP fails: {d}")),
    };
    match engine::jvp(&s.f, &case.inputs, &t, &opts()) {
        Ok(got) if got == want => Pass::ok(),
        Ok(got) => fail(format!(
            "linear engine ({}, {}) vs reference ({}, {})\n{}",
            literal(&got.0),
            literal(&got.1),
            literal(&want.0),
            literal(&want.1),
            show(&s.j)
        )),
        Err(d) if d.kind == ErrorKind::Resource => Pass::vacuous(),
        Err(d) => fail(format!("the engine's JVP fails: {d}")),
    }
}

fn jvp_work_bound(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let name = &s.p.defs[0].name;
    let wp = static_work(&s.p, name)?;
    let wj = static_work(&s.j, &s.jname)?;
    if wj > JVP_WORK * wp {
        return fail(format!(
            "lin(J) = {wj} > {JVP_WORK} * lin(P) = {}\n{}\n{}",
            JVP_WORK * wp,
            show(&s.p),
            show(&s.j)
        ));
    }
    if wp == 0 {
        return Pass::vacuous();
    }
    Pass::figure(wj as f64 / wp as f64)
}

fn transpose_well_typed(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    check_linear_b(&s.u)
        .map_err(|d| format!("the unzipped program is not Linear B: {d}\n{}", show(&s.u)))?;
    check_linear_b(&s.t)
        .map_err(|d| format!("the transpose is not Linear B: {d}\n{}", show(&s.t)))?;
    let (l, t) = (s.lin_def()?, s.t_def()?);
    let ltys: Vec<_> = l.lparams.iter().map(|p| p.ty.clone()).collect();
    let ttys: Vec<_> = t.lparams.iter().map(|p| p.ty.clone()).collect();
    if t.params != l.params || ttys != l.lret || t.lret != ltys || !t.ret.is_empty() {
        return fail(format!(
            "the transpose has the wrong signature\n{}",
            show(&s.t)
        ));
    }
    Pass::ok()
}

fn transpose_work(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let (l, t) = (s.lin_def()?, s.t_def()?);
    let (wl, wt) = (static_work(&s.u, &s.lin)?, static_work(&s.t, &s.lin_t)?);
    let (li, lo) = lin::linear_io(l);
    let (ti, to) = lin::linear_io(t);
    if (li, lo) != (to, ti) || wl + lo != wt + li {
        return fail(format!(
            "W(lin) + |out| = {wl} + {lo} but W(T) + |in| = {wt} + {li}\n{}",
            show(&s.t)
        ));
    }
    let Some(tp) = tape(&s, case)? else {
        return Pass::vacuous();
    };
    let mut rng = aux_rng(case, 46);
    let a = run_or_vacuous!(&s.u, &s.lin, &tp, &random_largs(l, &mut rng));
    let b = run_or_vacuous!(&s.t, &s.lin_t, &tp, &random_largs(t, &mut rng));
    if a.work != wl || b.work != wt {
        return fail(format!(
            "the interpreter counts {} and {}, the model {wl} and {wt}",
            a.work, b.work
        ));
    }
    if wl == 0 {
        return Pass::vacuous();
    }
    Pass::figure(wt as f64 / wl as f64)
}

pub(super) fn dot_all(a: &[Value<Rat>], b: &[Value<Rat>]) -> Rat {
    a.iter()
        .zip(b)
        .fold(Rat::zero(), |acc, (x, y)| acc + dot(x, y))
}

fn dot_product(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let Some(tp) = tape(&s, case)? else {
        return Pass::vacuous();
    };
    let (l, t) = (s.lin_def()?, s.t_def()?);
    let mut rng = aux_rng(case, 47);
    let dx = random_largs(l, &mut rng);
    let ct = random_largs(t, &mut rng);
    let fwd = run_or_vacuous!(&s.u, &s.lin, &tp, &dx);
    let bwd = run_or_vacuous!(&s.t, &s.lin_t, &tp, &ct);
    let lhs = dot_all(&ct, &fwd.lin);
    let rhs = dot_all(&bwd.lin, &dx);
    if lhs != rhs {
        return fail(format!(
            "<ct, lin t> = {lhs} but <T ct, t> = {rhs}\nt = ({}) ct = ({})\n{}",
            shows(&dx),
            shows(&ct),
            show(&s.t)
        ));
    }
    Pass::figure(if lhs.is_zero() { 0.0 } else { 1.0 })
}

fn transpose_twice(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let Some(tt) = stage(
        transpose::transpose_program(&s.t, &s.lin_t),
        "transposing twice",
    )?
    else {
        return Pass::vacuous();
    };
    let tt_name = transpose::transpose_name(&s.lin_t);
    let Some(tp) = tape(&s, case)? else {
        return Pass::vacuous();
    };
    let mut rng = aux_rng(case, 48);
    let dx = random_largs(s.lin_def()?, &mut rng);
    let a = run_or_vacuous!(&s.u, &s.lin, &tp, &dx);
    let b = run_or_vacuous!(&tt, &tt_name, &tp, &dx);
    if a.lin != b.lin || b.work > a.work {
        return fail(format!(
            "lin gives ({}) with work {}, T(T(lin)) ({}) with work {}\n{}",
            shows(&a.lin),
            a.work,
            shows(&b.lin),
            b.work,
            show(&tt)
        ));
    }
    Pass::ok()
}

fn code_size(case: &Case) -> Outcome {
    let s = stages_or_vacuous!(case);
    let Some(e) = stage(erase::erase_program(&s.j), "erasure")? else {
        return Pass::vacuous();
    };
    let p = program_size(&s.p) as f64;
    let j = program_size(&s.j) as f64;
    let u = program_size(&s.u) as f64;
    let l = def_size(s.lin_def()?) as f64;
    let t = def_size(s.t_def()?) as f64;
    let e = program_size(&e) as f64;
    let checks = [
        ("|J(P)| / |P|", j / p, SIZE_JVP),
        ("|U(J)| / |J|", u / j, SIZE_UNZIP),
        ("|T(lin)| / |lin|", t / l, SIZE_TRANSPOSE),
        ("|E(J)| / |J|", e / j, SIZE_ERASE),
    ];
    for (what, r, c) in checks {
        if r > c {
            return fail(format!("{what} = {r:.2} > {c}\n{}", show(&s.j)));
        }
    }
    Pass::figure(j / p)
}

fn recompute_equals_reference(case: &Case) -> Outcome {
    let f = load(case)?;
    let want = match reference::gradient(&f, &case.inputs, &opts()) {
        Ok(w) => w,
        Err(d) if d.kind == ErrorKind::Resource => return Pass::vacuous(),
        Err(d) => return fail(format!("the reference gradient fails: {d}")),
    };
    if bot(&f)?.is_none() {
        return Pass::vacuous();
    }
    let one = Value::real(Rat::one());
    let rec = match engine::vjp_with(&f, &case.inputs, &one, &opts(), &Checkpoint::RecomputeAll) {
        Ok(g) => g,
        Err(d) if d.kind == ErrorKind::Resource => return Pass::vacuous(),
        Err(d) => return fail(format!("the VJP with recomputation fails: {d}")),
    };
    if rec != want {
        return fail(format!("with recomputation {rec:?}\nreference {want:?}"));
    }
    let nonzero = want
        .grads
        .iter()
        .flatten()
        .any(|g| reals(g).iter().any(|x| !x.is_zero()));
    Pass::figure(if nonzero { 1.0 } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use crate::catalogue::find;
    use crate::runner::{run_property, CheckConfig};
    use adora_core::diag::{Diagnostic, ErrorKind, Span};

    /// Bot's internal errors fail the case; programs outside its fragment and resource
    /// limits are vacuous.
    #[test]
    fn internal_errors_of_bot_fail() {
        let d = |kind| Diagnostic::new(kind, Span::DUMMY, "bot stopped");
        let r = super::bot_result(Err(d(ErrorKind::Internal)));
        assert!(
            r.as_ref().is_err_and(|m| m.contains("error[internal]")),
            "{r:?}"
        );
        for kind in [ErrorKind::Unsupported, ErrorKind::Resource] {
            assert_eq!(super::bot_result(Err(d(kind))), Ok(None));
        }
    }

    /// Runs every `linear/` property on 200 cases with a fixed seed.
    #[test]
    fn linear_properties_hold() {
        let mut failures = Vec::new();
        for p in super::properties() {
            let p = find(p.name).unwrap_or(p);
            let r = run_property(
                &p,
                &CheckConfig {
                    cases: 200,
                    seed: 0x00AD_0A5E_ED02,
                    filter: None,
                    jobs: 1,
                    size: 1,
                },
            );
            println!(
                "{}: {} cases, {:.2}s, {}",
                p.name,
                r.cases_run,
                r.elapsed.as_secs_f64(),
                r.figure.as_deref().unwrap_or("")
            );
            if r.failures > 0 {
                failures.push(format!(
                    "{}:\n{}",
                    p.name,
                    r.counterexample.unwrap_or_default()
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }
}
