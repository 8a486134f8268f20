// The MPI objects (objects.hpp): per-processor tables of communicators, datatypes and
// attribute keys, and the error path.
#include "objects.hpp"

#include <splitc/errors.hpp>
#include <splitc/per_processor.hpp>
#include <splitc/splitc.hpp>

#include <fmt/format.h>

#include <memory>

namespace splitc::mpi {
namespace {

struct tables {
  std::map<MPI_Comm, communicator> comms;
  MPI_Comm next_comm = 3;
  int next_context = 2;  ///< world 0, self 1
  std::map<MPI_Datatype, datatype> types;
  MPI_Datatype next_type = 100;
  std::map<int, keyval> keys;
  int next_key = 1;
};

splitc::per_processor<std::unique_ptr<tables>> the_tables;

tables& tb() {
  auto& t = the_tables.get();
  if (!t) not_in_subset("an MPI call before MPI_Init or after MPI_Finalize");
  return *t;
}

datatype predefined(std::size_t bytes) {
  datatype t;
  if (bytes > 0) t.blocks.push_back({0, bytes});
  t.size = bytes;
  t.extent = static_cast<std::ptrdiff_t>(bytes);
  return t;
}

}  // namespace

void start_objects() {
  auto t = std::make_unique<tables>();
  communicator world, self;
  world.context = 0;
  self.context = 1;
  self.self = true;
  t->comms[MPI_COMM_WORLD] = world;
  t->comms[MPI_COMM_SELF] = self;
  const std::pair<MPI_Datatype, std::size_t> sizes[] = {
      {MPI_CHAR, 1}, {MPI_BYTE, 1}, {MPI_SHORT, sizeof(short)}, {MPI_INT, sizeof(int)},
      {MPI_LONG, sizeof(long)}, {MPI_FLOAT, sizeof(float)}, {MPI_DOUBLE, sizeof(double)},
      {MPI_UNSIGNED_CHAR, 1}, {MPI_UNSIGNED, sizeof(unsigned)},
      {MPI_UNSIGNED_LONG, sizeof(unsigned long)}, {MPI_LONG_LONG, sizeof(long long)},
      {MPI_PACKED, 1}, {MPI_UB, 0}, {MPI_LB, 0}};
  for (const auto& [handle, bytes] : sizes) t->types[handle] = predefined(bytes);
  the_tables.get() = std::move(t);
}

void stop_objects() { the_tables.get().reset(); }
bool objects_started() { return the_tables.get() != nullptr; }

communicator& comm(MPI_Comm handle, const char* call) {
  auto& comms = tb().comms;
  auto it = comms.find(handle);
  if (it == comms.end()) {
    raise(MPI_COMM_WORLD, MPI_ERR_COMM, call, fmt::format("no communicator {}", handle));
    not_in_subset(fmt::format("{} on an unknown communicator", call));
  }
  return it->second;
}

MPI_Comm add_comm(communicator c) {
  tables& t = tb();
  const MPI_Comm handle = t.next_comm++;
  t.comms[handle] = std::move(c);
  return handle;
}

void drop_comm(MPI_Comm handle) { tb().comms.erase(handle); }
int new_context() { return tb().next_context++; }
int comm_size(const communicator& c) { return c.self ? 1 : static_cast<int>(procs()); }
int comm_rank(const communicator& c) { return c.self ? 0 : static_cast<int>(myproc()); }

int to_world(const communicator& c, int rank, const char* call, bool wildcard_allowed) {
  if (rank == MPI_PROC_NULL) return MPI_PROC_NULL;
  if (rank == MPI_ANY_SOURCE && wildcard_allowed) return MPI_ANY_SOURCE;
  if (rank < 0 || rank >= comm_size(c)) {
    raise(MPI_COMM_WORLD, MPI_ERR_RANK, call,
          fmt::format("rank {} is not in the communicator (size {})", rank, comm_size(c)));
    return MPI_PROC_NULL;
  }
  return c.self ? static_cast<int>(myproc()) : rank;
}

int from_world(const communicator& c, int world_rank) {
  if (world_rank < 0) return world_rank;  // MPI_PROC_NULL, MPI_ANY_SOURCE
  return c.self ? 0 : world_rank;
}

const datatype& type(MPI_Datatype handle, const char* call) {
  auto& types = tb().types;
  auto it = types.find(handle);
  if (it == types.end()) {
    raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, fmt::format("no datatype {}", handle));
    not_in_subset(fmt::format("{} with an unknown datatype", call));
  }
  return it->second;
}

MPI_Datatype add_type(datatype t) {
  tables& tables = tb();
  const MPI_Datatype handle = tables.next_type++;
  tables.types[handle] = std::move(t);
  return handle;
}

void drop_type(MPI_Datatype handle) { tb().types.erase(handle); }

int add_keyval(keyval k) {
  tables& t = tb();
  const int key = t.next_key++;
  t.keys[key] = k;
  return key;
}

keyval* find_keyval(int key) {
  auto& keys = tb().keys;
  auto it = keys.find(key);
  return it == keys.end() ? nullptr : &it->second;
}

void drop_keyval(int key) { tb().keys.erase(key); }

const char* error_class_name(int code) {
  switch (code) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
    case MPI_ERR_TAG: return "MPI_ERR_TAG";
    case MPI_ERR_COMM: return "MPI_ERR_COMM";
    case MPI_ERR_RANK: return "MPI_ERR_RANK";
    case MPI_ERR_REQUEST: return "MPI_ERR_REQUEST";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT";
    case MPI_ERR_OP: return "MPI_ERR_OP";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE";
    case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS";
    case MPI_ERR_OTHER: return "MPI_ERR_OTHER";
    case MPI_ERR_INTERN: return "MPI_ERR_INTERN";
    default: return "MPI_ERR_UNKNOWN";
  }
}

int raise(MPI_Comm handle, int code, const char* call, const std::string& what) {
  MPI_Errhandler handler = MPI_ERRORS_ARE_FATAL;
  if (objects_started()) {
    auto& comms = tb().comms;
    if (auto it = comms.find(handle); it != comms.end()) handler = it->second.errhandler;
  }
  if (handler == MPI_ERRORS_RETURN) return code;
  fatal_error(fmt::format("{}: {}: {}", call, error_class_name(code), what));
}

void not_in_subset(const std::string& what) {
  fatal_error(fmt::format("not in this MPI subset: {}", what));
}

}  // namespace splitc::mpi
