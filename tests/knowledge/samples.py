"""Real files for the knowledge base's tests, the evaluation and the benchmark: PDFs written by
fpdf2 and Word documents by python-docx, so extraction meets what owners upload."""

from __future__ import annotations

import io


def pdf_bytes(pages: list[list[str]], *, password: str | None = None) -> bytes:
    """One page per list of paragraphs; a paragraph starting with '# ' is set as a heading."""
    from fpdf import FPDF
    pdf = FPDF()
    pdf.set_auto_page_break(True, margin=15)
    for paragraphs in pages:
        pdf.add_page()
        for paragraph in paragraphs:
            heading = paragraph.startswith("# ")
            pdf.set_font("Helvetica", "B" if heading else "", 14 if heading else 11)
            pdf.multi_cell(0, 6, paragraph.removeprefix("# "))
            pdf.ln(4)
    if password:
        pdf.set_encryption(owner_password=password, user_password=password)
    return bytes(pdf.output())


def docx_bytes(blocks: list[str], table: list[list[str]] | None = None) -> bytes:
    """Paragraphs; '# ' and '## ' start headings; an optional table at the end."""
    import docx
    document = docx.Document()
    for block in blocks:
        if block.startswith("## "):
            document.add_heading(block[3:], level=2)
        elif block.startswith("# "):
            document.add_heading(block[2:], level=1)
        else:
            document.add_paragraph(block)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
