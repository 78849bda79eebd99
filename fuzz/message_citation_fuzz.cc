// The Markdown segmenter (rules/message.h) and the citation look-up it
// feeds (evidence/evidence_index.h), as the verdict uses them: every
// fragment of the message is looked up in a turn built from the input, and
// every sentence read by the sentence-shape tokenizer (rules/sentence_shape.h).
// Input: message \0 shell command \0 its output \0 text written to a file
// and read back. The shell command runs through the echo/heredoc analysis
// (evidence/shell_command.h), so self-made output is reached as well.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "evidence/evidence_index.h"
#include "evidence/text_fold.h"
#include "fuzz/fuzz_util.h"
#include "rules/message.h"
#include "rules/sentence_shape.h"

namespace evidence = causegate::evidence;

namespace {

std::string InputJson(const nlohmann::json& input) {
  return input.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

evidence::ToolCall Call(std::string name, std::string command, std::string input, std::string_view output) {
  evidence::ToolCall call;
  call.id = "toolu_" + name;
  call.name = std::move(name);
  call.command = std::move(command);
  call.input = std::move(input);
  call.output = std::string(output);
  call.has_result = true;
  return call;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  causegate::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = causegate::fuzz::SplitNul(causegate::fuzz::AsText(data, size), 4);
  const std::string_view message = parts[0];
  const std::string command(parts[1]);
  const std::string written(parts[3]);

  evidence::Turn turn;
  turn.prompt = "why does it fail?";
  turn.final_message = std::string(message);
  turn.tool_calls.push_back(Call("Bash", command, InputJson({{"command", command}}), parts[2]));
  turn.tool_calls.push_back(Call("Write", "/tmp/notes.txt",
                                 InputJson({{"file_path", "/tmp/notes.txt"}, {"content", written}}), ""));
  turn.tool_calls.push_back(Call("Read", "/tmp/notes.txt", InputJson({{"file_path", "/tmp/notes.txt"}}), written));
  turn.tool_calls.push_back(Call("Grep", command, InputJson({{"pattern", command}}), parts[2]));

  const auto marker = [](std::string_view line) -> std::size_t {
    return line.rfind("Proof:", 0) == 0 ? 6 : std::string_view::npos;
  };
  const causegate::rules::Message parsed = causegate::rules::ParseMessage(message, marker);
  evidence::NoHistory history;
  evidence::EvidenceIndex index(turn, &history);
  for (const causegate::rules::Sentence& sentence : parsed.sentences) {
    (void)parsed.FragmentsFor(sentence);
    (void)evidence::LooksChinese(sentence.text);
    // The sentence-shape tokenizer reads bytes itself (UTF-8 lengths, Han
    // ranges, typographic apostrophes): the masked sentence as the model
    // sees it, and the raw text, truncated sequences and all.
    (void)causegate::rules::ShapeFeatures(sentence.masked);
    (void)causegate::rules::ShapeHashes(sentence.text, "zh:s:");
  }
  for (const causegate::rules::Fragment& fragment : parsed.fragments) {
    (void)evidence::CountCodePoints(fragment.text);
    (void)evidence::CountHan(fragment.text);
    const evidence::Sighting sighting = index.Locate(fragment.text);
    const bool in_output = sighting.source == evidence::Source::kToolOutput ||
                           sighting.source == evidence::Source::kSelfMadeOutput ||
                           sighting.source == evidence::Source::kModelText;
    // An offset past the output would be read by `explain` to show the match.
    if (in_output && sighting.offset > sighting.call->output.size()) __builtin_trap();
  }
  (void)index.Locate(message);
  return 0;
}
