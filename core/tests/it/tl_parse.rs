//! The tensor language's parser (docs/engines/tssa-language.md, "Concrete syntax"):
//! the printed forms read back, and bad input gets a syntax error at its position.

use adora_core::diag::ErrorKind;
use adora_core::tl::{parse_pred, parse_ssa, parse_term, parse_ty, Ty};

#[test]
fn printed_examples_read_back() {
    for src in [
        "gen i:3. [i == j] x[i]",
        "sum i:4. [i <= 1] let t = x[i] * x[i] in t + t",
        "let p = gen i:3. (x[i], x[i] * x[i]) in sum i:3. p[i].0 * p[i].1",
        "[true] a + b * (c + -1/2)",
        "gen i:2. [{x[i].1 <= -1/3} && !R(i, 0) || (exists e:3. e + i == 2)] #(2*i - 1)",
        "x[i % 2][k[i][j]] + x[opaque(i + 1)] * pow(y, -2) + dpow(y, 3)",
        "gen i:3. x[cond(i < 1, i, 0)][min(i, 2)][floor(y[i].0)]",
        "(gen i:3. x[i])[2].0",
        "([true] gen i:3. x[i])[0] + [false] (a + b) * ([true] sum j:2. y[j])",
        "sum i:4. ([i <= 1] let t = x[i] * x[i] in t + t) + 1",
    ] {
        let t = parse_term(src).unwrap_or_else(|e| panic!("{src}: {}", e.message));
        assert_eq!(t.to_string(), src, "printing the parse of {src}");
        assert_eq!(parse_term(&t.to_string()).unwrap(), t);
    }
    assert_eq!(
        parse_ty("[3]([2]num, num)").unwrap().to_string(),
        "[3]([2]num, num)"
    );
    assert_eq!(parse_ty("[0]bool").unwrap(), Ty::arr(0, Ty::Bool));
    // `>` and `>=` swap their operands.
    assert_eq!(parse_pred("i > j").unwrap(), parse_pred("j < i").unwrap());
    // `x[i, j]` is `x[i][j]`; `gen (i:2, j:2).` nests.
    assert_eq!(
        parse_term("x[i, j]").unwrap(),
        parse_term("x[i][j]").unwrap()
    );
    assert_eq!(
        parse_term("gen (i:2, j:2). x[i, j]").unwrap(),
        parse_term("gen i:2. gen j:2. x[i][j]").unwrap()
    );
}

#[test]
fn ssa_programs_read_back() {
    let src = "input x: [5]num\ninput w: [3]num\ninput P: ([2]num, num)\n\
               let p: [2]num = input P.0\n\
               let a: [3][3]num = gen (i0:3, i1:3). sum (i2:3). [i2 == i1] w[i2]\n\
               let b: [3][3]num = gen (i0:3, i1:3). sum (i2:5). [i2 == i0 + i1] x[i2]\n\
               let z: [3]num = gen (i0:3). sum (i1:3). a[i0, i1] * b[i0, i1]\n\
               let c: [3]num = gen (i0:3). [i0 != 1] #i0\n\
               let d: [3]num = gen (i0:3). [i0 < 2] z[i0] + c[i0]\n\
               let e: [3]num = gen (i0:3). recip(d[i0])\n\
               let s: num = sum (i0:3). [i0 <= 1] e[i0] * e[i0]\n\
               return (s, z)";
    let p = parse_ssa(src).unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(p.stmts.len(), 8);
    assert_eq!(p.to_string(), src);
    assert_eq!(parse_ssa(&p.to_string()).unwrap(), p);
}

#[test]
fn bad_input_is_a_syntax_error_at_its_position() {
    for (src, at) in [
        ("gen i:3 x[i]", 8),
        ("x + ", 4),
        ("-x", 0),
        ("foo(x)", 0),
        ("x[i", 3),
        ("gen i:-1. x", 6),
        ("[i ==] x", 5),
        ("x.2", 2),
        ("x $ y", 2),
    ] {
        let e = parse_term(src).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax, "{src}");
        assert_eq!(e.span.start, at, "{src}: {}", e.message);
    }
    let e = parse_ssa("input x: [2]num\nlet y: [2]num = x[0] + x[1]\nreturn y").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(
        e.message.contains("not a Tensor-SSA right-hand side"),
        "{}",
        e.message
    );
    // Deep nesting is refused, not a stack overflow.
    let deep = format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000));
    assert_eq!(parse_term(&deep).unwrap_err().kind, ErrorKind::Syntax);
}
