// H200 probe for atom/red float semantics and warp-level primitives (warpsim atomic/warp family).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

// ---------------- shfl sweep ----------------
__constant__ unsigned kC[20];
constexpr int NC = 20, NB = 40;
__device__ __forceinline__ unsigned bOf(int bi, int lane) { return bi < 36 ? unsigned(bi) : unsigned(bi == 36 ? 63 : bi == 37 ? 67 : (lane * 7 + bi) & 63); }

template <int M>
__device__ void shflOne(unsigned a, unsigned b, unsigned c, unsigned& d, unsigned& p) {
  unsigned pp;
  if (M == 0) asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, q; }" : "=r"(d), "=r"(pp) : "r"(a), "r"(b), "r"(c));
  if (M == 1) asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, q; }" : "=r"(d), "=r"(pp) : "r"(a), "r"(b), "r"(c));
  if (M == 2) asm volatile("{ .reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, q; }" : "=r"(d), "=r"(pp) : "r"(a), "r"(b), "r"(c));
  if (M == 3) asm volatile("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, q; }" : "=r"(d), "=r"(pp) : "r"(a), "r"(b), "r"(c));
  p = pp;
}

template <int M>
__global__ void shflSweep(unsigned* out) {
  int lane = threadIdx.x;
  unsigned a = 0x1000u + lane * 17u;
  for (int ci = 0; ci < NC; ++ci)
    for (int bi = 0; bi < NB; ++bi) {
      unsigned d, p;
      shflOne<M>(a, bOf(bi, lane), kC[ci], d, p);
      size_t idx = ((size_t(ci) * NB + bi) * 32 + lane) * 2;
      out[idx] = d;
      out[idx + 1] = p;
    }
}

int refShfl(int mode, int lane, unsigned b, unsigned c, bool& p) {
  int bval = b & 31, cval = c & 31, mask = (c >> 8) & 31;
  int maxLane = (lane & mask) | (cval & ~mask), minLane = lane & mask, j = 0;
  switch (mode) {
    case 0: j = lane - bval; p = j >= maxLane; break;
    case 1: j = lane + bval; p = j <= maxLane; break;
    case 2: j = lane ^ bval; p = j <= maxLane; break;
    case 3: j = minLane | (bval & ~mask); p = j <= maxLane; break;
  }
  if (!p) j = lane;
  return j;
}

// ---------------- predicated-off / member-mask behaviour ----------------
__global__ void warpMisc(unsigned* out, int which) {
  int lane = threadIdx.x;
  unsigned a = 0x500u + lane;
  unsigned d = 0xdead, m = 0;
  if (which == 0) {
  // 0: @p shfl.idx src lane 0 where only odd lanes execute: what do odd lanes read from lane 0?
  asm volatile("{ .reg .pred g; and.b32 %0, %1, 1; setp.ne.u32 g, %0, 0; mov.u32 %0, 0xdead; @g shfl.sync.idx.b32 %0, %2, 0, 0x1f, 0xffffffff; }" : "+r"(d) : "r"(lane), "r"(a));
  out[0 * 32 + lane] = d;
  }
  if (which == 1) {
  // 1: @p activemask with p = odd lanes
  d = 0xdead;
  asm volatile("{ .reg .pred g; and.b32 %0, %1, 1; setp.ne.u32 g, %0, 0; mov.u32 %0, 0xdead; @g activemask.b32 %0; }" : "+r"(d) : "r"(lane));
  out[1 * 32 + lane] = d;
  }
  // 2..: divergent, lanes 0..15 only, membermask 0xffff (defined)
  if (which == 2 && lane < 16) {
    unsigned v = lane & 3;
    asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffff; }" : "=r"(m) : "r"(v));
    out[2 * 32 + lane] = m;
    asm volatile("match.any.sync.b32 %0, %1, 0xffff;" : "=r"(m) : "r"(v));
    out[3 * 32 + lane] = m;
    asm volatile("redux.sync.add.u32 %0, %1, 0xffff;" : "=r"(m) : "r"(lane));
    out[4 * 32 + lane] = m;
    asm volatile("{ .reg .pred q; elect.sync %0|q, 0xf0f0; selp.u32 %1, 1, 0, q; }" : "=r"(m), "=r"(d));
    out[5 * 32 + lane] = m | (d << 16);
  }
  __syncwarp();
  // 6..: UB: all 32 execute with membermask 0x0000ffff
  {
    unsigned v = lane & 3;
    if (which == 6) {
    asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffff; }" : "=r"(m) : "r"(v));
    out[6 * 32 + lane] = m;
    }
    if (which == 7) {
    asm volatile("{ .reg .pred q, r; setp.ne.u32 q, %1, 0; vote.sync.all.pred r, q, 0xff00; selp.u32 %0, 1, 0, r; }" : "=r"(m) : "r"(lane));
    out[7 * 32 + lane] = m;
    }  // lanes 8..15 true, lane 0..7 false; lane 0 (excluded) false
    if (which == 8) {
    asm volatile("{ .reg .pred q, r; setp.ne.u32 q, %1, 0; vote.sync.any.pred r, q, 0xfffe; selp.u32 %0, 1, 0, r; }" : "=r"(m) : "r"(lane == 0 ? 1u : 0u));
    out[8 * 32 + lane] = m;
    }  // only lane 0 true and it's outside the mask
    if (which == 9) {
    asm volatile("match.any.sync.b32 %0, %1, 0xffff;" : "=r"(m) : "r"(v));
    out[9 * 32 + lane] = m;
    }
    if (which == 10) {
    asm volatile("redux.sync.add.u32 %0, %1, 0xffff;" : "=r"(m) : "r"(lane));
    out[10 * 32 + lane] = m;
    }
    if (which == 11) {
    asm volatile("{ .reg .pred q; match.all.sync.b32 %0|q, %2, 0x00ff; selp.u32 %1, 1, 0, q; }" : "=r"(m), "=r"(d) : "r"(lane < 8 ? 5u : unsigned(lane)));
    out[11 * 32 + lane] = m ^ (d << 31);
    }
    if (which == 12) {
    asm volatile("{ .reg .pred q, r; setp.ne.u32 q, %1, 0; vote.sync.uni.pred r, q, 0x00ff; selp.u32 %0, 1, 0, r; }" : "=r"(m) : "r"(lane >= 8 ? 1u : 0u));
    out[12 * 32 + lane] = m;
    }
    if (which == 13) {
    asm volatile("redux.sync.min.s32 %0, %1, 0x0ff0;" : "=r"(m) : "r"(100 - lane));
    out[13 * 32 + lane] = m;
    }
  }
  // 14: shfl.sync with a source lane outside membermask, all executing: lane reads lane (l+16)%32, mask 0xffff
  if (which == 14) {
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffff;" : "=r"(m) : "r"(a), "r"((lane + 16) & 31));
  out[14 * 32 + lane] = m;
  }
}

// ---------------- atomics ----------------
struct Case { uint64_t old, b; };
enum Kind { F32G, F32S, F32GEN_G, F32GEN_S, F32CL, F32V2, F64G, F16G, F16S, F16X2G, BF16G, BF16X2G, F16MINV2, F16MAXV2,
            BF16MINV2, BF16MAXV2, F16X2MINV2, INC, DEC, F16GEN_S, F64S, NKIND };
const char* kindName[] = {"f32.global", "f32.shared", "f32.generic->global", "f32.generic->shared", "f32.shared::cluster",
  "f32.v2.global", "f64.global", "f16.global", "f16.shared", "f16x2.global", "bf16.global", "bf16x2.global",
  "f16.v2.min", "f16.v2.max", "bf16.v2.min", "bf16.v2.max", "f16x2.v2.min", "inc.u32", "dec.u32", "f16.generic->shared", "f64.shared"};

__global__ void atomK(int kind, const Case* cs, int n, uint64_t* gmem, uint64_t* res) {
  __shared__ uint64_t sm[4];
  if (threadIdx.x != 0) return;
  for (int i = 0; i < n; ++i) {
    uint64_t old = cs[i].old, b = cs[i].b, d = 0, after = 0;
    gmem[0] = old; gmem[1] = 0; sm[0] = old; sm[1] = 0;
    unsigned sa = (unsigned)__cvta_generic_to_shared(sm);
    uint64_t* gp = gmem;
    switch (kind) {
      case F32G: { float r; asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(r) : "l"(gp), "f"(__uint_as_float((unsigned)b)) : "memory"); d = __float_as_uint(r); after = gmem[0]; break; }
      case F32S: { float r; asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=f"(r) : "r"(sa), "f"(__uint_as_float((unsigned)b)) : "memory"); d = __float_as_uint(r); after = sm[0]; break; }
      case F32GEN_G: { float r; asm volatile("atom.add.f32 %0, [%1], %2;" : "=f"(r) : "l"(gp), "f"(__uint_as_float((unsigned)b)) : "memory"); d = __float_as_uint(r); after = gmem[0]; break; }
      case F32GEN_S: { float r; asm volatile("atom.add.f32 %0, [%1], %2;" : "=f"(r) : "l"(sm), "f"(__uint_as_float((unsigned)b)) : "memory"); d = __float_as_uint(r); after = sm[0]; break; }
      case F32CL: { float r; asm volatile("atom.shared::cluster.add.f32 %0, [%1], %2;" : "=f"(r) : "r"(sa), "f"(__uint_as_float((unsigned)b)) : "memory"); d = __float_as_uint(r); after = sm[0]; break; }
      case F32V2: { float r0, r1; asm volatile("atom.global.v2.f32.add {%0, %1}, [%2], {%3, %4};" : "=f"(r0), "=f"(r1) : "l"(gp), "f"(__uint_as_float((unsigned)b)), "f"(__uint_as_float((unsigned)(b >> 32))) : "memory"); d = __float_as_uint(r0) | (uint64_t(__float_as_uint(r1)) << 32); after = gmem[0]; break; }
      case F64G: { double r; asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(r) : "l"(gp), "d"(__longlong_as_double((long long)b)) : "memory"); d = (uint64_t)__double_as_longlong(r); after = gmem[0]; break; }
      case F64S: { double r; asm volatile("atom.shared.add.f64 %0, [%1], %2;" : "=d"(r) : "r"(sa), "d"(__longlong_as_double((long long)b)) : "memory"); d = (uint64_t)__double_as_longlong(r); after = sm[0]; break; }
      case F16G: { unsigned short r; asm volatile("atom.global.add.noftz.f16 %0, [%1], %2;" : "=h"(r) : "l"(gp), "h"((unsigned short)b) : "memory"); d = r; after = gmem[0]; break; }
      case F16S: { unsigned short r; asm volatile("atom.shared.add.noftz.f16 %0, [%1], %2;" : "=h"(r) : "r"(sa), "h"((unsigned short)b) : "memory"); d = r; after = sm[0]; break; }
      case F16GEN_S: { unsigned short r; asm volatile("atom.add.noftz.f16 %0, [%1], %2;" : "=h"(r) : "l"(sm), "h"((unsigned short)b) : "memory"); d = r; after = sm[0]; break; }
      case F16X2G: { unsigned r; asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(r) : "l"(gp), "r"((unsigned)b) : "memory"); d = r; after = gmem[0]; break; }
      case BF16G: { unsigned short r; asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(r) : "l"(gp), "h"((unsigned short)b) : "memory"); d = r; after = gmem[0]; break; }
      case BF16X2G: { unsigned r; asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(r) : "l"(gp), "r"((unsigned)b) : "memory"); d = r; after = gmem[0]; break; }
      case F16MINV2: case F16MAXV2: case BF16MINV2: case BF16MAXV2: {
        unsigned short r0, r1, b0 = (unsigned short)b, b1 = (unsigned short)(b >> 16);
        if (kind == F16MINV2) asm volatile("atom.global.v2.f16.min.noftz {%0, %1}, [%2], {%3, %4};" : "=h"(r0), "=h"(r1) : "l"(gp), "h"(b0), "h"(b1) : "memory");
        if (kind == F16MAXV2) asm volatile("atom.global.v2.f16.max.noftz {%0, %1}, [%2], {%3, %4};" : "=h"(r0), "=h"(r1) : "l"(gp), "h"(b0), "h"(b1) : "memory");
        if (kind == BF16MINV2) asm volatile("atom.global.v2.bf16.min.noftz {%0, %1}, [%2], {%3, %4};" : "=h"(r0), "=h"(r1) : "l"(gp), "h"(b0), "h"(b1) : "memory");
        if (kind == BF16MAXV2) asm volatile("atom.global.v2.bf16.max.noftz {%0, %1}, [%2], {%3, %4};" : "=h"(r0), "=h"(r1) : "l"(gp), "h"(b0), "h"(b1) : "memory");
        d = r0 | (uint64_t(r1) << 16); after = gmem[0]; break; }
      case F16X2MINV2: { unsigned r0, r1; asm volatile("atom.global.v2.f16x2.min.noftz {%0, %1}, [%2], {%3, %4};" : "=r"(r0), "=r"(r1) : "l"(gp), "r"((unsigned)b), "r"((unsigned)(b >> 32)) : "memory"); d = r0 | (uint64_t(r1) << 32); after = gmem[0]; break; }
      case INC: { unsigned r; asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(r) : "l"(gp), "r"((unsigned)b) : "memory"); d = r; after = gmem[0]; break; }
      case DEC: { unsigned r; asm volatile("atom.global.dec.u32 %0, [%1], %2;" : "=r"(r) : "l"(gp), "r"((unsigned)b) : "memory"); d = r; after = gmem[0]; break; }
    }
    res[2 * i] = d;
    res[2 * i + 1] = after;
  }
}

int main(int argc, char** argv) {
  const bool doShfl = argc < 2 || strchr(argv[1], 's');
  const bool doAtom = argc < 2 || strchr(argv[1], 'a');
  const bool doMisc = argc < 2 || strchr(argv[1], 'm');
  if (doShfl) {
    unsigned cs[NC] = {0x0, 0x1f, 0x181f, 0x101f, 0x1c1f, 0x1e1f, 0x1800, 0x1000, 0x1f00, 0x7, 0xf, 0x1807,
                       0x100f, 0x0a1f, 0x1f1f, 0x0005, 0x1510, 0x1c00, 0x1e03, 0xffffe0ff};
    CK(cudaMemcpyToSymbol(kC, cs, sizeof cs));
    size_t n = size_t(NC) * NB * 32 * 2;
    unsigned* dout; CK(cudaMalloc(&dout, n * 4));
    std::vector<unsigned> h(n);
    long bad = 0, total = 0;
    for (int mode = 0; mode < 4; ++mode) {
      if (mode == 0) shflSweep<0><<<1, 32>>>(dout);
      if (mode == 1) shflSweep<1><<<1, 32>>>(dout);
      if (mode == 2) shflSweep<2><<<1, 32>>>(dout);
      if (mode == 3) shflSweep<3><<<1, 32>>>(dout);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h.data(), dout, n * 4, cudaMemcpyDeviceToHost));
      for (int ci = 0; ci < NC; ++ci)
        for (int bi = 0; bi < NB; ++bi)
          for (int lane = 0; lane < 32; ++lane) {
            size_t idx = ((size_t(ci) * NB + bi) * 32 + lane) * 2;
            unsigned b = bi < 36 ? unsigned(bi) : unsigned(bi == 36 ? 63 : bi == 37 ? 67 : (lane * 7 + bi) & 63);
            bool p;
            int j = refShfl(mode, lane, b, cs[ci], p);
            unsigned want = 0x1000u + j * 17u;
            ++total;
            if (h[idx] != want || h[idx + 1] != (p ? 1u : 0u)) {
              if (bad < 20) printf("SHFL mismatch mode %d c %#x b %u lane %d: got d=%#x p=%u want d=%#x p=%d\n", mode, cs[ci], b, lane, h[idx], h[idx + 1], want, p);
              ++bad;
            }
          }
    }
    printf("SHFL sweep: %ld of %ld differ from the manual's pseudocode\n", bad, total);
  }
  if (doAtom) {
    std::vector<std::vector<Case>> cases(NKIND);
    std::vector<Case> f32 = {{0x00000001, 0}, {0x80000001, 0}, {0x00800001, 0x80800000}, {0, 0x00000003}, {0x007fffff, 0x00000001},
      {0x7FC00001, 0x3f800000}, {0x3f800000, 0xFFC00002}, {0x7F800001, 0x3f800000}, {0x7F800000, 0xFF800000}, {0x7F7FFFFF, 0x7F7FFFFF},
      {0x80000000, 0x80000000}, {0x80000000, 0x00000000}, {0x3f800000, 0x33800000}, {0x3f800001, 0x33800000}, {0x3f800000, 0xbf800000},
      {0x00000000, 0x80000001}, {0x00400000, 0x00400000}};
    cases[F32G] = cases[F32S] = cases[F32GEN_G] = cases[F32GEN_S] = cases[F32CL] = f32;
    for (auto c : f32) cases[F32V2].push_back({c.old | (uint64_t(0x3f800000) << 32), c.b | (uint64_t(0x00000001) << 32)});
    cases[F64G] = {{1, 0}, {0x8000000000000001ull, 0}, {0x7FF0000000000001ull, 0x3ff0000000000000ull}, {0x3ff0000000000000ull, 0x7FF8000000000005ull},
                   {0x7FF8000000000007ull, 0xFFF8000000000009ull}, {0x7FF0000000000000ull, 0xFFF0000000000000ull}, {0x8000000000000000ull, 0x8000000000000000ull},
                   {0x3ff0000000000000ull, 0x3ca0000000000000ull}};
    cases[F64S] = cases[F64G];
    std::vector<Case> h16 = {{0x0001, 0}, {0x8001, 0}, {0x0001, 0x0001}, {0x03ff, 0x0001}, {0x7E01, 0x3C00}, {0x3C00, 0xFE05}, {0x7D00, 0x3C00},
      {0x7C00, 0xFC00}, {0x7BFF, 0x7BFF}, {0x8000, 0x8000}, {0x8000, 0x0000}, {0x3C00, 0x1000}, {0x3C01, 0x1000}, {0x3C00, 0xBC00}};
    cases[F16G] = cases[F16S] = cases[F16GEN_S] = h16;
    for (size_t i = 0; i < h16.size(); ++i) { auto x = h16[i], y = h16[(i + 5) % h16.size()]; cases[F16X2G].push_back({x.old | (y.old << 16), x.b | (y.b << 16)}); }
    std::vector<Case> b16 = {{0x0001, 0}, {0x8001, 0}, {0x0001, 0x0001}, {0x007f, 0x0001}, {0x7FC1, 0x3F80}, {0x3F80, 0xFFC5}, {0x7F81, 0x3F80},
      {0x7F80, 0xFF80}, {0x7F7F, 0x7F7F}, {0x8000, 0x8000}, {0x8000, 0x0000}, {0x3F80, 0x3B80}, {0x3F81, 0x3B80}, {0x3F80, 0xBF80}};
    cases[BF16G] = b16;
    for (size_t i = 0; i < b16.size(); ++i) { auto x = b16[i], y = b16[(i + 3) % b16.size()]; cases[BF16X2G].push_back({x.old | (y.old << 16), x.b | (y.b << 16)}); }
    // min/max: lo/hi halves
    std::vector<Case> mm16 = {{0x7E01, 0x3C00}, {0x3C00, 0x7E01}, {0x7E01, 0xFE05}, {0x8000, 0x0000}, {0x0000, 0x8000}, {0x0001, 0x0000},
                              {0x7D00, 0x3C00}, {0x3C00, 0x7D00}, {0xFC00, 0x7C00}, {0x8001, 0x0001}};
    for (size_t i = 0; i < mm16.size(); ++i) { auto x = mm16[i], y = mm16[(i + 1) % mm16.size()]; Case c{x.old | (y.old << 16), x.b | (y.b << 16)}; cases[F16MINV2].push_back(c); cases[F16MAXV2].push_back(c); cases[F16X2MINV2].push_back({c.old | (c.old << 32), c.b | (c.b << 32)}); }
    std::vector<Case> mmb = {{0x7FC1, 0x3F80}, {0x3F80, 0x7FC1}, {0x7FC1, 0xFFC5}, {0x8000, 0x0000}, {0x0000, 0x8000}, {0x0001, 0x0000},
                             {0x7F81, 0x3F80}, {0x3F80, 0x7F81}, {0xFF80, 0x7F80}, {0x8001, 0x0001}};
    for (size_t i = 0; i < mmb.size(); ++i) { auto x = mmb[i], y = mmb[(i + 1) % mmb.size()]; Case c{x.old | (y.old << 16), x.b | (y.b << 16)}; cases[BF16MINV2].push_back(c); cases[BF16MAXV2].push_back(c); }
    cases[INC] = cases[DEC] = {{5, 5}, {6, 5}, {0, 5}, {0, 0}, {7, 0}, {0xFFFFFFFF, 0xFFFFFFFF}, {3, 0xFFFFFFFF}, {0xFFFFFFFF, 3}, {4, 5}};
    Case* dc; uint64_t *gm, *dr; CK(cudaMalloc(&dc, 64 * sizeof(Case))); CK(cudaMalloc(&gm, 64)); CK(cudaMalloc(&dr, 128 * 8));
    for (int k = 0; k < NKIND; ++k) {
      auto& v = cases[k];
      CK(cudaMemcpy(dc, v.data(), v.size() * sizeof(Case), cudaMemcpyHostToDevice));
      atomK<<<1, 32>>>(k, dc, int(v.size()), gm, dr);
      CK(cudaDeviceSynchronize());
      std::vector<uint64_t> r(2 * v.size());
      CK(cudaMemcpy(r.data(), dr, r.size() * 8, cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < v.size(); ++i)
        printf("ATOM %s old=%#llx b=%#llx -> d=%#llx mem=%#llx\n", kindName[k], (unsigned long long)v[i].old, (unsigned long long)v[i].b,
               (unsigned long long)r[2 * i], (unsigned long long)r[2 * i + 1]);
    }
  }
  if (doMisc) {
    unsigned* dout; CK(cudaMalloc(&dout, 32 * 32 * 4)); CK(cudaMemset(dout, 0xee, 32 * 32 * 4));
    int which = argc > 2 ? atoi(argv[2]) : 0;
    warpMisc<<<1, 32>>>(dout, which);
    cudaError_t e = cudaDeviceSynchronize();
    printf("MISC launch: %s\n", cudaGetErrorString(e));
    std::vector<unsigned> h(32 * 32);
    CK(cudaMemcpy(h.data(), dout, h.size() * 4, cudaMemcpyDeviceToHost));
    const char* names[] = {"@odd shfl.idx src0", "@odd activemask", "div ballot 0xffff", "div match.any", "div redux.add", "div elect 0xf0f0|p<<16",
                           "UB ballot 0xffff", "UB all 0xff00 (lane>=1)", "UB any 0xfffe (lane==0 only)", "UB match.any 0xffff", "UB redux.add 0xffff",
                           "UB match.all 0xff d^(p<<31)", "UB uni 0xff (lane>=8)", "UB redux.min.s32 0x0ff0 (100-lane)", "shfl src outside mask"};
    for (int t = 0; t < 15; ++t) {
      if (t != which && !(which == 2 && t > 2 && t < 6)) continue;
      printf("MISC %-36s:", names[t]);
      for (int l = 0; l < 32; ++l) printf(" %x", h[t * 32 + l]);
      printf("\n");
    }
  }
  return 0;
}
