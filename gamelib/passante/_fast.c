/* A Une Passante's rollout path in C (gamelib.passante._fast), each function the same as the
   Python method it stands for:

   main_actions(state)    PassanteState._main_actions: the turn's legal moves, same list, same order
   window_actions(state)  PassanteState._window_actions: the asked seat's lays, signals, pass
   open_window(state)     Effects._open_window: the moment between moves, the same fields written
   apply(state, a, steps) PassanteState._apply: its steps around the Python transitions
   sample(state, rng)     PassanteState.sample_chance(rng) (None: a case left to the method)
   rollout(...)           gamelib.agents.mcts._uniform_rollout's loop with the above

   Why: a uniform rollout is ~80% of an IS-MCTS iteration, and the rules' bookkeeping around each
   move (listing the moves, announcing, opening windows, drawing) most of a rollout (issue 24:
   A Une Passante's IS-MCTS at 1,600 iterations a second).  The fields are read from the state's
   __dict__; the action objects are the interned ones rules.py hands over (configure_*); what
   depends on a hand in other readings (the "choice" lays, hints, the Poete's and the Garcon's
   signals), the transitions themselves, and any case not handled here are asked of the Python
   methods.  The Python methods stay the reference (GAMELIB_PURE_PYTHON=1 or
   rules.use_compiled(False) select them); tests/passante/test_hs_fast_turn.py compares both on
   every position of random games under many rule options. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *MOVE_TABLE; /* [char][location] -> tuple of Move */
static PyObject *BOARD_SETS; /* [mask] -> tuple of Board */
static PyObject *DRIVES;     /* tuple of Drive */
static PyObject *DRIVES_AWAY; /* [location] -> tuple of Drive */
static PyObject *PLAYS;      /* [char] -> Play */
static PyObject *DRAW, *END;
static PyObject *FREE_SIGNALS; /* _free_signals(char, player, n) */
static unsigned long long VISIBLE[8][5]; /* VISIBLE_IF_AT: the wishes character c on location z leaves possible */
static int VISIBLE_SET;
static long PHASE_OVER = -1, PHASE_WINDOW = -1;
static PyObject *LAYS;  /* (None, lay 1, ..., lay 38): LAYS by wish number */
static PyObject *PASS;
static long ANY_MOMENT_MASK; /* the characters whose privilege is given between moves too */
/* _apply's envelope (configure_apply) */
static PyObject *ROLES;  /* _ROLES: action class -> role bits */
static PyObject *ALLOW_KIND, *WHO; /* the Allow class; _WHO: who acts, by phase */
static long REST_MASK, PHASE_MAIN = -1, PHASE_VETO = -1, ROLE_PROPOSAL, ROLE_SHOWS, ROLE_ANSWERED,
    POLICIER_CHAR;
static PyObject *CHANCE_INT, *EMPTY_TUPLE;
/* PassanteState.sample_chance (configure_chance) */
static PyObject *CHARACTER_CARDS, *DIE_DRAWS, *EVENTS, *WISH_CARDS; /* WISH_CARDS: (None, wish 1, ...) */
static double CUMULATIVE[64][64];  /* _CUMULATIVE[n][i], n = 1..NCUM */
static Py_ssize_t NCUM;
static long PHASE_CARD_DRAW = -1, PHASE_DIE = -1, PHASE_EVENT = -1;

static PyObject *s_turn_player, *s_game, *s_options, *s_num_players, *s_auto_lay, *s_anytime,
    *s_shown, *s_char_hand, *s_fresh, *s_drew, *s_char_deck, *s_char_under, *s_vetoed, *s_moves,
    *s_hearts, *s_moved, *s_pos, *s_bus, *s_hinted, *s_boarding, *s_lays, *s_hints, *s_signals,
    *s_draw_first, *s_omnibus_must_leave, *s_privileges, *s_must_move_twice,
    *s_omnibus_carries_controlled, *s_none, *s_cards, *s_laid, *s_dealt_to, *s_phase, *s_hands,
    *s_window_asks, *s_holders, *s_layable, *s_asking, *s_window_return, *s_to_move, *s_history,
    *s_apply, *s_sample_chance, *s_random, *s_pending, *s_legal_actions, *s_signalled, *s_veto_used,
    *s_vetoable, *s_proposed, *s_vetoer, *s_settle, *s_wish_deck;

/* the last game's options, read once (a search plays one game) */
static PyObject *cached_game; /* a strong reference: the pointer is never reused while kept */
static int o_draw_first, o_must_leave, o_privileges, o_must_twice, o_carries, o_holders;
static long o_players;

#define CHANCE (-1)
#define TERMINAL (-4)
#define PLAY_BIT 9
#define OMNIBUS 8
#define POETE 6
#define GARCON 7
#define CHAT_BIT (1 << 4)

static int flag(PyObject *obj, PyObject *name, int *out) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) return -1;
    int t = PyObject_IsTrue(v);
    Py_DECREF(v);
    if (t < 0) return -1;
    *out = t;
    return 0;
}

static int read_game(PyObject *game) {
    if (game == cached_game) return 0;
    Py_CLEAR(cached_game); /* the flags below are the new game's or none's */
    PyObject *opts = PyObject_GetAttr(game, s_options);
    if (opts == NULL) return -1;
    int ok = flag(opts, s_draw_first, &o_draw_first) == 0 &&
             flag(opts, s_omnibus_must_leave, &o_must_leave) == 0 &&
             flag(opts, s_must_move_twice, &o_must_twice) == 0 &&
             flag(opts, s_omnibus_carries_controlled, &o_carries) == 0;
    if (ok) {
        PyObject *priv = PyObject_GetAttr(opts, s_privileges);
        if (priv == NULL) {
            ok = 0;
        } else {
            int none = PyObject_RichCompareBool(priv, s_none, Py_EQ);
            int cards = none == 0 ? PyObject_RichCompareBool(priv, s_cards, Py_EQ) : 0;
            Py_DECREF(priv);
            if (none < 0 || cards < 0) ok = 0;
            o_privileges = none ? 0 : cards ? 2 : 1;
        }
    }
    if (ok) {
        PyObject *asks = PyObject_GetAttr(opts, s_window_asks);
        if (asks == NULL) {
            ok = 0;
        } else {
            o_holders = PyObject_RichCompareBool(asks, s_holders, Py_EQ);
            Py_DECREF(asks);
            if (o_holders < 0) ok = 0;
        }
    }
    Py_DECREF(opts);
    if (ok) {
        PyObject *n = PyObject_GetAttr(game, s_num_players);
        if (n == NULL) return -1;
        o_players = PyLong_AsLong(n);
        Py_DECREF(n);
        if (o_players == -1 && PyErr_Occurred()) return -1;
    }
    if (!ok) {
        Py_CLEAR(cached_game);
        return -1;
    }
    Py_INCREF(game);
    Py_XSETREF(cached_game, game);
    return 0;
}

/* a field of the state's __dict__ (borrowed), or NULL with an AttributeError */
static PyObject *field(PyObject *d, PyObject *name) {
    PyObject *v = PyDict_GetItemWithError(d, name);
    if (v == NULL && !PyErr_Occurred()) PyErr_SetObject(PyExc_AttributeError, name);
    return v;
}

static int int_field(PyObject *d, PyObject *name, long *out) {
    PyObject *v = field(d, name);
    if (v == NULL) return -1;
    *out = PyLong_AsLong(v);
    if (*out == -1 && PyErr_Occurred()) return -1;
    return 0;
}

static int true_field(PyObject *d, PyObject *name) {
    PyObject *v = field(d, name);
    return v == NULL ? -1 : PyObject_IsTrue(v);
}

static int extend(PyObject *acts, PyObject *items) {
    PyObject *seq = PySequence_Fast(items, "expected a sequence of actions");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **item = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyList_Append(acts, item[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return 0;
}

/* an int of a list (the state's pos, hearts, char_hand), -2 on error */
static long list_int(PyObject *list, Py_ssize_t i) {
    if (!PyList_Check(list) || i < 0 || i >= PyList_GET_SIZE(list)) {
        PyErr_SetString(PyExc_TypeError, "expected a list long enough");
        return -2;
    }
    long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
    if (v == -1 && PyErr_Occurred()) return -2;
    return v;
}

static PyObject *call_seat(PyObject *state, PyObject *method, long p) {
    PyObject *seat = PyLong_FromLong(p);
    if (seat == NULL) return NULL;
    PyObject *r = PyObject_CallMethodOneArg(state, method, seat);
    Py_DECREF(seat);
    return r;
}

/* Refusals._lays(seat) (a new list): none when laid automatically; with lay_wishes="anytime" the
   wishes of the seat's hand shown at the last moment between moves, in hand order; "choice": asked
   of the Python method (it reads the board) */
static PyObject *lays(PyObject *state, PyObject *d, long seat, int auto_lay, int anytime) {
    if (auto_lay) return PyList_New(0);
    PyObject *hands = anytime && LAYS != NULL ? field(d, s_hands) : NULL;
    if (hands == NULL) {
        if (PyErr_Occurred()) return NULL;
        return call_seat(state, s_lays, seat);
    }
    PyObject *shown_obj = field(d, s_shown);
    if (shown_obj == NULL) return NULL;
    unsigned long long shown = PyLong_AsUnsignedLongLong(shown_obj);
    if (shown == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    PyObject *hand = PyList_Check(hands) && seat >= 0 && seat < PyList_GET_SIZE(hands)
                         ? PyList_GET_ITEM(hands, seat) : NULL;
    if (hand == NULL || !PyTuple_Check(hand)) return call_seat(state, s_lays, seat);
    Py_ssize_t n = PyTuple_GET_SIZE(hand), k = 0;
    long wish[64];
    if (n > 64) return call_seat(state, s_lays, seat);
    for (Py_ssize_t i = 0; i < n; i++) {
        long w = PyLong_AsLong(PyTuple_GET_ITEM(hand, i));
        if (w == -1 && PyErr_Occurred()) return NULL;
        if (w < 1 || w >= PyTuple_GET_SIZE(LAYS)) return call_seat(state, s_lays, seat);
        if (shown >> w & 1) wish[k++] = w;
    }
    PyObject *out = PyList_New(k);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *lay = PyTuple_GET_ITEM(LAYS, wish[i]);
        Py_INCREF(lay);
        PyList_SET_ITEM(out, i, lay);
    }
    return out;
}

static PyObject *build(PyObject *state, PyObject *d) {
    long p, card, vetoed, moves, moved, bus;
    if (int_field(d, s_turn_player, &p) < 0) return NULL;
    PyObject *game = field(d, s_game);
    if (game == NULL || read_game(game) < 0) return NULL;
    int auto_lay = true_field(d, s_auto_lay), anytime = true_field(d, s_anytime);
    int shown = true_field(d, s_shown);
    if (auto_lay < 0 || anytime < 0 || shown < 0) return NULL;
    PyObject *acts = (auto_lay || (anytime && !shown)) ? PyList_New(0) : lays(state, d, p, auto_lay, anytime);
    if (acts == NULL) return NULL;
    if (!PyList_CheckExact(acts)) {
        PyObject *l = PySequence_List(acts);
        Py_DECREF(acts);
        if (l == NULL) return NULL;
        acts = l;
    }
    PyObject *char_hand = field(d, s_char_hand), *hearts = field(d, s_hearts), *pos = field(d, s_pos);
    if (char_hand == NULL || hearts == NULL || pos == NULL) goto fail;
    if ((card = list_int(char_hand, p)) == -2) goto fail;
    if (int_field(d, s_vetoed, &vetoed) < 0) goto fail;
    if (card < 0) {
        int fresh = true_field(d, s_fresh), drew = true_field(d, s_drew);
        int deck = true_field(d, s_char_deck), under = true_field(d, s_char_under);
        if (fresh < 0 || drew < 0 || deck < 0 || under < 0) goto fail;
        if ((fresh || !o_draw_first) && !drew && (deck || under))
            if (PyList_Append(acts, DRAW) < 0) goto fail;
    } else if (!(vetoed >> PLAY_BIT & 1)) {
        if (card >= PyTuple_GET_SIZE(PLAYS)) {
            PyErr_SetString(PyExc_IndexError, "character card out of range");
            goto fail;
        }
        if (PyList_Append(acts, PyTuple_GET_ITEM(PLAYS, card)) < 0) goto fail;
    }
    if (int_field(d, s_moves, &moves) < 0) goto fail;
    int moves_left = moves < 2, no_moves = 1;
    Py_ssize_t nh = PyList_Check(hearts) ? PyList_GET_SIZE(hearts) : -1;
    if (nh < 0) {
        PyErr_SetString(PyExc_TypeError, "hearts must be a list");
        goto fail;
    }
    if (moves_left) {
        Py_ssize_t before = PyList_GET_SIZE(acts);
        long own = list_int(hearts, p), others = 0;
        if (own == -2) goto fail;
        for (Py_ssize_t i = 0; i < nh; i++) {
            long h = list_int(hearts, i);
            if (h == -2) goto fail;
            if (h > 62) {
                PyErr_SetString(PyExc_ValueError, "a heart on no character");
                goto fail;
            }
            if (h >= 0 && h != own) others |= 1L << h;
        }
        if (int_field(d, s_moved, &moved) < 0) goto fail;
        long blocked = moved | vetoed | others;
        long at[8];
        for (int c = 0; c < 8; c++) {
            if ((at[c] = list_int(pos, c)) == -2) goto fail;
            if (at[c] < 0 || at[c] > 4) {
                PyErr_SetString(PyExc_ValueError, "a position out of the board");
                goto fail;
            }
        }
        for (int c = 0; c < 8; c++)
            if (!(blocked >> c & 1))
                if (extend(acts, PyTuple_GET_ITEM(PyTuple_GET_ITEM(MOVE_TABLE, c), at[c])) < 0) goto fail;
        if (!(blocked >> OMNIBUS & 1)) {
            if (int_field(d, s_bus, &bus) < 0) goto fail;
            if (bus < 0 || bus > 4) {
                PyErr_SetString(PyExc_ValueError, "the Omnibus is out of the board");
                goto fail;
            }
            long waiting = 0;
            for (int c = 0; c < 8; c++)
                if (at[c] == bus) waiting |= 1L << c;
            if (waiting) { /* bus in pos */
                PyObject *boarding = field(d, s_boarding);
                if (boarding == NULL || !PyTuple_Check(boarding)) {
                    if (boarding != NULL) PyErr_SetString(PyExc_TypeError, "boarding must be a tuple");
                    goto fail;
                }
                for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(boarding); i++) {
                    long c = PyLong_AsLong(PyTuple_GET_ITEM(boarding, i));
                    if (c == -1 && PyErr_Occurred()) goto fail;
                    if (c >= 0 && c < 8) waiting &= ~(1L << c);
                }
                long never = o_carries ? CHAT_BIT : (others | CHAT_BIT);
                if (extend(acts, PyTuple_GET_ITEM(BOARD_SETS, waiting & ~never & 255)) < 0) goto fail;
            }
            if (extend(acts, o_must_leave ? PyTuple_GET_ITEM(DRIVES_AWAY, bus) : DRIVES) < 0) goto fail;
        }
        no_moves = PyList_GET_SIZE(acts) == before;
    }
    long ch = list_int(hearts, p);
    if (ch == -2) goto fail;
    int hinted = true_field(d, s_hinted);
    if (hinted < 0) goto fail;
    if (ch >= 0 && !hinted && o_privileges != 0) {
        PyObject *more;
        if (o_privileges != 2) {
            more = call_seat(state, s_hints, p);
        } else if (ch == POETE || ch == GARCON) {
            more = call_seat(state, s_signals, p);
        } else {
            more = PyObject_CallFunction(FREE_SIGNALS, "lll", ch, p, o_players);
        }
        if (more == NULL) goto fail;
        int r = extend(acts, more);
        Py_DECREF(more);
        if (r < 0) goto fail;
    }
    if (!o_must_twice || !moves_left || no_moves)
        if (PyList_Append(acts, END) < 0) goto fail;
    return acts;
fail:
    Py_DECREF(acts);
    return NULL;
}

static PyObject *main_actions(PyObject *module, PyObject *state) {
    (void)module;
    PyObject *d = PyObject_GenericGetDict(state, NULL);
    if (d == NULL) return NULL;
    PyObject *r = build(state, d);
    Py_DECREF(d);
    return r;
}

/* Effects._open_window: a moment between moves (lay_wishes="anytime"), the same fields written */
static int set_int(PyObject *d, PyObject *name, unsigned long long v) {
    PyObject *o = PyLong_FromUnsignedLongLong(v);
    if (o == NULL) return -1;
    int r = PyDict_SetItem(d, name, o);
    Py_DECREF(o);
    return r;
}

static int unsigned_field(PyObject *d, PyObject *name, unsigned long long *out) {
    PyObject *v = field(d, name);
    if (v == NULL) return -1;
    *out = PyLong_AsUnsignedLongLong(v);
    if (*out == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    return 0;
}

static int window(PyObject *state, PyObject *d) {
    PyObject *pos = field(d, s_pos);
    if (pos == NULL) return -1;
    unsigned long long now = ~0ULL, laid, shown, dealt;
    for (int c = 0; c < 8; c++) {
        long z = list_int(pos, c);
        if (z == -2) return -1;
        if (z < 0 || z > 4) {
            PyErr_SetString(PyExc_ValueError, "a position out of the board");
            return -1;
        }
        now &= VISIBLE[c][z];
    }
    if (unsigned_field(d, s_laid, &laid) < 0 || unsigned_field(d, s_shown, &shown) < 0 ||
        unsigned_field(d, s_dealt_to, &dealt) < 0)
        return -1;
    now &= ~laid;
    unsigned long long fresh = now & ~shown;
    if (set_int(d, s_shown, now) < 0 || set_int(d, s_dealt_to, 0) < 0) return -1;
    if (!now || !(fresh || dealt)) return 0;
    long phase, me;
    if (int_field(d, s_phase, &phase) < 0) return -1;
    if (phase == PHASE_OVER) {
        me = -1;
    } else if (int_field(d, s_turn_player, &me) < 0) {
        return -1;
    }
    PyObject *game = field(d, s_game);
    if (game == NULL || read_game(game) < 0) return -1;
    PyObject *hands = field(d, s_hands);
    if (hands == NULL) return -1;
    if (!PyList_Check(hands)) {
        PyErr_SetString(PyExc_TypeError, "hands must be a list");
        return -1;
    }
    PyObject *asked[64];
    Py_ssize_t n = 0, seats = PyList_GET_SIZE(hands);
    Py_INCREF(hands); /* _layable (Python) runs below */
    if (seats > 64) {
        Py_DECREF(hands);
        PyErr_SetString(PyExc_ValueError, "too many seats");
        return -1;
    }
    int err = 0;
    for (Py_ssize_t q = 0; q < seats && !err; q++) {
        int held = PyObject_IsTrue(PyList_GET_ITEM(hands, q));
        if (held < 0) {
            err = 1;
            break;
        }
        if (!held || q == me || !(fresh || (dealt >> q & 1))) continue;
        if (o_holders) {
            PyObject *layable = call_seat(state, s_layable, q);
            if (layable == NULL) {
                err = 1;
                break;
            }
            int some = PyObject_IsTrue(layable);
            Py_DECREF(layable);
            if (some < 0) {
                err = 1;
                break;
            }
            if (!some) continue;
        }
        if ((asked[n] = PyLong_FromSsize_t(q)) == NULL) {
            err = 1;
            break;
        }
        n++;
    }
    int r = -1;
    if (!err) {
        if (n == 0) {
            r = 0;
        } else {
            PyObject *asking = PyTuple_New(n);
            if (asking != NULL) {
                for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(asking, i, asked[i]);
                n = 0; /* the tuple owns them */
                PyObject *was = PyLong_FromLong(phase);
                if (was != NULL && PyDict_SetItem(d, s_asking, asking) == 0 &&
                    PyDict_SetItem(d, s_window_return, was) == 0 && set_int(d, s_phase, PHASE_WINDOW) == 0)
                    r = 0;
                Py_XDECREF(was);
                Py_DECREF(asking);
            }
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) Py_DECREF(asked[i]);
    Py_DECREF(hands);
    return r;
}

static PyObject *open_window(PyObject *module, PyObject *state) {
    (void)module;
    if (!VISIBLE_SET) {
        PyErr_SetString(PyExc_RuntimeError, "gamelib.passante._fast: configure_window() first");
        return NULL;
    }
    PyObject *d = PyObject_GenericGetDict(state, NULL);
    if (d == NULL) return NULL;
    int r = window(state, d);
    Py_DECREF(d);
    if (r < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *configure_window(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *table;
    long over, win;
    if (!PyArg_ParseTuple(args, "O!ll:configure_window", &PyTuple_Type, &table, &over, &win)) return NULL;
    if (PyTuple_GET_SIZE(table) != 8) {
        PyErr_SetString(PyExc_ValueError, "configure_window: VISIBLE_IF_AT has 8 rows");
        return NULL;
    }
    for (int c = 0; c < 8; c++) {
        PyObject *row = PyTuple_GET_ITEM(table, c);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 5) {
            PyErr_SetString(PyExc_ValueError, "configure_window: rows of 5 masks");
            return NULL;
        }
        for (int z = 0; z < 5; z++) {
            unsigned long long v = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(row, z));
            if (v == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
            VISIBLE[c][z] = v;
        }
    }
    PHASE_OVER = over;
    PHASE_WINDOW = win;
    VISIBLE_SET = 1;
    Py_CLEAR(cached_game);
    Py_RETURN_NONE;
}

/* PassanteState._apply(action) with `steps` (type(state)._steps: class -> (transition, role)):
   a move or card the Policier's player may stop is announced; the Policier's answer; the
   transition; wishes laid (automatic) or none owed from an empty deck; a draw owed first; the
   moment between moves (compiled); who acts.  The same steps, in C around the Python transitions. */
static int who_acts(PyObject *state, PyObject *d, long phase) {
    PyObject *who;
    if (phase == PHASE_MAIN) {
        who = field(d, s_turn_player);
        if (who == NULL) return -1;
        return PyDict_SetItem(d, s_to_move, who);
    }
    if (phase < 0 || phase >= PyTuple_GET_SIZE(WHO)) {
        PyErr_SetString(PyExc_IndexError, "phase out of _WHO");
        return -1;
    }
    who = PyObject_CallOneArg(PyTuple_GET_ITEM(WHO, phase), state);
    if (who == NULL) return -1;
    int r = PyDict_SetItem(d, s_to_move, who);
    Py_DECREF(who);
    return r;
}

static int to_move_after(PyObject *state, PyObject *d) {
    /* CHANCE if a draw is owed, else who acts in the phase */
    long phase;
    int owed = true_field(d, s_pending);
    if (owed < 0) return -1;
    if (owed) return PyDict_SetItem(d, s_to_move, CHANCE_INT);
    if (int_field(d, s_phase, &phase) < 0) return -1;
    return who_acts(state, d, phase);
}

static long role_of(PyObject *kind) {
    PyObject *r = PyDict_GetItemWithError(ROLES, kind);
    if (r == NULL) {
        if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, kind);
        return -1;
    }
    return PyLong_AsLong(r);
}

static int c_apply(PyObject *state, PyObject *d, PyObject *action, PyObject *steps) {
    PyObject *kind = (PyObject *)Py_TYPE(action);
    PyObject *pair = PyDict_GetItemWithError(steps, kind);
    if (pair == NULL) {
        if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, kind);
        return -1;
    }
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "_steps holds (transition, role) pairs");
        return -1;
    }
    PyObject *step = PyTuple_GET_ITEM(pair, 0);
    long role = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
    if (role == -1 && PyErr_Occurred()) return -1;
    PyObject *res;
    if (role & ROLE_ANSWERED) {
        if (role & ROLE_PROPOSAL) {
            int used = true_field(d, s_veto_used);
            if (used < 0) return -1;
            if (!used) {
                PyObject *hearts = field(d, s_hearts), *pol = PyLong_FromLong(POLICIER_CHAR);
                int in = (hearts != NULL && pol != NULL) ? PySequence_Contains(hearts, pol) : -1;
                Py_XDECREF(pol);
                if (in < 0) return -1;
                if (in) {
                    PyObject *v = PyObject_CallMethodOneArg(state, s_vetoable, action);
                    int stop = v == NULL ? -1 : PyObject_IsTrue(v);
                    Py_XDECREF(v);
                    if (stop < 0) return -1;
                    if (stop) {
                        if (PyDict_SetItem(d, s_proposed, action) < 0 || set_int(d, s_phase, PHASE_VETO) < 0)
                            return -1;
                        int owed = true_field(d, s_pending);
                        if (owed < 0) return -1;
                        PyObject *who = owed ? CHANCE_INT : field(d, s_vetoer);
                        if (who == NULL) return -1;
                        return PyDict_SetItem(d, s_to_move, who);
                    }
                }
            }
        } else if (kind == ALLOW_KIND) {
            PyObject *proposed = field(d, s_proposed);
            if (proposed == NULL) return -1;
            if (proposed == Py_None) {
                PyErr_SetString(PyExc_AssertionError, "allow with nothing proposed");
                return -1;
            }
            role = role_of((PyObject *)Py_TYPE(proposed));
            if (role == -1 && PyErr_Occurred()) return -1;
        } else { /* Veto */
            res = PyObject_CallFunctionObjArgs(step, state, action, NULL);
            if (res == NULL) return -1;
            Py_DECREF(res);
            return to_move_after(state, d);
        }
    }
    res = PyObject_CallFunctionObjArgs(step, state, action, NULL);
    if (res == NULL) return -1;
    Py_DECREF(res);
    int auto_lay = true_field(d, s_auto_lay);
    if (auto_lay < 0) return -1;
    if (auto_lay) {
        res = PyObject_CallMethodNoArgs(state, s_settle);
        if (res == NULL) return -1;
        Py_DECREF(res);
    } else {
        int deck = true_field(d, s_wish_deck);
        if (deck < 0) return -1;
        if (!deck && PyDict_SetItem(d, s_pending, EMPTY_TUPLE) < 0) return -1;
    }
    int owed = true_field(d, s_pending);
    if (owed < 0) return -1;
    if (owed) return PyDict_SetItem(d, s_to_move, CHANCE_INT);
    long phase;
    if (int_field(d, s_phase, &phase) < 0) return -1;
    int anytime = true_field(d, s_anytime);
    if (anytime < 0) return -1;
    if (anytime && phase >= 0 && phase < 64 && (REST_MASK >> phase & 1)) {
        int dealt = (role & ROLE_SHOWS) ? 1 : true_field(d, s_dealt_to);
        if (dealt < 0) return -1;
        if (dealt) {
            if (window(state, d) < 0 || int_field(d, s_phase, &phase) < 0) return -1;
        }
    }
    return who_acts(state, d, phase);
}

static PyObject *apply(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *state, *action, *steps;
    if (!PyArg_ParseTuple(args, "OOO!:apply", &state, &action, &PyDict_Type, &steps)) return NULL;
    if (ROLES == NULL || !VISIBLE_SET) {
        PyErr_SetString(PyExc_RuntimeError, "gamelib.passante._fast: configure_apply() first");
        return NULL;
    }
    PyObject *d = PyObject_GenericGetDict(state, NULL);
    if (d == NULL) return NULL;
    int r = c_apply(state, d, action, steps);
    Py_DECREF(d);
    if (r < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *configure_apply(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *roles, *allow, *who, *rest;
    long main_phase, veto_phase, proposal, shows, answered, policier;
    if (!PyArg_ParseTuple(args, "O!OO!Ollllll:configure_apply", &PyDict_Type, &roles, &allow, &PyTuple_Type,
                          &who, &rest, &main_phase, &veto_phase, &proposal, &shows, &answered, &policier))
        return NULL;
    long mask = 0;
    PyObject *it = PyObject_GetIter(rest), *item;
    if (it == NULL) return NULL;
    while ((item = PyIter_Next(it)) != NULL) {
        long ph = PyLong_AsLong(item);
        Py_DECREF(item);
        if (ph < 0 || ph > 62) {
            Py_DECREF(it);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "configure_apply: phases 0..62");
            return NULL;
        }
        mask |= 1L << ph;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    if (CHANCE_INT == NULL && (CHANCE_INT = PyLong_FromLong(CHANCE)) == NULL) return NULL;
    if (EMPTY_TUPLE == NULL && (EMPTY_TUPLE = PyTuple_New(0)) == NULL) return NULL;
    Py_INCREF(roles);
    Py_XSETREF(ROLES, roles);
    Py_INCREF(allow);
    Py_XSETREF(ALLOW_KIND, allow);
    Py_INCREF(who);
    Py_XSETREF(WHO, who);
    REST_MASK = mask;
    PHASE_MAIN = main_phase;
    PHASE_VETO = veto_phase;
    ROLE_PROPOSAL = proposal;
    ROLE_SHOWS = shows;
    ROLE_ANSWERED = answered;
    POLICIER_CHAR = policier;
    Py_RETURN_NONE;
}

/* PassanteState.sample_chance(rng): one of n equally likely outcomes, the one that
   core.rng.pick draws with u = rng.random(): bisect_right over _CUMULATIVE[n] (the same doubles).
   Returns a new reference; NULL with no error set: not a case handled here (the caller asks the
   Python method). */
static Py_ssize_t bisect_right(Py_ssize_t n, double u) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (u < CUMULATIVE[n][mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo < n ? lo : n - 1;
}

static PyObject *chance_pick(PyObject *d, PyObject *uniform) {
    int owed = true_field(d, s_pending);
    if (owed < 0) return NULL;
    PyObject *draws[64];
    Py_ssize_t n = 0;
    unsigned long long deck = 0;
    if (owed) {
        PyObject *w = field(d, s_wish_deck);
        if (w == NULL) return NULL;
        deck = PyLong_AsUnsignedLongLong(w);
        if (deck == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
        for (Py_ssize_t b = 1; b < PyTuple_GET_SIZE(WISH_CARDS) && b < 64; b++)
            if (deck >> b & 1) draws[n++] = PyTuple_GET_ITEM(WISH_CARDS, b);
        if (deck >> PyTuple_GET_SIZE(WISH_CARDS)) return NULL; /* a card beyond the table: Python */
    } else {
        long phase, cards;
        if (int_field(d, s_phase, &phase) < 0) return NULL;
        if (phase == PHASE_CARD_DRAW || phase == PHASE_EVENT) {
            PyObject *under = field(d, s_char_under);
            if (under == NULL || int_field(d, s_char_deck, &cards) < 0) return NULL;
            if (!PyTuple_Check(under) || cards < 0 || cards > 255) return NULL;
            if (phase == PHASE_EVENT) { /* _event_deck: char_deck | sum of the bits under it */
                long below = 0;
                for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(under); i++) {
                    long c = PyLong_AsLong(PyTuple_GET_ITEM(under, i));
                    if (c == -1 && PyErr_Occurred()) return NULL;
                    if (c < 0 || c > 7) return NULL;
                    below += 1L << c;
                }
                if (below > 255) return NULL; /* a card twice under the deck: the Python method */
                cards |= below;
                for (int c = 0; c < 8; c++)
                    if (cards >> c & 1) draws[n++] = PyTuple_GET_ITEM(EVENTS, c);
            } else if (cards) {
                for (int c = 0; c < 8; c++)
                    if (cards >> c & 1) draws[n++] = PyTuple_GET_ITEM(CHARACTER_CARDS, c);
            } else {
                if (PyTuple_GET_SIZE(under) < 1) return NULL;
                long c = PyLong_AsLong(PyTuple_GET_ITEM(under, 0));
                if (c == -1 && PyErr_Occurred()) return NULL;
                if (c < 0 || c > 7) return NULL;
                draws[n++] = PyTuple_GET_ITEM(CHARACTER_CARDS, c);
            }
        } else if (phase == PHASE_DIE) {
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(DIE_DRAWS); i++) draws[n++] = PyTuple_GET_ITEM(DIE_DRAWS, i);
        }
    }
    if (n == 0 || n > NCUM) return NULL; /* nothing to draw: the Python method says why */
    PyObject *u = PyObject_CallNoArgs(uniform);
    if (u == NULL) return NULL;
    double x = PyFloat_AsDouble(u);
    Py_DECREF(u);
    if (x == -1.0 && PyErr_Occurred()) return NULL;
    PyObject *pick = draws[bisect_right(n, x)];
    Py_INCREF(pick);
    return pick;
}

static PyObject *configure_chance(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *cards, *die, *events, *wishes, *cumulative;
    long card_draw, die_phase, event_phase;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!lll:configure_chance", &PyTuple_Type, &cards, &PyTuple_Type, &die,
                          &PyTuple_Type, &events, &PyTuple_Type, &wishes, &PyTuple_Type, &cumulative,
                          &card_draw, &die_phase, &event_phase))
        return NULL;
    if (PyTuple_GET_SIZE(cards) != 8 || PyTuple_GET_SIZE(events) != 8 || PyTuple_GET_SIZE(die) > 63 ||
        PyTuple_GET_SIZE(wishes) > 63 || PyTuple_GET_SIZE(cumulative) > 64 || PyTuple_GET_SIZE(cumulative) < 2) {
        PyErr_SetString(PyExc_ValueError, "configure_chance: tables of unexpected sizes");
        return NULL;
    }
    Py_ssize_t ncum = PyTuple_GET_SIZE(cumulative) - 1;
    for (Py_ssize_t k = 1; k <= ncum; k++) {
        PyObject *row = PyTuple_GET_ITEM(cumulative, k);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != k) {
            PyErr_SetString(PyExc_ValueError, "configure_chance: _CUMULATIVE[n] has n sums");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < k; i++) {
            double v = PyFloat_AsDouble(PyTuple_GET_ITEM(row, i));
            if (v == -1.0 && PyErr_Occurred()) return NULL;
            CUMULATIVE[k][i] = v;
        }
    }
    NCUM = ncum;
    PyObject **slots[] = {&CHARACTER_CARDS, &DIE_DRAWS, &EVENTS, &WISH_CARDS};
    PyObject *values[] = {cards, die, events, wishes};
    for (int i = 0; i < 4; i++) {
        Py_INCREF(values[i]);
        Py_XSETREF(*slots[i], values[i]);
    }
    PHASE_CARD_DRAW = card_draw;
    PHASE_DIE = die_phase;
    PHASE_EVENT = event_phase;
    Py_RETURN_NONE;
}

static PyObject *sample(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *state, *rng;
    if (!PyArg_ParseTuple(args, "OO:sample", &state, &rng)) return NULL;
    if (WISH_CARDS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "gamelib.passante._fast: configure_chance() first");
        return NULL;
    }
    PyObject *d = PyObject_GenericGetDict(state, NULL);
    if (d == NULL) return NULL;
    PyObject *uniform = PyObject_GetAttr(rng, s_random);
    PyObject *r = uniform ? chance_pick(d, uniform) : NULL;
    Py_XDECREF(uniform);
    Py_DECREF(d);
    if (r == NULL && !PyErr_Occurred()) Py_RETURN_NONE;
    return r;
}

/* mcts._uniform_rollout for a PassanteState: uniform random moves to the end (or `limit` actions),
   the same calls in the same order (the moves from the phase's legal moves, `_LEGAL[phase]`, which
   is `_legal_actions` when no wish draw is owed: a player is to move; `rng.random()` once a
   decision; `_apply`; the history appended), without the Python loop around them. */

static int play(PyObject *state, PyObject *d, PyObject *rng, long limit, PyObject *legal, PyObject *steps,
                int own_chance) {
    PyObject *step = PyObject_GetAttr(state, s_apply);
    PyObject *sample = step ? PyObject_GetAttr(state, s_sample_chance) : NULL;
    PyObject *uniform = sample ? PyObject_GetAttr(rng, s_random) : NULL;
    PyObject *history = uniform ? field(d, s_history) : NULL;
    int r = -1;
    if (history == NULL) goto done;
    Py_INCREF(history);
    if (!PyList_CheckExact(history)) {
        PyErr_SetString(PyExc_TypeError, "history must be a list");
        goto out;
    }
    for (long i = 0; i < limit; i++) {
        long player, phase;
        if (int_field(d, s_to_move, &player) < 0) goto out;
        PyObject *action;
        if (player == TERMINAL) break;
        if (player == CHANCE) {
            action = own_chance ? NULL : chance_pick(d, uniform);
            if (action == NULL && !PyErr_Occurred()) action = PyObject_CallOneArg(sample, rng);
            if (action == NULL) goto out;
        } else {
            PyObject *actions;
            int owed = true_field(d, s_pending);
            if (owed < 0) goto out;
            if (owed || legal == Py_None) { /* _legal_actions itself (a draw owed; a subclass's own) */
                actions = PyObject_CallMethodNoArgs(state, s_legal_actions);
            } else {
                if (int_field(d, s_phase, &phase) < 0) goto out;
                if (phase < 0 || phase >= PyList_GET_SIZE(legal)) {
                    PyErr_SetString(PyExc_IndexError, "phase out of the legal moves' table");
                    goto out;
                }
                PyObject *lister = PyList_GET_ITEM(legal, phase);
                Py_INCREF(lister);
                actions = PyObject_CallOneArg(lister, state);
                Py_DECREF(lister);
            }
            if (actions == NULL) goto out;
            if (!PyList_Check(actions)) {
                Py_DECREF(actions);
                PyErr_SetString(PyExc_TypeError, "legal moves must be a list");
                goto out;
            }
            PyObject *u = PyObject_CallNoArgs(uniform);
            double x = u ? PyFloat_AsDouble(u) : -1.0;
            Py_XDECREF(u);
            if (u == NULL || (x == -1.0 && PyErr_Occurred())) {
                Py_DECREF(actions);
                goto out;
            }
            Py_ssize_t n = PyList_GET_SIZE(actions);
            double at = x * (double)n;
            Py_ssize_t k = (Py_ssize_t)at; /* int(uniform() * len(actions)): truncation */
            if (!(at > -1.0) || k < 0 || k >= n) {
                Py_DECREF(actions);
                PyErr_SetString(PyExc_IndexError, "list index out of range");
                goto out;
            }
            action = PyList_GET_ITEM(actions, k);
            Py_INCREF(action);
            Py_DECREF(actions);
        }
        if (steps != Py_None) { /* PassanteState._apply, in C */
            if (c_apply(state, d, action, steps) < 0 || PyList_Append(history, action) < 0) {
                Py_DECREF(action);
                goto out;
            }
        } else {
            PyObject *res = PyObject_CallOneArg(step, action);
            if (res == NULL || PyList_Append(history, action) < 0) {
                Py_XDECREF(res);
                Py_DECREF(action);
                goto out;
            }
            Py_DECREF(res);
        }
        Py_DECREF(action);
    }
    r = 0;
out:
    Py_DECREF(history);
done:
    Py_XDECREF(step);
    Py_XDECREF(sample);
    Py_XDECREF(uniform);
    return r;
}

static PyObject *rollout(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *state, *rng, *legal, *steps = Py_None;
    long limit;
    int own_chance = 1;
    if (!PyArg_ParseTuple(args, "OOlO|Op:rollout", &state, &rng, &limit, &legal, &steps, &own_chance)) return NULL;
    if (!own_chance && WISH_CARDS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "gamelib.passante._fast: configure_chance() first");
        return NULL;
    }
    if (steps != Py_None && (!PyDict_Check(steps) || ROLES == NULL || !VISIBLE_SET)) {
        PyErr_SetString(PyExc_TypeError, "rollout: steps is a _steps dict (after configure_apply) or None");
        return NULL;
    }
    if (legal != Py_None && !PyList_Check(legal)) {
        PyErr_SetString(PyExc_TypeError, "rollout: legal is the list _LEGAL or None");
        return NULL;
    }
    PyObject *d = PyObject_GenericGetDict(state, NULL);
    if (d == NULL) return NULL;
    int r = play(state, d, rng, limit, legal, steps, own_chance);
    Py_DECREF(d);
    if (r < 0) return NULL;
    Py_RETURN_NONE;
}

/* PassanteState._window_actions: the asked seat lays a shown wish of its hand, gives an
   any-moment privilege's signal (once a turn, privileges="cards"), or passes */
static PyObject *window_build(PyObject *state, PyObject *d) {
    PyObject *asking = field(d, s_asking);
    if (asking == NULL) return NULL;
    if (!PyTuple_Check(asking) || PyTuple_GET_SIZE(asking) < 1) {
        PyErr_SetString(PyExc_IndexError, "no seat is asked");
        return NULL;
    }
    long q = PyLong_AsLong(PyTuple_GET_ITEM(asking, 0));
    if (q == -1 && PyErr_Occurred()) return NULL;
    int shown = true_field(d, s_shown), auto_lay = true_field(d, s_auto_lay), anytime = true_field(d, s_anytime);
    if (shown < 0 || auto_lay < 0 || anytime < 0) return NULL;
    PyObject *acts = shown ? lays(state, d, q, auto_lay, anytime) : PyList_New(0);
    if (acts == NULL) return NULL;
    if (!PyList_CheckExact(acts)) {
        PyObject *l = PySequence_List(acts);
        Py_DECREF(acts);
        if (l == NULL) return NULL;
        acts = l;
    }
    PyObject *hearts = field(d, s_hearts), *game = field(d, s_game);
    long ch, signalled;
    if (hearts == NULL || game == NULL || read_game(game) < 0) goto fail;
    if ((ch = list_int(hearts, q)) == -2) goto fail;
    if (ch >= 0 && ch < 8 && (ANY_MOMENT_MASK >> ch & 1)) {
        if (int_field(d, s_signalled, &signalled) < 0) goto fail;
        if (!(signalled >> q & 1) && o_privileges == 2) {
            PyObject *more = PyObject_CallFunction(FREE_SIGNALS, "lll", ch, q, o_players);
            if (more == NULL) goto fail;
            int r = extend(acts, more);
            Py_DECREF(more);
            if (r < 0) goto fail;
        }
    }
    if (PyList_Append(acts, PASS) < 0) goto fail;
    return acts;
fail:
    Py_DECREF(acts);
    return NULL;
}

static PyObject *window_actions(PyObject *module, PyObject *state) {
    (void)module;
    if (LAYS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "gamelib.passante._fast: configure_lays() first");
        return NULL;
    }
    PyObject *d = PyObject_GenericGetDict(state, NULL);
    if (d == NULL) return NULL;
    PyObject *r = window_build(state, d);
    Py_DECREF(d);
    return r;
}

static PyObject *configure_lays(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *lays_table, *pass, *any_moment;
    if (!PyArg_ParseTuple(args, "O!OO!:configure_lays", &PyTuple_Type, &lays_table, &pass, &PyTuple_Type,
                          &any_moment))
        return NULL;
    long mask = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(any_moment); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(any_moment, i));
        if (c == -1 && PyErr_Occurred()) return NULL;
        if (c < 0 || c > 7) {
            PyErr_SetString(PyExc_ValueError, "configure_lays: characters are 0..7");
            return NULL;
        }
        mask |= 1L << c;
    }
    if (PyTuple_GET_SIZE(lays_table) < 2 || PyTuple_GET_SIZE(lays_table) > 64) {
        PyErr_SetString(PyExc_ValueError, "configure_lays: (None, lay 1, ...) up to 63 wishes");
        return NULL;
    }
    Py_INCREF(lays_table);
    Py_XSETREF(LAYS, lays_table);
    Py_INCREF(pass);
    Py_XSETREF(PASS, pass);
    ANY_MOMENT_MASK = mask;
    Py_RETURN_NONE;
}

static PyObject *configure(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *tables[5], *draw, *end, *free_signals;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!OOO:configure", &PyTuple_Type, &tables[0], &PyTuple_Type,
                          &tables[1], &PyTuple_Type, &tables[2], &PyTuple_Type, &tables[3],
                          &PyTuple_Type, &tables[4], &draw, &end, &free_signals))
        return NULL;
    /* shapes checked once here, so the hot path indexes without checks */
    if (PyTuple_GET_SIZE(tables[0]) != 8 || PyTuple_GET_SIZE(tables[1]) != 256 ||
        PyTuple_GET_SIZE(tables[3]) != 5 || PyTuple_GET_SIZE(tables[4]) != 8) {
        PyErr_SetString(PyExc_ValueError, "configure: tables of unexpected sizes");
        return NULL;
    }
    for (int c = 0; c < 8; c++) {
        PyObject *row = PyTuple_GET_ITEM(tables[0], c);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 5) {
            PyErr_SetString(PyExc_ValueError, "configure: MOVE_TABLE rows are 5 tuples");
            return NULL;
        }
        for (int z = 0; z < 5; z++)
            if (!PyTuple_Check(PyTuple_GET_ITEM(row, z))) {
                PyErr_SetString(PyExc_ValueError, "configure: MOVE_TABLE cells are tuples");
                return NULL;
            }
    }
    for (int m = 0; m < 256; m++)
        if (!PyTuple_Check(PyTuple_GET_ITEM(tables[1], m))) {
            PyErr_SetString(PyExc_ValueError, "configure: BOARD_SETS holds tuples");
            return NULL;
        }
    for (int z = 0; z < 5; z++)
        if (!PyTuple_Check(PyTuple_GET_ITEM(tables[3], z))) {
            PyErr_SetString(PyExc_ValueError, "configure: DRIVES_AWAY holds tuples");
            return NULL;
        }
    PyObject **slots[] = {&MOVE_TABLE, &BOARD_SETS, &DRIVES, &DRIVES_AWAY, &PLAYS};
    for (int i = 0; i < 5; i++) {
        Py_INCREF(tables[i]);
        Py_XSETREF(*slots[i], tables[i]);
    }
    Py_INCREF(draw);
    Py_XSETREF(DRAW, draw);
    Py_INCREF(end);
    Py_XSETREF(END, end);
    Py_INCREF(free_signals);
    Py_XSETREF(FREE_SIGNALS, free_signals);
    Py_CLEAR(cached_game);
    Py_RETURN_NONE;
}

static PyObject *forget(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    Py_CLEAR(cached_game);
    Py_RETURN_NONE;
}

static PyObject *main_actions_entry(PyObject *module, PyObject *state) {
    if (MOVE_TABLE == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "gamelib.passante._fast: configure() first");
        return NULL;
    }
    return main_actions(module, state);
}

static PyMethodDef methods[] = {
    {"main_actions", main_actions_entry, METH_O,
     "main_actions(state): PassanteState._main_actions(state), the same list"},
    {"configure", configure, METH_VARARGS,
     "configure(MOVE_TABLE, BOARD_SETS, DRIVES, DRIVES_AWAY, PLAYS, DRAW, END, _free_signals)"},
    {"open_window", open_window, METH_O,
     "open_window(state): Effects._open_window(state), the same fields written"},
    {"configure_window", configure_window, METH_VARARGS, "configure_window(VISIBLE_IF_AT, OVER, WINDOW)"},
    {"rollout", rollout, METH_VARARGS,
     "rollout(state, rng, limit, legal): uniform random moves, as mcts._uniform_rollout plays them"},
    {"window_actions", window_actions, METH_O,
     "window_actions(state): PassanteState._window_actions(state), the same list"},
    {"configure_lays", configure_lays, METH_VARARGS, "configure_lays((None, *LAYS by number), PASS, ANY_MOMENT)"},
    {"apply", apply, METH_VARARGS, "apply(state, action, steps): PassanteState._apply(state, action)"},
    {"configure_apply", configure_apply, METH_VARARGS,
     "configure_apply(_ROLES, Allow, _WHO, _REST, MAIN, VETO_PHASE, _PROPOSAL, _SHOWS, _ANSWERED, POLICIER)"},
    {"sample", sample, METH_VARARGS,
     "sample(state, rng): PassanteState.sample_chance(state, rng), or None (the method's own case)"},
    {"configure_chance", configure_chance, METH_VARARGS,
     "configure_chance(CHARACTER_CARDS, DIE_DRAWS, EVENTS, (None, *WISH_CARDS), _CUMULATIVE, CARD_DRAW, DIE, EVENT)"},
    {"forget", forget, METH_NOARGS, "drop the game whose options are kept (tests)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_fast", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fast(void) {
    struct {
        PyObject **slot;
        const char *text;
    } names[] = {
        {&s_turn_player, "turn_player"}, {&s_game, "game"}, {&s_options, "options"},
        {&s_num_players, "num_players"}, {&s_auto_lay, "auto_lay"}, {&s_anytime, "anytime"},
        {&s_shown, "shown"}, {&s_char_hand, "char_hand"}, {&s_fresh, "fresh"}, {&s_drew, "drew"},
        {&s_char_deck, "char_deck"}, {&s_char_under, "char_under"}, {&s_vetoed, "vetoed"},
        {&s_moves, "moves"}, {&s_hearts, "hearts"}, {&s_moved, "moved"}, {&s_pos, "pos"},
        {&s_bus, "bus"}, {&s_hinted, "hinted"}, {&s_boarding, "boarding"}, {&s_lays, "_lays"},
        {&s_hints, "_hints"}, {&s_signals, "_signals"}, {&s_draw_first, "draw_first"},
        {&s_omnibus_must_leave, "omnibus_must_leave"}, {&s_privileges, "privileges"},
        {&s_must_move_twice, "must_move_twice"},
        {&s_omnibus_carries_controlled, "omnibus_carries_controlled"}, {&s_none, "none"},
        {&s_cards, "cards"}, {&s_laid, "laid"}, {&s_dealt_to, "dealt_to"}, {&s_phase, "phase"},
        {&s_hands, "hands"}, {&s_window_asks, "window_asks"}, {&s_holders, "holders"},
        {&s_layable, "_layable"}, {&s_asking, "asking"}, {&s_window_return, "window_return"},
        {&s_to_move, "_to_move"}, {&s_history, "history"}, {&s_apply, "_apply"},
        {&s_sample_chance, "sample_chance"}, {&s_random, "random"}, {&s_pending, "pending"},
        {&s_legal_actions, "_legal_actions"}, {&s_signalled, "signalled"}, {&s_veto_used, "veto_used"},
        {&s_vetoable, "_vetoable"}, {&s_proposed, "proposed"}, {&s_vetoer, "vetoer"},
        {&s_settle, "_settle"}, {&s_wish_deck, "wish_deck"},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        *names[i].slot = PyUnicode_InternFromString(names[i].text);
        if (*names[i].slot == NULL) return NULL;
    }
    return PyModule_Create(&module_def);
}
