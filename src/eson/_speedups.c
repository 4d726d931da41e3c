/*
 * eson._speedups -- the optional C accelerator of typed-eson.
 *
 * The Python modules stay the reference.  Every function here either gives
 * exactly the result of the Python code it stands in for, or returns None
 * ("not handled"), and the caller then runs the Python code, which produces
 * the value or raises the error.  Nothing here raises a library error: the
 * only exceptions are TypeError for calls that break the internal contract
 * and MemoryError.
 *
 * Pieces, in the order of the data path:
 *
 *   Writer          a growable text buffer that widens its character kind
 *                   (1, 2 or 4 bytes) only when a wider character arrives.
 *   numbers         ESON float text (Number#toString with a kept ".0"), an
 *                   exact shortest-digits fast path checked by division, and
 *                   CPython's own repr digits otherwise; float reading with
 *                   the exact small-mantissa path, else CPython's strtod.
 *   cells           the bare-string rule and JSON quoting of ESON cells,
 *                   one cell of a plain value to text and text to value.
 *   encode_rows     a record array's rows (msgspec slots by offset,
 *                   instance __dict__, or plain dicts) to the body text.
 *   decode_rows     a record array's body lines to columns of values.
 *
 * Strings are read through PyUnicode_READ on their own kind, never through
 * UTF-8, so lone surrogates pass through like any other code point.  Every
 * loop is linear in its input.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h> /* the digits of an int (Python.h has them from 3.11) */
#endif
#include <float.h>
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if PY_VERSION_HEX < 0x030C0000
#define READY(o) (PyUnicode_READY(o) == 0)
#else
#define READY(o) 1
#endif

/* Whether IEEE double arithmetic rounds each operation once (true on every
 * platform with SSE2 or equivalent; false with x87 extended precision). */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#define EXACT_DOUBLE_OPS 0
#else
#define EXACT_DOUBLE_OPS 1
#endif

/* Value-type masks of a column (the Python side passes the same bits). */
#define V_STR 1
#define V_INT 2
#define V_FLOAT 4
#define V_BOOL 8
#define V_NONE 16
#define V_ALL 31
/* In a read_structs kind: an int cell becomes a float (a float field of a
 * framework that takes an int for it, as msgspec does). */
#define V_INT_AS_FLOAT 32

/* Most digits of an integer read as a C long long (eson_lexicon.SHORT_INT_DIGITS). */
#define SHORT_INT_DIGITS 18
/* decode_rows/toon_rows flag of a column left as cell texts. */
#define F_RAW 2

static const double POW10[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* ------------------------------------------------------------------ writer */

/* The text is written straight into the str that is returned: a compact
 * str of the class (ASCII, Latin-1, UCS-2, UCS-4) of the largest character
 * written so far, grown with PyUnicode_Resize and shrunk to its length at
 * the end, so the finished text is never copied.  A wider character
 * re-encodes what is there into a str of the wider class (once per class). */
typedef struct {
    char *data;        /* the character data of str */
    PyObject *str;     /* the str being written (NULL before the first reserve) */
    int kind;          /* 1, 2 or 4: the kind of str */
    Py_UCS4 maxchar;   /* at least the largest character written */
    Py_ssize_t len;
    Py_ssize_t cap;    /* the length str has while it is written */
} Writer;

static void
w_init(Writer *w)
{
    w->data = NULL;
    w->str = NULL;
    w->kind = 1;
    w->maxchar = 0;
    w->len = 0;
    w->cap = 0;
}

static void
w_free(Writer *w)
{
    Py_CLEAR(w->str);
    w->data = NULL;
}

/* The largest character of the class of c (what PyUnicode_New takes). */
static inline Py_UCS4
class_top(Py_UCS4 c)
{
    return c < 128 ? 127 : (c < 256 ? 255 : (c < 65536 ? 0xFFFF : 0x10FFFF));
}

/* A new str of capacity cap and of the class of maxchar, holding what was
 * written (re-encoded when the kind changes). */
static int
w_rebuild(Writer *w, Py_ssize_t cap)
{
    PyObject *s = PyUnicode_New(cap, class_top(w->maxchar));
    if (s == NULL)
        return -1;
    int kind = PyUnicode_KIND(s);
    char *data = PyUnicode_DATA(s);
    if (w->str != NULL) {
        if (kind == w->kind) {
            memcpy(data, w->data, (size_t)w->len * (size_t)kind);
        }
        else {
            for (Py_ssize_t i = 0; i < w->len; i++)
                PyUnicode_WRITE(kind, data, i, PyUnicode_READ(w->kind, w->data, i));
        }
        Py_DECREF(w->str);
    }
    w->str = s;
    w->data = data;
    w->kind = kind;
    w->cap = cap;
    return 0;
}

static int w_grow(Writer *w, Py_ssize_t extra);

/* Room for extra more characters (the common case inline, growth apart). */
static inline int
w_reserve(Writer *w, Py_ssize_t extra)
{
    if (w->len + extra <= w->cap)
        return 0;
    return w_grow(w, extra);
}

static int
w_grow(Writer *w, Py_ssize_t extra)
{
    if (extra > PY_SSIZE_T_MAX / 8 - w->len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t cap = w->cap ? w->cap : 256;
    while (cap < w->len + extra)
        cap *= 2;
    if (w->str == NULL)
        return w_rebuild(w, cap);
    /* The str is new and ours alone (one reference, never hashed), which
     * is what PyUnicode_Resize needs to resize it in place. */
    if (PyUnicode_Resize(&w->str, cap) < 0)
        return -1;
    w->data = PyUnicode_DATA(w->str);
    w->cap = cap;
    return 0;
}

/* Note that characters up to top will be written: a str of a wider class
 * when top needs one. */
static int
w_raise(Writer *w, Py_UCS4 top)
{
    if (top <= w->maxchar)
        return 0;
    Py_UCS4 before = class_top(w->maxchar);
    w->maxchar = top;
    if (class_top(top) == before)
        return 0;
    if (w->str == NULL) {
        w->kind = top < 256 ? 1 : (top < 65536 ? 2 : 4);
        return 0;
    }
    return w_rebuild(w, w->cap);
}

static inline int
w_char(Writer *w, Py_UCS4 c)
{
    if (c > w->maxchar && w_raise(w, c) < 0)
        return -1;
    if (w_reserve(w, 1) < 0)
        return -1;
    PyUnicode_WRITE(w->kind, w->data, w->len, c);
    w->len++;
    return 0;
}

static inline int
w_ascii(Writer *w, const char *s, Py_ssize_t n)
{
    if (w_reserve(w, n) < 0)
        return -1;
    if (w->kind == 1) {
        /* Mostly a few characters (numbers, literals): copied here rather
         * than by a call of memcpy. */
        char *dst = w->data + w->len;
        if (n <= 32) {
            for (Py_ssize_t i = 0; i < n; i++)
                dst[i] = s[i];
        }
        else {
            memcpy(dst, s, (size_t)n);
        }
    }
    else {
        for (Py_ssize_t i = 0; i < n; i++)
            PyUnicode_WRITE(w->kind, w->data, w->len + i, (Py_UCS4)(unsigned char)s[i]);
    }
    w->len += n;
    return 0;
}

/* Append characters [start, end) of a str. */
static int
w_slice(Writer *w, PyObject *u, Py_ssize_t start, Py_ssize_t end)
{
    int kind = PyUnicode_KIND(u);
    const void *src = PyUnicode_DATA(u);
    Py_ssize_t n = end - start;
    if (n <= 0)
        return 0;
    Py_UCS4 top;
    if (PyUnicode_IS_ASCII(u))
        top = 127;
    else
        top = kind == 1 ? 255 : (kind == 2 ? 0xFFFF : 0x10FFFF);
    if (top > w->maxchar) {
        /* The str is canonical: it holds a character needing its kind, but
         * a slice may not; widen only for a character actually present. */
        if (!(start == 0 && end == PyUnicode_GET_LENGTH(u))) {
            Py_UCS4 m = 0;
            for (Py_ssize_t i = start; i < end; i++) {
                Py_UCS4 c = PyUnicode_READ(kind, src, i);
                if (c > m)
                    m = c;
            }
            top = m;
        }
        if (w_raise(w, top) < 0)
            return -1;
    }
    if (w_reserve(w, n) < 0)
        return -1;
    if (kind == w->kind) {
        memcpy(w->data + (size_t)w->len * (size_t)kind,
               (const char *)src + (size_t)start * (size_t)kind, (size_t)n * (size_t)kind);
    }
    else {
        for (Py_ssize_t i = 0; i < n; i++)
            PyUnicode_WRITE(w->kind, w->data, w->len + i, PyUnicode_READ(kind, src, start + i));
    }
    w->len += n;
    return 0;
}

static int
w_str(Writer *w, PyObject *u)
{
    return w_slice(w, u, 0, PyUnicode_GET_LENGTH(u));
}

/* The written text as a new canonical str; the writer is freed. */
static PyObject *
w_finish(Writer *w)
{
    if (w->str == NULL || w->len == 0) {
        w_free(w);
        return PyUnicode_New(0, 0);
    }
    /* The class of str is that of maxchar, and every writer raises maxchar
     * only for a character it writes as itself: the str is canonical. */
    PyObject *out;
    if ((w->cap - w->len) * 8 <= w->cap) {
        /* Little room left over: the str keeps its allocation and takes
         * the written length (what PyUnicode_Resize would do, without
         * the realloc).  Shrinking a large block with realloc hands back
         * its pages, and the next text of the same size faults them in
         * again. */
        out = w->str;
        ((PyASCIIObject *)out)->length = w->len;
        PyUnicode_WRITE(w->kind, w->data, w->len, 0);
    }
    else {
        /* Much room left over: a str of the exact size (one copy). */
        out = PyUnicode_New(w->len, class_top(w->maxchar));
        if (out == NULL) {
            w_free(w);
            return NULL;
        }
        memcpy(PyUnicode_DATA(out), w->data, (size_t)w->len * (size_t)w->kind);
        Py_DECREF(w->str);
    }
    w->str = NULL;
    w->data = NULL;
    return out;
}

/* ----------------------------------------------------------------- numbers */

/* 10^n for the digit count of u64_digits (10^19 the last that fits). */
static const unsigned long long U64_POW10_FOR_COUNT[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
    100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
    10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};

/* Decimal digits of an unsigned 64-bit integer; returns the count. */
static const char DIGIT_PAIRS[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static inline int
u64_count(unsigned long long v)
{
    int n = 1;
    while (n < 20 && v >= U64_POW10_FOR_COUNT[n])
        n++;
    return n;
}

static int
u64_digits(unsigned long long v, char *out)
{
    int n = u64_count(v);
    char *p = out + n;
    while (v >= 100) {
        unsigned int pair = (unsigned int)(v % 100) * 2;
        v /= 100;
        *--p = DIGIT_PAIRS[pair + 1];
        *--p = DIGIT_PAIRS[pair];
    }
    if (v >= 10) {
        *--p = DIGIT_PAIRS[v * 2 + 1];
        *--p = DIGIT_PAIRS[v * 2];
    }
    else {
        *--p = (char)('0' + (int)v);
    }
    return n;
}

/* The value of an exact int of one internal digit (most ints), read
 * without a call; 0 for others (PyLong_AsLongLongAndOverflow reads them). */
static inline int
compact_long(PyObject *v, long long *out)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)v))
        return 0;
    *out = (long long)PyUnstable_Long_CompactValue((PyLongObject *)v);
    return 1;
#else
    Py_ssize_t size = Py_SIZE(v);
    if (size < -1 || size > 1)
        return 0;
    long long digit = size ? (long long)((PyLongObject *)v)->ob_digit[0] : 0;
    *out = size < 0 ? -digit : digit;
    return 1;
#endif
}

static int
w_longlong(Writer *w, long long v)
{
    char buf[24];
    int n = 0;
    unsigned long long u;
    if (v < 0) {
        buf[n++] = '-';
        u = (unsigned long long)(-(v + 1)) + 1;
    }
    else {
        u = (unsigned long long)v;
    }
    n += u64_digits(u, buf + n);
    return w_ascii(w, buf, n);
}

/*
 * The shortest decimal text of a finite double x with 1e-6 <= |x| < 2**52,
 * in fixed notation, when it has at most 22 decimals and fits in 53 bits;
 * returns the length written to out, or 0 (not handled).
 *
 * For k = 0, 1, ... let m be the integer nearest to |x| 10^k (computed).
 * The decimal m e-k reads back as x exactly when the one correctly rounded
 * division m / 10^k gives |x| (m and 10^k are exact doubles, so the
 * quotient is the correctly rounded value of the decimal, as strtod gives
 * it).  The first k with a hit gives the fewest digits.  Only k with
 * ulp(x) 10^k < 1/16 are tried (the loop stops at the first other k): any
 * decimal with k digits that reads back as x then lies within 1/32 of
 * |x| 10^k, which the computed product misses by at most 1/16, so m is the
 * only candidate, no other k-digit decimal reads back as x, and the text
 * is the unique shortest one -- what CPython's repr produces.  Any other
 * case returns 0 and the caller uses repr.
 */
static const unsigned long long U64_POW10[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
    100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
    10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};

#if EXACT_DOUBLE_OPS
/* The test of fixed_shortest at one k: 1 and *m when m / 10^k is the
 * k-digit decimal of a; 0 when no k-digit decimal is; -1 when the fast path
 * cannot decide at this k or any larger one. */
static inline int
fixed_at(double a, double ulp, int k, unsigned long long *m)
{
    if (!(ulp * POW10[k] < 0.0625))
        return -1;
    double scaled = a * POW10[k];
    if (scaled >= 9007199254740992.0)
        return -1;
    double m0 = (double)(long long)(scaled + 0.5);
    if (fabs(scaled - m0) > 0.09375 || m0 / POW10[k] != a)
        return 0;
    *m = (unsigned long long)m0;
    return 1;
}

/* The k of the last float written: numbers of one column tend to share it.
 * Only a starting guess (any value gives the same text); the GIL orders
 * its use. */
static int float_hint = 0;
#endif

static int
fixed_shortest(double x, char *out)
{
#if EXACT_DOUBLE_OPS
    double a = fabs(x);
    if (!(a >= 1e-6 && a < 4503599627370496.0))
        return 0;
    /* ulp(a): a normal double (a >= 1e-6), so 2^(exponent - 52). */
    unsigned long long bits;
    memcpy(&bits, &a, sizeof bits);
    unsigned long long ulp_bits = ((bits >> 52) & 0x7FF) >= 53 ? ((bits >> 52) - 52) << 52 : 0;
    double ulp;
    memcpy(&ulp, &ulp_bits, sizeof ulp);
    if (ulp_bits == 0)
        return 0;
    unsigned long long m = 0;
    int k = float_hint;
    /* A decimal found at the hinted k is the only k-digit one (see above);
     * a shorter one would be it with its trailing zeros dropped, so
     * dropping them gives what the search from k = 0 finds first. */
    if (k > 0 && k <= 22 && fixed_at(a, ulp, k, &m) == 1) {
        while (k > 0 && m % 10 == 0) {
            m /= 10;
            k--;
        }
    }
    else {
        for (k = 0;; k++) {
            if (k > 22)
                return 0;
            int rc = fixed_at(a, ulp, k, &m);
            if (rc < 0)
                return 0;
            if (rc)
                break;
        }
        float_hint = k;
    }
    unsigned long long scale = U64_POW10[k < 20 ? k : 19];
    if (k >= 20) {
        /* m < 2^53 < 10^16: the whole part is 0 and the fraction is m. */
        scale = 0;
    }
    unsigned long long whole = scale ? m / scale : 0, frac = scale ? m % scale : m;
    int n = 0;
    if (x < 0)
        out[n++] = '-';
    n += u64_digits(whole, out + n);
    out[n++] = '.';
    if (k == 0) {
        out[n++] = '0';
    }
    else {
        char digits[24];
        int count = u64_digits(frac, digits);
        for (int i = count; i < k; i++)
            out[n++] = '0';
        memcpy(out + n, digits, (size_t)count);
        n += count;
    }
    return n;
#else
    (void)x;
    (void)out;
    return 0;
#endif
}

/*
 * ESON float text (eson._internal.wire.eson_numbers.format_float): repr when it has
 * no exponent, else the JavaScript layout of repr's digits.  -1 with no
 * error set for NaN and infinities (the Python code raises for those).
 */
static int
w_float(Writer *w, double x)
{
    char buf[64];
    if (!isfinite(x))
        return -1;
    if (x == 0.0)
        return w_ascii(w, signbit(x) ? "-0.0" : "0.0", signbit(x) ? 4 : 3);
    int n = fixed_shortest(x, buf);
    if (n)
        return w_ascii(w, buf, n);
    char *text = PyOS_double_to_string(x, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    if (text == NULL)
        return -2;
    const char *e = strchr(text, 'e');
    if (e == NULL) {
        int rc = w_ascii(w, text, (Py_ssize_t)strlen(text));
        PyMem_Free(text);
        return rc < 0 ? -2 : 0;
    }
    /* Python's exponent repr ("1e-07", "1.5e+16") in JavaScript's layout. */
    const char *p = text;
    int negative = 0;
    if (*p == '-') {
        negative = 1;
        p++;
    }
    char digits[32];
    int count = 0;
    for (; p < e; p++) {
        if (*p != '.' && count < 30)
            digits[count++] = *p;
    }
    long exponent = strtol(e + 1, NULL, 10);
    PyMem_Free(text);
    long point = exponent + 1;
    n = 0;
    if (negative)
        buf[n++] = '-';
    if (count <= point && point <= 21) {
        memcpy(buf + n, digits, (size_t)count);
        n += count;
        for (long i = count; i < point; i++)
            buf[n++] = '0';
        buf[n++] = '.';
        buf[n++] = '0';
    }
    else if (0 < point && point <= 21) {
        memcpy(buf + n, digits, (size_t)point);
        n += (int)point;
        buf[n++] = '.';
        memcpy(buf + n, digits + point, (size_t)(count - point));
        n += count - (int)point;
    }
    else if (-6 < point && point <= 0) {
        buf[n++] = '0';
        buf[n++] = '.';
        for (long i = 0; i < -point; i++)
            buf[n++] = '0';
        memcpy(buf + n, digits, (size_t)count);
        n += count;
    }
    else {
        long power = point - 1;
        buf[n++] = digits[0];
        if (count > 1) {
            buf[n++] = '.';
            memcpy(buf + n, digits + 1, (size_t)(count - 1));
            n += count - 1;
        }
        buf[n++] = 'e';
        buf[n++] = power >= 0 ? '+' : '-';
        n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%ld", power < 0 ? -power : power);
    }
    return w_ascii(w, buf, n) < 0 ? -2 : 0;
}

/*
 * Read a float from ASCII text that matched the JSON number grammar and
 * holds a fraction or an exponent.  Exact: a mantissa of at most 15 digits
 * with a power of ten up to 22 is one correctly rounded operation on exact
 * doubles; anything else goes through CPython's correctly rounded strtod.
 * Returns 0, or -1 with an error set; *out is infinite on overflow.
 */
static int
parse_float_ascii(const char *s, Py_ssize_t n, double *out)
{
#if EXACT_DOUBLE_OPS
    unsigned long long mant = 0;
    int digits = 0, frac_digits = 0, negative = 0, exp_negative = 0;
    long exponent = 0;
    Py_ssize_t i = 0;
    int ok = 1;
    if (i < n && s[i] == '-') {
        negative = 1;
        i++;
    }
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        if (mant || s[i] != '0')
            digits++;
        mant = mant * 10 + (unsigned long long)(s[i] - '0');
        if (digits > 15) {
            ok = 0;
            break;
        }
    }
    if (ok && i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            if (mant || s[i] != '0')
                digits++;
            mant = mant * 10 + (unsigned long long)(s[i] - '0');
            frac_digits++;
            if (digits > 15 || frac_digits > 400) {
                ok = 0;
                break;
            }
        }
    }
    if (ok && i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) {
            exp_negative = s[i] == '-';
            i++;
        }
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            exponent = exponent * 10 + (s[i] - '0');
            if (exponent > 100000) {
                ok = 0;
                break;
            }
        }
    }
    if (ok && i == n) {
        long e10 = (exp_negative ? -exponent : exponent) - frac_digits;
        double value = (double)mant;
        if (mant == 0) {
            *out = negative ? -0.0 : 0.0;
            return 0;
        }
        if (e10 >= -22 && e10 <= 22) {
            value = e10 < 0 ? value / POW10[-e10] : value * POW10[e10];
            *out = negative ? -value : value;
            return 0;
        }
    }
#endif
    char small[64];
    char *buf = small;
    if (n >= (Py_ssize_t)sizeof(small)) {
        buf = PyMem_Malloc((size_t)n + 1);
        if (buf == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    memcpy(buf, s, (size_t)n);
    buf[n] = '\0';
    char *end = NULL;
    double value = PyOS_string_to_double(buf, &end, NULL);
    int bad = end != buf + n;
    if (buf != small)
        PyMem_Free(buf);
    if (value == -1.0 && PyErr_Occurred())
        return -1;
    if (bad) {
        PyErr_SetString(PyExc_SystemError, "float text did not parse whole");
        return -1;
    }
    *out = value;
    return 0;
}

/* ------------------------------------------------------------------- cells */

/* JavaScript's String.prototype.trim set (ESON's edge white space). */
static inline int
is_js_space(Py_UCS4 c)
{
    if (c < 128)
        return c == ' ' || (c >= 9 && c <= 13);
    return c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
           c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

/* Never inside a bare cell: TAB, LF, CR, U+2028, U+2029 and surrogates
 * (eson_lexicon.UNSAFE_INSIDE_CLASS).  Latin-1 text uses LINE_BREAKS. */
static inline int
is_unsafe_inside(Py_UCS4 c)
{
    return c == '\t' || c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029 ||
           (c >= 0xD800 && c <= 0xDFFF);
}

/* The first character of a quoted string, an array or an object (eson_lexicon.JSON_START). */
static inline int
is_json_start(Py_UCS4 c)
{
    return c == '"' || c == '[' || c == '{';
}

/* The first character of a JSON number (eson_lexicon.NUMBER_START). */
static inline int
is_number_start(Py_UCS4 c)
{
    return c == '-' || (c >= '0' && c <= '9');
}

/* The digits from i on: the index after the last one (i itself when there is none). */
static inline Py_ssize_t
skip_digits(int kind, const void *data, Py_ssize_t i, Py_ssize_t e)
{
    Py_UCS4 c;
    while (i < e && (c = PyUnicode_READ(kind, data, i)) >= '0' && c <= '9')
        i++;
    return i;
}

/* The tail every number grammar here shares, from i: an optional fraction
 * ('.' and digits) and an optional exponent ([eE][+-]? and digits).  Returns
 * the index after it, or -1 for a '.' or an exponent without digits; sets
 * *fraction when either is present. */
static inline Py_ssize_t
skip_number_tail(int kind, const void *data, Py_ssize_t i, Py_ssize_t e, int *fraction)
{
    Py_UCS4 c;
    if (i < e && PyUnicode_READ(kind, data, i) == '.') {
        Py_ssize_t start = ++i;
        if ((i = skip_digits(kind, data, i, e)) == start)
            return -1;
        *fraction = 1;
    }
    if (i < e && ((c = PyUnicode_READ(kind, data, i)) == 'e' || c == 'E')) {
        i++;
        if (i < e && ((c = PyUnicode_READ(kind, data, i)) == '+' || c == '-'))
            i++;
        Py_ssize_t start = i;
        if ((i = skip_digits(kind, data, i, e)) == start)
            return -1;
        *fraction = 1;
    }
    return i;
}

/* Whether chars [s, e) of (kind, data) fully match the JSON number grammar;
 * *fraction is set when it holds a '.' or an exponent. */
static int
match_number(int kind, const void *data, Py_ssize_t s, Py_ssize_t e, int *fraction)
{
    Py_ssize_t i = s;
    *fraction = 0;
    if (i < e && PyUnicode_READ(kind, data, i) == '-')
        i++;
    if (i >= e)
        return 0;
    Py_UCS4 c = PyUnicode_READ(kind, data, i);
    if (c == '0')
        i++;
    else if (c >= '1' && c <= '9')
        i = skip_digits(kind, data, i + 1, e);
    else
        return 0;
    return skip_number_tail(kind, data, i, e, fraction) == e;
}

static int
equals_ascii(int kind, const void *data, Py_ssize_t s, Py_ssize_t e, const char *word)
{
    Py_ssize_t n = (Py_ssize_t)strlen(word);
    if (e - s != n)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyUnicode_READ(kind, data, s + i) != (Py_UCS4)(unsigned char)word[i])
            return 0;
    }
    return 1;
}

static int
is_literal(int kind, const void *data, Py_ssize_t s, Py_ssize_t e)
{
    return equals_ascii(kind, data, s, e, "null") || equals_ascii(kind, data, s, e, "true") ||
           equals_ascii(kind, data, s, e, "false");
}

/* TAB, LF and CR: never inside a bare cell. */
static const unsigned char LINE_BREAKS[256] = {['\t'] = 1, ['\n'] = 1, ['\r'] = 1};

#if defined(__SSE2__)
/* The lanes of a block of UCS-2 (UCS-4) characters written as \uXXXX:
 * U+2028, U+2029 and surrogates (WIDE_ESCAPED; never in a bare cell). */
static inline __m128i
wide_escaped16(__m128i v)
{
    __m128i sep = _mm_cmpeq_epi16(_mm_and_si128(v, _mm_set1_epi16((short)0xFFFE)),
                                  _mm_set1_epi16(0x2028));
    __m128i sur = _mm_cmpeq_epi16(_mm_and_si128(v, _mm_set1_epi16((short)0xF800)),
                                  _mm_set1_epi16((short)0xD800));
    return _mm_or_si128(sep, sur);
}

static inline __m128i
wide_escaped32(__m128i v)
{
    __m128i sep = _mm_cmpeq_epi32(_mm_and_si128(v, _mm_set1_epi32(~1)), _mm_set1_epi32(0x2028));
    __m128i sur = _mm_cmpeq_epi32(_mm_and_si128(v, _mm_set1_epi32(~0x7FF)),
                                  _mm_set1_epi32(0xD800));
    return _mm_or_si128(sep, sur);
}

/* The lanes of a block of UCS-2 (UCS-4) characters that are never inside
 * a bare cell: TAB, LF, CR, U+2028, U+2029, surrogates. */
static inline __m128i
unsafe16(__m128i v)
{
    __m128i breaks = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi16(v, _mm_set1_epi16('\t')),
                                               _mm_cmpeq_epi16(v, _mm_set1_epi16('\n'))),
                                  _mm_cmpeq_epi16(v, _mm_set1_epi16('\r')));
    return _mm_or_si128(breaks, wide_escaped16(v));
}

static inline __m128i
unsafe32(__m128i v)
{
    __m128i breaks = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi32(v, _mm_set1_epi32('\t')),
                                               _mm_cmpeq_epi32(v, _mm_set1_epi32('\n'))),
                                  _mm_cmpeq_epi32(v, _mm_set1_epi32('\r')));
    return _mm_or_si128(breaks, wide_escaped32(v));
}
#endif

/* Whether a UCS-2 or UCS-4 text of n characters holds a character that is
 * never inside a bare cell (is_unsafe_inside): 16 bytes a step (SSE2). */
static int
has_unsafe_inside(int kind, const void *data, Py_ssize_t n)
{
    Py_ssize_t i = 0;
#if defined(__SSE2__)
    if (kind == 2) {
        const Py_UCS2 *p = data;
        for (; i + 8 <= n; i += 8) {
            if (_mm_movemask_epi8(unsafe16(_mm_loadu_si128((const __m128i *)(p + i)))))
                return 1;
        }
    }
    else {
        const Py_UCS4 *p = data;
        for (; i + 4 <= n; i += 4) {
            if (_mm_movemask_epi8(unsafe32(_mm_loadu_si128((const __m128i *)(p + i)))))
                return 1;
        }
    }
#endif
    for (; i < n; i++) {
        if (is_unsafe_inside(PyUnicode_READ(kind, data, i)))
            return 1;
    }
    return 0;
}

/* eson._internal.wire.eson_cells.is_bare for an exact str. */
static int
str_is_bare(PyObject *u)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    if (n == 0)
        return 0;
    int kind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    Py_UCS4 first = PyUnicode_READ(kind, data, 0);
    if (is_js_space(first) || is_json_start(first))
        return 0;
    if (is_js_space(PyUnicode_READ(kind, data, n - 1)))
        return 0;
    if (kind == 1) {
        const unsigned char *p = data;
        Py_ssize_t i = 0;
        for (; i + 4 <= n; i += 4) {
            if (LINE_BREAKS[p[i]] | LINE_BREAKS[p[i + 1]] | LINE_BREAKS[p[i + 2]] |
                LINE_BREAKS[p[i + 3]])
                return 0;
        }
        for (; i < n; i++) {
            if (LINE_BREAKS[p[i]])
                return 0;
        }
    }
    else if (has_unsafe_inside(kind, data, n)) {
        return 0;
    }
    if (n <= 5 && is_literal(kind, data, 0, n))
        return 0;
    if (is_number_start(first)) {
        int fraction;
        if (match_number(kind, data, 0, n, &fraction))
            return 0;
    }
    return 1;
}

static const char HEX[] = "0123456789abcdef";

/* Extra output characters of an ASCII character inside a quoted cell:
 * 1 for a short escape (\" \\ \n \r \t \b \f), 5 for \u00XX, else 0. */
static const unsigned char ESCAPE_EXTRA[128] = {
    5, 5, 5, 5, 5, 5, 5, 5, 1, 1, 1, 5, 1, 1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* Whether a non-ASCII character is written as \uXXXX (line and paragraph
 * separators, surrogates). */
#define WIDE_ESCAPED(c) ((c) == 0x2028 || (c) == 0x2029 || ((c) >= 0xD800 && (c) <= 0xDFFF))

/* The letter of the short escape of an ASCII character (\" \\ \n \r \t \b
 * \f), 0 for one written as \u00XX or not escaped. */
static const char SHORT_ESCAPE[128] = {
    ['"'] = '"', ['\\'] = '\\', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't', ['\b'] = 'b', ['\f'] = 'f',
};

/* Write one escaped character at dst (of type DST_T); advances dst.  The
 * short escapes come from a table: a switch's jump, taken for every escape
 * of mixed text, is mispredicted more often than not. */
#define PUT_ESCAPE(DST_T, dst, c)                                                 \
    do {                                                                          \
        Py_UCS4 ch_ = (c);                                                        \
        char short_ = ch_ < 128 ? SHORT_ESCAPE[ch_] : 0;                          \
        (dst)[0] = (DST_T)'\\';                                                   \
        if (__builtin_expect(short_ != 0, 1)) {                                   \
            (dst)[1] = (DST_T)short_;                                             \
            (dst) += 2;                                                           \
        }                                                                         \
        else {                                                                    \
            (dst)[1] = (DST_T)'u';                                                \
            (dst)[2] = (DST_T)HEX[(ch_ >> 12) & 15];                              \
            (dst)[3] = (DST_T)HEX[(ch_ >> 8) & 15];                               \
            (dst)[4] = (DST_T)HEX[(ch_ >> 4) & 15];                               \
            (dst)[5] = (DST_T)HEX[ch_ & 15];                                      \
            (dst) += 6;                                                           \
        }                                                                         \
    } while (0)

/* SWAR tests on 8 Latin-1 characters at once (exact as booleans). */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
#define HAS_LESS(x, n) (((x) - ONES * (n)) & ~(x) & HIGHS)
#define HAS_ZERO(v) (((v) - ONES) & ~(v) & HIGHS)
#define HAS_BYTE(x, b) HAS_ZERO((x) ^ (ONES * (b)))
/* Whether any of 8 bytes is escaped in a quoted cell (< 0x20, '"', '\\'). */
#define WORD_ESCAPES(x) (HAS_LESS(x, 0x20) | HAS_BYTE(x, 0x22) | HAS_BYTE(x, 0x5C))

/* Copy characters [start, end) of (kind, data) to the writer's end; the
 * writer has room and a kind at least as wide as every character copied. */
static inline void
put_run(Writer *w, int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t n = end - start;
    if (n <= 0)
        return;
    if (kind == w->kind) {
        memcpy(w->data + (size_t)w->len * (size_t)kind,
               (const char *)data + (size_t)start * (size_t)kind, (size_t)n * (size_t)kind);
    }
    else {
        for (Py_ssize_t i = 0; i < n; i++)
            PyUnicode_WRITE(w->kind, w->data, w->len + i, PyUnicode_READ(kind, data, start + i));
    }
    w->len += n;
}

/* Whether a character is escaped in a quoted ESON cell. */
#define NEEDS_ESCAPE(c) ((c) < 128 ? ESCAPE_EXTRA[(c)] != 0 : WIDE_ESCAPED(c))

/* The fused scan-and-copy of w_quoted for one (source, destination) pair of
 * character types: characters are copied as they are checked, escapes
 * written in place.  The destination has room for what is left plus
 * QUOTE_SLACK (re-checked after every escape, which may grow it by 5). */
#define QUOTE_SLACK 24
#define QUOTE_SCALAR(SRC_T, DST_T)                                                \
    do {                                                                          \
        const SRC_T *src_ = (const SRC_T *)data;                                  \
        for (; i < n; i++) {                                                      \
            Py_UCS4 c_ = src_[i];                                                 \
            if (!NEEDS_ESCAPE(c_)) {                                              \
                ((DST_T *)w->data)[w->len++] = (DST_T)c_;                         \
                continue;                                                         \
            }                                                                     \
            DST_T *dst_ = (DST_T *)w->data + w->len;                              \
            PUT_ESCAPE(DST_T, dst_, c_);                                          \
            w->len = dst_ - (DST_T *)w->data;                                     \
            if (w->cap - w->len < n - i + QUOTE_SLACK &&                          \
                w_reserve(w, n - i + QUOTE_SLACK) < 0)                            \
                return -1;                                                        \
        }                                                                         \
    } while (0)

#if defined(__SSE2__)
/* Same-kind runs 16 bytes at a time: a block with no escaped character is
 * stored whole; otherwise the block is stored whole too (the slack takes
 * the spill), the length advanced to the first escaped character, and that
 * one written by the scalar code. */
#define QUOTE_BLOCKS(T, PER, TEST)                                                \
    do {                                                                          \
        const T *src_ = (const T *)data;                                          \
        /* the length and the output in locals: a store through the output   \
         * (char data) would make the compiler reload them from the writer */ \
        T *out_ = (T *)w->data;                                                   \
        Py_ssize_t len_ = w->len;                                                 \
        while (i + PER <= n) {                                                    \
            __m128i v_ = _mm_loadu_si128((const __m128i *)(src_ + i));            \
            int mask_ = _mm_movemask_epi8(TEST(v_));                              \
            _mm_storeu_si128((__m128i *)(out_ + len_), v_);                       \
            if (!mask_) {                                                         \
                i += PER;                                                         \
                len_ += PER;                                                      \
                continue;                                                         \
            }                                                                     \
            int at_ = __builtin_ctz((unsigned)mask_) / (int)sizeof(T);            \
            i += at_;                                                             \
            T *dst_ = out_ + len_ + at_;                                          \
            PUT_ESCAPE(T, dst_, src_[i]);                                         \
            len_ = dst_ - out_;                                                   \
            i++;                                                                  \
            if (w->cap - len_ < n - i + QUOTE_SLACK) {                            \
                w->len = len_;                                                    \
                if (w_reserve(w, n - i + QUOTE_SLACK) < 0)                        \
                    return -1;                                                    \
                out_ = (T *)w->data;                                              \
            }                                                                     \
        }                                                                         \
        w->len = len_;                                                            \
    } while (0)

static inline __m128i
escapes8(__m128i v)
{
    __m128i low = _mm_cmpeq_epi8(_mm_subs_epu8(v, _mm_set1_epi8(0x1F)), _mm_setzero_si128());
    return _mm_or_si128(low, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                          _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
}

static inline __m128i
escapes16(__m128i v)
{
    __m128i low = _mm_cmpeq_epi16(_mm_subs_epu16(v, _mm_set1_epi16(0x1F)), _mm_setzero_si128());
    __m128i quote = _mm_or_si128(_mm_cmpeq_epi16(v, _mm_set1_epi16('"')),
                                 _mm_cmpeq_epi16(v, _mm_set1_epi16('\\')));
    return _mm_or_si128(_mm_or_si128(low, quote), wide_escaped16(v));
}

static inline __m128i
escapes32(__m128i v)
{
    /* Code points are below 2^31, so the signed compare is exact. */
    __m128i low = _mm_cmplt_epi32(v, _mm_set1_epi32(0x20));
    __m128i quote = _mm_or_si128(_mm_cmpeq_epi32(v, _mm_set1_epi32('"')),
                                 _mm_cmpeq_epi32(v, _mm_set1_epi32('\\')));
    return _mm_or_si128(_mm_or_si128(low, quote), wide_escaped32(v));
}
#else
#define QUOTE_BLOCKS(T, PER, TEST) ((void)0)
#endif

/* Whether a UCS-2 or UCS-4 str holds a high surrogate directly followed by
 * a low one: two code points whose escapes JSON reads back as one character
 * (the Python code refuses to write them). */
#define SPLIT_PAIR_SCAN(T)                                                        \
    do {                                                                          \
        const T *p_ = (const T *)data;                                            \
        for (Py_ssize_t k_ = 0; k_ + 1 < n; k_++) {                               \
            if (p_[k_] >= 0xD800 && p_[k_] <= 0xDBFF && p_[k_ + 1] >= 0xDC00 &&   \
                p_[k_ + 1] <= 0xDFFF)                                             \
                return 1;                                                         \
        }                                                                         \
    } while (0)

/* The escape of src[i] written at out + *len, for w_quoted_ucs4: 0, or 1 for a
 * high surrogate followed by a low one (two code points whose escapes JSON
 * reads back as one character: the Python code refuses them). */
static inline int
ucs4_escape(const Py_UCS4 *src, Py_ssize_t i, Py_ssize_t n, Py_UCS4 *out, Py_ssize_t *len)
{
    Py_UCS4 c = src[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && src[i + 1] >= 0xDC00 && src[i + 1] <= 0xDFFF)
        return 1;
    Py_UCS4 *dst = out + *len;
    PUT_ESCAPE(Py_UCS4, dst, c);
    *len = dst - out;
    return 0;
}

/* For w_quoted_ucs4's loops, on their locals i, len and out: write the
 * escape of src[i], an escaped character, step past it and keep room for
 * what is left; a surrogate pair sets the writer's length back to start and
 * returns 1, an error returns -1.  (A macro: through pointers to the locals,
 * the loop ran 20% slower.) */
#define UCS4_PUT_ESCAPE()                                                         \
    do {                                                                          \
        if (ucs4_escape(src, i, n, out, &len)) {                                  \
            w->len = start;                                                       \
            return 1;                                                             \
        }                                                                         \
        i++;                                                                      \
        if (w->cap - len < n - i + QUOTE_SLACK) {                                 \
            w->len = len;                                                         \
            if (w_reserve(w, n - i + QUOTE_SLACK) < 0)                            \
                return -1;                                                        \
            out = (Py_UCS4 *)w->data;                                             \
        }                                                                         \
    } while (0)

#if defined(__GNUC__) && defined(__x86_64__) && !defined(TYPED_ESON_NO_AVX2)
#define HAVE_AVX2_PATH 1
#include <immintrin.h>
/* Whether the CPU runs AVX2 (set when the module loads). */
static int cpu_avx2 = 0;

/* The head of w_quoted_ucs4 eight characters a block (AVX2, when the CPU
 * has it): the blocks up to the last full one; *pi is where it stopped.
 * Returns what w_quoted_ucs4 returns. */
__attribute__((target("avx2"))) static int
quoted_ucs4_avx2(Writer *w, const Py_UCS4 *src, Py_ssize_t n, Py_ssize_t start, Py_ssize_t *pi)
{
    Py_ssize_t i = 0, len = w->len;
    Py_UCS4 *out = (Py_UCS4 *)w->data;
    const __m256i space = _mm256_set1_epi32(0x20), quote = _mm256_set1_epi32('"');
    const __m256i backslash = _mm256_set1_epi32('\\'), not_one = _mm256_set1_epi32(~1);
    const __m256i sep = _mm256_set1_epi32(0x2028), not_sur = _mm256_set1_epi32(~0x7FF);
    const __m256i sur = _mm256_set1_epi32(0xD800);
    while (i + 8 <= n) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src + i));
        /* code points are below 2^31: the signed compare is exact */
        __m256i hit = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpgt_epi32(space, v), _mm256_cmpeq_epi32(v, quote)),
            _mm256_or_si256(
                _mm256_cmpeq_epi32(v, backslash),
                _mm256_or_si256(_mm256_cmpeq_epi32(_mm256_and_si256(v, not_one), sep),
                                _mm256_cmpeq_epi32(_mm256_and_si256(v, not_sur), sur))));
        unsigned mask = (unsigned)_mm256_movemask_epi8(hit);
        _mm256_storeu_si256((__m256i *)(out + len), v); /* the slack takes the spill */
        if (!mask) {
            i += 8;
            len += 8;
            continue;
        }
        int at = __builtin_ctz(mask) / 4;
        i += at;
        len += at;
        UCS4_PUT_ESCAPE();
    }
    w->len = len;
    *pi = i;
    return 0;
}
#endif

/* The characters of a UCS-4 str into a UCS-4 writer with room for n +
 * QUOTE_SLACK, escaped as w_quoted escapes them: eight a block (AVX2) or
 * four (SSE2), the length kept in a local.  0 written; 1 a surrogate pair
 * (the writer's length set back to start: nothing written); -1 error. */
static int
w_quoted_ucs4(Writer *w, const Py_UCS4 *src, Py_ssize_t n, Py_ssize_t start)
{
    Py_ssize_t i = 0;
#ifdef HAVE_AVX2_PATH
    if (cpu_avx2) {
        int rc = quoted_ucs4_avx2(w, src, n, start, &i);
        if (rc)
            return rc;
    }
#endif
    Py_ssize_t len = w->len;
    Py_UCS4 *out = (Py_UCS4 *)w->data;
    while (i < n) {
#if defined(__SSE2__)
        if (i + 4 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i *)(src + i));
            int mask = _mm_movemask_epi8(escapes32(v));
            _mm_storeu_si128((__m128i *)(out + len), v); /* the slack takes the spill */
            if (!mask) {
                i += 4;
                len += 4;
                continue;
            }
            int at = __builtin_ctz((unsigned)mask) / 4;
            i += at; /* src[i] is escaped */
            len += at;
        }
        else
#endif
        if (!NEEDS_ESCAPE(src[i])) {
            out[len++] = src[i++];
            continue;
        }
        UCS4_PUT_ESCAPE();
    }
    w->len = len;
    return 0;
}

/* eson._internal.wire.eson_json.quote: JSON string with ensure_ascii=False escapes,
 * plus \u2028, \u2029 and surrogates as \uXXXX (lower-case hex).  The
 * output's kind is decided first (escapes are ASCII); then one fused pass
 * checks and copies straight into the writer.  0 written, -1 error, 1 not
 * handled (nothing written): a surrogate pair held as two code points. */
static int
w_quoted(Writer *w, PyObject *u)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    int kind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    /* The largest character written as itself decides the output's kind
     * (escapes are ASCII).  A Latin-1 str says it by its ASCII flag; a
     * UCS-4 str holds a character above U+FFFF, which is never escaped; a
     * UCS-2 str may owe its kind to escaped characters only, so look. */
    Py_UCS4 top;
    if (kind == 1) {
        top = PyUnicode_IS_ASCII(u) ? 127 : 255;
    }
    else if (kind == 4) {
        /* A UCS-4 str holds a character above U+FFFF: the writer is UCS-4
         * too, and a surrogate pair is found where it stands. */
        Py_ssize_t start = w->len;
        if (w_raise(w, 0x10FFFF) < 0 || w_reserve(w, n + QUOTE_SLACK) < 0)
            return -1;
        PyUnicode_WRITE(w->kind, w->data, w->len, '"');
        w->len++;
        int rc = w_quoted_ucs4(w, (const Py_UCS4 *)data, n, start);
        if (rc)
            return rc;
        PyUnicode_WRITE(w->kind, w->data, w->len, '"');
        w->len++;
        return 0;
    }
    else {
        const Py_UCS2 *p = data;
        top = 0;
        int surrogates = 0;
        Py_ssize_t i = 0;
#if defined(__SSE2__)
        /* 8 characters a step: the largest not escaped (compared as signed
         * numbers after flipping the top bit), and whether any surrogate. */
        const __m128i flip = _mm_set1_epi16((short)0x8000);
        __m128i most = flip, found = _mm_setzero_si128();
        for (; i + 8 <= n; i += 8) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            __m128i sur = _mm_cmpeq_epi16(_mm_and_si128(v, _mm_set1_epi16((short)0xF800)),
                                          _mm_set1_epi16((short)0xD800));
            __m128i sep = _mm_cmpeq_epi16(_mm_and_si128(v, _mm_set1_epi16((short)0xFFFE)),
                                          _mm_set1_epi16(0x2028));
            __m128i kept = _mm_andnot_si128(_mm_or_si128(sur, sep), v);
            most = _mm_max_epi16(most, _mm_xor_si128(kept, flip));
            found = _mm_or_si128(found, sur);
        }
        Py_UCS2 lanes[8];
        _mm_storeu_si128((__m128i *)lanes, _mm_xor_si128(most, flip));
        for (int k = 0; k < 8; k++) {
            if (lanes[k] > top)
                top = lanes[k];
        }
        surrogates = _mm_movemask_epi8(found) != 0;
#endif
        for (; i < n; i++) {
            Py_UCS4 c = p[i];
            if (c > top && !WIDE_ESCAPED(c))
                top = c;
            surrogates |= c >= 0xD800 && c <= 0xDFFF;
        }
        if (surrogates)
            SPLIT_PAIR_SCAN(Py_UCS2);
    }
    if (w_raise(w, top) < 0 || w_reserve(w, n + QUOTE_SLACK) < 0)
        return -1;
    PyUnicode_WRITE(w->kind, w->data, w->len, '"');
    w->len++;
    Py_ssize_t i = 0;
    switch (kind * 8 + w->kind) {
    case 1 * 8 + 1:
        QUOTE_BLOCKS(Py_UCS1, 16, escapes8);
        QUOTE_SCALAR(Py_UCS1, Py_UCS1);
        break;
    case 1 * 8 + 2: QUOTE_SCALAR(Py_UCS1, Py_UCS2); break;
    case 1 * 8 + 4: QUOTE_SCALAR(Py_UCS1, Py_UCS4); break;
    case 2 * 8 + 1: QUOTE_SCALAR(Py_UCS2, Py_UCS1); break;
    case 2 * 8 + 2:
        QUOTE_BLOCKS(Py_UCS2, 8, escapes16);
        QUOTE_SCALAR(Py_UCS2, Py_UCS2);
        break;
    case 2 * 8 + 4: QUOTE_SCALAR(Py_UCS2, Py_UCS4); break;
    default: break; /* a UCS-4 str went to w_quoted_ucs4 above */
    }
    PyUnicode_WRITE(w->kind, w->data, w->len, '"');
    w->len++;
    return 0;
}

/* The head and tail tests of str_is_bare for a Latin-1 str (everything but
 * the line-break scan). */
static inline int
latin1_ends_bare(const Py_UCS1 *p, Py_ssize_t n)
{
    Py_UCS4 first = p[0];
    if (is_js_space(first) || is_json_start(first))
        return 0;
    if (is_js_space(p[n - 1]))
        return 0;
    if (n <= 5 && is_literal(1, p, 0, n))
        return 0;
    if (is_number_start(first)) {
        int fraction;
        if (match_number(1, p, 0, n, &fraction))
            return 0;
    }
    return 1;
}

/* An ESON string cell.  A Latin-1 str going into a Latin-1 writer is
 * checked for line breaks while it is copied, 8 bytes at a time; a break
 * found takes back the copy and quotes the str instead. */
static int
w_str_cell(Writer *w, PyObject *u)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    if (n == 0 || PyUnicode_KIND(u) != 1 || w->kind != 1)
        return str_is_bare(u) ? w_str(w, u) : w_quoted(w, u);
    const Py_UCS1 *p = PyUnicode_1BYTE_DATA(u);
    if (!latin1_ends_bare(p, n))
        return w_quoted(w, u);
    /* Bare or quoted, a non-ASCII Latin-1 str writes its top character as
     * itself (U+0080..U+00FF are never escaped). */
    if ((!PyUnicode_IS_ASCII(u) && w_raise(w, 255) < 0) || w_reserve(w, n + 8) < 0)
        return -1;
    Py_UCS1 *dst = (Py_UCS1 *)w->data + w->len;
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        unsigned long long x;
        memcpy(&x, p + i, 8);
        memcpy(dst + i, &x, 8);
        if (HAS_LESS(x, 14)) {
            for (int k = 0; k < 8; k++) {
                if (LINE_BREAKS[p[i + k]])
                    return w_quoted(w, u);
            }
        }
    }
    for (; i < n; i++) {
        if (LINE_BREAKS[p[i]])
            return w_quoted(w, u);
        dst[i] = p[i];
    }
    w->len += n;
    return 0;
}

/*
 * One plain value as its ESON cell (eson._internal.wire.eson_cells.encode_cell), for
 * exact types allowed by mask.  0 written; 1 not handled (nothing written);
 * -1 error.
 */
static int
w_cell(Writer *w, PyObject *v, int mask)
{
    PyTypeObject *t = Py_TYPE(v);
    if (t == &PyUnicode_Type) {
        if (!(mask & V_STR))
            return 1;
        return w_str_cell(w, v); /* 1: a split surrogate pair, the Python code */
    }
    if (t == &PyLong_Type) {
        if (!(mask & V_INT))
            return 1;
        long long x;
        if (compact_long(v, &x))
            return w_longlong(w, x) < 0 ? -1 : 0;
        int overflow = 0;
        x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow)
            return 1; /* big integers: the Python code (and its digit limit) */
        if (x == -1 && PyErr_Occurred())
            return -1;
        return w_longlong(w, x) < 0 ? -1 : 0;
    }
    if (t == &PyFloat_Type) {
        if (!(mask & V_FLOAT))
            return 1;
        int rc = w_float(w, PyFloat_AS_DOUBLE(v));
        return rc == 0 ? 0 : (rc == -1 ? 1 : -1);
    }
    if (v == Py_True || v == Py_False) {
        if (!(mask & V_BOOL))
            return 1;
        return w_ascii(w, v == Py_True ? "true" : "false", v == Py_True ? 4 : 5) < 0 ? -1 : 0;
    }
    if (v == Py_None) {
        if (!(mask & V_NONE))
            return 1;
        return w_ascii(w, "null", 4) < 0 ? -1 : 0;
    }
    return 1;
}

/* ----------------------------------------------------------- cell reading */

typedef struct {
    int kind;
    const void *data;
    PyObject *line;
} Line;

/* The closing quote of a quoted cell whose opening quote is at s (or -1),
 * whether a backslash occurs, and the largest character before the close
 * (escape sequences are ASCII).  -2: a raw control character (strict JSON
 * rejects it). */
#define SCAN_QUOTED(SRC_T)                                                        \
    do {                                                                          \
        const SRC_T *p_ = (const SRC_T *)data;                                    \
        for (Py_ssize_t i_ = s + 1; i_ < e; i_++) {                               \
            Py_UCS4 c_ = p_[i_];                                                  \
            if (c_ == '"') {                                                      \
                close = i_;                                                       \
                break;                                                            \
            }                                                                     \
            if (c_ < 0x20)                                                        \
                return NULL;                                                      \
            if (c_ == '\\') {                                                     \
                escapes = 1;                                                      \
                i_++;                                                             \
                continue;                                                         \
            }                                                                     \
            if (c_ > top)                                                         \
                top = c_;                                                         \
        }                                                                         \
    } while (0)

static int
hex4(int kind, const void *data, Py_ssize_t at, Py_UCS4 *out)
{
    Py_UCS4 value = 0;
    for (int k = 0; k < 4; k++) {
        Py_UCS4 h = PyUnicode_READ(kind, data, at + k);
        int v;
        if (h >= '0' && h <= '9')
            v = (int)(h - '0');
        else if (h >= 'a' && h <= 'f')
            v = (int)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F')
            v = (int)(h - 'A' + 10);
        else
            return 0;
        value = value * 16 + (Py_UCS4)v;
    }
    *out = value;
    return 1;
}

/* Decode a quoted cell [s, e) that starts with '"' as json.loads would give
 * it, when it is exactly one JSON string.  NULL without error: not handled. */
static PyObject *
read_quoted(const Line *ln, Py_ssize_t s, Py_ssize_t e)
{
    int kind = ln->kind;
    const void *data = ln->data;
    Py_ssize_t close = -1;
    int escapes = 0;
    Py_UCS4 top = 0;
    if (kind == 1)
        SCAN_QUOTED(Py_UCS1);
    else if (kind == 2)
        SCAN_QUOTED(Py_UCS2);
    else
        SCAN_QUOTED(Py_UCS4);
    if (close != e - 1)
        return NULL; /* unterminated, or text after the string */
    if (!escapes)
        return PyUnicode_Substring(ln->line, s + 1, close);
    Writer w;
    w_init(&w);
    if (w_raise(&w, top) < 0 || w_reserve(&w, close - s) < 0)
        goto error;
    Py_ssize_t run = s + 1;
    for (;;) {
        /* The next backslash (runs between them are copied whole). */
        Py_ssize_t i = run;
        if (kind == 1) {
            const void *hit = memchr((const char *)data + i, '\\', (size_t)(close - i));
            i = hit == NULL ? close : (const char *)hit - (const char *)data;
        }
        else {
            while (i < close && PyUnicode_READ(kind, data, i) != '\\')
                i++;
        }
        if (w_reserve(&w, i - run) < 0)
            goto error;
        put_run(&w, kind, data, run, i);
        if (i >= close)
            break;
        Py_UCS4 d = PyUnicode_READ(kind, data, i + 1);
        Py_UCS4 out;
        Py_ssize_t used = 2;
        switch (d) {
        case '"': out = '"'; break;
        case '\\': out = '\\'; break;
        case '/': out = '/'; break;
        case 'b': out = '\b'; break;
        case 'f': out = '\f'; break;
        case 'n': out = '\n'; break;
        case 'r': out = '\r'; break;
        case 't': out = '\t'; break;
        case 'u':
            if (i + 6 > close || !hex4(kind, data, i + 2, &out))
                goto unhandled;
            used = 6;
            /* A high surrogate escape followed by a low one is one
             * character (as Python's json reads it); alone, each stays. */
            if (out >= 0xD800 && out <= 0xDBFF && i + 12 <= close &&
                PyUnicode_READ(kind, data, i + 6) == '\\' &&
                PyUnicode_READ(kind, data, i + 7) == 'u') {
                Py_UCS4 low;
                if (hex4(kind, data, i + 8, &low) && low >= 0xDC00 && low <= 0xDFFF) {
                    out = 0x10000 + (((out - 0xD800) << 10) | (low - 0xDC00));
                    used = 12;
                }
            }
            break;
        default:
            goto unhandled;
        }
        if (w_char(&w, out) < 0)
            goto error;
        run = i + used;
    }
    return w_finish(&w);
unhandled:
error:
    w_free(&w);
    return NULL;
}

/* Cell modes of decode_rows (the Python side passes the same numbers). */
#define M_GENERIC 0
#define M_INT 1
#define M_NUMBER 2
#define M_STR 3
#define M_CHOICES 4 /* given as a dict: cell text -> value */

/* The int of a cell's digits (at most 18 of them).  A non-negative one is
 * made by PyLong_FromUnsignedLongLong, as msgspec's decoder makes it: on
 * CPython 3.11 PyLong_FromLongLong gives a one-digit int 4 bytes more. */
static inline PyObject *
int_value(int negative, unsigned long long magnitude)
{
    if (negative)
        return PyLong_FromLongLong(-(long long)magnitude);
    return PyLong_FromUnsignedLongLong(magnitude);
}

/* The value of a Latin-1 cell starting with '-' or a digit, in one pass,
 * when it is an integer of up to 18 digits or a decimal with an exact
 * small mantissa; NULL without error otherwise (the caller decides). */
static PyObject *
latin1_number(const unsigned char *p, Py_ssize_t n, int *tag)
{
    Py_ssize_t i = 0;
    int negative = 0;
    if (p[0] == '-') {
        negative = 1;
        i = 1;
    }
    Py_ssize_t int_start = i;
    unsigned long long mant = 0;
    while (i < n && p[i] >= '0' && p[i] <= '9' && i - int_start < SHORT_INT_DIGITS)
        mant = mant * 10 + (unsigned long long)(p[i++] - '0');
    Py_ssize_t int_digits = i - int_start;
    if (int_digits > 0 && (int_digits == 1 || p[int_start] != '0')) {
        if (i == n) {
            *tag = V_INT;
            return int_value(negative, mant);
        }
        if (p[i] == '.' && i + 1 < n) {
            Py_ssize_t frac_start = ++i;
            while (i < n && p[i] >= '0' && p[i] <= '9' && i - int_start < 16)
                mant = mant * 10 + (unsigned long long)(p[i++] - '0');
            if (i == n && i > frac_start && mant < 9007199254740992ULL) {
#if EXACT_DOUBLE_OPS
                double value = (double)mant / POW10[i - frac_start];
                *tag = V_FLOAT;
                return PyFloat_FromDouble(negative ? -value : value);
#endif
            }
        }
    }
    return NULL;
}

/*
 * One cell's value (eson._internal.wire.eson_cells.decode_cell) for cells the
 * accelerator reads: numbers (ints up to 18 digits), literals, bare and
 * quoted strings.  Returns a new reference; NULL without error when the
 * cell is not handled (nested JSON, long ints, odd quoting, overflow).
 * *tag gets the value's type bit; *bare whether the cell was a bare string.
 */
static PyObject *
read_cell(const Line *ln, Py_ssize_t s, Py_ssize_t e, int *tag, int *bare)
{
    int kind = ln->kind;
    const void *data = ln->data;
    *bare = 0;
    if (s == e) {
        *tag = V_STR;
        return PyUnicode_New(0, 0);
    }
    Py_UCS4 first = PyUnicode_READ(kind, data, s);
    if (kind == 1 && is_number_start(first)) {
        PyObject *v = latin1_number((const unsigned char *)data + s, e - s, tag);
        if (v != NULL || PyErr_Occurred())
            return v;
    }
    if (is_number_start(first)) {
        int fraction;
        if (!match_number(kind, data, s, e, &fraction)) {
            *tag = V_STR;
            return PyUnicode_Substring(ln->line, s, e);
        }
        char buf[48] = "";
        Py_ssize_t n = e - s;
        if (!fraction) {
            if (n > SHORT_INT_DIGITS + (first == '-'))
                return NULL; /* beyond long long: int() and its digit limit */
            long long v = 0;
            int negative = first == '-';
            for (Py_ssize_t i = s + negative; i < e; i++)
                v = v * 10 + (long long)(PyUnicode_READ(kind, data, i) - '0');
            *tag = V_INT;
            return int_value(negative, (unsigned long long)v);
        }
        char *text = buf;
        if (n >= (Py_ssize_t)sizeof(buf)) {
            text = PyMem_Malloc((size_t)n + 1);
            if (text == NULL)
                return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < n; i++)
            text[i] = (char)PyUnicode_READ(kind, data, s + i);
        double value;
        int rc = parse_float_ascii(text, n, &value);
        if (text != buf)
            PyMem_Free(text);
        if (rc < 0)
            return NULL;
        if (isinf(value))
            return NULL; /* the Python code raises "not finite" */
        *tag = V_FLOAT;
        return PyFloat_FromDouble(value);
    }
    if (first == '"') {
        *tag = V_STR;
        return read_quoted(ln, s, e);
    }
    if (first == '[' || first == '{')
        return NULL;
    if (e - s <= 5) {
        if (equals_ascii(kind, data, s, e, "null")) {
            *tag = V_NONE;
            Py_RETURN_NONE;
        }
        if (equals_ascii(kind, data, s, e, "true")) {
            *tag = V_BOOL;
            Py_RETURN_TRUE;
        }
        if (equals_ascii(kind, data, s, e, "false")) {
            *tag = V_BOOL;
            Py_RETURN_FALSE;
        }
    }
    *tag = V_STR;
    *bare = 1;
    return PyUnicode_Substring(ln->line, s, e);
}

/* The choices of a column: the dict's str keys and values (borrowed). */
#define MAX_CHOICES 32
typedef struct {
    Py_ssize_t count;
    PyObject *keys[MAX_CHOICES];
    PyObject *values[MAX_CHOICES];
} Choices;

/* 0, or 1 when the dict is too large for the array (then it is searched). */
static int
load_choices(PyObject *dict, Choices *c)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    c->count = 0;
    if (PyDict_GET_SIZE(dict) > MAX_CHOICES)
        return 1;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key) || !READY(key))
            continue;
        c->keys[c->count] = key;
        c->values[c->count] = value;
        c->count++;
    }
    return 0;
}

/* The value the choices map cell [s, e) to (borrowed), or NULL. */
static PyObject *
find_choice(const Choices *c, const Line *ln, Py_ssize_t s, Py_ssize_t e)
{
    Py_ssize_t n = e - s;
    for (Py_ssize_t k = 0; k < c->count; k++) {
        PyObject *key = c->keys[k];
        if (PyUnicode_GET_LENGTH(key) != n)
            continue;
        int kk = PyUnicode_KIND(key);
        const void *kd = PyUnicode_DATA(key);
        if (kk == ln->kind) {
            if (memcmp(kd, (const char *)ln->data + (size_t)s * (size_t)kk,
                       (size_t)n * (size_t)kk) == 0)
                return c->values[k];
            continue;
        }
        Py_ssize_t i = 0;
        for (; i < n; i++) {
            if (PyUnicode_READ(kk, kd, i) != PyUnicode_READ(ln->kind, ln->data, s + i))
                break;
        }
        if (i == n)
            return c->values[k];
    }
    return NULL;
}

/* The value a choices dict maps cell [s, e) to (borrowed), or NULL. */
static PyObject *
lookup_choice(PyObject *choices, const Line *ln, Py_ssize_t s, Py_ssize_t e)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    Py_ssize_t n = e - s;
    while (PyDict_Next(choices, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key) || PyUnicode_GET_LENGTH(key) != n)
            continue;
        int kk = PyUnicode_KIND(key);
        const void *kd = PyUnicode_DATA(key);
        if (kk == ln->kind) {
            if (memcmp(kd, (const char *)ln->data + (size_t)s * (size_t)kk,
                       (size_t)n * (size_t)kk) == 0)
                return value;
            continue;
        }
        Py_ssize_t i = 0;
        for (; i < n; i++) {
            if (PyUnicode_READ(kk, kd, i) != PyUnicode_READ(ln->kind, ln->data, s + i))
                break;
        }
        if (i == n)
            return value;
    }
    return NULL;
}

/* -------------------------------------------------------------- TOON cells */

/* White space the TOON writer keeps off a bare token's edges: U+0020 only
 * (spec v4.0 section 7.2; TAB is a control character, quoted anywhere). */
static inline int
is_toon_edge(Py_UCS4 c)
{
    return c == ' ';
}

/* Characters that force quotes anywhere in a TOON token. */
static inline int
is_toon_bad(Py_UCS4 c, Py_UCS4 delimiter)
{
    return c < 0x20 || c == ':' || c == '"' || c == '\\' || c == '[' || c == ']' || c == '{' ||
           c == '}' || c == delimiter || (c >= 0xD800 && c <= 0xDFFF);
}

/* Whether [s, e) looks like a number to a TOON reader: [+-]?[0-9]+(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int
toon_numberish(int kind, const void *data, Py_ssize_t s, Py_ssize_t e)
{
    Py_ssize_t i = s;
    Py_UCS4 c;
    int fraction = 0;
    if (i < e && ((c = PyUnicode_READ(kind, data, i)) == '+' || c == '-'))
        i++;
    Py_ssize_t start = i;
    if ((i = skip_digits(kind, data, i, e)) == start)
        return 0;
    return skip_number_tail(kind, data, i, e, &fraction) == e;
}

#if defined(__SSE2__)
/* The bytes of a 16-byte block of Latin-1 text that force TOON quotes, as a
 * movemask (is_toon_bad for a delimiter below 128). */
static inline int
toon_bad16(__m128i v, __m128i delim)
{
    __m128i bad = _mm_cmpeq_epi8(_mm_subs_epu8(v, _mm_set1_epi8(0x1F)), _mm_setzero_si128());
    bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')),
                                         _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))));
    bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
                                         _mm_cmpeq_epi8(v, _mm_set1_epi8('['))));
    bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(']')),
                                         _mm_cmpeq_epi8(v, _mm_set1_epi8('{'))));
    bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('}')),
                                         _mm_cmpeq_epi8(v, delim)));
    return _mm_movemask_epi8(bad);
}
#endif

/* toon_is_safe's tests of a non-empty str as a whole: its first and last
 * characters, and whether it reads as a literal or a number. */
static inline int
toon_ends_safe(int kind, const void *data, Py_ssize_t n)
{
    Py_UCS4 first = PyUnicode_READ(kind, data, 0);
    if (first == '-' || first == '#' || is_toon_edge(first) ||
        is_toon_edge(PyUnicode_READ(kind, data, n - 1)))
        return 0;
    if (n <= 5 && is_literal(kind, data, 0, n))
        return 0;
    if ((first == '+' || (first >= '0' && first <= '9')) && toon_numberish(kind, data, 0, n))
        return 0;
    return 1;
}

/* eson._internal.wire.toon_quoting.format_string's test: may the str be written bare?
 * Sets *surrogate when it holds one (the Python code raises for those). */
static int
toon_is_safe(PyObject *u, Py_UCS4 delimiter, int *surrogate)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    int kind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    int safe = n > 0;
    *surrogate = 0;
    Py_ssize_t i = 0;
    if (kind == 1 && delimiter < 128) {
        /* Latin-1 (no surrogates): 16 characters at a time, then a table. */
        const Py_UCS1 *p = data;
#if defined(__SSE2__)
        const __m128i delim = _mm_set1_epi8((char)delimiter);
        for (; i + 16 <= n; i += 16) {
            if (toon_bad16(_mm_loadu_si128((const __m128i *)(p + i)), delim))
                return 0;
        }
#endif
        for (; i < n; i++) {
            if (is_toon_bad(p[i], delimiter))
                return 0;
        }
        i = n;
    }
    for (; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (is_toon_bad(c, delimiter)) {
            safe = 0;
            if (c >= 0xD800 && c <= 0xDFFF) {
                *surrogate = 1;
                return 0;
            }
            if (kind == 1)
                break; /* no surrogates in a Latin-1 str */
        }
    }
    return safe && toon_ends_safe(kind, data, n);
}

/* A Latin-1 str as a bare TOON cell in a Latin-1 writer, checked as it is
 * copied (16 bytes at a time): 0 written, 1 it needs quotes (nothing
 * written), -1 error.  The delimiter is below 128. */
static int
w_toon_latin1(Writer *w, PyObject *u, Py_UCS4 delimiter)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    const Py_UCS1 *p = PyUnicode_1BYTE_DATA(u);
    if (!toon_ends_safe(1, p, n))
        return 1;
    if ((!PyUnicode_IS_ASCII(u) && w_raise(w, 255) < 0) || w_reserve(w, n + 16) < 0)
        return -1;
    Py_UCS1 *dst = (Py_UCS1 *)w->data + w->len;
    Py_ssize_t i = 0;
#if defined(__SSE2__)
    const __m128i delim = _mm_set1_epi8((char)delimiter);
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        _mm_storeu_si128((__m128i *)(dst + i), v); /* past the length: taken back if bad */
        if (toon_bad16(v, delim))
            return 1;
    }
#endif
    for (; i < n; i++) {
        if (is_toon_bad(p[i], delimiter))
            return 1;
        dst[i] = p[i];
    }
    w->len += n;
    return 0;
}

/* eson._internal.wire.toon_quoting.quote of a str without surrogates. */
static int
w_toon_quoted(Writer *w, PyObject *u)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    int kind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    if (w_char(w, '"') < 0)
        return -1;
    Py_ssize_t run = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        char buf[6];
        int len = 2;
        if (c == '"' || c == '\\') {
            buf[1] = (char)c;
        }
        else if (c == '\n') {
            buf[1] = 'n';
        }
        else if (c == '\r') {
            buf[1] = 'r';
        }
        else if (c == '\t') {
            buf[1] = 't';
        }
        else if (c < 0x20) {
            buf[1] = 'u';
            buf[2] = '0';
            buf[3] = '0';
            buf[4] = HEX[(c >> 4) & 15];
            buf[5] = HEX[c & 15];
            len = 6;
        }
        else {
            continue;
        }
        buf[0] = '\\';
        if (w_slice(w, u, run, i) < 0 || w_ascii(w, buf, len) < 0)
            return -1;
        run = i + 1;
    }
    if (w_slice(w, u, run, n) < 0)
        return -1;
    return w_char(w, '"');
}

/* One value as its TOON token (format_primitive), for exact types the mask
 * allows: 0 written; 1 not handled; -1 error. */
static int
w_toon_cell(Writer *w, PyObject *v, int mask, Py_UCS4 delimiter)
{
    PyTypeObject *t = Py_TYPE(v);
    if (t == &PyUnicode_Type) {
        if (!(mask & V_STR))
            return 1;
        if (PyUnicode_KIND(v) == 1 && w->kind == 1 && delimiter < 128 &&
            PyUnicode_GET_LENGTH(v) > 0) {
            int rc = w_toon_latin1(w, v, delimiter);
            if (rc <= 0)
                return rc;
            return w_toon_quoted(w, v) < 0 ? -1 : 0; /* Latin-1: no surrogate */
        }
        int surrogate;
        if (toon_is_safe(v, delimiter, &surrogate))
            return w_str(w, v) < 0 ? -1 : 0;
        if (surrogate)
            return 1;
        return w_toon_quoted(w, v) < 0 ? -1 : 0;
    }
    if (t == &PyLong_Type) {
        if (!(mask & V_INT))
            return 1;
        long long x;
        if (compact_long(v, &x))
            return w_longlong(w, x) < 0 ? -1 : 0;
        int overflow = 0;
        x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow)
            return 1;
        if (x == -1 && PyErr_Occurred())
            return -1;
        return w_longlong(w, x) < 0 ? -1 : 0;
    }
    if (t == &PyFloat_Type) {
        if (!(mask & V_FLOAT))
            return 1;
        double x = PyFloat_AS_DOUBLE(v);
        if (!isfinite(x))
            return 1;
        if (x == 0.0)
            return w_ascii(w, "0", 1) < 0 ? -1 : 0;
        char buf[64];
        int n = fixed_shortest(x, buf);
        if (n == 0)
            return 1; /* exponent forms and long digits: the Python code */
        if (n >= 2 && buf[n - 1] == '0' && buf[n - 2] == '.')
            n -= 2; /* an integral value loses its ".0" */
        return w_ascii(w, buf, n) < 0 ? -1 : 0;
    }
    if (v == Py_True || v == Py_False) {
        if (!(mask & V_BOOL))
            return 1;
        return w_ascii(w, v == Py_True ? "true" : "false", v == Py_True ? 4 : 5) < 0 ? -1 : 0;
    }
    if (v == Py_None) {
        if (!(mask & V_NONE))
            return 1;
        return w_ascii(w, "null", 4) < 0 ? -1 : 0;
    }
    return 1;
}

/* A new tuple holding the items of list, or NULL; NULL without an error when
 * the list changed length while the tuple was allocated (an allocation may
 * run a collection, and a finalizer's Python code: CPython 3.11 collects
 * inside the allocating call).  The items are copied after the allocation. */
static PyObject *
hold_items(PyObject *list)
{
    Py_ssize_t n = PyList_GET_SIZE(list);
    PyObject *held = PyTuple_New(n);
    if (held == NULL)
        return NULL;
    if (PyList_GET_SIZE(list) != n) {
        Py_DECREF(held);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(held, i, item);
    }
    return held;
}

/* ------------------------------------------------------------- encode_rows */

#define ACCESS_SLOTS 0
#define ACCESS_INSTANCE_DICT 1
#define ACCESS_DICT 2

/*
 * encode_rows(records, cls, access, keys, masks, number) -> str | None
 *
 * The body of a record array: one line per record (joined by LF, no final
 * LF), cells separated by TAB, each the ESON cell of the field's value;
 * with number, a first cell 1, 2, ...  Returns None when any record is not
 * exactly of class cls (or, for access 2, not exactly a dict with exactly
 * these keys), any value is missing or not of an exact type its column's
 * mask allows, or a value needs the Python code (NaN, huge ints), or
 * records is empty.
 *
 * access 0: keys are member descriptors (slots) of cls, read by offset;
 * access 1: keys are str, read from the instance __dict__;
 * access 2: records are dicts, keys are str.
 *
 * No Python code runs in here: a dict (a record's or an instance's) is read
 * only when every key it holds is an exact str, since a lookup among other
 * keys calls their __eq__, and only exact int, float and str values are
 * written.  A record is held while it is read and the list's length is
 * checked every row all the same (a finalizer run by a collection when the
 * instance __dict__ is made could change the list): a list that changes
 * length returns None.  The text grows geometrically (w_reserve doubles):
 * no size is guessed from a first row, whose length need not be typical.
 */
/* Whether two exact, ready str are equal (no Python code runs): equal text
 * has one canonical kind. */
static inline int
str_equal(PyObject *a, PyObject *b)
{
    if (a == b)
        return 1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(a);
    int kind = PyUnicode_KIND(a);
    return n == PyUnicode_GET_LENGTH(b) && kind == PyUnicode_KIND(b) &&
           memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)n * (size_t)kind) == 0;
}

/*
 * The values of keys[0..width) (exact str) in dict, borrowed, into values.
 * 0; 1 when one is missing or the dict holds a key that is not an exact
 * str (looking up among such keys runs their __eq__, Python code that can
 * change anything -- the Python code writes that row); -1 on error.  The
 * keys are checked in one pass over the dict, which also takes the values
 * when the dict lists the keys first and in order (as records usually do);
 * otherwise each is looked up, which then runs no Python code.
 */
static int
row_values(PyObject *dict, PyObject *keys, Py_ssize_t width, PyObject **values)
{
    Py_ssize_t pos = 0, j = 0;
    PyObject *key, *value;
    int in_order = 1;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key) || !READY(key))
            return 1;
        if (in_order && j < width) {
            if (str_equal(key, PyTuple_GET_ITEM(keys, j)))
                values[j] = value;
            else
                in_order = 0;
        }
        j++;
    }
    if (in_order && j >= width)
        return 0;
    for (j = 0; j < width; j++) {
        value = PyDict_GetItemWithError(dict, PyTuple_GET_ITEM(keys, j));
        if (value == NULL)
            return PyErr_Occurred() ? -1 : 1;
        values[j] = value;
    }
    return 0;
}

static PyObject *
encode_rows(PyObject *self, PyObject *args)
{
    PyObject *records, *cls, *keys, *masks;
    PyObject *toon_delimiter = Py_None, *pad = Py_None, *prefix = Py_None, *suffix = Py_None;
    int access, number;
    if (!PyArg_ParseTuple(args, "O!OiO!O!p|OOOO", &PyList_Type, &records, &cls, &access,
                          &PyTuple_Type, &keys, &PyTuple_Type, &masks, &number,
                          &toon_delimiter, &pad, &prefix, &suffix))
        return NULL;
    /* The text before and after the rows (a whole document in one str). */
    if ((prefix != Py_None && !PyUnicode_Check(prefix)) ||
        (suffix != Py_None && !PyUnicode_Check(suffix)) ||
        (toon_delimiter != Py_None && !PyUnicode_Check(toon_delimiter)) ||
        (pad != Py_None && !PyUnicode_Check(pad))) {
        PyErr_SetString(PyExc_TypeError, "encode_rows: delimiter, pad, prefix, suffix: str or None");
        return NULL;
    }
    if (toon_delimiter == Py_None)
        toon_delimiter = NULL;
    if (pad == Py_None)
        pad = NULL;
    /* TOON rows: cells joined by the delimiter, each line starting with pad. */
    Py_UCS4 delimiter = '\t';
    int toon = toon_delimiter != NULL;
    if (toon) {
        if (PyUnicode_GET_LENGTH(toon_delimiter) != 1 || pad == NULL || number) {
            PyErr_SetString(PyExc_TypeError, "encode_rows: a one-character delimiter and a pad");
            return NULL;
        }
        delimiter = PyUnicode_READ_CHAR(toon_delimiter, 0);
    }
    Py_ssize_t width = PyTuple_GET_SIZE(keys);
    if (PyTuple_GET_SIZE(masks) != width || access < 0 || access > 2) {
        PyErr_SetString(PyExc_TypeError, "encode_rows: keys and masks differ in length");
        return NULL;
    }
    if (access != ACCESS_DICT && !PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "encode_rows: cls must be a class");
        return NULL;
    }
    int stack_masks[64];
    Py_ssize_t stack_offsets[64];
    PyObject *stack_values[64];
    int *mask = stack_masks;
    Py_ssize_t *offset = stack_offsets;
    PyObject **values = stack_values;
    if (width > 64) {
        mask = PyMem_Malloc(sizeof(int) * (size_t)width);
        offset = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)width);
        values = PyMem_Malloc(sizeof(PyObject *) * (size_t)width);
        if (mask == NULL || offset == NULL || values == NULL) {
            PyMem_Free(mask);
            PyMem_Free(offset);
            PyMem_Free(values);
            return PyErr_NoMemory();
        }
    }
    PyObject *result = NULL;
    for (Py_ssize_t j = 0; j < width; j++) {
        PyObject *m = PyTuple_GET_ITEM(masks, j);
        if (!PyLong_CheckExact(m)) { /* another int's __index__ is Python code */
            PyErr_SetString(PyExc_TypeError, "encode_rows: masks must be int");
            goto done;
        }
        mask[j] = (int)PyLong_AsLong(m);
        if (mask[j] == -1 && PyErr_Occurred())
            goto done;
        PyObject *key = PyTuple_GET_ITEM(keys, j);
        if (access == ACCESS_SLOTS) {
            /* A slot of cls (or a base): an object member at a fixed offset. */
            if (!Py_IS_TYPE(key, &PyMemberDescr_Type)) {
                PyErr_SetString(PyExc_TypeError, "encode_rows: slots must be member descriptors");
                goto done;
            }
            PyMemberDescrObject *d = (PyMemberDescrObject *)key;
            PyTypeObject *owner = PyDescr_TYPE(d);
            if (!PyType_IsSubtype((PyTypeObject *)cls, owner) ||
                d->d_member->type != T_OBJECT_EX || d->d_member->offset <= 0 ||
                d->d_member->offset + (Py_ssize_t)sizeof(PyObject *) >
                    ((PyTypeObject *)cls)->tp_basicsize) {
                PyErr_SetString(PyExc_TypeError, "encode_rows: not an object slot of the class");
                goto done;
            }
            offset[j] = d->d_member->offset;
        }
        else if (!PyUnicode_CheckExact(key) || !READY(key)) {
            /* A field name of another class (a str subclass key of the
             * first row): its __eq__ and __hash__ are Python code. */
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    Py_ssize_t count = PyList_GET_SIZE(records);
    if (count == 0) {
        /* No rows (an array emptied by Python code since the caller
         * looked): the Python code writes what an empty array is. */
        result = Py_NewRef(Py_None);
        goto done;
    }
    Writer w;
    w_init(&w);
    if (prefix != Py_None && w_str(&w, prefix) < 0)
        goto error;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (PyList_GET_SIZE(records) != count)
            goto unhandled;
        PyObject *record = PyList_GET_ITEM(records, i);
        Py_INCREF(record);
        PyObject *dict = NULL;
        int rc = 0;
        if (access == ACCESS_DICT) {
            if (!PyDict_CheckExact(record) || PyDict_GET_SIZE(record) != width)
                rc = 1;
            else
                rc = row_values(record, keys, width, values);
        }
        else if ((PyObject *)Py_TYPE(record) != cls) {
            rc = 1;
        }
        else if (access == ACCESS_INSTANCE_DICT) {
            dict = PyObject_GenericGetDict(record, NULL);
            if (dict == NULL)
                rc = -1;
            else if (!PyDict_CheckExact(dict))
                rc = 1; /* a dict subclass: its methods are Python code the
                         * Python path runs (fuzz seed 2026 case 8735) */
            else
                rc = row_values(dict, keys, width, values);
        }
        else {
            for (Py_ssize_t j = 0; j < width; j++) {
                values[j] = *(PyObject **)((char *)record + offset[j]);
                if (values[j] == NULL) {
                    rc = 1;
                    break;
                }
            }
        }
        if (rc == 0 && ((i && w_char(&w, '\n') < 0) || (toon && w_str(&w, pad) < 0)))
            rc = -1;
        if (rc == 0 && number &&
            (w_longlong(&w, (long long)(i + 1)) < 0 || (width && w_char(&w, '\t') < 0)))
            rc = -1;
        /* The values are borrowed from the record (or its dict), held
         * here; writing exact int, float and str runs no Python code. */
        for (Py_ssize_t j = 0; rc == 0 && j < width; j++) {
            if (j && w_char(&w, delimiter) < 0) {
                rc = -1;
                break;
            }
            rc = toon ? w_toon_cell(&w, values[j], mask[j], delimiter)
                      : w_cell(&w, values[j], mask[j]);
        }
        Py_XDECREF(dict);
        Py_DECREF(record);
        if (rc < 0)
            goto error;
        if (rc)
            goto unhandled;
    }
    if (PyList_GET_SIZE(records) != count)
        goto unhandled;
    if (suffix != Py_None && w_str(&w, suffix) < 0)
        goto error;
    result = w_finish(&w);
    goto done;
unhandled:
    w_free(&w);
    result = Py_NewRef(Py_None);
    goto done;
error:
    w_free(&w);
done:
    if (mask != stack_masks)
        PyMem_Free(mask);
    if (offset != stack_offsets)
        PyMem_Free(offset);
    if (values != stack_values)
        PyMem_Free(values);
    return result;
}

/* ------------------------------------------------------------- decode_rows */

/* The lines of body, a tuple that holds them (see decode_rows). */
static int
fill_lines(PyObject *body, Line *lines, Py_ssize_t count)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *line = PyTuple_GET_ITEM(body, i);
        if (!PyUnicode_Check(line) || !READY(line)) {
            PyErr_SetString(PyExc_TypeError, "decode_rows: lines must be str");
            return -1;
        }
        lines[i].line = line;
        lines[i].kind = PyUnicode_KIND(line);
        lines[i].data = PyUnicode_DATA(line);
    }
    return 0;
}

/* Whether cell [s, e) is the decimal text of number. */
static int
is_row_number(const Line *ln, Py_ssize_t s, Py_ssize_t e, Py_ssize_t number)
{
    char buf[24];
    int n = u64_digits((unsigned long long)number, buf);
    if (e - s != n)
        return 0;
    for (int i = 0; i < n; i++) {
        if (PyUnicode_READ(ln->kind, ln->data, s + i) != (Py_UCS4)(unsigned char)buf[i])
            return 0;
    }
    return 1;
}

/*
 * Decode one column.  Fills *values (a new list); *fast says whether the
 * mode's fast path holds for every cell (see decode_rows).  Returns 0; 1
 * when a cell is not handled (the column must be read by the Python code);
 * -1 on error.
 */
static int
decode_column_cells(const Line *lines, const Py_ssize_t *bounds, Py_ssize_t count,
                    Py_ssize_t stride, Py_ssize_t column, PyObject *mode, PyObject **values,
                    int *fast, int *types)
{
    PyObject *list = PyList_New(count);
    if (list == NULL)
        return -1;
    int m = M_GENERIC;
    PyObject *choices = NULL;
    if (PyDict_Check(mode)) {
        m = M_CHOICES;
        choices = mode;
    }
    else {
        if (!PyLong_CheckExact(mode)) { /* another int's __index__ is Python code */
            Py_DECREF(list);
            PyErr_SetString(PyExc_TypeError, "decode_rows: a mode is an int or a dict");
            return -1;
        }
        m = (int)PyLong_AsLong(mode);
        if (m == -1 && PyErr_Occurred()) {
            Py_DECREF(list);
            return -1;
        }
    }
    int ok = 1, seen = 0;
    Choices table;
    table.count = 0;
    int large = choices != NULL ? load_choices(choices, &table) : 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        const Line *ln = &lines[i];
        Py_ssize_t s = bounds[i * stride + column] + (column ? 1 : 0);
        Py_ssize_t e = bounds[i * stride + column + 1];
        if (choices != NULL && ok) {
            PyObject *v = large ? lookup_choice(choices, ln, s, e) : find_choice(&table, ln, s, e);
            if (v != NULL) {
                seen |= v == Py_None ? V_NONE
                        : (v == Py_True || v == Py_False) ? V_BOOL
                        : PyUnicode_CheckExact(v) ? V_STR
                        : V_ALL; /* another value: say nothing exact */
                Py_INCREF(v);
                PyList_SET_ITEM(list, i, v);
                continue;
            }
        }
        int tag = 0, bare = 0;
        PyObject *v = read_cell(ln, s, e, &tag, &bare);
        if (v == NULL) {
            Py_DECREF(list);
            return PyErr_Occurred() ? -1 : 1;
        }
        PyList_SET_ITEM(list, i, v);
        seen |= tag;
        /* A number column holding something else: the Python decoder's own
         * attempt comes first there, so it reads the texts itself. */
        if ((m == M_INT && tag != V_INT) || (m == M_NUMBER && tag != V_INT && tag != V_FLOAT)) {
            Py_DECREF(list);
            return 1;
        }
        switch (m) {
        case M_INT: ok &= tag == V_INT; break;
        case M_NUMBER: ok &= tag == V_INT || tag == V_FLOAT; break;
        case M_STR: ok &= bare; break;
        case M_CHOICES: ok = 0; break;
        default: break;
        }
    }
    if (choices != NULL && !ok) {
        /* Some cell was not a choice: the whole column is read as plain
         * cells (values so far were the dict's, equal to those). */
    }
    *values = list;
    *fast = ok;
    *types = seen;
    return 0;
}

/* The texts of one column (what the Python code decodes itself). */
static PyObject *
column_texts(const Line *lines, const Py_ssize_t *bounds, Py_ssize_t count, Py_ssize_t stride,
             Py_ssize_t column)
{
    PyObject *list = PyList_New(count);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t s = bounds[i * stride + column] + (column ? 1 : 0);
        Py_ssize_t e = bounds[i * stride + column + 1];
        PyObject *text = PyUnicode_Substring(lines[i].line, s, e);
        if (text == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, text);
    }
    return list;
}

/*
 * decode_rows(body, width, modes, numbered) -> (columns, flags, types) | None
 *
 * body: the section's row lines (list of str); width: the declared field
 * count (at least 1); modes: one per field, an int mode or a choices dict;
 * numbered: 0 no reserved n column, 1 the first field is n (checked and
 * decoded), 2 the first field is n (checked and dropped).
 *
 * None when a row has not exactly width cells or the n cells are not
 * exactly "1", "2", ... (the Python code reports or accepts those).
 * Otherwise columns[j] is a list of values, and flags[j] is:
 *   1  the column's mode holds for every cell: M_INT all JSON integers,
 *      M_NUMBER all JSON numbers, M_STR all bare strings, a choices dict
 *      every cell one of its keys (values are then the dict's);
 *   0  decoded cell by cell (eson_cells.decode_cell values), mode not held;
 *   2  not decoded: columns[j] holds the cell texts, for the Python code;
 * and types[j] is the bit mask of the value types in column j (0 for 2).
 */
static PyObject *
decode_rows(PyObject *self, PyObject *args)
{
    PyObject *body, *modes;
    Py_ssize_t width;
    int numbered;
    if (!PyArg_ParseTuple(args, "O!nO!i", &PyList_Type, &body, &width, &PyTuple_Type, &modes,
                          &numbered))
        return NULL;
    if (width < 1 || PyTuple_GET_SIZE(modes) != width || numbered < 0 || numbered > 2) {
        PyErr_SetString(PyExc_TypeError, "decode_rows: bad width, modes or numbered");
        return NULL;
    }
    /* The lines are read through pointers into their text while lists are
     * allocated (a collection, and a finalizer's Python code, may run
     * then): a tuple of them holds them whatever happens to body. */
    PyObject *held = hold_items(body);
    if (held == NULL) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NONE;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(held);
    Py_ssize_t stride = width + 1;
    if (count > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Py_ssize_t) / stride) {
        Py_DECREF(held);
        PyErr_NoMemory();
        return NULL;
    }
    Line *lines = PyMem_Malloc(sizeof(Line) * (size_t)(count ? count : 1));
    Py_ssize_t *bounds = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(count ? count : 1) *
                                      (size_t)stride);
    PyObject *columns = NULL, *flags = NULL, *masks = NULL, *result = NULL;
    if (lines == NULL || bounds == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (fill_lines(held, lines, count) < 0)
        goto done;
    /* Cell boundaries: bounds[i*stride + j] is the TAB before cell j (or
     * -1 for the first), bounds[i*stride + width] the line's end. */
    for (Py_ssize_t i = 0; i < count; i++) {
        const Line *ln = &lines[i];
        Py_ssize_t n = PyUnicode_GET_LENGTH(ln->line);
        Py_ssize_t *b = bounds + i * stride;
        Py_ssize_t cells = 1;
        b[0] = 0;
        if (ln->kind == 1) {
            const char *p = ln->data;
            const char *q = p;
            const char *end = p + n;
            while ((q = memchr(q, '\t', (size_t)(end - q))) != NULL) {
                if (cells == width)
                    goto unhandled;
                b[cells++] = q - p;
                q++;
            }
        }
        else {
            for (Py_ssize_t k = 0; k < n; k++) {
                if (PyUnicode_READ(ln->kind, ln->data, k) == '\t') {
                    if (cells == width)
                        goto unhandled;
                    b[cells++] = k;
                }
            }
        }
        if (cells != width)
            goto unhandled;
        b[width] = n;
        if (numbered && !is_row_number(ln, 0, width > 1 ? b[1] : n, i + 1))
            goto unhandled;
    }
    Py_ssize_t first = numbered == 2 ? 1 : 0;
    columns = PyList_New(width - first);
    flags = PyList_New(width - first);
    masks = PyList_New(width - first);
    if (columns == NULL || flags == NULL || masks == NULL)
        goto done;
    for (Py_ssize_t j = first; j < width; j++) {
        PyObject *values = NULL;
        int fast = 0, types = 0;
        int rc = decode_column_cells(lines, bounds, count, stride, j, PyTuple_GET_ITEM(modes, j),
                                     &values, &fast, &types);
        if (rc < 0)
            goto done;
        if (rc == 1) {
            values = column_texts(lines, bounds, count, stride, j);
            if (values == NULL)
                goto done;
            fast = F_RAW;
        }
        PyList_SET_ITEM(columns, j - first, values);
        PyList_SET_ITEM(flags, j - first, PyLong_FromLong(fast));
        PyList_SET_ITEM(masks, j - first, PyLong_FromLong(fast == F_RAW ? 0 : types));
        if (PyList_GET_ITEM(flags, j - first) == NULL || PyList_GET_ITEM(masks, j - first) == NULL)
            goto done;
    }
    result = PyTuple_Pack(3, columns, flags, masks);
    goto done;
unhandled:
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(columns);
    Py_XDECREF(flags);
    Py_XDECREF(masks);
    Py_XDECREF(held);
    PyMem_Free(lines);
    PyMem_Free(bounds);
    return result;
}

/* ------------------------------------------------------------- TOON rows */

/*
 * One trimmed TOON token's value (eson._internal.wire.toon_quoting.parse_primitive)
 * for unquoted tokens: numbers (ints up to 18 digits; -0.0 reads as 0.0),
 * literals, strings.  NULL without error: not handled (quotes, long ints,
 * a float beyond range).  *tag gets the value's type bit.
 */
static PyObject *
read_toon_token(const Line *ln, Py_ssize_t s, Py_ssize_t e, int *tag)
{
    int kind = ln->kind;
    const void *data = ln->data;
    if (s == e) {
        *tag = V_STR;
        return PyUnicode_New(0, 0);
    }
    Py_UCS4 first = PyUnicode_READ(kind, data, s);
    if (first == '"')
        return NULL;
    if (kind == 1 && is_number_start(first)) {
        PyObject *v = latin1_number((const unsigned char *)data + s, e - s, tag);
        if (v != NULL && *tag == V_FLOAT && PyFloat_AS_DOUBLE(v) == 0.0) {
            Py_DECREF(v);
            return PyFloat_FromDouble(0.0); /* -0.0 reads as 0.0 */
        }
        if (v != NULL || PyErr_Occurred())
            return v;
    }
    if (is_number_start(first)) {
        int fraction;
        if (match_number(kind, data, s, e, &fraction)) {
            Py_ssize_t n = e - s;
            if (!fraction) {
                if (n > SHORT_INT_DIGITS + (first == '-'))
                    return NULL;
                long long v = 0;
                int negative = first == '-';
                for (Py_ssize_t i = s + negative; i < e; i++)
                    v = v * 10 + (long long)(PyUnicode_READ(kind, data, i) - '0');
                *tag = V_INT;
                return PyLong_FromLongLong(negative ? -v : v);
            }
            char small[64];
            if (n >= (Py_ssize_t)sizeof(small))
                return NULL;
            for (Py_ssize_t i = 0; i < n; i++)
                small[i] = (char)PyUnicode_READ(kind, data, s + i);
            double value;
            if (parse_float_ascii(small, n, &value) < 0)
                return NULL;
            if (isinf(value))
                return NULL;
            *tag = V_FLOAT;
            return PyFloat_FromDouble(value == 0.0 ? 0.0 : value);
        }
    }
    else if (e - s <= 5) {
        if (equals_ascii(kind, data, s, e, "null")) {
            *tag = V_NONE;
            Py_RETURN_NONE;
        }
        if (equals_ascii(kind, data, s, e, "true")) {
            *tag = V_BOOL;
            Py_RETURN_TRUE;
        }
        if (equals_ascii(kind, data, s, e, "false")) {
            *tag = V_BOOL;
            Py_RETURN_FALSE;
        }
    }
    *tag = V_STR;
    return PyUnicode_Substring(ln->line, s, e);
}

/*
 * toon_rows(text, separator, delimiter, width, modes) -> (columns, flags) | None
 *
 * The rows of a TOON table held as one text, rows cut at separator (a line
 * feed and the rows' indentation), cells at delimiter.  None when the text
 * holds a quote or a row has not exactly width cells (the Python splitter
 * then decides).  columns[j] and flags[j] as for decode_rows: 1 the mode's
 * fast path holds (M_INT, M_NUMBER, or a choices dict keyed by the cell
 * text as split, spaces included), 0 decoded token by token (parse_cells
 * values), 2 the cells as split (untrimmed), left to the Python decoder.
 */
static PyObject *
toon_rows(PyObject *self, PyObject *args)
{
    PyObject *text, *separator, *delim, *modes;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "O!O!O!nO!", &PyUnicode_Type, &text, &PyUnicode_Type, &separator,
                          &PyUnicode_Type, &delim, &width, &PyTuple_Type, &modes))
        return NULL;
    if (width < 1 || PyTuple_GET_SIZE(modes) != width || PyUnicode_GET_LENGTH(delim) != 1 ||
        PyUnicode_GET_LENGTH(separator) < 1 || PyUnicode_READ_CHAR(separator, 0) != '\n') {
        PyErr_SetString(PyExc_TypeError, "toon_rows: bad width, modes, delimiter or separator");
        return NULL;
    }
    Py_UCS4 delimiter = PyUnicode_READ_CHAR(delim, 0);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t sep_len = PyUnicode_GET_LENGTH(separator);
    int sep_kind = PyUnicode_KIND(separator);
    const void *sep_data = PyUnicode_DATA(separator);
    /* Count rows (line feeds each followed by the separator's pad). */
    Py_ssize_t count = 1;
    if (kind == 1) {
        const char *p = data, *end = p + n, *q = p;
        if (memchr(p, '"', (size_t)n) != NULL)
            Py_RETURN_NONE;
        while ((q = memchr(q, '\n', (size_t)(end - q))) != NULL) {
            count++;
            q++;
        }
    }
    else {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (c == '"')
                Py_RETURN_NONE;
            if (c == '\n')
                count++;
        }
    }
    Py_ssize_t stride = width + 1;
    if (count > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Py_ssize_t) / stride)
        return PyErr_NoMemory();
    Py_ssize_t *bounds = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)count * (size_t)stride);
    Line *lines = PyMem_Malloc(sizeof(Line) * (size_t)count);
    PyObject *columns = NULL, *flags = NULL, *masks = NULL, *result = NULL;
    if (bounds == NULL || lines == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* bounds[r*stride + j]: start of cell j of row r; bounds[r*stride + width]: row end.
     * (Cells are [start, next start - 1) except the last, [start, end).) */
    Py_ssize_t row = 0, pos = 0;
    while (row < count) {
        Py_ssize_t *b = bounds + row * stride;
        Py_ssize_t cells = 0;
        b[cells++] = pos;
        Py_ssize_t i = pos;
        if (kind == 1 && delimiter < 256) {
            const unsigned char *p = data;
            const unsigned char d = (unsigned char)delimiter;
#if defined(__SSE2__)
            const __m128i lf = _mm_set1_epi8('\n'), dv = _mm_set1_epi8((char)d);
#endif
            while (i < n) {
#if defined(__SSE2__)
                /* Skip 16 characters at a time to the next line feed or
                 * delimiter. */
                if (i + 16 <= n) {
                    __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
                    int hits = _mm_movemask_epi8(
                        _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, dv)));
                    if (!hits) {
                        i += 16;
                        continue;
                    }
                    i += __builtin_ctz((unsigned)hits);
                }
#endif
                unsigned char c = p[i];
                if (c == '\n')
                    break;
                if (c == d) {
                    if (cells == width)
                        goto unhandled;
                    b[cells++] = i + 1;
                }
                i++;
            }
        }
        else {
            for (; i < n; i++) {
                Py_UCS4 c = PyUnicode_READ(kind, data, i);
                if (c == '\n')
                    break;
                if (c == delimiter) {
                    if (cells == width)
                        goto unhandled;
                    b[cells++] = i + 1;
                }
            }
        }
        if (cells != width)
            goto unhandled;
        b[width] = i;
        lines[row].kind = kind;
        lines[row].data = data;
        lines[row].line = text;
        row++;
        if (i < n) {
            /* The separator must follow whole: a line feed, then the pad. */
            if (i + sep_len > n)
                goto unhandled;
            for (Py_ssize_t k = 1; k < sep_len; k++) {
                if (PyUnicode_READ(kind, data, i + k) != PyUnicode_READ(sep_kind, sep_data, k))
                    goto unhandled;
            }
            pos = i + sep_len;
        }
        else if (row < count) {
            goto unhandled;
        }
    }
    columns = PyList_New(width);
    flags = PyList_New(width);
    masks = PyList_New(width);
    if (columns == NULL || flags == NULL || masks == NULL)
        goto done;
    for (Py_ssize_t j = 0; j < width; j++) {
        PyObject *mode = PyTuple_GET_ITEM(modes, j);
        int m = M_GENERIC;
        PyObject *choices = NULL;
        Choices table;
        table.count = 0;
        int large = 0;
        /* The list first: its allocation may run a collection (and so a
         * finalizer's Python code), which must not come between borrowing
         * the choices' keys and values and using them. */
        PyObject *list = PyList_New(count);
        if (list == NULL)
            goto done;
        if (PyDict_Check(mode)) {
            m = M_CHOICES;
            choices = mode;
            large = load_choices(choices, &table);
        }
        else {
            if (!PyLong_CheckExact(mode)) { /* another int's __index__ is Python code */
                Py_DECREF(list);
                PyErr_SetString(PyExc_TypeError, "toon_rows: a mode is an int or a dict");
                goto done;
            }
            m = (int)PyLong_AsLong(mode);
            if (m == -1 && PyErr_Occurred()) {
                Py_DECREF(list);
                goto done;
            }
        }
        int ok = 1, raw = 0, seen = 0;
        for (Py_ssize_t r = 0; r < count && !raw; r++) {
            const Line *ln = &lines[r];
            Py_ssize_t *b = bounds + r * stride;
            Py_ssize_t s = b[j];
            Py_ssize_t e = j + 1 < width ? b[j + 1] - 1 : b[width];
            if (choices != NULL && ok) {
                PyObject *v = large ? lookup_choice(choices, ln, s, e) : find_choice(&table, ln, s, e);
                if (v != NULL) {
                    seen |= v == Py_None ? V_NONE
                            : (v == Py_True || v == Py_False) ? V_BOOL
                            : PyUnicode_CheckExact(v) ? V_STR
                            : V_ALL; /* another value: say nothing exact */
                    Py_INCREF(v);
                    PyList_SET_ITEM(list, r, v);
                    continue;
                }
                ok = 0;
            }
            Py_ssize_t ts = s, te = e;
            while (ts < te && PyUnicode_READ(kind, data, ts) == ' ')
                ts++;
            while (te > ts && PyUnicode_READ(kind, data, te - 1) == ' ')
                te--;
            int tag = 0;
            PyObject *v = read_toon_token(ln, ts, te, &tag);
            if (v == NULL) {
                if (PyErr_Occurred()) {
                    Py_DECREF(list);
                    goto done;
                }
                raw = 1;
                break;
            }
            PyList_SET_ITEM(list, r, v);
            seen |= tag;
            if ((m == M_INT && tag != V_INT) || (m == M_NUMBER && tag != V_INT && tag != V_FLOAT))
                raw = 1;
            if (m == M_STR)
                ok = 0; /* no string fast path in TOON */
        }
        if (raw) {
            Py_DECREF(list);
            list = PyList_New(count);
            if (list == NULL)
                goto done;
            for (Py_ssize_t r = 0; r < count; r++) {
                Py_ssize_t *b = bounds + r * stride;
                Py_ssize_t s = b[j];
                Py_ssize_t e = j + 1 < width ? b[j + 1] - 1 : b[width];
                PyObject *cell = PyUnicode_Substring(text, s, e);
                if (cell == NULL) {
                    Py_DECREF(list);
                    goto done;
                }
                PyList_SET_ITEM(list, r, cell);
            }
        }
        PyList_SET_ITEM(columns, j, list);
        PyObject *flag = PyLong_FromLong(raw ? F_RAW : ok);
        if (flag == NULL)
            goto done;
        PyList_SET_ITEM(flags, j, flag);
        PyObject *types = PyLong_FromLong(raw ? 0 : seen);
        if (types == NULL)
            goto done;
        PyList_SET_ITEM(masks, j, types);
    }
    result = PyTuple_Pack(3, columns, flags, masks);
    goto done;
unhandled:
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(columns);
    Py_XDECREF(flags);
    Py_XDECREF(masks);
    PyMem_Free(bounds);
    PyMem_Free(lines);
    return result;
}

/*
 * decode_cells(texts) -> list | None
 *
 * eson_cells.decode_column for cells the accelerator reads; None when a
 * cell needs the Python code (nested JSON, long ints, errors).
 */
static PyObject *
decode_cells(PyObject *self, PyObject *texts)
{
    if (!PyList_Check(texts)) {
        PyErr_SetString(PyExc_TypeError, "decode_cells: expected a list of str");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(texts);
    PyObject *out = PyList_New(count);
    if (out == NULL)
        return NULL;
    /* The loop allocates no tracked object (no collection runs in it), but
     * the allocation above may have run one: the length is taken again. */
    if (PyList_GET_SIZE(texts) != count) {
        Py_DECREF(out);
        Py_RETURN_NONE;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        if (!PyUnicode_Check(text) || !READY(text)) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_TypeError, "decode_cells: expected a list of str");
            return NULL;
        }
        Line ln = {PyUnicode_KIND(text), PyUnicode_DATA(text), text};
        int tag = 0, bare = 0;
        PyObject *v = read_cell(&ln, 0, PyUnicode_GET_LENGTH(text), &tag, &bare);
        if (v == NULL) {
            Py_DECREF(out);
            if (PyErr_Occurred())
                return NULL;
            Py_RETURN_NONE;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* The common length of the lists in `columns` (a list of `width` lists), or
 * -1 with a TypeError naming `who`.  With `names` (a tuple of `width`), each
 * name must be an exact str: another key's __hash__ or __eq__ would run
 * Python code while the rows are built, which could change the columns. */
static Py_ssize_t
column_length(const char *who, PyObject *columns, Py_ssize_t width, PyObject *names)
{
    Py_ssize_t count = -1;
    for (Py_ssize_t j = 0; j < width; j++) {
        PyObject *column = PyList_GET_ITEM(columns, j);
        if (!PyList_Check(column) || (count >= 0 && PyList_GET_SIZE(column) != count)) {
            PyErr_Format(PyExc_TypeError, "%s: columns must be lists of one length", who);
            return -1;
        }
        count = PyList_GET_SIZE(column);
        if (names != NULL && !PyUnicode_CheckExact(PyTuple_GET_ITEM(names, j))) {
            PyErr_Format(PyExc_TypeError, "%s: keys must be str", who);
            return -1;
        }
    }
    return count;
}

/*
 * build_dicts(keys, columns) -> list[dict]
 *
 * One dict per row, {keys[j]: columns[j][i]}, in key order (what the
 * reader's generated record builder gives).
 */
static PyObject *
build_dicts(PyObject *self, PyObject *args)
{
    PyObject *keys, *columns;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &keys, &PyList_Type, &columns))
        return NULL;
    Py_ssize_t width = PyTuple_GET_SIZE(keys);
    if (PyList_GET_SIZE(columns) != width || width == 0) {
        PyErr_SetString(PyExc_TypeError, "build_dicts: one column per key");
        return NULL;
    }
    Py_ssize_t count = column_length("build_dicts", columns, width, keys);
    if (count < 0)
        return NULL;
    int collecting = PyGC_Disable(); /* as in build_structs */
    PyObject *out = PyList_New(count);
    if (out == NULL) {
        if (collecting)
            PyGC_Enable();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *row = PyDict_New();
        if (row == NULL)
            goto error;
        PyList_SET_ITEM(out, i, row);
        for (Py_ssize_t j = 0; j < width; j++) {
            /* No Python code runs here (exact str keys, the collector
             * paused), so the columns keep the lengths checked above. */
            PyObject *column = PyList_GET_ITEM(columns, j);
            if (PyDict_SetItem(row, PyTuple_GET_ITEM(keys, j), PyList_GET_ITEM(column, i)) < 0)
                goto error;
        }
    }
    if (collecting)
        PyGC_Enable();
    return out;
error:
    if (collecting)
        PyGC_Enable();
    Py_DECREF(out);
    return NULL;
}

/*
 * build_records(cls, columns) -> list
 *
 * list(map(cls, *columns)): one call of cls per row with the row's values
 * as positional arguments (through vectorcall, without a tuple per row).
 */
static PyObject *
build_records(PyObject *self, PyObject *args)
{
    PyObject *cls, *columns;
    if (!PyArg_ParseTuple(args, "OO!", &cls, &PyList_Type, &columns))
        return NULL;
    Py_ssize_t width = PyList_GET_SIZE(columns);
    if (width == 0 || width > 64 || !PyCallable_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "build_records: 1 to 64 columns and a callable");
        return NULL;
    }
    Py_ssize_t count = column_length("build_records", columns, width, NULL);
    if (count < 0)
        return NULL;
    /* Hold the columns: calling cls runs Python code that could change them
     * (the lengths are checked again for every row). */
    PyObject *held = hold_items(columns);
    if (held == NULL) {
        if (PyErr_Occurred())
            return NULL;
        PyErr_SetString(PyExc_RuntimeError, "build_records: the columns changed");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        Py_DECREF(held);
        return NULL;
    }
    PyObject *row[64];
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t j = 0;
        for (; j < width; j++) {
            PyObject *column = PyTuple_GET_ITEM(held, j);
            if (i >= PyList_GET_SIZE(column))
                break;
            row[j] = PyList_GET_ITEM(column, i);
            Py_INCREF(row[j]);
        }
        PyObject *record = NULL;
        if (j == width)
            record = PyObject_Vectorcall(cls, row, (size_t)width, NULL);
        else
            PyErr_SetString(PyExc_RuntimeError, "build_records: a column changed size");
        for (Py_ssize_t k = 0; k < j; k++)
            Py_DECREF(row[k]);
        if (record == NULL || PyList_Append(out, record) < 0) {
            Py_XDECREF(record);
            Py_DECREF(out);
            Py_DECREF(held);
            return NULL;
        }
        Py_DECREF(record);
    }
    Py_DECREF(held);
    return out;
}

/* The slot offsets of member descriptors of cls (see encode_rows); -1 with
 * TypeError when one is not an object slot of the class. */
static int
slot_offsets(PyObject *cls, PyObject *slots, Py_ssize_t *offset)
{
    Py_ssize_t width = PyTuple_GET_SIZE(slots);
    for (Py_ssize_t j = 0; j < width; j++) {
        PyObject *key = PyTuple_GET_ITEM(slots, j);
        if (!Py_IS_TYPE(key, &PyMemberDescr_Type)) {
            PyErr_SetString(PyExc_TypeError, "slots must be member descriptors");
            return -1;
        }
        PyMemberDescrObject *d = (PyMemberDescrObject *)key;
        if (!PyType_IsSubtype((PyTypeObject *)cls, PyDescr_TYPE(d)) ||
            d->d_member->type != T_OBJECT_EX || d->d_member->offset <= 0 ||
            d->d_member->offset + (Py_ssize_t)sizeof(PyObject *) >
                ((PyTypeObject *)cls)->tp_basicsize) {
            PyErr_SetString(PyExc_TypeError, "not an object slot of the class");
            return -1;
        }
        offset[j] = d->d_member->offset;
    }
    return 0;
}

/*
 * build_structs(cls, slots, columns) -> list
 *
 * One instance of cls per row with its slots set to the row's values, as
 * the class's own positional constructor sets them -- for classes whose
 * construction is exactly that (msgspec Structs without __post_init__; the
 * caller decides).  Allocation is the class's tp_alloc, which zero-fills.
 */
static PyObject *
build_structs(PyObject *self, PyObject *args)
{
    PyObject *cls, *slots, *columns;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyType_Type, &cls, &PyTuple_Type, &slots, &PyList_Type,
                          &columns))
        return NULL;
    Py_ssize_t width = PyTuple_GET_SIZE(slots);
    if (width == 0 || width > 64 || PyList_GET_SIZE(columns) != width) {
        PyErr_SetString(PyExc_TypeError, "build_structs: 1 to 64 slots, one column each");
        return NULL;
    }
    Py_ssize_t offset[64];
    if (slot_offsets(cls, slots, offset) < 0)
        return NULL;
    Py_ssize_t count = column_length("build_structs", columns, width, NULL);
    if (count < 0)
        return NULL;
    PyTypeObject *type = (PyTypeObject *)cls;
    /* The cycle collector waits while the rows are built: no collection
     * (and so no finalizer's Python code) runs from the first allocation
     * on, and the cost stays linear in the rows -- every young-generation
     * collection would otherwise traverse the columns and the list again. */
    int collecting = PyGC_Disable();
    PyObject *out = PyList_New(count);
    if (out == NULL) {
        if (collecting)
            PyGC_Enable();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        /* No Python code runs in this loop (tp_alloc of a Struct class does
         * not call into Python), so the columns cannot change under it. */
        PyObject *obj = type->tp_alloc(type, 0);
        if (obj == NULL) {
            if (collecting)
                PyGC_Enable();
            Py_DECREF(out);
            return NULL;
        }
        int containers = 0;
        for (Py_ssize_t j = 0; j < width; j++) {
            PyObject *v = PyList_GET_ITEM(PyList_GET_ITEM(columns, j), i);
            Py_INCREF(v);
            *(PyObject **)((char *)obj + offset[j]) = v;
            containers |= PyObject_IS_GC(v);
        }
        /* Like msgspec, leave an instance of atomic values out of the cycle
         * collector: it cannot be part of a cycle. */
        if (!containers && PyObject_IS_GC(obj) && PyObject_GC_IsTracked(obj))
            PyObject_GC_UnTrack(obj);
        PyList_SET_ITEM(out, i, obj);
    }
    if (collecting)
        PyGC_Enable();
    return out;
}

/* ------------------------------------------------------------ read_structs */

/* A column of read_structs: the cells must be keys of a choices dict (the
 * values are the dict's), or values whose type bit is in a mask. */
typedef struct {
    PyObject *choices; /* borrowed (held by the kinds tuple), or NULL */
    Choices table;
    int large;         /* the dict is searched, not the table */
    int mask;          /* the type bits a value may have (without choices) */
} Column;

/* Whether the line [pos, end) may be a row of a TOON table read by
 * read_structs: it ends with a line feed, begins with exactly pad spaces,
 * holds no '"' and its first cell (up to the separator) no ':'. */
static int
toon_row_start(const Line *ln, Py_ssize_t pos, Py_ssize_t end, Py_ssize_t length, Py_ssize_t pad,
               Py_UCS4 separator)
{
    if (end >= length || end - pos <= pad)
        return 0;
    for (Py_ssize_t i = pos; i < pos + pad; i++) {
        if (PyUnicode_READ(ln->kind, ln->data, i) != ' ')
            return 0;
    }
    Py_UCS4 first = PyUnicode_READ(ln->kind, ln->data, pos + pad);
    if (first == ' ' || first == '\t' || first == '#')
        return 0;
    if (ln->kind == 1 && separator < 256) {
        const char *p = (const char *)ln->data;
        size_t size = (size_t)(end - pos - pad);
        if (memchr(p + pos + pad, '"', size) != NULL)
            return 0;
        const char *cut = memchr(p + pos + pad, (int)separator, size);
        size_t head = cut == NULL ? size : (size_t)(cut - (p + pos + pad));
        return memchr(p + pos + pad, ':', head) == NULL;
    }
    int in_first = 1;
    for (Py_ssize_t i = pos + pad; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ(ln->kind, ln->data, i);
        if (c == '"' || (in_first && c == ':'))
            return 0;
        if (c == separator)
            in_first = 0;
    }
    return 1;
}

/*
 * read_structs(text, start, count, cls, slots, kinds, numbered) -> (rows, end) | None
 *
 * The body of a record section read straight from the document text, in one
 * pass: count rows, the first at offset start, each a line of TAB-separated
 * cells ending at a line feed (or at the end of the text), each row made an
 * instance of cls as build_structs makes one (slots[j] set to the value of
 * cell j, or j + 1 when numbered is 2).  Returns the rows and the offset
 * after the last row's line feed (the text's length when it has none).
 *
 * kinds: one per slot, a choices dict (cell text -> value: every cell must
 * be one of its keys, and the row gets the dict's value) or an int mask of
 * the type bits a value may have (the cell is read as read_cell reads it);
 * with the INT_AS_FLOAT bit an int cell becomes the float of its value.
 * numbered: 0 no reserved n column; 1 the first cell is n (checked to be the
 * row number, and read as kinds[0] says); 2 the first cell is n (checked,
 * not kept).
 *
 * None when the text has fewer than count lines from start, a row has not
 * exactly its cells, an n cell is not exactly "1", "2", ..., or a cell is
 * not a choice, not read here (read_cell declines it) or of a type its mask
 * refuses: the caller then reads the section the usual way, which gives the
 * value or the precise error.  text must be an exact str (its character
 * data is read in place) and cls a class whose slots these are -- or dict,
 * when slots are the rows' keys (exact str) and each row is a dict.
 *
 * No Python code runs from the first allocation on: the collector waits
 * (as in build_structs), the dicts are read without calling into Python
 * (exact str keys, compared by their characters), and nothing foreign is
 * released until the rows are complete.
 *
 * read_structs(text, start, count, cls, slots, kinds, 0, delimiter, pad)
 * reads the rows of a TOON table instead: each line begins with exactly pad
 * spaces, its cells are cut at delimiter (one character), a choices dict is
 * keyed by the cell as cut (spaces included) and any other cell is read, its
 * spaces trimmed, as toon_rows reads a token.  Besides the cases above it is
 * None for a line without its pad, one holding a '"' (a quoted cell: the
 * Python reader decides) or whose first cell holds a ':' (a key, which ends
 * a table); numbered must be 0, and a row's line must end with a line feed.
 */
/* What read_structs sets up once for the rows of a section: the class and
 * where its slots are (or the keys of dict rows), each column's kind, and
 * how a line is cut into cells.  The StreamRows core keeps one per open
 * section. */
typedef struct {
    PyTypeObject *type;  /* borrowed: the caller keeps it alive */
    PyObject *slots;     /* borrowed */
    PyObject *keyed;     /* dict rows: a dict of the keys set to None, copied per row */
    Column *columns;
    Py_ssize_t width;    /* values a row has */
    Py_ssize_t cells;    /* cells a line has (a dropped n column included) */
    Py_ssize_t pad;      /* TOON: the rows' indentation; -1 for ESON */
    Py_UCS4 separator;
    int numbered;
    int as_dict;
    int toon;
    int tracked_type;
    Py_ssize_t offset[64];
} RowPlan;

static void
row_plan_free(RowPlan *p)
{
    PyMem_Free(p->columns);
    p->columns = NULL;
    Py_CLEAR(p->keyed);
}

/* Set up p (see read_structs for the arguments); -1 with TypeError for
 * arguments that break the contract (p is then freed). */
static int
row_plan_init(RowPlan *p, PyObject *cls, PyObject *slots, PyObject *kinds, int numbered,
              PyObject *delim, Py_ssize_t pad)
{
    memset(p, 0, sizeof *p);
    Py_ssize_t width = PyTuple_GET_SIZE(slots);
    p->toon = pad >= 0;
    if (width == 0 || width > 64 || PyTuple_GET_SIZE(kinds) != width || numbered < 0 ||
        numbered > 2 || (delim != NULL && PyUnicode_GET_LENGTH(delim) != 1) ||
        (p->toon && (delim == NULL || numbered))) {
        PyErr_SetString(PyExc_TypeError,
                        "read_structs: 1 to 64 slots, one kind each"
                        " (TOON: one delimiter, a pad, no n column)");
        return -1;
    }
    p->type = (PyTypeObject *)cls;
    p->slots = slots;
    p->width = width;
    p->cells = width + (numbered == 2);
    p->pad = pad;
    p->separator = delim == NULL ? '\t' : PyUnicode_READ_CHAR(delim, 0);
    p->numbered = numbered;
    p->tracked_type = PyType_IS_GC(p->type);
    /* dict: each row a dict, slots its keys (exact str: no Python code runs
     * to hash or compare them). */
    p->as_dict = cls == (PyObject *)&PyDict_Type;
    if (p->as_dict) {
        p->keyed = PyDict_New();
        if (p->keyed == NULL)
            return -1;
        for (Py_ssize_t j = 0; j < width; j++) {
            PyObject *key = PyTuple_GET_ITEM(slots, j);
            if (!PyUnicode_CheckExact(key)) {
                PyErr_SetString(PyExc_TypeError, "read_structs: the keys of dict rows are str");
                goto failed;
            }
            if (PyDict_SetItem(p->keyed, key, Py_None) < 0)
                goto failed;
        }
    }
    else if (slot_offsets(cls, slots, p->offset) < 0)
        goto failed;
    p->columns = PyMem_Malloc(sizeof(Column) * (size_t)width);
    if (p->columns == NULL) {
        PyErr_NoMemory();
        goto failed;
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        PyObject *kind = PyTuple_GET_ITEM(kinds, j);
        Column *col = &p->columns[j];
        col->choices = NULL;
        col->large = 0;
        col->mask = 0;
        if (PyDict_CheckExact(kind)) {
            col->choices = kind;
            col->large = load_choices(kind, &col->table);
        }
        else if (PyLong_CheckExact(kind)) {
            long mask = PyLong_AsLong(kind);
            if (mask == -1 && PyErr_Occurred())
                goto failed;
            col->mask = (int)(mask & (V_ALL | V_INT_AS_FLOAT));
        }
        else {
            PyErr_SetString(PyExc_TypeError, "read_structs: a kind is an int or a dict");
            goto failed;
        }
    }
    return 0;
failed:
    row_plan_free(p);
    return -1;
}

/* The row on the line [pos, end) of ln (length: the text's, for a TOON
 * row's final line feed), its n cell checked to be number: 1 with the new
 * row in *out, 0 when the line is not one the plan reads (nothing made),
 * -1 with an exception (MemoryError). */
static inline int
row_plan_read(const RowPlan *p, const Line *ln, Py_ssize_t pos, Py_ssize_t end,
              Py_ssize_t length, Py_ssize_t number, PyObject **out)
{
    PyObject *values[64];
    Py_ssize_t got = 0; /* values[0..got) are read (new references) */
    int containers = 0;
    Py_ssize_t s = pos;
    const Py_ssize_t cells = p->cells;
    const Py_UCS4 separator = p->separator;
    if (p->toon) {
        if (!toon_row_start(ln, pos, end, length, p->pad, separator))
            return 0;
        s = pos + p->pad;
    }
    for (Py_ssize_t c = 0; c < cells; c++) {
        /* Cell c is [s, e): up to the next separator, the last up to the end. */
        Py_ssize_t e;
        if (ln->kind == 1 && separator < 256) {
            const char *d = (const char *)ln->data;
            const char *hit = memchr(d + s, (int)separator, (size_t)(end - s));
            e = hit == NULL ? end : hit - d;
        }
        else {
            e = s;
            while (e < end && PyUnicode_READ(ln->kind, ln->data, e) != separator)
                e++;
        }
        if ((e == end) != (c == cells - 1))
            goto unhandled; /* too few or too many cells */
        if (c == 0 && p->numbered && !is_row_number(ln, s, e, number))
            goto unhandled;
        if (c == 0 && p->numbered == 2) {
            s = e + 1;
            continue;
        }
        const Column *col = &p->columns[c - (p->numbered == 2)];
        PyObject *v;
        if (col->choices != NULL) {
            v = col->large ? lookup_choice(col->choices, ln, s, e)
                           : find_choice(&col->table, ln, s, e);
            if (v == NULL)
                goto unhandled;
            Py_INCREF(v);
        }
        else {
            int tag = 0, bare = 0;
            if (p->toon) {
                Py_ssize_t ts = s, te = e;
                while (ts < te && PyUnicode_READ(ln->kind, ln->data, ts) == ' ')
                    ts++;
                while (te > ts && PyUnicode_READ(ln->kind, ln->data, te - 1) == ' ')
                    te--;
                v = read_toon_token(ln, ts, te, &tag);
            }
            else
                v = read_cell(ln, s, e, &tag, &bare);
            if (v == NULL) {
                if (PyErr_Occurred())
                    goto error;
                goto unhandled;
            }
            if (tag == V_INT && (col->mask & V_INT_AS_FLOAT)) {
                double d = PyLong_AsDouble(v);
                Py_DECREF(v);
                if (d == -1.0 && PyErr_Occurred())
                    goto error;
                v = PyFloat_FromDouble(d);
                if (v == NULL)
                    goto error;
                tag = V_FLOAT;
            }
            if (!(tag & col->mask)) {
                Py_DECREF(v); /* a value of ours: a str, int, float or constant */
                goto unhandled;
            }
        }
        values[got++] = v;
        containers |= PyObject_IS_GC(v);
        s = e + 1;
    }
    if (p->as_dict) {
        /* A copy of the keys' dict is sized for them: no resize as the
         * values go in (PyDict_New would grow past five keys). */
        PyObject *row = PyDict_Copy(p->keyed);
        int failed = row == NULL;
        for (Py_ssize_t j = 0; j < p->width; j++) {
            if (!failed && PyDict_SetItem(row, PyTuple_GET_ITEM(p->slots, j), values[j]) < 0)
                failed = 1;
            Py_DECREF(values[j]); /* the dict holds its own reference */
        }
        if (failed) {
            Py_XDECREF(row);
            return -1;
        }
        *out = row;
        return 1;
    }
    /* The instance is made only once its values are all read, so no
     * instance is ever seen (or finalized) half filled. */
    PyObject *obj = p->type->tp_alloc(p->type, 0);
    if (obj == NULL)
        goto error;
    for (Py_ssize_t j = 0; j < p->width; j++)
        *(PyObject **)((char *)obj + p->offset[j]) = values[j];
    /* Like msgspec, leave an instance of atomic values out of the cycle
     * collector: it cannot be part of a cycle. */
    if (p->tracked_type && !containers && PyObject_GC_IsTracked(obj))
        PyObject_GC_UnTrack(obj);
    *out = obj;
    return 1;
error:
    for (Py_ssize_t k = 0; k < got; k++)
        Py_DECREF(values[k]);
    return -1;
unhandled:
    for (Py_ssize_t k = 0; k < got; k++)
        Py_DECREF(values[k]);
    return 0;
}

static PyObject *
read_structs(PyObject *self, PyObject *args)
{
    PyObject *text, *cls, *slots, *kinds, *delim = NULL;
    Py_ssize_t start, count, pad = -1;
    int numbered;
    if (!PyArg_ParseTuple(args, "O!nnO!O!O!i|O!n", &PyUnicode_Type, &text, &start, &count,
                          &PyType_Type, &cls, &PyTuple_Type, &slots, &PyTuple_Type, &kinds,
                          &numbered, &PyUnicode_Type, &delim, &pad))
        return NULL;
    if (!PyUnicode_CheckExact(text) || !READY(text) || count < 0) {
        PyErr_SetString(PyExc_TypeError, "read_structs: an exact str and a count");
        return NULL;
    }
    RowPlan plan;
    if (row_plan_init(&plan, cls, slots, kinds, numbered, delim, pad) < 0)
        return NULL;
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    /* Every row takes at least one character (its text or its line feed). */
    if (start < 0 || start > length || count > length - start) {
        row_plan_free(&plan);
        Py_RETURN_NONE;
    }
    Line ln;
    ln.line = text;
    ln.kind = PyUnicode_KIND(text);
    ln.data = PyUnicode_DATA(text);
    Py_ssize_t pos = start, built = 0;
    PyObject *result = NULL;
    /* No Python code runs from the first allocation on: the collector waits. */
    int collecting = PyGC_Disable();
    PyObject *out = PyList_New(count);
    if (out == NULL)
        goto done;
    for (; built < count; built++) {
        if (pos >= length)
            goto unhandled; /* fewer lines than rows (a text ending in a line
                             * feed has no empty line after it) */
        /* The row's end: the next line feed, or the end of the text. */
        Py_ssize_t end;
        if (ln.kind == 1) {
            const char *d = (const char *)ln.data;
            const char *hit = memchr(d + pos, '\n', (size_t)(length - pos));
            end = hit == NULL ? length : hit - d;
        }
        else {
            end = pos;
            while (end < length && PyUnicode_READ(ln.kind, ln.data, end) != '\n')
                end++;
        }
        PyObject *row;
        int done = row_plan_read(&plan, &ln, pos, end, length, built + 1, &row);
        if (done < 0)
            goto done;
        if (done == 0)
            goto unhandled;
        PyList_SET_ITEM(out, built, row);
        pos = end + 1;
    }
    if (pos > length)
        pos = length;
    result = Py_BuildValue("(On)", out, pos);
    goto done;
unhandled:
    result = Py_NewRef(Py_None);
done:
    /* The rows not built yet are NULL items, which a list's dealloc skips. */
    Py_XDECREF(out);
    if (collecting)
        PyGC_Enable();
    row_plan_free(&plan);
    return result;
}

/* ------------------------------------------------------------- StreamRows */

/*
 * StreamRows(slow) -- the accelerated front of eson.StreamDecoder.feed.
 *
 * While a record array's rows arrive, feed(chunk) reads every complete line
 * of a str chunk as read_structs reads a row (the same RowPlan), and for
 * each row appends an event (section, row, value) to the decoder's event
 * list, the value to the section's rows and the line's number to its line
 * list -- what the Python row function does.  It returns the events as the
 * Python feed returns them (the list drained).
 *
 * Whatever else arrives goes to slow, the Python feed (the reference), with
 * the text the core has not read: a line the plan declines (and every line
 * after it), a chunk that is not an exact str, a call with keywords -- and,
 * once the section's last row is read, the rest of the chunk (the Python
 * reader ends the section when it takes the rows read).  The core is then
 * disarmed; the Python side calls take() for the rows read meanwhile and
 * the unfinished line held, and arm() again when the next rows may come.
 *
 * A line is declined, besides what read_structs declines, when it is empty,
 * holds a CR (the Python splitter drops the CR of a CRLF), holds a '`' or
 * '~' inside a fenced reply (it may close the fence), or, read leniently,
 * when white space stands at a cell's edge, where the lenient repair strips
 * it: JavaScript's white space but LF (a TAB too) at either end of the
 * line, or beside a TAB.  (read_cell refuses such cells too: this is a
 * second guard.)
 */
/* Bits of StreamRows.refused, by character: it declines the line (REFUSE);
 * read leniently, it is white space a repair strips from a cell's edge
 * (EDGE_SPACE: declined beside a TAB or at either end of the line). */
#define REFUSE 1
#define EDGE_SPACE 2

static PyObject *join_line(PyObject *pieces, PyObject *text, Py_ssize_t end);

typedef struct {
    PyObject_HEAD
    PyObject *slow;    /* the Python feed */
    PyObject *pending; /* the unfinished line: a list of its pieces (str), kept */
    PyObject *name;    /* the section's name */
    PyObject *event_type;
    PyObject *rows;    /* the section's values, or NULL (keep=False) */
    PyObject *lines;   /* the rows' line numbers, or NULL */
    PyObject *cls, *slots, *kinds; /* what the plan reads (kinds: private copies) */
    PyObject *check;   /* makes a row's dict the row's value (Pydantic), or NULL */
    PyObject *failure; /* the exception check raised, for take(), or NULL */
    RowPlan plan;
    int armed;
    int busy;          /* inside feed: no re-entry */
    int lenient;
    int reply;         /* TOON in a reply: a line blank but for white space is Python's */
    unsigned char refused[256]; /* REFUSE and EDGE_SPACE bits by character */
    Py_ssize_t row;    /* rows of the section read (the last row's number) */
    Py_ssize_t line;   /* lines of the document read */
    Py_ssize_t left;   /* rows the section still expects */
    Py_ssize_t taken;  /* rows read since take() */
} StreamRows;

static void
stream_rows_disarm(StreamRows *self)
{
    if (self->armed) {
        row_plan_free(&self->plan);
        self->armed = 0;
    }
    Py_CLEAR(self->name);
    Py_CLEAR(self->event_type);
    Py_CLEAR(self->rows);
    Py_CLEAR(self->lines);
    Py_CLEAR(self->cls);
    Py_CLEAR(self->slots);
    Py_CLEAR(self->kinds);
    Py_CLEAR(self->check);
}

static int
stream_rows_traverse(StreamRows *self, visitproc visit, void *arg)
{
    Py_VISIT(self->slow);
    Py_VISIT(self->pending);
    Py_VISIT(self->name);
    Py_VISIT(self->event_type);
    Py_VISIT(self->rows);
    Py_VISIT(self->lines);
    Py_VISIT(self->cls);
    Py_VISIT(self->slots);
    Py_VISIT(self->kinds);
    Py_VISIT(self->check);
    Py_VISIT(self->failure);
    return 0;
}

/* (The list of pieces holds only str: it cannot be part of a cycle, and
 * stays until the core goes.) */
static int
stream_rows_clear(StreamRows *self)
{
    stream_rows_disarm(self);
    Py_CLEAR(self->slow);
    Py_CLEAR(self->failure);
    return 0;
}

static void
stream_rows_dealloc(StreamRows *self)
{
    PyObject_GC_UnTrack(self);
    stream_rows_clear(self);
    Py_CLEAR(self->pending);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
stream_rows_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *slow;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "StreamRows(slow) takes no keywords");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O:StreamRows", &slow))
        return NULL;
    if (!PyCallable_Check(slow)) {
        PyErr_SetString(PyExc_TypeError, "StreamRows: slow must be callable");
        return NULL;
    }
    StreamRows *self = (StreamRows *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->slow = Py_NewRef(slow);
    self->pending = PyList_New(0);
    if (self->pending == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* arm(name, event_type, rows, lines, row, line, left, reading,
 *     lenient, fenced, pending, check=None) -> None
 *
 * Read the rows of the open section from the next line on: reading is
 * read_structs' (cls, slots, kinds, numbered) for its rows -- or, for the
 * rows of a TOON table, (cls, slots, kinds, 0, delimiter, pad) as
 * read_structs reads a table's --, row and line the numbers of the last row
 * and line read, left (at least 1) the rows it still expects, pending the
 * unfinished line the splitter held.  lenient: (ESON) the lenient reading,
 * whose white-space repairs decline a line; (TOON) a reply, where a line
 * blank but for white space is declined.  With a check (dict rows only),
 * each row's value is check(row_dict, name, row, line); when it raises, the
 * row's line is consumed, the exception kept for take(), and the rest goes
 * to slow. */
static PyObject *
stream_rows_arm(StreamRows *self, PyObject *args)
{
    PyObject *name, *event_type, *rows, *lines, *reading, *pending, *check = Py_None;
    Py_ssize_t row, line, left;
    int lenient, fenced;
    if (!PyArg_ParseTuple(args, "UO!OOnnnO!ppU|O:arm", &name, &PyType_Type, &event_type,
                          &rows, &lines, &row, &line, &left,
                          &PyTuple_Type, &reading, &lenient, &fenced, &pending, &check))
        return NULL;
    PyTypeObject *et = (PyTypeObject *)event_type;
    if (self->busy || self->armed || self->taken || self->failure != NULL ||
        PyList_GET_SIZE(self->pending)) {
        PyErr_SetString(PyExc_TypeError, "StreamRows.arm: take() first");
        return NULL;
    }
    if (!PyType_IsSubtype(et, &PyTuple_Type) || et->tp_basicsize != PyTuple_Type.tp_basicsize ||
        et->tp_itemsize != PyTuple_Type.tp_itemsize ||
        (rows != Py_None && !PyList_CheckExact(rows)) ||
        (lines != Py_None && !PyList_CheckExact(lines)) || row < 0 || line < 0 || left < 1 ||
        !PyUnicode_CheckExact(name) || !PyUnicode_CheckExact(pending) ||
        (PyTuple_GET_SIZE(reading) != 4 && PyTuple_GET_SIZE(reading) != 6) ||
        (check != Py_None &&
         (!PyCallable_Check(check) || PyTuple_GET_ITEM(reading, 0) != (PyObject *)&PyDict_Type))) {
        PyErr_SetString(PyExc_TypeError,
                        "StreamRows.arm: a tuple type of no more fields, lists, counts,"
                        " a row left, a (cls, slots, kinds, numbered[, delimiter, pad]) reading,"
                        " a check of dicts");
        return NULL;
    }
    PyObject *cls = PyTuple_GET_ITEM(reading, 0), *slots = PyTuple_GET_ITEM(reading, 1);
    PyObject *kinds = PyTuple_GET_ITEM(reading, 2);
    int overflow = 0;
    long mode = PyLong_Check(PyTuple_GET_ITEM(reading, 3))
                    ? PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(reading, 3), &overflow)
                    : -1;
    if (mode == -1 && PyErr_Occurred())
        return NULL;
    int numbered = overflow || mode < 0 || mode > 2 ? -1 : (int)mode; /* -1: refused below */
    PyObject *delim = NULL;
    Py_ssize_t pad = -1;
    if (PyTuple_GET_SIZE(reading) == 6) {
        /* TOON: a one-character delimiter that no row's other text holds
         * (not a line feed, a space or a quote), a pad of at least one space */
        delim = PyTuple_GET_ITEM(reading, 4);
        pad = PyLong_Check(PyTuple_GET_ITEM(reading, 5))
                  ? PyLong_AsSsize_t(PyTuple_GET_ITEM(reading, 5))
                  : -1;
        if (pad == -1 && PyErr_Occurred())
            return NULL;
        Py_UCS4 d = PyUnicode_Check(delim) && PyUnicode_GET_LENGTH(delim) == 1
                        ? PyUnicode_READ_CHAR(delim, 0)
                        : '\n';
        if (pad < 1 || d == '\n' || d == '\r' || d == ' ' || d == '"' || numbered != 0) {
            PyErr_SetString(PyExc_TypeError,
                            "StreamRows.arm: a TOON reading's delimiter is one character, its pad"
                            " at least 1, no n column");
            return NULL;
        }
    }
    if (!PyType_Check(cls) || !PyTuple_Check(slots) || !PyTuple_Check(kinds) ||
        PyUnicode_FindChar(pending, '\n', 0, PyUnicode_GET_LENGTH(pending), 1) != -1) {
        PyErr_SetString(PyExc_TypeError, "StreamRows.arm: a class, slots, kinds; one line pending");
        return NULL;
    }
    /* The choices dicts are copied: the core reads them across calls, and
     * no one else holds the copies. */
    Py_ssize_t width = PyTuple_GET_SIZE(kinds);
    PyObject *own = PyTuple_New(width);
    if (own == NULL)
        return NULL;
    for (Py_ssize_t j = 0; j < width; j++) {
        PyObject *kind = PyTuple_GET_ITEM(kinds, j);
        PyObject *copy = PyDict_CheckExact(kind) ? PyDict_Copy(kind) : Py_NewRef(kind);
        if (copy == NULL) {
            Py_DECREF(own);
            return NULL;
        }
        PyTuple_SET_ITEM(own, j, copy);
    }
    if (row_plan_init(&self->plan, cls, slots, own, numbered, delim, pad) < 0) {
        Py_DECREF(own);
        return NULL;
    }
    self->armed = 1;
    self->kinds = own;
    self->cls = Py_NewRef(cls);
    self->slots = Py_NewRef(slots);
    self->name = Py_NewRef(name);
    self->event_type = Py_NewRef(event_type);
    self->rows = rows == Py_None ? NULL : Py_NewRef(rows);
    self->lines = lines == Py_None ? NULL : Py_NewRef(lines);
    self->check = check == Py_None ? NULL : Py_NewRef(check);
    self->row = row;
    self->line = line;
    self->left = left;
    self->lenient = lenient && pad < 0;
    self->reply = lenient && pad >= 0;
    memset(self->refused, 0, sizeof self->refused);
    self->refused['\r'] = REFUSE;
    if (fenced)
        self->refused['`'] = self->refused['~'] = REFUSE;
    if (self->lenient) {
        /* JavaScript's white space but TAB and LF, below 256 (CR is refused) */
        for (Py_UCS4 c = 0; c < 256; c++) {
            if (is_js_space(c) && c != '\t' && c != '\n')
                self->refused[c] |= EDGE_SPACE;
        }
    }
    if (PyUnicode_GET_LENGTH(pending)) {
        if (PyList_Append(self->pending, pending) < 0) {
            stream_rows_disarm(self);
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

/* take() -> (rows, pending, failure) | None: the rows read since the last
 * take, the unfinished line held ("") and the exception a check raised on
 * the row after them (None); the core is disarmed.  None when it holds
 * nothing and is not armed. */
static PyObject *
stream_rows_take(StreamRows *self, PyObject *unused)
{
    if (self->busy) {
        PyErr_SetString(PyExc_TypeError, "StreamRows.take: inside feed");
        return NULL;
    }
    if (!self->armed && !self->taken && self->failure == NULL && !PyList_GET_SIZE(self->pending))
        Py_RETURN_NONE;
    stream_rows_disarm(self);
    PyObject *pending = join_line(self->pending, NULL, 0);
    if (pending != NULL && PyList_SetSlice(self->pending, 0, PY_SSIZE_T_MAX, NULL) < 0)
        Py_CLEAR(pending);
    if (pending == NULL)
        return NULL;
    PyObject *failure = self->failure != NULL ? self->failure : Py_NewRef(Py_None);
    self->failure = NULL;
    PyObject *out = Py_BuildValue("(nNN)", self->taken, pending, failure);
    self->taken = 0;
    return out;
}

static PyObject *
stream_rows_armed(StreamRows *self, void *closure)
{
    return PyBool_FromLong(self->armed);
}

/* Whether c is white space a lenient read strips from a cell's edge. */
static inline int
edge_space(const StreamRows *self, Py_UCS4 c)
{
    return c < 256 ? (self->refused[c] & EDGE_SPACE) != 0
                   : self->lenient && is_js_space(c);
}

/* Whether the line [s, e) of ln must go to the Python reader (see above). */
static int
stream_line_declined(const StreamRows *self, const Line *ln, Py_ssize_t s, Py_ssize_t e)
{
    if (e <= s)
        return 1;
    const unsigned char *refused = self->refused;
    const int lenient = self->lenient;
    if (lenient) {
        Py_UCS4 first = PyUnicode_READ(ln->kind, ln->data, s);
        Py_UCS4 last = PyUnicode_READ(ln->kind, ln->data, e - 1);
        if (first == '\t' || last == '\t' || edge_space(self, first) || edge_space(self, last))
            return 1;
    }
    if (ln->kind == 1) {
        const Py_UCS1 *p = (const Py_UCS1 *)ln->data;
        Py_ssize_t i = s;
#if defined(__SSE2__)
        /* 16 characters a step: the refused ones, and (lenient) a TAB beside
         * white space, compared with the next character's block.  The
         * compares spell the table's set below 256 (is_js_space: space, VT,
         * FF, CR, no-break space; TAB and LF are row structure). */
        const __m128i cr = _mm_set1_epi8('\r'), tick = _mm_set1_epi8('`');
        const __m128i tilde = _mm_set1_epi8('~'), vt = _mm_set1_epi8('\v');
        const __m128i ff = _mm_set1_epi8('\f'), nbsp = _mm_set1_epi8((char)0xA0);
        const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
        const int fenced = refused['`'] != 0;
        for (; i + 17 <= e; i += 16) {
            __m128i b = _mm_loadu_si128((const __m128i *)(p + i));
            __m128i hit = _mm_cmpeq_epi8(b, cr);
            if (fenced)
                hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(b, tick),
                                                     _mm_cmpeq_epi8(b, tilde)));
            if (lenient) {
                __m128i next = _mm_loadu_si128((const __m128i *)(p + i + 1));
                __m128i white = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(b, space), _mm_cmpeq_epi8(b, vt)),
                    _mm_or_si128(_mm_cmpeq_epi8(b, ff), _mm_cmpeq_epi8(b, nbsp)));
                __m128i next_white = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(next, space), _mm_cmpeq_epi8(next, vt)),
                    _mm_or_si128(_mm_cmpeq_epi8(next, ff), _mm_cmpeq_epi8(next, nbsp)));
                hit = _mm_or_si128(
                    hit, _mm_or_si128(_mm_and_si128(white, _mm_cmpeq_epi8(next, tab)),
                                      _mm_and_si128(_mm_cmpeq_epi8(b, tab), next_white)));
            }
            if (_mm_movemask_epi8(hit))
                return 1;
        }
#endif
        for (; i < e; i++) {
            Py_UCS1 c = p[i];
            if (refused[c] & REFUSE)
                return 1;
            /* a TAB's neighbours are inside the line: its ends are not TABs */
            if (lenient && c == '\t' && ((refused[p[i - 1]] | refused[p[i + 1]]) & EDGE_SPACE))
                return 1;
        }
        return 0;
    }
/* UCS-2 and UCS-4 lines: each character read once at its own width. */
#define DECLINED_WIDE(T)                                                               \
    do {                                                                              \
        const T *p_ = (const T *)ln->data;                                            \
        for (Py_ssize_t i_ = s; i_ < e; i_++) {                                       \
            Py_UCS4 c_ = p_[i_];                                                      \
            if (c_ < 256 && (refused[c_] & REFUSE))                                   \
                return 1;                                                             \
            if (lenient && c_ == '\t' &&                                              \
                (edge_space(self, p_[i_ - 1]) || edge_space(self, p_[i_ + 1])))        \
                return 1;                                                             \
        }                                                                             \
    } while (0)
    if (ln->kind == 2)
        DECLINED_WIDE(Py_UCS2);
    else
        DECLINED_WIDE(Py_UCS4);
#undef DECLINED_WIDE
    return 0;
}

/* Read the line [s, e) of text as the next row: 1 read (its event appended
 * to events, its value and line to the section's lists; the core disarmed
 * after the section's last row), 0 declined, 2 consumed but its check
 * raised (kept in failure), -1 error. */
static int
stream_rows_line(StreamRows *self, PyObject *events, PyObject *text, Py_ssize_t s, Py_ssize_t e)
{
    Line ln;
    ln.line = text;
    ln.kind = PyUnicode_KIND(text);
    ln.data = PyUnicode_DATA(text);
    if (stream_line_declined(self, &ln, s, e))
        return 0;
    /* (TOON, a reply) a line of white space after the pad may be a blank
     * line the reply holds back: Python's */
    if (__builtin_expect(self->reply, 0) && e - s > self->plan.pad &&
        is_js_space(PyUnicode_READ(ln.kind, ln.data, s + self->plan.pad)))
        return 0;
    PyObject *value;
    /* (A TOON row's line ends with a line feed: the line is complete.) */
    int done = row_plan_read(&self->plan, &ln, s, e, e + self->plan.toon, self->row + 1, &value);
    if (done <= 0)
        return done;
    if (self->check != NULL) {
        /* Python code runs here (the framework's validation): the core is
         * busy, so it is neither fed, armed nor taken from meanwhile. */
        PyObject *row = PyLong_FromSsize_t(self->row + 1);
        PyObject *at = PyLong_FromSsize_t(self->line + 1);
        PyObject *checked = NULL;
        if (row != NULL && at != NULL) {
            PyObject *call[4] = {value, self->name, row, at};
            checked = PyObject_Vectorcall(self->check, call, 4, NULL);
        }
        Py_XDECREF(row);
        Py_XDECREF(at);
        Py_DECREF(value);
        if (checked == NULL) {
            if (row == NULL || at == NULL || PyErr_ExceptionMatches(PyExc_MemoryError))
                return -1;
            PyObject *type, *exc, *tb;
            PyErr_Fetch(&type, &exc, &tb);
            PyErr_NormalizeException(&type, &exc, &tb);
            if (tb != NULL && exc != NULL)
                PyException_SetTraceback(exc, tb);
            Py_XDECREF(type);
            Py_XDECREF(tb);
            if (exc == NULL)
                return -1;
            self->failure = exc;
            return 2;
        }
        value = checked;
    }
    PyTypeObject *et = (PyTypeObject *)self->event_type;
    PyObject *event = et->tp_alloc(et, 3);
    PyObject *number = PyLong_FromSsize_t(self->row + 1);
    if (event == NULL || number == NULL) {
        Py_XDECREF(event);
        Py_XDECREF(number);
        Py_DECREF(value);
        return -1;
    }
    PyTuple_SET_ITEM(event, 0, Py_NewRef(self->name));
    PyTuple_SET_ITEM(event, 1, number);
    PyTuple_SET_ITEM(event, 2, value); /* the event holds the new reference */
    int failed = PyList_Append(events, event) < 0;
    Py_DECREF(event);
    if (!failed && self->rows != NULL)
        failed = PyList_Append(self->rows, value) < 0;
    if (!failed && self->lines != NULL) {
        PyObject *at = PyLong_FromSsize_t(self->line + 1);
        failed = at == NULL || PyList_Append(self->lines, at) < 0;
        Py_XDECREF(at);
    }
    if (failed)
        return -1;
    self->row++;
    self->line++;
    self->taken++;
    if (--self->left == 0)
        stream_rows_disarm(self); /* the section is complete: Python ends it */
    return 1;
}

/* The rest of the stream (rest, a new reference) goes to slow; its events
 * follow those in events (a new reference, returned). */
static PyObject *
stream_rows_hand_over(StreamRows *self, PyObject *events, PyObject *rest)
{
    stream_rows_disarm(self);
    PyObject *more = rest == NULL ? NULL : PyObject_CallOneArg(self->slow, rest);
    Py_XDECREF(rest);
    if (more == NULL || !PyList_CheckExact(more)) {
        if (more != NULL)
            PyErr_SetString(PyExc_TypeError, "StreamRows: slow returns a list");
        Py_XDECREF(more);
        Py_DECREF(events);
        return NULL;
    }
    if (PyList_GET_SIZE(events) == 0) {
        Py_DECREF(events);
        return more;
    }
    Py_ssize_t count = PyList_GET_SIZE(events);
    int failed = PyList_SetSlice(events, count, count, more) < 0;
    Py_DECREF(more);
    if (failed)
        Py_CLEAR(events);
    return events;
}

/* The largest character of text[0:end), for the kind of a str holding it
 * (text's own kind's maximum may be larger: a wider character may follow). */
static Py_UCS4
max_char(PyObject *text, Py_ssize_t end)
{
    if (PyUnicode_IS_ASCII(text))
        return 127;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_UCS4 most = 0;
    for (Py_ssize_t i = 0; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c > most)
            most = c;
    }
    return most;
}

/* A str holding the pieces (a list of exact str) and then text[0:end)
 * (text may be NULL), copied once. */
static PyObject *
join_line(PyObject *pieces, PyObject *text, Py_ssize_t end)
{
    Py_ssize_t count = PyList_GET_SIZE(pieces), size = text == NULL ? 0 : end;
    Py_UCS4 top = text == NULL ? 0
                  : end == PyUnicode_GET_LENGTH(text) ? PyUnicode_MAX_CHAR_VALUE(text)
                                                    : max_char(text, end);
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *piece = PyList_GET_ITEM(pieces, k);
        Py_ssize_t n = PyUnicode_GET_LENGTH(piece);
        /* a whole str is compact: its kind's maximum keeps the result's kind */
        Py_UCS4 most = PyUnicode_MAX_CHAR_VALUE(piece);
        if (most > top)
            top = most;
        if (n > PY_SSIZE_T_MAX - size)
            return PyErr_NoMemory();
        size += n;
    }
    PyObject *out = PyUnicode_New(size, top);
    if (out == NULL)
        return NULL;
    Py_ssize_t at = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *piece = PyList_GET_ITEM(pieces, k);
        Py_ssize_t n = PyUnicode_GET_LENGTH(piece);
        if (PyUnicode_CopyCharacters(out, at, piece, 0, n) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        at += n;
    }
    if (text != NULL && PyUnicode_CopyCharacters(out, at, text, 0, end) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static PyObject *
stream_rows_feed(StreamRows *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (self->slow == NULL) {
        PyErr_SetString(PyExc_TypeError, "StreamRows: cleared");
        return NULL;
    }
    if (!self->armed || self->busy || nargs != 1 || kwnames != NULL ||
        !PyUnicode_CheckExact(args[0]) || !READY(args[0])) {
        /* busy: a finalizer feeding the same stream mid-read; Python says no */
        if (!self->busy)
            stream_rows_disarm(self);
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    }
    PyObject *chunk = args[0];
    Py_ssize_t length = PyUnicode_GET_LENGTH(chunk);
    Py_ssize_t nl = PyUnicode_FindChar(chunk, '\n', 0, length, 1);
    if (nl < -1)
        return NULL;
    if (nl == -1) {
        /* the pieces are joined once the line is complete: linear in its length */
        if (length) {
            if (PyList_Append(self->pending, chunk) < 0)
                return NULL;
        }
        return PyList_New(0);
    }
    PyObject *events = PyList_New(0);
    if (events == NULL)
        return NULL;
    Py_ssize_t pos = 0;
    int declined = 0;
    self->busy = 1;
    if (PyList_GET_SIZE(self->pending)) {
        /* The first line began in an earlier chunk. */
        PyObject *first = join_line(self->pending, chunk, nl);
        if (first == NULL)
            goto failed;
        int got = stream_rows_line(self, events, first, 0, PyUnicode_GET_LENGTH(first));
        Py_DECREF(first);
        if (got < 0)
            goto failed;
        if (got == 2) { /* the rest after the failed row is Python's */
            if (PyList_SetSlice(self->pending, 0, PY_SSIZE_T_MAX, NULL) < 0)
                goto failed;
            self->busy = 0;
            return stream_rows_hand_over(self, events, PyUnicode_Substring(chunk, nl + 1, length));
        }
        if (got == 0) {
            PyObject *rest = join_line(self->pending, chunk, length);
            if (PyList_SetSlice(self->pending, 0, PY_SSIZE_T_MAX, NULL) < 0)
                Py_CLEAR(rest);
            self->busy = 0;
            return stream_rows_hand_over(self, events, rest);
        }
        if (PyList_SetSlice(self->pending, 0, PY_SSIZE_T_MAX, NULL) < 0)
            goto failed;
        pos = nl + 1;
    }
    while (self->armed) {
        nl = PyUnicode_FindChar(chunk, '\n', pos, length, 1);
        if (nl < -1)
            goto failed;
        if (nl == -1)
            break;
        int got = stream_rows_line(self, events, chunk, pos, nl);
        if (got < 0)
            goto failed;
        if (got == 0) {
            declined = 1;
            break;
        }
        pos = nl + 1;
        if (got == 2) { /* the rest after the failed row is Python's */
            declined = 1;
            break;
        }
    }
    self->busy = 0;
    if (declined || !self->armed) /* a declined line, or the section's last row */
        return stream_rows_hand_over(self, events, PyUnicode_Substring(chunk, pos, length));
    if (pos < length) {
        PyObject *piece = PyUnicode_Substring(chunk, pos, length);
        if (piece == NULL)
            goto failed;
        int failed = PyList_Append(self->pending, piece) < 0;
        Py_DECREF(piece);
        if (failed)
            goto failed;
    }
    return events;
failed:
    self->busy = 0;
    Py_DECREF(events);
    return NULL;
}

static PyMethodDef stream_rows_methods[] = {
    {"feed", (PyCFunction)(void (*)(void))stream_rows_feed, METH_FASTCALL | METH_KEYWORDS,
     "feed(chunk, *, final=False, stop_reason=None) -> list"},
    {"arm", (PyCFunction)stream_rows_arm, METH_VARARGS,
     "arm(name, event_type, rows, lines, row, line, left, reading, lenient, fenced,"
     " pending, check=None) -> None"},
    {"take", (PyCFunction)stream_rows_take, METH_NOARGS,
     "take() -> (rows, pending, failure) | None"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef stream_rows_getset[] = {
    {"armed", (getter)stream_rows_armed, NULL, "Whether the core reads the rows that arrive.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject StreamRowsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "eson._speedups.StreamRows",
    .tp_basicsize = sizeof(StreamRows),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "StreamRows(slow): the accelerated front of StreamDecoder.feed.",
    .tp_new = stream_rows_new,
    .tp_dealloc = (destructor)stream_rows_dealloc,
    .tp_traverse = (traverseproc)stream_rows_traverse,
    .tp_clear = (inquiry)stream_rows_clear,
    .tp_methods = stream_rows_methods,
    .tp_getset = stream_rows_getset,
};

/*
 * skip_lines(text, start, count, pad=-1) -> int
 *
 * Where the count-th line from offset start ends: the offset of its line
 * feed, or the text's length when it is the last line and has none; -1 when
 * the text has fewer lines from start (a text ending in a line feed has no
 * empty line after it).  count is at least 1; text an exact str.
 *
 * With pad >= 0 the lines are the rows of a TOON table at that indentation:
 * each must begin with exactly pad spaces and then a character that is none
 * of space, TAB, line feed and '#' (what the typed TOON reader's template
 * accepts as a row); -1 when one does not.
 */
static PyObject *
skip_lines(PyObject *self, PyObject *args)
{
    PyObject *text;
    Py_ssize_t start, count, pad = -1;
    if (!PyArg_ParseTuple(args, "O!nn|n", &PyUnicode_Type, &text, &start, &count, &pad))
        return NULL;
    if (!PyUnicode_CheckExact(text) || !READY(text) || count < 1) {
        PyErr_SetString(PyExc_TypeError, "skip_lines: an exact str and a count of at least 1");
        return NULL;
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t pos = start < 0 ? length : start, end = -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (pos >= length)
            return PyLong_FromSsize_t(-1);
        if (pad >= 0) {
            if (length - pos <= pad)
                return PyLong_FromSsize_t(-1);
            for (Py_ssize_t j = pos; j < pos + pad; j++) {
                if (PyUnicode_READ(kind, data, j) != ' ')
                    return PyLong_FromSsize_t(-1);
            }
            Py_UCS4 first = PyUnicode_READ(kind, data, pos + pad);
            if (first == ' ' || first == '\t' || first == '\n' || first == '#')
                return PyLong_FromSsize_t(-1);
        }
        if (kind == 1) {
            const char *hit = memchr((const char *)data + pos, '\n', (size_t)(length - pos));
            end = hit == NULL ? length : hit - (const char *)data;
        }
        else {
            end = pos;
            while (end < length && PyUnicode_READ(kind, data, end) != '\n')
                end++;
        }
        pos = end + 1;
    }
    return PyLong_FromSsize_t(end);
}

/*
 * build_models(cls, names, columns, extra) -> list
 *
 * One Pydantic model instance per row, made as pydantic-core makes the
 * instance of a validated model: the class's tp_new with no arguments, then
 * (as pydantic-core's force_setattr, generic attribute setting) __dict__ =
 * {names[j]: columns[j][i]}, __pydantic_extra__ = None (a new empty dict per
 * instance when extra is true), __pydantic_private__ = None and
 * __pydantic_fields_set__ = a new set of the names.  For rows whose values
 * the caller knows are what validation would return, of classes whose
 * validation is exactly that (no validators, no __init__, no
 * model_post_init; the caller decides).  cls must use object.__new__ and
 * names must be exact str, so no Python code runs while the rows are built.
 */
static PyObject *
build_models(PyObject *self, PyObject *args)
{
    PyObject *cls, *names, *columns;
    int extra;
    if (!PyArg_ParseTuple(args, "O!O!O!p", &PyType_Type, &cls, &PyTuple_Type, &names,
                          &PyList_Type, &columns, &extra))
        return NULL;
    PyTypeObject *type = (PyTypeObject *)cls;
    Py_ssize_t width = PyTuple_GET_SIZE(names);
    if (width == 0 || PyList_GET_SIZE(columns) != width ||
        type->tp_new != PyBaseObject_Type.tp_new) {
        PyErr_SetString(PyExc_TypeError,
                        "build_models: a class using object.__new__, one column per name");
        return NULL;
    }
    Py_ssize_t count = column_length("build_models", columns, width, names);
    if (count < 0)
        return NULL;
    static PyObject *k_dict, *k_extra, *k_private, *k_fields_set;
    if (k_fields_set == NULL) {
        k_dict = PyUnicode_InternFromString("__dict__");
        k_extra = PyUnicode_InternFromString("__pydantic_extra__");
        k_private = PyUnicode_InternFromString("__pydantic_private__");
        k_fields_set = PyUnicode_InternFromString("__pydantic_fields_set__");
        if (k_dict == NULL || k_extra == NULL || k_private == NULL || k_fields_set == NULL) {
            Py_CLEAR(k_fields_set);
            return NULL;
        }
    }
    PyObject *template = PyFrozenSet_New(names);
    if (template == NULL)
        return NULL;
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL) {
        Py_DECREF(template);
        return NULL;
    }
    int collecting = PyGC_Disable(); /* as in build_structs */
    PyObject *out = PyList_New(count);
    if (out == NULL)
        goto error;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *obj = type->tp_new(type, empty, NULL);
        if (obj == NULL)
            goto error;
        PyList_SET_ITEM(out, i, obj);
        PyObject *dict = PyDict_New();
        if (dict == NULL)
            goto error;
        for (Py_ssize_t j = 0; j < width; j++) {
            /* No Python code runs here (exact str keys, the collector paused,
             * object.__new__), so the columns keep the lengths checked above. */
            PyObject *column = PyList_GET_ITEM(columns, j);
            if (PyDict_SetItem(dict, PyTuple_GET_ITEM(names, j), PyList_GET_ITEM(column, i)) < 0) {
                Py_DECREF(dict);
                goto error;
            }
        }
        int failed = PyObject_GenericSetAttr(obj, k_dict, dict);
        Py_DECREF(dict);
        if (failed < 0)
            goto error;
        PyObject *more = extra ? PyDict_New() : Py_NewRef(Py_None);
        if (more == NULL)
            goto error;
        failed = PyObject_GenericSetAttr(obj, k_extra, more);
        Py_DECREF(more);
        if (failed < 0 || PyObject_GenericSetAttr(obj, k_private, Py_None) < 0)
            goto error;
        PyObject *set = PySet_New(template);
        if (set == NULL)
            goto error;
        failed = PyObject_GenericSetAttr(obj, k_fields_set, set);
        Py_DECREF(set);
        if (failed < 0)
            goto error;
    }
    if (collecting)
        PyGC_Enable();
    Py_DECREF(template);
    Py_DECREF(empty);
    return out;
error:
    if (collecting)
        PyGC_Enable();
    Py_XDECREF(out);
    Py_DECREF(template);
    Py_DECREF(empty);
    return NULL;
}

/* ------------------------------------------------------------ single cells */

/* quote(text) -> str: eson_json.quote of an exact str (None for others). */
static PyObject *
quote(PyObject *self, PyObject *text)
{
    if (!PyUnicode_CheckExact(text))
        Py_RETURN_NONE;
    Writer w;
    w_init(&w);
    int rc = w_quoted(&w, text);
    if (rc) {
        w_free(&w);
        if (rc < 0)
            return NULL;
        Py_RETURN_NONE; /* a split surrogate pair: the Python code raises */
    }
    return w_finish(&w);
}

/* encode_str(text) -> str: the cell of an exact str, itself when bare (None for others). */
static PyObject *
encode_str(PyObject *self, PyObject *text)
{
    if (PyUnicode_CheckExact(text) && str_is_bare(text)) {
        Py_INCREF(text);
        return text;
    }
    return quote(self, text);
}

/* is_bare(text) -> bool | None */
static PyObject *
is_bare(PyObject *self, PyObject *text)
{
    if (!PyUnicode_CheckExact(text))
        Py_RETURN_NONE;
    return PyBool_FromLong(str_is_bare(text));
}

/* toon_bare_strings(values, delimiter) -> bool | None: whether every value
 * of a list or tuple may stand in TOON without quotes (None: another
 * sequence, a value not an exact str, or a delimiter not one character). */
static PyObject *
toon_bare_strings(PyObject *self, PyObject *args)
{
    PyObject *values, *delimiter;
    if (!PyArg_ParseTuple(args, "OU", &values, &delimiter))
        return NULL;
    if (PyUnicode_GET_LENGTH(delimiter) != 1 || !(PyList_CheckExact(values) || PyTuple_CheckExact(values)))
        Py_RETURN_NONE;
    Py_UCS4 d = PyUnicode_READ_CHAR(delimiter, 0);
    /* No Python code runs in the loop: the list keeps its items. */
    PyObject **items = PySequence_Fast_ITEMS(values);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(values); i++) {
        PyObject *item = items[i];
        int surrogate;
        if (!PyUnicode_CheckExact(item) || !READY(item))
            Py_RETURN_NONE;
        if (!toon_is_safe(item, d, &surrogate))
            Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

/* Copy all of text into the new str row at offset at (a memcpy when
 * their kinds agree). */
static int
copy_text(PyObject *row, Py_ssize_t at, PyObject *text)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (n == 0)
        return 0;
    int kind = PyUnicode_KIND(row);
    if (PyUnicode_KIND(text) == kind) {
        memcpy((char *)PyUnicode_DATA(row) + at * kind, PyUnicode_DATA(text), (size_t)(n * kind));
        return 0;
    }
    return PyUnicode_CopyCharacters(row, at, text, 0, n) < 0 ? -1 : 0;
}

/* join_rows(columns, delimiter, pad) -> list[str] | None: the rows of a
 * table, [pad + delimiter.join(row) for row in zip(*columns)], for columns
 * that are lists or tuples of exact str of one length (None otherwise). */
static PyObject *
join_rows(PyObject *self, PyObject *args)
{
    PyObject *columns, *delimiter, *pad;
    if (!PyArg_ParseTuple(args, "O!UU", &PyList_Type, &columns, &delimiter, &pad))
        return NULL;
    Py_ssize_t width = PyList_GET_SIZE(columns);
    if (width == 0 || !READY(delimiter) || !READY(pad))
        Py_RETURN_NONE;
    /* The collector waits (as in build_structs): no finalizer runs to
     * change the columns while the rows are made. */
    int collecting = PyGC_Disable();
    PyObject *out = NULL;
    Py_ssize_t count = -1;
    for (Py_ssize_t j = 0; j < width; j++) {
        PyObject *column = PyList_GET_ITEM(columns, j);
        if (!(PyList_CheckExact(column) || PyTuple_CheckExact(column)) ||
            (count >= 0 && PySequence_Fast_GET_SIZE(column) != count))
            goto unhandled;
        count = PySequence_Fast_GET_SIZE(column);
    }
    out = PyList_New(count);
    if (out == NULL)
        goto done;
    Py_ssize_t dlen = PyUnicode_GET_LENGTH(delimiter), plen = PyUnicode_GET_LENGTH(pad);
    /* The rows are canonical str: the widest character they hold decides
     * their kind (the delimiter only when a row has two cells or more). */
    Py_UCS4 base = 0;
    if (width > 1 && dlen)
        base = PyUnicode_MAX_CHAR_VALUE(delimiter);
    if (plen && PyUnicode_MAX_CHAR_VALUE(pad) > base)
        base = PyUnicode_MAX_CHAR_VALUE(pad);
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t length = plen + dlen * (width - 1);
        Py_UCS4 maxchar = base;
        for (Py_ssize_t j = 0; j < width; j++) {
            PyObject *cell = PySequence_Fast_ITEMS(PyList_GET_ITEM(columns, j))[i];
            if (!PyUnicode_CheckExact(cell) || !READY(cell))
                goto unhandled;
            if (PyUnicode_GET_LENGTH(cell) > PY_SSIZE_T_MAX - length) {
                PyErr_NoMemory();
                goto done;
            }
            length += PyUnicode_GET_LENGTH(cell);
            if (PyUnicode_MAX_CHAR_VALUE(cell) > maxchar)
                maxchar = PyUnicode_MAX_CHAR_VALUE(cell);
        }
        PyObject *row = PyUnicode_New(length, maxchar);
        if (row == NULL)
            goto done;
        PyList_SET_ITEM(out, i, row);
        Py_ssize_t at = 0;
        if (copy_text(row, at, pad) < 0)
            goto done;
        at += plen;
        for (Py_ssize_t j = 0; j < width; j++) {
            if (j) {
                if (copy_text(row, at, delimiter) < 0)
                    goto done;
                at += dlen;
            }
            PyObject *cell = PySequence_Fast_ITEMS(PyList_GET_ITEM(columns, j))[i];
            if (copy_text(row, at, cell) < 0)
                goto done;
            at += PyUnicode_GET_LENGTH(cell);
        }
    }
    if (collecting)
        PyGC_Enable();
    return out;
unhandled:
    Py_XDECREF(out);
    if (collecting)
        PyGC_Enable();
    Py_RETURN_NONE;
done:
    /* An error: the rows not made yet are NULL items, which a list's dealloc skips. */
    Py_XDECREF(out);
    if (collecting)
        PyGC_Enable();
    return NULL;
}

/* format_float(value) -> str | None: ESON text of an exact finite float. */
static PyObject *
format_float(PyObject *self, PyObject *value)
{
    if (!PyFloat_CheckExact(value))
        Py_RETURN_NONE;
    Writer w;
    w_init(&w);
    int rc = w_float(&w, PyFloat_AS_DOUBLE(value));
    if (rc < 0) {
        w_free(&w);
        if (rc == -1)
            Py_RETURN_NONE;
        return NULL;
    }
    return w_finish(&w);
}

/* encode_cells(values, mask=all) -> list[str] | None: eson_cells.encode_column
 * for values of exact types the mask allows. */
static PyObject *
encode_cells(PyObject *self, PyObject *args)
{
    PyObject *values;
    int mask = V_ALL;
    if (!PyArg_ParseTuple(args, "O|i", &values, &mask))
        return NULL;
    if (!PyList_Check(values) && !PyTuple_Check(values))
        Py_RETURN_NONE;
    PyObject *seq = PySequence_Fast(values, "encode_cells");
    if (seq == NULL)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(count);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    /* A list is not copied by PySequence_Fast: the allocation above may
     * have run a collection (and a finalizer) that changed it.  The loop
     * allocates no tracked object. */
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        Py_DECREF(out);
        Py_DECREF(seq);
        Py_RETURN_NONE;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = PySequence_Fast_GET_ITEM(seq, i);
        PyObject *cell;
        if (PyUnicode_CheckExact(v) && (mask & V_STR) && str_is_bare(v)) {
            Py_INCREF(v);
            cell = v;
        }
        else {
            Writer w;
            w_init(&w);
            int rc = w_cell(&w, v, mask);
            if (rc) {
                w_free(&w);
                Py_DECREF(out);
                Py_DECREF(seq);
                if (rc < 0)
                    return NULL;
                Py_RETURN_NONE;
            }
            cell = w_finish(&w);
            if (cell == NULL) {
                Py_DECREF(out);
                Py_DECREF(seq);
                return NULL;
            }
        }
        PyList_SET_ITEM(out, i, cell);
    }
    Py_DECREF(seq);
    return out;
}

/* parse_float(text) -> float | None: float() of ASCII number text. */
static PyObject *
parse_float(PyObject *self, PyObject *text)
{
    if (!PyUnicode_CheckExact(text))
        Py_RETURN_NONE;
    int fraction;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (!match_number(PyUnicode_KIND(text), PyUnicode_DATA(text), 0, n, &fraction))
        Py_RETURN_NONE;
    Py_ssize_t size;
    const char *s = PyUnicode_AsUTF8AndSize(text, &size); /* ASCII: the grammar */
    if (s == NULL)
        return NULL;
    double value;
    if (parse_float_ascii(s, size, &value) < 0)
        return NULL;
    return PyFloat_FromDouble(value);
}

/* Bits of char_classes: how the cell code classifies one code point. */
#define C_JS_SPACE 1     /* is_js_space: not at either end of a bare cell */
#define C_LINE_BREAK 2   /* LINE_BREAKS: not in a Latin-1 bare cell (code points < 256) */
#define C_UNSAFE 4       /* is_unsafe_inside: not in a wider bare cell */
#define C_JSON_START 8   /* is_json_start: a bare cell does not start with it */
#define C_NUMBER_START 16 /* is_number_start: a cell starting with it may be a number */

/* char_classes(start, stop) -> bytes: the C_* bits of each code point in
 * [start, stop), read from the same tests the cell code uses, so a test can
 * hold them against eson._internal.wire.eson_lexicon. */
static PyObject *
char_classes(PyObject *self, PyObject *args)
{
    long start, stop;
    if (!PyArg_ParseTuple(args, "ll:char_classes", &start, &stop))
        return NULL;
    if (start < 0 || stop > 0x110000 || stop < start) {
        PyErr_SetString(PyExc_ValueError, "char_classes takes 0 <= start <= stop <= 0x110000");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, stop - start);
    if (out == NULL)
        return NULL;
    char *bits = PyBytes_AS_STRING(out);
    for (long cp = start; cp < stop; cp++) {
        Py_UCS4 c = (Py_UCS4)cp;
        bits[cp - start] = (char)((is_js_space(c) ? C_JS_SPACE : 0) |
                                  (c < 256 && LINE_BREAKS[c] ? C_LINE_BREAK : 0) |
                                  (is_unsafe_inside(c) ? C_UNSAFE : 0) |
                                  (is_json_start(c) ? C_JSON_START : 0) |
                                  (is_number_start(c) ? C_NUMBER_START : 0));
    }
    return out;
}

/* wide_blocks(on) -> bool: whether UCS-4 text is quoted eight characters a
 * block (AVX2) -- switched off, four (SSE2) -- and what it was before.  For
 * the tests, which run both paths; it cannot switch on what the CPU lacks. */
static PyObject *
wide_blocks(PyObject *self, PyObject *on)
{
    int want = PyObject_IsTrue(on);
    if (want < 0)
        return NULL;
#ifdef HAVE_AVX2_PATH
    int before = cpu_avx2;
    __builtin_cpu_init();
    cpu_avx2 = want && __builtin_cpu_supports("avx2");
    return PyBool_FromLong(before);
#else
    return PyBool_FromLong(0);
#endif
}

static PyMethodDef methods[] = {
    {"wide_blocks", wide_blocks, METH_O, "wide_blocks(on) -> bool (the state before)"},
    {"encode_rows", encode_rows, METH_VARARGS,
     "encode_rows(records, cls, access, keys, masks, number, toon_delimiter=None, pad='') -> str | None"},
    {"decode_rows", decode_rows, METH_VARARGS,
     "decode_rows(body, width, modes, numbered) -> (columns, flags, types) | None"},
    {"decode_cells", decode_cells, METH_O, "decode_cells(texts) -> list | None"},
    {"toon_rows", toon_rows, METH_VARARGS,
     "toon_rows(text, separator, delimiter, width, modes) -> (columns, flags) | None"},
    {"encode_cells", encode_cells, METH_VARARGS, "encode_cells(values, mask=31) -> list[str] | None"},
    {"build_dicts", build_dicts, METH_VARARGS, "build_dicts(keys, columns) -> list[dict]"},
    {"build_records", build_records, METH_VARARGS, "build_records(cls, columns) -> list"},
    {"build_structs", build_structs, METH_VARARGS, "build_structs(cls, slots, columns) -> list"},
    {"read_structs", read_structs, METH_VARARGS,
     "read_structs(text, start, count, cls, slots, kinds, numbered, delimiter='\\t', pad=-1)"
     " -> (rows, end) | None"},
    {"skip_lines", skip_lines, METH_VARARGS, "skip_lines(text, start, count, pad=-1) -> int"},
    {"build_models", build_models, METH_VARARGS,
     "build_models(cls, names, columns, extra) -> list"},
    {"encode_str", encode_str, METH_O, "encode_str(text) -> str | None"},
    {"quote", quote, METH_O, "quote(text) -> str | None"},
    {"is_bare", is_bare, METH_O, "is_bare(text) -> bool | None"},
    {"join_rows", join_rows, METH_VARARGS, "join_rows(columns, delimiter, pad) -> list[str] | None"},
    {"toon_bare_strings", toon_bare_strings, METH_VARARGS,
     "toon_bare_strings(values, delimiter) -> bool | None"},
    {"format_float", format_float, METH_O, "format_float(value) -> str | None"},
    {"parse_float", parse_float, METH_O, "parse_float(text) -> float | None"},
    {"char_classes", char_classes, METH_VARARGS, "char_classes(start, stop) -> bytes"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "eson._speedups",
    "The optional C accelerator of typed-eson (see eson._internal.accelerator).",
    0,
    methods,
};

/* The numbers the Python side passes and reads (eson._internal.accelerator takes them
 * from here), and the C_* bits of char_classes. */
static const struct {
    const char *name;
    long value;
} CONSTANTS[] = {
    {"ACCESS_SLOTS", ACCESS_SLOTS},
    {"ACCESS_INSTANCE_DICT", ACCESS_INSTANCE_DICT},
    {"ACCESS_DICT", ACCESS_DICT},
    {"MODE_GENERIC", M_GENERIC},
    {"MODE_INT", M_INT},
    {"MODE_NUMBER", M_NUMBER},
    {"MODE_STR", M_STR},
    {"RAW", F_RAW},
    {"TYPE_STR", V_STR},
    {"TYPE_INT", V_INT},
    {"TYPE_FLOAT", V_FLOAT},
    {"TYPE_BOOL", V_BOOL},
    {"TYPE_NONE", V_NONE},
    {"INT_AS_FLOAT", V_INT_AS_FLOAT},
    {"SHORT_INT_DIGITS", SHORT_INT_DIGITS},
    {"MAX_CHOICES", MAX_CHOICES},
    {"CLASS_JS_SPACE", C_JS_SPACE},
    {"CLASS_LINE_BREAK", C_LINE_BREAK},
    {"CLASS_UNSAFE", C_UNSAFE},
    {"CLASS_JSON_START", C_JSON_START},
    {"CLASS_NUMBER_START", C_NUMBER_START},
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
#ifdef HAVE_AVX2_PATH
    __builtin_cpu_init();
    cpu_avx2 = __builtin_cpu_supports("avx2");
#endif
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyType_Ready(&StreamRowsType) < 0 ||
        PyModule_AddObjectRef(m, "StreamRows", (PyObject *)&StreamRowsType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    for (size_t i = 0; i < sizeof CONSTANTS / sizeof CONSTANTS[0]; i++) {
        if (PyModule_AddIntConstant(m, CONSTANTS[i].name, CONSTANTS[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
