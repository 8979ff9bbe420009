#include "denpex/core/condition.h"

#include <cctype>
#include <charconv>

#include "denpex/core/size.h"

namespace denpex::core {
namespace {

struct Lexer {
  std::string_view s;
  size_t i = 0;
  void skip() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s.substr(i, tok.size()) != tok) return false;
    i += tok.size();
    return true;
  }
  std::optional<double> number() {
    skip();
    size_t start = i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
    if (start == i) return std::nullopt;
    double v = 0;
    auto [p, ec] = std::from_chars(s.data() + start, s.data() + i, v);
    if (ec != std::errc() || p != s.data() + i) return std::nullopt;
    return v;
  }
  std::string name() {
    skip();
    size_t start = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
    return std::string(s.substr(start, i - start));
  }
  bool done() {
    skip();
    return i == s.size();
  }
};

}  // namespace

std::optional<Condition> Condition::parse(std::string_view text, std::string* error) {
  Condition c;
  Lexer lx{text};
  auto fail = [&](std::string why) -> std::optional<Condition> {
    if (error) *error = "invalid `when` '" + std::string(text) + "': " + why;
    return std::nullopt;
  };
  auto parse_sum = [&](std::vector<Term>& out) -> bool {
    double sign = 1;
    while (true) {
      Term t;
      if (auto n = lx.number()) {
        t.factor = sign * *n;
        if (lx.eat("*")) {
          t.name = lx.name();
          if (t.name.empty()) return false;
        }
      } else {
        t.factor = sign;
        t.name = lx.name();
        if (t.name.empty()) return false;
      }
      if (!t.name.empty()) c.names_.push_back(t.name);
      out.push_back(std::move(t));
      if (lx.eat("+"))
        sign = 1;
      else if (lx.eat("-"))
        sign = -1;
      else
        return true;
    }
  };
  if (!parse_sum(c.lhs_)) return fail("expected a number or a capture name on the left");
  for (std::string_view op : {">=", "<=", ">", "<"}) {
    if (lx.eat(op)) {
      c.op_ = op;
      break;
    }
  }
  if (c.op_.empty()) return fail("expected one of > >= < <=");
  if (!parse_sum(c.rhs_)) return fail("expected a number or a capture name on the right");
  if (!lx.done()) return fail("unexpected text at column " + std::to_string(lx.i + 1));
  return c;
}

bool Condition::evaluate(const std::map<std::string, std::string, std::less<>>& captures) const {
  auto sum = [&](const std::vector<Term>& terms) -> std::optional<double> {
    double total = 0;
    for (const Term& t : terms) {
      if (t.name.empty()) {
        total += t.factor;
        continue;
      }
      auto it = captures.find(t.name);
      if (it == captures.end()) return std::nullopt;
      auto v = parse_quantity(it->second);
      if (!v) return std::nullopt;
      total += t.factor * *v;
    }
    return total;
  };
  auto l = sum(lhs_), r = sum(rhs_);
  if (!l || !r) return false;
  if (op_ == ">") return *l > *r;
  if (op_ == ">=") return *l >= *r;
  if (op_ == "<") return *l < *r;
  return *l <= *r;
}

}  // namespace denpex::core
