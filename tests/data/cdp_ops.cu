// Dynamic parallelism for tests/sim/device_launch_test.cpp (its PTX, by nvcc 13 with
// -rdc=true: tests/data/cdp_ops.ptx).
__device__ void record(unsigned* log, unsigned id) { log[1 + atomicAdd(log, 1u)] = id; }

extern "C" __global__ void cdp_mark(unsigned* log, unsigned id) {
  if (threadIdx.x == 0) record(log, id);
}

// Each CTA's thread 0 launches one child grid of 4 CTAs that marks its part of `out`.
extern "C" __global__ void cdp_fill_child(unsigned* out, unsigned base) {
  out[base + blockIdx.x * blockDim.x + threadIdx.x] =
      base + blockIdx.x * blockDim.x + threadIdx.x + 1;
}
extern "C" __global__ void cdp_fill(unsigned* out) {
  if (threadIdx.x == 0) cdp_fill_child<<<4, 32>>>(out, blockIdx.x * 128);
}

// The order of completion: a child (block stream), a tail launch and a fire-and-forget child.
extern "C" __global__ void cdp_order(unsigned* log) {
  record(log, 1);
  cdp_mark<<<1, 1, 0, cudaStreamTailLaunch>>>(log, 30);
  cdp_mark<<<1, 1>>>(log, 10);
  cdp_mark<<<1, 1, 0, cudaStreamFireAndForget>>>(log, 20);
  record(log, 2);
}

// Launches itself one level deeper, for ever: how deep the chip lets it go.
extern "C" __global__ void cdp_deep(unsigned* reached, int depth) {
  reached[depth] = 1;
  cdp_deep<<<1, 1>>>(reached, depth + 1);
}

// Every thread launches a child that sets its flag: past the pending-launch limit, launches fail.
extern "C" __global__ void cdp_flag(unsigned* flags, unsigned i) { flags[i] = 1; }
extern "C" __global__ void cdp_many(unsigned* flags) { cdp_flag<<<1, 1>>>(flags, threadIdx.x); }

// The device runtime's last error, per thread: a stream made without cudaStreamNonBlocking
// and a launch of too many threads per block fail; cudaPeekAtLastError reads the error,
// cudaGetLastError reads and clears it. Thread 1 makes no failing call.
extern "C" __global__ void cdp_errors(unsigned* out) {
  unsigned* mine = out + 8 * threadIdx.x;
  mine[0] = cudaGetLastError();  // nothing failed yet
  if (threadIdx.x == 0) {
    cudaStream_t s;
    mine[1] = cudaStreamCreateWithFlags(&s, cudaStreamDefault);
  }
  mine[2] = cudaPeekAtLastError();
  mine[3] = cudaGetLastError();
  mine[4] = cudaGetLastError();
  if (threadIdx.x == 0) cdp_mark<<<1, 2048>>>(out, 0);
  mine[5] = cudaGetLastError();
}

// A failed call's error is its thread's alone: thread 0 of CTA 0 leaves one behind (a launch of
// too many threads per block), and no thread of a later CTA or launch starts with it.
extern "C" __global__ void cdp_error_left(unsigned* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = cudaPeekAtLastError();
  if (blockIdx.x == 0 && threadIdx.x == 0) cdp_mark<<<1, 2048>>>(out, 0);
}
