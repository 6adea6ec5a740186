// memcheck: a stencil over dynamic shared memory reads dyn[t - 8] for t < 8, below the start of
// the kernel's dynamic shared memory. The module's other kernel has a larger static shared
// array, which the dynamic area is placed after: the read lands in bytes that belong to no
// variable of this kernel and returns whatever lies there.
extern "C" __global__ void dyn_shared_underflow(const float* x, float* y) {
  extern __shared__ float dyn[];
  const unsigned t = threadIdx.x;
  dyn[t] = x[blockIdx.x * blockDim.x + t];
  __syncthreads();
  y[blockIdx.x * blockDim.x + t] = dyn[t] - dyn[t - 8];
}

extern "C" __global__ void dyn_shared_underflow_fixed(const float* x, float* y) {
  extern __shared__ float dyn[];
  const unsigned t = threadIdx.x;
  dyn[t] = x[blockIdx.x * blockDim.x + t];
  __syncthreads();
  y[blockIdx.x * blockDim.x + t] = t >= 8 ? dyn[t] - dyn[t - 8] : dyn[t];
}

// Another kernel of the module, with 1 KiB of static shared memory.
extern "C" __global__ void dyn_shared_neighbour(float* y) {
  __shared__ float big[256];
  big[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  y[threadIdx.x] = big[255 - threadIdx.x];
}
