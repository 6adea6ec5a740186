// Streams and events. Every operation runs when it is enqueued, in program order: a valid
// schedule of CUDA's semantics (in order within a stream; nothing promised between streams
// beyond events), under which every stream is idle whenever the host looks. An event records
// the host time of its recording and, under --timing, the device timeline's predicted time
// (ProgramReport::modelSeconds): elapsed times are predicted times then, host times otherwise.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "harness/driver/internal.h"

using namespace warpsim::driver;

namespace {

Stream* streamOf(Driver& d, CUstream s) {
  checkStream(d, s);
  auto it = d.streams.find(reinterpret_cast<Stream*>(s));
  return it == d.streams.end() ? nullptr : it->second.get();
}

Event* eventOf(Driver& d, CUevent e) {
  auto it = d.events.find(reinterpret_cast<Event*>(e));
  if (it == d.events.end()) throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
  return it->second.get();
}

CUresult createStream(CUstream* s, unsigned flags, int priority) {
  return api([&](Driver& d) {
    requireContext(d);
    auto st = std::make_unique<Stream>();
    st->flags = flags;
    st->priority = std::max(-5, std::min(0, priority));
    st->id = d.nextStreamId++;
    *need(s) = reinterpret_cast<CUstream>(st.get());
    d.streams[st.get()] = std::move(st);
    return CUDA_SUCCESS;
  });
}

// Recording on a capturing stream marks the capture's position in the event, so that another
// stream's wait on it joins the capture (the fork-join pattern of multi-stream capture); only
// an external record (CU_EVENT_RECORD_EXTERNAL) becomes a node of the graph, as in CUDA.
CUresult record(CUevent e, CUstream s, unsigned flags = 0) {
  return api([&](Driver& d) {
    Event* ev = eventOf(d, e);
    checkStream(d, s);
    if (const Capture* c = captureOf(d, s)) {
      if (flags & CU_EVENT_RECORD_EXTERNAL)
        captureNode(d, s, CU_GRAPH_NODE_TYPE_EVENT_RECORD)->event = e;
      ev->capture = c->id;
      ev->captureGraph = c->graph;
      ev->captureNodes = c->dependencies;
      return CUDA_SUCCESS;
    }
    ev->capture = 0;
    recordEvent(d, e);
    return CUDA_SUCCESS;
  });
}

}  // namespace

namespace warpsim::driver {

void recordEvent(Driver& d, CUevent e) {
  Event* ev = eventOf(d, e);
  ev->recorded = std::chrono::steady_clock::now();
  ev->modelSeconds = d.report ? d.report->modelSeconds() : 0;
}

void checkStream(Driver& d, CUstream s) {
  if (s == nullptr || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD) return;
  if (!d.streams.count(reinterpret_cast<Stream*>(s))) throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
}

CUresult eventElapsedTimeV1(float* ms, CUevent start, CUevent end) {
  return api([&](Driver& d) {
    Event* a = eventOf(d, start);
    Event* b = eventOf(d, end);
    if (!a->recorded || !b->recorded) throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
    if ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING)
      throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
    *need(ms) = d.timing
                    ? float((b->modelSeconds - a->modelSeconds) * 1e3)
                    : std::chrono::duration<float, std::milli>(*b->recorded - *a->recorded).count();
    return CUDA_SUCCESS;
  });
}

}  // namespace warpsim::driver

extern "C" {

CUresult cuStreamCreate(CUstream* s, unsigned flags) { return createStream(s, flags, 0); }

CUresult cuStreamCreateWithPriority(CUstream* s, unsigned flags, int priority) {
  return createStream(s, flags, priority);
}

CUresult cuStreamDestroy(CUstream s) {
  return api(
      [&](Driver& d) {
        if (!d.streams.erase(reinterpret_cast<Stream*>(s)))
          throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
        std::erase_if(d.streamAttributes, [&](const auto& a) { return a.first.first == s; });
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuStreamSynchronize(CUstream s) {
  return api([&](Driver& d) {
    checkStream(d, s);
    synchronizeDuringCapture(d, s == nullptr ? CU_STREAM_LEGACY : s);
    return CUDA_SUCCESS;
  });
}

CUresult cuStreamQuery(CUstream s) {
  return api([&](Driver& d) {
    checkStream(d, s);
    synchronizeDuringCapture(d, s == nullptr ? CU_STREAM_LEGACY : s);
    return CUDA_SUCCESS;
  });
}

// Waiting on an event that a capture recorded: a stream that is not capturing joins that
// capture (it captures from then on, after the event's nodes); a capturing one adds them to
// its dependencies. Any other wait has nothing to wait for (all work has run).
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) {
  return api([&](Driver& d) {
    checkStream(d, s);
    Event* ev = eventOf(d, e);
    if (!ev->capture) return CUDA_SUCCESS;
    if (s == nullptr || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD)
      throw ApiError{CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                     "the default stream waits on an event recorded in a stream capture"};
    Stream* st = reinterpret_cast<Stream*>(s);
    if (!st->capture) {
      auto c = std::make_unique<Capture>();
      c->graph = ev->captureGraph;
      c->ownsGraph = false;
      c->id = ev->capture;
      c->joined = true;
      st->capture = std::move(c);
    } else if (st->capture->id != ev->capture) {
      throw ApiError{CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                     "a stream waits on an event of another stream capture"};
    }
    auto& deps = st->capture->dependencies;
    for (GraphNode* n : ev->captureNodes)
      if (std::find(deps.begin(), deps.end(), n) == deps.end()) deps.push_back(n);
    return CUDA_SUCCESS;
  });
}

// A host function, or a stream callback, runs now outside the driver's lock (it may not call
// CUDA, but it may take its own locks), or becomes a host node of a capture.
CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void* user) {
  bool captured = false;
  const CUresult status = api([&](Driver& d) {
    if (!fn) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    if (GraphNode* n = captureNode(d, s, CU_GRAPH_NODE_TYPE_HOST)) {
      n->host = fn;
      n->userData = user;
      captured = true;
    }
    return CUDA_SUCCESS;
  });
  if (status != CUDA_SUCCESS || captured) return status;
  fn(user);
  return CUDA_SUCCESS;
}

CUresult cuStreamAddCallback(CUstream s, CUstreamCallback callback, void* user, unsigned flags) {
  CUresult status = api([&](Driver& d) {
    checkStream(d, s);
    if (captureOf(d, s))
      throw ApiError{CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                     "cudaStreamAddCallback in a stream capture (use cudaLaunchHostFunc)"};
    return CUDA_SUCCESS;
  });
  if (status == CUDA_ERROR_INVALID_HANDLE || !callback) return CUDA_ERROR_INVALID_VALUE;
  if (status != CUDA_SUCCESS) return status;
  callback(s, status, user);
  return CUDA_SUCCESS;
}

CUresult cuStreamGetPriority(CUstream s, int* priority) {
  return api([&](Driver& d) {
    Stream* st = streamOf(d, s);
    *need(priority) = st ? st->priority : 0;
    return CUDA_SUCCESS;
  });
}

CUresult cuStreamGetFlags(CUstream s, unsigned* flags) {
  return api([&](Driver& d) {
    Stream* st = streamOf(d, s);
    *need(flags) = st ? st->flags : 0;
    return CUDA_SUCCESS;
  });
}

CUresult cuStreamGetId(CUstream s, unsigned long long* id) {
  return api([&](Driver& d) {
    Stream* st = streamOf(d, s);
    *need(id) = st ? st->id : 0;
    return CUDA_SUCCESS;
  });
}

CUresult cuStreamGetCtx(CUstream s, CUcontext* ctx) {
  return api([&](Driver& d) {
    streamOf(d, s);
    *need(ctx) = d.context();
    return CUDA_SUCCESS;
  });
}

CUresult cuStreamGetDevice(CUstream s, CUdevice* dev) {
  return api([&](Driver& d) {
    streamOf(d, s);
    *need(dev) = 0;
    return CUDA_SUCCESS;
  });
}

CUresult cuStreamGetAttribute(CUstream s, CUstreamAttrID id, CUstreamAttrValue* value) {
  return api([&](Driver& d) {
    checkStream(d, s);
    auto it = d.streamAttributes.find({s, int(id)});
    if (it != d.streamAttributes.end())
      *need(value) = it->second;
    else
      std::memset(need(value), 0, sizeof *value);
    return CUDA_SUCCESS;
  });
}

CUresult cuStreamSetAttribute(CUstream s, CUstreamAttrID id, const CUstreamAttrValue* value) {
  return api([&](Driver& d) {
    checkStream(d, s);
    d.streamAttributes[{s, int(id)}] = *need(value);
    return CUDA_SUCCESS;
  });
}

CUresult cuStreamCopyAttributes(CUstream dst, CUstream src) {
  return api([&](Driver& d) {
    checkStream(d, dst);
    checkStream(d, src);
    std::vector<std::pair<std::pair<CUstream, int>, CUstreamAttrValue>> copies;
    for (const auto& [key, v] : d.streamAttributes)
      if (key.first == src) copies.push_back({{dst, key.second}, v});
    for (const auto& [key, v] : copies) d.streamAttributes[key] = v;
    return CUDA_SUCCESS;
  });
}

CUresult cuEventCreate(CUevent* e, unsigned flags) {
  return api([&](Driver& d) {
    requireContext(d);
    auto ev = std::make_unique<Event>();
    ev->flags = flags;
    *need(e) = reinterpret_cast<CUevent>(ev.get());
    d.events[ev.get()] = std::move(ev);
    return CUDA_SUCCESS;
  });
}

CUresult cuEventDestroy(CUevent e) {
  return api(
      [&](Driver& d) {
        if (!d.events.erase(reinterpret_cast<Event*>(e)))
          throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuEventRecord(CUevent e, CUstream s) { return record(e, s); }

CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned flags) {
  return record(e, s, flags);
}

CUresult cuEventQuery(CUevent e) {
  return api([&](Driver& d) {
    eventOf(d, e);
    return CUDA_SUCCESS;
  });
}

CUresult cuEventSynchronize(CUevent e) {
  return api([&](Driver& d) {
    eventOf(d, e);
    return CUDA_SUCCESS;
  });
}

CUresult cuEventElapsedTime(float* ms, CUevent start, CUevent end) {
  return eventElapsedTimeV1(ms, start, end);
}

}  // extern "C"
