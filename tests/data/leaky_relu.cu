// A user kernel that is not in the suite: `warpsim run` compiles it with nvcc first.
extern "C" __global__ void leaky_relu(float* y, const float* x, float slope, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = v > 0.0f ? v : slope * v;
  }
}
