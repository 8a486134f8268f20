// main() of the job-of-one tests: splitc::init once per process, in a gtest global environment.
#include <splitc/splitc.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

class job_of_one : public ::testing::Environment {
 public:
  job_of_one(int& argc, char**& argv) : argc_(argc), argv_(argv) {}
  void SetUp() override {
    // Started plainly: an outer job's variables must not turn this process into a launcher
    // or a member of someone else's job.
    for (const char* v : {"SPLITC_PROCS", "SPLITC_JOB", "SPLITC_SMP_FD", "SPLITC_MYPROC"})
      unsetenv(v);
    splitc::init(argc_, argv_);
  }
  void TearDown() override { splitc::finalize(); }

 private:
  int& argc_;
  char**& argv_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new job_of_one(argc, argv));
  return RUN_ALL_TESTS();
}
