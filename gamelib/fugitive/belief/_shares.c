/* The card locations' wide sums (gamelib.fugitive.belief.marginals_tail, marginals_shares,
 * marginals) on 128-bit lanes over the ints' 30-bit digits: the last layer's loop over its sources
 * (last_layer: a dot product each, dot), an item set's vectors at a high half (dots), the values'
 * tallies (tally), two groups' rows met (convolve); and a closing pair layer's moves closed and
 * summed by destination (closed), its completions added at flagged keys for one pull (flag_into).
 *
 * Why: the last layer's share sums are 400-1,000-bit ints; per source the pure loop makes a dozen
 * products and sums of them (each a new Python int), per item set and high half a few hundred.
 * Here a product adds its digit products to signed 128-bit lanes (no allocation); carries are
 * settled, and one int made, when a sum is read.
 *
 * Exactness: the results are the pure loops' integers (int arithmetic is exact and associative;
 * only the values are kept).  A lane takes at most LOAD_MAX digit products (each under 2**60)
 * before its carries are settled, so no lane can overflow whatever the ints' sizes or signs.
 * Anything else than ints, lists and tuples of the expected shapes raises TypeError (IndexError
 * for an index out of range): the caller (marginals_tail) then runs its pure loop.
 *
 * Only CPython 3.11-3.13 with the GIL (the ints' digits read and written directly); any other
 * build fails to import this module, and the pure loops serve.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(Py_LIMITED_API) || defined(Py_GIL_DISABLED) || PY_VERSION_HEX < 0x030B0000 || \
    PY_VERSION_HEX >= 0x030E0000 || defined(SHARES_NO_DIGITS)
#define NO_DIGITS 1
#else

typedef __int128 i128;

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

/* Digit products (each < 2**60) a lane takes before its carries are settled: 2**66 of them stay
 * under 2**126 (settled lanes are < 2**30, the top one may be -1). */
#ifndef LOAD_MAX /* (a test build may settle sooner) */
#define LOAD_MAX ((uint64_t)1 << 62)
#endif

/* A signed sum kept as lanes: value = sum(lane[i] * 2**(30 i)). */
typedef struct {
    i128 *lane;
    Py_ssize_t n, cap; /* lanes in use, allocated */
    uint64_t load;     /* digit products added to a lane at most since the last settling */
} lanes_t;

static int lanes_reserve(lanes_t *a, Py_ssize_t n) {
    if (n <= a->cap) return 0;
    Py_ssize_t cap = a->cap ? 2 * a->cap : 32;
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

/* Carries settled: every lane in [0, 2**30) but the top one, which may be -1 (a negative sum). */
static int lanes_settle(lanes_t *a) {
    i128 carry = 0;
    Py_ssize_t n = a->n;
    for (Py_ssize_t i = 0; i < n; i++) {
        i128 v = a->lane[i] + carry;
        a->lane[i] = v & PyLong_MASK;
        carry = v >> PyLong_SHIFT; /* floor: arithmetic shift */
    }
    while (carry != 0 && carry != -1) {
        if (lanes_reserve(a, n + 1) < 0) return -1;
        a->lane[n++] = carry & PyLong_MASK;
        carry >>= PyLong_SHIFT;
    }
    if (carry == -1) {
        if (lanes_reserve(a, n + 1) < 0) return -1;
        a->lane[n++] = -1;
    }
    a->n = n;
    a->load = 1;
    return 0;
}

/* a += x * y (ints).  0, or -1 (MemoryError). */
static int lanes_mul_add(lanes_t *a, PyObject *xo, PyObject *yo) {
    PyLongObject *x = (PyLongObject *)xo, *y = (PyLongObject *)yo;
    Py_ssize_t nx = n_digits(x), ny = n_digits(y);
    if (nx == 0 || ny == 0) return 0;
    if (nx > ny) { /* the shorter one outside: fewer passes over the lanes */
        PyLongObject *t = x;
        x = y;
        y = t;
        Py_ssize_t tn = nx;
        nx = ny;
        ny = tn;
    }
    if (a->load + (uint64_t)nx > LOAD_MAX && lanes_settle(a) < 0) return -1;
    if (lanes_reserve(a, nx + ny + 1) < 0) return -1;
    const digit *xd = digits_of(x), *yd = digits_of(y);
    int neg = is_negative(x) ^ is_negative(y);
    for (Py_ssize_t i = 0; i < nx; i++) {
        int64_t xi = neg ? -(int64_t)xd[i] : (int64_t)xd[i];
        i128 *lane = a->lane + i;
        for (Py_ssize_t j = 0; j < ny; j++) lane[j] += (i128)(xi * (int64_t)yd[j]);
    }
    if (nx + ny > a->n) a->n = nx + ny;
    a->load += (uint64_t)nx;
    return 0;
}

/* The sum as a new int (NULL: MemoryError); the lanes are left empty. */
static PyObject *lanes_value(lanes_t *a) {
    if (lanes_settle(a) < 0) return NULL;
    Py_ssize_t n = a->n;
    int neg = n > 0 && a->lane[n - 1] == -1;
    if (neg) { /* value = sum(lane[i] 2**(30 i), i < n - 1) - 2**(30 (n - 1)): its magnitude */
        n--;
        i128 borrow = 1;
        for (Py_ssize_t i = 0; i < n; i++) {
            i128 v = (PyLong_MASK - a->lane[i]) + borrow;
            a->lane[i] = v & PyLong_MASK;
            borrow = v >> PyLong_SHIFT;
        }
        a->lane[n] = 0;
        if (borrow) a->lane[n++] = 1; /* the sum was -2**(30 n) */
    }
    Py_ssize_t top = n;
    while (top > 0 && a->lane[top - 1] == 0) top--;
    PyObject *result;
    if (top * PyLong_SHIFT <= 62) {
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
    if (a->lane) memset(a->lane, 0, (size_t)(a->n > n ? a->n : n) * sizeof(i128));
    a->n = 0;
    a->load = 0;
    return result;
}

static void lanes_free(lanes_t *a) {
    PyMem_Free(a->lane);
    a->lane = NULL;
    a->n = a->cap = 0;
}

/* ------------------------------------------------------------------ argument checks */

static inline int is_int(PyObject *o) { return PyLong_CheckExact(o); }

static PyObject *type_error(const char *what) {
    PyErr_Format(PyExc_TypeError, "_shares: %s", what);
    return NULL;
}

/* Item i of list o (no new reference), or NULL with IndexError. */
static inline PyObject *item(PyObject *list, Py_ssize_t i) {
    if (i < 0 || i >= PyList_GET_SIZE(list)) {
        PyErr_SetString(PyExc_IndexError, "_shares: index out of range");
        return NULL;
    }
    return PyList_GET_ITEM(list, i);
}

/* A small non-negative int (an index), or -1 with an exception. */
static inline Py_ssize_t index_of(PyObject *o) {
    if (!is_int(o)) {
        type_error("an index is not an int");
        return -1;
    }
    Py_ssize_t v = PyLong_AsSsize_t(o);
    if (v < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "_shares: negative index");
        return -1;
    }
    return v;
}

/* ------------------------------------------------------------------ dot */

static lanes_t HIGH_SUM, LOW_SUM; /* reused between calls (the GIL serialises them) */

/* dot(entries, y, z, shift): sum(aw * y[j]) << shift + sum(as_ * z[j]) over the (j, aw, as_)
 * tuples of the list entries (y and z lists of ints; shift >= 0). */
static PyObject *dot(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) return type_error("dot takes 4 arguments");
    PyObject *entries = args[0], *y = args[1], *z = args[2];
    if (!PyList_CheckExact(entries) || !PyList_CheckExact(y) || !PyList_CheckExact(z) || !is_int(args[3]))
        return type_error("dot(list, list, list, int)");
    Py_ssize_t shift = PyLong_AsSsize_t(args[3]);
    if (shift < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_shares: negative shift");
        return NULL;
    }
    lanes_t *h = &HIGH_SUM, *l = &LOW_SUM;
    h->n = l->n = 0;
    h->load = l->load = 0;
    Py_ssize_t count = PyList_GET_SIZE(entries);
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *e = PyList_GET_ITEM(entries, k);
        if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 3) goto bad_entry;
        PyObject *aw = PyTuple_GET_ITEM(e, 1), *as = PyTuple_GET_ITEM(e, 2);
        Py_ssize_t j = index_of(PyTuple_GET_ITEM(e, 0));
        if (j < 0) goto fail;
        PyObject *yj = item(y, j), *zj = item(z, j);
        if (yj == NULL || zj == NULL) goto fail;
        if (!is_int(aw) || !is_int(as) || !is_int(yj) || !is_int(zj)) goto bad_entry;
        if (lanes_mul_add(h, aw, yj) < 0 || lanes_mul_add(l, as, zj) < 0) goto fail;
    }
    /* l += h << shift: h settled (lanes < 2**30, the top one maybe -1), each lane times 2**r
     * added q lanes up */
    if (h->n) {
        if (lanes_settle(h) < 0) goto fail;
        Py_ssize_t q = shift / PyLong_SHIFT;
        int r = (int)(shift % PyLong_SHIFT);
        if (l->n && l->load + 1 > LOAD_MAX && lanes_settle(l) < 0) goto fail;
        if (lanes_reserve(l, q + h->n + 1) < 0) goto fail;
        for (Py_ssize_t i = 0; i < h->n; i++) l->lane[q + i] += h->lane[i] * ((i128)1 << r);
        if (q + h->n > l->n) l->n = q + h->n;
        l->load += 1;
        memset(h->lane, 0, (size_t)h->n * sizeof(i128));
        h->n = 0;
    }
    return lanes_value(l);
bad_entry:
    type_error("dot: an entry is not a (j, aw, as_) tuple of ints");
fail:
    if (h->lane) memset(h->lane, 0, (size_t)h->cap * sizeof(i128));
    if (l->lane) memset(l->lane, 0, (size_t)l->cap * sizeof(i128));
    h->n = l->n = 0;
    return NULL;
}

/* ------------------------------------------------------------------ dots */

/* dots(moves, by_b, size) -> (y, z): for every move (weights, shares, needs) -- weights and
 * shares lists of rows by b (a row a list of ints by evens, [] when not live), needs a list of
 * (need, weight) -- every row b of by_b's (b, cells) that is live and every (e1, j) of its cells:
 * y[j] += weight * shares[b][m], z[j] += weight * weights[b][m] over the needs, m = need - e1 if
 * need > e1 else 0.  y and z are lists of size ints. */
static PyObject *dots(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) return type_error("dots takes 3 arguments");
    PyObject *moves = args[0], *by_b = args[1];
    if (!PyList_CheckExact(moves) || !PyList_CheckExact(by_b) || !is_int(args[2]))
        return type_error("dots(list, list, int)");
    Py_ssize_t size = PyLong_AsSsize_t(args[2]);
    if (size < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_shares: negative size");
        return NULL;
    }
    lanes_t *ys = PyMem_Calloc((size_t)(2 * size + 1), sizeof(lanes_t));
    if (ys == NULL) return PyErr_NoMemory();
    lanes_t *zs = ys + size;
    PyObject *result = NULL, *ylist = NULL, *zlist = NULL;
    Py_ssize_t nmoves = PyList_GET_SIZE(moves), nb = PyList_GET_SIZE(by_b);
    for (Py_ssize_t k = 0; k < nmoves; k++) {
        PyObject *move = PyList_GET_ITEM(moves, k);
        if (!PyTuple_CheckExact(move) || PyTuple_GET_SIZE(move) != 3) goto bad;
        PyObject *weights = PyTuple_GET_ITEM(move, 0), *shares = PyTuple_GET_ITEM(move, 1);
        PyObject *needs = PyTuple_GET_ITEM(move, 2);
        if (!PyList_CheckExact(weights) || !PyList_CheckExact(shares) || !PyList_CheckExact(needs)) goto bad;
        Py_ssize_t nn = PyList_GET_SIZE(needs);
        for (Py_ssize_t bi = 0; bi < nb; bi++) {
            PyObject *bc = PyList_GET_ITEM(by_b, bi);
            if (!PyTuple_CheckExact(bc) || PyTuple_GET_SIZE(bc) != 2) goto bad;
            Py_ssize_t b = index_of(PyTuple_GET_ITEM(bc, 0));
            if (b < 0) goto done;
            PyObject *cells = PyTuple_GET_ITEM(bc, 1);
            PyObject *rw = item(weights, b), *rs = item(shares, b);
            if (rw == NULL || rs == NULL) goto done;
            if (!PyList_CheckExact(rw) || !PyList_CheckExact(rs) || !PyList_CheckExact(cells)) goto bad;
            if (PyList_GET_SIZE(rw) == 0 && PyList_GET_SIZE(rs) == 0) continue; /* not live */
            Py_ssize_t nc = PyList_GET_SIZE(cells);
            for (Py_ssize_t c = 0; c < nc; c++) {
                PyObject *cell = PyList_GET_ITEM(cells, c);
                if (!PyTuple_CheckExact(cell) || PyTuple_GET_SIZE(cell) != 2) goto bad;
                Py_ssize_t e1 = index_of(PyTuple_GET_ITEM(cell, 0));
                Py_ssize_t j = e1 < 0 ? -1 : index_of(PyTuple_GET_ITEM(cell, 1));
                if (j < 0) goto done;
                if (j >= size) {
                    PyErr_SetString(PyExc_IndexError, "_shares: slot out of range");
                    goto done;
                }
                for (Py_ssize_t t = 0; t < nn; t++) {
                    PyObject *nw = PyList_GET_ITEM(needs, t);
                    if (!PyTuple_CheckExact(nw) || PyTuple_GET_SIZE(nw) != 2) goto bad;
                    Py_ssize_t need = index_of(PyTuple_GET_ITEM(nw, 0));
                    if (need < 0) goto done;
                    PyObject *w = PyTuple_GET_ITEM(nw, 1);
                    Py_ssize_t m = need > e1 ? need - e1 : 0;
                    PyObject *xs = item(rs, m), *xw = item(rw, m);
                    if (xs == NULL || xw == NULL) goto done;
                    if (!is_int(w) || !is_int(xs) || !is_int(xw)) goto bad;
                    if (lanes_mul_add(&ys[j], w, xs) < 0 || lanes_mul_add(&zs[j], w, xw) < 0) goto done;
                }
            }
        }
    }
    ylist = PyList_New(size);
    zlist = PyList_New(size);
    if (ylist == NULL || zlist == NULL) goto done;
    for (Py_ssize_t j = 0; j < size; j++) {
        PyObject *a = lanes_value(&ys[j]);
        if (a == NULL) goto done;
        PyList_SET_ITEM(ylist, j, a);
        PyObject *b = lanes_value(&zs[j]);
        if (b == NULL) goto done;
        PyList_SET_ITEM(zlist, j, b);
    }
    result = PyTuple_Pack(2, ylist, zlist);
    goto done;
bad:
    type_error("dots: a move is not (weights, shares, [(need, weight)]) of lists and ints");
done:
    Py_XDECREF(ylist);
    Py_XDECREF(zlist);
    for (Py_ssize_t j = 0; j < 2 * size; j++) lanes_free(&ys[j]);
    PyMem_Free(ys);
    return result;
}

/* ------------------------------------------------------------------ convolve */

/* The last stack of rows (e, w, x) entries: the evens of entry i of a row list, or -1 with an
 * exception. */
static Py_ssize_t entry_evens(PyObject *e) {
    if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 3 || !is_int(PyTuple_GET_ITEM(e, 1)) ||
        !is_int(PyTuple_GET_ITEM(e, 2))) {
        type_error("convolve: an entry is not an (evens, w, x) tuple of ints");
        return -1;
    }
    return index_of(PyTuple_GET_ITEM(e, 0));
}

/* convolve(p, q, k, comb) -> [(t, w, x)]: marginals_shares._convolve, entry k of two groups' rows
 * met: for k0 in range(max(0, k - len(q) + 1), min(k, len(p) - 1) + 1), c = comb[k0], every (t1,
 * xw, xs) of p[k0] and (t2, yw, ys) of q[k - k0]: w[t1 + t2] += c xw yw, x[t1 + t2] += c xw ys +
 * yw c xs; the nonzero ones in order of t. */
static PyObject *convolve(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) return type_error("convolve takes 4 arguments");
    PyObject *p = args[0], *q = args[1], *comb = args[3];
    if (!PyList_CheckExact(p) || !PyList_CheckExact(q) || !PyList_CheckExact(comb) || !is_int(args[2]))
        return type_error("convolve(list, list, int, list)");
    Py_ssize_t k = PyLong_AsSsize_t(args[2]);
    if (k < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_shares: negative k");
        return NULL;
    }
    Py_ssize_t lp = PyList_GET_SIZE(p), lq = PyList_GET_SIZE(q);
    Py_ssize_t first = k - lq + 1 > 0 ? k - lq + 1 : 0, last = k < lp - 1 ? k : lp - 1;
    Py_ssize_t size = 0;
    for (Py_ssize_t k0 = first; k0 <= last; k0++) { /* shapes checked, the size found */
        PyObject *a = PyList_GET_ITEM(p, k0), *b = PyList_GET_ITEM(q, k - k0);
        if (!PyList_CheckExact(a) || !PyList_CheckExact(b)) return type_error("convolve: a row is not a list");
        Py_ssize_t ta = 0, tb = 0;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(a); i++)
            if ((ta = entry_evens(PyList_GET_ITEM(a, i))) < 0) return NULL;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(b); i++)
            if ((tb = entry_evens(PyList_GET_ITEM(b, i))) < 0) return NULL;
        if (PyList_GET_SIZE(a) && PyList_GET_SIZE(b) && ta + tb + 1 > size) size = ta + tb + 1;
    }
    if (last >= PyList_GET_SIZE(comb) && last >= first) {
        PyErr_SetString(PyExc_IndexError, "_shares: comb too short");
        return NULL;
    }
    lanes_t *acc = PyMem_Calloc((size_t)(2 * size + 1), sizeof(lanes_t));
    if (acc == NULL) return PyErr_NoMemory();
    lanes_t *ws = acc, *xs = acc + size;
    PyObject *result = NULL;
    for (Py_ssize_t k0 = first; k0 <= last; k0++) {
        PyObject *a = PyList_GET_ITEM(p, k0), *b = PyList_GET_ITEM(q, k - k0), *c = PyList_GET_ITEM(comb, k0);
        if (!is_int(c)) {
            type_error("convolve: comb is not ints");
            goto done;
        }
        Py_ssize_t na = PyList_GET_SIZE(a), nb = PyList_GET_SIZE(b);
        if (!na || !nb) continue;
        for (Py_ssize_t i = 0; i < na; i++) {
            PyObject *e = PyList_GET_ITEM(a, i);
            Py_ssize_t t1 = PyLong_AsSsize_t(PyTuple_GET_ITEM(e, 0));
            PyObject *cxw = PyNumber_Multiply(c, PyTuple_GET_ITEM(e, 1));
            PyObject *cxs = cxw == NULL ? NULL : PyNumber_Multiply(c, PyTuple_GET_ITEM(e, 2));
            if (cxs == NULL) {
                Py_XDECREF(cxw);
                goto done;
            }
            int bad = 0;
            for (Py_ssize_t j = 0; j < nb && !bad; j++) {
                PyObject *f = PyList_GET_ITEM(b, j);
                Py_ssize_t t = t1 + PyLong_AsSsize_t(PyTuple_GET_ITEM(f, 0));
                PyObject *yw = PyTuple_GET_ITEM(f, 1), *ys = PyTuple_GET_ITEM(f, 2);
                if (t >= size) { /* (rows not in order of evens) */
                    PyErr_SetString(PyExc_IndexError, "_shares: evens beyond the rows' last");
                    bad = 1;
                    break;
                }
                bad = lanes_mul_add(&ws[t], cxw, yw) < 0 || lanes_mul_add(&xs[t], cxw, ys) < 0 ||
                      lanes_mul_add(&xs[t], yw, cxs) < 0;
            }
            Py_DECREF(cxw);
            Py_DECREF(cxs);
            if (bad) goto done;
        }
    }
    result = PyList_New(0);
    if (result == NULL) goto done;
    for (Py_ssize_t t = 0; t < size; t++) {
        PyObject *w = lanes_value(&ws[t]), *x = w == NULL ? NULL : lanes_value(&xs[t]);
        if (x == NULL) {
            Py_XDECREF(w);
            Py_CLEAR(result);
            goto done;
        }
        if (n_digits((PyLongObject *)w) || n_digits((PyLongObject *)x)) {
            PyObject *ti = PyLong_FromSsize_t(t);
            PyObject *entry = ti == NULL ? NULL : PyTuple_Pack(3, ti, w, x);
            Py_XDECREF(ti);
            if (entry == NULL || PyList_Append(result, entry) < 0) {
                Py_XDECREF(entry);
                Py_DECREF(w);
                Py_DECREF(x);
                Py_CLEAR(result);
                goto done;
            }
            Py_DECREF(entry);
        }
        Py_DECREF(w);
        Py_DECREF(x);
    }
done:
    for (Py_ssize_t t = 0; t < 2 * size; t++) lanes_free(&acc[t]);
    PyMem_Free(acc);
    return result;
}

/* ------------------------------------------------------------------ tally */

/* tally(live, moves, shift, out): for every move (w, shares, items) -- shares a list of rows by b
 * ([] when not live), items a list of (need, v) -- and every need of its items (once each):
 * r = sum(x * shares[b][m]) over live's (b, e1, x), m = need - e1 if need > e1 else 0; then
 * out[v] += (w * r) << shift for each of its items where that is not 0.  out is a list of ints. */
static PyObject *tally(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) return type_error("tally takes 4 arguments");
    PyObject *live = args[0], *moves = args[1], *shift = args[2], *out = args[3];
    if (!PyList_CheckExact(live) || !PyList_CheckExact(moves) || !is_int(shift) || !PyList_CheckExact(out))
        return type_error("tally(list, list, int, list)");
    Py_ssize_t nl = PyList_GET_SIZE(live), nm = PyList_GET_SIZE(moves);
    for (Py_ssize_t i = 0; i < nl; i++) {
        PyObject *e = PyList_GET_ITEM(live, i);
        if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 3 || !is_int(PyTuple_GET_ITEM(e, 2)))
            return type_error("tally: live is not (b, e1, x) tuples");
    }
    lanes_t r = {0};
    PyObject *done = PyDict_New(), *result = NULL;
    if (done == NULL) return NULL;
    for (Py_ssize_t k = 0; k < nm; k++) {
        PyObject *move = PyList_GET_ITEM(moves, k);
        if (!PyTuple_CheckExact(move) || PyTuple_GET_SIZE(move) != 3) goto bad;
        PyObject *w = PyTuple_GET_ITEM(move, 0), *shares = PyTuple_GET_ITEM(move, 1);
        PyObject *items = PyTuple_GET_ITEM(move, 2);
        if (!is_int(w) || !PyList_CheckExact(shares) || !PyList_CheckExact(items)) goto bad;
        PyDict_Clear(done);
        Py_ssize_t ni = PyList_GET_SIZE(items);
        for (Py_ssize_t t = 0; t < ni; t++) {
            PyObject *it = PyList_GET_ITEM(items, t);
            if (!PyTuple_CheckExact(it) || PyTuple_GET_SIZE(it) != 2) goto bad;
            PyObject *need_o = PyTuple_GET_ITEM(it, 0);
            Py_ssize_t v = index_of(PyTuple_GET_ITEM(it, 1));
            if (v < 0) goto done;
            PyObject *val = PyDict_GetItemWithError(done, need_o);
            if (val == NULL) {
                if (PyErr_Occurred()) goto done;
                Py_ssize_t need = index_of(need_o);
                if (need < 0) goto done;
                for (Py_ssize_t i = 0; i < nl; i++) {
                    PyObject *e = PyList_GET_ITEM(live, i);
                    Py_ssize_t b = index_of(PyTuple_GET_ITEM(e, 0));
                    Py_ssize_t e1 = b < 0 ? -1 : index_of(PyTuple_GET_ITEM(e, 1));
                    if (e1 < 0) goto done;
                    PyObject *row = item(shares, b);
                    if (row == NULL) goto done;
                    if (!PyList_CheckExact(row)) goto bad;
                    if (PyList_GET_SIZE(row) == 0) continue; /* not live */
                    PyObject *xm = item(row, need > e1 ? need - e1 : 0);
                    if (xm == NULL) goto done;
                    if (!is_int(xm)) goto bad;
                    if (lanes_mul_add(&r, PyTuple_GET_ITEM(e, 2), xm) < 0) goto done;
                }
                PyObject *sum = lanes_value(&r);
                if (sum == NULL) goto done;
                PyObject *prod = PyNumber_Multiply(w, sum);
                Py_DECREF(sum);
                if (prod == NULL) goto done;
                PyObject *shifted = PyNumber_Lshift(prod, shift);
                Py_DECREF(prod);
                if (shifted == NULL) goto done;
                int bad_set = PyDict_SetItem(done, need_o, shifted) < 0;
                Py_DECREF(shifted);
                if (bad_set) goto done;
                val = shifted; /* (the dict holds it) */
            }
            if (n_digits((PyLongObject *)val)) {
                PyObject *old = item(out, v);
                if (old == NULL) goto done;
                PyObject *sum = PyNumber_Add(old, val);
                if (sum == NULL) goto done;
                PyList_SetItem(out, v, sum); /* (steals sum, drops old) */
            }
        }
    }
    result = Py_None;
    Py_INCREF(result);
    goto done;
bad:
    type_error("tally: a move is not (w, shares rows, [(need, value)]) of ints and lists");
done:
    lanes_free(&r);
    Py_DECREF(done);
    return result;
}

/* ------------------------------------------------------------------ last_layer */

typedef unsigned __int128 u128;

/* A non-negative int below 2**128 into *v: 1, else 0 (no exception). */
static int read_u128(PyObject *o, u128 *v) {
    if (!is_int(o)) return 0;
    PyLongObject *x = (PyLongObject *)o;
    if (is_negative(x)) return 0;
    Py_ssize_t n = n_digits(x);
    const digit *d = digits_of(x);
    u128 r = 0;
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        if (r >> (128 - PyLong_SHIFT)) return 0;
        r = (r << PyLong_SHIFT) | d[i];
    }
    *v = r;
    return 1;
}

static PyObject *int_of(u128 v) {
    if (v >> 64 == 0) return PyLong_FromUnsignedLongLong((unsigned long long)v);
    Py_ssize_t n = 0;
    for (u128 m = v; m; m >>= PyLong_SHIFT) n++;
    PyLongObject *x = _PyLong_New(n);
    if (x == NULL) return NULL;
    digit *d = digits_of(x);
    for (Py_ssize_t i = 0; i < n; i++, v >>= PyLong_SHIFT) d[i] = (digit)(v & PyLong_MASK);
    return (PyObject *)x;
}

/* Lanes of one (item set, high half): per slot j, the sources' forward weights times their low
 * halves' weights (what the values' tallies dot with the suffix sums). */
typedef struct {
    PyObject *key; /* the h_key (a reference) */
    lanes_t *x;    /* size lanes */
} acc_t;

/* last_layer(sources, reads, per_sig, high, low, left, lows, dots, miss, low_moves, shift, size,
 * tally, out) -> None or {h_key: [x_j]}: marginals_tail.tail_shares' loop over the sources (see
 * there), out[src] = s for every source whose share sums s are not 0; reads, high and low are
 * masks below 2**128, left the bits added to a low key.  A source (or mask) outside [0, 2**128),
 * or a container of another type, refuses the call before anything is done: NotImplemented. */
static PyObject *last_layer(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 14) return type_error("last_layer takes 14 arguments");
    PyObject *sources = args[0], *per_sig = args[2], *lows = args[6], *dots_memo = args[7];
    PyObject *miss = args[8], *low_moves = args[9], *out = args[13];
    int tally = PyObject_IsTrue(args[12]);
    if (tally < 0) return NULL;
    u128 reads, high, low, left;
    if (!PyDict_CheckExact(sources) || !PyDict_CheckExact(per_sig) || !PyDict_CheckExact(lows) ||
        !PyDict_CheckExact(dots_memo) || !PyDict_CheckExact(out) || !read_u128(args[1], &reads) ||
        !read_u128(args[3], &high) || !read_u128(args[4], &low) || !read_u128(args[5], &left) ||
        !is_int(args[10]) || !is_int(args[11]))
        Py_RETURN_NOTIMPLEMENTED; /* refused: the caller runs its loop */
    PyObject *shift = args[10];
    Py_ssize_t size = PyLong_AsSsize_t(args[11]);
    if (size < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_shares: negative size");
        return NULL;
    }
    Py_ssize_t pos = 0;
    PyObject *src, *fw;
    u128 key;
    while (PyDict_Next(sources, &pos, &src, &fw))
        if (!read_u128(src, &key) || !is_int(fw)) Py_RETURN_NOTIMPLEMENTED; /* refused, nothing done */
    PyObject *index = PyDict_New(); /* h_key -> its acc's index */
    acc_t *accs = NULL;
    Py_ssize_t naccs = 0, cap = 0;
    PyObject *result = NULL;
    if (index == NULL) return NULL;
    pos = 0;
    while (PyDict_Next(sources, &pos, &src, &fw)) {
        read_u128(src, &key);
        PyObject *sig = int_of(key & reads);
        if (sig == NULL) goto done;
        PyObject *entry = PyDict_GetItemWithError(per_sig, sig);
        Py_DECREF(sig);
        if (entry == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "_shares: a signature without moves");
            goto done;
        }
        if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 2 || !PyList_CheckExact(PyTuple_GET_ITEM(entry, 1))) {
            type_error("last_layer: per_sig's value is not (set key, low moves)");
            goto done;
        }
        PyObject *set_key = PyTuple_GET_ITEM(entry, 0), *low_list = PyTuple_GET_ITEM(entry, 1);
        PyObject *s = NULL;
        u128 sk;
        if (read_u128(set_key, &sk)) { /* (-1: no high moves) */
            PyObject *h_key = int_of(sk | (key & high));
            if (h_key == NULL) goto done;
            PyObject *yz = PyDict_GetItemWithError(dots_memo, h_key);
            if (yz == NULL) {
                if (PyErr_Occurred()) {
                    Py_DECREF(h_key);
                    goto done;
                }
                yz = PyObject_CallOneArg(miss, h_key);
                if (yz == NULL || PyDict_SetItem(dots_memo, h_key, yz) < 0) {
                    Py_XDECREF(yz);
                    Py_DECREF(h_key);
                    goto done;
                }
                Py_DECREF(yz); /* the memo holds it */
            }
            PyObject *l_key = int_of((key & low) | left);
            PyObject *entries = l_key == NULL ? NULL : PyDict_GetItemWithError(lows, l_key);
            Py_XDECREF(l_key);
            if (entries == NULL || !PyTuple_CheckExact(yz) || PyTuple_GET_SIZE(yz) != 2) {
                if (entries == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "_shares: a low half without entries");
                else if (!PyErr_Occurred()) type_error("last_layer: a (y, z) that is not a pair");
                Py_DECREF(h_key);
                goto done;
            }
            PyObject *dargs[4] = {entries, PyTuple_GET_ITEM(yz, 0), PyTuple_GET_ITEM(yz, 1), shift};
            s = dot(NULL, dargs, 4);
            if (s == NULL) {
                Py_DECREF(h_key);
                goto done;
            }
            if (tally && n_digits((PyLongObject *)fw)) { /* x_j += fw * aw over the low entries */
                PyObject *at = PyDict_GetItemWithError(index, h_key);
                Py_ssize_t a;
                if (at == NULL) {
                    if (PyErr_Occurred()) goto fail_s;
                    if (naccs == cap) {
                        Py_ssize_t ncap = cap ? 2 * cap : 64;
                        acc_t *more = PyMem_Realloc(accs, (size_t)ncap * sizeof(acc_t));
                        if (more == NULL) {
                            PyErr_NoMemory();
                            goto fail_s;
                        }
                        accs = more;
                        cap = ncap;
                    }
                    lanes_t *x = PyMem_Calloc((size_t)size + 1, sizeof(lanes_t));
                    PyObject *ia = PyLong_FromSsize_t(naccs);
                    if (x == NULL || ia == NULL || PyDict_SetItem(index, h_key, ia) < 0) {
                        PyMem_Free(x);
                        Py_XDECREF(ia);
                        if (!PyErr_Occurred()) PyErr_NoMemory();
                        goto fail_s;
                    }
                    Py_DECREF(ia);
                    Py_INCREF(h_key);
                    accs[naccs].key = h_key;
                    accs[naccs].x = x;
                    a = naccs++;
                } else {
                    a = PyLong_AsSsize_t(at);
                }
                Py_ssize_t ne = PyList_GET_SIZE(entries); /* (dot checked their shapes) */
                for (Py_ssize_t k = 0; k < ne; k++) {
                    PyObject *e = PyList_GET_ITEM(entries, k);
                    Py_ssize_t j = PyLong_AsSsize_t(PyTuple_GET_ITEM(e, 0));
                    if (j >= size) {
                        PyErr_SetString(PyExc_IndexError, "_shares: slot out of range");
                        goto fail_s;
                    }
                    if (lanes_mul_add(&accs[a].x[j], fw, PyTuple_GET_ITEM(e, 1)) < 0) goto fail_s;
                }
            }
            Py_DECREF(h_key);
            goto have_s;
        fail_s:
            Py_DECREF(h_key);
            Py_DECREF(s);
            goto done;
        }
    have_s:
        if (PyList_GET_SIZE(low_list)) { /* moves of a hideout in groups 0 or 1: read in Python */
            PyObject *extra = PyObject_CallFunctionObjArgs(low_moves, src, fw, low_list, NULL);
            if (extra == NULL) {
                Py_XDECREF(s);
                goto done;
            }
            if (s == NULL) {
                s = extra;
            } else {
                PyObject *sum = PyNumber_Add(s, extra);
                Py_DECREF(s);
                Py_DECREF(extra);
                if (sum == NULL) goto done;
                s = sum;
            }
        }
        if (s != NULL) {
            int nonzero = n_digits((PyLongObject *)s) != 0;
            if (nonzero && PyDict_SetItem(out, src, s) < 0) {
                Py_DECREF(s);
                goto done;
            }
            Py_DECREF(s);
        }
    }
    if (!tally) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    result = PyDict_New();
    if (result == NULL) goto done;
    for (Py_ssize_t a = 0; a < naccs; a++) {
        PyObject *xs = PyList_New(size);
        if (xs == NULL) goto drop;
        for (Py_ssize_t j = 0; j < size; j++) {
            PyObject *v = lanes_value(&accs[a].x[j]);
            if (v == NULL) {
                Py_DECREF(xs);
                goto drop;
            }
            PyList_SET_ITEM(xs, j, v);
        }
        int bad = PyDict_SetItem(result, accs[a].key, xs) < 0;
        Py_DECREF(xs);
        if (bad) goto drop;
    }
    goto done;
drop:
    Py_CLEAR(result);
done:
    for (Py_ssize_t a = 0; a < naccs; a++) {
        Py_DECREF(accs[a].key);
        for (Py_ssize_t j = 0; j < size; j++) lanes_free(&accs[a].x[j]);
        PyMem_Free(accs[a].x);
    }
    PyMem_Free(accs);
    Py_DECREF(index);
    return result;
}

/* ------------------------------------------------------------------ closed */

/* w * x, with 1 * x = x (no new int). */
static PyObject *times(PyObject *w, PyObject *x) {
    PyLongObject *v = (PyLongObject *)w;
    if (n_digits(v) == 1 && !is_negative(v) && digits_of(v)[0] == 1) {
        Py_INCREF(x);
        return x;
    }
    return PyNumber_Multiply(w, x);
}

/* closed(hit, held, mask, memo, shut, flag) -> (moves, settled, odd): marginals._Walk._closed's
 * pair moves closed and summed by destination, split as _pull_closing_pairs' miss reads them.  For
 * every (d, w) of hit: key = held | (d & mask), (new, f, fs) = memo[key] (shut(key) when missing:
 * it fills memo), and where f is not 0, destination bits (d & ~mask) | new gets w * f and w * fs
 * (summed over the moves reaching it, first-reached order).  Then per destination with wf or wfs
 * not 0: moves (bits, wf) where wf is not 0, settled (bits, wfs) where both are not 0, odd (bits,
 * wfs) where wf is 0.  With a flag (a power of two above every destination; 0: none) the settled
 * ones go to moves as (bits | flag, wfs), each after its (bits, wf).  held, mask, d, new and flag
 * below 2**128 and every destination below the flag, else NotImplemented (nothing done). */
static PyObject *closed(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6) return type_error("closed takes 6 arguments");
    PyObject *hit = args[0], *memo = args[3], *shut = args[4];
    u128 held, mask, flag;
    if (!PyList_CheckExact(hit) || !PyDict_CheckExact(memo) || !read_u128(args[1], &held) ||
        !read_u128(args[2], &mask) || !read_u128(args[5], &flag) || (flag & (flag - 1)) != 0)
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t n = PyList_GET_SIZE(hit);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *m = PyList_GET_ITEM(hit, k);
        u128 d;
        if (!PyTuple_CheckExact(m) || PyTuple_GET_SIZE(m) < 2 || !read_u128(PyTuple_GET_ITEM(m, 0), &d) ||
            !is_int(PyTuple_GET_ITEM(m, 1)))
            Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *index = PyDict_New(); /* bits -> [bits, wf, wfs] (a list: summed in place) */
    PyObject *order = PyList_New(0);
    PyObject *result = NULL, *moves = NULL, *settled = NULL, *odd = NULL;
    if (index == NULL || order == NULL) goto done;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *m = PyList_GET_ITEM(hit, k);
        u128 d;
        read_u128(PyTuple_GET_ITEM(m, 0), &d);
        PyObject *w = PyTuple_GET_ITEM(m, 1);
        PyObject *key = int_of(held | (d & mask));
        if (key == NULL) goto done;
        PyObject *entry = PyDict_GetItemWithError(memo, key);
        if (entry != NULL) {
            Py_INCREF(entry);
        } else if (!PyErr_Occurred()) {
            entry = PyObject_CallOneArg(shut, key);
        }
        Py_DECREF(key);
        if (entry == NULL) goto done;
        u128 nw;
        if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 3 || !read_u128(PyTuple_GET_ITEM(entry, 0), &nw) ||
            !is_int(PyTuple_GET_ITEM(entry, 1)) || !is_int(PyTuple_GET_ITEM(entry, 2))) {
            Py_DECREF(entry);
            type_error("closed: a closing is not (new, f, fs) of ints");
            goto done;
        }
        PyObject *f = PyTuple_GET_ITEM(entry, 1), *fs = PyTuple_GET_ITEM(entry, 2);
        if (n_digits((PyLongObject *)f) == 0) {
            Py_DECREF(entry);
            continue;
        }
        if (flag && ((d & ~mask) | nw) >= flag) { /* (refused before anything is returned) */
            Py_DECREF(entry);
            Py_INCREF(Py_NotImplemented);
            result = Py_NotImplemented;
            goto done;
        }
        PyObject *wf = times(w, f), *wfs = wf == NULL ? NULL : times(w, fs);
        Py_DECREF(entry);
        if (wfs == NULL) {
            Py_XDECREF(wf);
            goto done;
        }
        PyObject *bits = int_of((d & ~mask) | nw);
        PyObject *seen = bits == NULL ? NULL : PyDict_GetItemWithError(index, bits);
        if (bits == NULL || (seen == NULL && PyErr_Occurred())) {
            Py_XDECREF(bits);
            Py_DECREF(wf);
            Py_DECREF(wfs);
            goto done;
        }
        if (seen == NULL) {
            PyObject *cell = PyList_New(3);
            if (cell == NULL) {
                Py_DECREF(bits);
                Py_DECREF(wf);
                Py_DECREF(wfs);
                goto done;
            }
            Py_INCREF(bits);
            PyList_SET_ITEM(cell, 0, bits);
            PyList_SET_ITEM(cell, 1, wf);
            PyList_SET_ITEM(cell, 2, wfs);
            int bad = PyDict_SetItem(index, bits, cell) < 0 || PyList_Append(order, cell) < 0;
            Py_DECREF(cell);
            Py_DECREF(bits);
            if (bad) goto done;
        } else {
            Py_DECREF(bits);
            PyObject *a = PyNumber_Add(PyList_GET_ITEM(seen, 1), wf);
            PyObject *b = a == NULL ? NULL : PyNumber_Add(PyList_GET_ITEM(seen, 2), wfs);
            Py_DECREF(wf);
            Py_DECREF(wfs);
            if (b == NULL) {
                Py_XDECREF(a);
                goto done;
            }
            PyList_SetItem(seen, 1, a);
            PyList_SetItem(seen, 2, b);
        }
    }
    moves = PyList_New(0);
    settled = PyList_New(0);
    odd = PyList_New(0);
    if (moves == NULL || settled == NULL || odd == NULL) goto done;
    Py_ssize_t no = PyList_GET_SIZE(order);
    for (Py_ssize_t k = 0; k < no; k++) {
        PyObject *cell = PyList_GET_ITEM(order, k);
        PyObject *bits = PyList_GET_ITEM(cell, 0), *wf = PyList_GET_ITEM(cell, 1), *wfs = PyList_GET_ITEM(cell, 2);
        int has_f = n_digits((PyLongObject *)wf) != 0, has_s = n_digits((PyLongObject *)wfs) != 0;
        PyObject *pair;
        if (has_f) {
            pair = PyTuple_Pack(2, bits, wf);
            if (pair == NULL || PyList_Append(moves, pair) < 0) {
                Py_XDECREF(pair);
                goto done;
            }
            Py_DECREF(pair);
        }
        if (has_s) {
            if (has_f && flag) { /* bits | flag (bits < flag) */
                PyObject *up = PyNumber_Or(bits, args[5]);
                pair = up == NULL ? NULL : PyTuple_Pack(2, up, wfs);
                Py_XDECREF(up);
            } else {
                pair = PyTuple_Pack(2, bits, wfs);
            }
            if (pair == NULL || PyList_Append(!has_f ? odd : flag ? moves : settled, pair) < 0) {
                Py_XDECREF(pair);
                goto done;
            }
            Py_DECREF(pair);
        }
    }
    result = PyTuple_Pack(3, moves, settled, odd);
done:
    Py_XDECREF(index);
    Py_XDECREF(order);
    Py_XDECREF(moves);
    Py_XDECREF(settled);
    Py_XDECREF(odd);
    return result;
}

/* ------------------------------------------------------------------ flag_into */

/* flag_into(nxt, completions, flag): nxt[dst | flag] = b for every (dst, b) of completions (a
 * closing pair layer's one pull reads them there).  Every dst and flag below 2**128 and every dst
 * below the flag, else NotImplemented, nothing done. */
static PyObject *flag_into(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) return type_error("flag_into takes 3 arguments");
    PyObject *nxt = args[0], *completions = args[1];
    u128 flag, dst = 0;
    if (!PyDict_CheckExact(nxt) || !PyDict_CheckExact(completions) || !read_u128(args[2], &flag) || flag == 0 ||
        (flag & (flag - 1)) != 0)
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(completions, &pos, &key, &value))
        if (!read_u128(key, &dst) || dst >= flag) Py_RETURN_NOTIMPLEMENTED;
    pos = 0;
    while (PyDict_Next(completions, &pos, &key, &value)) {
        read_u128(key, &dst);
        PyObject *up = int_of(dst | flag);
        if (up == NULL) return NULL;
        int bad = PyDict_SetItem(nxt, up, value) < 0;
        Py_DECREF(up);
        if (bad) return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef METHODS[] = {
    {"dot", (PyCFunction)(void (*)(void))dot, METH_FASTCALL,
     "dot(entries, y, z, shift): sum(aw * y[j]) << shift + sum(as_ * z[j]) over (j, aw, as_)."},
    {"dots", (PyCFunction)(void (*)(void))dots, METH_FASTCALL,
     "dots(moves, by_b, size) -> (y, z): an item set's vectors at a high half (marginals_tail._dots)."},
    {"convolve", (PyCFunction)(void (*)(void))convolve, METH_FASTCALL,
     "convolve(p, q, k, comb) -> [(t, w, x)]: entry k of two groups' rows met (marginals_shares._convolve)."},
    {"tally", (PyCFunction)(void (*)(void))tally, METH_FASTCALL,
     "tally(live, moves, shift, out): the last position's values' tallies (marginals_tail._tally)."},
    {"closed", (PyCFunction)(void (*)(void))closed, METH_FASTCALL,
     "closed(hit, held, mask, memo, shut) -> (moves, settled, odd): a pair layer's moves closed (marginals)."},
    {"flag_into", (PyCFunction)(void (*)(void))flag_into, METH_FASTCALL,
     "flag_into(nxt, completions, flag): nxt[dst | flag] = b for every (dst, b) of completions."},
    {"last_layer", (PyCFunction)(void (*)(void))last_layer, METH_FASTCALL,
     "last_layer(...): marginals_tail.tail_shares' loop over the sources (see _shares.c)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_shares",
    .m_doc = "The card locations' last-layer sums on 128-bit lanes (see marginals_tail.py).",
    .m_size = -1,
    .m_methods = METHODS,
};
#endif

PyMODINIT_FUNC PyInit__shares(void) {
#ifdef NO_DIGITS
    PyErr_SetString(PyExc_ImportError, "_shares needs CPython 3.11-3.13's int digits; the pure loops serve");
    return NULL;
#else
    return PyModule_Create(&MODULE);
#endif
}
