// C API: the dropout attribute (oneDNN 3.13: mask descriptor, seed data
// type, offset and host-scalar flags). Which primitives apply it is up to
// their implementations (the iterator refuses any that does not).
#include "api/c_enum.hpp"
#include "common/primitive_attr.hpp"

using namespace dnnl::impl;

dnnl_status_t dnnl_primitive_attr_set_dropout_v2(dnnl_primitive_attr_t attr,
        const_dnnl_memory_desc_t mask_desc, dnnl_data_type_t seed_dt_arg,
        int use_offset, int use_host_scalars) {
    if (!attr || !mask_desc) return dnnl_invalid_arguments;
    const data_type_t seed_dt = checked(seed_dt_arg, dnnl_data_type_undef);
    // The mask is u8 (or no mask: a zero descriptor); the seed s32 or s64.
    const bool mask_ok = mask_desc->data_type == dnnl_u8
            || mask_desc->data_type == dnnl_data_type_undef;
    if (!mask_ok || (seed_dt != dnnl_s32 && seed_dt != dnnl_s64))
        return dnnl_invalid_arguments;
    attr->dropout.mask_md = *mask_desc;
    attr->dropout.seed_dt = seed_dt;
    attr->dropout.use_offset = use_offset != 0;
    attr->dropout.use_host_scalars = use_host_scalars != 0;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_dropout(
        dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t mask_desc) {
    return dnnl_primitive_attr_set_dropout_v2(attr, mask_desc, dnnl_s32, 0, 0);
}

dnnl_status_t dnnl_primitive_attr_get_dropout_v2(const_dnnl_primitive_attr_t attr,
        const_dnnl_memory_desc_t *mask_desc, dnnl_data_type_t *seed_dt,
        int *use_offset, int *use_host_scalars) {
    if (!attr) return dnnl_invalid_arguments;
    if (mask_desc) *mask_desc = &attr->dropout.mask_md;
    if (seed_dt) *seed_dt = attr->dropout.seed_dt;
    if (use_offset) *use_offset = attr->dropout.use_offset;
    if (use_host_scalars) *use_host_scalars = attr->dropout.use_host_scalars;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_get_dropout(
        const_dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t *mask_desc) {
    return dnnl_primitive_attr_get_dropout_v2(
            attr, mask_desc, nullptr, nullptr, nullptr);
}
