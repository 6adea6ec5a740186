#include "isa/ir.h"

#include <string_view>

namespace warpsim::ir {

uint32_t typeBytes(const std::string& type) {
  std::string_view t = type;
  if (t == "pred") return 1;
  if (t == "f16x2" || t == "bf16x2" || t == "s16x2" || t == "u16x2") return 4;
  if (t == "e4m3x2" || t == "e5m2x2") return 2;
  if (t == "e4m3" || t == "e5m2") return 1;
  if (t == "tf32") return 4;
  // Opaque handles (.texref, .samplerref, .surfref) are 64-bit in the 64-bit ABI.
  if (t == "texref" || t == "samplerref" || t == "surfref") return 8;
  if (t.size() < 2) return 0;
  char kind = t[0];
  std::string_view width = t.substr(1);
  if (t.substr(0, 2) == "bf") {
    return t == "bf16" ? 2 : 0;
  }
  if (kind != 'b' && kind != 'u' && kind != 's' && kind != 'f') return 0;
  if (width == "8") return kind == 'f' ? 0 : 1;
  if (width == "16") return 2;
  if (width == "32") return 4;
  if (width == "64") return 8;
  if (width == "128") return kind == 'b' ? 16 : 0;
  return 0;
}

uint32_t VarDecl::elementBytes() const { return typeBytes(type) * vecWidth; }

uint64_t VarDecl::totalBytes() const {
  uint64_t bytes = elementBytes();
  for (uint64_t d : dims) {
    // Saturate instead of wrapping, so an absurd declaration reads as too big, not as small.
    if (d != 0 && bytes > UINT64_MAX / d) return UINT64_MAX;
    bytes *= d;
  }
  return bytes;
}

std::string Instruction::fullOpcode() const {
  std::string s = opcode;
  for (const std::string& m : mods) {
    s += '.';
    s += m;
  }
  return s;
}

const Function* Module::findFunction(const std::string& name) const {
  // A forward declaration and the definition share the name; the definition is the one that
  // can be called or launched.
  const Function* declaration = nullptr;
  for (const Function& f : functions) {
    if (f.name != name) continue;
    if (f.hasBody) return &f;
    if (!declaration) declaration = &f;
  }
  return declaration;
}

const VarDecl* Module::findGlobal(const std::string& name) const {
  // Likewise an `.extern` declaration may precede the defining one.
  const VarDecl* declaration = nullptr;
  for (const VarDecl& v : globals) {
    if (v.name != name) continue;
    if (!v.isExtern) return &v;
    if (!declaration) declaration = &v;
  }
  return declaration;
}

const TargetList* findList(const Function& fn, const std::string& name) {
  for (const TargetList& l : fn.lists)
    if (l.name == name) return &l;
  return nullptr;
}

std::string Module::cudaPlace(const CudaLoc& loc) const {
  if (!loc.known()) return "";
  auto it = files.find(loc.file);
  return (it != files.end() ? it->second : "file " + std::to_string(loc.file)) + ":" +
         std::to_string(loc.line);
}

}  // namespace warpsim::ir
