// How the editor keeps a file's bytes: the parser records where every
// value, key and comma is; an edit never re-serialises what is there, it
// inserts new text at a place chosen from the neighbours (after the last
// item, after a comment ending its line, with its indentation) or deletes
// the exact range an item and its separator occupy. The layout of new
// text comes from the file: the indentation unit of its first indented
// line, its newline ("\r\n" when it uses it), the gap it writes after a
// colon, and one line or many as the container it goes into.
// Tests: tests/unit/install/jsonc_edit_test.cc.
#include "install/jsonc_edit.h"

#include <algorithm>

#include "evidence/limits.h"

namespace causegate::install {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsBlank(char c) { return c == ' ' || c == '\t'; }

std::string Place(const std::string& text, std::size_t at) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;  // count characters, not UTF-8 continuation bytes
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

void AppendUtf8(unsigned cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class Parser {
 public:
  Parser(const std::string& text, JsonSyntax syntax, std::string* plain, std::string* strict)
      : t_(text), syntax_(syntax), plain_(plain), strict_(strict) {}

  Status Document(JsonNode* root) {
    if (!Trivia() || !Value(root, 0) || !Trivia()) return error_;
    if (i_ < t_.size()) {
      Fail(i_, "text after the JSON value");
      return error_;
    }
    return Status::Ok();
  }

 private:
  bool Fail(std::size_t at, const std::string& what) {
    if (error_.ok()) error_ = Status::Error(Place(t_, at) + ": " + what);
    return false;
  }

  bool Blank(std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k) {
      if (t_[k] != '\n' && t_[k] != '\r') (*plain_)[k] = (*strict_)[k] = ' ';
    }
    return true;
  }

  // White space and, in JSONC, comments.
  bool Trivia() {
    for (;;) {
      while (i_ < t_.size() && IsSpace(t_[i_])) ++i_;
      if (i_ + 1 >= t_.size() || t_[i_] != '/' || (t_[i_ + 1] != '/' && t_[i_ + 1] != '*')) return true;
      if (syntax_ == JsonSyntax::kStrict) return Fail(i_, "a comment, and this agent reads the file as strict JSON");
      const std::size_t from = i_;
      if (t_[i_ + 1] == '/') {
        const std::size_t eol = t_.find('\n', i_);
        i_ = eol == std::string::npos ? t_.size() : eol;
      } else {
        const std::size_t close = t_.find("*/", i_ + 2);
        if (close == std::string::npos) return Fail(from, "a /* comment that is never closed");
        i_ = close + 2;
      }
      Blank(from, i_);
    }
  }

  bool String(std::string* raw, std::string* value) {
    const std::size_t from = i_++;
    value->clear();
    while (i_ < t_.size()) {
      const unsigned char c = static_cast<unsigned char>(t_[i_]);
      if (c == '"') {
        ++i_;
        *raw = t_.substr(from, i_ - from);
        return true;
      }
      if (c < 0x20) return Fail(i_, "a control character inside a string (write it as an escape)");
      if (c != '\\') {
        value->push_back(static_cast<char>(c));
        ++i_;
        continue;
      }
      if (i_ + 1 >= t_.size()) break;
      const char e = t_[i_ + 1];
      const std::size_t esc = i_;
      i_ += 2;
      switch (e) {
        case '"': value->push_back('"'); break;
        case '\\': value->push_back('\\'); break;
        case '/': value->push_back('/'); break;
        case 'b': value->push_back('\b'); break;
        case 'f': value->push_back('\f'); break;
        case 'n': value->push_back('\n'); break;
        case 'r': value->push_back('\r'); break;
        case 't': value->push_back('\t'); break;
        case 'u': {
          unsigned cp = 0;
          if (!Hex4(&cp)) return Fail(esc, "\\u needs four hex digits");
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < t_.size() && t_[i_] == '\\' && t_[i_ + 1] == 'u') {
            const std::size_t save = i_;
            i_ += 2;
            unsigned low = 0;
            if (Hex4(&low) && low >= 0xDC00 && low < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else {
              i_ = save;
            }
          }
          AppendUtf8(cp, value);
          break;
        }
        default: return Fail(esc, std::string("unknown escape \\") + e);
      }
    }
    return Fail(from, "a string that is never closed");
  }

  bool Hex4(unsigned* out) {
    if (i_ + 4 > t_.size()) return false;
    *out = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = t_[i_ + k];
      unsigned d = 0;
      if (c >= '0' && c <= '9') {
        d = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        d = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        d = c - 'A' + 10;
      } else {
        return false;
      }
      *out = *out * 16 + d;
    }
    i_ += 4;
    return true;
  }

  bool Number() {
    const std::size_t from = i_;
    auto digits = [&] {
      const std::size_t d = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
      return i_ > d;
    };
    if (i_ < t_.size() && t_[i_] == '-') ++i_;
    if (i_ < t_.size() && t_[i_] == '0') {
      ++i_;
    } else if (!digits()) {
      return Fail(from, "not a number");
    }
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (!digits()) return Fail(from, "a number needs digits after its point");
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (!digits()) return Fail(from, "a number needs digits in its exponent");
    }
    return true;
  }

  // After an item: a comma and another item, or the closing bracket (a
  // comma just before it is a trailing comma). *more: another item follows.
  bool Separator(char close, bool* more) {
    if (!Trivia()) return false;
    if (i_ < t_.size() && t_[i_] == ',') {
      const std::size_t comma = i_++;
      if (!Trivia()) return false;
      if (i_ < t_.size() && t_[i_] == close) {
        if (syntax_ == JsonSyntax::kStrict) {
          return Fail(comma, "a trailing comma, and this agent reads the file as strict JSON");
        }
        (*strict_)[comma] = ' ';
        ++i_;
        *more = false;
        return true;
      }
      *more = true;
      return true;
    }
    if (i_ < t_.size() && t_[i_] == close) {
      ++i_;
      *more = false;
      return true;
    }
    return Fail(i_, std::string("expected , or ") + close);
  }

  bool Value(JsonNode* node, int depth) {
    if (i_ >= t_.size()) return Fail(i_, "expected a JSON value, found the end of the file");
    node->start = node->key_start = i_;
    const char c = t_[i_];
    if (c == '{' || c == '[') {
      if (depth >= limits::kMaxJsonDepth) return Fail(i_, "nested too deep");
      node->kind = c == '{' ? JsonNode::Kind::kObject : JsonNode::Kind::kArray;
      const char close = c == '{' ? '}' : ']';
      ++i_;
      if (!Trivia()) return false;
      if (i_ < t_.size() && t_[i_] == close) {
        node->end = ++i_;
        return true;
      }
      for (bool more = true; more;) {
        JsonNode child;
        if (node->is_object()) {
          if (i_ >= t_.size() || t_[i_] != '"') return Fail(i_, "expected a key in double quotes");
          const std::size_t key_start = i_;
          if (!String(&child.key_raw, &child.key) || !Trivia()) return false;
          if (i_ >= t_.size() || t_[i_] != ':') return Fail(i_, "expected : after the key");
          ++i_;
          if (!Trivia() || !Value(&child, depth + 1)) return false;
          child.key_start = key_start;
        } else if (!Value(&child, depth + 1)) {
          return false;
        }
        node->children.push_back(std::move(child));
        if (!Separator(close, &more)) return false;
      }
      node->end = i_;
      return true;
    }
    if (c == '"') {
      node->kind = JsonNode::Kind::kString;
      if (!String(&node->raw, &node->value)) return false;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      node->kind = JsonNode::Kind::kNumber;
      if (!Number()) return false;
      node->raw = t_.substr(node->start, i_ - node->start);
    } else {
      for (const char* word : {"true", "false", "null"}) {
        const std::size_t n = std::char_traits<char>::length(word);
        if (t_.compare(i_, n, word) == 0) {
          node->kind = word[0] == 'n' ? JsonNode::Kind::kNull : JsonNode::Kind::kBool;
          node->raw = word;
          i_ += n;
          node->end = i_;
          return true;
        }
      }
      return Fail(i_, std::string("unexpected ") + (c == '\'' ? "' (JSON strings use double quotes)" : "character"));
    }
    node->end = i_;
    return true;
  }

  const std::string& t_;
  JsonSyntax syntax_;
  std::string* plain_;
  std::string* strict_;
  std::size_t i_ = 0;
  Status error_;
};

// ---- layout ----------------------------------------------------------------

struct Style {
  std::string nl = "\n";
  std::string unit = "  ";
  std::string colon = ": ";
  std::string comma = ", ";  // between items on one line: ", " unless the file writes ":" bare
};

// The first member's gap between key and value, outside comments.
void FindColon(const std::string& strict, const JsonNode& node, std::string* colon, bool* found) {
  // Breadth is enough: the root's first member, else its children's.
  std::vector<const JsonNode*> queue = {&node};
  for (std::size_t q = 0; q < queue.size() && !*found && q < 64; ++q) {
    const JsonNode* n = queue[q];
    if (n->is_object() && !n->children.empty()) {
      const JsonNode& m = n->children.front();
      std::string gap = strict.substr(m.key_start + m.key_raw.size(), m.start - m.key_start - m.key_raw.size());
      if (gap.find('\n') == std::string::npos) {
        *colon = gap;
        *found = true;
        return;
      }
    }
    for (const JsonNode& c : n->children) queue.push_back(&c);
  }
}

Style StyleOf(const JsoncDocument& doc) {
  Style s;
  const std::string& t = doc.text();
  if (t.find("\r\n") != std::string::npos) s.nl = "\r\n";
  for (std::size_t i = t.find('\n'); i != std::string::npos; i = t.find('\n', i + 1)) {
    std::size_t j = i + 1;
    while (j < t.size() && IsBlank(t[j])) ++j;
    if (j == i + 1 || j >= t.size() || t[j] == '\n' || t[j] == '\r') continue;
    s.unit = t.substr(i + 1, j - i - 1);
    break;
  }
  bool found = false;
  FindColon(doc.strict_text(), doc.root(), &s.colon, &found);
  if (!found || s.colon.find(':') == std::string::npos) s.colon = ": ";
  if (s.colon.back() == ':') s.comma = ",";
  return s;
}

// The blanks that start the line holding pos.
std::string LineIndent(const std::string& t, std::size_t pos) {
  std::size_t line = t.rfind('\n', pos == 0 ? 0 : pos - 1);
  line = line == std::string::npos || pos == 0 ? 0 : line + 1;
  std::size_t j = line;
  while (j < t.size() && IsBlank(t[j])) ++j;
  return t.substr(line, j - line);
}

bool SpansLines(const std::string& t, std::size_t from, std::size_t to) {
  return t.find('\n', from) < to;
}

bool SameLine(const std::string& t, std::size_t a, std::size_t b) {
  return !SpansLines(t, std::min(a, b), std::max(a, b));
}

// The first position at or after pos that is not white space or a comment.
std::size_t SkipTrivia(const std::string& plain, std::size_t pos) {
  while (pos < plain.size() && IsSpace(plain[pos])) ++pos;
  return pos;
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

bool AllScalars(const JsonNode& n) {
  return std::none_of(n.children.begin(), n.children.end(),
                      [](const JsonNode& c) { return c.is_array() || c.is_object(); });
}

void Emit(const JsonNode& v, const std::string& indent, bool pretty, const Style& s, std::string* out) {
  if (!v.is_array() && !v.is_object()) {
    out->append(v.raw);
    return;
  }
  const char open = v.is_object() ? '{' : '[';
  const char close = v.is_object() ? '}' : ']';
  out->push_back(open);
  // Lists of strings and numbers (an "args" list) stay on one line.
  const bool lines = pretty && !v.children.empty() && !(v.is_array() && AllScalars(v));
  const std::string inner = indent + s.unit;
  for (std::size_t k = 0; k < v.children.size(); ++k) {
    if (lines) {
      out->append((k > 0 ? "," : "") + s.nl + inner);
    } else if (k > 0) {
      out->append(s.comma);
    }
    const JsonNode& c = v.children[k];
    if (v.is_object()) out->append(c.key_raw.empty() ? Quote(c.key) : c.key_raw).append(s.colon);
    Emit(c, inner, pretty, s, out);
  }
  if (lines) out->append(s.nl + indent);
  out->push_back(close);
}

std::string ItemText(const JsonNode& container, const NewItem& item, const std::string& indent, bool pretty,
                     const Style& s) {
  std::string out;
  if (container.is_object()) out = Quote(item.key) + s.colon;
  Emit(item.value, indent, pretty, s, &out);
  return out;
}

}  // namespace

const JsonNode* JsonNode::Find(std::string_view name) const {
  for (auto it = children.rbegin(); it != children.rend(); ++it) {
    if (it->key == name) return &*it;
  }
  return nullptr;
}

Status JsoncDocument::Parse(std::string text, JsonSyntax syntax, JsoncDocument* out) {
  *out = JsoncDocument();
  out->syntax_ = syntax;
  out->text_ = std::move(text);
  out->plain_ = out->strict_ = out->text_;
  Parser parser(out->text_, syntax, &out->plain_, &out->strict_);
  return parser.Document(&out->root_);
}

std::string ApplyEdits(const std::string& text, std::vector<TextEdit> edits) {
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.offset > b.offset; });
  std::string out = text;
  for (const TextEdit& e : edits) out.replace(e.offset, e.remove, e.insert);
  return out;
}

std::vector<TextEdit> AppendItems(const JsoncDocument& doc, const JsonNode& container,
                                  const std::vector<NewItem>& items) {
  const std::string& t = doc.text();
  const std::string& plain = doc.plain_text();
  const Style s = StyleOf(doc);
  const std::size_t open = container.start;
  const std::size_t close = container.end - 1;
  const std::string base = LineIndent(t, open);
  if (items.empty()) return {};

  if (container.children.empty()) {
    // A file written on one line gets one line; otherwise (and for the
    // document itself) each item on its own line.
    const bool pretty = &container == &doc.root() || SpansLines(t, doc.root().start, doc.root().end);
    const std::string inner = base + s.unit;
    std::string body;
    for (std::size_t k = 0; k < items.size(); ++k) {
      if (!pretty) {
        body += (k > 0 ? s.comma : "") + ItemText(container, items[k], "", false, s);
      } else {
        body += (k > 0 ? "," : "") + s.nl + inner + ItemText(container, items[k], inner, true, s);
      }
    }
    const bool commented = t.find_first_not_of(" \t\r\n", open + 1) < close;
    if (!commented) return {{open + 1, close - open - 1, pretty ? body + s.nl + base : body}};
    // Comments inside: keep them, add after the last line that has one.
    const std::size_t last_nl = t.rfind('\n', close);
    if (pretty && last_nl != std::string::npos && last_nl > open) {
      const std::size_t at = last_nl > 0 && t[last_nl - 1] == '\r' ? last_nl - 1 : last_nl;
      return {{at, 0, body}};
    }
    return {{close, 0, pretty ? body + s.nl + base : " " + body + " "}};
  }

  const JsonNode& last = container.children.back();
  const std::size_t after = SkipTrivia(plain, last.end);
  const bool trailing = after < t.size() && t[after] == ',' && SkipTrivia(plain, after + 1) == close;
  const std::size_t anchor = trailing ? after + 1 : last.end;
  const bool pretty = SpansLines(t, open, close);

  if (!pretty) {
    // One line: the gap the file leaves before its last item.
    std::size_t g = last.item_start();
    while (g > open + 1 && IsBlank(t[g - 1])) --g;
    const std::string gap = t.substr(g, last.item_start() - g);
    std::string body;
    for (const NewItem& item : items) {
      body += trailing ? gap + ItemText(container, item, "", false, s) + ","
                       : "," + gap + ItemText(container, item, "", false, s);
    }
    return {{anchor, 0, body}};
  }

  std::string indent = LineIndent(t, last.item_start());
  if (SameLine(t, open, last.item_start())) indent = base + s.unit;
  // Past blanks and comments that end the last item's line.
  std::size_t at = anchor;
  for (;;) {
    while (at < t.size() && IsBlank(t[at])) ++at;
    if (t.compare(at, 2, "//") == 0) {
      at = t.find('\n', at);
      if (at == std::string::npos) at = t.size();
      continue;
    }
    if (t.compare(at, 2, "/*") == 0) {
      const std::size_t end = t.find("*/", at);
      if (end != std::string::npos && SameLine(t, at, end)) {
        at = end + 2;
        continue;
      }
    }
    break;
  }
  if (at < t.size() && t[at] == '\r') {
    // "\r\n": insert before the pair.
  } else if (at >= t.size() || t[at] != '\n') {
    at = anchor;  // something else follows on that line: insert right after the item
  }
  std::string body;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const std::string text = ItemText(container, items[k], indent, true, s);
    body += trailing ? s.nl + indent + text + "," : (k > 0 ? "," : "") + s.nl + indent + text;
  }
  if (trailing) return {{at, 0, body}};
  if (at == last.end) return {{at, 0, "," + body}};
  return {{last.end, 0, ","}, {at, 0, body}};
}

std::vector<TextEdit> ReplaceValue(const JsoncDocument& doc, const JsonNode& node, const JsonNode& replacement) {
  const std::string& t = doc.text();
  const bool pretty = SpansLines(t, node.start, node.end);
  std::string text;
  Emit(replacement, LineIndent(t, node.item_start()), pretty, StyleOf(doc), &text);
  return {{node.start, node.end - node.start, text}};
}

std::vector<TextEdit> RemoveItem(const JsoncDocument& doc, const JsonNode& container, std::size_t index) {
  const std::string& t = doc.text();
  const std::string& plain = doc.plain_text();
  const std::size_t n = container.children.size();
  const JsonNode& item = container.children[index];
  const std::size_t open = container.start;
  const std::size_t close = container.end - 1;
  const std::size_t s = item.item_start();
  const std::size_t e = item.end;
  const std::size_t after = SkipTrivia(plain, e);
  const std::size_t own_comma = after < t.size() && t[after] == ',' ? after : std::string::npos;
  const std::size_t own_end = own_comma == std::string::npos ? e : own_comma + 1;

  // The item's line with the newline before it, when the item starts it.
  std::size_t a = s;
  while (a > open + 1 && IsBlank(t[a - 1])) --a;
  const bool own_line = a > open && t[a - 1] == '\n';
  if (own_line) {
    --a;
    if (a > 0 && t[a - 1] == '\r') --a;
  }

  if (n == 1) {
    const std::string rest = t.substr(open + 1, a - open - 1) + t.substr(own_end, close - own_end);
    if (rest.find_first_not_of(" \t\r\n") == std::string::npos) return {{open + 1, close - open - 1, ""}};
    return {{a, own_end - a, ""}};
  }
  if (own_comma != std::string::npos) {
    if (!own_line && index + 1 < n) {
      const std::size_t next = container.children[index + 1].item_start();
      if (SameLine(t, s, next)) return {{s, next - s, ""}};
    }
    return {{a, own_end - a, ""}};
  }
  // The last item, no comma of its own: the comma after the one before goes.
  const std::size_t prev_comma = SkipTrivia(plain, container.children[index - 1].end);
  if (prev_comma + 1 == a) return {{prev_comma, e - prev_comma, ""}};
  return {{prev_comma, 1, ""}, {a, e - a, ""}};
}

}  // namespace causegate::install
