// Every function is inline in CGirdersAtomics.h; SwiftPM needs one source file per C target.
#include "CGirdersAtomics.h"
