// The token-level pre-pass: Split-C's extra syntax mapped onto C that Clang
// parses with types (docs/splitcc.md, "Translation scheme"). It runs on
// preprocessed text and keeps every token's line; columns stay the same
// except after a spread-array declarator on its line.
//
//   T *global p   ->  T (__SCG_* p)    (__SCG_: address_space(1) on the pointee)
//   T *spread p   ->  T (__SCS_* p)    (__SCS_: address_space(2))
//   T **global p  ->  T *__SCG_* p     (a '*' after a '*': no parentheses)
//   x := e        ->  x =  e           (offset of '=' recorded: split-phase)
//   x :- e        ->  x =  e           (offset recorded: signalling store)
//   T a[n][m]::[b] -> T (__SCS_ *a)[m][b]  (dimensions recorded; [1] for m at file scope)
#pragma once

#include <map>
#include <string>
#include <vector>

namespace splitcc {

enum class assign_kind { split_phase, store };

struct spread_declarator {
  std::vector<std::string> spread_dims;  // the dimensions left of '::'
  std::vector<std::string> local_dims;   // the dimensions right of it
};

struct prepass_error {
  std::size_t offset;
  std::string message;
};

/// One replacement made by the pre-pass, in both texts' offsets.
struct text_edit {
  std::size_t out_begin, out_size, src_begin, src_size;
};

struct prepass_result {
  std::string text;
  std::vector<text_edit> edits;                        // in order of position
  std::map<std::size_t, assign_kind> assignments;      // offset of '=' -> kind
  std::map<std::size_t, spread_declarator> spreads;    // offset of the name
  std::vector<prepass_error> errors;
};

prepass_result prepass(const std::string& source);

/// The source offset of an offset in the pre-pass's output (inside a
/// replacement: where the replaced text began).
std::size_t source_offset(const prepass_result& pre, std::size_t out);

}  // namespace splitcc
