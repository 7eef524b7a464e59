/* The last layer's closed-form sums (gamelib.fugitive.belief.tail_sums) on native integers.
 *
 * Why: on the hardest positions the per-source and per-key loops of tail_sums.tail_layer /
 * tail_total (a source's item-set key and its low flat times its weight summed per key; each
 * key's T summed from its steps' suffix sums; a source's dot product with its key's T; each
 * key's sums dotted with its steps' suffix sums) are the largest part of the belief, done on
 * Python ints (packed into big ints to cut the interpreter's work).  Every intermediate of them is
 * small (weights and entries within 64 bits, sums within ~75 bits), so here they are signed
 * 128-bit integers in flat arrays, and Python ints are made only for what the call returns.
 *
 * Exactness: every operation is checked (a value that does not fit 64 bits where one is read, a
 * product or sum that would leave 128 bits); then the call returns None and the caller runs the
 * pure functions from the start (nothing is half-applied: what the callbacks filled are the Tail's
 * memos, which the pure run reads as it would have made them).  The Python callbacks (a source's
 * low-half part, a key's resolved steps) are called in the order the pure code calls them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

#define FIT 1
#define NOFIT 0
#define ERR (-1)

/* ------------------------------------------------------------------ ints <-> native */

/* CPython 3.11-3.13 (with the GIL): a key's digits are read directly (a source is read per call
 * and its key is ~100 bits: the byte-array conversion below costs several times more); any other
 * build takes the public conversions.  (The layout is the one belief/_kernel.c reads.) */
#if !defined(Py_LIMITED_API) && !defined(Py_GIL_DISABLED) && !defined(TAIL_NO_DIGITS) && \
    PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000
#define DIGITS 1
#if PY_VERSION_HEX >= 0x030C0000
static inline Py_ssize_t n_digits(PyLongObject *v) { return (Py_ssize_t)(v->long_value.lv_tag >> 3); }
static inline int is_negative(PyLongObject *v) { return (v->long_value.lv_tag & 3) == 2; }
static inline digit *digits_of(PyLongObject *v) { return v->long_value.ob_digit; }
#else
static inline Py_ssize_t n_digits(PyLongObject *v) { return Py_SIZE(v) < 0 ? -Py_SIZE(v) : Py_SIZE(v); }
static inline int is_negative(PyLongObject *v) { return Py_SIZE(v) < 0; }
static inline digit *digits_of(PyLongObject *v) { return v->ob_digit; }
#endif
#endif

/* The dict insert with the key's hash known (a non-negative int's hash is its value modulo
 * 2**61 - 1, folded natively instead of over its digits): CPython 3.11 and 3.12. */
#if defined(DIGITS) && PY_VERSION_HEX < 0x030D0000 && _PyHASH_BITS == 61
static inline Py_hash_t hash_u128(u128 v) {
    const uint64_t m = ((uint64_t)1 << 61) - 1;
    uint64_t h = (uint64_t)(v >> 122) + ((uint64_t)(v >> 61) & m) + ((uint64_t)v & m);
    h = (h & m) + (h >> 61);
    return (Py_hash_t)(h >= m ? h - m : h);
}
#define SET_KEY(dict, key, native, val) _PyDict_SetItem_KnownHash(dict, key, val, hash_u128(native))
#else
#define SET_KEY(dict, key, native, val) PyDict_SetItem(dict, key, val)
#endif

/* o as an unsigned 128-bit key: FIT, NOFIT (negative, too large, not an int) or ERR. */
static int to_u128(PyObject *o, u128 *out) {
    if (!PyLong_CheckExact(o)) return NOFIT;
#ifdef DIGITS
    PyLongObject *v = (PyLongObject *)o;
    if (is_negative(v)) return NOFIT;
    const digit *d = digits_of(v);
    u128 r = 0;
    for (Py_ssize_t i = n_digits(v) - 1; i >= 0; i--) {
        if (r >> (128 - PyLong_SHIFT)) return NOFIT;
        r = (r << PyLong_SHIFT) | d[i];
    }
    *out = r;
    return FIT;
#endif
    int overflow;
    long long small = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) {
        if (small == -1 && PyErr_Occurred()) return ERR;
        if (small < 0) return NOFIT;
        *out = (u128)small;
        return FIT;
    }
    if (overflow < 0) return NOFIT;
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(o, out, 16,
                                        Py_ASNATIVEBYTES_NATIVE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (n < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError)) return ERR;
        PyErr_Clear();
        return NOFIT;
    }
    return n <= 16 ? FIT : NOFIT;
#else
    if (_PyLong_AsByteArray((PyLongObject *)o, (unsigned char *)out, 16, PY_LITTLE_ENDIAN, 0) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return ERR;
        PyErr_Clear();
        return NOFIT;
    }
    return FIT;
#endif
}

/* o as a signed 64-bit value: FIT, NOFIT (too large, not an int) or ERR. */
static int to_i64(PyObject *o, int64_t *out) {
    if (!PyLong_CheckExact(o)) return NOFIT;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) return NOFIT;
    if (v == -1 && PyErr_Occurred()) return ERR;
    *out = (int64_t)v;
    return FIT;
}

/* The sign of an int o (-1, 0 or 1), or -2 with an exception. */
static int sign_of(PyObject *o) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) return overflow;
    if (v == -1 && PyErr_Occurred()) return -2;
    return v < 0 ? -1 : v > 0;
}

/* o as a signed 128-bit value: FIT, NOFIT (too large, not an int) or ERR. */
static int to_i128(PyObject *o, i128 *out) {
    if (!PyLong_CheckExact(o)) return NOFIT;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) {
        if (v == -1 && PyErr_Occurred()) return ERR;
        *out = v;
        return FIT;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(o, out, 16, Py_ASNATIVEBYTES_NATIVE_ENDIAN);
    if (n < 0) return ERR;
    return n <= 16 ? FIT : NOFIT;
#else
    if (_PyLong_AsByteArray((PyLongObject *)o, (unsigned char *)out, 16, PY_LITTLE_ENDIAN, 1) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return ERR;
        PyErr_Clear();
        return NOFIT;
    }
    return FIT;
#endif
}

static PyObject *from_u128(u128 v) {
    if (v <= (u128)UINT64_MAX) return PyLong_FromUnsignedLongLong((unsigned long long)v);
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(&v, 16, Py_ASNATIVEBYTES_NATIVE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)&v, 16, PY_LITTLE_ENDIAN, 0);
#endif
}

static PyObject *from_i128(i128 v) {
    if (v >= INT64_MIN && v <= INT64_MAX) return PyLong_FromLongLong((long long)v);
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromNativeBytes(&v, 16, Py_ASNATIVEBYTES_NATIVE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)&v, 16, PY_LITTLE_ENDIAN, 1);
#endif
}

/* *n += x * y: 1, or 0 if the product or the sum would leave 128 bits (*n unchanged). */
static inline int mad(i128 *n, i128 x, i128 y) {
    i128 p, sum;
    if (x == (int64_t)x && y == (int64_t)y)
        p = x * y; /* both within 64 bits: the product fits */
    else if (__builtin_mul_overflow(x, y, &p))
        return 0;
    if (__builtin_add_overflow(*n, p, &sum)) return 0;
    *n = sum;
    return 1;
}

/* ------------------------------------------------------------------ a map u128 -> dense index */

typedef struct {
    uint32_t *index; /* per bucket: 1 + its entry, or 0; a power of two, at most half full */
    u128 *keys;      /* the entries' keys, in insertion order */
    size_t mask, used;
} map_t;

static inline size_t hash128(u128 k) {
    uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(k >> 64) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return (size_t)(h ^ (h >> 32));
}

static int map_init(map_t *m, size_t want) {
    size_t cap = 16;
    while (cap < 2 * want + 2) cap <<= 1;
    m->index = PyMem_Calloc(cap, sizeof(uint32_t));
    m->keys = PyMem_Malloc(cap / 2 * sizeof(u128));
    m->mask = cap - 1;
    m->used = 0;
    if (m->index == NULL || m->keys == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void map_free(map_t *m) {
    PyMem_Free(m->index);
    PyMem_Free(m->keys);
    m->index = NULL;
    m->keys = NULL;
}

/* The entry of key (-1: none). */
static inline Py_ssize_t map_get(const map_t *m, u128 key) {
    for (size_t i = hash128(key) & m->mask;; i = (i + 1) & m->mask) {
        uint32_t e = m->index[i];
        if (e == 0) return -1;
        if (m->keys[e - 1] == key) return (Py_ssize_t)e - 1;
    }
}

static int map_grow(map_t *m) {
    size_t cap = 2 * (m->mask + 1);
    if (cap > ((size_t)1 << 31)) {
        PyErr_NoMemory();
        return -1;
    }
    uint32_t *index = PyMem_Calloc(cap, sizeof(uint32_t));
    u128 *keys = PyMem_Realloc(m->keys, cap / 2 * sizeof(u128));
    if (keys != NULL) m->keys = keys;
    if (index == NULL || keys == NULL) {
        PyMem_Free(index);
        PyErr_NoMemory();
        return -1;
    }
    PyMem_Free(m->index);
    m->index = index;
    m->mask = cap - 1;
    for (size_t k = 0; k < m->used; k++) {
        size_t i = hash128(m->keys[k]) & m->mask;
        while (index[i]) i = (i + 1) & m->mask;
        index[i] = (uint32_t)(k + 1);
    }
    return 0;
}

/* The entry of key, added (*fresh) if missing.  -1: MemoryError. */
static Py_ssize_t map_add(map_t *m, u128 key, int *fresh) {
    Py_ssize_t e = map_get(m, key);
    *fresh = e < 0;
    if (e >= 0) return e;
    if (2 * (m->used + 1) > m->mask + 1 && map_grow(m) < 0) return -1;
    size_t i = hash128(key) & m->mask;
    while (m->index[i]) i = (i + 1) & m->mask;
    m->keys[m->used] = key;
    m->index[i] = (uint32_t)++m->used;
    return (Py_ssize_t)m->used - 1;
}

/* ------------------------------------------------------------------ growable arrays */

static int grow(void **p, size_t *cap, size_t need, size_t item) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = PyMem_Realloc(*p, c * item);
    if (q == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

/* ------------------------------------------------------------------ the call's state */

typedef struct {
    int layer;  /* tail_layer (back, sums) rather than tail_total */
    Py_ssize_t size;
    u128 reads, high, low;
    int shift;
    /* signatures: per entry (lo object, hi or -1, moves) */
    map_t sigs;
    PyObject **sig_lo;
    u128 *sig_lo_v;
    /* the low half's few sources: per low key its high flats summed (times the weights) and its
     * T (the layer), per high half its flat (Tail.flat(2, h)) */
    PyObject *flat_fn, *t_of_fn;
    map_t lkeys, hflats;
    size_t cap_lk, cap_hf;
    i128 *lacc, *lu;
    int64_t *hf;
    int64_t *sig_moves;
    i128 *sig_hi;
    /* low flats: size entries each, and their nonzero entries */
    map_t lows;
    int64_t *flat;
    int32_t *nz;      /* per flat: size slots, the nonzero entries first */
    int32_t *n_nz;
    /* sources */
    Py_ssize_t n;
    PyObject **src;   /* held */
    u128 *srcv;       /* their values */
    int32_t *key_of;  /* per source: its key, or -1 */
    int32_t *low_of;  /* per source: its low flat */
    PyObject **low_b; /* per source: what its low half gave (held, NULL: 0 or none) */
    i128 *high_b;
    /* keys (item set, high half) */
    map_t keys;
    size_t cap_keys;
    i128 *acc;        /* per key: size entries */
    int64_t *sid;
    /* item sets' steps (Tail.steps): per set its first step; per step its count increment, need,
     * summed weight and cap (the need ss_of sums for: borrowed, the caller holds the list) */
    Py_ssize_t n_sets;
    int64_t *set_start;
    u128 *st_inc;
    int64_t *st_t, *st_w;
    PyObject **st_cap;
    /* Tail.gidx: per need, the size entries of a half's suffix sums a gathered vector reads */
    int64_t stride;
    int64_t *gidx;
    int64_t *st_capv;
    /* per group 2 and 3: its rows by counts (Tail._scaled): gcd, shape id, the rows (held) */
    PyObject *scaled_fn, *suffixes_fn;
    u128 gmask[2];
    map_t sc[2];
    size_t cap_sc[2];
    int64_t *sc_common[2], *sc_sid[2];
    PyObject **sc_rows[2];
    /* the high half's suffix sums by counts h (Tail.ss_of): need done, factor, their sums */
    map_t halves;
    size_t cap_h;
    int64_t *h_t, *h_f, *h_ss;
    /* suffix sums by id: need done, id, entries */
    map_t ssids;
    size_t cap_ss;
    int64_t *ss_t;
    int64_t **ss_v;
    Py_ssize_t *ss_len;
    /* gathered suffix sums by (id, need): size entries each */
    map_t spts;
    size_t cap_g;
    int64_t *gath;
    /* per key its resolved steps (Tail.resolved): index, gathered sums, factor, factor * weight */
    int64_t *key_step;
    size_t n_rs, cap_rs;
    int32_t *rs_j;
    int64_t *rs_g, *rs_f;
    i128 *rs_fw;
} tail_t;

static void tail_free(tail_t *t) {
    map_free(&t->sigs);
    PyMem_Free(t->sig_lo);
    PyMem_Free(t->sig_lo_v);
    map_free(&t->lkeys);
    map_free(&t->hflats);
    PyMem_Free(t->lacc);
    PyMem_Free(t->lu);
    PyMem_Free(t->hf);
    PyMem_Free(t->sig_moves);
    PyMem_Free(t->sig_hi);
    map_free(&t->lows);
    PyMem_Free(t->flat);
    PyMem_Free(t->nz);
    PyMem_Free(t->n_nz);
    for (Py_ssize_t i = 0; i < t->n; i++) {
        Py_XDECREF(t->src ? t->src[i] : NULL);
        Py_XDECREF(t->low_b ? t->low_b[i] : NULL);
    }
    PyMem_Free(t->src);
    PyMem_Free(t->srcv);
    PyMem_Free(t->key_of);
    PyMem_Free(t->low_of);
    PyMem_Free(t->low_b);
    PyMem_Free(t->high_b);
    map_free(&t->keys);
    PyMem_Free(t->acc);
    PyMem_Free(t->sid);
    PyMem_Free(t->set_start);
    PyMem_Free(t->st_inc);
    PyMem_Free(t->st_t);
    PyMem_Free(t->st_w);
    PyMem_Free(t->st_cap);
    PyMem_Free(t->st_capv);
    for (int w = 0; w < 2; w++) {
        if (t->sc_rows[w] != NULL)
            for (size_t k = 0; k < t->sc[w].used; k++) Py_XDECREF(t->sc_rows[w][k]);
        map_free(&t->sc[w]);
        PyMem_Free(t->sc_common[w]);
        PyMem_Free(t->sc_sid[w]);
        PyMem_Free(t->sc_rows[w]);
    }
    PyMem_Free(t->gidx);
    map_free(&t->halves);
    PyMem_Free(t->h_t);
    PyMem_Free(t->h_f);
    PyMem_Free(t->h_ss);
    if (t->ss_v != NULL)
        for (size_t k = 0; k < t->ssids.used; k++) PyMem_Free(t->ss_v[k]);
    map_free(&t->ssids);
    PyMem_Free(t->ss_t);
    PyMem_Free(t->ss_v);
    PyMem_Free(t->ss_len);
    map_free(&t->spts);
    PyMem_Free(t->gath);
    PyMem_Free(t->key_step);
    PyMem_Free(t->rs_j);
    PyMem_Free(t->rs_g);
    PyMem_Free(t->rs_f);
    PyMem_Free(t->rs_fw);
}

/* A mask modulo 2**128 (two's complement for a negative one, e.g. ~reads): a key is below
 * 2**128, so only those bits of a mask touch it. */
static int mask_of(PyObject *o, u128 *out) {
    if (!PyLong_CheckExact(o)) return NOFIT;
    u128 all = ~(u128)0;
    PyObject *all_o = from_u128(all);
    PyObject *low = all_o ? PyNumber_And(o, all_o) : NULL;
    Py_XDECREF(all_o);
    if (low == NULL) return ERR;
    int r = to_u128(low, out);
    Py_DECREF(low);
    return r;
}

/* sig_ids: {signature: (lo, hi, moves)}. */
static int read_sigs(tail_t *t, PyObject *sig_ids) {
    if (!PyDict_CheckExact(sig_ids)) return NOFIT;
    Py_ssize_t n = PyDict_GET_SIZE(sig_ids), pos = 0;
    PyObject *k, *v;
    if (map_init(&t->sigs, (size_t)n) < 0) return ERR;
    t->sig_lo = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    t->sig_lo_v = PyMem_Calloc((size_t)n + 1, sizeof(u128));
    if (t->sig_lo_v == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    t->sig_moves = PyMem_Calloc((size_t)n + 1, sizeof(int64_t));
    t->sig_hi = PyMem_Calloc((size_t)n + 1, sizeof(i128));
    if (t->sig_lo == NULL || t->sig_moves == NULL || t->sig_hi == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    while (PyDict_Next(sig_ids, &pos, &k, &v)) {
        u128 sig, hi;
        int64_t moves;
        int fresh, r = to_u128(k, &sig);
        if (r != FIT) return r;
        if (!PyTuple_CheckExact(v) || PyTuple_GET_SIZE(v) != 3) return NOFIT;
        PyObject *loo = PyTuple_GET_ITEM(v, 0), *hio = PyTuple_GET_ITEM(v, 1);
        if (!PyLong_CheckExact(loo) || !PyLong_CheckExact(hio)) return NOFIT;
        int lo_sign = sign_of(loo), hi_sign = sign_of(hio); /* < 0: no item set in that half */
        if (lo_sign == -2 || hi_sign == -2) return ERR;
        if ((r = to_i64(PyTuple_GET_ITEM(v, 2), &moves)) != FIT) return r;
        i128 hv = -1;
        if (hi_sign >= 0) {
            if ((r = to_u128(hio, &hi)) != FIT) return r;
            if ((hi >> t->shift) >= ((u128)1 << 31)) return NOFIT;
            hv = (i128)hi;
        }
        Py_ssize_t e = map_add(&t->sigs, sig, &fresh);
        if (e < 0) return ERR;
        t->sig_hi[e] = hv;
        t->sig_lo[e] = lo_sign < 0 ? NULL : loo; /* borrowed: sig_ids outlives the call */
        if (lo_sign >= 0 && (r = to_u128(loo, &t->sig_lo_v[e])) != FIT) return r;
        t->sig_moves[e] = moves;
    }
    return FIT;
}

/* A tuple of size ints into out[0:size]: FIT, NOFIT or ERR. */
static int read_vector(PyObject *tup, Py_ssize_t size, int64_t *out) {
    if (!PyTuple_CheckExact(tup) || PyTuple_GET_SIZE(tup) != size) return NOFIT;
    for (Py_ssize_t e = 0; e < size; e++) {
        int r = to_i64(PyTuple_GET_ITEM(tup, e), &out[e]);
        if (r != FIT) return r;
    }
    return FIT;
}

/* lflats: {low half: flat}. */
static int read_lows(tail_t *t, PyObject *lflats) {
    if (!PyDict_CheckExact(lflats)) return NOFIT;
    Py_ssize_t n = PyDict_GET_SIZE(lflats), pos = 0, size = t->size;
    PyObject *k, *v;
    if (map_init(&t->lows, (size_t)n) < 0) return ERR;
    t->flat = PyMem_Calloc((size_t)(n * size) + 1, sizeof(int64_t));
    t->nz = PyMem_Calloc((size_t)(n * size) + 1, sizeof(int32_t));
    t->n_nz = PyMem_Calloc((size_t)n + 1, sizeof(int32_t));
    if (t->flat == NULL || t->nz == NULL || t->n_nz == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    while (PyDict_Next(lflats, &pos, &k, &v)) {
        u128 h;
        int fresh, r = to_u128(k, &h);
        if (r != FIT) return r;
        Py_ssize_t e = map_add(&t->lows, h, &fresh);
        if (e < 0) return ERR;
        int64_t *f = t->flat + e * size;
        if ((r = read_vector(v, size, f)) != FIT) return r;
        int32_t *nz = t->nz + e * size, c = 0;
        for (Py_ssize_t j = 0; j < size; j++)
            if (f[j]) nz[c++] = (int32_t)j;
        t->n_nz[e] = c;
    }
    return FIT;
}

/* The key of source i (item set hi, high half of src), made if new. */
static int key_of(tail_t *t, u128 src, i128 hi, Py_ssize_t *kidx) {
    int fresh;
    u128 key = (u128)hi | (src & t->high);
    Py_ssize_t k = map_add(&t->keys, key, &fresh);
    if (k < 0) return ERR;
    if (fresh) {
        size_t cap = t->cap_keys;
        if (grow((void **)&t->sid, &cap, (size_t)k + 1, sizeof(int64_t)) < 0) return ERR;
        cap = t->cap_keys;
        if (grow((void **)&t->acc, &cap, (size_t)k + 1, sizeof(i128) * (size_t)t->size) < 0) return ERR;
        t->cap_keys = cap;
        t->sid[k] = (int64_t)(hi >> t->shift);
        memset(t->acc + k * t->size, 0, sizeof(i128) * (size_t)t->size);
    }
    *kidx = k;
    return FIT;
}

/* The entry of the high half h's flat (Tail.flat(2, h) called the first time).  FIT, NOFIT, ERR. */
static int high_flat(tail_t *t, u128 h, Py_ssize_t *out) {
    int fresh;
    Py_ssize_t e = map_add(&t->hflats, h, &fresh);
    if (e < 0) return ERR;
    *out = e;
    if (!fresh) return FIT;
    size_t c = t->cap_hf;
    if (grow((void **)&t->hf, &c, (size_t)(e + 1) * (size_t)t->size, sizeof(int64_t)) < 0) return ERR;
    t->cap_hf = c;
    PyObject *h_o = from_u128(h), *two = PyLong_FromLong(2), *f = NULL;
    if (h_o != NULL && two != NULL) f = PyObject_CallFunctionObjArgs(t->flat_fn, two, h_o, NULL);
    Py_XDECREF(h_o);
    Py_XDECREF(two);
    if (f == NULL) return ERR;
    int r = read_vector(f, t->size, t->hf + e * t->size);
    Py_DECREF(f);
    return r;
}

/* The entry of low key k (its T, Tail.t_of(0, k), read the first time in the layer).  FIT, NOFIT
 * or ERR. */
static int low_key(tail_t *t, u128 k, Py_ssize_t *out) {
    int fresh;
    Py_ssize_t e = map_add(&t->lkeys, k, &fresh);
    if (e < 0) return ERR;
    *out = e;
    if (!fresh) return FIT;
    Py_ssize_t size = t->size;
    size_t c = t->cap_lk, c2 = t->cap_lk;
    if (grow((void **)&t->lacc, &c, (size_t)(e + 1) * (size_t)size, sizeof(i128)) < 0 ||
        grow((void **)&t->lu, &c2, (size_t)(e + 1) * (size_t)size, sizeof(i128)) < 0)
        return ERR;
    t->cap_lk = c;
    memset(t->lacc + e * size, 0, sizeof(i128) * (size_t)size);
    if (!t->layer) return FIT;
    PyObject *k_o = from_u128(k), *zero = PyLong_FromLong(0), *u = NULL;
    if (k_o != NULL && zero != NULL) u = PyObject_CallFunctionObjArgs(t->t_of_fn, zero, k_o, NULL);
    Py_XDECREF(k_o);
    Py_XDECREF(zero);
    if (u == NULL) return ERR;
    int r = PyTuple_CheckExact(u) && PyTuple_GET_SIZE(u) == size ? FIT : NOFIT;
    for (Py_ssize_t j = 0; j < size && r == FIT; j++) r = to_i128(PyTuple_GET_ITEM(u, j), &t->lu[e * size + j]);
    Py_DECREF(u);
    return r;
}

/* A source with hideouts in the low half (few): its weight times its high half's flat added to its
 * low key's sums (Tail.add_low), and in the layer its completions there, <flat, T of the key>. */
static int low_source(tail_t *t, Py_ssize_t i, u128 src, int64_t w, u128 lo) {
    Py_ssize_t he, ke, size = t->size;
    int r = high_flat(t, src & t->high, &he);
    if (r == FIT) r = low_key(t, lo | (src & t->low), &ke);
    if (r != FIT) return r;
    const int64_t *f = t->hf + he * size;
    i128 *acc = t->lacc + ke * size, b = 0;
    for (Py_ssize_t j = 0; j < size; j++)
        if (!mad(&acc[j], w, f[j])) return NOFIT;
    if (!t->layer) return FIT;
    const i128 *u = t->lu + ke * size;
    for (Py_ssize_t j = 0; j < size; j++)
        if (!mad(&b, f[j], u[j])) return NOFIT;
    if (b && (t->low_b[i] = from_i128(b)) == NULL) return ERR;
    return FIT;
}

/* The low keys' sums, {key: [int, ...]} in the order the keys came. */
static PyObject *low_sums(const tail_t *t) {
    PyObject *out = PyDict_New();
    for (size_t k = 0; k < t->lkeys.used && out != NULL; k++) {
        PyObject *key = from_u128(t->lkeys.keys[k]), *lst = PyList_New(t->size);
        int ok = key != NULL && lst != NULL;
        for (Py_ssize_t j = 0; j < t->size && ok; j++) {
            PyObject *v = from_i128(t->lacc[k * t->size + j]);
            if (v == NULL)
                ok = 0;
            else
                PyList_SET_ITEM(lst, j, v);
        }
        if (!ok || PyDict_SetItem(out, key, lst) < 0) Py_CLEAR(out);
        Py_XDECREF(key);
        Py_XDECREF(lst);
    }
    return out;
}

/* One source: its key and low flat, its weight times that flat added to its key, its low-half
 * part (low_source).  FIT, NOFIT or ERR. */
static int one_source(tail_t *t, Py_ssize_t i, PyObject *src_o, PyObject *w_o, int64_t *count) {
    u128 src = 0;
    int64_t w;
    int r = to_u128(src_o, &src);
    t->srcv[i] = src;
    if (r == FIT) r = to_i64(w_o, &w);
    if (r != FIT) return r;
    Py_ssize_t s = map_get(&t->sigs, src & t->reads);
    if (s < 0) return NOFIT; /* (the pure code raises KeyError) */
    *count += t->sig_moves[s];
    t->key_of[i] = -1;
    t->low_of[i] = -1;
    if (!t->layer && !w) return FIT; /* the total alone skips weightless sources */
    if (t->sig_hi[s] >= 0) {
        Py_ssize_t k, lo = map_get(&t->lows, src & t->low);
        if (lo < 0) return NOFIT;
        if ((r = key_of(t, src, t->sig_hi[s], &k)) != FIT) return r;
        t->key_of[i] = (int32_t)k;
        t->low_of[i] = (int32_t)lo;
        if (w) {
            const int64_t *f = t->flat + lo * t->size;
            const int32_t *nz = t->nz + lo * t->size;
            i128 *acc = t->acc + k * t->size;
            for (int32_t c = 0; c < t->n_nz[lo]; c++)
                if (!mad(&acc[nz[c]], w, f[nz[c]])) return NOFIT;
        }
    }
    if (t->sig_lo[s] != NULL) return low_source(t, i, src, w, t->sig_lo_v[s]);
    return FIT;
}

static int walk_sources(tail_t *t, PyObject *states, int64_t *count) {
    if (!PyDict_CheckExact(states)) return NOFIT;
    Py_ssize_t n = PyDict_GET_SIZE(states), pos = 0;
    t->src = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    t->low_b = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    t->srcv = PyMem_Calloc((size_t)n + 1, sizeof(u128));
    t->key_of = PyMem_Calloc((size_t)n + 1, sizeof(int32_t));
    t->low_of = PyMem_Calloc((size_t)n + 1, sizeof(int32_t));
    if (t->src == NULL || t->low_b == NULL || t->srcv == NULL || t->key_of == NULL || t->low_of == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    PyObject *k, *v;
    for (Py_ssize_t i = 0; PyDict_Next(states, &pos, &k, &v); i++) {
        if (i >= n) return NOFIT; /* (a callback grew the dict) */
        t->src[i] = Py_NewRef(k);
        t->n = i + 1;
        Py_INCREF(v);
        int r = one_source(t, i, k, v, count);
        Py_DECREF(v);
        if (r != FIT) return r;
    }
    return t->n == n ? FIT : NOFIT;
}

/* Tail.steps: per item set, per step (increment, need, summed weight, cap). */
static int read_steps(tail_t *t, PyObject *steps) {
    if (!PyList_CheckExact(steps)) return NOFIT;
    Py_ssize_t n = PyList_GET_SIZE(steps), total = 0;
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *set = PyList_GET_ITEM(steps, s);
        if (!PyTuple_CheckExact(set)) return NOFIT;
        total += PyTuple_GET_SIZE(set);
    }
    t->n_sets = n;
    t->set_start = PyMem_Calloc((size_t)n + 1, sizeof(int64_t));
    t->st_inc = PyMem_Calloc((size_t)total + 1, sizeof(u128));
    t->st_t = PyMem_Calloc((size_t)total + 1, sizeof(int64_t));
    t->st_w = PyMem_Calloc((size_t)total + 1, sizeof(int64_t));
    t->st_cap = PyMem_Calloc((size_t)total + 1, sizeof(PyObject *));
    t->st_capv = PyMem_Calloc((size_t)total + 1, sizeof(int64_t));
    if (!t->set_start || !t->st_inc || !t->st_t || !t->st_w || !t->st_cap || !t->st_capv) {
        PyErr_NoMemory();
        return ERR;
    }
    Py_ssize_t c = 0;
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *set = PyList_GET_ITEM(steps, s);
        t->set_start[s] = c;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(set); j++, c++) {
            PyObject *step = PyTuple_GET_ITEM(set, j);
            if (!PyTuple_CheckExact(step) || PyTuple_GET_SIZE(step) != 4) return NOFIT;
            int r = to_u128(PyTuple_GET_ITEM(step, 0), &t->st_inc[c]);
            if (r == FIT) r = to_i64(PyTuple_GET_ITEM(step, 1), &t->st_t[c]);
            if (r == FIT) r = to_i64(PyTuple_GET_ITEM(step, 2), &t->st_w[c]);
            if (r != FIT) return r;
            if (t->st_t[c] < 0 || t->st_t[c] >= t->stride) return NOFIT;
            t->st_cap[c] = PyTuple_GET_ITEM(step, 3);
            if ((r = to_i64(t->st_cap[c], &t->st_capv[c])) != FIT) return r;
        }
    }
    t->set_start[n] = c;
    return FIT;
}

/* Tail.gidx: per need (stride of them), size entries. */
static int read_gidx(tail_t *t, PyObject *gidx) {
    if (!PyList_CheckExact(gidx) || PyList_GET_SIZE(gidx) < 1) return NOFIT;
    Py_ssize_t size = t->size;
    t->stride = PyList_GET_SIZE(gidx);
    t->gidx = PyMem_Calloc((size_t)(t->stride * size) + 1, sizeof(int64_t));
    if (t->gidx == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    for (Py_ssize_t n = 0; n < t->stride; n++) {
        PyObject *row = PyList_GET_ITEM(gidx, n);
        if (!PyList_CheckExact(row) || PyList_GET_SIZE(row) != size) return NOFIT;
        for (Py_ssize_t e = 0; e < size; e++) {
            int64_t *x = &t->gidx[n * size + e];
            int r = to_i64(PyList_GET_ITEM(row, e), x);
            if (r != FIT) return r;
            if (*x < 0) return NOFIT;
        }
    }
    return FIT;
}

/* Group 2 + w's rows at counts h: their entry (Tail._scaled(g, h) called on the first visit of
 * the group's counts, as Tail.ss_of does).  FIT (*out), NOFIT or ERR. */
static int scaled_entry(tail_t *t, int w, u128 h, Py_ssize_t *out) {
    int fresh;
    Py_ssize_t e = map_add(&t->sc[w], h & t->gmask[w], &fresh);
    if (e < 0) return ERR;
    *out = e;
    if (!fresh) return FIT;
    size_t c1 = t->cap_sc[w], c2 = t->cap_sc[w], c3 = t->cap_sc[w];
    if (grow((void **)&t->sc_common[w], &c1, (size_t)e + 1, sizeof(int64_t)) < 0 ||
        grow((void **)&t->sc_sid[w], &c2, (size_t)e + 1, sizeof(int64_t)) < 0 ||
        grow((void **)&t->sc_rows[w], &c3, (size_t)e + 1, sizeof(PyObject *)) < 0)
        return ERR;
    t->cap_sc[w] = c1;
    t->sc_rows[w][e] = NULL;
    PyObject *g = PyLong_FromLong(2 + w), *h_o = from_u128(h), *hit = NULL;
    if (g != NULL && h_o != NULL) hit = PyObject_CallFunctionObjArgs(t->scaled_fn, g, h_o, NULL);
    Py_XDECREF(g);
    Py_XDECREF(h_o);
    if (hit == NULL) return ERR;
    int r = PyTuple_CheckExact(hit) && PyTuple_GET_SIZE(hit) == 3 ? FIT : NOFIT;
    if (r == FIT) r = to_i64(PyTuple_GET_ITEM(hit, 0), &t->sc_common[w][e]);
    if (r == FIT) r = to_i64(PyTuple_GET_ITEM(hit, 1), &t->sc_sid[w][e]);
    if (r == FIT && t->sc_sid[w][e] < 0) r = NOFIT;
    if (r == FIT) t->sc_rows[w][e] = Py_NewRef(PyTuple_GET_ITEM(hit, 2));
    Py_DECREF(hit);
    return r;
}

/* The suffix sums of the shapes (ip, iq) for need cap at least: their entry (Tail._suffixes(2, p,
 * q, cap) called when new or summed for a smaller need, as Tail.ss_of does).  FIT, NOFIT, ERR. */
static int ss_entry(tail_t *t, Py_ssize_t ep, Py_ssize_t eq, int64_t capv, PyObject *cap, int64_t *out) {
    int fresh;
    u128 key = ((u128)(uint64_t)t->sc_sid[0][ep] << 64) | (uint64_t)t->sc_sid[1][eq];
    Py_ssize_t e = map_add(&t->ssids, key, &fresh);
    if (e < 0) return ERR;
    *out = e;
    if (fresh) {
        size_t c1 = t->cap_ss, c2 = t->cap_ss, c3 = t->cap_ss;
        if (grow((void **)&t->ss_t, &c1, (size_t)e + 1, sizeof(int64_t)) < 0 ||
            grow((void **)&t->ss_v, &c2, (size_t)e + 1, sizeof(int64_t *)) < 0 ||
            grow((void **)&t->ss_len, &c3, (size_t)e + 1, sizeof(Py_ssize_t)) < 0)
            return ERR;
        t->cap_ss = c1;
        t->ss_v[e] = NULL;
        t->ss_t[e] = -1;
        t->ss_len[e] = 0;
    } else if (t->ss_t[e] >= capv) {
        return FIT;
    }
    PyObject *two = PyLong_FromLong(2), *hit = NULL;
    if (two != NULL)
        hit = PyObject_CallFunctionObjArgs(t->suffixes_fn, two, t->sc_rows[0][ep], t->sc_rows[1][eq], cap, NULL);
    Py_XDECREF(two);
    if (hit == NULL) return ERR;
    int64_t tdone;
    int r = PyTuple_CheckExact(hit) && PyTuple_GET_SIZE(hit) == 2 ? FIT : NOFIT;
    if (r == FIT) r = to_i64(PyTuple_GET_ITEM(hit, 0), &tdone);
    PyObject *sums = r == FIT ? PyTuple_GET_ITEM(hit, 1) : NULL;
    if (r == FIT && !PyTuple_CheckExact(sums)) r = NOFIT;
    if (r == FIT) {
        Py_ssize_t n = PyTuple_GET_SIZE(sums);
        int64_t *v = PyMem_Realloc(t->ss_v[e], ((size_t)n + 1) * sizeof(int64_t));
        if (v == NULL) {
            PyErr_NoMemory();
            r = ERR;
        } else {
            t->ss_v[e] = v;
            t->ss_len[e] = 0;
            r = read_vector(sums, n, v);
            if (r == FIT) {
                t->ss_len[e] = n;
                t->ss_t[e] = tdone;
            }
        }
    }
    Py_DECREF(hit);
    return r;
}

/* The high half at counts h summed for need tn at least (Tail.ss_of(2, h, cap)'s work when it is
 * not yet): its entry in halves.  FIT (*out), NOFIT or ERR. */
static int half_entry(tail_t *t, u128 h, int64_t tn, int64_t capv, PyObject *cap, Py_ssize_t *out) {
    Py_ssize_t e = map_get(&t->halves, h), ep, eq;
    if (e >= 0 && t->h_t[e] >= tn) {
        *out = e;
        return FIT;
    }
    int64_t sse;
    i128 f;
    int r = scaled_entry(t, 0, h, &ep);
    if (r == FIT) r = scaled_entry(t, 1, h, &eq);
    if (r == FIT) r = ss_entry(t, ep, eq, capv, cap, &sse);
    if (r != FIT) return r;
    f = (i128)t->sc_common[0][ep] * t->sc_common[1][eq];
    if (f != (int64_t)f) return NOFIT;
    if (e < 0) {
        int fresh;
        if ((e = map_add(&t->halves, h, &fresh)) < 0) return ERR;
        size_t c1 = t->cap_h, c2 = t->cap_h, c3 = t->cap_h;
        if (grow((void **)&t->h_t, &c1, (size_t)e + 1, sizeof(int64_t)) < 0 ||
            grow((void **)&t->h_f, &c2, (size_t)e + 1, sizeof(int64_t)) < 0 ||
            grow((void **)&t->h_ss, &c3, (size_t)e + 1, sizeof(int64_t)) < 0)
            return ERR;
        t->cap_h = c1;
    }
    t->h_t[e] = t->ss_t[sse];
    t->h_f[e] = (int64_t)f;
    t->h_ss[e] = sse;
    *out = e;
    return FIT;
}

/* The gathered sums (id, need tn) of suffix-sum entry sse: Tail.gathers[tn] of its sums, made once
 * per (id, need).  FIT (*out), NOFIT or ERR. */
static int gathered_entry(tail_t *t, int64_t sse, int64_t tn, int64_t *out) {
    Py_ssize_t size = t->size;
    u128 spt = (u128)sse * (u128)t->stride + (u128)tn;
    int fresh;
    Py_ssize_t e = map_add(&t->spts, spt, &fresh);
    if (e < 0) return ERR;
    if (fresh) {
        size_t c = t->cap_g;
        if (grow((void **)&t->gath, &c, (size_t)(e + 1) * (size_t)size, sizeof(int64_t)) < 0) return ERR;
        t->cap_g = c;
        const int64_t *idx = t->gidx + tn * size, *v = t->ss_v[sse];
        int64_t *g = t->gath + e * size;
        for (Py_ssize_t j = 0; j < size; j++) {
            if (idx[j] >= t->ss_len[sse]) return NOFIT;
            g[j] = v[idx[j]];
        }
    }
    *out = e;
    return FIT;
}

/* Each key's steps whose half's factor is not 0 (Tail.resolved, in the keys' order and the steps'
 * order, calling Tail.ss_of where the pure code does). */
static int resolve_keys(tail_t *t) {
    size_t nk = t->keys.used;
    t->key_step = PyMem_Calloc(nk + 2, sizeof(int64_t));
    if (t->key_step == NULL || map_init(&t->halves, 256) < 0 || map_init(&t->ssids, 64) < 0 ||
        map_init(&t->spts, 256) < 0 || map_init(&t->sc[0], 64) < 0 || map_init(&t->sc[1], 64) < 0) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return ERR;
    }
    for (size_t k = 0; k < nk; k++) {
        t->key_step[k] = (int64_t)t->n_rs;
        int64_t sid = t->sid[k];
        if (sid < 0 || sid >= t->n_sets) return NOFIT;
        u128 half = t->keys.keys[k] & t->high;
        for (int64_t s = t->set_start[sid]; s < t->set_start[sid + 1]; s++) {
            u128 h = half + t->st_inc[s];
            Py_ssize_t he;
            int64_t g;
            if (h < half) return NOFIT;
            int r = half_entry(t, h, t->st_t[s], t->st_capv[s], t->st_cap[s], &he);
            if (r != FIT) return r;
            int64_t f = t->h_f[he];
            if (!f) continue;
            if ((r = gathered_entry(t, t->h_ss[he], t->st_t[s], &g)) != FIT) return r;
            if (t->n_rs + 1 > t->cap_rs) {
                size_t c1 = t->cap_rs, c2 = t->cap_rs, c3 = t->cap_rs, c4 = t->cap_rs;
                if (grow((void **)&t->rs_j, &c1, t->n_rs + 1, sizeof(int32_t)) < 0 ||
                    grow((void **)&t->rs_g, &c2, t->n_rs + 1, sizeof(int64_t)) < 0 ||
                    grow((void **)&t->rs_f, &c3, t->n_rs + 1, sizeof(int64_t)) < 0 ||
                    grow((void **)&t->rs_fw, &c4, t->n_rs + 1, sizeof(i128)) < 0)
                    return ERR;
                t->cap_rs = c1;
            }
            t->rs_j[t->n_rs] = (int32_t)(s - t->set_start[sid]);
            t->rs_g[t->n_rs] = g;
            t->rs_f[t->n_rs] = f;
            t->rs_fw[t->n_rs] = (i128)f * t->st_w[s];
            t->n_rs++;
        }
    }
    t->key_step[nk] = (int64_t)t->n_rs;
    return FIT;
}

/* T of key k: sum over its steps of (factor times weight) times the step's gathered sums. */
static int t_vector(const tail_t *t, size_t k, i128 *out) {
    Py_ssize_t size = t->size;
    memset(out, 0, sizeof(i128) * (size_t)size);
    for (int64_t s = t->key_step[k]; s < t->key_step[k + 1]; s++) {
        const int64_t *g = t->gath + t->rs_g[s] * size;
        i128 fw = t->rs_fw[s];
        for (Py_ssize_t e = 0; e < size; e++)
            if (!mad(&out[e], fw, g[e])) return NOFIT;
    }
    return FIT;
}

/* The layer: each member source's dot product of its low flat with its key's T (high_b). */
static int member_dots(tail_t *t) {
    Py_ssize_t size = t->size;
    size_t nk = t->keys.used;
    i128 *tv = PyMem_Calloc(nk * (size_t)size + 1, sizeof(i128));
    t->high_b = PyMem_Calloc((size_t)t->n + 1, sizeof(i128));
    if (tv == NULL || t->high_b == NULL) {
        PyMem_Free(tv);
        PyErr_NoMemory();
        return ERR;
    }
    int r = FIT;
    for (size_t k = 0; k < nk && r == FIT; k++) r = t_vector(t, k, tv + k * size);
    for (Py_ssize_t i = 0; i < t->n && r == FIT; i++) {
        int32_t k = t->key_of[i], lo = t->low_of[i];
        if (k < 0) continue;
        const int64_t *f = t->flat + lo * size;
        const int32_t *nz = t->nz + lo * size;
        const i128 *v = tv + k * size;
        i128 b = 0;
        for (int32_t c = 0; c < t->n_nz[lo]; c++)
            if (!mad(&b, f[nz[c]], v[nz[c]])) {
                r = NOFIT;
                break;
            }
        t->high_b[i] = b;
    }
    PyMem_Free(tv);
    return r;
}

/* The back dict: sources with a low part first (in their order, plus their high part), then the
 * others with a high part, by key in first-seen order (the pure code's member lists). */
static PyObject *back_dict(const tail_t *t) {
    PyObject *back = PyDict_New();
    size_t nk = t->keys.used;
    Py_ssize_t *start = PyMem_Calloc(nk + 2, sizeof(Py_ssize_t));
    Py_ssize_t *order = PyMem_Calloc((size_t)t->n + 1, sizeof(Py_ssize_t));
    if (back == NULL || start == NULL || order == NULL) goto fail;
    for (Py_ssize_t i = 0; i < t->n; i++) {
        PyObject *b = t->low_b[i];
        if (b == NULL) continue;
        PyObject *v;
        if (t->key_of[i] >= 0 && t->high_b[i] != 0) {
            PyObject *h = from_i128(t->high_b[i]);
            v = h ? PyNumber_Add(h, b) : NULL;
            Py_XDECREF(h);
        } else {
            v = Py_NewRef(b);
        }
        int r = v ? SET_KEY(back, t->src[i], t->srcv[i], v) : -1;
        Py_XDECREF(v);
        if (r < 0) goto fail;
    }
    for (Py_ssize_t i = 0; i < t->n; i++)
        if (t->key_of[i] >= 0) start[t->key_of[i] + 1]++;
    for (size_t k = 0; k < nk; k++) start[k + 1] += start[k];
    for (Py_ssize_t i = 0; i < t->n; i++)
        if (t->key_of[i] >= 0) order[start[t->key_of[i]]++] = i;
    for (Py_ssize_t c = 0; c < (nk ? start[nk - 1] : 0); c++) {
        Py_ssize_t i = order[c];
        if (t->low_b[i] != NULL || t->high_b[i] == 0) continue;
        PyObject *v = from_i128(t->high_b[i]);
        int r = v ? SET_KEY(back, t->src[i], t->srcv[i], v) : -1;
        Py_XDECREF(v);
        if (r < 0) goto fail;
    }
    PyMem_Free(start);
    PyMem_Free(order);
    return back;
fail:
    Py_XDECREF(back);
    PyMem_Free(start);
    PyMem_Free(order);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
}

static int nonzero(const i128 *v, Py_ssize_t size) {
    for (Py_ssize_t e = 0; e < size; e++)
        if (v[e]) return 1;
    return 0;
}

/* The layer's high tallies: per item set (in the order their keys with sums come), per step, the
 * sum over its keys of factor * <gathered sums, key's acc>, as {sid: [int, ...]} (one per step of
 * the set).  FIT (*out), NOFIT or ERR. */
static int high_sums(const tail_t *t, PyObject **out) {
    Py_ssize_t size = t->size, n_sets = t->n_sets;
    size_t nk = t->keys.used, n_x = 0, cap_x = 0;
    int64_t *start = PyMem_Malloc(((size_t)n_sets + 1) * sizeof(int64_t));
    int64_t *len_of = PyMem_Malloc(((size_t)n_sets + 1) * sizeof(int64_t));
    int64_t *seen = PyMem_Malloc(((size_t)n_sets + 1) * sizeof(int64_t));
    i128 *x = NULL;
    int64_t n_seen = 0;
    int r = FIT;
    if (start == NULL || len_of == NULL || seen == NULL) {
        PyErr_NoMemory();
        r = ERR;
    }
    for (Py_ssize_t s = 0; s < n_sets && r == FIT; s++) start[s] = -1;
    for (size_t k = 0; k < nk && r == FIT; k++) {
        const i128 *acc = t->acc + k * size;
        if (!nonzero(acc, size)) continue;
        int64_t sid = t->sid[k];
        if (sid < 0 || sid >= n_sets) {
            r = NOFIT;
            break;
        }
        if (start[sid] < 0) {
            int64_t len = t->set_start[sid + 1] - t->set_start[sid];
            if (grow((void **)&x, &cap_x, n_x + (size_t)len + 1, sizeof(i128)) < 0) {
                r = ERR;
                break;
            }
            memset(x + n_x, 0, ((size_t)len + 1) * sizeof(i128));
            start[sid] = (int64_t)n_x;
            len_of[sid] = len;
            seen[n_seen++] = sid;
            n_x += (size_t)len;
        }
        for (int64_t s = t->key_step[k]; s < t->key_step[k + 1] && r == FIT; s++) {
            const int64_t *g = t->gath + t->rs_g[s] * size;
            int64_t jj = t->rs_j[s];
            i128 d = 0;
            if (jj >= len_of[sid]) {
                r = NOFIT;
                break;
            }
            for (Py_ssize_t e = 0; e < size && r == FIT; e++)
                if (!mad(&d, g[e], acc[e])) r = NOFIT;
            if (r == FIT && d && !mad(&x[start[sid] + jj], t->rs_f[s], d)) r = NOFIT;
        }
    }
    PyObject *dict = NULL;
    if (r == FIT && (dict = PyDict_New()) == NULL) r = ERR;
    for (int64_t c = 0; c < n_seen && r == FIT; c++) {
        int64_t sid = seen[c];
        PyObject *lst = PyList_New((Py_ssize_t)len_of[sid]);
        PyObject *key = PyLong_FromLongLong((long long)sid);
        r = lst && key ? FIT : ERR;
        for (int64_t j = 0; j < len_of[sid] && r == FIT; j++) {
            PyObject *v = from_i128(x[start[sid] + j]);
            if (v == NULL)
                r = ERR;
            else
                PyList_SET_ITEM(lst, (Py_ssize_t)j, v);
        }
        if (r == FIT && PyDict_SetItem(dict, key, lst) < 0) r = ERR;
        Py_XDECREF(lst);
        Py_XDECREF(key);
    }
    PyMem_Free(start);
    PyMem_Free(len_of);
    PyMem_Free(seen);
    PyMem_Free(x);
    if (r != FIT) Py_CLEAR(dict);
    *out = dict;
    return r;
}

/* The total alone: sum over the keys of <T, acc>.  FIT (*out), NOFIT or ERR. */
static int high_total(const tail_t *t, PyObject **out) {
    Py_ssize_t size = t->size;
    i128 *tv = PyMem_Calloc((size_t)size + 1, sizeof(i128));
    if (tv == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    i128 total = 0;
    int r = FIT;
    for (size_t k = 0; k < t->keys.used && r == FIT; k++) {
        const i128 *acc = t->acc + k * size;
        if (!nonzero(acc, size)) continue;
        if ((r = t_vector(t, k, tv)) != FIT) break;
        i128 d = 0;
        for (Py_ssize_t e = 0; e < size && r == FIT; e++)
            if (!mad(&d, tv[e], acc[e])) r = NOFIT;
        if (r == FIT && __builtin_add_overflow(total, d, &total)) r = NOFIT;
    }
    PyMem_Free(tv);
    if (r == FIT && (*out = from_i128(total)) == NULL) r = ERR;
    return r;
}

/* The body: FIT with *out, NOFIT or ERR. */
static int run(tail_t *t, PyObject *const *args, PyObject **out) {
    PyObject *states = args[0], *sig_ids = args[1], *lflats = args[5];
    PyObject *steps = args[12], *gidx = args[13];
    int64_t shift, size, count = 0;
    t->flat_fn = args[6];
    t->t_of_fn = args[7];
    t->scaled_fn = args[8];
    t->suffixes_fn = args[9];
    int r = mask_of(args[2], &t->reads);
    if (r == FIT) r = mask_of(args[3], &t->high);
    if (r == FIT) r = mask_of(args[4], &t->low);
    if (r == FIT) r = mask_of(args[10], &t->gmask[0]);
    if (r == FIT) r = mask_of(args[11], &t->gmask[1]);
    if (r == FIT) r = to_i64(args[15], &shift);
    if (r == FIT) r = to_i64(args[16], &size);
    if (r != FIT) return r;
    if (shift < 0 || shift > 96 || size < 1 || size > 4096) return NOFIT;
    t->shift = (int)shift;
    t->size = (Py_ssize_t)size;
    if ((t->layer = PyObject_IsTrue(args[14])) < 0) return ERR;
    if ((r = read_gidx(t, gidx)) != FIT) return r;
    if ((r = read_steps(t, steps)) != FIT) return r;
    if ((r = read_sigs(t, sig_ids)) != FIT) return r;
    if ((r = read_lows(t, lflats)) != FIT) return r;
    if (map_init(&t->keys, 64) < 0 || map_init(&t->lkeys, 16) < 0 || map_init(&t->hflats, 16) < 0) return ERR;
    if ((r = walk_sources(t, states, &count)) != FIT) return r;
    if ((r = resolve_keys(t)) != FIT) return r;
    PyObject *cnt = PyLong_FromLongLong((long long)count), *lows = NULL, *head = NULL, *sums = NULL;
    if (cnt == NULL) return ERR;
    if (t->layer) {
        if ((r = member_dots(t)) == FIT && (r = high_sums(t, &sums)) == FIT && (head = back_dict(t)) == NULL) r = ERR;
    } else {
        r = high_total(t, &head);
    }
    if (r == FIT && (lows = low_sums(t)) == NULL) r = ERR;
    if (r == FIT) {
        *out = t->layer ? PyTuple_Pack(4, head, sums, lows, cnt) : PyTuple_Pack(3, head, lows, cnt);
        if (*out == NULL) r = ERR;
    }
    Py_XDECREF(head);
    Py_XDECREF(sums);
    Py_XDECREF(lows);
    Py_DECREF(cnt);
    return r;
}

static PyObject *tail_bilinear(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 17) {
        PyErr_SetString(PyExc_TypeError, "tail_bilinear takes 17 positional arguments");
        return NULL;
    }
    tail_t t;
    memset(&t, 0, sizeof(t));
    PyObject *out = NULL;
    int r = run(&t, args, &out);
    tail_free(&t);
    if (r == ERR) {
        Py_XDECREF(out);
        return NULL;
    }
    if (r == NOFIT) {
        Py_XDECREF(out);
        Py_RETURN_NONE;
    }
    return out;
}

/* ------------------------------------------------------------------ a half's suffix sums */

typedef struct {
    Py_ssize_t rows, n_pairs;
    int64_t *start; /* per row its first pair (rows + 1) */
    int64_t *e, *x; /* per pair: even cards, weight */
} rows_t;

static void rows_free(rows_t *r) {
    PyMem_Free(r->start);
    PyMem_Free(r->e);
    PyMem_Free(r->x);
}

/* A group's rows (a list of lists of (even cards, weight) pairs).  FIT, NOFIT or ERR. */
static int read_rows(PyObject *o, rows_t *out) {
    memset(out, 0, sizeof(*out));
    if (!PyList_CheckExact(o)) return NOFIT;
    Py_ssize_t rows = PyList_GET_SIZE(o), pairs = 0;
    for (Py_ssize_t k = 0; k < rows; k++) {
        PyObject *row = PyList_GET_ITEM(o, k);
        if (!PyList_CheckExact(row)) return NOFIT;
        pairs += PyList_GET_SIZE(row);
    }
    out->rows = rows;
    out->n_pairs = pairs;
    out->start = PyMem_Calloc((size_t)rows + 1, sizeof(int64_t));
    out->e = PyMem_Calloc((size_t)pairs + 1, sizeof(int64_t));
    out->x = PyMem_Calloc((size_t)pairs + 1, sizeof(int64_t));
    if (out->start == NULL || out->e == NULL || out->x == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    Py_ssize_t c = 0;
    for (Py_ssize_t k = 0; k < rows; k++) {
        PyObject *row = PyList_GET_ITEM(o, k);
        out->start[k] = c;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(row); j++, c++) {
            PyObject *pair = PyList_GET_ITEM(row, j);
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) return NOFIT;
            int r = to_i64(PyTuple_GET_ITEM(pair, 0), &out->e[c]);
            if (r == FIT) r = to_i64(PyTuple_GET_ITEM(pair, 1), &out->x[c]);
            if (r != FIT) return r;
            if (out->e[c] < 0) return NOFIT;
        }
    }
    out->start[rows] = c;
    return FIT;
}

/* COMB[a][b] from the table (a list of lists of ints).  FIT, NOFIT or ERR. */
static int comb_of(PyObject *comb, int64_t a, int64_t b, int64_t *out) {
    if (a < 0 || a >= PyList_GET_SIZE(comb)) return NOFIT;
    PyObject *row = PyList_GET_ITEM(comb, a);
    if (!PyList_CheckExact(row) || b < 0 || b >= PyList_GET_SIZE(row)) return NOFIT;
    return to_i64(PyList_GET_ITEM(row, b), out);
}

/* out[base[a] + min(e + f, last[a])] += C(a, k0) (* C(n, a) for the low half) * x * y over the
 * pairs (e, x) of p's row k0 and (f, y) of q's row a - k0, a <= n (the rows' totals alone at
 * base[a] with totals): Tail.flat's and Tail._suffixes's loops.  FIT, NOFIT or ERR. */
static int convolve(const rows_t *p, const rows_t *q, int64_t n, const int64_t *base, const int64_t *last,
                    int totals, int low, PyObject *comb, i128 *out) {
    for (int64_t k0 = 0; k0 < p->rows; k0++) {
        if (p->start[k0] == p->start[k0 + 1]) continue;
        for (int64_t k1 = 0; k1 < q->rows && k0 + k1 <= n; k1++) {
            int64_t a = k0 + k1, c1, c2 = 1;
            if (q->start[k1] == q->start[k1 + 1]) continue;
            int r = comb_of(comb, a, k0, &c1);
            if (r == FIT && low) r = comb_of(comb, n, a, &c2);
            if (r != FIT) return r;
            i128 c = (i128)c1 * c2, *row = out + base[a];
            int64_t cap = last[a];
            for (int64_t i = p->start[k0]; i < p->start[k0 + 1]; i++) {
                i128 xv;
                if (__builtin_mul_overflow(c, (i128)p->x[i], &xv)) return NOFIT;
                for (int64_t j = q->start[k1]; j < q->start[k1 + 1]; j++) {
                    int64_t f = totals ? 0 : p->e[i] + q->e[j];
                    if (!mad(&row[f < cap ? f : cap], xv, q->x[j])) return NOFIT;
                }
            }
        }
    }
    return FIT;
}

/* The body of suffixes: FIT (out filled), NOFIT or ERR. */
static int suffix_sums(const rows_t *p, const rows_t *q, int64_t n, int64_t top, int totals, int low,
                       PyObject *comb, i128 *out) {
    int64_t stride = top + 1;
    int64_t *base = PyMem_Calloc((size_t)n + 1, sizeof(int64_t)), *last = PyMem_Calloc((size_t)n + 1, sizeof(int64_t));
    if (base == NULL || last == NULL) {
        PyMem_Free(base);
        PyMem_Free(last);
        PyErr_NoMemory();
        return ERR;
    }
    for (int64_t a = 0; a <= n; a++) {
        base[a] = a * stride;
        last[a] = top;
    }
    int r = convolve(p, q, n, base, last, totals, low, comb, out);
    PyMem_Free(base);
    PyMem_Free(last);
    if (r != FIT || totals) return r;
    for (int64_t a = 0; a <= n; a++) {
        i128 run = 0, *row = out + a * stride;
        for (int64_t j = top; j >= 0; j--) {
            if (__builtin_add_overflow(run, row[j], &run)) return NOFIT;
            row[j] = run;
        }
    }
    return FIT;
}

/* A tuple of the m values out[0:m] (NULL: an exception). */
static PyObject *tuple_of(const i128 *out, Py_ssize_t m) {
    PyObject *tup = PyTuple_New(m);
    for (Py_ssize_t k = 0; k < m && tup != NULL; k++) {
        PyObject *v = from_i128(out[k]);
        if (v == NULL)
            Py_CLEAR(tup);
        else
            PyTuple_SET_ITEM(tup, k, v);
    }
    return tup;
}

/* flat_rows(p, q, n, off, width, low, comb): Tail.flat's sums of the rows p and q (entry off[a] + e
 * for a cards with e even ones, e capped at width[a] - 1), as a tuple, or None when a value leaves
 * the native range. */
static PyObject *flat_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "flat_rows takes 7 positional arguments");
        return NULL;
    }
    rows_t p, q;
    int64_t n = -1;
    memset(&q, 0, sizeof(q));
    int low = PyObject_IsTrue(args[5]);
    if (low < 0) return NULL;
    int r = read_rows(args[0], &p);
    if (r == FIT) r = read_rows(args[1], &q);
    if (r == FIT) r = to_i64(args[2], &n);
    PyObject *off = args[3], *width = args[4];
    if (r == FIT && (n < 0 || n > 4096 || !PyList_CheckExact(off) || !PyList_CheckExact(width) ||
                     PyList_GET_SIZE(off) < n + 2 || PyList_GET_SIZE(width) < n + 1 || !PyList_CheckExact(args[6])))
        r = NOFIT;
    int64_t *base = NULL, *last = NULL, size = 0;
    i128 *out = NULL;
    PyObject *tup = NULL;
    if (r == FIT) {
        base = PyMem_Calloc((size_t)n + 2, sizeof(int64_t));
        last = PyMem_Calloc((size_t)n + 2, sizeof(int64_t));
        if (base == NULL || last == NULL) {
            PyErr_NoMemory();
            r = ERR;
        }
    }
    for (int64_t a = 0; a <= n + 1 && r == FIT; a++) r = to_i64(PyList_GET_ITEM(off, a), &base[a]);
    for (int64_t a = 0; a <= n && r == FIT; a++) {
        int64_t w = 0;
        r = to_i64(PyList_GET_ITEM(width, a), &w);
        if (r == FIT && (w < 1 || base[a] < 0 || base[a] + w > base[n + 1])) r = NOFIT;
        last[a] = w - 1;
    }
    if (r == FIT) {
        size = base[n + 1];
        if (size < 0 || size > (1 << 20)) r = NOFIT;
    }
    if (r == FIT && (out = PyMem_Calloc((size_t)size + 1, sizeof(i128))) == NULL) {
        PyErr_NoMemory();
        r = ERR;
    }
    if (r == FIT) r = convolve(&p, &q, n, base, last, 0, low, args[6], out);
    if (r == FIT && (tup = tuple_of(out, (Py_ssize_t)size)) == NULL) r = ERR;
    PyMem_Free(out);
    PyMem_Free(base);
    PyMem_Free(last);
    rows_free(&p);
    rows_free(&q);
    if (r == FIT) return tup;
    if (r == ERR) return NULL;
    Py_RETURN_NONE;
}

/* suffixes(p, q, n, top, t, low, comb): Tail._suffixes's sums of the rows p and q (need t: 0 for
 * the rows' totals alone), as a tuple, or None when a value leaves the native range. */
static PyObject *suffixes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "suffixes takes 7 positional arguments");
        return NULL;
    }
    rows_t p, q;
    int64_t n, top, t;
    int low = PyObject_IsTrue(args[5]);
    if (low < 0) return NULL;
    int r = read_rows(args[0], &p);
    if (r == FIT) r = read_rows(args[1], &q);
    else memset(&q, 0, sizeof(q));
    if (r == FIT) r = to_i64(args[2], &n);
    if (r == FIT) r = to_i64(args[3], &top);
    if (r == FIT) r = to_i64(args[4], &t);
    if (r == FIT && (n < 0 || top < 0 || n > 4096 || top > 4096 || !PyList_CheckExact(args[6]))) r = NOFIT;
    i128 *out = NULL;
    PyObject *tup = NULL;
    if (r == FIT) {
        out = PyMem_Calloc((size_t)((n + 1) * (top + 1)), sizeof(i128));
        if (out == NULL) {
            PyErr_NoMemory();
            r = ERR;
        }
    }
    if (r == FIT) r = suffix_sums(&p, &q, n, top, t == 0, low, args[6], out);
    if (r == FIT) {
        Py_ssize_t m = (Py_ssize_t)((n + 1) * (top + 1));
        if ((tup = PyTuple_New(m)) == NULL) r = ERR;
        for (Py_ssize_t k = 0; k < m && r == FIT; k++) {
            PyObject *v = from_i128(out[k]);
            if (v == NULL) r = ERR;
            else PyTuple_SET_ITEM(tup, k, v);
        }
    }
    PyMem_Free(out);
    rows_free(&p);
    rows_free(&q);
    if (r == FIT) return tup;
    Py_XDECREF(tup);
    if (r == ERR) return NULL;
    Py_RETURN_NONE;
}

/* distinct(states, mask): the set of src & mask over the keys of states, its items inserted in
 * the order they first come (the same set, and iteration order, as set(map(mask.__and__, states))),
 * or None when a key is not an int in [0, 2**128). */
static PyObject *distinct(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "distinct takes 2 positional arguments");
        return NULL;
    }
    PyObject *states = args[0], *out = NULL, *k, *v;
    u128 mask;
    map_t seen;
    memset(&seen, 0, sizeof(seen));
    int r = PyDict_CheckExact(states) ? mask_of(args[1], &mask) : NOFIT;
    if (r == FIT && (map_init(&seen, 64) < 0 || (out = PySet_New(NULL)) == NULL)) r = ERR;
    Py_ssize_t pos = 0;
    while (r == FIT && PyDict_Next(states, &pos, &k, &v)) {
        u128 src;
        int fresh;
        if ((r = to_u128(k, &src)) != FIT) break;
        if (map_add(&seen, src & mask, &fresh) < 0) {
            r = ERR;
            break;
        }
        if (fresh) {
            PyObject *o = from_u128(src & mask);
            if (o == NULL || PySet_Add(out, o) < 0) r = ERR;
            Py_XDECREF(o);
        }
    }
    map_free(&seen);
    if (r == FIT) return out;
    Py_XDECREF(out);
    if (r == ERR) return NULL;
    Py_RETURN_NONE;
}

static uint64_t gcd64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* scaled(rows): Tail._scaled's work on a group's rows (a list of lists of (even cards, weight)
 * pairs): (the gcd of the weights, the rows divided by it (the same list when the gcd is 0 or 1),
 * the divided rows as a tuple of tuples), or None when a weight is not an int within 64 bits. */
static PyObject *scaled(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "scaled takes 1 positional argument");
        return NULL;
    }
    PyObject *rows = args[0];
    if (!PyList_CheckExact(rows)) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(rows);
    uint64_t common = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *row = PyList_GET_ITEM(rows, k);
        if (!PyList_CheckExact(row)) Py_RETURN_NONE;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(row); j++) {
            PyObject *pair = PyList_GET_ITEM(row, j);
            int64_t x;
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) Py_RETURN_NONE;
            int r = to_i64(PyTuple_GET_ITEM(pair, 1), &x);
            if (r == ERR) return NULL;
            if (r == NOFIT || x == INT64_MIN) Py_RETURN_NONE;
            common = gcd64(common, (uint64_t)(x < 0 ? -x : x));
        }
    }
    PyObject *out_rows = common > 1 ? PyList_New(n) : Py_NewRef(rows), *shape = PyTuple_New(n);
    int ok = out_rows != NULL && shape != NULL;
    for (Py_ssize_t k = 0; k < n && ok; k++) {
        PyObject *row = PyList_GET_ITEM(rows, k), *new_row = row;
        Py_ssize_t m = PyList_GET_SIZE(row);
        if (common > 1) {
            new_row = PyList_New(m);
            for (Py_ssize_t j = 0; j < m && new_row != NULL; j++) {
                PyObject *pair = PyList_GET_ITEM(row, j);
                int64_t x = PyLong_AsLongLong(PyTuple_GET_ITEM(pair, 1)); /* (read above: fits) */
                PyObject *xo = PyLong_FromLongLong((long long)(x / (int64_t)common));
                PyObject *np = xo ? PyTuple_Pack(2, PyTuple_GET_ITEM(pair, 0), xo) : NULL;
                Py_XDECREF(xo);
                if (np == NULL) Py_CLEAR(new_row);
                else PyList_SET_ITEM(new_row, j, np);
            }
            if (new_row == NULL) {
                ok = 0;
                break;
            }
            PyList_SET_ITEM(out_rows, k, new_row); /* steals */
        }
        PyObject *tup = PyList_AsTuple(new_row);
        if (tup == NULL) ok = 0;
        else PyTuple_SET_ITEM(shape, k, tup);
    }
    PyObject *result = NULL, *c = ok ? PyLong_FromUnsignedLongLong((unsigned long long)common) : NULL;
    if (c != NULL) result = PyTuple_Pack(3, c, out_rows, shape);
    Py_XDECREF(c);
    Py_XDECREF(out_rows);
    Py_XDECREF(shape);
    return result;
}

/* nonzero_pairs(rows): [[(e, x) for e, x in enumerate(row) if x] for row in rows] for rows a tuple
 * or list of tuples or lists (Tail._poly), the x objects themselves; None for other containers. */
static PyObject *nonzero_pairs(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "nonzero_pairs takes 1 positional argument");
        return NULL;
    }
    PyObject *rows = args[0];
    if (!PyTuple_CheckExact(rows) && !PyList_CheckExact(rows)) Py_RETURN_NONE;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(rows);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *row = PySequence_Fast_GET_ITEM(rows, k);
        if (!PyTuple_CheckExact(row) && !PyList_CheckExact(row)) Py_RETURN_NONE;
    }
    PyObject *out = PyList_New(n);
    for (Py_ssize_t k = 0; k < n && out != NULL; k++) {
        PyObject *row = PySequence_Fast_GET_ITEM(rows, k), *pairs = PyList_New(0);
        if (pairs == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, k, pairs);
        for (Py_ssize_t e = 0; e < PySequence_Fast_GET_SIZE(row); e++) {
            PyObject *x = PySequence_Fast_GET_ITEM(row, e);
            int truth = PyObject_IsTrue(x);
            PyObject *eo = truth > 0 ? PyLong_FromSsize_t(e) : NULL;
            PyObject *pair = eo ? PyTuple_Pack(2, eo, x) : NULL;
            Py_XDECREF(eo);
            if (truth < 0 || (truth > 0 && (pair == NULL || PyList_Append(pairs, pair) < 0))) {
                Py_XDECREF(pair);
                Py_CLEAR(out);
                break;
            }
            Py_XDECREF(pair);
        }
    }
    return out;
}

static PyMethodDef METHODS[] = {
    {"tail_bilinear", (PyCFunction)(void (*)(void))tail_bilinear, METH_FASTCALL,
     "tail_bilinear(states, sig_ids, reads, high, low, lflats, flat, t_of, scaled, suffixes, mask2, "
     "mask3, steps, gidx, layer, shift, size): the last layer's per-source and per-key sums (see tail_sums); None when a value "
     "leaves the native range."},
    {"distinct", (PyCFunction)(void (*)(void))distinct, METH_FASTCALL,
     "distinct(states, mask): set(map(mask.__and__, states)), or None past 128-bit keys."},
    {"nonzero_pairs", (PyCFunction)(void (*)(void))nonzero_pairs, METH_FASTCALL,
     "nonzero_pairs(rows): each row's nonzero (index, value) pairs, or None for other containers."},
    {"scaled", (PyCFunction)(void (*)(void))scaled, METH_FASTCALL,
     "scaled(rows): (gcd, rows divided by it, their tuple of tuples), or None past 64-bit weights."},
    {"flat_rows", (PyCFunction)(void (*)(void))flat_rows, METH_FASTCALL,
     "flat_rows(p, q, n, off, width, low, comb): a half's flat (Tail.flat); None when a value leaves "
     "the native range."},
    {"suffixes", (PyCFunction)(void (*)(void))suffixes, METH_FASTCALL,
     "suffixes(p, q, n, top, t, low, comb): a half's suffix sums (Tail._suffixes); None when a value "
     "leaves the native range."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_tail", "The last layer's closed-form sums on native integers (tail_sums).", -1,
    METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__tail(void) { return PyModule_Create(&MODULE); }
