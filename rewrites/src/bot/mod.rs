//! The bulk-operation transform (bot) of seed 000 §5 as an egg rule system.
