//! Printing Delta terms (`adora show --stage delta`).
//!
//! A Delta DAG prints as one line per `Share` id, in ascending id order (so every id is
//! defined before it is used), then the root:
//!
//! ```text
//! #1 : R[5] = Add(Scale(t_1, Gather(Input x, i => [4 - i])), Scale(x, Input x))
//! root : R = SumOuter(#1)
//! ```
//!
//! A shared node is referred to by `#n` everywhere except in its own definition.

use super::delta::{kind_name, Delta, Kind, Rep};

fn shape_text(shape: &[usize]) -> String {
    if shape.is_empty() {
        "R".to_string()
    } else {
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        format!("R[{}]", dims.join(","))
    }
}

/// One node, with shared children printed as `#n` (the node itself is expanded even when
/// it is a `Share`, when `expand_share` is set).
fn node<R: Rep>(
    d: &Delta<R>,
    input: &dyn Fn(usize) -> String,
    expand_share: bool,
    out: &mut String,
) {
    let name = kind_name(d.kind());
    match d.kind() {
        Kind::Zero => out.push_str("Zero"),
        Kind::Input(i) => {
            out.push_str("Input ");
            out.push_str(&input(*i));
        }
        Kind::Share(id, body) => {
            if expand_share {
                node(body, input, false, out);
            } else {
                out.push_str(&format!("#{id}"));
            }
        }
        Kind::Add(a, b) | Kind::Append(a, b) => {
            out.push_str(name);
            out.push('(');
            node(a, input, false, out);
            out.push_str(", ");
            node(b, input, false, out);
            out.push(')');
        }
        Kind::Neg(a) | Kind::Sum(a) | Kind::SumOuter(a) | Kind::Reshape(a) => {
            out.push_str(name);
            out.push('(');
            node(a, input, false, out);
            out.push(')');
        }
        Kind::Scale(k, a) | Kind::DivBy(k, a) => {
            out.push_str(&format!("{name}({}, ", R::factor_text(k)));
            node(a, input, false, out);
            out.push(')');
        }
        Kind::Select(c, a, b) => {
            out.push_str(&format!("Select({}, ", R::cond_text(c)));
            node(a, input, false, out);
            out.push_str(", ");
            node(b, input, false, out);
            out.push(')');
        }
        Kind::Index(a, ix) => {
            out.push_str("Index(");
            node(a, input, false, out);
            out.push_str(&format!(", {})", R::ix_text(ix)));
        }
        Kind::Gather(a, m) | Kind::Scatter(a, m) => {
            out.push_str(name);
            out.push('(');
            node(a, input, false, out);
            out.push_str(&format!(", {})", R::map_text(m)));
        }
        Kind::Replicate(n, a) => {
            out.push_str(&format!("Replicate({n}, "));
            node(a, input, false, out);
            out.push(')');
        }
        Kind::Transpose(p, a) => {
            out.push_str(&format!("Transpose({p:?}, "));
            node(a, input, false, out);
            out.push(')');
        }
        Kind::Stack(ds) => {
            out.push_str("Stack([");
            for (k, a) in ds.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                node(a, input, false, out);
            }
            out.push_str("])");
        }
    }
}

/// The Delta DAG as text: one `#n : shape = body` line per `Share` id in ascending order,
/// then `root : shape = ...`. `input(i)` names input leaf `i`.
pub fn render<R: Rep>(root: &Delta<R>, input: &dyn Fn(usize) -> String) -> String {
    render_many(&[("root".to_string(), root.clone())], input)
}

/// Several roots (the components of a tuple result) sharing one list of `Share`
/// definitions.
pub fn render_many<R: Rep>(
    roots: &[(String, Delta<R>)],
    input: &dyn Fn(usize) -> String,
) -> String {
    let mut shares: std::collections::BTreeMap<u64, Delta<R>> = Default::default();
    for (_, r) in roots {
        shares.extend(r.shares());
    }
    let mut out = String::new();
    for (id, d) in &shares {
        out.push_str(&format!("#{id} : {} = ", shape_text(d.shape())));
        node(d, input, true, &mut out);
        out.push('\n');
    }
    for (name, r) in roots {
        out.push_str(&format!("{name} : {} = ", shape_text(r.shape())));
        node(r, input, false, &mut out);
        out.push('\n');
    }
    out
}
