// Aho-Corasick (1975): a trie of the needles, each state's failure link to
// the longest proper suffix of its path that is also a trie path, and per
// state the nearest state down that chain that ends a needle. The trie is
// built with per-state child lists and then flattened into one sorted edge
// array; only the root, which a non-matching text never leaves, has a
// dense table.
// Tests: tests/unit/evidence/needle_set_test.cc.
#include "evidence/needle_set.h"

#include <algorithm>
#include <deque>
#include <utility>

namespace causegate::evidence {

NeedleSet::NeedleSet(std::vector<std::string> needles) : needles_(std::move(needles)) {
  if (needles_.size() > 1) Build();
}

void NeedleSet::Build() {
  // Trie with growable child lists, flattened below.
  std::vector<std::vector<Edge>> children(1);
  std::vector<std::int32_t> ends(1, -1);  // slot ending at each state
  for (std::size_t n = 0; n < needles_.size(); ++n) {
    const std::string& needle = needles_[n];
    if (needle.empty()) continue;
    std::int32_t state = 0;
    for (const char c : needle) {
      const auto byte = static_cast<unsigned char>(c);
      std::vector<Edge>& list = children[static_cast<std::size_t>(state)];
      const auto it = std::find_if(list.begin(), list.end(), [byte](const Edge& e) { return e.byte == byte; });
      if (it != list.end()) {
        state = it->to;
        continue;
      }
      const auto added = static_cast<std::int32_t>(children.size());
      list.push_back(Edge{byte, added});
      children.emplace_back();
      ends.push_back(-1);
      state = added;
    }
    std::int32_t& slot = ends[static_cast<std::size_t>(state)];
    if (slot < 0) {
      slot = static_cast<std::int32_t>(slots_.size());
      slots_.emplace_back();
      slots_.back().length = needle.size();
    }
    slots_[static_cast<std::size_t>(slot)].needles.push_back(static_cast<int>(n));
  }

  states_.assign(children.size(), State{});
  for (std::size_t s = 0; s < children.size(); ++s) {
    std::vector<Edge>& list = children[s];
    std::sort(list.begin(), list.end(), [](const Edge& a, const Edge& b) { return a.byte < b.byte; });
    states_[s].first_edge = static_cast<std::int32_t>(edges_.size());
    states_[s].edge_count = static_cast<std::int32_t>(list.size());
    edges_.insert(edges_.end(), list.begin(), list.end());
    std::vector<Edge>().swap(list);
  }
  root_next_.fill(0);
  for (std::int32_t e = 0; e < states_[0].edge_count; ++e) root_next_[edges_[static_cast<std::size_t>(e)].byte] = edges_[static_cast<std::size_t>(e)].to;

  // Failure links breadth first: a state's fail is shallower, so it is set
  // before the state's own children are visited.
  std::deque<std::int32_t> queue;
  for (std::int32_t e = 0; e < states_[0].edge_count; ++e) queue.push_back(edges_[static_cast<std::size_t>(e)].to);
  while (!queue.empty()) {
    const std::int32_t s = queue.front();
    queue.pop_front();
    State& state = states_[static_cast<std::size_t>(s)];
    const std::int32_t own = ends[static_cast<std::size_t>(s)];
    const std::int32_t below = states_[static_cast<std::size_t>(state.fail)].output;
    state.output = own >= 0 ? own : below;
    if (own >= 0) slots_[static_cast<std::size_t>(own)].next = below;
    for (std::int32_t e = state.first_edge; e < state.first_edge + state.edge_count; ++e) {
      const Edge edge = edges_[static_cast<std::size_t>(e)];
      states_[static_cast<std::size_t>(edge.to)].fail = s == 0 ? 0 : Step(state.fail, edge.byte);
      queue.push_back(edge.to);
    }
  }
}

std::int32_t NeedleSet::Child(std::int32_t state, unsigned char byte) const {
  const State& s = states_[static_cast<std::size_t>(state)];
  const auto begin = edges_.begin() + s.first_edge;
  const auto end = begin + s.edge_count;
  const auto it = std::lower_bound(begin, end, byte, [](const Edge& e, unsigned char b) { return e.byte < b; });
  return it != end && it->byte == byte ? it->to : -1;
}

std::int32_t NeedleSet::Step(std::int32_t state, unsigned char byte) const {
  while (state != 0) {
    const std::int32_t child = Child(state, byte);
    if (child >= 0) return child;
    state = states_[static_cast<std::size_t>(state)].fail;
  }
  return root_next_[byte];
}

std::vector<NeedleSet::Hit> NeedleSet::FindOne(std::string_view text) const {
  std::vector<Hit> hits;
  if (needles_.empty() || needles_[0].empty()) return hits;
  const std::size_t at = text.find(needles_[0]);
  if (at != std::string_view::npos) hits.push_back(Hit{0, at});
  return hits;
}

std::vector<NeedleSet::Hit> NeedleSet::FirstHits(std::string_view text) const {
  if (needles_.size() <= 1) return FindOne(text);
  std::vector<Hit> hits;
  // Slots found so far are skipped by path compression over `link`, so a
  // long chain of found slots is walked once, not at every byte.
  std::vector<std::int32_t> link(slots_.size());
  std::vector<char> found(slots_.size(), 0);
  for (std::size_t i = 0; i < slots_.size(); ++i) link[i] = slots_[i].next;
  auto first_unfound = [&link, &found](std::int32_t slot) {
    std::int32_t end = slot;
    while (end >= 0 && found[static_cast<std::size_t>(end)] != 0) end = link[static_cast<std::size_t>(end)];
    while (slot >= 0 && found[static_cast<std::size_t>(slot)] != 0) {
      const std::int32_t next = link[static_cast<std::size_t>(slot)];
      link[static_cast<std::size_t>(slot)] = end;
      slot = next;
    }
    return end;
  };
  std::size_t unfound = slots_.size();
  std::int32_t state = 0;
  for (std::size_t i = 0; i < text.size() && unfound > 0; ++i) {
    state = Step(state, static_cast<unsigned char>(text[i]));
    const std::int32_t output = states_[static_cast<std::size_t>(state)].output;
    if (output < 0) continue;
    for (std::int32_t slot = first_unfound(output); slot >= 0; slot = first_unfound(link[static_cast<std::size_t>(slot)])) {
      const Slot& s = slots_[static_cast<std::size_t>(slot)];
      for (const int n : s.needles) hits.push_back(Hit{n, i + 1 - s.length});
      found[static_cast<std::size_t>(slot)] = 1;
      --unfound;
    }
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.needle < b.needle; });
  return hits;
}

}  // namespace causegate::evidence
