// The Fortran interface of the seed (doinit, dodeclare, doigather, dodgather, ...): classic
// external symbols with gfortran's trailing underscore, every argument by reference, the
// hidden lengths of character arguments after the others; 1-based indices, converted here.
// Character arguments may be NUL-terminated as the seed asks (name // char(0)) or plain
// Fortran strings (trailing blanks are dropped). Additions: dostart (join the splitc job and
// return myid and nproc, the seed's mynode()/numnodes()), dostop (leave it).
#include <dolib.h>

#include "state.hpp"

#include <splitc/errors.hpp>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

using namespace dolib;

namespace {

std::string fortran_string(const char* s, std::size_t len) {
  std::size_t n = 0;
  while (n < len && s[n] != '\0') ++n;
  while (n > 0 && s[n - 1] == ' ') --n;
  return std::string(s, n);
}

// A 1-based Fortran list as 0-based C indices.
std::vector<int> zero_based(const call_info& c, const array& a, int n, const int* list) {
  if (n < 0) count_error(c, a, n);
  std::vector<int> out(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) out[static_cast<std::size_t>(k)] = list[k] - 1;
  return out;
}

void gather(const char* name, elem want, int iaf, int n, const int* list, void* buf) {
  state& s = enter(name);
  const call_info c{name, 1};
  array& a = typed(s, c, iaf, want);
  const auto l = zero_based(c, a, n, list);
  gather_sync(s, c, a, n, l.data(), 0, buf);
}
int bgather(const char* name, elem want, int iaf, int n, int istart, void* buf) {
  state& s = enter(name);
  const call_info c{name, 1};
  return gather_async(s, c, typed(s, c, iaf, want), n, nullptr, istart - 1, buf);
}
int agather(const char* name, elem want, int iaf, int n, const int* list, void* buf) {
  state& s = enter(name);
  const call_info c{name, 1};
  array& a = typed(s, c, iaf, want);
  const auto l = zero_based(c, a, n, list);
  return gather_async(s, c, a, n, l.data(), 0, buf);
}
void list_update(const char* name, elem want, update_kind k, int iaf, int n, const int* list,
                 const void* x, double alpha, double beta) {
  state& s = enter(name);
  const call_info c{name, 1};
  array& a = typed(s, c, iaf, want);
  const auto l = zero_based(c, a, n, list);
  update(s, c, a, k, n, l.data(), 0, x, alpha, beta);
}
void block_update(const char* name, elem want, update_kind k, int iaf, int n, int start,
                  const void* x, double alpha, double beta) {
  state& s = enter(name);
  const call_info c{name, 1};
  update(s, c, typed(s, c, iaf, want), k, n, nullptr, start - 1, x, alpha, beta);
}

}  // namespace

extern "C" {

void dostart_(int* myid, int* nproc) {
  if (!splitc::initialized()) {
    static char self[] = "/proc/self/exe";
    static char* args[] = {self, nullptr};
    int argc = 1;
    char** argv = args;
    splitc::init(argc, argv);
  }
  *myid = splitc::myproc();
  *nproc = splitc::procs();
}
void dostop_() { splitc::finalize(); }

void doinit_(const int* myid, const int* nproc) { do_init(*myid, *nproc); }

void dodeclare_(int* iaf, const char* name, const int* gsize, const char* ctype,
                const int* pagesize, const int* blocksize, std::size_t name_len,
                std::size_t ctype_len) {
  *iaf = declare("dodeclare", fortran_string(name, name_len), *gsize,
                 fortran_string(ctype, ctype_len), *pagesize, *blocksize);
}
void dodestroy_(const int* iaf) { destroy("dodestroy", *iaf); }

void doigather_(const int* iaf, const int* n, const int* list, int* buf) {
  gather("doigather", elem::int32, *iaf, *n, list, buf);
}
void dodgather_(const int* iaf, const int* n, const int* list, double* buf) {
  gather("dodgather", elem::float64, *iaf, *n, list, buf);
}
int dobigather_(const int* iaf, const int* n, const int* istart, int* buf) {
  return bgather("dobigather", elem::int32, *iaf, *n, *istart, buf);
}
int dobdgather_(const int* iaf, const int* n, const int* istart, double* buf) {
  return bgather("dobdgather", elem::float64, *iaf, *n, *istart, buf);
}
int doiagather_(const int* iaf, const int* n, const int* list, int* buf) {
  return agather("doiagather", elem::int32, *iaf, *n, list, buf);
}
int dodagather_(const int* iaf, const int* n, const int* list, double* buf) {
  return agather("dodagather", elem::float64, *iaf, *n, list, buf);
}
int doisavail_(const int* reqid) {
  return request_test(enter("doisavail"), "doisavail", *reqid) ? 1 : 0;
}
void dowait_(const int* reqid) { request_wait(enter("dowait"), "dowait", *reqid); }

void doiscatter_(const int* iaf, const int* n, const int* list, const int* buf) {
  list_update("doiscatter", elem::int32, update_kind::scatter, *iaf, *n, list, buf, 1, 0);
}
void dodscatter_(const int* iaf, const int* n, const int* list, const double* buf) {
  list_update("dodscatter", elem::float64, update_kind::scatter, *iaf, *n, list, buf, 1, 0);
}
void dobiscatter_(const int* iaf, const int* n, const int* istart, const int* buf) {
  block_update("dobiscatter", elem::int32, update_kind::scatter, *iaf, *n, *istart, buf, 1, 0);
}
void dobdscatter_(const int* iaf, const int* n, const int* istart, const double* buf) {
  block_update("dobdscatter", elem::float64, update_kind::scatter, *iaf, *n, *istart, buf, 1, 0);
}

void doiaxpby_(const int* iaf, const int* n, const int* list, const int* x, const int* a,
               const int* b) {
  list_update("doiaxpby", elem::int32, update_kind::axpby, *iaf, *n, list, x, *a, *b);
}
void dodaxpby_(const int* iaf, const int* n, const int* list, const double* x, const double* a,
               const double* b) {
  list_update("dodaxpby", elem::float64, update_kind::axpby, *iaf, *n, list, x, *a, *b);
}
void dobiaxpby_(const int* iaf, const int* n, const int* start, const int* x, const int* a,
                const int* b) {
  block_update("dobiaxpby", elem::int32, update_kind::axpby, *iaf, *n, *start, x, *a, *b);
}
void dobdaxpby_(const int* iaf, const int* n, const int* start, const double* x,
                const double* a, const double* b) {
  block_update("dobdaxpby", elem::float64, update_kind::axpby, *iaf, *n, *start, x, *a, *b);
}

void dogsync_() { do_gsync(); }
void docheck_() { do_check(); }
void doenable_(const int* iaf) { do_enable(*iaf); }
void dodisable_(const int* iaf) { do_disable(*iaf); }
int dosetchsize_(const int* npages) { return do_setchsize(*npages); }

}  // extern "C"
