/* The compiled set-up and table loops of gamelib.fugitive.belief.direct, and the belief's
probabilities (gamelib.fugitive.belief.probabilities.probabilities_of).

Why: an easy position's belief (issue 24: <= 0.2 ms) pays a fixed cost around its count: the
position's tables (direct._position_tables, read by both direct walks), the packed group tables and
pick rows made on a memo miss (direct.packed_table / pick_rows: a few a position, each a Python
loop of 1-8 rows), and the probabilities' divisions.  These functions run the same loops through
the C API on the same Python objects: every sum, product, shift and division is the Python
operation, containers are indexed as Python indexes them (negative indices included), so the
results are the pure functions' exactly.  They answer only what they can read (tuples and lists of
ints, loop bounds within a C long); on anything else they raise, and the Python callers then run
the pure functions (the reference, also selected by kernel.COMPILED / GAMELIB_PURE_PYTHON=1), which
answer or raise as they always did.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static int nargs_are(Py_ssize_t nargs, Py_ssize_t want, const char *name) {
    if (nargs == want) return 0;
    PyErr_Format(PyExc_TypeError, "_direct.%s takes %zd arguments (%zd given)", name, want, nargs);
    return -1;
}

static int long_arg(PyObject *o, long *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "_direct: an int is expected");
        return -1;
    }
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static int overflow(void) {
    PyErr_SetString(PyExc_OverflowError, "_direct: a loop bound beyond a C long");
    return -1;
}

/* seq[i] for i >= 0 (a new reference), as Python indexes it. */
static PyObject *item(PyObject *seq, long i) { return PySequence_GetItem(seq, (Py_ssize_t)i); }

/* seq[i] for any i, negative ones from the end, as Python indexes it (a new reference). */
static PyObject *item_any(PyObject *seq, long i) {
    PyObject *index = PyLong_FromLong(i);
    if (index == NULL) return NULL;
    PyObject *out = PyObject_GetItem(seq, index);
    Py_DECREF(index);
    return out;
}

/* x if x < a else a (a new reference), as the pure code's conditional expression. */
static PyObject *lower(PyObject *x, PyObject *a) {
    int less = PyObject_RichCompareBool(x, a, Py_LT);
    if (less < 0) return NULL;
    PyObject *out = less ? x : a;
    Py_INCREF(out);
    return out;
}

/* The group of card c as direct._position_tables indexes its by_group list (groups 0-3, then -1
   last): group_of[c] with Python's indexing, its value an index of a 5-list. -1 with an error. */
static int by_group_index(PyObject *group_of, long c) {
    Py_ssize_t size = PyTuple_GET_SIZE(group_of);
    if (c < 0) c += size;
    if (c < 0 || c >= size) {
        PyErr_SetString(PyExc_IndexError, "_direct: a card beyond the group table");
        return -1;
    }
    long g;
    if (long_arg(PyTuple_GET_ITEM(group_of, c), &g) < 0) return -1;
    if (g < -5 || g > 4) {
        PyErr_SetString(PyExc_IndexError, "_direct: a group beyond the by_group list");
        return -1;
    }
    return (int)(g < 0 ? g + 5 : g);
}

/* (x, y, z) as Python ints (no format string parsed: a few of these a position). */
static PyObject *triple_longs(long x, long y, long z) {
    PyObject *t = PyTuple_New(3);
    if (t == NULL) return NULL;
    long v[3] = {x, y, z};
    for (int d = 0; d < 3; d++) {
        PyObject *o = PyLong_FromLong(v[d]);
        if (o == NULL) return Py_DECREF(t), NULL;
        PyTuple_SET_ITEM(t, d, o);
    }
    return t;
}

/* x + r for an int x (a new reference): in C when x is an exact int and the sum fits a C long,
   else Python's addition (the same value either way). */
static PyObject *plus(PyObject *x, long r) {
    if (PyLong_CheckExact(x)) {
        int over = 0;
        long v = PyLong_AsLongAndOverflow(x, &over), sum;
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (!over && !__builtin_add_overflow(v, r, &sum)) return PyLong_FromLong(sum);
    }
    PyObject *rd = PyLong_FromLong(r);
    if (rd == NULL) return NULL;
    PyObject *out = PyNumber_Add(x, rd);
    Py_DECREF(rd);
    return out;
}

/* A position's known_at/before/drawn/capg entries and its footprints; 0 or -1 with an error. */
static int position_row(PyObject *known, PyObject *sprints, PyObject *caps, PyObject *group_of,
                        PyObject *const *a, Py_ssize_t i, long r[3], PyObject *zero, PyObject *lists[4],
                        PyObject *fixed_fp) {
    PyObject *row = triple_longs(r[0], r[1], r[2]);
    if (row == NULL || PyList_Append(lists[1], row) < 0) goto fail_row;
    Py_DECREF(row);
    long k;
    if (long_arg(PyTuple_GET_ITEM(known, i), &k) < 0) return -1;
    if (k >= 0) {
        long by_group[5] = {0, 0, 0, 0, 0};
        int g = by_group_index(group_of, k);
        if (g < 0) return -1;
        by_group[g] += 1;
        if (i >= PyTuple_GET_SIZE(sprints)) return PyErr_SetString(PyExc_IndexError, "_direct: sprints"), -1;
        PyObject *shown = PyTuple_GET_ITEM(sprints, i);
        if (!PyTuple_Check(shown)) return PyErr_SetString(PyExc_TypeError, "_direct: a stack tuple"), -1;
        Py_ssize_t m = PyTuple_GET_SIZE(shown);
        if (m) {
            long odd = 0;
            for (Py_ssize_t j = 0; j < m; j++) {
                long c;
                if (long_arg(PyTuple_GET_ITEM(shown, j), &c) < 0) return -1;
                int gc = by_group_index(group_of, c);
                if (gc < 0) return -1;
                by_group[gc] += 1;
                odd += c & 1;
            }
            PyObject *fp = PyLong_FromLong(2 * (long)m - odd);
            if (fp == NULL) return -1;
            if (PyList_SetItem(fixed_fp, i, fp) < 0) return -1; /* steals fp, lets the 0 go */
        }
        row = triple_longs(by_group[1], by_group[2], by_group[3]);
        if (row == NULL || PyList_Append(lists[0], row) < 0) goto fail_row;
        Py_DECREF(row);
        r[0] += by_group[1];
        r[1] += by_group[2];
        r[2] += by_group[3];
    } else if (PyList_Append(lists[0], zero) < 0) {
        return -1;
    }
    if (i >= PyTuple_GET_SIZE(caps)) return PyErr_SetString(PyExc_IndexError, "_direct: caps"), -1;
    PyObject *cap = PyTuple_GET_ITEM(caps, i);
    if (!PyTuple_Check(cap) || PyTuple_GET_SIZE(cap) != 3) {
        return PyErr_SetString(PyExc_TypeError, "_direct: a cap is a 3-tuple"), -1;
    }
    PyObject *parts[3] = {NULL, NULL, NULL};
    for (int d = 0; d < 3; d++) {
        parts[d] = plus(PyTuple_GET_ITEM(cap, d), r[d]);
        if (parts[d] == NULL) goto fail_parts;
    }
    row = PyTuple_Pack(3, parts[0], parts[1], parts[2]);
    for (int d = 0; d < 3; d++) Py_CLEAR(parts[d]);
    if (row == NULL || PyList_Append(lists[2], row) < 0) goto fail_row;
    Py_DECREF(row);
    PyObject *g4[4] = {a[0], NULL, NULL, NULL};
    Py_INCREF(a[0]);
    for (int d = 0; d < 3; d++) {
        g4[d + 1] = lower(PyTuple_GET_ITEM(cap, d), a[d + 1]);
        if (g4[d + 1] == NULL) {
            for (int e = 0; e <= d; e++) Py_XDECREF(g4[e]);
            return -1;
        }
    }
    row = PyTuple_Pack(4, g4[0], g4[1], g4[2], g4[3]);
    for (int d = 0; d < 4; d++) Py_DECREF(g4[d]);
    if (row == NULL || PyList_Append(lists[3], row) < 0) goto fail_row;
    Py_DECREF(row);
    return 0;
fail_parts:
    for (int d = 0; d < 3; d++) Py_XDECREF(parts[d]);
    return -1;
fail_row:
    Py_XDECREF(row);
    return -1;
}

/* position_tables(known, known_sprints, caps, group_of, gavail): direct._position_tables's five
   lists (known_at, before, drawn, capg, fixed_fp) from the facts' tuples. */
static PyObject *position_tables(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 5, "position_tables") < 0) return NULL;
    PyObject *known = args[0], *sprints = args[1], *caps = args[2], *group_of = args[3];
    if (!PyTuple_Check(known) || !PyTuple_Check(sprints) || !PyTuple_Check(caps) || !PyTuple_Check(group_of)) {
        PyErr_SetString(PyExc_TypeError, "_direct.position_tables: tuples expected");
        return NULL;
    }
    PyObject *gavail = PySequence_Fast(args[4], "_direct.position_tables: gavail");
    if (gavail == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(gavail) != 4 || PyTuple_GET_SIZE(caps) < 1) {
        Py_DECREF(gavail);
        PyErr_SetString(PyExc_ValueError, "_direct.position_tables: four groups and a first cap expected");
        return NULL;
    }
    PyObject **a = PySequence_Fast_ITEMS(gavail);
    Py_ssize_t size = PyTuple_GET_SIZE(known);
    PyObject *lists[4] = {PyList_New(0), PyList_New(0), PyList_New(0), PyList_New(0)};
    PyObject *fixed_fp = PyList_New(size);
    PyObject *zero = triple_longs(0, 0, 0);
    PyObject *out = NULL;
    if (lists[0] == NULL || lists[1] == NULL || lists[2] == NULL || lists[3] == NULL || fixed_fp == NULL || zero == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *z = PyLong_FromLong(0);
        if (z == NULL) goto done;
        PyList_SET_ITEM(fixed_fp, i, z);
    }
    PyObject *cap = PyTuple_GET_ITEM(caps, 0);
    if (PyList_Append(lists[0], zero) < 0 || PyList_Append(lists[1], zero) < 0 || PyList_Append(lists[2], cap) < 0)
        goto done;
    {
        PyObject *g4[4] = {a[0], NULL, NULL, NULL};
        Py_INCREF(a[0]);
        int bad = 0;
        for (int d = 0; d < 3; d++) {
            PyObject *x = PySequence_GetItem(cap, d);
            g4[d + 1] = x == NULL ? NULL : lower(x, a[d + 1]);
            Py_XDECREF(x);
            if (g4[d + 1] == NULL) {
                bad = 1;
                break;
            }
        }
        PyObject *row = bad ? NULL : PyTuple_Pack(4, g4[0], g4[1], g4[2], g4[3]);
        for (int d = 0; d < 4; d++) Py_XDECREF(g4[d]);
        if (row == NULL) goto done;
        int failed = PyList_Append(lists[3], row);
        Py_DECREF(row);
        if (failed < 0) goto done;
    }
    long r[3] = {0, 0, 0};
    for (Py_ssize_t i = 1; i < size; i++) {
        if (position_row(known, sprints, caps, group_of, a, i, r, zero, lists, fixed_fp) < 0) goto done;
    }
    out = PyTuple_Pack(5, lists[0], lists[1], lists[2], lists[3], fixed_fp);
done:
    for (int d = 0; d < 4; d++) Py_XDECREF(lists[d]);
    Py_XDECREF(fixed_fp);
    Py_XDECREF(zero);
    Py_DECREF(gavail);
    return out;
}

/* pick_rows(width, n, evens, odds, comb): direct.pick_rows's rows (a tuple), made afresh. */
static PyObject *pick_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 5, "pick_rows") < 0) return NULL;
    long width, n, evens, odds;
    if (long_arg(args[0], &width) < 0 || long_arg(args[1], &n) < 0 || long_arg(args[2], &evens) < 0 ||
        long_arg(args[3], &odds) < 0)
        return NULL;
    long rows_n;
    if (__builtin_add_overflow(n, 1, &rows_n)) return overflow(), NULL;
    PyObject *comb_e = PyObject_GetItem(args[4], args[2]);
    if (comb_e == NULL) return NULL;
    PyObject *comb_o = PyObject_GetItem(args[4], args[3]);
    if (comb_o == NULL) return Py_DECREF(comb_e), NULL;
    PyObject *rows = PyList_New(0);
    PyObject *out = NULL, *row = NULL;
    if (rows == NULL) goto done;
    for (long k = 0; k < rows_n; k++) {
        long lo, hi;
        if (k > odds) {
            if (__builtin_sub_overflow(k, odds, &lo)) goto overflowed;
        } else {
            lo = 0;
        }
        hi = k < evens ? k : evens;
        row = PyLong_FromLong(0);
        if (row == NULL) goto done;
        for (long e = lo; e <= hi; e++) {
            long shift;
            if (__builtin_mul_overflow(width, e, &shift)) goto overflowed;
            PyObject *x = item(comb_e, e);
            if (x == NULL) goto done;
            PyObject *y = item(comb_o, k - e);
            if (y == NULL) {
                Py_DECREF(x);
                goto done;
            }
            PyObject *prod = PyNumber_Multiply(x, y);
            Py_DECREF(x);
            Py_DECREF(y);
            if (prod == NULL) goto done;
            PyObject *s = PyLong_FromLong(shift);
            PyObject *term = s == NULL ? NULL : PyNumber_Lshift(prod, s);
            Py_XDECREF(s);
            Py_DECREF(prod);
            if (term == NULL) goto done;
            PyObject *sum = PyNumber_Add(row, term);
            Py_DECREF(term);
            if (sum == NULL) goto done;
            Py_SETREF(row, sum);
        }
        if (PyList_Append(rows, row) < 0) goto done;
        Py_CLEAR(row);
    }
    out = PyList_AsTuple(rows);
    goto done;
overflowed:
    overflow();
done:
    Py_XDECREF(row);
    Py_XDECREF(rows);
    Py_DECREF(comb_e);
    Py_DECREF(comb_o);
    return out;
}

/* w *= factor (both new/kept references handled): 0 or -1 with an error. */
static int times(PyObject **w, PyObject *factor) {
    if (factor == NULL) return -1;
    PyObject *prod = PyNumber_Multiply(*w, factor);
    Py_DECREF(factor);
    if (prod == NULL) return -1;
    Py_SETREF(*w, prod);
    return 0;
}

/* The ways _comb(left - k, hand) of direct.py (a new reference; 0 outside the table's triangle). */
static PyObject *comb_of(PyObject *comb, long top, long hand) {
    if (hand < 0 || top < hand || top < 0) return PyLong_FromLong(0);
    PyObject *row = item(comb, top);
    if (row == NULL) return NULL;
    PyObject *out = item(row, hand);
    Py_DECREF(row);
    return out;
}

/* packed_rows(width, n, left, hand_total, room, slots, drawn, picks, comb, fall, factorials): the
   loop of direct.packed_table on a memo miss (its rows k <= room weighted and packed). */
static PyObject *packed_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 11, "packed_rows") < 0) return NULL;
    long width, n, left, hand_total, room, slots;
    if (long_arg(args[0], &width) < 0 || long_arg(args[1], &n) < 0 || long_arg(args[2], &left) < 0 ||
        long_arg(args[3], &hand_total) < 0 || long_arg(args[4], &room) < 0 || long_arg(args[5], &slots) < 0)
        return NULL;
    int drawn = PyObject_IsTrue(args[6]);
    if (drawn < 0) return NULL;
    PyObject *picks = args[7], *comb = args[8], *fall = args[9], *factorials = args[10];
    long row_bits, stop;
    if (__builtin_add_overflow(n, 1, &row_bits) || __builtin_mul_overflow(width, row_bits, &row_bits) ||
        __builtin_add_overflow(room, 1, &stop))
        return overflow(), NULL;
    PyObject *out = PyLong_FromLong(0);
    if (out == NULL) return NULL;
    for (long k = 0; k < stop; k++) {
        long hand, top, shift;
        if (__builtin_sub_overflow(hand_total, k, &hand) || __builtin_sub_overflow(left, k, &top) ||
            __builtin_mul_overflow(row_bits, k, &shift))
            goto overflowed;
        PyObject *w = comb_of(comb, top, hand);
        if (w == NULL) goto fail;
        if (drawn) {
            if (k) {
                if (k > slots) {
                    Py_DECREF(w);
                    break;
                }
                PyObject *falls = item(fall, slots);
                PyObject *f = falls == NULL ? NULL : item(falls, k);
                Py_XDECREF(falls);
                if (times(&w, f) < 0) goto fail_w;
            }
            if (times(&w, item_any(factorials, hand)) < 0) goto fail_w;
        }
        int nonzero = PyObject_IsTrue(w);
        if (nonzero < 0) goto fail_w;
        if (nonzero) {
            PyObject *pick = item(picks, k);
            PyObject *prod = pick == NULL ? NULL : PyNumber_Multiply(pick, w);
            Py_XDECREF(pick);
            PyObject *s = prod == NULL ? NULL : PyLong_FromLong(shift);
            PyObject *term = s == NULL ? NULL : PyNumber_Lshift(prod, s);
            Py_XDECREF(s);
            Py_XDECREF(prod);
            PyObject *merged = term == NULL ? NULL : PyNumber_Or(out, term);
            Py_XDECREF(term);
            if (merged == NULL) goto fail_w;
            Py_SETREF(out, merged);
        }
        Py_DECREF(w);
        continue;
    fail_w:
        Py_XDECREF(w);
        goto fail;
    }
    return out;
overflowed:
    overflow();
fail:
    Py_DECREF(out);
    return NULL;
}

/* bound_sum(a, hand_total, top, slots, drawn, comb, fall, factorials): direct.group_bound's sum
   on a memo miss (a group's weights with nothing laid, rows k <= top). */
static PyObject *bound_sum(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 8, "bound_sum") < 0) return NULL;
    long a, hand_total, top, slots, stop;
    if (long_arg(args[0], &a) < 0 || long_arg(args[1], &hand_total) < 0 || long_arg(args[2], &top) < 0 ||
        long_arg(args[3], &slots) < 0)
        return NULL;
    int drawn = PyObject_IsTrue(args[4]);
    if (drawn < 0) return NULL;
    PyObject *comb = args[5], *fall = args[6], *factorials = args[7];
    if (__builtin_add_overflow(top, 1, &stop)) return overflow(), NULL;
    PyObject *row_a = stop > 0 ? item_any(comb, a) : NULL;
    if (stop > 0 && row_a == NULL) return NULL;
    PyObject *total = PyLong_FromLong(0);
    if (total == NULL) goto fail;
    for (long k = 0; k < stop; k++) {
        long left, hand;
        if (__builtin_sub_overflow(a, k, &left) || __builtin_sub_overflow(hand_total, k, &hand)) {
            overflow();
            goto fail;
        }
        PyObject *w = item(row_a, k);
        if (w == NULL || times(&w, comb_of(comb, left, hand)) < 0) goto fail_w;
        if (drawn) {
            if (times(&w, item_any(factorials, hand)) < 0) goto fail_w;
            if (k) {
                PyObject *f;
                if (slots >= 0) {
                    PyObject *falls = item(fall, slots);
                    f = falls == NULL ? NULL : item(falls, k);
                    Py_XDECREF(falls);
                } else {
                    f = PyLong_FromLong(0);
                }
                if (times(&w, f) < 0) goto fail_w;
            }
        }
        PyObject *sum = PyNumber_Add(total, w);
        Py_DECREF(w);
        if (sum == NULL) goto fail;
        Py_SETREF(total, sum);
        continue;
    fail_w:
        Py_XDECREF(w);
        goto fail;
    }
    Py_XDECREF(row_a);
    return total;
fail:
    Py_XDECREF(row_a);
    Py_XDECREF(total);
    return NULL;
}

/* One position's probabilities: probs[v] = counts[v] / total where counts[v] is true (v < 43 and
   within counts), the rest the shared 0.0; sums[v] += counts[v] when sums is not NULL.  A new
   tuple, or NULL with an error. */
static PyObject *position_probs(PyObject *counts, PyObject *total, PyObject *zero, PyObject **sums) {
    if (!PyList_Check(counts)) {
        PyErr_SetString(PyExc_TypeError, "_direct.probabilities: counts are lists");
        return NULL;
    }
    PyObject *probs = PyTuple_New(43);
    if (probs == NULL) return NULL;
    Py_ssize_t m = PyList_GET_SIZE(counts);
    for (Py_ssize_t v = 0; v < 43; v++) {
        PyObject *p = zero;
        PyObject *c = v < m ? PyList_GET_ITEM(counts, v) : NULL;
        int on = c == NULL ? 0 : PyObject_IsTrue(c);
        if (on < 0) goto fail;
        if (on) {
            p = PyNumber_TrueDivide(c, total);
            if (p == NULL) goto fail;
            if (sums != NULL) {
                PyObject *sum = PyNumber_Add(sums[v], c);
                if (sum == NULL) {
                    Py_DECREF(p);
                    goto fail;
                }
                Py_SETREF(sums[v], sum);
            }
        } else {
            Py_INCREF(p);
        }
        PyTuple_SET_ITEM(probs, v, p);
        if (c != NULL && PyList_GET_SIZE(counts) != m) {
            PyErr_SetString(PyExc_RuntimeError, "_direct.probabilities: counts changed");
            goto fail;
        }
    }
    return probs;
fail:
    Py_DECREF(probs);
    return NULL;
}

/* probabilities(marginals, total): probabilities.probabilities_of's (position_probs, hideout). */
static PyObject *probabilities(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 2, "probabilities") < 0) return NULL;
    PyObject *marginals = args[0], *total = args[1];
    if (!PyDict_CheckExact(marginals)) {
        PyErr_SetString(PyExc_TypeError, "_direct.probabilities: marginals is a dict");
        return NULL;
    }
    PyObject *zero = PyFloat_FromDouble(0.0);
    PyObject *out_probs = PyDict_New();
    PyObject *sums[43] = {NULL};
    PyObject *hideout = NULL, *result = NULL;
    if (zero == NULL || out_probs == NULL) goto done;
    int one = PyDict_GET_SIZE(marginals) == 1;
    if (!one) {
        for (int v = 0; v < 43; v++) {
            sums[v] = PyLong_FromLong(0);
            if (sums[v] == NULL) goto done;
        }
    }
    Py_ssize_t pos = 0;
    PyObject *key, *counts;
    while (PyDict_Next(marginals, &pos, &key, &counts)) {
        Py_INCREF(key);
        Py_INCREF(counts);
        PyObject *probs = position_probs(counts, total, zero, one ? NULL : sums);
        Py_DECREF(counts);
        int failed = probs == NULL || PyDict_SetItem(out_probs, key, probs) < 0;
        Py_DECREF(key);
        if (failed) {
            Py_XDECREF(probs);
            goto done;
        }
        if (one) {
            hideout = probs; /* one face-down hideout: its numbers' probabilities are its own */
        } else {
            Py_DECREF(probs);
        }
    }
    if (!one) {
        hideout = PyTuple_New(43);
        if (hideout == NULL) goto done;
        for (int v = 0; v < 43; v++) {
            int on = PyObject_IsTrue(sums[v]);
            if (on < 0) goto done;
            PyObject *p = on ? PyNumber_TrueDivide(sums[v], total) : (Py_INCREF(zero), zero);
            if (p == NULL) goto done;
            PyTuple_SET_ITEM(hideout, v, p);
        }
    }
    if (hideout == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_direct.probabilities: marginals changed");
        goto done;
    }
    result = PyTuple_Pack(2, out_probs, hideout);
done:
    for (int v = 0; v < 43; v++) Py_XDECREF(sums[v]);
    Py_XDECREF(hideout);
    Py_XDECREF(out_probs);
    Py_XDECREF(zero);
    return result;
}

/* The walk's parameters end_weights reads (direct._Walk.end_params, made once a walk after its
   packing): memos and the packing's layout, then the last position's per-group counts. */
enum {
    P_LOW, P_HIGH, P_PACKED, P_ENDS, P_TABLE, P_KEEP, P_ROW_SHIFT, P_ROW_MASK, P_DIGIT, P_N, P_WIDTH,
    P_DEALS, P_GAVAIL, P_FUG, P_AVAIL, P_CAP, P_DRAWN, P_BEFORE, P_COUNT
};

static int long_at(PyObject *seq, Py_ssize_t i, long *out) {
    if (!PyTuple_Check(seq) || i < 0 || i >= PyTuple_GET_SIZE(seq)) {
        PyErr_SetString(PyExc_TypeError, "_direct.end_weights: a tuple of counts expected");
        return -1;
    }
    return long_arg(PyTuple_GET_ITEM(seq, i), out);
}

/* direct._Walk.group_table(g, ug, hg, heg): the walk's packed memo, else packed_table called. */
static PyObject *group_table(PyObject *const *p, long g, PyObject *ug_o, PyObject *hg_o, PyObject *heg_o) {
    PyObject *g_o = PyLong_FromLong(g);
    if (g_o == NULL) return NULL;
    PyObject *key = PyTuple_Pack(4, g_o, ug_o, hg_o, heg_o);
    Py_DECREF(g_o);
    if (key == NULL) return NULL;
    PyObject *hit = PyDict_GetItemWithError(p[P_PACKED], key);
    if (hit != NULL) {
        Py_DECREF(key);
        Py_INCREF(hit);
        return hit;
    }
    PyObject *out = NULL;
    long ug, hg, heg, n, width, a, fug, cap, even_cards, odd_cards, hand_total, room, left, evens, odds, slots = -1;
    if (PyErr_Occurred() || long_arg(ug_o, &ug) < 0 || long_arg(hg_o, &hg) < 0 || long_arg(heg_o, &heg) < 0 ||
        long_arg(p[P_N], &n) < 0 || long_arg(p[P_WIDTH], &width) < 0 || long_at(p[P_GAVAIL], g, &a) < 0 ||
        long_at(p[P_FUG], g, &fug) < 0 || long_at(p[P_CAP], g, &cap) < 0 || long_at(p[P_AVAIL], 2 * g + 1, &even_cards) < 0 ||
        long_at(p[P_AVAIL], 2 * g, &odd_cards) < 0)
        goto done;
    if (__builtin_sub_overflow(g ? fug : a, ug, &hand_total) || __builtin_sub_overflow(cap, ug, &room) ||
        __builtin_sub_overflow(a, ug, &left) || __builtin_sub_overflow(even_cards, heg, &evens) ||
        __builtin_sub_overflow(hg, heg, &odds) || __builtin_sub_overflow(odd_cards, odds, &odds))
        goto overflowed;
    if (n < room) room = n;
    if (hand_total < room) room = hand_total;
    if (room < 0) {
        out = PyLong_FromLong(0);
    } else {
        int deals = PyObject_IsTrue(p[P_DEALS]);
        if (deals < 0) goto done;
        int drawn = deals && g > 0;
        if (drawn) {
            long dr, bf;
            if (long_at(p[P_DRAWN], g - 1, &dr) < 0 || long_at(p[P_BEFORE], g - 1, &bf) < 0) goto done;
            if (__builtin_sub_overflow(dr, ug, &slots) || __builtin_sub_overflow(slots, bf, &slots)) goto overflowed;
        }
        out = PyObject_CallFunction(p[P_TABLE], "llllllllO", width, n, evens, odds, left, hand_total, room, slots,
                                    drawn ? Py_True : Py_False);
    }
    if (out != NULL && PyDict_SetItem(p[P_PACKED], key, out) < 0) Py_CLEAR(out);
    goto done;
overflowed:
    overflow();
done:
    Py_DECREF(key);
    return out;
}

/* (x * y) & keep (a new reference). */
static PyObject *masked_product(PyObject *x, PyObject *y, PyObject *keep) {
    PyObject *prod = PyNumber_Multiply(x, y);
    if (prod == NULL) return NULL;
    PyObject *out = PyNumber_And(prod, keep);
    Py_DECREF(prod);
    return out;
}

/* direct._Walk._pair(g, key): groups g and g + 1's tables multiplied (0 when the first is 0). */
static PyObject *pair(PyObject *const *p, long g, PyObject *key) {
    PyObject *first = group_table(p, g, PyTuple_GET_ITEM(key, 1 + g), PyTuple_GET_ITEM(key, 5 + g),
                                  PyTuple_GET_ITEM(key, 9 + g));
    if (first == NULL) return NULL;
    int on = PyObject_IsTrue(first);
    if (on <= 0) {
        Py_DECREF(first);
        return on < 0 ? NULL : PyLong_FromLong(0);
    }
    PyObject *second = group_table(p, g + 1, PyTuple_GET_ITEM(key, 2 + g), PyTuple_GET_ITEM(key, 6 + g),
                                   PyTuple_GET_ITEM(key, 10 + g));
    PyObject *out = second == NULL ? NULL : masked_product(first, second, p[P_KEEP]);
    Py_DECREF(first);
    Py_XDECREF(second);
    return out;
}

/* A pair's product from its memo (by the key's counts at a, a + 1, a + 4, a + 5, a + 8, a + 9),
   made and kept on a miss. */
static PyObject *pair_of(PyObject *const *p, PyObject *memo, long g, PyObject *key) {
    PyObject *part = PyTuple_Pack(6, PyTuple_GET_ITEM(key, 1 + g), PyTuple_GET_ITEM(key, 2 + g),
                                  PyTuple_GET_ITEM(key, 5 + g), PyTuple_GET_ITEM(key, 6 + g),
                                  PyTuple_GET_ITEM(key, 9 + g), PyTuple_GET_ITEM(key, 10 + g));
    if (part == NULL) return NULL;
    PyObject *out = PyDict_GetItemWithError(memo, part);
    if (out != NULL) {
        Py_INCREF(out);
    } else if (!PyErr_Occurred()) {
        out = pair(p, g, key);
        if (out != NULL && PyDict_SetItem(memo, part, out) < 0) Py_CLEAR(out);
    }
    Py_DECREF(part);
    return out;
}

/* end_weights(key, params): direct._Walk.new_end_weights (an ENDS miss of the direct walk): the
   pairs' products from their memos (made on a miss), the stack's top row summed by need from the
   top, kept in ENDS under key. */
static PyObject *end_weights(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 2, "end_weights") < 0) return NULL;
    PyObject *key = args[0], *params = args[1];
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 13 || !PyTuple_Check(params) ||
        PyTuple_GET_SIZE(params) != P_COUNT || !PyDict_CheckExact(PyTuple_GET_ITEM(params, P_LOW)) ||
        !PyDict_CheckExact(PyTuple_GET_ITEM(params, P_HIGH)) || !PyDict_CheckExact(PyTuple_GET_ITEM(params, P_PACKED)) ||
        !PyDict_CheckExact(PyTuple_GET_ITEM(params, P_ENDS))) {
        PyErr_SetString(PyExc_TypeError, "_direct.end_weights: (a 13-tuple key, the walk's params)");
        return NULL;
    }
    PyObject *const *p = &PyTuple_GET_ITEM(params, 0);
    long n, width;
    if (long_arg(p[P_N], &n) < 0 || long_arg(p[P_WIDTH], &width) < 0) return NULL;
    PyObject *prod = pair_of(p, p[P_LOW], 0, key);
    if (prod == NULL) return NULL;
    int on = PyObject_IsTrue(prod);
    if (on < 0) goto fail;
    if (on) {
        PyObject *other = pair_of(p, p[P_HIGH], 2, key);
        if (other == NULL) goto fail;
        int other_on = PyObject_IsTrue(other);
        PyObject *next = other_on < 0 ? NULL : other_on ? masked_product(prod, other, p[P_KEEP]) : PyLong_FromLong(0);
        Py_DECREF(other);
        if (next == NULL) goto fail;
        Py_SETREF(prod, next);
    }
    PyObject *shifted = PyNumber_Rshift(prod, p[P_ROW_SHIFT]);
    Py_DECREF(prod);
    if (shifted == NULL) return NULL;
    PyObject *row = PyNumber_And(shifted, p[P_ROW_MASK]);
    Py_DECREF(shifted);
    if (row == NULL) return NULL;
    long stop;
    if (__builtin_add_overflow(n, 1, &stop) || stop < 0) {
        Py_DECREF(row);
        return overflow(), NULL;
    }
    PyObject *out = PyTuple_New(stop), *run = PyLong_FromLong(0);
    if (out == NULL || run == NULL) goto fail_out;
    for (long e = n; e >= 0; e--) {
        long at;
        if (__builtin_mul_overflow(width, e, &at)) {
            overflow();
            goto fail_out;
        }
        PyObject *s = PyLong_FromLong(at);
        PyObject *digit = s == NULL ? NULL : PyNumber_Rshift(row, s);
        Py_XDECREF(s);
        PyObject *masked = digit == NULL ? NULL : PyNumber_And(digit, p[P_DIGIT]);
        Py_XDECREF(digit);
        PyObject *sum = masked == NULL ? NULL : PyNumber_Add(run, masked);
        Py_XDECREF(masked);
        if (sum == NULL) goto fail_out;
        Py_SETREF(run, sum);
        Py_INCREF(run);
        PyTuple_SET_ITEM(out, e, run);
    }
    Py_DECREF(run);
    Py_DECREF(row);
    if (PyDict_SetItem(p[P_ENDS], key, out) < 0) return Py_DECREF(out), NULL;
    return out;
fail_out:
    Py_XDECREF(out);
    Py_XDECREF(run);
    Py_DECREF(row);
    return NULL;
fail:
    Py_DECREF(prod);
    return NULL;
}

static PyMethodDef METHODS[] = {
    {"position_tables", (PyCFunction)(void (*)(void))position_tables, METH_FASTCALL,
     "direct._position_tables's lists from (known, known_sprints, caps, group_of, gavail)."},
    {"pick_rows", (PyCFunction)(void (*)(void))pick_rows, METH_FASTCALL,
     "direct.pick_rows's rows from (width, n, evens, odds, comb), made afresh."},
    {"packed_rows", (PyCFunction)(void (*)(void))packed_rows, METH_FASTCALL,
     "direct.packed_table's packed rows on a memo miss."},
    {"bound_sum", (PyCFunction)(void (*)(void))bound_sum, METH_FASTCALL,
     "direct.group_bound's sum on a memo miss."},
    {"end_weights", (PyCFunction)(void (*)(void))end_weights, METH_FASTCALL,
     "direct._Walk.new_end_weights: the last stack's weights by need on an ENDS miss."},
    {"probabilities", (PyCFunction)(void (*)(void))probabilities, METH_FASTCALL,
     "probabilities.probabilities_of's (position_probs, hideout)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_direct", "The compiled set-up and table loops of the direct count.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__direct(void) { return PyModule_Create(&MODULE); }
