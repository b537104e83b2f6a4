"""Writes specs/bad/*.adl: each bad program with its expected error code, the position
where the error's primary span must start (computed here from a marker: the n-th
occurrence of a substring in the finished file) and a message substring.

The expectations are written by hand from docs/language.md / §2.1 (what is wrong and where); the
position is the start of the offending construct. Re-run to regenerate after editing."""
import os

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bad")

# (file, code, message substring, extra header lines, program text, marker, occurrence)
CASES = [
    # ---------------------------------------------------------------- syntax
    ("syntax_extra_paren", "syntax", "expected `def`, found `)`", [],
     "-- One closing parenthesis too many.\ndef main(x: R) -> R = (x + 1))\n", "))", 1, 1),
    ("syntax_unclosed_paren", "syntax", "expected `)`, found `def`", [],
     "-- sum( is never closed: the next def is where the parser notices.\n"
     "def main(x: R[3]) -> R = sum(build 3 (i => x[i] * 2)\n\ndef other(y: R) -> R = y\n",
     "def other", 1, 0),
    ("syntax_bad_token", "syntax", "unexpected character `@`", [],
     "def main(x: R) -> R = x @ 2\n", "@", 1, 0),
    ("syntax_missing_else", "syntax", "expected `else`, found `def`", [],
     "-- if without else (if is an expression).\ndef main(x: R) -> R = if x > 0 then x\n\n"
     "def other(y: R) -> R = y\n", "def other", 1, 0),
    ("syntax_let_without_name", "syntax", "expected a name, found `in`", [],
     "def main(x: R) -> R = let in x\n", "in x", 1, 0),
    ("syntax_keyword_as_name", "syntax", "expected a name, found `map`", [],
     "-- Keywords cannot name parameters.\ndef main(map: R) -> R = map\n", "map", 1, 0),
    ("syntax_builtin_as_name", "syntax", "`sum` is a built-in function", [],
     "-- Built-in function names are reserved.\ndef main(x: R[3]) -> R =\n  let sum = x[0] in sum * 2\n",
     "sum =", 1, 0),
    ("syntax_chained_comparison", "syntax", "comparison operators do not chain", [],
     "def main(a: R, b: R, c: R) -> B = a < b < c\n", "<", 2, 0),
    ("syntax_builtin_arity", "syntax", "`select` takes 3 arguments, found 2", [],
     "def main(x: R, y: R) -> R = select(x > y, x)\n", "select", 1, 0),
    ("syntax_empty_file", "syntax", "no definitions", [],
     "-- A file without any def: the error is at the end of the input.\n", "EOF", 0, 0),
    # ---------------------------------------------------------------- names
    ("name_unbound", "name", "unbound variable `y`", [],
     "def main(x: R) -> R = x + y\n", "y", 1, 0),
    ("name_unknown_function", "name", "unknown function `f`", [],
     "def main(x: R) -> R = f(x) * 2\n", "f(x)", 1, 0),
    ("name_recursion", "name", "recursive definitions are not supported", [],
     "-- Recursion (here direct) is rejected: defs are inlined.\n"
     "def f(x: R) -> R = f(x * 2)\n\ndef main(x: R) -> R = f(x)\n", "f(x * 2)", 1, 0),
    ("name_mutual_recursion", "name", "recursive definitions are not supported", [],
     "def f(x: R) -> R = g(x) + 1\n\ndef g(x: R) -> R = f(x) * 2\n\ndef main(x: R) -> R = f(x)\n",
     "f(x) * 2", 1, 0),
    ("name_duplicate_param", "name", "duplicate parameter `x`", [],
     "def main(x: R, x: R) -> R = x\n", "x: R)", 1, 0),
    ("name_duplicate_def", "name", "duplicate definition of `f`", [],
     "def f(x: R) -> R = x\n\ndef f(y: R) -> R = y * 2\n\ndef main(x: R) -> R = f(x)\n", "f(y", 1, 0),
    ("name_index_var_out_of_scope", "name", "unbound variable `i`", [],
     "-- A build binder is not in scope after the build.\n"
     "def main(x: R[3]) -> R = sum(build 3 (i => x[i])) + x[i]\n", "+ x[i]", 1, 4),
    # ---------------------------------------------------------------- types
    ("type_r_plus_z", "type", "mismatched operand types for `+`: R and Z", [],
     "-- No implicit conversion between Z and R (use real).\ndef main(x: R, n: Z) -> R = x + n\n",
     "x + n", 1, 0),
    ("type_bool_arith", "type", "`+` needs operands of type R or Z, found B and B", [],
     "def main(p: B, q: B) -> B = p + q\n", "p + q", 1, 0),
    ("type_tuple_arith", "type", "must be an array, found the tuple type", [],
     "-- Tuples are not arrays: no arithmetic on them.\n"
     "def main(x: R) -> R = let t = (x, x) in t * 2\n", "t * 2", 1, 0),
    ("type_projection_range", "type", "projection .2 is out of range", [],
     "def main(x: R, y: R) -> R = (x, y).2\n", "(x, y).2", 1, 0),
    ("type_call_arity", "type", "`f` takes 2 argument(s) but 1 were given", [],
     "def f(a: R, b: R) -> R = a * b\n\ndef main(x: R) -> R = f(x)\n", "f(x)", 1, 0),
    ("type_if_condition_real", "type", "the condition of `if` must be B, found R", [],
     "-- The condition of if is a B scalar.\ndef main(x: R) -> R = if x then x else -x\n",
     "x then", 1, 0),
    ("type_index_by_real", "type", "an index must be Z, found R", [],
     "-- Indices are Z.\ndef main(x: R[3], y: R) -> R = x[y]\n", "y]", 1, 0),
    ("type_floor_of_z", "type", "the argument of `floor` must be R, found Z", [],
     "-- floor takes R (and gives Z).\ndef main(n: Z) -> Z = floor(n)\n", "n)", 1, 0),
    ("type_mod_on_reals", "type", "`%` needs operands of type Z", [],
     "-- % is defined on Z only.\ndef main(x: R, y: R) -> R = x % y\n", "x % y", 1, 0),
    ("type_return_base", "type", "has type Z, but its declared result type is R", [],
     "-- The body is Z but the declared result is R.\ndef main(n: Z) -> R = n * 2\n", "n * 2", 1, 0),
    ("type_let_constant_z_and_r", "type", "`n` is used both as Z and as R", [],
     "-- A let-bound literal gets one base type from all its uses: here an index (Z) and a\n"
     "-- factor of a real (R). The fix is real(n) at the real use.\n"
     "def main(x: R[3]) -> R = let n = 2 in x[n] * n\n", "x[n] * n", 1, 0),
    ("syntax_power_operator", "syntax", "`**` is not an operator", [],
     "-- Powers are pow(x, k) with a static integer k.\n"
     "def main(x: R[3]) -> R = sum(x ** 2)\n", "**", 1, 0),
    ("syntax_slice", "syntax", "slices `x[a:b]` are not supported", [],
     "-- No slices: a gather reads a sub-array (the error's help line writes it).\n"
     "def main(x: R[4]) -> R = sum(x[1:3])\n", ":3", 1, 0),
    ("syntax_max_one_argument", "syntax", "`max` takes 2 arguments, found 1", [],
     "-- max is elementwise on two arrays; the largest element is a reduce.\n"
     "def main(x: R[4]) -> R = max(x)\n", "max", 1, 0),
    # ---------------------------------------------------------------- shapes
    ("shape_elementwise", "shape", "mismatched shapes for `+`: R[3] and R[4]", [],
     "-- No implicit broadcasting between R[3] and R[4].\n"
     "def main(x: R[3], y: R[4]) -> R[3] = x + y\n", "x + y", 1, 0),
    ("shape_transpose_perm", "shape", "[0, 0] is not a permutation", [],
     "def main(m: R[2, 3]) -> R[3, 2] = transpose([0, 0], m)\n", "transpose", 1, 0),
    ("shape_reshape_count", "shape", "cannot reshape R[6] (6 elements) to R[2,4] (8 elements)", [],
     "-- reshape keeps the number of elements: 6 is not 8.\n"
     "def main(x: R[6]) -> R[2, 4] = reshape([2, 4], x)\n", "reshape", 1, 0),
    ("shape_append", "shape", "`append` needs equal inner dimensions", [],
     "-- append joins along the outer dimension; the inner ones must agree.\n"
     "def main(a: R[2, 3], b: R[2, 2]) -> R[4, 3] = append(a, b)\n", "append", 1, 0),
    ("shape_gather_index_arity", "shape", "the index map of `gather` has 3 components", [],
     "-- The index map of gather may index at most the rank of the source (2 here).\n"
     "def main(x: R[4, 2]) -> R[3] = gather([3], x, i => [i, 0, 1])\n", "gather", 1, 0),
    ("shape_scatter_index_arity", "shape", "`scatter` result shape [3] must be 2 indexed dimension(s)", [],
     "-- The index map of scatter indexes a prefix of the result (rank 1 here).\n"
     "def main(x: R[3]) -> R[3] = scatter([3], x, i => [i, 0])\n", "scatter", 1, 0),
    ("shape_map_outer_sizes", "shape", "`map` needs arrays of equal outer size", [],
     "-- map zips arrays of equal outer size.\n"
     "def main(xs: R[3], ys: R[4]) -> R[3] = map((a, b) => a * b, xs, ys)\n", "ys)", 1, 0),
    ("shape_return", "shape", "has type R[3], but its declared result type is R", [],
     "-- The body is R[3] but the declared result is R.\ndef main(x: R[3]) -> R = x * 2\n",
     "x * 2", 1, 0),
    ("shape_build_binders", "shape", "binds 1 index variable", [],
     "-- Two extents need two binders.\n"
     "def main(x: R[2]) -> R[2, 3] = build [2, 3] (i => x[i])\n", "build", 1, 0),
    # ---------------------------------------------------------------- inputs
    ("input_wrong_shape", "input", "expected R[3], found an array of 2 elements", ["-- input: x = [1, 2]"],
     "-- Three elements expected, two given.\ndef main(x: R[3]) -> R = sum(x)\n", "[1, 2]", 1, 0),
    ("input_ragged", "input", "expected R[2], found an array of 1 element", ["-- input: m = [[1, 2], [3]]"],
     "def main(m: R[2, 2]) -> R = sum(m)\n", "[3]", 1, 0),
    ("input_real_for_int", "input", "expected Z, found a non-integer number", ["-- input: n = 1.5"],
     "-- 1.5 is not an integer.\ndef main(n: Z) -> Z = n * 2\n", "1.5", 1, 0),
    # ---------------------------------------------------------------- evaluation
    ("nonrational_exp", "non-rational", "`exp` is not a rational operation", ["-- numeric: exact", "-- input: x = 1"],
     "-- exp is not rational: exact mode names the operation and its position.\n"
     "def main(x: R) -> R = 2 * x + exp(x)\n", "exp(x)", 1, 0),
    ("nonrational_sqrt_in_map", "non-rational", "`sqrt` is not a rational operation", ["-- input: xs = [1, 4, 9]"],
     "def main(xs: R[3]) -> R = sum(map(a => a * sqrt(a), xs))\n", "sqrt(a)", 1, 0),
    ("runtime_div_strict", "runtime", "division by zero", ["-- mode: strict", "-- input: x = 3",
                                                          "-- input: y = 0"],
     "-- Strict mode turns total division into an error.\n"
     "def main(x: R, y: R) -> R = x * 2 + x / y\n", "x / y", 1, 0),
    ("runtime_pow_strict", "runtime", "division by zero", ["-- mode: strict", "-- input: x = 0"],
     "-- pow with a negative exponent divides: at 0 that is an error under strict.\n"
     "def main(x: R) -> R = pow(x, -2) + 1\n", "pow", 1, 0),
    ("runtime_scatter_into_strict", "runtime", "`scatter_into` writes twice to index 1", ["-- mode: strict", "-- input: d = [1, 2, 3]",
                                                   "-- input: v = [4, 5]"],
     "-- Strict mode turns colliding scatter_into writes into an error.\n"
     "def main(d: R[3], v: R[2]) -> R[3] = scatter_into(d, [1, 1], v)\n", "scatter_into(d", 1, 0),
    ("runtime_int_overflow", "runtime", "integer overflow", ["-- input: n = 3000000000"],
     "-- Z is 64-bit; overflow is an error.\ndef main(n: Z) -> Z = n * n * n\n", "n * n * n", 1, 0),
    ("resource_steps", "resource", "evaluation step limit (1000) exceeded", ["-- max-steps: 1000", "-- input: x = 1"],
     "-- A step limit stops a long loop.\n"
     "def main(x: R) -> R = loop (a = x) for i < 100000 do a + 1\n", "loop", 1, 0),
    ("resource_rational_bits", "resource", "larger than 64 bits", ["-- max-rational-bits: 64", "-- input: x = 3/2"],
     "-- Repeated squaring: (3/2)^(2^k) soon exceeds 64-bit numerators.\n"
     "def main(x: R) -> R = loop (a = x) for i < 10 do a * a\n", "a * a", 1, 0),
    ("name_unknown_entry", "name", "no def named `nothere`", ["-- entry: nothere"],
     "-- The entry point named by the headers does not exist.\ndef main(x: R) -> R = x\n", None, 0, 0),
    # ---------------------------------------------------------------- second round
    ("nonrational_in_unselected_select", "non-rational", "`exp` is not a rational operation",
     ["-- input: x = 1"],
     "-- select is strict: exp(x) is evaluated (and rejected in exact mode) although the\n"
     "-- first branch is selected.\n"
     "def main(x: R) -> R = select(x > 0, x, exp(x))\n", "exp(x)", 1, 0),
    ("runtime_select_strict_div", "runtime", "division by zero",
     ["-- mode: strict", "-- input: x = 2", "-- input: y = 0"],
     "-- select is strict: x / y is evaluated although the second branch is selected.\n"
     "def main(x: R, y: R) -> R = select(y != 0, x / y, x)\n", "x / y", 1, 0),
    ("runtime_zdiv_strict", "runtime", "division by zero", ["-- mode: strict", "-- input: n = 0"],
     "-- Z division by zero is an error under strict mode too.\n"
     "def main(n: Z) -> Z = 1 + 10 / n\n", "10 / n", 1, 0),
    ("runtime_zmod_strict", "runtime", "division by zero", ["-- mode: strict", "-- input: n = 7",
                                                          "-- input: m = 0"],
     "-- x % 0 is total (x) but an error under strict mode.\n"
     "def main(n: Z, m: Z) -> Z = n % m\n", "n % m", 1, 0),
    ("input_bool_for_real", "input", "expected R, found a boolean", ["-- input: x = true"],
     "def main(x: R) -> R = x\n", "true", 1, 0),
    ("input_tuple_arity", "input", "expected (R, R), found a tuple of 3 components", ["-- input: p = (1, 2, 3)"],
     "def main(p: (R, R)) -> R = p.0 + p.1\n", "(1, 2, 3)", 1, 0),
    ("input_not_a_literal", "input", "found an expression that is not a literal", ["-- input: x = y + 1"],
     "-- Inputs are constant literals, not expressions over names.\n"
     "def main(x: R) -> R = x\n", "y + 1", 1, 0),
    ("resource_array_too_large", "resource", "has more than 16777216 elements", [],
     "-- 5000 x 5000 = 25,000,000 elements: more than the 2^24 an array may hold.\n"
     "def main(x: R) -> R = sum(build [5000, 5000] ((i, j) => x))\n", "build", 1, 0),
    ("shape_stack_mismatch", "shape", "the elements of `stack` have different types: R[2] and R[3]", [],
     "def main(a: R[2], b: R[3]) -> R[2, 2] = stack([a, b])\n", "b])", 1, 0),
    ("shape_select_branches", "shape", "mismatched shapes for `select`: R[2] and R[3]", [],
     "-- Both branches of select have one shape.\n"
     "def main(c: B, a: R[2], b: R[3]) -> R[2] = select(c, a, b)\n", "select", 1, 0),
    ("shape_loop_body", "shape", "the body of `loop` has type R[4], expected R[2]", [],
     "-- The body of a loop must keep the accumulator's type.\n"
     "def main(x: R[2]) -> R[2] = loop (a = x) for i < 3 do append(a, a)\n", "append(a, a)", 1, 0),
    ("type_scatter_into_real_indices", "type", "the indices of `scatter_into` must be Z, found R[2]", [],
     "-- The indices of scatter_into are Z.\n"
     "def main(d: R[3], is: R[2], v: R[2]) -> R[3] = scatter_into(d, is, v)\n", "is, v", 1, 0),
    ("type_if_branches", "type", "the branches of `if` have different types: R and Z", [],
     "-- Both branches of if have one type.\n"
     "def main(c: B, x: R, n: Z) -> R = if c then x else n\n", "if", 1, 0),
    ("type_reduce_lambda_arity", "type", "the operator of `reduce` must take 2 parameters, found 1", [],
     "-- The operator of reduce takes two arguments (the error points at the reduce: lambdas\n"
     "-- carry no span of their own in the AST).\n"
     "def main(xs: R[3]) -> R = reduce(a => a * 2, 0, xs)\n", "reduce", 1, 0),
    ("syntax_loop_count_not_literal", "syntax", "expected a size (a non-negative integer literal), found `n`", [],
     "-- The trip count of a loop is a static integer literal.\n"
     "def main(x: R, n: Z) -> R = loop (a = x) for i < n do a * 2\n", "n do", 1, 0),
    ("syntax_pow_exponent_not_literal", "syntax", "expected an integer literal, found `n`", [],
     "-- The exponent of pow is a static integer literal.\n"
     "def main(x: R, n: Z) -> R = pow(x, n)\n", "n)", 1, 0),
]


def position(text, start, marker, occurrence, skip):
    """1-based line and column of the `occurrence`-th `marker` at or after byte `start`
    (plus `skip` characters); header markers (input literals) search from 0."""
    if marker is None:
        return 1, 1
    if marker == "EOF":
        at = len(text)
        return text.count("\n") + 1, at - (text.rfind("\n") + 1) + 1
    at = start - 1
    for _ in range(occurrence):
        at = text.index(marker, at + 1)
    at += skip
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, col


def main():
    os.makedirs(ROOT, exist_ok=True)
    for name, code, message, extra, program, marker, occ, skip in CASES:
        # the header block: error / at / message, then extra lines, then the program
        head = [f"-- error: {code}", "-- at: L:C", f"-- message: {message}" if message else None]
        head = [h for h in head if h] + extra
        text = "\n".join(head) + "\n" + program
        start = len(text) - len(program)
        while text.startswith("--", start):  # skip the program's free comments
            start = text.index("\n", start) + 1
        if name.startswith("input_"):
            start = len("\n".join(head[:3]))
        line, col = position(text, start, marker, occ, skip)
        text = text.replace("-- at: L:C", f"-- at: {line}:{col}")
        with open(os.path.join(ROOT, name + ".adl"), "w") as f:
            f.write(text)
    print(f"wrote {len(CASES)} bad programs")


if __name__ == "__main__":
    main()
