# cuBLAS FP32 (TF32 off) timings through PyTorch for the shapes of
# tools/bench_gpu_matmul.cpp: median of 30 CUDA-event timings after 5
# warm-ups, random normal data. Usage: python3 cublas_fp32_matmul.py
import torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
print("# torch", torch.__version__, torch.cuda.get_device_name())
for M, N, K in [(2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192), (384, 3072, 768), (128, 11008, 4096)]:
    a = torch.randn(M, K, device="cuda"); b = torch.randn(K, N, device="cuda")
    for _ in range(5): c = a @ b
    torch.cuda.synchronize()
    ts = []
    for _ in range(30):
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record(); c = a @ b; e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); ms = ts[len(ts) // 2]
    print(f"cublas {M}x{N}x{K}: {ms:.4f} ms {2*M*N*K/ms/1e9:.2f} TFLOP/s")
