// What fuzz_cpp puts in front of every input (-include): a few declarations spelled like
// libtorch's, so the front end resolves the names it lowers (at::Tensor::to, torch::zeros,
// c10::kCUDA, TensorOptions, torch::nn::Module, TORCH_CHECK) without reading libtorch's headers.
// Includes of the usual headers find empty stand-ins the harness writes.
#pragma once
typedef long int64_t;
typedef int int32_t;
typedef unsigned char uint8_t;
namespace std {
typedef decltype(sizeof 0) size_t;
template <class T> struct initializer_list {
    const T *b;
    size_t n;
    const T *begin() const { return b; }
    const T *end() const { return b + n; }
};
template <class T> struct vector {
    T *d;
    size_t n;
    vector() {}
    vector(initializer_list<T>) {}
    T &operator[](size_t i) { return d[i]; }
    T *begin() { return d; }
    T *end() { return d + n; }
    size_t size() const { return n; }
    void push_back(const T &) {}
};
template <class T> T &&move(T &t) { return static_cast<T &&>(t); }
template <class T> struct shared_ptr {
    T *p;
    T *operator->() const { return p; }
};
struct string {
    string(const char *) {}
};
} // namespace std
namespace c10 {
enum class DeviceType : signed char { CPU = 0, CUDA = 1, Meta = 9 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kMeta = DeviceType::Meta;
enum class ScalarType : signed char { Byte, Char, Short, Int, Long, Half, Float, Double, Bool };
constexpr ScalarType kFloat = ScalarType::Float, kFloat32 = ScalarType::Float, kDouble = ScalarType::Double,
                     kHalf = ScalarType::Half, kLong = ScalarType::Long, kInt = ScalarType::Int,
                     kBool = ScalarType::Bool, kByte = ScalarType::Byte;
struct Device {
    Device(DeviceType t, int index = -1);
    Device(const char *s);
    bool is_cuda() const;
    bool is_cpu() const;
};
struct TensorOptions {
    TensorOptions();
    TensorOptions(DeviceType d);
    TensorOptions(Device d);
    TensorOptions(ScalarType s);
    TensorOptions device(Device d) const;
    TensorOptions dtype(ScalarType s) const;
    TensorOptions requires_grad(bool r) const;
};
TensorOptions device(Device d);
TensorOptions dtype(ScalarType s);
using IntArrayRef = std::initializer_list<long>;
namespace detail {
[[noreturn]] void torchCheckFail(const char *func, const char *file, unsigned line, const char *msg);
}
} // namespace c10
#define TORCH_CHECK(cond, ...)                                                                     \
    if (!(cond)) {                                                                                 \
        ::c10::detail::torchCheckFail(__func__, __FILE__, __LINE__, #cond);                        \
    }
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond)
#define AT_ASSERTM(cond, ...) TORCH_CHECK(cond)
namespace at {
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::kCPU;
using c10::kCUDA;
using c10::kFloat;
using c10::kFloat32;
using c10::kLong;
using c10::kInt;
using c10::kHalf;
using c10::kBool;
using c10::ScalarType;
using c10::TensorOptions;
class TensorBase {
  public:
    Device device() const;
    bool is_cuda() const;
    bool is_cpu() const;
    bool is_contiguous() const;
    ScalarType scalar_type() const;
    TensorOptions options() const;
    long size(long dim) const;
    long numel() const;
    template <class T> T *data_ptr() const;
    void *data_ptr() const;
};
class Tensor : public TensorBase {
  public:
    Tensor();
    Tensor to(Device d, ScalarType t, bool non_blocking = false, bool copy = false) const;
    Tensor to(TensorOptions o, bool non_blocking = false, bool copy = false) const;
    Tensor to(ScalarType t, bool non_blocking = false, bool copy = false) const;
    Tensor to(const Tensor &other) const;
    Tensor cuda() const;
    Tensor cpu() const;
    Tensor contiguous() const;
    Tensor view(IntArrayRef) const;
    Tensor add(const Tensor &o) const;
    Tensor &add_(const Tensor &o);
    Tensor mul(const Tensor &o) const;
    Tensor sum() const;
    Tensor detach() const;
    template <class T> T item() const;
    Tensor operator+(const Tensor &o) const;
    Tensor operator-(const Tensor &o) const;
    Tensor operator*(const Tensor &o) const;
    Tensor operator[](long i) const;
    Tensor operator+(double s) const;
    Tensor operator-(double s) const;
    Tensor operator*(double s) const;
    Tensor operator/(double s) const;
};
Tensor zeros(IntArrayRef size, TensorOptions o = {});
Tensor ones(IntArrayRef size, TensorOptions o = {});
Tensor empty(IntArrayRef size, TensorOptions o = {});
Tensor randn(IntArrayRef size, TensorOptions o = {});
Tensor arange(long end, TensorOptions o = {});
Tensor tensor(std::initializer_list<float> values, TensorOptions o = {});
Tensor zeros_like(const Tensor &t, TensorOptions o = {});
Tensor empty_like(const Tensor &t);
Tensor from_blob(void *data, IntArrayRef size, TensorOptions o = {});
Tensor cat(std::initializer_list<Tensor> ts, long dim = 0);
Tensor matmul(const Tensor &a, const Tensor &b);
Tensor randint(long high, IntArrayRef size, TensorOptions o = {});
Tensor log_softmax(const Tensor &t, long dim);
struct NoGradGuard {
    NoGradGuard();
};
} // namespace at
namespace torch {
using namespace at;
namespace nn {
class Module {
  public:
    virtual ~Module();
    void to(Device d, bool non_blocking = false);
    void train(bool on = true);
    void eval();
    template <class M> M register_module(const char *name, M m);
    Tensor register_buffer(const char *name, Tensor t);
};
template <class Contained> class ModuleHolder {
  public:
    Contained *operator->();
};
struct LinearImpl : Module {
    LinearImpl(long in, long out);
    Tensor forward(const Tensor &x);
};
struct Linear : ModuleHolder<LinearImpl> {
    Linear(long in, long out);
    Tensor operator()(const Tensor &x);
};
struct CrossEntropyLossOptions {
    CrossEntropyLossOptions weight(const Tensor &w);
};
struct CrossEntropyLossImpl : Module {
    CrossEntropyLossImpl(CrossEntropyLossOptions o = {});
    Tensor forward(const Tensor &a, const Tensor &b);
};
struct CrossEntropyLoss : ModuleHolder<CrossEntropyLossImpl> {
    CrossEntropyLoss(CrossEntropyLossOptions o = {});
    Tensor operator()(const Tensor &a, const Tensor &b);
};
} // namespace nn
} // namespace torch
namespace pybind11 {
struct module_ {
    template <class F> module_ &def(const char *name, F f, const char *doc = "");
};
} // namespace pybind11
#define TORCH_EXTENSION_NAME fuzz_ext
#define PYBIND11_MODULE(name, m) void pybind11_init_##name(pybind11::module_ &m)
#ifdef __CUDA__
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
struct __dl_uint3 {
    unsigned x, y, z;
};
extern const __dl_uint3 threadIdx, blockIdx, blockDim, gridDim;
struct dim3 {
    dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1);
};
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
extern "C" cudaError_t cudaGetLastError();
extern "C" int cudaConfigureCall(dim3 grid, dim3 block, unsigned long shared = 0,
                                 cudaStream_t stream = 0);
extern "C" cudaError_t __cudaPushCallConfiguration(dim3 grid, dim3 block, unsigned long shared = 0,
                                                    void *stream = 0);
#define C10_CUDA_KERNEL_LAUNCH_CHECK() TORCH_CHECK(cudaGetLastError() == 0)
#endif
