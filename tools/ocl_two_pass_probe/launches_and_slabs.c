// OpenCL probe for a GPU (run on the lent H100, doc/performance.md): copy bandwidth, launch gaps,
// and whether a unit read twice by one group comes from L2 the second
// time, for group-norm-like units and batch-norm channel slabs.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *src =
"#define R_UNROLL 4\n"
"__kernel void copy4(__global const float4*a,__global float4*b){size_t i=get_global_id(0);b[i]=a[i];}\n"
"__kernel void empty(__global float*a){if(get_global_id(0)==1u<<30)a[0]=1;}\n"
"inline float2 tree(float s,float q,__local float*ls,__local float*lq){int l=get_local_id(0),L=get_local_size(0);ls[l]=s;lq[l]=q;barrier(CLK_LOCAL_MEM_FENCE);\n"
"for(int h=L/2;h>0;h>>=1){if(l<h){ls[l]+=ls[l+h];lq[l]+=lq[l+h];}barrier(CLK_LOCAL_MEM_FENCE);}float2 r=(float2)(ls[0],lq[0]);barrier(CLK_LOCAL_MEM_FENCE);return r;}\n"
// one group per unit (U float4), read twice; dummy local forces occupancy
"__kernel void unit2(__global const float4*a,__global float4*b,int U,int units,__local float*dummy){\n"
" __local float ls[1024],lq[1024];int l=get_local_id(0),L=get_local_size(0);\n"
" for(int u=get_group_id(0);u<units;u+=get_num_groups(0)){\n"
" __global const float4*p=a+(long)u*U;__global float4*d=b+(long)u*U;float s=0,q=0;\n"
" int i=l;for(;i+3*L<U;i+=4*L){float4 x0=p[i],x1=p[i+L],x2=p[i+2*L],x3=p[i+3*L];\n"
"  s+=x0.x+x0.y+x0.z+x0.w+x1.x+x1.y+x1.z+x1.w+x2.x+x2.y+x2.z+x2.w+x3.x+x3.y+x3.z+x3.w;q+=dot(x0,x0)+dot(x1,x1)+dot(x2,x2)+dot(x3,x3);}\n"
" for(;i<U;i+=L){float4 x=p[i];s+=x.x+x.y+x.z+x.w;q+=dot(x,x);}\n"
" if(l==0&&dummy)dummy[0]=s;\n"
" float2 t=tree(s,q,ls,lq);float m=t.x/(U*4),r=rsqrt(t.y/(U*4)-m*m+1e-5f);\n"
" i=l;for(;i+3*L<U;i+=4*L){float4 x0=p[i],x1=p[i+L],x2=p[i+2*L],x3=p[i+3*L];d[i]=(x0-m)*r;d[i+L]=(x1-m)*r;d[i+2*L]=(x2-m)*r;d[i+3*L]=(x3-m)*r;}\n"
" for(;i<U;i+=L)d[i]=(p[i]-m)*r;}}\n"
// the same, reading once (fake stats): the two-tensor floor of this pattern
"__kernel void unit1(__global const float4*a,__global float4*b,int U,int units,__local float*dummy){\n"
" int l=get_local_id(0),L=get_local_size(0);\n"
" for(int u=get_group_id(0);u<units;u+=get_num_groups(0)){\n"
" __global const float4*p=a+(long)u*U;__global float4*d=b+(long)u*U;float m=0.5f,r=2.f;\n"
" int i=l;for(;i+3*L<U;i+=4*L){float4 x0=p[i],x1=p[i+L],x2=p[i+2*L],x3=p[i+3*L];d[i]=(x0-m)*r;d[i+L]=(x1-m)*r;d[i+2*L]=(x2-m)*r;d[i+3*L]=(x3-m)*r;}\n"
" for(;i<U;i+=L)d[i]=(p[i]-m)*r;}}\n"
// bnorm nchw [N][C][S4 float4]: partial stats of (c, n) for c in [c0, c0+cs)
// groups: cs*N, each one plane. part[(c*N+n)*2]
"__kernel void bn_stats(__global const float4*a,__global float*part,int N,int C,int S4,int c0,int cs,int rev){\n"
" __local float ls[1024],lq[1024];int g=get_group_id(0);if(rev)g=get_num_groups(0)-1-g;int c=c0+g/N,n=g%N;int l=get_local_id(0),L=get_local_size(0);\n"
" __global const float4*p=a+((long)n*C+c)*S4;float s=0,q=0;\n"
" for(int i=l;i<S4;i+=L){float4 x=p[i];s+=x.x+x.y+x.z+x.w;q+=dot(x,x);}\n"
" float2 t=tree(s,q,ls,lq);if(l==0){part[((long)c*N+n)*2]=t.x;part[((long)c*N+n)*2+1]=t.y;}}\n"
"inline void bn_norm_plane(__global const float4*a,__global float4*b,__global const float*part,int N,int C,int S4,int c,int n,__local float*ls,__local float*lq){\n"
" int l=get_local_id(0),L=get_local_size(0);float s=0,q=0;for(int j=l;j<N;j+=L){s+=part[((long)c*N+j)*2];q+=part[((long)c*N+j)*2+1];}\n"
" float2 t=tree(s,q,ls,lq);float cnt=(float)N*S4*4;float m=t.x/cnt,r=rsqrt(t.y/cnt-m*m+1e-5f);\n"
" long o=((long)n*C+c)*S4;for(int i=l;i<S4;i+=L)b[o+i]=(a[o+i]-m)*r;}\n"
"__kernel void bn_norm(__global const float4*a,__global float4*b,__global const float*part,int N,int C,int S4,int c0,int cs,int rev){\n"
" __local float ls[1024],lq[1024];int g=get_group_id(0);if(rev)g=get_num_groups(0)-1-g;bn_norm_plane(a,b,part,N,C,S4,c0+g/N,g%N,ls,lq);}\n"
// normalize slab k (groups [0, cs*N)) and gather stats of slab k+1 (the rest)
"__kernel void bn_pipe(__global const float4*a,__global float4*b,__global float*part,int N,int C,int S4,int c0,int cs,int ns){\n"
" __local float ls[1024],lq[1024];int g=get_group_id(0);int l=get_local_id(0),L=get_local_size(0);\n"
" if(g<ns*N){bn_norm_plane(a,b,part,N,C,S4,c0+g/N,g%N,ls,lq);return;}\n"
" g-=ns*N;int c=c0+ns+g/N,n=g%N;__global const float4*p=a+((long)n*C+c)*S4;float s=0,q=0;\n"
" for(int i=l;i<S4;i+=L){float4 x=p[i];s+=x.x+x.y+x.z+x.w;q+=dot(x,x);}\n"
" float2 t=tree(s,q,ls,lq);if(l==0){part[((long)c*N+n)*2]=t.x;part[((long)c*N+n)*2+1]=t.y;}}\n";

static cl_context ctx;
static cl_command_queue q;
static cl_program prog;
#define CK(x) do { cl_int e_ = (x); if (e_) { printf("%s: %d (line %d)\n", #x, e_, __LINE__); exit(1); } } while (0)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
typedef void (*body_t)(void *);
static double median_ms(body_t f, void *arg, int reps) {
    double t[64];
    f(arg);
    clFinish(q);
    for (int r = 0; r < reps; ++r) {
        double t0 = now();
        f(arg);
        clFinish(q);
        t[r] = now() - t0;
    }
    qsort(t, reps, sizeof(double), cmpd);
    return t[reps / 2];
}
static cl_kernel K(const char *n) {
    cl_int e;
    cl_kernel k = clCreateKernel(prog, n, &e);
    CK(e);
    return k;
}
static void run1(cl_kernel k, size_t g, size_t l) {
    CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
}

static cl_mem A, B, P;
static const int N = 64, C = 256, S = 56 * 56, S4 = S / 4;
static const long total4 = (long)N * C * S4;
static double tensor_mb;
static cl_kernel kcopy, kempty, kunit2, kunit1, kstats, knorm, kpipe;

static void do_copy(void *a) { (void)a; run1(kcopy, total4, 256); }
static void do_empty(void *a) {
    int n = *(int *)a;
    for (int i = 0; i < n; ++i) run1(kempty, 132 * 256, 256);
}
typedef struct { cl_kernel k; int U, units, lanes, groups, dummy; } unit_arg;
static void do_unit(void *p) {
    unit_arg *u = p;
    CK(clSetKernelArg(u->k, 0, sizeof(cl_mem), &A));
    CK(clSetKernelArg(u->k, 1, sizeof(cl_mem), &B));
    CK(clSetKernelArg(u->k, 2, sizeof(int), &u->U));
    CK(clSetKernelArg(u->k, 3, sizeof(int), &u->units));
    CK(clSetKernelArg(u->k, 4, u->dummy ? u->dummy : 4, NULL));
    run1(u->k, (size_t)u->groups * u->lanes, u->lanes);
}
static void set_bn(cl_kernel k, int c0, int cs, int last) {
    int i = 0;
    CK(clSetKernelArg(k, i++, sizeof(cl_mem), &A));
    if (k != kstats) CK(clSetKernelArg(k, i++, sizeof(cl_mem), &B));
    CK(clSetKernelArg(k, i++, sizeof(cl_mem), &P));
    CK(clSetKernelArg(k, i++, sizeof(int), &N));
    CK(clSetKernelArg(k, i++, sizeof(int), &C));
    CK(clSetKernelArg(k, i++, sizeof(int), &S4));
    CK(clSetKernelArg(k, i++, sizeof(int), &c0));
    CK(clSetKernelArg(k, i++, sizeof(int), &cs));
    CK(clSetKernelArg(k, i++, sizeof(int), &last));
}
typedef struct { int cs, lanes, mode; } bn_arg; // mode 0 slabs, 1 pipelined, 2 rev
static void do_bn(void *p) {
    bn_arg *b = p;
    size_t L = b->lanes;
    if (b->mode == 1) {
        set_bn(kstats, 0, b->cs, 0);
        run1(kstats, (size_t)b->cs * N * L, L);
        for (int c0 = 0; c0 < C; c0 += b->cs) {
            int ns = b->cs, next = c0 + ns < C ? b->cs : 0;
            set_bn(kpipe, c0, ns, ns); // last arg = ns
            run1(kpipe, (size_t)(ns + next) * N * L, L);
        }
        return;
    }
    int rev = b->mode == 2;
    for (int c0 = 0; c0 < C; c0 += b->cs) {
        set_bn(kstats, c0, b->cs, 0);
        run1(kstats, (size_t)b->cs * N * L, L);
        set_bn(knorm, c0, b->cs, rev);
        run1(knorm, (size_t)b->cs * N * L, L);
    }
}

int main(void) {
    cl_platform_id pl[8];
    cl_uint np;
    CK(clGetPlatformIDs(8, pl, &np));
    cl_device_id dev = 0;
    for (cl_uint i = 0; i < np && !dev; ++i)
        if (clGetDeviceIDs(pl[i], getenv("PROBE_COMPILE_ONLY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) dev = 0;
    if (!dev) { printf("no gpu\n"); return 1; }
    char name[256];
    cl_uint cus;
    cl_ulong lmem;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL);
    printf("%s, %u CUs, local %lu\n", name, cus, (unsigned long)lmem);
    cl_int e;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    CK(e);
    q = clCreateCommandQueue(ctx, dev, 0, &e);
    CK(e);
    prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    CK(e);
    if (clBuildProgram(prog, 1, &dev, "-cl-fast-relaxed-math", NULL, NULL)) {
        char log[8192];
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
        printf("%s\n", log);
        return 1;
    }
    if (getenv("PROBE_COMPILE_ONLY")) { printf("built\n"); return 0; }
    size_t bytes = total4 * 16;
    tensor_mb = bytes / 1e6;
    A = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e); CK(e);
    B = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e); CK(e);
    P = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)N * C * 8, NULL, &e); CK(e);
    float one = 1.f;
    CK(clEnqueueFillBuffer(q, A, &one, 4, 0, bytes, 0, NULL, NULL));
    kcopy = K("copy4"); kempty = K("empty"); kunit2 = K("unit2"); kunit1 = K("unit1");
    kstats = K("bn_stats"); knorm = K("bn_norm"); kpipe = K("bn_pipe");
    CK(clSetKernelArg(kcopy, 0, sizeof(cl_mem), &A));
    CK(clSetKernelArg(kcopy, 1, sizeof(cl_mem), &B));
    CK(clSetKernelArg(kempty, 0, sizeof(cl_mem), &B));
    size_t wg;
    clGetKernelWorkGroupInfo(kunit2, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL);
    printf("unit2 max lanes %zu\n", wg);
    double copy = median_ms(do_copy, NULL, 21);
    double bw = 2 * tensor_mb / copy / 1e3;
    printf("copy %.1f MB: %.4f ms, %.0f GB/s\n", tensor_mb, copy, bw * 1e3);
#define RATIO(ms) (2 * tensor_mb / (ms) / 1e3 / bw)
    for (int n = 1; n <= 100; n *= 10) {
        double t = median_ms(do_empty, &n, 21);
        printf("empty x%d: %.4f ms, %.2f us each\n", n, t, t * 1e3 / n);
    }
    // group norm: 2048 units of 25088 floats (6272 float4)
    int U = 6272, units = N * 32;
    int lanes_l[] = {256, 512, 1024};
    for (int li = 0; li < 3; ++li) {
        int L = lanes_l[li];
        if ((size_t)L > wg) continue;
        int gl[] = {units, (int)cus, 2 * (int)cus, 4 * (int)cus};
        for (int gi = 0; gi < 4; ++gi) {
            unit_arg u2 = {kunit2, U, units, L, gl[gi], 0};
            unit_arg u1 = {kunit1, U, units, L, gl[gi], 0};
            double t2 = median_ms(do_unit, &u2, 21), t1 = median_ms(do_unit, &u1, 21);
            printf("gnorm unit lanes %4d groups %5d: read twice %.4f ms (%.2f), once %.4f ms (%.2f)\n",
                    L, gl[gi], t2, RATIO(t2), t1, RATIO(t1));
        }
        // occupancy forced to one group per CU with big dummy local
        unit_arg u2 = {kunit2, U, units, L, units, (int)(lmem / 2 + 1024)};
        double t2 = median_ms(do_unit, &u2, 21);
        printf("gnorm unit lanes %4d one group/CU (local): read twice %.4f ms (%.2f)\n", L, t2, RATIO(t2));
    }
    int css[] = {256, 128, 64, 32, 16, 8};
    for (int li = 0; li < 2; ++li) {
        int L = li ? 128 : 256;
        for (int ci = 0; ci < 6; ++ci) {
            bn_arg b0 = {css[ci], L, 0}, b1 = {css[ci], L, 1}, b2 = {css[ci], L, 2};
            double t0 = median_ms(do_bn, &b0, 15), t1 = median_ms(do_bn, &b1, 15);
            double t2 = median_ms(do_bn, &b2, 15);
            printf("bnorm lanes %d slab %3d ch: slabs %.4f ms (%.2f), pipelined %.4f ms (%.2f), rev %.4f (%.2f)\n",
                    L, css[ci], t0, RATIO(t0), t1, RATIO(t1), t2, RATIO(t2));
        }
    }
    return 0;
}
