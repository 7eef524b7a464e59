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

/* o as an unsigned 128-bit key: FIT, NOFIT (negative, too large, not an int) or ERR. */
static int to_u128(PyObject *o, u128 *out) {
    if (!PyLong_CheckExact(o)) return NOFIT;
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
    int32_t *key_of;  /* per source: its key, or -1 */
    int32_t *low_of;  /* per source: its low flat */
    PyObject **low_b; /* per source: what its low half gave (held, NULL: 0 or none) */
    i128 *high_b;
    /* keys (item set, high half) */
    map_t keys;
    size_t cap_keys;
    i128 *acc;        /* per key: size entries */
    int64_t *sid;
    PyObject **res;   /* per key: its resolved steps (held) */
    /* gathered suffix sums */
    map_t spts;
    int64_t *gath;
} tail_t;

static void tail_free(tail_t *t) {
    map_free(&t->sigs);
    PyMem_Free(t->sig_lo);
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
    PyMem_Free(t->key_of);
    PyMem_Free(t->low_of);
    PyMem_Free(t->low_b);
    PyMem_Free(t->high_b);
    if (t->res != NULL)
        for (size_t k = 0; k < t->keys.used; k++) Py_XDECREF(t->res[k]);
    map_free(&t->keys);
    PyMem_Free(t->acc);
    PyMem_Free(t->sid);
    PyMem_Free(t->res);
    map_free(&t->spts);
    PyMem_Free(t->gath);
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

/* One source: its key and low flat, its weight times that flat added to its key, its low-half
 * part called.  FIT, NOFIT or ERR. */
static int one_source(tail_t *t, Py_ssize_t i, PyObject *src_o, PyObject *w_o, PyObject *low_part,
                      int64_t *count) {
    u128 src;
    int64_t w;
    int r = to_u128(src_o, &src);
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
    if (t->sig_lo[s] != NULL) {
        PyObject *b = PyObject_CallFunctionObjArgs(low_part, src_o, w_o, t->sig_lo[s], NULL);
        if (b == NULL) return ERR;
        int truth = t->layer ? PyObject_IsTrue(b) : 0;
        if (truth < 0) {
            Py_DECREF(b);
            return ERR;
        }
        if (truth)
            t->low_b[i] = b;
        else
            Py_DECREF(b);
    }
    return FIT;
}

static int walk_sources(tail_t *t, PyObject *states, PyObject *low_part, int64_t *count) {
    if (!PyDict_CheckExact(states)) return NOFIT;
    Py_ssize_t n = PyDict_GET_SIZE(states), pos = 0;
    t->src = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    t->low_b = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    t->key_of = PyMem_Calloc((size_t)n + 1, sizeof(int32_t));
    t->low_of = PyMem_Calloc((size_t)n + 1, sizeof(int32_t));
    if (t->src == NULL || t->low_b == NULL || t->key_of == NULL || t->low_of == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    PyObject *k, *v;
    for (Py_ssize_t i = 0; PyDict_Next(states, &pos, &k, &v); i++) {
        if (i >= n) return NOFIT; /* (a callback grew the dict) */
        t->src[i] = Py_NewRef(k);
        t->n = i + 1;
        Py_INCREF(v);
        int r = one_source(t, i, k, v, low_part, count);
        Py_DECREF(v);
        if (r != FIT) return r;
    }
    return t->n == n ? FIT : NOFIT;
}

/* Each key's resolved steps (resolved(key), in the keys' order), then the gathered suffix sums
 * they name. */
static int resolve_keys(tail_t *t, PyObject *resolved, PyObject *gathered) {
    size_t nk = t->keys.used;
    t->res = PyMem_Calloc(nk + 1, sizeof(PyObject *));
    if (t->res == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    for (size_t k = 0; k < nk; k++) {
        PyObject *key = from_u128(t->keys.keys[k]);
        if (key == NULL) return ERR;
        PyObject *res = PyObject_CallOneArg(resolved, key);
        Py_DECREF(key);
        if (res == NULL) return ERR;
        t->res[k] = res;
        if (!PyTuple_CheckExact(res) || PyTuple_GET_SIZE(res) != 4) return NOFIT;
        Py_ssize_t m = PyTuple_GET_SIZE(PyTuple_GET_ITEM(res, 0));
        for (int j = 0; j < 4; j++) {
            PyObject *part = PyTuple_GET_ITEM(res, j);
            if (!PyTuple_CheckExact(part) || PyTuple_GET_SIZE(part) != m) return NOFIT;
        }
    }
    if (!PyDict_CheckExact(gathered)) return NOFIT;
    Py_ssize_t n = PyDict_GET_SIZE(gathered), pos = 0, size = t->size;
    PyObject *k, *v;
    if (map_init(&t->spts, (size_t)n) < 0) return ERR;
    t->gath = PyMem_Calloc((size_t)(n * size) + 1, sizeof(int64_t));
    if (t->gath == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    while (PyDict_Next(gathered, &pos, &k, &v)) {
        u128 spt;
        int fresh, r = to_u128(k, &spt);
        if (r != FIT) return r;
        Py_ssize_t e = map_add(&t->spts, spt, &fresh);
        if (e < 0) return ERR;
        if ((r = read_vector(v, size, t->gath + e * size)) != FIT) return r;
    }
    return FIT;
}

/* Step j of a key: its gathered sums, and its item int (index, factor or factor times weight). */
static int step_of(const tail_t *t, PyObject *res, Py_ssize_t j, const int64_t **g) {
    u128 spt;
    int r = to_u128(PyTuple_GET_ITEM(PyTuple_GET_ITEM(res, 1), j), &spt);
    if (r != FIT) return r;
    Py_ssize_t e = map_get(&t->spts, spt);
    if (e < 0) return NOFIT;
    *g = t->gath + e * t->size;
    return FIT;
}

/* T of key k: sum over its steps of (factor times weight) times the step's gathered sums. */
static int t_vector(const tail_t *t, size_t k, i128 *out) {
    Py_ssize_t size = t->size;
    PyObject *res = t->res[k], *fws = PyTuple_GET_ITEM(res, 3);
    memset(out, 0, sizeof(i128) * (size_t)size);
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(fws); j++) {
        const int64_t *g;
        int64_t fw;
        int r = step_of(t, res, j, &g);
        if (r == FIT) r = to_i64(PyTuple_GET_ITEM(fws, j), &fw);
        if (r != FIT) return r;
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
        int r = v ? PyDict_SetItem(back, t->src[i], v) : -1;
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
        int r = v ? PyDict_SetItem(back, t->src[i], v) : -1;
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
 * sum over its keys of factor * <gathered sums, key's acc>, as {sid: [int, ...]} (lengths[sid]
 * entries).  FIT (*out), NOFIT or ERR. */
static int high_sums(const tail_t *t, PyObject *lengths, PyObject **out) {
    Py_ssize_t size = t->size, n_sets = PyList_GET_SIZE(lengths);
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
            int64_t len;
            if ((r = to_i64(PyList_GET_ITEM(lengths, sid), &len)) != FIT) break;
            if (len < 0) {
                r = NOFIT;
                break;
            }
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
        PyObject *res = t->res[k], *js = PyTuple_GET_ITEM(res, 0), *fs = PyTuple_GET_ITEM(res, 2);
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(js) && r == FIT; j++) {
            const int64_t *g;
            int64_t jj, f;
            i128 d = 0;
            if ((r = step_of(t, res, j, &g)) != FIT) break;
            if ((r = to_i64(PyTuple_GET_ITEM(js, j), &jj)) != FIT) break;
            if ((r = to_i64(PyTuple_GET_ITEM(fs, j), &f)) != FIT) break;
            if (jj < 0 || jj >= len_of[sid]) {
                r = NOFIT;
                break;
            }
            for (Py_ssize_t e = 0; e < size && r == FIT; e++)
                if (!mad(&d, g[e], acc[e])) r = NOFIT;
            if (r == FIT && d && !mad(&x[start[sid] + jj], f, d)) r = NOFIT;
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
    PyObject *states = args[0], *sig_ids = args[1], *lflats = args[5], *low_part = args[6];
    PyObject *resolved = args[7], *gathered = args[8], *lengths = args[9];
    int64_t shift, size, count = 0;
    int r = mask_of(args[2], &t->reads);
    if (r == FIT) r = mask_of(args[3], &t->high);
    if (r == FIT) r = mask_of(args[4], &t->low);
    if (r == FIT) r = to_i64(args[10], &shift);
    if (r == FIT) r = to_i64(args[11], &size);
    if (r != FIT) return r;
    if (shift < 0 || shift > 96 || size < 1 || size > 4096) return NOFIT;
    if (lengths != Py_None && !PyList_CheckExact(lengths)) return NOFIT;
    t->shift = (int)shift;
    t->size = (Py_ssize_t)size;
    t->layer = lengths != Py_None;
    if ((r = read_sigs(t, sig_ids)) != FIT) return r;
    if ((r = read_lows(t, lflats)) != FIT) return r;
    if (map_init(&t->keys, 64) < 0) return ERR;
    if ((r = walk_sources(t, states, low_part, &count)) != FIT) return r;
    if ((r = resolve_keys(t, resolved, gathered)) != FIT) return r;
    PyObject *cnt = PyLong_FromLongLong((long long)count);
    if (cnt == NULL) return ERR;
    if (t->layer) {
        PyObject *sums = NULL, *back = NULL;
        if ((r = member_dots(t)) == FIT && (r = high_sums(t, lengths, &sums)) == FIT) {
            back = back_dict(t);
            if (back == NULL) r = ERR;
        }
        if (r == FIT) *out = PyTuple_Pack(3, back, sums, cnt);
        Py_XDECREF(back);
        Py_XDECREF(sums);
        if (r == FIT && *out == NULL) r = ERR;
    } else {
        PyObject *total = NULL;
        if ((r = high_total(t, &total)) == FIT && (*out = PyTuple_Pack(2, total, cnt)) == NULL) r = ERR;
        Py_XDECREF(total);
    }
    Py_DECREF(cnt);
    return r;
}

static PyObject *tail_bilinear(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "tail_bilinear takes 12 positional arguments");
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

static PyMethodDef METHODS[] = {
    {"tail_bilinear", (PyCFunction)(void (*)(void))tail_bilinear, METH_FASTCALL,
     "tail_bilinear(states, sig_ids, reads, high, low, lflats, low_part, resolved, gathered, lengths, "
     "shift, size): the last layer's per-source and per-key sums (see tail_sums); None when a value "
     "leaves the native range."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_tail", "The last layer's closed-form sums on native integers (tail_sums).", -1,
    METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__tail(void) { return PyModule_Create(&MODULE); }
