//! Parser: built-in function applications and the binding forms (`build`, `gather`,
//! `scatter`, `map`, `reduce`, `scan`, `reduce_by_index`, `scatter_into`) with their
//! lambdas and operators (grammar in the parent module).

use super::{node, syntax, PExpr, PResult, Parser};
use crate::ast::{ExprKind, Lambda, Name, Op, Prim};
use crate::diag::Span;
use crate::lexer::{Keyword, Tok};

/// How the arguments of a built-in are written.
enum Args {
    /// `n` ordinary expression arguments.
    Exprs(usize),
    /// `pow(x, k)`.
    Pow,
    /// `replicate(n, x)`.
    Replicate,
    /// `transpose([..], x)`.
    Transpose,
    /// `reshape([..], x)`.
    Reshape,
    /// `iota(n)`.
    Iota,
    /// `stack([a, b, ...])`.
    Stack,
}

/// The built-in named `name` with its argument form (`Prim::Pow(0)` etc. get their static
/// parameter filled in after parsing).
fn builtin_form(name: &str) -> Option<(Prim, Args)> {
    use Args::Exprs;
    Some(match name {
        "exp" => (Prim::Exp, Exprs(1)),
        "log" => (Prim::Log, Exprs(1)),
        "sin" => (Prim::Sin, Exprs(1)),
        "cos" => (Prim::Cos, Exprs(1)),
        "tanh" => (Prim::Tanh, Exprs(1)),
        "sqrt" => (Prim::Sqrt, Exprs(1)),
        "abs" => (Prim::Abs, Exprs(1)),
        "floor" => (Prim::Floor, Exprs(1)),
        "real" => (Prim::Real, Exprs(1)),
        "min" => (Prim::Min, Exprs(2)),
        "max" => (Prim::Max, Exprs(2)),
        "select" => (Prim::Select, Exprs(3)),
        "sum" => (Prim::Sum, Exprs(1)),
        "sum_outer" => (Prim::SumOuter, Exprs(1)),
        "append" => (Prim::Append, Exprs(2)),
        "pow" => (Prim::Pow(0), Args::Pow),
        "replicate" => (Prim::Replicate(0), Args::Replicate),
        "transpose" => (Prim::Transpose(Vec::new()), Args::Transpose),
        "reshape" => (Prim::Reshape(Vec::new()), Args::Reshape),
        "iota" => (Prim::Iota(0), Args::Iota),
        "stack" => (Prim::Stack, Args::Stack),
        _ => return None,
    })
}

impl Parser<'_> {
    /// A built-in function application (the current token is its name).
    #[inline(never)]
    pub(super) fn builtin(&mut self) -> PExpr {
        let t = self.bump();
        let name = match &t.tok {
            Tok::Ident(n) => n.clone(),
            _ => String::new(),
        };
        let Some((prim, form)) = builtin_form(&name) else {
            return Err(syntax(
                t.span,
                format!("unknown built-in function `{name}`"),
            ));
        };
        if !matches!(self.peek(), Tok::LParen) {
            return Err(syntax(
                t.span,
                format!("built-in function `{name}` must be applied to arguments: expected `(` after it"),
            ));
        }
        self.bump();
        let (prim, args) = match form {
            Args::Exprs(n) => {
                let args = self.expr_list(&Tok::RParen)?;
                if args.len() != n {
                    let plural = if n == 1 { "" } else { "s" };
                    let span = t.span.to(self.span());
                    let mut d = syntax(
                        span,
                        format!("`{name}` takes {n} argument{plural}, found {}", args.len()),
                    );
                    self.reduction_help(&name, &args, &mut d);
                    return Err(d);
                }
                (prim, args)
            }
            Args::Pow => {
                let x = *self.expr()?;
                self.expect(&Tok::Comma)?;
                (Prim::Pow(self.signed_int()?), vec![x])
            }
            Args::Replicate => {
                let n = self.size()?;
                self.expect(&Tok::Comma)?;
                (Prim::Replicate(n), vec![*self.expr()?])
            }
            Args::Transpose | Args::Reshape => {
                let list = self.shape(true)?;
                self.expect(&Tok::Comma)?;
                let x = *self.expr()?;
                let prim = if matches!(form, Args::Transpose) {
                    Prim::Transpose(list)
                } else {
                    Prim::Reshape(list)
                };
                (prim, vec![x])
            }
            Args::Iota => (Prim::Iota(self.size()?), Vec::new()),
            Args::Stack => {
                self.expect(&Tok::LBracket)?;
                let es = self.expr_list(&Tok::RBracket)?;
                self.expect(&Tok::RBracket)?;
                (prim, es)
            }
        };
        let close = self.expect(&Tok::RParen)?;
        Ok(node(ExprKind::Prim(prim, args), t.span.to(close)))
    }

    /// `'build' (SIZE | shape) lambda-arg`.
    #[inline(never)]
    pub(super) fn build(&mut self) -> PExpr {
        let start = self.bump().span;
        let shape = match self.peek() {
            Tok::LBracket => self.shape(false)?,
            _ => vec![self.size_atom()?],
        };
        let (params, parenthesised) = self.lambda_head()?;
        let body = self.expr()?;
        let end = self.lambda_close(parenthesised, body.span)?;
        Ok(node(ExprKind::Build(shape, params, body), start.to(end)))
    }

    /// `('gather' | 'scatter') '(' shape ',' expr ',' index-map ')'`.
    #[inline(never)]
    pub(super) fn gather_scatter(&mut self) -> PExpr {
        let is_gather = matches!(self.peek(), Tok::Kw(Keyword::Gather));
        let start = self.bump().span;
        self.expect(&Tok::LParen)?;
        let shape = self.shape(true)?;
        self.expect(&Tok::Comma)?;
        let x = self.expr()?;
        self.expect(&Tok::Comma)?;
        let (params, parenthesised) = self.lambda_head()?;
        self.enter()?;
        let open = self.expect(&Tok::LBracket)?;
        let ix = if matches!(self.peek(), Tok::RBracket) {
            Vec::new()
        } else {
            self.expr_list(&Tok::RBracket)?
        };
        let close = self.expect(&Tok::RBracket)?;
        self.leave(1);
        self.lambda_close(parenthesised, open.to(close))?;
        let end = self.expect(&Tok::RParen)?;
        let kind = if is_gather {
            ExprKind::Gather(shape, x, params, ix)
        } else {
            ExprKind::Scatter(shape, x, params, ix)
        };
        Ok(node(kind, start.to(end)))
    }

    /// `'map' '(' lambda-arg ',' expr % ',' ')'`.
    #[inline(never)]
    pub(super) fn map(&mut self) -> PExpr {
        let start = self.bump().span;
        self.expect(&Tok::LParen)?;
        let f = self.lambda()?;
        self.expect(&Tok::Comma)?;
        let xs = self.expr_list(&Tok::RParen)?;
        let end = self.expect(&Tok::RParen)?;
        Ok(node(ExprKind::Map(f, xs), start.to(end)))
    }

    /// `('reduce' | 'scan') '(' op ',' expr ',' expr ')'`.
    #[inline(never)]
    pub(super) fn reduce_scan(&mut self) -> PExpr {
        let is_reduce = matches!(self.peek(), Tok::Kw(Keyword::Reduce));
        let start = self.bump().span;
        self.expect(&Tok::LParen)?;
        let op = self.op()?;
        self.expect(&Tok::Comma)?;
        let ne = self.expr()?;
        self.expect(&Tok::Comma)?;
        let xs = self.expr()?;
        let end = self.expect(&Tok::RParen)?;
        let kind = if is_reduce {
            ExprKind::Reduce(op, ne, xs)
        } else {
            ExprKind::Scan(op, ne, xs)
        };
        Ok(node(kind, start.to(end)))
    }

    /// `'reduce_by_index' '(' expr ',' op ',' expr ',' expr ',' expr ')'`.
    #[inline(never)]
    pub(super) fn reduce_by_index(&mut self) -> PExpr {
        let start = self.bump().span;
        self.expect(&Tok::LParen)?;
        let dest = self.expr()?;
        self.expect(&Tok::Comma)?;
        let op = self.op()?;
        self.expect(&Tok::Comma)?;
        let ne = self.expr()?;
        self.expect(&Tok::Comma)?;
        let is = self.expr()?;
        self.expect(&Tok::Comma)?;
        let vs = self.expr()?;
        let end = self.expect(&Tok::RParen)?;
        Ok(node(
            ExprKind::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            },
            start.to(end),
        ))
    }

    /// `'scatter_into' '(' expr ',' expr ',' expr ')'`.
    #[inline(never)]
    pub(super) fn scatter_into(&mut self) -> PExpr {
        let start = self.bump().span;
        self.expect(&Tok::LParen)?;
        let dest = self.expr()?;
        self.expect(&Tok::Comma)?;
        let is = self.expr()?;
        self.expect(&Tok::Comma)?;
        let vs = self.expr()?;
        let end = self.expect(&Tok::RParen)?;
        Ok(node(ExprKind::ScatterInto { dest, is, vs }, start.to(end)))
    }

    /// `op = '+' | '*' | 'min' | 'max' | lambda-arg`.
    fn op(&mut self) -> PResult<Op> {
        let op = match self.peek() {
            Tok::Plus => Op::Add,
            Tok::Star => Op::Mul,
            Tok::Ident(n) if n == "min" => Op::Min,
            Tok::Ident(n) if n == "max" => Op::Max,
            Tok::LParen | Tok::Ident(_) => return Ok(Op::Lambda(self.lambda()?)),
            _ => return Err(self.unexpected("an operator (`+`, `*`, `min`, `max` or a lambda)")),
        };
        self.bump();
        Ok(op)
    }

    /// `lambda-arg = '(' lambda ')' | lambda`.
    fn lambda(&mut self) -> PResult<Lambda> {
        let (params, parenthesised) = self.lambda_head()?;
        let body = self.expr()?;
        self.lambda_close(parenthesised, body.span)?;
        Ok(Lambda { params, body })
    }

    /// Reads `[ '(' ] binders '=>'`; says whether the lambda is parenthesised (it is when
    /// it starts with `( NAME =>` or `( (`).
    fn lambda_head(&mut self) -> PResult<(Vec<Name>, bool)> {
        let parenthesised = matches!(self.peek(), Tok::LParen)
            && (matches!(self.peek_at(1), Tok::LParen)
                || (matches!(self.peek_at(1), Tok::Ident(_))
                    && matches!(self.peek_at(2), Tok::FatArrow)));
        if parenthesised {
            self.bump();
        }
        let params = if self.eat(&Tok::LParen).is_some() {
            // `() => e`: no binders (a gather to a rank-0 shape).
            if self.eat(&Tok::RParen).is_some() {
                Vec::new()
            } else {
                self.names_until_rparen()?
            }
        } else if matches!(self.peek(), Tok::Ident(_)) {
            vec![self.name()?.0]
        } else {
            return Err(self.unexpected("a lambda (`i => e` or `(i, j) => e`)"));
        };
        self.expect(&Tok::FatArrow)?;
        Ok((params, parenthesised))
    }

    /// Closes a parenthesised lambda; returns the end of the lambda's text.
    fn lambda_close(&mut self, parenthesised: bool, body: Span) -> PResult<Span> {
        if parenthesised {
            self.expect(&Tok::RParen)
        } else {
            Ok(body)
        }
    }
}
