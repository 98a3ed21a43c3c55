/* The one fast hash (see hash.h). */
#include "core/hash.h"

#include <string.h>

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
