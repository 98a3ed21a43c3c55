/* The one fast hash (see hash.h). */
#include "core/hash.h"

#include <string.h>

uint32_t dl_name_hash(const char *s, size_t len) {
    uint32_t h = DL_NAME_HASH_SEED;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * DL_NAME_HASH_PRIME;
    return h;
}

uint64_t dl_hash_bytes(const void *data, size_t len, uint64_t seed) {
    const unsigned char *p = data;
    uint64_t h = seed ^ (len * 0x9E3779B97F4A7C15ull);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
        p += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    memcpy(&tail, p, len);
    h = (h ^ tail) * 0x94D049BB133111EBull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
}
