-- f.9, expression swell (Mak and Ong, §2.1): x⁸ by three squarings. The symbolic
-- derivative without sharing doubles with each squaring; the reduction evaluates and
-- differentiates each multiplication once.
-- By hand at 2: 2⁸ = 256, derivative 8x⁷ = 8·128 = 1024.
-- input: x = 2
-- value: 256
-- grad: 1024
-- delta: mul=3
-- delta-j: mul=3
\x. let x1 = mul (x, x) in let x2 = mul (x1, x1) in let x3 = mul (x2, x2) in x3
