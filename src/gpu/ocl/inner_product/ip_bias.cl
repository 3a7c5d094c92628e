// inner_product/ip_bias.cl: the bias gradient of an inner product,
// diff_bias(oc) = sum over mb of diff_dst(mb, oc), accumulated in FLT_T
// (f32, double for f64 data). One work-item per oc, so neighbouring
// work-items read neighbouring elements of each diff_dst row.
#include "ocl_types.clh"

kernel void ip_diff_bias(const global DD_T *dd, long dd_off, long dd_smb,
        long dd_soc, int MB, int OC, global DB_T *db, long db_off, long db_s) {
    const int oc = get_global_id(0);
    if (oc >= OC) return;
    const global DD_T *p = dd + dd_off + (long)oc * dd_soc;
    FLT_T acc = 0;
    for (int mb = 0; mb < MB; mb++)
        acc += LOAD(DD_DT, p, (long)mb * dd_smb);
    STORE(DB_DT, db, db_off + (long)oc * db_s, acc);
}
