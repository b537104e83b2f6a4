-- f.7, a nested pullback (rule 17): the inner pullback is the derivative of y³, 3x², and
-- the outer one differentiates it again.
-- By hand at 3: 3·9 = 27, derivative 6x = 18.
-- input: x = 3
-- value: 27
-- grad: 18
\x. (pb(\y. mul (y, mul (y, y)), omega) x) 1
