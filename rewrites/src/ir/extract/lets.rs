//! From an extracted [`RecExpr`] (a hash-consed DAG) to a core expression with `let`s.
//!
//! **Occurrences and sharing.** The DAG is unfolded from the root with an environment
//! that maps each index variable to the *binder instance* that binds it. A node occurrence
//! is identified by its *key*: the node and, for each of its free index variables, the
//! instance binding it. Two occurrences with one key denote the same value, so a key that
//! occurs more than once (and is not a trivial leaf: variable, literal, index variable, or a constant array literal)
//! is shared; its subterm is built once. Occurrences of one node under *different*
//! binders of the same variable (rules may reuse a binder in sibling builds) have
//! different keys and are not shared.
//!
//! **Binder instances** are identified structurally: the key of the binder node plus the
//! component (a `build` body is component 0; each index component of a `gather` /
//! `scatter` is its own scope, because the core syntax has no common body for them).
//!
//! **Placement** is the lowering kit's ([`crate::kit::lets`]; docs/architecture.md,
//! "Lowering kit"; seed 000 §7.4 and the extraction of §5): the term is built with a kit
//! reference for each shared key, numbered in order of completion (post-order of the first
//! occurrence, so a shared term only mentions smaller ids), and every binder instance is
//! named by a placeholder unique to it; the kit binds each shared key at the top of the
//! scope of the innermost binder it depends on — or of the whole body when it mentions no
//! index variable — which is the outermost legal scope and dominates all its uses.
//!
//! **Names.** Parameters keep their names; `let`s are named `t`, `t_1`, ... (in id
//! order); each binder gets a fresh readable name from its index variable's source name
//! with trailing digits removed (`i`, `j`, `i_1`, ...), claimed from the same supply in
//! the order a scope's body comes before its `let`s, a `gather`'s source before its
//! binders, and a binder before its scope. All names are distinct, as elaborated
//! programs require: they come from one supply, not from a repair pass.

use super::scope::{binders, free_ivars, is_binding_position, ivar};
use crate::ir::analysis::IrAnalysis;
use crate::ir::lang::{Const, IVarId, Ir};
use crate::kit::lets::{bind_shared, reference, Shared};
use adora_core::ast::{BinOp, Expr, ExprKind, Lit, Name, Param, Prim, UnOp};
use adora_core::diag::Span;
use adora_core::visit::NameSupply;
use egg::{Id, Language, RecExpr};
use num_traits::ToPrimitive;
use std::collections::{BTreeMap, HashMap};

type R<T> = Result<T, String>;

use super::naming::PLACEHOLDER;

#[derive(Clone)]
struct Bind {
    v: IVarId,
    inst: u32,
    name: Name,
}

struct Lets<'a> {
    e: &'a RecExpr<Ir>,
    an: &'a IrAnalysis,
    fv: Vec<Vec<IVarId>>,
    keys: HashMap<(usize, Vec<(IVarId, u32)>), u32>,
    key_node: Vec<usize>,
    insts: HashMap<(u32, usize), u32>,
    count: Vec<u32>,
    order: Vec<u32>,
    /// Shared key → its id in the kit's table and the name of its `let`.
    shared: HashMap<u32, (u64, Name)>,
    /// The kit's table: each shared key's term, built at its first occurrence.
    table: BTreeMap<u64, Shared>,
    /// Binder placeholder → the base of its readable name.
    bases: HashMap<Name, String>,
    supply: NameSupply,
}

fn idx(id: Id) -> usize {
    usize::from(id)
}

/// Converts `e` (well scoped: see [`super::scope::check_scoped`]) to a core expression
/// over `params` (see the module docs), naming from `supply` (the parameters reserved
/// first).
pub(crate) fn to_expr(
    e: &RecExpr<Ir>,
    an: &IrAnalysis,
    params: &[Param],
    supply: &mut NameSupply,
) -> R<Expr> {
    let mut l = Lets {
        e,
        an,
        fv: free_ivars(e),
        keys: HashMap::new(),
        key_node: Vec::new(),
        insts: HashMap::new(),
        count: Vec::new(),
        order: Vec::new(),
        shared: HashMap::new(),
        table: BTreeMap::new(),
        bases: HashMap::new(),
        supply: std::mem::take(supply),
    };
    for p in params {
        l.supply.reserve(&p.name);
    }
    let out = l.convert();
    *supply = l.supply;
    out
}

impl Lets<'_> {
    fn convert(&mut self) -> R<Expr> {
        let root = self.e.as_ref().len().checked_sub(1).ok_or("empty term")?;
        self.count(root, &mut Vec::new())?;
        self.share();
        let body = self.expr(root, &mut Vec::new())?;
        let body = bind_shared(&body, &self.table);
        super::naming::name_binders(&body, &self.bases, &mut self.supply)
    }
}

impl Lets<'_> {
    fn key(&mut self, n: usize, env: &[Bind]) -> R<u32> {
        let mut ctx = Vec::new();
        for v in &self.fv[n] {
            let b = env
                .iter()
                .rev()
                .find(|b| b.v == *v)
                .ok_or_else(|| format!("index variable {v} is used outside its binder"))?;
            ctx.push((*v, b.inst));
        }
        if let Some(&k) = self.keys.get(&(n, ctx.clone())) {
            return Ok(k);
        }
        let k = self.key_node.len() as u32;
        self.key_node.push(n);
        self.count.push(0);
        self.keys.insert((n, ctx), k);
        Ok(k)
    }

    fn instance(&mut self, key: u32, comp: usize) -> u32 {
        let next = self.insts.len() as u32 + 1;
        *self.insts.entry((key, comp)).or_insert(next)
    }

    fn node(&self, n: usize) -> &Ir {
        &self.e.as_ref()[n]
    }

    fn count(&mut self, n: usize, env: &mut Vec<Bind>) -> R<()> {
        let key = self.key(n, env)?;
        self.count[key as usize] += 1;
        if self.count[key as usize] > 1 {
            return Ok(());
        }
        let node = self.node(n).clone();
        match &node {
            Ir::Build([_, i, body]) => {
                let v = ivar(self.e, *i).ok_or("a build binder is not an index variable")?;
                let inst = self.instance(key, 0);
                env.push(Bind {
                    v,
                    inst,
                    name: Name::new(),
                });
                let r = self.count(idx(*body), env);
                env.pop();
                r?;
            }
            Ir::Gather([_, src, bs, ixs]) | Ir::Scatter([_, src, bs, ixs]) => {
                self.count(idx(*src), env)?;
                let vs = binders(self.e, *bs);
                for (k, c) in self.components(*ixs)?.into_iter().enumerate() {
                    let inst = self.instance(key, k);
                    let depth = env.len();
                    env.extend(vs.iter().map(|v| Bind {
                        v: *v,
                        inst,
                        name: Name::new(),
                    }));
                    let r = self.count(idx(c), env);
                    env.truncate(depth);
                    r?;
                }
            }
            _ => {
                for (k, c) in node.children().iter().enumerate() {
                    if !is_binding_position(&node, k) {
                        self.count(idx(*c), env)?;
                    }
                }
            }
        }
        self.order.push(key);
        Ok(())
    }

    fn components(&self, ixs: Id) -> R<Vec<Id>> {
        match &self.e[ixs] {
            Ir::Ixs(c) => Ok(c.to_vec()),
            other => Err(format!("`{other}` where an index list was expected")),
        }
    }

    /// Numbers the shared keys in order of completion and names their `let`s.
    fn share(&mut self) {
        for &key in &self.order {
            let n = self.key_node[key as usize];
            // Constants stay in place: the normal form may index a constant array, not a
            // `let`-bound one (found by `dual/cheap-gradient`, seed 3006).
            let trivial = matches!(
                self.node(n),
                Ir::Var(_) | Ir::Lit(_) | Ir::IVar(_) | Ir::Nat(_) | Ir::Shape(_)
            ) || crate::ir::lang::is_constant(self.e, Id::from(n));
            if trivial || self.count[key as usize] < 2 {
                continue;
            }
            let id = self.shared.len() as u64;
            let name = self.supply.claim("t");
            self.shared.insert(key, (id, name));
        }
    }

    /// Node `n` under `env`: a kit reference for a shared key (its term built at the first
    /// occurrence), else the node itself.
    fn expr(&mut self, n: usize, env: &mut Vec<Bind>) -> R<Expr> {
        let key = self.key(n, env)?;
        if let Some((id, name)) = self.shared.get(&key).cloned() {
            if !self.table.contains_key(&id) {
                let term = self.node_expr(n, key, env)?;
                self.table.insert(id, Shared { name, term });
            }
            return Ok(reference(id));
        }
        self.node_expr(n, key, env)
    }

    fn exprs(&mut self, ids: &[Id], env: &mut Vec<Bind>) -> R<Vec<Expr>> {
        ids.iter().map(|c| self.expr(idx(*c), env)).collect()
    }

    /// A placeholder name for binder `k` of the binder node of `key`, remembering the base
    /// of its readable name.
    fn placeholder(&mut self, key: u32, k: usize, v: IVarId) -> Name {
        let src = self
            .an
            .ivars
            .get(v.0 as usize)
            .map_or("i", |i| i.name.as_str());
        let base = adora_core::visit::base_name(src).trim_end_matches(|c: char| c.is_ascii_digit());
        let ok = base
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        let name = format!("{PLACEHOLDER}{key}.{k}");
        self.bases
            .insert(name.clone(), if ok { base } else { "i" }.to_string());
        name
    }

    fn nat(&self, id: Id) -> R<usize> {
        match &self.e[id] {
            Ir::Nat(k) => Ok(k.0),
            other => Err(format!("`{other}` where a static natural was expected")),
        }
    }

    fn shape(&self, id: Id) -> R<Vec<usize>> {
        match &self.e[id] {
            Ir::Shape(s) => Ok(s.0.clone()),
            other => Err(format!("`{other}` where a static shape was expected")),
        }
    }

    fn node_expr(&mut self, n: usize, key: u32, env: &mut Vec<Bind>) -> R<Expr> {
        let node = self.node(n).clone();
        let un = |p: Prim, x: Expr| ExprKind::Prim(p, vec![x]);
        let kind = match &node {
            Ir::Lit(c) => ExprKind::Lit(match c {
                Const::Real(r) => Lit::Real(r.clone()),
                Const::Int(z) => Lit::Int(z.clone()),
                Const::Bool(b) => Lit::Bool(*b),
            }),
            Ir::Var(v) => {
                let info = self
                    .an
                    .vars
                    .get(v.0 as usize)
                    .ok_or(format!("unknown variable {v}"))?;
                ExprKind::Var(info.name.clone())
            }
            Ir::IVar(v) => {
                let b = env
                    .iter()
                    .rev()
                    .find(|b| b.v == *v)
                    .ok_or(format!("{v} escapes"))?;
                ExprKind::Var(b.name.clone())
            }
            Ir::Array(xs) => ExprKind::Array(self.exprs(xs, env)?),
            Ir::Tuple(xs) => ExprKind::Tuple(self.exprs(xs, env)?),
            Ir::Stack(xs) => ExprKind::Prim(Prim::Stack, self.exprs(xs, env)?),
            Ir::Proj([k, x]) => ExprKind::Proj(Box::new(self.expr(idx(*x), env)?), self.nat(*k)?),
            Ir::Neg([x]) => ExprKind::Unary(UnOp::Neg, Box::new(self.expr(idx(*x), env)?)),
            Ir::Not([x]) => ExprKind::Unary(UnOp::Not, Box::new(self.expr(idx(*x), env)?)),
            Ir::Exp([x]) => un(Prim::Exp, self.expr(idx(*x), env)?),
            Ir::Log([x]) => un(Prim::Log, self.expr(idx(*x), env)?),
            Ir::Sin([x]) => un(Prim::Sin, self.expr(idx(*x), env)?),
            Ir::Cos([x]) => un(Prim::Cos, self.expr(idx(*x), env)?),
            Ir::Tanh([x]) => un(Prim::Tanh, self.expr(idx(*x), env)?),
            Ir::Sqrt([x]) => un(Prim::Sqrt, self.expr(idx(*x), env)?),
            Ir::Abs([x]) => un(Prim::Abs, self.expr(idx(*x), env)?),
            Ir::Floor([x]) => un(Prim::Floor, self.expr(idx(*x), env)?),
            Ir::ToReal([x]) => un(Prim::Real, self.expr(idx(*x), env)?),
            Ir::Sum([x]) => un(Prim::Sum, self.expr(idx(*x), env)?),
            Ir::SumOuter([x]) => un(Prim::SumOuter, self.expr(idx(*x), env)?),
            Ir::Pow([x, k]) => {
                let k = match &self.e[*k] {
                    Ir::Lit(Const::Int(z)) => z.to_i64().ok_or("exponent out of range")?,
                    other => return Err(format!("`{other}` as the exponent of `pow`")),
                };
                un(Prim::Pow(k), self.expr(idx(*x), env)?)
            }
            Ir::Replicate([k, x]) => un(Prim::Replicate(self.nat(*k)?), self.expr(idx(*x), env)?),
            Ir::Transpose([p, x]) => un(Prim::Transpose(self.shape(*p)?), self.expr(idx(*x), env)?),
            Ir::Reshape([s, x]) => un(Prim::Reshape(self.shape(*s)?), self.expr(idx(*x), env)?),
            Ir::Iota([k]) => ExprKind::Prim(Prim::Iota(self.nat(*k)?), Vec::new()),
            Ir::Min([a, b]) | Ir::Max([a, b]) | Ir::Append([a, b]) => {
                let p = match node {
                    Ir::Min(_) => Prim::Min,
                    Ir::Max(_) => Prim::Max,
                    _ => Prim::Append,
                };
                ExprKind::Prim(p, self.exprs(&[*a, *b], env)?)
            }
            Ir::Select([c, a, b]) => ExprKind::Prim(Prim::Select, self.exprs(&[*c, *a, *b], env)?),
            Ir::Index(ch) => {
                let (x, js) = ch.split_first().ok_or("`index` without operands")?;
                let x = self.expr(idx(*x), env)?;
                ExprKind::Index(Box::new(x), self.exprs(js, env)?)
            }
            Ir::Build([k, i, body]) => {
                let v = ivar(self.e, *i).ok_or("a build binder is not an index variable")?;
                let name = self.placeholder(key, 0, v);
                let inst = self.instance(key, 0);
                env.push(Bind {
                    v,
                    inst,
                    name: name.clone(),
                });
                let body = self.expr(idx(*body), env);
                env.pop();
                ExprKind::Build(vec![self.nat(*k)?], vec![name], Box::new(body?))
            }
            Ir::Gather([sh, src, bs, ixs]) | Ir::Scatter([sh, src, bs, ixs]) => {
                let sh = self.shape(*sh)?;
                let src = Box::new(self.expr(idx(*src), env)?);
                let vs = binders(self.e, *bs);
                let names: Vec<Name> = vs
                    .iter()
                    .enumerate()
                    .map(|(k, v)| self.placeholder(key, k, *v))
                    .collect();
                let mut comps = Vec::new();
                for (k, c) in self.components(*ixs)?.into_iter().enumerate() {
                    let inst = self.instance(key, k);
                    let depth = env.len();
                    for (v, name) in vs.iter().zip(&names) {
                        env.push(Bind {
                            v: *v,
                            inst,
                            name: name.clone(),
                        });
                    }
                    let comp = self.expr(idx(c), env);
                    env.truncate(depth);
                    comps.push(comp?);
                }
                if matches!(node, Ir::Gather(_)) {
                    ExprKind::Gather(sh, src, names, comps)
                } else {
                    ExprKind::Scatter(sh, src, names, comps)
                }
            }
            Ir::Add([a, b])
            | Ir::Sub([a, b])
            | Ir::Mul([a, b])
            | Ir::Div([a, b])
            | Ir::Mod([a, b])
            | Ir::Eq([a, b])
            | Ir::Ne([a, b])
            | Ir::Lt([a, b])
            | Ir::Le([a, b])
            | Ir::Gt([a, b])
            | Ir::Ge([a, b])
            | Ir::And([a, b])
            | Ir::Or([a, b]) => {
                let op = binop(&node).ok_or("not a binary operator")?;
                let a = Box::new(self.expr(idx(*a), env)?);
                let b = Box::new(self.expr(idx(*b), env)?);
                ExprKind::Binary(op, a, b)
            }
            Ir::Nat(_) | Ir::Shape(_) | Ir::Binders(_) | Ir::Ixs(_) => {
                return Err(format!("`{node}` in an expression position"))
            }
        };
        Ok(mk(kind))
    }
}

fn binop(n: &Ir) -> Option<BinOp> {
    Some(match n {
        Ir::Add(_) => BinOp::Add,
        Ir::Sub(_) => BinOp::Sub,
        Ir::Mul(_) => BinOp::Mul,
        Ir::Div(_) => BinOp::Div,
        Ir::Mod(_) => BinOp::Mod,
        Ir::Eq(_) => BinOp::Eq,
        Ir::Ne(_) => BinOp::Ne,
        Ir::Lt(_) => BinOp::Lt,
        Ir::Le(_) => BinOp::Le,
        Ir::Gt(_) => BinOp::Gt,
        Ir::Ge(_) => BinOp::Ge,
        Ir::And(_) => BinOp::And,
        Ir::Or(_) => BinOp::Or,
        _ => return None,
    })
}

fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}
