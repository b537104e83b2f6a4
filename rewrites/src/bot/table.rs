//! The rule table: every bot rule's name, paper reference, left side, right side and side
//! condition, in the notation of docs/rules/bot.md (which mirrors this table; a test
//! checks that every name here is in the document and in [`super::rules`]).
//!
//! Notation: `build n (i => e)`, `a[js]` (prefix index), `gather(s, src, bs => xs)`,
//! `scatter(s, src, bs => xs)`, `swap = [1, 0, 2, ..., r-1]`, `rep^s(c)` = `c` broadcast by
//! nested `replicate` to the outer shape `s`, `FV` = free index variables, `e[i := j]` =
//! capture-avoiding substitution; "guarded" = `select(0 <= j && j < n, rhs, zeros)` where
//! `n` is the extent of the indexed dimension and `zeros` the zero array of the result's
//! type, omitted when the interval bounds prove `0 <= j < n`.

/// One rule of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleInfo {
    /// The rule's name (`bot/<kebab-name>`), as egg reports it.
    pub name: &'static str,
    /// Where it comes from: the paper's figure, or the horde-ad note section.
    pub figure: &'static str,
    /// Left side.
    pub lhs: &'static str,
    /// Right side.
    pub rhs: &'static str,
    /// Side condition or guard (empty: none).
    pub condition: &'static str,
}

const fn r(
    name: &'static str,
    figure: &'static str,
    lhs: &'static str,
    rhs: &'static str,
    condition: &'static str,
) -> RuleInfo {
    RuleInfo {
        name,
        figure,
        lhs,
        rhs,
        condition,
    }
}

const F9: &str = "seed 000 Fig. 9";
const F10: &str = "seed 000 Fig. 10";
const F11: &str = "seed 000 Fig. 11";
const GUARD: &str =
    "guarded: select(0 <= j && j < n, rhs, zeros) unless the bounds prove 0 <= j < n";

/// Every bot rule, in the order of docs/rules/bot.md.
#[rustfmt::skip]
pub static RULES: &[RuleInfo] = &[
    r("bot/build-const", F9, "build n (i => e)", "replicate(n, e)", "i ∉ FV(e)"),
    r("bot/build-ivar", F9, "build n (i => i)", "iota(n)", ""),
    r("bot/build-neg", F9, "build n (i => -a)", "-build n (i => a)", ""),
    r("bot/build-not", F9, "build n (i => !a)", "!build n (i => a)", ""),
    r("bot/build-exp", F9, "build n (i => exp(a))", "exp(build n (i => a))", ""),
    r("bot/build-log", F9, "build n (i => log(a))", "log(build n (i => a))", ""),
    r("bot/build-sin", F9, "build n (i => sin(a))", "sin(build n (i => a))", ""),
    r("bot/build-cos", F9, "build n (i => cos(a))", "cos(build n (i => a))", ""),
    r("bot/build-tanh", F9, "build n (i => tanh(a))", "tanh(build n (i => a))", ""),
    r("bot/build-sqrt", F9, "build n (i => sqrt(a))", "sqrt(build n (i => a))", ""),
    r("bot/build-abs", F9, "build n (i => abs(a))", "abs(build n (i => a))", ""),
    r("bot/build-floor", F9, "build n (i => floor(a))", "floor(build n (i => a))", ""),
    r("bot/build-real", F9, "build n (i => real(a))", "real(build n (i => a))", ""),
    r("bot/build-pow", F9, "build n (i => pow(a, k))", "pow(build n (i => a), k)", ""),
    r("bot/build-add", F9, "build n (i => a + b)", "build n (i => a) + build n (i => b)", ""),
    r("bot/build-sub", F9, "build n (i => a - b)", "build n (i => a) - build n (i => b)", ""),
    r("bot/build-mul", F9, "build n (i => a * b)", "build n (i => a) * build n (i => b)", ""),
    r("bot/build-div", F9, "build n (i => a / b)", "build n (i => a) / build n (i => b)", ""),
    r("bot/build-mod", F9, "build n (i => a % b)", "build n (i => a) % build n (i => b)", ""),
    r("bot/build-eq", F9, "build n (i => a == b)", "build n (i => a) == build n (i => b)", ""),
    r("bot/build-ne", F9, "build n (i => a != b)", "build n (i => a) != build n (i => b)", ""),
    r("bot/build-lt", F9, "build n (i => a < b)", "build n (i => a) < build n (i => b)", ""),
    r("bot/build-le", F9, "build n (i => a <= b)", "build n (i => a) <= build n (i => b)", ""),
    r("bot/build-gt", F9, "build n (i => a > b)", "build n (i => a) > build n (i => b)", ""),
    r("bot/build-ge", F9, "build n (i => a >= b)", "build n (i => a) >= build n (i => b)", ""),
    r("bot/build-and", F9, "build n (i => a && b)", "build n (i => a) && build n (i => b)", ""),
    r("bot/build-or", F9, "build n (i => a || b)", "build n (i => a) || build n (i => b)", ""),
    r("bot/build-min", F9, "build n (i => min(a, b))", "min(build n (i => a), build n (i => b))", ""),
    r("bot/build-max", F9, "build n (i => max(a, b))", "max(build n (i => a), build n (i => b))", ""),
    r("bot/build-select", "seed 000 Fig. 9 (build-cond; strict select, §5.2)", "build n (i => select(c, a, b))", "select(build n (i => c'), build n (i => a), build n (i => b))", "c' = c if c has the shape s of a, b; c' = rep^s(c) if c is a scalar (whole-array select becomes elementwise)"),
    r("bot/build-sum", F9, "build n (i => sum(e))", "sum_outer(transpose([1, 0], reshape([n, |e|], build n (i => e))))", "|e| = number of elements of e"),
    r("bot/build-sum-outer", F9, "build n (i => sum_outer(e))", "sum_outer(transpose(swap, build n (i => e)))", "swap = [1, 0, 2, ..., r-1]"),
    r("bot/build-replicate", F9, "build n (i => replicate(k, e))", "transpose(swap, replicate(k, build n (i => e)))", ""),
    r("bot/build-transpose", F9, "build n (i => transpose(p, e))", "transpose(0 : (p + 1), build n (i => e))", ""),
    r("bot/build-reshape", F9, "build n (i => reshape(s, e))", "reshape(n : s, build n (i => e))", ""),
    r("bot/build-append", F9, "build n (i => append(a, b))", "transpose(swap, append(transpose(swap, build n (i => a)), transpose(swap, build n (i => b))))", ""),
    r("bot/build-array", "seed 000 Fig. 9 (stacking)", "build n (i => [e1, ..., ek])", "transpose(swap, [build n (i => e1), ..., build n (i => ek)])", ""),
    r("bot/build-stack", "seed 000 Fig. 9 (stacking)", "build n (i => stack([e1, ..., ek]))", "transpose(swap, stack([build n (i => e1), ..., build n (i => ek)]))", ""),
    r("bot/build-gather", F9, "build n (i => gather(s, src, js => xs))", "gather(n : s, build n (i => src), (i, js) => (i, xs))", ""),
    r("bot/build-scatter", F9, "build n (i => scatter(s, src, js => xs))", "scatter(n : s, build n (i => src), (i, js) => (i, xs))", ""),
    r("bot/index-neg", F10, "(-a)[js]", "-a[js]", "none (f(0) = 0)"),
    r("bot/index-not", F10, "(!a)[js]", "!a[js]", GUARD),
    r("bot/index-exp", F10, "(exp(a))[js]", "exp(a[js])", GUARD),
    r("bot/index-log", F10, "(log(a))[js]", "log(a[js])", GUARD),
    r("bot/index-sin", F10, "(sin(a))[js]", "sin(a[js])", "none (f(0) = 0)"),
    r("bot/index-cos", F10, "(cos(a))[js]", "cos(a[js])", GUARD),
    r("bot/index-tanh", F10, "(tanh(a))[js]", "tanh(a[js])", "none (f(0) = 0)"),
    r("bot/index-sqrt", F10, "(sqrt(a))[js]", "sqrt(a[js])", "none (f(0) = 0)"),
    r("bot/index-abs", F10, "(abs(a))[js]", "abs(a[js])", "none (f(0) = 0)"),
    r("bot/index-floor", F10, "(floor(a))[js]", "floor(a[js])", "none (f(0) = 0)"),
    r("bot/index-real", F10, "(real(a))[js]", "real(a[js])", "none (f(0) = 0)"),
    r("bot/index-pow", F10, "pow(a, k)[js]", "pow(a[js], k)", "none when k > 0; otherwise guarded: select(0 <= j && j < n, rhs, zeros) unless the bounds prove 0 <= j < n"),
    r("bot/index-add", F10, "(a + b)[js]", "a[js] + b[js]", "none (0 op 0 = 0)"),
    r("bot/index-sub", F10, "(a - b)[js]", "a[js] - b[js]", "none (0 op 0 = 0)"),
    r("bot/index-mul", F10, "(a * b)[js]", "a[js] * b[js]", "none (0 op 0 = 0)"),
    r("bot/index-div", F10, "(a / b)[js]", "a[js] / b[js]", "none on Z; on R guarded: select(0 <= j && j < n, rhs, zeros) unless the bounds prove 0 <= j < n (IEEE 0/0)"),
    r("bot/index-mod", F10, "(a % b)[js]", "a[js] % b[js]", "none (0 op 0 = 0)"),
    r("bot/index-eq", F10, "(a == b)[js]", "a[js] == b[js]", GUARD),
    r("bot/index-ne", F10, "(a != b)[js]", "a[js] != b[js]", "none (0 op 0 = 0)"),
    r("bot/index-lt", F10, "(a < b)[js]", "a[js] < b[js]", "none (0 op 0 = 0)"),
    r("bot/index-le", F10, "(a <= b)[js]", "a[js] <= b[js]", GUARD),
    r("bot/index-gt", F10, "(a > b)[js]", "a[js] > b[js]", "none (0 op 0 = 0)"),
    r("bot/index-ge", F10, "(a >= b)[js]", "a[js] >= b[js]", GUARD),
    r("bot/index-and", F10, "(a && b)[js]", "a[js] && b[js]", "none (0 op 0 = 0)"),
    r("bot/index-or", F10, "(a || b)[js]", "a[js] || b[js]", "none (0 op 0 = 0)"),
    r("bot/index-min", F10, "(min(a, b))[js]", "min(a[js], b[js])", "none (0 op 0 = 0)"),
    r("bot/index-max", F10, "(max(a, b))[js]", "max(a[js], b[js])", "none (0 op 0 = 0)"),
    r("bot/index-select", F10, "select(c, a, b)[js]", "select(c[js], a[js], b[js]) (elementwise c); select(c, a[js], b[js]) (scalar c)", ""),
    r("bot/index-index", F10, "(e[js])[ks]", "e[js ++ ks]", ""),
    r("bot/proj-tuple", "our tuples (docs/language.md); cf. horde-ad's rule set (build of pair/proj)", "(e0, ..., en).k", "ek", ""),
    r("bot/index-build", "seed 000 Fig. 10 (β)", "(build n (i => e))[j, js]", "e[i := j][js]", GUARD),
    r("bot/index-sum-outer", F10, "sum_outer(e)[js]", "sum_outer(transpose([1, ..., k, 0, k+1, ...], e)[js])", "k = |js|"),
    r("bot/index-replicate", F10, "replicate(n, e)[j, js]", "e[js]", GUARD),
    r("bot/index-transpose", "seed 000 Fig. 10; horde-ad's rule set (transpose as gather)", "transpose(p, e)[js]", "transpose(p', e[js']) when p maps the first k = |js| dims among themselves (js'[p[d]] = js[d], p' = p[k..] - k); else gather(sh[k..], e, ts => xs) with x[p[d]] = js[d] (d < k), t_d (d >= k)", "fresh binders t_d derived from the match"),
    r("bot/index-reshape", "seed 000 Fig. 10; horde-ad's rule set (reshape as gather)", "reshape(s, e)[js]", "gather(s[k..], e, rs => xs) with F = Σ y_d·stride_s(d), x_c = (F / stride_e(c)) % e_c (an index when k = |s|)", "guarded: select(0 <= j && j < n, rhs, zeros) unless the bounds prove 0 <= j < n for each j_d against s_d; fresh binders r_d"),
    r("bot/index-gather", F10, "gather(s, src, bs => xs)[js]", "src[xs[bs := js] ++ js[|bs|..]] when |js| >= |bs|; else gather(s[|js|..], src, bs[|js|..] => xs[bs := js])", "guarded: select(0 <= j && j < n, rhs, zeros) unless the bounds prove 0 <= j < n for each substituted j_d against s_d; no capture"),
    r("bot/index-iota", F10, "iota(n)[j]", "j", GUARD),
    r("bot/index-array", F10, "[e0, ..., e(n-1)][j, js]", "ec[js] for a constant j = c (zeros when out of range); else select(j == c, ec[js], ...) over the c the bounds allow, ending in zeros", "not fired for a constant literal and a non-constant j (a normal form) or more than 256 alternatives"),
    r("bot/index-stack", F10, "stack([e0, ..., e(n-1)])[j, js]", "as bot/index-array", ""),
    r("bot/index-append-decided", "horde-ad's rule set (append decided by bounds)", "append(a, b)[j, js]", "a[j, js] when j < |a|; b[j - |a|, js] when j >= |a|", "the interval bounds of j decide the side"),
    r("bot/build-index-var", F11, "build n (i => v[js])", "gather([n], v, i => js)", "v a variable (or a projection of one); i ∉ FV(v)"),
    r("bot/build-index-const", F11, "build n (i => c[js])", "gather([n], c, i => js)", "c a constant array literal"),
    r("bot/build-index-free", "horde-ad's rule set (build1VIndexS, i ∉ FV(v)); Fig. 11 generalised", "build n (i => v[js])", "gather([n], v, i => js)", "i ∉ FV(v), v neither a variable nor a constant (e.g. a let-bound array: our encoding has no let)"),
    r("bot/build-index-append", "seed 000 Fig. 11 (memory-costly)", "build n (i => append(a, b)[js])", "gather([n], build n (i => append(a, b)), i => (i, js))", ""),
    r("bot/build-index-scatter", "seed 000 Fig. 11 (memory-costly)", "build n (i => scatter(s, x, bs => ys)[js])", "gather([n], build n (i => scatter(s, x, bs => ys)), i => (i, js))", ""),
    r("bot/gather-to-index", "horde-ad's rule set (2)", "gather([], src, () => xs)", "src[xs] (src when xs is empty)", ""),
    r("bot/gather-identity", "horde-ad's rule set", "gather(s, src, bs => bs)", "src", "s = the first |bs| dims of src"),
    r("bot/gather-unused-binder", "horde-ad's rule set (3)", "gather(k : s, src, (b, bs) => xs)", "replicate(k, gather(s, src, bs => xs))", "b ∉ FV(xs)"),
    r("bot/gather-trailing-eta", "horde-ad's rule set (4)", "gather(s ++ [k], src, (bs, b) => (xs, b))", "gather(s, src, bs => xs)", "b ∉ FV(xs); dim |xs| of src is k"),
    r("bot/gather-replicate", "horde-ad's rule set (12, replicate)", "gather(s, replicate(n, e), bs => (x0, xs))", "gather(s, e, bs => xs)", "bounds prove 0 <= x0 < n (zeros if they refute it); otherwise, if xs = (x1, xs'), → gather(s, e, bs => (select(0 <= x0 && x0 < n, x1, -1), xs'))"),
    r("bot/gather-gather", "horde-ad's rule set (12, gather fusion)", "gather(s, gather(s2, src, bs2 => xs2), bs => ys)", "gather(s, src, bs => xs2[bs2 := ys] ++ ys[|bs2|..]) when |ys| >= |bs2|; else gather(s ++ s2[|ys|..], src, (bs, bs2[|ys|..]) => xs2[bs2 := ys])", "bounds prove every substituted ys_d in [0, s2_d); fused components no deeper than 6; binder names disjoint; no capture"),
    r("bot/gather-index", "horde-ad's rule set (10, inverse)", "gather(s, v[js], bs => xs)", "gather(s, v, bs => (js, xs))", "FV(js) ∩ bs = ∅"),
    r("bot/gather-transpose", "horde-ad's rule set (12, transpose)", "gather(s, transpose(p, e), bs => xs)", "gather(s, e, bs => xs') with xs'[p[d]] = xs[d]", "p fixes every dim >= |xs|"),
    r("bot/transpose-transpose", "our decision (docs/rules/bot.md, Layout simplifications); cf. horde-ad's rule set (transpose of transpose)", "transpose(p, transpose(q, e))", "transpose(r, e) with r[k] = q[p[k]] (e when r is the identity)", ""),
    r("bot/transpose-identity", "our decision (docs/rules/bot.md, Layout simplifications)", "transpose([0, 1, ..., r-1], e)", "e", ""),
    r("bot/reshape-identity", "our decision (docs/rules/bot.md, Layout simplifications); cf. horde-ad's rule set (reshape to the same shape)", "reshape(s, e)", "e", "e has shape s"),
    r("bot/reshape-reshape", "our decision (docs/rules/bot.md, Layout simplifications); cf. horde-ad's rule set (reshape of reshape)", "reshape(s, reshape(t, e))", "reshape(s, e) (e when e has shape s)", ""),
];
