# References for the gpu engine's RNN figures on an NVIDIA card, through
# PyTorch with TF32 off: cuBLAS FP32 rates of the GEMM shapes the RNN suites
# (tests/benchdnn/inputs/rnn_gnmt, rnn_deepspeech, rnn_int8) run, and
# cuDNN's LSTM / GRU / RNN on the problems cuDNN has (its GRU is
# linear-before-reset, its bidirectional mode concatenates). Each figure is
# the median of 30 CUDA-event timings after 5 warm-ups; "BWD" is the
# forward-and-backward time less the forward one (autograd included).
# Usage: python3 torch_rnn_reference.py (doc/performance.md).
import torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
def t(f, n=30):
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    for _ in range(5): f()
    torch.cuda.synchronize(); ts = []
    for _ in range(n):
        s.record(); f(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2]
print(torch.__version__, torch.cuda.get_device_name(), "cudnn", torch.backends.cudnn.version())
for name, m, n, k in [("gnmt layer", 320, 4096, 1024), ("gnmt ctx layer", 320, 4096, 2048),
                      ("gnmt iter", 32, 4096, 1024), ("gnmt step layer", 32, 4096, 2048),
                      ("ds2 rnn layer", 320, 1760, 1760), ("ds2 rnn iter", 16, 1760, 1760),
                      ("ds2 gru layer", 320, 5280, 1760), ("ds2 gru iter", 16, 5280, 1760),
                      ("ds2 gru iter 2/3", 16, 3520, 1760), ("ds2 gru iter 1/3", 16, 1760, 1760),
                      ("gnmt bwd dW layer", 4096, 1024, 320), ("gnmt bwd dX", 320, 1024, 4096)]:
    x = torch.randn(m, k, device='cuda'); y = torch.randn(k, n, device='cuda')
    ms = t(lambda: x @ y)
    print("gemm %-18s %5dx%5dx%5d: %.4f ms, %.2f TFLOP/s" % (name, m, n, k, ms, 2*m*n*k/ms/1e9))
def rnn(name, mod, T, N, I):
    mod = mod.cuda()
    x = torch.randn(T, N, I, device='cuda')
    with torch.no_grad():
        fi = t(lambda: mod(x))
    xg = x.clone().requires_grad_(True)
    fd = t(lambda: mod(xg))
    out = mod(xg)[0]; g = torch.randn_like(out)
    def bwd():
        o = mod(xg)[0]; o.backward(g)
    fb = t(bwd)
    print("cudnn %-26s FWD_I %.3f ms  FWD(train) %.3f ms  FWD+BWD %.3f ms  (BWD ~%.3f)" % (name, fi, fd, fb, fb - fd))
rnn("gnmt:enc_bidir LSTM", torch.nn.LSTM(1024, 1024, 1, bidirectional=True), 10, 32, 1024)
rnn("gnmt:enc_stack LSTM l2", torch.nn.LSTM(1024, 1024, 2), 10, 32, 1024)
rnn("gnmt:dec_ctx LSTM", torch.nn.LSTM(2048, 1024, 1), 10, 32, 2048)
rnn("gnmt:dec_step LSTM", torch.nn.LSTM(2048, 1024, 1), 1, 32, 2048)
rnn("ds2:lbr_gru GRU bidir(concat)", torch.nn.GRU(1760, 1760, 1, bidirectional=True), 20, 16, 1760)
rnn("ds2:rnn_relu l1 bidir(concat)", torch.nn.RNN(1760, 1760, 1, nonlinearity='relu', bidirectional=True), 20, 16, 1760)
rnn("ds2:gru_layer GRU 800", torch.nn.GRU(800, 800, 1), 20, 16, 800)
