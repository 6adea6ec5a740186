// racecheck: every thread that sees a negative element writes its index into one shared word
// ("any negative?"): threads of different warps write it with nothing between them.
extern "C" __global__ void shared_flag_waw(const int* x, int* where) {
  __shared__ int first;
  const unsigned t = threadIdx.x;
  if (t == 0) first = -1;
  __syncthreads();
  if (x[t] < 0) first = int(t);
  __syncthreads();
  if (t == 0) *where = first;
}

extern "C" __global__ void shared_flag_waw_fixed(const int* x, int* where) {
  __shared__ int first;
  const unsigned t = threadIdx.x;
  if (t == 0) first = 0x7fffffff;
  __syncthreads();
  if (x[t] < 0) atomicMin(&first, int(t));
  __syncthreads();
  if (t == 0) *where = first;
}
