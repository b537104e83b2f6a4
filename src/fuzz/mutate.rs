//! Mutations of program text: token-level deletions, duplications, swaps and
//! replacements, extreme numbers, splices of two programs, byte flips, and adversarial
//! programs at the language's limits (`core/src/limits.rs`).

use super::rng::Rng;

/// Numbers that stress sizes, integer overflow and exact-rational growth.
pub const EXTREME_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "3",
    "-0",
    "0.5",
    "1/3",
    "-7/2",
    "65535",
    "65536",
    "16777215",
    "16777216",
    "16777217",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551616",
    "1e30",
    "1e-30",
    "1e4000",
    "1e4001",
    "0.000000000000000000000000000000000000000001",
    "3.14159265358979323846264338327950288419716939937510582097494459230781640628",
    "100000000000000000000000000000000000000000000000000000000000000000000000000000000",
];

/// Tokens inserted or swapped in: keywords, primitives and punctuation of
/// docs/language.md.
const TOKENS: &[&str] = &[
    "def",
    "let",
    "in",
    "if",
    "then",
    "else",
    "build",
    "map",
    "reduce",
    "scan",
    "loop",
    "for",
    "sum",
    "iota",
    "gather",
    "scatter",
    "scatter_into",
    "reduce_by_index",
    "replicate",
    "transpose",
    "reshape",
    "append",
    "stack",
    "select",
    "pow",
    "exp",
    "log",
    "sqrt",
    "sin",
    "min",
    "max",
    "abs",
    "floor",
    "real",
    "true",
    "false",
    "R",
    "Z",
    "B",
    "=>",
    "->",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<",
    "<=",
    "==",
    "!=",
    "&&",
    "||",
    "!",
    ".0",
    ".1",
    "x",
    "i",
    "main",
];

/// Splits `src` into tokens: identifiers and numbers, single punctuation characters and
/// runs of white space (their concatenation is `src`).
pub fn tokens(src: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = src.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
        let mut end = i + c.len_utf8();
        if word(c) || c.is_whitespace() {
            while let Some(&(j, d)) = chars.peek() {
                if (word(c) && word(d)) || (c.is_whitespace() && d.is_whitespace()) {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
        }
        out.push(&src[start.max(i)..end]);
        start = end;
    }
    out
}

/// `src` after one random mutation; `other` is a second program for splices.
pub fn mutate(src: &str, other: &str, rng: &mut Rng) -> String {
    let toks = tokens(src);
    if toks.is_empty() {
        return rng.pick(TOKENS).to_string();
    }
    let k = rng.below(toks.len());
    let mut out: Vec<String> = toks.iter().map(|t| t.to_string()).collect();
    match rng.below(10) {
        0 => {
            out.remove(k);
        }
        1 => out.insert(k, toks[k].to_string()),
        2 => {
            let j = rng.below(toks.len());
            out.swap(k, j);
        }
        3 | 4 => {
            // A number (or, if there is none, any token) becomes an extreme one.
            let nums: Vec<usize> = (0..toks.len())
                .filter(|&i| toks[i].starts_with(|c: char| c.is_ascii_digit()))
                .collect();
            let at = if nums.is_empty() { k } else { *rng.pick(&nums) };
            out[at] = rng.pick(EXTREME_NUMBERS).to_string();
        }
        5 => out.insert(k, format!(" {} ", rng.pick(TOKENS))),
        6 => out[k] = rng.pick(TOKENS).to_string(),
        7 => {
            // Splice: a prefix of this program and a suffix of the other.
            let o = tokens(other);
            let j = rng.below(o.len().max(1));
            out.truncate(k);
            out.extend(o.iter().skip(j).map(|t| t.to_string()));
        }
        8 => {
            // An identifier is replaced by another one of the program.
            let ids: Vec<&str> = toks
                .iter()
                .copied()
                .filter(|t| t.starts_with(|c: char| c.is_alphabetic()))
                .collect();
            if !ids.is_empty() {
                out[k] = rng.pick(&ids).to_string();
            }
        }
        _ => {
            // A byte-level change: one character replaced by a random printable one or by
            // a character outside ASCII.
            let c = match rng.below(4) {
                0 => 'λ',
                1 => '\u{0}',
                _ => (b' ' + rng.below(95) as u8) as char,
            };
            let mut s: Vec<char> = out[k].chars().collect();
            let at = rng.below(s.len());
            s[at] = c;
            out[k] = s.into_iter().collect();
        }
    }
    out.concat()
}

/// A program at or past one of the language's limits: deep nesting, long `let` chains,
/// long literals, large arrays.
pub fn adversarial(rng: &mut Rng) -> String {
    let n = *rng.pick(&[10usize, 100, 1000, 1999, 2000, 2001, 5000, 20_000]);
    match rng.below(6) {
        0 => format!(
            "def main(x: R) -> R = {}x{}\n",
            "(".repeat(n),
            ")".repeat(n)
        ),
        1 => format!("def main(x: R) -> R = {}x\n", "-".repeat(n)),
        2 => {
            let n = n.min(400);
            let mut body = String::from("x");
            for k in 0..n {
                body = format!("let y{k} = {body} * x + 1 in y{k}");
            }
            format!("def main(x: R) -> R = {body}\n")
        }
        3 => {
            let digits = *rng.pick(&[100usize, 4000, 65_534, 65_535, 65_536]);
            format!("def main(x: R) -> R = x * 0.{}1\n", "0".repeat(digits))
        }
        4 => {
            let m = rng.pick(EXTREME_NUMBERS);
            format!("def main(x: R) -> R = sum(build {m} (i => x * real(i)))\n")
        }
        _ => {
            let terms: Vec<String> = (0..n).map(|k| format!("x * {k}")).collect();
            format!("def main(x: R) -> R = {}\n", terms.join(" + "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_concatenate_to_the_source() {
        let src = "def main(x: R[3]) -> R =\n  sum(x * 2.5) -- λ comment\n";
        assert_eq!(tokens(src).concat(), src);
        assert!(tokens(src).contains(&"2.5"));
    }

    #[test]
    fn mutations_are_deterministic() {
        let src = "def main(x: R) -> R = x * x + 1";
        let a: Vec<String> = (0..50)
            .map(|i| mutate(src, "def f() -> Z = 3", &mut Rng::for_execution(7, i)))
            .collect();
        let b: Vec<String> = (0..50)
            .map(|i| mutate(src, "def f() -> Z = 3", &mut Rng::for_execution(7, i)))
            .collect();
        assert_eq!(a, b);
        assert!(a.iter().any(|m| m != src));
    }
}
