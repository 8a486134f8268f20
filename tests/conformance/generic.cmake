# The backend conformance suite (conformance.cpp) on one backend at a time
# (included by splitc_add_backend_tests, cmake/SplitcTests.cmake, in this tree
# and outside it): the porting boundary's contract checked on the backend
# directly, at P = 1 (loopback), 2, 3 and 4 where the backend runs them; label
# "conformance".
splitc_add_program_test(conformance conformance.cpp PROCS 1 2 3 4 LABELS conformance TIMEOUT 300)
