// The global heap (see spread_heap.hpp). Processor 0 keeps the job-wide
// allocator of symmetric offsets; every processor keeps its own allocator
// for the private top of its segment.
#include <splitc/collectives.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/errors.hpp>
#include <splitc/spread_heap.hpp>

namespace splitc {
namespace detail {
namespace {

constexpr std::size_t heap_alignment = 64;
constexpr am_word no_space = ~am_word{0};

/// Where a waiting processor receives processor 0's answer.
struct heap_answer {
  am_word value = 0;
  bool done = false;
};

std::uintptr_t segment_base(context& c) {
  return reinterpret_cast<std::uintptr_t>(c.backend.segment().base);
}

am_word allocate_symmetric(context& c, std::size_t bytes) {
  const auto offset = c.symmetric_heap.allocate(bytes, heap_alignment);
  return offset ? static_cast<am_word>(*offset) : no_space;
}

void release_symmetric(context& c, std::size_t offset, proc_t requester, const char* what) {
  if (!c.symmetric_heap.release(offset))
    fail("{} from processor {}: address {:#x} is not a live spread-heap allocation (double free?)",
         what, requester, segment_base(c) + offset);
}

// (bytes, answer): allocate on processor 0 and answer.
void on_heap_allocate(const am_message& m) {
  const am_word a[2] = {m.args[1], allocate_symmetric(running(), m.args[0])};
  reply(running(), m, am_kind::short_msg, id(builtin::heap_answer), a, 2);
}
// (offset, answer): free on processor 0 and answer.
void on_heap_free(const am_message& m) {
  release_symmetric(running(), m.args[0], m.source, "spread_free");
  const am_word a[2] = {m.args[1], 0};
  reply(running(), m, am_kind::short_msg, id(builtin::heap_answer), a, 2);
}
// (answer, value)
void on_heap_answer(const am_message& m) {
  auto* answer = reinterpret_cast<heap_answer*>(static_cast<std::uintptr_t>(m.args[0]));
  answer->value = m.args[1];
  answer->done = true;
}

/// Run a heap operation on processor 0 and wait for its answer.
am_word ask_processor_zero(context& c, builtin op, am_word argument, const char* what) {
  heap_answer answer;
  const am_word a[2] = {argument, reinterpret_cast<std::uintptr_t>(&answer)};
  request(c, am_kind::short_msg, 0, id(op), a, 2);
  wait_until(c, what, [&] { return answer.done; });
  return answer.value;
}

std::size_t per_processor_bytes(context& c, std::size_t count, std::size_t size, const char* what) {
  const std::size_t rows = (count + static_cast<std::size_t>(c.procs) - 1) / static_cast<std::size_t>(c.procs);
  if (size != 0 && rows > (std::size_t{1} << 46) / size)
    fail("{}({}, {}): impossible size", what, count, size);
  return rows * size;
}

spread_ptr<void> to_spread(context& c, am_word offset) {
  if (offset == no_space) return nullptr;
  return {0, reinterpret_cast<void*>(segment_base(c) + offset)};
}

std::size_t to_offset(context& c, const void* p, const char* what) {
  // This processor's copy of the place (segments apart: global_ptr.hpp), from its segment's start.
  const auto address = reinterpret_cast<std::uintptr_t>(placed(c.myproc, p));
  const auto base = segment_base(c);
  if (address < base || address - base >= c.backend.segment().size)
    fail("{}: {} is not in the spread heap", what, p);
  return address - base;
}

}  // namespace

void register_heap_handlers(context& c) {
  c.handlers[static_cast<std::size_t>(builtin::heap_allocate)] = on_heap_allocate;
  c.handlers[static_cast<std::size_t>(builtin::heap_free)] = on_heap_free;
  c.handlers[static_cast<std::size_t>(builtin::heap_answer)] = on_heap_answer;
}

void init_heaps(context& c) {
  const std::size_t size = c.backend.segment().size;
  const std::size_t private_bytes = (size - c.reserved_bytes) / 8 & ~std::size_t{65535};
  c.symmetric_heap.reset(c.reserved_bytes, size - private_bytes);
  c.private_heap.reset(size - private_bytes, size);
}

}  // namespace detail

spread_ptr<void> all_spread_malloc(std::size_t count, std::size_t size) {
  auto& c = detail::blocking_context("all_spread_malloc");
  const std::size_t bytes = detail::per_processor_bytes(c, count, size, "all_spread_malloc");
  am_word offset = 0;
  if (c.myproc == 0) offset = detail::allocate_symmetric(c, bytes);
  offset = broadcast(offset, 0);
  return detail::to_spread(c, offset);
}

void all_spread_free(spread_ptr<void> p) {
  auto& c = detail::blocking_context("all_spread_free");
  barrier();  // nobody may still be using it
  if (p == nullptr) return;
  if (c.myproc == 0) detail::release_symmetric(c, detail::to_offset(c, p.address(), "all_spread_free"), 0, "all_spread_free");
  barrier();  // the space may be reused once everyone has returned
}

spread_ptr<void> spread_malloc(std::size_t count, std::size_t size) {
  auto& c = detail::blocking_context("spread_malloc");
  const std::size_t bytes = detail::per_processor_bytes(c, count, size, "spread_malloc");
  if (c.myproc == 0) return detail::to_spread(c, detail::allocate_symmetric(c, bytes));
  return detail::to_spread(
      c, detail::ask_processor_zero(c, detail::builtin::heap_allocate, bytes, "spread_malloc"));
}

void spread_free(spread_ptr<void> p) {
  auto& c = detail::blocking_context("spread_free");
  if (p == nullptr) return;
  const std::size_t offset = detail::to_offset(c, p.address(), "spread_free");
  if (c.myproc == 0) {
    detail::release_symmetric(c, offset, 0, "spread_free");
    return;
  }
  detail::ask_processor_zero(c, detail::builtin::heap_free, offset, "spread_free");
}

global_ptr<void> global_malloc(std::size_t bytes) {
  auto& c = detail::ctx();
  const auto offset = c.private_heap.allocate(bytes, detail::heap_alignment);
  if (!offset) return nullptr;
  return {c.myproc, reinterpret_cast<void*>(detail::segment_base(c) + *offset)};
}

void global_free(global_ptr<void> p) {
  auto& c = detail::ctx();
  if (p == nullptr) return;
  if (p.proc() != c.myproc)
    detail::fail("global_free: {} belongs to processor {}; only its owner may free it", p.address(),
                 p.proc());
  if (!c.private_heap.release(detail::to_offset(c, p.address(), "global_free")))
    detail::fail("global_free: {} is not a live global_malloc allocation (double free?)", p.address());
}

heap_usage heap_statistics() {
  auto& c = detail::ctx();
  return {c.symmetric_heap.bytes_in_use(), c.symmetric_heap.capacity(),
          c.private_heap.bytes_in_use(), c.private_heap.capacity()};
}

}  // namespace splitc
