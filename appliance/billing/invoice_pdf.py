"""An invoice as a PDF (GET .../billing/invoices/{id}/pdf), written by fpdf2 with its core
Helvetica: Latin-1 text, which covers Spanish and English names and amounts (anything outside it is
written as `?` rather than failing). One page for any invoice this appliance makes (a plan and up
to four add-ons); longer ones flow on to the next page."""

from __future__ import annotations

from sqlmodel import Session

from appliance.billing import invoices, money
from appliance.billing.invoices import InvoiceView
from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.i18n import Words, _l
from appliance.installation import public_address
from appliance.organizations.models import Organization

INVOICE_WORDS = Words("invoice_pdf", {
    "invoice": _l("Invoice"), "to": _l("Billed to"), "period": _l("Period"), "due": _l("Due"),
    "status": {"OPEN": _l("Unpaid"), "PAID": _l("Paid"), "VOID": _l("Void")}, "description": _l("Description"),
    "quantity": _l("Qty"), "unit": _l("Unit price"), "amount": _l("Amount"), "total": _l("Total"),
    "issuer": _l("Issued by"),
})


def _latin1(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


def render(view: InvoiceView, organization: Organization, *, issuer: str, language: str = "en") -> bytes:
    from fpdf import FPDF  # loaded when an invoice is asked for, not at every start (it brings Pillow)

    words = INVOICE_WORDS[language if language in ("es", "en") else "en"]
    invoice = view.invoice
    pdf = FPDF(format="A4")
    pdf.set_title(f"{words['invoice']} {invoice.number}")
    pdf.set_creation_date(clock.now())
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(0, 10, _latin1(f"{words['invoice']} #{invoice.number}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 10)
    facts = [(words["issuer"], issuer), (words["to"], f"{organization.name} <{organization.billing_email}>"),
             (words["period"], f"{invoice.period_start.date().isoformat()} - {invoice.period_end.date().isoformat()}"),
             (words["due"], invoice.due_at.date().isoformat()),
             (words["status"][invoice.status] if invoice.status in words["status"] else invoice.status,
              invoice.paid_at.date().isoformat() if invoice.paid_at else "")]
    for label, value in facts:
        pdf.cell(40, 6, _latin1(label))
        pdf.cell(0, 6, _latin1(value), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    widths = (95, 15, 40, 40)
    pdf.set_font("Helvetica", "B", 10)
    for width, label, align in zip(widths, (words["description"], words["quantity"], words["unit"], words["amount"]),
                                   ("L", "R", "R", "R")):
        pdf.cell(width, 7, _latin1(label), border="B", align=align)
    pdf.ln()
    pdf.set_font("Helvetica", "", 10)
    for line in view.lines:
        cells = (line.description, str(line.quantity), money.text(line.unit_minor, invoice.currency),
                 money.text(line.amount_minor, invoice.currency))
        for width, value, align in zip(widths, cells, ("L", "R", "R", "R")):
            pdf.cell(width, 7, _latin1(value), align=align)
        pdf.ln()
    pdf.set_font("Helvetica", "B", 11)
    pdf.cell(sum(widths[:3]), 9, _latin1(words["total"]), border="T", align="R")
    pdf.cell(widths[3], 9, _latin1(f"{money.text(invoice.total_minor, invoice.currency)} {invoice.currency}"),
             border="T", align="R")
    return bytes(pdf.output())


def pdf_of(session: Session, *, actor: OrgActor, invoice_id: str, language: str = "en") -> tuple[int, bytes]:
    """(the invoice's number, its PDF), issued by the installation at its public address."""
    view = invoices.access_invoice(session, actor=actor, invoice_id=invoice_id)
    organization = session.get(Organization, actor.organization_id)
    return view.invoice.number, render(view, organization, issuer=public_address.base_url(), language=language)
