//! Printer of Linear A: the output parses back ([`super::parse`]) to the same program
//! (spans aside) for every program the checker accepts.
//!
//! Layout: a `def` header on one line, then the body indented by two spaces, one `let`
//! per line (`let p = e in`); a bound expression that is itself a `let` is printed as a
//! parenthesised block (`let p = (`, the block indented, `) in`).

use super::ast::{Atom, Binders, LExpr, LKind, LinearDef, LinearProgram, Op};
use crate::ast::{Lit, Param, Prim};
use crate::types::Type;

/// Prints a whole program (defs separated by blank lines, ending with a newline).
pub fn program(p: &LinearProgram) -> String {
    p.defs.iter().map(def).collect::<Vec<_>>().join("\n")
}

fn params(ps: &[Param]) -> String {
    ps.iter()
        .map(|p| format!("{}: {}", p.name, p.ty))
        .collect::<Vec<_>>()
        .join(", ")
}

fn types(ts: &[Type]) -> String {
    ts.iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Prints one def (ending with a newline).
pub fn def(d: &LinearDef) -> String {
    let lps = if d.lparams.is_empty() {
        String::new()
    } else {
        format!(" ; {}", params(&d.lparams))
    };
    let mut out = format!(
        "def {}({}{}) -> {} =\n",
        d.name,
        params(&d.params),
        lps,
        ret_list(&types(&d.ret), &types(&d.lret))
    );
    block(&mut out, &d.body, 2);
    out.push('\n');
    out
}

/// Prints one expression as a block at indentation 0 (no trailing newline).
pub fn expr(e: &LExpr) -> String {
    let mut out = String::new();
    block(&mut out, e, 0);
    out
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn block(out: &mut String, e: &LExpr, indent: usize) {
    let mut cur = e;
    loop {
        match &cur.kind {
            LKind::Let(b, bound, body) => {
                pad(out, indent);
                out.push_str(&format!("let {} = ", binders(b)));
                bound_expr(out, bound, indent);
                out.push_str(" in\n");
                cur = body;
            }
            LKind::Unpack(names, t, body) => {
                pad(out, indent);
                out.push_str(&format!("let ({}) = {t} in\n", names.join(", ")));
                cur = body;
            }
            _ => {
                pad(out, indent);
                out.push_str(&simple(cur));
                return;
            }
        }
    }
}

fn bound_expr(out: &mut String, e: &LExpr, indent: usize) {
    if matches!(e.kind, LKind::Let(..) | LKind::Unpack(..)) {
        out.push_str("(\n");
        block(out, e, indent + 2);
        out.push('\n');
        pad(out, indent);
        out.push(')');
    } else {
        out.push_str(&simple(e));
    }
}

/// A pattern: `x`, `()`, or `(a, b ; dc)`.
pub fn binders(b: &Binders) -> String {
    match (b.nl.len(), b.lin.len()) {
        (1, 0) => b.nl[0].clone(),
        (0, 1) => b.lin[0].clone(),
        (0, 0) => "()".into(),
        _ => ret_list(&b.nl.join(", "), &b.lin.join(", ")),
    }
}

fn ret_list(nl: &str, lin: &str) -> String {
    match (nl.is_empty(), lin.is_empty()) {
        (true, true) => "(;)".into(),
        (false, true) => format!("({nl} ;)"),
        (true, false) => format!("(; {lin})"),
        (false, false) => format!("({nl} ; {lin})"),
    }
}

/// An atom: a name or a literal.
pub fn atom(a: &Atom) -> String {
    match a {
        Atom::Var(n) => n.clone(),
        Atom::Lit(l) => lit(l),
    }
}

fn lit(l: &Lit) -> String {
    crate::pretty::lit(l)
}

fn atoms(args: &[Atom]) -> String {
    args.iter().map(atom).collect::<Vec<_>>().join(", ")
}

fn shape(sh: &[usize]) -> String {
    format!(
        "[{}]",
        sh.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A non-`let` expression on one line.
pub fn simple(e: &LExpr) -> String {
    match &e.kind {
        LKind::Ret(a, l) => ret_list(&atoms(a), &l.join(", ")),
        LKind::Call(f, a, l) => {
            let nl = atoms(a);
            match (nl.is_empty(), l.is_empty()) {
                (_, true) => format!("{f}({nl})"),
                (true, false) => format!("{f}(; {})", l.join(", ")),
                (false, false) => format!("{f}({nl} ; {})", l.join(", ")),
            }
        }
        LKind::Dup(x) => format!("dup({x})"),
        LKind::Drop(x) => format!("drop({x})"),
        LKind::Op { op, args, .. } => op_text(op, args),
        LKind::Let(..) | LKind::Unpack(..) => format!("({})", expr(e)),
    }
}

fn arg(args: &[Atom], k: usize) -> String {
    args.get(k).map(atom).unwrap_or_else(|| "?".into())
}

/// An operation applied to its arguments.
pub fn op_text(op: &Op, args: &[Atom]) -> String {
    match op {
        Op::Id => arg(args, 0),
        Op::Zero(t) => format!("zero({t})"),
        Op::Tuple => format!("({})", atoms(args)),
        Op::Unary(u) => match args.first() {
            Some(Atom::Var(v)) => format!("{}{v}", u.symbol()),
            _ => format!("{} {}", u.symbol(), arg(args, 0)),
        },
        Op::Binary(b) => format!("{} {} {}", arg(args, 0), b.symbol(), arg(args, 1)),
        Op::Prim(p) => match p {
            Prim::Pow(k) => format!("pow({}, {k})", arg(args, 0)),
            Prim::Replicate(n) => format!("replicate({n}, {})", arg(args, 0)),
            Prim::Transpose(sh) => format!("transpose({}, {})", shape(sh), arg(args, 0)),
            Prim::Reshape(sh) => format!("reshape({}, {})", shape(sh), arg(args, 0)),
            Prim::Iota(n) => format!("iota({n})"),
            Prim::Stack => format!("stack([{}])", atoms(args)),
            _ => format!("{}({})", p.name(), atoms(args)),
        },
        Op::Array => format!("[{}]", atoms(args)),
        Op::Index => format!("{}[{}]", arg(args, 0), atoms(args.get(1..).unwrap_or(&[]))),
        Op::Gather(sh, bs, ix) | Op::Scatter(sh, bs, ix) => {
            let name = if matches!(op, Op::Gather(..)) {
                "gather"
            } else {
                "scatter"
            };
            let bs = if bs.len() == 1 {
                bs[0].clone()
            } else {
                format!("({})", bs.join(", "))
            };
            let ix: Vec<String> = ix.iter().map(crate::pretty::expr).collect();
            format!(
                "{name}({}, {}, {bs} => [{}])",
                shape(sh),
                arg(args, 0),
                ix.join(", ")
            )
        }
        Op::OneHot(sh) => format!("one_hot({}, {})", shape(sh), atoms(args)),
        Op::Split(n) => format!("split({n}, {})", arg(args, 0)),
    }
}
