//! Prepared runs (docs/backend.md, "CPU executor" and "Timing"): a [`Machine`] allocates
//! a plan's memory slots once, stores the inputs once, and runs the steps on each call.
//! The memory plan keeps the input buffers alive to the end of the plan
//! (`gpu/src/plan/memory.rs`), so no step overwrites them and they serve every call. Every
//! other buffer is written before it is read within one call — `map`, `reduce`, `scan` and
//! `matmul` kernels write their whole output, a `scatter`'s output is first written by its
//! own `zero` or `copy` kernel, and a host loop's accumulators by the copies made before
//! the loop — so a call never sees what an earlier call left in the slots.

use super::kernels::Ctx;
use super::native::{Kernels, Launch, Native};
use super::values;
use crate::plan::{Kernel, Plan, Step};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_semantics::value::Value;

/// A plan prepared for repeated calls: its memory slots (allocated once), its inputs
/// (stored by [`Machine::load`]) and the host loop counters.
pub struct Machine<'p> {
    plan: &'p Plan,
    slots: Vec<Vec<f64>>,
    counters: Vec<(u32, f64)>,
    loaded: bool,
    /// The new accumulators of a host loop, gathered before they are copied.
    carry: Vec<f64>,
    /// Per kernel name, the seconds spent and the launches, when profiling.
    profile: Option<std::collections::HashMap<String, (f64, u64)>>,
    /// The compiled kernels, when it runs them (docs/backend.md, "Compiled kernels").
    native: Option<Native>,
}

impl<'p> Machine<'p> {
    /// A machine for `plan` running its kernels on the lanes, with its slots allocated
    /// (zeroed) and no inputs yet.
    pub fn new(plan: &'p Plan) -> Self {
        Machine {
            plan,
            slots: plan.slots.iter().map(|&n| vec![0.0; n]).collect(),
            counters: Vec::new(),
            loaded: false,
            carry: Vec::new(),
            profile: None,
            native: None,
        }
    }

    /// A machine for `plan` running the kernels `kernels` asks for: compiled ones are
    /// compiled here, once ([`Native::choose`]: an error for [`Kernels::Compiled`]
    /// without a C compiler, an internal error when compiling fails).
    pub fn with_kernels(plan: &'p Plan, kernels: Kernels) -> Result<Self> {
        let native = Native::choose(plan, kernels)?;
        Ok(Machine {
            native,
            ..Machine::new(plan)
        })
    }

    /// A machine for `plan` running the compiled kernels `native` (of this plan:
    /// [`Native::compile`] or one of [`Native::compile_all`]); an internal error when they
    /// were compiled for another plan (their functions would read other buffers).
    pub fn with_native(plan: &'p Plan, native: Native) -> Result<Self> {
        if native.plan != super::native::fingerprint(plan) {
            return Err(Diagnostic::new(
                ErrorKind::Internal,
                Span::DUMMY,
                "compiled kernels given to a machine of another plan",
            ));
        }
        Ok(Machine {
            native: Some(native),
            ..Machine::new(plan)
        })
    }

    /// The compiled kernels it runs, if any.
    pub fn native(&self) -> Option<&Native> {
        self.native.as_ref()
    }

    /// Starts timing every kernel launch of the following calls (`adora run --profile`).
    pub fn profile(&mut self) {
        self.profile = Some(Default::default());
    }

    /// The kernels' times since [`Machine::profile`], in the plan's kernel order: name,
    /// seconds in all, launches (empty when not profiling).
    pub fn kernel_times(&self) -> Vec<(String, f64, u64)> {
        let Some(p) = &self.profile else {
            return Vec::new();
        };
        self.plan
            .kernels()
            .iter()
            .map(|k| {
                let (t, n) = p.get(&k.name).copied().unwrap_or((0.0, 0));
                (k.name.clone(), t, n)
            })
            .collect()
    }

    /// Stores the inputs (one value per parameter, of its type) in their buffers; they
    /// serve every later [`Machine::call`] until the next `load`.
    pub fn load(&mut self, inputs: &[Value<f64>]) -> Result<()> {
        self.loaded = false;
        values::store_inputs(self.plan, inputs, &mut self.slots)?;
        self.loaded = true;
        Ok(())
    }

    /// Runs the plan's steps on the loaded inputs and returns the result. An error when no
    /// inputs were loaded.
    pub fn call(&mut self) -> Result<Value<f64>> {
        self.execute()?;
        Ok(self.output())
    }

    /// Runs the plan's steps on the loaded inputs, leaving the result in its buffers (what
    /// `adora run --repeat` times). An error when no inputs were loaded.
    pub fn execute(&mut self) -> Result<()> {
        if !self.loaded {
            return Err(Diagnostic::new(
                ErrorKind::Input,
                Span::DUMMY,
                "the plan is called before its inputs are loaded",
            ));
        }
        let plan = self.plan;
        self.steps(&plan.steps);
        Ok(())
    }

    /// The result of the last [`Machine::execute`], read out of its buffers.
    pub fn output(&self) -> Value<f64> {
        let plan = self.plan;
        values::load_output(plan, &plan.output, &plan.ret, &self.slots)
    }

    fn steps(&mut self, steps: &'p [Step]) {
        for s in steps {
            match s {
                Step::Kernel(k) => self.kernel(k),
                Step::Loop {
                    counter,
                    count,
                    body,
                    carry,
                } => {
                    for c in 0..*count {
                        self.set_counter(*counter, c as f64);
                        self.steps(body);
                        self.copy_carry(carry);
                    }
                }
            }
        }
    }

    fn set_counter(&mut self, counter: u32, value: f64) {
        match self.counters.iter_mut().find(|(v, _)| *v == counter) {
            Some(slot) => slot.1 = value,
            None => self.counters.push((counter, value)),
        }
    }

    /// Copies each loop's new accumulator `from` into `to`, all read before any is
    /// written (as the plan's `Step::Loop` specifies).
    fn copy_carry(&mut self, carry: &[(usize, usize)]) {
        let plan = self.plan;
        self.carry.clear();
        for (f, _) in carry {
            let b = &plan.buffers[*f];
            self.carry.extend_from_slice(&self.slots[b.slot][..b.len()]);
        }
        let mut at = 0;
        for (_, t) in carry {
            let b = &plan.buffers[*t];
            let n = b.len();
            self.slots[b.slot][..n].copy_from_slice(&self.carry[at..at + n]);
            at += n;
        }
    }

    fn kernel(&mut self, k: &Kernel) {
        let plan = self.plan;
        let out_buf = &plan.buffers[k.out];
        let mut out = std::mem::take(&mut self.slots[out_buf.slot]);
        let bufs: Vec<&[f64]> = plan
            .buffers
            .iter()
            .map(|b| {
                if b.slot == out_buf.slot {
                    &[][..]
                } else {
                    &self.slots[b.slot][..b.len()]
                }
            })
            .collect();
        let counters: Vec<(u32, f64)> = k
            .counters
            .iter()
            .map(|(v, c)| {
                let value = self.counters.iter().find(|(w, _)| w == c).map(|p| p.1);
                (*v, value.unwrap_or(0.0))
            })
            .collect();
        let ctx = Ctx {
            bufs: &bufs,
            nvars: k.nvars as usize,
            counters: &counters,
        };
        let len = out_buf.len();
        let start = self.profile.is_some().then(std::time::Instant::now);
        match &self.native {
            Some(native) if native.entries.contains_key(&k.name) => {
                let launch = self.launch(k, out_buf.slot);
                native.kernel(k, &out_buf.shape, &bufs, &mut out[..len], launch);
            }
            _ => ctx.kernel(&k.kind, &out_buf.shape, &mut out[..len]),
        }
        if let (Some(p), Some(t)) = (self.profile.as_mut(), start) {
            let e = p.entry(k.name.clone()).or_insert((0.0, 0));
            e.0 += t.elapsed().as_secs_f64();
            e.1 += 1;
        }
        self.slots[out_buf.slot] = out;
    }

    /// The buffer pointers (those sharing the output's slot null: the compiled code
    /// reads 0 for them, `gpu/src/cpu/native/emit.rs`) and counters of a launch of `k`;
    /// the output's pointer is set by the caller.
    fn launch(&self, k: &Kernel, out_slot: usize) -> Launch {
        let plan = self.plan;
        let b = plan
            .buffers
            .iter()
            .map(|b| {
                if b.slot == out_slot {
                    std::ptr::null_mut()
                } else {
                    self.slots[b.slot].as_ptr() as *mut f64
                }
            })
            .collect();
        let n = k
            .counters
            .iter()
            .map(|(_, c)| *c as usize + 1)
            .max()
            .unwrap_or(0);
        let mut c = vec![0.0; n];
        for (_, id) in &k.counters {
            if let Some((_, v)) = self.counters.iter().find(|(w, _)| w == id) {
                c[*id as usize] = *v;
            }
        }
        Launch { b, c, out: k.out }
    }
}
