/* The loops of gamelib.fugitive.belief.facts.facts_from_state over a state's public logs, in C.
 *
 * Why: every belief(state) pays them (issue 24 goal 1, the easy positions' fixed cost); on random
 * play they are ~60 log entries a position, interpreter overhead in Python.  Each function does
 * exactly what its pure twin in facts.py does (_draws_by_table, _log_guesses, _stuck_first_turn),
 * or answers None when an input is outside what it handles (an int that is not an exact int or
 * beyond 63 bits, a negative mask, an index out of range, an entry that is not a 3-sequence): the
 * caller then runs the pure loop, which gives the answer (or the error) of the reference.  Used
 * only when kernel.COMPILED (GAMELIB_PURE_PYTHON=1 / use_compiled(False) select the pure loops).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* An exact int that fits a signed 64-bit value: 1 and *out set, else 0 (no error left set). */
static int
exact_i64(PyObject *o, int64_t *out)
{
    int overflow = 0;
    long long v;
    if (!PyLong_CheckExact(o))
        return 0;
    v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    *out = (int64_t)v;
    return 1;
}

/* The three items of a log entry (a tuple or a list of 3), borrowed; 0 when it is not one. */
static int
entry3(PyObject *e, PyObject **a, PyObject **b, PyObject **c)
{
    if (PyTuple_CheckExact(e) && PyTuple_GET_SIZE(e) == 3) {
        *a = PyTuple_GET_ITEM(e, 0), *b = PyTuple_GET_ITEM(e, 1), *c = PyTuple_GET_ITEM(e, 2);
        return 1;
    }
    if (PyList_CheckExact(e) && PyList_GET_SIZE(e) == 3) {
        *a = PyList_GET_ITEM(e, 0), *b = PyList_GET_ITEM(e, 1), *c = PyList_GET_ITEM(e, 2);
        return 1;
    }
    return 0;
}

/* draws_by_table(draw_log: list, dealing: bool, size: int) -> list[int] | None
 * The fugitive's (player 0) dealt draws by 3 * hideouts on the table then + deck, for table sizes
 * 0..size; the last entry left out when dealing (its card is not dealt yet). */
static PyObject *
draws_by_table(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *log, *out, *a, *b, *c;
    int64_t size, player, deck, on_table, *counts;
    Py_ssize_t n, i, slots;
    int dealing;
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "draws_by_table takes 3 arguments");
        return NULL;
    }
    log = args[0];
    dealing = PyObject_IsTrue(args[1]);
    if (dealing < 0)
        return NULL;
    if (!PyList_CheckExact(log) || !exact_i64(args[2], &size) || size < 0 || size > 4096)
        Py_RETURN_NONE;
    n = PyList_GET_SIZE(log);
    if (dealing && n)
        n -= 1;
    slots = (Py_ssize_t)(3 * size + 3);
    counts = PyMem_Calloc((size_t)slots, sizeof(int64_t));
    if (counts == NULL)
        return PyErr_NoMemory();
    for (i = 0; i < n; i++) {
        if (!entry3(PyList_GET_ITEM(log, i), &a, &b, &c) || !exact_i64(a, &player) || !exact_i64(b, &deck)
            || !exact_i64(c, &on_table)) {
            PyMem_Free(counts);
            Py_RETURN_NONE;
        }
        if (player != 0 || on_table > size)
            continue;
        if (on_table < 0 || deck < 0 || deck > 2) { /* Python would index from the end, or past */
            PyMem_Free(counts);
            Py_RETURN_NONE;
        }
        counts[3 * on_table + deck] += 1;
    }
    out = PyList_New(slots);
    if (out != NULL) {
        for (i = 0; i < slots; i++) {
            PyObject *v = PyLong_FromLongLong(counts[i]);
            if (v == NULL) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, v);
        }
    }
    PyMem_Free(counts);
    return out;
}

/* The numbers of a mask (bits 0..62), increasing, as a tuple of ints: tuple(cards_of(mask)). */
static PyObject *
cards_tuple(int64_t mask)
{
    PyObject *t;
    uint64_t m = (uint64_t)mask;
    Py_ssize_t k = 0;
    t = PyTuple_New(__builtin_popcountll(m));
    if (t == NULL)
        return NULL;
    while (m) {
        PyObject *v = PyLong_FromLong(__builtin_ctzll(m));
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k++, v);
        m &= m - 1;
    }
    return t;
}

/* Appends (tuple(cards_of(named)), on_table) to series; 0 on success. */
static int
keep_series(PyObject *series, int64_t named, int64_t on_table)
{
    PyObject *cards = cards_tuple(named), *k, *pair;
    if (cards == NULL)
        return -1;
    k = PyLong_FromLongLong(on_table);
    if (k == NULL) {
        Py_DECREF(cards);
        return -1;
    }
    pair = PyTuple_Pack(2, cards, k);
    Py_DECREF(cards);
    Py_DECREF(k);
    if (pair == NULL || PyList_Append(series, pair) < 0) {
        Py_XDECREF(pair);
        return -1;
    }
    Py_DECREF(pair);
    return 0;
}

/* Reads up_to (a list of exact ints below 2**63) into a new array; NULL and no error when it
 * cannot, NULL and an error when out of memory. */
static int64_t *
read_up_to(PyObject *up_to, Py_ssize_t *len)
{
    Py_ssize_t i, n;
    int64_t *arr;
    if (!PyList_CheckExact(up_to) || PyList_GET_SIZE(up_to) < 1)
        return NULL;
    n = PyList_GET_SIZE(up_to);
    arr = PyMem_Calloc((size_t)(2 * n), sizeof(int64_t)); /* up_to, then missed_at */
    if (arr == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (i = 0; i < n; i++) {
        if (!exact_i64(PyList_GET_ITEM(up_to, i), &arr[i])) {
            PyMem_Free(arr);
            return NULL;
        }
    }
    *len = n;
    return arr;
}

/* log_guesses(named_log: list, up_to: list[int], never: int)
 *   -> (forbidden: list[int], series: list[tuple[tuple[int, ...], int]]) | None
 * _log_guesses: a guess hits when a face-up hideout then on the table is named (found), else it
 * is missed with that many hideouts on the table; a series naming a number in never is skipped,
 * one naming a found number says nothing, one naming a face-down number then is kept, else it hit. */
static PyObject *
log_guesses(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *log, *series = NULL, *forbidden = NULL, *a, *b, *c;
    Py_ssize_t n, i, len = 0;
    int64_t never, on_table, named, found = 0, running = 0, *up, *missed;
    int flag;
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "log_guesses takes 3 arguments");
        return NULL;
    }
    log = args[0];
    if (!PyList_CheckExact(log) || !exact_i64(args[2], &never))
        Py_RETURN_NONE;
    up = read_up_to(args[1], &len);
    if (up == NULL) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NONE;
    }
    missed = up + len;
    series = PyList_New(0);
    if (series == NULL)
        goto fail;
    n = PyList_GET_SIZE(log);
    for (i = 0; i < n; i++) {
        if (!entry3(PyList_GET_ITEM(log, i), &a, &b, &c) || !exact_i64(a, &on_table) || !exact_i64(b, &named)
            || named < 0 || on_table < 0 || on_table >= len)
            goto pure;
        flag = PyObject_IsTrue(c);
        if (flag < 0)
            goto fail;
        if (!flag) {
            if (up[on_table] & named)
                found |= named;
            else
                missed[on_table] |= named;
        } else if (named & never) {
            continue;
        } else if (!(found & named)) {
            if (named & ~up[on_table]) {
                if (keep_series(series, named, on_table) < 0)
                    goto fail;
            } else {
                found |= named;
            }
        }
    }
    forbidden = PyList_New(len);
    if (forbidden == NULL)
        goto fail;
    for (i = len - 1; i >= 0; i--) {
        PyObject *v;
        if (i > 0)
            running |= missed[i];
        v = PyLong_FromLongLong(i > 0 ? running : 0);
        if (v == NULL)
            goto fail;
        PyList_SET_ITEM(forbidden, i, v);
    }
    PyMem_Free(up);
    {
        PyObject *result = PyTuple_Pack(2, forbidden, series);
        Py_DECREF(forbidden);
        Py_DECREF(series);
        return result;
    }
pure:
    PyMem_Free(up);
    Py_XDECREF(series);
    Py_RETURN_NONE;
fail:
    PyMem_Free(up);
    Py_XDECREF(series);
    Py_XDECREF(forbidden);
    return NULL;
}

/* stuck_first_turn(history: list, hide, pass_, add, draw, guess) -> bool | None
 * _stuck_first_turn: the first turn replayed by the actions' classes (identity, as type(a) is X). */
static PyObject *
stuck_first_turn(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *history;
    PyTypeObject *kind, *hide, *pass_, *add, *draw, *guess;
    Py_ssize_t i, n, on_table = 0;
    int passed = 0;
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "stuck_first_turn takes 6 arguments");
        return NULL;
    }
    history = args[0];
    if (!PyList_CheckExact(history))
        Py_RETURN_NONE;
    hide = (PyTypeObject *)args[1], pass_ = (PyTypeObject *)args[2], add = (PyTypeObject *)args[3];
    draw = (PyTypeObject *)args[4], guess = (PyTypeObject *)args[5];
    n = PyList_GET_SIZE(history);
    for (i = 0; i < n; i++) {
        kind = Py_TYPE(PyList_GET_ITEM(history, i));
        if (kind == hide)
            on_table += 1;
        else if (kind == pass_)
            passed = 1;
        else if ((kind == add || kind == draw || kind == guess) && on_table)
            break;
    }
    return PyBool_FromLong(passed && on_table == 1);
}


/* A new tuple of 3 ints. */
static PyObject *
triple(int64_t a, int64_t b, int64_t c)
{
    return Py_BuildValue("(LLL)", (long long)a, (long long)b, (long long)c);
}

/* The face-up cards of a shown stack into *mask and used[] (by group, -1 at 4): 0 when a card is
 * not an exact int in 0..ncards-1 or its group is not -1..3 (the pure loop then decides). */
static int
stack_cards(PyObject *stack, const int64_t *group, Py_ssize_t ncards, uint64_t *mask, int64_t *used)
{
    Py_ssize_t k, n = PyTuple_GET_SIZE(stack);
    int64_t c;
    for (k = 0; k < n; k++) {
        if (!exact_i64(PyTuple_GET_ITEM(stack, k), &c) || c < 0 || c >= ncards)
            return 0;
        *mask |= (uint64_t)1 << c;
        used[group[c]] += 1;
    }
    return 1;
}

/* table_pass(hideouts, revealed, sprints, group_of, starts, drawn, last, hide_escape)
 *   -> (known, ups, counts, caps, up_to, face_up, up, first, hand_unknown) | None
 * facts._table_pass: one pass over the table reading a hideout only where revealed and a stack's
 * cards only where shown (never a face-down card); None where the pure loop must decide. */
static PyObject *
table_pass(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *hideouts, *revealed, *sprints, *groups, *starts, *drawn;
    PyObject *known = NULL, *ups = NULL, *counts = NULL, *caps = NULL, *up_to = NULL, *out = NULL, *hand;
    int64_t group[64], used[5] = {0, 0, 0, 0, 0}, r[3], last, h, v;
    uint64_t face_up = 0, up = 0, first = 0;
    Py_ssize_t i, d, size, ncards;
    int hide_escape, shown;
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "table_pass takes 8 arguments");
        return NULL;
    }
    hideouts = args[0], revealed = args[1], sprints = args[2], groups = args[3], starts = args[4], drawn = args[5];
    hide_escape = PyObject_IsTrue(args[7]);
    if (hide_escape < 0)
        return NULL;
    if (!PyList_CheckExact(hideouts) || !PyList_CheckExact(revealed) || !PyList_CheckExact(sprints)
        || !PyTuple_CheckExact(groups) || !PyList_CheckExact(starts) || !PyTuple_CheckExact(drawn)
        || PyTuple_GET_SIZE(drawn) != 3 || !exact_i64(args[6], &last))
        Py_RETURN_NONE;
    size = PyList_GET_SIZE(hideouts) - 1;
    ncards = PyTuple_GET_SIZE(groups);
    if (size < 0 || PyList_GET_SIZE(revealed) != size + 1 || PyList_GET_SIZE(sprints) != size + 1 || ncards > 63
        || PyList_GET_SIZE(starts) != 3 * size + 3)
        Py_RETURN_NONE;
    for (i = 0; i < ncards; i++) {
        if (!exact_i64(PyTuple_GET_ITEM(groups, i), &group[i]) || group[i] < -1 || group[i] > 3)
            Py_RETURN_NONE;
        if (group[i] < 0)
            group[i] = 4; /* used[-1]: the escape card, card 0 */
    }
    for (d = 0; d < 3; d++)
        if (!exact_i64(PyTuple_GET_ITEM(drawn, d), &r[d]))
            Py_RETURN_NONE;
    for (i = 0; i <= size; i++) {
        PyObject *st = PyList_GET_ITEM(sprints, i);
        if (!PyTuple_CheckExact(st))
            Py_RETURN_NONE;
    }
    for (i = 0; i < 3 * size + 3; i++)
        if (!exact_i64(PyList_GET_ITEM(starts, i), &v) || v < -(1LL << 40) || v > (1LL << 40))
            Py_RETURN_NONE;
    known = PyTuple_New(size + 1), ups = PyTuple_New(size + 1), counts = PyTuple_New(size + 1);
    caps = PyTuple_New(size + 1), up_to = PyList_New(size + 1);
    if (!known || !ups || !counts || !caps || !up_to)
        goto fail;
    for (i = 0; i <= size; i++) { /* all slots set before any early exit below */
        PyObject *st = PyList_GET_ITEM(sprints, i), *n = PyLong_FromSsize_t(PyTuple_GET_SIZE(st));
        if (n == NULL)
            goto fail;
        PyTuple_SET_ITEM(counts, i, n);
    }
    for (i = 0; i <= size; i++) {
        PyObject *hob = NULL, *st = PyList_GET_ITEM(sprints, i), *k, *cap, *u;
        int is_up = PyObject_IsTrue(PyList_GET_ITEM(revealed, i));
        if (is_up < 0)
            goto fail;
        if (i > 0)
            for (d = 0; d < 3; d++) {
                exact_i64(PyList_GET_ITEM(starts, 3 * i - 3 + d), &v);
                r[d] += v;
            }
        if (is_up) {
            hob = PyList_GET_ITEM(hideouts, i);
            if (!exact_i64(hob, &h) || h < 0 || h >= ncards)
                goto pure;
            shown = i == 0 || (PyTuple_GET_SIZE(st) && !(hide_escape && h == last));
            if (i == 0) {
                face_up |= (uint64_t)1 << h;
                first = (uint64_t)1 << h;
            } else {
                up |= (uint64_t)1 << h;
                used[group[h]] += 1;
            }
            if (shown) {
                int64_t ignored[5] = {0, 0, 0, 0, 0};
                if (!stack_cards(st, group, ncards, &face_up, i == 0 ? ignored : used))
                    goto pure;
            }
            Py_INCREF(hob);
            k = hob;
            if (shown) {
                Py_INCREF(st);
            } else {
                st = PyTuple_New(0);
                if (st == NULL) {
                    Py_DECREF(k);
                    goto fail;
                }
            }
        } else {
            if (i == 0 && !exact_i64(PyList_GET_ITEM(hideouts, 0), &h))
                goto pure; /* the pure loop compares it with 0 */
            k = PyLong_FromLong(-1);
            if (k == NULL)
                goto fail;
            st = PyTuple_New(0);
            if (st == NULL) {
                Py_DECREF(k);
                goto fail;
            }
        }
        PyTuple_SET_ITEM(known, i, k);
        PyTuple_SET_ITEM(ups, i, st);
        cap = i == 0 ? triple(0, 0, 0) : triple(r[0] - used[1], r[1] - used[2], r[2] - used[3]);
        u = PyLong_FromUnsignedLongLong(up);
        if (cap == NULL || u == NULL) {
            Py_XDECREF(cap);
            Py_XDECREF(u);
            goto fail;
        }
        PyTuple_SET_ITEM(caps, i, cap);
        PyList_SET_ITEM(up_to, i, u);
    }
    for (d = 0; d < 3; d++) {
        exact_i64(PyList_GET_ITEM(starts, 3 * size + d), &v);
        r[d] += v;
    }
    hand = triple(r[0] - used[1], r[1] - used[2], r[2] - used[3]);
    if (hand == NULL)
        goto fail;
    out = PyTuple_New(9);
    if (out == NULL) {
        Py_DECREF(hand);
        goto fail;
    }
    PyTuple_SET_ITEM(out, 0, known), PyTuple_SET_ITEM(out, 1, ups), PyTuple_SET_ITEM(out, 2, counts);
    PyTuple_SET_ITEM(out, 3, caps), PyTuple_SET_ITEM(out, 4, up_to), PyTuple_SET_ITEM(out, 8, hand);
    known = ups = counts = caps = up_to = NULL; /* owned by out from here */
    {
        PyObject *f = PyLong_FromUnsignedLongLong(face_up | up), *u = PyLong_FromUnsignedLongLong(up);
        PyObject *z = PyLong_FromUnsignedLongLong(first);
        if (f == NULL || u == NULL || z == NULL) {
            Py_XDECREF(f), Py_XDECREF(u), Py_XDECREF(z);
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, 5, f), PyTuple_SET_ITEM(out, 6, u), PyTuple_SET_ITEM(out, 7, z);
    }
    return out;
pure:
    Py_XDECREF(known), Py_XDECREF(ups), Py_XDECREF(counts), Py_XDECREF(caps), Py_XDECREF(up_to);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(known), Py_XDECREF(ups), Py_XDECREF(counts), Py_XDECREF(caps), Py_XDECREF(up_to);
    return NULL;
}

/* reachable(known, counts, shown, forbidden, unknown, pending_at, last, step) -> list[int] | None
 * facts.reachable_values' masks: a hideout lies 1 .. span above the previous one (span step plus 2 a
 * sprint card, less 1 a face-up odd one; last for the pending position).  Every mask read is
 * below 2**63 and every result is masked by one (a face-up value's bit, or unknown less the
 * forbidden), so the shifts' bits past 63 never reach a result; None on anything else. */
static PyObject *
reachable(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *known, *counts, *shown, *forbidden, *out;
    int64_t unknown, pending_at, last, step, k, count, c, f, span;
    uint64_t r = 1, acc, allowed;
    Py_ssize_t i, j, size;
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "reachable takes 8 arguments");
        return NULL;
    }
    known = args[0], counts = args[1], shown = args[2], forbidden = args[3];
    if (!PyTuple_CheckExact(known) || !PyTuple_CheckExact(counts) || !PyTuple_CheckExact(shown)
        || !PyTuple_CheckExact(forbidden) || !exact_i64(args[4], &unknown) || unknown < 0
        || !exact_i64(args[5], &pending_at) || !exact_i64(args[6], &last) || last < 0 || last > 62 || !exact_i64(args[7], &step) || step < -64
        || step > 64)
        Py_RETURN_NONE;
    size = PyTuple_GET_SIZE(known) - 1;
    if (size < 0 || PyTuple_GET_SIZE(counts) <= size || PyTuple_GET_SIZE(shown) <= size
        || PyTuple_GET_SIZE(forbidden) <= size)
        Py_RETURN_NONE;
    out = PyList_New(size + 1);
    if (out == NULL)
        return NULL;
    for (i = 0; i <= size; i++) {
        PyObject *v;
        if (i > 0 && r) {
            PyObject *stack = PyTuple_GET_ITEM(shown, i);
            if (!exact_i64(PyTuple_GET_ITEM(counts, i), &count) || count < -64 || count > 64
                || !PyTuple_CheckExact(stack) || !exact_i64(PyTuple_GET_ITEM(known, i), &k) || k > 62)
                goto pure;
            span = step + 2 * count;
            for (j = 0; j < PyTuple_GET_SIZE(stack); j++) {
                if (!exact_i64(PyTuple_GET_ITEM(stack, j), &c))
                    goto pure;
                span -= c & 1;
            }
            if (i == pending_at)
                span = last;
            if (k >= 0) {
                allowed = (uint64_t)1 << k;
            } else {
                if (!exact_i64(PyTuple_GET_ITEM(forbidden, i), &f))
                    goto pure;
                allowed = (uint64_t)unknown & ~(uint64_t)f;
            }
            acc = r; /* bits p .. p + span - 1 of every reachable p (span below 1: p alone) */
            for (j = 1; j < span && j < 64; j++)
                acc |= r << j;
            r = (acc << 1) & allowed;
        } else if (i > 0) {
            r = 0;
        }
        v = PyLong_FromUnsignedLongLong(r);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
pure:
    Py_DECREF(out);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"draws_by_table", (PyCFunction)(void (*)(void))draws_by_table, METH_FASTCALL,
     "The fugitive's dealt draws by table size and deck (facts._draws_by_table), or None."},
    {"log_guesses", (PyCFunction)(void (*)(void))log_guesses, METH_FASTCALL,
     "Forbidden numbers and kept series from the guess log (facts._log_guesses), or None."},
    {"stuck_first_turn", (PyCFunction)(void (*)(void))stuck_first_turn, METH_FASTCALL,
     "Whether the fugitive passed after one first-turn hideout (facts._stuck_first_turn), or None."},
    {"table_pass", (PyCFunction)(void (*)(void))table_pass, METH_FASTCALL,
     "Known hideouts, shown stacks, sizes, caps, face-up masks from the table (facts._table_pass), or None."},
    {"reachable", (PyCFunction)(void (*)(void))reachable, METH_FASTCALL,
     "Per position, the values a hideout can take (facts.reachable_values), or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_facts", "facts_from_state's log loops in C (pure twins in facts.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__facts(void)
{
    return PyModule_Create(&module);
}
