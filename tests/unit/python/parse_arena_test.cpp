// ParseArena: trees built in the arena are the trees malloc builds, findings are the same, a file
// too large for one chunk spills to malloc (and is freed node by node), and scopes can repeat.
#include <doctest/doctest.h>

#include <string>

#include "denpex/python/analyze.h"
#include "denpex/python/parse.h"
#include "denpex/python/parse_arena.h"

using namespace denpex;

// tree-sitter's own free (its alloc.h): memory it hands out must go back through the allocator
// that made it, which is Denpex's once parse() has run.
extern "C" void (*ts_current_free)(void*);

namespace {

std::string sexp(TSNode n) {
  char* s = ts_node_string(n);
  std::string out(s);
  ts_current_free(s);
  return out;
}
std::string sexp(const python::Tree& t) { return sexp(t.root()); }

const char* kSource =
    "import torch\n"
    "from torch.utils.checkpoint import checkpoint\n"
    "def step(model, x):\n"
    "    sd = torch.load('a.pt')\n"
    "    return checkpoint(model, x)\n"
    "if (:\n";  // broken on purpose: error recovery allocates too

}  // namespace

TEST_CASE("parse arena: same trees and findings as without it, scope after scope") {
  python::Tree plain = python::parse(kSource);
  std::string expected = sexp(plain);
  auto findings = python::analyze(kSource).findings;
  REQUIRE(findings.size() >= 2);
  for (int round = 0; round < 3; ++round) {
    python::ParseArena arena;
    python::Tree t = python::parse(kSource);
    CHECK(sexp(t) == expected);
    python::ParseArena nested;  // does nothing: the outer scope owns the arena
    auto again = python::analyze(kSource).findings;
    REQUIRE(again.size() == findings.size());
    for (size_t i = 0; i < again.size(); ++i) {
      CHECK(again[i].code == findings[i].code);
      CHECK(again[i].range == findings[i].range);
    }
  }
  // Outside any scope, parsing goes back to malloc; an incremental reparse still works.
  python::Tree t = python::parse(kSource);
  CHECK(sexp(t) == expected);
  CHECK(sexp(python::parse(kSource, &t)) == expected);
}

TEST_CASE("parse arena: a file whose arrays outgrow a chunk spills to malloc and parses the same") {
  std::string big;
  for (int i = 0; i < 200000; ++i) big += "x" + std::to_string(i % 97) + " = 1\n";
  python::Tree plain = python::parse(big);
  uint32_t count = ts_node_named_child_count(plain.root());
  REQUIRE(count == 200000);
  python::ParseArena arena;
  python::Tree t = python::parse(big);
  CHECK(ts_node_named_child_count(t.root()) == count);
  CHECK(ts_node_end_byte(t.root()) == big.size());
  CHECK(sexp(ts_node_named_child(t.root(), 199999)) == sexp(ts_node_named_child(plain.root(), 199999)));
}
