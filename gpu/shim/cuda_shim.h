// A shim that compiles the CUDA C that adora-gpu generates as C++ for the CPU
// (docs/backend.md, "Running the CUDA C on the CPU"). Every CUDA thread of a block runs
// as a fiber (ucontext) so that __syncthreads is a real barrier; blocks and threads run in
// a chosen order (forward, reverse, shuffled) to expose order-dependent kernels. Atomics
// are plain read-modify-writes: there is no true concurrency here.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <ucontext.h>
#include <vector>

#define __global__
#define __device__
#define __restrict__
// Storage shared by the threads (fibers) of a block: blocks run one after the other.
#define __shared__ static

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};
static dim3 threadIdx, blockIdx, blockDim, gridDim;

inline double atomicAdd(double* p, double v) {
  double old = *p;
  *p = old + v;
  return old;
}

namespace shim {

enum Order { Forward, Reverse, Shuffled };

inline const char* order_name(Order o) {
  return o == Forward ? "forward" : o == Reverse ? "reverse" : "shuffled";
}

typedef void (*Kernel)(double* const*, const double*);

struct Fiber {
  ucontext_t ctx;
  std::vector<char> stack;
  bool done;
  unsigned tx, ty;
};

static ucontext_t scheduler;
static Fiber* current = nullptr;
static Kernel entry = nullptr;
static double* const* arg_b = nullptr;
static const double* arg_c = nullptr;

inline void trampoline() {
  entry(arg_b, arg_c);
  current->done = true;
  // Returning resumes `scheduler` through uc_link.
}

}  // namespace shim

// A barrier: this fiber yields; the scheduler resumes it once every live thread of the
// block has reached the barrier.
inline void __syncthreads() { swapcontext(&shim::current->ctx, &shim::scheduler); }

namespace shim {

// Indices 0..n-1 in the given order (a fixed seed for `Shuffled`).
inline std::vector<unsigned> ordering(unsigned n, Order o, std::mt19937& rng) {
  std::vector<unsigned> v(n);
  for (unsigned i = 0; i < n; ++i) v[i] = i;
  if (o == Reverse) std::reverse(v.begin(), v.end());
  if (o == Shuffled) std::shuffle(v.begin(), v.end(), rng);
  return v;
}

// Runs kernel `k` over a grid of gx × gy blocks of bx × by threads.
inline void launch(Kernel k, unsigned gx, unsigned gy, unsigned bx, unsigned by,
                   double* const* B, const double* C, Order order) {
  static std::mt19937 rng(20261124u);
  entry = k;
  arg_b = B;
  arg_c = C;
  gridDim.x = gx;
  gridDim.y = gy;
  blockDim.x = bx;
  blockDim.y = by;
  const unsigned nt = bx * by;
  std::vector<Fiber> fibers(nt);
  for (auto& f : fibers) f.stack.resize(64 * 1024);
  for (unsigned b : ordering(gx * gy, order, rng)) {
    blockIdx.x = b % gx;
    blockIdx.y = b / gx;
    std::vector<unsigned> ts = ordering(nt, order, rng);
    for (unsigned t = 0; t < nt; ++t) {
      Fiber& f = fibers[t];
      f.done = false;
      f.tx = t % bx;
      f.ty = t / bx;
      getcontext(&f.ctx);
      f.ctx.uc_stack.ss_sp = f.stack.data();
      f.ctx.uc_stack.ss_size = f.stack.size();
      f.ctx.uc_link = &scheduler;
      makecontext(&f.ctx, (void (*)())trampoline, 0);
    }
    // Rounds: every live fiber runs to its next barrier or to its end.
    for (bool live = true; live;) {
      live = false;
      for (unsigned t : ts) {
        Fiber& f = fibers[t];
        if (f.done) continue;
        current = &f;
        threadIdx.x = f.tx;
        threadIdx.y = f.ty;
        swapcontext(&scheduler, &f.ctx);
        live |= !f.done;
      }
    }
  }
}

}  // namespace shim
