// A format-preserving edit (install/jsonc_edit.h), as init makes of the
// agents' settings: only the key's bytes change. The user's config is
// strict JSON (gate/user_config.h reads it with nlohmann).
#include "install/user_config_edit.h"

#include "install/jsonc_edit.h"

namespace causegate::install {

Status EditResidentKey(const std::string& path, const std::string& before, bool exists, ResidentEdit edit,
                       std::string* after) {
  const bool blank = !exists || before.find_first_not_of(" \t\r\n") == std::string::npos;
  if (blank && edit == ResidentEdit::kRemove) {
    *after = before;
    return Status::Ok();
  }
  const std::string text = blank ? std::string("{}\n") : before;
  JsoncDocument doc;
  if (Status s = JsoncDocument::Parse(text, JsonSyntax::kStrict, &doc); !s.ok()) {
    return Status::Error(path + ": " + s.message());
  }
  const JsonNode& root = doc.root();
  if (!root.is_object()) return Status::Error(path + ": not a JSON object");
  const JsonNode* key = root.Find("resident");
  if (edit == ResidentEdit::kOn) {
    if (key != nullptr && key->kind == JsonNode::Kind::kBool && key->raw == "true") {
      *after = before;
      return Status::Ok();
    }
    JsoncDocument value;
    if (Status s = JsoncDocument::Parse("true", JsonSyntax::kStrict, &value); !s.ok()) return s;
    *after = ApplyEdits(text, key != nullptr ? ReplaceValue(doc, *key, value.root())
                                             : AppendItems(doc, root, {NewItem{"resident", value.root()}}));
    return Status::Ok();
  }
  if (key == nullptr) {
    *after = before;
    return Status::Ok();
  }
  *after = ApplyEdits(text, RemoveItem(doc, root, static_cast<std::size_t>(key - root.children.data())));
  return Status::Ok();
}

}  // namespace causegate::install
