"""Reading a user's CSV file safely: bytes in, a clean DataFrame and a report out.

:func:`read_csv_bytes` detects the encoding (UTF-8 with or without BOM, UTF-16, Latin-1) and the
separator (comma, semicolon, tab), checks the shape of the table, repairs what can be repaired
(empty or duplicated column names, infinite numbers, all-missing columns; each repair is reported
as a warning) and raises :class:`DataProblem` with a message meant for the user for everything
else (empty file, binary file, ragged rows, mixed separators, ...). :func:`infer_kinds`,
:func:`apply_kinds`, :func:`left_out_columns` (identifiers and constant columns) and
:func:`check_target` then prepare the columns for a tree. The report says what reading did
(:meth:`CsvReport.reading_notes`): the missing cells per column, the markers read as missing, the
decimal separator.

Conventions
-----------
- Every message is plain text that names the problem and what to do; user strings (column names,
  values) are quoted with ``repr``-like quotes and must still be shown as text by the page.
- The limits are module constants: :data:`MAX_UPLOAD_BYTES`, :data:`MAX_COLUMNS`,
  :data:`MAX_CLASSES`, :data:`MAX_NAME_LENGTH`, :data:`QUICK_CELLS`.

Examples
--------
>>> df, report = read_csv_bytes(b"colour;size;edible\\nred;1;yes\\nblue;2;no\\n")
>>> report.separator, report.encoding, df.shape
(';', 'UTF-8', (2, 3))
>>> infer_kinds(df)
{'colour': 'categorical', 'size': 'numeric', 'edible': 'categorical'}
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

#: Largest file accepted, in bytes (50 MB; the pages check it and show a visible message; the
#: server refuses a request over 50 MiB, server.maxUploadSize in .streamlit/config.toml).
MAX_UPLOAD_BYTES = 50_000_000
#: Most columns accepted.
MAX_COLUMNS = 500
#: Most classes a target may have.
MAX_CLASSES = 50
#: Column names longer than this are shortened (and reported).
MAX_NAME_LENGTH = 80
#: Above this many cells (rows x features) growing a tree is no longer quick: offer a sample.
QUICK_CELLS = 2_500_000
#: The separators detected, with their names.
SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}
KINDS = ("numeric", "categorical")

_BINARY_MAGIC = {
    b"PK\x03\x04": "a ZIP archive (an .xlsx or .ods spreadsheet is one)",
    b"\xd0\xcf\x11\xe0": "an old Excel (.xls) or Office file",
    b"%PDF": "a PDF document",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"\x1f\x8b": "a gzip archive",
    b"SQLite format": "an SQLite database",
    b"PAR1": "a Parquet file",
}
#: The cells read as missing (compared without case and surrounding spaces).
MISSING_MARKERS = ("", "na", "n/a", "nan", "null", "none", "?")
_MISSING = set(MISSING_MARKERS)
_INF = {"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}


class DataProblem(ValueError):
    """A problem with the user's data; its message is meant to be shown as is on the page."""


@dataclass
class CsvReport:
    """What :func:`read_csv_bytes` found and repaired."""

    name: str
    encoding: str
    separator: str
    n_rows: int
    n_columns: int
    warnings: list[str] = field(default_factory=list)
    #: Missing cells per column of the table read (columns without any are left out), in the
    #: table's column order; infinite numbers made missing count too.
    missing: dict[str, int] = field(default_factory=dict)
    #: The cells read as missing, by what they held (``""`` for an empty cell), most frequent
    #: first; the markers are :data:`MISSING_MARKERS`, compared without case.
    missing_tokens: dict[str, int] = field(default_factory=dict)
    #: The columns whose numbers were written with a decimal comma ("2,5", read as 2.5).
    decimal_comma: list[str] = field(default_factory=list)

    @property
    def separator_name(self) -> str:
        return SEPARATORS.get(self.separator, repr(self.separator))

    @property
    def decimal(self) -> str:
        """The decimal separator detected: ``","`` when a column was written with decimal
        commas, else ``"."``."""
        return "," if self.decimal_comma else "."

    def summary(self) -> str:
        return (
            f"{self.n_rows} rows x {self.n_columns} columns, {self.encoding}, "
            f"separated by {self.separator_name}"
        )

    def reading_notes(self, limit: int = 8) -> list[str]:
        """What reading did, one plain sentence each: the missing cells (per column, at most
        ``limit`` columns named), the markers read as missing, the decimal separator.

        The sentences quote column names and cells: a page shows them as text (escaped).

        >>> _, rep = read_csv_bytes(b"a;b;y\\n1,5;?;p\\n;x;q\\n2,0;NA;p\\n")
        >>> for line in rep.reading_notes():
        ...     print(line)
        3 missing cells in 2 of 3 columns: “a” 1, “b” 2.
        Read as missing: empty (1 cell), “?” (1 cell), “NA” (1 cell).
        Decimal separator: comma (“2,5” read as 2.5), in 1 column: “a”.
        """
        total = sum(self.missing.values())
        if not total:
            notes = ["No missing cells."]
        else:
            named = list(self.missing.items())
            shown = ", ".join(f"{_quote(c)} {k:,}" for c, k in named[:limit])
            more = f", and {len(named) - limit} more columns" if len(named) > limit else ""
            notes = [
                f"{total:,} missing cell{'s' if total != 1 else ''} in {len(named)} of "
                f"{self.n_columns} columns: {shown}{more}."
            ]
        if self.missing_tokens:
            parts = []
            for token, k in self.missing_tokens.items():
                cells = f"{k:,} cell{'s' if k != 1 else ''}"
                parts.append(f"{'empty' if token == '' else _quote(token)} ({cells})")
            notes.append("Read as missing: " + ", ".join(parts) + ".")
        if self.decimal_comma:
            cols = self.decimal_comma
            shown = ", ".join(_quote(c) for c in cols[:limit])
            more = f", and {len(cols) - limit} more" if len(cols) > limit else ""
            notes.append(
                "Decimal separator: comma (“2,5” read as 2.5), in "
                f"{len(cols)} column{'s' if len(cols) != 1 else ''}: {shown}{more}."
            )
        else:
            notes.append("Decimal separator: point (“2.5”).")
        return notes


def _quote(text: object, limit: int = 40) -> str:
    s = str(text)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return "“" + s + "”"


# ---------------------------------------------------------------------------------- decoding
def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode a file's bytes; return (text, encoding name) or raise :class:`DataProblem`.

    Tries UTF-8 (a BOM is removed), UTF-16 (with a BOM, or NUL bytes in every other position),
    then Latin-1 (accepted only when it yields no control characters, which would mean the bytes
    are in fact binary or in an unknown encoding).

    >>> decode_bytes("é,b\\n".encode("latin-1"))
    ('é,b\\n', 'Latin-1')
    >>> decode_bytes(b"\\xef\\xbb\\xbfa,b\\n")
    ('a,b\\n', 'UTF-8 (BOM)')
    """
    if not data or not data.strip():
        raise DataProblem("The file is empty: there is nothing to read.")
    for magic, what in _BINARY_MAGIC.items():
        if data.startswith(magic):
            raise DataProblem(
                f"This is not a CSV file: it looks like {what}. Save the table as CSV "
                "(comma, semicolon or tab separated text) and upload that."
            )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError as exc:
            raise DataProblem(
                "The file starts like UTF-16 text but some bytes are not valid UTF-16 "
                f"(at byte {exc.start}). Re-save it as UTF-8 CSV."
            ) from None
    head = data[:4000]
    if len(head) >= 4 and head.count(b"\x00") * 2 >= len(head) - 2:
        even_nul = head[0::2].count(b"\x00")
        enc = "utf-16-be" if even_nul > head[1::2].count(b"\x00") else "utf-16-le"
        try:
            return data.decode(enc), "UTF-16"
        except UnicodeDecodeError:
            pass
    if b"\x00" in head:
        raise DataProblem(
            "This is not a CSV file: it contains binary data (NUL bytes). Save the table as CSV "
            "and upload that."
        )
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "UTF-8 (BOM)"
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    text = data.decode("latin-1")
    bad = [i for i, ch in enumerate(text) if _is_control(ch)]
    if bad:
        where = bad[0]
        line = text.count("\n", 0, where) + 1
        raise DataProblem(
            f"Some bytes cannot be decoded (line {line}, byte {where}): the file is neither "
            "UTF-8, UTF-16 nor Latin-1 text, or it is not a text file at all. Re-save it as "
            "UTF-8 CSV."
        )
    del first_bad
    return text, "Latin-1"


def _is_control(ch: str) -> bool:
    o = ord(ch)
    return (o < 32 and ch not in "\t\r\n") or 0x7F <= o <= 0x9F


# ---------------------------------------------------------------------------------- separator
def _split_lines(text: str) -> list[str]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _field_counts(lines: list[str], sep: str) -> list[int]:
    reader = csv.reader(lines, delimiter=sep, quotechar='"')
    try:
        return [len(row) for row in reader]
    except csv.Error:
        return [1] * len(lines)


def detect_separator(text: str) -> str:
    """Pick the separator (comma, semicolon or tab) that splits the lines most consistently.

    >>> detect_separator("a;b;c\\n1;2,5;3\\n")
    ';'
    >>> detect_separator("a\\tb\\n1\\t2\\n")
    '\\t'
    """
    lines = [ln for ln in _split_lines(text) if ln.strip()][:200]
    best, best_score = ",", (-1.0, 0)
    for sep in SEPARATORS:
        counts = _field_counts(lines, sep)
        header = counts[0] if counts else 1
        if header <= 1:
            continue
        agree = sum(c == header for c in counts) / len(counts)
        score = (agree, header)
        if score > best_score:
            best, best_score = sep, score
    return best


def _check_rows(lines: list[str], sep: str) -> None:
    counts = _field_counts(lines, sep)
    header = counts[0]
    bad = [i for i, c in enumerate(counts) if c != header and lines[i].strip()]
    if not bad:
        return
    others = [s for s in SEPARATORS if s != sep]
    mixed = [i for i in bad if any(s in lines[i] for s in others) and sep not in lines[i]]
    if mixed:
        seps = sorted({SEPARATORS[s] for i in mixed for s in others if s in lines[i]})
        shown = ", ".join(str(i + 1) for i in mixed[:8])
        raise DataProblem(
            f"Mixed separators: the header uses {SEPARATORS[sep]}s but line(s) {shown} use "
            f"{' and '.join(seps)}s. Use one separator throughout the file."
        )
    shown = ", ".join(f"line {i + 1} has {counts[i]}" for i in bad[:6])
    more = f" (and {len(bad) - 6} more lines)" if len(bad) > 6 else ""
    raise DataProblem(
        f"Ragged rows: the header has {header} fields but {shown}{more}. Every row needs one "
        "value per column (leave a field empty for a missing value)."
    )


# ---------------------------------------------------------------------------------- names
def clean_names(raw: list[str]) -> tuple[list[str], list[str]]:
    """Fill empty names, shorten very long ones, make duplicates unique; return (names, warnings).

    >>> clean_names(["a", "", "a", " b "])
    (['a', 'column 2', 'a (2)', 'b'], ['Column 2 has no name: called it “column 2”.', 'The column name “a” appears 2 times: renamed the copies to “a (2)”.'])
    """
    warnings = []
    names = []
    for i, name in enumerate(raw):
        name = "" if name is None else str(name).strip()
        if not name:
            name = f"column {i + 1}"
            warnings.append(f"Column {i + 1} has no name: called it {_quote(name)}.")
        elif len(name) > MAX_NAME_LENGTH:
            short = name[: MAX_NAME_LENGTH - 1] + "…"
            warnings.append(
                f"Column {i + 1} has a very long name ({len(name)} characters): shortened to "
                f"{_quote(short, MAX_NAME_LENGTH + 2)}."
            )
            name = short
        names.append(name)
    seen: dict[str, int] = {}
    out = []
    renamed: dict[str, list[str]] = {}
    taken = set(names)
    for name in names:
        if name in seen:
            k = seen[name] + 1
            new = f"{name} ({k})"
            while new in taken:
                k += 1
                new = f"{name} ({k})"
            seen[name] = k
            taken.add(new)
            renamed.setdefault(name, []).append(new)
            out.append(new)
        else:
            seen[name] = 1
            out.append(name)
    for name, copies in renamed.items():
        warnings.append(
            f"The column name {_quote(name)} appears {len(copies) + 1} times: renamed the copies "
            f"to {', '.join(_quote(c) for c in copies)}."
        )
    return out, warnings


# ---------------------------------------------------------------------------------- reading
def read_csv_bytes(
    data: bytes, name: str = "uploaded file", *, max_bytes: int | None = None
) -> tuple[pd.DataFrame, CsvReport]:
    """Parse a CSV file's bytes into a DataFrame; raise :class:`DataProblem` on bad input.

    Numbers become float or int columns, everything else strings (object); the usual missing
    markers (empty, NA, NaN, ?, null, ...) become missing; infinite numbers become missing with a
    warning; columns with no value at all are dropped with a warning.

    >>> df, rep = read_csv_bytes(b"x,x,\\n1,inf,a\\n2,3,b\\n")
    >>> list(df.columns)
    ['x', 'x (2)', 'column 3']
    >>> rep.warnings[-1]
    'Column “x (2)” has 1 infinite value(s): treated as missing.'
    """
    if data is None:
        raise DataProblem("No file was received.")
    max_bytes = MAX_UPLOAD_BYTES if max_bytes is None else max_bytes
    if len(data) > max_bytes:
        raise DataProblem(
            f"The file is too large: {len(data) / 1e6:.1f} MB, the limit is "
            f"{max_bytes / 1e6:.4g} MB. Upload a sample of the rows."
        )
    text, encoding = decode_bytes(bytes(data))
    lines = _split_lines(text)
    lines = [ln for ln in lines if ln.strip()]
    if not lines:
        raise DataProblem("The file is empty: there is nothing to read.")
    sep = detect_separator(text)
    header_fields = _field_counts(lines[:1], sep)[0]
    if header_fields <= 1:
        raise DataProblem(
            "The file has only one column (no comma, semicolon or tab separates the fields). A "
            "tree needs a target column and at least one feature column."
        )
    if len(lines) == 1:
        raise DataProblem("The file has a header but no data rows: add at least two rows of data.")
    _check_rows(lines, sep)
    header = next(csv.reader(lines[:1], delimiter=sep, quotechar='"'))
    if len(header) > MAX_COLUMNS:
        raise DataProblem(
            f"The file has {len(header)} columns; at most {MAX_COLUMNS} are supported."
        )
    names, warnings = clean_names(header)
    try:
        df = pd.read_csv(
            io.StringIO("\n".join(lines[1:])),
            sep=sep,
            header=None,
            names=names,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            quotechar='"',
            skip_blank_lines=True,
            engine="c",
            low_memory=False,
        )
    except (ValueError, pd.errors.ParserError) as exc:  # the checks above should prevent it
        raise DataProblem(f"The file could not be parsed as CSV: {exc}") from None
    tokens: dict = {}  # column -> its cells read as missing (row -> what they held)
    commas: set = set()  # columns written with decimal commas
    for col in list(df.columns):
        df[col] = _convert(df[col], col, warnings, tokens, commas)
    empty = [c for c in df.columns if df[c].isna().all()]
    if empty:
        warnings.append(
            f"{len(empty)} column(s) have no value at all and were left out: "
            f"{', '.join(_quote(c) for c in empty[:10])}{' …' if len(empty) > 10 else ''}."
        )
        df = df.drop(columns=empty)
    if df.shape[1] == 0:
        raise DataProblem("Every column of the file is empty: there is no data to use.")
    if df.shape[1] == 1:
        raise DataProblem(
            "Only one column has values: a tree needs a target column and at least one feature."
        )
    blank_rows = df.isna().all(axis=1)
    if blank_rows.any():
        warnings.append(f"{int(blank_rows.sum())} row(s) have no value at all and were left out.")
        df = df.loc[~blank_rows]  # the index is reset below, once the kept rows are known
    if len(df) == 0:
        raise DataProblem("The file has a header but no data rows: add at least two rows of data.")
    kept = df.index  # the rows kept, numbered as read
    df = df.reset_index(drop=True)
    found = [tokens[c] for c in df.columns if c in tokens]  # a dropped column's cells are not
    read_as_missing = pd.concat(found) if found else pd.Series([], dtype=object)
    read_as_missing = read_as_missing[read_as_missing.index.isin(kept)]
    n_missing = df.isna().sum()
    report = CsvReport(
        name=str(name),
        encoding=encoding,
        separator=sep,
        n_rows=len(df),
        n_columns=df.shape[1],
        warnings=warnings,
        missing={c: int(k) for c, k in n_missing.items() if k},
        missing_tokens=dict(
            sorted(
                ((str(t), int(k)) for t, k in read_as_missing.value_counts().items()),
                key=lambda tk: (-tk[1], tk[0]),
            )
        ),
        decimal_comma=[c for c in df.columns if c in commas],
    )
    return df, report


_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")


def _convert(
    s: pd.Series, name: str, warnings: list[str], tokens: dict | None = None, commas=None
) -> pd.Series:
    """Strings to numbers when every present value is a number; missing markers to NaN.

    Vectorised: numbers are parsed once by pandas; decimal commas ("2,5") are accepted when the
    separator is not a comma; infinite values become missing with a warning. The cells read as
    missing are put in ``tokens[name]`` (what they held, by row), and ``name`` is added to
    ``commas`` when its numbers had decimal commas.
    """
    s = s.str.strip()
    missing = s.str.lower().isin(_MISSING)
    if tokens is not None and missing.any():
        tokens[name] = s[missing]
    s = s.mask(missing)
    present = s.dropna()
    if present.empty:
        return pd.Series(np.nan, index=s.index, dtype=float)
    sample = present.iloc[:200]
    lower_sample = sample.str.lower()
    looks_numeric = sample.str.match(_NUMBER) | lower_sample.isin(_INF)
    comma = False
    if not looks_numeric.all():
        comma_ok = sample.str.match(_DECIMAL_COMMA) | looks_numeric
        if not comma_ok.all():
            return s.astype(object)
        comma = True
    text = present.str.replace(",", ".", regex=False) if comma else present
    lower = text.str.lower()
    is_inf = lower.isin(_INF)
    num = pd.to_numeric(text.mask(is_inf), errors="coerce")
    if num[~is_inf].isna().any():
        return s.astype(object)  # some value further down is not a number: a text column
    out = pd.Series(np.nan, index=s.index, dtype=float)
    out.loc[num.index] = num.astype(float)
    if comma and commas is not None:
        commas.add(name)
    n_inf = int(is_inf.sum()) + int(np.isinf(out).sum())
    if n_inf:
        warnings.append(f"Column {_quote(name)} has {n_inf} infinite value(s): treated as missing.")
        out = out.mask(np.isinf(out))
    vals = out.dropna()
    if (
        len(vals)
        and not out.isna().any()
        and np.all(vals == np.round(vals))
        and (vals.abs().max() < 2**53)
    ):
        return out.astype("int64")
    return out


# ---------------------------------------------------------------------------------- kinds
def infer_kinds(df: pd.DataFrame) -> dict[str, str]:
    """'numeric' for number columns, 'categorical' for everything else (text, booleans; a
    name that several columns share).

    Read from the frame's dtypes, without taking a column: a column taken from a frame is a
    view, and pandas keeps a weak reference to every view of a block until it prunes them
    (past 500), so a cached frame read at every rerun held thousands of dead ones, which every
    full garbage collection scanned (:mod:`offcenter.ops.heap`)."""
    shared = df.columns.duplicated(keep=False)
    return {
        c: "numeric"
        if not dup and pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_bool_dtype(dt)
        else "categorical"
        for (c, dt), dup in zip(df.dtypes.items(), shared)
    }


def apply_kinds(df: pd.DataFrame, kinds: dict[str, str]) -> tuple[pd.DataFrame, list[str]]:
    """Convert columns to the requested kinds; return (new frame, warnings).

    numeric -> categorical turns numbers into labels ("1", not "1.0"); categorical -> numeric
    parses numbers and reports values that are not numbers (they become missing).

    >>> df = pd.DataFrame({"code": [1, 2, 1], "y": ["a", "b", "a"]})
    >>> out, w = apply_kinds(df, {"code": "categorical"})
    >>> out["code"].tolist(), w
    (['1', '2', '1'], [])
    """
    out = df.copy()
    warnings = []
    current = infer_kinds(df)
    for col, kind in kinds.items():
        if col not in out.columns or kind == current.get(col):
            continue
        if kind not in KINDS:
            raise DataProblem(f"Unknown column type {kind!r}; choose numeric or categorical.")
        s = out[col]
        if kind == "categorical":
            out[col] = s.map(_label, na_action="ignore").astype(object)
        else:
            num = pd.to_numeric(s, errors="coerce")
            lost = int((num.isna() & s.notna()).sum())
            if num.notna().sum() == 0:
                raise DataProblem(f"Column {_quote(col)} has no numbers, so it cannot be numeric.")
            if lost:
                warnings.append(
                    f"Column {_quote(col)}: {lost} value(s) are not numbers and became missing."
                )
            out[col] = num.astype(float)
    return out, warnings


def _label(v) -> str:
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


_ID_NAME = re.compile(r"^(id|index|idx|key|row|row ?(id|number|no)|unnamed: ?0|.*[_ ]id)$", re.I)


def id_like_columns(df: pd.DataFrame, kinds: dict[str, str] | None = None) -> dict[str, str]:
    """Columns that look like identifiers, with the reason (left out of the features by default).

    Text columns whose values are all distinct, integer columns (of 10 rows or more) that count
    1, 2, 3, ... (or are all distinct with an id-like name), and text columns with one value per
    row or nearly so.

    >>> df = pd.DataFrame({"id": range(10), "x": [1.5, 2.5] * 5, "y": list("ab") * 5})
    >>> id_like_columns(df)
    {'id': 'all 10 values are distinct whole numbers in steps of 1: looks like a row number'}
    """
    kinds = kinds or infer_kinds(df)
    n = len(df)
    out = {}
    if n < 3:
        return out
    for col in df.columns:
        s = df[col].dropna()
        if len(s) < 3:
            continue
        nu = s.nunique()
        if kinds.get(col) == "categorical":
            if nu == len(s):
                out[col] = f"all {nu} values are distinct: an identifier, not a feature"
            elif nu > 50 and nu > 0.9 * len(s):
                out[col] = (
                    f"{nu} distinct values for {len(s)} rows: nearly one per row, like "
                    "an identifier"
                )
        else:
            v = s.to_numpy(dtype=float)
            if len(s) < 10 or nu != len(s) or not np.all(v == np.round(v)):
                continue
            srt = np.sort(v)
            if np.all(np.diff(srt) == 1):
                out[col] = (
                    f"all {nu} values are distinct whole numbers in steps of 1: looks like "
                    "a row number"
                )
            elif _ID_NAME.match(str(col)):
                out[col] = f"all {nu} values are distinct whole numbers and the name says id"
    return out


def constant_columns(df: pd.DataFrame) -> dict[str, str]:
    """Columns holding the same value in every row, with the reason (left out of the features
    by default: no test on them separates any rows, so they cannot split a node).

    A column with one value and some missing cells is not constant: a tree can split it into
    the rows that have the value and those that miss it.

    >>> df = pd.DataFrame({"site": ["A"] * 4, "flag": [1, None, 1, 1], "y": list("abab")})
    >>> constant_columns(df)
    {'site': 'the same value (“A”) in all 4 rows: it cannot split any node'}
    """
    out = {}
    if len(df) < 2:
        return out
    for col in df.columns:
        s = df[col]
        if s.isna().any() or s.nunique() != 1:
            continue
        out[col] = (
            f"the same value ({_quote(_label(s.iloc[0]))}) in all {len(s):,} rows: it cannot "
            "split any node"
        )
    return out


def left_out_columns(df: pd.DataFrame, kinds: dict[str, str] | None = None) -> dict[str, str]:
    """The columns left out of the features by default, with the reason: identifiers
    (:func:`id_like_columns`) and constant columns (:func:`constant_columns`), in the table's
    column order.

    >>> df = pd.DataFrame({"id": range(10), "k": [0] * 10, "y": list("ab") * 5})
    >>> list(left_out_columns(df))
    ['id', 'k']
    """
    found = id_like_columns(df, kinds) | constant_columns(df)
    return {c: found[c] for c in df.columns if c in found}


def check_target(df: pd.DataFrame, target: str) -> pd.Series:
    """Check that a column can be a class target; return it as labels (strings for numbers).

    >>> check_target(pd.DataFrame({"y": [1, 1, 1]}), "y")
    Traceback (most recent call last):
    ...
    offcenter.data.csv_io.DataProblem: The target “y” has a single value (“1”): there is nothing to predict. Choose another target.
    """
    if target not in df.columns:
        raise DataProblem(f"There is no column {_quote(target)} to use as the target.")
    y = df[target]
    present = y.dropna()
    if present.empty:
        raise DataProblem(f"The target {_quote(target)} has no values. Choose another target.")
    nu = present.nunique()
    if nu == 1:
        raise DataProblem(
            f"The target {_quote(target)} has a single value ({_quote(_label(present.iloc[0]))}): "
            "there is nothing to predict. Choose another target."
        )
    if nu > MAX_CLASSES:
        raise DataProblem(
            f"The target {_quote(target)} has {nu} different values; a classification tree "
            f"handles at most {MAX_CLASSES} classes here. Choose a class column (a numeric "
            "measurement is not a class), or group its values first."
        )
    return y.map(_label, na_action="ignore")


def target_columns(df: pd.DataFrame) -> list:
    """The columns that can be a class target: 2 to :data:`MAX_CLASSES` distinct values.

    >>> target_columns(pd.DataFrame({"id": range(60), "k": [1, 2] * 30, "c": [0] * 60}))
    ['k']
    """
    out = []
    for c in df.columns:
        nu = df[c].nunique(dropna=True)
        if 2 <= nu <= MAX_CLASSES:
            out.append(c)
    return out


def prepare_xy(
    df: pd.DataFrame, target: str, features: list[str]
) -> tuple[pd.DataFrame, pd.Series, list[str]]:
    """The feature frame and the class labels for a tree; rows without a class are dropped."""
    y = check_target(df, target)
    if not features:
        raise DataProblem("Choose at least one feature column.")
    features = [f for f in features if f != target]
    if not features:
        raise DataProblem("Choose at least one feature other than the target.")
    keep = y.notna()
    warnings = []
    if not keep.all():
        warnings.append(f"{int((~keep).sum())} row(s) have no target value and were left out.")
    X = df.loc[keep, features].reset_index(drop=True)
    y = y[keep].reset_index(drop=True)
    if y.nunique() < 2:
        raise DataProblem(
            f"After leaving out rows without a target, {_quote(target)} has a single value."
        )
    return X, y, warnings


def too_large(n_rows: int, n_features: int, quick_cells: int | None = None) -> str | None:
    """A message when growing a tree on this data would be slow (None if it is quick).

    The sample it suggests has :func:`quick_sample_size` rows.

    >>> too_large(100, 5) is None
    True
    """
    quick_cells = QUICK_CELLS if quick_cells is None else quick_cells
    cells = n_rows * max(n_features, 1)
    if cells <= quick_cells:
        return None
    suggested = quick_sample_size(n_rows, n_features, quick_cells)
    return (
        f"The data has {n_rows:,} rows x {n_features} features ({cells:,} cells): growing a tree "
        f"will take a while. Use a random sample of {suggested:,} rows to explore "
        "quickly."
    )


def quick_sample_size(n_rows: int, n_features: int, quick_cells: int | None = None) -> int:
    """Rows of a sample small enough to grow quickly (at least 1000, at most n_rows)."""
    quick_cells = QUICK_CELLS if quick_cells is None else quick_cells
    return int(min(n_rows, max(1000, quick_cells // max(n_features, 1))))


def sample_rows(df: pd.DataFrame, n: int, seed: int = 0) -> pd.DataFrame:
    """A reproducible random sample of n rows (all rows when n >= len(df))."""
    if n >= len(df):
        return df
    return df.sample(n=n, random_state=seed).reset_index(drop=True)


def sample_xy(
    X: pd.DataFrame, y: pd.Series, n: int, seed: int = 0
) -> tuple[pd.DataFrame, pd.Series]:
    """The same reproducible random sample of ``n`` rows of X and y, in their original order.

    Positions are ``sort(default_rng(seed).choice(len(X), n, replace=False))``; all rows when
    ``n`` is 0 or at least ``len(X)``. The index is reset.

    >>> X = pd.DataFrame({"a": range(10)}); y = pd.Series(list("ab") * 5)
    >>> Xs, ys = sample_xy(X, y, 3)
    >>> len(Xs), (ys == y[Xs["a"]].to_numpy()).all()
    (3, np.True_)
    """
    if len(X) != len(y):
        raise ValueError(f"y: {len(y)} labels for {len(X)} rows of X")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n: expected a row count >= 0, got {n!r}")
    if not n or n >= len(X):
        return X, y
    rows = np.sort(np.random.default_rng(seed).choice(len(X), n, replace=False))
    return X.iloc[rows].reset_index(drop=True), y.iloc[rows].reset_index(drop=True)


def column_table(df: pd.DataFrame, kinds: dict[str, str], ids: dict[str, str]) -> pd.DataFrame:
    """One row per column: its name, kind, missing values, distinct values, and why it is left
    out of the features by default (``ids``, see :func:`id_like_columns`), for display.

    >>> df = pd.DataFrame({"x": [1.0, None, 1.0], "y": list("aba")})
    >>> column_table(df, infer_kinds(df), {}).to_dict("list")["missing"]
    [1, 0]
    """
    return pd.DataFrame(
        {
            "column": [str(c) for c in df.columns],
            "type": [kinds[c] for c in df.columns],
            "missing": [int(df[c].isna().sum()) for c in df.columns],
            "distinct": [int(df[c].nunique()) for c in df.columns],
            "left out because": [ids.get(c, "") for c in df.columns],
        }
    )


def frame_hash(df: pd.DataFrame) -> str:
    """A stable short hash of a frame's content (for caches and URLs).

    It hashes an unambiguous encoding of the frame: the JSON list of every column's name (with
    its Python type) and dtype, then each column's values hashed on their own
    (``pd.util.hash_pandas_object``). Columns ``"a,b",c`` and ``a,"b,c"`` do not collide (the
    names are not joined by a separator they may contain), nor do ``1`` and ``"1"``, nor the
    same values in another column layout.

    >>> a = pd.DataFrame([[1, 2]], columns=["a,b", "c"])
    >>> b = pd.DataFrame([[1, 2]], columns=["a", "b,c"])
    >>> frame_hash(a) != frame_hash(b), frame_hash(a) == frame_hash(a.copy())
    (True, True)
    """
    h = hashlib.sha256()
    head = [[type(c).__name__, str(c), str(df[c].dtype)] for c in df.columns]
    h.update(json.dumps([len(df), head], ensure_ascii=False).encode("utf-8"))
    for j in range(df.shape[1]):
        h.update(b"\x00column\x00")
        h.update(pd.util.hash_pandas_object(df.iloc[:, j], index=False).to_numpy().tobytes())
    return h.hexdigest()[:16]


#: First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise_formula(value):
    """A text cell that a spreadsheet would run as a formula, prefixed with ``'`` (OWASP's rule
    for ``=``, ``+``, ``-``, ``@``, tab and carriage return); anything else unchanged.

    Only strings are touched: a number, negative or not, stays a number.

    >>> neutralise_formula("=1+2"), neutralise_formula("@SUM(A1)"), neutralise_formula("a-b")
    ("'=1+2", "'@SUM(A1)", 'a-b')
    >>> neutralise_formula(-3.5), neutralise_formula("\\ttab")
    (-3.5, "'\\ttab")
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def neutralise_formulas(df: pd.DataFrame) -> pd.DataFrame:
    """The frame with :func:`neutralise_formula` applied to its column names and to every text
    cell (object, string and categorical columns); numeric columns keep their dtype and values.

    >>> df = pd.DataFrame({"=x": ["=cmd()", "ok"], "n": [-1.5, 2.0]})
    >>> out = neutralise_formulas(df)
    >>> list(out.columns), out["'=x"].tolist(), out["n"].tolist()
    (["'=x", 'n'], ["'=cmd()", 'ok'], [-1.5, 2.0])
    """
    out = df.copy(deep=False)
    out.columns = [neutralise_formula(c) for c in df.columns]
    for j, dtype in enumerate(df.dtypes):  # the dtypes first: a column taken copies the attrs
        if pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
            continue
        col = df.iloc[:, j]
        if not _has_formula(col):  # most columns: nothing to change, no new column
            continue
        if isinstance(col.dtype, pd.CategoricalDtype):
            col = col.astype(object)
        out.isetitem(j, col.map(neutralise_formula))
    return out


def _has_formula(col: pd.Series) -> bool:
    """Whether some text cell of ``col`` starts like a formula (:data:`FORMULA_STARTS`)."""
    if isinstance(col.dtype, pd.CategoricalDtype):  # its categories hold every value
        values = col.cat.categories.to_numpy(dtype=object)
    else:
        values = col.to_numpy(dtype=object)
    return any(isinstance(v, str) and v.startswith(FORMULA_STARTS) for v in values)


def to_csv_text(df: pd.DataFrame, **to_csv_kwargs) -> str:
    """The one CSV writer of the app: the frame as CSV text without the index, every formula
    cell and header neutralised (:func:`neutralise_formulas`). Every CSV a page offers goes
    through it (``to_csv_kwargs`` go to ``DataFrame.to_csv``).

    >>> to_csv_text(pd.DataFrame({"a": ["=1+1", "x"], "b": [-1, 2]})).split("\\r\\n")
    ['a,b', "'=1+1,-1", 'x,2', '']
    """
    buf = io.StringIO()
    # CRLF line ends (RFC 4180): the writer then quotes every cell holding a CR or an LF, so
    # that a value "x\r=1+1" cannot start a row of its own (with "\n" ends it quoted LF only)
    kwargs = {"lineterminator": "\r\n", **to_csv_kwargs}
    neutralise_formulas(df).to_csv(buf, index=False, **kwargs)
    return buf.getvalue()


def to_csv_bytes(df: pd.DataFrame) -> bytes:
    """The frame as UTF-8 CSV bytes (for downloads), through :func:`to_csv_text`."""
    return to_csv_text(df).encode("utf-8")


def read_upload(data: bytes, name: str = "uploaded file") -> dict:
    r"""Read an uploaded file for a page: every failure is a :class:`DataProblem`.

    Returns ``{"name", "df", "report", "hash"}``. :func:`read_csv_bytes` already raises
    ``DataProblem`` with a user-facing message for every bad input it knows; anything else it
    could raise is turned into one too, so that a bad file never shows a traceback.

    Examples
    --------
    >>> read_upload(b"a,b\n1,x\n2,y\n", "t.csv")["df"].shape
    (2, 2)
    """
    try:
        df, report = read_csv_bytes(data, name)
    except DataProblem:
        raise
    except Exception as exc:  # noqa: BLE001 - a bad file must never show a traceback
        raise DataProblem(
            f"The file could not be read ({type(exc).__name__}). Is it a CSV file?"
        ) from exc
    return {"name": name, "df": df, "report": report, "hash": frame_hash(df)}
