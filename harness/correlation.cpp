#include "harness/correlation.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace warpsim::harness {

double MeasuredLaunch::metric(const std::string& name) const {
  auto it = metrics.find(name);
  return it == metrics.end() ? 0 : it->second;
}

namespace {

std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, '\t')) out.push_back(cell);
  if (!line.empty() && line.back() == '\t') out.emplace_back();
  return out;
}

uint64_t wholeNumber(const std::string& text, const std::string& where) {
  size_t used = 0;
  uint64_t v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw std::runtime_error(where + ": '" + text + "' is not a whole number");
  return v;
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = x.size();
  if (n < 2) return 0;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= double(n);
  my /= double(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
}

}  // namespace

std::vector<MeasuredLaunch> readMeasurements(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty");
  const std::vector<std::string> header = splitTabs(line);
  auto column = [&](const std::string& name) {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    throw std::runtime_error(path + ":1: no column '" + name + "'");
  };
  const size_t card = column("card"), size = column("size"), seed = column("seed"),
               launch = column("launch"), kernel = column("kernel"), threads = column("threads");
  std::vector<MeasuredLaunch> out;
  for (unsigned lineNo = 2; std::getline(in, line); ++lineNo) {
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(lineNo);
    const std::vector<std::string> cells = splitTabs(line);
    if (cells.size() != header.size())
      throw std::runtime_error(where + ": " + std::to_string(cells.size()) +
                               " columns, the header has " + std::to_string(header.size()));
    MeasuredLaunch m;
    m.card = cells[card];
    m.kernel = cells[kernel];
    m.size = wholeNumber(cells[size], where);
    m.seed = wholeNumber(cells[seed], where);
    m.launch = wholeNumber(cells[launch], where);
    m.threads = wholeNumber(cells[threads], where);
    for (size_t i = threads + 1; i < cells.size(); ++i) {
      if (cells[i].empty()) continue;
      char* end = nullptr;
      const double v = std::strtod(cells[i].c_str(), &end);
      if (end != cells[i].c_str() + cells[i].size())
        throw std::runtime_error(where + ": column '" + header[i] + "': '" + cells[i] +
                                 "' is not a number");
      m.metrics[header[i]] = v;
    }
    out.push_back(std::move(m));
  }
  return out;
}

const std::vector<std::pair<std::string, std::string>>& designPairs() {
  static const std::vector<std::pair<std::string, std::string>> pairs = {
      {"sgemm_naive", "sgemm_tiled"},
      {"sgemm_tiled", "sgemm_regblock"},
      {"sgemm_naive", "sgemm_regblock"},
      {"transpose_naive", "transpose_tiled"},
      {"transpose_tiled", "transpose_padded"},
      {"transpose_naive", "transpose_padded"},
      {"reduce_interleaved", "reduce_sequential"},
      {"reduce_sequential", "reduce_shuffle"},
      {"reduce_shuffle", "reduce_atomic"},
      {"scan_blelloch", "scan_blelloch_padded"},
      {"scan_blelloch", "scan_shfl_up"},
      {"stencil5_naive", "stencil5_shared"},
      {"histogram_global", "histogram_shared"},
  };
  return pairs;
}

bool PairComparison::sameDirection() const {
  // Within 2% counts as a tie on either side: the chip's own run-to-run noise.
  const double m = std::log(measuredSpeedup), p = std::log(predictedSpeedup);
  if (std::fabs(m) < 0.02) return std::fabs(p) < 0.1;
  return (m > 0) == (p > 0);
}

double PairComparison::ratioError() const {
  return measuredSpeedup > 0 ? std::fabs(predictedSpeedup / measuredSpeedup - 1) : 0;
}

std::vector<PairComparison> comparePairs(const std::vector<ProblemComparison>& problems) {
  std::vector<PairComparison> out;
  for (const auto& [a, b] : designPairs())
    for (const ProblemComparison& pa : problems) {
      if (pa.card != a || !pa.error.empty()) continue;
      for (const ProblemComparison& pb : problems) {
        if (pb.card != b || pb.size != pa.size || !pb.error.empty()) continue;
        if (pa.predictedCycles <= 0 || pb.predictedCycles <= 0) continue;
        PairComparison c;
        c.a = a;
        c.b = b;
        c.size = pa.size;
        c.measuredSpeedup = pa.measuredCycles / pb.measuredCycles;
        c.predictedSpeedup = pa.predictedCycles / pb.predictedCycles;
        out.push_back(c);
      }
    }
  return out;
}

CorrelationSummary summarize(const std::vector<ProblemComparison>& problems,
                             const std::vector<PairComparison>& pairs, double smallCycles) {
  CorrelationSummary s;
  std::vector<double> m, p, lm, lp;
  double ape = 0;
  for (const ProblemComparison& c : problems) {
    if (!c.error.empty() || c.measuredCycles <= 0) continue;
    ++s.problems;
    if (c.measuredCycles < smallCycles) {
      ++s.small;
      continue;
    }
    ape += std::fabs(c.predictedCycles - c.measuredCycles) / c.measuredCycles;
    m.push_back(c.measuredCycles);
    p.push_back(c.predictedCycles);
    lm.push_back(std::log(c.measuredCycles));
    lp.push_back(std::log(std::max(1.0, c.predictedCycles)));
  }
  const size_t scored = m.size();
  s.mape = scored ? ape / double(scored) : 0;
  s.pearson = pearson(m, p);
  s.pearsonLog = pearson(lm, lp);
  for (const PairComparison& c : pairs) {
    ++s.pairs;
    if (c.sameDirection()) ++s.pairsSameDirection;
    if (c.ratioError() <= 0.25) ++s.pairsWithin25;
  }
  return s;
}

}  // namespace warpsim::harness
