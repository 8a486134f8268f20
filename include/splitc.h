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
 * `sync()` as a macro (this header then includes <unistd.h> first, so that
 * POSIX's declaration of sync is not rewritten). The seed's typos are
 * accepted as aliases:
 * all_reduce_to_one_fmull / all_scan_fmull (= ..._fmult) and all_scan_ymax
 * (= all_scan_umax).
 *
 * A program that defines `int splitc_main(int argc, char **argv)` and links
 * the entry-point library (CMake: splitc::main before the backend;
 * otherwise -lsplitc-main before -lsplitc-<backend>) runs it on every
 * processor. A program with its own main() calls splitc_init(&argc, &argv)
 * and splitc_finalize() itself.
 *
 * Standard C11: it compiles without warnings under -std=c11 -pedantic. The
 * one extension it uses is the __atomic_add_fetch builtin (GCC, Clang and
 * compatible compilers) in the inlined local store, because the C++ side
 * updates the same counters with std::atomic_ref on a plain int64_t. Errors
 * are reported by the runtime (docs/api.md): each names the operation the
 * program called and the bad value. */
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

/* A counter for split-phase operations (opaque: pass it, sync on it). A
 * counter starts at zero: static ones are, automatic ones are initialised
 * with SPLITC_COUNTER_INIT (`Counter c = SPLITC_COUNTER_INIT;`). */
typedef struct splitc_counter {
  int64_t value_;
} splitc_counter_t;
#define SPLITC_COUNTER_INIT {0}
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
/* Seconds on the job's clock (the sim backend: this processor's virtual time). */
double splitc_get_seconds(void);
void barrier(void);

/* ---- per-processor variables -------------------------------------------- */

/* A program's mutable globals are per processor only where each processor is
 * a process of its own; a backend that runs every processor of the job in
 * one process (a simulator's fibers) shares them. A per-processor variable
 * is named by a key with static storage; splitc_per_processor(&key, size)
 * returns the running processor's `size` bytes, made on its first access
 * (a copy of key.initial, or zeros when initial is NULL) and never moved
 * while the program runs. Only between splitc_init and splitc_finalize.
 * Every call with one key passes the same size (checked on each
 * processor's first access). The storage is aligned for any standard type.
 *
 *   static splitc_per_processor_key hits_key = SPLITC_PER_PROCESSOR_KEY_INIT;
 *   ++*(int *)splitc_per_processor(&hits_key, sizeof(int));
 *
 * or the same through an accessor function the macro defines, `int *hits(void)`:
 *
 *   SPLITC_PER_PROCESSOR(int, hits);               (zeroed)     ++*hits();
 *   SPLITC_PER_PROCESSOR_INITIAL(int, limit, 5);   (first 5)    *limit()
 *
 * The storage's address is the processor's own: data that other processors
 * name by a symmetric address (a store's receive counter) belongs in the
 * segment (the spread heap) instead.
 *
 * A repeated access by the same processor costs a few comparisons: the key
 * remembers the last processor that asked and its storage. */
typedef struct splitc_per_processor_key {
  const void *initial; /* each processor's first value (size bytes), or NULL: zeros */
  /* The library's, zero until the first access: */
  void *storage_;      /* the storage of processor proc_ */
  int32_t proc_;
  size_t size_;
  void *copies_;       /* every processor's storage */
} splitc_per_processor_key;
#define SPLITC_PER_PROCESSOR_KEY_INIT {NULL, NULL, 0, 0, NULL}
#define SPLITC_PER_PROCESSOR_KEY_FROM(initial) {(initial), NULL, 0, 0, NULL}

void *splitc_per_processor_first(splitc_per_processor_key *key, size_t size);
static inline void *splitc_per_processor(splitc_per_processor_key *key, size_t size) {
  const struct splitc_context_prefix *running = splitc_current_context;
  if (running != NULL && key->storage_ != NULL && key->proc_ == running->myproc)
    return key->storage_;
  return splitc_per_processor_first(key, size);
}

#define SPLITC_PER_PROCESSOR(type, name)                                        \
  static splitc_per_processor_key name##_key_ = SPLITC_PER_PROCESSOR_KEY_INIT;  \
  static inline type *name(void) {                                              \
    return (type *)splitc_per_processor(&name##_key_, sizeof(type));            \
  }                                                                             \
  extern splitc_per_processor_key *splitc_per_processor_declared_
#define SPLITC_PER_PROCESSOR_INITIAL(type, name, ...)                                   \
  static const type name##_initial_ = __VA_ARGS__;                                      \
  static splitc_per_processor_key name##_key_ = SPLITC_PER_PROCESSOR_KEY_FROM(&name##_initial_); \
  static inline type *name(void) {                                                      \
    return (type *)splitc_per_processor(&name##_key_, sizeof(type));                    \
  }                                                                                     \
  extern splitc_per_processor_key *splitc_per_processor_declared_

/* ---- global and spread pointers ------------------------------------------ */

/* A global pointer holds the address of its processor's copy: toglobal moves `addr` there,
 * and tolocal gives the running processor's copy of the place (the address itself on every
 * backend but the sim, whose processors' segments lie apart: c_context.h). */
static inline __globPtrType toglobal(int proc, void *addr) {
  __globPtrType g;
  g.proc = proc;
  g.addr = splitc_placed_(proc, addr);
  return g;
}
static inline int toproc(__globPtrType g) { return g.proc; }
static inline void *tolocal(__globPtrType g) {
  return splitc_placed_here_(g.addr);
}
/* This processor's copy of the place that an address received from another processor names
 * (an address of the spread heap or a segment sent as a plain value, which on the sim backend
 * is the sender's copy: docs/sim.md); the address itself on every other backend. */
static inline void *splitc_local_copy(const void *addr) { return splitc_placed_here_(addr); }

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

/* `op` is the name of the operation the program called (a compiler passes
 * its own): error messages name it. NULL names the path itself. A null
 * counter means the library's. */
void splitc_read_bytes(void *dst, __globPtrType src, size_t n, const char *op);
void splitc_write_bytes(__globPtrType dst, const void *src, size_t n, const char *op);
void splitc_get_bytes(void *dst, __globPtrType src, size_t n, splitc_counter_t *ctr,
                      const char *op);
void splitc_put_bytes(__globPtrType dst, const void *src, size_t n, splitc_counter_t *ctr,
                      const char *op);
void splitc_store_bytes(__globPtrType dst, const void *src, size_t n, splitc_counter_t *rbytes,
                        splitc_counter_t *sbytes, const char *op);

/* ---- global memory: the seed's names, inlined (Figure 2) ------------------- */

#define SPLITC_LOCAL_(g) ((g).proc == splitc_context_()->myproc && (g).addr != NULL)

#define SPLITC_FAMILY_(P, T)                                                            \
  static inline T __##P##_read(__globPtrType src) {                                     \
    T v;                                                                                \
    if (SPLITC_LOCAL_(src)) return *(T *)src.addr;                                      \
    splitc_read_bytes(&v, src, sizeof(T), "__" #P "_read");                             \
    return v;                                                                           \
  }                                                                                     \
  static inline T __##P##_write(__globPtrType dst, T val) {                             \
    if (SPLITC_LOCAL_(dst))                                                             \
      *(T *)dst.addr = val;                                                             \
    else                                                                                \
      splitc_write_bytes(dst, &val, sizeof(T), "__" #P "_write");                       \
    return val;                                                                         \
  }                                                                                     \
  static inline void __##P##_get(T *dst, __globPtrType src) {                           \
    if (SPLITC_LOCAL_(src))                                                             \
      *dst = *(T *)src.addr;                                                            \
    else                                                                                \
      splitc_get_bytes(dst, src, sizeof(T), NULL, "__" #P "_get");                      \
  }                                                                                     \
  static inline void __##P##_put(__globPtrType dst, T val) {                            \
    if (SPLITC_LOCAL_(dst))                                                             \
      *(T *)dst.addr = val;                                                             \
    else                                                                                \
      splitc_put_bytes(dst, &val, sizeof(T), NULL, "__" #P "_put");                     \
  }                                                                                     \
  static inline void __##P##_store(__globPtrType dst, T val) {                          \
    if (SPLITC_LOCAL_(dst)) {                                                           \
      struct splitc_context_prefix *c_ = splitc_current_context;                        \
      *c_->store_sent += (int64_t)sizeof(T);                                            \
      *(T *)dst.addr = val;                                                             \
      __atomic_add_fetch(c_->store_received, (int64_t)sizeof(T), __ATOMIC_ACQ_REL);     \
    } else {                                                                            \
      splitc_store_bytes(dst, &val, sizeof(T), NULL, NULL, "__" #P "_store");           \
    }                                                                                   \
  }                                                                                     \
  static inline void __##P##_get_ctr(T *dst, __globPtrType src, splitc_counter_t *ctr) { \
    if (SPLITC_LOCAL_(src))                                                             \
      *dst = *(T *)src.addr;                                                            \
    else                                                                                \
      splitc_get_bytes(dst, src, sizeof(T), ctr, "__" #P "_get_ctr");                   \
  }                                                                                     \
  static inline void __##P##_put_ctr(__globPtrType dst, T val, splitc_counter_t *ctr) { \
    if (SPLITC_LOCAL_(dst))                                                             \
      *(T *)dst.addr = val;                                                             \
    else                                                                                \
      splitc_put_bytes(dst, &val, sizeof(T), ctr, "__" #P "_put_ctr");                  \
  }                                                                                     \
  static inline void __##P##_store_ctr(__globPtrType dst, T val, splitc_counter_t *rbytes, \
                                       splitc_counter_t *sbytes) {                      \
    if (SPLITC_LOCAL_(dst)) {                                                           \
      sbytes->value_ += (int64_t)sizeof(T);                                             \
      *(T *)dst.addr = val;                                                             \
      __atomic_add_fetch(&rbytes->value_, (int64_t)sizeof(T), __ATOMIC_ACQ_REL);        \
    } else {                                                                            \
      splitc_store_bytes(dst, &val, sizeof(T), rbytes, sbytes, "__" #P "_store_ctr");   \
    }                                                                                   \
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
/* Split-C's reset_store_sync: the bytes stored into this processor so far are
 * forgotten (splitc::reset_store_sync; all_store_sync still balances). */
void reset_store_sync(void);
#ifdef SPLITC_SEED_NAMES
/* POSIX declares `void sync(void)` in <unistd.h>; declared first, it is not
 * rewritten by the macro (its include guard keeps it from being read again).
 * POSIX's sync stays reachable as (sync)(). */
#if defined(__unix__) || defined(__unix) || defined(__APPLE__)
#include <unistd.h>
#endif
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

/* Strided transfers (docs/api.md "Strided and indexed transfers"): an n-dimensional
 * region of elem_size-byte elements, counts[k] along dimension k (0 fastest), each side a
 * base (element 0,...,0) and a stride per dimension in bytes, negative allowed; zero
 * strides only on the side read (the written side's elements must not overlap: checked).
 * At most 8 dimensions. Completion as bulk_get/put/store; the _ctr forms take the
 * program's counters (NULL: the library's). */
void bulk_get_strided(void *dst, const ptrdiff_t *dst_strides, __globPtrType src,
                      const ptrdiff_t *src_strides, const size_t *counts, int dims,
                      size_t elem_size);
void bulk_put_strided(__globPtrType dst, const ptrdiff_t *dst_strides, const void *src,
                      const ptrdiff_t *src_strides, const size_t *counts, int dims,
                      size_t elem_size);
void bulk_store_strided(__globPtrType dst, const ptrdiff_t *dst_strides, const void *src,
                        const ptrdiff_t *src_strides, const size_t *counts, int dims,
                        size_t elem_size);
void bulk_get_strided_ctr(void *dst, const ptrdiff_t *dst_strides, __globPtrType src,
                          const ptrdiff_t *src_strides, const size_t *counts, int dims,
                          size_t elem_size, splitc_counter_t *ctr);
void bulk_put_strided_ctr(__globPtrType dst, const ptrdiff_t *dst_strides, const void *src,
                          const ptrdiff_t *src_strides, const size_t *counts, int dims,
                          size_t elem_size, splitc_counter_t *ctr);
void bulk_store_strided_ctr(__globPtrType dst, const ptrdiff_t *dst_strides, const void *src,
                            const ptrdiff_t *src_strides, const size_t *counts, int dims,
                            size_t elem_size, splitc_counter_t *rbytes, splitc_counter_t *sbytes);

/* Indexed transfers: lists of pieces of global memory on any processors, one message per
 * owner rather than per piece. The two lists of a pieces call hold the same bytes, matched
 * in order; an element list moves element k between src[k] (or dst[k]) and the k-th
 * elem_size bytes here. Pieces may be empty or repeat; overlapping destinations of a put
 * or store leave one of the values, unspecified which. */
typedef struct {
  __globPtrType ptr;
  size_t len;
} splitc_global_piece_t;
typedef struct {
  void *ptr;
  size_t len;
} splitc_local_piece_t;
void bulk_get_pieces(const splitc_local_piece_t *dst, int ndst,
                     const splitc_global_piece_t *src, int nsrc);
void bulk_put_pieces(const splitc_global_piece_t *dst, int ndst,
                     const splitc_local_piece_t *src, int nsrc);
void bulk_store_pieces(const splitc_global_piece_t *dst, int ndst,
                       const splitc_local_piece_t *src, int nsrc);
void bulk_get_pieces_ctr(const splitc_local_piece_t *dst, int ndst,
                         const splitc_global_piece_t *src, int nsrc, splitc_counter_t *ctr);
void bulk_put_pieces_ctr(const splitc_global_piece_t *dst, int ndst,
                         const splitc_local_piece_t *src, int nsrc, splitc_counter_t *ctr);
void bulk_store_pieces_ctr(const splitc_global_piece_t *dst, int ndst,
                           const splitc_local_piece_t *src, int nsrc, splitc_counter_t *rbytes,
                           splitc_counter_t *sbytes);
void bulk_get_elements(void *dst, const __globPtrType *src, int n, size_t elem_size);
void bulk_put_elements(const __globPtrType *dst, const void *src, int n, size_t elem_size);
void bulk_store_elements(const __globPtrType *dst, const void *src, int n, size_t elem_size);
void bulk_get_elements_ctr(void *dst, const __globPtrType *src, int n, size_t elem_size,
                           splitc_counter_t *ctr);
void bulk_put_elements_ctr(const __globPtrType *dst, const void *src, int n, size_t elem_size,
                           splitc_counter_t *ctr);
void bulk_store_elements_ctr(const __globPtrType *dst, const void *src, int n, size_t elem_size,
                             splitc_counter_t *rbytes, splitc_counter_t *sbytes);

/* ---- global communication (all processors call them, in the same order) ------ */

#define SPLITC_COLLECTIVE_OPS_(X, KIND)                                                 \
  X(KIND, add, int) X(KIND, uadd, unsigned) X(KIND, fadd, float) X(KIND, dadd, double)  \
  X(KIND, lladd, long long)                                                             \
  X(KIND, mult, int) X(KIND, umult, unsigned) X(KIND, fmult, float)                     \
  X(KIND, dmult, double) X(KIND, llmult, long long)                                     \
  X(KIND, max, int) X(KIND, umax, unsigned) X(KIND, fmax, float) X(KIND, dmax, double)  \
  X(KIND, llmax, long long)                                                             \
  X(KIND, min, int) X(KIND, umin, unsigned) X(KIND, fmin, float) X(KIND, dmin, double)  \
  X(KIND, llmin, long long)                                                             \
  X(KIND, or, int) X(KIND, uor, unsigned) X(KIND, llor, long long)                      \
  X(KIND, xor, int) X(KIND, uxor, unsigned) X(KIND, llxor, long long)                   \
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

/* ---- teams (splitc/team.hpp): collectives over subsets of the processors ---------- *
 * A team is created and freed collectively (every member of the parent calls split; every
 * member calls free). Members are numbered by rank; MYPROC and PROCS stay the world's.
 * A member that names SPLITC_TEAM_NO_COLOR in a split gets NULL. Every team_ collective is
 * called by all members of the team, in the same order; counts are in bytes for the data
 * movers and in elements for the reductions. */
typedef struct splitc_team *splitc_team_t;
#define SPLITC_TEAM_NO_COLOR (-1)
splitc_team_t splitc_team_world(void);
splitc_team_t splitc_team_split(splitc_team_t parent, int color, int key);
splitc_team_t splitc_team_split_by_host(splitc_team_t parent);
/* The row / column of the r x c processor grid (r * c == PROCS) of a 2-D block-cyclic
 * spread array T M[n/(r*b1)][m/(c*b2)][r][c]::[b1][b2] (collective over the world). */
splitc_team_t splitc_team_grid_row(int r, int c);
splitc_team_t splitc_team_grid_column(int r, int c);
void splitc_team_free(splitc_team_t team);
int splitc_team_size(splitc_team_t team);
int splitc_team_rank(splitc_team_t team);
int splitc_team_proc(splitc_team_t team, int rank);    /* the processor of a rank */
int splitc_team_rank_of(splitc_team_t team, int proc); /* -1: not a member */

void team_barrier(splitc_team_t team);
void team_bcast(splitc_team_t team, void *data, int bytes, int root);
void team_gather(splitc_team_t team, const void *mine, void *all, int bytes, int root);
void team_scatter(splitc_team_t team, const void *all, void *mine, int bytes, int root);
void team_all_gather(splitc_team_t team, const void *mine, void *all, int bytes);
void team_all_to_all(splitc_team_t team, const void *send, void *receive, int bytes);
/* Vector forms: counts[r] bytes for rank r, blocks packed in rank order (gatherv's and
 * scatterv's counts are read at the root only). */
void team_gatherv(splitc_team_t team, const void *mine, int bytes, void *all, const int *counts,
                  int root);
void team_scatterv(splitc_team_t team, const void *all, const int *counts, void *mine, int bytes,
                   int root);
void team_all_gatherv(splitc_team_t team, const void *mine, int bytes, void *all,
                      const int *counts);
void team_all_to_allv(splitc_team_t team, const void *send, const int *send_counts, void *receive,
                      const int *receive_counts);

/* The seed's reductions and scans over a team (team_reduce_to_all_dadd(t, x), ...), their
 * exclusive scans (rank 0 gets the operator's identity: 0, 1 for mult, the type's lowest for
 * max and highest for min, all ones for and), vector forms in place (..._v(t, data, n)), and
 * reduce-scatter: out gets block `rank` of n elements of the reduction of every member's
 * size * n elements; reduce-scatterv (team_reduce_scatterv_dadd(t, in, out, counts)): out gets
 * block `rank` of counts[rank] elements, in holding the sum of the counts. */
#define SPLITC_DECLARE_TEAM_COLLECTIVE_(KIND, NAME, T)                                   \
  T team_##KIND##_##NAME(splitc_team_t team, T val);                                    \
  void team_##KIND##_##NAME##_v(splitc_team_t team, T *data, int n);
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_TEAM_COLLECTIVE_, reduce_to_one)
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_TEAM_COLLECTIVE_, reduce_to_all)
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_TEAM_COLLECTIVE_, scan)
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_TEAM_COLLECTIVE_, exclusive_scan)
#undef SPLITC_DECLARE_TEAM_COLLECTIVE_
#define SPLITC_DECLARE_REDUCE_SCATTER_(KIND, NAME, T)                                    \
  void team_##KIND##_##NAME(splitc_team_t team, const T *in, T *out, int n);             \
  void team_##KIND##v_##NAME(splitc_team_t team, const T *in, T *out, const int *counts);
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_REDUCE_SCATTER_, reduce_scatter)
#undef SPLITC_DECLARE_REDUCE_SCATTER_
/* Split-phase forms (the seed's _ctr suffix): the call starts the collective and returns;
 * the counter counts it until it completes (sync_ctr / is_sync_ctr; it moves on at
 * every poll). Buffers stay untouched by the program until then; the vector forms' counts are
 * copied at the call. On one team, collectives run in issue order (the same on every member). */
void team_barrier_ctr(splitc_team_t team, splitc_counter_t *ctr);
void team_bcast_ctr(splitc_team_t team, void *data, int bytes, int root, splitc_counter_t *ctr);
void team_gather_ctr(splitc_team_t team, const void *mine, void *all, int bytes, int root,
                     splitc_counter_t *ctr);
void team_scatter_ctr(splitc_team_t team, const void *all, void *mine, int bytes, int root,
                      splitc_counter_t *ctr);
void team_all_gather_ctr(splitc_team_t team, const void *mine, void *all, int bytes,
                         splitc_counter_t *ctr);
void team_all_to_all_ctr(splitc_team_t team, const void *send, void *receive, int bytes,
                         splitc_counter_t *ctr);
void team_gatherv_ctr(splitc_team_t team, const void *mine, int bytes, void *all,
                      const int *counts, int root, splitc_counter_t *ctr);
void team_scatterv_ctr(splitc_team_t team, const void *all, const int *counts, void *mine,
                       int bytes, int root, splitc_counter_t *ctr);
void team_all_gatherv_ctr(splitc_team_t team, const void *mine, int bytes, void *all,
                          const int *counts, splitc_counter_t *ctr);
void team_all_to_allv_ctr(splitc_team_t team, const void *send, const int *send_counts,
                          void *receive, const int *receive_counts, splitc_counter_t *ctr);
#define SPLITC_DECLARE_TEAM_CTR_(KIND, NAME, T)                                          \
  void team_##KIND##_##NAME##_v_ctr(splitc_team_t team, T *data, int n, splitc_counter_t *ctr);
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_TEAM_CTR_, reduce_to_one)
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_TEAM_CTR_, reduce_to_all)
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_TEAM_CTR_, scan)
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_TEAM_CTR_, exclusive_scan)
#undef SPLITC_DECLARE_TEAM_CTR_
#define SPLITC_DECLARE_REDUCE_SCATTER_CTR_(KIND, NAME, T)                                \
  void team_##KIND##_##NAME##_ctr(splitc_team_t team, const T *in, T *out, int n,        \
                                  splitc_counter_t *ctr);                                \
  void team_##KIND##v_##NAME##_ctr(splitc_team_t team, const T *in, T *out,              \
                                   const int *counts, splitc_counter_t *ctr);
SPLITC_COLLECTIVE_OPS_(SPLITC_DECLARE_REDUCE_SCATTER_CTR_, reduce_scatter)
#undef SPLITC_DECLARE_REDUCE_SCATTER_CTR_

/* ---- global heap ---------------------------------------------------------------- */

/* Spread pointers to `count` objects of `object_size` bytes (cyclic layout);
 * the address is the same on every processor (on sim, the offset: tolocal
 * gives this processor's copy). Null (addr == NULL) when the
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

/* The atomic operations of splitc/atomic_operations.hpp, one set per word type:
 *   T    splitc_<type>_atomic_fetch_<op>(p, value)    returns the word's old value
 *   void splitc_<type>_atomic_<op>(p, value)          returns once the word is updated
 *   T    splitc_<type>_atomic_swap(p, value), _compare_swap(p, expected, desired) (returns the
 *        old value: the swap happened if it equals expected), _load(p); void _store(p, value)
 * with <op> add, min, max, and for the integer types and, or, xor. Each has a split-phase form
 * ending in _ctr, the counter last (NULL: the counter sync() waits on); a fetching one takes
 * where the old value goes first: splitc_<type>_atomic_fetch_add_ctr(&old, p, value, &ctr),
 * splitc_<type>_atomic_add_ctr(p, value, &ctr); the value is there once the counter is synced.
 * All processors' atomics on one word are atomic with respect to each other. <type>: int long
 * longlong uint ulong ulonglong int32 int64 uint32 uint64 size ptrdiff, and float double
 * (no and/or/xor; compare_swap compares the bits). */
#define SPLITC_DECLARE_ATOMIC_RMW_(NAME, T, OP)                                             \
  T splitc_##NAME##_atomic_fetch_##OP(__globPtrType p, T value);                           \
  void splitc_##NAME##_atomic_##OP(__globPtrType p, T value);                              \
  void splitc_##NAME##_atomic_fetch_##OP##_ctr(T *result, __globPtrType p, T value,        \
                                              splitc_counter_t *ctr);                      \
  void splitc_##NAME##_atomic_##OP##_ctr(__globPtrType p, T value, splitc_counter_t *ctr);
#define SPLITC_DECLARE_ATOMIC_(NAME, T)                                                      \
  SPLITC_DECLARE_ATOMIC_RMW_(NAME, T, add)                                                  \
  SPLITC_DECLARE_ATOMIC_RMW_(NAME, T, min)                                                  \
  SPLITC_DECLARE_ATOMIC_RMW_(NAME, T, max)                                                  \
  T splitc_##NAME##_atomic_swap(__globPtrType p, T value);                                 \
  T splitc_##NAME##_atomic_compare_swap(__globPtrType p, T expected, T desired);           \
  T splitc_##NAME##_atomic_load(__globPtrType p);                                          \
  void splitc_##NAME##_atomic_store(__globPtrType p, T value);                             \
  void splitc_##NAME##_atomic_swap_ctr(T *result, __globPtrType p, T value,                \
                                       splitc_counter_t *ctr);                             \
  void splitc_##NAME##_atomic_compare_swap_ctr(T *result, __globPtrType p, T expected,     \
                                               T desired, splitc_counter_t *ctr);          \
  void splitc_##NAME##_atomic_load_ctr(T *result, __globPtrType p, splitc_counter_t *ctr); \
  void splitc_##NAME##_atomic_store_ctr(__globPtrType p, T value, splitc_counter_t *ctr);
#define SPLITC_DECLARE_INTEGER_ATOMIC_(NAME, T)                                              \
  SPLITC_DECLARE_ATOMIC_(NAME, T)                                                           \
  SPLITC_DECLARE_ATOMIC_RMW_(NAME, T, and)                                                  \
  SPLITC_DECLARE_ATOMIC_RMW_(NAME, T, or)                                                   \
  SPLITC_DECLARE_ATOMIC_RMW_(NAME, T, xor)
SPLITC_DECLARE_INTEGER_ATOMIC_(int, int)
SPLITC_DECLARE_INTEGER_ATOMIC_(long, long)
SPLITC_DECLARE_INTEGER_ATOMIC_(longlong, long long)
SPLITC_DECLARE_INTEGER_ATOMIC_(uint, unsigned int)
SPLITC_DECLARE_INTEGER_ATOMIC_(ulong, unsigned long)
SPLITC_DECLARE_INTEGER_ATOMIC_(ulonglong, unsigned long long)
SPLITC_DECLARE_INTEGER_ATOMIC_(int32, int32_t)
SPLITC_DECLARE_INTEGER_ATOMIC_(int64, int64_t)
SPLITC_DECLARE_INTEGER_ATOMIC_(uint32, uint32_t)
SPLITC_DECLARE_INTEGER_ATOMIC_(uint64, uint64_t)
SPLITC_DECLARE_INTEGER_ATOMIC_(size, size_t)
SPLITC_DECLARE_INTEGER_ATOMIC_(ptrdiff, ptrdiff_t)
SPLITC_DECLARE_ATOMIC_(float, float)
SPLITC_DECLARE_ATOMIC_(double, double)
#undef SPLITC_DECLARE_INTEGER_ATOMIC_
#undef SPLITC_DECLARE_ATOMIC_
#undef SPLITC_DECLARE_ATOMIC_RMW_

/* ---- signalled puts (splitc/put_signal.hpp): OpenSHMEM 1.5's put-with-signal ------- *
 * splitc_put_signal(dst, src, n, signal, value, sig_op) puts n bytes to dst, then sets the
 * 64-bit word at `signal` (on dst's processor) to value (SPLITC_SIGNAL_SET) or adds value to
 * it (SPLITC_SIGNAL_ADD); whoever sees the signal's update sees the data. It returns once both
 * are done at the target; the _ctr form is done once ctr is synced (NULL: the counter sync()
 * waits on), src reusable on return. Unlike a store, which the receiver counts in bytes
 * (store_sync), the receiver waits on the word it names (splitc_uint64_wait_until). */
#define SPLITC_SIGNAL_SET 0
#define SPLITC_SIGNAL_ADD 1
void splitc_put_signal(__globPtrType dst, const void *src, size_t n, __globPtrType signal,
                       uint64_t value, int sig_op);
void splitc_put_signal_ctr(__globPtrType dst, const void *src, size_t n, __globPtrType signal,
                           uint64_t value, int sig_op, splitc_counter_t *ctr);

/* ---- waiting on memory (splitc/memory_wait.hpp): OpenSHMEM's wait_until family --- *
 * On words of this processor's memory that other processors write (puts, stores, writes,
 * atomics): splitc_<type>_wait_until(ivar, cmp, value) returns once *ivar cmp value holds,
 * serving active messages meanwhile; splitc_<type>_test says whether it holds now. The
 * _all/_any/_some forms watch `n` words (status: NULL, or one int per word, nonzero leaving
 * it out); _any returns an index or SPLITC_NO_INDEX, _some writes the satisfied indices into
 * `indices` (room for n) and returns how many; the _vector forms compare each word with its
 * own value. <type>: int long longlong uint ulong ulonglong int32 int64 uint32 uint64 size
 * ptrdiff. Data written before the word (and completed: sync after puts, bulk_write, write)
 * is visible once the condition is seen. */
#define SPLITC_CMP_EQ 0
#define SPLITC_CMP_NE 1
#define SPLITC_CMP_GT 2
#define SPLITC_CMP_GE 3
#define SPLITC_CMP_LT 4
#define SPLITC_CMP_LE 5
#define SPLITC_NO_INDEX ((size_t)-1)
#define SPLITC_DECLARE_WAIT_(NAME, T)                                                        \
  void splitc_##NAME##_wait_until(T *ivar, int cmp, T value);                               \
  int splitc_##NAME##_test(T *ivar, int cmp, T value);                                      \
  void splitc_##NAME##_wait_until_all(T *ivars, size_t n, const int *status, int cmp,       \
                                      T value);                                             \
  size_t splitc_##NAME##_wait_until_any(T *ivars, size_t n, const int *status, int cmp,     \
                                        T value);                                           \
  size_t splitc_##NAME##_wait_until_some(T *ivars, size_t n, size_t *indices,               \
                                         const int *status, int cmp, T value);              \
  void splitc_##NAME##_wait_until_all_vector(T *ivars, size_t n, const int *status, int cmp,\
                                             const T *values);                              \
  size_t splitc_##NAME##_wait_until_any_vector(T *ivars, size_t n, const int *status,       \
                                               int cmp, const T *values);                   \
  size_t splitc_##NAME##_wait_until_some_vector(T *ivars, size_t n, size_t *indices,        \
                                                const int *status, int cmp,                 \
                                                const T *values);                           \
  int splitc_##NAME##_test_all(T *ivars, size_t n, const int *status, int cmp, T value);    \
  size_t splitc_##NAME##_test_any(T *ivars, size_t n, const int *status, int cmp, T value); \
  size_t splitc_##NAME##_test_some(T *ivars, size_t n, size_t *indices, const int *status,  \
                                   int cmp, T value);                                       \
  int splitc_##NAME##_test_all_vector(T *ivars, size_t n, const int *status, int cmp,       \
                                      const T *values);                                     \
  size_t splitc_##NAME##_test_any_vector(T *ivars, size_t n, const int *status, int cmp,    \
                                         const T *values);                                  \
  size_t splitc_##NAME##_test_some_vector(T *ivars, size_t n, size_t *indices,              \
                                          const int *status, int cmp, const T *values);
SPLITC_DECLARE_WAIT_(int, int)
SPLITC_DECLARE_WAIT_(long, long)
SPLITC_DECLARE_WAIT_(longlong, long long)
SPLITC_DECLARE_WAIT_(uint, unsigned int)
SPLITC_DECLARE_WAIT_(ulong, unsigned long)
SPLITC_DECLARE_WAIT_(ulonglong, unsigned long long)
SPLITC_DECLARE_WAIT_(int32, int32_t)
SPLITC_DECLARE_WAIT_(int64, int64_t)
SPLITC_DECLARE_WAIT_(uint32, uint32_t)
SPLITC_DECLARE_WAIT_(uint64, uint64_t)
SPLITC_DECLARE_WAIT_(size, size_t)
SPLITC_DECLARE_WAIT_(ptrdiff, ptrdiff_t)
#undef SPLITC_DECLARE_WAIT_

/* atomic(fun, gptr, a0, ..., a3): run fun(local address, a0, ..., a3) on the
 * owner of gptr, atomically with respect to other atomic procedures and
 * handlers there. Up to four integer-class arguments (int, long, pointers),
 * passed like the seed's four-word active messages. Inside fun,
 * atomic_return_i / atomic_return_d set the value that atomic_i / atomic_d
 * return. */
typedef void (*splitc_atomic_fn)(void); /* any procedure, cast (the macros do) */
void splitc_atomic_call(splitc_atomic_fn fun, __globPtrType gptr, int nargs, ...);
int splitc_atomic_call_i(splitc_atomic_fn fun, __globPtrType gptr, int nargs, ...);
double splitc_atomic_call_d(splitc_atomic_fn fun, __globPtrType gptr, int nargs, ...);
void atomic_return_i(int val);
void atomic_return_d(double val);

#ifndef __cplusplus /* C++ programs use splitc::atomic */
/* atomic(fun, gptr, ...) counts the words after gptr and calls
 * splitc_atomic_call(fun, gptr, n, (long)a0, ...). The count is taken from
 * the number of arguments, never from their values; fewer than two or more
 * than six arguments stop the compilation with a static assertion. Plain
 * C11: no GNU comma pasting. */
#define atomic(...) SPLITC_ATOMIC_(splitc_atomic_call, __VA_ARGS__)
#define atomic_i(...) SPLITC_ATOMIC_(splitc_atomic_call_i, __VA_ARGS__)
#define atomic_d(...) SPLITC_ATOMIC_(splitc_atomic_call_d, __VA_ARGS__)

#define SPLITC_ATOMIC_(call, ...)                                                       \
  SPLITC_APPLY_(SPLITC_ATOMIC_PICK_, (__VA_ARGS__, SPLITC_ATOMIC_TOO_MANY_LIST_,        \
                SPLITC_ATOMIC_4_, SPLITC_ATOMIC_3_, SPLITC_ATOMIC_2_, SPLITC_ATOMIC_1_, \
                SPLITC_ATOMIC_0_, SPLITC_ATOMIC_TOO_FEW_, SPLITC_ATOMIC_TOO_FEW_))      \
  (call, __VA_ARGS__)
#define SPLITC_APPLY_(macro, args) macro args /* expands args (the list) first */
/* Expands its 63rd argument: with 2..6 arguments in front, one of the forms
 * below; with 7..62, SPLITC_ATOMIC_TOO_MANY_ (56 copies). */
#define SPLITC_ATOMIC_PICK_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, \
  a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, \
  a35, a36, a37, a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53, \
  a54, a55, a56, a57, a58, a59, a60, a61, a62, form, ...) form
#define SPLITC_ATOMIC_TOO_MANY_8_ SPLITC_ATOMIC_TOO_MANY_, SPLITC_ATOMIC_TOO_MANY_,     \
  SPLITC_ATOMIC_TOO_MANY_, SPLITC_ATOMIC_TOO_MANY_, SPLITC_ATOMIC_TOO_MANY_,            \
  SPLITC_ATOMIC_TOO_MANY_, SPLITC_ATOMIC_TOO_MANY_, SPLITC_ATOMIC_TOO_MANY_
#define SPLITC_ATOMIC_TOO_MANY_LIST_ SPLITC_ATOMIC_TOO_MANY_8_, SPLITC_ATOMIC_TOO_MANY_8_, \
  SPLITC_ATOMIC_TOO_MANY_8_, SPLITC_ATOMIC_TOO_MANY_8_, SPLITC_ATOMIC_TOO_MANY_8_,      \
  SPLITC_ATOMIC_TOO_MANY_8_, SPLITC_ATOMIC_TOO_MANY_8_

#define SPLITC_ATOMIC_0_(call, f, g) call((splitc_atomic_fn)(f), (g), 0)
#define SPLITC_ATOMIC_1_(call, f, g, a0) call((splitc_atomic_fn)(f), (g), 1, (long)(a0))
#define SPLITC_ATOMIC_2_(call, f, g, a0, a1)                                            \
  call((splitc_atomic_fn)(f), (g), 2, (long)(a0), (long)(a1))
#define SPLITC_ATOMIC_3_(call, f, g, a0, a1, a2)                                        \
  call((splitc_atomic_fn)(f), (g), 3, (long)(a0), (long)(a1), (long)(a2))
#define SPLITC_ATOMIC_4_(call, f, g, a0, a1, a2, a3)                                    \
  call((splitc_atomic_fn)(f), (g), 4, (long)(a0), (long)(a1), (long)(a2), (long)(a3))
/* A compile-time error inside an expression (C11 allows a static assertion
 * as a member declaration). */
#define SPLITC_STATIC_ERROR_(message) ((int)sizeof(struct { _Static_assert(0, message); int x_; }))
#define SPLITC_ATOMIC_TOO_MANY_(call, ...)                                              \
  SPLITC_STATIC_ERROR_("atomic, atomic_i, atomic_d: at most 4 arguments after the global pointer")
#define SPLITC_ATOMIC_TOO_FEW_(call, ...)                                               \
  SPLITC_STATIC_ERROR_("atomic, atomic_i, atomic_d: a procedure and a global pointer come first")
#endif

/* ---- owner-computes loops (seed: for_my_1d, for_my_2d) ------------------------ */

/* for_my_1d(i, n) { ... }       i = MYPROC, MYPROC+PROCS, ... below n
 * for_my_2d(i, j, n, m) { ... } the (i, j) of the n x m spread index space
 *                               (row-major, cyclic) that MYPROC owns
 * Each declares its loop variables (size_t), evaluates n and m once, and
 * break and continue work as in any loop. A definition made earlier wins:
 * in C++, these serve when this header comes before splitc/spread_array.hpp,
 * and that header's (the same loops, const loop variables) when it comes
 * first. */
#ifndef SPLITC_NO_SEED_MACROS
#ifndef for_my_1d
#define for_my_1d(i, n)                                                                 \
  for (size_t splitc_end_##i = (size_t)(n), i = (size_t)splitc_myproc(); i < splitc_end_##i; \
       i += (size_t)splitc_procs())
#endif
#ifndef for_my_2d
#define for_my_2d(i, j, n, m)                                                           \
  for (size_t splitc_m_##i##_##j = (size_t)(m),                                         \
              splitc_end_##i##_##j = (size_t)(n) * splitc_m_##i##_##j,                  \
              splitc_k_##i##_##j = (size_t)splitc_myproc(),                             \
              i = splitc_m_##i##_##j ? splitc_k_##i##_##j / splitc_m_##i##_##j : 0,     \
              j = splitc_m_##i##_##j ? splitc_k_##i##_##j % splitc_m_##i##_##j : 0;     \
       splitc_k_##i##_##j < splitc_end_##i##_##j;                                       \
       splitc_k_##i##_##j += (size_t)splitc_procs(),                                    \
              i = splitc_k_##i##_##j / splitc_m_##i##_##j,                              \
              j = splitc_k_##i##_##j % splitc_m_##i##_##j)
#endif
#endif

/* ---- spread-array layouts (docs/spread_arrays.md) ------------------------------ */

/* A spread array is allocated with all_spread_malloc(blocks, block_bytes):
 * block k is on processor k mod PROCS at block-row k div PROCS, at the same
 * address everywhere. A layout turns a logical index into a block number and
 * an element offset inside the block (splitc_placement_t); the same rules as
 * the C++ layouts (include/splitc/spread_array.hpp):
 *
 *   T A[n]::       cyclic:            splitc_place_cyclic(i)
 *   T A[m]::[b]    block-cyclic:      splitc_place_block_cyclic(x, b)
 *   T A[PROCS]::[b] blocked:          the same with m = PROCS
 *   T M[n/(r*b1)][m/(c*b2)][r][c]::[b1][b2]  (Split-C Figure 8):
 *                                     splitc_place_blocked_cyclic_2d(&l, x, y)
 *
 * splitc_spread_element(A, place, block_elems, sizeof(T)) is the element's
 * global pointer; splitc_spread_block(A, k, block_bytes) a block's first
 * byte. The placement functions need no running job. */
typedef struct {
  size_t block;  /* spread block number */
  size_t within; /* element offset inside the block */
} splitc_placement_t;

/* n x m elements in b1 x b2 blocks over an r x c grid of spread dimensions;
 * n is a multiple of r*b1 and m of c*b2. */
typedef struct {
  size_t n, m, r, c, b1, b2;
} splitc_layout_2d_t;

static inline splitc_placement_t splitc_place_cyclic(size_t i) {
  splitc_placement_t p;
  p.block = i;
  p.within = 0;
  return p;
}
static inline splitc_placement_t splitc_place_block_cyclic(size_t x, size_t b) {
  splitc_placement_t p;
  p.block = x / b;
  p.within = x % b;
  return p;
}
/* Blocks of the 2-D layout: (n/b1) * (m/b2), of b1*b2 elements each. */
static inline size_t splitc_layout_2d_blocks(const splitc_layout_2d_t *l) {
  return (l->n / l->b1) * (l->m / l->b2);
}
/* Block (bi, bj) of the block grid has the spread index
 * (bi div r, bj div c, bi mod r, bj mod c), linearized row-major. */
static inline size_t splitc_layout_2d_block_number(const splitc_layout_2d_t *l, size_t bi,
                                                   size_t bj) {
  const size_t e1 = l->m / (l->c * l->b2);
  return ((bi / l->r * e1 + bj / l->c) * l->r + bi % l->r) * l->c + bj % l->c;
}
/* The inverse: block number k to (bi, bj). */
static inline void splitc_layout_2d_block_coords(const splitc_layout_2d_t *l, size_t k,
                                                 size_t *bi, size_t *bj) {
  const size_t e1 = l->m / (l->c * l->b2);
  const size_t s3 = k % l->c, s2 = k / l->c % l->r, s1 = k / (l->c * l->r) % e1,
               s0 = k / (l->c * l->r * e1);
  *bi = s0 * l->r + s2;
  *bj = s1 * l->c + s3;
}
static inline splitc_placement_t splitc_place_blocked_cyclic_2d(const splitc_layout_2d_t *l,
                                                                size_t x, size_t y) {
  splitc_placement_t p;
  p.block = splitc_layout_2d_block_number(l, x / l->b1, y / l->b2);
  p.within = (x % l->b1) * l->b2 + y % l->b2;
  return p;
}
/* Where block k of a spread array A (all_spread_malloc's result) starts. */
static inline __globPtrType splitc_spread_block(__globPtrType A, size_t k, size_t block_bytes) {
  const size_t procs = (size_t)splitc_procs();
  const size_t k_from_row0 = (size_t)A.proc + k; /* A may start on any processor */
  return toglobal((int)(k_from_row0 % procs), (char *)A.addr + k_from_row0 / procs * block_bytes);
}
/* The element at `place` of a spread array of blocks of block_elems
 * elements of elem_size bytes. */
static inline __globPtrType splitc_spread_element(__globPtrType A, splitc_placement_t place,
                                                  size_t block_elems, size_t elem_size) {
  __globPtrType g = splitc_spread_block(A, place.block, block_elems * elem_size);
  g.addr = (char *)g.addr + place.within * elem_size;
  return g;
}

#ifdef __cplusplus
}
#endif

#endif /* SPLITC_H */
