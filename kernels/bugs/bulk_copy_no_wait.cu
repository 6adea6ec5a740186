// racecheck: one thread starts a bulk copy (cp.async.bulk, the TMA engine's plain form) of 64
// floats into shared memory, completing on an mbarrier, and the threads read the copy without
// waiting on the mbarrier: the copy's writes and the reads are not ordered (the twin waits with
// try_wait.parity, which orders them; the __syncthreads() orders only the copy's start).
#include <cstdint>

__device__ __forceinline__ uint32_t smem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void startCopy(float* dst, const float* src, uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(bar)));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(smem(bar))
               : "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];" ::
          "r"(smem(dst)),
      "l"(src), "r"(smem(bar))
      : "memory");
}

extern "C" __global__ void bulk_copy_no_wait(const float* x, float* y) {
  __shared__ __align__(128) float buf[64];
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x == 0) startCopy(buf, x, &bar);
  __syncthreads();
  y[threadIdx.x] = buf[63 - threadIdx.x] * 2.0f;
}

extern "C" __global__ void bulk_copy_no_wait_fixed(const float* x, float* y) {
  __shared__ __align__(128) float buf[64];
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x == 0) startCopy(buf, x, &bar);
  __syncthreads();
  uint32_t done = 0;
  while (!done)
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
        " selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(smem(&bar))
        : "memory");
  y[threadIdx.x] = buf[63 - threadIdx.x] * 2.0f;
}
