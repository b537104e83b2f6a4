//! Prints a few generated programs of each fragment with their inputs:
//! `cargo run -p adora-proptests --example sample -- [SEED] [SIZE]`.

use adora_proptests::gen::{generate, Fragment, GenSpec, RetKind};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let size: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(40);
    for fragment in [Fragment::Scalar, Fragment::Bulk, Fragment::Soac] {
        for k in 0..2 {
            let spec = GenSpec {
                fragment,
                size,
                ret: RetKind::Any,
                f64_exact: false,
            };
            let case = generate(&spec, seed * 1000 + k);
            println!("-- {fragment:?}, seed {}\n{case:?}\n", seed * 1000 + k);
        }
    }
}
