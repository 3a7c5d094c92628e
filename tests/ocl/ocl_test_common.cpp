// Helpers shared by the OpenCL test files (each declares the ones it uses):
// the device order expected from engine kind `gpu`, found by querying
// OpenCL directly, and small typed OpenCL queries.

// Built only when the library has the OpenCL runtime (else the binary
// holds no tests).
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <CL/cl.h>

#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ocl.h"

namespace ocl_test {

std::vector<cl_device_id> expected_device_order()
{
    std::vector<cl_device_id> gpus, others;
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return {};
    std::vector<cl_platform_id> platforms(np);
    clGetPlatformIDs(np, platforms.data(), nullptr);
    for (cl_platform_id p : platforms) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS
                || nd == 0)
            continue;
        std::vector<cl_device_id> devices(nd);
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr);
        for (cl_device_id d : devices) {
            cl_device_type type = 0;
            cl_bool available = CL_FALSE;
            clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof(type), &type, nullptr);
            clGetDeviceInfo(d, CL_DEVICE_AVAILABLE, sizeof(available),
                    &available, nullptr);
            if (!available) continue;
            // The same device reached through two platforms (a driver
            // registered twice) counts once.
            bool seen = false;
            for (cl_device_id e : gpus) seen = seen || e == d;
            for (cl_device_id e : others) seen = seen || e == d;
            if (seen) continue;
            (type & CL_DEVICE_TYPE_GPU ? gpus : others).push_back(d);
        }
    }
    gpus.insert(gpus.end(), others.begin(), others.end());
    return gpus;
}

cl_uint context_refcount(cl_context ctx)
{
    cl_uint n = 0;
    clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof(n), &n, nullptr);
    return n;
}

cl_uint queue_refcount(cl_command_queue q)
{
    cl_uint n = 0;
    clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof(n), &n, nullptr);
    return n;
}

cl_uint mem_refcount(cl_mem m)
{
    cl_uint n = 0;
    clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof(n), &n, nullptr);
    return n;
}

cl_context engine_context(dnnl_engine_t engine)
{
    cl_context ctx = nullptr;
    dnnl_ocl_interop_engine_get_context(engine, &ctx);
    return ctx;
}

cl_device_id engine_device(dnnl_engine_t engine)
{
    cl_device_id dev = nullptr;
    dnnl_ocl_interop_get_device(engine, &dev);
    return dev;
}

} // namespace ocl_test

#endif // DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
