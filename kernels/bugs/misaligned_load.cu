// memcheck: a byte offset into a float buffer (a packed record read at the wrong offset) makes
// every 4-byte load misaligned.
extern "C" __global__ void misaligned_load(const unsigned char* rec, float* y) {
  const unsigned t = threadIdx.x;
  y[t] = *reinterpret_cast<const float*>(rec + 8 * t + 2);
}

extern "C" __global__ void misaligned_load_fixed(const unsigned char* rec, float* y) {
  const unsigned t = threadIdx.x;
  y[t] = *reinterpret_cast<const float*>(rec + 8 * t + 4);
}
