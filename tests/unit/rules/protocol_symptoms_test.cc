#include "rules/symptoms.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "evidence/limits.h"
#include "test_rules.h"

namespace causegate::rules {
namespace {

using testing::DefaultRules;

std::vector<std::string> Names(const std::vector<Symptom>& symptoms) {
  std::vector<std::string> names;
  for (const Symptom& s : symptoms) names.push_back(s.name);
  return names;
}

bool Has(const std::vector<Symptom>& symptoms, const std::string& name) {
  const std::vector<std::string> names = Names(symptoms);
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST_CASE("Every symptom is read from prompts in English and Chinese and from tool output") {
  struct Row {
    const char* symptom;
    const char* text;
  };
  const Row rows[] = {
      {"oom", "my 3B finetune got OOM-killed around midnight, why?"},
      {"oom", "微调跑到一半显存不足退出了，为什么？"},
      {"oom", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB"},
      {"nan", "the loss turns NaN right after warmup"},
      {"nan", "预热结束后 loss 开始发散，怎么回事？"},
      {"nan", "step 3100 | loss nan | grad_norm inf"},
      {"hang", "the job has been stuck at step 500 for an hour"},
      {"hang", "训练卡在第 500 步不动了"},
      {"hang", "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88)"},
      {"slowdown", "each step got 3x slower after the driver update"},
      {"slowdown", "驱动升级之后每一步都变慢了"},
      {"slowdown", "p99 went from 70ms to 800ms after Tuesday's deploy"},
      {"crash", "the trainer died at 04:10 with no traceback"},
      {"crash", "训练昨晚挂了，日志里什么也没有"},
      {"crash", "Segmentation fault (core dumped)"},
      {"gpu-idle", "GPU util is 0% on all eight cards while it says it's training"},
      {"gpu-idle", "八张卡的 GPU 利用率一直是 0"},
      {"gpu-idle", "| N/A   31C    P0    60W / 400W |  2048MiB / 81920MiB |      0%      Default |"},
      {"data", "a few shards look corrupted after the copy"},
      {"data", "复制之后有几个分片损坏了"},
      {"data", "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x8b in position 1"},
      {"distributed", "the 32-GPU job stops at the first all_reduce"},
      {"distributed", "多机训练隔几个小时就通信超时"},
      {"distributed", "NCCL WARN Call to connect returned Connection refused"},
      {"disk-full", "the scratch disk is full again and checkpoints fail"},
      {"disk-full", "磁盘写满了，检查点写不进去"},
      {"disk-full", "OSError: [Errno 28] No space left on device"},
  };
  for (const Row& r : rows) {
    INFO(r.symptom << ": " << r.text);
    CHECK(Has(SymptomsInText(DefaultRules(), r.text, SymptomSource::kPrompt), r.symptom));
  }
}

TEST_CASE("Texts with no symptom give none") {
  for (const char* text : {"Add a --dry-run flag to the deploy CLI.", "把导出任务改成每天跑一次。",
                           "step 900 | loss 2.14 | 41% GPU util", "exit code 0"}) {
    INFO(text);
    CHECK(SymptomsInText(DefaultRules(), text, SymptomSource::kPrompt).empty());
  }
}

TEST_CASE("Symptoms in one text come in the order they appear, once each") {
  const std::vector<Symptom> s =
      SymptomsInText(DefaultRules(), "it got slower and slower, then crashed with CUDA out of memory", SymptomSource::kPrompt);
  CHECK(Names(s) == std::vector<std::string>{"slowdown", "crash", "oom"});
}

TEST_CASE("Mechanisms rank before effects; then claims, the prompt, tool output") {
  std::vector<Symptom> all;
  MergeSymptoms(SymptomsInText(DefaultRules(), "Segmentation fault (core dumped)", SymptomSource::kToolOutput), &all);
  MergeSymptoms(SymptomsInText(DefaultRules(), "why is the trainer slower?", SymptomSource::kPrompt), &all);
  MergeSymptoms(SymptomsInText(DefaultRules(), "The node ran out of memory.", SymptomSource::kClaim), &all);
  MergeSymptoms(SymptomsInText(DefaultRules(), "The node ran out of memory.", SymptomSource::kClaim), &all);
  MergeSymptoms(SymptomsInText(DefaultRules(), "NCCL WARN socket timeout", SymptomSource::kToolOutput), &all);
  MergeSymptoms(SymptomsInText(DefaultRules(), "It hung.", SymptomSource::kClaim), &all);
  std::vector<std::string> order;
  for (const Symptom& s : all) order.push_back(s.name + "/" + SymptomSourceName(s.source));
  CHECK(order == std::vector<std::string>{"oom/claim", "distributed/tool_output", "hang/claim", "slowdown/prompt",
                                          "crash/tool_output", "hang/tool_output"});
  CHECK(PrimarySymptom(all)->name == "oom");
  CHECK(PrimarySymptom({}) == nullptr);
  // "It died because it ran out of memory": the OOM picks the smoke test.
  std::vector<Symptom> claim;
  MergeSymptoms(SymptomsInText(DefaultRules(), "It died because it ran out of memory.", SymptomSource::kClaim), &claim);
  CHECK(PrimarySymptom(claim)->name == "oom");
}

TEST_CASE("Tool output is read at its head and its tail, each at most kSymptomScanBytes") {
  const std::size_t scan = limits::kSymptomScanBytes;
  evidence::ToolCall call;
  call.output = "OSError: [Errno 28] No space left on device\n" + std::string(3 * scan, '.') + "\nSegmentation fault";
  const std::vector<Symptom> s = SymptomsInOutput(DefaultRules(), call, "toolu_9", "tail");
  CHECK(Names(s) == std::vector<std::string>{"disk-full", "crash"});
  CHECK(s[0].call_id == "toolu_9");
  CHECK(s[1].call_label == "tail");
  CHECK(s[1].offset > 3 * scan);

  // A symptom in the middle, past both windows, is not read.
  evidence::ToolCall middle;
  middle.output = std::string(scan + 10, '.') + "No space left on device" + std::string(scan + 10, '.');
  CHECK(SymptomsInOutput(DefaultRules(), middle, "", "").empty());
  // At the limit the whole output is read.
  evidence::ToolCall at_limit;
  at_limit.output = std::string(scan, '.') + "No space left on device" + std::string(scan - 23, '.');
  REQUIRE(at_limit.output.size() == 2 * scan);
  CHECK(Names(SymptomsInOutput(DefaultRules(), at_limit, "", "")) == std::vector<std::string>{"disk-full"});
}

TEST_CASE("Every symptom of the pack has English and Chinese rules") {
  std::map<std::string, std::set<std::string>> langs;
  for (const Rule& r : DefaultRules().rules()) {
    if (r.kind != RuleKind::kSymptom) continue;
    REQUIRE_FALSE(r.tag.empty());
    langs[r.tag].insert(r.id.substr(r.id.rfind('.') + 1));
  }
  CHECK(langs.size() == 9);
  for (const auto& [tag, l] : langs) {
    INFO(tag);
    CHECK(l.count("en") == 1);
    CHECK(l.count("zh") == 1);
  }
}

}  // namespace
}  // namespace causegate::rules
