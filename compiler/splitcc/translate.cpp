// The AST pass (translate.hpp). Types decide everything: an lvalue whose
// type is qualified with address space 1 (global) or 2 (spread) lives in
// global memory; a pointer to such a type is a global or spread pointer and
// becomes __globPtrType. Expressions are re-emitted bottom-up as text: a
// node that involves none of these keeps its source text, the others are
// replaced (docs/splitcc.md, "Translation scheme").
#include "translate.hpp"

#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/AddressSpaces.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <map>
#include <optional>

namespace splitcc {
namespace {

using namespace clang;

const char* const placeholder_name = "__splitcc_GP_";

class translator : public RecursiveASTVisitor<translator> {
 public:
  translator(ASTContext& ctx, Rewriter& rw, const translation_input& in)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), rw_(&rw), in_(in),
        policy_(ctx.getLangOpts()) {
    policy_.SuppressTagKeyword = false;
    for (Decl* d : ctx.getTranslationUnitDecl()->decls())
      if (auto* td = dyn_cast<TypedefDecl>(d); td && td->getName() == placeholder_name)
        placeholder_ = ctx.getTypedefType(td);
    error_id_ = ctx.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0");
  }

  std::string run() {
    TraverseDecl(ctx_.getTranslationUnitDecl());
    rewrite_declarations();
    return trailer_ + pointer_inits_;
  }

  bool shouldVisitImplicitCode() const { return false; }

  // ---- traversal: declarations are collected, expressions are roots ----

  bool TraverseDecl(Decl* d) {
    if (d == nullptr) return true;
    if (!isa<TranslationUnitDecl>(d) && skipped(d->getLocation())) return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }
  bool VisitDeclaratorDecl(DeclaratorDecl* d) {
    if (isa<FunctionDecl>(d)) return visit_function(cast<FunctionDecl>(d));
    if (isa<VarDecl>(d) || isa<FieldDecl>(d)) decls_.push_back(d);
    // A static global pointer initialized with anything but NULL: the
    // conversion is no constant expression, so it runs at start-up.
    if (auto* v = dyn_cast<VarDecl>(d); v && v->hasGlobalStorage() && v->hasInit()) {
      if (const ChooseExpr* later = deferred(v->getInit()); later && !gp(v->getType()))
        error(later->getLHS()->IgnoreParens()->getBeginLoc(), "initializer element is not a compile-time constant");
      else if (gp(v->getType()) && (deferred(v->getInit()) || !v->getInit()->IgnoreParenImpCasts()->isNullPointerConstant(
                                                                   ctx_, Expr::NPC_ValueDependentIsNull)))
        startup_inits_[v->getInit()] = v;
    }
    return true;
  }
  bool VisitTagDecl(TagDecl* d) {
    if (d->isEmbeddedInDeclarator() && d->isCompleteDefinition() && !skipped(d->getLocation())) {
      embedded_tags_[offset(d->getBeginLoc())] = end_offset(d->getBraceRange().getEnd());
      // `typedef struct { ... } *global P;`: the struct has no name to print.
      if (d->getIdentifier() == nullptr && d->getTypedefNameForAnonDecl() == nullptr && in_.unnamed_tags)
        in_.unnamed_tags->push_back(end_offset(d->getBeginLoc()));
    }
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl* d) {
    decls_.push_back(d);
    return true;
  }
  bool TraverseStmt(Stmt* s) {
    if (s == nullptr) return true;
    if (auto* e = dyn_cast<Expr>(s)) {
      root(e);
      return true;
    }
    return RecursiveASTVisitor::TraverseStmt(s);
  }

 private:
  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
  Rewriter* rw_;  // the file's, or a statement expression's own (statement_expression)
  const translation_input& in_;
  PrintingPolicy policy_;
  QualType placeholder_;
  unsigned error_id_;
  std::vector<Decl*> decls_;
  std::map<const Expr*, const VarDecl*> startup_inits_;
  std::map<std::size_t, std::size_t> embedded_tags_;  // `struct s {...} *global p;`: begin -> after '}'
  std::string trailer_, pointer_inits_;
  std::map<const Expr*, bool> needs_cache_;
  int unique_ = 0;

  // ---- locations and text ----

  std::size_t offset(SourceLocation l) const { return sm_.getFileOffset(sm_.getExpansionLoc(l)); }
  bool skipped(SourceLocation l) const {
    if (l.isInvalid()) return true;
    const SourceLocation e = sm_.getExpansionLoc(l);
    if (sm_.getFileID(e) != sm_.getMainFileID()) return true;
    if (sm_.isInSystemHeader(e)) return true;
    const std::size_t o = offset(e);
    return o >= in_.skip_begin && o < in_.skip_end;
  }
  std::size_t end_offset(SourceLocation l) const {  // just past the token at l
    const SourceLocation e = sm_.getExpansionLoc(l);
    return offset(e) + Lexer::MeasureTokenLength(e, sm_, lo_);
  }
  std::string text(SourceRange r) const {
    const std::size_t b = offset(r.getBegin()), e = end_offset(r.getEnd());
    const StringRef buf = sm_.getBufferData(sm_.getMainFileID());
    return e > b ? buf.substr(b, e - b).str() : std::string();
  }
  void error(SourceLocation l, const std::string& msg) {
    ctx_.getDiagnostics().Report(sm_.getExpansionLoc(l), error_id_) << msg;
  }
  std::string fresh(const char* stem) { return std::string(stem) + std::to_string(++unique_); }

  // ---- types ----

  static bool ours(LangAS as) {
    return as == getLangASFromTargetAS(1) || as == getLangASFromTargetAS(2);
  }
  static bool spread_as(LangAS as) { return as == getLangASFromTargetAS(2); }
  /// The address space of an object type (an array's: its elements').
  LangAS space(QualType t) const { return ctx_.getBaseElementType(t).getAddressSpace(); }
  /// A global or spread pointer.
  bool gp(QualType t) const {
    if (const auto* p = t->getAs<PointerType>()) return ours(space(p->getPointeeType()));
    return false;
  }
  bool spread_ptr(QualType t) const {
    return gp(t) && spread_as(space(t->getAs<PointerType>()->getPointeeType()));
  }
  bool remote(const Expr* e) const { return e->isGLValue() && ours(space(e->getType())); }
  QualType pointee(QualType t) const { return t->getAs<PointerType>()->getPointeeType(); }

  /// Whether the type as written (typedef names not looked through) holds
  /// a global or spread pointer.
  bool involves(QualType t) const {
    if (t.isNull()) return false;
    const Type* ty = t.getTypePtr();
    if (isa<TypedefType>(ty)) return false;
    if (const auto* p = dyn_cast<PointerType>(ty))
      return ours(space(p->getPointeeType())) || involves(p->getPointeeType());
    if (const auto* a = dyn_cast<ArrayType>(ty)) return involves(a->getElementType());
    if (const auto* f = dyn_cast<FunctionProtoType>(ty)) {
      if (involves(f->getReturnType())) return true;
      for (QualType p : f->getParamTypes())
        if (involves(p)) return true;
      return false;
    }
    if (const auto* f = dyn_cast<FunctionNoProtoType>(ty)) return involves(f->getReturnType());
    if (isa<ElaboratedType>(ty) || isa<ParenType>(ty) || isa<MacroQualifiedType>(ty) ||
        isa<AttributedType>(ty) || isa<TypeOfType>(ty) || isa<TypeOfExprType>(ty))
      return involves(t.getSingleStepDesugaredType(ctx_));
    return false;
  }

  /// The type with every global or spread pointer replaced by the
  /// placeholder (printed as __globPtrType) and address spaces dropped.
  QualType lower(QualType t) const {
    SplitQualType sq = t.split();
    Qualifiers q = sq.Quals;
    q.removeAddressSpace();
    const Type* ty = sq.Ty;
    QualType base;
    if (isa<TypedefType>(ty)) {
      base = QualType(ty, 0);
    } else if (const auto* p = dyn_cast<PointerType>(ty)) {
      base = ours(space(p->getPointeeType())) ? placeholder_
                                                         : ctx_.getPointerType(lower(p->getPointeeType()));
    } else if (const auto* a = dyn_cast<ConstantArrayType>(ty)) {
      base = ctx_.getConstantArrayType(lower(a->getElementType()), a->getSize(), a->getSizeExpr(),
                                       a->getSizeModifier(), a->getIndexTypeCVRQualifiers());
    } else if (const auto* a = dyn_cast<VariableArrayType>(ty)) {
      base = ctx_.getVariableArrayType(lower(a->getElementType()), a->getSizeExpr(),
                                       a->getSizeModifier(), a->getIndexTypeCVRQualifiers(),
                                       a->getBracketsRange());
    } else if (const auto* a = dyn_cast<IncompleteArrayType>(ty)) {
      base = ctx_.getIncompleteArrayType(lower(a->getElementType()), a->getSizeModifier(),
                                         a->getIndexTypeCVRQualifiers());
    } else if (const auto* f = dyn_cast<FunctionProtoType>(ty)) {
      std::vector<QualType> params;
      for (QualType p : f->getParamTypes()) params.push_back(lower(p));
      base = ctx_.getFunctionType(lower(f->getReturnType()), params, f->getExtProtoInfo());
    } else if (const auto* f = dyn_cast<FunctionNoProtoType>(ty)) {
      base = ctx_.getFunctionNoProtoType(lower(f->getReturnType()), f->getExtInfo());
    } else if (const auto* p = dyn_cast<ParenType>(ty)) {
      base = ctx_.getParenType(lower(p->getInnerType()));
    } else if (isa<MacroQualifiedType>(ty) || isa<AttributedType>(ty) ||
               (isa<ElaboratedType>(ty) && involves(QualType(ty, 0)))) {
      return ctx_.getQualifiedType(lower(QualType(ty, 0).getSingleStepDesugaredType(ctx_)), q);
    } else {
      base = QualType(ty, 0);
    }
    return ctx_.getQualifiedType(base, q);
  }
  std::string print(QualType t, const std::string& name = "") const {
    std::string s;
    llvm::raw_string_ostream os(s);
    lower(t).print(os, policy_, name);
    os.flush();
    for (std::size_t at; (at = s.find(placeholder_name)) != std::string::npos;)
      s.replace(at, std::string(placeholder_name).size(), "__globPtrType");
    return s;
  }
  std::string size_of(QualType t) const { return "sizeof(" + print(t) + ")"; }

  /// The seed's family prefix (__i_read, ...) for a type, or "" for the
  /// translation's generic macros.
  std::string family(QualType t) const {
    const auto* b = t.getCanonicalType().getUnqualifiedType()->getAs<BuiltinType>();
    if (b == nullptr) return "";
    switch (b->getKind()) {
      case BuiltinType::Char_S: case BuiltinType::Char_U: return "c";
      case BuiltinType::Short: return "sh";
      case BuiltinType::Int: return "i";
      case BuiltinType::Float: return "f";
      case BuiltinType::Double: return "d";
      case BuiltinType::LongLong: return "ll";
      default: return "";
    }
  }
  std::string read(QualType t, const std::string& a) const {
    const std::string f = family(t);
    return f.empty() ? "SPLITCC_READ(" + print(t) + ", " + a + ")" : "__" + f + "_read(" + a + ")";
  }
  std::string access(const char* op, QualType t, const std::string& a, const std::string& v) const {
    const std::string f = family(t);
    std::string up = op;
    for (auto& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return f.empty() ? "SPLITCC_" + up + "(" + print(t) + ", " + a + ", " + v + ")"
                     : "__" + f + "_" + op + "(" + a + ", " + v + ")";
  }

  // ---- spread arrays ----

  struct origin {
    const spread_declarator* decl;
    const ValueDecl* var;
    unsigned depth;  // how many spread dimensions have been indexed
  };
  const spread_declarator* spread_decl(const ValueDecl* v) const {
    if (v == nullptr || skipped(v->getLocation())) return nullptr;
    if (auto it = in_.pre->spreads.find(offset(v->getLocation())); it != in_.pre->spreads.end())
      return &it->second;
    // Declared with a typedef of a spread-array type (`typedef int row_t[n]::; row_t A;`).
    for (QualType t = v->getType(); const auto* tt = t->getAs<TypedefType>();
         t = tt->getDecl()->getUnderlyingType()) {
      const TypedefNameDecl* td = tt->getDecl();
      if (skipped(td->getLocation())) break;
      if (auto it = in_.pre->spreads.find(offset(td->getLocation())); it != in_.pre->spreads.end())
        return &it->second;
    }
    return nullptr;
  }
  /// Where a pointer value comes from, when it is a spread array's (a
  /// pointer into its spread dimensions: arithmetic in whole blocks).
  std::optional<origin> origin_of(const Expr* p) const {
    p = p->IgnoreParens();
    const auto* ic = dyn_cast<ImplicitCastExpr>(p);
    if (ic == nullptr) return std::nullopt;
    const Expr* sub = ic->getSubExpr()->IgnoreParens();
    if (ic->getCastKind() == CK_LValueToRValue) {
      if (const auto* dr = dyn_cast<DeclRefExpr>(sub))
        if (const auto* d = spread_decl(dr->getDecl())) return origin{d, dr->getDecl(), 0};
      return std::nullopt;
    }
    if (ic->getCastKind() == CK_ArrayToPointerDecay) {
      if (const auto* as = dyn_cast<ArraySubscriptExpr>(sub))
        if (auto o = origin_of(as->getBase()); o && o->depth + 1 < o->decl->spread_dims.size())
          return origin{o->decl, o->var, o->depth + 1};
    }
    return std::nullopt;
  }
  /// Blocks per step at a depth: the product of the spread dimensions after it.
  std::string stride(const origin& o) const {
    std::string s;
    for (std::size_t d = o.depth + 1; d < o.decl->spread_dims.size(); ++d)
      s += (s.empty() ? "" : " * ") + std::string("(") + o.decl->spread_dims[d] + ")";
    return s.empty() ? "1" : s;
  }
  /// The block (the elements right of the spreader) of a spread array variable.
  QualType block_type(const ValueDecl* v, const spread_declarator& d) const {
    QualType t = pointee(v->getType());
    for (std::size_t i = 1; i < d.spread_dims.size(); ++i) t = ctx_.getAsArrayType(t)->getElementType();
    return t;
  }
  std::string block_count(const spread_declarator& d) const {
    std::string s;
    for (const auto& dim : d.spread_dims) s += (s.empty() ? "" : " * ") + std::string("(") + dim + ")";
    return s;
  }

  // ---- expressions ----

  bool needs(const Expr* e) {
    if (e == nullptr) return false;
    if (auto it = needs_cache_.find(e); it != needs_cache_.end()) return it->second;
    bool n = gp(e->getType()) || remote(e) || marked(e) || locality_call(e) || isa<StmtExpr>(e);
    if (const auto* c = dyn_cast<CastExpr>(e); c && !n) n = gp(c->getSubExpr()->getType());
    if (const auto* u = dyn_cast<UnaryExprOrTypeTraitExpr>(e); u && !n)
      n = involves(u->getTypeOfArgument()) || ours(space(u->getTypeOfArgument()));
    if (const auto* dr = dyn_cast<DeclRefExpr>(e); dr && !n) n = spread_decl(dr->getDecl()) != nullptr;
    if (!n)
      for (const Stmt* c : e->children())
        if (const auto* ce = dyn_cast_or_null<Expr>(c); ce && needs(ce)) {
          n = true;
          break;
        }
    needs_cache_[e] = n;
    return n;
  }
  std::optional<assign_kind> assignment_kind(const BinaryOperator* b) const {
    if (b->getOpcode() != BO_Assign) return std::nullopt;
    auto it = in_.pre->assignments.find(offset(b->getOperatorLoc()));
    if (it == in_.pre->assignments.end()) return std::nullopt;
    return it->second;
  }
  bool marked(const Expr* e) const {
    const auto* b = dyn_cast<BinaryOperator>(e);
    return b != nullptr && assignment_kind(b).has_value();
  }

  void root(Expr* e) {
    // Not skipped() here: a macro of a system header (NULL) is marked as
    // system-header text by the preprocessor; declarations in system
    // headers are skipped before their expressions are reached.
    const SourceLocation b = sm_.getExpansionLoc(e->getBeginLoc());
    if (b.isInvalid() || sm_.getFileID(b) != sm_.getMainFileID()) return;
    if (offset(b) >= in_.skip_begin && offset(b) < in_.skip_end) return;
    if (!needs(e)) return;
    const SourceRange r = e->getSourceRange();
    const ChooseExpr* later = deferred(e);
    const std::string out = later != nullptr ? emit(later->getLHS()) : emit(e);
    if (auto it = startup_inits_.find(e); it != startup_inits_.end()) {
      initialize_at_startup(it->second, e, out);
      return;
    }
    rw_->ReplaceText(CharSourceRange::getCharRange(sm_.getExpansionLoc(r.getBegin()),
                                                  sm_.getExpansionLoc(r.getEnd()).getLocWithOffset(
                                                      Lexer::MeasureTokenLength(sm_.getExpansionLoc(r.getEnd()), sm_, lo_))),
                    out);
  }

  /// A file-scope initializer the driver deferred (main.cpp, find_deferral):
  /// `__builtin_choose_expr(/*@splitcc-deferred@*/0, (value), 0)`, whose
  /// value is computed at start-up.
  const ChooseExpr* deferred(const Expr* init) const {
    // (IgnoreParenImpCasts would look through the ChooseExpr to its chosen 0.)
    while (const auto* ic = dyn_cast<ImplicitCastExpr>(init)) init = ic->getSubExpr();
    const auto* c = dyn_cast<ChooseExpr>(init);
    if (c == nullptr) return nullptr;
    static const std::string marker = "__builtin_choose_expr(/*@splitcc-deferred@*/";
    const StringRef buf = sm_.getBufferData(sm_.getMainFileID());
    const std::size_t at = offset(c->getBeginLoc());
    return buf.substr(at, marker.size()) == marker ? c : nullptr;
  }

  /// The node's text with the children that need it re-emitted.
  std::string generic(const Expr* e) {
    const SourceRange r = e->getSourceRange();
    std::string s = text(r);
    const std::size_t base = offset(r.getBegin());
    std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>> subs;
    const Expr* node = e;
    if (const auto* il = dyn_cast<InitListExpr>(e); il && il->getSyntacticForm()) node = il->getSyntacticForm();
    for (const Stmt* c : node->children()) {
      const auto* ce = dyn_cast_or_null<Expr>(c);
      if (ce == nullptr || !needs(ce) || ce->getSourceRange().isInvalid()) continue;
      const std::size_t b = offset(ce->getBeginLoc()), en = end_offset(ce->getEndLoc());
      if (b < base || en - base > s.size() || en <= b) continue;
      subs.push_back({{b - base, en - base}, emit(ce)});
    }
    std::sort(subs.begin(), subs.end(), [](auto& a, auto& b) { return a.first.first > b.first.first; });
    for (auto& [range, t] : subs) s.replace(range.first, range.second - range.first, t);
    return s;
  }

  std::string emit(const Expr* e) {
    if (!needs(e)) return text(e->getSourceRange());
    if (const auto* p = dyn_cast<ParenExpr>(e)) return "(" + emit(p->getSubExpr()) + ")";
    if (const auto* ic = dyn_cast<ImplicitCastExpr>(e)) return implicit_cast(ic);
    if (const auto* cc = dyn_cast<CStyleCastExpr>(e)) return explicit_cast(cc);
    if (const auto* u = dyn_cast<UnaryOperator>(e)) return unary(u);
    if (const auto* ca = dyn_cast<CompoundAssignOperator>(e)) return compound(ca);
    if (const auto* b = dyn_cast<BinaryOperator>(e)) return binary(b);
    if (const auto* s = dyn_cast<UnaryExprOrTypeTraitExpr>(e)) {
      if (s->getKind() != UETT_SizeOf && s->getKind() != UETT_AlignOf) return generic(e);
      QualType t = s->getTypeOfArgument();
      if (t->isVariablyModifiedType() && !involves(t)) return generic(e);
      return std::string(s->getKind() == UETT_SizeOf ? "sizeof" : "_Alignof") + "(" + print(t) + ")";
    }
    if (const auto* call = locality_call(e)) return locality(call);
    if (const auto* se = dyn_cast<StmtExpr>(e)) return statement_expression(se);
    if (remote(e) && !isa<DeclRefExpr>(e)) {
      error(e->getBeginLoc(), "this use of a global l-value is not supported by splitcc");
      return text(e->getSourceRange());
    }
    return generic(e);
  }

  /// A GNU statement expression of the program's, `({ int *global p = g; *p; })`:
  /// its statements are translated as a function body's (declarations too)
  /// into a rewriter of their own, whose text is the expression's.
  std::string statement_expression(const StmtExpr* se) {
    Rewriter own(sm_, lo_);
    Rewriter* const outer = rw_;
    std::vector<Decl*> outer_decls;
    rw_ = &own;
    std::swap(decls_, outer_decls);
    RecursiveASTVisitor::TraverseStmt(const_cast<CompoundStmt*>(se->getSubStmt()));
    rewrite_declarations();
    std::swap(decls_, outer_decls);
    rw_ = outer;
    return own.getRewrittenText(SourceRange(sm_.getExpansionLoc(se->getBeginLoc()),
                                            sm_.getExpansionLoc(se->getEndLoc())));
  }

  /// A call of tolocal or toproc, the C interface's (the view declares them
  /// without a prototype, so that any argument reaches the translation).
  const CallExpr* locality_call(const Expr* e) const {
    const auto* call = dyn_cast<CallExpr>(e);
    if (call == nullptr) return nullptr;
    const FunctionDecl* f = call->getDirectCallee();
    if (f == nullptr || !skipped(f->getLocation()) || f->getIdentifier() == nullptr) return nullptr;
    return f->getName() == "tolocal" || f->getName() == "toproc" ? call : nullptr;
  }
  /// tolocal(x), toproc(x): x a global or spread pointer (the seed's use), a
  /// local pointer (this processor's), or an l-value reached through a
  /// global or spread pointer, which stands for its address: tolocal(A[MYPROC])
  /// is tolocal(&A[MYPROC]). A plain value is an error.
  std::string locality(const CallExpr* call) {
    const std::string name = call->getDirectCallee()->getName().str();
    if (call->getNumArgs() != 1) {
      error(call->getBeginLoc(), name + " takes one argument, a global pointer");
      return text(call->getSourceRange());
    }
    const Expr* arg = call->getArg(0);
    if (gp(arg->getType())) return name + "(" + emit(arg) + ")";
    if (arg->getType()->isPointerType()) return name + "(SPLITCC_TO_GLOBAL(" + emit(arg) + "))";
    const Expr* lv = arg->IgnoreParenImpCasts();
    if (remote(lv)) return name + "(" + address(lv) + ")";
    error(arg->getBeginLoc(), name + " needs a global pointer or an l-value reached through one (here '" +
                                  print(lv->getType()) + "', a value)");
    return text(call->getSourceRange());
  }

  std::string implicit_cast(const ImplicitCastExpr* ic) {
    const Expr* sub = ic->getSubExpr();
    switch (ic->getCastKind()) {
      case CK_LValueToRValue:
        if (remote(sub)) return read(sub->getType(), address(sub));
        return emit(sub);
      case CK_ArrayToPointerDecay:
        if (remote(sub)) return address(sub);
        return emit(sub);
      case CK_NullToPointer:
        if (gp(ic->getType())) return "SPLITCC_NULL";
        return emit(sub);
      case CK_PointerToBoolean:
        if (gp(sub->getType())) return "((" + emit(sub) + ").addr != 0)";
        return emit(sub);
      default:
        return convert(sub, ic->getType(), ic->getBeginLoc());
    }
  }
  std::string explicit_cast(const CStyleCastExpr* cc) {
    const Expr* sub = cc->getSubExpr();
    const QualType t = cc->getType();
    if (gp(t) || gp(sub->getType())) return convert(sub, t, cc->getBeginLoc());
    if (t->isVoidType()) return "(void)(" + emit(sub) + ")";
    return "(" + print(t) + ")(" + emit(sub) + ")";
  }
  /// A value of type `to` from `sub` (casts between local, global and spread).
  std::string convert(const Expr* sub, QualType to, SourceLocation loc) {
    const QualType from = sub->getType();
    if (gp(from) && gp(to)) return emit(sub);
    if (!gp(from) && gp(to)) {
      if (sub->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull)) return "SPLITCC_NULL";
      if (!from->isPointerType() && !from->isArrayType() && !from->isFunctionType()) {
        error(loc, "an integer cannot become a global pointer: use toglobal(proc, address)");
        return emit(sub);
      }
      return "SPLITCC_TO_GLOBAL(" + emit(sub) + ")";
    }
    if (gp(from) && !gp(to)) {
      if (to->isBooleanType()) return "((" + emit(sub) + ").addr != 0)";
      if (!to->isPointerType()) {
        error(loc, "a global pointer cannot become an integer: use toproc() and tolocal()");
        return emit(sub);
      }
      return "((" + print(to) + ")tolocal(" + emit(sub) + "))";
    }
    return emit(sub);
  }

  /// The global address (a __globPtrType) of a global l-value.
  std::string address(const Expr* lv) {
    lv = lv->IgnoreParens();
    if (const auto* u = dyn_cast<UnaryOperator>(lv); u && u->getOpcode() == UO_Deref)
      return emit(u->getSubExpr());
    if (const auto* a = dyn_cast<ArraySubscriptExpr>(lv))
      return pointer_add(a->getBase(), emit(a->getBase()), emit(a->getIdx()));
    if (const auto* m = dyn_cast<MemberExpr>(lv)) {
      const auto* fd = dyn_cast<FieldDecl>(m->getMemberDecl());
      if (fd == nullptr || fd->isBitField()) {
        error(m->getMemberLoc(), "a bit-field cannot be reached through a global pointer");
        return "SPLITCC_NULL";
      }
      const Expr* b = m->getBase();
      QualType record = m->isArrow() ? pointee(b->getType()) : b->getType();
      const std::string rec = print(record.getUnqualifiedType());
      if (rec.find("(unnamed") != std::string::npos || rec.find("(anonymous") != std::string::npos) {
        error(m->getMemberLoc(), "a member reached through a global pointer needs a named struct type (a tag or a typedef)");
        return "SPLITCC_NULL";
      }
      const std::string base = m->isArrow() ? emit(b) : address(b);
      return "SPLITCC_FIELD(" + base + ", __builtin_offsetof(" + rec + ", " + fd->getNameAsString() + "))";
    }
    if (const auto* ic = dyn_cast<ImplicitCastExpr>(lv)) return address(ic->getSubExpr());
    error(lv->getBeginLoc(), "splitcc cannot take the global address of this expression");
    return "SPLITCC_NULL";
  }

  /// ptr + n for a global or spread pointer expression (its text given).
  std::string pointer_add(const Expr* ptr, const std::string& p, const std::string& n) {
    if (auto o = origin_of(ptr))
      return "splitc_spread_add(" + p + ", (long)(" + n + ") * " + stride(*o) + ", " +
             size_of(block_type(o->var, *o->decl)) + ")";
    const std::string elem = size_of(pointee(ptr->getType()));
    // An array inside one object (a spread array's block, a member array)
    // decays to a pointer with global arithmetic, whatever its space.
    const auto* decay = dyn_cast<ImplicitCastExpr>(ptr->IgnoreParens());
    const bool inside_object = decay != nullptr && decay->getCastKind() == CK_ArrayToPointerDecay;
    if (spread_ptr(ptr->getType()) && !inside_object) return "splitc_spread_add(" + p + ", (long)(" + n + "), " + elem + ")";
    return "splitc_global_add(" + p + ", (long)(" + n + "), " + elem + ")";
  }

  std::string unary(const UnaryOperator* u) {
    const Expr* sub = u->getSubExpr();
    switch (u->getOpcode()) {
      case UO_AddrOf:
        if (remote(sub)) return address(sub);
        return "&" + emit(sub);
      case UO_LNot:
        if (gp(sub->getType())) return "((" + emit(sub) + ").addr == 0)";
        return "!" + emit(sub);
      case UO_PreInc: case UO_PreDec: case UO_PostInc: case UO_PostDec:
        if (remote(sub) || gp(sub->getType()))
          return update(sub, u->isIncrementOp() ? "+" : "-", "1", u->isPostfix() && !discarded(u));
        return generic(u);
      case UO_Deref:
        if (remote(u)) {
          error(u->getBeginLoc(), "this use of a global l-value is not supported by splitcc");
          return text(u->getSourceRange());
        }
        return generic(u);
      default:
        return generic(u);
    }
  }

  /// Is the value of the expression unused (a statement, a for loop's
  /// increment, the left of a comma, or the right of an unused comma)?
  bool discarded(const Expr* e) const {
    const auto parents = ctx_.getParents(*e);
    if (parents.size() != 1) return false;
    if (const auto* pe = parents[0].get<Expr>()) {
      if (isa<ParenExpr>(pe)) return discarded(pe);
      if (const auto* b = dyn_cast<BinaryOperator>(pe); b && b->getOpcode() == BO_Comma)
        return b->getLHS()->IgnoreParens() == e || discarded(b);
      return false;
    }
    if (const auto* f = parents[0].get<ForStmt>()) return f->getInc() == e;
    if (const auto* body = parents[0].get<CompoundStmt>()) {
      // The last statement of a statement expression is its value.
      const auto up = ctx_.getParents(*body);
      return !(up.size() == 1 && up[0].get<StmtExpr>() != nullptr && body->body_back() == e);
    }
    return false;
  }

  /// Read, modify, write: `sub op= rhs` (or ++/--), on a global l-value or
  /// on a local variable holding a global pointer; `rhs` is the right
  /// operand's text ("1" for ++/--), `post` asks for the old value.
  std::string update(const Expr* sub, const std::string& op, const std::string& rhs, bool post) {
    const QualType t = sub->getType();
    const std::string v = fresh("splitcc_v"), a = fresh("splitcc_a"), old = fresh("splitcc_o");
    std::string next;
    if (gp(t)) {
      if (op != "+" && op != "-") {
        error(sub->getBeginLoc(), "only + and - apply to a global pointer");
        return text(sub->getSourceRange());
      }
      next = v + " = " + pointer_add(sub, v, op == "-" ? "-(" + rhs + ")" : rhs) + ";";
    } else {
      next = v + " " + op + "= (" + rhs + ");";
    }
    const std::string keep = post ? " __typeof__(" + v + ") " + old + " = " + v + ";" : "";
    const std::string result = post ? old : v;
    if (remote(sub)) {
      return "(__extension__({ __globPtrType " + a + " = " + address(sub) + "; " + print(t) + " " + v +
             " = " + read(t, a) + ";" + keep + " " + next + " " + access("write", t, a, v) + "; " + result + "; }))";
    }
    // A local variable holding a global pointer: plain assignments.
    if (const auto* dr = dyn_cast<DeclRefExpr>(sub->IgnoreParens()); dr && !post)
      return "(" + text(dr->getSourceRange()) + " = " + pointer_add(sub, text(dr->getSourceRange()), op == "-" ? "-(" + rhs + ")" : rhs) + ")";
    // Any other local l-value holding a global pointer.
    return "(__extension__({ __globPtrType *" + a + " = &(" + emit(sub) + "); __globPtrType " + v + " = *" + a +
           ";" + keep + " " + next + " *" + a + " = " + v + "; " + result + "; }))";
  }

  std::string compound(const CompoundAssignOperator* c) {
    const Expr* lhs = c->getLHS();
    if (!remote(lhs) && !gp(lhs->getType())) return generic(c);
    std::string op = BinaryOperator::getOpcodeStr(c->getOpcode()).str();
    op.pop_back();  // "+=" -> "+"
    return update(lhs, op, emit(c->getRHS()), false);
  }

  /// Does the expression read global memory?
  bool reads_remote(const Expr* e) const {
    if (const auto* ic = dyn_cast<ImplicitCastExpr>(e);
        ic && ic->getCastKind() == CK_LValueToRValue && remote(ic->getSubExpr()))
      return true;
    for (const Stmt* c : e->children())
      if (const auto* ce = dyn_cast_or_null<Expr>(c); ce && reads_remote(ce)) return true;
    return false;
  }

  std::string binary(const BinaryOperator* b) {
    const Expr* l = b->getLHS();
    const Expr* r = b->getRHS();
    const BinaryOperatorKind op = b->getOpcode();
    if (op == BO_Assign) return assign(b);
    const bool lp = gp(l->getType()), rp = gp(r->getType());
    if (op == BO_Add && (lp || rp)) return lp ? pointer_add(l, emit(l), emit(r)) : pointer_add(r, emit(r), emit(l));
    if (op == BO_Sub && lp && !rp) return pointer_add(l, emit(l), "-(" + emit(r) + ")");
    if (op == BO_Sub && lp && rp) {
      const std::string elem = size_of(pointee(l->getType()));
      if (spread_ptr(l->getType()))
        return "splitc_spread_diff(" + emit(l) + ", " + emit(r) + ", " + elem + ")";
      return "SPLITCC_GLOBAL_DIFF(" + emit(l) + ", " + emit(r) + ", " + elem + ")";
    }
    if ((b->isEqualityOp() || b->isRelationalOp()) && (lp || rp)) {
      const std::string opstr = BinaryOperator::getOpcodeStr(op).str();
      if (b->isEqualityOp())
        return std::string(op == BO_NE ? "!" : "") + "SPLITCC_EQ(" + emit(l) + ", " + emit(r) + ")";
      if (spread_ptr(l->getType()))
        return "(splitc_spread_diff(" + emit(l) + ", " + emit(r) + ", " + size_of(pointee(l->getType())) +
               ") " + opstr + " 0)";
      return "((char *)(" + emit(l) + ").addr " + opstr + " (char *)(" + emit(r) + ").addr)";
    }
    return generic(b);
  }

  std::string assign(const BinaryOperator* b) {
    const Expr* l = b->getLHS();
    const Expr* r = b->getRHS();
    const auto kind = assignment_kind(b);
    const QualType t = l->getType();
    if (!kind) {
      if (remote(l)) return access("write", t, address(l), emit(r));
      return emit(l) + " = " + emit(r);
    }
    if (*kind == assign_kind::store) {
      if (!remote(l)) {
        error(b->getOperatorLoc(), "the left-hand side of a signalling store ':-' must be a global l-value");
        return text(b->getSourceRange());
      }
      if (reads_remote(r)) {
        error(r->getBeginLoc(), "the right-hand side of a signalling store ':-' must be local: read the global value into a local variable first");
        return text(b->getSourceRange());
      }
      return "(void)" + access("store", t, address(l), emit(r));
    }
    if (remote(l)) return "(void)" + access("put", t, address(l), emit(r));
    // A get: the right-hand side is a global l-value read.
    const Expr* src = r->IgnoreParens();
    while (const auto* ic = dyn_cast<ImplicitCastExpr>(src)) {
      if (ic->getCastKind() == CK_LValueToRValue) break;
      src = ic->getSubExpr()->IgnoreParens();
    }
    const auto* rd = dyn_cast<ImplicitCastExpr>(src);
    if (rd == nullptr || rd->getCastKind() != CK_LValueToRValue || !remote(rd->getSubExpr())) {
      error(b->getOperatorLoc(), "a split-phase assignment ':=' needs a global l-value on one side (a put 'g := e' or a get 'l := *g')");
      return text(b->getSourceRange());
    }
    const Expr* g = rd->getSubExpr();
    if (!ctx_.hasSameUnqualifiedType(ctx_.removeAddrSpaceQualType(g->getType()), t)) {
      error(b->getOperatorLoc(), "a split-phase get ':=' copies the object: both sides need the same type (here '" +
                                     print(t) + "' and '" + print(g->getType()) + "')");
      return text(b->getSourceRange());
    }
    return "(void)" + access("get", t, "&(" + emit(l) + ")", address(g));
  }

  // ---- declarations ----

  bool visit_function(FunctionDecl* f) {
    if (skipped(f->getLocation())) return true;
    if (involves(f->getReturnType())) {
      const SourceRange r = f->getReturnTypeSourceRange();
      const FunctionTypeLoc ftl = f->getFunctionTypeLoc();
      if (r.isValid() && ftl) {
        // `int (__SCG_* f(params))`: the return type's text opens a
        // parenthesis that closes after the parameters; both go.
        const std::size_t b = offset(r.getBegin()), e = end_offset(r.getEnd());
        const StringRef buf = sm_.getBufferData(sm_.getMainFileID());
        int open = 0;
        for (std::size_t i = b; i < e; ++i) open += buf[i] == '(' ? 1 : buf[i] == ')' ? -1 : 0;
        std::size_t i = end_offset(ftl.getRParenLoc());
        const SourceLocation start = sm_.getLocForStartOfFile(sm_.getMainFileID());
        for (; open > 0; --open) {
          while (i < buf.size() && std::isspace(static_cast<unsigned char>(buf[i]))) ++i;
          if (i >= buf.size() || buf[i] != ')') break;
          rw_->RemoveText(start.getLocWithOffset(i), 1);
          ++i;
        }
        rw_->ReplaceText(start.getLocWithOffset(b), e - b, print(f->getReturnType()) + " ");
      }
    }
    if (f->getName() == "splitc_main" && f->doesThisDeclarationHaveABody()) {
      rw_->ReplaceText(sm_.getExpansionLoc(f->getLocation()), std::string("splitc_main").size(), "splitcc_user_main");
      const bool returns = !f->getReturnType()->isVoidType();
      // As C99's main: reaching the closing brace returns 0 (the era's
      // programs declare it with implicit int and return nothing).
      if (f->getReturnType()->isIntegerType())
        if (const auto* body = dyn_cast_or_null<CompoundStmt>(f->getBody()))
          rw_->InsertTextBefore(sm_.getExpansionLoc(body->getRBracLoc()), "return 0; ");
      const std::string call = "splitcc_user_main(" + std::string(f->getNumParams() >= 2 ? "argc, argv" : "") + ")";
      trailer_ += "\n/* splitcc: the entry point runs the spread-array allocations first */\n"
                  "int splitc_main(int argc, char **argv) {\n  (void)argc; (void)argv;\n  splitcc_run_initializers();\n  " +
                  (returns ? "return " + call + ";\n" : call + ";\n  return 0;\n") + "}\n";
    }
    return true;
  }

  struct decl_text {
    std::size_t begin, declarator_end, full_end;
    std::string printed;
    bool rewrite;
    SourceLocation loc;
  };

  std::string storage(const Decl* d) const {
    if (const auto* v = dyn_cast<VarDecl>(d)) {
      std::string s;
      if (v->getStorageClass() == SC_Static) s += "static ";
      if (v->getStorageClass() == SC_Extern) s += "extern ";
      if (v->getStorageClass() == SC_Register) s += "register ";
      if (v->getTSCSpec() == TSCS___thread) s += "__thread ";
      if (v->getTSCSpec() == TSCS__Thread_local) s += "_Thread_local ";
      return s;
    }
    return "";
  }

  void rewrite_declarations() {
    std::vector<decl_text> all;
    for (Decl* d : decls_) {
      if (skipped(d->getLocation())) continue;
      decl_text t{};
      t.loc = d->getLocation();
      t.begin = offset(d->getBeginLoc());
      t.full_end = end_offset(d->getEndLoc());
      QualType type;
      std::string name;
      if (const auto* td = dyn_cast<TypedefNameDecl>(d)) {
        type = td->getUnderlyingType();
        name = td->getNameAsString();
        t.declarator_end = close_parentheses(t.begin, end_offset(td->getLocation()));
        t.rewrite = involves(type);
        t.printed = "typedef " + print(type, name);
      } else {
        const auto* dd = cast<DeclaratorDecl>(d);
        type = dd->getType();
        name = dd->getNameAsString();
        std::size_t e = dd->getLocation().isValid() ? end_offset(dd->getLocation()) : 0;
        if (auto* tsi = dd->getTypeSourceInfo(); tsi && e == 0) e = end_offset(tsi->getTypeLoc().getEndLoc());
        t.declarator_end = close_parentheses(t.begin, e);
        t.rewrite = involves(type);
        t.printed = storage(d) + print(type, name);
        if (const auto* v = dyn_cast<VarDecl>(d))
          if (const auto* sd = spread_decl(v)) {
            const std::string allocation = spread_variable(v, *sd);
            t.printed += allocation;
            t.rewrite |= !allocation.empty();  // a typedef's spread array in a block
          }
      }
      all.push_back(t);
    }
    std::stable_sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.begin < b.begin || (a.begin == b.begin && a.declarator_end < b.declarator_end); });
    const StringRef buf = sm_.getBufferData(sm_.getMainFileID());
    const SourceLocation start = sm_.getLocForStartOfFile(sm_.getMainFileID());
    for (std::size_t i = 0; i < all.size();) {
      std::size_t j = i;
      bool any = false;
      while (j < all.size() && all[j].begin == all[i].begin) any |= all[j++].rewrite;
      if (any) {
        // Several declarators sharing their specifiers: each becomes its
        // own declaration.
        for (std::size_t k = i; k < j; ++k) {
          std::size_t from = all[k].begin;
          std::string repl = all[k].printed;
          if (k == i) {
            // A struct defined in this declaration stays, as its own (without
            // what precedes it: `typedef`, `static`).
            if (auto t = embedded_tags_.lower_bound(from); t != embedded_tags_.end() && t->first < all[k].declarator_end) {
              if (t->first > from) rw_->RemoveText(start.getLocWithOffset(from), t->first - from);
              from = t->second;
              repl = "; " + repl;
            }
          }
          if (k > i) {
            from = buf.find(',', std::max(all[k - 1].declarator_end, all[k - 1].full_end));
            if (from == StringRef::npos || from > all[k].declarator_end) {
              error(all[k].loc, "splitcc cannot split this declaration list: declare it separately");
              continue;
            }
            repl = "; " + repl;
          }
          if (all[k].declarator_end <= from) continue;
          rw_->ReplaceText(start.getLocWithOffset(from), all[k].declarator_end - from, repl);
        }
      }
      i = j;
    }
  }

  /// The end of a declarator extended over the ')' that close parentheses
  /// opened inside it (the pre-pass writes `int (__SCG_* p)`).
  /// After the name: array dimensions, parameter lists and the ')' of
  /// parentheses opened before the name (TypeLoc's end stops at an
  /// attribute, so the declarator's end is found in the text).
  std::size_t close_parentheses(std::size_t begin, std::size_t end) const {
    const StringRef buf = sm_.getBufferData(sm_.getMainFileID());
    int open = 0;
    for (std::size_t i = begin; i < end && i < buf.size(); ++i) open += buf[i] == '(' ? 1 : buf[i] == ')' ? -1 : 0;
    for (;;) {
      std::size_t i = end;
      while (i < buf.size() && std::isspace(static_cast<unsigned char>(buf[i]))) ++i;
      if (i >= buf.size()) break;
      if (buf[i] == '[' || buf[i] == '(') {  // a balanced group
        int depth = 0;
        std::size_t j = i;
        for (; j < buf.size(); ++j) {
          if (buf[j] == '[' || buf[j] == '(') ++depth;
          if ((buf[j] == ']' || buf[j] == ')') && --depth == 0) break;
        }
        end = j + 1;
        continue;
      }
      if (buf[i] == ')' && open > 0) {
        end = i + 1;
        --open;
        continue;
      }
      break;
    }
    return end;
  }

  /// `int *global g = &x;` with static storage: the declaration loses its
  /// initializer, a start-up function (registered like the spread arrays')
  /// assigns it. Inside a function the variable is out of the start-up
  /// function's reach: an error.
  void initialize_at_startup(const VarDecl* v, const Expr* init, const std::string& value) {
    if (!v->isFileVarDecl()) {
      error(init->getBeginLoc(), "a static global pointer inside a function can only be initialized with NULL: assign it in the function");
      return;
    }
    const StringRef buf = sm_.getBufferData(sm_.getMainFileID());
    const std::size_t end = end_offset(init->getEndLoc());
    const std::size_t eq = buf.rfind('=', offset(init->getBeginLoc()));
    if (eq == StringRef::npos) return;
    rw_->RemoveText(sm_.getLocForStartOfFile(sm_.getMainFileID()).getLocWithOffset(eq), end - eq);
    const std::string name = v->getNameAsString();
    // After the spread arrays' allocations (constructors run in the order
    // of the file): the value may point into one of them.
    pointer_inits_ += "\n/* splitcc: " + name + " is initialized at start-up (a global pointer is no constant) */\n"
                "static void splitcc_initialize_" + name + "(void) { " + name + " = " + value + "; }\n"
                "__attribute__((constructor)) static void splitcc_register_init_" + name +
                "(void) {\n  static struct splitcc_initializer node = {splitcc_initialize_" + name +
                ", 0};\n  splitcc_add_initializer(&node);\n}\n";
  }

  /// The spread-array allocation for a variable declared `T a[n]::...`:
  /// text appended to its declarator (locals), or code for the trailer
  /// (file scope).
  std::string spread_variable(const VarDecl* v, const spread_declarator& d) {
    if (isa<ParmVarDecl>(v)) return "";  // the caller's array
    const std::string count = block_count(d), block = size_of(block_type(v, d));
    if (v->hasInit()) error(v->getLocation(), "a spread array cannot have an initializer");
    if (v->isLocalVarDecl() && v->isStaticLocal()) {
      error(v->getLocation(), "a static spread array inside a function is not supported: declare it at file scope");
      return "";
    }
    if (v->isLocalVarDecl())
      return " __attribute__((cleanup(splitcc_free_spread_array))) = all_spread_malloc((int)(" + count + "), (int)" + block + ")";
    if (v->hasExternalStorage() || !v->isThisDeclarationADefinition()) return "";
    const std::string name = v->getNameAsString();
    trailer_ += "\n/* splitcc: " + name + " is a spread array, allocated on every processor at start-up */\n"
                "static void splitcc_allocate_" + name + "(void) { " + name + " = all_spread_malloc((int)(" + count +
                "), (int)" + block + "); }\n"
                "__attribute__((constructor)) static void splitcc_register_" + name +
                "(void) {\n  static struct splitcc_initializer node = {splitcc_allocate_" + name +
                ", 0};\n  splitcc_add_initializer(&node);\n}\n";
    return "";
  }
};

}  // namespace

std::string translate(clang::ASTContext& ctx, clang::Rewriter& rewriter, const translation_input& in) {
  translator t(ctx, rewriter, in);
  return t.run();
}

}  // namespace splitcc
