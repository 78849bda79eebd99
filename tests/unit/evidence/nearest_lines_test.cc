#include "evidence/nearest_lines.h"

#include <catch2/catch.hpp>

namespace causegate::evidence {
namespace {

ToolCall Call(std::string name, std::string output) {
  ToolCall c;
  c.name = std::move(name);
  c.output = std::move(output);
  c.has_result = true;
  return c;
}

TEST_CASE("Nearest lines: the lines that share the claim's words, best call first, in output order") {
  const std::vector<ToolCall> calls = {
      Call("Bash", "Filesystem Size Used\n/dev/sda1 40G 12G\n"),
      Call("Bash", "02:00:01 export starting\n02:00:09 ERROR write failed: No space left on device\n"
                   "02:00:09 export aborted\n02:00:10 unrelated heartbeat\n"),
  };
  const std::vector<NearLine> near =
      NearestOutputLines("The export failed because the disk had no space left.", calls);
  REQUIRE(near.size() == 3);
  CHECK(near[0].call == 1);
  CHECK(near[0].line == 1);
  CHECK(near[1].line == 2);
  CHECK(near[1].text == "02:00:09 ERROR write failed: No space left on device");
  CHECK(near[1].shared == 3);  // failed, space, left
  CHECK(near[2].line == 3);
}

TEST_CASE("Nearest lines: function words and cause words share nothing; Han pairs do") {
  CHECK(ClaimWords("The root cause is that the job was killed") == std::vector<std::string>{"job", "killed"});
  const std::vector<ToolCall> calls = {Call("Bash", "无关的一行\n磁盘空间不足，写入失败\n")};
  const std::vector<NearLine> near = NearestOutputLines("导出失败是因为磁盘满了。", calls);
  REQUIRE(near.size() == 1);
  CHECK(near[0].line == 2);
  CHECK(NearestOutputLines("The root cause is that.", calls).empty());
}

TEST_CASE("Nearest lines: bounded per call, in calls and in bytes read") {
  std::string big;
  for (int i = 0; i < 100; ++i) big += "worker crashed again\n";
  std::vector<ToolCall> calls(6, Call("Bash", big));
  NearestOptions options;
  options.lines_per_call = 2;
  options.max_calls = 3;
  CHECK(NearestOutputLines("The worker crashed.", calls, options).size() == 6);
  options.max_output_bytes = 10;  // "worker cra": one line of each output
  CHECK(NearestOutputLines("The worker crashed.", calls, options).size() == 3);
}

}  // namespace
}  // namespace causegate::evidence
