//! Dual numbers `Dual<F>`: a value and a sparse tangent map (input-scalar id → F).
