//! Runs properties with proptest's `TestRunner`: deterministic per (seed, property name),
//! shrinking failures with the generators' shrinker, and persisting failing seeds in
//! `proptests/regressions/<area>/<name>.txt` (replayed first on every later run).

use crate::catalogue::{catalogue, Agg, Check, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use proptest::collection::vec;
use proptest::strategy::Strategy;
use proptest::test_runner::{
    Config, FileFailurePersistence, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How to run the catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckConfig {
    /// Random cases per property.
    pub cases: u32,
    /// Seed of the run; each property's random source is derived from it and the name.
    pub seed: u64,
    /// Only properties whose name contains this text.
    pub filter: Option<String>,
    /// Worker threads (properties run in parallel; results do not depend on it).
    pub jobs: usize,
    /// Multiplier of every generator's size budget (`adora check --size`; 1 keeps the
    /// generators' default output, see [`crate::gen::scale`]).
    pub size: u32,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            cases: 100,
            seed: 0,
            filter: None,
            jobs: 1,
            size: 1,
        }
    }
}

/// The outcome of running one property.
#[derive(Clone, Debug, PartialEq)]
pub struct PropertyReport {
    /// The property's name.
    pub name: &'static str,
    /// Cases generated and checked (up to and including a failing one; shrinking steps
    /// and replayed regressions not counted).
    pub cases_run: u32,
    /// Failing properties count 1 (the runner stops at the first failure and shrinks it).
    pub failures: u32,
    /// Cases that had nothing to check (e.g. no real inputs for a gradient property).
    pub vacuous: u32,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The summary figure (`max rel err 1.1e-16`), with the vacuous count.
    pub figure: Option<String>,
    /// The shrunk counterexample: the failure message, the program, its `--input` flags,
    /// and the command that replays it.
    pub counterexample: Option<String>,
    /// Wall-clock time of the slowest counted case (generation not included).
    pub slowest_case: Duration,
    /// Sizes (expression nodes, [`Case::node_count`]) of the counted generated surface
    /// programs: `(count, total, largest)`; `(0, 0, 0)` for properties whose cases are
    /// not surface programs (dimensions, tensor-language terms).
    pub program_nodes: (u32, u64, usize),
}

/// The file where failing seeds of `name` are persisted (and replayed from).
pub fn regression_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("regressions")
        .join(format!("{name}.txt"))
}

fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The random source of property `name` in a run with `seed`.
pub fn property_rng(seed: u64, name: &str) -> TestRng {
    let mut c = ChaCha8Rng::seed_from_u64(seed ^ fnv1a(name));
    let mut bytes = [0u8; 32];
    c.fill_bytes(&mut bytes);
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// Most shrinking steps per failure (a step runs the property once).
pub const MAX_SHRINK_ITERS: u32 = 3000;

struct Tally {
    calls: AtomicU32,
    reported: AtomicU32,
    vacuous: AtomicU32,
    failed: AtomicU32,
    figures: Mutex<Vec<f64>>,
    /// Slowest counted case, and the sizes of the counted programs (see
    /// [`PropertyReport::program_nodes`]).
    stats: Mutex<(Duration, (u32, u64, usize))>,
}

fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-string payload".into())
}

/// Runs one check, turning panics into failures.
fn guarded(f: impl FnOnce() -> Outcome + std::panic::UnwindSafe) -> Outcome {
    std::panic::catch_unwind(f).unwrap_or_else(|e| Err(format!("panicked: {}", panic_message(&*e))))
}

/// Where failing seeds are persisted and replayed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Persistence {
    /// `proptests/regressions/<name>.txt` in the repository ([`regression_file`]).
    Repository,
    /// Nowhere (tests of the runner itself).
    Off,
    /// The given file (tests of the runner itself).
    File(PathBuf),
}

/// Runs `p` with `cfg` (its `filter` and `jobs` are ignored here; `size` scales the
/// generators on the property's thread).
pub fn run_property(p: &Property, cfg: &CheckConfig) -> PropertyReport {
    run_property_with_progress(p, cfg, &|_, _| {})
}

/// Runs `p` with `cfg` and the given persistence of failing seeds.
pub fn run_property_persisting(
    p: &Property,
    cfg: &CheckConfig,
    persistence: Persistence,
) -> PropertyReport {
    adora_core::with_stack(|| run_here(p, cfg, &|_, _| {}, persistence))
}

/// Runs `p` with `cfg`, calling `progress(name, k)` as `k` more cases complete (the
/// increments of one property add up to `cfg.cases`). The property runs on a thread with
/// a large stack (`adora_core::with_stack`): parsing, checking and evaluation recurse.
pub fn run_property_with_progress(
    p: &Property,
    cfg: &CheckConfig,
    progress: &(dyn Fn(&str, u32) + Sync),
) -> PropertyReport {
    adora_core::with_stack(|| run_here(p, cfg, progress, Persistence::Repository))
}

/// Runs `p` on this thread with the generators' size multiplier `cfg.size`.
fn run_here(
    p: &Property,
    cfg: &CheckConfig,
    progress: &(dyn Fn(&str, u32) + Sync),
    persistence: Persistence,
) -> PropertyReport {
    crate::gen::scale::with_factor(cfg.size, || run_scaled(p, cfg, progress, persistence))
}

fn run_scaled(
    p: &Property,
    cfg: &CheckConfig,
    progress: &(dyn Fn(&str, u32) + Sync),
    persistence: Persistence,
) -> PropertyReport {
    let start = Instant::now();
    let tally = Tally {
        calls: AtomicU32::new(0),
        reported: AtomicU32::new(0),
        vacuous: AtomicU32::new(0),
        failed: AtomicU32::new(0),
        figures: Mutex::new(Vec::new()),
        stats: Mutex::new((Duration::ZERO, (0, 0, 0))),
    };
    let file = match persistence {
        Persistence::Repository => {
            let path: &'static str = Box::leak(
                regression_file(p.name)
                    .to_string_lossy()
                    .into_owned()
                    .into_boxed_str(),
            );
            FileFailurePersistence::Direct(path)
        }
        Persistence::Off => FileFailurePersistence::Off,
        Persistence::File(f) => FileFailurePersistence::Direct(Box::leak(
            f.to_string_lossy().into_owned().into_boxed_str(),
        )),
    };
    let config = Config {
        cases: cfg.cases,
        failure_persistence: Some(Box::new(file)),
        max_shrink_iters: MAX_SHRINK_ITERS,
        max_shrink_time: 0,
        max_global_rejects: cfg.cases.saturating_mul(4).max(64),
        rng_algorithm: RngAlgorithm::ChaCha,
        fork: false,
        timeout: 0,
        verbose: 0,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(config, property_rng(cfg.seed, p.name));
    // Records one check's outcome, its time and its program's size (when the case is a
    // surface program); after the first failure (shrinking) nothing is counted.
    let record = |out: &Outcome, took: Duration, nodes: Option<usize>| {
        if tally.failed.load(Ordering::SeqCst) > 0 {
            return;
        }
        let n = tally.calls.fetch_add(1, Ordering::SeqCst) + 1;
        if n <= cfg.cases {
            tally.reported.fetch_add(1, Ordering::SeqCst);
            progress(p.name, 1);
            let mut st = tally.stats.lock().unwrap_or_else(|e| e.into_inner());
            st.0 = st.0.max(took);
            if let Some(k) = nodes {
                st.1 .0 += 1;
                st.1 .1 += k as u64;
                st.1 .2 = st.1 .2.max(k);
            }
        }
        match out {
            Ok(Pass { vacuous: true, .. }) => {
                tally.vacuous.fetch_add(1, Ordering::SeqCst);
            }
            Ok(Pass {
                figure: Some(x), ..
            }) => tally
                .figures
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(*x),
            Ok(_) => {}
            Err(_) => {
                tally.failed.store(1, Ordering::SeqCst);
            }
        }
    };
    let cases = |s: CaseStrategy, check: &dyn Fn(&Case) -> Outcome, runner: &mut TestRunner| {
        let r = runner.run(&s, |case: Case| {
            // A panic aborts the case; checks and engines hold no state it could leave
            // half-updated.
            let t0 = Instant::now();
            let out = guarded(std::panic::AssertUnwindSafe(|| check(&case)));
            record(&out, t0.elapsed(), Some(case.node_count()));
            out.map(|_| ()).map_err(TestCaseError::fail)
        });
        r.map_err(|e| match e {
            TestError::Fail(why, case) => format!(
                "{why}\n\ncounterexample ({} nodes):\n{}",
                case.node_count(),
                case.render()
            ),
            TestError::Abort(why) => format!("aborted: {why}"),
        })
    };
    let result: Result<(), String> = match p.check {
        Check::Case { strategy, check } => cases(strategy(), &check, &mut runner),
        Check::Engine { engine, ret, check } => match adora_rewrites::engine::find(engine) {
            Some(e) => cases(
                engine_strategy(e.as_ref(), ret),
                &|c| check(e.as_ref(), c),
                &mut runner,
            ),
            None => Err(format!("no registered engine `{engine}`")),
        },
        Check::Dims { count, max, check } => {
            let s = vec(1..=max.max(1), count).prop_map(|v| v);
            let r = runner.run(&s, |dims: Vec<usize>| {
                let t0 = Instant::now();
                let out = guarded(|| check(&dims));
                record(&out, t0.elapsed(), None);
                out.map(|_| ()).map_err(TestCaseError::fail)
            });
            r.map_err(|e| match e {
                TestError::Fail(why, dims) => format!("{why}\n\ncounterexample: dims {dims:?}"),
                TestError::Abort(why) => format!("aborted: {why}"),
            })
        }
    };
    let reported = tally.reported.load(Ordering::SeqCst);
    if reported < cfg.cases {
        progress(p.name, cfg.cases - reported);
    }
    let cases_run = tally.calls.load(Ordering::SeqCst).min(cfg.cases.max(1));
    let vacuous = tally.vacuous.load(Ordering::SeqCst);
    let figures = tally
        .figures
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let (slowest_case, program_nodes) = tally.stats.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut parts = Vec::new();
    if let (Some(fig), false) = (p.figure, figures.is_empty()) {
        let x = match fig.agg {
            Agg::Max => figures.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            Agg::Mean => figures.iter().sum::<f64>() / figures.len() as f64,
        };
        parts.push(format!("{} {}", fig.label, fmt_figure(x)));
    }
    if vacuous > 0 {
        parts.push(format!("{vacuous} vacuous"));
    }
    let size = if cfg.size > 1 {
        format!(" --size {}", cfg.size)
    } else {
        String::new()
    };
    let replay = format!(
        "replay: adora check --filter {} --seed {} --cases {}{size}",
        p.name, cfg.seed, cfg.cases
    );
    PropertyReport {
        name: p.name,
        cases_run,
        failures: u32::from(result.is_err()),
        vacuous,
        elapsed: start.elapsed(),
        figure: (!parts.is_empty()).then(|| parts.join("; ")),
        counterexample: result.err().map(|msg| format!("{msg}\n{replay}")),
        slowest_case,
        program_nodes,
    }
}

fn fmt_figure(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() < 1e-3 {
        format!("{x:.2e}")
    } else {
        format!("{x:.3}")
    }
}

/// The cases of an engine property: programs of every generator fragment the engine
/// declares (sizes as the engines' own properties use them: 28 for `scalar`, 24
/// otherwise), with result kind `ret`.
pub fn engine_strategy(e: &dyn adora_rewrites::engine::Engine, ret: RetKind) -> CaseStrategy {
    let specs = e
        .fragments()
        .iter()
        .filter_map(|f| Fragment::ALL.into_iter().find(|g| g.name() == f.name()))
        .map(|f| {
            let size = if f == Fragment::Scalar { 28 } else { 24 };
            GenSpec::new(f).size(size).ret(ret)
        })
        .collect();
    CaseStrategy { specs }
}

/// The catalogue's properties selected by `cfg.filter`.
pub fn selected(cfg: &CheckConfig) -> Vec<Property> {
    catalogue()
        .into_iter()
        .filter(|p| cfg.filter.as_deref().is_none_or(|f| p.name.contains(f)))
        .collect()
}

/// Runs every selected property on `cfg.jobs` threads (results in catalogue order, each
/// deterministic in (seed, name), so independent of scheduling).
pub fn run_catalogue(
    cfg: &CheckConfig,
    progress: &(dyn Fn(&str, u32) + Sync),
) -> Vec<PropertyReport> {
    let props = selected(cfg);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<PropertyReport>>> = Mutex::new(vec![None; props.len()]);
    let worker = || loop {
        let k = next.fetch_add(1, Ordering::SeqCst);
        let Some(p) = props.get(k) else { break };
        let report = run_property_with_progress(p, cfg, progress);
        results.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(report);
    };
    let jobs = cfg.jobs.clamp(1, props.len().max(1));
    std::thread::scope(|s| {
        for _ in 1..jobs {
            s.spawn(worker);
        }
        worker();
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}
