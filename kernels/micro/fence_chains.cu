// What memory ordering costs one warp (TIMING.md section 6): `iters` rounds of a store and a
// fence or a release atomic, and chains of acquire (or relaxed) loads at gpu scope. Each
// thread has its own words: out[t] and flags[t].

// A volatile store a round, nothing else: the baseline of the next two.
extern "C" __global__ void micro_fence_none(unsigned* out, unsigned* flags, unsigned iters) {
  volatile unsigned* mine = out + threadIdx.x;
  for (unsigned i = 0; i < iters; ++i) *mine = i;
  flags[threadIdx.x] += 1;
}

// The store, then __threadfence() (membar.gl): the fence waits for the store.
extern "C" __global__ void micro_fence_gl(unsigned* out, unsigned* flags, unsigned iters) {
  volatile unsigned* mine = out + threadIdx.x;
  for (unsigned i = 0; i < iters; ++i) {
    *mine = i;
    __threadfence();
  }
  flags[threadIdx.x] += 1;
}

// The store, then atom.add.release.gpu on the thread's flag (cooperative_groups' grid-sync
// arrival): the release orders the store before the atomic.
extern "C" __global__ void micro_fence_release(unsigned* out, unsigned* flags, unsigned iters) {
  volatile unsigned* mine = out + threadIdx.x;
  unsigned* flag = flags + threadIdx.x;
  unsigned sum = 0;
  for (unsigned i = 0; i < iters; ++i) {
    *mine = i;
    unsigned old;
    asm volatile("atom.add.release.gpu.global.u32 %0, [%1], 1;" : "=r"(old) : "l"(flag) : "memory");
    sum += old;
  }
  *mine = sum;
}

// `iters` dependent ld.acquire.gpu (the grid sync's spin): each address depends on the last
// value (mask is 0 at run time, unknown to the compiler).
extern "C" __global__ void micro_fence_acquire(unsigned* out, unsigned* flags, unsigned mask,
                                               unsigned iters) {
  unsigned v = 0;
  for (unsigned i = 0; i < iters; ++i) {
    const unsigned* p = flags + threadIdx.x + (v & mask);
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  }
  out[threadIdx.x] = v;
}

// The same chain with ld.relaxed.gpu: the acquire's own cost is the difference.
extern "C" __global__ void micro_fence_relaxed(unsigned* out, unsigned* flags, unsigned mask,
                                               unsigned iters) {
  unsigned v = 0;
  for (unsigned i = 0; i < iters; ++i) {
    const unsigned* p = flags + threadIdx.x + (v & mask);
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  }
  out[threadIdx.x] = v;
}
