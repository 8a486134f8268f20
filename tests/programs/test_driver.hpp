// The main() of a backend's test driver (cmake/SplitcTests.cmake, splitc_add_test_program):
// every C++ test program of one backend is compiled into one executable, splitc-tests-<backend>,
// each program's source in a namespace of its own with its main() renamed (the generated
// features.cpp, written by test_driver.cmake). Each program keeps its name as a symbolic link
// to the driver (tp_bulk_mpi -> splitc-tests-mpi), and the driver runs the program its argv[0]
// names, with the arguments as given; `splitc-tests-<backend> NAME ARGS...` runs NAME too.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace splitc_test_driver {

struct program {
  const char* name;  // as in the build: tp_bulk, xf_null, sv_probe (the link adds _<backend>)
  int (*main)(int, char**);
};

extern const program programs[];
extern const std::size_t program_count;

inline std::string_view base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

inline const program* find(std::string_view name) {
  for (std::size_t i = 0; i < program_count; ++i) {
    if (name == programs[i].name) return &programs[i];
  }
  return nullptr;
}

[[noreturn]] inline void unknown(std::string_view driver, std::string_view name) {
  std::string known;
  for (std::size_t i = 0; i < program_count; ++i) {
    known += i == 0 ? "" : ", ";
    known += programs[i].name;
  }
  std::fprintf(stderr, "%.*s: no test program named '%.*s'; this driver has: %s\n",
               static_cast<int>(driver.size()), driver.data(), static_cast<int>(name.size()),
               name.data(), known.c_str());
  std::exit(2);
}

}  // namespace splitc_test_driver

// SPLITC_TEST_DRIVER_BACKEND is the backend's name (a -D of the driver).
int main(int argc, char** argv) {
  using namespace splitc_test_driver;
  const std::string driver = std::string("splitc-tests-") + SPLITC_TEST_DRIVER_BACKEND;
  const std::string suffix = std::string("_") + SPLITC_TEST_DRIVER_BACKEND;
  const std::string_view invoked = argc > 0 ? base_name(argv[0]) : std::string_view(driver);
  if (invoked == driver) {
    if (argc < 2) unknown(driver, "");
    const program* p = find(argv[1]);
    if (p == nullptr) unknown(driver, argv[1]);
    return p->main(argc - 1, argv + 1);
  }
  std::string_view name = invoked;
  if (name.size() > suffix.size() && name.ends_with(suffix)) name.remove_suffix(suffix.size());
  const program* p = find(name);
  if (p == nullptr) unknown(driver, invoked);
  return p->main(argc, argv);
}
