"""Fast impurity of class counts, for the split search.

:meth:`offcenter.measures.impurity.Impurity.of_counts` is the reference; these kernels take
counts (m, q) (integers, or sums of row weights) and their totals (m,) without checks and agree
with it to 1e-12 (tested for every measure). One class per strategy, chosen by
``CountKernel(imp, q, n_max, weighted)`` (:func:`kernel_class`): Shannon uses a table of
k log2 k (no logarithm in the loop), Gini sums of squares, DKM sum_j sqrt(c_j (n - c_j)) / n, two-class off-centered measures a
direct formula on the pseudo-frequency of class 1, off-centered ones the paper's two lines per
class, the asymmetric entropy its closed form; the other settings go through the registry
kernel on frequencies. With weighted rows (float counts) no table indexed by integer counts,
no float32 screening and no row bound is used (their error bounds assume integer counts and
moves of one unit row): the exact float64 kernels only.
"""

from __future__ import annotations

import numpy as np

from offcenter.measures.impurity import Impurity

#: Largest count for which the k log2 k table is built (memory 8 bytes per entry).
TABLE_LIMIT = 1 << 24


#: Columns per chunk of the float32 kernel (its temporaries stay in cache).
F32_CHUNK = 1 << 15

#: Counts below this are exact in float32 (2**24).
F32_EXACT = 1 << 24
_U32 = 2.0**-24  # unit roundoff of float32
#: numpy's float32 logarithm is within 3.83 ulp (measured on 10**8 arguments); twice that.
_LOG32_REL = 8 * 2.0**-23


class CountKernel:
    """``kernel(counts, n) -> impurity`` for an :class:`Impurity` on q classes.

    ``CountKernel(imp, q, n_max, weighted=False)`` builds the subclass that fits the setting
    (:func:`kernel_class`); ``n_max`` is the largest total (for the tables), ``weighted``
    says that counts are sums of weights (floats).

    ``approx`` is None, or a faster float32 version of the kernel whose error is at most
    ``approx_error`` (absolute, same units) on every row: the split search screens candidates
    with it and evaluates exactly only those that can still win (see ``numeric.score_candidates``).
    """

    approx = None
    approx_error = 0.0
    #: None, or ``row_bound(c_lo, c_hi, n_lo, n_hi) -> (q, m)``: for counts anywhere in the box
    #: [c_lo, c_hi] (class-major, (q, m)) with totals in [n_lo, n_hi], a bound on
    #: |f(c + e_k) - f(c)|, where f(c) = n * impurity(c) and e_k is one row of class k (see
    #: ``search.block_screen``).
    row_bound = None
    #: Fewest thresholds per node (on average over a feature) for which the block screening
    #: is cheaper than evaluating every threshold (float32 or exact); None: never. Measured
    #: per kernel (benchmarks/README.md): blocks cost a few exact evaluations per block.
    block_node_min = None

    def __new__(cls, imp: Impurity, q: int, n_max: int, weighted: bool = False):
        if cls is CountKernel:
            cls = kernel_class(imp, q, n_max, weighted)
        return super().__new__(cls)

    def __init__(self, imp: Impurity, q: int, n_max: int, weighted: bool = False):
        self.imp = imp
        self.q = q
        self.n_max = n_max
        self.weighted = weighted

    def __call__(self, counts: np.ndarray, n: np.ndarray) -> np.ndarray:
        raise NotImplementedError


def kernel_class(imp: Impurity, q: int, n_max: int, weighted: bool = False) -> type:
    """The kernel class of an Impurity on q classes (integer counts up to n_max, or weighted)."""
    name = imp.name
    plain = imp.theta is None or (imp.off_centered and np.allclose(imp.theta, 1.0 / q))
    plain = plain and imp.info.theta == "optional"
    if name == "shannon" and plain:
        return ShannonFloatKernel if weighted or n_max > TABLE_LIMIT else ShannonTableKernel
    if name == "gini" and plain:
        return GiniKernel
    if name == "dkm" and plain:
        return DKMKernel
    if (
        q == 2
        and imp.off_centered
        and name in ("shannon", "gini")
        and not np.allclose(imp.theta, 0.5)
    ):
        return (
            TwoClassOffCenteredShannonKernel if name == "shannon" else TwoClassOffCenteredGiniKernel
        )
    if imp.off_centered:
        return {"shannon": OffCenteredShannonKernel, "gini": OffCenteredGiniKernel}.get(
            name, OffCenteredKernel
        )
    if imp.info.theta == "builtin":
        return AsymmetricKernel
    return GenericKernel


class ShannonTableKernel(CountKernel):
    """Shannon entropy of integer counts from a table of k log2 k, k <= n_max."""

    def __init__(self, imp, q, n_max, weighted=False):
        super().__init__(imp, q, n_max, weighted)
        k = np.arange(n_max + 1, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = k * np.log2(k)
        t[0] = 0.0
        self._table = t

    def _shannon_table(self, c, n):
        t = self._table
        s = t.take(c[:, 0])  # take: faster than fancy indexing
        for j in range(1, c.shape[1]):
            s += t.take(c[:, j])
        totals = np.asarray(n)
        safe = np.where(totals > 0, totals, 1)
        return np.maximum((t.take(totals) - s) / safe, 0.0)

    __call__ = _shannon_table


class ShannonFloatKernel(CountKernel):
    """Shannon entropy of float (weighted) counts."""

    def _shannon_float(self, c, n):
        """Shannon entropy (bits) of float (weighted) counts: (n log2 n - sum c log2 c) / n,
        evaluated as the table kernel does (same value for integer-valued counts)."""
        cf = np.asarray(c, np.float64)

        def xlogx(x):
            pos = x > 0
            return np.where(pos, x * np.log2(np.where(pos, x, 1.0)), 0.0)

        s = xlogx(cf[:, 0])
        for j in range(1, cf.shape[1]):
            s += xlogx(cf[:, j])
        nf = np.asarray(n, np.float64)
        safe = np.where(nf > 0, nf, 1.0)
        return np.where(nf > 0, np.maximum((xlogx(nf) - s) / safe, 0.0), 0.0)

    __call__ = _shannon_float


#: Below this n * n (n about 1e-154), the Gini kernel divides frequencies, not squares.
_GINI_TINY = 2.0**-960


class GiniKernel(CountKernel):
    """Gini index: 1 - sum_j (c_j / n)^2."""

    def _gini(self, c, n):
        cf = c.astype(np.float64)
        nf = np.asarray(n, dtype=np.float64)
        sq = (cf * cf).sum(axis=1)
        safe = np.where(nf > 0, nf, 1.0)
        den = safe * safe
        tiny = den < _GINI_TINY
        if tiny.any():
            # n below about 1e-154 (a sum of tiny weights): n * n underflows; the frequencies
            # themselves do not (0 / 0 would stop the fit)
            f = cf[tiny] / safe[tiny, None]
            out = 1.0 - sq / np.where(tiny, 1.0, den)
            out[tiny] = 1.0 - (f * f).sum(axis=1)
            return np.where(nf > 0, np.maximum(out, 0.0), 0.0)
        return np.where(nf > 0, np.maximum(1.0 - sq / den, 0.0), 0.0)

    __call__ = _gini


class DKMKernel(CountKernel):
    """DKM impurity of counts: sum_j sqrt(c_j (n - c_j)) / n (no division per class)."""

    def _dkm(self, c, n):
        cf = np.asarray(c, dtype=np.float64)
        nf = np.asarray(n, dtype=np.float64)
        s = np.sqrt(np.maximum(cf[:, 0] * (nf - cf[:, 0]), 0.0))
        for j in range(1, cf.shape[1]):
            s += np.sqrt(np.maximum(cf[:, j] * (nf - cf[:, j]), 0.0))
        safe = np.where(nf > 0, nf, 1.0)
        return np.where(nf > 0, s / safe, 0.0)

    __call__ = _dkm


class _OffCenteredBase(CountKernel):
    """The off-centering's two lines per class (section 4 of the paper)."""

    def __init__(self, imp, q, n_max, weighted=False):
        super().__init__(imp, q, n_max, weighted)
        self._lines(imp.theta)

    def _lines(self, theta) -> np.ndarray:
        """The off-centering's two lines per class (section 4 of the paper):
        pi_j * n = a_j c_j below theta_j, b_j c_j + d_j n above."""
        q = self.q
        th = np.asarray(theta, np.float64)
        self._a = 1.0 / (q * th)
        self._b = (q - 1.0) / (q * (1.0 - th))
        self._d = (1.0 - q * th) / (q * (1.0 - th))
        self._th = th
        return th

    def _oc_cols(self, c, n):
        """Yield u_j = n pi_j for each class j (1-D, contiguous) and n as float."""
        nf = np.asarray(n, dtype=np.float64)
        for j in range(c.shape[1]):
            cj = c[:, j].astype(np.float64)
            yield (
                j,
                np.where(
                    cj <= self._th[j] * nf, cj * self._a[j], cj * self._b[j] + self._d[j] * nf
                ),
            )

    def _oc_u(self, c, n):
        """Unnormalised pseudo-counts u = n pi (m, q) and their sum S."""
        u = np.empty(c.shape, np.float64)
        for j, uj in self._oc_cols(c, n):
            u[:, j] = uj
        return u, u.sum(axis=1)

    def _oc_shannon_row_bound(self, c_lo, c_hi, n_lo, n_hi):
        """Bound (bits) on how much one row changes n * H(pi*), over a box of counts.

        Let f(c) = n H(pi*(c / n)) in nats, with U_j = n w_j the unnormalised pseudo-counts
        (U_j = a_j c_j below theta_j, b_j c_j + d_j n above, d_j = 1 - b_j), S = sum_j w_j and
        rho = 1 / S. Adding a row of class k along c + t e_k (n + t), t in [0, 1]:

            df/dt = H (1 - rho S') + rho sum_j U'_j (-ln pi*_j),

        with U'_k = a_k below theta_k and 1 above, U'_j = 0 below and d_j above for j != k,
        and S' = sum_j U'_j. f is continuous and piecewise smooth, so |f(c + e_k) - f(c)| is
        at most the integral of |df/dt| over t. Over the box, p_j = c_j / n lies in
        [c_lo / n_hi, c_hi / n_lo] and w_j in [w(p_lo), w(p_hi)] (w is increasing), so S and
        rho have bounds; H <= ln q; a class above theta has w_j >= 1/q, so
        -ln pi*_j <= ln(S_hi / max(w_lo_j, 1/q)). The moved class below theta has
        -ln pi*_k = ln(n S / (a_k (c_k + t))), whose integral over t is at most
        ln(n_hi S_hi / a_k) + 1 - ln max(c_lo_k, 1) (the integral of -ln t is 1). A class
        that can be on both sides of theta in the box gets both cases' terms. The derivation
        is checked numerically against the exact difference in the tests.
        """
        q = self.q
        th, a, b, d = (x[:, None] for x in (self._th, self._a, self._b, self._d))
        nh = np.asarray(n_hi, np.float64)
        p_lo = c_lo / nh
        p_hi = np.minimum(c_hi / np.maximum(np.asarray(n_lo, np.float64), 1.0), 1.0)
        below = p_lo <= th
        above = p_hi >= th
        w_lo = np.where(below, a * p_lo, b * p_lo + d)
        w_hi = np.where(p_hi <= th, a * p_hi, b * p_hi + d)
        s_lo = np.maximum(w_lo.sum(axis=0), 1.0 / q)
        s_hi = np.minimum(w_hi.sum(axis=0), float(q))
        r_lo, r_hi = 1.0 / s_hi, 1.0 / s_lo
        # S' = U'_k + sum_{j != k} U'_j: its range for each moved class k
        o_lo = np.where(above, np.where(below, np.minimum(d, 0.0), d), 0.0)
        o_hi = np.where(above, np.where(below, np.maximum(d, 0.0), d), 0.0)
        k_lo = np.where(below, np.where(above, np.minimum(a, 1.0), a), 1.0)
        k_hi = np.where(below, np.where(above, np.maximum(a, 1.0), a), 1.0)
        sp_lo = k_lo + (o_lo.sum(axis=0) - o_lo)
        sp_hi = k_hi + (o_hi.sum(axis=0) - o_hi)
        x_lo = np.minimum(r_lo * sp_lo, r_hi * sp_lo)
        x_hi = np.maximum(r_lo * sp_hi, r_hi * sp_hi)
        t1 = np.log(q) * np.maximum(np.abs(1.0 - x_lo), np.abs(1.0 - x_hi))
        lam = np.log(s_hi / np.maximum(w_lo, 1.0 / q))  # -ln pi*_j above theta_j
        t2j = np.where(above, np.abs(d) * lam, 0.0)
        t2 = r_hi * (t2j.sum(axis=0) - t2j)
        t3 = np.where(above, r_hi * lam, 0.0)
        lb = np.log(nh * s_hi / a) + 1.0 - np.log(np.maximum(c_lo, 1.0))
        t3 += np.where(below, r_hi * a * np.maximum(lb, 0.0), 0.0)
        return (t1 + t2 + t3) / np.log(2.0)


class _TwoClassOffCentered(_OffCenteredBase):
    """Two classes: a direct formula on the pseudo-frequency of class 1."""

    def __init__(self, imp, q, n_max, weighted=False):
        super().__init__(imp, q, n_max, weighted)
        self._t1 = float(imp.theta[1])

    def _pi1(self, c, n):
        """Pseudo-frequency of class 1 (two classes): the paper's boolean transform."""
        nf = np.asarray(n, dtype=np.float64)
        safe = np.where(nf > 0, nf, 1.0)
        p = c[:, 1] / safe
        t = self._t1
        return np.where(p <= t, p / (2.0 * t), (p + 1.0 - 2.0 * t) / (2.0 * (1.0 - t))), nf


class TwoClassOffCenteredShannonKernel(_TwoClassOffCentered):
    """Off-centered Shannon entropy, two classes (with a row bound on integer counts)."""

    def __init__(self, imp, q, n_max, weighted=False):
        super().__init__(imp, q, n_max, weighted)
        if not weighted:
            self.row_bound = self._oc_shannon_row_bound
            self.block_node_min = 50_000  # the two-class kernel is cheap

    def _oc2_shannon(self, c, n):
        pi, nf = self._pi1(c, n)
        a = np.where(pi > 0.0, pi, 1.0)
        b = np.where(pi < 1.0, 1.0 - pi, 1.0)
        h = -(pi * np.log2(a) + (1.0 - pi) * np.log2(b))
        return np.where(nf > 0, np.maximum(h, 0.0), 0.0)

    __call__ = _oc2_shannon


class TwoClassOffCenteredGiniKernel(_TwoClassOffCentered):
    """Off-centered Gini index, two classes."""

    def _oc2_gini(self, c, n):
        pi, nf = self._pi1(c, n)
        return np.where(nf > 0, np.maximum(2.0 * pi * (1.0 - pi), 0.0), 0.0)

    __call__ = _oc2_gini


class OffCenteredShannonKernel(_OffCenteredBase):
    """Off-centered Shannon entropy: per-class tables below theta_j, a float32 version and a
    row bound (q > 2, integer counts) for the screenings."""

    def __init__(self, imp, q, n_max, weighted=False):
        super().__init__(imp, q, n_max, weighted)
        th = self._th
        self._a32, self._b32, self._d32 = (
            x.astype(np.float32) for x in (self._a, self._b, self._d)
        )
        self._pick = [np.minimum if t < 1.0 / q else np.maximum for t in th]
        self._la = np.log2(self._a)
        self._below = None
        if weighted:
            return
        if n_max * q <= TABLE_LIMIT:
            # u log2 u for u = a_j k below theta_j, k = 0..n_max, one table per class
            k = np.arange(n_max + 1, dtype=np.float64)
            with np.errstate(divide="ignore", invalid="ignore"):
                klogk = k * np.log2(k)
            klogk[0] = 0.0
            self._below = [self._a[j] * (klogk + k * self._la[j]) for j in range(q)]
        if q > 2 and n_max < F32_EXACT:
            self.approx = self._oc_shannon_f32
            self.approx_error = self._oc_shannon_f32_error()
            self.row_bound = self._oc_shannon_row_bound
            self.block_node_min = 3_000

    def _oc_shannon(self, c, n):
        # With u_j = n pi_j and S = sum u_j: H = log2 S - sum_j u_j log2 u_j / S. Below theta_j,
        # u_j = a_j c_j and u_j log2 u_j = a_j (c_j log2 c_j + c_j log2 a_j) is read from a
        # per-class table; a logarithm is taken only for the entries above theta_j. Each entry
        # gets the same value whichever rows it is evaluated with (no batch-dependent rounding).
        nf = np.asarray(n, dtype=np.float64)
        m = c.shape[0]
        S = np.zeros(m)
        acc = np.zeros(m)
        for j in range(c.shape[1]):
            ci = np.ascontiguousarray(c[:, j])
            cf = ci.astype(np.float64)
            mask = cf > self._th[j] * nf
            u = cf * self._a[j]
            if self._below is None:
                u = np.where(mask, cf * self._b[j] + self._d[j] * nf, u)
                # u = 0 gives 0 * log2(tiny) = 0: no mask needed
                t = np.log2(np.maximum(u, 1e-300))
                t *= u
            else:
                t = self._below[j][ci]
                n_above = int(np.count_nonzero(mask))
                if 4 * n_above > m:
                    # dense: a logarithm everywhere is cheaper than fancy indexing
                    ua = cf * self._b[j] + self._d[j] * nf
                    t = np.where(mask, ua * np.log2(np.maximum(ua, 1e-300)), t)
                    u = np.where(mask, ua, u)
                elif n_above:
                    above = np.flatnonzero(mask)
                    ua = cf[above] * self._b[j] + self._d[j] * nf[above]
                    t[above] = ua * np.log2(ua)
                    u[above] = ua
            acc += t
            S += u
        ok = S > 0
        safe_s = np.where(ok, S, 1.0)
        h = np.log2(safe_s) - acc / safe_s
        return np.where(ok, np.maximum(h, 0.0), 0.0)

    __call__ = _oc_shannon

    def _oc_shannon_f32(self, c, n):
        """Off-centered Shannon entropy (bits) in float32, for screening (q > 2 classes).

        With p = c / n and the unnormalised pseudo-frequencies w_j = p_j / (q theta_j) below
        theta_j and w_j = b_j p_j + d_j above, S = sum_j w_j lies in [1/q, q] and
        H = ln S - sum_j w_j ln w_j / S, with every w_j ln w_j in [-1/e, 0]: no cancellation
        of large logarithms, so float32 is accurate to about 1e-5 (see ``approx_error``).
        """
        nf = np.asarray(n)
        full = bool(nf.size) and nf.min() > 0  # no empty child (always so in the split search)
        # 1 / n in float32 (n < 2**24 is exact in float32): within one rounding, as before
        inv = np.reciprocal((nf if full else np.where(nf > 0, nf, 1)).astype(np.float32))
        C = c.T  # class-major (q, m): one call per operation for all classes
        out = np.empty(c.shape[0])
        for i in range(0, c.shape[0], F32_CHUNK):  # chunks stay in cache
            sl = slice(i, i + F32_CHUNK)
            out[sl] = self._oc_shannon_f32_chunk(C[:, sl], inv[sl], None if full else nf[sl] > 0)
        return out

    def _oc_shannon_f32_chunk(self, C, inv, ok):
        """One chunk of :meth:`_oc_shannon_f32`; ``ok`` is None when no total is 0."""
        f32 = np.float32
        P = C.astype(f32)
        P *= inv
        W = P * self._b32[:, None]
        W += self._d32[:, None]
        P *= self._a32[:, None]
        # the two lines meet at p = theta_j: w is the lower one if theta_j < 1/q (the
        # steeper line a p is below there), the upper one otherwise
        for j, pick in enumerate(self._pick):
            pick(W[j], P[j], out=W[j])
        S = W.sum(axis=0)
        np.add(W, f32(1e-30), out=P)  # w = 0 gives 0 * log(1e-30) = 0
        np.log(P, out=P)
        P *= W
        A = P.sum(axis=0)
        if ok is not None:
            S[~ok] = 1.0
        h = np.log(S)
        h -= A / S
        out = h.astype(np.float64)
        out *= 1.0 / np.log(2.0)
        np.maximum(out, 0.0, out=out)
        if ok is not None:
            out[~ok] = 0.0
        return out

    def _oc_shannon_f32_error(self) -> float:
        """A bound (bits) on |_oc_shannon_f32 - exact| for any counts below 2**24.

        Inputs: p has relative error <= 2u (u = 2**-24); w below theta 4u; above theta, where
        w >= 1/q, at most u (q (3 b + 2 |d|) + 2); a branch chosen on the other side of theta
        by rounding adds 3 q |b - a| theta u. A relative error delta on every w moves H by at
        most 2 delta H <= 2 delta ln q. Evaluation: ln S (|ln S| <= ln q) and every
        w ln w (|.| <= 1/e) within the logarithm's relative error plus roundings; the sum,
        the division by S >= 1/q and the subtraction add their roundings. The total is
        doubled for safety and converted to bits.
        """
        q = self.q
        u = _U32
        a, b, d, th = self._a, self._b, self._d, self._th
        R = np.maximum(4.0, q * (3.0 * b + 2.0 * np.abs(d)) + 2.0 + 3.0 * q * np.abs(b - a) * th)
        delta = u * float(R.max())
        lq = np.log(q)
        e_in = 2.0 * delta * lq * 1.01
        e_logs = _LOG32_REL * lq + q * u
        e_a = q * (_LOG32_REL + u) / np.e + q * q * u / np.e
        e_div = q * e_a + (q * q / np.e) * (q + 2) * u
        e_sub = u * (lq + q * q / np.e)
        return float(2.0 * (e_in + e_logs + e_div + e_sub) / np.log(2.0))


class OffCenteredGiniKernel(_OffCenteredBase):
    """Off-centered Gini index."""

    def _oc_gini(self, c, n):
        S = np.zeros(c.shape[0])
        sq = np.zeros(c.shape[0])
        for _, u in self._oc_cols(c, n):
            S += u
            sq += u * u
        ok = S > 0
        safe_s = np.where(ok, S, 1.0)
        return np.where(ok, np.maximum(1.0 - sq / (safe_s * safe_s), 0.0), 0.0)

    __call__ = _oc_gini


class OffCenteredKernel(_OffCenteredBase):
    """Any other off-centered measure: the registry kernel on the pseudo-frequencies."""

    def _oc_generic(self, c, n):
        u, S = self._oc_u(c, n)
        ok = S > 0
        pi = u / np.where(ok, S, 1.0)[:, None]
        pi = np.where(ok[:, None], pi, 1.0 / c.shape[1])
        with np.errstate(divide="ignore", invalid="ignore"):
            values = self.imp.info.kernel(pi, **self.imp.params)
        return np.where(ok, values, 0.0)

    __call__ = _oc_generic


class AsymmetricKernel(CountKernel):
    """The asymmetric entropy (plain or consistent), with a row bound on integer counts."""

    def __init__(self, imp, q, n_max, weighted=False):
        super().__init__(imp, q, n_max, weighted)
        th = np.asarray(imp.theta, np.float64)
        self._A = 1.0 - 2.0 * th
        self._B = th * th
        self._th = th
        if not weighted:
            self.row_bound = self._asymmetric_row_bound
            # with two classes the exact kernel (and pruning) is cheaper than blocks
            self.block_node_min = 5_000 if q > 2 else None

    def _asymmetric(self, c, n):
        nf = np.asarray(n, dtype=np.float64)
        q = c.shape[1]
        if self.imp.consistent:
            inv = 1.0 / (nf + q)
        else:
            inv = 1.0 / np.where(nf > 0, nf, 1.0)
        h = np.zeros(c.shape[0])
        for j in range(q):
            x = c[:, j].astype(np.float64)
            if self.imp.consistent:
                x += 1.0
            x *= inv
            h += x * (1.0 - x) / (self._A[j] * x + self._B[j])
        return np.where(nf > 0, np.maximum(h / q, 0.0), 0.0)

    __call__ = _asymmetric

    def _asymmetric_row_bound(self, c_lo, c_hi, n_lo, n_hi):
        """Bound on how much one row changes n * h (asymmetric entropy), over a box of counts.

        h = (1/q) sum_j g_j(x_j) with g_j(x) = x (1 - x) / (A_j x + B_j), A_j = 1 - 2 theta_j,
        B_j = theta_j^2, and x_j = (c_j + e) / (n + q e) (e = 1 for the consistent form, with
        the child's own n; e = 0 otherwise). Adding a row of class k along c + t e_k (n + t),
        dx_j/dt = (delta_jk - x_j) / (n + q e), so

            d(n h)/dt = h + n / (n + q e) * (1/q) [g'_k(x_k) - sum_j x_j g'_j(x_j)],

        and |d(n h)/dt| <= h + (1/q) (|g'_k| + max_j |g'_j|) (sum_j x_j = 1). Over the box,
        x_j lies in [(c_lo + e) / (n_hi + q e), (c_hi + e) / (n_lo + q e)]; g_j is at most 1
        (its maximum, at theta_j) and at most its larger end value when theta_j is outside
        the interval (g_j is unimodal); g'_j = (B - 2 B x - A x^2) / (A x + B)^2, whose
        numerator is monotone on [0, 1] (its vertex -B/A is outside) and whose denominator is
        positive and linear inside the square, so |g'_j| is at most the larger end value of
        the numerator over the smaller end value of the denominator.
        """
        q = self.q
        A, B, th = self._A[:, None], self._B[:, None], self._th[:, None]
        e = 1.0 if self.imp.consistent else 0.0
        x_lo = (c_lo + e) / (np.asarray(n_hi, np.float64) + q * e)
        x_hi = np.minimum((c_hi + e) / np.maximum(np.asarray(n_lo, np.float64) + q * e, 1.0), 1.0)

        def g(x):
            return x * (1.0 - x) / (A * x + B)

        g_hi = np.where((x_lo <= th) & (th <= x_hi), 1.0, np.maximum(g(x_lo), g(x_hi)))
        num = np.maximum(
            np.abs(B - 2.0 * B * x_lo - A * x_lo * x_lo),
            np.abs(B - 2.0 * B * x_hi - A * x_hi * x_hi),
        )
        den = np.minimum(A * x_lo + B, A * x_hi + B)
        dg = num / (den * den)
        return g_hi.sum(axis=0) / q + (dg + dg.max(axis=0)) / q


class GenericKernel(CountKernel):
    """Any other measure: the registry kernel on the frequencies c / n."""

    def _freq(self, c, n):
        nf = np.asarray(n, dtype=np.float64)
        empty = nf <= 0
        safe = np.where(empty, 1.0, nf)
        p = c / safe[:, None]
        if empty.any():
            p = np.where(empty[:, None], 1.0 / c.shape[1], p)
        return p, nf, empty

    def __call__(self, c, n):
        p, nf, empty = self._freq(c, n)
        with np.errstate(divide="ignore", invalid="ignore"):
            values = self.imp._eval(p, nf)
        return np.where(empty, 0.0, values)
