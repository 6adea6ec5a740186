#include <cstdio>
#include <cstdlib>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
__global__ void misc(volatile unsigned* in, unsigned* out, int which) {
  int lane = threadIdx.x; unsigned m = 0xdead;
  unsigned a = in[lane];
  if (which == 0 && lane < 16) asm volatile("shfl.sync.idx.b32 %0, %1, 20, 0x1f, 0xffff;" : "=r"(m) : "r"(a));
  if (which == 1) asm volatile("{ .reg .pred g; .reg .b32 t; and.b32 t, %1, 1; setp.ne.u32 g, t, 0; @g shfl.sync.idx.b32 %0, %2, 0, 0x1f, 0xaaaaaaaa; }" : "+r"(m) : "r"(lane), "r"(a));
  if (which == 2) asm volatile("{ .reg .pred g; .reg .b32 t; and.b32 t, %1, 1; setp.ne.u32 g, t, 0; @g vote.sync.ballot.b32 %0, g, 0xaaaaaaaa; }" : "+r"(m) : "r"(lane));
  if (which == 3 && lane >= 5) asm volatile("activemask.b32 %0;" : "=r"(m));
  if (which == 4 && lane < 16) asm volatile("shfl.sync.down.b32 %0, %1, 8, 0x1f, 0xffff;" : "=r"(m) : "r"(a));
  if (which == 5) asm volatile("{ .reg .pred g; .reg .b32 t; and.b32 t, %1, 1; setp.ne.u32 g, t, 0; @g redux.sync.add.u32 %0, %1, 0xaaaaaaaa; }" : "+r"(m) : "r"(lane));
  out[lane] = m;
}
int main(int argc, char** argv) {
  int which = atoi(argv[1]);
  unsigned h[32]; for (int i = 0; i < 32; ++i) h[i] = 0x700 + i;
  unsigned *i, *o; CK(cudaMalloc(&i, 128)); CK(cudaMalloc(&o, 128)); CK(cudaMemset(o, 0xee, 128));
  CK(cudaMemcpy(i, h, 128, cudaMemcpyHostToDevice));
  misc<<<1, 32>>>(i, o, which);
  cudaError_t e = cudaDeviceSynchronize();
  CK(cudaMemcpy(h, o, 128, cudaMemcpyDeviceToHost));
  printf("MISC %d (%s):", which, cudaGetErrorString(e)); for (int l = 0; l < 32; ++l) printf(" %x", h[l]); printf("\n");
}
