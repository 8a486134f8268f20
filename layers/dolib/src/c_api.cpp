// The C entry points of dolib.h: each names itself in errors, serves arrived DOLIB requests
// first (the polling discipline of the seed's section 6) and calls the implementation with
// 0-based indices.
#include <dolib.h>

#include "state.hpp"

#include <splitc/errors.hpp>

#include <fmt/format.h>

using namespace dolib;

namespace {

/// A pointer the call reads or writes `nsize` items through: null only when there are none
/// (a null list in a list form is not the contiguous form: that is the b- call).
void need(const char* call, const void* p, const char* what, int nsize, const char* hint = "") {
  if (p == nullptr && nsize > 0)
    splitc::fatal_error(fmt::format("{}: {} is a null pointer, for {} item{}{}", call, what,
                                    nsize, nsize == 1 ? "" : "s", hint));
}

}  // namespace

extern "C" {

void do_init(int myid, int nproc) {
  if (!splitc::initialized())
    splitc::fatal_error("do_init: splitc is not initialized (call splitc_init, or define "
                        "splitc_main, before do_init)");
  if (myid != splitc::myproc() || nproc != splitc::procs())
    splitc::fatal_error(fmt::format("do_init: myid {} and nproc {} are not this processor's "
                                    "number and the processor count ({} and {})",
                                    myid, nproc, splitc::myproc(), splitc::procs()));
  create_state();
  state& s = state_of();
  s.me = myid;
  s.procs = nproc;
  register_handlers(s);  // collective
  splitc::barrier();     // the seed's implicit global synchronization
}

void do_declare(int* Iaf, const char* name, int gsize, const char* ctype, int pagesize,
                int blocksize) {
  if (Iaf == nullptr)
    splitc::fatal_error(fmt::format("do_declare: the descriptor's address (Iaf) is a null pointer, "
                                    "for array \"{}\"", name != nullptr ? name : ""));
  if (ctype == nullptr)
    splitc::fatal_error(fmt::format("do_declare: the type (ctype) is a null pointer, for array \"{}\"",
                                    name != nullptr ? name : ""));
  *Iaf = declare("do_declare", name != nullptr ? name : "", gsize, ctype != nullptr ? ctype : "",
                 pagesize, blocksize);
}

void do_destroy(int Iaf) { destroy("do_destroy", Iaf); }

void do_gather(int Iaf, int nsize, const int* list, void* buf) {
  state& s = enter("do_gather");
  need("do_gather", list, "list", nsize, " (the contiguous form is do_bgather)");
  need("do_gather", buf, "buf", nsize);
  const call_info c{"do_gather", 0};
  gather_sync(s, c, array_for(s, c.name, Iaf), nsize, list, 0, buf);
}

int do_bgather(int Iaf, int nsize, int istart, void* buf) {
  state& s = enter("do_bgather");
  need("do_bgather", buf, "buf", nsize);
  const call_info c{"do_bgather", 0};
  return gather_async(s, c, array_for(s, c.name, Iaf), nsize, nullptr, istart, buf);
}

int do_agather(int Iaf, int nsize, const int* list, void* buf) {
  state& s = enter("do_agather");
  need("do_agather", list, "list", nsize, " (the contiguous form is do_bgather)");
  need("do_agather", buf, "buf", nsize);
  const call_info c{"do_agather", 0};
  return gather_async(s, c, array_for(s, c.name, Iaf), nsize, list, 0, buf);
}

int do_isavail(int reqid) { return request_test(enter("do_isavail"), "do_isavail", reqid) ? 1 : 0; }

void do_wait(int reqid) { request_wait(enter("do_wait"), "do_wait", reqid); }

void do_scatter(int Iaf, int nsize, const int* list, const void* buf) {
  state& s = enter("do_scatter");
  need("do_scatter", list, "list", nsize, " (the contiguous form is do_bscatter)");
  need("do_scatter", buf, "buf", nsize);
  const call_info c{"do_scatter", 0};
  update(s, c, array_for(s, c.name, Iaf), update_kind::scatter, nsize, list, 0, buf, 1, 0);
}

void do_bscatter(int Iaf, int nsize, int istart, const void* buf) {
  state& s = enter("do_bscatter");
  need("do_bscatter", buf, "buf", nsize);
  const call_info c{"do_bscatter", 0};
  update(s, c, array_for(s, c.name, Iaf), update_kind::scatter, nsize, nullptr, istart, buf, 1, 0);
}

void do_iaxpby(int Iaf, int nsize, const int* list, const int* xarray, int ialpha, int ibeta) {
  state& s = enter("do_iaxpby");
  need("do_iaxpby", list, "list", nsize, " (the contiguous form is do_biaxpby)");
  need("do_iaxpby", xarray, "xarray", nsize);
  const call_info c{"do_iaxpby", 0};
  update(s, c, typed(s, c, Iaf, elem::int32), update_kind::axpby, nsize, list, 0, xarray, ialpha,
         ibeta);
}

void do_daxpby(int Iaf, int nsize, const int* list, const double* xarray, double dalpha,
               double dbeta) {
  state& s = enter("do_daxpby");
  need("do_daxpby", list, "list", nsize, " (the contiguous form is do_bdaxpby)");
  need("do_daxpby", xarray, "xarray", nsize);
  const call_info c{"do_daxpby", 0};
  update(s, c, typed(s, c, Iaf, elem::float64), update_kind::axpby, nsize, list, 0, xarray,
         dalpha, dbeta);
}

void do_biaxpby(int Iaf, int nsize, int start, const int* xarray, int ialpha, int ibeta) {
  state& s = enter("do_biaxpby");
  need("do_biaxpby", xarray, "xarray", nsize);
  const call_info c{"do_biaxpby", 0};
  update(s, c, typed(s, c, Iaf, elem::int32), update_kind::axpby, nsize, nullptr, start, xarray,
         ialpha, ibeta);
}

void do_bdaxpby(int Iaf, int nsize, int start, const double* xarray, double dalpha,
                double dbeta) {
  state& s = enter("do_bdaxpby");
  need("do_bdaxpby", xarray, "xarray", nsize);
  const call_info c{"do_bdaxpby", 0};
  update(s, c, typed(s, c, Iaf, elem::float64), update_kind::axpby, nsize, nullptr, start,
         xarray, dalpha, dbeta);
}

void do_gsync(void) {
  state& s = enter("do_gsync");
  wait_all_requests(s);
  wait_for("do_gsync", [&] { return s.updates_pending == 0; });
  splitc::sync(s.scatters);
  splitc::barrier();
}

void do_check(void) { enter("do_check"); }

void do_enable(int Iaf) {
  state& s = enter("do_enable");
  cache_enable(s, array_for(s, "do_enable", Iaf));
}

void do_disable(int Iaf) {
  state& s = enter("do_disable");
  cache_purge_array(s, array_for(s, "do_disable", Iaf));
}

int do_setchsize(int npages) { return cache_resize(enter("do_setchsize"), npages); }

void do_getstats(long long out[5]) {
  const state& s = enter("do_getstats");
  need("do_getstats", out, "out", 5);
  out[0] = s.st.messages;
  out[1] = s.st.items;
  out[2] = s.st.hits;
  out[3] = s.st.misses;
  out[4] = s.st.evictions;
}

}  // extern "C"
