#include "harness/ptxgen/isa_case.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/nvcc.h"
#include "harness/recording.h"
#include "harness/run_problem.h"

namespace warpsim::ptxgen {

namespace fs = std::filesystem;

namespace {

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
  return b;
}

uint64_t wordAt(const std::vector<uint8_t>& out, size_t index) {
  uint64_t w = 0;
  std::memcpy(&w, out.data() + 8 * index, 8);
  return w;
}

[[noreturn]] void malformed(const std::string& path, unsigned line, const std::string& why) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": malformed ISA case: " + why);
}

std::string writersText(const std::string& ptx, unsigned word) {
  const OutputWord w = explainOutputWord(ptx, word);
  if (w.writers.empty()) return "; never written after the load";
  std::string s = "; written by `" + w.writers[0] + "`";
  for (size_t i = 1; i < w.writers.size(); ++i)
    s += (i == 1 ? ", before it `" : ", `") + w.writers[i] + "`";
  return s;
}

kernels::Problem problemFor(const IsaCase& c, const std::vector<uint8_t>& inputs) {
  kernels::Problem p;
  p.size = c.threads();
  kernels::HostBuffer in, out;
  in.name = "in";
  in.type = kernels::ElemType::U64;
  in.bytes = inputs;
  out.name = "out";
  out.type = kernels::ElemType::U64;
  out.bytes.assign(size_t(c.threads()) * c.words() * 8, 0);
  out.isOutput = true;
  p.buffers = {in, out};
  kernels::Launch l;
  l.entry = c.entry;
  l.grid = {c.grid, 1, 1};
  l.block = {c.block, 1, 1};
  l.args = {kernels::KernelArg::buf(0), kernels::KernelArg::buf(1)};
  p.launches = {l};
  return p;
}

}  // namespace

std::string formatRegisterWord(const std::string& reg, uint64_t w) {
  char b[64];
  if (reg.rfind("%fd", 0) == 0) {
    double d;
    std::memcpy(&d, &w, 8);
    std::snprintf(b, sizeof b, "0x%016llx (%.17g)", static_cast<unsigned long long>(w), d);
  } else if (reg.rfind("%f", 0) == 0) {
    const uint32_t u = uint32_t(w);
    float f;
    std::memcpy(&f, &u, 4);
    std::snprintf(b, sizeof b, "0x%08x (%.9g)", u, double(f));
  } else {
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(w));
  }
  return b;
}

uint64_t hashText(const std::string& s) {
  return harness::fnv1a64(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

IsaCase caseFor(const GeneratedProgram& g, const std::string& ptxFile) {
  IsaCase c;
  c.seed = g.seed;
  c.ptxFile = ptxFile;
  c.ptxHash = hashText(g.ptx);
  c.entry = g.entry;
  c.grid = g.gridSize;
  c.block = g.blockSize;
  c.inputs = g.inputs;
  for (const OutputWord& w : g.outputs) c.regs.push_back(w.reg);
  c.forms = g.forms;
  c.inputHash = harness::fnv1a64(makeInputs(g.seed, g.inputs, g.threads()));
  return c;
}

IsaRun runIsa(harness::Backend& backend, const std::string& ptx, const std::string& ptxPath,
              const IsaCase& c, const std::vector<uint8_t>& inputs) {
  backend.loadModule(ptx, ptxPath);
  const harness::ProblemRun run = harness::runProblem(backend, problemFor(c, inputs));
  IsaRun r;
  r.fault = run.fault;
  r.out = run.buffers.at(1).bytes;
  return r;
}

IsaRun runIsaInSimulator(const std::string& ptx, const std::string& ptxPath, const IsaCase& c,
                         const std::vector<uint8_t>& inputs) {
  sim::LaunchOptions o;
  o.threads = 1;  // one program is tiny; callers run many side by side
  auto sim = harness::makeSimBackend(o);
  return runIsa(*sim, ptx, ptxPath, c, inputs);
}

void recordOutputs(IsaCase& c, const std::vector<uint8_t>& out) {
  c.outputHash = harness::fnv1a64(out);
  c.wordHashes.assign(c.words(), 0);
  c.thread0.assign(c.words(), 0);
  for (unsigned i = 0; i < c.words(); ++i) {
    std::vector<uint8_t> column;
    column.reserve(8 * c.threads());
    for (unsigned t = 0; t < c.threads(); ++t) {
      const uint8_t* w = out.data() + 8 * (size_t(t) * c.words() + i);
      column.insert(column.end(), w, w + 8);
    }
    c.wordHashes[i] = harness::fnv1a64(column);
    c.thread0[i] = wordAt(out, i);
  }
}

std::string describeDifference(const IsaCase& c, const std::string& ptx,
                               const std::vector<uint8_t>& gpu, const std::vector<uint8_t>& sim) {
  for (unsigned t = 0; t < c.threads(); ++t)
    for (unsigned i = 0; i < c.words(); ++i) {
      const size_t at = size_t(t) * c.words() + i;
      const uint64_t g = wordAt(gpu, at), s = wordAt(sim, at);
      if (g == s) continue;
      const std::string reg = i < c.regs.size() ? c.regs[i] : "?";
      unsigned differing = 0;
      for (unsigned u = 0; u < c.threads(); ++u)
        differing +=
            wordAt(gpu, size_t(u) * c.words() + i) != wordAt(sim, size_t(u) * c.words() + i);
      return "thread " + std::to_string(t % c.block) + " of block " + std::to_string(t / c.block) +
             ", word " + std::to_string(i) + " (" + reg + "): GPU " + formatRegisterWord(reg, g) +
             ", simulator " + formatRegisterWord(reg, s) + " (" + std::to_string(differing) +
             " of " + std::to_string(c.threads()) + " threads differ there)" + writersText(ptx, i);
    }
  return "";
}

void writeIsaCase(const IsaCase& c, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << "warpsim-isa-case 1\n";
  f << "seed " << c.seed << "\ngenerator " << c.generator << "\ninput_version " << c.inputVersion
    << "\n";
  f << "ptx " << c.ptxFile << "\nptx_fnv1a64 " << hex(c.ptxHash) << "\n";
  f << "entry " << c.entry << "\ngrid " << c.grid << "\nblock " << c.block << "\n";
  f << "inputs";
  for (InputKind k : c.inputs) f << " " << inputKindName(k);
  f << "\ninput_fnv1a64 " << hex(c.inputHash) << "\noutput_fnv1a64 " << hex(c.outputHash) << "\n";
  for (unsigned i = 0; i < c.wordHashes.size(); ++i)
    f << "word " << i << " " << (i < c.regs.size() ? c.regs[i] : "?") << " " << hex(c.wordHashes[i])
      << " " << hex(c.thread0[i]) << "\n";
  f << "forms";
  for (const std::string& s : c.forms) f << " " << s;
  f << "\n";
  if (!c.device.empty()) f << "device " << c.device << "\n";
}

namespace {

// Far above what the generator makes (grid 1-2, block 32-128, at most a few dozen words).
constexpr uint32_t kMaxIsaCaseBlock = 1024;
constexpr uint64_t kMaxIsaCaseThreads = 1 << 20;
constexpr size_t kMaxIsaCaseWords = 4096;

}  // namespace

IsaCase readIsaCase(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  IsaCase c;
  c.path = path;
  c.generator = c.inputVersion = 0;
  std::string line;
  unsigned n = 0;
  bool header = false;
  while (std::getline(f, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string key, h;
    in >> key;
    if (!header) {
      int version = 0;
      if (key != "warpsim-isa-case" || !(in >> version) || version != 1)
        malformed(path, n, "expected 'warpsim-isa-case 1'");
      header = true;
      continue;
    }
    // Hexadecimal digits that fit 64 bits, or a malformed-file error (never stoull's own).
    auto hexValue = [&](const std::string& text) {
      if (text.empty() || text.size() > 16 ||
          text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        malformed(path, n, "'" + text + "' is not a 64-bit hexadecimal value");
      return uint64_t(std::stoull(text, nullptr, 16));
    };
    auto hexField = [&](uint64_t& v) {
      if (!(in >> h)) malformed(path, n, "expected a hexadecimal hash after '" + key + "'");
      v = hexValue(h);
    };
    if (key == "seed")
      in >> c.seed;
    else if (key == "generator")
      in >> c.generator;
    else if (key == "input_version")
      in >> c.inputVersion;
    else if (key == "ptx")
      in >> c.ptxFile;
    else if (key == "ptx_fnv1a64")
      hexField(c.ptxHash);
    else if (key == "entry")
      in >> c.entry;
    else if (key == "grid")
      in >> c.grid;
    else if (key == "block")
      in >> c.block;
    else if (key == "inputs") {
      for (std::string k; in >> k;) {
        try {
          c.inputs.push_back(inputKindFromName(k));
        } catch (const std::invalid_argument& e) {
          malformed(path, n, e.what());
        }
      }
      in.clear();
    } else if (key == "input_fnv1a64")
      hexField(c.inputHash);
    else if (key == "output_fnv1a64")
      hexField(c.outputHash);
    else if (key == "word") {
      unsigned i;
      std::string reg, hw, t0;
      if (!(in >> i >> reg >> hw >> t0) || i != c.wordHashes.size())
        malformed(path, n,
                  "expected 'word " + std::to_string(c.wordHashes.size()) + " REG HASH VALUE'");
      c.regs.push_back(reg);
      c.wordHashes.push_back(hexValue(hw));
      c.thread0.push_back(hexValue(t0));
    } else if (key == "forms") {
      for (std::string s; in >> s;) c.forms.push_back(s);
      in.clear();
    } else if (key == "device")
      std::getline(in >> std::ws, c.device);
    else
      malformed(path, n, "unknown key '" + key + "'");
    if (in.fail()) malformed(path, n, "bad value for '" + key + "'");
  }
  if (!header) malformed(path, n, "empty file");
  if (c.ptxFile.empty() || c.inputs.empty() || c.grid == 0 || c.block == 0)
    malformed(path, n, "missing ptx, inputs or launch geometry");
  // The geometry sizes the host buffers (threads x words x 8 bytes): bounded before any is made.
  if (c.block > kMaxIsaCaseBlock || uint64_t(c.grid) * c.block > kMaxIsaCaseThreads ||
      c.inputs.size() > kMaxIsaCaseWords)
    malformed(path, n,
              "grid " + std::to_string(c.grid) + " x block " + std::to_string(c.block) + " with " +
                  std::to_string(c.inputs.size()) + " words: an ISA case has at most " +
                  std::to_string(kMaxIsaCaseBlock) + " threads per block, " +
                  std::to_string(kMaxIsaCaseThreads) + " threads and " +
                  std::to_string(kMaxIsaCaseWords) + " words");
  if (c.wordHashes.size() != c.inputs.size())
    malformed(path, n,
              std::to_string(c.wordHashes.size()) + " output words for " +
                  std::to_string(c.inputs.size()) + " input words");
  return c;
}

IsaReplay replayIsaCase(const IsaCase& c) {
  IsaReplay r;
  const std::string ptxPath = (fs::path(c.path).parent_path() / c.ptxFile).string();
  const std::string ptx = harness::readTextFile(ptxPath);
  if (hashText(ptx) != c.ptxHash) {
    r.message = ptxPath + " does not hash as recorded (edited or corrupted PTX)";
    return r;
  }
  if (c.inputVersion != kInputVersion) {
    r.message = "recorded with input generator " + std::to_string(c.inputVersion) + ", this is " +
                std::to_string(kInputVersion) + " (re-record)";
    return r;
  }
  const std::vector<uint8_t> inputs = makeInputs(c.seed, c.inputs, c.threads());
  if (harness::fnv1a64(inputs) != c.inputHash) {
    r.message = "the inputs changed: makeInputs no longer gives what was recorded (re-record)";
    return r;
  }
  IsaRun run;
  try {
    run = runIsaInSimulator(ptx, ptxPath, c, inputs);
  } catch (const std::exception& e) {
    r.message = std::string("the simulator refused the program: ") + e.what();
    return r;
  }
  if (run.fault) {
    r.message = "the simulator faulted where the GPU did not: " + run.fault->describe(ptxPath);
    return r;
  }
  if (harness::fnv1a64(run.out) == c.outputHash) {
    r.ok = true;
    return r;
  }
  IsaCase mine = c;
  recordOutputs(mine, run.out);
  for (unsigned i = 0; i < c.words(); ++i) {
    if (mine.wordHashes[i] == c.wordHashes[i] && mine.thread0[i] == c.thread0[i]) continue;
    r.message = "word " + std::to_string(i) + " (" + c.regs[i] + ") differs from the GPU's";
    if (mine.thread0[i] != c.thread0[i])
      r.message += ": thread 0: GPU " + formatRegisterWord(c.regs[i], c.thread0[i]) +
                   ", simulator " + formatRegisterWord(c.regs[i], mine.thread0[i]);
    else
      r.message += " (not in thread 0)";
    r.message += writersText(ptx, i);
    return r;
  }
  r.message = "the outputs differ from the GPU's";
  return r;
}

}  // namespace warpsim::ptxgen
