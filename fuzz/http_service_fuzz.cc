// The daemon's routes without the socket (server/service.h): the first
// byte picks POST /hook or POST /v1/judge, the rest is the request body.
// "@ROOT@" in a body becomes the allowed transcript root, which holds one
// small session (session.jsonl), so /hook reaches the transcript reader and
// the gate rather than stopping at the path check. The audit log keeps
// texts, so the fuzzed strings are serialised too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz/fuzz_util.h"
#include "server/service.h"

namespace server = causegate::server;

namespace {

constexpr const char* kSession[] = {
    R"({"type":"user","message":{"role":"user","content":"why did the nightly export fail?"}})",
    R"({"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"tail -2 export.log"}}]}})",
    R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ERROR disk quota exceeded on /srv/export","is_error":false}]}})",
    R"({"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"The export failed because the disk quota ran out."}]}})",
};

struct Daemon {
  std::string root = causegate::fuzz::ScratchDir() + "/root";
  server::RuleStore store{""};
  server::Metrics metrics;
  std::unique_ptr<server::AuditLog> audit;
  std::unique_ptr<server::Service> service;

  Daemon() {
    std::filesystem::create_directories(root);
    std::ofstream session(root + "/session.jsonl");
    for (const char* line : kSession) session << line << '\n';
    session.close();
    // Session logs and loop counters of the observe-only agents go here.
    setenv("XDG_STATE_HOME", (causegate::fuzz::ScratchDir() + "/state").c_str(), 1);
    if (!store.Reload().ok()) std::abort();
    if (!server::AuditLog::Open(causegate::fuzz::ScratchDir() + "/audit.jsonl", 1 << 20, 2,
                                server::IncludeText::kYes, &audit)
             .ok()) {
      std::abort();
    }
    service = std::make_unique<server::Service>(server::ServiceOptions(), &store,
                                                server::PathRoots({root}, causegate::fuzz::ScratchDir()),
                                                &metrics, audit.get());
  }
};

Daemon* daemon_instance = nullptr;

std::string WithRoot(std::string_view body, const std::string& root) {
  std::string out(body);
  for (std::size_t at = out.find("@ROOT@"); at != std::string::npos; at = out.find("@ROOT@", at + root.size())) {
    out.replace(at, 6, root);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  causegate::fuzz::QuietLogs();
  daemon_instance = new Daemon();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string body = WithRoot(causegate::fuzz::AsText(data + 1, size - 1), daemon_instance->root);
  const bool hook = data[0] % 2 == 0;
  const server::Reply reply = hook ? daemon_instance->service->Hook(body) : daemon_instance->service->Judge(body);
  // server/API.md: /hook always answers 200 (a verdict or fail-open), with
  // the hook's stdout: nothing, or one JSON object. /v1/judge answers 200
  // with the verdict or 400 with {"error"}; both bodies are JSON.
  const bool status_ok = hook ? reply.status == 200 : (reply.status == 200 || reply.status == 400);
  const bool body_ok = (hook && reply.body.empty()) || nlohmann::json::accept(reply.body);
  if (!status_ok || !body_ok) __builtin_trap();
  return 0;
}
