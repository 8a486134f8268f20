# The backend conformance suite (conformance.cpp) on one backend at a time
# (included by splitc_add_backend_tests, cmake/SplitcTests.cmake, in this tree
# and outside it): the porting boundary's contract checked on the backend
# directly, at P = 1 (loopback), 2, 3 and 4 where the backend runs them; label
# "conformance".
splitc_add_program_test(conformance conformance.cpp PROCS 1 2 3 4 LABELS conformance TIMEOUT 300)
# The mpi backend's MPI-3 atomics, off by default (docs/mpi.md "Atomics"), through the boundary
# too: on Open MPI under osc ucx (splitc-run's osc rdma crashes on a compare-and-swap to self).
splitc_add_program_test(conformance conformance.cpp BACKENDS mpi PROCS 2 3 LABELS conformance
  VARIANT mpi_atomics TIMEOUT 300 ENVIRONMENT "SPLITC_MPI_ATOMICS=mpi;OMPI_MCA_osc=ucx")
