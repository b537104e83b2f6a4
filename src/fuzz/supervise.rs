//! The supervisor side of the fork-server: it hands batches of execution numbers to worker
//! processes (the `adora` binary re-executed with `fuzz --worker`), reads their report
//! lines, kills a worker whose execution runs past the per-execution time limit, and
//! restarts a worker that died (abort, stack overflow, out of memory) after recording the
//! execution that killed it.

use super::findings::{Finding, Findings};
use super::gen::Generator;
use super::Options;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Executions per worker batch.
const BATCH: u64 = 500;

/// Counters of a run, shared by the supervising threads.
#[derive(Default)]
pub struct Tally {
    /// Next execution number not yet handed out.
    next: AtomicU64,
    /// Executions per target: (succeeded, rejected, findings).
    pub per_target: Mutex<BTreeMap<String, [u64; 3]>>,
    /// Every finding, deduplicated.
    pub findings: Mutex<Findings>,
    /// The slowest execution that a worker finished: (microseconds, execution, target).
    pub slowest: Mutex<(u64, u64, String)>,
}

impl Tally {
    fn count(&self, target: &str, slot: usize) {
        let mut m = self.per_target.lock().unwrap_or_else(|e| e.into_inner());
        m.entry(target.to_string()).or_default()[slot] += 1;
    }

    fn record(&self, f: Finding) {
        self.count(&f.target.clone(), 2);
        self.findings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .add(f);
    }

    /// Total executions.
    pub fn executions(&self) -> u64 {
        let m = self.per_target.lock().unwrap_or_else(|e| e.into_inner());
        m.values().map(|c| c.iter().sum::<u64>()).sum()
    }
}

/// Runs the fuzzing loop of `opts` with `opts.jobs` workers until `opts.runs` executions
/// are done or `deadline` passes.
pub fn supervise(opts: &Options, gen: &Generator, deadline: Option<Instant>) -> Tally {
    let tally = Tally::default();
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1) {
            s.spawn(|| {
                while let Some((a, b)) = next_batch(&tally, opts, deadline) {
                    run_batch(opts, gen, &tally, a, b);
                }
            });
        }
    });
    tally
}

fn next_batch(t: &Tally, opts: &Options, deadline: Option<Instant>) -> Option<(u64, u64)> {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return None;
    }
    let a = t.next.fetch_add(BATCH, Ordering::SeqCst);
    let end = opts.runs.unwrap_or(u64::MAX);
    (a < end).then(|| (a, (a + BATCH).min(end)))
}

/// Runs executions `a..b` in workers, restarting after each one that kills its worker.
fn run_batch(opts: &Options, gen: &Generator, t: &Tally, a: u64, b: u64) {
    let mut i = a;
    while i < b {
        let mut child = match spawn(opts, i, b) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: cannot start a fuzzing worker: {e}");
                std::process::exit(3);
            }
        };
        let (tx, rx) = mpsc::channel::<String>();
        let stdout = child.stdout.take().expect("piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut stderr = child.stderr.take().expect("piped");
        let err_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr.read_to_end(&mut buf);
            let s = String::from_utf8_lossy(&buf).into_owned();
            s.chars()
                .rev()
                .take(600)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<String>()
        });
        let limit = Duration::from_secs(opts.timeout);
        loop {
            match rx.recv_timeout(limit) {
                Ok(line) => {
                    i = report(t, &line).map_or(i, |k| k + 1);
                    if i >= b {
                        let _ = child.wait();
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    let target = gen.case(opts.seed, i).target.name().to_string();
                    let detail = format!(
                        "no answer within {} s (the worker was killed)",
                        opts.timeout
                    );
                    t.record(Finding::new(
                        "slow",
                        &target,
                        &format!("slow:{target}"),
                        &detail,
                        i,
                    ));
                    i += 1;
                    break;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = child.wait();
                    let tail = err_reader.join().unwrap_or_default();
                    if i < b {
                        let kind = if tail.contains("overflowed its stack") {
                            "stack-overflow"
                        } else if tail.contains("memory allocation of") {
                            "out-of-memory"
                        } else {
                            "abort"
                        };
                        let target = gen.case(opts.seed, i).target.name().to_string();
                        let status = status.map(|s| format!("{s}")).unwrap_or_default();
                        let detail = format!(
                            "the worker died ({status}): {}",
                            tail.trim().replace('\n', " | ")
                        );
                        t.record(Finding::new(
                            kind,
                            &target,
                            &format!("{kind}:{target}"),
                            &detail,
                            i,
                        ));
                        i += 1;
                    }
                    break;
                }
            }
        }
    }
}

/// Counts one report line; returns its execution number.
fn report(t: &Tally, line: &str) -> Option<u64> {
    let fields: Vec<&str> = line.splitn(6, '\t').collect();
    let i: u64 = fields.first()?.parse().ok()?;
    let target = fields.get(1)?;
    let micros: u64 = fields.get(2)?.parse().ok()?;
    {
        let mut s = t.slowest.lock().unwrap_or_else(|e| e.into_inner());
        if micros > s.0 || (micros == s.0 && i < s.1) {
            *s = (micros, i, target.to_string());
        }
    }
    match fields.get(3).copied() {
        Some("ok") => t.count(target, 0),
        Some("rejected") => t.count(target, 1),
        Some(kind) => {
            let key = fields.get(4).copied().unwrap_or("");
            let detail = fields.get(5).copied().unwrap_or("");
            t.record(Finding::new(
                kind,
                target,
                &format!("{kind}:{key}"),
                detail,
                i,
            ));
        }
        None => return None,
    }
    Some(i)
}

fn spawn(opts: &Options, from: u64, to: u64) -> std::io::Result<Child> {
    let exe = std::env::current_exe()?;
    let mut cmd = Command::new(exe);
    cmd.arg("fuzz")
        .args(opts.worker_args())
        .args([
            "--worker",
            "--from",
            &from.to_string(),
            "--to",
            &to.to_string(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    limit_memory(&mut cmd, opts.memory_mib);
    cmd.spawn()
}

/// Limits the worker's address space to `mib` MiB, so that a runaway allocation ends the
/// worker (a finding) before it exhausts the machine's memory.
fn limit_memory(cmd: &mut Command, mib: u64) {
    use std::os::unix::process::CommandExt;
    let bytes = mib.saturating_mul(1 << 20);
    // SAFETY: `setrlimit` is async-signal-safe, and the closure touches no other state.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}
