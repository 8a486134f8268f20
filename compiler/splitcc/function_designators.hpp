// A function where a global or spread pointer is expected (`int *global p =
// g;`, `bulk_put(g, 0, 4)`, `spread_free(g)`, or a misspelt name Clang's typo
// correction takes for a function). Clang 14 crashes diagnosing such an
// initialization (Sema::DiagnoseAssignmentResult takes the pointee of the
// function's own, undecayed type when the address spaces differ), so the
// translator runs its parse under crash recovery and, after a crash, parses
// the same text again with the two qualifiers spelt as type attributes that
// change no conversion (`designator_prelude`): no address spaces, no crash.
// This pass then finds the function designators that meet a global or spread
// pointer in that parse, for diagnostics in the C compiler's format.
#pragma once

#include <clang/AST/ASTContext.h>

#include <cstddef>
#include <string>
#include <vector>

namespace splitcc {

/// The prelude's two macro lines for the designator parse: `__SCG_` and
/// `__SCS_` as attributes Clang keeps on the type and that convert freely.
extern const char* const designator_prelude;

struct designator_error {
  std::size_t offset;   // of the function's name, in the parsed text
  std::string message;  // types in Clang's spelling of the prelude's macros
};

/// Every function designator converted to a pointer whose pointee carries
/// the global or spread marker: initializers, arguments, returns and
/// assignments, one error per place, in order of position.
std::vector<designator_error> find_function_designators(clang::ASTContext& ctx);

}  // namespace splitcc
