-- A type error: a function of R applied to a pair.
-- error: type
-- at: 5:39
-- message: the argument should have type R
(\x. mul (x, x)) 1 + (\x. mul (x, x)) (1, 2)
