// racecheck: each CTA smooths its segment in place and reads the last element of the previous
// CTA's segment, which that CTA overwrites: nothing orders CTAs, so the value read depends on
// which ran first.
extern "C" __global__ void global_neighbour_read(float* x) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float left = i > 0 ? x[i - 1] : 0.0f;
  x[i] = 0.5f * (x[i] + left);
}

extern "C" __global__ void global_neighbour_read_fixed(float* x) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = x[i];
  x[i] = 0.5f * v;
}
