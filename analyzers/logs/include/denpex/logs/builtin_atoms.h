#pragma once
// The literal prefilter's atoms for the built-in library's screen, computed when denpex is built
// (analyzers/logs/embed_atoms.cpp), for DiagnoseOptions::atoms. They fit a matcher over the
// built-in library alone (PrefilterAtoms::fit); with other entries the prefilter computes its own.
#include "denpex/logs/prefilter_atoms.h"

namespace denpex::logs {

const PrefilterAtoms& builtin_prefilter_atoms();

}  // namespace denpex::logs
