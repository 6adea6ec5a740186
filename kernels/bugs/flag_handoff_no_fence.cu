// racecheck: a hand-off between CTAs through a flag. CTA 0 writes its results and raises a flag
// with an atomic; CTA 1 waits for the flag and reads the results. Without __threadfence()
// between the results and the flag (and between seeing the flag and reading), nothing orders
// the results before the flag at GPU scope: a relaxed atomic is not a release, and the
// consumer may read stale results (on the chip the flag can become visible first).
extern "C" __global__ void flag_handoff_no_fence(const float* x, float* data, int* flag,
                                                 float* y) {
  const unsigned t = threadIdx.x;
  if (blockIdx.x == 0) {
    data[t] = 2.0f * x[t];
    __syncthreads();
    if (t == 0) atomicExch(flag, 1);
  } else {
    if (t == 0)
      while (atomicAdd(flag, 0) == 0) {
      }
    __syncthreads();
    y[t] = data[t];
  }
}

// The fences make the flag a release and its observation an acquire at GPU scope (PTX memory
// model: fence-based release and acquire patterns), ordering the results before the reads.
extern "C" __global__ void flag_handoff_no_fence_fixed(const float* x, float* data, int* flag,
                                                       float* y) {
  const unsigned t = threadIdx.x;
  if (blockIdx.x == 0) {
    data[t] = 2.0f * x[t];
    __syncthreads();
    if (t == 0) {
      __threadfence();
      atomicExch(flag, 1);
    }
  } else {
    if (t == 0) {
      while (atomicAdd(flag, 0) == 0) {
      }
      __threadfence();
    }
    __syncthreads();
    y[t] = data[t];
  }
}

// Not a twin: the fences at CTA scope (__threadfence_block) order nothing between CTAs, so this
// hand-off races as the bug does (tests/check/check_cli_test.cpp).
extern "C" __global__ void flag_handoff_block_fence(const float* x, float* data, int* flag,
                                                    float* y) {
  const unsigned t = threadIdx.x;
  if (blockIdx.x == 0) {
    data[t] = 2.0f * x[t];
    __syncthreads();
    if (t == 0) {
      __threadfence_block();
      atomicExch(flag, 1);
    }
  } else {
    if (t == 0) {
      while (atomicAdd(flag, 0) == 0) {
      }
      __threadfence_block();
    }
    __syncthreads();
    y[t] = data[t];
  }
}
