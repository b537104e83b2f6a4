//! Running a plan on a CUDA device through `cudarc` (docs/backend.md, "CUDA"). The
//! driver library is looked for before any context call (`cudarc` panics when it creates
//! a context without it).

use super::codegen;
use super::nvrtc;
use crate::plan::{Output, Plan, Step};
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_semantics::value::{Tensor, Value};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::CompileOptions;
use std::collections::HashMap;
use std::sync::Arc;

/// Why the CUDA backend gave no value.
#[derive(Debug)]
pub enum CudaError {
    /// No driver library, or no device (the reason).
    NoDevice(String),
    /// A failure with a device present (compilation, launch, bad input).
    Failed(Diagnostic),
}

fn failed(msg: impl Into<String>) -> CudaError {
    CudaError::Failed(Diagnostic::new(ErrorKind::Runtime, Span::DUMMY, msg))
}

/// Runs `plan` on device 0.
pub fn run(plan: &Plan, inputs: &[Value<f64>]) -> Result<Value<f64>, CudaError> {
    // SAFETY: only tries to open the driver library.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(CudaError::NoDevice(
            "the CUDA driver library libcuda is not installed".into(),
        ));
    }
    let ctx = CudaContext::new(0).map_err(|e| CudaError::NoDevice(format!("{e:?}")))?;
    if !nvrtc::present() {
        return Err(CudaError::Failed(Diagnostic::new(
            ErrorKind::Unsupported,
            Span::DUMMY,
            "NVRTC not found: run scripts/python-env.sh nvrtc and put its --lib-path on LD_LIBRARY_PATH",
        )));
    }
    let major = ctx
        .attribute(
            cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
        )
        .map_err(|e| failed(format!("{e:?}")))?;
    let minor = ctx
        .attribute(
            cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
        )
        .map_err(|e| failed(format!("{e:?}")))?;
    let arch: &'static str = Box::leak(format!("compute_{major}{minor}").into_boxed_str());
    let (src, launches) = codegen::module(plan);
    let ptx = cudarc::nvrtc::compile_ptx_with_opts(
        &src,
        CompileOptions {
            arch: Some(arch),
            fmad: Some(false),
            ..Default::default()
        },
    )
    .map_err(|e| failed(format!("NVRTC: {e:?}")))?;
    let stream = ctx.default_stream();
    let module = ctx.load_module(ptx).map_err(|e| failed(format!("{e:?}")))?;
    let mut funcs = HashMap::new();
    for l in &launches {
        let f = module
            .load_function(&l.name)
            .map_err(|e| failed(format!("{e:?}")))?;
        funcs.insert(l.name.clone(), (f, l.clone()));
    }
    let mut dev = Device {
        plan,
        stream: stream.clone(),
        slots: Vec::new(),
        table: None,
        counters: vec![0.0; max_counter(&plan.steps) + 1],
        funcs,
    };
    dev.setup(inputs)?;
    dev.steps(&plan.steps)?;
    stream.synchronize().map_err(|e| failed(format!("{e:?}")))?;
    dev.output(&plan.output, &plan.ret)
}

fn max_counter(steps: &[Step]) -> usize {
    steps
        .iter()
        .map(|s| match s {
            Step::Kernel(_) => 0,
            Step::Loop { counter, body, .. } => (*counter as usize).max(max_counter(body)),
        })
        .max()
        .unwrap_or(0)
}

struct Device<'p> {
    plan: &'p Plan,
    stream: Arc<CudaStream>,
    slots: Vec<CudaSlice<f64>>,
    table: Option<CudaSlice<u64>>,
    counters: Vec<f64>,
    funcs: HashMap<String, (CudaFunction, codegen::Launch)>,
}

fn err(e: impl std::fmt::Debug) -> CudaError {
    failed(format!("{e:?}"))
}

impl Device<'_> {
    fn setup(&mut self, inputs: &[Value<f64>]) -> Result<(), CudaError> {
        let plan = self.plan;
        for &n in &plan.slots {
            self.slots
                .push(self.stream.alloc_zeros::<f64>(n.max(1)).map_err(err)?);
        }
        let mut host: Vec<Vec<f64>> = plan.slots.iter().map(|&n| vec![0.0; n]).collect();
        crate::cpu::store_inputs(plan, inputs, &mut host).map_err(CudaError::Failed)?;
        for (s, h) in self.slots.iter_mut().zip(&host) {
            if !h.is_empty() {
                self.stream.memcpy_htod(h, s).map_err(err)?;
            }
        }
        let ptrs: Vec<u64> = plan
            .buffers
            .iter()
            .map(|b| {
                let (p, _sync) = self.slots[b.slot].device_ptr(&self.stream);
                p
            })
            .collect();
        self.table = Some(self.stream.clone_htod(&ptrs).map_err(err)?);
        Ok(())
    }

    fn steps(&mut self, steps: &[Step]) -> Result<(), CudaError> {
        for s in steps {
            match s {
                Step::Kernel(k) => self.launch(&k.name)?,
                Step::Loop {
                    counter,
                    count,
                    body,
                    carry,
                } => {
                    for c in 0..*count {
                        self.counters[*counter as usize] = c as f64;
                        self.steps(body)?;
                        let vals: Vec<Vec<f64>> = carry
                            .iter()
                            .map(|(f, _)| self.read(*f))
                            .collect::<Result<_, _>>()?;
                        for ((_, t), v) in carry.iter().zip(vals) {
                            let slot = self.plan.buffers[*t].slot;
                            let mut full =
                                self.stream.clone_dtoh(&self.slots[slot]).map_err(err)?;
                            full[..v.len()].copy_from_slice(&v);
                            self.stream
                                .memcpy_htod(&full, &mut self.slots[slot])
                                .map_err(err)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn launch(&mut self, name: &str) -> Result<(), CudaError> {
        let (f, l) = self
            .funcs
            .get(name)
            .ok_or_else(|| failed(format!("no kernel {name}")))?;
        if !l.work {
            return Ok(());
        }
        let ctr = self.stream.clone_htod(&self.counters).map_err(err)?;
        let table = self
            .table
            .as_ref()
            .ok_or_else(|| failed("no buffer table"))?;
        let mut b = self.stream.launch_builder(f);
        b.arg(table);
        b.arg(&ctr);
        let cfg = LaunchConfig {
            grid_dim: (l.grid.0, l.grid.1, 1),
            block_dim: (l.block.0, l.block.1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: the kernel takes (double* const* B, const double* C); `table` holds a
        // device pointer to every buffer's slot, each allocated with the buffer's length.
        unsafe { b.launch(cfg) }.map_err(err)?;
        Ok(())
    }

    fn read(&self, b: usize) -> Result<Vec<f64>, CudaError> {
        let buf = &self.plan.buffers[b];
        let mut v = self.stream.clone_dtoh(&self.slots[buf.slot]).map_err(err)?;
        v.truncate(buf.len());
        Ok(v)
    }

    fn output(&self, o: &Output, ty: &adora_core::types::Type) -> Result<Value<f64>, CudaError> {
        use adora_core::types::{Base, Type};
        match (o, ty) {
            (Output::Buf(b), Type::Array(base, shape)) => {
                let data = self.read(*b)?;
                let shape = shape.clone();
                Ok(match base {
                    Base::R => Value::Real(Tensor { shape, data }),
                    Base::Z => Value::Int(Tensor {
                        shape,
                        data: data.iter().map(|&x| x as i64).collect(),
                    }),
                    Base::B => Value::Bool(Tensor {
                        shape,
                        data: data.iter().map(|&x| x != 0.0).collect(),
                    }),
                })
            }
            (Output::Tuple(os), Type::Tuple(ts)) => Ok(Value::Tuple(
                os.iter()
                    .zip(ts)
                    .map(|(o, t)| self.output(o, t))
                    .collect::<Result<_, _>>()?,
            )),
            _ => Err(failed("the result does not have the plan's type")),
        }
    }
}
