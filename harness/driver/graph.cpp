// CUDA graphs: the node list, its order, copies of graphs, stream capture's seam and running
// nodes (graph.h). The entry points are in graph_api.cpp.
#include <algorithm>
#include <cstring>
#include <functional>
#include <queue>
#include <unordered_map>

#include "harness/driver/internal.h"

namespace warpsim::driver {
namespace {

// A while node whose condition never becomes 0 would hang the program; the chip would run it
// for ever too, but a simulator must stop: this many iterations is far beyond real loops.
constexpr uint64_t kMaxWhileIterations = uint64_t(1) << 20;

uint32_t conditionValue(Driver& d, CUgraphConditionalHandle h) {
  uint32_t v = 0;
  std::memcpy(&v, d.resolve(h, 4), 4);
  return v;
}

void setConditionValue(Driver& d, CUgraphConditionalHandle h, uint32_t v) {
  std::memcpy(d.resolve(h, 4), &v, 4);
}

void runConditional(Driver& d, const GraphNode& n) {
  const auto body = [&](size_t i) -> const Graph* {
    return i < n.bodies.size() ? n.bodies[i].get() : nullptr;
  };
  switch (n.conditional) {
    case CU_GRAPH_COND_TYPE_IF: {
      const Graph* g = conditionValue(d, n.handle) ? body(0) : body(1);
      if (g) runGraph(d, *g);
      return;
    }
    case CU_GRAPH_COND_TYPE_SWITCH:
      if (const Graph* g = body(conditionValue(d, n.handle))) runGraph(d, *g);
      return;
    case CU_GRAPH_COND_TYPE_WHILE:
      for (uint64_t i = 0; conditionValue(d, n.handle); ++i) {
        if (i == kMaxWhileIterations)
          throw ApiError{CUDA_ERROR_LAUNCH_FAILED,
                         "a conditional while node ran " + std::to_string(i) +
                             " iterations and its condition is still not 0: stopped"};
        runGraph(d, *body(0));
      }
      return;
    default:
      throw ApiError{CUDA_ERROR_INVALID_VALUE, "unknown conditional node type"};
  }
}

void runNode(Driver& d, const GraphNode& n) {
  switch (n.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      size_t size = n.params.size();
      void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, const_cast<uint8_t*>(n.params.data()),
                       CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
      d.launch(n.function, {n.grid[0], n.grid[1], n.grid[2]}, {n.block[0], n.block[1], n.block[2]},
               n.shared, nullptr, n.params.empty() ? nullptr : extra,
               {n.cluster[0], n.cluster[1], n.cluster[2]}, n.cooperative);
      return;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      copy3D(d, n.copy);
      return;
    case CU_GRAPH_NODE_TYPE_MEMSET:
      fill2D(d, n.fill.dst, n.fill.pitch, n.fill.value, n.fill.elementSize, n.fill.width,
             n.fill.height);
      return;
    case CU_GRAPH_NODE_TYPE_HOST:
      n.host(n.userData);
      return;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      recordEvent(d, n.event);
      return;
    case CU_GRAPH_NODE_TYPE_GRAPH:
      runGraph(d, *n.bodies.front());
      return;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
      runConditional(d, n);
      return;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:  // fresh memory at every launch, for initcheck
      if (d.checks) d.checks->trackUninitialized(n.allocation, n.allocationBytes);
      return;
    default:  // empty nodes and event waits: everything before them has run already
      return;
  }
}

}  // namespace

GraphNode* Graph::add(CUgraphNodeType type, const CUgraphNode* dependencies, size_t count) {
  if (count && !dependencies) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  auto n = std::make_unique<GraphNode>();
  n->type = type;
  n->graph = this;
  for (size_t i = 0; i < count; ++i) {
    auto* dep = reinterpret_cast<GraphNode*>(dependencies[i]);
    if (!holds(dep))
      throw ApiError{CUDA_ERROR_INVALID_VALUE, "a graph node's dependency is not in its graph"};
    if (std::find(n->dependencies.begin(), n->dependencies.end(), dep) == n->dependencies.end())
      n->dependencies.push_back(dep);
  }
  nodes.push_back(std::move(n));
  return nodes.back().get();
}

bool Graph::holds(const GraphNode* n) const {
  return std::any_of(nodes.begin(), nodes.end(), [&](const auto& m) { return m.get() == n; });
}

namespace {

// Each node's position in the graph's creation order.
std::unordered_map<const GraphNode*, size_t> positions(const Graph& g) {
  std::unordered_map<const GraphNode*, size_t> at;
  at.reserve(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) at.emplace(g.nodes[i].get(), i);
  return at;
}

}  // namespace

// Kahn's algorithm, taking the earliest-created ready node first: for graphs built in
// dependency order (every graph the API can build without cuGraphAddDependencies) that is the
// creation order. O((nodes + edges) log nodes): it runs at every launch.
std::vector<const GraphNode*> Graph::order() const {
  const auto at = positions(*this);
  std::vector<size_t> waitingFor(nodes.size());
  std::vector<std::vector<size_t>> successors(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    waitingFor[i] = nodes[i]->dependencies.size();
    for (const GraphNode* p : nodes[i]->dependencies) successors[at.at(p)].push_back(i);
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (waitingFor[i] == 0) ready.push(i);
  std::vector<const GraphNode*> out;
  out.reserve(nodes.size());
  while (!ready.empty()) {
    const size_t next = ready.top();
    ready.pop();
    out.push_back(nodes[next].get());
    for (size_t s : successors[next])
      if (--waitingFor[s] == 0) ready.push(s);
  }
  if (out.size() < nodes.size())
    throw ApiError{CUDA_ERROR_INVALID_VALUE, "the graph's dependencies form a cycle"};
  return out;
}

std::unique_ptr<Graph> cloneGraph(const Graph& g) {
  const auto at = positions(g);
  auto copy = std::make_unique<Graph>();
  for (const auto& n : g.nodes) {
    auto c = std::make_unique<GraphNode>();
    static_cast<NodeWork&>(*c) = static_cast<const NodeWork&>(*n);
    c->graph = copy.get();
    for (const auto& b : n->bodies) {
      c->bodies.push_back(cloneGraph(*b));
      c->bodies.back()->owner = c.get();
      c->bodyHandles.push_back(reinterpret_cast<CUgraph>(c->bodies.back().get()));
    }
    // Dependencies point into the copy: the same positions in the node list (a node depends
    // only on nodes created before it, or cuGraphAddDependencies wired it later).
    copy->nodes.push_back(std::move(c));
  }
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const GraphNode* dep : g.nodes[i]->dependencies)
      copy->nodes[i]->dependencies.push_back(copy->nodes[at.at(dep)].get());
  return copy;
}

namespace {

bool isLegacy(CUstream s) { return s == nullptr || s == CU_STREAM_LEGACY; }

// The captures the legacy stream would wait for: those of blocking streams, unless relaxed.
bool legacyWaitsFor(const Stream& st) {
  return st.capture && st.capture->mode != CU_STREAM_CAPTURE_MODE_RELAXED &&
         !(st.flags & CU_STREAM_NON_BLOCKING);
}

}  // namespace

Capture* captureOf(Driver& d, CUstream s) {
  auto it = d.streams.find(reinterpret_cast<Stream*>(s));
  return it == d.streams.end() ? nullptr : it->second->capture.get();
}

CUdeviceptr allocateForGraph(Driver& d, size_t bytes) {
  if (bytes == 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, "a graph allocation of 0 bytes"};
  const CUdeviceptr p =
      d.gpu.memory().allocate(bytes, "graph allocation #" + std::to_string(++d.allocations));
  d.graphAllocations[p] = bytes;
  uint64_t total = 0;
  for (const auto& [address, size] : d.graphAllocations) total += size;
  d.graphMemoryHigh = std::max(d.graphMemoryHigh, total);
  return p;
}

void invalidateCapture(Driver& d, uint64_t id) {
  for (const auto& [p, st] : d.streams)
    if (st->capture && st->capture->id == id) st->capture->invalidated = true;
}

GraphNode* captureNode(Driver& d, CUstream s, CUgraphNodeType type) {
  checkStream(d, s);
  if (isLegacy(s)) {
    // The legacy stream synchronizes with every blocking stream, a capturing one too: CUDA
    // refuses such work while a capture of another than relaxed mode runs, and invalidates it.
    bool refused = false;
    for (const auto& [p, st] : d.streams)
      if (legacyWaitsFor(*st)) {
        invalidateCapture(d, st->capture->id);
        refused = true;
      }
    if (refused)
      throw ApiError{CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                     "work on the legacy default stream while another stream captures "
                     "(cudaStreamBeginCapture): use the capturing stream"};
    return nullptr;
  }
  Capture* c = captureOf(d, s);
  if (!c) return nullptr;
  if (c->invalidated)
    throw ApiError{CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                   "work on a stream whose capture was invalidated"};
  std::vector<CUgraphNode> deps;
  for (GraphNode* p : c->dependencies) deps.push_back(reinterpret_cast<CUgraphNode>(p));
  GraphNode* n = c->graph->add(type, deps.data(), deps.size());
  c->dependencies = {n};
  return n;
}

void synchronizeDuringCapture(Driver& d, CUstream s) {
  std::vector<uint64_t> hit;
  if (!s || isLegacy(s)) {  // cuCtxSynchronize and the legacy stream wait for the captures too
    for (const auto& [p, st] : d.streams)
      if (legacyWaitsFor(*st)) hit.push_back(st->capture->id);
  } else if (Capture* c = captureOf(d, s)) {
    hit.push_back(c->id);
  }
  for (uint64_t id : hit) invalidateCapture(d, id);
  if (!hit.empty())
    throw ApiError{CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                   "a synchronization waits for a stream that captures (nothing has run): the "
                   "capture is invalidated"};
}

void launchGraph(Driver& d, const GraphExec& e) {
  for (const auto& [address, c] : d.conditionals)
    if (c.graph == e.source && c.assignDefault) setConditionValue(d, address, c.defaultValue);
  runGraph(d, *e.graph);
}

void runGraph(Driver& d, const Graph& g) {
  for (const GraphNode* n : g.order()) runNode(d, *n);
}

}  // namespace warpsim::driver
