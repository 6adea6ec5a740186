#include "harness/ptxgen/isolate.h"

#include <cstring>
#include <set>

#include "harness/ptxgen/ptx_lines.h"

namespace warpsim::ptxgen {

std::optional<uint64_t> runIsolated(harness::Backend& backend, const std::string& insn,
                                    const std::vector<std::pair<std::string, uint64_t>>& operands,
                                    const std::string& reg) {
  const std::string body = lines::withoutGuard(insn);
  for (const char* no : {"ld.", "st.", "atom", "red.", "bra", "bar", "shfl", "vote", "match",
                         "redux", "activemask", "elect", "mov.u32 %r0,%ctaid"})
    if (body.rfind(no, 0) == 0) return std::nullopt;
  if (body.find('[') != std::string::npos || body.find('$') != std::string::npos)
    return std::nullopt;
  // Every register it names must be a pool register (sources are, destinations may not be).
  std::set<std::string> regs;
  for (const std::string& r : lines::registers(insn)) {
    if (!lines::isPoolRegister(r)) return std::nullopt;
    regs.insert(r);
  }
  std::string ptx =
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry isolated(.param .u64 pin, .param .u64 pout)\n{\n"
      ".reg .b16 %h<16>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<16>;\n"
      ".reg .f64 %fd<16>;\n.reg .pred %p<16>;\n.reg .b64 %ia,%ib;\n.reg .b32 %it;\n"
      "ld.param.u64 %ia,[pin];\nld.param.u64 %ib,[pout];\n"
      "cvta.to.global.u64 %ia,%ia;\ncvta.to.global.u64 %ib,%ib;\n";
  std::vector<uint64_t> in;
  unsigned k = 0;
  for (const std::string& r : regs) {
    uint64_t v = 0;
    for (const auto& [name, value] : operands)
      if (name == r) v = value;
    in.push_back(v);
    const std::string at = "[%ia+" + std::to_string(8 * k++) + "]";
    if (r.rfind("%p", 0) == 0)
      ptx += "ld.global.u32 %it," + at + ";\nsetp.ne.b32 " + r + ",%it,0;\n";
    else
      ptx += "ld.global." + lines::memoryType(r) + " " + r + "," + at + ";\n";
  }
  ptx += insn + "\n";
  if (reg.rfind("%p", 0) == 0)
    ptx += "selp.u32 %it,1,0," + reg + ";\nst.global.b32 [%ib],%it;\n";
  else
    ptx += "st.global." + lines::memoryType(reg) + " [%ib]," + reg + ";\n";
  ptx += "ret;\n}\n";
  try {
    backend.loadModule(ptx, "isolated.ptx");
    const uint64_t a = backend.allocate(8 * (in.size() + 1), "in");
    const uint64_t o = backend.allocate(8, "out");
    backend.copyIn(a, in.data(), 8 * in.size());
    const uint64_t zero = 0;
    backend.copyIn(o, &zero, 8);
    harness::LaunchSpec spec;
    spec.entry = "isolated";
    spec.grid = {1, 1, 1};
    spec.block = {1, 1, 1};
    auto u64 = [](uint64_t v) {
      std::vector<uint8_t> x(8);
      std::memcpy(x.data(), &v, 8);
      return x;
    };
    spec.args = {u64(a), u64(o)};
    const harness::LaunchOutcome r = backend.launch(spec);
    uint64_t out = 0;
    if (!r.fault) backend.copyOut(&out, o, 8);
    backend.free(a);
    backend.free(o);
    if (r.fault) return std::nullopt;
    return out;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace warpsim::ptxgen
