//! The worker side of the fork-server: `adora fuzz --worker --from A --to B ...` runs
//! executions `A..B` in-process, each under `catch_unwind`, and writes one line per
//! execution on standard output (`index, target, microseconds, status, key, detail`, separated by
//! tabs). A panic is caught and reported with its location; an abort or a stack overflow
//! ends the process, and the supervisor (`super::supervise`) records the execution after
//! the last line it read.

use super::exec::{self, Outcome};
use super::Options;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;

/// The location and message of the last panic, recorded by the worker's panic hook.
static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// Runs executions `from..to` and returns the exit code (0).
pub fn run(opts: &Options, from: u64, to: u64) -> Result<(), String> {
    let generator = opts.generator()?;
    panic::set_hook(Box::new(|info| {
        let loc = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_else(|| "unknown location".into());
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some((loc, msg));
    }));
    let mut out = std::io::stdout().lock();
    for i in from..to {
        let case = generator.case(opts.seed, i);
        LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take();
        let start = std::time::Instant::now();
        let r = panic::catch_unwind(AssertUnwindSafe(|| exec::execute(&case)));
        let t = format!("{}\t{}", case.target.name(), start.elapsed().as_micros());
        let t = t.as_str();
        let target = case.target.name();
        let line = match r {
            Ok(Outcome::Ok) => format!("{i}\t{t}\tok"),
            Ok(Outcome::Rejected(_)) => format!("{i}\t{t}\trejected"),
            Ok(Outcome::Internal(m)) => {
                let key: String = m.chars().filter(|c| !c.is_ascii_digit()).take(80).collect();
                format!(
                    "{i}\t{t}\tinternal\t{target}:{}\t{}",
                    one_line(&key),
                    one_line(&m)
                )
            }
            Err(_) => {
                let (loc, msg) = LAST_PANIC
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
                    .unwrap_or_else(|| ("unknown location".into(), String::new()));
                format!(
                    "{i}\t{t}\tpanic\t{target}:{loc}\tat {loc}: {}",
                    one_line(&msg)
                )
            }
        };
        // The supervisor reads this line before the next execution starts: flush now.
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|e| format!("writing to the supervisor: {e}"))?;
    }
    Ok(())
}

/// `s` on one line without tabs, at most 300 characters.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
        .take(300)
        .collect()
}
