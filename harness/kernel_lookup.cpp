#include "harness/kernel_lookup.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace warpsim::harness {

namespace {

// "void scale<float>(float*, int)" -> "scale<float>": what precedes the parameter list, less a
// return type (function templates' demangled names carry one). Template arguments may hold
// spaces and parentheses, so only depth 0 counts.
std::string baseNameOf(const std::string& demangled) {
  int depth = 0;
  size_t end = demangled.size(), start = 0;
  for (size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (depth != 0) continue;
    if (c == '(') {
      end = i;
      break;
    }
    if (c == ' ') start = i + 1;
  }
  return demangled.substr(start, end - start);
}

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::string demangle(const std::string& name) {
  if (!startsWith(name, "_Z")) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : name;
}

std::string KernelParam::describe() const {
  std::string s =
      "." + (vecWidth > 1 ? "v" + std::to_string(vecWidth) + "." : std::string()) + type;
  if (isArray) s += "[" + std::to_string(bytes / std::max<uint64_t>(1, ir::typeBytes(type))) + "]";
  return s;
}

std::string KernelSignature::describe() const {
  std::string types;
  for (const KernelParam& p : params) types += (types.empty() ? "" : " ") + p.describe();
  if (demangled == name) return name + "  [" + (types.empty() ? "no parameters" : types) + "]";
  return demangled + "  [" + name + ": " + (types.empty() ? "no parameters" : types) + "]";
}

std::vector<KernelSignature> kernelSignatures(const ir::Module& m) {
  std::vector<KernelSignature> out;
  for (const ir::Function& f : m.functions) {
    if (!f.isEntry) continue;
    KernelSignature k;
    k.name = f.name;
    k.demangled = demangle(f.name);
    k.baseName = baseNameOf(k.demangled);
    for (const ir::VarDecl& v : f.params) {
      KernelParam p;
      p.name = v.name;
      p.type = v.type;
      p.vecWidth = v.vecWidth;
      p.bytes = v.totalBytes();
      p.isArray = !v.dims.empty();
      p.ptrSpace = v.ptrSpace;
      k.params.push_back(std::move(p));
    }
    out.push_back(std::move(k));
  }
  return out;
}

const ir::Function& findKernel(const ir::Module& m, const std::string& name,
                               const std::string& where) {
  const std::vector<KernelSignature> all = kernelSignatures(m);
  auto listing = [&] {
    std::string s;
    for (const KernelSignature& k : all) s += "\n  " + k.describe();
    return all.empty() ? std::string(" (it has none)") : "; its kernels:" + s;
  };
  // Each rule in turn; the first that matches anything decides (ambiguity is an error).
  using Rule = bool (*)(const KernelSignature&, const std::string&);
  const Rule rules[] = {
      [](const KernelSignature& k, const std::string& n) { return k.name == n; },
      [](const KernelSignature& k, const std::string& n) { return k.demangled == n; },
      [](const KernelSignature& k, const std::string& n) { return k.baseName == n; },
      [](const KernelSignature& k, const std::string& n) {
        return !n.empty() && (startsWith(k.name, n) || startsWith(k.baseName, n));
      }};
  for (const Rule rule : rules) {
    std::vector<const KernelSignature*> hits;
    for (const KernelSignature& k : all)
      if (rule(k, name)) hits.push_back(&k);
    if (hits.size() == 1) {
      for (const ir::Function& f : m.functions)
        if (f.isEntry && f.name == hits[0]->name) return f;
    }
    if (hits.size() > 1) {
      std::string s;
      for (const KernelSignature* k : hits) s += "\n  " + k->describe();
      throw KernelLookupError("kernel name '" + name + "' is ambiguous in " + where +
                              "; it matches:" + s);
    }
  }
  throw KernelLookupError("no kernel named '" + name + "' in " + where + listing());
}

}  // namespace warpsim::harness
