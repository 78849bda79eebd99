#include "server/service.h"

#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "unit/evidence/test_util.h"

namespace causegate::server {
namespace {

using evidence::testing::Prompt;
using evidence::testing::Result;
using evidence::testing::TempDir;
using evidence::testing::Text;
using evidence::testing::ToolUse;
using nlohmann::json;

const char* kOomOutput = "Out of memory: Killed process 4242 (python) total-vm:81234kB";

// A session whose last turn claims a cause: with or without the quote.
std::string WriteSession(const TempDir& dir, const std::string& name, const std::string& final) {
  return dir.Write(name, {Prompt("why did the training job crash last night?"),
                          ToolUse("m1", "t1", "Bash", {{"command", "dmesg | tail -3"}}),
                          Result("t1", kOomOutput), Text("m2", final)});
}

std::string HookInput(const std::string& transcript) {
  return json{{"session_id", "sess-1"}, {"hook_event_name", "Stop"}, {"stop_hook_active", false},
              {"transcript_path", transcript}}
      .dump();
}

struct Fixture {
  TempDir dir;
  std::string root = dir.path() + "/root";
  std::string packs = dir.path() + "/packs";
  RuleStore store{packs};
  Metrics metrics;
  std::unique_ptr<AuditLog> audit;
  std::unique_ptr<Service> service;

  Fixture() {
    std::filesystem::create_directories(root);
    std::filesystem::create_directories(packs);
    REQUIRE(store.Reload().ok());
    REQUIRE(AuditLog::Open(dir.File("audit.jsonl"), 1 << 20, 2, IncludeText::kNo, &audit).ok());
    service = std::make_unique<Service>(ServiceOptions(), &store, PathRoots({root}, ""), &metrics, audit.get());
  }

  std::vector<json> AuditLines() const {
    std::ifstream in(dir.File("audit.jsonl"));
    std::vector<json> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(json::parse(l));
    return lines;
  }
};

TEST_CASE("POST /hook answers what `causegate hook` prints", "[server][service]") {
  Fixture f;
  struct Case {
    const char* name;
    std::string final;
    bool blocks;
  };
  const Case cases[] = {
      {"unsupported", "The root cause is the disk filling up on the node.", true},
      {"supported", std::string("The root cause is the kernel OOM killer: `") + kOomOutput + "`.", false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const std::string input = HookInput(WriteSession(f.dir, std::string("root/") + c.name + ".jsonl", c.final));
    const Reply reply = f.service->Hook(input);
    CHECK(reply.status == 200);
    CHECK(reply.fail_open_reason.empty());
    CHECK(reply.judge_ms >= 0);
    const gate::GateResult local = gate::RunGate(input, gate::Agent::kAuto, *f.store.Current(), gate::GateOptions());
    CHECK(reply.body == (local.output.empty() ? "" : local.output + "\n"));
    CHECK((reply.body.find("\"decision\":\"block\"") != std::string::npos) == c.blocks);
  }
  const auto lines = f.AuditLines();
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["decision"] == "block");
  CHECK(lines[0]["session"] == "sess-1");
  CHECK(lines[0]["event"] == "Stop");
  CHECK(lines[0]["claims"][0]["finding"] == "no-citation");
  CHECK(lines[1]["decision"] == "allow");
  CHECK(lines[1]["claims"][0]["finding"] == "supported");
}

TEST_CASE("POST /hook fails open: outside the roots, bad input", "[server][service]") {
  Fixture f;
  const std::string outside = WriteSession(f.dir, "elsewhere.jsonl", "The root cause is the disk filling up.");
  std::filesystem::create_symlink(outside, f.root + "/link.jsonl");
  struct Case {
    std::string input;
    const char* reason;
  };
  const Case cases[] = {
      {HookInput(outside), "is outside the allowed roots"},
      {HookInput(f.root + "/link.jsonl"), "is outside the allowed roots"},
      {HookInput(f.root + "/../elsewhere.jsonl"), "is outside the allowed roots"},
      {HookInput("relative.jsonl"), "is not absolute"},
      {HookInput(f.root + "/missing.jsonl"), "missing.jsonl"},
      {"not json", "hook input: not valid JSON"},
      {"", "hook input: empty"},
  };
  for (const Case& c : cases) {
    INFO(c.input);
    const Reply reply = f.service->Hook(c.input);
    CHECK(reply.status == 200);
    CHECK(reply.body.empty());
    INFO(reply.fail_open_reason);
    CHECK(reply.fail_open_reason.find(c.reason) != std::string::npos);
  }
  const std::string metrics = f.service->MetricsText().body;
  INFO(metrics);
  CHECK(metrics.find("causegate_fail_open_total{route=\"/hook\",reason=\"outside-roots\"} 4") != std::string::npos);
  CHECK(metrics.find("causegate_fail_open_total{route=\"/hook\",reason=\"transcript\"} 1") != std::string::npos);
  CHECK(metrics.find("causegate_fail_open_total{route=\"/hook\",reason=\"bad-input\"} 2") != std::string::npos);
  const auto lines = f.AuditLines();
  REQUIRE(lines.size() == 7);
  CHECK(lines[0]["decision"] == "fail-open");
  CHECK(lines[0]["session"] == "sess-1");
}

TEST_CASE("POST /v1/judge returns the verdict and the outcome", "[server][service]") {
  Fixture f;
  const json tool_calls = {{{"name", "Bash"}, {"command", "dmesg | tail -3"}, {"output", kOomOutput}}};
  const json unsupported = {{"session_id", "s2"},
                            {"prompt", "why did the training job crash last night?"},
                            {"final_message", "The job crashed because the disk filled up."},
                            {"tool_calls", tool_calls}};
  const Reply reply = f.service->Judge(unsupported.dump());
  REQUIRE(reply.status == 200);
  const json verdict = json::parse(reply.body);
  CHECK(verdict["decision"] == "block");
  CHECK(verdict["action"] == "block");
  CHECK(verdict["block_number"] == 1);
  CHECK(verdict["tool_calls"] == 1);
  REQUIRE(verdict["claims"].size() == 1);
  CHECK(verdict["claims"][0]["finding"] == "no-citation");
  CHECK(verdict["claims"][0]["rule"] == "en.claim.because");
  CHECK(verdict["reason"].get<std::string>().rfind("causegate blocked this stop", 0) == 0);

  const json supported = {{"prompt", "why did the training job crash last night?"},
                          {"final_message", "The root cause is the OOM killer: \"" + std::string(kOomOutput) + "\"."},
                          {"tool_calls", tool_calls}};
  const json cited = json::parse(f.service->Judge(supported.dump()).body);
  CHECK(cited["decision"] == "allow");
  REQUIRE(cited["claims"].size() == 1);
  CHECK(cited["claims"][0]["finding"] == "supported");
  CHECK(cited["claims"][0]["citations"][0]["found_in"] == "tool-output");
  CHECK(cited["claims"][0]["citations"][0]["tool_call"]["command"] == "dmesg | tail -3");

  // The citation is in an earlier turn only.
  const json from_history = {
      {"prompt", "so what killed it?"},
      {"final_message", "The root cause is the OOM killer: \"" + std::string(kOomOutput) + "\"."},
      {"history", {{{"prompt", "why did the training job crash?"},
                    {"tool_calls", {{{"name", "Bash"}, {"command", "dmesg"}, {"output", kOomOutput}}}}}}}};
  const json allowed = json::parse(f.service->Judge(from_history.dump()).body);
  CHECK(allowed["decision"] == "allow");
  CHECK(allowed["turns_read_back"] == 1);
  CHECK(allowed["claims"][0]["citations"][0]["tool_call"]["turns_back"] == 1);

  const Reply bad = f.service->Judge(R"({"prompt": "x"})");
  CHECK(bad.status == 400);
  CHECK(json::parse(bad.body)["error"] == "\"final_message\": missing or not a string");

  const std::string metrics = f.service->MetricsText().body;
  CHECK(metrics.find("causegate_verdicts_total{route=\"/v1/judge\",agent=\"unknown\",decision=\"block\"} 1") !=
        std::string::npos);
  CHECK(metrics.find("causegate_verdicts_total{route=\"/v1/judge\",agent=\"unknown\",decision=\"allow\"} 2") !=
        std::string::npos);
  CHECK(metrics.find("causegate_claims_total{finding=\"supported\"} 2") != std::string::npos);
}

TEST_CASE("healthz: the state folder the daemon judges with", "[server][service]") {
  Fixture f;
  CHECK(json::parse(f.service->Health().body)["state_dir"].is_null());
  ServiceOptions options;
  options.gate.state_dir = f.dir.File("state");
  const Service named(options, &f.store, PathRoots({f.root}, ""), &f.metrics, nullptr);
  CHECK(json::parse(named.Health().body)["state_dir"] == f.dir.File("state"));
}

TEST_CASE("reload: a bad pack is refused and counted; the rules stay", "[server][service]") {
  Fixture f;
  const auto before = f.store.Current();
  std::ofstream(f.packs + "/bad.json") << R"({"format": "causegate-pack/1", "pack": "bad", "version": "1",
  "rules": [{"id": "bad.claim", "kind": "claim", "pattern": "(x"}]})";
  const Reply refused = f.service->Reload("test");
  CHECK(refused.status == 422);
  const std::string error = json::parse(refused.body)["error"];
  CHECK(error.find("bad.json:2:50: rule \"bad.claim\": pattern: missing )") != std::string::npos);
  CHECK(f.store.Current() == before);
  const json health = json::parse(f.service->Health().body);
  CHECK(health["status"] == "ok");
  CHECK(health["last_reload_error"] == error);
  CHECK(health["rules"] == before->rules().size());

  std::filesystem::remove(f.packs + "/bad.json");
  const Reply ok = f.service->Reload("test");
  CHECK(ok.status == 200);
  CHECK(json::parse(ok.body)["reloaded"] == true);
  CHECK(json::parse(f.service->Health().body)["last_reload_error"].is_null());
  const std::string metrics = f.service->MetricsText().body;
  CHECK(metrics.find("causegate_reloads_total{result=\"failed\"} 1") != std::string::npos);
  CHECK(metrics.find("causegate_reloads_total{result=\"ok\"} 1") != std::string::npos);
}

TEST_CASE("health lists the packs", "[server][service]") {
  Fixture f;
  const Reply reply = f.service->Health();
  CHECK(reply.status == 200);
  const json health = json::parse(reply.body);
  CHECK(health["packs"].size() == f.store.Current()->packs().size());
  CHECK(health["packs"][0]["name"] == "en");
  CHECK_FALSE(health["packs"][0]["version"].get<std::string>().empty());
  CHECK(health["uptime_seconds"].get<double>() >= 0);
}

}  // namespace
}  // namespace causegate::server
