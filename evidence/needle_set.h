// Many literal needles found in a text in one pass: an Aho-Corasick
// automaton over the folded fragments of one message, so that the citation
// look-up costs the bytes of each output once, not once per fragment
// (issue 15: 400 quoted lines against 8 MiB of output were 400 scans of
// it, 17.8 s in the hook).
//
// FirstHits reports, for every needle that occurs in the text, the offset
// of its first occurrence. It is linear in the text plus the needles: the
// automaton has one state per byte of the needles, transitions are sparse
// except at the root (where a text that matches nothing stays), and a
// needle once found is skipped on every later walk of the output links, so
// needles that are suffixes of one another ("aaaa", "aaaaa", ...) cannot
// make each byte's walk as long as the set. Byte-exact: the caller folds
// needles and text alike (text_fold.h). A set of one needle is a plain
// find, which is faster than any automaton.
// Thread-compatible; FirstHits is const.
// Tests: tests/unit/evidence/needle_set_test.cc.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace causegate::evidence {

class NeedleSet {
 public:
  struct Hit {
    int needle;          // index into the needles given
    std::size_t offset;  // of the needle's first occurrence in the text
  };

  // An empty needle is never found. Duplicates are allowed; each is reported.
  explicit NeedleSet(std::vector<std::string> needles);

  // Every needle found, ordered by needle index.
  std::vector<Hit> FirstHits(std::string_view text) const;

  int size() const { return static_cast<int>(needles_.size()); }
  const std::string& needle(int i) const { return needles_[static_cast<std::size_t>(i)]; }

 private:
  struct Edge {
    unsigned char byte;
    std::int32_t to;
  };
  struct State {
    std::int32_t fail = 0;
    std::int32_t first_edge = 0;  // edges_[first_edge, first_edge + edge_count), sorted by byte
    std::int32_t edge_count = 0;
    std::int32_t output = -1;     // slot of the nearest state on the fail chain (itself
                                  // first) that ends a needle, or -1
  };
  // A state that ends needles (duplicates end at the same state).
  struct Slot {
    std::vector<int> needles;
    std::size_t length = 0;       // of those needles
    std::int32_t next = -1;       // next slot down the fail chain, or -1
  };

  void Build();
  std::int32_t Child(std::int32_t state, unsigned char byte) const;  // -1 when none
  std::int32_t Step(std::int32_t state, unsigned char byte) const;
  std::vector<Hit> FindOne(std::string_view text) const;

  std::vector<std::string> needles_;
  std::vector<State> states_;
  std::vector<Edge> edges_;
  std::vector<Slot> slots_;
  std::array<std::int32_t, 256> root_next_{};
};

}  // namespace causegate::evidence
