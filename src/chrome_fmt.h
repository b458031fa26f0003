/*
** chrome_fmt.h — the trace writer's number formatting: decimal integers and
** microseconds with nanosecond precision, byte for byte as printf's %u,
** %llu, %d and "%lld.%03lld" write them (test_chrome holds the spans
** formatted here against the printf path), without a division chain.
** Private to src/chrome.c.
*/
#ifndef FUSYNC_CHROME_FMT_H
#define FUSYNC_CHROME_FMT_H

#include "trace.h"   /* sim_time */

#include <stdint.h>
#include <string.h>

/* Decimal digits, as printf's %u / %llu write them.  Eight at a time, with
** no division chain: a number below 10^8 is split into its two halves of
** four digits (one division by a constant), then the lanes of one 64-bit
** word are split again, all at once, into pairs and then into single digits,
** dividing by 100 and by 10 as a multiplication by a scaled reciprocal and a
** shift, exact for the lanes' ranges (below 10^4: x * 10486 >> 20 is x / 100;
** below 100: x * 103 >> 10 is x / 10).  The word's bytes are then the eight
** digit values, the first in the lowest byte (store8 puts that byte first);
** ASCII adds '0' to each (DIGITS8_ASCII). */
static inline uint64_t digits8(uint32_t x)
{
    uint64_t hi = x / 10000, lo = x - hi * 10000;
    uint64_t v = hi | lo << 32;                                      /* abcd | efgh */
    uint64_t h = (v * 10486) >> 20 & 0x0000007F0000007Full;           /* ab, ef */
    v = h | (v - h * 100) << 16;                                     /* ab cd ef gh */
    uint64_t t = (v * 103) >> 10 & 0x000F000F000F000Full;             /* a c e g */
    return t | (v - t * 10) << 8;                                    /* a b c d e f g h */
}
#define DIGITS8_ASCII 0x3030303030303030ull

/* Leading zeros among digits8's eight digits, at most 7 (for 0 too). */
static inline int lead_zeros8(uint64_t d)
{
    return __builtin_ctzll(d | 1ull << 56) >> 3;
}

/* The word's lowest byte first: as it is in memory on a little-endian
** machine (x86, ARM as configured by every common system). */
static inline void store8(char *o, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(o, &v, 8);
}

/* The pairs 00..99, for the small numbers (an iteration, a version). */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* x < 10^8 without its leading zeros.  The callers leave room: eight bytes
** are stored wherever fewer are kept. */
static inline char *put8(char *o, uint32_t x)
{
    if (x < 100) {
        if (x < 10) {
            *o = (char)('0' + x);
            return o + 1;
        }
        memcpy(o, digit_pairs + 2 * x, 2);
        return o + 2;
    }
    uint64_t d = digits8(x);
    int z = lead_zeros8(d);
    store8(o, (d | DIGITS8_ASCII) >> 8 * z);
    return o + 8 - z;
}

static inline char *put_u64(char *o, uint64_t u)
{
    if (u < 100000000u) return put8(o, (uint32_t)u);
    uint64_t hi = u / 100000000u;
    uint32_t lo = (uint32_t)(u - hi * 100000000u);
    if (hi < 100000000u) {
        o = put8(o, (uint32_t)hi);
    } else {
        uint64_t top = hi / 100000000u;                  /* below 10^4: u < 2^64 */
        o = put8(o, (uint32_t)top);
        store8(o, digits8((uint32_t)(hi - top * 100000000u)) | DIGITS8_ASCII);
        o += 8;
    }
    store8(o, digits8(lo) | DIGITS8_ASCII);
    return o + 8;
}

static inline char *put_u32(char *o, uint32_t u)
{
    return u < 100000000u ? put8(o, u) : put_u64(o, u);
}

static inline char *put_i32(char *o, int32_t v)
{
    if (v >= 0) return put_u32(o, (uint32_t)v);
    *o++ = '-';
    return put_u32(o, 0u - (uint32_t)v);
}

#define PUT_LIT(o, lit) (memcpy((o), (lit), sizeof(lit) - 1), (o) + sizeof(lit) - 1)

/* Microseconds with nanosecond precision, as ts() prints them ("%lld.%03lld")
** for a time at or after zero: the nanoseconds' digits with a point before
** the last three, and at least one digit before it. */
static inline char *put_us(char *o, sim_time t)
{
    uint64_t u = (uint64_t)t;
    if (u < 100000000u) {
        /* eight digits "iiiiifff", zeros leading; of the five before the
        ** point, those after the leading zeros, or the last */
        uint64_t d = digits8((uint32_t)u) | DIGITS8_ASCII;
        int z = lead_zeros8(d ^ DIGITS8_ASCII), k = z < 5 ? 5 - z : 1;
        store8(o, d >> 8 * (5 - k));
        store8(o + k, '.' | d >> 40 << 8);
        return o + k + 4;
    }
    uint64_t hi = u / 100000000u;
    o = put_u64(o, hi);
    uint64_t d = digits8((uint32_t)(u - hi * 100000000u)) | DIGITS8_ASCII;
    store8(o, d);
    store8(o + 5, '.' | d >> 40 << 8);
    return o + 9;
}

#endif
