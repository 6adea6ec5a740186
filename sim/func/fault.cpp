#include "sim/func/fault.h"

#include <cstdio>

namespace warpsim::sim {

const char* faultKindName(FaultKind k) {
  switch (k) {
    case FaultKind::OutOfBounds:
      return "out-of-bounds access";
    case FaultKind::Misaligned:
      return "misaligned access";
    case FaultKind::Trap:
      return "trap";
    case FaultKind::Assertion:
      return "assertion";
    case FaultKind::BarrierDeadlock:
      return "barrier deadlock";
    case FaultKind::WarpSync:
      return "warp synchronization error";
    case FaultKind::Watchdog:
      return "watchdog";
    case FaultKind::Interrupted:
      return "interrupted";
    case FaultKind::NotSupported:
      return "not supported yet";
    case FaultKind::InvalidInstruction:
      return "invalid instruction";
    case FaultKind::StackOverflow:
      return "stack overflow";
    case FaultKind::HeapError:
      return "device heap error";
  }
  return "fault";
}

std::string FaultInfo::describe(const std::string& ptxPath) const {
  std::string s = "kernel fault (" + std::string(faultKindName(kind)) + "): " + message;
  if (!cudaFile.empty() && cudaLine) s += " at " + cudaFile + ":" + std::to_string(cudaLine);
  // A .ptx file is named with its line; PTX compiled from a .cu has only its line number.
  const bool isPtx = ptxPath.size() > 4 && ptxPath.substr(ptxPath.size() - 4) == ".ptx";
  s += isPtx ? " (" + ptxPath + ":" : std::string(" (PTX line ");
  s += std::to_string(ptxLine);
  if (!instruction.empty()) s += ", " + instruction;
  s += ")";
  char pos[128];
  std::snprintf(pos, sizeof pos, ", thread (%u,%u,%u) block (%u,%u,%u)", thread.x, thread.y,
                thread.z, cta.x, cta.y, cta.z);
  s += pos;
  if (!details.empty()) s += "\n" + details;
  return s;
}

KernelFault::KernelFault(FaultInfo info)
    : std::runtime_error(info.message), info_(std::move(info)) {}

}  // namespace warpsim::sim
