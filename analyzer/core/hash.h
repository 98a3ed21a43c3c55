/* Fast hashes, not cryptographic: 64 bits for cache keys (the result cache, precompiled headers;
 * the caches trust their own directories), 32 bits for the names the text scan compares. */
#ifndef DL_HASH_H
#define DL_HASH_H
#include <stddef.h>
#include <stdint.h>

uint64_t dl_hash_bytes(const void *data, size_t len, uint64_t seed);

/* A 32-bit hash of a name (FNV-1a), for the text scan's sets of identifiers (driver/sharing.c,
 * driver/module_refs.c). A scanner may compute it inline, a byte at a time, with these. */
enum { DL_NAME_HASH_SEED = 2166136261u, DL_NAME_HASH_PRIME = 16777619u };
uint32_t dl_name_hash(const char *s, size_t len);

#endif
