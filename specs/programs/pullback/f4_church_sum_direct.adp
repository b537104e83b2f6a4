-- f.4, the direct test: V = pb(sum, omega) [1, 2] is a functional on lists (of type
-- dual List); applied to the tangent list T = J(\z. [z.0, z.1], (5, 7)) (1, 2) = [5, 7]
-- it gives, by contravariance, the derivative of sum along T: 5 + 7 = 12.
-- normal-form: 12
let nil = \c. \n. n in
let cons = \x. \l. \c. \n. c x (l c n) in
let sum = \l. l (\x. \acc. add (x, acc)) 0 in
pb(sum, omega) (cons 1 (cons 2 nil)) (J(\z. cons z.0 (cons z.1 nil), (5, 7)) (1, 2))
