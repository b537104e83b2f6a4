-- f.8, perturbation confusion: the inner derivative ∂/∂y (x + y) = 1 does not depend on
-- x, so the function is x·1 and its derivative is 1. An implementation that confuses the
-- inner and outer perturbations of x answers 2.
-- input: x = 1
-- value: 1
-- grad: 1
\x. mul (x, (pb(\y. add (x, y), omega) 1) 1)
