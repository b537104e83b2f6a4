//! Running a golden case: load, evaluate, and ask every engine for the derivatives the
//! headers state; collect every disagreement.

use crate::case::{Case, NamedLit, Numeric};
use crate::compare::{literal_value, show, values_agree, Mode};
use crate::engine::harness::{self, Answer, Query};
use crate::engine::Engine;
use adora_core::ast::{Function, Param};
use adora_core::diag::{Diagnostic, ErrorKind};
use adora_semantics::eval::{eval, EvalOptions, EvalStats};
use adora_semantics::reference::Gradient;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What running one case found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Every disagreement with the headers, one line each, prefixed with the file name.
    pub failures: Vec<String>,
    /// Questions an engine declined (`Unsupported`), as `engine: question`.
    pub skipped: Vec<String>,
    /// Questions answered and checked, as `engine: question` (value checks as `eval`).
    pub checked: Vec<String>,
}

impl Outcome {
    /// Whether nothing disagreed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The evaluation options a case asks for.
pub fn options(case: &Case) -> EvalOptions {
    let mut opts = EvalOptions {
        strict: case.strict,
        ..EvalOptions::default()
    };
    if let Some(n) = case.max_steps {
        opts.max_steps = n;
    }
    if let Some(n) = case.max_rational_bits {
        opts.max_rational_bits = n;
    }
    opts
}

/// Runs a golden case against `engines` (typically `&[&Reference]` plus the engines under
/// test): the value and stats come from the evaluator, each derivative header is checked
/// against every engine that does not decline it. Panics inside Adora are caught and
/// reported as failures. Runs on a large stack (`adora_core::with_stack`).
pub fn run_case(case: &Case, engines: &[&dyn Engine]) -> Outcome {
    let name = case.name();
    let result = catch_unwind(AssertUnwindSafe(|| {
        adora_core::with_stack(|| {
            let mut run = Run {
                case,
                name: name.clone(),
                out: Outcome::default(),
            };
            run.go(engines);
            run.out
        })
    }));
    match result {
        Ok(out) => out,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(no message)".to_string());
            Outcome {
                failures: vec![format!("{name}: panicked: {msg}")],
                ..Outcome::default()
            }
        }
    }
}

struct Run<'a> {
    case: &'a Case,
    name: String,
    out: Outcome,
}

impl Run<'_> {
    fn fail(&mut self, what: impl std::fmt::Display) {
        self.out.failures.push(format!("{}: {what}", self.name));
    }

    fn render(&self, d: &Diagnostic) -> String {
        d.render(&self.name, &self.case.source)
            .trim_end()
            .to_string()
    }

    fn go(&mut self, engines: &[&dyn Engine]) {
        if let Some(e) = &self.case.error {
            self.fail(format!(
                "a golden program must not carry `-- error: {}`",
                e.code
            ));
            return;
        }
        let f = match crate::sized::load(self.case) {
            Ok(f) => f,
            Err(d) => {
                let msg = self.render(&d);
                self.fail(format!("does not load:\n{msg}"));
                return;
            }
        };
        match self.case.numeric {
            Numeric::Exact => self.run_typed::<Rat>(&f, engines),
            Numeric::F64 { .. } => self.run_typed::<f64>(&f, engines),
            Numeric::Ball { precision, .. } => {
                let _p = adora_semantics::scalar::interval::PrecisionScope::new(precision as usize);
                self.run_typed::<adora_semantics::scalar::Interval>(&f, engines)
            }
        }
    }

    /// The header literals of `lines` matched to the parameters of `f` (as `Option` per
    /// parameter); `reals_only` rejects lines for parameters without reals, `all_reals`
    /// demands one line for each parameter with reals.
    fn per_param<S: Mode>(
        &mut self,
        what: &str,
        lines: &[NamedLit],
        params: &[Param],
        reals_only: bool,
        all_reals: bool,
    ) -> Option<Vec<Option<Value<S>>>> {
        let mut ok = true;
        for l in lines {
            match params.iter().find(|p| p.name == l.name) {
                None => self.fail(format!(
                    "line {}: `-- {what}:` for `{}`, which is not a parameter",
                    l.lit.line, l.name
                )),
                Some(p) if reals_only && !p.ty.has_reals() => {
                    self.fail(format!(
                        "line {}: `-- {what}:` for `{}: {}`, which has no reals",
                        l.lit.line, l.name, p.ty
                    ));
                    ok = false;
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        for p in params {
            let line = lines.iter().find(|l| l.name == p.name);
            match line {
                Some(l) => match literal_value::<S>(&l.lit, &p.ty, &self.name, &self.case.source) {
                    Ok(v) => out.push(Some(v)),
                    Err(e) => {
                        self.fail(format!("`-- {what}: {}` is not a {}:\n{e}", p.name, p.ty));
                        ok = false;
                        out.push(None);
                    }
                },
                None => {
                    if all_reals && p.ty.has_reals() {
                        self.fail(format!(
                            "no `-- {what}: {} = ...` line (parameter `{}: {}`)",
                            p.name, p.name, p.ty
                        ));
                        ok = false;
                    }
                    out.push(None);
                }
            }
        }
        ok.then_some(out)
    }

    fn run_typed<S: Mode>(&mut self, f: &Function, engines: &[&dyn Engine]) {
        let case = self.case;
        let numeric = case.numeric;
        let opts = options(case);
        let Some(inputs) = self.per_param::<S>("input", &case.inputs, &f.params, false, false)
        else {
            return;
        };
        let mut missing = false;
        for (p, v) in f.params.iter().zip(&inputs) {
            if v.is_none() {
                self.fail(format!(
                    "no `-- input: {} = ...` line (parameter `{}: {}`)",
                    p.name, p.name, p.ty
                ));
                missing = true;
            }
        }
        if missing {
            return;
        }
        let inputs: Vec<Value<S>> = inputs.into_iter().flatten().collect();
        let Some(value_lit) = &case.value else {
            self.fail("no `-- value:` line");
            return;
        };
        let expected = match literal_value::<S>(value_lit, &f.ret, &self.name, &case.source) {
            Ok(v) => v,
            Err(e) => return self.fail(format!("`-- value:` is not a {}:\n{e}", f.ret)),
        };
        match eval::<S>(f, &inputs, &opts) {
            Ok((v, stats)) => {
                self.out.checked.push("eval: value".into());
                if !values_agree(&v, &expected, numeric) {
                    self.fail(format!(
                        "value: expected {} but got {}",
                        show(&expected),
                        show(&v)
                    ));
                }
                self.check_stats(&stats);
            }
            Err(d) => {
                let msg = self.render(&d);
                self.fail(format!("evaluation failed:\n{msg}"));
            }
        }
        let mut grad_want = None;
        let mut vjp_want = None;
        if !case.grads.is_empty() {
            if let Some(want) = self.per_param::<S>("grad", &case.grads, &f.params, true, true) {
                for e in engines {
                    let got = harness::gradient(*e, f, &inputs, &opts);
                    self.check_gradient(e.name(), "grad", got, &expected, &want, &f.params);
                }
                grad_want = Some(want);
            }
        }
        if let Some(jvp_lit) = &case.jvp {
            let tangents = self.per_param::<S>("tangent", &case.tangents, &f.params, true, false);
            let want = literal_value::<S>(jvp_lit, &f.ret, &self.name, &case.source);
            match (tangents, want) {
                (Some(tangents), Ok(want)) => {
                    let query = Query::Jvp(tangents);
                    for e in engines {
                        match harness::ask(*e, f, &inputs, &query, &opts) {
                            Ok(Answer::Jvp(v, t)) => {
                                self.out.checked.push(format!("{}: jvp", e.name()));
                                if !values_agree(&v, &expected, numeric) {
                                    self.fail(format!(
                                        "jvp [{}]: value: expected {} but got {}",
                                        e.name(),
                                        show(&expected),
                                        show(&v)
                                    ));
                                }
                                if !values_agree(&t, &want, numeric) {
                                    self.fail(format!(
                                        "jvp [{}]: expected {} but got {}",
                                        e.name(),
                                        show(&want),
                                        show(&t)
                                    ));
                                }
                            }
                            Ok(Answer::Gradient(_)) => {
                                self.fail(format!("jvp [{}]: answered with a gradient", e.name()))
                            }
                            Err(d) => self.engine_error(e.name(), "jvp", &d),
                        }
                    }
                }
                (_, Err(e)) => self.fail(format!("`-- jvp:` is not a {}:\n{e}", f.ret)),
                (None, _) => {}
            }
        }
        if let Some(cot_lit) = &case.cotangent {
            let cot = literal_value::<S>(cot_lit, &f.ret, &self.name, &case.source);
            let want = self.per_param::<S>("vjp", &case.vjps, &f.params, true, true);
            match (cot, want) {
                (Ok(cot), Some(want)) => {
                    for e in engines {
                        let got = harness::vjp(*e, f, &inputs, &cot, &opts);
                        self.check_gradient(e.name(), "vjp", got, &expected, &want, &f.params);
                    }
                    vjp_want = Some(want);
                }
                (Err(e), _) => self.fail(format!("`-- cotangent:` is not a {}:\n{e}", f.ret)),
                (_, None) => {}
            }
        }
        if !case.printed.is_empty() {
            let r = crate::printed::check(
                case,
                f,
                &inputs,
                &expected,
                grad_want.as_deref(),
                vjp_want.as_deref(),
                &opts,
            );
            for m in r.failures {
                self.fail(m);
            }
            self.out.checked.extend(r.checked);
        }
    }

    /// An engine's error: `Unsupported` is a skip; everything else, an `Internal` error
    /// (a bug in Adora) above all, is a failure.
    fn engine_error(&mut self, engine: &str, what: &str, d: &Diagnostic) {
        match d.kind {
            ErrorKind::Unsupported => self
                .out
                .skipped
                .push(format!("{engine}: {what}: {}", d.message)),
            ErrorKind::Internal => {
                let msg = self.render(d);
                self.fail(format!(
                    "{what} [{engine}] failed with an internal error (a bug in Adora):\n{msg}"
                ));
            }
            _ => {
                let msg = self.render(d);
                self.fail(format!("{what} [{engine}] failed:\n{msg}"));
            }
        }
    }

    fn check_gradient<S: Mode>(
        &mut self,
        engine: &str,
        what: &str,
        got: adora_core::Result<Gradient<S>>,
        value: &Value<S>,
        want: &[Option<Value<S>>],
        params: &[Param],
    ) {
        let numeric = self.case.numeric;
        let g = match got {
            Ok(g) => g,
            Err(d) => return self.engine_error(engine, what, &d),
        };
        self.out.checked.push(format!("{engine}: {what}"));
        if !values_agree(&g.value, value, numeric) {
            self.fail(format!(
                "{what} [{engine}]: value: expected {} but got {}",
                show(value),
                show(&g.value)
            ));
        }
        if g.grads.len() != params.len() {
            self.fail(format!(
                "{what} [{engine}]: {} entries for {} parameters",
                g.grads.len(),
                params.len()
            ));
            return;
        }
        for ((p, w), a) in params.iter().zip(want).zip(&g.grads) {
            match (w, a) {
                (Some(w), Some(a)) if values_agree(a, w, numeric) => {}
                (Some(w), Some(a)) => self.fail(format!(
                    "{what} {} [{engine}]: expected {} but got {}",
                    p.name,
                    show(w),
                    show(a)
                )),
                (Some(w), None) => self.fail(format!(
                    "{what} {} [{engine}]: expected {} but got none",
                    p.name,
                    show(w)
                )),
                (None, Some(a)) if p.ty.has_reals() => self.fail(format!(
                    "{what} {} [{engine}]: no expectation but got {}",
                    p.name,
                    show(a)
                )),
                (None, Some(a)) => self.fail(format!(
                    "{what} {} [{engine}]: `{}` has no reals but got {}",
                    p.name,
                    p.ty,
                    show(a)
                )),
                (None, None) => {}
            }
        }
    }

    fn check_stats(&mut self, stats: &EvalStats) {
        let Some(want) = &self.case.stats else { return };
        for (field, n) in want {
            let got = match field.as_str() {
                "div_by_zero" => stats.div_by_zero,
                "oob_reads" => stats.oob_reads,
                "oob_writes" => stats.oob_writes,
                _ => stats.colliding_writes,
            };
            if got != *n {
                self.fail(format!("stats: expected {field}={n} but got {field}={got}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::run_case;
    use crate::case::parse_case;
    use crate::engine::{Derivatives, Engine, Reference, Runtime};
    use adora_core::ast::Function;
    use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
    use adora_semantics::eval::EvalOptions;
    use adora_semantics::reference::Gradient;
    use adora_semantics::value::Value;
    use adora_semantics::Rat;
    use std::path::Path;

    /// An engine whose every gradient is an internal error (Adora's own failure).
    struct Broken;

    impl Derivatives<Rat> for Broken {
        fn gradient(
            &self,
            _: &Function,
            _: &[Value<Rat>],
            _: &EvalOptions,
        ) -> Result<Gradient<Rat>> {
            Err(Diagnostic::new(
                ErrorKind::Internal,
                Span::DUMMY,
                "internal error: the derivative program does not type-check",
            ))
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

    #[test]
    fn an_internal_error_is_a_failure_not_a_skip() {
        let text = "-- input: x = 3\n-- value: 9\n-- grad: x = 6\ndef main(x: R) -> R = x * x\n";
        let case = parse_case(Path::new("square.adl"), text).expect("a valid case");
        let out = run_case(&case, &[&Reference, &Broken]);
        assert!(out.skipped.is_empty(), "{out:?}");
        assert_eq!(out.failures.len(), 1, "{out:?}");
        assert!(out.failures[0].contains("[broken]"), "{out:?}");
        assert!(out.failures[0].contains("error[internal]"), "{out:?}");
        assert!(
            out.checked.iter().any(|c| c == "reference: grad"),
            "{out:?}"
        );
    }
}
