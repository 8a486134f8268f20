# splitc_add_backend(NAME SOURCES...): one library per backend, splitc-NAME
# (alias splitc::NAME), holding the runtime plus the backend's own sources.
# Consumers get SPLITC_BACKEND_<NAME> so the inlined core selects it.
function(splitc_add_backend name)
  string(TOUPPER "${name}" upper)
  add_library(splitc-${name} STATIC ${SPLITC_CORE_SOURCES} ${ARGN})
  add_library(splitc::${name} ALIAS splitc-${name})
  target_compile_definitions(splitc-${name} PUBLIC SPLITC_BACKEND_${upper}=1)
  target_include_directories(splitc-${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(splitc-${name} PUBLIC splitc::headers)
  target_compile_options(splitc-${name} PRIVATE -Wall -Wextra)
  set_target_properties(splitc-${name} PROPERTIES EXPORT_NAME ${name} OUTPUT_NAME splitc-${name})
  set_property(GLOBAL APPEND PROPERTY SPLITC_BACKENDS ${name})
endfunction()

# splitc_test_launcher(BACKEND OUT): the launcher of BACKEND's jobs, for tests and examples
# (splitc-run itself for the default backend, splitc-run-BACKEND for the others).
function(splitc_test_launcher backend out)
  if(backend STREQUAL SPLITC_DEFAULT_BACKEND)
    set(${out} $<TARGET_FILE:splitc-run> PARENT_SCOPE)
  else()
    set(${out} $<TARGET_FILE:splitc-run-${backend}> PARENT_SCOPE)
  endif()
endfunction()
