#pragma once
// An entry rendered for people and programs. The same text feeds `denpex explain`, LSP hovers
// and the generated docs/encyclopedia pages.
#include <nlohmann/json.hpp>
#include <string>

#include "denpex/core/entry.h"

namespace denpex::features {

// The full page: title, summary, mechanism, symptoms, confirm, fix, prevention, verify, links.
std::string entry_markdown(const core::Entry& e);
// The entry's verify text and, for an entry that shows in logs, the `denpex run --expect-absent`
// command that checks a fix.
std::string verify_with_denpex(const core::Entry& e);
// Short form for hovers: title, summary, fix and verify.
std::string entry_markdown_brief(const core::Entry& e);
// `body` with `pad` before every line, trailing newlines folded to one: an entry's Markdown field
// as an indented block under a terminal heading.
std::string indent_block(const std::string& body, const std::string& pad);
// Everything, including fingerprints and examples (`explain --format json`).
nlohmann::json entry_json(const core::Entry& e);
// The `signatures list --format json` summary object.
nlohmann::json entry_summary_json(const core::Entry& e);

}  // namespace denpex::features
