// schedules (with racecheck off): the two sides of a branch store different values into one
// shared word, read after the paths meet. The PTX does not order the two sides of a divergent
// branch (sm_90 may run either first, or interleave them): which store lands last depends on
// the schedule. (The stores are written in PTX so that the compiler keeps one in each side
// instead of merging them into one store of a selected value.)
__device__ __forceinline__ void storeA(int* p, int v) {
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(unsigned(__cvta_generic_to_shared(p))), "r"(v)
               : "memory");
}
__device__ __forceinline__ void storeB(int* p, int v) {
  asm volatile("st.shared.b32 [%0], %1;" ::"r"(unsigned(__cvta_generic_to_shared(p))), "r"(v)
               : "memory");
}

extern "C" __global__ void divergent_paths_order(const int* x, int* out) {
  __shared__ int mode;
  const unsigned t = threadIdx.x;
  if (x[t] < 0)
    storeA(&mode, 1);
  else
    storeB(&mode, 2);
  __syncwarp();
  out[t] = mode;
}

extern "C" __global__ void divergent_paths_order_fixed(const int* x, int* out) {
  __shared__ int mode;
  const unsigned t = threadIdx.x;
  // One writer decides: "any negative?" by a vote, then lane 0 stores.
  const bool any = __any_sync(0xffffffffu, x[t] < 0);
  if (t == 0) mode = any ? 1 : 2;
  __syncwarp();
  out[t] = mode;
}
