// Recycled memory for the engine's per-message objects: a request per MPI_Isend/MPI_Irecv, an
// incoming record per arriving message, the list nodes that queue them. A window of 64
// nonblocking sends or receives allocates and frees 64 of each at once, more than malloc's
// per-thread cache holds (7 per size), so most went through malloc's slow paths: a third of
// the time of a small message (layers/mpi/README.md, "The small-message rate"). Blocks of one size are
// kept on a per-thread list when freed, up to recycled_keep, and handed out again.
// Per thread, not per processor: the blocks are plain memory, and the sim's processors
// (fibers of one thread) never run at the same time.
//   - a class that derives from recycled<T> takes its memory from them (operator new);
//   - recycling_allocator<T> gives a standard container's nodes from them.
#pragma once

#include <cstddef>
#include <new>

namespace splitc::mpi {

inline constexpr std::size_t recycled_keep = 4096;

/// The per-thread list of free blocks of `Bytes` bytes.
template <std::size_t Bytes>
class recycled_blocks {
 public:
  static void* take() {
    if (list_gone) return ::operator new(Bytes);
    list& l = free_list();
    if (l.head == nullptr) return ::operator new(Bytes);
    block* b = l.head;
    l.head = b->next;
    --l.count;
    return b;
  }
  static void give(void* p) noexcept {
    if (list_gone) {
      ::operator delete(p);
      return;
    }
    list& l = free_list();
    if (l.count >= recycled_keep) {
      ::operator delete(p);
      return;
    }
    l.head = new (p) block{l.head};
    ++l.count;
  }

 private:
  static_assert(Bytes >= sizeof(void*));
  struct block {
    block* next;
  };
  struct list {
    block* head = nullptr;
    std::size_t count = 0;
    ~list() {
      while (head != nullptr) {
        block* next = head->next;
        ::operator delete(static_cast<void*>(head));
        head = next;
      }
      list_gone = true;
    }
  };
  /// Set once this thread's list has been destroyed (at its exit): objects freed later, by
  /// static destructors that run after the thread's, go straight back to the heap.
  static inline thread_local bool list_gone = false;
  static list& free_list() {
    static thread_local list l;
    return l;
  }
};

template <class T>
struct recycled {
  static void* operator new(std::size_t bytes) {
    return bytes == sizeof(T) ? recycled_blocks<sizeof(T)>::take() : ::operator new(bytes);
  }
  static void operator delete(void* p, std::size_t bytes) noexcept {
    if (p == nullptr) return;
    if (bytes == sizeof(T)) {
      recycled_blocks<sizeof(T)>::give(p);
    } else {
      ::operator delete(p);
    }
  }
};

template <class T>
struct recycling_allocator {
  using value_type = T;
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  recycling_allocator() noexcept = default;
  template <class U>
  recycling_allocator(const recycling_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(n == 1 ? recycled_blocks<sizeof(T)>::take()
                                  : ::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n == 1) {
      recycled_blocks<sizeof(T)>::give(p);
    } else {
      ::operator delete(p);
    }
  }
  template <class U>
  bool operator==(const recycling_allocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace splitc::mpi
