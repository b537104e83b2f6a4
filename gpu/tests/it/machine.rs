//! Prepared runs (docs/backend.md, "CPU executor"): a `Machine` allocates its slots and
//! stores its inputs once; every call gives what a fresh run gives, bit for bit, although
//! the slots hold what the previous call left (a scatter's output, a loop's carries).

use super::corpus::{corpus, Scope};
use adora_core::diag::ErrorKind;
use adora_gpu::cpu::{run, Machine};
use adora_gpu::plan::{plan, show, Plan};
use adora_semantics::value::Value;

fn plan_of(src: &str) -> Plan {
    let p = adora_core::parser::parse_program(src).expect("parses");
    let f = adora_core::check::elaborate(&p, "main").expect("checks");
    plan(&f).expect("plans")
}

/// The value's numbers as bits (NaNs compare by their bits).
fn bits(v: &Value<f64>, out: &mut Vec<u64>) {
    match v {
        Value::Real(t) => out.extend(t.data.iter().map(|x| x.to_bits())),
        Value::Int(t) => out.extend(t.data.iter().map(|&x| x as u64)),
        Value::Bool(t) => out.extend(t.data.iter().map(|&x| u64::from(x))),
        Value::Tuple(vs) => vs.iter().for_each(|v| bits(v, out)),
    }
}

fn same(a: &Value<f64>, b: &Value<f64>) -> bool {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    bits(a, &mut x);
    bits(b, &mut y);
    x == y
}

/// Three calls of one machine, each equal to a fresh run and to `want`.
fn three_calls_equal(p: &Plan, inputs: &[Value<f64>], want: &Value<f64>) {
    let fresh = run(p, inputs).expect("runs");
    assert_eq!(&fresh, want, "{}", show(p));
    let mut m = Machine::new(p);
    m.load(inputs).expect("loads");
    for call in 0..3 {
        let got = m.call().expect("calls");
        assert_eq!(&got, want, "call {call}:\n{}", show(p));
    }
}

#[test]
fn repeated_calls_of_a_scatter_add_nothing_twice() {
    // result[i % 3] += x[i] * x[i]: the scatter adds into its output, which its own zero
    // kernel clears on every call.
    let p = plan_of("def main(x: R[7]) -> R[3] = scatter([3], x * x, i => [i % 3])\n");
    let text = show(&p);
    assert!(text.contains("scatter"), "{text}");
    let x = Value::reals(vec![7], vec![1.0, 2.0, -1.0, 0.5, 3.0, 1.0, -2.0]).unwrap();
    let want = Value::reals(vec![3], vec![5.25, 13.0, 2.0]).unwrap();
    three_calls_equal(&p, &[x], &want);
}

#[test]
fn repeated_calls_of_a_host_loop_start_from_the_initial_accumulator() {
    // a = x; three times a = a * w + x, on arrays: a host loop whose carry is copied back
    // into the accumulator buffer.
    let p =
        plan_of("def main(x: R[4], w: R[4]) -> R[4] =\n  loop (a = x) for i < 3 do a * w + x\n");
    let text = show(&p);
    assert!(text.contains("loop"), "{text}");
    let xs = [1.0, -2.0, 0.5, 3.0];
    let ws = [2.0, 0.5, -1.0, 1.0];
    let want: Vec<f64> = xs
        .iter()
        .zip(&ws)
        .map(|(&x, &w)| (0..3).fold(x, |a, _| a * w + x))
        .collect();
    let inputs = [
        Value::reals(vec![4], xs.to_vec()).unwrap(),
        Value::reals(vec![4], ws.to_vec()).unwrap(),
    ];
    three_calls_equal(&p, &inputs, &Value::reals(vec![4], want).unwrap());
}

#[test]
fn a_machine_loaded_again_computes_with_the_new_inputs() {
    let p = plan_of("def main(x: R[5], y: R[5]) -> R = sum(x * y)\n");
    let a = [
        Value::reals(vec![5], vec![1.0, 2.0, 3.0, 4.0, 5.0]).unwrap(),
        Value::reals(vec![5], vec![1.0; 5]).unwrap(),
    ];
    let b = [
        Value::reals(vec![5], vec![0.5; 5]).unwrap(),
        Value::reals(vec![5], vec![2.0, 0.0, 2.0, 0.0, 2.0]).unwrap(),
    ];
    let mut m = Machine::new(&p);
    m.load(&a).unwrap();
    assert_eq!(m.call().unwrap(), Value::real(15.0));
    m.load(&b).unwrap();
    assert_eq!(m.call().unwrap(), Value::real(3.0));
}

#[test]
fn a_call_before_any_inputs_is_an_input_error() {
    let p = plan_of("def main(x: R[2]) -> R = sum(x)\n");
    let e = Machine::new(&p).call().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Input);
    let bad = [Value::reals(vec![3], vec![1.0; 3]).unwrap()];
    let mut m = Machine::new(&p);
    assert_eq!(m.load(&bad).unwrap_err().kind, ErrorKind::Input);
    assert_eq!(m.call().unwrap_err().kind, ErrorKind::Input);
}

/// Every program of the quick corpus (primal and derivative programs: scatters,
/// histograms, host loops, scans): a second and a third call of one machine equal a fresh
/// run bit for bit.
#[test]
fn every_corpus_program_gives_the_same_bits_on_every_call() {
    let entries = corpus(Scope::Quick);
    let mut failures = Vec::new();
    for e in &entries {
        let fresh = run(&e.plan, &e.inputs).expect("runs");
        let mut m = Machine::new(&e.plan);
        m.load(&e.inputs).expect("loads");
        for call in 0..3 {
            let got = m.call().expect("calls");
            if !same(&got, &fresh) {
                failures.push(format!("{} (call {call}): {got:?} != {fresh:?}", e.name));
            }
        }
    }
    println!(
        "{} programs: three calls each equal a fresh run",
        entries.len()
    );
    assert!(entries.len() > 100, "{} programs", entries.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
