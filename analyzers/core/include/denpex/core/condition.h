#pragma once
// The `when` comparison of a fingerprint: "unallocated > 2 * tried", "reserved - allocated > tried".
//   cond := sum OP sum        OP := > | >= | < | <=
//   sum  := term (('+' | '-') term)*
//   term := NUMBER ['*' NAME] | NAME
// Names are capture groups; their text is read with parse_quantity (units allowed).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace denpex::core {

class Condition {
 public:
  // nullopt and a message in *error when the text does not follow the grammar.
  static std::optional<Condition> parse(std::string_view text, std::string* error);

  // False when a capture is missing or not a number.
  bool evaluate(const std::map<std::string, std::string, std::less<>>& captures) const;
  const std::vector<std::string>& names() const { return names_; }

 private:
  struct Term {
    double factor = 1;
    std::string name;  // empty: a constant
  };
  std::vector<Term> lhs_, rhs_;
  std::string op_;
  std::vector<std::string> names_;
};

}  // namespace denpex::core
