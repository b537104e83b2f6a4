-- f.4, sumsq over a Church list of three components of the input.
-- By hand at (1, 2, 3): 1 + 4 + 9 = 14, and ∂/∂z_i Σ z_i² = 2 z_i = (2, 4, 6).
-- input: z = (1, 2, 3)
-- value: 14
-- grad: (2, 4, 6)
\z. let nil = \c. \n. n in
    let cons = \x. \l. \c. \n. c x (l c n) in
    let sumsq = \l. l (\x. \acc. add (mul (x, x), acc)) 0 in
    sumsq (cons z.0 (cons z.1.0 (cons z.1.1 nil)))
