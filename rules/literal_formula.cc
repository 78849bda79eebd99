// A pattern's required literals written down and read back, so the build
// can read the built-in packs' patterns once (rules/literal_table/) and a
// hook call only replays what reading them made: reading the packs' syntax
// was a quarter of a cold hook call's instructions.
//
// Replaying must give what Add would have given in the same filter, not
// just an equivalent formula: Add shares atoms between patterns and its
// nodes list their parts in the order the nodes were made, so the order
// Describe prints depends on which atoms earlier patterns made. Formula
// therefore writes down the making itself (every atom Add made and every
// node the requirement uses, in order), and AddFormula makes them again in
// that order, sorting each node's parts by the indices this filter gives
// them, as Add's Join does. A formula is read whole before anything is
// made, so a malformed one changes nothing and requires nothing.
// Tests: tests/unit/rules/literal_formula_test.cc.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/required_literals.h"

namespace causegate::rules {
namespace {

// One event of a formula: an atom, or a node over earlier events. A
// node's parts are a run of the reader's one parts list, so reading a
// formula allocates per formula, not per node (a cold hook call replays
// some 400 of them).
struct Event {
  LiteralFilter::Node::Op op = LiteralFilter::Node::Op::kAtom;
  std::string_view atom;       // kAtom
  std::size_t first_part = 0;  // kAnd, kOr: parts[first_part, first_part + part_count)
  std::size_t part_count = 0;  // ... ordinals of earlier events
};

// Reads formula (LiteralFilter::Formula's grammar) into events, their parts
// and the root's ordinal (LiteralFilter::kAll for none); false when it
// does not parse, with nothing promised about the outputs.
class FormulaReader {
 public:
  explicit FormulaReader(std::string_view text) : text_(text) {}

  bool Read(std::vector<Event>* events, std::vector<int>* parts, int* root) {
    if (text_ == "*") {
      *root = LiteralFilter::kAll;
      return true;
    }
    while (!AtEnd() && Peek() != '=') {
      Event event;
      if (Peek() == '&' || Peek() == '|') {
        event.op = Peek() == '&' ? LiteralFilter::Node::Op::kAnd : LiteralFilter::Node::Op::kOr;
        ++pos_;
        event.first_part = parts->size();
        if (!ReadParts(static_cast<int>(events->size()), parts)) return false;
        event.part_count = parts->size() - event.first_part;
      } else {
        int length = 0;
        if (!ReadNumber(&length) || length == 0 || Peek() != ':' ||
            static_cast<std::size_t>(length) > text_.size() - pos_ - 1) {
          return false;
        }
        event.atom = text_.substr(pos_ + 1, static_cast<std::size_t>(length));
        pos_ += 1 + static_cast<std::size_t>(length);
      }
      events->push_back(std::move(event));
    }
    if (AtEnd()) return false;  // no '='
    ++pos_;
    if (text_.substr(pos_) == "*") {
      *root = LiteralFilter::kAll;
      return true;
    }
    return ReadNumber(root) && *root < static_cast<int>(events->size()) && AtEnd();
  }

 private:
  // Two or more ascending ordinals below count, separated by ',' and
  // ended by ';', appended to parts.
  bool ReadParts(int count, std::vector<int>* parts) {
    const std::size_t first = parts->size();
    while (true) {
      int ordinal = 0;
      if (!ReadNumber(&ordinal) || ordinal >= count || (parts->size() > first && ordinal <= parts->back())) {
        return false;
      }
      parts->push_back(ordinal);
      if (Peek() == ';') break;
      if (Peek() != ',') return false;
      ++pos_;
    }
    ++pos_;
    return parts->size() - first >= 2;
  }

  // A decimal number of at most kMaxDigits digits.
  bool ReadNumber(int* out) {
    static constexpr std::size_t kMaxDigits = 9;
    std::size_t digits = 0;
    int value = 0;
    while (!AtEnd() && Peek() >= '0' && Peek() <= '9' && digits < kMaxDigits) {
      value = value * 10 + (Peek() - '0');
      ++digits;
      ++pos_;
    }
    *out = value;
    return digits > 0 && !(Peek() >= '0' && Peek() <= '9');
  }

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string LiteralFilter::Formula(std::string_view pattern) {
  LiteralFilter alone;
  alone.Add(pattern);
  const int root = alone.roots_[0];
  if (root == kAll && alone.atoms_.empty()) return "*";
  // A node's parts were made before it, so one pass down from the root
  // finds what it uses; Join's nodes that were merged into others are not.
  std::vector<char> used(alone.nodes_.size(), 0);
  if (root != kAll) used[static_cast<std::size_t>(root)] = 1;
  for (std::size_t i = alone.nodes_.size(); i-- > 0;) {
    if (!used[i]) continue;
    for (const int part : alone.nodes_[i].subs) used[static_cast<std::size_t>(part)] = 1;
  }
  std::vector<int> ordinal(alone.nodes_.size(), -1);
  std::string out;
  int next = 0;
  for (std::size_t i = 0; i < alone.nodes_.size(); ++i) {
    const Node& n = alone.nodes_[i];
    if (n.op == Node::Op::kAtom) {
      const std::string& atom = alone.atoms_[static_cast<std::size_t>(n.atom)];
      out += std::to_string(atom.size()) + ":" + atom;
    } else if (used[i]) {
      out += n.op == Node::Op::kAnd ? '&' : '|';
      for (std::size_t k = 0; k < n.subs.size(); ++k) {
        if (k > 0) out += ',';
        out += std::to_string(ordinal[static_cast<std::size_t>(n.subs[k])]);
      }
      out += ';';
    } else {
      continue;
    }
    ordinal[i] = next++;
  }
  return out + "=" + (root == kAll ? "*" : std::to_string(ordinal[static_cast<std::size_t>(root)]));
}

void LiteralFilter::AddFormula(std::string_view formula) {
  std::vector<Event> events;
  std::vector<int> parts;
  int root = kAll;
  if (!FormulaReader(formula).Read(&events, &parts, &root)) {
    roots_.push_back(kAll);
    return;
  }
  std::vector<int> node_of(events.size(), kAll);
  for (std::size_t e = 0; e < events.size(); ++e) {
    const Event& event = events[e];
    if (event.op == Node::Op::kAtom) {
      node_of[e] = AtomNode(event.atom);
      continue;
    }
    Node n;
    n.op = event.op;
    n.subs.reserve(event.part_count);
    for (std::size_t k = 0; k < event.part_count; ++k) {
      n.subs.push_back(node_of[static_cast<std::size_t>(parts[event.first_part + k])]);
    }
    std::sort(n.subs.begin(), n.subs.end());
    // Two events of one atom (only in a formula Formula did not write).
    n.subs.erase(std::unique(n.subs.begin(), n.subs.end()), n.subs.end());
    nodes_.push_back(std::move(n));
    node_of[e] = static_cast<int>(nodes_.size()) - 1;
  }
  roots_.push_back(root == kAll ? kAll : node_of[static_cast<std::size_t>(root)]);
}

}  // namespace causegate::rules
