//! `adora check`: runs the property catalogue (specs/theorems.md) on random well-typed programs,
//! with a progress bar on a terminal and a summary table; exit 1 on any failure.

use super::{Format, FAILED, OK};
use adora_proptests::catalogue::catalogue;
use adora_proptests::runner::{run_catalogue, CheckConfig, PropertyReport};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::io::IsTerminal;

/// Options of `adora check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Random cases per property.
    #[arg(long, default_value_t = 1000)]
    pub cases: u32,
    /// Seed of the run (default: chosen from the clock and printed, so it can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Only properties whose name contains this text.
    #[arg(long)]
    pub filter: Option<String>,
    /// List the properties (name, source, fragment) instead of running them.
    #[arg(long)]
    pub list: bool,
    /// Worker threads (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Multiplier (1 or more) of every generator's program size: `--size 4` checks
    /// programs about four times as large. The default 1 reproduces earlier seeds.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub size: u32,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

/// `adora check`; returns the exit code.
pub fn check(a: &CheckArgs) -> u8 {
    let props: Vec<_> = catalogue()
        .into_iter()
        .filter(|p| a.filter.as_deref().is_none_or(|f| p.name.contains(f)))
        .collect();
    if a.list {
        for p in &props {
            println!("{:<34} {:<10} {}", p.name, p.fragment, p.source);
        }
        return OK;
    }
    if props.is_empty() {
        eprintln!(
            "error[input]: no property matches --filter {}",
            a.filter.as_deref().unwrap_or("")
        );
        return super::BAD_INPUT;
    }
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
    });
    let jobs = a
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    let cfg = CheckConfig {
        cases: a.cases,
        seed,
        filter: a.filter.clone(),
        jobs,
        size: a.size,
    };
    let size_flag = if a.size > 1 {
        format!(" --size {}", a.size)
    } else {
        String::new()
    };
    if a.format == Format::Text {
        println!(
            "adora check: {} properties × {} cases, seed {seed}, {jobs} jobs (replay: adora check --seed {seed} --cases {}{size_flag})",
            props.len(),
            a.cases,
            a.cases
        );
    }
    let bar = ProgressBar::new(props.len() as u64 * a.cases as u64);
    if std::io::stderr().is_terminal() && a.format == Format::Text {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let progress = |name: &str, done: u32| {
        bar.set_message(name.to_string());
        bar.inc(done as u64);
    };
    adora_rewrites::stats::reset();
    let reports = run_catalogue(&cfg, &progress);
    let largest_egraph = adora_rewrites::stats::largest_egraph();
    bar.finish_and_clear();
    let failed = reports.iter().any(|r| r.failures > 0);
    match a.format {
        Format::Json => println!("{}", summary_json(seed, a.size, largest_egraph, &reports)),
        Format::Text => print_summary(&reports, largest_egraph),
    }
    if failed {
        FAILED
    } else {
        OK
    }
}

/// The run's figures for the last line of the summary: mean and largest size of the
/// generated surface programs (expression nodes), the largest e-graph any egg run ended
/// with (e-nodes), and the slowest case with its property.
fn run_figures(reports: &[PropertyReport], largest_egraph: usize) -> String {
    let (count, total, max) = reports.iter().fold((0u64, 0u64, 0usize), |acc, r| {
        let (c, t, m) = r.program_nodes;
        (acc.0 + c as u64, acc.1 + t, acc.2.max(m))
    });
    let mut parts = Vec::new();
    if count > 0 {
        parts.push(format!(
            "programs: mean {:.1} nodes, max {max}",
            total as f64 / count as f64
        ));
    }
    parts.push(format!("largest e-graph {largest_egraph} e-nodes"));
    if let Some(r) = reports.iter().max_by_key(|r| r.slowest_case) {
        parts.push(format!(
            "slowest case {:.3}s ({})",
            r.slowest_case.as_secs_f64(),
            r.name
        ));
    }
    parts.join("; ")
}

fn print_summary(reports: &[PropertyReport], largest_egraph: usize) {
    println!(
        "{:<34} {:>6} {:>8} {:>9}  figure",
        "property", "cases", "failures", "time"
    );
    for r in reports {
        println!(
            "{:<34} {:>6} {:>8} {:>8.2}s  {}",
            r.name,
            r.cases_run,
            r.failures,
            r.elapsed.as_secs_f64(),
            r.figure.as_deref().unwrap_or("")
        );
    }
    let failed: Vec<_> = reports.iter().filter(|r| r.failures > 0).collect();
    let cases: u64 = reports.iter().map(|r| r.cases_run as u64).sum();
    let figures = run_figures(reports, largest_egraph);
    if failed.is_empty() {
        println!(
            "\nall {} properties passed ({cases} cases); {figures}",
            reports.len()
        );
        return;
    }
    for r in &failed {
        println!("\nFAILED {}:", r.name);
        if let Some(c) = &r.counterexample {
            println!("{c}");
        }
    }
    println!(
        "\n{} of {} properties failed; {figures}",
        failed.len(),
        reports.len()
    );
}

fn summary_json(
    seed: u64,
    size: u32,
    largest_egraph: usize,
    reports: &[PropertyReport],
) -> serde_json::Value {
    let rows: Vec<_> = reports
        .iter()
        .map(|r| {
            json!({
                "name": r.name,
                "cases": r.cases_run,
                "failures": r.failures,
                "seconds": r.elapsed.as_secs_f64(),
                "figure": r.figure,
                "counterexample": r.counterexample,
                "slowest_case_seconds": r.slowest_case.as_secs_f64(),
                "programs": program_json(r.program_nodes),
            })
        })
        .collect();
    json!({
        "seed": seed,
        "size": size,
        "largest_egraph_nodes": largest_egraph,
        "properties": rows,
    })
}

/// `{"count", "mean_nodes", "max_nodes"}` of a property's generated programs (`null`
/// when its cases are not surface programs).
fn program_json((count, total, max): (u32, u64, usize)) -> serde_json::Value {
    if count == 0 {
        return serde_json::Value::Null;
    }
    json!({"count": count, "mean_nodes": total as f64 / count as f64, "max_nodes": max})
}
