// The program that precompiles the core's headers once per backend for the test programs
// (cmake/SplitcTests.cmake, _splitc_test_precompiled_headers); it is never run.
int main() { return 0; }
