#include "isa/support.h"

#include <tuple>
#include <vector>

#include "isa/insns/families.h"

namespace warpsim::isa {

std::pair<std::string, std::string> splitCudaPlace(const std::string& message) {
  // " at k.cu:7" (the user's line, which lowering appends) names a place, not the construct.
  const size_t at = message.rfind(" at ");
  if (at != std::string::npos && message.find(':', at) != std::string::npos &&
      message.find(' ', at + 4) == std::string::npos)
    return {message.substr(0, at), message.substr(at + 4)};
  return {message, ""};
}

namespace {

std::string withoutPrefix(std::string m) {
  const std::string prefix = "not supported yet: ";
  if (m.rfind(prefix, 0) == 0) m.erase(0, prefix.size());
  return m;
}

}  // namespace

std::string constructKey(const std::string& message) {
  const std::string m = withoutPrefix(splitCudaPlace(message).first);
  std::string out;
  for (size_t i = 0; i < m.size(); ++i) {
    const size_t end = m[i] == '\'' ? m.find('\'', i + 1) : std::string::npos;
    if (end != std::string::npos) {
      out += "'…'";
      i = end;
    } else {
      out += m[i];
    }
  }
  return out;
}

namespace {

// "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" -> "wgmma"; a call keeps its words:
// "call to external function" (the function's name is the user's, not the construct).
std::string opcodeKey(const Inst& in) {
  const std::string head = in.text.substr(0, in.text.find_first_of(". "));
  if (head == "call") return "call to external function";
  return head;
}

// The construct with its names: the whole opcode, or the external function a call names, as
// its fault does ("call.uni cudaStreamCreate" -> "call to external function cudaStreamCreate").
std::string opcodeDetail(const Inst& in) {
  const size_t space = in.text.find(' ');
  if (opcodeKey(in) != "call to external function" || space == std::string::npos) return in.text;
  return opcodeKey(in) + " " + in.text.substr(space + 1);
}

}  // namespace

KernelSupport kernelSupport(const Program& p, int entry) {
  KernelSupport s;
  if (std::unique_ptr<PtxError> err = p.buildError(entry)) {
    s.status = KernelStatus::DoesNotLoad;
    s.message = err->what();
    s.file = err->file();
    s.ptxLine = err->line();
    s.ptxCol = err->col();
    // "kernel 'k' cannot run[: it calls 'f']: <what>": the construct is <what>.
    const std::string m = err->message();
    const size_t colon = m.rfind(" cannot run");
    std::string what = m;
    if (colon != std::string::npos) {
      what = m.substr(m.find(": ", colon) + 2);
      if (what.rfind("it calls '", 0) == 0) what = what.substr(what.find(": ") + 2);
    }
    s.construct = constructKey(what);
    std::tie(s.detail, s.cudaPlace) = splitCudaPlace(what);
    s.detail = withoutPrefix(s.detail);
    return s;
  }
  std::vector<int> queue{entry};
  std::vector<bool> seen(p.functions.size(), false);
  seen[size_t(entry)] = true;
  for (size_t i = 0; i < queue.size(); ++i) {
    const FunctionCode& f = p.functions[size_t(queue[i])];
    for (const Inst& in : f.code) {
      if (insns::reportsNotSupported(in.run)) {
        s.status = KernelStatus::Unsupported;
        s.construct = opcodeKey(in);
        s.detail = opcodeDetail(in);
        s.message = "not supported yet: " + in.text;
        s.ptxLine = in.ptxLine;
        s.ptxCol = in.ptxCol;
        if (p.module) s.cudaPlace = p.module->cudaPlace(in.cuda);
        return s;
      }
      for (int32_t c : calleesOf(f, in))
        if (!seen[size_t(c)]) {
          seen[size_t(c)] = true;
          queue.push_back(c);
        }
    }
  }
  return s;
}

}  // namespace warpsim::isa
