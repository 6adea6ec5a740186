#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
__global__ void misc(unsigned* out, int which, unsigned mm) {
  int lane = threadIdx.x; unsigned m = 0xdead, d = 0;
  unsigned v = lane & 3;
  if (which == 0 && lane < 16) asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffff; }" : "=r"(m) : "r"(v));
  if (which == 1 && lane < 16) asm volatile("match.any.sync.b32 %0, %1, 0xffff;" : "=r"(m) : "r"(v));
  if (which == 2 && lane < 16) asm volatile("redux.sync.add.u32 %0, %1, 0xffff;" : "=r"(m) : "r"(lane));
  if (which == 3 && ((0xf0f0u >> lane) & 1)) { asm volatile("{ .reg .pred q; elect.sync %0|q, 0xf0f0; selp.u32 %1, 1, 0, q; }" : "=r"(m), "=r"(d)); m |= d << 16; }
  if (which == 4 && lane < 16) { asm volatile("{ .reg .pred q; elect.sync %0|q, 0xf0f0; selp.u32 %1, 1, 0, q; }" : "=r"(m), "=r"(d)); m |= d << 16; }
  if (which == 5) asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, %2; }" : "=r"(m) : "r"(v), "r"(mm));
  if (which == 6) { asm volatile("{ .reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q; }" : "=r"(m), "=r"(d) : "r"(mm)); m |= d << 16; }
  if (which == 7 && lane >= 3) { asm volatile("{ .reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q; }" : "=r"(m), "=r"(d) : "r"(mm)); m |= d << 16; }
  if (which == 8 && lane < 16) { asm volatile("shfl.sync.idx.b32 %0, %1, 20, 0x1f, 0xffff;" : "=r"(m) : "r"(0x500u + lane)); }
  if (which == 9) { asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.uni.pred q, q, 0xffffffff; selp.u32 %0, 1, 0, q; }" : "=r"(m) : "r"(lane < 16 ? 1u : 0u)); }
  out[lane] = m;
}
__global__ void f64k(const uint64_t* cs, int n, uint64_t* g, uint64_t* res, int kind) {
  __shared__ uint64_t sm[2];
  for (int i = 0; i < n; ++i) {
    uint64_t old = cs[2 * i], b = cs[2 * i + 1], d = 0, after;
    g[0] = old; sm[0] = old;
    double bd = __longlong_as_double((long long)b), r = 0;
    if (kind == 0) asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(r) : "l"(g), "d"(bd) : "memory");
    if (kind == 1) asm volatile("atom.add.f64 %0, [%1], %2;" : "=d"(r) : "l"(sm), "d"(bd) : "memory");
    if (kind == 2) asm volatile("atom.add.f64 %0, [%1], %2;" : "=d"(r) : "l"(g), "d"(bd) : "memory");
    if (kind == 3) asm volatile("atom.shared.add.f64 %0, [%1], %2;" : "=d"(r) : "r"((unsigned)__cvta_generic_to_shared(sm)), "d"(bd) : "memory");
    if (kind == 4) asm volatile("red.global.add.f64 [%0], %1;" :: "l"(g), "d"(bd) : "memory");
    if (kind == 5) { float rf; asm volatile("red.global.add.f32 [%0], %1;" :: "l"(g), "f"(__uint_as_float((unsigned)b)) : "memory"); (void)rf; }
    if (kind == 6) asm volatile("red.shared.add.f32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(sm)), "f"(__uint_as_float((unsigned)b)) : "memory");
    d = (uint64_t)__double_as_longlong(r);
    after = (kind == 1 || kind == 3 || kind == 6) ? sm[0] : g[0];
    res[2 * i] = d; res[2 * i + 1] = after;
  }
}
int main(int argc, char** argv) {
  if (argv[1][0] == 'm') {
    int which = atoi(argv[2]); unsigned mm = argc > 3 ? strtoul(argv[3], 0, 0) : 0;
    unsigned* o; CK(cudaMalloc(&o, 128)); CK(cudaMemset(o, 0xee, 128));
    misc<<<1, 32>>>(o, which, mm);
    cudaError_t e = cudaDeviceSynchronize();
    unsigned h[32]; CK(cudaMemcpy(h, o, 128, cudaMemcpyDeviceToHost));
    printf("MISC %d mm=%#x (%s):", which, mm, cudaGetErrorString(e)); for (int l = 0; l < 32; ++l) printf(" %x", h[l]); printf("\n");
    return 0;
  }
  std::vector<uint64_t> c = {0x7FF0000000000001ull, 0x3ff0000000000000ull, 0x3ff0000000000000ull, 0x7FF0000000000005ull,
    0x7FF8000000000007ull, 0x7FF0000000000009ull, 0x7FF0000000000007ull, 0x7FF8000000000009ull, 0x7FF8000000000007ull, 0xFFF8000000000009ull,
    0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x0000000000000001ull, 0x8000000000000000ull, 0x7FF0000000000000ull, 0x7FF0000000000000ull,
    0x00000001, 0x00000000, 0x00400000, 0x00400000, 0x7fc00001, 0x3f800000};
  int n = int(c.size() / 2);
  uint64_t *dc, *g, *r; CK(cudaMalloc(&dc, c.size() * 8)); CK(cudaMalloc(&g, 16)); CK(cudaMalloc(&r, c.size() * 8));
  CK(cudaMemcpy(dc, c.data(), c.size() * 8, cudaMemcpyHostToDevice));
  const char* names[] = {"f64.global", "f64.generic->shared", "f64.generic->global", "f64.shared", "red.f64.global", "red.f32.global", "red.f32.shared"};
  for (int k = 0; k < 7; ++k) {
    f64k<<<1, 1>>>(dc, n, g, r, k); CK(cudaDeviceSynchronize());
    std::vector<uint64_t> h(c.size()); CK(cudaMemcpy(h.data(), r, h.size() * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) printf("ATOM %s old=%#llx b=%#llx -> d=%#llx mem=%#llx\n", names[k], (unsigned long long)c[2*i], (unsigned long long)c[2*i+1], (unsigned long long)h[2*i], (unsigned long long)h[2*i+1]);
  }
}
