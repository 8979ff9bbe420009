// Must NOT compile: analyzers may not see server headers. CTest expects this build to fail.
#include "denpex/server/cli.h"

int layering_probe() { return 0; }
