// OpenCL probe: group normalization of the benchmark's shape (64 x 256 x
// 56 x 56 f32, 32 groups: 2048 units of 100 KB) with each unit held on
// chip between the statistics and the writes (held.cl), over lane counts,
// register / local-memory splits, reduction trees and group counts, for
// nchw and nhwc; kernel times from profiling events, against a float4 copy
// of the same tensor. Run from this folder (it reads held.cl); ANYDEV=1
// accepts a CPU device (PoCL: a correctness check only).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) \
    do { \
        cl_int e_ = (x); \
        if (e_) { \
            printf("%s: %d (line %d)\n", #x, e_, __LINE__); \
            exit(1); \
        } \
    } while (0)

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;
static int nvidia;
static char *text;
static cl_mem A, B, SC, SH, M, V;
static const int N = 64, C = 256, S = 3136, G = 32;
static float *h;

static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static cl_kernel build(const char *name, const char *opts, int quiet) {
    cl_int e;
    cl_program p = clCreateProgramWithSource(
            ctx, 1, (const char **)&text, NULL, &e);
    CK(e);
    char o[512];
    snprintf(o, sizeof(o), "%s%s", opts, nvidia ? " -cl-nv-verbose" : "");
    cl_int be = clBuildProgram(p, 1, &dev, o, NULL, NULL);
    char log[16384] = "";
    clGetProgramBuildInfo(
            p, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
    if (be) {
        printf("build %s failed:\n%s\n", opts, log);
        return NULL;
    }
    if (!quiet) {
        // ptxas's "Used N registers" line
        const char *u = strstr(log, "Used ");
        if (u) {
            const char *e2 = strchr(u, '\n');
            printf("    [%.*s]\n", e2 ? (int)(e2 - u) : 80, u);
        }
    }
    cl_kernel k = clCreateKernel(p, name, &e);
    CK(e);
    return k;
}

static double run_ms(cl_kernel k, size_t global, size_t local, int reps) {
    double t[64];
    for (int r = -1; r < reps; ++r) {
        cl_event ev;
        const cl_int le = clEnqueueNDRangeKernel(
                q, k, 1, NULL, &global, &local, 0, NULL, &ev);
        if (le) {
            printf("    launch failed: %d\n", le);
            return -1;
        }
        CK(clWaitForEvents(1, &ev));
        cl_ulong t0, t1;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START,
                sizeof(t0), &t0, NULL);
        clGetEventProfilingInfo(
                ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL);
        clReleaseEvent(ev);
        if (r >= 0) t[r] = (t1 - t0) * 1e-6;
    }
    qsort(t, reps, sizeof(double), cmpd);
    return t[reps / 2];
}

// max |err| of a few units of dst against the host.
static double check(int nhwc) {
    size_t total = (size_t)N * C * S;
    float *o = malloc(total * 4);
    CK(clEnqueueReadBuffer(q, B, CL_TRUE, 0, total * 4, o, 0, NULL, NULL));
    double worst = 0;
    const int cpg = C / G;
    for (int t = 0; t < 5; ++t) {
        const int n = (t * 13) % N, g = (t * 7) % G;
        double s = 0, qq = 0;
        for (int j = 0; j < cpg; ++j)
            for (int i = 0; i < S; ++i) {
                const int c = g * cpg + j;
                size_t e = nhwc ? ((size_t)n * S + i) * C + c
                                : ((size_t)n * C + c) * S + i;
                s += h[e];
            }
        const double m = s / (cpg * S);
        for (int j = 0; j < cpg; ++j)
            for (int i = 0; i < S; ++i) {
                const int c = g * cpg + j;
                size_t e = nhwc ? ((size_t)n * S + i) * C + c
                                : ((size_t)n * C + c) * S + i;
                qq += (h[e] - m) * (h[e] - m);
            }
        const double rs = 1 / sqrt(qq / (cpg * S) + 1e-5);
        for (int j = 0; j < cpg; ++j)
            for (int i = 0; i < S; i += 7) {
                const int c = g * cpg + j;
                size_t e = nhwc ? ((size_t)n * S + i) * C + c
                                : ((size_t)n * C + c) * S + i;
                const double ref = (h[e] - m) * rs * (1 + 0.01 * c)
                        + 0.001 * c;
                const double d = fabs(o[e] - ref);
                if (d > worst) worst = d;
            }
    }
    free(o);
    return worst;
}

// Batch normalization of the same tensor (nchw) with the parts of each
// channel held on chip (bn_held): kernel times, the zeroing of the
// counters, and a check of a few channels against the host.
static void bnorm(cl_uint cus, int reps, double copy, int any) {
    cl_int e;
    const int P_max = N;
    cl_mem SY = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (C + 1) * 4, NULL, &e);
    CK(e);
    cl_mem PT = clCreateBuffer(
            ctx, CL_MEM_READ_WRITE, 3 * C * P_max * 4, NULL, &e);
    CK(e);
    cl_mem BM = clCreateBuffer(ctx, CL_MEM_READ_WRITE, C * 4, NULL, &e);
    CK(e);
    cl_mem BV = clCreateBuffer(ctx, CL_MEM_READ_WRITE, C * 4, NULL, &e);
    CK(e);
    // images per part, registers, local, groups per compute unit,
    // tickets, spin on volatile loads
    static const int var[][6] = {{8, 16, 9, 1, 1, 0}, {8, 16, 9, 1, 1, 1},
            {8, 16, 9, 1, 0, 1}, {8, 14, 11, 1, 1, 0}, {8, 14, 11, 1, 1, 1},
            {8, 14, 11, 1, 0, 1}, {8, 14, 11, 2, 1, 1}, {4, 13, 0, 1, 0, 1}};
    static const int pocl[][6] = {{32, 87, 11, 1, 1, 1}, {32, 87, 11, 1, 0, 1}};
    const int zero = 0;
    CK(clEnqueueFillBuffer(q, SY, &zero, 4, 0, (C + 1) * 4, 0, NULL, NULL));
    const int nv = any ? 2 : (int)(sizeof(var) / sizeof(var[0]));
    const int S4 = S / 4;
    for (int vi = 0; vi < nv; ++vi) {
        const int *v = any ? pocl[vi] : var[vi];
        CK(clEnqueueFillBuffer(q, B, &zero, 4, 0, (size_t)N * C * S * 4, 0, NULL, NULL));
        const int ipp = v[0], P = N / ipp, G = v[3] * (int)cus;
        const int trips = (C * P + G - 1) / G, L = 256;
        char o[256];
        snprintf(o, sizeof(o),
                "-DREGS=%d -DLOC=%d -DNHWC=0 -DTREE=0 -DNOSTATS=0 "
                "-DTICKETS=%d -DSPIN=%d",
                v[1], v[2], v[4], v[5]);
        printf("bnorm held: %d images a part (%d parts), %d groups, %s\n",
                ipp, P, G, o);
        cl_kernel k = build("bn_held", o, 0);
        if (!k) continue;
        int a = 0;
        CK(clSetKernelArg(k, a++, sizeof(cl_mem), &A));
        CK(clSetKernelArg(k, a++, sizeof(cl_mem), &B));
        CK(clSetKernelArg(k, a++, sizeof(int), &C));
        CK(clSetKernelArg(k, a++, sizeof(int), &S4));
        CK(clSetKernelArg(k, a++, sizeof(int), &P));
        CK(clSetKernelArg(k, a++, sizeof(int), &ipp));
        CK(clSetKernelArg(k, a++, sizeof(int), &trips));
        CK(clSetKernelArg(k, a++, sizeof(cl_mem), &SY));
        CK(clSetKernelArg(k, a++, sizeof(cl_mem), &PT));
        CK(clSetKernelArg(k, a++, sizeof(cl_mem), &BM));
        CK(clSetKernelArg(k, a++, sizeof(cl_mem), &BV));
        CK(clSetKernelArg(k, a++, (size_t)(v[2] ? v[2] : 1) * L * 16, NULL));
        CK(clSetKernelArg(k, a++, 2 * L * 4, NULL));
        CK(clSetKernelArg(k, a++, 16, NULL));
        double tk[64], tf[64];
        int ok = 1;
        for (int r = -1; r < reps && ok; ++r) {
            cl_event ef, ek;
            // A marker where the zeroing was: the counters need none.
            CK(clEnqueueMarker(q, &ef));
            const size_t gs = (size_t)G * L, ls = L;
            const cl_int le = clEnqueueNDRangeKernel(
                    q, k, 1, NULL, &gs, &ls, 0, NULL, &ek);
            if (le) {
                printf("    launch failed: %d\n", le);
                ok = 0;
                break;
            }
            CK(clWaitForEvents(1, &ek));
            cl_ulong t0, t1, f0, f1;
            clGetEventProfilingInfo(ek, CL_PROFILING_COMMAND_START,
                    sizeof(t0), &t0, NULL);
            clGetEventProfilingInfo(
                    ek, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL);
            clGetEventProfilingInfo(ef, CL_PROFILING_COMMAND_START,
                    sizeof(f0), &f0, NULL);
            clGetEventProfilingInfo(
                    ef, CL_PROFILING_COMMAND_END, sizeof(f1), &f1, NULL);
            clReleaseEvent(ef);
            clReleaseEvent(ek);
            if (r >= 0) {
                tk[r] = (t1 - t0) * 1e-6;
                tf[r] = (t1 - f0) * 1e-6;
            }
        }
        clReleaseKernel(k);
        if (!ok) continue;
        qsort(tk, reps, sizeof(double), cmpd);
        qsort(tf, reps, sizeof(double), cmpd);
        // check channels against the host
        const size_t total = (size_t)N * C * S;
        float *o2 = malloc(total * 4), hm[256], hv[256];
        CK(clEnqueueReadBuffer(q, B, CL_TRUE, 0, total * 4, o2, 0, NULL, NULL));
        CK(clEnqueueReadBuffer(q, BM, CL_TRUE, 0, C * 4, hm, 0, NULL, NULL));
        CK(clEnqueueReadBuffer(q, BV, CL_TRUE, 0, C * 4, hv, 0, NULL, NULL));
        double worst = 0, wstat = 0;
        for (int c = 0; c < C; c += 37) {
            double sm = 0, sq = 0;
            for (int n = 0; n < N; ++n)
                for (int i = 0; i < S; ++i)
                    sm += h[((size_t)n * C + c) * S + i];
            const double m = sm / ((double)N * S);
            for (int n = 0; n < N; ++n)
                for (int i = 0; i < S; ++i) {
                    const double d = h[((size_t)n * C + c) * S + i] - m;
                    sq += d * d;
                }
            const double va = sq / ((double)N * S), rs = 1 / sqrt(va + 1e-5);
            wstat = fmax(wstat, fmax(fabs(hm[c] - m), fabs(hv[c] - va)));
            for (int n = 0; n < N; n += 5)
                for (int i = 0; i < S; i += 11) {
                    const size_t e2 = ((size_t)n * C + c) * S + i;
                    worst = fmax(worst, fabs(o2[e2] - (h[e2] - m) * rs));
                }
        }
        free(o2);
        printf("    kernel %.4f ms (%.2f of the copy), from the marker "
               "%.4f ms (%.2f); max err dst %.2g, statistics %.2g\n",
                tk[reps / 2], copy / tk[reps / 2], tf[reps / 2],
                copy / tf[reps / 2], worst, wstat);
    }
}

int main(void) {
    cl_platform_id pl[8];
    cl_uint np;
    CK(clGetPlatformIDs(8, pl, &np));
    const int any = getenv("ANYDEV") != NULL;
    for (cl_uint i = 0; i < np && !dev; ++i)
        if (clGetDeviceIDs(pl[i], any ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU,
                    1, &dev, NULL))
            dev = 0;
    if (!dev) {
        printf("no device\n");
        return 1;
    }
    char name[256], vendor[256];
    cl_uint cus;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof(vendor), vendor, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, NULL);
    nvidia = strstr(vendor, "NVIDIA") != NULL;
    printf("%s (%s), %u CUs\n", name, vendor, cus);
    cl_int e;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    CK(e);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e);
    CK(e);
    FILE *f = fopen("held.cl", "rb");
    if (!f) {
        printf("held.cl not found\n");
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = calloc(len + 1, 1);
    if (fread(text, 1, len, f) != (size_t)len) return 1;
    fclose(f);

    const size_t total = (size_t)N * C * S, bytes = total * 4;
    h = malloc(bytes);
    srand(1);
    for (size_t i = 0; i < total; ++i)
        h[i] = 3.f + (float)rand() / RAND_MAX;
    float sc[256], sh[256];
    for (int c = 0; c < C; ++c) {
        sc[c] = 1 + 0.01f * c;
        sh[c] = 0.001f * c;
    }
    A = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
            h, &e);
    CK(e);
    B = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    CK(e);
    SC = clCreateBuffer(
            ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 1024, sc, &e);
    CK(e);
    SH = clCreateBuffer(
            ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 1024, sh, &e);
    CK(e);
    M = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * G * 4, NULL, &e);
    CK(e);
    V = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * G * 4, NULL, &e);
    CK(e);
    const int reps = any ? 1 : 21;

    cl_kernel kc = build("copy4", "-DREGS=1 -DLOC=0 -DNHWC=0 -DTREE=0 -DNOSTATS=0", 1);
    CK(clSetKernelArg(kc, 0, sizeof(cl_mem), &A));
    CK(clSetKernelArg(kc, 1, sizeof(cl_mem), &B));
    const double copy = run_ms(kc, total / 4, 256, reps);
    const double bw = 2 * bytes / copy / 1e6; // GB/s
    printf("copy %.1f MB: %.4f ms, %.0f GB/s\n", bytes / 1e6, copy, bw);

    // Variants: lanes, float4 per lane in registers and in local memory
    // (lanes x (regs + local) >= 6272, local x lanes x 16 bytes plus the
    // reduction's 3 x lanes floats within 48 KB), tree (0: two sums by
    // trees, 2: lane statistics merged by one Chan tree), no statistics,
    // a register cap (-cl-nv-maxrregcount, 0: none).
    static const int var[][6] = {{256, 16, 9, 0, 0, 0}, {256, 14, 11, 0, 0, 0},
            {256, 14, 11, 2, 0, 0}, {256, 14, 11, 0, 1, 0},
            {256, 14, 11, 0, 0, 128}, {256, 14, 11, 0, 1, 128},
            {256, 16, 9, 0, 0, 128}, {256, 13, 12, 0, 0, 0}};
    const int nvar = any ? 1 : (int)(sizeof(var) / sizeof(var[0]));
    const int units = N * G, cpg = C / G, vecs = cpg * S / 4;
    for (int nhwc = 0; nhwc < 2; ++nhwc) {
        const int runv = nhwc ? cpg / 4 : vecs;
        const long so4 = nhwc ? C / 4 : 0;
        const long sn4 = (long)C * S / 4, sg4 = nhwc ? cpg / 4 : vecs;
        const int hw4 = S / 4;
        for (int vi = 0; vi < nvar; ++vi) {
            {
                const int L = var[vi][0], R = var[vi][1], LC = var[vi][2];
                if (var[vi][5] && !nvidia) continue;
                char o[256], cap[64] = "";
                if (var[vi][5])
                    snprintf(cap, sizeof(cap), " -cl-nv-maxrregcount=%d",
                            var[vi][5]);
                snprintf(o, sizeof(o),
                        "-DREGS=%d -DLOC=%d -DNHWC=%d -DTREE=%d "
                        "-DNOSTATS=%d%s",
                        R, LC, nhwc, var[vi][3], var[vi][4], cap);
                printf("%s L=%d %s\n", nhwc ? "nhwc" : "nchw", L, o);
                cl_kernel k = build("held", o, 0);
                if (!k) continue;
                size_t wg;
                clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE,
                        sizeof(wg), &wg, NULL);
                if (wg < (size_t)L) {
                    printf("    kernel allows %zu lanes only\n", wg);
                    clReleaseKernel(k);
                    continue;
                }
                int a = 0;
                CK(clSetKernelArg(k, a++, sizeof(cl_mem), &A));
                CK(clSetKernelArg(k, a++, sizeof(cl_mem), &B));
                CK(clSetKernelArg(k, a++, sizeof(int), &vecs));
                CK(clSetKernelArg(k, a++, sizeof(int), &runv));
                CK(clSetKernelArg(k, a++, sizeof(long), &so4));
                CK(clSetKernelArg(k, a++, sizeof(long), &sn4));
                CK(clSetKernelArg(k, a++, sizeof(long), &sg4));
                CK(clSetKernelArg(k, a++, sizeof(int), &G));
                CK(clSetKernelArg(k, a++, sizeof(int), &units));
                CK(clSetKernelArg(k, a++, sizeof(int), &cpg));
                CK(clSetKernelArg(k, a++, sizeof(int), &hw4));
                CK(clSetKernelArg(k, a++, sizeof(cl_mem), &SC));
                CK(clSetKernelArg(k, a++, sizeof(cl_mem), &SH));
                CK(clSetKernelArg(k, a++, sizeof(cl_mem), &M));
                CK(clSetKernelArg(k, a++, sizeof(cl_mem), &V));
                CK(clSetKernelArg(k, a++, (size_t)(LC ? LC : 1) * L * 16, NULL));
                CK(clSetKernelArg(k, a++, 3 * L * 4, NULL));
                const int gl[] = {units, (int)cus, 2 * (int)cus, 4 * (int)cus};
                for (int gi = 0; gi < (any ? 2 : 4); ++gi) {
                    const double t = run_ms(k, (size_t)gl[gi] * L, L, reps);
                    if (t < 0) break;
                    printf("    groups %5d: %.4f ms, %.2f of the copy", gl[gi],
                            t, copy / t);
                    if (!var[vi][4])
                        printf(", max err %.2g", check(nhwc));
                    printf("\n");
                }
                clReleaseKernel(k);
            }
        }
    }
    bnorm(cus, reps, copy, any);
    return 0;
}
