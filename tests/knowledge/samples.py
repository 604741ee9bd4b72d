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


def many_pages_pdf(pages: int, text: str | None = "Hola") -> bytes:
    """A PDF of `pages` pages sharing one content stream, written by hand (fpdf2 would take minutes
    for 50,000 pages): `text` on each page, or none (pages of a scan)."""
    content = (f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET" if text else "").encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"]
    first = len(objects) + 1
    kids = " ".join(f"{first + i} 0 R" for i in range(pages))
    objects[1] = f"<< /Type /Pages /Count {pages} /Kids [{kids}] >>".encode()
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            b"/Contents 4 0 R >>")
    objects += [page] * pages
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def zip_bomb_docx(unpacked_mb: int) -> bytes:
    """A real Word document whose text, one repeated letter in long paragraphs, unpacks to about
    `unpacked_mb` MB from a file of a few hundred KB (written part by part: never whole in memory)."""
    import zipfile
    source = zipfile.ZipFile(io.BytesIO(docx_bytes(["Política"])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bomb:
        for info in source.infolist():
            if info.filename != "word/document.xml":
                bomb.writestr(info, source.read(info))
                continue
            with bomb.open("word/document.xml", "w") as part:
                part.write(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w='
                           b'"http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>')
                paragraph = b"<w:p><w:r><w:t>" + b"a" * (1024 * 1024) + b"</w:t></w:r></w:p>"
                for _ in range(unpacked_mb):
                    part.write(paragraph)
                part.write(b"</w:body></w:document>")
    return out.getvalue()
