// The one error vocabulary of causegate: a Status is ok or carries a
// message in "where: what" form (ninja/leveldb style). Functions that can
// fail return a [[nodiscard]] Status; values come back through out-params
// or std::optional. Exceptions from third-party code stop at the call that
// throws and become a Status there.
#pragma once

#include <string>
#include <utility>

namespace causegate {

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with where it happened: "file.jsonl:12: " + message.
  Status Within(const std::string& where) const {
    if (ok()) return *this;
    return Status(where + ": " + message_);
  }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

}  // namespace causegate
