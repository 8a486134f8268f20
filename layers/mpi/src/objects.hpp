// The MPI objects of splitc's MPI, per processor: communicators (MPI_COMM_WORLD, MPI_COMM_SELF
// and their duplicates, each with its own context, error handler and attributes), datatypes
// (the predefined ones and MPI_Type_struct's), attribute keys, and the error path.
#pragma once

#include <smpi/mpi.h>

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace splitc::mpi {

struct communicator {
  int context = 0;
  bool self = false;  ///< MPI_COMM_SELF or a duplicate of it: one process, rank 0
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::map<int, void*> attributes;
};

/// A datatype as bytes: contiguous blocks (offset, length) within an extent.
struct datatype {
  std::vector<std::pair<std::ptrdiff_t, std::size_t>> blocks;
  std::size_t size = 0;       ///< bytes of data in one element
  std::ptrdiff_t extent = 0;  ///< the stride between elements
  bool committed = true;
  bool contiguous() const { return blocks.size() == 1 && blocks[0].first == 0 &&
                                   static_cast<std::ptrdiff_t>(blocks[0].second) == extent; }
};

struct keyval {
  MPI_Copy_function* copy = nullptr;
  MPI_Delete_function* erase = nullptr;
  void* extra = nullptr;
};

/// Create and drop the processor's tables (MPI_Init, MPI_Finalize).
void start_objects();
void stop_objects();
bool objects_started();

/// The communicator of a handle; fails (MPI_ERR_COMM) for an unknown one.
communicator& comm(MPI_Comm handle, const char* call);
MPI_Comm add_comm(communicator c);
void drop_comm(MPI_Comm handle);
int new_context();  ///< collective: the next context id, the same on every processor
int comm_size(const communicator& c);
int comm_rank(const communicator& c);
/// A rank of `c` (or a wildcard / MPI_PROC_NULL) as a world rank, and back.
int to_world(const communicator& c, int rank, const char* call, bool wildcard_allowed);
int from_world(const communicator& c, int world_rank);

/// The datatype of a handle; fails (MPI_ERR_TYPE) for an unknown one.
const datatype& type(MPI_Datatype handle, const char* call);
MPI_Datatype add_type(datatype t);
void drop_type(MPI_Datatype handle);

int add_keyval(keyval k);
keyval* find_keyval(int key);
void drop_keyval(int key);

/// The error path: under MPI_ERRORS_ARE_FATAL (the default) end the job with "<call>:
/// <class>: <what>"; under MPI_ERRORS_RETURN return `code`.
int raise(MPI_Comm handle, int code, const char* call, const std::string& what);
/// A case outside this MPI subset: always ends the job ("not in this MPI subset: ...").
[[noreturn]] void not_in_subset(const std::string& what);
const char* error_class_name(int code);

}  // namespace splitc::mpi
