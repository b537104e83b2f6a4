-- A syntax error: the pair is not closed.
-- error: syntax
-- at: 6:1
-- message: expected a term
\x. mul (x,
