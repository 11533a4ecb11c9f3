"""Fast inference: ONNX export (fp32 / int8) and the lean onnxruntime encode path."""
