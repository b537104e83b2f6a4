-- f.6, a closure capturing the differentiated variable: g y = x·y, the function is
-- g 2 + g x = 2x + x² (rules 18 and 19b with premises).
-- By hand at 3: 6 + 9 = 15, derivative 2 + 2x = 8.
-- input: x = 3
-- value: 15
-- grad: 8
\x. let g = \y. mul (x, y) in add (g 2, g x)
