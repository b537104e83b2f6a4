//! Instances of sized helper `def`s (templates, [`crate::sizes::Template`];
//! docs/language.md "Helpers with size parameters"): at each call of a template the
//! checker binds its size names from the arguments' types, and asks this registry for the
//! instance at those sizes — made once per template and sizes, named uniquely in the
//! program (`dot_n3`), and checked by [`super::elaborate_defs`] like any other `def`.

use crate::ast::{Def, Name, Program};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::limits::MAX_INSTANCES;
use crate::sizes::{bind_call, describe_instance, Sizes, Template};
use crate::types::Type;
use std::collections::{BTreeMap, HashSet};

/// One instance: the `def` with literal sizes (named uniquely), and where it was first
/// called, for messages about it.
pub(crate) struct Instance {
    /// The instantiated `def`.
    pub def: Def,
    /// The label added to errors in the instance: the first call that made it.
    pub origin: (Span, String),
}

/// The instances made so far, in order of creation.
pub(crate) struct Instances {
    templates: Vec<Template>,
    /// Names no instance may take: every `def` and template name, and the instances'.
    taken: HashSet<Name>,
    index: BTreeMap<(usize, Sizes), usize>,
    /// The instances, in order of creation.
    pub made: Vec<Instance>,
}

impl Instances {
    /// An empty registry for the templates of `p`.
    pub fn new(p: &Program) -> Instances {
        let taken = p
            .defs
            .iter()
            .map(|d| d.name.clone())
            .chain(p.templates.iter().map(|t| t.name().clone()))
            .collect();
        Instances {
            templates: p.templates.clone(),
            taken,
            index: BTreeMap::new(),
            made: Vec::new(),
        }
    }

    /// The instance of template `t` for a call (at `call`) whose arguments have the types
    /// and spans `args` (as many as its parameters): its name and result type. Errors:
    /// those of [`bind_call`], those of parsing the template at the bound sizes (labelled
    /// with the call), and more than [`MAX_INSTANCES`] instances.
    pub fn instance(
        &mut self,
        t: usize,
        args: &[(Type, Span)],
        call: Span,
    ) -> Result<(Name, Type)> {
        let tpl = &self.templates[t];
        let sizes = bind_call(&tpl.sig, args)?;
        if let Some(&k) = self.index.get(&(t, sizes.clone())) {
            let d = &self.made[k].def;
            return Ok((d.name.clone(), d.ret.clone()));
        }
        if self.made.len() >= MAX_INSTANCES {
            let msg = format!(
                "too many instances of helpers with size parameters: more than {MAX_INSTANCES}"
            );
            return Err(Diagnostic::new(ErrorKind::Resource, call, msg));
        }
        let label = format!(
            "{} instantiated here",
            describe_instance(tpl.name(), &sizes)
        );
        let mut def = tpl
            .instantiate(&sizes)
            .map_err(|d| d.with_label(call, label.clone()))?;
        def.name = self.fresh_name(tpl, &sizes);
        self.taken.insert(def.name.clone());
        let out = (def.name.clone(), def.ret.clone());
        self.index.insert((t, sizes), self.made.len());
        self.made.push(Instance {
            def,
            origin: (call, label),
        });
        Ok(out)
    }

    /// `dot_n3`, `conv_n5_k3` (size names in parameter order), or with a suffix `_1`,
    /// `_2`, … when that name is taken.
    fn fresh_name(&self, tpl: &Template, sizes: &Sizes) -> Name {
        let mut base = tpl.name().clone();
        for n in tpl.sig.size_names() {
            base.push_str(&format!("_{n}{}", sizes.get(n).copied().unwrap_or(0)));
        }
        if !self.taken.contains(&base) {
            return base;
        }
        (1..)
            .map(|k| format!("{base}_{k}"))
            .find(|n| !self.taken.contains(n))
            .unwrap_or(base)
    }
}
