/* C++/CUDA front end: lowers libclang's AST into the program model. See cpp.h for the mapping of
 * libtorch spellings onto the Python ones the engine knows. Only the file's own declarations are
 * lowered (headers' contents are types, not code to check). */
#define _GNU_SOURCE
#include "frontend/cpp.h"

#include "frontend/cpp_clang_api.h"
#include <ctype.h>
#include <malloc.h> /* malloc_trim */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/files.h"
#include "core/hash.h"
#include "core/vec.h"
#include "frontend/cpp_crash_guard.h"
#include "frontend/cpp_cuda_compat.h"
#include "frontend/cpp_flags.h"
#include "frontend/cpp_includer.h"
#include "frontend/cpp_launch_spacing.h"
#include "frontend/cpp_missing_header.h"
#include "frontend/cpp_parse_guard.h"
#include "frontend/cpp_pch.h"
#include "frontend/lower_common.h"

typedef DlPtrVec PtrVec;
typedef DL_VEC(CXCursor) CursorVec;
typedef DlCppArgList ArgList;

typedef struct OptionsVar OptionsVar;

typedef struct Lower {
    OptionsVar *options_vars; /* `auto opts = torch::TensorOptions()...` in this function */
    PtrVec lambda_bodies;     /* statements of lambdas met in the statement being lowered */
    const DlSource *src;
    DlArena *arena;
    CXTranslationUnit tu;
    CXFile file;
    DlModuleIR *module;
    DlClass *current_class;
    PtrVec functions;
    PtrVec classes;
    int depth;
    bool break_leaves_switch; /* a `break` here ends a switch's case, not a loop */
} Lower;

enum { MAX_DEPTH = 300 };

/* ---------------------------------------------------------------- small helpers */

static bool has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* libtorch code, or CUDA kernels and their launches; not every file that says "cuda" (a CUDA
 * library's own headers have nothing devlint checks, and often need flags nobody passed). */
bool dl_cpp_is_relevant(const DlSource *src) {
    static const char *const words[] = {"torch", "ATen", "at::", "c10", "__global__", "<<<"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (dl_source_mentions(src, words[i])) return true;
    return false;
}

static char *take(CXString s) {
    const char *c = clang_getCString(s);
    char *out = strdup(c ? c : "");
    clang_disposeString(s);
    if (!out) abort();
    return out;
}

static const char *arena_take(Lower *L, CXString s) {
    const char *c = clang_getCString(s);
    const char *out = dl_arena_strdup(L->arena, c ? c : "");
    clang_disposeString(s);
    return out;
}

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData data) {
    (void)parent;
    CursorVec *v = data;
    dl_vec_push(v, c);
    return CXChildVisit_Continue;
}

/* The children of a cursor, without the implicit ones that have no place in the file (default
 * arguments, implicit conversions of defaulted parameters). */
static CursorVec children(CXCursor c) {
    CursorVec all = {0}, out = {0};
    clang_visitChildren(c, collect_child, &all);
    for (size_t i = 0; i < all.len; i++) {
        CXSourceLocation loc = clang_getCursorLocation(all.items[i]);
        unsigned line = 0;
        clang_getFileLocation(loc, NULL, &line, NULL, NULL);
        if (line == 0) continue;
        dl_vec_push(&out, all.items[i]);
    }
    dl_vec_free(&all);
    return out;
}

static bool in_main_file(Lower *L, CXCursor c) {
    CXFile f = NULL;
    clang_getFileLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    return f && clang_File_isEqual(f, L->file);
}

static DlSpan span_of(Lower *L, CXCursor c) {
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = NULL, f2 = NULL;
    unsigned a = 0, b = 0;
    clang_getFileLocation(clang_getRangeStart(r), &f1, NULL, NULL, &a);
    clang_getFileLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &b);
    if (!f1 || !clang_File_isEqual(f1, L->file)) {
        /* spelled in a header or a macro body: use where the cursor is in this file */
        clang_getFileLocation(clang_getCursorLocation(c), &f1, NULL, NULL, &a);
        b = a;
    }
    if (!f2 || !clang_File_isEqual(f2, L->file) || b < a) b = a;
    if (a > L->src->len) a = (unsigned)L->src->len;
    if (b > L->src->len) b = (unsigned)L->src->len;
    return (DlSpan){a, b};
}

static enum CXCursorKind kind(CXCursor c) {
    return clang_getCursorKind(c);
}

/* "at::Tensor::to", "torch::zeros", "c10::kCUDA" for a declaration. */
static char *qualified_name(CXCursor decl) {
    char buf[512];
    size_t len = 0;
    const char *parts[16];
    CXString strings[16];
    int n = 0;
    for (CXCursor c = decl; n < 16 && !clang_Cursor_isNull(c) &&
                            kind(c) != CXCursor_TranslationUnit && !clang_isInvalid(kind(c));
         c = clang_getCursorSemanticParent(c)) {
        strings[n] = clang_getCursorSpelling(c);
        parts[n] = clang_getCString(strings[n]);
        n++;
    }
    buf[0] = 0;
    for (int i = n - 1; i >= 0; i--) {
        const char *p = parts[i] ? parts[i] : "";
        if (!*p) continue; /* anonymous and inline namespaces */
        int w = snprintf(buf + len, sizeof buf - len, "%s%s", len ? "::" : "", p);
        if (w < 0 || (size_t)w >= sizeof buf - len) break;
        len += (size_t)w;
    }
    for (int i = 0; i < n; i++)
        clang_disposeString(strings[i]);
    char *out = strdup(buf);
    if (!out) abort();
    return out;
}

/* libtorch's namespaces in the engine's Python spelling: at::/c10::/torch:: -> "torch." */
static const char *pythonic(Lower *L, const char *qualified) {
    static const struct {
        const char *cpp, *py;
    } renames[] = {{"at::Tensor", "torch.Tensor"},
                   {"c10::Device", "torch.device"},
                   {"torch::Device", "torch.device"},
                   {"at::Device", "torch.device"},
                   {"torch::Tensor", "torch.Tensor"}};
    for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++)
        if (strcmp(qualified, renames[i].cpp) == 0) return renames[i].py;
    const char *rest = NULL;
    if (strncmp(qualified, "torch::", 7) == 0)
        rest = qualified + 7;
    else if (strncmp(qualified, "at::", 4) == 0)
        rest = qualified + 4;
    else if (strncmp(qualified, "c10::", 5) == 0)
        rest = qualified + 5;
    if (!rest) return NULL;
    char *out = dl_arena_printf(L->arena, "torch.%s", rest);
    /* nested namespaces: torch::nn::functional::x -> torch.nn.functional.x */
    char *w = out;
    for (char *r = out; *r; r++) {
        if (r[0] == ':' && r[1] == ':') {
            *w++ = '.';
            r++;
        } else {
            *w++ = *r;
        }
    }
    *w = 0;
    return out;
}

/* ---------------------------------------------------------------- IR construction */

static DlExpr *new_expr(Lower *L, DlExprKind k, DlSpan span) {
    DlExpr *e = dl_arena_alloc(L->arena, sizeof *e + sizeof(DlExprExtra)); /* its extra after it */
    e->kind = k;
    e->flags = DL_EXF_CPP | DL_EXF_EXTRA;
    e->span = span;
    return e;
}

static DlStmt *new_stmt(Lower *L, DlStmtKind k, DlSpan span) {
    DlStmt *s = dl_arena_alloc(L->arena, sizeof *s);
    s->parts = (DlStmtParts *)&dl_stmt_no_parts; /* a compound statement takes its own */
    s->kind = k;
    s->span = span;
    return s;
}

/* A compound statement's blocks, function or class, allocated when first filled. */
static DlStmtParts *own_parts(Lower *L, DlStmt *s) {
    return dl_stmt_own_parts(L->arena, s);
}

/* A dotted name ("torch.nn.Linear") as the NAME/ATTR chain the Python front end would build. */
static DlExpr *dotted(Lower *L, const char *name, DlSpan span) {
    const char *dot = strrchr(name, '.');
    if (!dot) {
        DlExpr *e = new_expr(L, DL_EX_NAME, span);
        e->name = dl_arena_strdup(L->arena, name);
        return e;
    }
    DlExpr *e = new_expr(L, DL_EX_ATTR, span);
    e->object = dotted(L, dl_arena_strndup(L->arena, name, (size_t)(dot - name)), span);
    e->name = dl_arena_strdup(L->arena, dot + 1);
    return e;
}

static DlExpr *string_expr(Lower *L, const char *text, DlSpan span) {
    DlExpr *e = new_expr(L, DL_EX_STRING, span);
    e->name = dl_arena_strdup(L->arena, text);
    return e;
}

/* The text of the file between two offsets, trimmed (an operator's spelling). */
static const char *text_between(Lower *L, uint32_t a, uint32_t b) {
    if (b < a || b > L->src->len) return "";
    while (a < b && isspace((unsigned char)L->src->text[a]))
        a++;
    while (b > a && isspace((unsigned char)L->src->text[b - 1]))
        b--;
    return dl_arena_strndup(L->arena, L->src->text + a, b - a);
}

static const char *type_spelling(Lower *L, CXType t) {
    return arena_take(L, clang_getTypeSpelling(t));
}

static const char *canonical_type(Lower *L, CXType t) {
    return type_spelling(L, clang_getCanonicalType(t));
}

/* ---------------------------------------------------------------- types */

static bool class_derives_module(CXCursor cls, int depth);

static enum CXChildVisitResult find_module_base(CXCursor c, CXCursor parent, CXClientData data) {
    (void)parent;
    int *found = data;
    enum CXCursorKind k = kind(c);
    /* bases come before the members: stop at the first member (libtorch classes have hundreds) */
    if (k == CXCursor_CXXMethod || k == CXCursor_FieldDecl || k == CXCursor_Constructor ||
        k == CXCursor_Destructor || k == CXCursor_FunctionTemplate || k == CXCursor_VarDecl ||
        k == CXCursor_CXXAccessSpecifier || k == CXCursor_TypedefDecl ||
        k == CXCursor_TypeAliasDecl || k == CXCursor_UsingDeclaration)
        return CXChildVisit_Break;
    if (k != CXCursor_CXXBaseSpecifier) return CXChildVisit_Continue;
    CXCursor base = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(c)));
    char *q = qualified_name(base);
    if (strcmp(q, "torch::nn::Module") == 0 || strncmp(q, "torch::nn::ModuleHolder", 23) == 0 ||
        class_derives_module(base, found[1] + 1))
        found[0] = 1;
    free(q);
    return found[0] ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool class_derives_module(CXCursor cls, int depth) {
    if (depth > 6 || clang_Cursor_isNull(cls)) return false;
    int found[2] = {0, depth};
    clang_visitChildren(cls, find_module_base, found);
    return found[0];
}

/* What a declared type means to the engine: "torch.Tensor", "torch.device", a module class
 * ("torch.nn.Linear", or "torch.nn.Module" for the project's own), else NULL. */
static const char *engine_type(Lower *L, CXType t) {
    CXType canon = clang_getCanonicalType(clang_getNonReferenceType(t));
    CXCursor decl = clang_getTypeDeclaration(canon);
    if (clang_Cursor_isNull(decl) || kind(decl) == CXCursor_NoDeclFound) return NULL;
    char *q = qualified_name(decl);
    const char *out = NULL;
    if (strcmp(q, "at::Tensor") == 0 || strcmp(q, "at::TensorBase") == 0) {
        out = "torch.Tensor";
    } else if (strcmp(q, "c10::Device") == 0) {
        out = "torch.device";
    } else if (strcmp(q, "torch::nn::ModuleHolder") == 0 || strcmp(q, "torch::nn::Module") == 0 ||
               (strncmp(q, "c10::", 5) != 0 && strncmp(q, "at::", 4) != 0 &&
                strncmp(q, "std::", 5) != 0 && class_derives_module(decl, 0))) {
        /* torch::nn::Linear is ModuleHolder<LinearImpl>: name it by the spelling the user wrote */
        const char *spelled = type_spelling(L, clang_getNonReferenceType(t));
        const char *py = NULL;
        if (strncmp(spelled, "const ", 6) == 0) spelled += 6;
        if (strncmp(spelled, "torch::nn::", 11) == 0 && !strchr(spelled, '<') &&
            strcmp(spelled, "torch::nn::Module") != 0)
            py = pythonic(L, spelled);
        out = py ? py : "torch.nn.Module";
    }
    free(q);
    return out;
}

/* ---------------------------------------------------------------- expressions */

static DlExpr *lower_expr(Lower *L, CXCursor c);
static void lower_block(Lower *L, CXCursor c, PtrVec *out);

/* A do-while's children (body, condition): whether the condition is the constant false. */
static bool runs_once(CursorVec ch) {
    if (ch.len != 2 || !clang_isExpression(kind(ch.items[1]))) return false;
    CXEvalResult r = clang_Cursor_Evaluate(ch.items[1]);
    if (!r) return false;
    bool zero = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
    clang_EvalResult_dispose(r);
    return zero;
}
static void lower_stmt(Lower *L, CXCursor c, PtrVec *out);

/* Implicit conversions, temporaries, parentheses: the one child that carries the meaning. */
static CXCursor strip(CXCursor c) {
    for (int guard = 0; guard < 64; guard++) {
        enum CXCursorKind k = kind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
            k != CXCursor_CStyleCastExpr && k != CXCursor_CXXFunctionalCastExpr &&
            k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXReinterpretCastExpr &&
            k != CXCursor_CXXConstCastExpr)
            return c;
        CursorVec ch = children(c);
        CXCursor next = clang_getNullCursor();
        size_t exprs = 0;
        for (size_t i = 0; i < ch.len; i++)
            if (clang_isExpression(kind(ch.items[i]))) next = ch.items[i], exprs++;
        dl_vec_free(&ch);
        if (exprs != 1) return c;
        c = next;
    }
    return c;
}

static char *referenced_name(CXCursor c) {
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(ref) || clang_isInvalid(kind(ref))) return NULL;
    return qualified_name(ref);
}

typedef struct Options {
    DlExpr *device, *dtype;
    bool opaque; /* a TensorOptions variable or call devlint cannot see into */
    DlExpr *opaque_expr;
} Options;

/* What a local TensorOptions variable was initialised with (reassignments make it opaque). */
struct OptionsVar {
    const char *name;
    Options options; /* a TensorOptions variable */
    DlArg *keywords; /* a torch::nn::*Options variable: its settings as keywords */
    uint32_t keyword_count;
    OptionsVar *next;
};

static OptionsVar *options_var(Lower *L, const char *name) {
    for (OptionsVar *v = L->options_vars; v; v = v->next)
        if (strcmp(v->name, name) == 0) return v;
    return NULL;
}

static bool is_options_type(Lower *L, CXCursor c) {
    const char *t = canonical_type(L, clang_getCursorType(c));
    return strstr(t, "TensorOptions") != NULL;
}

static DlExpr *lower_device(Lower *L, CXCursor c);

/* `torch::TensorOptions().dtype(...).device(d)`, `x.options()`, `torch::kCUDA` (converted),
 * `torch::device(d)`: what the options say about device and dtype. */
static void read_options(Lower *L, CXCursor c, Options *o, int depth) {
    c = strip(c);
    if (depth > 32) {
        o->opaque = true;
        return;
    }
    if (kind(c) == CXCursor_CallExpr) {
        char *q = referenced_name(c);
        const char *name = q ? q : "";
        CursorVec ch = children(c);
        if (ch.len && kind(ch.items[0]) == CXCursor_MemberRefExpr) {
            /* method on an options object or on a tensor */
            CursorVec recv = children(ch.items[0]);
            CXCursor receiver = recv.len ? recv.items[0] : clang_getNullCursor();
            const char *method = has_suffix(name, "::device")    ? "device"
                                 : has_suffix(name, "::dtype")   ? "dtype"
                                 : has_suffix(name, "::options") ? "options"
                                                                 : NULL;
            if (method && strcmp(method, "options") == 0 && !clang_Cursor_isNull(receiver)) {
                DlExpr *x = lower_expr(L, receiver);
                DlExpr *dev = new_expr(L, DL_EX_ATTR, span_of(L, c));
                dev->object = x;
                dev->name = "device";
                if (!o->device) o->device = dev;
                if (!o->dtype) {
                    DlExpr *dt = new_expr(L, DL_EX_ATTR, span_of(L, c));
                    dt->object = x;
                    dt->name = "dtype";
                    o->dtype = dt;
                }
            } else if (!clang_Cursor_isNull(receiver) && is_options_type(L, receiver)) {
                /* the outermost call wins: read it first, then the chain below it */
                if (method && ch.len > 1) {
                    if (strcmp(method, "device") == 0 && !o->device)
                        o->device = lower_device(L, ch.items[1]);
                    else if (strcmp(method, "dtype") == 0 && !o->dtype)
                        o->dtype = lower_expr(L, ch.items[1]);
                }
                read_options(L, receiver, o, depth + 1);
            } else {
                o->opaque = true;
            }
            dl_vec_free(&recv);
        } else if (has_suffix(name, "TensorOptions::TensorOptions") ||
                   strcmp(name, "torch::device") == 0 || strcmp(name, "at::device") == 0 ||
                   strcmp(name, "c10::device") == 0 || strcmp(name, "torch::dtype") == 0 ||
                   strcmp(name, "at::dtype") == 0 || strcmp(name, "c10::dtype") == 0) {
            /* a constructor or helper: its argument is a device, a device type or a dtype */
            for (size_t i = 0; i < ch.len; i++) {
                CXCursor a = ch.items[i];
                if (!clang_isExpression(kind(a))) continue;
                /* the callee's own reference (torch::device) is a child too: skipped below */
                CXCursor s = strip(a);
                if (kind(s) == CXCursor_DeclRefExpr) {
                    char *rq = referenced_name(s);
                    bool callee_ref = rq && strcmp(rq, name) == 0;
                    free(rq);
                    if (callee_ref) continue;
                }
                const char *t = canonical_type(L, clang_getCursorType(a));
                if (strstr(t, "TensorOptions")) { /* a copy of another options value */
                    read_options(L, a, o, depth + 1);
                } else if (strstr(t, "ScalarType") || strstr(t, "TypeMeta")) {
                    if (!o->dtype) o->dtype = lower_expr(L, a);
                } else if (strstr(t, "Device") || strstr(t, "char")) {
                    if (!o->device) o->device = lower_device(L, a);
                }
            }
        } else {
            o->opaque = true;
            o->opaque_expr = lower_expr(L, c);
        }
        dl_vec_free(&ch);
        free(q);
        return;
    }
    if (kind(c) == CXCursor_DeclRefExpr) {
        const char *t = canonical_type(L, clang_getCursorType(c));
        const char *name = arena_take(L, clang_getCursorSpelling(c));
        OptionsVar *var = strstr(t, "TensorOptions") ? options_var(L, name) : NULL;
        if (var) {
            if (!o->device) o->device = var->options.device;
            if (!o->dtype) o->dtype = var->options.dtype;
            if (var->options.opaque) o->opaque = true, o->opaque_expr = var->options.opaque_expr;
            return;
        }
        if (strstr(t, "DeviceType") || strstr(t, "Device")) {
            if (!o->device) o->device = lower_device(L, c);
            return;
        }
        if (strstr(t, "ScalarType")) {
            if (!o->dtype) o->dtype = lower_expr(L, c);
            return;
        }
    }
    o->opaque = true;
    o->opaque_expr = lower_expr(L, c);
}

/* A device expression: `torch::kCUDA` -> "cuda", `torch::Device(torch::kCUDA, 1)` -> "cuda:1",
 * `x.device()` -> x.device, a variable stays a name. */
static DlExpr *lower_device(Lower *L, CXCursor c) {
    CXCursor s = strip(c);
    DlSpan span = span_of(L, c);
    if (kind(s) == CXCursor_DeclRefExpr) {
        char *q = referenced_name(s);
        const char *text = NULL;
        if (q && has_suffix(q, "kCUDA"))
            text = "cuda";
        else if (q && has_suffix(q, "kCPU"))
            text = "cpu";
        else if (q && has_suffix(q, "kMeta"))
            text = "meta";
        free(q);
        if (text) return string_expr(L, text, span);
    }
    if (kind(s) == CXCursor_CallExpr) {
        char *q = referenced_name(s);
        bool device_ctor = q && (strcmp(q, "c10::Device::Device") == 0);
        free(q);
        if (device_ctor) {
            CursorVec ch = children(s);
            DlExpr *type = NULL;
            const char *index = NULL;
            for (size_t i = 0; i < ch.len; i++) {
                CXCursor a = strip(ch.items[i]);
                if (kind(a) == CXCursor_IntegerLiteral)
                    index = dl_ir_span_text(L->arena, L->src, span_of(L, a));
                else if (!type)
                    type = lower_device(L, a);
            }
            dl_vec_free(&ch);
            if (type && type->kind == DL_EX_STRING && type->name) {
                if (index && strchr(type->name, ':') == NULL)
                    return string_expr(L, dl_arena_printf(L->arena, "%s:%s", type->name, index),
                                       span);
                type->span = span;
                return type;
            }
            if (type) return type; /* a copy: torch::Device(device) */
            return new_expr(L, DL_EX_OTHER, span);
        }
    }
    return lower_expr(L, c);
}

/* c10's ScalarType constants by their Python names, or NULL. */
static const char *scalar_type_name(const char *qualified) {
    static const struct {
        const char *cpp, *py;
    } dtypes[] = {{"kFloat", "float32"},
                  {"kFloat32", "float32"},
                  {"kDouble", "float64"},
                  {"kFloat64", "float64"},
                  {"kHalf", "float16"},
                  {"kFloat16", "float16"},
                  {"kBFloat16", "bfloat16"},
                  {"kLong", "int64"},
                  {"kInt64", "int64"},
                  {"kInt", "int32"},
                  {"kInt32", "int32"},
                  {"kShort", "int16"},
                  {"kInt16", "int16"},
                  {"kByte", "uint8"},
                  {"kUInt8", "uint8"},
                  {"kChar", "int8"},
                  {"kInt8", "int8"},
                  {"kBool", "bool"},
                  {"kComplexFloat", "complex64"},
                  {"kComplexDouble", "complex128"}};
    if (strncmp(qualified, "c10::", 5) != 0 && strncmp(qualified, "at::", 4) != 0 &&
        strncmp(qualified, "torch::", 7) != 0)
        return NULL;
    const char *last = strrchr(qualified, ':');
    last = last ? last + 1 : qualified;
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (strcmp(last, dtypes[i].cpp) == 0) return dtypes[i].py;
    return NULL;
}

static DlExpr *lower_name_ref(Lower *L, CXCursor c) {
    DlSpan span = span_of(L, c);
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_Cursor_isNull(ref) ? CXCursor_NoDeclFound : kind(ref);
    if (rk == CXCursor_FieldDecl || (rk == CXCursor_CXXMethod && L->current_class)) {
        /* a member used without `this->`: self.name */
        DlExpr *e = new_expr(L, DL_EX_ATTR, span);
        e->object = dotted(L, "self", span);
        e->name = arena_take(L, clang_getCursorSpelling(c));
        return e;
    }
    if (rk == CXCursor_VarDecl || rk == CXCursor_FunctionDecl || rk == CXCursor_EnumConstantDecl) {
        char *q = qualified_name(ref);
        const char *py = pythonic(L, q);
        if ((has_suffix(q, "::kCUDA") || has_suffix(q, "::kCPU")) && py) {
            free(q);
            return lower_device(L, c);
        }
        /* dtypes: torch::kFloat32 -> torch.float32, as the engine knows them */
        const char *dtype = scalar_type_name(q);
        if (dtype) {
            free(q);
            return dotted(L, dl_arena_printf(L->arena, "torch.%s", dtype), span);
        }
        /* a project function or a local: its plain name; libtorch's: torch.<name> */
        bool local = rk == CXCursor_VarDecl && !strchr(q, ':');
        DlExpr *e = py && !local ? dotted(L, py, span) : NULL;
        free(q);
        if (e) return e;
    }
    DlExpr *e = new_expr(L, DL_EX_NAME, span);
    e->name = arena_take(L, clang_getCursorSpelling(c));
    dl_expr_extra(e)->cpp_ctype = type_spelling(L, clang_getCursorType(c));
    return e;
}

/* Argument lists: what an options argument says becomes keywords (device=, dtype=) on
 * factories, and the positional device or dtype on .to(). */
static void add_arg(PtrVec *args, Lower *L, const char *keyword, DlExpr *value, DlSpan span) {
    DlArg *a = dl_arena_alloc(L->arena, sizeof *a);
    a->keyword = keyword;
    a->value = value;
    a->span = span;
    dl_vec_push(args, a);
}

static void finish_args(Lower *L, DlExpr *call, PtrVec *args) {
    if (args->len > DL_MAX_CALL_ARGS) args->len = DL_MAX_CALL_ARGS; /* dl_vec_free frees all */
    call->arg_count = (uint16_t)args->len;
    if (args->len) {
        call->args = dl_arena_alloc(L->arena, args->len * sizeof(DlArg));
        for (size_t i = 0; i < args->len; i++)
            call->args[i] = *(DlArg *)args->items[i];
    }
    dl_vec_free(args);
}

static void lower_call_args(Lower *L, DlExpr *call, CXCursor *argv, size_t argc, bool is_to) {
    PtrVec args = {0};
    for (size_t i = 0; i < argc; i++) {
        CXCursor a = argv[i];
        DlSpan span = span_of(L, a);
        if (is_options_type(L, a)) {
            Options o = {0};
            read_options(L, a, &o, 0);
            if (is_to) {
                if (o.device)
                    add_arg(&args, L, NULL, o.device, span);
                else if (o.dtype)
                    add_arg(&args, L, NULL, o.dtype, span);
                else if (o.opaque_expr)
                    add_arg(&args, L, NULL, o.opaque_expr, span);
            } else {
                /* an options object devlint cannot see into may hold a device: say so */
                if (o.device)
                    add_arg(&args, L, "device", o.device, span);
                else if (o.opaque)
                    add_arg(&args, L, "device", o.opaque_expr ? o.opaque_expr : lower_expr(L, a),
                            span);
                if (o.dtype) add_arg(&args, L, "dtype", o.dtype, span);
            }
            continue;
        }
        const char *t = canonical_type(L, clang_getCursorType(a));
        if (is_to && (strstr(t, "DeviceType") || strstr(t, "c10::Device"))) {
            add_arg(&args, L, NULL, lower_device(L, a), span);
            continue;
        }
        add_arg(&args, L, NULL, lower_expr(L, a), span);
    }
    finish_args(L, call, &args);
}

/* `<name>Options().weight(w).ignore_index(1)` (a loss's options): keywords weight=w ... */
static bool lower_module_options(Lower *L, CXCursor a, PtrVec *args, int depth) {
    a = strip(a);
    const char *t = canonical_type(L, clang_getCursorType(a));
    if (depth > 32 || !has_suffix(t, "Options") || strncmp(t, "torch::nn::", 11) != 0) return false;
    if (kind(a) == CXCursor_DeclRefExpr) {
        /* `auto options = ...Options().weight(w); CrossEntropyLoss loss(options);` */
        OptionsVar *var = options_var(L, arena_take(L, clang_getCursorSpelling(a)));
        if (!var) return false;
        for (uint32_t i = 0; i < var->keyword_count; i++) {
            DlArg *copy = dl_arena_alloc(L->arena, sizeof *copy);
            *copy = var->keywords[i];
            dl_vec_push(args, copy);
        }
        return true;
    }
    if (kind(a) != CXCursor_CallExpr) return false;
    CursorVec ch = children(a);
    if (ch.len == 1 && kind(ch.items[0]) != CXCursor_MemberRefExpr &&
        clang_isExpression(kind(ch.items[0]))) {
        /* a copy of an options value: `auto options = ...Options().weight(w);` */
        bool inner = lower_module_options(L, ch.items[0], args, depth + 1);
        dl_vec_free(&ch);
        return inner || true;
    }
    if (ch.len && kind(ch.items[0]) == CXCursor_MemberRefExpr) {
        CursorVec recv = children(ch.items[0]);
        if (recv.len) lower_module_options(L, recv.items[0], args, depth + 1);
        dl_vec_free(&recv);
        const char *method = arena_take(L, clang_getCursorSpelling(ch.items[0]));
        if (ch.len > 1) {
            /* the span from `.weight` to the end of its argument: where a finding points */
            DlSpan arg = span_of(L, ch.items[1]);
            CXSourceLocation at = clang_getCursorLocation(ch.items[0]);
            unsigned off = arg.start;
            clang_getFileLocation(at, NULL, NULL, NULL, &off);
            DlSpan span = {off < arg.start ? off : arg.start, arg.end};
            add_arg(args, L, method, lower_expr(L, ch.items[1]), span);
        }
    }
    dl_vec_free(&ch);
    return true;
}

static DlExpr *lower_call(Lower *L, CXCursor c) {
    DlSpan span = span_of(L, c);
    CursorVec ch = children(c);
    char *q = referenced_name(c);
    const char *callee = q ? dl_arena_strdup(L->arena, q) : NULL;
    const char *spelling = arena_take(L, clang_getCursorSpelling(c));
    DlExpr *out = NULL;

    /* kernel launch: kernel reference, the __cudaPushCallConfiguration call, the arguments */
    int config = -1;
    for (size_t i = 0; i < ch.len && i < 3; i++) {
        if (kind(ch.items[i]) != CXCursor_CallExpr) continue;
        char *cq = referenced_name(ch.items[i]);
        if (cq && strstr(cq, "PushCallConfiguration")) config = (int)i;
        free(cq);
    }
    if (config >= 0) {
        out = new_expr(L, DL_EX_CALL, span);
        out->flags |= DL_EXF_KERNEL_LAUNCH;
        dl_expr_extra(out)->cpp_callee = callee;
        out->object = config > 0 ? lower_expr(L, ch.items[0]) : dotted(L, spelling, span);
        CursorVec cfg = children(ch.items[config]);
        PtrVec items = {0};
        for (size_t i = 1; i < cfg.len; i++)
            dl_vec_push(&items, lower_expr(L, cfg.items[i]));
        out->items = (DlExpr **)dl_ptrvec_finish(L->arena, &items, &out->item_count);
        dl_vec_free(&cfg);
        lower_call_args(L, out, ch.items + config + 1, ch.len - (size_t)config - 1, false);
        goto done;
    }

    /* operators on class types: a + b, a[i], model->x */
    if (strncmp(spelling, "operator", 8) == 0 && !isalnum((unsigned char)spelling[8]) &&
        spelling[8] != '_') {
        const char *op = spelling + 8;
        PtrVec operands = {0};
        for (size_t i = 0; i < ch.len; i++) {
            CXCursor s = strip(ch.items[i]);
            if (kind(s) == CXCursor_DeclRefExpr) {
                char *r = referenced_name(s);
                bool self_ref = r && q && strcmp(r, q) == 0;
                free(r);
                if (self_ref) continue;
            }
            if (kind(ch.items[i]) == CXCursor_MemberRefExpr) {
                /* member operator: a.operator+=(b) -> the receiver is the member ref's child */
                CursorVec recv = children(ch.items[i]);
                if (recv.len) dl_vec_push(&operands, lower_expr(L, recv.items[0]));
                dl_vec_free(&recv);
                continue;
            }
            dl_vec_push(&operands, lower_expr(L, ch.items[i]));
        }
        DlExpr **ops = (DlExpr **)operands.items;
        size_t n = operands.len;
        if (strcmp(op, "->") == 0 && n == 1) {
            out = ops[0];
        } else if (strcmp(op, "()") == 0 && n >= 1) {
            /* model(x), loss_fn(logits, target): calling the object */
            out = new_expr(L, DL_EX_CALL, span);
            out->object = ops[0];
            PtrVec args = {0};
            for (size_t i = 1; i < n; i++)
                add_arg(&args, L, NULL, ops[i], ops[i]->span);
            finish_args(L, out, &args);
        } else if (strcmp(op, "[]") == 0 && n == 2) {
            out = new_expr(L, DL_EX_SUBSCRIPT, span);
            out->object = ops[0];
            out->items = dl_arena_alloc(L->arena, sizeof(DlExpr *));
            out->items[0] = ops[1];
            out->item_count = 1;
        } else if (n == 2) {
            bool compare = !strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "<") ||
                           !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=");
            out = new_expr(L, compare ? DL_EX_COMPARE : DL_EX_BINOP, span);
            out->name = dl_arena_strdup(L->arena, op);
            out->items = dl_arena_alloc(L->arena, 2 * sizeof(DlExpr *));
            out->items[0] = ops[0];
            out->items[1] = ops[1];
            out->item_count = 2;
        } else if (n == 1) {
            out = new_expr(L, DL_EX_UNARY, span);
            out->name = dl_arena_strdup(L->arena, op);
            out->object = ops[0];
        } else {
            out = new_expr(L, DL_EX_OTHER, span);
        }
        dl_expr_extra(out)->cpp_callee = callee;
        dl_vec_free(&operands);
        goto done;
    }

    /* constructor calls (`torch::nn::CrossEntropyLoss(opts)`, `torch::Device(...)`) */
    CXCursor ref = clang_getCursorReferenced(c);
    CXCursor callee_ref = ch.len ? strip(ch.items[0]) : clang_getNullCursor();
    bool has_callee = ch.len && (kind(callee_ref) == CXCursor_DeclRefExpr ||
                                 kind(callee_ref) == CXCursor_MemberRefExpr ||
                                 kind(callee_ref) == CXCursor_OverloadedDeclRef);
    CXType result_type = clang_getCanonicalType(clang_getCursorType(c));
    bool record = result_type.kind == CXType_Record;
    /* inherited constructors (TORCH_MODULE's `using ModuleHolder::ModuleHolder`) do not
     * reference a Constructor: a call without a callee that makes a class value is one too */
    if ((!clang_Cursor_isNull(ref) && kind(ref) == CXCursor_Constructor) ||
        (record && !has_callee)) {
        CXCursor cls = clang_getTypeDeclaration(result_type);
        char *cq = qualified_name(cls);
        /* containers of what is written inside: at::cat({a, b}) is a list of tensors */
        if (strcmp(cq, "c10::ArrayRef") == 0 || strcmp(cq, "c10::IListRef") == 0 ||
            strcmp(cq, "c10::OptionalArrayRef") == 0 || strcmp(cq, "std::vector") == 0 ||
            strcmp(cq, "torch::detail::TensorDataContainer") == 0 ||
            strcmp(cq, "c10::Scalar") == 0 || strcmp(cq, "c10::optional") == 0 ||
            strcmp(cq, "std::optional") == 0) {
            size_t n = 0;
            CXCursor only = clang_getNullCursor();
            for (size_t i = 0; i < ch.len; i++)
                if (clang_isExpression(kind(ch.items[i]))) only = ch.items[i], n++;
            if (n == 1) {
                free(cq);
                out = lower_expr(L, only);
                goto done;
            }
            if (n == 0 && strstr(cq, "optional")) { /* `{}` for an optional argument: None */
                free(cq);
                out = new_expr(L, DL_EX_CONST, span);
                out->name = "None";
                goto done;
            }
        }
        if (strcmp(cq, "c10::Device") == 0) {
            free(cq);
            out = lower_device(L, c);
            goto done;
        }
        const char *type = engine_type(L, clang_getCursorType(c));
        const char *py = pythonic(L, cq);
        free(cq);
        /* a copy or move of a value: the value itself */
        size_t exprs = 0;
        CXCursor only = clang_getNullCursor();
        for (size_t i = 0; i < ch.len; i++)
            if (clang_isExpression(kind(ch.items[i]))) only = ch.items[i], exprs++;
        if (exprs == 1 &&
            clang_equalCursors(clang_getTypeDeclaration(clang_getCanonicalType(
                                   clang_getNonReferenceType(clang_getCursorType(only)))),
                               clang_getTypeDeclaration(result_type))) {
            out = lower_expr(L, only);
            goto done;
        }
        out = new_expr(L, DL_EX_CALL, span);
        dl_expr_extra(out)->cpp_callee = callee;
        const char *spelled = type_spelling(L, clang_getCursorType(c));
        const char *holder = strncmp(spelled, "torch::nn::", 11) == 0 ? pythonic(L, spelled) : NULL;
        out->object = dotted(L, holder ? holder : py ? py : type ? type : spelling, span);
        PtrVec args = {0};
        for (size_t i = 0; i < ch.len; i++) {
            CXCursor a = ch.items[i];
            if (!clang_isExpression(kind(a))) continue;
            if (lower_module_options(L, a, &args, 0)) continue;
            add_arg(&args, L, NULL, lower_expr(L, a), span_of(L, a));
        }
        finish_args(L, out, &args);
        goto done;
    }

    /* method calls: x.to(d), model->to(d), x.data_ptr<float>() */
    if (ch.len && kind(ch.items[0]) == CXCursor_MemberRefExpr) {
        CursorVec recv = children(ch.items[0]);
        DlExpr *receiver = recv.len ? lower_expr(L, recv.items[0]) : dotted(L, "self", span);
        dl_vec_free(&recv);
        const char *method = arena_take(L, clang_getCursorSpelling(ch.items[0]));
        /* zero-argument accessors that are properties in Python: x.device(), x.is_cuda() */
        bool tensor_method = callee && (strncmp(callee, "at::Tensor", 10) == 0);
        /* `optional_out.value()` of a c10/std::optional<Tensor>: the tensor it holds, named as
         * an attribute, so that `TORCH_CHECK(optional_out.value().is_cuda())` places what
         * later reads of it give (pytorch_scatter's optional outputs) */
        bool optional_value = callee && ch.len == 1 && !strcmp(method, "value") &&
                              strstr(callee, "optional") != NULL;
        if (optional_value ||
            (tensor_method && ch.len == 1 &&
             (!strcmp(method, "device") || !strcmp(method, "is_cuda") ||
              !strcmp(method, "dtype") || !strcmp(method, "is_cpu") || !strcmp(method, "is_meta")))) {
            out = new_expr(L, DL_EX_ATTR, span);
            out->object = receiver;
            out->name = method;
            dl_expr_extra(out)->cpp_callee = callee;
            goto done;
        }
        out = new_expr(L, DL_EX_CALL, span);
        dl_expr_extra(out)->cpp_callee = callee;
        DlExpr *attr = new_expr(L, DL_EX_ATTR, span_of(L, ch.items[0]));
        attr->span.start = receiver->span.start;
        attr->object = receiver;
        attr->name = method;
        out->object = attr;
        lower_call_args(L, out, ch.items + 1, ch.len - 1, tensor_method && !strcmp(method, "to"));
        goto done;
    }

    /* std::move(x) is x */
    if (callee && (strcmp(callee, "std::move") == 0 || strcmp(callee, "std::forward") == 0) &&
        ch.len == 2) {
        out = lower_expr(L, ch.items[1]);
        goto done;
    }
    /* free functions: torch::zeros(...), a project function, a kernel launcher */
    out = new_expr(L, DL_EX_CALL, span);
    dl_expr_extra(out)->cpp_callee = callee;
    size_t first_arg = 0;
    if (ch.len && kind(strip(ch.items[0])) == CXCursor_DeclRefExpr) {
        out->object = lower_name_ref(L, strip(ch.items[0]));
        first_arg = 1;
    } else if (ch.len && kind(strip(ch.items[0])) == CXCursor_OverloadedDeclRef) {
        out->object = dotted(L, spelling, span_of(L, ch.items[0]));
        first_arg = 1;
    } else {
        out->object = dotted(L, *spelling ? spelling : "<call>", span);
    }
    lower_call_args(L, out, ch.items + first_arg, ch.len - first_arg, false);

done:
    free(q);
    dl_vec_free(&ch);
    return out;
}

/* The operator of a BinaryOperator/UnaryOperator cursor, read from the token at its location
 * (where it is spelled: inside a macro definition for TORCH_CHECK's `!(cond)`), or NULL. libclang
 * 16 has no clang_getCursorBinaryOperatorKind. */
static const char *operator_at(Lower *L, CXCursor c) {
    CXFile file = NULL;
    unsigned off = 0;
    clang_getSpellingLocation(clang_getCursorLocation(c), &file, NULL, NULL, &off);
    if (!file) return NULL;
    CXSourceRange r = clang_getRange(clang_getLocationForOffset(L->tu, file, off),
                                     clang_getLocationForOffset(L->tu, file, off + 1));
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(L->tu, r, &tokens, &n);
    const char *op = NULL;
    if (n && clang_getTokenKind(tokens[0]) == CXToken_Punctuation)
        op = arena_take(L, clang_getTokenSpelling(L->tu, tokens[0]));
    clang_disposeTokens(L->tu, tokens, n);
    return op;
}

static bool is_operator(const char *op) {
    if (!op || !*op || strlen(op) > 3) return false;
    for (const char *p = op; *p; p++)
        if (!strchr("+-*/%<>=!&|^~,", *p)) return false;
    return true;
}

static DlExpr *lower_operator(Lower *L, CXCursor c, bool binary) {
    DlSpan span = span_of(L, c);
    CursorVec ch = children(c);
    DlExpr *out;
    if (binary && ch.len == 2) {
        DlSpan a = span_of(L, ch.items[0]), b = span_of(L, ch.items[1]);
        /* the text between the operands is the operator, unless a macro wrote it */
        const char *op = text_between(L, a.end, b.start);
        if (!is_operator(op)) op = operator_at(L, c);
        if (!op || !is_operator(op)) op = "?";
        bool compare = !strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "<") ||
                       !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=");
        bool boolean = !strcmp(op, "&&") || !strcmp(op, "||");
        out = new_expr(L, compare ? DL_EX_COMPARE : boolean ? DL_EX_BOOLOP : DL_EX_BINOP, span);
        out->name = boolean ? (op[0] == '&' ? "and" : "or") : op;
        out->items = dl_arena_alloc(L->arena, 2 * sizeof(DlExpr *));
        out->items[0] = lower_expr(L, ch.items[0]);
        out->items[1] = lower_expr(L, ch.items[1]);
        out->item_count = 2;
    } else if (!binary && ch.len == 1) {
        DlSpan a = span_of(L, ch.items[0]);
        const char *op = operator_at(L, c);
        if (!op || !is_operator(op))
            op = a.start > span.start ? text_between(L, span.start, a.start)
                                      : text_between(L, a.end, span.end);
        static const char *const known[] = {"!", "-", "+", "~", "&", "*", "++", "--"};
        bool spelled = false;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            spelled |= strcmp(op, known[i]) == 0;
        if (!spelled) {
            /* written inside a macro (TORCH_CHECK's `!(cond)`): the text here is the macro's
             * name, so go by the types: a bool from a bool is a negation */
            const char *t = canonical_type(L, clang_getCursorType(c));
            const char *ot = canonical_type(L, clang_getCursorType(strip(ch.items[0])));
            op = strcmp(t, "bool") == 0 && strcmp(ot, "bool") == 0 ? "!" : "?";
        }
        out = new_expr(L, DL_EX_UNARY, span);
        out->name = strcmp(op, "!") == 0 ? "not" : op;
        out->object = lower_expr(L, ch.items[0]);
    } else {
        out = new_expr(L, DL_EX_OTHER, span);
    }
    dl_vec_free(&ch);
    return out;
}

static DlExpr *lower_expr(Lower *L, CXCursor c) {
    if (++L->depth > MAX_DEPTH) {
        L->depth--;
        return new_expr(L, DL_EX_OTHER, span_of(L, c));
    }
    CXCursor s = strip(c);
    DlSpan span = span_of(L, c);
    DlExpr *e = NULL;
    switch (kind(s)) {
    case CXCursor_DeclRefExpr:
        e = lower_name_ref(L, s);
        break;
    case CXCursor_MemberRefExpr: {
        CursorVec ch = children(s);
        e = new_expr(L, DL_EX_ATTR, span);
        e->object = ch.len ? lower_expr(L, ch.items[0]) : dotted(L, "self", span);
        e->name = arena_take(L, clang_getCursorSpelling(s));
        dl_vec_free(&ch);
        break;
    }
    case CXCursor_CXXThisExpr:
        e = dotted(L, "self", span);
        break;
    case CXCursor_CallExpr:
        e = lower_call(L, s);
        break;
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
        e = new_expr(L, DL_EX_NUMBER, span);
        e->name = dl_ir_span_text(L->arena, L->src, span_of(L, s));
        break;
    case CXCursor_StringLiteral: {
        e = new_expr(L, DL_EX_STRING, span);
        const char *t = dl_ir_span_text(L->arena, L->src, span_of(L, s));
        const char *q1 = strchr(t, '"'), *q2 = strrchr(t, '"');
        e->name = q1 && q2 > q1 ? dl_arena_strndup(L->arena, q1 + 1, (size_t)(q2 - q1 - 1)) : t;
        break;
    }
    case CXCursor_CXXBoolLiteralExpr:
        e = new_expr(L, DL_EX_CONST, span);
        e->name = dl_source_mentions(&(DlSource){.text = (char *)dl_ir_span_text(L->arena, L->src, span),
                                       .len = span.end - span.start},
                           "true")
                      ? "True"
                      : "False";
        break;
    case CXCursor_CXXNullPtrLiteralExpr:
        e = new_expr(L, DL_EX_CONST, span);
        e->name = "None";
        break;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        e = lower_operator(L, s, true);
        break;
    case CXCursor_UnaryOperator:
        e = lower_operator(L, s, false);
        break;
    case CXCursor_ArraySubscriptExpr: {
        CursorVec ch = children(s);
        e = new_expr(L, DL_EX_SUBSCRIPT, span);
        if (ch.len == 2) {
            e->object = lower_expr(L, ch.items[0]);
            e->items = dl_arena_alloc(L->arena, sizeof(DlExpr *));
            e->items[0] = lower_expr(L, ch.items[1]);
            e->item_count = 1;
        }
        dl_vec_free(&ch);
        break;
    }
    case CXCursor_InitListExpr: {
        CursorVec ch = children(s);
        PtrVec items = {0};
        for (size_t i = 0; i < ch.len; i++)
            dl_vec_push(&items, lower_expr(L, ch.items[i]));
        e = new_expr(L, DL_EX_TUPLE, span);
        e->items = (DlExpr **)dl_ptrvec_finish(L->arena, &items, &e->item_count);
        dl_vec_free(&ch);
        break;
    }
    case CXCursor_ConditionalOperator: {
        CursorVec ch = children(s);
        e = new_expr(L, DL_EX_COND, span);
        if (ch.len == 3) {
            e->object = lower_expr(L, ch.items[1]);
            e->items = dl_arena_alloc(L->arena, 2 * sizeof(DlExpr *));
            e->items[0] = lower_expr(L, ch.items[0]);
            e->items[1] = lower_expr(L, ch.items[2]);
            e->item_count = 2;
        }
        dl_vec_free(&ch);
        break;
    }
    case CXCursor_CXXNewExpr:
        /* `new float[n]`: a host allocation, as a call to `new` */
        e = new_expr(L, DL_EX_CALL, span);
        e->object = dotted(L, "new", span);
        break;
    case CXCursor_LambdaExpr: {
        e = new_expr(L, DL_EX_LAMBDA, span);
        /* `AT_DISPATCH_FLOATING_TYPES(t, "op", [&] { kernel<<<...>>>(...); })`, std::for_each:
         * a lambda written in a statement usually runs there; its body is analysed right after
         * that statement, as if conditional (lower_stmt flushes L->lambda_bodies) */
        CursorVec ch = children(s);
        for (size_t i = 0; i < ch.len; i++) {
            if (kind(ch.items[i]) != CXCursor_CompoundStmt) continue;
            PtrVec body = {0};
            lower_block(L, ch.items[i], &body);
            for (size_t j = 0; j < body.len; j++)
                dl_vec_push(&L->lambda_bodies, body.items[j]);
            dl_vec_free(&body);
        }
        dl_vec_free(&ch);
        break;
    }
    default:
        e = new_expr(L, DL_EX_OTHER, span);
        break;
    }
    if (!dl_expr_extra(e)->cpp_ctype && kind(s) != CXCursor_CallExpr)
        dl_expr_extra(e)->cpp_ctype = type_spelling(L, clang_getCursorType(s));
    if (!dl_expr_extra(e)->cpp_ctype)
        dl_expr_extra(e)->cpp_ctype = type_spelling(L, clang_getCursorType(c));
    if (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR || e->kind == DL_EX_SUBSCRIPT ||
        e->kind == DL_EX_CALL) {
        const char *t = engine_type(L, clang_getCursorType(s));
        if (t && strcmp(t, "torch.Tensor") == 0) e->flags |= DL_EXF_TENSOR_TYPED;
    }
    L->depth--;
    return e;
}

/* ---------------------------------------------------------------- statements */

static void push_stmt(PtrVec *out, DlStmt *s) {
    if (s) dl_vec_push(out, s);
}

static DlBlock finish_block(Lower *L, PtrVec *v) {
    DlBlock b = {0};
    b.items = (DlStmt **)dl_ptrvec_finish(L->arena, v, &b.count);
    return b;
}

static DlBlock block_of(Lower *L, CXCursor c) {
    PtrVec v = {0};
    if (!clang_Cursor_isNull(c)) lower_block(L, c, &v);
    return finish_block(L, &v);
}

/* TORCH_CHECK(cond, ...) expands to `if (!(cond)) { ::c10::detail::torchCheckFail(...); }`;
 * `if (!cond) throw ...;` and AT_ASSERT are the same shape. The fail branch's content. */
static enum CXChildVisitResult find_failure(CXCursor c, CXCursor parent, CXClientData data) {
    (void)parent;
    bool *fails = data;
    if (kind(c) == CXCursor_CXXThrowExpr) *fails = true;
    if (kind(c) == CXCursor_CallExpr) {
        char *q = referenced_name(c);
        if (q && (strstr(q, "torchCheckFail") || strstr(q, "torchInternalAssertFail") ||
                  strstr(q, "checkFail")))
            *fails = true;
        free(q);
    }
    return *fails ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static DlExpr *negated_condition(Lower *L, CXCursor cond) {
    CXCursor s = strip(cond);
    /* __builtin_expect(!(x), 0) from C10_UNLIKELY */
    if (kind(s) == CXCursor_CallExpr) {
        char *q = referenced_name(s);
        bool expect = q && strstr(q, "builtin_expect");
        free(q);
        if (expect) {
            CursorVec ch = children(s);
            CXCursor inner = ch.len >= 2 ? ch.items[1] : clang_getNullCursor();
            dl_vec_free(&ch);
            if (!clang_Cursor_isNull(inner)) s = strip(inner);
        }
    }
    if (kind(s) != CXCursor_UnaryOperator) return NULL;
    DlExpr *e = lower_expr(L, s);
    return e->kind == DL_EX_UNARY && e->name && strcmp(e->name, "not") == 0 ? e->object : NULL;
}

static void lower_if(Lower *L, CXCursor c, PtrVec *out) {
    CursorVec ch = children(c);
    size_t i = 0;
    /* C++17 if (init; cond) and if (T x = ...): declarations first */
    while (i < ch.len &&
           (kind(ch.items[i]) == CXCursor_DeclStmt || kind(ch.items[i]) == CXCursor_VarDecl)) {
        if (kind(ch.items[i]) == CXCursor_DeclStmt) lower_stmt(L, ch.items[i], out);
        i++;
    }
    if (i >= ch.len) goto done;
    CXCursor cond = ch.items[i], then = i + 1 < ch.len ? ch.items[i + 1] : clang_getNullCursor(),
             orelse = i + 2 < ch.len ? ch.items[i + 2] : clang_getNullCursor();
    bool fails = false;
    if (!clang_Cursor_isNull(then)) clang_visitChildren(then, find_failure, &fails);
    if (!clang_Cursor_isNull(then) && kind(then) == CXCursor_CallExpr)
        find_failure(then, c, &fails);
    if (fails && clang_Cursor_isNull(orelse)) {
        DlExpr *holds = negated_condition(L, cond);
        if (holds) {
            DlStmt *s = new_stmt(L, DL_ST_CHECK, span_of(L, c));
            s->value = holds;
            push_stmt(out, s);
            goto done;
        }
    }
    DlStmt *s = new_stmt(L, DL_ST_IF, span_of(L, c));
    s->value = lower_expr(L, cond);
    own_parts(L, s)->body = block_of(L, then);
    own_parts(L, s)->orelse = block_of(L, orelse);
    push_stmt(out, s);
done:
    dl_vec_free(&ch);
}

static DlExpr *var_target(Lower *L, CXCursor var) {
    DlSpan span = span_of(L, var);
    CXSourceLocation loc = clang_getCursorLocation(var);
    unsigned off = 0;
    clang_getFileLocation(loc, NULL, NULL, NULL, &off);
    const char *name = arena_take(L, clang_getCursorSpelling(var));
    DlExpr *e = new_expr(L, DL_EX_NAME, (DlSpan){off, off + (uint32_t)strlen(name)});
    if (e->span.end > span.end || e->span.end > L->src->len) e->span = span;
    e->name = name;
    dl_expr_extra(e)->cpp_ctype = type_spelling(L, clang_getCursorType(var));
    return e;
}

static DlStmt *lower_var_decl(Lower *L, CXCursor var, DlSpan stmt_span) {
    DlStmt *s = new_stmt(L, DL_ST_ASSIGN, stmt_span);
    s->targets = dl_arena_alloc(L->arena, sizeof(DlExpr *));
    s->targets[0] = var_target(L, var);
    s->target_count = 1;
    CursorVec ch = children(var);
    for (size_t i = 0; i < ch.len; i++)
        if (clang_isExpression(kind(ch.items[i]))) s->value = lower_expr(L, ch.items[i]);
    const char *type = engine_type(L, clang_getCursorType(var));
    if (type) s->annotation = dotted(L, type, s->targets[0]->span);
    const char *canonical = canonical_type(L, clang_getCursorType(var));
    if (strncmp(canonical, "torch::nn::", 11) == 0 && has_suffix(canonical, "Options")) {
        CXCursor init = clang_getNullCursor();
        for (size_t i = 0; i < ch.len; i++)
            if (clang_isExpression(kind(ch.items[i]))) init = ch.items[i];
        PtrVec kw = {0};
        if (!clang_Cursor_isNull(init) && lower_module_options(L, init, &kw, 0)) {
            OptionsVar *v = dl_arena_alloc(L->arena, sizeof *v);
            v->name = s->targets[0]->name;
            v->keyword_count = (uint32_t)kw.len;
            v->keywords = kw.len ? dl_arena_alloc(L->arena, kw.len * sizeof(DlArg)) : NULL;
            for (size_t i = 0; i < kw.len; i++)
                v->keywords[i] = *(DlArg *)kw.items[i];
            v->next = L->options_vars;
            L->options_vars = v;
        }
        dl_vec_free(&kw);
    }
    if (strstr(canonical, "TensorOptions")) {
        CXCursor init = clang_getNullCursor();
        for (size_t i = 0; i < ch.len; i++)
            if (clang_isExpression(kind(ch.items[i]))) init = ch.items[i];
        OptionsVar *v = dl_arena_alloc(L->arena, sizeof *v);
        v->name = s->targets[0]->name;
        if (!clang_Cursor_isNull(init))
            read_options(L, init, &v->options, 0);
        else
            v->options.opaque = true;
        v->next = L->options_vars;
        L->options_vars = v;
    }
    dl_vec_free(&ch);
    return s;
}

static void lower_expr_stmt(Lower *L, CXCursor c, PtrVec *out) {
    CXCursor s = strip(c);
    DlSpan span = span_of(L, c);
    /* assignments: builtin `=`, `+=`, and class types' operator= / operator+= */
    CursorVec ch = children(s);
    const char *op = NULL;
    CXCursor lhs = clang_getNullCursor(), rhs = clang_getNullCursor();
    if ((kind(s) == CXCursor_BinaryOperator || kind(s) == CXCursor_CompoundAssignOperator) &&
        ch.len == 2) {
        op = text_between(L, span_of(L, ch.items[0]).end, span_of(L, ch.items[1]).start);
        lhs = ch.items[0], rhs = ch.items[1];
    } else if (kind(s) == CXCursor_CallExpr) {
        const char *sp = arena_take(L, clang_getCursorSpelling(s));
        if (strncmp(sp, "operator", 8) == 0 && has_suffix(sp, "=") && strcmp(sp + 8, "==") &&
            strcmp(sp + 8, "!=") && strcmp(sp + 8, "<=") && strcmp(sp + 8, ">=")) {
            op = sp + 8;
            /* operands: the ones that are not the operator's own reference */
            CXCursor operands[2];
            int n = 0;
            for (size_t i = 0; i < ch.len && n < 2; i++) {
                CXCursor x = ch.items[i];
                if (kind(x) == CXCursor_MemberRefExpr) {
                    CursorVec recv = children(x);
                    if (recv.len) operands[n++] = recv.items[0];
                    dl_vec_free(&recv);
                    continue;
                }
                CXCursor st = strip(x);
                if (kind(st) == CXCursor_DeclRefExpr) {
                    const char *rs = arena_take(L, clang_getCursorSpelling(st));
                    if (strncmp(rs, "operator", 8) == 0) continue;
                }
                operands[n++] = x;
            }
            if (n == 2)
                lhs = operands[0], rhs = operands[1];
            else
                op = NULL;
        }
    }
    if (op && !clang_Cursor_isNull(lhs)) {
        bool plain = strcmp(op, "=") == 0;
        DlStmt *st = new_stmt(L, plain ? DL_ST_ASSIGN : DL_ST_AUGASSIGN, span);
        st->targets = dl_arena_alloc(L->arena, sizeof(DlExpr *));
        st->targets[0] = lower_expr(L, lhs);
        st->target_count = 1;
        st->value = lower_expr(L, rhs);
        if (!plain) st->op = op;
        push_stmt(out, st);
    } else {
        DlStmt *st = new_stmt(L, DL_ST_EXPR, span);
        st->value = lower_expr(L, c);
        push_stmt(out, st);
    }
    dl_vec_free(&ch);
}

static void lower_stmt_inner(Lower *L, CXCursor c, PtrVec *out);

static void lower_stmt(Lower *L, CXCursor c, PtrVec *out) {
    PtrVec outer = L->lambda_bodies, own = {0};
    L->lambda_bodies = (PtrVec){0};
    lower_stmt_inner(L, c, &own);
    if (L->lambda_bodies.len) {
        /* the bodies of the lambdas this statement wrote, as a conditional block before it (they
         * run while it does: `return [&] { ... }();` must not make them unreachable) */
        DlSpan span = span_of(L, c);
        DlStmt *s = new_stmt(L, DL_ST_IF, span);
        s->value = new_expr(L, DL_EX_OTHER, span);
        own_parts(L, s)->body = finish_block(L, &L->lambda_bodies);
        push_stmt(out, s);
    }
    for (size_t i = 0; i < own.len; i++)
        dl_vec_push(out, own.items[i]);
    dl_vec_free(&own);
    dl_vec_free(&L->lambda_bodies);
    L->lambda_bodies = outer;
}

static void lower_stmt_inner(Lower *L, CXCursor c, PtrVec *out) {
    if (++L->depth > MAX_DEPTH) {
        L->depth--;
        return;
    }
    DlSpan span = span_of(L, c);
    enum CXCursorKind k = kind(c);
    CursorVec ch = children(c);
    bool outer_switch = L->break_leaves_switch;
    if (k == CXCursor_SwitchStmt) L->break_leaves_switch = true;
    if (k == CXCursor_ForStmt || k == CXCursor_CXXForRangeStmt || k == CXCursor_WhileStmt ||
        k == CXCursor_DoStmt)
        L->break_leaves_switch = false;
    switch (k) {
    case CXCursor_CompoundStmt:
        lower_block(L, c, out);
        break;
    case CXCursor_DeclStmt:
        for (size_t i = 0; i < ch.len; i++)
            if (kind(ch.items[i]) == CXCursor_VarDecl)
                push_stmt(out, lower_var_decl(L, ch.items[i],
                                              ch.len == 1 ? span : span_of(L, ch.items[i])));
        break;
    case CXCursor_ReturnStmt: {
        DlStmt *s = new_stmt(L, DL_ST_RETURN, span);
        if (ch.len) s->value = lower_expr(L, ch.items[0]);
        push_stmt(out, s);
        break;
    }
    case CXCursor_IfStmt:
        lower_if(L, c, out);
        break;
    case CXCursor_ForStmt: {
        /* for (init; cond; inc) body -> init; while cond: body; inc */
        DlStmt *s = new_stmt(L, DL_ST_WHILE, span);
        PtrVec body = {0};
        for (size_t i = 0; i + 1 < ch.len; i++) {
            if (kind(ch.items[i]) == CXCursor_DeclStmt)
                lower_stmt(L, ch.items[i], out);
            else if (!s->value && clang_isExpression(kind(ch.items[i])))
                s->value = lower_expr(L, ch.items[i]);
        }
        if (ch.len) lower_stmt(L, ch.items[ch.len - 1], &body);
        if (!s->value) {
            s->value = new_expr(L, DL_EX_CONST, span);
            s->value->name = "True";
        }
        own_parts(L, s)->body = finish_block(L, &body);
        push_stmt(out, s);
        break;
    }
    case CXCursor_CXXForRangeStmt: {
        DlStmt *s = new_stmt(L, DL_ST_FOR, span);
        CXCursor var = clang_getNullCursor(), range = clang_getNullCursor(),
                 body = clang_getNullCursor();
        for (size_t i = 0; i < ch.len; i++) {
            if (kind(ch.items[i]) == CXCursor_VarDecl && clang_Cursor_isNull(var))
                var = ch.items[i];
            else if (clang_isExpression(kind(ch.items[i])) && clang_Cursor_isNull(range))
                range = ch.items[i];
            else if (clang_isStatement(kind(ch.items[i])))
                body = ch.items[i];
        }
        if (clang_Cursor_isNull(var) || clang_Cursor_isNull(range)) break;
        s->targets = dl_arena_alloc(L->arena, sizeof(DlExpr *));
        s->targets[0] = var_target(L, var);
        s->target_count = 1;
        s->value = lower_expr(L, range);
        own_parts(L, s)->body = block_of(L, body);
        /* `for (auto& t : tensors)`: the compiler knows t is a tensor; say so at the top of the
         * body (t: torch.Tensor = t), as the engine learns nothing from a std::vector's type */
        const char *type = engine_type(L, clang_getCursorType(var));
        if (type) {
            DlStmt *a = new_stmt(L, DL_ST_ASSIGN, s->targets[0]->span);
            a->targets = s->targets;
            a->target_count = 1;
            a->value = s->targets[0];
            a->annotation = dotted(L, type, s->targets[0]->span);
            DlBlock *body = &own_parts(L, s)->body;
            DlStmt **items = dl_arena_alloc(L->arena, (body->count + 1) * sizeof(DlStmt *));
            items[0] = a;
            if (body->count) memcpy(items + 1, body->items, body->count * sizeof(DlStmt *));
            body->items = items;
            body->count++;
        }
        push_stmt(out, s);
        break;
    }
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt: {
        if (kind(c) == CXCursor_DoStmt && runs_once(ch)) {
            /* `do { ... } while (false)`, the body of a statement-like macro (AT_ASSERTM,
             * C10_CUDA_CHECK): the statements run once, in order, as written */
            for (size_t i = 0; i < ch.len; i++)
                if (clang_isStatement(kind(ch.items[i]))) lower_block(L, ch.items[i], out);
            break;
        }
        DlStmt *s = new_stmt(L, DL_ST_WHILE, span);
        CXCursor body = clang_getNullCursor();
        for (size_t i = 0; i < ch.len; i++) {
            if (clang_isExpression(kind(ch.items[i])) && !s->value)
                s->value = lower_expr(L, ch.items[i]);
            else if (clang_isStatement(kind(ch.items[i])))
                body = ch.items[i];
        }
        if (!s->value) {
            s->value = new_expr(L, DL_EX_CONST, span);
            s->value->name = "True";
        }
        own_parts(L, s)->body = block_of(L, body);
        push_stmt(out, s);
        break;
    }
    case CXCursor_SwitchStmt:
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
    case CXCursor_LabelStmt:
    case CXCursor_CXXTryStmt:
    case CXCursor_CXXCatchStmt: {
        /* control flow devlint does not model: the statements inside, as if conditional */
        DlStmt *s = new_stmt(L, DL_ST_IF, span);
        s->value = new_expr(L, DL_EX_OTHER, span);
        PtrVec body = {0};
        for (size_t i = 0; i < ch.len; i++)
            if (clang_isStatement(kind(ch.items[i])) || clang_isExpression(kind(ch.items[i])))
                lower_stmt(L, ch.items[i], &body);
        own_parts(L, s)->body = finish_block(L, &body);
        push_stmt(out, s);
        break;
    }
    case CXCursor_BreakStmt:
        /* out of a switch: the cases are lowered as conditional blocks one after another, so
         * what follows the switch is reached from each of them */
        if (!L->break_leaves_switch) push_stmt(out, new_stmt(L, DL_ST_BREAK, span));
        break;
    case CXCursor_ContinueStmt:
        push_stmt(out, new_stmt(L, DL_ST_CONTINUE, span));
        break;
    case CXCursor_NullStmt:
        break;
    default:
        if (clang_isExpression(k)) {
            if (k == CXCursor_CXXThrowExpr)
                push_stmt(out, new_stmt(L, DL_ST_RAISE, span));
            else
                lower_expr_stmt(L, c, out);
        }
        break;
    }
    dl_vec_free(&ch);
    L->break_leaves_switch = outer_switch;
    L->depth--;
}

static void lower_block(Lower *L, CXCursor c, PtrVec *out) {
    if (kind(c) != CXCursor_CompoundStmt) {
        lower_stmt(L, c, out);
        return;
    }
    CursorVec ch = children(c);
    for (size_t i = 0; i < ch.len; i++)
        lower_stmt(L, ch.items[i], out);
    dl_vec_free(&ch);
}

/* ---------------------------------------------------------------- declarations */

static DlFunction *lower_function(Lower *L, CXCursor c) {
    CursorVec ch = children(c);
    CXCursor body = clang_getNullCursor();
    for (size_t i = 0; i < ch.len; i++)
        if (kind(ch.items[i]) == CXCursor_CompoundStmt) body = ch.items[i];
    if (clang_Cursor_isNull(body)) {
        dl_vec_free(&ch);
        return NULL; /* a declaration */
    }
    DlFunction *fn = dl_arena_alloc(L->arena, sizeof *fn);
    enum CXCursorKind k = kind(c);
    fn->name = k == CXCursor_Constructor ? "__init__" : arena_take(L, clang_getCursorSpelling(c));
    fn->span = span_of(L, c);
    CXSourceLocation loc = clang_getCursorLocation(c);
    unsigned off = 0;
    clang_getFileLocation(loc, NULL, NULL, NULL, &off);
    fn->name_span = (DlSpan){off, off + (uint32_t)strlen(fn->name)};
    if (fn->name_span.end > L->src->len) fn->name_span = fn->span;
    bool method = (k == CXCursor_CXXMethod || k == CXCursor_Constructor) && L->current_class;
    fn->owner = method ? L->current_class : NULL;
    DL_VEC(DlParam) params = {0};
    if (method) {
        DlParam self = {.name = "self", .span = fn->name_span};
        dl_vec_push(&params, self);
    }
    for (size_t i = 0; i < ch.len; i++) {
        if (kind(ch.items[i]) != CXCursor_ParmDecl) continue;
        DlParam p = {0};
        p.name = arena_take(L, clang_getCursorSpelling(ch.items[i]));
        p.span = span_of(L, ch.items[i]);
        const char *type = engine_type(L, clang_getCursorType(ch.items[i]));
        if (type) p.annotation = dotted(L, type, p.span);
        dl_vec_push(&params, p);
    }
    fn->param_count = (uint32_t)params.len;
    if (params.len) {
        fn->params = dl_arena_alloc(L->arena, params.len * sizeof(DlParam));
        memcpy(fn->params, params.items, params.len * sizeof(DlParam));
    }
    dl_vec_free(&params);
    PtrVec stmts = {0};
    OptionsVar *saved_options = L->options_vars;
    L->options_vars = NULL;
    /* a constructor's member initialisers (`: criterion_(opts)`) run first: self.criterion_ = */
    for (size_t i = 0; k == CXCursor_Constructor && i + 1 < ch.len; i++) {
        if (kind(ch.items[i]) != CXCursor_MemberRef || !clang_isExpression(kind(ch.items[i + 1])))
            continue;
        DlSpan at = span_of(L, ch.items[i]);
        DlStmt *s = new_stmt(L, DL_ST_ASSIGN, (DlSpan){at.start, span_of(L, ch.items[i + 1]).end});
        DlExpr *target = new_expr(L, DL_EX_ATTR, at);
        target->object = dotted(L, "self", at);
        target->name = arena_take(L, clang_getCursorSpelling(ch.items[i]));
        s->targets = dl_arena_alloc(L->arena, sizeof(DlExpr *));
        s->targets[0] = target;
        s->target_count = 1;
        s->value = lower_expr(L, ch.items[i + 1]);
        push_stmt(&stmts, s);
        i++;
    }
    lower_block(L, body, &stmts);
    L->options_vars = saved_options;
    fn->body = finish_block(L, &stmts);
    dl_vec_push(&L->functions, fn);
    dl_vec_free(&ch);
    return fn;
}

static void lower_decls(Lower *L, CXCursor parent, PtrVec *out);

static void lower_class(Lower *L, CXCursor c, PtrVec *out) {
    if (!clang_isCursorDefinition(c)) return;
    DlClass *cls = dl_arena_alloc(L->arena, sizeof *cls);
    cls->name = arena_take(L, clang_getCursorSpelling(c));
    cls->span = span_of(L, c);
    cls->name_span = cls->span;
    if (class_derives_module(c, 0)) {
        cls->bases = dl_arena_alloc(L->arena, sizeof(DlExpr *));
        cls->bases[0] = dotted(L, "torch.nn.Module", cls->span);
        cls->base_count = 1;
    }
    DlClass *saved = L->current_class;
    L->current_class = cls;
    PtrVec body = {0}, methods = {0};
    lower_decls(L, c, &body);
    for (size_t i = 0; i < body.len; i++) {
        DlStmt *s = body.items[i];
        if (s->kind == DL_ST_DEF) dl_vec_push(&methods, s->parts->func);
    }
    cls->body = finish_block(L, &body);
    cls->methods = (DlFunction **)dl_ptrvec_finish(L->arena, &methods, &cls->method_count);
    L->current_class = saved;
    DlStmt *s = new_stmt(L, DL_ST_CLASS, cls->span);
    own_parts(L, s)->cls = cls;
    push_stmt(out, s);
    dl_vec_push(&L->classes, cls);
}

static void lower_decls(Lower *L, CXCursor parent, PtrVec *out) {
    CursorVec ch = children(parent);
    for (size_t i = 0; i < ch.len; i++) {
        CXCursor c = ch.items[i];
        if (!in_main_file(L, c)) continue;
        switch (kind(c)) {
        case CXCursor_Namespace:
        case CXCursor_LinkageSpec:
            lower_decls(L, c, out);
            break;
        case CXCursor_StructDecl:
        case CXCursor_ClassDecl:
        case CXCursor_ClassTemplate:
            lower_class(L, c, out);
            break;
        case CXCursor_FunctionDecl:
        case CXCursor_CXXMethod:
        case CXCursor_Constructor:
        case CXCursor_FunctionTemplate: {
            DlClass *saved = L->current_class;
            /* out-of-line member definitions (Net::forward) belong to no lowered class */
            if (kind(parent) != CXCursor_StructDecl && kind(parent) != CXCursor_ClassDecl &&
                kind(parent) != CXCursor_ClassTemplate)
                L->current_class = NULL;
            DlFunction *fn = lower_function(L, c);
            L->current_class = saved;
            if (fn) {
                DlStmt *s = new_stmt(L, DL_ST_DEF, fn->span);
                own_parts(L, s)->func = fn;
                push_stmt(out, s);
            }
            break;
        }
        default:
            break;
        }
    }
    dl_vec_free(&ch);
}

/* Comments, for suppressions: every comment token of the file. */
static void collect_comments(Lower *L) {
    CXSourceRange whole =
        clang_getRange(clang_getLocationForOffset(L->tu, L->file, 0),
                       clang_getLocationForOffset(L->tu, L->file, (unsigned)L->src->len));
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(L->tu, whole, &tokens, &n);
    DL_VEC(DlCommentSpan) out = {0};
    for (unsigned i = 0; i < n; i++) {
        if (clang_getTokenKind(tokens[i]) != CXToken_Comment) continue;
        CXSourceRange r = clang_getTokenExtent(L->tu, tokens[i]);
        unsigned a = 0, b = 0, line = 0;
        clang_getFileLocation(clang_getRangeStart(r), NULL, &line, NULL, &a);
        clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &b);
        DlCommentSpan s = {a, b, (int)line};
        dl_vec_push(&out, s);
    }
    clang_disposeTokens(L->tu, tokens, n);
    L->module->comment_count = (uint32_t)out.len;
    if (out.len) {
        L->module->comments = dl_arena_alloc(L->arena, out.len * sizeof(DlCommentSpan));
        memcpy(L->module->comments, out.items, out.len * sizeof(DlCommentSpan));
    }
    dl_vec_free(&out);
}

/* ---------------------------------------------------------------- parsing */

/* The header of a "file not found" error, and the file whose #include named it (malloc'ed). */
typedef struct MissingHeader {
    char *name, *includer;
} MissingHeader;

/* The error of a file that includes a header not found (`name`, as written, included at
 * where:line): the compiler's, or the include scan's before it runs. */
static char *missing_header_message(const char *name, const char *where, unsigned line) {
    /* libtorch's CUDA headers are missing from CPU-only builds (Debian's libtorch-dev) */
    bool cuda_part = strncmp(name, "c10/cuda/", 9) == 0 || strncmp(name, "ATen/cuda/", 10) == 0;
    return dl_xasprintf("header `%s` not found (included at %s:%u): devlint needs the file's "
                        "compile flags to see its calls; pass the directory of a "
                        "compile_commands.json with -p DIR (CMake: "
                        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON), or put one next to the sources%s",
                        name, where, line,
                        cuda_part ? " (this libtorch has no CUDA headers: use the flags of a "
                                    "CUDA build of PyTorch)"
                                  : "");
}

/* A fatal diagnostic (a missing header above all: then libclang keeps only declarations and
 * every call is lost) as the file's error; a missing header is also told in `header`. */
static char *fatal_error(CXTranslationUnit tu, const char *path, MissingHeader *header) {
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        /* KeepGoing turns a missing header's fatal error into an error: look for it by name */
        char *spelling = take(clang_getDiagnosticSpelling(d));
        bool missing = sev >= CXDiagnostic_Error && strstr(spelling, "file not found");
        free(spelling);
        if (sev != CXDiagnostic_Fatal && !missing) {
            clang_disposeDiagnostic(d);
            continue;
        }
        char *msg = take(clang_getDiagnosticSpelling(d));
        CXFile f = NULL;
        unsigned line = 0;
        clang_getFileLocation(clang_getDiagnosticLocation(d), &f, &line, NULL, NULL);
        char *where = f ? take(clang_getFileName(f)) : strdup(path);
        clang_disposeDiagnostic(d);
        char *out = NULL;
        const char *q1 = strchr(msg, '\''), *q2 = q1 ? strchr(q1 + 1, '\'') : NULL;
        if (strstr(msg, "file not found") && q1 && q2) {
            header->name = strndup(q1 + 1, (size_t)(q2 - q1 - 1));
            header->includer = f ? dl_xstrdup(where) : NULL;
            if (!header->name) abort();
            out = missing_header_message(header->name, where, line);
        } else if (asprintf(&out, "the compiler stopped at %s:%u: %s", where, line, msg) < 0) {
            abort();
        }
        free(msg);
        free(where);
        return out;
    }
    return NULL;
}

/* Errors that are not fatal: the compiler kept going, but declarations it could not type (a
 * libtorch of another version, a flag missing) may have lost their bodies. Said, not hidden:
 * NULL when there are none, else "N compile errors, the first at FILE:LINE: MESSAGE ...", their
 * number in *count. Errors in `ignored` (the includer a header is read inside: its own code
 * cannot change what the header declares) are not counted. */
static char *compile_errors(CXTranslationUnit tu, CXFile ignored, unsigned *count) {
    unsigned n = clang_getNumDiagnostics(tu), errors = 0;
    char *first = NULL;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        CXFile f = NULL;
        unsigned line = 0;
        clang_getFileLocation(clang_getDiagnosticLocation(d), &f, &line, NULL, NULL);
        bool counted = !(ignored && f && clang_File_isEqual(f, ignored));
        if (counted && clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && !errors++) {
            char *msg = take(clang_getDiagnosticSpelling(d));
            char *where = f ? take(clang_getFileName(f)) : dl_xstrdup("?");
            first = dl_xasprintf("%s:%u: %s", where, line, msg);
            free(where);
            free(msg);
        }
        clang_disposeDiagnostic(d);
    }
    *count = errors;
    if (!errors) return NULL;
    char *out = dl_xasprintf(
        "%u compile error%s, the first at %s; findings for this file may be incomplete (is "
        "this the libtorch the code is built against? pass its compile flags with -p DIR)",
        errors, errors == 1 ? "" : "s", first);
    free(first);
    return out;
}

uint64_t dl_cpp_command_hash(const char *path, const char *compile_db_dir) {
    DlCompileCommand cmd = {0};
    char *error = NULL;
    /* the compiler: which libclang file, else (a soname) the version it reports */
    uint64_t h = dl_clang_library_identity();
    if (!h && !dl_clang_load(NULL)) return 0;
    if (!dl_cpp_compile_command(path, compile_db_dir, &cmd, &error)) {
        free(error);
        return 0;
    }
    if (h) {
        h = dl_hash_bytes(&h, sizeof h, 0x43505002u);
    } else {
        CXString version = clang_getClangVersion();
        const char *v = clang_getCString(version);
        h = dl_hash_bytes(v ? v : "", v ? strlen(v) : 0, 0x43505001u);
        clang_disposeString(version);
    }
    for (size_t i = 0; i < cmd.arg_count; i++)
        h = dl_hash_bytes(cmd.args[i], strlen(cmd.args[i]) + 1, h);
    dl_cpp_compile_command_free(&cmd);
    return h ? h : 1;
}

typedef struct Deps {
    DL_VEC(char *) paths;
    CXFile main_file;
} Deps;

static void collect_inclusion(CXFile included, CXSourceLocation *stack, unsigned depth,
                              CXClientData data) {
    (void)stack, (void)depth;
    Deps *d = data;
    if (clang_File_isEqual(included, d->main_file)) return;
    char *name = take(clang_getFileName(included));
    if (!*name) {
        free(name);
        return;
    }
    dl_vec_push(&d->paths, name);
}

/* Every file the compiler read for this TU but the file itself. clang_getInclusions does not
 * list what came from a PCH: those are in the PCH's .deps sidecar ("SIZE SEC NSEC PATH" lines,
 * the .pch itself first; cpp_pch.h), whose headers are taken and not the PCH's own files. */
static void collect_deps(CXTranslationUnit tu, CXFile main_file, const char *pch,
                         DlParseResult *result) {
    Deps d = {.main_file = main_file};
    clang_getInclusions(tu, collect_inclusion, &d);
    size_t n = pch ? strlen(pch) : 0;
    const char *slash = pch ? strrchr(pch, '/') : NULL;
    size_t dir_len = slash ? (size_t)(slash - pch) + 1 : 0; /* "<cache>/pch/" */
    if (n > 4 && strcmp(pch + n - 4, ".pch") == 0) {
        char *sidecar = dl_xasprintf("%.*s.deps", (int)(n - 4), pch);
        FILE *f = fopen(sidecar, "r");
        char line[4096];
        while (f && fgets(line, sizeof line, f)) {
            long long size, sec, nsec;
            int used = 0;
            if (sscanf(line, "%lld %lld %lld %n", &size, &sec, &nsec, &used) != 3 || !used)
                continue;
            line[strcspn(line, "\n")] = 0;
            /* the headers the PCH holds, not the .pch and its prelude file themselves: a PCH
             * evicted and rebuilt (cpp_pch.h keeps 8) says the same, and a result must not go
             * stale with it, or a project with more than 8 preludes never has a warm run */
            bool pch_file = strncmp(line + used, pch, dir_len) == 0 && !strchr(line + used + dir_len, '/');
            if (line[used] && !pch_file) dl_vec_push(&d.paths, dl_xstrdup(line + used));
        }
        if (f)
            fclose(f);
        else
            dl_vec_push(&d.paths, dl_xstrdup(sidecar)); /* unreadable: never a cache hit */
        free(sidecar);
    }
    /* a list, even empty (a header that includes nothing): NULL means "not read through" */
    result->deps = d.paths.items ? d.paths.items : calloc(1, sizeof(char *));
    if (!result->deps) abort();
    result->dep_count = d.paths.len;
}

/* A header read inside its includer: its result depends on the includer's text and on the
 * compile command taken from the includer's entry too. */
static void add_includer_deps(DlParseResult *result, const DlCompileCommand *cmd,
                              const char *includer) {
    const char *extra[2] = {includer, cmd->database};
    for (size_t k = 0; k < 2; k++) {
        if (!extra[k]) continue;
        bool listed = false;
        for (size_t i = 0; i < result->dep_count && !listed; i++)
            listed = strcmp(result->deps[i], extra[k]) == 0;
        if (listed) continue;
        char **all = realloc(result->deps, (result->dep_count + 2) * sizeof *all);
        if (!all) abort();
        all[result->dep_count++] = dl_xstrdup(extra[k]);
        result->deps = all;
    }
}

/* A missing header fails the same way on the next run while the files the compiler read stay as
 * they are and the header does not appear: its dependencies are those files and the directories
 * it would appear in (cpp_missing_header.h), so the failure is cached like a result. Parsing a
 * CUDA file against a CPU-only libtorch takes seconds before it fails. */
static void watch_missing_header(CXTranslationUnit tu, struct CXUnsavedFile *unsaved,
                                 const char *pch, const ArgList *args,
                                 const MissingHeader *missing, DlParseResult *result) {
    collect_deps(tu, clang_getFile(tu, unsaved->Filename), pch, result);
    size_t n = 0;
    char **dirs = dl_cpp_missing_header_watch(missing->name, missing->includer,
                                              (char *const *)args->items, args->len, &n);
    char **all = realloc(result->deps, (result->dep_count + n + 1) * sizeof *all);
    if (!all) abort();
    if (n) memcpy(all + result->dep_count, dirs, n * sizeof *dirs);
    free(dirs);
    result->deps = all;
    result->dep_count += n;
}

/* Code the compiler is known to crash on (cpp_crash_guard.h), in the file or the header it is
 * checked for: the reason in result->error. DEVLINT_CPP_CRASH_GUARD=0 hands such code to the
 * compiler, whose crash the parse guard then catches (cpp_parse_guard.h; its tests). */
static bool crashing_code(const DlSource *main_src, const DlSource *header,
                          DlParseResult *result) {
    const char *off = getenv("DEVLINT_CPP_CRASH_GUARD");
    if (off && strcmp(off, "0") == 0) return false;
    DlCppCrashSite crash;
    if (!dl_cpp_crashing_code(main_src->text, main_src->len, &crash) &&
        !(header && dl_cpp_crashing_code(header->text, header->len, &crash)))
        return false;
    result->error = dl_xasprintf("line %u, column %u: %s is a syntax error on which the C++ "
                                 "parser recurses until it crashes; fix it and devlint can "
                                 "check the file",
                                 crash.line, crash.column, crash.what);
    return true;
}

/* A header that is in none of the directories the compiler could search, found from the
 * #include lines before the compiler runs (cpp_include_scan.h): the failure the parse would end
 * in, without the seconds it takes, cached like it (watch_missing_header) with the headers the
 * scan found before it. DEVLINT_CPP_INCLUDE_SCAN=0 leaves every file to the compiler. */
static bool missing_include(const DlSource *src, const char *path, const ArgList *args,
                            const DlCppOptions *opts, DlParseResult *result) {
    const char *off = getenv("DEVLINT_CPP_INCLUDE_SCAN");
    if (off && strcmp(off, "0") == 0) return false;
    DlCppIncludeScan scan;
    if (!dl_cpp_include_scan(path, src->text, src->len, (char *const *)args->items, args->len,
                             opts->stats, opts->includes, &scan) ||
        !scan.missing) {
        dl_cpp_include_scan_free(&scan);
        return false;
    }
    result->error = missing_header_message(scan.missing, scan.includer, scan.line);
    size_t n = 0;
    char **dirs = dl_cpp_missing_header_watch(scan.missing, scan.includer,
                                              (char *const *)args->items, args->len, &n);
    result->deps = malloc((scan.read_count + n + 1) * sizeof(char *));
    if (!result->deps) abort();
    if (scan.read_count) memcpy(result->deps, scan.read, scan.read_count * sizeof(char *));
    if (n) memcpy(result->deps + scan.read_count, dirs, n * sizeof(char *));
    result->dep_count = scan.read_count + n;
    free(dirs);
    scan.read_count = 0; /* the paths are the result's now */
    dl_cpp_include_scan_free(&scan);
    return true;
}

/* Parses `src` with its compile command and lowers it; or, given `includer`, parses that file
 * with its command (the header's text as `src` has it) and lowers what the header declares
 * (cpp_includer.h). `*errors`: the compile errors of the translation unit. */
static DlParseResult parse_and_lower(const DlSource *src, DlArena *arena,
                                     const DlCppOptions *opts, const DlSource *includer,
                                     unsigned *errors) {
    DlParseResult result = {0};
    const DlSource *main_src = includer ? includer : src;
    DlCompileCommand cmd = {0};
    char *error = NULL;
    *errors = 0;
    if (!dl_clang_load(&error) ||
        !dl_cpp_compile_command(main_src->path, opts->compile_db_dir, &cmd, &error)) {
        result.error = error;
        return result;
    }
    /* excludeDeclarationsFromPCH: visiting the TU then yields this parse's own top-level
     * declarations, not the PCH's tens of thousands, whose locations (line numbers: every
     * header opened and read again) made lowering cost ~90 ms a file */
    CXIndex index = clang_createIndex(1, 0);
    ArgList args = {0};
    for (size_t i = 0; i < cmd.arg_count; i++)
        dl_vec_push(&args, cmd.args[i]);
    dl_vec_push(&args, "-ferror-limit=0"); /* keep going: "too many errors" would stop it */
    /* extensions written for PyTorch before 1.5 check their tensors with `AT_CHECK(x.type().
     * is_cuda(), ...)`, which later libtorch renamed TORCH_CHECK: undeclared there, the checks
     * would be lost (neural_renderer's bindings); a definition the code's own headers give
     * takes precedence (a redefinition is only a warning) */
    dl_vec_push(&args, "-DAT_CHECK=TORCH_CHECK");
    char *pch = NULL;
    char *cache = opts->cache_dir ? strdup(opts->cache_dir) : dl_cpp_default_cache_dir();
    char *owned[4];
    size_t owned_count = 0;
    if (cmd.is_cuda) dl_cpp_add_cuda_compat_flags(&args, cache, owned, &owned_count);
    char *abs = realpath(main_src->path, NULL);
    char *header_abs = includer ? realpath(src->path, NULL) : NULL;
    char *main_joined = NULL, *header_joined = NULL; /* the texts the compiler reads, if not src's */
    CXTranslationUnit tu = NULL;
    if (missing_include(main_src, abs ? abs : main_src->path, &args, opts, &result)) {
        free(cache);
        goto out;
    }
    if (crashing_code(main_src, includer ? src : NULL, &result)) {
        free(cache);
        goto out;
    }
    if (!opts->no_pch && cache) {
        /* the PCH is keyed by the arguments, so it is built with the same ones */
        DlCompileCommand with_compat = cmd;
        with_compat.args = (char **)args.items;
        with_compat.arg_count = args.len;
        char *pch_error = NULL;
        pch = dl_cpp_pch_for_run(index, &with_compat, main_src->text, main_src->len, cache,
                                 opts->stats, &pch_error);
        free(pch_error); /* no PCH: slower, not wrong */
    }
    free(cache);
    if (pch) {
        dl_vec_push(&args, "-include-pch");
        dl_vec_push(&args, pch);
    }
    /* the text devlint read (an editor's unsaved buffer too) is what the compiler reads */
    /* ... with `kernel << <g, b >> > (...)` joined into a launch, as nvcc reads it */
    if (cmd.is_cuda) main_joined = dl_cpp_join_spaced_chevrons(main_src->text, main_src->len);
    if (cmd.is_cuda && includer) header_joined = dl_cpp_join_spaced_chevrons(src->text, src->len);
    struct CXUnsavedFile unsaved[2] = {
        {abs ? abs : main_src->path, main_joined ? main_joined : main_src->text,
         (unsigned long)main_src->len},
        {header_abs ? header_abs : src->path, header_joined ? header_joined : src->text,
         (unsigned long)src->len}};
    unsigned unsaved_count = includer ? 2 : 1;
    /* Incomplete: no end-of-TU work, which lowering never reads: no implicit instantiation of
     * function bodies, and in CUDA mode no deferred host/device diagnostics, which deserialise
     * every function the PCH recorded for them (half the parse of a .cu file) */
    unsigned parse_options = CXTranslationUnit_KeepGoing | CXTranslationUnit_Incomplete;
    const char *crash = NULL; /* cpp_parse_guard.h */
    enum CXErrorCode rc =
        dl_cpp_parse_guarded(index, unsaved[0].Filename, args.items, (int)args.len, unsaved,
                             unsaved_count, parse_options, &tu, &crash);
    if (rc != CXError_Success && rc != CXError_Crashed && pch) {
        /* the PCH went stale under us (a header changed, another process evicted it): parse
         * without it */
        args.len -= 2;
        rc = dl_cpp_parse_guarded(index, unsaved[0].Filename, args.items, (int)args.len,
                                  unsaved, unsaved_count, parse_options, &tu, &crash);
    }
    if (rc == CXError_Crashed && crash) {
        result.error = dl_xasprintf("the C++ compiler devlint embeds (libclang) crashed on this "
                                    "file: %s; devlint could not check it",
                                    crash);
        goto out;
    }
    if (rc != CXError_Success || !tu) {
        if (asprintf(&result.error, "the C++ parser could not read this file (libclang error %d)",
                     (int)rc) < 0)
            abort();
        goto out;
    }
    if (getenv("DEVLINT_CPP_DEBUG")) { /* the command and what the compiler said */
        fprintf(stderr, "devlint: %s:", main_src->path);
        for (size_t i = 0; i < args.len; i++)
            fprintf(stderr, " %s", args.items[i]);
        fputc('\n', stderr);
        for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
            CXDiagnostic d = clang_getDiagnostic(tu, i);
            char *text = take(clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions()));
            fprintf(stderr, "  %s\n", text);
            free(text);
            clang_disposeDiagnostic(d);
        }
    }
    MissingHeader missing = {0};
    if ((result.error = fatal_error(tu, main_src->path, &missing))) {
        if (missing.name) watch_missing_header(tu, &unsaved[0], pch, &args, &missing, &result);
        free(missing.name);
        free(missing.includer);
        goto out;
    }
    result.incomplete =
        compile_errors(tu, includer ? clang_getFile(tu, unsaved[0].Filename) : NULL, errors);
    Lower L = {.src = src, .arena = arena, .tu = tu};
    L.file = clang_getFile(tu, unsaved[includer ? 1 : 0].Filename);
    if (!L.file) { /* the includer's #include found another file of that name */
        result.error = dl_xasprintf("%s does not include this header", main_src->path);
        goto out;
    }
    L.module = dl_arena_alloc(arena, sizeof *L.module);
    L.module->language = DL_LANG_CPP;
    L.module->source = src;
    L.module->module_name = dl_arena_strdup(arena, src->path);
    /* `torch` names libtorch everywhere in the lowered model, as if imported */
    PtrVec body = {0};
    DlStmt *imp = new_stmt(&L, DL_ST_IMPORT, (DlSpan){0, 0});
    imp->imports = dl_arena_alloc(arena, sizeof(DlImport));
    imp->imports[0] = (DlImport){.module = "torch", .alias = "torch"};
    imp->import_count = 1;
    push_stmt(&body, imp);
    lower_decls(&L, clang_getTranslationUnitCursor(tu), &body);
    L.module->body = finish_block(&L, &body);
    L.module->functions = (DlFunction **)dl_ptrvec_finish(L.arena, &L.functions, &L.module->function_count);
    L.module->classes = (DlClass **)dl_ptrvec_finish(L.arena, &L.classes, &L.module->class_count);
    L.module->mentions_devices = true;
    collect_comments(&L);
    collect_deps(tu, L.file, pch, &result);
    if (includer) add_includer_deps(&result, &cmd, unsaved[0].Filename);
    result.module = L.module;
out:
    if (tu) clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    /* A translation unit over libtorch's headers frees hundreds of megabytes, which glibc
     * keeps in the thread's arena for the next one; the next one's pieces fit it badly, and
     * a run over 146 such files held 830 MB on one thread. Give them back now. */
    malloc_trim(0);
    dl_vec_free(&args);
    for (size_t i = 0; i < owned_count; i++)
        free(owned[i]);
    free(pch);
    free(abs);
    free(header_abs);
    free(main_joined);
    free(header_joined);
    dl_cpp_compile_command_free(&cmd);
    return result;
}

static void free_result(DlParseResult *r) {
    for (size_t i = 0; i < r->dep_count; i++)
        free(r->deps[i]);
    free(r->deps);
    free(r->error);
    free(r->incomplete);
    memset(r, 0, sizeof *r);
}

DlParseResult dl_cpp_parse(const DlSource *src, DlArena *arena, const DlCppOptions *opts) {
    DlCppOptions none = {0};
    if (!opts) opts = &none;
    unsigned errors = 0;
    DlParseResult alone = parse_and_lower(src, arena, opts, NULL, &errors);
    if (!alone.incomplete || !dl_cpp_is_header_path(src->path)) return alone;
    /* a header that does not compile on its own: read it as a file that includes it does */
    char *path = dl_cpp_find_includer(src->path);
    DlSource includer;
    char *why = NULL;
    if (!path || !dl_source_load(&includer, path, 0, &why)) {
        free(why);
        free(path);
        return alone;
    }
    unsigned errors_inside = 0;
    DlParseResult inside = parse_and_lower(src, arena, opts, &includer, &errors_inside);
    dl_source_free(&includer);
    if (inside.error || errors_inside >= errors) {
        free_result(&inside);
        free(path);
        return alone;
    }
    free_result(&alone);
    if (inside.incomplete) {
        char *note = dl_xasprintf("%s; read inside %s, which includes it", inside.incomplete, path);
        free(inside.incomplete);
        inside.incomplete = note;
    }
    free(path);
    return inside;
}
