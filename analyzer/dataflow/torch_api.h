/* What devlint knows of PyTorch's API, by qualified name ("torch.zeros", "torch.nn.Linear") or
 * by tensor method name. Pure lookups over constant tables. */
#ifndef DL_TORCH_API_H
#define DL_TORCH_API_H
#include <stdbool.h>

typedef enum {
    DL_FACTORY_NONE = 0,
    DL_FACTORY_PLAIN,    /* torch.zeros(...): cpu unless device= */
    DL_FACTORY_LIKE,     /* torch.zeros_like(x): x's device unless device= */
    DL_FACTORY_FROM_CPU, /* torch.from_numpy: always cpu */
} DlFactoryKind;

/* Whether `s` is one of the names of the NULL-terminated `list` (the tables here and the
 * interpreter's own). */
bool dl_name_in_list(const char *s, const char *const *list);

/* Is `qualified` torch itself or inside it ("torch", "torch.nn.Linear"; not "torchvision")? */
bool dl_torch_owns(const char *qualified);
/* torch.nn.Parameter, as exported and where it is defined. */
bool dl_torch_is_parameter(const char *qualified);
/* torch.autograd.Variable, likewise: old PyTorch's wrapper, since 0.4 the tensor itself. */
bool dl_torch_is_variable(const char *qualified);
/* Either: `Parameter(x)` and `Variable(x)` wrap the tensor given; no kernel runs (DL203 counts
 * no device work for them). */
bool dl_torch_wraps_its_tensor(const char *qualified);
/* nn.DataParallel and nn.parallel.DistributedDataParallel: wrappers that scatter their inputs
 * onto the device(s) of the module they are given. */
bool dl_torch_is_data_parallel(const char *qualified);
/* nn.DataParallel only (one process, a thread per GPU; DL205), not DistributedDataParallel */
bool dl_torch_is_single_process_data_parallel(const char *qualified);
/* A base class that is known not to be a torch module: `object`, a builtin type or exception,
 * or a class of the standard library's typing, abc, enum, collections, dataclasses. */
bool dl_is_plain_python_base(const char *qualified);

DlFactoryKind dl_torch_factory(const char *qualified);
/* A call of torch.cuda that fails without a GPU, whatever it is given: `set_device`,
 * `current_device`, `synchronize`, the queries of a GPU's properties (`get_device_properties`,
 * `get_device_name`, `get_device_capability`). What runs after it runs only with one. */
bool dl_torch_call_needs_a_gpu(const char *qualified);
/* torch's module containers: nn.Sequential, nn.ModuleList, nn.ModuleDict. */
bool dl_torch_is_module_container(const char *qualified);
/* `torch.cuda.LongTensor`, `torch.cuda.FloatTensor`: the legacy constructors of CUDA tensors. */
bool dl_torch_is_cuda_legacy_constructor(const char *qualified);
/* Whether the factory of that last name ("from_numpy", "FloatTensor") takes no `device=`: its
 * tensor is copied to a device with `.to(...)` (a legacy constructor given a CUDA device
 * raises). */
bool dl_torch_factory_takes_no_device(const char *name);
/* A plain factory whose result is always 1-D: torch.arange, linspace, logspace, randperm. */
bool dl_torch_factory_is_one_dim(const char *qualified);
/* How many leading positional arguments of a plain factory are data whose device, when they
 * are tensors, the result takes without `device=` (the docs: "If None and data is a tensor then
 * the device of data is used"): torch.tensor, as_tensor, asarray 1; sparse_coo_tensor (indices,
 * values), complex and polar (the parts) 2; 0 when the factory makes its own data. */
unsigned dl_torch_factory_data_arguments(const char *qualified);
bool dl_torch_is_new_factory_method(const char *method); /* x.new_zeros(...) */
bool dl_torch_is_random(const char *qualified);          /* torch.randn: a new value each call */
bool dl_torch_is_dtype(const char *qualified);           /* torch.float16 ... */

/* Library classes, by qualified name. */
bool dl_torch_is_module_base(const char *qualified);  /* nn.Module, LightningModule */
bool dl_torch_is_module_class(const char *qualified); /* any torch.nn.<Class> (not Parameter) */
bool dl_torch_is_loss_class(const char *qualified);   /* torch.nn.CrossEntropyLoss ... */
/* A torch.nn loss with no weight to be given (nn.MSELoss, nn.MarginRankingLoss ...): built
 * with any arguments, it holds nothing to move. */
bool dl_torch_is_loss_without_weight(const char *qualified);
/* Modules with no parameters or buffers (nn.ReLU, nn.MaxPool2d, nn.Dropout ...): nothing to
 * move, so "never moved" is no bug. */
bool dl_torch_is_stateless_module(const char *qualified);
bool dl_torch_is_dataset_base(const char *qualified);
bool dl_torch_is_dataloader(const char *qualified);

/* torch_geometric's graph containers (`torch_geometric.data.Data`, `HeteroData`, `Batch`),
 * whose to() moves the tensors they hold in place and returns the container itself. */
bool dl_torch_is_graph_container(const char *qualified);
bool dl_torch_is_optimizer(const char *qualified);

/* Functions that combine their tensor arguments (torch.cat, F.cross_entropy ...) and so
 * require them on one device. */
bool dl_torch_is_combining_op(const char *qualified);

/* Tensor methods. */
/* Whether an argument of the combining op `qualified` (its `position`-th positional argument, or
 * the one passed as `keyword`) meets no device: a shape (a size, scale factor, padding,
 * dimension), which PyTorch reads as numbers (`F.interpolate(x, (w, h))`), or ctc_loss's
 * targets and lengths, which it moves or reads on the host itself. */
bool dl_torch_argument_meets_no_device(const char *qualified, unsigned position,
                                       const char *keyword);
bool dl_tensor_method_keeps_device(const char *method); /* x.float(), x.view(...) ... */
bool dl_tensor_method_keeps_shape(const char *method);  /* x.float(), x.clone(): a cast or copy */
bool dl_tensor_method_reduces(const char *method);      /* x.sum() with no dim -> 0-dim */
bool dl_tensor_method_combines(const char *method);     /* x.add(y), x.matmul(y) ... */
bool dl_tensor_method_to_host(const char *method);      /* x.item(), x.tolist(), x.numpy() */
bool dl_tensor_attr_keeps_device(const char *attr);     /* x.T, x.data, x.grad */

/* Module methods that return the module itself (model.eval(), model.train()). */
bool dl_module_method_returns_self(const char *method);

#endif
