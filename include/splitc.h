/* splitc.h: the C interface, with the Libsplit-C names of the seed's section 3
 * (the compiler target a Split-C front end emits calls to). C11, usable from
 * C and C++.
 *
 * Global-memory operations are inlined as the seed's Figure 2 inlines them:
 * a local target costs a comparison and a load or store; everything else
 * calls into the runtime (direct access to a mapped peer segment, or active
 * messages).
 *
 * Names that clash with POSIX get a prefix: sync() is splitc_sync(). Define
 * SPLITC_SEED_NAMES before including this header to get the seed's spelling
 * `sync()` as a macro. The seed's typos are accepted as aliases:
 * all_reduce_to_one_fmull / all_scan_fmull (= ..._fmult) and all_scan_ymax
 * (= all_scan_umax).
 *
 * A program that defines `int splitc_main(int argc, char **argv)` and links
 * the entry-point library (CMake: splitc::main before the backend;
 * otherwise -lsplitc-main before -lsplitc-<backend>) runs it on every
 * processor. A program with its own main() calls splitc_init(&argc, &argv)
 * and splitc_finalize() itself. */
#ifndef SPLITC_H
#define SPLITC_H

#include <splitc/c_context.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- types ---------------------------------------------------------------- */

/* A global (or spread) pointer: processor number and local address. Same
 * layout as splitc::global_ptr<T> in C++. */
typedef struct {
  int proc;
  void *addr;
} __globPtrType;

/* A counter for split-phase operations (opaque: pass it, sync on it). */
typedef struct splitc_counter {
  int64_t value_;
} splitc_counter_t;
#ifndef SPLITC_NO_SEED_NAMES
typedef splitc_counter_t Counter;
#endif

/* ---- start, identity ---------------------------------------------------- */

void splitc_init(int *argc, char ***argv);
void splitc_finalize(void);
int splitc_main(int argc, char **argv); /* defined by Split-C programs */
void splitc_not_initialized(void);      /* fatal error */

static inline struct splitc_context_prefix *splitc_context_(void) {
  if (splitc_current_context == NULL) splitc_not_initialized();
  return splitc_current_context;
}
static inline int splitc_myproc(void) { return splitc_context_()->myproc; }
static inline int splitc_procs(void) { return splitc_context_()->procs; }
#define MYPROC (splitc_myproc())
#define PROCS (splitc_procs())

void splitc_poll(void);
void barrier(void);

/* ---- global and spread pointers ------------------------------------------ */

static inline __globPtrType toglobal(int proc, void *addr) {
  __globPtrType g;
  g.proc = proc;
  g.addr = addr;
  return g;
}
static inline int toproc(__globPtrType g) { return g.proc; }
static inline void *tolocal(__globPtrType g) { return g.addr; }

/* Global-pointer arithmetic: the address moves, the processor stays. */
static inline __globPtrType splitc_global_add(__globPtrType g, long n, size_t elem_size) {
  g.addr = (char *)g.addr + n * (long)elem_size;
  return g;
}
/* Spread-pointer arithmetic: the processor moves and wraps; the address
 * advances one element each time it wraps (Split-C §7.2). */
__globPtrType splitc_spread_add(__globPtrType s, long n, size_t elem_size);
/* &s[i] for a spread pointer s. */
static inline __globPtrType splitc_spread_index(__globPtrType s, long i, size_t elem_size) {
  return splitc_spread_add(s, i, elem_size);
}
/* Element distance a - b between two spread pointers. */
long splitc_spread_diff(__globPtrType a, __globPtrType b, size_t elem_size);

/* ---- global memory: out-of-line paths (any target) ------------------------ */

void splitc_read_bytes(void *dst, __globPtrType src, size_t n);
void splitc_write_bytes(__globPtrType dst, const void *src, size_t n);
void splitc_get_bytes(void *dst, __globPtrType src, size_t n, splitc_counter_t *ctr);
void splitc_put_bytes(__globPtrType dst, const void *src, size_t n, splitc_counter_t *ctr);
void splitc_store_bytes(__globPtrType dst, const void *src, size_t n, splitc_counter_t *rbytes,
                        splitc_counter_t *sbytes);

/* ---- global memory: the seed's names, inlined (Figure 2) ------------------- */

#define SPLITC_LOCAL_(g) ((g).proc == splitc_context_()->myproc && (g).addr != NULL)

#define SPLITC_FAMILY_(P, T)                                                          \
  static inline T __##P##_read(__globPtrType src) {                                   \
    T v;                                                                              \
    if (SPLITC_LOCAL_(src)) return *(T *)src.addr;                                    \
    splitc_read_bytes(&v, src, sizeof(T));                                            \
    return v;                                                                         \
  }                                                                                   \
  static inline T __##P##_write(__globPtrType dst, T val) {                           \
    if (SPLITC_LOCAL_(dst))                                                           \
      *(T *)dst.addr = val;                                                           \
    else                                                                              \
      splitc_write_bytes(dst, &val, sizeof(T));                                       \
    return val;                                                                       \
  }                                                                                   \
  static inline void __##P##_get(T *dst, __globPtrType src) {                         \
    if (SPLITC_LOCAL_(src))                                                           \
      *dst = *(T *)src.addr;                                                          \
    else                                                                              \
      splitc_get_bytes(dst, src, sizeof(T), NULL);                                    \
  }                                                                                   \
  static inline void __##P##_put(__globPtrType dst, T val) {                          \
    if (SPLITC_LOCAL_(dst))                                                           \
      *(T *)dst.addr = val;                                                           \
    else                                                                              \
      splitc_put_bytes(dst, &val, sizeof(T), NULL);                                   \
  }                                                                                   \
  static inline void __##P##_store(__globPtrType dst, T val) {                        \
    if (SPLITC_LOCAL_(dst)) {                                                         \
      struct splitc_context_prefix *c_ = splitc_current_context;                      \
      *c_->store_sent += (int64_t)sizeof(T);                                          \
      *(T *)dst.addr = val;                                                           \
      __atomic_add_fetch(c_->store_received, (int64_t)sizeof(T), __ATOMIC_ACQ_REL);   \
    } else {                                                                          \
      splitc_store_bytes(dst, &val, sizeof(T), NULL, NULL);                           \
    }                                                                                 \
  }                                                                                   \
  static inline void __##P##_get_ctr(T *dst, __globPtrType src, splitc_counter_t *ctr) { \
    if (SPLITC_LOCAL_(src))                                                           \
      *dst = *(T *)src.addr;                                                          \
    else                                                                              \
      splitc_get_bytes(dst, src, sizeof(T), ctr);                                     \
  }                                                                                   \
  static inline void __##P##_put_ctr(__globPtrType dst, T val, splitc_counter_t *ctr) { \
    if (SPLITC_LOCAL_(dst))                                                           \
      *(T *)dst.addr = val;                                                           \
    else                                                                              \
      splitc_put_bytes(dst, &val, sizeof(T), ctr);                                    \
  }                                                                                   \
  static inline void __##P##_store_ctr(__globPtrType dst, T val, splitc_counter_t *rbytes, \
                                       splitc_counter_t *sbytes) {                    \
    if (SPLITC_LOCAL_(dst)) {                                                         \
      sbytes->value_ += (int64_t)sizeof(T);                                           \
      *(T *)dst.addr = val;                                                           \
      __atomic_add_fetch(&rbytes->value_, (int64_t)sizeof(T), __ATOMIC_ACQ_REL);      \
    } else {                                                                          \
      splitc_store_bytes(dst, &val, sizeof(T), rbytes, sbytes);                       \
    }                                                                                 \
  }

SPLITC_FAMILY_(c, char)
SPLITC_FAMILY_(sh, short)
SPLITC_FAMILY_(i, int)
SPLITC_FAMILY_(f, float)
SPLITC_FAMILY_(d, double)
SPLITC_FAMILY_(ll, long long)
#undef SPLITC_FAMILY_

/* ---- completion ------------------------------------------------------------- */

void splitc_sync(void);
int is_sync(void);
void sync_ctr(splitc_counter_t *ctr);
int is_sync_ctr(splitc_counter_t *ctr);
void store_sync(int bytes_expected);
int is_store_sync(int bytes_expected);
void store_sync_ctr(int bytes_expected, splitc_counter_t *rbytes, splitc_counter_t *sbytes);
int is_store_sync_ctr(int bytes_expected, splitc_counter_t *rbytes, splitc_counter_t *sbytes);
void all_store_sync(void);
#ifdef SPLITC_SEED_NAMES
#define sync() splitc_sync()
#endif

/* ---- bulk transfer ---------------------------------------------------------- */

void bulk_read(void *dst, __globPtrType src, int len);
void bulk_write(__globPtrType dst, void *src, int len);
void bulk_get(void *dst, __globPtrType src, int len);
void bulk_put(__globPtrType dst, void *src, int len);
void bulk_store(__globPtrType dst, void *src, int len);
void bulk_get_ctr(void *dst, __globPtrType src, int len, splitc_counter_t *ctr);
void bulk_put_ctr(__globPtrType dst, void *src, int len, splitc_counter_t *ctr);
void bulk_store_ctr(__globPtrType gp, char *lp, int len, splitc_counter_t *rbytes,
                    splitc_counter_t *sbytes);

/* ---- global communication (all processors call them, in the same order) ------ */

#define SPLITC_COLLECTIVE_OPS_(X, KIND)                                              \
  X(KIND, add, int) X(KIND, uadd, unsigned) X(KIND, fadd, float) X(KIND, dadd, double) \
  X(KIND, lladd, long long)                                                          \
  X(KIND, mult, int) X(KIND, umult, unsigned) X(KIND, fmult, float)                  \
  X(KIND, dmult, double) X(KIND, llmult, long long)                                  \
  X(KIND, max, int) X(KIND, umax, unsigned) X(KIND, fmax, float) X(KIND, dmax, double) \
  X(KIND, llmax, long long)                                                          \
  X(KIND, min, int) X(KIND, umin, unsigned) X(KIND, fmin, float) X(KIND, dmin, double) \
  X(KIND, llmin, long long)                                                          \
  X(KIND, or, int) X(KIND, uor, unsigned) X(KIND, llor, long long)                   \
  X(KIND, xor, int) X(KIND, uxor, unsigned) X(KIND, llxor, long long)                \
  X(KIND, and, int) X(KIND, uand, unsigned) X(KIND, lland, long long)

#define SPLITC_DECLARE_COLLECTIVE_(KIND, NAME, T) T all_##KIND##_##NAME(T val);
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_COLLECTIVE_, reduce_to_one)
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_COLLECTIVE_, reduce_to_all)
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_COLLECTIVE_, scan)
#undef SPLITC_DECLARE_COLLECTIVE_

/* The seed's spellings. */
float all_reduce_to_one_fmull(float val);
float all_reduce_to_all_fmull(float val);
float all_scan_fmull(float val);
unsigned int all_scan_ymax(unsigned int val);

int all_bcast(int val);
int all_bcast_i(int val);
unsigned int all_bcast_u(unsigned int val);
float all_bcast_f(float val);
double all_bcast_d(double val);
long long all_bcast_ll(long long val);

/* ---- global heap ---------------------------------------------------------------- */

/* Spread pointers to `count` objects of `object_size` bytes (cyclic layout);
 * the address is the same on every processor. Null (addr == NULL) when the
 * heap is exhausted. all_* are collective; spread_malloc/spread_free may be
 * called by one processor alone. */
__globPtrType all_spread_malloc(int count, int object_size);
void all_spread_free(__globPtrType sptr);
__globPtrType spread_malloc(int count, int object_size);
void spread_free(__globPtrType sptr);

/* ---- atomic operations and atomic procedures ---------------------------------- */

int exchange(__globPtrType loc, int val);
int test_and_set(__globPtrType loc);
/* Returns 1 if *loc equalled test_val and was replaced by new_val, else 0. */
int cmp_and_swap(__globPtrType loc, int test_val, int new_val);
int fetch_and_add(__globPtrType loc, int val);

/* atomic(fun, gptr, a0, ..., a3): run fun(local address, a0, ..., a3) on the
 * owner of gptr, atomically with respect to other atomic procedures and
 * handlers there. Up to four integer-class arguments (int, long, pointers),
 * passed like the seed's four-word active messages. Inside fun,
 * atomic_return_i / atomic_return_d set the value that atomic_i / atomic_d
 * return. */
typedef void (*splitc_atomic_fn)();
void splitc_atomic_call(splitc_atomic_fn fun, __globPtrType gptr, int nargs, ...);
int splitc_atomic_call_i(splitc_atomic_fn fun, __globPtrType gptr, int nargs, ...);
double splitc_atomic_call_d(splitc_atomic_fn fun, __globPtrType gptr, int nargs, ...);
void atomic_return_i(int val);
void atomic_return_d(double val);

#ifndef __cplusplus /* C++ programs use splitc::atomic */
#define SPLITC_NARGS_(...) SPLITC_NARGS_N_(0, ##__VA_ARGS__, 4, 3, 2, 1, 0)
#define SPLITC_NARGS_N_(_0, _1, _2, _3, _4, N, ...) N
#define atomic(fun, gptr, ...)                                                     \
  splitc_atomic_call((splitc_atomic_fn)(fun), (gptr), SPLITC_NARGS_(__VA_ARGS__), \
                     ##__VA_ARGS__)
#define atomic_i(fun, gptr, ...)                                                     \
  splitc_atomic_call_i((splitc_atomic_fn)(fun), (gptr), SPLITC_NARGS_(__VA_ARGS__), \
                       ##__VA_ARGS__)
#define atomic_d(fun, gptr, ...)                                                     \
  splitc_atomic_call_d((splitc_atomic_fn)(fun), (gptr), SPLITC_NARGS_(__VA_ARGS__), \
                       ##__VA_ARGS__)
#endif

#ifdef __cplusplus
}
#endif

#endif /* SPLITC_H */
