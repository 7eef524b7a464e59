/* The belief's edge loops on native integers: gamelib.fugitive.belief.kernel's push and pull.
 *
 * Why: per edge the pure-Python loops spend most of their time allocating, hashing and adding
 * big ints (a state is ~103 bits); the same loop through the C API on those ints gains 1.45x
 * only.  Here a state is an unsigned __int128, a weight a signed __int128 (every multiply and
 * add overflow-checked), the destinations live in an own open-addressing table that remembers
 * the order they were first reached, and Python ints are made once per destination at the end.
 *
 * Exactness: the results are those of the pure functions (kernel.push_pure / pull_pure): the
 * same ints, the same dict order, the same memo entries (a missing signature is filled by
 * calling ``miss(sig)`` in the same order).  Anything that does not fit (a key outside
 * [0, 2**128), a delta or weight outside [-2**127, 2**127), an overflow, a value that is not an
 * int, a container of another type) makes the call run the pure function instead, from the
 * start: nothing is half-applied (the memo entries a miss made are kept: the pure loop finds
 * them, as it would have made them).  Exceptions raised by ``miss`` propagate.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

#define EMPTY (~(u128)0) /* a free slot; a key equal to it does not fit */
#define FIT 1
#define NOFIT 0
#define ERR (-1)

static PyObject *ALL128;    /* 2**128 - 1: a mask is read modulo 2**128 */
static PyObject *PUSH_PURE; /* the pure functions, run when something does not fit */
static PyObject *PULL_PURE;
static int ENABLED = 1;

/* ------------------------------------------------------------------ ints <-> native */

static inline int exact_int(PyObject *o) { return PyLong_CheckExact(o) || PyBool_Check(o); }

/* o as an unsigned 128-bit key: FIT, NOFIT (negative, too large, not an int) or ERR. */
static int to_u128(PyObject *o, u128 *out) {
    if (!exact_int(o)) return NOFIT;
#if PY_VERSION_HEX >= 0x030D0000
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

/* A mask (reads, keep) modulo 2**128: a key is below 2**128, so only those bits of a mask (two's
 * complement for a negative one, e.g. ~reads) touch it. */
static int mask_u128(PyObject *o, u128 *out) {
    if (!exact_int(o)) return NOFIT;
    PyObject *low = PyNumber_And(o, ALL128);
    if (low == NULL) return ERR;
    int r = to_u128(low, out);
    Py_DECREF(low);
    return r;
}

/* w * x + *acc into *acc; 0 on overflow. */
static inline int mul_add(i128 *acc, i128 w, i128 x) {
    i128 p;
    if (w == (int64_t)w && x == (int64_t)x)
        p = w * x; /* both within 64 bits: the product fits */
    else if (__builtin_mul_overflow(w, x, &p))
        return 0;
    return !__builtin_add_overflow(*acc, p, acc);
}

/* ------------------------------------------------------------------ a hash table u128 -> i128 */

typedef struct {
    u128 key;
    i128 val;
} slot_t;

typedef struct {
    slot_t *slots;
    size_t mask;     /* capacity - 1 (a power of two) */
    size_t used;
    uint32_t *order; /* slots in the order their keys were first inserted */
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
    t->slots = PyMem_Malloc(cap * sizeof(slot_t));
    t->order = PyMem_Malloc((cap / 2 + 1) * sizeof(uint32_t));
    t->mask = cap - 1;
    t->used = 0;
    if (t->slots == NULL || t->order == NULL) {
        PyMem_Free(t->slots);
        PyMem_Free(t->order);
        t->slots = NULL;
        t->order = NULL;
        PyErr_NoMemory();
        return -1;
    }
    memset(t->slots, 0xFF, cap * sizeof(slot_t)); /* every key EMPTY */
    return 0;
}

static void table_free(table_t *t) {
    PyMem_Free(t->slots);
    PyMem_Free(t->order);
    t->slots = NULL;
    t->order = NULL;
}

/* The slot holding key, or the free slot where it goes. */
static inline slot_t *table_find(const table_t *t, u128 key) {
    size_t i = hash128(key) & t->mask;
    for (;;) {
        slot_t *s = &t->slots[i];
        if (s->key == key || s->key == EMPTY) return s;
        i = (i + 1) & t->mask;
    }
}

/* Doubles the capacity, keeping the insertion order. */
static int table_grow(table_t *t) {
    size_t cap = 2 * (t->mask + 1);
    if (cap > ((size_t)1 << 31)) {
        PyErr_NoMemory();
        return -1;
    }
    slot_t *old = t->slots;
    slot_t *slots = PyMem_Malloc(cap * sizeof(slot_t));
    uint32_t *order = PyMem_Realloc(t->order, (cap / 2 + 1) * sizeof(uint32_t));
    if (slots == NULL || order == NULL) {
        PyMem_Free(slots);
        if (order != NULL) t->order = order;
        PyErr_NoMemory();
        return -1;
    }
    memset(slots, 0xFF, cap * sizeof(slot_t));
    t->slots = slots;
    t->order = order;
    t->mask = cap - 1;
    for (size_t k = 0; k < t->used; k++) {
        slot_t *from = &old[order[k]];
        slot_t *to = table_find(t, from->key);
        *to = *from;
        order[k] = (uint32_t)(to - slots);
    }
    PyMem_Free(old);
    return 0;
}

/* Fills the free slot s with (key, val); -1 (MemoryError) if the table could not grow. */
static inline int table_put(table_t *t, slot_t *s, u128 key, i128 val) {
    s->key = key;
    s->val = val;
    t->order[t->used++] = (uint32_t)(s - t->slots);
    if (2 * t->used > t->mask + 1) return table_grow(t);
    return 0;
}

/* ------------------------------------------------------------------ the moves, converted once */

typedef struct {
    u128 d; /* the delta, two's complement of a value in [-2**127, 2**127) */
    i128 w;
} move_t;

typedef struct {
    table_t sigs;     /* signature -> record */
    table_t lists;    /* address of a moves list (held) -> record: lists shared by signatures */
    move_t *moves;    /* every record's moves, one after another */
    size_t n_moves, cap_moves;
    Py_ssize_t *recs; /* per record: its first move, its count (two entries) */
    size_t n_recs, cap_recs;
    PyObject *held;   /* the lists converted (kept alive for the call) */
} moves_t;

static int moves_init(moves_t *m) {
    memset(m, 0, sizeof(*m));
    m->held = PyList_New(0);
    if (m->held == NULL) return -1;
    if (table_init(&m->sigs, 64) < 0 || table_init(&m->lists, 64) < 0) return -1;
    return 0;
}

static void moves_free(moves_t *m) {
    table_free(&m->sigs);
    table_free(&m->lists);
    PyMem_Free(m->moves);
    PyMem_Free(m->recs);
    Py_XDECREF(m->held);
}

/* Converts a moves list into a new record: FIT (the record in *rec), NOFIT or ERR. */
static int moves_convert(moves_t *m, PyObject *list, size_t *rec) {
    slot_t *seen = table_find(&m->lists, (u128)(uintptr_t)list);
    if (seen->key != EMPTY) {
        *rec = (size_t)seen->val;
        return FIT;
    }
    if (!PyList_CheckExact(list) && !PyTuple_CheckExact(list)) return NOFIT;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(list);
    PyObject **items = PySequence_Fast_ITEMS(list);
    if (m->n_moves + (size_t)n > m->cap_moves) {
        size_t cap = m->cap_moves ? m->cap_moves : 256;
        while (cap < m->n_moves + (size_t)n) cap *= 2;
        move_t *grown = PyMem_Realloc(m->moves, cap * sizeof(move_t));
        if (grown == NULL) {
            PyErr_NoMemory();
            return ERR;
        }
        m->moves = grown;
        m->cap_moves = cap;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *move = items[k];
        if (!PyTuple_CheckExact(move) || PyTuple_GET_SIZE(move) < 2) return NOFIT;
        i128 d;
        move_t *to = &m->moves[m->n_moves + k];
        int r = to_i128(PyTuple_GET_ITEM(move, 0), &d);
        if (r != FIT) return r;
        to->d = (u128)d;
        r = to_i128(PyTuple_GET_ITEM(move, 1), &to->w);
        if (r != FIT) return r;
    }
    if (m->n_recs == m->cap_recs) {
        size_t cap = m->cap_recs ? 2 * m->cap_recs : 64;
        Py_ssize_t *grown = PyMem_Realloc(m->recs, 2 * cap * sizeof(Py_ssize_t));
        if (grown == NULL) {
            PyErr_NoMemory();
            return ERR;
        }
        m->recs = grown;
        m->cap_recs = cap;
    }
    if (PyList_Append(m->held, list) < 0) return ERR;
    *rec = m->n_recs++;
    m->recs[2 * *rec] = (Py_ssize_t)m->n_moves;
    m->recs[2 * *rec + 1] = n;
    m->n_moves += (size_t)n;
    if (table_put(&m->lists, seen, (u128)(uintptr_t)list, (i128)*rec) < 0) return ERR;
    return FIT;
}

/* The record of signature sig: from the table, else from memo (filled by miss(sig) when missing;
 * no miss: KeyError).  FIT, NOFIT or ERR. */
static int moves_of(moves_t *m, u128 sig, PyObject *memo, PyObject *miss, size_t *rec) {
    if (sig == EMPTY) return NOFIT;
    slot_t *s = table_find(&m->sigs, sig);
    if (s->key != EMPTY) {
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
    } else if (miss == NULL || miss == Py_None) {
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
    Py_DECREF(hit); /* m->held keeps it when converted */
    if (r != FIT) return r;
    s = table_find(&m->sigs, sig); /* the table may have moved: the miss ran no kernel code, but be safe */
    if (table_put(&m->sigs, s, sig, (i128)*rec) < 0) return ERR;
    return FIT;
}

/* ------------------------------------------------------------------ push */

/* The edges of one source: out[(src & keep) + d] += weight * w.  FIT, NOFIT or ERR. */
static inline int push_source(table_t *out, const move_t *mv, Py_ssize_t n, u128 base, i128 weight) {
    for (Py_ssize_t k = 0; k < n; k++) {
        u128 dst;
        int carry = __builtin_add_overflow(base, mv[k].d, &dst);
        if (carry != (int)(mv[k].d >> 127) || dst == EMPTY) return NOFIT; /* outside [0, 2**128) */
        slot_t *s = table_find(out, dst);
        if (s->key == EMPTY) {
            i128 add = 0;
            if (!mul_add(&add, weight, mv[k].w)) return NOFIT;
            if (table_put(out, s, dst, add) < 0) return ERR;
        } else if (!mul_add(&s->val, weight, mv[k].w)) {
            return NOFIT;
        }
    }
    return FIT;
}

/* The walk over the sources; FIT, NOFIT or ERR, the edges in *count. */
static int push_walk(PyObject *states, u128 reads, u128 keep, PyObject *memo, PyObject *miss, moves_t *m,
                     table_t *out, Py_ssize_t *count) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(states, &pos, &key, &value)) {
        u128 src;
        i128 weight;
        int r = to_u128(key, &src);
        if (r == FIT) r = to_i128(value, &weight);
        size_t rec = 0;
        if (r == FIT) r = moves_of(m, src & reads, memo, miss, &rec);
        if (r != FIT) return r;
        Py_ssize_t first = m->recs[2 * rec], n = m->recs[2 * rec + 1];
        *count += n;
        r = push_source(out, m->moves + first, n, src & keep, weight);
        if (r != FIT) return r;
    }
    return FIT;
}

/* The destinations as a dict, in the order they were first reached. */
static PyObject *table_dict(const table_t *t) {
    PyObject *dict = PyDict_New();
    if (dict == NULL) return NULL;
    for (size_t k = 0; k < t->used; k++) {
        const slot_t *s = &t->slots[t->order[k]];
        PyObject *key = from_u128(s->key);
        PyObject *val = key ? from_i128(s->val) : NULL;
        int bad = val == NULL || PyDict_SetItem(dict, key, val) < 0;
        Py_XDECREF(key);
        Py_XDECREF(val);
        if (bad) {
            Py_DECREF(dict);
            return NULL;
        }
    }
    return dict;
}

static char *PUSH_KW[] = {"states", "reads", "keep", "memo", "miss", NULL};

static PyObject *push(PyObject *self, PyObject *args, PyObject *kwargs) {
    PyObject *states, *reads_o, *keep_o, *memo, *miss = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO|O:push", PUSH_KW, &states, &reads_o, &keep_o, &memo,
                                     &miss))
        return NULL;
    if (PUSH_PURE == NULL) return PyErr_Format(PyExc_RuntimeError, "_kernel.configure was not called");
    u128 reads, keep;
    int r = NOFIT;
    if (ENABLED && PyDict_CheckExact(states) && PyDict_CheckExact(memo)) {
        r = mask_u128(reads_o, &reads);
        if (r == FIT) r = mask_u128(keep_o, &keep);
    }
    if (r == ERR) return NULL;
    if (r == NOFIT) return PyObject_Call(PUSH_PURE, args, kwargs);
    moves_t m;
    table_t out = {0};
    Py_ssize_t count = 0;
    PyObject *result = NULL;
    if (moves_init(&m) == 0 && table_init(&out, (size_t)PyDict_GET_SIZE(states)) == 0) {
        r = push_walk(states, reads, keep, memo, miss, &m, &out, &count);
        if (r == FIT) {
            PyObject *dict = table_dict(&out);
            if (dict != NULL) result = Py_BuildValue("(Nn)", dict, count);
        }
    } else {
        r = ERR;
    }
    moves_free(&m);
    table_free(&out);
    if (r == NOFIT) return PyObject_Call(PUSH_PURE, args, kwargs);
    return result;
}

/* ------------------------------------------------------------------ pull */

/* nxt as a table (keys outside [0, 2**128) noted in *wide, zero values left out: both are
 * never a term of a sum).  FIT, NOFIT or ERR. */
static int pull_table(PyObject *nxt, table_t *t, int *wide) {
    if (table_init(t, (size_t)PyDict_GET_SIZE(nxt)) < 0) return ERR;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(nxt, &pos, &key, &value)) {
        u128 k;
        i128 v;
        int r = to_i128(value, &v);
        if (r != FIT) return r;
        r = to_u128(key, &k);
        if (r == ERR) return ERR;
        if (r == NOFIT || k == EMPTY) {
            if (!exact_int(key)) return NOFIT; /* a key of another type: the pure loop decides */
            *wide = 1;
            continue;
        }
        if (v == 0) continue;
        slot_t *s = table_find(t, k);
        if (table_put(t, s, k, v) < 0) return ERR;
    }
    return FIT;
}

/* b = sum(w * nxt[(src & keep) + d]) over the moves of one source: FIT or NOFIT. */
static inline int pull_source(const table_t *t, int wide, const move_t *mv, Py_ssize_t n, u128 base, i128 *b) {
    for (Py_ssize_t k = 0; k < n; k++) {
        u128 dst;
        int carry = __builtin_add_overflow(base, mv[k].d, &dst);
        if (carry != (int)(mv[k].d >> 127) || dst == EMPTY) {
            if (wide) return NOFIT; /* nxt might hold that key */
            continue;
        }
        const slot_t *s = table_find(t, dst);
        if (s->key != EMPTY && !mul_add(b, s->val, mv[k].w)) return NOFIT;
    }
    return FIT;
}

static int pull_walk(PyObject *seq, u128 reads, u128 keep, PyObject *memo, moves_t *m, const table_t *t,
                     int wide, PyObject *cur) {
    Py_ssize_t pos = 0, idx = 0, size = PyDict_CheckExact(seq) ? 0 : PySequence_Fast_GET_SIZE(seq);
    PyObject *src_o, *unused;
    for (;;) {
        if (PyDict_CheckExact(seq)) {
            if (!PyDict_Next(seq, &pos, &src_o, &unused)) break;
        } else {
            if (idx >= size) break;
            src_o = PySequence_Fast_ITEMS(seq)[idx++];
        }
        u128 src;
        size_t rec = 0;
        int r = to_u128(src_o, &src);
        if (r == FIT) r = moves_of(m, src & reads, memo, NULL, &rec);
        if (r != FIT) return r;
        i128 b = 0;
        r = pull_source(t, wide, m->moves + m->recs[2 * rec], m->recs[2 * rec + 1], src & keep, &b);
        if (r != FIT) return r;
        if (b != 0) {
            PyObject *val = from_i128(b);
            if (val == NULL || PyDict_SetItem(cur, src_o, val) < 0) {
                Py_XDECREF(val);
                return ERR;
            }
            Py_DECREF(val);
        }
    }
    return FIT;
}

static char *PULL_KW[] = {"sources", "reads", "keep", "memo", "nxt", NULL};

static PyObject *pull(PyObject *self, PyObject *args, PyObject *kwargs) {
    PyObject *sources, *reads_o, *keep_o, *memo, *nxt;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOO:pull", PULL_KW, &sources, &reads_o, &keep_o, &memo,
                                     &nxt))
        return NULL;
    if (PULL_PURE == NULL) return PyErr_Format(PyExc_RuntimeError, "_kernel.configure was not called");
    if (!ENABLED || !PyDict_CheckExact(memo) || !PyDict_CheckExact(nxt))
        return PyObject_Call(PULL_PURE, args, kwargs);
    /* any other iterable is read once, into a list, which the pure loop reads if it must run */
    PyObject *seq = PyDict_CheckExact(sources) ? Py_NewRef(sources) : PySequence_Fast(sources, "sources");
    if (seq == NULL) return NULL;
    u128 reads, keep;
    int r = mask_u128(reads_o, &reads);
    if (r == FIT) r = mask_u128(keep_o, &keep);
    moves_t m;
    table_t t = {0};
    int wide = 0;
    PyObject *cur = NULL;
    if (r == FIT) {
        if (moves_init(&m) < 0) {
            r = ERR;
        } else {
            r = pull_table(nxt, &t, &wide);
            if (r == FIT) cur = PyDict_New();
            if (r == FIT && cur == NULL) r = ERR;
            if (r == FIT) r = pull_walk(seq, reads, keep, memo, &m, &t, wide, cur);
        }
        moves_free(&m);
        table_free(&t);
    }
    if (r != FIT) Py_CLEAR(cur);
    if (r == NOFIT) cur = PyObject_CallFunctionObjArgs(PULL_PURE, seq, reads_o, keep_o, memo, nxt, NULL);
    Py_DECREF(seq);
    return cur;
}

/* ------------------------------------------------------------------ the module */

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *push_pure, *pull_pure;
    int enabled;
    if (!PyArg_ParseTuple(args, "OOp:configure", &push_pure, &pull_pure, &enabled)) return NULL;
    Py_XSETREF(PUSH_PURE, Py_NewRef(push_pure));
    Py_XSETREF(PULL_PURE, Py_NewRef(pull_pure));
    ENABLED = enabled;
    Py_RETURN_NONE;
}

static PyObject *enabled(PyObject *self, PyObject *unused) { return PyBool_FromLong(ENABLED && PUSH_PURE); }

static PyMethodDef METHODS[] = {
    {"push", (PyCFunction)(void (*)(void))push, METH_VARARGS | METH_KEYWORDS,
     "push(states, reads, keep, memo, miss=None) -> (out, edges): kernel.push_pure on native integers."},
    {"pull", (PyCFunction)(void (*)(void))pull, METH_VARARGS | METH_KEYWORDS,
     "pull(sources, reads, keep, memo, nxt) -> cur: kernel.pull_pure on native integers."},
    {"configure", configure, METH_VARARGS,
     "configure(push_pure, pull_pure, enabled): the pure functions run when a value does not fit "
     "(always, if not enabled)."},
    {"enabled", enabled, METH_NOARGS, "enabled() -> whether push and pull run natively."},
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
    if (ALL128 == NULL) return NULL;
    return PyModule_Create(&MODULE);
}
