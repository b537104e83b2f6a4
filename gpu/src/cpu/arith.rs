//! Arithmetic over the lanes of a chunk (docs/backend.md, "CPU executor").
//!
//! | operands | result |
//! |---|---|
//! | `R(s) + U(c)`, `U(c) + R(s)`, `R(s) - U(c)`, `c` integral, lanes stay non-negative | `R` |
//! | both uniform | uniform |
//! | an operand vector nothing else refers to | that vector, overwritten |
//! | otherwise | a vector from the pool |
//!
//! `+ - * /`, `neg exp log tanh` run their own loops (no dispatch per lane, so the loops
//! vectorise); the others go through [`ops::bin`] and [`ops::un`].

use super::lanes::{Ev, L};
use crate::plan::sx::{ops, Bin, Un};
use std::rc::Rc;

/// `R(s) + c` for an integral `c`, when every lane stays a non-negative integer below
/// 2^52 (exact in `f64`, so the lanes equal the sums computed per lane).
fn shift(s: usize, c: f64) -> Option<usize> {
    let t = s as f64 + c;
    (c == c.trunc() && (0.0..4_503_599_627_370_496.0).contains(&t)).then_some(t as usize)
}

/// `s + l op c` (or `c op s + l` when `flipped`) for every lane `l < n`, when it is the
/// same on all of them: the order comparisons are monotone in the lane, so equal answers
/// at the first and last lane hold between; `==` and `!=` are uniform when `c` is not
/// among the lanes' values. A bounds guard `i >= 0 && i < n` over a chunk that lies
/// inside (or outside) the bounds is then one uniform test, and the `select` it guards
/// evaluates one branch.
fn uniform_compare(op: Bin, s: usize, n: usize, c: f64, flipped: bool) -> Option<f64> {
    if n == 0 {
        return None;
    }
    let (lo, hi) = (s as f64, (s + n - 1) as f64);
    let at = |x: f64| {
        if flipped {
            ops::bin(op, c, x)
        } else {
            ops::bin(op, x, c)
        }
    };
    match op {
        Bin::Eq | Bin::Ne => {
            let inside = c >= lo && c <= hi && c == c.trunc();
            (!inside).then(|| at(lo))
        }
        _ => {
            let (a, b) = (at(lo), at(hi));
            (a == b).then_some(a)
        }
    }
}

impl<'a> Ev<'a> {
    /// `R` lanes as a vector (other values as they are).
    fn no_range(&mut self, x: L<'a>) -> L<'a> {
        match x {
            L::R(s) => {
                let mut v = self.fresh();
                v.extend((s..s + self.n).map(|i| i as f64));
                L::V(Rc::new(v))
            }
            x => x,
        }
    }

    /// `f` on every lane; a vector owned by nobody else is overwritten.
    fn map1(&mut self, a: L<'a>, f: impl Fn(f64) -> f64) -> L<'a> {
        let mut a = match a {
            L::U(x) => return L::U(f(x)),
            a => self.no_range(a),
        };
        if let L::V(v) = &mut a {
            if let Some(v) = Rc::get_mut(v) {
                v.iter_mut().for_each(|x| *x = f(*x));
                return a;
            }
        }
        let mut out = self.fresh();
        out.extend(a.slice().unwrap_or(&[]).iter().map(|&x| f(x)));
        self.recycle(a);
        L::V(Rc::new(out))
    }

    /// `f` lane by lane; the result overwrites an operand vector owned by nobody else.
    #[inline(always)]
    fn map2(&mut self, a: L<'a>, b: L<'a>, f: impl Fn(f64, f64) -> f64) -> L<'a> {
        if let (L::U(x), L::U(y)) = (&a, &b) {
            return L::U(f(*x, *y));
        }
        let mut a = self.no_range(a);
        let mut b = self.no_range(b);
        if let L::V(v) = &mut a {
            if let Some(v) = Rc::get_mut(v) {
                match &b {
                    L::U(y) => v.iter_mut().for_each(|x| *x = f(*x, *y)),
                    b => {
                        let ys = b.slice().unwrap_or(&[]);
                        v.iter_mut().zip(ys).for_each(|(x, &y)| *x = f(*x, y));
                    }
                }
                self.recycle(b);
                return a;
            }
        }
        if let L::V(v) = &mut b {
            if let Some(v) = Rc::get_mut(v) {
                match &a {
                    L::U(x) => v.iter_mut().for_each(|y| *y = f(*x, *y)),
                    a => {
                        let xs = a.slice().unwrap_or(&[]);
                        v.iter_mut().zip(xs).for_each(|(y, &x)| *y = f(x, *y));
                    }
                }
                self.recycle(a);
                return b;
            }
        }
        let mut out = self.fresh();
        match (&a, &b) {
            (L::U(x), b) => out.extend(b.slice().unwrap_or(&[]).iter().map(|&y| f(*x, y))),
            (a, L::U(y)) => out.extend(a.slice().unwrap_or(&[]).iter().map(|&x| f(x, *y))),
            (a, b) => {
                let (xs, ys) = (a.slice().unwrap_or(&[]), b.slice().unwrap_or(&[]));
                out.extend(xs.iter().zip(ys).map(|(&x, &y)| f(x, y)));
            }
        }
        self.recycle(a);
        self.recycle(b);
        L::V(Rc::new(out))
    }

    /// `a op b` over the lanes: index arithmetic on `R` stays `R`; the common operators
    /// have their own loops (no dispatch per lane, so the loops vectorise), the others go
    /// through [`ops::bin`].
    pub(super) fn bin(&mut self, op: Bin, a: L<'a>, b: L<'a>) -> L<'a> {
        match (op, &a, &b) {
            (Bin::Add, L::R(s), L::U(c)) | (Bin::Add, L::U(c), L::R(s)) => {
                if let Some(t) = shift(*s, *c) {
                    return L::R(t);
                }
            }
            (Bin::Sub, L::R(s), L::U(c)) => {
                if let Some(t) = shift(*s, -*c) {
                    return L::R(t);
                }
            }
            (Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge | Bin::Eq | Bin::Ne, L::R(s), L::U(c)) => {
                if let Some(u) = uniform_compare(op, *s, self.n, *c, false) {
                    return L::U(u);
                }
            }
            (Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge | Bin::Eq | Bin::Ne, L::U(c), L::R(s)) => {
                if let Some(u) = uniform_compare(op, *s, self.n, *c, true) {
                    return L::U(u);
                }
            }
            _ => {}
        }
        match op {
            Bin::Add => self.map2(a, b, |x, y| x + y),
            Bin::Sub => self.map2(a, b, |x, y| x - y),
            Bin::Mul => self.map2(a, b, |x, y| x * y),
            Bin::DivR => self.map2(a, b, |x, y| x / y),
            op => self.map2(a, b, |x, y| ops::bin(op, x, y)),
        }
    }

    /// `op a` over the lanes, the common operators with their own loops.
    pub(super) fn un(&mut self, op: Un, a: L<'a>) -> L<'a> {
        match op {
            Un::Neg => self.map1(a, |x| -x),
            Un::Exp => self.map1(a, f64::exp),
            Un::Log => self.map1(a, f64::ln),
            Un::Tanh => self.map1(a, f64::tanh),
            op => self.map1(a, |x| ops::un(op, x)),
        }
    }
}
