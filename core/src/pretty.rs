//! Pretty-printer: programs, functions and expressions back to the concrete syntax of
//! docs/language.md (grammar in [`crate::parser`]).
//!
//! Layout: a `def` header on its own line with the body indented by two spaces below it;
//! every `let` on its own line (`let p = e in`, then the body on the next line at the same
//! indentation; a right-hand side containing `let`/`if`/`loop` goes on its own indented
//! lines, followed by `in` alone on a line); `if` on one line when it is small, otherwise
//! `then`/`else` branches indented (`else if` chains stay flat); `loop` bodies indented;
//! a lambda body containing `let`/`if`/`loop` starts on a new indented line. Parentheses
//! are the minimum the precedences need, plus:
//!
//! * `let`, `if` and `loop` are parenthesised in every operand position (of a binary or
//!   unary operator, or as the base of indexing/projection);
//! * a literal is parenthesised as the base of indexing/projection (`(3).0`, `(-1)[0]`);
//! * `Unary(Neg, Lit(k))` prints as `-(k)` for a number `k` (a `-` written right before a
//!   number would be read back as a negative literal), and as `-inf`, `-nan` for the
//!   non-finite literals (which are no numbers: `-inf` reads back as that negation), and `--` is never produced (it starts a comment):
//!   a negation of something that prints with a leading `-` is parenthesised, and binary
//!   operators are surrounded by spaces (`a - -3`);
//! * `build` always uses the parenthesised lambda, `build 3 (i => e)` /
//!   `build [2, 3] ((i, j) => e)`; other lambdas print bare (`map((a, b) => a * b, xs, ys)`).
//!
//! Literals: `Lit::Int` as an integer (`-3`); `Lit::Bool` as `true`/`false`; `Lit::Real`
//! as an exact decimal when its denominator is `2^a·5^b` (`3.0`, `-0.5`, `0.125`), and
//! otherwise as `(p.0 / q.0)` (`1/3` prints `(1.0 / 3.0)`).
//!
//! Round trip: for every tree the parser produces, `parse(print(t)) == t` (spans aside).
//! It also holds for hand-built trees that the concrete syntax can express, with one
//! exception that is only *semantic*: a real literal whose denominator is not `2^a·5^b`
//! reads back as a division of two literals (`Binary(Div, 1.0, 3.0)`), which evaluates to
//! the same exact value. Trees the syntax cannot express at all (a tuple with fewer than two
//! components, an empty array literal, a lambda or tuple pattern with too few names, an
//! empty index list, an empty `build`/`gather`/`scatter` shape, a built-in applied to the
//! wrong number of arguments, or names that are not valid identifiers — see
//! [`crate::lexer::is_valid_name`]) print as the nearest text, which does not parse back
//! to them.

mod layout;

use crate::ast::{Def, Expr, Function, Lit, Param, Program};
use crate::types::Type;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Pow, Signed, Zero};
use std::collections::BTreeMap;

/// Prints a whole program: its `def`s separated by blank lines, ending with a newline.
/// A `def` with size parameters other than the entry point (a template,
/// [`crate::sizes::Template`]) prints as it was written, in source order among the others.
pub fn program(p: &Program) -> String {
    let mut defs: Vec<(usize, String)> = p.defs.iter().map(|d| (d.span.start, def(d))).collect();
    if !p.templates.is_empty() {
        for t in &p.templates {
            defs.push((t.def.span.start, format!("{}\n", t.text())));
        }
        defs.sort_by_key(|(start, _)| *start);
    }
    let texts: Vec<String> = defs.into_iter().map(|(_, t)| t).collect();
    texts.join("\n")
}

/// Prints one `def` (ending with a newline).
pub fn def(d: &Def) -> String {
    header_and_body(&d.name, &d.params, &d.ret, &d.body)
}

/// Prints an elaborated function as a `def`: `def name(params) -> ret =`, then the body
/// indented on the next lines (ending with a newline).
pub fn function(f: &Function) -> String {
    header_and_body(&f.name, &f.params, &f.ret, &f.body)
}

/// Prints one expression (no trailing newline).
pub fn expr(e: &Expr) -> String {
    let mut p = layout::Printer {
        out: String::new(),
        indent: 0,
        size_names: SizeNames::new(),
    };
    p.block(e);
    p.out
}

/// Prints a literal as it appears in source (see the module documentation).
pub fn lit(l: &Lit) -> String {
    match l {
        Lit::Int(n) => n.to_string(),
        Lit::Bool(b) => b.to_string(),
        Lit::Real(r) => real(r),
        Lit::NonFinite(x) => x.name().to_string(),
    }
}

/// An exact real in source syntax: a decimal (`2.5`, `-0.125`, `3.0`) when the
/// denominator is `2^a·5^b`, otherwise `(p.0 / q.0)`.
pub fn real(r: &BigRational) -> String {
    let (n, d) = (r.numer(), r.denom());
    // The denominator is positive. Its factors 2 are its trailing zero bits; its factors
    // 5 are divided out by powers 5^(2^j), largest first: O(log) divisions, where one
    // division per factor was quadratic in the length of the literal (a 65,535-place
    // literal took seconds to print).
    let twos = d.trailing_zeros().unwrap_or(0);
    let (rest, fives) = remove_powers(d >> twos, 5);
    if rest != BigInt::from(1u8) {
        return format!("({n}.0 / {d}.0)");
    }
    let places = twos.max(fives);
    let scaled = n.abs() * Pow::pow(BigInt::from(10u8), places) / d;
    let sign = if n.is_negative() { "-" } else { "" };
    if places == 0 {
        return format!("{sign}{scaled}.0");
    }
    // Zero-padded by hand: a `format!` width is limited to `u16::MAX`, and a literal may
    // have any number of places.
    let mut digits = scaled.to_string();
    let width = places as usize + 1;
    if digits.len() < width {
        digits.insert_str(0, &"0".repeat(width - digits.len()));
    }
    let (int_part, frac) = digits.split_at(digits.len() - places as usize);
    format!("{sign}{int_part}.{frac}")
}

/// Sizes to print as size names: value → name (docs/language.md, "Size parameters").
pub type SizeNames = BTreeMap<usize, String>;

/// Prints one `def` with every static size whose value `names` maps printed as that size
/// name, in its parameter and result types and its body: the `def` generalised to size
/// parameters. Instantiating the result at sizes that give each name its value yields `d`
/// again, provided the names are bound by the parameter types and occur nowhere else in
/// `d` (the caller's duty).
pub fn def_with_size_names(d: &Def, names: &SizeNames) -> String {
    print_def(&d.name, &d.params, &d.ret, &d.body, names)
}

/// `x` (positive) without its factors `p`, and their number: divides by `p^(2^j)` for
/// decreasing `j`, at most once per `j` (after `p^(2^(j+1))` no longer divides, `p^(2^j)`
/// divides at most once).
fn remove_powers(mut x: BigInt, p: u32) -> (BigInt, u64) {
    let mut powers = vec![BigInt::from(p)];
    while let Some(last) = powers.last() {
        if 2 * last.bits() > x.bits() + 1 {
            break;
        }
        let square = last * last;
        powers.push(square);
    }
    let mut count = 0u64;
    for (j, q) in powers.iter().enumerate().rev() {
        loop {
            let (quotient, remainder) = x.div_rem(q);
            if !remainder.is_zero() {
                break;
            }
            x = quotient;
            count += 1 << j;
        }
    }
    (x, count)
}

fn header_and_body(name: &str, params: &[Param], ret: &Type, body: &Expr) -> String {
    print_def(name, params, ret, body, &SizeNames::new())
}

/// A type with named sizes (`R[n, 3]`).
fn type_text(t: &Type, names: &SizeNames) -> String {
    match t {
        Type::Array(b, s) if !s.is_empty() => {
            let dims: Vec<String> = s
                .iter()
                .map(|d| names.get(d).cloned().unwrap_or_else(|| d.to_string()))
                .collect();
            format!("{b}[{}]", dims.join(","))
        }
        Type::Array(..) => t.to_string(),
        Type::Tuple(ts) => {
            let parts: Vec<String> = ts.iter().map(|t| type_text(t, names)).collect();
            format!("({})", parts.join(", "))
        }
    }
}

fn print_def(name: &str, params: &[Param], ret: &Type, body: &Expr, names: &SizeNames) -> String {
    let ps: Vec<String> = params
        .iter()
        .map(|p| format!("{}: {}", p.name, type_text(&p.ty, names)))
        .collect();
    let ret = type_text(ret, names);
    let mut p = layout::Printer {
        out: format!("def {name}({}) -> {ret} =", ps.join(", ")),
        indent: 2,
        size_names: names.clone(),
    };
    p.newline();
    p.block(body);
    p.out.push('\n');
    p.out
}
