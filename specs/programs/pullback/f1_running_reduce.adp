-- f.1 as one closed term for `adora reduce --trace`: reverse mode on the running example
-- is the reduction of pb(\z. t, omega) (1, 3) (Mak and Ong, §3.3). The normal form is the
-- covector of the gradient row (15, 12) (computed by hand in f1_running.adp); the step
-- trace, a forward phase and then a reverse phase, is f1_running_reduce.trace.
-- delta: add=2 mul=3
-- delta-j: add=2 mul=3
-- rules: 8=4 7=1 P=5 5=5
-- normal-form: \u. mul (15, u.0) + mul (12, u.1)
-- steps: 43
pb(\z. let a = add (z.0, 1) in
       let b = mul (2, z.0) in
       let c = mul (z.1, z.1) in
       let d = add (b, c) in
       let h = mul (a, d) in
       h,
   omega) (1, 3)
