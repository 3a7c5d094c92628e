// OpenCL probe: batch / group normalization in one launch, groups taking
// work in ticket order (tickets.cl), checked against a host computation.
// Run from this folder (it reads tickets.cl); ANYDEV=1 accepts a CPU device.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define CK(x) do { cl_int e_ = (x); if (e_) { printf("%s: %d (line %d)\n", #x, e_, __LINE__); exit(1); } } while (0)
static cl_command_queue q;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec * 1e-6; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static cl_mem A, B, Pt, F, Ct;
static const int N = 64, C = 256, S = 3136;
static float *h;
static int zero = 0;
static int launch(cl_kernel k, size_t items, size_t L) {
    size_t g = items * L;
    CK(clEnqueueFillBuffer(q, Ct, &zero, 4, 0, 4096 * 4, 0, NULL, NULL));
    CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &L, 0, NULL, NULL));
    return 0;
}
static double timed(cl_kernel k, size_t items, size_t L) {
    double t[21];
    launch(k, items, L); clFinish(q);
    for (int r = 0; r < 21; ++r) { double t0 = now(); launch(k, items, L); clFinish(q); t[r] = now() - t0; }
    qsort(t, 21, sizeof(double), cmpd);
    return t[10];
}
// max |err| of dst against per-unit normalization computed here, over a
// few units; unit_of(element index) given by layout
static double check(int mode, int gn) {
    size_t total = (size_t)N * C * S;
    float *o = malloc(total * 4);
    CK(clEnqueueReadBuffer(q, B, CL_TRUE, 0, total * 4, o, 0, NULL, NULL));
    double worst = 0;
    for (int t = 0; t < 6; ++t) {
        int c = (t * 97) % C, n0 = (t * 13) % N;
        double s = 0, qq = 0, cnt = 0;
        // unit members
        for (int n = 0; n < N; ++n) {
            if (gn && n != n0) continue;
            for (int cc = 0; cc < C; ++cc) {
                if (gn ? cc / 8 != c / 8 : cc != c) continue;
                for (int i = 0; i < S; ++i) {
                    size_t e = mode == 0 ? ((size_t)n * C + cc) * S + i : ((size_t)n * S + i) * C + cc;
                    s += h[e]; qq += (double)h[e] * h[e]; cnt += 1;
                }
            }
        }
        double m = s / cnt, rs = 1 / sqrt(qq / cnt - m * m + 1e-5);
        for (int i = 0; i < S; i += 37) {
            int n = gn ? n0 : (i % N);
            size_t e = mode == 0 ? ((size_t)n * C + c) * S + i : ((size_t)n * S + i) * C + c;
            double d = fabs(o[e] - (h[e] - m) * rs);
            if (d > worst) worst = d;
        }
    }
    free(o);
    return worst;
}
int main(void) {
    cl_platform_id pl[8]; cl_uint np;
    CK(clGetPlatformIDs(8, pl, &np));
    cl_device_id dev = 0;
    for (cl_uint i = 0; i < np && !dev; ++i)
        if (clGetDeviceIDs(pl[i], getenv("ANYDEV") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) dev = 0;
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
    q = clCreateCommandQueue(ctx, dev, 0, &e); CK(e);
    FILE *f = fopen("tickets.cl", "rb"); static char src[65536]; size_t n = fread(src, 1, sizeof(src) - 1, f); src[n] = 0; fclose(f);
    const char *sp = src;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &sp, NULL, &e); CK(e);
    if (clBuildProgram(prog, 1, &dev, "", NULL, NULL)) {
        static char log[65536]; clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL); printf("%s\n", log); return 1;
    }
    if (getenv("PTX")) {
        size_t bs; clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof(bs), &bs, NULL);
        unsigned char *bin = malloc(bs + 1); clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL);
        FILE *o = fopen(getenv("PTX"), "wb"); fwrite(bin, 1, bs, o); fclose(o);
    }
    cl_kernel kc = clCreateKernel(prog, "copy4", &e); CK(e);
    size_t total = (size_t)N * C * S, bytes = total * 4;
    h = malloc(bytes);
    srand(1);
    for (size_t i = 0; i < total; ++i) h[i] = (float)(rand() % 1000) / 250.f + (float)((i / S) % 7);
    A = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &e); CK(e);
    B = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e); CK(e);
    Pt = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 << 20, NULL, &e); CK(e);
    F = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &e); CK(e);
    Ct = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096 * 4, NULL, &e); CK(e);
    CK(clSetKernelArg(kc, 0, sizeof(cl_mem), &A)); CK(clSetKernelArg(kc, 1, sizeof(cl_mem), &B));
    double tc;
    { double t[21]; size_t g = total / 4, L = 256;
      for (int r = 0; r < 21; ++r) { double t0 = now(); CK(clEnqueueNDRangeKernel(q, kc, 1, NULL, &g, &L, 0, NULL, NULL)); clFinish(q); t[r] = now() - t0; }
      qsort(t, 21, sizeof(double), cmpd); tc = t[10]; }
    printf("copy: %.4f ms, %.0f GB/s\n", tc, 2 * bytes / tc / 1e6);
    cl_mem mems[5] = {A, B, Pt, F, Ct};
    cl_kernel kt = clCreateKernel(prog, "ticket", &e); CK(e);
    for (int i = 0; i < 5; ++i) CK(clSetKernelArg(kt, i, sizeof(cl_mem), &mems[i]));
    int quick = getenv("ANYDEV") != NULL;
    // nchw bnorm: unit c, parts n: us = S, ps = C*S; gnorm nchw: unit (n,g) 8*S contiguous, parts of 8*S/P
    for (int gn = 0; gn < 2; ++gn) {
        int Ps[] = {1, 2, 4};
        for (int pi = 0; pi < (gn ? 3 : 1); ++pi) for (int per = gn ? 32 : 4; per <= (gn ? 512 : 64); per *= 2) for (int lag = 1; lag <= 4; lag *= 2) for (int L = 128; L <= 256; L *= 2) {
            int units = gn ? N * 32 : C, P = gn ? Ps[pi] : N;
            long us = gn ? 8L * S : S, ps = gn ? 8L * S / P : (long)C * S;
            int len = gn ? 8 * S / P : S;
            if (units / per <= lag) continue;
            CK(clSetKernelArg(kt, 5, 4, &units)); CK(clSetKernelArg(kt, 6, 4, &P));
            CK(clSetKernelArg(kt, 7, 8, &us)); CK(clSetKernelArg(kt, 8, 8, &ps));
            CK(clSetKernelArg(kt, 9, 4, &len)); CK(clSetKernelArg(kt, 10, 4, &per)); CK(clSetKernelArg(kt, 11, 4, &lag));
            size_t items = (size_t)units * P * 2;
            double t = quick ? (launch(kt, items, L), clFinish(q), 0.0) : timed(kt, items, L);
            printf("%s units/slab %3d parts %2d lag %d lanes %d: %.4f ms (%.2f of copy, %.2f of 2960) err %.1e\n", gn ? "gnorm" : "bnorm", per, P, lag, L, t, tc / t, 2 * bytes / t / 1e6 / 2960, check(0, gn));
            if (quick) break;
        }
    }
    return 0;
}
