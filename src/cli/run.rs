//! `adora run F --backend cpu|cuda|interp [--engine E --grad|--vjp C] --input …`: the
//! program, or an engine's derivative program, lowered to a kernel plan and run by a
//! backend, or evaluated by the interpretive f64 evaluator (docs/backend.md). `--repeat N`
//! times N calls (on the CPU backend `Machine::execute` of one prepared machine, its
//! inputs loaded once, the result left in its buffers) and prints the minimum and the median, and for a plan its counted memory
//! traffic and the median call's bandwidth against the machine's measured copy bandwidth
//! (docs/backend.md, "Memory traffic").

use super::diff::print_gradient;
use super::error::CliError;
use super::inputs::{self, literal, render};
use super::schema::{with_warnings, Question};
use super::{ConventionsArg, Format, JsonNumbersArg, Numeric, RunArgs, OK};
use adora_core::diag::ErrorKind;
use adora_rewrites::engine::program::Seed;
use adora_semantics::io::{to_json, to_text};
use adora_semantics::value::Value;
use clap::{Args, ValueEnum};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

/// Which backend runs the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The multi-threaded CPU executor (always available).
    Cpu,
    /// CUDA kernels compiled by NVRTC and launched through cudarc (needs a driver and a
    /// device; without them: "no CUDA device", exit 2).
    Cuda,
    /// No plan: the interpretive evaluator of `adora eval --numeric f64`
    /// (`adora_semantics::eval`), to compare its time per call with the backends'.
    Interp,
}

impl Backend {
    fn name(self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Cuda => "cuda",
            Backend::Interp => "interp",
        }
    }
}

/// Which kernels the CPU backend runs (docs/backend.md, "Compiled kernels").
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KernelsArg {
    /// Compiled by the system C compiler where one is found (`ADORA_CC`, else `cc`,
    /// `gcc`, `clang`), else the lanes.
    Auto,
    /// Compiled; without a C compiler an error (exit 2).
    Compiled,
    /// The lanes evaluator (no compiler).
    Lanes,
}

impl KernelsArg {
    fn kernels(self) -> adora_gpu::cpu::Kernels {
        match self {
            KernelsArg::Auto => adora_gpu::cpu::Kernels::Auto,
            KernelsArg::Compiled => adora_gpu::cpu::Kernels::Compiled,
            KernelsArg::Lanes => adora_gpu::cpu::Kernels::Lanes,
        }
    }
}

/// Options of `adora run`.
#[derive(Args, Debug, Clone)]
pub struct RunCmd {
    /// The program file.
    pub file: PathBuf,
    /// Entry point (a `def` name).
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// An input, `name=literal` (repeatable), e.g. `--input 'x=[1, 2/3]'`.
    #[arg(long = "input", value_name = "NAME=LITERAL")]
    pub inputs: Vec<String>,
    /// A JSON file mapping input names to values (as for `adora eval`).
    #[arg(long = "inputs", value_name = "FILE")]
    pub inputs_json: Option<PathBuf>,
    /// The value of a size parameter of the entry point, `NAME=N` (repeatable).
    #[arg(long = "size", value_name = "NAME=N")]
    pub sizes: Vec<String>,
    /// The backend.
    #[arg(long, value_enum, default_value = "cpu")]
    pub backend: Backend,
    /// Which kernels the CPU backend runs (default `auto`: compiled by the system C
    /// compiler where one is found, else the lanes evaluator).
    #[arg(long, value_enum, value_name = "KERNELS")]
    pub kernels: Option<KernelsArg>,
    /// The engine whose derivative program runs with `--grad` or `--vjp` (default: the
    /// first registered engine that derives one).
    #[arg(long, value_parser = super::names::EngineName { with_all: false })]
    pub engine: Option<String>,
    /// Run the engine's gradient program (a scalar R result): value and gradient.
    #[arg(long, conflicts_with = "vjp")]
    pub grad: bool,
    /// Run the engine's VJP program with this result cotangent (a literal).
    #[arg(long, value_name = "LITERAL", allow_hyphen_values = true)]
    pub vjp: Option<String>,
    /// Time this many calls and print the time per call (minimum and median).
    #[arg(long, value_name = "N")]
    pub repeat: Option<usize>,
    /// With `--repeat` on the CPU backend: also print each kernel's share of the timed
    /// calls, slowest first.
    #[arg(long, requires = "repeat")]
    pub profile: bool,
    /// Most evaluation steps of one call of `--backend interp` before a resource error.
    #[arg(long, value_name = "N", default_value_t = adora_semantics::eval::EvalOptions::default().max_steps)]
    pub max_steps: u64,
    /// Most bytes of arrays one call of `--backend interp` may allocate.
    #[arg(long, value_name = "BYTES", default_value_t = adora_semantics::eval::EvalOptions::default().max_memory)]
    pub max_memory: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

impl RunCmd {
    fn run_args(&self) -> RunArgs {
        RunArgs {
            file: self.file.clone(),
            entry: self.entry.clone(),
            inputs: self.inputs.clone(),
            inputs_json: self.inputs_json.clone(),
            sizes: self.sizes.clone(),
            json_numbers: JsonNumbersArg::Decimal,
            numeric: Numeric::F64,
            precision: 128,
            engine: None,
            checkpoint: None,
            strict: false,
            max_steps: self.max_steps,
            max_memory: self.max_memory,
            format: self.format,
            conventions: ConventionsArg::Futhark,
        }
    }
}

/// `adora run`; the exit code.
pub fn run(c: &RunCmd) -> Result<u8, CliError> {
    if c.kernels.is_some() && c.backend != Backend::Cpu {
        return Err(inputs::plain_error(
            ErrorKind::Input,
            "--kernels chooses the kernels of the CPU backend (--backend cpu)",
        ));
    }
    let ra = c.run_args();
    let l = inputs::load_run(&ra)?;
    let xs = inputs::inputs::<f64>(&l, &ra)?;
    let question = if c.grad {
        Some(Question::Grad)
    } else if c.vjp.is_some() {
        Some(Question::Vjp)
    } else {
        None
    };
    let (func, args, dp) = match question {
        None => (l.func.clone(), xs.clone(), None),
        Some(q) => {
            let e = super::show::program_engine(
                c.engine.as_deref(),
                q,
                &adora_rewrites::engine::EngineOptions::default(),
            )?;
            q.check_function(&l.func).map_err(|d| render(&l, &d))?;
            let dp = e.program(&l.func, q).map_err(|d| render(&l, &d))?;
            let one = Value::real(1.0);
            let ct = match &c.vjp {
                Some(text) => literal::<f64>("--vjp", text, &l.func.ret)?,
                None => one,
            };
            let args = dp
                .arguments(&l.func, &xs, Seed::Cotangent(&ct))
                .map_err(|d| render(&l, &d))?;
            (dp.function.clone(), args, Some(dp))
        }
    };
    // The interpreter needs no plan (and runs what the plan refuses).
    let plan = match c.backend {
        Backend::Interp => None,
        _ => Some(adora_gpu::plan::plan(&func).map_err(|d| render(&l, &d))?),
    };
    let opts = super::diff::options(&ra);
    // The CPU backend's machine holds the slots and the loaded inputs; a call runs the
    // steps only, as JAX's timed call gets arrays already on the device (docs/backend.md,
    // "Timing").
    let mut machine = match (c.backend, &plan) {
        (Backend::Cpu, Some(plan)) => {
            let kernels = c.kernels.unwrap_or(KernelsArg::Auto).kernels();
            let mut m =
                adora_gpu::cpu::Machine::with_kernels(plan, kernels).map_err(|d| render(&l, &d))?;
            m.load(&args).map_err(|d| render(&l, &d))?;
            Some(m)
        }
        _ => None,
    };
    let call = |machine: Option<&mut adora_gpu::cpu::Machine<'_>>| -> Result<Value<f64>, CliError> {
        if let Some(m) = machine {
            return m.call().map_err(|d| render(&l, &d));
        }
        match (c.backend, &plan) {
            (Backend::Cuda, Some(plan)) => adora_gpu::cuda::run(plan, &args).map_err(|e| match e {
                adora_gpu::cuda::CudaError::NoDevice(why) => {
                    inputs::plain_error(ErrorKind::Unsupported, format!("no CUDA device: {why}"))
                }
                adora_gpu::cuda::CudaError::Failed(d) => render(&l, &d),
            }),
            _ => adora_semantics::eval::eval(&func, &args, &opts)
                .map(|(v, _)| v)
                .map_err(|d| render(&l, &d)),
        }
    };
    let out = call(machine.as_mut())?;
    match (&dp, question) {
        (Some(dp), Some(q)) => {
            let g = dp
                .unpack(&l.func, &xs, out)
                .map_err(|d| render(&l, &d))?
                .gradient();
            print_gradient(&l, c.format, &g, q);
        }
        _ => match c.format {
            Format::Json => println!("{}", with_warnings(&l, json!({"value": to_json(&out)}))),
            Format::Text => println!("value: {}", to_text(&out)),
        },
    }
    if let Some(n) = c.repeat {
        if c.profile {
            match machine.as_mut() {
                Some(m) => m.profile(),
                None => {
                    return Err(inputs::plain_error(
                        ErrorKind::Input,
                        "--profile times the kernels of the CPU backend (--backend cpu)",
                    ))
                }
            }
        }
        let mut times = Vec::with_capacity(n);
        for _ in 0..n.max(1) {
            let t = Instant::now();
            // On the CPU a timed call runs the steps and leaves the result in its buffers,
            // as JAX's timed call leaves its result on the device (docs/backend.md,
            // "Timing"); the other backends return a value.
            match machine.as_mut() {
                Some(m) => m.execute().map_err(|d| render(&l, &d))?,
                None => drop(call(None)?),
            }
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let ms = |s: f64| s * 1e3;
        let median = times[times.len() / 2];
        println!(
            "time per call ({} calls, {} backend): min {:.4} ms, median {:.4} ms",
            times.len(),
            c.backend.name(),
            ms(times[0]),
            ms(median)
        );
        if let Some(m) = &machine {
            match (m.native(), adora_gpu::cpu::native::compiler()) {
                (Some(_), Some(cc)) => {
                    println!("kernels: compiled by `{}` ({})", cc.path, cc.version)
                }
                _ => println!("kernels: lanes"),
            }
        }
        if let Some(plan) = &plan {
            print_traffic(plan, median, c.backend);
        }
        if let Some(m) = &machine {
            print_profile(m, times.len());
        }
    }
    Ok(OK)
}

/// Each kernel's time over the timed calls, slowest first (nothing unless profiling).
fn print_profile(m: &adora_gpu::cpu::Machine<'_>, calls: usize) {
    let mut ks = m.kernel_times();
    if ks.is_empty() {
        return;
    }
    let total: f64 = ks.iter().map(|k| k.1).sum();
    ks.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("kernel times ({calls} calls; launches, ms per call, share of the kernels' time):");
    for (name, t, n) in ks {
        println!(
            "  {name:<24} {n:>8} {:>10.4} ms {:>6.1}%",
            t * 1e3 / calls.max(1) as f64,
            100.0 * t / total.max(f64::MIN_POSITIVE)
        );
    }
}

/// The plan's counted traffic per call and the bandwidth of the median call; on the CPU
/// also as a fraction of the copy bandwidth measured now (docs/backend.md, "Memory
/// traffic").
fn print_traffic(plan: &adora_gpu::plan::Plan, median: f64, backend: Backend) {
    let bytes = adora_gpu::plan::traffic(plan).total;
    let gbs = |b: f64| b / 1e9;
    let achieved = bytes as f64 / median.max(f64::MIN_POSITIVE);
    if backend != Backend::Cpu {
        println!(
            "traffic: {bytes} bytes per call, median call {:.3} GB/s",
            gbs(achieved)
        );
        return;
    }
    let copy = adora_gpu::cpu::stream::copy_bandwidth();
    let limit = copy.bytes_per_second();
    println!(
        "traffic: {bytes} bytes per call, median call {:.3} GB/s = {:.4} of the copy bandwidth {:.3} GB/s (measured: parallel copy of {} MiB, best of {})",
        gbs(achieved),
        achieved / limit,
        gbs(limit),
        copy.bytes / 2 / (1 << 20),
        adora_gpu::cpu::stream::COPY_REPEATS
    );
}
