//! The public API: JSON, ratios, the cheap-gradient check, default inputs.
use adora_costmodel::{
    cheap_gradient_bound, cheap_gradient_min_k, cheap_gradient_ratio, ratio, Costs,
};
use serde_json::json;

#[test]
fn costs_and_ratios_to_json() {
    let p = Costs {
        ops: 19,
        work: 29,
        span: 5,
        mem: 0,
    };
    assert_eq!(
        p.to_json(),
        json!({"ops": 19, "work": 29, "span": 5, "mem": 0})
    );
    let g = Costs {
        ops: 38,
        work: 58,
        span: 10,
        mem: 7,
    };
    let r = ratio(&g, &p);
    assert_eq!(r.ops, Some(2.0));
    assert_eq!(r.work, Some(2.0));
    assert_eq!(r.span, Some(2.0));
    assert_eq!(r.mem, None);
    assert_eq!(
        r.to_json(),
        json!({"ops": 2.0, "work": 2.0, "span": 2.0, "mem": null})
    );
    assert_eq!(p.to_string(), "ops 19  work 29  span 5  mem 0");
}

#[test]
fn cheap_gradient_check() {
    let p = Costs {
        ops: 10,
        ..Costs::default()
    };
    let g = Costs {
        ops: 35,
        ..Costs::default()
    };
    assert!(cheap_gradient_bound(&p, &g, 3, 1, 5));
    assert!(!cheap_gradient_bound(&p, &g, 3, 0, 5));
    assert!(cheap_gradient_bound(&p, &g, 4, 0, 0));
    assert_eq!(cheap_gradient_min_k(&p, &g, 0, 0), Some(4));
    assert_eq!(cheap_gradient_min_k(&p, &g, 1, 5), Some(3));
    assert_eq!(cheap_gradient_min_k(&p, &g, 7, 5), Some(0));
    assert_eq!(cheap_gradient_ratio(&p, &g), Some(3.5));
    let zero = Costs::default();
    assert_eq!(cheap_gradient_ratio(&zero, &g), None);
    assert_eq!(cheap_gradient_min_k(&zero, &g, 1, 5), None);
    assert!(cheap_gradient_bound(&zero, &g, 1, 7, 5));
    let huge = Costs {
        ops: u64::MAX,
        ..Costs::default()
    };
    assert!(cheap_gradient_bound(&huge, &huge, 1, u64::MAX, u64::MAX));
}

#[test]
fn default_inputs_are_deterministic_and_non_trivial() {
    use adora_core::ast::{Expr, ExprKind, Function, Param};
    use adora_core::{Span, Type};
    use adora_semantics::value::{Tensor, Value};
    use adora_semantics::Rat;
    let p = |name: &str, ty: Type| Param {
        name: name.into(),
        ty,
        span: Span::DUMMY,
    };
    let f = Function {
        name: "main".into(),
        params: vec![
            p("x", Type::Array(adora_core::Base::R, vec![2, 2])),
            p("i", Type::Array(adora_core::Base::Z, vec![3, 2])),
            p("n", Type::int()),
            p(
                "t",
                Type::Tuple(vec![
                    Type::real(),
                    Type::Array(adora_core::Base::B, vec![3]),
                ]),
            ),
        ],
        ret: Type::real(),
        body: Expr::new(ExprKind::Var("x".into()), Span::DUMMY),
    };
    let xs = adora_costmodel::default_inputs(&f);
    let r = |a: i64, b: i64| Rat::new(a.into(), b.into());
    assert_eq!(
        xs,
        vec![
            Value::Real(Tensor {
                shape: vec![2, 2],
                // 15 scalars in all: denominator 16
                data: vec![r(1, 16), r(2, 16), r(3, 16), r(4, 16)]
            }),
            Value::Int(Tensor {
                shape: vec![3, 2],
                data: vec![0, 1, 2, 0, 1, 2]
            }),
            Value::Int(Tensor {
                shape: vec![],
                data: vec![1]
            }),
            Value::Tuple(vec![
                Value::Real(Tensor {
                    shape: vec![],
                    data: vec![r(12, 16)]
                }),
                Value::Bool(Tensor {
                    shape: vec![3],
                    data: vec![true, false, true]
                }),
            ]),
        ]
    );
    assert_eq!(adora_costmodel::default_inputs(&f), xs);
}

#[test]
fn bad_programs_and_inputs_are_errors_not_panics() {
    use adora_core::ast::{Expr, ExprKind, Function, Param};
    use adora_core::{ErrorKind, Span, Type};
    use adora_semantics::eval::EvalOptions;
    let param = Param {
        name: "x".into(),
        ty: Type::real(),
        span: Span::DUMMY,
    };
    let call = Expr::new(ExprKind::Call("g".into(), vec![]), Span::new(3, 6));
    let f = Function {
        name: "main".into(),
        params: vec![param.clone()],
        ret: Type::real(),
        body: call,
    };
    let xs = adora_costmodel::default_inputs(&f);
    let e = adora_costmodel::measure(&f, &xs, &EvalOptions::default()).unwrap_err();
    assert_eq!((e.kind, e.span), (ErrorKind::Unsupported, Span::new(3, 6)));
    let unbound = Expr::new(ExprKind::Var("y".into()), Span::new(1, 2));
    let f = Function {
        name: "main".into(),
        params: vec![param],
        ret: Type::real(),
        body: unbound,
    };
    assert!(adora_costmodel::measure(&f, &xs, &EvalOptions::default()).is_err());
    // inputs that do not match the parameters: the evaluator's error, unchanged
    let f = Function {
        name: "main".into(),
        params: vec![Param {
            name: "x".into(),
            ty: Type::real(),
            span: Span::DUMMY,
        }],
        ret: Type::real(),
        body: Expr::new(ExprKind::Var("x".into()), Span::DUMMY),
    };
    let e = adora_costmodel::measure(&f, &[], &EvalOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Input);
}
