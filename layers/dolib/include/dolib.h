/* DOLIB on splitc: the C interface of D'Azevedo and Romine's Distributed Object Library
 * (ORNL/TM-12744, 1994, section 3) with the seed's names and signatures. Global arrays of
 * int, double or char, cut into pages grouped in blocks wrap-mapped over the processors,
 * reached through explicit gather, scatter and axpby calls; read-only pages may be cached.
 * C indices are 0-based. Every error ends the job with
 * "splitc: processor P of N: <call>: <cause>". See layers/dolib/README.md. */
#ifndef DOLIB_H
#define DOLIB_H

#ifdef __cplusplus
extern "C" {
#endif

/* Start DOLIB (collective; splitc must already be initialized: splitc_init or splitc_main).
 * myid and nproc must be this processor's number and the processor count. */
void do_init(int myid, int nproc);

/* Allocate a global array of gsize items of ctype ("int"/"integer", "double"/"real*8"/
 * "double precision", "char"/"character", any case), pages of pagesize items, blocks of
 * blocksize pages, blocks wrap-mapped over the processors. Collective; *Iaf gets a positive
 * descriptor. The contents start undefined (in practice zero on first use). */
void do_declare(int* Iaf, const char* name, int gsize, const char* ctype, int pagesize,
                int blocksize);
/* Free the array and its cached pages. Collective (completes everything in flight first). */
void do_destroy(int Iaf);

/* Synchronous gather: buf[k] = array[list[k]], k < nsize. */
void do_gather(int Iaf, int nsize, const int* list, void* buf);
/* Asynchronous gathers (return a request id for do_isavail / do_wait): a contiguous range
 * istart..istart+nsize-1, or an index list (list is copied; buf is filled later). */
int do_bgather(int Iaf, int nsize, int istart, void* buf);
int do_agather(int Iaf, int nsize, const int* list, void* buf);
/* 1 when the request's data is in the buffer (the id is then released), else 0. */
int do_isavail(int reqid);
/* Wait until the request's data is in the buffer; releases the id. */
void do_wait(int reqid);

/* Asynchronous scatter: array[list[k]] = buf[k] (complete after do_gsync). */
void do_scatter(int Iaf, int nsize, const int* list, const void* buf);
/* Contiguous form used by the seed's appendix (dobdscatter): array[istart+k] = buf[k]. */
void do_bscatter(int Iaf, int nsize, int istart, const void* buf);

/* y[list[k]] = alpha * x[k] + beta * y[list[k]], applied by the owner of each element,
 * atomically per element (concurrent updates of one element from many processors all count).
 * Asynchronous: complete after do_gsync. i-forms on int arrays, d-forms on double arrays. */
void do_iaxpby(int Iaf, int nsize, const int* list, const int* xarray, int ialpha, int ibeta);
void do_daxpby(int Iaf, int nsize, const int* list, const double* xarray, double dalpha,
               double dbeta);
void do_biaxpby(int Iaf, int nsize, int start, const int* xarray, int ialpha, int ibeta);
void do_bdaxpby(int Iaf, int nsize, int start, const double* xarray, double dalpha,
                double dbeta);

/* Collective: every DOLIB operation issued before it, by any processor, has completed. */
void do_gsync(void);
/* Serve the DOLIB requests that have arrived (a splitc poll). */
void do_check(void);

/* Caching of this array's remote pages in the shared page cache (off when declared); the
 * program promises that the array is read-only while enabled. do_disable purges its pages. */
void do_enable(int Iaf);
void do_disable(int Iaf);
/* Set the cache size in pages (default 128; 0 purges the cache); returns the previous size. */
int do_setchsize(int npages);

/* Addition: this processor's counters since do_init, for tests and benchmarks:
 * [0] request messages sent, [1] items carried in them, [2] cache hits (items served from the
 * cache), [3] cache misses (pages fetched), [4] pages evicted. */
void do_getstats(long long out[5]);

#ifdef __cplusplus
}
#endif

#endif /* DOLIB_H */
