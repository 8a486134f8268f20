# The conformance suite on a SINGLE_PROCESS backend (the template): its runs
# are expected failures, and the failure is the one a porter starts from --
# "no path to peer", even to itself (P = 1) and through the launcher (P = 2).
foreach(backend IN LISTS SPLITC_TEST_BACKENDS)
  splitc_add_test_program(tp_conformance conformance.cpp ${backend})
  splitc_test_launcher(${backend} run)
  foreach(p 1 2)
    add_test(NAME ${backend}.conformance.xf_no_path.p${p}
      COMMAND $<TARGET_FILE:splitc-expect> failure
              --regex "no path to peer"
              -- ${run} -n ${p} $<TARGET_FILE:tp_conformance_${backend}>)
    set_tests_properties(${backend}.conformance.xf_no_path.p${p} PROPERTIES
      LABELS "conformance;${backend};errors" TIMEOUT 60)
  endforeach()
endforeach()
