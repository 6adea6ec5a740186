// racecheck: lane 0 of each warp computes a value and broadcasts it through shared memory; the
// other lanes read it with no __syncwarp() between the write and the reads (under independent
// thread scheduling lane 0 need not have written yet).
extern "C" __global__ void warp_broadcast_no_syncwarp(const float* x, float* y) {
  __shared__ float scale[2];
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  if (lane == 0) scale[warp] = 1.0f / (1.0f + x[t]);
  y[t] = x[t] * scale[warp];
}

extern "C" __global__ void warp_broadcast_no_syncwarp_fixed(const float* x, float* y) {
  __shared__ float scale[2];
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  if (lane == 0) scale[warp] = 1.0f / (1.0f + x[t]);
  __syncwarp();
  y[t] = x[t] * scale[warp];
}
