//! The reverse rule of `y = scatter_into(dest, is, vs)` (seed 004 §5.3;
//! docs/engines/soac-rules.md). Writes happen in index order and the last write to a
//! position wins; out-of-bounds writes are dropped (docs/language.md). So `vs[j]` gets
//! `ȳ[is[j]]` when its write survives, and `dest` gets `ȳ` with zeros at the written
//! positions. Beyond two arrays of the destination's size (`ȳ`'s copy and the last
//! writers), the work is proportional to `#vs`.

use super::code::*;
use super::{RevEnv, RuleOutput, Stmt};
use adora_core::ast::{BinOp, Pat, Prim};
use adora_core::diag::Result;

/// The rule names of this module, as the rule table of docs/engines/soac-rules.md lists
/// them.
pub const RULES: [&str; 1] = ["scatter-into"];

/// The return sweep of `y = scatter_into(dest, is, vs)`: contributions to `dest` and
/// `vs`. The last writer of each position is found by a `scatter_into` of the indices
/// `0..m` themselves (the same last-write-wins order).
pub fn reverse(env: &mut dyn RevEnv, s: &Stmt) -> Result<RuleOutput> {
    let [dest, is, vs] = s.operands.as_slice() else {
        return Err(malformed("`scatter_into` has three operands"));
    };
    let Some(dsh) = real_shape(&s.types[0]) else {
        return Ok(RuleOutput {
            lets: Vec::new(),
            operands: vec![None, None, None],
            free: Vec::new(),
        });
    };
    let (b, sh) = (dsh[0], dsh[1..].to_vec());
    let (m, _) = outer(&s.types[2])?;
    let last = env.fresh("last_writer");
    let writers = scatter_into(
        replicate(b, int(-1)),
        is.clone(),
        prim(Prim::Iota(m), Vec::new()),
    );
    let (j, t) = (env.fresh("j"), env.fresh("t"));
    let survives = select(
        bin(BinOp::Eq, at(var(&last), var(&t)), var(&j)),
        at(s.adjoint.clone(), var(&t)),
        zeros(&sh),
    );
    let vs_bar = build(
        vec![m],
        vec![j.clone()],
        let_(
            Pat::Var(t.clone()),
            at(is.clone(), var(&j)),
            if_in_bounds(var(&t), b, survives, zeros(&sh)),
        ),
    );
    let dest_bar = scatter_into(s.adjoint.clone(), is.clone(), replicate(m, zeros(&sh)));
    Ok(RuleOutput {
        lets: vec![(Pat::Var(last), writers)],
        operands: vec![for_operand(dest, dest_bar), None, for_operand(vs, vs_bar)],
        free: Vec::new(),
    })
}
