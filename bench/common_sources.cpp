// splitc-bench's sources that are not parts and need splitc, compiled as one translation unit
// (cmake/SplitcBench.cmake): the headers they share are parsed once per backend, not once per
// source (9.6 s of compiling instead of 14.7 s for each backend when they were six). The command
// line and the link to the reference programs need no splitc: they are compiled once for every
// backend (splitc-bench-common). The includes are relative, so that the same tree elsewhere
// compiles the same text (ccache finds it).
#include "main.cpp"
#include "harness.cpp"
#include "results.cpp"
#include "plots.cpp"
#include "seed_figures.cpp"
