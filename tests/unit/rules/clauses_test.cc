#include "rules/clauses.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace causegate::rules {
namespace {

std::vector<std::string> Clauses(std::string_view s) {
  std::vector<std::string> out;
  for (const ClauseSpan& c : SplitClauses(s)) out.emplace_back(s.substr(c.begin, c.end - c.begin));
  return out;
}

TEST_CASE("Clauses: coordination splits, a consequence stays with its clause") {
  using V = std::vector<std::string>;
  CHECK(Clauses("The root cause is X, and I suggest raising Y") == V{"The root cause is X", " and I suggest raising Y"});
  CHECK(Clauses("The cause may be X, so I raised Y") == V{"The cause may be X, so I raised Y"});
  CHECK(Clauses("It failed because the disk filled, which is why the job died") ==
        V{"It failed because the disk filled, which is why the job died"});
  CHECK(Clauses("The pool is exhausted; the retries might help") == V{"The pool is exhausted", " the retries might help"});
  CHECK(Clauses("It is the cache, But not the index") == V{"It is the cache", " But not the index"});
  // Dashes arrive folded to '-'; a dash opens a clause after three words.
  CHECK(Clauses("The 502s are down to the pool - do you want me to raise it?") ==
        V{"The 502s are down to the pool", "do you want me to raise it?"});
  CHECK(Clauses("Verdict - the cache key omits the locale") == V{"Verdict - the cache key omits the locale"});
  CHECK(Clauses("Root cause - the cache key omits the locale") == V{"Root cause - the cache key omits the locale"});
  CHECK(Clauses("根因是磁盘满了，建议扩容") == V{"根因是磁盘满了", "建议扩容"});
  CHECK(Clauses("因为磁盘满了，所以任务失败") == V{"因为磁盘满了，所以任务失败"});
  CHECK(Clauses("可能是网络；磁盘满了导致失败") == V{"可能是网络", "磁盘满了导致失败"});
  // An offer after a finding is a clause of its own; a bare hedge is not.
  CHECK(Clauses("导出失败是因为磁盘满了，也许可以加个告警") == V{"导出失败是因为磁盘满了", "也许可以加个告警"});
  CHECK(Clauses("因为磁盘满了，可能导致导出失败") == V{"因为磁盘满了，可能导致导出失败"});
  // The hedge, an adverb, a modal of advice: any of each.
  CHECK(Clauses("是共用临时目录导致的，或许也可以把并发调小") == V{"是共用临时目录导致的", "或许也可以把并发调小"});
  CHECK(Clauses("是锁没释放导致的，可能还需要重启一次") == V{"是锁没释放导致的", "可能还需要重启一次"});
  CHECK(Clauses("是锁没释放导致的，顺便把超时调短") == V{"是锁没释放导致的", "顺便把超时调短"});
  CHECK(Clauses("失败了，可能是锁没释放导致的") == V{"失败了，可能是锁没释放导致的"});
  // A cause ruled out beside the one asserted, and an offer, are clauses
  // of their own.
  CHECK(Clauses("It failed because the table was locked, not because of the network") ==
        V{"It failed because the table was locked", " not because of the network"});
  CHECK(Clauses("The lock is the cause, if you want I can add a timeout") ==
        V{"The lock is the cause", " if you want I can add a timeout"});
  CHECK(Clauses("If it fails, the lock is the cause") == V{"If it fails, the lock is the cause"});
  CHECK(Clauses("部署失败是因为表被锁住了，并不是网络的问题") == V{"部署失败是因为表被锁住了", "并不是网络的问题"});
}

TEST_CASE("Clauses: separators at either end open nothing, and the spans stay in the text") {
  CHECK(SplitClauses("").size() == 1);
  CHECK(SplitClauses("; leading").size() == 1);
  CHECK(SplitClauses("trailing;").size() == 1);
  const std::string s = "a; b; c, and d";
  std::size_t last = 0;
  for (const ClauseSpan& c : SplitClauses(s)) {
    CHECK(c.begin >= last);
    CHECK(c.end <= s.size());
    last = c.end;
  }
  CHECK(SplitClauses(s).size() == 4);
}

}  // namespace
}  // namespace causegate::rules
