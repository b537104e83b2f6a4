//! The layout engine of the pretty-printer: precedences, parenthesisation and line
//! breaking (the rules are listed in the parent module's documentation).

use super::{lit, SizeNames};
use crate::ast::{BinOp, Expr, ExprKind, Lit, Name, Op, Pat, Prim, UnOp};

/// Precedence of the open (prefix) forms `let`, `if`, `loop`: they extend to the right.
const OPEN: u8 = 0;
/// Precedence of unary expressions.
const UNARY: u8 = 6;
/// Precedence of indexing and projection.
const POSTFIX: u8 = 7;
/// Precedence of atoms.
const ATOM: u8 = 8;
/// Most nodes (condition and branches together) of an `if` printed on one line.
const SMALL: usize = 16;
/// Node budget of the "prints on one line" test that decides line breaks.
const FLAT: usize = 400;

/// The operator's symbol ([`BinOp::symbol`]) and precedence.
fn binop_info(op: BinOp) -> (&'static str, u8) {
    let prec = match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 3,
        BinOp::Add | BinOp::Sub => 4,
        BinOp::Mul | BinOp::Div | BinOp::Mod => 5,
    };
    (op.symbol(), prec)
}

fn prec(e: &ExprKind) -> u8 {
    match e {
        ExprKind::Let(..) | ExprKind::If(..) | ExprKind::Loop { .. } => OPEN,
        ExprKind::Binary(op, ..) => binop_info(*op).1,
        ExprKind::Unary(..) => UNARY,
        ExprKind::Index(..) | ExprKind::Proj(..) => POSTFIX,
        _ => ATOM,
    }
}

/// Whether `e` prints on one line — it has no `let` or `loop`, and every `if` in it is
/// small — and has at most `budget` nodes (a bounded search, so layout decisions stay
/// linear overall).
fn flat(e: &Expr, budget: usize) -> bool {
    let mut left = budget;
    flat_rec(e, &mut left)
}

fn flat_rec(e: &Expr, left: &mut usize) -> bool {
    if *left == 0 {
        return false;
    }
    *left -= 1;
    let all = |es: &[&Expr], left: &mut usize| es.iter().all(|c| flat_rec(c, left));
    match &e.kind {
        ExprKind::Let(..) | ExprKind::Loop { .. } => false,
        // A small `if` prints on one line.
        ExprKind::If(c, a, b) => {
            let before = *left;
            all(&[&**c, &**a, &**b], left) && before - *left <= SMALL
        }
        ExprKind::Var(_) | ExprKind::Lit(_) => true,
        ExprKind::Array(es)
        | ExprKind::Tuple(es)
        | ExprKind::Call(_, es)
        | ExprKind::Prim(_, es) => es.iter().all(|c| flat_rec(c, left)),
        ExprKind::Proj(a, _) | ExprKind::Unary(_, a) => flat_rec(a, left),
        ExprKind::Binary(_, a, b) => all(&[&**a, &**b], left),
        ExprKind::Index(a, is) => flat_rec(a, left) && is.iter().all(|c| flat_rec(c, left)),
        ExprKind::Build(_, _, b) => flat_rec(b, left),
        ExprKind::Gather(_, x, _, ix) | ExprKind::Scatter(_, x, _, ix) => {
            flat_rec(x, left) && ix.iter().all(|c| flat_rec(c, left))
        }
        ExprKind::Map(f, xs) => flat_rec(&f.body, left) && xs.iter().all(|c| flat_rec(c, left)),
        ExprKind::Reduce(op, ne, xs) | ExprKind::Scan(op, ne, xs) => {
            op_flat(op, left) && all(&[&**ne, &**xs], left)
        }
        ExprKind::ReduceByIndex {
            dest,
            op,
            ne,
            is,
            vs,
        } => op_flat(op, left) && all(&[&**dest, &**ne, &**is, &**vs], left),
        ExprKind::ScatterInto { dest, is, vs } => all(&[&**dest, &**is, &**vs], left),
    }
}

fn op_flat(op: &Op, left: &mut usize) -> bool {
    match op {
        Op::Lambda(l) => flat_rec(&l.body, left),
        _ => true,
    }
}

/// Output buffer and current indentation (in spaces).
pub(super) struct Printer {
    /// The text printed so far.
    pub(super) out: String,
    /// Indentation of the next line.
    pub(super) indent: usize,
    /// Sizes printed as size names instead of numbers ([`super::def_with_size_names`]).
    pub(super) size_names: SizeNames,
}

impl Printer {
    fn s(&mut self, text: &str) {
        self.out.push_str(text);
    }

    pub(super) fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push(' ');
        }
    }

    /// `e` in tail position at the current indentation (a `let` chain stays aligned).
    pub(super) fn block(&mut self, e: &Expr) {
        self.bare(e);
    }

    /// `e` where only expressions of precedence `>= min` may stand unparenthesised.
    fn sub(&mut self, e: &Expr, min: u8) {
        let p = prec(&e.kind);
        let open = p == OPEN;
        if open {
            self.indent += 2;
        }
        if p < min {
            self.s("(");
            self.bare(e);
            self.s(")");
        } else {
            self.bare(e);
        }
        if open {
            self.indent -= 2;
        }
    }

    /// The base of an indexing or a projection.
    fn postfix_base(&mut self, e: &Expr) {
        if matches!(e.kind, ExprKind::Lit(_)) {
            self.s("(");
            self.bare(e);
            self.s(")");
        } else {
            self.sub(e, POSTFIX);
        }
    }

    fn list(&mut self, es: &[Expr]) {
        for (k, e) in es.iter().enumerate() {
            if k > 0 {
                self.s(", ");
            }
            self.sub(e, OPEN);
        }
    }

    /// A static size: its name when it has one, else the number.
    fn size(&self, n: usize) -> String {
        match self.size_names.get(&n) {
            Some(name) => name.clone(),
            None => n.to_string(),
        }
    }

    fn numbers(&mut self, ns: &[usize]) {
        let parts: Vec<String> = ns.iter().map(|n| self.size(*n)).collect();
        self.s(&format!("[{}]", parts.join(", ")));
    }

    fn binders(&mut self, names: &[Name]) {
        if names.len() == 1 {
            self.s(&names[0]);
        } else {
            self.s(&format!("({})", names.join(", ")));
        }
    }

    fn pat(&mut self, p: &Pat) {
        match p {
            Pat::Var(n) => self.s(n),
            Pat::Tuple(ns) => self.s(&format!("({})", ns.join(", "))),
        }
    }

    /// `binders => body`, breaking after `=>` when the body has open forms.
    fn lambda(&mut self, params: &[Name], body: &Expr) {
        self.binders(params);
        self.s(" =>");
        if flat(body, FLAT) {
            self.s(" ");
            self.sub(body, OPEN);
        } else {
            self.indent += 2;
            self.newline();
            self.block(body);
            self.indent -= 2;
        }
    }

    fn op(&mut self, op: &Op) {
        match op {
            Op::Add => self.s("+"),
            Op::Mul => self.s("*"),
            Op::Min => self.s("min"),
            Op::Max => self.s("max"),
            Op::Lambda(l) => self.lambda(&l.params, &l.body),
        }
    }

    fn unary(&mut self, op: UnOp, a: &Expr) {
        self.s(op.symbol());
        // A `-` before a number would read back as a negative literal, so `-(3)`; `inf`
        // and `nan` are no numbers, and `-inf` reads back as this negation.
        let starts_with_minus = match &a.kind {
            ExprKind::Lit(Lit::NonFinite(_)) => false,
            ExprKind::Lit(l) => op == UnOp::Neg || lit(l).starts_with('-'),
            ExprKind::Unary(UnOp::Neg, _) => true,
            _ => false,
        };
        if starts_with_minus && op == UnOp::Neg {
            self.s("(");
            self.bare(a);
            self.s(")");
        } else {
            self.sub(a, UNARY);
        }
    }

    fn bare(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(n) => self.s(n),
            ExprKind::Lit(l) => self.s(&lit(l)),
            ExprKind::Array(es) => {
                self.s("[");
                self.list(es);
                self.s("]");
            }
            ExprKind::Tuple(es) => {
                self.s("(");
                self.list(es);
                self.s(")");
            }
            ExprKind::Proj(a, k) => {
                self.postfix_base(a);
                self.s(&format!(".{k}"));
            }
            ExprKind::Index(a, is) => {
                self.postfix_base(a);
                self.s("[");
                self.list(is);
                self.s("]");
            }
            ExprKind::Unary(op, a) => self.unary(*op, a),
            ExprKind::Binary(op, a, b) => {
                let (sym, p) = binop_info(*op);
                let left_min = if p == 3 { p + 1 } else { p };
                self.sub(a, left_min);
                self.s(&format!(" {sym} "));
                self.sub(b, p + 1);
            }
            ExprKind::Call(f, args) => {
                self.s(f);
                self.s("(");
                self.list(args);
                self.s(")");
            }
            ExprKind::Prim(p, args) => self.prim(p, args),
            ExprKind::Let(p, rhs, body) => self.let_expr(p, rhs, body),
            ExprKind::If(c, a, b) => self.if_expr(c, a, b),
            ExprKind::Loop {
                acc,
                init,
                var,
                count,
                body,
            } => {
                self.s("loop (");
                self.pat(acc);
                self.s(" = ");
                self.sub(init, OPEN);
                let count = self.size(*count);
                self.s(&format!(") for {var} < {count} do"));
                self.indent += 2;
                self.newline();
                self.block(body);
                self.indent -= 2;
            }
            _ => self.form(e),
        }
    }

    /// The binding forms.
    fn form(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Build(sh, names, body) => {
                self.s("build ");
                if sh.len() == 1 {
                    let n = self.size(sh[0]);
                    self.s(&n);
                } else {
                    self.numbers(sh);
                }
                self.s(" (");
                self.lambda(names, body);
                self.s(")");
            }
            ExprKind::Gather(sh, x, names, ix) | ExprKind::Scatter(sh, x, names, ix) => {
                let kw = if matches!(e.kind, ExprKind::Gather(..)) {
                    "gather("
                } else {
                    "scatter("
                };
                self.s(kw);
                self.numbers(sh);
                self.s(", ");
                self.sub(x, OPEN);
                self.s(", ");
                self.binders(names);
                self.s(" => [");
                self.list(ix);
                self.s("])");
            }
            ExprKind::Map(f, xs) => {
                self.s("map(");
                self.lambda(&f.params, &f.body);
                self.s(", ");
                self.list(xs);
                self.s(")");
            }
            ExprKind::Reduce(op, ne, xs) | ExprKind::Scan(op, ne, xs) => {
                let kw = if matches!(e.kind, ExprKind::Reduce(..)) {
                    "reduce("
                } else {
                    "scan("
                };
                self.s(kw);
                self.op(op);
                self.s(", ");
                self.sub(ne, OPEN);
                self.s(", ");
                self.sub(xs, OPEN);
                self.s(")");
            }
            ExprKind::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => {
                self.s("reduce_by_index(");
                self.sub(dest, OPEN);
                self.s(", ");
                self.op(op);
                for a in [ne, is, vs] {
                    self.s(", ");
                    self.sub(a, OPEN);
                }
                self.s(")");
            }
            ExprKind::ScatterInto { dest, is, vs } => {
                self.s("scatter_into(");
                self.sub(dest, OPEN);
                for a in [is, vs] {
                    self.s(", ");
                    self.sub(a, OPEN);
                }
                self.s(")");
            }
            // Every other form is printed by `bare`, which never sends it here.
            _ => {}
        }
    }

    fn prim(&mut self, p: &Prim, args: &[Expr]) {
        self.s(p.name());
        self.s("(");
        match p {
            Prim::Pow(k) => {
                self.list(args);
                self.s(&format!(", {k}"));
            }
            Prim::Replicate(n) => {
                let n = self.size(*n);
                self.s(&format!("{n}, "));
                self.list(args);
            }
            Prim::Transpose(ns) | Prim::Reshape(ns) => {
                self.numbers(ns);
                self.s(", ");
                self.list(args);
            }
            Prim::Iota(n) => {
                let n = self.size(*n);
                self.s(&n);
            }
            Prim::Stack => {
                self.s("[");
                self.list(args);
                self.s("]");
            }
            _ => self.list(args),
        }
        self.s(")");
    }

    fn let_expr(&mut self, p: &Pat, rhs: &Expr, body: &Expr) {
        self.s("let ");
        self.pat(p);
        if flat(rhs, FLAT) {
            self.s(" = ");
            self.sub(rhs, OPEN);
            self.s(" in");
        } else {
            self.s(" =");
            self.indent += 2;
            self.newline();
            self.block(rhs);
            self.indent -= 2;
            self.newline();
            self.s("in");
        }
        self.newline();
        self.block(body);
    }

    fn if_expr(&mut self, c: &Expr, a: &Expr, b: &Expr) {
        let mut left = SMALL;
        if flat_rec(c, &mut left) && flat_rec(a, &mut left) && flat_rec(b, &mut left) {
            self.s("if ");
            self.sub(c, OPEN);
            self.s(" then ");
            self.sub(a, OPEN);
            self.s(" else ");
            self.sub(b, OPEN);
            return;
        }
        self.s("if ");
        self.sub(c, OPEN);
        self.s(" then");
        self.indent += 2;
        self.newline();
        self.block(a);
        self.indent -= 2;
        self.newline();
        self.s("else");
        if matches!(b.kind, ExprKind::If(..)) {
            self.s(" ");
            self.block(b);
        } else {
            self.indent += 2;
            self.newline();
            self.block(b);
            self.indent -= 2;
        }
    }
}
