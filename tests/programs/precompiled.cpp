// The program that precompiles the standard library's and fmt's headers once for every C++
// test program of every backend (cmake/SplitcTests.cmake, _splitc_test_precompiled_headers); it
// is never run.
int main() { return 0; }
