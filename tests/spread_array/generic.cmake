# Spread arrays on one backend at a time (included by splitc_add_backend_tests,
# cmake/SplitcTests.cmake): every layout under the backend's launcher at its process counts
# (labels "programs;<backend>").
# Prints "PASS spread_array" once (processor 0) and exits 0, or names the failing processor
# and exits non-zero.
splitc_add_program_test(spread_array spread_array_program.cpp)
