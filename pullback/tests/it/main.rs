//! Integration tests of the pullback calculus, one module per topic.

mod ad;
mod anf;
mod golden_reduce;
mod goldens;
mod lin;
mod model;
mod parse;
mod reduce_examples;
mod reduce_rules;
mod reduce_values;
mod regressions;
mod sparse_tape;
mod syntax;
mod types;
