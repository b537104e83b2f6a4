//! Dual-arrays reverse AD with symbolic Delta evaluation (seed 000 §2, §4, §6, §7).
