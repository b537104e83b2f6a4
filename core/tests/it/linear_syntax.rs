//! Linear A: parser / printer round trip and the shapes of the concrete syntax.

use adora_core::linear::{check_program, parse_program, print};

const FIG: &str = "
-- seed 002 §4: an indexed-linear function
def g(x: R ; dy: R) -> (R ; R) =
  let s = x * x in
  let dz = x * dy in
  (s ; dz)

def f(x: R, y: R[3] ; dx: R, dy: R[3]) -> (R, R[3] ; R[3]) =
  let (a ; da) = g(x ; dx) in
  let (; d1, d2) = dup(dy) in
  let w = sum(y) in
  let dw = sum(d1) in
  let () = drop(dw) in
  let v = replicate(3, a) in
  let dv = replicate(3, da) in
  let du = v * d2 in
  let r = (-1.0 / 3.0) * w in
  let q = [r, -0.5, 2.0] in
  let dsum = du + dv in
  let g1 = gather([2], q, i => [i + 1]) in
  let z = sum(g1) in
  (z, y ; dsum)
";

#[test]
fn round_trip() {
    let p = parse_program(FIG).unwrap_or_else(|d| panic!("{}", d.render("t.ala", FIG)));
    check_program(&p).unwrap_or_else(|d| panic!("{}", d.render("t.ala", FIG)));
    let text = print::program(&p);
    let q = parse_program(&text).unwrap_or_else(|d| panic!("{}\n{text}", d.render("p.ala", &text)));
    assert_eq!(p, q, "{text}");
    assert_eq!(print::program(&q), text);
}

#[test]
fn damaged_sources_never_panic() {
    // Every truncation and every single-character deletion of a valid program parses
    // or fails with a diagnostic; whatever parses is checked without panicking.
    let chars: Vec<(usize, char)> = FIG.char_indices().collect();
    let mut variants = Vec::new();
    for (i, _) in &chars {
        variants.push(FIG[..*i].to_string());
    }
    for (i, c) in &chars {
        let mut s = FIG.to_string();
        s.replace_range(*i..*i + c.len_utf8(), "");
        variants.push(s);
    }
    for (i, _) in chars.iter().step_by(7) {
        for ins in [";", "(", ")", "dup(", "zero(R)", " ; dx", ","] {
            let mut s = FIG.to_string();
            s.insert_str(*i, ins);
            variants.push(s);
        }
    }
    let mut parsed = 0;
    for v in &variants {
        if let Ok(p) = parse_program(v) {
            parsed += 1;
            let _ = check_program(&p);
            let _ = adora_core::linear::check_linear_b(&p);
            let _ = print::program(&p);
        }
    }
    assert!(parsed > 0);
}
