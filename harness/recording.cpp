#include "harness/recording.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/backend.h"
#include "harness/compare.h"
#include "harness/nvcc.h"
#include "harness/run_problem.h"
#include "harness/suite.h"
#include "isa/diagnostic.h"

namespace warpsim::harness {

namespace fs = std::filesystem;

uint64_t fnv1a64(const uint8_t* data, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

namespace {

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << std::hex << v;
  return os.str();
}

[[noreturn]] void malformed(const std::string& path, unsigned line, const std::string& why) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": malformed recorded case: " + why);
}

// A hash or sample value: hexadecimal digits that fit 64 bits.
uint64_t hexValue(const std::string& text, const std::string& path, unsigned line) {
  if (text.empty() || text.size() > 16 ||
      text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    malformed(path, line, "'" + text + "' is not a 64-bit hexadecimal value");
  return std::stoull(text, nullptr, 16);
}

RecordedBuffer* findBuffer(std::vector<RecordedBuffer>& v, const std::string& name) {
  for (auto& b : v)
    if (b.name == name) return &b;
  return nullptr;
}

}  // namespace

RecordedBuffer describeBuffer(const kernels::HostBuffer& b, unsigned samples) {
  RecordedBuffer r;
  r.name = b.name;
  r.type = kernels::elemName(b.type);
  r.count = b.count();
  r.hash = fnv1a64(b.bytes);
  for (unsigned i = 0; i < samples && r.count; ++i) {
    const uint64_t idx = r.count * i / samples;
    r.samples.emplace_back(idx, elementBits(b, idx));
  }
  return r;
}

void writeCase(const RecordedCase& c, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << "warpsim-case 1\n";
  f << "card " << c.card << "\nsize " << c.size << "\nseed " << c.seed << "\n";
  f << "ptx " << c.ptxFile << "\n";
  for (const auto& b : c.inputs)
    f << "input " << b.name << " " << b.type << " " << b.count << " fnv1a64 " << hex(b.hash)
      << "\n";
  for (const auto& b : c.outputs) {
    f << "output " << b.name << " " << b.type << " " << b.count << " fnv1a64 " << hex(b.hash)
      << "\n";
    for (const auto& [i, v] : b.samples)
      f << "sample " << b.name << " " << i << " " << hex(v) << "\n";
    if (!b.dataFile.empty()) f << "data " << b.name << " " << b.dataFile << "\n";
  }
  f << "gpu_seconds " << c.gpuSeconds << "\n";
  if (!c.device.empty()) f << "device " << c.device << "\n";
}

RecordedCase readCase(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  RecordedCase c;
  c.path = path;
  std::string line;
  unsigned n = 0;
  bool header = false;
  while (std::getline(f, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string key;
    in >> key;
    if (!header) {
      int version = 0;
      if (key != "warpsim-case" || !(in >> version) || version != 1)
        malformed(path, n, "expected 'warpsim-case 1'");
      header = true;
      continue;
    }
    if (key == "card")
      in >> c.card;
    else if (key == "size")
      in >> c.size;
    else if (key == "seed")
      in >> c.seed;
    else if (key == "ptx")
      in >> c.ptxFile;
    else if (key == "input" || key == "output") {
      RecordedBuffer b;
      std::string algo, h;
      if (!(in >> b.name >> b.type >> b.count >> algo >> h) || algo != "fnv1a64")
        malformed(path, n, "expected '" + key + " NAME TYPE COUNT fnv1a64 HEX'");
      b.hash = hexValue(h, path, n);
      (key == "input" ? c.inputs : c.outputs).push_back(b);
    } else if (key == "sample") {
      std::string name, v;
      uint64_t idx;
      if (!(in >> name >> idx >> v)) malformed(path, n, "expected 'sample NAME INDEX HEX'");
      RecordedBuffer* b = findBuffer(c.outputs, name);
      if (!b) malformed(path, n, "sample of unknown output '" + name + "'");
      b->samples.emplace_back(idx, hexValue(v, path, n));
    } else if (key == "data") {
      std::string name, file;
      if (!(in >> name >> file)) malformed(path, n, "expected 'data NAME FILE'");
      RecordedBuffer* b = findBuffer(c.outputs, name);
      if (!b) malformed(path, n, "data of unknown output '" + name + "'");
      b->dataFile = file;
    } else if (key == "gpu_seconds")
      in >> c.gpuSeconds;
    else if (key == "device")
      std::getline(in >> std::ws, c.device);
    else
      malformed(path, n, "unknown key '" + key + "'");
    if (in.fail()) malformed(path, n, "bad value for '" + key + "'");
  }
  if (!header) malformed(path, n, "empty file");
  if (c.card.empty() || c.ptxFile.empty()) malformed(path, n, "missing card or ptx");
  return c;
}

ReplayResult replayCase(const RecordedCase& c) {
  ReplayResult r;
  const kernels::Card* card = kernels::findCard(c.card);
  if (!card) {
    r.message = "no card named '" + c.card + "'";
    return r;
  }
  const fs::path dir = fs::path(c.path).parent_path();
  const std::string ptxPath = (dir / c.ptxFile).string();
  const std::string ptx = readTextFile(ptxPath);
  // The size comes from the file: one that does not fit is refused before anything is made.
  if (const std::string why = cardSizeError(*card, c.size); !why.empty()) {
    r.message = why;
    return r;
  }
  kernels::Problem problem = card->make(c.size, c.seed);
  for (const RecordedBuffer& in : c.inputs) {
    const kernels::HostBuffer* b = nullptr;
    for (const auto& pb : problem.buffers)
      if (pb.name == in.name) b = &pb;
    if (!b || fnv1a64(b->bytes) != in.hash) {
      r.message = "the inputs changed: buffer '" + in.name +
                  "' no longer hashes as recorded (the card's generator changed; re-record)";
      return r;
    }
  }
  auto backend = makeSimBackend();
  backend->loadModule(ptx, ptxPath);
  const ProblemRun run = runProblem(*backend, problem);
  if (run.fault) {
    r.message = "the simulator faulted where the GPU did not: " + run.fault->describe(ptxPath);
    return r;
  }
  for (const RecordedBuffer& out : c.outputs) {
    const kernels::HostBuffer* b = nullptr;
    for (const auto& rb : run.buffers)
      if (rb.name == out.name) b = &rb;
    if (!b) {
      r.message = "no buffer '" + out.name + "'";
      return r;
    }
    if (fnv1a64(b->bytes) == out.hash) continue;
    if (!out.dataFile.empty() && card->tolerance.maxUlp > 0) {
      // The GPU's own data: compare within the card's tolerance.
      std::ifstream f(dir / out.dataFile, std::ios::binary);
      kernels::HostBuffer gpu = *b;
      f.read(reinterpret_cast<char*>(gpu.bytes.data()), std::streamsize(gpu.bytes.size()));
      if (!f) {
        r.message = "cannot read " + (dir / out.dataFile).string();
        return r;
      }
      const Comparison cmp = compareOutputs({gpu}, {*b}, card->tolerance.maxUlp);
      if (cmp.ok()) continue;
      r.message = "buffer '" + out.name + "': " + std::to_string(cmp.mismatches) +
                  " elements beyond " + std::to_string(card->tolerance.maxUlp) + " ulp of the GPU";
      return r;
    }
    r.message = "buffer '" + out.name + "' differs from the GPU's";
    for (const auto& [idx, bits] : out.samples) {
      if (idx >= b->count()) {  // from the file: never read past the buffer
        r.message += ": sample index " + std::to_string(idx) + " is outside its " +
                     std::to_string(b->count()) + " elements";
        break;
      }
      const uint64_t mine = elementBits(*b, idx);
      if (mine != bits) {
        r.message += ": [" + std::to_string(idx) + "] GPU " + formatElement(b->type, bits) +
                     ", simulator " + formatElement(b->type, mine);
        break;
      }
    }
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace warpsim::harness
