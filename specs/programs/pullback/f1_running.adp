-- f.1, the running example of Mak and Ong, A Differential-form Pullback Programming
-- Language for Higher-order Reverse-mode AD, §2.1 and Examples 3.1, 3.3 to 3.5. The
-- function is reconstructed (the paper lost its formulas): f(x, y) = (x + 1)(2x + y²),
-- written in A-normal form, the input as one pair z = (x, y).
-- By hand at (1, 3): a = x + 1 = 2, b = 2x = 2, c = y² = 9, d = b + c = 11, f = a·d = 22.
-- Symbolically ∂f/∂x = (2x + y²) + 2(x + 1) = 11 + 4 = 15 and ∂f/∂y = 2y(x + 1) = 12.
-- Reverse phase (adjoints): h̄ = 1; ā = 11, d̄ = 2; b̄ = c̄ = 2; ȳ = 2·(3 + 3) = 12;
-- x̄ = 2·2 + 11 = 15. Forward mode along (1, 0): the first column, 15.
-- Each of the five elementary terms is evaluated once (δ_f) and differentiated once (δ_J).
-- input: z = (1, 3)
-- value: 22
-- grad: (15, 12)
-- tangent: (1, 0)
-- jvp: 15
-- delta: add=2 mul=3
-- delta-j: add=2 mul=3
-- rules: 8=4 7=1 P=5 5=5
\z. let a = add (z.0, 1) in
    let b = mul (2, z.0) in
    let c = mul (z.1, z.1) in
    let d = add (b, c) in
    let h = mul (a, d) in
    h
