#include "not_built.h"

namespace denpex::cli {

int cmd_check(const Args& args) { return not_built_yet("check", "denpex check [options] [PATHS...]", args); }

}  // namespace denpex::cli
