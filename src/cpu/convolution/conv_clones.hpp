// CONV_CLONES: compiles a hot convolution loop for AVX-512, AVX2 and the
// baseline (GCC/clang function multi-versioning, chosen at load time).
// Under ThreadSanitizer the loops stay single-version: the loader runs the
// version resolvers before the sanitizer's runtime has started, and an
// instrumented resolver crashes.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define DNNL_CONV_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DNNL_CONV_TSAN 1
#endif
#endif

#if defined(DNNL_CONV_TSAN)
#define CONV_CLONES
#else
#define CONV_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
