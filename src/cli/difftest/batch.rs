//! Running many exported modules in one Python process: JAX or PyTorch is imported once,
//! each module runs as `__main__` with its standard output captured, and one JSON line
//! per module comes back (docs/oracle.md, "Differential testing"). A module that raises
//! gives its exception's last line; a crash of the interpreter fails the modules it had
//! not answered.

use serde_json::Value as Json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The driver: reads module paths from standard input, one per line, and prints for each
/// `{"ok": <the module's output>}` or `{"err": <the exception's last line>}`.
const DRIVER: &str = r#"
import contextlib, io, json, runpy, sys, traceback
for line in sys.stdin:
    path = line.rstrip("\n")
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            runpy.run_path(path, run_name="__main__")
        print(json.dumps({"ok": buf.getvalue()}), flush=True)
    except BaseException as e:
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        print(json.dumps({"err": last}), flush=True)
"#;

/// Runs the modules `texts` with `python` (each written under `dir`), in order: each one's
/// printed JSON, or why it failed.
pub fn run(python: &Path, dir: &Path, texts: &[&str]) -> Vec<Result<Json, String>> {
    match try_run(python, dir, texts) {
        Ok(out) => out,
        Err(e) => texts.iter().map(|_| Err(e.clone())).collect(),
    }
}

fn try_run(python: &Path, dir: &Path, texts: &[&str]) -> Result<Vec<Result<Json, String>>, String> {
    let driver = dir.join("driver.py");
    std::fs::write(&driver, DRIVER).map_err(|e| format!("{}: {e}", driver.display()))?;
    let mut paths: Vec<PathBuf> = Vec::new();
    for (k, t) in texts.iter().enumerate() {
        let p = dir.join(format!("m{k}.py"));
        std::fs::write(&p, t).map_err(|e| format!("{}: {e}", p.display()))?;
        paths.push(p);
    }
    let mut child = Command::new(python)
        .arg(&driver)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    let mut stdin = child.stdin.take().ok_or("no standard input")?;
    let list: String = paths.iter().map(|p| format!("{}\n", p.display())).collect();
    // Written from a thread: the driver's output pipe must be drained meanwhile.
    let writer = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut answers: Vec<Result<Json, String>> = stdout.lines().map(answer).collect();
    if answers.len() < texts.len() {
        let err = String::from_utf8_lossy(&out.stderr);
        let why = format!(
            "the Python process ended early ({}): {}",
            out.status,
            err.lines().last().unwrap_or("")
        );
        answers.resize(texts.len(), Err(why));
    }
    answers.truncate(texts.len());
    for p in &paths {
        let _ = std::fs::remove_file(p);
    }
    Ok(answers)
}

/// One line of the driver.
fn answer(line: &str) -> Result<Json, String> {
    let j: Json = serde_json::from_str(line).map_err(|e| format!("driver: {e}"))?;
    if let Some(e) = j.get("err").and_then(Json::as_str) {
        return Err(e.to_string());
    }
    let out = j.get("ok").and_then(Json::as_str).unwrap_or("");
    serde_json::from_str(out.trim()).map_err(|e| format!("its output is not JSON ({e}): {out}"))
}

#[cfg(test)]
mod tests {
    use super::answer;

    #[test]
    fn a_driver_line_is_the_modules_json_or_its_exception() {
        let ok = answer(r#"{"ok": "{\"value\": 1.5}\n"}"#).unwrap();
        assert_eq!(ok["value"], 1.5);
        assert_eq!(
            answer(r#"{"err": "ZeroDivisionError: division by zero"}"#),
            Err("ZeroDivisionError: division by zero".to_string())
        );
        assert!(answer(r#"{"ok": "not json"}"#).is_err());
    }
}
