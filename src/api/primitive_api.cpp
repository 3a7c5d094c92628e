// C API: primitive descriptors (query, iterate, clone) and primitives.
#include <new>

#include "api/c_enum.hpp"
#include "common/primitive_iface.hpp"
#include "common/stream.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

dnnl_status_t dnnl_primitive_desc_next_impl(dnnl_primitive_desc_t primitive_desc) {
    if (!primitive_desc) return dnnl_invalid_arguments;
    return primitive_desc->next_impl();
}

dnnl_status_t dnnl_primitive_desc_clone(dnnl_primitive_desc_t *primitive_desc,
        const_dnnl_primitive_desc_t existing_primitive_desc) {
    if (!primitive_desc || !existing_primitive_desc) return dnnl_invalid_arguments;
    *primitive_desc = new (std::nothrow) dnnl_primitive_desc(*existing_primitive_desc);
    return *primitive_desc ? dnnl_success : dnnl_out_of_memory;
}

dnnl_status_t dnnl_primitive_desc_get_attr(const_dnnl_primitive_desc_t primitive_desc,
        const_dnnl_primitive_attr_t *attr) {
    if (!primitive_desc || !attr) return dnnl_invalid_arguments;
    *attr = primitive_desc->impl()->attr();
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_desc_destroy(dnnl_primitive_desc_t primitive_desc) {
    delete primitive_desc;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_desc_query(const_dnnl_primitive_desc_t primitive_desc,
        dnnl_query_t what_arg, int index, void *result) {
    const dnnl_query_t what = checked(what_arg, dnnl_query_undef);
    if (!primitive_desc || !result || index < 0) return dnnl_invalid_arguments;
    return primitive_desc->query(what, index, result);
}

const_dnnl_memory_desc_t dnnl_primitive_desc_query_md(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what_arg, int index) {
    const dnnl_query_t what = checked(what_arg, dnnl_query_undef);
    const bool md_query = (what >= dnnl_query_some_md && what <= dnnl_query_exec_arg_md)
            || what == dnnl_query_dst_md || what == dnnl_query_src_md;
    if (!primitive_desc || !md_query) return nullptr;
    const memory_desc_t *md = nullptr;
    if (primitive_desc->query(what, index, &md) != dnnl_success) return nullptr;
    return md;
}

int dnnl_primitive_desc_query_s32(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what_arg, int index) {
    const dnnl_query_t what = checked(what_arg, dnnl_query_undef);
    int v = 0;
    if (!primitive_desc) return 0;
    if (what != dnnl_query_num_of_inputs_s32 && what != dnnl_query_num_of_outputs_s32
            && what != dnnl_query_ndims_s32 && what != dnnl_query_inner_nblks_s32
            && what != dnnl_query_group_size_s64 && what != dnnl_query_axis_s32
            && what != dnnl_query_local_size_s64)
        return 0;
    if (primitive_desc->query(what, index, &v) != dnnl_success) return 0;
    return v;
}

dnnl_status_t dnnl_primitive_create(
        dnnl_primitive_t *primitive, const_dnnl_primitive_desc_t primitive_desc) {
    if (!primitive || !primitive_desc) return dnnl_invalid_arguments;
    // An allocation that cannot succeed is a status, never an exception
    // leaving the C API.
    try {
        return primitive_desc->create_primitive(primitive);
    } catch (const std::bad_alloc &) { return dnnl_out_of_memory; }
}

dnnl_status_t dnnl_primitive_execute(const_dnnl_primitive_t primitive,
        dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args) {
    if (!primitive || !stream) return dnnl_invalid_arguments;
    // Staging buffers of huge tensors: out of memory, not an exception.
    stream_exec_scope_t profiled(stream);
    try {
        return profiled.done(primitive->execute(stream, nargs, args));
    } catch (const std::bad_alloc &) { return dnnl_out_of_memory; }
}

dnnl_status_t dnnl_primitive_get_primitive_desc(
        const_dnnl_primitive_t primitive, const_dnnl_primitive_desc_t *primitive_desc) {
    if (!primitive || !primitive_desc) return dnnl_invalid_arguments;
    *primitive_desc = primitive->pd();
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_destroy(dnnl_primitive_t primitive) {
    delete primitive;
    return dnnl_success;
}
