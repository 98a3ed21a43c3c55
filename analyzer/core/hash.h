/* A fast 64-bit hash for cache keys (the result cache, precompiled headers): not cryptographic,
 * the caches trust their own directories. */
#ifndef DL_HASH_H
#define DL_HASH_H
#include <stddef.h>
#include <stdint.h>

uint64_t dl_hash_bytes(const void *data, size_t len, uint64_t seed);

#endif
