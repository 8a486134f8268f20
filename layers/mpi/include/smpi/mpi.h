/* splitc's MPI: the point-to-point subset of MPI on splitc's active messages, with the
 * protocols of MPICH on the Cray T3D (Brightwell 1996; layers/mpi/README.md). A program
 * written for MPI includes this as <mpi.h> (splitc-mpicc, or -I<prefix>/include/smpi)
 * and is started with `splitc-run -n P ./prog`.
 *
 * Every MPI name is a macro for a SPLITC_MPI_ name: no MPI_* symbol is defined, so a real MPI
 * may live in the same process (the mpi, mpich, nx, mpl and shmem backends load one). A call
 * outside the subset does not link; a case outside it (an operation on a type it does not
 * know, ...) ends the job naming it: "not in this MPI subset: ...".
 *
 * Handles are pointer-sized integers (mpptest keeps a communicator in a void * attribute). */
#ifndef SPLITC_MPI_H
#define SPLITC_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef intptr_t MPI_Comm;
typedef intptr_t MPI_Datatype;
typedef intptr_t MPI_Op;
typedef intptr_t MPI_Request;
typedef intptr_t MPI_Errhandler;
typedef intptr_t MPI_Aint;
typedef long long MPI_Count;

typedef struct {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  int splitc_cancelled;
  size_t splitc_bytes; /* the message's length in bytes (MPI_Get_count divides it) */
} MPI_Status;

/* Versions and limits. */
#define MPI_VERSION 1
#define MPI_SUBVERSION 3
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 256

/* Error classes: MPI_SUCCESS is a macro (mpptest compiles its persistent and vector modes
 * only #if defined(MPI_SUCCESS)). */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_OP 9
#define MPI_ERR_ARG 12
#define MPI_ERR_UNKNOWN 13
#define MPI_ERR_TRUNCATE 14
#define MPI_ERR_OTHER 15
#define MPI_ERR_INTERN 16
#define MPI_ERR_PENDING 18
#define MPI_ERR_IN_STATUS 17
#define MPI_ERR_LASTCODE 64

/* Wildcards and special values. */
#define MPI_ANY_SOURCE (-2)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-3)
#define MPI_UNDEFINED (-32766)
#define MPI_TAG_UB_VALUE 0x7fffffff
#define MPI_KEYVAL_INVALID (-1)
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_IN_PLACE ((void *)-1)
#define MPI_BOTTOM ((void *)0)

/* Thread levels: this MPI is MPI_THREAD_SINGLE. */
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* Null handles and the predefined objects (small integers; created ones are larger). */
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD ((MPI_Comm)1)
#define MPI_COMM_SELF ((MPI_Comm)2)
#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_OP_NULL ((MPI_Op)0)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)1)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)2)

#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
#define MPI_CHAR ((MPI_Datatype)1)
#define MPI_BYTE ((MPI_Datatype)2)
#define MPI_SHORT ((MPI_Datatype)3)
#define MPI_INT ((MPI_Datatype)4)
#define MPI_LONG ((MPI_Datatype)5)
#define MPI_FLOAT ((MPI_Datatype)6)
#define MPI_DOUBLE ((MPI_Datatype)7)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)8)
#define MPI_UNSIGNED ((MPI_Datatype)9)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)10)
#define MPI_LONG_LONG ((MPI_Datatype)11)
#define MPI_LONG_LONG_INT MPI_LONG_LONG
#define MPI_PACKED ((MPI_Datatype)12)
#define MPI_UB ((MPI_Datatype)13)
#define MPI_LB ((MPI_Datatype)14)

#define MPI_MAX ((MPI_Op)1)
#define MPI_MIN ((MPI_Op)2)
#define MPI_SUM ((MPI_Op)3)
#define MPI_PROD ((MPI_Op)4)

/* Attribute copy and delete functions (MPI-1). */
typedef int MPI_Copy_function(MPI_Comm, int, void *, void *, void *, int *);
typedef int MPI_Delete_function(MPI_Comm, int, void *, void *);
#define MPI_NULL_COPY_FN ((MPI_Copy_function *)0)
#define MPI_NULL_DELETE_FN ((MPI_Delete_function *)0)
#define MPI_DUP_FN ((MPI_Copy_function *)1)

/* The calls: each MPI_X is SPLITC_MPI_X. */
#define MPI_Init SPLITC_MPI_Init
#define MPI_Init_thread SPLITC_MPI_Init_thread
#define MPI_Initialized SPLITC_MPI_Initialized
#define MPI_Finalized SPLITC_MPI_Finalized
#define MPI_Finalize SPLITC_MPI_Finalize
#define MPI_Abort SPLITC_MPI_Abort
#define MPI_Wtime SPLITC_MPI_Wtime
#define MPI_Wtick SPLITC_MPI_Wtick
#define MPI_Get_version SPLITC_MPI_Get_version
#define MPI_Get_processor_name SPLITC_MPI_Get_processor_name
#define MPI_Error_string SPLITC_MPI_Error_string
#define MPI_Comm_rank SPLITC_MPI_Comm_rank
#define MPI_Comm_size SPLITC_MPI_Comm_size
#define MPI_Comm_dup SPLITC_MPI_Comm_dup
#define MPI_Comm_free SPLITC_MPI_Comm_free
#define MPI_Comm_set_errhandler SPLITC_MPI_Comm_set_errhandler
#define MPI_Errhandler_set SPLITC_MPI_Comm_set_errhandler
#define MPI_Send SPLITC_MPI_Send
#define MPI_Ssend SPLITC_MPI_Ssend
#define MPI_Rsend SPLITC_MPI_Rsend
#define MPI_Recv SPLITC_MPI_Recv
#define MPI_Sendrecv SPLITC_MPI_Sendrecv
#define MPI_Sendrecv_replace SPLITC_MPI_Sendrecv_replace
#define MPI_Isend SPLITC_MPI_Isend
#define MPI_Issend SPLITC_MPI_Issend
#define MPI_Irsend SPLITC_MPI_Irsend
#define MPI_Irecv SPLITC_MPI_Irecv
#define MPI_Wait SPLITC_MPI_Wait
#define MPI_Waitall SPLITC_MPI_Waitall
#define MPI_Waitany SPLITC_MPI_Waitany
#define MPI_Test SPLITC_MPI_Test
#define MPI_Testall SPLITC_MPI_Testall
#define MPI_Probe SPLITC_MPI_Probe
#define MPI_Iprobe SPLITC_MPI_Iprobe
#define MPI_Get_count SPLITC_MPI_Get_count
#define MPI_Send_init SPLITC_MPI_Send_init
#define MPI_Ssend_init SPLITC_MPI_Ssend_init
#define MPI_Rsend_init SPLITC_MPI_Rsend_init
#define MPI_Recv_init SPLITC_MPI_Recv_init
#define MPI_Start SPLITC_MPI_Start
#define MPI_Startall SPLITC_MPI_Startall
#define MPI_Request_free SPLITC_MPI_Request_free
#define MPI_Barrier SPLITC_MPI_Barrier
#define MPI_Bcast SPLITC_MPI_Bcast
#define MPI_Reduce SPLITC_MPI_Reduce
#define MPI_Allreduce SPLITC_MPI_Allreduce
#define MPI_Alloc_mem SPLITC_MPI_Alloc_mem
#define MPI_Free_mem SPLITC_MPI_Free_mem
#define MPI_Keyval_create SPLITC_MPI_Keyval_create
#define MPI_Keyval_free SPLITC_MPI_Keyval_free
#define MPI_Attr_get SPLITC_MPI_Attr_get
#define MPI_Attr_put SPLITC_MPI_Attr_put
#define MPI_Attr_delete SPLITC_MPI_Attr_delete
#define MPI_Type_struct SPLITC_MPI_Type_struct
#define MPI_Type_commit SPLITC_MPI_Type_commit
#define MPI_Type_free SPLITC_MPI_Type_free
#define MPI_Type_size SPLITC_MPI_Type_size

int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Initialized(int *flag);
int MPI_Finalized(int *flag);
int MPI_Finalize(void);
int MPI_Abort(MPI_Comm comm, int errorcode);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_processor_name(char *name, int *resultlen);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler handler);
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *request);
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request);
int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *request);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count);
int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Request *request);
int MPI_Start(MPI_Request *request);
int MPI_Startall(int count, MPI_Request requests[]);
int MPI_Request_free(MPI_Request *request);
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm);
int MPI_Alloc_mem(MPI_Aint size, intptr_t info, void *baseptr);
int MPI_Free_mem(void *base);
int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                      void *extra_state);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Attr_delete(MPI_Comm comm, int keyval);
int MPI_Type_struct(int count, int *blocklengths, MPI_Aint *displacements, MPI_Datatype *types,
                    MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *type);
int MPI_Type_free(MPI_Datatype *type);
int MPI_Type_size(MPI_Datatype type, int *size);

#define MPI_INFO_NULL ((intptr_t)0)

#ifdef __cplusplus
}
#endif

#endif /* SPLITC_MPI_H */
