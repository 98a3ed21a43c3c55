/* The abstract value of the dataflow lattice: a kind (what the value is) times a device (where
 * it lives), plus where it got that device, for messages. Values are immutable once built and
 * live in the file's arena; a state maps names ("x", "self.mask", "args.device") to values.
 *
 * Lattice: UNKNOWN is top. join(a, b) keeps a fact only when both sides agree on it, so every
 * known fact holds on every path that reaches a point ("must" facts): precision over recall. */
#ifndef DL_VALUE_H
#define DL_VALUE_H
#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "ir/ir.h"

typedef enum {
    DL_KIND_UNKNOWN = 0,
    DL_KIND_TENSOR,
    DL_KIND_MODULE,     /* nn.Module instance (moves in place) */
    DL_KIND_LOSS,       /* loss module: a module whose weight buffer moves with it */
    DL_KIND_LOADER,     /* DataLoader (iterating yields batches) */
    DL_KIND_OPTIMIZER,
    DL_KIND_DEVICE,     /* a torch.device / device string */
    DL_KIND_SEQ,        /* tuple/list/dict with a known element (elem) or items (tuple) */
    DL_KIND_DTYPE,      /* torch.float32 ... (a .to() argument that is not a device) */
    DL_KIND_NONE,       /* None */
    DL_KIND_SCALAR,     /* Python number / bool */
    DL_KIND_STRING,
    DL_KIND_CLASS,      /* a class object (project or library) */
    DL_KIND_FUNCTION,   /* a project function */
    DL_KIND_INSTANCE,   /* an instance of a project class that is not a module */
    DL_KIND_CLOCK,      /* a wall-clock reading (time.time()): elem = the device work pending
                           when it was read, dev_span = the read */
    DL_KIND_OTHER,      /* known to be none of the above */
} DlKind;

typedef enum {
    DL_DEV_UNKNOWN = 0,
    DL_DEV_CPU,
    DL_DEV_CUDA,   /* "cuda" / "cuda:N" (dev_name holds the text) */
    DL_DEV_META,
    DL_DEV_NAMED,  /* a device held in a variable: dev_name = "device", "args.device" */
    DL_DEV_MODULE, /* the device of the enclosing module (forward inputs, parameters) */
} DlDeviceTag;

/* Why a tensor is where it is: decides which rule owns a mismatch. */
typedef enum {
    DL_ORIGIN_NONE = 0,
    DL_ORIGIN_FACTORY,    /* a factory without device= (DL102) */
    DL_ORIGIN_BATCH,      /* an element of a DataLoader batch (DL104) */
    DL_ORIGIN_PLAIN_ATTR, /* a tensor stored as a plain module attribute in __init__ (DL106) */
    DL_ORIGIN_MOVED,      /* the result of .to()/.cuda() */
    DL_ORIGIN_INPUT,      /* a forward() input */
    DL_ORIGIN_MODEL,      /* a model's output / a module's own device */
} DlOrigin;

enum {
    DL_VF_ZERO_DIM = 1 << 0,     /* 0-dim tensor: may meet tensors on any device */
    DL_VF_REGISTERED = 1 << 1,   /* parameter / buffer / submodule: moves with its module */
    DL_VF_MOVED = 1 << 2,        /* module: .to()/.cuda() was called on it */
    DL_VF_CPU_WEIGHT = 1 << 3,   /* loss: constructed with a CPU weight= tensor */
    DL_VF_HAS_MODULES = 1 << 4,  /* seq: holds modules or parameters */
    DL_VF_OWN_TO = 1 << 5,       /* instance/class: the project class defines its own to() */
    DL_VF_CONSTRUCTED = 1 << 6,  /* module: constructed in this scope (so "never moved" is known) */
    DL_VF_WHOLE_BATCH = 1 << 7,  /* a whole loader element: a tensor, a tuple, a dict or a
                                    project Batch object; only its parts are known tensors */
    DL_VF_SCATTERS = 1 << 8,     /* module: DataParallel/DDP wrapper, moves its inputs itself */
    DL_VF_PIN_KNOWN = 1 << 9,    /* cpu tensor / loader / kwargs dict: whether its memory is
                                    pinned is known (then DL_VF_PINNED says which) */
    DL_VF_PINNED = 1 << 10,      /* page-locked host memory (pin_memory=True, .pin_memory()) */
    DL_VF_CUDA_CONTEXT = 1 << 11, /* created without device= inside `with torch.cuda.device()` */
    DL_VF_MOVE_DISCARDED = 1 << 12, /* its `x.to(device)` result was thrown away (DL101): later
                                       mismatches are that bug's consequence, not new ones */
    DL_VF_HELD_ELSEWHERE = 1 << 13, /* module: also an attribute of a module, or handed to a
                                       function that may have registered it; parameter: one of
                                       such a submodule's (`self.conv1.weight`): a plain list
                                       that holds it too registers nothing new (DL107) */
    DL_VF_ONE_DIM = 1 << 14,        /* tensor: 1-D (torch.arange, linspace, logspace, randperm,
                                       or a slice or a cast of one): what iterating it gives is
                                       0-dim */
    DL_VF_HOLDS_DEVICE = 1 << 15,   /* a dict of keyword arguments with a "device" key
                                       (`Net(**cfg)`, `nn.Linear(2, 1, **factory_kwargs)`), or
                                       with a tensor on a device among its values */
    DL_VF_DATA_RANK = 1 << 16,      /* tensor: made from data not written out here
                                       (`torch.tensor(cfg["point_cloud_range"])`): its rank is
                                       not known, so an element picked by a number may be 0-dim */
    DL_VF_QUEUED_BEFORE_LOOP = 1 << 17, /* pending device work (DL203): queued before the loop
                                           being walked and not waited for in its body since */
    DL_VF_MAYBE_CPU = 1 << 18, /* tensor of unknown device: a CPU tensor met one of unknown
                                  device to make it (DCVC's `torch.where(cdf(x) > p, ..., t)` of
                                  CPU tensors), so it may well be on the CPU; its `.device` is no
                                  device chosen elsewhere */
    DL_VF_DEVICE_VARIABLE = 1 << 19, /* cpu tensor: made with `device=` a variable that holds the
                                        CPU (pinn-torch's `device = torch.device('cpu')`, `cuda`
                                        a comment away): it is where its author points that
                                        variable, which may be where what it meets is
                                        (flow_cpu_side) */
    DL_VF_ONE_BATCH = 1 << 20, /* loader: its batch size is its dataset's length
                                  (`DataLoader(ds, batch_size=len(ds))`, or a few:
                                  `len(ds) // 4`): a loop over it runs once or a few times */
    DL_VF_UNPACKED = 1 << 21,  /* tensor: one of the names a value taken for a tensor was
                                  unpacked into (`pred, loss, fr = model(x)`): a model's output
                                  tuple, whose parts may be host data a forward hands back */
    DL_VF_ROW = 1 << 22,       /* tensor: an element of tensors zipped together (`for label, p
                                  in zip(labels, preds)`), 0-dim when they are 1-D: its rank is
                                  not known */
    DL_VF_DEVICE_OF_UNKNOWN = 1 << 23, /* named device, and a tensor moved there: the device of a
                                          tensor whose device is not known (`.to(x.device)`
                                          with `x` a parameter), which may be the CPU */
    DL_VF_DICT = 1 << 24, /* seq: a dict (a display, a comprehension): iterating it gives its
                             keys, not the values its element describes */
    DL_VF_STATELESS = 1 << 25, /* module: a library layer with no parameter or buffer
                                  (`nn.Dropout`, `nn.ReLU`): it computes where its input is,
                                  moved or not */
    DL_VF_HANDED_OVER = 1 << 26, /* seq: a list of modules a container built from it registered
                                    (`nn.Sequential(*layers)`) */
    DL_VF_MADE_WHERE_DEVICES_MEET = 1 << 27, /* tensor: what a CPU tensor and one on a device
                                                make (`predicted.cpu() == labels`): the
                                                operation raises there (DL111), so nothing
                                                after it reads the result back */
    DL_VF_PLACED_PARTS = 1 << 28, /* seq: a TensorDataset's batch, each part where its tensor is,
                                     some on the CPU: those are batches of the loader that
                                     yields it, named after it (flow_element_of) */
    DL_VF_WEIGHT_BY_PARAM = 1 << 29, /* loss: given `weight=` an `__init__` parameter that
                                        defaults to None (`nn.BCEWithLogitsLoss(weight=weight)`
                                        in a wrapper's __init__): a construction of the wrapper
                                        that gives no weight gives it none */
};

typedef struct DlValue DlValue;

/* A dict written out with string keys (`{'loss': loss, 'losses': {...}}`): each key's value,
 * which `d['loss']` reads (GG-CNN's `compute_loss` returns its loss so). */
typedef struct DlDictEntries {
    uint32_t count;
    const char **keys;
    const DlValue **values;
} DlDictEntries;
struct DlValue {
    DlKind kind;
    DlDeviceTag dev;
    uint32_t flags;
    DlOrigin origin;
    const char *dev_name;  /* NAMED: "device"; CUDA: "cuda:1" */
    DlSpan dev_span;       /* where it got its device (the factory, the .to() call, ...) */
    const char *dev_why;   /* short text of that place: "torch.randn(4, 10)" */
    const char *var;       /* the name it was first bound to, for messages */
    const DlValue *elem;   /* SEQ / LOADER: the element; LOSS: its weight tensor */
    const DlValue **items; /* SEQ from a tuple display: each item (for unpacking) */
    uint32_t item_count;
    uint32_t also_with;    /* `also` holds while dev_span.start is this (a later move or factory
                              gives the value a new dev_span and leaves `also` stale) */
    const DlValue *also;   /* TENSOR from a factory: the factory of another path the join met
                              (`if a: x = torch.tensor(f) else: x = torch.tensor(g)`), so that
                              each is reported, not only the one whose span the join kept */
    DlSpan aux_span;       /* LOSS: the weight= argument; PLAIN_ATTR: the attribute's assignment */
    const void *cls;       /* MODULE/INSTANCE/CLASS: the project DlClassInfo, if any */
    /* MODULE of one project class on one path and another on the other (`model = SeqLSTM()`
     * if ... else `SeqModel()`): both (cls NULL), for a call to read each forward */
    const void *either_cls[2];
    const char *literal;   /* STRING / SCALAR from a literal: its text ("cuda:1", "4"); LOSS:
                              its class ("torch.nn.CTCLoss") */
    const DlModuleIR *home; /* the file dev_span/aux_span point into; NULL: the file being
                               analysed (values from another file's summaries carry theirs) */
    const DlDictEntries *entries; /* SEQ with DL_VF_DICT: its string keys' values, if known */
};

extern const DlValue dl_value_unknown;

DlValue *dl_value_new(DlArena *arena, DlKind kind);
DlValue *dl_value_copy(DlArena *arena, const DlValue *v);
/* `copy` (a copy of the sequence `v` being written, or NULL: one is made) with its item `i` set
 * to `item`; its items are copied from `v`'s the first time, so `v` is left as it was. */
DlValue *dl_value_with_item(DlArena *arena, const DlValue *v, DlValue *copy, uint32_t i,
                            const DlValue *item);
/* A deep copy into `to` (texts and nested values too), so that the arena `v` was built in can
 * be released: project summaries outlive the scratch arena of the run that computed them. */
const DlValue *dl_value_persist(DlArena *to, const DlValue *v);

/* On one device: the same tag, and for a named or CUDA device the same name. */
bool dl_value_same_device(const DlValue *a, const DlValue *b);
/* Least upper bound; returns one of the inputs when they are equal. */
const DlValue *dl_value_join(DlArena *arena, const DlValue *a, const DlValue *b);
bool dl_value_equal(const DlValue *a, const DlValue *b);
/* A copy of `e` in `arena` whose values a caller may replace (the keys are shared). */
DlDictEntries *dl_value_entries_copy(DlArena *arena, const DlDictEntries *e);
/* The value of entry `key` of a dict whose entries are known, or NULL. */
const DlValue *dl_value_entry(const DlValue *dict, const char *key);
/* A factory's tensor that a join met with another factory's: that other one (its own
 * dl_value_other_factory gives the next), or NULL. */
const DlValue *dl_value_other_factory(const DlValue *v);

/* A tensor whose device is known to be the CPU and that cannot mix with a device tensor
 * (i.e. not 0-dim). */
bool dl_value_is_cpu_tensor(const DlValue *v);
/* A CPU tensor known to be in pageable (not pinned) memory: a copy of it to the device is
 * synchronous, `non_blocking=True` or not (DL202; a blocking copy for DL203). */
bool dl_value_in_pageable_memory(const DlValue *v);
/* Known to be on an accelerator or on a device held in a variable (not the CPU). */
bool dl_value_on_device(const DlValue *v);
/* A module moved whole to a GPU written out with its index (`.to("cuda:4")`). */
bool dl_value_module_on_gpu_index(const DlValue *v);
/* On a device whose work runs as queued kernels: not the meta device, whose tensors have no
 * storage and whose operations only work out shapes (so they queue nothing to wait for). */
bool dl_value_on_kernel_device(const DlValue *v);
/* Whether `match` holds for `v`, or for an item or the element of a tuple or list `v` is, at
 * any depth (to 4): `((a, b), c)` holds a module if one of a, b, c is one. */
bool dl_value_any_part(const DlValue *v, bool (*match)(const DlValue *));

/* "mps", "xpu", "npu:0"...: the name of an accelerator other than CUDA, as a device string
 * gives it (a NAMED device whose dev_name is this is a literal, not a variable). */
bool dl_is_accelerator_type_name(const char *name);

/* "cpu", "cuda:1", "meta", "device", "args.device", "the module's device" */
const char *dl_device_text(DlArena *arena, const DlValue *v);

#endif
