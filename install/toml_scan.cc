// The TOML reader behind causegate's edit of Codex's config.toml. Not a
// TOML library on purpose: Debian 12 has toml++ (libtomlplusplus-dev), but
// a parse-and-serialise round trip drops the user's comments and layout,
// and config.toml is a file people write by hand. So this reads only as
// much as it takes to know where each item starts and ends (TOML 1.0:
// keys bare, "basic" or 'literal', dotted; values delimited by their
// syntax), and the edit (install/hook_state_toml.cc) replaces bytes inside
// the one item it changes. Anything it cannot delimit is an error, and
// the caller then writes nothing.
// Tests: tests/unit/install/toml_scan_test.cc.
#include "install/toml_scan.h"

#include <utf8proc.h>

#include <cstdint>

namespace causegate::install {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : t_(text) {}

  Status Run(std::vector<TomlItem>* out) {
    std::vector<std::string> table;
    while (p_ < t_.size()) {
      TomlItem item;
      item.begin = p_;
      item.line = line_;
      SkipBlanks();
      if (AtLineEnd() || Peek() == '#') {
        item.kind = TomlItem::Kind::kTrivia;
      } else if (Peek() == '[') {
        const bool array = p_ + 1 < t_.size() && t_[p_ + 1] == '[';
        item.value_begin = p_;
        p_ += array ? 2 : 1;
        if (Status s = Key(&item.path); !s.ok()) return s;
        SkipBlanks();
        if (!Eat(']') || (array && !Eat(']'))) return Fail("expected ] after the table name");
        item.value_end = p_;
        item.kind = array ? TomlItem::Kind::kArrayTable : TomlItem::Kind::kTable;
        table = item.path;
        if (array) table.push_back("[]");
      } else {
        std::vector<std::string> key;
        if (Status s = Key(&key); !s.ok()) return s;
        SkipBlanks();
        if (!Eat('=')) return Fail("expected = after a key");
        SkipBlanks();
        item.kind = TomlItem::Kind::kKeyValue;
        item.path = table;
        item.path.insert(item.path.end(), key.begin(), key.end());
        item.key_parts = key.size();
        item.value_begin = p_;
        if (Status s = Value(); !s.ok()) return s;
        item.value_end = p_;
      }
      if (Status s = LineEnd(); !s.ok()) return s;
      item.end = p_;
      out->push_back(std::move(item));
    }
    return Status::Ok();
  }

 private:
  char Peek() const { return p_ < t_.size() ? t_[p_] : '\0'; }
  bool StartsWith(std::string_view s) const { return t_.substr(p_, s.size()) == s; }
  bool AtLineEnd() const { return p_ >= t_.size() || t_[p_] == '\n' || StartsWith("\r\n"); }
  bool Eat(char c) {
    if (Peek() != c || p_ >= t_.size()) return false;
    ++p_;
    return true;
  }
  void SkipBlanks() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t')) ++p_;
  }
  void Newline() {
    if (StartsWith("\r\n")) ++p_;
    ++p_;
    ++line_;
  }
  // White space, newlines and comments (inside arrays and inline tables).
  void SkipAll() {
    for (;;) {
      SkipBlanks();
      if (Peek() == '#') {
        while (!AtLineEnd()) ++p_;
      }
      if (p_ >= t_.size() || !AtLineEnd()) return;
      Newline();
    }
  }
  Status Fail(const std::string& what) const { return Status::Error(std::to_string(line_) + ": " + what); }

  // The rest of a line after an item: blanks, a comment, the newline.
  Status LineEnd() {
    SkipBlanks();
    if (Peek() == '#') {
      while (!AtLineEnd()) ++p_;
    }
    if (!AtLineEnd()) return Fail("unexpected text after the item");
    if (p_ < t_.size()) Newline();
    return Status::Ok();
  }

  Status Key(std::vector<std::string>* parts) {
    for (;;) {
      SkipBlanks();
      std::string part;
      if (Peek() == '"' || Peek() == '\'') {
        if (StartsWith("\"\"\"") || StartsWith("'''")) return Fail("a multi-line string cannot be a key");
        const std::size_t start = p_;
        if (Status s = SingleLineString(); !s.ok()) return s;
        if (!TomlStringValue(t_.substr(start, p_ - start), &part)) return Fail("bad escape in a quoted key");
      } else {
        while (p_ < t_.size() && IsBare(t_[p_])) part.push_back(t_[p_++]);
        if (part.empty()) return Fail("expected a key");
      }
      parts->push_back(std::move(part));
      SkipBlanks();
      if (!Eat('.')) return Status::Ok();
    }
  }
  static bool IsBare(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  }

  Status SingleLineString() {
    const char quote = t_[p_++];
    while (p_ < t_.size() && t_[p_] != quote) {
      if (t_[p_] == '\n') return Fail("unterminated string");
      if (quote == '"' && t_[p_] == '\\') ++p_;
      ++p_;
    }
    if (!Eat(quote)) return Fail("unterminated string");
    return Status::Ok();
  }

  Status MultiLineString() {
    const char quote = t_[p_];
    const std::string_view delim = quote == '"' ? "\"\"\"" : "'''";
    p_ += 3;
    while (p_ < t_.size()) {
      if (quote == '"' && t_[p_] == '\\') {
        p_ += 2;
        continue;
      }
      if (StartsWith(delim)) {
        p_ += 3;
        // Up to two more quotes belong to the content: """a""""" is a"".
        for (int i = 0; i < 2 && Peek() == quote; ++i) ++p_;
        return Status::Ok();
      }
      if (t_[p_] == '\n') {
        Newline();
      } else {
        ++p_;
      }
    }
    return Fail("unterminated multi-line string");
  }

  Status Value() {
    const char c = Peek();
    if (c == '"' || c == '\'') {
      if (StartsWith("\"\"\"") || StartsWith("'''")) return MultiLineString();
      return SingleLineString();
    }
    if (c == '[') return Container(']');
    if (c == '{') return Container('}');
    // Numbers, booleans, dates: up to a delimiter. A date and a time may be
    // separated by one space ("1979-05-27 07:32:00").
    const std::size_t start = p_;
    while (p_ < t_.size() && std::string_view(" \t\r\n,]}#").find(t_[p_]) == std::string_view::npos) ++p_;
    if (p_ == start) return Fail("expected a value");
    const std::string_view word = t_.substr(start, p_ - start);
    const bool date = word.size() == 10 && word[4] == '-' && word[7] == '-';
    if (date && Peek() == ' ' && p_ + 1 < t_.size() && t_[p_ + 1] >= '0' && t_[p_ + 1] <= '9') {
      ++p_;
      while (p_ < t_.size() && std::string_view(" \t\r\n,]}#").find(t_[p_]) == std::string_view::npos) ++p_;
    }
    return Status::Ok();
  }

  // An array or an inline table, nested ones included, across lines.
  Status Container(char close) {
    ++p_;
    for (;;) {
      SkipAll();
      if (p_ >= t_.size()) return Fail(std::string("unterminated ") + (close == ']' ? "array" : "inline table"));
      if (Eat(close)) return Status::Ok();
      if (close == '}') {
        std::vector<std::string> key;
        if (Status s = Key(&key); !s.ok()) return s;
        SkipBlanks();
        if (!Eat('=')) return Fail("expected = in an inline table");
        SkipBlanks();
      }
      if (Status s = Value(); !s.ok()) return s;
      SkipAll();
      if (p_ >= t_.size()) return Fail(std::string("unterminated ") + (close == ']' ? "array" : "inline table"));
      if (Eat(',')) continue;
      if (Eat(close)) return Status::Ok();
      return Fail(std::string("expected , or ") + close);
    }
  }

  std::string_view t_;
  std::size_t p_ = 0;
  int line_ = 1;
};

void AppendUtf8(std::uint32_t cp, std::string* out) {
  utf8proc_uint8_t bytes[4];
  const utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(cp), bytes);
  out->append(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(n));
}

}  // namespace

Status ScanToml(std::string_view text, std::vector<TomlItem>* out) {
  out->clear();
  return Scanner(text).Run(out);
}

Status TomlStringAt(std::string_view text, const std::vector<std::string>& path, bool* found, std::string* value) {
  *found = false;
  value->clear();
  std::vector<TomlItem> items;
  if (Status s = ScanToml(text, &items); !s.ok()) return s;
  for (const TomlItem& item : items) {
    if (item.kind != TomlItem::Kind::kKeyValue || item.path != path) continue;
    *found = TomlStringValue(text.substr(item.value_begin, item.value_end - item.value_begin), value);
    return Status::Ok();
  }
  return Status::Ok();
}

bool TomlStringValue(std::string_view raw, std::string* out) {
  out->clear();
  if (raw.size() < 2 || raw.front() != raw.back() || (raw.front() != '"' && raw.front() != '\'')) return false;
  if (raw.size() >= 6 && (raw.substr(0, 3) == "\"\"\"" || raw.substr(0, 3) == "'''")) return false;
  const std::string_view body = raw.substr(1, raw.size() - 2);
  if (raw.front() == '\'') {
    out->assign(body);
    return true;
  }
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      out->push_back(body[i]);
      continue;
    }
    if (++i >= body.size()) return false;
    switch (body[i]) {
      case 'b':
        out->push_back('\b');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 'e':
        out->push_back('\x1b');
        break;
      case '"':
        out->push_back('"');
        break;
      case '\\':
        out->push_back('\\');
        break;
      case 'u':
      case 'U': {
        const std::size_t digits = body[i] == 'u' ? 4 : 8;
        std::uint32_t cp = 0;
        for (std::size_t k = 1; k <= digits; ++k) {
          if (i + k >= body.size()) return false;
          const char h = body[i + k];
          const int v = h >= '0' && h <= '9'   ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
          if (v < 0) return false;
          cp = cp * 16 + static_cast<std::uint32_t>(v);
        }
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        AppendUtf8(cp, out);
        i += digits;
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

std::string TomlKey(std::string_view key) {
  bool bare = !key.empty();
  for (const char c : key) {
    bare = bare && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-');
  }
  if (bare) return std::string(key);
  std::string out = "\"";
  for (const char c : key) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20 || u == 0x7f) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\u00";
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 0xf]);
    } else {
      out.push_back(c);
    }
  }
  return out + "\"";
}

}  // namespace causegate::install
