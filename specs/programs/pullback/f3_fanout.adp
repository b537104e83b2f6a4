-- f.3 edge case: fan-out. y = x² is used twice; call-by-value evaluates it once.
-- By hand at 3: y = 9, value 2y = 18, derivative 2·2x = 12. One multiplication and one
-- addition are evaluated (δ_f) and differentiated (δ_J).
-- input: x = 3
-- value: 18
-- grad: 12
-- delta: add=1 mul=1
-- delta-j: add=1 mul=1
\x. let y = mul (x, x) in add (y, y)
