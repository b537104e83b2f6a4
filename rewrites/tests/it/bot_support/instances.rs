//! Instance templates of every bot rule: programs whose body matches the rule's left side
//! at the root. Placeholders: `{N}`, `{M}`, `{K}` are random sizes in 1..=4; `{N1}` is
//! `N - 1`, `{M1}` is `M - 1`, `{NM}` is `N * M`, `{MK}` is `M * K`, `{MpK}` is `M + K`;
//! `{P}` a random exponent in -2..=3. Index parameters (`j`, `k`: Z) get random values in
//! -1..=5, so instances include out-of-bounds indices.

use rand::Rng;

/// The sizes and exponent of one instance.
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    /// First size.
    pub n: usize,
    /// Second size.
    pub m: usize,
    /// Third size.
    pub k: usize,
    /// A `pow` exponent.
    pub p: i64,
}

impl Dims {
    /// Random dimensions.
    pub fn random(rng: &mut impl Rng) -> Dims {
        Dims {
            n: rng.gen_range(1..=4),
            m: rng.gen_range(1..=4),
            k: rng.gen_range(1..=4),
            p: rng.gen_range(-2..=3),
        }
    }

    /// `template` with the placeholders filled in.
    pub fn fill(&self, template: &str) -> String {
        let Dims { n, m, k, p } = *self;
        template
            .replace("{N1}", &(n - 1).to_string())
            .replace("{M1}", &(m - 1).to_string())
            .replace("{NM}", &(n * m).to_string())
            .replace("{MK}", &(m * k).to_string())
            .replace("{MpK}", &(m + k).to_string())
            .replace("{N}", &n.to_string())
            .replace("{M}", &m.to_string())
            .replace("{K}", &k.to_string())
            .replace("{P}", &p.to_string())
    }
}

const R_UNARY: [(&str, &str); 6] = [
    ("exp", "exp"),
    ("log", "log"),
    ("sin", "sin"),
    ("cos", "cos"),
    ("tanh", "tanh"),
    ("sqrt", "sqrt"),
];

/// Binary operators: rule suffix, operator written infix (`+`) or as a call (`min`), and
/// the base types it is tested on.
const BINARY: [(&str, &str, &str); 15] = [
    ("add", "+", "RZ"),
    ("sub", "-", "RZ"),
    ("mul", "*", "RZ"),
    ("div", "/", "RZ"),
    ("mod", "%", "Z"),
    ("eq", "==", "RZB"),
    ("ne", "!=", "RZB"),
    ("lt", "<", "RZ"),
    ("le", "<=", "RZ"),
    ("gt", ">", "RZ"),
    ("ge", ">=", "RZ"),
    ("and", "&&", "B"),
    ("or", "||", "B"),
    ("min", "min", "RZ"),
    ("max", "max", "RZ"),
];

fn apply2(op: &str, a: &str, b: &str) -> String {
    if op == "min" || op == "max" {
        format!("{op}({a}, {b})")
    } else {
        format!("({a} {op} {b})")
    }
}

fn result_base(op: &str, base: char) -> char {
    if ["==", "!=", "<", "<=", ">", ">="].contains(&op) {
        'B'
    } else {
        base
    }
}

/// Every rule name with its instance templates.
pub fn templates() -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |name: &str, ts: &[&str]| {
        out.push((
            format!("bot/{name}"),
            ts.iter().map(|s| s.to_string()).collect(),
        ))
    };
    // ---- Fig. 9 ----
    add(
        "build-const",
        &[
            "def main(x: R[{M}], c: R) -> R[{N},{M}] = build {N} (i => x * c)",
            "def main(x: R[{M}], j: Z) -> R[{N}] = build {N} (i => x[j])",
        ],
    );
    add(
        "build-ivar",
        &["def main(x: R) -> Z[{N}] = build {N} (i => i)"],
    );
    add(
        "build-neg",
        &[
            "def main(x: R[{N}]) -> R[{N}] = build {N} (i => -x[i])",
            "def main(x: Z[{N}], c: Z) -> Z[{N}] = build {N} (i => -(x[i] + c))",
        ],
    );
    add(
        "build-not",
        &["def main(p: B[{N}]) -> B[{N}] = build {N} (i => !p[i])"],
    );
    for (name, op) in R_UNARY {
        let t = format!(
            "def main(x: R[{{N}},{{M}}]) -> R[{{N}},{{M}}] = build {{N}} (i => {op}(x[i]))"
        );
        out.push((format!("bot/build-{name}"), vec![t]));
    }
    out.push((
        "bot/build-abs".into(),
        vec![
            "def main(x: R[{N}]) -> R[{N}] = build {N} (i => abs(x[i]))".into(),
            "def main(x: Z[{N}]) -> Z[{N}] = build {N} (i => abs(x[i] - 2))".into(),
        ],
    ));
    out.push((
        "bot/build-floor".into(),
        vec!["def main(x: R[{N}]) -> Z[{N}] = build {N} (i => floor(x[i]))".into()],
    ));
    out.push((
        "bot/build-real".into(),
        vec!["def main(k: Z[{N}]) -> R[{N}] = build {N} (i => real(k[i]))".into()],
    ));
    out.push((
        "bot/build-pow".into(),
        vec!["def main(x: R[{N}]) -> R[{N}] = build {N} (i => pow(x[i], {P}))".into()],
    ));
    for (name, op, bases) in BINARY {
        let mut ts = Vec::new();
        for b in bases.chars() {
            let r = result_base(op, b);
            ts.push(format!(
                "def main(x: {b}[{{N}},{{M}}], y: {b}[{{M}}]) -> {r}[{{N}},{{M}}] = build {{N}} (i => {})",
                apply2(op, "x[i]", "y")
            ));
            ts.push(format!(
                "def main(x: {b}[{{N}}]) -> {r}[{{N}}] = build {{N}} (i => {})",
                apply2(op, "x[i]", "x[{N1} - i]")
            ));
        }
        out.push((format!("bot/build-{name}"), ts));
    }
    let mut add = |name: &str, ts: &[&str]| {
        out.push((
            format!("bot/{name}"),
            ts.iter().map(|s| s.to_string()).collect(),
        ))
    };
    add(
        "build-select",
        &[
            "def main(p: B[{N},{M}], x: R[{N},{M}], y: R[{M}]) -> R[{N},{M}] = build {N} (i => select(p[i], x[i], y))",
            "def main(q: B[{N}], x: R[{N},{M}], y: R[{M}]) -> R[{N},{M}] = build {N} (i => select(q[i], x[i], y))",
            "def main(q: B[{N}], x: R[{N}]) -> R[{N}] = build {N} (i => select(q[i], x[i], 0.5))",
        ],
    );
    add(
        "build-sum",
        &[
            "def main(x: R[{N},{M},{K}]) -> R[{N}] = build {N} (i => sum(x[i]))",
            "def main(x: Z[{N},{M}]) -> Z[{N}] = build {N} (i => sum(x[i]))",
            "def main(x: R[{N}]) -> R[{N}] = build {N} (i => sum(x[i]))",
        ],
    );
    add(
        "build-sum-outer",
        &["def main(x: R[{N},{M},{K}]) -> R[{N},{K}] = build {N} (i => sum_outer(x[i]))"],
    );
    add(
        "build-replicate",
        &["def main(x: R[{N},{K}]) -> R[{N},{M},{K}] = build {N} (i => replicate({M}, x[i]))"],
    );
    add(
        "build-transpose",
        &["def main(x: R[{N},{M},{K}]) -> R[{N},{K},{M}] = build {N} (i => transpose([1, 0], x[i]))"],
    );
    add(
        "build-reshape",
        &["def main(x: R[{N},{M},{K}]) -> R[{N},{MK}] = build {N} (i => reshape([{MK}], x[i]))"],
    );
    add(
        "build-append",
        &["def main(x: R[{N},{M}], y: R[{N},{K}]) -> R[{N},{MpK}] = build {N} (i => append(x[i], y[i]))"],
    );
    add(
        "build-array",
        &["def main(x: R[{N},{M}], y: R[{M}]) -> R[{N},2,{M}] = build {N} (i => [x[i], y])"],
    );
    add(
        "build-stack",
        &["def main(x: R[{N},{M}], y: R[{M}]) -> R[{N},3,{M}] = build {N} (i => stack([x[i], y, x[i]]))"],
    );
    add(
        "build-gather",
        &[
            "def main(x: R[{N},{M}]) -> R[{N},{K}] = build {N} (i => gather([{K}], x[i], k => [k + i]))",
            "def main(y: R[{M}]) -> R[{N},{K}] = build {N} (i => gather([{K}], y, k => [k * i - 1]))",
        ],
    );
    add(
        "build-scatter",
        &[
            "def main(x: R[{N},{K}]) -> R[{N},{M}] = build {N} (i => scatter([{M}], x[i], k => [(k + i) % {M}]))",
            "def main(y: R[{K}]) -> R[{N},{M}] = build {N} (i => scatter([{M}], y, k => [k + i - 1]))",
        ],
    );
    fig10(&mut out);
    out
}

fn fig10(out: &mut Vec<(String, Vec<String>)>) {
    let mut add = |name: &str, ts: Vec<String>| out.push((format!("bot/{name}"), ts));
    let r2 = "x: R[{N},{M}], y: R[{N},{M}], j: Z, k: Z";
    let un = |e: &str, t: &str| {
        vec![format!(
            "def main(x: R[{{N}},{{M}}], j: Z) -> {t}[{{M}}] = ({e})[j]"
        )]
    };
    add("index-neg", un("-x", "R"));
    add(
        "index-not",
        vec!["def main(p: B[{N},{M}], j: Z) -> B[{M}] = (!p)[j]".into()],
    );
    for (name, op) in R_UNARY {
        add(&format!("index-{name}"), un(&format!("{op}(x)"), "R"));
    }
    add("index-abs", un("abs(x)", "R"));
    add("index-floor", un("floor(x)", "Z"));
    add(
        "index-real",
        vec!["def main(x: Z[{N},{M}], j: Z) -> R[{M}] = real(x)[j]".into()],
    );
    add("index-pow", un("pow(x, {P})", "R"));
    for (name, op, bases) in BINARY {
        let mut ts = Vec::new();
        for b in bases.chars() {
            let r = result_base(op, b);
            let e = apply2(op, "x", "y");
            ts.push(format!(
                "def main(x: {b}[{{N}},{{M}}], y: {b}[{{N}},{{M}}], j: Z) -> {r}[{{M}}] = {e}[j]"
            ));
            ts.push(format!(
                "def main(x: {b}[{{N}},{{M}}], y: {b}[{{N}},{{M}}], j: Z, k: Z) -> {r} = {e}[j, k]"
            ));
        }
        add(&format!("index-{name}"), ts);
    }
    let v = |ts: &[&str]| ts.iter().map(|s| s.replace("$R2", r2)).collect::<Vec<_>>();
    add(
        "index-select",
        v(&[
            "def main(p: B[{N},{M}], $R2) -> R[{M}] = select(p, x, y)[j]",
            "def main(q: B, $R2) -> R = select(q, x, y)[j, k]",
        ]),
    );
    add(
        "index-index",
        v(&["def main(x: R[{N},{M},{K}], j: Z, k: Z) -> R[{K}] = x[j][k]"]),
    );
    add(
        "proj-tuple",
        v(&["def main(x: R[{N}], y: R[{M}]) -> R[{M}] = (x, y).1"]),
    );
    add(
        "index-build",
        v(&[
            "def main($R2) -> R[{M}] = (build {N} (i => x[i] * y[{N1} - i]))[j]",
            "def main($R2) -> R[{M}] = (build {N} (i => y[0]))[j]",
            "def main($R2) -> R = (build {N} (i => sum(x[i]) + real(i)))[iota({N})[j]]",
        ]),
    );
    add(
        "index-sum-outer",
        v(&[
            "def main(x: R[{K},{N},{M}], j: Z, k: Z) -> R[{M}] = sum_outer(x)[j]",
            "def main(x: R[{K},{N},{M}], j: Z, k: Z) -> R = sum_outer(x)[j, k]",
        ]),
    );
    add(
        "index-replicate",
        v(&["def main(x: R[{M}], j: Z) -> R[{M}] = replicate({N}, x)[j]"]),
    );
    add(
        "index-transpose",
        v(&[
            "def main($R2) -> R[{N}] = transpose([1, 0], x)[j]",
            "def main($R2) -> R = transpose([1, 0], x)[j, k]",
            "def main(x: R[{N},{M},{K}], j: Z, k: Z) -> R[{K}] = transpose([1, 0, 2], x)[j, k]",
        ]),
    );
    add(
        "index-reshape",
        v(&[
            "def main($R2) -> R[{N}] = reshape([{M}, {N}], x)[j]",
            "def main($R2) -> R = reshape([{NM}], x)[j]",
            "def main(x: R[{N},{M},{K}], j: Z, k: Z) -> R[{N}] = reshape([{M}, {K}, {N}], x)[j, k]",
            "def main(c: R, j: Z) -> R[1] = reshape([1, 1], c)[j]",
        ]),
    );
    add(
        "index-gather",
        v(&[
            "def main($R2) -> R[{K}] = gather([{N}, {K}], x, (a, b) => [a, b + a])[j]",
            "def main($R2) -> R = gather([{K}], x, a => [a % {N}])[j, k]",
            "def main($R2) -> R[{M}] = gather([{K}], x, a => [a - 1])[j]",
        ]),
    );
    add("index-iota", v(&["def main(j: Z) -> Z = iota({N})[j]"]));
    add(
        "index-array",
        v(&[
            "def main(x: R[{M}], y: R[{M}], j: Z) -> R[{M}] = [x, y, x][j]",
            "def main(x: R[{M}], y: R[{M}], j: Z) -> R[{M}] = [x, y][1]",
            "def main(x: R[{M}], y: R[{M}], j: Z) -> R[{M}] = [y, x, y][iota(2)[j]]",
            "def main(x: R[{N},{M}], y: R[{N},{M}], j: Z, k: Z) -> R = [x, y][j, k, 0]",
        ]),
    );
    add(
        "index-stack",
        v(&["def main(x: R[{M}], y: R[{M}], j: Z) -> R[{M}] = stack([x, y])[j]"]),
    );
    add(
        "index-append-decided",
        v(&[
            "def main(x: R[{N},{M}], y: R[{K},{M}], j: Z) -> R[{M}] = append(x, y)[iota({N})[j]]",
            "def main(x: R[{N},{M}], y: R[{K},{M}], j: Z) -> R[{M}] = append(x, y)[{N} + iota({K})[j]]",
        ]),
    );
    fig11_gather(out);
}

fn fig11_gather(out: &mut Vec<(String, Vec<String>)>) {
    let mut add = |name: &str, ts: &[&str]| {
        out.push((
            format!("bot/{name}"),
            ts.iter().map(|s| s.to_string()).collect(),
        ))
    };
    add(
        "build-index-var",
        &[
            "def main(x: R[{M},{K}], j: Z) -> R[{N},{K}] = build {N} (i => x[i * j - 1])",
            "def main(p: (R[{M}], R), j: Z) -> R[{N}] = build {N} (i => p.0[i + j])",
        ],
    );
    add(
        "build-index-const",
        &["def main(j: Z) -> R[{N}] = build {N} (i => [1.5, -2, 0.25][i + j])"],
    );
    add(
        "build-index-free",
        &[
            "def main(x: R[{M}], y: R[{M}], j: Z) -> R[{N}] = build {N} (i => (x * y)[i + j])",
            "def main(x: R[{M},{K}], j: Z) -> R[{N},{M}] = build {N} (i => transpose([1, 0], x)[i - j])",
        ],
    );
    add(
        "build-index-append",
        &["def main(x: R[{N},{M}], y: R[{K}], j: Z) -> R[{N}] = build {N} (i => append(x[i], y)[j])"],
    );
    add(
        "build-index-scatter",
        &["def main(x: R[{N},{K}], j: Z) -> R[{N}] = build {N} (i => scatter([{M}], x[i], k => [(k + j) % {M}])[i % {M}])"],
    );
    add(
        "gather-identity",
        &[
            "def main(x: R[{N},{M}]) -> R[{N},{M}] = gather([{N}], x, a => [a])",
            "def main(x: R[{N},{M}]) -> R[{N},{M}] = gather([{N}, {M}], x, (a, b) => [a, b])",
        ],
    );
    add(
        "gather-unused-binder",
        &[
            "def main(x: R[{N},{M}], j: Z) -> R[{K},{N}] = gather([{K}, {N}], x, (a, b) => [b, j])",
            "def main(x: R[{N},{M}], j: Z) -> R[{K},{M}] = gather([{K}], x, a => [j])",
        ],
    );
    add(
        "gather-trailing-eta",
        &[
            "def main(x: R[{N},{M}], j: Z) -> R[{K},{M}] = gather([{K}, {M}], x, (a, b) => [a + j, b])",
            "def main(x: R[{N}]) -> R[{N}] = gather([{N}], x, a => [a])",
        ],
    );
    add(
        "gather-replicate",
        &[
            "def main(x: R[{M}]) -> R[{K}] = gather([{K}], replicate({N}, x), a => [a % {N}, a % {M}])",
            "def main(x: R[{M}], j: Z) -> R[{K}] = gather([{K}], replicate({N}, x), a => [a + j, a])",
            "def main(x: R[{M}]) -> R[{K},{M}] = gather([{K}], replicate({N}, x), a => [{N} + a])",
        ],
    );
    add(
        "gather-gather",
        &[
            "def main(x: R[{N},{M}]) -> R[{K}] = gather([{K}], gather([{N}], x, a => [{N1} - a]), b => [b % {N}, b % {M}])",
            "def main(x: R[{N},{M}]) -> R[{K},{M}] = gather([{K}], gather([{N}, {M}], x, (a, c) => [a, {M1} - c]), b => [b % {N}])",
        ],
    );
    add(
        "gather-index",
        &["def main(x: R[{N},{M}], j: Z) -> R[{K}] = gather([{K}], x[j], b => [b - 1])"],
    );
    add(
        "gather-transpose",
        &["def main(x: R[{N},{M}], j: Z) -> R[{K}] = gather([{K}], transpose([1, 0], x), b => [b % {M}, j])"],
    );
    add(
        "transpose-transpose",
        &[
            "def main(x: R[{N},{M}]) -> R[{N},{M}] = transpose([1, 0], transpose([1, 0], x))",
            "def main(x: R[{N},{M},{K}]) -> R[{N},{K},{M}] = transpose([1, 0, 2], transpose([2, 0, 1], x))",
        ],
    );
    add(
        "transpose-identity",
        &["def main(x: R[{N},{M}]) -> R[{N},{M}] = transpose([0, 1], x) * 2.0"],
    );
    add(
        "reshape-identity",
        &["def main(x: R[{N},{M}]) -> R[{N},{M}] = reshape([{N}, {M}], x + x)"],
    );
    add(
        "reshape-reshape",
        &[
            "def main(x: R[{N},{M}]) -> R[{M},{N}] = reshape([{M}, {N}], reshape([{NM}], x))",
            "def main(x: R[{N},{M}]) -> R[{N},{M}] = reshape([{N}, {M}], reshape([{M}, {N}], x))",
        ],
    );
}

/// IR-level instances for rules whose left side the concrete syntax cannot write: a
/// program giving the variable tables, and an IR term (over its parameters `v0, v1, ..`)
/// matching the rule at its root.
pub fn ir_instances() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        (
            "bot/gather-to-index",
            "def main(x: R[4,2], j: Z) -> R[2] = x[j]",
            "(gather [] v0 (binders) (ixs v1))",
        ),
        (
            "bot/gather-to-index",
            "def main(x: R[4,2], j: Z) -> R[4,2] = x",
            "(gather [] v0 (binders) (ixs))",
        ),
    ]
}
