// The collectives' one copy between processes of one host (issue 41; detail/mailbox.hpp,
// "Pieces read from the sender's memory"): a gather's, scatter's, all-gather's or
// all-to-all's long block is read by its receiver straight from the sender's private memory
// (std::vector here) into its destination -- on smp (SPLITC_SMP_COLLECTIVE_ONE_COPY_MIN) and
// under the same-host layer of udp, mpi and mpich (SPLITC_SAME_HOST_COLLECTIVE_ONE_COPY_MIN).
// Checked, at sizes on both sides of the staging threshold, blocking and split-phase:
//   - the results are exact, and the path was taken (bytes read) when it is on;
//   - a collective returns only once its receivers have read what it lent them: each member
//     overwrites its source as soon as the call returns while the root is late (it sleeps
//     before its gather), and the root still gets the blocks as they were;
//   - a sender keeps a split-phase collective's sources lent until its counter completes;
//   - "staged" (the variable 0): nothing is read so, every block staged, the results the same;
//   - "refused": the odd processors' kernel refuses process_vm_readv (a seccomp filter, as a
//     container's may): their receives fall back to a get, results exact, and they stop
//     lending their own blocks.
//   - "pidns": the processors were started in pid namespaces of their own choosing
//     (ports/udp/tests/same_host_pidns_test.sh): two lend each other blocks exactly when
//     their namespaces are the same, results exact either way.
// Argument: on | staged | refused | pidns.
#include "harness.hpp"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

/// The backend this program runs on: its has_peer_read members and the bytes they read.
auto& backend() { return splitc::detail::ctx().backend; }

std::int32_t value(int proc, std::size_t i, int salt) {
  return static_cast<std::int32_t>(proc * 1000003 + static_cast<int>(i) * 7 + salt);
}

/// process_vm_readv fails with EPERM in this process from now on (the kernel's answer under
/// a filter that forbids it).
void refuse_cross_memory_reads() {
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  CHECK_MSG(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0, "PR_SET_NO_NEW_PRIVS: {}", std::strerror(errno));
  CHECK_MSG(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0, "seccomp filter: {}",
            std::strerror(errno));
}

/// This process's pid namespace (the inode of /proc/self/ns/pid).
std::uint64_t pid_namespace() {
  struct stat st {};
  CHECK_MSG(stat("/proc/self/ns/pid", &st) == 0, "/proc/self/ns/pid: {}", std::strerror(errno));
  return static_cast<std::uint64_t>(st.st_ino);
}

/// "pidns": one copy between two processors exactly when their pid namespaces are the same.
/// Returns whether any peer shares this processor's.
bool check_pid_namespaces() {
  const int me = splitc::myproc(), P = splitc::procs();
  const std::uint64_t mine = pid_namespace();
  std::vector<std::uint64_t> all(static_cast<std::size_t>(P));
  splitc::all_gather(std::span<const std::uint64_t>(&mine, 1), std::span<std::uint64_t>(all));
  bool shared = false;
  for (int q = 0; q < P; ++q) {
    if (q == me) continue;
    const bool same = all[static_cast<std::size_t>(q)] == mine;
    shared = shared || same;
    const std::size_t min = backend().peer_read_min(q);
    CHECK_MSG(same == (min != 0),
              "processor {} (pid namespace {}) and {} (pid namespace {}): the one copy's "
              "threshold {}, where it should be {}",
              me, mine, q, all[static_cast<std::size_t>(q)], min, same ? "on" : "0");
  }
  return shared;
}

/// Every collective that copies its streams into place, `count` elements per member. `min`:
/// the one copy's threshold (0: off), with which an all-gather's blocks are all read from
/// the members that hold them -- also a run of two blocks that wraps around the end of its
/// sender's buffer (Bruck's later rounds, from P = 4 on), in two parts there.
void check_exchanges(std::size_t count, int salt, std::size_t min) {
  const int me = splitc::myproc(), P = splitc::procs();
  const auto n = static_cast<std::size_t>(P);
  std::vector<std::int32_t> mine(count), all(count * n, -1), expected(count * n);
  for (std::size_t i = 0; i < count; ++i) mine[i] = value(me, i, salt);
  for (int q = 0; q < P; ++q)
    for (std::size_t i = 0; i < count; ++i) expected[static_cast<std::size_t>(q) * count + i] = value(q, i, salt);

  const std::size_t read_before = backend().peer_read_bytes();
  splitc::all_gather(std::span<const std::int32_t>(mine), std::span<std::int32_t>(all));
  CHECK_MSG(all == expected, "all_gather of {} elements", count);
  const std::size_t block = count * sizeof(std::int32_t), read = backend().peer_read_bytes() - read_before;
  if (min != 0 && block >= splitc::detail::mailbox_staged_threshold && block >= min)
    CHECK_MSG(read == (n - 1) * block,
              "all_gather of {}-byte blocks: {} bytes read from peers, where the {} other members' "
              "blocks are {}", block, read, P - 1, (n - 1) * block);

  for (int root = 0; root < P; ++root) {
    std::fill(all.begin(), all.end(), -1);
    splitc::gather(std::span<const std::int32_t>(mine), std::span<std::int32_t>(all), root);
    if (me == root) CHECK_MSG(all == expected, "gather of {} elements to {}", count, root);
    std::vector<std::int32_t> part(count, -1);
    splitc::scatter(std::span<const std::int32_t>(expected), std::span<std::int32_t>(part), root);
    CHECK_MSG(part == mine, "scatter of {} elements from {}", count, root);
  }

  // all_to_all: block q of processor p's send is (p, q)'s; uneven counts in the v form.
  std::vector<std::int32_t> send(count * n), receive(count * n, -1), want(count * n);
  for (int q = 0; q < P; ++q)
    for (std::size_t i = 0; i < count; ++i) {
      send[static_cast<std::size_t>(q) * count + i] = value(me * P + q, i, salt);
      want[static_cast<std::size_t>(q) * count + i] = value(q * P + me, i, salt);
    }
  splitc::all_to_all(std::span<const std::int32_t>(send), std::span<std::int32_t>(receive));
  CHECK_MSG(receive == want, "all_to_all of {} elements per block", count);

  std::vector<std::size_t> counts(n);
  for (std::size_t q = 0; q < n; ++q) counts[q] = count + q * 1000;
  std::vector<std::int32_t> ragged(counts[static_cast<std::size_t>(me)]), gathered;
  for (std::size_t i = 0; i < ragged.size(); ++i) ragged[i] = value(me, i, salt + 1);
  for (std::size_t q = 0; q < n; ++q)
    for (std::size_t i = 0; i < counts[q]; ++i) gathered.push_back(value(static_cast<int>(q), i, salt + 1));
  std::vector<std::int32_t> result(gathered.size(), -1);
  splitc::all_gatherv(std::span<const std::int32_t>(ragged), std::span<std::int32_t>(result),
                      std::span<const std::size_t>(counts));
  CHECK_MSG(result == gathered, "all_gatherv from {} elements", count);
}

/// Each member overwrites its block the moment its gather returns; the root arrives late.
void check_sources_kept(std::size_t count, int salt) {
  const int me = splitc::myproc(), P = splitc::procs();
  std::vector<std::int32_t> mine(count), all(count * static_cast<std::size_t>(P), -1);
  for (std::size_t i = 0; i < count; ++i) mine[i] = value(me, i, salt);
  if (me == 0) std::this_thread::sleep_for(std::chrono::milliseconds(30));
  splitc::gather(std::span<const std::int32_t>(mine), std::span<std::int32_t>(all), 0);
  std::fill(mine.begin(), mine.end(), -7);
  if (me == 0)
    for (int q = 0; q < P; ++q)
      for (std::size_t i = 0; i < count; ++i)
        CHECK_MSG(all[static_cast<std::size_t>(q) * count + i] == value(q, i, salt),
                  "gather to a late root: processor {}'s element {} changed before it was read", q, i);
  // Split-phase: the sources are lent until the counter completes.
  std::vector<std::int32_t> every(count * static_cast<std::size_t>(P), -1);
  for (std::size_t i = 0; i < count; ++i) mine[i] = value(me, i, salt + 2);
  if (me == 0) std::this_thread::sleep_for(std::chrono::milliseconds(30));
  splitc::counter done;
  splitc::all_gather(splitc::team::world(), std::span<const std::int32_t>(mine),
                     std::span<std::int32_t>(every), done);
  splitc::sync(done);
  std::fill(mine.begin(), mine.end(), -9);
  for (int q = 0; q < P; ++q)
    for (std::size_t i = 0; i < count; ++i)
      CHECK_MSG(every[static_cast<std::size_t>(q) * count + i] == value(q, i, salt + 2),
                "split-phase all_gather: processor {}'s element {}", q, i);
  splitc::barrier();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool refused_here = mode == "refused" && harness::processor() % 2 == 1;
  if (refused_here) refuse_cross_memory_reads();
  splitc::init(argc, argv);
  CHECK_MSG(mode == "on" || mode == "staged" || mode == "refused" || mode == "pidns",
            "usage: collective_one_copy on|staged|refused|pidns");
  const int P = splitc::procs(), peer = (splitc::myproc() + 1) % P;
  const std::size_t min = backend().peer_read_min(peer);
  const bool shares_pid_namespace = mode == "pidns" && check_pid_namespaces();
  if (P > 1 && mode != "pidns")
    CHECK_MSG((mode == "staged") == (min == 0), "the one copy's threshold: {} in mode {}", min, mode);
  // Around the staging threshold (8 KiB: 2047 elements go in messages, 2048 staged), 64 KiB,
  // and 1.5 MiB (two pieces).
  int salt = 0;
  for (std::size_t count : {std::size_t{2047}, std::size_t{2048}, std::size_t{16384},
                            std::size_t{393216}}) {
    check_exchanges(count, ++salt * 10, mode == "on" ? min : 0);
    check_sources_kept(count, ++salt * 10);
  }
  const std::size_t read = backend().peer_read_bytes();
  if (mode == "on" && P > 1) CHECK_MSG(read > 0, "no collective's bytes were read from a peer");
  if (mode == "staged" || refused_here)
    CHECK_MSG(read == 0, "{} bytes read from peers, where the path is {}", read, mode);
  if (refused_here)
    CHECK_MSG(backend().peer_read_min(peer) == 0, "a processor refused by its kernel still lends its blocks");
  if (mode == "refused" && !refused_here && P > 1)
    CHECK_MSG(read > 0, "a processor whose kernel allows it read nothing from its peers");
  if (mode == "pidns")
    CHECK_MSG((read > 0) == shares_pid_namespace,
              "{} bytes read from peers, where {} peer shares this processor's pid namespace",
              read, shares_pid_namespace ? "a" : "no");
  return harness::pass("collective_one_copy");
}
