//! Values to literal text, human-readable text and JSON.

use crate::scalar::Scalar;
use crate::value::{Tensor, Value};

/// Writes a tensor as nested brackets, each element by `el`.
fn tensor<T>(t: &Tensor<T>, el: &dyn Fn(&T) -> String, out: &mut String) {
    fn go<T>(shape: &[usize], data: &[T], el: &dyn Fn(&T) -> String, out: &mut String) {
        let Some((&n, rest)) = shape.split_first() else {
            if let Some(x) = data.first() {
                out.push_str(&el(x));
            }
            return;
        };
        let m: usize = rest.iter().product();
        out.push('[');
        for k in 0..n {
            if k > 0 {
                out.push_str(", ");
            }
            go(rest, &data[k * m..(k + 1) * m], el, out);
        }
        out.push(']');
    }
    go(&t.shape, &t.data, el, out);
}

/// The literal of a value with reals written by `real`.
pub(super) fn literal<S>(v: &Value<S>, real: &dyn Fn(&S) -> String) -> String {
    fn go<S>(v: &Value<S>, real: &dyn Fn(&S) -> String, out: &mut String) {
        match v {
            Value::Real(t) => tensor(t, real, out),
            Value::Int(t) => tensor(t, &|n: &i64| n.to_string(), out),
            Value::Bool(t) => tensor(t, &|b: &bool| b.to_string(), out),
            Value::Tuple(vs) => {
                out.push('(');
                for (k, c) in vs.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    go(c, real, out);
                }
                out.push(')');
            }
        }
    }
    let mut out = String::new();
    go(v, real, &mut out);
    out
}

/// `%g`-style text with 6 significant digits.
pub(super) fn fmt_g(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    if !x.is_finite() {
        return x.to_literal();
    }
    let sci = format!("{x:.5e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-5..6).contains(&exp) {
        format!("{}e{}", strip(mant), exp)
    } else {
        let decimals = (5 - exp) as usize;
        strip(&format!("{x:.decimals$}"))
    }
}

/// Whether some real of `v` is an exact non-integer (then text shows an approximation).
fn has_exact_fraction<S: Scalar>(v: &Value<S>) -> bool {
    v.real_scalars()
        .iter()
        .any(|x| x.as_rational().is_some_and(|r| !r.is_integer()))
}

/// Human-readable text (see the module docs of `io`).
pub(super) fn text<S: Scalar>(v: &Value<S>) -> String {
    let exact = literal(v, &|x: &S| x.to_literal());
    let mut out = match v.shape() {
        Some([]) => exact,
        _ => format!("{} = {}", v.ty(), exact),
    };
    if has_exact_fraction(v) {
        out.push_str(" ≈ ");
        out.push_str(&literal(v, &|x: &S| fmt_g(x.approx_f64())));
    }
    out
}

/// JSON (see the module docs of `io`).
pub(super) fn json<S: Scalar>(v: &Value<S>) -> serde_json::Value {
    use serde_json::Value as J;
    fn nest<T>(shape: &[usize], data: &[T], el: &dyn Fn(&T) -> J) -> J {
        let Some((&n, rest)) = shape.split_first() else {
            return data.first().map_or(J::Null, el);
        };
        let m: usize = rest.iter().product();
        J::Array(
            (0..n)
                .map(|k| nest(rest, &data[k * m..(k + 1) * m], el))
                .collect(),
        )
    }
    match v {
        Value::Real(t) => nest(&t.shape, &t.data, &|x: &S| x.to_json()),
        Value::Int(t) => nest(&t.shape, &t.data, &|n: &i64| J::from(*n)),
        Value::Bool(t) => nest(&t.shape, &t.data, &|b: &bool| J::Bool(*b)),
        Value::Tuple(vs) => J::Array(vs.iter().map(json).collect()),
    }
}
