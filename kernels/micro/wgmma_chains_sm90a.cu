// wgmma chains (TIMING.md section 6, #13, sm_90a): each warpgroup runs `rounds` rounds of 8
// wgmma.mma_async m64nNk16 (f16 inputs, f32 accumulator) into one accumulator, N = 64, 128 and
// 256. `_x1` kernels commit and wait for each wgmma before the next (its latency, fence to
// wait); `_x8` kernels issue a round's 8 back to back, then commit and wait once (the tensor
// pipe's rate for a warpgroup). A's elements are all a = 1, 1/2, 1/4 or 1/8 and B's all 1/16,
// read through no-swizzle descriptors (any layout reads the same values), so each wgmma adds
// exactly a to every element of D whatever the chip's order of additions. Each thread writes
// its N/2 accumulator floats.
#include <cstdint>

namespace {

__device__ __forceinline__ uint64_t descriptorOf(const void* p) {
  // No swizzle: the core matrices (8 rows of 16 bytes) 128 bytes apart along K (leading byte
  // offset) and 256 along M or N (stride byte offset).
  const uint32_t a = unsigned(__cvta_generic_to_shared(p));
  return uint64_t((a & 0x3FFFF) >> 4) | uint64_t(128 >> 4) << 16 | uint64_t(256 >> 4) << 32;
}

// Fills A's and B's shared tiles with their constant halves and makes the generic-proxy stores
// visible to the async proxy that wgmma reads through.
__device__ void fillTiles(uint32_t* as, unsigned aWords, uint32_t* bs, unsigned bWords, uint32_t a,
                          uint32_t b) {
  for (unsigned i = threadIdx.x; i < aWords; i += blockDim.x) as[i] = a;
  for (unsigned i = threadIdx.x; i < bWords; i += blockDim.x) bs[i] = b;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
}

}  // namespace

#define WGMMA_N64(d, da, db) \
  asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, 1, 1, 1, 0, 0;" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]) \
               : "l"(da), "l"(db) \
               : "memory")

extern "C" __global__ void micro_wgmma_n64_x1(float* out, uint32_t a, uint32_t b,
                                                 unsigned rounds) {
  __shared__ __align__(1024) uint32_t as[1024];  // 4 KB: m64 x k16 halves and the strides' reach
  __shared__ __align__(1024) uint32_t bs[1024];
  fillTiles(as, 1024, bs, 1024, a, b);
  const uint64_t da = descriptorOf(as), db = descriptorOf(bs);
  float d[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) d[i] = 0.0f;
  for (unsigned r = 0; r < rounds; ++r) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
      WGMMA_N64(d, da, db);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }
  }
  float* o = out + (blockIdx.x * blockDim.x + threadIdx.x) * 32;
#pragma unroll
  for (int i = 0; i < 32; ++i) o[i] = d[i];
}

extern "C" __global__ void micro_wgmma_n64_x8(float* out, uint32_t a, uint32_t b,
                                                 unsigned rounds) {
  __shared__ __align__(1024) uint32_t as[1024];  // 4 KB: m64 x k16 halves and the strides' reach
  __shared__ __align__(1024) uint32_t bs[1024];
  fillTiles(as, 1024, bs, 1024, a, b);
  const uint64_t da = descriptorOf(as), db = descriptorOf(bs);
  float d[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) d[i] = 0.0f;
  for (unsigned r = 0; r < rounds; ++r) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      WGMMA_N64(d, da, db);
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  float* o = out + (blockIdx.x * blockDim.x + threadIdx.x) * 32;
#pragma unroll
  for (int i = 0; i < 32; ++i) o[i] = d[i];
}

#define WGMMA_N128(d, da, db) \
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, 1, 1, 1, 0, 0;" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]) \
               : "l"(da), "l"(db) \
               : "memory")

extern "C" __global__ void micro_wgmma_n128_x1(float* out, uint32_t a, uint32_t b,
                                                 unsigned rounds) {
  __shared__ __align__(1024) uint32_t as[1024];  // 4 KB: m64 x k16 halves and the strides' reach
  __shared__ __align__(1024) uint32_t bs[2048];
  fillTiles(as, 1024, bs, 2048, a, b);
  const uint64_t da = descriptorOf(as), db = descriptorOf(bs);
  float d[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) d[i] = 0.0f;
  for (unsigned r = 0; r < rounds; ++r) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
      WGMMA_N128(d, da, db);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }
  }
  float* o = out + (blockIdx.x * blockDim.x + threadIdx.x) * 64;
#pragma unroll
  for (int i = 0; i < 64; ++i) o[i] = d[i];
}

extern "C" __global__ void micro_wgmma_n128_x8(float* out, uint32_t a, uint32_t b,
                                                 unsigned rounds) {
  __shared__ __align__(1024) uint32_t as[1024];  // 4 KB: m64 x k16 halves and the strides' reach
  __shared__ __align__(1024) uint32_t bs[2048];
  fillTiles(as, 1024, bs, 2048, a, b);
  const uint64_t da = descriptorOf(as), db = descriptorOf(bs);
  float d[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) d[i] = 0.0f;
  for (unsigned r = 0; r < rounds; ++r) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      WGMMA_N128(d, da, db);
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  float* o = out + (blockIdx.x * blockDim.x + threadIdx.x) * 64;
#pragma unroll
  for (int i = 0; i < 64; ++i) o[i] = d[i];
}

#define WGMMA_N256(d, da, db) \
  asm volatile("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, 1, 1, 1, 0, 0;" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127]) \
               : "l"(da), "l"(db) \
               : "memory")

extern "C" __global__ void micro_wgmma_n256_x1(float* out, uint32_t a, uint32_t b,
                                                 unsigned rounds) {
  __shared__ __align__(1024) uint32_t as[1024];  // 4 KB: m64 x k16 halves and the strides' reach
  __shared__ __align__(1024) uint32_t bs[4096];
  fillTiles(as, 1024, bs, 4096, a, b);
  const uint64_t da = descriptorOf(as), db = descriptorOf(bs);
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0.0f;
  for (unsigned r = 0; r < rounds; ++r) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
      WGMMA_N256(d, da, db);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }
  }
  float* o = out + (blockIdx.x * blockDim.x + threadIdx.x) * 128;
#pragma unroll
  for (int i = 0; i < 128; ++i) o[i] = d[i];
}

extern "C" __global__ void micro_wgmma_n256_x8(float* out, uint32_t a, uint32_t b,
                                                 unsigned rounds) {
  __shared__ __align__(1024) uint32_t as[1024];  // 4 KB: m64 x k16 halves and the strides' reach
  __shared__ __align__(1024) uint32_t bs[4096];
  fillTiles(as, 1024, bs, 4096, a, b);
  const uint64_t da = descriptorOf(as), db = descriptorOf(bs);
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0.0f;
  for (unsigned r = 0; r < rounds; ++r) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      WGMMA_N256(d, da, db);
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  float* o = out + (blockIdx.x * blockDim.x + threadIdx.x) * 128;
#pragma unroll
  for (int i = 0; i < 128; ++i) o[i] = d[i];
}
