#pragma once
// Between the engines' world (byte columns, core::Finding, core::Severity, file paths) and LSP's
// (encoded columns, Diagnostic objects, file:// URIs). Private to server/lsp.
#include <optional>
#include <string>
#include <string_view>

#include "denpex/core/finding.h"
#include "denpex/core/text.h"
#include "denpex/server/document.h"
#include "denpex/server/protocol.h"

namespace denpex::lsp {

// Converts positions of one text in both directions; the line index is built once.
class Positions {
 public:
  Positions(std::string_view text, PositionEncoding enc) : text_(text), index_(text), enc_(enc) {}
  LspPosition to_lsp(core::Position p) const;
  LspRange to_lsp(const core::Range& r) const { return {to_lsp(r.start), to_lsp(r.end)}; }
  core::Position from_lsp(LspPosition p) const;
  // The whole of line `line` (without its terminator); the last line when past the end.
  LspRange line_range(uint32_t line) const;
  std::string_view line_text(uint32_t line) const { return index_.line(text_, line); }
  uint32_t line_count() const { return static_cast<uint32_t>(index_.line_count()); }

 private:
  std::string_view text_;
  core::LineIndex index_;
  PositionEncoding enc_;
};

int lsp_severity(core::Severity s);  // DiagnosticSeverity: 1 error .. 4 hint
json to_json(const Positions& pos, const core::TextEdit& e);

// file:///a%20b/c.py <-> /a b/c.py. Nullopt for URIs of other schemes (untitled:, ...).
std::optional<std::string> uri_to_path(std::string_view uri);
std::string path_to_uri(std::string_view path);
// The last path segment of a URI, percent-decoded ("untitled:Untitled-1" -> "Untitled-1").
std::string uri_basename(std::string_view uri);

}  // namespace denpex::lsp
