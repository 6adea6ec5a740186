// memcheck: a float4 load from an offset of 2 floats: 16-byte vector loads need 16-byte
// alignment.
extern "C" __global__ void vector_misaligned(const float* x, float* y) {
  const unsigned t = threadIdx.x;
  const float4 v = reinterpret_cast<const float4*>(x + 2)[t];
  y[t] = v.x + v.y + v.z + v.w;
}

extern "C" __global__ void vector_misaligned_fixed(const float* x, float* y) {
  const unsigned t = threadIdx.x;
  const float4 v = reinterpret_cast<const float4*>(x + 4)[t];
  y[t] = v.x + v.y + v.z + v.w;
}
