/* Internals of the dataflow engine, shared by its files (flow_*.c); nothing outside
 * analyzer/dataflow includes this. The interpreter's context (Flow), the abstract state, and
 * every function one file of the engine calls in another, prefixed flow_. */
#ifndef DL_FLOW_INTERNAL_H
#define DL_FLOW_INTERNAL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataflow/flow.h"
#include "dataflow/torch_api.h"

/* A slot of a direct-mapped memo (Flow.imports, Flow.keys) for an address. */
static inline uint32_t flow_slot_of(const void *p, uint32_t slots) {
    return (uint32_t)(((uintptr_t)p * 0x9E3779B97F4A7C15u) >> 32) % slots;
}

/* strcmp(a, b) == 0 with the first bytes compared inline: the interpreter tests names against
 * literals on every call it evaluates, and most differ in the first byte (a call to strcmp
 * costs tens of instructions). */
static inline bool flow_streq(const char *a, const char *b) {
    return a[0] == b[0] && strcmp(a, b) == 0;
}

enum { DL_LOOP_ROUNDS = 3, DL_INLINE_DEPTH = 2, DL_LOOP_BINDINGS_KEPT = 4, DL_IMPORT_SLOTS = 64,
       DL_KEY_SLOTS = 64 };

typedef struct Binding {
    const char *key;
    uint32_t hash; /* of key: most lookups are settled without a strcmp */
    const DlValue *value; /* NULL: explicitly unbound (an import rebinds the name) */
} Binding;

struct DlFlowState {
    Binding *items; /* in binding order; each key once */
    uint32_t count, cap;
    /* Hash index over items, open addressing: 2 * cap slots, each 0 (empty) or the position
     * of a binding + 1. A lookup takes a probe or two instead of a scan of every binding. */
    uint32_t *slots;
    bool dead; /* no path reaches here (after return/raise/break/continue) */
};

/* The keys a loop (re)binds: its target, assignments in its body, receivers of in-place
 * methods (x.add_()). Gathered once per loop, as invariance is asked for every method call in
 * a batch loop (see flow_loop_binds). */
typedef struct LoopBindings {
    const DlStmt *loop;
    const char **keys;
    uint32_t *hashes; /* flow_key_hash of each key */
    uint32_t count, cap;
    bool binds_all; /* nested deeper than the walk looks: every key counts as bound */
} LoopBindings;

/* The names the functions around a nested function bind (parameters, assignment targets,
 * nested defs and classes): a closure reads its enclosing functions' locals, not the module's
 * names. Gathered once per function run, as flow_lookup asks about every name the closure does
 * not bind itself (see flow_enclosing_binds). */
typedef struct EnclosingBindings {
    bool gathered;  /* for Flow.fn, on its first lookup of a name it does not bind */
    DlInterner names;
    bool binds_all; /* nested deeper than the walk looks: every name counts as bound */
} EnclosingBindings;

typedef struct Flow {
    const DlFlowEnv *env;
    DlArena *arena;
    const DlSource *src;
    const DlFunction *fn;
    const DlClassInfo *owner;
    DlFlowState *st;
    const DlValue *ret;
    /* what it returns in the CPU fallback of a check for a GPU (`if torch.cuda.is_available():
     * return x.cuda()` `else: return x`): the function's value only when it returns nothing on
     * the GPU's path, which is the one to check, as flow_state_prefer_the_gpu_path's */
    const DlValue *ret_without_cuda;
    const DlValue *default_device; /* inside `with torch.device(d):` */
    const DlExpr *operand_tested; /* the last `a or b` / `a and b` whose `a`, a tensor on a
                                     device, it tested itself: an `if` on it is one wait */
    uint32_t returns, waited_returns; /* the function's returns, and those after a wait with
                                         nothing queued since (DlFlowEnv.returns_waited) */
    uint32_t upload_returns; /* returns of a blocking copy to a device with no known work
                                queued (DlFlowEnv.returns_blocking_upload) */
    uint32_t gpu_returns; /* returns after a GPU was required (DlFlowEnv.requires_gpu) */
    /* the last `.cpu()` of a value of unknown device that may have waited for pending work
     * (flow_sync): if a read of a device value follows with nothing queued since, that copy
     * was the iteration's wait (DL201 "first-read") */
    const DlExpr *unknown_read_site, *unknown_read_tensor;
    struct {
        const char *name;     /* a loop variable bound to elements of a tensor sequence */
        const DlStmt *loop;   /* its `for` statement */
    } seq_loop_vars[16];
    int seq_loop_count;
    int loop_depth;
    bool later_round; /* in a second or later round of the outermost loop (flow_exec_loop) */
    /* the index of a loop counting from 0 (`for i in range(n)`, `for i, x in enumerate(xs)`)
     * while its first round runs, where `if i == 0:` takes only its first arm; NULL else */
    const char *first_round_index;
    bool first_round_narrowed; /* an `if` took only its first arm so: the loop goes round again */
    int inline_depth;
    int foreign_inline; /* depth of helpers inlined from another file (a base class's): their
                           events are not reported here, where their spans mean nothing; their
                           own file's analysis reports them */
    bool comparing; /* evaluating a comparison's operands: `time.time() - t0 > budget` is a time
                       limit, not a measurement (DL203) */
    bool in_init; /* the owner's __init__ (or a helper it calls) */
    bool is_forward;
    /* the forward's parameters it reads only on the host (flow_host_only_params), as bits:
     * what a caller hands there is not taken to be on the module's device */
    const DlFunction *host_only_of;
    uint64_t host_only_inputs;
    bool without_cuda; /* in the else of `if torch.cuda.is_available():`, or the body of `if
                          not torch.cuda.is_available():`: a module and a device variable are
                          the CPU there */
    DlSpan stmt_span;            /* statement being interpreted */
    DlSpan read_stmt_span;       /* the statement of the last read of a device value */
    DlPlace place;               /* loops and contexts around the current statement */
    int8_t host_only_project;    /* 1: nothing in the project names a device nor this file a
                                    trainer that places modules (flow_device_work asks once);
                                    -1: something may; 0: not asked yet */
    int16_t only_when_flag;      /* summary mode: 1 + the parameter off by default that a caller
                                    in the file switches on, whose `if` the statement is under;
                                    -(1 + the parameter) past `if p: return`, where it is false */
    const DlExpr *move_receiver; /* the receiver of the .to()/.cuda() being evaluated */
    const DlExpr *consumed_generator; /* a generator handed to a builtin that runs it at once
                                         (`sum(x.item() for x in xs)`) */
    const char *comp_names[16];  /* variables of the comprehensions being evaluated */
    int comp_count;
    int try_depth;               /* in the body of a `try:` (whose handlers may catch a failure) */
    /* dl_project_import answers, by the address of the name asked (names are interned per
     * file): a function reads the same few imported names (torch, nn, F) over and over, and
     * each question scans the file's imports (see flow_import) */
    struct {
        const char *alias;
        const char *qualified;
    } imports[DL_IMPORT_SLOTS];
    /* flow_key_of answers for names and attribute chains, by the expression's address: loops
     * run their bodies several times and one statement asks for the same keys again */
    struct {
        const DlExpr *expr;
        const char *key;
    } keys[DL_KEY_SLOTS];
    LoopBindings loop_bindings[DL_LOOP_BINDINGS_KEPT]; /* the batch loops asked about last */
    EnclosingBindings enclosing;                         /* for fn, when it is nested */
    int loop_bindings_next;                              /* the entry to reuse next */
} Flow;

typedef struct OperandList {
    DlOperand items[32];
    uint32_t count;
} OperandList;

uint32_t flow_key_hash(const char *key);
DlFlowState *flow_state_new(void);
DlFlowState *flow_state_copy(const DlFlowState *s);
Binding *flow_state_find(const DlFlowState *s, const char *key);
Binding *flow_state_find_hashed(const DlFlowState *s, const char *key, uint32_t hash);
void flow_state_set(DlFlowState *s, const char *key, const DlValue *v);
/* Unbinds what the state knows of the parts of `name` (`name[...]`, `name.attr`): `name` is
 * bound anew (a loop's variable, each round). */
void flow_state_forget_parts(DlFlowState *s, const char *name);
void flow_state_join(DlArena *arena, DlFlowState *into, const DlFlowState *other);
/* Before the paths of a branch that runs only with a GPU meet: a tensor or module it placed on
 * a device, which the other path leaves on the CPU, is taken to be on the device. */
void flow_state_prefer_the_gpu_path(DlFlowState *cpu_path, const DlFlowState *gpu_path);
void flow_state_forget_the_cpu_bound_only_without_cuda(DlFlowState *cpu_path,
                                                      const DlFlowState *gpu_path);
bool flow_state_equal(const DlFlowState *a, const DlFlowState *b);
void flow_state_replace(DlFlowState *into, DlFlowState *from);
const char *flow_text(Flow *F, DlSpan span);
/* Is `word` written in `span` of `src` as a whole word (`attributes`: also as an attribute's
 * name, `x.word`)? */
bool flow_span_names_word(const DlSource *src, DlSpan span, const char *word, bool attributes);
const char *flow_short_text(Flow *F, DlSpan span);
const DlValue *flow_unknown(void);
DlValue *flow_mk(Flow *F, DlKind kind);
DlValue *flow_mk_tensor(Flow *F, DlDeviceTag dev, const char *dev_name, DlOrigin origin,
                        DlSpan span);
bool flow_is_tensor(const DlValue *v);
/* A value as an operand of arithmetic or of a torch operation: what `.to()`/`.cuda()` moved,
 * of a kind not known, is there a tensor on that device. */
const DlValue *flow_as_operand(Flow *F, const DlValue *v);
/* The values "<unread-work>" holds (flow_events.c): work queued and not read back since, and
 * such work queued before the batch loop being entered, read back at most once in it. */
const DlValue *flow_unread_work_marker(void);
const DlValue *flow_unread_before_the_loop(void);
/* ... and after a blocking upload, with nothing else unread (flow_events.c). */
const DlValue *flow_unread_upload_marker(void);
/* Whether "<unread-work>" holds the mark of a read of unknown device (flow_sync). */
bool flow_is_unknown_read_mark(const DlValue *v);
/* `env.step(...)` anywhere in the function (flow.c): it rolls out episodes. */
bool flow_function_steps_an_environment(const DlFunction *fn);
/* `linear_sum_assignment(...)` anywhere in the function (flow.c): it matches on the host. */
bool flow_function_solves_on_the_host(const DlFunction *fn);
bool flow_is_module_like(const DlValue *v);
/* A module built here with nothing to move (`nn.ReLU()`, a project module without state). */
bool flow_module_without_state(const DlValue *v);
/* Known to hold nothing a device could: no attribute of it or its project bases is state or
 * of unknown kind (unless only read as data), and its parts that are project modules are known
 * stateless too (`depth`: how deep in such parts; 0 from outside). Unlike the stricter test a
 * module call makes (only numbers, strings, dtypes and devices kept), parts without state
 * (`nn.ReLU()`, a loss without a weight) are allowed: what DL107 asks is only whether a plain
 * list of such leaves anything unmoved or unsaved. `given_no_weight`: an instance built with no
 * argument that could be a weight (dl_call_may_give_a_weight). */
bool flow_class_known_stateless(const DlClassInfo *ci, bool given_no_weight, int depth);
/* Put in a plain list or dict, `v` would be state that container alone holds (DL107): a module
 * with state not held elsewhere, or a parameter. */
bool flow_adds_unregistered_state(const DlValue *v);
const char *flow_key_of(Flow *F, const DlExpr *e);
/* Does a function around F->fn bind `name`? */
bool flow_enclosing_binds(Flow *F, const char *name);
void flow_enclosing_bindings_free(Flow *F);
const Binding *flow_lookup(Flow *F, const char *key);
const char *flow_import(Flow *F, const char *name);
const char *flow_qualify(Flow *F, const DlExpr *e);
/* `torch.optim.lr_scheduler.StepLR` and the like (flow_library.c). */
bool flow_is_lr_scheduler_class(const char *q);
bool flow_name_says_device(Flow *F, const char *s);
/* A device named as what an object is on (`tensor.device`, `self.x.device`): the length of the
 * object's name (`tensor`); 0 for any other name. */
size_t flow_device_owner_length(const char *dev_name);
/* `x.cuda()`, `x.to(device)` without non_blocking=True: a copy that, from the host, waits. */
bool flow_blocking_upload(const DlExpr *call);
bool flow_name_says_loader(const char *s);
bool flow_whole_norm(const DlExpr *call, bool is_norm, unsigned positional);
DlValue *flow_named_device(Flow *F, const char *name, DlSpan span);
/* The device a literal names (`"cuda:1"`, `"mps"`, `0` for cuda:0), without its place in the
 * text (the literal may be another file's); NULL for any other expression. */
DlValue *flow_device_of_literal(Flow *F, const DlExpr *e);
/* A device written out: a literal (`"cpu"`, `0`) or `torch.device` of one; NULL for any other
 * expression. */
DlValue *flow_device_written_out(Flow *F, const DlExpr *e);
/* The device written out at `key` of the dict display a name `dict` is bound to at the top of
 * the file and that the file never changes (`param = {"device": torch.device("cpu")}`), or
 * NULL. */
const DlValue *flow_device_of_dict_entry(Flow *F, const DlExpr *dict, const char *key);
/* `config['device']` of `config = {'device': 'cpu', ...}`, a name `scope` (in the file `src`)
 * binds once, to a dict display, and the file neither updates nor writes that entry of any
 * dict: the entry's expression (as of `before`), else NULL. */
const DlExpr *flow_entry_of_a_local_dict(Flow *F, const DlSource *src, const DlBlock *scope,
                                         const DlExpr *e, uint32_t before);
/* `torch.cuda.is_available()`, and a conjunction with it (`use_cuda = not args.no_cuda and
 * torch.cuda.is_available()`): true only where CUDA is there, so a branch on it is code that
 * runs with a GPU (and its else, code that runs without one). */
const DlValue *flow_cuda_available_value(Flow *F);
bool flow_says_cuda_available(const DlValue *v);
/* `batch["prompt"]`, `batch["file_id"]`: a dict batch's text fields, which the DataLoader
 * collates into lists of strings, not tensors. */
bool flow_names_text_field(const DlExpr *subscript);
/* The name of such a field (`caption`, `img_paths`, `class_names`), as a key or a variable. */
bool flow_is_text_field_name(const char *name);
/* Of those, a field of names or paths (`class_names`, `img_paths`, `file_id`), strings whatever
 * the loader's collate; not a caption or text, often collated as token ids. */
bool flow_is_name_or_path_field(const char *name);
DlDeviceTag flow_device_of_string(const char *s);
const DlValue *flow_device_arg(Flow *F, const DlExpr *e, const DlValue *v);
const DlValue *flow_device_keyword(Flow *F, const DlExpr *call, const DlValue *const *argv);
/* Parameters past the 64th are not told apart (a diffusers pipeline's `__call__` has 40 to 50;
 * `id_embeds` is PhotoMaker's 42nd). */
enum { DL_MAX_PARAM_BITS = 64 };
/* Bit i: parameter i of `fn` is only read on the host (`len(p)`, `p.tolist()`, the lengths of
 * pack_padded_sequence) or moved by `fn` itself, or by a method of self it hands it to (one a
 * base class defines found through `project`): a CPU tensor there meets no device
 * (flow_host_params.c). */
uint64_t flow_host_only_params(const DlProject *project, const DlFunction *fn);
/* "The module's device" is the CPU for the file `F` runs: nothing in the project names a device,
 * or this file, which no other file reads, names none and hands its modules to no trainer that
 * places them (flow_events.c). */
bool flow_modules_stay_on_the_cpu(Flow *F);
/* ... asked only of a notebook or a script (a top-level `if __name__ == "__main__":`), not of
 * a file of layers another project may import (flow_events.c). */
bool flow_script_modules_stay_on_the_cpu(Flow *F);
/* The same, read for a call in the file `F` runs: a submodule the class's `__init__` is handed
 * (`self.encoder = encoder`) is of the class this file's constructions hand it
 * (flow_module_class_built_into). */
uint64_t flow_host_only_params_at(Flow *F, const DlFunction *fn);
/* The index of the parameter of `ci`'s `__init__` that ends up in `self.<attr>` (stored there, or
 * handed to a base's `__init__` that stores it), or -1 (flow_call.c). */
int flow_init_parameter_stored_as(const DlClassInfo *ci, const char *attr);
/* Where the events being interpreted are reported: NULL in summary mode, and while a helper
 * from another file runs inline (Flow.foreign_inline). */
static inline DlRuleContext *flow_reporter(const Flow *F) {
    return F->foreign_inline ? NULL : F->env->report;
}
/* Bit i: `fn` rebinds parameter i to a copy of it on a device (`labels = labels.to(x.device)`,
 * `labels = c_f.to_device(labels, embeddings)`), anywhere in its body: where the caller's
 * tensor is, is the function's concern (flow_host_params.c). */
uint64_t flow_params_moved_inside(const DlFunction *fn);
/* `t.type(torch.FloatTensor)`, `t.type(torch.cuda.LongTensor)`: a legacy tensor type names a
 * device too (torch.FloatTensor is a CPU type, torch.cuda.FloatTensor a CUDA one); the device
 * the cast makes, or DL_DEV_UNKNOWN (`t.type(torch.float32)` keeps it). */
DlDeviceTag flow_legacy_type_device(Flow *F, const DlExpr *call);
/* Whether a DataLoader built in this file is given a project collate function that puts its
 * batches on a device (flow_library.c). */
bool flow_file_collates_onto_a_device(Flow *F);
/* Whether the file builds an instance of a project class, no dataset, iterated through its own
 * `__iter__` (a loader of the project's, whose batches may be anywhere), or a project dataset
 * whose `__getitem__` makes its items on a device. */
bool flow_file_builds_a_project_loader(Flow *F);
/* Whether the file defines or imports a project function that returns DataLoaders whose batches
 * are not on the CPU (hw4's `from dataloader import get_loaders`, whose dataset moves each item
 * to the device): a loader a function of this file is handed may be one of those. */
bool flow_file_gets_loaders_off_the_cpu(Flow *F);
/* Whether a call's arguments may give a torch loss its weight (dl_call_may_give_a_weight), in
 * the running function: not when they are only its own parameters splatted, and keywords other
 * than weight= (`nn.CrossEntropyLoss(**ce_kwargs)` in nnU-Net's `DC_and_CE_loss(soft_dice_kwargs,
 * ce_kwargs)`, built with `{}`): whether a weight is in the dict is its caller's to say. */
bool flow_call_may_give_a_weight(Flow *F, const DlExpr *call);
/* Whether `name` is a parameter of the running function that it hands to a layer as a size
 * (`nn.Linear(d, name)`) and never rebinds: an integer (flow_size_params.c). */
/* flow_reduced_params.c: bit i set when `fn` reads parameter i only as numbers of one element
 * (`x.mean()`, `x.size(0)`, `x.shape`). */
uint64_t flow_params_reduced_to_scalars(const DlFunction *fn);
/* flow_callers.c: the project module class every call of `fn` in its file hands its parameter
 * `param` (a model parameter's `Net(device)`), or NULL. */
/* The DataLoader a function's parameter named for one (`def test(loader)`) is handed by every
 * call of the function, each at the file's top level with a top-level loader
 * (`test(test_loader)` over a TensorDataset moved to CUDA), joined; NULL otherwise. */
const DlValue *flow_loader_given(Flow *F, const DlFunction *fn, uint32_t param);
/* Whether every call of `fn` in its file (by name, or `obj.fn(...)` for a method) hands
 * parameter `param` a name bound in the caller to a loader of the whole dataset in one batch
 * (flow_builds_a_one_batch_loader), and there is such a call. */
bool flow_every_call_hands_one_batch(Flow *F, const DlFunction *fn, uint32_t param);
/* `DataLoader(ds, batch_size=len(ds))` and the like (flow_library.c), its names read in `body`. */
bool flow_builds_a_one_batch_loader(Flow *F, const DlExpr *call, const DlBlock *body);
const DlClassInfo *flow_module_class_given(Flow *F, const DlFunction *fn, uint32_t param);
/* The project module class every construction of `owner` in the file `F` runs hands the
 * `__init__` parameter stored in `self.<attr>` (`Seq2Seq(enc, dec)` after `enc = Encoder(...)`),
 * or NULL: none, or one hands something else. */
const DlClassInfo *flow_module_class_built_into(Flow *F, const DlClassInfo *owner,
                                                const char *attr);
/* Every call of `fn` in its file, which no other file imports, hands device parameter `param` the
 * CPU (`"cpu"`, `torch.device("cpu")`, a name bound to one, or a default of one): a top-level
 * function's calls, or an `__init__`'s constructions of its class. */
bool flow_every_call_gives_the_cpu(Flow *F, const DlFunction *fn, uint32_t param);
/* Whether the file's every mention of top-level function `fn` is a call that leaves parameter
 * `param` to its default: none passes it by keyword or position, nor splats arguments. */
bool flow_every_call_leaves_the_default(Flow *F, const DlFunction *fn, uint32_t param);
/* The same for a method `fn` of the file's class, called as `recv.<name>(...)`: every call in
 * the file leaves parameter `param` (not `self`) out, and the name stands nowhere else. */
bool flow_every_method_call_leaves_the_default(Flow *F, const DlFunction *fn, uint32_t param);
/* A test that fails as the program is shipped (`False`, a switch bound to False that it reads,
 * an `and` with such a part): what it guards never runs. */
bool flow_never_holds(Flow *F, const DlExpr *cond);
/* How many statements of `b` (nested blocks too, not nested defs) bind `name`: assignments
 * (one of a tuple's names too), `+=`, a loop's target. */
uint32_t flow_bindings_of(const DlBlock *b, const char *name, int depth);
/* What `name` holds at `before` when `b` binds it exactly once, by an assignment before
 * `before` (`max_batches = 5`, `MODES = (...)` at a file's top); NULL otherwise. */
const DlExpr *flow_bound_once(const DlBlock *b, const char *name, uint32_t before);
/* `copy.deepcopy` or `copy.copy` (a qualified name): a copy of its argument. */
bool flow_is_copy(const char *q);
bool flow_param_is_layer_size(Flow *F, const char *name);
/* `self.losses = MultiLoss(self.loss_modules)`, `nn.Sequential(*self.layers)`: a plain list of
 * modules handed to a call that builds a module is registered there (DL107 has nothing to say
 * about it). */
void flow_lists_registered_by(Flow *F, const DlExpr *call, const DlValue *const *argv);
bool flow_has_splat(const DlExpr *call);
/* A module that something moved to a device this code does not name (a part replaced with one
 * on a device, built from device state): no longer "never moved", its device unknown. */
void flow_mark_moved_elsewhere(DlValue *m);
/* `key` bound anew to a copy of the module `m` so marked. */
void flow_bind_moved_elsewhere(Flow *F, const char *key, const DlValue *m);
/* A module built right here and left there: with state to move, or stateless (nn.ReLU()) on
 * the CPU; not `nn.Linear(32, 32).cuda()`, built and moved (bitsandbytes' tests). */
bool flow_module_built_here(const DlValue *v);
/* `nn.Sequential(a, b)`, `nn.ModuleList(layers)` (or a project subclass that hands its
 * arguments on): the container `m` is where the modules it is given are (flow_library.c). */
void flow_contents_decide(Flow *F, DlValue *m, const DlExpr *call, const DlValue *const *argv);
/* `v` is where `from` is: its device, the span and words that say why, and the file that span
 * is in (`home`), copied together so that none is left describing another place. */
void flow_take_place(DlValue *v, const DlValue *from);
DlValue *flow_with_device(Flow *F, const DlValue *v, const DlValue *dev, DlOrigin origin,
                          DlSpan span);
bool flow_cpu_side(const DlValue *v);
bool flow_real_device(const DlValue *v);
bool flow_devices_conflict(const DlOperand *ops, uint32_t n);
/* Two GPUs written out with their indices, and different ("cuda:0", "cuda:1"). */
bool flow_two_gpu_indices(const DlValue *a, const DlValue *b);
void flow_meet(Flow *F, const DlExpr *site, const DlOperand *ops, uint32_t n, int callee);
/* Whether `call` passes parameter `index` of `fi` something other than False, None or 0 (also
 * through `**kwargs`); false when it leaves the parameter at its default. */
/* After a call of project function `fi`: a container the caller names as an argument, whose
 * items the function writes (`batch[k] = v.to(device)`, also through a helper of its file), is
 * forgotten, what it held no longer known (flow_item_writes.c). */
void flow_forget_items_written(Flow *F, const DlFunctionInfo *fi, const DlExpr *call,
                               const DlValue *const *argv, bool skip_self);
bool flow_call_switches_on(const DlFunctionInfo *fi, int index, const DlExpr *call);
/* What `call` passes for `fi`'s parameter `index` (by position or keyword), or NULL. */
const DlExpr *flow_argument_expr(const DlFunctionInfo *fi, int index, const DlExpr *call);
/* `False`, `None` or `0` written out: what leaves a feature off. */
bool flow_off_constant(const DlExpr *e);
/* Whether `call` passes parameter `index` of `fi` True or a number other than 0, or leaves it
 * at such a default. */
bool flow_call_sets_true(const DlFunctionInfo *fi, int index, const DlExpr *call);
/* What `call` passes for parameter `index` of `fi` (after self for a method), or NULL. */
const DlValue *flow_argument_for(const DlFunctionInfo *fi, int index, const DlExpr *call,
                                 const DlValue *const *argv);
DlValue *flow_combine(Flow *F, const DlExpr *site, const DlOperand *ops, uint32_t n);
void flow_add_operand(OperandList *l, const DlExpr *e, const DlValue *v);
/* Marks what a Python operator makes of a CPU tensor and a device one (DL111: it raises there):
 * DL_VF_MADE_WHERE_DEVICES_MEET. */
void flow_mark_operator_that_fails(DlValue *r, const DlOperand *ops, uint32_t n);
void flow_add_operand_deep(Flow *F, OperandList *l, const DlExpr *e, const DlValue *v);
DlValue *flow_loader_value(Flow *F, DlSpan span);
DlDeviceTag flow_construction_device(Flow *F);
bool flow_scalar_expression(Flow *F, const DlExpr *e, int depth);
const DlValue *flow_eval_factory(Flow *F, const DlExpr *call, DlFactoryKind kind,
                                 const DlValue *const *argv);
const DlValue *flow_eval_loss_ctor(Flow *F, const DlExpr *call, const DlValue *const *argv);
/* `nn.DataParallel(model)` (or a project subclass of it): the module given, which now scatters
 * its inputs onto its device(s), so callers may pass CPU batches. */
DlValue *flow_data_parallel(Flow *F, const DlExpr *call, const DlValue *const *argv);
uint32_t flow_loader_pin_flags(const DlExpr *call, const DlValue *const *argv);
bool flow_uses_workers(Flow *F, const DlExpr *call);
const DlValue *flow_eval_dataloader(Flow *F, const DlExpr *call, const DlValue *const *argv);
/* An instance of torch_geometric's Data, HeteroData or Batch (dl_torch_is_graph_container):
 * its to() moves what it holds in place, as a module's does. */
const DlValue *flow_graph_container(Flow *F);
const DlValue *flow_eval_library_call(Flow *F, const DlExpr *call, const char *q,
                                      const DlValue *const *argv);
const DlValue *flow_call_module(Flow *F, const DlExpr *call, const DlExpr *callee_expr,
                                const DlValue *callee, const DlValue *const *argv);
const DlValue *flow_rebase(Flow *F, const DlValue *v, const DlModuleIR *from);
const DlValue *flow_bind_parameter_device(Flow *F, const DlValue *v, const DlFunction *fn,
                                          const DlExpr *call, const DlValue *const *argv,
                                          bool skip_self);
const DlValue *flow_call_summary(Flow *F, const DlFunctionInfo *fi, const DlExpr *call,
                                 const DlValue *const *argv, bool skip_self);
bool flow_class_has_state(const DlClassInfo *ci);
/* `argv`: the arguments' values (NULL: not evaluated) */
const DlValue *flow_instantiate(Flow *F, const DlExpr *call, const DlClassInfo *ci,
                               const DlValue *const *argv);
bool flow_is_static(const DlFunction *fn);
/* What the function run so far returns (Flow.ret, else Flow.ret_without_cuda). */
const DlValue *flow_returned(const Flow *F);
const DlValue *flow_inline_method(Flow *F, const DlFunction *fn, const DlValue *const *argv,
                                  const DlExpr *call);
const DlValue *flow_move_module(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                const DlValue *recv, const DlValue *target);
/* A name for a run's options: `args`, `self.opt`, `cfg`. */
bool flow_names_options(const DlExpr *e);
const DlValue *flow_move_target(Flow *F, const DlExpr *call, const char *method,
                                const DlValue *const *argv);
bool flow_is_move_method(const char *m);
const DlValue *flow_move_instance(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                  const DlValue *recv, const DlFunctionInfo *to,
                                  const DlValue *const *argv);
const DlValue *flow_mark_instance_moved(Flow *F, const DlExpr *recv_expr, const DlValue *recv);
const DlValue *flow_eval_tensor_method(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                       const DlValue *recv, const char *m,
                                       const DlValue *const *argv);
bool flow_tensor_only_method(const char *m);
const DlValue *flow_eval_method_call(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                     const DlValue *recv, const char *m,
                                     const DlValue *const *argv);
const DlValue *flow_eval_builtin(Flow *F, const DlExpr *call, const char *name,
                                 const DlValue *const *argv, bool *handled);
void flow_escape_modules(Flow *F, const DlExpr *call, const DlValue *const *argv,
                         const char *qualified);
const DlValue *flow_resolve_call(Flow *F, const DlExpr *call, const char *q, const DlValue *recv,
                                 const DlValue *const *argv);
bool flow_is_clock(const char *q);
bool flow_is_synchronize(const char *q, const char *method);
bool flow_metadata_method(const char *m);
/* `t.numel()`, `t.nelement()`, `t.dim()`, `t.ndimension()`: a count of the tensor's elements or
 * dimensions, a Python number taken from its metadata. The method lists of the flow that treat
 * such reads alike (host reads, reductions, numbers, metadata) each include these. */
bool flow_is_count_method(const char *m);
bool flow_is_view_method(const char *m);
/* Whether a condition says a GPU is there: 1 when its true branch runs with one
 * (`torch.cuda.is_available()`, `device == "cuda"`), -1 when its false branch does, else 0. */
int flow_gpu_branch(Flow *F, const DlExpr *cond);
/* `torch.cuda.is_available()` (or a name bound to it, `torch.cuda.device_count() > 0`, or a
 * flag the module's own `cuda()` sets True) as a condition: 1; negated: -1; else 0. */
int flow_cuda_availability_test(Flow *F, const DlExpr *cond);
/* On an accelerator named by its literal type ("mps", "xpu:0"), not CUDA. */
bool flow_on_a_named_accelerator(const DlValue *v);
/* `d.items()`, `outputs.get("loss")`: a container's own method, no kernel (flow_events.c). */
bool flow_calls_a_container_method(const DlExpr *call, const DlValue *recv);
bool flow_touches_device(Flow *F, const DlExpr *call, const char *q, const DlValue *recv,
                         const DlValue *const *argv, const DlValue *result);
bool flow_may_synchronize(Flow *F, const DlExpr *call, const char *q, const DlValue *recv);
/* `synchronize()` of a name bound once to `torch.cuda.synchronize if ... else lambda: None`
 * (flow_events.c). */
bool flow_names_a_synchronize_alias(Flow *F, const DlExpr *callee);
const DlValue *flow_clock_read(Flow *F, const DlExpr *call);
void flow_timing(Flow *F, const DlExpr *site, const DlValue *end, const DlValue *start);
/* Device work queued at `site`; `elementwise`: arithmetic such as `total / n` (not a call, not
 * a matrix product). */
void flow_device_work(Flow *F, const DlExpr *site, bool elementwise);
/* A blocking copy from the host just finished (`buf[i] = torch.from_numpy(row)` into a device
 * tensor): it waited for all the work queued before it, so none is pending and what the copy
 * left is a finished upload (as `x.to(device)` of a CPU tensor leaves, flow_events.c). */
void flow_upload_finished(Flow *F);
bool flow_loop_binds(Flow *F, const DlStmt *loop, const char *key);
bool flow_expr_invariant(Flow *F, const DlStmt *loop, const DlExpr *e, int depth);
void flow_sync(Flow *F, const DlExpr *site, const DlExpr *tensor, const DlValue *v,
               const char *how);
void flow_sync_facts(Flow *F, const DlExpr *call, const char *q, const DlExpr *recv_expr,
                     const DlValue *recv, const DlValue *const *argv);
const DlValue *flow_call_target_device(Flow *F, const DlExpr *call, const char *q,
                                       const char *method, const DlValue *recv,
                                       const DlValue *const *argv);
const char *flow_device_in_scope(Flow *F);
const DlValue *flow_eval_call(Flow *F, const DlExpr *call);
const DlValue *flow_element_of(Flow *F, const DlValue *v, DlSpan target_span);
const DlValue *flow_eval_attr(Flow *F, const DlExpr *e);
const DlValue *flow_imported_global(Flow *F, const char *qualified);
const DlValue *flow_eval_name(Flow *F, const DlExpr *e);
/* `last_index` (NULL: not wanted): the value of the last index evaluated. */
bool flow_index_fact(Flow *F, const DlExpr *e, const DlValue *obj, bool store,
                     const DlValue **last_index);
const DlValue *flow_eval_subscript(Flow *F, const DlExpr *e);
uint32_t flow_dict_pin_flags(const DlExpr *e);
const DlValue *flow_eval_sequence(Flow *F, const DlExpr *e);
const DlValue *flow_eval_comprehension(Flow *F, const DlExpr *e);
bool flow_is_arith(const char *op);
const DlValue *flow_eval_binary(Flow *F, const DlExpr *e, const DlExpr *const *operands,
                                uint32_t n);
const DlValue *flow_binary_values(Flow *F, const DlExpr *e, const DlExpr *const *operands,
                                  const DlValue *const *values, uint32_t n);
const DlValue *flow_eval_inner(Flow *F, const DlExpr *e);
const DlValue *flow_eval(Flow *F, const DlExpr *e);
const DlValue *flow_as_bound(Flow *F, const char *key, const DlValue *v, const DlExpr *target);
void flow_bind(Flow *F, const DlExpr *target, const DlValue *v);
const DlExpr *flow_move_call_of(const DlExpr *e);
const DlStmt *flow_seq_loop_of(Flow *F, const DlExpr *e);
void flow_discard(Flow *F, const DlStmt *s, const DlExpr *call, const DlValue *recv, const DlStmt *loop, const DlExpr *comprehension);
void flow_exec_expr_stmt(Flow *F, const DlStmt *s);
void flow_exec_assign(Flow *F, const DlStmt *s);
void flow_exec_augassign(Flow *F, const DlStmt *s);
bool flow_names_in(const DlExpr *e, const char *name, int depth);
bool flow_is_batch_loop(Flow *F, const DlStmt *s, const DlValue *iter);
/* The parameter `__init__` stores in `self.NAME` (`e`), and only stores (`def __init__(self,
 * centralized=False): self.centralized = centralized`); NULL otherwise. */
const DlParam *flow_parameter_stored_in(Flow *F, const DlExpr *e);
/* ... when it defaults to None (`def __init__(self, callback=None)`): its name. */
const char *flow_optional_parameter_stored_in(Flow *F, const DlExpr *e);
void flow_exec_loop(Flow *F, const DlStmt *s);
const DlValue *flow_torch_device_context(Flow *F, const DlExpr *with);
void flow_exec_with(Flow *F, const DlStmt *s);
void flow_exec_try(Flow *F, const DlStmt *s);
void flow_note_gpu_required(Flow *F, const DlExpr *call, const DlValue *recv);
bool flow_periodic_condition(const DlExpr *e, int depth);
/* A test that lets a branch run only now and then in the batch loop (`if step % N == 0:`, a
 * flag computed from the step); not a comparison of the function's options. */
bool flow_periodic_guard(Flow *F, const DlExpr *e, int depth);
void flow_exec_if(Flow *F, const DlStmt *s);
void flow_exec_stmt(Flow *F, const DlStmt *s);
void flow_exec_block(Flow *F, const DlBlock *b);
const DlValue *flow_param_value(Flow *F, const DlFunction *fn, uint32_t i);
void flow_seed_attributes(Flow *F, const DlClassInfo *c, int depth);
bool flow_is_forward_like(const DlFunction *fn);
bool flow_positional_device(Flow *F, const DlExpr *e, const DlValue *v);

#endif
