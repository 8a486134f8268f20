// Function designators that meet a global or spread pointer
// (function_designators.hpp): found in the designator parse, where `__SCG_`
// is `noderef` and `__SCS_` is `btf_type_tag`, attributes that stay on the
// pointee's type and let every pointer convert as a plain one would.
#include "function_designators.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <map>

namespace splitcc {

// Both lines keep the names the translation's messages expect (`__SCG_ int
// (*)` reads back as `int *global`).
const char* const designator_prelude =
    "#define __SCG_ __attribute__((noderef))\n"
    "#define __SCS_ __attribute__((btf_type_tag(\"spread\")))\n";

namespace {

using namespace clang;

enum class marker { none, global, spread };

/// Which marker the pointee of pointer type `t` carries, through typedefs
/// and other attributes.
marker pointee_marker(QualType t) {
  const auto* p = t.isNull() ? nullptr : t->getAs<PointerType>();
  if (p == nullptr) return marker::none;
  const Type* ty = p->getPointeeType().getTypePtr();
  while (ty != nullptr) {
    if (const auto* a = dyn_cast<AttributedType>(ty)) {
      if (a->getAttrKind() == attr::NoDeref) return marker::global;
      if (a->getAttrKind() == attr::BTFTypeTag) return marker::spread;
      ty = a->getModifiedType().getTypePtr();
      continue;
    }
    const QualType next = ty->getLocallyUnqualifiedSingleStepDesugaredType();
    if (next.getTypePtr() == ty) break;
    ty = next.getTypePtr();
  }
  return marker::none;
}

/// The function `e` designates (through parentheses and its decay to a
/// pointer), or null.
const FunctionDecl* designated_function(const Expr* e) {
  if (e == nullptr) return nullptr;
  e = e->IgnoreParens();
  if (const auto* c = dyn_cast<ImplicitCastExpr>(e); c && c->getCastKind() == CK_FunctionToPointerDecay)
    e = c->getSubExpr()->IgnoreParens();
  const auto* ref = dyn_cast<DeclRefExpr>(e);
  return ref != nullptr ? dyn_cast<FunctionDecl>(ref->getDecl()) : nullptr;
}

class finder : public RecursiveASTVisitor<finder> {
 public:
  explicit finder(ASTContext& ctx) : ctx_(ctx) {}
  std::vector<designator_error> take() {
    std::vector<designator_error> out;
    for (auto& [offset, message] : found_) out.push_back({offset, std::move(message)});
    return out;
  }

  bool TraverseFunctionDecl(FunctionDecl* f) {
    const FunctionDecl* outer = function_;
    function_ = f;
    const bool ok = RecursiveASTVisitor::TraverseFunctionDecl(f);
    function_ = outer;
    return ok;
  }
  // An incompatible conversion: the cast Clang adds has the destination's type.
  bool VisitImplicitCastExpr(ImplicitCastExpr* c) {
    if (c->getCastKind() != CK_FunctionToPointerDecay) check(c->getType(), c->getSubExpr());
    return true;
  }
  // A compatible one (`void (*global q)(void) = g;`) has no such cast.
  bool VisitVarDecl(VarDecl* v) {
    if (v->hasInit()) check(v->getType(), v->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr* call) {
    const QualType callee = call->getCallee()->getType();
    const auto* pointer = callee->getAs<PointerType>();
    const auto* proto = (pointer ? pointer->getPointeeType() : callee)->getAs<FunctionProtoType>();
    if (proto == nullptr) return true;
    for (unsigned i = 0; i < call->getNumArgs() && i < proto->getNumParams(); ++i)
      check(proto->getParamType(i), call->getArg(i));
    return true;
  }
  bool VisitReturnStmt(ReturnStmt* r) {
    if (function_ != nullptr) check(function_->getReturnType(), r->getRetValue());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator* b) {
    if (b->getOpcode() == BO_Assign) check(b->getLHS()->getType(), b->getRHS());
    return true;
  }

 private:
  void check(QualType to, const Expr* from) {
    const marker m = pointee_marker(to);
    const FunctionDecl* f = designated_function(from);
    if (m == marker::none || f == nullptr) return;
    const SourceManager& sm = ctx_.getSourceManager();
    const SourceLocation at = sm.getExpansionLoc(from->IgnoreParenImpCasts()->getBeginLoc());
    if (!sm.isWrittenInMainFile(at)) return;
    PrintingPolicy policy(ctx_.getLangOpts());
    found_.emplace(sm.getFileOffset(at),
                   "function '" + f->getNameAsString() + "' cannot be converted to the " +
                       (m == marker::global ? "global" : "spread") + " pointer type '" +
                       to.getAsString(policy) + "': global and spread pointers point to data");
  }

  ASTContext& ctx_;
  const FunctionDecl* function_ = nullptr;
  std::map<std::size_t, std::string> found_;  // by offset: one error per place
};

}  // namespace

std::vector<designator_error> find_function_designators(ASTContext& ctx) {
  finder f(ctx);
  f.TraverseDecl(ctx.getTranslationUnitDecl());
  return f.take();
}

}  // namespace splitcc
