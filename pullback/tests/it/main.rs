//! Integration tests of the pullback calculus, one module per topic.

mod lin;
mod parse;
mod syntax;
mod types;
