// Folder trust as Gemini CLI 0.61 and Copilot CLI decide it, table-driven.
#include "install/folder_trust.h"

#include <catch2/catch.hpp>

namespace causegate::install {
namespace {

TEST_CASE("folder trust: Gemini CLI's longest rule, variables and the off switch") {
  const std::optional<std::string> none;
  const std::string rules = R"({
    // comments are allowed in this file
    "/w": "TRUST_FOLDER",
    "/w/secret": "DO_NOT_TRUST",
    "/p/child": "TRUST_PARENT"
  })";
  const struct {
    const char* folder;
    bool trusted;
  } cases[] = {
      {"/w", true}, {"/w/a/b", true}, {"/w/secret/x", false}, {"/wx", false}, {"/p/other", true}, {"/q", false},
  };
  for (const auto& c : cases) {
    INFO(c.folder);
    CHECK(GeminiFolderTrust(c.folder, none, none, none, rules).trusted == c.trusted);
  }
  CHECK_FALSE(GeminiFolderTrust("/w", none, none, none, none).trusted);
  CHECK(GeminiFolderTrust("/q", std::string("true"), none, none, none).trusted);
  CHECK_FALSE(GeminiFolderTrust("/w", std::string("false"), none, none, rules).trusted);
  CHECK_FALSE(GeminiFolderTrust("/w", none, std::string("true"), none, rules).trusted);
  CHECK(GeminiFolderTrust("/q", none, none, std::string(R"({"security": {"folderTrust": {"enabled": false}}})"), none)
            .trusted);
  CHECK_FALSE(GeminiFolderTrust("/w", none, none, none, std::string("[1]")).trusted);
}

TEST_CASE("folder trust: Copilot CLI's trusted_folders") {
  const std::string config = R"({"trusted_folders": ["/w", "/x/y"]})";
  CHECK(CopilotFolderTrust("/w/sub", config).trusted);
  CHECK(CopilotFolderTrust("/x/y", config).trusted);
  CHECK_FALSE(CopilotFolderTrust("/x", config).trusted);
  CHECK_FALSE(CopilotFolderTrust("/w", std::nullopt).trusted);
  CHECK(CopilotFolderTrust("/z", std::string(R"({"trustedFolders": ["/z"]})")).trusted);
}

}  // namespace
}  // namespace causegate::install
