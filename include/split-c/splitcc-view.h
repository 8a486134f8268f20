/* split-c/splitcc-view.h: splitc.h as Split-C sees it. splitcc's parse
 * reads these declarations in place of the C interface's headers (where a
 * global pointer is the struct __globPtrType), so that Clang checks calls
 * with Split-C's types: a global pointer argument is `void *global`, a
 * spread array from the heap `void *spread`. Never included by programs;
 * kept in step with splitc.h and split-c/splitcc-runtime.h (the test
 * splitcc.view_in_step, tests/splitcc/view_in_step.sh, checks). Plain
 * declarations in Split-C syntax (no directives but the X-macros below). */
typedef struct splitc_counter { int64_t value_; } splitc_counter_t;
typedef splitc_counter_t Counter;
typedef struct splitc_team *splitc_team_t;
typedef struct { int proc; void *addr; } splitc_c_global_ptr_view_;
struct splitc_context_prefix { int32_t myproc; int32_t procs; int64_t *store_sent; int64_t *store_received; };
extern __thread struct splitc_context_prefix *splitc_current_context;

void splitc_init(int *argc, char ***argv);
void splitc_finalize(void);
void splitc_not_initialized(void);
int splitc_myproc(void);
int splitc_procs(void);
void splitc_poll(void);
void barrier(void);

void *global toglobal(int proc, void *addr);
/* No prototype: the argument is a global pointer, or an l-value reached
 * through one (its address); the translation checks which. */
int toproc();
void *tolocal();

void splitc_sync(void);
int is_sync(void);
void sync_ctr(splitc_counter_t *ctr);
int is_sync_ctr(splitc_counter_t *ctr);
void store_sync(int bytes_expected);
int is_store_sync(int bytes_expected);
void store_sync_ctr(int bytes_expected, splitc_counter_t *rbytes, splitc_counter_t *sbytes);
int is_store_sync_ctr(int bytes_expected, splitc_counter_t *rbytes, splitc_counter_t *sbytes);
void all_store_sync(void);

void bulk_read(void *dst, void *global src, int len);
void bulk_write(void *global dst, void *src, int len);
void bulk_get(void *dst, void *global src, int len);
void bulk_put(void *global dst, void *src, int len);
void bulk_store(void *global dst, void *src, int len);
void bulk_get_ctr(void *dst, void *global src, int len, splitc_counter_t *ctr);
void bulk_put_ctr(void *global dst, void *src, int len, splitc_counter_t *ctr);
void bulk_store_ctr(void *global gp, char *lp, int len, splitc_counter_t *rbytes, splitc_counter_t *sbytes);
void bulk_get_strided(void *dst, const ptrdiff_t *dst_strides, void *global src, const ptrdiff_t *src_strides, const size_t *counts, int dims, size_t elem_size);
void bulk_put_strided(void *global dst, const ptrdiff_t *dst_strides, const void *src, const ptrdiff_t *src_strides, const size_t *counts, int dims, size_t elem_size);
void bulk_store_strided(void *global dst, const ptrdiff_t *dst_strides, const void *src, const ptrdiff_t *src_strides, const size_t *counts, int dims, size_t elem_size);
void bulk_get_strided_ctr(void *dst, const ptrdiff_t *dst_strides, void *global src, const ptrdiff_t *src_strides, const size_t *counts, int dims, size_t elem_size, splitc_counter_t *ctr);
void bulk_put_strided_ctr(void *global dst, const ptrdiff_t *dst_strides, const void *src, const ptrdiff_t *src_strides, const size_t *counts, int dims, size_t elem_size, splitc_counter_t *ctr);
void bulk_store_strided_ctr(void *global dst, const ptrdiff_t *dst_strides, const void *src, const ptrdiff_t *src_strides, const size_t *counts, int dims, size_t elem_size, splitc_counter_t *rbytes, splitc_counter_t *sbytes);
typedef struct { void *global ptr; size_t len; } splitc_global_piece_t;
typedef struct { void *ptr; size_t len; } splitc_local_piece_t;
void bulk_get_pieces(const splitc_local_piece_t *dst, int ndst, const splitc_global_piece_t *src, int nsrc);
void bulk_put_pieces(const splitc_global_piece_t *dst, int ndst, const splitc_local_piece_t *src, int nsrc);
void bulk_store_pieces(const splitc_global_piece_t *dst, int ndst, const splitc_local_piece_t *src, int nsrc);
void bulk_get_pieces_ctr(const splitc_local_piece_t *dst, int ndst, const splitc_global_piece_t *src, int nsrc, splitc_counter_t *ctr);
void bulk_put_pieces_ctr(const splitc_global_piece_t *dst, int ndst, const splitc_local_piece_t *src, int nsrc, splitc_counter_t *ctr);
void bulk_store_pieces_ctr(const splitc_global_piece_t *dst, int ndst, const splitc_local_piece_t *src, int nsrc, splitc_counter_t *rbytes, splitc_counter_t *sbytes);
void bulk_get_elements(void *dst, void *global const *src, int n, size_t elem_size);
void bulk_put_elements(void *global const *dst, const void *src, int n, size_t elem_size);
void bulk_store_elements(void *global const *dst, const void *src, int n, size_t elem_size);
void bulk_get_elements_ctr(void *dst, void *global const *src, int n, size_t elem_size, splitc_counter_t *ctr);
void bulk_put_elements_ctr(void *global const *dst, const void *src, int n, size_t elem_size, splitc_counter_t *ctr);
void bulk_store_elements_ctr(void *global const *dst, const void *src, int n, size_t elem_size, splitc_counter_t *rbytes, splitc_counter_t *sbytes);

#define SPLITCC_VIEW_OPS_(X, KIND)                                                     \
  X(KIND, add, int) X(KIND, uadd, unsigned) X(KIND, fadd, float) X(KIND, dadd, double) \
  X(KIND, lladd, long long) X(KIND, mult, int) X(KIND, umult, unsigned)                \
  X(KIND, fmult, float) X(KIND, dmult, double) X(KIND, llmult, long long)              \
  X(KIND, max, int) X(KIND, umax, unsigned) X(KIND, fmax, float) X(KIND, dmax, double) \
  X(KIND, llmax, long long) X(KIND, min, int) X(KIND, umin, unsigned)                  \
  X(KIND, fmin, float) X(KIND, dmin, double) X(KIND, llmin, long long)                 \
  X(KIND, or, int) X(KIND, uor, unsigned) X(KIND, llor, long long)                     \
  X(KIND, xor, int) X(KIND, uxor, unsigned) X(KIND, llxor, long long)                  \
  X(KIND, and, int) X(KIND, uand, unsigned) X(KIND, lland, long long)
#define SPLITCC_VIEW_DECLARE_(KIND, NAME, T) T all_##KIND##_##NAME(T val);
SPLITCC_VIEW_OPS_(SPLITCC_VIEW_DECLARE_, reduce_to_one)
SPLITCC_VIEW_OPS_(SPLITCC_VIEW_DECLARE_, reduce_to_all)
SPLITCC_VIEW_OPS_(SPLITCC_VIEW_DECLARE_, scan)
#undef SPLITCC_VIEW_DECLARE_
#define SPLITCC_VIEW_DECLARE_TEAM_(KIND, NAME, T)                                         \
  T team_##KIND##_##NAME(splitc_team_t team, T val);                                     \
  void team_##KIND##_##NAME##_v(splitc_team_t team, T *data, int n);                     \
  void team_##KIND##_##NAME##_v_ctr(splitc_team_t team, T *data, int n, splitc_counter_t *ctr);
SPLITCC_VIEW_OPS_(SPLITCC_VIEW_DECLARE_TEAM_, reduce_to_one)
SPLITCC_VIEW_OPS_(SPLITCC_VIEW_DECLARE_TEAM_, reduce_to_all)
SPLITCC_VIEW_OPS_(SPLITCC_VIEW_DECLARE_TEAM_, scan)
SPLITCC_VIEW_OPS_(SPLITCC_VIEW_DECLARE_TEAM_, exclusive_scan)
#undef SPLITCC_VIEW_DECLARE_TEAM_
#define SPLITCC_VIEW_DECLARE_RS_(KIND, NAME, T)                                           \
  void team_##KIND##_##NAME(splitc_team_t team, const T *in, T *out, int n);             \
  void team_##KIND##_##NAME##_ctr(splitc_team_t team, const T *in, T *out, int n,        \
                                  splitc_counter_t *ctr);                                \
  void team_##KIND##v_##NAME(splitc_team_t team, const T *in, T *out, const int *counts); \
  void team_##KIND##v_##NAME##_ctr(splitc_team_t team, const T *in, T *out,              \
                                   const int *counts, splitc_counter_t *ctr);
SPLITCC_VIEW_OPS_(SPLITCC_VIEW_DECLARE_RS_, reduce_scatter)
#undef SPLITCC_VIEW_DECLARE_RS_
#undef SPLITCC_VIEW_OPS_
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

splitc_team_t splitc_team_world(void);
splitc_team_t splitc_team_split(splitc_team_t parent, int color, int key);
splitc_team_t splitc_team_split_by_host(splitc_team_t parent);
splitc_team_t splitc_team_grid_row(int r, int c);
splitc_team_t splitc_team_grid_column(int r, int c);
void splitc_team_free(splitc_team_t team);
int splitc_team_size(splitc_team_t team);
int splitc_team_rank(splitc_team_t team);
int splitc_team_proc(splitc_team_t team, int rank);
int splitc_team_rank_of(splitc_team_t team, int proc);
void team_barrier(splitc_team_t team);
void team_bcast(splitc_team_t team, void *data, int bytes, int root);
void team_gather(splitc_team_t team, const void *mine, void *all, int bytes, int root);
void team_scatter(splitc_team_t team, const void *all, void *mine, int bytes, int root);
void team_all_gather(splitc_team_t team, const void *mine, void *all, int bytes);
void team_all_to_all(splitc_team_t team, const void *send, void *receive, int bytes);
void team_gatherv(splitc_team_t team, const void *mine, int bytes, void *all, const int *counts, int root);
void team_scatterv(splitc_team_t team, const void *all, const int *counts, void *mine, int bytes, int root);
void team_all_gatherv(splitc_team_t team, const void *mine, int bytes, void *all, const int *counts);
void team_all_to_allv(splitc_team_t team, const void *send, const int *send_counts, void *receive, const int *receive_counts);
void team_barrier_ctr(splitc_team_t team, splitc_counter_t *ctr);
void team_bcast_ctr(splitc_team_t team, void *data, int bytes, int root, splitc_counter_t *ctr);
void team_gather_ctr(splitc_team_t team, const void *mine, void *all, int bytes, int root, splitc_counter_t *ctr);
void team_scatter_ctr(splitc_team_t team, const void *all, void *mine, int bytes, int root, splitc_counter_t *ctr);
void team_all_gather_ctr(splitc_team_t team, const void *mine, void *all, int bytes, splitc_counter_t *ctr);
void team_all_to_all_ctr(splitc_team_t team, const void *send, void *receive, int bytes, splitc_counter_t *ctr);
void team_gatherv_ctr(splitc_team_t team, const void *mine, int bytes, void *all, const int *counts, int root, splitc_counter_t *ctr);
void team_scatterv_ctr(splitc_team_t team, const void *all, const int *counts, void *mine, int bytes, int root, splitc_counter_t *ctr);
void team_all_gatherv_ctr(splitc_team_t team, const void *mine, int bytes, void *all, const int *counts, splitc_counter_t *ctr);
void team_all_to_allv_ctr(splitc_team_t team, const void *send, const int *send_counts, void *receive, const int *receive_counts, splitc_counter_t *ctr);

void *spread all_spread_malloc(int count, int object_size);
void all_spread_free(void *spread sptr);
void *spread spread_malloc(int count, int object_size);
void spread_free(void *spread sptr);

int exchange(int *global loc, int val);
int test_and_set(int *global loc);
int cmp_and_swap(int *global loc, int test_val, int new_val);
int fetch_and_add(int *global loc, int val);
typedef void (*splitc_atomic_fn)(void);
void splitc_atomic_call(splitc_atomic_fn fun, void *global gptr, int nargs, ...);
int splitc_atomic_call_i(splitc_atomic_fn fun, void *global gptr, int nargs, ...);
double splitc_atomic_call_d(splitc_atomic_fn fun, void *global gptr, int nargs, ...);
void atomic_return_i(int val);
void atomic_return_d(double val);
#define SPLITCC_VIEW_ATOMIC_RMW_(NAME, T, OP)                                             \
  T splitc_##NAME##_atomic_fetch_##OP(T *global p, T value);                             \
  void splitc_##NAME##_atomic_##OP(T *global p, T value);                                \
  void splitc_##NAME##_atomic_fetch_##OP##_ctr(T *result, T *global p, T value,          \
                                              splitc_counter_t *ctr);                    \
  void splitc_##NAME##_atomic_##OP##_ctr(T *global p, T value, splitc_counter_t *ctr);
#define SPLITCC_VIEW_ATOMIC_(NAME, T)                                                      \
  SPLITCC_VIEW_ATOMIC_RMW_(NAME, T, add)                                                  \
  SPLITCC_VIEW_ATOMIC_RMW_(NAME, T, min)                                                  \
  SPLITCC_VIEW_ATOMIC_RMW_(NAME, T, max)                                                  \
  T splitc_##NAME##_atomic_swap(T *global p, T value);                                   \
  T splitc_##NAME##_atomic_compare_swap(T *global p, T expected, T desired);             \
  T splitc_##NAME##_atomic_load(T *global p);                                            \
  void splitc_##NAME##_atomic_store(T *global p, T value);                               \
  void splitc_##NAME##_atomic_swap_ctr(T *result, T *global p, T value,                  \
                                       splitc_counter_t *ctr);                           \
  void splitc_##NAME##_atomic_compare_swap_ctr(T *result, T *global p, T expected,       \
                                               T desired, splitc_counter_t *ctr);        \
  void splitc_##NAME##_atomic_load_ctr(T *result, T *global p, splitc_counter_t *ctr);   \
  void splitc_##NAME##_atomic_store_ctr(T *global p, T value, splitc_counter_t *ctr);
#define SPLITCC_VIEW_INTEGER_ATOMIC_(NAME, T)                                              \
  SPLITCC_VIEW_ATOMIC_(NAME, T)                                                           \
  SPLITCC_VIEW_ATOMIC_RMW_(NAME, T, and)                                                  \
  SPLITCC_VIEW_ATOMIC_RMW_(NAME, T, or)                                                   \
  SPLITCC_VIEW_ATOMIC_RMW_(NAME, T, xor)
SPLITCC_VIEW_INTEGER_ATOMIC_(int, int)
SPLITCC_VIEW_INTEGER_ATOMIC_(long, long)
SPLITCC_VIEW_INTEGER_ATOMIC_(longlong, long long)
SPLITCC_VIEW_INTEGER_ATOMIC_(uint, unsigned int)
SPLITCC_VIEW_INTEGER_ATOMIC_(ulong, unsigned long)
SPLITCC_VIEW_INTEGER_ATOMIC_(ulonglong, unsigned long long)
SPLITCC_VIEW_INTEGER_ATOMIC_(int32, int32_t)
SPLITCC_VIEW_INTEGER_ATOMIC_(int64, int64_t)
SPLITCC_VIEW_INTEGER_ATOMIC_(uint32, uint32_t)
SPLITCC_VIEW_INTEGER_ATOMIC_(uint64, uint64_t)
SPLITCC_VIEW_INTEGER_ATOMIC_(size, size_t)
SPLITCC_VIEW_INTEGER_ATOMIC_(ptrdiff, ptrdiff_t)
SPLITCC_VIEW_ATOMIC_(float, float)
SPLITCC_VIEW_ATOMIC_(double, double)
#undef SPLITCC_VIEW_INTEGER_ATOMIC_
#undef SPLITCC_VIEW_ATOMIC_
#undef SPLITCC_VIEW_ATOMIC_RMW_
void splitc_put_signal(void *global dst, const void *src, size_t n, uint64_t *global signal,
                       uint64_t value, int sig_op);
void splitc_put_signal_ctr(void *global dst, const void *src, size_t n, uint64_t *global signal,
                           uint64_t value, int sig_op, splitc_counter_t *ctr);

double get_seconds(void);
void reset_store_sync(void);
int splitcc_procs_log(void);
