//! Inlining of `def` calls with capture-avoiding renaming.
