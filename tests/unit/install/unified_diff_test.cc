#include "install/unified_diff.h"

#include <catch2/catch.hpp>

namespace causegate::install {
namespace {

TEST_CASE("unified diff: hunks with context") {
  CHECK(UnifiedDiff("f", "a\n", "a\n").empty());
  CHECK(UnifiedDiff("f", "", "{}\n") == "--- f\n+++ f\n@@ -0,0 +1 @@\n+{}\n");
  CHECK(UnifiedDiff("f", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nX\n6\n7\n8\n9\n") ==
        "--- f\n+++ f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n");
  // Two changes far apart make two hunks.
  std::string a;
  for (int i = 0; i < 20; ++i) a += std::to_string(i) + "\n";
  std::string b = a;
  b.replace(b.find("2\n"), 2, "two\n");
  b.replace(b.find("17\n"), 3, "seventeen\n");
  const std::string d = UnifiedDiff("f", a, b);
  CHECK(d.find("@@ -1,6 +1,6 @@") != std::string::npos);
  CHECK(d.find("@@ -15,6 +15,6 @@") != std::string::npos);
  CHECK(UnifiedDiff("f", "x", "y") == "--- f\n+++ f\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n");
}

}  // namespace
}  // namespace causegate::install
