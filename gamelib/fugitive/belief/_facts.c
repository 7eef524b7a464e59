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

static PyMethodDef methods[] = {
    {"draws_by_table", (PyCFunction)(void (*)(void))draws_by_table, METH_FASTCALL,
     "The fugitive's dealt draws by table size and deck (facts._draws_by_table), or None."},
    {"log_guesses", (PyCFunction)(void (*)(void))log_guesses, METH_FASTCALL,
     "Forbidden numbers and kept series from the guess log (facts._log_guesses), or None."},
    {"stuck_first_turn", (PyCFunction)(void (*)(void))stuck_first_turn, METH_FASTCALL,
     "Whether the fugitive passed after one first-turn hideout (facts._stuck_first_turn), or None."},
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
