// `denpex check` end to end through the real binary.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "process.h"
#include "temp_dir.h"
#include "snapshot.h"

using denpex::testing::read_file;
using denpex::testing::run_denpex;
namespace fs = std::filesystem;
using denpex::testing::TempDir;

namespace {

const char* kBad = "import torch\nstate = torch.load('a.pt')\n";

// Permissions do not bind root, which CI runs as: there the binary runs as `nobody` (setpriv,
// util-linux), over a tree `nobody` may enter, from a copy `nobody` may run (the checkout may sit
// under a private home).
denpex::testing::ProcessResult run_unprivileged(const std::vector<std::string>& args, const fs::path& tree) {
  if (::geteuid() != 0) return run_denpex(args);
  ::chmod(tree.c_str(), 0755);
  TempDir bin;
  ::chmod(bin.path.c_str(), 0755);
  const fs::path copy = bin.path / "denpex";
  fs::copy_file(DENPEX_BINARY, copy);
  ::chmod(copy.c_str(), 0755);
  std::vector<std::string> all = {"--reuid=65534", "--regid=65534", "--clear-groups", copy.string()};
  all.insert(all.end(), args.begin(), args.end());
  return denpex::testing::run_program("/usr/bin/setpriv", all);
}

}  // namespace

TEST_CASE("check: exit codes 0 clean, 1 findings, 2 errors") {
  TempDir d;
  auto clean = d.write("clean.py", "import torch\nx = torch.load('a', weights_only=True)\n");
  auto bad = d.write("bad.py", kBad);
  auto r = run_denpex({"check", "--no-config", clean.string()});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("All checks passed") != std::string::npos);
  r = run_denpex({"check", "--no-config", bad.string()}, "", {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("bad.py:2:9: DPX008") != std::string::npos);  // its fix is unsafe: no [*]
  r = run_denpex({"check", "--no-config", (d.path / "missing.py").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no such file") != std::string::npos);
  CHECK(r.out.find("All checks passed") == std::string::npos);  // no false all-clear
  CHECK(r.out.find("1 path could not be checked") != std::string::npos);
  r = run_denpex({"check", "--no-config", (d.path / "missing.py").string(), clean.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("No findings in the 1 file checked") != std::string::npos);
  fs::create_directories(d.path / "empty");
  r = run_denpex({"check", "--no-config", (d.path / "empty").string()});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("no Python files found") != std::string::npos);
  r = run_denpex({"check", "--output-format", "xml"});
  CHECK(r.exit_code == 2);
  r = run_denpex({"check", "--select", "NOPE1", clean.string()});
  CHECK(r.exit_code == 2);
}

TEST_CASE("check: directories recurse, skipping .git, venvs, node_modules and .gitignore'd paths") {
  TempDir d;
  d.write("src/train.py", kBad);
  d.write(".git/hooks/x.py", kBad);
  d.write("node_modules/pkg/y.py", kBad);
  d.write("env/pyvenv.cfg", "");
  d.write("env/lib/z.py", kBad);
  d.write(".gitignore", "generated/\n*_pb2.py\n");
  d.write("generated/g.py", kBad);
  d.write("src/api_pb2.py", kBad);
  auto r = run_denpex({"check", "--no-config", "--output-format", "json", d.path.string()});
  CHECK(r.exit_code == 1);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["file"].get<std::string>().find("src/train.py") != std::string::npos);
}

TEST_CASE("check --output-format json follows the documented schema") {
  TempDir d;
  auto bad = d.write("bad.py", "import torch\nλ = 1; state = torch.load('a.pt')\n");
  auto r = run_denpex({"check", "--no-config", "--output-format", "json", bad.string()});
  CHECK(r.exit_code == 1);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  const auto& f = j[0];
  CHECK(f["file"] == bad.string());
  CHECK(f["line"] == 2);
  CHECK(f["column"] == 16);  // code points, not bytes: λ is 2 bytes
  CHECK(f["end_line"] == 2);
  CHECK(f["end_column"] == 26);
  CHECK(f["code"] == "DPX008");
  CHECK(f["entry"].is_null());
  CHECK(f["severity"] == "warning");
  CHECK(f["message"].get<std::string>().find("weights_only") != std::string::npos);
  CHECK(f["fix"]["safe"] == false);  // weights_only=True rejects files holding objects
  CHECK(f["fix"]["title"] == "Add `weights_only=True`");
  CHECK(f["fix"]["edits"][0]["new_text"] == ", weights_only=True");
  CHECK(f["fix"]["edits"][0]["line"] == 2);
}

TEST_CASE("check --output-format sarif and github") {
  TempDir d;
  auto bad = d.write("bad.py", kBad);
  auto r = run_denpex({"check", "--no-config", "--output-format", "sarif", bad.string()});
  CHECK(r.exit_code == 1);
  auto s = nlohmann::json::parse(r.out);
  CHECK(s["version"] == "2.1.0");
  const auto& run = s["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "denpex");
  CHECK(run["tool"]["driver"]["rules"].size() >= 19);
  const auto& res = run["results"][0];
  CHECK(res["ruleId"] == "DPX008");
  CHECK(res["level"] == "warning");
  CHECK(run["tool"]["driver"]["rules"][res["ruleIndex"].get<size_t>()]["id"] == "DPX008");
  CHECK(res["locations"][0]["physicalLocation"]["region"]["startLine"] == 2);
  r = run_denpex({"check", "--no-config", "--output-format", "github", bad.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("::warning title=denpex DPX008,file=" + bad.string() + ",line=2,col=9,endLine=2,endColumn=19::DPX008 ") == 0);
}

TEST_CASE("check --fix rewrites a copy atomically; --diff changes nothing; --statistics counts") {
  TempDir d;
  auto bad = d.write("bad.py", kBad);
  auto r = run_denpex({"check", "--no-config", "--diff", "--unsafe-fixes", bad.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("+state = torch.load('a.pt', weights_only=True)") != std::string::npos);
  CHECK(read_file(bad.string()) == kBad);
  r = run_denpex({"check", "--no-config", "--statistics", bad.string()});
  CHECK(r.out.find("DPX008") != std::string::npos);
  CHECK(r.out.find("torch-load-weights-only") != std::string::npos);
  ::chmod(bad.c_str(), 0640);
  r = run_denpex({"check", "--no-config", "--fix", "--unsafe-fixes", bad.string()});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Fixed 1 finding") != std::string::npos);
  CHECK(read_file(bad.string()) == "import torch\nstate = torch.load('a.pt', weights_only=True)\n");
  struct stat st {};
  ::stat(bad.c_str(), &st);
  CHECK((st.st_mode & 0777) == 0640);
  for (const auto& e : fs::directory_iterator(d.path)) CHECK(e.path().filename().string().find(".denpex-") == std::string::npos);
}

TEST_CASE("check --fix on a read-only file: clear error, file untouched") {
  TempDir d;
  auto bad = d.write("ro.py", kBad);
  ::chmod(bad.c_str(), 0444);
  auto r = run_unprivileged({"check", "--no-config", "--fix", "--unsafe-fixes", bad.string()}, d.path);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("read-only") != std::string::npos);
  CHECK(read_file(bad.string()) == kBad);
}

TEST_CASE("check: an unreadable directory is reported and skipped, the rest is checked") {
  TempDir d;
  d.write("ok.py", kBad);
  fs::create_directories(d.path / "locked");
  d.write("locked/hidden.py", kBad);
  ::chmod((d.path / "locked").c_str(), 0000);
  auto r = run_unprivileged({"check", "--no-config", "--output-format", "json", d.path.string()}, d.path);
  ::chmod((d.path / "locked").c_str(), 0755);  // so that the temporary tree can be removed
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("cannot read directory " + (d.path / "locked").string() + ": Permission denied") != std::string::npos);
  CHECK(r.err.find("skipped") != std::string::npos);
  CHECK(r.out.find("ok.py") != std::string::npos);
  CHECK(r.out.find("hidden.py") == std::string::npos);
}

TEST_CASE("check --fix never writes through a symlink, and a walk does not follow one out of the tree") {
  TempDir outside, tree;
  auto target = outside.write("shared.py", kBad);
  tree.write("own.py", kBad);
  fs::create_symlink(target, tree.path / "link.py");
  // The walk checks own.py only; the file outside stays as it was.
  auto r = run_denpex({"check", "--no-config", "--fix", "--unsafe-fixes", tree.path.string()});
  CHECK(read_file(target.string()) == kBad);
  CHECK(read_file((tree.path / "own.py").string()) != kBad);
  CHECK(fs::is_symlink(tree.path / "link.py"));
  // Named explicitly, the link is checked but not rewritten: a clear error, link and target intact.
  r = run_denpex({"check", "--no-config", "--fix", "--unsafe-fixes", (tree.path / "link.py").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("it is a symbolic link") != std::string::npos);
  CHECK(fs::is_symlink(tree.path / "link.py"));
  CHECK(read_file(target.string()) == kBad);
}

TEST_CASE("check reads [tool.denpex] and reports unknown keys with file and line") {
  TempDir d;
  d.write("pyproject.toml", "[project]\nname = 'x'\n\n[tool.denpex]\nignore = [\"DPX008\"]\nfrobnicate = 1\n");
  auto bad = d.write("bad.py", kBad + std::string("torch.backends.cudnn.benchmark = True\nx = max(len(s) for s in b)\n"));
  auto r = run_denpex({"check", "--output-format", "json", bad.string()});
  CHECK(r.err.find("pyproject.toml:6:1: unknown key 'tool.denpex.frobnicate'") != std::string::npos);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["code"] == "DPX014");
  d.write("pyproject.toml", "[tool.denpex]\nseverity = { DPX014 = \"loud\" }\n");
  r = run_denpex({"check", bad.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("pyproject.toml:2:") != std::string::npos);
  d.write("pyproject.toml", "[tool.denpex]\nselect = [\"DPX014\"]\nseverity = { DPX014 = \"error\" }\n");
  r = run_denpex({"check", "--output-format", "json", bad.string()});
  j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["severity"] == "error");
  r = run_denpex({"check", "--select", "DPX008", "--output-format", "json", bad.string()});
  j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["code"] == "DPX008");
}

TEST_CASE("check: extend-select turns opt-in rules on and keeps the default ones") {
  TempDir d;
  // DPX006 (opt-in) once per step, plus a default rule's finding (DPX008).
  auto f = d.write("train.py",
                   "import torch\n"
                   "state = torch.load('init.pt')\n"
                   "def train(model, loader, opt):\n"
                   "    for x, y in loader:\n"
                   "        loss = model(x).sum()\n"
                   "        loss.backward()\n"
                   "        opt.step()\n"
                   "        torch.cuda.empty_cache()\n");
  auto codes = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"check", "--output-format", "json"});
    args.push_back(f.string());
    auto r = run_denpex(args);
    std::vector<std::string> out;
    if (r.exit_code == 2) return std::vector<std::string>{"exit 2: " + r.err};
    for (const auto& x : nlohmann::json::parse(r.out)) out.push_back(x["code"]);
    return out;
  };
  CHECK(codes({}) == std::vector<std::string>{"DPX008"});
  CHECK(codes({"--extend-select", "DPX006"}) == std::vector<std::string>{"DPX008", "DPX006"});
  d.write("pyproject.toml", "[tool.denpex]\nextend-select = [\"DPX006\"]\n");
  CHECK(codes({}) == std::vector<std::string>{"DPX008", "DPX006"});
  // A command-line selection replaces the file's selection, its extension included.
  CHECK(codes({"--select", "DPX008"}) == std::vector<std::string>{"DPX008"});
  d.write("pyproject.toml", "[tool.denpex]\nselect = [\"DPX006\"]\nextend-select = [\"DPX008\"]\n");
  CHECK(codes({}) == std::vector<std::string>{"DPX008", "DPX006"});
  d.write("pyproject.toml", "[tool.denpex]\nextend-select = [\"DPX999\"]\n");
  auto bad = codes({});
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].find("no rule matches 'DPX999'") != std::string::npos);
}

// toml++ 3.3 reaches undefined behaviour on some non-ASCII characters outside strings (found by
// fuzz_config_entry): such files get Denpex's own error, and non-ASCII in strings and comments is fine.
TEST_CASE("check: a non-ASCII character outside TOML strings is a clear error, inside them it is fine") {
  TempDir d;
  auto f = d.write("a.py", "import torch\n");
  d.write("pyproject.toml", "[tool.denpex]\nselect = [\xc6\x95\"DPX\"]\n");
  auto r = run_denpex({"check", f.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("pyproject.toml:2:11: a non-ASCII character outside a string or comment") != std::string::npos);
  d.write("pyproject.toml", "# r\xc3\xa9sum\xc3\xa9 \xc6\x95\n[tool.denpex]\nexclude = [\"d\xc3\xa9j\xc3\xa0/\"]  # \xc6\x95\n"
                            "x = \"\"\"a\\\n  b\xc6\x95\"\"\"\ny = '\xc6\x95'\n");
  r = run_denpex({"check", f.string()});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("unknown key 'tool.denpex.x'") != std::string::npos);
  // Right after a line-ending backslash the TOML reader has the same fault: refused, with where.
  d.write("pyproject.toml", "[tool.denpex]\nx = \"\"\"a\\\n  \xc6\x95\"\"\"\n");
  r = run_denpex({"check", f.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("pyproject.toml:3:3: a non-ASCII character right after a line-ending backslash") != std::string::npos);
}

TEST_CASE("check --list-rules lists every rule; docs/rules.md is generated from it") {
  auto r = run_denpex({"check", "--list-rules"});
  CHECK(r.exit_code == 0);
  for (int i = 1; i <= 18; ++i) {
    char code[8];
    std::snprintf(code, sizeof code, "DPX%03d", i);
    CHECK(r.out.find(code) != std::string::npos);
  }
  r = run_denpex({"check", "--list-rules", "--output-format", "json"});
  CHECK(nlohmann::json::parse(r.out).size() >= 19);
}
