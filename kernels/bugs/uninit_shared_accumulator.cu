// initcheck: a block-wide sum accumulated with shared atomics into a __shared__ word that no
// thread set to zero first.
extern "C" __global__ void uninit_shared_accumulator(const unsigned* x, unsigned* sums) {
  __shared__ unsigned acc;
  const unsigned t = threadIdx.x;
  __syncthreads();
  atomicAdd(&acc, x[blockIdx.x * blockDim.x + t]);
  __syncthreads();
  if (t == 0) sums[blockIdx.x] = acc;
}

extern "C" __global__ void uninit_shared_accumulator_fixed(const unsigned* x, unsigned* sums) {
  __shared__ unsigned acc;
  const unsigned t = threadIdx.x;
  if (t == 0) acc = 0;
  __syncthreads();
  atomicAdd(&acc, x[blockIdx.x * blockDim.x + t]);
  __syncthreads();
  if (t == 0) sums[blockIdx.x] = acc;
}
