// Writing the next step. The texts follow the seed: its cheap probes (step
// 1) named by what they look at, and its smoke test per hypothesis (step
// 3): batch size 1 for an OOM, synthetic in-memory data for the data path,
// one forward pass in eval mode for the model, lr=0 for the optimiser, one
// GPU for distributed errors. A symptom the tables do not know (a user
// pack's own tag) gets the generic probes and smoke test.
// Tests: tests/unit/rules/protocol_advice_test.cc.
#include "rules/protocol_advice.h"

#include <algorithm>
#include <vector>

#include "rules/reason.h"

namespace causegate::rules {
namespace {

struct Bilingual {
  std::string_view key;
  const char* en;
  const char* zh;
};

constexpr Bilingual kProbeTexts[] = {
    {"process", "process state (`ps aux | grep -E '(python|train|torchrun)'`, `py-spy dump --pid PID`)",
     "进程状态（`ps aux | grep -E '(python|train|torchrun)'`、`py-spy dump --pid PID`）"},
    {"system-log", "the kernel and system log (`dmesg -T | tail -100`, `journalctl -xe --since \"1 hour ago\"`)",
     "内核和系统日志（`dmesg -T | tail -100`、`journalctl -xe --since \"1 hour ago\"`）"},
    {"gpu", "GPU state (`nvidia-smi`)", "GPU 状态（`nvidia-smi`）"},
    {"disk", "disk space (`df -h RUN_DIR`, `du -sh RUN_DIR/*`)", "磁盘空间（`df -h 运行目录`、`du -sh 运行目录/*`）"},
    {"app-log", "the last few hundred lines of the real log, not the user's summary (`tail -n 300 LOG`)",
     "实际日志的最后几百行，不要只看用户的概述（`tail -n 300 日志文件`）"},
    {"artefact", "the newest checkpoint or artefact (`ls -la RUN_DIR/checkpoints/`)",
     "最新的检查点或产物（`ls -la 运行目录/checkpoints/`）"},
    {"config", "the config the failing run actually used", "失败那次运行实际使用的配置"},
    {"code", "the code on the failing path", "出错路径上的代码"},
    {"service", "the service's own state (its status, connections, a query plan)",
     "服务自身的状态（运行状态、连接数、查询计划）"},
};

constexpr Bilingual kSmokeTexts[] = {
    {"oom", "re-run one step with batch size 1 (batch_size=1). If it runs, the OOM is confirmed; if it fails the same way, it is not an OOM.",
     "用 batch_size=1 重跑 1 步。如果成功运行，则确认是 OOM；如果以相同方式失败，则说明并非 OOM。"},
    {"data", "re-run with an in-memory synthetic dataset. If it runs normally, the problem is likely in the data path.",
     "使用内存中的合成数据集重跑。如果运行正常，则问题可能与数据路径有关。"},
    {"nan", "re-run with lr=0: if the loss still blows up, the loss itself is at fault, not the optimiser; and run one forward pass on a single batch in eval() mode: is the loss finite?",
     "使用 lr=0 重跑：如果 loss 仍然爆炸，说明损失函数本身有问题（而不是优化器）；再对单个 batch 在 eval() 模式下做一次前向传播：loss 是有限值吗？"},
    {"distributed", "re-run on 1 GPU. If it runs normally, the problem is likely in DDP/NCCL.",
     "在 1 张 GPU 上重跑。如果运行正常，则问题可能与 DDP／NCCL 有关。"},
    {"hang", "re-run a few steps with in-memory synthetic data, then on 1 GPU: the one that no longer hangs points at the data path or at DDP/NCCL.",
     "用内存中的合成数据重跑几步，再在 1 张 GPU 上重跑：哪一个不再卡住，就指向数据路径或 DDP／NCCL。"},
    {"gpu-idle", "re-run with an in-memory synthetic dataset. If the GPUs get busy, the input pipeline is what starves them.",
     "使用内存中的合成数据集重跑。如果 GPU 忙起来了，就是数据输入拖住了它。"},
    {"slowdown", "time a few steps on in-memory synthetic data against the real data. If synthetic is fast, the data path is the bottleneck.",
     "分别用内存中的合成数据和真实数据各跑几步并计时。如果合成数据快，瓶颈就在数据路径。"},
    {"crash", "re-run only the failing part under small conditions (one step, one batch, or the one failing test with `pytest -x -k NAME`) and check that it fails with the same error.",
     "在小规模条件下只重跑出错的部分（1 步、1 个 batch，或用 `pytest -x -k 名称` 只跑那个失败的测试），确认它以同样的错误失败。"},
    {"disk-full", "write one small file (or one checkpoint) to the same directory with `df -h` before and after. If the write fails with ENOSPC, the disk is the cause.",
     "往同一目录写一个小文件（或一个检查点），前后各看一次 `df -h`。如果写入报 ENOSPC，原因就是磁盘。"},
};

constexpr Bilingual kGenericSmoke = {
    "", "re-run the failing command under small, controlled conditions (one step, one batch, one test) and check that it reproduces the same failure signature.",
    "在受控的小规模条件下重跑失败的命令（1 步、1 个 batch、1 个测试），确认它复现同样的故障特征。"};

constexpr Bilingual kSymptomTitles[] = {
    {"oom", "out of memory", "内存不足（OOM）"},
    {"nan", "NaN / divergence", "NaN／发散"},
    {"hang", "hang or stall", "卡住"},
    {"slowdown", "slowdown", "变慢"},
    {"crash", "crash", "崩溃"},
    {"gpu-idle", "GPU idle", "GPU 空闲"},
    {"data", "data error", "数据错误"},
    {"distributed", "distributed / NCCL error", "分布式／NCCL 错误"},
    {"disk-full", "disk full", "磁盘已满"},
};

struct Words {
  const char* so_far;
  const char* probes_run;
  const char* no_probe;
  const char* hypothesis_stated;
  const char* no_hypothesis;
  const char* smoke_run;
  const char* no_smoke;
  const char* control_run;
  const char* no_control;
  const char* earlier;  // %d
  const char* symptom;
  const char* from_claim;
  const char* from_prompt;
  const char* from_output;
  const char* list_sep;
  const char* item_sep;
  const char* open;
  const char* close;
  const char* end;
  const char* next_probe;
  const char* next_key_probe;  // symptom title follows
  const char* next_hypothesis_smoke;
  const char* next_smoke;
  const char* next_control;
  const char* next_cite;
  const char* not_probed;
};

const Words kEnglish = {
    "Debug protocol so far (probe -> hypothesis -> smoke test -> control -> assert): ",
    "probes run: ",
    "no probe yet",
    "hypothesis stated",
    "no hypothesis stated",
    "smoke test run: ",
    "no smoke test yet",
    "control run: ",
    "no control yet",
    " (including %d earlier turn(s) of this diagnosis)",
    "Symptom: ",
    "your claim",
    "the prompt",
    "tool output",
    ", ",
    "; ",
    " (",
    ")",
    ".",
    "Next step: probe before you name a cause: ",
    "Next step: you read code and config, not the failure: probe what this symptom needs (",
    "Next step: write the cause as \"Hypothesis: ...\" with the probe output that suggests it and what is not yet ruled out, then smoke-test it: ",
    "Next step: smoke-test your hypothesis: ",
    "Next step: if the smoke test did not settle it, run a control: change exactly one variable against the failing setup "
    "(single- vs multi-source data, number of workers, mixed precision on/off, gradient checkpointing on/off, torch.compile on/off) "
    "and rerun the smoke test.",
    "Next step: you have probed, smoke-tested and run a control: quote the lines of their output that prove the cause, "
    "or say \"I don't know yet\" and name the next probe.",
    "Not probed yet for this symptom: ",
};

const Words kChinese = {
    "调试协议进度（探查 → 假设 → 冒烟测试 → 对照 → 断言）：",
    "已探查：",
    "尚未探查",
    "已提出假设",
    "尚未提出假设",
    "已做冒烟测试：",
    "尚未做冒烟测试",
    "已做对照：",
    "尚未做对照",
    "（含本次诊断之前的 %d 轮）",
    "症状：",
    "你的断言",
    "用户的描述",
    "工具输出",
    "、",
    "；",
    "（",
    "）",
    "。",
    "下一步：先探查，再谈原因：",
    "下一步：你只看了代码和配置，还没看故障本身：先探查这个症状需要看的（",
    "下一步：把原因写成“假设：……”，附上支持它的探查输出和尚未排除的其他可能，然后做冒烟测试：",
    "下一步：对你的假设做冒烟测试：",
    "下一步：如果冒烟测试的结果不明确，就做对照：只改失败配置中的一个变量（单源／多源数据、workers 数量、混合精度开／关、"
    "梯度检查点开／关、torch.compile 开／关），再跑一次冒烟测试。",
    "下一步：探查、冒烟测试和对照都已做过：引用其输出中能证明原因的原文；如果还不能证明，就说“我目前还不知道”，并提出下一步探查。",
    "这个症状还没探查：",
};

constexpr std::size_t kMaxListedCalls = 6;
constexpr std::size_t kMaxListedSymptoms = 3;

template <std::size_t N>
const Bilingual* Find(const Bilingual (&table)[N], std::string_view key) {
  for (const Bilingual& b : table) {
    if (b.key == key) return &b;
  }
  return nullptr;
}

const char* Pick(const Bilingual& b, Language language) { return language == Language::kChinese ? b.zh : b.en; }

// "dmesg, nvidia-smi, +2 more": labels of the calls of one step, once each.
std::string CallList(const ProtocolSteps& steps, CallStep kind, const Words& w) {
  std::vector<std::string> labels;
  std::size_t more = 0;
  for (const StepCall& c : steps.calls) {
    if (c.step != kind) continue;
    std::string label = c.label;
    if (kind == CallStep::kControl && !c.changed.empty()) label += std::string(w.open) + c.changed + w.close;
    if (std::find(labels.begin(), labels.end(), label) != labels.end()) continue;
    if (labels.size() == kMaxListedCalls) {
      ++more;
      continue;
    }
    labels.push_back(std::move(label));
  }
  std::string out;
  for (const std::string& l : labels) out += (out.empty() ? "" : w.list_sep) + l;
  if (more > 0) out += std::string(w.list_sep) + "+" + std::to_string(more);
  return out;
}

std::string ProbeList(const std::vector<std::string_view>& kinds, const Words& w, Language language) {
  std::string out;
  for (const std::string_view kind : kinds) {
    const Bilingual* b = Find(kProbeTexts, kind);
    if (b == nullptr) continue;
    out += (out.empty() ? "" : w.item_sep) + std::string(Pick(*b, language));
  }
  return out;
}

std::string SmokeText(const Symptom* symptom, Language language) {
  const Bilingual* b = symptom != nullptr ? Find(kSmokeTexts, symptom->name) : nullptr;
  return Pick(b != nullptr ? *b : kGenericSmoke, language);
}

}  // namespace

std::string SymptomTitle(std::string_view tag, Language language) {
  const Bilingual* b = Find(kSymptomTitles, tag);
  return b != nullptr ? Pick(*b, language) : std::string(tag);
}

std::string ReportShape(Language language) {
  const std::string text = ProtocolText(language == Language::kChinese);
  for (const std::string_view opener : {"Report:", "报告："}) {
    const std::size_t at = text.find(opener);
    if (at == std::string::npos || (at > 0 && text[at - 1] != '\n')) continue;
    const std::size_t end = text.find('\n', at);
    return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
  }
  return "";
}

std::string ProtocolAdvice(const ProtocolSteps& steps, Language language) {
  const Words& w = language == Language::kChinese ? kChinese : kEnglish;
  std::string out = w.so_far;
  const std::string probes = CallList(steps, CallStep::kProbe, w);
  const std::string smokes = CallList(steps, CallStep::kSmoke, w);
  const std::string controls = CallList(steps, CallStep::kControl, w);
  out += probes.empty() ? std::string(w.no_probe) : w.probes_run + probes;
  out += w.item_sep;
  out += steps.step(ProtocolStep::kHypothesis).seen ? w.hypothesis_stated : w.no_hypothesis;
  out += w.item_sep;
  out += smokes.empty() ? std::string(w.no_smoke) : w.smoke_run + smokes;
  out += w.item_sep;
  out += controls.empty() ? std::string(w.no_control) : w.control_run + controls;
  if (steps.earlier_turns > 0) {
    std::string earlier = w.earlier;
    earlier.replace(earlier.find("%d"), 2, std::to_string(steps.earlier_turns));
    out += earlier;
  }
  out += w.end;

  if (!steps.symptoms.empty()) {
    out += "\n";
    out += w.symptom;
    std::vector<std::string_view> named;  // one entry per symptom, its first source
    for (const Symptom& s : steps.symptoms) {
      if (named.size() == kMaxListedSymptoms) break;
      if (std::find(named.begin(), named.end(), s.name) != named.end()) continue;
      named.push_back(s.name);
      const char* from = s.source == SymptomSource::kClaim    ? w.from_claim
                         : s.source == SymptomSource::kPrompt ? w.from_prompt
                                                              : w.from_output;
      out += (named.size() == 1 ? "" : w.list_sep) + SymptomTitle(s.name, language) + w.open + from;
      if (s.source == SymptomSource::kToolOutput && !s.call_label.empty()) out += " " + s.call_label;
      out += w.close;
    }
    out += w.end;
  }

  const Symptom* symptom = PrimarySymptom(steps.symptoms);
  const std::vector<std::string_view> key = KeyProbeKinds(symptom != nullptr ? symptom->name : "");
  out += "\n";
  switch (steps.next()) {
    case NextStep::kProbe:
      if (steps.step(ProtocolStep::kProbe).seen) {
        out += w.next_key_probe + SymptomTitle(symptom != nullptr ? symptom->name : "", language) + w.close +
               (language == Language::kChinese ? "：" : ": ") + ProbeList(key, w, language) + w.end;
      } else {
        out += w.next_probe + ProbeList(key, w, language) + w.end;
      }
      break;
    case NextStep::kHypothesisSmoke:
    case NextStep::kSmoke: {
      const bool stated = steps.next() == NextStep::kSmoke;
      out += (stated ? w.next_smoke : w.next_hypothesis_smoke) + SmokeText(symptom, language);
      const std::vector<std::string_view> unprobed = steps.UnprobedKeyKinds();
      if (!unprobed.empty()) out += std::string(language == Language::kChinese ? "" : " ") + w.not_probed + ProbeList(unprobed, w, language) + w.end;
      break;
    }
    case NextStep::kControl: out += w.next_control; break;
    case NextStep::kCite: out += w.next_cite; break;
  }
  return out;
}

}  // namespace causegate::rules
