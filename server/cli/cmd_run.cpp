#include "not_built.h"

namespace denpex::cli {

int cmd_run(const Args& args) { return not_built_yet("run", "denpex run [--log FILE] -- CMD [ARGS...]", args); }

}  // namespace denpex::cli
