// The CUDA graph entry points (cuGraph*, stream capture): graph.h says how graphs run.
#include <algorithm>
#include <cstring>

#include "harness/driver/internal.h"

using namespace warpsim::driver;

namespace {

// cuThreadExchangeStreamCaptureMode's per-thread mode (CUDA's own state is per thread too).
thread_local CUstreamCaptureMode tlsCaptureMode = CU_STREAM_CAPTURE_MODE_GLOBAL;

GraphNode* nodeOf(CUgraphNode n) {
  if (!n) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  return reinterpret_cast<GraphNode*>(n);
}

GraphExec* execOf(Driver& d, CUgraphExec e) {
  auto it = d.graphExecs.find(reinterpret_cast<GraphExec*>(e));
  if (it == d.graphExecs.end()) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  return it->second.get();
}

void forgetBodies(Driver& d, const Graph& g) {
  for (const auto& n : g.nodes)
    for (const auto& b : n->bodies) {
      d.bodyGraphs.erase(b.get());
      forgetBodies(d, *b);
    }
}

// Frees a graph the program owns, with its bodies and conditional handles.
void dropGraph(Driver& d, Graph* g) {
  forgetBodies(d, *g);
  for (auto c = d.conditionals.begin(); c != d.conditionals.end();) {
    if (c->second.graph != g) {
      ++c;
      continue;
    }
    d.gpu.memory().free(c->first);
    c = d.conditionals.erase(c);
  }
  d.graphs.erase(g);
}

// A body graph of node n (child-graph or conditional), which the program may build into.
Graph* addBody(Driver& d, GraphNode& n, std::unique_ptr<Graph> body) {
  body->owner = &n;
  n.bodies.push_back(std::move(body));
  Graph* g = n.bodies.back().get();
  d.bodyGraphs.insert(g);
  std::vector<const Graph*> inner{g};
  for (size_t i = 0; i < inner.size(); ++i)  // a cloned child graph's own bodies
    for (const auto& m : inner[i]->nodes)
      for (const auto& b : m->bodies) {
        d.bodyGraphs.insert(b.get());
        inner.push_back(b.get());
      }
  return g;
}

// Adds a node of `type` to graph g after `deps`; the caller fills in what it does.
template <class Fill>
CUresult addNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                 CUgraphNodeType type, Fill&& fill) {
  return api([&](Driver& d) {
    requireContext(d);
    GraphNode* n = d.checkGraph(g)->add(type, deps, count);
    try {
      fill(d, *n);
    } catch (...) {
      n->graph->nodes.pop_back();
      throw;
    }
    *need(out) = reinterpret_cast<CUgraphNode>(n);
    return CUDA_SUCCESS;
  });
}

void setKernel(Driver& d, GraphNode& n, const CUDA_KERNEL_NODE_PARAMS_v1& p) {
  Function* f = d.checkFunction(p.func);
  n.function = f;
  n.params = d.packParams(f, p.kernelParams, p.extra);
  n.grid[0] = p.gridDimX, n.grid[1] = p.gridDimY, n.grid[2] = p.gridDimZ;
  n.block[0] = p.blockDimX, n.block[1] = p.blockDimY, n.block[2] = p.blockDimZ;
  n.shared = p.sharedMemBytes;
}

// CUDA_KERNEL_NODE_PARAMS v2/v3 begin with v1's fields and add the CUkernel (used when func is
// null; a CUkernel is a CUfunction here) and the context.
template <class P>
void setKernelV2(Driver& d, GraphNode& n, const P& p) {
  CUDA_KERNEL_NODE_PARAMS_v1 v1{};
  std::memcpy(&v1, &p, sizeof v1);
  if (!v1.func) v1.func = reinterpret_cast<CUfunction>(p.kern);
  setKernel(d, n, v1);
}

void setParams(Driver& d, GraphNode& n, CUgraphNodeParams& p) {
  switch (p.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
      setKernelV2(d, n, p.kernel);
      return;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      n.copy = p.memcpy.copyParams;
      return;
    case CU_GRAPH_NODE_TYPE_MEMSET:
      n.fill = {p.memset.dst,         p.memset.pitch, p.memset.value,
                p.memset.elementSize, p.memset.width, p.memset.height};
      return;
    case CU_GRAPH_NODE_TYPE_HOST:
      n.host = p.host.fn;
      n.userData = p.host.userData;
      return;
    case CU_GRAPH_NODE_TYPE_GRAPH:
      addBody(d, n, cloneGraph(*d.checkGraph(p.graph.graph)));
      return;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      n.event = p.eventRecord.event;
      return;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
      n.event = p.eventWait.event;
      return;
    case CU_GRAPH_NODE_TYPE_EMPTY:
      return;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
      if (p.alloc.poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        throw ApiError{CUDA_ERROR_NOT_SUPPORTED, "graph allocations on the device only"};
      n.allocation = p.alloc.dptr = allocateForGraph(d, p.alloc.bytesize);
      n.allocationBytes = p.alloc.bytesize;
      return;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
      if (!d.graphAllocations.count(p.free.dptr))
        throw ApiError{CUDA_ERROR_INVALID_VALUE, "a free node of memory no graph allocated"};
      n.allocation = p.free.dptr;
      return;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
      auto& c = p.conditional;
      if (!d.conditionals.count(c.handle))
        throw ApiError{CUDA_ERROR_INVALID_VALUE, "a conditional node with an unknown handle"};
      const bool sizeOk = c.type == CU_GRAPH_COND_TYPE_WHILE    ? c.size == 1
                          : c.type == CU_GRAPH_COND_TYPE_IF     ? c.size == 1 || c.size == 2
                          : c.type == CU_GRAPH_COND_TYPE_SWITCH ? c.size >= 1
                                                                : false;
      if (!sizeOk)
        throw ApiError{CUDA_ERROR_INVALID_VALUE, "a conditional node's type or size is invalid"};
      n.handle = c.handle;
      n.conditional = c.type;
      for (unsigned i = 0; i < c.size; ++i)
        n.bodyHandles.push_back(
            reinterpret_cast<CUgraph>(addBody(d, n, std::make_unique<Graph>())));
      c.phGraph_out = n.bodyHandles.data();  // the driver's array, valid while the node lives
      return;
    }
    default:
      throw ApiError{CUDA_ERROR_NOT_SUPPORTED,
                     "graph nodes of type " + std::to_string(int(p.type)) +
                         " (external semaphores, batch memory operations) "
                         "are not supported yet"};
  }
}

CUresult instantiate(CUgraphExec* out, CUgraph g) {
  return api([&](Driver& d) {
    const Graph* source = d.checkGraph(g);
    source->order();  // a cycle is refused here, as CUDA does
    auto e = std::make_unique<GraphExec>();
    e->graph = cloneGraph(*source);
    e->source = source;
    *need(out) = reinterpret_cast<CUgraphExec>(e.get());
    d.graphExecs[e.get()] = std::move(e);
    return CUDA_SUCCESS;
  });
}

Stream* capturable(Driver& d, CUstream s) {
  checkStream(d, s);
  if (s == nullptr || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD)
    throw ApiError{CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                   "the default stream cannot be captured: capture a stream you created"};
  return reinterpret_cast<Stream*>(s);
}

CUresult beginCapture(CUstream s, Graph* into, const CUgraphNode* deps, size_t count,
                      CUstreamCaptureMode mode) {
  return api([&](Driver& d) {
    Stream* st = capturable(d, s);
    if (st->capture) throw ApiError{CUDA_ERROR_ILLEGAL_STATE, "the stream is capturing already"};
    auto c = std::make_unique<Capture>();
    if (into) {
      c->graph = d.checkGraph(reinterpret_cast<CUgraph>(into));
      c->ownsGraph = false;
      for (size_t i = 0; i < count; ++i) {
        GraphNode* n = nodeOf(deps[i]);
        if (!c->graph->holds(n)) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        c->dependencies.push_back(n);
      }
    } else {
      auto g = std::make_unique<Graph>();
      c->graph = g.get();
      d.graphs[g.get()] = std::move(g);
    }
    c->mode = mode;
    c->id = d.nextCaptureId++;
    st->capture = std::move(c);
    return CUDA_SUCCESS;
  });
}

CUresult captureInfo(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                     const CUgraphNode** deps, const CUgraphEdgeData** edges, size_t* count) {
  return api([&](Driver& d) {
    checkStream(d, s);
    const Capture* c = captureOf(d, s);
    *need(status) = !c               ? CU_STREAM_CAPTURE_STATUS_NONE
                    : c->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                                     : CU_STREAM_CAPTURE_STATUS_ACTIVE;
    if (id && c) *id = c->id;
    if (graph) *graph = c ? reinterpret_cast<CUgraph>(c->graph) : nullptr;
    if (deps)
      *deps = c && !c->dependencies.empty()
                  ? reinterpret_cast<const CUgraphNode*>(c->dependencies.data())
                  : nullptr;
    if (edges) *edges = nullptr;  // every edge is a default one
    if (count) *count = c ? c->dependencies.size() : 0;
    return CUDA_SUCCESS;
  });
}

CUresult updateDependencies(CUstream s, CUgraphNode* deps, size_t count, unsigned flags) {
  return api([&](Driver& d) {
    checkStream(d, s);
    Capture* c = captureOf(d, s);
    if (!c) throw ApiError{CUDA_ERROR_ILLEGAL_STATE, "the stream is not capturing"};
    if (count && !deps) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    std::vector<GraphNode*> next;
    if (flags == CU_STREAM_ADD_CAPTURE_DEPENDENCIES)
      next = c->dependencies;
    else if (flags != CU_STREAM_SET_CAPTURE_DEPENDENCIES)
      throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    for (size_t i = 0; i < count; ++i) {
      GraphNode* n = nodeOf(deps[i]);
      if (!c->graph->holds(n)) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
      if (std::find(next.begin(), next.end(), n) == next.end()) next.push_back(n);
    }
    c->dependencies = std::move(next);
    return CUDA_SUCCESS;
  });
}

CUresult graphNodes(CUgraph g, CUgraphNode* nodes, size_t* count, bool rootsOnly) {
  return api([&](Driver& d) {
    const Graph* graph = d.checkGraph(g);
    size_t n = 0;
    for (const auto& node : graph->nodes) {
      if (rootsOnly && !node->dependencies.empty()) continue;
      if (nodes && n < *need(count)) nodes[n] = reinterpret_cast<CUgraphNode>(node.get());
      ++n;
    }
    *need(count) = n;
    return CUDA_SUCCESS;
  });
}

}  // namespace

namespace warpsim::driver {

Graph* Driver::checkGraph(CUgraph g) {
  auto* graph = reinterpret_cast<Graph*>(g);
  if (!g || (!graphs.count(graph) && !bodyGraphs.count(graph)))
    throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  return graph;
}

// The older ABI versions the runtime may still ask cuGetProcAddress for.
CUresult graphAddKernelNodeV1(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                              const CUDA_KERNEL_NODE_PARAMS_v1* p) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_KERNEL,
                 [&](Driver& d, GraphNode& n) { setKernel(d, n, *need(p)); });
}

CUresult graphAddDependenciesV1(CUgraph g, const CUgraphNode* from, const CUgraphNode* to,
                                size_t count) {
  return cuGraphAddDependencies(g, from, to, nullptr, count);
}

CUresult graphAddNodeV1(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                        CUgraphNodeParams* p) {
  return addNode(out, g, deps, count, need(p)->type,
                 [&](Driver& d, GraphNode& n) { setParams(d, n, *p); });
}

CUresult streamGetCaptureInfoV1(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id) {
  return captureInfo(s, status, id, nullptr, nullptr, nullptr, nullptr);
}

CUresult streamGetCaptureInfoV2(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id,
                                CUgraph* graph, const CUgraphNode** deps, size_t* count) {
  return captureInfo(s, status, id, graph, deps, nullptr, count);
}

CUresult streamUpdateCaptureDependenciesV1(CUstream s, CUgraphNode* deps, size_t count,
                                           unsigned flags) {
  return updateDependencies(s, deps, count, flags);
}

}  // namespace warpsim::driver

extern "C" {

CUresult cuGraphCreate(CUgraph* out, unsigned flags) {
  return api([&](Driver& d) {
    requireContext(d);
    if (flags) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    auto g = std::make_unique<Graph>();
    *need(out) = reinterpret_cast<CUgraph>(g.get());
    d.graphs[g.get()] = std::move(g);
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphDestroy(CUgraph g) {
  return api([&](Driver& d) {
    if (!d.graphs.count(reinterpret_cast<Graph*>(g))) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    dropGraph(d, reinterpret_cast<Graph*>(g));
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphClone(CUgraph* out, CUgraph original) {
  return api([&](Driver& d) {
    auto g = cloneGraph(*d.checkGraph(original));
    *need(out) = reinterpret_cast<CUgraph>(g.get());
    d.graphs[g.get()] = std::move(g);
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphAddKernelNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                              const CUDA_KERNEL_NODE_PARAMS* p) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_KERNEL,
                 [&](Driver& d, GraphNode& n) { setKernelV2(d, n, *need(p)); });
}

CUresult cuGraphAddMemcpyNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                              const CUDA_MEMCPY3D* p, CUcontext) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_MEMCPY,
                 [&](Driver&, GraphNode& n) { n.copy = *need(p); });
}

CUresult cuGraphAddMemsetNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                              const CUDA_MEMSET_NODE_PARAMS* p, CUcontext) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_MEMSET, [&](Driver&, GraphNode& n) {
    const unsigned e = need(p)->elementSize;
    if ((e != 1 && e != 2 && e != 4) || p->dst % e) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    n.fill = *p;
  });
}

CUresult cuGraphAddMemAllocNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                                CUDA_MEM_ALLOC_NODE_PARAMS* p) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_MEM_ALLOC, [&](Driver& d, GraphNode& n) {
    if (need(p)->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE)
      throw ApiError{CUDA_ERROR_NOT_SUPPORTED, "graph allocations on the device only"};
    n.allocation = p->dptr = allocateForGraph(d, p->bytesize);
    n.allocationBytes = p->bytesize;
  });
}

CUresult cuGraphAddMemFreeNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                               CUdeviceptr dptr) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_MEM_FREE, [&](Driver& d, GraphNode& n) {
    if (!d.graphAllocations.count(dptr))
      throw ApiError{CUDA_ERROR_INVALID_VALUE, "a free node of memory no graph allocated"};
    n.allocation = dptr;
  });
}

// The graph memory pool keeps what graphs allocated (graph.h): nothing to give back.
CUresult cuDeviceGraphMemTrim(CUdevice dev) {
  return api([&](Driver& d) {
    requireContext(d);
    if (dev != 0) throw ApiError{CUDA_ERROR_INVALID_DEVICE, ""};
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphAddHostNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                            const CUDA_HOST_NODE_PARAMS* p) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_HOST, [&](Driver&, GraphNode& n) {
    if (!need(p)->fn) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    n.host = p->fn;
    n.userData = p->userData;
  });
}

CUresult cuGraphAddEmptyNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_EMPTY, [](Driver&, GraphNode&) {});
}

CUresult cuGraphAddChildGraphNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps,
                                  size_t count, CUgraph child) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_GRAPH,
                 [&](Driver& d, GraphNode& n) { addBody(d, n, cloneGraph(*d.checkGraph(child))); });
}

CUresult cuGraphAddEventRecordNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps,
                                   size_t count, CUevent e) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_EVENT_RECORD,
                 [&](Driver&, GraphNode& n) { n.event = e; });
}

CUresult cuGraphAddEventWaitNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                                 CUevent e) {
  return addNode(out, g, deps, count, CU_GRAPH_NODE_TYPE_WAIT_EVENT,
                 [&](Driver&, GraphNode& n) { n.event = e; });
}

CUresult cuGraphAddNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps,
                        const CUgraphEdgeData* edges, size_t count, CUgraphNodeParams* p) {
  for (size_t i = 0; edges && i < count; ++i)
    if (edges[i].type != CU_GRAPH_DEPENDENCY_TYPE_DEFAULT || edges[i].from_port || edges[i].to_port)
      return CUDA_ERROR_NOT_SUPPORTED;  // programmatic edges: not modelled
  return graphAddNodeV1(out, g, deps, count, p);
}

CUresult cuGraphAddDependencies(CUgraph g, const CUgraphNode* from, const CUgraphNode* to,
                                const CUgraphEdgeData* edges, size_t count) {
  return api([&](Driver& d) {
    Graph* graph = d.checkGraph(g);
    for (size_t i = 0; i < count; ++i) {
      GraphNode* a = nodeOf(need(from)[i]);
      GraphNode* b = nodeOf(need(to)[i]);
      if (!graph->holds(a) || !graph->holds(b) || a == b)
        throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
      if (std::find(b->dependencies.begin(), b->dependencies.end(), a) == b->dependencies.end())
        b->dependencies.push_back(a);
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle* out, CUgraph g, CUcontext,
                                        unsigned defaultValue, unsigned flags) {
  return api([&](Driver& d) {
    requireContext(d);
    ConditionalHandle c;
    c.graph = d.checkGraph(g);
    c.defaultValue = defaultValue;
    c.assignDefault = flags & CU_GRAPH_COND_ASSIGN_DEFAULT;
    const uint64_t address = d.gpu.memory().allocate(4, "a conditional graph node's value");
    std::memcpy(d.resolve(address, 4), &defaultValue, 4);
    d.conditionals[address] = c;
    *need(out) = address;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphNodeGetType(CUgraphNode n, CUgraphNodeType* type) {
  return api([&](Driver&) {
    *need(type) = nodeOf(n)->type;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphGetNodes(CUgraph g, CUgraphNode* nodes, size_t* count) {
  return graphNodes(g, nodes, count, false);
}

CUresult cuGraphGetRootNodes(CUgraph g, CUgraphNode* nodes, size_t* count) {
  return graphNodes(g, nodes, count, true);
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec* out, CUgraph g, unsigned long long) {
  return instantiate(out, g);
}

CUresult cuGraphInstantiateWithParams(CUgraphExec* out, CUgraph g,
                                      CUDA_GRAPH_INSTANTIATE_PARAMS* p) {
  const CUresult r = instantiate(out, g);
  if (p) {
    p->hErrNode_out = nullptr;
    p->result_out =
        r == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS : CUDA_GRAPH_INSTANTIATE_ERROR;
  }
  return r;
}

CUresult cuGraphExecDestroy(CUgraphExec e) {
  return api([&](Driver& d) {
    d.graphExecs.erase(execOf(d, e));
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphUpload(CUgraphExec e, CUstream s) {
  return api([&](Driver& d) {
    execOf(d, e);
    checkStream(d, s);
    return CUDA_SUCCESS;
  });
}

// A launch on a capturing stream becomes a child-graph node of the capture.
CUresult cuGraphLaunch(CUgraphExec e, CUstream s) {
  return api([&](Driver& d) {
    GraphExec* exec = execOf(d, e);
    if (GraphNode* n = captureNode(d, s, CU_GRAPH_NODE_TYPE_GRAPH))
      addBody(d, *n, cloneGraph(*exec->graph));
    else
      launchGraph(d, *exec);
    return CUDA_SUCCESS;
  });
}

// Takes the updated graph's nodes when its topology is the instantiated one's (same node
// types in the same order, same edges).
CUresult cuGraphExecUpdate(CUgraphExec e, CUgraph g, CUgraphExecUpdateResultInfo* info) {
  return api([&](Driver& d) {
    GraphExec* exec = execOf(d, e);
    const Graph* graph = d.checkGraph(g);
    auto next = cloneGraph(*graph);
    bool same = next->nodes.size() == exec->graph->nodes.size();
    for (size_t i = 0; same && i < next->nodes.size(); ++i)
      same = next->nodes[i]->type == exec->graph->nodes[i]->type &&
             next->nodes[i]->dependencies.size() == exec->graph->nodes[i]->dependencies.size();
    if (info) {
      std::memset(info, 0, sizeof *info);
      info->result =
          same ? CU_GRAPH_EXEC_UPDATE_SUCCESS : CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
    }
    if (!same) throw ApiError{CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, ""};
    exec->graph = std::move(next);
    exec->source = graph;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphKernelNodeSetParams(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS* p) {
  return api([&](Driver& d) {
    GraphNode* node = nodeOf(n);
    if (node->type != CU_GRAPH_NODE_TYPE_KERNEL) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    setKernelV2(d, *node, *need(p));
    return CUDA_SUCCESS;
  });
}

// The instantiated copy of node n: the node at n's position in the copy of n's graph.
CUresult cuGraphExecKernelNodeSetParams(CUgraphExec e, CUgraphNode n,
                                        const CUDA_KERNEL_NODE_PARAMS* p) {
  return api([&](Driver& d) {
    GraphExec* exec = execOf(d, e);
    const GraphNode* node = nodeOf(n);
    if (node->graph != exec->source) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    const auto& src = exec->source->nodes;
    const size_t i = size_t(
        std::find_if(src.begin(), src.end(), [&](const auto& m) { return m.get() == node; }) -
        src.begin());
    if (i >= exec->graph->nodes.size() || exec->graph->nodes[i]->type != CU_GRAPH_NODE_TYPE_KERNEL)
      throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    setKernelV2(d, *exec->graph->nodes[i], *need(p));
    return CUDA_SUCCESS;
  });
}

CUresult cuStreamBeginCapture(CUstream s, CUstreamCaptureMode mode) {
  return beginCapture(s, nullptr, nullptr, 0, mode);
}

CUresult cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode* deps,
                                     const CUgraphEdgeData*, size_t count,
                                     CUstreamCaptureMode mode) {
  if (!g) return CUDA_ERROR_INVALID_VALUE;
  return beginCapture(s, reinterpret_cast<Graph*>(g), deps, count, mode);
}

// Ends the capture begun on s: every stream that joined it ends too.
CUresult cuStreamEndCapture(CUstream s, CUgraph* out) {
  return api([&](Driver& d) {
    Stream* st = capturable(d, s);
    if (!st->capture || st->capture->joined)
      throw ApiError{CUDA_ERROR_ILLEGAL_STATE,
                     "cudaStreamEndCapture on a stream that did not begin a capture"};
    const Capture c = *st->capture;
    for (auto& [p, other] : d.streams)
      if (other->capture && other->capture->id == c.id) other->capture.reset();
    if (out) *out = c.invalidated ? nullptr : reinterpret_cast<CUgraph>(c.graph);
    if (!c.invalidated) return CUDA_SUCCESS;
    if (c.ownsGraph) dropGraph(d, c.graph);
    throw ApiError{CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                   "the stream capture was invalidated by an operation CUDA forbids in it"};
  });
}

CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus* status) {
  return captureInfo(s, status, nullptr, nullptr, nullptr, nullptr, nullptr);
}

CUresult cuStreamGetCaptureInfo(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id,
                                CUgraph* graph, const CUgraphNode** deps,
                                const CUgraphEdgeData** edges, size_t* count) {
  return captureInfo(s, status, id, graph, deps, edges, count);
}

CUresult cuStreamUpdateCaptureDependencies(CUstream s, CUgraphNode* deps, const CUgraphEdgeData*,
                                           size_t count, unsigned flags) {
  return updateDependencies(s, deps, count, flags);
}

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode) {
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  std::swap(*mode, tlsCaptureMode);
  return CUDA_SUCCESS;
}

}  // extern "C"
