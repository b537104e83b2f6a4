//! Linearize, unzip, transpose: Linear A and the `linear` engine (seed 002).
