//! The text of a plan (`adora show F --stage plan`; docs/backend.md, "Reading a plan").

use super::sx::{Bin, Sx, Un};
use super::{KernelKind, Output, Plan, RedOp, Step, Zeros};
use std::fmt::Write;

fn un(op: Un) -> String {
    match op {
        Un::Neg => "-".into(),
        Un::Not => "!".into(),
        Un::Exp => "exp".into(),
        Un::Log => "log".into(),
        Un::Sin => "sin".into(),
        Un::Cos => "cos".into(),
        Un::Tanh => "tanh".into(),
        Un::Sqrt => "sqrt".into(),
        Un::Abs => "abs".into(),
        Un::Floor => "floor".into(),
        Un::PowR(k) => format!("pow_r[{k}]"),
        Un::PowZ(k) => format!("pow_z[{k}]"),
    }
}

/// The infix symbol or function name of a binary operation.
pub fn bin(op: Bin) -> &'static str {
    match op {
        Bin::Add => "+",
        Bin::Sub => "-",
        Bin::Mul => "*",
        Bin::DivR => "/",
        Bin::DivZ => "div_z",
        Bin::ModZ => "mod_z",
        Bin::Eq => "==",
        Bin::Ne => "!=",
        Bin::Lt => "<",
        Bin::Le => "<=",
        Bin::Gt => ">",
        Bin::Ge => ">=",
        Bin::And => "&&",
        Bin::Or => "||",
        Bin::Min => "min",
        Bin::Max => "max",
    }
}

fn red(op: RedOp) -> &'static str {
    match op {
        RedOp::Add => "+",
        RedOp::Mul => "*",
        RedOp::Min => "min",
        RedOp::Max => "max",
    }
}

/// A scalar expression as text.
pub fn sx(s: &Sx) -> String {
    match s {
        Sx::Const(c) => format!("{c:?}"),
        Sx::Var(v) => format!("v{v}"),
        Sx::Load(b, _, ix) => format!("b{b}[{}]", ix.iter().map(sx).collect::<Vec<_>>().join(", ")),
        Sx::Un(op, a) => format!("{}({})", un(*op), sx(a)),
        Sx::Bin(op, a, b) => match op {
            Bin::DivZ | Bin::ModZ | Bin::Min | Bin::Max => {
                format!("{}({}, {})", bin(*op), sx(a), sx(b))
            }
            _ => format!("({} {} {})", sx(a), bin(*op), sx(b)),
        },
        Sx::Select(c, a, b) => format!("({} ? {} : {})", sx(c), sx(a), sx(b)),
        Sx::Let(v, a, b) => format!("(let v{v} = {} in {})", sx(a), sx(b)),
        Sx::Fold {
            var,
            count,
            acc,
            init,
            body,
        } => format!(
            "fold(v{acc} = {} for v{var} < {count}: {})",
            sx(init),
            sx(body)
        ),
    }
}

fn vars(vs: &[u32]) -> String {
    vs.iter()
        .map(|v| format!("v{v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn steps(p: &Plan, ss: &[Step], indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    for s in ss {
        match s {
            Step::Kernel(k) => {
                let b = &p.buffers[k.out];
                let head = format!("{pad}{} -> b{} {:?}", k.name, k.out, b.shape);
                let ctr: String = k
                    .counters
                    .iter()
                    .map(|(v, c)| format!(" v{v}=loop{c}"))
                    .collect();
                let _ = match &k.kind {
                    KernelKind::Map { vars: vs, body } => {
                        writeln!(out, "{head}:{ctr} map [{}] = {}", vars(vs), sx(body))
                    }
                    KernelKind::Reduce {
                        vars: vs,
                        red_vars,
                        red: r,
                        op,
                        init,
                        body,
                    } => writeln!(
                        out,
                        "{head}:{ctr} reduce [{}] = {} {} over [{}] < {:?}: {}",
                        vars(vs),
                        sx(init),
                        red(*op),
                        vars(red_vars),
                        r,
                        sx(body)
                    ),
                    KernelKind::Scan {
                        vars: vs,
                        k: kv,
                        acc,
                        init,
                        step,
                    } => writeln!(
                        out,
                        "{head}:{ctr} scan [v{kv}, {}] from v{acc} = {}: {}",
                        vars(vs),
                        sx(init),
                        sx(step)
                    ),
                    KernelKind::Scatter {
                        vars: vs,
                        src,
                        index,
                        value,
                    } => writeln!(
                        out,
                        "{head}:{ctr} scatter over [{}] < {:?}: [{}] += {}",
                        vars(vs),
                        src,
                        index.iter().map(sx).collect::<Vec<_>>().join(", "),
                        sx(value)
                    ),
                    KernelKind::MatMul {
                        a,
                        ta,
                        b: bb,
                        tb,
                        m,
                        n,
                        k: kk,
                    } => writeln!(
                        out,
                        "{head}: matmul b{a}{} · b{bb}{} ({m} × {kk} · {kk} × {n})",
                        if *ta { "ᵀ" } else { "" },
                        if *tb { "ᵀ" } else { "" }
                    ),
                    KernelKind::Batched {
                        a,
                        b: bb,
                        count,
                        m,
                        n,
                        k: kk,
                        sa,
                        sb,
                        so,
                        zeros,
                        ..
                    } => {
                        let ms = match zeros {
                            Zeros::Masks(ms) => *ms,
                            _ => [None, None],
                        };
                        let mask = |m: Option<usize>| {
                            m.map(|m| format!(" (mask b{m})")).unwrap_or_default()
                        };
                        writeln!(
                            out,
                            "{head}: batched matmul {count} × (b{a}{} · b{bb}{}) ({m} × {kk} · {kk} × {n}), strides a {sa:?} b {sb:?} out {so:?}{}",
                            mask(ms[0]),
                            mask(ms[1]),
                            if *zeros == Zeros::Exact { ", zeros by the reduction" } else { "" }
                        )
                    }
                };
            }
            Step::Loop {
                counter,
                count,
                body,
                carry,
            } => {
                let _ = writeln!(out, "{pad}loop{counter} for 0 <= i < {count}:");
                steps(p, body, indent + 1, out);
                for (f, t) in carry {
                    let _ = writeln!(out, "{pad}  b{t} <- b{f}");
                }
            }
        }
    }
}

fn output(o: &Output) -> String {
    match o {
        Output::Buf(b) => format!("b{b}"),
        Output::Tuple(os) => format!("({})", os.iter().map(output).collect::<Vec<_>>().join(", ")),
    }
}

/// The plan as text: inputs, steps, result, the memory plan and the counted traffic.
pub fn show(p: &Plan) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "plan {}", p.name);
    let ins: Vec<String> = p.inputs.iter().map(output).collect();
    let _ = writeln!(out, "inputs: {}", ins.join(", "));
    steps(p, &p.steps, 1, &mut out);
    let _ = writeln!(out, "result: {} : {}", output(&p.output), p.ret);
    let (all, used) = p.footprint();
    let _ = writeln!(
        out,
        "memory: {} buffers ({} elements) in {} slots ({} elements)",
        p.buffers.len(),
        all,
        p.slots.len(),
        used
    );
    let t = super::traffic(p);
    let _ = writeln!(
        out,
        "traffic: {} bytes per call ({} kernel launches, {} bytes of loop copies)",
        t.total,
        t.kernels.iter().map(|k| k.launches).sum::<u64>(),
        t.carry_bytes
    );
    for (k, b) in p.buffers.iter().enumerate() {
        let _ = writeln!(out, "  b{k}: {}{:?} slot {}", b.base, b.shape, b.slot);
    }
    out
}
