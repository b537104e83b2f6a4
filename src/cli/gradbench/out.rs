//! An answer in an eval's JSON shape ([`Out`]): built from our values, written as JSON,
//! and matched number by number against another tool's JSON (docs/gradbench.md).
//!
//! | JSON | `Out` |
//! |---|---|
//! | a number | `Num` |
//! | an array (row-major nesting of a value, or a flat array) | `List` |
//! | an object (`gmm`'s jacobian) | `Fields`, in GradBench's field order |

use adora_semantics::value::Value;
use serde_json::Value as Json;

/// An answer in the eval's JSON shape, with our numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Out<S> {
    /// A number.
    Num(S),
    /// A JSON array.
    List(Vec<Out<S>>),
    /// A JSON object, its fields in GradBench's order.
    Fields(Vec<(&'static str, Out<S>)>),
}

impl<S: Clone> Out<S> {
    /// A real value as nested JSON arrays (row-major; a scalar as a number).
    pub fn nested(v: &Value<S>) -> Out<S> {
        let reals = v.real_scalars();
        let shape = v.shape().unwrap_or(&[]).to_vec();
        fn go<S: Clone>(xs: &[&S], shape: &[usize]) -> Out<S> {
            match shape.split_first() {
                None => Out::Num(xs[0].clone()),
                Some((&n, rest)) => {
                    let step = rest.iter().product::<usize>();
                    Out::List((0..n).map(|i| go(&xs[i * step..], rest)).collect())
                }
            }
        }
        go(&reals, &shape)
    }

    /// The reals of `vs` in order, as one flat JSON array.
    pub fn flat(vs: &[&Value<S>]) -> Out<S> {
        Out::List(
            vs.iter()
                .flat_map(|v| v.real_scalars())
                .map(|x| Out::Num(x.clone()))
                .collect(),
        )
    }
}

impl<S> Out<S> {
    /// The numbers in order (objects in field order).
    pub fn numbers(&self) -> Vec<&S> {
        match self {
            Out::Num(x) => vec![x],
            Out::List(xs) => xs.iter().flat_map(Out::numbers).collect(),
            Out::Fields(fs) => fs.iter().flat_map(|(_, o)| o.numbers()).collect(),
        }
    }

    /// The JSON of the answer, each number by `num`.
    pub fn to_json(&self, num: &impl Fn(&S) -> Json) -> Json {
        match self {
            Out::Num(x) => num(x),
            Out::List(xs) => Json::Array(xs.iter().map(|o| o.to_json(num)).collect()),
            Out::Fields(fs) => Json::Object(
                fs.iter()
                    .map(|(k, o)| (k.to_string(), o.to_json(num)))
                    .collect(),
            ),
        }
    }

    /// The numbers of `theirs` in the order of [`Out::numbers`], or why its structure is
    /// not this answer's (a missing field, an array of another length, a non-number).
    pub fn theirs<'t>(&self, theirs: &'t Json, path: &str) -> Result<Vec<&'t Json>, String> {
        match (self, theirs) {
            (Out::Num(_), t) if t.is_number() || t.is_string() => Ok(vec![t]),
            (Out::List(xs), Json::Array(ts)) if xs.len() == ts.len() => {
                let mut out = Vec::new();
                for (i, (x, t)) in xs.iter().zip(ts).enumerate() {
                    out.extend(x.theirs(t, &format!("{path}[{i}]"))?);
                }
                Ok(out)
            }
            (Out::Fields(fs), Json::Object(m)) => {
                let mut out = Vec::new();
                for (k, o) in fs {
                    let t = m.get(*k).ok_or_else(|| format!("{path}: no field `{k}`"))?;
                    out.extend(o.theirs(t, &format!("{path}.{k}"))?);
                }
                Ok(out)
            }
            (Out::List(xs), Json::Array(ts)) => Err(format!(
                "{path}: an array of {} numbers, expected {}",
                ts.len(),
                xs.len()
            )),
            (ours, t) => Err(format!(
                "{path}: expected {}, got {}",
                match ours {
                    Out::Num(_) => "a number",
                    Out::List(_) => "an array",
                    Out::Fields(_) => "an object",
                },
                json_kind(t)
            )),
        }
    }
}

/// The kind of a JSON value, for messages.
pub fn json_kind(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_and_flat_shapes() {
        let v = Value::reals(vec![2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
        let n = Out::nested(&v);
        assert_eq!(
            n.to_json(&|x| serde_json::json!(x)),
            serde_json::json!([[1.0, 2.0], [3.0, 4.0]])
        );
        let f = Out::flat(&[&v, &Value::real(5.0)]);
        assert_eq!(
            f.to_json(&|x| serde_json::json!(x)),
            serde_json::json!([1.0, 2.0, 3.0, 4.0, 5.0])
        );
        assert!(n
            .theirs(&serde_json::json!([[1, 2], [3]]), "output")
            .is_err());
        assert_eq!(
            n.theirs(&serde_json::json!([[1, 2], [3, 4]]), "output")
                .unwrap()
                .len(),
            4
        );
    }
}
