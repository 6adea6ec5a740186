// The C++ half of `import warpsim`: the module `warpsim._warpsim`. It compiles CUDA, loads PTX
// and launches with host memory standing for device arrays; the Python half (warpsim/*.py)
// types the arguments from the kernel's signature and wraps the results.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "harness/build_info.h"
#include "harness/json.h"
#include "harness/kernel_lookup.h"
#include "harness/nvcc.h"
#include "harness/report.h"
#include "isa/diagnostic.h"
#include "python/src/sim_module.h"

namespace py = pybind11;

namespace warpsim::python {

namespace {

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

// args: bytes for a scalar (already the parameter's size), a C-contiguous buffer (a numpy
// array) for an array. Returns the launch's outcome as plain Python values; statistics and
// faults as the JSON report names them (harness/report.cpp), parsed by the Python side.
py::dict launch(SimModule& m, const std::string& entry, const std::vector<uint32_t>& grid,
                const std::vector<uint32_t>& block, uint32_t shared, const py::list& args,
                unsigned threads, bool serial, std::optional<uint64_t> budget) {
  LaunchRequest r;
  r.entry = entry;
  r.grid = dim3(grid);
  r.block = dim3(block);
  r.dynamicShared = shared;
  r.options.threads = threads;
  r.options.serial = serial;
  if (budget) r.options.instructionBudget = *budget;
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
  sim::LaunchResult result;
  {
    py::gil_scoped_release unlocked;
    result = m.launch(r);
  }
  py::dict out;
  harness::Json stats;
  harness::statsJson(stats, result.stats);
  out["stats_json"] = stats.str();
  out["printf"] = result.printfOutput;
  out["seconds"] = result.seconds;
  out["ctas_run"] = result.ctasRun;
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
           py::arg("budget"));
}
