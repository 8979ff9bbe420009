#include "denpex/server/cli.h"

int main(int argc, char** argv) { return denpex::cli::run_main(argc, argv); }
