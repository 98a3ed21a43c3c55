/* PyTorch API knowledge tables (see torch_api.h). Lists are sorted only for reading; lookups
 * are linear over short lists. */
#include "dataflow/torch_api.h"

#include <ctype.h>
#include <string.h>

bool dl_name_in_list(const char *s, const char *const *list) {
    for (; *list; list++) /* the first byte rules out almost every entry without a call */
        if ((*list)[0] == s[0] && strcmp(s, *list) == 0) return true;
    return false;
}

/* The part after `prefix` if it is a single identifier, else NULL. */
static const char *member_of(const char *qualified, const char *prefix) {
    const char *q = qualified; /* compared inline: asked of every library call, several times */
    while (*prefix && *q == *prefix) q++, prefix++;
    if (*prefix || *q != '.') return NULL;
    const char *rest = q + 1;
    return strchr(rest, '.') ? NULL : rest;
}

static const char *const plain_factories[] = {
    "zeros", "ones", "empty", "full", "rand", "randn", "randint", "randperm", "arange", "range",
    "linspace", "logspace", "eye", "tensor", "as_tensor", "empty_strided", "tril_indices",
    "triu_indices", "complex", "polar",
    "scalar_tensor", "sparse_coo_tensor", "asarray", NULL};
/* The legacy constructors, plain factories too: `torch.FloatTensor(n, d)`, `torch.Tensor([1, 2])`
 * (sizes or data, never a 0-dim tensor from a number: `torch.Tensor(5)` has five elements). */
static const char *const legacy_constructors[] = {
    "Tensor", "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor",
    "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "BoolTensor", NULL};
static const char *const like_factories[] = {"zeros_like", "ones_like", "empty_like",
                                             "full_like",  "rand_like", "randn_like",
                                             "randint_like", NULL};

bool dl_torch_owns(const char *q) {
    return strncmp(q, "torch", 5) == 0 && (q[5] == '\0' || q[5] == '.');
}

bool dl_torch_is_parameter(const char *q) {
    static const char *const names[] = {"torch.nn.Parameter", "torch.nn.parameter.Parameter",
                                        NULL};
    return q && dl_name_in_list(q, names);
}

bool dl_torch_is_variable(const char *q) {
    static const char *const names[] = {"torch.autograd.Variable",
                                        "torch.autograd.variable.Variable", NULL};
    return q && dl_name_in_list(q, names);
}

bool dl_torch_wraps_its_tensor(const char *q) {
    return dl_torch_is_parameter(q) || dl_torch_is_variable(q);
}

/* mmcv's and mmengine's subclasses scatter their inputs as their bases do (mmskeleton's
 * recognition, every OpenMMLab 1.x tool). */
bool dl_torch_is_data_parallel(const char *q) {
    static const char *const names[] = {"torch.nn.DataParallel", "torch.nn.parallel.DataParallel",
                                        "torch.nn.parallel.DistributedDataParallel",
                                        "torch.nn.parallel.data_parallel.DataParallel",
                                        "torch.nn.parallel.distributed.DistributedDataParallel",
                                        "mmcv.parallel.MMDistributedDataParallel",
                                        "mmcv.parallel.distributed.MMDistributedDataParallel",
                                        "mmengine.model.MMDistributedDataParallel",
                                        "mmcv.parallel.MMDataParallel",
                                        "mmcv.parallel.data_parallel.MMDataParallel",
                                        NULL};
    return q && dl_name_in_list(q, names);
}

/* torch's own (DL205); mmcv's MMDataParallel is how OpenMMLab 1.x tools run one GPU
 * (`device_ids=[0]`), to scatter their DataContainers: not a choice against DDP. */
bool dl_torch_is_single_process_data_parallel(const char *q) {
    static const char *const names[] = {"torch.nn.DataParallel", "torch.nn.parallel.DataParallel",
                                        "torch.nn.parallel.data_parallel.DataParallel", NULL};
    return q && dl_name_in_list(q, names);
}

bool dl_is_plain_python_base(const char *q) {
    static const char *const builtins[] = {
        "object", "dict", "list", "tuple", "set", "frozenset", "str", "int", "float", "bytes",
        "type", "property", "Exception", "BaseException", "ABC", "ABCMeta", "NamedTuple",
        "TypedDict", "Protocol", "Generic", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag",
        "OrderedDict", "defaultdict", "Counter", "UserDict", "UserList", "Thread",
    };
    static const char *const stdlib[] = {"abc.", "typing.", "enum.", "collections.",
                                         "dataclasses.", "threading.", "argparse.", "json.",
                                         "unittest.", "logging.", "typing_extensions."};
    for (size_t i = 0; i < sizeof stdlib / sizeof stdlib[0]; i++)
        if (strncmp(q, stdlib[i], strlen(stdlib[i])) == 0) return true;
    size_t n = strlen(q);
    if ((n > 5 && strcmp(q + n - 5, "Error") == 0) || (n > 7 && strcmp(q + n - 7, "Warning") == 0))
        return !strchr(q, '.');
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strcmp(q, builtins[i]) == 0) return true;
    return false;
}

bool dl_torch_factory_is_one_dim(const char *q) {
    static const char *const list[] = {"arange", "range", "linspace", "logspace", "randperm",
                                       NULL};
    const char *m = member_of(q, "torch");
    return m && dl_name_in_list(m, list);
}

unsigned dl_torch_factory_data_arguments(const char *q) {
    static const char *const one[] = {"tensor", "as_tensor", "asarray", NULL};
    static const char *const two[] = {"sparse_coo_tensor", "complex", "polar", NULL};
    const char *m = member_of(q, "torch");
    if (!m) return 0;
    return dl_name_in_list(m, one) ? 1 : dl_name_in_list(m, two) ? 2 : 0;
}

DlFactoryKind dl_torch_factory(const char *q) {
    const char *m = member_of(q, "torch");
    if (!m) return DL_FACTORY_NONE;
    if (dl_name_in_list(m, plain_factories) || dl_name_in_list(m, legacy_constructors))
        return DL_FACTORY_PLAIN;
    if (dl_name_in_list(m, like_factories)) return DL_FACTORY_LIKE;
    if (strcmp(m, "from_numpy") == 0 || strcmp(m, "frombuffer") == 0 ||
        strcmp(m, "from_blob") == 0) /* C++: wraps memory that is on the host unless said */
        return DL_FACTORY_FROM_CPU;
    return DL_FACTORY_NONE;
}

bool dl_torch_call_needs_a_gpu(const char *q) {
    static const char *const need_a_gpu[] = {
        "torch.cuda.set_device",          "torch.cuda.current_device",
        "torch.cuda.get_device_properties", "torch.cuda.get_device_name",
        "torch.cuda.get_device_capability", "torch.cuda.synchronize", NULL};
    return q && dl_name_in_list(q, need_a_gpu);
}

bool dl_torch_is_module_container(const char *q) {
    return q && (strcmp(q, "torch.nn.Sequential") == 0 || strcmp(q, "torch.nn.ModuleList") == 0 ||
                 strcmp(q, "torch.nn.ModuleDict") == 0);
}

bool dl_torch_is_cuda_legacy_constructor(const char *q) {
    const char *m = member_of(q, "torch.cuda");
    return m && dl_name_in_list(m, legacy_constructors);
}

bool dl_torch_factory_takes_no_device(const char *name) {
    return strcmp(name, "from_numpy") == 0 || strcmp(name, "frombuffer") == 0 ||
           dl_name_in_list(name, legacy_constructors);
}

bool dl_torch_is_random(const char *q) {
    static const char *const list[] = {"rand", "randn", "randint", "randperm", "rand_like",
                                       "randn_like", "randint_like", "normal", "bernoulli",
                                       "multinomial", "poisson", NULL};
    const char *m = member_of(q, "torch");
    return m && dl_name_in_list(m, list);
}

bool dl_torch_is_new_factory_method(const char *method) {
    static const char *const list[] = {"new_zeros", "new_ones", "new_empty", "new_full",
                                       "new_tensor", NULL};
    return dl_name_in_list(method, list);
}

bool dl_torch_is_dtype(const char *q) {
    static const char *const list[] = {
        "float", "float32", "float64", "double", "half", "float16", "bfloat16", "int", "int32",
        "int64", "long", "int8", "uint8", "int16", "short", "bool", "complex64", "complex128",
        "cfloat", "cdouble", "float8_e4m3fn", "float8_e5m2", NULL};
    const char *m = member_of(q, "torch");
    return m && dl_name_in_list(m, list);
}

bool dl_torch_is_module_base(const char *q) {
    static const char *const list[] = {
        "torch.nn.Module", "torch.nn.modules.module.Module", "pytorch_lightning.LightningModule",
        "pytorch_lightning.core.LightningModule", "pytorch_lightning.core.module.LightningModule",
        "lightning.LightningModule", "lightning.pytorch.LightningModule",
        "lightning.pytorch.core.LightningModule", "transformers.PreTrainedModel",
        "transformers.modeling_utils.PreTrainedModel", NULL};
    return dl_name_in_list(q, list);
}

static bool is_class_name(const char *m) {
    return m && isupper((unsigned char)m[0]);
}

bool dl_torch_is_module_class(const char *q) {
    if (dl_torch_is_module_base(q)) return true;
    /* `from torch.nn.parallel.data_parallel import DataParallel` (sync_batchnorm's replicate) */
    if (q && strncmp(q, "torch.nn.parallel.", 18) == 0 && dl_torch_is_data_parallel(q))
        return true;
    const char *m = member_of(q, "torch.nn");
    if (!m) m = member_of(q, "torch.nn.modules");
    if (!is_class_name(m)) return false;
    static const char *const not_modules[] = {"Parameter", "UninitializedParameter",
                                              "UninitializedBuffer", "Buffer", NULL};
    return !dl_name_in_list(m, not_modules);
}

bool dl_torch_is_loss_class(const char *q) {
    const char *m = member_of(q, "torch.nn");
    if (!is_class_name(m)) return false;
    size_t n = strlen(m);
    /* NLLLoss2d: NLLLoss's old name for images, still in torch.nn (deprecated) */
    return (n > 4 && strcmp(m + n - 4, "Loss") == 0) || strcmp(m, "NLLLoss2d") == 0;
}

bool dl_torch_is_loss_without_weight(const char *q) {
    /* torch.nn's losses whose signature has no weight= nor pos_weight=: what they are given
     * by position is a margin, a reduction or a flag (`nn.MarginRankingLoss(0.9)`) */
    static const char *const list[] = {"L1Loss",
                                       "MSELoss",
                                       "SmoothL1Loss",
                                       "HuberLoss",
                                       "KLDivLoss",
                                       "PoissonNLLLoss",
                                       "GaussianNLLLoss",
                                       "CTCLoss",
                                       "MarginRankingLoss",
                                       "HingeEmbeddingLoss",
                                       "CosineEmbeddingLoss",
                                       "SoftMarginLoss",
                                       "TripletMarginLoss",
                                       NULL};
    const char *m = member_of(q, "torch.nn");
    return m && dl_name_in_list(m, list);
}

bool dl_torch_is_stateless_module(const char *q) {
    static const char *const list[] = {
        "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "ELU", "SELU", "CELU", "Sigmoid", "Tanh",
        "Softmax", "LogSoftmax", "Softmax2d", "Softplus", "Softsign", "Mish", "Hardswish",
        "Hardsigmoid", "Hardtanh", "Tanhshrink", "Threshold", "GLU", "Dropout", "Dropout1d",
        "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "Identity", "Flatten",
        "Unflatten", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d",
        "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
        "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d",
        "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle",
        "PixelUnshuffle", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
        "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d",
        "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad3d", "CircularPad1d",
        "CircularPad2d", "CircularPad3d",
        "CosineSimilarity", "PairwiseDistance", "Fold", "Unfold", "ChannelShuffle",
        "LogSigmoid", "Softmin", "Softshrink", "Hardshrink", "RReLU", "MaxUnpool1d",
        "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d", "LPPool3d",
        "LocalResponseNorm", "CrossMapLRN2d", NULL};
    const char *m = member_of(q, "torch.nn");
    return m && dl_name_in_list(m, list);
}

bool dl_torch_is_dataset_base(const char *q) {
    static const char *const list[] = {"torch.utils.data.Dataset",
                                       "torch.utils.data.IterableDataset",
                                       "torch.utils.data.dataset.Dataset", NULL};
    return dl_name_in_list(q, list);
}

bool dl_torch_is_dataloader(const char *q) {
    return strcmp(q, "torch.utils.data.DataLoader") == 0 ||
           strcmp(q, "torch.utils.data.dataloader.DataLoader") == 0;
}

bool dl_torch_is_graph_container(const char *q) {
    static const char *const list[] = {"torch_geometric.data.Data",
                                       "torch_geometric.data.HeteroData",
                                       "torch_geometric.data.Batch",
                                       "torch_geometric.data.data.Data",
                                       "torch_geometric.data.hetero_data.HeteroData",
                                       "torch_geometric.data.batch.Batch",
                                       NULL};
    return dl_name_in_list(q, list);
}

bool dl_torch_is_optimizer(const char *q) {
    return is_class_name(member_of(q, "torch.optim"));
}

bool dl_torch_is_combining_op(const char *q) {
    static const char *const not_ops[] = {
        "save", "load", "manual_seed", "seed", "no_grad", "enable_grad", "set_grad_enabled",
        "inference_mode", "is_tensor", "is_storage", "numel", "device", "set_default_device",
        "get_default_device", "set_default_dtype", "get_default_dtype", "compile",
        "set_printoptions", "set_num_threads", "get_num_threads", "typename",
        "is_floating_point", "is_complex", "is_nonzero", "use_deterministic_algorithms",
        "autocast", "Generator", "Size", "dtype", "finfo", "iinfo", "empty_cache", "cat_",
        "set_float32_matmul_precision", "from_numpy", "as_tensor", "tensor", "asarray",
        "broadcast_shapes", "is_grad_enabled", NULL};
    const char *m = member_of(q, "torch");
    if (m) return !is_class_name(m) && !dl_name_in_list(m, not_ops) && !dl_torch_factory(q);
    if ((m = member_of(q, "torch.nn.functional")) != NULL) return true;
    if ((m = member_of(q, "torch.linalg")) != NULL) return true;
    if ((m = member_of(q, "torch.fft")) != NULL) return true;
    return false;
}

bool dl_torch_argument_meets_no_device(const char *q, unsigned position, const char *keyword) {
    /* shapes, and the Scalar factors of `torch.baddbmm(..., beta=1.0, alpha=a)`,
     * `torch.add(x, y, alpha=a)`, `torch.addcmul(t, a, b, value=v)` (LMOps' GPT-NeoX-Japanese) */
    static const char *const keywords[] = {"size",   "scale_factor", "output_size", "kernel_size",
                                           "stride", "padding",      "dilation",    "pad",
                                           "shape",  "dim",          "alpha",       "beta",
                                           "value",  NULL};
    /* the positions of the shape arguments, after the input: interpolate(input, size,
     * scale_factor), pad(input, pad), adaptive_avg_pool2d(input, output_size) */
    static const char *const size_then_scale[] = {"interpolate", "upsample", "upsample_nearest",
                                                  "upsample_bilinear", NULL};
    static const char *const size_only[] = {"pad", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
                                            "adaptive_avg_pool3d", "adaptive_max_pool1d",
                                            "adaptive_max_pool2d", "adaptive_max_pool3d", NULL};
    /* ctc_loss(log_probs, targets, input_lengths, target_lengths): it moves the targets to
     * log_probs' device itself and reads the lengths on the host (aten's LossCTC.cpp) */
    static const char *const ctc_keywords[] = {"targets", "input_lengths", "target_lengths", NULL};
    /* broadcast_tensors only expands views of each tensor where it is: it checks no devices
     * (StyleGAN3's `torch.broadcast_tensors(tensor, torch.empty(shape))` takes a shape) */
    if (q && strcmp(q, "torch.broadcast_tensors") == 0) return true;
    /* torch.tensor(data, device=...), torch.as_tensor(data, ...): the data is copied to the
     * device asked for (or the default's), from wherever it is, a list or a tensor alike
     * (a forward's `torch.tensor(xs, device=self.device)` of a collated list) */
    if (q && (strcmp(q, "torch.tensor") == 0 || strcmp(q, "torch.as_tensor") == 0))
        return keyword ? strcmp(keyword, "data") == 0 : position == 0;
    /* roll(input, shifts, dims): the shifts are ints; a one-element tensor there is read as one
     * (mtt-distillation's `torch.roll(im, (torch.randint(n, (1,)), ...), (1, 2))`) */
    if (q && strcmp(q, "torch.roll") == 0)
        return keyword ? strcmp(keyword, "shifts") == 0 || strcmp(keyword, "dims") == 0
                       : position >= 1;
    /* split(input, sizes), chunk(input, n), narrow(input, dim, start, length), ...: pieces of
     * the input, where it is; the sizes, indices and counts are read on the host (a 0-dim CPU
     * tensor of them too: Patch-NetVLAD's `torch.split(vlad, [B, B, nNeg])`) */
    static const char *const pieces_of_the_input[] = {
        "torch.split", "torch.tensor_split", "torch.chunk", "torch.narrow", "torch.select", NULL};
    if (q && dl_name_in_list(q, pieces_of_the_input))
        return keyword ? strcmp(keyword, "input") != 0 && strcmp(keyword, "tensor") != 0
                       : position >= 1;
    const char *m = member_of(q, "torch.nn.functional");
    if (m && strcmp(m, "ctc_loss") == 0)
        return keyword ? dl_name_in_list(keyword, ctc_keywords) : position >= 1;
    if (keyword) return dl_name_in_list(keyword, keywords);
    if (!m) return false;
    if (dl_name_in_list(m, size_then_scale)) return position == 1 || position == 2;
    return dl_name_in_list(m, size_only) && position == 1;
}

bool dl_tensor_method_keeps_device(const char *m) {
    static const char *const list[] = {
        "float", "double", "half", "bfloat16", "long", "int", "short", "bool", "byte", "char",
        "detach", "clone", "contiguous", "view", "view_as", "reshape", "reshape_as", "permute",
        "transpose", "t", "unsqueeze", "squeeze", "flatten", "unflatten", "expand", "expand_as",
        "repeat", "repeat_interleave", "narrow", "select", "flip", "roll", "abs", "exp", "log",
        "log1p", "sqrt", "rsqrt", "sigmoid", "tanh", "relu", "softmax", "log_softmax", "neg",
        "pow", "clamp", "clamp_min", "clamp_max", "clip", "argmax", "argmin", "cumsum",
        "cumprod", "round", "floor", "ceil", "sign", "sin", "cos", "square", "reciprocal",
        "requires_grad_", "fill_", "zero_", "normal_", "uniform_", "clamp_", "mul_", "add_",
        "sub_", "div_", "masked_fill_", "index_fill_", "unfold", "tril", "triu", "diag",
        "diagonal", "nan_to_num", "type", "sort", "topk", "max", "min", "sum", "mean", "std",
        "var", "norm", "prod", "any", "all", "logsumexp", "amax", "amin", "squeeze_",
        "unsqueeze_", "float_power", "pin_memory", "share_memory_", "to_dense", "to_sparse",
        "masked_select", "nonzero", "long_", "retain_grad", "movedim", "swapaxes", "mT",
        "toType" /* C++: `t.toType(torch::kLong)` casts on its device */, NULL};
    return dl_name_in_list(m, list);
}

bool dl_tensor_method_keeps_shape(const char *m) {
    static const char *const list[] = {"float", "double", "half", "bfloat16", "long", "int",
                                       "short", "bool", "byte", "contiguous", "clone", "detach",
                                       /* elementwise, of one tensor (Lumina's time shift) */
                                       "exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sigmoid",
                                       "tanh", "abs", "neg", "reciprocal", "sin", "cos", "square",
                                       "clamp", "clip", "floor", "ceil", "round", "sign",
                                       /* tests of each element (`not torch.isnan(loss) and not
                                        * torch.isinf(loss)`: one read, then a test's kernel) */
                                       "isnan", "isinf", "isfinite", "isposinf", "isneginf",
                                       "logical_not",
                                       /* the same in place (SNN's `weight.data.clamp_(-1, 1)`
                                        * after each step), and fills */
                                       "clamp_", "clip_", "exp_", "log_", "sqrt_", "abs_",
                                       "neg_", "sigmoid_", "tanh_", "floor_", "ceil_", "round_",
                                       "sign_", "zero_", "fill_", NULL};
    return dl_name_in_list(m, list);
}

bool dl_tensor_method_reduces(const char *m) {
    static const char *const list[] = {"sum", "mean", "max", "min", "std", "var", "norm",
                                       "prod", "any", "all", "logsumexp", "amax", "amin",
                                       "median", "argmax", "argmin", NULL};
    return dl_name_in_list(m, list);
}

bool dl_tensor_method_combines(const char *m) {
    static const char *const list[] = {
        "add", "sub", "mul", "div", "matmul", "mm", "bmm", "dot", "mv", "eq", "ne", "lt", "le",
        "gt", "ge", "masked_fill", "where", "index_select", "gather", "scatter", "scatter_add",
        "add_", "sub_", "mul_", "div_", "true_divide", "floor_divide", "remainder", "maximum",
        "minimum", "masked_scatter", "index_add", "index_add_", "index_copy", "lerp",
        "addmm", "baddbmm", "cross", "outer", "kron", "logical_and", "logical_or",
        /* not `expand_as`, `view_as`, `reshape_as`: they read only the other tensor's shape */
        /* in place: `torch.zeros(n, k).scatter_(1, y.unsqueeze(1), 1)` needs y where it is */
        "scatter_", "scatter_add_", "scatter_reduce", "scatter_reduce_", "masked_fill_",
        "masked_scatter_", "index_fill", "index_fill_", "index_copy_", "addcmul", "addcmul_",
        "addcdiv", "addcdiv_", "lerp_", NULL};
    return dl_name_in_list(m, list);
}

bool dl_tensor_method_to_host(const char *m) {
    static const char *const list[] = {"item", "tolist", "numpy", NULL};
    return dl_name_in_list(m, list);
}

bool dl_tensor_attr_keeps_device(const char *a) {
    static const char *const list[] = {"T", "mT", "H", "data", "grad", "real", "imag",
                                       "indices", "values", NULL};
    return dl_name_in_list(a, list);
}

bool dl_module_method_returns_self(const char *m) {
    static const char *const list[] = {"eval", "train", "float", "double", "half", "bfloat16",
                                       "requires_grad_", "apply", "share_memory", NULL};
    return dl_name_in_list(m, list);
}
