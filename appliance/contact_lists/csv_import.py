"""Reading a contacts CSV as spreadsheets write them: UTF-8 (with or without BOM) or Windows-1252
(Excel's "CSV" in Spanish and English locales), comma or semicolon separated, a header row with
the phone column under any usual name, or no header at all (phone, then name)."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field

from appliance.contacts.service import normalize_wa_id
from appliance.core.errors import Invalid
from appliance.core.text import fold

MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 20_000  # one import holds the write lock ~2 s at this size on these machines
MAX_REJECTIONS_LISTED = 100
_PHONE_HEADERS = {"waid", "wa", "phone", "phonenumber", "telephone", "telefono", "tel", "numero", "number",
                  "celular", "cel", "movil", "mobile", "whatsapp", "whatsappnumber"}
_NAME_HEADERS = {"name", "fullname", "nombre", "nombrecompleto", "contact", "contacto"}


@dataclass
class Row:
    line: int
    wa_id: str
    name: str | None
    attributes: dict


@dataclass
class Parsed:
    rows: list[Row] = field(default_factory=list)
    rejected: int = 0
    rejections: list[dict] = field(default_factory=list)  # the first MAX_REJECTIONS_LISTED

    def reject(self, line: int, reason: str) -> None:
        self.rejected += 1
        if len(self.rejections) < MAX_REJECTIONS_LISTED:
            self.rejections.append({"line": line, "reason": reason})


def _key(header: str) -> str:
    return "".join(c for c in fold(header) if c.isalnum())


def _decode(content: bytes) -> str:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("cp1252", errors="replace")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _cell(value: str, limit: int) -> str:
    return _CONTROL.sub("", unicodedata.normalize("NFC", value)).strip()[:limit]


def parse(content: bytes) -> Parsed:
    text = _decode(content)
    if not text.strip():
        raise Invalid("The file is empty.", code="csv_empty")
    first_line = text.splitlines()[0]
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        records = list(reader)
    except csv.Error as exc:
        raise Invalid(f"The file is not readable as CSV: {exc}.", code="csv_unreadable") from None
    if len(records) > MAX_ROWS + 1:
        raise Invalid(f"At most {MAX_ROWS:,} rows per import; split the file.", code="csv_too_many_rows")
    header = [_key(cell) for cell in records[0]]
    phone_column = next((i for i, key in enumerate(header) if key in _PHONE_HEADERS), None)
    if phone_column is None:
        if records[0] and normalize_wa_id(records[0][0]):  # no header: phone, name
            phone_column, name_column, attribute_columns, start = 0, 1, {}, 0
        else:
            raise Invalid("No phone column: name it phone, telefono, waId or whatsapp (or put numbers first).",
                          code="csv_no_phone_column")
    else:
        name_column = next((i for i, key in enumerate(header) if key in _NAME_HEADERS), None)
        attribute_columns = {i: _cell(records[0][i], 64) for i in range(len(header))
                             if i not in (phone_column, name_column) and _cell(records[0][i], 64)}
        start = 1
    parsed, seen = Parsed(), set()
    for index in range(start, len(records)):
        cells, line = records[index], index + 1
        if not any(cell.strip() for cell in cells):
            continue
        wa_id = normalize_wa_id(cells[phone_column]) if phone_column < len(cells) else None
        if wa_id is None:
            parsed.reject(line, "not a phone number with country code")
            continue
        if wa_id in seen:
            parsed.reject(line, "the same number appears earlier in the file")
            continue
        seen.add(wa_id)
        name = _cell(cells[name_column], 200) if name_column is not None and name_column < len(cells) else ""
        attributes = {attribute: _cell(cells[i], 1000) for i, attribute in list(attribute_columns.items())[:50]
                      if i < len(cells) and cells[i].strip()}
        parsed.rows.append(Row(line=line, wa_id=wa_id, name=name or None, attributes=attributes))
    return parsed
