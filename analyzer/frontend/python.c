/* Python front end: parses with tree-sitter-python and lowers the tree into the program model.
 * Node kinds are mapped once per process from the grammar's symbol names to a small enum, so
 * lowering dispatches on integers, and fields are looked up by precomputed field ids. */
#define _GNU_SOURCE /* memmem */
#include "frontend/python.h"
#include "frontend/python_grammar_gaps.h"
#include "frontend/python_prescan.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "core/files.h"
#include "core/intern.h"
#include "core/vec.h"
#include "frontend/lower_common.h"
#include "frontend/ts_region.h"

const TSLanguage *tree_sitter_python(void);

enum { DL_MAX_DEPTH = 400 }; /* deeper nesting is not lowered (the file gets an error) */

typedef enum {
    N_OTHER = 0,
    N_MODULE, N_BLOCK, N_EXPR_STMT, N_ASSIGN, N_AUGASSIGN, N_RETURN, N_IF, N_ELIF, N_ELSE,
    N_FOR, N_WHILE, N_WITH, N_WITH_CLAUSE, N_WITH_ITEM, N_AS_PATTERN, N_TRY, N_EXCEPT,
    N_EXCEPT_GROUP, N_FINALLY, N_FUNCDEF, N_CLASSDEF, N_DECORATED, N_DECORATOR, N_IMPORT,
    N_IMPORT_FROM, N_FUTURE_IMPORT, N_ALIASED_IMPORT, N_DOTTED_NAME, N_RELATIVE_IMPORT,
    N_WILDCARD, N_RAISE, N_ASSERT, N_BREAK, N_CONTINUE, N_PASS,
    N_IDENTIFIER, N_ATTRIBUTE, N_CALL, N_ARGUMENT_LIST, N_KEYWORD_ARG, N_SUBSCRIPT, N_INTEGER,
    N_FLOAT, N_STRING, N_CONCAT_STRING, N_STRING_CONTENT, N_INTERPOLATION, N_TRUE, N_FALSE,
    N_NONE, N_ELLIPSIS, N_TUPLE, N_LIST, N_SET, N_DICT, N_PAIR, N_BINOP, N_UNARY, N_NOT,
    N_BOOLOP, N_COMPARE, N_COND, N_LISTCOMP, N_SETCOMP, N_DICTCOMP, N_GENEXP, N_FOR_IN,
    N_LAMBDA, N_PAREN, N_LIST_SPLAT, N_DICT_SPLAT, N_AWAIT, N_WALRUS, N_EXPR_LIST,
    N_PATTERN_LIST, N_TUPLE_PATTERN, N_LIST_PATTERN, N_TYPE, N_PARAMETERS, N_TYPED_PARAM,
    N_DEFAULT_PARAM, N_TYPED_DEFAULT_PARAM, N_LIST_SPLAT_PATTERN, N_DICT_SPLAT_PATTERN,
    N_COMMENT, N_YIELD, N_SLICE, N_KEYWORD_SEPARATOR, N_POSITIONAL_SEPARATOR, N_AS_TARGET,
    N_GENERIC_TYPE, N_UNION_TYPE, N_TYPE_PARAMETER, N_LINE_CONTINUATION, N_MATCH, N_CASE,
    N_COUNT
} NodeKind;

static const struct {
    const char *name;
    NodeKind kind;
} node_names[] = {
    {"module", N_MODULE}, {"block", N_BLOCK}, {"expression_statement", N_EXPR_STMT},
    {"assignment", N_ASSIGN}, {"augmented_assignment", N_AUGASSIGN},
    {"return_statement", N_RETURN}, {"if_statement", N_IF}, {"elif_clause", N_ELIF},
    {"match_statement", N_MATCH}, {"case_clause", N_CASE},
    {"else_clause", N_ELSE}, {"for_statement", N_FOR}, {"while_statement", N_WHILE},
    {"with_statement", N_WITH}, {"with_clause", N_WITH_CLAUSE}, {"with_item", N_WITH_ITEM},
    {"as_pattern", N_AS_PATTERN}, {"try_statement", N_TRY}, {"except_clause", N_EXCEPT},
    {"except_group_clause", N_EXCEPT_GROUP}, {"finally_clause", N_FINALLY},
    {"function_definition", N_FUNCDEF}, {"class_definition", N_CLASSDEF},
    {"decorated_definition", N_DECORATED}, {"decorator", N_DECORATOR},
    {"import_statement", N_IMPORT}, {"import_from_statement", N_IMPORT_FROM},
    {"future_import_statement", N_FUTURE_IMPORT}, {"aliased_import", N_ALIASED_IMPORT},
    {"dotted_name", N_DOTTED_NAME}, {"relative_import", N_RELATIVE_IMPORT},
    {"wildcard_import", N_WILDCARD}, {"raise_statement", N_RAISE},
    {"assert_statement", N_ASSERT},
    {"break_statement", N_BREAK}, {"continue_statement", N_CONTINUE},
    {"pass_statement", N_PASS}, {"identifier", N_IDENTIFIER}, {"attribute", N_ATTRIBUTE},
    {"call", N_CALL}, {"argument_list", N_ARGUMENT_LIST}, {"keyword_argument", N_KEYWORD_ARG},
    {"subscript", N_SUBSCRIPT}, {"integer", N_INTEGER}, {"float", N_FLOAT},
    {"string", N_STRING}, {"concatenated_string", N_CONCAT_STRING},
    {"string_content", N_STRING_CONTENT}, {"interpolation", N_INTERPOLATION},
    {"true", N_TRUE}, {"false", N_FALSE}, {"none", N_NONE}, {"ellipsis", N_ELLIPSIS},
    {"tuple", N_TUPLE}, {"list", N_LIST}, {"set", N_SET}, {"dictionary", N_DICT},
    {"pair", N_PAIR}, {"binary_operator", N_BINOP}, {"unary_operator", N_UNARY},
    {"not_operator", N_NOT}, {"boolean_operator", N_BOOLOP},
    {"comparison_operator", N_COMPARE}, {"conditional_expression", N_COND},
    {"list_comprehension", N_LISTCOMP}, {"set_comprehension", N_SETCOMP},
    {"dictionary_comprehension", N_DICTCOMP}, {"generator_expression", N_GENEXP},
    {"for_in_clause", N_FOR_IN}, {"lambda", N_LAMBDA},
    {"parenthesized_expression", N_PAREN}, {"list_splat", N_LIST_SPLAT},
    {"dictionary_splat", N_DICT_SPLAT}, {"await", N_AWAIT}, {"named_expression", N_WALRUS},
    {"expression_list", N_EXPR_LIST}, {"pattern_list", N_PATTERN_LIST},
    {"tuple_pattern", N_TUPLE_PATTERN}, {"list_pattern", N_LIST_PATTERN}, {"type", N_TYPE},
    {"parameters", N_PARAMETERS}, {"typed_parameter", N_TYPED_PARAM},
    {"default_parameter", N_DEFAULT_PARAM},
    {"typed_default_parameter", N_TYPED_DEFAULT_PARAM},
    {"list_splat_pattern", N_LIST_SPLAT_PATTERN},
    {"dictionary_splat_pattern", N_DICT_SPLAT_PATTERN}, {"comment", N_COMMENT},
    {"yield", N_YIELD}, {"slice", N_SLICE}, {"keyword_separator", N_KEYWORD_SEPARATOR},
    {"positional_separator", N_POSITIONAL_SEPARATOR}, {"as_pattern_target", N_AS_TARGET},
    {"generic_type", N_GENERIC_TYPE}, {"union_type", N_UNION_TYPE},
    {"type_parameter", N_TYPE_PARAMETER}, {"line_continuation", N_LINE_CONTINUATION},
};

/* Grammar tables, built once per process and read-only afterwards. */
static struct {
    uint8_t *kind_of_symbol;
    uint32_t symbol_count;
    TSFieldId f_left, f_right, f_operator, f_value, f_name, f_alias, f_body, f_condition,
        f_consequence, f_guard, f_alternative, f_function, f_arguments, f_object, f_attribute,
        f_subscript, f_key, f_parameters, f_superclasses, f_definition, f_module_name,
        f_argument, f_type, f_return_type, f_operators;
} G;
static pthread_once_t grammar_once = PTHREAD_ONCE_INIT;

static void grammar_init(void) {
    dl_ts_region_install();
    const TSLanguage *lang = tree_sitter_python();
    G.symbol_count = ts_language_symbol_count(lang);
    G.kind_of_symbol = calloc(G.symbol_count, 1);
    for (uint32_t s = 0; s < G.symbol_count; s++) {
        const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
        if (!name) continue;
        for (size_t i = 0; i < sizeof node_names / sizeof node_names[0]; i++)
            if (strcmp(name, node_names[i].name) == 0) {
                G.kind_of_symbol[s] = (uint8_t)node_names[i].kind;
                break;
            }
    }
#define FIELD(var, str) G.var = ts_language_field_id_for_name(lang, str, (uint32_t)strlen(str))
    FIELD(f_left, "left");
    FIELD(f_right, "right");
    FIELD(f_operator, "operator");
    FIELD(f_value, "value");
    FIELD(f_name, "name");
    FIELD(f_alias, "alias");
    FIELD(f_body, "body");
    FIELD(f_condition, "condition");
    FIELD(f_consequence, "consequence");
    FIELD(f_guard, "guard");
    FIELD(f_alternative, "alternative");
    FIELD(f_function, "function");
    FIELD(f_arguments, "arguments");
    FIELD(f_object, "object");
    FIELD(f_attribute, "attribute");
    FIELD(f_subscript, "subscript");
    FIELD(f_key, "key");
    FIELD(f_parameters, "parameters");
    FIELD(f_superclasses, "superclasses");
    FIELD(f_definition, "definition");
    FIELD(f_module_name, "module_name");
    FIELD(f_argument, "argument");
    FIELD(f_type, "type");
    FIELD(f_return_type, "return_type");
    FIELD(f_operators, "operators");
#undef FIELD
}

/* Growable array of pointers on the heap, copied into the arena when done. */
typedef DlPtrVec PtrVec;

typedef struct Lower {
    const DlSource *src;
    DlArena *arena;
    DlModuleIR *module;
    DlClass *current_class;
    DlFunction *current_function;
    PtrVec functions; /* DlFunction * */
    PtrVec classes;   /* DlClass * */
    int depth;
    bool too_deep;
    DlInterner names; /* one copy of each name; the ones read mark the module's references */
} Lower;

static NodeKind kind_of(TSNode n) {
    TSSymbol s = ts_node_symbol(n);
    return s < G.symbol_count ? (NodeKind)G.kind_of_symbol[s] : N_OTHER;
}

/* A comment or a backslash ending a line (`x, y = x.to(d), \\`): extras the grammar puts among
 * any node's children, which are no part of what the node says. */
static bool is_extra(NodeKind k) {
    return k == N_COMMENT || k == N_LINE_CONTINUATION;
}

static DlSpan span_of(TSNode n) {
    return (DlSpan){ts_node_start_byte(n), ts_node_end_byte(n)};
}

static const char *intern_text(Lower *L, TSNode n, bool referenced) {
    return dl_intern(&L->names, L->src->text + ts_node_start_byte(n),
                     ts_node_end_byte(n) - ts_node_start_byte(n), referenced);
}

static const char *text_of(Lower *L, TSNode n) {
    return intern_text(L, n, false);
}

/* Whether the code lowered so far names `name` (a name, an attribute, an import), not only a
 * comment or a string: the text is searched first, the interner only where it is there. */
static bool names_in_code(const Lower *L, const DlSource *src, const char *name) {
    return dl_source_mentions(src, name) && dl_interner_contains(&L->names, name);
}

/* A name the file reads (a variable, an attribute, an imported name): the project's summaries
 * are computed only for functions some file names this way. */
static const char *referenced_text_of(Lower *L, TSNode n) {
    return intern_text(L, n, true);
}

static TSNode field(TSNode n, TSFieldId id) {
    return ts_node_child_by_field_id(n, id);
}


static DlExpr *new_expr(Lower *L, DlExprKind kind, TSNode n) {
    /* a comprehension's target and iterable, a walrus's target: after it, in one block */
    bool extra = kind == DL_EX_COMP || kind == DL_EX_WALRUS;
    DlExpr *e = dl_arena_alloc(L->arena, sizeof *e + (extra ? sizeof(DlExprExtra) : 0));
    e->kind = kind;
    e->span = span_of(n);
    if (extra) e->flags = DL_EXF_EXTRA;
    return e;
}

static DlExpr *lower_expr(Lower *L, TSNode n);
static void lower_block_into(Lower *L, TSNode block, DlBlock *out);

/* ---------------------------------------------------------------- expressions */

static DlExpr *lower_sequence(Lower *L, TSNode n, DlExprKind kind) {
    DlExpr *e = new_expr(L, kind, n);
    PtrVec items = {0};
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (is_extra(kind_of(c))) continue;
        dl_vec_push(&items, lower_expr(L, c));
    }
    e->items = (DlExpr **)dl_ptrvec_finish(L->arena, &items, &e->item_count);
    return e;
}

static DlExpr *lower_dict(Lower *L, TSNode n) {
    DlExpr *e = new_expr(L, DL_EX_DICT, n);
    PtrVec items = {0};
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        NodeKind k = kind_of(c);
        if (k == N_PAIR) {
            dl_vec_push(&items, lower_expr(L, field(c, G.f_key)));
            dl_vec_push(&items, lower_expr(L, field(c, G.f_value)));
        } else if (k == N_DICT_SPLAT) {
            dl_vec_push(&items, NULL);
            dl_vec_push(&items, lower_expr(L, ts_node_named_child(c, 0)));
        }
    }
    e->items = (DlExpr **)dl_ptrvec_finish(L->arena, &items, &e->item_count);
    return e;
}

static void lower_arguments(Lower *L, TSNode args, DlExpr *call) {
    if (ts_node_is_null(args)) return;
    DL_VEC(DlArg) out = {0};
    if (kind_of(args) == N_GENEXP) { /* f(x for x in y) */
        DlArg a = {NULL, span_of(args), lower_expr(L, args)};
        dl_vec_push(&out, a);
    } else {
        uint32_t count = ts_node_named_child_count(args);
        for (uint32_t i = 0; i < count; i++) {
            TSNode c = ts_node_named_child(args, i);
            DlArg a = {NULL, span_of(c), NULL};
            switch (kind_of(c)) {
            case N_COMMENT:
            case N_LINE_CONTINUATION: continue;
            case N_KEYWORD_ARG:
                a.keyword = text_of(L, field(c, G.f_name));
                a.value = lower_expr(L, field(c, G.f_value));
                break;
            case N_LIST_SPLAT:
                a.keyword = "*";
                a.value = lower_expr(L, ts_node_named_child(c, 0));
                break;
            case N_DICT_SPLAT:
                a.keyword = "**";
                a.value = lower_expr(L, ts_node_named_child(c, 0));
                break;
            default: a.value = lower_expr(L, c);
            }
            dl_vec_push(&out, a);
        }
    }
    if (out.len > DL_MAX_CALL_ARGS) out.len = DL_MAX_CALL_ARGS;
    call->arg_count = (uint16_t)out.len;
    if (out.len) {
        call->args = dl_arena_alloc(L->arena, out.len * sizeof(DlArg));
        memcpy(call->args, out.items, out.len * sizeof(DlArg));
    }
    dl_vec_free(&out);
}

/* String literal contents (first string_content of a plain, non-f string). `unread`: a string
 * statement (a docstring), whose value nothing reads: its text is not copied ("" stands for it;
 * docstrings are 7.3 MB of huggingface/diffusers' 45 MB of Python). */
/* The {expressions} of an f-string `n`, lowered, appended to `items`. */
static void lower_interpolations(Lower *L, TSNode n, PtrVec *items) {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (kind_of(c) == N_INTERPOLATION && ts_node_named_child_count(c))
            dl_vec_push(items, lower_expr(L, ts_node_named_child(c, 0)));
    }
}

static DlExpr *lower_string(Lower *L, TSNode n, bool unread) {
    DlExpr *e = new_expr(L, DL_EX_STRING, n);
    uint32_t count = ts_node_named_child_count(n);
    size_t total = 0;
    bool interpolated = false;
    for (uint32_t i = 0; i < count; i++) {
        NodeKind k = kind_of(ts_node_named_child(n, i));
        if (k == N_INTERPOLATION) interpolated = true;
        if (k == N_STRING_CONTENT) {
            TSNode c = ts_node_named_child(n, i);
            total += ts_node_end_byte(c) - ts_node_start_byte(c);
        }
    }
    if (interpolated) { /* f-string: its value is unknown, its {expressions} are lowered */
        PtrVec items = {0};
        lower_interpolations(L, n, &items);
        e->items = (DlExpr **)dl_ptrvec_finish(L->arena, &items, &e->item_count);
        return e;
    }
    if (unread) {
        e->name = "";
        return e;
    }
    char *s = dl_arena_alloc(L->arena, total + 1), *p = s;
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (kind_of(c) != N_STRING_CONTENT) continue;
        size_t len = ts_node_end_byte(c) - ts_node_start_byte(c);
        memcpy(p, L->src->text + ts_node_start_byte(c), len);
        p += len;
    }
    e->name = s;
    return e;
}

static DlExpr *lower_comprehension(Lower *L, TSNode n, const char *flavour) {
    DlExpr *e = new_expr(L, DL_EX_COMP, n);
    e->name = flavour;
    TSNode body = field(n, G.f_body);
    if (!ts_node_is_null(body)) {
        if (kind_of(body) == N_PAIR) {
            e->items = dl_arena_alloc(L->arena, sizeof(DlExpr *));
            e->items[0] = lower_expr(L, field(body, G.f_key));
            e->item_count = 1;
            e->object = lower_expr(L, field(body, G.f_value));
        } else {
            e->object = lower_expr(L, body);
        }
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (kind_of(c) == N_FOR_IN && !dl_expr_extra(e)->iter) {
            dl_expr_extra(e)->target = lower_expr(L, field(c, G.f_left));
            dl_expr_extra(e)->iter = lower_expr(L, field(c, G.f_right));
        }
    }
    return e;
}

/* A comparison's operator (`==`, `<`, `in`, `not in`, `is not`, ...), as the grammar names it;
 * in a chain (`a < b <= c`) a membership or identity test if there is one (its result is a
 * Python bool whatever the operands are), else the first. */
static const char *comparison_operator(TSNode n) {
    const char *first = NULL;
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_child(n, i);
        if (ts_node_is_named(c)) continue; /* operands and comments */
        const char *op = ts_node_type(c);
        if (dl_ir_tests_membership_or_identity(op)) return op;
        if (!first) first = op;
    }
    return first;
}

static DlExpr *lower_expr_inner(Lower *L, TSNode n) {
    DlExpr *e;
    switch (kind_of(n)) {
    case N_IDENTIFIER:
        e = new_expr(L, DL_EX_NAME, n);
        e->name = referenced_text_of(L, n);
        return e;
    case N_ATTRIBUTE:
        e = new_expr(L, DL_EX_ATTR, n);
        e->object = lower_expr(L, field(n, G.f_object));
        e->name = referenced_text_of(L, field(n, G.f_attribute));
        return e;
    case N_CALL:
        e = new_expr(L, DL_EX_CALL, n);
        e->object = lower_expr(L, field(n, G.f_function));
        lower_arguments(L, field(n, G.f_arguments), e);
        return e;
    case N_SUBSCRIPT: {
        e = new_expr(L, DL_EX_SUBSCRIPT, n);
        e->object = lower_expr(L, field(n, G.f_value));
        PtrVec items = {0};
        uint32_t count = ts_node_named_child_count(n);
        for (uint32_t i = 1; i < count; i++) {
            TSNode c = ts_node_named_child(n, i);
            if (!is_extra(kind_of(c))) dl_vec_push(&items, lower_expr(L, c));
        }
        e->items = (DlExpr **)dl_ptrvec_finish(L->arena, &items, &e->item_count);
        return e;
    }
    case N_INTEGER:
    case N_FLOAT:
        e = new_expr(L, DL_EX_NUMBER, n);
        e->name = text_of(L, n);
        return e;
    case N_STRING:
        return lower_string(L, n, false);
    case N_CONCAT_STRING: {
        /* value not tracked; the {expressions} of its f-string parts are lowered, as an
         * f-string's are (`print(f'accuracy: ' f'{acc(model):.2f}%')` formats on the host) */
        e = new_expr(L, DL_EX_STRING, n);
        PtrVec items = {0};
        uint32_t count = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < count; i++) {
            TSNode part = ts_node_named_child(n, i);
            if (kind_of(part) == N_STRING) lower_interpolations(L, part, &items);
        }
        e->items = (DlExpr **)dl_ptrvec_finish(L->arena, &items, &e->item_count);
        return e;
    }
    case N_TRUE:
    case N_FALSE:
    case N_NONE:
    case N_ELLIPSIS:
        e = new_expr(L, DL_EX_CONST, n);
        e->name = text_of(L, n);
        return e;
    case N_TUPLE:
    case N_EXPR_LIST:
    case N_PATTERN_LIST:
    case N_TUPLE_PATTERN: return lower_sequence(L, n, DL_EX_TUPLE);
    case N_LIST:
    case N_LIST_PATTERN: return lower_sequence(L, n, DL_EX_LIST);
    case N_SET: return lower_sequence(L, n, DL_EX_SET);
    case N_DICT: return lower_dict(L, n);
    case N_BINOP:
        e = new_expr(L, DL_EX_BINOP, n);
        e->items = dl_arena_alloc(L->arena, 2 * sizeof(DlExpr *));
        e->items[0] = lower_expr(L, field(n, G.f_left));
        e->items[1] = lower_expr(L, field(n, G.f_right));
        e->item_count = 2;
        e->name = text_of(L, field(n, G.f_operator));
        return e;
    case N_UNARY:
        e = new_expr(L, DL_EX_UNARY, n);
        e->object = lower_expr(L, field(n, G.f_argument));
        e->name = text_of(L, field(n, G.f_operator));
        return e;
    case N_NOT:
        e = new_expr(L, DL_EX_UNARY, n);
        e->object = lower_expr(L, field(n, G.f_argument));
        e->name = "not";
        return e;
    case N_BOOLOP:
        e = new_expr(L, DL_EX_BOOLOP, n);
        e->items = dl_arena_alloc(L->arena, 2 * sizeof(DlExpr *));
        e->items[0] = lower_expr(L, field(n, G.f_left));
        e->items[1] = lower_expr(L, field(n, G.f_right));
        e->item_count = 2;
        e->name = text_of(L, field(n, G.f_operator));
        return e;
    case N_COMPARE:
        e = lower_sequence(L, n, DL_EX_COMPARE);
        e->name = comparison_operator(n);
        return e;
    case N_COND: {
        e = new_expr(L, DL_EX_COND, n);
        TSNode parts[3];
        uint32_t k = 0, count = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < count && k < 3; i++) {
            TSNode c = ts_node_named_child(n, i);
            if (!is_extra(kind_of(c))) parts[k++] = c;
        }
        if (k == 3) {
            e->object = lower_expr(L, parts[0]);
            e->items = dl_arena_alloc(L->arena, 2 * sizeof(DlExpr *));
            e->items[0] = lower_expr(L, parts[1]);
            e->items[1] = lower_expr(L, parts[2]);
            e->item_count = 2;
        }
        return e;
    }
    case N_LISTCOMP: return lower_comprehension(L, n, "list");
    case N_SETCOMP: return lower_comprehension(L, n, "set");
    case N_DICTCOMP: return lower_comprehension(L, n, "dict");
    case N_GENEXP: return lower_comprehension(L, n, "gen");
    case N_LAMBDA: return new_expr(L, DL_EX_LAMBDA, n);
    case N_PAREN: {
        uint32_t count = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < count; i++) {
            TSNode c = ts_node_named_child(n, i);
            if (!is_extra(kind_of(c))) {
                DlExpr *inner = lower_expr(L, c);
                return inner;
            }
        }
        return new_expr(L, DL_EX_OTHER, n);
    }
    case N_LIST_SPLAT:
    case N_LIST_SPLAT_PATTERN:
        e = new_expr(L, DL_EX_STARRED, n);
        e->name = "*";
        if (ts_node_named_child_count(n)) e->object = lower_expr(L, ts_node_named_child(n, 0));
        return e;
    case N_DICT_SPLAT:
    case N_DICT_SPLAT_PATTERN:
        e = new_expr(L, DL_EX_STARRED, n);
        e->name = "**";
        if (ts_node_named_child_count(n)) e->object = lower_expr(L, ts_node_named_child(n, 0));
        return e;
    case N_AWAIT:
    case N_YIELD: /* `yield x`, `yield from g`: x is computed there; what it gives back is not known */
        e = new_expr(L, DL_EX_AWAIT, n);
        if (ts_node_named_child_count(n)) e->object = lower_expr(L, ts_node_named_child(n, 0));
        return e;
    case N_WALRUS:
        e = new_expr(L, DL_EX_WALRUS, n);
        dl_expr_extra(e)->target = lower_expr(L, field(n, G.f_name));
        e->object = lower_expr(L, field(n, G.f_value));
        return e;
    case N_GENERIC_TYPE: {
        /* an annotation's `Optional[int]`: read as the subscript it spells */
        e = new_expr(L, DL_EX_SUBSCRIPT, n);
        TSNode params = {0};
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
            TSNode c = ts_node_named_child(n, i);
            if (kind_of(c) == N_TYPE_PARAMETER) params = c;
            else if (!e->object) e->object = lower_expr(L, c);
        }
        if (!e->object) return new_expr(L, DL_EX_OTHER, n);
        PtrVec items = {0};
        uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
        for (uint32_t i = 0; i < count; i++) {
            TSNode c = ts_node_named_child(params, i);
            if (!is_extra(kind_of(c))) dl_vec_push(&items, lower_expr(L, c));
        }
        e->items = (DlExpr **)dl_ptrvec_finish(L->arena, &items, &e->item_count);
        return e;
    }
    case N_UNION_TYPE: {
        /* `int | None` where the grammar reads it as types: the `|` it spells */
        if (ts_node_named_child_count(n) != 2) return new_expr(L, DL_EX_OTHER, n);
        e = new_expr(L, DL_EX_BINOP, n);
        e->items = dl_arena_alloc(L->arena, 2 * sizeof(DlExpr *));
        e->items[0] = lower_expr(L, ts_node_named_child(n, 0));
        e->items[1] = lower_expr(L, ts_node_named_child(n, 1));
        e->item_count = 2;
        e->name = "|";
        return e;
    }
    case N_TYPE:
    case N_AS_TARGET:
        if (ts_node_named_child_count(n)) return lower_expr(L, ts_node_named_child(n, 0));
        return new_expr(L, DL_EX_OTHER, n);
    default: return new_expr(L, DL_EX_OTHER, n);
    }
}

static DlExpr *lower_expr(Lower *L, TSNode n) {
    if (ts_node_is_null(n)) return NULL;
    if (L->depth >= DL_MAX_DEPTH) {
        L->too_deep = true;
        return new_expr(L, DL_EX_OTHER, n);
    }
    L->depth++;
    DlExpr *e = lower_expr_inner(L, n);
    L->depth--;
    return e;
}

/* ---------------------------------------------------------------- statements */

static DlStmt *new_stmt(Lower *L, DlStmtKind kind, TSNode n) {
    DlStmt *s = dl_arena_alloc(L->arena, sizeof *s);
    s->parts = (DlStmtParts *)&dl_stmt_no_parts; /* a compound statement takes its own */
    s->kind = kind;
    s->span = span_of(n);
    return s;
}

/* A compound statement's blocks, function or class, allocated when first filled. */
static DlStmtParts *own_parts(Lower *L, DlStmt *s) {
    return dl_stmt_own_parts(L->arena, s);
}

static DlStmt *lower_assignment(Lower *L, TSNode n, TSNode stmt_node) {
    DlStmt *s = new_stmt(L, DL_ST_ASSIGN, stmt_node);
    PtrVec targets = {0};
    TSNode cur = n;
    /* a = b = value nests assignments on the right */
    while (kind_of(cur) == N_ASSIGN) {
        dl_vec_push(&targets, lower_expr(L, field(cur, G.f_left)));
        TSNode type = field(cur, G.f_type);
        if (!ts_node_is_null(type)) s->annotation = lower_expr(L, type);
        TSNode right = field(cur, G.f_right);
        if (ts_node_is_null(right)) {
            cur = right;
            break;
        }
        cur = right;
    }
    if (!ts_node_is_null(cur)) {
        if (kind_of(cur) == N_AUGASSIGN) s->value = NULL; /* rare: a = b += 1 is invalid */
        else s->value = lower_expr(L, cur);
    }
    s->targets = (DlExpr **)dl_ptrvec_finish16(L->arena, &targets, &s->target_count);
    return s;
}

static DlStmt *lower_expression_statement(Lower *L, TSNode n) {
    uint32_t count = ts_node_named_child_count(n);
    TSNode first = count ? ts_node_named_child(n, 0) : n;
    NodeKind k = kind_of(first);
    if (k == N_ASSIGN) return lower_assignment(L, first, n);
    if (k == N_AUGASSIGN) {
        DlStmt *s = new_stmt(L, DL_ST_AUGASSIGN, n);
        s->targets = dl_arena_alloc(L->arena, sizeof(DlExpr *));
        s->targets[0] = lower_expr(L, field(first, G.f_left));
        s->target_count = 1;
        s->value = lower_expr(L, field(first, G.f_right));
        s->op = text_of(L, field(first, G.f_operator));
        return s;
    }
    DlStmt *s = new_stmt(L, DL_ST_EXPR, n);
    if (count == 1 && k == N_STRING && L->depth < DL_MAX_DEPTH) { /* lower_expr's depth too */
        L->depth++;
        s->value = lower_string(L, first, true);
        L->depth--;
    } else if (count == 1) {
        s->value = lower_expr(L, first);
    } else {
        s->value = lower_sequence(L, n, DL_EX_TUPLE);
    }
    return s;
}

static void lower_params(Lower *L, TSNode params, DlFunction *f) {
    if (ts_node_is_null(params)) return;
    DL_VEC(DlParam) out = {0};
    uint32_t count = ts_node_named_child_count(params);
    bool keyword_only = false;
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(params, i);
        DlParam p = {0};
        p.span = span_of(c);
        p.keyword_only = keyword_only;
        switch (kind_of(c)) {
        case N_IDENTIFIER: p.name = text_of(L, c); break;
        case N_DEFAULT_PARAM:
            p.name = text_of(L, field(c, G.f_name));
            p.default_value = lower_expr(L, field(c, G.f_value));
            break;
        case N_TYPED_DEFAULT_PARAM:
            p.name = text_of(L, field(c, G.f_name));
            p.annotation = lower_expr(L, field(c, G.f_type));
            p.default_value = lower_expr(L, field(c, G.f_value));
            break;
        case N_TYPED_PARAM: {
            TSNode inner = ts_node_named_child(c, 0);
            NodeKind ik = kind_of(inner);
            if (ik == N_LIST_SPLAT_PATTERN || ik == N_DICT_SPLAT_PATTERN) {
                p.star = ik == N_LIST_SPLAT_PATTERN ? 1 : 2;
                inner = ts_node_named_child(inner, 0);
            }
            p.name = text_of(L, inner);
            p.annotation = lower_expr(L, field(c, G.f_type));
            break;
        }
        case N_LIST_SPLAT_PATTERN:
        case N_DICT_SPLAT_PATTERN:
            p.star = kind_of(c) == N_LIST_SPLAT_PATTERN ? 1 : 2;
            if (ts_node_named_child_count(c)) p.name = text_of(L, ts_node_named_child(c, 0));
            break;
        case N_KEYWORD_SEPARATOR: /* a bare `*` */
            keyword_only = true;
            continue;
        default: continue; /* separators, tuple parameters */
        }
        if (p.star == 1) keyword_only = true;
        if (!p.name) continue;
        dl_vec_push(&out, p);
    }
    f->param_count = (uint32_t)out.len;
    if (out.len) {
        f->params = dl_arena_alloc(L->arena, out.len * sizeof(DlParam));
        memcpy(f->params, out.items, out.len * sizeof(DlParam));
    }
    dl_vec_free(&out);
}

static DlStmt *lower_function(Lower *L, TSNode n, TSNode outer, PtrVec *decorators) {
    DlStmt *s = new_stmt(L, DL_ST_DEF, outer);
    DlFunction *f = dl_arena_alloc(L->arena, sizeof *f);
    TSNode name = field(n, G.f_name);
    f->name = ts_node_is_null(name) ? "<anonymous>" : text_of(L, name);
    f->span = span_of(outer);
    f->name_span = ts_node_is_null(name) ? span_of(n) : span_of(name);
    f->owner = L->current_class;
    f->parent = L->current_function;
    f->decorators = (DlExpr **)dl_ptrvec_finish(L->arena, decorators, &f->decorator_count);
    lower_params(L, field(n, G.f_parameters), f);
    DlClass *saved_class = L->current_class;
    DlFunction *saved_fn = L->current_function;
    L->current_class = NULL; /* defs nested in a method are not methods */
    L->current_function = f;
    lower_block_into(L, field(n, G.f_body), &f->body);
    L->current_class = saved_class;
    L->current_function = saved_fn;
    dl_vec_push(&L->functions, f);
    own_parts(L, s)->func = f;
    return s;
}

static DlStmt *lower_class(Lower *L, TSNode n, TSNode outer) {
    DlStmt *s = new_stmt(L, DL_ST_CLASS, outer);
    DlClass *c = dl_arena_alloc(L->arena, sizeof *c);
    TSNode name = field(n, G.f_name);
    c->name = ts_node_is_null(name) ? "<anonymous>" : text_of(L, name);
    c->span = span_of(outer);
    c->name_span = ts_node_is_null(name) ? span_of(n) : span_of(name);
    TSNode supers = field(n, G.f_superclasses);
    if (!ts_node_is_null(supers)) {
        PtrVec bases = {0};
        uint32_t count = ts_node_named_child_count(supers);
        for (uint32_t i = 0; i < count; i++) {
            TSNode b = ts_node_named_child(supers, i);
            NodeKind k = kind_of(b);
            if (k == N_KEYWORD_ARG || is_extra(k) || k == N_DICT_SPLAT || k == N_LIST_SPLAT)
                continue;
            dl_vec_push(&bases, lower_expr(L, b));
        }
        c->bases = (DlExpr **)dl_ptrvec_finish(L->arena, &bases, &c->base_count);
    }
    DlClass *saved_class = L->current_class;
    DlFunction *saved_fn = L->current_function;
    L->current_class = c;
    L->current_function = NULL;
    lower_block_into(L, field(n, G.f_body), &c->body);
    L->current_class = saved_class;
    L->current_function = saved_fn;
    PtrVec methods = {0};
    for (uint32_t i = 0; i < c->body.count; i++)
        if (c->body.items[i]->kind == DL_ST_DEF)
            dl_vec_push(&methods, c->body.items[i]->parts->func);
    c->methods = (DlFunction **)dl_ptrvec_finish(L->arena, &methods, &c->method_count);
    dl_vec_push(&L->classes, c);
    own_parts(L, s)->cls = c;
    return s;
}

static void lower_import(Lower *L, TSNode n, DlStmt *s, bool from) {
    if (L->current_function || L->current_class) L->module->imports_in_defs = true;
    DL_VEC(DlImport) out = {0};
    const char *module = NULL;
    int level = 0;
    TSNode module_node = field(n, G.f_module_name);
    if (from && !ts_node_is_null(module_node)) {
        const char *text = text_of(L, module_node);
        while (*text == '.') {
            level++;
            text++;
        }
        module = text;
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (from && ts_node_eq(c, module_node)) continue;
        DlImport imp = {module, NULL, NULL, level};
        NodeKind k = kind_of(c);
        if (k == N_DOTTED_NAME) {
            const char *name = referenced_text_of(L, c);
            if (from) {
                imp.name = name;
                imp.alias = name;
            } else {
                imp.module = name;
                const char *dot = strchr(name, '.');
                imp.alias = dot ? dl_arena_strndup(L->arena, name, (size_t)(dot - name)) : name;
            }
        } else if (k == N_ALIASED_IMPORT) {
            const char *name = referenced_text_of(L, field(c, G.f_name));
            if (from) imp.name = name;
            else imp.module = name;
            imp.alias = text_of(L, field(c, G.f_alias));
        } else if (k == N_WILDCARD) {
            imp.name = "*";
            imp.alias = "*";
        } else {
            continue;
        }
        dl_vec_push(&out, imp);
    }
    s->import_count = (uint32_t)out.len;
    if (out.len) {
        s->imports = dl_arena_alloc(L->arena, out.len * sizeof(DlImport));
        memcpy(s->imports, out.items, out.len * sizeof(DlImport));
    }
    dl_vec_free(&out);
}

static void lower_if_chain(Lower *L, TSNode n, DlStmt *s, uint32_t first_alt) {
    /* alternatives are the if_statement's children from index first_alt on */
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = first_alt; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        NodeKind k = kind_of(c);
        if (k == N_ELIF) {
            /* each elif nests in the IR, and the engine recurses on it: it counts as a level */
            if (L->depth >= DL_MAX_DEPTH) {
                L->too_deep = true;
                return;
            }
            L->depth++;
            DlStmt *inner = new_stmt(L, DL_ST_IF, c);
            /* it holds the alternatives after it too: it ends where the whole chain does */
            inner->span.end = span_of(n).end;
            inner->value = lower_expr(L, field(c, G.f_condition));
            lower_block_into(L, field(c, G.f_consequence), &own_parts(L, inner)->body);
            lower_if_chain(L, n, inner, i + 1);
            L->depth--;
            own_parts(L, s)->orelse.items = dl_arena_alloc(L->arena, sizeof(DlStmt *));
            own_parts(L, s)->orelse.items[0] = inner;
            own_parts(L, s)->orelse.count = 1;
            return;
        }
        if (k == N_ELSE) {
            lower_block_into(L, field(c, G.f_body), &own_parts(L, s)->orelse);
            return;
        }
    }
}

/* `case _:` with no guard: the clause every value takes. */
static bool matches_anything(Lower *L, TSNode clause) {
    if (!ts_node_is_null(field(clause, G.f_guard))) return false;
    uint32_t patterns = 0;
    bool wildcard = false;
    uint32_t count = ts_node_named_child_count(clause);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(clause, i);
        if (kind_of(c) == N_BLOCK || kind_of(c) == N_COMMENT) continue;
        patterns++;
        size_t n = ts_node_end_byte(c) - ts_node_start_byte(c);
        wildcard = n == 1 && L->src->text[ts_node_start_byte(c)] == '_';
    }
    return patterns == 1 && wildcard;
}

/* The case clauses of a `match` from the `i`th on, as an if/elif chain in `s` (the first's `if`,
 * made by the caller): each clause's pattern is its test, an expression of no known kind; a last
 * `case _:` is the chain's else. The subject is not lowered. */
static void lower_case_chain(Lower *L, TSNode match, const TSNode *clauses, uint32_t count,
                             uint32_t i, DlStmt *s) {
    TSNode clause = clauses[i];
    TSNode pattern = ts_node_named_child(clause, 0);
    s->value = lower_expr(L, pattern);
    lower_block_into(L, field(clause, G.f_consequence), &own_parts(L, s)->body);
    if (i + 1 >= count) return;
    if (i + 2 == count && matches_anything(L, clauses[i + 1])) {
        lower_block_into(L, field(clauses[i + 1], G.f_consequence), &own_parts(L, s)->orelse);
        return;
    }
    if (L->depth >= DL_MAX_DEPTH) {
        L->too_deep = true;
        return;
    }
    L->depth++;
    DlStmt *inner = new_stmt(L, DL_ST_IF, clauses[i + 1]);
    inner->span.end = span_of(match).end; /* it holds the clauses after it too */
    lower_case_chain(L, match, clauses, count, i + 1, inner);
    L->depth--;
    own_parts(L, s)->orelse.items = dl_arena_alloc(L->arena, sizeof(DlStmt *));
    own_parts(L, s)->orelse.items[0] = inner;
    own_parts(L, s)->orelse.count = 1;
}

/* `match subject:` as the if/elif chain of its cases (lower_case_chain): the statements in them
 * are checked as any branch's; without a `case _:`, a value no case takes runs none. */
static DlStmt *lower_match(Lower *L, TSNode n) {
    TSNode body = field(n, G.f_body);
    DL_VEC(TSNode) clauses = {0};
    uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(body, i);
        if (kind_of(c) == N_CASE) dl_vec_push(&clauses, c);
    }
    DlStmt *s = new_stmt(L, clauses.len ? DL_ST_IF : DL_ST_OTHER, n);
    if (clauses.len) lower_case_chain(L, n, clauses.items, (uint32_t)clauses.len, 0, s);
    dl_vec_free(&clauses);
    return s;
}

static void lower_with(Lower *L, TSNode n, DlStmt *s) {
    PtrVec withs = {0}, targets = {0};
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode clause = ts_node_named_child(n, i);
        if (kind_of(clause) != N_WITH_CLAUSE) continue;
        uint32_t items = ts_node_named_child_count(clause);
        for (uint32_t j = 0; j < items; j++) {
            TSNode item = ts_node_named_child(clause, j);
            if (kind_of(item) != N_WITH_ITEM) continue;
            TSNode value = field(item, G.f_value);
            if (kind_of(value) == N_AS_PATTERN) {
                dl_vec_push(&withs, lower_expr(L, ts_node_named_child(value, 0)));
                dl_vec_push(&targets, lower_expr(L, field(value, G.f_alias)));
            } else {
                dl_vec_push(&withs, lower_expr(L, value));
                dl_vec_push(&targets, NULL);
            }
        }
    }
    /* targets[i] is withs[i]'s `as` target: both keep as many as target_count can hold */
    if (withs.len > DL_MAX_ASSIGN_TARGETS) withs.len = DL_MAX_ASSIGN_TARGETS;
    s->withs = (DlExpr **)dl_ptrvec_finish(L->arena, &withs, &s->with_count);
    s->targets = (DlExpr **)dl_ptrvec_finish16(L->arena, &targets, &s->target_count);
    lower_block_into(L, field(n, G.f_body), &own_parts(L, s)->body);
}

static void lower_try(Lower *L, TSNode n, DlStmt *s) {
    lower_block_into(L, field(n, G.f_body), &own_parts(L, s)->body);
    DL_VEC(DlBlock) handlers = {0};
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        NodeKind k = kind_of(c);
        if (k == N_EXCEPT || k == N_EXCEPT_GROUP) {
            DlBlock b = {0};
            uint32_t cc = ts_node_named_child_count(c);
            for (uint32_t j = 0; j < cc; j++) {
                TSNode blk = ts_node_named_child(c, j);
                if (kind_of(blk) == N_BLOCK) lower_block_into(L, blk, &b);
            }
            dl_vec_push(&handlers, b);
        } else if (k == N_ELSE) {
            lower_block_into(L, field(c, G.f_body), &own_parts(L, s)->orelse);
        } else if (k == N_FINALLY) {
            uint32_t cc = ts_node_named_child_count(c);
            for (uint32_t j = 0; j < cc; j++) {
                TSNode blk = ts_node_named_child(c, j);
                if (kind_of(blk) == N_BLOCK) lower_block_into(L, blk, &own_parts(L, s)->finalbody);
            }
        }
    }
    own_parts(L, s)->handler_count = (uint32_t)handlers.len;
    if (handlers.len) {
        own_parts(L, s)->handlers = dl_arena_alloc(L->arena, handlers.len * sizeof(DlBlock));
        memcpy(own_parts(L, s)->handlers, handlers.items, handlers.len * sizeof(DlBlock));
    }
    dl_vec_free(&handlers);
}

static DlStmt *lower_stmt(Lower *L, TSNode n) {
    DlStmt *s;
    switch (kind_of(n)) {
    case N_EXPR_STMT: return lower_expression_statement(L, n);
    case N_RETURN:
        s = new_stmt(L, DL_ST_RETURN, n);
        if (ts_node_named_child_count(n)) s->value = lower_expr(L, ts_node_named_child(n, 0));
        return s;
    case N_RAISE: return new_stmt(L, DL_ST_RAISE, n);
    case N_ASSERT: /* `assert out.is_cuda`: it runs, and execution goes on only where it holds */
        s = new_stmt(L, DL_ST_CHECK, n);
        if (ts_node_named_child_count(n)) s->value = lower_expr(L, ts_node_named_child(n, 0));
        return s;
    case N_BREAK: return new_stmt(L, DL_ST_BREAK, n);
    case N_CONTINUE: return new_stmt(L, DL_ST_CONTINUE, n);
    case N_MATCH: return lower_match(L, n);
    case N_IF: {
        s = new_stmt(L, DL_ST_IF, n);
        s->value = lower_expr(L, field(n, G.f_condition));
        lower_block_into(L, field(n, G.f_consequence), &own_parts(L, s)->body);
        lower_if_chain(L, n, s, 0);
        return s;
    }
    case N_FOR: {
        s = new_stmt(L, DL_ST_FOR, n);
        s->targets = dl_arena_alloc(L->arena, sizeof(DlExpr *));
        s->targets[0] = lower_expr(L, field(n, G.f_left));
        s->target_count = 1;
        s->value = lower_expr(L, field(n, G.f_right));
        lower_block_into(L, field(n, G.f_body), &own_parts(L, s)->body);
        TSNode alt = field(n, G.f_alternative);
        if (!ts_node_is_null(alt))
            lower_block_into(L, field(alt, G.f_body), &own_parts(L, s)->orelse);
        return s;
    }
    case N_WHILE: {
        s = new_stmt(L, DL_ST_WHILE, n);
        s->value = lower_expr(L, field(n, G.f_condition));
        lower_block_into(L, field(n, G.f_body), &own_parts(L, s)->body);
        TSNode alt = field(n, G.f_alternative);
        if (!ts_node_is_null(alt))
            lower_block_into(L, field(alt, G.f_body), &own_parts(L, s)->orelse);
        return s;
    }
    case N_WITH:
        s = new_stmt(L, DL_ST_WITH, n);
        lower_with(L, n, s);
        return s;
    case N_TRY:
        s = new_stmt(L, DL_ST_TRY, n);
        lower_try(L, n, s);
        return s;
    case N_FUNCDEF: {
        PtrVec none = {0};
        return lower_function(L, n, n, &none);
    }
    case N_CLASSDEF: return lower_class(L, n, n);
    case N_DECORATED: {
        PtrVec decorators = {0};
        uint32_t count = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < count; i++) {
            TSNode c = ts_node_named_child(n, i);
            if (kind_of(c) == N_DECORATOR && ts_node_named_child_count(c))
                dl_vec_push(&decorators, lower_expr(L, ts_node_named_child(c, 0)));
        }
        TSNode def = field(n, G.f_definition);
        if (kind_of(def) == N_CLASSDEF) {
            dl_vec_free(&decorators);
            return lower_class(L, def, n);
        }
        if (kind_of(def) == N_FUNCDEF) return lower_function(L, def, n, &decorators);
        dl_vec_free(&decorators);
        return new_stmt(L, DL_ST_OTHER, n);
    }
    case N_IMPORT:
    case N_IMPORT_FROM:
        s = new_stmt(L, DL_ST_IMPORT, n);
        lower_import(L, n, s, kind_of(n) == N_IMPORT_FROM);
        return s;
    default: return new_stmt(L, DL_ST_OTHER, n);
    }
}

static void lower_block_into(Lower *L, TSNode block, DlBlock *out) {
    if (ts_node_is_null(block)) return;
    if (L->depth >= DL_MAX_DEPTH) {
        L->too_deep = true;
        return;
    }
    L->depth++;
    PtrVec stmts = {0};
    for (uint32_t i = 0; i < out->count; i++) dl_vec_push(&stmts, out->items[i]);
    uint32_t count = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(block, i);
        NodeKind k = kind_of(c);
        if (is_extra(k)) continue;
        dl_vec_push(&stmts, lower_stmt(L, c));
    }
    out->items = (DlStmt **)dl_ptrvec_finish(L->arena, &stmts, &out->count);
    L->depth--;
}

/* ---------------------------------------------------------------- file level */

/* Module name from the path: "src/pkg/model.py" -> "model" (basename without extension); the
 * import resolver matches on the last component, which is what the project-wide tables key on. */
const char *dl_python_module_name(DlArena *arena, const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t len = dot ? (size_t)(dot - base) : strlen(base);
    if (len == 8 && strncmp(base, "__init__", 8) == 0) { /* pkg/__init__.py -> "pkg" */
        const char *end = base - 1;
        if (end > path) {
            const char *start = end;
            while (start > path && start[-1] != '/') start--;
            return dl_arena_strndup(arena, start, (size_t)(end - start));
        }
    }
    return dl_arena_strndup(arena, base, len);
}

static void collect_comments(Lower *L, TSNode root) {
    DL_VEC(DlCommentSpan) out = {0};
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cursor);
        if (kind_of(n) == N_COMMENT) {
            int line, col;
            dl_source_position(L->src, ts_node_start_byte(n), &line, &col);
            DlCommentSpan c = {ts_node_start_byte(n), ts_node_end_byte(n), line};
            dl_vec_push(&out, c);
        }
        if (ts_tree_cursor_goto_first_child(&cursor)) continue;
        while (!ts_tree_cursor_goto_next_sibling(&cursor))
            if (!ts_tree_cursor_goto_parent(&cursor)) goto done;
    }
done:
    ts_tree_cursor_delete(&cursor);
    L->module->comment_count = (uint32_t)out.len;
    if (out.len) {
        L->module->comments = dl_arena_alloc(L->arena, out.len * sizeof(DlCommentSpan));
        memcpy(L->module->comments, out.items, out.len * sizeof(DlCommentSpan));
    }
    dl_vec_free(&out);
}

/* Moves the cursor to the node's first child that is or holds an error, when there is one.
 * Error recovery may make one ERROR node of everything from the file's first line to the real
 * problem: that is found among its children. */
static bool first_error_child(TSTreeCursor *cursor) {
    if (!ts_tree_cursor_goto_first_child(cursor)) return false;
    do {
        TSNode c = ts_tree_cursor_current_node(cursor);
        if (ts_node_has_error(c) || ts_node_is_missing(c)) return true;
    } while (ts_tree_cursor_goto_next_sibling(cursor));
    ts_tree_cursor_goto_parent(cursor);
    return false;
}

/* First ERROR or MISSING node, in document order (*outer); inside an ERROR node, the first
 * error among its children if it has one, and so on down (*inner). */
static bool find_error(TSNode root, TSNode *outer, TSNode *inner) {
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    bool found = false;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cursor);
        if (ts_node_symbol(n) == (TSSymbol)-1 || ts_node_is_missing(n)) {
            *outer = n;
            while (!ts_node_is_missing(n) && first_error_child(&cursor))
                n = ts_tree_cursor_current_node(&cursor);
            *inner = n;
            found = true;
            break;
        }
        if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&cursor)) continue;
        while (!ts_tree_cursor_goto_next_sibling(&cursor))
            if (!ts_tree_cursor_goto_parent(&cursor)) goto done;
    }
done:
    ts_tree_cursor_delete(&cursor);
    return found;
}

/* Where an error the cursor cannot see lies (a MISSING token of a hidden rule: the `_newline`
 * between `torch.save(x, 'a.pt')` and the `savename` written right after it): in the deepest
 * node that has an error but no child with one, at the first child that starts on the line where
 * the child before it ends, unless a `;` separates them (*joined); else that node's start. */
static size_t hidden_error_offset(TSNode root, bool *joined) {
    TSNode n = root;
    *joined = false;
    for (int depth = 0; depth < 512; depth++) {
        uint32_t count = ts_node_child_count(n);
        TSNode next = {0};
        bool descended = false;
        for (uint32_t i = 0; i < count && !descended; i++) {
            next = ts_node_child(n, i);
            descended = ts_node_has_error(next);
        }
        if (descended) {
            n = next;
            continue;
        }
        for (uint32_t i = 1; i < count; i++) {
            TSNode before = ts_node_child(n, i - 1), at = ts_node_child(n, i);
            if (strcmp(ts_node_type(before), ";") == 0 || strcmp(ts_node_type(at), ";") == 0 ||
                !ts_node_is_named(before) || !ts_node_is_named(at))
                continue;
            if (ts_node_end_point(before).row == ts_node_start_point(at).row) {
                *joined = true;
                return ts_node_start_byte(at);
            }
        }
        return ts_node_start_byte(n);
    }
    return ts_node_start_byte(n);
}

/* Whether tree-sitter found an error in the statement around byte `at` (or `at` is inside an
 * ERROR node): error recovery may end its first error long before a missing comma it then
 * meets (face.evoLVe's train.py: an ERROR at the `if __name__ == "__main__":` header of line
 * 18, the comma missing at line 114). */
static bool statement_has_error(TSNode root, size_t at) {
    TSNode n = ts_node_descendant_for_byte_range(root, (uint32_t)at, (uint32_t)at);
    for (int depth = 0; !ts_node_is_null(n) && depth < 512; depth++) {
        TSNode parent = ts_node_parent(n);
        if (ts_node_is_null(parent)) return false;
        if (ts_node_symbol(parent) == (TSSymbol)-1) return true; /* inside an ERROR */
        const char *type = ts_node_type(parent);
        if (strcmp(type, "module") == 0 || strcmp(type, "block") == 0)
            return ts_node_has_error(n);
        n = parent;
    }
    return false;
}

/* "syntax error at line 3, column 5", with what is wrong where it is known: the prescan's
 * problem (an unclosed or mismatched bracket, an unterminated string, a header without its
 * colon...) when tree-sitter's first error reaches it (error recovery may start that error far
 * before it, at the file's first line), else a token tree-sitter found missing. */
static char *syntax_error_message(const DlSource *src, TSNode root,
                                  const DlPrescanProblem *problem) {
    TSNode outer, err;
    bool found = find_error(root, &outer, &err);
    size_t offset = found ? ts_node_start_byte(err) : 0;
    char *detail = NULL;
    bool reached = !found || problem->at < ts_node_end_byte(outer) ||
                   (problem->kind == DL_PRESCAN_MISSING_COMMA &&
                    statement_has_error(root, problem->at));
    /* a line ending on an operator, or `print "x"`, is exactly where the scan says: an error
     * tree-sitter found on a line before it is the first (`Tue Nov 28` pasted above a `+----+`
     * table); one that starts on its line is that statement's own */
    size_t line_start =
        (size_t)(dl_source_line_start_of(src->text, src->text + problem->at) - src->text);
    if ((problem->kind == DL_PRESCAN_EXPECTED_OPERAND ||
         problem->kind == DL_PRESCAN_PRINT_STATEMENT) &&
        found && ts_node_start_byte(err) < line_start)
        reached = false;
    if (problem->kind && reached) {
        offset = problem->at;
        detail = dl_python_prescan_describe(src, problem);
    } else if (found && ts_node_is_missing(err)) {
        const char *token = ts_node_type(err);
        detail = ts_node_is_named(err) ? dl_xasprintf("missing %s", token)
                                       : dl_xasprintf("missing `%s`", token);
    } else if (!found) {
        bool joined;
        offset = hidden_error_offset(root, &joined);
        if (joined) detail = dl_xasprintf("perhaps a new line or `;` is missing before this");
    }
    int line, col;
    dl_source_position(src, offset, &line, &col);
    char *msg = detail ? dl_xasprintf("syntax error (%s) at line %d, column %d", detail, line, col)
                       : dl_xasprintf("syntax error at line %d, column %d", line, col);
    free(detail);
    return msg;
}

/* Is `p` inside the arguments of an `add_argument(` call (a command-line option's name or
 * help: `parser.add_argument('--use_cuda', action="store_true")`), written on its line or
 * opened a few lines before? */
bool dl_python_in_an_option_declaration(const DlSource *src, const char *p) {
    static const char call[] = "add_argument(";
    const size_t n = sizeof call - 1;
    const char *from = p - src->text > 400 ? p - 400 : src->text;
    const char *open = NULL;
    for (const char *q = from; q + n <= p; q++)
        if (memcmp(q, call, n) == 0) open = q + n;
    if (!open) return false;
    int depth = 1;
    for (const char *q = open; q < p; q++) {
        if (*q == '(') depth++;
        else if (*q == ')' && --depth == 0) return false;
    }
    return true;
}

/* The file names a device outside comments and option declarations: an option `--use_cuda`
 * that nothing reads moves nothing (a trajectory project's scripts, whose models stay on the
 * CPU); reading it (`if args.use_cuda:`) is a mention of its own. */
bool dl_python_mentions_devices(const DlSource *src) {
    static const char *const words[] = {"cuda", "device", ".to(", "\"meta\"", NULL};
    const char *end = src->text + src->len;
    for (const char *const *w = words; *w; w++) {
        size_t n = strlen(*w);
        for (const char *p = src->text; (p = memmem(p, (size_t)(end - p), *w, n)); p += n) {
            const char *line = dl_source_line_start_of(src->text, p);
            if (memchr(line, '#', (size_t)(p - line)) || dl_python_in_an_option_declaration(src, p))
                continue;
            /* TensorFlow's session and eager options (`log_device_placement=True`,
             * `enable_eager_execution(device_policy=None)`), in a project's Keras files beside
             * its PyTorch ones: no device a tensor is put on */
            if (**w == 'd' &&
                (!strncmp(p + n, "_policy", 7) || !strncmp(p + n, "_placement", 10)))
                continue; /* (the text ends with a NUL: strncmp stops there) */
            return true;
        }
    }
    return false;
}

/* The argument of each `set_default_device(` / `set_default_tensor_type(` outside a comment: a
 * GPU if it names CUDA (`'torch.cuda.FloatTensor'`, `"cuda"`), and perhaps one if it is a
 * variable (no string, no tensor type: `torch.set_default_device(device)`); not the CPU's
 * (`torch.set_default_tensor_type(torch.DoubleTensor)`, `"cpu"`). */
bool dl_python_sets_a_gpu_default(const DlSource *src) {
    static const char *const calls[] = {"set_default_device(", "set_default_tensor_type("};
    /* a test's setting is the test's own (flash-fft-conv's `torch.set_default_device(device)`
     * in tests/test_conv1d.py): the library's code runs in other processes too */
    if (src->path && dl_path_is_a_test_file(src->path)) return false;
    const char *end = src->text + src->len;
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        size_t n = strlen(calls[c]);
        for (const char *p = src->text; (p = memmem(p, (size_t)(end - p), calls[c], n)); p += n) {
            const char *line = dl_source_line_start_of(src->text, p);
            if (memchr(line, '#', (size_t)(p - line))) continue; /* commented out (roughly) */
            const char *arg = p + n, *close = arg;
            while (close < end && *close != ')' && *close != '\n')
                close++;
            size_t len = (size_t)(close - arg);
            if (memmem(arg, len, "cuda", 4)) return true;
            if (!memchr(arg, '"', len) && !memchr(arg, '\'', len) &&
                !memmem(arg, len, "Tensor", 6) && !memmem(arg, len, "cpu", 3) && len)
                return true;
        }
    }
    return false;
}

/* The path names a package's `__init__.py`. */
static bool is_package_init(const char *path) {
    static const char name[] = "__init__.py";
    size_t n = path ? strlen(path) : 0, k = sizeof name - 1;
    return n >= k && strcmp(path + n - k, name) == 0 && (n == k || path[n - k - 1] == '/');
}

bool dl_python_is_relevant(const DlSource *src) {
    /* `import *`: a file that hands on another's names (a package's `__init__.py` with `from
     * utils.experiment import *`: GwcNet's) is read for its imports, which name none of the rest */
    static const char *const words[] = {"torch",  "cuda",   "device", "Tensor", "tensor",
                                        "Module", "loader", "Loader", ".to(",   "import *"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (dl_source_mentions(src, words[i])) return true;
    /* ... and so is a package's `__init__.py` that hands on a module's names by a relative
     * import (`from .trainer import Trainer`): a script importing the package reaches the module
     * through it (the calls of a class whose device defaults to the CPU, a device helper) */
    return is_package_init(src->path) && dl_source_mentions(src, "from .");
}

/* Ends the parse's allocation region; the tree is walked and freed only when part of it lives
 * outside the region. */
static void delete_tree(TSTree *tree) {
    if (!dl_ts_region_holds_everything()) ts_tree_delete(tree);
    dl_ts_region_end();
}

/* After a failed parse: the text with the grammar's known gaps patched (python_grammar_gaps.c),
 * parsed in a region of its own; the tree if that parses cleanly, else NULL (the region
 * ended). The patched bytes are spaces where the text has a star: the lowering reads names and
 * spans from the original text. */
static TSTree *parse_around_grammar_gaps(const DlSource *src) {
    char *patched = dl_python_patch_grammar_gaps(src->text, src->len);
    if (!patched) return NULL;
    dl_ts_region_begin();
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    TSTree *tree = ts_parser_parse_string(parser, NULL, patched, (uint32_t)src->len);
    ts_parser_delete(parser);
    free(patched);
    if (tree && !ts_node_has_error(ts_tree_root_node(tree))) return tree;
    if (tree) delete_tree(tree);
    else dl_ts_region_end();
    return NULL;
}

DlParseResult dl_python_parse(const DlSource *src, DlArena *arena, bool lower,
                              const bool *mentions_devices) {
    DlParseResult result = {0};
    pthread_once(&grammar_once, grammar_init);
    DlPrescanProblem problem;
    if ((result.error = dl_python_prescan(src, &problem))) return result;
    dl_ts_region_begin();
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    TSTree *tree = ts_parser_parse_string(parser, NULL, src->text, (uint32_t)src->len);
    ts_parser_delete(parser);
    if (!tree) {
        dl_ts_region_end();
        result.error = strdup("the parser gave up on this file");
        return result;
    }
    TSNode root = ts_tree_root_node(tree);
    if ((problem.kind == DL_PRESCAN_EXPECTED_BLOCK ||
         problem.kind == DL_PRESCAN_UNEXPECTED_INDENT ||
         problem.kind == DL_PRESCAN_UNINDENT_MISMATCH ||
         problem.kind == DL_PRESCAN_INCONSISTENT_TABS ||
         problem.kind == DL_PRESCAN_UNTERMINATED_STRING ||
         problem.kind == DL_PRESCAN_EXPECTED_OPERAND ||
         problem.kind == DL_PRESCAN_PRINT_STATEMENT ||
         problem.kind == DL_PRESCAN_KEYWORD_ARGUMENT) &&
        !ts_node_has_error(root)) {
        /* the grammar takes an empty body, lines indented out of their block, tabs mixed with
         * spaces, an f-string whose text goes on past the end of its line (`print(f"{x}` /
         * `")`), a statement ending on an operator (`x =`) joined to the next line, Python
         * 2's `print "x"`, and `async=True` as an argument; CPython does not */
        result.error = syntax_error_message(src, root, &problem);
        delete_tree(tree);
        return result;
    }
    if (ts_node_has_error(root)) {
        result.error = syntax_error_message(src, root, &problem);
        delete_tree(tree);
        tree = parse_around_grammar_gaps(src);
        if (!tree) return result;
        free(result.error);
        result.error = NULL;
        root = ts_tree_root_node(tree);
    }
    Lower L = {.src = src, .arena = arena};
    dl_interner_init(&L.names, arena);
    L.module = dl_arena_alloc(arena, sizeof *L.module);
    L.module->source = src;
    L.module->module_name = dl_python_module_name(arena, src->path);
    /* comments only matter for suppressions; `# NOQA` counts as well as `# noqa` */
    if (dl_source_mentions_any_case(src, "noqa") || dl_source_mentions(src, "devlint"))
        collect_comments(&L, root);
    if (lower) {
        lower_block_into(&L, root, &L.module->body);
        L.module->functions = (DlFunction **)dl_ptrvec_finish(L.arena, &L.functions,
                                                           &L.module->function_count);
        L.module->classes =
            (DlClass **)dl_ptrvec_finish(L.arena, &L.classes, &L.module->class_count);
        /* also the legacy `torch.set_default_tensor_type('torch.cuda.FloatTensor')` (ssd.pytorch's
         * demo, under `if torch.cuda.is_available():`); named in the code, not in a comment or a
         * string (the interner holds the names the code uses) */
        L.module->sets_default_device = names_in_code(&L, src, "set_default_device") ||
                                        names_in_code(&L, src, "set_default_tensor_type");
        L.module->sets_a_gpu_default =
            L.module->sets_default_device && dl_python_sets_a_gpu_default(src);
        L.module->mentions_devices =
            mentions_devices ? *mentions_devices : dl_python_mentions_devices(src);
        L.module->mentions_torch_geometric = dl_source_mentions(src, "torch_geometric");
    }
    delete_tree(tree);
    if (lower) {
        L.module->referenced_names =
            dl_interner_referenced(&L.names, arena, &L.module->referenced_name_count);
        L.module->names_known = true;
    }
    dl_interner_free(&L.names);
    if (L.too_deep) {
        result.error = strdup("nesting too deep to analyse (over 400 levels)");
        return result;
    }
    result.module = L.module;
    return result;
}
