/* A pair layer's moves made natively: gamelib.fugitive.belief.programme's Programme._pair_frame
 * and Programme._pair_deltas in one call; Programme._split_closable, Programme._delta_key and the closing
 * loop of Programme._closed_deltas (close_moves: part_memo filled as the loop fills it).
 *
 * Why: a large pair layer makes each of its delta keys' moves once, but the hardest held-back
 * positions have thousands of keys (fresh-K-211: ~5,000 keys, 4.3 moves each) and the Python
 * loops spend ~10 us a key on small-int and ~100-bit arithmetic (a third of the generation).  Here
 * the frame and the loops run on native ints: a delta is a signed __int128 (|delta| < 2**100),
 * made into a Python int once per move; a weight is a product of the tables' Python ints
 * (COMB, FALL, COEFS), multiplied with the C API, so every weight is the int the pure loop makes.
 *
 * Exactness: the same list of (delta, weight) tuples, in the same order, as the pure methods (the
 * reference, kept in programme.py and run when this module is missing or
 * gamelib.fugitive.belief.kernel.COMPILED is false).  What does not fit (a signature outside
 * [0, 2**100), a table or a row that is not a list of the expected size, a tuple of another
 * length, an index off a table) returns None: the caller runs the pure method instead.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

/* the state's layout (gamelib/fugitive/belief/bits.py) */
static const int U_SH[4] = {0, 5, 10, 15};
static const int H_SH[4] = {20, 24, 28, 32};
static const int HE_SH[4] = {36, 40, 44, 48};
static const int M_SH[4] = {52, 56, 60, 64};
#define LEFT 74
#define JM 80
#define NEED 86
#define NEXT 93
#define PROG 96
#define GROUPS 4
#define SIG_BITS 100 /* a signature above this does not fit: the pure loop runs */

static PyObject *from_i128(i128 v) {
    if (v >= INT64_MIN && v <= INT64_MAX) return PyLong_FromLongLong((long long)v);
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromNativeBytes(&v, 16, Py_ASNATIVEBYTES_NATIVE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)&v, 16, 1, 1);
#endif
}

/* o (an int) as an unsigned 128-bit value below 2**SIG_BITS: 1, 0 if it does not fit, -1 on error. */
static int read_sig(PyObject *o, u128 *out) {
    if (!PyLong_CheckExact(o)) return 0;
    int overflow;
    long long small = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) {
        if (small == -1 && PyErr_Occurred()) return -1;
        if (small < 0) return 0;
        *out = (u128)small;
        return 1;
    }
    if (overflow < 0) return 0;
    unsigned char bytes[16];
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(o, bytes, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    if (n < 0) return -1;
    if (n > 16) return 0;
#else
    if (_PyLong_AsByteArray((PyLongObject *)o, bytes, 16, 1, 0) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        return 0;
    }
#endif
    u128 v = 0;
    for (int b = 15; b >= 0; b--) v = (v << 8) | bytes[b];
    if (v >> SIG_BITS) return 0;
    *out = v;
    return 1;
}

/* item a of a tuple of small ints (n items): 1, 0 if it does not fit, -1 on error */
static int small_items(PyObject *t, Py_ssize_t n, long *out) {
    if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) != n) return 0;
    for (Py_ssize_t a = 0; a < n; a++) {
        PyObject *o = PyTuple_GET_ITEM(t, a);
        if (!PyLong_CheckExact(o)) return 0;
        int overflow;
        long v = PyLong_AsLongAndOverflow(o, &overflow);
        if (overflow || v > (1L << 20) || v < -(1L << 20)) return 0;
        if (v == -1 && PyErr_Occurred()) return -1;
        out[a] = v;
    }
    return 1;
}

/* table[a][b] (a list of lists of ints), borrowed; NULL if off the table */
static inline PyObject *at2(PyObject *table, long a, long b) {
    if (a < 0 || b < 0 || a >= PyList_GET_SIZE(table)) return NULL;
    PyObject *row = PyList_GET_ITEM(table, a);
    if (!PyList_CheckExact(row) || b >= PyList_GET_SIZE(row)) return NULL;
    PyObject *v = PyList_GET_ITEM(row, b);
    return PyLong_CheckExact(v) ? v : NULL;
}

static inline PyObject *at1(PyObject *row, long b) {
    if (b < 0 || b >= PyList_GET_SIZE(row)) return NULL;
    PyObject *v = PyList_GET_ITEM(row, b);
    return PyLong_CheckExact(v) ? v : NULL;
}

#define NOFIT_RETURN 2 /* a status: something did not fit, return None */

/* x * y (new reference; x, y borrowed or owned by the caller) */
static inline PyObject *mul(PyObject *x, PyObject *y) { return PyNumber_Multiply(x, y); }

/* appends (delta, w) to out; w borrowed.  0 or -1 */
static int append_move(PyObject *out, i128 delta, PyObject *w) {
    PyObject *d = from_i128(delta);
    if (d == NULL) return -1;
    PyObject *t = PyTuple_New(2);
    if (t == NULL) {
        Py_DECREF(d);
        return -1;
    }
    Py_INCREF(w);
    PyTuple_SET_ITEM(t, 0, d);
    PyTuple_SET_ITEM(t, 1, w);
    int rc = PyList_Append(out, t);
    Py_DECREF(t);
    return rc;
}

typedef struct {
    long left, need, marks, lowest, room_a, far, evens_a, evens_b, ev_a, ev_b, free_a, free_b, cap_b;
    i128 base, one_a, one_b, mark_a, mark_b;
    int last, pending, clears;
} frame_t;

/* Programme._pair_frame: 1 with *f filled, 0 if the pair has no move */
static int pair_frame(u128 sig, int g, const long *cap, const long *limit, const long *avail, const long *slots,
                      int pending, frame_t *f) {
    int h = g + 1;
    long left = (long)((sig >> LEFT) & 63), need = (long)((sig >> NEED) & 127), marks = (long)((sig >> JM) & 63);
    long u_a = (long)((sig >> U_SH[g]) & 31), u_b = (long)((sig >> U_SH[h]) & 31);
    long ev_a = avail[2 * g + 1] - (long)((sig >> HE_SH[g]) & 15) - (long)((sig >> M_SH[g]) & 15);
    long ev_b = avail[2 * h + 1] - (long)((sig >> HE_SH[h]) & 15) - (long)((sig >> M_SH[h]) & 15);
    if (ev_a < 0 || ev_b < 0) return 0;
    long far = 0, far_evens = 0;
    for (int x = h + 1; x < GROUPS; x++) {
        long u_x = (long)((sig >> U_SH[x]) & 31);
        long r = limit[x] - u_x;
        if (r < 0) r = cap[x] - u_x;
        far += r;
        if (need && r > 0) {
            long e = avail[2 * x + 1];
            far_evens += r < e ? r : e > 0 ? e : 0;
        }
    }
    long r = limit[h] - u_b;
    if (r < 0) r = cap[h] - u_b;
    long evens_a = need && r > 0 ? far_evens + (r < ev_b ? r : ev_b) : far_evens;
    long room_a = cap[g] - u_a;
    if (room_a > left) room_a = left;
    long lowest = left - far - r;
    if (lowest > room_a) return 0;
    int last = h == GROUPS - 1;
    int clears = last && !pending;
    long free_a = slots[g], free_b = slots[h];
    if (free_a >= 0) free_a -= u_a;
    if (free_b >= 0) free_b -= u_b;
    i128 one_a = (i128)1 << U_SH[g], one_b = (i128)1 << U_SH[h];
    i128 mark_a = (i128)1 << M_SH[g], mark_b = (i128)1 << M_SH[h];
    i128 scratch = (i128)(sig & ((((u128)1 << PROG) - 1) ^ (((u128)1 << LEFT) - 1)));
    i128 base = clears ? -scratch : 0;
    if (!clears) {
        one_a -= (i128)1 << LEFT;
        one_b -= (i128)1 << LEFT;
        mark_a += (i128)1 << JM;
        mark_b += (i128)1 << JM;
    }
    f->left = left, f->need = need, f->marks = marks, f->lowest = lowest, f->room_a = room_a, f->far = far;
    f->evens_a = evens_a, f->evens_b = last ? 0 : far_evens, f->ev_a = ev_a, f->ev_b = ev_b;
    f->free_a = free_a, f->free_b = free_b, f->cap_b = cap[h] - u_b;
    f->base = base, f->one_a = one_a, f->one_b = one_b, f->mark_a = mark_a, f->mark_b = mark_b;
    f->last = last, f->pending = pending, f->clears = clears;
    return 1;
}

/* The second group's moves after a first-group take (d1, w1; m marks so far): appended to out.
 * 0, -1 on error, NOFIT_RETURN */
static int second_group(PyObject *out, const frame_t *f, PyObject *comb, PyObject *fall, PyObject *coefs, long left_b,
                        long low_b, long room_b, long m, i128 d1, PyObject *w1) {
    for (long k2 = low_b; k2 <= room_b; k2++) {
        PyObject *c = at2(comb, left_b, k2);
        if (c == NULL) return NOFIT_RETURN;
        PyObject *wk2;
        Py_INCREF(c);
        wk2 = c;
        if (f->free_b >= 0 && k2) {
            if (k2 > f->free_b) {
                Py_DECREF(wk2);
                break;
            }
            PyObject *fb = at2(fall, f->free_b, k2);
            if (fb == NULL) {
                Py_DECREF(wk2);
                return NOFIT_RETURN;
            }
            PyObject *x = mul(wk2, fb);
            Py_DECREF(wk2);
            if (x == NULL) return -1;
            wk2 = x;
        }
        i128 d2 = d1 + (i128)k2 * f->one_b;
        PyObject *x = mul(wk2, w1);
        Py_DECREF(wk2);
        if (x == NULL) return -1;
        wk2 = x;
        if (!f->need) {
            int rc = 0;
            if (!(f->clears && m)) rc = append_move(out, d2, wk2);
            Py_DECREF(wk2);
            if (rc < 0) return -1;
            continue;
        }
        long rest = left_b - k2;
        long low_j = f->pending ? 0 : f->need - m - (rest < f->evens_b ? rest : f->evens_b);
        long top = (k2 < f->ev_b ? k2 : f->ev_b);
        for (long j2 = low_j > 0 ? low_j : 0; j2 <= top; j2++) {
            PyObject *w;
            if (j2) {
                PyObject *cj = at2(comb, k2, j2);
                if (cj == NULL) {
                    Py_DECREF(wk2);
                    return NOFIT_RETURN;
                }
                w = mul(wk2, cj);
                if (w == NULL) {
                    Py_DECREF(wk2);
                    return -1;
                }
            } else {
                Py_INCREF(wk2);
                w = wk2;
            }
            if (f->clears) {
                PyObject *cf = at1(coefs, m + j2);
                if (cf == NULL) {
                    Py_DECREF(w);
                    Py_DECREF(wk2);
                    return NOFIT_RETURN;
                }
                PyObject *y = mul(w, cf);
                Py_DECREF(w);
                if (y == NULL) {
                    Py_DECREF(wk2);
                    return -1;
                }
                w = y;
            }
            int nz = PyObject_IsTrue(w);
            int rc = nz > 0 ? append_move(out, d2 + (i128)j2 * f->mark_b, w) : nz;
            Py_DECREF(w);
            if (rc < 0) {
                Py_DECREF(wk2);
                return -1;
            }
        }
        Py_DECREF(wk2);
    }
    return 0;
}

/* Programme._pair_deltas' loops over a frame: 0, -1 on error, NOFIT_RETURN */
static int pair_loops(PyObject *out, const frame_t *f, PyObject *comb, PyObject *fall, PyObject *coefs) {
    for (long k = f->lowest > 0 ? f->lowest : 0; k <= f->room_a; k++) {
        PyObject *c = at2(comb, f->left, k);
        if (c == NULL) return NOFIT_RETURN;
        PyObject *wk;
        Py_INCREF(c);
        wk = c;
        if (f->free_a >= 0 && k) {
            if (k > f->free_a) {
                Py_DECREF(wk);
                break;
            }
            PyObject *fa = at2(fall, f->free_a, k);
            if (fa == NULL) {
                Py_DECREF(wk);
                return NOFIT_RETURN;
            }
            PyObject *x = mul(wk, fa);
            Py_DECREF(wk);
            if (x == NULL) return -1;
            wk = x;
        }
        long left_b = f->left - k;
        long room_b = f->cap_b < left_b ? f->cap_b : left_b;
        long low_b = f->last ? left_b : left_b > f->far ? left_b - f->far : 0;
        if (low_b > room_b) {
            Py_DECREF(wk);
            continue;
        }
        long low_j = f->pending || !f->need ? 0 : f->need - f->marks - (left_b < f->evens_a ? left_b : f->evens_a);
        long stop = f->need ? (k < f->ev_a ? k : f->ev_a) + 1 : 1;
        for (long j = low_j > 0 ? low_j : 0; j < stop; j++) {
            long m = f->marks + j;
            PyObject *w1;
            if (j) {
                PyObject *cj = at2(comb, k, j);
                if (cj == NULL) {
                    Py_DECREF(wk);
                    return NOFIT_RETURN;
                }
                w1 = mul(wk, cj);
                if (w1 == NULL) {
                    Py_DECREF(wk);
                    return -1;
                }
            } else {
                Py_INCREF(wk);
                w1 = wk;
            }
            i128 d1 = f->base + (i128)k * f->one_a + (i128)j * f->mark_a;
            int rc = second_group(out, f, comb, fall, coefs, left_b, low_b, room_b, m, d1, w1);
            Py_DECREF(w1);
            if (rc) {
                Py_DECREF(wk);
                return rc;
            }
        }
        Py_DECREF(wk);
    }
    return 0;
}

/* the closing split (Programme._split_closable): (plain, closable, fills) of out */
static PyObject *split_of(PyObject *out, u128 sig, int g, long full_a, long full_b) {
    PyObject *plain = PyList_New(0), *closable = PyList_New(0);
    if (plain == NULL || closable == NULL) goto fail;
    u128 fills = 0;
    for (Py_ssize_t a = 0; a < PyList_GET_SIZE(out); a++) {
        PyObject *move = PyList_GET_ITEM(out, a);
        if (!PyTuple_CheckExact(move) || PyTuple_GET_SIZE(move) != 2) goto nofit;
        PyObject *d = PyTuple_GET_ITEM(move, 0);
        if (!PyLong_CheckExact(d)) goto nofit;
        int overflow;
        long long small = PyLong_AsLongLongAndOverflow(d, &overflow);
        i128 delta;
        if (!overflow) {
            if (small == -1 && PyErr_Occurred()) goto fail;
            delta = small;
        } else {
            unsigned char bytes[16];
#if PY_VERSION_HEX >= 0x030D0000
            Py_ssize_t n = PyLong_AsNativeBytes(d, bytes, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
            if (n < 0) goto fail;
            if (n > 16) goto nofit;
#else
            if (_PyLong_AsByteArray((PyLongObject *)d, bytes, 16, 1, 1) < 0) {
                if (!PyErr_ExceptionMatches(PyExc_OverflowError)) goto fail;
                PyErr_Clear();
                goto nofit;
            }
#endif
            u128 v = 0;
            for (int b = 15; b >= 0; b--) v = (v << 8) | bytes[b];
            delta = (i128)v;
        }
        u128 dst = sig + (u128)delta;
        int fill_a = (long)((dst >> U_SH[g]) & 31) >= full_a;
        int fill_b = (long)((dst >> U_SH[g + 1]) & 31) >= full_b;
        if (fill_a || fill_b) {
            if (PyList_Append(closable, move) < 0) goto fail;
            for (int x = 0; x < 2; x++) {
                if (x ? fill_b : fill_a) {
                    int gx = g + x;
                    fills |= ((u128)15 << H_SH[gx]) | ((u128)15 << HE_SH[gx]) | ((u128)15 << M_SH[gx]);
                }
            }
        } else if (PyList_Append(plain, move) < 0) {
            goto fail;
        }
    }
    PyObject *f = from_i128((i128)fills);
    if (f == NULL) goto fail;
    PyObject *res = PyTuple_New(3);
    if (res == NULL) {
        Py_DECREF(f);
        goto fail;
    }
    PyTuple_SET_ITEM(res, 0, plain);
    PyTuple_SET_ITEM(res, 1, closable);
    PyTuple_SET_ITEM(res, 2, f);
    return res;
nofit:
    Py_XDECREF(plain);
    Py_XDECREF(closable);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(plain);
    Py_XDECREF(closable);
    return NULL;
}

/* split_closable(bare, g, full_a, full_b, deltas) */
static PyObject *split_closable(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "split_closable takes 5 positional arguments");
        return NULL;
    }
    u128 sig;
    int rc = read_sig(args[0], &sig);
    if (rc < 0) return NULL;
    long g = PyLong_AsLong(args[1]);
    if (g == -1 && PyErr_Occurred()) return NULL;
    long full_a = PyLong_AsLong(args[2]);
    if (full_a == -1 && PyErr_Occurred()) return NULL;
    long full_b = PyLong_AsLong(args[3]);
    if (full_b == -1 && PyErr_Occurred()) return NULL;
    if (!rc || (g != 0 && g != 2) || !PyList_CheckExact(args[4])) Py_RETURN_NONE;
    return split_of(args[4], sig, (int)g, full_a, full_b);
}

/* pair_deltas(sig, g, cap, limit, avail, slots, pending, comb, fall, coefs) */
static PyObject *pair_deltas(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "pair_deltas takes 10 positional arguments");
        return NULL;
    }
    u128 sig;
    int rc = read_sig(args[0], &sig);
    if (rc < 0) return NULL;
    long g = PyLong_AsLong(args[1]);
    if (g == -1 && PyErr_Occurred()) return NULL;
    long cap[4], limit[4], avail[8], slots[4];
    if (!rc || (g != 0 && g != 2)) Py_RETURN_NONE;
    int ok;
    if ((ok = small_items(args[2], 4, cap)) <= 0 || (ok = small_items(args[3], 4, limit)) <= 0 ||
        (ok = small_items(args[4], 8, avail)) <= 0 || (ok = small_items(args[5], 4, slots)) <= 0) {
        if (ok < 0) return NULL;
        Py_RETURN_NONE;
    }
    int pending = PyObject_IsTrue(args[6]);
    if (pending < 0) return NULL;
    PyObject *comb = args[7], *fall = args[8], *coefs_all = args[9];
    if (!PyList_CheckExact(comb) || !PyList_CheckExact(fall) || !PyList_CheckExact(coefs_all)) Py_RETURN_NONE;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    frame_t f;
    if (pair_frame(sig, (int)g, cap, limit, avail, slots, pending, &f)) {
        if (f.need >= PyList_GET_SIZE(coefs_all)) {
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        PyObject *coefs = PyList_GET_ITEM(coefs_all, f.need);
        if (!PyList_CheckExact(coefs)) {
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        rc = pair_loops(out, &f, comb, fall, coefs);
        if (rc) {
            Py_DECREF(out);
            if (rc < 0) return NULL;
            Py_RETURN_NONE;
        }
    }
    return out;
}

static PyObject *from_u128(u128 v) {
    if (v <= (u128)UINT64_MAX) return PyLong_FromUnsignedLongLong((unsigned long long)v);
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(&v, 16, Py_ASNATIVEBYTES_NATIVE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)&v, 16, 1, 0);
#endif
}

/* Programme._delta_key of sig (below 2**SIG_BITS) at position i (below 2**20) */
static u128 key_of(u128 sig, long i, int g, const long *avail) {
    int h = g + 1;
    long left = (long)((sig >> LEFT) & 63), need = (long)((sig >> NEED) & 127);
    long ev_a = avail[2 * g + 1] - (long)((sig >> HE_SH[g]) & 15) - (long)((sig >> M_SH[g]) & 15);
    long ev_b = avail[2 * h + 1] - (long)((sig >> HE_SH[h]) & 15) - (long)((sig >> M_SH[h]) & 15);
    u128 code = (u128)(i << 2 | g);
    if (ev_a < 0)
        code |= (u128)127 << 8;
    else if (need)
        code |= (u128)(1 + (ev_a < left ? ev_a : left)) << 8;
    if (ev_b < 0)
        code |= (u128)127 << 16;
    else if (need)
        code |= (u128)(1 + (ev_b < left ? ev_b : left)) << 16;
    u128 drop = ((u128)15 << HE_SH[g]) | ((u128)15 << M_SH[g]) | ((u128)15 << HE_SH[h]) | ((u128)15 << M_SH[h]);
    return (sig & ~drop) | code << PROG;
}

/* delta_key(sig, i, g, avail): Programme._delta_key */
static PyObject *delta_key(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "delta_key takes 4 positional arguments");
        return NULL;
    }
    u128 sig;
    int rc = read_sig(args[0], &sig);
    if (rc < 0) return NULL;
    long i = PyLong_AsLong(args[1]);
    if (i == -1 && PyErr_Occurred()) return NULL;
    long g = PyLong_AsLong(args[2]);
    if (g == -1 && PyErr_Occurred()) return NULL;
    long avail[8];
    if (!rc || (g != 0 && g != 2) || i < 0 || i >= (1L << 20)) Py_RETURN_NONE;
    if ((rc = small_items(args[3], 8, avail)) <= 0) {
        if (rc < 0) return NULL;
        Py_RETURN_NONE;
    }
    return from_u128(key_of(sig, i, (int)g, avail));
}

/* an int (exact) as a signed 128-bit value: 1, 0 if it does not fit, -1 on error */
static int read_i128(PyObject *o, i128 *out) {
    if (!PyLong_CheckExact(o)) return 0;
    int overflow;
    long long small = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) {
        if (small == -1 && PyErr_Occurred()) return -1;
        *out = small;
        return 1;
    }
    unsigned char bytes[16];
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(o, bytes, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
    if (n < 0) return -1;
    if (n > 16) return 0;
#else
    if (_PyLong_AsByteArray((PyLongObject *)o, bytes, 16, 1, 1) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        return 0;
    }
#endif
    u128 v = 0;
    for (int b = 15; b >= 0; b--) v = (v << 8) | bytes[b];
    *out = (i128)v;
    return 1;
}

/* the closing of one move (d, w) of sig into acc (a dict by delta, summed as the loop sums):
 * 0, -1 on error, NOFIT_RETURN */
static int close_one(PyObject *acc, u128 sig, int g, u128 fields, PyObject *move, PyObject *part_memo,
                     PyObject *close_part, PyObject *g_obj) {
    if (!PyTuple_CheckExact(move) || PyTuple_GET_SIZE(move) != 2) return NOFIT_RETURN;
    i128 d;
    int rc = read_i128(PyTuple_GET_ITEM(move, 0), &d);
    if (rc <= 0) return rc < 0 ? -1 : NOFIT_RETURN;
    u128 dst = sig + (u128)d;
    u128 part = dst & fields;
    PyObject *key = from_u128(part | ((u128)g << LEFT));
    if (key == NULL) return -1;
    PyObject *shut = PyDict_GetItemWithError(part_memo, key); /* borrowed */
    if (shut != NULL) {
        Py_INCREF(shut);
    } else if (PyErr_Occurred()) {
        Py_DECREF(key);
        return -1;
    } else {
        PyObject *p = from_u128(part);
        if (p == NULL) {
            Py_DECREF(key);
            return -1;
        }
        PyObject *args[2] = {p, g_obj};
        shut = PyObject_Vectorcall(close_part, args, 2, NULL);
        Py_DECREF(p);
        if (shut == NULL || PyDict_SetItem(part_memo, key, shut) < 0) {
            Py_XDECREF(shut);
            Py_DECREF(key);
            return -1;
        }
    }
    Py_DECREF(key);
    rc = NOFIT_RETURN;
    if (!PyTuple_CheckExact(shut) || PyTuple_GET_SIZE(shut) != 2) goto done;
    PyObject *factor = PyTuple_GET_ITEM(shut, 1);
    int nz = PyObject_IsTrue(factor);
    if (nz <= 0) {
        rc = nz;
        goto done;
    }
    u128 closed;
    int ok = read_sig(PyTuple_GET_ITEM(shut, 0), &closed);
    if (ok <= 0) {
        rc = ok < 0 ? -1 : NOFIT_RETURN;
        goto done;
    }
    PyObject *dd = from_i128((i128)((((dst ^ part) | closed) - sig)));
    if (dd == NULL) {
        rc = -1;
        goto done;
    }
    PyObject *term = PyNumber_Multiply(PyTuple_GET_ITEM(move, 1), factor);
    PyObject *had = term == NULL ? NULL : PyDict_GetItemWithError(acc, dd);
    PyObject *sum = NULL;
    if (term != NULL && (had != NULL || !PyErr_Occurred())) {
        if (had == NULL) {
            PyObject *zero = PyLong_FromLong(0);
            sum = zero == NULL ? NULL : PyNumber_Add(zero, term);
            Py_XDECREF(zero);
        } else {
            sum = PyNumber_Add(had, term);
        }
    }
    rc = sum == NULL || PyDict_SetItem(acc, dd, sum) < 0 ? -1 : 0;
    Py_XDECREF(sum);
    Py_XDECREF(term);
    Py_DECREF(dd);
done:
    Py_DECREF(shut);
    return rc;
}

/* close_moves(sig, g, plain, closable, part_memo, close_part): Programme._closed_deltas' closing loop
 * (plain + the closable moves closed, equal destinations summed, zero sums dropped); part_memo
 * filled as the loop fills it (close_part(part, g) on a miss); None if something does not fit */
static PyObject *close_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "close_moves takes 6 positional arguments");
        return NULL;
    }
    u128 sig;
    int rc = read_sig(args[0], &sig);
    if (rc < 0) return NULL;
    long g = PyLong_AsLong(args[1]);
    if (g == -1 && PyErr_Occurred()) return NULL;
    PyObject *plain = args[2], *closable = args[3], *part_memo = args[4];
    if (!rc || (g != 0 && g != 2) || !PyList_CheckExact(plain) || !PyList_CheckExact(closable) ||
        !PyDict_CheckExact(part_memo))
        Py_RETURN_NONE;
    u128 fields = 0;
    for (int x = (int)g; x < g + 2; x++)
        fields |= ((u128)31 << U_SH[x]) | ((u128)15 << H_SH[x]) | ((u128)15 << HE_SH[x]) | ((u128)15 << M_SH[x]);
    PyObject *acc = PyDict_New();
    if (acc == NULL) return NULL;
    for (Py_ssize_t a = 0; a < PyList_GET_SIZE(closable); a++) {
        rc = close_one(acc, sig, (int)g, fields, PyList_GET_ITEM(closable, a), part_memo, args[5], args[1]);
        if (rc) {
            Py_DECREF(acc);
            if (rc < 0) return NULL;
            Py_RETURN_NONE;
        }
    }
    PyObject *out = PyList_GetSlice(plain, 0, PyList_GET_SIZE(plain));
    if (out == NULL) {
        Py_DECREF(acc);
        return NULL;
    }
    Py_ssize_t pos = 0;
    PyObject *d, *w;
    while (PyDict_Next(acc, &pos, &d, &w)) {
        int nz = PyObject_IsTrue(w);
        if (nz < 0) goto fail;
        if (!nz) continue;
        PyObject *t = PyTuple_Pack(2, d, w);
        if (t == NULL) goto fail;
        rc = PyList_Append(out, t);
        Py_DECREF(t);
        if (rc < 0) goto fail;
    }
    Py_DECREF(acc);
    return out;
fail:
    Py_DECREF(acc);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef METHODS[] = {
    {"close_moves", (PyCFunction)(void (*)(void))close_moves, METH_FASTCALL,
     "close_moves(sig, g, plain, closable, part_memo, close_part): Programme._closed_deltas' closing loop;\n"
     "None if something does not fit."},
    {"delta_key", (PyCFunction)(void (*)(void))delta_key, METH_FASTCALL,
     "delta_key(sig, i, g, avail): Programme._delta_key (None if something does not fit)."},
    {"pair_deltas", (PyCFunction)(void (*)(void))pair_deltas, METH_FASTCALL,
     "pair_deltas(sig, g, cap, limit, avail, slots, pending, comb, fall, coefs): a pair layer's\n"
     "unclosed moves [(delta, weight)] from sig (Programme._pair_deltas);\n"
     "None if something does not fit."},
    {"split_closable", (PyCFunction)(void (*)(void))split_closable, METH_FASTCALL,
     "split_closable(bare, g, full_a, full_b, deltas): Programme._split_closable's (plain, closable, fills);\n"
     "None if something does not fit."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_pairs", "A pair layer's moves made natively (programme.Programme._pair_deltas).", -1,
    METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__pairs(void) { return PyModule_Create(&MODULE); }
