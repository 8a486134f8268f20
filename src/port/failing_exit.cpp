// Porting kit: ending the job when a process exits non-zero
// (include/splitc/port/failing_exit.hpp).
#include <splitc/port/env.hpp>
#include <splitc/port/failing_exit.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace splitc::port {
namespace {

struct hook {
  bool (*layer_up)() noexcept = nullptr;
  void (*end_job)(int) noexcept = nullptr;
  const char* job_words = "";
  bool ran = false;
};
hook installed;

void on_process_exit(int status, void*) {
  if (status == 0 || installed.ran || !installed.layer_up()) return;
  installed.ran = true;
  const std::string line = fmt::format("splitc: processor {}: exit status {}; ending the {}\n",
                                       env::myproc.value().value_or("?"), status,
                                       installed.job_words);
  std::fflush(nullptr);
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
  installed.end_job(status);
}

}  // namespace

void end_job_on_failing_exit(bool (*layer_up)() noexcept, void (*end_job)(int status) noexcept,
                             const char* job_words) {
  const bool first = installed.layer_up == nullptr;
  installed = hook{layer_up, end_job, job_words, false};
  if (first) on_exit(on_process_exit, nullptr);
}

}  // namespace splitc::port
