// CUDA graphs (graph.cpp, graph_api.cpp): graphs built node by node or captured from streams,
// instantiated and launched, with conditional nodes (if, while, switch) whose condition kernels
// set on the device. The driver runs work when it is enqueued, so a graph launch runs its nodes
// at once, one after another in an order that respects every dependency (the creation order
// among nodes that do not depend on one another): a valid schedule of CUDA's semantics, as the
// streams' is.
//
// Every stream operation is first described as a graph node (Work): a stream that captures
// appends it to its graph, any other stream runs it now (runNode). So a captured graph runs
// the very operations the stream would have run.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace warpsim::driver {

class Driver;
struct Function;
struct Graph;

// What a node does, by type: plain values, copied whole when a graph is copied.
struct NodeWork {
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  // CU_GRAPH_NODE_TYPE_KERNEL: the kernel and its parameters' bytes, copied when the node was
  // made (as the driver copies them), so the caller's arguments may change afterwards.
  Function* function = nullptr;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, cluster[3] = {0, 0, 0};
  unsigned shared = 0;
  bool cooperative = false;
  std::vector<uint8_t> params;
  // CU_GRAPH_NODE_TYPE_MEMCPY (every copy, 1-D ones too) and CU_GRAPH_NODE_TYPE_MEMSET.
  CUDA_MEMCPY3D copy{};
  CUDA_MEMSET_NODE_PARAMS fill{};
  // CU_GRAPH_NODE_TYPE_MEM_ALLOC: its allocation, made when the node was (the address is fixed
  // for the graph's life, as CUDA's is); CU_GRAPH_NODE_TYPE_MEM_FREE: the address it frees.
  CUdeviceptr allocation = 0;
  size_t allocationBytes = 0;
  // CU_GRAPH_NODE_TYPE_HOST (host functions and stream callbacks).
  CUhostFn host = nullptr;
  void* userData = nullptr;
  // CU_GRAPH_NODE_TYPE_EVENT_RECORD / CU_GRAPH_NODE_TYPE_WAIT_EVENT.
  CUevent event = nullptr;
  // CU_GRAPH_NODE_TYPE_CONDITIONAL: the handle whose value picks the body, and how.
  CUgraphConditionalHandle handle = 0;
  CUgraphConditionalNodeType conditional = CU_GRAPH_COND_TYPE_IF;
};

// One node: what it does, the nodes of its graph it waits for, and the graphs it owns.
struct GraphNode : NodeWork {
  Graph* graph = nullptr;
  std::vector<GraphNode*> dependencies;
  // CU_GRAPH_NODE_TYPE_GRAPH: one body, run once; CU_GRAPH_NODE_TYPE_CONDITIONAL: its bodies.
  std::vector<std::unique_ptr<Graph>> bodies;
  std::vector<CUgraph> bodyHandles;  // a conditional node's phGraph_out (cuGraphAddNode)
};

struct Graph {
  std::vector<std::unique_ptr<GraphNode>> nodes;  // in creation order
  GraphNode* owner = nullptr;  // the child-graph or conditional node whose body this is
  // Appends a node of `type` after `dependencies` (each must be a node of this graph).
  GraphNode* add(CUgraphNodeType type, const CUgraphNode* dependencies, size_t count);
  bool holds(const GraphNode* n) const;
  // The nodes in an order that respects every dependency; throws ApiError on a cycle.
  std::vector<const GraphNode*> order() const;
};

// A deep copy: nodes, bodies and edges (cuGraphClone, cuGraphInstantiate).
std::unique_ptr<Graph> cloneGraph(const Graph& g);

// An instantiated graph: a snapshot of the graph when it was instantiated.
struct GraphExec {
  std::unique_ptr<Graph> graph;
  const Graph* source = nullptr;  // the graph it was made from (its conditional handles)
};

// A conditional handle (cuGraphConditionalHandleCreate): its value lives in 4 bytes of device
// memory at `address`, which is the handle itself, so that device code's
// cudaGraphSetConditional(handle, v) is a store (isa/insns/control.cpp).
struct ConditionalHandle {
  Graph* graph = nullptr;
  unsigned defaultValue = 0;
  bool assignDefault = false;  // CU_GRAPH_COND_ASSIGN_DEFAULT: set at every launch of the graph
};

// A stream's capture (cuStreamBeginCapture): the graph its operations go to and the nodes the
// next one depends on.
struct Capture {
  Graph* graph = nullptr;
  bool ownsGraph = true;  // false for cuStreamBeginCaptureToGraph
  std::vector<GraphNode*> dependencies;
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  uint64_t id = 0;
  bool joined = false;  // joined through an event (cuStreamWaitEvent), not begun on this stream
  // An operation CUDA forbids during a capture (a synchronization, work on the legacy stream)
  // invalidates it: later work on its streams fails, and ending it gives no graph.
  bool invalidated = false;
};

// The capture stream `s` takes part in (began or joined), or null (also for the default
// streams and unknown handles).
Capture* captureOf(Driver& d, CUstream s);
// A stream operation about to be enqueued on `s`: a node of the capturing stream's graph when
// `s` captures (wired after the capture's dependencies, which it then replaces), else null, and
// the caller runs it now. Throws ApiError for the legacy stream while a global capture runs.
GraphNode* captureNode(Driver& d, CUstream s, CUgraphNodeType type);
// A graph's allocation (a memory-allocation node, cudaMallocAsync in a capture): reserved for
// the driver's life, since every launch of the graph (and of its copies) reuses the address; a
// free node, cudaFree and cudaFreeAsync of it end its use but keep the reservation.
CUdeviceptr allocateForGraph(Driver& d, size_t bytes);

// cuStreamSynchronize/cuStreamQuery on s (null: cuCtxSynchronize): a capture it would wait
// for is invalidated and the call fails with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED.
void synchronizeDuringCapture(Driver& d, CUstream s);
// Marks every stream of capture `id` invalidated.
void invalidateCapture(Driver& d, uint64_t id);
// Runs every node of `g`, dependencies first.
void runGraph(Driver& d, const Graph& g);
// cuGraphLaunch: the conditional handles' defaults where asked for, then runGraph.
void launchGraph(Driver& d, const GraphExec& e);

}  // namespace warpsim::driver
