// Every DOLIB call of the C interface, checked against a sequential array: every type, pages
// and blocks that do not divide the array or the processor count, duplicates in index lists,
// asynchronous gathers left in flight across other calls, axpby races from all processors on
// the same elements, caching on and off (and what the read-only rule means), the request
// aggregation (one message per owner), destroy and re-declare.
#include <dolib.h>

#include "harness.hpp"

#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <vector>

namespace {

int me, P;

double dval(int i, int gen) { return i * 0.5 + gen * 1000.25; }
int ival(int i, int gen) { return i * 3 - 7 + gen * 100000; }
char cval(int i) { return static_cast<char>('A' + i % 26); }

// Where DOLIB keeps global index i (the seed's wrap mapping), for the aggregation check.
int owner_of(int i, int pagesize, int blocksize) { return (i / (pagesize * blocksize)) % P; }

std::vector<int> random_list(std::mt19937& rng, int n, int gsize) {
  std::uniform_int_distribution<int> d(0, gsize - 1);
  std::vector<int> l(static_cast<std::size_t>(n));
  for (auto& x : l) x = d(rng);
  // Duplicates on purpose: the first few again at the end.
  for (int k = 0; k < n / 4 && k + 3 * n / 4 < n; ++k) l[static_cast<std::size_t>(3 * n / 4 + k)] = l[static_cast<std::size_t>(k)];
  return l;
}

void fill_double(int A, int gsize, int gen) {
  do_gsync();  // everyone's reads of the old values are done (the seed's scatter/gather race)
  // Each processor scatters the indices congruent to it mod P, as a list (reversed order).
  std::vector<int> list;
  std::vector<double> v;
  for (int i = gsize - 1; i >= 0; --i)
    if (i % P == me) {
      list.push_back(i);
      v.push_back(dval(i, gen));
    }
  do_scatter(A, static_cast<int>(list.size()), list.data(), v.data());
  do_gsync();
}

void check_double_gather(int A, int gsize, int gen, std::mt19937& rng, int n) {
  const auto list = random_list(rng, n, gsize);
  std::vector<double> buf(static_cast<std::size_t>(n), -1);
  do_gather(A, n, list.data(), buf.data());
  for (int k = 0; k < n; ++k)
    CHECK_MSG(buf[static_cast<std::size_t>(k)] == dval(list[static_cast<std::size_t>(k)], gen),
              "gather k={} index {}: {} != {}", k, list[static_cast<std::size_t>(k)],
              buf[static_cast<std::size_t>(k)], dval(list[static_cast<std::size_t>(k)], gen));
}

void stats(long long s[5]) { do_getstats(s); }

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  me = splitc::myproc();
  P = splitc::procs();
  do_init(me, P);
  std::mt19937 rng(1234u + static_cast<unsigned>(me));

  // ---- double array, pages of 7, blocks of 3 pages: 21-item blocks over P processors.
  const int gsize = 1000;
  int A = 0;
  do_declare(&A, "A", gsize, "Double Precision", 7, 3);
  CHECK(A > 0);
  fill_double(A, gsize, 1);
  check_double_gather(A, gsize, 1, rng, 700);
  // Aggregation: a gather touching every owner sends one message per remote owner that
  // splitc reaches by messages (an owner whose segment is mapped here is copied from).
  {
    std::vector<int> list;
    std::set<int> owners;
    for (int i = 0; i < gsize; i += 5) {
      list.push_back(i);
      owners.insert(owner_of(i, 7, 3));
    }
    owners.erase(me);
    auto probe = splitc::all_spread_malloc<int>(static_cast<std::size_t>(P));
    std::erase_if(owners, [&](int q) {
      return splitc::direct_pointer(splitc::global_ptr<int>(q, probe.local())) != nullptr;
    });
    splitc::all_spread_free(probe);
    long long before[5], after[5];
    stats(before);
    std::vector<double> buf(list.size());
    do_gather(A, static_cast<int>(list.size()), list.data(), buf.data());
    stats(after);
    CHECK_MSG(after[0] - before[0] == static_cast<long long>(owners.size()),
              "{} messages for {} remote owners", after[0] - before[0], owners.size());
    for (std::size_t k = 0; k < list.size(); ++k) CHECK(buf[k] == dval(list[k], 1));
  }
  // An empty list is allowed (a processor with nothing to do) and does nothing.
  do_gather(A, 0, nullptr, nullptr);
  do_scatter(A, 0, nullptr, nullptr);

  // Contiguous scatter and gather across block and processor boundaries.
  {
    do_gsync();
    const int start = 5 + 37 * me, n = 101;
    if (me == P - 1) {
      std::vector<double> v(n);
      for (int k = 0; k < n; ++k) v[static_cast<std::size_t>(k)] = dval(start + k, 2);
      do_bscatter(A, n, start, v.data());
    }
    do_gsync();
    std::vector<double> seq(gsize);
    for (int i = 0; i < gsize; ++i) seq[static_cast<std::size_t>(i)] = dval(i, 1);
    const int s0 = 5 + 37 * (P - 1);
    for (int k = 0; k < n; ++k) seq[static_cast<std::size_t>(s0 + k)] = dval(s0 + k, 2);
    std::vector<double> buf(gsize);
    const int id = do_bgather(A, gsize, 0, buf.data());
    CHECK(id > 0);
    do_wait(id);
    for (int i = 0; i < gsize; ++i) CHECK_MSG(buf[static_cast<std::size_t>(i)] == seq[static_cast<std::size_t>(i)], "bgather index {}: {} != {}", i, buf[static_cast<std::size_t>(i)], seq[static_cast<std::size_t>(i)]);
    fill_double(A, gsize, 1);
  }

  // ---- int and char arrays; asynchronous gathers left in flight across other calls.
  int I = 0, C = 0;
  do_declare(&I, "I", 777, "INTEGER", 10, 1);
  do_declare(&C, "C", 300, "character", 16, 2);
  CHECK(I == A + 1 && C == A + 2);
  {
    std::vector<int> list, v;
    std::vector<char> cv;
    std::vector<int> clist;
    for (int i = me; i < 777; i += P) {
      list.push_back(i);
      v.push_back(ival(i, 0));
    }
    for (int i = me; i < 300; i += P) {
      clist.push_back(i);
      cv.push_back(cval(i));
    }
    do_scatter(I, static_cast<int>(list.size()), list.data(), v.data());
    do_scatter(C, static_cast<int>(clist.size()), clist.data(), cv.data());
    do_gsync();
    const auto l1 = random_list(rng, 500, 777);
    const auto l2 = random_list(rng, 200, 300);
    std::vector<int> ib(500, -1);
    std::vector<char> cb(200, 0);
    std::vector<double> db(gsize, -1);
    const int r1 = do_agather(I, 500, l1.data(), ib.data());
    const int r2 = do_agather(C, 200, l2.data(), cb.data());
    const int r3 = do_bgather(A, gsize - 3, 3, db.data());
    CHECK(r1 != r2 && r2 != r3 && r1 != r3);
    // Other calls while they are in flight.
    check_double_gather(A, gsize, 1, rng, 300);
    do_check();
    int probe = 0;
    do_gather(I, 1, &l1[0], &probe);
    CHECK(probe == ival(l1[0], 0));
    while (!do_isavail(r2)) do_check();
    do_wait(r1);
    do_wait(r3);
    for (int k = 0; k < 500; ++k) CHECK(ib[static_cast<std::size_t>(k)] == ival(l1[static_cast<std::size_t>(k)], 0));
    for (int k = 0; k < 200; ++k) CHECK(cb[static_cast<std::size_t>(k)] == cval(l2[static_cast<std::size_t>(k)]));
    for (int k = 0; k < gsize - 3; ++k) CHECK(db[static_cast<std::size_t>(k)] == dval(k + 3, 1));
  }

  // ---- axpby races: every processor adds to the same elements, with duplicates.
  {
    do_gsync();
    const int n = 300;
    std::vector<int> list(n);
    std::vector<double> x(n);
    std::vector<int> ix(n);
    for (int k = 0; k < n; ++k) {
      list[static_cast<std::size_t>(k)] = (k * 13) % 100;  // each of 0..99 three times
      x[static_cast<std::size_t>(k)] = me + 1;
      ix[static_cast<std::size_t>(k)] = me + 1;
    }
    do_daxpby(A, n, list.data(), x.data(), 2.0, 1.0);
    do_iaxpby(I, n, list.data(), ix.data(), 3, 1);
    // Block forms on a range all processors share.
    std::vector<double> bx(50, 1.0);
    std::vector<int> bix(50, 1);
    do_bdaxpby(A, 50, 500, bx.data(), 1.0, 1.0);
    do_biaxpby(I, 50, 700, bix.data(), 1, 1);
    do_gsync();
    const double dsum = 3.0 * 2.0 * P * (P + 1) / 2.0;
    const int isum = 3 * 3 * P * (P + 1) / 2;
    std::vector<double> d(gsize);
    std::vector<int> iv(777);
    do_wait(do_bgather(A, gsize, 0, d.data()));
    do_wait(do_bgather(I, 777, 0, iv.data()));
    for (int i = 0; i < gsize; ++i) {
      double want = dval(i, 1);
      if (i < 100) want += dsum;
      if (i >= 500 && i < 550) want += P;
      CHECK_MSG(d[static_cast<std::size_t>(i)] == want, "axpby double index {}: {} != {}", i, d[static_cast<std::size_t>(i)], want);
    }
    for (int i = 0; i < 777; ++i) {
      int want = ival(i, 0);
      if (i < 100) want += isum;
      if (i >= 700 && i < 750) want += P;
      CHECK_MSG(iv[static_cast<std::size_t>(i)] == want, "axpby int index {}: {} != {}", i, iv[static_cast<std::size_t>(i)], want);
    }
    // beta other than 1 from one processor: y = 2x + 3y.
    do_gsync();
    if (me == 0) {
      std::vector<int> l{900, 901, 902};
      std::vector<double> xv{1, 2, 3};
      do_daxpby(A, 3, l.data(), xv.data(), 2.0, 3.0);
    }
    do_gsync();
    std::vector<double> three(3);
    do_wait(do_bgather(A, 3, 900, three.data()));
    for (int k = 0; k < 3; ++k) CHECK(three[static_cast<std::size_t>(k)] == 2.0 * (k + 1) + 3.0 * dval(900 + k, 1));
    do_gsync();
    fill_double(A, gsize, 1);
  }

  // ---- caching of read-only pages.
  {
    CHECK(do_setchsize(64) == 128);  // the seed's default
    do_enable(A);
    long long s0[5], s1[5], s2[5];
    stats(s0);
    const auto list = random_list(rng, 400, gsize);
    std::vector<double> b1(400), b2(400);
    do_gather(A, 400, list.data(), b1.data());
    stats(s1);
    do_gather(A, 400, list.data(), b2.data());
    stats(s2);
    for (int k = 0; k < 400; ++k) {
      CHECK(b1[static_cast<std::size_t>(k)] == dval(list[static_cast<std::size_t>(k)], 1));
      CHECK(b2[static_cast<std::size_t>(k)] == b1[static_cast<std::size_t>(k)]);
    }
    int remote = 0;
    std::set<int> remote_pages;
    for (int i : list)
      if (owner_of(i, 7, 3) != me) {
        ++remote;
        remote_pages.insert(i / 7);
      }
    if (remote_pages.size() <= 64) {
      // Every remote page fetched once; the repeat is served from the cache alone.
      CHECK_MSG(s1[3] - s0[3] == static_cast<long long>(remote_pages.size()), "{} page fetches for {} pages", s1[3] - s0[3], remote_pages.size());
      CHECK(s2[3] == s1[3]);
      CHECK(s2[0] == s1[0]);
      CHECK(s2[2] - s1[2] == remote);
    }
    // The read-only rule: an update while caching is on is not seen through the cache ...
    do_gsync();
    if (me == 0) {
      std::vector<int> all(gsize);
      std::vector<double> v(gsize);
      for (int i = 0; i < gsize; ++i) {
        all[static_cast<std::size_t>(i)] = i;
        v[static_cast<std::size_t>(i)] = dval(i, 9);
      }
      do_scatter(A, gsize, all.data(), v.data());
    }
    do_gsync();
    std::vector<double> b3(400);
    do_gather(A, 400, list.data(), b3.data());
    for (int k = 0; k < 400; ++k) {
      const int i = list[static_cast<std::size_t>(k)];
      const bool cached = owner_of(i, 7, 3) != me && remote_pages.size() <= 64;
      if (cached) CHECK_MSG(b3[static_cast<std::size_t>(k)] == dval(i, 1), "cached page of index {} was not used", i);
      if (owner_of(i, 7, 3) == me) CHECK(b3[static_cast<std::size_t>(k)] == dval(i, 9));
    }
    // ... until do_disable purges the array's pages.
    do_disable(A);
    do_gather(A, 400, list.data(), b3.data());
    for (int k = 0; k < 400; ++k) CHECK(b3[static_cast<std::size_t>(k)] == dval(list[static_cast<std::size_t>(k)], 9));
    // A cache of 3 pages and a gather over many pages: rounds of fetches and evictions.
    CHECK(do_setchsize(3) == 64);
    do_enable(A);
    std::vector<double> all(gsize);
    long long e0[5], e1[5];
    stats(e0);
    do_wait(do_bgather(A, gsize, 0, all.data()));
    check_double_gather(A, gsize, 9, rng, 500);
    stats(e1);
    for (int i = 0; i < gsize; ++i) CHECK(all[static_cast<std::size_t>(i)] == dval(i, 9));
    if (P > 1) CHECK(e1[4] > e0[4]);
    // Size 0 purges everything; an update is then seen.
    do_gsync();
    fill_double(A, gsize, 3);
    CHECK(do_setchsize(0) == 3);
    check_double_gather(A, gsize, 3, rng, 300);  // caching on, cache empty: uncached path
    CHECK(do_setchsize(200) == 0);
    check_double_gather(A, gsize, 3, rng, 300);
    check_double_gather(A, gsize, 3, rng, 300);
    do_disable(A);
  }

  // ---- caching of the other element sizes: 4-byte items on pages of 10, 1-byte items on
  // pages of 16 (a power of two: pages found by a shift); list and contiguous gathers, each
  // twice (filling, then from the cache), against the same gathers uncached.
  {
    do_gsync();
    const auto il = random_list(rng, 600, 777);
    const auto cl = random_list(rng, 250, 300);
    std::vector<int> iwant(600), iall_want(777);
    std::vector<char> cwant(250), call_want(290);
    do_gather(I, 600, il.data(), iwant.data());
    do_gather(C, 250, cl.data(), cwant.data());
    do_wait(do_bgather(I, 777, 0, iall_want.data()));
    do_wait(do_bgather(C, 290, 5, call_want.data()));
    do_enable(I);
    do_enable(C);
    for (int twice = 0; twice < 2; ++twice) {
      std::vector<int> ib(600, -1), iall(777, -1);
      std::vector<char> cb(250, 0), call(290, 0);
      do_gather(I, 600, il.data(), ib.data());
      do_gather(C, 250, cl.data(), cb.data());
      do_wait(do_bgather(I, 777, 0, iall.data()));
      do_wait(do_bgather(C, 290, 5, call.data()));
      CHECK_MSG(ib == iwant, "cached int list gather, pass {}", twice);
      CHECK_MSG(cb == cwant, "cached char list gather, pass {}", twice);
      CHECK_MSG(iall == iall_want, "cached int contiguous gather, pass {}", twice);
      CHECK_MSG(call == call_want, "cached char contiguous gather, pass {}", twice);
    }
    do_disable(I);
    do_disable(C);
  }

  // ---- destroy, then a new array gets a new descriptor; type strings in other spellings.
  do_destroy(C);
  int D = 0, E = 0;
  do_declare(&D, "D", 50, "real*8", 4, 4);
  do_declare(&E, "E", 50, "INT", 1, 1);
  CHECK(D == C + 1 && E == D + 1);
  do_destroy(D);
  do_destroy(E);
  do_destroy(I);
  do_destroy(A);
  do_gsync();
  return harness::pass("dolib_api");
}
