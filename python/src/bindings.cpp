// The C++ half of `import warpsim`: the module `warpsim._warpsim`. It compiles CUDA, loads PTX
// and launches with host memory standing for device arrays; the Python half (warpsim/*.py)
// types the arguments from the kernel's signature and wraps the results.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <future>

#include "harness/build_info.h"
#include "harness/check_report.h"
#include "harness/json.h"
#include "harness/kernel_lookup.h"
#include "harness/nvcc.h"
#include "harness/report.h"
#include "harness/timing_report.h"
#include "isa/diagnostic.h"
#include "python/src/sim_module.h"
#include "sim/check/session.h"
#include "sim/timing/config.h"
#include "sim/timing/timing_model.h"

namespace py = pybind11;

namespace warpsim::python {

namespace {

// Raised as Python's own KeyboardInterrupt, with where the kernel stood when Ctrl-C stopped it.
class KeyboardInterrupt : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

py::dict paramDict(const harness::KernelParam& p) {
  py::dict d;
  d["name"] = p.name;
  d["type"] = p.type;
  d["vec_width"] = p.vecWidth;
  d["bytes"] = p.bytes;
  d["is_array"] = p.isArray;
  d["ptr_space"] = p.ptrSpace;
  d["ptx_type"] = p.describe();
  return d;
}

py::list kernelList(const SimModule& m) {
  py::list out;
  for (const harness::KernelSignature& k : m.kernels()) {
    py::dict d;
    d["name"] = k.name;
    d["demangled"] = k.demangled;
    d["base_name"] = k.baseName;
    d["signature"] = k.describe();
    py::list params;
    for (const harness::KernelParam& p : k.params) params.append(paramDict(p));
    d["params"] = params;
    out.append(d);
  }
  return out;
}

sim::Dim3 dim3(const std::vector<uint32_t>& v) {
  return {v.size() > 0 ? v[0] : 1u, v.size() > 1 ? v[1] : 1u, v.size() > 2 ? v[2] : 1u};
}

// The checkers a launch runs: each name a tool ("memcheck", ...) or "all"; ValueError else.
check::ToolSet toolsNamed(const std::vector<std::string>& names) {
  check::ToolSet tools;
  for (const std::string& n : names) {
    const std::optional<check::ToolSet> t = check::ToolSet::parse(n);
    if (!t)
      throw py::value_error("check '" + n +
                            "': expected memcheck, racecheck, initcheck, synccheck or all");
    for (size_t i = 0; i < tools.on.size(); ++i) tools.on[i] = tools.on[i] || t->on[i];
  }
  return tools;
}

// Runs the launch on another thread while this one, the interpreter's, looks for Ctrl-C:
// Python runs its signal handlers only between bytecodes of the main thread, never while a
// C++ call holds it. A pending KeyboardInterrupt (or whatever the handler raised) stops the
// kernel through LaunchOptions::interrupt; it is returned, fetched, to be raised afterwards.
// Owns what PyErr_Fetch gave; dropped (with the GIL held) unless restore() hands it back.
struct PendingError {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PendingError() = default;
  PendingError(const PendingError&) = delete;
  PendingError& operator=(const PendingError&) = delete;
  ~PendingError() {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
  }
  void restore() {
    PyErr_Restore(type, value, traceback);
    type = value = traceback = nullptr;
  }
};

sim::LaunchResult launchWatchingSignals(SimModule& m, LaunchRequest& r, PendingError& pending) {
  std::atomic<bool> interrupt{false};
  r.options.interrupt = &interrupt;
  py::gil_scoped_release unlocked;
  std::future<sim::LaunchResult> done =
      std::async(std::launch::async, [&m, &r] { return m.launch(r); });
  while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
    if (interrupt.load()) continue;
    py::gil_scoped_acquire locked;
    if (PyErr_CheckSignals() != 0) {
      PyErr_Fetch(&pending.type, &pending.value, &pending.traceback);
      interrupt.store(true);
    }
  }
  return done.get();
}

// args: bytes for a scalar (already the parameter's size), a C-contiguous buffer (a numpy
// array) for an array. timing: None (no timing model), "" (the H200 defaults) or a JSON object
// of parameters over them; checks: the checkers to run (none when empty). Returns the launch's
// outcome as plain Python values; statistics, faults, timing and findings as the JSON reports
// name them (harness/report.cpp, timing_report.cpp, check_report.cpp), parsed by the Python side.
py::dict launch(SimModule& m, const std::string& entry, const std::vector<uint32_t>& grid,
                const std::vector<uint32_t>& block, uint32_t shared, const py::list& args,
                unsigned threads, bool serial, std::optional<uint64_t> budget,
                std::optional<double> timeLimit, std::optional<std::string> timing,
                const std::vector<std::string>& checks, uint64_t stackSize, uint64_t mallocHeapSize,
                const std::vector<uint32_t>& cluster, bool cooperative) {
  LaunchRequest r;
  r.entry = entry;
  r.grid = dim3(grid);
  r.block = dim3(block);
  r.dynamicShared = shared;
  if (!cluster.empty()) r.cluster = dim3(cluster);
  r.cooperative = cooperative;
  if (cooperative) {
    py::gil_scoped_release unlocked;  // ptxas runs once per module: registers decide the fit
    const auto& k = m.ptxasResources().kernels;
    if (auto it = k.find(entry); it != k.end()) r.registersPerThread = it->second.registers;
  }
  r.options.threads = threads;
  r.options.serial = serial;
  if (budget) r.options.instructionBudget = *budget;
  if (timeLimit) r.options.timeLimit = *timeLimit;
  std::optional<sim::timing::TimingModel> model;
  if (timing) {
    model.emplace(timing->empty() ? sim::timing::TimingConfig{}
                                  : sim::timing::parseTimingConfig(*timing, "timing"));
    const harness::PtxasResources* resources;
    {
      py::gil_scoped_release unlocked;  // ptxas runs once per module
      resources = &m.ptxasResources();
    }
    model->setFallbackNote(resources->error);
    for (const auto& [name, res] : resources->kernels) model->setResources(name, res);
    r.options.runner = &*model;
  }
  std::optional<check::CheckSession> session;
  if (!checks.empty()) {
    session.emplace(toolsNamed(checks));
    r.options.observers = session->factories();
    r.options.recoverInvalidAccess = true;
  }
  r.options.stackSize = stackSize;
  r.options.mallocHeapSize = mallocHeapSize;
  std::vector<py::buffer_info> held;  // keeps the arrays' memory alive through the launch
  held.reserve(args.size());
  for (const py::handle a : args) {
    HostArg h;
    if (py::isinstance<py::bytes>(a)) {
      const std::string s = a.cast<std::string>();
      h.scalar.assign(s.begin(), s.end());
    } else {
      held.push_back(a.cast<py::buffer>().request());
      const py::buffer_info& info = held.back();
      h.isArray = true;
      h.data = info.ptr;
      h.bytes = uint64_t(info.size) * uint64_t(info.itemsize);
      h.writable = !info.readonly;
    }
    r.args.push_back(std::move(h));
  }
  PendingError pending;
  sim::LaunchResult result;
  try {
    result = launchWatchingSignals(m, r, pending);
  } catch (const sim::timing::ConfigError& e) {
    throw sim::LaunchError(e.what());  // a CTA that fits on no SM
  }
  if (pending.type) {
    if (PyErr_GivenExceptionMatches(pending.type, PyExc_KeyboardInterrupt) && result.fault)
      throw KeyboardInterrupt(result.fault->describe(m.path()));
    pending.restore();
    throw py::error_already_set();
  }
  py::dict out;
  harness::Json stats;
  harness::statsJson(stats, result.stats);
  out["stats_json"] = stats.str();
  out["printf"] = result.printfOutput;
  out["seconds"] = result.seconds;
  out["ctas_run"] = result.ctasRun;
  out["timing"] = py::none();
  if (model && model->lastReport()) {
    harness::Json tj;
    harness::timingJson(tj, *model->lastReport());
    py::dict t;
    t["json"] = tj.str();
    t["text"] = harness::formatTiming(*model->lastReport());
    out["timing"] = t;
  }
  out["checks"] = py::none();
  if (session) {
    session->finish();
    harness::SourceLines src;
    harness::Json cj;
    harness::findingsJson(cj, *session, 0, src);
    py::dict c;
    c["json"] = cj.str();
    c["text"] = harness::formatFindings(*session, 0, src);
    c["errors"] = harness::totalErrors(*session);
    out["checks"] = c;
  }
  if (result.fault) {
    const sim::FaultInfo& f = *result.fault;
    harness::Json fj;
    harness::faultJson(fj, f, m.path());
    py::dict fault;
    fault["json"] = fj.str();
    fault["text"] = f.describe(m.path());
    fault["lane"] = f.lane;
    fault["warp"] = f.warp;
    out["fault"] = fault;
  } else {
    out["fault"] = py::none();
  }
  return out;
}

std::string compileCuda(const std::string& source, const std::string& name,
                        const std::vector<std::string>& options) {
  py::gil_scoped_release unlocked;
  return harness::compileCudaSourceToPtx(source, name, options);
}

std::string compileCudaFile(const std::string& path, const std::vector<std::string>& options) {
  py::gil_scoped_release unlocked;
  return harness::compileCudaToPtx(path, options);
}

}  // namespace

}  // namespace warpsim::python

PYBIND11_MODULE(_warpsim, m) {
  using namespace warpsim;
  using namespace warpsim::python;
  m.doc() = "warpsim's simulator, for the warpsim package (use `import warpsim`)";
  // Translators run newest first: the most specific error is registered last.
  py::register_exception<isa::PtxError>(m, "PtxError", PyExc_ValueError);
  py::register_exception<sim::LaunchError>(m, "LaunchError", PyExc_ValueError);
  py::register_exception<sim::OutOfDeviceMemory>(m, "OutOfDeviceMemory", PyExc_MemoryError);
  py::register_exception<harness::ToolError>(m, "CompileError", PyExc_RuntimeError);
  py::register_exception<harness::KernelLookupError>(m, "KernelNotFound", PyExc_LookupError);
  py::register_exception<sim::timing::ConfigError>(m, "TimingConfigError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const KeyboardInterrupt& e) {
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    }
  });
  m.attr("git_commit") = build::kGitCommit;
  m.attr("cuda_version") = build::kCudaVersion;
  m.attr("default_device_memory") = sim::kDefaultDeviceMemoryBytes;
  m.def("compile_cuda", &compileCuda, py::arg("source"), py::arg("name"), py::arg("options"),
        "CUDA source -> PTX with nvcc -ptx -lineinfo -arch=sm_90 OPTIONS...");
  m.def("demangle", &harness::demangle, py::arg("name"), "a mangled C++ name, demangled");
  m.def("compile_cuda_file", &compileCudaFile, py::arg("path"), py::arg("options"),
        "a .cu file -> PTX, compiled where it is (its #includes resolve as they would)");
  py::class_<SimModule>(m, "SimModule")
      .def(py::init<const std::string&, const std::string&, uint64_t, bool>(), py::arg("ptx"),
           py::arg("path"), py::arg("device_memory"), py::arg("contract") = true)
      .def_property_readonly("path", &SimModule::path)
      .def_property_readonly("ptx", &SimModule::ptx)
      .def_property_readonly("kernels", &kernelList)
      .def("find", &SimModule::find, py::arg("name"))
      .def_property_readonly("variables",
                             [](const SimModule& s) {
                               py::dict d;
                               for (const auto& [name, span] : s.variables())
                                 d[py::str(name)] = span.second;
                               return d;
                             })
      .def("read_variable",
           [](SimModule& s, const std::string& name) {
             const std::vector<uint8_t> b = s.readVariable(name);
             return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
           })
      .def("write_variable",
           [](SimModule& s, const std::string& name, const py::bytes& data) {
             const std::string b = data;
             s.writeVariable(name, b.data(), b.size());
           })
      .def("launch", &launch, py::arg("entry"), py::arg("grid"), py::arg("block"),
           py::arg("shared"), py::arg("args"), py::arg("threads"), py::arg("serial"),
           py::arg("budget"), py::arg("time_limit") = py::none(), py::arg("timing") = py::none(),
           py::arg("checks") = std::vector<std::string>{}, py::arg("stack_size") = 1024,
           py::arg("malloc_heap_size") = uint64_t(8) << 20,
           py::arg("cluster") = std::vector<uint32_t>{}, py::arg("cooperative") = false);
}
