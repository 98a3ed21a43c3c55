"""Builds fused_ops, the optional CUDA extension of the example project.

    cd examples/extension && pip install --no-build-isolation .

Then `import fused_ops` gives bias_relu, mixup, normalize_images, smooth_one_hot,
confusion_matrix and balanced_cross_entropy (see fused_ops.cpp).
"""
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_ops",
    version="0.1.0",
    description="Fused CUDA ops for the SmallResNet example",
    ext_modules=[
        CUDAExtension(
            name="fused_ops",
            sources=["fused_ops.cpp", "fused_ops_kernel.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
    python_requires=">=3.8",
)
