// cp.reduce.async.bulk on the chip and on the simulator (scripts/device_bulk_reduce.sh runs it
// natively and under `warpsim exec` and diffs the two outputs). It prints, one line each:
//  - every .global pair (op, type) reduced over edge values: each value of the type's list as
//    the destination against each as the source (the list rotated), "G op.type old src new";
//  - the .shared::cluster form in a cluster of 2 (.add.u32 and .min.s32: both CTAs reduce into
//    rank 0's buffer, rank 0 waits on its mbarrier), "C op i value";
//  - the tensor form: a .add box of 16 x 2 f32 at (8, 2) of a 20 x 3 tensor, of ordinary values
//    and of edge values under each f32 data type (FLOAT32, FLOAT32_FTZ), "T type i value".
// Build: nvcc -arch=sm_90 -o bulk_reduce_probe bulk_reduce_probe.cu
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                        \
  do {                                                                                  \
    const cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                            \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

__device__ __forceinline__ unsigned smem(const void* p) {
  return unsigned(__cvta_generic_to_shared(p));
}

// One kernel per .global pair: 32 threads stage `n` bytes of src in shared memory; thread 0
// reduces them into dst.
#define GLOBAL_REDUCE(NAME, OPTEXT)                                                          \
  __global__ void NAME(const uint32_t* src, void* dst, unsigned n) {                         \
    __shared__ alignas(128) uint32_t buf[128];                                               \
    for (unsigned i = threadIdx.x; i < n / 4; i += blockDim.x) buf[i] = src[i];              \
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                             \
    __syncthreads();                                                                         \
    if (threadIdx.x == 0) {                                                                  \
      asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." OPTEXT              \
                   " [%0], [%1], %2;" ::"l"(dst),                                            \
                   "r"(smem(buf)), "r"(n)                                                    \
                   : "memory");                                                              \
      asm volatile("cp.async.bulk.commit_group;");                                           \
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");                              \
    }                                                                                        \
  }

GLOBAL_REDUCE(addU32, "add.u32")
GLOBAL_REDUCE(addS32, "add.s32")
GLOBAL_REDUCE(addU64, "add.u64")
GLOBAL_REDUCE(addF32, "add.f32")
GLOBAL_REDUCE(addF64, "add.f64")
GLOBAL_REDUCE(addF16, "add.noftz.f16")
GLOBAL_REDUCE(addBF16, "add.noftz.bf16")
GLOBAL_REDUCE(minU32, "min.u32")
GLOBAL_REDUCE(minS32, "min.s32")
GLOBAL_REDUCE(minU64, "min.u64")
GLOBAL_REDUCE(minS64, "min.s64")
GLOBAL_REDUCE(minF16, "min.f16")
GLOBAL_REDUCE(minBF16, "min.bf16")
GLOBAL_REDUCE(maxU32, "max.u32")
GLOBAL_REDUCE(maxS32, "max.s32")
GLOBAL_REDUCE(maxU64, "max.u64")
GLOBAL_REDUCE(maxS64, "max.s64")
GLOBAL_REDUCE(maxF16, "max.f16")
GLOBAL_REDUCE(maxBF16, "max.bf16")
GLOBAL_REDUCE(incU32, "inc.u32")
GLOBAL_REDUCE(decU32, "dec.u32")
GLOBAL_REDUCE(andB32, "and.b32")
GLOBAL_REDUCE(andB64, "and.b64")
GLOBAL_REDUCE(orB32, "or.b32")
GLOBAL_REDUCE(orB64, "or.b64")
GLOBAL_REDUCE(xorB32, "xor.b32")
GLOBAL_REDUCE(xorB64, "xor.b64")

using Kernel = void (*)(const uint32_t*, void*, unsigned);
struct Pair {
  const char* name;
  Kernel kernel;
  unsigned bytes;  // element size
  char kind;       // 'i' integer, 'f' f32, 'd' f64, 'h' f16, 'b' bf16
};
const Pair kPairs[] = {
    {"add.u32", addU32, 4, 'i'},  {"add.s32", addS32, 4, 'i'},   {"add.u64", addU64, 8, 'i'},
    {"add.f32", addF32, 4, 'f'},  {"add.f64", addF64, 8, 'd'},   {"add.f16", addF16, 2, 'h'},
    {"add.bf16", addBF16, 2, 'b'}, {"min.u32", minU32, 4, 'i'},  {"min.s32", minS32, 4, 'i'},
    {"min.u64", minU64, 8, 'i'},  {"min.s64", minS64, 8, 'i'},   {"min.f16", minF16, 2, 'h'},
    {"min.bf16", minBF16, 2, 'b'}, {"max.u32", maxU32, 4, 'i'},  {"max.s32", maxS32, 4, 'i'},
    {"max.u64", maxU64, 8, 'i'},  {"max.s64", maxS64, 8, 'i'},   {"max.f16", maxF16, 2, 'h'},
    {"max.bf16", maxBF16, 2, 'b'}, {"inc.u32", incU32, 4, 'i'},  {"dec.u32", decU32, 4, 'i'},
    {"and.b32", andB32, 4, 'i'},  {"and.b64", andB64, 8, 'i'},   {"or.b32", orB32, 4, 'i'},
    {"or.b64", orB64, 8, 'i'},    {"xor.b32", xorB32, 4, 'i'},   {"xor.b64", xorB64, 8, 'i'},
};

// The edge values of a kind (16 bytes' worth at least, a multiple of 16 in all).
std::vector<uint64_t> edges(const Pair& p) {
  switch (p.kind) {
    case 'f':
      return {0x3FC00000, 0x80000000, 0x00000001, 0x80400000, 0x7F800000, 0xFF800000,
              0x7FC00001, 0x7F61B1E6, 0x006CE3EE, 0x3F800000, 0xFF800001, 0xC0100000,
              0x00000001, 0x00000000, 0x40E00000, 0x00800000};
    case 'd':
      return {0x3FF8000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
              0x7FF0000000000000ull, 0x7FF0000000000001ull, 0xFFF0000000000000ull,
              0x7FE1CCF385EBC8A0ull, 0x4008000000000000ull};
    case 'h':
      return {0x3C00, 0x8000, 0x0001, 0x7C00, 0xFC00, 0x7E01, 0x7BFF, 0x0000,
              0x83FF, 0x3555, 0xFD00, 0x0400, 0xC000, 0x4000, 0x03FF, 0x7C01};
    case 'b':
      return {0x3F80, 0x8000, 0x0001, 0x7F80, 0xFF80, 0x7FC1, 0x7F7F, 0x0000,
              0x807F, 0x3EAB, 0xFFC0, 0x0080, 0xC000, 0x4000, 0x007F, 0x7F81};
    default:
      if (p.bytes == 8)
        return {0, 1, ~0ull, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull, 42, 0x100000000ull, 7};
      return {0,          1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 42,         5, 6,
              0xFFFFFFFE, 3, 1000,       0x10000,    9,          2,          0x55555555,
              0xAAAAAAAA};
  }
}

std::vector<uint8_t> pack(const std::vector<uint64_t>& v, unsigned e) {
  std::vector<uint8_t> b(v.size() * e);
  for (size_t i = 0; i < v.size(); ++i)
    for (unsigned k = 0; k < e; ++k) b[i * e + k] = uint8_t(v[i] >> (8 * k));
  return b;
}

void globalPairs() {
  uint8_t *dSrc, *dDst;
  CHECK(cudaMalloc(&dSrc, 512));
  CHECK(cudaMalloc(&dDst, 512));
  for (const Pair& p : kPairs) {
    const std::vector<uint64_t> v = edges(p);
    for (size_t k = 0; k < v.size(); ++k) {
      std::vector<uint64_t> src(v.size());
      for (size_t i = 0; i < v.size(); ++i) src[i] = v[(i + k) % v.size()];
      const std::vector<uint8_t> sb = pack(src, p.bytes), db = pack(v, p.bytes);
      CHECK(cudaMemcpy(dSrc, sb.data(), sb.size(), cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dDst, db.data(), db.size(), cudaMemcpyHostToDevice));
      p.kernel<<<1, 32>>>(reinterpret_cast<const uint32_t*>(dSrc), dDst, unsigned(sb.size()));
      CHECK(cudaDeviceSynchronize());
      std::vector<uint8_t> out(db.size());
      CHECK(cudaMemcpy(out.data(), dDst, out.size(), cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < v.size(); ++i) {
        uint64_t r = 0;
        for (unsigned b = 0; b < p.bytes; ++b) r |= uint64_t(out[i * p.bytes + b]) << (8 * b);
        std::printf("G %s %llx %llx %llx\n", p.name, (unsigned long long)v[i],
                    (unsigned long long)src[i], (unsigned long long)r);
      }
    }
  }
  CHECK(cudaFree(dSrc));
  CHECK(cudaFree(dDst));
}

// Both CTAs of the cluster reduce their 16 words (src[rank * 16 + i]) into rank 0's buffer,
// which rank 0 filled from init[]; rank 0 waits on its mbarrier and writes the buffer to out.
template <int Op>
__global__ void __cluster_dims__(2, 1, 1)
    clusterReduce(const uint32_t* init, const uint32_t* src, uint32_t* out) {
  __shared__ alignas(128) uint32_t mine[16];
  __shared__ alignas(128) uint32_t buf[16];
  __shared__ alignas(8) unsigned long long bar;
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  const unsigned t = threadIdx.x;
  if (t < 16) {
    mine[t] = src[rank * 16 + t];
    if (rank == 0) buf[t] = init[t];
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  if (t == 0 && rank == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 128;" ::"r"(smem(&bar))
                 : "memory");
  }
  asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;" ::: "memory");
  unsigned dst, rbar;
  asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(dst) : "r"(smem(buf)));
  asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rbar) : "r"(smem(&bar)));
  if (t == 0) {
    if (Op == 0)
      asm volatile(
          "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 "
          "[%0], [%1], 64, [%2];" ::"r"(dst),
          "r"(smem(mine)), "r"(rbar)
          : "memory");
    else
      asm volatile(
          "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32 "
          "[%0], [%1], 64, [%2];" ::"r"(dst),
          "r"(smem(mine)), "r"(rbar)
          : "memory");
  }
  if (rank == 0) {
    unsigned done = 0;
    while (!done)
      asm volatile(
          "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, "
          "1, 0, p;\n}"
          : "=r"(done)
          : "r"(smem(&bar))
          : "memory");
    if (t < 16) out[t] = buf[t];
  }
  asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;" ::: "memory");
}

void clusterForm() {
  std::vector<uint32_t> init(16), src(32);
  for (unsigned i = 0; i < 16; ++i) init[i] = i * 0x10001u + (i % 3 ? 0 : 0x80000000u);
  for (unsigned i = 0; i < 32; ++i) src[i] = 0x9E3779B9u * (i + 1) >> (i % 7 * 4);
  uint32_t *dInit, *dSrc, *dOut;
  CHECK(cudaMalloc(&dInit, 64));
  CHECK(cudaMalloc(&dSrc, 128));
  CHECK(cudaMalloc(&dOut, 64));
  CHECK(cudaMemcpy(dInit, init.data(), 64, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dSrc, src.data(), 128, cudaMemcpyHostToDevice));
  for (int op = 0; op < 2; ++op) {
    if (op == 0)
      clusterReduce<0><<<2, 32>>>(dInit, dSrc, dOut);
    else
      clusterReduce<1><<<2, 32>>>(dInit, dSrc, dOut);
    CHECK(cudaDeviceSynchronize());
    std::vector<uint32_t> out(16);
    CHECK(cudaMemcpy(out.data(), dOut, 64, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < 16; ++i)
      std::printf("C %s %u %x\n", op == 0 ? "add.u32" : "min.s32", i, out[i]);
  }
  CHECK(cudaFree(dInit));
  CHECK(cudaFree(dSrc));
  CHECK(cudaFree(dOut));
}

// The tensor form: a 16 x 2 box of f32 added at (8, 2) of a 20 x 3 tensor, once with values
// (500 + i into 1000 + i) and once with subnormals, zeros and normals (bit patterns from
// kEdgeF32) under each f32 data type (FLOAT32, FLOAT32_FTZ): "T type i value".
__global__ void tensorReduce(const __grid_constant__ CUtensorMap map, const float* values) {
  __shared__ alignas(128) float box[32];
  box[threadIdx.x] = values[threadIdx.x];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile(
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], "
        "[%3];" ::"l"(&map),
        "r"(8), "r"(2), "r"(smem(box))
        : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

// Bit patterns for the subnormal rule: subnormals of both signs, zeros, the smallest normals
// and an ordinary value, so that sums land on either side of the normal range.
constexpr uint32_t kEdgeF32[] = {0x00000001u, 0x80000001u, 0x006ce3eeu, 0x807fffffu,
                                 0x00000000u, 0x80000000u, 0x00800000u, 0x80800000u,
                                 0x00400000u, 0x3f800000u, 0x80400000u, 0x00000002u};

int tensorFormOf(PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMapDataType type,
                 const char* name, bool edges) {
  std::vector<float> h(60), v(32);
  for (int i = 0; i < 60; ++i) {
    const uint32_t b = kEdgeF32[(i * 5) % 12];
    if (edges) std::memcpy(&h[i], &b, 4); else h[i] = float(1000 + i);
  }
  for (int i = 0; i < 32; ++i) {
    const uint32_t b = kEdgeF32[(i * 7 + 3) % 12];
    if (edges) std::memcpy(&v[i], &b, 4); else v[i] = float(500 + i);
  }
  float *d, *dv;
  CHECK(cudaMalloc(&d, 60 * sizeof(float)));
  CHECK(cudaMalloc(&dv, 32 * sizeof(float)));
  CHECK(cudaMemcpy(d, h.data(), 60 * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v.data(), 32 * sizeof(float), cudaMemcpyHostToDevice));
  alignas(64) CUtensorMap m;
  const cuuint64_t dims[2] = {20, 3}, strides[1] = {80};
  const cuuint32_t box[2] = {16, 2}, estr[2] = {1, 1};
  if (encode(&m, type, 2, d, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
             CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
    std::printf("cuTensorMapEncodeTiled failed\n");
    return 1;
  }
  tensorReduce<<<1, 32>>>(m, dv);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h.data(), d, 60 * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 60; ++i) {
    uint32_t b;
    std::memcpy(&b, &h[i], 4);
    std::printf("T %s %d %x\n", name, i, b);
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dv));
  return 0;
}

int tensorForm() {
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult q;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled",
                                         reinterpret_cast<void**>(&encode), 12000,
                                         cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !encode) {
    std::printf("no cuTensorMapEncodeTiled\n");
    return 1;
  }
  int rc = tensorFormOf(encode, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, "f32", false);
  rc |= tensorFormOf(encode, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, "f32.edges", true);
  rc |= tensorFormOf(encode, CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ, "f32_ftz.edges", true);
  return rc;
}

int main() {
  globalPairs();
  clusterForm();
  return tensorForm();
}
