#pragma once
// The editor's settings for Denpex: `initializationOptions` and `workspace/didChangeConfiguration`.
// They are merged over each file's pyproject.toml [tool.denpex]. Private to server/lsp.
#include <string>
#include <vector>

#include "denpex/server/protocol.h"

namespace denpex::lsp {

struct Settings {
  std::vector<std::string> select;          // replaces pyproject's select when non-empty
  std::vector<std::string> ignore;          // added to pyproject's ignore
  std::vector<std::string> signature_dirs;  // extra encyclopedia directories (after --signatures)
  std::vector<std::string> log_globs = {"*.log", "*.out", "*.err"};
  std::string docs_url;                     // codeDescription.href base; none when empty
};

// Reads `j` (an object, the settings themselves or nested under "denpex"); keys that are absent
// keep `base`'s value. Unknown keys, wrong types and unknown rule codes are reported in `problems`
// (one sentence each) and leave the value as it was.
Settings parse_settings(const json& j, const Settings& base, std::vector<std::string>* problems);

// Whether a document is a log: languageId `log`, or its path matches one of the globs (a glob
// without '/' is matched against the file name).
bool is_log_document(const std::string& uri, const std::string& language_id, const std::vector<std::string>& globs);

// languageId `python`, or a `.py`/`.pyi` file whatever the client called it.
bool is_python_document(const std::string& uri, const std::string& language_id);

}  // namespace denpex::lsp
