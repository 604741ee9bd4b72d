"""What a file is (by its bytes, not its name) and the text in it, within bounds.

Parsing is the well-kept libraries' (pypdf, python-docx, charset-normalizer, the csv module,
trafilatura for web pages); this module only says which one reads what, and turns their failures
into reasons a person can act on (`Unreadable`). Text comes out as light Markdown: headings as
`#` lines and paragraphs separated by a blank line, which is what chunking.py cuts along.

Two moments, two costs. At upload (`sniff`, `check_at_door`) only what the file's structure says,
read from its first bytes and its index: its type, a PDF's password or damage, a text file that is
empty. Reading the text (`extract`) runs on the queue within a `Budget`: at most 50 MB of text
after decompression, 2,000 pages, 5 minutes; checked between pages and parts, where a run that is
no longer wanted (its document deleted, or read again by a newer run) also stops.
"""

from __future__ import annotations

import csv
import io
import logging
import struct
import zipfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import BinaryIO, Callable

from charset_normalizer import from_bytes

from appliance.core import clock

log = logging.getLogger(__name__)

PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
TXT, MARKDOWN, CSV = "text/plain", "text/markdown", "text/csv"
ACCEPTED = "PDF, DOCX, TXT, MD or CSV"
_TEXT_SUFFIXES = {".md": MARKDOWN, ".markdown": MARKDOWN, ".csv": CSV, ".txt": TXT}

# The decided bounds of one reading (docs/knowledge.md).
MAX_TEXT_BYTES = 50 * 1024 * 1024
MAX_PAGES = 2_000
MAX_SECONDS = 5 * 60
# What the door reads of an upload: a text file's first bytes, a zip's index of at most so many parts
# (a Word document has tens; a zip of half a million parts took seconds and hundreds of MB to list).
HEAD_BYTES = 64 * 1024
MAX_ZIP_PARTS = 10_000
_DOCX_BLOCKS_BETWEEN_CHECKS = 200


class Unreadable(Exception):
    """The file cannot give text. `code` is the problem's stable code, the message says why."""

    def __init__(self, message: str, code: str = "no_text_found"):
        super().__init__(message)
        self.code = code


class Stopped(Exception):
    """The reading is no longer wanted: its document was deleted or is being read by a newer run."""


class Budget:
    """What one reading may spend. `check()` between pages and parts: past 5 minutes on the
    project's clock it fails the reading; `still_wanted` (asked there too) ends it quietly.
    `count(text)` adds what was read to the 50 MB."""

    def __init__(self, still_wanted: Callable[[], bool] = lambda: True):
        self.deadline = clock.now() + timedelta(seconds=MAX_SECONDS)
        self._still_wanted = still_wanted
        self.text_bytes = 0

    def check(self) -> None:
        if clock.now() > self.deadline:
            raise Unreadable(f"Reading it took more than {MAX_SECONDS // 60} minutes; split it into smaller files.",
                             code="too_slow")
        if not self._still_wanted():
            raise Stopped()

    def count(self, text: str) -> None:
        self.text_bytes += len(text.encode("utf-8", "surrogatepass"))
        if self.text_bytes > MAX_TEXT_BYTES:
            raise _too_much_text()


def _too_much_text() -> Unreadable:
    return Unreadable(f"It holds more than {MAX_TEXT_BYTES // (1024 * 1024)} MB of text once unpacked; "
                      "split it into smaller files.", code="too_much_text")


@dataclass(frozen=True)
class Table:
    header: str
    rows: list[str]


@dataclass(frozen=True)
class Extracted:
    text: str
    table: Table | None = None  # CSV files: chunks are whole rows with this header

    @property
    def empty(self) -> bool:
        return not (self.table.rows if self.table else self.text.strip())


Source = BinaryIO | Path  # an upload where the request spooled it, or the stored file


def sniff(file: BinaryIO, file_name: str | None) -> str | None:
    """The type the bytes are, whatever the file is called; None for anything we do not read.
    A text file's name only tells Markdown and CSV from plain text. Reads the first bytes and, for
    a zip, its index."""
    file.seek(0)
    head = file.read(HEAD_BYTES)
    if head[:1024].lstrip().startswith(b"%PDF-"):
        return PDF
    if head.startswith(b"PK\x03\x04"):
        return DOCX if _is_word_document(file) else None
    if b"\x00" in head[:8192] and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None  # binary (UTF-16 text starts with its byte order mark)
    if _decode_head(head, whole=len(head) < HEAD_BYTES) is None:
        return None
    suffix = ("." + file_name.rsplit(".", 1)[-1].lower()) if file_name and "." in file_name else ""
    return _TEXT_SUFFIXES.get(suffix, TXT)


def _is_word_document(file: BinaryIO) -> bool:
    if _zip_parts(file) > MAX_ZIP_PARTS:
        return False
    try:
        file.seek(0)
        with zipfile.ZipFile(file) as archive:
            return "word/document.xml" in archive.NameToInfo
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return False


def _zip_parts(file: BinaryIO) -> int:
    """How many parts a zip's end record says it has, read without listing them (0 if not found;
    a zip64 count, past 65,535, reads as more than any bound)."""
    file.seek(0, io.SEEK_END)
    size = file.tell()
    tail_size = min(size, 22 + 65_535)
    file.seek(size - tail_size)
    tail = file.read(tail_size)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or at + 22 > len(tail):
        return 0
    parts = struct.unpack("<H", tail[at + 10:at + 12])[0]
    return 1 << 20 if parts == 0xFFFF else parts


def _decode_head(head: bytes, *, whole: bool) -> str | None:
    """`decode` of a file's first bytes: a character the cut split is not a failure."""
    if whole:
        return decode(head)
    for trim in range(4):  # UTF-8 characters are at most 4 bytes
        try:
            return head[:len(head) - trim].decode("utf-8-sig")
        except UnicodeDecodeError:
            continue
    best = from_bytes(head).best()
    return str(best) if best is not None else None


def decode(content: bytes) -> str | None:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        best = from_bytes(content).best()
        return str(best) if best is not None else None


def check_at_door(file: BinaryIO, mime_type: str) -> None:
    """Refuse at upload what the file's structure already says cannot be read: a PDF with a password
    or broken beyond opening, a text file with nothing in it. Cheap: a PDF's index is read, not its
    pages; a text file's first bytes. Whether there is text in a PDF or a Word document is the
    queue's to find (processing.py)."""
    if mime_type == PDF:
        _pdf_reader(file)
        return
    if mime_type == DOCX:
        return
    file.seek(0)
    head = file.read(HEAD_BYTES)
    whole = len(head) < HEAD_BYTES
    if whole and not (_decode_head(head, whole=True) or "").strip():
        raise Unreadable("The file has no text to read.")


def extract(source: Source, mime_type: str, budget: Budget | None = None) -> Extracted:
    """The text of a file of a sniffed type, within `budget`; raises Unreadable (or Stopped)."""
    budget = budget or Budget()
    if mime_type == PDF:
        return Extracted(_pdf_text(source, budget))
    if mime_type == DOCX:
        return Extracted(_docx_text(source, budget))
    content = source.read_bytes() if isinstance(source, Path) else _read_all(source)
    text = decode(content) or ""
    budget.count(text)
    if mime_type == CSV:
        return Extracted(text, _csv_table(text))
    return Extracted(text)


def _read_all(file: BinaryIO) -> bytes:
    file.seek(0)
    return file.read()


def _pdf_reader(source: Source):
    """Opens the PDF: its cross-reference table and trailer, not its pages (pypdf's page list walks
    the whole page tree: 8 s for 50,000 pages)."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError
    try:
        if not isinstance(source, Path):
            source.seek(0)
        reader = PdfReader(source)
        if reader.is_encrypted:
            raise Unreadable("The PDF is protected with a password; upload a copy without one.", code="file_encrypted")
        return reader
    except Unreadable:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError, RecursionError) as exc:
        raise Unreadable(f"The PDF is damaged and cannot be read ({exc.__class__.__name__}).", code="file_corrupt") from exc


def _more_pages_than(reader, limit: int) -> bool:
    """Whether the page tree holds more than `limit` pages, walked only that far: at most `limit`
    pages and a bounded number of nodes are looked at, however large the tree or whatever its
    /Count claims."""
    from pypdf.generic import DictionaryObject
    pages = visited = 0
    stack = [iter([reader.root_object["/Pages"]])]
    while stack:
        kid = next(stack[-1], None)
        if kid is None:
            stack.pop()
            continue
        node = kid.get_object()
        visited += 1
        if visited > 4 * limit + 64:
            return True  # nodes without pages, or a loop: no document of `limit` pages looks like that
        if not isinstance(node, DictionaryObject):
            continue
        if "/Kids" in node:
            if len(stack) > 64:
                raise Unreadable("The PDF's pages are nested too deep to be read.", code="file_corrupt")
            stack.append(iter(node["/Kids"].get_object()))
            continue
        pages += 1
        if pages > limit:
            return True
    return False


def _page_text(page) -> str:
    try:
        return page.extract_text() or ""
    except Exception as exc:  # one bad page should not lose the whole document
        log.info("a PDF page could not be read: %s", exc)
        return ""


def _pdf_text(source: Source, budget: Budget) -> str:
    reader = _pdf_reader(source)
    try:
        if _more_pages_than(reader, MAX_PAGES):
            raise Unreadable(f"The PDF has more than {MAX_PAGES:,} pages; split it into smaller files.",
                             code="too_many_pages")
        pages = reader.pages
        texts = []
        for page in pages:
            budget.check()
            text = _page_text(page)
            budget.count(text)
            texts.append(text)
    except (Unreadable, Stopped):
        raise
    except Exception as exc:  # pypdf's errors walking a broken page tree, and its own limits
        raise Unreadable(f"The PDF is damaged and cannot be read ({exc.__class__.__name__}).", code="file_corrupt") from exc
    if not any(text.strip() for text in texts):
        raise Unreadable("The PDF has no text to read (a scan? it needs text, not pictures of text).")
    return "\n\n".join(_tidy_lines(text) for text in texts if text.strip())


def _tidy_lines(text: str) -> str:
    """PDF lines are layout, not paragraphs: keep blank lines, join the rest with spaces."""
    paragraphs, current = [], []
    for line in text.splitlines():
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return "\n\n".join(paragraphs)


def _docx_text(source: Source, budget: Budget) -> str:
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    _check_unpacked_size(source)
    try:
        document = docx.Document(source if isinstance(source, Path) else _rewound(source))
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise Unreadable("The Word document is damaged and cannot be read.", code="file_corrupt") from exc
    except Exception as exc:  # lxml's XMLSyntaxError and kin: a broken part inside the archive
        raise Unreadable(f"The Word document is damaged and cannot be read ({exc.__class__.__name__}).",
                         code="file_corrupt") from exc
    from docx.table import Table as WordTable
    blocks, styles = [], {}
    for number, block in enumerate(document.iter_inner_content()):  # paragraphs and tables in reading order
        if number % _DOCX_BLOCKS_BETWEEN_CHECKS == 0:
            budget.check()
        if isinstance(block, WordTable):
            rows = [" | ".join(cell.text.strip() for cell in row.cells) for row in block.rows]
            if rows:
                blocks.append("\n".join(rows))
                budget.count(blocks[-1])
            continue
        text = block.text.strip()
        if not text:
            continue
        style_id = block._p.style  # python-docx looks a style up by id on every call: once per id here
        if style_id not in styles:
            styles[style_id] = (block.style.name or "") if block.style is not None else ""
        style = styles[style_id]
        if style.startswith("Heading") or style == "Title":
            level = int(style.rsplit(" ", 1)[-1]) if style[-1:].isdigit() else 1
            text = "#" * min(level, 6) + " " + text
        blocks.append(text)
        budget.count(text)
    if not blocks:
        raise Unreadable("The Word document has no text to read.")
    return "\n\n".join(blocks)


def _rewound(file: BinaryIO) -> BinaryIO:
    file.seek(0)
    return file


def _check_unpacked_size(source: Source) -> None:
    """A Word document is a zip: its parts' sizes, as its index states them, bound what unpacking
    can produce (Python's zip reader stops at the stated size), so a zip bomb is refused before
    anything is unpacked."""
    try:
        with zipfile.ZipFile(source if isinstance(source, Path) else _rewound(source)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise Unreadable("The Word document is damaged and cannot be read.", code="file_corrupt") from exc
    if len(parts) > MAX_ZIP_PARTS:
        raise Unreadable("The Word document is damaged and cannot be read (too many parts).", code="file_corrupt")
    if sum(part.file_size for part in parts) > MAX_TEXT_BYTES:
        raise _too_much_text()


def _csv_table(text: str) -> Table | None:
    sample = text[:8192]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    rows = [row for row in csv.reader(io.StringIO(text), dialect) if any(cell.strip() for cell in row)]
    if not rows:
        return None
    header, *body = rows
    return Table(" | ".join(cell.strip() for cell in header), [" | ".join(cell.strip() for cell in row) for row in body])


def page_text(html: bytes, url: str) -> str:
    """A web page's main text (menus, footers and ads left out), headings kept as Markdown."""
    import trafilatura
    text = trafilatura.extract(html, url=url, output_format="markdown", include_tables=True,
                               include_comments=False, favor_recall=True)
    if not text or not text.strip():
        raise Unreadable("The page has no readable text (is it built by JavaScript, or behind a sign-in?).")
    return text
