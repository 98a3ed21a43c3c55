"""Exports a trained checkpoint to ONNX and checks that onnxruntime computes the same logits.

    python export.py --checkpoint checkpoints/last.pt --output smallresnet.onnx
"""
import argparse

import numpy as np
import onnxruntime as ort
import torch

from model import SmallResNet


@torch.no_grad()
def main():
    parser = argparse.ArgumentParser(description="Export SmallResNet to ONNX.")
    parser.add_argument("--checkpoint", default="checkpoints/last.pt")
    parser.add_argument("--output", default="smallresnet.onnx")
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--opset", type=int, default=17)
    args = parser.parse_args()

    # Export from the GPU when there is one: the traced graph is the same, and it is faster.
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SmallResNet(num_classes=args.num_classes)
    checkpoint = torch.load(args.checkpoint)  # expect: DL109
    model.load_state_dict(checkpoint["model"])
    model.to(device)
    model.eval()

    example = torch.rand(1, 3, 32, 32, device=device)
    expected = model(example).cpu().numpy()
    torch.onnx.export(
        model,
        example,
        args.output,
        opset_version=args.opset,
        input_names=["images"],
        output_names=["logits"],
        dynamic_axes={"images": {0: "batch"}, "logits": {0: "batch"}},
    )

    session = ort.InferenceSession(args.output, providers=["CPUExecutionProvider"])
    (actual,) = session.run(None, {"images": example.numpy()})  # expect: DL108
    np.testing.assert_allclose(actual, expected, rtol=1e-3, atol=1e-5)
    print(f"wrote {args.output}; onnxruntime matches PyTorch (max abs diff {np.abs(actual - expected).max():.2e})")


if __name__ == "__main__":
    main()
