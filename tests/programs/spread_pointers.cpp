// spread_ptr arithmetic in a running job: a cyclic array in the spread heap, i on i mod P.
#include "harness.hpp"

#include <cstdint>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  const int n = 10 * P + 3;  // rows are not all full
  auto* rows = reinterpret_cast<std::int64_t*>(harness::heap());
  const splitc::spread_ptr<std::int64_t> base(0, rows);
  auto value = [](int i, int pass) { return std::int64_t{i} * 1000 + pass; };

  for (int i = 0; i < n; ++i) {
    const auto p = base + i;
    CHECK(splitc::toproc(p) == i % P);
    CHECK(splitc::tolocal(p) == rows + i / P);
    CHECK(p - base == i);
    CHECK((p - i) == base);
  }
  // Every processor writes the elements i with i % 3 == me % 3 (mostly remote), with every
  // form of spread-pointer arithmetic.
  auto it = base;
  for (int i = 0; i < n; ++i, ++it) {
    if (i % 3 != me % 3 && P >= 3) continue;
    if (i % 2 == 0)
      *it = value(i, 1);
    else
      base[i] = value(i, 1);
  }
  splitc::barrier();
  // Each processor checks its own rows directly.
  for (int row = 0; row * P + me < n; ++row)
    CHECK_MSG(rows[row] == value(row * P + me, 1), "row {} holds {}", row, rows[row]);
  splitc::barrier();
  // Walk backwards from the end and read everything through the pointers.
  auto back = base + (n - 1);
  for (int i = n - 1; i >= 0; --i, --back) {
    CHECK(back == base + i);
    const std::int64_t v = *back;
    CHECK_MSG(v == value(i, 1), "element {} reads {}", i, v);
  }
  CHECK(back == base - 1);
  CHECK(splitc::toproc(base - 1) == P - 1);
  // Compound assignment and postfix forms.
  auto p = base;
  p += 2 * P + 1;
  CHECK(p.proc() == 1 % P && p.local() == rows + 2 + (P == 1 ? 1 : 0));
  p -= P;
  CHECK(p - base == P + 1);
  auto old = p++;
  CHECK(p - old == 1);
  old = p--;
  CHECK(old - p == 1);
  splitc::barrier();
  return harness::pass("spread_pointers");
}
