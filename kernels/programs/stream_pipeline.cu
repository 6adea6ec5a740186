// A multi-kernel, multi-stream pipeline: chunks of a signal go through three streams, each
// chunk copied in asynchronously from pinned memory, scaled, smoothed with a shared-memory
// stencil, reduced with atomics, and copied back; a fourth stream waits on every chunk's event
// and sums the partial results; a host function marks the end. Events time the whole run.
#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int kChunk = 4096, kChunks = 6, kStreams = 3, kBlock = 256;

__global__ void scale(float* x, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}

// y[i] = (x[i-1] + x[i] + x[i+1]) / 3 within the chunk (edges use what exists).
__global__ void smooth(const float* x, float* y, int n) {
  __shared__ float tile[kBlock + 2];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = threadIdx.x + 1;
  tile[t] = i < n ? x[i] : 0.0f;
  if (threadIdx.x == 0) tile[0] = i > 0 ? x[i - 1] : 0.0f;
  if (threadIdx.x == blockDim.x - 1) tile[t + 1] = i + 1 < n ? x[i + 1] : 0.0f;
  __syncthreads();
  if (i < n) {
    const int count = 1 + (i > 0) + (i + 1 < n);
    y[i] = (tile[t - 1] + tile[t] + tile[t + 1]) / count;
  }
}

__global__ void sumInto(const float* y, float* total, int n) {
  __shared__ float partial[kBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? y[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

__global__ void gather(const float* partials, float* result, int chunks) {
  float s = 0;
  for (int c = 0; c < chunks; ++c) s += partials[c];
  *result = s;
}

void CUDART_CB done(void* flag) { *static_cast<int*>(flag) = 1; }

int main() {
  const int n = kChunk * kChunks;
  float *hostIn, *hostOut, *in, *smoothed, *partials, *result;
  CHECK(cudaMallocHost(&hostIn, n * sizeof(float)));
  CHECK(cudaMallocHost(&hostOut, n * sizeof(float)));
  for (int i = 0; i < n; ++i) hostIn[i] = float(i % 97) * 0.25f;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&smoothed, n * sizeof(float)));
  CHECK(cudaMalloc(&partials, kChunks * sizeof(float)));
  CHECK(cudaMalloc(&result, sizeof(float)));
  CHECK(cudaMemset(partials, 0, kChunks * sizeof(float)));

  cudaStream_t streams[kStreams], final;
  for (auto& s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamCreate(&final));
  // A cache hint as a tuned program would give it: accepted (and reported back) by warpsim.
  cudaStreamAttrValue window = {};
  window.accessPolicyWindow.base_ptr = in;
  window.accessPolicyWindow.num_bytes = n * sizeof(float);
  window.accessPolicyWindow.hitRatio = 0.5f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK(cudaStreamSetAttribute(streams[0], cudaStreamAttributeAccessPolicyWindow, &window));
  cudaStreamAttrValue back = {};
  CHECK(cudaStreamGetAttribute(streams[0], cudaStreamAttributeAccessPolicyWindow, &back));
  const bool attributeKept = back.accessPolicyWindow.base_ptr == in;
  if (!attributeKept) std::printf("stream attribute lost\n");
  cudaEvent_t start, stop, chunkDone[kChunks];
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (auto& e : chunkDone) CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

  CHECK(cudaEventRecord(start, final));
  for (int c = 0; c < kChunks; ++c) {
    cudaStream_t s = streams[c % kStreams];
    const size_t off = size_t(c) * kChunk;
    CHECK(
        cudaMemcpyAsync(in + off, hostIn + off, kChunk * sizeof(float), cudaMemcpyHostToDevice, s));
    scale<<<kChunk / kBlock, kBlock, 0, s>>>(in + off, 2.0f, kChunk);
    smooth<<<kChunk / kBlock, kBlock, 0, s>>>(in + off, smoothed + off, kChunk);
    sumInto<<<kChunk / kBlock, kBlock, 0, s>>>(smoothed + off, partials + c, kChunk);
    CHECK(cudaMemcpyAsync(hostOut + off, smoothed + off, kChunk * sizeof(float),
                          cudaMemcpyDeviceToHost, s));
    CHECK(cudaEventRecord(chunkDone[c], s));
    CHECK(cudaStreamWaitEvent(final, chunkDone[c], 0));
  }
  gather<<<1, 1, 0, final>>>(partials, result, kChunks);
  int finished = 0;
  CHECK(cudaLaunchHostFunc(final, done, &finished));
  CHECK(cudaEventRecord(stop, final));
  CHECK(cudaGetLastError());
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  float total = 0;
  CHECK(cudaMemcpy(&total, result, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaDeviceSynchronize());

  // The same on the host.
  double expectTotal = 0;
  int bad = 0;
  for (int c = 0; c < kChunks; ++c)
    for (int i = 0; i < kChunk; ++i) {
      const float* x = hostIn + size_t(c) * kChunk;
      const int count = 1 + (i > 0) + (i + 1 < kChunk);
      const float sum = (i > 0 ? 2.0f * x[i - 1] : 0.0f) + 2.0f * x[i] +
                        (i + 1 < kChunk ? 2.0f * x[i + 1] : 0.0f);
      const float y = sum / count;
      if (std::fabs(hostOut[size_t(c) * kChunk + i] - y) > 1e-5f * std::fabs(y) + 1e-6f) ++bad;
      expectTotal += y;
    }
  const bool ok = attributeKept && bad == 0 && finished == 1 && ms >= 0 &&
                  std::fabs(total - expectTotal) <= 1e-4 * std::fabs(expectTotal);
  std::printf(
      "stream_pipeline: %d chunks on %d streams, total %.1f (expected %.1f), %d bad "
      "elements, host function %s\n",
      kChunks, kStreams, total, expectTotal, bad, finished ? "ran" : "did not run");
  // Host time on a GPU; under `warpsim exec --timing`, the predicted time of the 19 launches.
  std::printf("stream_pipeline: events measured %.5f ms\n", ms);
  for (auto& s : streams) CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(final));
  CHECK(cudaFreeHost(hostIn));
  CHECK(cudaFreeHost(hostOut));
  CHECK(cudaFree(in));
  CHECK(cudaFree(smoothed));
  CHECK(cudaFree(partials));
  CHECK(cudaFree(result));
  std::printf("stream_pipeline: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
