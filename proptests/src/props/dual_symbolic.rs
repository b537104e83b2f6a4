//! Properties of engine `dual`'s forward transformation and runtime Deltas (seed 000
//! *Dual-Numbers Reverse AD for Functional Array Languages* §6, §7.1, §7.3, App. D.2;
//! docs/engines/dual.md): the non-differentiating transformation 𝒩, integer paths,
//! totality on bot output, the transpose pairs, `shapeDelta`, the simplified (separated)
//! form, `share` as the identity, and the pipeline without bot. The symbolic reverse pass
//! and the gradient program are in [`super::dual_symbolic_rev`].
//!
//! Cases are generated programs of the `bulk` fragment taken through bot
//! (`adora_rewrites::dual::fragment::prepare`); a resource limit makes a case vacuous, any
//! other error fails it.

use super::util::{aux_rng, fail, load, opts, random_rat, random_value};
use crate::catalogue::{Check, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::{literal, rat, reals, Rat};
use adora_core::ast::{Expr, ExprKind, Function, Pat, Prim};
use adora_core::diag::{ErrorKind, Span};
use adora_core::types::Type;
use adora_rewrites::dual::delta::{Delta, Kind, Node};
use adora_rewrites::dual::forward::{self, Forward};
use adora_rewrites::dual::runtime::{backprop, tangent};
use adora_rewrites::dual::symbolic::check::instantiate;
use adora_rewrites::dual::symbolic::forward::separate;
use adora_rewrites::dual::symbolic::wrapper::gradient_program;
use adora_rewrites::dual::value::{seed_input, RDelta, DV};
use adora_rewrites::dual::{
    eval_gradient_program, fragment, runtime_vjp, runtime_vjp_normal, runtime_vjp_without_bot,
};
use adora_semantics::eval::eval;
use adora_semantics::reference;
use adora_semantics::value::{Tensor, Value};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};

/// A runtime Delta over exact rationals.
pub(crate) type RD = RDelta<Rat>;

/// Generated `bulk` programs of size 24 with results of kind `ret`.
pub(crate) fn bulk(ret: RetKind) -> CaseStrategy {
    CaseStrategy::new(GenSpec::new(Fragment::Bulk).size(24).ret(ret))
}

/// A library call's result: a resource limit is `Ok(None)` (vacuous), another error a
/// failure message.
pub(crate) fn step<T>(r: adora_core::Result<T>, what: &str) -> Result<Option<T>, String> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(d) if d.kind == ErrorKind::Resource => Ok(None),
        Err(d) => Err(format!("{what} fails: {d}")),
    }
}

/// The case's program and its bot output (`None`: a resource limit).
pub(crate) fn prepared(case: &Case) -> Result<Option<(Function, Function)>, String> {
    let f = load(case)?;
    Ok(step(
        fragment::prepare(&f),
        "preparing the program (fragment, bot)",
    )?
    .map(|g| (f, g)))
}

/// `def`-level text of a function, for messages.
pub(crate) fn show(f: &Function) -> String {
    adora_core::pretty::function(f)
}

/// Every node of the DAGs of `roots` once (pointer identity).
fn nodes(roots: &[RD]) -> Vec<RD> {
    let mut seen: HashSet<*const Node<_>> = HashSet::new();
    let mut out = Vec::new();
    let mut stack: Vec<RD> = roots.to_vec();
    while let Some(d) = stack.pop() {
        if !seen.insert(d.node() as *const _) {
            continue;
        }
        stack.extend(d.children().into_iter().cloned());
        out.push(d);
    }
    out
}

/// Node `d` rebuilt over the children `k` (in [`Delta::children`] order) with the smart
/// constructors; `None` for leaves and `Share`.
fn layer(d: &RD, k: &[RD]) -> Option<RD> {
    let shape = d.shape().to_vec();
    let a = || k[0].clone();
    let b = || k[1].clone();
    Some(match d.kind() {
        Kind::Zero | Kind::Input(_) | Kind::Share(..) => return None,
        Kind::Add(..) => Delta::plus(a(), b()),
        Kind::Neg(_) => Delta::minus(a()),
        Kind::Scale(f, _) => Delta::scale(f.clone(), a()),
        Kind::DivBy(f, _) => Delta::div_by(f.clone(), a()),
        Kind::Select(c, ..) => Delta::select(c.clone(), a(), b()),
        Kind::Index(_, ix) => Delta::index(a(), ix.clone(), ix.len()),
        Kind::Gather(_, m) => Delta::gather(a(), m.clone(), shape),
        Kind::Scatter(_, m) => Delta::scatter(a(), m.clone(), shape),
        Kind::Sum(_) => Delta::sum(a()),
        Kind::SumOuter(_) => Delta::sum_outer(a()),
        Kind::Replicate(n, _) => Delta::replicate(*n, a()),
        Kind::Transpose(p, _) => Delta::transpose(p.clone(), a()),
        Kind::Reshape(_) => Delta::reshape(shape, a()),
        Kind::Append(..) => Delta::append(a(), b()),
        Kind::Stack(_) => Delta::stack(k.to_vec()),
    })
}

fn rand_tensor(shape: &[usize], rng: &mut ChaCha8Rng) -> Tensor<Rat> {
    let n: usize = shape.iter().product();
    Tensor {
        shape: shape.to_vec(),
        data: (0..n).map(|_| random_rat(rng)).collect(),
    }
}

fn dot(a: &Tensor<Rat>, b: &Tensor<Rat>) -> Rat {
    a.data.iter().zip(&b.data).map(|(x, y)| x * y).sum()
}

/// The runtime forward pass of the bot output `g` on the case's inputs: the result and
/// the number of input leaves (`None`: a resource limit).
fn forward_of(g: &Function, case: &Case) -> Result<Option<(DV<Rat>, usize)>, String> {
    Ok(
        step(forward::run(g, &case.inputs, &opts()), "the forward pass")?
            .map(|fw| (fw.result, fw.inputs)),
    )
}

/// Random tangents of the input leaves of the case (shapes from the inputs).
fn leaf_tangents(case: &Case, rng: &mut ChaCha8Rng) -> Vec<Option<Tensor<Rat>>> {
    let mut out = Vec::new();
    for x in &case.inputs {
        leaf_shapes(x, &mut |s| out.push(Some(rand_tensor(s, rng))));
    }
    out
}

fn leaf_shapes(v: &Value<Rat>, f: &mut impl FnMut(&[usize])) {
    match v {
        Value::Real(t) => f(&t.shape),
        Value::Tuple(vs) => vs.iter().for_each(|c| leaf_shapes(c, f)),
        _ => {}
    }
}

/// The properties of this module.
pub fn properties() -> Vec<Property> {
    let p = |name, source, description, strategy, check| Property {
        name,
        source,
        fragment: "bulk",
        description,
        figure: None,
        check: Check::Case { strategy, check },
    };
    vec![
        p("dual/nondiff-preserves-type", "seed 000 §6.2 (Fig. 13)",
          "the non-differentiating transformation 𝒩 (the forward pass with Deltas off) run on the whole bot output, inputs bound to their dual arrays, builds no Delta node (every Delta of the result is Zero or an input's own Input node) and gives the evaluator's value, of the function's result type",
          || bulk(RetKind::Any), nondiff),
        p("dual/integer-paths-zero-derivative", "seed 000 §6.3",
          "a computation that reaches the result only through integers has derivative zero: for a real scalar program body b, `let r = b in real(floor(r))` has gradient exactly zero by the runtime reverse pass and the gradient program, and `let r = b in real(floor(r)) * r` has the reference gradient (floor(r) a constant factor)",
          || bulk(RetKind::RealScalar), integer_paths),
        p("dual/total-on-bot-output", "seed 000 §6.3",
          "the dual-arrays transformation is defined on every bot normal form: the bot output has no build, and the runtime forward pass, the symbolic forward pass (separated form) and the gradient program all succeed on it (no Unsupported or other error)",
          || bulk(RetKind::Any), total),
        p("dual/transpose-pairs-adjoint", "seed 000 §3.2, §6.4 (transpose pairs)",
          "every non-leaf node of the runtime Delta of the bot output, taken alone over fresh Input leaves (add/dup, neg, scale, divby, select, index/one-hot, gather/scatter with its table, sum/replicate, sum_outer/replicate, transpose/inverse permutation, reshape/reshape back, append/slices, stack/index), satisfies <A u, v> = <u, A^T v> exactly for random u, v: forward evaluation vs the runtime reverse pass",
          || bulk(RetKind::Real), transpose_pairs),
        p("dual/delta-shape-consistent", "seed 000 §6.4 (shapeDelta)",
          "every node of the runtime Delta of the bot output records the shape of the tangent it denotes (its forward evaluation on random input tangents has that shape), and every real result's Delta has its primal's shape",
          || bulk(RetKind::Any), shapes),
        p("dual/simplify-preserves-semantics", "seed 000 §7.1",
          "the simplified derivative (the separated form of Eq. 6 that the symbolic forward pass builds directly) preserves semantics: its primal part, as a core function, type-checks and evaluates to the program's value, and its symbolic Delta read at the primal values gives the same tangent as the unsimplified runtime forward pass (Fig. 14's rules) for random input tangents",
          || bulk(RetKind::Real), simplify),
        p("dual/share-is-identity", "seed 000 §7.3",
          "`share` is the identity: the runtime Delta of the bot output with every Share node removed (its body in its place) gives the same tangent for random input tangents and the same gradient by the reverse pass for a random cotangent, exactly (cases whose unshared tree passes 200,000 nodes are vacuous)",
          || bulk(RetKind::Real), share_identity),
        p("dual/without-bot-agrees", "seed 000 App. D.2, §9",
          "AD is decoupled from bot: the runtime pipeline without bot (each build evaluated point by point, `runtime_vjp_without_bot`) gives the reference VJP for a random cotangent exactly, and the same as the pipeline with bot",
          || bulk(RetKind::Real), without_bot),
    ]
}

fn nondiff(case: &Case) -> Outcome {
    adora_core::with_stack(|| nondiff_deep(case))
}

fn nondiff_deep(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let o = opts();
    let mut fw: Forward<'_, Rat> = Forward::new(&o);
    let mut next = 0;
    for (p, v) in g.params.iter().zip(&case.inputs) {
        fw.bind(&p.name, seed_input(v, &mut next));
    }
    let Some(v) = step(fw.eval_primal(&g.body), "𝒩")? else {
        return Pass::vacuous();
    };
    if let Some(d) = v
        .deltas()
        .iter()
        .find(|d| !matches!(d.kind(), Kind::Zero | Kind::Input(_)))
    {
        return fail(format!(
            "𝒩 built a Delta node `{}` for the bot output\n{}",
            adora_rewrites::dual::delta::kind_name(d.kind()),
            show(&g)
        ));
    }
    let Some((want, _)) = step(eval(&g, &case.inputs, &o), "evaluation")? else {
        return Pass::vacuous();
    };
    let got = v.primal();
    if got != want {
        return fail(format!(
            "𝒩 gives {} but the evaluator {}",
            literal(&got),
            literal(&want)
        ));
    }
    if got.ty() != g.ret {
        return fail(format!(
            "𝒩's value has type {} but the function returns {}",
            got.ty(),
            g.ret
        ));
    }
    Pass::ok()
}

fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

/// `let r = body in k(r)` for a fresh `r`.
fn wrap_result(g: &Function, k: impl FnOnce(Expr) -> Expr) -> Function {
    let params: Vec<String> = g.params.iter().map(|p| p.name.clone()).collect();
    let mut names = adora_rewrites::kit::names::supply_for(&params, &g.body);
    let r = names.fresh("r");
    let body = mk(ExprKind::Let(
        Pat::Var(r.clone()),
        Box::new(g.body.clone()),
        Box::new(k(mk(ExprKind::Var(r)))),
    ));
    Function {
        name: g.name.clone(),
        params: g.params.clone(),
        ret: Type::real(),
        body,
    }
}

fn floor_real(r: Expr) -> Expr {
    mk(ExprKind::Prim(
        Prim::Real,
        vec![mk(ExprKind::Prim(Prim::Floor, vec![r]))],
    ))
}

/// The gradients of `h` (build-free) by the runtime reverse pass and by the gradient
/// program, and the reference's.
type Grads = Vec<Option<Value<Rat>>>;
fn three_gradients(h: &Function, case: &Case) -> Result<Option<(Grads, Grads, Grads)>, String> {
    let one = Value::real(rat(1, 1));
    let Some((rt, _)) = step(
        runtime_vjp_normal(h, &case.inputs, &one, &opts()),
        "the runtime reverse pass",
    )?
    else {
        return Ok(None);
    };
    let gp = step(
        adora_core::with_stack(|| gradient_program(h)),
        "the gradient program",
    )?;
    let Some(gp) = gp else { return Ok(None) };
    let Some(sy) = step(
        eval_gradient_program(&gp, &case.inputs, &one, &opts()),
        "evaluating the gradient program",
    )?
    else {
        return Ok(None);
    };
    let Some(rf) = step(
        reference::gradient(h, &case.inputs, &opts()),
        "the reference gradient",
    )?
    else {
        return Ok(None);
    };
    Ok(Some((rt.grads, sy.grads, rf.grads)))
}

fn integer_paths(case: &Case) -> Outcome {
    if case.main().ret != Type::real() || case.inputs.iter().all(|x| reals(x).is_empty()) {
        return Pass::vacuous();
    }
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let h1 = wrap_result(&g, floor_real);
    let Some((a, b, c)) = three_gradients(&h1, case)? else {
        return Pass::vacuous();
    };
    for (route, gs) in [
        ("runtime reverse pass", &a),
        ("gradient program", &b),
        ("reference", &c),
    ] {
        let nonzero = gs.iter().flatten().flat_map(reals).any(|x| x != rat(0, 1));
        if nonzero {
            return fail(format!(
                "the {route} gives a nonzero gradient through floor:\n{}",
                show(&h1)
            ));
        }
    }
    let h2 = wrap_result(&g, |r| {
        mk(ExprKind::Binary(
            adora_core::ast::BinOp::Mul,
            Box::new(floor_real(r.clone())),
            Box::new(r),
        ))
    });
    let Some((a, b, c)) = three_gradients(&h2, case)? else {
        return Pass::vacuous();
    };
    if a != c || b != c {
        return fail(format!(
            "gradients of\n{}\nruntime {:?}, gradient program {:?}, reference {:?}",
            show(&h2),
            a.iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>(),
            b.iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>(),
            c.iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>()
        ));
    }
    Pass::ok()
}

fn total(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    if adora_rewrites::bot::has_build(&g) {
        return fail(format!("the bot output has a build:\n{}", show(&g)));
    }
    if forward_of(&g, case)?.is_none() {
        return Pass::vacuous();
    }
    step(
        adora_core::with_stack(|| separate(&g).map(|_| ())),
        "the symbolic forward pass",
    )?;
    step(
        adora_core::with_stack(|| gradient_program(&g).map(|_| ())),
        "the gradient program",
    )?;
    Pass::ok()
}

fn transpose_pairs(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let Some((v, _)) = forward_of(&g, case)? else {
        return Pass::vacuous();
    };
    let mut rng = aux_rng(case, 31);
    let mut checked = 0usize;
    for d in nodes(&v.deltas()) {
        let kids: Vec<RD> = d
            .children()
            .iter()
            .enumerate()
            .map(|(i, c)| Delta::input(i, c.shape().to_vec()))
            .collect();
        let Some(a) = layer(&d, &kids) else { continue };
        let us: Vec<Option<Tensor<Rat>>> = kids
            .iter()
            .map(|k| Some(rand_tensor(k.shape(), &mut rng)))
            .collect();
        let ct = rand_tensor(a.shape(), &mut rng);
        let lhs = dot(&ct, &tangent(&a, &us));
        let bp = backprop(vec![(a.clone(), ct)], kids.len());
        let rhs: Rat = bp
            .grads
            .iter()
            .zip(&us)
            .map(|(g, u)| {
                g.as_ref()
                    .map(|g| dot(g, u.as_ref().unwrap_or(g)))
                    .unwrap_or_else(|| rat(0, 1))
            })
            .sum();
        if lhs != rhs {
            return fail(format!(
                "the transpose of a `{}` node of shape {:?} is not its adjoint: <A u, v> = {lhs}, <u, A^T v> = {rhs}\nbot output:\n{}",
                adora_rewrites::dual::delta::kind_name(d.kind()),
                d.shape(),
                show(&g)
            ));
        }
        checked += 1;
    }
    if checked == 0 {
        Pass::vacuous()
    } else {
        Pass::ok()
    }
}

fn shapes(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let Some((v, _)) = forward_of(&g, case)? else {
        return Pass::vacuous();
    };
    fn roots_match(v: &DV<Rat>) -> Result<(), String> {
        match v {
            DV::R(t, d) if t.shape != d.shape() => Err(format!(
                "a result of shape {:?} has a Delta of shape {:?}",
                t.shape,
                d.shape()
            )),
            DV::T(vs) => vs.iter().try_for_each(roots_match),
            _ => Ok(()),
        }
    }
    roots_match(&v)?;
    let mut rng = aux_rng(case, 32);
    let ls = leaf_tangents(case, &mut rng);
    for d in nodes(&v.deltas()) {
        let t = tangent(&d, &ls);
        if t.shape != d.shape() {
            return fail(format!(
                "a `{}` node records shape {:?} but denotes a tangent of shape {:?}\n{}",
                adora_rewrites::dual::delta::kind_name(d.kind()),
                d.shape(),
                t.shape,
                show(&g)
            ));
        }
    }
    Pass::ok()
}

fn simplify(case: &Case) -> Outcome {
    adora_core::with_stack(|| simplify_deep(case))
}

fn simplify_deep(case: &Case) -> Outcome {
    let Some((f, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let sep = separate(&g).map_err(|d| format!("the symbolic forward pass fails: {d}"))?;
    let primal = Function {
        name: g.name.clone(),
        params: g.params.clone(),
        ret: g.ret.clone(),
        body: adora_rewrites::kit::anf::wrap(&sep.bindings, sep.result.primal()),
    };
    adora_core::with_stack(|| adora_core::check::check_function(&primal)).map_err(|d| {
        format!(
            "the primal part does not type-check: {d}\n{}",
            show(&primal)
        )
    })?;
    let Some((got, _)) = step(
        eval(&primal, &case.inputs, &opts()),
        "evaluating the primal part",
    )?
    else {
        return Pass::vacuous();
    };
    let Some((want, _)) = step(eval(&f, &case.inputs, &opts()), "evaluation")? else {
        return Pass::vacuous();
    };
    if got != want {
        return fail(format!(
            "the primal part gives {} but the program {}\n{}",
            literal(&got),
            literal(&want),
            show(&primal)
        ));
    }
    let Some((_, sym)) = step(
        instantiate(&g, &case.inputs, &opts()),
        "instantiating the separated form",
    )?
    else {
        return Pass::vacuous();
    };
    let Some((v, _)) = forward_of(&g, case)? else {
        return Pass::vacuous();
    };
    let mut rng = aux_rng(case, 33);
    let ls = leaf_tangents(case, &mut rng);
    let a: Vec<Tensor<Rat>> = sym.iter().map(|d| tangent(d, &ls)).collect();
    let b: Vec<Tensor<Rat>> = v.deltas().iter().map(|d| tangent(d, &ls)).collect();
    if a != b {
        return fail(format!(
            "the separated form's tangent {a:?} differs from the forward pass's {b:?}\n{}",
            show(&g)
        ));
    }
    Pass::ok()
}

/// The number of nodes of `d` unfolded as a tree (saturating).
fn tree_size(
    d: &RD,
    memo: &mut HashMap<*const Node<adora_rewrites::dual::value::Runtime<Rat>>, usize>,
) -> usize {
    let key = d.node() as *const _;
    if let Some(n) = memo.get(&key) {
        return *n;
    }
    let n = d
        .children()
        .iter()
        .fold(1usize, |acc, c| acc.saturating_add(tree_size(c, memo)));
    memo.insert(key, n);
    n
}

/// `d` with every `Share` node replaced by its body.
fn strip(
    d: &RD,
    memo: &mut HashMap<*const Node<adora_rewrites::dual::value::Runtime<Rat>>, RD>,
) -> RD {
    let key = d.node() as *const _;
    if let Some(s) = memo.get(&key) {
        return s.clone();
    }
    let out = match d.kind() {
        Kind::Share(_, body) => strip(body, memo),
        _ => {
            let kids: Vec<RD> = d.children().into_iter().map(|c| strip(c, memo)).collect();
            layer(d, &kids).unwrap_or_else(|| d.clone())
        }
    };
    memo.insert(key, out.clone());
    out
}

fn share_identity(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let Some((v, inputs)) = forward_of(&g, case)? else {
        return Pass::vacuous();
    };
    let ds = v.deltas();
    let mut sizes = HashMap::new();
    if ds
        .iter()
        .map(|d| tree_size(d, &mut sizes))
        .fold(0usize, usize::saturating_add)
        > 200_000
    {
        return Pass::vacuous();
    }
    if !ds.iter().any(|d| {
        nodes(std::slice::from_ref(d))
            .iter()
            .any(|n| matches!(n.kind(), Kind::Share(..)))
    }) {
        return Pass::vacuous();
    }
    let mut memo = HashMap::new();
    let unshared: Vec<RD> = ds.iter().map(|d| strip(d, &mut memo)).collect();
    let mut rng = aux_rng(case, 34);
    let ls = leaf_tangents(case, &mut rng);
    for (a, b) in ds.iter().zip(&unshared) {
        let (ta, tb) = (tangent(a, &ls), tangent(b, &ls));
        if ta != tb {
            return fail(format!(
                "with shares the tangent is {ta:?}, without {tb:?}\n{}",
                show(&g)
            ));
        }
    }
    let cts: Vec<Tensor<Rat>> = ds
        .iter()
        .map(|d| rand_tensor(d.shape(), &mut rng))
        .collect();
    let with = backprop(ds.iter().cloned().zip(cts.clone()).collect(), inputs).grads;
    let without = backprop(unshared.into_iter().zip(cts).collect(), inputs).grads;
    if with != without {
        return fail(format!(
            "with shares the reverse pass gives {with:?}, without {without:?}\n{}",
            show(&g)
        ));
    }
    Pass::ok()
}

fn without_bot(case: &Case) -> Outcome {
    let f = load(case)?;
    if case.inputs.iter().all(|x| reals(x).is_empty()) {
        return Pass::vacuous();
    }
    let mut rng = aux_rng(case, 35);
    let ct = random_value(&f.ret, &mut rng);
    let nobot = match runtime_vjp_without_bot(&f, &case.inputs, &ct, &opts()) {
        Ok((g, _)) => g,
        Err(d) if matches!(d.kind, ErrorKind::Resource | ErrorKind::Unsupported) => {
            return Pass::vacuous()
        }
        Err(d) => return fail(format!("the pipeline without bot fails: {d}")),
    };
    let Some(want) = step(
        reference::vjp(&f, &case.inputs, &ct, &opts()),
        "the reference vjp",
    )?
    else {
        return Pass::vacuous();
    };
    let Some((bot, _)) = step(
        runtime_vjp(&f, &case.inputs, &ct, &opts()),
        "the pipeline with bot",
    )?
    else {
        return Pass::vacuous();
    };
    if nobot.value != want.value || nobot.grads != want.grads {
        return fail(format!(
            "without bot: value {}, gradients {:?}; reference: value {}, gradients {:?}",
            literal(&nobot.value),
            nobot
                .grads
                .iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>(),
            literal(&want.value),
            want.grads
                .iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>()
        ));
    }
    if bot.grads != nobot.grads {
        return fail("the pipelines with and without bot disagree");
    }
    Pass::ok()
}
