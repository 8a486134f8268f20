// The AST pass: every expression and declaration whose type involves a
// global or spread pointer, rewritten into calls of the C interface
// (splitc.h) and the translation's own macros (split-c/splitcc-ops.h).
#pragma once

#include "prepass.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <string>
#include <vector>

namespace splitcc {

struct translation_input {
  const prepass_result* pre;        // side tables, offsets in the main buffer
  std::size_t skip_begin, skip_end; // the interface view: not translated
  /// Out: where a struct or union defined in a declarator has no name (just
  /// past its keyword). The translation must name such a type (`offsetof`,
  /// `sizeof`), so the driver inserts a tag there and parses again, and the
  /// output of this round is not used.
  std::vector<std::size_t>* unnamed_tags;
};

/// Rewrites the translation unit in `rewriter`; errors go to the AST
/// context's diagnostics. Returns the code to append at the end of the
/// file (spread-array allocation, the splitc_main wrapper).
std::string translate(clang::ASTContext& ctx, clang::Rewriter& rewriter,
                      const translation_input& in);

}  // namespace splitcc
