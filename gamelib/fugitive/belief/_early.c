/* The compiled inner loops of gamelib.fugitive.belief.direct_early's walk (see that module).

Why: an easy position's early count spends most of its time in the interpreter's per-item work on
small clouds (2-20 counts) and short share lists (about 3 entries), not in arithmetic.  These
functions run the same loops through the C API on the same Python ints (keys up to 80 bits,
weights of any size): every sum and product is a Python int operation, so the results are the pure
loops' exactly (same values, same dictionary order: a key is inserted when first reached), with no
overflow to check.  The pure functions of direct_early.py stay the reference; this module is used
only when it imports and the kernel's switch (kernel.COMPILED) says so.

A count's fields are read from the key's low 64 bits (the laid cards of each group, bits 0-19).
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <string.h>

/* A key's low 64 bits (keys are >= 0; -1 with an error set when it is not an int). */
static int low_bits(PyObject *key, unsigned long long *out) {
    if (!PyLong_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "_early: a cloud key must be an int");
        return -1;
    }
    *out = PyLong_AsUnsignedLongLongMask(key);
    if (*out == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    return 0;
}

/* The hot entry points take their arguments as a vector (METH_FASTCALL: no tuple, no format
   string parsed per call, which cost ~6% of an early count's instructions). */
static int nargs_are(Py_ssize_t nargs, Py_ssize_t want, const char *name) {
    if (nargs == want) return 0;
    PyErr_Format(PyExc_TypeError, "_early.%s takes %zd arguments (%zd given)", name, want, nargs);
    return -1;
}

static int long_arg(PyObject *o, long *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static int dict_arg(PyObject *o, const char *what) {
    if (PyDict_Check(o)) return 0;
    PyErr_Format(PyExc_TypeError, "_early: %s must be a dict", what);
    return -1;
}

/* n ints from a sequence of exactly n. */
static int longs_arg(PyObject *o, long *out, Py_ssize_t n) {
    PyObject *seq = PySequence_Fast(o, "_early: expected a sequence of ints");
    if (seq == NULL) return -1;
    int rc = 0;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_TypeError, "_early: expected %zd ints", n);
        rc = -1;
    }
    for (Py_ssize_t j = 0; rc == 0 && j < n; j++) rc = long_arg(PySequence_Fast_GET_ITEM(seq, j), &out[j]);
    Py_DECREF(seq);
    return rc;
}

static PyObject *end_weights(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
static PyObject *stack_shares(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
static PyObject *stack_shares_core(long i, PyObject *key, long n, PyObject *memo, PyObject *late, PyObject *params,
                                   PyObject *shares, PyObject *kept, PyObject *fall, PyObject *comb, Py_ssize_t *work);

/* out[k] = out.get(k, 0) + add (steals nothing; k, add borrowed). */
static int add_into(PyObject *out, PyObject *k, PyObject *add) {
    PyObject *old = PyDict_GetItemWithError(out, k);
    if (old == NULL) {
        if (PyErr_Occurred()) return -1;
        return PyDict_SetItem(out, k, add);
    }
    PyObject *sum = PyNumber_Add(old, add);
    if (sum == NULL) return -1;
    int rc = PyDict_SetItem(out, k, sum);
    Py_DECREF(sum);
    return rc;
}

static int tuple_of(PyObject *item, Py_ssize_t n, const char *what) {
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != n) {
        PyErr_Format(PyExc_TypeError, "_early: %s must be a tuple of %zd", what, n);
        return -1;
    }
    return 0;
}

/* share_cloud: share_out's loop (below) on a checked cloud and memo; make is a callable or the
   8-tuple bundle of stack_shares (then *work grows by stack_shares's work plus the moves made).
   New reference.  The compiled walk (walk below) calls it directly. */
static PyObject *share_cloud(PyObject *cloud, long need, PyObject *iobj, PyObject *memo, PyObject *make,
                             Py_ssize_t *work) {
    int bundle = PyTuple_Check(make);
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    Py_ssize_t pos = 0;
    PyObject *key, *w;
    while (PyDict_Next(cloud, &pos, &key, &w)) {
        PyObject *mk = PyTuple_Pack(2, iobj, key);
        if (mk == NULL) goto fail;
        PyObject *moves = PyDict_GetItemWithError(memo, mk); /* borrowed: the memo keeps it */
        if (moves == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(mk);
                goto fail;
            }
            if (bundle) { /* stack_shares(i, key, *make), called in C */
                PyObject **b = &PyTuple_GET_ITEM(make, 0);
                long i, n;
                moves = NULL;
                if (long_arg(iobj, &i) == 0 && long_arg(b[0], &n) == 0) {
                    Py_ssize_t wk = 0;
                    moves = stack_shares_core(i, key, n, b[1], b[2], b[3], b[4], b[5], b[6], b[7], &wk);
                    if (moves != NULL) *work += wk + PyList_GET_SIZE(moves);
                }
            } else {
                moves = PyObject_CallFunctionObjArgs(make, iobj, key, NULL);
            }
            if (moves == NULL || PyDict_SetItem(memo, mk, moves) < 0) {
                Py_XDECREF(moves);
                Py_DECREF(mk);
                goto fail;
            }
            Py_DECREF(moves);
        }
        Py_DECREF(mk);
        Py_INCREF(moves);
        PyObject *seq = PySequence_Fast(moves, "_early: moves must be a sequence");
        Py_DECREF(moves);
        if (seq == NULL) goto fail;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        PyObject **items = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t j = 0; j < n; j++) {
            PyObject *move = items[j];
            if (tuple_of(move, 3, "a move") < 0) goto fail_seq;
            if (need > 0) {
                long evens = PyLong_AsLong(PyTuple_GET_ITEM(move, 2));
                if (evens == -1 && PyErr_Occurred()) goto fail_seq;
                if (evens < need) continue;
            }
            PyObject *k = PyNumber_Add(key, PyTuple_GET_ITEM(move, 0));
            if (k == NULL) goto fail_seq;
            PyObject *x = PyNumber_Multiply(w, PyTuple_GET_ITEM(move, 1));
            if (x == NULL) {
                Py_DECREF(k);
                goto fail_seq;
            }
            int rc = add_into(out, k, x);
            Py_DECREF(k);
            Py_DECREF(x);
            if (rc < 0) goto fail_seq;
        }
        Py_DECREF(seq);
        continue;
    fail_seq:
        Py_DECREF(seq);
        goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* share_out(cloud, need, i, memo, make) -> dict: for each (key, w) of the cloud, its moves
   memo[(i, key)] (made by make(i, key) and kept when missing), and for each move (step, f, evens)
   with evens >= need: out[key + step] += w * f.  make may instead be the tuple (n, group_memo,
   late, params, shares, kept, fall, comb) of stack_shares, made here without a call back into
   Python: then the answer is (the dict, the work: stack_shares's plus the moves made). */
static PyObject *share_out(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 5, "share_out") < 0) return NULL;
    PyObject *cloud = args[0], *iobj = args[2], *memo = args[3], *make = args[4];
    long need;
    if (dict_arg(cloud, "the cloud") < 0 || long_arg(args[1], &need) < 0 || dict_arg(memo, "the memo") < 0)
        return NULL;
    int bundle = PyTuple_Check(make);
    if (bundle && PyTuple_GET_SIZE(make) != 8) {
        PyErr_SetString(PyExc_TypeError, "_early: share_out's shares bundle must hold 8 items");
        return NULL;
    }
    Py_ssize_t work = 0;
    PyObject *out = share_cloud(cloud, need, iobj, memo, make, &work);
    if (out == NULL) return NULL;
    if (bundle) return Py_BuildValue("(Nn)", out, work);
    return out;
}

/* combine(first, second, late, n) -> list: every share of a stack of n cards from groups 0 and
   1's shares (k, e, x, s) and groups 2-3's paired by cards (late[left]: (e, x, s)), as
   (s0 + s1 + s, x0 * x1 * x, e0 + e1 + e), in the pure loop's order (a pair of groups 0-1 past n
   cards ends its row: shares are by cards). */
static PyObject *combine_core(PyObject *first, PyObject *second, PyObject *late, long n) {
    if (!PyTuple_Check(first) || !PyTuple_Check(second) || !PyList_Check(late)) {
        PyErr_SetString(PyExc_TypeError, "_early: combine takes two tuples of shares and a list of rows");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    Py_ssize_t nf = PyTuple_GET_SIZE(first), ns = PyTuple_GET_SIZE(second);
    Py_ssize_t nl = PyList_GET_SIZE(late);
    for (Py_ssize_t a = 0; a < nf; a++) {
        PyObject *f0 = PyTuple_GET_ITEM(first, a);
        if (tuple_of(f0, 4, "a share") < 0) goto fail;
        long k0 = PyLong_AsLong(PyTuple_GET_ITEM(f0, 0));
        long e0 = PyLong_AsLong(PyTuple_GET_ITEM(f0, 1));
        if (PyErr_Occurred()) goto fail;
        for (Py_ssize_t b = 0; b < ns; b++) {
            PyObject *f1 = PyTuple_GET_ITEM(second, b);
            if (tuple_of(f1, 4, "a share") < 0) goto fail;
            long k1 = PyLong_AsLong(PyTuple_GET_ITEM(f1, 0));
            long e1 = PyLong_AsLong(PyTuple_GET_ITEM(f1, 1));
            if (PyErr_Occurred()) goto fail;
            long left = n - k0 - k1;
            if (left < 0) break;
            if (left >= nl) {
                PyErr_SetString(PyExc_IndexError, "_early: late has no row for these cards");
                goto fail;
            }
            PyObject *rest = PyList_GET_ITEM(late, left);
            if (!PyList_Check(rest)) {
                PyErr_SetString(PyExc_TypeError, "_early: a late row must be a list");
                goto fail;
            }
            Py_ssize_t nr = PyList_GET_SIZE(rest);
            if (nr == 0) continue;
            PyObject *x01 = PyNumber_Multiply(PyTuple_GET_ITEM(f0, 2), PyTuple_GET_ITEM(f1, 2));
            if (x01 == NULL) goto fail;
            PyObject *s01 = PyNumber_Add(PyTuple_GET_ITEM(f0, 3), PyTuple_GET_ITEM(f1, 3));
            if (s01 == NULL) {
                Py_DECREF(x01);
                goto fail;
            }
            long e01 = e0 + e1;
            int bad = 0;
            for (Py_ssize_t c = 0; c < nr && !bad; c++) {
                PyObject *r = PyList_GET_ITEM(rest, c);
                if (tuple_of(r, 3, "a late share") < 0) {
                    bad = 1;
                    break;
                }
                long e = PyLong_AsLong(PyTuple_GET_ITEM(r, 0));
                if (e == -1 && PyErr_Occurred()) {
                    bad = 1;
                    break;
                }
                PyObject *s = PyNumber_Add(s01, PyTuple_GET_ITEM(r, 2));
                PyObject *x = s ? PyNumber_Multiply(x01, PyTuple_GET_ITEM(r, 1)) : NULL;
                PyObject *ev = x ? PyLong_FromLong(e01 + e) : NULL;
                PyObject *t = ev ? PyTuple_New(3) : NULL;
                if (t == NULL) {
                    Py_XDECREF(s);
                    Py_XDECREF(x);
                    Py_XDECREF(ev);
                    bad = 1;
                    break;
                }
                PyTuple_SET_ITEM(t, 0, s);
                PyTuple_SET_ITEM(t, 1, x);
                PyTuple_SET_ITEM(t, 2, ev);
                if (PyList_Append(out, t) < 0) bad = 1;
                Py_DECREF(t);
            }
            Py_DECREF(x01);
            Py_DECREF(s01);
            if (bad) goto fail;
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *combine(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *first, *second, *late;
    long n;
    if (!PyArg_ParseTuple(args, "O!O!O!l:combine", &PyTuple_Type, &first, &PyTuple_Type, &second, &PyList_Type,
                          &late, &n))
        return NULL;
    return combine_core(first, second, late, n);
}

/* by_cards(third, fourth, n) -> list of n + 1 lists: groups 2 and 3's shares (k, e, x, s) paired
   by the cards they give, (e2 + e3, x2 * x3, s2 + s3) each (direct_early._by_cards). */
static PyObject *by_cards_core(PyObject *third, PyObject *fourth, long n) {
    if (!PyTuple_Check(third) || !PyTuple_Check(fourth)) {
        PyErr_SetString(PyExc_TypeError, "_early: by_cards takes two tuples of shares");
        return NULL;
    }
    if (n < 0 || n > 1000) {
        PyErr_SetString(PyExc_ValueError, "_early: by_cards's n out of range");
        return NULL;
    }
    PyObject *out = PyList_New(n + 1);
    if (out == NULL) return NULL;
    for (long k = 0; k <= n; k++) {
        PyObject *row = PyList_New(0);
        if (row == NULL) goto fail;
        PyList_SET_ITEM(out, k, row);
    }
    Py_ssize_t n2 = PyTuple_GET_SIZE(third), n3 = PyTuple_GET_SIZE(fourth);
    for (Py_ssize_t a = 0; a < n2; a++) {
        PyObject *t2 = PyTuple_GET_ITEM(third, a);
        if (tuple_of(t2, 4, "a share") < 0) goto fail;
        long k2 = PyLong_AsLong(PyTuple_GET_ITEM(t2, 0));
        long e2 = PyLong_AsLong(PyTuple_GET_ITEM(t2, 1));
        if (PyErr_Occurred()) goto fail;
        if (k2 > n) break;
        for (Py_ssize_t b = 0; b < n3; b++) {
            PyObject *t3 = PyTuple_GET_ITEM(fourth, b);
            if (tuple_of(t3, 4, "a share") < 0) goto fail;
            long k3 = PyLong_AsLong(PyTuple_GET_ITEM(t3, 0));
            long e3 = PyLong_AsLong(PyTuple_GET_ITEM(t3, 1));
            if (PyErr_Occurred()) goto fail;
            long k = k2 + k3;
            if (k > n) break;
            if (k < 0) {
                PyErr_SetString(PyExc_ValueError, "_early: a share gives fewer than 0 cards");
                goto fail;
            }
            PyObject *ev = PyLong_FromLong(e2 + e3);
            PyObject *x = ev ? PyNumber_Multiply(PyTuple_GET_ITEM(t2, 2), PyTuple_GET_ITEM(t3, 2)) : NULL;
            PyObject *s = x ? PyNumber_Add(PyTuple_GET_ITEM(t2, 3), PyTuple_GET_ITEM(t3, 3)) : NULL;
            PyObject *t = s ? PyTuple_New(3) : NULL;
            if (t == NULL) {
                Py_XDECREF(ev);
                Py_XDECREF(x);
                Py_XDECREF(s);
                goto fail;
            }
            PyTuple_SET_ITEM(t, 0, ev);
            PyTuple_SET_ITEM(t, 1, x);
            PyTuple_SET_ITEM(t, 2, s);
            int rc = PyList_Append(PyList_GET_ITEM(out, k), t);
            Py_DECREF(t);
            if (rc < 0) goto fail;
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *by_cards(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *third, *fourth;
    long n;
    if (!PyArg_ParseTuple(args, "O!O!l:by_cards", &PyTuple_Type, &third, &PyTuple_Type, &fourth, &n)) return NULL;
    return by_cards_core(third, fourth, n);
}

/* How close_cloud makes an end weight missing from ends: a Python callable (make(key)), end_weights'
   bundle (counted in made), or the compiled walk's maker (walk_make: the packing made first). */
typedef struct Maker {
    PyObject *(*make)(struct Maker *, PyObject *key); /* new reference or NULL */
    PyObject *callable, *bundle, *ends, *context;
    Py_ssize_t made;
    void *walk;
} Maker;

static PyObject *call_make(Maker *m, PyObject *key) { return PyObject_CallOneArg(m->callable, key); }

static PyObject *bundle_make(Maker *m, PyObject *key) {
    PyObject *vec[8] = {key,
                        PyTuple_GET_ITEM(m->bundle, 0),
                        PyTuple_GET_ITEM(m->bundle, 1),
                        PyTuple_GET_ITEM(m->bundle, 2),
                        PyTuple_GET_ITEM(m->bundle, 3),
                        PyTuple_GET_ITEM(m->bundle, 4),
                        m->ends,
                        m->context};
    m->made++;
    return end_weights(NULL, vec, 8);
}

/* close_cloud: close_last's loop (below) on checked arguments, end weights missing from ends made
   by m.  New reference.  The compiled walk calls it directly. */
static PyObject *close_cloud(PyObject *cloud, long shift, long cap, PyObject *inc, long free, const long *caps,
                             long need, Maker *m) {
    PyObject *context = m->context, *ends = m->ends;
    PyObject *total = PyLong_FromLong(0);
    if (total == NULL) return NULL;
    Py_ssize_t pos = 0;
    PyObject *key, *w;
    while (PyDict_Next(cloud, &pos, &key, &w)) {
        unsigned long long low;
        if (low_bits(key, &low) < 0) goto fail;
        Py_INCREF(key);
        Py_INCREF(w);
        if (shift >= 0) {
            long ug = (long)((low >> shift) & 31);
            if (ug >= cap) {
                Py_DECREF(key);
                Py_DECREF(w);
                continue;
            }
            if (free >= 0) {
                PyObject *f = PyLong_FromLong(free - ug);
                PyObject *w2 = f ? PyNumber_Multiply(w, f) : NULL;
                Py_XDECREF(f);
                Py_DECREF(w);
                w = w2;
                if (w == NULL) {
                    Py_DECREF(key);
                    goto fail;
                }
            }
            PyObject *k2 = PyNumber_Add(key, inc);
            Py_DECREF(key);
            key = k2;
            if (key == NULL || low_bits(key, &low) < 0) {
                Py_XDECREF(key);
                Py_DECREF(w);
                goto fail;
            }
        }
        if ((long)(low & 31) <= caps[0] && (long)((low >> 5) & 31) <= caps[1] &&
            (long)((low >> 10) & 31) <= caps[2] && (long)((low >> 15) & 31) <= caps[3]) {
            PyObject *ek = PyTuple_Pack(2, context, key);
            PyObject *hit = ek ? PyDict_GetItemWithError(ends, ek) : NULL; /* borrowed */
            Py_XDECREF(ek);
            int truthy = 0;
            if (hit != NULL) {
                truthy = PyObject_IsTrue(hit);
                if (truthy < 0) hit = NULL;
            }
            if (hit != NULL && truthy) {
                Py_INCREF(hit);
            } else if (PyErr_Occurred()) {
                hit = NULL;
            } else {
                hit = m->make(m, key);
            }
            PyObject *entry = hit ? PySequence_GetItem(hit, need) : NULL;
            Py_XDECREF(hit);
            PyObject *x = entry ? PyNumber_Multiply(w, entry) : NULL;
            Py_XDECREF(entry);
            PyObject *t2 = x ? PyNumber_Add(total, x) : NULL;
            Py_XDECREF(x);
            if (t2 == NULL) {
                Py_DECREF(key);
                Py_DECREF(w);
                goto fail;
            }
            Py_DECREF(total);
            total = t2;
        }
        Py_DECREF(key);
        Py_DECREF(w);
    }
    return total;
fail:
    Py_DECREF(total);
    return NULL;
}

/* close_last(cloud, shift, cap, inc, free, caps, context, ends, make, need) -> int: the weight of
   the cloud at the last position.  With shift >= 0 (a face-down hideout of group shift / 5): the
   counts under the group's cap, times free - (the group's laid cards) when free >= 0, the key
   plus inc; then the counts the four caps allow, each times its end weights' entry need
   (ends.get((context, key)) or make(key)).  make may instead be the tuple (low_pairs, high_pairs,
   tables, masks, packing) of end_weights, made here without a call back into Python: then the
   answer is (the weight, how many end weights were made). */
static PyObject *close_last(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 10, "close_last") < 0) return NULL;
    PyObject *cloud = args[0], *inc = args[3], *context = args[6], *ends = args[7], *make = args[8];
    long shift, cap, free, need;
    long caps[4];
    if (dict_arg(cloud, "the cloud") < 0 || long_arg(args[1], &shift) < 0 || long_arg(args[2], &cap) < 0 ||
        long_arg(args[4], &free) < 0 || longs_arg(args[5], caps, 4) < 0 || dict_arg(ends, "ends") < 0 ||
        long_arg(args[9], &need) < 0)
        return NULL;
    if (shift > 58 || need < 0) {
        PyErr_SetString(PyExc_ValueError, "_early: close_last's shift or need out of range");
        return NULL;
    }
    int bundle = PyTuple_Check(make);
    if (bundle && PyTuple_GET_SIZE(make) != 5) {
        PyErr_SetString(PyExc_TypeError, "_early: close_last's end weights bundle must hold 5 items");
        return NULL;
    }
    Maker m = {bundle ? bundle_make : call_make, make, make, ends, context, 0, NULL};
    PyObject *total = close_cloud(cloud, shift, cap, inc, free, caps, need, &m);
    if (total == NULL) return NULL;
    if (bundle) return Py_BuildValue("(Nn)", total, m.made);
    return total;
}

static int caps_allow(unsigned long long low, const long *caps) {
    return (long)(low & 31) <= caps[0] && (long)((low >> 5) & 31) <= caps[1] && (long)((low >> 10) & 31) <= caps[2] &&
           (long)((low >> 15) & 31) <= caps[3];
}

/* hide_cloud: hide_step's loop (below) on checked arguments; caps NULL: no caps check.  New
   reference.  The compiled walk calls it directly. */
static PyObject *hide_cloud(PyObject *cloud, long shift, long cap, PyObject *inc, int mult, long free,
                            const long *caps) {
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    Py_ssize_t pos = 0;
    PyObject *key, *w;
    while (PyDict_Next(cloud, &pos, &key, &w)) {
        unsigned long long low;
        if (low_bits(key, &low) < 0) goto fail;
        if (shift < 0) {
            if (caps == NULL || caps_allow(low, caps)) {
                if (PyDict_SetItem(out, key, w) < 0) goto fail;
            }
            continue;
        }
        long ug = (long)((low >> shift) & 31);
        if (ug >= cap) continue;
        PyObject *k = PyNumber_Add(key, inc);
        if (k == NULL) goto fail;
        if (caps != NULL) {
            if (low_bits(k, &low) < 0) {
                Py_DECREF(k);
                goto fail;
            }
            if (!caps_allow(low, caps)) {
                Py_DECREF(k);
                continue;
            }
        }
        PyObject *x;
        if (mult) {
            PyObject *f = PyLong_FromLong(free - ug);
            x = f ? PyNumber_Multiply(w, f) : NULL;
            Py_XDECREF(f);
        } else {
            x = w;
            Py_INCREF(x);
        }
        int rc = x ? PyDict_SetItem(out, k, x) : -1;
        Py_DECREF(k);
        Py_XDECREF(x);
        if (rc < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* hide_step(cloud, shift, cap, inc, mult, free, caps) -> dict: with shift >= 0 a hideout of the
   group at shift: the counts whose group has fewer than cap cards laid, key + inc, weight times
   free - (those cards) when mult; then, when caps is not None, only the counts the four caps
   allow.  Weights of 0 are kept (direct_early._Walk.hide, hide_closed). */
static PyObject *hide_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 7, "hide_step") < 0) return NULL;
    PyObject *cloud = args[0], *inc = args[3], *capsobj = args[6];
    long shift, cap, free;
    long caps[4];
    int mult = PyObject_IsTrue(args[4]);
    if (mult < 0 || dict_arg(cloud, "the cloud") < 0 || long_arg(args[1], &shift) < 0 || long_arg(args[2], &cap) < 0 ||
        long_arg(args[5], &free) < 0)
        return NULL;
    int check = capsobj != Py_None;
    if (check && longs_arg(capsobj, caps, 4) < 0) return NULL;
    if (shift > 58) {
        PyErr_SetString(PyExc_ValueError, "_early: hide_step's shift out of range");
        return NULL;
    }
    return hide_cloud(cloud, shift, cap, inc, mult, free, check ? caps : NULL);
}

/* face_cloud: face_up's loop (below) on checked arguments: nt terms (shift, c, free).  New
   reference.  The compiled walk calls it directly. */
static PyObject *face_cloud(PyObject *cloud, const long *caps, Py_ssize_t nt, const long *tshift, const long *tc,
                            const long *tfree, PyObject *fall) {
    PyObject *zero = PyLong_FromLong(0);
    PyObject *out = zero ? PyDict_New() : NULL;
    if (out == NULL) {
        Py_XDECREF(zero);
        return NULL;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *w;
    while (PyDict_Next(cloud, &pos, &key, &w)) {
        unsigned long long low;
        if (low_bits(key, &low) < 0) goto fail;
        if (!caps_allow(low, caps)) continue;
        Py_INCREF(w);
        for (Py_ssize_t j = 0; j < nt; j++) {
            long x = tfree[j] - (long)((low >> tshift[j]) & 31);
            PyObject *f;
            if (x >= 0) {
                PyObject *row = PySequence_GetItem(fall, x);
                f = row ? PySequence_GetItem(row, tc[j]) : NULL;
                Py_XDECREF(row);
            } else {
                f = zero;
                Py_INCREF(f);
            }
            PyObject *w2 = f ? PyNumber_Multiply(w, f) : NULL;
            Py_XDECREF(f);
            Py_DECREF(w);
            w = w2;
            if (w == NULL) goto fail;
        }
        int nz = PyObject_IsTrue(w);
        int rc = nz > 0 ? PyDict_SetItem(out, key, w) : nz;
        Py_DECREF(w);
        if (rc < 0) goto fail;
    }
    Py_DECREF(zero);
    return out;
fail:
    Py_DECREF(zero);
    Py_DECREF(out);
    return NULL;
}

/* face_up(cloud, caps, terms, fall) -> dict: the counts the four caps allow, each weight times
   fall[free - (the deck's laid cards)][c] (0 when negative) for each (shift, c, free) of terms;
   counts of weight 0 dropped (direct_early._Walk.face_up). */
static PyObject *face_up(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cloud, *terms, *fall;
    long caps[4];
    if (!PyArg_ParseTuple(args, "O!(llll)O!O:face_up", &PyDict_Type, &cloud, &caps[0], &caps[1], &caps[2], &caps[3],
                          &PyTuple_Type, &terms, &fall))
        return NULL;
    Py_ssize_t nt = PyTuple_GET_SIZE(terms);
    if (nt > 3) {
        PyErr_SetString(PyExc_ValueError, "_early: face_up takes at most 3 terms");
        return NULL;
    }
    long tshift[3], tc[3], tfree[3];
    for (Py_ssize_t j = 0; j < nt; j++) {
        PyObject *t = PyTuple_GET_ITEM(terms, j);
        if (!PyTuple_Check(t) || !PyArg_ParseTuple(t, "lll", &tshift[j], &tc[j], &tfree[j])) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_early: a term must be a tuple of 3 ints");
            return NULL;
        }
        if (tshift[j] < 0 || tshift[j] > 58) {
            PyErr_SetString(PyExc_ValueError, "_early: a term's shift out of range");
            return NULL;
        }
    }
    return face_cloud(cloud, caps, nt, tshift, tc, tfree, fall);
}

/* A key's bits (keys are >= 0 and below 2**128: 80 bits here); -1 with an error set else. */
static int key_bits(PyObject *key, unsigned __int128 *out) {
    unsigned long long low;
    if (low_bits(key, &low) < 0) return -1;
    static PyObject *sixty_four = NULL;
    if (sixty_four == NULL && (sixty_four = PyLong_FromLong(64)) == NULL) return -1;
    PyObject *hi = PyNumber_Rshift(key, sixty_four);
    if (hi == NULL) return -1;
    unsigned long long high = PyLong_AsUnsignedLongLong(hi); /* OverflowError when < 0 or >= 2**128 */
    Py_DECREF(hi);
    if (high == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = ((unsigned __int128)high << 64) | low;
    return 0;
}

/* item(table, a, b) = table[a][b] with Python's indexing (a negative index counts from the end,
   as the pure code's would). New reference or NULL. */
static PyObject *item2(PyObject *table, long a, long b) {
    PyObject *row = PySequence_GetItem(table, a);
    if (row == NULL) return NULL;
    PyObject *x = PySequence_GetItem(row, b);
    Py_DECREF(row);
    return x;
}

/* group_shares(key, g, params, shares, kept, fall, comb) -> tuple: group g's shares of an early
   stack from the counts key (direct_early._Walk._new_group_shares, with its shared memo shares:
   cleared at kept entries).  params: (the group's cap at the stack, the stack's cards, whether
   its free draws count (measure deals, a deck's group), those draws before the group's laid cards,
   the group's even and odd cards). */
static PyObject *group_shares_core(PyObject *key, long g, const long *p, PyObject *shares, Py_ssize_t kept,
                                   PyObject *fall, PyObject *comb) {
    long capg = p[0], stack = p[1], counted = p[2], draws = p[3], avail_e = p[4], avail_o = p[5];
    if (g < 0 || g > 3) {
        PyErr_SetString(PyExc_ValueError, "_early: group out of range");
        return NULL;
    }
    unsigned __int128 k128;
    if (key_bits(key, &k128) < 0) return NULL;
    int shift = 5 * (int)g;
    long ug = (long)((k128 >> shift) & 31), hg = (long)((k128 >> (20 + shift)) & 31);
    long heg = (long)((k128 >> (40 + shift)) & 31), seg = (long)((k128 >> (60 + shift)) & 31);
    long seo = ug - hg - seg;
    long free_e = avail_e - heg - seg, free_o = avail_o - (hg - heg) - seo;
    long room = capg - ug;
    if (stack < room) room = stack;
    if (free_e + free_o < room) room = free_e + free_o;
    long free = -1;
    if (counted) {
        free = draws - ug;
        if (free < room) room = free;
    }
    long sk[7] = {g, room, free, free_e < room ? free_e : room, free_o < room ? free_o : room, seg, seo};
    PyObject *skey = PyTuple_New(7);
    if (skey == NULL) return NULL;
    for (int j = 0; j < 7; j++) {
        PyObject *x = PyLong_FromLong(sk[j]);
        if (x == NULL) {
            Py_DECREF(skey);
            return NULL;
        }
        PyTuple_SET_ITEM(skey, j, x);
    }
    PyObject *out = PyDict_GetItemWithError(shares, skey);
    if (out != NULL) {
        Py_INCREF(out);
        Py_DECREF(skey);
        return out;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(skey);
        return NULL;
    }
    if (PyDict_GET_SIZE(shares) >= kept) PyDict_Clear(shares);
    PyObject *made = PyList_New(0);
    if (made == NULL) {
        Py_DECREF(skey);
        return NULL;
    }
    for (long k = 0; k <= room; k++) {
        PyObject *wk = free >= 0 ? item2(fall, free, k) : PyLong_FromLong(1);
        if (wk == NULL) goto fail;
        long e_lo = k > free_o ? k - free_o : 0, e_hi = k < free_e ? k : free_e;
        for (long e = e_lo; e <= e_hi; e++) {
            PyObject *c1 = item2(comb, seg + e, e);
            PyObject *c2 = c1 ? item2(comb, seo + k - e, k - e) : NULL;
            PyObject *a = c2 ? PyNumber_Multiply(wk, c1) : NULL;
            PyObject *x = a ? PyNumber_Multiply(a, c2) : NULL;
            Py_XDECREF(c1);
            Py_XDECREF(c2);
            Py_XDECREF(a);
            if (x == NULL) {
                Py_DECREF(wk);
                goto fail;
            }
            int nz = PyObject_IsTrue(x);
            if (nz > 0) {
                unsigned __int128 step = ((unsigned __int128)k << shift) + ((unsigned __int128)e << (60 + shift));
                PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)step);
                PyObject *hi = lo ? PyLong_FromUnsignedLongLong((unsigned long long)(step >> 64)) : NULL;
                PyObject *s64 = hi ? PyLong_FromLong(64) : NULL;
                PyObject *hs = s64 ? PyNumber_Lshift(hi, s64) : NULL;
                PyObject *st = hs ? PyNumber_Or(hs, lo) : NULL;
                Py_XDECREF(lo);
                Py_XDECREF(hi);
                Py_XDECREF(s64);
                Py_XDECREF(hs);
                PyObject *t = st ? Py_BuildValue("(llNN)", k, e, x, st) : NULL;
                if (t == NULL) {
                    if (st == NULL) Py_DECREF(x);
                    Py_DECREF(wk);
                    goto fail;
                }
                x = NULL; /* stolen by the tuple */
                int rc = PyList_Append(made, t);
                Py_DECREF(t);
                if (rc < 0) {
                    Py_DECREF(wk);
                    goto fail;
                }
            } else {
                Py_DECREF(x);
                if (nz < 0) {
                    Py_DECREF(wk);
                    goto fail;
                }
            }
        }
        Py_DECREF(wk);
    }
    out = PyList_AsTuple(made);
    Py_DECREF(made);
    if (out == NULL || PyDict_SetItem(shares, skey, out) < 0) {
        Py_XDECREF(out);
        Py_DECREF(skey);
        return NULL;
    }
    Py_DECREF(skey);
    return out;
fail:
    Py_DECREF(made);
    Py_DECREF(skey);
    return NULL;
}

static PyObject *group_shares(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *key, *shares, *fall, *comb;
    long g, p[6];
    Py_ssize_t kept;
    if (!PyArg_ParseTuple(args, "Ol(llllll)O!nOO:group_shares", &key, &g, &p[0], &p[1], &p[2], &p[3], &p[4], &p[5],
                          &PyDict_Type, &shares, &kept, &fall, &comb))
        return NULL;
    return group_shares_core(key, g, p, shares, kept, fall, comb);
}

static unsigned __int128 group_mask(int g);
static PyObject *from_u128(unsigned __int128 x);

/* What the last stack's group tables read of a walk: the packed tables by group and part of key
   (4 dicts), n, the packing's width, per group its cards, its hand, its cap at the last stack,
   its even and odd cards, whether its free draws count and those draws (drawn less before), the
   packed tables' maker (direct.packed_table), COMB, the product's mask. */
typedef struct {
    PyObject *packed, *packed_table, *comb, *keep;
    long n, width, a[4], fug[4], cap[4], ae[4], ao[4], drawn[4], d[4];
} Tables;

static int tables_of(PyObject *tables, PyObject *keep, Tables *t) {
    if (!PyTuple_Check(tables) || PyTuple_GET_SIZE(tables) != 4) {
        PyErr_SetString(PyExc_TypeError, "_early: tables must be (packed, params, packed_table, comb)");
        return -1;
    }
    t->packed = PyTuple_GET_ITEM(tables, 0);
    t->packed_table = PyTuple_GET_ITEM(tables, 2);
    t->comb = PyTuple_GET_ITEM(tables, 3);
    t->keep = keep;
    if (!PyList_Check(t->packed) || PyList_GET_SIZE(t->packed) != 4) {
        PyErr_SetString(PyExc_TypeError, "_early: packed must be a list of 4 dicts");
        return -1;
    }
    long v[30];
    if (longs_arg(PyTuple_GET_ITEM(tables, 1), v, 30) < 0) return -1;
    t->n = v[0];
    t->width = v[1];
    for (int g = 0; g < 4; g++) {
        long *q = v + 2 + 7 * g;
        t->a[g] = q[0], t->fug[g] = q[1], t->cap[g] = q[2], t->ae[g] = q[3], t->ao[g] = q[4];
        t->drawn[g] = q[5], t->d[g] = q[6];
    }
    return 0;
}

/* Group g's packed table from the counts k (direct_early._Walk.group_table). New reference. */
static PyObject *group_table(const Tables *t, unsigned __int128 k, int g) {
    int shift = 5 * g;
    long ug = (long)((k >> shift) & 31), hg = (long)((k >> (20 + shift)) & 31);
    long heg = (long)((k >> (40 + shift)) & 31), seg = (long)((k >> (60 + shift)) & 31);
    long hand_total = t->fug[g] - ug;
    long room = t->n;
    if (t->cap[g] - ug < room) room = t->cap[g] - ug;
    if (hand_total < room) room = hand_total;
    long evens = t->ae[g] - heg, odds = t->ao[g] - (hg - heg), seo = ug - hg - seg;
    PyObject *c1 = item2(t->comb, evens, seg);
    PyObject *c2 = c1 ? item2(t->comb, odds, seo) : NULL;
    PyObject *early = c2 ? PyNumber_Multiply(c1, c2) : NULL;
    Py_XDECREF(c1);
    Py_XDECREF(c2);
    if (early == NULL) return NULL;
    int nz = PyObject_IsTrue(early);
    if (nz < 0 || room < 0 || !nz) {
        Py_DECREF(early);
        return nz < 0 ? NULL : PyLong_FromLong(0);
    }
    long slots = t->drawn[g] ? t->d[g] - ug : -1;
    /* packed_table(width, n, evens, odds, left, hand_total, room, slots, drawn): the same positional call
       as PyObject_CallFunction's "llllllllO", without building and parsing a format per table */
    long v8[8] = {t->width, t->n, evens - seg, odds - seo, t->a[g] - ug, hand_total, room, slots};
    PyObject *call[9] = {NULL};
    int made = 1;
    for (int j = 0; j < 8; j++)
        if ((call[j] = PyLong_FromLong(v8[j])) == NULL) made = 0;
    call[8] = t->drawn[g] ? Py_True : Py_False;
    PyObject *table = made ? PyObject_Vectorcall(t->packed_table, call, 9, NULL) : NULL;
    for (int j = 0; j < 8; j++) Py_XDECREF(call[j]);
    PyObject *out = table ? PyNumber_Multiply(early, table) : NULL;
    Py_DECREF(early);
    Py_XDECREF(table);
    return out;
}

/* packed[g][key & GROUP_MASKS[g]], made and kept when missing. New reference. */
static PyObject *table_of(const Tables *t, unsigned __int128 k, int g) {
    PyObject *tables = PyList_GET_ITEM(t->packed, g);
    if (!PyDict_Check(tables)) {
        PyErr_SetString(PyExc_TypeError, "_early: packed must be a list of 4 dicts");
        return NULL;
    }
    PyObject *part = from_u128(k & group_mask(g));
    if (part == NULL) return NULL;
    PyObject *hit = PyDict_GetItemWithError(tables, part);
    if (hit != NULL || PyErr_Occurred()) {
        Py_XINCREF(hit);
        Py_DECREF(part);
        return hit;
    }
    hit = group_table(t, k, g);
    if (hit != NULL && PyDict_SetItem(tables, part, hit) < 0) Py_CLEAR(hit);
    Py_DECREF(part);
    return hit;
}

/* Groups g and g + 1's tables multiplied (direct_early._Walk._pair). New reference. */
static PyObject *pair_tables(const Tables *t, unsigned __int128 k, int g) {
    PyObject *first = table_of(t, k, g);
    if (first == NULL) return NULL;
    int nz = PyObject_IsTrue(first);
    if (nz <= 0) {
        Py_DECREF(first);
        return nz < 0 ? NULL : PyLong_FromLong(0);
    }
    PyObject *second = table_of(t, k, g + 1);
    PyObject *out = NULL;
    if (second != NULL) {
        nz = PyObject_IsTrue(second);
        if (nz > 0) {
            PyObject *m = PyNumber_Multiply(first, second);
            out = m ? PyNumber_And(m, t->keep) : NULL;
            Py_XDECREF(m);
        } else if (nz == 0) {
            out = PyLong_FromLong(0);
        }
        Py_DECREF(second);
    }
    Py_DECREF(first);
    return out;
}

/* memo.get(part) or memo[part] = the pair's product. New ref. */
static PyObject *pair_of(PyObject *memo, PyObject *part, const Tables *t, unsigned __int128 k, int g) {
    PyObject *hit = PyDict_GetItemWithError(memo, part);
    if (hit != NULL) {
        Py_INCREF(hit);
        return hit;
    }
    if (PyErr_Occurred()) return NULL;
    hit = pair_tables(t, k, g);
    if (hit != NULL && PyDict_SetItem(memo, part, hit) < 0) Py_CLEAR(hit);
    return hit;
}

/* end_weights(key, low_pairs, high_pairs, tables, masks, packing, ends, context) -> tuple: the last
   stack's weights by need from the counts key (direct_early._Walk.new_end_weights without its
   work count): groups 0-1's tables times groups 2-3's (each pair memoised, made from the group
   tables, themselves memoised by group: tables, see Tables),
   the product's top row read digit by digit from its highest, summed from the top, kept in
   ends[(context, key)].  masks: (groups 0-1's part of a key, groups 2-3's); packing: (keep,
   row_shift, row_mask, n, width, digit). */
/* end_weights's arguments after the key, read and checked once (the compiled walk keeps them). */
typedef struct {
    PyObject *low_pairs, *high_pairs, *ends, *context, *low_mask, *high_mask, *keep, *row_shift, *row_mask, *digit;
    long n, width;
    Tables tab;
} EndArgs;

static int end_args_of(PyObject *const *args, EndArgs *ea) {
    PyObject *masks = args[4], *packing = args[5];
    ea->low_pairs = args[1], ea->high_pairs = args[2], ea->ends = args[6], ea->context = args[7];
    if (dict_arg(ea->low_pairs, "low_pairs") < 0 || dict_arg(ea->high_pairs, "high_pairs") < 0 ||
        dict_arg(ea->ends, "ends") < 0)
        return -1;
    if (!PyTuple_Check(masks) || PyTuple_GET_SIZE(masks) != 2 || !PyTuple_Check(packing) ||
        PyTuple_GET_SIZE(packing) != 6) {
        PyErr_SetString(PyExc_TypeError, "_early: end_weights's masks (2) and packing (6) must be tuples");
        return -1;
    }
    ea->low_mask = PyTuple_GET_ITEM(masks, 0), ea->high_mask = PyTuple_GET_ITEM(masks, 1);
    ea->keep = PyTuple_GET_ITEM(packing, 0), ea->row_shift = PyTuple_GET_ITEM(packing, 1);
    ea->row_mask = PyTuple_GET_ITEM(packing, 2), ea->digit = PyTuple_GET_ITEM(packing, 5);
    if (long_arg(PyTuple_GET_ITEM(packing, 3), &ea->n) < 0 || long_arg(PyTuple_GET_ITEM(packing, 4), &ea->width) < 0)
        return -1;
    return tables_of(args[3], ea->keep, &ea->tab);
}

static PyObject *end_weights_core(PyObject *key, const EndArgs *ea);

static PyObject *end_weights(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 8, "end_weights") < 0) return NULL;
    EndArgs ea;
    if (end_args_of(args, &ea) < 0) return NULL;
    return end_weights_core(args[0], &ea);
}

/* end_weights on read arguments: new reference. */
static PyObject *end_weights_core(PyObject *key, const EndArgs *ea) {
    PyObject *low_pairs = ea->low_pairs, *high_pairs = ea->high_pairs, *ends = ea->ends, *context = ea->context;
    PyObject *low_mask = ea->low_mask, *high_mask = ea->high_mask, *keep = ea->keep, *row_shift = ea->row_shift;
    PyObject *row_mask = ea->row_mask, *digit = ea->digit;
    long n = ea->n, width = ea->width;
    const Tables *tabp = &ea->tab;
    unsigned __int128 k128;
    if (key_bits(key, &k128) < 0) return NULL;
    if (n < 0 || n > 64 || width < 0 || width > 100000) {
        PyErr_SetString(PyExc_ValueError, "_early: end_weights's n or width out of range");
        return NULL;
    }
    PyObject *low = PyNumber_And(key, low_mask);
    PyObject *prod = low ? pair_of(low_pairs, low, tabp, k128, 0) : NULL;
    Py_XDECREF(low);
    if (prod == NULL) return NULL;
    int nz = PyObject_IsTrue(prod);
    if (nz < 0) goto fail_prod;
    if (nz) {
        PyObject *high = PyNumber_And(key, high_mask);
        PyObject *other = high ? pair_of(high_pairs, high, tabp, k128, 2) : NULL;
        Py_XDECREF(high);
        if (other == NULL) goto fail_prod;
        int onz = PyObject_IsTrue(other);
        PyObject *next = NULL;
        if (onz > 0) {
            PyObject *m = PyNumber_Multiply(prod, other);
            next = m ? PyNumber_And(m, keep) : NULL;
            Py_XDECREF(m);
        } else if (onz == 0) {
            next = PyLong_FromLong(0);
        }
        Py_DECREF(other);
        if (next == NULL) goto fail_prod;
        Py_DECREF(prod);
        prod = next;
    }
    PyObject *shifted = PyNumber_Rshift(prod, row_shift);
    Py_DECREF(prod);
    PyObject *row = shifted ? PyNumber_And(shifted, row_mask) : NULL;
    Py_XDECREF(shifted);
    if (row == NULL) return NULL;
    PyObject *out = PyTuple_New(n + 1);
    if (out == NULL) {
        Py_DECREF(row);
        return NULL;
    }
    PyObject *zero = PyLong_FromLong(0);
    if (zero == NULL) goto fail_out;
    for (long e = 0; e <= n; e++) {
        Py_INCREF(zero);
        PyTuple_SET_ITEM(out, e, zero);
    }
    nz = PyObject_IsTrue(row);
    if (nz < 0) goto fail_zero;
    if (nz) {
        PyObject *run = zero;
        Py_INCREF(run);
        for (long e = n; e >= 0; e--) {
            PyObject *sh = PyLong_FromLong(width * e);
            PyObject *r = sh ? PyNumber_Rshift(row, sh) : NULL;
            PyObject *d = r ? PyNumber_And(r, digit) : NULL;
            PyObject *run2 = d ? PyNumber_Add(run, d) : NULL;
            Py_XDECREF(sh);
            Py_XDECREF(r);
            Py_XDECREF(d);
            Py_DECREF(run);
            if (run2 == NULL) goto fail_zero;
            run = run2;
            Py_INCREF(run);
            PyObject *old = PyTuple_GET_ITEM(out, e);
            PyTuple_SET_ITEM(out, e, run);
            Py_DECREF(old);
        }
        Py_DECREF(run);
    }
    Py_DECREF(zero);
    Py_DECREF(row);
    PyObject *ek = PyTuple_Pack(2, context, key);
    if (ek == NULL || PyDict_SetItem(ends, ek, out) < 0) {
        Py_XDECREF(ek);
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(ek);
    return out;
fail_zero:
    Py_DECREF(zero);
fail_out:
    Py_DECREF(out);
    Py_DECREF(row);
    return NULL;
fail_prod:
    Py_DECREF(prod);
    return NULL;
}

/* An int from 128 bits. New reference. */
static PyObject *from_u128(unsigned __int128 x) {
    unsigned long long hi = (unsigned long long)(x >> 64), lo = (unsigned long long)x;
    if (hi == 0) return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi), *l = PyLong_FromUnsignedLongLong(lo);
    PyObject *s = PyLong_FromLong(64);
    PyObject *hs = h && l && s ? PyNumber_Lshift(h, s) : NULL;
    PyObject *out = hs ? PyNumber_Or(hs, l) : NULL;
    Py_XDECREF(h);
    Py_XDECREF(l);
    Py_XDECREF(s);
    Py_XDECREF(hs);
    return out;
}

/* A group's counts in a key: its four fields (laid, hideouts, even hideouts, stacks' evens). */
static unsigned __int128 group_mask(int g) {
    unsigned __int128 m = 0;
    for (int start = 0; start < 80; start += 20) m |= (unsigned __int128)31 << (start + 5 * g);
    return m;
}

static PyObject *group_shares(PyObject *self, PyObject *args);

/* What stack_shares hands group_shares: the shared memo and tables, the work counted. */
typedef struct {
    PyObject *memo, *key, *params, *shares, *kept, *fall, *comb;
    long i;
    Py_ssize_t work;
} GroupCtx;

/* ctx->memo[(key & GROUP_MASKS[g]) << 8 | i << 2 | g], or made by group_shares (its params for
   the group, the shared memo) and kept there, its shares counted as work
   (direct_early._Walk._group_shares). New reference. */
static PyObject *group_of_stack(GroupCtx *ctx, unsigned __int128 k128, int g) {
    PyObject *mk = from_u128(((k128 & group_mask(g)) << 8) | ((unsigned __int128)ctx->i << 2) | (unsigned)g);
    if (mk == NULL) return NULL;
    PyObject *hit = PyDict_GetItemWithError(ctx->memo, mk);
    if (hit != NULL || PyErr_Occurred()) {
        Py_XINCREF(hit);
        Py_DECREF(mk);
        return hit;
    }
    if (!PyTuple_Check(ctx->params) || PyTuple_GET_SIZE(ctx->params) != 4) {
        PyErr_SetString(PyExc_TypeError, "_early: a stack's params must be a tuple of 4");
        Py_DECREF(mk);
        return NULL;
    }
    long p[6];
    Py_ssize_t kept = PyLong_AsSsize_t(ctx->kept);
    PyObject *out = NULL;
    if (!(kept == -1 && PyErr_Occurred()) && longs_arg(PyTuple_GET_ITEM(ctx->params, g), p, 6) == 0)
        out = group_shares_core(ctx->key, g, p, ctx->shares, kept, ctx->fall, ctx->comb);
    if (out != NULL && PyDict_SetItem(ctx->memo, mk, out) < 0) Py_CLEAR(out);
    Py_DECREF(mk);
    if (out != NULL) ctx->work += PyTuple_GET_SIZE(out);
    return out;
}

static PyObject *by_cards(PyObject *self, PyObject *args);
static PyObject *combine(PyObject *self, PyObject *args);

/* stack_shares(i, key, n, group_memo, late, params, shares, kept, fall, comb) -> (list, work):
   every share of the stack of n cards at i from the counts key (direct_early._Walk._shares):
   groups 0 and 1's shares from the walk's memo or made (group_shares: params[g], the shared
   memo shares, kept, fall, comb), groups 2-3's paired by cards memoised in
   late[(i, key & LATE_MASK)], combined; work: the group shares made (their entries). */
static PyObject *stack_shares_core(long i, PyObject *key, long n, PyObject *memo, PyObject *late, PyObject *params,
                                   PyObject *shares, PyObject *kept, PyObject *fall, PyObject *comb, Py_ssize_t *work) {
    if (dict_arg(memo, "the memo") < 0 || dict_arg(late, "late") < 0 || dict_arg(shares, "shares") < 0) return NULL;
    GroupCtx ctx = {memo, key, params, shares, kept, fall, comb, i, 0};
    if (i < 0 || i > 63) {
        PyErr_SetString(PyExc_ValueError, "_early: a position is below 64");
        return NULL;
    }
    unsigned __int128 k128;
    if (key_bits(key, &k128) < 0) return NULL;
    PyObject *first = group_of_stack(&ctx, k128, 0);
    PyObject *second = first ? group_of_stack(&ctx, k128, 1) : NULL;
    PyObject *lk = NULL, *lpart = NULL, *rows = NULL, *out = NULL;
    if (second == NULL) goto done;
    lpart = from_u128(k128 & (group_mask(2) | group_mask(3)));
    PyObject *iobj = lpart ? PyLong_FromLong(i) : NULL;
    lk = iobj ? PyTuple_Pack(2, iobj, lpart) : NULL;
    Py_XDECREF(iobj);
    if (lk == NULL) goto done;
    rows = PyDict_GetItemWithError(late, lk);
    if (rows != NULL) {
        Py_INCREF(rows);
    } else if (!PyErr_Occurred()) {
        PyObject *third = group_of_stack(&ctx, k128, 2);
        PyObject *fourth = third ? group_of_stack(&ctx, k128, 3) : NULL;
        rows = fourth ? by_cards_core(third, fourth, n) : NULL;
        Py_XDECREF(third);
        Py_XDECREF(fourth);
        if (rows != NULL && PyDict_SetItem(late, lk, rows) < 0) Py_CLEAR(rows);
    }
    if (rows == NULL) goto done;
    out = combine_core(first, second, rows, n);
    *work += ctx.work;
done:
    Py_XDECREF(first);
    Py_XDECREF(second);
    Py_XDECREF(lpart);
    Py_XDECREF(lk);
    Py_XDECREF(rows);
    return out;
}

static PyObject *stack_shares(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 10, "stack_shares") < 0) return NULL;
    long i, n;
    if (long_arg(args[0], &i) < 0 || long_arg(args[2], &n) < 0) return NULL;
    Py_ssize_t work = 0;
    PyObject *made = stack_shares_core(i, args[1], n, args[3], args[4], args[5], args[6], args[7], args[8], args[9], &work);
    return made ? Py_BuildValue("(Nn)", made, work) : NULL;
}

/* seq[j] as a C long (Python's indexing). */
static int long_item(PyObject *seq, Py_ssize_t j, long *out) {
    PyObject *o = PySequence_GetItem(seq, j);
    if (o == NULL) return -1;
    int rc = long_arg(o, out);
    Py_DECREF(o);
    return rc;
}

static long floor_div(long a, long b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/* packing_width(n, deals, early, gavail, fug, last_cap, last_drawn, last_before, group_bound,
   comb, step) -> int: the packing's width (direct_early._Walk._bound_width): the product over the
   groups of group_bound(...) * comb[a][min(early, a // 2)] as a Python int, its bit length (or the
   groups' cards, if more) + 2 rounded up to step.  Why: _packing's loop was ~7 us of Python per
   walk.  Counts beyond a C long raise OverflowError (the caller runs the pure loop then). */
static PyObject *packing_width(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 11, "packing_width") < 0) return NULL;
    long n, early, step;
    int deals = PyObject_IsTrue(args[1]);
    if (deals < 0 || long_arg(args[0], &n) < 0 || long_arg(args[2], &early) < 0 || long_arg(args[10], &step) < 0)
        return NULL;
    if (step <= 0) {
        PyErr_SetString(PyExc_OverflowError, "_early.packing_width: step must be positive");
        return NULL;
    }
    PyObject *bound = PyLong_FromLong(1);
    if (bound == NULL) return NULL;
    long most = 0;
    for (int g = 0; g < 4; g++) {
        long a, hand, cap, slots = -1, d, b;
        if (long_item(args[3], g, &a) < 0 || long_item(args[4], g, &hand) < 0 || long_item(args[5], g, &cap) < 0)
            goto fail;
        if (hand < 0) hand = 0;
        int drawn = deals && g > 0;
        if (drawn) {
            if (long_item(args[6], g - 1, &d) < 0 || long_item(args[7], g - 1, &b) < 0) goto fail;
            if (__builtin_sub_overflow(d, b, &slots)) { /* drawn less before beyond a C long: the pure loop */
                PyErr_SetString(PyExc_OverflowError, "_early.packing_width: draws beyond a C long");
                goto fail;
            }
        }
        long top = cap > 0 ? cap : 0;
        if (n < top) top = n;
        if (hand < top) top = hand;
        long half = floor_div(a, 2);
        PyObject *call[5] = {PyLong_FromLong(a), PyLong_FromLong(hand), PyLong_FromLong(top), PyLong_FromLong(slots),
                             drawn ? Py_True : Py_False};
        PyObject *gb = NULL, *c = NULL, *part = NULL, *next = NULL;
        if (call[0] && call[1] && call[2] && call[3]) gb = PyObject_Vectorcall(args[8], call, 5, NULL);
        for (int j = 0; j < 4; j++) Py_XDECREF(call[j]);
        if (gb == NULL) goto fail;
        c = item2(args[9], a, early < half ? early : half);
        if (c != NULL) part = PyNumber_Multiply(gb, c);
        if (part != NULL) next = PyNumber_Multiply(bound, part);
        Py_DECREF(gb);
        Py_XDECREF(c);
        Py_XDECREF(part);
        if (next == NULL) goto fail;
        Py_SETREF(bound, next);
        if (a > most) most = a;
    }
    size_t bits = _PyLong_NumBits(bound);
    Py_DECREF(bound);
    if (bits == (size_t)-1 && PyErr_Occurred()) return NULL;
    if ((long)bits > most) most = (long)bits;
    most += 2;
    return PyLong_FromLong(-floor_div(-most, step) * step);
fail:
    Py_DECREF(bound);
    return NULL;
}

/* share_params(size, stacks, capg, drawn, before, avail, deals) -> dict: per early stack i (1 <= i <
   size, stacks[i] nonzero, in order), per group g, (capg[i][g], stacks[i], deals and g > 0,
   drawn[i][g - 1] - before[i][g - 1] if g else 0, avail[2 g + 1], avail[2 g]): what group_shares
   reads (direct_early._Walk.share_params; the same objects, the difference a Python int).  Why:
   ~3.6 us of Python per walk in _Walk.__init__. */
static PyObject *share_params(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 7, "share_params") < 0) return NULL;
    Py_ssize_t size = PyLong_AsSsize_t(args[0]);
    int deals = PyObject_IsTrue(args[6]);
    if ((size == -1 && PyErr_Occurred()) || deals < 0) return NULL;
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 1; i < size; i++) {
        PyObject *stack = PySequence_GetItem(args[1], i);
        if (stack == NULL) goto fail;
        int some = PyObject_IsTrue(stack);
        if (some <= 0) {
            Py_DECREF(stack);
            if (some < 0) goto fail;
            continue;
        }
        PyObject *caps = PySequence_GetItem(args[2], i), *dr = PySequence_GetItem(args[3], i);
        PyObject *bf = PySequence_GetItem(args[4], i), *groups = PyTuple_New(4), *key = NULL;
        int ok = caps && dr && bf && groups;
        for (Py_ssize_t g = 0; ok && g < 4; g++) {
            PyObject *cap = PySequence_GetItem(caps, g), *slots = NULL, *odd = NULL, *even = NULL, *row = NULL;
            if (g) {
                PyObject *d = PySequence_GetItem(dr, g - 1), *b = PySequence_GetItem(bf, g - 1);
                if (d && b) slots = PyNumber_Subtract(d, b);
                Py_XDECREF(d);
                Py_XDECREF(b);
            } else {
                slots = PyLong_FromLong(0);
            }
            odd = PySequence_GetItem(args[5], 2 * g + 1);
            even = PySequence_GetItem(args[5], 2 * g);
            if (cap && slots && odd && even)
                row = PyTuple_Pack(6, cap, stack, (deals && g > 0) ? Py_True : Py_False, slots, odd, even);
            Py_XDECREF(cap);
            Py_XDECREF(slots);
            Py_XDECREF(odd);
            Py_XDECREF(even);
            if (row == NULL) ok = 0;
            else PyTuple_SET_ITEM(groups, g, row);
        }
        if (ok) key = PyLong_FromSsize_t(i);
        if (key == NULL || PyDict_SetItem(out, key, groups) < 0) ok = 0;
        Py_XDECREF(key);
        Py_XDECREF(groups);
        Py_XDECREF(caps);
        Py_XDECREF(dr);
        Py_XDECREF(bf);
        Py_DECREF(stack);
        if (!ok) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ---- The whole walk (direct_early._Walk.walk and what it calls), compiled ----

Why: on an easy position the early count's walk spent most of its time in Python orchestration
(walk, skip_face_up, after, hide, share_out, last_hidden, _close_last, facts.advance, bisect, the
per-node memo, the work accounting), around loops already here.  walk() runs that recursion in C,
calling the loops above directly: the same clouds, the same Python-int sums (weights of any size),
the same memos filled in the same order (the walk's shares, group shares, late rows, packed tables,
pairs; the shared SHARES and ENDS), the same tallies, and the same work and part-done accounting in
the same float operations, so it gives up on exactly the positions the Python walk gives up on.
The failed series' progress (facts.advance: 6 bits per series, DONE for a failed one) is kept
here as one byte per series, the same values. */

#define WALK_POS 64 /* positions 0..63 (memo keys hold a position in 6 bits) */
#define WALK_VALUES 64

typedef struct {
    long j, deadline;
    Py_ssize_t len;
    long *numbers;
} Series;

typedef struct Walk {
    /* zeroed on entry (up to known): */
    PyObject *walker, *ends, *shares_memo, *kept, *fall, *comb, *end_masks;
    PyObject *context, *shares, *group_shares, *late, *low_pairs, *high_pairs;
    PyObject *end_tables, *end_packing; /* once the packing is made (new references) */
    PyObject *total;                    /* new reference */
    PyObject *hide_obj, *tallies;       /* the walker's hide_key tuple and tallies dict (held) */
    PyObject *bundle[WALK_POS];         /* share_out's stack_shares bundle per stack position (new) */
    PyObject *iobj[WALK_POS];           /* the position as an int (new) */
    PyObject *tally[WALK_POS];          /* tallies[i] for face-down positions (borrowed: the walker's) */
    long size, n, step_limit, done_mark, end_work;
    int deals, nser, nhb;
    double limit, done;
    long long work;
    Py_ssize_t nclass, ngroup, nhide;
    Py_ssize_t nt[WALK_POS];
    Series *series;               /* all positions' open series, by position */
    Py_ssize_t act[WALK_POS + 1]; /* position i's: series[act[i]:act[i + 1]] */
    long *numbers;                /* the series' numbers */
    unsigned char *prog;          /* per depth, the progress after the face-up run and per value */
    EndArgs ea;                   /* end_weights's arguments, read once the packing is made */
    /* set before read (not zeroed: most of the struct, a memset per walk measured ~4%): */
    long known[WALK_POS], stacks[WALK_POS], fixed_fp[WALK_POS], path[WALK_POS], hb[WALK_POS];
    long capg[WALK_POS][4], drawn[WALK_POS][3], before[WALK_POS][3];
    unsigned long long reach[WALK_POS];
    long vals[WALK_POS][WALK_VALUES];
    Py_ssize_t nvals[WALK_POS];
    long class_of[WALK_VALUES], group_of[WALK_VALUES];
    PyObject *hide_key[WALK_VALUES]; /* borrowed: the walker's tuple */
    long tshift[WALK_POS][3], tc[WALK_POS][3], tfree[WALK_POS][3];
} Walk;

/* o.name, the name interned once per call site's literal (PyObject_GetAttrString made a str per
   read: ~30 reads a walk, 3.3% of the count's instructions). */
static PyObject *attr(PyObject *o, const char *name) {
    static const char *names[64];
    static PyObject *keys[64];
    static int count = 0;
    for (int j = 0; j < count; j++)
        if (names[j] == name) return PyObject_GetAttr(o, keys[j]);
    PyObject *key = PyUnicode_InternFromString(name);
    if (key == NULL) return NULL;
    PyObject *out = PyObject_GetAttr(o, key);
    if (count < 64) {
        names[count] = name;
        keys[count++] = key; /* kept for the module's life */
    } else {
        Py_DECREF(key);
    }
    return out;
}

static int attr_long(PyObject *o, const char *name, long *out) {
    PyObject *v = attr(o, name);
    if (v == NULL) return -1;
    int rc = long_arg(v, out);
    Py_DECREF(v);
    return rc;
}

/* seq[i] as n longs (a sequence of n), for i = 1..size. */
static int rows_of(PyObject *walker, const char *name, long size, long *out, int n) {
    PyObject *seq = attr(walker, name);
    if (seq == NULL) return -1;
    int rc = 0;
    for (long i = 1; rc == 0 && i <= size; i++) {
        PyObject *row = PySequence_GetItem(seq, i);
        rc = row ? longs_arg(row, out + n * i, n) : -1;
        Py_XDECREF(row);
    }
    Py_DECREF(seq);
    return rc;
}

/* seq[i] as a long for i = 1..size. */
static int longs_of(PyObject *walker, const char *name, long size, long *out) {
    PyObject *seq = attr(walker, name);
    if (seq == NULL) return -1;
    int rc = 0;
    for (long i = 1; rc == 0 && i <= size; i++) rc = long_item(seq, i, &out[i]);
    Py_DECREF(seq);
    return rc;
}

/* A table by value (class_of, group_of) as longs, at most WALK_VALUES. */
static int by_value(PyObject *walker, const char *name, long *out, Py_ssize_t *count) {
    PyObject *seq = attr(walker, name);
    PyObject *fast = seq ? PySequence_Fast(seq, "_early.walk: a table by value must be a sequence") : NULL;
    Py_XDECREF(seq);
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > WALK_VALUES) n = WALK_VALUES; /* values are below WALK_VALUES (checked where read) */
    int rc = 0;
    for (Py_ssize_t v = 0; rc == 0 && v < n; v++) rc = long_arg(PySequence_Fast_GET_ITEM(fast, v), &out[v]);
    *count = n;
    Py_DECREF(fast);
    return rc;
}

static void walk_free(Walk *w) {
    Py_XDECREF(w->end_tables);
    Py_XDECREF(w->end_packing);
    Py_XDECREF(w->total);
    Py_XDECREF(w->context);
    Py_XDECREF(w->shares);
    Py_XDECREF(w->group_shares);
    Py_XDECREF(w->late);
    Py_XDECREF(w->low_pairs);
    Py_XDECREF(w->high_pairs);
    Py_XDECREF(w->hide_obj);
    Py_XDECREF(w->tallies);
    for (int i = 0; i < WALK_POS; i++) {
        Py_XDECREF(w->bundle[i]);
        Py_XDECREF(w->iobj[i]);
    }
    PyMem_Free(w->series);
    PyMem_Free(w->numbers);
    PyMem_Free(w->prog);
    PyMem_Free(w);
}

/* The open series per position (walker.active[i]: (j, numbers, deadline) each), as Series. */
static int series_of(Walk *w, PyObject *walker) {
    PyObject *active = attr(walker, "active");
    if (active == NULL) return -1;
    PyObject *rows[WALK_POS] = {NULL};
    Py_ssize_t entries = 0, numbers = 0;
    int rc = 0;
    long most = -1;
    for (long i = 1; rc == 0 && i <= w->size; i++) {
        PyObject *row = PySequence_GetItem(active, i);
        rows[i] = row ? PySequence_Fast(row, "_early.walk: active[i] must be a sequence") : NULL;
        Py_XDECREF(row);
        if (rows[i] == NULL) {
            rc = -1;
            break;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(rows[i]);
        for (Py_ssize_t e = 0; e < n; e++) {
            PyObject *t = PySequence_Fast_GET_ITEM(rows[i], e);
            if (tuple_of(t, 3, "an open series") < 0 || !PyTuple_Check(PyTuple_GET_ITEM(t, 1))) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_early.walk: a series' numbers must be a tuple");
                rc = -1;
                break;
            }
            numbers += PyTuple_GET_SIZE(PyTuple_GET_ITEM(t, 1));
        }
        entries += n;
    }
    if (rc == 0) {
        w->series = PyMem_Calloc(entries + 1, sizeof(Series));
        w->numbers = PyMem_Calloc(numbers + 1, sizeof(long));
        if (w->series == NULL || w->numbers == NULL) {
            PyErr_NoMemory();
            rc = -1;
        }
    }
    Py_ssize_t at = 0, nat = 0;
    for (long i = 1; rc == 0 && i <= w->size; i++) {
        w->act[i] = at;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(rows[i]);
        for (Py_ssize_t e = 0; rc == 0 && e < n; e++) {
            PyObject *t = PySequence_Fast_GET_ITEM(rows[i], e), *nums = PyTuple_GET_ITEM(t, 1);
            Series *s = &w->series[at++];
            if (long_arg(PyTuple_GET_ITEM(t, 0), &s->j) < 0 || long_arg(PyTuple_GET_ITEM(t, 2), &s->deadline) < 0) {
                rc = -1;
                break;
            }
            if (s->j < 0 || s->j > 4096) {
                PyErr_SetString(PyExc_ValueError, "_early.walk: a series index out of range");
                rc = -1;
                break;
            }
            if (s->j > most) most = s->j;
            s->len = PyTuple_GET_SIZE(nums);
            s->numbers = w->numbers + nat;
            for (Py_ssize_t k = 0; rc == 0 && k < s->len; k++) rc = long_arg(PyTuple_GET_ITEM(nums, k), &s->numbers[k]);
            nat += s->len;
        }
    }
    w->act[w->size + 1] = at;
    for (long i = 0; i < WALK_POS; i++) Py_XDECREF(rows[i]);
    Py_DECREF(active);
    if (rc == 0) {
        w->nser = (int)(most + 1);
        w->prog = PyMem_Calloc((size_t)(2 * (w->size + 2)) * (size_t)(w->nser + 1), 1);
        if (w->prog == NULL) {
            PyErr_NoMemory();
            rc = -1;
        }
    }
    return rc;
}

/* facts.advance on the progress p (a byte per series) at position i, hideout v: -1 if a series
   would now hold, -2 with an error set (a series' position past its numbers: IndexError, as
   numbers[p] would raise), else 0. */
static int advance_at(const Walk *w, long i, unsigned char *p, long v) {
    for (Py_ssize_t e = w->act[i]; e < w->act[i + 1]; e++) {
        const Series *s = &w->series[e];
        long q = p[s->j];
        if (q == w->done_mark) continue;
        if (q >= s->len) {
            PyErr_SetString(PyExc_IndexError, "_early.walk: a series' progress past its numbers");
            return -2;
        }
        long target = s->numbers[q];
        if (v > target) {
            q = w->done_mark; /* a number of the series was skipped: the series fails, as observed */
        } else if (v == target) {
            q += 1;
            if (q == s->len) return -1; /* every number would have been a hideout: it would have hit */
        }
        if (i == s->deadline && q != w->done_mark) q = w->done_mark;
        p[s->j] = (unsigned char)(q & 63);
    }
    return 0;
}

/* The walker's packing (_Walk._packing, in Python, once: it makes the width and what end_weights
   reads), then kept here.  0, or -1 with an error set. */
static int walk_packing(Walk *w) {
    long width;
    Py_CLEAR(w->end_tables);
    Py_CLEAR(w->end_packing);
    if (attr_long(w->walker, "width", &width) < 0) return -1;
    if (!width) {
        PyObject *r = PyObject_CallMethod(w->walker, "_packing", NULL);
        if (r == NULL) return -1;
        Py_DECREF(r);
    }
    w->end_tables = attr(w->walker, "end_tables");
    w->end_packing = w->end_tables ? attr(w->walker, "end_packing") : NULL;
    if (w->end_packing == NULL) return -1;
    PyObject *vec[8] = {NULL, w->low_pairs, w->high_pairs, w->end_tables, w->end_masks, w->end_packing, w->ends,
                        w->context};
    if (end_args_of(vec, &w->ea) < 0) {
        Py_CLEAR(w->end_packing); /* not read: the next end weight tries again, and fails alike */
        return -1;
    }
    return 0;
}

/* An end weight missing from ENDS (_Walk.new_end_weights, compiled): END_WORK more work, the
   packing made on the first, end_weights.  New reference. */
static PyObject *walk_make(Maker *m, PyObject *key) {
    Walk *w = m->walk;
    w->work += w->end_work;
    if (w->end_packing == NULL && walk_packing(w) < 0) return NULL;
    return end_weights_core(key, &w->ea); /* end_weights with its arguments read once a walk */
}

/* A value's group (its hideout's), checked; -1 with an error set. */
static long group_at(const Walk *w, long v) {
    if (v < 0 || v >= w->ngroup || v >= w->nhide) {
        PyErr_SetString(PyExc_IndexError, "_early.walk: a hideout value past the tables");
        return -1;
    }
    long g = w->group_of[v];
    if (g < 0 || g > 3) {
        PyErr_SetString(PyExc_ValueError, "_early.walk: a hideout value outside the groups");
        return -1;
    }
    return g;
}

/* _Walk.after: the cloud past position i with hideout v (cloud: the walk's, or the face-up one), or
   at the last position its weight.  New reference. */
static PyObject *walk_after(Walk *w, long i, long v, long need, PyObject *cloud, int hidden, int last) {
    long g = -1, cap = 0, shift = -1, free = -1;
    int counted = 0; /* the hideout's free draws count (measure deals, a deck's group) */
    PyObject *inc = NULL;
    if (hidden) {
        if ((g = group_at(w, v)) < 0) return NULL;
        cap = w->capg[i][g];
        shift = 5 * g;
        inc = w->hide_key[v];
        counted = w->deals && g > 0;
        if (counted) free = w->drawn[i][g - 1] - w->before[i][g - 1];
    }
    if (!last) {
        if (w->stacks[i]) {
            PyObject *from = cloud;
            if (hidden) { /* _Walk.hide: free draws counted when deals and g > 0 */
                from = hide_cloud(cloud, shift, cap, inc, counted, counted ? free : 0, NULL);
                if (from == NULL) return NULL;
            } else {
                Py_INCREF(from);
            }
            Py_ssize_t work = 0;
            PyObject *out = share_cloud(from, need, w->iobj[i], w->shares, w->bundle[i], &work);
            Py_DECREF(from);
            w->work += work;
            return out;
        }
        if (!hidden) return hide_cloud(cloud, -1, 0, NULL, 0, 0, w->capg[i]); /* _Walk.hide_closed */
        return hide_cloud(cloud, shift, cap, inc, free >= 0, free, w->capg[i]);
    }
    if (need > w->n) return PyLong_FromLong(0);
    Maker m = {walk_make, NULL, NULL, w->ends, w->context, 0, w};
    if (need < 0) {
        PyErr_SetString(PyExc_ValueError, "_early.walk: a negative need");
        return NULL;
    }
    return close_cloud(cloud, shift, cap, inc, free, w->capg[i], need, &m); /* last_hidden or face up */
}

/* bisect_right(a[lo:hi], x) as Python's. */
static Py_ssize_t bisect_after(const long *a, Py_ssize_t lo, Py_ssize_t hi, long x) {
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (x < a[mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* tally[v] += x (a list of the walker's). */
static int tally_add(PyObject *tally, long v, PyObject *x) {
    if (!PyList_Check(tally) || v < 0 || v >= PyList_GET_SIZE(tally)) {
        PyErr_SetString(PyExc_IndexError, "_early.walk: a tally has no such value");
        return -1;
    }
    PyObject *sum = PyNumber_Add(PyList_GET_ITEM(tally, v), x);
    if (sum == NULL) return -1;
    return PyList_SetItem(tally, v, sum); /* steals sum */
}

/* One node of the walk (_Walk.walk with skip_face_up): every hideout value at position i and on,
   part of the whole.  1 (walked), 0 (too much work: give up), -1 (an error set).  prog_in: the
   progress of the failed series so far (copied: the caller's stays). */
static int walk_node(Walk *w, int depth, long i, long prev, const unsigned char *prog_in, PyObject *cloud,
                     double part) {
    size_t nser = (size_t)w->nser + 1;
    unsigned char *cur = w->prog + (size_t)(2 * depth) * nser, *nxt_prog = cur + nser;
    memcpy(cur, prog_in, nser);
    Py_INCREF(cloud);
    while (i < w->size && w->known[i] >= 0) { /* face-up positions before the last: one value each */
        long v = w->known[i];
        if (v > 63 || !((w->reach[i] >> v) & 1) || v <= prev || v > prev + w->step_limit + w->fixed_fp[i]) {
            Py_SETREF(cloud, PyDict_New());
            break;
        }
        if (w->act[i] < w->act[i + 1]) {
            int a = advance_at(w, i, cur, v);
            if (a == -2) goto error;
            if (a < 0) {
                Py_SETREF(cloud, PyDict_New());
                break;
            }
        }
        PyObject *up = face_cloud(cloud, w->capg[i], w->nt[i], w->tshift[i], w->tc[i], w->tfree[i], w->fall);
        Py_SETREF(cloud, up);
        if (cloud == NULL || PyDict_GET_SIZE(cloud) == 0) break;
        prev = v;
        i++;
    }
    if (cloud == NULL) return -1;
    if (PyDict_GET_SIZE(cloud) == 0) {
        Py_DECREF(cloud);
        w->done += part;
        return 1;
    }
    int last = i == w->size, hidden = w->known[i] < 0, rc = 1;
    long stack = w->stacks[i];
    long offset = prev + w->step_limit + w->fixed_fp[i] + stack;
    long top = offset + stack; /* need <= stack: at most the stack's cards are even */
    PyObject *up = cloud;
    if (hidden) {
        Py_INCREF(up);
    } else {
        up = face_cloud(cloud, w->capg[i], w->nt[i], w->tshift[i], w->tc[i], w->tfree[i], w->fall);
        if (up == NULL) goto error;
    }
    const long *values = w->vals[i];
    Py_ssize_t first = bisect_after(values, 0, w->nvals[i], prev);
    Py_ssize_t end = bisect_after(values, first, w->nvals[i], top); /* prev < v <= top */
    if (end <= first) { /* the path dies here: its part is done */
        w->done += part;
        rc = (double)w->work <= w->limit * w->done;
        Py_DECREF(up);
        Py_DECREF(cloud);
        return rc;
    }
    part /= (double)(end - first);
    long made_key[WALK_VALUES];
    PyObject *made[WALK_VALUES]; /* by class | need << 4: the cloud after (not last) or the weight */
    int nmade = 0;
    PyObject *node_total = NULL;
    int acts = w->act[i] < w->act[i + 1];
    for (Py_ssize_t at = first; at < end; at++) {
        long v = values[at];
        const unsigned char *prog = cur;
        if (acts) {
            memcpy(nxt_prog, cur, nser);
            int a = advance_at(w, i, nxt_prog, v);
            if (a == -2) goto fail;
            if (a < 0) {
                w->done += part;
                continue;
            }
            prog = nxt_prog;
        }
        long need = v > offset ? v - offset : 0;
        if (v < 0 || v >= w->nclass) {
            PyErr_SetString(PyExc_IndexError, "_early.walk: a value past class_of");
            goto fail;
        }
        long mk = w->class_of[v] | need << 4;
        PyObject *nxt = NULL;
        for (int m = 0; m < nmade; m++)
            if (made_key[m] == mk) {
                nxt = made[m];
                break;
            }
        if (nxt == NULL) {
            nxt = walk_after(w, i, v, need, hidden ? cloud : up, hidden, last);
            if (nxt == NULL) goto fail;
            made_key[nmade] = mk;
            made[nmade++] = nxt;
            w->work += PyDict_GET_SIZE(cloud);
            if ((double)w->work > w->limit * (w->done + part)) {
                rc = 0; /* even were this value's walk done, the rest would cost as much */
                goto out;
            }
        }
        if (!last) {
            if (!PyDict_Check(nxt)) {
                PyErr_SetString(PyExc_TypeError, "_early.walk: a cloud must be a dict");
                goto fail;
            }
            if (PyDict_GET_SIZE(nxt)) {
                w->path[i] = v;
                int r = walk_node(w, depth + 1, i + 1, v, prog, nxt, part);
                if (r <= 0) {
                    rc = r;
                    goto out;
                }
                continue;
            }
            w->done += part;
            if ((double)w->work > w->limit * w->done) {
                rc = 0; /* the rest would cost as much */
                goto out;
            }
            continue;
        }
        w->done += part;
        int nz = PyObject_IsTrue(nxt);
        if (nz < 0) goto fail;
        if (nz) { /* the last position: its own tally per value, the path's once per node (below) */
            PyObject *sum = node_total ? PyNumber_Add(node_total, nxt) : (Py_INCREF(nxt), nxt);
            if (sum == NULL) goto fail;
            Py_XSETREF(node_total, sum);
            if (hidden && tally_add(w->tally[i], v, nxt) < 0) goto fail;
        }
    }
    if (node_total != NULL) {
        int nz = PyObject_IsTrue(node_total);
        if (nz < 0) goto fail;
        if (nz) {
            PyObject *sum = PyNumber_Add(w->total, node_total);
            if (sum == NULL) goto fail;
            Py_SETREF(w->total, sum);
            for (int h = 0; h < w->nhb; h++) {
                long j = w->hb[h];
                if (tally_add(w->tally[j], w->path[j], node_total) < 0) goto fail;
            }
        }
    }
    rc = (double)w->work <= w->limit * w->done; /* else the rest would cost as much */
    goto out;
fail:
    rc = -1;
out:
    for (int m = 0; m < nmade; m++) Py_DECREF(made[m]);
    Py_XDECREF(node_total);
    Py_DECREF(up);
    Py_DECREF(cloud);
    return rc;
error:
    Py_XDECREF(cloud);
    return -1;
}

/* The walk's per-position tables from the walker (read once). 0, or -1 with an error set. */
static int walk_setup(Walk *w, PyObject *walker) {
    long deals;
    PyObject *o;
    if (attr_long(walker, "size", &w->size) < 0 || attr_long(walker, "n", &w->n) < 0) return -1;
    if (w->size < 1 || w->size >= WALK_POS) {
        PyErr_SetString(PyExc_ValueError, "_early.walk: positions 1..63 only");
        return -1;
    }
    if ((o = attr(walker, "deals")) == NULL) return -1;
    deals = PyObject_IsTrue(o);
    Py_DECREF(o);
    if (deals < 0) return -1;
    w->deals = (int)deals;
    if ((o = attr(walker, "limit")) == NULL) return -1;
    w->limit = PyFloat_AsDouble(o); /* int * float in Python: the int as a double */
    Py_DECREF(o);
    if (w->limit == -1.0 && PyErr_Occurred()) return -1;
    if ((o = attr(walker, "done")) == NULL) return -1;
    w->done = PyFloat_AsDouble(o);
    Py_DECREF(o);
    if (w->done == -1.0 && PyErr_Occurred()) return -1;
    if ((o = attr(walker, "work")) == NULL) return -1;
    w->work = PyLong_AsLongLong(o);
    Py_DECREF(o);
    if (w->work == -1 && PyErr_Occurred()) return -1;
    if ((w->total = attr(walker, "total")) == NULL || (w->context = attr(walker, "context")) == NULL ||
        (w->shares = attr(walker, "shares")) == NULL || (w->group_shares = attr(walker, "group_shares")) == NULL ||
        (w->late = attr(walker, "late")) == NULL || (w->low_pairs = attr(walker, "low_pairs")) == NULL ||
        (w->high_pairs = attr(walker, "high_pairs")) == NULL || (w->hide_obj = attr(walker, "hide_key")) == NULL ||
        (w->tallies = attr(walker, "tallies")) == NULL)
        return -1;
    if (dict_arg(w->shares, "shares") < 0 || dict_arg(w->tallies, "tallies") < 0) return -1;
    if (longs_of(walker, "known", w->size, w->known) < 0 || longs_of(walker, "stacks", w->size, w->stacks) < 0 ||
        longs_of(walker, "fixed_fp", w->size, w->fixed_fp) < 0 || rows_of(walker, "capg", w->size, &w->capg[0][0], 4) < 0 ||
        rows_of(walker, "drawn", w->size, &w->drawn[0][0], 3) < 0 ||
        rows_of(walker, "before", w->size, &w->before[0][0], 3) < 0 ||
        by_value(walker, "class_of", w->class_of, &w->nclass) < 0 ||
        by_value(walker, "group_of", w->group_of, &w->ngroup) < 0)
        return -1;
    if (!PyTuple_Check(w->hide_obj)) {
        PyErr_SetString(PyExc_TypeError, "_early.walk: hide_key must be a tuple");
        return -1;
    }
    w->nhide = PyTuple_GET_SIZE(w->hide_obj) < WALK_VALUES ? PyTuple_GET_SIZE(w->hide_obj) : WALK_VALUES;
    for (Py_ssize_t v = 0; v < w->nhide; v++) w->hide_key[v] = PyTuple_GET_ITEM(w->hide_obj, v);
    PyObject *reach = attr(walker, "reach");
    PyObject *at = reach ? attr(walker, "known_at") : NULL, *params = at ? attr(walker, "share_params") : NULL;
    int rc = params ? 0 : -1;
    for (long i = 1; rc == 0 && i <= w->size; i++) {
        PyObject *r = PySequence_GetItem(reach, i);
        w->reach[i] = r ? PyLong_AsUnsignedLongLong(r) : (unsigned long long)-1;
        Py_XDECREF(r);
        if (w->reach[i] == (unsigned long long)-1 && PyErr_Occurred()) {
            rc = -1;
            break;
        }
        /* _Walk.values: the reachable values (direct._bits, ascending) where the walk picks one */
        w->nvals[i] = 0;
        if (w->known[i] < 0 || i == w->size)
            for (long b = 0; b < 64; b++)
                if ((w->reach[i] >> b) & 1) w->vals[i][w->nvals[i]++] = b;
        if ((w->iobj[i] = PyLong_FromLong(i)) == NULL) {
            rc = -1;
            break;
        }
        if (w->known[i] < 0) { /* a face-down position: its tally */
            w->tally[i] = PyDict_GetItemWithError(w->tallies, w->iobj[i]);
            if (w->tally[i] == NULL) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "_early.walk: no tally for a face-down position");
                rc = -1;
                break;
            }
            if (i < w->size) w->hb[w->nhb++] = i;
        } else if (w->deals) { /* _up_terms: per deck with cards face up here, (key shift, cards, draws less before) */
            long a3[3];
            PyObject *row3 = PySequence_GetItem(at, i);
            rc = row3 ? longs_arg(row3, a3, 3) : -1;
            Py_XDECREF(row3);
            for (int d = 0; rc == 0 && d < 3; d++)
                if (a3[d]) {
                    Py_ssize_t t = w->nt[i]++;
                    w->tshift[i][t] = 5 * (d + 1), w->tc[i][t] = a3[d], w->tfree[i][t] = w->drawn[i][d] - w->before[i][d];
                }
        }
        if (rc == 0 && i < w->size && w->stacks[i]) { /* share_out's bundle (_Walk.share_out) */
            PyObject *p = PyObject_GetItem(params, w->iobj[i]);
            PyObject *n = p ? PyLong_FromLong(w->stacks[i]) : NULL;
            w->bundle[i] = n ? PyTuple_Pack(8, n, w->group_shares, w->late, p, w->shares_memo, w->kept, w->fall, w->comb)
                             : NULL;
            Py_XDECREF(p);
            Py_XDECREF(n);
            if (w->bundle[i] == NULL) rc = -1;
        }
    }
    Py_XDECREF(reach);
    Py_XDECREF(at);
    Py_XDECREF(params);
    return rc < 0 ? -1 : series_of(w, walker);
}

/* walk(walker, ends, shares, kept, fall, comb, end_masks, end_work, step_limit, done) ->
   (walked, total, work, done): _Walk.walk(1, 0, 0, {0: 1}) compiled (see above); walked False
   when it gives up (the walk's own total, work and part done then as the Python walk leaves
   them).  The walker's memos and tallies are filled as the Python walk fills them. */
static PyObject *walk(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs_are(nargs, 10, "walk") < 0) return NULL;
    if (dict_arg(args[1], "ends") < 0 || dict_arg(args[2], "shares") < 0) return NULL;
    Walk *w = PyMem_Malloc(sizeof(Walk));
    if (w == NULL) return PyErr_NoMemory();
    memset(w, 0, offsetof(Walk, known));
    w->walker = args[0], w->ends = args[1], w->shares_memo = args[2], w->kept = args[3];
    w->fall = args[4], w->comb = args[5], w->end_masks = args[6];
    PyObject *out = NULL, *start = NULL;
    if (long_arg(args[7], &w->end_work) < 0 || long_arg(args[8], &w->step_limit) < 0 ||
        long_arg(args[9], &w->done_mark) < 0)
        goto done;
    if (w->done_mark != 63) {
        PyErr_SetString(PyExc_ValueError, "_early.walk: a series' progress is 6 bits, DONE 63");
        goto done;
    }
    if (walk_setup(w, args[0]) < 0) goto done;
    PyObject *zero = PyLong_FromLong(0), *one = PyLong_FromLong(1);
    start = zero && one ? PyDict_New() : NULL;
    if (start != NULL && PyDict_SetItem(start, zero, one) < 0) Py_CLEAR(start);
    Py_XDECREF(zero);
    Py_XDECREF(one);
    if (start == NULL) goto done;
    int rc = walk_node(w, 0, 1, 0, w->prog + (size_t)(2 * (w->size + 1)) * ((size_t)w->nser + 1), start, 1.0);
    if (rc >= 0) out = Py_BuildValue("(OOLd)", rc ? Py_True : Py_False, w->total, w->work, w->done);
done:
    Py_XDECREF(start);
    walk_free(w);
    return out;
}

static PyMethodDef METHODS[] = {
    {"stack_shares", (PyCFunction)(void (*)(void))stack_shares, METH_FASTCALL, "Every share of an early stack (_Walk._shares)."},
    {"end_weights", (PyCFunction)(void (*)(void))end_weights, METH_FASTCALL, "The last stack's weights by need (_Walk.new_end_weights)."},
    {"group_shares", group_shares, METH_VARARGS, "A group's shares of an early stack (_Walk._group_shares)."},
    {"hide_step", (PyCFunction)(void (*)(void))hide_step, METH_FASTCALL, "A cloud past a hideout and caps (_Walk.hide, hide_closed)."},
    {"face_up", face_up, METH_VARARGS, "A cloud past a face-up position (_Walk.face_up)."},
    {"share_out", (PyCFunction)(void (*)(void))share_out, METH_FASTCALL, "A stack's shares of a cloud (direct_early._Walk.share_out)."},
    {"combine", combine, METH_VARARGS, "A stack's shares from groups 0-1's and groups 2-3's (_Walk._shares)."},
    {"by_cards", by_cards, METH_VARARGS, "Groups 2 and 3's shares paired by cards (direct_early._by_cards)."},
    {"close_last", (PyCFunction)(void (*)(void))close_last, METH_FASTCALL, "A cloud's weight at the last position (_Walk.last_hidden)."},
    {"share_params", (PyCFunction)(void (*)(void))share_params, METH_FASTCALL, "An early stack's group_shares params (_Walk.share_params)."},
    {"packing_width", (PyCFunction)(void (*)(void))packing_width, METH_FASTCALL, "The packing's width (_Walk._bound_width)."},
    {"walk", (PyCFunction)(void (*)(void))walk, METH_FASTCALL, "The whole early walk (_Walk.walk from the first position)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_early", "The compiled inner loops of direct_early's walk.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__early(void) { return PyModule_Create(&MODULE); }
