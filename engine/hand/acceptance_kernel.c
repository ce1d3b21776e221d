/* The study's decisions valued in C: engine.hand.acceptance_batch's gathers, one decision at a
 * time, each (discard, draw) pair a few table look-ups.
 *
 * What the numbers are, and the tables they come from, is engine/hand/acceptance_batch.py's and
 * engine/hand/join_tables.py's docstrings; this file does the same work without numpy's
 * per-call costs and skips the draws that cannot count (no copy unseen). Built by `pip install`
 * when a C compiler is there (pyproject.toml, [tool.setuptools] ext-modules, optional); without
 * it, engine.hand.acceptance_native falls back to the numpy batch. Python's side, the checks
 * and the fallback of the hands this leaves out is engine/hand/acceptance_native.py.
 *
 *   load(ids, suits, join2, join3, final3, final2)
 *       keep the tables (buffers of engine.hand.shanten_table / join_tables): ids are the suit
 *       table's (fast, full) 16-bit id pairs by pattern, join2 and join3 16-bit, finals 8-bit.
 *   outcomes(counts, seen, discarded, allowed, copies, three_player) -> list
 *       counts and seen: 34 bytes a decision; discarded: a byte a decision; allowed: 8 bytes a
 *       decision, a little-endian mask of the kinds it may discard; copies: 34 bytes. Each item
 *       is (loss or None, lowest, left), or None for a decision left to Python (a count above
 *       4, not 3n+2 tiles up to 14, an honour-group kind held four times, 2m-8m in three-player
 *       mode, a discard not held or not allowed).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define KINDS 34
#define EAST 27
/* join_tables.CONTEXTS: melds with calls 0-4, blocks 0-5, pair 0-1, isolated state 0-2. */
#define CONTEXTS 180
/* shanten_table.PATTERNS: every suit pattern, 5 ** 9. */
#define PATTERNS 1953125
#define PATTERN_LIMIT (PATTERNS - 1)

static const int POW5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};

/* The full frontier id of every suit pattern, apart from the suit table's interleaved (fast,
 * full) pairs: half the memory the look-ups touch. */
static uint16_t *full_ids = NULL;
/* The final tables again, context by context (``by_context[h * ids + t]``): a row's draws in
 * the number suits all read one context's slab (a few cache lines) rather than one line each. */
static int8_t *by_context3 = NULL, *by_context2 = NULL;
static long triple_count = 0, pair_count = 0;
static Py_buffer join2_buffer, join3_buffer, final3_buffer, final2_buffer;
static int loaded = 0;
static long suit_frontiers = 0;

static inline int is_orphan(int kind) {
    return kind >= EAST || kind % 9 == 0 || kind % 9 == 8;
}

/* The full frontier id of a suit pattern. */
static inline int full_id(long pattern) {
    return full_ids[pattern];
}

/* The full frontier ids of a suit pattern grown by a tile of each rank. A rank held four times
 * carries into the next digit: a wrong pattern, but its kind has no copy unseen, so its value
 * is never counted; the limit keeps the last one inside the table. */
static inline void grow(int pattern, int ids[9]) {
    for (int r = 0; r < 9; r++) {
        long grown = pattern + POW5[r];
        ids[r] = full_id(grown > PATTERN_LIMIT ? PATTERN_LIMIT : grown);
    }
}

/* join_tables.honour_context of an honour group by its counts (and the calls). */
static inline int honour_context(int melds, int pairs, int singles, int quads, int calls) {
    int state = singles > 0 ? 2 : (quads > 0 ? 1 : 0);
    int blocks = melds + pairs + calls;
    if (blocks > 5) blocks = 5;
    return ((melds + calls) * 6 + blocks) * 6 + (pairs > 0) * 3 + state;
}

static void release_tables(void) {
    if (loaded) {
        PyMem_Free(full_ids);
        PyMem_Free(by_context3);
        PyMem_Free(by_context2);
        full_ids = NULL;
        by_context3 = by_context2 = NULL;
        PyBuffer_Release(&join2_buffer);
        PyBuffer_Release(&join3_buffer);
        PyBuffer_Release(&final3_buffer);
        PyBuffer_Release(&final2_buffer);
        loaded = 0;
    }
}

static PyObject *load(PyObject *self, PyObject *args) {
    Py_buffer ids, join2, join3, final3, final2;
    long suits;
    if (!PyArg_ParseTuple(args, "y*ly*y*y*y*", &ids, &suits, &join2, &join3, &final3, &final2))
        return NULL;
    /* The sizes the look-ups rely on: every pattern's ids, join2 suits x suits, join3 and the
     * finals as many rows as the ids they index can reach (pairs and triples, from the sizes). */
    long pairs = (long)(join3.len / 2) / (suits > 0 ? suits : 1);
    long triples = (long)(final3.len / CONTEXTS);
    int fine = suits > 0 && ids.len == 4L * PATTERNS && join2.len == 2 * suits * suits
               && join3.len == 2 * pairs * suits && final2.len == pairs * CONTEXTS
               && final3.len == triples * CONTEXTS;
    if (fine) {
        const uint16_t *j2 = (const uint16_t *)join2.buf, *j3 = (const uint16_t *)join3.buf;
        for (long i = 0; fine && i < suits * suits; i++) fine = j2[i] < pairs;
        for (long i = 0; fine && i < pairs * suits; i++) fine = j3[i] < triples;
    }
    if (!fine) {
        PyBuffer_Release(&ids);
        PyBuffer_Release(&join2);
        PyBuffer_Release(&join3);
        PyBuffer_Release(&final3);
        PyBuffer_Release(&final2);
        PyErr_SetString(PyExc_ValueError, "the shanten tables do not fit together");
        return NULL;
    }
    uint16_t *compact = PyMem_Malloc(sizeof(uint16_t) * PATTERNS);
    int8_t *transposed3 = PyMem_Malloc(final3.len), *transposed2 = PyMem_Malloc(final2.len);
    if (compact == NULL || transposed3 == NULL || transposed2 == NULL) {
        PyMem_Free(compact);
        PyMem_Free(transposed3);
        PyMem_Free(transposed2);
        PyBuffer_Release(&ids);
        PyBuffer_Release(&join2);
        PyBuffer_Release(&join3);
        PyBuffer_Release(&final3);
        PyBuffer_Release(&final2);
        return PyErr_NoMemory();
    }
    /* Patterns of more than 14 tiles have no frontier (an id past them): only a draw onto a
     * rank held four times reaches one, never counted (no copy unseen), but the look-ups that
     * follow must stay inside the tables. */
    const uint16_t *interleaved = (const uint16_t *)ids.buf;
    for (long i = 0; i < PATTERNS; i++) {
        uint16_t id = interleaved[2 * i + 1];
        compact[i] = id < suits ? id : (uint16_t)(suits - 1);
    }
    for (long t = 0; t < triples; t++)
        for (int h = 0; h < CONTEXTS; h++)
            transposed3[h * triples + t] = ((const int8_t *)final3.buf)[t * CONTEXTS + h];
    for (long t = 0; t < pairs; t++)
        for (int h = 0; h < CONTEXTS; h++)
            transposed2[h * pairs + t] = ((const int8_t *)final2.buf)[t * CONTEXTS + h];
    PyBuffer_Release(&ids);
    release_tables();
    full_ids = compact;
    by_context3 = transposed3;
    by_context2 = transposed2;
    triple_count = triples;
    pair_count = pairs;
    join2_buffer = join2;
    join3_buffer = join3;
    final3_buffer = final3;
    final2_buffer = final2;
    suit_frontiers = suits;
    loaded = 1;
    Py_RETURN_NONE;
}

/* One (decision, discard) row: the hand after the discard. */
typedef struct {
    int kind, number, context, whole, melds, pairs, singles;
    int pairs_number, orphans_number, kinds_held, terms_paired;
    int pattern[3], ids[3];
    int count;
} Row;

/* What a closed hand's draws can do besides the regular shape's: a row whose seven pairs
 * (or thirteen orphans) has its number. */
typedef struct {
    int pairs_at, orphans_at, few_kinds, no_orphan_pair;
} Closed;

/* Whether drawing ``kind``, held ``left`` times after the discard, lowers seven pairs (it pairs
 * a single, or adds a kind to fewer than seven) or thirteen orphans (it adds an orphan kind, or
 * pairs one where none is), where that shape has the row's number. Without branches: the draws'
 * outcomes are as good as random, and a mispredicted branch cost more than the look-ups. */
static inline int closed_lowers(const Closed *closed, int kind, int left) {
    int by_pairs = closed->pairs_at & ((left == 1) | ((left == 0) & closed->few_kinds));
    int by_orphans = closed->orphans_at & is_orphan(kind)
                     & ((left == 0) | ((left == 1) & closed->no_orphan_pair));
    return by_pairs | by_orphans;
}

/* The value of one decision; 0 when it is left to Python. */
static int value_decision(const uint8_t *counts, const uint8_t *seen, int discarded,
                          uint64_t allowed, const uint8_t *copies, int three_player,
                          int *loss, int *lowest_out, int *left_out) {
    const uint16_t *join2 = (const uint16_t *)join2_buffer.buf;
    const uint16_t *join3 = (const uint16_t *)join3_buffer.buf;
    const int8_t *final = (const int8_t *)(three_player ? final2_buffer.buf : final3_buffer.buf);
    const long S = suit_frontiers;
    static const int suits4[3] = {0, 1, 2}, suits3[2] = {1, 2};
    const int *suits = three_player ? suits3 : suits4;
    const int places = three_player ? 2 : 3;
    int column[KINDS];
    int honours[9], honour_count = 0;
    int total = 0;
    for (int k = 0; k < KINDS; k++) {
        if (counts[k] > 4) return 0;
        total += counts[k];
        column[k] = -1;
    }
    if (total % 3 != 2 || total > 14) return 0;
    for (int place = 0; place < places; place++)
        for (int r = 0; r < 9; r++) column[9 * suits[place] + r] = place;
    if (three_player) {
        for (int k = 1; k < 8; k++)
            if (counts[k]) return 0;
        honours[honour_count++] = 0;
        honours[honour_count++] = 8;
    }
    for (int k = EAST; k < KINDS; k++) honours[honour_count++] = k;
    int melds = 0, pairs = 0, singles = 0;
    for (int i = 0; i < honour_count; i++) {
        int c = counts[honours[i]];
        if (c == 4) return 0;
        melds += c == 3;
        pairs += c == 2;
        singles += c == 1;
    }
    if (discarded < 0 || discarded >= KINDS || !counts[discarded] || !(allowed >> discarded & 1))
        return 0;
    const int calls = (14 - total) / 3;
    int pattern[3] = {0, 0, 0};
    for (int place = 0; place < places; place++)
        for (int r = 0; r < 9; r++) pattern[place] += counts[9 * suits[place] + r] * POW5[r];
    int ids[3];
    for (int place = 0; place < places; place++) ids[place] = full_id(pattern[place]);
    int held_pairs = 0, kinds_held = 0, terms = 0, terms_paired = 0;
    int unseen[KINDS];
    for (int k = 0; k < KINDS; k++) {
        int c = counts[k];
        held_pairs += c >= 2;
        kinds_held += c > 0;
        terms += is_orphan(k) && c > 0;
        terms_paired += is_orphan(k) && c >= 2;
        int left = (int)copies[k] - (int)seen[k] - c;
        unseen[k] = left > 0 ? left : 0;
    }

    Row rows[KINDS];
    int row_count = 0, lowest = 99, made = -1;
    for (int k = 0; k < KINDS; k++) {
        if (!counts[k] || !(allowed >> k & 1)) continue;
        Row *row = &rows[row_count];
        int had = counts[k], place = column[k];
        row->kind = k;
        for (int p = 0; p < places; p++) row->pattern[p] = pattern[p];
        if (place >= 0) row->pattern[place] -= POW5[k % 9];
        for (int p = 0; p < places; p++) row->ids[p] = ids[p];
        if (place >= 0) row->ids[place] = full_id(row->pattern[place]);
        row->melds = melds;
        row->pairs = pairs;
        row->singles = singles;
        if (place < 0) {
            row->melds -= had == 3;
            row->pairs += (had == 3) - (had == 2);
            row->singles += (had == 2) - (had == 1);
        }
        row->context = honour_context(row->melds, row->pairs, row->singles, 0, calls);
        int pair = join2[row->ids[0] * S + row->ids[1]];
        row->whole = three_player ? pair : join3[pair * S + row->ids[2]];
        int number = final[row->whole * CONTEXTS + row->context];
        int orphan = is_orphan(k);
        row->kinds_held = kinds_held - (had == 1);
        row->terms_paired = terms_paired - orphan * (had == 2);
        int held_pairs_left = held_pairs - (had == 2);
        int seven = 7 - row->kinds_held > 0 ? 7 - row->kinds_held : 0;
        row->pairs_number = held_pairs_left == 7 ? -1 : 6 - held_pairs_left + seven;
        row->orphans_number = 13 - (terms - orphan * (had == 1)) - (row->terms_paired > 0);
        if (calls == 0) {
            if (row->pairs_number < number) number = row->pairs_number;
            if (row->orphans_number < number) number = row->orphans_number;
        }
        row->number = number;
        row->count = -1;
        if (number < lowest) lowest = number;
        if (k == discarded) made = row_count;
        row_count++;
    }

    int grown[3][9];
    for (int place = 0; place < places; place++) grow(pattern[place], grown[place]);
    int best = -1;
    for (int i = 0; i < row_count; i++) {
        Row *row = &rows[i];
        if (row->number != lowest) continue;
        const int number = row->number;
        const Closed closed = {
            calls == 0 && row->pairs_number == number,
            calls == 0 && row->orphans_number == number,
            row->kinds_held < 7,
            row->terms_paired == 0,
        };
        const int8_t *slab = three_player ? by_context2 + row->context * pair_count
                                          : by_context3 + row->context * triple_count;
        int count = 0;
        for (int place = 0; place < places; place++) {
            /* The other suits joined, and the table that joins them with this one's growth. */
            const uint16_t *join;
            int base;
            if (three_player) {
                base = row->ids[1 - place];
                join = join2;
            } else {
                int a = place == 0 ? 1 : 0, b = place == 2 ? 1 : 2;
                base = join2[row->ids[a] * S + row->ids[b]];
                join = join3;
            }
            /* The suit's pattern grown by each draw: the decision's own (looked up once) unless
             * this row discards from this suit. Each step's nine look-ups are independent, so
             * they are made together: the misses of the large tables overlap. */
            const int *grown_ids = grown[place];
            int own_ids[9];
            if (column[row->kind] == place) {
                grow(row->pattern[place], own_ids);
                grown_ids = own_ids;
            }
            const uint16_t *joins = join + base * S;
            int joined[9];
            for (int r = 0; r < 9; r++) joined[r] = joins[grown_ids[r]];
            for (int r = 0; r < 9; r++) {
                int t = 9 * suits[place] + r;
                int left = counts[t] - (t == row->kind);
                count += unseen[t] & -((slab[joined[r]] < number) | closed_lowers(&closed, t, left));
            }
        }
        for (int h = 0; h < honour_count; h++) {
            int t = honours[h];
            if (!unseen[t]) continue;
            int before = counts[t] - (t == row->kind);
            int context = honour_context(row->melds + (before == 2),
                                         row->pairs + (before == 1) - (before == 2),
                                         row->singles + (before == 0) - (before == 1),
                                         before == 3, calls);
            int lowers = final[row->whole * CONTEXTS + context] < number;
            count += unseen[t] & -(lowers | closed_lowers(&closed, t, before));
        }
        row->count = count;
        if (count > best) best = count;
    }
    *loss = rows[made].number == lowest ? best - rows[made].count : -1;
    *lowest_out = lowest;
    *left_out = rows[made].number;
    return 1;
}

static PyObject *outcomes(PyObject *self, PyObject *args) {
    Py_buffer counts, seen, discarded, allowed, copies;
    int three_player;
    if (!loaded) {
        PyErr_SetString(PyExc_RuntimeError, "no tables: call load() first");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*p", &counts, &seen, &discarded, &allowed, &copies,
                          &three_player))
        return NULL;
    PyObject *out = NULL;
    Py_ssize_t n = discarded.len;
    if (counts.len != n * KINDS || seen.len != n * KINDS || allowed.len != n * 8
        || copies.len != KINDS) {
        PyErr_SetString(PyExc_ValueError, "buffers of different numbers of decisions");
        goto done;
    }
    out = PyList_New(n);
    if (out == NULL) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        const uint8_t *mask_bytes = (const uint8_t *)allowed.buf + 8 * i;
        uint64_t mask = 0;
        for (int b = 7; b >= 0; b--) mask = mask << 8 | mask_bytes[b];
        int loss, lowest, left;
        PyObject *item;
        if (value_decision((const uint8_t *)counts.buf + KINDS * i,
                           (const uint8_t *)seen.buf + KINDS * i,
                           ((const uint8_t *)discarded.buf)[i], mask,
                           (const uint8_t *)copies.buf, three_player, &loss, &lowest, &left)) {
            PyObject *first = loss < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(loss);
            item = first == NULL ? NULL
                                 : Py_BuildValue("(Nii)", first, lowest, left);
        } else {
            item = Py_NewRef(Py_None);
        }
        if (item == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, item);
    }
done:
    PyBuffer_Release(&counts);
    PyBuffer_Release(&seen);
    PyBuffer_Release(&discarded);
    PyBuffer_Release(&allowed);
    PyBuffer_Release(&copies);
    return out;
}

static PyMethodDef methods[] = {
    {"load", load, METH_VARARGS, "Keep the shanten tables the look-ups read."},
    {"outcomes", outcomes, METH_VARARGS, "Each decision's (loss, lowest, left), or None."},
    {NULL, NULL, 0, NULL},
};

static void free_module(void *module) { release_tables(); }

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "acceptance_kernel", "The study's decisions valued in C.", -1, methods,
    NULL, NULL, NULL, free_module,
};

PyMODINIT_FUNC PyInit_acceptance_kernel(void) { return PyModule_Create(&module); }
