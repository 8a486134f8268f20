// The C interface's per-processor variables (splitc.h, splitc_per_processor): the first access
// of a processor through a key, which makes (or finds) that processor's storage and leaves it
// in the key for the inline fast path.
#include <splitc.h>

#include <splitc/detail/context.hpp>
#include <splitc/errors.hpp>
#include <splitc/per_processor.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace splitc::detail {

/// The storage of processor `myproc` of a job of `procs` under `key`, made on its first access.
/// With `shared` (the processors share this process) there is one per processor, otherwise one
/// for the process. The C entry point passes the backend's answer; the unit test passes both.
void* per_processor_storage(splitc_per_processor_key& key, std::size_t size, bool shared,
                            proc_t myproc, proc_t procs) {
  if (size == 0) fail("splitc_per_processor: size 0");
  if (key.size_ != 0 && key.size_ != size)
    fail("splitc_per_processor: the key was first used with {} bytes, now with {}", key.size_,
         size);
  key.size_ = size;
  if (key.copies_ == nullptr) key.copies_ = new std::vector<void*>();
  auto& copies = *static_cast<std::vector<void*>*>(key.copies_);
  const auto slot = shared ? static_cast<std::size_t>(myproc) : 0;
  if (copies.size() <= slot) copies.resize(shared ? std::max(slot + 1, static_cast<std::size_t>(procs)) : 1);
  if (copies[slot] == nullptr) {
    // malloc's alignment suits any standard type; kept until the process exits, like a static.
    void* storage = std::calloc(1, size);
    if (storage == nullptr) fail("splitc_per_processor: out of memory for {} bytes", size);
    if (key.initial != nullptr) std::memcpy(storage, key.initial, size);
    copies[slot] = storage;
  }
  return copies[slot];
}

}  // namespace splitc::detail

extern "C" void* splitc_per_processor_first(splitc_per_processor_key* key, size_t size) {
  const splitc_context_prefix* const running = splitc_current_context;
  if (running == nullptr) splitc::detail::per_processor_outside_job("splitc_per_processor");
  void* mine = splitc::detail::per_processor_storage(
      *key, size, splitc::has_shared_process<splitc::active_backend>, running->myproc,
      running->procs);
  key->storage_ = mine;
  key->proc_ = running->myproc;
  return mine;
}
