/* The belief's edge loops on native integers: gamelib.fugitive.belief.kernel's push, pull and
 * pull_tally.
 *
 * Why: per edge the pure-Python loops spend most of their time allocating, hashing and adding
 * big ints (a state is ~103 bits); the same loop through the C API on those ints gains 1.45x
 * only.  Here a state is an unsigned __int128, the destinations live in an own open-addressing
 * table that remembers the order they were first reached, and Python ints are made once per
 * destination at the end.  A weight is a signed __int128 while it fits: a product or a sum that
 * would overflow (or a weight that does not fit, e.g. the card locations' packed sums) is added
 * on Python ints instead, in C (exact: int addition is associative, only the value is kept).
 *
 * Exactness: the results are those of the pure functions (kernel.push_pure, ...): the same ints,
 * the same dict order, the same memo entries (a missing signature is filled by calling
 * ``miss(sig)``, in the same order).  What the native loop cannot take (a key or a destination
 * outside [0, 2**128), a delta outside [-2**127, 2**127), a value that is not an int, a move that
 * is not a tuple, a container of another type) makes the call run the pure function instead, from
 * the start: nothing is half-applied (the memo entries a miss made are kept: the pure loop finds
 * them, as it would have made them).  Exceptions raised by ``miss`` propagate.
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

static PyObject *ALL128;    /* 2**128 - 1: a mask is read modulo 2**128 */
static PyObject *PUSH_PURE; /* the pure functions, run when something does not fit */
static PyObject *PULL_PURE;
static PyObject *TALLY_PURE;
static int ENABLED = 1;

/* ------------------------------------------------------------------ ints <-> native */

static inline int exact_int(PyObject *o) { return PyLong_CheckExact(o) || PyBool_Check(o); }

/* CPython 3.11-3.13 (with the GIL): an int's digits are read and written directly, which costs a
 * fraction of the byte-array conversions (a key is read and a destination made per state); any
 * other build takes the public conversions below. */
#if !defined(Py_LIMITED_API) && !defined(Py_GIL_DISABLED) && !defined(KERNEL_NO_DIGITS) && \
    PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000
#define DIGITS 1
#if PY_VERSION_HEX >= 0x030C0000
static inline Py_ssize_t n_digits(PyLongObject *v) { return (Py_ssize_t)(v->long_value.lv_tag >> 3); }
static inline int is_negative(PyLongObject *v) { return (v->long_value.lv_tag & 3) == 2; }
static inline digit *digits_of(PyLongObject *v) { return v->long_value.ob_digit; }
static inline void set_negative(PyLongObject *v, Py_ssize_t n) { v->long_value.lv_tag = ((uintptr_t)n << 3) | 2; }
#else
static inline Py_ssize_t n_digits(PyLongObject *v) { return Py_SIZE(v) < 0 ? -Py_SIZE(v) : Py_SIZE(v); }
static inline int is_negative(PyLongObject *v) { return Py_SIZE(v) < 0; }
static inline digit *digits_of(PyLongObject *v) { return v->ob_digit; }
static inline void set_negative(PyLongObject *v, Py_ssize_t n) { Py_SET_SIZE(v, -n); }
#endif

/* |o| into *mag and its sign into *neg: 1, or 0 if |o| >= 2**128. */
static inline int read_digits(PyObject *o, u128 *mag, int *neg) {
    PyLongObject *v = (PyLongObject *)o;
    Py_ssize_t n = n_digits(v);
    const digit *d = digits_of(v);
    u128 r = 0;
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        if (r >> (128 - PyLong_SHIFT)) return 0;
        r = (r << PyLong_SHIFT) | d[i];
    }
    *mag = r;
    *neg = is_negative(v);
    return 1;
}

/* A new int of magnitude mag (>= 2**64) and sign neg. */
static PyObject *write_digits(u128 mag, int neg) {
    Py_ssize_t n = 0;
    for (u128 m = mag; m; m >>= PyLong_SHIFT) n++;
    PyLongObject *v = _PyLong_New(n);
    if (v == NULL) return NULL;
    digit *d = digits_of(v);
    for (Py_ssize_t i = 0; i < n; i++, mag >>= PyLong_SHIFT) d[i] = (digit)(mag & PyLong_MASK);
    if (neg) set_negative(v, n);
    return (PyObject *)v;
}
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
    if (!exact_int(o)) return NOFIT;
#ifdef DIGITS
    int neg;
    return read_digits(o, out, &neg) && !neg ? FIT : NOFIT;
#elif PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(
        o, out, 16,
        Py_ASNATIVEBYTES_NATIVE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
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

/* o as a signed 128-bit weight or delta: FIT, NOFIT or ERR. */
static int to_i128(PyObject *o, i128 *out) {
    if (!exact_int(o)) return NOFIT;
#ifdef DIGITS
    u128 mag;
    int neg;
    if (!read_digits(o, &mag, &neg) || mag > ((u128)1 << 127) - !neg) return NOFIT;
    *out = neg ? (i128)(~mag + 1) : (i128)mag;
    return FIT;
#else
    int overflow;
    long long small = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) {
        if (small == -1 && PyErr_Occurred()) return ERR;
        *out = small;
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
#endif
}

static PyObject *from_u128(u128 v) {
    if (v <= (u128)UINT64_MAX) return PyLong_FromUnsignedLongLong((unsigned long long)v);
#ifdef DIGITS
    return write_digits(v, 0);
#elif PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(&v, 16, Py_ASNATIVEBYTES_NATIVE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)&v, 16, PY_LITTLE_ENDIAN, 0);
#endif
}

static PyObject *from_i128(i128 v) {
    if (v >= INT64_MIN && v <= INT64_MAX) return PyLong_FromLongLong((long long)v);
#ifdef DIGITS
    return write_digits(v < 0 ? ~(u128)v + 1 : (u128)v, v < 0);
#elif PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromNativeBytes(&v, 16, Py_ASNATIVEBYTES_NATIVE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)&v, 16, PY_LITTLE_ENDIAN, 1);
#endif
}

/* A mask (reads, keep) modulo 2**128: a key is below 2**128, so only those bits of a mask (two's
 * complement for a negative one, e.g. ~reads) touch it. */
static int mask_u128(PyObject *o, u128 *out) {
    if (!exact_int(o)) return NOFIT;
#ifdef DIGITS
    u128 mag;
    int neg;
    if (read_digits(o, &mag, &neg)) {
        *out = neg ? ~mag + 1 : mag;
        return FIT;
    }
#endif
    PyObject *low = PyNumber_And(o, ALL128);
    if (low == NULL) return ERR;
    int r = to_u128(low, out);
    Py_DECREF(low);
    return r;
}

/* *n += x * y natively: 1, or 0 if the product or the sum would overflow (*n unchanged). */
static inline int native_mul_add(i128 *n, i128 x, i128 y) {
    i128 p, sum;
    if (x == (int64_t)x && y == (int64_t)y)
        p = x * y; /* both within 64 bits: the product fits */
    else if (__builtin_mul_overflow(x, y, &p))
        return 0;
    if (__builtin_add_overflow(*n, p, &sum)) return 0;
    *n = sum;
    return 1;
}

/* *w += p on Python ints (*w NULL is 0); steals p.  0, or -1 with an exception. */
static int wide_add(PyObject **w, PyObject *p) {
    if (p == NULL) return -1;
    if (*w == NULL) {
        *w = p;
        return 0;
    }
    PyObject *sum = PyNumber_Add(*w, p);
    Py_DECREF(p);
    if (sum == NULL) return -1;
    Py_SETREF(*w, sum);
    return 0;
}

/* *w += x * y on Python ints, x being xo if not NULL, else xn (y likewise). */
static int wide_mul_add(PyObject **w, i128 xn, PyObject *xo, i128 yn, PyObject *yo) {
    if (xo != NULL && yo == NULL && yn == 1) return wide_add(w, Py_NewRef(xo)); /* unit weights */
    if (yo != NULL && xo == NULL && xn == 1) return wide_add(w, Py_NewRef(yo));
    PyObject *x = xo ? Py_NewRef(xo) : from_i128(xn);
    PyObject *y = yo ? Py_NewRef(yo) : from_i128(yn);
    PyObject *p = x && y ? PyNumber_Multiply(x, y) : NULL;
    Py_XDECREF(x);
    Py_XDECREF(y);
    return wide_add(w, p);
}

/* The value n + w (w NULL is 0) as a new int. */
static PyObject *value_of(i128 n, PyObject *w) {
    if (w == NULL) return from_i128(n);
    if (n == 0) return Py_NewRef(w);
    PyObject *low = from_i128(n);
    if (low == NULL) return NULL;
    PyObject *sum = PyNumber_Add(w, low);
    Py_DECREF(low);
    return sum;
}

/* ------------------------------------------------------------------ wide sums without allocation */

#ifdef DIGITS
/* A wide sum (the card locations' packed sums: ~900 bits) kept as signed 128-bit lanes over the
 * ints' own digits: a term x * y adds its digit products to the lanes (lanes_mul_add: no lane
 * can overflow in fewer than 2**30 terms), with no allocation; carries are settled, and one int
 * made, when the sum is read. */
typedef struct {
    i128 *lane;
    Py_ssize_t n, cap; /* lanes in use, allocated */
} lanes_t;

typedef struct {
    int neg;
    const digit *d;
    Py_ssize_t n;
    digit buf[(128 + PyLong_SHIFT - 1) / PyLong_SHIFT + 1];
} operand_t;

static inline void operand_native(operand_t *o, i128 v) {
    u128 mag = v < 0 ? ~(u128)v + 1 : (u128)v;
    o->neg = v < 0;
    o->n = 0;
    for (; mag; mag >>= PyLong_SHIFT) o->buf[o->n++] = (digit)(mag & PyLong_MASK);
    o->d = o->buf;
}

/* o is xo (an int) if not NULL, else the native xn. */
static inline void operand_of(operand_t *o, i128 xn, PyObject *xo) {
    if (xo == NULL) {
        operand_native(o, xn);
        return;
    }
    PyLongObject *v = (PyLongObject *)xo;
    o->neg = is_negative(v);
    o->n = n_digits(v);
    o->d = digits_of(v);
}

static int lanes_reserve(lanes_t *a, Py_ssize_t n) {
    if (n <= a->cap) return 0;
    Py_ssize_t cap = a->cap ? 2 * a->cap : 64;
    while (cap < n) cap *= 2;
    i128 *lane = PyMem_Realloc(a->lane, (size_t)cap * sizeof(i128));
    if (lane == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(lane + a->cap, 0, (size_t)(cap - a->cap) * sizeof(i128));
    a->lane = lane;
    a->cap = cap;
    return 0;
}

/* Digit products the lanes took (each a 30-bit digit times a 60-bit pair of digits): a count the
 * tests read (lane_products), so that the pairing below is seen to run. */
static unsigned long long LANE_PRODUCTS;

/* a += x * y.  0, or -1 (MemoryError).  The shorter operand is read two digits at a time (a
 * 60-bit chunk c at digit 2k): lane[i + 2k] += d[i] * c, a product under 2**90 (one 64x64->128
 * multiply; a term adds under (n / 2 + 1) * 2**90 to a lane, n the shorter operand's digits, so a
 * lane takes 2**30 terms of 2**3000-bit operands before it could overflow), and a 12-digit weight
 * times a 30-digit share sum (the card locations' closing pairs) is 180 products, not 360.  The
 * lanes stay at the digits' positions: lanes_value settles any lane below 2**127 exactly. */
static int lanes_mul_add(lanes_t *a, const operand_t *x, const operand_t *y) {
    if (x->n == 0 || y->n == 0) return 0;
    if (x->n < y->n) {
        const operand_t *t = x;
        x = y;
        y = t;
    }
    if (lanes_reserve(a, x->n + y->n + 1) < 0) return -1;
    int neg = x->neg ^ y->neg;
    for (Py_ssize_t k = 0; k < y->n; k += 2) {
        int64_t c = (int64_t)y->d[k];
        if (k + 1 < y->n) c |= (int64_t)y->d[k + 1] << PyLong_SHIFT;
        if (neg) c = -c;
        i128 *lane = a->lane + k;
        for (Py_ssize_t i = 0; i < x->n; i++) lane[i] += (i128)c * (int64_t)x->d[i];
    }
    LANE_PRODUCTS += (unsigned long long)(x->n * ((y->n + 1) / 2));
    if (x->n + y->n > a->n) a->n = x->n + y->n;
    return 0;
}

/* The sum as a new int (NULL: MemoryError); the lanes are left at 0. */
static PyObject *lanes_value(lanes_t *a) {
    i128 carry = 0;
    Py_ssize_t n = a->n;
    for (Py_ssize_t i = 0; i < n; i++) {
        i128 v = a->lane[i] + carry;
        a->lane[i] = v & PyLong_MASK;
        carry = v >> PyLong_SHIFT; /* floor: arithmetic shift */
    }
    while (carry != 0 && carry != -1) { /* (lanes_reserve left room for one more; more is rare) */
        if (lanes_reserve(a, n + 1) < 0) return NULL;
        a->lane[n++] = carry & PyLong_MASK;
        carry >>= PyLong_SHIFT;
    }
    int neg = carry == -1; /* the value is sum(lane) - 2**(SHIFT * n): its magnitude is the complement */
    i128 borrow = 1;
    for (Py_ssize_t i = 0; neg && i < n; i++) {
        i128 v = (PyLong_MASK - a->lane[i]) + borrow;
        a->lane[i] = v & PyLong_MASK;
        borrow = v >> PyLong_SHIFT;
    }
    if (neg && borrow) { /* the sum was -2**(SHIFT * n): its magnitude needs one more digit */
        if (lanes_reserve(a, n + 1) < 0) return NULL;
        a->lane[n++] = 1;
    }
    Py_ssize_t top = n;
    while (top > 0 && a->lane[top - 1] == 0) top--;
    PyObject *result;
    if (top * PyLong_SHIFT <= 62) { /* a small int: made the usual way (the small ones are shared) */
        long long v = 0;
        for (Py_ssize_t i = top - 1; i >= 0; i--) v = (v << PyLong_SHIFT) | (long long)a->lane[i];
        result = PyLong_FromLongLong(neg ? -v : v);
    } else {
        PyLongObject *v = _PyLong_New(top);
        if (v != NULL) {
            digit *d = digits_of(v);
            for (Py_ssize_t i = 0; i < top; i++) d[i] = (digit)a->lane[i];
            if (neg) set_negative(v, top);
        }
        result = (PyObject *)v;
    }
    memset(a->lane, 0, (size_t)n * sizeof(i128));
    a->n = 0;
    return result;
}

/* a += x * y where x is xo if not NULL (y likewise). */
static inline int lanes_term(lanes_t *a, i128 xn, PyObject *xo, i128 yn, PyObject *yo) {
    operand_t x, y;
    operand_of(&x, xn, xo);
    operand_of(&y, yn, yo);
    return lanes_mul_add(a, &x, &y);
}
#else
typedef struct {
    Py_ssize_t n;
} lanes_t; /* (no digit access: wide sums are added on Python ints) */
#endif

/* acc += x * y beyond i128: on lanes (digits readable), else on Python ints (*w). */
static inline int wide_term(lanes_t *l, PyObject **w, i128 xn, PyObject *xo, i128 yn, PyObject *yo) {
#ifdef DIGITS
    (void)w;
    return lanes_term(l, xn, xo, yn, yo);
#else
    (void)l;
    return wide_mul_add(w, xn, xo, yn, yo);
#endif
}

/* The value n + w + lanes as a new int (the lanes left at 0). */
static PyObject *sum_value(i128 n, PyObject *w, lanes_t *l) {
#ifdef DIGITS
    if (l->n != 0) {
        if (n != 0 && lanes_term(l, n, NULL, 1, NULL) < 0) return NULL;
        PyObject *v = lanes_value(l);
        if (v == NULL || w == NULL) return v;
        PyObject *sum = PyNumber_Add(v, w);
        Py_DECREF(v);
        return sum;
    }
#endif
    (void)l;
    return value_of(n, w);
}

static void lanes_free(lanes_t *l) {
#ifdef DIGITS
    PyMem_Free(l->lane);
    l->lane = NULL;
    l->cap = l->n = 0;
#endif
    (void)l;
}

/* An int weight: native (*wo NULL) when it fits, else the object itself (borrowed). */
static int weight_of(PyObject *o, i128 *n, PyObject **wo) {
    int r = to_i128(o, n);
    *wo = NULL;
    if (r == NOFIT && exact_int(o)) {
        *n = 0;
        *wo = o;
        return FIT;
    }
    return r;
}

/* ------------------------------------------------------------------ a hash table u128 -> i128 */

typedef struct {
    u128 key;
    i128 val;
} slot_t; /* an entry: the entries are kept dense, in the order their keys were first inserted */

typedef struct {
    uint32_t *index; /* per bucket: 1 + its entry, or 0 (free); a power of two, at most half full */
    slot_t *slots;   /* the entries, in insertion order (room for half the buckets) */
    size_t mask;     /* buckets - 1 */
    size_t used;
    PyObject **wide; /* per entry, what its value holds beyond val, as an int (NULL: nothing); made
                        when first needed */
} table_t;

static inline size_t hash128(u128 k) {
    uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(k >> 64) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return (size_t)(h ^ (h >> 32));
}

static int table_init(table_t *t, size_t want) {
    size_t cap = 16;
    while (cap < 2 * want) cap <<= 1;
    t->index = PyMem_Calloc(cap, sizeof(uint32_t));
    t->slots = PyMem_Malloc(cap / 2 * sizeof(slot_t));
    t->mask = cap - 1;
    t->used = 0;
    t->wide = NULL;
    if (t->index == NULL || t->slots == NULL) {
        PyMem_Free(t->index);
        PyMem_Free(t->slots);
        t->index = NULL;
        t->slots = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void table_free(table_t *t) {
    if (t->wide != NULL) {
        for (size_t k = 0; k < t->used; k++) Py_XDECREF(t->wide[k]);
        PyMem_Free(t->wide);
        t->wide = NULL;
    }
    PyMem_Free(t->index);
    PyMem_Free(t->slots);
    t->index = NULL;
    t->slots = NULL;
}

/* The entry of key, or NULL. */
static inline slot_t *table_get(const table_t *t, u128 key) {
    size_t i = hash128(key) & t->mask;
    for (;;) {
        uint32_t e = t->index[i];
        if (e == 0) return NULL;
        if (t->slots[e - 1].key == key) return &t->slots[e - 1];
        i = (i + 1) & t->mask;
    }
}

/* Doubles the buckets (the entries stay in order; their array grows). */
static int table_grow(table_t *t) {
    size_t cap = 2 * (t->mask + 1);
    if (cap > ((size_t)1 << 31)) {
        PyErr_NoMemory();
        return -1;
    }
    uint32_t *index = PyMem_Calloc(cap, sizeof(uint32_t));
    slot_t *slots = PyMem_Realloc(t->slots, cap / 2 * sizeof(slot_t));
    if (slots != NULL) t->slots = slots;
    PyObject **wide = t->wide ? PyMem_Realloc(t->wide, cap / 2 * sizeof(PyObject *)) : NULL;
    if (wide != NULL) {
        memset(wide + t->used, 0, (cap / 2 - t->used) * sizeof(PyObject *));
        t->wide = wide;
    }
    if (index == NULL || slots == NULL || (t->wide != NULL && wide == NULL)) {
        PyMem_Free(index);
        PyErr_NoMemory();
        return -1;
    }
    PyMem_Free(t->index);
    t->index = index;
    t->mask = cap - 1;
    for (size_t k = 0; k < t->used; k++) {
        size_t i = hash128(t->slots[k].key) & t->mask;
        while (index[i]) i = (i + 1) & t->mask;
        index[i] = (uint32_t)(k + 1);
    }
    return 0;
}

/* The entry of key, made (val 0, *fresh) if missing; valid until the next one is made.  NULL:
 * MemoryError. */
static inline slot_t *table_add(table_t *t, u128 key, int *fresh) {
    size_t i = hash128(key) & t->mask;
    for (uint32_t e; (e = t->index[i]) != 0; i = (i + 1) & t->mask) {
        if (t->slots[e - 1].key == key) {
            *fresh = 0;
            return &t->slots[e - 1];
        }
    }
    *fresh = 1;
    if (2 * (t->used + 1) > t->mask + 1) {
        if (table_grow(t) < 0) return NULL;
        for (i = hash128(key) & t->mask; t->index[i]; i = (i + 1) & t->mask) {
        }
    }
    slot_t *s = &t->slots[t->used];
    s->key = key;
    s->val = 0;
    t->index[i] = (uint32_t)++t->used;
    return s;
}

/* Where entry s keeps its wide part (the array made when first asked); NULL: MemoryError. */
static PyObject **table_wide(table_t *t, const slot_t *s) {
    if (t->wide == NULL) {
        t->wide = PyMem_Calloc((t->mask + 1) / 2, sizeof(PyObject *));
        if (t->wide == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    return &t->wide[s - t->slots];
}

/* s->val += x * y, natively or (overflow, a wide factor) on the entry's wide part.  0 or -1. */
static inline int slot_mul_add(table_t *t, slot_t *s, i128 xn, PyObject *xo, i128 yn, PyObject *yo) {
    if (xo == NULL && yo == NULL && native_mul_add(&s->val, xn, yn)) return 0;
    PyObject **w = table_wide(t, s);
    return w == NULL ? -1 : wide_mul_add(w, xn, xo, yn, yo);
}

/* The value of entry s as a new int. */
static PyObject *slot_value(const table_t *t, const slot_t *s) {
    return value_of(s->val, t->wide ? t->wide[s - t->slots] : NULL);
}

/* The destinations as a dict, in the order they were first reached. */
static PyObject *table_dict(const table_t *t) {
#if PY_VERSION_HEX < 0x030C0000
    PyObject *dict = _PyDict_NewPresized((Py_ssize_t)t->used); /* no resize on the way (3.11) */
#else
    PyObject *dict = PyDict_New();
#endif
    if (dict == NULL) return NULL;
    for (size_t k = 0; k < t->used; k++) {
        const slot_t *s = &t->slots[k];
        PyObject *key = from_u128(s->key);
        PyObject *val = key ? slot_value(t, s) : NULL;
        int bad = val == NULL || SET_KEY(dict, key, s->key, val) < 0;
        Py_XDECREF(key);
        Py_XDECREF(val);
        if (bad) {
            Py_DECREF(dict);
            return NULL;
        }
    }
    return dict;
}

/* ------------------------------------------------------------------ states kept native */

/* A layer's states kept natively between the layers of a pass: the table of a push's
 * destinations or of a pull's kept sources, in the order of the dict it stands for.  Why: a dict
 * of Python ints made per layer by one call and read again by the next costs most of what the
 * native loop spends per edge.  push, pull and pull_tally keep their result native when their
 * states (sources) are a States (native() makes the first one); to_dict() gives the dict, and the
 * mapping reads (iteration, [], get, keys, items, values, in, ==) read a dict made once, for
 * callers that inspect a layer (tests, benchmarks).  Immutable.  An entry's value is val when
 * wide is NULL, else wide (val 0): the wide part holds values beyond i128 only. */
typedef struct {
    PyObject_HEAD
    table_t t;
    PyObject *dict; /* the mapping reads' dict, made when first asked */
} StatesObject;

static PyTypeObject STATES_TYPE;

#define STATES_CHECK(o) (Py_TYPE(o) == &STATES_TYPE)
#define DICT_OR_STATES(o) (PyDict_CheckExact(o) || STATES_CHECK(o))

static void states_dealloc(PyObject *self) {
    table_free(&((StatesObject *)self)->t);
    Py_XDECREF(((StatesObject *)self)->dict);
    Py_TYPE(self)->tp_free(self);
}

static Py_ssize_t states_len(PyObject *self) { return (Py_ssize_t)((StatesObject *)self)->t.used; }

static PyObject *states_to_dict(PyObject *self, PyObject *unused) {
    (void)unused;
    return table_dict(&((StatesObject *)self)->t);
}

/* The bit length of the largest state (0: none), read from the table: a caller that needs a bit
 * above every state (the card locations' flag) reads it without making the dict. */
static PyObject *states_bit_length(PyObject *self, PyObject *unused) {
    (void)unused;
    const table_t *t = &((StatesObject *)self)->t;
    u128 top = 0;
    for (size_t k = 0; k < t->used; k++) top |= t->slots[k].key;
    int n = 0;
    while (top) {
        n++;
        top >>= 1;
    }
    return PyLong_FromLong(n);
}

/* The mapping reads' dict (borrowed), or NULL with an exception. */
static PyObject *states_view(PyObject *self) {
    StatesObject *o = (StatesObject *)self;
    if (o->dict == NULL) o->dict = table_dict(&o->t);
    return o->dict;
}

static PyObject *states_iter(PyObject *self) {
    PyObject *d = states_view(self);
    return d ? PyObject_GetIter(d) : NULL;
}

static PyObject *states_getitem(PyObject *self, PyObject *key) {
    PyObject *d = states_view(self);
    return d ? PyObject_GetItem(d, key) : NULL;
}

static int states_contains(PyObject *self, PyObject *key) {
    PyObject *d = states_view(self);
    return d ? PyDict_Contains(d, key) : -1;
}

/* keys, items, values, get: the dict's own. */
static PyObject *states_forward(PyObject *self, const char *name, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *d = states_view(self);
    if (d == NULL) return NULL;
    PyObject *method = PyObject_GetAttrString(d, name);
    if (method == NULL) return NULL;
    PyObject *r = PyObject_Vectorcall(method, args, (size_t)nargs, NULL);
    Py_DECREF(method);
    return r;
}

static PyObject *states_keys(PyObject *self, PyObject *unused) {
    (void)unused;
    return states_forward(self, "keys", NULL, 0);
}

static PyObject *states_items(PyObject *self, PyObject *unused) {
    (void)unused;
    return states_forward(self, "items", NULL, 0);
}

static PyObject *states_values(PyObject *self, PyObject *unused) {
    (void)unused;
    return states_forward(self, "values", NULL, 0);
}

static PyObject *states_get(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return states_forward(self, "get", args, nargs);
}

static PyObject *states_richcompare(PyObject *self, PyObject *other, int op) {
    if ((op != Py_EQ && op != Py_NE) || !(PyDict_Check(other) || STATES_CHECK(other))) Py_RETURN_NOTIMPLEMENTED;
    PyObject *d = states_view(self);
    PyObject *e = d && STATES_CHECK(other) ? states_view(other) : other;
    return d && e ? PyObject_RichCompare(d, e, op) : NULL;
}

static PyObject *states_repr(PyObject *self) {
    PyObject *d = states_view(self);
    return d ? PyUnicode_FromFormat("States(%R)", d) : NULL;
}

/* An entry's value as the pair (val, wide), wide normalised: NULL when the value fits i128, and
 * then val holds it.  0, or -1 with an exception. */
static int slot_settle(table_t *t, slot_t *s) {
    PyObject **w = t->wide ? &t->wide[s - t->slots] : NULL;
    if (w == NULL || *w == NULL) return 0;
    PyObject *v = value_of(s->val, *w);
    if (v == NULL) return -1;
    i128 n;
    int r = to_i128(v, &n);
    if (r == ERR) {
        Py_DECREF(v);
        return -1;
    }
    if (r == FIT) {
        s->val = n;
        Py_DECREF(v);
        Py_CLEAR(*w);
    } else {
        s->val = 0;
        Py_SETREF(*w, v);
    }
    return 0;
}

/* A States object that takes the table over (*t left empty); NULL with an exception (the table
 * then freed). */
static PyObject *states_wrap(table_t *t) {
    for (size_t k = 0; t->wide != NULL && k < t->used; k++)
        if (slot_settle(t, &t->slots[k]) < 0) {
            table_free(t);
            return NULL;
        }
    StatesObject *o = PyObject_New(StatesObject, &STATES_TYPE);
    if (o == NULL) {
        table_free(t);
        return NULL;
    }
    o->dict = NULL;
    o->t = *t;
    memset(t, 0, sizeof(*t));
    return (PyObject *)o;
}

static PySequenceMethods STATES_SEQ = {.sq_length = states_len, .sq_contains = states_contains};

static PyMappingMethods STATES_MAP = {.mp_length = states_len, .mp_subscript = states_getitem};

static PyMethodDef STATES_METHODS[] = {
    {"to_dict", states_to_dict, METH_NOARGS,
     "to_dict() -> the states as a new dict of ints, in the order the loop reached them."},
    {"bit_length", states_bit_length, METH_NOARGS,
     "bit_length() -> the bit length of the largest state (0: none), without the dict."},
    {"keys", states_keys, METH_NOARGS, "keys() -> the dict's keys."},
    {"items", states_items, METH_NOARGS, "items() -> the dict's items."},
    {"values", states_values, METH_NOARGS, "values() -> the dict's values."},
    {"get", (PyCFunction)(void (*)(void))states_get, METH_FASTCALL, "get(key, default=None) -> the dict's get."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject STATES_TYPE = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gamelib.fugitive.belief._kernel.States",
    .tp_basicsize = sizeof(StatesObject),
    .tp_dealloc = states_dealloc,
    .tp_repr = states_repr,
    .tp_as_sequence = &STATES_SEQ,
    .tp_as_mapping = &STATES_MAP,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A layer's states kept natively along a pass (see native()): to_dict() gives the dict.",
    .tp_richcompare = states_richcompare,
    .tp_iter = states_iter,
    .tp_methods = STATES_METHODS,
};

/* The pure function called with the arguments as given, each States among them as its dict. */
static PyObject *call_pure(PyObject *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    Py_ssize_t n = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0), i;
    for (i = 0; i < n && !(args[i] != NULL && STATES_CHECK(args[i])); i++) {
    }
    if (i == n) return PyObject_Vectorcall(fn, args, (size_t)nargs, kwnames);
    PyObject *copy[8];
    if (n > 8) return PyErr_Format(PyExc_TypeError, "too many arguments");
    for (i = 0; i < n; i++) copy[i] = NULL;
    PyObject *result = NULL;
    for (i = 0; i < n; i++) {
        copy[i] = args[i] != NULL && STATES_CHECK(args[i]) ? states_to_dict(args[i], NULL) : Py_XNewRef(args[i]);
        if (copy[i] == NULL && args[i] != NULL) break;
    }
    if (i == n) result = PyObject_Vectorcall(fn, copy, (size_t)nargs, kwnames);
    for (i = 0; i < n; i++) Py_XDECREF(copy[i]);
    return result;
}

/* ------------------------------------------------------------------ the moves, converted once */

#define NO_LABEL INT64_MIN

typedef struct {
    u128 d; /* the delta, two's complement of a value in [-2**127, 2**127) */
    i128 w; /* the weight, or 0 when it does not fit (see wobj) */
    PyObject *wobj; /* the weight when it does not fit (borrowed from its held list), else NULL */
    int64_t label;  /* its third item (labelled moves only; NO_LABEL if not an int) */
} move_t;

typedef struct {
    Py_ssize_t first, n;
    PyObject *list;
} rec_t;

typedef struct {
    table_t sigs;      /* signature -> record */
    table_t lists;     /* address of a moves list (held) -> record: lists shared by signatures */
    move_t *moves;     /* every record's moves, one after another */
    size_t n_moves, cap_moves;
    rec_t *recs;       /* per record: its moves, and its list (held for the call) */
    size_t n_recs, cap_recs;
    int labelled;      /* moves are (d, w, label) exactly (pull_tally) */
} moves_t;

static int moves_init(moves_t *m, int labelled) {
    memset(m, 0, sizeof(*m));
    m->labelled = labelled;
    if (table_init(&m->sigs, 8) < 0 || table_init(&m->lists, 8) < 0) return -1;
    return 0;
}

static void moves_free(moves_t *m) {
    table_free(&m->sigs);
    table_free(&m->lists);
    PyMem_Free(m->moves);
    for (size_t k = 0; k < m->n_recs; k++) Py_DECREF(m->recs[k].list);
    PyMem_Free(m->recs);
}

static int moves_reserve(moves_t *m, size_t n) {
    if (m->n_moves + n <= m->cap_moves) return 0;
    size_t cap = m->cap_moves ? m->cap_moves : 16;
    while (cap < m->n_moves + n) cap *= 2;
    move_t *moves = PyMem_Realloc(m->moves, cap * sizeof(move_t));
    if (moves != NULL) m->moves = moves;
    if (moves == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    m->cap_moves = cap;
    return 0;
}

/* One move into slot k: FIT, NOFIT or ERR. */
static int move_convert(moves_t *m, PyObject *move, size_t k) {
    if (!PyTuple_CheckExact(move) || PyTuple_GET_SIZE(move) < 2) return NOFIT;
    if (m->labelled && PyTuple_GET_SIZE(move) != 3) return NOFIT; /* the pure loop unpacks three */
    i128 d;
    int r = to_i128(PyTuple_GET_ITEM(move, 0), &d);
    if (r != FIT) return r;
    m->moves[k].d = (u128)d;
    r = weight_of(PyTuple_GET_ITEM(move, 1), &m->moves[k].w, &m->moves[k].wobj);
    if (r != FIT) return r;
    m->moves[k].label = NO_LABEL;
    if (m->labelled && PyLong_Check(PyTuple_GET_ITEM(move, 2))) {
        int overflow;
        long long label = PyLong_AsLongLongAndOverflow(PyTuple_GET_ITEM(move, 2), &overflow);
        if (label == -1 && PyErr_Occurred()) return ERR;
        if (!overflow && PyLong_CheckExact(PyTuple_GET_ITEM(move, 2))) m->moves[k].label = label;
    }
    return FIT;
}

/* Converts a moves list into a record (or finds the one it has): FIT (*rec), NOFIT or ERR. */
static int moves_convert(moves_t *m, PyObject *list, size_t *rec) {
    const slot_t *seen = table_get(&m->lists, (u128)(uintptr_t)list);
    if (seen != NULL) {
        *rec = (size_t)seen->val;
        return FIT;
    }
    if (!PyList_CheckExact(list) && !PyTuple_CheckExact(list)) return NOFIT;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(list);
    PyObject **items = PySequence_Fast_ITEMS(list);
    if (moves_reserve(m, (size_t)n) < 0) return ERR;
    for (Py_ssize_t k = 0; k < n; k++) {
        int r = move_convert(m, items[k], m->n_moves + (size_t)k);
        if (r != FIT) return r;
    }
    if (m->n_recs == m->cap_recs) {
        size_t cap = m->cap_recs ? 2 * m->cap_recs : 8;
        rec_t *grown = PyMem_Realloc(m->recs, cap * sizeof(rec_t));
        if (grown == NULL) {
            PyErr_NoMemory();
            return ERR;
        }
        m->recs = grown;
        m->cap_recs = cap;
    }
    *rec = m->n_recs++;
    m->recs[*rec] = (rec_t){(Py_ssize_t)m->n_moves, n, Py_NewRef(list)};
    m->n_moves += (size_t)n;
    int fresh;
    slot_t *made = table_add(&m->lists, (u128)(uintptr_t)list, &fresh);
    if (made == NULL) return ERR;
    made->val = (i128)*rec;
    return FIT;
}

/* The record of signature sig: from the table, else from memo (filled by miss(sig) when missing;
 * no miss: KeyError).  FIT, NOFIT or ERR. */
static int moves_of(moves_t *m, u128 sig, PyObject *memo, PyObject *miss, size_t *rec) {
    const slot_t *s = table_get(&m->sigs, sig);
    if (s != NULL) {
        *rec = (size_t)s->val;
        return FIT;
    }
    PyObject *key = from_u128(sig);
    if (key == NULL) return ERR;
    PyObject *hit = PyDict_GetItemWithError(memo, key); /* borrowed */
    if (hit != NULL) {
        Py_INCREF(hit);
    } else if (PyErr_Occurred()) {
        Py_DECREF(key);
        return ERR;
    } else if (miss == Py_None) {
        PyErr_SetObject(PyExc_KeyError, key);
        Py_DECREF(key);
        return ERR;
    } else {
        hit = PyObject_CallOneArg(miss, key);
        if (hit == NULL || PyDict_SetItem(memo, key, hit) < 0) {
            Py_XDECREF(hit);
            Py_DECREF(key);
            return ERR;
        }
    }
    Py_DECREF(key);
    int r = moves_convert(m, hit, rec);
    Py_DECREF(hit); /* its record holds it when converted */
    if (r != FIT) return r;
    int fresh;
    slot_t *made = table_add(&m->sigs, sig, &fresh);
    if (made == NULL) return ERR;
    made->val = (i128)*rec;
    return FIT;
}

/* src & reads, src & keep of a source key: FIT, NOFIT or ERR. */
typedef struct {
    u128 reads, keep;
} masks_t;

static int masks_of(PyObject *reads, PyObject *keep, masks_t *out) {
    int r = mask_u128(reads, &out->reads);
    return r == FIT ? mask_u128(keep, &out->keep) : r;
}

/* ------------------------------------------------------------------ arguments */

/* A vectorcall's arguments, by position or keyword, into out[0..total) (NULL: not given).  0, or -1
 * with a TypeError (too many, unknown or repeated, a required one missing). */
static int parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      const char *const *names, Py_ssize_t required, Py_ssize_t total, PyObject **out) {
    if (nargs > total) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %zd arguments (%zd given)", fname, total, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < total; i++) out[i] = i < nargs ? args[i] : NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        Py_ssize_t i = 0;
        while (i < total && PyUnicode_CompareWithASCIIString(key, names[i]) != 0) i++;
        if (i == total || out[i] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected or repeated argument %R", fname, key);
            return -1;
        }
        out[i] = args[nargs + k];
    }
    for (Py_ssize_t i = 0; i < required; i++)
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing argument '%s'", fname, names[i]);
            return -1;
        }
    return 0;
}

/* ------------------------------------------------------------------ push */

/* The edges of one source: out[(src & keep) + d] += weight * w.  FIT, NOFIT or ERR. */
static inline int push_source(table_t *out, const moves_t *m, size_t rec, u128 base, i128 wn, PyObject *wo) {
    const move_t *mv = m->moves + m->recs[rec].first;
    Py_ssize_t n = m->recs[rec].n;
    for (Py_ssize_t k = 0; k < n; k++) {
        u128 dst;
        int carry = __builtin_add_overflow(base, mv[k].d, &dst);
        if (carry != (int)(mv[k].d >> 127)) return NOFIT; /* outside [0, 2**128) */
        int fresh;
        slot_t *s = table_add(out, dst, &fresh);
        if (s == NULL || slot_mul_add(out, s, wn, wo, mv[k].w, mv[k].wobj) < 0) return ERR;
    }
    return FIT;
}

/* One source of push_walk: its edges.  FIT, NOFIT or ERR. */
static inline int push_one(u128 src, i128 wn, PyObject *wo, masks_t mk, PyObject *memo, PyObject *miss, moves_t *m,
                           table_t *out, Py_ssize_t *count) {
    size_t rec = 0;
    int r = moves_of(m, src & mk.reads, memo, miss, &rec);
    if (r != FIT) return r;
    *count += m->recs[rec].n;
    return push_source(out, m, rec, src & mk.keep, wn, wo);
}

/* The walk over the sources (a dict, or a States read natively); FIT, NOFIT or ERR, the edges in
 * *count. */
static int push_walk(PyObject *states, masks_t mk, PyObject *memo, PyObject *miss, moves_t *m, table_t *out,
                     Py_ssize_t *count) {
    if (STATES_CHECK(states)) {
        const table_t *in = &((StatesObject *)states)->t; /* immutable; the caller holds it */
        for (size_t k = 0; k < in->used; k++) {
            int r = push_one(in->slots[k].key, in->slots[k].val, in->wide ? in->wide[k] : NULL, mk, memo, miss, m,
                             out, count);
            if (r != FIT) return r;
        }
        return FIT;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(states, &pos, &key, &value)) {
        u128 src;
        i128 wn;
        PyObject *wo;
        int r = to_u128(key, &src);
        if (r == FIT) r = weight_of(value, &wn, &wo);
        Py_INCREF(value); /* a miss runs Python code: keep the weight alive */
        if (r == FIT) r = push_one(src, wn, wo, mk, memo, miss, m, out, count);
        Py_DECREF(value);
        if (r != FIT) return r;
    }
    return FIT;
}

static const char *const PUSH_KW[] = {"states", "reads", "keep", "memo", "miss"};

/* The destinations as a dict, or as a States when the states are one (kept native along a pass). */
static PyObject *push(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    PyObject *a[5];
    if (parse_args("push", args, nargs, kwnames, PUSH_KW, 4, 5, a) < 0) return NULL;
    PyObject *states = a[0], *memo = a[3], *miss = a[4] ? a[4] : Py_None;
    int native = STATES_CHECK(states);
    if (PUSH_PURE == NULL) return PyErr_Format(PyExc_RuntimeError, "_kernel.configure was not called");
    masks_t mk;
    int r = NOFIT;
    if (ENABLED && (PyDict_CheckExact(states) || STATES_CHECK(states)) && PyDict_CheckExact(memo))
        r = masks_of(a[1], a[2], &mk);
    if (r == ERR) return NULL;
    if (r == NOFIT) return call_pure(PUSH_PURE, args, nargs, kwnames);
    moves_t m;
    table_t out = {0};
    Py_ssize_t count = 0;
    PyObject *result = NULL;
    Py_INCREF(states);
    if (moves_init(&m, 0) == 0 && table_init(&out, (size_t)PyObject_Length(states)) == 0) {
        r = push_walk(states, mk, memo, miss, &m, &out, &count);
        if (r == FIT) {
            PyObject *made = native ? states_wrap(&out) : table_dict(&out);
            PyObject *edges = made ? PyLong_FromSsize_t(count) : NULL;
            result = edges ? PyTuple_New(2) : NULL;
            if (result != NULL) {
                PyTuple_SET_ITEM(result, 0, made);
                PyTuple_SET_ITEM(result, 1, edges);
            } else {
                Py_XDECREF(made);
                Py_XDECREF(edges);
            }
        }
    } else {
        r = ERR;
    }
    moves_free(&m);
    table_free(&out);
    Py_DECREF(states);
    if (r == NOFIT) return call_pure(PUSH_PURE, args, nargs, kwnames);
    return result;
}

/* ------------------------------------------------------------------ pull, pull_tally */

/* nxt as a table (zero values left out: never a term of a sum; keys outside [0, 2**128) noted in
 * *wide_keys: a destination there falls back).  FIT, NOFIT or ERR. */
static int pull_table(PyObject *nxt, table_t *t, int *wide_keys) {
    if (table_init(t, (size_t)PyDict_GET_SIZE(nxt)) < 0) return ERR;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(nxt, &pos, &key, &value)) {
        u128 k;
        i128 vn;
        PyObject *vo;
        int r = weight_of(value, &vn, &vo);
        if (r != FIT) return r;
        r = to_u128(key, &k);
        if (r == ERR) return ERR;
        if (r == NOFIT) {
            if (!exact_int(key)) return NOFIT; /* a key of another type: the pure loop decides */
            *wide_keys = 1;
            continue;
        }
        if (vo == NULL && vn == 0) continue;
        int fresh;
        slot_t *s = table_add(t, k, &fresh);
        if (s == NULL) return ERR;
        s->val = vn;
        if (vo != NULL) {
            PyObject **w = table_wide(t, s);
            if (w == NULL) return ERR;
            Py_XSETREF(*w, Py_NewRef(vo));
        }
    }
    return FIT;
}

/* What pull and pull_tally share: the memo, nxt's table, the tally's sums (pull_tally). */
typedef struct {
    moves_t m;
    table_t t;        /* nxt as a table, when nxt is a dict */
    const table_t *nt; /* the table read: &t, or nxt's own (a States) */
    int wide_keys;
    PyObject *tally;  /* the caller's list, or NULL (pull) */
    Py_ssize_t n_tally;
    i128 *tn;         /* per label, what the call adds to it: tn + tw + tl */
    PyObject **tw;
    lanes_t *tl;
    lanes_t bl;       /* a source's sum beyond i128 */
    PyObject **kept;  /* the sources whose sum is not 0, and their sums (owned, in pairs) */
    u128 *kept_keys;
    size_t n_kept, cap_kept;
    int native;       /* the kept sources go into out (the sources are a States), not into kept */
    table_t out;
    u128 flag;         /* pull's flagged: a destination with a bit of flag reads ft at dst ^ flag (0: none) */
    table_t ftab;      /* flagged's states as a table, when they are a dict */
    const table_t *ft; /* the table read: &ftab, or the States' own */
} pull_t;

/* One edge of pull_tally, x * w beyond i128: b += x * w, tally[label] += fw * x * w.  0 or -1. */
static int tally_wide(pull_t *p, Py_ssize_t label, i128 xn, PyObject *xo, i128 wn, PyObject *wo, i128 fwn,
                      PyObject *fwo, PyObject **bw) {
    if (wide_term(&p->bl, bw, xn, xo, wn, wo) < 0) return -1;
    i128 fw_w = 0;
    if (fwo == NULL && wo == NULL && native_mul_add(&fw_w, fwn, wn))
        return wide_term(&p->tl[label], &p->tw[label], fw_w, NULL, xn, xo);
    PyObject *y = NULL; /* rare: three wide factors, on Python ints */
    if (wide_mul_add(&y, xn, xo, wn, wo) < 0) return -1;
    int r = wide_mul_add(&p->tw[label], fwn, fwo, 0, y);
    Py_DECREF(y);
    return r;
}

/* b = sum(w * nxt[(src & keep) + d]) over one source's moves, and (pull_tally) tally[label] +=
 * fw * w * x.  FIT, NOFIT or ERR. */
static int pull_source(pull_t *p, size_t rec, u128 base, i128 fwn, PyObject *fwo, i128 *bn, PyObject **bw) {
    const moves_t *m = &p->m;
    Py_ssize_t first = m->recs[rec].first, n = m->recs[rec].n;
    for (Py_ssize_t k = first; k < first + n; k++) {
        u128 dst;
        int carry = __builtin_add_overflow(base, m->moves[k].d, &dst);
        if (carry != (int)(m->moves[k].d >> 127)) {
            if (p->wide_keys) return NOFIT; /* nxt might hold that key */
            continue;
        }
        const table_t *nt = p->nt;
        if (dst & p->flag) { /* (flag 0: never) */
            nt = p->ft;
            dst ^= p->flag;
        }
        const slot_t *s = table_get(nt, dst);
        if (s == NULL) continue;
        PyObject *xo = nt->wide ? nt->wide[s - nt->slots] : NULL, *wo = m->moves[k].wobj;
        i128 xn = s->val, wn = m->moves[k].w, yn = 0;
        if (xo == NULL && xn == 0) continue; /* a States keeps its zero weights: no term, as in the pure loop */
        int native = xo == NULL && wo == NULL && native_mul_add(&yn, xn, wn);
        if (p->tally == NULL) {
            if (native && native_mul_add(bn, yn, 1)) continue;
            if (wide_term(&p->bl, bw, xn, xo, wn, wo) < 0) return ERR;
            continue;
        }
        int64_t label = m->moves[k].label;
        if (label == NO_LABEL || label >= p->n_tally || label < -p->n_tally) return NOFIT; /* pure raises */
        if (label < 0) label += p->n_tally;
        if (!native) {
            if (tally_wide(p, (Py_ssize_t)label, xn, xo, wn, wo, fwn, fwo, bw) < 0) return ERR;
            continue;
        }
        if (!native_mul_add(bn, yn, 1) && wide_term(&p->bl, bw, yn, NULL, 1, NULL) < 0) return ERR;
        if ((fwo != NULL || !native_mul_add(&p->tn[label], fwn, yn)) &&
            wide_term(&p->tl[label], &p->tw[label], fwn, fwo, yn, NULL) < 0)
            return ERR;
    }
    return FIT;
}

/* Keeps a source and its sum (the dict is made at the end, sized for them).  0 or -1. */
static int keep_source(pull_t *p, PyObject *src_o, u128 src, PyObject *b) {
    if (p->n_kept == p->cap_kept) {
        size_t cap = p->cap_kept ? 2 * p->cap_kept : 256;
        PyObject **kept = PyMem_Realloc(p->kept, 2 * cap * sizeof(PyObject *));
        if (kept != NULL) p->kept = kept;
        u128 *keys = PyMem_Realloc(p->kept_keys, cap * sizeof(u128));
        if (keys != NULL) p->kept_keys = keys;
        if (kept == NULL || keys == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        p->cap_kept = cap;
    }
    p->kept[2 * p->n_kept] = Py_NewRef(src_o);
    p->kept[2 * p->n_kept + 1] = Py_NewRef(b);
    p->kept_keys[p->n_kept++] = src;
    return 0;
}

/* The kept sources as a dict, in their order. */
static PyObject *kept_dict(const pull_t *p) {
#if PY_VERSION_HEX < 0x030C0000
    PyObject *dict = _PyDict_NewPresized((Py_ssize_t)p->n_kept); /* no resize on the way (3.11) */
#else
    PyObject *dict = PyDict_New();
#endif
    for (size_t k = 0; dict != NULL && k < p->n_kept; k++)
        if (SET_KEY(dict, p->kept[2 * k], p->kept_keys[k], p->kept[2 * k + 1]) < 0) Py_CLEAR(dict);
    return dict;
}

/* Keeps a source's sum natively (into out).  0 or -1. */
static int keep_native(pull_t *p, u128 src, i128 bn, PyObject *b) {
    int fresh;
    slot_t *s = table_add(&p->out, src, &fresh);
    if (s == NULL) return -1;
    s->val = bn;
    if (b == NULL) {
        if (!fresh && p->out.wide != NULL) Py_CLEAR(p->out.wide[s - p->out.slots]);
        return 0;
    }
    PyObject **w = table_wide(&p->out, s);
    if (w == NULL) return -1;
    Py_XSETREF(*w, Py_NewRef(b));
    return slot_settle(&p->out, s);
}

/* One source (src_o its int, or NULL: made if the dict needs it): its sum kept when not 0.  FIT,
 * NOFIT or ERR. */
static int pull_one(pull_t *p, u128 src, PyObject *src_o, i128 fwn, PyObject *fwo, masks_t mk, PyObject *memo,
                    PyObject *miss) {
    i128 bn = 0;
    PyObject *bw = NULL;
    size_t rec = 0;
    int r = moves_of(&p->m, src & mk.reads, memo, miss, &rec);
    if (r == FIT) r = pull_source(p, rec, src & mk.keep, fwn, fwo, &bn, &bw);
    if (r == FIT && p->native && bw == NULL && p->bl.n == 0) {
        if (bn != 0 && keep_native(p, src, bn, NULL) < 0) r = ERR;
    } else if (r == FIT && (bn != 0 || bw != NULL || p->bl.n != 0)) {
        PyObject *b = sum_value(bn, bw, &p->bl);
        int truth = b ? PyObject_IsTrue(b) : -1;
        if (truth < 0) {
            r = ERR;
        } else if (truth && p->native) {
            if (keep_native(p, src, 0, b) < 0) r = ERR;
        } else if (truth) {
            PyObject *key = src_o ? Py_NewRef(src_o) : from_u128(src);
            if (key == NULL || keep_source(p, key, src, b) < 0) r = ERR;
            Py_XDECREF(key);
        }
        Py_XDECREF(b);
    }
    Py_XDECREF(bw);
    return r;
}

/* The walk over the sources: a States (read natively), a dict, or a list of ints. */
static int pull_walk(pull_t *p, PyObject *seq, masks_t mk, PyObject *memo, PyObject *miss) {
    if (STATES_CHECK(seq)) {
        const table_t *in = &((StatesObject *)seq)->t; /* immutable; the caller holds it */
        for (size_t k = 0; k < in->used; k++) {
            PyObject *fwo = p->tally != NULL && in->wide ? in->wide[k] : NULL;
            int r = pull_one(p, in->slots[k].key, NULL, in->slots[k].val, fwo, mk, memo, miss);
            if (r != FIT) return r;
        }
        return FIT;
    }
    Py_ssize_t pos = 0, idx = 0;
    PyObject *src_o, *fw_o = NULL;
    for (;;) {
        if (PyDict_CheckExact(seq)) {
            if (!PyDict_Next(seq, &pos, &src_o, &fw_o)) break;
        } else {
            if (idx >= PySequence_Fast_GET_SIZE(seq)) break;
            src_o = PySequence_Fast_ITEMS(seq)[idx++];
        }
        Py_INCREF(src_o); /* a miss runs Python code: keep the source (and its weight) alive */
        if (p->tally != NULL) Py_INCREF(fw_o);
        u128 src;
        i128 fwn = 0;
        PyObject *fwo = NULL;
        int r = to_u128(src_o, &src);
        if (r == FIT && p->tally != NULL) r = weight_of(fw_o, &fwn, &fwo);
        if (r == FIT) r = pull_one(p, src, src_o, fwn, fwo, mk, memo, miss);
        Py_DECREF(src_o);
        if (p->tally != NULL) Py_DECREF(fw_o);
        if (r != FIT) return r;
    }
    return FIT;
}

/* tally[label] += what the call summed, all at once (nothing written if anything fails). */
static int tally_write(pull_t *p) {
    PyObject **sums = PyMem_Calloc((size_t)p->n_tally + 1, sizeof(PyObject *));
    if (sums == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    int r = FIT;
    for (Py_ssize_t i = 0; i < p->n_tally && r == FIT; i++) {
        if (p->tn[i] == 0 && p->tw[i] == NULL && p->tl[i].n == 0) continue;
        PyObject *add = sum_value(p->tn[i], p->tw[i], &p->tl[i]);
        sums[i] = add ? PyNumber_Add(PyList_GET_ITEM(p->tally, i), add) : NULL;
        Py_XDECREF(add);
        if (sums[i] == NULL) r = ERR;
    }
    for (Py_ssize_t i = 0; i < p->n_tally; i++) {
        if (sums[i] != NULL && r == FIT)
            PyList_SetItem(p->tally, i, sums[i]); /* steals */
        else
            Py_XDECREF(sums[i]);
    }
    PyMem_Free(sums);
    return r;
}

/* The shared body of pull and pull_tally: FIT with *cur, NOFIT or ERR. */
/* pull's flagged = (flag, states): flag in [0, 2**128), states a dict or a States (its table read, or
 * made from the dict: keys beyond 128 bits noted in wide_keys, as nxt's).  FIT, NOFIT or ERR. */
static int flagged_table(pull_t *p, PyObject *flagged) {
    if (flagged == NULL || flagged == Py_None) return FIT;
    if (!PyTuple_CheckExact(flagged) || PyTuple_GET_SIZE(flagged) != 2) return NOFIT; /* the pure one raises */
    PyObject *flag = PyTuple_GET_ITEM(flagged, 0), *states = PyTuple_GET_ITEM(flagged, 1);
    if (!exact_int(flag) || !DICT_OR_STATES(states)) return NOFIT;
    int r = to_u128(flag, &p->flag);
    if (r != FIT) return r;
    if (STATES_CHECK(states)) {
        p->ft = &((StatesObject *)states)->t;
        return FIT;
    }
    p->ft = &p->ftab;
    return pull_table(states, &p->ftab, &p->wide_keys);
}

static int pull_run(pull_t *p, PyObject *seq, PyObject *reads, PyObject *keep, PyObject *memo, PyObject *nxt,
                    PyObject *miss, PyObject *flagged, PyObject **cur) {
    masks_t mk;
    int r = masks_of(reads, keep, &mk);
    if (r != FIT) return r;
    r = flagged_table(p, flagged);
    if (r != FIT) return r;
    if (p->tally != NULL) {
        p->n_tally = PyList_GET_SIZE(p->tally);
        for (Py_ssize_t i = 0; i < p->n_tally; i++)
            if (!PyLong_CheckExact(PyList_GET_ITEM(p->tally, i))) return NOFIT;
        p->tn = PyMem_Calloc((size_t)p->n_tally + 1, sizeof(i128));
        p->tw = PyMem_Calloc((size_t)p->n_tally + 1, sizeof(PyObject *));
        p->tl = PyMem_Calloc((size_t)p->n_tally + 1, sizeof(lanes_t));
        if (p->tn == NULL || p->tw == NULL || p->tl == NULL) {
            PyErr_NoMemory();
            return ERR;
        }
    }
    if (moves_init(&p->m, p->tally != NULL) < 0) return ERR;
    if (p->native && table_init(&p->out, (size_t)PyObject_Length(seq)) < 0) return ERR;
    if (STATES_CHECK(nxt)) {
        p->nt = &((StatesObject *)nxt)->t; /* (its keys are all within 128 bits) */
    } else {
        p->nt = &p->t;
        r = pull_table(nxt, &p->t, &p->wide_keys);
        if (r != FIT) return r;
    }
    r = pull_walk(p, seq, mk, memo, miss);
    if (r == FIT && (*cur = p->native ? states_wrap(&p->out) : kept_dict(p)) == NULL) r = ERR;
    if (r == FIT && p->tally != NULL) r = tally_write(p);
    if (r == ERR && p->tally != NULL) {
        /* a miss raised (or a signature was missing): the pure loop leaves the tally as it was
         * then, with the sources before this one in it; so does this one */
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        if (tally_write(p) != FIT) PyErr_Clear();
        PyErr_Restore(type, value, traceback);
    }
    return r;
}

static void pull_free(pull_t *p) {
    moves_free(&p->m);
    table_free(&p->t);
    table_free(&p->out);
    table_free(&p->ftab);
    if (p->tw != NULL)
        for (Py_ssize_t i = 0; i < p->n_tally; i++) Py_XDECREF(p->tw[i]);
    if (p->tl != NULL)
        for (Py_ssize_t i = 0; i < p->n_tally; i++) lanes_free(&p->tl[i]);
    lanes_free(&p->bl);
    for (size_t k = 0; k < 2 * p->n_kept; k++) Py_DECREF(p->kept[k]);
    PyMem_Free(p->kept);
    PyMem_Free(p->kept_keys);
    PyMem_Free(p->tn);
    PyMem_Free(p->tw);
    PyMem_Free(p->tl);
}

static const char *const PULL_KW[] = {"sources", "reads", "keep", "memo", "nxt", "miss", "flagged"};

/* The kept sources as a dict, or as a States when the sources are one (kept native along a pass). */
static PyObject *pull(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    PyObject *a[7];
    if (nargs > 6) /* flagged is keyword-only */
        return PyErr_Format(PyExc_TypeError, "pull() takes at most 6 positional arguments (%zd given)", nargs);
    if (parse_args("pull", args, nargs, kwnames, PULL_KW, 5, 7, a) < 0) return NULL;
    if (a[5] == NULL) a[5] = Py_None;
    PyObject *sources = a[0], *memo = a[3], *nxt = a[4];
    int native = STATES_CHECK(sources);
    if (PULL_PURE == NULL) return PyErr_Format(PyExc_RuntimeError, "_kernel.configure was not called");
    if (!ENABLED || !PyDict_CheckExact(memo) || !DICT_OR_STATES(nxt))
        return call_pure(PULL_PURE, args, nargs, kwnames);
    /* any other iterable is read once, into a list, which the pure loop reads if it must run */
    PyObject *seq = DICT_OR_STATES(sources) ? Py_NewRef(sources) : PySequence_Fast(sources, "sources");
    if (seq == NULL) return NULL;
    Py_INCREF(nxt);
    pull_t p;
    memset(&p, 0, sizeof(p));
    p.native = native;
    PyObject *cur = NULL;
    int r = pull_run(&p, seq, a[1], a[2], memo, nxt, a[5], a[6], &cur);
    pull_free(&p);
    if (r != FIT) Py_CLEAR(cur);
    if (r == NOFIT) {
        a[0] = seq;
        PyObject *kw = a[6] ? Py_BuildValue("(s)", "flagged") : NULL; /* a[6] follows as its value */
        cur = a[6] && kw == NULL ? NULL : call_pure(PULL_PURE, a, 6, kw);
        Py_XDECREF(kw);
    }
    Py_DECREF(seq);
    Py_DECREF(nxt);
    return cur;
}

static const char *const TALLY_KW[] = {"states", "reads", "keep", "memo", "nxt", "tally", "miss"};

/* The kept sources as a dict, or as a States when the states are one (kept native along a pass). */
static PyObject *pull_tally(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    PyObject *a[7];
    if (parse_args("pull_tally", args, nargs, kwnames, TALLY_KW, 6, 7, a) < 0) return NULL;
    PyObject *states = a[0], *memo = a[3], *nxt = a[4], *tally = a[5], *miss = a[6] ? a[6] : Py_None;
    int native = STATES_CHECK(states);
    if (TALLY_PURE == NULL) return PyErr_Format(PyExc_RuntimeError, "_kernel.configure was not called");
    if (!ENABLED || !DICT_OR_STATES(states) || !PyDict_CheckExact(memo) || !DICT_OR_STATES(nxt) ||
        !PyList_CheckExact(tally))
        return call_pure(TALLY_PURE, args, nargs, kwnames);
    Py_INCREF(states);
    Py_INCREF(nxt);
    pull_t p;
    memset(&p, 0, sizeof(p));
    p.tally = tally;
    p.native = native;
    PyObject *cur = NULL;
    int r = pull_run(&p, states, a[1], a[2], memo, nxt, miss, NULL, &cur);
    pull_free(&p);
    if (r != FIT) Py_CLEAR(cur);
    if (r == NOFIT) cur = call_pure(TALLY_PURE, args, nargs, kwnames);
    Py_DECREF(states);
    Py_DECREF(nxt);
    return cur;
}

/* ------------------------------------------------------------------ native() */

/* states (a dict) as a States, or states itself when the loops are off or a key or weight is not
 * an int in range (a pass then runs on dicts, as before). */
static PyObject *native_states(PyObject *self, PyObject *states) {
    (void)self;
    if (!ENABLED || !PyDict_CheckExact(states)) return Py_NewRef(states);
    table_t t;
    if (table_init(&t, (size_t)PyDict_GET_SIZE(states)) < 0) return NULL;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int r = FIT;
    while (r == FIT && PyDict_Next(states, &pos, &key, &value)) {
        u128 k;
        i128 vn;
        PyObject *vo;
        r = to_u128(key, &k);
        if (r == FIT) r = weight_of(value, &vn, &vo);
        int fresh;
        slot_t *s = r == FIT ? table_add(&t, k, &fresh) : NULL;
        if (r == FIT && s == NULL) r = ERR;
        if (r != FIT) break;
        s->val = vn;
        if (vo != NULL) {
            PyObject **w = table_wide(&t, s);
            if (w == NULL) r = ERR;
            else Py_XSETREF(*w, Py_NewRef(vo));
        }
    }
    if (r != FIT) {
        table_free(&t);
        return r == ERR ? NULL : Py_NewRef(states);
    }
    return states_wrap(&t);
}

/* ------------------------------------------------------------------ the module */

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *push_pure, *pull_pure, *tally_pure;
    int enabled;
    if (!PyArg_ParseTuple(args, "OOOp:configure", &push_pure, &pull_pure, &tally_pure, &enabled)) return NULL;
    Py_XSETREF(PUSH_PURE, Py_NewRef(push_pure));
    Py_XSETREF(PULL_PURE, Py_NewRef(pull_pure));
    Py_XSETREF(TALLY_PURE, Py_NewRef(tally_pure));
    ENABLED = enabled;
    Py_RETURN_NONE;
}

static PyObject *enabled(PyObject *self, PyObject *unused) { return PyBool_FromLong(ENABLED && PUSH_PURE); }

static PyObject *lane_products(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromUnsignedLongLong(
#ifdef DIGITS
        LANE_PRODUCTS
#else
        0
#endif
    );
}

static PyMethodDef METHODS[] = {
    {"push", (PyCFunction)(void (*)(void))push, METH_FASTCALL | METH_KEYWORDS,
     "push(states, reads, keep, memo, miss=None) -> (out, edges): kernel.push_pure on native integers."},
    {"pull", (PyCFunction)(void (*)(void))pull, METH_FASTCALL | METH_KEYWORDS,
     "pull(sources, reads, keep, memo, nxt, miss=None, *, flagged=None) -> cur: kernel.pull_pure on native "
     "integers."},
    {"pull_tally", (PyCFunction)(void (*)(void))pull_tally, METH_FASTCALL | METH_KEYWORDS,
     "pull_tally(states, reads, keep, memo, nxt, tally, miss=None) -> cur: kernel.pull_tally_pure on native "
     "integers."},
    {"native", native_states, METH_O,
     "native(states) -> a States holding the dict states (states itself if it does not fit or the loops are "
     "turned off): push, pull and pull_tally then keep their results native."},
    {"configure", configure, METH_VARARGS,
     "configure(push_pure, pull_pure, pull_tally_pure, enabled): the pure functions run when a value does not "
     "fit (always, if not enabled)."},
    {"enabled", enabled, METH_NOARGS, "enabled() -> whether the loops run natively."},
    {"lane_products", lane_products, METH_NOARGS,
     "lane_products() -> how many digit products the wide sums' lanes took (a 30-bit digit times a 60-bit "
     "pair of the shorter operand's digits) since the module loaded: 0 without digit access."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_kernel",
    .m_doc = "The belief's edge loops on native integers (see kernel.py).",
    .m_size = -1,
    .m_methods = METHODS,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    ALL128 = PyLong_FromString("340282366920938463463374607431768211455", NULL, 10);
    if (ALL128 == NULL || PyType_Ready(&STATES_TYPE) < 0) return NULL;
    PyObject *module = PyModule_Create(&MODULE);
    if (module != NULL && PyModule_AddObjectRef(module, "States", (PyObject *)&STATES_TYPE) < 0) Py_CLEAR(module);
    return module;
}
