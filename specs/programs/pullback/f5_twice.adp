-- f.5, a higher-order combinator: twice f x = f (f x) with f y = y², so the function is x⁴.
-- By hand at 2: 2⁴ = 16, derivative 4x³ = 32.
-- input: x = 2
-- value: 16
-- grad: 32
\x. let twice = \f. \y. f (f y) in twice (\y. mul (y, y)) x
