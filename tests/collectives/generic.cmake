# Collectives, the global heap, atomics and atomic procedures (multi-process programs checked
# against sequential answers), at every process count of one backend at a time (included by
# splitc_add_backend_tests, cmake/SplitcTests.cmake). Uses the harness of tests/programs.
# On the network backends, fewer collectives back to back (collectives) and fewer operations
# per contended target (atomics): every kind still runs.
splitc_add_program_test(collectives collectives_test.cpp LABELS collectives NETWORK_ARGS 200)
splitc_add_program_test(heap heap_test.cpp LABELS collectives)
splitc_add_program_test(atomics atomics_test.cpp LABELS collectives NETWORK_ARGS 50)
# Atomics again through udp's impairment layer (loss, duplication, reordering, delay):
# split-phase atomic procedures apply exactly once but out of issue order.
splitc_add_program_test(atomics atomics_test.cpp LABELS collectives NETWORK_ARGS 50
  BACKENDS udp PROCS 2 3 VARIANT impair
  ENVIRONMENT "SPLITC_UDP_IMPAIR=drop=0.05,dup=0.03,reorder=0.05,delay=50,jitter=100,window=400,seed=7")
