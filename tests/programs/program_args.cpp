// Program arguments reach every processor verbatim (option lookalikes, empty, spaces).
#include "harness.hpp"

#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::vector<std::string> before(argv, argv + argc);
  splitc::init(argc, argv);
  const std::vector<std::string> after(argv, argv + argc);
  CHECK_MSG(before == after, "init changed the arguments ({} before, {} after)", before.size(),
            after.size());
  const std::vector<std::string> expected = {"-n", "5", "--keep-aslr", "--", "two words", "",
                                             "--backend=none"};
  const std::vector<std::string> got(argv + 1, argv + argc);
  std::string shown;
  for (const auto& a : got) shown += "[" + a + "]";
  CHECK_MSG(got == expected, "processor {} got the arguments {}", splitc::myproc(), shown);
  return harness::pass("program_args");
}
