//! Tests of `--engine all`'s classification: an internal error is a failure of its
//! engine (exit 3), never a skip.

use super::*;
use crate::cli::schema::Question;
use adora_core::diag::Span;
use adora_rewrites::engine::harness::Query;
use adora_rewrites::engine::{self, Derivatives, Runtime};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// An engine whose every gradient is an internal error: Adora's own failure.
struct Broken;

fn broken() -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        "internal error: the gradient program does not type-check",
    )
}

impl Derivatives<Rat> for Broken {
    fn gradient(&self, _: &Function, _: &[Value<Rat>], _: &EvalOptions) -> DResult<Gradient<Rat>> {
        Err(broken())
    }
}
impl Derivatives<f64> for Broken {}
impl Derivatives<adora_semantics::scalar::Interval> for Broken {}
impl Engine for Broken {
    fn name(&self) -> &str {
        "broken"
    }
    fn runtime(&self) -> Option<&dyn Runtime> {
        Some(self)
    }
}

fn square() -> Loaded {
    let src = "def main(x: R) -> R = x * x\n".to_string();
    let func = adora_core::load(&src, "main").expect("a valid program");
    Loaded {
        file: "square.adl".into(),
        src,
        func,
        warnings: Vec::new(),
    }
}

fn three() -> Vec<Value<Rat>> {
    vec![Value::real(Rat::from_integer(3.into()))]
}

#[test]
fn only_unsupported_is_a_skip() {
    let l = square();
    let g = Answer::Gradient(Gradient {
        value: Value::real(Rat::from_integer(9.into())),
        grads: vec![Some(Value::real(Rat::from_integer(6.into())))],
    });
    let s = classify::<Rat>(&l.func, Err(broken()), &g);
    assert!(matches!(s, Status::InternalError(_)), "{s:?}");
    assert_eq!(s.word(), "internal-error");
    let unsupported = Diagnostic::new(ErrorKind::Unsupported, Span::DUMMY, "no `reduce`");
    let s = classify::<Rat>(&l.func, Err(unsupported), &g);
    assert_eq!(s, Status::Skipped("no `reduce`".into()));
    let resource = Diagnostic::new(ErrorKind::Resource, Span::DUMMY, "limit");
    let s = classify::<Rat>(&l.func, Err(resource), &g);
    assert!(matches!(s, Status::Resource(_)), "{s:?}");
    assert_eq!(s.word(), "resource-limit");
    let runtime = Diagnostic::new(ErrorKind::Runtime, Span::DUMMY, "division by zero");
    assert!(matches!(
        classify::<Rat>(&l.func, Err(runtime), &g),
        Status::Error(_)
    ));
    assert!(matches!(
        classify::<Rat>(&l.func, Ok(g.clone()), &g),
        Status::Agrees(_)
    ));
}

#[test]
fn an_internal_error_wins_the_verdict_and_exits_3() {
    let skipped = Status::<Rat>::Skipped(String::new());
    let differs = Status::<Rat>::Differs(
        Gradient {
            value: Value::real(Rat::from_integer(0.into())),
            grads: vec![],
        },
        vec!["value".into()],
    );
    let internal = Status::<Rat>::InternalError(broken());
    let resource = Status::<Rat>::Resource(Diagnostic::new(
        ErrorKind::Resource,
        Span::DUMMY,
        "evaluation step limit (1) exceeded",
    ));
    assert_eq!(Verdict::of([&skipped]), Verdict::Agree);
    assert_eq!(Verdict::of([&skipped, &resource]), Verdict::Resource);
    assert_eq!(Verdict::of([&resource, &differs]), Verdict::Differ);
    assert_eq!(Verdict::of([&resource, &internal]), Verdict::Internal);
    assert_eq!(Verdict::Resource.exit_code(), 2);
    assert_eq!(Verdict::of([&skipped, &differs]), Verdict::Differ);
    assert_eq!(
        Verdict::of([&differs, &internal, &skipped]),
        Verdict::Internal
    );
    assert_eq!(Verdict::Agree.exit_code(), 0);
    assert_eq!(Verdict::Differ.exit_code(), 1);
    assert_eq!(Verdict::Internal.exit_code(), 3);
}

#[test]
fn a_broken_engine_is_reported_not_skipped() {
    let l = square();
    let xs = three();
    let opts = EvalOptions::default();
    let engines: Vec<Box<dyn Engine>> = vec![engine::reference(), Box::new(Broken)];
    let c = compare(&l.func, &engines, |e| {
        harness::ask(e, &l.func, &xs, &Query::Grad, &opts)
    })
    .expect("the reference answers");
    assert_eq!(c.verdict(), Verdict::Internal);
    assert_eq!(c.verdict().exit_code(), 3);
    let j = c.to_json(Question::Grad, &l);
    assert_eq!(j["agree"], false);
    assert_eq!(j["engines"]["broken"]["status"], "internal-error");
    assert_eq!(j["engines"]["broken"]["error"]["code"], "internal");
    assert_eq!(j["reference"]["gradient"]["x"], "6");
}
