#include "not_built.h"

namespace denpex::cli {

int cmd_lsp(const Args& args) { return not_built_yet("lsp", "denpex lsp", args); }

}  // namespace denpex::cli
