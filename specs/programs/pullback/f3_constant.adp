-- f.3 edge case: a constant function (rule 9): the gradient is zero.
-- input: z = (1, 2)
-- value: 7
-- grad: (0, 0)
\z. 7
