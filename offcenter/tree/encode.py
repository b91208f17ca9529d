"""Encoding of the training data: numeric columns as float64, categorical ones as integer codes.

Rules
-----
- A DataFrame column is **numeric** when its dtype is a numeric one other than bool; every other
  column (object, string, category, bool) is **categorical**. A 2-D numpy array of numbers is
  all numeric; an object array is read as a DataFrame (``infer_objects``) and typed column by
  column the same way.
- Numeric missing values are NaN (or None in an object column); infinite values are an error.
- A categorical missing value (None, NaN, pd.NA) is a category of its own, shown as ``None``
  in groups and as "is missing" in the rules.
- Categories are sorted (by value, or by their text when values of several types are mixed;
  a pandas ``category`` dtype keeps its own order); the missing category comes last.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd


def _python_value(v):
    """A numpy scalar as the equivalent Python value (for JSON and readable labels)."""
    if isinstance(v, np.generic):
        return v.item()
    return v


def _sorted_categories(values) -> list:
    vals = [_python_value(v) for v in values]
    try:
        return sorted(vals)
    except TypeError:
        return sorted(vals, key=lambda v: (type(v).__name__, str(v)))


@dataclass
class FeatureInfo:
    """How one input column is encoded."""

    name: str
    kind: str  # "numeric" or "categorical"
    categories: list = field(default_factory=list)  # code -> value (None = missing), categorical
    has_missing: bool = False

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "kind": self.kind,
            "categories": list(self.categories),
            "has_missing": self.has_missing,
        }

    @classmethod
    def from_dict(cls, d: dict) -> FeatureInfo:
        return cls(d["name"], d["kind"], list(d.get("categories", [])), bool(d["has_missing"]))


@dataclass
class Encoded:
    """Encoded feature matrix.

    ``num`` is a Fortran-ordered float64 array (n, number of numeric features) and ``cat`` a
    Fortran-ordered int32 array of codes (n, number of categorical features), code -1 for a
    category unseen at fit time; ``col[j]`` gives ("num"|"cat", position) of feature j.
    """

    num: np.ndarray
    cat: np.ndarray
    features: list[FeatureInfo]
    slot: list[int]  # feature j -> column position inside num or cat

    @property
    def n(self) -> int:
        return self.num.shape[0] if self.num.shape[1] else self.cat.shape[0]

    def column(self, j: int) -> np.ndarray:
        if self.features[j].kind == "numeric":
            return self.num[:, self.slot[j]]
        return self.cat[:, self.slot[j]]

    def take(self, rows: np.ndarray) -> Encoded:
        return Encoded(
            np.asfortranarray(self.num[rows]),
            np.asfortranarray(self.cat[rows]),
            self.features,
            self.slot,
        )


def _as_frame(X, feature_names=None) -> tuple[pd.DataFrame, bool]:
    """X as a DataFrame; the flag says whether X carried its own column names."""
    if isinstance(X, pd.DataFrame):
        if X.columns.has_duplicates:
            dup = X.columns[X.columns.duplicated()].tolist()
            raise ValueError(f"X has duplicate column names: {dup}.")
        return X, True
    if isinstance(X, pd.Series):
        raise ValueError(
            "X must be 2-D (a DataFrame or a 2-D array); got a Series. "
            "Use X.to_frame() for a single feature."
        )
    if X is None:
        raise ValueError("X is None; give a DataFrame or a 2-D array.")
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(
            f"X must be 2-D (rows x features); got an array of shape {arr.shape}. "
            "Use X.reshape(-1, 1) for a single feature."
        )
    names = [f"x{j}" for j in range(arr.shape[1])]
    if feature_names is not None and len(feature_names) == arr.shape[1]:
        names = list(feature_names)
    frame = pd.DataFrame(arr, columns=list(names))
    if arr.dtype == object:
        frame = frame.infer_objects()
    return frame, False


def _hashable(series: pd.Series) -> pd.Series:
    """An object column whose unhashable values (a dict, a list) are replaced by their text
    (they can then be categories); other columns unchanged."""
    if series.dtype != object:
        return series
    try:
        hash(tuple(series.tolist()))
    except TypeError:
        return series.map(lambda v: v if _hashes(v) else str(v))
    return series


def _hashes(v) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
        series.dtype
    )


def _numeric_values(series: pd.Series, name: str) -> np.ndarray:
    try:
        values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError):
        raise ValueError(f"column {name!r} could not be read as numbers.") from None
    if np.isinf(values).any():
        raise ValueError(
            f"column {name!r} contains infinite values; replace them (or mark them missing "
            "with NaN) before fitting."
        )
    return values


def _coerce_numeric(series: pd.Series, name: str) -> pd.Series:
    """An object column of a numeric feature as numbers (numeric text such as "3.5" is read);
    a value that is neither a number nor missing is a ValueError naming the column and the
    value (never silently routed as missing)."""
    out = pd.to_numeric(series, errors="coerce")
    if not _is_numeric(out):
        return out
    bad = out.isna().to_numpy() & ~series.isna().to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"column {name!r} was numeric at fit time but holds {series.iloc[i]!r} (row {i}), "
            f"which is not a number; give a number, or NaN / None for a missing value."
        )
    return out


def fit_encode(X) -> tuple[Encoded, bool]:
    """Encode the training features; returns the encoding and whether X had column names."""
    frame, named = _as_frame(X)
    n, F = frame.shape
    if F == 0:
        raise ValueError("X has no columns: a tree needs at least one feature.")
    if n == 0:
        raise ValueError("X has no rows: a tree needs at least one example.")
    features, nums, cats, slot = [], [], [], []
    for name in frame.columns:
        s = frame[name]
        label = str(name)
        if _is_numeric(s):
            values = _numeric_values(s, label)
            features.append(FeatureInfo(label, "numeric", [], bool(np.isnan(values).any())))
            slot.append(len(nums))
            nums.append(values)
        else:
            s = _hashable(s)
            missing = s.isna().to_numpy()
            if isinstance(s.dtype, pd.CategoricalDtype):
                present = set(s[~missing].unique().tolist())
                cats_list = [_python_value(c) for c in s.cat.categories if c in present]
            else:
                cats_list = _sorted_categories(pd.unique(s[~missing]))
            has_missing = bool(missing.any())
            if has_missing:
                cats_list.append(None)
            info = FeatureInfo(label, "categorical", cats_list, has_missing)
            features.append(info)
            slot.append(len(cats))
            cats.append(_codes(s, info))
    enc = Encoded(_stack(nums, np.float64, n), _stack(cats, np.int32, n), features, slot)
    return enc, named


def _stack(cols, dtype, n) -> np.ndarray:
    if not cols:
        return np.empty((n, 0), dtype=dtype, order="F")
    out = np.empty((n, len(cols)), dtype=dtype, order="F")
    for j, c in enumerate(cols):
        out[:, j] = c
    return out


def _codes(series: pd.Series, info: FeatureInfo) -> np.ndarray:
    """Codes of a column under a fitted category list (unseen -> -1, missing -> its code)."""
    known = [c for c in info.categories if c is not None]
    series = _hashable(series)
    values = pd.Index(series.to_numpy(dtype=object), dtype=object)
    out = pd.Index(known, dtype=object).get_indexer(values).astype(np.int32)
    if info.has_missing:
        out[pd.isna(series).to_numpy()] = len(info.categories) - 1
    return out


def encode(X, features: list[FeatureInfo], named: bool) -> Encoded:
    """Encode new data with the training encoding (same columns; unseen categories -> -1)."""
    frame, has_names = _as_frame(X, [f.name for f in features])
    names = [f.name for f in features]
    if frame.shape[1] != len(features):
        raise ValueError(
            f"X has {frame.shape[1]} features but the tree was fitted on {len(features)} "
            f"({', '.join(names)})."
        )
    if has_names and named:
        cols = [str(c) for c in frame.columns]
        if cols != names:
            missing = [c for c in names if c not in cols]
            if missing:
                raise ValueError(f"X lacks the column(s) {missing} the tree was fitted on.")
            frame = frame[[c for c in frame.columns if str(c) in names]]
            frame.columns = [str(c) for c in frame.columns]
            frame = frame[names]
    n = frame.shape[0]
    nums, cats, slot = [], [], []
    for j, info in enumerate(features):
        s = frame.iloc[:, j]
        if info.kind == "numeric":
            if not _is_numeric(s):
                s = _coerce_numeric(s, info.name) if s.dtype == object else s
                if not _is_numeric(s):
                    raise ValueError(
                        f"column {info.name!r} was numeric at fit time but holds non-numbers now."
                    )
            slot.append(len(nums))
            nums.append(_numeric_values(s, info.name))
        else:
            slot.append(len(cats))
            cats.append(_codes(s, info))
    return Encoded(_stack(nums, np.float64, n), _stack(cats, np.int32, n), features, slot)


def encode_labels(y, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Class labels -> (classes sorted, integer codes)."""
    if y is None:
        raise ValueError("y is None; give one class label per row of X.")
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"y must be one column of labels; got {y.shape[1]} columns.")
        y = y.iloc[:, 0]
    arr = y.to_numpy() if isinstance(y, pd.Series) else np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"y must be 1-D (one label per row); got shape {arr.shape}.")
    if len(arr) != n:
        raise ValueError(f"X has {n} rows but y has {len(arr)} labels; they must match.")
    if pd.isna(pd.Series(arr, dtype=object if arr.dtype == object else None)).any():
        raise ValueError("y contains missing labels (NaN or None); drop those rows first.")
    if arr.dtype == object:
        vals = [_python_value(v) for v in arr]
        classes = _sorted_categories(set(vals))
        index = {c: i for i, c in enumerate(classes)}
        codes = np.fromiter((index[v] for v in vals), dtype=np.int64, count=len(vals))
        classes_arr = np.empty(len(classes), dtype=object)
        classes_arr[:] = classes
    else:
        classes_arr, codes = np.unique(arr, return_inverse=True)
    if len(classes_arr) < 2:
        raise ValueError(
            f"y has a single class ({_python_value(classes_arr[0])!r}): a classification tree "
            "needs at least two classes, not one class."
        )
    dtype = np.int8 if len(classes_arr) < 127 else np.int32
    return classes_arr, codes.astype(dtype)
