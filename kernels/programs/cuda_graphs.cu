// CUDA graphs as programs use them: a graph built node by node (memset, kernels on two
// branches that an empty node joins, a child graph, a copy back, a host node), relaunched with
// new kernel arguments (cudaGraphExecKernelNodeSetParams, cudaGraphExecUpdate); a graph
// captured from two streams that fork and join through events; and conditional nodes whose
// condition kernels set on the device (cudaGraphSetConditional): a while loop, an if/else and
// a switch. Every result is checked on the host.
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int kN = 1000, kBlock = 128, kGrid = (kN + kBlock - 1) / kBlock;

__global__ void iota(int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += i;
}

__global__ void scale(int* x, int factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}

__global__ void addFrom(int* x, const int* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += y[i];
}

// One step of a loop the device ends: counts *counter down and clears the condition at 0.
__global__ void countDown(int* counter, int* steps, cudaGraphConditionalHandle loop) {
  *steps += 1;
  if (--*counter == 0) cudaGraphSetConditional(loop, 0);
}

__global__ void setCondition(cudaGraphConditionalHandle h, const int* value) {
  cudaGraphSetConditional(h, unsigned(*value));
}

__global__ void mark(int* where, int value) { *where = value; }

int failures = 0;

void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

void hostDone(void* flag) { *static_cast<int*>(flag) += 1; }

cudaKernelNodeParams kernelParams(void* func, void** args) {
  cudaKernelNodeParams p = {};
  p.func = func;
  p.gridDim = dim3(kGrid);
  p.blockDim = dim3(kBlock);
  p.kernelParams = args;
  return p;
}

// A memset node's parameters: the kN ints at dst set to value.
cudaMemsetParams fillInts(int* dst, unsigned value) {
  cudaMemsetParams p = {};
  p.dst = dst;
  p.value = value;
  p.elementSize = 4;
  p.width = kN;
  p.height = 1;
  return p;
}

// memset(x, 0) -> iota(x) -> {scale(x, factor) ; iota(y)} -> empty -> child{addFrom(x, y)}
// -> copy x to host -> host node. x[i] = i * factor + i.
void explicitGraph(int* x, int* y) {
  cudaGraph_t graph, child;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphCreate(&child, 0));
  int n = kN, factor = 3;
  cudaGraphNode_t memset, first, scaled, second, join, sub, back, host;
  const cudaMemsetParams ms = fillInts(x, 0);
  CHECK(cudaGraphAddMemsetNode(&memset, graph, nullptr, 0, &ms));
  void* iotaX[] = {&x, &n};
  cudaKernelNodeParams k = kernelParams(reinterpret_cast<void*>(iota), iotaX);
  CHECK(cudaGraphAddKernelNode(&first, graph, &memset, 1, &k));
  void* scaleArgs[] = {&x, &factor, &n};
  cudaKernelNodeParams s = kernelParams(reinterpret_cast<void*>(scale), scaleArgs);
  CHECK(cudaGraphAddKernelNode(&scaled, graph, &first, 1, &s));
  CHECK(cudaMemset(y, 0, kN * sizeof(int)));
  void* iotaY[] = {&y, &n};
  cudaKernelNodeParams k2 = kernelParams(reinterpret_cast<void*>(iota), iotaY);
  CHECK(cudaGraphAddKernelNode(&second, graph, nullptr, 0, &k2));
  const cudaGraphNode_t branches[] = {scaled, second};
  CHECK(cudaGraphAddEmptyNode(&join, graph, branches, 2));
  void* addArgs[] = {&x, &y, &n};
  cudaKernelNodeParams a = kernelParams(reinterpret_cast<void*>(addFrom), addArgs);
  cudaGraphNode_t inChild;
  CHECK(cudaGraphAddKernelNode(&inChild, child, nullptr, 0, &a));
  CHECK(cudaGraphAddChildGraphNode(&sub, graph, &join, 1, child));
  std::vector<int> out(kN, -1);
  CHECK(cudaGraphAddMemcpyNode1D(&back, graph, &sub, 1, out.data(), x, kN * sizeof(int),
                                 cudaMemcpyDeviceToHost));
  int hostRuns = 0;
  cudaHostNodeParams h = {hostDone, &hostRuns};
  CHECK(cudaGraphAddHostNode(&host, graph, &back, 1, &h));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  expect(nodes == 8, "explicit graph has 8 nodes");

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  bool ok = hostRuns == 1;
  for (int i = 0; i < kN; ++i) ok &= out[i] == i * 3 + i;
  expect(ok, "explicit graph: x = 3i + i, host node ran once");

  // New arguments for the instantiated graph's scale node: x = 5i + i (y is iota'd again).
  factor = 5;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, scaled, &s));
  CHECK(cudaMemset(y, 0, kN * sizeof(int)));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  ok = hostRuns == 2;
  for (int i = 0; i < kN; ++i) ok &= out[i] == i * 5 + i;
  expect(ok, "cudaGraphExecKernelNodeSetParams: x = 5i + i");

  // The graph itself changed (factor 7), then cudaGraphExecUpdate: same topology, new values.
  factor = 7;
  CHECK(cudaGraphKernelNodeSetParams(scaled, &s));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, graph, &info));
  CHECK(cudaMemset(y, 0, kN * sizeof(int)));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  ok = hostRuns == 3 && info.result == cudaGraphExecUpdateSuccess;
  for (int i = 0; i < kN; ++i) ok &= out[i] == i * 7 + i;
  expect(ok, "cudaGraphExecUpdate: x = 7i + i");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaGraphDestroy(graph));
}

// Edges added after the nodes (cudaGraphAddDependencies) may make a node wait for one created
// after it: the scale node made first runs after the memset made second, in the graph and in
// its clone. x = 2 everywhere.
void edgesAddedLater(int* x) {
  cudaGraph_t graph, copy;
  CHECK(cudaGraphCreate(&graph, 0));
  int n = kN, factor = 2;
  void* scaleArgs[] = {&x, &factor, &n};
  cudaKernelNodeParams s = kernelParams(reinterpret_cast<void*>(scale), scaleArgs);
  cudaGraphNode_t scaled, fill;
  CHECK(cudaGraphAddKernelNode(&scaled, graph, nullptr, 0, &s));
  const cudaMemsetParams ms = fillInts(x, 1);
  CHECK(cudaGraphAddMemsetNode(&fill, graph, nullptr, 0, &ms));
  CHECK(cudaGraphAddDependencies(graph, &fill, &scaled, nullptr, 1));
  CHECK(cudaGraphClone(&copy, graph));
  bool ok = true;
  for (cudaGraph_t g : {graph, copy}) {
    cudaGraphExec_t exec;
    CHECK(cudaMemset(x, 0, kN * sizeof(int)));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, 0));
    std::vector<int> out(kN);
    CHECK(cudaMemcpy(out.data(), x, kN * sizeof(int), cudaMemcpyDeviceToHost));
    for (int v : out) ok &= v == 2;
    CHECK(cudaGraphExecDestroy(exec));
  }
  expect(ok, "an edge to an earlier-made node orders it after, in the graph and its clone");
  CHECK(cudaGraphDestroy(copy));
  CHECK(cudaGraphDestroy(graph));
}

// Stream a forks stream b through an event; each scales its own buffer; a joins b; the
// capture ends on a. Nothing runs while capturing: only the launches of the graph do.
void capturedGraph(int* x, int* y) {
  cudaStream_t a, b;
  CHECK(cudaStreamCreate(&a));
  CHECK(cudaStreamCreate(&b));
  cudaEvent_t fork, joinEvent;
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&joinEvent));
  CHECK(cudaMemset(x, 0, kN * sizeof(int)));
  CHECK(cudaMemset(y, 0, kN * sizeof(int)));
  CHECK(cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal));
  iota<<<kGrid, kBlock, 0, a>>>(x, kN);
  CHECK(cudaEventRecord(fork, a));
  CHECK(cudaStreamWaitEvent(b, fork, 0));
  iota<<<kGrid, kBlock, 0, b>>>(y, kN);
  scale<<<kGrid, kBlock, 0, b>>>(y, 2, kN);
  CHECK(cudaEventRecord(joinEvent, b));
  scale<<<kGrid, kBlock, 0, a>>>(x, 3, kN);
  CHECK(cudaStreamWaitEvent(a, joinEvent, 0));
  addFrom<<<kGrid, kBlock, 0, a>>>(x, y, kN);
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(b, &status));
  expect(status == cudaStreamCaptureStatusActive, "stream b joined the capture");
  cudaGraph_t graph;
  CHECK(cudaStreamEndCapture(a, &graph));
  CHECK(cudaStreamIsCapturing(b, &status));
  expect(status == cudaStreamCaptureStatusNone, "ending the capture on a ends b's part");
  std::vector<int> out(kN);
  CHECK(cudaMemcpy(out.data(), x, kN * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < kN; ++i) ok &= out[i] == 0;
  expect(ok, "capture ran nothing");
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  expect(nodes == 5, "captured graph has 5 nodes (its kernels; event records are edges)");
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 1; launch <= 2; ++launch) {
    CHECK(cudaGraphLaunch(exec, a));
    CHECK(cudaStreamSynchronize(a));
  }
  // After launch 1: y = 2i, x = 3i + y = 5i. Launch 2: y = 2(2i + i) = 6i, x = 3(5i + i) + y.
  CHECK(cudaMemcpy(out.data(), x, kN * sizeof(int), cudaMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < kN; ++i) ok &= out[i] == 3 * (5 * i + i) + 6 * i;
  expect(ok, "captured graph launched twice");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(a));
  CHECK(cudaStreamDestroy(b));
}

// while (condition) countDown: the condition starts at 1 (assigned at every launch) and the
// kernel clears it when the counter reaches 0.
void whileNode(int* scratch) {
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
  p.conditional.handle = handle;
  p.conditional.type = cudaGraphCondTypeWhile;
  p.conditional.size = 1;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p));
  cudaGraph_t body = p.conditional.phGraph_out[0];
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
  countDown<<<1, 1, 0, s>>>(scratch, scratch + 1, handle);
  CHECK(cudaStreamEndCapture(s, nullptr));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  bool ok = true;
  for (int count : {6, 1}) {
    const int init[2] = {count, 0};
    CHECK(cudaMemcpy(scratch, init, sizeof init, cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    int result[2];
    CHECK(cudaMemcpy(result, scratch, sizeof result, cudaMemcpyDeviceToHost));
    ok &= result[0] == 0 && result[1] == count;
  }
  expect(ok, "while node: the body ran until the device cleared the condition");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
}

// A kernel sets the condition from memory; an if/else node and a switch node of 3 cases pick
// the body that marks the result.
void ifAndSwitchNodes(int* scratch) {
  for (const auto type : {cudaGraphCondTypeIf, cudaGraphCondTypeSwitch}) {
    const unsigned size = type == cudaGraphCondTypeIf ? 2 : 3;
    cudaGraph_t graph;
    CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphConditionalHandle handle;
    CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 0, 0));
    int* value = scratch;
    int* result = scratch + 1;
    void* setArgs[] = {&handle, &value};
    cudaKernelNodeParams k = {};
    k.func = reinterpret_cast<void*>(setCondition);
    k.gridDim = k.blockDim = dim3(1);
    k.kernelParams = setArgs;
    cudaGraphNode_t set, node;
    CHECK(cudaGraphAddKernelNode(&set, graph, nullptr, 0, &k));
    cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
    p.conditional.handle = handle;
    p.conditional.type = type;
    p.conditional.size = size;
    CHECK(cudaGraphAddNode(&node, graph, &set, nullptr, 1, &p));
    int marks[3];
    for (unsigned i = 0; i < size; ++i) {
      marks[i] = 100 + int(i);
      void* markArgs[] = {&result, &marks[i]};
      cudaKernelNodeParams m = k;
      m.func = reinterpret_cast<void*>(mark);
      m.kernelParams = markArgs;
      cudaGraphNode_t inBody;
      CHECK(cudaGraphAddKernelNode(&inBody, p.conditional.phGraph_out[i], nullptr, 0, &m));
    }
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    bool ok = true;
    for (int v = 0; v < 4; ++v) {
      const int init[2] = {v, -1};
      CHECK(cudaMemcpy(scratch, init, sizeof init, cudaMemcpyHostToDevice));
      CHECK(cudaGraphLaunch(exec, 0));
      int got[2];
      CHECK(cudaMemcpy(got, scratch, sizeof got, cudaMemcpyDeviceToHost));
      // if/else: body 0 when the value is not 0, else body 1; switch: body v, none past 2.
      const int want = type == cudaGraphCondTypeIf ? (v ? 100 : 101) : (v < 3 ? 100 + v : -1);
      ok &= got[1] == want;
    }
    expect(ok, type == cudaGraphCondTypeIf ? "if/else node picks its body"
                                           : "switch node picks case v, none past its size");
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
  }
}

// Graph memory: cudaMallocAsync/cudaFreeAsync in a capture become allocation and free nodes,
// and so do the explicit ones; every launch reuses the graph's addresses.
void memoryNodes() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  int* tmp = nullptr;
  CHECK(cudaMallocAsync(&tmp, kN * sizeof(int), s));
  CHECK(cudaMemsetAsync(tmp, 0, kN * sizeof(int), s));
  iota<<<kGrid, kBlock, 0, s>>>(tmp, kN);
  std::vector<int> out(kN, -1);
  CHECK(cudaMemcpyAsync(out.data(), tmp, kN * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(tmp, s));
  cudaGraph_t graph;
  CHECK(cudaStreamEndCapture(s, &graph));
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.bytesize = 64;
  cudaGraphNode_t roots[1], allocNode, freeNode;
  size_t count = 1;
  CHECK(cudaGraphGetRootNodes(graph, roots, &count));
  CHECK(cudaGraphAddMemAllocNode(&allocNode, graph, roots, 1, &alloc));
  CHECK(cudaGraphAddMemFreeNode(&freeNode, graph, &allocNode, 1, alloc.dptr));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  bool ok = nodes == 7 && alloc.dptr != nullptr;
  for (int launch = 0; launch < 2; ++launch) {
    out.assign(kN, -1);
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < kN; ++i) ok &= out[i] == i;
  }
  expect(ok, "graph memory nodes: allocated, used, freed at every launch");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
}

// What CUDA refuses during a capture: capturing the legacy stream; work on the legacy stream
// while a blocking stream captures, which also invalidates that capture (ending it gives no
// graph); synchronizing with a capturing stream.
void captureErrors(int* x) {
  const cudaError_t legacy = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
  expect(legacy == cudaErrorStreamCaptureUnsupported, "the legacy stream cannot be captured");
  cudaGetLastError();
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  iota<<<kGrid, kBlock, 0, s>>>(x, kN);
  const cudaError_t implicit = cudaMemsetAsync(x, 0, sizeof(int), 0);
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s, &status));
  cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(&status);
  const cudaError_t ended = cudaStreamEndCapture(s, &graph);
  expect(implicit == cudaErrorStreamCaptureImplicit &&
             status == cudaStreamCaptureStatusInvalidated &&
             ended == cudaErrorStreamCaptureInvalidated && graph == nullptr,
         "legacy-stream work invalidates a global capture");
  cudaGetLastError();
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  const cudaError_t sync = cudaStreamSynchronize(s);
  expect(sync == cudaErrorStreamCaptureUnsupported &&
             cudaStreamEndCapture(s, &graph) == cudaErrorStreamCaptureInvalidated,
         "synchronizing a capturing stream fails and invalidates the capture");
  cudaGetLastError();
  CHECK(cudaStreamDestroy(s));
}

int main() {
  int *x, *y, *scratch;
  CHECK(cudaMalloc(&x, kN * sizeof(int)));
  CHECK(cudaMalloc(&y, kN * sizeof(int)));
  CHECK(cudaMalloc(&scratch, 2 * sizeof(int)));
  explicitGraph(x, y);
  edgesAddedLater(x);
  capturedGraph(x, y);
  whileNode(scratch);
  ifAndSwitchNodes(scratch);
  memoryNodes();
  captureErrors(x);
  std::printf("cuda_graphs: %s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
