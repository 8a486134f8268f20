// splitc-bench's parts (parts/*.cpp, one idea per file) compiled as one translation unit
// (cmake/SplitcBench.cmake), as common_sources.cpp the rest: the headers they share are parsed
// once per backend instead of nine times (8.8 s of compiling instead of 21.6 s for each backend,
// measured on hpam). Each part keeps its own names in a namespace part_<name>_impl. The
// includes are relative, so that the same tree elsewhere compiles the same text (ccache).
#include "parts/atomics.cpp"
#include "parts/collectives.cpp"
#include "parts/figures.cpp"
#include "parts/machine_limits.cpp"
#include "parts/pointers.cpp"
#include "parts/table4.cpp"
#include "parts/teams.cpp"
#include "parts/transfers.cpp"
#include "parts/waits.cpp"
