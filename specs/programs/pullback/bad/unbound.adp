-- An unbound variable: the file's term must be closed.
-- error: name
-- at: 5:13
-- message: unbound name `y`
\x. mul (x, y)
