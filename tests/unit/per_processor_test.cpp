// splitc::per_processor in both of its forms, without a running job: the shared-process form
// (the sim backend's) is driven by switching splitc_current_context between contexts made
// here, as that backend's scheduler switches it between its processors.
#include <splitc.h>
#include <splitc/per_processor.hpp>
#include <splitc/errors.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <type_traits>
#include <vector>

namespace splitc::detail {
// The C interface's storage (src/c_per_processor.cpp), with the backend's answer as a parameter.
// The tests' keys are static, as splitc.h asks of a program's: the storage a key holds lives
// until the process exits, reachable from the key (LeakSanitizer, scripts/sanitize.sh).
void* per_processor_storage(splitc_per_processor_key& key, std::size_t size, bool shared,
                            proc_t myproc, proc_t procs);
}  // namespace splitc::detail

namespace {

using ::testing::ExitedWithCode;
using splitc::detail::per_processor_storage;

template <class T>
using shared_form = splitc::detail::basic_per_processor<T, true>;
template <class T>
using separate_form = splitc::detail::basic_per_processor<T, false>;

/// A job of `procs` processors in this process: one context prefix each.
class fake_job {
 public:
  explicit fake_job(int procs) : contexts_(static_cast<std::size_t>(procs)) {
    for (int p = 0; p < procs; ++p) contexts_[static_cast<std::size_t>(p)] = {p, procs, nullptr, nullptr};
  }
  ~fake_job() { splitc_current_context = nullptr; }
  /// Make processor p the running one.
  void run_as(int p) { splitc_current_context = &contexts_[static_cast<std::size_t>(p)]; }

 private:
  std::vector<splitc_context_prefix> contexts_;
};

/// Counts its copies (the initial value's copies are the processors' first accesses).
struct counted {
  static inline int copies = 0;
  int value = 7;
  counted() = default;
  counted(const counted& other) : value(other.value) { ++copies; }
  counted& operator=(const counted&) = default;
};

TEST(PerProcessorShared, EachProcessorHasItsOwnValue) {
  shared_form<int> hits;
  fake_job job(4);
  for (int p = 0; p < 4; ++p) {
    job.run_as(p);
    hits.get() += 10 * (p + 1);
  }
  for (int p = 0; p < 4; ++p) {
    job.run_as(p);
    EXPECT_EQ(hits.get(), 10 * (p + 1)) << "processor " << p;
  }
}

TEST(PerProcessorShared, CopiesTheInitialValueOnFirstAccessOnly) {
  shared_form<counted> x;
  fake_job job(3);
  counted::copies = 0;
  job.run_as(2);
  EXPECT_EQ(x.get().value, 7);
  EXPECT_EQ(counted::copies, 1);
  x.get().value = 9;
  EXPECT_EQ(counted::copies, 1) << "a second access must not copy again";
  job.run_as(0);
  EXPECT_EQ(x.get().value, 7) << "processor 0 starts from the initial value, not processor 2's";
  EXPECT_EQ(counted::copies, 2);
  job.run_as(1);  // never accessed: no copy made
  EXPECT_EQ(counted::copies, 2);
}

TEST(PerProcessorShared, ConstructorArgumentsMakeTheInitialValue) {
  shared_form<std::vector<int>> v{3, 5};  // three fives
  fake_job job(2);
  job.run_as(1);
  EXPECT_EQ(v.get(), (std::vector<int>{5, 5, 5}));
  v.get().push_back(1);
  job.run_as(0);
  EXPECT_EQ(v.get(), (std::vector<int>{5, 5, 5}));
}

TEST(PerProcessorShared, ReferencesStayValidWhileOthersMakeTheirs) {
  // Processor 0 holds a reference across a point where every other processor (of a large job,
  // so the table of copies grows) makes its copy, as fibers switching at a communication call.
  shared_form<std::string> name{"initial"};
  fake_job job(1000);
  job.run_as(0);
  std::string& mine = name.get();
  mine = "processor 0";
  const std::string* const where = &mine;
  for (int p = 999; p >= 1; --p) {
    job.run_as(p);
    name.get() = "processor " + std::to_string(p);
  }
  job.run_as(0);
  EXPECT_EQ(&name.get(), where);
  EXPECT_EQ(mine, "processor 0");
  job.run_as(500);
  EXPECT_EQ(name.get(), "processor 500");
}

TEST(PerProcessorShared, AValueThatCannotBeCopiedIsDefaultConstructed) {
  shared_form<std::atomic<int>> flags;
  fake_job job(2);
  job.run_as(0);
  flags.get().store(3);
  job.run_as(1);
  EXPECT_EQ(flags.get().load(), 0);
  static_assert(!std::is_constructible_v<shared_form<std::atomic<int>>, int>,
                "a value that is not copied takes no initial value");
}

TEST(PerProcessorShared, ConstAccessSeesTheRunningProcessorsValue) {
  shared_form<int> x{4};
  fake_job job(2);
  job.run_as(1);
  x.get() = 11;
  const auto& view = x;
  EXPECT_EQ(view.get(), 11);
  job.run_as(0);
  EXPECT_EQ(view.get(), 4);
}

TEST(PerProcessorSeparate, IsOneValueWhateverTheProcessor) {
  separate_form<int> x{3};
  fake_job job(2);
  job.run_as(0);
  x.get() = 8;
  job.run_as(1);
  EXPECT_EQ(x.get(), 8);
  EXPECT_EQ(&x.get(), &static_cast<const separate_form<int>&>(x).get());
}

TEST(PerProcessorC, SharedGivesEachProcessorItsOwnCopyOfTheInitialBytes) {
  static const int initial[2] = {5, 6};
  static splitc_per_processor_key key = SPLITC_PER_PROCESSOR_KEY_FROM(initial);
  auto* p1 = static_cast<int*>(per_processor_storage(key, sizeof initial, true, 1, 3));
  EXPECT_EQ(p1[0], 5);
  EXPECT_EQ(p1[1], 6);
  p1[0] = 50;
  auto* p0 = static_cast<int*>(per_processor_storage(key, sizeof initial, true, 0, 3));
  EXPECT_NE(p0, p1);
  EXPECT_EQ(p0[0], 5) << "processor 0 starts from the initial bytes, not processor 1's";
  EXPECT_EQ(per_processor_storage(key, sizeof initial, true, 1, 3), p1);
  EXPECT_EQ(p1[0], 50);
  auto* p2 = static_cast<int*>(per_processor_storage(key, sizeof initial, true, 2, 3));
  EXPECT_NE(p2, p0);
  EXPECT_NE(p2, p1);
}

TEST(PerProcessorC, SeparateIsOneZeroedStorageWhateverTheProcessor) {
  static splitc_per_processor_key key = SPLITC_PER_PROCESSOR_KEY_INIT;
  auto* a = static_cast<long*>(per_processor_storage(key, 4 * sizeof(long), false, 3, 8));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(a[i], 0);
  EXPECT_EQ(per_processor_storage(key, 4 * sizeof(long), false, 5, 8), a);
}

TEST(PerProcessorC, TheInlineAccessCachesTheRunningProcessorsStorage) {
  static splitc_per_processor_key key = SPLITC_PER_PROCESSOR_KEY_INIT;
  fake_job job(2);
  job.run_as(1);
  void* mine = splitc_per_processor(&key, sizeof(int));
  EXPECT_EQ(key.storage_, mine);
  EXPECT_EQ(key.proc_, 1);
  EXPECT_EQ(splitc_per_processor(&key, sizeof(int)), mine);
}

TEST(PerProcessorCDeathTest, ADifferentSizeForOneKeyEndsTheProcess) {
  static splitc_per_processor_key key = SPLITC_PER_PROCESSOR_KEY_INIT;
  per_processor_storage(key, 8, true, 0, 2);
  EXPECT_EXIT(per_processor_storage(key, 16, true, 1, 2), ExitedWithCode(splitc::error_exit_status),
              "splitc_per_processor: the key was first used with 8 bytes, now with 16");
}

TEST(PerProcessorCDeathTest, OutsideTheJobEndsTheProcess) {
  static splitc_per_processor_key key = SPLITC_PER_PROCESSOR_KEY_INIT;
  ASSERT_EQ(splitc_current_context, nullptr);
  EXPECT_EXIT(splitc_per_processor(&key, sizeof(int)), ExitedWithCode(splitc::error_exit_status),
              "splitc_per_processor used outside the job");
}

// The public class on this build's backend (smp: processes of their own).
splitc::per_processor<int> counter_global;
splitc::per_processor<std::vector<int>> vector_global{3, 0};
constinit splitc::per_processor<long> constant_global{42};  // constant-initialized: no start-up code

TEST(PerProcessorPublic, OperatorsNameTheValue) {
  fake_job job(1);
  job.run_as(0);
  ++*counter_global;
  EXPECT_EQ(*counter_global, 1);
  EXPECT_EQ(vector_global->size(), 3U);
  EXPECT_EQ(vector_global.get(), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(*constant_global, 42);
  static_assert(!splitc::has_shared_process<splitc::active_backend>);
  static_assert(sizeof(splitc::per_processor<long>) == sizeof(long),
                "without a shared process the variable is the one T");
}

TEST(PerProcessorDeathTest, SharedFormOutsideTheJobEndsTheProcess) {
  shared_form<int> x;
  ASSERT_EQ(splitc_current_context, nullptr);
  EXPECT_EXIT(static_cast<void>(x.get()), ExitedWithCode(splitc::error_exit_status),
              "splitc::per_processor used outside the job \\(before init\\(\\) or after "
              "finalize\\(\\)\\)");
}

#ifndef NDEBUG
TEST(PerProcessorDeathTest, SeparateFormOutsideTheJobEndsTheProcessWithAssertionsOn) {
  separate_form<int> x;
  ASSERT_EQ(splitc_current_context, nullptr);
  EXPECT_EXIT(static_cast<void>(x.get()), ExitedWithCode(splitc::error_exit_status),
              "splitc::per_processor used outside the job");
}
#endif

}  // namespace
