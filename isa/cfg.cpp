#include "isa/cfg.h"

#include <algorithm>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>
#include <boost/graph/reverse_graph.hpp>

#include "isa/facts.h"

namespace warpsim::isa {
namespace {

// How a basic block ends. Indexed: brx.idx, to every pc of its table (and on when guarded).
enum class Edge { Next, Jump, CondJump, End, CondEnd, Indexed };

Edge edgeOf(const Inst& in) {
  const bool guarded = in.guard != kNoSlot;
  if (in.flow == isa::Flow::Branch && in.target != kNoPc)
    return guarded ? Edge::CondJump : Edge::Jump;
  if (in.flow == isa::Flow::Branch && in.table >= 0) return Edge::Indexed;
  if (endsPath(in)) return guarded ? Edge::CondEnd : Edge::End;
  return Edge::Next;
}

}  // namespace

Cfg buildCfg(const std::vector<Inst>& code, const std::vector<TargetTable>& tables) {
  Cfg g;
  const uint32_t n = uint32_t(code.size());
  std::vector<bool> leader(n + 1, false);
  if (n) leader[0] = true;
  for (uint32_t pc = 0; pc < n; ++pc) {
    const Edge f = edgeOf(code[pc]);
    if (f == Edge::Next) continue;
    if (pc + 1 <= n) leader[pc + 1] = true;
    if ((f == Edge::Jump || f == Edge::CondJump) && code[pc].target < n)
      leader[code[pc].target] = true;
    if (f == Edge::Indexed)
      for (uint32_t t : tables[size_t(code[pc].table)].pcs)
        if (t < n) leader[t] = true;
  }
  g.blockOf.assign(n, 0);
  for (uint32_t pc = 0; pc < n; ++pc) {
    if (leader[pc]) g.blocks.push_back({pc, pc, {}});
    g.blocks.back().last = pc;
    g.blockOf[pc] = uint32_t(g.blocks.size() - 1);
  }
  const uint32_t exit = g.exitBlock();
  for (uint32_t b = 0; b < g.blocks.size(); ++b) {
    BasicBlock& bb = g.blocks[b];
    const Inst& last = code[bb.last];
    const Edge f = edgeOf(last);
    const uint32_t fall = bb.last + 1 < n ? g.blockOf[bb.last + 1] : exit;
    switch (f) {
      case Edge::Next:
        bb.succs = {fall};
        break;
      case Edge::Jump:
        bb.succs = {last.target < n ? g.blockOf[last.target] : exit};
        break;
      case Edge::CondJump:
        bb.succs = {last.target < n ? g.blockOf[last.target] : exit, fall};
        break;
      case Edge::End:
        bb.succs = {exit};
        break;
      case Edge::CondEnd:
        bb.succs = {exit, fall};
        break;
      case Edge::Indexed:
        for (uint32_t t : tables[size_t(last.table)].pcs) {
          const uint32_t s = t < n ? g.blockOf[t] : exit;
          if (std::find(bb.succs.begin(), bb.succs.end(), s) == bb.succs.end())
            bb.succs.push_back(s);
        }
        if (last.guard != kNoSlot &&
            std::find(bb.succs.begin(), bb.succs.end(), fall) == bb.succs.end())
          bb.succs.push_back(fall);
        break;
    }
  }

  // Post-dominators are the dominators of the reversed graph, rooted at the virtual exit.
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  Graph graph(g.blocks.size() + 1);
  for (uint32_t b = 0; b < g.blocks.size(); ++b)
    for (uint32_t s : g.blocks[b].succs) boost::add_edge(b, s, graph);
  auto reversed = boost::make_reverse_graph(graph);
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  std::vector<Vertex> idom(boost::num_vertices(graph), boost::graph_traits<Graph>::null_vertex());
  auto index = boost::get(boost::vertex_index, reversed);
  auto idomMap = boost::make_iterator_property_map(idom.begin(), index);
  boost::lengauer_tarjan_dominator_tree(reversed, boost::vertex(exit, reversed), idomMap);
  g.ipdom.assign(g.blocks.size(), kNoPc);
  for (uint32_t b = 0; b < g.blocks.size(); ++b)
    if (idom[b] != boost::graph_traits<Graph>::null_vertex()) g.ipdom[b] = uint32_t(idom[b]);
  return g;
}

void setReconvergencePoints(FunctionCode& fn) {
  if (fn.code.empty()) return;
  const Cfg g = buildCfg(fn);
  for (Inst& in : fn.code) {
    if (in.flow != Flow::Branch || (in.guard == kNoSlot && in.table < 0)) continue;
    const uint32_t p = g.ipdom[g.blockOf[in.pc]];
    in.reconverge = (p == kNoPc || p == g.exitBlock()) ? kNoPc : g.blocks[p].first;
  }
}

}  // namespace warpsim::isa
