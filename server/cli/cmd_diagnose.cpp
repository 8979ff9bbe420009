#include "not_built.h"

namespace denpex::cli {

int cmd_diagnose(const Args& args) { return not_built_yet("diagnose", "denpex diagnose [options] [FILE|DIR|-]...", args); }

}  // namespace denpex::cli
