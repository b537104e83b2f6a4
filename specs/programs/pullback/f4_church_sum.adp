-- f.4, the paper's Example 3.2: sum over Church-encoded lists (Mak and Ong, §2.2, "sum"
-- is λl. l (λx.λy. x + y) 0), composed with the list of the input's components.
-- By hand at (1, 2): sum [1, 2] = 3, and ∂/∂z_i (z_0 + z_1) = 1 for both.
-- input: z = (1, 2)
-- value: 3
-- grad: (1, 1)
-- tangent: (5, 7)
-- jvp: 12
\z. let nil = \c. \n. n in
    let cons = \x. \l. \c. \n. c x (l c n) in
    let sum = \l. l (\x. \acc. add (x, acc)) 0 in
    sum (cons z.0 (cons z.1 nil))
