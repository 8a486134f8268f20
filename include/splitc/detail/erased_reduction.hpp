// Reductions and scans compiled once per element size, not once per element type and operator
// (issue 37): the public calls (collectives.hpp, exchanges.hpp, split_phase_collectives.hpp)
// check, sign and try the layer's own collective with the real type, then run the algorithm
// (detail/collective_algorithms.hpp) on cells of the element's size and alignment with an
// operator that combines a whole run of them through one function of the real type. The
// algorithm, its messages and its order of combining are the same as with the real type, so
// are the results; what a program pays is one indirect call per message's run of elements.
// The C interface's typed names do the same with their own stateless operators
// (src/c_reductions.hpp).
#pragma once

#include <splitc/detail/collective_algorithms.hpp>

#include <cstddef>
#include <span>

namespace splitc::detail {

/// An element of N bytes, aligned as the type it stands for.
template <std::size_t N, std::size_t A>
struct alignas(A) erased_cell {
  unsigned char bytes[N];
};

/// acc = acc op in (in op acc with `in_first`) over `count` elements, `op` the operator object.
using erased_combine_fn = void (*)(const void* op, void* acc, const unsigned char* in,
                                   std::size_t count, bool in_first);
/// Each element turned into its truth value (the logical operators' `truth`).
using erased_prepare_fn = void (*)(void* data, std::size_t count);

/// The functions of the real type behind an operator on cells: one constant table per type
/// and operator.
struct erased_functions {
  erased_combine_fn combine;
  erased_prepare_fn prepare;  ///< nullptr: the operator takes values as they are
};

template <class T, class Op>
void combine_typed(const void* op, void* acc, const unsigned char* in, std::size_t count,
                   bool in_first) {
  combine_elements(static_cast<T*>(acc), in, count, *static_cast<Op*>(const_cast<void*>(op)),
                   in_first);
}
template <class T, class Op>
void prepare_typed(void* data, std::size_t count) {
  T* v = static_cast<T*>(data);
  for (std::size_t i = 0; i < count; ++i) v[i] = Op::truth(v[i]);
}
template <class T, class Op>
inline constexpr erased_functions erased_functions_of = {
    &combine_typed<T, Op>, [] {
      if constexpr (requires(T v) { Op::truth(v); }) return &prepare_typed<T, Op>;
      else return static_cast<erased_prepare_fn>(nullptr);
    }()};

/// An operator on cells: the real operator's address and its type's functions (two words,
/// passed in registers). Commutative says whether the real operator is (is_commutative,
/// collectives.hpp).
template <std::size_t N, std::size_t A, bool Commutative>
struct erased_operator {
  const erased_functions* functions;
  const void* op;
  void combine_run(erased_cell<N, A>* acc, const unsigned char* in, std::size_t count,
                   bool in_first) const {
    functions->combine(op, acc, in, count, in_first);
  }
  void prepare_run(erased_cell<N, A>* data, std::size_t count) const {
    if (functions->prepare != nullptr) functions->prepare(data, count);
  }
};

/// Whether a call with T and Op runs on cells: not when the operator combines whole runs
/// itself already (erased_operator, the C interface's).
template <class T, class Op>
inline constexpr bool runs_erased =
    !requires(Op& op, T* acc, const unsigned char* in) { op.combine_run(acc, in, 1, false); };

template <class T>
using cell_for = erased_cell<sizeof(T), alignof(T)>;

template <class T, class Op, bool Commutative>
inline erased_operator<sizeof(T), alignof(T), Commutative> erase_operator(Op& op) {
  return {&erased_functions_of<T, Op>, &op};
}

template <class T>
inline std::span<cell_for<T>> as_cells(std::span<T> s) {
  return {reinterpret_cast<cell_for<T>*>(s.data()), s.size()};
}
template <class T>
inline std::span<const cell_for<T>> as_cells(std::span<const T> s) {
  return {reinterpret_cast<const cell_for<T>*>(s.data()), s.size()};
}

}  // namespace splitc::detail
