/* The program model: what the front ends produce and the dataflow engine reads. It is a small
 * structured AST (statements in blocks, expressions as trees) with byte spans into the source,
 * language-neutral enough that rules never see tree-sitter. Everything lives in the file's arena.
 *
 * Invariants: names are NUL-terminated arena strings; every node has a span (start <= end, byte
 * offsets into DlSource.text); optional children are NULL; counts describe arrays exactly. */
#ifndef DL_IR_H
#define DL_IR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arena.h"
#include "core/source.h"
#include "core/suppress.h"

typedef struct DlSpan {
    uint32_t start, end;
} DlSpan;

typedef enum __attribute__((packed)) { /* one byte: see DlExpr */
    DL_EX_OTHER = 0,
    DL_EX_NAME,      /* name */
    DL_EX_ATTR,      /* object.name */
    DL_EX_CALL,      /* object(args) */
    DL_EX_SUBSCRIPT, /* object[items[0], ...] */
    DL_EX_NUMBER,    /* name = literal text */
    DL_EX_STRING,    /* name = contents without quotes/prefix (NULL for f-strings, whose
                        {expressions} are the items) */
    DL_EX_CONST,     /* True / False / None / ...: name = text */
    DL_EX_TUPLE,
    DL_EX_LIST,
    DL_EX_SET,
    DL_EX_DICT,     /* items = key0, value0, key1, value1 ... (key NULL for **splat) */
    DL_EX_BINOP,    /* items[0] name items[1] */
    DL_EX_UNARY,    /* name object */
    DL_EX_COMPARE,  /* items: operands; name: the operator ("==", "in", "is not"; see
                       python.c's comparison_operator for chains) */
    DL_EX_BOOLOP,   /* items[0] and/or items[1] */
    DL_EX_COND,     /* object if items[0] else items[1] */
    DL_EX_COMP,     /* comprehension: object = element (DICT comp: items[0]=key, object=value),
                       target/iter = first for-clause; name = "list"/"set"/"dict"/"gen" */
    DL_EX_LAMBDA,
    DL_EX_STARRED, /* *object / **object (name = "*" or "**") */
    DL_EX_AWAIT,   /* await object; also yield object, yield from object */
    DL_EX_WALRUS,  /* target := object */
} DlExprKind;

typedef struct DlExpr DlExpr;

/* DlExpr.flags */
enum {
    DL_EXF_KERNEL_LAUNCH = 1 << 0, /* C++/CUDA `k<<<grid, block>>>(args)`: a CALL whose object is
                                      the kernel and whose items are the launch configuration */
    DL_EXF_TENSOR_TYPED = 1 << 1,  /* C++: the compiler resolved its type to at::Tensor */
    DL_EXF_CPP = 1 << 2,           /* lowered from C++: its extra holds cpp_callee/cpp_ctype */
    DL_EXF_EXTRA = 1 << 3,         /* a DlExprExtra follows it in memory (dl_expr_extra) */
};

typedef struct DlArg {
    const char *keyword; /* NULL for positional; "*" / "**" for unpacking */
    DlSpan span;         /* whole argument, keyword included */
    DlExpr *value;
} DlArg;

/* What few expressions hold beyond the common fields, allocated right after the expression
 * (DL_EXF_EXTRA) so that the others carry no pointer to it. Python's comprehensions and walruses
 * and C++'s resolved names never meet in one expression: one pair of fields serves both. Read
 * it through dl_expr_extra(), the C++ pair through dl_expr_callee()/dl_expr_ctype(), NULL for
 * Python. */
typedef struct DlExprExtra {
    union {
        struct {
            DlExpr *target, *iter; /* Python: COMP for-clause, WALRUS target */
        };
        struct { /* C++ (DL_EXF_CPP), from the compiler's semantic analysis: */
            const char *cpp_callee; /* CALL: the resolved callee's qualified name
                                       ("at::Tensor::to", "torch::nn::Module::to",
                                       "torch::zeros", "scale_kernel") */
            const char *cpp_ctype;  /* the expression's type as resolved ("at::Tensor",
                                       "float[16]", "float *") */
        };
    };
} DlExprExtra;

/* The most arguments a call keeps: the front ends drop the ones after it (no real call comes
 * near; the count shares a word with the kind, the flags and item_count). */
#define DL_MAX_CALL_ARGS UINT16_MAX

/* A project holds millions of these: 48 bytes (kind, flags, arg_count and item_count share a
 * word). */
struct DlExpr {
    DlExprKind kind;
    uint8_t flags; /* DL_EXF_* */
    uint16_t arg_count; /* at most DL_MAX_CALL_ARGS */
    uint32_t item_count;
    DlSpan span;
    const char *name;
    DlExpr *object;
    DlExpr **items;
    DlArg *args;
};

/* The extra fields of every COMP, WALRUS and C++ expression; NULL for the others. */
static inline DlExprExtra *dl_expr_extra(const DlExpr *e) {
    return e->flags & DL_EXF_EXTRA ? (DlExprExtra *)(void *)((char *)e + sizeof *e) : NULL;
}

/* C++ only: the resolved callee of a call, the resolved type of an expression (else NULL). */
static inline const char *dl_expr_callee(const DlExpr *e) {
    return e && (e->flags & DL_EXF_CPP) && dl_expr_extra(e) ? dl_expr_extra(e)->cpp_callee : NULL;
}
static inline const char *dl_expr_ctype(const DlExpr *e) {
    return e && (e->flags & DL_EXF_CPP) && dl_expr_extra(e) ? dl_expr_extra(e)->cpp_ctype : NULL;
}

typedef enum __attribute__((packed)) { /* one byte: see DlStmt */
    DL_ST_OTHER = 0, /* pass, break, continue, global, assert, del, raise, ... */
    DL_ST_EXPR,      /* value */
    DL_ST_ASSIGN,    /* targets[] = value (chained targets), annotation */
    DL_ST_AUGASSIGN, /* targets[0] op= value */
    DL_ST_RETURN,    /* value (may be NULL) */
    DL_ST_RAISE,
    DL_ST_BREAK,
    DL_ST_CONTINUE,
    DL_ST_IF,     /* if value: body else orelse (elif = nested if in orelse) */
    DL_ST_FOR,    /* for targets[0] in value: body else orelse */
    DL_ST_WHILE,  /* while value: body else orelse */
    DL_ST_WITH,   /* with items (context exprs in `withs`, `as` targets in targets): body */
    DL_ST_TRY,    /* body, handlers[], orelse, finalbody */
    DL_ST_DEF,    /* func */
    DL_ST_CLASS,  /* cls */
    DL_ST_IMPORT, /* imports[] */
    DL_ST_CHECK,  /* execution goes on only where `value` holds (C++ `TORCH_CHECK(cond, ...)`,
                     `if (!cond) throw ...;`) */
} DlStmtKind;

typedef struct DlStmt DlStmt;
typedef struct DlFunction DlFunction;
typedef struct DlClass DlClass;

typedef struct DlBlock {
    DlStmt **items;
    uint32_t count;
} DlBlock;

typedef struct DlImport {
    const char *module; /* "torch.nn" for `from torch.nn import X`; "torch" for `import torch` */
    const char *name;   /* "X" for from-imports; NULL for `import a.b` */
    const char *alias;  /* the local name it binds ("nn", "T", "a" for `import a.b`) */
    int level;          /* relative import dots */
} DlImport;

/* What only compound statements have (blocks, a def's function, a class): one pointer in
 * every statement instead of 72 bytes, since most statements are simple. */
typedef struct DlStmtParts {
    DlBlock body, orelse, finalbody;
    DlBlock *handlers;
    uint32_t handler_count;
    /* A loop's: what its body holds by its text alone, worked out once by the analysis
     * (dataflow/flow.c, loop_body_has; in what was padding) */
    uint32_t body_facts;
    DlFunction *func;
    DlClass *cls;
} DlStmtParts;

/* The parts of every simple statement: all empty. Read-only: a front end that fills a part
 * takes its own with dl_stmt_own_parts(). */
extern const DlStmtParts dl_stmt_no_parts;

/* The most targets a chained assignment (`a = b = ... = value`) keeps: the front ends drop the
 * ones after it (the count shares a word with the kind and with_count). */
#define DL_MAX_ASSIGN_TARGETS UINT16_MAX

/* Fields ordered so that the kind and the counts share a word, and the fields of one kind only
 * share storage (a project holds hundreds of thousands of these: 48 bytes). Read a kind's own
 * fields only after checking the kind: an assignment's `annotation` is an import's `imports`.
 * `parts` is never NULL (&dl_stmt_no_parts for a simple statement). */
struct DlStmt {
    DlStmtKind kind;
    uint16_t target_count; /* at most DL_MAX_ASSIGN_TARGETS */
    union {
        uint32_t with_count;   /* WITH */
        uint32_t import_count; /* IMPORT */
    };
    DlSpan span;
    DlExpr **targets;
    DlExpr *value;
    union {
        DlExpr *annotation; /* ASSIGN: `x: T = ...` */
        const char *op;     /* AUGASSIGN: "+=" ... */
        DlExpr **withs;     /* WITH: context expressions; targets[i] is the `as` target or NULL */
        DlImport *imports;  /* IMPORT */
    };
    DlStmtParts *parts;
};

/* `s`'s own parts, allocated in `arena` the first time (front ends, while lowering). */
DlStmtParts *dl_stmt_own_parts(DlArena *arena, DlStmt *s);

/* The blocks nested in `s` that run in its scope, in this order: body, else, finally, then each
 * except handler; not a def's or a class's body (those are in func/cls). `i` counts from 0; NULL
 * after the last. Walk them with
 *     for (const DlBlock *b; (b = dl_stmt_block(s, k)); k++)  */
static inline const DlBlock *dl_stmt_block(const DlStmt *s, uint32_t i) {
    const DlStmtParts *p = s->parts;
    switch (i) {
    case 0: return &p->body;
    case 1: return &p->orelse;
    case 2: return &p->finalbody;
    default: return i - 3 < p->handler_count ? &p->handlers[i - 3] : NULL;
    }
}

typedef struct DlParam {
    const char *name;
    DlSpan span;
    DlExpr *annotation, *default_value;
    int star; /* 0 plain, 1 *args, 2 **kwargs */
    bool keyword_only; /* after `*args` or a bare `*`: no positional argument reaches it */
} DlParam;

struct DlFunction {
    const char *name;
    DlSpan span, name_span;
    DlParam *params;
    uint32_t param_count;
    DlBlock body;
    DlClass *owner;       /* class for methods, else NULL */
    DlFunction *parent;   /* enclosing function for nested defs */
    DlExpr **decorators;
    uint32_t decorator_count;
    void *facts; /* the project's DlFunctionInfo, set by dl_project_build */
};

struct DlClass {
    const char *name;
    DlSpan span, name_span;
    DlExpr **bases; /* positional superclass expressions */
    uint32_t base_count;
    DlBlock body;
    DlFunction **methods;
    uint32_t method_count;
    void *facts; /* the project's DlClassInfo, set by dl_project_build */
};

typedef enum { DL_LANG_PYTHON = 0, DL_LANG_CPP } DlLanguage;

/* One file's program model. */
typedef struct DlModuleIR {
    DlLanguage language;
    const DlSource *source;
    const char *module_name; /* "pkg.model" derived from the path, for import resolution */
    DlBlock body;
    DlFunction **functions; /* every def in the file, nested ones and methods included */
    uint32_t function_count;
    DlClass **classes;
    uint32_t class_count;
    DlCommentSpan *comments;
    uint32_t comment_count;
    bool sets_default_device; /* torch.set_default_device (or set_default_tensor_type) anywhere
                                 in the file */
    bool sets_a_gpu_default;  /* ... to a GPU, or to what a variable holds
                                 (dl_python_sets_a_gpu_default) */
    bool mentions_devices;    /* the text names a device or moves something (.to( .cuda( device) */
    bool mentions_torch_geometric; /* the text names torch_geometric, whose loaders yield graph
                                      batches (asked for every batch bound: found once here) */
    bool imports_in_defs;     /* an import inside a def or class body (a local import) */
    /* No other file of the run may read this one (driver/sharing.h), whether or not the
     * pipeline streams it as a leaf: a script whose modules are built and run here. Set by the
     * driver after lowering; false where not known. */
    bool read_by_no_other_file;
    /* No file names this one's module (`import eval`, `from eval import Session`): a script
     * run on its own, even when other files mention the names of classes it defines (sibling
     * scripts that each define a `Session`, which no file can reach by a name defined twice).
     * Set with read_by_no_other_file, which it implies nothing about the other way. */
    bool imported_by_no_other_file;
    /* The names the file reads (variables, attributes, imported names), when the front end
     * records them (names_known): a function no file names needs no summary. */
    const char **referenced_names;
    uint32_t referenced_name_count;
    bool names_known;
    void *facts; /* the project's DlFileFacts, set by dl_project_build */
} DlModuleIR;

/* `x.cuda(...)`, or `x.to(...)` to a CUDA device written out (`"cuda"`, `"cuda:0"`,
 * `device="cuda"`, `torch.device("cuda")`): a move that fails where there is no GPU. */
bool dl_ir_moves_to_cuda(const DlExpr *call);
/* A CUDA device written out: `"cuda"`, `"cuda:1"`, `torch.device("cuda")`, a GPU's index (`0`). */
bool dl_ir_names_cuda_device(const DlExpr *e);
/* The tensor a condition says is on a CUDA device, or NULL: `x.is_cuda` (`x.is_cuda()` in
 * C++), `x.device().is_cuda()`, `x.type().is_cuda()` (deprecated), `x.device().type() ==
 * at::DeviceType::CUDA`, `x.device == "cuda"`. For `a and b`, call it on each side. */
const DlExpr *dl_ir_cuda_check_subject(const DlExpr *cond);

/* `in`, `not in`, `is`, `is not`: a comparison whose result is a Python bool, not a tensor,
 * whatever its operands (`"mask" in batch` looks a key up). */
bool dl_ir_tests_membership_or_identity(const char *op);

/* The model as indented pseudo-Python, for debugging front ends (DEVLINT_DUMP_IR=1). */
void dl_ir_dump(FILE *out, const DlModuleIR *m);
/* Every field of the model with its spans (DEVLINT_DUMP_IR=full), to compare two builds of the
 * same models: a front-end change that must not change the model must not change this text. */
void dl_ir_dump_full(FILE *out, const DlModuleIR *m);

/* Text of a span (arena copy). */
const char *dl_ir_span_text(DlArena *arena, const DlSource *src, DlSpan span);

/* `text[0..keep)` followed by "..." and the brackets that part leaves open, closed:
 * `nn.Sequential(...)`, not `nn.Sequential(...` (arena copy). */
const char *dl_ir_cut(DlArena *arena, const char *text, size_t keep);
/* Where the comment of the line t[0, n) begins (a `#` outside any string literal), or n when it
 * has none. `*quote` is the quote of a string literal open at the line's start (0: none), and is
 * left as it stands where the scan stopped. */
size_t dl_ir_comment_start(const char *t, size_t n, char *quote);

/* The text of a span on one line, for a message: runs of blanks and line breaks made one space
 * (none just inside brackets), cut with dl_ir_cut past 80 characters (arena copy). */
const char *dl_ir_span_snippet(DlArena *arena, const DlSource *src, DlSpan span);

/* Does the text of a span contain `needle`? */
bool dl_ir_span_mentions(const DlSource *src, DlSpan span, const char *needle);
/* The same, not counting a mention after a `#` on its line (a line commented out). */
bool dl_ir_span_mentions_in_code(const DlSource *src, DlSpan span, const char *needle);

/* `s` is a name or a dotted attribute chain (`device`, `self.device`, `args.gpu`): code that
 * reads the value back, as a fix may write it (not `modelVars[device]`, not `3`). */
bool dl_ir_is_dotted_name(const char *s);

/* A copy's `non_blocking=` argument: 1 written `True`, 0 absent or written `False`, -1 any
 * other value (a variable: either). */
int dl_ir_non_blocking(const DlExpr *call);
/* `init_process_group("nccl", ...)` / `(backend="nccl", ...)`: the call names the NCCL backend. */
bool dl_ir_names_nccl_backend(const DlExpr *call);

/* A `torch.load` call's map_location: `map_location=` or the second positional argument;
 * NULL when the call gives none. */
const DlExpr *dl_ir_map_location(const DlExpr *load);

/* Whether `fn` (or a function around it) is a test: named `test`, `test_...`, `testCase` or
 * `_test...` (a helper of parametrised tests; not `tester`, `testing`), or a method of a class
 * named `Test...` (dl_ir_names_a_test_class). */
bool dl_ir_in_test_function(const DlFunction *fn);
/* `TestModel`, `Test_cuda`: a test class's name (pytest's `Test` prefix, as a word: not
 * `Tester`). */
bool dl_ir_names_a_test_class(const char *name);

/* The index of `fn`'s parameter called `name` (self included), or -1. */
int dl_ir_param_index(const DlFunction *fn, const char *name);
/* The first method of `cls` itself (not of a base) named `name`, or NULL. */
const DlFunction *dl_ir_method_named(const DlClass *cls, const char *name);
/* The value of the last `name = value` among the statements of `b` (and of the blocks in it,
 * not nested defs or classes) that end before the byte `before`, or NULL: what the name was
 * last bound to there, read in text order. */
const DlExpr *dl_ir_last_assignment(const DlBlock *b, const char *name, uint32_t before);
/* The same, also through an unpacking assignment (`_, pred = output.topk(k, 1)`: the call), or,
 * for a name read inside a `for` loop that binds it, the sequence the loop takes it from
 * (`s_sc` for `for s_sc1 in s_sc:`). */
const DlExpr *dl_ir_last_binding(const DlBlock *b, const char *name, uint32_t before);
/* Whether a statement of `b` (or of a block in it, not a nested def or class) is `name = value`
 * with `holds(value, ctx)`: any such binding, not only the last. */
bool dl_ir_binds_name_to(const DlBlock *b, const char *name,
                         bool (*holds)(const DlExpr *value, void *ctx), void *ctx);
/* Whether the assignment or loop target `t` binds `name`: the name, or one in a tuple or list
 * of them at any depth, starred too (`attn_dim, heads = ...`, `for i, (x, y) in ...`). */
bool dl_ir_target_names(const DlExpr *t, const char *name);
/* The index of a body's first statement past its docstring: 1 when the body opens with a
 * string and goes on, else 0. */
uint32_t dl_ir_body_start(const DlBlock *body);
/* `self`, the name; `self.<name>` (`name` NULL: any attribute of self). */
bool dl_ir_is_self(const DlExpr *e);
bool dl_ir_is_self_attr(const DlExpr *e, const char *name);

/* Whether `match` holds for `e` or for any expression inside it (its object, items and
 * arguments; not a comprehension's clauses), looked at to a depth of 64. */
bool dl_ir_expr_any(const DlExpr *e, bool (*match)(const DlExpr *));
/* The same, with a context handed to `match`. */
bool dl_ir_expr_any_with(const DlExpr *e, bool (*match)(const DlExpr *, void *), void *ctx);

/* "a.b.c" for NAME/ATTR chains, else NULL (arena string). */
const char *dl_ir_dotted(DlArena *arena, const DlExpr *e);

/* Keyword argument by name, or NULL. */
const DlArg *dl_ir_keyword(const DlExpr *call, const char *keyword);
/* The n-th positional argument, or NULL. */
const DlExpr *dl_ir_positional(const DlExpr *call, unsigned n);
/* The argument of `call` that reaches parameter `param` of `fn`, whose first `first` parameters
 * the call does not pass (1 for `self`); NULL when none does or a splat may. */
const DlExpr *dl_ir_argument_for(const DlExpr *call, const DlFunction *fn, uint32_t param,
                                 uint32_t first);

#endif
