#include "denpex/server/entry_render.h"

namespace denpex::features {
namespace {

void section(std::string& out, std::string_view heading, std::string_view body) {
  if (body.empty()) return;
  out += "## ";
  out += heading;
  out += "\n\n";
  out += body;
  if (out.back() != '\n') out += '\n';
  out += '\n';
}

std::string bullets(const std::vector<std::string>& items, std::string_view marker = "- ") {
  std::string out;
  for (const auto& i : items) {
    out += marker;
    out += i;
    out += '\n';
  }
  return out;
}

}  // namespace

std::string verify_with_denpex(const core::Entry& e) {
  std::string out = e.verify;
  // Only entries that show in logs can be watched for; code-only entries have no fingerprint.
  if (e.fingerprints.empty()) return out;
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out + (out.empty() ? "" : "\n") + "With Denpex: `denpex run --expect-absent " + e.id +
         " -- <your training command>` exits 0 only when the command succeeds (or runs past `--steps-timeout`) "
         "without this failure.\n";
}

std::string entry_markdown(const core::Entry& e) {
  std::string out = "# " + e.title + "\n\n";
  out += "`" + e.id + "` · " + e.category + " · severity " + std::string(core::to_string(e.severity)) + " · role " +
         std::string(core::to_string(e.role));
  if (!e.tags.empty()) {
    out += " · tags:";
    for (const auto& t : e.tags) out += " `" + t + "`";
  }
  out += "\n\n";
  section(out, "Summary", e.summary);
  section(out, "Mechanism", e.mechanism);
  if (!e.symptoms.empty()) {
    std::string s = "| You see | Because |\n|---|---|\n";
    for (const auto& sym : e.symptoms) {
      auto cell = [](std::string t) {
        for (auto& c : t) if (c == '\n') c = ' ';
        std::string esc;
        for (char c : t) esc += c == '|' ? std::string("\\|") : std::string(1, c);
        return esc;
      };
      s += "| " + cell(sym.symptom) + " | " + cell(sym.why) + " |\n";
    }
    section(out, "Symptoms", s);
  }
  section(out, "Confirm", bullets(e.confirm, "- [ ] "));
  section(out, "Fix", e.fix);
  section(out, "Prevention", e.prevention);
  section(out, "Verify", verify_with_denpex(e));
  if (!e.codes.empty()) {
    std::string s;
    for (const auto& c : e.codes) s += "- `" + c + "`\n";
    section(out, "Static checks that find the cause", s);
  }
  if (!e.related.empty()) {
    std::string s;
    for (const auto& r : e.related) s += "- [`" + r + "`](" + r + ".md)\n";
    section(out, "Related", s);
  }
  section(out, "References", bullets(e.references));
  if (!e.fingerprints.empty()) {
    std::string s;
    for (const auto& f : e.fingerprints) {
      // A pattern with a backtick would break an inline code span; a fence is always safe.
      s += "```re2\n" + f.pattern + "\n```\n";
    }
    section(out, "Fingerprints", s);
  }
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

std::string entry_markdown_brief(const core::Entry& e) {
  std::string out = "**" + e.title + "** (`" + e.id + "`, " + e.category + ")\n\n" + e.summary;
  if (out.back() != '\n') out += '\n';
  out += "\n**Fix**\n\n" + e.fix;
  if (out.back() != '\n') out += '\n';
  out += "\n**Verify**\n\n" + verify_with_denpex(e);
  return out;
}

namespace {
// The fields both JSON forms share, in the order both print them.
nlohmann::json identity_json(const core::Entry& e) {
  return {{"id", e.id},       {"title", e.title},
          {"category", e.category}, {"tags", e.tags},
          {"severity", core::to_string(e.severity)}, {"role", core::to_string(e.role)},
          {"codes", e.codes}, {"source", e.source}};
}
}  // namespace

std::string indent_block(const std::string& body, const std::string& pad) {
  std::string out, text = body;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out += pad + text.substr(pos, end - pos) + "\n";
    pos = end + 1;
  }
  return out;
}

nlohmann::json entry_summary_json(const core::Entry& e) {
  nlohmann::json j = identity_json(e);
  nlohmann::json patterns = nlohmann::json::array();
  for (const auto& f : e.fingerprints) patterns.push_back(f.pattern);
  j["fingerprints"] = std::move(patterns);
  j["examples"] = e.examples_match.size();
  return j;
}

nlohmann::json entry_json(const core::Entry& e) {
  nlohmann::json out = identity_json(e);
  nlohmann::json fps = nlohmann::json::array();
  for (const auto& f : e.fingerprints) {
    nlohmann::json j = {{"pattern", f.pattern}, {"confidence", f.confidence}};
    if (!f.requires_pattern.empty()) j["requires"] = f.requires_pattern;
    if (!f.excludes_pattern.empty()) j["excludes"] = f.excludes_pattern;
    if (!f.requires_pattern.empty() || !f.excludes_pattern.empty()) j["window"] = f.window;
    if (!f.when.empty()) j["when"] = f.when;
    fps.push_back(std::move(j));
  }
  nlohmann::json symptoms = nlohmann::json::array();
  for (const auto& s : e.symptoms) symptoms.push_back({{"symptom", s.symptom}, {"why", s.why}});
  out["fingerprints"] = std::move(fps);
  out["summary"] = e.summary;
  out["mechanism"] = e.mechanism;
  out["symptoms"] = std::move(symptoms);
  out["confirm"] = e.confirm;
  out["fix"] = e.fix;
  out["prevention"] = e.prevention;
  out["verify"] = e.verify;
  out["related"] = e.related;
  out["references"] = e.references;
  out["examples"] = {{"match", e.examples_match}, {"no_match", e.examples_no_match}};
  return out;
}

}  // namespace denpex::features
