//! Integration tests of the pullback calculus, one module per topic.

mod goldens;
mod lin;
mod parse;
mod syntax;
mod types;
