-- f.3 edge case: the identity, a linear function (its Jacobian is itself, rules 10 to 14).
-- By hand: value 4, derivative 1.
-- input: x = 4
-- value: 4
-- grad: 1
-- tangent: 2
-- jvp: 2
\x. x
