//! Linear A (seed 002): the non-linear ; linear dialect of the core language — its syntax, parser, printer and linearity checker.
