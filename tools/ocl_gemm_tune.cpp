// ocl_gemm_tune.cpp: standalone tuning harness for the OpenCL GEMM kernels
// of src/gpu/ocl/gemm, without the library: builds a kernel file with given
// defines (resolving its includes from the source tree as the library
// does), runs it on random data, checks sampled results (and that every
// element was written) against a double-precision dot product, and times
// it with OpenCL profiling events (median). The kernel argument list
// mirrors gemm_kernels_t::execute: keep them in step.
//
// Build: g++ -O2 -std=c++17 tools/ocl_gemm_tune.cpp -lOpenCL -o ocl_gemm_tune
// Usage: ocl_gemm_tune src/gpu/ocl < plan
// plan lines: FILE ENTRY M N K TA TB BATCH DT PAD SPLIT DEFINES...
//   FILE  gemm/gemm_tiled.cl | gemm/gemm_direct.cl
//   ENTRY kernel name, or "auto" (tiled: aligned entry when aligned)
//   DT    f32 | f16 | bf16 | s8 (s8 x s8 -> s32 accumulation, f32 result)
//   PAD   added to leading dimensions (1 makes rows unaligned)
//   SPLIT K slices (> 1: raw partial sums into a workspace, then
//         gemm/gemm_reduce.cl; the time is the sum of both)
//   DEFINES e.g. -DWG_M=128 -DWG_N=128 -DTM=8 -DTN=8 -DKB=16 (-DLSX=/-DLSY=
//         give the local size of the direct kernel; -DDUMP_PTX writes the
//         program binary to $OUT, -cl-nv-verbose prints NVIDIA's register
//         report)
// e.g. echo "gemm/gemm_tiled.cl auto 4096 4096 4096 0 0 1 f32 0 1
//   -DWG_M=128 -DWG_N=128 -DTM=8 -DTN=8 -DKB=16" | ocl_gemm_tune src/gpu/ocl
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(x) \
    do { \
        cl_int e_ = (x); \
        if (e_ != CL_SUCCESS) { \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); \
            exit(1); \
        } \
    } while (0)

static std::string src_dir;

static void expand(const std::string &name, std::set<std::string> &seen,
        std::string &out) {
    if (!seen.insert(name).second) return;
    std::ifstream f(src_dir + "/" + name);
    if (!f) {
        fprintf(stderr, "no source %s\n", name.c_str());
        exit(1);
    }
    std::string line;
    while (std::getline(f, line)) {
        auto p = line.find("#include \"");
        if (p != std::string::npos && line.find_first_not_of(" \t") == p) {
            auto q = line.find('"', p + 10);
            expand(line.substr(p + 10, q - p - 10), seen, out);
        } else {
            out += line + "\n";
        }
    }
}

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static cl_program build(const std::string &file, const std::string &opts) {
    static std::map<std::string, cl_program> cache;
    auto key = file + "|" + opts;
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    std::set<std::string> seen;
    std::string text;
    expand(file, seen, text);
    const char *s = text.c_str();
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
    CHECK(err);
    auto t0 = std::chrono::steady_clock::now();
    err = clBuildProgram(p, 1, &dev, opts.c_str(), nullptr, nullptr);
    double bt = std::chrono::duration<double>(
            std::chrono::steady_clock::now() - t0)
                        .count();
    if (err != CL_SUCCESS) {
        size_t n;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, 0);
        clGetProgramBuildInfo(
                p, dev, CL_PROGRAM_BUILD_LOG, n, &log[0], nullptr);
        fprintf(stderr, "build failed (%s):\n%s\n", opts.c_str(), log.c_str());
        return nullptr;
    }
    fprintf(stderr, "# built %s %s in %.2f s\n", file.c_str(), opts.c_str(),
            bt);
    if (opts.find("-cl-nv-verbose") != std::string::npos) {
        size_t n;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, 0);
        clGetProgramBuildInfo(
                p, dev, CL_PROGRAM_BUILD_LOG, n, &log[0], nullptr);
        fprintf(stderr, "# log: %s\n", log.c_str());
    }
    cache[key] = p;
    if (opts.find("-DDUMP_PTX") != std::string::npos && getenv("OUT")) {
        static int nd = 0;
        size_t sz;
        clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(sz), &sz, nullptr);
        std::string bin(sz, 0);
        unsigned char *bp = (unsigned char *)&bin[0];
        clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bp), &bp, nullptr);
        std::string fn = std::string(getenv("OUT")) + "/prog" + std::to_string(nd++) + ".ptx";
        std::ofstream(fn) << bin;
        fprintf(stderr, "# dumped %s: %s\n", fn.c_str(), opts.c_str());
    }
    return p;
}

static int def_of(const std::string &opts, const char *name, int dflt) {
    std::string k = std::string("-D") + name + "=";
    auto p = opts.find(k);
    if (p == std::string::npos) return dflt;
    return atoi(opts.c_str() + p + k.size());
}

static uint16_t f32_to_f16(float f) { // exact for the values used here
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t s = (u >> 16) & 0x8000;
    int e = (int)((u >> 23) & 0xff) - 127 + 15;
    uint32_t m = u & 0x7fffff;
    if ((u & 0x7fffffff) == 0) return (uint16_t)s;
    return (uint16_t)(s | (e << 10) | (m >> 13));
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: gemm_tune SRC_DIR < plan\n");
        return 2;
    }
    src_dir = argv[1];
    cl_platform_id plats[8];
    cl_uint np;
    CHECK(clGetPlatformIDs(8, plats, &np));
    CHECK(clGetDeviceIDs(plats[0], CL_DEVICE_TYPE_ALL, 1, &dev, nullptr));
    char name[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, nullptr);
    printf("# device: %s\n", name);
    cl_int err;
    ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    CHECK(err);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);

    std::mt19937 rng(42);
    std::string line;
    printf("%-28s %-52s %6s %6s %6s %2s %2s %4s %4s %3s %9s %8s %9s %s\n",
            "entry", "defines", "M", "N", "K", "ta", "tb", "bat", "dt", "pad/s",
            "ms", "TFLOP/s", "err", "ok");
    while (std::getline(std::cin, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream is(line);
        std::string file, entry, dt;
        long M, N, K, batch;
        int ta, tb, pad, split;
        is >> file >> entry >> M >> N >> K >> ta >> tb >> batch >> dt >> pad
                >> split;
        std::string defs, d;
        while (is >> d)
            defs += d + " ";
        const bool tiled = file.find("tiled") != std::string::npos;
        const bool is_int = dt == "s8";
        const int es = dt == "f32" ? 4 : dt == "s8" ? 1 : 2;
        const int adt = dt == "f32" ? 1 : dt == "f16" ? 2 : dt == "bf16" ? 3 : 4;

        // Layouts: A is MxK (ta: stored KxM), B is KxN (tb: stored NxK).
        long lda = (ta ? M : K) + pad, ldb = (tb ? K : N) + pad, ldc = N + pad;
        long a_sm = ta ? 1 : lda, a_sk = ta ? lda : 1;
        long b_sk = tb ? 1 : ldb, b_sn = tb ? ldb : 1;
        long a_sz = (ta ? K : M) * lda, b_sz = (tb ? N : K) * ldb,
             c_sz = M * ldc;

        const char *tn[] = {"", "float", "half", "ushort", "char"};
        std::string opts = defs + "-DA_DT=" + std::to_string(adt)
                + " -DB_DT=" + std::to_string(adt) + " -DA_T=" + tn[adt]
                + " -DB_T=" + tn[adt]
                + (split > 1 && is_int ? " -DC_DT=6 -DC_T=int" : " -DC_DT=1 -DC_T=float")
                + " -DA_TRANS=" + std::to_string(ta) + " -DB_TRANS="
                + std::to_string(tb) + " -DC_NCONTIG"
                + (tb ? "" : " -DB_NCONTIG") + (is_int ? " -DACC_INT" : "");
        cl_program prog = build(file, opts + (split > 1 ? " -DGEMM_RAW_OUT" : ""));
        if (!prog) continue;
        cl_kernel red = nullptr;
        if (split > 1) {
            std::string ro = opts;
            auto p6 = ro.find("-DC_DT=6 -DC_T=int");
            if (p6 != std::string::npos) ro.replace(p6, 18, "-DC_DT=1 -DC_T=float");
            cl_program rp = build("gemm/gemm_reduce.cl", ro);
            if (!rp) continue;
            red = clCreateKernel(rp, "gemm_splitk_reduce", &err);
            CHECK(err);
        }
        const int kb = def_of(defs, "KB", 1);
        int kchunk = (int)std::max<long>(1, (K + split - 1) / split);
        kchunk = (kchunk + kb - 1) / kb * kb;
        int nsplit = K == 0 ? 1 : (int)((K + kchunk - 1) / kchunk);
        if (split <= 1) kchunk = std::max<long>(K, 1), nsplit = 1;
        bool aligned = lda % 4 == 0 && ldb % 4 == 0
                && (split > 1 ? N % 4 == 0 : ldc % 4 == 0);
        if (entry == "auto")
            entry = tiled ? (aligned ? "gemm_tiled_aligned" : "gemm_tiled")
                          : "gemm_direct";
        cl_kernel kern = clCreateKernel(prog, entry.c_str(), &err);
        CHECK(err);

        // Data: small exact values in every type.
        std::vector<float> av(std::max(1L, a_sz * batch)), bv(std::max(1L, b_sz * batch));
        std::uniform_int_distribution<int> di(-64, 64), d8(-5, 5);
        for (auto &x : av)
            x = is_int ? d8(rng) : di(rng) / 64.f;
        for (auto &x : bv)
            x = is_int ? d8(rng) : di(rng) / 64.f;
        auto pack = [&](const std::vector<float> &v) {
            std::vector<unsigned char> o(v.size() * es);
            for (size_t i = 0; i < v.size(); i++) {
                if (dt == "f32")
                    memcpy(&o[i * 4], &v[i], 4);
                else if (dt == "f16") {
                    uint16_t h = f32_to_f16(v[i]);
                    memcpy(&o[i * 2], &h, 2);
                } else if (dt == "bf16") {
                    uint32_t u;
                    memcpy(&u, &v[i], 4);
                    uint16_t h = u >> 16;
                    memcpy(&o[i * 2], &h, 2);
                } else
                    o[i] = (unsigned char)(signed char)v[i];
            }
            return o;
        };
        auto ah = pack(av), bh = pack(bv);
        cl_mem am = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                ah.size(), ah.data(), &err);
        CHECK(err);
        cl_mem bm = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                bh.size(), bh.data(), &err);
        CHECK(err);
        std::vector<float> ch(c_sz * batch, NAN);
        cl_mem cm = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                ch.size() * 4, ch.data(), &err);
        CHECK(err);
        long ws_ss = batch * M * N;
        cl_mem wm = split > 1 ? clCreateBuffer(ctx, CL_MEM_READ_WRITE,
                                        nsplit * ws_ss * 4, nullptr, &err)
                              : nullptr;
        CHECK(err);

        int ai = 0;
        auto arg = [&](size_t sz, const void *p) {
            CHECK(clSetKernelArg(kern, ai++, sz, p));
        };
        long zero = 0;
        int Mi = M, Ni = N, Ki = K;
        cl_int4 bdims = {{1, 1, 1, (int)batch}};
        cl_long4 abs_ = {{0, 0, 0, a_sz}}, bbs = {{0, 0, 0, b_sz}},
                 cbs = {{0, 0, 0, c_sz}};
        cl_mem nullm = nullptr;
        arg(sizeof(cl_mem), &am);
        arg(8, &zero);
        arg(8, &a_sm);
        arg(8, &a_sk);
        arg(sizeof(cl_mem), &bm);
        arg(8, &zero);
        arg(8, &b_sk);
        arg(8, &b_sn);
        long one = 1, Nl = N, mn = M * N;
        cl_long4 wbs = {{0, 0, 0, mn}};
        arg(sizeof(cl_mem), split > 1 ? &wm : &cm);
        arg(8, &zero);
        arg(8, split > 1 ? &Nl : &ldc);
        arg(8, &one);
        arg(4, &Mi);
        arg(4, &Ni);
        arg(4, &Ki);
        arg(4, &kchunk);
        arg(4, &nsplit);
        arg(8, &ws_ss);
        arg(8, &batch);
        arg(sizeof(bdims), &bdims);
        arg(sizeof(abs_), &abs_);
        arg(sizeof(bbs), &bbs);
        arg(sizeof(wbs), split > 1 ? &wbs : &cbs);
        cl_long4 zero4 = {{0, 0, 0, 0}};
        auto epi_args = [&](auto &f) {
            f(sizeof(cl_mem), &nullm); // bias
            f(8, &zero);
            f(sizeof(zero4), &zero4);
            f(8, &zero);
            f(8, &zero);
            f(sizeof(cl_mem), &nullm); // src scale
            f(sizeof(cl_mem), &nullm); // wei scale
            f(8, &zero);
            f(sizeof(cl_mem), &nullm); // dst scale
            f(8, &zero);
            f(sizeof(cl_mem), &nullm); // dst zp
            f(8, &zero);
        };
        arg(sizeof(cl_mem), &nullm); // a zp
        arg(sizeof(cl_mem), &nullm); // b zp
        epi_args(arg);

        size_t gs[3], ls[3];
        if (tiled) {
            int wm = def_of(defs, "WG_M", 0), wn = def_of(defs, "WG_N", 0);
            int tm = def_of(defs, "TM", 0), tn = def_of(defs, "TN", 0);
            ls[0] = wn / tn;
            ls[1] = wm / tm;
            gs[0] = (N + wn - 1) / wn * ls[0];
            gs[1] = (M + wm - 1) / wm * ls[1];
        } else {
            int tm = def_of(defs, "TM", 1), tn = def_of(defs, "TN", 4);
            ls[0] = def_of(defs, "LSX", 16);
            ls[1] = def_of(defs, "LSY", 16);
            gs[0] = ((N + tn - 1) / tn + ls[0] - 1) / ls[0] * ls[0];
            gs[1] = ((M + tm - 1) / tm + ls[1] - 1) / ls[1] * ls[1];
        }
        ls[2] = 1;
        gs[2] = std::min<long>(batch * nsplit, 65535);
        size_t rgs[3] = {(size_t)(N + 63) / 64 * 64, (size_t)(M + 3) / 4 * 4,
                (size_t)std::min<long>(batch, 65535)};
        size_t rls[3] = {64, 4, 1};
        if (red) {
            int ri = 0;
            auto rarg = [&](size_t sz, const void *p) {
                CHECK(clSetKernelArg(red, ri++, sz, p));
            };
            rarg(sizeof(cl_mem), &wm);
            rarg(8, &ws_ss);
            rarg(4, &nsplit);
            rarg(sizeof(cl_mem), &cm);
            rarg(8, &zero);
            rarg(8, &ldc);
            rarg(8, &one);
            rarg(4, &Mi);
            rarg(4, &Ni);
            rarg(8, &batch);
            rarg(sizeof(bdims), &bdims);
            rarg(sizeof(cbs), &cbs);
            epi_args(rarg);
        }

        auto run = [&]() {
            cl_event ev, ev2 = nullptr;
            CHECK(clEnqueueNDRangeKernel(q, kern, 3, nullptr, gs, ls, 0,
                    nullptr, &ev));
            if (red)
                CHECK(clEnqueueNDRangeKernel(
                        q, red, 3, nullptr, rgs, rls, 0, nullptr, &ev2));
            CHECK(clWaitForEvents(1, red ? &ev2 : &ev));
            cl_ulong t0, t1;
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0,
                    nullptr);
            clGetEventProfilingInfo(red ? ev2 : ev, CL_PROFILING_COMMAND_END,
                    8, &t1, nullptr);
            clReleaseEvent(ev);
            if (ev2) clReleaseEvent(ev2);
            return (t1 - t0) * 1e-6;
        };
        double first = run();
        CHECK(clEnqueueReadBuffer(
                q, cm, CL_TRUE, 0, ch.size() * 4, ch.data(), 0, nullptr, nullptr));

        // Check: every element written, sampled values against double.
        long unwritten = 0;
        for (long bi = 0; bi < batch; bi++)
            for (long m = 0; m < M; m++)
                for (long n = 0; n < N; n++)
                    if (std::isnan(ch[bi * c_sz + m * ldc + n])) unwritten++;
        double maxerr = 0;
        std::uniform_int_distribution<long> dm(0, M - 1), dn(0, N - 1),
                db(0, batch - 1);
        for (int s = 0; s < 400; s++) {
            long m = s < 4 ? (s & 1) * (M - 1) : dm(rng);
            long n = s < 4 ? (s >> 1) * (N - 1) : dn(rng);
            long bi = db(rng);
            double ref = 0, mag = 0;
            for (long k = 0; k < K; k++) {
                double x = av[bi * a_sz + m * a_sm + k * a_sk];
                double y = bv[bi * b_sz + k * b_sk + n * b_sn];
                ref += x * y;
                mag += std::fabs(x * y);
            }
            double got = ch[bi * c_sz + m * ldc + n];
            double e = std::fabs(got - ref) / std::max(mag, 1e-30);
            if (!(e <= 1e30)) e = 1e30;
            maxerr = std::max(maxerr, e);
        }
        bool ok = unwritten == 0 && maxerr < (is_int ? 1e-12 : 1e-5);

        // Time: repeats to fill about 0.3 s, median.
        int reps = std::max(5, std::min(50, (int)(300 / std::max(first, 1e-3))));
        run();
        std::vector<double> ts;
        for (int r = 0; r < reps; r++)
            ts.push_back(run());
        std::sort(ts.begin(), ts.end());
        double med = ts[ts.size() / 2];
        double tf = 2.0 * M * N * K * batch / (med * 1e-3) / 1e12;
        printf("%-28s %-52s %6ld %6ld %6ld %2d %2d %4ld %4s %3d %9.4f %8.2f "
               "%9.2e %s%s\n",
                entry.c_str(), defs.c_str(), M, N, K, ta, tb, batch,
                dt.c_str(), pad * 10 + nsplit, med, tf, maxerr, ok ? "OK" : "FAIL",
                unwritten ? " (unwritten)" : "");
        fflush(stdout);
        clReleaseMemObject(am);
        clReleaseMemObject(bm);
        clReleaseMemObject(cm);
        clReleaseKernel(kern);
        if (wm) clReleaseMemObject(wm);
        if (red) clReleaseKernel(red);
    }
    return 0;
}
