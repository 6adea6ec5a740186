#include "isa/mods.h"

#include <algorithm>
#include <utility>

namespace warpsim::isa {
namespace {

template <class T>
struct Word {
  std::string_view word;
  T value;
};

constexpr Word<Cmp> kCmps[] = {
    {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},
    {"ge", Cmp::Ge},   {"lo", Cmp::Lo},   {"ls", Cmp::Ls},   {"hi", Cmp::Hi},   {"hs", Cmp::Hs},
    {"equ", Cmp::Equ}, {"neu", Cmp::Neu}, {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu},
    {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan},
};
constexpr Word<Space> kSpaces[] = {
    {"global", Space::Global},      {"shared", Space::Shared},
    {"shared::cta", Space::Shared}, {"shared::cluster", Space::SharedCluster},
    {"local", Space::Local},        {"param", Space::Param},
    {"param::entry", Space::Param}, {"param::func", Space::Param},
    {"const", Space::Const},
};
constexpr Word<fp::Round> kRounds[] = {
    {"rn", fp::Round::RN}, {"rz", fp::Round::RZ},   {"rm", fp::Round::RM},
    {"rp", fp::Round::RP}, {"rna", fp::Round::RNA},
};
constexpr Word<fp::Round> kIntegralRounds[] = {
    {"rni", fp::Round::RN},
    {"rzi", fp::Round::RZ},
    {"rmi", fp::Round::RM},
    {"rpi", fp::Round::RP},
};
constexpr Word<MemOrder> kOrders[] = {
    {"weak", MemOrder::Weak},         {"relaxed", MemOrder::Relaxed},
    {"acquire", MemOrder::Acquire},   {"release", MemOrder::Release},
    {"acq_rel", MemOrder::AcqRel},    {"sc", MemOrder::Sc},
    {"volatile", MemOrder::Volatile},
};
constexpr Word<MemScope> kScopes[] = {
    {"cta", MemScope::Cta},
    {"cluster", MemScope::Cluster},
    {"gpu", MemScope::Gpu},
    {"sys", MemScope::Sys},
};

template <class T, size_t N>
bool lookup(const Word<T> (&table)[N], std::string_view w, T& out) {
  for (const auto& e : table)
    if (e.word == w) {
      out = e.value;
      return true;
    }
  return false;
}

}  // namespace

const char* spaceName(Space s) {
  switch (s) {
    case Space::None:
      return "";
    case Space::Generic:
      return "generic";
    case Space::Global:
      return "global";
    case Space::Shared:
      return "shared";
    case Space::SharedCluster:
      return "shared::cluster";
    case Space::Local:
      return "local";
    case Space::Param:
      return "param";
    case Space::Const:
      return "const";
  }
  return "";
}

bool Mods::has(std::string_view word) const {
  return std::find(words.begin(), words.end(), word) != words.end();
}

Mods decodeMods(const std::vector<std::string>& words) {
  Mods m;
  m.words = words;
  for (const std::string& w : words) {
    if (auto t = typeFromName(w)) {
      m.types.push_back(*t);
      continue;
    }
    fp::Round r;
    if (lookup(kRounds, w, r)) {
      m.rounding = {true, false, r};
      continue;
    }
    if (lookup(kIntegralRounds, w, r)) {
      m.rounding = {true, true, r};
      continue;
    }
    Cmp c;
    if (lookup(kCmps, w, c)) {
      m.cmp = c;
      continue;
    }
    Space s;
    if (lookup(kSpaces, w, s)) {
      m.space = s;
      continue;
    }
    MemOrder o;
    if (lookup(kOrders, w, o)) {
      m.order = o;
      continue;
    }
    MemScope sc;
    if (lookup(kScopes, w, sc)) {
      m.scope = sc;
      continue;
    }
    if (w == "v2")
      m.vec = 2;
    else if (w == "v4")
      m.vec = 4;
    else if (w == "v8")
      m.vec = 8;
    else if (w == "and")
      m.boolOp = BoolOp::And;
    else if (w == "or")
      m.boolOp = BoolOp::Or;
    else if (w == "xor")
      m.boolOp = BoolOp::Xor;
    else if (w == "popc")
      m.boolOp = BoolOp::Popc;
  }
  return m;
}

}  // namespace warpsim::isa
