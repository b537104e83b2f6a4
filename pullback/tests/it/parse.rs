//! The parser: binding, sugar, errors with positions, the nesting limit, and the round
//! trip `parse(print(t)) ≡α t` on many random terms.

use adora_core::diag::ErrorKind;
use adora_pullback::parse;
use adora_pullback::syntax::{FnSym, Fresh, Term, TermKind, Ty, Var};
use adora_semantics::Rat;

fn p(src: &str) -> Term {
    parse::term(src).unwrap_or_else(|d| panic!("{src}: {}", d.render("t.adp", src)))
}

#[test]
fn binders_get_fresh_ids_and_occurrences_resolve_to_them() {
    let t = p(r"\x. \x. (x, y)");
    let TermKind::Lam(x1, _, b) = &t.kind else {
        panic!()
    };
    let TermKind::Lam(x2, _, b) = &b.kind else {
        panic!()
    };
    assert_ne!(x1.id, x2.id);
    assert!(x1.id > 0 && x2.id > 0);
    let TermKind::Pair(a, c) = &b.kind else {
        panic!()
    };
    assert!(matches!(&a.kind, TermKind::Var(v) if v == x2));
    assert!(matches!(&c.kind, TermKind::Var(v) if v.id == 0 && &*v.name == "y"));
}

#[test]
fn let_binds_in_the_body_only() {
    let t = p("let x = x in x");
    let TermKind::Let(x, s, body) = &t.kind else {
        panic!()
    };
    assert!(matches!(&s.kind, TermKind::Var(v) if v.id == 0));
    assert!(matches!(&body.kind, TermKind::Var(v) if v == x));
}

#[test]
fn precedence_application_projection_sum_and_types() {
    let t = p(r"\z: (R, R) -> dual R. f z.0 z.1 + g (h z) + zero");
    let expect = r"\z: (R, R) -> dual R. f z.0 z.1 + g (h z)";
    assert_eq!(t.to_string(), expect);
    assert_eq!(
        parse::ty("dual (R -> R) -> R").unwrap().to_string(),
        "dual (R -> R) -> R"
    );
    assert_eq!(parse::ty("(R, R, R)").unwrap(), Ty::reals(3));
}

#[test]
fn sugar_pattern_lambda_omega_tuples_and_comments() {
    let t = p("-- a comment\n\\(x, y). mul (x, y) -- trailing\n");
    assert_eq!(t.to_string(), r"\p. mul (p.0, p.1)");
    let o = p("omega");
    let mut f = Fresh::starting_at(1);
    assert!(o.alpha_eq(&Term::omega(&mut f)));
    assert_eq!(
        p("sel_lt (1, 2, 3, 4)").to_string(),
        "sel_lt (1, (2, (3, 4)))"
    );
    let l = p("let (a, b) = (1, 2) in add (b, a)");
    assert_eq!(l.to_string(), "let p = (1, 2) in add (p.1, p.0)");
}

#[test]
fn numerals_symbols_and_spans() {
    let t = p("pow<-2> (-1/2) + 0.25 + 3");
    let TermKind::Sum(items) = &t.kind else {
        panic!()
    };
    assert!(matches!(items[0].kind, TermKind::App(..)));
    let half = Rat::new((-1).into(), 2.into());
    assert!(matches!(&items[0].kind, TermKind::App(f, a)
        if matches!(f.kind, TermKind::Fn(FnSym::Pow(-2))) && matches!(&a.kind, TermKind::Num(r) if *r == half)));
    assert!(matches!(&items[1].kind, TermKind::Num(r) if *r == Rat::new(1.into(), 4.into())));
    let src = "add (x, 1)";
    let t = p(src);
    assert_eq!((t.span.start, t.span.end), (0, src.len()));
    let TermKind::App(_, arg) = &t.kind else {
        panic!()
    };
    assert_eq!(&src[arg.span.start..arg.span.end], "(x, 1)");
}

fn err(src: &str, closed: bool) -> (ErrorKind, usize, String) {
    let r = if closed {
        parse::term_closed(src)
    } else {
        parse::term(src)
    };
    let d = r.expect_err(src);
    (d.kind, d.span.start, d.message)
}

#[test]
fn errors_have_kinds_and_positions() {
    let (k, at, m) = err(r"\x. mul (x, ", false);
    assert_eq!((k, at), (ErrorKind::Syntax, 12), "{m}");
    let (k, at, m) = err(r"\x. add (x, y)", true);
    assert_eq!((k, at), (ErrorKind::Name, 12));
    assert!(m.contains("unbound name `y`"), "{m}");
    let (k, at, m) = err("foo<3> 1", false);
    assert_eq!((k, at), (ErrorKind::Name, 0));
    assert!(m.contains("unknown function symbol"), "{m}");
    let (k, at, _) = err("(1, 2).2", false);
    assert_eq!((k, at), (ErrorKind::Syntax, 7));
    let (k, at, _) = err("let x = 1 x", false);
    assert_eq!((k, at), (ErrorKind::Syntax, 11));
    let (k, at, _) = err(r"\x: Q. x", false);
    assert_eq!((k, at), (ErrorKind::Syntax, 4));
    let (k, at, _) = err("1 # 2", false);
    assert_eq!((k, at), (ErrorKind::Syntax, 2));
    let (k, _, _) = err("pow", false);
    assert_eq!(k, ErrorKind::Syntax);
    let (k, at, _) = err("J(1)", false);
    assert_eq!((k, at), (ErrorKind::Syntax, 3));
}

#[test]
fn deep_nesting_is_a_resource_error_not_a_stack_overflow() {
    let n = 100_000;
    let cases = [
        format!("{}x{}", "(".repeat(n), ")".repeat(n)),
        format!("{}x", r"\x. ".repeat(n)),
        format!("{}1", "let x = 1 in ".repeat(n)),
        format!("f{}", " x".repeat(n)),
        format!("x{}", ".0".repeat(n)),
        format!("pb({}", "pb(".repeat(n)),
    ];
    for src in cases {
        let d = adora_core::with_stack(|| parse::term(&src)).expect_err("too deep");
        assert_eq!(d.kind, ErrorKind::Resource, "{}", d.message);
        assert!(d.message.contains("nesting too deep"));
    }
    let ty = format!("{}R", "dual ".repeat(n));
    let d = adora_core::with_stack(|| parse::ty(&ty)).expect_err("too deep");
    assert_eq!(d.kind, ErrorKind::Resource);
    // Just under the limit parses.
    let ok = format!("{}x{}", "(".repeat(500), ")".repeat(500));
    assert!(adora_core::with_stack(|| parse::term(&ok)).is_ok());
}

/// A deterministic random term builder (a linear congruential generator): every
/// constructor, shadowed names, free variables, negative and fractional numerals.
struct Gen {
    state: u64,
    fresh: Fresh,
}

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.state >> 33) % n
    }

    fn ty(&mut self, depth: u32) -> Ty {
        match if depth == 0 { 0 } else { self.next(4) } {
            0 => Ty::Real,
            1 => Ty::pair(self.ty(depth - 1), self.ty(depth - 1)),
            2 => Ty::fun(self.ty(depth - 1), self.ty(depth - 1)),
            _ => Ty::Dual(Box::new(self.ty(depth - 1))),
        }
    }

    fn term(&mut self, depth: u32, scope: &mut Vec<Var>) -> Term {
        let leaf = depth == 0 || self.next(4) == 0;
        if leaf {
            return match self.next(6) {
                0 if !scope.is_empty() => {
                    let i = self.next(scope.len() as u64) as usize;
                    Term::var(&scope[i])
                }
                0 | 1 => Term::var(&Var::new(["x", "f", "y"][self.next(3) as usize], 0)),
                2 => {
                    let n = self.next(7) as i64 - 3;
                    let d = self.next(3) as i64 + 1;
                    Term::num(Rat::new(n.into(), d.into()))
                }
                3 => Term::sym(
                    [
                        FnSym::Add,
                        FnSym::Mul,
                        FnSym::Pow(-3),
                        FnSym::Sel(adora_pullback::syntax::Cmp::Le),
                    ][self.next(4) as usize],
                ),
                4 => Term::zero(),
                _ => Term::omega(&mut self.fresh),
            };
        }
        let d = depth - 1;
        match self.next(10) {
            0 | 1 => {
                let name = ["x", "y", "z"][self.next(3) as usize];
                let x = self.fresh.var(name);
                scope.push(x.clone());
                let body = self.term(d, scope);
                scope.pop();
                let ann = (self.next(2) == 0).then(|| self.ty(2));
                Term::new(TermKind::Lam(x, ann, Box::new(body)))
            }
            2 => {
                let name = ["x", "v"][self.next(2) as usize];
                let x = self.fresh.var(name);
                let s = self.term(d, scope);
                scope.push(x.clone());
                let body = self.term(d, scope);
                scope.pop();
                Term::let_(&x, s, body)
            }
            3 => Term::app(self.term(d, scope), self.term(d, scope)),
            4 => Term::pair(self.term(d, scope), self.term(d, scope)),
            5 => {
                // Bare numerals included: the printer writes `(3).0`, not the decimal `3.0`.
                let s = self.term(d, scope);
                Term::proj(s, self.next(2) == 1)
            }
            6 => Term::jac(self.term(d, scope), self.term(d, scope)),
            7 => Term::dual(self.term(d, scope), self.term(d, scope)),
            8 => Term::pb(self.term(d, scope), self.term(d, scope)),
            _ => {
                let n = 2 + self.next(2);
                Term::sum((0..n).map(|_| self.term(d, scope)).collect::<Vec<_>>())
            }
        }
    }
}

#[test]
fn parse_of_print_is_alpha_equivalent_on_random_terms() {
    let mut g = Gen {
        state: 0x5eed_0003,
        fresh: Fresh::starting_at(1),
    };
    let mut sizes = 0;
    for i in 0..2000 {
        let t = g.term(1 + (i % 6) as u32, &mut Vec::new());
        sizes += t.size();
        let printed = t.to_string();
        let back = parse::term(&printed)
            .unwrap_or_else(|d| panic!("case {i}: {printed}\n{}", d.render("t", &printed)));
        assert!(
            back.alpha_eq(&t),
            "case {i}: {printed}\nreparsed as {back}\n{t:?}"
        );
    }
    assert!(sizes > 10_000, "the generator builds non-trivial terms");
}

#[test]
fn a_projection_of_a_numeral_prints_and_reads_back() {
    for n in ["3", "-1/2", "0", "7/3"] {
        for i in [false, true] {
            let t = Term::proj(Term::proj(parse::term(n).unwrap(), i), !i);
            let printed = t.to_string();
            assert!(
                !printed.contains(".0.") || printed.starts_with('('),
                "{printed}"
            );
            let back = parse::term(&printed).unwrap();
            assert!(back.alpha_eq(&t), "{printed} reads back as {back}");
        }
    }
    assert_eq!(Term::proj(Term::int(3), false).to_string(), "(3).0");
    assert_eq!(
        Term::app(Term::sym(FnSym::Neg), Term::int(3)).to_string(),
        "neg 3"
    );
}
