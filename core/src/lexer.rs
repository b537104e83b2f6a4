//! Lexer: source text → tokens with spans. (To be written: see parser.rs.)
