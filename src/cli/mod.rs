//! Command-line definitions (clap) and dispatch. Exit codes: 0 success, 1 a check or
//! comparison failed, 2 bad usage or bad input, 3 an internal error (a bug in Adora).

mod check;
mod compare;
mod cost;
mod diff;
mod difftest;
mod error;
mod export;
mod fuzz;
mod gradbench;
mod inputs;
mod names;
mod pullback;
mod run;
mod schema;
mod show;
mod sizes;
mod tangents;

use adora_rewrites::engine::{Checkpoint, EngineOptions};
use adora_semantics::conventions::Conventions;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

pub use names::{unknown_engine, ALL_ENGINES};

/// Exit code: success.
pub const OK: u8 = 0;
/// Exit code: a property check or a comparison failed.
pub const FAILED: u8 = 1;
/// Exit code: bad usage or bad input.
pub const BAD_INPUT: u8 = 2;
/// Exit code: an internal error, a bug in Adora (`ErrorKind::Internal`).
pub const INTERNAL: u8 = 3;

/// Adora: exact values and derivatives of array programs, AD engines checked against an
/// exact semantics, and cost models.
#[derive(Parser, Debug)]
#[command(name = "adora", version, about, long_about = None, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Evaluate a program on its inputs.
    #[command(after_help = EXIT_CODES)]
    Eval(RunArgs),
    /// Value and gradient of a program with a scalar R result, for every real input.
    #[command(after_help = EXIT_CODES)]
    Grad(RunArgs),
    /// Forward mode: value and Jacobian-vector product along `--tangent`s.
    #[command(after_help = EXIT_CODES)]
    Jvp {
        #[command(flatten)]
        run: RunArgs,
        /// Tangent of one real input, `name=literal` (repeatable; at least one is needed
        /// when the entry point has a real input; the inputs not named get zero tangents).
        #[arg(long = "tangent", value_name = "NAME=LITERAL")]
        tangents: Vec<String>,
    },
    /// Reverse mode: value and vector-Jacobian product for the result cotangent.
    #[command(after_help = EXIT_CODES)]
    Vjp {
        #[command(flatten)]
        run: RunArgs,
        /// Cotangent of the result, a literal shaped like the result (may start with `-`:
        /// `--cotangent -1`).
        #[arg(long, value_name = "LITERAL", allow_hyphen_values = true)]
        cotangent: String,
    },
    /// Reduce a pullback-calculus file (`.adp`) with the call-by-value strategy and print
    /// its normal form; `--trace` prints every step (docs/engines/pullback.md).
    #[command(after_help = EXIT_CODES)]
    Reduce(pullback::ReduceArgs),
    /// Print a program after a named stage, as source that parses and evaluates again.
    #[command(after_help = EXIT_CODES)]
    Show {
        /// The program file.
        file: PathBuf,
        /// Stage: `parse`, `inline`, `bot`, `delta`, or a derivative question (`grad`,
        /// `vjp`, `jvp`: the derivative program of `--engine`).
        #[arg(long, default_value = "inline", value_parser = names::StageName)]
        stage: String,
        /// The engine whose derivative program `--stage grad|vjp|jvp` prints (default:
        /// the first registered engine that derives one).
        #[arg(long, value_parser = names::EngineName { with_all: false })]
        engine: Option<String>,
        /// Engine option: how the reverse mode checkpoints loops, `every`, `once` or
        /// `stripmine:K` (engine `soac` only; docs/engines/soac-reverse.md).
        #[arg(long, value_name = "POLICY", value_parser = names::checkpoint_policy)]
        checkpoint: Option<Checkpoint>,
        /// Entry point.
        #[arg(long, default_value = "main")]
        entry: String,
        /// The value of a size parameter of the entry point, `NAME=N` (repeatable).
        #[arg(long = "size", value_name = "NAME=N")]
        sizes: Vec<String>,
        /// Show the program lowered for a profile of derivative conventions, so that its
        /// `futhark` derivative is the profile's (docs/conventions.md, "Every engine").
        #[arg(long, value_enum, default_value = "futhark")]
        conventions: ConventionsArg,
    },
    /// Linearize a program (seed 002 JVP): print its Linear A form (non-linear ; linear).
    #[command(after_help = EXIT_CODES)]
    Linearize {
        /// The program file (core syntax).
        file: PathBuf,
        /// Entry point.
        #[arg(long, default_value = "main")]
        entry: String,
        /// The value of a size parameter of the entry point, `NAME=N` (repeatable).
        #[arg(long = "size", value_name = "NAME=N")]
        sizes: Vec<String>,
    },
    /// Transpose a Linear A program (seed 002 §7): print the transposed Linear A program.
    #[command(after_help = EXIT_CODES)]
    Transpose {
        /// The Linear A file (`docs/engines/linear.md`).
        file: PathBuf,
        /// The `def` to transpose.
        #[arg(long, default_value = "main")]
        entry: String,
    },
    /// Cost-model counts (ops, work, span, mem) of a program.
    #[command(after_help = EXIT_CODES)]
    Cost(RunArgs),
    /// Run a program (or `--grad`/`--vjp`: an engine's derivative program) as a kernel
    /// plan on a backend (docs/backend.md); `--repeat N` prints the time per call.
    #[command(after_help = EXIT_CODES)]
    Run(run::RunCmd),
    /// Run the property suite (the theorem catalogue) on random programs.
    #[command(after_help = EXIT_CODES)]
    Check(check::CheckArgs),
    /// Fuzz the entry points (parser, checker, evaluator, engines, show, cost) for a
    /// bounded time; findings are written as reproducers (docs/fuzzing.md).
    #[command(after_help = FUZZ_EXIT_CODES)]
    Fuzz(fuzz::FuzzArgs),
    /// Export a program and its inputs as a self-contained Python module for JAX or
    /// PyTorch (docs/oracle.md).
    #[command(after_help = EXIT_CODES)]
    Export {
        #[command(flatten)]
        run: RunArgs,
        /// The target system.
        #[arg(long, value_enum)]
        to: export::TargetArg,
        /// Write the module to this file instead of standard output.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// A GradBench tool: speaks GradBench's protocol on standard input and output and
    /// serves its evals hello, llsq, det, kmeans, ode, lse, gmm, lstm with programs in our
    /// language (docs/gradbench.md).
    #[command(after_help = EXIT_CODES)]
    Gradbench(gradbench::ToolArgs),
    /// Re-validate a GradBench log: recompute every evaluate exactly (certified
    /// enclosures for lse, gmm, lstm) and compare the tool's outputs (docs/gradbench.md).
    #[command(name = "gradbench-check", after_help = EXIT_CODES)]
    GradbenchCheck(gradbench::CheckArgs),
    /// Differential testing: export golden programs to JAX or PyTorch, run them in the
    /// project's Python environment, compare values, gradients, JVPs and VJPs with ours
    /// (docs/oracle.md).
    #[command(after_help = EXIT_CODES)]
    Difftest {
        /// The system to test against.
        #[arg(long, value_enum)]
        against: export::TargetArg,
        /// Golden programs (default: every program under `specs/programs`).
        files: Vec<PathBuf>,
        /// The Python interpreter with the packages (`scripts/python-env.sh` creates it).
        #[arg(long, default_value = ".venv/bin/python", value_name = "PATH")]
        python: PathBuf,
        /// Test N programs from the property generators instead of golden files.
        #[arg(long, value_name = "N", conflicts_with = "files")]
        random: Option<usize>,
        /// The seed of `--random` (the same seed gives the same programs).
        #[arg(long, default_value_t = 0, requires = "random")]
        seed: u64,
        /// Our derivative conventions (docs/conventions.md); default: those of the system
        /// tested against (`jax` or `pytorch`), so that only real differences disagree.
        #[arg(long, value_enum, value_name = "PROFILE")]
        conventions: Option<ConventionsArg>,
        /// Most shrinking rounds per disagreement of `--random` (0: no shrinking).
        #[arg(long, default_value_t = 60, value_name = "N", requires = "random")]
        shrink_rounds: usize,
        /// Where `--random` saves shrunk disagreements.
        #[arg(
            long,
            default_value = "difftest-failures",
            value_name = "DIR",
            requires = "random"
        )]
        save: PathBuf,
    },
}

/// Number representation of an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Numeric {
    /// Exact rationals (the reference semantics); non-rational operations are errors.
    Exact,
    /// IEEE doubles; all operations.
    F64,
    /// Certified enclosures: intervals of binary floats of `--precision` bits with
    /// outward rounding that provably contain the exact value; all operations
    /// (docs/oracle.md, "Certified enclosures").
    Ball,
}

/// `--conventions`: a profile of derivative conventions (docs/conventions.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConventionsArg {
    /// Futhark's, ours: a tie follows the first operand, `abs'(0) = 0`.
    Futhark,
    /// JAX's: ties split evenly, `abs'(0) = 1`.
    Jax,
    /// PyTorch's: ties split evenly, `abs'(0) = 0`.
    Pytorch,
}

impl From<ConventionsArg> for Conventions {
    fn from(c: ConventionsArg) -> Conventions {
        match c {
            ConventionsArg::Futhark => Conventions::Futhark,
            ConventionsArg::Jax => Conventions::Jax,
            ConventionsArg::Pytorch => Conventions::Pytorch,
        }
    }
}

/// How `--inputs` reads JSON numbers given for reals (docs/language.md, "Inputs").
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum JsonNumbersArg {
    /// Exactly as written in decimal (`0.1` is 1/10).
    Decimal,
    /// The exact binary value of the nearest IEEE double.
    Double,
}

impl From<JsonNumbersArg> for adora_semantics::io::JsonNumbers {
    fn from(a: JsonNumbersArg) -> Self {
        match a {
            JsonNumbersArg::Decimal => adora_semantics::io::JsonNumbers::Decimal,
            JsonNumbersArg::Double => adora_semantics::io::JsonNumbers::Double,
        }
    }
}

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs: exact values as `"p/q"` strings.
    Json,
}

/// Options shared by the commands that run a program.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// The program file.
    pub file: PathBuf,
    /// Entry point (a `def` name).
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// An input, `name=literal` (repeatable), e.g. `--input 'x=[1, 2/3]'`.
    #[arg(long = "input", value_name = "NAME=LITERAL")]
    pub inputs: Vec<String>,
    /// A JSON file mapping input names to nested arrays of numbers or `"p/q"` strings
    /// (and, with `--numeric f64`, the strings `"inf"`, `"-inf"`, `"nan"`).
    #[arg(long = "inputs", value_name = "FILE")]
    pub inputs_json: Option<PathBuf>,
    /// The value of a size parameter of the entry point, `NAME=N` (repeatable); by
    /// default the inputs' shapes bind them.
    #[arg(long = "size", value_name = "NAME=N")]
    pub sizes: Vec<String>,
    /// How `--inputs` reads a JSON number given for a real: `decimal` exactly as written
    /// (`0.1` is 1/10), `double` as the exact value of the nearest IEEE double (`0.1` is
    /// 3602879701896397/36028797018963968, what JAX or NumPy computed with).
    #[arg(long, value_enum, default_value = "decimal", value_name = "HOW")]
    pub json_numbers: JsonNumbersArg,
    /// Exact rationals, f64, or certified enclosures (`ball`).
    #[arg(long, value_enum, default_value = "exact")]
    pub numeric: Numeric,
    /// The working precision of `--numeric ball` in bits (rounded up to a multiple of 64).
    #[arg(long, value_name = "BITS", default_value_t = 128,
          value_parser = clap::value_parser!(u32).range(64..=65536))]
    pub precision: u32,
    /// The AD engine (default `reference` = exact forward mode by dual numbers; `all` =
    /// every engine, compared with the reference: exit 1 if one differs, 2 if the only
    /// failures are resource limits, 3 if one fails with an internal error). For `cost`:
    /// the engine whose derivative program is costed too.
    #[arg(long, value_parser = names::EngineName { with_all: true })]
    pub engine: Option<String>,
    /// Engine option: how the reverse mode checkpoints loops, `every` (each iteration's
    /// entry, the default), `once` (one checkpoint where the loop's arrays have no false
    /// dependencies, seed 004 §6.2) or `stripmine:K` (K levels of strips); engine `soac`
    /// only (docs/engines/soac-reverse.md).
    #[arg(long, value_name = "POLICY", value_parser = names::checkpoint_policy)]
    pub checkpoint: Option<Checkpoint>,
    /// Turn total-division events and colliding `scatter_into` writes into errors.
    #[arg(long)]
    pub strict: bool,
    /// Most evaluation steps before a resource error (guards against runaway loops).
    #[arg(long, value_name = "N", default_value_t = adora_semantics::eval::EvalOptions::default().max_steps)]
    pub max_steps: u64,
    /// Most bytes of arrays a run may allocate (the memory budget; docs/language.md,
    /// "Resource limits").
    #[arg(long, value_name = "BYTES", default_value_t = adora_semantics::eval::EvalOptions::default().max_memory)]
    pub max_memory: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// The derivative conventions at ties and kinks (docs/conventions.md): `futhark`
    /// (ours), `jax` or `pytorch`; other than `futhark`, the reference engine only.
    #[arg(long, value_enum, default_value = "futhark")]
    pub conventions: ConventionsArg,
}

impl RunArgs {
    /// The per-engine options given on the command line (docs/architecture.md, "Engine
    /// options").
    pub fn engine_options(&self) -> EngineOptions {
        engine_options(self.checkpoint)
    }
}

/// The per-engine options of the flags given.
fn engine_options(checkpoint: Option<Checkpoint>) -> EngineOptions {
    let mut o = EngineOptions::new();
    if let Some(c) = checkpoint {
        o = o.checkpoint(c);
    }
    o
}

/// The exit codes, for `--help`.
const EXIT_CODES: &str = "Exit codes: 0 success; 1 a check failed or an engine differs from the \
reference; 2 bad usage or bad input (the message gives file, line and column); 3 an internal \
error, a bug in Adora (please report it with the command line).";

/// The exit codes of `adora fuzz`, for `--help`.
const FUZZ_EXIT_CODES: &str = "Exit codes: 0 no findings; 1 findings (written under --findings); \
2 bad usage.";

/// Runs a parsed command line and returns the exit code. Every error is printed once, on
/// standard error; an internal error (exit 3) is followed by a line asking for a bug
/// report with the command line that reproduces it.
pub fn run(cli: Cli) -> u8 {
    let agreed = |r: Result<compare::Verdict, error::CliError>| r.map(|v| v.exit_code());
    let result = match cli.command {
        Command::Eval(a) => diff::eval(&a).map(|()| OK),
        // `.adp` files are pullback-calculus terms, differentiated by reduction.
        Command::Grad(a) if pullback::is_adp(&a.file) => {
            pullback::derivative(&a, pullback::Question::Grad).map(|()| OK)
        }
        Command::Jvp { run, tangents } if pullback::is_adp(&run.file) => {
            pullback::derivative(&run, pullback::Question::Jvp(&tangents)).map(|()| OK)
        }
        Command::Vjp { run, cotangent } if pullback::is_adp(&run.file) => {
            pullback::derivative(&run, pullback::Question::Vjp(&cotangent)).map(|()| OK)
        }
        Command::Reduce(a) => pullback::reduce(&a).map(|()| OK),
        Command::Grad(a) => agreed(diff::grad(&a)),
        Command::Jvp { run, tangents } => agreed(diff::jvp(&run, &tangents)),
        Command::Vjp { run, cotangent } => agreed(diff::vjp(&run, &cotangent)),
        Command::Show {
            file,
            stage,
            entry,
            engine,
            checkpoint,
            sizes,
            conventions,
        } => {
            let opts = engine_options(checkpoint);
            show::show(
                &file,
                &stage,
                &entry,
                engine.as_deref(),
                &opts,
                &sizes,
                conventions.into(),
            )
            .map(|()| OK)
        }
        Command::Linearize { file, entry, sizes } => {
            show::linearize(&file, &entry, &sizes).map(|()| OK)
        }
        Command::Transpose { file, entry } => show::transpose(&file, &entry).map(|()| OK),
        Command::Cost(a) => cost::cost(&a).map(|()| OK),
        Command::Run(c) => run::run(&c),
        Command::Check(a) => return check::check(&a),
        Command::Fuzz(a) => return fuzz::fuzz(&a),
        Command::Difftest {
            against,
            files,
            python,
            random,
            seed,
            save,
            shrink_rounds,
            conventions,
        } => difftest::difftest(
            against,
            &files,
            &python,
            conventions.map(Conventions::from),
            random.map(|count| difftest::RandomArgs {
                count,
                seed,
                save,
                shrink_rounds,
            }),
        ),
        Command::Gradbench(a) => gradbench::serve(&a),
        Command::GradbenchCheck(a) => gradbench::check(&a),
        Command::Export { run, to, output } => {
            export::export(&run, to, output.as_ref()).map(|()| OK)
        }
    };
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            eprint!("{}", e.text);
            if !e.text.ends_with('\n') {
                eprintln!();
            }
            e.exit_code()
        }
    };
    if code == INTERNAL {
        // `args_os`: a file name need not be UTF-8 (`args` would panic on it).
        let argv: Vec<String> = std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        eprintln!("{}", error::bug_report(&argv));
    }
    code
}
