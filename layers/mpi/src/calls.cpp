// The MPI calls of splitc's MPI (include/smpi/mpi.h), on the engine (engine.hpp) and
// the objects (objects.hpp): arguments checked, datatypes packed, requests managed,
// collectives on splitc's own.
#include "engine.hpp"
#include "landing.hpp"
#include "objects.hpp"

#include <splitc/per_processor.hpp>
#include <splitc/splitc.hpp>
#include <splitc/wait.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <span>

using namespace splitc::mpi;

namespace {

/// Requests freed while active (MPI_Request_free): deleted once complete.
splitc::per_processor<std::vector<request*>> detached;
splitc::per_processor<int> finalized;

void reap_detached() {
  auto& list = detached.get();
  std::erase_if(list, [](request* r) {
    if (!r->complete) return false;
    delete r;
    return true;
  });
}

int check_count(MPI_Comm c, int count, const char* call) {
  if (count < 0) return raise(c, MPI_ERR_COUNT, call, fmt::format("count {} is negative", count));
  return MPI_SUCCESS;
}

/// Gather a non-contiguous send's elements into its packed buffer.
void pack(request& r, const datatype& t) {
  char* out = r.packed.data();
  for (int k = 0; k < r.count; ++k)
    for (const auto& [offset, length] : t.blocks) {
      std::memcpy(out, static_cast<const char*>(r.pack_from) + k * t.extent + offset, length);
      out += length;
    }
  r.send_buffer = r.packed.data();
}

/// Fill `r` for a send or receive of `count` elements of `type` at `buf` with `peer` (a rank
/// of `c`) and `tag`; packs a non-contiguous send.
int prepare(request& r, bool is_send, const void* buf, int count, MPI_Datatype type, int peer,
            int tag, MPI_Comm c, const char* call) {
  if (int e = check_count(c, count, call)) return e;
  const communicator& cm = comm(c, call);
  const datatype& t = splitc::mpi::type(type, call);
  if (is_send && tag < 0)
    return raise(c, MPI_ERR_TAG, call, fmt::format("tag {} is negative", tag));
  if (!is_send && tag < 0 && tag != MPI_ANY_TAG)
    return raise(c, MPI_ERR_TAG, call, fmt::format("tag {} is negative", tag));
  r.is_send = is_send;
  r.context = cm.context;
  r.peer = to_world(cm, peer, call, !is_send);
  r.tag = tag;
  r.type = type;
  r.count = count;
  r.comm = c;
  const std::size_t bytes = t.size * static_cast<std::size_t>(count);
  r.bytes = bytes;
  if (t.contiguous() || bytes == 0) {
    if (is_send) r.send_buffer = buf;
    else r.receive_buffer = const_cast<void*>(buf);
    return MPI_SUCCESS;
  }
  r.packed.resize(bytes);
  if (is_send) {
    r.pack_from = buf;
    pack(r, t);
  } else {
    r.receive_buffer = r.packed.data();
    r.unpack_to = const_cast<void*>(buf);
  }
  return MPI_SUCCESS;
}

/// After a receive completed: unpack, translate the source, report truncation.
int finish(request& r, MPI_Status* status, const char* call) {
  if (!r.is_send && r.unpack_to != nullptr && r.status.splitc_bytes > 0) {
    const datatype& t = splitc::mpi::type(r.type, call);
    const char* in = r.packed.data();
    std::size_t left = r.status.splitc_bytes;
    for (int k = 0; k < r.count && left > 0; ++k)
      for (const auto& [offset, length] : t.blocks) {
        const std::size_t n = std::min(length, left);
        std::memcpy(static_cast<char*>(r.unpack_to) + k * t.extent + offset, in, n);
        in += n;
        left -= n;
        if (left == 0) break;
      }
  }
  if (!r.is_send && r.status.MPI_SOURCE >= 0)
    r.status.MPI_SOURCE = from_world(comm(r.comm, call), r.status.MPI_SOURCE);
  finish_status(r, status);
  r.active = false;
  if (r.status.MPI_ERROR == MPI_ERR_TRUNCATE)
    return raise(r.comm, MPI_ERR_TRUNCATE, call,
                 fmt::format("a message of more than {} bytes from rank {} (tag {}) was truncated "
                             "to the receive's {} bytes",
                             r.bytes, r.status.MPI_SOURCE, r.status.MPI_TAG, r.bytes));
  return MPI_SUCCESS;
}

void empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  *status = MPI_Status{};
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
}

request* handle_of(MPI_Request r) { return reinterpret_cast<request*>(r); }

/// Complete request *h (it is complete): finish it, and free it unless it is persistent.
int retire(MPI_Request* h, MPI_Status* status, const char* call) {
  request* r = handle_of(*h);
  const int e = finish(*r, status, call);
  if (!r->persistent) {
    delete r;
    *h = MPI_REQUEST_NULL;
  }
  return e;
}

bool waiting_on(MPI_Request h) { return h != MPI_REQUEST_NULL && handle_of(h)->active; }

template <class T>
void reduce_typed(void* data, int count, MPI_Op op, const char* call) {
  std::span<T> values(static_cast<T*>(data), static_cast<std::size_t>(count));
  switch (op) {
    case MPI_SUM: splitc::reduce_to_all(values, splitc::ops::add{}); break;
    case MPI_PROD: splitc::reduce_to_all(values, splitc::ops::mult{}); break;
    case MPI_MAX: splitc::reduce_to_all(values, splitc::ops::max{}); break;
    case MPI_MIN: splitc::reduce_to_all(values, splitc::ops::min{}); break;
    default: not_in_subset(fmt::format("{} with the operation {}", call, op));
  }
}

void reduce_in_place(void* data, int count, MPI_Datatype type, MPI_Op op, const char* call) {
  switch (type) {
    case MPI_CHAR: reduce_typed<signed char>(data, count, op, call); break;
    case MPI_BYTE:
    case MPI_UNSIGNED_CHAR: reduce_typed<unsigned char>(data, count, op, call); break;
    case MPI_SHORT: reduce_typed<short>(data, count, op, call); break;
    case MPI_INT: reduce_typed<int>(data, count, op, call); break;
    case MPI_UNSIGNED: reduce_typed<unsigned>(data, count, op, call); break;
    case MPI_LONG: reduce_typed<long>(data, count, op, call); break;
    case MPI_UNSIGNED_LONG: reduce_typed<unsigned long>(data, count, op, call); break;
    case MPI_LONG_LONG: reduce_typed<long long>(data, count, op, call); break;
    case MPI_FLOAT: reduce_typed<float>(data, count, op, call); break;
    case MPI_DOUBLE: reduce_typed<double>(data, count, op, call); break;
    default: not_in_subset(fmt::format("{} on the datatype {}", call, type));
  }
}

/// The reduction of `count` elements on every processor of `c`, left in `result` (whose
/// size is count × the type's size); `send` may be MPI_IN_PLACE (the data is in `result`).
int all_reduce(const void* send, void* result, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm c, const char* call) {
  if (int e = check_count(c, count, call)) return e;
  const communicator& cm = comm(c, call);
  const datatype& t = splitc::mpi::type(type, call);
  if (!t.contiguous()) not_in_subset(fmt::format("{} on a derived datatype", call));
  const std::size_t bytes = t.size * static_cast<std::size_t>(count);
  if (send != MPI_IN_PLACE && bytes > 0) std::memmove(result, send, bytes);
  if (cm.self || count == 0) return MPI_SUCCESS;
  drain_pending_sends();
  reduce_in_place(result, count, type, op, call);
  return MPI_SUCCESS;
}

int blocking(request& r, MPI_Status* status, const char* call) {
  if (r.is_send) start_send(r);
  else start_receive(r);
  wait_for(r, call);
  return finish(r, status, call);
}

}  // namespace

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  static int no_argc = 1;
  static char self_exe[] = "/proc/self/exe";
  static char* no_argv_storage[] = {self_exe, nullptr};
  static char** no_argv = no_argv_storage;
  int& c = argc != nullptr ? *argc : no_argc;
  char**& v = argv != nullptr ? *argv : no_argv;
  splitc::init(c, v);
  start_objects();
  start_engine(settings_from_environment());
  return MPI_SUCCESS;
}

// splitc's threading model is FUNNELED (docs/api.md, "Threads"): the thread that called init
// makes every call, and a call from another thread ends the job naming the cause.
int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  if (provided != nullptr)
    *provided = required < MPI_THREAD_FUNNELED ? MPI_THREAD_SINGLE : MPI_THREAD_FUNNELED;
  return MPI_Init(argc, argv);
}

// These two may be called from any thread (MPI 4.0 §11.2.1): the process's state, not the
// calling thread's.
int MPI_Initialized(int* flag) {
  *flag = splitc_process_context != nullptr && objects_started();
  return MPI_SUCCESS;
}

int MPI_Finalized(int* flag) {
  // (Another thread cannot read the processor's flag: it sees "not yet" until splitc's end.)
  if (splitc_current_context != nullptr) *flag = finalized.get();
  else *flag = splitc_process_context != nullptr ? 0 : 1;
  return MPI_SUCCESS;
}

int MPI_Finalize() {
  quiesce();
  splitc::barrier();
  reap_detached();
  stop_engine();
  stop_objects();
  finalized.get() = 1;
  splitc::finalize();
  return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm, int errorcode) {
  splitc::fatal_error(fmt::format("MPI_Abort called with error code {}", errorcode));
}

double MPI_Wtime() { return splitc::get_seconds(); }
double MPI_Wtick() { return 1e-9; }

int MPI_Get_version(int* version, int* subversion) {
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int MPI_Get_processor_name(char* name, int* resultlen) {
  if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0) std::strcpy(name, "unknown");
  name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
  *resultlen = static_cast<int>(std::strlen(name));
  return MPI_SUCCESS;
}

int MPI_Error_string(int code, char* text, int* resultlen) {
  std::snprintf(text, MPI_MAX_ERROR_STRING, "%s", error_class_name(code));
  *resultlen = static_cast<int>(std::strlen(text));
  return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm c, int* rank) {
  *rank = comm_rank(comm(c, "MPI_Comm_rank"));
  return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm c, int* size) {
  *size = comm_size(comm(c, "MPI_Comm_size"));
  return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm c, MPI_Comm* newcomm) {
  communicator copy = comm(c, "MPI_Comm_dup");
  copy.context = new_context();  // collective: the same id on every processor
  copy.attributes.clear();
  for (const auto& [key, value] : comm(c, "MPI_Comm_dup").attributes) {
    keyval* k = find_keyval(key);
    if (k == nullptr || k->copy == MPI_NULL_COPY_FN) continue;
    void* out = value;
    int flag = 1;
    if (k->copy != MPI_DUP_FN) k->copy(c, key, k->extra, value, &out, &flag);
    if (flag) copy.attributes[key] = out;
  }
  *newcomm = add_comm(std::move(copy));
  return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm* c) {
  if (*c == MPI_COMM_WORLD || *c == MPI_COMM_SELF)
    return raise(*c, MPI_ERR_COMM, "MPI_Comm_free", "a predefined communicator cannot be freed");
  communicator& cm = comm(*c, "MPI_Comm_free");
  for (const auto& [key, value] : cm.attributes)
    if (keyval* k = find_keyval(key); k != nullptr && k->erase != MPI_NULL_DELETE_FN)
      k->erase(*c, key, value, k->extra);
  drop_comm(*c);
  *c = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm c, MPI_Errhandler handler) {
  if (handler != MPI_ERRORS_ARE_FATAL && handler != MPI_ERRORS_RETURN)
    not_in_subset("an error handler other than MPI_ERRORS_ARE_FATAL and MPI_ERRORS_RETURN");
  comm(c, "MPI_Comm_set_errhandler").errhandler = handler;
  return MPI_SUCCESS;
}

static int send_as(send_mode mode, const void* buf, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm c, const char* call) {
  request r;
  r.mode = mode;
  if (int e = prepare(r, true, buf, count, type, dest, tag, c, call)) return e;
  return blocking(r, MPI_STATUS_IGNORE, call);
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c) {
  return send_as(send_mode::standard, buf, count, type, dest, tag, c, "MPI_Send");
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c) {
  return send_as(send_mode::sync, buf, count, type, dest, tag, c, "MPI_Ssend");
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c) {
  return send_as(send_mode::ready, buf, count, type, dest, tag, c, "MPI_Rsend");
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm c,
             MPI_Status* status) {
  request r;
  if (int e = prepare(r, false, buf, count, type, source, tag, c, "MPI_Recv")) return e;
  return blocking(r, status, "MPI_Recv");
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm c, MPI_Status* status) {
  request receive, send;
  if (int e = prepare(receive, false, recvbuf, recvcount, recvtype, source, recvtag, c,
                      "MPI_Sendrecv"))
    return e;
  if (int e = prepare(send, true, sendbuf, sendcount, sendtype, dest, sendtag, c, "MPI_Sendrecv"))
    return e;
  start_receive(receive);
  start_send(send);
  wait_for(send, "MPI_Sendrecv");
  wait_for(receive, "MPI_Sendrecv");
  finish(send, MPI_STATUS_IGNORE, "MPI_Sendrecv");
  return finish(receive, status, "MPI_Sendrecv");
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm c, MPI_Status* status) {
  const datatype& t = splitc::mpi::type(type, "MPI_Sendrecv_replace");
  const std::size_t span = count > 0 ? static_cast<std::size_t>(t.extent) * count : 0;
  std::vector<char> copy(static_cast<const char*>(buf), static_cast<const char*>(buf) + span);
  return MPI_Sendrecv(copy.data(), count, type, dest, sendtag, buf, count, type, source, recvtag,
                      c, status);
}

static int start_new(send_mode mode, bool is_send, const void* buf, int count, MPI_Datatype type,
                     int peer, int tag, MPI_Comm c, MPI_Request* handle, bool persistent,
                     const char* call) {
  auto* r = new request;
  r->mode = mode;
  r->persistent = persistent;
  if (int e = prepare(*r, is_send, buf, count, type, peer, tag, c, call)) {
    delete r;
    *handle = MPI_REQUEST_NULL;
    return e;
  }
  *handle = reinterpret_cast<MPI_Request>(r);
  if (!persistent) {
    if (is_send) start_send(*r);
    else start_receive(*r);
  }
  return MPI_SUCCESS;
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c,
              MPI_Request* request) {
  return start_new(send_mode::standard, true, buf, count, type, dest, tag, c, request, false,
                   "MPI_Isend");
}
int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c,
               MPI_Request* request) {
  return start_new(send_mode::sync, true, buf, count, type, dest, tag, c, request, false,
                   "MPI_Issend");
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c,
               MPI_Request* request) {
  return start_new(send_mode::ready, true, buf, count, type, dest, tag, c, request, false,
                   "MPI_Irsend");
}
int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm c,
              MPI_Request* request) {
  return start_new(send_mode::standard, false, buf, count, type, source, tag, c, request, false,
                   "MPI_Irecv");
}

int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c,
                  MPI_Request* request) {
  return start_new(send_mode::standard, true, buf, count, type, dest, tag, c, request, true,
                   "MPI_Send_init");
}
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c,
                   MPI_Request* request) {
  return start_new(send_mode::sync, true, buf, count, type, dest, tag, c, request, true,
                   "MPI_Ssend_init");
}
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c,
                   MPI_Request* request) {
  return start_new(send_mode::ready, true, buf, count, type, dest, tag, c, request, true,
                   "MPI_Rsend_init");
}
int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm c,
                  MPI_Request* request) {
  return start_new(send_mode::standard, false, buf, count, type, source, tag, c, request, true,
                   "MPI_Recv_init");
}

int MPI_Start(MPI_Request* handle) {
  request* r = handle_of(*handle);
  if (r == nullptr || !r->persistent)
    return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Start", "not a persistent request");
  if (r->active)
    return raise(r->comm, MPI_ERR_REQUEST, "MPI_Start", "the request is already active");
  if (r->is_send) {
    // A non-contiguous send packs again: the buffer may have changed since MPI_Send_init.
    if (r->pack_from != nullptr) pack(*r, splitc::mpi::type(r->type, "MPI_Start"));
    start_send(*r);
  } else {
    start_receive(*r);
  }
  return MPI_SUCCESS;
}

int MPI_Startall(int count, MPI_Request requests[]) {
  for (int i = 0; i < count; ++i)
    if (int e = MPI_Start(&requests[i])) return e;
  return MPI_SUCCESS;
}

int MPI_Request_free(MPI_Request* handle) {
  request* r = handle_of(*handle);
  if (r == nullptr) return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free", "a null request");
  if (r->active && !r->complete) {
    r->freed = true;
    detached.get().push_back(r);
  } else {
    delete r;
  }
  *handle = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int MPI_Wait(MPI_Request* handle, MPI_Status* status) {
  reap_detached();
  if (!waiting_on(*handle)) {
    empty_status(status);
    return MPI_SUCCESS;
  }
  wait_for(*handle_of(*handle), "MPI_Wait");
  return retire(handle, status, "MPI_Wait");
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  int result = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* status = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    if (int e = MPI_Wait(&requests[i], status)) {
      if (status != MPI_STATUS_IGNORE) status->MPI_ERROR = e;
      result = MPI_ERR_IN_STATUS;
    }
  }
  return result;
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  reap_detached();
  bool any = false;
  for (int i = 0; i < count; ++i) any = any || waiting_on(requests[i]);
  if (!any) {
    *index = MPI_UNDEFINED;
    empty_status(status);
    return MPI_SUCCESS;
  }
  int found = -1;
  wait_in_layer("MPI_Waitany", [&] {
    for (int i = 0; i < count; ++i)
      if (waiting_on(requests[i]) && handle_of(requests[i])->complete) {
        found = i;
        return true;
      }
    return false;
  });
  *index = found;
  return retire(&requests[found], status, "MPI_Waitany");
}

int MPI_Test(MPI_Request* handle, int* flag, MPI_Status* status) {
  reap_detached();
  if (!waiting_on(*handle)) {
    *flag = 1;
    empty_status(status);
    return MPI_SUCCESS;
  }
  progress();
  *flag = handle_of(*handle)->complete;
  if (!*flag) return MPI_SUCCESS;
  return retire(handle, status, "MPI_Test");
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  progress();
  *flag = 1;
  for (int i = 0; i < count; ++i)
    if (waiting_on(requests[i]) && !handle_of(requests[i])->complete) *flag = 0;
  if (!*flag) return MPI_SUCCESS;
  return MPI_Waitall(count, requests, statuses);
}

static void probe_status(const incoming& m, const communicator& cm, MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  *status = MPI_Status{};
  status->MPI_SOURCE = from_world(cm, m.source);
  status->MPI_TAG = m.tag;
  status->splitc_bytes = m.length;
}

int MPI_Iprobe(int source, int tag, MPI_Comm c, int* flag, MPI_Status* status) {
  const communicator& cm = comm(c, "MPI_Iprobe");
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    if (status != MPI_STATUS_IGNORE) {
      empty_status(status);
      status->MPI_SOURCE = MPI_PROC_NULL;
    }
    return MPI_SUCCESS;
  }
  const int world = to_world(cm, source, "MPI_Iprobe", true);
  progress();
  const incoming* m = probe(cm.context, world, tag);
  *flag = m != nullptr;
  if (m != nullptr) probe_status(*m, cm, status);
  return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm c, MPI_Status* status) {
  const communicator& cm = comm(c, "MPI_Probe");
  if (source == MPI_PROC_NULL) {
    int flag = 0;
    return MPI_Iprobe(source, tag, c, &flag, status);
  }
  const int world = to_world(cm, source, "MPI_Probe", true);
  const incoming* m = nullptr;
  wait_in_layer("MPI_Probe", [&] {
    m = probe(cm.context, world, tag);
    return m != nullptr;
  });
  probe_status(*m, cm, status);
  return MPI_SUCCESS;
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype type, int* count) {
  const std::size_t size = splitc::mpi::type(type, "MPI_Get_count").size;
  if (size == 0) {
    *count = 0;
  } else if (status->splitc_bytes % size != 0) {
    *count = MPI_UNDEFINED;
  } else {
    *count = static_cast<int>(status->splitc_bytes / size);
  }
  return MPI_SUCCESS;
}

int MPI_Barrier(MPI_Comm c) {
  if (comm(c, "MPI_Barrier").self) return MPI_SUCCESS;
  drain_pending_sends();
  splitc::barrier();
  return MPI_SUCCESS;
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm c) {
  const communicator& cm = comm(c, "MPI_Bcast");
  if (int e = check_count(c, count, "MPI_Bcast")) return e;
  if (root < 0 || root >= comm_size(cm))
    return raise(c, MPI_ERR_ROOT, "MPI_Bcast", fmt::format("root {} is not a rank", root));
  const datatype& t = splitc::mpi::type(type, "MPI_Bcast");
  if (!t.contiguous() && count > 0) not_in_subset("MPI_Bcast of a derived datatype");
  if (cm.self || count == 0) return MPI_SUCCESS;
  drain_pending_sends();
  splitc::broadcast(std::span<std::byte>(static_cast<std::byte*>(buf), t.size * count),
                    static_cast<splitc::proc_t>(root));
  return MPI_SUCCESS;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm c) {
  const communicator& cm = comm(c, "MPI_Reduce");
  if (root < 0 || root >= comm_size(cm))
    return raise(c, MPI_ERR_ROOT, "MPI_Reduce", fmt::format("root {} is not a rank", root));
  const std::size_t size = splitc::mpi::type(type, "MPI_Reduce").size;
  const bool am_root = comm_rank(cm) == root;
  // Every processor reduces into scratch space; the root keeps the result.
  std::vector<char> scratch(size * static_cast<std::size_t>(std::max(count, 0)));
  const void* from = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (int e = all_reduce(from, scratch.data(), count, type, op, c, "MPI_Reduce")) return e;
  if (am_root && !scratch.empty()) std::memcpy(recvbuf, scratch.data(), scratch.size());
  return MPI_SUCCESS;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm c) {
  return all_reduce(sendbuf, recvbuf, count, type, op, c, "MPI_Allreduce");
}

// From the segment where it has room (landing.hpp): long messages into it are one copy on the
// backends that map their peers' segments.
int MPI_Alloc_mem(MPI_Aint size, intptr_t, void* baseptr) {
  void* p = size >= 0 ? landing_alloc(static_cast<std::size_t>(size)) : nullptr;
  if (p == nullptr)
    return raise(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Alloc_mem",
                 fmt::format("cannot allocate {} bytes", size));
  *static_cast<void**>(baseptr) = p;
  return MPI_SUCCESS;
}

int MPI_Free_mem(void* base) {
  landing_free(base);
  return MPI_SUCCESS;
}

int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* key,
                      void* extra_state) {
  *key = add_keyval({copy_fn, delete_fn, extra_state});
  return MPI_SUCCESS;
}

int MPI_Keyval_free(int* key) {
  drop_keyval(*key);
  *key = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int MPI_Attr_get(MPI_Comm c, int key, void* value, int* flag) {
  auto& attributes = comm(c, "MPI_Attr_get").attributes;
  auto it = attributes.find(key);
  *flag = it != attributes.end();
  if (*flag) *static_cast<void**>(value) = it->second;
  return MPI_SUCCESS;
}

int MPI_Attr_put(MPI_Comm c, int key, void* value) {
  if (find_keyval(key) == nullptr)
    return raise(c, MPI_ERR_ARG, "MPI_Attr_put", fmt::format("no attribute key {}", key));
  comm(c, "MPI_Attr_put").attributes[key] = value;
  return MPI_SUCCESS;
}

int MPI_Attr_delete(MPI_Comm c, int key) {
  auto& attributes = comm(c, "MPI_Attr_delete").attributes;
  auto it = attributes.find(key);
  if (it == attributes.end()) return MPI_SUCCESS;
  if (keyval* k = find_keyval(key); k != nullptr && k->erase != MPI_NULL_DELETE_FN)
    k->erase(c, key, it->second, k->extra);
  attributes.erase(it);
  return MPI_SUCCESS;
}

int MPI_Type_struct(int count, int* blocklengths, MPI_Aint* displacements, MPI_Datatype* types,
                    MPI_Datatype* newtype) {
  datatype t;
  t.committed = false;
  std::ptrdiff_t upper = 0;
  bool explicit_upper = false;
  for (int i = 0; i < count; ++i) {
    if (types[i] == MPI_UB) {
      upper = displacements[i];
      explicit_upper = true;
      continue;
    }
    if (types[i] == MPI_LB) continue;
    const datatype& element = splitc::mpi::type(types[i], "MPI_Type_struct");
    for (int k = 0; k < blocklengths[i]; ++k)
      for (const auto& [offset, length] : element.blocks) {
        const std::ptrdiff_t at = displacements[i] + k * element.extent + offset;
        if (!t.blocks.empty() && t.blocks.back().first +
                                         static_cast<std::ptrdiff_t>(t.blocks.back().second) == at)
          t.blocks.back().second += length;  // adjacent: one block
        else
          t.blocks.push_back({at, length});
        t.size += length;
        if (!explicit_upper)
          upper = std::max(upper, at + static_cast<std::ptrdiff_t>(length));
      }
  }
  t.extent = upper;
  *newtype = add_type(std::move(t));
  return MPI_SUCCESS;
}

int MPI_Type_commit(MPI_Datatype*) { return MPI_SUCCESS; }

int MPI_Type_free(MPI_Datatype* type) {
  if (*type < 100)
    return raise(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free", "a predefined datatype");
  drop_type(*type);
  *type = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

int MPI_Type_size(MPI_Datatype type, int* size) {
  *size = static_cast<int>(splitc::mpi::type(type, "MPI_Type_size").size);
  return MPI_SUCCESS;
}

}  // extern "C"
