// Program arguments reach every processor verbatim (option lookalikes, empty, spaces), and so
// does the name the program was started by (argv[0]: the test programs are links to their
// backend's driver, which runs the one its argv[0] names; a plain start starts the processors
// by that name too).
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
  const std::string name = before[0].substr(before[0].rfind('/') + 1);
  CHECK_MSG(name.starts_with("tp_program_args_"), "processor {} was started as {}",
            splitc::myproc(), before[0]);
  return harness::pass("program_args");
}
