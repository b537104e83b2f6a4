//! Integration tests of the pullback calculus, one module per topic.

mod parse;
mod syntax;
mod reduce_examples;
