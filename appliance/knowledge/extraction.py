"""What a file is (by its bytes, not its name) and the text in it.

Parsing is the well-kept libraries' (pypdf, python-docx, charset-normalizer, the csv module,
trafilatura for web pages); this module only says which one reads what, and turns their failures
into reasons a person can act on (`Unreadable`). Text comes out as light Markdown: headings as
`#` lines and paragraphs separated by a blank line, which is what chunking.py cuts along.
"""

from __future__ import annotations

import csv
import io
import logging
import zipfile
from dataclasses import dataclass

from charset_normalizer import from_bytes

log = logging.getLogger(__name__)

PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
TXT, MARKDOWN, CSV = "text/plain", "text/markdown", "text/csv"
ACCEPTED = "PDF, DOCX, TXT, MD or CSV"
_TEXT_SUFFIXES = {".md": MARKDOWN, ".markdown": MARKDOWN, ".csv": CSV, ".txt": TXT}


class Unreadable(Exception):
    """The file cannot give text. `code` is the problem's stable code, the message says why."""

    def __init__(self, message: str, code: str = "no_text_found"):
        super().__init__(message)
        self.code = code


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


def sniff(content: bytes, file_name: str | None) -> str | None:
    """The type the bytes are, whatever the file is called; None for anything we do not read.
    A text file's name only tells Markdown and CSV from plain text."""
    if content[:1024].lstrip().startswith(b"%PDF-"):
        return PDF
    if content.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(content)) as archive:
                return DOCX if "word/document.xml" in archive.namelist() else None
        except zipfile.BadZipFile:
            return None
    if b"\x00" in content[:8192] and not content.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None  # binary (UTF-16 text starts with its byte order mark)
    if decode(content) is None:
        return None
    suffix = ("." + file_name.rsplit(".", 1)[-1].lower()) if file_name and "." in file_name else ""
    return _TEXT_SUFFIXES.get(suffix, TXT)


def decode(content: bytes) -> str | None:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        best = from_bytes(content).best()
        return str(best) if best is not None else None


def extract(content: bytes, mime_type: str) -> Extracted:
    """The text of a file of a sniffed type; raises Unreadable."""
    if mime_type == PDF:
        return Extracted(_pdf_text(content))
    if mime_type == DOCX:
        return Extracted(_docx_text(content))
    text = decode(content) or ""
    if mime_type == CSV:
        return Extracted(text, _csv_table(text))
    return Extracted(text)


def check(content: bytes, mime_type: str) -> None:
    """Refuse, at upload, what processing could never read: encrypted or broken files and ones with no
    text at all (a scanned PDF). Cheap: a PDF is read page by page only until some text shows."""
    if mime_type == PDF:
        reader = _pdf_reader(content)
        for page in reader.pages:
            if len(_page_text(page).strip()) >= 20:
                return
        raise Unreadable("The PDF has no text to read (a scan? it needs text, not pictures of text).")
    if extract(content, mime_type).empty:
        raise Unreadable("The file has no text to read.")


def _pdf_reader(content: bytes):
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError
    try:
        reader = PdfReader(io.BytesIO(content))
        if reader.is_encrypted:
            raise Unreadable("The PDF is protected with a password; upload a copy without one.", code="file_encrypted")
        _ = len(reader.pages)
        return reader
    except Unreadable:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise Unreadable(f"The PDF is damaged and cannot be read ({exc.__class__.__name__}).", code="file_corrupt") from exc


def _page_text(page) -> str:
    try:
        return page.extract_text() or ""
    except Exception as exc:  # one bad page should not lose the whole document
        log.info("a PDF page could not be read: %s", exc)
        return ""


def _pdf_text(content: bytes) -> str:
    pages = [_page_text(page) for page in _pdf_reader(content).pages]
    return "\n\n".join(_tidy_lines(text) for text in pages if text.strip())


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


def _docx_text(content: bytes) -> str:
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    try:
        document = docx.Document(io.BytesIO(content))
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise Unreadable("The Word document is damaged and cannot be read.", code="file_corrupt") from exc
    except Exception as exc:  # lxml's XMLSyntaxError and kin: a broken part inside the archive
        raise Unreadable(f"The Word document is damaged and cannot be read ({exc.__class__.__name__}).",
                         code="file_corrupt") from exc
    from docx.table import Table as WordTable
    blocks = []
    for block in document.iter_inner_content():  # paragraphs and tables in reading order
        if isinstance(block, WordTable):
            rows = [" | ".join(cell.text.strip() for cell in row.cells) for row in block.rows]
            if rows:
                blocks.append("\n".join(rows))
            continue
        text = block.text.strip()
        if not text:
            continue
        style = (block.style.name or "") if block.style is not None else ""
        if style.startswith("Heading") or style == "Title":
            level = int(style.rsplit(" ", 1)[-1]) if style[-1:].isdigit() else 1
            text = "#" * min(level, 6) + " " + text
        blocks.append(text)
    return "\n\n".join(blocks)


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
