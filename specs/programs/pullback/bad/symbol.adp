-- An unknown function symbol with a parameter (only pow<k> takes one).
-- error: name
-- at: 5:5
-- message: unknown function symbol
\x. root<2> x
